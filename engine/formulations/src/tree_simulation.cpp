// Fixed-step RK4 and semi-implicit Euler, and Dormand-Prince 5(4) with error control (Hairer,
// Norsett & Wanner, Solving ODEs I, II.4 and II.5), on y = (q, qd, u), y' = (qd, qdd, du/dt):
// qdd from ABA, or from constrained forward dynamics for a model with constraints (the state
// is projected onto the constraints after each step), with the ground-contact forces as
// external forces and u the ground's tangential deformation for a model with contact points.
// Free joints (nq != nv): the stages integrate dq/dt = configurationDerivative(q, qd), i.e. the
// quaternion's own derivative 1/2 quat * (0, w) and the position's R v, as an ordinary ODE in
// R^nq (so RK4 and dopri5 keep their orders), and every accepted step renormalises the
// quaternions; semi-implicit Euler moves q by the exponential map (integrateConfiguration).
#include "articulate/formulations/tree_simulation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "articulate/dynamics/configuration.h"

namespace art {

namespace {

// Dormand-Prince 5(4) tableau
constexpr double kA[7][6] = {
    {0, 0, 0, 0, 0, 0},
    {1.0 / 5, 0, 0, 0, 0, 0},
    {3.0 / 40, 9.0 / 40, 0, 0, 0, 0},
    {44.0 / 45, -56.0 / 15, 32.0 / 9, 0, 0, 0},
    {19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729, 0, 0},
    {9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656, 0},
    {35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84}};
// stage times
constexpr double kC[7] = {0, 1.0 / 5, 3.0 / 10, 4.0 / 5, 8.0 / 9, 1, 1};
// largest constraint error a step may leave after its projection (m, rad)
constexpr double kMaxConstraintError = 1e-8;
// 5th-order weights minus the embedded 4th-order ones
constexpr double kE[7] = {71.0 / 57600,      0, -71.0 / 16695, 71.0 / 1920,
                          -17253.0 / 339200, 22.0 / 525, -1.0 / 40};

}  // namespace

namespace {

// H^-1 e_rows[r] into column r of minv (the factor of data.H from factorizeMassMatrix) and its
// diagonal entry into w0(r); with constraints (cons), then the constrained inverse's column at q
void inverseColumns(const Model& model, Data& data, ConstraintData* cons, const Eigen::VectorXd& q,
                    const std::vector<int>& rows, Eigen::MatrixXd& minv, Eigen::VectorXd& w0) {
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const auto c = static_cast<Eigen::Index>(r);
    minv.col(c).setZero();
    minv(rows[r], c) = 1.0;
    solveMassMatrix(model, data, minv.col(c));
    w0(c) = minv(rows[r], c);
  }
  if (cons && !rows.empty())
    constrainedInverseColumns(model, data, *cons, q, minv.leftCols(static_cast<Eigen::Index>(rows.size())));
}

// joint i's row of the stops' boxed LCP at position q with friction bound f (an impulse or a
// force): false when it has none (off its stops, no friction), else its box [lo, hi]
bool stopBox(const Model& model, int i, double q, double f, double& lo, double& hi) {
  const JointLimits& l = model.limits[i];
  const bool low = l.lower && q <= *l.lower, high = l.upper && q >= *l.upper;
  if (!low && !high && !(f > 0)) return false;
  const double inf = std::numeric_limits<double>::infinity();
  lo = high ? -inf : -f;
  hi = low ? inf : f;
  return true;
}

// the boxed LCP of the stops by projected Gauss-Seidel: x += minv * lambda with lambda(r) in
// [lo(r), hi(r)] and x(rows[r]) = 0 wherever lambda(r) lies inside its box (x: velocities for
// impulses, accelerations for forces); one row takes one sweep. With constraints minv holds
// columns of the constrained inverse (constrainedInverseColumns), whose diagonal may vanish
// where the constraints hold a joint alone: such a row (w below 1e-10 of w0, H^-1's own
// diagonal entry) is left out
void solveBoxed(const std::vector<int>& rows, const Eigen::MatrixXd& minv, const Eigen::VectorXd& w0,
                const Eigen::VectorXd& lo, const Eigen::VectorXd& hi, Eigen::VectorXd& lambda,
                Eigen::VectorXd& x) {
  const auto n = static_cast<Eigen::Index>(rows.size());
  lambda.head(n).setZero();
  for (int sweep = 0; sweep < 200; ++sweep) {
    double change = 0.0;  // largest change of a row's x in this sweep
    for (Eigen::Index r = 0; r < n; ++r) {
      const int i = rows[static_cast<std::size_t>(r)];
      const double w = minv(i, r);  // > 0: H^-1 is positive definite
      if (!(w > 1e-10 * w0(r))) continue;
      const double next = std::clamp(lambda(r) - x(i) / w, lo(r), hi(r));
      const double d = next - lambda(r);
      if (d == 0.0) continue;
      x += d * minv.col(r);
      lambda(r) = next;
      change = std::max(change, std::abs(d) * w);
    }
    if (change <= 1e-14 * (1.0 + x.lpNorm<Eigen::Infinity>())) break;
  }
}

}  // namespace

double undrivenEnergyScale(const Model& model, double mass) { return mass * model.gravity.norm() + 1.0; }

