#pragma once
// Featherstone's algorithms on kinematic trees, with spatial_v2's semantics. Every function:
//  - takes q (rad or m) as a vector of size model.nq() and qd, qdd, tau of size model.nv()
//    (equal to model.nb without free joints; a free joint has 7 position variables, position
//    and quaternion, and 6 velocity variables, its body's spatial velocity in body coordinates,
//    so its qdd is the body's spatial acceleration and its tau the body force, see joint.h),
//  - takes optional external forces `fext`: a (6 x nb) matrix for spatial models or (3 x nb) for
//    planar ones whose column i is the force acting on body i, in base coordinates (N m, N),
//  - throws std::invalid_argument naming the function and argument on a size mismatch,
//  - writes its result into `data` and returns a reference to it, allocating nothing.
// Each algorithm lives in its own source file (kinematics, rnea, aba, crba, energy).

#include <stdexcept>

#include <Eigen/Core>

#include "articulate/model/data.h"
#include "articulate/model/model.h"

namespace art {

using VecRef = Eigen::Ref<const Eigen::VectorXd>;
using ExternalForces = Eigen::MatrixXd;

/// Forward kinematics: fills data.<arith>.Xup and X0 (base -> body transforms) for q.
void forwardKinematics(const Model& model, Data& data, const VecRef& q);

/// Pose of body i in base coordinates after forwardKinematics: rotation (body -> base axes) and
/// origin position (m). Planar models are embedded in the x-y plane.
struct BodyPose {
  Mat3 rotation = Mat3::Identity();
  Vec3 position = Vec3::Zero();
};
BodyPose bodyPose(const Model& model, const Data& data, int body);

/// Jacobian of the world velocity of a point fixed in body `body` (`point` in body coordinates,
/// m) at q: J (3 x nv, written in place, allocating nothing) maps qd to the point's linear
/// velocity in base coordinates (m/s), J qd = v. Column k is the point's velocity when velocity
/// variable k alone moves at unit rate (a free joint's six columns: its body's angular and linear
/// velocity in body coordinates; a ball joint's three: its angular velocity). Planar models give
/// the third row zero (the plane is x-y). Runs forwardKinematics (data.X0 holds its result).
/// Throws std::invalid_argument naming the argument for a q of the wrong size, a body out of
/// range or a J that is not 3 x nv.
void pointJacobian(const Model& model, Data& data, const VecRef& q, int body, const Vec3& point,
                   Eigen::Ref<Eigen::MatrixXd> J);

/// Positions and linear velocities of the model's contact points in base coordinates, as
/// spatial_v2's gcPosVel: column j holds [position; velocity] of contacts[j] (6 x ncontacts).
/// Spatial models only; throws std::invalid_argument for planar models.
Eigen::Matrix<double, 6, Eigen::Dynamic> contactPositionsVelocities(const Model& model, Data& data,
                                                                    const VecRef& q,
                                                                    const VecRef& qd);

/// Inverse dynamics by the recursive Newton-Euler algorithm (spatial_v2 ID): the joint forces
/// tau (N m or N) that produce qdd at (q, qd) under gravity and fext, joint armature's
/// armature * qdd included (Model::armature). Result in data.tau.
const Eigen::VectorXd& rnea(const Model& model, Data& data, const VecRef& q, const VecRef& qd,
                            const VecRef& qdd, const ExternalForces* fext = nullptr);

/// Forward dynamics by the articulated-body algorithm (spatial_v2 FDab): joint accelerations
/// at (q, qd) under tau, gravity and fext, with the joints' armature. Result in data.qdd.
const Eigen::VectorXd& aba(const Model& model, Data& data, const VecRef& q, const VecRef& qd,
                           const VecRef& tau, const ExternalForces* fext = nullptr);

/// Joint-space inertia matrix H(q) by the composite-rigid-body algorithm (full symmetric
/// nv x nv matrix in data.H, kg m^2 / kg; a free joint owns a 6x6 block), joint armature added
/// to its diagonal.
const Eigen::MatrixXd& crba(const Model& model, Data& data, const VecRef& q);

/// Whether every entry of H(q) (crba's matrix, armature included) is finite. It computes the
/// entries one at a time and keeps none, so it needs memory in proportion to the bodies, not
/// nv x nv as crba's Data does: the readers' import check of a model of thousands of joints.
bool massMatrixFinite(const Model& model, const VecRef& q);

/// Bias forces C(q, qd, fext) = ID(q, qd, 0, fext), so that tau = H qdd + C. Result in data.C.
const Eigen::VectorXd& biasForces(const Model& model, Data& data, const VecRef& q,
                                  const VecRef& qd, const ExternalForces* fext = nullptr);

/// The joint-space inertia matrix is not positive definite at some state: the dynamics are
/// undefined there (a body without mass or inertia where the motion needs some, e.g. a massless
/// link between two joints about one axis). A simulation reports it as a divergence.
class SingularInertiaError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Factorises data.H = L^T L in place exploiting tree sparsity (Featherstone, RBDA Table 6.3);
/// the factor is stored in data.L. Throws SingularInertiaError naming the joint if H is not
/// positive definite.
void factorizeMassMatrix(const Model& model, Data& data);

/// Solves H x = b in place with the factor from factorizeMassMatrix.
void solveMassMatrix(const Model& model, const Data& data, Eigen::Ref<Eigen::VectorXd> b);

/// Forward dynamics by the composite-rigid-body method (spatial_v2 FDcrb): qdd = H \ (tau - C)
/// with the sparse L^T L factorisation. Result in data.qdd.
const Eigen::VectorXd& forwardDynamicsCrb(const Model& model, Data& data, const VecRef& q,
                                          const VecRef& qd, const VecRef& tau,
                                          const ExternalForces* fext = nullptr);

/// Energy and momentum of the whole tree (spatial_v2 EnerMo), in base coordinates. Planar
/// models fill the first 3 entries of the vectors, the top-left 3x3 of Itot and x, y of cm.
struct EnergyMomentum {
  double kinetic = 0.0;   // J
  double potential = 0.0; // J, -mass * dot(cm, gravity), plus the springs' (springEnergy, actuation.h)
  Vec6 htot = Vec6::Zero();  // total spatial momentum (planar: 3 entries)
  Mat6 Itot = Mat6::Zero();  // composite spatial inertia of the whole tree
  double mass = 0.0;         // kg
  Vec3 cm = Vec3::Zero();    // centre of mass, m (zero if the tree is massless)
  Vec3 vcm = Vec3::Zero();   // velocity of the centre of mass, m/s
};
EnergyMomentum energyMomentum(const Model& model, Data& data, const VecRef& q, const VecRef& qd);

namespace detail {
/// For the integrators' inner loops (formulations/tree_simulation.cpp): the kinetic and
/// potential energy (J) of energyMomentum (equal to rounding) at (q, qd) of the model's sizes
/// (not checked), without its momentum and composite inertia: one outward pass and an inward
/// one. Leaves Xup and v in the workspace (and f as scratch).
void kineticPotential(const Model& m, Data& d, const VecRef& q, const VecRef& qd, double& kinetic,
                      double& potential);
}  // namespace detail

}  // namespace art
