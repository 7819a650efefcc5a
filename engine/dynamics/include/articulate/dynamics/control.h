#pragma once
// Applied forces of a model: its joint controllers (constant, PD, time table) and its constant
// external forces. The simulation evaluates these at every derivative evaluation.

#include <Eigen/Core>

#include "articulate/model/data.h"
#include "articulate/dynamics/dynamics.h"
#include "articulate/model/model.h"

namespace art {

/// The force of one joint controller at time t (s) and joint state (q, qd): N m for rotations,
/// N for translations. A table is linear between its samples and held outside them.
double controlForce(const ControlSpec& control, double t, double q, double qd);

/// Adds the controllers' joint forces at (t, q, qd) to `tau` (size nv), each clamped to its
/// joint's effort limit (JointLimits::effort), and the viscous damping forces -damping * qd
/// (not clamped: the joint's own, not an actuator's). Allocates nothing.
/// Throws std::invalid_argument on a size mismatch.
void addControlForces(const Model& model, double t, const VecRef& q, const VecRef& qd,
                      Eigen::VectorXd& tau);

/// The model's external forces at q as spatial_v2's f_ext: column i is the force on body i in
/// base coordinates ((6 x nb) spatial, (3 x nb) planar; N m, N), written into `fext` (resized
/// once). Runs forward kinematics on `data`. Throws std::invalid_argument on a size mismatch.
void externalForces(const Model& model, Data& data, const VecRef& q, ExternalForces& fext);

}  // namespace art
