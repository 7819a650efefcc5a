// Articulated-body forward dynamics (Featherstone, RBDA Table 7.1; spatial_v2 FDab), for
// single-DoF joints: U = IA S, d = S' U, u = tau - S' pA (the workspace keeps 1/d). A free
// joint (S = identity, always on the base) has U = D = IA and u = tau - pA, so its body's
// spatial acceleration is
// a = IA \ (tau - pA) and qdd = a - Xup a0 (RBDA section 9.3).
#include <Eigen/Cholesky>

#include "detail.h"

namespace art {

namespace {

template <class A, bool Free>
void abaPasses(const Model& m, Data& d, const VecRef& q, const VecRef& qd, const VecRef& tau,
               const ExternalForces* fext) {
  using Vec = typename A::Vec;
  using Mat = typename A::Mat;
  auto& w = d.ws<A>();
  const auto& t = m.arrays<A>();
  // outward pass: velocities, velocity-product accelerations, rigid-body bias forces
  detail::SinCosBlocks angles(q);
  for (int i = 0; i < m.nb; ++i) {
    detail::updateXup<A, Free>(m, w, i, q, fext != nullptr, &angles);
    const int p = m.parent[i];
    const Vec vJ = detail::jointVelocity<A, Free>(m, i, qd);
    if (p < 0) {
      w.v[i] = vJ;
      w.c[i].setZero();
    } else {
      detail::withXup(m, w, i, [&](const auto& X) { w.v[i] = detail::sum(X.apply(w.v[p]), vJ); });
      w.c[i] = crossMotion(w.v[i], vJ);
    }
    w.IA[i] = t.I[i];
    w.pA[i] = crossForce(w.v[i], Vec(t.I[i] * w.v[i]));
    if (fext) w.pA[i] -= detail::bodyExternalForce<A>(w, *fext, i);
  }
  // inward pass: articulated-body inertias and bias forces
  for (int i = m.nb - 1; i >= 0; --i) {
    if (detail::isFree<A, Free>(m, i)) continue;  // on the base: solved in the last pass
    const int k = t.axis[i];
    const double taui = tau(detail::vIdx<Free>(m, i));
    double di;
    if (k >= 0) {  // S = e_k: columns and entries instead of products
      w.U[i] = w.IA[i].col(k);
      di = w.U[i](k);
      w.u[i] = taui - w.pA[i](k);
    } else {
      w.U[i] = w.IA[i] * t.S[i];
      di = t.S[i].dot(w.U[i]);
      w.u[i] = taui - t.S[i].dot(w.pA[i]);
    }
    // the one division per body: its reciprocal serves U/d here and qdd below
    w.d[i] = 1.0 / di;
    const int p = m.parent[i];
    if (p >= 0) {
      // Ia = IA - U U'/d and pa = pA + Ia c + U u/d, formed in place of IA and pA
      Mat& Ia = w.IA[i];
      Vec& pa = w.pA[i];
      const Vec Ud = w.U[i] * w.d[i];
      for (int col = 0; col < A::dim; ++col) Ia.col(col) -= Ud * w.U[i](col);
      pa.noalias() += Ia * w.c[i];
      pa += Ud * w.u[i];
      detail::withXup(m, w, i, [&](const auto& X) {
        X.addTransposeTransformInertia(Ia, w.IA[p]);
        w.pA[p] += X.applyTransposeForce(pa);
      });
    }
  }
  // outward pass: accelerations
  for (int i = 0; i < m.nb; ++i) {
    const int p = m.parent[i];
    Vec a;
    detail::withXup(m, w, i, [&](const auto& X) {
      a = detail::sum(X.apply(p < 0 ? t.aGrav : w.a[p]), w.c[i]);
    });
    if (detail::isFree<A, Free>(m, i)) {
      const int vi = m.vIndex[i];
      w.a[i] = Eigen::LLT<Mat>(w.IA[i]).solve(Vec(tau.template segment<A::dim>(vi) - w.pA[i]));
      d.qdd.template segment<A::dim>(vi) = w.a[i] - a;
      continue;
    }
    const int vi = detail::vIdx<Free>(m, i);
    d.qdd(vi) = (w.u[i] - w.U[i].dot(a)) * w.d[i];
    w.a[i] = a + t.S[i] * d.qdd(vi);
  }
}

}  // namespace

const Eigen::VectorXd& aba(const Model& m, Data& d, const VecRef& q, const VecRef& qd,
                           const VecRef& tau, const ExternalForces* fext) {
  detail::checkSize("aba", "q", q.size(), m.nq());
  detail::checkSize("aba", "qd", qd.size(), m.nv());
  detail::checkSize("aba", "tau", tau.size(), m.nv());
  detail::checkFext("aba", m, fext);
  detail::dispatchTree(m, [&](auto arith, auto free) {
    abaPasses<decltype(arith), decltype(free)::value>(m, d, q, qd, tau, fext);
  });
  return d.qdd;
}

}  // namespace art
