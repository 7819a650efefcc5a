// The soft constraint model's cost (soft_constraints.h) on two constrained robots written here,
// beside MuJoCo 2.2.2 on the same files (presets bench-mujoco, bench-compare):
//  - gripper: a Robotiq-style closed chain, a palm on a lift with two fingers of three links
//    each, every finger closed by a connect to its coupler and the two fingers tied by a joint
//    equality, limits on every joint, driven by a position servo (12 hinges and a slide);
//  - quadruped: a fixed trunk with four legs of three hinges, every joint with frictionloss,
//    armature, damping and limits, held by position servos (12 hinges).
// BM_soft_forward/NAME: one constrained forward evaluation (actuation, CRBA, rows, Newton) at a
// state where rows are active; BM_soft_step/NAME: one mujoco-euler step at 2 ms;
// BM_mujoco_forward/NAME and BM_mujoco_step/NAME: mj_forward and mj_step on the same file.
#include <string>

#include <benchmark/benchmark.h>

#include "articulate/dynamics/actuation.h"
#include "articulate/dynamics/soft_constraints.h"
#include "articulate/formats/mjcf.h"
#include "articulate/formulations/tree_simulation.h"

#ifdef ARTICULATE_BENCH_MUJOCO
#include <stdexcept>

#include "mujoco_models.h"
#endif

