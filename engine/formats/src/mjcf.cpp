// MJCF import with tinyxml2, following MuJoCo's documented semantics; see articulate/mjcf.h and
// docs/model-format.md, section MJCF.
#include "articulate/formats/mjcf.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <tinyxml2.h>

#include "articulate/dynamics/actuation.h"
#include "articulate/formats/files.h"
#include "articulate/formats/json.h"
#include "articulate/formats/mesh.h"
#include "convex_hull.h"
#include "mesh_inertia.h"
#include "principal_inertia.h"
#include "mjcf_actuation.h"
#include "articulate/model/model.h"
#include "robot_import.h"

namespace art {

namespace {

using nlohmann::json;
using robot::Mass;
using robot::num;
using robot::vec;
using robot::vecText;
using tinyxml2::XMLDocument;
using tinyxml2::XMLElement;

constexpr double kPi = 3.14159265358979323846;
constexpr int kMaxIncludeDepth = 16;
constexpr double kMaxJointRef = 1e6;  // |ref| of a hinge (rad) or slide (m) joint

// an MJCF document's includes, each inclusion counted (a file included twice counts twice, as
// it is expanded twice): at most this many, and this much text in all (an 80 KB "diamond" of
// 15 files, each including the next twice, expanded to 3.3 GB)
constexpr int kMaxIncludes = 1000;
constexpr std::size_t kMaxIncludedBytes = std::size_t{64} << 20;

// an element's attributes after its defaults class: name -> text
using Attrs = std::map<std::string, std::string>;

// a <default> class: per element type (joint, geom, ...) the attributes it sets, its parents'
// included
struct DefaultClass {
  std::map<std::string, Attrs> elements;
  // its actuator elements (motor, position, ...) in order, its parents' first: MuJoCo applies
  // them all, in turn, to the one default actuator (mjcf_actuation.cpp)
  std::vector<std::pair<std::string, Attrs>> actuators;
};

// where a body's coordinates go (robot_import.h)
using Frame = robot::Frame;

struct MeshAsset {
  std::string file;  // absolute, "" when not found or not readable (noted)
  std::shared_ptr<const MeshData> data;  // a mesh given in the XML (vertex, face): built here
  bool inXml = false;                    // given in the XML (data null: its hull was flat)
  Vec3 scale = Vec3::Ones();
  MeshInertia inertia = MeshInertia::Legacy;  // <mesh inertia>, MuJoCo 3.3.8's default
  /// the mesh (file or XML), null when it was not found or not usable (noted)
  std::shared_ptr<const MeshData> mesh() const { return data ? data : file.empty() ? nullptr : loadMesh(file); }
};

// the attributes each element reads, or knowingly ignores because they do not change the
// mechanism (contact softness, names, viewer groups); any other is noted as skipped
const std::map<std::string, std::set<std::string>>& knownAttributes() {
  static const std::map<std::string, std::set<std::string>> known = {
      {"mujoco", {"model"}},
      {"lengthrange", {"mode", "useexisting", "uselimit", "accel", "maxforce", "timeconst", "timestep", "inttotal",
                       "interval", "tolrange"}},
      {"compiler", {"angle", "eulerseq", "meshdir", "assetdir", "texturedir", "inertiafromgeom", "inertiagrouprange",
                    "autolimits", "coordinate", "discardvisual", "convexhull", "strippath", "fusestatic",
                    "usethread", "boundmass", "boundinertia", "balanceinertia", "settotalmass", "exactmeshinertia",
                    "fitaabb", "lengthrange"}},
      {"option", {"timestep", "gravity", "integrator", "impratio", "tolerance", "ls_tolerance", "noslip_tolerance",
                  "mpr_tolerance", "iterations", "ls_iterations", "noslip_iterations", "mpr_iterations", "cone",
                  "jacobian", "solver", "collision", "o_margin", "o_solref", "o_solimp", "apirate", "wind",
                  "magnetic", "density", "viscosity"}},
      {"flag", {"gravity", "constraint", "equality", "frictionloss", "limit", "contact", "passive", "actuation",
                "clampctrl", "warmstart", "filterparent", "refsafe", "sensornoise", "override", "energy",
                "fwdinv", "multiccd", "island", "midphase", "eulerdamp", "nativeccd", "invdiscrete", "autoreset"}},
      {"body", {"name", "childclass", "pos", "quat", "axisangle", "euler", "xyaxes", "zaxis", "mocap", "user"}},
      {"frame", {"name", "childclass", "pos", "quat", "axisangle", "euler", "xyaxes", "zaxis"}},
      {"inertial", {"pos", "quat", "axisangle", "euler", "xyaxes", "zaxis", "mass", "diaginertia", "fullinertia"}},
      {"joint", {"name", "class", "type", "pos", "axis", "range", "limited", "ref", "damping", "frictionloss",
                 "armature", "stiffness", "springref", "margin", "solreflimit", "solimplimit", "solreffriction",
                 "solimpfriction", "user", "group", "springdamper"}},
      {"freejoint", {"name", "group"}},
      {"geom", {"name", "class", "type", "size", "fromto", "pos", "quat", "axisangle", "euler", "xyaxes", "zaxis",
                "mass", "density", "rgba", "material", "mesh", "group", "contype", "conaffinity", "friction",
                "condim", "solref", "solimp", "solmix", "margin", "gap", "priority", "user", "hfield"}},
      {"mesh", {"name", "class", "file", "scale", "content_type", "vertex", "face", "inertia"}},
      {"pair", {"name", "class", "geom1", "geom2", "condim", "friction", "solref", "solimp", "margin", "gap"}},
      {"exclude", {"name", "body1", "body2"}},
      {"material", {"name", "class", "rgba", "texture", "texrepeat", "texuniform", "emission", "specular",
                    "shininess", "reflectance", "metallic", "roughness"}},
      {"site", {"name", "class", "type", "size", "fromto", "pos", "quat", "axisangle", "euler", "xyaxes", "zaxis",
                "rgba", "material", "group", "user"}},
  };
  return known;
}

// what an equality needs from its element once the tree is complete (resolveEqualities)
struct PendingEquality {
  const XMLElement* e = nullptr;
  Frame f1, f2;                 // body1's and body2's MJCF frames
  Vec3 anchor = Vec3::Zero();   // connect: on body1; weld: on body2 (MJCF body coordinates)
  bool relpose = false;         // weld: relpose given
  Vec3 relPos = Vec3::Zero();
  Eigen::Vector4d relQuat = Eigen::Vector4d(1, 0, 0, 0);
};

struct Geom;

// a named geom with contype and conaffinity 0: it collides only where a <pair> names it, so its
// collision geometry (a mesh's hull) is built when a pair does
struct PairOnlyGeom {
  const XMLElement* e = nullptr;
  Attrs a;
  std::shared_ptr<const Geom> g;
  int owner = -1;
  Mat3 R = Mat3::Identity();
  Vec3 p = Vec3::Zero();
};

struct State {
  std::string source;  // the main file: messages, and the folder includes and assets start in
  std::string folder;
  std::vector<std::unique_ptr<XMLDocument>> documents;
  std::map<const XMLDocument*, std::string> fileOf;          // each parsed document's file
  std::map<const XMLElement*, const XMLElement*> included;   // <include> -> the included <mujoco>
  int includes = 0;                                          // inclusions so far (kMaxIncludes)
  std::size_t includedBytes = 0;                             // their text (kMaxIncludedBytes)
  // compiler
  bool degrees = true;
  std::string eulerseq = "xyz";
  std::string meshdir;
  enum class FromGeom { False, True, Auto } inertiaFromGeom = FromGeom::Auto;
  int groupLo = 0, groupHi = 5;
  bool autolimits = true;
  // MuJoCo 2.2.2's default: a mesh geom weighs its equivalent inertia box (below)
  bool exactMeshInertia = false;
  // defaults, assets
  std::map<std::string, DefaultClass> classes;
  std::map<std::string, MeshAsset> meshes;
  std::map<std::string, Eigen::Vector4d> materials;
  // the model
  ModelSpec spec;
  std::vector<std::vector<Mass>> masses;  // per body: its parts' mass properties
  std::vector<std::string> jointNames;    // per body
  std::map<std::string, int> bodyOfJoint;  // MJCF joint name -> body (hinge and slide)
  std::map<std::string, int> anyJoint;     // MJCF joint name -> body (every joint type)
  std::map<std::string, int> siteIndex;    // MJCF site name -> spec.sites index
  std::map<std::string, int> tendonIndex;  // MJCF tendon name -> spec.tendons index
  std::map<std::string, Frame> bodyFrames;  // MJCF body name -> where its coordinates go
  // equalities whose pose-dependent data waits for the whole tree (resolveEqualities)
  std::vector<std::pair<std::size_t, PendingEquality>> pendingEqualities;
  std::map<std::string, mjcf::NamedGeom> geomsByName;  // for tendons' wrapping
  bool lengthRangeUseLimit = false;        // <compiler><lengthrange uselimit>
  std::vector<std::pair<int, const XMLElement*>> lengthRanges;  // muscles whose range is found
  int computedRanges = 0;
  std::set<std::string> names;             // body names given so far
  std::vector<std::string> renamed;        // "'a' (file:line) is 'a_2'": a body name used twice
  // body-body contact: every geom that collides (contype or conaffinity), by name; what keeps
  // the reader on ground-contact points instead (a geom type or pair not computed)
  std::vector<GeomSpec> geoms;
  std::map<std::string, int> geomIndex;
  std::map<std::string, PairOnlyGeom> pairOnly;  // by name: geoms that collide only in a <pair>
  std::string notColliding;       // why the geoms are not used, "" when they are
  std::vector<std::pair<int, int>> chainEnds;  // a several-joint body's parent and its last body
  bool bodyContact = false;
  bool ground = false;                     // the world has a horizontal plane at z = 0
  int groundContype = 1, groundConaffinity = 1;
  bool floating = false;
  // for the notes
  std::map<std::string, std::set<std::string>> skipped;  // element -> attributes skipped
  std::map<std::string, int> notModelled;                // element -> count (actuators, ...)
  std::vector<std::string> meshNotes;        // meshes and colours not used as written, by element
  mjcf::Clamps clamps;                       // solref and solimp values MuJoCo clamps or replaces
  int welded = 0, ballRanges = 0, ballFriction = 0, planes = 0, meshInertia = 0;
  int contactShapes[6] = {0, 0, 0, 0, 0, 0};  // spheres, capsules, boxes, cylinders, ellipsoids, meshes
  double staticMass = 0;                      // kg on bodies welded to the world