std::optional<std::string> undrivenEnergyGrowth(const SimulationOptions& options, double total, double target,
                                                double scale) {
  if (!(total - target > options.undrivenEnergyGrowthLimit * (std::abs(target) + scale))) return std::nullopt;
  std::ostringstream s;
  s << " J, from " << target << " J with nothing driving the model";
  return s.str();
}

SimulationOptions simulationOptions(const ModelSpec& spec) {
  SimulationOptions o;
  o.integrator = spec.simulation.integrator;
  o.dt = spec.simulation.dt;
  o.relTol = spec.simulation.relTol;
  o.absTol = spec.simulation.absTol;
  o.energyProjection = spec.simulation.energyProjection;
  return o;
}

PerturbationLoad treePerturbationLoad(const Model& model, Data& data, const Perturbation& p,
                                      const VecRef& q, const VecRef& qd) {
  const BodyPointMotion m = bodyPointMotion(model, data, p.body, p.point, q, qd);
  return perturbationLoad(p, m.position, m.velocity, m.com, m.comVelocity);
}

const ExternalForces* treeExternalForces(const Model& model, Data& data, ContactData* contact,
                                         const std::optional<Perturbation>& perturbation,
                                         const VecRef& q, const VecRef& qd, const VecRef& u,
                                         ExternalForces& fext) {
  const ExternalForces* out = nullptr;
  if (!model.forces.empty()) {
    externalForces(model, data, q, fext);
    out = &fext;
  }
  if (contact) {
    groundContact(model, data, *contact, q, qd, u);
    if (out)
      fext += contact->fext;
    else
      out = &contact->fext;
  }
  if (perturbation) {
    // the spring joins the others in fext (sized once: no allocation)
    if (!out)
      fext.setZero(model.arithmetic == Arithmetic::Planar ? 3 : 6, model.nb);
    else if (out != &fext)
      fext = *out;
    out = &fext;
    const PerturbationLoad load = treePerturbationLoad(model, data, *perturbation, q, qd);
    const int b = perturbation->body;
    const Vec3 n = load.torque + load.point.cross(load.force);  // moment about the base origin
    if (model.arithmetic == Arithmetic::Planar) {
      fext(0, b) += n.z();
      fext(1, b) += load.force.x();
      fext(2, b) += load.force.y();
    } else {
      fext.col(b).head<3>() += n;
      fext.col(b).tail<3>() += load.force;
    }
  }
  return out;
}

Simulation::Simulation(const Model& model, const SimulationOptions& options)
    : m_model(model), m_opt(options), m_data(model) {
  if (!(options.dt > 0) || !std::isfinite(options.dt))
    throw std::invalid_argument("Simulation: dt must be > 0");
  if (!(options.relTol > 0) || !(options.absTol > 0) || !(options.minDt > 0))
    throw std::invalid_argument("Simulation: tolerances and minDt must be > 0");
  const int nq = model.nq(), nv = model.nv();
  if (!model.constraints.empty()) m_cons.emplace(model);
  if (model.soft) {
    m_soft.emplace(model);
    m_soft->timestep = options.dt;
  }
  if (!model.contacts.empty()) m_contact.emplace(model);
  const int nu = contactStateSize(model) + model.na;
  m_passive = !model.controlled && model.forces.empty() && model.contacts.empty() && !model.stops && !model.soft &&
              model.actuators.empty() && !model.tendonDamping;
  m_ctrl = Eigen::VectorXd::Zero(model.nu());
  for (int k = 0; k < model.nu(); ++k) m_ctrl(k) = model.actuators[static_cast<std::size_t>(k)].ctrl0;
  m_ctrlNow = m_ctrl;
  m_udot = Eigen::VectorXd::Zero(nu);
  if (model.stops) {
    m_minv.setZero(nv, model.nb);
    for (auto* v : {&m_lambda, &m_lo, &m_hi, &m_w0}) v->setZero(model.nb);
    m_dqd.setZero(nv);
    m_held.reserve(static_cast<std::size_t>(model.nb));
    m_pinned.reserve(static_cast<std::size_t>(model.nb));
    for (auto* v : {&m_heldLo, &m_heldHi, &m_heldForce}) v->setZero(model.nb);
    m_acc.setZero(nv);
    m_heldMinv.setZero(nv, model.nb);
    m_rows.reserve(static_cast<std::size_t>(model.nb));
  }
  m_tau = Eigen::VectorXd::Zero(nv);
  m_tauTotal = m_tau;
  m_fext.setZero(model.arithmetic == Arithmetic::Planar ? 3 : 6, model.nb);
  for (auto* v : {&m_q1, &m_errq}) v->setZero(nq);
  for (auto* v : {&m_qd1, &m_errv}) v->setZero(nv);
  for (auto* v : {&m_u, &m_u1, &m_erru}) v->setZero(nu);
  for (int k = 0; k < 7; ++k) {
    m_kq[k].setZero(nq);
    m_kv[k].setZero(nv);
    m_ku[k].setZero(nu);
  }
  setState(0.0, model.q0, model.qd0);
}

