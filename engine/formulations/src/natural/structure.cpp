// Natural-coordinate structures: connectivity, joints composed from the four basic
// constraints, apparatuses, and the update pipeline (structure.h has the rows and formulas).
#include "articulate/formulations/natural/structure.h"
#include "natural/check_size.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <Eigen/Geometry>

namespace art::natural {

namespace {

constexpr const char* kJointNames[] = {"spherical", "revolute", "prismatic", "universal",
                                       "cylindrical", "planar", "fixed", "distance"};

using detail::checkSize;

// an affine map of the stacked joint coordinates x: value = P x + p0 (d components)
struct Affine {
  Eigen::MatrixXd P;
  Eigen::VectorXd p0;
};

QuadraticRow linearRow(const Eigen::VectorXd& t) {
  QuadraticRow r;
  r.t = t;
  r.H = Eigen::MatrixXd::Zero(t.size(), t.size());
  return r;
}

// u . v for two affine maps: x' sym(U'V) x + (U' v0 + V' u0)' x + const
QuadraticRow dotRow(const Affine& u, const Affine& v) {
  QuadraticRow r;
  const Eigen::MatrixXd UV = u.P.transpose() * v.P;
  r.H = 0.5 * (UV + UV.transpose());
  r.t = u.P.transpose() * v.p0 + v.P.transpose() * u.p0;
  return r;
}

Affine difference(const Affine& a, const Affine& b) { return {a.P - b.P, a.p0 - b.p0}; }

// builds one joint's row group on its stacked coordinates x = [q_hen; q_egg]
class JointBuilder {
 public:
  // the joint's coordinate indices; hen and egg must already be valid body indices
  JointBuilder(const Structure& s, const JointSpec& joint, const std::string& who)
      : m_s(s), m_js(joint), m_who(who), m_d(s.dimension()),
        m_hen(joint.hen < 0 ? nullptr : &s.bodies()[static_cast<std::size_t>(joint.hen)]),
        m_egg(s.bodies()[static_cast<std::size_t>(joint.egg)]),
        m_nh(m_hen ? m_hen->coordinates() : 0), m_ne(m_egg.coordinates()), m_nx(m_nh + m_ne) {
    for (int k = 0; k < m_nh; ++k) m_g.index.push_back(s.bodyOffset(joint.hen) + k);
    for (int k = 0; k < m_ne; ++k) m_g.index.push_back(s.bodyOffset(joint.egg) + k);
  }

  // checks the axis and the type's dimension; the joint's rows with their constants (no firstRow)
  RowGroup build() {
    // the joint's triad (3D) or axis and normal (2D)
    const int d = m_d;
    const bool needsAxis = !(m_js.type == JointType::Spherical || m_js.type == JointType::Distance ||
                             (d == 2 && m_js.type == JointType::Revolute));
    const Eigen::Vector3d a = needsAxis ? unit(m_js.axis, "axis")
                                        : Eigen::Vector3d(d == 2 ? Eigen::Vector3d::UnitX()
                                                                 : Eigen::Vector3d::UnitZ());
    const Eigen::Vector3d b = d == 3 ? Eigen::Vector3d(a.unitOrthogonal())
                                     : Eigen::Vector3d(-a.y(), a.x(), 0.0);
    const Eigen::Vector3d c = a.cross(b);
    const Affine ph = point(false, m_js.point), pe = point(true, m_js.point);
    const Affine disp = difference(pe, ph);
    const bool spatialOnly = m_js.type == JointType::Spherical || m_js.type == JointType::Universal ||
                             m_js.type == JointType::Cylindrical || m_js.type == JointType::Planar;
    if (d == 2 && spatialOnly)
      throw std::invalid_argument(m_who + ": a " + jointTypeName(m_js.type) +
                                  " joint needs a 3D structure");
    addTypeRows(a, b, c, ph, disp);
    setConstants();
    return std::move(m_g);
  }

