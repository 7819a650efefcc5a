// The solvers of MuJoCo's constraint model (soft_constraints.h): Newton's method with an exact
// line search (MuJoCo's default), nonlinear conjugate gradients preconditioned by H^-1, both
// on the primal cost, and projected Gauss-Seidel on the dual; and the constrained forward
// dynamics that calls them. The cost along a search direction is convex and piecewise
// quadratic, so the line search finds its minimum exactly: it walks the rows' kinks from 0 in
// order to the piece where the piecewise-linear derivative turns positive, then solves that piece.
// With elliptic cones (soft_cone.cpp) the cost along a line is convex and continuously
// differentiable but not piecewise quadratic: the search then brackets the zero of its
// derivative by Newton's method, safeguarded by bisection, to the derivative's round-off.
#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/Eigenvalues>

#include "articulate/dynamics/soft_constraints.h"
#include "detail.h"

namespace art {

namespace {

using Kink = SoftConstraintData::Kink;

bool isOneSided(SoftRowType t) {
  return t == SoftRowType::LimitJoint || t == SoftRowType::LimitTendon || t == SoftRowType::ContactFrictionless ||
         t == SoftRowType::ContactPyramidal;
}
bool isContact(SoftRowType t) {
  return t == SoftRowType::ContactFrictionless || t == SoftRowType::ContactPyramidal || t == SoftRowType::ContactElliptic;
}
bool isFriction(SoftRowType t) { return t == SoftRowType::FrictionDof || t == SoftRowType::FrictionTendon; }

// the rows of an elliptic contact's block from its first row i (1 for any other row)
int blockRows(const SoftConstraintData& s, int i) {
  if (s.type[static_cast<std::size_t>(i)] != SoftRowType::ContactElliptic) return 1;
  return s.contacts[static_cast<std::size_t>(s.id[static_cast<std::size_t>(i)])].dim;
}

// s_i'(x) and s_i''(x) of row i at jar x
void rowDerivatives(const SoftConstraintData& s, int i, double x, double& d1, double& d2) {
  const SoftRowType t = s.type[static_cast<std::size_t>(i)];
  const double D = s.D(i), R = s.R(i), f = s.frictionloss(i);
  if (isFriction(t)) {
    if (x <= -R * f) { d1 = -f; d2 = 0; return; }
    if (x >= R * f) { d1 = f; d2 = 0; return; }
  } else if (isOneSided(t) && x >= 0) {
    d1 = 0;
    d2 = 0;
    return;
  }
  d1 = D * x;
  d2 = D;
}

// s_i(x0) - s_i(x1) for row i, without the cancellation of two large costs where both lie in
// one zone
double rowDecrease(const SoftConstraintData& s, int i, double x0, double x1) {
  const SoftRowType t = s.type[static_cast<std::size_t>(i)];
  const double D = s.D(i), R = s.R(i), f = s.frictionloss(i);
  const auto zone = [&](double x) {
    if (isFriction(t)) return x <= -R * f ? -1 : x >= R * f ? 1 : 0;
    return isOneSided(t) && x >= 0 ? 2 : 0;
  };
  const auto cost = [&](double x) {
    switch (zone(x)) {
      case -1: return -0.5 * R * f * f - f * x;
      case 1: return -0.5 * R * f * f + f * x;
      case 2: return 0.0;
      default: return 0.5 * D * x * x;
    }
  };
  const int z = zone(x0);
  if (z != zone(x1)) return cost(x0) - cost(x1);
  switch (z) {
    case -1: return f * (x1 - x0);
    case 1: return f * (x0 - x1);
    case 2: return 0.0;
    default: return 0.5 * D * (x0 - x1) * (x0 + x1);
  }
}

// MuJoCo's mj_constraintUpdate at jar = s.jar: forces, states and the constraint cost
double updateRows(SoftConstraintData& s) {
  double cost = 0;
  for (int i = 0; i < s.nefc; ++i) {
    const SoftRowType t = s.type[static_cast<std::size_t>(i)];
    if (t == SoftRowType::ContactElliptic) {
      cost += detail::coneUpdate(s, i, nullptr);
      i += blockRows(s, i) - 1;
      continue;
    }
    const double x = s.jar(i), D = s.D(i), R = s.R(i), f = s.frictionloss(i);
    SoftRowState& st = s.state[static_cast<std::size_t>(i)];
    if (isFriction(t) && x <= -R * f) {
      cost += -0.5 * R * f * f - f * x;
      s.force(i) = f;
      st = SoftRowState::LinearNeg;
    } else if (isFriction(t) && x >= R * f) {
      cost += -0.5 * R * f * f + f * x;
      s.force(i) = -f;
      st = SoftRowState::LinearPos;
    } else if (isOneSided(t) && x >= 0) {
      s.force(i) = 0;
      st = SoftRowState::Satisfied;
    } else {
      cost += 0.5 * D * x * x;
      s.force(i) = -D * x;
      st = SoftRowState::Quadratic;
    }
  }
  return cost;
}

struct Primal {
  const Model& m;
  const Data& d;
  SoftConstraintData& s;
  double scale;  // MuJoCo's rescale: 1 / (meaninertia max(1, nv))

