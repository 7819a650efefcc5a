#pragma once
// Perturbation: the user pulling a body with the mouse while it is simulated (the viewport's
// Ctrl+drag, after MuJoCo's viewer). A spring-damper pulls a point fixed in the body towards a
// target point fixed in the world; with `torque` only the spring's moment about the body's
// centre of mass is applied (Ctrl+Shift+drag turns the body without pushing it). The law is
// the same for every formulation; each evaluates it at its own derivative evaluations, so the
// spring acts as a force element of the dynamics (not as an impulse between steps).

#include "articulate/spatial/spatial.h"

namespace art {

/// A spring-damper between a body point and a world point. Units SI; world (base) coordinates
/// except `point`.
struct Perturbation {
  int body = 0;                 // the body pulled (System body index, as bodyPoses)
  Vec3 point = Vec3::Zero();    // the grabbed point, body coordinates (m)
  Vec3 target = Vec3::Zero();   // where the spring pulls it, world (m)
  double stiffness = 0.0;       // N/m, >= 0
  double damping = 0.0;         // N s/m, >= 0
  bool torque = false;          // apply the spring's moment about the centre of mass alone
};

/// The load a perturbation applies: `force` (N) at `point` (world, m) plus a pure `torque`
/// (N m), world coordinates.
struct PerturbationLoad {
  Vec3 point = Vec3::Zero();
  Vec3 force = Vec3::Zero();
  Vec3 torque = Vec3::Zero();
};

/// Natural frequency of the perturbation spring on the mass it pulls (rad/s): the viewport
/// sets stiffness m w^2 and damping 2 m w (critical damping of that mass on the spring), with
/// m the mass the grabbed body carries (its subtree's), so that a light finger and a heavy base
/// follow the mouse alike.
inline constexpr double kPerturbationFrequency = 10.0;

/// The load of `p` when its body point is at `position` moving at `velocity` and the body's
/// centre of mass is at `com` moving at `comVelocity` (world, m and m/s): the spring-damper
/// force F = stiffness (target - position) - damping (velocity - 0) applied at the point, or
/// with `torque` the pure torque (position - com) x (stiffness (target - position) - damping
/// (velocity - comVelocity)) (the moment of the spring and of the damping of the point's
/// motion about the centre of mass). Allocates nothing.
PerturbationLoad perturbationLoad(const Perturbation& p, const Vec3& position,
                                  const Vec3& velocity, const Vec3& com, const Vec3& comVelocity);

/// Throws std::invalid_argument unless the numbers of `p` are finite and stiffness and
/// damping are >= 0 (the body index is the formulation's to check).
void checkPerturbation(const Perturbation& p);

}  // namespace art
