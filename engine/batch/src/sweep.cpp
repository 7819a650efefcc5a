#include "articulate/batch/sweep.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <tuple>
#include <variant>

#include <unistd.h>

#include "articulate/formats/articulate.h"
#include "articulate/formats/files.h"
#include "articulate/formats/json.h"
#include "articulate/formats/urdf.h"
#include "articulate/formulations/tree_batch.h"
#include "articulate/model/model.h"

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, ".arec files are written in host order");

namespace art::sweep {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

// -------------------------------------------------------------------------- reading the file

// errors name the sweep file and the JSON path inside it
struct Reader {
  std::string file;
  [[noreturn]] void fail(const std::string& where, const std::string& why) const {
    throw FormatError(file, (where.empty() ? "" : where + ": ") + why);
  }
  double number(const json& j, const std::string& where) const {
    if (!j.is_number()) fail(where, "expected a number, got " + messageValue(j.dump()));
    const double x = j.get<double>();
    if (!std::isfinite(x)) fail(where, "must be finite");
    return x;
  }
  // a whole number from 0 to `most`
  long count(const json& j, const std::string& where, long most = std::numeric_limits<int>::max()) const {
    if (!j.is_number_integer() && !j.is_number_unsigned()) fail(where, "expected a whole number, got " + messageValue(j.dump()));
    if (j.is_number_integer() && !j.is_number_unsigned() && j.get<long long>() < 0)
      fail(where, "must be >= 0, got " + messageValue(j.dump()));
    if (j.get<unsigned long long>() > static_cast<unsigned long long>(most))
      fail(where, "must be at most " + std::to_string(most) + ", got " + messageValue(j.dump()));
    return static_cast<long>(j.get<unsigned long long>());
  }
  std::string text(const json& j, const std::string& where) const {
    if (!j.is_string()) fail(where, "expected a string, got " + messageValue(j.dump()));
    return j.get<std::string>();
  }
  void only(const json& object, const std::string& where, std::initializer_list<const char*> allowed) const {
    for (auto it = object.begin(); it != object.end(); ++it) {
      const std::string& key = it.key();
      if (std::none_of(allowed.begin(), allowed.end(), [&](const char* a) { return key == a; })) {
        std::string list;
        for (const char* a : allowed) list += std::string(list.empty() ? "" : ", ") + a;
        fail(where, "unknown field '" + key + "' (expected " + list + ")");
      }
    }
  }
};

std::string numberText(double x);

constexpr long kMaxRuns = 1000000000;  // runs of one sweep
constexpr double kMaxSamples = 1e12;   // samples of one run

// splitmix64: decorrelates the seeds of the parameters' generators
std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// uniform on [0, 1) from the top 53 bits: the same numbers on every platform (unlike
// std::uniform_real_distribution, whose algorithm the standard leaves open)
double unit(std::mt19937_64& g) { return static_cast<double>(g() >> 11) * 0x1.0p-53; }

std::vector<json> parameterValues(const Reader& r, const json& p, const std::string& where,
                                  std::uint64_t seed, std::size_t index) {
  const int kinds = int(p.contains("values")) + int(p.contains("range")) + int(p.contains("random"));
  if (kinds != 1) r.fail(where, "needs exactly one of 'values', 'range' or 'random'");
  std::vector<json> out;
  if (p.contains("values")) {
    const json& v = p["values"];
    if (!v.is_array()) r.fail(where + ".values", "expected a list");
    if (v.empty()) r.fail(where + ".values", "is empty");
    for (std::size_t k = 0; k < v.size(); ++k) {
      if (v[k].is_number()) r.number(v[k], jsonIndex(where + ".values", k));
      else if (!v[k].is_string() && !v[k].is_boolean())
        r.fail(jsonIndex(where + ".values", k), "expected a number, a string or a boolean");
      out.push_back(v[k]);
    }
    return out;
  }
  if (p.contains("range")) {
    const std::string at = where + ".range";
    const json& g = p["range"];
    if (!g.is_object()) r.fail(at, "expected an object with from, to and count or step");
    r.only(g, at, {"from", "to", "count", "step"});
    if (!g.contains("from") || !g.contains("to")) r.fail(at, "needs 'from' and 'to'");
    const double a = r.number(g["from"], at + ".from"), b = r.number(g["to"], at + ".to");
    if (g.contains("count") == g.contains("step")) r.fail(at, "needs exactly one of 'count' or 'step'");
    if (g.contains("count")) {
      const long n = r.count(g["count"], at + ".count");
      if (n == 0) r.fail(at, "the range is empty (count 0)");
      if (n > 100000000) r.fail(at + ".count", "is more than 1e8 values");
      // (a (n-1-k) + b k) / (n-1): both ends exact, and 0.3 rather than 0.30000000000000004
      // for 0..3 in 11 (a + k (b - a) / (n-1) rounds twice)
      const double m = static_cast<double>(n > 1 ? n - 1 : 1);
      for (long k = 0; k < n; ++k)
        out.push_back((a * (m - static_cast<double>(k)) + b * static_cast<double>(k)) / m);
      return out;
    }
    const double h = r.number(g["step"], at + ".step");
    if (h == 0 || (b - a) / h < 0 || !std::isfinite((b - a) / h))
      r.fail(at, "the range is empty (from " + numberText(a) + " to " + numberText(b) + " in steps of " +
                     numberText(h) + ")");
    const double steps = std::floor((b - a) / h * (1 + 1e-12) + 1e-9);
    if (steps >= 1e8) r.fail(at, "is more than 1e8 values");
    for (long k = 0; k <= static_cast<long>(steps); ++k) out.push_back(a + h * static_cast<double>(k));
    return out;
  }
  const std::string at = where + ".random";
  const json& d = p["random"];
  if (!d.is_object()) r.fail(at, "expected an object: {\"uniform\": [low, high]} or {\"normal\": [mean, std]}, and count");
  r.only(d, at, {"uniform", "normal", "count"});
  if (d.contains("uniform") == d.contains("normal")) r.fail(at, "needs exactly one of 'uniform' or 'normal'");
  if (!d.contains("count")) r.fail(at, "needs 'count'");
  const long n = r.count(d["count"], at + ".count");
  if (n == 0) r.fail(at, "the range is empty (count 0)");
  if (n > 100000000) r.fail(at + ".count", "is more than 1e8 values");
  const bool uniform = d.contains("uniform");
  const std::string kind = uniform ? "uniform" : "normal";
  const json& ab = d[kind];
  if (!ab.is_array() || ab.size() != 2) r.fail(at + "." + kind, "expected two numbers");
  const double a = r.number(ab[0], at + "." + kind + "[0]"), b = r.number(ab[1], at + "." + kind + "[1]");
  if (uniform && !(b > a)) r.fail(at + ".uniform", "the range is empty (high must exceed low)");
  if (!uniform && !(b >= 0)) r.fail(at + ".normal", "the standard deviation must be >= 0");
  std::mt19937_64 g(mix(seed ^ mix(index)));
  for (long k = 0; k < n; ++k) {
    if (uniform) {
      out.push_back(a + (b - a) * unit(g));
    } else {  // Box-Muller, one of the pair
      const double u1 = 1.0 - unit(g), u2 = unit(g);
      out.push_back(a + b * std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2));
    }
  }
  return out;
}

std::string kindName(Metric::Kind k) {
  switch (k) {
    case Metric::Kind::Final: return "final";
    case Metric::Kind::Max: return "max";
    case Metric::Kind::Min: return "min";
    case Metric::Kind::Mean: return "mean";
    case Metric::Kind::Period: return "period";
    case Metric::Kind::EnergyDrift: return "energy_drift";
    case Metric::Kind::FirstContact: return "first_contact";
  }
  return "";
}

