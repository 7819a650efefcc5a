// Actuation's cost on a humanoid shaped like MuJoCo's (a floating torso, 21 hinges with springs,
// dampers and armature, 21 geared motors, 2 fixed tendons with springs between hip and knee;
// written here, no contact, no joint limits, so that MuJoCo has no constraint rows):
//  - BM_actuation/humanoid: one evaluation of tendons, transmissions, actuator forces and passive
//    forces (actuation.h) at a state with random controls;
//  - BM_step/humanoid/{euler,rk4}/{actuated,bare}: one Simulation step of the model, and of the
//    same mechanism without actuators, tendons and springs: the difference is what actuation
//    costs per step;
//  - with MuJoCo (presets bench-mujoco, bench-compare), the same file through mj_loadXML:
//    BM_mujoco_actuation/humanoid (mj_tendon, mj_transmission, mj_fwdActuation, mj_passive
//    after the kinematics) and BM_mujoco_step/humanoid (mj_step, its Euler at 1 ms).
#include <memory>
#include <random>
#include <string>

#include <benchmark/benchmark.h>

#include "articulate/dynamics/actuation.h"
#include "articulate/formats/mjcf.h"
#include "articulate/formulations/tree_simulation.h"

#ifdef ARTICULATE_BENCH_MUJOCO
#include <mujoco/mujoco.h>
#endif

