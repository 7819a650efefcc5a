// Natural-coordinate structures behind the System seam (see structure_system.h).
#include "articulate/simulation/structure_system.h"

#include <algorithm>
#include <limits>
#include <cmath>
#include <stdexcept>

namespace art {

StructureSystem::StructureSystem(const natural::StructureSpec& spec)
    : StructureSystem(spec, natural::simulationOptions(spec)) {}

StructureSystem::StructureSystem(const natural::StructureSpec& spec,
                                 const natural::SimulationOptions& options) {
  build(spec, options);
}

void StructureSystem::setStructure(const natural::StructureSpec& spec) {
  build(spec, natural::simulationOptions(spec));
  bumpStructureVersion();
}

void StructureSystem::build(const natural::StructureSpec& spec,
                            const natural::SimulationOptions& options) {
  // everything is built before anything is replaced, so that a throw changes nothing
  auto structure = std::make_unique<natural::Structure>(spec);
  auto sim = std::make_unique<natural::StructureSimulation>(*structure, options);
  auto data = std::make_unique<natural::StructureData>(*structure);
  std::vector<int> owner;
  for (std::size_t b = 0; b < structure->bodies().size(); ++b)
    for (int i = 0; i < structure->bodies()[b].coordinates(); ++i)
      owner.push_back(static_cast<int>(b));
  std::vector<std::string> rows;
  for (std::size_t b = 0; b < structure->bodies().size(); ++b) {
    const std::string& name = spec.bodies[b].name;
    for (std::size_t k = 0; k < structure->bodies()[b].intrinsicRows().size(); ++k)
      rows.push_back((name.empty() ? "body" + std::to_string(b + 1) : name) + ".intrinsic[" +
                     std::to_string(k) + "]");
  }
  for (std::size_t j = 0; j < spec.joints.size(); ++j) {
    const std::string name = spec.joints[j].name.empty() ? "joint" + std::to_string(j + 1)
                                                         : spec.joints[j].name;
    const auto& group = structure->rowGroups()[structure->bodies().size() + j];
    for (std::size_t k = 0; k < group.rows.size(); ++k)
      rows.push_back(name + "[" + std::to_string(k) + "]");
  }
  const int n = structure->nq(), m = structure->nc();
  m_Mllt.compute(structure->denseMassMatrix());
  m_K = Eigen::MatrixXd::Zero(n + m, n + m);
  m_Klu = Eigen::PartialPivLU<Eigen::MatrixXd>(n + m);
  m_rhs = Eigen::VectorXd::Zero(n + m);
  m_sol = Eigen::VectorXd::Zero(n + m);
  m_q = structure->q0();
  m_v = structure->qd0();
  m_sim.reset();  // it refers to the old structure
  m_structure = std::move(structure);
  m_sim = std::move(sim);
  m_data = std::move(data);
  m_options = options;
  m_owner = std::move(owner);
  m_rowNames = std::move(rows);
  m_divergence.reset();
  m_forces = false;
  recordEvaluation(0.0, m_q, m_v, Eigen::VectorXd());  // sized once: evaluate() then copies
  m_segmentData = std::make_unique<natural::StructureData>(*m_structure);
  m_rest = Eigen::VectorXd::Zero(n);
}

std::string StructureSystem::positionName(int i) const {
  const int b = i >= 0 && i < static_cast<int>(m_owner.size()) ? m_owner[i] : -1;
  return System::positionName(i) +
         (b >= 0 ? " " + m_structure->spec().bodies[static_cast<std::size_t>(b)].name : "");
}

std::string StructureSystem::velocityName(int i) const {
  const int b = i >= 0 && i < static_cast<int>(m_owner.size()) ? m_owner[i] : -1;
  return "qd[" + std::to_string(i) + "]" +
         (b >= 0 ? " " + m_structure->spec().bodies[static_cast<std::size_t>(b)].name : "");
}

std::string StructureSystem::constraintName(int i) const {
  return i >= 0 && i < static_cast<int>(m_rowNames.size()) ? m_rowNames[i]
                                                           : System::constraintName(i);
}

void StructureSystem::setState(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  m_sim->setState(t, q, v);
  m_divergence.reset();
}

void StructureSystem::reset() {
  m_sim = std::make_unique<natural::StructureSimulation>(*m_structure, m_options);
  m_divergence.reset();
}

bool StructureSystem::stopped() {
  const std::string why = m_sim->failure() ? *m_sim->failure() : "the step failed";
  m_divergence = Divergence{m_sim->time(), "step",
                            "the simulation stopped at t = " + std::to_string(m_sim->time()) +
                                " s: " + why};
  return false;
}

bool StructureSystem::step() {
  if (m_divergence) return false;
  return m_sim->step() || stopped();
}

bool StructureSystem::advanceTo(double t) {
  if (m_divergence) return false;
  return m_sim->advanceTo(t) || stopped();
}

EnergySample StructureSystem::energy() {
  const natural::StructureEnergy e = m_sim->energy();
  return {e.kinetic, e.potential};
}

void StructureSystem::positionDerivative(const VecRef& q, const VecRef& v, VecOut qdot) const {
  checkSize(q.size(), m_structure->nq(), "q");
  checkSize(v.size(), m_structure->nq(), "v");
  qdot = v;
}

void StructureSystem::integratePositions(const VecRef& q, const VecRef& v, double h,
                                         VecOut qout) const {
  checkSize(q.size(), m_structure->nq(), "q");
  checkSize(v.size(), m_structure->nq(), "v");
  checkSize(qout.size(), m_structure->nq(), "qout");
  qout = q + h * v;
}

void StructureSystem::evaluate(double t, const VecRef& q, const VecRef& v, const VecRef& w) {
  checkSize(q.size(), m_structure->nq(), "q");
  checkSize(v.size(), m_structure->nq(), "v");
  checkSize(w.size(), 0, "w");
  m_q = q;
  m_v = v;
  m_forces = false;
  recordEvaluation(t, q, v, w);
}

void StructureSystem::massMatrix(MatOut M) {
  if (M.rows() != m_structure->nq() || M.cols() != m_structure->nq())
    throw std::invalid_argument("StructureSystem::massMatrix: M must be nq x nq");
  M = m_structure->denseMassMatrix();
}

void StructureSystem::solveMass(VecOut b) {
  checkSize(b.size(), m_structure->nq(), "b");
  m_Mllt.solveInPlace(b);
}

void StructureSystem::generalizedForces(VecOut f) {
  checkSize(f.size(), m_structure->nq(), "f");
  if (!m_forces) natural::updateStructure(*m_structure, *m_data, m_q, m_v);
  m_forces = true;
  f = m_data->F;
}

void StructureSystem::forceJacobians(MatOut Kq, MatOut Kv) {
  const int n = m_structure->nq();
  if (Kq.rows() != n || Kq.cols() != n || Kv.rows() != n || Kv.cols() != n)
    throw std::invalid_argument("StructureSystem::forceJacobians: Kq and Kv must be nq x nq");
  if (!m_forces) natural::updateStructure(*m_structure, *m_data, m_q, m_v);
  m_forces = true;
  Kq.setZero();
  Kv.setZero();
  natural::forceJacobianEntries(*m_structure, *m_data, 1.0, 0.0,
                                [&](int i, int j, double v) { Kq(i, j) += v; });
  natural::forceJacobianEntries(*m_structure, *m_data, 0.0, 1.0,
                                [&](int i, int j, double v) { Kv(i, j) += v; });
}

void StructureSystem::constraintResidual(VecOut phi) {
  checkSize(phi.size(), m_structure->nc(), "phi");
  phi = natural::constraintResidual(*m_structure, *m_data, m_q);
}

void StructureSystem::constraintJacobian(MatOut G) {
  System::constraintJacobian(G);
  const auto& A = natural::constraintJacobian(*m_structure, *m_data, m_q);
  G.setZero();
  for (int i = 0; i < A.outerSize(); ++i)
    for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(A, i); it; ++it)
      G(i, it.col()) = it.value();
}

