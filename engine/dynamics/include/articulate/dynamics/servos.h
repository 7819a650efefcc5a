#pragma once
// Add Servos: a position actuator on every joint of a model that has no drive, tuned from the
// model's own inertia so that it holds a pose (the app's Simulation > Add Servos,
// `articulate-cli convert --add-servos`).

#include <string>
#include <vector>

#include "articulate/dynamics/dynamics.h"
#include "articulate/model/spec.h"

namespace art {

struct ServoOptions {
  double frequency = 5.0;  // the natural frequency each joint's servo gives it (Hz, > 0)
  double dampingRatio = 1.0;  // 1: critically damped (>= 0)
  // only these bodies' joints (indices; empty: every joint without a drive)
  std::vector<int> bodies;
  // velocity servos instead (gain kv = H(i, i) w: the joint's speed follows ctrl with the time
  // constant 1 / w; control range ± the joint's velocity limit, else ± 2 pi rad/s or ± 1 m/s)
  bool velocity = false;
  double gear = 1.0;  // each servo's gear (a URDF transmission's mechanical reduction), != 0
};

/// Adds to `spec` a position actuator ("<body> servo") on every hinge and slide joint that no
/// actuator drives and no controller (BodySpec::control) holds, and returns how many. Each is
/// tuned at the pose q (the model's nq positions) from H, the joint-space inertia there: the
/// joint's inertia m = H(i, i) (the others held) gives kp = m w^2 and kv = 2 zeta m w (w = 2 pi
/// frequency); its initial control (ActuatorSpec::ctrl0) is the joint's position in q, so that
/// it holds the pose from the start, and its control range is the joint's limits (else q ± pi
/// rad, or q ± 1 m). A fixed-base model's servos also carry the pose's gravity torque as a
/// constant in their bias, so that they hold the pose without sagging; a floating one's do not
/// (its joints' load comes through its contacts). A joint's effort limit is the servo's force
/// range (divided by the gear). With options.bodies only those joints get one (if they have no
/// drive); options.velocity makes velocity servos. Throws ModelError for a spec that does not
/// compile, std::invalid_argument for a q of the wrong size or bad options.
int addServos(ModelSpec& spec, const Eigen::VectorXd& q, const ServoOptions& options = {});

}  // namespace art
