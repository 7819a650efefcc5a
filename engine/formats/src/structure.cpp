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

void readBody(JsonReader& rd, const json& jb, const std::string& p, int dim, std::size_t index,
              Diagnostics& problems, BodySpec& b) {
  if (!rd.object(jb, p, {"name", "kind", "origin", "end", "angle", "orientation", "length",
                         "mass", "mass_centre", "inertia", "velocity", "angular_velocity",
                         "appearance"}))
    return;
  if (jb.contains("appearance")) {  // the tree bodies' parser, messages and limits
    b.appearance = jb["appearance"];
    interpretAppearance(*b.appearance, defaultBodyColour(static_cast<int>(index) + 1), false,
                        jsonField(p, "appearance"), &problems);
  }
  if (!jb.contains("name")) rd.fail(p, "missing field 'name'");
  else if (rd.string(jb["name"], jsonField(p, "name"), b.name) && b.name.empty())
    rd.fail(jsonField(p, "name"), "must not be empty");
  std::string kind;
  if (!jb.contains("kind")) {
    rd.fail(p, "missing field 'kind'");
    return;
  }
  if (!rd.string(jb["kind"], jsonField(p, "kind"), kind)) return;
  if (!parseBodyKind(kind, b.kind)) {
    rd.fail(jsonField(p, "kind"), "expected bar2d, bar2d_2p, rigid2d, rigid2d_2p, bar3d, bar3d_2p, "
                           "rigid3d or rigid3d_2p, got \"" + kind + "\"");
    return;
  }
  if (kindDimension(b.kind) != dim) {
    rd.fail(jsonField(p, "kind"), "a " + kind + " body in a " + std::to_string(dim) + "D structure");
    return;
  }
  const bool bar = kindIsBar(b.kind), twoPoints = kindHasTwoPoints(b.kind);
  const int k = kindAxes(b.kind);
  auto allowed = [&](const char* field, bool ok) {
    if (jb.contains(field) && !ok) rd.fail(jsonField(p, field), std::string("not used by ") + kind + " bodies");
  };
  allowed("end", bar);
  allowed("angle", !bar && dim == 2);
  allowed("orientation", !bar && dim == 3);
  allowed("length", !bar && twoPoints);
  if (!jb.contains("origin")) rd.fail(p, "missing field 'origin'");
  else rd.vector(jb["origin"], dim, jsonField(p, "origin"), b.origin);
  if (bar) {
    Eigen::Vector3d end = Eigen::Vector3d::Zero();
    if (!jb.contains("end")) rd.fail(p, "missing field 'end' (the bar's other end)");
    else if (rd.vector(jb["end"], dim, jsonField(p, "end"), end)) {
      const Eigen::Vector3d axis = end - b.origin;
      b.length = axis.norm();
      b.givenEnd = end;
      if (!(b.length > 0)) rd.fail(jsonField(p, "end"), "must differ from 'origin'");
      else if (dim == 2) {
        const Eigen::Vector3d a = axis / b.length;
        b.orientation << a.x(), -a.y(), 0, a.y(), a.x(), 0, 0, 0, 1;
      } else {
        b.orientation = triad(axis / b.length);
      }
    }
  } else if (dim == 2) {
    double angle = 0;
    if (jb.contains("angle") && rd.number(jb["angle"], jsonField(p, "angle"), angle)) b.givenAngle = angle;
    b.orientation << std::cos(angle), -std::sin(angle), 0, std::sin(angle), std::cos(angle), 0,
        0, 0, 1;
  } else if (jb.contains("orientation") &&
             rd.matrix3(jb["orientation"], jsonField(p, "orientation"), b.orientation)) {
    const Eigen::Matrix3d& R = b.orientation;
    if ((R.transpose() * R - Eigen::Matrix3d::Identity()).norm() > 1e-9 || R.determinant() < 0)
      rd.fail(jsonField(p, "orientation"), "must be a proper rotation (columns: the local axes)");
  }
  if (!bar && twoPoints) {
    b.length = 1.0;
    if (jb.contains("length")) rd.nonNegative(jb["length"], jsonField(p, "length"), b.length, true);
  }
  if (!jb.contains("mass")) rd.fail(p, "missing field 'mass'");
  else rd.nonNegative(jb["mass"], jsonField(p, "mass"), b.mass, true);
  b.massCentre.setZero();
  if (bar) b.massCentre(0) = 0.5 * b.length;
  if (jb.contains("mass_centre")) rd.vector(jb["mass_centre"], k, jsonField(p, "mass_centre"), b.massCentre);
  b.inertia.setZero();
  if (!jb.contains("inertia")) {
    rd.fail(p, "missing field 'inertia'");
  } else if (k == 3) {
    if (rd.matrix3(jb["inertia"], jsonField(p, "inertia"), b.inertia)) {
      const Eigen::Matrix3d& I = b.inertia;
      Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> es(0.5 * (I + I.transpose()));
      const Eigen::Vector3d e = es.eigenvalues();
      if ((I - I.transpose()).norm() > 1e-12 * (1 + I.norm()) || e(0) <= 0 || e(0) + e(1) < e(2))
        rd.fail(jsonField(p, "inertia"), "must be symmetric, positive definite and satisfy the "
                                  "triangle inequality of principal moments");
    }
  } else {
    rd.nonNegative(jb["inertia"], jsonField(p, "inertia"), b.inertia(0, 0), true);
  }
  b.velocity.setZero();
  b.angularVelocity.setZero();
  if (jb.contains("velocity")) rd.vector(jb["velocity"], dim, jsonField(p, "velocity"), b.velocity);
  if (jb.contains("angular_velocity")) {
    if (dim == 2) rd.number(jb["angular_velocity"], jsonField(p, "angular_velocity"), b.angularVelocity.z());
    else rd.vector(jb["angular_velocity"], 3, jsonField(p, "angular_velocity"), b.angularVelocity);
  }
}

