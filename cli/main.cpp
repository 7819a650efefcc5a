// articulate-cli: inspect, check and generate models without the GUI.
// Exit codes: 0 success, 1 a check failed, 2 bad input (unreadable or invalid file).

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <variant>

#include <CLI/CLI.hpp>

#include "articulate/batch/sweep.h"
#include "articulate/batch/system_factory.h"
#include "dynamics_command.h"
#include "numbers.h"
#include "sweep_command.h"
#include "articulate/formats/conformance.h"
#include "articulate/dynamics/collision.h"
#include "articulate/dynamics/contact.h"
#include "articulate/dynamics/dynamics.h"
#include "articulate/dynamics/servos.h"
#include "articulate/formats/floating_base.h"
#include "articulate/formulations/generators.h"
#include "articulate/formats/controls.h"
#include "articulate/formats/document.h"
#include "articulate/formats/files.h"
#include "articulate/formats/spatial_v2.h"
#include "articulate/formats/structure.h"
#include "articulate/formulations/rigid_body.h"
#include "articulate/formulations/tree_simulation.h"
#include "articulate/formats/mjcf.h"
#include "articulate/formats/urdf.h"
#include "articulate/simulation/structure_system.h"
#include "articulate/simulation/system.h"

namespace {

using namespace art;

std::vector<JointType> parseAxes(const std::string& list) {
  std::vector<JointType> out;
  std::stringstream ss(list);
  std::string item;
  while (std::getline(ss, item, ',')) {
    JointType t;
    if (!parseJointCode(item, t) || isPlanar(t))
      throw std::invalid_argument("--axes: '" + item + "' is not a spatial joint code");
    out.push_back(t);
  }
  if (out.empty()) throw std::invalid_argument("--axes: needs at least one joint code");
  return out;
}


// generate --gravity: "gx,gy,gz" (planar models: "gx,gy" or "gx,gy,0")
Vec3 parseGravity(const std::string& list, Arithmetic arithmetic) {
  std::vector<double> g = parseNumbers(list, "--gravity");
  const bool planar = arithmetic == Arithmetic::Planar;
  if (g.size() == 2 && planar) g.push_back(0.0);
  if (g.size() != 3)
    throw std::invalid_argument(planar ? "--gravity: expected gx,gy for a planar model"
                                       : "--gravity: expected gx,gy,gz");
  return Vec3(g[0], g[1], g[2]);
}

int runConformanceCmd(const std::string& file, double tol) {
  const nlohmann::json doc = readJsonFile(file);
  ConformanceReport r;
  try {
    r = runConformance(doc, tol);
  } catch (const FormatError& e) {
    throw FormatError(file, e.what());  // its JSON path, after the file's name
  }
  std::cout << "spatial_v2 conformance: " << file << "\n"
            << r.cases << " cases, " << r.trajectories << " trajectories; error = max|x - ref| / "
            << "max(1, max|ref|), tolerance " << tol << "\n\n";
  std::cout << std::left << std::setw(20) << "quantity" << std::setw(10) << "compared"
            << std::setw(14) << "worst error" << "worst case\n";
  for (const auto& [name, e] : r.quantities) {
    std::cout << std::left << std::setw(20) << name << std::setw(10) << e.compared
              << std::setw(14) << std::setprecision(3) << std::scientific << e.worst
              << std::defaultfloat << (e.worst > tol ? "FAIL " : "") << e.worstCase << "\n";
  }
  std::cout << "\n" << (r.passed() ? "PASS" : "FAIL") << "\n";
  return r.passed() ? 0 : 1;
}

// "[a, b, c]" with negative zeros printed as 0
std::string vec(const Eigen::VectorXd& v) {
  std::ostringstream s;
  s << "[";
  for (Eigen::Index i = 0; i < v.size(); ++i) s << (i ? ", " : "") << v(i) + 0.0;
  s << "]";
  return s.str();
}

// `x` as the stream prints it (6 significant digits): a table's cell
template <typename T>
std::string cell(const T& x) {
  std::ostringstream s;
  s << x;
  return s.str();
}

// The characters of UTF-8 text (its bytes but continuation bytes): a cell's width
std::size_t textWidth(const std::string& s) {
  return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

// A text table whose every column is as wide as its longest entry (the header's included)
// plus two spaces, so that a long name never runs into the next column and every column
// starts at the same character offset in every row; the last column is not padded.
class Table {
 public:
  /// A table with this header row.
  explicit Table(std::vector<std::string> header) { m_rows.push_back(std::move(header)); }
  /// Adds a row: one cell per column of the header (fewer leave the last columns empty).
  void add(std::vector<std::string> row) { m_rows.push_back(std::move(row)); }
  /// Prints the header and the rows, one line each.
  void print(std::ostream& out) const {
    std::vector<std::size_t> width(m_rows.front().size(), 0);
    for (const auto& row : m_rows)
      for (std::size_t c = 0; c < row.size() && c < width.size(); ++c) width[c] = std::max(width[c], textWidth(row[c]));
    for (const auto& row : m_rows) {
      std::string line;
      for (std::size_t c = 0; c < row.size() && c < width.size(); ++c)
        line += c + 1 < width.size() ? row[c] + std::string(width[c] + 2 - textWidth(row[c]), ' ') : row[c];
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out << line << "\n";
    }
  }

 private:
  std::vector<std::vector<std::string>> m_rows;
};

void printInfo(const ModelSpec& spec) {
  const Model model = compile(spec);
  Data data(model);
  const Eigen::IOFormat fmt(6, 0, ", ", "\n", "  [", "]");
  std::cout << "model: " << (spec.name.empty() ? "(unnamed)" : spec.name) << "\n";
  if (!spec.description.empty()) std::cout << "  " << spec.description << "\n";
  std::cout << "arithmetic: "
            << (model.arithmetic == Arithmetic::Spatial ? "spatial (6D)" : "planar (3D)")
            << ", bodies: " << model.nb << ", gravity: "
            << vec(model.arithmetic == Arithmetic::Spatial ? Eigen::VectorXd(model.gravity)
                                                           : Eigen::VectorXd(model.gravity.head<2>()))
            << " m/s^2\n\n";
  Table bodies({"#", "body", "parent", "joint", "mass", "q0"});
  for (int i = 0; i < model.nb; ++i) {
    const Mat6 I = spec.bodies[i].inertia.spatial();
    // a free joint's q0 is its position and quaternion
    std::string q0;
    for (int k = 0; k < model.jointNq(i); ++k) q0 += (k ? " " : "") + cell(model.q0(model.qIndex[i] + k));
    bodies.add({cell(i), model.names[i], model.parent[i] < 0 ? "base" : model.names[model.parent[i]],
                std::string(jointCode(model.joints[i].type)), cell(I(5, 5)), q0});
  }
  bodies.print(std::cout);
  const EnergyMomentum e = energyMomentum(model, data, model.q0, model.qd0);
  std::cout << "\ntotal mass " << e.mass << " kg, centre of mass " << vec(e.cm)
            << " m\nat the initial state: kinetic " << e.kinetic << " J, potential "
            << e.potential + 0.0 << " J\n";
  if (model.nb > 0 && model.nb <= 12) {
    std::cout << "\njoint-space inertia H(q0):\n" << crba(model, data, model.q0).format(fmt) << "\n";
    const Eigen::VectorXd tau = Eigen::VectorXd::Zero(model.nv());
    std::cout << "\nunactuated accelerations qdd (ABA):\n"
              << vec(aba(model, data, model.q0, model.qd0, tau)) << "\n";
  }
}

void printRigidBodyInfo(const RigidBodySpec& spec) {
  const RigidBody body(spec);
  const ShapeSpec& sh = spec.shape;
  std::cout << "model: " << (spec.name.empty() ? "(unnamed)" : spec.name) << "\n";
  if (!spec.description.empty()) std::cout << "  " << spec.description << "\n";
  std::cout << "kind: rigid body, gravity: " << vec(body.gravity()) << " m/s^2\n\n";
  std::cout << "shape: " << shapeTypeName(sh.type);
  if (sh.type == ShapeSpec::Type::Box) std::cout << " " << vec(sh.size) << " m";
  if (sh.type != ShapeSpec::Type::Box) std::cout << ", radius " << sh.radius << " m";
  if (sh.type == ShapeSpec::Type::Cylinder) std::cout << ", length " << sh.length << " m (body z)";
  std::cout << ", volume " << shapeVolume(sh) << " m^3\n";
  std::cout << "mass " << body.mass() << " kg, principal moments about the centre of mass "
            << vec(body.principalInertia()) << " kg m^2\n";
  std::cout << "reference point " << vec(body.referencePoint()) << " m (body)\n";
  if (spec.floor)
    std::cout << "floor: origin " << vec(spec.floor->origin) << ", normal " << vec(body.floorNormal())
              << ", restitution " << spec.floor->restitution << ", friction "
              << spec.floor->friction << ", rolling resistance " << spec.floor->rollingResistance
              << " m\n";
  else
    std::cout << "floor: none (free flight)\n";
  const RigidBodyEnergy e = body.energy();
  std::cout << "\nat the initial state: centre of mass " << vec(body.comPosition()) << " m, velocity "
            << vec(body.comVelocity()) << " m/s, angular velocity " << vec(body.angularVelocity())
            << " rad/s\nkinetic " << e.kinetic << " J, potential " << e.potential + 0.0
            << " J, floor clearance " << body.floorClearance() << " m\n";
}

void printStructureInfo(const natural::StructureSpec& spec) {
  StructureSystem system(spec);  // builds it: the structure's own checks
  std::cout << "model: " << (spec.name.empty() ? "(unnamed)" : spec.name) << "\n";
  if (!spec.description.empty()) std::cout << "  " << spec.description << "\n";
  std::cout << "kind: structure in natural coordinates (" << spec.dimension << "D), gravity: "
            << vec(Eigen::VectorXd(spec.gravity.head(spec.dimension))) << " m/s^2, integrator: "
            << system.integratorName() << "\n\n";
  Table bodies({"#", "body", "kind", "mass"});
  double mass = 0;
  for (std::size_t i = 0; i < spec.bodies.size(); ++i) {
    const natural::BodySpec& b = spec.bodies[i];
    bodies.add({cell(i), b.name, std::string(natural::bodyKindName(b.kind)), cell(b.mass)});
    mass += b.mass;
  }
  bodies.print(std::cout);
  if (!spec.joints.empty()) {
    std::cout << "\n";
    Table joints({"#", "joint", "type", "between"});
    for (std::size_t i = 0; i < spec.joints.size(); ++i) {
      const natural::JointSpec& j = spec.joints[i];
      joints.add({cell(i), j.name, std::string(natural::jointTypeName(j.type)),
                  (j.hen < 0 ? std::string("ground") : spec.bodies[static_cast<std::size_t>(j.hen)].name) + " - " +
                      spec.bodies[static_cast<std::size_t>(j.egg)].name});
    }
    joints.print(std::cout);
  }
  if (!spec.apparatuses.empty())
    std::cout << "\n" << spec.apparatuses.size() << " apparatus(es) (springs, dampers, cables)\n";
  const EnergySample e = system.energy();
  std::cout << "\ntotal mass " << mass << " kg, " << system.positionSize() << " natural coordinates, "
            << system.constraintSize() << " constraints\nat the initial state: kinetic "
            << e.kinetic << " J, potential " << e.potential + 0.0 << " J\n";
}

struct SimulateArgs {
  std::string model, output, integrator, q0, qd0, base, ctrl;  // empty / 0: the model's setting
  std::string key;  // a keyframe's name or index to start from (empty: none)
  double duration = 1.0, dt = 0, rtol = 0, atol = 0;
  int every = 1;
  bool constraintForces = false;  // --constraint-forces: lambda columns
  bool energyProjection = false;  // --energy-projection (trees)
};

bool endsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// a model file's system with the simulate options applied (batch/system_factory.h); with --key,
// started from that keyframe: its state, controls and activations
BuiltSystem makeSystem(const SimulateArgs& a) {
  const LoadedDocument document = loadWithBase(a.model, a.base);
  if (std::holds_alternative<RigidBodySpec>(document) && (!a.q0.empty() || !a.qd0.empty()))
    throw std::invalid_argument("--q0/--qd0: a rigid_body model has no joints (its initial "
                                "state is the file's 'initial')");
  if (!a.key.empty() && (!a.q0.empty() || !a.qd0.empty()))
    throw std::invalid_argument("--key gives the initial state: leave out --q0 and --qd0");
  const KeyframeSpec* key = a.key.empty() ? nullptr : &findKeyframe(document, a.key);
  SimulationOverrides o;
  o.integrator = a.integrator;
  o.dt = a.dt;
  o.rtol = a.rtol;
  o.atol = a.atol;
  o.energyProjection = a.energyProjection;
  o.every = a.every;
  BuiltSystem s = buildSystem(document, o);
  if (key) {
    s.q0 = key->q;
    s.v0 = key->qd;
    s.system->setState(0.0, key->q, key->qd);
    if (key->ctrl.size()) s.system->setControls(key->ctrl);
    if (key->act.size()) {
      Eigen::VectorXd w(s.system->auxiliarySize());
      s.system->auxiliaryState(w);
      w.tail(key->act.size()) = key->act;
      s.system->setAuxiliaryState(w);
    }
  }
  return s;
}

// simulate --q0/--qd0: one number per state variable (n of them), or the fallback
Eigen::VectorXd parseList(const std::string& text, const Eigen::VectorXd& fallback,
                          const char* option, const char* variable) {
  if (text.empty()) return fallback;
  const std::vector<double> v = parseNumbers(text, option);
  const auto n = fallback.size();
  if (static_cast<Eigen::Index>(v.size()) != n)
    throw std::invalid_argument(std::string(option) + ": expected " + std::to_string(n) +
                                " comma-separated numbers (one per " + variable + ")");
  return Eigen::Map<const Eigen::VectorXd>(v.data(), n);
}

// The most samples simulate writes: 100 million rows (a 7-joint tree's CSV is then ~30 GB),
// streamed to the file; and the most numbers of a JSON output, which is built in memory first
// (about 16 bytes per number): 20 million.
constexpr double kMaxSamples = 1e8;
constexpr double kMaxJsonNumbers = 2e7;

// how deep (m) geoms may start in each other before `simulate` says so: a millimetre, MuJoCo's
// default solimp width, within which a soft contact's impedance is still rising
constexpr double kDeepStart = 1e-3;

// Any system, through the System interface: samples every `every` steps at multiples of dt.
// CSV: t, the position and velocity columns (System::positionColumn, velocityColumn: q0..,
// qd0.. or a rigid body's x.., vx..), kinetic, potential, total, and with --constraint-forces
// one column per constraint row named by System::constraintName (its lambda,
// currentConstraintForces); JSON: the same as arrays, the default-named columns grouped into
// `q` and `qd` (one array per sample), the constraint forces into `lambda` (one array per
// sample) with their names in `constraints`.
int runSimulate(const SimulateArgs& a) {
  if (sameFile(a.model, a.output))
    throw std::invalid_argument("--output: " + a.output + " is the model file itself; write the trajectory elsewhere");
  BuiltSystem s = makeSystem(a);
  System& sys = *s.system;
  if (!a.ctrl.empty()) {  // scripted controls (formats/controls.h)
    if (!s.model || s.model->actuators.empty())
      throw std::invalid_argument("--ctrl: " + a.model + " has no actuators to drive");
    sys.setControlTable(std::make_shared<const ControlTable>(loadControlTable(a.ctrl, s.model->actuators)));
  }
  const Eigen::VectorXd start = parseList(a.q0, s.q0, "--q0", s.variable);
  if (!a.q0.empty() || !a.qd0.empty()) sys.setState(0.0, start, parseList(a.qd0, s.v0, "--qd0", s.variable));
  if (s.model && !s.model->contacts.empty()) {
    // a start inside the ground: the ground yields under the points and lifts them out slowly
    // (contact.h), not as they would lie on it
    Data data(*s.model);
    const std::vector<double> heights = groundHeights(*s.model, data, start);
    const double depth = -*std::min_element(heights.begin(), heights.end());
    if (depth > kGroundElasticStartDepth)
      std::cerr << "note: " << a.model << ": the initial state puts "
                << std::count_if(heights.begin(), heights.end(), [](double h) { return h < 0; })
                << " ground-contact point(s) up to " << depth << " m inside the ground: the ground yields there and "
                << "lifts them out at " << kGroundRecoverySpeed << " m/s (raise the model by " << depth
                << " m to start on the ground)\n";
  }
  if (s.model && !s.model->geoms.empty()) {
    // a start with geoms deep in each other: the soft contacts push them apart at once
    Data data(*s.model);
    forwardKinematics(*s.model, data, start);
    std::vector<Contact> contacts;
    collide(*s.model, data, contacts);
    const Contact* deepest = nullptr;
    int deep = 0;
    for (const Contact& c : contacts)
      if (!c.exclude && c.dist < -kDeepStart) {
        ++deep;
        if (!deepest || c.dist < deepest->dist) deepest = &c;
      }
    if (deepest)
      std::cerr << "note: " << a.model << ": the initial state puts " << deep << " contact(s) more than " << kDeepStart
                << " m deep, up to " << -deepest->dist << " m (" << geomName(*s.model, deepest->geom1) << " in "
                << geomName(*s.model, deepest->geom2) << "): the soft contacts push them apart from the first step\n";
  }
  const bool json = endsWith(a.output, ".json"), csv = endsWith(a.output, ".csv");
  if (!json && !csv) throw std::invalid_argument("--output: the file must end in .csv or .json");
  const int nq = sys.positionSize(), nv = sys.velocitySize(), nc = sys.constraintSize();
  const bool named = nq > 0 && sys.positionColumn(0) != "q0";
  const double interval = s.dt * a.every;
  const double count = std::floor(a.duration / interval + 1e-9);
  if (!(count <= kMaxSamples))
    throw std::invalid_argument("--duration: " + std::to_string(a.duration) + " s at one sample every " +
                                std::to_string(interval) + " s is " + std::to_string(count) +
                                " samples, more than " + std::to_string(kMaxSamples) +
                                "; sample less often (--every) or simulate less");
  const double columns = 4.0 + nq + nv + (a.constraintForces ? nc : 0);
  if (json && (count + 1) * columns > kMaxJsonNumbers)
    throw std::invalid_argument("--output: " + std::to_string(count + 1) + " samples of " +
                                std::to_string(static_cast<int>(columns)) + " numbers are more than a JSON output holds (" +
                                std::to_string(kMaxJsonNumbers) + " numbers); write .csv, which is streamed");
  const long samples = static_cast<long>(count);
  // CSV rows go to the file as they are made, a megabyte at a time: a write that fails (a full
  // disk, a file-size limit) stops the command with the error, and the target keeps what it had
  AtomicFile file(a.output);
  std::ostringstream out;
  out.precision(17);
  const auto flush = [&](std::size_t atLeast) {
    if (static_cast<std::size_t>(out.tellp()) < atLeast) return;
    file.write(out.str());
    out.str("");
  };
  long written = 0;
  nlohmann::ordered_json doc;
  Eigen::VectorXd phi(nc), lambda(nc);
  const bool forces = a.constraintForces && nc > 0;
  const auto* tree = dynamic_cast<const TreeSystem*>(&sys);
  const bool projected = tree && tree->simulation().energyProjectionActive();
  if (a.energyProjection && tree && !projected)
    std::cerr << "warning: --energy-projection has no effect: the model is not passive (it has "
                 "controllers, external forces or contact points) or its integrator is euler\n";
  double worst = 0;
  auto row = [&] {
    const EnergySample e = sys.energy();
    const Eigen::VectorXd &q = sys.positions(), &v = sys.velocities();
    if (nc) {
      sys.evaluate(sys.time(), q, v);
      sys.constraintResidual(phi);
      worst = std::max(worst, phi.cwiseAbs().maxCoeff());
    }
    if (forces) sys.currentConstraintForces(lambda);
    if (csv) {
      out << sys.time();
      for (int i = 0; i < nq; ++i) out << "," << q(i);
      for (int i = 0; i < nv; ++i) out << "," << v(i);
      out << "," << e.kinetic << "," << e.potential << "," << e.kinetic + e.potential;
      if (forces)
        for (int i = 0; i < nc; ++i) out << "," << lambda(i);
      out << "\n";
      ++written;
      flush(std::size_t(1) << 20);
      return;
    }
    ++written;
    doc["t"].push_back(sys.time());
    if (named) {
      for (int i = 0; i < nq; ++i) doc[sys.positionColumn(i)].push_back(q(i));
      for (int i = 0; i < nv; ++i) doc[sys.velocityColumn(i)].push_back(v(i));
    } else {
      doc["q"].push_back(std::vector<double>(q.data(), q.data() + nq));
      doc["qd"].push_back(std::vector<double>(v.data(), v.data() + nv));
    }
    doc["kinetic"].push_back(e.kinetic);
    doc["potential"].push_back(e.potential);
    doc["total"].push_back(e.kinetic + e.potential);
    if (forces) doc["lambda"].push_back(std::vector<double>(lambda.data(), lambda.data() + nc));
  };
  if (csv) {
    out << "t";
    for (int i = 0; i < nq; ++i) out << "," << sys.positionColumn(i);
    for (int i = 0; i < nv; ++i) out << "," << sys.velocityColumn(i);
    out << ",kinetic,potential,total";
    if (forces)
      for (int i = 0; i < nc; ++i) out << "," << sys.constraintName(i);
    out << "\n";
  } else {
    doc["model"] = s.name;
    doc["integrator"] = sys.integratorName();
    if (projected) doc["energy_projection"] = true;
    doc["dt"] = s.dt;
    if (forces) {
      doc["constraints"] = nlohmann::ordered_json::array();
      for (int i = 0; i < nc; ++i) doc["constraints"].push_back(sys.constraintName(i));
    }
    doc["t"] = nlohmann::ordered_json::array();
  }
  row();
  for (long k = 1; k <= samples; ++k) {
    if (!sys.advanceTo(k * interval)) break;
    row();
  }
  if (csv)
    flush(0);
  else
    file.write(doc.dump() + "\n");
  file.commit();
  if (sys.divergence()) {
    std::cerr << "error: " << sys.divergence()->message << "; wrote the samples before it to "
              << a.output << "\n";
    return 1;
  }
  std::cout << "simulated " << s.name << " for " << sys.time() << " s with "
            << sys.integratorName() << " (" << sys.stepsTaken() << " steps";
  if (sys.stepsRejected()) std::cout << ", " << sys.stepsRejected() << " rejected";
  if (nc)
    std::cout << ", " << nq << " coordinates, " << nc << " constraints, largest residual "
              << worst;
  if (projected)
    std::cout << ", energy projection removed " << tree->simulation().energyProjected() << " J";
  if (tree && (tree->model().controlled || tree->model().stops))
    std::cout << ", joints dissipated " << tree->simulation().energyDissipated() << " J";
  if (tree && !tree->model().actuators.empty())
    std::cout << ", actuators did " << tree->simulation().actuatorWork() << " J of work";
  std::cout << "), wrote " << written << " samples to " << a.output << "\n";
  return 0;
}

// Whether a JSON document is a sweep file (docs/sweeps.md) rather than a model: its format is
// "articulate-sweep", or it names no model or recording format and its "model" is a file name
// (a recording's model is an object), as in a sweep whose format is misspelled.
bool isSweepDocument(const nlohmann::json& doc) {
  if (!doc.is_object()) return false;
  const auto format = doc.find("format");
  if (format != doc.end() && *format == sweep::kSweepFormatName) return true;
  if (format != doc.end() && (*format == kModelFormatName || *format == kRecordingFormatName)) return false;
  return !doc.contains("bodies") && doc.contains("model") && doc["model"].is_string();
}

// validate of a sweep file: read by the sweep reader (batch/sweep.h: its fields, its base model,
// its parameters' pointers and indices, its metrics), which stops at the first problem. Prints
// the verdict as runValidate does for a model, the problem as FILE: PATH: REASON; returns
// whether the sweep is valid.
bool validateSweep(const std::string& f, const nlohmann::json& doc) {
  std::string problem;
  try {
    const sweep::SweepSpec spec = sweep::readSweep(doc, f);
    const auto count = [](std::size_t n, const char* what) {
      return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
    };
    std::cout << f << ": valid " << sweep::kSweepFormatName << ", " << count(static_cast<std::size_t>(spec.runs()), "run") << " of "
              << doc["model"].get<std::string>() << " (" << count(spec.parameters.size(), "parameter") << ", "
              << count(spec.metrics.size(), "metric") << ")\n";
    return true;
  } catch (const FormatError& e) {
    // the reader's message names the sweep file first; a problem of another file names that one
    const std::string what = e.what(), prefix = f + ": ";
    problem = what.compare(0, prefix.size(), prefix) == 0 ? what : prefix + what;
  } catch (const std::bad_alloc&) {
    problem = f + ": ran out of memory while reading the sweep or its base model";
  }
  std::cout << problem << "\n" << f << ": INVALID (1 problem)\n";
  return false;
}

// every problem of every file, one per line as FILE: PATH: REASON (a sweep file: its first
// problem)
int runValidate(const std::vector<std::string>& files, const std::string& base) {
  int bad = 0;
  for (const std::string& f : files) {
    Diagnostics problems;
    std::optional<LoadedDocument> document;
    std::optional<nlohmann::json> sweepFile;  // a sweep, checked by the sweep reader
    try {
      // the one reader (formats/document.h); problems collected rather than thrown
      if (isUrdfPath(f))
        document = loadWithBase(f, base);
      else if (isMjcfPath(f))
        document = loadDocument(f);
      else if (nlohmann::json doc = readJsonFile(f); isSweepDocument(doc))
        sweepFile = std::move(doc);
      else
        document = readDocument(doc, problems);
      if (document)  // its meshes, as loadDocument (convert, the app) checks them: a missing one is a note
        if (auto* lm = std::get_if<LoadedModel>(&*document); lm && lm->format != "urdf" && lm->format != "mjcf")
          resolveMeshes(*lm, f);
    } catch (const FormatError& e) {
      problems.push_back({"", e.what() + (f.size() + 2)});
    } catch (const std::bad_alloc&) {
      problems.push_back({"", "ran out of memory while reading the file"});
    }
    if (sweepFile) {
      if (!validateSweep(f, *sweepFile)) ++bad;
      continue;
    }
    if (!problems.empty()) {
      ++bad;
      for (const Diagnostic& d : problems) std::cout << f << ": " << d.text() << "\n";
      std::cout << f << ": INVALID (" << problems.size() << " problem"
                << (problems.size() > 1 ? "s" : "") << ")\n";
      continue;
    }
    if (const auto* st = std::get_if<natural::StructureSpec>(&*document)) {
      std::cout << f << ": valid structure, " << st->bodies.size() << " bodies, " << st->joints.size()
                << " joints, " << st->apparatuses.size() << " apparatuses\n";
      continue;
    }
    if (const auto* rb = std::get_if<RigidBodySpec>(&*document)) {
      std::cout << f << ": valid " << kModelFormatName << ", rigid body (" << shapeTypeName(rb->shape.type)
                << ", " << rb->effectiveMass() << " kg)\n";
      continue;
    }
    const LoadedModel* lm = &std::get<LoadedModel>(*document);
    std::cout << f << ": valid " << lm->format << ", " << lm->spec.bodies.size() << " bodies";
    if (lm->motion)
      std::cout << ", motion of " << lm->motion->t.size() << " samples over "
                << lm->motion->t(lm->motion->t.size() - 1) - lm->motion->t(0) << " s";
    std::cout << "\n";
    for (const std::string& note : lm->notes) std::cout << f << ": note: " << note << "\n";
  }
  return bad ? 1 : 0;
}

// `generate`'s options: the generator (its subcommand's name) and its parameters
struct GenerateArgs {
  std::string which, format = "articulate", name, gravity, output;
  bool floating = false;
  AutoTreeOptions tree;
  std::string axes = "Rz";
  int planarBodies = 2;
  bool tracking = false;
  int discPoints = 8;
  double cylinderHeight = 0.1;
};

// `generate`: a model from one of spatial_v2's generators, checked, to a file or stdout
int runGenerate(const GenerateArgs& a) {
  auto emit = [&](const std::string& text) {
    if (a.output.empty())
      std::cout << text;
    else
      writeFileAtomically(a.output, text);
  };
  if (a.which == "bouncingcylinder") {
    if (a.format == "spatial_v2")
      throw std::invalid_argument("--format spatial_v2: a rigid_body model has no spatial_v2 form");
    if (a.floating) throw std::invalid_argument("--floating: a rigid body floats already");
    RigidBodySpec body = bouncingCylinder(a.cylinderHeight);
    if (!a.gravity.empty()) body.gravity = parseGravity(a.gravity, Arithmetic::Spatial);
    if (!a.name.empty()) body.name = a.name;
    RigidBody check(body);  // a generator must produce a valid model
    emit(formatJson(rigidBodyToJson(body)));
    return 0;
  }
  ModelSpec spec;
  if (a.which == "autotree") {
    AutoTreeOptions tree = a.tree;
    tree.axes = parseAxes(a.axes);
    spec = autoTree(tree);
  } else if (a.which == "planar") {
    spec = planarChain(a.planarBodies);
  } else if (a.which == "doublependulum") {
    spec = doublePendulum();
  } else if (a.which == "gfxexample") {
    spec = gfxExample(a.tracking);
  } else if (a.which == "vee") {
    spec = vee();
  } else if (a.which == "singlebody") {
    spec = singleBody();
  } else if (a.which == "scissor") {
    spec = scissor();
  } else if (a.which == "doubleelbow") {
    spec = doubleElbow();
  } else {
    spec = rollingDisc(a.discPoints);
  }
  if (a.floating) spec = floatBase(spec);
  // Articulate has a free joint for spatial_v2's six-joint floating base (specToSpatialV2
  // writes the six joints again)
  spec = convertFloatingBases(spec);
  if (!a.gravity.empty()) spec.gravity = parseGravity(a.gravity, spec.arithmetic);
  if (!a.name.empty()) spec.name = a.name;
  compile(spec);  // a generator must produce a valid model
  emit(formatJson(a.format == "spatial_v2" ? specToSpatialV2(spec) : specToJson(spec)));
  return 0;
}

// `convert`: any model file to the Articulate format, spatial_v2 JSON or URDF, as far as each
// can hold it
int runConvert(const std::string& in, const std::string& out, const std::string& to, const std::string& base,
               const std::string& contact, double servos) {
  if (sameFile(in, out))
    throw std::invalid_argument("OUT: " + out + " is the input file itself; converting over it would lose it");
  const LoadedDocument document = loadWithBase(in, base, contact);
  if (!std::holds_alternative<LoadedModel>(document)) {
    // a rigid body or a structure has only the Articulate form
    const auto* st = std::get_if<natural::StructureSpec>(&document);
    const std::string target = to == "auto" && isUrdfPath(out) ? "urdf" : to;
    if (target == "spatial_v2" || target == "urdf")
      throw std::invalid_argument("--to " + target + ": a " + (st ? "structure" : "rigid_body") +
                                  " model has no " + target + " form");
    if (st) {
      saveStructure(out, *st);
      std::cout << "wrote " << out << " (articulate-model, structure, " << st->bodies.size() << " bodies)\n";
    } else {
      saveRigidBody(out, std::get<RigidBodySpec>(document));
      std::cout << "wrote " << out << " (articulate-model, rigid body)\n";
    }
    return 0;
  }
  LoadedModel lm = std::get<LoadedModel>(document);
  for (const std::string& note : lm.notes) std::cerr << "note: " << in << ": " << note << "\n";
  if (servos > 0) {  // hold the initial pose (servos.h)
    ServoOptions o;
    o.frequency = servos;
    const int added = addServos(lm.spec, compile(lm.spec).q0, o);
    std::cerr << "note: " << in << ": added " << added << " servo(s) at " << servos << " Hz, holding the initial pose\n";
  }
  // auto: URDF when OUT ends in .urdf, else the other one of Articulate and spatial_v2
  std::string format = to;
  if (to == "auto")
    format = isUrdfPath(out)                                      ? "urdf"
             : lm.format == "spatial_v2" || lm.format == "urdf" || lm.format == "mjcf" ? "articulate"
                                                                : "spatial_v2";
  if (format == "urdf") {
    for (const std::string& note : saveUrdf(out, lm.spec)) std::cerr << "note: " << out << ": " << note << "\n";
  } else if (format == "spatial_v2") {
    for (const std::string& note : saveSpatialV2(out, lm.spec)) std::cerr << "note: " << out << ": " << note << "\n";
  } else {
    saveModel(out, lm.spec);
  }
  std::cout << "wrote " << out << " (" << (format == "articulate" ? "articulate-model" : format) << ", "
            << lm.spec.bodies.size() << " bodies)\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"articulate-cli: inspect, check and generate articulated-mechanism models"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "articulate-cli 0.1.0");

  std::string file, out;
  double tol = 1e-9;
  auto* conf = app.add_subcommand(
      "conformance", "check the engine against a spatial_v2 reference file (exit 1 on failure)");
  conf->add_option("FILE", file, "reference data (schema spatial_v2-reference-1)")
      ->required()
      ->check(CLI::ExistingFile);
  conf->add_option("--tolerance", tol, "relative tolerance")->check(finiteIn(0, 1))->capture_default_str();

  auto* info = app.add_subcommand("info", "print a model's bodies, mass properties and dynamics");
  info->add_option("MODEL", file, "model file")->required()->check(CLI::ExistingFile);
  std::string base;  // --base of info and validate
  info->add_option("--base", base, kBaseHelp);

  std::vector<std::string> files;
  auto* validate = app.add_subcommand(
      "validate", "check model files (Articulate or spatial_v2 JSON, with motion, URDF or MJCF) and sweep files; exit 1 on problems");
  validate->add_option("FILES", files, "model or sweep files")->required();
  validate->add_option("--base", base, std::string(kBaseHelp) + " (for the URDF files among FILES)");

  std::string in, to = "auto";
  auto* convert = app.add_subcommand("convert", "convert between the Articulate format, spatial_v2 JSON and URDF; read MJCF (.xml)");
  convert->add_option("IN", in, "input model")->required()->check(CLI::ExistingFile);
  convert->add_option("OUT", out, "output file (written atomically)")->required();
  std::string convertBase;
  convert->add_option("--base", convertBase, kBaseHelp);
  std::string convertContact;
  convert->add_option("--urdf-contact", convertContact,
                      "URDF: what collision geometry becomes: geoms (body-body contact in the soft constraint model, the "
                      "default) or points (ground-contact points of a floating robot on the compliant ground, exact limits)")
      ->check(CLI::IsMember({"geoms", "points"}));
  double servos = 0;
  convert->add_option("--add-servos", servos,
                      "add a position servo at HZ (critically damped, from the joint-space inertia) on every joint "
                      "without a drive, holding the initial pose (default 5 Hz when given without a value)")
      ->expected(0, 1)
      ->default_str("5")
      ->check(finiteIn(1e-3, 1e3));
  convert->add_option("--to", to, "output format: articulate, spatial_v2, urdf, or auto (urdf for OUT.urdf, else the other one of articulate and spatial_v2; articulate for URDF and MJCF input)")
      ->check(CLI::IsMember({"auto", "articulate", "spatial_v2", "urdf"}))
      ->capture_default_str();

  SimulateArgs sa;
  auto* simulate = app.add_subcommand("simulate", "integrate a model's dynamics and write the trajectory");
  simulate->add_option("MODEL", sa.model, "model file")->required()->check(CLI::ExistingFile);
  simulate->add_option("--duration", sa.duration, "simulated time, s (at most 1e6)")->check(finiteIn(1e-9, 1e6))->capture_default_str();
  simulate->add_option("--dt", sa.dt, "step (rk4, euler, zhong06) or largest step (dopri5), s (default: the model's, else 0.001)")->check(finiteIn(1e-9, 10));
  simulate->add_option("--integrator", sa.integrator, "trees: rk4, euler or dopri5 (default: the model's, else rk4); rigid bodies: rk4; structures: zhong06 or rk4 (default: the model's, else zhong06)")
      ->check(CLI::IsMember({"rk4", "euler", "dopri5", "mujoco-euler", "mujoco-implicitfast", "zhong06"}));
  simulate->add_option("--rtol", sa.rtol, "dopri5 relative tolerance (default: the model's, else 1e-9)")->check(finiteIn(1e-15, 1));
  simulate->add_option("--atol", sa.atol, "dopri5 absolute tolerance (default: the model's, else 1e-9)")->check(finiteIn(1e-15, 1));
  simulate->add_option("--q0", sa.q0, "initial joint positions a,b,c (default: the model's)");
  simulate->add_option("--qd0", sa.qd0, "initial joint velocities (default: the model's)");
  simulate->add_option("--key", sa.key, kKeyHelp);
  simulate->add_option("--every", sa.every, "write every K-th sample (of dt)")->check(CLI::Range(1, 1000000000))->capture_default_str();
  simulate->add_flag("--energy-projection", sa.energyProjection, "trees with rk4 or dopri5: keep a passive model's total energy at its initial value by rescaling the velocities after every step (default: the model's simulation.energy_projection)");
  simulate->add_flag("--constraint-forces", sa.constraintForces, "also write the constraint forces lambda, one column per constraint row (named as the system names it)");
  simulate->add_option("-o,--output", sa.output, "FILE.csv or FILE.json")->required();
  simulate->add_option("--base", sa.base, kBaseHelp);
  simulate->add_option("--ctrl", sa.ctrl, "drive the actuators by a CSV control table: header t,ACTUATOR,..., one row per time, linear between them (docs/cli.md)")
      ->check(CLI::ExistingFile);

  SweepArgs sw;
  auto* sweepCmd = addSweepCommand(app, sw);
  DynamicsArgs dyn;
  auto* dynamicsCmd = addDynamicsCommand(app, dyn);

  GenerateArgs ga;
  auto* gen = app.add_subcommand("generate", "generate a model");
  gen->require_subcommand(1);
  auto* genTree = gen->add_subcommand("autotree", "spatial_v2 autoTree(nb, bf, skew, taper)");
  genTree->add_option("--bodies", ga.tree.bodies, "number of bodies (at most 10000, a model's limit)")->check(CLI::Range(0, kMaxBodies));
  genTree->add_option("--branching", ga.tree.branching, "branching factor (>= 1)")->check(finiteIn(1, 1e6));
  genTree->add_option("--skew", ga.tree.skew, "axis skew about x, rad")->check(finiteIn(-100, 100));
  genTree->add_option("--taper", ga.tree.taper, "link length ratio (> 0)")->check(finiteIn(1e-3, 1e3));
  genTree->add_option("--axes", ga.axes, "joint codes used in turn, e.g. Rz,Ry")->capture_default_str();
  auto* genPlanar = gen->add_subcommand("planar", "spatial_v2 planar(n) chain");
  genPlanar->add_option("--bodies", ga.planarBodies, "number of links (at most 10000)")->check(CLI::Range(0, kMaxBodies));
  auto* genPendulum = gen->add_subcommand(
      "doublependulum", "planar(2) under gravity -y from q = [pi/3, -pi/6] (the reference trajectory)");
  auto* genGfx = gen->add_subcommand("gfxexample", "spatial_v2 gfxExample: every drawing instruction");
  genGfx->add_flag("--tracking", ga.tracking, "camera tracking body 2 (gfxExample(1))");
  auto* genVee = gen->add_subcommand("vee", "two floating rods joined by a 45-degree joint, zero gravity");
  auto* genSingle = gen->add_subcommand("singlebody", "spatial_v2 singlebody: a floating 3x2x1 box");
  auto* genScissor = gen->add_subcommand("scissor", "spatial_v2 scissor: two floating plates");
  auto* genElbow = gen->add_subcommand("doubleelbow", "spatial_v2 doubleElbow: geared double elbow");
  auto* genDisc = gen->add_subcommand("rollingdisc", "spatial_v2 rollingdisc(npt): a floating disc");
  genDisc->add_option("--points", ga.discPoints, "contact points around each rim (npt)")
      ->check(CLI::Range(3, 1024))
      ->capture_default_str();
  auto* genCylinder = gen->add_subcommand(
      "bouncingcylinder", "the single rigid body's reference workload: a spinning cylinder dropped on a floor");
  genCylinder->add_option("--height", ga.cylinderHeight, "initial height of its centre, m (>= 0.045)")
      ->capture_default_str();
  gen->add_option("-o,--output", ga.output, "output file (default: standard output)");
  gen->add_option("--format", ga.format, "articulate or spatial_v2")
      ->check(CLI::IsMember({"articulate", "spatial_v2"}))
      ->capture_default_str();
  gen->add_flag("--floating", ga.floating,
                "float the base (spatial_v2 floatbase: Px Py Pz Rx Ry Rz, 5 massless bodies)");
  gen->add_option("--gravity", ga.gravity, "gravity gx,gy,gz (planar: gx,gy), m/s^2");
  gen->add_option("--name", ga.name, "the model's name");
  for (CLI::App* sub : {genTree, genPlanar, genPendulum, genGfx, genVee, genSingle, genScissor,
                        genElbow, genDisc, genCylinder})
    sub->fallthrough();

  CLI11_PARSE(app, argc, argv);
  try {
    if (app.got_subcommand(conf)) return runConformanceCmd(file, tol);
    if (app.got_subcommand(info)) {
      const LoadedDocument document = loadWithBase(file, base);
      if (const auto* rb = std::get_if<RigidBodySpec>(&document))
        printRigidBodyInfo(*rb);
      else if (const auto* st = std::get_if<natural::StructureSpec>(&document))
        printStructureInfo(*st);
      else
        printInfo(std::get<LoadedModel>(document).spec);
      return 0;
    }
    if (app.got_subcommand(validate)) return runValidate(files, base);
    if (app.got_subcommand(simulate)) return runSimulate(sa);
    if (app.got_subcommand(convert)) {
      if (convert->count("--add-servos") && servos == 0) servos = 5;
      return runConvert(in, out, to, convertBase, convertContact, servos);
    }
    if (app.got_subcommand(sweepCmd)) return runSweepCommand(sw);
    if (app.got_subcommand(dynamicsCmd)) return runDynamicsCommand(dyn);
    if (app.got_subcommand(gen)) {
      ga.which = gen->get_subcommands().front()->get_name();
      return runGenerate(ga);
    }
  } catch (const CLI::Error& e) {
    return app.exit(e);
  } catch (const std::bad_alloc&) {
    // a bare "std::bad_alloc" named neither the command nor the file: say both
    std::string input;
    if (app.got_subcommand(conf) || app.got_subcommand(info)) input = file;
    else if (app.got_subcommand(simulate)) input = sa.model;
    else if (app.got_subcommand(convert)) input = in;
    else if (app.got_subcommand(sweepCmd)) input = sw.spec.empty() ? sw.collect : sw.spec;
    else if (app.got_subcommand(dynamicsCmd)) input = dyn.model;
    const CLI::App* command = app.get_subcommands().empty() ? nullptr : app.get_subcommands().front();
    std::cerr << "error: " << (input.empty() ? std::string() : input + ": ") << "ran out of memory: '"
              << (command ? command->get_name() : std::string("articulate-cli"))
              << "' needed more memory than it could get while reading or working on "
              << (input.empty() ? std::string("its input") : "this file") << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