  // "FILE:LINE: <tag name='x'>" for messages
  std::string where(const XMLElement* e) const {
    std::string out;
    const auto file = fileOf.find(e->GetDocument());
    out += file != fileOf.end() ? std::filesystem::path(file->second).filename().string() : source;
    out += ":" + std::to_string(e->GetLineNum()) + ": <" + e->Name();
    if (const char* n = e->Attribute("name")) out += " name='" + robot::printable(n) + "'";
    return out + ">";
  }
  FormatError fail(const XMLElement* e, const std::string& reason) const {
    return FormatError(source, where(e) + ": " + reason);
  }
};

bool iequalsExt(const std::string& path, const char* ext) {
  std::string e = std::filesystem::path(path).extension().string();
  std::transform(e.begin(), e.end(), e.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return e == ext;
}

// ---- XML: files, includes, the elements under one (includes expanded) ----

const XMLElement* parseFile(State& s, const std::string& path, const XMLElement* from) {
  std::string text;
  try {
    text = readTextFile(path);
  } catch (const FormatError& e) {
    if (!from) throw;
    throw s.fail(from, std::string("cannot include '") + from->Attribute("file") + "': " + e.what());
  }
  if (from && (s.includedBytes += text.size()) > kMaxIncludedBytes)
    throw s.fail(from, "includes more than " + std::to_string(kMaxIncludedBytes >> 20) +
                           " MiB of files in all (each inclusion counted), the most an MJCF model may include");
  if (!robot::validUtf8(text)) {
    const std::string why = "is not UTF-8 text without control characters (names and files become the model's, which every format writes as UTF-8)";
    if (from) throw s.fail(from, "included file '" + path + "' " + why);
    throw FormatError(s.source, why);
  }
  auto doc = std::make_unique<XMLDocument>();
  if (doc->Parse(text.c_str(), text.size()) != tinyxml2::XML_SUCCESS) {
    const std::string why = std::string(doc->ErrorStr() ? doc->ErrorStr() : "not well-formed XML");
    if (from) throw s.fail(from, "included file '" + path + "' is not well-formed XML: " + why);
    throw FormatError(s.source, "not well-formed XML: " + why);
  }
  const XMLElement* root = doc->RootElement();
  if (!root || std::string(root->Name()) != "mujoco") {
    const std::string got = root ? std::string("<") + root->Name() + ">" : std::string("no element");
    if (from) throw s.fail(from, "included file '" + path + "' holds " + got + ", not <mujoco>");
    throw FormatError(s.source, "an MJCF document's root element is <mujoco>, got " + got);
  }
  s.fileOf[doc.get()] = path;
  s.documents.push_back(std::move(doc));
  return root;
}

// finds every <include> under e (recursively, into the included files), parsing each file;
// `chain` is the files being included, to refuse a cycle
void resolveIncludes(State& s, const XMLElement* e, std::vector<std::string>& chain) {
  for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
    if (std::string(c->Name()) != "include") {
      resolveIncludes(s, c, chain);
      continue;
    }
    const char* file = c->Attribute("file");
    if (!file || !*file) throw s.fail(c, "an include needs a file attribute");
    std::filesystem::path path(file);
    if (path.is_relative()) path = std::filesystem::path(s.folder) / path;  // MuJoCo: the main file's folder
    const std::string name = path.lexically_normal().string();
    if (std::find(chain.begin(), chain.end(), name) != chain.end())
      throw s.fail(c, "includes '" + std::string(file) + "', which is already being included (a cycle)");
    if (static_cast<int>(chain.size()) >= kMaxIncludeDepth)
      throw s.fail(c, "includes are nested deeper than " + std::to_string(kMaxIncludeDepth) + " files");
    if (++s.includes > kMaxIncludes)
      throw s.fail(c, "includes more than " + std::to_string(kMaxIncludes) +
                          " files in all (each inclusion counted), the most an MJCF model may include");
    std::error_code ec;
    if (!std::filesystem::is_regular_file(name, ec))  // not a device or a folder: /dev/zero would read 256 MiB
      throw s.fail(c, "cannot include '" + std::string(file) + "': " + name + " is not a file");
    const XMLElement* root = parseFile(s, name, c);
    s.included[c] = root;
    chain.push_back(name);
    resolveIncludes(s, root, chain);
    chain.pop_back();
  }
}

// calls f on each child element of e, the children of included files in place of <include>
void forEachChild(const State& s, const XMLElement* e, const std::function<void(const XMLElement*)>& f) {
  for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
    if (const auto inc = s.included.find(c); inc != s.included.end())
      forEachChild(s, inc->second, f);
    else
      f(c);
  }
}

// ---- attributes and numbers ----

std::vector<double> numbers(const State& s, const XMLElement* e, const std::string& attr, const std::string& text,
                            std::size_t least, std::size_t most) {
  std::vector<double> out;
  const char* p = text.data();
  const char* end = p + text.size();
  while (true) {
    while (p < end && std::isspace(static_cast<unsigned char>(*p))) ++p;
    if (p == end) break;
    double v = 0;
    const auto r = std::from_chars(p, end, v);
    if (r.ec != std::errc() || !std::isfinite(v))
      throw s.fail(e, attr + " must be numbers, got '" + messageValue(text) + "'");
    out.push_back(v);
    p = r.ptr;
  }
  if (out.size() < least || out.size() > most)
    throw s.fail(e, attr + " needs " + (least == most ? std::to_string(least) : std::to_string(least) + " to " + std::to_string(most)) +
                        " number(s), got " + std::to_string(out.size()) + " ('" + messageValue(text) + "')");
  return out;
}

// an rgba attribute: MuJoCo takes any numbers and OpenGL draws them within [0, 1], so the
// drawing clamps them there (a drawing colour past 1 is refused by the Articulate format), noted
Eigen::Vector4d rgbaOf(State& s, const XMLElement* e, const std::string& text) {
  const std::vector<double> v = numbers(s, e, "rgba", text, 4, 4);
  const Eigen::Vector4d rgba(v[0], v[1], v[2], v[3]);
  if ((rgba.array() < 0).any() || (rgba.array() > 1).any())
    s.meshNotes.push_back(s.where(e) + ": rgba '" + messageValue(text) + "' is outside [0, 1]: drawn clamped to it");
  return rgba.cwiseMax(0.0).cwiseMin(1.0);
}

// the element's attributes over its class's defaults; notes attributes Articulate skips
Attrs attributes(State& s, const XMLElement* e, const std::string& cls) {
  const std::string tag = e->Name();
  Attrs out;
  const std::string use = e->Attribute("class") ? e->Attribute("class") : cls;
  const auto c = s.classes.find(use);
  if (c == s.classes.end()) {
    if (e->Attribute("class")) throw s.fail(e, "class '" + use + "' is not a <default> class of this model");
  } else if (const auto d = c->second.elements.find(tag); d != c->second.elements.end()) {
    out = d->second;
  }
  const auto known = knownAttributes().find(tag);
  for (const tinyxml2::XMLAttribute* a = e->FirstAttribute(); a; a = a->Next()) {
    out[a->Name()] = a->Value();
    if (known != knownAttributes().end() && !known->second.count(a->Name())) s.skipped[tag].insert(a->Name());
  }
  return out;
}

std::optional<std::string> get(const Attrs& a, const char* name) {
  const auto it = a.find(name);
  if (it == a.end()) return std::nullopt;
  return it->second;
}

// a geom's or site's colour: its rgba (its own or its class's), else its material's, else
// MuJoCo's default grey
Eigen::Vector4d elementRgba(State& s, const XMLElement* e, const Attrs& a) {
  if (const auto t = get(a, "rgba")) return rgbaOf(s, e, *t);
  if (const auto mat = get(a, "material"))
    if (const auto it = s.materials.find(*mat); it != s.materials.end()) return it->second;
  return Eigen::Vector4d(0.5, 0.5, 0.5, 1);
}

double number(const State& s, const XMLElement* e, const Attrs& a, const char* name, double fallback) {
  const auto t = get(a, name);
  return t ? numbers(s, e, name, *t, 1, 1)[0] : fallback;
}

Vec3 vec3(const State& s, const XMLElement* e, const Attrs& a, const char* name, const Vec3& fallback) {
  const auto t = get(a, name);
  if (!t) return fallback;
  const std::vector<double> v = numbers(s, e, name, *t, 3, 3);
  return {v[0], v[1], v[2]};
}

bool flag(const State& s, const XMLElement* e, const Attrs& a, const char* name, bool fallback) {
  const auto t = get(a, name);
  if (!t) return fallback;
  if (*t == "true") return true;
  if (*t == "false") return false;
  throw s.fail(e, std::string(name) + " must be true or false, got '" + *t + "'");
}

double angle(const State& s, double v) { return s.degrees ? v * kPi / 180 : v; }

Mat3 axisAngle(const Vec3& axis, double a) { return Eigen::AngleAxisd(a, axis.normalized()).toRotationMatrix(); }

// MuJoCo's rotation taking z to v: the shortest one; half a turn about x for v = -z
Mat3 zTo(const Vec3& v) {
  const Vec3 z = Vec3::UnitZ(), n = v.normalized();
  const Vec3 axis = z.cross(n);
  const double sn = axis.norm();
  if (sn < 1e-14) return n.z() < 0 ? Mat3(Vec3(1, -1, -1).asDiagonal()) : Mat3::Identity();
  return axisAngle(axis / sn, std::atan2(sn, n.z()));
}

// the orientation of a frame (quat, axisangle, euler, xyaxes or zaxis; at most one)
Mat3 orientation(const State& s, const XMLElement* e, const Attrs& a) {
  int given = 0;
  for (const char* k : {"quat", "axisangle", "euler", "xyaxes", "zaxis"}) given += a.count(k) > 0;
  // a class may set one form and the element another: the element's own wins
  std::string only;
  for (const char* k : {"quat", "axisangle", "euler", "xyaxes", "zaxis"})
    if (e->Attribute(k)) {
      if (!only.empty()) throw s.fail(e, "has both " + only + " and " + k + ": give one orientation");
      only = k;
    }
  if (only.empty() && given > 1) throw s.fail(e, "its class gives more than one orientation form");
  if (only.empty())
    for (const char* k : {"quat", "axisangle", "euler", "xyaxes", "zaxis"})
      if (a.count(k)) only = k;
  if (only.empty()) return Mat3::Identity();
  const std::string& text = a.at(only);
  if (only == "quat") {
    const std::vector<double> q = numbers(s, e, only, text, 4, 4);
    const Eigen::Quaterniond quat(q[0], q[1], q[2], q[3]);
    if (!(quat.norm() > 1e-14)) throw s.fail(e, "quat must not be zero");
    return quat.normalized().toRotationMatrix();
  }
  if (only == "axisangle") {
    const std::vector<double> v = numbers(s, e, only, text, 4, 4);
    const Vec3 axis(v[0], v[1], v[2]);
    if (!(axis.norm() > 1e-14)) throw s.fail(e, "axisangle's axis must not be zero");
    return axisAngle(axis, angle(s, v[3]));
  }
  if (only == "euler") {
    const std::vector<double> v = numbers(s, e, only, text, 3, 3);
    Mat3 R = Mat3::Identity();
    for (int k = 0; k < 3; ++k) {
      const char c = s.eulerseq[static_cast<std::size_t>(k)];
      const int axis = std::tolower(static_cast<unsigned char>(c)) - 'x';
      const Mat3 turn = axisAngle(Vec3::Unit(axis), angle(s, v[static_cast<std::size_t>(k)]));
      // lower case: axes that move with the frame (intrinsic); upper case: fixed axes
      R = std::islower(static_cast<unsigned char>(c)) ? Mat3(R * turn) : Mat3(turn * R);
    }
    return R;
  }
  if (only == "xyaxes") {
    const std::vector<double> v = numbers(s, e, only, text, 6, 6);
    Vec3 x(v[0], v[1], v[2]), y(v[3], v[4], v[5]);
    if (!(x.norm() > 1e-14)) throw s.fail(e, "xyaxes' x axis must not be zero");
    x.normalize();
    y -= x * x.dot(y);
    if (!(y.norm() > 1e-14)) throw s.fail(e, "xyaxes' y axis must not be parallel to x");
    y.normalize();
    Mat3 R;
    R << x, y, x.cross(y);
    return R;
  }
  const Vec3 z = vec3(s, e, a, "zaxis", Vec3::UnitZ());
  if (!(z.norm() > 1e-14)) throw s.fail(e, "zaxis must not be zero");
  return zTo(z);
}

// ---- compiler, option, defaults, assets ----

void readCompiler(State& s, const XMLElement* e) {
  const Attrs a = attributes(s, e, "");
  if (const auto v = get(a, "angle")) {
    if (*v != "degree" && *v != "radian") throw s.fail(e, "angle must be degree or radian, got '" + *v + "'");
    s.degrees = *v == "degree";
  }
  if (const auto v = get(a, "eulerseq")) {
    if (v->size() != 3 || v->find_first_not_of("xyzXYZ") != std::string::npos)
      throw s.fail(e, "eulerseq must be three of x, y, z, X, Y, Z, got '" + *v + "'");
    s.eulerseq = *v;
  }
  if (const auto v = get(a, "coordinate"); v && *v != "local")
    throw s.fail(e, "coordinate='" + *v + "' is not supported: Articulate reads local coordinates (as MuJoCo 2.3 and later)");
  if (const auto v = get(a, "assetdir"); v && !a.count("meshdir")) s.meshdir = *v;
  if (const auto v = get(a, "meshdir")) s.meshdir = *v;
  if (const auto v = get(a, "exactmeshinertia")) {
    if (*v != "true" && *v != "false") throw s.fail(e, "exactmeshinertia must be true or false, got '" + *v + "'");
    s.exactMeshInertia = *v == "true";
  }
  if (const auto v = get(a, "inertiafromgeom")) {
    if (*v == "true") s.inertiaFromGeom = State::FromGeom::True;
    else if (*v == "false") s.inertiaFromGeom = State::FromGeom::False;
    else if (*v == "auto") s.inertiaFromGeom = State::FromGeom::Auto;
    else throw s.fail(e, "inertiafromgeom must be true, false or auto, got '" + *v + "'");
  }
  if (const auto v = get(a, "inertiagrouprange")) {
    const std::vector<double> g = numbers(s, e, "inertiagrouprange", *v, 2, 2);
    s.groupLo = static_cast<int>(g[0]);
    s.groupHi = static_cast<int>(g[1]);
  }
  s.autolimits = flag(s, e, a, "autolimits", s.autolimits);
  for (const char* k : {"boundmass", "boundinertia", "balanceinertia", "settotalmass"})
    if (a.count(k)) s.skipped["compiler"].insert(k);
  if (const XMLElement* lr = e->FirstChildElement("lengthrange")) {
    const Attrs la = attributes(s, lr, "");
    s.lengthRangeUseLimit = flag(s, lr, la, "uselimit", false);
  }
}

std::optional<SoftParams> softParams(State& s, const XMLElement* e, const Attrs& a, const char* ref, const char* imp);

// <option> and its <flag>: the integrator and step, gravity, and the constraint solver's settings
// (PhysicsSpec). The line search's settings are not needed (the line search here is exact).
void readOption(State& s, const XMLElement* e) {
  const Attrs a = attributes(s, e, "");
  PhysicsSpec& ph = s.spec.physics;
  if (a.count("timestep")) {
    const double dt = number(s, e, a, "timestep", 0.002);
    if (!(dt > 0)) throw s.fail(e, "timestep must be > 0, got " + num(dt));
    s.spec.simulation.dt = dt;
  }
  if (a.count("gravity")) s.spec.gravity = vec3(s, e, a, "gravity", Vec3(0, 0, -9.81));
  if (const auto v = get(a, "integrator")) {
    if (*v == "RK4") s.spec.simulation.integrator = Integrator::RK4;
    else if (*v == "Euler") s.spec.simulation.integrator = Integrator::MujocoEuler;
    else if (*v == "implicitfast") s.spec.simulation.integrator = Integrator::MujocoImplicitFast;
    else if (*v == "implicit") {
      s.spec.simulation.integrator = Integrator::MujocoImplicitFast;
      s.skipped["option"].insert("integrator='implicit' (read as implicitfast: the Coriolis forces' derivative in velocity is not taken)");
    } else {
      throw s.fail(e, "integrator must be Euler, RK4, implicit or implicitfast, got '" + *v + "'");
    }
  }
  if (const auto v = get(a, "solver")) {
    std::string lower = *v;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (!parseSolver(lower, ph.solver)) throw s.fail(e, "solver must be Newton, PGS or CG, got '" + *v + "'");
  }
  if (const auto v = get(a, "cone")) {
    if (*v == "pyramidal") ph.cone = PhysicsSpec::Cone::Pyramidal;
    else if (*v == "elliptic") ph.cone = PhysicsSpec::Cone::Elliptic;
    else throw s.fail(e, "cone must be pyramidal or elliptic, got '" + *v + "'");
  }
  if (a.count("iterations")) {
    const double it = number(s, e, a, "iterations", 100);
    if (!(it >= 1 && it <= 1e6 && it == std::floor(it))) throw s.fail(e, "iterations must be a whole number >= 1, got " + num(it));
    ph.iterations = static_cast<int>(it);
  }
  if (a.count("tolerance")) {
    ph.tolerance = number(s, e, a, "tolerance", 1e-8);
    if (!(ph.tolerance >= 0)) throw s.fail(e, "tolerance must be >= 0, got " + num(ph.tolerance));
  }
  if (a.count("impratio")) {
    ph.impratio = number(s, e, a, "impratio", 1);
    if (!(ph.impratio > 0)) throw s.fail(e, "impratio must be > 0, got " + num(ph.impratio));
  }
  if (const auto o = softParams(s, e, a, "o_solref", "o_solimp")) ph.overrideSoft = *o;
  ph.overrideMargin = number(s, e, a, "o_margin", 0);
  if (!(ph.overrideMargin >= 0)) throw s.fail(e, "o_margin must be >= 0, got " + num(ph.overrideMargin));
  for (const char* k : {"wind", "density", "viscosity"})
    if (a.count(k)) s.skipped["option"].insert(std::string(k) + " (fluid forces are not modelled)");
  forEachChild(s, e, [&](const XMLElement* c) {
    if (std::string(c->Name()) != "flag") return;
    const Attrs f = attributes(s, c, "");
    const auto setting = [&](const char* name, bool& enabled, bool enableFlag) {
      const auto v = get(f, name);
      if (!v) return;
      if (*v != "enable" && *v != "disable") throw s.fail(c, std::string(name) + " must be enable or disable, got '" + *v + "'");
      enabled = (*v == "enable") == enableFlag;
    };
    bool gravity = true;
    setting("gravity", gravity, true);
    if (!gravity) s.spec.gravity = Vec3::Zero();
    bool constraint = true;
    setting("constraint", constraint, true);
    if (!constraint) ph.equality = ph.frictionloss = ph.limit = ph.contact = false;
    setting("equality", ph.equality, true);
    setting("frictionloss", ph.frictionloss, true);
    setting("limit", ph.limit, true);
    setting("contact", ph.contact, true);
    setting("filterparent", ph.filterParent, true);
    setting("refsafe", ph.refsafe, true);
    setting("override", ph.override, true);
  });
}

void readDefault(State& s, const XMLElement* e, const std::string& parent) {
  const char* cls = e->Attribute("class");
  std::string name = cls ? cls : "";
  if (name.empty()) {
    if (!parent.empty()) throw s.fail(e, "a nested default needs a class attribute");
    name = "main";
  }
  if (s.classes.count(name) && !(name == "main" && parent.empty()))
    throw s.fail(e, "class '" + name + "' is defined twice");
  // a second top-level default (from an include) adds to "main"
  DefaultClass c = !parent.empty() ? s.classes.at(parent) : name == "main" ? s.classes[name] : DefaultClass{};
  std::vector<const XMLElement*> nested;
  forEachChild(s, e, [&](const XMLElement* d) {
    const std::string tag = d->Name();
    if (tag == "default") {
      nested.push_back(d);
      return;
    }
    Attrs& into = c.elements[tag];
    Attrs own;
    for (const tinyxml2::XMLAttribute* a = d->FirstAttribute(); a; a = a->Next()) into[a->Name()] = own[a->Name()] = a->Value();
    if (mjcf::isActuatorTag(tag)) c.actuators.emplace_back(tag, std::move(own));
  });
  s.classes[name] = std::move(c);
  for (const XMLElement* d : nested) readDefault(s, d, name);
}

std::string meshPath(const State& s, const std::string& file) {
  namespace fs = std::filesystem;
  fs::path p(file);
  if (p.is_relative()) {
    fs::path dir(s.meshdir);
    if (dir.is_relative()) dir = fs::path(s.folder) / dir;
    p = dir / p;
  }
  return fs::absolute(p).lexically_normal().string();
}

// a <mesh> given by its vertex list (and faces, where given) in the XML, as MuJoCo's car.xml
// writes its chassis: without faces, the vertices' convex hull, as MuJoCo builds it (qhull).
// Null, with a note, when the hull is flat; a list of the wrong length or a face index out of
// range is refused naming the element
std::shared_ptr<const MeshData> xmlMesh(State& s, const XMLElement* c, const Attrs& a, const std::string& name) {
  const std::string vertexText = *get(a, "vertex");
  const std::vector<double> v = numbers(s, c, "vertex", vertexText, 0, 3 * MeshLimits::triangles);
  if (v.size() % 3 != 0)
    throw s.fail(c, "vertex needs 3 numbers per vertex, got " + std::to_string(v.size()) + " numbers");
  std::vector<Vec3> points;
  for (std::size_t k = 0; k < v.size(); k += 3) points.emplace_back(v[k], v[k + 1], v[k + 2]);
  if (const auto face = get(a, "face")) {
    const std::vector<double> f = numbers(s, c, "face", *face, 0, 3 * MeshLimits::triangles);
    if (f.empty() || f.size() % 3 != 0) throw s.fail(c, "face needs 3 vertex indices per face, got " + std::to_string(f.size()) + " numbers");
    auto mesh = std::make_shared<MeshData>();
    for (const Vec3& p : points) mesh->vertices.push_back(p.cast<float>());
    for (std::size_t k = 0; k < f.size(); k += 3) {
      std::array<std::uint32_t, 3> t{};
      for (std::size_t j = 0; j < 3; ++j) {
        if (f[k + j] != std::floor(f[k + j]) || f[k + j] < 0 || f[k + j] >= static_cast<double>(points.size()))
          throw s.fail(c, "face: '" + num(f[k + j]) + "' is not the index of one of its " + std::to_string(points.size()) + " vertices");
        t[j] = static_cast<std::uint32_t>(f[k + j]);
      }
      mesh->triangles.push_back(t);
      mesh->triangleColour.push_back(-1);
    }
    boundMesh(*mesh);
    return mesh;
  }
  try {
    return std::make_shared<MeshData>(convexHull(points));
  } catch (const std::invalid_argument& why) {
    s.meshNotes.push_back(s.where(c) + ": mesh '" + name + "' is not used: " + why.what());
    return nullptr;
  }
}

// a <mesh>'s inertia attribute (its own or its class's); without one MuJoCo 3.3.8's default,
// legacy, or exact where an older file's <compiler exactmeshinertia='true'> asks for it
MeshInertia meshInertiaOf(const State& s, const XMLElement* c, const Attrs& a) {
  MeshInertia mode = s.exactMeshInertia ? MeshInertia::Exact : MeshInertia::Legacy;
  if (const auto v = get(a, "inertia"); v && !parseMeshInertia(*v, mode))
    throw s.fail(c, "inertia must be convex, exact, legacy or shell, got '" + messageValue(*v) + "'");
  return mode;
}

void readAssets(State& s, const XMLElement* e) {
  forEachChild(s, e, [&](const XMLElement* c) {
    const std::string tag = c->Name();
    if (tag == "mesh") {
      const Attrs a = attributes(s, c, "main");
      const auto file = get(a, "file");
      if (!file) {
        if (!get(a, "vertex")) throw s.fail(c, "a mesh needs a file or a vertex list");
        const auto name = get(a, "name");
        if (!name) throw s.fail(c, "a mesh given by its vertex list needs a name");
        MeshAsset m;
        m.scale = vec3(s, c, a, "scale", Vec3::Ones());
        m.inertia = meshInertiaOf(s, c, a);
        m.data = xmlMesh(s, c, a, *name);
        m.inXml = true;
        s.meshes[*name] = m;
        return;
      }
      const std::string name = get(a, "name").value_or(std::filesystem::path(*file).stem().string());
      MeshAsset m;
      m.scale = vec3(s, c, a, "scale", Vec3::Ones());
      m.inertia = meshInertiaOf(s, c, a);
      const std::string path = meshPath(s, *file);
      try {
        loadMesh(path);
        m.file = path;
      } catch (const FormatError& err) {
        s.meshNotes.push_back(s.where(c) + ": mesh '" + *file + "' is not used: " + err.what());
      }
      s.meshes[name] = m;
    } else if (tag == "material") {
      const Attrs a = attributes(s, c, "main");
      Eigen::Vector4d rgba(1, 1, 1, 1);
      if (const auto t = get(a, "rgba")) rgba = rgbaOf(s, c, *t);
      if (const auto n = get(a, "name")) s.materials[*n] = rgba;
    } else if (tag != "texture" && tag != "hfield" && tag != "skin") {
      ++s.notModelled["<asset> <" + tag + "> element(s)"];
    }
  });
}

// ---- bodies ----

// the geometry of one geom in its body's frame (MJCF units: sizes are half lengths)
struct Geom {
  std::string type;
  Mat3 R = Mat3::Identity();
  Vec3 p = Vec3::Zero();
  Vec3 size = Vec3::Zero();  // sphere r; capsule/cylinder r, half length; ellipsoid/box half sizes
  std::string mesh;
  Eigen::Vector4d rgba = Eigen::Vector4d(0.5, 0.5, 0.5, 1);  // elementRgba
  int group = 0;
  int contype = 1, conaffinity = 1;
  GeomSpec contact;  // its contact parameters (type, size and placement filled where it is placed)
};

// a geom's or pair's condim (1, 3, 4 or 6) and its 1 to N frictions (>= 0) over the defaults in
// `friction`; refused by line otherwise
template <std::size_t N>
void readCondimAndFriction(State& s, const XMLElement* e, const Attrs& a, int& condim, std::array<double, N>& friction) {
  const double c = number(s, e, a, "condim", 3);
  if (c != 1 && c != 3 && c != 4 && c != 6) throw s.fail(e, "condim must be 1, 3, 4 or 6, got " + num(c));
  condim = static_cast<int>(c);
  if (const auto f = get(a, "friction")) {
    const std::vector<double> v = numbers(s, e, "friction", *f, 1, N);
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (!(v[i] >= 0)) throw s.fail(e, "friction must be >= 0, got " + num(v[i]));
      friction[i] = v[i];
    }
  }
}

