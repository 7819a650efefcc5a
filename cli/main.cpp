// articulate-cli: inspect, check and generate models without the GUI.
// Exit codes: 0 success, 1 a check failed, 2 bad input (unreadable or invalid file).

#include <cmath>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <sstream>

#include <CLI/CLI.hpp>

#include "articulate/conformance.h"
#include "articulate/dynamics.h"
#include "articulate/generators.h"
#include "articulate/model_format.h"
#include "articulate/model_io.h"

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

int runConformanceCmd(const std::string& file, double tol) {
  const ConformanceReport r = runConformance(readJsonFile(file), tol);
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
  std::cout << std::left << std::setw(4) << "#" << std::setw(16) << "body" << std::setw(16)
            << "parent" << std::setw(8) << "joint" << std::setw(10) << "mass" << "q0\n";
  for (int i = 0; i < model.nb; ++i) {
    const Mat6 I = spec.bodies[i].inertia.spatial();
    std::cout << std::left << std::setw(4) << i << std::setw(16) << model.names[i] << std::setw(16)
              << (model.parent[i] < 0 ? "base" : model.names[model.parent[i]]) << std::setw(8)
              << jointCode(model.joints[i].type) << std::setw(10) << I(5, 5) << model.q0(i) << "\n";
  }
  const EnergyMomentum e = energyMomentum(model, data, model.q0, model.qd0);
  std::cout << "\ntotal mass " << e.mass << " kg, centre of mass " << vec(e.cm)
            << " m\nat the initial state: kinetic " << e.kinetic << " J, potential "
            << e.potential + 0.0 << " J\n";
  if (model.nb > 0 && model.nb <= 12) {
    std::cout << "\njoint-space inertia H(q0):\n" << crba(model, data, model.q0).format(fmt) << "\n";
    const Eigen::VectorXd tau = Eigen::VectorXd::Zero(model.nb);
    std::cout << "\nunactuated accelerations qdd (ABA):\n"
              << vec(aba(model, data, model.q0, model.qd0, tau)) << "\n";
  }
}

// every problem of every file, one per line as FILE: PATH: REASON
int runValidate(const std::vector<std::string>& files) {
  int bad = 0;
  for (const std::string& f : files) {
    Diagnostics problems;
    std::optional<LoadedModel> lm;
    try {
      lm = readModelDocument(readJsonFile(f), problems);
    } catch (const FormatError& e) {
      problems.push_back({"", e.what() + (f.size() + 2)});
    }
    if (!problems.empty()) {
      ++bad;
      for (const Diagnostic& d : problems) std::cout << f << ": " << d.text() << "\n";
      std::cout << f << ": INVALID (" << problems.size() << " problem"
                << (problems.size() > 1 ? "s" : "") << ")\n";
      continue;
    }
    std::cout << f << ": valid " << lm->format << ", " << lm->spec.bodies.size() << " bodies";
    if (lm->motion)
      std::cout << ", motion of " << lm->motion->t.size() << " samples over "
                << lm->motion->t(lm->motion->t.size() - 1) - lm->motion->t(0) << " s";
    std::cout << "\n";
  }
  return bad ? 1 : 0;
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
  conf->add_option("--tolerance", tol, "relative tolerance")->capture_default_str();

  auto* info = app.add_subcommand("info", "print a model's bodies, mass properties and dynamics");
  info->add_option("MODEL", file, "model file")->required()->check(CLI::ExistingFile);

  std::vector<std::string> files;
  auto* validate = app.add_subcommand(
      "validate", "check model files (Articulate or spatial_v2 JSON, with motion); exit 1 on problems");
  validate->add_option("FILES", files, "model files")->required();

  std::string in, to = "auto";
  auto* convert = app.add_subcommand("convert", "convert between the Articulate format and spatial_v2 JSON");
  convert->add_option("IN", in, "input model")->required()->check(CLI::ExistingFile);
  convert->add_option("OUT", out, "output file (written atomically)")->required();
  convert->add_option("--to", to, "output format: articulate, spatial_v2, or auto (the other one)")
      ->check(CLI::IsMember({"auto", "articulate", "spatial_v2"}))
      ->capture_default_str();

  std::string genFormat = "articulate";
  auto* gen = app.add_subcommand("generate", "generate a model");
  gen->require_subcommand(1);
  AutoTreeOptions at;
  std::string axes = "Rz";
  auto* genTree = gen->add_subcommand("autotree", "spatial_v2 autoTree(nb, bf, skew, taper)");
  genTree->add_option("--bodies", at.bodies, "number of bodies")->check(CLI::Range(0, 100000));
  genTree->add_option("--branching", at.branching, "branching factor (>= 1)")->check(CLI::Range(1.0, 1e6));
  genTree->add_option("--skew", at.skew, "axis skew about x, rad");
  genTree->add_option("--taper", at.taper, "link length ratio (> 0)")->check(CLI::PositiveNumber);
  genTree->add_option("--axes", axes, "joint codes used in turn, e.g. Rz,Ry")->capture_default_str();
  int planarN = 2;
  auto* genPlanar = gen->add_subcommand("planar", "spatial_v2 planar(n) chain");
  genPlanar->add_option("--bodies", planarN, "number of links")->check(CLI::Range(0, 100000));
  gen->add_option("-o,--output", out, "output file (default: standard output)");
  gen->add_option("--format", genFormat, "articulate or spatial_v2")
      ->check(CLI::IsMember({"articulate", "spatial_v2"}))
      ->capture_default_str();
  genTree->fallthrough();
  genPlanar->fallthrough();

  CLI11_PARSE(app, argc, argv);
  try {
    if (app.got_subcommand(conf)) return runConformanceCmd(file, tol);
    if (app.got_subcommand(info)) {
      printInfo(loadModel(file).spec);
      return 0;
    }
    if (app.got_subcommand(validate)) return runValidate(files);
    if (app.got_subcommand(convert)) {
      const LoadedModel lm = loadModel(in);
      const bool toSv2 = to == "spatial_v2" || (to == "auto" && lm.format != "spatial_v2");
      if (toSv2)
        saveSpatialV2(out, lm.spec);
      else
        saveModel(out, lm.spec);
      std::cout << "wrote " << out << " (" << (toSv2 ? "spatial_v2" : "articulate-model") << ", "
                << lm.spec.bodies.size() << " bodies)\n";
      return 0;
    }
    if (app.got_subcommand(gen)) {
      ModelSpec spec;
      if (gen->got_subcommand(genTree)) {
        at.axes = parseAxes(axes);
        spec = autoTree(at);
      } else {
        spec = planarChain(planarN);
      }
      compile(spec);  // a generator must produce a valid model
      const std::string text =
          formatJson(genFormat == "spatial_v2" ? specToSpatialV2(spec) : specToJson(spec));
      if (out.empty())
        std::cout << text;
      else
        writeFileAtomically(out, text);
      return 0;
    }
  } catch (const CLI::Error& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
