// Timings of Articulate's tree algorithms: BM_<algorithm>/<chain|tree>/<N>.
// Run: build/release/bench/articulate-bench [--benchmark_filter=BM_aba]
#include <benchmark/benchmark.h>

#include "articulate/dynamics.h"
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
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
