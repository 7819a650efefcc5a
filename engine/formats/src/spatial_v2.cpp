#include "articulate/formats/spatial_v2.h"

#include <cmath>
#include <sstream>

#include "articulate/formats/document.h"
#include "articulate/formats/files.h"
#include "articulate/model/appearance.h"
#include "articulate/model/model.h"
#include "articulate/formats/floating_base.h"

namespace art {

namespace {

using nlohmann::json;

double number(const json& j, const std::string& path) {
  if (!j.is_number()) throw FormatError(path, "expected a number, got " + std::string(j.type_name()));
  const double v = j.get<double>();
  if (!std::isfinite(v)) throw FormatError(path, "must be finite");
  return v;
}

const json& field(const json& obj, const char* name, const std::string& path) {
  auto it = obj.find(name);
  if (it == obj.end()) throw FormatError(path, std::string("missing field '") + name + "'");
  return *it;
}

// an n x n row-major nested array
Eigen::MatrixXd matrix(const json& j, int n, const std::string& path) {
  auto bad = [&] {
    return FormatError(path, "expected a " + std::to_string(n) + "x" + std::to_string(n) +
                                 " matrix (array of " + std::to_string(n) + " rows)");
  };
  if (!j.is_array() || j.size() != static_cast<std::size_t>(n)) throw bad();
  Eigen::MatrixXd M(n, n);
  for (int r = 0; r < n; ++r) {
    if (!j[r].is_array() || j[r].size() != static_cast<std::size_t>(n)) throw bad();
    for (int c = 0; c < n; ++c)
      M(r, c) = number(j[r][c], path + "[" + std::to_string(r) + "][" + std::to_string(c) + "]");
  }
  return M;
}

// a list that MATLAB's jsonencode may have flattened to a scalar when it has one entry
const json& asList(const json& j, json& holder) {
  if (j.is_array()) return j;
  holder = json::array({j});
  return holder;
}

Joint joint(const json& j, const std::string& path) {
  Joint jt;
  std::string code;
  if (j.is_string()) {
    code = j.get<std::string>();
  } else if (j.is_object()) {
    const json& c = field(j, "code", path);
    if (!c.is_string()) throw FormatError(path + ".code", "expected a string");
    code = c.get<std::string>();
    if (j.contains("pitch")) jt.pitch = number(j["pitch"], path + ".pitch");
    if (j.contains("pars") && j["pars"].is_object() && j["pars"].contains("pitch"))
      jt.pitch = number(j["pars"]["pitch"], path + ".pars.pitch");
  } else {
    throw FormatError(path, "expected a joint code string or an object with 'code'");
  }
  // spatial_v2 has no free or ball joint (Articulate's "free" and "ball" are not its codes)
  if (!parseJointCode(code, jt.type) || hasQuaternion(jt.type))
    throw FormatError(path, "unknown joint code '" + code + "' (known: " + jointCodeList(false) + ")");
  // spatial_v2's jcalc reads jtyp.pars.pitch for 'H' and fails without it: so does this reader
  const bool hasPitch = j.is_object() && (j.contains("pitch") || (j.contains("pars") && j["pars"].is_object() &&
                                                                   j["pars"].contains("pitch")));
  if (jt.type == JointType::H && !hasPitch)
    throw FormatError(path, "a helical joint 'H' needs its pitch (pars.pitch, metres per radian), "
                            "as spatial_v2's jcalc does");
  return jt;
}

void placementFromSpatial(const Eigen::MatrixXd& X, BodySpec& b, const std::string& path) {
  const Mat3 E = X.topLeftCorner<3, 3>();
  const Mat3 S = -E.transpose() * X.bottomLeftCorner<3, 3>();  // skew(r)
  const double tol = 1e-9 * std::max(1.0, X.cwiseAbs().maxCoeff());
  if (X.topRightCorner<3, 3>().cwiseAbs().maxCoeff() > tol ||
      (X.bottomRightCorner<3, 3>() - E).cwiseAbs().maxCoeff() > tol ||
      (S + S.transpose()).cwiseAbs().maxCoeff() > tol)
    throw FormatError(path, "is not a Plücker coordinate transform [E 0; -E*skew(r) E]");
  b.rotation = E;
  b.translation = Vec3(S(2, 1), S(0, 2), S(1, 0));
}

void placementFromPlanar(const Eigen::MatrixXd& X, BodySpec& b, const std::string& path) {
  const double c = X(1, 1), s = X(1, 2), a = X(1, 0), bb = X(2, 0);
  const double tol = 1e-9 * std::max(1.0, X.cwiseAbs().maxCoeff());
  if (std::abs(X(0, 0) - 1) > tol || std::abs(X(0, 1)) > tol || std::abs(X(0, 2)) > tol ||
      std::abs(X(2, 1) + s) > tol || std::abs(X(2, 2) - c) > tol)
    throw FormatError(path, "is not a planar transform plnr(theta, r)");
  b.rotation << c, s, 0, -s, c, 0, 0, 0, 1;
  b.translation = Vec3(s * a + c * bb, -c * a + s * bb, 0.0);
}

InertiaSpec inertiaFromPlanar(const Eigen::MatrixXd& P, const std::string& path) {
  Mat6 I = Mat6::Zero();
  const double m = P(1, 1);
  if (m != 0.0) {
    if (P(1, 2) != 0.0 || P(2, 1) != 0.0 || P(2, 2) != m)
      throw FormatError(path, "is not a planar rigid-body inertia [I+m|c|^2 -m*cy m*cx; "
                              "-m*cy m 0; m*cx 0 m]");
    const Vec2 c(P(0, 2) / m, -P(0, 1) / m);
    const double Izz = P(0, 0) - m * c.squaredNorm();
    I = spatialInertia(m, Vec3(c.x(), c.y(), 0.0), Mat3::Identity() * Izz);
  } else if (P(0, 1) != 0 || P(0, 2) != 0 || P(1, 0) != 0 || P(2, 0) != 0 || P(1, 2) != 0 ||
             P(2, 1) != 0 || P(2, 2) != 0) {
    throw FormatError(path, "has zero mass, so only its rotational entry (row 1, column 1) may be "
                            "nonzero");
  } else {
    I = spatialInertia(0.0, Vec3::Zero(), Mat3::Identity() * P(0, 0));
  }
  // keep the planar entries exactly as given
  const int idx[3] = {2, 3, 4};
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) I(idx[r], idx[c]) = P(r, c);
  return InertiaSpec::fromMatrix(I);
}

}  // namespace

