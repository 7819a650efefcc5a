// Composite-rigid-body algorithm for the joint-space inertia matrix (RBDA Table 6.2), its
// tree-sparse L^T L factorisation and solve (RBDA Tables 6.3 and 6.4), and forward dynamics
// by qdd = H \ (tau - C) (spatial_v2 FDcrb).
#include <cmath>

#include "detail.h"

namespace art {

namespace {

template <class A>
void crbaPasses(const Model& m, Data& d, const VecRef& q) {
  auto& w = d.ws<A>();
  const auto& t = m.arrays<A>();
  for (int i = 0; i < m.nb; ++i) {
    detail::updateXup<A>(m, w, i, q(i), true);
    w.IA[i] = t.I[i];
  }
  // inward pass: composite inertias
  for (int i = m.nb - 1; i >= 0; --i)
    if (m.parent[i] >= 0) w.Xup[i].addTransposeTransformInertia(w.IA[i], w.IA[m.parent[i]]);
  // in base coordinates H(i, j) = S0_j . (X0_i^T IC_i S_i) for every ancestor j of i, so each
  // pair costs a dot product rather than a transform (U holds S0, f holds F0)
  for (int i = 0; i < m.nb; ++i) {
    w.U[i] = w.X0[i].applyInverse(t.S[i]);
    w.f[i] = w.X0[i].applyTransposeForce(typename A::Vec(w.IA[i] * t.S[i]));
  }
  for (int i = 0; i < m.nb; ++i) {
    d.H(i, i) = w.U[i].dot(w.f[i]);
    for (int j = m.parent[i]; j >= 0; j = m.parent[j]) d.H(i, j) = d.H(j, i) = w.U[j].dot(w.f[i]);
  }
}

}  // namespace

const Eigen::MatrixXd& crba(const Model& m, Data& d, const VecRef& q) {
  detail::checkSize("crba", "q", q.size(), m.nb);
  d.H.setZero();
  detail::dispatch(m, [&](auto arith) { crbaPasses<decltype(arith)>(m, d, q); });
  return d.H;
}

void factorizeMassMatrix(const Model& m, Data& d) {
  auto& L = d.L;
  L = d.H;
  for (int k = m.nb - 1; k >= 0; --k) {
    if (!(L(k, k) > 0.0))
      throw std::runtime_error("factorizeMassMatrix: the joint-space inertia matrix is not "
                               "positive definite at joint '" + m.names[k] + "'");
    L(k, k) = std::sqrt(L(k, k));
    for (int i = m.parent[k]; i >= 0; i = m.parent[i]) L(k, i) /= L(k, k);
    for (int i = m.parent[k]; i >= 0; i = m.parent[i])
      for (int j = i; j >= 0; j = m.parent[j]) L(i, j) -= L(k, i) * L(k, j);
  }
}

void solveMassMatrix(const Model& m, const Data& d, Eigen::Ref<Eigen::VectorXd> b) {
  detail::checkSize("solveMassMatrix", "b", b.size(), m.nb);
  const auto& L = d.L;
  // L^T y = b, leaves first
  for (int i = m.nb - 1; i >= 0; --i) {
    b(i) /= L(i, i);
    for (int j = m.parent[i]; j >= 0; j = m.parent[j]) b(j) -= L(i, j) * b(i);
  }
  // L x = y, root first
  for (int i = 0; i < m.nb; ++i) {
    for (int j = m.parent[i]; j >= 0; j = m.parent[j]) b(i) -= L(i, j) * b(j);
    b(i) /= L(i, i);
  }
}

const Eigen::VectorXd& forwardDynamicsCrb(const Model& m, Data& d, const VecRef& q,
                                          const VecRef& qd, const VecRef& tau,
                                          const ExternalForces* fext) {
  detail::checkSize("forwardDynamicsCrb", "tau", tau.size(), m.nb);
  biasForces(m, d, q, qd, fext);
  crba(m, d, q);
  factorizeMassMatrix(m, d);
  d.qdd = tau - d.C;
  solveMassMatrix(m, d, d.qdd);
  return d.qdd;
}

}  // namespace art
