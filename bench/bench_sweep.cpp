// Sweep throughput (issue 18): simulated seconds per wall second per thread (counter
// `sim_s_per_s`) of a sweep's runs as `articulate-cli sweep` does them (sweep::runOne: the
// model variant built, 1 s of simulation at 1 ms with RK4 or semi-implicit Euler, the metrics
// sampled every 10 steps), named BM_sweep/articulate_<rk4|euler>/<model>, on 1 and 2 threads, for the autoTree(20) chain
// (Rz/Ry joints alternating, under gravity from q = 0.3 rad everywhere) and the standing
// quadruped (models/quadruped.json: a free-joint trunk, 12 PD-controlled hinges, 4 foot
// contacts). With -DARTICULATE_BENCH_COMPARE=ON the same runs in MuJoCo 2.2.2 (compare.cpp,
// registerSweepComparisons: mj_step on one mjData per thread, Euler and RK4 at 1 ms) sit beside
// them in the same executable, named BM_sweep/mujoco_<integrator>/<model>.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <unistd.h>

#include <benchmark/benchmark.h>

#include "articulate/batch/sweep.h"
#include "articulate/formats/articulate.h"
#include "articulate/formats/document.h"
#include "articulate/formulations/generators.h"
#include "workloads.h"
#ifdef ARTICULATE_BENCH_COMPARE
#include "compare.h"
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

// a one-run sweep of `model` (1 s; `integrator` at 1 ms, or the model's settings when empty) in
// a scratch folder, read as the command reads it
std::shared_ptr<art::sweep::SweepSpec> oneRunSweep(const std::string& model, const std::string& name,
                                                   const std::string& integrator = "") {
  const fs::path file = scratchDir() / (name + ".sweep.json");
  std::ofstream(file) << R"({"format": "articulate-sweep", "model": ")" << model << R"(", )"
                      << (integrator.empty() ? "" : R"("integrator": ")" + integrator + R"(", "dt": 0.001, )")
                      << R"("duration": 1, "every": 10, "metrics": ["energy_drift", {"max": "total"}]})";
  return std::make_shared<art::sweep::SweepSpec>(art::sweep::readSweep(file.string()));
}

void registerArticulate(const std::string& name, std::shared_ptr<art::sweep::SweepSpec> spec) {
  auto* b = benchmark::RegisterBenchmark(("BM_sweep/" + name).c_str(), [spec](benchmark::State& state) {
    for (auto _ : state) {
      const auto r = art::sweep::runOne(*spec, 0, nullptr, "");
      if (!r || r->status != "ok") {
        state.SkipWithError("the run did not end ok");
        break;
      }
      benchmark::DoNotOptimize(r->metrics.data());
    }
    state.counters["sim_s_per_s"] =
        benchmark::Counter(static_cast<double>(state.iterations()) * spec->duration,
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
  for (const char* integrator : {"rk4", "euler"}) {
    const std::string prefix = std::string("articulate_") + integrator + "/";
    registerArticulate(prefix + "chain20", oneRunSweep(chainFile, std::string("chain20_") + integrator, integrator));
    registerArticulate(prefix + "quadruped",
                       oneRunSweep(kModels + "/quadruped.json", std::string("quadruped_") + integrator, integrator));
  }
#ifdef ARTICULATE_BENCH_COMPARE
  const art::ModelSpec quadruped = std::get<art::LoadedModel>(art::loadDocument(kModels + "/quadruped.json")).spec;
  registerSweepComparisons(chain, quadruped);
#endif
}

}  // namespace bench
