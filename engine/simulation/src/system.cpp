// The system interface, and its kinematic-tree and rigid-body implementations (see system.h).
#include "articulate/simulation/system.h"

#include <cmath>
#include <limits>
#include <stdexcept>

#include <Eigen/Geometry>

#include "articulate/dynamics/configuration.h"
#include "articulate/dynamics/control.h"

namespace art {

std::string System::positionName(int i) const { return "q[" + std::to_string(i) + "]"; }
std::string System::velocityName(int i) const { return "v[" + std::to_string(i) + "]"; }
std::string System::constraintName(int i) const { return "lambda[" + std::to_string(i) + "]"; }

std::string System::softForceName(int i) const {
  throw std::out_of_range("System: no soft force channel " + std::to_string(i));
}

void System::checkSize(Eigen::Index n, Eigen::Index expected, const char* what) {
  if (n != expected)
    throw std::invalid_argument(std::string("System: ") + what + " has " + std::to_string(n) +
                                " entries, expected " + std::to_string(expected));
}

void System::evaluate(double t, const VecRef& q, const VecRef& v) {
  if (auxiliarySize() == 0) {
    evaluate(t, q, v, Eigen::VectorXd());
    return;
  }
  Eigen::VectorXd w(auxiliarySize());  // allocates: the solver-facing path passes w itself
  auxiliaryState(w);
  evaluate(t, q, v, w);
}

void System::constraintJacobian(MatOut G) {
  if (G.rows() != constraintSize() || G.cols() != velocitySize())
    throw std::invalid_argument("System: G must be constraintSize() x velocitySize()");
}

void System::currentConstraintForces(VecOut lambda) {
  checkSize(lambda.size(), constraintSize(), "lambda");
  if (constraintSize() == 0) return;
  evaluate(time(), positions(), velocities());
  constraintForces(lambda);
}

void System::recordEvaluation(double t, const VecRef& q, const VecRef& v, const VecRef& w) {
  m_evalT = t;
  m_evalQ = q;
  m_evalV = v;
  m_evalW = w;
}

Mat3 System::contactFrame(const Vec3& normal) {
  const Vec3 n = normal.normalized();
  // x unless n is within 25 degrees of it (|n.x| > cos 25deg), then y
  const Vec3 e = std::abs(n.x()) > 0.9063 ? Vec3::UnitY() : Vec3::UnitX();
  const Vec3 t1 = (e - n.dot(e) * n).normalized();
  Mat3 F;
  F.col(0) = t1;
  F.col(1) = n.cross(t1);
  F.col(2) = n;
  return F;
}

void System::contactJacobians(MatOut N, MatOut D) {
  const int nv = velocitySize(), np = contactSize();
  if (N.rows() != np || N.cols() != nv || D.rows() != 2 * np || D.cols() != nv)
    throw std::invalid_argument(
        "System: N must be contactSize() x velocitySize() and D 2 contactSize() x velocitySize()");
}

void System::forceJacobians(MatOut Kq, MatOut Kv) {
  const int nv = velocitySize();
  if (Kq.rows() != nv || Kq.cols() != nv || Kv.rows() != nv || Kv.cols() != nv)
    throw std::invalid_argument("System: Kq and Kv must be velocitySize() x velocitySize()");
  if (m_evalQ.size() != positionSize())
    throw std::logic_error("System::forceJacobians: no evaluation point (evaluate() first)");
  // copies: evaluate() below overwrites the recorded point
  const double t = m_evalT;
  const Eigen::VectorXd q = m_evalQ, v = m_evalV, w = m_evalW;
  Eigen::VectorXd qp(q.size()), qm(q.size()), vp = v, vm = v, fp(nv), fm(nv), dir = Eigen::VectorXd::Zero(nv);
  const double eps = 1e-6;
  for (int j = 0; j < nv; ++j) {
    dir(j) = 1.0;
    integratePositions(q, dir, eps, qp);
    integratePositions(q, dir, -eps, qm);
    dir(j) = 0.0;
    evaluate(t, qp, v, w);
    generalizedForces(fp);
    evaluate(t, qm, v, w);
    generalizedForces(fm);
    Kq.col(j) = (fp - fm) / (2 * eps);
    const double hv = eps * (1.0 + std::abs(v(j)));
    vp(j) = v(j) + hv;
    vm(j) = v(j) - hv;
    evaluate(t, q, vp, w);
    generalizedForces(fp);
    evaluate(t, q, vm, w);
    generalizedForces(fm);
    Kv.col(j) = (fp - fm) / (2 * hv);
    vp(j) = vm(j) = v(j);
  }
  evaluate(t, q, v, w);
}

// ------------------------------------------------------------------------------------ tree

struct TreeSystem::Evaluation {
  explicit Evaluation(const Model& m)
      : data(m),
        q(Eigen::VectorXd::Zero(m.nq())),
        v(Eigen::VectorXd::Zero(m.nv())),
        w(Eigen::VectorXd::Zero(contactStateSize(m) + m.na)),
        tau(Eigen::VectorXd::Zero(m.nv())),
        fext(Eigen::MatrixXd::Zero(m.arithmetic == Arithmetic::Planar ? 3 : 6, m.nb)) {
    if (!m.constraints.empty()) cons.emplace(m);
    if (!m.contacts.empty()) contact.emplace(m);
  }
  Data data;
  std::optional<ConstraintData> cons;
  std::optional<ContactData> contact;
  std::optional<ContactData> contactJ;  // contactJacobians' workspace
  Eigen::VectorXd unit;                 // a unit velocity (contactJacobians)
  Eigen::VectorXd q, v, w, tau;  // the point, and the joint forces there (constant + controls)
  ExternalForces fext;            // model forces, ground reactions, perturbation (base coordinates)
  double t = 0.0;
  const ExternalForces* fextUsed = nullptr;  // fext, contact->fext or null (needForces)
  bool forces = false, mass = false, constraints = false;
};

TreeSystem::TreeSystem(std::shared_ptr<const Model> model, const SimulationOptions& options)
    : m_model(std::move(model)),
      m_options(options),
      m_sim(std::make_unique<Simulation>(*m_model, options)),
      m_data(*m_model) {
  build();
}

TreeSystem::~TreeSystem() = default;

void TreeSystem::setModel(std::shared_ptr<const Model> model, const SimulationOptions& options) {
  auto sim = std::make_unique<Simulation>(*model, options);  // throws before anything changes
  m_sim = std::move(sim);
  m_model = std::move(model);
  m_options = options;
  m_data = Data(*m_model);
  build();
  bumpStructureVersion();
}

void TreeSystem::build() {
  m_nc = constraintRowCount(*m_model);
  m_softNames = m_model->soft ? softChannelNames(*m_model) : std::vector<std::string>();
  m_tau = Eigen::VectorXd::Zero(m_model->nv());
  m_eval = std::make_unique<Evaluation>(*m_model);
  evaluate(0.0, m_sim->q(), m_sim->qd(), m_eval->w);
}

void TreeSystem::setJointForces(const Eigen::VectorXd& tau) {
  m_sim->setJointForces(tau);
  m_tau = tau;
  m_eval->forces = false;
}

namespace {
// the joint owning position (or velocity) variable i, and the variable's place in it
std::string variableOwner(const Model& m, int i, bool velocity) {
  for (int j = 0; j < m.nb; ++j) {
    const int start = velocity ? m.vIndex[j] : m.qIndex[j];
    const int size = velocity ? m.jointNv(j) : m.jointNq(j);
    if (i >= start && i < start + size) {
      if (size == 1) return " " + m.names[j];
      // a ball joint's variables are a free joint's rotational ones
      static const char* const q7[] = {"x", "y", "z", "qw", "qx", "qy", "qz"};
      static const char* const v6[] = {"wx", "wy", "wz", "vx", "vy", "vz"};
      const int k = i - start + (!velocity && m.joints[j].type == JointType::Ball ? 3 : 0);
      return " " + m.names[j] + "." + (velocity ? v6[k] : q7[k]);
    }
  }
  return "";
}
}  // namespace

std::string TreeSystem::positionName(int i) const {
  return System::positionName(i) + variableOwner(*m_model, i, false);
}

std::string TreeSystem::velocityName(int i) const {
  return "qd[" + std::to_string(i) + "]" + variableOwner(*m_model, i, true);
}

std::vector<int> TreeSystem::quaternionBlocks() const {
  std::vector<int> blocks;
  for (int j = 0; j < m_model->nb; ++j)
    if (hasQuaternion(m_model->joints[j].type))
      blocks.push_back(m_model->qIndex[j] + quaternionOffset(m_model->joints[j].type));
  return blocks;
}

std::string TreeSystem::constraintName(int i) const {
  const Model& m = *m_model;
  const bool planar = m.arithmetic == Arithmetic::Planar;
  int row = 0;
  for (std::size_t k = 0; k < m.constraints.size(); ++k) {
    const ConstraintSpec& c = m.constraints[k];
    const std::string name = c.name.empty() ? "constraint" + std::to_string(k + 1) : c.name;
    if (c.type == ConstraintSpec::Type::Coupling) {
      if (i == row) return name;
      ++row;
      continue;
    }
    static const char* const spatial[] = {"x", "y", "z", "ax", "ay", "az"};
    static const char* const flat[] = {"x", "y", "az"};
    const int rows = (planar ? 2 : 3) + (c.align ? (planar ? 1 : 3) : 0);
    if (i < row + rows) return name + "." + (planar ? flat : spatial)[i - row];
    row += rows;
  }
  return System::constraintName(i);
}

void TreeSystem::setState(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  m_sim->setState(t, q, v);
}

void TreeSystem::reset() { m_sim->setState(0.0, m_model->q0, m_model->qd0); }

EnergySample TreeSystem::energy() {
  const EnergyMomentum e = m_sim->energy();
  return {e.kinetic, e.potential};
}

void TreeSystem::currentConstraintForces(VecOut lambda) {
  checkSize(lambda.size(), m_nc, "lambda");
  if (m_nc) lambda = m_sim->constraintForces();  // the simulation's own accel at its state
}

int TreeSystem::softForceSize() const { return static_cast<int>(m_softNames.size()); }

std::string TreeSystem::softForceName(int i) const {
  if (i < 0 || i >= softForceSize()) return System::softForceName(i);
  return m_softNames[static_cast<std::size_t>(i)];
}

void TreeSystem::currentSoftForces(VecOut f) {
  checkSize(f.size(), softForceSize(), "soft forces");
  if (const SoftConstraintData* soft = softForceSize() ? m_sim->softConstraints() : nullptr) softChannelForces(*soft, f);
}

int TreeSystem::equalitySize() const {
  return m_sim->softConstraintData() ? static_cast<int>(m_model->equalities.size()) : 0;
}

std::vector<char> TreeSystem::equalityActive() const {
  const SoftConstraintData* soft = m_sim->softConstraintData();
  return soft ? soft->equalityActive : std::vector<char>();
}

void TreeSystem::setEqualityActive(const std::vector<char>& active) {
  checkSize(static_cast<Eigen::Index>(active.size()), equalitySize(), "equality switches");
  if (SoftConstraintData* soft = m_sim->softConstraintData())
    for (std::size_t k = 0; k < active.size(); ++k) soft->equalityActive[k] = active[k] != 0;
}

void TreeSystem::positionDerivative(const VecRef& q, const VecRef& v, VecOut qdot) const {
  configurationDerivative(*m_model, q, v, qdot);
}

void TreeSystem::integratePositions(const VecRef& q, const VecRef& v, double h,
                                    VecOut qout) const {
  integrateConfiguration(*m_model, q, v, h, qout);
}

void TreeSystem::normalizePositions(VecOut q) const { normalizeConfiguration(*m_model, q); }

std::optional<SolverReport> TreeSystem::solverReport() const {
  const SoftConstraintData* soft = m_sim->softConstraintData();
  if (!soft) return std::nullopt;
  SolverReport r;
  r.solver = solverName(m_model->physics.solver);
  r.iterations = soft->iterations;
  r.rows = soft->nefc;
  for (int i = 0; i < soft->nefc; ++i) r.active += soft->force(i) != 0.0;
  r.gradient = soft->gradient;
  for (int i = 0; i < soft->ne; ++i) r.violation = std::max(r.violation, std::abs(soft->pos(i)));
  r.contacts = static_cast<int>(soft->contacts.size());
  return r;
}

void TreeSystem::bodyContacts(std::vector<ContactReport>& out) {
  out.clear();
  if (m_model->geoms.empty()) return;
  const SoftConstraintData* soft = m_sim->softConstraints();
  if (!soft) return;
  for (std::size_t k = 0; k < soft->contacts.size(); ++k) {
    const Contact& c = soft->contacts[k];
    const Vec6 f = contactForce(*soft, static_cast<int>(k));
    // the force on geom2, or on geom1 where geom2 is static: what the floor or a table does to
    // the body resting on it
    const double side = m_model->geoms[static_cast<std::size_t>(c.geom2)].body < 0 ? -1.0 : 1.0;
    ContactReport r;
    r.position = c.pos;
    r.normal = side * c.frame.row(0).transpose();
    r.distance = c.dist;
    r.normalForce = f(0);
    r.frictionForce = side * (f(1) * c.frame.row(1).transpose() + f(2) * c.frame.row(2).transpose());
    out.push_back(r);
  }
}

std::string TreeSystem::actuatorName(int i) const {
  if (i < 0 || i >= m_model->nu()) throw std::invalid_argument("TreeSystem::actuatorName: no actuator " + std::to_string(i));
  const std::string& name = m_model->actuators[static_cast<std::size_t>(i)].name;
  return name.empty() ? "actuator " + std::to_string(i) : name;
}

std::optional<std::array<double, 2>> TreeSystem::controlRange(int i) const {
  if (i < 0 || i >= m_model->nu()) throw std::invalid_argument("TreeSystem::controlRange: no actuator " + std::to_string(i));
  return m_model->actuators[static_cast<std::size_t>(i)].ctrlRange;
}

void TreeSystem::setControls(const Eigen::VectorXd& ctrl) {
  checkSize(ctrl.size(), actuatorSize(), "ctrl");
  m_sim->setControls(ctrl);
  m_eval->forces = false;
}

void TreeSystem::setControlTable(std::shared_ptr<const ControlTable> table) {
  m_sim->setControlTable(std::move(table));
  m_eval->forces = false;
}

void TreeSystem::auxiliaryState(VecOut w) const {
  checkSize(w.size(), auxiliarySize(), "w");
  w = m_sim->auxiliaryState();
}

void TreeSystem::setAuxiliaryState(const VecRef& w) {
  checkSize(w.size(), auxiliarySize(), "w");
  m_sim->setAuxiliaryState(w);
}

void TreeSystem::evaluate(double t, const VecRef& q, const VecRef& v, const VecRef& w) {
  checkSize(q.size(), m_model->nq(), "q");
  checkSize(v.size(), m_model->nv(), "v");
  checkSize(w.size(), auxiliarySize(), "w");
  Evaluation& e = *m_eval;
  e.t = t;
  e.q = q;
  e.v = v;
  e.w = w;
  e.forces = e.mass = e.constraints = false;
  recordEvaluation(t, q, v, w);
}

void TreeSystem::needForces() {
  Evaluation& e = *m_eval;
  if (e.forces) return;
  const Model& m = *m_model;
  e.fextUsed = treeExternalForces(m, e.data, e.contact ? &*e.contact : nullptr,
                                  m_sim->perturbation(), e.q, e.v, e.w, e.fext);
  e.tau = m_tau;
  if (m.controlled) addControlForces(m, e.t, e.q, e.v, e.tau);
  if (m.hasActuation()) {
    actuation(m, e.data, e.q, e.v, m_sim->controlsAt(e.t), e.w.tail(m.na));
    e.tau += e.data.qfrcActuator;
    e.tau += e.data.qfrcPassive;
  }
  biasForces(m, e.data, e.q, e.v, e.fextUsed);
  e.forces = true;
}

void TreeSystem::equalitySegments(const Eigen::VectorXd& q, std::vector<SegmentReport>& out) {
  const Model& m = *m_model;
  bool any = false;
  for (const EqualitySpec& e : m.equalities)
    any = any || e.type == EqualitySpec::Type::Connect || e.type == EqualitySpec::Type::Weld;
  if (!any) return;
  forwardKinematics(m, m_data, q);
  const auto pose = [&](int body, Mat3& R, Vec3& r) {
    R.setIdentity();
    r.setZero();
    if (body < 0) return;
    const BodyPose p = bodyPose(m, m_data, body);
    R = p.rotation;
    r = p.position;
  };
  const SoftConstraintData* soft = m_sim->softConstraintData();
  for (std::size_t k = 0; k < m.equalities.size(); ++k) {
    const EqualitySpec& e = m.equalities[k];
    if (e.type != EqualitySpec::Type::Connect && e.type != EqualitySpec::Type::Weld) continue;
    Mat3 R1, R2;
    Vec3 r1, r2;
    pose(e.obj1, R1, r1);
    pose(e.obj2, R2, r2);
    SegmentReport s;
    s.kind = SegmentReport::Kind::Equality;
    s.a = R1 * e.anchor1 + r1;
    s.b = R2 * e.anchor2 + r2;
    s.violation = (s.a - s.b).norm();
    s.active = !soft || soft->equalityActive[k];
    if (e.type == EqualitySpec::Type::Weld) {
      const Eigen::Quaterniond q1 = Eigen::Quaterniond(R1) * Eigen::Quaterniond(e.quat1(0), e.quat1(1), e.quat1(2), e.quat1(3));
      const Eigen::Quaterniond q2 = Eigen::Quaterniond(R2) * Eigen::Quaterniond(e.quat2(0), e.quat2(1), e.quat2(2), e.quat2(3));
      s.violation += 0.1 * q1.angularDistance(q2);
    }
    out.push_back(s);
  }
}

void TreeSystem::segments(const Eigen::VectorXd& q, const Eigen::VectorXd& v, std::vector<SegmentReport>& out) {
  const Model& m = *m_model;
  out.clear();
  const bool rods = std::any_of(m.actuators.begin(), m.actuators.end(), [](const ActuatorSpec& a) {
    return a.transmission == ActuatorSpec::Transmission::SliderCrank;
  });
  checkSize(q.size(), m.nq(), "q");
  equalitySegments(q, out);
  if (!rods && std::none_of(m.tendons.begin(), m.tendons.end(), [](const TendonSpec& t) { return t.spatial(); })) return;
  if (v.size()) checkSize(v.size(), m.nv(), "v");
  const Eigen::VectorXd& u = m_sim->auxiliaryState();
  if (v.size())
    actuation(m, m_data, q, v, m_sim->controls(), u.tail(m.na));
  else
    actuation(m, m_data, q, Eigen::VectorXd::Zero(m.nv()), m_sim->controls(), u.tail(m.na));
  for (std::size_t k = 0; k < m.tendons.size(); ++k) {
    const TendonSpec& t = m.tendons[k];
    if (!t.spatial()) continue;
    const auto r = static_cast<Eigen::Index>(k);
    double tension = t.stiffness * (m_data.tendonLength(r) - m_data.tendonSpringLength(r)) + t.damping * m_data.tendonVelocity(r);
    for (std::size_t a = 0; a < m.actuators.size(); ++a)
      if (m.actuators[a].transmission == ActuatorSpec::Transmission::Tendon && m.actuators[a].target == static_cast<int>(k))
        tension -= m_data.actuatorForce(static_cast<Eigen::Index>(a)) * m.actuators[a].gear[0];
    for (int p = m_data.tendonPathStart[k] + 1; p < m_data.tendonPathStart[k + 1]; ++p) {
      if (m_data.tendonPathBranch[static_cast<std::size_t>(p)]) continue;
      SegmentReport s;
      s.kind = SegmentReport::Kind::Cable;
      s.a = m_data.tendonPath.col(p - 1);
      s.b = m_data.tendonPath.col(p);
      s.tension = std::max(0.0, tension);
      s.slack = !(tension > 0);
      out.push_back(s);
    }
  }
  // each slider-crank's connecting rod (pin to piston) and the piston's travel from its site
  for (std::size_t a = 0; rods && a < m.actuators.size(); ++a) {
    if (m.actuators[a].transmission != ActuatorSpec::Transmission::SliderCrank) continue;
    const SliderCrankPoints p = sliderCrankPoints(m, m_data, static_cast<int>(a));
    SegmentReport s;
    s.kind = SegmentReport::Kind::Rod;
    s.a = p.crank;
    s.b = p.piston;
    out.push_back(s);
    s.a = p.slider;
    out.push_back(s);
  }
}

void TreeSystem::setPerturbation(const std::optional<Perturbation>& perturbation) {
  m_sim->setPerturbation(perturbation);
  m_eval->forces = false;
}

double TreeSystem::carriedMass(int body) const {
  const Model& m = *m_model;
  if (body < 0 || body >= m.nb)
    throw std::invalid_argument("TreeSystem::carriedMass: no body " + std::to_string(body));
  // parent[i] < i: one backward sweep adds each body's mass to its ancestors'
  std::vector<double> mass(static_cast<std::size_t>(m.nb));
  for (int i = 0; i < m.nb; ++i)
    mass[static_cast<std::size_t>(i)] = m.arithmetic == Arithmetic::Spatial
                                            ? m.spatial.I[static_cast<std::size_t>(i)](3, 3)
                                            : m.planar.I[static_cast<std::size_t>(i)](1, 1);
  for (int i = m.nb - 1; i > body; --i)
    if (m.parent[static_cast<std::size_t>(i)] >= 0)
      mass[static_cast<std::size_t>(m.parent[static_cast<std::size_t>(i)])] +=
          mass[static_cast<std::size_t>(i)];
  return mass[static_cast<std::size_t>(body)];
}

void TreeSystem::needMass() {
  Evaluation& e = *m_eval;
  if (e.mass) return;
  crba(*m_model, e.data, e.q);
  factorizeMassMatrix(*m_model, e.data);
  e.mass = true;
}

void TreeSystem::needConstraints() {
  Evaluation& e = *m_eval;
  if (e.constraints || !e.cons) return;
  constraintKinematics(*m_model, e.data, *e.cons, e.q, e.v);
  e.constraints = true;
}

void TreeSystem::massMatrix(MatOut M) {
  if (M.rows() != m_model->nv() || M.cols() != m_model->nv())
    throw std::invalid_argument("TreeSystem::massMatrix: M must be nv x nv");
  needMass();
  M = m_eval->data.H;
}

void TreeSystem::solveMass(VecOut b) {
  checkSize(b.size(), m_model->nv(), "b");
  needMass();
  solveMassMatrix(*m_model, m_eval->data, b);
}

void TreeSystem::generalizedForces(VecOut f) {
  checkSize(f.size(), m_model->nv(), "f");
  needForces();
  f = m_eval->tau - m_eval->data.C;
}

void TreeSystem::constraintResidual(VecOut phi) {
  checkSize(phi.size(), m_nc, "phi");
  needConstraints();
  if (m_nc) phi = m_eval->cons->phi;
}

void TreeSystem::constraintJacobian(MatOut G) {
  System::constraintJacobian(G);
  needConstraints();
  if (m_nc) G = m_eval->cons->G;
}

void TreeSystem::constraintVelocityTerm(VecOut gdotv) {
  checkSize(gdotv.size(), m_nc, "Gdot v");
  needConstraints();
  if (m_nc) gdotv = -m_eval->cons->g;
}

void TreeSystem::constraintForces(VecOut lambda) {
  checkSize(lambda.size(), m_nc, "lambda");
  if (!m_nc) return;
  Evaluation& e = *m_eval;
  needForces();
  // the simulation's own constrained dynamics (Baumgarte terms vanish on the manifold); it
  // overwrites the tree workspace and the constraint kinematics with the same point's values
  constrainedForwardDynamics(*m_model, e.data, *e.cons, e.q, e.v, e.tau,
                             e.fextUsed);
  e.constraints = true;
  e.mass = false;  // its factorisation of H is not solveMass's
  lambda = e.cons->lambda;
}

void TreeSystem::auxiliaryRate(VecOut wdot) {
  checkSize(wdot.size(), auxiliarySize(), "w rate");
  if (!m_eval->contact && !m_model->na) return;
  needForces();
  const int nc = contactStateSize(*m_model);
  if (m_eval->contact) wdot.head(nc) = m_eval->contact->udot;
  if (m_model->na) wdot.tail(m_model->na) = m_eval->data.actDot;
}

void TreeSystem::contacts(std::vector<ContactReport>& out) {
  const Model& m = *m_model;
  out.resize(m.contacts.size());
  if (m.contacts.empty()) return;
  needForces();
  const ContactData& c = *m_eval->contact;
  const bool planar = m.arithmetic == Arithmetic::Planar;
  const Vec3 n = planar ? Vec3::UnitY() : Vec3::UnitZ();
  for (std::size_t k = 0; k < out.size(); ++k) {
    ContactReport& r = out[k];
    const auto i = static_cast<Eigen::Index>(k);
    r.position = c.position.col(i);
    r.normal = n;
    r.distance = n.dot(r.position);
    r.normalForce = n.dot(c.force.col(i));
    r.frictionForce = c.force.col(i) - r.normalForce * n;
  }
}

void TreeSystem::contactJacobians(MatOut N, MatOut D) {
  System::contactJacobians(N, D);
  const Model& m = *m_model;
  const int np = static_cast<int>(m.contacts.size()), nv = m.nv();
  if (np == 0) return;
  Evaluation& e = *m_eval;
  if (!e.contactJ) {  // built on first use: a workspace apart from the forces' contact data
    e.contactJ.emplace(m);
    e.unit = Eigen::VectorXd::Zero(nv);
  }
  const Mat3 F = contactFrame(m.arithmetic == Arithmetic::Planar ? Vec3::UnitY() : Vec3::UnitZ());
  // the points' velocities are linear in v: column j is their velocity at v = e_j (the
  // ground's deformation does not enter the kinematics)
  for (int j = 0; j < nv; ++j) {
    e.unit(j) = 1.0;
    groundContact(m, m_data, *e.contactJ, e.q, e.unit, e.w);
    e.unit(j) = 0.0;
    for (int k = 0; k < np; ++k) {
      const Vec3 u = e.contactJ->velocity.col(k);
      N(k, j) = F.col(2).dot(u);
      D(2 * k, j) = F.col(0).dot(u);
      D(2 * k + 1, j) = F.col(1).dot(u);
    }
  }
}

void TreeSystem::bodyPoses(const Eigen::VectorXd& q, std::vector<BodyPose>& poses) {
  forwardKinematics(*m_model, m_data, q);
  poses.resize(m_model->nb);
  for (int i = 0; i < m_model->nb; ++i) poses[i] = bodyPose(*m_model, m_data, i);
}

RigidBodySystem::RigidBodySystem(const RigidBodySpec& spec, double h, double period)
    : m_spec(spec), m_body(spec), m_h(h), m_period(period), m_q(7), m_v(6) {
  if (!(h > 0) || !(period > 0) || !std::isfinite(h) || !std::isfinite(period))
    throw std::invalid_argument("RigidBodySystem: the step and the sample period must be > 0");
  readState();
  evaluate(0.0, m_q, m_v, Eigen::VectorXd());
}

std::string RigidBodySystem::positionName(int i) const {
  static const char* const names[] = {"x", "y", "z", "qw", "qx", "qy", "qz"};
  return i >= 0 && i < 7 ? names[i] : System::positionName(i);
}

std::string RigidBodySystem::velocityName(int i) const {
  static const char* const names[] = {"vx", "vy", "vz", "wx", "wy", "wz"};
  return i >= 0 && i < 6 ? names[i] : System::velocityName(i);
}

void RigidBodySystem::readState() {
  const Eigen::Quaterniond o = m_body.state().orientation;
  const Vec3 c = m_body.comPosition(), vc = m_body.comVelocity(), w = m_body.angularVelocity();
  for (int i = 0; i < 3; ++i) {
    m_q(i) = c(i);
    m_v(i) = vc(i);
    m_v(3 + i) = w(i);
  }
  m_q(3) = o.w();
  m_q(4) = o.x();
  m_q(5) = o.y();
  m_q(6) = o.z();
}

void RigidBodySystem::setState(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  if (q.size() != 7 || v.size() != 6)
    throw std::invalid_argument("RigidBodySystem::setState: expected 7 positions and 6 velocities");
  const Eigen::Quaterniond o = Eigen::Quaterniond(q(3), q(4), q(5), q(6)).normalized();
  m_body.setMotion(t, q.head<3>(), o, v.head<3>(), v.tail<3>());
  m_divergence.reset();
  m_reaction.setZero();
  readState();
}

void RigidBodySystem::reset() {
  m_body = RigidBody(m_spec);
  m_divergence.reset();
  m_reaction.setZero();
  readState();
}

bool RigidBodySystem::advance(double t) {
  if (m_divergence) return false;
  if (!(t > m_body.time())) return true;
  const RigidBody before = m_body;
  m_body.advanceTo(t, m_h);
  readState();
  for (int i = 0; i < 7; ++i)
    if (!std::isfinite(m_q(i)) || (i < 6 && !std::isfinite(m_v(i)))) {
      const std::string what = std::isfinite(m_q(i)) ? velocityName(i) : positionName(i);
      m_divergence = Divergence{before.time(), what,
                                "the simulation diverged after t = " +
                                    std::to_string(before.time()) + " s: " + what +
                                    " is not finite"};
      m_body = before;
      readState();
      return false;
    }
  // the floor's mean reaction over the step: the momentum's change less gravity's impulse
  const double dt = m_body.time() - before.time();
  if (dt > 0) {
    m_reaction = (m_body.momentum() - before.momentum()) / dt - m_body.mass() * m_body.gravity();
    // the momenta's and gravity's round-off is no reaction: a body in flight reports none (a
    // sweep's first-contact time read 1 ms for a 2.5 kg cylinder still in the air)
    const double roundoff = 64 * std::numeric_limits<double>::epsilon() *
                            ((m_body.momentum().norm() + before.momentum().norm()) / dt +
                             m_body.mass() * m_body.gravity().norm());
    if (m_reaction.norm() <= roundoff) m_reaction.setZero();
  }
  return true;
}

bool RigidBodySystem::step() { return advance(m_body.time() + m_period); }

bool RigidBodySystem::advanceTo(double t) { return advance(t); }

void RigidBodySystem::positionDerivative(const VecRef& q, const VecRef& v, VecOut qdot) const {
  checkSize(q.size(), 7, "q");
  checkSize(v.size(), 6, "v");
  checkSize(qdot.size(), 7, "qdot");
  // centre of mass: its velocity; quaternion (w, x, y, z): 1/2 (0, w) * quat, w in world axes
  const Vec3 w = v.tail<3>(), e(q(4), q(5), q(6));
  qdot.head<3>() = v.head<3>();
  qdot(3) = -0.5 * w.dot(e);
  qdot.tail<3>() = 0.5 * (q(3) * w + w.cross(e));
}

void RigidBodySystem::integratePositions(const VecRef& q, const VecRef& v, double h,
                                         VecOut qout) const {
  checkSize(q.size(), 7, "q");
  checkSize(v.size(), 6, "v");
  checkSize(qout.size(), 7, "qout");
  // the exponential map: quat+ = exp(h w / 2) * quat (w in world axes)
  const Eigen::Quaterniond o(q(3), q(4), q(5), q(6));
  const Vec3 w = v.tail<3>();
  const double angle = w.norm() * h;
  const Eigen::Quaterniond turn =
      angle != 0 ? Eigen::Quaterniond(Eigen::AngleAxisd(angle, w.normalized()))
                : Eigen::Quaterniond::Identity();
  const Eigen::Quaterniond o1 = turn * o;
  qout.head<3>() = q.head<3>() + h * v.head<3>();
  qout(3) = o1.w();
  qout(4) = o1.x();
  qout(5) = o1.y();
  qout(6) = o1.z();
}

void RigidBodySystem::normalizePositions(VecOut q) const {
  checkSize(q.size(), 7, "q");
  const double n = q.segment<4>(3).norm();
  if (n > 0) q.segment<4>(3) /= n;
  else q.segment<4>(3) << 1, 0, 0, 0;
}

void RigidBodySystem::evaluate(double t, const VecRef& q, const VecRef& v, const VecRef& w) {
  checkSize(q.size(), 7, "q");
  checkSize(v.size(), 6, "v");
  checkSize(w.size(), 0, "w");
  m_R = Eigen::Quaterniond(q(3), q(4), q(5), q(6)).normalized().toRotationMatrix();
  m_Iw = m_R * m_body.principalInertia().asDiagonal() * m_R.transpose();
  m_w = v.tail<3>();
  m_evalQ3 = q.head<3>();
  m_evalV3 = v.head<3>();
  recordEvaluation(t, q, v, w);
}

void RigidBodySystem::massMatrix(MatOut M) {
  if (M.rows() != 6 || M.cols() != 6)
    throw std::invalid_argument("RigidBodySystem::massMatrix: M must be 6 x 6");
  M.setZero();
  M.topLeftCorner<3, 3>() = m_body.mass() * Mat3::Identity();
  M.bottomRightCorner<3, 3>() = m_Iw;
}

void RigidBodySystem::solveMass(VecOut b) {
  checkSize(b.size(), 6, "b");
  b.head<3>() /= m_body.mass();
  b.tail<3>() = m_Iw.llt().solve(Vec3(b.tail<3>()));
}

void RigidBodySystem::generalizedForces(VecOut f) {
  checkSize(f.size(), 6, "f");
  f.head<3>() = m_body.mass() * m_body.gravity();
  f.tail<3>() = -m_w.cross(m_Iw * m_w);
  if (const auto& p = m_body.perturbation()) {
    // at the evaluation point: the centre of mass at q's head, moving at v's head
    const Vec3 com = m_evalQ3, arm = m_R * p->point;
    const PerturbationLoad load =
        art::perturbationLoad(*p, com + arm, m_evalV3 + m_w.cross(arm), com, m_evalV3);
    f.head<3>() += load.force;
    f.tail<3>() += arm.cross(load.force) + load.torque;
  }
}

void RigidBodySystem::setPerturbation(const std::optional<Perturbation>& perturbation) {
  if (perturbation && perturbation->body != 0)
    throw std::invalid_argument("RigidBodySystem::setPerturbation: body " +
                                std::to_string(perturbation->body) + " is not the body (0)");
  m_body.setPerturbation(perturbation);
}

double RigidBodySystem::carriedMass(int body) const {
  if (body != 0)
    throw std::invalid_argument("RigidBodySystem::carriedMass: no body " + std::to_string(body));
  return m_body.mass();
}

Vec3 RigidBodySystem::nearestPoint(const Mat3& R) const {
  // The middle of a face, edge or cap lying flat on the floor: flat when the heights of its points
  // above the floor differ by no more than the step's contact margin, within which the contact
  // takes them all as touching (RigidBody::contactMargin), and at least 1e-9 of the shape's size
  // (a pose's round-off) for a body without gravity into the floor. A body resting on a face
  // tilts by round-off (about 1e-9 rad), far below that, rather than by a fixed angle.
  const Vec3 nb = R.transpose() * m_body.floorNormal();  // the normal in body axes
  const ShapeSpec& shape = m_body.shape();
  const double extent = shape.type == ShapeSpec::Type::Box
                            ? shape.size.maxCoeff()
                            : shape.type == ShapeSpec::Type::Cylinder
                                  ? std::max(2.0 * shape.radius, shape.length)
                                  : 2.0 * shape.radius;
  const double flat = std::max(m_body.contactMargin(m_h), 1e-9 * extent);
  // along a body axis on which the shape spans length e: the middle when its ends' heights differ
  // by at most flat, else the lower end
  auto side = [&](double e, double x) {
    return e * std::abs(x) <= flat ? 0.0 : (x > 0 ? -0.5 * e : 0.5 * e);
  };
  Vec3 pb = Vec3::Zero();
  switch (shape.type) {
    case ShapeSpec::Type::Sphere: pb = -shape.radius * nb; break;
    case ShapeSpec::Type::Box:
      for (int i = 0; i < 3; ++i) pb(i) = side(shape.size(i), nb(i));
      break;
    case ShapeSpec::Type::Cylinder: {
      // the rim's heights differ by 2 radius |radial|
      const Vec3 radial(nb.x(), nb.y(), 0.0);
      if (2.0 * shape.radius * radial.norm() > flat) pb = -shape.radius * radial.normalized();
      pb.z() = side(shape.length, nb.z());
      break;
    }
  }
  return pb;
}

void RigidBodySystem::contacts(std::vector<ContactReport>& out) {
  out.resize(m_body.hasFloor() ? 1 : 0);
  if (out.empty()) return;
  const Vec3 n = m_body.floorNormal();
  const Mat3 R = m_body.rotation();
  ContactReport& r = out[0];
  r.position = m_body.comPosition() + R * nearestPoint(R);
  r.normal = n;
  r.distance = n.dot(r.position - m_body.floorOrigin());
  r.normalForce = n.dot(m_reaction);
  r.frictionForce = m_reaction - r.normalForce * n;
}

void RigidBodySystem::contactJacobians(MatOut N, MatOut D) {
  System::contactJacobians(N, D);
  if (!m_body.hasFloor()) return;
  // the point's velocity vc + w x r = [I, -[r]x] v
  const Vec3 r = m_R * nearestPoint(m_R);
  const Mat3 F = contactFrame(m_body.floorNormal());
  for (int a = 0; a < 3; ++a) {
    const Vec3 u = F.col((a + 2) % 3);  // n, t1, t2
    const Vec3 angular = r.cross(u);     // u . (w x r) = w . (r x u)
    for (int i = 0; i < 3; ++i) {
      const double lin = u(i), rot = angular(i);
      if (a == 0) {
        N(0, i) = lin;
        N(0, 3 + i) = rot;
      } else {
        D(a - 1, i) = lin;
        D(a - 1, 3 + i) = rot;
      }
    }
  }
}

EnergySample RigidBodySystem::energy() {
  const RigidBodyEnergy e = m_body.energy();
  return {e.kinetic, e.potential};
}

void RigidBodySystem::bodyPoses(const Eigen::VectorXd& q, std::vector<BodyPose>& poses) {
  poses.resize(1);
  poses[0].rotation = Eigen::Quaterniond(q(3), q(4), q(5), q(6)).normalized().toRotationMatrix();
  poses[0].position = q.head<3>();  // the shape (and its drawing) is centred on the body origin
}

ModelSpec displayModel(const RigidBodySpec& spec) {
  ModelSpec m;
  m.name = spec.name;
  m.description = spec.description;
  m.gravity = spec.effectiveGravity();
  BodySpec b;
  b.name = spec.name.empty() ? "body" : spec.name;
  b.joint.type = JointType::Rz;  // never moved by a joint: the viewport takes its pose
  b.inertia = InertiaSpec::fromMassComInertia(1.0, Vec3::Zero(), Mat3::Identity());
  b.appearance = spec.effectiveAppearance();
  m.bodies.push_back(b);
  m.baseAppearance = spec.baseAppearance;
  // a small body that travels: follow it, from far enough to see it bounce
  m.camera.body = 0;
  m.camera.zoom = 0.25;
  return m;
}

}  // namespace art