Metric readMetric(const Reader& r, const json& m, const std::string& where) {
  Metric out;
  if (m.is_string()) {
    const std::string s = m.get<std::string>();
    if (s == "energy_drift") out.kind = Metric::Kind::EnergyDrift;
    else if (s == "first_contact") out.kind = Metric::Kind::FirstContact;
    else r.fail(where, "unknown metric '" + s + "' (expected energy_drift, first_contact or an object such as {\"max\": \"q0\"})");
    return out;
  }
  if (!m.is_object() || m.size() != 1)
    r.fail(where, "expected \"energy_drift\", \"first_contact\" or one of {\"final\" | \"max\" | \"min\" | \"mean\" | \"period\": SERIES}");
  const std::string key = m.begin().key();
  const std::pair<const char*, Metric::Kind> kinds[] = {{"final", Metric::Kind::Final}, {"max", Metric::Kind::Max},
                                                        {"min", Metric::Kind::Min},     {"mean", Metric::Kind::Mean},
                                                        {"period", Metric::Kind::Period}};
  bool known = false;
  for (const auto& [name, kind] : kinds)
    if (key == name) out.kind = kind, known = true;
  if (!known) r.fail(where, "unknown metric '" + key + "' (expected final, max, min, mean or period)");
  out.series = r.text(m.begin().value(), where + "." + key);
  return out;
}

// The file's document with what was left to defaults spelled out (model absolute, metrics
// listed): what RESULTS/sweep.json stores, and what a rerun must match
void parseDocument(SweepSpec& s, const Reader& r) {
  const json& d = s.document;
  if (!d.is_object()) r.fail("", "expected a JSON object");
  r.only(d, "", {"format", "version", "model", "base", "model_fingerprint", "parameters", "combine", "seed",
                 "duration", "integrator", "dt", "rtol", "atol", "every", "metrics", "recordings", "vectorise", "description"});
  if (d.contains("model_fingerprint")) r.text(d["model_fingerprint"], "model_fingerprint");
  if (!d.contains("format") || d["format"] != kSweepFormatName)
    r.fail("format", std::string("expected \"") + kSweepFormatName + "\"");
  if (d.contains("version") && d["version"] != 1) r.fail("version", "expected 1");
  if (!d.contains("model")) r.fail("model", "is missing (the base model file)");
  s.model = r.text(d["model"], "model");
  if (d.contains("base")) {  // a URDF base model's base (urdf.h: UrdfBase), "auto" by default
    s.urdfBase = r.text(d["base"], "base");
    UrdfBase b;
    if (!parseUrdfBase(s.urdfBase, b)) r.fail("base", "expected \"auto\", \"fixed\" or \"floating\", got \"" + s.urdfBase + "\"");
    if (!isUrdfPath(s.model)) r.fail("base", "is for a URDF base model only (" + s.model + " says its base itself)");
  }
  if (!d.contains("duration")) r.fail("duration", "is missing (simulated seconds per run)");
  s.duration = r.number(d["duration"], "duration");
  if (!(s.duration > 0)) r.fail("duration", "must be > 0");
  if (d.contains("combine")) {
    const std::string c = r.text(d["combine"], "combine");
    if (c != "grid" && c != "zip") r.fail("combine", "expected \"grid\" or \"zip\", got \"" + c + "\"");
    s.grid = c == "grid";
  }
  if (d.contains("seed")) {  // any 64-bit unsigned number
    if (!d["seed"].is_number_unsigned() && !(d["seed"].is_number_integer() && d["seed"].get<long long>() >= 0))
      r.fail("seed", "expected a whole number from 0 to 2^64 - 1, got " + messageValue(d["seed"].dump()));
    s.seed = d["seed"].get<std::uint64_t>();
  }
  if (d.contains("integrator")) s.simulation.integrator = r.text(d["integrator"], "integrator");
  for (const auto& [key, field] : {std::pair<const char*, double*>{"dt", &s.simulation.dt},
                                   {"rtol", &s.simulation.rtol}, {"atol", &s.simulation.atol}}) {
    if (!d.contains(key)) continue;
    *field = r.number(d[key], key);
    if (!(*field > 0)) r.fail(key, "must be > 0");
  }
  if (d.contains("every")) {
    s.every = static_cast<int>(r.count(d["every"], "every"));
    if (s.every < 1) r.fail("every", "must be >= 1");
  }
  s.simulation.every = s.every;
  for (const auto& [key, field] : {std::pair<const char*, bool*>{"recordings", &s.recordings}, {"vectorise", &s.vectorise}}) {
    if (!d.contains(key)) continue;
    if (!d[key].is_boolean()) r.fail(key, "expected true or false");
    *field = d[key].get<bool>();
  }
  if (d.contains("metrics")) {
    if (!d["metrics"].is_array()) r.fail("metrics", "expected a list");
    for (std::size_t k = 0; k < d["metrics"].size(); ++k)
      s.metrics.push_back(readMetric(r, d["metrics"][k], jsonIndex("metrics", k)));
  }
  std::set<std::string> names = {"run", "status", "end_time", "steps", "reason"};
  for (const Metric& m : s.metrics) names.insert(m.column());
  if (d.contains("parameters") && !d["parameters"].is_array()) r.fail("parameters", "expected a list");
  const json params = d.value("parameters", json::array());
  for (std::size_t k = 0; k < params.size(); ++k) {
    std::string where = jsonIndex("parameters", k);
    const json& p = params[k];
    if (!p.is_object()) r.fail(where, "expected an object");
    r.only(p, where, {"name", "pointer", "initial_q", "initial_qd", "values", "range", "random"});
    Parameter out;
    const int targets = int(p.contains("pointer")) + int(p.contains("initial_q")) + int(p.contains("initial_qd"));
    if (targets != 1) r.fail(where, "needs exactly one of 'pointer', 'initial_q' or 'initial_qd'");
    if (p.contains("pointer")) {
      out.pointer = r.text(p["pointer"], where + ".pointer");
      out.name = out.pointer;
    } else {
      const bool position = p.contains("initial_q");
      out.target = position ? Target::InitialQ : Target::InitialQd;
      out.index = static_cast<int>(r.count(p[position ? "initial_q" : "initial_qd"], where + (position ? ".initial_q" : ".initial_qd")));
      out.name = std::string(position ? "q0" : "qd0") + "[" + std::to_string(out.index) + "]";
    }
    if (p.contains("name")) out.name = r.text(p["name"], where + ".name");
    if (out.name.empty()) r.fail(where + ".name", "is empty");
    where += " '" + out.name + "'";
    if (!names.insert(out.name).second) r.fail(where, "the name is used by another column");
    out.values = parameterValues(r, p, where, s.seed, k);
    if (!out.values.empty() && out.target != Target::Pointer)
      for (const json& v : out.values)
        if (!v.is_number()) r.fail(where, "an initial state takes numbers, not " + messageValue(v.dump()));
    s.parameters.push_back(std::move(out));
  }
  if (!s.grid && !s.parameters.empty())
    for (std::size_t k = 1; k < s.parameters.size(); ++k)
      if (s.parameters[k].values.size() != s.parameters[0].values.size())
        r.fail(jsonIndex("parameters", k) + " '" + s.parameters[k].name + "'",
               "has " + std::to_string(s.parameters[k].values.size()) + " values, but zip needs as many as parameters[0] '" +
                   s.parameters[0].name + "' (" + std::to_string(s.parameters[0].values.size()) + ")");
  // at most kMaxRuns runs: the runner keeps a bit per run and the table a row
  long total = 1;
  for (const Parameter& p : s.parameters) {
    const long n = s.grid ? static_cast<long>(p.values.size()) : 1;
    if (total > kMaxRuns / n) r.fail("parameters", "the grid has more than " + std::to_string(kMaxRuns) + " runs");
    total *= n;
  }
}

}  // namespace