void Simulation::setState(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd) {
  if (q.size() != m_model.nq() || qd.size() != m_model.nv())
    throw std::invalid_argument("Simulation::setState: q needs " + std::to_string(m_model.nq()) +
                                " entries and qd " + std::to_string(m_model.nv()));
  m_t = t;
  m_q = q;
  m_qd = qd;
  normalizeConfiguration(m_model, m_q);
  m_h = m_opt.dt;
  m_divergence.reset();
  if (m_cons) {
    try {
      projectConstraints(m_model, m_data, *m_cons, m_q, m_qd);
    } catch (const SingularInertiaError& e) {
      singular(e);  // the state stays as given; the simulation cannot start from it
    }
  }
  // the ground yields under points set deep inside it (contact.h): it never launches them
  m_u.setZero();
  if (m_contact) m_u.head(contactStateSize(m_model)) = startingContactState(m_model, m_data, m_q);
  m_energy = energyMomentum(m_model, m_data, m_q, m_qd);
  m_energyCurrent = true;
  m_energyScale = undrivenEnergyScale(m_model, m_energy.mass);
  m_e0 = m_energy.kinetic + m_energy.potential;
  m_energyTarget = m_e0;
  m_energyProjected = 0.0;
  m_energyDissipated = 0.0;
  m_actuatorWork = 0.0;
}

void Simulation::setAuxiliaryState(const Eigen::VectorXd& u) {
  if (u.size() != m_u.size() || !u.allFinite())
    throw std::invalid_argument("Simulation::setAuxiliaryState: expected " +
                                std::to_string(m_u.size()) + " finite numbers");
  m_u = u;
}

void Simulation::setControls(const Eigen::VectorXd& ctrl) {
  if (ctrl.size() != m_model.nu())
    throw std::invalid_argument("Simulation::setControls: ctrl needs " + std::to_string(m_model.nu()) + " entries");
  m_ctrl = ctrl;
}

void Simulation::setControlTable(std::shared_ptr<const ControlTable> table) {
  if (table)
    for (int c : table->columns)
      if (c < 0 || c >= m_model.nu())
        throw std::invalid_argument("Simulation::setControlTable: column of actuator " + std::to_string(c) +
                                    ", the model has " + std::to_string(m_model.nu()));
  m_table = std::move(table);
}

Eigen::VectorXd Simulation::controlsAt(double t) const {
  Eigen::VectorXd c = m_ctrl;
  if (m_table) m_table->apply(t, c);
  return c;
}

const Data& Simulation::actuationResults() {
  if (m_model.hasActuation()) actuation(m_model, m_data, m_q, m_qd, controlsAt(m_t), m_u.tail(m_model.na));
  return m_data;
}

void Simulation::setJointForces(const Eigen::VectorXd& tau) {
  if (tau.size() != m_model.nv())
    throw std::invalid_argument("Simulation::setJointForces: tau needs " +
                                std::to_string(m_model.nv()) + " entries");
  m_tau = tau;
  const bool zero = tau.isZero(0.0);
  if (zero && !m_tauZero) {
    // the forces did work: the energy to keep from now on is the present one
    const EnergyMomentum e = energy();
    m_energyTarget = e.kinetic + e.potential;
  }
  m_tauZero = zero;
}

bool Simulation::energyProjectionActive() const {
  return m_opt.energyProjection && !euler() &&
         m_passive && m_tauZero && !m_perturbation;
}

void Simulation::setPerturbation(const std::optional<Perturbation>& perturbation) {
  if (perturbation) {
    checkPerturbation(*perturbation);
    if (perturbation->body < 0 || perturbation->body >= m_model.nb)
      throw std::invalid_argument("Simulation::setPerturbation: body " +
                                  std::to_string(perturbation->body) + " is not a body of the "
                                  "model (" + std::to_string(m_model.nb) + ")");
  } else if (m_perturbation) {
    // the spring did work: the energy to keep from now on is the present one
    const EnergyMomentum e = energy();
    m_energyTarget = e.kinetic + e.potential;
  }
  m_perturbation = perturbation;
}

std::optional<PerturbationLoad> Simulation::perturbationLoad() {
  if (!m_perturbation) return std::nullopt;
  return treePerturbationLoad(m_model, m_data, *m_perturbation, m_q, m_qd);
}

EnergyMomentum Simulation::energy() {
  if (!m_energyCurrent) {
    m_energy = energyMomentum(m_model, m_data, m_q, m_qd);
    m_energyCurrent = true;
  }
  return m_energy;
}

double Simulation::constraintError() {
  if (m_soft) {
    softConstraintRows(m_model, m_data, *m_soft, m_q, m_qd);
    double worst = 0.0;
    for (int r = 0; r < m_soft->ne; ++r) worst = std::max(worst, std::abs(m_soft->pos(r)));
    return worst;
  }
  if (!m_cons) return 0.0;
  constraintKinematics(m_model, m_data, *m_cons, m_q, m_qd);
  return m_cons->phi.size() ? m_cons->phi.cwiseAbs().maxCoeff() : 0.0;
}

const SoftConstraintData* Simulation::softConstraints() {
  if (!m_soft) return nullptr;
  accel(m_t, m_q, m_qd, m_u);
  return &*m_soft;
}

const Eigen::VectorXd& Simulation::constraintForces() {
  if (!m_cons) return m_noConstraintForces;
  accel(m_t, m_q, m_qd, m_u);
  return m_cons->lambda;
}

const Eigen::Matrix3Xd& Simulation::contactForces() {
  if (!m_contact) return m_noContactForces;
  groundContact(m_model, m_data, *m_contact, m_q, m_qd, m_u);
  return m_contact->force;
}