 private:
  // the rows of the joint's type (the table in structure.h)
  void addTypeRows(const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c,
                   const Affine& ph, const Affine& disp) {
    const int d = m_d;
    switch (m_js.type) {
      case JointType::Spherical:
        coincidence(disp);
        break;
      case JointType::Revolute:
        coincidence(disp);
        if (d == 3) {
          orthogonal(a, b);
          orthogonal(a, c);
        }
        break;
      case JointType::Prismatic:
        if (d == 3) {
          normal(b, disp);
          normal(c, disp);
          orthogonal(a, b);
          orthogonal(a, c);
          orthogonal(b, c);
        } else {
          normal(b, disp);
          orthogonal(b, a);
        }
        break;
      case JointType::Universal:
        coincidence(disp);
        orthogonal(a, unit(m_js.axis2, "axis2"));
        break;
      case JointType::Cylindrical:
        normal(b, disp);
        normal(c, disp);
        orthogonal(a, b);
        orthogonal(a, c);
        break;
      case JointType::Planar:
        normal(a, disp);
        orthogonal(a, b);
        orthogonal(a, c);
        break;
      case JointType::Fixed:
        coincidence(disp);
        if (d == 3) {
          orthogonal(a, b);
          orthogonal(a, c);
          orthogonal(b, c);
        } else {
          orthogonal(b, a);
        }
        break;
      case JointType::Distance: {
        const Affine r = difference(point(true, m_js.point2), ph);
        QuadraticRow q;
        q.H = r.P.transpose() * r.P;
        q.t = 2.0 * r.P.transpose() * r.p0;
        m_g.rows.push_back(std::move(q));
        break;
      }
    }
  }

  // c makes the reference configuration satisfy every row
  void setConstants() {
    const Eigen::VectorXd& q0 = m_s.q0();
    Eigen::VectorXd x(m_nx);
    for (int k = 0; k < m_nx; ++k) x(k) = q0(m_g.index[static_cast<std::size_t>(k)]);
    for (QuadraticRow& r : m_g.rows) r.c = r.t.dot(x) + x.dot(r.H * x);
  }

  // "ground" or body b's name
  std::string bodyName(int b) const {
    return b < 0 ? std::string("ground") : m_s.spec().bodies[static_cast<std::size_t>(b)].name;
  }

  // throws unless body b expresses the point or axis (off its axis by `off`)
  void express(double off, int b, const char* what) const {
    if (off > 1e-9)
      throw std::invalid_argument(m_who + ": body '" + bodyName(b) + "' cannot express the " +
                                  what + " (off its axis by " + std::to_string(off) +
                                  "); use a rigid body");
  }

  // a world point (at the reference) fixed on the egg or on the hen (or the ground)
  Affine point(bool onEgg, const Eigen::Vector3d& world) const {
    const int d = m_d;
    Affine a{Eigen::MatrixXd::Zero(d, m_nx), Eigen::VectorXd::Zero(d)};
    double off = 0;
    if (onEgg) {
      a.P.rightCols(m_ne) = m_egg.pointJacobian(m_egg.localPoint(world, &off));
      express(off, m_js.egg, "joint point");
    } else if (m_hen) {
      a.P.leftCols(m_nh) = m_hen->pointJacobian(m_hen->localPoint(world, &off));
      express(off, m_js.hen, "joint point");
    } else {
      a.p0 = world.head(d);
    }
    return a;
  }

  // a world direction (at the reference) fixed on the egg or on the hen (or the ground)
  Affine direction(bool onEgg, const Eigen::Vector3d& world) const {
    const int d = m_d;
    Affine a{Eigen::MatrixXd::Zero(d, m_nx), Eigen::VectorXd::Zero(d)};
    double off = 0;
    if (onEgg) {
      a.P.rightCols(m_ne) = m_egg.directionJacobian(m_egg.localDirection(world, &off));
      express(off, m_js.egg, "joint axis");
    } else if (m_hen) {
      a.P.leftCols(m_nh) = m_hen->directionJacobian(m_hen->localDirection(world, &off));
      express(off, m_js.hen, "joint axis");
    } else {
      a.p0 = world.head(d);
    }
    return a;
  }

  // v (z dropped in 2D), which must be a unit vector, normalized
  Eigen::Vector3d unit(const Eigen::Vector3d& v, const char* what) const {
    Eigen::Vector3d u = v;
    if (m_d == 2) u.z() = 0;
    if (std::abs(u.norm() - 1.0) > 1e-6)
      throw std::invalid_argument(m_who + ": " + what + " must be a unit vector");
    return Eigen::Vector3d(u.normalized());
  }

  // coincidence rows: the d components of the displacement
  void coincidence(const Affine& disp) {
    for (int i = 0; i < m_d; ++i) m_g.rows.push_back(linearRow(disp.P.row(i).transpose()));
  }