// the loaded base model, with the JSON its pointers address (a URDF's is its Articulate form)
// and the fingerprint of the file's bytes
struct BaseModel {
  json document;
  LoadedDocument loaded;
  std::string fingerprint;
};

namespace {

using Base = BaseModel;

// 64-bit FNV-1a of a file's bytes, as 16 hex digits ("" when it cannot be read)
std::string fingerprintOf(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  std::uint64_t h = 0xcbf29ce484222325ull;
  char buffer[65536];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    for (std::streamsize k = 0; k < in.gcount(); ++k) {
      h ^= static_cast<unsigned char>(buffer[k]);
      h *= 0x100000001b3ull;
    }
    if (!in) break;
  }
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
  return text;
}

std::shared_ptr<const Base> loadBase(const std::string& model, const std::string& urdfBase) {
  auto base = std::make_shared<Base>();
  base->fingerprint = fingerprintOf(model);
  UrdfBase b = UrdfBase::Auto;
  if (!urdfBase.empty() && parseUrdfBase(urdfBase, b) && isUrdfPath(model))
    base->loaded = loadUrdfModel(model, b);
  else
    base->loaded = loadDocument(model);
  // a URDF or MJCF base's pointers address its Articulate form (what convert writes)
  if (const auto* tree = std::get_if<LoadedModel>(&base->loaded); tree && (tree->format == "urdf" || tree->format == "mjcf"))
    base->document = specToJson(tree->spec);
  else
    base->document = readJsonFile(model);
  return base;
}

// the base model, cached (per file and modification time) so that runs do not reload it;
// function-local statics, so that a sweep read during static initialisation (a benchmark's
// registration) finds them built
std::shared_ptr<const Base> baseOf(const std::string& model, const std::string& urdfBase) {
  static std::mutex mutex;
  static std::map<std::tuple<std::string, fs::file_time_type, std::string>, std::shared_ptr<const Base>> bases;
  std::error_code ec;
  const fs::file_time_type modified = fs::last_write_time(model, ec);
  std::lock_guard<std::mutex> lock(mutex);
  auto& slot = bases[{model, modified, urdfBase}];
  if (!slot) slot = loadBase(model, urdfBase);
  return slot;
}

// the spec's base model: the one readSweep loaded, or (a spec read from a results folder) the
// file, which must be the one the sweep ran
std::shared_ptr<const Base> baseFor(const SweepSpec& spec) {
  if (spec.base) return spec.base;
  std::shared_ptr<const Base> base = baseOf(spec.model, spec.urdfBase);
  const std::string ran = spec.document.value("model_fingerprint", "");
  if (!ran.empty() && ran != base->fingerprint)
    throw FormatError(spec.file, "model: the model file " + spec.model + " changed since this sweep ran (fingerprint " +
                                     base->fingerprint + ", then " + ran + "): its runs cannot be reproduced from it");
  return base;
}

bool sameType(const json& a, const json& b) {
  return (a.is_number() && b.is_number()) || (a.is_string() && b.is_string()) ||
         (a.is_boolean() && b.is_boolean());
}

// the series' index in a sample row: q (nq), v (nv), kinetic, potential, total; -1: none
int seriesIndex(System& sys, const std::string& name) {
  const int nq = sys.positionSize(), nv = sys.velocitySize();
  for (int i = 0; i < nq; ++i)
    if (sys.positionColumn(i) == name) return i;
  for (int i = 0; i < nv; ++i)
    if (sys.velocityColumn(i) == name) return nq + i;
  if (name == "kinetic") return nq + nv;
  if (name == "potential") return nq + nv + 1;
  if (name == "total") return nq + nv + 2;
  return -1;
}

std::string seriesList(System& sys) {
  std::string out;
  const int nq = sys.positionSize(), nv = sys.velocitySize();
  if (nq) out += sys.positionColumn(0) + ".." + sys.positionColumn(nq - 1) + ", ";
  if (nv) out += sys.velocityColumn(0) + ".." + sys.velocityColumn(nv - 1) + ", ";
  return out + "kinetic, potential, total";
}

// -------------------------------------------------------------------------- numbers as text

std::string numberText(double x) {
  if (!std::isfinite(x)) return std::isnan(x) ? "nan" : (x > 0 ? "inf" : "-inf");
  char buffer[64];
  const auto r = std::to_chars(buffer, buffer + sizeof buffer, x);  // shortest round trip
  return std::string(buffer, r.ptr);
}

std::string csvCell(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string valueText(const json& v) {
  if (v.is_number()) return numberText(v.get<double>());
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  return csvCell(v.get<std::string>());
}

std::string partName(Slice s) {
  return s.tasks == 1 ? "local.jsonl" : "task-" + std::to_string(s.task) + "-of-" + std::to_string(s.tasks) + ".jsonl";
}

// every finished run's line in the parts, by run (a run found twice: the first line read);
// lines as text, parsed again where needed, to hold millions of runs in little memory
// one finished run's line of a part file, and the file (for messages)
struct PartLine {
  std::string file, text;
};

std::map<long, PartLine> readParts(const fs::path& dir, long runs) {
  std::map<long, PartLine> out;
  std::error_code ec;
  if (!fs::is_directory(dir / "parts", ec)) return out;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir / "parts"))
    if (entry.path().extension() == ".jsonl") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    std::ifstream in(f);
    std::string line;
    while (std::getline(in, line)) {
      const json j = json::parse(line, nullptr, false);
      if (j.is_discarded() || !j.is_object() || !j.contains("run") || !j["run"].is_number_integer())
        continue;  // torn by a kill while it was written
      const long run = j["run"].get<long>();
      if (run >= 0 && run < runs) out.emplace(run, PartLine{f.string(), std::move(line)});
    }
  }
  return out;
}

bool hasPointers(const SweepSpec& spec) {
  for (const Parameter& p : spec.parameters)
    if (p.target == Target::Pointer) return true;
  return false;
}

// the base with run's pointer values put in, read as File > Open reads a document; nullopt
// with the problems when it is not a valid model
std::optional<LoadedDocument> readVariant(const SweepSpec& spec, const Base& base, long run, Diagnostics& problems) {
  json doc = base.document;
  for (std::size_t k = 0; k < spec.parameters.size(); ++k)
    if (spec.parameters[k].target == Target::Pointer)
      doc[json::json_pointer(spec.parameters[k].pointer)] = spec.value(run, k);
  std::optional<LoadedDocument> out;
  try {
    out = readDocument(doc, problems);
  } catch (const std::exception& e) {
    problems.push_back({"", e.what()});
  }
  if (!problems.empty()) out.reset();
  return out;
}

}  // namespace

nlohmann::json storedDocument(const SweepSpec& s) {
  json d = s.document;
  d["model"] = s.model;
  if (s.base) d["model_fingerprint"] = s.base->fingerprint;
  d["metrics"] = json::array();
  for (const Metric& m : s.metrics) {
    if (!m.hasSeries())
      d["metrics"].push_back(kindName(m.kind));
    else
      d["metrics"].push_back({{kindName(m.kind), m.series}});
  }
  return d;
}

