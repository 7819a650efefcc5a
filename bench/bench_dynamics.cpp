// Timings of Articulate's tree algorithms, BM_<algorithm>/<chain|tree>/<N>, and of the single
// rigid body's step, BM_single_body/cylinder_floor.
// Run: build/release/bench/articulate-bench [--benchmark_filter=BM_aba]
#include <benchmark/benchmark.h>

#include "articulate/dynamics.h"
#include "articulate/generators.h"
#include "articulate/rigid_body.h"
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

// The single rigid body's reference workload (FortranMbdVector, spec/formulations.md B): the
// cylinder of bouncingCylinder standing on its cap (centre at z = 0.045 m) as it is thrown down
// at 1 m/s spinning at 5 rad/s, RK4 at the reference step h = 2/810000 s with the floor contact.
// One iteration is one step; every 810000 steps (the reference's 2 s run) the body restarts from
// its initial state, so the figure is the average over that run: bounces, rolling and resting
// contact. Nothing is stored inside the timed loop. Items per second = steps per second.
// BM_single_body/cylinder_free is the same body without a floor: the RK4 step alone.
void singleBody(benchmark::State& state, bool floor) {
  art::RigidBodySpec spec = art::bouncingCylinder(0.045);
  if (!floor) spec.floor.reset();
  const art::RigidBody initial(spec);
  const double h = 2.0 / 810000;
  art::RigidBody body = initial;
  long k = 0;
  for (auto _ : state) {
    body.step(h);
    if (++k == 810000) {
      body = initial;
      k = 0;
    }
  }
  benchmark::DoNotOptimize(body.state().position.data());
  state.SetItemsProcessed(state.iterations());
}

}  // namespace

int main(int argc, char** argv) {
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
  benchmark::RegisterBenchmark("BM_single_body/cylinder_floor",
                               [](benchmark::State& st) { singleBody(st, true); });
  // the same without the floor: the RK4 step alone, for comparison
  benchmark::RegisterBenchmark("BM_single_body/cylinder_free",
                               [](benchmark::State& st) { singleBody(st, false); });
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
