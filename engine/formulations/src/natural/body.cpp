// Natural-coordinate bodies: the canonical map Y, the constant mass matrix and the intrinsic
// constraints of each kind (body.h has the table and the formulas).
#include "articulate/formulations/natural/body.h"

#include <cmath>
#include <stdexcept>

#include <Eigen/Cholesky>
#include <Eigen/Geometry>
#include <Eigen/LU>

namespace art::natural {

namespace {

struct KindInfo {
  BodyKind kind;
  const char* name;
  int d, k;
  bool twoPoints, bar;
};

constexpr KindInfo kKinds[] = {
    {BodyKind::Bar2D, "bar2d", 2, 2, false, true},
    {BodyKind::Bar2DTwoPoints, "bar2d_2p", 2, 2, true, true},
    {BodyKind::Rigid2D, "rigid2d", 2, 2, false, false},
    {BodyKind::Rigid2DTwoPoints, "rigid2d_2p", 2, 2, true, false},
    {BodyKind::Bar3D, "bar3d", 3, 1, false, true},
    {BodyKind::Bar3DTwoPoints, "bar3d_2p", 3, 1, true, true},
    {BodyKind::Rigid3D, "rigid3d", 3, 3, false, false},
    {BodyKind::Rigid3DTwoPoints, "rigid3d_2p", 3, 3, true, false},
};

const KindInfo& info(BodyKind kind) { return kKinds[static_cast<int>(kind)]; }

}  // namespace

const char* bodyKindName(BodyKind kind) { return info(kind).name; }
int kindDimension(BodyKind kind) { return info(kind).d; }
int kindAxes(BodyKind kind) { return info(kind).k; }
bool kindHasTwoPoints(BodyKind kind) { return info(kind).twoPoints; }
bool kindIsBar(BodyKind kind) { return info(kind).bar; }

bool parseBodyKind(const std::string& name, BodyKind& out) {
  for (const KindInfo& i : kKinds)
    if (name == i.name) {
      out = i.kind;
      return true;
    }
  return false;
}

Body::Body(const BodySpec& spec) : m_spec(spec) {
  const KindInfo& ki = info(spec.kind);
  const int d = m_d = ki.d, k = m_k = ki.k;
  auto fail = [&](const std::string& why) {
    throw std::invalid_argument("body '" + spec.name + "': " + why);
  };
  // reference axes: the orientation's columns (bars: the first one)
  const Eigen::MatrixXd R = spec.orientation.topLeftCorner(d, d);
  if (ki.bar) {
    if (std::abs(R.col(0).norm() - 1.0) > 1e-9) fail("the bar's axis must be a unit vector");
  } else if ((R.transpose() * R - Eigen::MatrixXd::Identity(d, d)).norm() > 1e-9 ||
             R.determinant() < 0) {
    fail("orientation must be a proper rotation");
  }
  if ((ki.twoPoints || ki.bar) && !(spec.length > 0)) fail("length must be > 0");
  if (!(spec.mass > 0)) fail("mass must be > 0");
  Eigen::Matrix2d R90;
  R90 << 0, -1, 1, 0;
  m_E0.resize(d, k);
  if (k == 1)
    m_E0 = R.col(0);
  else if (d == 2 && ki.bar)
    m_E0 << R.col(0), R90 * R.col(0);
  else
    m_E0 = R;

  // stored blocks of q: r, then e1 (or rj), then e2.. for rigid kinds (2D bars derive e2)
  const int blocks = ki.bar ? 2 : 1 + k;
  const int n = blocks * d;
  auto block = [&](int b) {
    Eigen::MatrixXd B = Eigen::MatrixXd::Zero(d, n);
    B.middleCols(b * d, d).setIdentity();
    return B;
  };
  std::vector<Eigen::MatrixXd> E(static_cast<std::size_t>(k));
  E[0] = ki.twoPoints ? Eigen::MatrixXd((block(1) - block(0)) / spec.length) : block(1);
  for (int a = 1; a < k; ++a)
    E[static_cast<std::size_t>(a)] = ki.bar ? Eigen::MatrixXd(R90 * E[0]) : block(a + 1);
  m_Y.resize(d + d * k, n);
  m_Y.topRows(d) = block(0);
  for (int a = 0; a < k; ++a) m_Y.middleRows(d + a * d, d) = E[static_cast<std::size_t>(a)];

  // reference coordinates and velocities, canonical then through the stored blocks
  const Eigen::VectorXd r0 = spec.origin.head(d), v0 = spec.velocity.head(d);
  auto spin = [&](const Eigen::VectorXd& e) -> Eigen::VectorXd {
    if (d == 2) return spec.angularVelocity.z() * (R90 * e);
    return spec.angularVelocity.cross(Eigen::Vector3d(e));
  };
  m_q0.resize(n);
  m_qd0.resize(n);
  m_q0.head(d) = r0;
  m_qd0.head(d) = v0;
  const Eigen::VectorXd e1 = m_E0.col(0);
  m_q0.segment(d, d) = ki.twoPoints ? Eigen::VectorXd(r0 + spec.length * e1) : e1;
  m_qd0.segment(d, d) =
      ki.twoPoints ? Eigen::VectorXd(v0 + spec.length * spin(e1)) : spin(e1);
  for (int b = 2; b < blocks; ++b) {
    m_q0.segment(b * d, d) = m_E0.col(b - 1);
    m_qd0.segment(b * d, d) = spin(m_E0.col(b - 1));
  }

  // mass matrix: Y' (Mbar kron I_d) Y
  Eigen::MatrixXd S(k, k);
  const Eigen::Matrix3d& I = spec.inertia;
  if (k == 3)
    S = 0.5 * I.trace() * Eigen::Matrix3d::Identity() - I;
  else if (d == 2)
    S = 0.5 * I(0, 0) * Eigen::Matrix2d::Identity();
  else
    S(0, 0) = I(0, 0);
  const Eigen::VectorXd c = spec.massCentre.head(k);
  Eigen::MatrixXd Mbar(k + 1, k + 1);
  Mbar(0, 0) = spec.mass;
  Mbar.block(1, 0, k, 1) = spec.mass * c;
  Mbar.block(0, 1, 1, k) = spec.mass * c.transpose();
  Mbar.block(1, 1, k, k) = S + spec.mass * c * c.transpose();
  Eigen::MatrixXd Mc = Eigen::MatrixXd::Zero(d * (k + 1), d * (k + 1));
  for (int a = 0; a <= k; ++a)
    for (int b = 0; b <= k; ++b)
      Mc.block(a * d, b * d, d, d) = Mbar(a, b) * Eigen::MatrixXd::Identity(d, d);
  m_M = m_Y.transpose() * Mc * m_Y;
  Eigen::LLT<Eigen::MatrixXd> llt(m_M);
  if (llt.info() != Eigen::Success || !m_M.allFinite())
    fail("the mass matrix is not positive definite (every second moment of mass about the "
         "mass centre must be > 0; a slender body is a bar)");

  // intrinsic constraints: e_a . e_b = delta_ab for the pairs not satisfied identically
  for (int a = 0; a < (ki.bar ? 1 : k); ++a)
    for (int b = a; b < (ki.bar ? 1 : k); ++b) {
      QuadraticRow row;
      const Eigen::MatrixXd& Ea = E[static_cast<std::size_t>(a)];
      const Eigen::MatrixXd& Eb = E[static_cast<std::size_t>(b)];
      row.t = Eigen::VectorXd::Zero(n);
      row.H = 0.5 * (Ea.transpose() * Eb + Eb.transpose() * Ea);
      row.c = a == b ? 1.0 : 0.0;
      m_rows.push_back(std::move(row));
    }
}

Eigen::MatrixXd Body::pointJacobian(const Eigen::Vector3d& c) const {
  Eigen::MatrixXd L(m_d, m_d * (m_k + 1));
  L.leftCols(m_d).setIdentity();
  for (int a = 0; a < m_k; ++a)
    L.middleCols(m_d * (a + 1), m_d) = c(a) * Eigen::MatrixXd::Identity(m_d, m_d);
  return L * m_Y;
}

Eigen::MatrixXd Body::directionJacobian(const Eigen::Vector3d& a) const {
  Eigen::MatrixXd L = Eigen::MatrixXd::Zero(m_d, m_d * (m_k + 1));
  for (int b = 0; b < m_k; ++b)
    L.middleCols(m_d * (b + 1), m_d) = a(b) * Eigen::MatrixXd::Identity(m_d, m_d);
  return L * m_Y;
}

Eigen::Vector3d Body::localDirection(const Eigen::Vector3d& world, double* offAxis) const {
  const Eigen::VectorXd g = world.head(m_d);
  const Eigen::VectorXd a = m_E0.transpose() * g;
  if (offAxis) *offAxis = (g - m_E0 * a).norm();
  Eigen::Vector3d out = Eigen::Vector3d::Zero();
  for (int i = 0; i < m_k; ++i) out(i) = a(i);
  return out;
}

Eigen::Vector3d Body::localPoint(const Eigen::Vector3d& world, double* offAxis) const {
  return localDirection(world - m_spec.origin, offAxis);
}

}  // namespace art::natural
