// Recursive Newton-Euler inverse dynamics (Featherstone, RBDA Table 5.1; spatial_v2 ID).
// Gravity enters as a fictitious base acceleration a0 = -[0; g]. A free joint (S = identity,
// always on the base) takes its body's spatial velocity and acceleration as qd and qdd and
// returns the whole body force as its 6 joint forces; a ball joint (S = [identity(3); 0])
// returns the moment of its body force.
#include "detail.h"

namespace art {

namespace {

template <class A, bool Free>
void rneaPasses(const Model& m, Data& d, const VecRef& q, const VecRef& qd, const VecRef* qdd,
                const ExternalForces* fext, Eigen::VectorXd& out) {
  auto& w = d.ws<A>();
  const auto& t = m.arrays<A>();
  // outward pass: velocities, accelerations and the net body forces
  for (int i = 0; i < m.nb; ++i) {
    detail::updateXup<A, Free>(m, w, i, q, fext != nullptr);
    const int p = m.parent[i];
    if (detail::isFree<A, Free>(m, i)) {
      // parent is the base: v = vJ, and v x vJ = 0
      const int vi = m.vIndex[i];
      w.v[i] = qd.template segment<A::dim>(vi);
      w.a[i] = w.Xup[i].apply(t.aGrav);
      if (qdd) w.a[i] += qdd->template segment<A::dim>(vi);
    } else {
      const typename A::Vec vJ = detail::jointVelocity<A, Free>(m, i, qd);
      // S qdd_i: a ball joint's three accelerations are its body's angular acceleration
      typename A::Vec aJ = A::Vec::Zero();
      if (qdd) {
        if (detail::isBall<A, Free>(m, i))
          aJ.template head<3>() = qdd->template segment<3>(m.vIndex[i]);
        else
          aJ = t.S[i] * (*qdd)(detail::vIdx<Free>(m, i));
      }
      if (p < 0) {
        w.v[i] = vJ;
        w.a[i] = w.Xup[i].apply(t.aGrav) + aJ;
      } else {
        w.v[i] = w.Xup[i].apply(w.v[p]) + vJ;
        w.a[i] = w.Xup[i].apply(w.a[p]) + aJ + crossMotion(w.v[i], vJ);
      }
    }
    w.f[i] = t.I[i] * w.a[i] + crossForce(w.v[i], typename A::Vec(t.I[i] * w.v[i]));
    if (fext) w.f[i] -= detail::bodyExternalForce<A>(w, *fext, i);
  }
  // inward pass: joint forces, accumulating child forces into parents
  for (int i = m.nb - 1; i >= 0; --i) {
    if (detail::isFree<A, Free>(m, i)) {
      out.template segment<A::dim>(m.vIndex[i]) = w.f[i];
      continue;  // on the base: nothing to pass on
    }
    if (detail::isBall<A, Free>(m, i))
      out.template segment<3>(m.vIndex[i]) = w.f[i].template head<3>();
    else
      out(detail::vIdx<Free>(m, i)) = t.S[i].dot(w.f[i]);
    if (m.parent[i] >= 0) w.f[m.parent[i]] += w.Xup[i].applyTransposeForce(w.f[i]);
  }
}

}  // namespace

const Eigen::VectorXd& rnea(const Model& m, Data& d, const VecRef& q, const VecRef& qd,
                            const VecRef& qdd, const ExternalForces* fext) {
  detail::checkSize("rnea", "q", q.size(), m.nq());
  detail::checkSize("rnea", "qd", qd.size(), m.nv());
  detail::checkSize("rnea", "qdd", qdd.size(), m.nv());
  detail::checkFext("rnea", m, fext);
  detail::dispatchTree(m, [&](auto arith, auto free) {
    rneaPasses<decltype(arith), decltype(free)::value>(m, d, q, qd, &qdd, fext, d.tau);
  });
  if (m.hasArmature) d.tau += m.armature.cwiseProduct(qdd);
  return d.tau;
}

const Eigen::VectorXd& biasForces(const Model& m, Data& d, const VecRef& q, const VecRef& qd,
                                  const ExternalForces* fext) {
  detail::checkSize("biasForces", "q", q.size(), m.nq());
  detail::checkSize("biasForces", "qd", qd.size(), m.nv());
  detail::checkFext("biasForces", m, fext);
  detail::dispatchTree(m, [&](auto arith, auto free) {
    rneaPasses<decltype(arith), decltype(free)::value>(m, d, q, qd, nullptr, fext, d.C);
  });
  return d.C;
}

}  // namespace art