// the section readers of one structure document, sharing its JsonReader and the spec they fill
class StructureReader {
 public:
  StructureReader(JsonReader& rd, Diagnostics& problems, StructureSpec& s)
      : m_rd(rd), m_problems(problems), m_s(s) {}

  // format, version, kind, name, description, dimension and gravity
  void readHeader(const json& doc) {
    JsonReader& rd = m_rd;
    StructureSpec& s = m_s;
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
  }

  // the bodies, then names for the joints and apparatuses
  void readBodies(const json& doc) {
    JsonReader& rd = m_rd;
    const int d = m_s.dimension;
    if (!doc.contains("bodies")) rd.fail("", "missing field 'bodies'");
    else if (!doc["bodies"].is_array()) rd.fail("bodies", "expected an array of bodies");
    else
      for (std::size_t i = 0; i < doc["bodies"].size(); ++i) {
        const std::string p = jsonIndex("bodies", i);
        BodySpec b;
        readBody(rd, doc["bodies"][i], p, d, i, m_problems, b);
        if (!b.name.empty() && (b.name == "ground" || !m_names.emplace(b.name, static_cast<int>(i)).second))
          rd.fail(jsonField(p, "name"), "'" + b.name + "' is " + (b.name == "ground" ? "reserved" : "used twice"));
        m_s.bodies.push_back(b);
      }
  }

  // the joints, each read by readJoint
  void readJoints(const json& doc) {
    std::set<std::string> jointNames;
    if (doc.contains("joints")) {
      if (!doc["joints"].is_array()) m_rd.fail("joints", "expected an array of joints");
      else
        for (std::size_t i = 0; i < doc["joints"].size(); ++i) readJoint(doc["joints"][i], i, jointNames);
    }
  }

  // the apparatuses, each read by readApparatus
  void readApparatuses(const json& doc) {
    if (doc.contains("apparatuses")) {
      if (!doc["apparatuses"].is_array()) m_rd.fail("apparatuses", "expected an array");
      else
        for (std::size_t i = 0; i < doc["apparatuses"].size(); ++i)
          readApparatus(doc["apparatuses"][i], i);
    }
  }

  // the simulation settings: integrator and time step
  void readSimulation(const json& doc) {
    JsonReader& rd = m_rd;
    StructureSpec& s = m_s;
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
  }

  // the drawing instructions fixed in the world (the tree bodies' parser)
  void readBaseAppearance(const json& doc) {
    if (doc.contains("base_appearance")) {
      m_s.baseAppearance = doc["base_appearance"];
      interpretAppearance(m_s.baseAppearance, defaultBodyColour(0), true, "base_appearance", &m_problems);
    }
  }