// a geom's contact parameters (MuJoCo's defaults where not given), refused as MuJoCo's compiler
// refuses them: condim other than 1, 3, 4, 6, a friction, margin, gap or solmix below 0
void readContactParameters(State& s, const XMLElement* e, const Attrs& a, Geom& g) {
  GeomSpec& k = g.contact;
  k.contype = g.contype;
  k.conaffinity = g.conaffinity;
  if (k.contype < 0 || k.conaffinity < 0) throw s.fail(e, "contype and conaffinity must be >= 0");
  readCondimAndFriction(s, e, a, k.condim, k.friction);
  if (const auto p = softParams(s, e, a, "solref", "solimp")) k.soft = *p;
  k.priority = static_cast<int>(number(s, e, a, "priority", 0));
  for (const auto& [name, out] : {std::pair{"solmix", &k.solmix}, std::pair{"margin", &k.margin}, std::pair{"gap", &k.gap}}) {
    *out = number(s, e, a, name, name[0] == 's' ? 1.0 : 0.0);
    if (!(*out >= 0)) throw s.fail(e, std::string(name) + " must be >= 0, got " + num(*out));
  }
}

Geom readGeom(State& s, const XMLElement* e, const Attrs& a) {
  Geom g;
  g.type = get(a, "type").value_or("sphere");
  static const std::set<std::string> kTypes = {"plane", "hfield", "sphere", "capsule", "ellipsoid", "cylinder", "box", "mesh", "sdf"};
  if (!kTypes.count(g.type))
    throw s.fail(e, "unknown geom type '" + g.type + "' (MJCF geoms are plane, hfield, sphere, capsule, ellipsoid, cylinder, box and mesh)");
  if (a.count("mesh") && !a.count("type")) g.type = "mesh";
  std::vector<double> size = {0, 0, 0};
  if (const auto t = get(a, "size")) {
    const std::vector<double> v = numbers(s, e, "size", *t, 1, 3);
    std::copy(v.begin(), v.end(), size.begin());
  }
  if (const auto t = get(a, "fromto")) {
    const std::vector<double> v = numbers(s, e, "fromto", *t, 6, 6);
    const Vec3 from(v[0], v[1], v[2]), to(v[3], v[4], v[5]);
    if (!((to - from).norm() > 0)) throw s.fail(e, "fromto's two points must differ");
    if (g.type != "capsule" && g.type != "cylinder" && g.type != "box" && g.type != "ellipsoid")
      throw s.fail(e, "fromto applies to capsules, cylinders, boxes and ellipsoids, not to a " + g.type);
    g.p = (from + to) / 2;
    // MuJoCo's compiler turns z to from - to (checked against 2.2.2: a capsule's first contact
    // with a plane is at its `from` end, and its contact frame's tangent points that way)
    g.R = zTo(from - to);
    const double half = (to - from).norm() / 2;
    if (g.type == "capsule" || g.type == "cylinder") {
      size[1] = half;
      size[2] = 0;
    } else {
      size[2] = half;
    }
  } else {
    g.p = vec3(s, e, a, "pos", Vec3::Zero());
    g.R = orientation(s, e, a);
  }
  g.size = Vec3(size[0], size[1], size[2]);
  const auto need = [&](int count) {
    for (int k = 0; k < count; ++k)
      if (!(g.size(k) > 0)) throw s.fail(e, "a " + g.type + " needs " + std::to_string(count) + " positive size number(s), got " + vecText(g.size));
  };
  if (g.type == "sphere") need(1);
  else if (g.type == "capsule" || g.type == "cylinder") need(2);
  else if (g.type == "ellipsoid" || g.type == "box") need(3);
  if (g.type == "mesh") {
    const auto m = get(a, "mesh");
    if (!m) throw s.fail(e, "a mesh geom needs a mesh attribute");
    if (!s.meshes.count(*m)) throw s.fail(e, "mesh '" + *m + "' is not an <asset> mesh of this model");
    g.mesh = *m;
  }
  g.rgba = elementRgba(s, e, a);
  g.group = static_cast<int>(number(s, e, a, "group", 0));
  g.contype = static_cast<int>(number(s, e, a, "contype", 1));
  g.conaffinity = static_cast<int>(number(s, e, a, "conaffinity", 1));
  readContactParameters(s, e, a, g);
  return g;
}