namespace {

SweepSpec parseStored(const fs::path& dir) {
  SweepSpec s;
  s.file = (dir / "sweep.json").string();
  std::error_code ec;
  if (!fs::exists(s.file, ec)) throw std::runtime_error(dir.string() + ": holds no sweep (no sweep.json)");
  s.document = readJsonFile(s.file);
  parseDocument(s, Reader{s.file});
  return s;
}

}  // namespace

// ------------------------------------------------------------------------------ public

bool Metric::hasSeries() const { return kind != Kind::EnergyDrift && kind != Kind::FirstContact; }

std::string Metric::column() const {
  if (!hasSeries()) return kindName(kind);
  return kindName(kind) + "(" + series + ")";
}

long SweepSpec::runs() const {
  long n = 1;
  if (!grid) return parameters.empty() ? 1 : static_cast<long>(parameters[0].values.size());
  for (const Parameter& p : parameters) n *= static_cast<long>(p.values.size());
  return n;
}

const nlohmann::json& SweepSpec::value(long run, std::size_t p) const {
  if (!grid) return parameters[p].values[static_cast<std::size_t>(run)];
  long stride = 1;  // the last parameter varies fastest
  for (std::size_t k = parameters.size(); k-- > p + 1;) stride *= static_cast<long>(parameters[k].values.size());
  const long n = static_cast<long>(parameters[p].values.size());
  return parameters[p].values[static_cast<std::size_t>((run / stride) % n)];
}

SweepSpec readSweep(const std::string& path) { return readSweep(readJsonFile(path), path); }

SweepSpec readSweep(const nlohmann::json& document, const std::string& path) {
  SweepSpec s;
  s.file = path;
  const Reader r{path};
  s.document = document;
  parseDocument(s, r);
  // the model, relative to the sweep file's folder
  fs::path model(s.model);
  if (model.is_relative()) model = fs::absolute(fs::path(path)).parent_path() / model;
  s.model = model.lexically_normal().string();
  std::shared_ptr<const Base> base;
  try {
    base = baseOf(s.model, s.urdfBase);
  } catch (const std::exception& e) {
    r.fail("model", "the base model does not load: " + std::string(e.what()));
  }
  if (s.document.contains("model_fingerprint") && s.document["model_fingerprint"] != base->fingerprint)
    r.fail("model", "the model file " + s.model + " is not the one this sweep ran (fingerprint " +
                        base->fingerprint + ", the sweep's " + s.document["model_fingerprint"].get<std::string>() + ")");
  s.base = base;
  BuiltSystem built;
  try {
    built = buildSystem(base->loaded, s.simulation);
  } catch (const std::exception& e) {
    r.fail("model", "the base model does not simulate with these settings: " + std::string(e.what()));
  }
  System& sys = *built.system;
  if (s.metrics.empty()) {  // default: where each coordinate ends, and the energy drift
    for (int i = 0; i < sys.positionSize(); ++i) s.metrics.push_back({Metric::Kind::Final, sys.positionColumn(i)});
    s.metrics.push_back({Metric::Kind::EnergyDrift, ""});
  }
  for (std::size_t k = 0; k < s.metrics.size(); ++k) {
    const Metric& m = s.metrics[k];
    if (!m.hasSeries()) continue;
    if (seriesIndex(sys, m.series) < 0)
      r.fail(jsonIndex("metrics", k), "the model has no series '" + m.series + "' (it has " + seriesList(sys) + ")");
  }
  std::set<std::string> columns;
  for (std::size_t k = 0; k < s.metrics.size(); ++k)
    if (!columns.insert(s.metrics[k].column()).second) r.fail(jsonIndex("metrics", k), "is listed twice");
  // the default metrics' columns were not known when the parameters were read
  for (std::size_t k = 0; k < s.parameters.size(); ++k)
    if (columns.count(s.parameters[k].name))
      r.fail(jsonIndex("parameters", k) + " '" + s.parameters[k].name + "'", "the name is used by another column");
  if (s.duration / (built.dt * s.every) > kMaxSamples)
    r.fail("duration", numberText(s.duration) + " s at a step of " + numberText(built.dt) + " s is more than " +
                           numberText(kMaxSamples) + " samples");
  for (std::size_t k = 0; k < s.parameters.size(); ++k) {
    const Parameter& p = s.parameters[k];
    const std::string where = jsonIndex("parameters", k) + " '" + p.name + "'";
    if (p.target == Target::Pointer) {
      json::json_pointer pointer;
      try {
        pointer = json::json_pointer(p.pointer);
      } catch (const json::exception&) {
        r.fail(where + ".pointer", "'" + p.pointer + "' is not a JSON Pointer (like /bodies/1/inertia/mass)");
      }
      bool exists = false;
      try {
        exists = base->document.contains(pointer);
      } catch (const json::exception&) {  // fuzz_sweep: an empty token into a list ("/bodies//mass") throws
      }
      if (!exists) r.fail(where + ".pointer", "'" + p.pointer + "' names nothing in the model " + s.model);
      const json& old = base->document.at(pointer);
      if (!old.is_number() && !old.is_string() && !old.is_boolean())
        r.fail(where + ".pointer", "'" + p.pointer + "' names " + (old.is_array() ? "a list" : old.is_object() ? "an object" : "null") +
                                       " (a sweep replaces one number, string or boolean)");
      for (const json& v : p.values)
        if (!sameType(old, v))
          r.fail(where, "the value " + v.dump() + " is of another type than the model's " + old.dump() + " at " + p.pointer);
    } else {
      const int n = p.target == Target::InitialQ ? sys.positionSize() : sys.velocitySize();
      if (p.index >= n)
        r.fail(where, "index " + std::to_string(p.index) + " is outside the model's " + std::to_string(n) + " initial " +
                          (p.target == Target::InitialQ ? "positions" : "velocities"));
    }
  }
  return s;
}

std::vector<std::string> columns(const SweepSpec& spec) {
  std::vector<std::string> out = {"run"};
  for (const Parameter& p : spec.parameters) out.push_back(p.name);
  for (const char* c : {"status", "end_time", "steps"}) out.push_back(c);
  for (const Metric& m : spec.metrics) out.push_back(m.column());
  out.push_back("reason");
  return out;
}

