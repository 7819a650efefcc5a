// Composite-rigid-body algorithm for the joint-space inertia matrix (RBDA Table 6.2), its
// tree-sparse L^T L factorisation and solve (RBDA Tables 6.3 and 6.4), and forward dynamics
// by qdd = H \ (tau - C) (spatial_v2 FDcrb). H is nv x nv: a free joint (on the base) owns a
// 6x6 block, its body's composite inertia, and a ball joint a 3x3 block, its rotational part;
// their variables form a chain in the expanded tree that the sparse factorisation walks
// (lambda = Model::dofParent).
#include <cmath>

#include "detail.h"

namespace art {

namespace {

// where crbaPasses puts H's entries: into data.H (crba), or only checked (massMatrixFinite)
struct DenseH {
  Eigen::MatrixXd& H;
  void entry(int r, int c, double v) { H(r, c) = H(c, r) = v; }
  template <class M>
  void block(int at, const M& b) {
    H.block<M::RowsAtCompileTime, M::ColsAtCompileTime>(at, at) = b;
  }
};
struct FiniteH {
  bool finite = true;
  void entry(int, int, double v) { finite = finite && std::isfinite(v); }
  template <class M>
  void block(int, const M& b) {
    finite = finite && b.allFinite();
  }
};

template <class A, bool Free, class Sink>
void crbaPasses(const Model& m, Workspace<A>& w, const VecRef& q, Sink& h) {
  const auto& t = m.arrays<A>();
  for (int i = 0; i < m.nb; ++i) {
    detail::updateXup<A, Free>(m, w, i, q, true);
    w.IA[i] = t.I[i];
  }
  // inward pass: composite inertias
  for (int i = m.nb - 1; i >= 0; --i)
    if (m.parent[i] >= 0) w.Xup[i].addTransposeTransformInertia(w.IA[i], w.IA[m.parent[i]]);
  // in base coordinates H(i, j) = S0_j . (X0_i^T IC_i S_i) for every ancestor j of i, so each
  // pair costs a dot product rather than a transform (U holds S0, f holds F0)
  for (int i = 0; i < m.nb; ++i) {
    if (detail::isFree<A, Free>(m, i) || detail::isBall<A, Free>(m, i)) continue;
    w.U[i] = w.X0[i].applyInverse(t.S[i]);
    w.f[i] = w.X0[i].applyTransposeForce(typename A::Vec(w.IA[i] * t.S[i]));
  }
  // row `row` of H against the ancestors of body i, F0 = X0_i^T IC_i S_i for that row's column
  // of S_i
  auto ancestors = [&](int i, int row, const typename A::Vec& F0) {
    for (int j = m.parent[i]; j >= 0; j = m.parent[j]) {
      const int vj = detail::vIdx<Free>(m, j);
      if (detail::isFree<A, Free>(m, j) || detail::isBall<A, Free>(m, j)) {
        // the columns of a free or ball ancestor j: S0_j = X0_j^-1 e_k, so S0_j . F0 is
        // entry k of F0 in body j's coordinates
        const typename A::Vec Fj = w.X0[j].applyForce(F0);
        for (int k = 0, n = m.jointNv(j); k < n; ++k) h.entry(row, vj + k, Fj(k));
      } else {
        h.entry(row, vj, w.U[j].dot(F0));
      }
    }
  };
  for (int i = 0; i < m.nb; ++i) {
    if (detail::isFree<A, Free>(m, i)) {
      // S = identity in body coordinates: the diagonal block is the composite inertia itself
      const int vi = m.vIndex[i];
      h.block(vi, w.IA[i]);
      continue;
    }
    const int vi = detail::vIdx<Free>(m, i);
    if (detail::isBall<A, Free>(m, i)) {
      // S = [identity(3); 0]: the diagonal block is the composite inertia's rotational block
      h.block(vi, Mat3(w.IA[i].template topLeftCorner<3, 3>()));
      for (int k = 0; k < 3; ++k)
        ancestors(i, vi + k, w.X0[i].applyTransposeForce(typename A::Vec(w.IA[i].col(k))));
      continue;
    }
    h.entry(vi, vi, w.U[i].dot(w.f[i]));
    ancestors(i, vi, w.f[i]);
  }
}

}  // namespace

const Eigen::MatrixXd& crba(const Model& m, Data& d, const VecRef& q) {
  detail::checkSize("crba", "q", q.size(), m.nq());
  d.H.setZero();
  DenseH sink{d.H};
  detail::dispatchTree(m, [&](auto arith, auto free) {
    using A = decltype(arith);
    crbaPasses<A, decltype(free)::value>(m, d.ws<A>(), q, sink);
  });
  if (m.hasArmature) d.H.diagonal() += m.armature;
  return d.H;
}

bool massMatrixFinite(const Model& m, const VecRef& q) {
  detail::checkSize("massMatrixFinite", "q", q.size(), m.nq());
  FiniteH sink;
  detail::dispatchTree(m, [&](auto arith, auto free) {
    using A = decltype(arith);
    Workspace<A> w;  // per-body arrays only: O(nb) memory
    w.resize(m.nb);
    crbaPasses<A, decltype(free)::value>(m, w, q, sink);
  });
  return sink.finite && m.armature.allFinite();
}

void factorizeMassMatrix(const Model& m, Data& d) {
  // the expanded tree of the velocity variables: lambda = dofParent (equal to parent without
  // free joints, whose 6 variables form a chain)
  const std::vector<int>& lambda = m.dofParent;
  auto& L = d.L;
  // H's entries on the tree's pattern (the diagonal and each variable's ancestors): the rest of
  // L stays zero, and a pile of free bodies copies a few entries per row instead of nv
  for (int k = 0; k < m.nv(); ++k) {
    L(k, k) = d.H(k, k);
    for (int i = lambda[k]; i >= 0; i = lambda[i]) L(k, i) = d.H(k, i);
  }
  // k's ancestors, listed once per k: the ancestors of its ancestor anc[t] are anc[t + 1 ..], so
  // the elimination's inner loop reads a list instead of chasing lambda (a load that waits on
  // the one before: a third of the humanoid's factorisation)
  int* anc = d.ancestors.data();
  for (int k = m.nv() - 1; k >= 0; --k) {
    if (!(L(k, k) > 0.0))
      throw SingularInertiaError("the joint-space inertia matrix is not "
                               "positive definite at joint '" + m.names[m.dofBody[k]] + "'");
    L(k, k) = std::sqrt(L(k, k));
    int n = 0;
    for (int i = lambda[k]; i >= 0; i = lambda[i]) anc[n++] = i;
    for (int t = 0; t < n; ++t) L(k, anc[t]) /= L(k, k);
    for (int t = 0; t < n; ++t) {
      const int i = anc[t];
      const double lki = L(k, i);
      for (int u = t; u < n; ++u) L(i, anc[u]) -= lki * L(k, anc[u]);
    }
  }
}

void solveMassMatrix(const Model& m, const Data& d, Eigen::Ref<Eigen::VectorXd> b) {
  detail::checkSize("solveMassMatrix", "b", b.size(), m.nv());
  const std::vector<int>& lambda = m.dofParent;
  const auto& L = d.L;
  // L^T y = b, leaves first
  for (int i = m.nv() - 1; i >= 0; --i) {
    b(i) /= L(i, i);
    for (int j = lambda[i]; j >= 0; j = lambda[j]) b(j) -= L(i, j) * b(i);
  }
  // L x = y, root first
  for (int i = 0; i < m.nv(); ++i) {
    for (int j = lambda[i]; j >= 0; j = lambda[j]) b(i) -= L(i, j) * b(j);
    b(i) /= L(i, i);
  }
}

void detail::multiplyMassMatrix(const Model& m, const Eigen::MatrixXd& H, const Eigen::VectorXd& x, Eigen::VectorXd& y) {
  const std::vector<int>& lambda = m.dofParent;
  const int nv = m.nv();
  for (int i = 0; i < nv; ++i) y(i) = H(i, i) * x(i);
  for (int i = 0; i < nv; ++i)
    for (int j = lambda[static_cast<std::size_t>(i)]; j >= 0; j = lambda[static_cast<std::size_t>(j)]) {
      y(i) += H(i, j) * x(j);
      y(j) += H(i, j) * x(i);
    }
}

const Eigen::VectorXd& forwardDynamicsCrb(const Model& m, Data& d, const VecRef& q,
                                          const VecRef& qd, const VecRef& tau,
                                          const ExternalForces* fext) {
  detail::checkSize("forwardDynamicsCrb", "tau", tau.size(), m.nv());
  biasForces(m, d, q, qd, fext);
  crba(m, d, q);
  factorizeMassMatrix(m, d);
  d.qdd = tau - d.C;
  solveMassMatrix(m, d, d.qdd);
  return d.qdd;
}

}  // namespace art
