// Zhong06 and RK4 (index 1, Baumgarte) for natural-coordinate structures (integrator.h has the
// step equations).
#include "articulate/formulations/natural/integrator.h"
#include "natural/check_size.h"

#include <cmath>
#include <stdexcept>

namespace art::natural {

namespace {

using detail::checkSize;

// every entry of the Newton matrix [M - h^2/2 dF/dq1, A0'; A1, 0] that can be nonzero, through
// add(i, j, v): M, the apparatuses' blocks scaled by (kq, kv) = (-h^2/4, -h/2), A0' and A1
template <class Add>
void newtonEntries(const Structure& s, const StructureData& d, const StructureData& d0,
                   double kq, double kv, Add&& add) {
  const int n = s.nq();
  const Eigen::SparseMatrix<double>& M = s.massMatrix();
  for (int c = 0; c < M.outerSize(); ++c)
    for (Eigen::SparseMatrix<double>::InnerIterator it(M, c); it; ++it)
      add(static_cast<int>(it.row()), c, it.value());
  forceJacobianEntries(s, d, kq, kv, add);  // -h^2/2 dF/dq1 at qm, vm: kq dF/dq + kv dF/dqd
  for (int i = 0; i < d0.A.outerSize(); ++i)
    for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(d0.A, i); it; ++it)
      add(static_cast<int>(it.col()), n + i, it.value());
  for (int i = 0; i < d.A.outerSize(); ++i)
    for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(d.A, i); it; ++it)
      add(n + i, static_cast<int>(it.col()), it.value());
}

}  // namespace

Eigen::MatrixXd zhong06NewtonMatrix(const Structure& s, const Eigen::VectorXd& q0,
                                    const Eigen::VectorXd& q1, double h) {
  checkSize(q0, s.nq(), "zhong06NewtonMatrix: q0");
  checkSize(q1, s.nq(), "zhong06NewtonMatrix: q1");
  StructureData d(s), d0(s);
  constraintJacobian(s, d0, q0);
  updateStructure(s, d, 0.5 * (q0 + q1), (q1 - q0) / h);
  constraintJacobian(s, d, q1);
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(s.nq() + s.nc(), s.nq() + s.nc());
  newtonEntries(s, d, d0, -h * h / 4, -h / 2, [&](int i, int j, double v) { J(i, j) += v; });
  return J;
}

SimulationOptions simulationOptions(const StructureSpec& spec) {
  SimulationOptions o;
  o.integrator = spec.simulation.integrator;
  o.dt = spec.simulation.dt;
  return o;
}

StructureSimulation::StructureSimulation(const Structure& structure,
                                         const SimulationOptions& options)
    : m_s(structure), m_opt(options), m_d(structure), m_d0(structure) {
  if (!(m_opt.dt > 0)) throw std::invalid_argument("dt must be > 0");
  if (!(m_opt.newtonTolerance > 0) || m_opt.maxIterations < 1)
    throw std::invalid_argument("the Newton tolerance and iteration limit must be > 0");
  m_n = m_s.nq();
  m_m = m_s.nc();
  const int nz = m_n + m_m;
  m_sparse = m_opt.solver == LinearSolver::Sparse ||
             (m_opt.solver == LinearSolver::Auto && nz >= m_opt.denseLimit);
  for (Eigen::VectorXd* v : {&m_q, &m_qd, &m_p, &m_q1, &m_p1, &m_qm, &m_vm, &m_qs, &m_vs})
    *v = Eigen::VectorXd::Zero(m_n);
  m_mu = Eigen::VectorXd::Zero(m_m);
  m_lambda = Eigen::VectorXd::Zero(m_m);
  m_r = Eigen::VectorXd::Zero(nz);
  m_dz = Eigen::VectorXd::Zero(nz);
  m_rhs = Eigen::VectorXd::Zero(nz);
  m_sol = Eigen::VectorXd::Zero(nz);
  for (int k = 0; k < 4; ++k) {
    m_kq[k] = Eigen::VectorXd::Zero(m_n);
    m_kv[k] = Eigen::VectorXd::Zero(m_n);
  }
  if (m_opt.integrator == Integrator::RK4) {
    m_K = Eigen::MatrixXd::Zero(nz, nz);
    m_klu = Eigen::PartialPivLU<Eigen::MatrixXd>(nz);
  } else if (m_sparse) {
    // the Newton matrix's pattern, fixed for the whole run (all apparatus blocks included)
    std::vector<Eigen::Triplet<double>> pattern;
    for (StructureData* d : {&m_d, &m_d0}) {
      for (std::size_t k = 0; k < m_s.apparatuses().size(); ++k) {
        d->Kp[k] = Eigen::Matrix3d::Ones();
        d->Kv[k].setZero();
      }
      constraintJacobian(m_s, *d, m_s.q0());
      d->A.coeffs().setOnes();
    }
    newtonEntries(m_s, m_d, m_d0, 1.0, 0.0,
                  [&](int i, int j, double) { pattern.emplace_back(i, j, 1.0); });
    // every apparatus block in full, whatever the reference values
    for (const CompiledApparatus& a : m_s.apparatuses()) {
      const int oB = m_s.bodyOffset(a.bodyB), nB = static_cast<int>(a.CB.cols());
      const int oA = a.bodyA >= 0 ? m_s.bodyOffset(a.bodyA) : oB;
      const int nA = a.bodyA >= 0 ? static_cast<int>(a.CA.cols()) : nB;
      for (int i = 0; i < nA; ++i)
        for (int j = 0; j < nB; ++j) {
          pattern.emplace_back(oA + i, oB + j, 1.0);
          pattern.emplace_back(oB + j, oA + i, 1.0);
        }
      for (int i = 0; i < nB; ++i)
        for (int j = 0; j < nB; ++j) pattern.emplace_back(oB + i, oB + j, 1.0);
      for (int i = 0; i < nA; ++i)
        for (int j = 0; j < nA; ++j) pattern.emplace_back(oA + i, oA + j, 1.0);
    }
    m_Js.resize(nz, nz);
    m_Js.setFromTriplets(pattern.begin(), pattern.end());
    m_Js.makeCompressed();
    m_Mldlt.compute(m_s.massMatrix());
  } else {
    m_J = Eigen::MatrixXd::Zero(nz, nz);
    m_lu = Eigen::PartialPivLU<Eigen::MatrixXd>(nz);
    m_Mllt.compute(m_s.denseMassMatrix());
  }
  setState(0.0, m_s.q0(), m_s.qd0());
}