void StructureSystem::constraintVelocityTerm(VecOut gdotv) {
  checkSize(gdotv.size(), m_structure->nc(), "Gdot v");
  gdotv = natural::constraintVelocityTerm(*m_structure, *m_data, m_v);
}

void StructureSystem::constraintForces(VecOut lambda) {
  const int n = m_structure->nq(), m = m_structure->nc();
  checkSize(lambda.size(), m, "lambda");
  if (m == 0) return;
  // [M A'; A 0] [qdd; -lambda] = [F; -Adot qd - 2 alpha A qd - alpha^2 phi]
  const double alpha = m_options.baumgarte;
  generalizedForces(m_rhs.head(n));
  m_K.setZero();
  m_K.topLeftCorner(n, n) = m_structure->denseMassMatrix();
  constraintJacobian(m_K.bottomLeftCorner(m, n));
  m_K.topRightCorner(n, m) = m_K.bottomLeftCorner(m, n).transpose();
  m_rhs.tail(m).noalias() = m_K.bottomLeftCorner(m, n) * m_v;
  m_rhs.tail(m) *= -2.0 * alpha;
  m_rhs.tail(m) -= natural::constraintVelocityTerm(*m_structure, *m_data, m_v);
  m_rhs.tail(m) -= alpha * alpha * natural::constraintResidual(*m_structure, *m_data, m_q);
  m_Klu.compute(m_K);
  m_sol.noalias() = m_Klu.solve(m_rhs);
  lambda = -m_sol.tail(m);
}