namespace {

// What a run starts from: its system and initial state. Null with `out` an invalid row when
// the run's values make a model that does not load or build, or an initial state outside it.
struct Start {
  BuiltSystem built;
  Eigen::VectorXd q, v;
  bool initial = false;  // some parameter sets the initial state
};

// the initial state's parameter values of `run` put into (q, v)
void putInitialState(const SweepSpec& spec, long run, Eigen::VectorXd& q, Eigen::VectorXd& v, bool& initial) {
  for (std::size_t k = 0; k < spec.parameters.size(); ++k) {
    const Parameter& p = spec.parameters[k];
    if (p.target == Target::Pointer) continue;
    Eigen::VectorXd& x = p.target == Target::InitialQ ? q : v;
    if (p.index >= x.size()) throw std::invalid_argument(p.name + ": the model has only " + std::to_string(x.size()) + " entries");
    x(p.index) = spec.value(run, k).get<double>();
    initial = true;
  }
}

std::optional<Start> startRun(const SweepSpec& spec, const Base& base, long run, RunResult& out) {
  // the variant's document: the base with the pointers' values put in
  std::optional<LoadedDocument> variant;
  if (hasPointers(spec)) {
    Diagnostics problems;
    variant = readVariant(spec, base, run, problems);
    if (!variant) {
      out.status = "invalid";
      out.reason = problems.empty() ? "the model does not load" : problems.front().text();
      return std::nullopt;
    }
  }
  Start s;
  try {
    s.built = buildSystem(variant ? *variant : base.loaded, spec.simulation);
    s.q = s.built.q0;
    s.v = s.built.v0;
    putInitialState(spec, run, s.q, s.v, s.initial);
  } catch (const std::exception& e) {
    out.status = "invalid";
    out.reason = e.what();
    return std::nullopt;
  }
  return s;
}

// One run's samples, one row each (q, v, kinetic, potential, total), and what the metrics
// and the recording make of them
class Samples {
 public:
  Samples(const SweepSpec& spec, System& sys)
      : m_spec(spec), m_nq(sys.positionSize()), m_nv(sys.velocitySize()), m_width(m_nq + m_nv + 3),
        m_series(spec.metrics.size(), -1) {
    for (std::size_t k = 0; k < spec.metrics.size(); ++k) {
      if (spec.metrics[k].hasSeries()) m_series[k] = seriesIndex(sys, spec.metrics[k].series);
      m_contactMetric |= spec.metrics[k].kind == Metric::Kind::FirstContact;
    }
  }
  bool wantsContact() const { return m_contactMetric && !m_firstContact; }
  void contactAt(double t) {
    if (!m_firstContact) m_firstContact = t;
  }
  void add(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, double kinetic, double potential) {
    m_times.push_back(t);
    m_rows.insert(m_rows.end(), q.data(), q.data() + m_nq);
    m_rows.insert(m_rows.end(), v.data(), v.data() + m_nv);
    m_rows.push_back(kinetic);
    m_rows.push_back(potential);
    m_rows.push_back(kinetic + potential);
  }
  // the metrics into `out`, and the recording when the spec keeps them
  void finish(RunResult& out, const std::string& recordingPath) const;

 private:
  double at(std::size_t s, int column) const {
    return m_rows[s * static_cast<std::size_t>(m_width) + static_cast<std::size_t>(column)];
  }
  const SweepSpec& m_spec;
  int m_nq, m_nv, m_width;
  std::vector<int> m_series;  // each metric's column, -1: none
  bool m_contactMetric = false;
  std::vector<double> m_rows, m_times;
  std::optional<double> m_firstContact;
};

void Samples::finish(RunResult& out, const std::string& recordingPath) const {
  const std::size_t n = m_times.size();
  for (std::size_t k = 0; k < m_spec.metrics.size() && n > 0; ++k) {
    const Metric& m = m_spec.metrics[k];
    const int c = m_series[k];
    switch (m.kind) {
      case Metric::Kind::EnergyDrift: {
        double worst = 0;
        for (std::size_t s = 0; s < n; ++s) worst = std::max(worst, std::abs(at(s, m_width - 1) - at(0, m_width - 1)));
        out.metrics[k] = worst;
        break;
      }
      case Metric::Kind::FirstContact:
        out.metrics[k] = m_firstContact;
        break;
      default: {
        if (c < 0) break;  // this variant has no such series (its sizes changed)
        double lo = at(0, c), hi = at(0, c), sum = 0;
        for (std::size_t s = 0; s < n; ++s) {
          lo = std::min(lo, at(s, c));
          hi = std::max(hi, at(s, c));
          sum += at(s, c);
        }
        if (m.kind == Metric::Kind::Final) out.metrics[k] = at(n - 1, c);
        if (m.kind == Metric::Kind::Max) out.metrics[k] = hi;
        if (m.kind == Metric::Kind::Min) out.metrics[k] = lo;
        if (m.kind == Metric::Kind::Mean) out.metrics[k] = sum / static_cast<double>(n);
        if (m.kind == Metric::Kind::Period && hi > lo) {
          // upward crossings of the mid-range, linearly interpolated between samples
          const double mid = 0.5 * (lo + hi);
          double first = 0, last = 0;
          long crossings = 0;
          for (std::size_t s = 1; s < n; ++s) {
            const double a = at(s - 1, c) - mid, b = at(s, c) - mid;
            if (a < 0 && b >= 0) {
              const double t = m_times[s - 1] + (m_times[s] - m_times[s - 1]) * (-a / (b - a));
              if (crossings++ == 0) first = t;
              last = t;
            }
          }
          if (crossings >= 2) out.metrics[k] = (last - first) / static_cast<double>(crossings - 1);
        }
      }
    }
  }
  if (m_spec.recordings && !recordingPath.empty()) {
    std::string bytes(8, '\0');
    std::memcpy(bytes.data(), kRecordingMagic, 7);
    const std::uint32_t sizes[2] = {static_cast<std::uint32_t>(m_nq), static_cast<std::uint32_t>(m_nv)};
    const std::uint64_t count = n;
    bytes.append(reinterpret_cast<const char*>(sizes), sizeof sizes);
    bytes.append(reinterpret_cast<const char*>(&count), sizeof count);
    for (std::size_t s = 0; s < n; ++s) {
      bytes.append(reinterpret_cast<const char*>(&m_times[s]), sizeof(double));
      bytes.append(reinterpret_cast<const char*>(&m_rows[s * static_cast<std::size_t>(m_width)]),
                   sizeof(double) * static_cast<std::size_t>(m_width - 1));  // q, v, kinetic, potential
    }
    writeFileAtomically(recordingPath, bytes);
  }
}

// the number of samples after the first: one every `every` steps of dt up to the duration
long sampleCount(const SweepSpec& spec, double dt) {
  return static_cast<long>(std::floor(spec.duration / (dt * spec.every) + 1e-9));
}

}  // namespace

bool vectorised(const SweepSpec& spec, std::string* why) {
  auto no = [&](const std::string& reason) {
    if (why) *why = reason;
    return false;
  };
  if (!spec.vectorise) return no("the sweep file asks for one run at a time (\"vectorise\": false)");
  if (hasPointers(spec)) return no("pointer parameters give each run its own model");
  const std::shared_ptr<const Base> base = baseFor(spec);
  if (!std::holds_alternative<LoadedModel>(base->loaded)) return no("only kinematic trees are vectorised");
  const BuiltSystem built = buildSystem(base->loaded, spec.simulation);
  const std::string reason = BatchSimulation::unsupported(*built.model, built.options);
  if (!reason.empty()) return no(reason);
  if (why) why->clear();
  return true;
}