void StructureSimulation::setState(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd) {
  checkSize(q, m_n, "setState: q");
  checkSize(qd, m_n, "setState: qd");
  m_t = t;
  m_q = q;
  m_qd = qd;
  m_p.noalias() = m_s.massMatrix() * qd;
  m_mu.setZero();
  m_lambda.setZero();
  m_failure.reset();
}

void StructureSimulation::solveMomentum(const Eigen::VectorXd& p, Eigen::VectorXd& qd) {
  if (m_sparse) qd = m_Mldlt.solve(p);
  else qd = m_Mllt.solve(p);
}

void StructureSimulation::fillNewton(double h) {
  if (m_sparse) {
    std::fill(m_Js.valuePtr(), m_Js.valuePtr() + m_Js.nonZeros(), 0.0);
    newtonEntries(m_s, m_d, m_d0, -h * h / 4, -h / 2,
                  [&](int i, int j, double v) { m_Js.coeffRef(i, j) += v; });
  } else {
    m_J.setZero();
    newtonEntries(m_s, m_d, m_d0, -h * h / 4, -h / 2,
                  [&](int i, int j, double v) { m_J(i, j) += v; });
  }
}

bool StructureSimulation::zhong06(double h) {
  const int n = m_n, m = m_m;
  const Eigen::SparseMatrix<double>& M = m_s.massMatrix();
  constraintJacobian(m_s, m_d0, m_q);
  // predictor: the previous velocity
  m_q1 = m_q + h * m_qd;
  // simplified Newton: the matrix is factorised at the predictor and again only when an
  // iteration fails to shrink the update fourfold (it changes little within a step)
  bool converged = false, refactor = true;
  double previous = 0;
  for (m_iterations = 1; m_iterations <= m_opt.maxIterations; ++m_iterations) {
    m_qm = 0.5 * (m_q + m_q1);
    m_vm = (m_q1 - m_q) / h;
    updateStructure(m_s, m_d, m_qm, m_vm);
    // residual
    m_qm = m_q1 - m_q;
    m_r.head(n).noalias() = M * m_qm;
    m_r.head(n) -= h * m_p + (0.5 * h * h) * m_d.F;
    m_r.head(n).noalias() += m_d0.A.transpose() * m_mu;
    m_r.tail(m) = constraintResidual(m_s, m_d, m_q1);
    if (refactor) {
      constraintJacobian(m_s, m_d, m_q1);
      fillNewton(h);
      if (m_sparse) {
        if (!m_analysed) {
          m_slu.analyzePattern(m_Js);
          m_analysed = true;
        }
        m_slu.factorize(m_Js);
        if (m_slu.info() != Eigen::Success) break;
      } else {
        m_lu.compute(m_J);
      }
    }
    if (m_sparse) m_dz = m_slu.solve(m_r);
    else m_dz.noalias() = m_lu.solve(m_r);
    if (!m_dz.allFinite()) break;
    m_q1 -= m_dz.head(n);
    m_mu -= m_dz.tail(m);
    const double size = m_dz.head(n).lpNorm<Eigen::Infinity>();
    if (size <= m_opt.newtonTolerance) {
      converged = true;
      break;
    }
    refactor = m_iterations > 1 && size > 0.25 * previous;
    previous = size;
  }
  if (!converged) {
    m_failure = "Zhong06: Newton iterations did not converge at t = " + std::to_string(m_t) +
                " s";
    return false;
  }
  // momentum and velocity at the end of the step
  constraintJacobian(m_s, m_d, m_q1);
  m_qm = m_q1 - m_q;
  m_p1.noalias() = (2.0 / h) * (M * m_qm);
  m_p1 -= m_p;
  m_p1.noalias() += (1.0 / h) * (m_d0.A.transpose() * m_mu);
  m_p1.noalias() -= (1.0 / h) * (m_d.A.transpose() * m_mu);
  if (!m_q1.allFinite() || !m_p1.allFinite()) {
    m_failure = "Zhong06: the state is not finite at t = " + std::to_string(m_t + h) + " s";
    return false;
  }
  m_q.swap(m_q1);
  m_p.swap(m_p1);
  solveMomentum(m_p, m_qd);
  m_lambda = (2.0 / (h * h)) * m_mu;
  return true;
}

