// MJCF tendons and actuators with MuJoCo 2.2.2's semantics (xml_native_reader.cc OneActuator,
// user_objects.cc mjCTendon and mjCActuator): every actuator element is a parameter set of one
// general actuator, and a default class's actuator elements all write, in order, into the one
// default actuator its members start from. See docs/model-format.md, section MJCF.
#include "mjcf_actuation.h"

#include "articulate/model/model.h"
#include "robot_import.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

#include <Eigen/Geometry>

namespace art::mjcf {

namespace {

using tinyxml2::XMLElement;
constexpr double kPi = 3.14159265358979323846;

const std::set<std::string>& actuatorTags() {
  static const std::set<std::string> tags = {"general", "motor",    "position", "velocity", "intvelocity",
                                             "damper",  "cylinder", "muscle",   "adhesion"};
  return tags;
}

// the attributes each element reads; any other is noted as skipped
const std::set<std::string>& knownActuatorAttributes() {
  static const std::set<std::string> known = {
      "name",  "class",     "group",       "ctrllimited", "forcelimited", "actlimited", "ctrlrange", "forcerange",
      "actrange", "lengthrange", "gear",   "cranklength", "user",         "joint",      "jointinparent",
      "tendon", "slidersite", "cranksite", "site",        "refsite",      "body",       "dyntype",   "gaintype",
      "biastype", "dynprm",   "gainprm",   "biasprm",     "kp",           "kv",         "timeconst", "area",
      "diameter", "bias",     "range",     "force",       "scale",        "lmin",       "lmax",      "vmax",
      "fpmax",  "fvmax",      "gain",      "inheritrange"};
  return known;
}

const std::set<std::string>& knownTendonAttributes() {
  static const std::set<std::string> known = {"name",   "class",        "group",      "limited",      "range",
                                              "solreflimit", "solimplimit", "solreffriction", "solimpfriction",
                                              "frictionloss", "springlength", "width",  "material",     "margin",
                                              "stiffness", "damping",    "rgba",       "user"};
  return known;
}

std::optional<std::string> get(const Attrs& a, const char* name) {
  const auto it = a.find(name);
  if (it == a.end()) return std::nullopt;
  return it->second;
}

Attrs ownAttributes(Context& c, const XMLElement* e, const std::set<std::string>& known) {
  Attrs out;
  for (const tinyxml2::XMLAttribute* a = e->FirstAttribute(); a; a = a->Next()) {
    out[a->Name()] = a->Value();
    if (!known.count(a->Name())) (*c.skipped)[e->Name()].insert(a->Name());
  }
  return out;
}

// an actuator as MuJoCo's reader builds it (mjCActuator): limited flags 0, 1 or 2 (auto)
struct Draft {
  int ctrllimited = 2, forcelimited = 2, actlimited = 2;
  std::array<double, 2> ctrlrange{0, 0}, forcerange{0, 0}, actrange{0, 0}, lengthrange{0, 0};
  std::array<double, 6> gear{1, 0, 0, 0, 0, 0};
  double cranklength = 0;
  std::string target, slidersite, refsite, trntype;  // trntype: the attribute naming the target
  ActuatorSpec::Dynamics dyn = ActuatorSpec::Dynamics::None;
  ActuatorSpec::Gain gain = ActuatorSpec::Gain::Fixed;
  ActuatorSpec::Bias bias = ActuatorSpec::Bias::None;
  std::array<double, 10> dynprm{1, 0, 0, 0, 0, 0, 0, 0, 0, 0}, gainprm{1, 0, 0, 0, 0, 0, 0, 0, 0, 0}, biasprm{};
  std::optional<double> inheritrange;
};

// reads up to n numbers of attribute `name` into v (MuJoCo's ReadAttr, exact or not); false
// when it is absent
template <std::size_t N>
bool readInto(Context& c, const XMLElement* e, const Attrs& a, const char* name, std::array<double, N>& v,
              std::size_t n, bool exact, std::size_t offset = 0) {
  const auto t = get(a, name);
  if (!t) return false;
  const std::vector<double> x = c.numbers(e, name, *t, exact ? n : 1, n);
  std::copy(x.begin(), x.end(), v.begin() + static_cast<std::ptrdiff_t>(offset));
  return true;
}

int limitedFlag(Context& c, const XMLElement* e, const Attrs& a, const char* name, int now) {
  const auto t = get(a, name);
  if (!t) return now;
  if (*t == "true") return 1;
  if (*t == "false") return 0;
  if (*t == "auto") return 2;
  throw c.fail(e, std::string(name) + " must be true, false or auto, got '" + *t + "'");
}

template <class Map>
int mapped(Context& c, const XMLElement* e, const Attrs& a, const char* name, const Map& map, int now) {
  const auto t = get(a, name);
  if (!t) return now;
  for (const auto& [key, value] : map)
    if (*t == key) return value;
  std::string list;
  for (const auto& [key, value] : map) list += (list.empty() ? "" : ", ") + std::string(key);
  throw c.fail(e, std::string(name) + " must be one of " + list + ", got '" + *t + "'");
}

// the parameters one actuator element sets (OneActuator): the common ones, then its shortcut's
void apply(Context& c, const XMLElement* e, const std::string& tag, const Attrs& a, Draft& d) {
  d.ctrllimited = limitedFlag(c, e, a, "ctrllimited", d.ctrllimited);
  d.forcelimited = limitedFlag(c, e, a, "forcelimited", d.forcelimited);
  d.actlimited = limitedFlag(c, e, a, "actlimited", d.actlimited);
  readInto(c, e, a, "ctrlrange", d.ctrlrange, 2, true);
  readInto(c, e, a, "forcerange", d.forcerange, 2, true);
  readInto(c, e, a, "actrange", d.actrange, 2, true);
  readInto(c, e, a, "lengthrange", d.lengthrange, 2, true);
  readInto(c, e, a, "gear", d.gear, 6, false);
  int targets = 0;
  for (const char* t : {"joint", "jointinparent", "tendon", "cranksite", "site", "body"})
    if (const auto v = get(a, t)) {
      d.target = *v;
      d.trntype = t;
      ++targets;
    }
  if (targets > 1) throw c.fail(e, "an actuator acts through one transmission: one of joint, jointinparent, tendon, cranksite, site and body");
  std::array<double, 1> crank{d.cranklength};
  if (readInto(c, e, a, "cranklength", crank, 1, true)) d.cranklength = crank[0];
  if (const auto v = get(a, "slidersite")) d.slidersite = *v;
  if (const auto v = get(a, "refsite")) d.refsite = *v;
  using Dyn = ActuatorSpec::Dynamics;
  using Gain = ActuatorSpec::Gain;
  using Bias = ActuatorSpec::Bias;
  if (tag == "general") {
    static const std::array<std::pair<const char*, int>, 4> dyns = {
        {{"none", 0}, {"integrator", 1}, {"filter", 2}, {"muscle", 3}}};
    static const std::array<std::pair<const char*, int>, 3> gains = {{{"fixed", 0}, {"affine", 1}, {"muscle", 2}}};
    static const std::array<std::pair<const char*, int>, 3> biases = {{{"none", 0}, {"affine", 1}, {"muscle", 2}}};
    d.dyn = static_cast<Dyn>(mapped(c, e, a, "dyntype", dyns, static_cast<int>(d.dyn)));
    d.gain = static_cast<Gain>(mapped(c, e, a, "gaintype", gains, static_cast<int>(d.gain)));
    d.bias = static_cast<Bias>(mapped(c, e, a, "biastype", biases, static_cast<int>(d.bias)));
    readInto(c, e, a, "dynprm", d.dynprm, 10, false);
    readInto(c, e, a, "gainprm", d.gainprm, 10, false);
    readInto(c, e, a, "biasprm", d.biasprm, 10, false);
  } else if (tag == "motor") {
    d.gainprm[0] = 1;
    d.dyn = Dyn::None;
    d.gain = Gain::Fixed;
    d.bias = Bias::None;
  } else if (tag == "position" || tag == "velocity" || tag == "intvelocity") {
    d.biasprm.fill(0);
    readInto(c, e, a, tag == "velocity" ? "kv" : "kp", d.gainprm, 1, true);
    if (tag == "velocity")
      d.biasprm[2] = -d.gainprm[0];
    else
      d.biasprm[1] = -d.gainprm[0];
    if (tag == "position") {  // MuJoCo 2.3.3's position kv: damping in the bias
      std::array<double, 1> kv{0};
      if (readInto(c, e, a, "kv", kv, 1, true)) {
        if (kv[0] < 0) throw c.fail(e, "kv must be >= 0");
        d.biasprm[2] = -kv[0];
      }
    }
    if (tag != "velocity")
      if (const auto t = get(a, "inheritrange")) d.inheritrange = c.numbers(e, "inheritrange", *t, 1, 1)[0];
    d.dyn = tag == "intvelocity" ? Dyn::Integrator : Dyn::None;
    d.gain = Gain::Fixed;
    d.bias = Bias::Affine;
    if (tag == "intvelocity") d.actlimited = 1;
  } else if (tag == "damper") {
    d.gainprm.fill(0);
    std::array<double, 1> kv{0};
    readInto(c, e, a, "kv", kv, 1, true);
    if (kv[0] < 0) throw c.fail(e, "a damper's kv (damping) must be >= 0");
    d.gainprm[2] = -kv[0];
    if (!get(a, "ctrlrange") && d.ctrlrange == std::array<double, 2>{0, 0})
      throw c.fail(e, "a damper needs its ctrlrange");
    if (d.ctrlrange[0] < 0 || d.ctrlrange[1] < 0) throw c.fail(e, "a damper's ctrlrange must not be negative");
    d.ctrllimited = 1;
    d.dyn = Dyn::None;
    d.gain = Gain::Affine;
    d.bias = Bias::None;
  } else if (tag == "cylinder") {
    readInto(c, e, a, "timeconst", d.dynprm, 1, true);
    readInto(c, e, a, "bias", d.biasprm, 3, true);
    readInto(c, e, a, "area", d.gainprm, 1, true);
    std::array<double, 1> diameter{0};
    if (readInto(c, e, a, "diameter", diameter, 1, true)) d.gainprm[0] = kPi / 4 * diameter[0] * diameter[0];
    d.dyn = Dyn::Filter;
    d.gain = Gain::Fixed;
    d.bias = Bias::Affine;
  } else if (tag == "muscle") {
    // MuJoCo's muscle defaults where the parameters still have the general defaults
    if (d.dynprm[0] == 1) d.dynprm[0] = 0.01;
    if (d.dynprm[1] == 0) d.dynprm[1] = 0.04;
    static const double kMuscle[9] = {0.75, 1.05, -1, 200, 0.5, 1.6, 1.5, 1.3, 1.2};
    static const double kGeneral[9] = {1, 0, 0, 0, 0, 0, 0, 0, 0};
    for (std::size_t k = 0; k < 9; ++k)
      if (d.gainprm[k] == kGeneral[k]) d.gainprm[k] = kMuscle[k];
    readInto(c, e, a, "timeconst", d.dynprm, 2, true);
    readInto(c, e, a, "range", d.gainprm, 2, true);
    const char* single[7] = {"force", "scale", "lmin", "lmax", "vmax", "fpmax", "fvmax"};
    for (std::size_t k = 0; k < 7; ++k) {
      std::array<double, 1> v{0};
      if (readInto(c, e, a, single[k], v, 1, true)) d.gainprm[k + 2] = v[0];
    }
    std::copy(d.gainprm.begin(), d.gainprm.begin() + 9, d.biasprm.begin());
    d.dyn = Dyn::Muscle;
    d.gain = Gain::Muscle;
    d.bias = Bias::Muscle;
  }
}

// a limited flag's range as MuJoCo's compiler resolves it: auto means limited when a range is
// given (with autolimits); a limited range needs lower < upper
std::optional<std::array<double, 2>> resolvedRange(Context& c, const XMLElement* e, int limited,
                                                   const std::array<double, 2>& range, const char* what) {
  if (limited == 2) {
    const bool given = !(range[0] == 0 && range[1] == 0);
    if (given && !c.autolimits)
      throw c.fail(e, std::string("has ") + what + "range but not " + what + "limited: give " + what +
                          "limited='true' or 'false', or <compiler autolimits='true'>");
    limited = given ? 1 : 0;
  }
  if (!limited) return std::nullopt;
  if (!(range[0] < range[1]))
    throw c.fail(e, std::string(what) + "range's lower end (" + robot::num(range[0]) + ") must be below its upper end (" +
                        robot::num(range[1]) + ")");
  return range;
}

int lookup(Context& c, const XMLElement* e, const std::map<std::string, int>& names, const std::string& name,
           const std::string& what) {
  const auto it = names.find(name);
  if (it == names.end()) throw c.fail(e, what + " '" + name + "' is not in this model");
  return it->second;
}

ActuatorSpec finish(Context& c, const XMLElement* e, const std::string& tag, const Attrs& own, Draft& d,
                    const ModelSpec& spec) {
  ActuatorSpec out;
  out.name = get(own, "name").value_or("");
  out.shortcut = tag;
  using T = ActuatorSpec::Transmission;
  if (d.target.empty()) throw c.fail(e, "an actuator needs a transmission: joint, jointinparent, tendon, cranksite or site");
  if (!d.slidersite.empty() || d.cranklength != 0)
    if (d.trntype != "cranksite") throw c.fail(e, "cranklength and slidersite belong to a slider-crank (cranksite)");
  if (!d.refsite.empty() && d.trntype != "site") throw c.fail(e, "refsite belongs to a site transmission");
  if (d.trntype == "joint" || d.trntype == "jointinparent") {
    out.transmission = d.trntype == "joint" ? T::Joint : T::JointInParent;
    out.target = lookup(c, e, c.joints, d.target, "joint");
  } else if (d.trntype == "tendon") {
    out.transmission = T::Tendon;
    out.target = lookup(c, e, c.tendons, d.target, "tendon");
  } else if (d.trntype == "cranksite") {
    out.transmission = T::SliderCrank;
    out.target = lookup(c, e, c.sites, d.target, "site");
    if (d.slidersite.empty()) throw c.fail(e, "a slider-crank needs its slidersite");
    out.reference = lookup(c, e, c.sites, d.slidersite, "site");
    if (!(d.cranklength > 0)) throw c.fail(e, "a slider-crank's cranklength must be > 0");
    out.crankLength = d.cranklength;
  } else if (d.trntype == "site") {
    out.transmission = T::Site;
    out.target = lookup(c, e, c.sites, d.target, "site");
    if (!d.refsite.empty()) out.reference = lookup(c, e, c.sites, d.refsite, "site");
  }
  // the joint's or tendon's range, for inheritrange and a muscle's length range
  std::optional<std::array<double, 2>> targetRange;
  if (out.transmission == T::Joint || out.transmission == T::JointInParent) {
    const JointLimits& l = spec.bodies[static_cast<std::size_t>(out.target)].limits;
    if (l.lower && l.upper) targetRange = std::array<double, 2>{*l.lower, *l.upper};
  } else if (out.transmission == T::Tendon) {
    targetRange = spec.tendons[static_cast<std::size_t>(out.target)].range;
  }
  if (d.inheritrange && *d.inheritrange > 0) {  // MuJoCo 3: the range around the target's middle
    if (!targetRange) throw c.fail(e, "inheritrange needs a joint or tendon with a range");
    const double mid = 0.5 * ((*targetRange)[0] + (*targetRange)[1]);
    const double half = 0.5 * *d.inheritrange * ((*targetRange)[1] - (*targetRange)[0]);
    auto& r = tag == "intvelocity" ? d.actrange : d.ctrlrange;
    r = {mid - half, mid + half};
    (tag == "intvelocity" ? d.actlimited : d.ctrllimited) = 1;
  }
  out.ctrlRange = resolvedRange(c, e, d.ctrllimited, d.ctrlrange, "ctrl");
  out.forceRange = resolvedRange(c, e, d.forcelimited, d.forcerange, "force");
  out.actRange = resolvedRange(c, e, d.actlimited, d.actrange, "act");
  if (out.actRange && d.dyn == ActuatorSpec::Dynamics::None)
    throw c.fail(e, "actrange limits an activation, and an actuator with dyntype none has none");
  out.gear = d.gear;
  const int used = gearSize(spec, out);
  for (int g = used; g < 6; ++g)
    if (out.gear[static_cast<std::size_t>(g)] != 0)
      throw c.fail(e, "gear has " + std::to_string(g + 1) + " or more numbers, and this transmission takes " +
                          std::to_string(used) + " (MuJoCo ignores the others)");
  out.dynamics = d.dyn;
  out.gain = d.gain;
  out.bias = d.bias;
  out.dynPrm = d.dynprm;
  out.gainPrm = d.gainprm;
  out.biasPrm = d.biasprm;
  const bool muscle = d.gain == ActuatorSpec::Gain::Muscle || d.bias == ActuatorSpec::Bias::Muscle;
  if (d.lengthrange[0] < d.lengthrange[1]) {
    out.lengthRange = d.lengthrange;
  } else if (muscle) {
    if (c.lengthRangeUseLimit && targetRange)
      out.lengthRange = targetRange;
    else  // found once the model is complete, as MuJoCo's compiler finds it (actuatorLengthRange)
      c.lengthRanges.emplace_back(static_cast<int>(spec.actuators.size()), e);
  }
  return out;
}

}  // namespace

bool isActuatorTag(const std::string& tag) { return actuatorTags().count(tag) > 0; }

void readActuators(Context& c, const XMLElement* section, ModelSpec& spec) {
  for (const XMLElement* e = section->FirstChildElement(); e; e = e->NextSiblingElement()) {
    const std::string tag = e->Name();
    if (!isActuatorTag(tag)) {
      ++(*c.notModelled)["<" + tag + "> element(s) in <actuator>"];
      continue;
    }
    if (tag == "adhesion") {
      ++(*c.notModelled)["<adhesion> actuator(s) (they act through contacts)"];
      continue;
    }
    const Attrs own = ownAttributes(c, e, knownActuatorAttributes());
    const std::string cls = get(own, "class").value_or("main");
    const auto defaults = c.actuatorDefaults.find(cls);
    if (own.count("class") && !c.classes.count(cls))
      throw c.fail(e, "class '" + cls + "' is not a <default> class of this model");
    Draft d;
    if (defaults != c.actuatorDefaults.end())
      for (const auto& [dtag, attrs] : defaults->second) apply(c, e, dtag, attrs, d);
    apply(c, e, tag, own, d);
    spec.actuators.push_back(finish(c, e, tag, own, d, spec));
  }
}

void Clamps::add(const std::string& cause, const std::string& where) {
  auto& [count, first] = byCause[cause];
  if (count++ == 0) first = where;
}

void Clamps::appendNotes(std::vector<std::string>& notes) const {
  for (const auto& [cause, seen] : byCause)
    notes.push_back(std::to_string(seen.first) + " element(s) " + cause + " (the first: " + seen.second + ")");
}

std::optional<SoftParams> softParams(const Numbers& numbers, const Where& where, Clamps& clamps,
                                     const XMLElement* e, const Attrs& a, const char* ref, const char* imp) {
  const auto r = get(a, ref), i = get(a, imp);
  if (!r && !i) return std::nullopt;
  SoftParams p;
  if (r) {
    const std::vector<double> v = numbers(e, ref, *r, 1, 2);
    std::copy(v.begin(), v.end(), p.solref.begin());
  }
  if (i) {
    const std::vector<double> v = numbers(e, imp, *i, 1, 5);
    std::copy(v.begin(), v.end(), p.solimp.begin());
  }
  if ((p.solref[0] > 0) != (p.solref[1] > 0)) {
    clamps.add(std::string("give a ") + ref + " that mixes a time constant or damping ratio > 0 with a value <= 0: "
               "replaced by the default 0.02 1, as MuJoCo replaces it", where(e));
    p.solref = SoftParams{}.solref;
  }
  const char* part[] = {"dmin", "dmax", "width", "midpoint", "power"};
  for (int k : {0, 1, 3})
    if (!(p.solimp[static_cast<std::size_t>(k)] >= 1e-4 && p.solimp[static_cast<std::size_t>(k)] <= 0.9999))
      clamps.add(std::string("give a ") + imp + " " + part[k] + " outside [0.0001, 0.9999]: clamped into it, as MuJoCo clamps it",
                 where(e));
  if (p.solimp[2] < 0) clamps.add(std::string("give a ") + imp + " width < 0: taken as 0, as MuJoCo takes it", where(e));
  if (p.solimp[4] < 1) clamps.add(std::string("give a ") + imp + " power < 1: taken as 1, as MuJoCo takes it", where(e));
  return p;
}

void readTendons(Context& c, const XMLElement* section, ModelSpec& spec) {
  using Kind = TendonSpec::Element::Kind;
  for (const XMLElement* e = section->FirstChildElement(); e; e = e->NextSiblingElement()) {
    const std::string tag = e->Name();
    if (tag != "spatial" && tag != "fixed") {
      ++(*c.notModelled)["<" + tag + "> element(s) in <tendon>"];
      continue;
    }
    const Attrs own = ownAttributes(c, e, knownTendonAttributes());
    const std::string cls = get(own, "class").value_or("main");
    const auto defaults = c.tendonDefaults.find(cls);
    if (own.count("class") && !c.classes.count(cls))
      throw c.fail(e, "class '" + cls + "' is not a <default> class of this model");
    Attrs a = defaults != c.tendonDefaults.end() ? defaults->second : Attrs{};
    for (const auto& [k, v] : own) a[k] = v;
    TendonSpec t;
    t.name = get(a, "name").value_or("");
    const auto number = [&](const char* name, double fallback) {
      const auto v = get(a, name);
      return v ? c.numbers(e, name, *v, 1, 1)[0] : fallback;
    };
    t.stiffness = number("stiffness", 0);
    t.damping = number("damping", 0);
    t.frictionloss = number("frictionloss", 0);
    t.limitSoft = softParams(c.numbers, c.where, *c.clamps, e, a, "solreflimit", "solimplimit");
    t.frictionSoft = softParams(c.numbers, c.where, *c.clamps, e, a, "solreffriction", "solimpfriction");
    t.margin = number("margin", 0);
    if (!(t.margin >= 0)) throw c.fail(e, "margin must be >= 0");
    if (t.stiffness < 0 || t.damping < 0 || t.frictionloss < 0)
      throw c.fail(e, "stiffness, damping and frictionloss must be >= 0");
    if (const auto v = get(a, "springlength")) {
      const std::vector<double> l = c.numbers(e, "springlength", *v, 1, 2);
      if (l.size() == 2 && l[0] != l[1])
        throw c.fail(e, "a springlength dead band (two different lengths, MuJoCo 3) is not modelled: give one length");
      if (l[0] >= 0) t.springLength = l[0];  // MuJoCo: negative is the length at the spring pose
    }
    if (tag == "spatial") {
      t.width = number("width", 0.003);
      if (!(t.width > 0)) throw c.fail(e, "a spatial tendon's width must be > 0");
      if (const auto v = get(a, "rgba")) {
        const std::vector<double> rgba = c.numbers(e, "rgba", *v, 4, 4);
        t.colour = Vec3(rgba[0], rgba[1], rgba[2]).cwiseMax(0.0).cwiseMin(1.0);
      }
    }
    const std::string limited = get(a, "limited").value_or("auto");
    std::array<double, 2> range{0, 0};
    if (const auto v = get(a, "range")) {
      const std::vector<double> r = c.numbers(e, "range", *v, 2, 2);
      range = {r[0], r[1]};
    }
    t.range = resolvedRange(c, e, limited == "true" ? 1 : limited == "false" ? 0 : 2, range, "");
    for (const XMLElement* p = e->FirstChildElement(); p; p = p->NextSiblingElement()) {
      const std::string ptag = p->Name();
      TendonSpec::Element el;
      const auto attr = [&](const char* name) -> std::string {
        const char* v = p->Attribute(name);
        if (!v) throw c.fail(p, std::string("needs its ") + name);
        return v;
      };
      if (tag == "fixed" && ptag == "joint") {
        el.kind = Kind::Joint;
        el.index = lookup(c, p, c.joints, attr("joint"), "joint");
        const char* coef = p->Attribute("coef");
        el.coef = coef ? c.numbers(p, "coef", coef, 1, 1)[0] : 1.0;
      } else if (tag == "spatial" && ptag == "site") {
        el.kind = Kind::Site;
        el.index = lookup(c, p, c.sites, attr("site"), "site");
      } else if (tag == "spatial" && ptag == "pulley") {
        el.kind = Kind::Pulley;
        el.coef = c.numbers(p, "divisor", attr("divisor"), 1, 1)[0];
        if (!(el.coef > 0)) throw c.fail(p, "a pulley's divisor must be > 0");
      } else if (tag == "spatial" && ptag == "geom") {
        const std::string name = attr("geom");
        const auto g = c.geoms.find(name);
        if (g == c.geoms.end()) throw c.fail(p, "geom '" + name + "' is not a named geom of this model");
        if (g->second.type != "sphere" && g->second.type != "cylinder")
          throw c.fail(p, "a tendon wraps around spheres and cylinders, and geom '" + name + "' is a " + g->second.type);
        el.kind = g->second.type == "sphere" ? Kind::Sphere : Kind::Cylinder;
        el.name = name;
        el.body = g->second.owner;
        el.position = g->second.p;
        el.rotation = g->second.R;
        el.radius = g->second.radius;
        if (const char* side = p->Attribute("sidesite")) el.sideSite = lookup(c, p, c.sites, side, "site");
      } else {
        throw c.fail(p, "a " + tag + " tendon's path holds " +
                            (tag == "fixed" ? std::string("<joint> elements") : std::string("<site>, <geom> and <pulley> elements")));
      }
      t.path.push_back(el);
    }
    // MuJoCo's path rules, named by element (compile() checks them again, by index)
    const std::size_t n = t.path.size();
    if (n == 0) throw c.fail(e, "a tendon's path is empty");
    if (tag == "spatial") {
      if (n < 2) throw c.fail(e, "a spatial tendon needs at least two path elements");
      for (std::size_t i = 0; i < n; ++i) {
        const Kind k = t.path[i].kind;
        const auto kindAt = [&](std::size_t j) { return t.path[j].kind; };
        if (k == Kind::Pulley && (i == 0 || i == n - 1 || kindAt(i - 1) == Kind::Pulley))
          throw c.fail(e, "a pulley may not start or end the path, nor follow another pulley");
        if ((k == Kind::Sphere || k == Kind::Cylinder) &&
            (i == 0 || i == n - 1 || kindAt(i - 1) != Kind::Site || kindAt(i + 1) != Kind::Site))
          throw c.fail(e, "a wrapping geom must lie between two sites in the path");
        if (k == Kind::Site && (i == 0 || kindAt(i - 1) == Kind::Pulley) && (i == n - 1 || kindAt(i + 1) == Kind::Pulley))
          throw c.fail(e, "a site in the path needs a neighbour that is not a pulley");
        if (k == Kind::Site && i + 1 < n && kindAt(i + 1) == Kind::Site && t.path[i + 1].index == t.path[i].index)
          throw c.fail(e, "the same site twice in a row");
      }
    }
    if (!t.name.empty()) c.tendons[t.name] = static_cast<int>(spec.tendons.size());
    spec.tendons.push_back(std::move(t));
  }
}

}  // namespace art::mjcf
