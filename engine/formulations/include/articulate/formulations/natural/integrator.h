#pragma once
// Time integration of a natural-coordinate structure (structure.h). Engine only: no threads.
//
// Zhong06 (Zhong and Gao; Rible's constant-mass form), a symplectic scheme for constrained
// systems with a constant mass matrix M. With momentum p = M qd, one step of h solves for q1
// and the scaled multipliers mu (Newton iterations)
//   M (q1 - q0) - h p0 - h^2/2 F(qm, vm) + A(q0)' mu = 0,   phi(q1) = 0,
// with qm = (q0 + q1)/2 and vm = (q1 - q0)/h, then
//   p1 = -p0 + 2/h M (q1 - q0) + 1/h (A(q0) - A(q1))' mu,   qd1 = M^-1 p1.
// The Newton matrix [M - h^2/2 dF/dq1, A(q0)'; A(q1), 0] is factorised densely (LU with
// partial pivoting) for small systems and with Eigen::SparseLU for large ones, at the predictor
// q1 = q0 + h qd0 and again only when an iteration shrinks the update less than fourfold
// (simplified Newton: the matrix changes little within a step). The energy error
// stays bounded over long runs and the constraints hold to the Newton tolerance at every step.
//
// RK4 (for comparison): classical Runge-Kutta on the index-1 equations
//   [M A'; A 0] [qdd; lambda] = [F; -Adot qd - 2 alpha A qd - beta^2 phi]
// (Baumgarte stabilisation, dense LU); the constraints drift within the stabilisation.

#include <optional>
#include <string>

#include <Eigen/Core>
#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <Eigen/SparseCore>
#include <Eigen/SparseLU>
#include <Eigen/SparseCholesky>

#include "articulate/formulations/natural/structure.h"

namespace art::natural {

enum class LinearSolver { Auto, Dense, Sparse };

struct SimulationOptions {
  Integrator integrator = Integrator::Zhong06;
  double dt = 1e-3;  // s, > 0
  // Zhong06: Newton stops when the largest coordinate update is below this (m or unit-vector
  // components), and gives up (divergence) after maxIterations
  double newtonTolerance = 1e-12;
  int maxIterations = 30;
  LinearSolver solver = LinearSolver::Auto;
  int denseLimit = 200;  // Auto: dense below this many unknowns (nq + nc), sparse from it
  double baumgarte = 20.0;  // RK4: alpha = beta (1/s)
};

/// The options a structure asks for (StructureSpec::simulation).
SimulationOptions simulationOptions(const StructureSpec& spec);

/// Zhong06's Newton matrix [M - h^2/2 dF/dq1, A(q0)'; A(q1), 0] ((nq + nc) square, dense) for
/// a step of h (s) from q0 to the iterate q1, assembled as StructureSimulation assembles it:
/// dF/dq1 = 1/2 dF/dq + 1/h dF/dqd of the apparatuses at qm = (q0 + q1)/2, qd = (q1 - q0)/h
/// (forceJacobianEntries). Allocates: for tests and diagnostics. Throws std::invalid_argument
/// on a size mismatch.
Eigen::MatrixXd zhong06NewtonMatrix(const Structure& s, const Eigen::VectorXd& q0,
                                    const Eigen::VectorXd& q1, double h);

/// Integrates one structure from a state. Not thread-safe; one per thread.
class StructureSimulation {
 public:
  /// Starts at the structure's reference configuration and initial velocities at t = 0.
  /// Throws std::invalid_argument for a non-positive dt or tolerance.
  StructureSimulation(const Structure& structure, const SimulationOptions& options);

  /// Sets the state (s, m and unit-vector components, their rates); throws
  /// std::invalid_argument on a size mismatch. The state is used as given (not projected).
  void setState(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd);
  /// Sets or (nullopt) removes a perturbation spring (natural::setPerturbation), felt from the
  /// next step on. Throws std::invalid_argument as setPerturbation.
  void setPerturbation(const std::optional<Perturbation>& perturbation);
  const std::optional<Perturbation>& perturbation() const { return m_d.perturbation; }
  /// The perturbation's load at the current state (world coordinates), if one acts.
  std::optional<PerturbationLoad> perturbationLoad() const {
    return natural::perturbationLoad(m_s, m_d, q(), qd());
  }

  /// One step of dt. Returns false (and stays at the last good state) on divergence: Newton
  /// did not converge, or a state is not finite; see failure().
  bool step();
  /// Advances exactly to time t (s) in steps of dt, the last one shortened. Returns false on
  /// divergence.
  bool advanceTo(double t);

  /// Current time (s), natural coordinates q and their rates qd (nq; m, unit-vector
  /// components, and per second).
  double time() const { return m_t; }
  const Eigen::VectorXd& q() const { return m_q; }
  const Eigen::VectorXd& qd() const { return m_qd; }
  /// Kinetic and potential energy at the current state (J).
  StructureEnergy energy();
  /// Largest constraint residual max |phi(q)| at the current state.
  double constraintError();
  /// Constraint forces lambda of the last step (nc): the generalized constraint force is
  /// -A' lambda (Zhong06: lambda = 2 mu / h^2).
  const Eigen::VectorXd& constraintForces() const { return m_lambda; }
  /// Why stepping stopped; empty while it runs normally.
  const std::optional<std::string>& failure() const { return m_failure; }
  /// Steps taken, Newton iterations of the last step, and whether the sparse solver is used.
  long stepsTaken() const { return m_steps; }
  int lastIterations() const { return m_iterations; }
  bool sparse() const { return m_sparse; }

 private:
  const Structure& m_s;
  SimulationOptions m_opt;
  StructureData m_d, m_d0;  // at the iterate, and at the start of the step
  int m_n = 0, m_m = 0;
  bool m_sparse = false;
  double m_t = 0;
  long m_steps = 0;
  int m_iterations = 0;
  Eigen::VectorXd m_q, m_qd, m_p, m_q1, m_p1, m_mu, m_lambda, m_r, m_dz, m_qm, m_vm;
  std::optional<std::string> m_failure;
  // Zhong06
  Eigen::MatrixXd m_J;
  Eigen::PartialPivLU<Eigen::MatrixXd> m_lu;
  Eigen::SparseMatrix<double> m_Js;
  Eigen::SparseLU<Eigen::SparseMatrix<double>> m_slu;
  bool m_analysed = false;
  Eigen::LLT<Eigen::MatrixXd> m_Mllt;  // dense systems
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> m_Mldlt;  // sparse systems
  // RK4
  Eigen::VectorXd m_kq[4], m_kv[4], m_qs, m_vs, m_rhs, m_sol;
  Eigen::MatrixXd m_K;
  Eigen::PartialPivLU<Eigen::MatrixXd> m_klu;

  bool zhong06(double h);
  bool rk4(double h);
  // qdd of the index-1 equations at (q, qd), into m_sol's head
  void accel(const Eigen::VectorXd& q, const Eigen::VectorXd& qd);
  // the Zhong06 Newton matrix at the current iterate
  void fillNewton(double h);
  void solveMomentum(const Eigen::VectorXd& p, Eigen::VectorXd& qd);
};

}  // namespace art::natural