std::vector<RunResult> runLanes(const SweepSpec& spec, const std::vector<long>& runs, const std::atomic<bool>* stop,
                                const std::vector<std::string>& recordingPaths) {
  const int count = static_cast<int>(runs.size());
  if (count < 1 || count > kLanes)
    throw std::invalid_argument("sweep::runLanes: 1 to " + std::to_string(kLanes) + " runs, got " + std::to_string(count));
  const std::shared_ptr<const Base> base = baseFor(spec);
  if (hasPointers(spec) || !std::holds_alternative<LoadedModel>(base->loaded))
    throw std::invalid_argument("sweep::runLanes: the sweep is not vectorised");
  const BuiltSystem built = buildSystem(base->loaded, spec.simulation);
  BatchSimulation batch(*built.model, built.options);  // throws for a model it does not take
  std::vector<RunResult> out(static_cast<std::size_t>(count));
  std::vector<bool> valid(kLanes, false);
  std::vector<Samples> samples;
  Eigen::VectorXd first0 = built.q0, first1 = built.v0;  // what a lane without a valid run steps
  bool haveFirst = false;
  for (int l = 0; l < count; ++l) {
    RunResult& r = out[static_cast<std::size_t>(l)];
    r.run = runs[static_cast<std::size_t>(l)];
    r.metrics.assign(spec.metrics.size(), std::nullopt);
    Eigen::VectorXd q = built.q0, v = built.v0;
    bool initial = false;
    try {
      putInitialState(spec, r.run, q, v, initial);
      valid[static_cast<std::size_t>(l)] = true;
      batch.setState(l, q, v);
      if (!haveFirst) {
        first0 = q;
        first1 = v;
        haveFirst = true;
      }
    } catch (const std::exception& e) {
      r.status = "invalid";
      r.reason = e.what();
    }
    samples.emplace_back(spec, *built.system);
  }
  for (int l = 0; l < kLanes; ++l)
    if (l >= count || !valid[static_cast<std::size_t>(l)]) batch.setState(l, first0, first1);
  Eigen::VectorXd q, v;
  auto sampleLanes = [&] {
    for (int l = 0; l < count; ++l) {
      if (!valid[static_cast<std::size_t>(l)] || !batch.active(l)) continue;
      batch.state(l, q, v);
      samples[static_cast<std::size_t>(l)].add(batch.time(l), q, v, batch.kinetic(l), batch.potential(l));
    }
  };
  const double interval = built.dt * spec.every;
  const long n = sampleCount(spec, built.dt);
  sampleLanes();
  for (long k = 1; k <= n; ++k) {
    if (stop && stop->load(std::memory_order_relaxed)) return {};
    batch.advanceTo(static_cast<double>(k) * interval);
    bool any = false;
    for (int l = 0; l < count; ++l) any |= valid[static_cast<std::size_t>(l)] && batch.active(l);
    if (!any) break;
    sampleLanes();
  }
  for (int l = 0; l < count; ++l) {
    if (!valid[static_cast<std::size_t>(l)]) continue;
    RunResult& r = out[static_cast<std::size_t>(l)];
    if (const auto& d = batch.divergence(l)) {
      r.status = "diverged";
      r.reason = d->message;
    }
    r.endTime = batch.time(l);
    r.steps = batch.stepsTaken(l);
    samples[static_cast<std::size_t>(l)].finish(r, l < static_cast<int>(recordingPaths.size()) ? recordingPaths[static_cast<std::size_t>(l)] : "");
  }
  return out;
}

std::optional<RunResult> runOne(const SweepSpec& spec, long run, const std::atomic<bool>* stop,
                                const std::string& recordingPath) {
  if (vectorised(spec)) {
    std::vector<RunResult> r = runLanes(spec, {run}, stop, {recordingPath});
    if (r.empty()) return std::nullopt;
    return r.front();
  }
  RunResult out;
  out.run = run;
  out.metrics.assign(spec.metrics.size(), std::nullopt);
  const std::shared_ptr<const Base> base = baseFor(spec);
  std::optional<Start> start = startRun(spec, *base, run, out);
  if (!start) return out;
  System& sys = *start->built.system;
  try {
    if (start->initial) sys.setState(0.0, start->q, start->v);
  } catch (const std::exception& e) {
    out.status = "invalid";
    out.reason = e.what();
    return out;
  }
  Samples samples(spec, sys);
  std::vector<ContactReport> contacts;
  auto sample = [&] {
    const EnergySample e = sys.energy();
    samples.add(sys.time(), sys.positions(), sys.velocities(), e.kinetic, e.potential);
    if (samples.wantsContact() && sys.contactSize() > 0) {
      sys.evaluate(sys.time(), sys.positions(), sys.velocities());
      sys.contacts(contacts);
      for (const ContactReport& c : contacts)
        if (c.normalForce > 0) samples.contactAt(sys.time());
    }
  };
  const double interval = start->built.dt * spec.every;
  const long n = sampleCount(spec, start->built.dt);
  try {
    sample();
    for (long k = 1; k <= n; ++k) {
      if (stop && stop->load(std::memory_order_relaxed)) return std::nullopt;
      if (!sys.advanceTo(static_cast<double>(k) * interval)) break;
      sample();
    }
  } catch (const std::exception& e) {
    out.status = "error";
    out.reason = e.what();
  }
  if (sys.divergence()) {
    out.status = "diverged";
    out.reason = sys.divergence()->message;
  }
  out.endTime = sys.time();
  out.steps = sys.stepsTaken();
  samples.finish(out, recordingPath);
  return out;
}

void prepareResults(const SweepSpec& spec, const std::string& resultsDir) {
  const fs::path dir(resultsDir);
  std::error_code ec;
  const json stored = storedDocument(spec);
  const fs::path file = dir / "sweep.json";
  // another sweep's folder is refused before anything in it changes
  const auto makeFolders = [&] {
    fs::create_directories(dir / "parts", ec);
    if (!ec && spec.recordings) fs::create_directories(dir / "recordings", ec);
    if (ec) throw std::runtime_error(resultsDir + ": cannot create the results folder: " + ec.message());
  };
  if (fs::exists(file, ec)) {
    json old;
    try {
      old = readJsonFile(file.string());
    } catch (const std::exception& e) {
      throw std::runtime_error(resultsDir + ": its sweep.json does not read (" + e.what() + ")");
    }
    json oldWithout = old, storedWithout = stored;
    oldWithout.erase("model_fingerprint");
    storedWithout.erase("model_fingerprint");
    if (oldWithout == storedWithout && old != stored)
      throw std::runtime_error(resultsDir + ": the model file " + spec.model +
                               " changed since this sweep started (its finished runs used the earlier file); "
                               "restore it, or run the sweep into another folder");
    if (old != stored)
      throw std::runtime_error(resultsDir + ": holds the results of another sweep (its sweep.json differs from " +
                               spec.file + "); choose another folder, or delete this one to start over");
    makeFolders();
    return;
  }
  makeFolders();
  writeFileAtomically(file.string(), formatJson(ojson(stored)));
}