  // y = H x, through the tree's sparsity where that is the smaller product
  void multiplyH(const Eigen::VectorXd& x, Eigen::VectorXd& y) const {
    if (s.sparseH) detail::multiplyMassMatrix(m, d.H, x, y);
    else y.noalias() = d.H * x;
  }

  // jar, forces, cost and gradient at s.qacc; returns the total cost
  double evaluate() {
    const int n = s.nefc;
    detail::softRowsTimes(s, 0, n, s.qacc, s.jar);
    s.jar.head(n) -= s.aref.head(n);
    s.work = s.qacc - s.qacc0;
    multiplyH(s.work, s.Ma);
    return costAndGradient();
  }

  // the same after the step s.qacc += a s.dir that the last line search chose, from its J dir
  // and H dir (MuJoCo's update of jar and Ma), not from J qacc and H qacc again: rounding
  // accumulates over the steps, which Newton's few keep small
  double evaluateStep(double a) {
    s.qacc += a * s.dir;
    const int n = s.nefc;
    s.jar.head(n) += a * s.Jdir.head(n);
    s.Ma += a * s.Mdir;
    s.work = s.qacc - s.qacc0;
    return costAndGradient();
  }

  // the forces, cost and gradient from jar and Ma = H (qacc - qacc0) (in s.work)
  double costAndGradient() {
    s.cost = updateRows(s);
    const double gauss = 0.5 * s.work.dot(s.Ma);
    detail::softRowsTransposeTimes(s, s.force, s.qfrcConstraint);
    s.grad = s.Ma - s.qfrcConstraint;
    return gauss + s.cost;
  }

  // the derivative and second derivative of the cost along s.dir at step a
  void along(double a, double dHd, double dHe, double& d1, double& d2) const {
    d1 = a * dHd + dHe;
    d2 = dHd;
    for (int i = 0; i < s.nefc; ++i) {
      if (s.type[static_cast<std::size_t>(i)] == SoftRowType::ContactElliptic) {
        double r1, r2;
        detail::coneAlong(s, i, a, r1, r2);
        d1 += r1;
        d2 += r2;
        i += blockRows(s, i) - 1;
        continue;
      }
      const double jd = s.Jdir(i);
      if (jd == 0) continue;
      double r1, r2;
      rowDerivatives(s, i, s.jar(i) + a * jd, r1, r2);
      d1 += jd * r1;
      d2 += jd * jd * r2;
    }
  }

