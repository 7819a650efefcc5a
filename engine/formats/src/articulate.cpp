// The Articulate model format: reading with every problem collected, canonical writing.
#include "articulate/formats/articulate.h"

#include "articulate_detail.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "articulate/formats/document.h"
#include "articulate/formats/floating_base.h"
#include "articulate/formats/mesh.h"
#include "articulate/model/appearance.h"
#include "articulate/model/model.h"
#include "articulate/formats/files.h"
#include "articulate/formulations/tree_simulation.h"
#include "articulate/formats/spatial_v2.h"
#include "articulate/formats/urdf.h"

namespace art {

namespace {

using nlohmann::json;
using ojson = nlohmann::ordered_json;


// a name for a message: control characters as \xHH (compile refuses them; a NUL would end the text)
std::string printableName(const std::string& name) {
  if (!hasControlCharacter(name)) return name;
  std::string out;
  for (const char c : name) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u != 0x7F) {
      out += c;
    } else {
      static const char* hex = "0123456789ABCDEF";
      out += std::string("\\x") + hex[u >> 4] + hex[u & 15];
    }
  }
  return out;
}

std::string describe(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

Mat3 activeRotation(const Vec3& axis, double angle) {
  return Eigen::AngleAxisd(angle, axis.stableNormalized()).toRotationMatrix();
}

// the orientation R of the joint frame in parent coordinates (columns = joint axes)
bool readRotation(JsonReader& rd, const json& j, bool planar, const std::string& path, Mat3& R) {
  if (j.is_array()) {
    Eigen::MatrixXd M;
    if (planar && j.size() == 2) {
      if (!rd.matrix(j, 2, 2, path, M)) return false;
      R.setIdentity();
      R.topLeftCorner<2, 2>() = M;
    } else {
      if (!rd.matrix(j, 3, 3, path, M)) return false;
      R = M;
    }
  } else if (j.is_object() && j.contains("rpy")) {
    rd.object(j, path, {"rpy"});
    Vec3 rpy;
    if (!rd.vec3(j["rpy"], jsonField(path, "rpy"), rpy)) return false;
    R = rpyRotation(rpy);
  } else if (j.is_object() && j.contains("axis")) {
    rd.object(j, path, {"axis", "angle"});
    Vec3 axis;
    double angle = 0;
    if (!rd.vec3(j["axis"], jsonField(path, "axis"), axis)) return false;
    if (!j.contains("angle")) {
      rd.fail(path, "axis-angle rotation needs 'angle' (rad)");
      return false;
    }
    if (!rd.number(j["angle"], jsonField(path, "angle"), angle)) return false;
    if (axis.stableNorm() == 0) {
      rd.fail(jsonField(path, "axis"), "must be nonzero");
      return false;
    }
    R = activeRotation(axis, angle);
  } else if (j.is_object() && j.contains("angle")) {
    rd.object(j, path, {"angle"});
    double angle = 0;
    if (!rd.number(j["angle"], jsonField(path, "angle"), angle)) return false;
    R = activeRotation(Vec3::UnitZ(), angle);
  } else {
    rd.fail(path, "expected a 3x3 rotation matrix, {\"rpy\": [r, p, y]}, {\"axis\": [x, y, z], "
                  "\"angle\": a} or (planar) {\"angle\": a}");
    return false;
  }
  if (!isProperRotation(R)) {
    rd.fail(path, "is not a proper rotation matrix (orthonormal, determinant +1)");
    return false;
  }
  return true;
}

// planar models may give 2D positions and centres of mass
bool readPoint(JsonReader& rd, const json& j, bool planar, const std::string& path, Vec3& out) {
  if (planar && j.is_array() && j.size() == 2) {
    Eigen::VectorXd v;
    if (!rd.vector(j, 2, path, v)) return false;
    out = Vec3(v(0), v(1), 0);
    return true;
  }
  return rd.vec3(j, path, out);
}

void readInertia(JsonReader& rd, const json& j, bool planar, const std::string& path, InertiaSpec& out) {
  if (!rd.object(j, path, {"mass", "com", "about_com", "matrix"})) return;
  if (j.contains("matrix")) {
    if (j.contains("mass") || j.contains("com") || j.contains("about_com"))
      rd.fail(path, "give either 'matrix' or 'mass', 'com' and 'about_com', not both");
    Eigen::MatrixXd M;
    const int n = planar ? 3 : 6;
    if (!rd.matrix(j["matrix"], n, n, jsonField(path, "matrix"), M)) return;
    if (planar) {
      // embed the planar inertia: spatial_v2's planar form, kept exactly
      json sv2 = {{"NB", 1}, {"parent", {0}}, {"jtype", {"r"}},
                  {"Xtree", {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}}};
      json rows = json::array();
      for (int r = 0; r < 3; ++r) rows.push_back({M(r, 0), M(r, 1), M(r, 2)});
      sv2["I"] = {rows};
      try {
        out = specFromSpatialV2(sv2).bodies[0].inertia;
      } catch (const FormatError& e) {
        rd.fail(jsonField(path, "matrix"), "is not a planar rigid-body inertia [Izz+m|c|^2 -m*cy m*cx; "
                                     "-m*cy m 0; m*cx 0 m]");
      }
    } else {
      out = InertiaSpec::fromMatrix(M);
    }
    return;
  }
  out = InertiaSpec{};
  if (!j.contains("mass")) rd.fail(path, "missing field 'mass' (kg)");
  else if (rd.number(j["mass"], jsonField(path, "mass"), out.mass) && out.mass < 0)
    rd.fail(jsonField(path, "mass"), "must be >= 0, got " + describe(out.mass));
  if (j.contains("com")) readPoint(rd, j["com"], planar, jsonField(path, "com"), out.com);
  if (j.contains("about_com")) {
    const json& a = j["about_com"];
    const std::string p = jsonField(path, "about_com");
    double izz = 0;
    if (planar && a.is_number()) {
      if (rd.number(a, p, izz)) out.aboutCom = Mat3::Identity() * izz;
    } else if (a.is_array() && a.size() == 3 && a[0].is_number()) {
      Vec3 d;
      if (rd.vec3(a, p, d)) out.aboutCom = d.asDiagonal();
    } else {
      Eigen::MatrixXd M;
      if (rd.matrix(a, 3, 3, p, M)) out.aboutCom = M;
    }
  }
}

}  // namespace

namespace detail {

int resolveBody(JsonReader& rd, const json& j, const std::map<std::string, int>& names,
                const std::string& path, bool baseAllowed) {
  std::string name;
  if (!rd.string(j, path, name)) return -2;
  if (name == "base") {
    if (baseAllowed) return -1;
    rd.fail(path, "must name a body, not 'base'");
    return -2;
  }
  const auto it = names.find(name);
  if (it == names.end()) {
    rd.fail(path, "'" + name + "' is not defined");
    return -2;
  }
  return it->second;
}

ojson vecJson(const Eigen::VectorXd& v) {
  ojson a = ojson::array();
  for (Eigen::Index i = 0; i < v.size(); ++i) a.push_back(v(i));
  return a;
}
ojson matJson(const Eigen::MatrixXd& M) {
  ojson a = ojson::array();
  for (Eigen::Index r = 0; r < M.rows(); ++r) a.push_back(vecJson(M.row(r).transpose()));
  return a;
}

std::string bodyName(const ModelSpec& s, int b) { return b < 0 ? "base" : s.bodies[b].name; }

bool readSoftFields(JsonReader& rd, const json& j, const std::string& path, const SoftParams& defaults,
                    std::optional<SoftParams>& out) {
  if (!j.is_object() || (!j.contains("solref") && !j.contains("solimp"))) return true;
  SoftParams p = defaults;
  bool ok = true;
  Eigen::VectorXd v;
  if (j.contains("solref")) {
    if (rd.vector(j["solref"], 2, jsonField(path, "solref"), v)) std::copy(v.data(), v.data() + 2, p.solref.begin());
    else ok = false;
  }
  if (j.contains("solimp")) {
    if (rd.vector(j["solimp"], 5, jsonField(path, "solimp"), v)) std::copy(v.data(), v.data() + 5, p.solimp.begin());
    else ok = false;
  }
  if (ok) out = p;
  return ok;
}

void softFieldsJson(const SoftParams& p, ojson& j) {
  j["solref"] = ojson::array({p.solref[0], p.solref[1]});
  ojson imp = ojson::array();
  for (double x : p.solimp) imp.push_back(x);
  j["solimp"] = imp;
}

bool readSoftRows(JsonReader& rd, const json& j, const std::string& path, const SoftParams& defaults,
                  std::optional<SoftParams>& limitSoft, std::optional<SoftParams>& frictionSoft, double& margin) {
  bool ok = true;
  for (const auto& [field, out] : {std::pair<const char*, std::optional<SoftParams>*>{"limit_soft", &limitSoft},
                                   {"friction_soft", &frictionSoft}}) {
    if (!j.contains(field)) continue;
    const std::string p = jsonField(path, field);
    if (!rd.object(j[field], p, {"solref", "solimp"})) {
      ok = false;
      continue;
    }
    std::optional<SoftParams> read = defaults;  // {} asks for the defaults, as the element's own
    if (readSoftFields(rd, j[field], p, defaults, read)) *out = read;
    else ok = false;
  }
  if (j.contains("margin")) ok = rd.nonNegative(j["margin"], jsonField(path, "margin"), margin, false) && ok;
  return ok;
}

void softRowsJson(const std::optional<SoftParams>& limitSoft, const std::optional<SoftParams>& frictionSoft, double margin,
                  ojson& j) {
  for (const auto& [field, soft] : {std::pair<const char*, const std::optional<SoftParams>*>{"limit_soft", &limitSoft},
                                    {"friction_soft", &frictionSoft}})
    if (*soft) {
      ojson o = ojson::object();
      softFieldsJson(**soft, o);
      j[field] = o;
    }
  if (margin != 0) j["margin"] = margin;
}

}  // namespace detail