// volume (m^3), centre and inertia about it per unit density, in the geom's frame
struct UnitMass {
  double volume = 0;
  Vec3 c = Vec3::Zero();
  Mat3 I = Mat3::Zero();  // per unit mass
};

// a closed mesh's volume, centre and inertia about it per unit mass, by signed tetrahedra from
// the origin (the mesh's own frame, scaled); throws for a mesh that encloses no volume
UnitMass meshMoments(const State& s, const XMLElement* e, const Geom& g) {
  const MeshAsset& asset = s.meshes.at(g.mesh);
  const robot::MeshMoments m = robot::meshMoments(*asset.mesh(), asset.scale);
  if (m.volume == 0) throw s.fail(e, "mesh '" + g.mesh + "' encloses no volume: its inertia cannot come from it");
  UnitMass u;
  u.volume = m.volume;
  u.c = m.centre;
  u.I = m.inertia;
  return u;
}

UnitMass unitMass(const State& s, const XMLElement* e, const Geom& g) {
  UnitMass u;
  const double r = g.size(0), h = 2 * g.size(1);
  if (g.type == "sphere") {
    u.volume = 4 * kPi * r * r * r / 3;
    u.I = Mat3::Identity() * 2 * r * r / 5;
  } else if (g.type == "capsule") {
    const double vs = 4 * kPi * r * r * r / 3, vc = kPi * r * r * h;
    u.volume = vs + vc;
    const double ms = vs / u.volume, mc = vc / u.volume;  // mass fractions
    // the cylinder, and two half spheres at its ends (their own centres 3r/8 out)
    const double transverse = mc * (3 * r * r + h * h) / 12 + ms * (2 * r * r / 5 + h * h / 4 + 3 * h * r / 8);
    u.I = Vec3(transverse, transverse, mc * r * r / 2 + ms * 2 * r * r / 5).asDiagonal();
  } else if (g.type == "cylinder") {
    u.volume = kPi * r * r * h;
    const double t = (3 * r * r + h * h) / 12;
    u.I = Vec3(t, t, r * r / 2).asDiagonal();
  } else if (g.type == "ellipsoid") {
    const Vec3 d = g.size;
    u.volume = 4 * kPi * d.prod() / 3;
    u.I = Vec3(d.y() * d.y() + d.z() * d.z(), d.x() * d.x() + d.z() * d.z(), d.x() * d.x() + d.y() * d.y()).asDiagonal();
    u.I /= 5;
  } else if (g.type == "box") {
    const Vec3 d = g.size;
    u.volume = 8 * d.prod();
    u.I = Vec3(d.y() * d.y() + d.z() * d.z(), d.x() * d.x() + d.z() * d.z(), d.x() * d.x() + d.y() * d.y()).asDiagonal();
    u.I /= 3;
  } else if (g.type == "mesh") {
    // as MuJoCo 3.3.8 computes it, by the mesh's <mesh inertia> (default legacy: each
    // triangle's pyramid counted whichever way it is wound; mesh_inertia.h)
    const MeshAsset& asset = s.meshes.at(g.mesh);
    const std::shared_ptr<const MeshData> data = asset.mesh();
    if (!data) return u;
    try {
      const MeshMass m = meshMass(*data, asset.scale, asset.inertia);
      u.volume = m.volume;
      u.c = m.centre;
      u.I = mujocoPrincipalInertia(m.inertia * m.volume) / m.volume;  // as MuJoCo keeps it, per unit density
    } catch (const std::invalid_argument& why) {
      throw s.fail(e, "mesh '" + g.mesh + "' gives no mass: " + why.what());
    }
  }
  return u;
}

// the body being read: its Articulate frame and defaults class
struct BodyContext {
  Frame frame;
  std::string cls;
  bool moving = false;  // some joint on the way from the world
};

int addBody(State& s, const std::string& name, int parent, const Mat3& rotation, const Vec3& translation, JointType type,
            const std::string& jointName) {
  BodySpec b;
  b.name = name;
  b.parent = parent;
  b.joint.type = type;
  b.rotation = rotation;
  b.translation = translation;
  s.spec.bodies.push_back(std::move(b));
  s.masses.emplace_back();
  s.jointNames.push_back(jointName);
  s.names.insert(name);
  return static_cast<int>(s.spec.bodies.size()) - 1;
}

std::string uniqueName(State& s, const std::string& want) {
  std::string name = want;
  for (int k = 2; s.names.count(name) || name == "world"; ++k) name = want + "_" + std::to_string(k);
  return name;
}

// a joint's damping, frictionloss, armature and spring into b (a ball joint's frictionloss is
// counted, not used: Articulate's ball joint takes no friction; its spring turns it back to its
// initial orientation, as MuJoCo's: springref is a hinge's or slide's)
void jointDynamics(State& s, const XMLElement* e, const Attrs& a, BodySpec& b) {
  const double damping = number(s, e, a, "damping", 0), friction = number(s, e, a, "frictionloss", 0);
  if (!(damping >= 0) || !(friction >= 0)) throw s.fail(e, "damping and frictionloss must be >= 0");
  b.damping = damping;
  if (b.joint.type == JointType::Ball)
    s.ballFriction += friction > 0;
  else
    b.friction = friction;
  const double armature = number(s, e, a, "armature", 0);
  if (!(armature >= 0)) throw s.fail(e, "armature must be >= 0");
  b.armature = armature;
  b.stiffness = number(s, e, a, "stiffness", 0);
  if (!(b.stiffness >= 0)) throw s.fail(e, "stiffness must be >= 0");
  const double springref = number(s, e, a, "springref", 0);
  b.springRef = b.joint.type == JointType::Ball ? 0.0 : isRotational(b.joint.type) ? angle(s, springref) : springref;
}

// the joint's range when it is limited (`limited`, or `autolimits` and a range given)
std::optional<std::string> limitedRange(State& s, const XMLElement* e, const Attrs& a) {
  const auto limited = get(a, "limited").value_or("auto");
  if (limited != "true" && limited != "false" && limited != "auto")
    throw s.fail(e, "limited must be true, false or auto, got '" + limited + "'");
  const auto range = get(a, "range");
  if (range && (limited == "true" || (limited == "auto" && s.autolimits))) return range;
  return std::nullopt;
}

std::optional<SoftParams> softParams(State& s, const XMLElement* e, const Attrs& a, const char* ref, const char* imp) {
  return mjcf::softParams([&](const XMLElement* x, const std::string& attr, const std::string& text, std::size_t lo,
                              std::size_t hi) { return numbers(s, x, attr, text, lo, hi); },
                          [&](const XMLElement* x) { return s.where(x); }, s.clamps, e, a, ref, imp);
}

// a joint's or tendon's limit and friction rows' parameters and its margin
template <class T>
void softLimits(State& s, const XMLElement* e, const Attrs& a, T& t) {
  t.limitSoft = softParams(s, e, a, "solreflimit", "solimplimit");
  t.frictionSoft = softParams(s, e, a, "solreffriction", "solimpfriction");
  t.margin = number(s, e, a, "margin", 0);
  if (!(t.margin >= 0)) throw s.fail(e, "margin must be >= 0, got " + num(t.margin));
}

// a ball joint at pos: the body after it (its joint frame the body's own axes through pos,
// MuJoCo's qpos quaternion and body-coordinate qvel), and the frame its contents are in
Frame addBallJoint(State& s, const XMLElement* e, const Attrs& a, const Frame& at, const std::string& bodyName,
                   const std::string& jointName) {
  const Vec3 pos = vec3(s, e, a, "pos", Vec3::Zero());
  const int index = addBody(s, bodyName, at.owner, at.R.transpose(), at.R * pos + at.t, JointType::Ball, jointName);
  s.anyJoint[jointName] = index;
  jointDynamics(s, e, a, s.spec.bodies.back());
  if (limitedRange(s, e, a)) ++s.ballRanges;
  return {index, Mat3::Identity(), -pos};
}