namespace {

std::string gripperXml() {
  std::string x =
      "<mujoco model='gripper_bench'><compiler angle='radian' inertiafromgeom='false' autolimits='true'/>"
      "<option timestep='0.002' integrator='Euler'/>"
      "<default><geom contype='0' conaffinity='0'/><joint damping='0.05' range='-1.2 1.2'/></default>"
      "<worldbody><body name='palm' pos='0 0 0.5'><joint name='lift' type='slide' axis='0 0 1' range='-0.3 0.3'/>"
      "<inertial pos='0 0 0' mass='1' diaginertia='0.01 0.01 0.01'/>";
  for (const std::string side : {"l", "r"}) {
    const double s = side == "l" ? 1 : -1;
    const std::string y = std::to_string(0.03 * s);
    x += "<body name='" + side + "_driver' pos='0 " + y + " -0.02'><joint name='" + side + "_driver' axis='1 0 0'/>"
         "<inertial pos='0 0 -0.02' mass='0.05' diaginertia='2e-5 2e-5 5e-6'/>"
         "<body name='" + side + "_coupler' pos='0 0 -0.04'><joint name='" + side + "_coupler' axis='1 0 0'/>"
         "<inertial pos='0 0 -0.015' mass='0.03' diaginertia='1e-5 1e-5 3e-6'/>"
         "<body name='" + side + "_tip' pos='0 0 -0.03'><joint name='" + side + "_tip' axis='1 0 0'/>"
         "<inertial pos='0 0 -0.02' mass='0.03' diaginertia='1e-5 1e-5 3e-6'/></body></body></body>"
         "<body name='" + side + "_spring' pos='0 " + std::to_string(0.015 * s) + " -0.035'><joint name='" + side + "_spring' axis='1 0 0'/>"
         "<inertial pos='0 0 -0.02' mass='0.04' diaginertia='2e-5 2e-5 5e-6'/>"
         "<body name='" + side + "_follower' pos='0 0 -0.04'><joint name='" + side + "_follower' axis='1 0 0'/>"
         "<inertial pos='0 0 -0.015' mass='0.02' diaginertia='1e-5 1e-5 3e-6'/></body></body>";
  }
  x += "</body></worldbody><equality>"
       "<connect name='l_close' body1='l_follower' body2='l_tip' anchor='0 0 -0.03'/>"
       "<connect name='r_close' body1='r_follower' body2='r_tip' anchor='0 0 -0.03'/>"
       "<joint name='mirror' joint1='r_driver' joint2='l_driver' polycoef='0 -1 0 0 0'/></equality>"
       "<actuator><position name='close' joint='l_driver' kp='5'/><position name='hoist' joint='lift' kp='200'/></actuator></mujoco>";
  return x;
}

std::string quadrupedXml() {
  std::string x =
      "<mujoco model='quadruped_bench'><compiler angle='radian' inertiafromgeom='false' autolimits='true'/>"
      "<option timestep='0.002' integrator='Euler'/>"
      "<default><geom contype='0' conaffinity='0'/>"
      "<joint damping='0.5' armature='0.01' frictionloss='0.2'/><position kp='40'/></default>"
      "<worldbody><body name='trunk' pos='0 0 0.5'><inertial pos='0 0 0' mass='6' diaginertia='0.05 0.15 0.18'/>";
  const char* legs[] = {"fl", "fr", "rl", "rr"};
  for (int k = 0; k < 4; ++k) {
    const double sx = k < 2 ? 0.2 : -0.2, sy = k % 2 ? -0.1 : 0.1;
    const std::string n = legs[k];
    x += "<body name='" + n + "_hip' pos='" + std::to_string(sx) + " " + std::to_string(sy) + " 0'>"
         "<joint name='" + n + "_abduct' axis='1 0 0' range='-0.8 0.8'/>"
         "<inertial pos='0 0 0' mass='0.6' diaginertia='4e-4 6e-4 4e-4'/>"
         "<body name='" + n + "_thigh' pos='0 " + std::to_string(sy * 0.8) + " 0'>"
         "<joint name='" + n + "_hip' axis='0 1 0' range='-1.5 3.4'/>"
         "<inertial pos='0 0 -0.03' mass='1' diaginertia='5e-3 5e-3 6e-4'/>"
         "<body name='" + n + "_calf' pos='0 0 -0.21'>"
         "<joint name='" + n + "_knee' axis='0 1 0' range='-2.7 -0.9'/>"
         "<inertial pos='0 0 -0.1' mass='0.2' diaginertia='1.5e-3 1.5e-3 3e-5'/></body></body></body>";
  }
  x += "</body></worldbody><actuator>";
  for (const char* n : legs)
    for (const char* j : {"_abduct", "_hip", "_knee"})
      x += "<position joint='" + std::string(n) + j + "'/>";
  return x + "</actuator></mujoco>";
}

std::string xmlOf(int which) { return which == 0 ? gripperXml() : quadrupedXml(); }

// a state with rows active: the quadruped's knees past their limits, the gripper's chains bent
Eigen::VectorXd benchState(const art::Model& m, int which) {
  Eigen::VectorXd q = m.q0;
  for (int k = 0; k < m.nq(); ++k) q(k) += which == 0 ? 0.05 * ((k % 3) - 1) : (k % 3 == 2 ? 0.3 : 0.1);
  return q;
}

void BM_soft_forward(benchmark::State& state) {
  const int which = static_cast<int>(state.range(0));
  const art::ModelSpec spec = art::specFromMjcf(xmlOf(which), "bench.xml");
  const art::Model m = art::compile(spec);
  art::Data d(m);
  art::SoftConstraintData soft(m);
  const Eigen::VectorXd q = benchState(m, which), qd = Eigen::VectorXd::Constant(m.nv(), 0.2);
  const Eigen::VectorXd ctrl = Eigen::VectorXd::Constant(m.nu(), 0.1), act = Eigen::VectorXd::Zero(m.na);
  Eigen::VectorXd tau(m.nv());
  for (auto _ : state) {
    art::actuation(m, d, q, qd, ctrl, act);
    tau = d.qfrcActuator + d.qfrcPassive;
    for (int i = 0; i < m.nb; ++i) tau(m.vIndex[i]) -= m.damping[i] * qd(m.vIndex[i]);
    art::softForwardDynamics(m, d, soft, q, qd, tau);
    benchmark::DoNotOptimize(soft.qacc.data());
  }
  state.counters["nefc"] = soft.nefc;
  state.counters["iterations"] = soft.iterations;
}

void BM_soft_step(benchmark::State& state) {
  const int which = static_cast<int>(state.range(0));
  const art::ModelSpec spec = art::specFromMjcf(xmlOf(which), "bench.xml");
  const art::Model m = art::compile(spec);
  art::Simulation sim(m, art::simulationOptions(spec));
  sim.setControls(Eigen::VectorXd::Constant(m.nu(), 0.1));
  sim.setState(0, benchState(m, which), Eigen::VectorXd::Zero(m.nv()));
  for (auto _ : state) {
    if (!sim.step() || sim.time() > 5) {
      state.PauseTiming();
      sim.setState(0, benchState(m, which), Eigen::VectorXd::Zero(m.nv()));
      state.ResumeTiming();
    }
    benchmark::DoNotOptimize(sim.q().data());
  }
}

#ifdef ARTICULATE_BENCH_MUJOCO
struct MjModel {
  mjModel* m = nullptr;
  mjData* d = nullptr;
  explicit MjModel(const std::string& xml) {
    try {
      m = bench::loadMujoco({{"bench.xml", xml}});  // mujoco_models.h: from memory
    } catch (const std::runtime_error&) {
      return;
    }
    d = mj_makeData(m);
  }
  ~MjModel() {
    if (d) mj_deleteData(d);
    if (m) mj_deleteModel(m);
  }
  void reset(int which) {
    mj_resetData(m, d);
    const art::Model am = art::compile(art::specFromMjcf(xmlOf(which), "bench.xml"));
    const Eigen::VectorXd q = benchState(am, which);  // hinges and slides: the same qpos
    for (int k = 0; k < m->nq; ++k) d->qpos[k] = q(k);
    for (int k = 0; k < m->nu; ++k) d->ctrl[k] = 0.1;
  }
};

void BM_mujoco_forward(benchmark::State& state) {
  const int which = static_cast<int>(state.range(0));
  MjModel h(xmlOf(which));
  if (!h.m) return state.SkipWithError("mj_loadXML failed");
  h.reset(which);
  for (int k = 0; k < h.m->nv; ++k) h.d->qvel[k] = 0.2;
  for (auto _ : state) {
    mj_forward(h.m, h.d);
    benchmark::DoNotOptimize(h.d->qacc);
  }
  state.counters["nefc"] = h.d->nefc;
  state.counters["iterations"] = h.d->solver_iter;
}

void BM_mujoco_soft_step(benchmark::State& state) {
  const int which = static_cast<int>(state.range(0));
  MjModel h(xmlOf(which));
  if (!h.m) return state.SkipWithError("mj_loadXML failed");
  h.reset(which);
  for (auto _ : state) {
    mj_step(h.m, h.d);
    if (h.d->time > 5) {
      state.PauseTiming();
      h.reset(which);
      state.ResumeTiming();
    }
    benchmark::DoNotOptimize(h.d->qpos);
  }
}
#endif

}  // namespace

BENCHMARK(BM_soft_forward)->Name("BM_soft_forward")->ArgName("quadruped")->Arg(0)->Arg(1);
BENCHMARK(BM_soft_step)->Name("BM_soft_step")->ArgName("quadruped")->Arg(0)->Arg(1);
#ifdef ARTICULATE_BENCH_MUJOCO
BENCHMARK(BM_mujoco_forward)->Name("BM_mujoco_forward")->ArgName("quadruped")->Arg(0)->Arg(1);
BENCHMARK(BM_mujoco_soft_step)->Name("BM_mujoco_step")->ArgName("quadruped")->Arg(0)->Arg(1);
#endif