namespace {

using detail::bodyName;
using detail::matJson;
using detail::readSoftFields;
using detail::readSoftRows;
using detail::resolveBody;
using detail::resolveTendon;
using detail::softFieldsJson;
using detail::softRowsJson;
using detail::tendonRef;
using detail::vecJson;

void readCamera(JsonReader& rd, const json& j, const std::map<std::string, int>& names,
                const std::string& path, CameraSpec& cam) {
  if (!rd.object(j, path, {"body", "trackpoint", "direction", "up", "zoom", "locus"})) return;
  if (j.contains("body")) cam.body = std::max(-1, resolveBody(rd, j["body"], names, jsonField(path, "body"), true));
  Vec3 v;
  if (j.contains("trackpoint") && rd.vec3(j["trackpoint"], jsonField(path, "trackpoint"), v)) cam.trackpoint = v;
  for (const char* f : {"direction", "up"}) {
    if (!j.contains(f)) continue;
    if (!rd.vec3(j[f], jsonField(path, f), v)) continue;
    if (v.norm() == 0) {
      rd.fail(jsonField(path, f), "must be nonzero");
      continue;
    }
    (std::string(f) == "up" ? cam.up : cam.direction) = v;
  }
  if (cam.up && cam.direction.value_or(Vec3(0, -1, 0.8)).cross(*cam.up).norm() == 0)
    rd.fail(jsonField(path, "up"), "must not be parallel to direction");
  double z;
  if (j.contains("zoom") && rd.number(j["zoom"], jsonField(path, "zoom"), z)) {
    if (z <= 0) rd.fail(jsonField(path, "zoom"), "must be > 0, got " + describe(z));
    else cam.zoom = z;
  }
  Eigen::VectorXd l;
  if (j.contains("locus") && rd.vector(j["locus"], 2, jsonField(path, "locus"), l)) {
    if ((l.array().abs() > 1).any()) rd.fail(jsonField(path, "locus"), "must lie in [-1, 1]^2");
    else cam.locus = Vec2(l);
  }
}

ojson cameraJson(const ModelSpec& s) {
  const CameraSpec& c = s.camera;
  ojson j = ojson::object();
  if (c.body >= 0) j["body"] = bodyName(s, c.body);
  if (c.trackpoint) j["trackpoint"] = vecJson(*c.trackpoint);
  if (c.direction) j["direction"] = vecJson(*c.direction);
  if (c.up) j["up"] = vecJson(*c.up);
  if (c.zoom) j["zoom"] = *c.zoom;
  if (c.locus) j["locus"] = vecJson(*c.locus);
  return j;
}

// orders bodies so that parents precede children (stable); reports cycles
bool sortBodies(JsonReader& rd, std::vector<BodySpec>& bodies, std::vector<int>& parentIdx,
                std::vector<int>& order) {
  const int n = static_cast<int>(bodies.size());
  std::vector<int> state(n, 0);  // 0 new, 1 visiting, 2 done
  order.clear();
  bool ok = true;
  for (int start = 0; start < n; ++start) {
    if (state[start]) continue;
    // walk up to the first placed ancestor, then place the chain top-down
    std::vector<int> chain;
    int b = start;
    while (b >= 0 && state[b] == 0) {
      state[b] = 1;
      chain.push_back(b);
      b = parentIdx[b];
    }
    if (b >= 0 && state[b] == 1) {
      std::string cycle = "'" + bodies[b].name + "'";
      for (int c = parentIdx[b]; c != b && c >= 0; c = parentIdx[c]) cycle += " -> '" + bodies[c].name + "'";
      rd.fail("bodies[" + std::to_string(b) + "].parent", "the parents form a cycle: " + cycle + " -> '" + bodies[b].name + "'");
      ok = false;
      for (int c : chain) state[c] = 2;
      continue;
    }
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      state[*it] = 2;
      order.push_back(*it);
    }
  }
  return ok;
}

// format, version, name and description: the fields every kind of document starts with
void readHeader(JsonReader& rd, const json& doc, std::string& name, std::string& description) {
  std::string fmt;
  if (!doc.contains("format")) rd.fail("", "missing field 'format' (\"articulate-model\")");
  else if (rd.string(doc["format"], "format", fmt) && fmt != kModelFormatName)
    rd.fail("format", "expected \"articulate-model\", got \"" + fmt + "\"");
  double version = 0;
  if (!doc.contains("version")) rd.fail("", "missing field 'version'");
  else if (rd.number(doc["version"], "version", version) &&
           (version != std::floor(version) || version < 1 || version > kModelFormatVersion))
    rd.fail("version", "this Articulate reads format version " +
                           std::to_string(kModelFormatVersion) + ", got " + describe(version));
  if (doc.contains("name")) rd.string(doc["name"], "name", name);
  if (doc.contains("description")) rd.string(doc["description"], "description", description);
}

void readControl(JsonReader& rd, const json& j, const std::string& path, ControlSpec& c) {
  if (!rd.object(j, path, {"type", "torque", "kp", "kd", "target", "target_velocity", "t"}))
    return;
  std::string type;
  if (!j.contains("type")) {
    rd.fail(path, "missing field 'type' (\"constant\", \"pd\" or \"table\")");
    return;
  }
  if (!rd.string(j["type"], jsonField(path, "type"), type)) return;
  auto allowed = [&](std::initializer_list<const char*> fields) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      bool ok = it.key() == "type";
      for (const char* f : fields) ok = ok || it.key() == f;
      if (!ok) rd.fail(jsonField(path, it.key().c_str()), "is not used by a '" + type + "' controller");
    }
  };
  auto num = [&](const char* field, double& out) {
    if (j.contains(field)) rd.number(j[field], jsonField(path, field), out);
  };
  if (type == "constant") {
    c.type = ControlSpec::Type::Constant;
    allowed({"torque"});
    if (!j.contains("torque")) rd.fail(path, "a constant controller needs 'torque'");
    num("torque", c.torque);
  } else if (type == "pd") {
    c.type = ControlSpec::Type::PD;
    allowed({"torque", "kp", "kd", "target", "target_velocity"});
    num("torque", c.torque);
    num("kp", c.kp);
    num("kd", c.kd);
    num("target", c.target);
    num("target_velocity", c.targetVelocity);
    if (c.kp < 0) rd.fail(jsonField(path, "kp"), "must be >= 0");
    if (c.kd < 0) rd.fail(jsonField(path, "kd"), "must be >= 0");
  } else if (type == "table") {
    c.type = ControlSpec::Type::Table;
    allowed({"t", "torque"});
    if (!j.contains("t") || !j.contains("torque")) {
      rd.fail(path, "a table needs 't' (times, s) and 'torque' (one force per time)");
      return;
    }
    const json& jt = j["t"];
    const json& jv = j["torque"];
    if (!jt.is_array() || jt.empty()) {
      rd.fail(jsonField(path, "t"), "expected a non-empty array of times");
      return;
    }
    if (!jv.is_array() || jv.size() != jt.size()) {
      rd.fail(jsonField(path, "torque"), "expected " + std::to_string(jt.size()) +
                                       " numbers (one per time in 't')");
      return;
    }
    c.times.assign(jt.size(), 0.0);
    c.torques.assign(jt.size(), 0.0);
    for (std::size_t k = 0; k < jt.size(); ++k) {
      if (rd.number(jt[k], jsonIndex(jsonField(path, "t"), k), c.times[k]) && k > 0 &&
          !(c.times[k] > c.times[k - 1]))
        rd.fail(jsonIndex(jsonField(path, "t"), k), "times must increase");
      rd.number(jv[k], jsonIndex(jsonField(path, "torque"), k), c.torques[k]);
    }
  } else {
    rd.fail(jsonField(path, "type"), "expected \"constant\", \"pd\" or \"table\", got \"" + type + "\"");
  }
}

ojson controlJson(const ControlSpec& c) {
  ojson j;
  switch (c.type) {
    case ControlSpec::Type::None:
      break;
    case ControlSpec::Type::Constant:
      j = {{"type", "constant"}, {"torque", c.torque}};
      break;
    case ControlSpec::Type::PD:
      j = {{"type", "pd"}, {"kp", c.kp}, {"kd", c.kd}, {"target", c.target}};
      if (c.targetVelocity != 0) j["target_velocity"] = c.targetVelocity;
      if (c.torque != 0) j["torque"] = c.torque;
      break;
    case ControlSpec::Type::Table:
      j = {{"type", "table"}, {"t", c.times}, {"torque", c.torques}};
      break;
  }
  return j;
}

}  // namespace

namespace {

// bodies[i].inertia: the mass, centre of mass and inertia about it, or the matrix as given
ojson inertiaJson(const InertiaSpec& in, bool planar) {
  if (in.raw) {
    if (planar) {
      const int id[3] = {2, 3, 4};
      Mat3 P;
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) P(r, c) = in.matrix(id[r], id[c]);
      return {{"matrix", matJson(P)}};
    } else {
      return {{"matrix", matJson(in.matrix)}};
    }
  } else {
    ojson ji;
    ji["mass"] = in.mass;
    const bool planarForm = planar && in.com.z() == 0 &&
                            in.aboutCom == Mat3::Identity() * in.aboutCom(2, 2);
    if (!in.com.isZero(0)) ji["com"] = planarForm ? vecJson(in.com.head<2>()) : vecJson(in.com);
    if (planarForm)
      ji["about_com"] = in.aboutCom(2, 2);
    else if (Mat3(in.aboutCom.diagonal().asDiagonal()) == in.aboutCom)
      ji["about_com"] = vecJson(in.aboutCom.diagonal());
    else
      ji["about_com"] = matJson(in.aboutCom);
    return ji;
  }
}

// bodies[i].initial, or null when the body starts at the joint's zero at rest
ojson initialJson(const BodySpec& b) {
  if (hasQuaternion(b.joint.type)) {
    // a ball joint's is a free joint's without the position, its velocity angular only
    const bool free = b.joint.type == JointType::Free;
    ojson init = ojson::object();
    if (free && !b.freePosition.isZero(0)) init["position"] = vecJson(b.freePosition);
    if (b.freeOrientation != Eigen::Vector4d(1, 0, 0, 0))
      init["orientation"] = vecJson(b.freeOrientation);
    const Eigen::VectorXd velocity = b.freeVelocity.head(jointNv(b.joint.type));
    if (!velocity.isZero(0)) init["velocity"] = vecJson(velocity);
    if (!init.empty()) return init;
  } else if (b.q0 != 0 || b.qd0 != 0) {
    return {{"q", b.q0}, {"qd", b.qd0}};
  }
  return nullptr;
}

// bodies[i].limits: {"lower", "upper", "effort", "velocity"}, each optional
void readLimits(JsonReader& rd, const json& jl, const std::string& path, BodySpec& b) {
  if (!rd.object(jl, path, {"lower", "upper", "effort", "velocity"})) return;
  if (hasQuaternion(b.joint.type)) {
    rd.fail(path, "a " + std::string(jointCode(b.joint.type)) + " joint takes no limits");
    return;
  }
  const auto read = [&](const char* field, std::optional<double>& out) {
    double v = 0;
    if (jl.contains(field) && rd.number(jl[field], jsonField(path, field), v)) out = v;
  };
  JointLimits& l = b.limits;
  read("lower", l.lower);
  read("upper", l.upper);
  read("effort", l.effort);
  read("velocity", l.velocity);
  if (l.lower && l.upper && *l.lower > *l.upper) {
    std::ostringstream s;
    s << "lower (" << *l.lower << ") is above upper (" << *l.upper << ")";
    rd.fail(path, s.str());
  }
  for (const auto& [value, field] : {std::pair{l.effort, "effort"}, std::pair{l.velocity, "velocity"}})
    if (value && !(*value > 0)) rd.fail(jsonField(path, field), "must be > 0");
}

