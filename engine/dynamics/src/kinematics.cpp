// Forward kinematics and contact-point kinematics (spatial_v2: X0 chain and gcPosVel).
#include "detail.h"

namespace art {

void forwardKinematics(const Model& m, Data& d, const VecRef& q) {
  detail::checkSize("forwardKinematics", "q", q.size(), m.nq());
  detail::dispatchTree(m, [&](auto arith, auto free) {
    using A = decltype(arith);
    auto& w = d.ws<A>();
    for (int i = 0; i < m.nb; ++i) detail::updateXup<A, decltype(free)::value>(m, w, i, q, true);
  });
}

BodyPose bodyPose(const Model& m, const Data& d, int body) {
  if (body < 0 || body >= m.nb)
    throw std::invalid_argument("bodyPose: body " + std::to_string(body) + " is out of range");
  BodyPose pose;
  if (m.arithmetic == Arithmetic::Spatial) {
    const SpatialTransform& X = d.spatial.X0[body];
    pose.rotation = X.E.transpose();
    pose.position = X.r;
  } else {
    const PlanarTransform& X = d.planar.X0[body];
    pose.rotation << X.c, -X.s, 0, X.s, X.c, 0, 0, 0, 1;
    pose.position << X.r.x(), X.r.y(), 0.0;
  }
  return pose;
}

Eigen::Matrix<double, 6, Eigen::Dynamic> contactPositionsVelocities(const Model& m, Data& d,
                                                                    const VecRef& q,
                                                                    const VecRef& qd) {
  detail::checkSize("contactPositionsVelocities", "q", q.size(), m.nq());
  detail::checkSize("contactPositionsVelocities", "qd", qd.size(), m.nv());
  if (m.arithmetic != Arithmetic::Spatial)
    throw std::invalid_argument("contactPositionsVelocities: only spatial models have contacts");
  auto& w = d.spatial;
  // body transforms and velocities, base to tip
  detail::dispatchTree(m, [&](auto, auto free) {
    constexpr bool Free = decltype(free)::value;
    for (int i = 0; i < m.nb; ++i) {
      detail::updateXup<SpatialArith, Free>(m, w, i, q, true);
      const Vec6 vJ = detail::jointVelocity<SpatialArith, Free>(m, i, qd);
      w.v[i] = m.parent[i] < 0 ? vJ : Vec6(w.Xup[i].apply(w.v[m.parent[i]]) + vJ);
    }
  });
  Eigen::Matrix<double, 6, Eigen::Dynamic> out(6, m.contacts.size());
  for (std::size_t k = 0; k < m.contacts.size(); ++k) {
    const int b = m.contacts[k].body;
    const SpatialTransform& X0 = w.X0[b];
    const Vec3 p = X0.E.transpose() * m.contacts[k].point + X0.r;
    const Vec6 v0 = X0.applyInverse(w.v[b]);  // body velocity in base coordinates
    out.col(k).head<3>() = p;
    out.col(k).tail<3>() = v0.tail<3>() + v0.head<3>().cross(p);
  }
  return out;
}

}  // namespace art
