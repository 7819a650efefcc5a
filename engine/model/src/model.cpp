#include "articulate/model/model.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include <Eigen/Eigenvalues>

#include "compile_detail.h"

namespace art {

bool hasControlCharacter(const std::string& name) {
  return std::any_of(name.begin(), name.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u < 0x20 || u == 0x7F;
  });
}

namespace {

// a name for a message: its control characters as \xHH (a NUL would end the message)
std::string escaped(const std::string& name) {
  std::string out;
  for (const char c : name) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u != 0x7F) {
      out += c;
      continue;
    }
    static const char* hex = "0123456789ABCDEF";
    out += "\\x";
    out += hex[u >> 4];
    out += hex[u & 15];
  }
  return out;
}

// what compile says of a name with a control character
const char* const kControlCharacter =
    "has a control character (U+0000..U+001F or U+007F), which no model format can write as a name";

std::string bodyMessage(int index, const std::string& name, const std::string& field,
                        const std::string& reason) {
  std::ostringstream s;
  s << "bodies[" << index << "]." << field << ": " << reason << " (body '" << name << "')";
  return s.str();
}

template <class M>
bool allFinite(const M& m) {
  return m.allFinite();
}

// a tolerance relative to the size of the entries
template <class M>
double tolFor(const M& m) {
  return 1e-9 * std::max(1.0, m.cwiseAbs().maxCoeff());
}

void checkSymmetricPsd(const Eigen::MatrixXd& I, int b, const std::string& name,
                       const std::string& field) {
  if (!allFinite(I)) throw ModelError(b, name, field, "contains NaN or Inf");
  const double tol = tolFor(I);
  if ((I - I.transpose()).cwiseAbs().maxCoeff() > tol)
    throw ModelError(b, name, field, "matrix is not symmetric");
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(I, Eigen::EigenvaluesOnly);
  if (es.eigenvalues().minCoeff() < -tol) {
    std::ostringstream s;
    s << "matrix is not positive semi-definite (smallest eigenvalue "
      << es.eigenvalues().minCoeff() << ")";
    throw ModelError(b, name, field, s.str());
  }
}

void checkInertia(const BodySpec& body, int b) {
  const InertiaSpec& in = body.inertia;
  if (in.raw) {
    checkSymmetricPsd(in.matrix, b, body.name, "inertia.matrix");
    return;
  }
  if (!std::isfinite(in.mass)) throw ModelError(b, body.name, "inertia.mass", "is not finite");
  if (in.mass < 0) {
    std::ostringstream s;
    s << "must be >= 0, got " << in.mass;
    throw ModelError(b, body.name, "inertia.mass", s.str());
  }
  if (!in.com.allFinite()) throw ModelError(b, body.name, "inertia.com", "is not finite");
  checkSymmetricPsd(in.aboutCom, b, body.name, "inertia.about_com");
  // principal moments of a real body satisfy the triangle inequality
  Eigen::SelfAdjointEigenSolver<Mat3> es(in.aboutCom, Eigen::EigenvaluesOnly);
  const Vec3 p = es.eigenvalues();
  const double tol = tolFor(in.aboutCom);
  if (p(0) + p(1) < p(2) - tol)
    throw ModelError(b, body.name, "inertia.about_com",
                     "principal moments violate the triangle inequality (Ia + Ib >= Ic)");
  // fuzz_urdf: a centre of mass 1e308 m out is finite, but mass x distance^2 is not
  if (!in.spatial().allFinite())
    throw ModelError(b, body.name, "inertia.com",
                     "is so far from the body frame that the spatial inertia (mass x distance^2) overflows");
}

}  // namespace

ModelError::ModelError(int bodyIndex, const std::string& bodyName, const std::string& field,
                       const std::string& reason)
    : std::runtime_error(bodyMessage(bodyIndex, bodyName, field, reason)),
      m_body(bodyIndex),
      m_field(field),
      m_reason(reason) {}

ModelError::ModelError(const std::string& field, const std::string& reason)
    : std::runtime_error(field + ": " + reason), m_field(field), m_reason(reason) {}