// bodies[i]
ojson bodyJson(const ModelSpec& s, const BodySpec& b, bool planar) {
  ojson jb;
  jb["name"] = b.name;
  jb["parent"] = bodyName(s, b.parent);
  if (b.joint.type == JointType::H)
    jb["joint"] = {{"type", "H"}, {"pitch", b.joint.pitch}};
  else
    jb["joint"] = std::string(jointCode(b.joint.type));
  ojson placement = ojson::object();
  if (!b.translation.isZero(0))
    placement["position"] = planar ? vecJson(b.translation.head<2>()) : vecJson(b.translation);
  if (!b.rotation.isIdentity(0)) {
    const Mat3 R = b.rotation.transpose();
    placement["rotation"] = planar ? matJson(R.topLeftCorner<2, 2>()) : matJson(R);
  }
  if (!placement.empty()) jb["placement"] = placement;
  jb["inertia"] = inertiaJson(b.inertia, planar);
  if (ojson init = initialJson(b); !init.is_null()) jb["initial"] = init;
  jb["appearance"] = b.appearance;
  if (b.control.type != ControlSpec::Type::None) jb["control"] = controlJson(b.control);
  if (b.damping != 0) jb["damping"] = b.damping;
  if (b.friction != 0) jb["friction"] = b.friction;
  if (b.armature != 0) jb["armature"] = b.armature;
  if (b.stiffness != 0) jb["stiffness"] = b.stiffness;
  if (b.springRef != 0) jb["spring_ref"] = b.springRef;
  if (!b.limits.empty()) {
    ojson jl = ojson::object();
    const JointLimits& l = b.limits;
    for (const auto& [value, field] : {std::pair{l.lower, "lower"}, {l.upper, "upper"}, {l.effort, "effort"}, {l.velocity, "velocity"}})
      if (value) jl[field] = *value;
    jb["limits"] = jl;
  }
  softRowsJson(b.limitSoft, b.frictionSoft, b.margin, jb);
  return jb;
}

// constraints[k]: a coupling or a loop
ojson constraintJson(const ModelSpec& s, const ConstraintSpec& c) {
  ojson jc;
  if (!c.name.empty()) jc["name"] = c.name;
  if (c.type == ConstraintSpec::Type::Coupling) {
    jc["type"] = "coupling";
    jc["joint"] = bodyName(s, c.joint);
    jc["master"] = bodyName(s, c.master);
    jc["ratio"] = c.ratio;
    jc["offset"] = c.offset;
  } else {
    jc["type"] = "loop";
    ojson a = {{"body", bodyName(s, c.bodyA)}, {"point", vecJson(c.pointA)}};
    ojson b = {{"body", bodyName(s, c.bodyB)}, {"point", vecJson(c.pointB)}};
    if (c.align) {
      a["axis"] = vecJson(c.axisA);
      b["axis"] = vecJson(c.axisB);
    }
    jc["a"] = a;
    jc["b"] = b;
  }
  return jc;
}

// forces[k]
ojson forceJson(const ModelSpec& s, const ExternalForceSpec& f, bool planar) {
  ojson jf = {{"body", bodyName(s, f.body)}};
  if (!f.point.isZero(0)) jf["point"] = planar ? vecJson(f.point.head<2>()) : vecJson(f.point);
  if (!f.force.isZero(0)) jf["force"] = planar ? vecJson(f.force.head<2>()) : vecJson(f.force);
  if (!f.torque.isZero(0)) {
    if (planar) jf["torque"] = f.torque.z();
    else jf["torque"] = vecJson(f.torque);
  }
  return jf;
}

// "keyframes": name, time, q, qd each
ojson keyframesJson(const std::vector<KeyframeSpec>& keyframes) {
  ojson ks = ojson::array();
  for (const KeyframeSpec& k : keyframes) {
    ojson j = {{"name", k.name}, {"time", k.time}, {"q", vecJson(k.q)}, {"qd", vecJson(k.qd)}};
    if (k.ctrl.size()) j["ctrl"] = vecJson(k.ctrl);
    if (k.act.size()) j["act"] = vecJson(k.act);
    ks.push_back(j);
  }
  return ks;
}

// "simulation", written when it differs from the defaults
ojson simulationJson(const SimulationSpec& sim) {
  ojson js;
  js["integrator"] = integratorName(sim.integrator);
  js["dt"] = sim.dt;
  if (sim.integrator == Integrator::DormandPrince45) {
    js["rtol"] = sim.relTol;
    js["atol"] = sim.absTol;
  }
  if (sim.energyProjection) js["energy_projection"] = true;
  return js;
}

const char* coneName(PhysicsSpec::Cone cone) { return cone == PhysicsSpec::Cone::Elliptic ? "elliptic" : "pyramidal"; }

// "physics", written when it differs from the defaults: "constraints" and the fields that differ
ojson physicsJson(const PhysicsSpec& ph) {
  const PhysicsSpec d;
  ojson j;
  j["constraints"] = ph.constraints == PhysicsSpec::Constraints::Soft ? "soft" : "exact";
  if (ph.solver != d.solver) j["solver"] = solverName(ph.solver);
  if (ph.iterations != d.iterations) j["iterations"] = ph.iterations;
  if (ph.tolerance != d.tolerance) j["tolerance"] = ph.tolerance;
  if (ph.cone != d.cone) j["cone"] = coneName(ph.cone);
  if (ph.impratio != d.impratio) j["impratio"] = ph.impratio;
  if (ph.soft != d.soft) softFieldsJson(ph.soft, j);
  if (ph.override || ph.overrideSoft != d.overrideSoft || ph.overrideMargin != d.overrideMargin) {
    ojson o = ojson::object();
    if (!ph.override) o["enabled"] = false;  // the values kept, not in force (MJCF's o_solref without the flag)
    softFieldsJson(ph.overrideSoft, o);
    o["margin"] = ph.overrideMargin;
    j["override"] = o;
  }
  ojson disable = ojson::array();
  for (const auto& [on, name] : {std::pair{ph.equality, "equality"}, {ph.frictionloss, "frictionloss"}, {ph.limit, "limit"},
                                 {ph.contact, "contact"}, {ph.filterParent, "filterparent"}, {ph.refsafe, "refsafe"}})
    if (!on) disable.push_back(name);
  if (!disable.empty()) j["disable"] = disable;
  return j;
}

// equalities[k]: the fields of its type
ojson equalityJson(const ModelSpec& s, const EqualitySpec& e) {
  using T = EqualitySpec::Type;
  ojson j;
  j["type"] = equalityTypeName(e.type);
  if (!e.name.empty()) j["name"] = e.name;
  if (!e.active) j["active"] = false;
  if (e.type == T::Connect || e.type == T::Weld) {
    j["body1"] = bodyName(s, e.obj1);
    j["anchor1"] = vecJson(e.anchor1);
    if (e.type == T::Weld && e.quat1 != Eigen::Vector4d(1, 0, 0, 0)) j["quat1"] = vecJson(e.quat1);
    j["body2"] = bodyName(s, e.obj2);
    j["anchor2"] = vecJson(e.anchor2);
    if (e.type == T::Weld && e.quat2 != Eigen::Vector4d(1, 0, 0, 0)) j["quat2"] = vecJson(e.quat2);
    if (e.type == T::Weld && e.torquescale != 1) j["torquescale"] = e.torquescale;
  } else {
    const bool joint = e.type == T::Joint;
    const auto ref = [&](int obj) { return joint ? ojson(bodyName(s, obj)) : tendonRef(s, obj); };
    j[joint ? "joint1" : "tendon1"] = ref(e.obj1);
    if (e.obj2 >= 0) j[joint ? "joint2" : "tendon2"] = ref(e.obj2);
    ojson poly = ojson::array();
    for (double c : e.poly) poly.push_back(c);
    j["polycoef"] = poly;
    if (e.ref1 != 0) j["ref1"] = e.ref1;
    if (e.ref2 != 0) j["ref2"] = e.ref2;
  }
  if (e.soft) softFieldsJson(*e.soft, j);
  return j;
}

}  // namespace

ojson specToJson(const ModelSpec& s) {
  const bool planar = s.arithmetic == Arithmetic::Planar;
  ojson doc;
  doc["format"] = kModelFormatName;
  doc["version"] = kModelFormatVersion;
  if (!s.name.empty()) doc["name"] = s.name;
  if (!s.description.empty()) doc["description"] = s.description;
  doc["kind"] = "tree";
  doc["arithmetic"] = planar ? "planar" : "spatial";
  if (s.gravity) doc["gravity"] = planar ? vecJson(s.gravity->head<2>()) : vecJson(*s.gravity);
  ojson bodies = ojson::array();
  for (const BodySpec& b : s.bodies) bodies.push_back(bodyJson(s, b, planar));
  doc["bodies"] = bodies;
  if (!s.baseAppearance.empty()) doc["base_appearance"] = s.baseAppearance;
  if (!s.camera.empty()) doc["camera"] = cameraJson(s);
  if (!s.contacts.empty()) {
    ojson c = ojson::array();
    for (const auto& cp : s.contacts) {
      ojson jc = {{"body", bodyName(s, cp.body)}, {"point", vecJson(cp.point)}};
      if (cp.radius != 0) jc["radius"] = cp.radius;
      c.push_back(jc);
    }
    doc["contacts"] = c;
  }
  if (!s.sites.empty()) {
    ojson sites = ojson::array();
    for (const SiteSpec& site : s.sites) {
      ojson j = ojson::object();
      if (!site.name.empty()) j["name"] = site.name;
      j["body"] = bodyName(s, site.body);
      j["position"] = vecJson(site.position);
      if (!site.rotation.isIdentity(0)) j["rotation"] = matJson(site.rotation);
      if (site.size != SiteSpec{}.size) j["size"] = site.size;
      if (site.colour != SiteSpec{}.colour) j["colour"] = vecJson(site.colour);
      if (site.opacity != 1) j["opacity"] = site.opacity;
      sites.push_back(j);
    }
    doc["sites"] = sites;
  }
  if (!s.tendons.empty()) doc["tendons"] = detail::tendonsJson(s);
  if (!s.actuators.empty()) doc["actuators"] = detail::actuatorsJson(s);
  if (s.ground != GroundSpec{})
    doc["ground"] = {{"stiffness", s.ground.stiffness},
                     {"damping", s.ground.damping},
                     {"friction", s.ground.friction}};
  if (!s.constraints.empty()) {
    ojson cs = ojson::array();
    for (const ConstraintSpec& c : s.constraints) cs.push_back(constraintJson(s, c));
    doc["constraints"] = cs;
  }
  if (!s.equalities.empty()) {
    ojson es = ojson::array();
    for (const EqualitySpec& e : s.equalities) es.push_back(equalityJson(s, e));
    doc["equalities"] = es;
  }
  detail::geomsJson(s, doc);
  if (!s.forces.empty()) {
    ojson fs = ojson::array();
    for (const ExternalForceSpec& f : s.forces) fs.push_back(forceJson(s, f, planar));
    doc["forces"] = fs;
  }
  if (s.physics != PhysicsSpec{}) doc["physics"] = physicsJson(s.physics);
  if (!(s.simulation == SimulationSpec{})) doc["simulation"] = simulationJson(s.simulation);
  if (!s.keyframes.empty()) doc["keyframes"] = keyframesJson(s.keyframes);
  return doc;
}