const Eigen::VectorXd& Simulation::accel(double t, const Eigen::VectorXd& q,
                                         const Eigen::VectorXd& qd, const Eigen::VectorXd& u) {
  const ExternalForces* fext = treeExternalForces(m_model, m_data, m_contact ? &*m_contact : nullptr,
                                                  m_perturbation, q, qd, u, m_fext);
  const Eigen::VectorXd* tau = &m_tau;
  if (m_model.controlled || m_model.hasActuation()) {
    m_tauTotal = m_tau;
    if (m_model.controlled) addControlForces(m_model, t, q, qd, m_tauTotal);
    if (m_model.hasActuation()) {
      const Eigen::VectorXd* ctrl = &m_ctrl;
      if (m_table) {  // scripted: the table at this evaluation's time (no allocation: m_ctrlNow is sized)
        m_ctrlNow = m_ctrl;
        m_table->apply(t, m_ctrlNow);
        ctrl = &m_ctrlNow;
      }
      actuation(m_model, m_data, q, qd, *ctrl, u.tail(m_model.na));
      m_tauTotal += m_data.qfrcActuator;
      m_tauTotal += m_data.qfrcPassive;
      m_udot.tail(m_model.na) = m_data.actDot;
    }
    tau = &m_tauTotal;
  }
  if (m_contact) m_udot.head(contactStateSize(m_model)) = m_contact->udot;
  if (m_soft) return softForwardDynamics(m_model, m_data, *m_soft, q, qd, *tau, fext);
  const Eigen::VectorXd& qdd = m_cons ? constrainedForwardDynamics(m_model, m_data, *m_cons, q, qd, *tau, fext)
                                      : aba(m_model, m_data, q, qd, *tau, fext);
  return m_held.empty() ? qdd : holdJoints(q, qdd);
}

void Simulation::stage(int k, double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                       const Eigen::VectorXd& u) {
  m_kv[k] = accel(t, q, qd, u);
  m_stagePower[k] = (m_model.controlled ? dampingPower(qd) : 0.0) + heldPower(qd) +
                    (m_model.tendonDamping ? tendonDampingPower(m_model, m_data) : 0.0) -
                    (m_soft ? m_soft->qfrcConstraint.dot(qd) : 0.0);
  m_stageWork[k] = m_model.actuators.empty() ? 0.0 : m_data.qfrcActuator.dot(qd);
  if (m_model.hasQuaternions)
    configurationDerivative(m_model, q, qd, m_kq[k]);
  else
    m_kq[k] = qd;
  m_ku[k] = m_udot;
}

bool Simulation::check(double constraintError, double& kinetic, double& potential) {
  auto diverge = [&](const std::string& quantity, double value) {
    std::ostringstream s;
    s << "the simulation diverged at t = " << m_t << " s: " << quantity << " = " << value;
    m_divergence = Divergence{m_t, quantity, s.str()};
    return false;
  };
  for (int i = 0; i < std::max(m_model.nq(), m_model.nv()); ++i) {
    if (i < m_model.nq() && !std::isfinite(m_q1(i)))
      return diverge("q[" + std::to_string(i) + "]", m_q1(i));
    if (i < m_model.nv() && !std::isfinite(m_qd1(i)))
      return diverge("qd[" + std::to_string(i) + "]", m_qd1(i));
  }
  for (Eigen::Index i = 0; i < m_u1.size(); ++i)
    if (!std::isfinite(m_u1(i))) return diverge("u[" + std::to_string(i) + "]", m_u1(i));
  // the projection could not close the constraints (e.g. a loop pulled apart)
  if (!(constraintError <= kMaxConstraintError))
    return diverge("constraint error", constraintError);
  // the energies alone: the momentum and composite inertia wait until energy() asks for them
  detail::kineticPotential(m_model, m_data, m_q1, m_qd1, kinetic, potential);
  const double total = kinetic + potential;
  if (!std::isfinite(total) ||
      std::abs(total - m_e0) > m_opt.energyGrowthLimit * (std::abs(m_e0) + 1.0))
    return diverge("total energy", total);
  const bool driven = m_model.controlled || !m_model.actuators.empty() || !m_model.forces.empty() || !m_tauZero ||
                      m_perturbation;
  if (!driven)
    if (const auto grew = undrivenEnergyGrowth(m_opt, total, m_energyTarget, m_energyScale)) {
      diverge("total energy", total);
      m_divergence->message += *grew;
      return false;
    }
  return true;
}

void Simulation::projectEnergy(double kinetic, double potential) {
  const double target = m_energyTarget - potential;  // the kinetic energy to have
  if (kinetic > 0 && target > 0 && std::abs(target - kinetic) <= kMaxEnergyCorrection * kinetic) {
    m_qd1 *= std::sqrt(target / kinetic);
    m_energyProjected += kinetic + potential - m_energyTarget;
  }
}

const Eigen::VectorXd& Simulation::mujocoEulerAccel(double h) {
  const Eigen::VectorXd& qacc = accel(m_t, m_q, m_qd, m_u);
  if (!m_model.controlled) return qacc;
  bool damped = false;
  for (double b : m_model.damping) damped = damped || b > 0;
  if (!damped) return qacc;
  // mj_Euler: the damping implicit, qacc = (H + h B)^-1 (H qacc) with H at the step's start,
  // H + h B factorised with the tree's sparsity (it has H's pattern)
  if (!m_soft) crba(m_model, m_data, m_q);
  m_eulerAcc.noalias() = m_data.H * qacc;
  for (int i = 0; i < m_model.nb; ++i)
    for (int k = 0; k < m_model.jointNv(i); ++k)
      m_data.H(m_model.vIndex[static_cast<std::size_t>(i)] + k, m_model.vIndex[static_cast<std::size_t>(i)] + k) +=
          h * m_model.damping[static_cast<std::size_t>(i)];
  factorizeMassMatrix(m_model, m_data);
  solveMassMatrix(m_model, m_data, m_eulerAcc);
  return m_eulerAcc;
}