  // the structure's own checks (compiling it), reported where they belong
  void checkCompiles() {
    StructureSpec& s = m_s;
    try {
      Structure compiled(s);
    } catch (const std::invalid_argument& e) {
      const std::string msg = e.what();
      std::string path;
      auto find = [&](const char* prefix, const char* array, auto& items) {
        for (std::size_t i = 0; i < items.size(); ++i)
          if (msg.rfind(std::string(prefix) + " '" + items[i].name + "'", 0) == 0) path = jsonIndex(array, i);
      };
      find("body", "bodies", s.bodies);
      find("joint", "joints", s.joints);
      find("apparatus", "apparatuses", s.apparatuses);
      m_rd.fail(path, msg);
    }
  }

 private:
  // joint i (its name unique among jointNames), appended to the spec unless not an object
  void readJoint(const json& jj, std::size_t i, std::set<std::string>& jointNames) {
    JsonReader& rd = m_rd;
    const int d = m_s.dimension;
    const std::string p = jsonIndex("joints", i);
    JointSpec js;
    if (!rd.object(jj, p, {"name", "type", "hen", "egg", "point", "point2", "axis", "axis2"})) return;
    js.name = "joint" + std::to_string(i + 1);
    if (jj.contains("name")) rd.string(jj["name"], jsonField(p, "name"), js.name);
    if (!jointNames.insert(js.name).second) rd.fail(jsonField(p, "name"), "'" + js.name + "' is used twice");
    std::string type;
    if (!jj.contains("type")) rd.fail(p, "missing field 'type'");
    else if (rd.string(jj["type"], jsonField(p, "type"), type) && !parseJointType(type, js.type))
      rd.fail(jsonField(p, "type"), "expected spherical, revolute, prismatic, universal, cylindrical, "
                             "planar, fixed or distance, got \"" + type + "\"");
    if (!jj.contains("hen")) rd.fail(p, "missing field 'hen' (a body or \"ground\")");
    else body(jj["hen"], jsonField(p, "hen"), true, js.hen);
    if (!jj.contains("egg")) rd.fail(p, "missing field 'egg'");
    else body(jj["egg"], jsonField(p, "egg"), false, js.egg);
    js.point.setZero();
    if (!jj.contains("point")) rd.fail(p, "missing field 'point'");
    else rd.vector(jj["point"], d, jsonField(p, "point"), js.point);
    const bool distance = js.type == JointType::Distance;
    const bool axial = !distance && js.type != JointType::Spherical &&
                       !(d == 2 && (js.type == JointType::Revolute || js.type == JointType::Fixed));
    if (jj.contains("point2") && !distance) rd.fail(jsonField(p, "point2"), "only for distance joints");
    if (distance) {
      if (!jj.contains("point2")) rd.fail(p, "missing field 'point2' (the egg's point)");
      else rd.vector(jj["point2"], d, jsonField(p, "point2"), js.point2);
    }
    if (jj.contains("axis")) unitVector(jj["axis"], jsonField(p, "axis"), js.axis);
    else if (axial && d == 3) rd.fail(p, "missing field 'axis'");
    else js.axis = d == 2 ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitZ();
    if (js.type == JointType::Universal) {
      if (!jj.contains("axis2")) rd.fail(p, "missing field 'axis2' (the egg's axis)");
      else unitVector(jj["axis2"], jsonField(p, "axis2"), js.axis2);
    } else if (jj.contains("axis2")) {
      rd.fail(jsonField(p, "axis2"), "only for universal joints");
    }
    m_s.joints.push_back(js);
  }

