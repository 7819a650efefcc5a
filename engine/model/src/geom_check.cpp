// compile()'s checks of body-body contact (ModelSpec::geoms, contactPairs, contactExcludes):
// each geom's numbers, the pairs and excludes, and that every pair of geoms that can collide
// has a narrow phase (collision.h).
#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>

#include "compile_detail.h"

namespace art {

namespace {

const char* const kGeomTypes[] = {"plane", "sphere", "capsule", "ellipsoid", "cylinder", "box"};

std::string text(double x) {
  std::ostringstream s;
  s << x;
  return s.str();
}

// MuJoCo's mjCGeom::GetRBound: the radius of the sphere about the centre that holds the geom
double boundingRadius(const GeomSpec& g) {
  const Vec3& s = g.size;
  switch (g.type) {
    case GeomSpec::Type::Plane: return 0.0;
    case GeomSpec::Type::Sphere: return s(0);
    case GeomSpec::Type::Capsule: return s(0) + s(1);
    case GeomSpec::Type::Cylinder: return std::sqrt(s(0) * s(0) + s(1) * s(1));
    case GeomSpec::Type::Ellipsoid: return s.maxCoeff();
    case GeomSpec::Type::Box: break;
  }
  return s.norm();
}

std::string geomField(const ModelSpec& spec, std::size_t k) {
  const GeomSpec& g = spec.geoms[k];
  std::string who = g.name.empty() ? "" : " (geom '" + g.name + "')";
  if (who.empty() && g.body >= 0 && g.body < static_cast<int>(spec.bodies.size()))
    who = " (a geom of body '" + spec.bodies[static_cast<std::size_t>(g.body)].name + "')";
  return "geoms[" + std::to_string(k) + "]" + who;
}

void checkGeom(const ModelSpec& spec, std::size_t k) {
  const GeomSpec& g = spec.geoms[k];
  const std::string f = geomField(spec, k);
  if (hasControlCharacter(g.name)) throw ModelError(f + ".name", "has a control character");
  if (g.body < -1 || g.body >= static_cast<int>(spec.bodies.size()))
    throw ModelError(f + ".body", "names no body of this model (index " + std::to_string(g.body) + ")");
  for (int i = 0; i < geomSizeCount(g.type); ++i)
    if (!(g.size(i) > 0) || !std::isfinite(g.size(i)))
      throw ModelError(f + ".size", std::string("a ") + geomTypeName(g.type) + "'s size " + std::to_string(i + 1) +
                                        " must be a number > 0, got " + text(g.size(i)));
  if (!g.position.allFinite()) throw ModelError(f + ".position", "must be finite");
  const Mat3& R = g.rotation;
  if (!R.allFinite() || (R.transpose() * R - Mat3::Identity()).norm() > 1e-9 || R.determinant() < 0)
    throw ModelError(f + ".rotation", "must be a proper rotation (orthonormal, determinant 1)");
  if (g.contype < 0 || g.conaffinity < 0) throw ModelError(f + ".contype", "contype and conaffinity must be >= 0");
  if (g.condim != 1 && g.condim != 3 && g.condim != 4 && g.condim != 6)
    throw ModelError(f + ".condim", "must be 1 (frictionless), 3 (sliding), 4 (and torsional) or 6 (and rolling), got " +
                                        std::to_string(g.condim));
  for (double x : g.friction)
    if (!(x >= 0) || !std::isfinite(x)) throw ModelError(f + ".friction", "must be numbers >= 0, got " + text(x));
  for (const auto& [x, name] : {std::pair{g.margin, "margin"}, std::pair{g.gap, "gap"}, std::pair{g.solmix, "solmix"}})
    if (!(x >= 0) || !std::isfinite(x)) throw ModelError(f + "." + name, "must be a number >= 0, got " + text(x));
  detail::checkSoft(g.soft, f + ".solref/solimp");
}

void checkPair(const ModelSpec& spec, std::size_t k) {
  const ContactPairSpec& p = spec.contactPairs[k];
  const std::string f = "contact_pairs[" + std::to_string(k) + "]" + (p.name.empty() ? "" : " (pair '" + p.name + "')");
  const int n = static_cast<int>(spec.geoms.size());
  for (const auto& [g, what] : {std::pair{p.geom1, "geom1"}, std::pair{p.geom2, "geom2"}})
    if (g < 0 || g >= n) throw ModelError(f + "." + what, "names no geom of this model (index " + std::to_string(g) + ")");
  if (p.geom1 == p.geom2) throw ModelError(f + ".geom2", "is geom1: a pair is of two geoms");
  if (p.condim != 1 && p.condim != 3 && p.condim != 4 && p.condim != 6)
    throw ModelError(f + ".condim", "must be 1, 3, 4 or 6, got " + std::to_string(p.condim));
  for (double x : p.friction)
    if (!(x >= 0) || !std::isfinite(x)) throw ModelError(f + ".friction", "must be numbers >= 0, got " + text(x));
  for (const auto& [x, name] : {std::pair{p.margin, "margin"}, std::pair{p.gap, "gap"}})
    if (!(x >= 0) || !std::isfinite(x)) throw ModelError(f + "." + name, "must be a number >= 0, got " + text(x));
  detail::checkSoft(p.soft, f + ".solref/solimp");
}

}  // namespace

const char* geomTypeName(GeomSpec::Type type) { return kGeomTypes[static_cast<int>(type)]; }

int geomSizeCount(GeomSpec::Type type) {
  switch (type) {
    case GeomSpec::Type::Plane: return 0;
    case GeomSpec::Type::Sphere: return 1;
    case GeomSpec::Type::Capsule:
    case GeomSpec::Type::Cylinder: return 2;
    case GeomSpec::Type::Ellipsoid:
    case GeomSpec::Type::Box: break;
  }
  return 3;
}

bool parseGeomType(const std::string& name, GeomSpec::Type& out) {
  for (int k = 0; k < 6; ++k)
    if (name == kGeomTypes[k]) {
      out = static_cast<GeomSpec::Type>(k);
      return true;
    }
  return false;
}

bool geomPairSupported(GeomSpec::Type a, GeomSpec::Type b) {
  using T = GeomSpec::Type;
  if (a > b) std::swap(a, b);
  switch (a) {
    case T::Plane: return b == T::Sphere || b == T::Capsule || b == T::Cylinder || b == T::Box;
    case T::Sphere: return b == T::Sphere || b == T::Capsule || b == T::Box;
    case T::Capsule: return b == T::Capsule || b == T::Box;
    case T::Box: return b == T::Box;
    default: return false;
  }
}

namespace {

// sorted (lower, higher) keys of the explicit pairs' geoms and of the excluded bodies
struct PairKeys {
  std::vector<std::pair<int, int>> pairs, excludes;
  explicit PairKeys(const ModelSpec& spec) {
    for (const ContactPairSpec& p : spec.contactPairs) pairs.emplace_back(std::min(p.geom1, p.geom2), std::max(p.geom1, p.geom2));
    for (const ContactExcludeSpec& e : spec.contactExcludes)
      excludes.emplace_back(std::min(e.body1, e.body2), std::max(e.body1, e.body2));
    std::sort(pairs.begin(), pairs.end());
    std::sort(excludes.begin(), excludes.end());
  }
  bool mayCollide(const ModelSpec& spec, int g1, int g2) const {
    const GeomSpec& a = spec.geoms[static_cast<std::size_t>(g1)];
    const GeomSpec& b = spec.geoms[static_cast<std::size_t>(g2)];
    const auto key = [](int x, int y) { return std::pair<int, int>(std::min(x, y), std::max(x, y)); };
    if (std::binary_search(pairs.begin(), pairs.end(), key(g1, g2))) return true;
    if (a.body == b.body) return false;  // one body, or both static
    if (a.type == GeomSpec::Type::Plane && b.type == GeomSpec::Type::Plane) return false;
    if (!(a.contype & b.conaffinity) && !(b.contype & a.conaffinity)) return false;
    const auto parentOf = [&](int body) { return body < 0 ? -1 : spec.bodies[static_cast<std::size_t>(body)].parent; };
    if (spec.physics.filterParent && a.body >= 0 && b.body >= 0 && (parentOf(a.body) == b.body || parentOf(b.body) == a.body))
      return false;
    return !std::binary_search(excludes.begin(), excludes.end(), key(a.body, b.body));
  }
};

}  // namespace

bool geomsMayCollide(const ModelSpec& spec, int g1, int g2) { return PairKeys(spec).mayCollide(spec, g1, g2); }

std::optional<std::pair<int, int>> firstUncomputedPair(const ModelSpec& spec) {
  // only the types that appear can make a pair not computed: most models need no pair loop
  bool present[6] = {};
  for (const GeomSpec& g : spec.geoms) present[static_cast<int>(g.type)] = true;
  bool any = false;
  for (int a = 0; a < 6; ++a)
    for (int b = a; b < 6; ++b)
      any = any || (present[a] && present[b] && !geomPairSupported(static_cast<GeomSpec::Type>(a), static_cast<GeomSpec::Type>(b)) &&
                    !(a == 0 && b == 0));
  if (!any) return std::nullopt;
  const PairKeys keys(spec);
  const int n = static_cast<int>(spec.geoms.size());
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      if (!geomPairSupported(spec.geoms[static_cast<std::size_t>(i)].type, spec.geoms[static_cast<std::size_t>(j)].type) &&
          keys.mayCollide(spec, i, j))
        return std::pair<int, int>(i, j);
  return std::nullopt;
}

void detail::compileGeoms(const ModelSpec& spec, Model& m) {
  if (spec.geoms.empty() && spec.contactPairs.empty() && spec.contactExcludes.empty()) return;
  if (!m.soft)
    throw ModelError("geoms", "body-body contact is part of the soft constraint model: it needs physics.constraints 'soft'");
  if (!spec.geoms.empty() && !spec.contacts.empty())
    throw ModelError("geoms", "a model uses one contact model: its geoms (body-body contact, soft) or its ground-contact "
                              "points (`contacts`), not both");
  if (m.physics.cone == PhysicsSpec::Cone::Elliptic && !spec.geoms.empty())
    throw ModelError("physics.cone", "contacts in elliptic cones are not computed yet: use 'pyramidal'");
  for (std::size_t k = 0; k < spec.geoms.size(); ++k) checkGeom(spec, k);
  for (std::size_t k = 0; k < spec.contactPairs.size(); ++k) checkPair(spec, k);
  const int nb = static_cast<int>(spec.bodies.size());
  for (std::size_t k = 0; k < spec.contactExcludes.size(); ++k) {
    const ContactExcludeSpec& e = spec.contactExcludes[k];
    for (const auto& [b, what] : {std::pair{e.body1, "body1"}, std::pair{e.body2, "body2"}})
      if (b < -1 || b >= nb)
        throw ModelError("contact_excludes[" + std::to_string(k) + "]." + what,
                         "names no body of this model (index " + std::to_string(b) + ")");
    m.contactExcludes.emplace_back(std::min(e.body1, e.body2), std::max(e.body1, e.body2));
  }
  std::sort(m.contactExcludes.begin(), m.contactExcludes.end());
  if (const auto pair = firstUncomputedPair(spec)) {
    const auto [i, j] = *pair;
    const GeomSpec &a = spec.geoms[static_cast<std::size_t>(i)], &b = spec.geoms[static_cast<std::size_t>(j)];
    throw ModelError(geomField(spec, static_cast<std::size_t>(i)),
                     std::string("its contact with ") + geomField(spec, static_cast<std::size_t>(j)) + " (" +
                         geomTypeName(a.type) + "-" + geomTypeName(b.type) +
                         ") is not computed yet; set their contype and conaffinity so that they do not collide");
  }
  m.geoms = spec.geoms;
  m.contactPairs = spec.contactPairs;
  for (const ContactPairSpec& p : m.contactPairs)
    m.contactPairGeoms.emplace_back(std::min(p.geom1, p.geom2), std::max(p.geom1, p.geom2));
  std::sort(m.contactPairGeoms.begin(), m.contactPairGeoms.end());
  for (const GeomSpec& g : m.geoms) m.geomRbound.push_back(boundingRadius(g));
}

}  // namespace art