void StructureSimulation::accel(const Eigen::VectorXd& q, const Eigen::VectorXd& qd) {
  const int n = m_n, m = m_m;
  const double alpha = m_opt.baumgarte;
  updateStructure(m_s, m_d, q, qd);
  const auto& A = constraintJacobian(m_s, m_d, q);
  const auto& phi = constraintResidual(m_s, m_d, q);
  const auto& g = constraintVelocityTerm(m_s, m_d, qd);
  m_K.topLeftCorner(n, n) = m_s.denseMassMatrix();
  m_K.bottomRightCorner(m, m).setZero();
  m_K.topRightCorner(n, m).setZero();
  m_K.bottomLeftCorner(m, n).setZero();
  for (int i = 0; i < A.outerSize(); ++i)
    for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(A, i); it; ++it) {
      m_K(n + i, it.col()) = it.value();
      m_K(it.col(), n + i) = it.value();
    }
  m_rhs.head(n) = m_d.F;
  m_rhs.tail(m).noalias() = A * qd;
  m_rhs.tail(m) *= -2.0 * alpha;
  m_rhs.tail(m) -= g + alpha * alpha * phi;
  m_klu.compute(m_K);
  m_sol.noalias() = m_klu.solve(m_rhs);
}

bool StructureSimulation::rk4(double h) {
  const double c[4] = {0, 0.5, 0.5, 1};
  for (int k = 0; k < 4; ++k) {
    if (k == 0) {
      m_qs = m_q;
      m_vs = m_qd;
    } else {
      m_qs = m_q + (c[k] * h) * m_kq[k - 1];
      m_vs = m_qd + (c[k] * h) * m_kv[k - 1];
    }
    accel(m_qs, m_vs);
    m_kq[k] = m_vs;
    m_kv[k] = m_sol.head(m_n);
  }
  m_qs = m_q + (h / 6) * (m_kq[0] + 2 * m_kq[1] + 2 * m_kq[2] + m_kq[3]);
  m_vs = m_qd + (h / 6) * (m_kv[0] + 2 * m_kv[1] + 2 * m_kv[2] + m_kv[3]);
  if (!m_qs.allFinite() || !m_vs.allFinite()) {
    m_failure = "RK4: the state is not finite at t = " + std::to_string(m_t + h) + " s";
    return false;
  }
  m_q.swap(m_qs);
  m_qd.swap(m_vs);
  m_p.noalias() = m_s.massMatrix() * m_qd;
  m_lambda = m_sol.tail(m_m);
  return true;
}

void StructureSimulation::setPerturbation(const std::optional<Perturbation>& perturbation) {
  natural::setPerturbation(m_s, m_d, perturbation);
  natural::setPerturbation(m_s, m_d0, perturbation);
}

bool StructureSimulation::step() {
  if (m_failure) return false;
  const bool ok = m_opt.integrator == Integrator::Zhong06 ? zhong06(m_opt.dt) : rk4(m_opt.dt);
  if (!ok) return false;
  m_t += m_opt.dt;
  ++m_steps;
  return true;
}

bool StructureSimulation::advanceTo(double t) {
  // a remainder below a millionth of a step is rounding in the accumulated time, not a step
  while (!m_failure && m_t < t - 1e-6 * m_opt.dt) {
    const double h = std::min(m_opt.dt, t - m_t);
    const bool ok = m_opt.integrator == Integrator::Zhong06 ? zhong06(h) : rk4(h);
    if (!ok) return false;
    m_t = t - m_t <= m_opt.dt ? t : m_t + h;
    ++m_steps;
  }
  return !m_failure;
}

StructureEnergy StructureSimulation::energy() { return natural::energy(m_s, m_d, m_q, m_qd); }

double StructureSimulation::constraintError() {
  if (m_m == 0) return 0.0;
  return constraintResidual(m_s, m_d, m_q).lpNorm<Eigen::Infinity>();
}

}  // namespace art::natural
