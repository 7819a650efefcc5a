// Timings of Articulate's tree algorithms: BM_<algorithm>/<chain|tree>/<N>; and of simulation
// steps of example models, BM_step/<model>/<integrator> (1 ms steps; items per second are steps
// per second): the unconstrained chain, the constrained four-bar and slider-crank, and the
// quadruped standing on its four feet (contact, PD controllers).
// Run: build/release/bench/articulate-bench [--benchmark_filter=BM_aba]
#include <benchmark/benchmark.h>

#include "articulate/dynamics.h"
#include "articulate/model_format.h"
#include "articulate/simulation.h"
#include "workloads.h"

#ifdef ARTICULATE_BENCH_COMPARE
#include "compare.h"
#endif

namespace {

using bench::Workload;

template <class F>
void registerAlgorithm(const char* name, const Workload& w, F body) {
  const std::string label = std::string("BM_") + name + "/" + w.kind + "/" + std::to_string(w.bodies);
  benchmark::RegisterBenchmark(label.c_str(), [w, body](benchmark::State& state) {
    const art::Model model = art::compile(w.spec);
    art::Data data(model);
    for (auto _ : state) body(model, data, w);
    state.SetItemsProcessed(state.iterations());
  });
}

// Steps of art::Simulation on a model file of models/ with 1 ms steps (the quadruped's legs
// are held by the PD controllers of its file, so it keeps standing however long it runs).
void registerStep(const char* file, const char* integrator) {
  const std::string name = std::string(file).substr(0, std::string(file).find('.'));
  const std::string label = "BM_step/" + name + "/" + integrator;
  const std::string path = std::string(ARTICULATE_MODELS_DIR) + "/" + file;
  benchmark::RegisterBenchmark(label.c_str(), [path, integrator](benchmark::State& state) {
    const art::Model model = art::compile(art::loadModel(path).spec);
    art::SimulationOptions opt;
    opt.dt = 1e-3;
    art::parseIntegrator(integrator, opt.integrator);
    art::Simulation sim(model, opt);
    for (auto _ : state) {
      if (!sim.step()) {
        state.SkipWithError("the simulation diverged");
        break;
      }
    }
    benchmark::DoNotOptimize(sim.q().data());
    state.SetItemsProcessed(state.iterations());
    if (!model.contacts.empty()) {
      const auto fz = sim.contactForces().row(2).array();
      state.counters["in_contact"] = static_cast<double>((fz > 0).count());
    }
  });
}

}  // namespace

int main(int argc, char** argv) {
  for (const char* integrator : {"rk4", "euler"}) {
    registerStep("autotree_chain7.json", integrator);
    registerStep("fourbar.json", integrator);
    registerStep("slider_crank.json", integrator);
    registerStep("quadruped.json", integrator);
  }
  for (const Workload& w : bench::workloads()) {
    registerAlgorithm("aba", w, [](const art::Model& m, art::Data& d, const Workload& wl) {
      benchmark::DoNotOptimize(art::aba(m, d, wl.q, wl.qd, wl.tau).data());
    });
    registerAlgorithm("rnea", w, [](const art::Model& m, art::Data& d, const Workload& wl) {
      benchmark::DoNotOptimize(art::rnea(m, d, wl.q, wl.qd, wl.qdd).data());
    });
    registerAlgorithm("crba", w, [](const art::Model& m, art::Data& d, const Workload& wl) {
      benchmark::DoNotOptimize(art::crba(m, d, wl.q).data());
    });
    registerAlgorithm("fk", w, [](const art::Model& m, art::Data& d, const Workload& wl) {
      art::forwardKinematics(m, d, wl.q);
      benchmark::DoNotOptimize(d.spatial.X0.back().r.data());
    });
#ifdef ARTICULATE_BENCH_COMPARE
    bench::registerComparisons(w);
#endif
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