  // apparatus i, appended to the spec unless not an object
  void readApparatus(const json& ja, std::size_t i) {
    JsonReader& rd = m_rd;
    const int d = m_s.dimension;
    const std::string p = jsonIndex("apparatuses", i);
    ApparatusSpec as;
    if (!rd.object(ja, p, {"name", "type", "a", "b", "point_a", "point_b", "stiffness",
                           "damping", "rest_length"}))
      return;
    as.name = "apparatus" + std::to_string(i + 1);
    if (ja.contains("name")) rd.string(ja["name"], jsonField(p, "name"), as.name);
    std::string type;
    if (!ja.contains("type")) rd.fail(p, "missing field 'type'");
    else if (rd.string(ja["type"], jsonField(p, "type"), type)) {
      if (type == "spring") as.type = ApparatusType::Spring;
      else if (type == "cable") as.type = ApparatusType::Cable;
      else rd.fail(jsonField(p, "type"), "expected spring or cable, got \"" + type + "\"");
    }
    if (!ja.contains("a")) rd.fail(p, "missing field 'a' (a body or \"ground\")");
    else body(ja["a"], jsonField(p, "a"), true, as.bodyA);
    if (!ja.contains("b")) rd.fail(p, "missing field 'b'");
    else body(ja["b"], jsonField(p, "b"), false, as.bodyB);
    as.pointA.setZero();
    as.pointB.setZero();
    if (!ja.contains("point_a")) rd.fail(p, "missing field 'point_a'");
    else rd.vector(ja["point_a"], d, jsonField(p, "point_a"), as.pointA);
    if (!ja.contains("point_b")) rd.fail(p, "missing field 'point_b'");
    else rd.vector(ja["point_b"], d, jsonField(p, "point_b"), as.pointB);
    if (ja.contains("stiffness")) rd.nonNegative(ja["stiffness"], jsonField(p, "stiffness"), as.stiffness, false);
    if (ja.contains("damping")) rd.nonNegative(ja["damping"], jsonField(p, "damping"), as.damping, false);
    if (ja.contains("rest_length")) {
      double l = 0;
      if (rd.nonNegative(ja["rest_length"], jsonField(p, "rest_length"), l, false)) as.restLength = l;
    }
    m_s.apparatuses.push_back(as);
  }

  // a body named at p (or "ground" where groundOk) into its index
  void body(const json& j, const std::string& p, bool groundOk, int& out) {
    std::string name;
    if (!m_rd.string(j, p, name)) return;
    if (groundOk && name == "ground") out = -1;
    else if (m_names.count(name)) out = m_names[name];
    else m_rd.fail(p, "no body named '" + name + "'" + (groundOk ? " (nor \"ground\")" : ""));
  }

  // a unit vector of the structure's dimension at p
  void unitVector(const json& j, const std::string& p, Eigen::Vector3d& out) {
    out.setZero();
    if (m_rd.vector(j, m_s.dimension, p, out) && std::abs(out.norm() - 1.0) > 1e-9)
      m_rd.fail(p, "must be a unit vector");
  }

  JsonReader& m_rd;
  Diagnostics& m_problems;
  StructureSpec& m_s;
  std::map<std::string, int> m_names;  // body indices by name
};

}  // namespace

bool isStructureDocument(const json& doc) {
  return doc.is_object() && doc.contains("format") && doc["format"] == kModelFormatName &&
         doc.contains("kind") && doc["kind"] == "structure";
}

StructureSpec structureFromJson(const json& doc, Diagnostics& problems) {
  JsonReader rd(problems, JsonReader::Messages::Terse);
  const std::size_t before = problems.size();
  StructureSpec s;
  if (!rd.object(doc, "", {"format", "version", "kind", "name", "description", "dimension",
                           "gravity", "bodies", "joints", "apparatuses", "simulation",
                           "base_appearance"}))
    return s;
  StructureReader reader(rd, problems, s);
  reader.readHeader(doc);
  reader.readBodies(doc);
  reader.readJoints(doc);
  reader.readApparatuses(doc);
  reader.readSimulation(doc);
  reader.readBaseAppearance(doc);
  if (problems.size() != before) return s;
  reader.checkCompiles();
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
      // (fixed-size heads: GCC 12's -O3 reads a dynamic head of a Vector3d as out of bounds)
      const Eigen::Vector3d off = b.givenEnd ? Eigen::Vector3d(*b.givenEnd - end) : Eigen::Vector3d::Zero();
      const bool given = b.givenEnd && (d == 2 ? off.head<2>().norm() : off.norm()) <= 1e-12 * (1.0 + end.norm());
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
  if (!problems.empty()) throw FormatError(path, problemList(problems));
  return s;
}

void saveStructure(const std::string& path, const StructureSpec& spec) {
  writeFileAtomically(path, formatJson(structureToJson(spec)));
}

}  // namespace art::natural