// a hinge or slide: the body after it, and the frame its body's contents are in
Frame addAxisJoint(State& s, const XMLElement* e, const Attrs& a, const Frame& at, const std::string& bodyName,
                   const std::string& jointName, bool hinge) {
  Vec3 axis = vec3(s, e, a, "axis", Vec3::UnitZ());
  if (!(axis.norm() > 1e-14)) throw s.fail(e, "axis must not be zero");
  axis.normalize();
  const Vec3 pos = hinge ? vec3(s, e, a, "pos", Vec3::Zero()) : Vec3::Zero();
  int k = 2;
  const Mat3 A = robot::axisTurn(axis, k);
  static constexpr JointType kTypes[2][3] = {{JointType::Px, JointType::Py, JointType::Pz},
                                            {JointType::Rx, JointType::Ry, JointType::Rz}};
  // the joint frame J = C T(pos) A in the owner's coordinates
  const Mat3 RJ = at.R * A;
  const Vec3 tJ = at.R * pos + at.t;
  const int index = addBody(s, bodyName, at.owner, RJ.transpose(), tJ, kTypes[hinge][k], jointName);
  BodySpec& b = s.spec.bodies.back();
  s.bodyOfJoint[jointName] = index;
  s.anyJoint[jointName] = index;
  const double given = number(s, e, a, "ref", 0);
  const double ref = hinge ? angle(s, given) : given;
  // the body's contents are placed back by ref: beyond kMaxJointRef nothing about them would
  // survive in double precision (ref=1e308 overflowed the body's inertia, blamed on its COM)
  if (!(std::abs(ref) <= kMaxJointRef))
    throw s.fail(e, "ref (" + messageNumber(given) + ") must be at most " + messageNumber(kMaxJointRef) + (hinge ? " rad" : " m") +
                        " in magnitude: the joint's reference position places the body's contents");
  b.q0 = ref;
  jointDynamics(s, e, a, b);
  softLimits(s, e, a, b);
  if (const auto range = limitedRange(s, e, a)) {
    const std::vector<double> r = numbers(s, e, "range", *range, 2, 2);
    if (r[0] > r[1]) throw s.fail(e, "range's lower end (" + num(r[0]) + ") is above its upper end (" + num(r[1]) + ")");
    if (r[0] < r[1]) {  // MuJoCo: an empty range [0 0] is no limit
      b.limits.lower = hinge ? angle(s, r[0]) : r[0];
      b.limits.upper = hinge ? angle(s, r[1]) : r[1];
    }
  }
  // MuJoCo moves the body by q - ref: the body's contents are the joint's frame turned back by
  // ref, then by A^T, then moved back by pos (x_body = P x_C')
  const Mat3 back = hinge ? axisAngle(Vec3::Unit(k), -ref) : Mat3::Identity();
  const Mat3 RP = back * A.transpose();
  const Vec3 tP = hinge ? Vec3(-RP * pos) : Vec3(-ref * Vec3::Unit(k));
  return {index, RP, tP};
}

void readBody(State& s, const XMLElement* e, const BodyContext& parent);

// a mesh geom collides as its convex hull, placed as MuJoCo's compiler places a mesh: at its
// centre of volume, along its principal axes (where MPR starts, and what rbound measures);
// false, with a note, for a mesh that was not loaded
bool meshHull(State& s, const XMLElement* e, const Geom& g, GeomSpec& k) {
  const MeshAsset& asset = s.meshes.at(g.mesh);
  const std::shared_ptr<const MeshData> data = asset.mesh();
  if (!data && asset.inXml)  // a vertex list whose hull failed (xmlMesh)
    throw s.fail(e, "mesh '" + g.mesh + "' has no convex hull to collide with: its vertices span no volume");
  if (!data) {
    if (s.notColliding.empty()) s.notColliding = s.where(e) + "'s mesh '" + g.mesh + "' was not loaded";
    return false;
  }
  const UnitMass u = meshMoments(s, e, g);
  Mat3 E = Eigen::SelfAdjointEigenSolver<Mat3>(u.I).eigenvectors();
  if (E.determinant() < 0) E.col(2) = -E.col(2);
  std::vector<Vec3> points;
  points.reserve(data->vertices.size());
  for (const Eigen::Vector3f& v : data->vertices) points.push_back(E.transpose() * (asset.scale.cwiseProduct(v.cast<double>()) - u.c));
  MeshData hull;
  try {
    hull = convexHull(points);
  } catch (const std::invalid_argument& why) {
    throw s.fail(e, "mesh '" + g.mesh + "' has no convex hull to collide with: " + why.what());
  }
  for (const Eigen::Vector3f& v : hull.vertices) k.vertices.push_back(v.cast<double>());
  for (const auto& t : hull.triangles) k.faces.push_back({static_cast<int>(t[0]), static_cast<int>(t[1]), static_cast<int>(t[2])});
  k.position = k.rotation * u.c + k.position;
  k.rotation = k.rotation * E;
  return true;
}

// a geom that collides, for body-body contact; a type the narrow phase does not have (hfield)
// keeps the model on ground-contact points (chooseContactModel)
void addCollisionGeom(State& s, const XMLElement* e, const Attrs& a, const Geom& g, int owner, const Mat3& R, const Vec3& p,
                      bool inPair = false) {
  if (!g.contype && !g.conaffinity && !inPair) {  // collides only where a <pair> names it, as in MuJoCo
    if (const auto name = get(a, "name")) s.pairOnly.emplace(*name, PairOnlyGeom{e, a, std::make_shared<const Geom>(g), owner, R, p});
    return;
  }
  GeomSpec k = g.contact;
  if (!parseGeomType(g.type, k.type)) {
    if (s.notColliding.empty()) s.notColliding = s.where(e) + " is a " + g.type + ", whose contacts are not computed yet";
    return;
  }
  k.name = get(a, "name").value_or("");
  k.body = owner;
  k.size = g.size;
  k.position = p;
  k.rotation = R;
  if (k.type == GeomSpec::Type::Mesh && !meshHull(s, e, g, k)) return;
  if (!k.name.empty()) s.geomIndex[k.name] = static_cast<int>(s.geoms.size());
  s.geoms.push_back(k);
}

// <contact>'s <pair> and <exclude>, by geom and body names
void readContactSection(State& s, const XMLElement* e) {
  forEachChild(s, e, [&](const XMLElement* c) {
    const std::string tag = c->Name();
    const Attrs a = attributes(s, c, "main");
    if (tag == "exclude") {
      ContactExcludeSpec x;
      x.name = get(a, "name").value_or("");
      for (const auto& [attr, out] : {std::pair{"body1", &x.body1}, std::pair{"body2", &x.body2}}) {
        const auto body = get(a, attr);
        if (!body) throw s.fail(c, std::string("an exclude needs ") + attr);
        const auto f = s.bodyFrames.find(*body);
        if (f == s.bodyFrames.end()) throw s.fail(c, std::string(attr) + " '" + robot::printable(*body) + "' names no body of this model");
        *out = f->second.owner;
      }
      s.spec.contactExcludes.push_back(x);
    } else if (tag == "pair") {
      ContactPairSpec p;
      p.name = get(a, "name").value_or("");
      for (const auto& [attr, out] : {std::pair{"geom1", &p.geom1}, std::pair{"geom2", &p.geom2}}) {
        const auto geom = get(a, attr);
        if (!geom) throw s.fail(c, std::string("a pair needs ") + attr);
        auto it = s.geomIndex.find(*geom);
        if (const auto only = s.pairOnly.find(*geom); it == s.geomIndex.end() && only != s.pairOnly.end()) {
          const PairOnlyGeom& o = only->second;
          addCollisionGeom(s, o.e, o.a, *o.g, o.owner, o.R, o.p, true);
          it = s.geomIndex.find(*geom);
        }
        if (it == s.geomIndex.end())
          throw s.fail(c, std::string(attr) + " '" + robot::printable(*geom) + "' names no colliding geom of this model (a sphere, capsule, ellipsoid, cylinder, box or plane)");
        *out = it->second;
      }
      readCondimAndFriction(s, c, a, p.condim, p.friction);
      if (const auto q = softParams(s, c, a, "solref", "solimp")) p.soft = *q;
      for (const auto& [name, out] : {std::pair{"margin", &p.margin}, std::pair{"gap", &p.gap}}) {
        *out = number(s, c, a, name, 0);
        if (!(*out >= 0)) throw s.fail(c, std::string(name) + " must be >= 0, got " + num(*out));
      }
      s.spec.contactPairs.push_back(p);
    } else {
      ++s.notModelled["<contact> <" + tag + "> element(s)"];
    }
  });
}

// body-body contact when every geom that may collide has a narrow phase and the model is the
// soft one; else the ground-contact points of the plane z = 0, with the reason noted
void chooseContactModel(State& s) {
  PhysicsSpec& ph = s.spec.physics;
  if (s.notColliding.empty() && ph.constraints != PhysicsSpec::Constraints::Soft) s.notColliding = "the model's physics is exact";
  if (s.notColliding.empty() && !ph.contact) s.notColliding = "contact is disabled (<flag contact='disable'>)";
  s.spec.geoms = s.geoms;
  s.bodyContact = s.notColliding.empty() && !s.geoms.empty();
  if (s.bodyContact) {
    s.spec.contacts.clear();
    if (ph.filterParent)
      for (const auto& [parent, body] : s.chainEnds) s.spec.contactExcludes.push_back({"", parent, body});
  } else {
    s.spec.geoms.clear();
    s.spec.contactPairs.clear();
    s.spec.contactExcludes.clear();
  }
}