// mj_implicit's implicitfast: qacc = (H - h D)^-1 (H qacc), D the actuator and passive forces'
// derivative in qd (smoothForceVelocityDerivative) at the step's start, kept on H's tree
// pattern (a variable and its ancestors) as MuJoCo keeps it on M's, so that H - h D factorises
// as H does: couplings of branches by a tendon or an actuator are dropped, as MuJoCo drops them
const Eigen::VectorXd& Simulation::mujocoImplicitFastAccel(double h) {
  const Eigen::VectorXd& qacc = accel(m_t, m_q, m_qd, m_u);
  if (!m_model.controlled && !m_model.hasActuation()) return qacc;
  smoothForceVelocityDerivative(m_model, m_data, m_table ? m_ctrlNow : m_ctrl, m_u.tail(m_model.na), m_qDeriv);
  if (m_qDeriv.isZero(0)) return qacc;
  if (!m_soft) crba(m_model, m_data, m_q);
  m_eulerAcc.noalias() = m_data.H * qacc;
  for (int i = 0; i < m_model.nv(); ++i)
    for (int j = i; j >= 0; j = m_model.dofParent[static_cast<std::size_t>(j)]) {
      m_data.H(i, j) -= h * m_qDeriv(i, j);
      if (j != i) m_data.H(j, i) -= h * m_qDeriv(j, i);
    }
  factorizeMassMatrix(m_model, m_data);
  solveMassMatrix(m_model, m_data, m_eulerAcc);
  return m_eulerAcc;
}

// mj_Euler steps a free joint's velocity in MuJoCo's coordinates, the origin's world-frame
// velocity R v, whose derivative R (dv + w x v) holds the velocity product w x v: before the
// positions are stepped (`before`) the linear part of m_qd1 becomes R_n^T (R v)_{n+1}, the
// velocity that integrateConfiguration moves the origin by (R_n (v + h (dv + w x v))); after,
// it is expressed in the new body axes, R_{n+1}^T (R v)_{n+1}
void Simulation::freeJointsInWorldVelocity(double h, bool before) {
  for (int i = 0; i < m_model.nb; ++i) {
    if (m_model.joints[static_cast<std::size_t>(i)].type != JointType::Free) continue;
    const int qi = m_model.qIndex[static_cast<std::size_t>(i)], vi = m_model.vIndex[static_cast<std::size_t>(i)];
    auto v1 = m_qd1.segment<3>(vi + 3);
    if (before) {
      v1 += h * Vec3(m_qd.segment<3>(vi)).cross(Vec3(m_qd.segment<3>(vi + 3)));
    } else {
      const Eigen::Quaterniond q0(m_q(qi + 3), m_q(qi + 4), m_q(qi + 5), m_q(qi + 6));
      const Eigen::Quaterniond q1(m_q1(qi + 3), m_q1(qi + 4), m_q1(qi + 5), m_q1(qi + 6));
      v1 = q1.normalized().conjugate() * (q0.normalized() * Vec3(v1));
    }
  }
}

bool Simulation::fixedStep(double h) {
  holdStops();
  if (euler()) {
    const bool implicitFast = m_opt.integrator == Integrator::MujocoImplicitFast;
    const bool mujoco = m_opt.integrator == Integrator::MujocoEuler || implicitFast;
    m_qd1 = m_qd + h * (implicitFast ? mujocoImplicitFastAccel(h) : mujoco ? mujocoEulerAccel(h) : accel(m_t, m_q, m_qd, m_u));
    if (mujoco) freeJointsInWorldVelocity(h, true);
    if (m_model.hasQuaternions)
      integrateConfiguration(m_model, m_q, m_qd1, h, m_q1);
    else
      m_q1 = m_q + h * m_qd1;
    if (mujoco) freeJointsInWorldVelocity(h, false);
    if (m_u.size()) m_u1 = m_u + h * m_udot;
    // close the loops with the step's own constraint impulse (SHAKE): projecting normal to
    // the constraints instead would shift the energy by O(h^2) every step
    if (m_cons && m_q1.allFinite() && m_qd1.allFinite())
      closeConstraintsAfterStep(m_model, m_data, *m_cons, m_q1, m_qd1, h);
  } else {
    // RK4 on (q, qd, u)
    stage(0, m_t, m_q, m_qd, m_u);
    for (int k = 1; k < 4; ++k) {
      const double c = k == 3 ? h : 0.5 * h;
      m_q1 = m_q + c * m_kq[k - 1];
      m_qd1 = m_qd + c * m_kv[k - 1];
      if (m_u.size()) m_u1 = m_u + c * m_ku[k - 1];
      stage(k, m_t + c, m_q1, m_qd1, m_u1);
    }
    m_q1 = m_q + (h / 6) * (m_kq[0] + 2 * m_kq[1] + 2 * m_kq[2] + m_kq[3]);
    m_qd1 = m_qd + (h / 6) * (m_kv[0] + 2 * m_kv[1] + 2 * m_kv[2] + m_kv[3]);
    if (m_u.size()) m_u1 = m_u + (h / 6) * (m_ku[0] + 2 * m_ku[1] + 2 * m_ku[2] + m_ku[3]);
  }
  return commit(h);
}

