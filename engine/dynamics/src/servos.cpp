// Add Servos (servos.h).
#include "articulate/dynamics/servos.h"

#include <cmath>
#include <stdexcept>

#include "articulate/model/model.h"

namespace art {

int addServos(ModelSpec& spec, const Eigen::VectorXd& q, const ServoOptions& o) {
  if (!(o.frequency > 0) || !std::isfinite(o.frequency) || !(o.dampingRatio >= 0) || !std::isfinite(o.dampingRatio))
    throw std::invalid_argument("addServos: the frequency must be > 0 and the damping ratio >= 0");
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
  const double w = 2 * M_PI * o.frequency;
  int added = 0;
  for (std::size_t i = 0; i < spec.bodies.size(); ++i) {
    const BodySpec& b = spec.bodies[i];
    if (driven[i] || hasQuaternion(b.joint.type) || b.control.type != ControlSpec::Type::None) continue;
    const int vi = m.vIndex[i], qi = m.qIndex[i];
    const double inertia = H(vi, vi);
    if (!(inertia > 0)) continue;  // a joint that moves no mass: nothing to hold
    ActuatorSpec a;
    a.name = b.name + " servo";
    a.shortcut = "position";
    a.transmission = ActuatorSpec::Transmission::Joint;
    a.target = static_cast<int>(i);
    const double kp = inertia * w * w, kv = 2 * o.dampingRatio * inertia * w;
    a.gain = ActuatorSpec::Gain::Fixed;
    a.gainPrm[0] = kp;
    a.bias = ActuatorSpec::Bias::Affine;
    a.biasPrm[0] = floating ? 0.0 : gravity(vi);
    a.biasPrm[1] = -kp;
    a.biasPrm[2] = -kv;
    a.ctrl0 = q(qi);
    const JointLimits& l = b.limits;
    const double reach = isRotational(b.joint.type) ? M_PI : 1.0;
    if (l.lower && l.upper && *l.lower < *l.upper)
      a.ctrlRange = std::array<double, 2>{*l.lower, *l.upper};
    else
      a.ctrlRange = std::array<double, 2>{q(qi) - reach, q(qi) + reach};
    if (l.effort) a.forceRange = std::array<double, 2>{-*l.effort, *l.effort};
    spec.actuators.push_back(a);
    ++added;
  }
  compile(spec);  // what was added compiles (a name with a control character came from the body's)
  return added;
}

}  // namespace art
