// Actuators and passive forces (actuation.h): MuJoCo 2.2.2's mj_transmission, mj_fwdActuation
// and mj_passive on Articulate's tree, and the muscle model of engine_util_misc.c.
#include "articulate/dynamics/actuation.h"

#include <algorithm>
#include <cmath>

#include <Eigen/Geometry>

#include "detail.h"

namespace art {

namespace {

// a row of a column-major matrix
using RowRef = Eigen::Ref<Eigen::RowVectorXd, 0, Eigen::InnerStride<>>;

using detail::kMinVal;  // MuJoCo's mjMINVAL
using detail::kPi;

using T = ActuatorSpec::Transmission;

// MuJoCo's mju_quat2Vel(quat, 1): the rotation vector (axis * angle, angle in (-pi, pi]) of a
// unit quaternion [w x y z]
Vec3 rotationVector(double w, const Vec3& xyz) {
  Vec3 axis = xyz;
  const double s = axis.norm();
  axis = s < kMinVal ? Vec3::UnitX() : Vec3(axis * (1 / s));
  double angle = 2 * std::atan2(s, w);
  if (angle > kPi) angle -= 2 * kPi;
  return axis * angle;
}

// the rotation vector of quaternion qb^-1 qa (MuJoCo's mju_subQuat)
Vec3 quaternionDifference(const double* qa, const double* qb) {
  const Eigen::Quaterniond a(qa[0], qa[1], qa[2], qa[3]), b(qb[0], qb[1], qb[2], qb[3]);
  const Eigen::Quaterniond d = b.conjugate() * a;
  return rotationVector(d.w(), d.vec());
}

Mat3 quaternionMatrix(const double* q) { return Eigen::Quaterniond(q[0], q[1], q[2], q[3]).normalized().toRotationMatrix(); }

void siteFrame(const Model& m, const Data& d, int site, Vec3& p, Mat3& R) {
  const SiteSpec& s = m.sites[static_cast<std::size_t>(site)];
  Mat3 Rb;
  Vec3 rb;
  detail::worldPose(d, s.body, Rb, rb);
  p = Rb * s.position + rb;
  R = Rb * s.rotation;
}

// a joint transmission's length and moment row
double jointTransmission(const Model& m, const ActuatorSpec& a, const VecRef& q, RowRef row) {
  const auto b = static_cast<std::size_t>(a.target);
  const int qi = m.qIndex[b], vi = m.vIndex[b];
  const JointType type = m.joints[b].type;
  const Vec3 g(a.gear[0], a.gear[1], a.gear[2]);
  if (type == JointType::Ball) {
    const Vec3 axis = rotationVector(q(qi), q.segment<3>(qi + 1));
    const Vec3 gearAxis = a.transmission == T::Joint ? g : Vec3(quaternionMatrix(q.data() + qi).transpose() * g);
    row.segment<3>(vi) = gearAxis.transpose();
    return axis.dot(gearAxis);
  }
  if (type == JointType::Free) {
    // MuJoCo's moment [gear(0..2) on the world-axis linear velocity; gear(3..5) on the body's
    // angular velocity] in Articulate's body-coordinate [angular; linear]
    const Mat3 R = quaternionMatrix(q.data() + qi + 3);
    const Vec3 gr(a.gear[3], a.gear[4], a.gear[5]);
    const Vec3 gearAxis = a.transmission == T::Joint ? gr : Vec3(R.transpose() * gr);
    row.segment<3>(vi) = gearAxis.transpose();
    row.segment<3>(vi + 3) = (R.transpose() * g).transpose();
    return 0.0;
  }
  row(vi) = a.gear[0];
  return q(qi) * a.gear[0];
}

// a slider-crank's length and moment row: the crank site's distance along the slider's z axis
// to where a rod of crankLength from it meets that axis
// the slider-crank's determinant: av^2 + rod^2 - |v|^2 for v from the slider site to the crank
// pin and av its component along the slider's axis (no real slider point where <= 0)
double crankDeterminant(const ActuatorSpec& a, const Vec3& axis, const Vec3& v, double& av) {
  av = v.dot(axis);
  return av * av + a.crankLength * a.crankLength - v.dot(v);
}

double sliderCrank(const Model& m, Data& d, const ActuatorSpec& a, RowRef row) {
  Vec3 crank, slider;
  Mat3 Rc, Rs;
  siteFrame(m, d, a.target, crank, Rc);
  siteFrame(m, d, a.reference, slider, Rs);
  const Vec3 axis = Rs.col(2), v = crank - slider;
  double av;
  const double det = crankDeterminant(a, axis, v, av);
  double length;
  Vec3 dlda, dldv;
  if (det <= 0) {
    length = av;
    dlda = v;
    dldv = axis;
  } else {
    const double sdet = std::sqrt(det);
    length = av - sdet;
    dldv = axis * (1 - av / sdet) + v * (1 / sdet);
    dlda = v * (1 - av / sdet);
  }
  const int bs = m.sites[static_cast<std::size_t>(a.reference)].body, bc = m.sites[static_cast<std::size_t>(a.target)].body;
  detail::frameJacobian(m, d, bs, slider, &d.jacA, &d.jacR);  // the slider point and its axis
  detail::frameJacobian(m, d, bc, crank, &d.jacB, nullptr);
  for (Eigen::Index c = 0; c < d.jacR.cols(); ++c) {
    const Vec3 axisRate = Vec3(d.jacR.col(c)).cross(axis);
    row(c) = a.gear[0] * (dlda.dot(axisRate) + dldv.dot(Vec3(d.jacB.col(c) - d.jacA.col(c))));
  }
  return a.gear[0] * length;
}

}  // namespace

SliderCrankPoints sliderCrankPoints(const Model& m, const Data& d, int actuator) {
  if (actuator < 0 || actuator >= static_cast<int>(m.actuators.size()) ||
      m.actuators[static_cast<std::size_t>(actuator)].transmission != ActuatorSpec::Transmission::SliderCrank)
    throw std::invalid_argument("sliderCrankPoints: actuator " + std::to_string(actuator) + " is not a slider-crank");
  const ActuatorSpec& a = m.actuators[static_cast<std::size_t>(actuator)];
  SliderCrankPoints out;
  Mat3 Rc, Rs;
  siteFrame(m, d, a.target, out.crank, Rc);
  siteFrame(m, d, a.reference, out.slider, Rs);
  const Vec3 axis = Rs.col(2);
  double av;
  const double det = crankDeterminant(a, axis, out.crank - out.slider, av);
  out.piston = out.slider + (det > 0 ? av - std::sqrt(det) : av) * axis;
  return out;
}

namespace {

// a site transmission's length and moment row (without a reference site: the wrench gear in the
// site's axes, length 0; with one: the site's displacement and rotation from it)
double siteTransmission(const Model& m, Data& d, const ActuatorSpec& a, RowRef row) {
  Vec3 p;
  Mat3 R;
  siteFrame(m, d, a.target, p, R);
  const int body = m.sites[static_cast<std::size_t>(a.target)].body;
  const Vec3 gt(a.gear[0], a.gear[1], a.gear[2]), gr(a.gear[3], a.gear[4], a.gear[5]);
  detail::frameJacobian(m, d, body, p, &d.jacA, &d.jacR);
  if (a.reference < 0) {
    row = (d.jacA.transpose() * (R * gt) + d.jacR.transpose() * (R * gr)).transpose();
    return 0.0;
  }
  Vec3 pr;
  Mat3 Rr;
  siteFrame(m, d, a.reference, pr, Rr);
  const int rbody = m.sites[static_cast<std::size_t>(a.reference)].body;
  detail::frameJacobian(m, d, rbody, pr, &d.jacB, nullptr);
  double length = 0.0;
  row.setZero();
  if (!gt.isZero(0.0)) {
    length += (Rr.transpose() * (p - pr)).dot(gt);
    row += ((d.jacA - d.jacB).transpose() * (Rr * gt)).transpose();
  }
  if (!gr.isZero(0.0)) {
    const Eigen::Quaterniond qs(R), qr(Rr);
    const double qa[4] = {qs.w(), qs.x(), qs.y(), qs.z()}, qb[4] = {qr.w(), qr.x(), qr.y(), qr.z()};
    length += quaternionDifference(qa, qb).dot(gr);
    detail::frameJacobian(m, d, rbody, pr, nullptr, &d.jacB);
    row += ((d.jacR - d.jacB).transpose() * (Rr * gr)).transpose();
  }
  return length;
}

void transmissions(const Model& m, Data& d, const VecRef& q, const VecRef& qd) {
  d.actuatorMoment.setZero();
  for (std::size_t i = 0; i < m.actuators.size(); ++i) {
    const ActuatorSpec& a = m.actuators[i];
    const auto k = static_cast<Eigen::Index>(i);
    auto row = d.actuatorMoment.row(k);
    double length = 0.0;
    switch (a.transmission) {
      case T::Joint:
      case T::JointInParent: length = jointTransmission(m, a, q, row); break;
      case T::Tendon:
        length = a.gear[0] * d.tendonLength(a.target);
        row = a.gear[0] * d.tendonMoment.row(a.target);
        break;
      case T::SliderCrank: length = sliderCrank(m, d, a, row); break;
      case T::Site: length = siteTransmission(m, d, a, row); break;
    }
    d.actuatorLength(k) = length;
  }
  d.actuatorVelocity.noalias() = d.actuatorMoment * qd;
}

// the joint springs' forces into tau, and (energy) their potential energy
double jointSprings(const Model& m, const VecRef& q, Eigen::VectorXd* tau) {
  double energy = 0.0;
  for (int i = 0; i < m.nb; ++i) {
    const double k = m.stiffness[static_cast<std::size_t>(i)];
    if (!(k > 0)) continue;
    const int qi = m.qIndex[static_cast<std::size_t>(i)], vi = m.vIndex[static_cast<std::size_t>(i)];
    switch (m.joints[static_cast<std::size_t>(i)].type) {
      case JointType::Free: {
        const Vec3 dp = q.segment<3>(qi) - m.qSpring.segment<3>(qi);
        const Vec3 dr = quaternionDifference(q.data() + qi + 3, m.qSpring.data() + qi + 3);
        energy += 0.5 * k * (dp.squaredNorm() + dr.squaredNorm());
        if (tau) {
          tau->segment<3>(vi) -= k * dr;
          tau->segment<3>(vi + 3) -= k * (quaternionMatrix(q.data() + qi + 3).transpose() * dp);
        }
        break;
      }
      case JointType::Ball: {
        const Vec3 dr = quaternionDifference(q.data() + qi, m.qSpring.data() + qi);
        energy += 0.5 * k * dr.squaredNorm();
        if (tau) tau->segment<3>(vi) -= k * dr;
        break;
      }
      default: {
        const double dq = q(qi) - m.qSpring(qi);
        energy += 0.5 * k * dq * dq;
        if (tau) (*tau)(vi) -= k * dq;
      }
    }
  }
  return energy;
}

// the constants MuJoCo's compiler sets (mj_setConst, mjCModel::LengthRange): the tendons'
// spring lengths at the spring pose, the actuators' acc0 = |H^-1 moment| at q0, and the
// muscles' length ranges (given, else the joint's or tendon's limits)
void prepare(const Model& m, Data& d) {
  if (d.actuationReady) return;
  d.actuationReady = true;  // (set first: tendonKinematics and transmissions below need it not)
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(m.nv());
  tendonKinematics(m, d, m.qSpring, zero);
  for (std::size_t k = 0; k < m.tendons.size(); ++k)
    d.tendonSpringLength(static_cast<Eigen::Index>(k)) =
        m.tendons[k].springLength ? *m.tendons[k].springLength : d.tendonLength(static_cast<Eigen::Index>(k));
  if (m.actuators.empty()) return;
  tendonKinematics(m, d, m.q0, zero);
  if (std::any_of(m.actuators.begin(), m.actuators.end(), [](const ActuatorSpec& a) {
        return a.transmission == T::SliderCrank || a.transmission == T::Site;
      }))
    forwardKinematics(m, d, m.q0);
  transmissions(m, d, m.q0, zero);
  crba(m, d, m.q0);
  factorizeMassMatrix(m, d);
  for (std::size_t i = 0; i < m.actuators.size(); ++i) {
    const ActuatorSpec& a = m.actuators[i];
    const auto k = static_cast<Eigen::Index>(i);
    d.tmp = d.actuatorMoment.row(k).transpose();
    solveMassMatrix(m, d, d.tmp);
    d.actuatorAcc0(k) = d.tmp.norm();
    std::array<double, 2> range = {0, 0};
    if (a.lengthRange) {
      range = *a.lengthRange;
    } else if (a.transmission == T::Joint || a.transmission == T::JointInParent) {
      const JointLimits& l = m.limits[static_cast<std::size_t>(a.target)];
      if (l.lower && l.upper) range = {*l.lower, *l.upper};
    } else if (a.transmission == T::Tendon && m.tendons[static_cast<std::size_t>(a.target)].range) {
      range = *m.tendons[static_cast<std::size_t>(a.target)].range;
    }
    d.lengthRange.col(k) << range[0], range[1];
  }
}

double gainOf(const ActuatorSpec& a, const Data& d, Eigen::Index k) {
  const auto& p = a.gainPrm;
  switch (a.gain) {
    case ActuatorSpec::Gain::Fixed: return p[0];
    case ActuatorSpec::Gain::Affine: return p[0] + p[1] * d.actuatorLength(k) + p[2] * d.actuatorVelocity(k);
    case ActuatorSpec::Gain::Muscle: {
      const double range[2] = {d.lengthRange(0, k), d.lengthRange(1, k)};
      return muscleGain(d.actuatorLength(k), d.actuatorVelocity(k), range, d.actuatorAcc0(k), p.data());
    }
  }
  return 0.0;
}

double biasOf(const ActuatorSpec& a, const Data& d, Eigen::Index k) {
  const auto& p = a.biasPrm;
  switch (a.bias) {
    case ActuatorSpec::Bias::None: return 0.0;
    case ActuatorSpec::Bias::Affine: return p[0] + p[1] * d.actuatorLength(k) + p[2] * d.actuatorVelocity(k);
    case ActuatorSpec::Bias::Muscle: {
      const double range[2] = {d.lengthRange(0, k), d.lengthRange(1, k)};
      return muscleBias(d.actuatorLength(k), range, d.actuatorAcc0(k), p.data());
    }
  }
  return 0.0;
}

// the muscle's force-length factor at normalised length L (mju_muscleGainLength): two
// half-parabolas on each side of 1 (MuJoCo's branches as they are: below lmin the second one's
// parabola goes on, negative)
double muscleForceLength(double L, double lmin, double lmax) {
  const double a = 0.5 * (lmin + 1), b = 0.5 * (1 + lmax);
  double FL = 0.0;
  if (L >= lmin && L <= a) {
    const double x = (L - lmin) / std::max(kMinVal, a - lmin);
    FL = 0.5 * x * x;
  } else if (L <= 1) {
    const double x = (1 - L) / std::max(kMinVal, 1 - a);
    FL = 1 - 0.5 * x * x;
  } else if (L <= b) {
    const double x = (L - 1) / std::max(kMinVal, b - 1);
    FL = 1 - 0.5 * x * x;
  } else if (L <= lmax) {
    const double x = (lmax - L) / std::max(kMinVal, lmax - b);
    FL = 0.5 * x * x;
  }
  return FL;
}

// what MuJoCo's muscle functions compute first: the peak force (a negative prm force: scale /
// acc0), the optimal length L0, and the normalised length L and velocity V
struct MuscleState {
  double force, L0, L, V;
};
MuscleState muscleState(double len, double vel, const double lengthRange[2], double acc0, const double* prm) {
  MuscleState m;
  m.force = prm[2] < 0 ? prm[3] / std::max(kMinVal, acc0) : prm[2];
  m.L0 = (lengthRange[1] - lengthRange[0]) / std::max(kMinVal, prm[1] - prm[0]);  // optimal length
  m.L = prm[0] + (len - lengthRange[0]) / std::max(kMinVal, m.L0);
  m.V = vel / std::max(kMinVal, m.L0 * prm[6]);
  return m;
}

}  // namespace

double muscleGain(double len, double vel, const double lengthRange[2], double acc0, const double* prm) {
  const double fvmax = prm[8];
  const auto [force, L0, L, V] = muscleState(len, vel, lengthRange, acc0, prm);
  const double FL = muscleForceLength(L, prm[4], prm[5]);
  const double y = fvmax - 1;  // force-velocity
  double FV;
  if (V <= -1)
    FV = 0;
  else if (V <= 0)
    FV = (V + 1) * (V + 1);
  else if (V <= y)
    FV = fvmax - (y - V) * (y - V) / std::max(kMinVal, y);
  else
    FV = fvmax;
  return -force * FL * FV;
}

double muscleGainVelocitySlope(double len, double vel, const double lengthRange[2], double acc0, const double* prm) {
  const auto [force, L0, L, V] = muscleState(len, vel, lengthRange, acc0, prm);
  const double y = prm[8] - 1;
  double dFV = 0.0;  // the force-velocity factor's slope in V, branch by branch
  if (V > -1 && V <= 0)
    dFV = 2 * V + 2;
  else if (V > 0 && V <= y)
    dFV = (-2 * V + 2 * y) / std::max(kMinVal, y);
  return -force * muscleForceLength(L, prm[4], prm[5]) * dFV / std::max(kMinVal, L0 * prm[6]);
}

double muscleBias(double len, const double lengthRange[2], double acc0, const double* prm) {
  const double lmax = prm[5], fpmax = prm[7];
  const MuscleState m = muscleState(len, 0.0, lengthRange, acc0, prm);
  const double force = m.force, L = m.L;
  const double b = 0.5 * (1 + lmax);
  if (L <= 1) return 0.0;
  if (L <= b) {
    const double x = (L - 1) / std::max(kMinVal, b - 1);
    return -force * fpmax * 0.5 * x * x;
  }
  const double x = (L - b) / std::max(kMinVal, b - 1);
  return -force * fpmax * (0.5 + x);
}

double muscleDynamics(double ctrl, double act, const double* prm) {
  const double c = std::clamp(ctrl, 0.0, 1.0), a = std::clamp(act, 0.0, 1.0);
  // Millard et al. (2013): faster activation at low activation, slower deactivation
  const double tau = c > act ? prm[0] * (0.5 + 1.5 * a) : prm[1] / (0.5 + 1.5 * a);
  return (c - act) / std::max(kMinVal, tau);
}

void actuation(const Model& m, Data& d, const VecRef& q, const VecRef& qd, const VecRef& ctrl, const VecRef& act) {
  detail::checkSize("actuation", "q", q.size(), m.nq());
  detail::checkSize("actuation", "qd", qd.size(), m.nv());
  detail::checkSize("actuation", "ctrl", ctrl.size(), m.nu());
  detail::checkSize("actuation", "act", act.size(), m.na);
  prepare(m, d);
  tendonKinematics(m, d, q, qd);
  const bool frames = std::any_of(m.actuators.begin(), m.actuators.end(), [](const ActuatorSpec& a) {
    return a.transmission == T::SliderCrank || a.transmission == T::Site;
  });
  const bool spatialTendons = std::any_of(m.tendons.begin(), m.tendons.end(), [](const TendonSpec& t) { return t.spatial(); });
  if (frames && !spatialTendons) forwardKinematics(m, d, q);
  transmissions(m, d, q, qd);
  // the controls: clamped to their ranges; all zero when one is not a number
  bool bad = false;
  for (std::size_t i = 0; i < m.actuators.size(); ++i) {
    const auto k = static_cast<Eigen::Index>(i);
    const auto& r = m.actuators[i].ctrlRange;
    d.ctrl(k) = r ? std::clamp(ctrl(k), (*r)[0], (*r)[1]) : ctrl(k);
    bad = bad || !std::isfinite(d.ctrl(k));
  }
  if (bad) d.ctrl.setZero();
  for (std::size_t i = 0; i < m.actuators.size(); ++i) {
    const ActuatorSpec& a = m.actuators[i];
    const auto k = static_cast<Eigen::Index>(i);
    const int ai = m.actIndex[i];
    double force = gainOf(a, d, k) * (ai < 0 ? d.ctrl(k) : act(ai)) + biasOf(a, d, k);
    if (a.forceRange) force = std::clamp(force, (*a.forceRange)[0], (*a.forceRange)[1]);
    d.actuatorForce(k) = force;
    if (ai < 0) continue;
    switch (a.dynamics) {
      case ActuatorSpec::Dynamics::Integrator: d.actDot(ai) = d.ctrl(k); break;
      case ActuatorSpec::Dynamics::Filter: d.actDot(ai) = (d.ctrl(k) - act(ai)) / std::max(kMinVal, a.dynPrm[0]); break;
      case ActuatorSpec::Dynamics::Muscle: d.actDot(ai) = muscleDynamics(d.ctrl(k), act(ai), a.dynPrm.data()); break;
      case ActuatorSpec::Dynamics::None: break;
    }
  }
  d.qfrcActuator.noalias() = d.actuatorMoment.transpose() * d.actuatorForce;
  d.qfrcPassive.setZero();
  if (m.springs) jointSprings(m, q, &d.qfrcPassive);
  for (std::size_t k = 0; k < m.tendons.size(); ++k) {
    const TendonSpec& t = m.tendons[k];
    const auto r = static_cast<Eigen::Index>(k);
    const double f = -t.stiffness * (d.tendonLength(r) - d.tendonSpringLength(r)) - t.damping * d.tendonVelocity(r);
    if (f != 0.0) d.qfrcPassive.noalias() += f * d.tendonMoment.row(r).transpose();
  }
}

double springEnergy(const Model& m, Data& d, const VecRef& q) {
  detail::checkSize("springEnergy", "q", q.size(), m.nq());
  if (!m.springs) return 0.0;
  prepare(m, d);
  double energy = jointSprings(m, q, nullptr);
  if (std::any_of(m.tendons.begin(), m.tendons.end(), [](const TendonSpec& t) { return t.stiffness > 0; })) {
    d.tmp.setZero();
    tendonKinematics(m, d, q, d.tmp);
    for (std::size_t k = 0; k < m.tendons.size(); ++k) {
      const double dl = d.tendonLength(static_cast<Eigen::Index>(k)) - d.tendonSpringLength(static_cast<Eigen::Index>(k));
      energy += 0.5 * m.tendons[k].stiffness * dl * dl;
    }
  }
  return energy;
}

double tendonDampingPower(const Model& m, const Data& d) {
  double p = 0.0;
  for (std::size_t k = 0; k < m.tendons.size(); ++k) {
    const double v = d.tendonVelocity(static_cast<Eigen::Index>(k));
    p += m.tendons[k].damping * v * v;
  }
  return p;
}

void ControlTable::apply(double t, Eigen::Ref<Eigen::VectorXd> ctrl) const {
  if (times.empty()) return;
  const auto n = static_cast<Eigen::Index>(times.size());
  Eigen::Index k = 0;
  double a = 0.0;  // the weight of row k + 1
  if (!(t > times.front())) {
    k = 0;
  } else if (t >= times.back()) {
    k = n - 1;
  } else {
    k = static_cast<Eigen::Index>(std::upper_bound(times.begin(), times.end(), t) - times.begin()) - 1;
    a = (t - times[static_cast<std::size_t>(k)]) / (times[static_cast<std::size_t>(k) + 1] - times[static_cast<std::size_t>(k)]);
  }
  for (std::size_t c = 0; c < columns.size(); ++c) {
    const auto j = static_cast<Eigen::Index>(c);
    ctrl(columns[c]) = a > 0 ? (1 - a) * values(k, j) + a * values(k + 1, j) : values(k, j);
  }
}

void clampActivations(const Model& m, Eigen::Ref<Eigen::VectorXd> act) {
  for (std::size_t i = 0; i < m.actuators.size(); ++i)
    if (m.actIndex[i] >= 0 && m.actuators[i].actRange)
      act(m.actIndex[i]) = std::clamp(act(m.actIndex[i]), (*m.actuators[i].actRange)[0], (*m.actuators[i].actRange)[1]);
}

}  // namespace art