bool Simulation::commit(double h) {
  const double t0 = m_t;
  m_t += h;
  double constraintError = 0.0;
  if (m_model.hasQuaternions) normalizeConfiguration(m_model, m_q1);
  if (m_cons && m_q1.allFinite() && m_qd1.allFinite())
    constraintError = projectConstraints(m_model, m_data, *m_cons, m_q1, m_qd1);
  if (m_model.stops && m_q1.allFinite() && m_qd1.allFinite()) applyStops(h, constraintError);
  // what damping and the holding forces took over the step: semi-implicit Euler by the trapezoid
  // rule (and the holding forces in applyStops); RK4 and dopri5 by their own quadrature of the
  // stages' power, so that E + dissipated keeps the integrator's order
  if (euler()) {
    if (m_model.controlled && m_qd1.allFinite())
      m_energyDissipated += 0.5 * h * (dampingPower(m_qd) + dampingPower(m_qd1));
    // the soft constraints' and the actuators' forces of the step's start, held over the step,
    // with the step's mean velocity: a constant force f changes qd by h H^-1 f, so the kinetic
    // energy by h f . (qd + qd')/2 (exactly, for H constant over the step). With qd' (the
    // motion's h qd' of q) the account drifted by O(h) over time: h/2 f . (qd' - qd) a step,
    // which for a servo's spring (f = -kp q) adds up to h/2 kp qd^2 dt: 1.3% of the driven
    // arm's work in 5 s at 1 ms. Dry friction dissipates; a limit's or an equality's spring
    // stores what it takes back.
    if (m_soft && m_qd1.allFinite()) m_energyDissipated -= 0.5 * h * m_soft->qfrcConstraint.dot(m_qd + m_qd1);
    if (m_model.hasActuation() && m_qd1.allFinite()) {
      if (!m_model.actuators.empty()) m_actuatorWork += 0.5 * h * m_data.qfrcActuator.dot(m_qd + m_qd1);
      if (m_model.tendonDamping) {  // the tendon dampers' by the trapezoid rule, as the joints' damping
        double end = 0.0;
        for (std::size_t k = 0; k < m_model.tendons.size(); ++k) {
          const double v = m_data.tendonMoment.row(static_cast<Eigen::Index>(k)).dot(m_qd1);
          end += m_model.tendons[k].damping * v * v;
        }
        m_energyDissipated += 0.5 * h * (tendonDampingPower(m_model, m_data) + end);
      }
    }
  } else if (m_opt.integrator == Integrator::RK4) {
    m_energyDissipated += h / 6 * (m_stagePower[0] + 2 * m_stagePower[1] + 2 * m_stagePower[2] + m_stagePower[3]);
    m_actuatorWork += h / 6 * (m_stageWork[0] + 2 * m_stageWork[1] + 2 * m_stageWork[2] + m_stageWork[3]);
  } else {
    for (int j = 0; j < 6; ++j) {
      m_energyDissipated += h * kA[6][j] * m_stagePower[j];
      m_actuatorWork += h * kA[6][j] * m_stageWork[j];
    }
  }
  if (m_model.na) clampActivations(m_model, m_u1.tail(m_model.na));
  double kinetic = 0.0, potential = 0.0;
  if (!check(constraintError, kinetic, potential)) {
    m_t = t0;
    return false;
  }
  if (energyProjectionActive()) projectEnergy(kinetic, potential);
  m_q.swap(m_q1);
  m_qd.swap(m_qd1);
  m_u.swap(m_u1);
  m_energyCurrent = false;  // energy() computes it when asked
  ++m_steps;
  return true;
}

// At the start of a step: the joints resting on a stop (at it, not moving), or at rest with
// friction, are held inside the step's stages by a joint force that keeps their acceleration
// zero while it stays in the stop's or the friction's box (holdJoints). Without this a joint
// on its stop would move freely inside the step and only be stopped after it, and a light limb
// pressed by stiff contact could settle into a wrong steady motion.
void Simulation::holdStops() {
  m_held.clear();
  if (!m_model.stops) return;
  for (int i = 0; i < m_model.nb; ++i) {
    if (hasQuaternion(m_model.joints[i].type)) continue;
    const int vi = m_model.vIndex[i];
    if (!(std::abs(m_qd(vi)) <= 1e-9)) continue;  // moving: the impulses after the step act
    const auto r = static_cast<Eigen::Index>(m_held.size());
    if (stopBox(m_model, i, m_q(m_model.qIndex[i]), m_model.friction[i], m_heldLo(r), m_heldHi(r)))
      m_held.push_back(vi);
  }
}

// the stage's accelerations qdd with the forces that hold the held joints (holdStops)
const Eigen::VectorXd& Simulation::holdJoints(const Eigen::VectorXd& q, const Eigen::VectorXd& qdd) {
  m_acc = qdd;
  crba(m_model, m_data, q);
  factorizeMassMatrix(m_model, m_data);
  inverseColumns(m_model, m_data, m_cons ? &*m_cons : nullptr, q, m_held, m_heldMinv, m_w0);
  solveBoxed(m_held, m_heldMinv, m_w0, m_heldLo, m_heldHi, m_heldForce, m_acc);
  return m_acc;
}

