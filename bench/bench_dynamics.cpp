// Timings of Articulate's tree algorithms: BM_<algorithm>/<chain|tree>/<N>; of simulation
// steps of example models, BM_step/<model>/<integrator> (1 ms steps; items per second are steps
// per second): the unconstrained chain, the constrained four-bar and slider-crank, and the
// quadruped standing on its four feet (contact, PD controllers); of a chain on ball joints
// against its three-revolute emulation, BM_<algorithm>/ball_chain/20 and ball_as_revolutes/20;
// and of the single rigid body's step, BM_single_body/cylinder_floor (and cylinder_free).
// Run: build/release/bench/articulate-bench [--benchmark_filter=BM_aba]
#include <cmath>
#include <vector>

#include <benchmark/benchmark.h>

#include "articulate/dynamics/batch.h"
#include "articulate/dynamics/dynamics.h"
#include "articulate/formulations/generators.h"
#include "articulate/formats/document.h"
#include "articulate/formulations/tree_simulation.h"
#include "articulate/formulations/rigid_body.h"
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

// A chain of n links (0.3 m, 1 kg, COM at mid-length) hanging on ball joints, or the same
// mechanism with each ball as three revolute joints Rx, Ry, Rz through its centre (two
// massless bodies between): BM_<algorithm>/ball_chain/<n> against .../ball_as_revolutes/<n>,
// both at their initial pose (identity quaternions, zero angles) with made-up velocities (the
// work does not depend on the values). The ratio is what the 3-DoF joint saves over its
// emulation.
Workload ballChain(int n, bool asRevolutes) {
  Workload w;
  w.kind = asRevolutes ? "ball_as_revolutes" : "ball_chain";
  w.bodies = n;
  w.spec.gravity = art::Vec3(0, 0, -9.81);
  const art::InertiaSpec link = art::InertiaSpec::fromMassComInertia(
      1.0, art::Vec3(0, 0, -0.15), art::Mat3(art::Vec3(0.0076, 0.0076, 0.0002).asDiagonal()));
  for (int i = 0; i < n; ++i) {
    art::BodySpec b;
    b.name = "link" + std::to_string(i);
    b.parent = static_cast<int>(w.spec.bodies.size()) - 1;
    if (i > 0) b.translation = art::Vec3(0, 0, -0.3);
    b.inertia = link;
    if (!asRevolutes) {
      b.joint.type = art::JointType::Ball;
      w.spec.bodies.push_back(b);
      continue;
    }
    for (art::JointType t : {art::JointType::Rx, art::JointType::Ry}) {
      art::BodySpec massless = b;
      massless.name += t == art::JointType::Rx ? "_x" : "_y";
      massless.joint.type = t;
      massless.inertia = art::InertiaSpec{};
      w.spec.bodies.push_back(massless);
      b.parent = static_cast<int>(w.spec.bodies.size()) - 1;
      b.translation.setZero();
    }
    b.joint.type = art::JointType::Rz;
    w.spec.bodies.push_back(b);
  }
  const art::Model m = art::compile(w.spec);
  w.q = m.q0;
  w.qd = Eigen::VectorXd::LinSpaced(m.nv(), -1, 1);
  w.qdd = Eigen::VectorXd::LinSpaced(m.nv(), 1, -1);
  w.tau = Eigen::VectorXd::LinSpaced(m.nv(), 0.5, -0.5);
  return w;
}

// The articulated-body algorithm of 100,000 states of one tree through the engine's lanes
// (BatchTree, one thread), the states packed into lanes beforehand: the C++ rate that
// python/bench/bench_aba.py compares articulate.aba_batch with. Items per second are states.
void registerLanes(const Workload& w) {
  const std::string label = "BM_aba_lanes/" + w.kind + "/" + std::to_string(w.bodies) + "/100000";
  benchmark::RegisterBenchmark(label.c_str(), [w](benchmark::State& state) {
    const art::Model model = art::compile(w.spec);
    if (!art::batchUnsupported(model).empty()) {
      state.SkipWithError(art::batchUnsupported(model).c_str());
      return;
    }
    art::BatchTree tree(model);
    const int nv = model.nv(), groups = 100000 / art::kLanes;
    std::vector<art::Lanes> q(static_cast<std::size_t>(groups * nv)), qd(q), tau(q), qdd(q);
    for (std::size_t k = 0; k < q.size(); ++k)
      for (int lane = 0; lane < art::kLanes; ++lane) {
        const double x = static_cast<double>(k * art::kLanes + static_cast<std::size_t>(lane));
        q[k][lane] = std::sin(x);
        qd[k][lane] = std::cos(x);
        tau[k][lane] = std::sin(0.5 * x);
      }
    for (auto _ : state)
      for (int g = 0; g < groups; ++g)
        tree.forwardDynamics(&q[static_cast<std::size_t>(g * nv)], &qd[static_cast<std::size_t>(g * nv)],
                             &tau[static_cast<std::size_t>(g * nv)], &qdd[static_cast<std::size_t>(g * nv)]);
    benchmark::DoNotOptimize(qdd.data());
    state.SetItemsProcessed(state.iterations() * groups * art::kLanes);
  });
}

}  // namespace

int main(int argc, char** argv) {
  for (bool asRevolutes : {false, true}) {
    const Workload w = ballChain(20, asRevolutes);
    registerAlgorithm("aba", w, [](const art::Model& m, art::Data& d, const Workload& wl) {
      benchmark::DoNotOptimize(art::aba(m, d, wl.q, wl.qd, wl.tau).data());
    });
    registerAlgorithm("crba", w, [](const art::Model& m, art::Data& d, const Workload& wl) {
      benchmark::DoNotOptimize(art::crba(m, d, wl.q).data());
    });
    registerAlgorithm("rnea", w, [](const art::Model& m, art::Data& d, const Workload& wl) {
      benchmark::DoNotOptimize(art::rnea(m, d, wl.q, wl.qd, wl.qdd).data());
    });
  }
  registerStep("ball_chain.json", "rk4");
  for (const char* integrator : {"rk4", "euler"}) {
    registerStep("autotree_chain7.json", integrator);
    registerStep("fourbar.json", integrator);
    registerStep("slider_crank.json", integrator);
    registerStep("quadruped.json", integrator);
  }
  for (const Workload& w : bench::workloads()) {
    if (w.kind == "chain" && w.bodies == 7) registerLanes(w);
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
  bench::registerSweepBenchmarks();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