  // the exact minimiser of the cost along s.dir from s.qacc (s.jar current)
  double lineSearch() {
    const int n = s.nefc;
    detail::softRowsTimes(s, 0, n, s.dir, s.Jdir);
    multiplyH(s.dir, s.Mdir);
    const double dHd = s.dir.dot(s.Mdir);
    decrease = 0;
    if (!(dHd > 0)) return 0.0;
    const double dHe = s.Mdir.dot(s.work);  // s.work = qacc - qacc0, from the last evaluation
    bool cones = false;
    for (int i = 0; i < n && !cones; ++i) cones = s.type[static_cast<std::size_t>(i)] == SoftRowType::ContactElliptic;
    const double a = cones ? smoothSearch(dHd, dHe) : piecewiseSearch(dHd, dHe);
    // the cost's decrease from 0 to a, term by term
    decrease = -(a * dHe + 0.5 * a * a * dHd);
    for (int i = 0; i < n; ++i) {
      if (s.type[static_cast<std::size_t>(i)] == SoftRowType::ContactElliptic) {
        double r1, r2;
        decrease += detail::coneAlong(s, i, 0, r1, r2) - detail::coneAlong(s, i, a, r1, r2);
        i += blockRows(s, i) - 1;
      } else if (s.Jdir(i) != 0) {
        decrease += rowDecrease(s, i, s.jar(i), s.jar(i) + a * s.Jdir(i));
      }
    }
    return a;
  }

  // piecewise quadratic: the rows' kinks ahead (where a row enters or leaves its quadratic zone,
  // changing the curvature), in order; the derivative is linear between them, so walking them
  // from 0 finds the piece where it turns positive, which an exact evaluation inside then solves
  double piecewiseSearch(double dHd, double dHe) const {
    std::vector<Kink>& kinks = s.kinks;
    double d1, d2;
    along(0, dHd, dHe, d1, d2);
    if (!(d1 != 0)) return 0.0;  // the minimum along s.dir (or no number)
    // t = sign a >= 0 runs downhill (a descent direction, the rule, has sign 1)
    const double sign = d1 < 0 ? 1.0 : -1.0;
    kinks.clear();
    for (int i = 0; i < s.nefc; ++i) {
      const double jd = sign * s.Jdir(i);
      if (jd == 0) continue;
      const SoftRowType t = s.type[static_cast<std::size_t>(i)];
      const double q = jd * jd * s.D(i), x = s.jar(i);
      // a kink at 0 counts where a row enters its quadratic zone there: along() takes a row on
      // its zone's edge as outside
      const auto add = [&](double at, double change) {
        if (at > 0 || (at == 0 && change > 0)) kinks.push_back({at, change});
      };
      if (isOneSided(t)) add(-x / jd, jd > 0 ? -q : q);  // quadratic below 0, satisfied above
      if (isFriction(t)) {  // quadratic inside (-w, w), linear outside
        const double w = s.R(i) * s.frictionloss(i);
        add((-w - x) / jd, jd > 0 ? q : -q);
        add((w - x) / jd, jd > 0 ? -q : q);
      }
    }
    // in order from the nearest, taken from a heap: the walk often stops after a few of many
    const auto later = [](const Kink& a, const Kink& b) { return a.at > b.at; };
    std::make_heap(kinks.begin(), kinks.end(), later);
    double lo = 0, slope = sign * d1, curvature = d2;  // at t = lo: the derivative, its slope
    double hi = std::numeric_limits<double>::infinity();
    for (auto end = kinks.end(); end != kinks.begin(); --end) {
      const Kink& next = kinks.front();
      const double there = slope + curvature * (next.at - lo);
      if (there >= 0) {
        hi = next.at;
        break;
      }
      lo = next.at;
      slope = there;
      curvature += next.change;
      std::pop_heap(kinks.begin(), end, later);
    }
    // the piece [lo, hi]: evaluated inside it afresh (the walk's sums carry rounding), its line
    // solved, and the answer kept in the piece
    const double inside = std::isfinite(hi) ? 0.5 * (lo + hi) : lo + 1;
    along(sign * inside, dHd, dHe, d1, d2);
    return sign * std::clamp(inside - sign * d1 / d2, lo, hi);
  }