void StructureSystem::setPerturbation(const std::optional<Perturbation>& perturbation) {
  m_sim->setPerturbation(perturbation);
  natural::setPerturbation(*m_structure, *m_data, perturbation);
  m_forces = false;
}

double StructureSystem::carriedMass(int body) const {
  if (body < 0 || body >= bodies())
    throw std::invalid_argument("StructureSystem::carriedMass: no body " + std::to_string(body));
  return m_structure->bodies()[static_cast<std::size_t>(body)].spec().mass;
}

void StructureSystem::bodyPoses(const Eigen::VectorXd& q, std::vector<BodyPose>& poses) {
  const auto& bodies = m_structure->bodies();
  poses.resize(bodies.size());
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    const natural::Body& body = bodies[b];
    const int d = body.dimension(), k = body.axes();
    const Eigen::VectorXd x =
        body.canonicalMap() * q.segment(m_structure->bodyOffset(static_cast<int>(b)), body.coordinates());
    // scalar copies: a d-long segment into a Vec3 trips GCC's bounds analysis under AVX
    Vec3 r = Vec3::Zero();
    for (int i = 0; i < d; ++i) r(i) = x(i);
    Mat3 R = Mat3::Identity();
    for (int a = 0; a < k; ++a) {
      R.col(a).setZero();
      for (int i = 0; i < d; ++i) R(i, a) = x(d + a * d + i);
    }
    if (k == 1) {  // a bar: two perpendiculars to its axis (2D: in the plane, then z)
      const Vec3 e1 = R.col(0).normalized();
      Vec3 e2 = d == 2 ? Vec3(-e1.y(), e1.x(), 0)
                       : (std::abs(e1.z()) < 0.9 ? Vec3::UnitZ() : Vec3::UnitX()).cross(e1).normalized();
      R.col(0) = e1;
      R.col(1) = e2;
      R.col(2) = e1.cross(e2);
    } else if (k == 2) {
      R.col(2) = R.col(0).cross(R.col(1));
    }
    poses[b].rotation = R;
    poses[b].position = r;
  }
}

void StructureSystem::segments(const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                               std::vector<SegmentReport>& out) {
  const int n = m_structure->nq();
  checkSize(q.size(), n, "q");
  if (v.size() != 0) checkSize(v.size(), n, "v");
  const Eigen::VectorXd& qd = v.size() == 0 ? m_rest : v;
  natural::updateStructure(*m_structure, *m_segmentData, q, qd);
  const auto& apparatuses = m_structure->apparatuses();
  out.resize(apparatuses.size());
  for (std::size_t k = 0; k < apparatuses.size(); ++k) {
    const natural::CompiledApparatus& a = apparatuses[k];
    SegmentReport& r = out[k];
    r.kind = a.type == natural::ApparatusType::Cable ? SegmentReport::Kind::Cable
             : a.stiffness > 0                       ? SegmentReport::Kind::Spring
                                                     : SegmentReport::Kind::Damper;
    // the attachment points at q: the compiled point maps applied to the bodies' slices
    r.a.setZero();
    if (a.bodyA < 0) {
      for (Eigen::Index i = 0; i < a.groundA.size(); ++i) r.a(i) = a.groundA(i);
    } else {
      const Eigen::VectorXd::ConstSegmentReturnType qa =
          q.segment(m_structure->bodyOffset(a.bodyA), a.CA.cols());
      for (Eigen::Index i = 0; i < a.CA.rows(); ++i) r.a(i) = a.CA.row(i).dot(qa);
    }
    r.b.setZero();
    const Eigen::VectorXd::ConstSegmentReturnType qb =
        q.segment(m_structure->bodyOffset(a.bodyB), a.CB.cols());
    for (Eigen::Index i = 0; i < a.CB.rows(); ++i) r.b(i) = a.CB.row(i).dot(qb);
    r.tension = m_segmentData->tension[k];
    r.slack = a.type == natural::ApparatusType::Cable && !(r.tension > 0);
  }
}

