// Configuration-space arithmetic for free and ball joints (see configuration.h): the derivative of q,
// the exponential-map update and quaternion renormalisation. Quaternions are stored w first.
#include "articulate/dynamics/configuration.h"

#include <cmath>

#include <Eigen/Geometry>

#include "detail.h"

namespace art {

namespace {

Eigen::Quaterniond quatAt(const Eigen::Ref<const Eigen::VectorXd>& q, int k) {
  return Eigen::Quaterniond(q(k), q(k + 1), q(k + 2), q(k + 3));
}

void storeQuat(const Eigen::Quaterniond& quat, Eigen::Ref<Eigen::VectorXd> q, int k) {
  q(k) = quat.w();
  q(k + 1) = quat.x();
  q(k + 2) = quat.y();
  q(k + 3) = quat.z();
}

// quat' = 1/2 quat * (0, w) for the body-coordinate angular velocity w, into qdot(k .. k + 3)
void quatDerivative(const Eigen::Quaterniond& quat, const Vec3& w, Eigen::Ref<Eigen::VectorXd> qdot,
                    int k) {
  const Eigen::Quaterniond dq = quat * Eigen::Quaterniond(0.0, w.x(), w.y(), w.z());
  qdot(k) = 0.5 * dq.w();
  qdot.segment<3>(k + 1) = 0.5 * dq.vec();
}

// quat * exp(wh / 2): the unit quaternion turned by the body-coordinate rotation vector wh,
// with the series of exp near zero rotation
Eigen::Quaterniond rotated(const Eigen::Quaterniond& quat, const Vec3& wh) {
  const double angle = wh.norm();
  Eigen::Quaterniond e;
  if (angle > 1e-8) {
    e = Eigen::Quaterniond(Eigen::AngleAxisd(angle, wh / angle));
  } else {
    e = Eigen::Quaterniond(1.0, 0.5 * wh.x(), 0.5 * wh.y(), 0.5 * wh.z());
    e.normalize();
  }
  return (quat * e).normalized();
}

void checkSizes(const char* fn, const Model& m, Eigen::Index nq, Eigen::Index nv,
                Eigen::Index nout) {
  detail::checkSize(fn, "q", nq, m.nq());
  detail::checkSize(fn, "qd", nv, m.nv());
  detail::checkSize(fn, "output", nout, m.nq());
}

}  // namespace

void configurationDerivative(const Model& m, const Eigen::Ref<const Eigen::VectorXd>& q,
                             const Eigen::Ref<const Eigen::VectorXd>& qd,
                             Eigen::Ref<Eigen::VectorXd> qdot) {
  checkSizes("configurationDerivative", m, q.size(), qd.size(), qdot.size());
  if (!m.hasQuaternions) {
    qdot = qd;
    return;
  }
  for (int i = 0; i < m.nb; ++i) {
    const int qi = m.qIndex[i], vi = m.vIndex[i];
    if (m.joints[i].type == JointType::Ball) {
      quatDerivative(quatAt(q, qi), qd.segment<3>(vi), qdot, qi);
      continue;
    }
    if (m.joints[i].type != JointType::Free) {
      qdot(qi) = qd(vi);
      continue;
    }
    const Eigen::Quaterniond quat = quatAt(q, qi + 3);
    const Vec3 w = qd.segment<3>(vi), v = qd.segment<3>(vi + 3);
    // p' = R v with R of the normalised quaternion
    qdot.segment<3>(qi) = quat.normalized() * v;
    quatDerivative(quat, w, qdot, qi + 3);
  }
}

void integrateConfiguration(const Model& m, const Eigen::Ref<const Eigen::VectorXd>& q,
                            const Eigen::Ref<const Eigen::VectorXd>& qd, double h,
                            Eigen::Ref<Eigen::VectorXd> qout) {
  checkSizes("integrateConfiguration", m, q.size(), qd.size(), qout.size());
  if (!m.hasQuaternions) {
    qout = q + h * qd;
    return;
  }
  for (int i = 0; i < m.nb; ++i) {
    const int qi = m.qIndex[i], vi = m.vIndex[i];
    if (m.joints[i].type == JointType::Ball) {
      storeQuat(rotated(quatAt(q, qi).normalized(), qd.segment<3>(vi) * h), qout, qi);
      continue;
    }
    if (m.joints[i].type != JointType::Free) {
      qout(qi) = q(qi) + h * qd(vi);
      continue;
    }
    const Eigen::Quaterniond quat = quatAt(q, qi + 3).normalized();
    const Vec3 p = q.segment<3>(qi) + quat * (qd.segment<3>(vi + 3) * h);
    qout.segment<3>(qi) = p;
    storeQuat(rotated(quat, qd.segment<3>(vi) * h), qout, qi + 3);
  }
}

void normalizeConfiguration(const Model& m, Eigen::Ref<Eigen::VectorXd> q) {
  detail::checkSize("normalizeConfiguration", "q", q.size(), m.nq());
  if (!m.hasQuaternions) return;
  for (int i = 0; i < m.nb; ++i) {
    if (!hasQuaternion(m.joints[i].type)) continue;
    const int k = m.qIndex[i] + quaternionOffset(m.joints[i].type);
    const double n = q.segment<4>(k).norm();
    if (n > 0 && std::isfinite(n))
      q.segment<4>(k) /= n;
    else if (n == 0)
      q.segment<4>(k) << 1, 0, 0, 0;
  }
}

}  // namespace art