namespace {

// "kind": only "tree" is read here; false (with the reason) for the others
bool readTreeKind(JsonReader& rd, const json& doc) {
  std::string kind = "tree";
  if (!doc.contains("kind") || !rd.string(doc["kind"], "kind", kind) || kind == "tree") return true;
  if (kind == "structure")
    rd.fail("kind", "'" + kind + "' models are not supported by this version of Articulate");
  else if (kind == "rigid_body")
    rd.fail("kind", "'rigid_body' models are not kinematic trees and are not read here "
                    "(readDocument and articulate-cli read them)");
  else
    rd.fail("kind", "expected \"tree\", \"structure\" or \"rigid_body\", got \"" + kind + "\"");
  return false;
}

// What the bodies' readers share: the model's arithmetic and the body names read so far.
struct TreeContext {
  bool planar = false;
  std::string arith = "spatial";
  std::map<std::string, int> names;  // body name -> index (in the file, then in `bodies`)
  SoftParams soft;  // physics' solref and solimp: what a half not given takes
};

// the bodies' names first, so that parents can be named in any order; a body without a
// readable name gets a placeholder "#i"
void readBodyNames(JsonReader& rd, const json& jbodies, TreeContext& tc, std::vector<BodySpec>& bodies) {
  for (std::size_t i = 0; i < jbodies.size(); ++i) {
    const std::string p = jsonIndex("bodies", i);
    BodySpec b;
    b.name = "#" + std::to_string(i);  // placeholder until the real name is read
    if (jbodies[i].is_object() && jbodies[i].contains("name")) {
      std::string n;
      if (rd.string(jbodies[i]["name"], jsonField(p, "name"), n)) {
        if (n.empty()) rd.fail(jsonField(p, "name"), "must not be empty");
        else if (n == "base") rd.fail(jsonField(p, "name"), "'base' names the fixed base");
        else if (!tc.names.emplace(n, static_cast<int>(i)).second)
          rd.fail(jsonField(p, "name"), "'" + n + "' is already the name of bodies[" +
                                      std::to_string(tc.names[n]) + "]");
        b.name = n;
      }
    }
    bodies.push_back(b);
  }
}

// bodies[i].joint: a code, or {"type", "pitch"}
void readJoint(JsonReader& rd, const json& jj, const std::string& jp, const TreeContext& tc, Joint& joint) {
  std::string code;
  if (jj.is_object()) {
    rd.object(jj, jp, {"type", "pitch"});
    if (!jj.contains("type")) rd.fail(jp, "missing field 'type'");
    else rd.string(jj["type"], jsonField(jp, "type"), code);
    if (jj.contains("pitch")) rd.number(jj["pitch"], jsonField(jp, "pitch"), joint.pitch);
  } else {
    rd.string(jj, jp, code);
  }
  if (code.empty()) return;
  if (!parseJointCode(code, joint.type))
    rd.fail(jj.is_object() ? jsonField(jp, "type") : jp,
            "unknown joint type '" + code + "' (" + jointCodeList() + ")");
  else if (isPlanar(joint.type) != tc.planar)
    rd.fail(jj.is_object() ? jsonField(jp, "type") : jp,
            "'" + code + "' is a " + (tc.planar ? "spatial" : "planar") + " joint in a " +
                tc.arith + " model");
  else if (jj.is_object() && jj.contains("pitch") && joint.type != JointType::H)
    rd.fail(jsonField(jp, "pitch"), "only helical (H) joints have a pitch");
  else if (joint.type == JointType::H && !(jj.is_object() && jj.contains("pitch")))
    // no silent pitch 0 (a revolute joint): spatial_v2's jcalc fails on 'H' without one
    rd.fail(jp, "a helical (H) joint needs its pitch: {\"type\": \"H\", \"pitch\": p} "
                "(metres per radian)");
}

// bodies[i].placement: the joint frame's position and rotation in the parent's frame
void readPlacement(JsonReader& rd, const json& pl, const std::string& pp, bool planar, BodySpec& b) {
  if (!rd.object(pl, pp, {"position", "rotation"})) return;
  if (pl.contains("position"))
    readPoint(rd, pl["position"], planar, jsonField(pp, "position"), b.translation);
  Mat3 R;
  if (pl.contains("rotation") && readRotation(rd, pl["rotation"], planar, jsonField(pp, "rotation"), R)) {
    if (planar && (std::abs(R(2, 2) - 1) > 1e-12))
      rd.fail(jsonField(pp, "rotation"), "planar models rotate joints about z only");
    b.rotation = R.transpose();
  }
  if (planar && b.translation.z() != 0)
    rd.fail(jsonField(pp, "position"), "planar models place joints in the x-y plane (z = 0)");
}

// bodies[i].initial: q and qd, or for a free joint its position (m), orientation quaternion
// [w x y z] and body velocity [w; v]
void readInitial(JsonReader& rd, const json& ji, const std::string& p, BodySpec& b) {
  if (hasQuaternion(b.joint.type)) {
    // a ball joint's initial state is a free joint's without the position: orientation and
    // angular velocity
    const bool free = b.joint.type == JointType::Free;
    if (free ? !rd.object(ji, jsonField(p, "initial"), {"position", "orientation", "velocity"})
             : !rd.object(ji, jsonField(p, "initial"), {"orientation", "velocity"}))
      return;
    Eigen::VectorXd v;
    if (ji.contains("position")) rd.vec3(ji["position"], jsonField(p, "initial.position"), b.freePosition);
    if (ji.contains("orientation") &&
        rd.vector(ji["orientation"], 4, jsonField(p, "initial.orientation"), v)) {
      if (v.stableNorm() > 0)
        b.freeOrientation = v;
      else
        rd.fail(jsonField(p, "initial.orientation"), "the quaternion [w x y z] must not be zero");
    }
    if (ji.contains("velocity") && rd.vector(ji["velocity"], free ? 6 : 3, jsonField(p, "initial.velocity"), v))
      b.freeVelocity.head(v.size()) = v;
    return;
  }
  if (!rd.object(ji, jsonField(p, "initial"), {"q", "qd"})) return;
  if (ji.contains("q")) rd.number(ji["q"], jsonField(p, "initial.q"), b.q0);
  if (ji.contains("qd")) rd.number(ji["qd"], jsonField(p, "initial.qd"), b.qd0);
}

// bodies[i] (its name read already); returns its parent's index in the file, -1 for the base
int readBody(JsonReader& rd, const json& jb, std::size_t i, const TreeContext& tc,
             Diagnostics& problems, BodySpec& b) {
  const std::string p = jsonIndex("bodies", i);
  int parent = -1;
  if (!rd.object(jb, p, {"name", "parent", "joint", "placement", "inertia", "initial",
                          "appearance", "control", "damping", "friction", "armature", "stiffness", "spring_ref",
                          "limits", "limit_soft", "friction_soft", "margin"}))
    return -1;
  if (!jb.contains("name")) rd.fail(p, "missing field 'name'");
  if (!jb.contains("parent")) rd.fail(p, "missing field 'parent' (a body name or \"base\")");
  else parent = std::max(-1, resolveBody(rd, jb["parent"], tc.names, jsonField(p, "parent"), true));
  if (parent == static_cast<int>(i)) {
    rd.fail(jsonField(p, "parent"), "a body cannot be its own parent");
    parent = -1;
  }
  if (!jb.contains("joint")) rd.fail(p, "missing field 'joint'");
  else readJoint(rd, jb["joint"], jsonField(p, "joint"), tc, b.joint);
  if (jb.contains("placement")) readPlacement(rd, jb["placement"], jsonField(p, "placement"), tc.planar, b);
  if (!jb.contains("inertia")) rd.fail(p, "missing field 'inertia'");
  else readInertia(rd, jb["inertia"], tc.planar, jsonField(p, "inertia"), b.inertia);
  if (jb.contains("initial")) readInitial(rd, jb["initial"], p, b);
  if (jb.contains("appearance")) {
    b.appearance = jb["appearance"];
    interpretAppearance(b.appearance, defaultBodyColour(static_cast<int>(i) + 1), false,
                        jsonField(p, "appearance"), &problems);
  }
  if (jb.contains("control")) readControl(rd, jb["control"], jsonField(p, "control"), b.control);
  if (jb.contains("damping") && rd.number(jb["damping"], jsonField(p, "damping"), b.damping)) {
    if (!(b.damping >= 0)) rd.fail(jsonField(p, "damping"), "must be >= 0");
    else if (b.damping > 0 && b.joint.type == JointType::Free) rd.fail(jsonField(p, "damping"), "a free joint takes no damping");
  }
  if (jb.contains("friction") && rd.number(jb["friction"], jsonField(p, "friction"), b.friction)) {
    if (!(b.friction >= 0)) rd.fail(jsonField(p, "friction"), "must be >= 0");
    else if (b.friction > 0 && hasQuaternion(b.joint.type))
      rd.fail(jsonField(p, "friction"), "a " + std::string(jointCode(b.joint.type)) + " joint takes no friction");
  }
  if (jb.contains("armature") && rd.number(jb["armature"], jsonField(p, "armature"), b.armature)) {
    if (!(b.armature >= 0)) rd.fail(jsonField(p, "armature"), "must be >= 0");
    else if (b.armature > 0 && b.joint.type == JointType::Free) rd.fail(jsonField(p, "armature"), "a free joint takes no armature");
  }
  if (jb.contains("stiffness")) rd.nonNegative(jb["stiffness"], jsonField(p, "stiffness"), b.stiffness, false);
  if (jb.contains("spring_ref")) rd.number(jb["spring_ref"], jsonField(p, "spring_ref"), b.springRef);
  if (jb.contains("limits")) readLimits(rd, jb["limits"], jsonField(p, "limits"), b);
  readSoftRows(rd, jb, p, tc.soft, b.limitSoft, b.frictionSoft, b.margin);
  b.parent = parent;
  return parent;
}

// the bodies in parents-before-children order into out.bodies (tc.names follows them);
// `order` lists each body's index in the file
void orderBodies(JsonReader& rd, std::vector<BodySpec>& bodies, std::vector<int>& parentIdx,
                 TreeContext& tc, ModelSpec& out, std::vector<int>& order) {
  if (!sortBodies(rd, bodies, parentIdx, order)) return;
  std::vector<int> newIndex(bodies.size());
  for (std::size_t k = 0; k < order.size(); ++k) newIndex[order[k]] = static_cast<int>(k);
  for (int oldI : order) {
    BodySpec b = bodies[oldI];
    b.parent = parentIdx[oldI] < 0 ? -1 : newIndex[parentIdx[oldI]];
    out.bodies.push_back(std::move(b));
  }
  for (auto& kv : tc.names) kv.second = newIndex[kv.second];
}

// "contacts": [{"body", "point", "radius"}]
void readContacts(JsonReader& rd, const json& cs, const TreeContext& tc, ModelSpec& out) {
  if (!cs.is_array()) {
    rd.fail("contacts", "expected an array");
    return;
  }
  for (std::size_t k = 0; k < cs.size(); ++k) {
    const std::string p = jsonIndex("contacts", k);
    if (!rd.object(cs[k], p, {"body", "point", "radius"})) continue;
    ContactPointSpec cp;
    if (!cs[k].contains("body") || !cs[k].contains("point")) {
      rd.fail(p, "needs 'body' and 'point'");
      continue;
    }
    cp.body = resolveBody(rd, cs[k]["body"], tc.names, jsonField(p, "body"), false);
    if (cs[k].contains("radius") && rd.number(cs[k]["radius"], jsonField(p, "radius"), cp.radius) && !(cp.radius >= 0))
      rd.fail(jsonField(p, "radius"), "must be >= 0");
    if (rd.vec3(cs[k]["point"], jsonField(p, "point"), cp.point) && cp.body >= 0)
      out.contacts.push_back(cp);
  }
}

// "sites": [{"name", "body", "position", "rotation", "size", "colour", "opacity"}]
void readSites(JsonReader& rd, const json& ss, const TreeContext& tc, ModelSpec& out) {
  if (!ss.is_array()) {
    rd.fail("sites", "expected an array");
    return;
  }
  for (std::size_t k = 0; k < ss.size(); ++k) {
    const std::string p = jsonIndex("sites", k);
    if (!rd.object(ss[k], p, {"name", "body", "position", "rotation", "size", "colour", "opacity"})) continue;
    SiteSpec site;
    if (!ss[k].contains("body") || !ss[k].contains("position")) {
      rd.fail(p, "needs 'body' and 'position'");
      continue;
    }
    bool ok = !ss[k].contains("name") || rd.string(ss[k]["name"], jsonField(p, "name"), site.name);
    site.body = resolveBody(rd, ss[k]["body"], tc.names, jsonField(p, "body"), true);
    ok &= site.body >= -1 && rd.vec3(ss[k]["position"], jsonField(p, "position"), site.position);
    if (ss[k].contains("rotation")) ok &= rd.matrix3(ss[k]["rotation"], jsonField(p, "rotation"), site.rotation);
    if (ss[k].contains("size") && rd.number(ss[k]["size"], jsonField(p, "size"), site.size) && !(site.size > 0))
      ok = false, rd.fail(jsonField(p, "size"), "must be > 0");
    if (ss[k].contains("colour") && rd.vec3(ss[k]["colour"], jsonField(p, "colour"), site.colour) &&
        !((site.colour.array() >= 0).all() && (site.colour.array() <= 1).all()))
      ok = false, rd.fail(jsonField(p, "colour"), "components must be in [0, 1]");
    if (ss[k].contains("opacity") && rd.number(ss[k]["opacity"], jsonField(p, "opacity"), site.opacity) &&
        !(site.opacity >= 0 && site.opacity <= 1))
      ok = false, rd.fail(jsonField(p, "opacity"), "must be in [0, 1]");
    if (ok) out.sites.push_back(site);
  }
}

// "ground": the contact model's stiffness, damping and friction
void readGround(JsonReader& rd, const json& jg, GroundSpec& g) {
  if (!rd.object(jg, "ground", {"stiffness", "damping", "friction"})) return;
  if (jg.contains("stiffness") && rd.number(jg["stiffness"], "ground.stiffness", g.stiffness) &&
      !(g.stiffness > 0))
    rd.fail("ground.stiffness", "must be > 0");
  if (jg.contains("damping") && rd.number(jg["damping"], "ground.damping", g.damping) &&
      !(g.damping > 0))
    rd.fail("ground.damping", "must be > 0");
  if (jg.contains("friction") && rd.number(jg["friction"], "ground.friction", g.friction) &&
      !(g.friction >= 0))
    rd.fail("ground.friction", "must be >= 0");
}

// a coupling constraint: joint = ratio * master + offset; false when it cannot be read at all
bool readCoupling(JsonReader& rd, const json& jc, const std::string& p, const TreeContext& tc, ConstraintSpec& c) {
  rd.object(jc, p, {"type", "name", "joint", "master", "ratio", "offset"});
  c.type = ConstraintSpec::Type::Coupling;
  if (!jc.contains("joint") || !jc.contains("master")) {
    rd.fail(p, "a coupling needs 'joint' and 'master' (body names)");
    return false;
  }
  c.joint = resolveBody(rd, jc["joint"], tc.names, jsonField(p, "joint"), false);
  c.master = resolveBody(rd, jc["master"], tc.names, jsonField(p, "master"), false);
  if (jc.contains("ratio")) rd.number(jc["ratio"], jsonField(p, "ratio"), c.ratio);
  if (jc.contains("offset")) rd.number(jc["offset"], jsonField(p, "offset"), c.offset);
  if (c.joint >= 0 && c.joint == c.master) rd.fail(jsonField(p, "master"), "must differ from 'joint'");
  return true;
}

// a loop closure: two bodies' points kept together, and their axes aligned when both have one
void readLoop(JsonReader& rd, const json& jc, const std::string& p, const TreeContext& tc, ConstraintSpec& c) {
  rd.object(jc, p, {"type", "name", "a", "b"});
  c.type = ConstraintSpec::Type::Loop;
  int axes = 0;
  for (const char* side : {"a", "b"}) {
    const std::string sp = jsonField(p, side);
    if (!jc.contains(side)) {
      rd.fail(p, std::string("a loop needs '") + side + "' ({\"body\", \"point\"})");
      continue;
    }
    const json& js = jc[side];
    if (!rd.object(js, sp, {"body", "point", "axis"})) continue;
    const bool a = std::string(side) == "a";
    if (!js.contains("body")) rd.fail(sp, "missing field 'body'");
    else (a ? c.bodyA : c.bodyB) = resolveBody(rd, js["body"], tc.names, jsonField(sp, "body"), true);
    if (js.contains("point")) rd.vec3(js["point"], jsonField(sp, "point"), a ? c.pointA : c.pointB);
    if (js.contains("axis")) {
      ++axes;
      Vec3& ax = a ? c.axisA : c.axisB;
      if (rd.vec3(js["axis"], jsonField(sp, "axis"), ax) && ax.norm() == 0)
        rd.fail(jsonField(sp, "axis"), "must be nonzero");
    }
  }
  if (axes == 1) rd.fail(p, "axis alignment needs an 'axis' on both 'a' and 'b'");
  c.align = axes == 2;
  if (c.bodyA == c.bodyB && c.bodyA >= -1 && jc.contains("a") && jc.contains("b"))
    rd.fail(jsonField(p, "b.body"), "must differ from a.body");
}

// "constraints": couplings and loops
void readConstraints(JsonReader& rd, const json& cs, const TreeContext& tc, ModelSpec& out) {
  if (!cs.is_array()) {
    rd.fail("constraints", "expected an array");
    return;
  }
  for (std::size_t k = 0; k < cs.size(); ++k) {
    const std::string p = jsonIndex("constraints", k);
    const json& jc = cs[k];
    ConstraintSpec c;
    std::string type;
    if (!jc.is_object() || !jc.contains("type")) {
      rd.fail(p, "expected an object with 'type' (\"coupling\" or \"loop\")");
      continue;
    }
    rd.string(jc["type"], jsonField(p, "type"), type);
    if (jc.contains("name")) rd.string(jc["name"], jsonField(p, "name"), c.name);
    if (type == "coupling") {
      if (!readCoupling(rd, jc, p, tc, c)) continue;
    } else if (type == "loop") {
      readLoop(rd, jc, p, tc, c);
    } else if (!type.empty()) {
      rd.fail(jsonField(p, "type"), "expected \"coupling\" or \"loop\", got \"" + type + "\"");
    }
    out.constraints.push_back(c);
  }
}

// "forces": constant external forces and torques on bodies
void readForces(JsonReader& rd, const json& fs, const TreeContext& tc, ModelSpec& out) {
  if (!fs.is_array()) {
    rd.fail("forces", "expected an array");
    return;
  }
  for (std::size_t k = 0; k < fs.size(); ++k) {
    const std::string p = jsonIndex("forces", k);
    if (!rd.object(fs[k], p, {"body", "point", "force", "torque"})) continue;
    ExternalForceSpec f;
    if (!fs[k].contains("body")) {
      rd.fail(p, "missing field 'body'");
      continue;
    }
    f.body = resolveBody(rd, fs[k]["body"], tc.names, jsonField(p, "body"), false);
    if (fs[k].contains("point")) readPoint(rd, fs[k]["point"], tc.planar, jsonField(p, "point"), f.point);
    if (fs[k].contains("force")) readPoint(rd, fs[k]["force"], tc.planar, jsonField(p, "force"), f.force);
    if (fs[k].contains("torque")) {
      if (tc.planar) rd.number(fs[k]["torque"], jsonField(p, "torque"), f.torque.z());
      else rd.vec3(fs[k]["torque"], jsonField(p, "torque"), f.torque);
    }
    if (f.body >= 0) out.forces.push_back(f);
  }
}

// "simulation": the integrator, its steps and tolerances, energy projection
void readSimulation(JsonReader& rd, const json& js, SimulationSpec& sim) {
  if (!rd.object(js, "simulation", {"integrator", "dt", "rtol", "atol", "energy_projection"})) return;
  std::string name;
  if (js.contains("integrator") && rd.string(js["integrator"], "simulation.integrator", name) &&
      !parseIntegrator(name, sim.integrator))
    rd.fail("simulation.integrator",
            "expected \"rk4\", \"euler\", \"dopri5\" or \"mujoco-euler\", got \"" + name + "\"");
  const std::pair<const char*, double*> fields[] = {
      {"dt", &sim.dt}, {"rtol", &sim.relTol}, {"atol", &sim.absTol}};
  for (const auto& [field, value] : fields)
    if (js.contains(field) && rd.number(js[field], jsonField("simulation", field), *value) && !(*value > 0))
      rd.fail(jsonField("simulation", field), "must be > 0, got " + describe(*value));
  if (js.contains("energy_projection"))
    rd.boolean(js["energy_projection"], "simulation.energy_projection", sim.energyProjection);
}

// "physics": exact or soft constraints, the soft model's solver and its default parameters
void readPhysics(JsonReader& rd, const json& jp, PhysicsSpec& ph) {
  if (!rd.object(jp, "physics", {"constraints", "solver", "iterations", "tolerance", "cone", "impratio", "solref", "solimp",
                                 "override", "disable"}))
    return;
  std::string name;
  if (jp.contains("constraints") && rd.string(jp["constraints"], "physics.constraints", name)) {
    if (name == "exact") ph.constraints = PhysicsSpec::Constraints::Exact;
    else if (name == "soft") ph.constraints = PhysicsSpec::Constraints::Soft;
    else rd.fail("physics.constraints", "expected \"exact\" or \"soft\", got \"" + name + "\"");
  }
  if (jp.contains("solver") && rd.string(jp["solver"], "physics.solver", name) && !parseSolver(name, ph.solver))
    rd.fail("physics.solver", "expected \"newton\", \"pgs\" or \"cg\", got \"" + name + "\"");
  double iterations = 0;
  if (jp.contains("iterations") && rd.number(jp["iterations"], "physics.iterations", iterations)) {
    if (!(iterations >= 1 && iterations <= 1e9 && iterations == std::floor(iterations)))
      rd.fail("physics.iterations", "must be a whole number >= 1, got " + describe(iterations));
    else
      ph.iterations = static_cast<int>(iterations);
  }
  if (jp.contains("tolerance")) rd.nonNegative(jp["tolerance"], "physics.tolerance", ph.tolerance, false);
  if (jp.contains("cone") && rd.string(jp["cone"], "physics.cone", name)) {
    if (name == "pyramidal") ph.cone = PhysicsSpec::Cone::Pyramidal;
    else if (name == "elliptic") ph.cone = PhysicsSpec::Cone::Elliptic;
    else rd.fail("physics.cone", "expected \"pyramidal\" or \"elliptic\", got \"" + name + "\"");
  }
  if (jp.contains("impratio")) rd.nonNegative(jp["impratio"], "physics.impratio", ph.impratio, true);
  std::optional<SoftParams> soft;
  if (readSoftFields(rd, jp, "physics", PhysicsSpec{}.soft, soft) && soft) ph.soft = *soft;
  if (jp.contains("override")) {
    const json& jo = jp["override"];
    if (rd.object(jo, "physics.override", {"enabled", "solref", "solimp", "margin"})) {
      ph.override = true;
      if (jo.contains("enabled")) rd.boolean(jo["enabled"], "physics.override.enabled", ph.override);
      std::optional<SoftParams> o;
      if (readSoftFields(rd, jo, "physics.override", PhysicsSpec{}.overrideSoft, o) && o) ph.overrideSoft = *o;
      if (jo.contains("margin")) rd.nonNegative(jo["margin"], "physics.override.margin", ph.overrideMargin, false);
    }
  }
  if (jp.contains("disable")) {
    const json& jd = jp["disable"];
    if (!jd.is_array()) {
      rd.fail("physics.disable", "expected an array of \"equality\", \"frictionloss\", \"limit\", \"contact\", \"filterparent\" and \"refsafe\"");
      return;
    }
    for (std::size_t k = 0; k < jd.size(); ++k) {
      const std::string p = jsonIndex("physics.disable", k);
      if (!rd.string(jd[k], p, name)) continue;
      if (name == "equality") ph.equality = false;
      else if (name == "frictionloss") ph.frictionloss = false;
      else if (name == "limit") ph.limit = false;
      else if (name == "refsafe") ph.refsafe = false;
      else if (name == "contact") ph.contact = false;
      else if (name == "filterparent") ph.filterParent = false;
      else rd.fail(p, "expected \"equality\", \"frictionloss\", \"limit\", \"contact\", \"filterparent\" or \"refsafe\", got \"" + name + "\"");
    }
  }
}

// equalities[k].polycoef: 1 to 5 coefficients c0 + c1 x + ..., the terms not given zero
bool readPolycoef(JsonReader& rd, const json& j, const std::string& path, std::array<double, 5>& poly) {
  Eigen::VectorXd v;
  if (!j.is_array() || j.empty() || j.size() > 5) {
    rd.fail(path, "expected 1 to 5 numbers (the coefficients c0, c1, ... of c0 + c1 x + c2 x^2 + ...)");
    return false;
  }
  if (!rd.vector(j, static_cast<int>(j.size()), path, v)) return false;
  poly.fill(0);
  for (Eigen::Index k = 0; k < v.size(); ++k) poly[static_cast<std::size_t>(k)] = v(k);
  return true;
}

// "equalities": the soft model's equality constraints (after the bodies, sorted, and the tendons)
void readEqualities(JsonReader& rd, const json& es, const TreeContext& tc, ModelSpec& out) {
  if (!es.is_array()) {
    rd.fail("equalities", "expected an array");
    return;
  }
  using T = EqualitySpec::Type;
  for (std::size_t k = 0; k < es.size(); ++k) {
    const std::string p = jsonIndex("equalities", k);
    const json& je = es[k];
    EqualitySpec e;
    std::string type;
    if (!je.is_object() || !je.contains("type")) {
      rd.fail(p, "expected an object with 'type' (\"connect\", \"weld\", \"joint\" or \"tendon\")");
      continue;
    }
    if (!rd.string(je["type"], jsonField(p, "type"), type)) continue;
    if (type == "connect") {
      e.type = T::Connect;
      rd.object(je, p, {"type", "name", "active", "body1", "anchor1", "body2", "anchor2", "solref", "solimp"});
    } else if (type == "weld") {
      e.type = T::Weld;
      rd.object(je, p, {"type", "name", "active", "body1", "anchor1", "quat1", "body2", "anchor2", "quat2", "torquescale",
                        "solref", "solimp"});
    } else if (type == "joint") {
      e.type = T::Joint;
      rd.object(je, p, {"type", "name", "active", "joint1", "joint2", "polycoef", "ref1", "ref2", "solref", "solimp"});
    } else if (type == "tendon") {
      e.type = T::Tendon;
      rd.object(je, p, {"type", "name", "active", "tendon1", "tendon2", "polycoef", "ref1", "ref2", "solref", "solimp"});
    } else {
      rd.fail(jsonField(p, "type"), "expected \"connect\", \"weld\", \"joint\" or \"tendon\", got \"" + type + "\"");
      continue;
    }
    bool ok = true;
    if (je.contains("name")) ok = rd.string(je["name"], jsonField(p, "name"), e.name) && ok;
    if (je.contains("active")) ok = rd.boolean(je["active"], jsonField(p, "active"), e.active) && ok;
    if (e.type == T::Connect || e.type == T::Weld) {
      if (!je.contains("body1")) {
        rd.fail(p, "a " + type + " needs 'body1' (a body name or \"base\")");
        ok = false;
      } else {
        e.obj1 = resolveBody(rd, je["body1"], tc.names, jsonField(p, "body1"), true);
        ok = e.obj1 >= -1 && ok;
      }
      if (je.contains("body2")) {  // absent: the base
        e.obj2 = resolveBody(rd, je["body2"], tc.names, jsonField(p, "body2"), true);
        ok = e.obj2 >= -1 && ok;
      }
      if (je.contains("anchor1")) ok = rd.vec3(je["anchor1"], jsonField(p, "anchor1"), e.anchor1) && ok;
      if (je.contains("anchor2")) ok = rd.vec3(je["anchor2"], jsonField(p, "anchor2"), e.anchor2) && ok;
      Eigen::VectorXd v;
      for (const auto& [field, quat] : {std::pair{"quat1", &e.quat1}, std::pair{"quat2", &e.quat2}}) {
        if (!je.contains(field)) continue;
        if (!rd.vector(je[field], 4, jsonField(p, field), v)) {
          ok = false;
        } else if (v.stableNorm() == 0) {
          rd.fail(jsonField(p, field), "the quaternion [w x y z] must not be zero");
          ok = false;
        } else {
          *quat = v;
        }
      }
      if (je.contains("torquescale")) ok = rd.number(je["torquescale"], jsonField(p, "torquescale"), e.torquescale) && ok;
    } else {
      const bool joint = e.type == T::Joint;
      const std::string f1 = joint ? "joint1" : "tendon1", f2 = joint ? "joint2" : "tendon2";
      const auto resolve = [&](const std::string& f) {
        return joint ? resolveBody(rd, je[f], tc.names, jsonField(p, f), false)
                     : resolveTendon(rd, je[f], out, jsonField(p, f));
      };
      if (!je.contains(f1)) {
        rd.fail(p, "a " + type + " equality needs '" + f1 + "' (" +
                       (joint ? "the body whose joint it is" : "a tendon's name or index") + ")");
        ok = false;
      } else {
        e.obj1 = resolve(f1);
        ok = e.obj1 >= 0 && ok;
      }
      if (je.contains(f2)) {  // absent: obj1 is held at ref1 + polycoef[0]
        e.obj2 = resolve(f2);
        ok = e.obj2 >= 0 && ok;
      }
      if (je.contains("polycoef")) ok = readPolycoef(rd, je["polycoef"], jsonField(p, "polycoef"), e.poly) && ok;
      if (je.contains("ref1")) ok = rd.number(je["ref1"], jsonField(p, "ref1"), e.ref1) && ok;
      if (je.contains("ref2")) ok = rd.number(je["ref2"], jsonField(p, "ref2"), e.ref2) && ok;
    }
    ok = readSoftFields(rd, je, p, out.physics.soft, e.soft) && ok;
    if (ok) out.equalities.push_back(std::move(e));
  }
}

// "keyframes": named states (their sizes are compile()'s to check, against the model)
void readKeyframes(JsonReader& rd, const json& ks, ModelSpec& out) {
  if (!ks.is_array()) {
    rd.fail("keyframes", "expected an array");
    return;
  }
  if (ks.size() > static_cast<std::size_t>(kMaxKeyframes)) {  // before reading them: compile() checks again
    rd.fail("keyframes", std::to_string(ks.size()) + " keyframes, more than the " + std::to_string(kMaxKeyframes) +
                             " a model may have");
    return;
  }
  for (std::size_t k = 0; k < ks.size(); ++k) {
    const std::string p = jsonIndex("keyframes", k);
    if (!rd.object(ks[k], p, {"name", "time", "q", "qd", "ctrl", "act"})) continue;
    KeyframeSpec f;
    bool ok = true;
    for (const char* field : {"name", "time", "q", "qd"})
      if (!ks[k].contains(field)) {
        rd.fail(p, std::string("missing field '") + field + "'");
        ok = false;
      }
    if (!ok) continue;
    ok = rd.string(ks[k]["name"], jsonField(p, "name"), f.name) && ok;
    ok = rd.number(ks[k]["time"], jsonField(p, "time"), f.time) && ok;
    for (const auto& [field, v] : {std::pair<const char*, Eigen::VectorXd*>{"q", &f.q}, {"qd", &f.qd}, {"ctrl", &f.ctrl},
                                   {"act", &f.act}}) {
      if (!ks[k].contains(field)) continue;  // ctrl and act (q and qd were required above)
      const json& j = ks[k][field];
      ok = rd.vector(j, j.is_array() ? static_cast<int>(j.size()) : 0, jsonField(p, field), *v) && ok;
    }
    if (ok) out.keyframes.push_back(std::move(f));
  }
}

}  // namespace

