// The Jacobian of a body-fixed point's velocity: column k is the point's velocity when only
// velocity variable k moves (unit rate), from the joint's motion subspace carried to the base.
#include "detail.h"

namespace art {

namespace {

// The world velocity of point p (base coordinates) of a body moving with spatial or planar
// velocity s0 (base coordinates, at the base origin).
Vec3 pointVelocity(const Vec6& s0, const Vec3& p) { return s0.tail<3>() + s0.head<3>().cross(p); }
Vec3 pointVelocity(const Vec3& s0, const Vec3& p) {
  return Vec3(s0(1) - s0(0) * p.y(), s0(2) + s0(0) * p.x(), 0.0);
}

// column c of a 3-row matrix, written entry by entry (an Eigen block assignment of a Vec3 here
// makes GCC 12 warn of a 32-byte AVX load from the 24-byte vector, -Warray-bounds)
template <class M>
void setColumn(M& J, Eigen::Index c, const Vec3& v) {
  J(0, c) = v.x();
  J(1, c) = v.y();
  J(2, c) = v.z();
}

}  // namespace

void detail::frameJacobian(const Model& m, const Data& d, int body, const Vec3& p, Eigen::MatrixXd* Jp,
                           Eigen::MatrixXd* Jr) {
  if (Jp) Jp->setZero();
  if (Jr) Jr->setZero();
  const auto& w = d.spatial;
  for (int i = body; i >= 0; i = m.parent[static_cast<std::size_t>(i)]) {
    const int first = m.vIndex[static_cast<std::size_t>(i)];
    const int n = m.jointNv(i);
    for (int k = 0; k < n; ++k) {
      Vec6 s;
      if (n == 1) {
        s = m.spatial.S[static_cast<std::size_t>(i)];
      } else {  // free or ball: unit velocities in body coordinates
        s.setZero();
        s(k) = 1.0;
      }
      const Vec6 s0 = w.X0[static_cast<std::size_t>(i)].applyInverse(s);
      if (Jp) setColumn(*Jp, first + k, pointVelocity(s0, p));
      if (Jr) setColumn(*Jr, first + k, Vec3(s0.head<3>()));
    }
  }
}

namespace {

// the last velocity variable of body b's chain (its own joint's last, or its nearest ancestor's
// with one); -1 for the base
int lastDof(const Model& m, int b) {
  for (; b >= 0; b = m.parent[static_cast<std::size_t>(b)])
    if (m.jointNv(b) > 0) return m.vIndex[static_cast<std::size_t>(b)] + m.jointNv(b) - 1;
  return -1;
}

}  // namespace

void detail::dofMotions(const Model& m, const Data& d, Eigen::Matrix<double, 6, Eigen::Dynamic>& out) {
  out.resize(6, m.nv());
  for (int i = 0; i < m.nb; ++i) {
    const int first = m.vIndex[static_cast<std::size_t>(i)], nv = m.jointNv(i);
    const SpatialTransform& X = d.spatial.X0[static_cast<std::size_t>(i)];
    if (nv == 1) {
      out.col(first) = X.applyInverse(m.spatial.S[static_cast<std::size_t>(i)]);
      continue;
    }
    for (int k = 0; k < nv; ++k) {  // free or ball: unit velocities in body coordinates
      Vec6 s = Vec6::Zero();
      s(k) = 1.0;
      out.col(first + k) = X.applyInverse(s);
    }
  }
}

int detail::relativeJacobian(const Model& m, const Eigen::Matrix<double, 6, Eigen::Dynamic>& motions, int b1, int b2,
                             const Vec3& p, int* cols, Eigen::MatrixXd& Jp, Eigen::MatrixXd& Jr) {
  // walk both chains of velocity variables down from their last ones, the higher index first:
  // where they meet, every variable further down moves both bodies alike
  int i1 = lastDof(m, b1), i2 = lastDof(m, b2), n = 0;
  while (i1 != i2) {
    const bool second = i2 > i1;
    const int dof = second ? i2 : i1;
    Vec6 s0 = motions.col(dof);
    if (!second) s0 = -s0;
    setColumn(Jp, n, pointVelocity(s0, p));
    setColumn(Jr, n, Vec3(s0.head<3>()));
    cols[n++] = dof;
    (second ? i2 : i1) = m.dofParent[static_cast<std::size_t>(dof)];
  }
  // ascending, with their columns
  for (int a = 0, b = n - 1; a < b; ++a, --b) {
    std::swap(cols[a], cols[b]);
    Jp.col(a).swap(Jp.col(b));
    Jr.col(a).swap(Jr.col(b));
  }
  return n;
}

void pointJacobian(const Model& m, Data& d, const VecRef& q, int body, const Vec3& point,
                   Eigen::Ref<Eigen::MatrixXd> J) {
  detail::checkSize("pointJacobian", "q", q.size(), m.nq());
  if (body < 0 || body >= m.nb)
    throw std::invalid_argument("pointJacobian: body " + std::to_string(body) +
                                " is out of range (the model has " + std::to_string(m.nb) +
                                " bodies)");
  if (J.rows() != 3 || J.cols() != m.nv())
    throw std::invalid_argument("pointJacobian: J is " + std::to_string(J.rows()) + "x" +
                                std::to_string(J.cols()) + ", the model needs 3x" +
                                std::to_string(m.nv()));
  forwardKinematics(m, d, q);
  const BodyPose pose = bodyPose(m, d, body);
  const Vec3 p = pose.rotation * point + pose.position;
  J.setZero();
  detail::dispatchTree(m, [&](auto arith, auto free) {
    using A = decltype(arith);
    constexpr bool Free = decltype(free)::value;
    const auto& w = d.ws<A>();
    for (int i = body; i >= 0; i = m.parent[i]) {
      const int first = detail::vIdx<Free>(m, i);
      if (detail::isFree<A, Free>(m, i) || detail::isBall<A, Free>(m, i)) {
        // the body's own velocity (free) or angular velocity (ball) in body coordinates
        for (int k = 0; k < m.jointNv(i); ++k) {
          typename A::Vec s = A::Vec::Zero();
          s(k) = 1.0;
          setColumn(J, first + k, pointVelocity(w.X0[i].applyInverse(s), p));
        }
      } else {
        setColumn(J, first, pointVelocity(w.X0[i].applyInverse(m.arrays<A>().S[i]), p));
      }
    }
  });
}

}  // namespace art
