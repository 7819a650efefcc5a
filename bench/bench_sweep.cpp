// Sweep throughput (issue 18): simulated seconds per wall second per thread (counter
// `sim_s_per_s`) of a sweep's runs as `articulate-cli sweep` does them (the model built, 1 s of
// simulation at 1 ms with RK4 or semi-implicit Euler, the metrics sampled every 10 steps), on 1
// and 2 threads, for the autoTree(20) chain (Rz/Ry joints alternating, under gravity from q =
// 0.3 rad everywhere), the standing quadruped (models/quadruped.json: a free-joint trunk, 12
// PD-controlled hinges, 4 foot contacts) and the planar double pendulum
// (models/tree_double_pendulum.json). BM_sweep/articulate_<rk4|euler>/<model> steps one run
// alone (sweep::runOne, "vectorise": false); BM_sweep/articulate_<rk4|euler>_x4/<model> steps
// kLanes runs together (sweep::runLanes), for the models that path takes (not the quadruped)
// in builds that target AVX2 (not bench-compare's). With -DARTICULATE_BENCH_MUJOCO=ON (preset
// bench-mujoco, AVX2 kept) or -DARTICULATE_BENCH_COMPARE=ON the same runs in MuJoCo 2.2.2
// (mujoco_models.cpp, registerSweepComparisons: mj_step on one mjData per thread, Euler and RK4
// at 1 ms) sit beside them in the same executable, named BM_sweep/mujoco_<integrator>/<model>.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include <benchmark/benchmark.h>

#include "articulate/batch/sweep.h"
#include "articulate/dynamics/batch.h"
#include "articulate/formats/articulate.h"
#include "articulate/formats/document.h"
#include "articulate/formulations/generators.h"
#include "workloads.h"
#ifdef ARTICULATE_BENCH_MUJOCO
#include "mujoco_models.h"
#endif

namespace {

namespace fs = std::filesystem;

const std::string kModels = ARTICULATE_MODELS_DIR;

art::ModelSpec chain20() {
  art::AutoTreeOptions o;
  o.bodies = 20;
  o.axes = {art::JointType::Rz, art::JointType::Ry};
  art::ModelSpec spec = art::autoTree(o);
  spec.name = "autotree_chain20";
  spec.gravity = art::Vec3(0, 0, -9.81);
  for (auto& b : spec.bodies) b.q0 = 0.3;
  return spec;
}

// this process's folder for the benchmarks' model and sweep files (created)
fs::path scratchDir() {
  const fs::path dir = fs::temp_directory_path() / ("articulate-bench-sweep-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

// a sweep of `model` (1 s; `integrator` at 1 ms, or the model's settings when empty) in a
// scratch folder, read as the command reads it: one run stepped alone ("vectorise": false), or
// (lanes) kLanes runs from initial angles 0.300, 0.301, ... of the first joint, stepped
// together
std::shared_ptr<art::sweep::SweepSpec> benchSweep(const std::string& model, const std::string& name,
                                                  const std::string& integrator, bool lanes) {
  const fs::path file = scratchDir() / (name + ".sweep.json");
  std::ofstream out(file);
  out << R"({"format": "articulate-sweep", "model": ")" << model << R"(", )"
      << (integrator.empty() ? "" : R"("integrator": ")" + integrator + R"(", "dt": 0.001, )");
  if (lanes) {
    out << R"("parameters": [{"name": "q0", "initial_q": 0, "values": [)";
    for (int l = 0; l < art::kLanes; ++l) out << (l ? ", " : "") << 0.3 + 0.001 * l;
    out << "]}], ";
  } else {
    out << R"("vectorise": false, )";
  }
  out << R"("duration": 1, "every": 10, "metrics": ["energy_drift", {"max": "total"}]})";
  out.close();
  return std::make_shared<art::sweep::SweepSpec>(art::sweep::readSweep(file.string()));
}

void registerArticulate(const std::string& name, std::shared_ptr<art::sweep::SweepSpec> spec) {
  const bool lanes = spec->runs() > 1;
  if (lanes && !art::sweep::vectorised(*spec)) return;  // the model takes the one-run path only
  auto* b = benchmark::RegisterBenchmark(("BM_sweep/" + name).c_str(), [spec, lanes](benchmark::State& state) {
    std::vector<long> runs;
    for (long r = 0; r < spec->runs(); ++r) runs.push_back(r);
    for (auto _ : state) {
      std::vector<art::sweep::RunResult> results;
      if (lanes) {
        results = art::sweep::runLanes(*spec, runs, nullptr, {});
      } else if (auto r = art::sweep::runOne(*spec, 0, nullptr, "")) {
        results.push_back(*r);
      }
      if (results.size() != runs.size() || results.front().status != "ok") {
        state.SkipWithError("the runs did not end ok");
        break;
      }
      benchmark::DoNotOptimize(results.data());
    }
    state.counters["sim_s_per_s"] =
        benchmark::Counter(static_cast<double>(state.iterations() * runs.size()) * spec->duration,
                           benchmark::Counter::kIsRate | benchmark::Counter::kAvgThreads);
  });
  b->Threads(1)->Threads(2)->UseRealTime()->Unit(benchmark::kMillisecond);
}

}  // namespace

namespace bench {

void registerSweepBenchmarks() {
  const art::ModelSpec chain = chain20();
  const std::string chainFile = (scratchDir() / "autotree_chain20.json").string();
  art::saveModel(chainFile, chain);
  const std::pair<std::string, std::string> models[] = {{"chain20", chainFile},
                                                        {"quadruped", kModels + "/quadruped.json"},
                                                        {"double_pendulum", kModels + "/tree_double_pendulum.json"}};
  for (const char* integrator : {"rk4", "euler"})
    for (bool lanes : {false, true})
      for (const auto& [name, file] : models)
        registerArticulate(std::string("articulate_") + integrator + (lanes ? "_x4/" : "/") + name,
                           benchSweep(file, name + "_" + integrator + (lanes ? "_x4" : ""), integrator, lanes));
#ifdef ARTICULATE_BENCH_MUJOCO
  const art::ModelSpec quadruped = std::get<art::LoadedModel>(art::loadDocument(kModels + "/quadruped.json")).spec;
  registerSweepComparisons(chain, quadruped);
#endif
}

}  // namespace bench