// the body's contents (inertial, geoms, child bodies) in its frame; a <frame> (newer MuJoCo)
// places the elements inside it by its pos and orientation, and its childclass applies to them
void readBodyContents(State& s, const XMLElement* e, const BodyContext& body, bool world) {
  std::optional<Mass> inertial;
  std::vector<Mass> fromGeoms;
  std::function<void(const XMLElement*, const BodyContext&)> visit = [&](const XMLElement* c, const BodyContext& ctx) {
    const std::string tag = c->Name();
    if (tag == "frame") {
      const Attrs a = attributes(s, c, ctx.cls);
      BodyContext inner = ctx;
      inner.frame = ctx.frame.then(orientation(s, c, a), vec3(s, c, a, "pos", Vec3::Zero()));
      if (const char* cls = c->Attribute("childclass")) {
        if (!s.classes.count(cls)) throw s.fail(c, "childclass '" + std::string(cls) + "' is not a <default> class of this model");
        inner.cls = cls;
      }
      forEachChild(s, c, [&](const XMLElement* child) {
        const std::string t = child->Name();
        if (t == "joint" || t == "freejoint")  // a body's joints are its own children (readBody)
          ++s.notModelled["<" + t + "> element(s) inside a <frame>"];
        else
          visit(child, inner);
      });
    } else if (tag == "inertial") {
      const Attrs a = attributes(s, c, ctx.cls);
      Mass m;
      m.m = number(s, c, a, "mass", -1);
      if (!(m.m >= 0)) throw s.fail(c, "an inertial needs a mass >= 0");
      const Mat3 R = orientation(s, c, a);
      Mat3 I = Mat3::Zero();
      if (const auto d = get(a, "diaginertia")) {
        const std::vector<double> v = numbers(s, c, "diaginertia", *d, 3, 3);
        I = Vec3(v[0], v[1], v[2]).asDiagonal();
      } else if (const auto f = get(a, "fullinertia")) {
        const std::vector<double> v = numbers(s, c, "fullinertia", *f, 6, 6);
        I << v[0], v[3], v[4], v[3], v[1], v[5], v[4], v[5], v[2];
        I = mujocoPrincipalInertia(I);  // as MuJoCo's compiler keeps it
      } else if (m.m > 0) {
        throw s.fail(c, "an inertial needs diaginertia or fullinertia");
      }
      m.c = ctx.frame.R * vec3(s, c, a, "pos", Vec3::Zero()) + ctx.frame.t;
      const Mat3 Rw = ctx.frame.R * R;
      m.Ic = Rw * I * Rw.transpose();
      inertial = m;
    } else if (tag == "geom") {
      const Attrs a = attributes(s, c, ctx.cls);
      const Geom g = readGeom(s, c, a);
      const Mat3 R = ctx.frame.R * g.R;
      const Vec3 p = ctx.frame.R * g.p + ctx.frame.t;
      if (const auto name = get(a, "name")) s.geomsByName[*name] = {ctx.frame.owner, R, p, g.type, g.size(0)};
      addCollisionGeom(s, c, a, g, ctx.frame.owner, R, p);
      json& appearance = ctx.frame.owner < 0 ? s.spec.baseAppearance : s.spec.bodies[static_cast<std::size_t>(ctx.frame.owner)].appearance;
      if (g.type == "plane" || g.type == "hfield" || g.type == "sdf") {
        if (g.type != "plane") {
          ++s.notModelled[g.type + " geom(s)"];
        } else if (world && std::abs(p.z()) < 1e-12 && (R.col(2) - Vec3::UnitZ()).norm() < 1e-9) {
          s.ground = true;
          // drawn as showmotion's chequered floor over the plane's extent (MuJoCo: half sizes, 0
          // for an infinite plane), with tiles of at least a tenth of it
          const double hx = g.size(0) > 0 ? g.size(0) : 10, hy = g.size(1) > 0 ? g.size(1) : 10;
          const double tile = std::max(g.size(2), std::max(hx, hy) / 10);
          s.spec.baseAppearance.push_back("tiles");
          s.spec.baseAppearance.push_back(json::array({json::array({p.x() - hx, p.x() + hx}), json::array({p.y() - hy, p.y() + hy}), json::array({0.0, 0.0})}));
          s.spec.baseAppearance.push_back(tile);
          s.groundContype = g.contype;
          s.groundConaffinity = g.conaffinity;
          if (const auto f = get(a, "friction")) s.spec.ground.friction = numbers(s, c, "friction", *f, 1, 3)[0];
        } else {
          ++s.planes;
        }
        return;
      }
      // mass: inertia from geoms, in the groups that count
      if (!world && g.group >= s.groupLo && g.group <= s.groupHi) {
        const UnitMass u = unitMass(s, c, g);
        const double density = number(s, c, a, "density", 1000);
        Mass m;
        m.m = a.count("mass") ? number(s, c, a, "mass", 0) : density * u.volume;
        if (!(m.m >= 0)) throw s.fail(c, "mass and density must be >= 0");
        m.c = R * u.c + p;
        m.Ic = R * u.I * R.transpose() * m.m;
        if (g.type == "mesh" && u.volume == 0) ++s.meshInertia;
        fromGeoms.push_back(m);
      }  // the world's geoms have no mass in MuJoCo
      // drawing: MuJoCo's viewer shows groups 0 to 2; a transparent geom is not drawn
      if (g.group <= 2 && g.rgba(3) > 0) {
        json shape;
        const Vec3 z = R.col(2);
        if (g.type == "sphere") {
          shape = json::array({"sphere", vec(p), g.size(0)});
        } else if (g.type == "capsule" || g.type == "cylinder") {
          const Vec3 h = z * g.size(1);
          shape = json::array({"cyl", json::array({vec(p - h), vec(p + h)}), g.size(0)});
          if (g.type == "capsule") {
            shape.insert(shape.end(), {"sphere", vec(p - h), g.size(0), "sphere", vec(p + h), g.size(0)});
          }
        } else if (g.type == "box") {
          if (robot::signedPermutation(R)) {
            const Vec3 half = R.cwiseAbs() * g.size;
            shape = json::array({"box", json::array({vec(p - half), vec(p + half)})});
          } else {
            shape = robot::boxMesh(R, p, 2 * g.size);
          }
        } else if (g.type == "ellipsoid") {
          // 16 x 8 facets of the unit sphere, stretched: a vertex at each pole, 7 rings of 16
          json vertices = json::array(), triangles = json::array();
          constexpr int kAround = 16, kUp = 8;
          const auto at = [&](const Vec3& unit) { vertices.push_back(vec(R * g.size.cwiseProduct(unit) + p)); };
          at(Vec3::UnitZ());
          for (int i = 1; i < kUp; ++i)
            for (int j = 0; j < kAround; ++j) {
              const double th = kPi * i / kUp, ph = 2 * kPi * j / kAround;
              at(Vec3(std::sin(th) * std::cos(ph), std::sin(th) * std::sin(ph), std::cos(th)));
            }
          at(-Vec3::UnitZ());
          const int south = 2 + (kUp - 1) * kAround;  // 1-based, as the instruction counts
          const auto ring = [&](int i, int j) { return 2 + (i - 1) * kAround + (j % kAround); };
          for (int j = 0; j < kAround; ++j) {
            triangles.push_back({1, ring(1, j), ring(1, j + 1)});
            for (int i = 1; i + 1 < kUp; ++i) {
              triangles.push_back({ring(i, j), ring(i + 1, j), ring(i + 1, j + 1)});
              triangles.push_back({ring(i, j), ring(i + 1, j + 1), ring(i, j + 1)});
            }
            triangles.push_back({ring(kUp - 1, j), south, ring(kUp - 1, j + 1)});
          }
          shape = json::array({"vertices", vertices, "triangles", triangles});
        } else if (g.type == "mesh") {
          const MeshAsset& m = s.meshes.at(g.mesh);
          if (!m.file.empty()) {
            json rows = json::array();
            for (int r = 0; r < 3; ++r) rows.push_back(vec(R.row(r).transpose()));
            shape = json::array({"mesh", {{"file", m.file}, {"scale", vec(m.scale)}, {"position", vec(p)}, {"rotation", rows}, {"colour", "context"}}});
          } else if (m.data) {  // built from the XML: its triangles, placed
            json vertices = json::array(), triangles = json::array();
            for (const Eigen::Vector3f& v : m.data->vertices) vertices.push_back(vec(R * m.scale.cwiseProduct(v.cast<double>()) + p));
            for (const auto& t : m.data->triangles) triangles.push_back({t[0] + 1, t[1] + 1, t[2] + 1});  // 1-based
            shape = json::array({"vertices", vertices, "triangles", triangles});
          }
        }
        if (!shape.is_null()) {
          json list = json::array({"colour", json::array({g.rgba(0), g.rgba(1), g.rgba(2)})});
          if (g.rgba(3) < 1) list.insert(list.end(), {"opacity", g.rgba(3)});  // see-through
          list.insert(list.end(), shape.begin(), shape.end());
          appearance.push_back(list);
        }
      }
      // ground contact: a moving body's geoms that collide with the world's plane
      if (!world && ctx.moving && ((g.contype & s.groundConaffinity) || (g.conaffinity & s.groundContype))) {
        const auto add = [&](const Vec3& local, double radius = 0.0) {
          s.spec.contacts.push_back({ctx.frame.owner, R * local + p, radius});
        };
        if (g.type == "sphere") {
          add(Vec3::Zero(), g.size(0));
          ++s.contactShapes[0];
        } else if (g.type == "capsule") {
          add(Vec3(0, 0, -g.size(1)), g.size(0));
          add(Vec3(0, 0, g.size(1)), g.size(0));
          ++s.contactShapes[1];
        } else if (g.type == "box") {
          for (int k = 0; k < 8; ++k)
            add(Vec3(k & 1 ? g.size.x() : -g.size.x(), k & 2 ? g.size.y() : -g.size.y(), k & 4 ? g.size.z() : -g.size.z()));
          ++s.contactShapes[2];
        } else if (g.type == "cylinder") {
          for (int k = 0; k < 16; ++k) {
            const double t = (k % 8) * (kPi / 4);
            add(Vec3(g.size(0) * std::cos(t), g.size(0) * std::sin(t), k < 8 ? -g.size(1) : g.size(1)));
          }
          ++s.contactShapes[3];
        } else if (g.type == "ellipsoid") {
          // the extreme points in the 6 axis and 8 diagonal directions: D^2 d / |D d|
          for (int dx = -1; dx <= 1; ++dx)
            for (int dy = -1; dy <= 1; ++dy)
              for (int dz = -1; dz <= 1; ++dz) {
                if ((dx != 0) + (dy != 0) + (dz != 0) == 2 || (!dx && !dy && !dz)) continue;
                const Vec3 d(dx, dy, dz), Dd = g.size.cwiseProduct(d);
                add(g.size.cwiseProduct(Dd) / Dd.norm());
              }
          ++s.contactShapes[4];
        } else if (g.type == "mesh") {
          const MeshAsset& m = s.meshes.at(g.mesh);
          if (const std::shared_ptr<const MeshData> mesh = m.mesh()) {
            for (const Vec3& v : robot::meshSupportPoints(*mesh, m.scale)) add(v);
            ++s.contactShapes[5];
          }
        }
      }
    } else if (tag == "body") {
      readBody(s, c, ctx);
    } else if (tag == "site") {
      // a named point of its body, drawn small (View > Sites): at its pos, or the middle of
      // its fromto, with its first size as the radius
      const Attrs a = attributes(s, c, ctx.cls);
      SiteSpec site;
      site.name = get(a, "name").value_or("");
      Vec3 local = vec3(s, c, a, "pos", Vec3::Zero());
      if (const auto f = get(a, "fromto")) {
        const std::vector<double> v = numbers(s, c, "fromto", *f, 6, 6);
        local = 0.5 * (Vec3(v[0], v[1], v[2]) + Vec3(v[3], v[4], v[5]));
      }
      if (const auto z = get(a, "size")) site.size = numbers(s, c, "size", *z, 1, 3)[0];
      if (!(site.size > 0)) throw s.fail(c, "a site's size must be > 0");
      const Eigen::Vector4d rgba = elementRgba(s, c, a);
      site.colour = rgba.head<3>();
      site.opacity = rgba(3);
      site.body = ctx.frame.owner;
      site.position = ctx.frame.R * local + ctx.frame.t;
      Mat3 R = orientation(s, c, a);
      if (const auto f = get(a, "fromto")) {  // its z along the segment, as MuJoCo's
        const std::vector<double> v = numbers(s, c, "fromto", *f, 6, 6);
        const Vec3 d = Vec3(v[3], v[4], v[5]) - Vec3(v[0], v[1], v[2]);
        if (d.norm() > 0) R = zTo(d);
      }
      site.rotation = ctx.frame.R * R;
      if (!site.name.empty()) s.siteIndex[site.name] = static_cast<int>(s.spec.sites.size());
      s.spec.sites.push_back(site);
    } else if (tag == "joint" || tag == "freejoint" || tag == "camera" || tag == "light") {
      // joints are read by readBody; cameras and lights do not change the mechanism
    } else {
      ++s.notModelled["<" + tag + "> element(s) in bodies"];
    }
  };
  forEachChild(s, e, [&](const XMLElement* c) { visit(c, body); });
  if (world) return;
  const int owner = body.frame.owner;
  const bool fromGeom = s.inertiaFromGeom == State::FromGeom::True || (s.inertiaFromGeom == State::FromGeom::Auto && !inertial);
  const auto add = [&](const Mass& m) {
    if (owner < 0)
      s.staticMass += m.m;
    else
      s.masses[static_cast<std::size_t>(owner)].push_back(m);
  };
  if (fromGeom && !fromGeoms.empty()) {
    // one inertia for the body, kept as MuJoCo's compiler keeps it in the body's own frame
    Mass total = robot::combine(fromGeoms);
    const Mat3& R = body.frame.R;
    total.Ic = R * mujocoPrincipalInertia(R.transpose() * total.Ic * R) * R.transpose();
    add(total);
  } else if (!fromGeom && inertial) {
    add(*inertial);
  }
}

void readBody(State& s, const XMLElement* e, const BodyContext& parent) {
  const Attrs a = attributes(s, e, parent.cls);
  BodyContext ctx;
  ctx.cls = e->Attribute("childclass") ? e->Attribute("childclass") : parent.cls;
  if (!s.classes.count(ctx.cls) && e->Attribute("childclass"))
    throw s.fail(e, "childclass '" + ctx.cls + "' is not a <default> class of this model");
  const std::string given = get(a, "name").value_or("");
  const std::string bodyName = uniqueName(s, given.empty() ? "body" + std::to_string(s.spec.bodies.size() + 1) : given);
  if (!given.empty() && bodyName != given) s.renamed.push_back("'" + robot::printable(given) + "' (" + s.where(e) + ") is '" + robot::printable(bodyName) + "'");
  Frame f = parent.frame.then(orientation(s, e, a), vec3(s, e, a, "pos", Vec3::Zero()));
  // the body's joints, in order
  std::vector<const XMLElement*> joints;
  forEachChild(s, e, [&](const XMLElement* c) {
    const std::string tag = c->Name();
    if (tag == "joint" || tag == "freejoint") joints.push_back(c);
  });
  ctx.moving = parent.moving || !joints.empty();
  int unnamed = 0;
  for (std::size_t j = 0; j < joints.size(); ++j) {
    const XMLElement* je = joints[j];
    const Attrs ja = attributes(s, je, ctx.cls);
    const std::string type = std::string(je->Name()) == "freejoint" ? "free" : get(ja, "type").value_or("hinge");
    std::string jointName = get(ja, "name").value_or("");
    if (jointName.empty()) jointName = bodyName + "_joint" + (unnamed++ ? std::to_string(unnamed) : std::string());
    const bool last = j + 1 == joints.size();
    const std::string name = last ? bodyName : uniqueName(s, bodyName + "_" + jointName);
    if (type == "free") {
      if (parent.frame.owner >= 0 || parent.moving || j > 0)
        throw s.fail(je, "a free joint is allowed on a body of the world only (a top-level body), as its first joint");
      const int index = addBody(s, name, -1, Mat3::Identity(), Vec3::Zero(), JointType::Free, jointName);
      BodySpec& b = s.spec.bodies.back();
      b.freePosition = f.t;
      const Eigen::Quaterniond q(f.R);
      b.freeOrientation = Eigen::Vector4d(q.w(), q.x(), q.y(), q.z());
      b.stiffness = number(s, je, ja, "stiffness", 0);
      if (!(b.stiffness >= 0)) throw s.fail(je, "stiffness must be >= 0");
      s.anyJoint[jointName] = index;
      f = {index, Mat3::Identity(), Vec3::Zero()};
      s.floating = true;
    } else if (type == "hinge" || type == "slide") {
      f = addAxisJoint(s, je, ja, f, name, jointName, type == "hinge");
    } else if (type == "ball") {
      f = addBallJoint(s, je, ja, f, name, jointName);
    } else {
      throw s.fail(je, "unknown joint type '" + type + "' (MJCF joints are hinge, slide, ball and free)");
    }
  }
  if (joints.empty()) ++s.welded;
  // a body of several joints is a chain here, its geoms on the chain's last body: MuJoCo's
  // parent filter (its parent's geoms and its own never collide) needs the chain's two ends
  if (joints.size() > 1 && parent.frame.owner >= 0) s.chainEnds.emplace_back(parent.frame.owner, f.owner);
  ctx.frame = f;
  if (!given.empty()) s.bodyFrames[given] = f;
  readBodyContents(s, e, ctx, false);
}