void specFromJson(const json& doc, ModelSpec& out, Diagnostics& problems) {
  JsonReader rd(problems);
  const std::size_t before = problems.size();
  out = ModelSpec{};
  if (!rd.object(doc, "", {"format", "version", "name", "description", "kind", "arithmetic",
                           "gravity", "bodies", "base_appearance", "camera", "contacts", "sites",
                           "tendons", "actuators", "ground", "constraints", "equalities", "forces", "physics",
                           "geoms", "contact_pairs", "contact_excludes",
                           "simulation", "keyframes"}))
    return;
  readHeader(rd, doc, out.name, out.description);
  if (!readTreeKind(rd, doc)) return;
  TreeContext tc;
  // first: the bodies', tendons' and equalities' solver parameters complete theirs with its defaults
  if (doc.contains("physics")) readPhysics(rd, doc["physics"], out.physics);
  tc.soft = out.physics.soft;
  if (doc.contains("arithmetic") && rd.string(doc["arithmetic"], "arithmetic", tc.arith) &&
      tc.arith != "spatial" && tc.arith != "planar")
    rd.fail("arithmetic", "expected \"spatial\" or \"planar\", got \"" + tc.arith + "\"");
  tc.planar = tc.arith == "planar";
  out.arithmetic = tc.planar ? Arithmetic::Planar : Arithmetic::Spatial;
  if (doc.contains("gravity")) {
    Eigen::VectorXd g;
    if (rd.vector(doc["gravity"], tc.planar ? 2 : 3, "gravity", g))
      out.gravity = tc.planar ? Vec3(g(0), g(1), 0) : Vec3(g);
  }

  const json& jbodies = doc.contains("bodies") ? doc["bodies"] : json();
  if (!doc.contains("bodies")) rd.fail("", "missing field 'bodies'");
  else if (!jbodies.is_array()) rd.fail("bodies", "expected an array of bodies");
  else if (jbodies.size() > static_cast<std::size_t>(kMaxBodies))
    rd.fail("bodies", std::to_string(jbodies.size()) + " bodies, more than the " + std::to_string(kMaxBodies) +
                          " a model may have");
  std::vector<BodySpec> bodies;
  std::vector<int> parentIdx;
  if (jbodies.is_array() && jbodies.size() <= static_cast<std::size_t>(kMaxBodies)) {
    readBodyNames(rd, jbodies, tc, bodies);
    for (std::size_t i = 0; i < jbodies.size(); ++i)
      parentIdx.push_back(readBody(rd, jbodies[i], i, tc, problems, bodies[i]));
  }
  if (doc.contains("base_appearance")) {
    out.baseAppearance = doc["base_appearance"];
    interpretAppearance(out.baseAppearance, defaultBodyColour(0), true, "base_appearance", &problems);
  }
  std::vector<int> order;
  orderBodies(rd, bodies, parentIdx, tc, out, order);
  if (doc.contains("camera")) readCamera(rd, doc["camera"], tc.names, "camera", out.camera);
  if (doc.contains("contacts")) readContacts(rd, doc["contacts"], tc, out);
  if (doc.contains("sites")) readSites(rd, doc["sites"], tc, out);
  if (doc.contains("tendons")) detail::readTendons(rd, doc["tendons"], tc.names, out);
  if (doc.contains("actuators")) detail::readActuators(rd, doc["actuators"], tc.names, out);
  if (doc.contains("ground")) readGround(rd, doc["ground"], out.ground);
  if (doc.contains("constraints")) readConstraints(rd, doc["constraints"], tc, out);
  if (doc.contains("equalities")) readEqualities(rd, doc["equalities"], tc, out);
  detail::readGeoms(rd, doc, tc.names, out);
  if (doc.contains("forces")) readForces(rd, doc["forces"], tc, out);
  if (doc.contains("simulation")) readSimulation(rd, doc["simulation"], out.simulation);
  if (doc.contains("keyframes")) readKeyframes(rd, doc["keyframes"], out);
  if (problems.size() != before) return;
  // everything read: the tree's own checks, reported at the body's index in the file
  try {
    compile(out);
  } catch (const ModelError& e) {
    const int b = e.bodyIndex();
    const int inFile = b >= 0 && b < static_cast<int>(order.size()) ? order[b] : b;
    problems.push_back({b >= 0 ? jsonIndex("bodies", inFile) + "." + e.field() : e.field(),
                        b >= 0 ? e.reason() + " (body '" + printableName(out.bodies[b].name) + "')" : e.reason()});
  }
}