namespace {

// one leg or arm chain's joints: name, axis, gear, stiffness
std::string joint(const std::string& name, const char* axis, double stiffness) {
  return "<joint name='" + name + "' axis='" + axis + "' stiffness='" + std::to_string(stiffness) + "'/>";
}

std::string humanoidXml() {
  std::string x =
      "<mujoco model='humanoid_bench'><compiler angle='degree' inertiafromgeom='true'/>"
      "<option timestep='0.001' integrator='Euler'/>"
      "<default><geom type='capsule' contype='0' conaffinity='0' density='1000'/>"
      "<joint type='hinge' damping='0.2' armature='0.01'/><motor ctrllimited='true' ctrlrange='-1 1'/></default>"
      "<worldbody><body name='torso' pos='0 0 1.4'><freejoint name='root'/>"
      "<geom fromto='0 -.07 0 0 .07 0' size='.07'/><geom fromto='-.01 -.06 -.12 -.01 .06 -.12' size='.06'/>"
      "<body name='head' pos='0 0 .19'><geom type='sphere' size='.09'/></body>"
      "<body name='lower_waist' pos='-.01 0 -.26'><geom fromto='0 -.06 0 0 .06 0' size='.06'/>" +
      joint("abdomen_z", "0 0 1", 20) + joint("abdomen_y", "0 1 0", 10) +
      "<body name='pelvis' pos='0 0 -.165'>" + joint("abdomen_x", "1 0 0", 10) +
      "<geom fromto='-.02 -.07 0 -.02 .07 0' size='.09'/>";
  for (const std::string side : {"right", "left"}) {
    const double s = side == "right" ? -1 : 1;
    x += "<body name='" + side + "_thigh' pos='0 " + std::to_string(0.1 * s) + " -.04'>" + joint(side + "_hip_x", "1 0 0", 10) +
         joint(side + "_hip_z", "0 0 1", 10) + joint(side + "_hip_y", "0 1 0", 20) +
         "<geom fromto='0 0 0 0 " + std::to_string(-0.01 * s) + " -.34' size='.06'/>"
         "<body name='" + side + "_shin' pos='0 " + std::to_string(-0.01 * s) + " -.403'>" + joint(side + "_knee", "0 -1 0", 1) +
         "<geom fromto='0 0 0 0 0 -.3' size='.049'/><body name='" + side + "_foot' pos='0 0 -.39'>" +
         joint(side + "_ankle_y", "0 1 0", 6) + joint(side + "_ankle_x", "1 0 .5", 3) +
         "<geom fromto='-.07 0 0 .14 0 0' size='.027'/></body></body></body>";
  }
  x += "</body></body>";
  for (const std::string side : {"right", "left"}) {
    const double s = side == "right" ? -1 : 1;
    x += "<body name='" + side + "_upper_arm' pos='0 " + std::to_string(0.17 * s) + " .06'>" +
         joint(side + "_shoulder1", s < 0 ? "2 1 1" : "2 -1 1", 1) + joint(side + "_shoulder2", s < 0 ? "0 -1 1" : "0 1 1", 1) +
         "<geom fromto='0 0 0 .16 " + std::to_string(0.16 * s) + " -.16' size='.04'/><body name='" + side +
         "_lower_arm' pos='.18 " + std::to_string(0.18 * s) + " -.18'>" + joint(side + "_elbow", s < 0 ? "0 -1 1" : "0 -1 -1", 0) +
         "<geom fromto='.01 " + std::to_string(0.01 * s) + " .01 .17 " + std::to_string(0.17 * s) + " .17' size='.031'/></body></body>";
  }
  x += "</body></worldbody><tendon>"
       "<fixed name='right_hipknee' stiffness='20'><joint joint='right_hip_y' coef='-1'/><joint joint='right_knee' coef='1'/></fixed>"
       "<fixed name='left_hipknee' stiffness='20'><joint joint='left_hip_y' coef='-1'/><joint joint='left_knee' coef='1'/></fixed>"
       "</tendon><actuator>";
  const std::pair<const char*, int> motors[] = {
      {"abdomen_y", 40},     {"abdomen_z", 40},       {"abdomen_x", 40},       {"right_hip_x", 40},     {"right_hip_z", 40},
      {"right_hip_y", 120},  {"right_knee", 80},      {"right_ankle_x", 20},   {"right_ankle_y", 20},   {"left_hip_x", 40},
      {"left_hip_z", 40},    {"left_hip_y", 120},     {"left_knee", 80},       {"left_ankle_x", 20},    {"left_ankle_y", 20},
      {"right_shoulder1", 20}, {"right_shoulder2", 20}, {"right_elbow", 40},   {"left_shoulder1", 20},  {"left_shoulder2", 20},
      {"left_elbow", 40}};
  for (const auto& [name, gear] : motors)
    x += "<motor name='" + std::string(name) + "' joint='" + name + "' gear='" + std::to_string(gear) + "'/>";
  return x + "</actuator></mujoco>";
}

const art::ModelSpec& humanoid() {
  static const art::ModelSpec spec = art::specFromMjcf(humanoidXml(), "humanoid_bench.xml");
  return spec;
}

Eigen::VectorXd randomControls(int n) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  Eigen::VectorXd c(n);
  for (int k = 0; k < n; ++k) c(k) = u(rng);
  return c;
}