bool looksLikeSpatialV2(const json& doc) {
  return doc.is_object() && doc.contains("NB") && !doc.contains("format");
}

namespace {

// body i from parent(i), jtype{i}, Xtree{i} and I{i} (n = 6 spatial, 3 planar)
BodySpec readSpatialV2Body(const json& parent, const json& jtype, const json& xtree, const json& inert,
                           int i, const ModelSpec& spec, const std::string& path) {
  auto at = [&](const std::string& f) { return jsonField(path, f); };
  const int n = spec.arithmetic == Arithmetic::Spatial ? 6 : 3;
  const std::string idx = "[" + std::to_string(i) + "]";
  BodySpec b;
  b.name = "body" + std::to_string(i + 1);
  const json& pj = parent[i];
  const double pd = pj.is_number() ? pj.get<double>() : -1.0;
  if (!pj.is_number() || pd != std::floor(pd))
    throw FormatError(at("parent") + idx, "expected an integer body number");
  if (pd < 0 || pd > i) {
    std::ostringstream s;
    s.precision(17);
    s << "must be from 0 to " << i << " (parents precede children), got " << pd;
    throw FormatError(at("parent") + idx, s.str());
  }
  b.parent = static_cast<int>(pd) - 1;
  b.joint = joint(jtype[i], at("jtype") + idx);
  if (isPlanar(b.joint.type) != (spec.arithmetic == Arithmetic::Planar))
    throw FormatError(at("jtype") + idx, "joint '" + std::string(jointCode(b.joint.type)) +
                                             "' does not match the " + std::to_string(n) +
                                             "x" + std::to_string(n) + " Xtree matrices");
  const Eigen::MatrixXd X = matrix(xtree[i], n, at("Xtree") + idx);
  const Eigen::MatrixXd I = matrix(inert[i], n, at("I") + idx);
  if (n == 6) {
    placementFromSpatial(X, b, at("Xtree") + idx);
    b.inertia = InertiaSpec::fromMatrix(I);
  } else {
    placementFromPlanar(X, b, at("Xtree") + idx);
    b.inertia = inertiaFromPlanar(I, at("I") + idx);
  }
  return b;
}

// gc: contact points, {"body": [npt], "point": [npt][3] or [3][npt]}
void readSpatialV2Contacts(const json& gc, int nb, const std::string& path, ModelSpec& spec) {
  auto at = [&](const std::string& f) { return jsonField(path, f); };
  json hb, hp;
  const json& body = asList(field(gc, "body", at("gc")), hb);
  const json& point = field(gc, "point", at("gc"));
  const std::size_t npt = body.size();
  const bool rows3 = point.is_array() && point.size() == 3 && npt != 3 && point[0].is_array() &&
                     point[0].size() == npt;
  for (std::size_t k = 0; k < npt; ++k) {
    const std::string bp = at("gc.body") + "[" + std::to_string(k) + "]";
    const double bd = body[k].is_number() ? body[k].get<double>() : 0.0;
    if (bd != std::floor(bd) || bd < 1 || bd > nb)
      throw FormatError(bp, "expected a body number from 1 to " + std::to_string(nb));
    ContactPointSpec cp;
    cp.body = static_cast<int>(bd) - 1;
    for (int c = 0; c < 3; ++c) {
      const std::string pp = at("gc.point") + "[" + std::to_string(k) + "][" + std::to_string(c) + "]";
      const json* v = nullptr;
      if (rows3) v = &point[c][k];
      else if (point.is_array() && k < point.size() && point[k].is_array() && point[k].size() == 3)
        v = &point[k][c];
      if (!v) throw FormatError(at("gc.point"), "expected one [x, y, z] per contact body");
      cp.point(c) = number(*v, pp);
    }
    spec.contacts.push_back(cp);
  }
}

// appearance: base, and one body entry per body (showmotion's rules)
void readSpatialV2Appearance(const json& a, int nb, const std::string& path, ModelSpec& spec,
                             std::vector<std::string>* notes) {
  auto at = [&](const std::string& f) { return jsonField(path, f); };
  if (a.contains("base")) spec.baseAppearance = a["base"];
  if (a.contains("body")) {
    // showmotion draws body i from appearance.body{i} for every i up to NB, and fails on a
    // shorter list: so does this reader, naming the first body without an entry
    const json& body = a["body"];
    if (!body.is_array())
      throw FormatError(at("appearance.body"), "expected a list with one entry per body (NB = " +
                                                   std::to_string(nb) + ")");
    if (body.size() < spec.bodies.size())
      throw FormatError(at("appearance.body"),
                        "expected " + std::to_string(nb) + " entries (one per body, NB), got " +
                            std::to_string(body.size()) + ": body " +
                            std::to_string(body.size() + 1) + " has no appearance");
    for (std::size_t i = 0; i < spec.bodies.size(); ++i) spec.bodies[i].appearance = body[i];
    if (body.size() > spec.bodies.size() && notes)
      notes->push_back(at("appearance.body") + ": " + std::to_string(body.size()) + " entries for " +
                       std::to_string(nb) + " bodies: the last " +
                       std::to_string(body.size() - spec.bodies.size()) +
                       " are not used (showmotion draws bodies 1 to NB)");
  }
}

// camera: showmotion's camera fields, each checked
void readSpatialV2Camera(const json& cam, int nb, const std::string& path, ModelSpec& spec) {
  auto at = [&](const std::string& f) { return jsonField(path, f); };
  const std::string cp = at("camera");
  if (!cam.is_object()) throw FormatError(cp, "expected an object");
  auto vec3 = [&](const char* f) {
    const json& v = cam[f];
    if (!v.is_array() || v.size() != 3) throw FormatError(cp + "." + f, "expected 3 numbers");
    return Vec3(number(v[0], cp + "." + f + "[0]"), number(v[1], cp + "." + f + "[1]"),
                number(v[2], cp + "." + f + "[2]"));
  };
  for (auto it = cam.begin(); it != cam.end(); ++it) {
    const std::string& k = it.key();
    if (k == "body") {
      const double b = number(*it, cp + ".body");
      if (b != std::floor(b) || b < 0 || b > nb)
        throw FormatError(cp + ".body", "expected a body number from 0 (fixed) to " + std::to_string(nb));
      spec.camera.body = static_cast<int>(b) - 1;
    } else if (k == "trackpoint") {
      spec.camera.trackpoint = vec3("trackpoint");
    } else if (k == "direction") {
      spec.camera.direction = vec3("direction");
    } else if (k == "up") {
      spec.camera.up = vec3("up");
    } else if (k == "zoom") {
      const double z = number(*it, cp + ".zoom");
      if (z <= 0) throw FormatError(cp + ".zoom", "must be > 0");
      spec.camera.zoom = z;
    } else if (k == "locus") {
      if (!it->is_array() || it->size() != 2) throw FormatError(cp + ".locus", "expected 2 numbers");
      spec.camera.locus = Vec2(number((*it)[0], cp + ".locus[0]"), number((*it)[1], cp + ".locus[1]"));
    } else {
      throw FormatError(cp + "." + k, "unknown camera field");
    }
  }
  const CameraSpec& c = spec.camera;
  if (c.direction && c.direction->norm() == 0) throw FormatError(cp + ".direction", "must be nonzero");
  if (c.up && c.up->norm() == 0) throw FormatError(cp + ".up", "must be nonzero");
  if (c.up && c.direction.value_or(Vec3(0, -1, 0.8)).cross(*c.up).norm() == 0)
    throw FormatError(cp + ".up", "must not be parallel to direction");
  if (c.locus && (c.locus->array().abs() > 1).any())
    throw FormatError(cp + ".locus", "must lie in [-1, 1]^2");
}

}  // namespace