namespace {

// an Articulate recording's samples: t (nt), q (nt x nq), qd (nt x nv), kinetic, potential and
// (version 2) dissipated and (version 3) actuator_work (nt)
void readRecording(const json& doc, int nq, int nv, JsonReader& rd, Motion& mo) {
  const json& jt = doc["t"];
  if (!jt.is_array() || jt.empty()) {
    rd.fail("t", "expected at least 1 sample time");
    return;
  }
  const int nt = static_cast<int>(std::min<std::size_t>(jt.size(), 1u << 30));
  if (!rd.vector(jt, nt, "t", mo.t)) return;
  for (int k = 1; k < nt; ++k)
    if (mo.t(k) < mo.t(k - 1)) {
      rd.fail(jsonIndex("t", k), "sample times must not decrease");
      return;
    }
  auto rows = [&](const char* field, Eigen::MatrixXd& out) {
    const int nb = std::string(field) == "q" ? nq : nv;
    const json& j = doc[field];
    if (!j.is_array() || j.size() != static_cast<std::size_t>(nt) ||
        (nt > 0 && (!j[0].is_array() || j[0].size() != static_cast<std::size_t>(nb)))) {
      rd.fail(field, "expected " + std::to_string(nt) + " rows (one per time) of " +
                         std::to_string(nb) + " numbers (one per joint variable)");
      return;
    }
    rd.matrix(j, nt, nb, field, out);
  };
  if (!doc.contains("q")) rd.fail("", "missing field 'q'");
  else rows("q", mo.q);
  if (doc.contains("qd")) rows("qd", mo.qd);
  for (const char* f : {"kinetic", "potential"})
    if (doc.contains(f)) rd.vector(doc[f], nt, f, std::string(f) == "kinetic" ? mo.kinetic : mo.potential);
  if (doc.contains("dissipated")) rd.vector(doc["dissipated"], nt, "dissipated", mo.dissipated);
  if (doc.contains("actuator_work")) rd.vector(doc["actuator_work"], nt, "actuator_work", mo.actuatorWork);
  for (const char* f : {"title", "author", "description", "date"}) {
    if (!doc.contains(f)) continue;
    std::string& dst = f[0] == 't' ? mo.title : f[0] == 'a' ? mo.author : f[0] == 'd' && f[1] == 'e' ? mo.description : mo.date;
    rd.string(doc[f], f, dst);
  }
}

}  // namespace