RunSummary run(const SweepSpec& spec, const std::string& resultsDir, Slice slice, int threads,
               const std::atomic<bool>* stop, const Progress& progress) {
  if (slice.tasks < 1 || slice.task < 0 || slice.task >= slice.tasks)
    throw std::invalid_argument("task " + std::to_string(slice.task) + "/" + std::to_string(slice.tasks) + " does not exist");
  prepareResults(spec, resultsDir);
  const fs::path dir(resultsDir);
  const long runs = spec.runs();
  std::vector<bool> done(static_cast<std::size_t>(runs), false);
  for (const auto& [r, line] : readParts(dir, runs)) done[static_cast<std::size_t>(r)] = true;
  RunSummary summary;
  std::vector<long> pending;
  for (long r = slice.task; r < runs; r += slice.tasks) {
    ++summary.total;
    if (done[static_cast<std::size_t>(r)]) ++summary.skipped;
    else pending.push_back(r);
  }
  const fs::path part = dir / "parts" / partName(slice);
  // a line torn by a kill gets its own line, so that the next one is whole
  {
    std::ifstream in(part, std::ios::binary | std::ios::ate);
    if (in && in.tellg() > 0) {
      in.seekg(-1, std::ios::end);
      if (in.get() != '\n') std::ofstream(part, std::ios::app) << '\n';
    }
  }
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> out(std::fopen(part.c_str(), "a"), &std::fclose);
  if (!out) throw std::runtime_error(part.string() + ": cannot open for appending: " + std::strerror(errno));
  std::mutex mutex;
  std::atomic<std::size_t> next{0};
  long finished = summary.skipped;
  std::string failure;
  if (progress) progress(finished, summary.total);
  // the first failure (a recording that cannot be written, no memory, ...) ends the others'
  // work after their current run: nothing may leave a worker thread
  const auto fail = [&](const std::string& what) {
    std::lock_guard<std::mutex> lock(mutex);
    if (failure.empty()) failure = what;
    next = pending.size();
  };
  // a vectorised sweep's workers take kLanes pending runs at a time and step them together
  const std::size_t group = vectorised(spec) ? static_cast<std::size_t>(kLanes) : 1;
  auto record = [&](const RunResult& result) {
    ojson line = {{"run", result.run}, {"status", result.status}, {"end_time", result.endTime}, {"steps", result.steps}};
    line["metrics"] = ojson::array();
    for (const auto& m : result.metrics) line["metrics"].push_back(m && std::isfinite(*m) ? ojson(*m) : ojson());
    line["reason"] = result.reason;
    const std::string text = line.dump(-1, ' ', false, ojson::error_handler_t::replace) + "\n";
    std::lock_guard<std::mutex> lock(mutex);
    if (std::fwrite(text.data(), 1, text.size(), out.get()) != text.size() || std::fflush(out.get()) != 0)
      throw std::runtime_error(part.string() + ": cannot append: " + std::strerror(errno));
    ++finished;
    ++summary.finished;
    if (progress) progress(finished, summary.total);
  };
  auto recordingOf = [&](long r) {
    if (!spec.recordings) return std::string();
    char name[32];
    std::snprintf(name, sizeof name, "run-%06ld.arec", r);
    return (dir / "recordings" / name).string();
  };
  auto worker = [&] {
    try {
      for (;;) {
        const std::size_t i = next.fetch_add(group);
        if (i >= pending.size()) return;
        if (group == 1) {
          const std::optional<RunResult> result = runOne(spec, pending[i], stop, recordingOf(pending[i]));
          if (!result) return;  // stopped
          record(*result);
          continue;
        }
        std::vector<long> together;
        std::vector<std::string> paths;
        for (std::size_t k = i; k < std::min(i + group, pending.size()); ++k) {
          together.push_back(pending[k]);
          paths.push_back(recordingOf(pending[k]));
        }
        const std::vector<RunResult> results = runLanes(spec, together, stop, paths);
        if (results.empty()) return;  // stopped
        for (const RunResult& result : results) record(result);
      }
    } catch (const std::exception& e) {
      fail(e.what());
    }
  };
  const std::size_t groups = (pending.size() + group - 1) / group;
  const int n = std::max(1, std::min<int>(threads, static_cast<int>(std::max<std::size_t>(groups, 1))));
  std::vector<std::thread> pool;
  try {
    for (int k = 1; k < n; ++k) pool.emplace_back(worker);
  } catch (const std::exception& e) {  // no more threads: the sweep stops and says so
    fail(std::string("cannot start ") + std::to_string(n) + " threads: " + e.what());
  }
  worker();
  for (std::thread& t : pool) t.join();
  if (!failure.empty()) throw std::runtime_error(failure);
  summary.interrupted = summary.skipped + summary.finished < summary.total;
  return summary;
}

Collected collect(const std::string& resultsDir) {
  const fs::path dir(resultsDir);
  const SweepSpec spec = parseStored(dir);
  Collected c;
  c.runs = spec.runs();
  const std::map<long, PartLine> done = readParts(dir, c.runs);
  const std::vector<std::string> names = columns(spec);
  std::string csv;
  for (std::size_t k = 0; k < names.size(); ++k) csv += (k ? "," : "") + csvCell(names[k]);
  csv += "\n";
  for (const auto& [run, part] : done) {
    const json line = json::parse(part.text);
    // a part file changed by hand: each field of the wrong type named with its file and run,
    // not nlohmann's bare "type_error.302"
    const std::pair<const char*, bool (json::*)() const noexcept> fields[] = {
        {"status", &json::is_string}, {"end_time", &json::is_number}, {"steps", &json::is_number_integer},
        {"metrics", &json::is_array}, {"reason", &json::is_string}};
    for (const auto& [key, is] : fields)
      if (line.contains(key) && !(line[key].*is)())
        throw FormatError(part.file, "run " + std::to_string(run) + ": field '" + key + "': expected " +
                                         (is == &json::is_string ? "a string" : is == &json::is_number ? "a number"
                                          : is == &json::is_array ? "an array" : "a whole number") +
                                         ", got " + messageValue(line[key].dump()));
    ++c.present;
    const std::string status = line.value("status", "");
    if (status == "ok") ++c.ok;
    else if (status == "diverged") ++c.diverged;
    else if (status == "invalid") ++c.invalid;
    else ++c.error;
    csv += std::to_string(run);
    for (std::size_t p = 0; p < spec.parameters.size(); ++p) csv += "," + valueText(spec.value(run, p));
    csv += "," + csvCell(status) + "," + numberText(line.value("end_time", 0.0)) + "," +
           std::to_string(line.value("steps", 0L));
    const json metrics = line.value("metrics", json::array());
    for (std::size_t k = 0; k < spec.metrics.size(); ++k)
      csv += "," + (k < metrics.size() && metrics[k].is_number() ? numberText(metrics[k].get<double>()) : std::string());
    csv += "," + csvCell(line.value("reason", "")) + "\n";
  }
  writeFileAtomically((dir / "results.csv").string(), csv);
  ojson manifest = {{"format", kResultsFormatName}, {"version", 1}, {"sweep", "sweep.json"},
                    {"model", spec.model},          {"runs", c.runs}, {"finished", c.present},
                    {"ok", c.ok},                   {"diverged", c.diverged}, {"invalid", c.invalid}, {"error", c.error},
                    {"complete", c.present == c.runs}, {"table", "results.csv"}};
  manifest["columns"] = names;
  manifest["parameters"] = ojson::array();
  for (const Parameter& p : spec.parameters)
    manifest["parameters"].push_back(p.target == Target::Pointer ? ojson{{"name", p.name}, {"pointer", p.pointer}}
                                     : ojson{{"name", p.name}, {p.target == Target::InitialQ ? "initial_q" : "initial_qd", p.index}});
  manifest["recordings"] = spec.recordings ? ojson("recordings/run-NNNNNN.arec") : ojson();
  writeFileAtomically((dir / "manifest.json").string(), formatJson(manifest));
  return c;
}

LoadedDocument variantDocument(const SweepSpec& spec, long run) {
  const std::shared_ptr<const Base> base = baseFor(spec);
  if (!hasPointers(spec)) return base->loaded;
  Diagnostics problems;
  std::optional<LoadedDocument> out = readVariant(spec, *base, run, problems);
  if (!out) throw FormatError(spec.model, "run " + std::to_string(run) + ": " + problemList(problems));
  return *out;
}