  // convex and continuously differentiable (elliptic cones): Newton's method on the derivative
  // from 0, kept inside the bracket [lo, hi] of its sign change and bisecting where a step
  // leaves it, until the derivative is round-off or the bracket is a few ulps wide
  double smoothSearch(double dHd, double dHe) const {
    double d1, d2;
    along(0, dHd, dHe, d1, d2);
    if (!(d1 < 0)) return 0.0;  // not a descent direction (or converged)
    const double floor = 1e-14 * std::abs(d1);
    double lo = 0, hi = std::numeric_limits<double>::infinity(), a = 0;
    for (int it = 0; it < 100; ++it) {
      double next = a - d1 / std::max(d2, dHd);
      if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
      a = next;
      along(a, dHd, dHe, d1, d2);
      if (std::abs(d1) <= floor) break;
      if (d1 < 0) lo = a;
      else hi = a;
      if (hi - lo <= 4 * std::numeric_limits<double>::epsilon() * std::max(std::abs(lo), std::abs(hi))) break;
    }
    return a;
  }
  double decrease = 0;  // the last line search's decrease of the cost
};

// Newton's Hessian H + J' D J (the quadratic rows and the sliding cones' blocks) in s.Hs, the
// lower triangle, and its Cholesky factor. With H's tree sparsity (s.sparseH) the factor is
// L' L, L lower triangular, eliminating the velocity variables from the last as
// factorizeMassMatrix does for H: the rows of L hold H's pattern, each row's couplings (a
// contact's columns) and the fill-in the elimination makes, listed per row in s.hCols
// (s.hNnz[k] columns below the diagonal, unordered) and marked in s.hMark. A pile of free bodies
// is mostly zeros, which the dense factor would multiply through. Without it, Eigen's LLT.
class Hessian {
 public:
  Hessian(const Model& m, const Data& d, SoftConstraintData& s) : s_(s), nv_(m.nv()) {
    if (!s.sparseH) {
      s.Hs = d.H;
      return;
    }
    // clear the last pattern's entries (and marks), then take H's
    double* H = s.Hs.data();
    for (int k = 0; k < nv_; ++k) {
      H[at(k, k)] = 0;
      for (int t = 0; t < s.hNnz[static_cast<std::size_t>(k)]; ++t) {
        const int j = s.hCols[static_cast<std::size_t>(k * nv_ + t)];
        H[at(k, j)] = 0;
        s.hMark[static_cast<std::size_t>(k * nv_ + j)] = 0;
      }
      s.hNnz[static_cast<std::size_t>(k)] = 0;
    }
    for (int k = 0; k < nv_; ++k) {
      H[at(k, k)] = d.H(k, k);
      for (int j = m.dofParent[static_cast<std::size_t>(k)]; j >= 0; j = m.dofParent[static_cast<std::size_t>(j)]) {
        mark(k, j);
        H[at(k, j)] = d.H(k, j);
      }
    }
  }

  // Hs += W W' in the lower triangle: W (n x k, row t at W + t kMaxBlock) the columns nz[0, n)
  // (ascending) of k rows that share them, each product of two rows added where it belongs
  static constexpr int kMaxBlock = 10;  // a contact's most rows: the pyramid's 10 of condim 6
  void addBlock(const double* W, int n, int k, const int* nz) {
    double* H = s_.Hs.data();
    for (int t = 0; t < n; ++t) {
      const int j = nz[t];
      const double* wt = W + t * kMaxBlock;
      for (int u = t; u < n; ++u) {
        const int i = nz[u];
        const double* wu = W + u * kMaxBlock;
        double c = 0;
        for (int q = 0; q < k; ++q) c += wu[q] * wt[q];
        if (s_.sparseH && u > t) mark(i, j);
        H[at(i, j)] += c;
      }
    }
  }

  // factorises and solves Hs x = b in place
  void solve(Eigen::VectorXd& b) {
    if (!s_.sparseH) {
      s_.llt.compute(s_.Hs);  // the lower triangle
      s_.llt.solveInPlace(b);
      return;
    }
    factor();
    double* L = s_.Hs.data();
    for (int k = nv_ - 1; k >= 0; --k) {  // L' y = b, from the last
      b(k) /= L[at(k, k)];
      const int* cols = s_.hCols.data() + k * nv_;
      for (int t = 0; t < s_.hNnz[static_cast<std::size_t>(k)]; ++t) b(cols[t]) -= L[at(k, cols[t])] * b(k);
    }
    for (int k = 0; k < nv_; ++k) {  // L x = y, from the first
      const int* cols = s_.hCols.data() + k * nv_;
      for (int t = 0; t < s_.hNnz[static_cast<std::size_t>(k)]; ++t) b(k) -= L[at(k, cols[t])] * b(cols[t]);
      b(k) /= L[at(k, k)];
    }
  }