namespace {

void checkControl(const BodySpec& b, int i) {
  const ControlSpec& c = b.control;
  for (double v : {c.torque, c.kp, c.kd, c.target, c.targetVelocity})
    if (!std::isfinite(v)) throw ModelError(i, b.name, "control", "contains NaN or Inf");
  if (c.type == ControlSpec::Type::PD && (c.kp < 0 || c.kd < 0))
    throw ModelError(i, b.name, "control", "PD gains kp and kd must be >= 0");
  if (c.type != ControlSpec::Type::Table) return;
  if (c.times.empty() || c.times.size() != c.torques.size())
    throw ModelError(i, b.name, "control",
                     "a table needs as many torques as times, and at least one of each");
  for (std::size_t k = 0; k < c.times.size(); ++k) {
    if (!std::isfinite(c.times[k]) || !std::isfinite(c.torques[k]))
      throw ModelError(i, b.name, "control", "table entries must be finite");
    if (k > 0 && !(c.times[k] > c.times[k - 1]))
      throw ModelError(i, b.name, "control.t", "times must increase");
  }
}

}  // namespace

namespace {

// body i's own checks: name, parent, joint, placement, inertia, initial state, controller
void checkBody(const ModelSpec& spec, int i, std::set<std::string>& seen) {
  const int nb = static_cast<int>(spec.bodies.size());
  const bool planar = spec.arithmetic == Arithmetic::Planar;
  const BodySpec& b = spec.bodies[i];
  if (b.name.empty()) throw ModelError(i, b.name, "name", "must not be empty");
  if (hasControlCharacter(b.name)) throw ModelError(i, escaped(b.name), "name", kControlCharacter);
  if (!seen.insert(b.name).second) throw ModelError(i, b.name, "name", "is used twice");
  if (b.parent < -1 || b.parent >= nb) {
    std::ostringstream s;
    s << "index " << b.parent << " is not a body";
    throw ModelError(i, b.name, "parent", s.str());
  }
  if (b.parent >= i)
    throw ModelError(i, b.name, "parent",
                     "'" + spec.bodies[b.parent].name +
                         "' must come before its child (parents precede children)");
  if (isPlanar(b.joint.type) != planar) {
    throw ModelError(i, b.name, "joint.type",
                     "'" + std::string(jointCode(b.joint.type)) + "' is a " +
                         (planar ? "spatial" : "planar") + " joint in a " +
                         (planar ? "planar" : "spatial") + " model");
  }
  if (!std::isfinite(b.joint.pitch))
    throw ModelError(i, b.name, "joint.pitch", "is not finite");
  if (!b.rotation.allFinite() || !b.translation.allFinite())
    throw ModelError(i, b.name, "placement", "contains NaN or Inf");
  if (!isProperRotation(b.rotation))
    throw ModelError(i, b.name, "placement.rotation", "is not a proper rotation matrix");
  if (planar && (std::abs(b.rotation(2, 2) - 1.0) > 1e-12 || b.translation.z() != 0.0))
    throw ModelError(i, b.name, "placement",
                     "planar models place joints by a rotation about z and an x-y offset");
  checkInertia(b, i);
  if (!std::isfinite(b.q0) || !std::isfinite(b.qd0) || !b.freePosition.allFinite() ||
      !b.freeOrientation.allFinite() || !b.freeVelocity.allFinite())
    throw ModelError(i, b.name, "initial state", "is not finite");
  checkControl(b, i);
  const bool free = b.joint.type == JointType::Free;
  if (free && b.parent != -1)
    throw ModelError(i, b.name, "joint.type",
                     "a free joint must connect the body to the fixed base (parent -1)");
  if (!hasQuaternion(b.joint.type)) return;
  const std::string kind = "a " + std::string(jointCode(b.joint.type)) + " joint";
  if (b.control.type != ControlSpec::Type::None)
    throw ModelError(i, b.name, "control", kind + " takes no controller");
  if (!(b.freeOrientation.stableNorm() > 0))  // stable: [1e200 0 0 0] is a rotation, not infinity
    throw ModelError(i, b.name, "initial.orientation", "the quaternion must not be zero");
}

}  // namespace

