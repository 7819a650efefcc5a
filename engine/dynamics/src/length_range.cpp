// A muscle's length range where the file gives none (actuation.h, actuatorLengthRange).
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "articulate/dynamics/actuation.h"
#include "articulate/dynamics/configuration.h"

namespace art {

namespace {

constexpr double kMaxTurn = 0.01;  // largest change of a joint per iteration (rad or m)
constexpr int kMaxIterations = 20000;

// one side's extreme: from q0, the actuator's length pushed down (side -1) or up (+1) along its
// moment arms, the joints held in their limits, until it stops changing
double extreme(const Model& m, Data& d, int actuator, double side, Eigen::VectorXd& q, bool& settled) {
  settled = true;
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(m.nv()), ctrl = Eigen::VectorXd::Zero(m.nu()),
                        act = Eigen::VectorXd::Zero(m.na);
  Eigen::VectorXd step(m.nv());
  double last = 0.0;
  for (int it = 0; it < kMaxIterations; ++it) {
    actuation(m, d, q, zero, ctrl, act);
    const double length = d.actuatorLength(actuator);
    step = side * d.actuatorMoment.row(actuator).transpose();
    for (int i = 0; i < m.nb; ++i) {
      const int vi = m.vIndex[static_cast<std::size_t>(i)], n = m.jointNv(i);
      if (m.joints[static_cast<std::size_t>(i)].type == JointType::Free) {
        step.segment(vi, n).setZero();  // the base stays where it is
        continue;
      }
      if (n != 1) continue;
      // a joint on a limit that the step would push past it does not move
      const JointLimits& l = m.limits[static_cast<std::size_t>(i)];
      const double qi = q(m.qIndex[static_cast<std::size_t>(i)]);
      if ((l.lower && qi <= *l.lower && step(vi) < 0) || (l.upper && qi >= *l.upper && step(vi) > 0)) step(vi) = 0;
    }
    const double largest = step.cwiseAbs().maxCoeff();
    if (!(largest > 1e-12)) return length;  // a stationary or fully blocked point
    if (it > 0 && std::abs(length - last) <= 1e-12 * (1.0 + std::abs(length))) return length;
    last = length;
    integrateConfiguration(m, q, step, kMaxTurn / largest, q);
    for (int i = 0; i < m.nb; ++i) {
      if (m.jointNv(i) != 1 || hasQuaternion(m.joints[static_cast<std::size_t>(i)].type)) continue;
      const JointLimits& l = m.limits[static_cast<std::size_t>(i)];
      double& qi = q(m.qIndex[static_cast<std::size_t>(i)]);
      if (l.lower) qi = std::max(qi, *l.lower);
      if (l.upper) qi = std::min(qi, *l.upper);
    }
  }
  settled = false;  // still changing after kMaxIterations steps (an unlimited joint turning on)
  actuation(m, d, q, zero, ctrl, act);
  return d.actuatorLength(actuator);
}

}  // namespace

std::array<double, 2> actuatorLengthRange(const Model& m, Data& d, int actuator) {
  if (actuator < 0 || actuator >= m.nu())
    throw std::invalid_argument("actuatorLengthRange: no actuator " + std::to_string(actuator));
  Eigen::VectorXd q = m.q0;
  bool lowSettled = false, highSettled = false;
  const double lo = extreme(m, d, actuator, -1.0, q, lowSettled);
  q = m.q0;
  const double hi = extreme(m, d, actuator, 1.0, q, highSettled);
  if (!lowSettled || !highSettled) return {0.0, 0.0};  // no extreme: no range
  return {lo, hi};
}

}  // namespace art
