// Joint controllers and constant external forces (see control.h).
#include "articulate/dynamics/control.h"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>

namespace art {

double controlForce(const ControlSpec& c, double t, double q, double qd) {
  switch (c.type) {
    case ControlSpec::Type::None:
      return 0.0;
    case ControlSpec::Type::Constant:
      return c.torque;
    case ControlSpec::Type::PD:
      return c.torque + c.kp * (c.target - q) + c.kd * (c.targetVelocity - qd);
    case ControlSpec::Type::Table: {
      const std::vector<double>& ts = c.times;
      if (ts.empty()) return 0.0;
      if (!(t > ts.front())) return c.torques.front();
      if (t >= ts.back()) return c.torques.back();
      const std::size_t k = static_cast<std::size_t>(std::upper_bound(ts.begin(), ts.end(), t) -
                                                     ts.begin()) - 1;
      const double a = (t - ts[k]) / (ts[k + 1] - ts[k]);
      return (1 - a) * c.torques[k] + a * c.torques[k + 1];
    }
  }
  return 0.0;
}

void addControlForces(const Model& model, double t, const VecRef& q, const VecRef& qd,
                      Eigen::VectorXd& tau) {
  if (q.size() != model.nq() || qd.size() != model.nv() || tau.size() != model.nv())
    throw std::invalid_argument("addControlForces: q needs " + std::to_string(model.nq()) +
                                " entries, qd and tau " + std::to_string(model.nv()));
  if (!model.controlled) return;
  // free and ball joints take no controller (compile() refuses one), so every controlled joint
  // has one position and one velocity variable; a ball joint's damping acts on its three
  for (int i = 0; i < model.nb; ++i) {
    const int vi = model.vIndex[i];
    if (model.damping[i] > 0)  // viscous joint damping
      for (int k = 0, n = model.jointNv(i); k < n; ++k) tau(vi + k) -= model.damping[i] * qd(vi + k);
    if (model.controls[i].type == ControlSpec::Type::None) continue;
    const double f = controlForce(model.controls[i], t, q(model.qIndex[i]), qd(vi));
    const std::optional<double>& effort = model.limits[i].effort;  // the actuator's limit
    tau(vi) += effort ? std::clamp(f, -*effort, *effort) : f;
  }
}

void externalForces(const Model& model, Data& data, const VecRef& q, ExternalForces& fext) {
  const bool planar = model.arithmetic == Arithmetic::Planar;
  const int rows = planar ? 3 : 6;
  if (fext.rows() != rows || fext.cols() != model.nb) fext.resize(rows, model.nb);
  fext.setZero();
  if (model.forces.empty()) return;
  forwardKinematics(model, data, q);
  for (const ExternalForceSpec& f : model.forces) {
    const BodyPose pose = bodyPose(model, data, f.body);
    const Vec3 p = pose.position + pose.rotation * f.point;  // point of application, base
    const Vec3 n = f.torque + p.cross(f.force);              // moment about the base origin
    if (planar) {
      fext(0, f.body) += n.z();
      fext(1, f.body) += f.force.x();
      fext(2, f.body) += f.force.y();
    } else {
      fext.col(f.body).head<3>() += n;
      fext.col(f.body).tail<3>() += f.force;
    }
  }
}

}  // namespace art