void initialJointState(const BodySpec& b, Eigen::Ref<Eigen::VectorXd> q, Eigen::Ref<Eigen::VectorXd> qd) {
  const JointType t = b.joint.type;
  if (q.size() != jointNq(t) || qd.size() != jointNv(t))
    throw std::invalid_argument("initialJointState: body '" + b.name + "' needs " + std::to_string(jointNq(t)) +
                                " positions and " + std::to_string(jointNv(t)) + " velocities");
  if (!hasQuaternion(t)) {
    q(0) = b.q0;
    qd(0) = b.qd0;
    return;
  }
  if (t == JointType::Free) q.head<3>() = b.freePosition;
  // [1e200 0 0 0]: its plain norm overflows and normalized() gave 0; every other quaternion is
  // normalized() as before, bit for bit
  const double plain = b.freeOrientation.norm();
  q.segment<4>(quaternionOffset(t)) =
      plain > 0 && std::isfinite(plain) ? b.freeOrientation.normalized() : b.freeOrientation.stableNormalized();
  qd = b.freeVelocity.head(jointNv(t));
}

namespace {

// body i's joint into the model's topology: parent, q and v indices, initial state, the
// parent of each degree of freedom
void appendJoint(Model& m, const BodySpec& b, int i) {
  const int qi = m.qIndex.empty() ? 0 : m.qIndex.back() + jointNq(m.joints.back().type);
  const int vi = m.vIndex.empty() ? 0 : m.vIndex.back() + jointNv(m.joints.back().type);
  m.parent.push_back(b.parent);
  m.joints.push_back(b.joint);
  m.names.push_back(b.name);
  m.qIndex.push_back(qi);
  m.vIndex.push_back(vi);
  const int nq = jointNq(b.joint.type), nv = jointNv(b.joint.type);
  m.hasQuaternions = m.hasQuaternions || hasQuaternion(b.joint.type);
  initialJointState(b, m.q0.segment(qi, nq), m.qd0.segment(vi, nv));
  // a joint's variables form a chain below the parent's last one in the expanded tree
  const int p = b.parent;
  const int parentDof = p < 0 ? -1 : m.vIndex[p] + jointNv(m.joints[p].type) - 1;
  for (int k = 0; k < nv; ++k) {
    m.dofParent.push_back(k == 0 ? parentDof : vi + k - 1);
    m.dofBody.push_back(i);
  }
}

// body i's inertia, motion subspace and joint placement in the arithmetic's own arrays
void appendBodyArrays(Model& m, const BodySpec& b, bool planar) {
  const Mat6 I = b.inertia.spatial();
  if (planar) {
    // planar quantities are the (wz, vx, vy) rows and columns of the spatial ones
    const int idx[3] = {2, 3, 4};
    Mat3 Ip;
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) Ip(r, c) = I(idx[r], idx[c]);
    m.planar.I.push_back(Ip);
    m.planar.S.push_back(b.joint.planarSubspace());
    m.planar.axis.push_back(b.joint.unitAxis());
    m.planar.turnAxis.push_back(-1);
    PlanarTransform X;
    X.c = b.rotation(0, 0);
    X.s = b.rotation(0, 1);
    X.r = b.translation.head<2>();
    m.planar.Xtree.push_back(X);
  } else {
    m.spatial.I.push_back(I);
    m.spatial.S.push_back(b.joint.subspace());
    m.spatial.axis.push_back(b.joint.unitAxis());
    const JointType jt = b.joint.type;
    const bool turns = jt == JointType::Rx || jt == JointType::Ry || jt == JointType::Rz;
    const bool plain = b.rotation == Mat3::Identity();  // Xtree does not rotate
    m.spatial.turnAxis.push_back(turns && plain ? b.joint.unitAxis() : -1);
    m.spatial.Xtree.push_back({b.rotation, b.translation});
  }
}

