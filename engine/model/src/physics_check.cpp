// compile()'s part for the soft constraint model (spec.h: PhysicsSpec, SoftParams,
// EqualitySpec): the settings, the equalities' references and every row's solver parameters,
// checked, and each row's parameters resolved as MuJoCo 2.2.2 resolves them (an element's own,
// else the default; <flag override> replaces both).
#include <cmath>
#include <sstream>
#include <string>

#include "compile_detail.h"

namespace art {

const char* solverName(PhysicsSpec::Solver solver) {
  switch (solver) {
    case PhysicsSpec::Solver::PGS: return "pgs";
    case PhysicsSpec::Solver::CG: return "cg";
    case PhysicsSpec::Solver::Newton: break;
  }
  return "newton";
}

bool parseSolver(const std::string& name, PhysicsSpec::Solver& out) {
  if (name == "newton") out = PhysicsSpec::Solver::Newton;
  else if (name == "pgs") out = PhysicsSpec::Solver::PGS;
  else if (name == "cg") out = PhysicsSpec::Solver::CG;
  else return false;
  return true;
}

const char* equalityTypeName(EqualitySpec::Type type) {
  switch (type) {
    case EqualitySpec::Type::Weld: return "weld";
    case EqualitySpec::Type::Joint: return "joint";
    case EqualitySpec::Type::Tendon: return "tendon";
    case EqualitySpec::Type::Connect: break;
  }
  return "connect";
}

namespace detail {

namespace {

std::string numberText(double x) {
  std::ostringstream s;
  s << x;
  return s.str();
}

/// Why `p` is not a usable set of solver parameters, or "" when it is. Both numbers of solref
/// finite and of one form: a time constant > 0 with a damping ratio > 0, or the direct form
/// with both entries <= 0 (MuJoCo replaces a mixed pair by its default with a warning; the MJCF
/// reader does so with a note, and other files are refused). solimp: five finite numbers, which
/// the rows clamp where they use them as MuJoCo 3.3.8 does (getsolparam: dmin, dmax and
/// midpoint into [0.0001, 0.9999], width to >= 0, power to >= 1), so no finite value is refused.
std::string softProblem(const SoftParams& p) {
  for (double v : p.solref)
    if (!std::isfinite(v)) return "solref must be finite";
  for (double v : p.solimp)
    if (!std::isfinite(v)) return "solimp must be finite";
  const bool direct = p.solref[0] <= 0 && p.solref[1] <= 0;
  if (!direct && !(p.solref[0] > 0))
    return "solref's time constant must be > 0 (got " + numberText(p.solref[0]) + "); the direct form gives both entries <= 0";
  if (!direct && !(p.solref[1] > 0))
    return "solref's damping ratio must be > 0 (got " + numberText(p.solref[1]) + "); the direct form gives both entries <= 0";
  return "";
}

SoftParams resolve(const PhysicsSpec& ph, const std::optional<SoftParams>& own) {
  if (ph.override) return ph.overrideSoft;
  return own ? *own : ph.soft;
}

void checkMargin(double margin, const std::string& field) {
  if (!std::isfinite(margin) || margin < 0) throw ModelError(field, "must be a number >= 0, got " + numberText(margin));
}

void checkSettings(const PhysicsSpec& ph) {
  if (ph.iterations < 1) throw ModelError("physics.iterations", "must be >= 1, got " + std::to_string(ph.iterations));
  if (!std::isfinite(ph.tolerance) || ph.tolerance < 0)
    throw ModelError("physics.tolerance", "must be a number >= 0, got " + numberText(ph.tolerance));
  if (!std::isfinite(ph.impratio) || !(ph.impratio > 0))
    throw ModelError("physics.impratio", "must be a number > 0, got " + numberText(ph.impratio));
  checkSoft(ph.soft, "physics.soft");
  checkSoft(ph.overrideSoft, "physics.override");
  checkMargin(ph.overrideMargin, "physics.override.margin");
}

// equalities[k]: its objects exist and differ, its numbers are finite
void checkEquality(const ModelSpec& spec, const Model& m, std::size_t k, EqualitySpec& e) {
  const std::string field = "equalities[" + std::to_string(k) + "]";
  const std::string who = e.name.empty() ? "" : " (equality '" + e.name + "')";
  if (hasControlCharacter(e.name)) throw ModelError(field + ".name", "has a control character");
  const int nb = m.nb, nt = static_cast<int>(spec.tendons.size());
  using T = EqualitySpec::Type;
  if (e.type == T::Connect || e.type == T::Weld) {
    for (const auto& [obj, what] : {std::pair{e.obj1, "body1"}, std::pair{e.obj2, "body2"}})
      if (obj < -1 || obj >= nb)
        throw ModelError(field + "." + what, "names no body of this model (index " + std::to_string(obj) + ")" + who);
    if (e.obj1 == e.obj2)
      throw ModelError(field + ".body2", "is body1: a " + std::string(equalityTypeName(e.type)) +
                                             " ties two different bodies" + who);
    if (!e.anchor1.allFinite() || !e.anchor2.allFinite()) throw ModelError(field + ".anchor", "must be finite" + who);
    if (e.type == T::Weld) {
      for (const auto& [quat, what] : {std::pair{&e.quat1, "quat1"}, std::pair{&e.quat2, "quat2"}}) {
        if (!quat->allFinite() || quat->norm() == 0)
          throw ModelError(field + "." + what, "must be a finite nonzero quaternion" + who);
        quat->normalize();
      }
      if (!std::isfinite(e.torquescale)) throw ModelError(field + ".torquescale", "must be finite" + who);
    }
  } else {
    const bool joint = e.type == T::Joint;
    const int n = joint ? nb : nt;
    for (const auto& [obj, what] : {std::pair{e.obj1, "1"}, std::pair{e.obj2, "2"}}) {
      const std::string f = field + (joint ? ".joint" : ".tendon") + what;
      if (obj < (what[0] == '1' ? 0 : -1) || obj >= n)
        throw ModelError(f, std::string("names no ") + (joint ? "joint" : "tendon") + " of this model (index " +
                                std::to_string(obj) + ")" + who);
      if (joint && obj >= 0 && hasQuaternion(m.joints[static_cast<std::size_t>(obj)].type))
        throw ModelError(f, "a joint equality couples hinge and slide joints, not the " +
                                std::string(jointCode(m.joints[static_cast<std::size_t>(obj)].type)) + " joint of '" +
                                m.names[static_cast<std::size_t>(obj)] + "'" + who);
    }
    if (e.obj1 == e.obj2) throw ModelError(field, "couples an element with itself" + who);
    for (double c : e.poly)
      if (!std::isfinite(c)) throw ModelError(field + ".polycoef", "must be finite" + who);
    if (!std::isfinite(e.ref1) || !std::isfinite(e.ref2)) throw ModelError(field + ".ref", "must be finite" + who);
  }
  if (e.soft) checkSoft(*e.soft, field + ".solref/solimp" + who);
}

}  // namespace

void checkSoft(const SoftParams& p, const std::string& field) {
  if (const std::string why = softProblem(p); !why.empty()) throw ModelError(field, why);
}

void compilePhysics(const ModelSpec& spec, Model& m) {
  const PhysicsSpec& ph = spec.physics;
  checkSettings(ph);
  m.physics = ph;
  m.soft = ph.constraints == PhysicsSpec::Constraints::Soft;
  if (m.soft && m.arithmetic == Arithmetic::Planar)
    throw ModelError("physics.constraints", "the soft constraint model needs a spatial model");
  if (!m.soft && !spec.equalities.empty())
    throw ModelError("equalities", "equality constraints are soft constraints: they need physics.constraints 'soft' "
                                   "(exact loops and couplings are `constraints`)");
  if (m.soft && !spec.constraints.empty())
    throw ModelError("constraints", "exact loops and couplings need physics.constraints 'exact'; in the soft model "
                                    "write them as `equalities` (connect, weld, joint)");
  m.equalities = spec.equalities;
  for (std::size_t k = 0; k < m.equalities.size(); ++k) {
    checkEquality(spec, m, k, m.equalities[k]);
    m.equalitySoft.push_back(resolve(ph, m.equalities[k].soft));
  }
  for (std::size_t i = 0; i < spec.bodies.size(); ++i) {
    const BodySpec& b = spec.bodies[i];
    if (b.limitSoft) checkSoft(*b.limitSoft, "bodies[" + std::to_string(i) + "].limit_soft (body '" + b.name + "')");
    if (b.frictionSoft)
      checkSoft(*b.frictionSoft, "bodies[" + std::to_string(i) + "].friction_soft (body '" + b.name + "')");
    checkMargin(b.margin, "bodies[" + std::to_string(i) + "].margin (body '" + b.name + "')");
    m.limitSoft.push_back(resolve(ph, b.limitSoft));
    m.frictionSoft.push_back(resolve(ph, b.frictionSoft));
    m.limitMargin.push_back(ph.override ? ph.overrideMargin : b.margin);
  }
  for (std::size_t i = 0; i < spec.tendons.size(); ++i) {
    const TendonSpec& t = spec.tendons[i];
    const std::string f = "tendons[" + std::to_string(i) + "]";
    if (t.limitSoft) checkSoft(*t.limitSoft, f + ".limit_soft");
    if (t.frictionSoft) checkSoft(*t.frictionSoft, f + ".friction_soft");
    checkMargin(t.margin, f + ".margin");
    m.tendonLimitSoft.push_back(resolve(ph, t.limitSoft));
    m.tendonFrictionSoft.push_back(resolve(ph, t.frictionSoft));
    m.tendonMargin.push_back(ph.override ? ph.overrideMargin : t.margin);
  }
  if (m.soft) m.stops = false;
}

}  // namespace detail

}  // namespace art