// <equality>: connect, weld, joint and tendon elements become EqualitySpec (soft physics), their
// attributes over the class's <equality> defaults. What depends on the reference pose qpos0
// (a connect's point on body2, a weld's frames without relpose, a tendon's reference length) is
// filled in by resolveEqualities once the tree is complete.
void readEquality(State& s, const XMLElement* e) {
  forEachChild(s, e, [&](const XMLElement* c) {
    const std::string tag = c->Name();
    const char* own = c->Attribute("class");
    const std::string cls = own ? own : "main";
    if (own && !s.classes.count(cls)) throw s.fail(c, "class '" + cls + "' is not a <default> class of this model");
    Attrs a;
    if (const auto k = s.classes.find(cls); k != s.classes.end())
      if (const auto d = k->second.elements.find("equality"); d != k->second.elements.end()) a = d->second;
    for (const tinyxml2::XMLAttribute* at = c->FirstAttribute(); at; at = at->Next()) a[at->Name()] = at->Value();
    EqualitySpec q;
    q.name = get(a, "name").value_or("");
    q.active = flag(s, c, a, "active", true);
    q.soft = softParams(s, c, a, "solref", "solimp");
    const auto need = [&](const char* attr) {
      const auto v = get(a, attr);
      if (!v || v->empty()) throw s.fail(c, std::string("<") + tag + "> needs " + attr);
      return *v;
    };
    const auto frameOf = [&](const std::string& body, const char* attr) -> Frame {
      if (body == "world") return Frame{};
      const auto f = s.bodyFrames.find(body);
      if (f == s.bodyFrames.end()) throw s.fail(c, std::string(attr) + " '" + robot::printable(body) + "' names no body of this model");
      return f->second;
    };
    if (tag == "connect" || tag == "weld") {
      const bool weld = tag == "weld";
      const std::string b1 = need("body1"), b2 = get(a, "body2").value_or("world");
      if (b1 == b2) throw s.fail(c, "body1 and body2 are both '" + robot::printable(b1) + "': a " + tag + " ties two different bodies");
      const Frame f1 = frameOf(b1, "body1"), f2 = frameOf(b2, "body2");
      if (f1.owner == f2.owner) {
        ++s.notModelled["<" + tag + "> element(s) between bodies welded together (both move as one body)"];
        return;
      }
      q.type = weld ? EqualitySpec::Type::Weld : EqualitySpec::Type::Connect;
      q.obj1 = f1.owner;
      q.obj2 = f2.owner;
      PendingEquality p{c, f1, f2};
      if (!weld) {
        if (!get(a, "anchor")) throw s.fail(c, "<connect> needs anchor");
        p.anchor = vec3(s, c, a, "anchor", Vec3::Zero());
      } else {
        p.anchor = vec3(s, c, a, "anchor", Vec3::Zero());
        if (const auto r = get(a, "relpose")) {
          const std::vector<double> v = numbers(s, c, "relpose", *r, 7, 7);
          const Eigen::Vector4d quat(v[3], v[4], v[5], v[6]);
          if (quat.norm() > 0) {  // MuJoCo 2.2.2: a zero quaternion means "from the reference pose"
            p.relpose = true;
            p.relPos = Vec3(v[0], v[1], v[2]);
            p.relQuat = quat.normalized();
          }
        }
        q.torquescale = number(s, c, a, "torquescale", 1);
      }
      s.pendingEqualities.emplace_back(s.spec.equalities.size(), p);
    } else if (tag == "joint" || tag == "tendon") {
      const bool joint = tag == "joint";
      q.type = joint ? EqualitySpec::Type::Joint : EqualitySpec::Type::Tendon;
      const std::string n1 = need(joint ? "joint1" : "tendon1"), n2 = get(a, joint ? "joint2" : "tendon2").value_or("");
      if (!n2.empty() && n1 == n2) throw s.fail(c, "couples '" + robot::printable(n1) + "' with itself");
      const auto index = [&](const std::string& n, const char* attr) {
        if (joint) {
          const auto b = s.bodyOfJoint.find(n);
          if (b == s.bodyOfJoint.end())
            throw s.fail(c, std::string(attr) + " '" + robot::printable(n) + "' names no hinge or slide joint of this model");
          return b->second;
        }
        const auto t = s.tendonIndex.find(n);
        if (t == s.tendonIndex.end()) throw s.fail(c, std::string(attr) + " '" + robot::printable(n) + "' names no tendon of this model");
        return t->second;
      };
      q.obj1 = index(n1, joint ? "joint1" : "tendon1");
      q.obj2 = n2.empty() ? -1 : index(n2, joint ? "joint2" : "tendon2");
      if (const auto t = get(a, "polycoef")) {
        const std::vector<double> v = numbers(s, c, "polycoef", *t, 5, 5);
        std::copy(v.begin(), v.end(), q.poly.begin());
      }
      if (joint) {  // MuJoCo: the joints' qpos0, which is their ref
        q.ref1 = s.spec.bodies[static_cast<std::size_t>(q.obj1)].q0;
        q.ref2 = q.obj2 >= 0 ? s.spec.bodies[static_cast<std::size_t>(q.obj2)].q0 : 0.0;
      } else {
        s.pendingEqualities.emplace_back(s.spec.equalities.size(), PendingEquality{c, {}, {}});
      }
    } else {
      throw s.fail(c, "unknown equality '" + tag + "' (MJCF's are connect, weld, joint and tendon)");
    }
    s.spec.equalities.push_back(q);
  });
}

// What MuJoCo's compiler computes at the reference pose qpos0 (mj_setConst): a connect's point
// on body2 (where body1's anchor is then), a weld's frames (its anchor on body2, and body1's
// frame at that point then, unless relpose gives it), a tendon equality's reference lengths.
void resolveEqualities(State& s) {
  if (s.pendingEqualities.empty()) return;
  ModelSpec probe = s.spec;
  probe.physics.constraints = PhysicsSpec::Constraints::Soft;
  probe.equalities.clear();
  Model m;
  try {
    m = compile(probe);
  } catch (const ModelError&) {
    return;  // checkCompiles reports the model's own error
  }
  Data d(m);
  forwardKinematics(m, d, m.q0);
  if (!m.tendons.empty()) tendonKinematics(m, d, m.q0, Eigen::VectorXd::Zero(m.nv()));
  const auto pose = [&](int body, Mat3& R, Vec3& r) {
    if (body < 0) {
      R.setIdentity();
      r.setZero();
      return;
    }
    const BodyPose p = bodyPose(m, d, body);
    R = p.rotation;
    r = p.position;
  };
  const auto quat = [](const Mat3& R) {
    const Eigen::Quaterniond q(R);
    return Eigen::Vector4d(q.w(), q.x(), q.y(), q.z());
  };
  for (const auto& [k, p] : s.pendingEqualities) {
    EqualitySpec& q = s.spec.equalities[k];
    if (q.type == EqualitySpec::Type::Tendon) {
      q.ref1 = d.tendonLength(q.obj1);
      q.ref2 = q.obj2 >= 0 ? d.tendonLength(q.obj2) : 0.0;
      continue;
    }
    Mat3 R1, R2;
    Vec3 r1, r2;
    pose(q.obj1, R1, r1);
    pose(q.obj2, R2, r2);
    if (q.type == EqualitySpec::Type::Connect) {  // anchor: in body1's MJCF frame
      q.anchor1 = p.f1.R * p.anchor + p.f1.t;
      q.anchor2 = R2.transpose() * (R1 * q.anchor1 + r1 - r2);
      continue;
    }
    // weld: anchor in body2's MJCF frame; body1's frame from relpose or at qpos0
    q.anchor2 = p.f2.R * p.anchor + p.f2.t;
    q.quat2 = quat(p.f2.R);
    if (p.relpose) {
      q.anchor1 = p.f1.R * p.relPos + p.f1.t;
      const Eigen::Quaterniond rel(p.relQuat(0), p.relQuat(1), p.relQuat(2), p.relQuat(3));
      const Eigen::Quaterniond q1 = Eigen::Quaterniond(p.f1.R) * rel;
      q.quat1 = Eigen::Vector4d(q1.w(), q1.x(), q1.y(), q1.z());
    } else {
      q.anchor1 = R1.transpose() * (R2 * q.anchor2 + r2 - r1);
      q.quat1 = quat(R1.transpose() * R2 * p.f2.R);
    }
  }
}

// <keyframe><key>: Articulate keyframes (KeyframeSpec, the app's Keyframes list). qpos is
// Articulate's q as it is (the model's qpos0 where a key gives none); qvel is Articulate's qd
// but for free joints, whose MuJoCo velocity [v (world axes); w (local)] becomes the
// body-coordinate [w; R' v]. An unnamed key is "keyN"; ctrl, act and mocap poses are noted.
void readKeyframes(State& s, const std::vector<const XMLElement*>& keyframes) {
  int nq = 0, nv = 0;
  for (const BodySpec& b : s.spec.bodies) {
    nq += jointNq(b.joint.type);
    nv += jointNv(b.joint.type);
  }
  std::set<std::string> names;
  for (const XMLElement* list : keyframes)
    forEachChild(s, list, [&](const XMLElement* c) {
      const std::string tag = c->Name();
      if (tag != "key") {
        ++s.notModelled["<" + tag + "> element(s) in <keyframe>"];
        return;
      }
      Attrs a;
      for (const tinyxml2::XMLAttribute* at = c->FirstAttribute(); at; at = at->Next()) a[at->Name()] = at->Value();
      KeyframeSpec key;
      const std::string given = get(a, "name").value_or("");
      key.name = given.empty() ? "key" + std::to_string(s.spec.keyframes.size() + 1) : given;
      for (int k = 2; names.count(key.name); ++k) key.name = (given.empty() ? "key" : given) + "_" + std::to_string(k);
      names.insert(key.name);
      key.time = number(s, c, a, "time", 0);
      // qpos0 and zero velocities: the bodies' initial state (MJCF gives them no velocity)
      key.q.resize(nq);
      key.qd.resize(nv);
      int qi = 0, vi = 0;
      for (const BodySpec& b : s.spec.bodies) {
        initialJointState(b, key.q.segment(qi, jointNq(b.joint.type)), key.qd.segment(vi, jointNv(b.joint.type)));
        qi += jointNq(b.joint.type);
        vi += jointNv(b.joint.type);
      }
      const auto count = [](int n) { return static_cast<std::size_t>(n); };
      if (const auto t = get(a, "qpos")) {
        const std::vector<double> v = numbers(s, c, "qpos", *t, count(nq), count(nq));
        key.q = Eigen::Map<const Eigen::VectorXd>(v.data(), nq);
      }
      if (const auto t = get(a, "qvel")) {
        const std::vector<double> v = numbers(s, c, "qvel", *t, count(nv), count(nv));
        key.qd = Eigen::Map<const Eigen::VectorXd>(v.data(), nv);
        qi = vi = 0;
        for (const BodySpec& b : s.spec.bodies) {
          if (b.joint.type == JointType::Free) {
            const Eigen::Vector4d w = key.q.segment<4>(qi + 3);
            const Mat3 R = Eigen::Quaterniond(w(0), w(1), w(2), w(3)).normalized().toRotationMatrix();
            const Vec3 linear = key.qd.segment<3>(vi), angular = key.qd.segment<3>(vi + 3);
            key.qd.segment<3>(vi) = angular;
            key.qd.segment<3>(vi + 3) = R.transpose() * linear;
          }
          qi += jointNq(b.joint.type);
          vi += jointNv(b.joint.type);
        }
      }
      const std::size_t nu = s.spec.actuators.size();
      std::size_t na = 0;
      for (const ActuatorSpec& act : s.spec.actuators) na += act.dynamics != ActuatorSpec::Dynamics::None;
      if (const auto t = get(a, "ctrl")) {
        const std::vector<double> v = numbers(s, c, "ctrl", *t, nu, nu);
        key.ctrl = Eigen::Map<const Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(nu));
      }
      if (const auto t = get(a, "act")) {
        const std::vector<double> v = numbers(s, c, "act", *t, na, na);
        key.act = Eigen::Map<const Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(na));
      }
      for (const char* other : {"mpos", "mquat"})
        if (a.count(other)) ++s.notModelled[std::string("keyframe ") + other + " value(s)"];
      s.spec.keyframes.push_back(std::move(key));
    });
}

