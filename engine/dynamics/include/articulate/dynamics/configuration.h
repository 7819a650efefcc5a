#pragma once
// The configuration space of a kinematic tree with free and ball joints: q has nq entries and
// the velocity qd has nv, and for these joints the derivative of q is not qd (joint.h gives the
// layout: free q = [x y z qw qx qy qz], qd = body-coordinate spatial velocity [w; v]; ball
// q = [qw qx qy qz], qd = body-coordinate angular velocity w; a ball joint is a free joint's
// quaternion part alone).
//   dq/dt:      position  p' = R(quat) v        (R: body -> joint-frame rotation)
//               quaternion quat' = 1/2 quat * (0, w)
//   integrate:  p+ = p + R(quat) v h,  quat+ = quat * exp(w h / 2)   (exponential map of SO(3)
//               with the translation taken in the frame at the start, first order in h for the
//               coupled SE(3) motion)
// For every other joint q' = qd and integrate is q + qd h. All functions allocate nothing.

#include <Eigen/Core>

#include "articulate/model/model.h"

namespace art {

/// dq/dt for velocity qd at configuration q, written into qdot (nq). Throws
/// std::invalid_argument on a size mismatch.
void configurationDerivative(const Model& model, const Eigen::Ref<const Eigen::VectorXd>& q,
                             const Eigen::Ref<const Eigen::VectorXd>& qd,
                             Eigen::Ref<Eigen::VectorXd> qdot);

/// q moved along the velocity qd for time h (the exponential map for free and ball joints; see
/// above),
/// written into qout (nq; may alias q). Units: qd in rad/s, m/s, h in s. Throws
/// std::invalid_argument on a size mismatch.
void integrateConfiguration(const Model& model, const Eigen::Ref<const Eigen::VectorXd>& q,
                            const Eigen::Ref<const Eigen::VectorXd>& qd, double h,
                            Eigen::Ref<Eigen::VectorXd> qout);

/// Normalises the quaternion of every free and ball joint in q (nq) in place; a zero quaternion becomes
/// the identity. Throws std::invalid_argument on a size mismatch.
void normalizeConfiguration(const Model& model, Eigen::Ref<Eigen::VectorXd> q);

}  // namespace art
