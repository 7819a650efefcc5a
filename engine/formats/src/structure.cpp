// Structure documents (kind "structure" of the Articulate model format): reading with every
// problem reported at its JSON path, and the canonical writer.
#include "articulate/formats/structure.h"

#include <cmath>
#include <map>
#include <set>

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <Eigen/LU>

#include "articulate/model/appearance.h"
#include "articulate/formats/articulate.h"
#include "articulate/formats/files.h"

namespace art::natural {

namespace {

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

std::string at(const std::string& path, const std::string& field) {
  return path.empty() ? field : path + "." + field;
}
std::string idx(const std::string& path, std::size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

class Reader {
 public:
  explicit Reader(Diagnostics& d) : m_d(d) {}
  void fail(const std::string& path, const std::string& msg) { m_d.push_back({path, msg}); }

  bool number(const json& j, const std::string& path, double& out) {
    if (!j.is_number()) {
      fail(path, "expected a number");
      return false;
    }
    out = j.get<double>();
    if (!std::isfinite(out)) {
      fail(path, "must be finite");
      return false;
    }
    return true;
  }
  bool string(const json& j, const std::string& path, std::string& out) {
    if (!j.is_string()) {
      fail(path, "expected a string");
      return false;
    }
    out = j.get<std::string>();
    return true;
  }
  // n numbers into the head of out
  bool vector(const json& j, int n, const std::string& path, Eigen::Vector3d& out) {
    if (!j.is_array() || j.size() != static_cast<std::size_t>(n)) {
      fail(path, "expected " + std::to_string(n) + " numbers");
      return false;
    }
    bool ok = true;
    for (int i = 0; i < n; ++i) ok = number(j[static_cast<std::size_t>(i)], idx(path, static_cast<std::size_t>(i)), out(i)) && ok;
    return ok;
  }
  bool matrix3(const json& j, const std::string& path, Eigen::Matrix3d& out) {
    if (!j.is_array() || j.size() != 3) {
      fail(path, "expected a 3x3 matrix (3 rows)");
      return false;
    }
    bool ok = true;
    for (std::size_t i = 0; i < 3; ++i) {
      Eigen::Vector3d row;
      if (vector(j[i], 3, idx(path, i), row)) out.row(static_cast<Eigen::Index>(i)) = row.transpose();
      else ok = false;
    }
    return ok;
  }
  bool object(const json& j, const std::string& path, std::initializer_list<const char*> known) {
    if (!j.is_object()) {
      fail(path, "expected an object");
      return false;
    }
    for (auto it = j.begin(); it != j.end(); ++it) {
      bool found = false;
      for (const char* k : known) found = found || it.key() == k;
      if (!found) fail(at(path, it.key()), "unknown field");
    }
    return true;
  }
  bool nonNegative(const json& j, const std::string& path, double& out, bool strict) {
    if (!number(j, path, out)) return false;
    if (strict ? !(out > 0) : out < 0) {
      fail(path, strict ? "must be > 0" : "must be >= 0");
      return false;
    }
    return true;
  }

 private:
  Diagnostics& m_d;
};

// a rotation whose first column is the unit vector a (3D)
Eigen::Matrix3d triad(const Eigen::Vector3d& a) {
  Eigen::Matrix3d R;
  const Eigen::Vector3d b = a.unitOrthogonal();
  R << a, b, a.cross(b);
  return R;
}

ojson vec(const Eigen::Vector3d& v, int n) {
  ojson a = ojson::array();
  for (int i = 0; i < n; ++i) a.push_back(v(i) == 0.0 ? 0.0 : v(i));
  return a;
}

void readBody(Reader& rd, const json& jb, const std::string& p, int dim, std::size_t index,
              Diagnostics& problems, BodySpec& b) {
  if (!rd.object(jb, p, {"name", "kind", "origin", "end", "angle", "orientation", "length",
                         "mass", "mass_centre", "inertia", "velocity", "angular_velocity",
                         "appearance"}))
    return;
  if (jb.contains("appearance")) {  // the tree bodies' parser, messages and limits
    b.appearance = jb["appearance"];
    interpretAppearance(*b.appearance, defaultBodyColour(static_cast<int>(index) + 1), false,
                        at(p, "appearance"), &problems);
  }
  if (!jb.contains("name")) rd.fail(p, "missing field 'name'");
  else if (rd.string(jb["name"], at(p, "name"), b.name) && b.name.empty())
    rd.fail(at(p, "name"), "must not be empty");
  std::string kind;
  if (!jb.contains("kind")) {
    rd.fail(p, "missing field 'kind'");
    return;
  }
  if (!rd.string(jb["kind"], at(p, "kind"), kind)) return;
  if (!parseBodyKind(kind, b.kind)) {
    rd.fail(at(p, "kind"), "expected bar2d, bar2d_2p, rigid2d, rigid2d_2p, bar3d, bar3d_2p, "
                           "rigid3d or rigid3d_2p, got \"" + kind + "\"");
    return;
  }
  if (kindDimension(b.kind) != dim) {
    rd.fail(at(p, "kind"), "a " + kind + " body in a " + std::to_string(dim) + "D structure");
    return;
  }
  const bool bar = kindIsBar(b.kind), twoPoints = kindHasTwoPoints(b.kind);
  const int k = kindAxes(b.kind);
  auto allowed = [&](const char* field, bool ok) {
    if (jb.contains(field) && !ok) rd.fail(at(p, field), std::string("not used by ") + kind + " bodies");
  };
  allowed("end", bar);
  allowed("angle", !bar && dim == 2);
  allowed("orientation", !bar && dim == 3);
  allowed("length", !bar && twoPoints);
  if (!jb.contains("origin")) rd.fail(p, "missing field 'origin'");
  else rd.vector(jb["origin"], dim, at(p, "origin"), b.origin);
  if (bar) {
    Eigen::Vector3d end = Eigen::Vector3d::Zero();
    if (!jb.contains("end")) rd.fail(p, "missing field 'end' (the bar's other end)");
    else if (rd.vector(jb["end"], dim, at(p, "end"), end)) {
      const Eigen::Vector3d axis = end - b.origin;
      b.length = axis.norm();
      b.givenEnd = end;
      if (!(b.length > 0)) rd.fail(at(p, "end"), "must differ from 'origin'");
      else if (dim == 2) {
        const Eigen::Vector3d a = axis / b.length;
        b.orientation << a.x(), -a.y(), 0, a.y(), a.x(), 0, 0, 0, 1;
      } else {
        b.orientation = triad(axis / b.length);
      }
    }
  } else if (dim == 2) {
    double angle = 0;
    if (jb.contains("angle") && rd.number(jb["angle"], at(p, "angle"), angle)) b.givenAngle = angle;
    b.orientation << std::cos(angle), -std::sin(angle), 0, std::sin(angle), std::cos(angle), 0,
        0, 0, 1;
  } else if (jb.contains("orientation") &&
             rd.matrix3(jb["orientation"], at(p, "orientation"), b.orientation)) {
    const Eigen::Matrix3d& R = b.orientation;
    if ((R.transpose() * R - Eigen::Matrix3d::Identity()).norm() > 1e-9 || R.determinant() < 0)
      rd.fail(at(p, "orientation"), "must be a proper rotation (columns: the local axes)");
  }
  if (!bar && twoPoints) {
    b.length = 1.0;
    if (jb.contains("length")) rd.nonNegative(jb["length"], at(p, "length"), b.length, true);
  }
  if (!jb.contains("mass")) rd.fail(p, "missing field 'mass'");
  else rd.nonNegative(jb["mass"], at(p, "mass"), b.mass, true);
  b.massCentre.setZero();
  if (bar) b.massCentre(0) = 0.5 * b.length;
  if (jb.contains("mass_centre")) rd.vector(jb["mass_centre"], k, at(p, "mass_centre"), b.massCentre);
  b.inertia.setZero();
  if (!jb.contains("inertia")) {
    rd.fail(p, "missing field 'inertia'");
  } else if (k == 3) {
    if (rd.matrix3(jb["inertia"], at(p, "inertia"), b.inertia)) {
      const Eigen::Matrix3d& I = b.inertia;
      Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> es(0.5 * (I + I.transpose()));
      const Eigen::Vector3d e = es.eigenvalues();
      if ((I - I.transpose()).norm() > 1e-12 * (1 + I.norm()) || e(0) <= 0 || e(0) + e(1) < e(2))
        rd.fail(at(p, "inertia"), "must be symmetric, positive definite and satisfy the "
                                  "triangle inequality of principal moments");
    }
  } else {
    rd.nonNegative(jb["inertia"], at(p, "inertia"), b.inertia(0, 0), true);
  }
  b.velocity.setZero();
  b.angularVelocity.setZero();
  if (jb.contains("velocity")) rd.vector(jb["velocity"], dim, at(p, "velocity"), b.velocity);
  if (jb.contains("angular_velocity")) {
    if (dim == 2) rd.number(jb["angular_velocity"], at(p, "angular_velocity"), b.angularVelocity.z());
    else rd.vector(jb["angular_velocity"], 3, at(p, "angular_velocity"), b.angularVelocity);
  }
}

}  // namespace

bool isStructureDocument(const json& doc) {
  return doc.is_object() && doc.contains("format") && doc["format"] == kModelFormatName &&
         doc.contains("kind") && doc["kind"] == "structure";
}

StructureSpec structureFromJson(const json& doc, Diagnostics& problems) {
  Reader rd(problems);
  const std::size_t before = problems.size();
  StructureSpec s;
  if (!rd.object(doc, "", {"format", "version", "kind", "name", "description", "dimension",
                           "gravity", "bodies", "joints", "apparatuses", "simulation",
                           "base_appearance"}))
    return s;
  if (!doc.contains("format") || doc["format"] != kModelFormatName)
    rd.fail("format", "expected \"articulate-model\"");
  if (!doc.contains("version") || doc["version"] != kModelFormatVersion)
    rd.fail("version", "expected " + std::to_string(kModelFormatVersion));
  if (!doc.contains("kind") || doc["kind"] != "structure") rd.fail("kind", "expected \"structure\"");
  if (doc.contains("name")) rd.string(doc["name"], "name", s.name);
  if (doc.contains("description")) rd.string(doc["description"], "description", s.description);
  double dim = 3;
  if (doc.contains("dimension") && rd.number(doc["dimension"], "dimension", dim) && dim != 2 && dim != 3)
    rd.fail("dimension", "expected 2 or 3");
  s.dimension = dim == 2 ? 2 : 3;
  const int d = s.dimension;
  if (doc.contains("gravity")) rd.vector(doc["gravity"], d, "gravity", s.gravity);

  // bodies, then names for the joints and apparatuses
  std::map<std::string, int> names;
  if (!doc.contains("bodies")) rd.fail("", "missing field 'bodies'");
  else if (!doc["bodies"].is_array()) rd.fail("bodies", "expected an array of bodies");
  else
    for (std::size_t i = 0; i < doc["bodies"].size(); ++i) {
      const std::string p = idx("bodies", i);
      BodySpec b;
      readBody(rd, doc["bodies"][i], p, d, i, problems, b);
      if (!b.name.empty() && (b.name == "ground" || !names.emplace(b.name, static_cast<int>(i)).second))
        rd.fail(at(p, "name"), "'" + b.name + "' is " + (b.name == "ground" ? "reserved" : "used twice"));
      s.bodies.push_back(b);
    }
  auto body = [&](const json& j, const std::string& p, bool groundOk, int& out) {
    std::string name;
    if (!rd.string(j, p, name)) return;
    if (groundOk && name == "ground") out = -1;
    else if (names.count(name)) out = names[name];
    else rd.fail(p, "no body named '" + name + "'" + (groundOk ? " (nor \"ground\")" : ""));
  };
  auto unitVector = [&](const json& j, const std::string& p, Eigen::Vector3d& out) {
    out.setZero();
    if (rd.vector(j, d, p, out) && std::abs(out.norm() - 1.0) > 1e-9) rd.fail(p, "must be a unit vector");
  };

  std::set<std::string> jointNames;
  if (doc.contains("joints")) {
    if (!doc["joints"].is_array()) rd.fail("joints", "expected an array of joints");
    else
      for (std::size_t i = 0; i < doc["joints"].size(); ++i) {
        const json& jj = doc["joints"][i];
        const std::string p = idx("joints", i);
        JointSpec js;
        if (!rd.object(jj, p, {"name", "type", "hen", "egg", "point", "point2", "axis", "axis2"})) continue;
        js.name = "joint" + std::to_string(i + 1);
        if (jj.contains("name")) rd.string(jj["name"], at(p, "name"), js.name);
        if (!jointNames.insert(js.name).second) rd.fail(at(p, "name"), "'" + js.name + "' is used twice");
        std::string type;
        if (!jj.contains("type")) rd.fail(p, "missing field 'type'");
        else if (rd.string(jj["type"], at(p, "type"), type) && !parseJointType(type, js.type))
          rd.fail(at(p, "type"), "expected spherical, revolute, prismatic, universal, cylindrical, "
                                 "planar, fixed or distance, got \"" + type + "\"");
        if (!jj.contains("hen")) rd.fail(p, "missing field 'hen' (a body or \"ground\")");
        else body(jj["hen"], at(p, "hen"), true, js.hen);
        if (!jj.contains("egg")) rd.fail(p, "missing field 'egg'");
        else body(jj["egg"], at(p, "egg"), false, js.egg);
        js.point.setZero();
        if (!jj.contains("point")) rd.fail(p, "missing field 'point'");
        else rd.vector(jj["point"], d, at(p, "point"), js.point);
        const bool distance = js.type == JointType::Distance;
        const bool axial = !distance && js.type != JointType::Spherical &&
                           !(d == 2 && (js.type == JointType::Revolute || js.type == JointType::Fixed));
        if (jj.contains("point2") && !distance) rd.fail(at(p, "point2"), "only for distance joints");
        if (distance) {
          if (!jj.contains("point2")) rd.fail(p, "missing field 'point2' (the egg's point)");
          else rd.vector(jj["point2"], d, at(p, "point2"), js.point2);
        }
        if (jj.contains("axis")) unitVector(jj["axis"], at(p, "axis"), js.axis);
        else if (axial && d == 3) rd.fail(p, "missing field 'axis'");
        else js.axis = d == 2 ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitZ();
        if (js.type == JointType::Universal) {
          if (!jj.contains("axis2")) rd.fail(p, "missing field 'axis2' (the egg's axis)");
          else unitVector(jj["axis2"], at(p, "axis2"), js.axis2);
        } else if (jj.contains("axis2")) {
          rd.fail(at(p, "axis2"), "only for universal joints");
        }
        s.joints.push_back(js);
      }
  }
  if (doc.contains("apparatuses")) {
    if (!doc["apparatuses"].is_array()) rd.fail("apparatuses", "expected an array");
    else
      for (std::size_t i = 0; i < doc["apparatuses"].size(); ++i) {
        const json& ja = doc["apparatuses"][i];
        const std::string p = idx("apparatuses", i);
        ApparatusSpec as;
        if (!rd.object(ja, p, {"name", "type", "a", "b", "point_a", "point_b", "stiffness",
                               "damping", "rest_length"}))
          continue;
        as.name = "apparatus" + std::to_string(i + 1);
        if (ja.contains("name")) rd.string(ja["name"], at(p, "name"), as.name);
        std::string type;
        if (!ja.contains("type")) rd.fail(p, "missing field 'type'");
        else if (rd.string(ja["type"], at(p, "type"), type)) {
          if (type == "spring") as.type = ApparatusType::Spring;
          else if (type == "cable") as.type = ApparatusType::Cable;
          else rd.fail(at(p, "type"), "expected spring or cable, got \"" + type + "\"");
        }
        if (!ja.contains("a")) rd.fail(p, "missing field 'a' (a body or \"ground\")");
        else body(ja["a"], at(p, "a"), true, as.bodyA);
        if (!ja.contains("b")) rd.fail(p, "missing field 'b'");
        else body(ja["b"], at(p, "b"), false, as.bodyB);
        as.pointA.setZero();
        as.pointB.setZero();
        if (!ja.contains("point_a")) rd.fail(p, "missing field 'point_a'");
        else rd.vector(ja["point_a"], d, at(p, "point_a"), as.pointA);
        if (!ja.contains("point_b")) rd.fail(p, "missing field 'point_b'");
        else rd.vector(ja["point_b"], d, at(p, "point_b"), as.pointB);
        if (ja.contains("stiffness")) rd.nonNegative(ja["stiffness"], at(p, "stiffness"), as.stiffness, false);
        if (ja.contains("damping")) rd.nonNegative(ja["damping"], at(p, "damping"), as.damping, false);
        if (ja.contains("rest_length")) {
          double l = 0;
          if (rd.nonNegative(ja["rest_length"], at(p, "rest_length"), l, false)) as.restLength = l;
        }
        s.apparatuses.push_back(as);
      }
  }
  if (doc.contains("simulation")) {
    const json& js = doc["simulation"];
    if (rd.object(js, "simulation", {"integrator", "dt"})) {
      std::string name;
      if (js.contains("integrator") && rd.string(js["integrator"], "simulation.integrator", name) &&
          !parseIntegrator(name, s.simulation.integrator))
        rd.fail("simulation.integrator", "expected zhong06 or rk4, got \"" + name + "\"");
      if (js.contains("dt")) rd.nonNegative(js["dt"], "simulation.dt", s.simulation.dt, true);
    }
  }
  if (doc.contains("base_appearance")) {
    s.baseAppearance = doc["base_appearance"];
    interpretAppearance(s.baseAppearance, defaultBodyColour(0), true, "base_appearance", &problems);
  }
  if (problems.size() != before) return s;
  // the structure's own checks, reported where they belong
  try {
    Structure compiled(s);
  } catch (const std::invalid_argument& e) {
    const std::string msg = e.what();
    std::string path;
    auto find = [&](const char* prefix, const char* array, auto& items) {
      for (std::size_t i = 0; i < items.size(); ++i)
        if (msg.rfind(std::string(prefix) + " '" + items[i].name + "'", 0) == 0) path = idx(array, i);
    };
    find("body", "bodies", s.bodies);
    find("joint", "joints", s.joints);
    find("apparatus", "apparatuses", s.apparatuses);
    rd.fail(path, msg);
  }
  return s;
}

ojson structureToJson(const StructureSpec& s) {
  const int d = s.dimension;
  ojson doc;
  doc["format"] = kModelFormatName;
  doc["version"] = kModelFormatVersion;
  doc["kind"] = "structure";
  doc["name"] = s.name;
  doc["description"] = s.description;
  doc["dimension"] = d;
  doc["gravity"] = vec(s.gravity, d);
  auto name = [&](int b) {
    return b < 0 ? std::string("ground") : s.bodies[static_cast<std::size_t>(b)].name;
  };
  doc["bodies"] = ojson::array();
  for (const BodySpec& b : s.bodies) {
    ojson jb;
    const bool bar = kindIsBar(b.kind), twoPoints = kindHasTwoPoints(b.kind);
    const int k = kindAxes(b.kind);
    jb["name"] = b.name;
    jb["kind"] = bodyKindName(b.kind);
    jb["origin"] = vec(b.origin, d);
    if (bar) {
      const Eigen::Vector3d end = b.origin + b.length * b.orientation.col(0);
      const bool given = b.givenEnd && (*b.givenEnd - end).head(d).norm() <= 1e-12 * (1.0 + end.norm());
      jb["end"] = vec(given ? *b.givenEnd : end, d);
    } else if (d == 2) {
      const double angle = std::atan2(b.orientation(1, 0), b.orientation(0, 0));
      const bool given = b.givenAngle && std::abs(std::cos(*b.givenAngle) - b.orientation(0, 0)) <= 1e-15 &&
                         std::abs(std::sin(*b.givenAngle) - b.orientation(1, 0)) <= 1e-15;
      jb["angle"] = given ? *b.givenAngle : angle;
    } else {
      ojson rows = ojson::array();
      for (int i = 0; i < 3; ++i) rows.push_back(vec(b.orientation.row(i).transpose(), 3));
      jb["orientation"] = rows;
    }
    if (!bar && twoPoints) jb["length"] = b.length;
    jb["mass"] = b.mass;
    jb["mass_centre"] = vec(b.massCentre, k);
    if (k == 3) {
      ojson rows = ojson::array();
      for (int i = 0; i < 3; ++i) rows.push_back(vec(b.inertia.row(i).transpose(), 3));
      jb["inertia"] = rows;
    } else {
      jb["inertia"] = b.inertia(0, 0);
    }
    if (!b.velocity.isZero(0)) jb["velocity"] = vec(b.velocity, d);
    if (!b.angularVelocity.isZero(0)) {
      if (d == 2) jb["angular_velocity"] = b.angularVelocity.z();
      else jb["angular_velocity"] = vec(b.angularVelocity, 3);
    }
    if (b.appearance) jb["appearance"] = *b.appearance;
    doc["bodies"].push_back(jb);
  }
  doc["joints"] = ojson::array();
  for (const JointSpec& j : s.joints) {
    ojson jj;
    jj["name"] = j.name;
    jj["type"] = jointTypeName(j.type);
    jj["hen"] = name(j.hen);
    jj["egg"] = name(j.egg);
    jj["point"] = vec(j.point, d);
    if (j.type == JointType::Distance) jj["point2"] = vec(j.point2, d);
    else if (j.type != JointType::Spherical) jj["axis"] = vec(j.axis, d);
    if (j.type == JointType::Universal) jj["axis2"] = vec(j.axis2, d);
    doc["joints"].push_back(jj);
  }
  doc["apparatuses"] = ojson::array();
  for (const ApparatusSpec& a : s.apparatuses) {
    ojson ja;
    ja["name"] = a.name;
    ja["type"] = a.type == ApparatusType::Cable ? "cable" : "spring";
    ja["a"] = name(a.bodyA);
    ja["b"] = name(a.bodyB);
    ja["point_a"] = vec(a.pointA, d);
    ja["point_b"] = vec(a.pointB, d);
    ja["stiffness"] = a.stiffness;
    ja["damping"] = a.damping;
    if (a.restLength) ja["rest_length"] = *a.restLength;
    doc["apparatuses"].push_back(ja);
  }
  ojson sim;
  sim["integrator"] = integratorName(s.simulation.integrator);
  sim["dt"] = s.simulation.dt;
  doc["simulation"] = sim;
  if (!s.baseAppearance.empty()) doc["base_appearance"] = s.baseAppearance;
  return doc;
}

StructureSpec loadStructure(const std::string& path) {
  const json doc = readJsonFile(path);
  Diagnostics problems;
  StructureSpec s;
  if (!isStructureDocument(doc)) problems.push_back({"kind", "not a structure document (expected "
                                                             "\"kind\": \"structure\")"});
  else s = structureFromJson(doc, problems);
  if (!problems.empty()) {
    std::string text;
    for (std::size_t k = 0; k < problems.size(); ++k) text += (k ? "\n" : "") + problems[k].text();
    throw FormatError(path, std::to_string(problems.size()) + " problem" +
                                (problems.size() > 1 ? "s" : "") + ":\n" + text);
  }
  return s;
}

}  // namespace art::natural
