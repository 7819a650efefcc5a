// Constraint kinematics (phi, G, g = -Gdot qd) and constrained forward dynamics with Baumgarte
// stabilisation (Featherstone, RBDA section 8.3: H qdd + C = tau + G' lambda, G qdd = g - 2 alpha
// phidot - beta^2 phi), solved through the Schur complement G H^-1 G'; and the projection of a
// state onto phi = 0, G qd = 0. Velocities are spatial_v2's, angular part first; a point p of a
// body moving with base-coordinate spatial velocity [w; vO] has velocity vO + w x p and, with
// spatial acceleration [dw; aO], classical acceleration aO + dw x p + w x (vO + w x p).
#include "articulate/dynamics/constraints.h"

#include <algorithm>
#include <cmath>

#include "articulate/dynamics/configuration.h"
#include "detail.h"

namespace art {

namespace {

int rowsOf(const Model& m, const ConstraintSpec& c) {
  const bool planar = m.arithmetic == Arithmetic::Planar;
  if (c.type == ConstraintSpec::Type::Coupling) return 1;
  return (planar ? 2 : 3) + (c.align ? (planar ? 1 : 3) : 0);
}

// a body-coordinate motion vector in base coordinates, as a spatial vector
Vec6 toBase(const SpatialTransform& X0, const Vec6& m) { return X0.applyInverse(m); }
Vec6 toBase(const PlanarTransform& X0, const Vec3& m) {
  const Vec3 b = X0.applyInverse(m);
  Vec6 out;
  out << 0, 0, b(0), b(1), b(2), 0;
  return out;
}

// body -> base rotation and origin of body i (identity for the base, i = -1)
void poseOf(const SpatialTransform& X0, Mat3& R, Vec3& o) {
  R = X0.E.transpose();
  o = X0.r;
}
void poseOf(const PlanarTransform& X0, Mat3& R, Vec3& o) {
  R << X0.c, -X0.s, 0, X0.s, X0.c, 0, 0, 0, 1;
  o << X0.r.x(), X0.r.y(), 0;
}

// outward pass: X0, and per body in base coordinates the velocity, the velocity-product
// acceleration (qdd = 0, no gravity) and the joint axis
template <class A, bool Free>
void treeMotion(const Model& m, Data& d, ConstraintData& cd, const VecRef& q, const VecRef& qd) {
  using Vec = typename A::Vec;
  auto& w = d.ws<A>();
  const auto& t = m.arrays<A>();
  for (int i = 0; i < m.nb; ++i) {
    detail::updateXup<A, Free>(m, w, i, q, true);
    const int p = m.parent[i];
    const Vec vJ = detail::jointVelocity<A, Free>(m, i, qd);
    if (p < 0) {
      w.v[i] = vJ;
      w.a[i].setZero();
    } else {
      w.v[i] = w.Xup[i].apply(w.v[p]) + vJ;
      w.a[i] = w.Xup[i].apply(w.a[p]) + crossMotion(w.v[i], vJ);
    }
    cd.v0[i] = toBase(w.X0[i], w.v[i]);
    cd.a0[i] = toBase(w.X0[i], w.a[i]);
    if (detail::isFree<A, Free>(m, i) || detail::isBall<A, Free>(m, i)) {
      for (int k = 0, n = m.jointNv(i); k < n; ++k)
        cd.s0[m.vIndex[i] + k] = toBase(w.X0[i], Vec(Vec::Unit(k)));
    } else {
      cd.s0[detail::vIdx<Free>(m, i)] = toBase(w.X0[i], t.S[i]);
    }
  }
}

// kinematics of one side of a loop: rotation, origin, angular velocity and acceleration,
// origin velocity and acceleration terms (zero for the base)
struct Side {
  int body = -1;
  Mat3 R = Mat3::Identity();
  Vec3 o = Vec3::Zero(), w = Vec3::Zero(), vO = Vec3::Zero(), dw = Vec3::Zero(),
       aO = Vec3::Zero();
};

template <class A>
Side sideOf(const Data& d, const ConstraintData& cd, int body) {
  Side s;
  s.body = body;
  if (body < 0) return s;
  poseOf(d.ws<A>().X0[body], s.R, s.o);
  s.w = cd.v0[body].head<3>();
  s.vO = cd.v0[body].tail<3>();
  s.dw = cd.a0[body].head<3>();
  s.aO = cd.a0[body].tail<3>();
  return s;
}

template <class A>
void loopRows(const Model& m, const Data& d, ConstraintData& cd, const ConstraintSpec& c, int r0,
              bool withVelocity) {
  const bool planar = A::dim == 3;
  const int np = planar ? 2 : 3;  // point rows: x y (planar) or x y z
  const Side sA = sideOf<A>(d, cd, c.bodyA), sB = sideOf<A>(d, cd, c.bodyB);
  const Vec3 ptA = planar ? Vec3(c.pointA.x(), c.pointA.y(), 0) : c.pointA;
  const Vec3 ptB = planar ? Vec3(c.pointB.x(), c.pointB.y(), 0) : c.pointB;
  const Vec3 pA = sA.R * ptA + sA.o, pB = sB.R * ptB + sB.o;
  // point coincidence: phi = pA - pB, G columns (s_v + s_w x p) along each side's path
  const Vec3 vA = sA.vO + sA.w.cross(pA), vB = sB.vO + sB.w.cross(pB);
  const Vec3 accA = sA.aO + sA.dw.cross(pA) + sA.w.cross(vA);
  const Vec3 accB = sB.aO + sB.dw.cross(pB) + sB.w.cross(vB);
  const Vec3 e = pA - pB, ed = vA - vB, bias = accA - accB;
  for (int k = 0; k < np; ++k) {
    cd.phi(r0 + k) = e(k);
    if (withVelocity) {
      cd.phidot(r0 + k) = ed(k);
      cd.g(r0 + k) = -bias(k);
    }
  }
  for (int jb = sA.body; jb >= 0; jb = m.parent[jb]) {
    for (int j = m.vIndex[jb], end = j + m.jointNv(jb); j < end; ++j) {
      const Vec3 col = cd.s0[j].tail<3>() + cd.s0[j].head<3>().cross(pA);
      for (int k = 0; k < np; ++k) cd.G(r0 + k, j) += col(k);
    }
  }
  for (int jb = sB.body; jb >= 0; jb = m.parent[jb]) {
    for (int j = m.vIndex[jb], end = j + m.jointNv(jb); j < end; ++j) {
      const Vec3 col = cd.s0[j].tail<3>() + cd.s0[j].head<3>().cross(pB);
      for (int k = 0; k < np; ++k) cd.G(r0 + k, j) -= col(k);
    }
  }
  if (!c.align) return;
  // alignment: phi = a x b for unit axes a (body A) and b (body B) in base coordinates;
  // d(a x b) = (w_A x a) x b + a x (w_B x b)
  const int ra = r0 + np;
  const Vec3 axA = planar ? Vec3(c.axisA.x(), c.axisA.y(), 0) : c.axisA;
  const Vec3 axB = planar ? Vec3(c.axisB.x(), c.axisB.y(), 0) : c.axisB;
  const Vec3 a = sA.R * axA.normalized(), b = sB.R * axB.normalized();
  const Vec3 ad = sA.w.cross(a), bd = sB.w.cross(b);
  const Vec3 add = sA.dw.cross(a) + sA.w.cross(ad), bdd = sB.dw.cross(b) + sB.w.cross(bd);
  const Vec3 x = a.cross(b), xd = ad.cross(b) + a.cross(bd);
  const Vec3 xb = add.cross(b) + 2 * ad.cross(bd) + a.cross(bdd);
  const int k0 = planar ? 2 : 0, nk = planar ? 1 : 3;  // planar: the z row only
  for (int k = 0; k < nk; ++k) {
    cd.phi(ra + k) = x(k0 + k);
    if (withVelocity) {
      cd.phidot(ra + k) = xd(k0 + k);
      cd.g(ra + k) = -xb(k0 + k);
    }
  }
  for (int jb = sA.body; jb >= 0; jb = m.parent[jb]) {
    for (int j = m.vIndex[jb], end = j + m.jointNv(jb); j < end; ++j) {
      const Vec3 col = cd.s0[j].head<3>().cross(a).cross(b);
      for (int k = 0; k < nk; ++k) cd.G(ra + k, j) += col(k0 + k);
    }
  }
  for (int jb = sB.body; jb >= 0; jb = m.parent[jb]) {
    for (int j = m.vIndex[jb], end = j + m.jointNv(jb); j < end; ++j) {
      const Vec3 col = a.cross(cd.s0[j].head<3>().cross(b));
      for (int k = 0; k < nk; ++k) cd.G(ra + k, j) += col(k0 + k);
    }
  }
}

void evaluate(const Model& m, Data& d, ConstraintData& cd, const VecRef& q, const VecRef& qd,
              bool withVelocity) {
  cd.G.setZero();
  bool loops = false;
  for (const ConstraintSpec& c : m.constraints) loops |= c.type == ConstraintSpec::Type::Loop;
  if (loops)
    detail::dispatchTree(m, [&](auto arith, auto free) {
      treeMotion<decltype(arith), decltype(free)::value>(m, d, cd, q, qd);
    });
  for (std::size_t k = 0; k < m.constraints.size(); ++k) {
    const ConstraintSpec& c = m.constraints[k];
    const int r = cd.row[k];
    if (c.type == ConstraintSpec::Type::Coupling) {
      // couplings join single-variable joints only (compile() refuses free ones)
      const int qj = m.qIndex[c.joint], qm = m.qIndex[c.master];
      const int vj = m.vIndex[c.joint], vm = m.vIndex[c.master];
      cd.phi(r) = q(qj) - c.ratio * q(qm) - c.offset;
      cd.G(r, vj) = 1.0;
      cd.G(r, vm) = -c.ratio;
      if (withVelocity) {
        cd.phidot(r) = qd(vj) - c.ratio * qd(vm);
        cd.g(r) = 0.0;
      }
    } else {
      detail::dispatch(m, [&](auto arith) {
        loopRows<decltype(arith)>(m, d, cd, c, r, withVelocity);
      });
    }
  }
}

// In-place LDL^T of the symmetric positive semi-definite n x n matrix A with diagonal pivoting
// (largest remaining pivot first); pivots below a relative tolerance end the factorisation and
// their rows are treated as dependent. Returns the rank.
int factorPivoted(Eigen::MatrixXd& A, Eigen::VectorXi& perm, int n) {
  for (int i = 0; i < n; ++i) perm(i) = i;
  double maxDiag = 0.0;
  for (int i = 0; i < n; ++i) maxDiag = std::max(maxDiag, A(i, i));
  const double tol = 1e-12 * maxDiag;
  for (int k = 0; k < n; ++k) {
    int p = k;
    for (int i = k + 1; i < n; ++i)
      if (A(i, i) > A(p, p)) p = i;
    if (!(A(p, p) > tol)) return k;
    if (p != k) {
      A.row(k).swap(A.row(p));
      A.col(k).swap(A.col(p));
      std::swap(perm(k), perm(p));
    }
    const double dk = A(k, k);
    for (int i = k + 1; i < n; ++i)
      for (int j = k + 1; j < n; ++j) A(i, j) -= A(i, k) * A(k, j) / dk;
    for (int i = k + 1; i < n; ++i) {
      A(i, k) /= dk;
      A(k, i) = A(i, k);
    }
  }
  return n;
}

// x = A^+ b in the sense of factorPivoted: the dependent rows' unknowns are zero. b and x may
// not alias; `work` is scratch (n).
void solvePivoted(const Eigen::MatrixXd& A, const Eigen::VectorXi& perm, int n, int rank,
                  const Eigen::VectorXd& b, Eigen::VectorXd& x, Eigen::VectorXd& work) {
  for (int i = 0; i < rank; ++i) work(i) = b(perm(i));
  for (int i = 0; i < rank; ++i)
    for (int k = 0; k < i; ++k) work(i) -= A(i, k) * work(k);
  for (int i = 0; i < rank; ++i) work(i) /= A(i, i);
  for (int i = rank - 1; i >= 0; --i)
    for (int k = i + 1; k < rank; ++k) work(i) -= A(k, i) * work(k);
  for (int i = 0; i < n; ++i) x(perm(i)) = i < rank ? work(i) : 0.0;
}

// Y = H^-1 G' and A = G Y (with H factorised in data.L)
void schur(const Model& m, const Data& d, ConstraintData& cd) {
  for (int k = 0; k < cd.nc; ++k) {
    for (int j = 0; j < m.nv(); ++j) cd.Y(j, k) = cd.G(k, j);
    solveMassMatrix(m, d, cd.Y.col(k));
  }
  for (int i = 0; i < cd.nc; ++i)
    for (int k = 0; k <= i; ++k) cd.A(i, k) = cd.A(k, i) = cd.G.row(i).dot(cd.Y.col(k));
}

}  // namespace

int constraintRowCount(const Model& model) {
  int n = 0;
  for (const ConstraintSpec& c : model.constraints) n += rowsOf(model, c);
  return n;
}

ConstraintData::ConstraintData(const Model& model) : nc(constraintRowCount(model)) {
  row.push_back(0);
  for (const ConstraintSpec& c : model.constraints) row.push_back(row.back() + rowsOf(model, c));
  for (auto* v : {&phi, &phidot, &g, &lambda, &rhs, &work}) v->setZero(nc);
  G.setZero(nc, model.nv());
  Y.setZero(model.nv(), nc);
  dq.setZero(model.nv());
  A.setZero(nc, nc);
  perm.setZero(nc);
  v0.assign(model.nb, Vec6::Zero());
  a0.assign(model.nb, Vec6::Zero());
  s0.assign(model.nv(), Vec6::Zero());
}

void constraintKinematics(const Model& m, Data& d, ConstraintData& cd, const VecRef& q,
                          const VecRef& qd) {
  detail::checkSize("constraintKinematics", "q", q.size(), m.nq());
  detail::checkSize("constraintKinematics", "qd", qd.size(), m.nv());
  evaluate(m, d, cd, q, qd, true);
}

const Eigen::VectorXd& constrainedForwardDynamics(const Model& m, Data& d, ConstraintData& cd,
                                                  const VecRef& q, const VecRef& qd,
                                                  const VecRef& tau, const ExternalForces* fext,
                                                  const BaumgarteGains& gains) {
  detail::checkSize("constrainedForwardDynamics", "q", q.size(), m.nq());
  detail::checkSize("constrainedForwardDynamics", "qd", qd.size(), m.nv());
  detail::checkSize("constrainedForwardDynamics", "tau", tau.size(), m.nv());
  detail::checkFext("constrainedForwardDynamics", m, fext);
  // unconstrained accelerations qdd0 = H \ (tau - C), leaving H's factor in data.L
  forwardDynamicsCrb(m, d, q, qd, tau, fext);
  if (cd.nc == 0) return d.qdd;
  evaluate(m, d, cd, q, qd, true);
  schur(m, d, cd);
  // (G H^-1 G') lambda = g - 2 alpha phidot - beta^2 phi - G qdd0
  for (int i = 0; i < cd.nc; ++i)
    cd.rhs(i) = cd.g(i) - 2 * gains.alpha * cd.phidot(i) - gains.beta * gains.beta * cd.phi(i) -
                cd.G.row(i).dot(d.qdd);
  cd.rank = factorPivoted(cd.A, cd.perm, cd.nc);
  solvePivoted(cd.A, cd.perm, cd.nc, cd.rank, cd.rhs, cd.lambda, cd.work);
  // qdd = qdd0 + H^-1 G' lambda
  for (int k = 0; k < cd.nc; ++k) d.qdd += cd.lambda(k) * cd.Y.col(k);
  return d.qdd;
}

double closeConstraintsAfterStep(const Model& m, Data& d, ConstraintData& cd,
                                 Eigen::Ref<Eigen::VectorXd> q1, Eigen::Ref<Eigen::VectorXd> qd1,
                                 double h, double tolerance, int maxIterations) {
  detail::checkSize("closeConstraintsAfterStep", "q1", q1.size(), m.nq());
  detail::checkSize("closeConstraintsAfterStep", "qd1", qd1.size(), m.nv());
  if (!(h > 0)) throw std::invalid_argument("closeConstraintsAfterStep: h must be > 0");
  if (cd.nc == 0) return 0.0;
  // phi(q1 + h^2 Y dl) = 0 with the Jacobian G(q1) Y approximated by the factorised G(q) Y
  double err = 0.0;
  for (int it = 0;; ++it) {
    evaluate(m, d, cd, q1, qd1, false);
    err = cd.phi.cwiseAbs().maxCoeff();
    if (err <= tolerance || it >= maxIterations || !std::isfinite(err)) break;
    solvePivoted(cd.A, cd.perm, cd.nc, cd.rank, cd.phi, cd.rhs, cd.work);
    if (!m.hasQuaternions) {
      for (int k = 0; k < cd.nc; ++k) {
        q1 -= cd.rhs(k) * cd.Y.col(k);
        qd1 -= (cd.rhs(k) / h) * cd.Y.col(k);
      }
    } else {
      // the correction is a velocity-space vector: move q1 along it on the configuration space
      cd.dq.setZero();
      for (int k = 0; k < cd.nc; ++k) cd.dq -= cd.rhs(k) * cd.Y.col(k);
      integrateConfiguration(m, q1, cd.dq, 1.0, q1);
      qd1 += cd.dq / h;
    }
  }
  return err;
}

void constrainedInverseColumns(const Model& m, Data& d, ConstraintData& cd, const VecRef& q,
                               Eigen::Ref<Eigen::MatrixXd> X) {
  detail::checkSize("constrainedInverseColumns", "q", q.size(), m.nq());
  detail::checkSize("constrainedInverseColumns", "X rows", X.rows(), m.nv());
  if (cd.nc == 0) return;
  cd.dq.setZero();  // G does not depend on the velocities
  evaluate(m, d, cd, q, cd.dq, false);
  schur(m, d, cd);
  const int rank = factorPivoted(cd.A, cd.perm, cd.nc);
  for (Eigen::Index c = 0; c < X.cols(); ++c) {
    for (int i = 0; i < cd.nc; ++i) cd.phidot(i) = cd.G.row(i).dot(X.col(c));
    solvePivoted(cd.A, cd.perm, cd.nc, rank, cd.phidot, cd.rhs, cd.work);
    for (int k = 0; k < cd.nc; ++k) X.col(c) -= cd.rhs(k) * cd.Y.col(k);
  }
}

double projectConstraints(const Model& m, Data& d, ConstraintData& cd,
                          Eigen::Ref<Eigen::VectorXd> q, Eigen::Ref<Eigen::VectorXd> qd,
                          double tolerance, int maxIterations, const std::vector<int>* pinned) {
  detail::checkSize("projectConstraints", "q", q.size(), m.nq());
  detail::checkSize("projectConstraints", "qd", qd.size(), m.nv());
  if (cd.nc == 0) return 0.0;
  // positions: Gauss-Newton on phi(q) = 0 with the least-norm step
  double err = 0.0;
  for (int it = 0;; ++it) {
    evaluate(m, d, cd, q, qd, false);
    err = cd.phi.cwiseAbs().maxCoeff();
    if (err <= tolerance || it >= maxIterations || !std::isfinite(err)) break;
    if (pinned)
      for (int v : *pinned) cd.G.col(v).setZero();
    for (int i = 0; i < cd.nc; ++i)
      for (int k = 0; k <= i; ++k) cd.A(i, k) = cd.A(k, i) = cd.G.row(i).dot(cd.G.row(k));
    const int rank = factorPivoted(cd.A, cd.perm, cd.nc);
    solvePivoted(cd.A, cd.perm, cd.nc, rank, cd.phi, cd.rhs, cd.work);
    if (!m.hasQuaternions) {
      for (int k = 0; k < cd.nc; ++k) q -= cd.rhs(k) * cd.G.row(k).transpose();
    } else {
      cd.dq.setZero();
      for (int k = 0; k < cd.nc; ++k) cd.dq -= cd.rhs(k) * cd.G.row(k).transpose();
      integrateConfiguration(m, q, cd.dq, 1.0, q);
    }
  }
  // velocities: the least change in the kinetic-energy metric that gives G qd = 0
  crba(m, d, q);
  factorizeMassMatrix(m, d);
  schur(m, d, cd);
  for (int i = 0; i < cd.nc; ++i) cd.phidot(i) = cd.G.row(i).dot(qd);
  const int rank = factorPivoted(cd.A, cd.perm, cd.nc);
  solvePivoted(cd.A, cd.perm, cd.nc, rank, cd.phidot, cd.rhs, cd.work);
  for (int k = 0; k < cd.nc; ++k) qd -= cd.rhs(k) * cd.Y.col(k);
  return err;
}

}  // namespace art
