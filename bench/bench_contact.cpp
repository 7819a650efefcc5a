// Body-body contact's cost (collision.h and the soft model's contact rows) beside MuJoCo 2.2.2
// on the same files (presets bench-mujoco, bench-compare):
//  - humanoid: the shipped humanoid (models/robots/mjcf_humanoid), every geom colliding as in
//    MuJoCo's own humanoid.xml, lying on its back on the floor;
//  - pile: 20 boxes settled in a bin of five planes;
//  - gripper: the shipped pick scene (models/robots/mjcf_pick) holding its box up;
//  - rocks: the same bin of 20 ellipsoids, cylinders and meshes (their hulls): MPR's pairs.
// BM_collide/NAME: the collision detection alone at the bench state (collide against
// mj_collision, each after its kinematics); BM_contact_step/NAME: one mujoco-euler step at 2 ms
// from a settled state; BM_mujoco_collide/NAME and BM_mujoco_contact_step/NAME: MuJoCo's.
#include <fstream>
#include <sstream>
#include <string>

#include <benchmark/benchmark.h>

#include "articulate/dynamics/collision.h"
#include "articulate/dynamics/dynamics.h"
#include "articulate/formats/mjcf.h"
#include "articulate/formulations/tree_simulation.h"

#ifdef ARTICULATE_BENCH_MUJOCO
#include <stdexcept>

#include "mujoco_models.h"
#endif