// minus the power of the forces holding the held joints at velocities qd (after holdJoints)
double Simulation::heldPower(const Eigen::VectorXd& qd) const {
  double p = 0.0;
  for (std::size_t r = 0; r < m_held.size(); ++r) p -= m_heldForce(static_cast<Eigen::Index>(r)) * qd(m_held[r]);
  return p;
}

double Simulation::dampingPower(const Eigen::VectorXd& qd) const {
  double p = 0.0;
  for (int i = 0; i < m_model.nb; ++i)
    if (m_model.damping[i] > 0)
      p += m_model.damping[i] * qd.segment(m_model.vIndex[i], m_model.jointNv(i)).squaredNorm();
  return p;
}

// Stops and Coulomb friction after a step of h (model.stops). Every joint at or past a stop, or with friction, is a row of a boxed LCP on
// impulses lambda (N m s or N s): qd' = qd + H^-1 lambda with
//   at its lower stop  lambda in [-f h, inf),  at its upper stop  (-inf, f h],
//   friction alone     [-f h, f h],            at both (a locked joint)  (-inf, inf),
// and qd'_i = 0 wherever lambda_i lies inside its box: an inelastic stop that also holds by
// friction, and Coulomb friction that sticks while f h can stop the joint (time-stepping in
// the manner of Moreau, and Stewart & Trinkle 1996). Projected Gauss-Seidel solves it; one row
// takes one sweep. The impulse is taken as a constant force over the step, so q moves by
// h/2 (qd' - qd) as well (h (qd' - qd) with semi-implicit Euler, which moves q by the end
// velocity): a joint held by friction or resting on a stop then stays exactly where it is,
// and one sliding against friction follows the exact constant-force motion (RK4, dopri5).
// Last, a joint whose stop pushed, or that is still past one, is put on it: a stop's impact
// happens within the step, and the joint ends the step on the stop. With constraints (loops,
// couplings) the impulses act through the constrained inverse and the constraints are closed
// again with those joints held (constraintError: the projection's). The energy all this
// removes is added to m_energyDissipated.
void Simulation::applyStops(double h, double& constraintError) {
  const double inf = std::numeric_limits<double>::infinity();
  // semi-implicit Euler moves q with the step's end velocity, so by h dqd (Moreau's scheme)
  const double moved = euler() ? h : 0.5 * h;
  // semi-implicit Euler: the work of the forces that held joints inside the step (holdStops:
  // they start the step at rest), F h qd', exact as q moves by h qd' (RK4 and dopri5 take it
  // with damping's in commit)
  if (euler())
    for (std::size_t r = 0; r < m_held.size(); ++r)
      m_energyDissipated -= h * m_heldForce(static_cast<Eigen::Index>(r)) * m_qd1(m_held[r]);
  m_rows.clear();
  for (int i = 0; i < m_model.nb; ++i) {
    if (hasQuaternion(m_model.joints[i].type)) continue;
    // a joint held inside the step has had its friction there
    const bool held = std::find(m_held.begin(), m_held.end(), m_model.vIndex[i]) != m_held.end();
    const auto r = static_cast<Eigen::Index>(m_rows.size());
    if (stopBox(m_model, i, m_q1(m_model.qIndex[i]), held ? 0.0 : m_model.friction[i] * h, m_lo(r), m_hi(r)))
      m_rows.push_back(m_model.vIndex[i]);
  }
  if (m_rows.empty()) return;
  double kinetic = 0.0, potential = 0.0;
  detail::kineticPotential(m_model, m_data, m_q1, m_qd1, kinetic, potential);
  const double before = kinetic + potential;
  crba(m_model, m_data, m_q1);
  factorizeMassMatrix(m_model, m_data);
  const auto n = static_cast<Eigen::Index>(m_rows.size());
  inverseColumns(m_model, m_data, m_cons ? &*m_cons : nullptr, m_q1, m_rows, m_minv, m_w0);
  m_dqd = m_qd1;
  solveBoxed(m_rows, m_minv, m_w0, m_lo, m_hi, m_lambda, m_qd1);
  m_dqd = m_qd1 - m_dqd;
  integrateConfiguration(m_model, m_q1, m_dqd, moved, m_q1);
  m_pinned.clear();
  for (int i = 0, r = 0; i < m_model.nb; ++i) {  // onto the stops
    if (hasQuaternion(m_model.joints[i].type)) continue;
    const JointLimits& l = m_model.limits[i];
    double& q = m_q1(m_model.qIndex[i]);
    const bool row = r < n && m_rows[static_cast<std::size_t>(r)] == m_model.vIndex[i];
    const double lambda = row ? m_lambda(r++) : 0.0;
    // a stop that pushed holds its joint on it (an impact ends there, not h/2 qd short of it)
    const double was = q;
    if (l.lower && (q < *l.lower || (lambda > 0 && m_hi(r - 1) == inf))) q = *l.lower;
    if (l.upper && (q > *l.upper || (lambda < 0 && m_lo(r - 1) == -inf))) q = *l.upper;
    if (q != was || (row && (m_lo(r - 1) == -inf || m_hi(r - 1) == inf))) m_pinned.push_back(m_model.vIndex[i]);
  }
  // the impulses keep G qd (the constrained inverse), but putting a joint onto its stop moves
  // it alone: the loops and couplings are closed again by the other joints, as part of the
  // stops' work
  if (m_cons) {
    constraintError = projectConstraints(m_model, m_data, *m_cons, m_q1, m_qd1, 1e-12, 10, &m_pinned);
    // the pinned joints may be all a constraint has (two coupled joints on stops that do not
    // agree): then the constraint wins over the stops
    if (!(constraintError <= kMaxConstraintError))
      constraintError = projectConstraints(m_model, m_data, *m_cons, m_q1, m_qd1);
  }
  detail::kineticPotential(m_model, m_data, m_q1, m_qd1, kinetic, potential);
  m_energyDissipated += before - (kinetic + potential);
}

