// Elliptic friction cones of MuJoCo's constraint model (soft_constraints.h): an elliptic
// contact's rows form one block whose cost, forces and Hessian depend on all of them
// (MuJoCo 2.2.2's mj_constraintUpdate), its terms along a line search's direction, and its
// step of projected Gauss-Seidel on the dual.
//
// In the scaled space U = (mu jar_n, mu_1 jar_1, ...), N = U_0 and T = |U_1..|, the block's cost
// is 0 in the top zone N >= mu T (the dual cone: the contact separates, or sticks with room to
// spare), 1/2 sum D_j jar_j^2 in the bottom zone mu N + T <= 0 (every row quadratic), and
// 1/2 Dm (N - mu T)^2 with Dm = D_0 / (mu^2 (1 + mu^2)) between them, where the force lies on the
// cone's surface f_n = |(f_k / mu_k)|: the contact slides.
#include <algorithm>
#include <cmath>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>

#include "articulate/dynamics/soft_constraints.h"
#include "detail.h"

namespace art {

namespace {

enum class Zone { Top, Bottom, Middle };

// the zone of U (mu the cone's coefficient), MuJoCo's tests in its order
Zone zoneOf(double N, double T, double mu) {
  if (N >= mu * T || (T <= 0 && N >= 0)) return Zone::Top;
  if (mu * N + T <= 0 || (T <= 0 && N < 0)) return Zone::Bottom;
  return Zone::Middle;
}

// Dm: the middle zone's stiffness (mu of a friction of 0 gives the top zone only)
double middleStiffness(double D0, double mu) { return D0 / std::max(kSoftMinValue, mu * mu * (1 + mu * mu)); }

// a block's entries (dim <= 6) and its friction's (dim - 1 <= 5) in fixed storage, the unused
// entries zero
using Block = Eigen::Matrix<double, 6, 1>;
using Friction = Eigen::Matrix<double, 5, 1>;
using FrictionBlock = Eigen::Matrix<double, 5, 5>;

// the block's friction coefficients (dim - 1 entries, then zeros)
Friction frictionOf(const Contact& c) {
  Friction mu = Friction::Zero();
  for (int k = 0; k + 1 < c.dim; ++k) mu(k) = c.friction[static_cast<std::size_t>(k)];
  return mu;
}

// min 1/2 x' A x + x' b over the ellipse |(x_k / d_k)| <= r (A positive definite on its first
// n entries, the rest unused): the unconstrained minimum when it lies inside, else the point of
// the boundary where the gradient is normal to it, by Newton's method on the secular equation
// 1 / |y(la)| = 1 / r (y = x / d, (A_d + la) y = -b_d), which is nearly linear in la
Friction ellipseMinimum(const FrictionBlock& A, const Friction& b, const Friction& d, double r, int n) {
  FrictionBlock Ad = FrictionBlock::Identity();  // the unused entries decouple, with y = 0
  Ad.topLeftCorner(n, n) = (d.asDiagonal() * A * d.asDiagonal()).topLeftCorner(n, n);
  Friction bd = Friction::Zero();
  bd.head(n) = d.cwiseProduct(b).head(n);
  Eigen::LLT<FrictionBlock> llt;
  Friction y, z;
  double la = 0;
  for (int it = 0; it < 60; ++it) {
    FrictionBlock M = Ad;
    M.diagonal().head(n).array() += la;
    llt.compute(M);
    if (llt.info() != Eigen::Success) return Friction::Zero();  // a friction of 0: no force
    y = -llt.solve(bd);
    const double norm = y.norm();
    if (it == 0 && norm <= r) return d.cwiseProduct(y);  // inside: unconstrained
    if (std::abs(norm - r) <= 1e-14 * r) break;
    z = llt.matrixL().solve(y);  // |z|^2 = y' M^-1 y = -(d|y|^2 / dla) / 2
    la += (norm * norm / std::max(kSoftMinValue, z.squaredNorm())) * (norm - r) / r;
    la = std::max(la, 0.0);
  }
  const double norm = y.norm();
  if (norm > kSoftMinValue) y *= r / norm;  // on the boundary to the last bit
  return d.cwiseProduct(y);
}

}  // namespace

double detail::coneUpdate(SoftConstraintData& s, int first, Eigen::Matrix<double, 6, 6>* hessian) {
  const Contact& c = s.contacts[static_cast<std::size_t>(s.id[static_cast<std::size_t>(first)])];
  const int dim = c.dim;
  const double mu = c.mu;
  Block U = Block::Zero();
  U(0) = mu * s.jar(first);
  for (int j = 1; j < dim; ++j) U(j) = c.friction[static_cast<std::size_t>(j - 1)] * s.jar(first + j);
  const double N = U(0), T = U.tail<5>().norm();
  const auto state = [&](SoftRowState st) {
    for (int j = 0; j < dim; ++j) s.state[static_cast<std::size_t>(first + j)] = st;
  };
  switch (zoneOf(N, T, mu)) {
    case Zone::Top:
      s.force.segment(first, dim).setZero();
      state(SoftRowState::Satisfied);
      return 0.0;
    case Zone::Bottom: {
      double cost = 0;
      for (int j = 0; j < dim; ++j) {
        const double x = s.jar(first + j);
        s.force(first + j) = -s.D(first + j) * x;
        cost += 0.5 * s.D(first + j) * x * x;
      }
      state(SoftRowState::Quadratic);
      return cost;
    }
    case Zone::Middle: break;
  }
  const double Dm = middleStiffness(s.D(first), mu), h = N - mu * T;
  // f = -ds/djar = -(dU/djar) ds/dU, dU/djar = diag(mu, mu_k)
  s.force(first) = -Dm * h * mu;
  for (int j = 1; j < dim; ++j)
    s.force(first + j) = -s.force(first) / T * U(j) * c.friction[static_cast<std::size_t>(j - 1)];
  state(SoftRowState::Cone);
  if (hessian) {
    // in U: [1, -mu U_t' / T; -mu U_t / T, mu N / T^3 U_t U_t' + (mu^2 - mu N / T) I], then
    // scaled on both sides by dU/djar and by Dm
    Eigen::Matrix<double, 6, 6>& H = *hessian;
    H.setZero();
    H(0, 0) = 1;
    for (int j = 1; j < dim; ++j) H(0, j) = H(j, 0) = -mu / T * U(j);
    for (int j = 1; j < dim; ++j) {
      for (int k = 1; k < dim; ++k) H(j, k) = mu * N / (T * T * T) * U(j) * U(k);
      H(j, j) += mu * mu - mu * N / T;
    }
    for (int j = 0; j < dim; ++j) {
      const double sj = j == 0 ? mu : c.friction[static_cast<std::size_t>(j - 1)];
      H.row(j) *= sj;
      H.col(j) *= sj;
    }
    H.topLeftCorner(dim, dim) *= Dm;
  }
  return 0.5 * Dm * h * h;
}

double detail::coneAlong(const SoftConstraintData& s, int first, double a, double& d1, double& d2) {
  const Contact& c = s.contacts[static_cast<std::size_t>(s.id[static_cast<std::size_t>(first)])];
  const int dim = c.dim;
  const double mu = c.mu;
  Block U = Block::Zero(), V = Block::Zero();
  U(0) = mu * (s.jar(first) + a * s.Jdir(first));
  V(0) = mu * s.Jdir(first);
  for (int j = 1; j < dim; ++j) {
    const double m = c.friction[static_cast<std::size_t>(j - 1)];
    U(j) = m * (s.jar(first + j) + a * s.Jdir(first + j));
    V(j) = m * s.Jdir(first + j);
  }
  const double N = U(0), T = U.tail<5>().norm();
  switch (zoneOf(N, T, mu)) {
    case Zone::Top: d1 = d2 = 0; return 0.0;
    case Zone::Bottom: {
      double cost = 0;
      d1 = d2 = 0;
      for (int j = 0; j < dim; ++j) {
        const double x = s.jar(first + j) + a * s.Jdir(first + j), v = s.Jdir(first + j), D = s.D(first + j);
        cost += 0.5 * D * x * x;
        d1 += D * x * v;
        d2 += D * v * v;
      }
      return cost;
    }
    case Zone::Middle: break;
  }
  // h(a) = N - mu T along the line: h' = V_0 - mu T', h'' = -mu T'', T' = U_t.V_t / T,
  // T'' = (|V_t|^2 - T'^2) / T
  const double Dm = middleStiffness(s.D(first), mu), h = N - mu * T;
  const double dT = U.tail<5>().dot(V.tail<5>()) / T;
  const double ddT = std::max(0.0, V.tail<5>().squaredNorm() - dT * dT) / T;
  const double dh = V(0) - mu * dT;
  d1 = Dm * h * dh;
  d2 = Dm * (dh * dh - h * mu * ddT);
  return 0.5 * Dm * h * h;
}

double detail::conePgsStep(const SoftConstraintData& s, int first, const Eigen::Ref<const Eigen::MatrixXd>& A,
                           const Eigen::Ref<const Eigen::VectorXd>& res, Eigen::Ref<Eigen::VectorXd> f) {
  const Contact& c = s.contacts[static_cast<std::size_t>(s.id[static_cast<std::size_t>(first)])];
  const int dim = c.dim;
  Block old = Block::Zero(), x = Block::Zero();
  old.head(dim) = f;
  x.head(dim) = f;
  Eigen::Matrix<double, 6, 6> Ab = Eigen::Matrix<double, 6, 6>::Zero();
  Ab.topLeftCorner(dim, dim) = A;
  Block r = Block::Zero();
  r.head(dim) = res;
  if (x(0) < kSoftMinValue) {
    // at the cone's apex: 0 is the block's minimum when the gradient there, g = res - A f, lies
    // in the dual cone g_n >= |(mu_k g_k)|. Else a descent direction within the cone is the
    // projection of -g onto it, in the coordinates (f_n, f_k / mu_k) where it is the circular
    // cone; the exact step along it leaves the apex. (A step of the normal alone would stay
    // there where the friction it would bring is what lowers the cost.)
    const Friction mu = frictionOf(c);
    const Block g = r - Ab * old;
    Block w = Block::Zero();
    w(0) = -g(0);
    w.tail<5>() = -mu.cwiseProduct(g.tail<5>());
    const double t = w(0), norm = w.tail<5>().norm();
    Block dir = Block::Zero();
    if (norm <= t) dir = w;
    else if (norm > -t) dir << 0.5 * (t + norm), (0.5 * (t + norm) / norm) * w.tail<5>();
    dir.tail<5>() = mu.cwiseProduct(dir.tail<5>());  // back to forces
    const double curvature = dir.dot(Ab * dir);
    x.setZero();
    if (curvature > kSoftMinValue && dir(0) > 0) x = (-g.dot(dir) / curvature) * dir;
  } else {
    // along the ray through the force: the normal and the friction scale together
    const double denom = x.dot(Ab * x);
    if (denom >= kSoftMinValue) x *= 1 + std::max(-x.dot(r) / denom, -1.0);  // the normal stays >= 0
  }
  // the friction with the normal fixed: min 1/2 y' A_tt y + y' b over the ellipse, where b is
  // the residual's friction part moved to the new normal and from the old friction
  if (x(0) < kSoftMinValue) {
    x.tail<5>().setZero();
  } else {
    const FrictionBlock Att = Ab.bottomRightCorner<5, 5>();
    const Friction b = r.tail<5>() - Att * old.tail<5>() + Ab.block<5, 1>(1, 0) * (x(0) - old(0));
    x.tail<5>() = ellipseMinimum(Att, b, frictionOf(c), x(0), dim - 1);
  }
  f = x.head(dim);
  const Block delta = x - old;
  return -(delta.dot(r) + 0.5 * delta.dot(Ab * delta));
}

}  // namespace art
