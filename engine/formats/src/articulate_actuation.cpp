// The Articulate format's "tendons" and "actuators" (docs/model-format.md, "Actuators and
// tendons"): written in full (every parameter, so that a file means exactly what the model
// means), read with every problem collected. Sites are named by their name, or by their index
// in "sites" when they have none.
#include <array>
#include <optional>

#include "articulate_detail.h"

namespace art::detail {

namespace {

using nlohmann::json;
using ojson = nlohmann::ordered_json;
using Kind = TendonSpec::Element::Kind;
using T = ActuatorSpec::Transmission;

constexpr std::array<const char*, 4> kDynamics = {"none", "integrator", "filter", "muscle"};
constexpr std::array<const char*, 3> kGains = {"fixed", "affine", "muscle"};
constexpr std::array<const char*, 3> kBiases = {"none", "affine", "muscle"};

// element k of `items` (sites, tendons) as a file refers to it: its name, or its index when it
// has none
template <class T>
ojson namedRef(const std::vector<T>& items, int k) {
  const std::string& name = items[static_cast<std::size_t>(k)].name;
  if (name.empty()) return k;
  return name;
}

// the index of the element of `items` that `j` (a name or an index) refers to; -2 after a failure
// naming `path` and the kind `what` ("site", "tendon")
template <class T>
int resolveNamed(JsonReader& rd, const json& j, const std::vector<T>& items, const std::string& path, const char* what) {
  if (j.is_number_integer()) {
    const auto k = j.get<long long>();
    if (k >= 0 && k < static_cast<long long>(items.size())) return static_cast<int>(k);
    rd.fail(path, std::string("is not the index of a ") + what);
    return -2;
  }
  std::string name;
  if (!rd.string(j, path, name)) return -2;
  for (std::size_t k = 0; k < items.size(); ++k)
    if (!name.empty() && items[k].name == name) return static_cast<int>(k);
  rd.fail(path, "'" + name + "' is not a " + what + " of the model");
  return -2;
}

ojson siteRef(const ModelSpec& s, int site) { return namedRef(s.sites, site); }

int resolveSite(JsonReader& rd, const json& j, const ModelSpec& out, const std::string& path) {
  return resolveNamed(rd, j, out.sites, path, "site");
}

ojson range(const std::array<double, 2>& r) { return ojson::array({r[0], r[1]}); }

bool readRange(JsonReader& rd, const json& parent, const char* field, const std::string& p,
               std::optional<std::array<double, 2>>& out) {
  if (!parent.contains(field)) return true;
  Eigen::VectorXd v;
  if (!rd.vector(parent[field], 2, jsonField(p, field), v)) return false;
  if (!(v(0) < v(1))) {
    rd.fail(jsonField(p, field), "its lower end must be below its upper end");
    return false;
  }
  out = std::array<double, 2>{v(0), v(1)};
  return true;
}

template <std::size_t N>
int readName(JsonReader& rd, const json& j, const std::string& path, const std::array<const char*, N>& names) {
  std::string v;
  if (!rd.string(j, path, v)) return -1;
  for (std::size_t k = 0; k < N; ++k)
    if (v == names[k]) return static_cast<int>(k);
  std::string list;
  for (const char* n : names) list += (list.empty() ? "" : ", ") + std::string(n);
  rd.fail(path, "must be one of " + list + ", got '" + v + "'");
  return -1;
}

// up to 10 parameters into p (the rest as they are)
bool readParameters(JsonReader& rd, const json& j, const std::string& path, std::array<double, 10>& p) {
  if (!j.is_array() || j.empty() || j.size() > 10) {
    rd.fail(path, "expected 1 to 10 numbers");
    return false;
  }
  Eigen::VectorXd v;
  if (!rd.vector(j, static_cast<int>(j.size()), path, v)) return false;
  for (Eigen::Index k = 0; k < v.size(); ++k) p[static_cast<std::size_t>(k)] = v(k);
  return true;
}

ojson parameters(const std::array<double, 10>& p) {
  std::size_t n = 10;
  while (n > 1 && p[n - 1] == 0) --n;  // trailing zeros are the default
  ojson a = ojson::array();
  for (std::size_t k = 0; k < n; ++k) a.push_back(p[k]);
  return a;
}

ojson elementJson(const ModelSpec& s, const TendonSpec::Element& e) {
  switch (e.kind) {
    case Kind::Joint: return {{"joint", bodyName(s, e.index)}, {"coef", e.coef}};
    case Kind::Site: return {{"site", siteRef(s, e.index)}};
    case Kind::Pulley: return {{"pulley", e.coef}};
    case Kind::Sphere:
    case Kind::Cylinder: {
      ojson shape = ojson::object();
      if (!e.name.empty()) shape["name"] = e.name;
      shape["body"] = bodyName(s, e.body);
      shape["position"] = vecJson(e.position);
      if (!e.rotation.isIdentity(0)) shape["rotation"] = matJson(e.rotation);
      shape["radius"] = e.radius;
      ojson out = {{e.kind == Kind::Sphere ? "sphere" : "cylinder", shape}};
      if (e.sideSite >= 0) out["side_site"] = siteRef(s, e.sideSite);
      return out;
    }
  }
  return ojson::object();
}

bool readElement(JsonReader& rd, const json& j, const std::string& p, const std::map<std::string, int>& bodies,
                 const ModelSpec& out, TendonSpec::Element& e) {
  if (!rd.object(j, p, {"joint", "coef", "site", "pulley", "sphere", "cylinder", "side_site"})) return false;
  if (j.contains("joint")) {
    e.kind = Kind::Joint;
    e.index = resolveBody(rd, j["joint"], bodies, jsonField(p, "joint"), false);
    if (j.contains("coef") && !rd.number(j["coef"], jsonField(p, "coef"), e.coef)) return false;
    return e.index >= 0;
  }
  if (j.contains("site")) {
    e.kind = Kind::Site;
    e.index = resolveSite(rd, j["site"], out, jsonField(p, "site"));
    return e.index >= 0;
  }
  if (j.contains("pulley")) {
    e.kind = Kind::Pulley;
    if (!rd.number(j["pulley"], jsonField(p, "pulley"), e.coef)) return false;
    if (!(e.coef > 0)) rd.fail(jsonField(p, "pulley"), "the divisor must be > 0");
    return e.coef > 0;
  }
  const char* shape = j.contains("sphere") ? "sphere" : j.contains("cylinder") ? "cylinder" : nullptr;
  if (!shape) {
    rd.fail(p, "needs one of 'joint', 'site', 'pulley', 'sphere' and 'cylinder'");
    return false;
  }
  e.kind = shape[0] == 's' ? Kind::Sphere : Kind::Cylinder;
  const json& g = j[shape];
  const std::string gp = jsonField(p, shape);
  if (!rd.object(g, gp, {"name", "body", "position", "rotation", "radius"})) return false;
  bool ok = true;
  if (g.contains("name")) ok = rd.string(g["name"], jsonField(gp, "name"), e.name) && ok;
  if (!g.contains("body") || !g.contains("radius")) {
    rd.fail(gp, "needs 'body' and 'radius'");
    return false;
  }
  e.body = resolveBody(rd, g["body"], bodies, jsonField(gp, "body"), true);
  ok = e.body >= -1 && ok;
  if (g.contains("position")) ok = rd.vec3(g["position"], jsonField(gp, "position"), e.position) && ok;
  if (g.contains("rotation")) ok = rd.matrix3(g["rotation"], jsonField(gp, "rotation"), e.rotation) && ok;
  ok = rd.number(g["radius"], jsonField(gp, "radius"), e.radius) && ok;
  if (j.contains("side_site")) {
    e.sideSite = resolveSite(rd, j["side_site"], out, jsonField(p, "side_site"));
    ok = e.sideSite >= 0 && ok;
  }
  return ok;
}

}  // namespace

ojson tendonRef(const ModelSpec& s, int tendon) { return namedRef(s.tendons, tendon); }

int resolveTendon(JsonReader& rd, const json& j, const ModelSpec& out, const std::string& path) {
  return resolveNamed(rd, j, out.tendons, path, "tendon");
}

ojson tendonsJson(const ModelSpec& s) {
  ojson out = ojson::array();
  for (const TendonSpec& t : s.tendons) {
    ojson j = ojson::object();
    if (!t.name.empty()) j["name"] = t.name;
    ojson path = ojson::array();
    for (const TendonSpec::Element& e : t.path) path.push_back(elementJson(s, e));
    j["path"] = path;
    if (t.stiffness != 0) j["stiffness"] = t.stiffness;
    if (t.springLength) j["spring_length"] = *t.springLength;
    if (t.damping != 0) j["damping"] = t.damping;
    if (t.range) j["range"] = range(*t.range);
    if (t.frictionloss != 0) j["frictionloss"] = t.frictionloss;
    softRowsJson(t.limitSoft, t.frictionSoft, t.margin, j);
    if (t.width != TendonSpec{}.width) j["width"] = t.width;
    if (t.colour != TendonSpec{}.colour) j["colour"] = vecJson(t.colour);
    out.push_back(j);
  }
  return out;
}

void readTendons(JsonReader& rd, const json& j, const std::map<std::string, int>& bodies, ModelSpec& out) {
  if (!j.is_array()) {
    rd.fail("tendons", "expected an array");
    return;
  }
  for (std::size_t k = 0; k < j.size(); ++k) {
    const std::string p = jsonIndex("tendons", k);
    const json& jt = j[k];
    if (!rd.object(jt, p, {"name", "path", "stiffness", "spring_length", "damping", "range", "frictionloss", "limit_soft",
                           "friction_soft", "margin", "width", "colour"}))
      continue;
    TendonSpec t;
    bool ok = true;
    if (jt.contains("name")) ok = rd.string(jt["name"], jsonField(p, "name"), t.name) && ok;
    if (!jt.contains("path") || !jt["path"].is_array() || jt["path"].empty()) {
      rd.fail(jsonField(p, "path"), "needs a non-empty array of path elements");
      continue;
    }
    for (std::size_t e = 0; e < jt["path"].size(); ++e) {
      TendonSpec::Element el;
      ok = readElement(rd, jt["path"][e], jsonIndex(jsonField(p, "path"), e), bodies, out, el) && ok;
      t.path.push_back(el);
    }
    for (const auto& [field, v] : {std::pair<const char*, double*>{"stiffness", &t.stiffness}, {"damping", &t.damping},
                                   {"frictionloss", &t.frictionloss}, {"width", &t.width}})
      if (jt.contains(field)) ok = rd.nonNegative(jt[field], jsonField(p, field), *v, std::string(field) == "width") && ok;
    if (jt.contains("spring_length")) {
      double l = 0;
      ok = rd.number(jt["spring_length"], jsonField(p, "spring_length"), l) && ok;
      t.springLength = l;
    }
    ok = readRange(rd, jt, "range", p, t.range) && ok;
    ok = readSoftRows(rd, jt, p, out.physics.soft, t.limitSoft, t.frictionSoft, t.margin) && ok;
    if (jt.contains("colour")) ok = rd.vec3(jt["colour"], jsonField(p, "colour"), t.colour) && ok;
    if (ok) out.tendons.push_back(std::move(t));
  }
}

ojson actuatorsJson(const ModelSpec& s) {
  ojson out = ojson::array();
  for (const ActuatorSpec& a : s.actuators) {
    ojson j = ojson::object();
    if (!a.name.empty()) j["name"] = a.name;
    j["type"] = a.shortcut;
    switch (a.transmission) {
      case T::Joint: j["joint"] = bodyName(s, a.target); break;
      case T::JointInParent: j["joint_in_parent"] = bodyName(s, a.target); break;
      case T::Tendon: j["tendon"] = tendonRef(s, a.target); break;
      case T::SliderCrank:
        j["crank_site"] = siteRef(s, a.target);
        j["slider_site"] = siteRef(s, a.reference);
        j["crank_length"] = a.crankLength;
        break;
      case T::Site:
        j["site"] = siteRef(s, a.target);
        if (a.reference >= 0) j["reference_site"] = siteRef(s, a.reference);
        break;
    }
    std::size_t n = 6;
    while (n > 1 && a.gear[n - 1] == 0) --n;
    j["gear"] = ojson(std::vector<double>(a.gear.begin(), a.gear.begin() + static_cast<std::ptrdiff_t>(n)));
    j["dynamics"] = kDynamics[static_cast<std::size_t>(a.dynamics)];
    if (a.dynamics != ActuatorSpec::Dynamics::None || a.dynPrm != ActuatorSpec{}.dynPrm)
      j["dynamics_parameters"] = parameters(a.dynPrm);
    j["gain"] = kGains[static_cast<std::size_t>(a.gain)];
    j["gain_parameters"] = parameters(a.gainPrm);
    j["bias"] = kBiases[static_cast<std::size_t>(a.bias)];
    if (a.bias != ActuatorSpec::Bias::None || a.biasPrm != ActuatorSpec{}.biasPrm) j["bias_parameters"] = parameters(a.biasPrm);
    if (a.ctrlRange) j["ctrl_range"] = range(*a.ctrlRange);
    j["initial_ctrl"] = a.ctrl0;  // always: a sweep's pointer reaches it
    if (a.forceRange) j["force_range"] = range(*a.forceRange);
    if (a.actRange) j["act_range"] = range(*a.actRange);
    if (a.lengthRange) j["length_range"] = range(*a.lengthRange);
    out.push_back(j);
  }
  return out;
}

// an actuator: its shortcut's parameters ("motor": gain 1; "position": kp, kv; "velocity": kv),
// then whatever the object gives explicitly
void readActuators(JsonReader& rd, const json& j, const std::map<std::string, int>& bodies, ModelSpec& out) {
  if (!j.is_array()) {
    rd.fail("actuators", "expected an array");
    return;
  }
  for (std::size_t k = 0; k < j.size(); ++k) {
    const std::string p = jsonIndex("actuators", k);
    const json& ja = j[k];
    if (!rd.object(ja, p, {"name", "type", "joint", "joint_in_parent", "tendon", "crank_site", "slider_site",
                           "crank_length", "site", "reference_site", "gear", "kp", "kv", "dynamics",
                           "dynamics_parameters", "gain", "gain_parameters", "bias", "bias_parameters", "ctrl_range",
                           "force_range", "act_range", "length_range", "initial_ctrl"}))
      continue;
    ActuatorSpec a;
    bool ok = true;
    if (ja.contains("name")) ok = rd.string(ja["name"], jsonField(p, "name"), a.name) && ok;
    if (ja.contains("type")) ok = rd.string(ja["type"], jsonField(p, "type"), a.shortcut) && ok;
    double kp = 0, kv = 0;
    if (ja.contains("kp")) ok = rd.nonNegative(ja["kp"], jsonField(p, "kp"), kp, false) && ok;
    if (ja.contains("kv")) ok = rd.nonNegative(ja["kv"], jsonField(p, "kv"), kv, false) && ok;
    if (a.shortcut == "position") {
      a.gainPrm[0] = kp;
      a.bias = ActuatorSpec::Bias::Affine;
      a.biasPrm[1] = -kp;
      a.biasPrm[2] = -kv;
    } else if (a.shortcut == "velocity") {
      a.gainPrm[0] = kv;
      a.bias = ActuatorSpec::Bias::Affine;
      a.biasPrm[2] = -kv;
    } else if ((ja.contains("kp") || ja.contains("kv"))) {
      rd.fail(p, "kp and kv belong to a \"position\" or \"velocity\" actuator");
      ok = false;
    }
    int transmissions = 0;
    if (ja.contains("joint") || ja.contains("joint_in_parent")) {
      const char* f = ja.contains("joint") ? "joint" : "joint_in_parent";
      a.transmission = ja.contains("joint") ? T::Joint : T::JointInParent;
      a.target = resolveBody(rd, ja[f], bodies, jsonField(p, f), false);
      ok = a.target >= 0 && ok;
      transmissions += ja.contains("joint") + ja.contains("joint_in_parent");
    }
    if (ja.contains("tendon")) {
      ++transmissions;
      a.transmission = T::Tendon;
      a.target = resolveTendon(rd, ja["tendon"], out, jsonField(p, "tendon"));
      ok = a.target >= 0 && ok;
    }
    if (ja.contains("crank_site")) {
      ++transmissions;
      a.transmission = T::SliderCrank;
      a.target = resolveSite(rd, ja["crank_site"], out, jsonField(p, "crank_site"));
      if (!ja.contains("slider_site") || !ja.contains("crank_length")) {
        rd.fail(p, "a slider-crank needs 'slider_site' and 'crank_length'");
        ok = false;
      } else {
        a.reference = resolveSite(rd, ja["slider_site"], out, jsonField(p, "slider_site"));
        ok = rd.nonNegative(ja["crank_length"], jsonField(p, "crank_length"), a.crankLength, true) && a.reference >= 0 && ok;
      }
      ok = a.target >= 0 && ok;
    }
    if (ja.contains("site")) {
      ++transmissions;
      a.transmission = T::Site;
      a.target = resolveSite(rd, ja["site"], out, jsonField(p, "site"));
      if (ja.contains("reference_site")) {
        a.reference = resolveSite(rd, ja["reference_site"], out, jsonField(p, "reference_site"));
        ok = a.reference >= 0 && ok;
      }
      ok = a.target >= 0 && ok;
    }
    if (transmissions != 1) {
      rd.fail(p, "needs one transmission: 'joint', 'joint_in_parent', 'tendon', 'crank_site' or 'site'");
      continue;
    }
    if (ja.contains("gear")) {
      const json& g = ja["gear"];
      Eigen::VectorXd v;
      if (!g.is_array() || g.empty() || g.size() > 6) {
        rd.fail(jsonField(p, "gear"), "expected 1 to 6 numbers");
        ok = false;
      } else if (rd.vector(g, static_cast<int>(g.size()), jsonField(p, "gear"), v)) {
        a.gear.fill(0);
        for (Eigen::Index i = 0; i < v.size(); ++i) a.gear[static_cast<std::size_t>(i)] = v(i);
      }
    }
    if (ja.contains("dynamics")) {
      const int d = readName(rd, ja["dynamics"], jsonField(p, "dynamics"), kDynamics);
      if (d >= 0) a.dynamics = static_cast<ActuatorSpec::Dynamics>(d);
      ok = d >= 0 && ok;
    }
    if (ja.contains("gain")) {
      const int g = readName(rd, ja["gain"], jsonField(p, "gain"), kGains);
      if (g >= 0) a.gain = static_cast<ActuatorSpec::Gain>(g);
      ok = g >= 0 && ok;
    }
    if (ja.contains("bias")) {
      const int b = readName(rd, ja["bias"], jsonField(p, "bias"), kBiases);
      if (b >= 0) a.bias = static_cast<ActuatorSpec::Bias>(b);
      ok = b >= 0 && ok;
    }
    if (ja.contains("dynamics_parameters"))
      ok = readParameters(rd, ja["dynamics_parameters"], jsonField(p, "dynamics_parameters"), a.dynPrm) && ok;
    if (ja.contains("gain_parameters"))
      ok = readParameters(rd, ja["gain_parameters"], jsonField(p, "gain_parameters"), a.gainPrm) && ok;
    if (ja.contains("bias_parameters"))
      ok = readParameters(rd, ja["bias_parameters"], jsonField(p, "bias_parameters"), a.biasPrm) && ok;
    ok = readRange(rd, ja, "ctrl_range", p, a.ctrlRange) && ok;
    if (ja.contains("initial_ctrl")) ok = rd.number(ja["initial_ctrl"], jsonField(p, "initial_ctrl"), a.ctrl0) && ok;
    ok = readRange(rd, ja, "force_range", p, a.forceRange) && ok;
    ok = readRange(rd, ja, "act_range", p, a.actRange) && ok;
    ok = readRange(rd, ja, "length_range", p, a.lengthRange) && ok;
    if (ok) out.actuators.push_back(a);
  }
}

}  // namespace art::detail