// constraints[k] refers to joints or bodies that exist, with finite numbers
void checkConstraint(const ModelSpec& spec, std::size_t k) {
  const int nb = static_cast<int>(spec.bodies.size());
  const ConstraintSpec& c = spec.constraints[k];
  const std::string field = "constraints[" + std::to_string(k) + "]";
  if (hasControlCharacter(c.name))
    throw ModelError(field + ".name", "'" + escaped(c.name) + "' " + kControlCharacter);
  auto isBody = [&](int b, bool baseAllowed) { return (baseAllowed && b == -1) || (b >= 0 && b < nb); };
  if (c.type == ConstraintSpec::Type::Coupling) {
    if (!isBody(c.joint, false)) throw ModelError(field + ".joint", "is not a joint");
    if (!isBody(c.master, false)) throw ModelError(field + ".master", "is not a joint");
    if (c.joint == c.master) throw ModelError(field + ".master", "must differ from joint");
    if (hasQuaternion(spec.bodies[c.joint].joint.type))
      throw ModelError(field + ".joint", "a coupling cannot use a free or ball joint");
    if (hasQuaternion(spec.bodies[c.master].joint.type))
      throw ModelError(field + ".master", "a coupling cannot use a free or ball joint");
    if (!std::isfinite(c.ratio) || !std::isfinite(c.offset))
      throw ModelError(field, "ratio and offset must be finite");
  } else {
    if (!isBody(c.bodyA, true)) throw ModelError(field + ".a.body", "is not a body");
    if (!isBody(c.bodyB, true)) throw ModelError(field + ".b.body", "is not a body");
    if (c.bodyA == c.bodyB) throw ModelError(field + ".b.body", "must differ from a.body");
    if (!c.pointA.allFinite() || !c.pointB.allFinite() || !c.axisA.allFinite() ||
        !c.axisB.allFinite())
      throw ModelError(field, "points and axes must be finite");
    if (c.align && (c.axisA.norm() == 0 || c.axisB.norm() == 0))
      throw ModelError(field, "alignment axes must be nonzero");
  }
}

// contacts, ground and external forces: checked, then copied into the model
void compileForces(const ModelSpec& spec, Model& m) {
  const int nb = static_cast<int>(spec.bodies.size());
  const bool planar = spec.arithmetic == Arithmetic::Planar;
  for (std::size_t k = 0; k < spec.contacts.size(); ++k) {
    const auto& cp = spec.contacts[k];
    const std::string field = "contacts[" + std::to_string(k) + "]";
    if (cp.body < 0 || cp.body >= nb) throw ModelError(field + ".body", "is not a body");
    if (!cp.point.allFinite()) throw ModelError(field + ".point", "is not finite");
    if (!(cp.radius >= 0) || !std::isfinite(cp.radius)) throw ModelError(field + ".radius", "must be a number >= 0");
    m.contacts.push_back(cp);
  }
  for (std::size_t k = 0; k < spec.sites.size(); ++k) {
    const SiteSpec& s = spec.sites[k];
    const std::string field = "sites[" + std::to_string(k) + "]";
    if (s.body < -1 || s.body >= nb) throw ModelError(field + ".body", "is not a body or the base");
    if (!s.position.allFinite()) throw ModelError(field + ".position", "is not finite");
    if (!(s.size > 0) || !std::isfinite(s.size)) throw ModelError(field + ".size", "must be a number > 0");
    if (!((s.colour.array() >= 0).all() && (s.colour.array() <= 1).all()))
      throw ModelError(field + ".colour", "components must be in [0, 1]");
    if (!(s.opacity >= 0 && s.opacity <= 1)) throw ModelError(field + ".opacity", "must be in [0, 1]");
  }
  const GroundSpec& gr = spec.ground;
  if (!(gr.stiffness > 0) || !std::isfinite(gr.stiffness))
    throw ModelError("ground.stiffness", "must be > 0");
  if (!(gr.damping > 0) || !std::isfinite(gr.damping))
    throw ModelError("ground.damping", "must be > 0");
  if (!(gr.friction >= 0) || !std::isfinite(gr.friction))
    throw ModelError("ground.friction", "must be >= 0");
  m.ground = gr;
  m.constraints = spec.constraints;
  for (std::size_t k = 0; k < spec.forces.size(); ++k) {
    const ExternalForceSpec& f = spec.forces[k];
    const std::string field = "forces[" + std::to_string(k) + "]";
    if (f.body < 0 || f.body >= nb) throw ModelError(field + ".body", "is not a body");
    if (!f.point.allFinite() || !f.force.allFinite() || !f.torque.allFinite())
      throw ModelError(field, "point, force and torque must be finite");
    if (planar && (f.point.z() != 0 || f.force.z() != 0 || f.torque.x() != 0 || f.torque.y() != 0))
      throw ModelError(field, "planar models take forces in the x-y plane and torques about z");
  }
  m.forces = spec.forces;
}

}  // namespace