ModelSpec specFromSpatialV2(const json& model, const std::string& path, std::vector<std::string>* notes) {
  auto at = [&](const std::string& f) { return jsonField(path, f); };
  if (!model.is_object()) throw FormatError(path, "expected a spatial_v2 model object");
  const json& nbj = field(model, "NB", path);
  if (!nbj.is_number_integer() || nbj.get<long long>() < 0 || nbj.get<long long>() > 100000)
    throw FormatError(at("NB"), "expected an integer from 0 to 100000");
  const int nb = nbj.get<int>();
  json h1, h2, h3, h4;
  const json& parent = asList(field(model, "parent", path), h1);
  const json& jtype = asList(field(model, "jtype", path), h2);
  // MATLAB writes a one-element cell array as the element itself: a single matrix
  auto isMatrix = [](const json& j) {
    return j.is_array() && !j.empty() && j[0].is_array() && !j[0].empty() && j[0][0].is_number();
  };
  const json& xtree0 = field(model, "Xtree", path);
  const json& inert0 = field(model, "I", path);
  const json& xtree = nb == 1 && isMatrix(xtree0) ? (h3 = json::array({xtree0})) : xtree0;
  const json& inert = nb == 1 && isMatrix(inert0) ? (h4 = json::array({inert0})) : inert0;
  for (auto [j, name] : {std::pair{&parent, "parent"}, {&jtype, "jtype"}, {&xtree, "Xtree"},
                         {&inert, "I"}}) {
    if (!j->is_array() || j->size() != static_cast<std::size_t>(nb))
      throw FormatError(at(name), "expected " + std::to_string(nb) + " entries (NB)");
  }
  ModelSpec spec;
  spec.arithmetic = Arithmetic::Spatial;
  if (model.contains("arith")) {
    const json& a = model["arith"];
    if (!a.is_string() || (a != "spatial" && a != "planar"))
      throw FormatError(at("arith"), "expected \"spatial\" or \"planar\"");
    if (a == "planar") spec.arithmetic = Arithmetic::Planar;
  } else if (nb > 0) {
    if (xtree[0].is_array() && xtree[0].size() == 3) spec.arithmetic = Arithmetic::Planar;
  } else if (model.contains("gravity") && model["gravity"].is_array() && model["gravity"].size() == 2) {
    spec.arithmetic = Arithmetic::Planar;
  }
  const int n = spec.arithmetic == Arithmetic::Spatial ? 6 : 3;
  for (int i = 0; i < nb; ++i) spec.bodies.push_back(readSpatialV2Body(parent, jtype, xtree, inert, i, spec, path));
  if (model.contains("gravity")) {
    const json& g = model["gravity"];
    const std::size_t want = n == 6 ? 3 : 2;
    if (!g.is_array() || g.size() != want)
      throw FormatError(at("gravity"), "expected " + std::to_string(want) + " numbers");
    Vec3 gv = Vec3::Zero();
    for (std::size_t k = 0; k < want; ++k)
      gv(k) = number(g[k], at("gravity") + "[" + std::to_string(k) + "]");
    spec.gravity = gv;
  }
  if (model.contains("gc")) readSpatialV2Contacts(model["gc"], nb, path, spec);
  if (model.contains("appearance")) readSpatialV2Appearance(model["appearance"], nb, path, spec, notes);
  if (model.contains("camera")) readSpatialV2Camera(model["camera"], nb, path, spec);
  return spec;
}

