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

const char* const kGeomTypes[] = {"plane", "sphere", "capsule", "ellipsoid", "cylinder", "box", "mesh"};
constexpr int kGeomTypeCount = 7;

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
    case GeomSpec::Type::Mesh: {  // MuJoCo's: the half-diagonal of the box about the origin that holds it
      Vec3 half = Vec3::Zero();
      for (const Vec3& v : g.vertices) half = half.cwiseMax(v.cwiseAbs());
      return half.norm();
    }
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

// a mesh geom's hull: at least 4 finite vertices and triangles that close it (each edge once in
// each direction) around some volume, convex, with the geom's origin (where MPR starts) inside.
// The readers make the triangles by qhull from a mesh's vertices, as MuJoCo builds its hulls, and
// qhull triangulates merged, nearly coplanar facets into triangles of no area and slivers. So a
// triangle of no area has no plane to check, and a vertex may lie outside a triangle's plane by
// what rounding the vertices to float (as MuJoCo keeps them) tips that plane: 2^-24 of the
// extent per coordinate, which over a sliver of altitude h tilts the plane by up to about
// 2^-23 extent / h. Only a vertex beyond that (a dent, not rounding) is refused.
void checkHull(const GeomSpec& g, const std::string& f) {
  const int n = static_cast<int>(g.vertices.size());
  if (n < 4) throw ModelError(f + ".vertices", "a mesh's hull needs at least 4 vertices, got " + std::to_string(n));
  double extent = 0;
  for (const Vec3& v : g.vertices) {
    if (!v.allFinite()) throw ModelError(f + ".vertices", "must be finite");
    extent = std::max(extent, v.norm());
  }
  std::vector<std::pair<int, int>> edges;
  for (const auto& t : g.faces) {
    for (int i : t)
      if (i < 0 || i >= n) throw ModelError(f + ".faces", "names vertex " + std::to_string(i) + " of " + std::to_string(n));
    for (int e = 0; e < 3; ++e) edges.emplace_back(t[static_cast<std::size_t>(e)], t[static_cast<std::size_t>((e + 1) % 3)]);
  }
  std::sort(edges.begin(), edges.end());
  const bool closed = std::adjacent_find(edges.begin(), edges.end()) == edges.end() &&
                      std::all_of(edges.begin(), edges.end(), [&](const auto& e) {
                        return std::binary_search(edges.begin(), edges.end(), std::pair<int, int>(e.second, e.first));
                      });
  if (g.faces.size() < 4 || !closed)
    throw ModelError(f + ".faces", "must close the hull: each edge once in each direction");
  const double tol = 1e-6 * extent;  // vertices in float, as MuJoCo keeps them
  double volume = 0;
  for (const auto& t : g.faces)
    volume += g.vertices[static_cast<std::size_t>(t[0])].dot(
                  g.vertices[static_cast<std::size_t>(t[1])].cross(g.vertices[static_cast<std::size_t>(t[2])])) / 6;
  if (!(std::abs(volume) > tol * extent * extent))
    throw ModelError(f + ".vertices", "the hull is flat or degenerate: it encloses no volume");
  constexpr double kFloat = 5.96e-8;  // 2^-24: a float's relative rounding
  for (const auto& t : g.faces) {
    const Vec3 &a = g.vertices[static_cast<std::size_t>(t[0])], &b = g.vertices[static_cast<std::size_t>(t[1])],
               &c = g.vertices[static_cast<std::size_t>(t[2])];
    const Vec3 normal = (b - a).cross(c - a);
    const double area2 = normal.norm();  // twice the area
    if (!(area2 > tol * extent)) continue;  // no area: no plane to speak of
    const Vec3 unit = normal / area2;
    if (!(unit.dot(a) > tol))
      throw ModelError(f + ".vertices", "the geom's origin must lie inside its hull (a face passes at or beyond it)");
    const double longest = std::max({(b - a).norm(), (c - b).norm(), (a - c).norm()});
    const double tilt = 4 * 2 * kFloat * extent / (area2 / longest);  // the plane's possible tilt, over altitude h
    for (const Vec3& v : g.vertices)
      if (unit.dot(v - a) > tol + 4 * kFloat * extent + tilt * (v - a).norm())
        throw ModelError(f + ".faces", "are not a convex hull: a vertex lies outside a face (give the vertices alone, "
                                       "and the hull is built from them)");
  }
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
  if (g.type == GeomSpec::Type::Mesh)
    checkHull(g, f);
  else if (!g.vertices.empty() || !g.faces.empty())
    throw ModelError(f + ".vertices", std::string("only a mesh has vertices and faces, not a ") + geomTypeName(g.type));
}

// a mesh's hull graph: each vertex's neighbours along the triangles' edges, in the order met
GeomHull hullGraph(const GeomSpec& g) {
  GeomHull h;
  if (g.type != GeomSpec::Type::Mesh) return h;
  h.vertices = g.vertices;
  h.neighbours.resize(g.vertices.size());
  for (const auto& t : g.faces)
    for (int e = 0; e < 3; ++e) {
      std::vector<int>& list = h.neighbours[static_cast<std::size_t>(t[static_cast<std::size_t>(e)])];
      const int to = t[static_cast<std::size_t>((e + 1) % 3)];
      if (std::find(list.begin(), list.end(), to) == list.end()) list.push_back(to);
    }
  return h;
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
    case GeomSpec::Type::Plane:
    case GeomSpec::Type::Mesh: return 0;
    case GeomSpec::Type::Sphere: return 1;
    case GeomSpec::Type::Capsule:
    case GeomSpec::Type::Cylinder: return 2;
    case GeomSpec::Type::Ellipsoid:
    case GeomSpec::Type::Box: break;
  }
  return 3;
}

bool parseGeomType(const std::string& name, GeomSpec::Type& out) {
  for (int k = 0; k < kGeomTypeCount; ++k)
    if (name == kGeomTypes[k]) {
      out = static_cast<GeomSpec::Type>(k);
      return true;
    }
  return false;
}

void detail::compileGeoms(const ModelSpec& spec, Model& m) {
  if (spec.geoms.empty() && spec.contactPairs.empty() && spec.contactExcludes.empty()) return;
  if (!m.soft)
    throw ModelError("geoms", "body-body contact is part of the soft constraint model: it needs physics.constraints 'soft'");
  if (!spec.geoms.empty() && !spec.contacts.empty())
    throw ModelError("geoms", "a model uses one contact model: its geoms (body-body contact, soft) or its ground-contact "
                              "points (`contacts`), not both");
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
  m.geoms = spec.geoms;
  m.contactPairs = spec.contactPairs;
  for (const ContactPairSpec& p : m.contactPairs)
    m.contactPairGeoms.emplace_back(std::min(p.geom1, p.geom2), std::max(p.geom1, p.geom2));
  std::sort(m.contactPairGeoms.begin(), m.contactPairGeoms.end());
  for (const GeomSpec& g : m.geoms) {
    m.geomRbound.push_back(boundingRadius(g));
    m.geomHulls.push_back(hullGraph(g));
  }
}

}  // namespace art
