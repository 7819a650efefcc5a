// Structures in natural coordinates: steps per second of Zhong06 and of RK4 (index 1,
// Baumgarte) at 1 ms for the tensegrity prism of models/ (3 bars, 9 cables) and chains of N
// 2D bars on revolute joints (items per second = steps per second). Zhong06 factorises its
// Newton matrix densely below 200 unknowns and with SparseLU above (the 100-bar chain).
#include <benchmark/benchmark.h>

#include "articulate/formulations/natural/integrator.h"
#include "articulate/formats/structure.h"

namespace {

namespace nc = art::natural;

void run(benchmark::State& state, const nc::StructureSpec& spec, nc::Integrator integrator) {
  const nc::Structure s(spec);
  nc::SimulationOptions opt;
  opt.integrator = integrator;
  nc::StructureSimulation sim(s, opt);
  for (auto _ : state) {
    if (!sim.step()) state.SkipWithError("diverged");
    benchmark::DoNotOptimize(sim.q().data());
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["unknowns"] = s.nq() + s.nc();
}

nc::StructureSpec tensegrity() {
  return nc::loadStructure(ARTICULATE_MODELS_DIR "/tensegrity_prism.json");
}

void BM_zhong06_tensegrity(benchmark::State& state) {
  run(state, tensegrity(), nc::Integrator::Zhong06);
}
void BM_rk4_tensegrity(benchmark::State& state) { run(state, tensegrity(), nc::Integrator::RK4); }
void BM_zhong06_chain(benchmark::State& state) {
  run(state, nc::barChain(static_cast<int>(state.range(0))), nc::Integrator::Zhong06);
}
void BM_rk4_chain(benchmark::State& state) {
  run(state, nc::barChain(static_cast<int>(state.range(0))), nc::Integrator::RK4);
}

}  // namespace

BENCHMARK(BM_zhong06_tensegrity);
BENCHMARK(BM_rk4_tensegrity);
BENCHMARK(BM_zhong06_chain)->Arg(10)->Arg(100);
BENCHMARK(BM_rk4_chain)->Arg(10)->Arg(100);