bool Simulation::adaptiveStep(double hMax) {
  const int nq = m_model.nq(), nv = m_model.nv();
  holdStops();
  for (;;) {
    const double h = std::min(m_h, hMax);
    stage(0, m_t, m_q, m_qd, m_u);
    for (int s = 1; s < 7; ++s) {
      m_q1 = m_q;
      m_qd1 = m_qd;
      m_u1 = m_u;
      for (int j = 0; j < s; ++j) {
        if (kA[s][j] == 0.0) continue;
        m_q1 += (h * kA[s][j]) * m_kq[j];
        m_qd1 += (h * kA[s][j]) * m_kv[j];
        if (m_u.size()) m_u1 += (h * kA[s][j]) * m_ku[j];
      }
      stage(s, m_t + kC[s] * h, m_q1, m_qd1, m_u1);
    }
    // stage 7 is the 5th-order solution (FSAL); m_q1/m_qd1/m_u1 hold it
    m_errq.setZero();
    m_errv.setZero();
    m_erru.setZero();
    for (int s = 0; s < 7; ++s) {
      if (kE[s] == 0.0) continue;
      m_errq += (h * kE[s]) * m_kq[s];
      m_errv += (h * kE[s]) * m_kv[s];
      if (m_u.size()) m_erru += (h * kE[s]) * m_ku[s];
    }
    double sum = 0.0;
    for (int i = 0; i < std::max(nq, nv); ++i) {
      double term = 0.0;
      if (i < nq) {
        const double sq =
            m_opt.absTol + m_opt.relTol * std::max(std::abs(m_q(i)), std::abs(m_q1(i)));
        term += (m_errq(i) / sq) * (m_errq(i) / sq);
      }
      if (i < nv) {
        const double sv =
            m_opt.absTol + m_opt.relTol * std::max(std::abs(m_qd(i)), std::abs(m_qd1(i)));
        term += (m_errv(i) / sv) * (m_errv(i) / sv);
      }
      sum += term;
    }
    const auto nu = m_u.size();
    for (Eigen::Index i = 0; i < nu; ++i) {
      const double su = m_opt.absTol + m_opt.relTol * std::max(std::abs(m_u(i)), std::abs(m_u1(i)));
      sum += (m_erru(i) / su) * (m_erru(i) / su);
    }
    const double err =
        nq + nv + nu ? std::sqrt(sum / static_cast<double>(nq + nv + nu)) : 0.0;
    const double factor = std::min(5.0, std::max(0.2, 0.9 * std::pow(std::max(err, 1e-16), -0.2)));
    if (err <= 1.0 && std::isfinite(err)) {
      if (!commit(h)) return false;
      if (h == m_h || factor < 1.0) m_h = std::min(h * factor, m_opt.dt);
      return true;
    }
    ++m_rejected;
    m_h = h * (std::isfinite(err) ? factor : 0.2);
    if (m_h < m_opt.minDt) {
      std::ostringstream s;
      s << "the simulation diverged at t = " << m_t << " s: dopri5 needs a step below "
        << m_opt.minDt << " s";
      m_divergence = Divergence{m_t, "step size", s.str()};
      return false;
    }
  }
}

bool Simulation::step() {
  if (m_divergence) return false;
  try {
    if (m_opt.integrator == Integrator::DormandPrince45) return adaptiveStep(m_opt.dt);
    return fixedStep(m_opt.dt);
  } catch (const SingularInertiaError& e) {
    return singular(e);
  }
}

bool Simulation::singular(const SingularInertiaError& e) {
  // no acceleration exists at this state: the simulation stops at its last good state, as on
  // any divergence (the stages of the failed step never reached m_q, m_qd)
  std::ostringstream s;
  s << "the simulation cannot go on at t = " << m_t << " s: " << e.what()
    << " (a body without mass or inertia where the motion needs some)";
  m_divergence = Divergence{m_t, "joint-space inertia", s.str()};
  return false;
}

bool Simulation::advanceTo(double t) {
  if (m_divergence) return false;
  try {
    return advanceSteps(t);
  } catch (const SingularInertiaError& e) {
    return singular(e);
  }
}

bool Simulation::advanceSteps(double t) {
  const double eps = 1e-12 * std::max(1.0, std::abs(t));
  while (t - m_t > eps) {
    const double remaining = t - m_t;
    const bool ok = m_opt.integrator == Integrator::DormandPrince45
                        ? adaptiveStep(remaining)
                        : fixedStep(std::min(m_opt.dt, remaining));
    if (!ok) return false;
    // a last step of dt that overshoots by rounding lands exactly on t
    if (std::abs(t - m_t) <= eps) m_t = t;
  }
  m_t = std::max(m_t, t);
  return true;
}

}  // namespace art