bool readRecordingDocument(const json& doc, LoadedModel& out, Diagnostics& problems) {
  const std::size_t before = problems.size();
  out.format = kRecordingFormatName;
  JsonReader rd(problems);
  rd.object(doc, "",
            {"format", "version", "title", "author", "description", "date", "model", "t", "q", "qd",
             "kinetic", "potential", "dissipated", "actuator_work"});
  // version 2 added `dissipated`, version 3 `actuator_work`; a recording is written in the
  // lowest version that holds it
  const json version = doc.value("version", json());
  if (!version.is_number_integer() || version.get<long>() < 1 || version.get<long>() > kRecordingFormatVersion)
    rd.fail("version", "expected 1 to " + std::to_string(kRecordingFormatVersion));
  else if (version.get<long>() < 2 && doc.contains("dissipated"))
    rd.fail("dissipated", "needs version 2 or later");
  else if (version.get<long>() < 3 && doc.contains("actuator_work"))
    rd.fail("actuator_work", "needs version 3");
  if (!doc.contains("model")) {
    rd.fail("", "missing field 'model' (an articulate-model document)");
    return false;
  }
  Diagnostics modelProblems;
  specFromJson(doc["model"], out.spec, modelProblems);
  for (const Diagnostic& d : modelProblems)
    problems.push_back({d.path.empty() ? "model" : "model." + d.path, d.message});
  if (problems.size() != before) return false;
  if (!doc.contains("t")) {
    rd.fail("", "missing field 't'");
    return false;
  }
  Motion mo;
  int nq = 0, nv = 0;
  for (const BodySpec& b : out.spec.bodies) {
    nq += jointNq(b.joint.type);
    nv += jointNv(b.joint.type);
  }
  readRecording(doc, nq, nv, rd, mo);
  if (problems.size() != before) return false;
  out.motion = std::move(mo);
  return true;
}

int recordingVersion(const Motion& motion) {
  return motion.actuatorWork.size() ? 3 : motion.dissipated.size() ? 2 : 1;
}

ojson recordingToJson(const ModelSpec& spec, const Motion& motion) {
  ojson doc;
  doc["format"] = kRecordingFormatName;
  doc["version"] = recordingVersion(motion);
  if (!motion.title.empty()) doc["title"] = motion.title;
  if (!motion.author.empty()) doc["author"] = motion.author;
  if (!motion.description.empty()) doc["description"] = motion.description;
  if (!motion.date.empty()) doc["date"] = motion.date;
  doc["model"] = specToJson(spec);
  doc["t"] = std::vector<double>(motion.t.data(), motion.t.data() + motion.t.size());
  auto rows = [](const Eigen::MatrixXd& m) {
    ojson a = ojson::array();
    for (Eigen::Index r = 0; r < m.rows(); ++r) {
      std::vector<double> row(m.cols());
      for (Eigen::Index c = 0; c < m.cols(); ++c) row[c] = m(r, c);
      a.push_back(row);
    }
    return a;
  };
  doc["q"] = rows(motion.q);
  if (motion.qd.size()) doc["qd"] = rows(motion.qd);
  if (motion.kinetic.size())
    doc["kinetic"] = std::vector<double>(motion.kinetic.data(), motion.kinetic.data() + motion.kinetic.size());
  if (motion.potential.size())
    doc["potential"] = std::vector<double>(motion.potential.data(), motion.potential.data() + motion.potential.size());
  if (motion.dissipated.size())
    doc["dissipated"] = std::vector<double>(motion.dissipated.data(),
                                            motion.dissipated.data() + motion.dissipated.size());
  if (motion.actuatorWork.size())
    doc["actuator_work"] = std::vector<double>(motion.actuatorWork.data(),
                                               motion.actuatorWork.data() + motion.actuatorWork.size());
  return doc;
}

namespace {

// the spec as a file at `path` holds it: mesh files under its folder named relative to it
ModelSpec withRelativeMeshes(const std::string& path, const ModelSpec& spec) {
  const std::string folder = std::filesystem::absolute(path).parent_path().string();
  ModelSpec out = spec;
  relativeMeshPaths(out.baseAppearance, folder);
  for (BodySpec& b : out.bodies) relativeMeshPaths(b.appearance, folder);
  return out;
}

}  // namespace