ModelSpec displayModel(const natural::StructureSpec& spec) {
  ModelSpec m;
  m.name = spec.name;
  m.description = spec.description;
  if (spec.dimension == 2) {  // look at the x-y plane, y up
    m.camera.direction = Vec3(0, 0, 1);
    m.camera.up = Vec3(0, 1, 0);
  }
  double scale = 0.0;
  for (const natural::BodySpec& b : spec.bodies) scale = std::max(scale, b.length);
  if (!(scale > 0)) scale = 1.0;
  for (std::size_t i = 0; i < spec.bodies.size(); ++i) {
    const natural::BodySpec& nb = spec.bodies[i];
    BodySpec b;
    b.name = nb.name.empty() ? "body" + std::to_string(i + 1) : nb.name;
    b.joint.type = JointType::Rz;  // never moved by a joint: the viewport takes its pose
    b.inertia = InertiaSpec::fromMassComInertia(1.0, Vec3::Zero(), Mat3::Identity());
    const natural::BodyKind kind = nb.kind;
    if (nb.appearance) {
      b.appearance = *nb.appearance;
    } else if (natural::kindIsBar(kind)) {
      b.appearance = nlohmann::json::array(
          {"cyl", {{0, 0, 0}, {nb.length, 0, 0}}, 0.02 * scale, "sphere", {0, 0, 0}, 0.03 * scale,
           "sphere", {nb.length, 0, 0}, 0.03 * scale});
    } else {
      const double s = 0.08 * scale;
      b.appearance = nlohmann::json::array({"box", {{-s, -s, -s}, {s, s, s}}});
    }
    m.bodies.push_back(b);
  }
  m.baseAppearance = spec.baseAppearance;
  m.gravity = spec.gravity;  // shown in the properties
  // frame where the bodies can go, not only where they start: a structure held to the ground
  // stays within `reach` of its ground attachments (the farthest body point at the reference
  // from its nearest attachment; a rigid body's far point taken as its base point mirrored
  // through its mass centre), so zoom out until the initial framing covers that
  std::vector<Vec3> points, anchors;
  for (const natural::BodySpec& b : spec.bodies) {
    points.push_back(b.origin);
    if (natural::kindIsBar(b.kind) || natural::kindHasTwoPoints(b.kind))
      points.push_back(b.origin + b.length * b.orientation.col(0));
    else
      points.push_back(b.origin + 2.0 * b.orientation * b.massCentre);
  }
  for (const natural::JointSpec& j : spec.joints)
    if (j.hen < 0) anchors.push_back(j.point);
  for (const natural::ApparatusSpec& a : spec.apparatuses)
    if (a.bodyA < 0) anchors.push_back(a.pointA);
  if (!anchors.empty() && !points.empty()) {
    Vec3 lo = points[0], hi = points[0];
    for (const Vec3& p : points) {
      lo = lo.cwiseMin(p);
      hi = hi.cwiseMax(p);
    }
    const Vec3 centre = 0.5 * (lo + hi);
    double reach = 0, farthestAnchor = 0;
    for (const Vec3& p : points) {
      double nearest = std::numeric_limits<double>::infinity();
      for (const Vec3& a : anchors) nearest = std::min(nearest, (p - a).norm());
      reach = std::max(reach, nearest);
    }
    for (const Vec3& a : anchors) farthestAnchor = std::max(farthestAnchor, (centre - a).norm());
    const double shown = 0.5 * (hi - lo).norm(), needed = farthestAnchor + reach;
    if (shown > 0 && needed > shown) m.camera.zoom = shown / needed;
  }
  return m;
}

}  // namespace art
