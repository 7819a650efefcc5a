// compile()'s part for joint springs, tendons and actuators (spec.h: TendonSpec, ActuatorSpec):
// every reference, range and parameter checked with MuJoCo 2.2.2's compiler's rules, and the
// activation layout.
#include <cmath>
#include <sstream>
#include <string>

#include "compile_detail.h"

namespace art::detail {

namespace {

std::string str(double x) {
  std::ostringstream s;
  s << x;
  return s.str();
}

bool finiteArray(const double* v, int n) {
  for (int k = 0; k < n; ++k)
    if (!std::isfinite(v[k])) return false;
  return true;
}

bool properRotation(const Mat3& R) {
  return R.allFinite() && (R.transpose() * R - Mat3::Identity()).cwiseAbs().maxCoeff() <= 1e-9 &&
         std::abs(R.determinant() - 1.0) <= 1e-9;
}

// a range [lo, hi] with lo < hi, both finite
void checkRange(const std::optional<std::array<double, 2>>& r, const std::string& field, const std::string& who) {
  if (!r) return;
  if (!std::isfinite((*r)[0]) || !std::isfinite((*r)[1]))
    throw ModelError(field, "must be finite (" + who + ")");
  if (!((*r)[0] < (*r)[1]))
    throw ModelError(field, "its lower end (" + str((*r)[0]) + ") must be below its upper end (" + str((*r)[1]) + ") (" +
                                who + ")");
}

void checkName(const std::string& name, const std::string& field) {
  if (hasControlCharacter(name))
    throw ModelError(field + ".name", "has a control character (U+0000..U+001F or U+007F), which no model format can "
                                      "write as a name");
}

std::string label(const char* kind, const std::string& name, std::size_t k) {
  return name.empty() ? std::string(kind) + " " + std::to_string(k) : std::string(kind) + " '" + name + "'";
}

void checkTendon(const ModelSpec& spec, std::size_t k) {
  const TendonSpec& t = spec.tendons[k];
  const std::string field = "tendons[" + std::to_string(k) + "]", who = label("tendon", t.name, k);
  checkName(t.name, field);
  using Kind = TendonSpec::Element::Kind;
  const int nb = static_cast<int>(spec.bodies.size()), ns = static_cast<int>(spec.sites.size());
  const std::size_t n = t.path.size();
  if (n == 0) throw ModelError(field + ".path", "is empty (" + who + ")");
  const bool spatial = t.spatial();
  if (spatial && n < 2) throw ModelError(field + ".path", "a spatial tendon needs at least two elements (" + who + ")");
  if (spatial && spec.arithmetic == Arithmetic::Planar)
    throw ModelError(field + ".path", "planar models take fixed tendons only (" + who + ")");
  for (std::size_t i = 0; i < n; ++i) {
    const TendonSpec::Element& e = t.path[i];
    const std::string at = field + ".path[" + std::to_string(i) + "]";
    const auto kindAt = [&](std::size_t j) { return t.path[j].kind; };
    if (!spatial) {
      if (e.kind != Kind::Joint) throw ModelError(at, "a fixed tendon's path holds joints only (" + who + ")");
      if (e.index < 0 || e.index >= nb) throw ModelError(at + ".joint", "is not a joint of the model (" + who + ")");
      if (hasQuaternion(spec.bodies[static_cast<std::size_t>(e.index)].joint.type))
        throw ModelError(at + ".joint", "a fixed tendon takes hinge and slide joints, not '" +
                                            spec.bodies[static_cast<std::size_t>(e.index)].name + "' (" + who + ")");
      if (!std::isfinite(e.coef)) throw ModelError(at + ".coef", "is not finite (" + who + ")");
      continue;
    }
    switch (e.kind) {
      case Kind::Joint:
        throw ModelError(at, "a spatial tendon's path holds no joints (" + who + ")");
      case Kind::Pulley:
        if (!(e.coef > 0) || !std::isfinite(e.coef)) throw ModelError(at + ".divisor", "must be > 0 (" + who + ")");
        if (i > 0 && kindAt(i - 1) == Kind::Pulley) throw ModelError(at, "two pulleys in a row (" + who + ")");
        if (i == n - 1) throw ModelError(at, "the path ends with a pulley (" + who + ")");
        if (i == 0) throw ModelError(at, "the path starts with a pulley (" + who + ")");
        break;
      case Kind::Site:
        if (e.index < 0 || e.index >= ns) throw ModelError(at + ".site", "is not a site of the model (" + who + ")");
        if ((i == 0 || kindAt(i - 1) == Kind::Pulley) && (i == n - 1 || kindAt(i + 1) == Kind::Pulley))
          throw ModelError(at, "a site needs a neighbour that is not a pulley (" + who + ")");
        if (i + 1 < n && kindAt(i + 1) == Kind::Site && t.path[i + 1].index == e.index)
          throw ModelError(at, "the same site twice in a row (" + who + ")");
        break;
      case Kind::Sphere:
      case Kind::Cylinder:
        if (i == 0 || i == n - 1 || kindAt(i - 1) != Kind::Site || kindAt(i + 1) != Kind::Site)
          throw ModelError(at, "a wrapping shape must lie between two sites (" + who + ")");
        if (e.body < -1 || e.body >= nb) throw ModelError(at + ".body", "is not a body or the base (" + who + ")");
        if (!e.position.allFinite()) throw ModelError(at + ".position", "is not finite (" + who + ")");
        if (!properRotation(e.rotation)) throw ModelError(at + ".rotation", "is not a proper rotation (" + who + ")");
        if (!(e.radius > 0) || !std::isfinite(e.radius)) throw ModelError(at + ".radius", "must be > 0 (" + who + ")");
        if (e.sideSite < -1 || e.sideSite >= ns)
          throw ModelError(at + ".side_site", "is not a site of the model (" + who + ")");
        break;
    }
  }
  for (const auto& [v, name] : {std::pair{t.stiffness, "stiffness"}, std::pair{t.damping, "damping"},
                                std::pair{t.frictionloss, "frictionloss"}})
    if (!(v >= 0) || !std::isfinite(v)) throw ModelError(field + "." + name, "must be a number >= 0 (" + who + ")");
  if (t.springLength && !std::isfinite(*t.springLength))
    throw ModelError(field + ".spring_length", "is not finite (" + who + ")");
  if (!(t.width > 0) || !std::isfinite(t.width)) throw ModelError(field + ".width", "must be > 0 (" + who + ")");
  if (!((t.colour.array() >= 0).all() && (t.colour.array() <= 1).all()))
    throw ModelError(field + ".colour", "components must be in [0, 1] (" + who + ")");
  checkRange(t.range, field + ".range", who);
}

// MuJoCo's muscle parameters (mjCActuator::Compile)
void checkMuscle(const std::array<double, 10>& p, const std::string& field, const std::string& who) {
  if (!(p[0] < p[1])) throw ModelError(field, "a muscle's range needs range[0] < range[1] (" + who + ")");
  if (!(p[4] < 1) || !(p[5] > 1)) throw ModelError(field, "a muscle needs lmin < 1 < lmax (" + who + ")");
  if (!(p[3] > 0) || !(p[6] > 0) || !(p[7] > 0) || !(p[8] > 0))
    throw ModelError(field, "a muscle needs scale, vmax, fpmax and fvmax > 0 (" + who + ")");
}

void checkActuator(const ModelSpec& spec, std::size_t k) {
  const ActuatorSpec& a = spec.actuators[k];
  const std::string field = "actuators[" + std::to_string(k) + "]", who = label("actuator", a.name, k);
  checkName(a.name, field);
  using T = ActuatorSpec::Transmission;
  const int nb = static_cast<int>(spec.bodies.size()), ns = static_cast<int>(spec.sites.size());
  const int nt = static_cast<int>(spec.tendons.size());
  const bool planar = spec.arithmetic == Arithmetic::Planar;
  switch (a.transmission) {
    case T::Joint:
    case T::JointInParent:
      if (a.target < 0 || a.target >= nb) throw ModelError(field + ".joint", "is not a joint of the model (" + who + ")");
      break;
    case T::Tendon:
      if (a.target < 0 || a.target >= nt) throw ModelError(field + ".tendon", "is not a tendon of the model (" + who + ")");
      break;
    case T::SliderCrank:
      if (a.target < 0 || a.target >= ns) throw ModelError(field + ".crank_site", "is not a site of the model (" + who + ")");
      if (a.reference < 0 || a.reference >= ns)
        throw ModelError(field + ".slider_site", "is not a site of the model (" + who + ")");
      if (!(a.crankLength > 0) || !std::isfinite(a.crankLength))
        throw ModelError(field + ".crank_length", "must be > 0 (" + who + ")");
      break;
    case T::Site:
      if (a.target < 0 || a.target >= ns) throw ModelError(field + ".site", "is not a site of the model (" + who + ")");
      if (a.reference < -1 || a.reference >= ns)
        throw ModelError(field + ".reference_site", "is not a site of the model (" + who + ")");
      break;
  }
  if (planar && (a.transmission == T::SliderCrank || a.transmission == T::Site))
    throw ModelError(field, "planar models take joint and tendon transmissions only (" + who + ")");
  if (!finiteArray(a.gear.data(), 6)) throw ModelError(field + ".gear", "is not finite (" + who + ")");
  const int used = gearSize(spec, a);
  for (int g = used; g < 6; ++g)
    if (a.gear[static_cast<std::size_t>(g)] != 0)
      throw ModelError(field + ".gear", "this transmission takes " + std::to_string(used) + " gear number(s), not " +
                                            std::to_string(g + 1) + " (" + who + ")");
  if (!finiteArray(a.dynPrm.data(), 10) || !finiteArray(a.gainPrm.data(), 10) || !finiteArray(a.biasPrm.data(), 10))
    throw ModelError(field, "its parameters must be finite (" + who + ")");
  checkRange(a.ctrlRange, field + ".ctrl_range", who);
  if (!std::isfinite(a.ctrl0)) throw ModelError(field + ".initial_ctrl", "is not finite (" + who + ")");
  checkRange(a.forceRange, field + ".force_range", who);
  checkRange(a.actRange, field + ".act_range", who);
  checkRange(a.lengthRange, field + ".length_range", who);
  if (a.actRange && a.dynamics == ActuatorSpec::Dynamics::None)
    throw ModelError(field + ".act_range", "an actuator without dynamics has no activation to limit (" + who + ")");
  if (a.gain == ActuatorSpec::Gain::Muscle) checkMuscle(a.gainPrm, field + ".gain", who);
  if (a.bias == ActuatorSpec::Bias::Muscle) checkMuscle(a.biasPrm, field + ".bias", who);
  const bool muscle = a.gain == ActuatorSpec::Gain::Muscle || a.bias == ActuatorSpec::Bias::Muscle;
  if (muscle && !a.lengthRange) {
    // MuJoCo's compiler (lengthrange uselimit): a limited joint's or tendon's range
    bool limited = false;
    if (a.transmission == T::Joint || a.transmission == T::JointInParent) {
      const JointLimits& l = spec.bodies[static_cast<std::size_t>(a.target)].limits;
      limited = l.lower && l.upper && *l.lower < *l.upper;
    } else if (a.transmission == T::Tendon) {
      limited = spec.tendons[static_cast<std::size_t>(a.target)].range.has_value();
    }
    if (!limited)
      throw ModelError(field + ".length_range",
                       "a muscle needs its length range: give it (MJCF lengthrange), or act through a joint or a "
                       "tendon with limits (" + who + ")");
  }
}

}  // namespace

void compileActuation(const ModelSpec& spec, Model& m) {
  m.stiffness.clear();
  m.springs = false;
  m.qSpring = m.q0;
  for (std::size_t i = 0; i < spec.bodies.size(); ++i) {
    const BodySpec& b = spec.bodies[i];
    const int bi = static_cast<int>(i);
    if (!(b.stiffness >= 0) || !std::isfinite(b.stiffness))
      throw ModelError(bi, b.name, "stiffness", "must be a number >= 0");
    if (!std::isfinite(b.springRef)) throw ModelError(bi, b.name, "spring_ref", "is not finite");
    m.stiffness.push_back(b.stiffness);
    m.springs = m.springs || b.stiffness > 0;
    if (!hasQuaternion(b.joint.type)) m.qSpring(m.qIndex[i]) = b.springRef;
  }
  for (std::size_t k = 0; k < spec.sites.size(); ++k)
    if (!properRotation(spec.sites[k].rotation))
      throw ModelError("sites[" + std::to_string(k) + "].rotation", "is not a proper rotation");
  m.tendonDamping = false;
  for (std::size_t k = 0; k < spec.tendons.size(); ++k) {
    checkTendon(spec, k);
    m.springs = m.springs || spec.tendons[k].stiffness > 0;
    m.tendonDamping = m.tendonDamping || spec.tendons[k].damping > 0;
  }
  m.actIndex.clear();
  m.na = 0;
  for (std::size_t k = 0; k < spec.actuators.size(); ++k) {
    checkActuator(spec, k);
    m.actIndex.push_back(spec.actuators[k].dynamics == ActuatorSpec::Dynamics::None ? -1 : m.na++);
  }
  m.sites = spec.sites;
  m.tendons = spec.tendons;
  m.actuators = spec.actuators;
}

}  // namespace art::detail

namespace art {

int gearSize(const ModelSpec& spec, const ActuatorSpec& a) {
  using T = ActuatorSpec::Transmission;
  if (a.transmission == T::Site) return 6;
  if ((a.transmission == T::Joint || a.transmission == T::JointInParent) && a.target >= 0 &&
      a.target < static_cast<int>(spec.bodies.size())) {
    const JointType type = spec.bodies[static_cast<std::size_t>(a.target)].joint.type;
    if (type == JointType::Free) return 6;
    if (type == JointType::Ball) return 3;
  }
  return 1;
}

}  // namespace art