using ojson = nlohmann::ordered_json;

namespace {

// removes the `name` instructions (and their argument) of a drawing list, sub-lists included;
// returns how many
int without(const char* name, nlohmann::json& list, int depth = 0) {
  if (!list.is_array() || depth > 64) return 0;
  int removed = 0;
  nlohmann::json out = nlohmann::json::array();
  for (std::size_t k = 0; k < list.size(); ++k) {
    if (list[k].is_array()) {
      removed += without(name, list[k], depth + 1);
      out.push_back(list[k]);
    } else if (list[k] == name && k + 1 < list.size()) {
      ++removed;
      ++k;
    } else {
      out.push_back(list[k]);
    }
  }
  list = std::move(out);
  return removed;
}

}  // namespace

ojson specToSpatialV2(const ModelSpec& original, std::vector<std::string>* notes) {
  for (std::size_t i = 0; i < original.bodies.size(); ++i)
    if (original.bodies[i].joint.type == JointType::Ball)
      throw FormatError("bodies[" + std::to_string(i) + "].joint",
                        "body '" + original.bodies[i].name + "': its ball joint has no spatial_v2 "
                        "form (spatial_v2's joints have one degree of freedom)");
  // spatial_v2 has no free joint: free bodies become its six-joint floatbase emulation
  ModelSpec spec = expandFreeJoints(original);
  // nor meshes: showmotion stops at an instruction it does not know
  int meshes = without("mesh", spec.baseAppearance), opacities = without("opacity", spec.baseAppearance);
  for (BodySpec& b : spec.bodies) {
    meshes += without("mesh", b.appearance);
    opacities += without("opacity", b.appearance);
  }
  if (meshes && notes)
    notes->push_back(std::to_string(meshes) + " mesh drawing(s) are not stored: spatial_v2's showmotion draws no meshes");
  if (!original.sites.empty() && notes)
    notes->push_back(std::to_string(original.sites.size()) + " site(s) are not stored: spatial_v2 has no sites");
  if (!original.actuators.empty() && notes)
    notes->push_back(std::to_string(original.actuators.size()) + " actuator(s) are not stored: spatial_v2 models have none");
  if (!original.tendons.empty() && notes)
    notes->push_back(std::to_string(original.tendons.size()) + " tendon(s) are not stored: spatial_v2 models have none");
  if (opacities && notes)
    notes->push_back(std::to_string(opacities) + " opacity instruction(s) are not stored: showmotion draws every shape opaque");
  const auto spheres = std::count_if(original.contacts.begin(), original.contacts.end(), [](const ContactPointSpec& c) { return c.radius > 0; });
  if (spheres && notes)
    notes->push_back(std::to_string(spheres) + " contact sphere(s) are stored as their centre points: spatial_v2's gc points have no radius");
  const auto jointExtras = std::count_if(original.bodies.begin(), original.bodies.end(), [](const BodySpec& b) {
    return b.damping > 0 || b.friction > 0 || b.armature > 0 || b.stiffness > 0 || !b.limits.empty();
  });
  if (jointExtras && notes)
    notes->push_back("the damping, friction, limits, armature and springs of " + std::to_string(jointExtras) +
                     " joint(s) are not stored: spatial_v2 models have none");
  const bool planar = spec.arithmetic == Arithmetic::Planar;
  auto matrixJson = [](const Eigen::MatrixXd& M) {
    ojson rows = ojson::array();
    for (Eigen::Index r = 0; r < M.rows(); ++r) {
      ojson row = ojson::array();
      for (Eigen::Index c = 0; c < M.cols(); ++c) row.push_back(M(r, c));
      rows.push_back(row);
    }
    return rows;
  };
  ojson out;
  if (!spec.name.empty()) out["name"] = spec.name;
  if (!spec.description.empty()) out["description"] = spec.description;
  out["NB"] = spec.bodies.size();
  out["arith"] = planar ? "planar" : "spatial";
  ojson parent = ojson::array(), jtype = ojson::array(), xtree = ojson::array(),
        inert = ojson::array(), bodyApp = ojson::array();
  for (const BodySpec& b : spec.bodies) {
    parent.push_back(b.parent + 1);
    ojson jt = {{"code", std::string(jointCode(b.joint.type))}};
    if (b.joint.type == JointType::H) jt["pars"] = {{"pitch", b.joint.pitch}};
    jtype.push_back(jt);
    const Mat6 I = b.inertia.spatial();
    if (planar) {
      const PlanarTransform X{b.rotation(0, 0), b.rotation(0, 1), b.translation.head<2>()};
      xtree.push_back(matrixJson(X.matrix()));
      const int idx[3] = {2, 3, 4};
      Mat3 P;
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) P(r, c) = I(idx[r], idx[c]);
      inert.push_back(matrixJson(P));
    } else {
      xtree.push_back(matrixJson(SpatialTransform{b.rotation, b.translation}.matrix()));
      inert.push_back(matrixJson(I));
    }
    bodyApp.push_back(ojson(b.appearance));
  }
  out["parent"] = parent;
  out["jtype"] = jtype;
  out["Xtree"] = xtree;
  out["I"] = inert;
  const Vec3 g = spec.effectiveGravity();
  out["gravity"] = planar ? ojson::array({g.x(), g.y()}) : ojson::array({g.x(), g.y(), g.z()});
  if (!spec.contacts.empty()) {
    ojson body = ojson::array(), point = ojson::array();
    for (const auto& c : spec.contacts) {
      body.push_back(c.body + 1);
      point.push_back({c.point.x(), c.point.y(), c.point.z()});
    }
    out["gc"] = {{"body", body}, {"point", point}};
  }
  out["appearance"] = {{"base", ojson(spec.baseAppearance)}, {"body", bodyApp}};
  if (!spec.camera.empty()) {
    const CameraSpec& c = spec.camera;
    ojson cam = ojson::object();
    auto v3 = [](const Vec3& v) { return ojson::array({v.x(), v.y(), v.z()}); };
    cam["body"] = c.body + 1;
    if (c.trackpoint) cam["trackpoint"] = v3(*c.trackpoint);
    if (c.direction) cam["direction"] = v3(*c.direction);
    if (c.up) cam["up"] = v3(*c.up);
    if (c.zoom) cam["zoom"] = *c.zoom;
    if (c.locus) cam["locus"] = {c.locus->x(), c.locus->y()};
    out["camera"] = cam;
  }
  return out;
}

