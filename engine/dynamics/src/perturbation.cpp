// The perturbation spring-damper's law (perturbation.h).
#include "articulate/dynamics/perturbation.h"

#include <cmath>
#include <stdexcept>

namespace art {

PerturbationLoad perturbationLoad(const Perturbation& p, const Vec3& position,
                                  const Vec3& velocity, const Vec3& com, const Vec3& comVelocity) {
  PerturbationLoad load;
  load.point = position;
  if (p.torque) {
    const Vec3 pull = p.stiffness * (p.target - position) - p.damping * (velocity - comVelocity);
    load.torque = (position - com).cross(pull);
  } else {
    load.force = p.stiffness * (p.target - position) - p.damping * velocity;
  }
  return load;
}

void checkPerturbation(const Perturbation& p) {
  if (!p.point.allFinite() || !p.target.allFinite())
    throw std::invalid_argument("perturbation: the point and the target must be finite");
  if (!(p.stiffness >= 0.0) || !std::isfinite(p.stiffness) || !(p.damping >= 0.0) ||
      !std::isfinite(p.damping))
    throw std::invalid_argument("perturbation: stiffness and damping must be finite and >= 0");
}

}  // namespace art