  // orthogonal row: a hen direction orthogonal to an egg direction
  void orthogonal(const Eigen::Vector3d& onHen, const Eigen::Vector3d& onEgg) {
    m_g.rows.push_back(dotRow(direction(false, onHen), direction(true, onEgg)));
  }

  // normal row: a hen direction orthogonal to the displacement
  void normal(const Eigen::Vector3d& onHen, const Affine& disp) {
    m_g.rows.push_back(dotRow(direction(false, onHen), disp));
  }

  const Structure& m_s;
  const JointSpec& m_js;
  const std::string& m_who;
  const int m_d;
  const Body* const m_hen;
  const Body& m_egg;
  const int m_nh, m_ne, m_nx;
  RowGroup m_g;
};

// one apparatus's constant Jacobians, checked (bodies, stiffness, damping, points, rest length)
CompiledApparatus compileApparatus(const ApparatusSpec& as, const std::vector<Body>& bodies, int d) {
  const int nb = static_cast<int>(bodies.size());
  const std::string who = "apparatus '" + as.name + "'";
  if (as.bodyB < 0 || as.bodyB >= nb || as.bodyA < -1 || as.bodyA >= nb || as.bodyA == as.bodyB)
    throw std::invalid_argument(who + ": needs two different bodies (A may be the ground)");
  if (!(as.stiffness >= 0) || !(as.damping >= 0))
    throw std::invalid_argument(who + ": stiffness and damping must be >= 0");
  CompiledApparatus ca;
  ca.type = as.type;
  ca.bodyA = as.bodyA;
  ca.bodyB = as.bodyB;
  ca.stiffness = as.stiffness;
  ca.damping = as.damping;
  double off = 0;
  if (as.bodyA >= 0) {
    const Body& A = bodies[static_cast<std::size_t>(as.bodyA)];
    ca.CA = A.pointJacobian(A.localPoint(as.pointA, &off));
    if (off > 1e-9) throw std::invalid_argument(who + ": point A is off body A's axis");
  } else {
    ca.groundA = as.pointA.head(d);
  }
  const Body& B = bodies[static_cast<std::size_t>(as.bodyB)];
  ca.CB = B.pointJacobian(B.localPoint(as.pointB, &off));
  if (off > 1e-9) throw std::invalid_argument(who + ": point B is off body B's axis");
  ca.restLength = as.restLength ? *as.restLength : (as.pointB - as.pointA).head(d).norm();
  if (!(ca.restLength >= 0)) throw std::invalid_argument(who + ": rest length must be >= 0");
  return ca;
}

}  // namespace

const char* jointTypeName(JointType type) { return kJointNames[static_cast<int>(type)]; }

bool parseJointType(const std::string& name, JointType& out) {
  for (int i = 0; i < 8; ++i)
    if (name == kJointNames[i]) {
      out = static_cast<JointType>(i);
      return true;
    }
  return false;
}

const char* integratorName(Integrator integrator) {
  return integrator == Integrator::Zhong06 ? "zhong06" : "rk4";
}

bool parseIntegrator(const std::string& name, Integrator& out) {
  if (name == "zhong06") out = Integrator::Zhong06;
  else if (name == "rk4") out = Integrator::RK4;
  else return false;
  return true;
}

Structure::Structure(const StructureSpec& spec) : m_spec(spec) {
  const int d = spec.dimension;
  if (d != 2 && d != 3) throw std::invalid_argument("dimension must be 2 or 3");
  addBodies();
  assembleConstants();
  addJoints();
  addApparatuses();
}

void Structure::addBodies() {
  const int d = m_spec.dimension;
  // bodies and their slices of the system vectors
  for (const BodySpec& b : m_spec.bodies) {
    if (kindDimension(b.kind) != d)
      throw std::invalid_argument("body '" + b.name + "': a " + bodyKindName(b.kind) +
                                  " body in a " + std::to_string(d) + "D structure");
    m_bodies.emplace_back(b);
    m_offset.push_back(m_nq);
    m_bodyRow.push_back(m_nIntrinsic);
    RowGroup g;
    for (int k = 0; k < m_bodies.back().coordinates(); ++k) g.index.push_back(m_nq + k);
    g.rows = m_bodies.back().intrinsicRows();
    g.firstRow = m_nIntrinsic;
    m_groups.push_back(std::move(g));
    m_nq += m_bodies.back().coordinates();
    m_nIntrinsic += static_cast<int>(m_bodies.back().intrinsicRows().size());
  }
}

void Structure::assembleConstants() {
  const int d = m_spec.dimension;
  const int nb = static_cast<int>(m_spec.bodies.size());
  m_q0.resize(m_nq);
  m_qd0.resize(m_nq);
  m_Fg = Eigen::VectorXd::Zero(m_nq);
  m_Mdense = Eigen::MatrixXd::Zero(m_nq, m_nq);
  for (int b = 0; b < nb; ++b) {
    const Body& body = m_bodies[static_cast<std::size_t>(b)];
    const int o = m_offset[static_cast<std::size_t>(b)], n = body.coordinates();
    m_q0.segment(o, n) = body.referenceCoordinates();
    m_qd0.segment(o, n) = body.referenceVelocities();
    m_Mdense.block(o, o, n, n) = body.massMatrix();
    m_Fg.segment(o, n) = body.pointJacobian(body.spec().massCentre).transpose() *
                         (body.spec().mass * m_spec.gravity.head(d));
  }
  m_M = m_Mdense.sparseView();
}

void Structure::addJoints() {
  const int nb = static_cast<int>(m_spec.bodies.size());
  // joints: affine maps of points and directions on x = [q_hen; q_egg], then the rows
  int row = m_nIntrinsic;
  for (const JointSpec& js : m_spec.joints) {
    const std::string who = "joint '" + js.name + "'";
    if (js.egg < 0 || js.egg >= nb || js.hen < -1 || js.hen >= nb || js.hen == js.egg)
      throw std::invalid_argument(who + ": hen and egg must be two different bodies (the hen "
                                        "may be the ground)");
    RowGroup g = JointBuilder(*this, js, who).build();
    g.firstRow = row;
    row += static_cast<int>(g.rows.size());
    m_groups.push_back(std::move(g));
  }
  m_nExtrinsic = row - m_nIntrinsic;
}

void Structure::addApparatuses() {
  // apparatuses: their points' constant Jacobians
  for (const ApparatusSpec& as : m_spec.apparatuses)
    m_apparatuses.push_back(compileApparatus(as, m_bodies, m_spec.dimension));
}

StructureData::StructureData(const Structure& s) {
  const int nq = s.nq(), nc = s.nc();
  F = Eigen::VectorXd::Zero(nq);
  phi = Eigen::VectorXd::Zero(nc);
  Adotqd = Eigen::VectorXd::Zero(nc);
  Mqd = Eigen::VectorXd::Zero(nq);
  const std::size_t na = s.apparatuses().size();
  tension.assign(na, 0.0);
  length.assign(na, 0.0);
  Kp.assign(na, Eigen::Matrix3d::Zero());
  Kv.assign(na, Eigen::Matrix3d::Zero());
  // the Jacobian's pattern: every row of a group on all of the group's coordinates
  std::vector<Eigen::Triplet<double>> triplets;
  std::size_t widest = 1;
  for (const RowGroup& g : s.rowGroups()) {
    widest = std::max(widest, g.index.size());
    for (std::size_t r = 0; r < g.rows.size(); ++r)
      for (int col : g.index) triplets.emplace_back(g.firstRow + static_cast<int>(r), col, 0.0);
  }
  A.resize(nc, nq);
  A.setFromTriplets(triplets.begin(), triplets.end());
  A.makeCompressed();
  for (const RowGroup& g : s.rowGroups()) {
    std::vector<int> sl;
    for (std::size_t r = 0; r < g.rows.size(); ++r) {
      const int i = g.firstRow + static_cast<int>(r);
      const int* begin = A.innerIndexPtr() + A.outerIndexPtr()[i];
      const int* end = A.innerIndexPtr() + A.outerIndexPtr()[i + 1];
      for (int col : g.index)
        sl.push_back(static_cast<int>(std::lower_bound(begin, end, col) - A.innerIndexPtr()));
    }
    slot.push_back(std::move(sl));
  }
  x.resize(static_cast<Eigen::Index>(widest));
  Hx.resize(static_cast<Eigen::Index>(widest));
}

namespace {

// out = C q[off .. off + C.cols()) (d rows, the rest zero)
void apply(const Eigen::MatrixXd& C, const Eigen::VectorXd& q, int off, Eigen::Vector3d& out) {
  out.setZero();
  for (Eigen::Index j = 0; j < C.cols(); ++j)
    for (Eigen::Index i = 0; i < C.rows(); ++i) out(i) += C(i, j) * q(off + j);
}

// F[off ..] += C' f
void applyTransposed(const Eigen::MatrixXd& C, const Eigen::Vector3d& f, int off,
                     Eigen::VectorXd& F) {
  for (Eigen::Index j = 0; j < C.cols(); ++j) {
    double sum = 0;
    for (Eigen::Index i = 0; i < C.rows(); ++i) sum += C(i, j) * f(i);
    F(off + j) += sum;
  }
}

// the group's coordinates gathered into x (its first index.size() entries)
void gather(const RowGroup& g, const Eigen::VectorXd& q, Eigen::VectorXd& x) {
  for (std::size_t k = 0; k < g.index.size(); ++k)
    x(static_cast<Eigen::Index>(k)) = q(g.index[k]);
}

// one apparatus: tension, length, spring energy, and the force Jacobians; returns the force
// on point A (towards B)
Eigen::Vector3d evaluateApparatus(const Structure& s, StructureData& d, std::size_t k,
                                  const Eigen::VectorXd& q, const Eigen::VectorXd& qd) {
  const CompiledApparatus& a = s.apparatuses()[k];
  Eigen::Vector3d pA = Eigen::Vector3d::Zero(), vA = Eigen::Vector3d::Zero(), pB, vB;
  if (a.bodyA >= 0) {
    apply(a.CA, q, s.bodyOffset(a.bodyA), pA);
    apply(a.CA, qd, s.bodyOffset(a.bodyA), vA);
  } else {
    for (Eigen::Index i = 0; i < a.groundA.size(); ++i) pA(i) = a.groundA(i);
  }
  apply(a.CB, q, s.bodyOffset(a.bodyB), pB);
  apply(a.CB, qd, s.bodyOffset(a.bodyB), vB);
  const Eigen::Vector3d delta = pB - pA, dv = vB - vA;
  const double l = delta.norm();
  d.length[k] = l;
  d.tension[k] = 0;
  d.Kp[k].setZero();
  d.Kv[k].setZero();
  const double stretch = l - a.restLength;
  if (l < 1e-12 || (a.type == ApparatusType::Cable && stretch <= 0))
    return Eigen::Vector3d::Zero();
  const Eigen::Vector3d e = delta / l;
  const double ldot = e.dot(dv);
  const double T = a.stiffness * stretch + a.damping * ldot;
  d.springEnergy += 0.5 * a.stiffness * stretch * stretch;
  if (a.type == ApparatusType::Cable && T <= 0) return Eigen::Vector3d::Zero();
  d.tension[k] = T;
  const Eigen::Matrix3d P = Eigen::Matrix3d::Identity() - e * e.transpose();
  const Eigen::Vector3d dTdDelta = a.stiffness * e + a.damping * (P * dv) / l;
  d.Kp[k] = e * dTdDelta.transpose() + (T / l) * P;
  d.Kv[k] = a.damping * e * e.transpose();
  return T * e;
}

}  // namespace

void setPerturbation(const Structure& s, StructureData& d,
                     const std::optional<Perturbation>& perturbation) {
  if (perturbation) {
    checkPerturbation(*perturbation);
    const int nb = static_cast<int>(s.bodies().size());
    if (perturbation->body < 0 || perturbation->body >= nb)
      throw std::invalid_argument("setPerturbation: body " + std::to_string(perturbation->body) +
                                  " is not a body of the structure (" + std::to_string(nb) + ")");
    const Body& b = s.bodies()[static_cast<std::size_t>(perturbation->body)];
    d.perturbPoint = b.pointJacobian(perturbation->point);
    d.perturbCentre = b.pointJacobian(b.spec().massCentre);
  }
  d.perturbation = perturbation;
}

namespace {

// a world point or velocity of the perturbed body: C x (x its slice of q or qd), z = 0 in 2D
Eigen::Vector3d perturbedPoint(const Structure& s, const StructureData& d,
                               const Eigen::MatrixXd& C, const Eigen::VectorXd& x) {
  const int off = s.bodyOffset(d.perturbation->body);
  Eigen::Vector3d out = Eigen::Vector3d::Zero();
  for (Eigen::Index i = 0; i < C.rows(); ++i)
    for (Eigen::Index j = 0; j < C.cols(); ++j) out(i) += C(i, j) * x(off + j);
  return out;
}

}  // namespace

std::optional<PerturbationLoad> perturbationLoad(const Structure& s, const StructureData& d,
                                                 const Eigen::VectorXd& q,
                                                 const Eigen::VectorXd& qd) {
  checkSize(q, s.nq(), "perturbationLoad: q");
  checkSize(qd, s.nq(), "perturbationLoad: qd");
  if (!d.perturbation) return std::nullopt;
  return perturbationLoad(*d.perturbation, perturbedPoint(s, d, d.perturbPoint, q),
                          perturbedPoint(s, d, d.perturbPoint, qd),
                          perturbedPoint(s, d, d.perturbCentre, q),
                          perturbedPoint(s, d, d.perturbCentre, qd));
}

void updateStructure(const Structure& s, StructureData& d, const Eigen::VectorXd& q,
                     const Eigen::VectorXd& qd) {
  checkSize(q, s.nq(), "updateStructure: q");
  checkSize(qd, s.nq(), "updateStructure: qd");
  // clear the forces; the bodies' views are their slices of q and qd (nothing to copy)
  d.F.setZero();
  d.springEnergy = 0;
  // apparatuses
  for (std::size_t k = 0; k < s.apparatuses().size(); ++k) {
    const CompiledApparatus& a = s.apparatuses()[k];
    const Eigen::Vector3d f = evaluateApparatus(s, d, k, q, qd);
    if (a.bodyA >= 0) applyTransposed(a.CA, f, s.bodyOffset(a.bodyA), d.F);
    applyTransposed(a.CB, -f, s.bodyOffset(a.bodyB), d.F);
  }
  // the perturbation: its force at the point, or its pull at the point and the opposite pull
  // at the mass centre (its torque about the mass centre)
  if (d.perturbation) {
    const Perturbation& p = *d.perturbation;
    const int off = s.bodyOffset(p.body);
    const Eigen::Vector3d x = perturbedPoint(s, d, d.perturbPoint, q);
    const Eigen::Vector3d v = perturbedPoint(s, d, d.perturbPoint, qd);
    if (p.torque) {
      const Eigen::Vector3d vc = perturbedPoint(s, d, d.perturbCentre, qd);
      const Eigen::Vector3d pull = p.stiffness * (p.target - x) - p.damping * (v - vc);
      applyTransposed(d.perturbPoint, pull, off, d.F);
      applyTransposed(d.perturbCentre, -pull, off, d.F);
    } else {
      applyTransposed(d.perturbPoint, p.stiffness * (p.target - x) - p.damping * v, off, d.F);
    }
  }
  // gravity, then the assembled force is complete
  d.F += s.gravityForce();
}

const Eigen::VectorXd& constraintResidual(const Structure& s, StructureData& d,
                                          const Eigen::VectorXd& q) {
  checkSize(q, s.nq(), "constraintResidual: q");
  for (const RowGroup& g : s.rowGroups()) {
    gather(g, q, d.x);
    const Eigen::Index n = static_cast<Eigen::Index>(g.index.size());
    for (std::size_t r = 0; r < g.rows.size(); ++r) {
      const QuadraticRow& row = g.rows[r];
      d.Hx.head(n).noalias() = row.H * d.x.head(n);
      d.phi(g.firstRow + static_cast<int>(r)) =
          row.t.dot(d.x.head(n)) + d.x.head(n).dot(d.Hx.head(n)) - row.c;
    }
  }
  return d.phi;
}

const Eigen::SparseMatrix<double, Eigen::RowMajor>& constraintJacobian(const Structure& s,
                                                                       StructureData& d,
                                                                       const Eigen::VectorXd& q) {
  checkSize(q, s.nq(), "constraintJacobian: q");
  double* values = d.A.valuePtr();
  for (std::size_t gi = 0; gi < s.rowGroups().size(); ++gi) {
    const RowGroup& g = s.rowGroups()[gi];
    const std::vector<int>& sl = d.slot[gi];
    gather(g, q, d.x);
    const Eigen::Index n = static_cast<Eigen::Index>(g.index.size());
    for (std::size_t r = 0; r < g.rows.size(); ++r) {
      const QuadraticRow& row = g.rows[r];
      d.Hx.head(n).noalias() = row.H * d.x.head(n);
      for (Eigen::Index k = 0; k < n; ++k)
        values[sl[r * static_cast<std::size_t>(n) + static_cast<std::size_t>(k)]] =
            row.t(k) + 2.0 * d.Hx(k);
    }
  }
  return d.A;
}

const Eigen::VectorXd& constraintVelocityTerm(const Structure& s, StructureData& d,
                                              const Eigen::VectorXd& qd) {
  checkSize(qd, s.nq(), "constraintVelocityTerm: qd");
  for (const RowGroup& g : s.rowGroups()) {
    gather(g, qd, d.x);
    const Eigen::Index n = static_cast<Eigen::Index>(g.index.size());
    for (std::size_t r = 0; r < g.rows.size(); ++r) {
      d.Hx.head(n).noalias() = g.rows[r].H * d.x.head(n);
      d.Adotqd(g.firstRow + static_cast<int>(r)) = 2.0 * d.x.head(n).dot(d.Hx.head(n));
    }
  }
  return d.Adotqd;
}

double kineticEnergy(const Structure& s, StructureData& d, const Eigen::VectorXd& qd) {
  checkSize(qd, s.nq(), "kineticEnergy: qd");
  d.Mqd.noalias() = s.massMatrix() * qd;
  return 0.5 * qd.dot(d.Mqd);
}

double potentialEnergy(const Structure& s, StructureData& d, const Eigen::VectorXd& q) {
  checkSize(q, s.nq(), "potentialEnergy: q");
  double springs = 0;
  for (std::size_t k = 0; k < s.apparatuses().size(); ++k) {
    const CompiledApparatus& a = s.apparatuses()[k];
    Eigen::Vector3d pA = Eigen::Vector3d::Zero(), pB;
    if (a.bodyA >= 0) apply(a.CA, q, s.bodyOffset(a.bodyA), pA);
    else
      for (Eigen::Index i = 0; i < a.groundA.size(); ++i) pA(i) = a.groundA(i);
    apply(a.CB, q, s.bodyOffset(a.bodyB), pB);
    const double stretch = (pB - pA).norm() - a.restLength;
    if (a.type == ApparatusType::Spring || stretch > 0)
      springs += 0.5 * a.stiffness * stretch * stretch;
  }
  d.springEnergy = springs;
  return springs - s.gravityForce().dot(q);
}

StructureEnergy energy(const Structure& s, StructureData& d, const Eigen::VectorXd& q,
                       const Eigen::VectorXd& qd) {
  return {kineticEnergy(s, d, qd), potentialEnergy(s, d, q)};
}

StructureSpec barChain(int n) {
  if (n < 1) throw std::invalid_argument("barChain: n must be >= 1");
  StructureSpec s;
  s.name = "bar_chain" + std::to_string(n);
  s.description = "A chain of " + std::to_string(n) + " unit bars on revolute joints";
  s.dimension = 2;
  s.gravity = Eigen::Vector3d(0, -9.81, 0);
  for (int i = 0; i < n; ++i) {
    BodySpec b;
    b.name = "bar" + std::to_string(i + 1);
    b.kind = BodyKind::Bar2D;
    b.origin = Eigen::Vector3d(i, 0, 0);
    b.massCentre = Eigen::Vector3d(0.5, 0, 0);
    b.inertia(0, 0) = 1.0 / 12;
    s.bodies.push_back(b);
    JointSpec j;
    j.name = "joint" + std::to_string(i + 1);
    j.hen = i - 1;
    j.egg = i;
    j.point = b.origin;
    s.joints.push_back(j);
  }
  return s;
}

Eigen::Vector3d pointPosition(const Structure& s, int b, const Eigen::Vector3d& c,
                              const Eigen::VectorXd& q) {
  checkSize(q, s.nq(), "pointPosition: q");
  const Body& body = s.bodies().at(static_cast<std::size_t>(b));
  const Eigen::MatrixXd& Y = body.canonicalMap();
  const int dim = body.dimension(), off = s.bodyOffset(b);
  Eigen::Vector3d out = Eigen::Vector3d::Zero();
  for (Eigen::Index j = 0; j < Y.cols(); ++j) {
    const double qj = q(off + j);
    for (int i = 0; i < dim; ++i) {
      double w = Y(i, j);
      for (int a = 0; a < body.axes(); ++a) w += c(a) * Y(dim * (a + 1) + i, j);
      out(i) += w * qj;
    }
  }
  return out;
}

}  // namespace art::natural