std::vector<std::string> saveSpatialV2(const std::string& path, const ModelSpec& spec) {
  std::vector<std::string> notes;
  writeFileAtomically(path, formatJson(specToSpatialV2(spec, &notes)));
  return notes;
}

namespace {

// showmotion's motion beside a spatial_v2 model: t (nt, at least 2, not decreasing) and q
// (NB x nt, or nt x NB); `motion` is set when both read
void readSpatialV2Motion(const json& doc, int nb, JsonReader& rd, std::optional<Motion>& motion) {
  if (!doc.contains("t") || !doc.contains("q")) {
    rd.fail("", "a motion needs both 't' and 'q'");
    return;
  }
  if (!doc["t"].is_array() || doc["t"].size() < 2) {
    rd.fail("t", "expected at least 2 sample times");
    return;
  }
  const std::size_t nt = doc["t"].size();
  Eigen::VectorXd t;
  if (!rd.vector(doc["t"], static_cast<int>(nt), "t", t)) return;
  for (std::size_t k = 1; k < nt; ++k)
    if (t(k) < t(k - 1)) {
      rd.fail(jsonIndex("t", k), "sample times must not decrease");
      break;
    }
  if (t(nt - 1) <= t(0)) rd.fail("t", "the last time must be after the first");
  Eigen::MatrixXd q;
  const json& jq = doc["q"];
  const bool rowsAreJoints = jq.is_array() && jq.size() == static_cast<std::size_t>(nb) &&
                             nb != static_cast<int>(nt);
  // the shape first, so that a wrong size gets one clear message
  const std::size_t rows = jq.is_array() ? jq.size() : 0;
  const std::size_t cols = rows && jq[0].is_array() ? jq[0].size() : 0;
  bool shapeOk = rows == static_cast<std::size_t>(rowsAreJoints ? nb : static_cast<int>(nt)) &&
                 cols == (rowsAreJoints ? nt : static_cast<std::size_t>(nb));
  if (!shapeOk) {
    std::ostringstream s;
    s << "expected NB x nt (" << nb << "x" << nt << ") or nt x NB (" << nt << "x" << nb
      << "), got " << rows << "x" << cols;
    rd.fail("q", s.str());
  } else if (rowsAreJoints ? rd.matrix(jq, nb, static_cast<int>(nt), "q", q)
                           : rd.matrix(jq, static_cast<int>(nt), nb, "q", q)) {
    Motion mo;
    mo.t = t;
    mo.q = rowsAreJoints ? Eigen::MatrixXd(q.transpose()) : q;
    motion = mo;
  }
}

// compile()'s refusal of a spatial_v2 model, at the spatial_v2 field the spec's field came from
void reportCompileProblem(const ModelSpec& spec, Diagnostics& problems) {
  try {
    compile(spec);
  } catch (const ModelError& e) {
    const std::string& f = e.field();
    const std::string field = f.rfind("placement", 0) == 0 ? "Xtree"
                              : f.rfind("inertia", 0) == 0 ? "I"
                              : f.rfind("joint", 0) == 0   ? "jtype"
                              : f == "bodies"              ? "NB"
                                                           : f;
    problems.push_back({e.bodyIndex() >= 0 ? jsonIndex(field, static_cast<std::size_t>(e.bodyIndex())) : field,
                        e.bodyIndex() >= 0 ? e.reason() + " (body " + std::to_string(e.bodyIndex() + 1) + ")"
                                           : e.reason()});
  }
}

}  // namespace