// the <tendon> and <actuator> sections (mjcf_actuation.cpp), after the bodies, sites and geoms
void readActuation(State& s, const std::vector<const XMLElement*>& tendons, const std::vector<const XMLElement*>& actuators) {
  mjcf::Context c;
  c.fail = [&s](const XMLElement* e, const std::string& why) { return s.fail(e, why); };
  c.numbers = [&s](const XMLElement* e, const std::string& attr, const std::string& text, std::size_t least,
                   std::size_t most) { return numbers(s, e, attr, text, least, most); };
  c.degrees = s.degrees;
  c.autolimits = s.autolimits;
  c.lengthRangeUseLimit = s.lengthRangeUseLimit;
  c.joints = s.anyJoint;
  c.sites = s.siteIndex;
  c.geoms = s.geomsByName;
  for (const auto& [name, cls] : s.classes) {
    c.classes.insert(name);
    c.actuatorDefaults[name] = cls.actuators;
    if (const auto t = cls.elements.find("tendon"); t != cls.elements.end()) c.tendonDefaults[name] = t->second;
  }
  c.notModelled = &s.notModelled;
  c.skipped = &s.skipped;
  c.where = [&s](const XMLElement* e) { return s.where(e); };
  c.clamps = &s.clamps;
  for (const XMLElement* t : tendons) mjcf::readTendons(c, t, s.spec);
  for (const XMLElement* a : actuators) mjcf::readActuators(c, a, s.spec);
  s.lengthRanges = c.lengthRanges;
  s.tendonIndex = c.tendons;
}

// the muscles without a length range (mjcf_actuation.cpp): found on the complete model by
// actuatorLengthRange, as MuJoCo's compiler finds them by simulating (<compiler lengthrange>)
void computeLengthRanges(State& s) {
  if (s.lengthRanges.empty()) return;
  ModelSpec probe = s.spec;  // their gains stand aside: they need the range being found
  for (const auto& [k, e] : s.lengthRanges) {
    ActuatorSpec& a = probe.actuators[static_cast<std::size_t>(k)];
    a.gain = ActuatorSpec::Gain::Fixed;
    a.bias = ActuatorSpec::Bias::None;
  }
  Model m;
  try {
    m = compile(probe);
  } catch (const ModelError&) {
    return;  // checkCompiles reports the model's own error (a bad name, say), by the file's name
  }
  Data d(m);
  for (const auto& [k, e] : s.lengthRanges) {
    const std::array<double, 2> r = actuatorLengthRange(m, d, k);
    if (!(r[1] - r[0] > 1e-9 * (1 + std::abs(r[0]))))
      throw s.fail(e, "a muscle's length range could not be found: pushed along its moment arms, its length does not "
                      "settle at two different extremes within the joints' limits (an unlimited joint turns on, or it does "
                      "not change); give lengthrange");
    s.spec.actuators[static_cast<std::size_t>(k)].lengthRange = r;
  }
  s.computedRanges = static_cast<int>(s.lengthRanges.size());
}

void readTop(State& s, const XMLElement* root) {
  s.spec.name = root->Attribute("model") ? root->Attribute("model") : std::filesystem::path(s.source).stem().string();
  attributes(s, root, "");
  // compiler and defaults first: they apply to the whole file, wherever they are
  std::vector<const XMLElement*> world, equality, contacts, keyframes, tendons, actuators;
  forEachChild(s, root, [&](const XMLElement* c) {
    const std::string tag = c->Name();
    if (tag == "compiler") readCompiler(s, c);
  });
  if (!s.classes.count("main")) s.classes["main"] = DefaultClass{};
  forEachChild(s, root, [&](const XMLElement* c) {
    const std::string tag = c->Name();
    if (tag == "default") readDefault(s, c, "");
  });
  forEachChild(s, root, [&](const XMLElement* c) {
    const std::string tag = c->Name();
    if (tag == "option") readOption(s, c);
    else if (tag == "asset") readAssets(s, c);
    else if (tag == "worldbody") world.push_back(c);
    else if (tag == "equality") equality.push_back(c);
    else if (tag == "keyframe") keyframes.push_back(c);
    else if (tag == "tendon") tendons.push_back(c);
    else if (tag == "actuator") actuators.push_back(c);
    else if (tag == "contact") contacts.push_back(c);
    else if (tag == "sensor")
      forEachChild(s, c, [&](const XMLElement*) { ++s.notModelled["<" + tag + "> element(s)"]; });
    else if (tag == "size" || tag == "visual" || tag == "statistic" || tag == "extension" || tag == "custom")
      s.skipped["mujoco"].insert("<" + tag + ">");
    else if (tag != "compiler" && tag != "default")
      ++s.notModelled["<" + tag + "> element(s)"];
  });
  if (!s.spec.gravity) s.spec.gravity = Vec3(0, 0, -9.81);
  // the world's geoms first (the ground plane), then its bodies
  for (const XMLElement* w : world) {
    BodyContext ctx;
    ctx.cls = "main";
    readBodyContents(s, w, ctx, true);
  }
  if (!s.ground) s.spec.contacts.clear();
  for (const XMLElement* c : contacts) readContactSection(s, c);
  chooseContactModel(s);
  readActuation(s, tendons, actuators);
  for (const XMLElement* q : equality) readEquality(s, q);
  readKeyframes(s, keyframes);
}

// one note per kind of thing skipped, approximated or not modelled
void importNotes(const State& s, std::vector<std::string>& notes) {
  if (s.floating) notes.push_back("bodies on free joints float: their q is position and quaternion (w x y z) as MuJoCo's qpos, their velocity Articulate's body-coordinate [angular; linear]");
  if (s.welded) notes.push_back(std::to_string(s.welded) + " body(ies) without joints merged into their parent (the world's into the fixed base)");
  if (s.staticMass > 0) notes.push_back("the mass of bodies welded to the world (" + num(s.staticMass) + " kg) is not used: they do not move");
  if (s.ballRanges) notes.push_back("the range of " + std::to_string(s.ballRanges) + " ball joint(s) is not used (MuJoCo limits their rotation angle; Articulate's ball joints take no limits)");
  if (s.ballFriction) notes.push_back("the frictionloss of " + std::to_string(s.ballFriction) + " ball joint(s) is not used (Articulate's ball joints take no friction)");
  if (s.meshInertia) notes.push_back(std::to_string(s.meshInertia) + " mesh geom(s) add no mass: their mesh was not read");
  if (!s.renamed.empty()) {  // MuJoCo refuses a name used twice; Articulate's names are unique too
    std::string list;
    for (std::size_t k = 0; k < s.renamed.size() && k < 5; ++k) list += (k ? ", " : "") + s.renamed[k];
    if (s.renamed.size() > 5) list += ", and " + std::to_string(s.renamed.size() - 5) + " more";
    notes.push_back(std::to_string(s.renamed.size()) + " body name(s) already taken were renamed: " + list);
  }
  if (s.computedRanges)
    notes.push_back("the length range of " + std::to_string(s.computedRanges) + " muscle(s) was found as MuJoCo's compiler finds it "
                    "(its length pushed to its extremes within the joints' limits); give lengthrange to set it");
  if (s.bodyContact)
    notes.push_back(std::to_string(s.spec.geoms.size()) + " geom(s) collide as in MuJoCo 2.2.2 (body-body contact, planes included, in the soft constraint solver)" +
                    (s.spec.physics.filterParent && !s.chainEnds.empty()
                         ? "; " + std::to_string(s.chainEnds.size()) + " body(ies) of several joints, chains here, are excluded from their parent's contacts as MuJoCo's parent filter excludes them"
                         : std::string()));
  else if (!s.geoms.empty() || !s.notColliding.empty())
    notes.push_back("body-body contact is not used: " + s.notColliding);
  if (s.planes && !s.bodyContact) notes.push_back(std::to_string(s.planes) + " plane(s) are not used: Articulate's ground is the horizontal plane z = 0 of the world");
  if (s.ground && !s.spec.contacts.empty()) {
    const int* n = s.contactShapes;
    notes.push_back("geoms touching the world's plane became " + std::to_string(s.spec.contacts.size()) + " ground-contact point(s) on Articulate's compliant ground: " +
                    std::to_string(n[0]) + " sphere(s) and " + std::to_string(n[1]) + " capsule(s) as contact spheres, " + std::to_string(n[2]) +
                    " box(es) by their corners, " + std::to_string(n[3]) + " cylinder(s) by 8 points on each rim, " + std::to_string(n[4]) +
                    " ellipsoid(s) and " + std::to_string(n[5]) + " mesh(es) by their extreme points in 14 directions");
  }
  for (const auto& [what, count] : s.notModelled) notes.push_back(std::to_string(count) + " " + what + " not modelled");
  for (const auto& [element, attrs] : s.skipped) {
    std::string list;
    for (const std::string& a : attrs) list += (list.empty() ? "" : ", ") + a;
    notes.push_back("skipped on <" + element + ">: " + list + " (not read by Articulate)");
  }
  notes.insert(notes.end(), s.meshNotes.begin(), s.meshNotes.end());
  s.clamps.appendNotes(notes);
}

}  // namespace

bool isMjcfPath(const std::string& path) { return iequalsExt(path, ".xml") || iequalsExt(path, ".mjcf"); }

ModelSpec specFromMjcf(const std::string& xml, const std::string& source, MjcfImport* report) {
  State s;
  s.spec.physics.constraints = PhysicsSpec::Constraints::Soft;  // a MuJoCo file means MuJoCo's constraints
  // and MuJoCo's integrator and step where <option> names none: Euler at 2 ms (mjModel's defaults)
  s.spec.simulation.integrator = Integrator::MujocoEuler;
  s.spec.simulation.dt = 0.002;
  s.source = source;
  s.folder = std::filesystem::absolute(source).parent_path().string();
  if (robot::xmlNestingDepth(xml) > 256) throw FormatError(source, "is nested deeper than 256 XML elements");
  if (!robot::validUtf8(xml))
    throw FormatError(source, "is not UTF-8 text without control characters (names and files become the model's, which every format writes as UTF-8)");
  auto doc = std::make_unique<XMLDocument>();
  if (doc->Parse(xml.c_str(), xml.size()) != tinyxml2::XML_SUCCESS)
    throw FormatError(source, std::string("not well-formed XML: ") + (doc->ErrorStr() ? doc->ErrorStr() : "?"));
  const XMLElement* root = doc->RootElement();
  if (!root || std::string(root->Name()) != "mujoco")
    throw FormatError(source, "an MJCF document's root element is <mujoco>, got " +
                                  (root ? std::string("<") + root->Name() + ">" : std::string("no element")));
  s.fileOf[doc.get()] = source;
  s.documents.push_back(std::move(doc));
  std::vector<std::string> chain = {std::filesystem::absolute(source).lexically_normal().string()};
  resolveIncludes(s, root, chain);
  readTop(s, root);
  if (s.spec.bodies.empty()) throw FormatError(source, "the worldbody has no body that moves");
  robot::setInertias(s.spec, s.masses);
  computeLengthRanges(s);
  resolveEqualities(s);
  // MuJoCo's soft limits push a joint that starts past its range back over many steps, as the
  // soft model does; Articulate's exact stops would snap it in the first step, so with them it
  // starts on the range's end
  std::vector<std::string> clamped;
  if (s.spec.physics.constraints == PhysicsSpec::Constraints::Exact) robot::clampToLimits(s.spec, s.jointNames, clamped);
  const std::string renamed = robot::renameBase(s.spec);
  robot::checkCompiles(s.spec, source, "body");
  if (report) {
    importNotes(s, report->notes);
    report->notes.insert(report->notes.end(), clamped.begin(), clamped.end());
    if (!renamed.empty()) report->notes.push_back("the body 'base' is the body '" + renamed + "' ('base' names the fixed base)");
    report->floating = s.floating;
    report->jointNames = s.jointNames;
  }
  return std::move(s.spec);
}

ModelSpec loadMjcf(const std::string& path, MjcfImport* report) { return specFromMjcf(readTextFile(path), path, report); }

}  // namespace art