 private:
  std::size_t at(int i, int j) const { return static_cast<std::size_t>(j) * static_cast<std::size_t>(nv_) + static_cast<std::size_t>(i); }
  // (i, j), j < i, into row i's pattern
  void mark(int i, int j) {
    char& seen = s_.hMark[static_cast<std::size_t>(i * nv_ + j)];
    if (seen) return;
    seen = 1;
    s_.hCols[static_cast<std::size_t>(i * nv_ + s_.hNnz[static_cast<std::size_t>(i)]++)] = j;
  }
  void factor() {
    double* H = s_.Hs.data();
    for (int k = nv_ - 1; k >= 0; --k) {
      // a pivot at round-off (a positive definite H makes none) is floored, as MuJoCo's
      const double lkk = std::sqrt(std::max(H[at(k, k)], kSoftMinValue));
      H[at(k, k)] = lkk;
      int* cols = s_.hCols.data() + k * nv_;
      const int n = s_.hNnz[static_cast<std::size_t>(k)];
      std::sort(cols, cols + n);  // the fill came unordered: (i, j) with j <= i below
      for (int t = 0; t < n; ++t) H[at(k, cols[t])] /= lkk;
      for (int t = 0; t < n; ++t) {
        const int i = cols[t];
        const double lki = H[at(k, i)];
        H[at(i, i)] -= lki * lki;
        for (int u = 0; u < t; ++u) {
          const int j = cols[u];
          mark(i, j);
          H[at(i, j)] -= lki * H[at(k, j)];
        }
      }
    }
  }
  SoftConstraintData& s_;
  int nv_;
};

void newtonDirection(const Model& m, const Data& d, SoftConstraintData& s) {
  // H + J' D J over the quadratic rows, on each row's nonzero columns only (a contact's rows
  // are zero outside its bodies' chains): a contact's rows share their columns, and go in as one
  // block sqrt(D) J_c
  Hessian hessian(m, d, s);
  const Eigen::Index nv = s.J.cols();
  for (int i = 0; i < s.nefc;) {
    const int* nz = s.nzIndex.data() + i * nv;
    const int n = s.nnz[static_cast<std::size_t>(i)];
    // the rows [i, end) with row i's columns: a contact's, else row i alone
    int end = i + 1;
    if (isContact(s.type[static_cast<std::size_t>(i)]))
      while (end < s.nefc && s.type[static_cast<std::size_t>(end)] == s.type[static_cast<std::size_t>(i)] &&
             s.id[static_cast<std::size_t>(end)] == s.id[static_cast<std::size_t>(i)])
        ++end;
    double* W = s.hRows.data();  // (n x k) by rows of Hessian::kMaxBlock
    const auto w = [&](int t, int q) -> double& { return W[t * Hessian::kMaxBlock + q]; };
    int k = 0;
    if (s.state[static_cast<std::size_t>(i)] == SoftRowState::Cone) {
      // an elliptic contact sliding: its block's Hessian J_c' H_c J_c, as the columns
      // sqrt(lambda) J_c' v of H_c's eigenpairs (H_c is positive semidefinite, of rank dim - 1)
      Eigen::Matrix<double, 6, 6> Hc;
      detail::coneUpdate(s, i, &Hc);
      const Eigen::SelfAdjointEigenSolver<Eigen::Matrix<double, 6, 6>> eig(Hc);
      const double top = eig.eigenvalues().cwiseAbs().maxCoeff();
      for (int e = 0; e < 6; ++e) {
        const double lambda = eig.eigenvalues()(e);
        if (!(lambda > 1e-14 * top)) continue;
        const double sl = std::sqrt(lambda);
        for (int t = 0; t < n; ++t) {
          double v = 0;
          for (int j = i; j < end; ++j) v += eig.eigenvectors()(j - i, e) * s.nzValue[static_cast<std::size_t>(j * nv + t)];
          w(t, k) = sl * v;
        }
        ++k;
      }
    } else {
      for (int r = i; r < end; ++r) {
        if (s.state[static_cast<std::size_t>(r)] != SoftRowState::Quadratic) continue;
        const double* value = s.nzValue.data() + r * nv;
        const double sd = std::sqrt(s.D(r));
        for (int t = 0; t < n; ++t) w(t, k) = sd * value[t];
        ++k;
      }
    }
    if (k) hessian.addBlock(W, n, k, nz);
    i = end;
  }
  s.dir = -s.grad;
  hessian.solve(s.dir);
}

void primalSolve(const Model& m, const Data& d, SoftConstraintData& s, bool newton, int iterations,
                 double tolerance) {
  Primal p{m, d, s, 1.0 / (s.meanInertia * std::max(1, m.nv()))};
  // start at the better of qacc0 and the last solution
  s.qacc = s.qacc0;
  double cost = p.evaluate();
  if (s.warmValid) {
    s.qacc.swap(s.warm);
    const double warmCost = p.evaluate();
    if (warmCost < cost) {
      cost = warmCost;
    } else {
      s.qacc = s.qacc0;
      cost = p.evaluate();
    }
  }
  s.iterations = 0;
  s.improvement = 0;
  s.gradient = p.scale * s.grad.norm();
  if (s.nefc == 0) return;
  if (!newton) {
    s.mgrad = s.grad;
    solveMassMatrix(m, d, s.mgrad);
    s.dir = -s.mgrad;
  }
  bool restarted = false;  // conjugate gradients' last direction was steepest descent, after a failed one
  for (int it = 0; it < iterations; ++it) {
    if (newton) newtonDirection(m, d, s);
    const double a = p.lineSearch();
    if (a == 0.0 && it > 0) break;
    // a step below rounding of qacc: converged as far as doubles resolve (a tolerance of 0
    // would otherwise run every iteration on rounding noise)
    const bool negligible = std::abs(a) * s.dir.norm() <= 1e-15 * (1 + s.qacc.norm());
    if (!newton) {
      s.prevGrad = s.grad;
      s.prevMgrad = s.mgrad;
    }
    // Newton's few steps update jar and H qacc along the step, as MuJoCo does; conjugate
    // gradients' many would carry the rounding of each into the next (CG then stopped 1.2e-8
    // off Newton's minimiser, against 6e-10 evaluated afresh)
    if (newton) {
      cost = p.evaluateStep(a);
    } else {
      s.qacc += a * s.dir;
      cost = p.evaluate();
    }
    if (p.decrease < 0) {
      // a direction that rounding alone made (its slope is below what the cost resolves): the
      // exact search along it can step the wrong way; keep the better point, and stop, unless
      // conjugate gradients can start over from steepest descent there (a direction whose
      // rounding they had accumulated from the earlier ones)
      s.qacc -= a * s.dir;
      cost = p.evaluate();
      if (newton || restarted) break;
      restarted = true;
      s.mgrad = s.grad;
      solveMassMatrix(m, d, s.mgrad);
      s.dir = -s.mgrad;
      continue;
    }
    restarted = false;
    s.iterations = it + 1;
    s.improvement = p.scale * p.decrease;
    s.gradient = p.scale * s.grad.norm();
    if (s.improvement < tolerance || s.gradient < tolerance || negligible) break;
    if (!newton) {  // Polak-Ribiere, preconditioned by H^-1
      s.mgrad = s.grad;
      solveMassMatrix(m, d, s.mgrad);
      const double beta =
          std::max(0.0, s.grad.dot(s.mgrad - s.prevMgrad) / std::max(kSoftMinValue, s.prevGrad.dot(s.prevMgrad)));
      s.dir = -s.mgrad + beta * s.dir;
    }
  }
}

// projected Gauss-Seidel on the dual: min 1/2 f' AR f + f' (J qacc0 - aref) over the boxes
void pgsSolve(const Model& m, const Data& d, SoftConstraintData& s, int iterations, double tolerance) {
  const int n = s.nefc;
  s.iterations = 0;
  s.improvement = 0;
  s.qacc = s.qacc0;
  if (n == 0) {
    s.qfrcConstraint.setZero();
    s.gradient = 0;
    s.cost = 0;
    return;
  }
  for (int i = 0; i < n; ++i) {
    s.work = s.J.row(i).transpose();
    solveMassMatrix(m, d, s.work);
    s.MinvJt.col(i) = s.work;
  }
  auto AR = s.AR.topLeftCorner(n, n);
  AR.noalias() = s.J.topRows(n) * s.MinvJt.leftCols(n);
  AR.diagonal() += s.R.head(n);
  s.r0.head(n).noalias() = s.J.topRows(n) * s.qacc0;
  s.r0.head(n) -= s.aref.head(n);
  auto f = s.force.head(n);
  f.setZero();
  const double scale = 1.0 / (s.meanInertia * std::max(1, m.nv()));
  for (int it = 0; it < iterations; ++it) {
    // each coordinate step lowers the dual cost by -(g delta + 1/2 AR_ii delta^2): summed, the
    // sweep's improvement without the cancellation of two large costs subtracted
    double improvement = 0;
    for (int i = 0; i < n; ++i) {
      if (s.type[static_cast<std::size_t>(i)] == SoftRowType::ContactElliptic) {
        const int dim = blockRows(s, i);
        Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 6, 1> res(dim);
        res.noalias() = AR.middleRows(i, dim) * f;
        res += s.r0.segment(i, dim);
        improvement += detail::conePgsStep(s, i, AR.block(i, i, dim, dim), res, f.segment(i, dim));
        i += dim - 1;
        continue;
      }
      const double g = AR.row(i).dot(f) + s.r0(i);
      double fi = f(i) - g / AR(i, i);
      const SoftRowType t = s.type[static_cast<std::size_t>(i)];
      if (isOneSided(t)) fi = std::max(0.0, fi);
      if (isFriction(t)) fi = std::clamp(fi, -s.frictionloss(i), s.frictionloss(i));
      const double delta = fi - f(i);
      improvement -= g * delta + 0.5 * AR(i, i) * delta * delta;
      f(i) = fi;
    }
    s.iterations = it + 1;
    s.improvement = scale * improvement;
    if (s.improvement < tolerance) break;
  }
  s.qacc.noalias() = s.qacc0 + s.MinvJt.leftCols(n) * f;
  s.qfrcConstraint.noalias() = s.J.topRows(n).transpose() * f;
  // the states and the primal cost at the solution, for reports
  s.jar.head(n).noalias() = s.J.topRows(n) * s.qacc;
  s.jar.head(n) -= s.aref.head(n);
  s.Jdir.head(n) = f;  // updateRows writes the primal forces; PGS's are the dual's
  s.cost = updateRows(s);
  f = s.Jdir.head(n);
  s.work = s.qacc - s.qacc0;
  s.grad.noalias() = d.H * s.work;
  s.grad -= s.qfrcConstraint;
  s.gradient = scale * s.grad.norm();
}

}  // namespace

void solveSoftConstraints(const Model& m, const Data& d, SoftConstraintData& s, PhysicsSpec::Solver solver,
                          int iterations, double tolerance) {
  if (solver == PhysicsSpec::Solver::PGS) pgsSolve(m, d, s, iterations, tolerance);
  else primalSolve(m, d, s, solver == PhysicsSpec::Solver::Newton, iterations, tolerance);
  s.warm = s.qacc;
  s.warmValid = true;
}

const Eigen::VectorXd& softForwardDynamics(const Model& m, Data& d, SoftConstraintData& s, const VecRef& q,
                                           const VecRef& qd, const VecRef& tau, const ExternalForces* fext) {
  detail::checkSize("softForwardDynamics", "tau", tau.size(), m.nv());
  detail::checkSize("softForwardDynamics", "qd", qd.size(), m.nv());
  crba(m, d, q);  // also the kinematics (X0) the rows read
  detail::softRowsAtKinematics(m, d, s, q, qd);
  biasForces(m, d, q, qd, fext);
  factorizeMassMatrix(m, d);
  s.qacc0 = tau - d.C;
  solveMassMatrix(m, d, s.qacc0);
  solveSoftConstraints(m, d, s, m.physics.solver, m.physics.iterations, m.physics.tolerance);
  d.qdd = s.qacc;
  return d.qdd;
}

}  // namespace art
