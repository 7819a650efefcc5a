// Add Servos (servos.h).
#include "articulate/dynamics/servos.h"

#include <cmath>
#include <stdexcept>

#include "articulate/model/model.h"

namespace art {

int addServos(ModelSpec& spec, const Eigen::VectorXd& q, const ServoOptions& o) {
  if (!(o.frequency > 0) || !std::isfinite(o.frequency) || !(o.dampingRatio >= 0) || !std::isfinite(o.dampingRatio) ||
      !(o.gear != 0) || !std::isfinite(o.gear))
    throw std::invalid_argument("addServos: the frequency must be > 0, the damping ratio >= 0 and the gear finite, not 0");
  const Model m = compile(spec);
  if (q.size() != m.nq())
    throw std::invalid_argument("addServos: q has " + std::to_string(q.size()) + " entries, the model " +
                                std::to_string(m.nq()));
  Data d(m);
  const Eigen::MatrixXd H = crba(m, d, q);
  // gravity's joint torques at the pose (qd = 0, qdd = 0), for a fixed base only
  const bool floating = m.nb > 0 && m.joints[0].type == JointType::Free;
  const Eigen::VectorXd gravity = rnea(m, d, q, Eigen::VectorXd::Zero(m.nv()), Eigen::VectorXd::Zero(m.nv()));
  std::vector<bool> driven(spec.bodies.size(), false);
  for (const ActuatorSpec& a : spec.actuators)
    if ((a.transmission == ActuatorSpec::Transmission::Joint || a.transmission == ActuatorSpec::Transmission::JointInParent) &&
        a.target >= 0)
      driven[static_cast<std::size_t>(a.target)] = true;
  const double w = 2 * M_PI * o.frequency, g = o.gear;
  std::vector<bool> chosen(spec.bodies.size(), o.bodies.empty());
  for (int b : o.bodies)
    if (b >= 0 && b < static_cast<int>(chosen.size())) chosen[static_cast<std::size_t>(b)] = true;
  int added = 0;
  for (std::size_t i = 0; i < spec.bodies.size(); ++i) {
    const BodySpec& b = spec.bodies[i];
    if (!chosen[i] || driven[i] || hasQuaternion(b.joint.type) || b.control.type != ControlSpec::Type::None) continue;
    const int vi = m.vIndex[i], qi = m.qIndex[i];
    const double inertia = H(vi, vi);
    if (!(inertia > 0)) continue;  // a joint that moves no mass: nothing to hold
    // in the actuator's own units (its length is gear q, its force acts times gear): the joint
    // feels kp_joint = gear^2 kp, so kp = H(i, i) w^2 / gear^2
    ActuatorSpec a;
    a.name = b.name + " servo";
    a.shortcut = o.velocity ? "velocity" : "position";
    a.transmission = ActuatorSpec::Transmission::Joint;
    a.target = static_cast<int>(i);
    a.gear[0] = g;
    const double kp = inertia * w * w / (g * g), kv = (o.velocity ? 1.0 : 2 * o.dampingRatio) * inertia * w / (g * g);
    a.gain = ActuatorSpec::Gain::Fixed;
    a.gainPrm[0] = o.velocity ? kv : kp;
    a.bias = ActuatorSpec::Bias::Affine;
    a.biasPrm[0] = floating ? 0.0 : gravity(vi) / g;
    a.biasPrm[1] = o.velocity ? 0.0 : -kp;
    a.biasPrm[2] = -kv;
    const JointLimits& l = b.limits;
    const bool rotation = isRotational(b.joint.type);
    if (o.velocity) {  // ctrl is the actuator's velocity, gear qd
      const double v = l.velocity ? *l.velocity : rotation ? 2 * M_PI : 1.0;
      a.ctrlRange = std::array<double, 2>{-std::abs(g) * v, std::abs(g) * v};
    } else {  // ctrl is the actuator's length, gear q
      a.ctrl0 = g * q(qi);
      const double reach = rotation ? M_PI : 1.0;
      double lo = q(qi) - reach, hi = q(qi) + reach;
      if (l.lower && l.upper && *l.lower < *l.upper) {
        lo = *l.lower;
        hi = *l.upper;
      }
      a.ctrlRange = std::array<double, 2>{std::min(g * lo, g * hi), std::max(g * lo, g * hi)};
    }
    if (l.effort) a.forceRange = std::array<double, 2>{-*l.effort / std::abs(g), *l.effort / std::abs(g)};
    spec.actuators.push_back(a);
    ++added;
  }
  compile(spec);  // what was added compiles (a name with a control character came from the body's)
  return added;
}

}  // namespace art