Results readResults(const std::string& resultsDir) {
  const fs::path dir(resultsDir);
  Results r;
  r.dir = resultsDir;
  r.spec = parseStored(dir);
  std::error_code ec;
  if (!fs::exists(dir / "results.csv", ec)) collect(resultsDir);
  std::ifstream in(dir / "results.csv", std::ios::binary);
  if (!in) throw std::runtime_error((dir / "results.csv").string() + ": cannot open");
  // CSV as collect() writes it: cells quoted when they hold a comma, a quote or a line break
  std::vector<std::vector<std::string>> table(1);
  std::string cell;
  bool quoted = false, any = false;
  char c;
  while (in.get(c)) {
    any = true;
    if (quoted) {
      if (c == '"') {
        if (in.peek() == '"') cell += static_cast<char>(in.get());
        else quoted = false;
      } else {
        cell += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      table.back().push_back(std::move(cell));
      cell.clear();
    } else if (c == '\n') {
      table.back().push_back(std::move(cell));
      cell.clear();
      table.emplace_back();
    } else {
      cell += c;
    }
  }
  if (!any) throw std::runtime_error((dir / "results.csv").string() + ": is empty");
  if (!table.back().empty() || !cell.empty()) table.back().push_back(std::move(cell));
  if (table.back().empty()) table.pop_back();
  r.columns = table.front();
  if (r.columns != columns(r.spec))
    throw std::runtime_error((dir / "results.csv").string() + ": its columns are not those of " + (dir / "sweep.json").string());
  for (std::size_t k = 1; k < table.size(); ++k) {
    if (table[k].size() != r.columns.size())
      throw std::runtime_error((dir / "results.csv").string() + ": row " + std::to_string(k) + " has " +
                               std::to_string(table[k].size()) + " cells, not " + std::to_string(r.columns.size()));
    r.rows.push_back(std::move(table[k]));
  }
  return r;
}

RunRecording runRecording(const Results& results, long run) {
  if (run < 0 || run >= results.spec.runs())
    throw std::runtime_error("run " + std::to_string(run) + " is not a run of " + results.dir);
  char name[32];
  std::snprintf(name, sizeof name, "run-%06ld.arec", run);
  const fs::path kept = fs::path(results.dir) / "recordings" / name;
  std::error_code ec;
  if (fs::exists(kept, ec)) return readRecording(kept.string());
  // simulated again into a scratch file beside the system's temporary files
  SweepSpec spec = results.spec;
  spec.recordings = true;
  const fs::path scratch = fs::temp_directory_path() / ("articulate-run-" + std::to_string(::getpid()) + "-" + name);
  const std::optional<RunResult> r = runOne(spec, run, nullptr, scratch.string());
  if (!r || r->status == "invalid" || r->status == "error")
    throw std::runtime_error("run " + std::to_string(run) + " of " + results.dir + " has no samples: " + (r ? r->reason : ""));
  RunRecording out = readRecording(scratch.string());
  fs::remove(scratch, ec);
  return out;
}

RunRecording readRecording(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open: " + std::strerror(errno));
  char magic[8] = {};
  std::uint32_t sizes[2] = {};
  std::uint64_t count = 0;
  in.read(magic, 8);
  if (!in || std::memcmp(magic, kRecordingMagic, 8) != 0) throw std::runtime_error(path + ": is not an Articulate run recording (.arec)");
  in.read(reinterpret_cast<char*>(sizes), sizeof sizes);
  in.read(reinterpret_cast<char*>(&count), sizeof count);
  if (!in) throw std::runtime_error(path + ": its header ends too early");
  in.seekg(0, std::ios::end);
  const std::uint64_t width = 3ull + sizes[0] + sizes[1];
  const std::uint64_t body = static_cast<std::uint64_t>(in.tellg()) - 24;
  if (sizes[0] > (1u << 24) || sizes[1] > (1u << 24) || count > body / 8 / width || body != count * width * 8)
    throw std::runtime_error(path + ": holds " + std::to_string(body) + " bytes of samples, not the " + std::to_string(count) +
                             " samples of " + std::to_string(width) + " numbers its header says");
  in.seekg(24);
  RunRecording r;
  r.nq = static_cast<int>(sizes[0]);
  r.nv = static_cast<int>(sizes[1]);
  r.q.resize(r.nq, static_cast<Eigen::Index>(count));
  r.v.resize(r.nv, static_cast<Eigen::Index>(count));
  std::vector<double> row(width);
  for (std::uint64_t s = 0; s < count; ++s) {
    in.read(reinterpret_cast<char*>(row.data()), static_cast<std::streamsize>(width * 8));
    if (!in) break;
    // times finite and not decreasing, every number finite: playback and plots rely on them
    if (!std::isfinite(row[0]) || (s > 0 && row[0] < r.t.back()))
      throw std::runtime_error(path + ": sample " + std::to_string(s) + "'s time " + messageNumber(row[0]) +
                               (std::isfinite(row[0]) ? " is before the previous sample's" : " is not a finite number"));
    for (std::uint64_t k = 1; k < width; ++k)
      if (!std::isfinite(row[k]))
        throw std::runtime_error(path + ": sample " + std::to_string(s) + " holds a number that is not finite (" +
                                 messageNumber(row[k]) + ")");
    r.t.push_back(row[0]);
    r.q.col(static_cast<Eigen::Index>(s)) = Eigen::Map<Eigen::VectorXd>(row.data() + 1, r.nq);
    r.v.col(static_cast<Eigen::Index>(s)) = Eigen::Map<Eigen::VectorXd>(row.data() + 1 + r.nq, r.nv);
    r.kinetic.push_back(row[width - 2]);
    r.potential.push_back(row[width - 1]);
  }
  if (!in) throw std::runtime_error(path + ": cannot read its samples");
  return r;
}

std::string shellQuote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

namespace {

// a value the script holds may not break its lines: no control characters (a newline would end
// a comment or an #SBATCH line and start a command)
void refuseControlCharacters(const std::string& value, const std::string& what) {
  for (const char c : value)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      throw std::invalid_argument(what + " holds a control character (a newline, tab or other), which a Slurm "
                                  "script cannot carry safely; rename it");
}

}  // namespace

std::string slurmScript(const std::string& cli, const std::string& specPath, const std::string& resultsDir,
                        int tasks, int cpus, const std::string& partition) {
  const std::string spec = fs::absolute(specPath).lexically_normal().string();
  const std::string results = fs::absolute(resultsDir).lexically_normal().string();
  refuseControlCharacters(cli, "the path of articulate-cli");
  refuseControlCharacters(spec, "the sweep file's path");
  refuseControlCharacters(results, "the results folder's path");
  // #SBATCH lines are read by sbatch, not the shell: a partition (or a comma-separated list of
  // them) is a plain name
  if (partition.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.,-") !=
      std::string::npos)
    throw std::invalid_argument("--partition: expected a partition name (letters, digits, '_', '-', '.', ',' "
                                "between names), got '" + (partition.size() > 40 ? partition.substr(0, 37) + "..." : partition) + "'");
  std::ostringstream s;
  s << "#!/bin/bash\n"
    << "# The sweep " << shellQuote(spec) << " as a Slurm job array, written by `articulate-cli sweep --slurm`.\n"
    << "# Each array task runs its slice of the runs; `articulate-cli sweep --collect " << shellQuote(results) << "`\n"
    << "# merges the slices into results.csv. " << shellQuote(results) << " must be on a filesystem every node shares.\n"
    << "#SBATCH --job-name=articulate-sweep\n"
    << "#SBATCH --array=0-" << tasks - 1 << "\n"
    << "#SBATCH --ntasks=1\n"
    << "#SBATCH --cpus-per-task=" << cpus << "\n"
    << "#SBATCH --output=" << results << "/slurm/task-%a.out\n";
  if (!partition.empty()) s << "#SBATCH --partition=" << partition << "\n";
  s << "set -euo pipefail\n"
    << "exec " << shellQuote(cli) << " sweep " << shellQuote(spec) << " -o " << shellQuote(results)
    << " --task \"${SLURM_ARRAY_TASK_ID}/" << tasks << "\" -j \"${SLURM_CPUS_PER_TASK:-" << cpus << "}\" --quiet\n";
  return s.str();
}

}  // namespace art::sweep