bool readSpatialV2Document(const json& doc, LoadedModel& out, Diagnostics& problems) {
  const std::size_t before = problems.size();
  out.format = "spatial_v2";
  try {
    out.spec = specFromSpatialV2(doc, "", &out.notes);
  } catch (const FormatError& e) {
    problems.push_back({e.path(), std::string(e.what()).substr(std::string(e.what()).find(": ") + 2)});
    return false;
  }
  if (doc.contains("name") && doc["name"].is_string()) out.spec.name = doc["name"];
  if (doc.contains("description") && doc["description"].is_string())
    out.spec.description = doc["description"];
  for (std::size_t i = 0; i < out.spec.bodies.size(); ++i)
    interpretAppearance(out.spec.bodies[i].appearance, defaultBodyColour(static_cast<int>(i) + 1),
                        false, "appearance.body[" + std::to_string(i) + "]", &problems);
  interpretAppearance(out.spec.baseAppearance, defaultBodyColour(0), true, "appearance.base", &problems);
  if (doc.contains("t") || doc.contains("q")) {
    JsonReader rd(problems);
    readSpatialV2Motion(doc, static_cast<int>(out.spec.bodies.size()), rd, out.motion);
  }
  if (problems.size() == before) reportCompileProblem(out.spec, problems);
  return problems.size() == before;
}

}  // namespace art