void BM_actuation(benchmark::State& state) {
  const art::Model m = art::compile(humanoid());
  art::Data d(m);
  const Eigen::VectorXd ctrl = randomControls(m.nu()), act = Eigen::VectorXd::Zero(m.na);
  Eigen::VectorXd qd = Eigen::VectorXd::Constant(m.nv(), 0.3);
  for (auto _ : state) {
    art::actuation(m, d, m.q0, qd, ctrl, act);
    benchmark::DoNotOptimize(d.qfrcActuator.data());
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_step(benchmark::State& state) {
  art::ModelSpec spec = humanoid();
  const bool actuated = state.range(1) != 0;
  if (!actuated) {  // the same mechanism, undriven and without springs
    spec.actuators.clear();
    spec.tendons.clear();
    for (art::BodySpec& b : spec.bodies) b.stiffness = 0;
  }
  const art::Model m = art::compile(spec);
  art::SimulationOptions o;
  o.integrator = state.range(0) ? art::Integrator::RK4 : art::Integrator::SemiImplicitEuler;
  o.dt = 1e-3;
  art::Simulation sim(m, o);
  if (actuated) sim.setControls(randomControls(m.nu()) * 0.05);
  for (auto _ : state) {
    if (!sim.step()) {
      state.PauseTiming();
      sim.setState(0.0, m.q0, m.qd0);  // fell far enough: from the start again
      state.ResumeTiming();
    }
    benchmark::DoNotOptimize(sim.q().data());
  }
  state.SetItemsProcessed(state.iterations());
}

#ifdef ARTICULATE_BENCH_MUJOCO
struct MjHumanoid {
  mjModel* m = nullptr;
  mjData* d = nullptr;
  MjHumanoid() {
    // mj_loadXML reads files only: 2.2.2's virtual file system serves the XML from memory
    // (mjVFS holds ~2 MB of fixed-size name buffers: on the heap)
    const std::string xml = humanoidXml();
    auto vfs = std::make_unique<mjVFS>();
    mj_defaultVFS(vfs.get());
    if (mj_makeEmptyFileVFS(vfs.get(), "humanoid.xml", static_cast<int>(xml.size())) != 0) return;
    std::copy(xml.begin(), xml.end(), static_cast<char*>(vfs->filedata[mj_findFileVFS(vfs.get(), "humanoid.xml")]));
    char error[1000] = "";
    m = mj_loadXML("humanoid.xml", vfs.get(), error, sizeof error);
    mj_deleteVFS(vfs.get());
    if (m) d = mj_makeData(m);
  }
  ~MjHumanoid() {
    if (d) mj_deleteData(d);
    if (m) mj_deleteModel(m);
  }
};

void BM_mujoco_actuation(benchmark::State& state) {
  MjHumanoid h;
  if (!h.m) return state.SkipWithError("mj_loadXML failed");
  const Eigen::VectorXd ctrl = randomControls(h.m->nu);
  for (int k = 0; k < h.m->nu; ++k) h.d->ctrl[k] = ctrl(k);
  for (int k = 0; k < h.m->nv; ++k) h.d->qvel[k] = 0.3;
  mj_kinematics(h.m, h.d);
  mj_comPos(h.m, h.d);
  mj_comVel(h.m, h.d);
  for (auto _ : state) {
    mj_tendon(h.m, h.d);
    mj_transmission(h.m, h.d);
    mj_fwdVelocity(h.m, h.d);  // actuator and tendon velocities, and mj_passive
    mj_fwdActuation(h.m, h.d);
    benchmark::DoNotOptimize(h.d->qfrc_actuator);
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_mujoco_actuated_step(benchmark::State& state) {
  MjHumanoid h;
  if (!h.m) return state.SkipWithError("mj_loadXML failed");
  const Eigen::VectorXd ctrl = randomControls(h.m->nu) * 0.05;
  for (int k = 0; k < h.m->nu; ++k) h.d->ctrl[k] = ctrl(k);
  for (auto _ : state) {
    mj_step(h.m, h.d);
    if (h.d->time > 5) {
      state.PauseTiming();
      mj_resetData(h.m, h.d);
      for (int k = 0; k < h.m->nu; ++k) h.d->ctrl[k] = ctrl(k);
      state.ResumeTiming();
    }
    benchmark::DoNotOptimize(h.d->qpos);
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["nefc"] = h.d->nefc;
}
#endif

}  // namespace

BENCHMARK(BM_actuation)->Name("BM_actuation/humanoid");
BENCHMARK(BM_step)->Name("BM_step/humanoid")->ArgNames({"rk4", "actuated"})->Args({0, 1})->Args({0, 0})->Args({1, 1})->Args({1, 0});
#ifdef ARTICULATE_BENCH_MUJOCO
BENCHMARK(BM_mujoco_actuation)->Name("BM_mujoco_actuation/humanoid");
BENCHMARK(BM_mujoco_actuated_step)->Name("BM_mujoco_step/humanoid");
#endif