namespace {

// keyframes[k]: a unique non-empty name, a finite time, and a finite state of the model's sizes
void checkKeyframes(const ModelSpec& spec, int nq, int nv, int nu, int na) {
  if (spec.keyframes.size() > static_cast<std::size_t>(kMaxKeyframes))
    throw ModelError("keyframes", std::to_string(spec.keyframes.size()) + " keyframes, more than the " +
                                      std::to_string(kMaxKeyframes) + " a model may have");
  std::map<std::string, std::size_t> first;  // name -> its first keyframe: n log n, not n^2
  for (std::size_t k = 0; k < spec.keyframes.size(); ++k) {
    const KeyframeSpec& f = spec.keyframes[k];
    const std::string field = "keyframes[" + std::to_string(k) + "]";
    if (f.name.empty()) throw ModelError(field + ".name", "is empty");
    if (hasControlCharacter(f.name))
      throw ModelError(field + ".name", "'" + escaped(f.name) + "' " + kControlCharacter);
    if (const auto [at, added] = first.emplace(f.name, k); !added)
      throw ModelError(field + ".name", "'" + f.name + "' is also the name of keyframes[" +
                                            std::to_string(at->second) + "]");
    if (!std::isfinite(f.time)) throw ModelError(field + ".time", "is not finite");
    const std::pair<const char*, std::pair<const Eigen::VectorXd*, int>> states[] = {
        {"q", {&f.q, nq}}, {"qd", {&f.qd, nv}}, {"ctrl", {&f.ctrl, nu}}, {"act", {&f.act, na}}};
    for (const auto& [name, state] : states) {
      const auto& [v, n] = state;
      const bool optional = name[0] == 'c' || name[0] == 'a';  // ctrl and act may be empty (zero)
      const char* what = name[0] == 'c' ? " actuators" : name[0] == 'a' ? " activations" : name[1] ? " velocities" : " positions";
      if (v->size() != n && !(optional && v->size() == 0))
        throw ModelError(field + "." + name,
                         "has " + std::to_string(v->size()) + " entries, the model has " +
                             std::to_string(n) + what + " (keyframe '" + f.name + "')");
      if (!v->allFinite())
        throw ModelError(field + "." + name, "has a number that is not finite (keyframe '" + f.name + "')");
    }
  }
}

}  // namespace

namespace {

// a body's joint limits and friction: numbers that make sense, on a one-variable joint
void checkLimits(const ModelSpec& spec, int i) {
  const BodySpec& b = spec.bodies[static_cast<std::size_t>(i)];
  const JointLimits& l = b.limits;
  if (!std::isfinite(b.friction) || b.friction < 0) throw ModelError(i, b.name, "friction", "must be a number >= 0");
  for (const auto& [value, what] : {std::pair{l.lower, "lower"}, std::pair{l.upper, "upper"}})
    if (value && !std::isfinite(*value))
      throw ModelError(i, b.name, std::string("limits.") + what, "must be a finite number");
  for (const auto& [value, what] : {std::pair{l.effort, "effort"}, std::pair{l.velocity, "velocity"}})
    if (value && !(*value > 0 && std::isfinite(*value)))
      throw ModelError(i, b.name, std::string("limits.") + what, "must be a number > 0");
  if (l.lower && l.upper && *l.lower > *l.upper) {
    std::ostringstream s;
    s << "lower (" << *l.lower << ") is above upper (" << *l.upper << ")";
    throw ModelError(i, b.name, "limits", s.str());
  }
  if (hasQuaternion(b.joint.type) && (!l.empty() || b.friction > 0))
    throw ModelError(i, b.name, l.empty() ? "friction" : "limits",
                     "a " + std::string(jointCode(b.joint.type)) + " joint takes no limits or friction");
}

}  // namespace

