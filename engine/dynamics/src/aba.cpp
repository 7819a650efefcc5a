// Articulated-body forward dynamics (Featherstone, RBDA Table 7.1; spatial_v2 FDab), for
// single-DoF joints: U = IA S, d = S' U, u = tau - S' pA (the workspace keeps 1/d). A free
// joint (S = identity, always on the base) has U = D = IA and u = tau - pA, so its body's
// spatial acceleration is
// a = IA \ (tau - pA) and qdd = a - Xup a0 (RBDA section 9.3). A ball joint (S = [identity(3);
// 0], anywhere) takes the same steps with 3x3 D (ballInward). A revolute joint about a
// coordinate axis on a tree transform without rotation (Model turnAxis), the common case, takes
// a specialised inward step (revoluteInward) that keeps its Ia in registers and reads and
// writes only the upper triangle of the IA it shares with such a parent: after aba, such a
// body's IA holds its articulated-body inertia (not Ia), valid in the upper triangle only.
#include <Eigen/Cholesky>
#include <Eigen/LU>

#include "detail.h"

namespace art {

namespace {

/// Entry (i, j) of a symmetric 6x6 matrix of which only the upper triangle is read.
inline double upper(const Mat6& M, int i, int j) { return i <= j ? M(i, j) : M(j, i); }

/// c = v x vJ, the velocity-product acceleration of a joint with velocity vJ.
template <class X, class Vec>
inline Vec jointBias(const X&, const Vec& v, const Vec& vJ, double) {
  return crossMotion(v, vJ);
}
/// The same for a revolute joint about coordinate axis K (vJ = e_K qd): four products.
template <int K>
inline Vec6 jointBias(const AxisTransform<K>&, const Vec6& v, const Vec6&, double qd) {
  constexpr int a = AxisTransform<K>::a, b = AxisTransform<K>::b;
  Vec6 c;
  c(K) = 0.0;
  c(a) = v(b) * qd;
  c(b) = -(v(a) * qd);
  c(3 + K) = 0.0;
  c(3 + a) = v(3 + b) * qd;
  c(3 + b) = -(v(3 + a) * qd);
  return c;
}

/// The inward step of a revolute joint about coordinate axis K on a tree transform without
/// rotation (Model turnAxis: S = e_K and Xup[i] an AxisTransform<K>): U, 1/d and u of body i
/// into the workspace, and Xup' Ia Xup and Xup' pa added to its parent p. Ia = IA - U U'/d has
/// row and column K zero (Ia S = 0) and c has entries K and 3 + K zero (c = v x S qd), so only
/// Ia's other 15 unique entries are formed (in registers, not in place of IA[i]), and the
/// rotation and shift (as SpatialTransform::addTransposeTransformInertia, equal to rounding)
/// skip the zero blocks. Reads IA[i]'s upper triangle only; writes IA[p]'s upper triangle only
/// when `parentUpper` (the parent takes this path too), else both triangles.
///
/// The arithmetic runs in the coordinates permuted to (K, a, b) = (K, K + 1, K + 2) mod 3: a
/// cyclic permutation, under which cross products keep their form, so one body of code (axis
/// 0) serves the three axes. The loops are unrolled in full (GCC unroll) so that the permuted
/// indices are constants: rolled, they cost twice the instructions.
template <int K>
void revoluteInward(Workspace<SpatialArith>& w, int i, int p, double taui, bool parentUpper) {
  constexpr int P[6] = {K, (K + 1) % 3, (K + 2) % 3, 3 + K, 3 + (K + 1) % 3, 3 + (K + 2) % 3};
  const Mat6& IA = w.IA[i];
  const Vec6& pA = w.pA[i];
  const Vec6& cv = w.c[i];
  double U[6], Ud[6];
  #pragma GCC unroll 6
  for (int j = 0; j < 6; ++j) U[j] = upper(IA, P[j], K);
  const double dinv = 1.0 / U[0];  // the one division per body: U/d here and qdd outward
  const double u = taui - pA(K);
  Vec6& Ui = w.U[i];
  #pragma GCC unroll 6
  for (int j = 0; j < 6; ++j) Ui(P[j]) = U[j];
  w.d[i] = dinv;
  w.u[i] = u;
  #pragma GCC unroll 6
  for (int j = 0; j < 6; ++j) Ud[j] = U[j] * dinv;
  // Ia (permuted coordinates) without its zero row and column 0
  double L[6][6];
  #pragma GCC unroll 6
  for (int r = 1; r < 6; ++r)
    #pragma GCC unroll 6
    for (int col = r; col < 6; ++col)
      L[r][col] = L[col][r] = upper(IA, P[r], P[col]) - Ud[r] * U[col];
  // pa = pA + Ia c + U u/d (original coordinates)
  const double c1 = cv(P[1]), c2 = cv(P[2]), c4 = cv(P[4]), c5 = cv(P[5]);
  Vec6 pa;
  pa(K) = pA(K) + Ud[0] * u;
  #pragma GCC unroll 6
  for (int r = 1; r < 6; ++r)
    pa(P[r]) = pA(P[r]) + L[r][1] * c1 + L[r][2] * c2 + L[r][4] * c4 + L[r][5] * c5 + Ud[r] * u;
  const AxisTransform<K> X = AxisTransform<K>::from(w.Xup[i]);
  w.pA[p] += X.applyTransposeForce(pa);
  // rotate Ia = [A B; B' M] back to the parent's orientation: A1 = E'AE, B1 = E'BE, M1 = E'ME
  // with E the rotation by (c, s) of coordinates 1 and 2; A's row 0 and B's row 0 are zero
  const double c = X.c, s = X.s;
  auto rotate2 = [&](double Saa, double Sab, double Sbb, double& Raa, double& Rab, double& Rbb) {
    const double Taa = c * Saa - s * Sab, Tba = c * Sab - s * Sbb;
    const double Tab = s * Saa + c * Sab, Tbb = s * Sab + c * Sbb;
    Raa = c * Taa - s * Tba;
    Rab = c * Tab - s * Tbb;
    Rbb = s * Tab + c * Tbb;
  };
  double A11, A12, A22, M1[3][3], B1[3][3];  // B1 row 0 zero, not stored
  rotate2(L[1][1], L[1][2], L[2][2], A11, A12, A22);
  M1[0][0] = L[3][3];
  M1[0][1] = M1[1][0] = c * L[3][4] - s * L[3][5];
  M1[0][2] = M1[2][0] = s * L[3][4] + c * L[3][5];
  rotate2(L[4][4], L[4][5], L[5][5], M1[1][1], M1[1][2], M1[2][2]);
  M1[2][1] = M1[1][2];
  double T[3][3];
  #pragma GCC unroll 6
  for (int r = 1; r < 3; ++r) {
    T[r][0] = L[r][3];
    T[r][1] = c * L[r][4] - s * L[r][5];
    T[r][2] = s * L[r][4] + c * L[r][5];
  }
  #pragma GCC unroll 6
  for (int col = 0; col < 3; ++col) {
    B1[1][col] = c * T[1][col] - s * T[2][col];
    B1[2][col] = s * T[1][col] + c * T[2][col];
  }
  // shift by r (detail::addShiftedInertia): [A1 - D - D' - C rx, B1 + C; sym, M1] with
  // C = rx M1 and D = B1 rx (row 0 zero)
  const double rx = X.r(P[0]), ry = X.r(P[1]), rz = X.r(P[2]);
  double C[3][3], D[3][3];  // D row 0 zero, not stored
  #pragma GCC unroll 6
  for (int j = 0; j < 3; ++j) {
    C[0][j] = ry * M1[2][j] - rz * M1[1][j];
    C[1][j] = rz * M1[0][j] - rx * M1[2][j];
    C[2][j] = rx * M1[1][j] - ry * M1[0][j];
  }
  #pragma GCC unroll 6
  for (int r = 1; r < 3; ++r) {
    D[r][0] = B1[r][1] * rz - B1[r][2] * ry;
    D[r][1] = B1[r][2] * rx - B1[r][0] * rz;
    D[r][2] = B1[r][0] * ry - B1[r][1] * rx;
  }
  double tl[3][3];
  #pragma GCC unroll 6
  for (int r = 0; r < 3; ++r) {
    const double Crx[3] = {C[r][1] * rz - C[r][2] * ry, C[r][2] * rx - C[r][0] * rz,
                           C[r][0] * ry - C[r][1] * rx};
    #pragma GCC unroll 6
    for (int col = r; col < 3; ++col) tl[r][col] = -Crx[col];
  }
  tl[0][1] -= D[1][0];
  tl[0][2] -= D[2][0];
  tl[1][1] = A11 - D[1][1] - D[1][1] + tl[1][1];
  tl[1][2] = A12 - D[1][2] - D[2][1] + tl[1][2];
  tl[2][2] = A22 - D[2][2] - D[2][2] + tl[2][2];
  Mat6& out = w.IA[p];
  auto add = [&](int r, int col, double v) {
    if (r <= col) out(r, col) += v;
    else out(col, r) += v;
  };
  #pragma GCC unroll 6
  for (int r = 0; r < 3; ++r)
    #pragma GCC unroll 6
    for (int col = 0; col < 3; ++col) {
      const double tr = r == 0 ? C[0][col] : B1[r][col] + C[r][col];
      out(P[r], P[3 + col]) += tr;
      if (col >= r) {
        add(P[r], P[col], tl[r][col]);
        add(P[3 + r], P[3 + col], M1[r][col]);
      }
    }
  if (parentUpper) return;
  #pragma GCC unroll 6
  for (int r = 0; r < 6; ++r)
    #pragma GCC unroll 6
    for (int col = r + 1; col < 6; ++col) out(col, r) = out(r, col);
}

/// The inward step of a ball joint (S = [identity(3); 0]): U = IA S (IA's first three
/// columns), D = S' IA S + armature (their top 3x3 block), u = tau_i - S' pA, kept for the
/// outward pass, and Ia = IA - U D^-1 U' and pa = pA + Ia c + U D^-1 u added to the parent
/// through Xup[i] (RBDA Table 7.1 with a 3-column S).
void ballInward(const Model& m, Workspace<SpatialArith>& w, int i, const VecRef& tau) {
  const int vi = m.vIndex[i];
  Eigen::Matrix<double, 6, 3>& U = w.Uball[i];
  U = w.IA[i].leftCols<3>();
  Mat3 D = U.topRows<3>();
  if (m.hasArmature) D.diagonal() += m.armature.segment<3>(vi);
  D = 0.5 * (D + D.transpose());
  Mat3& Dinv = w.Dinvball[i];
  Dinv = D.inverse();
  w.uball[i] = tau.segment<3>(vi) - w.pA[i].head<3>();
  const int p = m.parent[i];
  if (p < 0) return;
  const Eigen::Matrix<double, 6, 3> UD = U * Dinv;
  Mat6& Ia = w.IA[i];
  Ia.noalias() -= UD * U.transpose();
  Vec6& pa = w.pA[i];
  pa.noalias() += Ia * w.c[i];
  pa.noalias() += UD * w.uball[i];
  w.Xup[i].addTransposeTransformInertia(Ia, w.IA[p]);
  w.pA[p] += w.Xup[i].applyTransposeForce(pa);
}

template <class A, bool Free>
void abaPasses(const Model& m, Data& d, const VecRef& q, const VecRef& qd, const VecRef& tau,
               const ExternalForces* fext) {
  using Vec = typename A::Vec;
  using Mat = typename A::Mat;
  auto& w = d.ws<A>();
  const auto& t = m.arrays<A>();
  // the arrays' data pointers held in locals: Eigen's vector stores may alias anything, which
  // would make the compiler reload them from the vectors after every one
  const int* const parent = m.parent.data();
  const Mat* const I = t.I.data();
  const Vec* const S = t.S.data();
  Vec* const v = w.v.data();
  Vec* const c = w.c.data();
  Vec* const pA = w.pA.data();
  Vec* const acc = w.a.data();
  Mat* const IA = w.IA.data();
  // outward pass: velocities, velocity-product accelerations, rigid-body bias forces
  detail::SinCosBlocks angles(q);
  for (int i = 0; i < m.nb; ++i) {
    detail::updateXup<A, Free>(m, w, i, q, fext != nullptr, &angles);
    const int p = parent[i];
    const Vec vJ = detail::jointVelocity<A, Free>(m, i, qd);
    if (p < 0) {
      v[i] = vJ;
      c[i].setZero();
    } else {
      detail::withXup(m, w, i, [&](const auto& X) {
        v[i] = detail::sum(X.apply(v[p]), vJ);
        c[i] = jointBias(X, v[i], vJ, qd(detail::vIdx<Free>(m, i)));
      });
    }
    IA[i] = I[i];
    pA[i] = crossForce(v[i], Vec(I[i] * v[i]));
    if (fext) pA[i] -= detail::bodyExternalForce<A>(w, *fext, i);
  }
  // inward pass: articulated-body inertias and bias forces
  for (int i = m.nb - 1; i >= 0; --i) {
    if (detail::isFree<A, Free>(m, i)) continue;  // on the base: solved in the last pass
    if constexpr (A::dim == 6) {
      if (detail::isBall<A, Free>(m, i)) {
        ballInward(m, w, i, tau);
        continue;
      }
    }
    const int k = t.axis[i];
    const double taui = tau(detail::vIdx<Free>(m, i));
    const int p = parent[i];
    if constexpr (A::dim == 6) {
      if (p >= 0 && m.spatial.turnAxis[i] >= 0) {
        // the parent reads the upper triangle only when it takes this path too (a root
        // takes the general one)
        const bool parentUpper = m.spatial.turnAxis[p] >= 0 && parent[p] >= 0;
        switch (m.spatial.turnAxis[i]) {
          case 0: revoluteInward<0>(w, i, p, taui, parentUpper); break;
          case 1: revoluteInward<1>(w, i, p, taui, parentUpper); break;
          default: revoluteInward<2>(w, i, p, taui, parentUpper); break;
        }
        continue;
      }
    }
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
    if (m.hasArmature) di += m.armature(detail::vIdx<Free>(m, i));  // D = S' IA S + armature
    // the one division per body: its reciprocal serves U/d here and qdd below
    w.d[i] = 1.0 / di;
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
  const Vec* const U = w.U.data();
  const double* const dinv = w.d.data();
  const double* const u = w.u.data();
  double* const qdd = d.qdd.data();
  for (int i = 0; i < m.nb; ++i) {
    const int p = parent[i];
    Vec a;
    detail::withXup(m, w, i, [&](const auto& X) {
      a = detail::sum(X.apply(p < 0 ? t.aGrav : acc[p]), c[i]);
    });
    if (detail::isFree<A, Free>(m, i)) {
      const int vi = m.vIndex[i];
      acc[i] = Eigen::LLT<Mat>(IA[i]).solve(Vec(tau.template segment<A::dim>(vi) - pA[i]));
      d.qdd.template segment<A::dim>(vi) = acc[i] - a;
      continue;
    }
    if constexpr (A::dim == 6) {
      if (detail::isBall<A, Free>(m, i)) {
        // qdd = D^-1 (u - U' a), a_i = a + S qdd
        const Vec3 qdd3 = w.Dinvball[i] * (w.uball[i] - w.Uball[i].transpose() * a);
        d.qdd.template segment<3>(m.vIndex[i]) = qdd3;
        acc[i] = a;
        acc[i].template head<3>() += qdd3;
        continue;
      }
    }
    const int vi = detail::vIdx<Free>(m, i);
    qdd[vi] = (u[i] - U[i].dot(a)) * dinv[i];
    acc[i] = a + S[i] * qdd[vi];
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