namespace {

std::string lyingHumanoidXml() {
  std::ifstream in(std::string(ARTICULATE_MODELS_DIR) + "/robots/mjcf_humanoid/humanoid.xml");
  std::stringstream s;
  s << in.rdbuf();
  std::string x = s.str();
  // on its back just above the floor
  const std::string torso = "<body name='torso' pos='0 0 1.29'>";
  if (const auto at = x.find(torso); at != std::string::npos)
    x.replace(at, torso.size(), "<body name='torso' pos='0 0 0.12' euler='0 -90 0'>");
  return x;
}

// 20 boxes dropped into a bin of five planes, settled into a pile; or, `round`, ellipsoids,
// cylinders and meshes in turn
std::string pileXml(bool round = false) {
  std::string x =
      "<mujoco model='pile'><option timestep='0.002' integrator='Euler'/>"
      "<asset><mesh name='rock' vertex='0.04 0.01 0  -0.03 0.025 0.01  0.01 -0.035 0.02  0 0.01 0.03  -0.01 -0.02 -0.03  0.025 0.03 -0.02  -0.03 -0.02 0.01'/></asset>"
      "<worldbody>"
      "<geom type='plane' size='1 1 0.1'/>"
      "<geom type='plane' size='1 1 0.1' pos='0.25 0 0' zaxis='-1 0 0'/><geom type='plane' size='1 1 0.1' pos='-0.25 0 0' zaxis='1 0 0'/>"
      "<geom type='plane' size='1 1 0.1' pos='0 0.25 0' zaxis='0 -1 0'/><geom type='plane' size='1 1 0.1' pos='0 -0.25 0' zaxis='0 1 0'/>";
  for (int k = 0; k < 20; ++k) {
    const double px = 0.12 * ((k % 4) - 1.5) / 1.5, py = 0.12 * (((k / 4) % 4) - 1.5) / 1.5, pz = 0.06 + 0.12 * (k / 4);
    x += "<body pos='" + std::to_string(px) + " " + std::to_string(py) + " " + std::to_string(pz) + "' euler='" +
         std::to_string(17 * k % 90) + " " + std::to_string(29 * k % 90) + " 0'><freejoint/>";
    const char* shapes[] = {"type='ellipsoid' size='0.04 0.03 0.025'", "type='cylinder' size='0.03 0.025'", "type='mesh' mesh='rock'"};
    x += std::string("<geom ") + (round ? shapes[k % 3] : "type='box' size='0.04 0.03 0.025'") + " mass='0.2'/></body>";
  }
  return x + "</worldbody></mujoco>";
}

std::string pickXml() {
  std::ifstream in(std::string(ARTICULATE_MODELS_DIR) + "/robots/mjcf_pick/pick_box.xml");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// 0 the humanoid, 1 the box pile, 2 the gripper holding its box up, 3 the pile of round shapes
std::string sceneXml(int which) {
  return which == 0 ? lyingHumanoidXml() : which == 1 ? pileXml() : which == 2 ? pickXml() : pileXml(true);
}

// the gripper's controls (lift, grip) at time t: down, closed, lifted; the others have none
std::vector<double> controlsAt(int which, double t) {
  if (which != 2) return {};
  return {t < 1.2 ? -0.05 : 0.12, t < 0.6 ? 0.0 : 0.05};
}

// the bench state: 1 s simulated from the file's pose (2.4 s for the gripper, its box lifted),
// so that the contacts are those at rest
double settleTime(int which) { return which == 2 ? 2.4 : 1.0; }

Eigen::VectorXd settled(int which, const art::ModelSpec& spec, const art::Model& m, Eigen::VectorXd* qd = nullptr) {
  art::Simulation sim(m, art::simulationOptions(spec));
  while (sim.time() < settleTime(which) - 1e-9) {
    const std::vector<double> u = controlsAt(which, sim.time());
    if (!u.empty()) sim.setControls(Eigen::Map<const Eigen::VectorXd>(u.data(), static_cast<Eigen::Index>(u.size())));
    if (!sim.step()) break;
  }
  if (qd) *qd = sim.qd();
  return sim.q();
}

void BM_collide(benchmark::State& state) {
  const int which = static_cast<int>(state.range(0));
  const art::ModelSpec spec = art::specFromMjcf(sceneXml(which), "bench.xml");
  const art::Model m = art::compile(spec);
  art::Data d(m);
  const Eigen::VectorXd q = settled(which, spec, m);
  std::vector<art::Contact> contacts;
  for (auto _ : state) {
    art::forwardKinematics(m, d, q);
    art::collide(m, d, contacts);
    benchmark::DoNotOptimize(contacts.data());
  }
  state.counters["ncon"] = static_cast<double>(contacts.size());
}

void BM_contact_step(benchmark::State& state) {
  const int which = static_cast<int>(state.range(0));
  const art::ModelSpec spec = art::specFromMjcf(sceneXml(which), "bench.xml");
  const art::Model m = art::compile(spec);
  art::Simulation sim(m, art::simulationOptions(spec));
  Eigen::VectorXd qd;
  const Eigen::VectorXd q = settled(which, spec, m, &qd);
  sim.setState(0, q, qd);
  const std::vector<double> u = controlsAt(which, settleTime(which));
  if (!u.empty()) sim.setControls(Eigen::Map<const Eigen::VectorXd>(u.data(), static_cast<Eigen::Index>(u.size())));
  double iterations = 0;
  for (auto _ : state) {
    iterations += sim.softConstraintData()->iterations;
    if (!sim.step() || sim.time() > 2) {
      state.PauseTiming();
      sim.setState(0, q, qd);
      state.ResumeTiming();
    }
    benchmark::DoNotOptimize(sim.q().data());
  }
  state.counters["ncon"] = static_cast<double>(sim.softConstraintData()->contacts.size());
  state.counters["nefc"] = sim.softConstraintData()->nefc;
  state.counters["iter"] = iterations / static_cast<double>(state.iterations());  // Newton's, per step
}

#ifdef ARTICULATE_BENCH_MUJOCO
struct MjScene {
  mjModel* m = nullptr;
  mjData* d = nullptr;
  std::vector<double> qpos, qvel;
  explicit MjScene(int which) {
    try {
      m = bench::loadMujoco({{"bench.xml", sceneXml(which)}});  // mujoco_models.h: from memory
    } catch (const std::runtime_error&) {
      return;
    }
    d = mj_makeData(m);
    while (d->time < settleTime(which) - 1e-9) {  // settled, as the Articulate side
      const std::vector<double> u = controlsAt(which, d->time);
      std::copy(u.begin(), u.end(), d->ctrl);
      mj_step(m, d);
    }
    const std::vector<double> u = controlsAt(which, settleTime(which));
    std::copy(u.begin(), u.end(), d->ctrl);
    qpos.assign(d->qpos, d->qpos + m->nq);
    qvel.assign(d->qvel, d->qvel + m->nv);
  }
  ~MjScene() {
    if (d) mj_deleteData(d);
    if (m) mj_deleteModel(m);
  }
  void reset() {
    std::copy(qpos.begin(), qpos.end(), d->qpos);
    std::copy(qvel.begin(), qvel.end(), d->qvel);
    d->time = 0;
  }
};

void BM_mujoco_collide(benchmark::State& state) {
  MjScene h(static_cast<int>(state.range(0)));
  if (!h.m) return state.SkipWithError("mj_loadXML failed");
  h.reset();
  for (auto _ : state) {
    mj_kinematics(h.m, h.d);
    mj_collision(h.m, h.d);
    benchmark::DoNotOptimize(h.d->contact);
  }
  state.counters["ncon"] = h.d->ncon;
}

void BM_mujoco_contact_step(benchmark::State& state) {
  MjScene h(static_cast<int>(state.range(0)));
  if (!h.m) return state.SkipWithError("mj_loadXML failed");
  h.reset();
  double iterations = 0;
  for (auto _ : state) {
    mj_step(h.m, h.d);
    if (h.d->time > 2) {
      state.PauseTiming();
      h.reset();
      state.ResumeTiming();
    }
    iterations += h.d->solver_iter;
    benchmark::DoNotOptimize(h.d->qpos);
  }
  state.counters["iter"] = iterations / static_cast<double>(state.iterations());
  state.counters["ncon"] = h.d->ncon;
  state.counters["nefc"] = h.d->nefc;
}
#endif

}  // namespace

BENCHMARK(BM_collide)->Name("BM_collide")->ArgName("scene")->Arg(0)->Arg(1)->Arg(2)->Arg(3);
BENCHMARK(BM_contact_step)->Name("BM_contact_step")->ArgName("scene")->Arg(0)->Arg(1)->Arg(2)->Arg(3);
#ifdef ARTICULATE_BENCH_MUJOCO
BENCHMARK(BM_mujoco_collide)->Name("BM_mujoco_collide")->ArgName("scene")->Arg(0)->Arg(1)->Arg(2)->Arg(3);
BENCHMARK(BM_mujoco_contact_step)->Name("BM_mujoco_contact_step")->ArgName("scene")->Arg(0)->Arg(1)->Arg(2)->Arg(3);
#endif