Model compile(const ModelSpec& spec) {
  Model m;
  m.arithmetic = spec.arithmetic;
  const bool planar = spec.arithmetic == Arithmetic::Planar;
  const int nb = static_cast<int>(spec.bodies.size());
  m.nb = nb;
  m.gravity = spec.effectiveGravity();
  if (hasControlCharacter(spec.name)) throw ModelError("name", "'" + escaped(spec.name) + "' " + kControlCharacter);
  if (nb > kMaxBodies)
    throw ModelError("bodies", std::to_string(nb) + " bodies, more than the " + std::to_string(kMaxBodies) +
                                   " a model may have");
  if (!m.gravity.allFinite()) throw ModelError("gravity", "is not finite");
  if (planar && m.gravity.z() != 0.0)
    throw ModelError("gravity", "planar models take gravity in the x-y plane (z must be 0)");
  int nq = 0, nv = 0;
  for (const BodySpec& b : spec.bodies) {
    nq += jointNq(b.joint.type);
    nv += jointNv(b.joint.type);
  }
  if (nv > kMaxDegreesOfFreedom)
    throw ModelError("bodies", std::to_string(nv) + " degrees of freedom (velocity variables), more than the " +
                                   std::to_string(kMaxDegreesOfFreedom) + " a model may have");
  m.nqTotal = nq;
  m.nvTotal = nv;
  m.q0.resize(nq);
  m.qd0.resize(nv);

  std::set<std::string> seen;
  for (int i = 0; i < nb; ++i) {
    checkBody(spec, i, seen);
    appendJoint(m, spec.bodies[i], i);
    appendBodyArrays(m, spec.bodies[i], planar);
  }
  m.spatial.aGrav.setZero();
  m.planar.aGrav.setZero();
  m.spatial.aGrav.tail<3>() = -m.gravity;
  m.planar.aGrav.tail<2>() = -m.gravity.head<2>();

  for (std::size_t k = 0; k < spec.constraints.size(); ++k) checkConstraint(spec, k);
  compileForces(spec, m);
  detail::compileActuation(spec, m);
  checkKeyframes(spec, m.nq(), m.nv(), m.nu(), m.na);
  m.controlled = false;
  for (std::size_t i = 0; i < spec.bodies.size(); ++i) {
    const BodySpec& b = spec.bodies[i];
    if (!std::isfinite(b.damping) || b.damping < 0)
      throw ModelError(static_cast<int>(i), b.name, "damping", "must be a number >= 0");
    if (b.damping > 0 && b.joint.type == JointType::Free)
      throw ModelError(static_cast<int>(i), b.name, "damping", "a free joint takes no damping");
    checkLimits(spec, static_cast<int>(i));
    if (!std::isfinite(b.armature) || b.armature < 0)
      throw ModelError(static_cast<int>(i), b.name, "armature", "must be a number >= 0");
    if (b.armature > 0 && b.joint.type == JointType::Free)
      throw ModelError(static_cast<int>(i), b.name, "armature", "a free joint takes no armature");
    m.controls.push_back(b.control);
    m.damping.push_back(b.damping);
    m.limits.push_back(b.limits);
    m.friction.push_back(b.friction);
    m.controlled = m.controlled || b.control.type != ControlSpec::Type::None || b.damping > 0;
    m.stops = m.stops || b.limits.lower || b.limits.upper || b.friction > 0;
  }
  detail::compilePhysics(spec, m);
  detail::compileGeoms(spec, m);
  // armature: per velocity variable; its joints take ABA's general inward step (the revolute
  // one assumes Ia S = 0, which armature breaks)
  m.armature = Eigen::VectorXd::Zero(m.nv());
  for (std::size_t i = 0; i < spec.bodies.size(); ++i)
    if (spec.bodies[i].armature > 0) {
      m.armature.segment(m.vIndex[i], m.jointNv(static_cast<int>(i))).setConstant(spec.bodies[i].armature);
      m.hasArmature = true;
      if (m.arithmetic == Arithmetic::Spatial) m.spatial.turnAxis[i] = -1;
    }
  return m;
}

bool parseIntegrator(const std::string& name, Integrator& out) {
  if (name == "rk4") out = Integrator::RK4;
  else if (name == "euler") out = Integrator::SemiImplicitEuler;
  else if (name == "dopri5") out = Integrator::DormandPrince45;
  else if (name == "mujoco-euler") out = Integrator::MujocoEuler;
  else if (name == "mujoco-implicitfast") out = Integrator::MujocoImplicitFast;
  else return false;
  return true;
}

const char* integratorName(Integrator integrator) {
  switch (integrator) {
    case Integrator::RK4: return "rk4";
    case Integrator::SemiImplicitEuler: return "euler";
    case Integrator::DormandPrince45: return "dopri5";
    case Integrator::MujocoEuler: return "mujoco-euler";
    case Integrator::MujocoImplicitFast: return "mujoco-implicitfast";
  }
  return "rk4";
}

}  // namespace art