void saveRecording(const std::string& path, const ModelSpec& spec, const Motion& motion) {
  // Streamed: the same bytes as formatJson(recordingToJson(spec, motion)), written a piece at a
  // time, so that a long recording is never held a second time as JSON (a document of
  // nlohmann values and its text took about seven times the samples' memory). A recording has
  // more than four fields, so formatJson writes it one field per line, and numeric arrays and
  // matrices on one line each.
  ojson head;
  head["format"] = kRecordingFormatName;
  head["version"] = recordingVersion(motion);
  if (!motion.title.empty()) head["title"] = motion.title;
  if (!motion.author.empty()) head["author"] = motion.author;
  if (!motion.description.empty()) head["description"] = motion.description;
  if (!motion.date.empty()) head["date"] = motion.date;
  head["model"] = specToJson(withRelativeMeshes(path, spec));
  AtomicFile file(path);
  std::string out = "{\n";
  for (auto it = head.begin(); it != head.end(); ++it) {
    const std::string key = "  " + ojson(it.key()).dump() + ": ";
    out += key;
    formatJsonInto(*it, 2, key.size(), out);
    out += ",\n";
  }
  const auto flush = [&](std::size_t above) {
    if (out.size() < above) return;
    file.write(out);
    out.clear();
  };
  // one array field: `count` entries, each written by `entry`
  bool firstField = true;
  const auto field = [&](const char* name, Eigen::Index count, const auto& entry) {
    if (!firstField) out += ",\n";
    firstField = false;
    out += std::string("  \"") + name + "\": ";
    if (count == 0) {
      out += "[]";
      return;
    }
    out += '[';
    for (Eigen::Index k = 0; k < count; ++k) {
      if (k) out += ", ";
      entry(k);
      flush(std::size_t(1) << 20);
    }
    out += ']';
  };
  const auto numbers = [&](const char* name, const Eigen::VectorXd& v) {
    field(name, v.size(), [&](Eigen::Index k) { out += formatJsonNumber(v(k)); });
  };
  const auto rows = [&](const char* name, const Eigen::MatrixXd& m) {
    field(name, m.rows(), [&](Eigen::Index r) {
      out += '[';
      for (Eigen::Index c = 0; c < m.cols(); ++c) {
        if (c) out += ", ";
        out += formatJsonNumber(m(r, c));
      }
      out += ']';
    });
  };
  numbers("t", motion.t);
  rows("q", motion.q);
  if (motion.qd.size()) rows("qd", motion.qd);
  if (motion.kinetic.size()) numbers("kinetic", motion.kinetic);
  if (motion.potential.size()) numbers("potential", motion.potential);
  if (motion.dissipated.size()) numbers("dissipated", motion.dissipated);
  if (motion.actuatorWork.size()) numbers("actuator_work", motion.actuatorWork);
  out += "\n}\n";
  file.write(out);
  file.commit();
}


void saveModel(const std::string& path, const ModelSpec& spec) {
  writeFileAtomically(path, formatJson(specToJson(withRelativeMeshes(path, spec))));
}

// ---- rigid bodies (kind "rigid_body") ----

namespace {

ojson shapeJson(const ShapeSpec& shape) {
  ojson j;
  j["type"] = shapeTypeName(shape.type);
  switch (shape.type) {
    case ShapeSpec::Type::Box:
      j["size"] = vecJson(shape.size);
      break;
    case ShapeSpec::Type::Cylinder:
      j["radius"] = shape.radius;
      j["length"] = shape.length;
      break;
    case ShapeSpec::Type::Sphere:
      j["radius"] = shape.radius;
      break;
  }
  return j;
}

// a number > 0 (unit in messages)
void positive(JsonReader& rd, const json& j, const std::string& path, const char* unit, double& out) {
  if (rd.number(j, path, out) && out <= 0)
    rd.fail(path, "must be > 0 (" + std::string(unit) + "), got " + describe(out));
}

void readShape(JsonReader& rd, const json& j, ShapeSpec& out) {
  const std::string path = "shape";
  if (!j.is_object()) {
    rd.fail(path, std::string("expected an object, got ") + JsonReader::typeName(j));
    return;
  }
  std::string type;
  if (!j.contains("type")) {
    rd.fail(path, "missing field 'type' (\"box\", \"cylinder\" or \"sphere\")");
    return;
  }
  if (!rd.string(j["type"], "shape.type", type)) return;
  if (!parseShapeType(type, out.type)) {
    rd.fail("shape.type", "expected \"box\", \"cylinder\" or \"sphere\", got \"" + type + "\"");
    return;
  }
  auto need = [&](const char* field, const char* meaning) {
    if (j.contains(field)) return true;
    rd.fail(path, std::string("a ") + type + " needs '" + field + "' (" + meaning + ")");
    return false;
  };
  switch (out.type) {
    case ShapeSpec::Type::Box:
      rd.object(j, path, {"type", "size"});
      if (need("size", "edge lengths along body x, y, z, m") &&
          rd.vec3(j["size"], "shape.size", out.size))
        for (int k = 0; k < 3; ++k)
          if (out.size(k) <= 0)
            rd.fail(jsonIndex("shape.size", static_cast<std::size_t>(k)),
                    "must be > 0 (m), got " + describe(out.size(k)));
      break;
    case ShapeSpec::Type::Cylinder:
      rd.object(j, path, {"type", "radius", "length"});
      if (need("radius", "m")) positive(rd, j["radius"], "shape.radius", "m", out.radius);
      if (need("length", "along body z, m")) positive(rd, j["length"], "shape.length", "m", out.length);
      break;
    case ShapeSpec::Type::Sphere:
      rd.object(j, path, {"type", "radius"});
      if (need("radius", "m")) positive(rd, j["radius"], "shape.radius", "m", out.radius);
      break;
  }
}

void readFloor(JsonReader& rd, const json& j, FloorSpec& out) {
  const std::string path = "floor";
  if (!rd.object(j, path, {"origin", "normal", "restitution", "friction", "rolling_resistance"}))
    return;
  if (j.contains("origin")) rd.vec3(j["origin"], "floor.origin", out.origin);
  if (j.contains("normal") && rd.vec3(j["normal"], "floor.normal", out.normal) &&
      out.normal.norm() == 0)
    rd.fail("floor.normal", "must be nonzero");
  if (!j.contains("restitution"))
    rd.fail(path, "missing field 'restitution' (coefficient of restitution, 0..1)");
  else if (rd.number(j["restitution"], "floor.restitution", out.restitution) &&
           (out.restitution < 0 || out.restitution > 1))
    rd.fail("floor.restitution", "must be in [0, 1], got " + describe(out.restitution));
  if (!j.contains("friction"))
    rd.fail(path, "missing field 'friction' (Coulomb friction coefficient, >= 0)");
  else if (rd.number(j["friction"], "floor.friction", out.friction) && out.friction < 0)
    rd.fail("floor.friction", "must be >= 0, got " + describe(out.friction));
  if (j.contains("rolling_resistance") &&
      rd.number(j["rolling_resistance"], "floor.rolling_resistance", out.rollingResistance) &&
      out.rollingResistance < 0)
    rd.fail("floor.rolling_resistance", "must be >= 0 (m), got " + describe(out.rollingResistance));
}

}  // namespace

ojson rigidBodyToJson(const RigidBodySpec& s) {
  ojson doc;
  doc["format"] = kModelFormatName;
  doc["version"] = kModelFormatVersion;
  if (!s.name.empty()) doc["name"] = s.name;
  if (!s.description.empty()) doc["description"] = s.description;
  doc["kind"] = "rigid_body";
  if (s.gravity) doc["gravity"] = vecJson(*s.gravity);
  doc["shape"] = shapeJson(s.shape);
  if (s.mass) doc["mass"] = *s.mass;
  if (s.density) doc["density"] = *s.density;
  if (!s.referencePoint.isZero(0)) doc["reference_point"] = vecJson(s.referencePoint);
  ojson initial = ojson::object();
  if (!s.position.isZero(0)) initial["position"] = vecJson(s.position);
  if (!s.rotation.isIdentity(0)) initial["rotation"] = matJson(s.rotation);
  if (!s.velocity.isZero(0)) initial["velocity"] = vecJson(s.velocity);
  if (!s.angularVelocity.isZero(0)) initial["angular_velocity"] = vecJson(s.angularVelocity);
  if (!initial.empty()) doc["initial"] = initial;
  if (s.floor) {
    ojson floor = {{"origin", vecJson(s.floor->origin)},
                   {"normal", vecJson(s.floor->normal)},
                   {"restitution", s.floor->restitution},
                   {"friction", s.floor->friction}};
    if (s.floor->rollingResistance != 0) floor["rolling_resistance"] = s.floor->rollingResistance;
    doc["floor"] = floor;
  }
  if (s.appearance) doc["appearance"] = *s.appearance;
  if (!s.baseAppearance.empty()) doc["base_appearance"] = s.baseAppearance;
  return doc;
}

void rigidBodyFromJson(const json& doc, RigidBodySpec& out, Diagnostics& problems) {
  JsonReader rd(problems);
  const std::size_t before = problems.size();
  out = RigidBodySpec{};
  if (!rd.object(doc, "", {"format", "version", "name", "description", "kind", "gravity", "shape",
                           "mass", "density", "reference_point", "initial", "floor",
                           "appearance", "base_appearance"}))
    return;
  readHeader(rd, doc, out.name, out.description);
  std::string kind;
  if (!doc.contains("kind")) rd.fail("", "missing field 'kind' (\"rigid_body\")");
  else if (rd.string(doc["kind"], "kind", kind) && kind != "rigid_body")
    rd.fail("kind", "expected \"rigid_body\", got \"" + kind + "\"");
  Vec3 v;
  if (doc.contains("gravity") && rd.vec3(doc["gravity"], "gravity", v)) out.gravity = v;
  if (!doc.contains("shape")) rd.fail("", "missing field 'shape' ({\"type\": \"box\", ...})");
  else readShape(rd, doc["shape"], out.shape);
  // mass properties: the mass, or the density of the shape's volume
  double m = 0;
  if (doc.contains("mass") && doc.contains("density"))
    rd.fail("density", "give either 'mass' (kg) or 'density' (kg/m^3), not both");
  else if (!doc.contains("mass") && !doc.contains("density"))
    rd.fail("", "missing field 'mass' (kg) or 'density' (kg/m^3)");
  else if (doc.contains("mass")) {
    positive(rd, doc["mass"], "mass", "kg", m);
    out.mass = m;
  } else {
    positive(rd, doc["density"], "density", "kg/m^3", m);
    out.density = m;
  }
  if (doc.contains("reference_point")) rd.vec3(doc["reference_point"], "reference_point", out.referencePoint);
  if (doc.contains("initial") &&
      rd.object(doc["initial"], "initial", {"position", "rotation", "velocity", "angular_velocity"})) {
    const json& ji = doc["initial"];
    if (ji.contains("position")) rd.vec3(ji["position"], "initial.position", out.position);
    Mat3 R;
    if (ji.contains("rotation") && readRotation(rd, ji["rotation"], false, "initial.rotation", R))
      out.rotation = R;
    if (ji.contains("velocity")) rd.vec3(ji["velocity"], "initial.velocity", out.velocity);
    if (ji.contains("angular_velocity"))
      rd.vec3(ji["angular_velocity"], "initial.angular_velocity", out.angularVelocity);
  }
  if (doc.contains("floor")) {
    FloorSpec f;
    readFloor(rd, doc["floor"], f);
    out.floor = f;
  }
  if (doc.contains("appearance")) {
    out.appearance = doc["appearance"];
    interpretAppearance(*out.appearance, defaultBodyColour(1), false, "appearance", &problems);
  }
  if (doc.contains("base_appearance")) {
    out.baseAppearance = doc["base_appearance"];
    interpretAppearance(out.baseAppearance, defaultBodyColour(0), true, "base_appearance", &problems);
  }
  if (problems.size() != before) return;
  // everything read: the body's own checks
  try {
    RigidBody body(out);
  } catch (const ModelError& e) {
    problems.push_back({e.field(), e.reason()});
  }
}

void saveRigidBody(const std::string& path, const RigidBodySpec& spec) {
  writeFileAtomically(path, formatJson(rigidBodyToJson(spec)));
}

}  // namespace art
