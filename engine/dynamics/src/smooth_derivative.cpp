// The smooth forces' derivative in velocity that MuJoCo's implicitfast takes (actuation.h:
// smoothForceVelocityDerivative; MuJoCo 3.3.8's mjd_actuator_vel and mjd_passive_vel).
#include <stdexcept>

#include "articulate/dynamics/actuation.h"

namespace art {

void smoothForceVelocityDerivative(const Model& model, const Data& data, const VecRef& ctrl, const VecRef& act,
                                   Eigen::MatrixXd& D) {
  const int nv = model.nv(), nu = static_cast<int>(model.actuators.size());
  if (ctrl.size() != nu || act.size() != model.na)
    throw std::invalid_argument("smoothForceVelocityDerivative: ctrl has " + std::to_string(ctrl.size()) + " entries for " +
                                std::to_string(nu) + " actuators, act " + std::to_string(act.size()) + " for " +
                                std::to_string(model.na));
  D.setZero(nv, nv);
  // the joints' viscous damping
  for (int i = 0; i < model.nb; ++i)
    for (int k = 0; k < model.jointNv(i); ++k) D(model.vIndex[i] + k, model.vIndex[i] + k) -= model.damping[i];
  // the tendons' dampers: force -b Ldot along J, Ldot = J qd
  for (std::size_t t = 0; t < model.tendons.size(); ++t) {
    const double b = model.tendons[t].damping;
    if (b == 0) continue;
    const auto J = data.tendonMoment.row(static_cast<Eigen::Index>(t));
    D.noalias() -= b * J.transpose() * J;
  }
  // the actuators: force = gain(len, vel) input + bias(len, vel), vel = m qd
  for (int k = 0; k < nu; ++k) {
    const ActuatorSpec& a = model.actuators[static_cast<std::size_t>(k)];
    double slope = a.bias == ActuatorSpec::Bias::Affine ? a.biasPrm[2] : 0.0;
    double gainSlope = 0.0;
    if (a.gain == ActuatorSpec::Gain::Affine) {
      gainSlope = a.gainPrm[2];
    } else if (a.gain == ActuatorSpec::Gain::Muscle) {
      const double range[2] = {data.lengthRange(0, k), data.lengthRange(1, k)};
      gainSlope = muscleGainVelocitySlope(data.actuatorLength(k), data.actuatorVelocity(k), range, data.actuatorAcc0(k),
                                          a.gainPrm.data());
    }
    if (gainSlope != 0) {
      const int ai = model.actIndex[static_cast<std::size_t>(k)];
      slope += gainSlope * (ai < 0 ? ctrl(k) : act(ai));
    }
    if (slope == 0) continue;
    const auto m = data.actuatorMoment.row(k);
    D.noalias() += slope * m.transpose() * m;
  }
}

}  // namespace art
