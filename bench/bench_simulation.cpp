// Simulation speed: RK4 steps per second of autoTree(20) and autoTree(100) at 1 ms (items per
// second = steps per second; "realtime" = simulated seconds per wall second), the same steps
// through the System interface (BM_system_step: TreeSystem, as the simulator thread and the CLI
// step), one acceleration through the interface's solver-facing calls (BM_system_accel:
// evaluate, generalizedForces, solveMass = RNEA bias + CRBA + L'L solve; compare BM_aba), and the same run
// through the threaded Simulator with every step published as a snapshot and appended to a
// Recording, as the application does (the difference is the publish overhead per step).
#include <chrono>
#include <thread>

#include <benchmark/benchmark.h>

#include "articulate/formulations/generators.h"
#include "articulate/simulation/recording.h"
#include "articulate/formulations/tree_simulation.h"
#include "articulate/simulation/simulator.h"
#include "articulate/simulation/system.h"

namespace {

art::Model tree(int n) {
  art::AutoTreeOptions o;
  o.bodies = n;
  o.branching = 2;
  o.axes = {art::JointType::Rz, art::JointType::Ry};
  art::ModelSpec spec = art::autoTree(o);
  for (auto& b : spec.bodies) b.q0 = 0.3;
  return art::compile(spec);
}

void BM_simulate(benchmark::State& state) {
  const art::Model model = tree(static_cast<int>(state.range(0)));
  art::Simulation sim(model, {});
  for (auto _ : state) {
    if (!sim.step()) state.SkipWithError("diverged");
    benchmark::DoNotOptimize(sim.q().data());
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["realtime"] = benchmark::Counter(1e-3 * static_cast<double>(state.iterations()),
                                                  benchmark::Counter::kIsRate);
}

void BM_system_step(benchmark::State& state) {
  art::TreeSystem sys(std::make_shared<const art::Model>(tree(static_cast<int>(state.range(0)))),
                      {});
  art::System& s = sys;
  for (auto _ : state) {
    if (!s.step()) state.SkipWithError("diverged");
    benchmark::DoNotOptimize(s.positions().data());
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_system_accel(benchmark::State& state) {
  art::TreeSystem sys(std::make_shared<const art::Model>(tree(static_cast<int>(state.range(0)))),
                      {});
  art::System& s = sys;
  Eigen::VectorXd a(s.velocitySize());
  const Eigen::VectorXd q = s.positions(), v = Eigen::VectorXd::Constant(s.velocitySize(), 0.5);
  const Eigen::VectorXd w(0);
  for (auto _ : state) {
    s.evaluate(0.0, q, v, w);
    s.generalizedForces(a);
    s.solveMass(a);
    benchmark::DoNotOptimize(a.data());
  }
  state.SetItemsProcessed(state.iterations());
}

// one iteration = 1000 steps (1 s simulated) through the thread, drained into a Recording
void BM_simulator_thread(benchmark::State& state) {
  auto model = std::make_shared<const art::Model>(tree(static_cast<int>(state.range(0))));
  art::Simulator sim;
  long generation = sim.load(model, {});
  sim.setUnpaced(true);
  art::SnapshotBatch batch;
  art::Recording rec(model->nb);
  double stop = 0;
  for (auto _ : state) {
    stop += 1.0;
    sim.setStopTime(stop);
    sim.play();
    for (;;) {
      if (sim.takeSnapshots(batch) && batch.generation == generation)
        for (std::size_t k = 0; k < batch.size(); ++k)
          rec.append(batch.time(k), batch.q(k), batch.qd(k), batch.kinetic(k), batch.potential(k));
      if (!rec.empty() && rec.endTime() >= stop - 1e-9) break;
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  }
  state.SetItemsProcessed(1000 * state.iterations());
  state.counters["realtime"] = benchmark::Counter(static_cast<double>(state.iterations()),
                                                  benchmark::Counter::kIsRate);
  state.counters["samples"] = static_cast<double>(rec.size());
}

}  // namespace

BENCHMARK(BM_simulate)->Name("BM_simulate/rk4/autotree")->Arg(20)->Arg(100);
BENCHMARK(BM_system_step)->Name("BM_system_step/rk4/autotree")->Arg(20)->Arg(100);
BENCHMARK(BM_system_accel)->Name("BM_system_accel/autotree")->Arg(20)->Arg(100);
BENCHMARK(BM_simulator_thread)
    ->Name("BM_simulator_thread/rk4/autotree")
    ->Arg(20)
    ->Arg(100)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
