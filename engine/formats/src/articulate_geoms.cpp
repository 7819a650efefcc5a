// Body-body contact in the Articulate format (docs/model-format.md, "Geoms and body-body
// contact"): "geoms", "contact_pairs" and "contact_excludes", read and written.
#include <cmath>

#include "articulate_detail.h"
#include "convex_hull.h"

namespace art::detail {

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

namespace {

// a whole number >= lo into out
bool readCount(JsonReader& rd, const json& j, const std::string& path, int lo, int& out) {
  double v = 0;
  if (!rd.number(j, path, v)) return false;
  if (!(v >= lo && v <= 1e9 && v == std::floor(v))) {
    rd.fail(path, "must be a whole number >= " + std::to_string(lo));
    return false;
  }
  out = static_cast<int>(v);
  return true;
}

bool readCondim(JsonReader& rd, const json& j, const std::string& path, int& out) {
  if (!readCount(rd, j, path, 1, out)) return false;
  if (out == 1 || out == 3 || out == 4 || out == 6) return true;
  rd.fail(path, "must be 1 (frictionless), 3 (sliding), 4 (and torsional) or 6 (and rolling), got " + std::to_string(out));
  return false;
}

// friction: 1 to n numbers >= 0 over the defaults' first ones
template <std::size_t N>
bool readFriction(JsonReader& rd, const json& j, const std::string& path, std::array<double, N>& out) {
  if (!j.is_array() || j.empty() || j.size() > N) {
    rd.fail(path, "expected 1 to " + std::to_string(N) + " numbers >= 0");
    return false;
  }
  Eigen::VectorXd v;
  if (!rd.vector(j, static_cast<int>(j.size()), path, v)) return false;
  for (Eigen::Index k = 0; k < v.size(); ++k) {
    if (!(v(k) >= 0)) {
      rd.fail(path, "must be numbers >= 0");
      return false;
    }
    out[static_cast<std::size_t>(k)] = v(k);
  }
  return true;
}

// a mesh geom's hull: "vertices" (m, geom coordinates), and "faces" (triangles of 0-based
// vertex indices, wound outwards) as written; without faces, the hull of the vertices (qhull)
bool readHull(JsonReader& rd, const json& jg, const std::string& p, GeomSpec& g) {
  const std::string pv = jsonField(p, "vertices"), pf = jsonField(p, "faces");
  if (!jg.contains("vertices") || !jg["vertices"].is_array()) {
    rd.fail(p, "a mesh needs 'vertices', an array of [x, y, z] (m): it collides as their convex hull");
    return false;
  }
  const json& vs = jg["vertices"];
  for (std::size_t k = 0; k < vs.size(); ++k) {
    Vec3 v;
    if (!rd.vec3(vs[k], jsonIndex(pv, k), v)) return false;
    g.vertices.push_back(v);
  }
  if (jg.contains("faces")) {
    const json& fs = jg["faces"];
    const auto index = [&](const json& x) { return x.is_number_integer() && x.get<long long>() >= 0 && x.get<long long>() < static_cast<long long>(vs.size()); };
    for (std::size_t k = 0; fs.is_array() && k < fs.size(); ++k) {
      if (!fs[k].is_array() || fs[k].size() != 3 || !index(fs[k][0]) || !index(fs[k][1]) || !index(fs[k][2])) {
        rd.fail(jsonIndex(pf, k), "expected 3 indices into 'vertices' (from 0)");
        return false;
      }
      g.faces.push_back({fs[k][0].get<int>(), fs[k][1].get<int>(), fs[k][2].get<int>()});
    }
    if (!fs.is_array()) rd.fail(pf, "expected an array of triangles");
    return fs.is_array();
  }
  try {
    const MeshData hull = convexHull(g.vertices);
    g.vertices.clear();
    for (const Eigen::Vector3f& v : hull.vertices) g.vertices.push_back(v.cast<double>());
    for (const auto& t : hull.triangles) g.faces.push_back({static_cast<int>(t[0]), static_cast<int>(t[1]), static_cast<int>(t[2])});
  } catch (const std::invalid_argument& why) {
    rd.fail(pv, std::string("have no convex hull: ") + why.what());
    return false;
  }
  return true;
}

bool readGeom(JsonReader& rd, const json& jg, const std::string& p, const std::map<std::string, int>& bodies,
              const SoftParams& defaults, GeomSpec& g) {
  if (!rd.object(jg, p, {"name", "body", "type", "size", "position", "rotation", "contype", "conaffinity", "condim",
                         "priority", "friction", "solmix", "margin", "gap", "solref", "solimp", "vertices", "faces"}))
    return false;
  if (!jg.contains("type")) {
    rd.fail(p, "needs 'type' (\"plane\", \"sphere\", \"capsule\", \"ellipsoid\", \"cylinder\", \"box\" or \"mesh\")");
    return false;
  }
  std::string type;
  if (!rd.string(jg["type"], jsonField(p, "type"), type)) return false;
  if (!parseGeomType(type, g.type)) {
    rd.fail(jsonField(p, "type"), "expected \"plane\", \"sphere\", \"capsule\", \"ellipsoid\", \"cylinder\", \"box\" or \"mesh\", got \"" + type + "\"");
    return false;
  }
  if (g.type == GeomSpec::Type::Mesh && !readHull(rd, jg, p, g)) return false;
  if (g.type != GeomSpec::Type::Mesh && (jg.contains("vertices") || jg.contains("faces"))) {
    rd.fail(p, "only a mesh has 'vertices' and 'faces'");
    return false;
  }
  bool ok = !jg.contains("name") || rd.string(jg["name"], jsonField(p, "name"), g.name);
  if (jg.contains("body")) {  // absent: the base
    g.body = resolveBody(rd, jg["body"], bodies, jsonField(p, "body"), true);
    ok = g.body >= -1 && ok;
  }
  const int n = geomSizeCount(g.type);
  if (n > 0) {
    Eigen::VectorXd v;
    if (!jg.contains("size")) {
      rd.fail(p, "a " + type + " needs 'size' (" + std::to_string(n) + " half size(s) in m)");
      ok = false;
    } else if (rd.vector(jg["size"], n, jsonField(p, "size"), v)) {
      g.size.head(n) = v;
    } else {
      ok = false;
    }
  } else if (jg.contains("size")) {
    ok = rd.vec3(jg["size"], jsonField(p, "size"), g.size) && ok;  // a plane's drawn extent
  }
  if (jg.contains("position")) ok = rd.vec3(jg["position"], jsonField(p, "position"), g.position) && ok;
  if (jg.contains("rotation")) ok = rd.matrix3(jg["rotation"], jsonField(p, "rotation"), g.rotation) && ok;
  for (const auto& [field, out] : {std::pair{"contype", &g.contype}, std::pair{"conaffinity", &g.conaffinity}})
    if (jg.contains(field)) ok = readCount(rd, jg[field], jsonField(p, field), 0, *out) && ok;
  if (jg.contains("priority")) {
    double v = 0;
    if (rd.number(jg["priority"], jsonField(p, "priority"), v) && v == std::floor(v) && std::abs(v) < 1e9)
      g.priority = static_cast<int>(v);
    else
      ok = false, rd.fail(jsonField(p, "priority"), "must be a whole number");
  }
  if (jg.contains("condim")) ok = readCondim(rd, jg["condim"], jsonField(p, "condim"), g.condim) && ok;
  if (jg.contains("friction")) ok = readFriction(rd, jg["friction"], jsonField(p, "friction"), g.friction) && ok;
  for (const auto& [field, out] : {std::pair{"solmix", &g.solmix}, std::pair{"margin", &g.margin}, std::pair{"gap", &g.gap}})
    if (jg.contains(field)) ok = rd.nonNegative(jg[field], jsonField(p, field), *out, false) && ok;
  std::optional<SoftParams> soft;
  ok = readSoftFields(rd, jg, p, defaults, soft) && ok;
  if (soft) g.soft = *soft;
  return ok;
}

// a geom named by its name or its index in "geoms"
int resolveGeom(JsonReader& rd, const json& j, const ModelSpec& out, const std::string& path) {
  if (j.is_number_integer() && j.get<long long>() >= 0 && j.get<long long>() < static_cast<long long>(out.geoms.size()))
    return static_cast<int>(j.get<long long>());
  if (j.is_string())
    for (std::size_t k = 0; k < out.geoms.size(); ++k)
      if (out.geoms[k].name == j.get<std::string>()) return static_cast<int>(k);
  rd.fail(path, "names no geom of this model (a geom's name, or its index in 'geoms')");
  return -2;
}

}  // namespace

void readGeoms(JsonReader& rd, const json& doc, const std::map<std::string, int>& bodies, ModelSpec& out) {
  if (doc.contains("geoms")) {
    const json& gs = doc["geoms"];
    if (!gs.is_array()) rd.fail("geoms", "expected an array");
    for (std::size_t k = 0; gs.is_array() && k < gs.size(); ++k) {
      GeomSpec g;
      if (readGeom(rd, gs[k], jsonIndex("geoms", k), bodies, GeomSpec{}.soft, g)) out.geoms.push_back(g);
    }
  }
  if (doc.contains("contact_pairs")) {
    const json& ps = doc["contact_pairs"];
    if (!ps.is_array()) rd.fail("contact_pairs", "expected an array");
    for (std::size_t k = 0; ps.is_array() && k < ps.size(); ++k) {
      const std::string p = jsonIndex("contact_pairs", k);
      const json& jp = ps[k];
      if (!rd.object(jp, p, {"name", "geom1", "geom2", "condim", "friction", "margin", "gap", "solref", "solimp"})) continue;
      ContactPairSpec c;
      if (!jp.contains("geom1") || !jp.contains("geom2")) {
        rd.fail(p, "needs 'geom1' and 'geom2'");
        continue;
      }
      bool ok = !jp.contains("name") || rd.string(jp["name"], jsonField(p, "name"), c.name);
      c.geom1 = resolveGeom(rd, jp["geom1"], out, jsonField(p, "geom1"));
      c.geom2 = resolveGeom(rd, jp["geom2"], out, jsonField(p, "geom2"));
      ok = c.geom1 >= 0 && c.geom2 >= 0 && ok;
      if (jp.contains("condim")) ok = readCondim(rd, jp["condim"], jsonField(p, "condim"), c.condim) && ok;
      if (jp.contains("friction")) ok = readFriction(rd, jp["friction"], jsonField(p, "friction"), c.friction) && ok;
      for (const auto& [field, v] : {std::pair{"margin", &c.margin}, std::pair{"gap", &c.gap}})
        if (jp.contains(field)) ok = rd.nonNegative(jp[field], jsonField(p, field), *v, false) && ok;
      std::optional<SoftParams> soft;
      ok = readSoftFields(rd, jp, p, ContactPairSpec{}.soft, soft) && ok;
      if (soft) c.soft = *soft;
      if (ok) out.contactPairs.push_back(c);
    }
  }
  if (doc.contains("contact_excludes")) {
    const json& es = doc["contact_excludes"];
    if (!es.is_array()) rd.fail("contact_excludes", "expected an array");
    for (std::size_t k = 0; es.is_array() && k < es.size(); ++k) {
      const std::string p = jsonIndex("contact_excludes", k);
      if (!rd.object(es[k], p, {"name", "body1", "body2"})) continue;
      if (!es[k].contains("body1") || !es[k].contains("body2")) {
        rd.fail(p, "needs 'body1' and 'body2' (body names, or \"base\")");
        continue;
      }
      ContactExcludeSpec e;
      bool ok = !es[k].contains("name") || rd.string(es[k]["name"], jsonField(p, "name"), e.name);
      e.body1 = resolveBody(rd, es[k]["body1"], bodies, jsonField(p, "body1"), true);
      e.body2 = resolveBody(rd, es[k]["body2"], bodies, jsonField(p, "body2"), true);
      if (ok && e.body1 >= -1 && e.body2 >= -1) out.contactExcludes.push_back(e);
    }
  }
}

void geomsJson(const ModelSpec& s, ojson& doc) {
  const GeomSpec d;
  if (!s.geoms.empty()) {
    ojson gs = ojson::array();
    for (const GeomSpec& g : s.geoms) {
      ojson j;
      if (!g.name.empty()) j["name"] = g.name;
      if (g.body >= 0) j["body"] = bodyName(s, g.body);
      j["type"] = geomTypeName(g.type);
      const int n = geomSizeCount(g.type);
      if (n > 0) j["size"] = vecJson(g.size.head(n));
      else if (!g.size.isZero()) j["size"] = vecJson(g.size);
      if (!g.position.isZero()) j["position"] = vecJson(g.position);
      if (!g.rotation.isIdentity(0)) j["rotation"] = matJson(g.rotation);
      if (g.contype != d.contype) j["contype"] = g.contype;
      if (g.conaffinity != d.conaffinity) j["conaffinity"] = g.conaffinity;
      if (g.condim != d.condim) j["condim"] = g.condim;
      if (g.priority != d.priority) j["priority"] = g.priority;
      if (g.friction != d.friction) j["friction"] = {g.friction[0], g.friction[1], g.friction[2]};
      if (g.solmix != d.solmix) j["solmix"] = g.solmix;
      if (g.margin != d.margin) j["margin"] = g.margin;
      if (g.gap != d.gap) j["gap"] = g.gap;
      if (g.soft != d.soft) softFieldsJson(g.soft, j);
      if (g.type == GeomSpec::Type::Mesh) {
        ojson vs = ojson::array(), fs = ojson::array();
        for (const Vec3& v : g.vertices) vs.push_back(vecJson(v));
        for (const auto& f : g.faces) fs.push_back({f[0], f[1], f[2]});
        j["vertices"] = vs;
        j["faces"] = fs;
      }
      gs.push_back(j);
    }
    doc["geoms"] = gs;
  }
  if (!s.contactPairs.empty()) {
    const ContactPairSpec dp;
    ojson ps = ojson::array();
    for (const ContactPairSpec& c : s.contactPairs) {
      ojson j;
      if (!c.name.empty()) j["name"] = c.name;
      const auto ref = [&](int g) {
        const std::string& name = s.geoms[static_cast<std::size_t>(g)].name;
        return name.empty() ? ojson(g) : ojson(name);
      };
      j["geom1"] = ref(c.geom1);
      j["geom2"] = ref(c.geom2);
      if (c.condim != dp.condim) j["condim"] = c.condim;
      if (c.friction != dp.friction) j["friction"] = {c.friction[0], c.friction[1], c.friction[2], c.friction[3], c.friction[4]};
      if (c.margin != dp.margin) j["margin"] = c.margin;
      if (c.gap != dp.gap) j["gap"] = c.gap;
      if (c.soft != dp.soft) softFieldsJson(c.soft, j);
      ps.push_back(j);
    }
    doc["contact_pairs"] = ps;
  }
  if (!s.contactExcludes.empty()) {
    ojson es = ojson::array();
    for (const ContactExcludeSpec& e : s.contactExcludes) {
      ojson j;
      if (!e.name.empty()) j["name"] = e.name;
      j["body1"] = bodyName(s, e.body1);
      j["body2"] = bodyName(s, e.body2);
      es.push_back(j);
    }
    doc["contact_excludes"] = es;
  }
}

}  // namespace art::detail
