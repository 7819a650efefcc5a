// Body-body contact's cost (collision.h and the soft model's contact rows) beside MuJoCo 2.2.2
// on the same files (presets bench-mujoco, bench-compare):
//  - humanoid: the shipped humanoid (models/robots/mjcf_humanoid), every geom colliding as in
//    MuJoCo's own humanoid.xml, lying on its back on the floor;
//  - pile: 20 spheres and capsules settled in a bin of five planes.
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

std::string humanoidXml() {
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

std::string pileXml() {
  std::string x =
      "<mujoco model='pile'><option timestep='0.002' integrator='Euler'/><worldbody>"
      "<geom type='plane' size='1 1 0.1'/>"
      "<geom type='plane' pos='0.25 0 0' zaxis='-1 0 0'/><geom type='plane' pos='-0.25 0 0' zaxis='1 0 0'/>"
      "<geom type='plane' pos='0 0.25 0' zaxis='0 -1 0'/><geom type='plane' pos='0 -0.25 0' zaxis='0 1 0'/>";
  for (int k = 0; k < 20; ++k) {
    const double px = 0.12 * ((k % 4) - 1.5) / 1.5, py = 0.12 * (((k / 4) % 4) - 1.5) / 1.5, pz = 0.06 + 0.12 * (k / 4);
    x += "<body pos='" + std::to_string(px) + " " + std::to_string(py) + " " + std::to_string(pz) + "'><freejoint/>";
    x += k % 2 ? "<geom type='capsule' size='0.03 0.04' euler='30 60 0' mass='0.2'/>"
               : "<geom type='sphere' size='0.05' mass='0.3'/>";
    x += "</body>";
  }
  return x + "</worldbody></mujoco>";
}

std::string xmlOf(int which) { return which == 0 ? humanoidXml() : pileXml(); }

// the bench state: 1 s simulated from the file's pose, so that the contacts are those at rest
Eigen::VectorXd settled(const art::ModelSpec& spec, const art::Model& m, Eigen::VectorXd* qd = nullptr) {
  art::Simulation sim(m, art::simulationOptions(spec));
  while (sim.time() < 1.0)
    if (!sim.step()) break;
  if (qd) *qd = sim.qd();
  return sim.q();
}

void BM_collide(benchmark::State& state) {
  const int which = static_cast<int>(state.range(0));
  const art::ModelSpec spec = art::specFromMjcf(xmlOf(which), "bench.xml");
  const art::Model m = art::compile(spec);
  art::Data d(m);
  const Eigen::VectorXd q = settled(spec, m);
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
  const art::ModelSpec spec = art::specFromMjcf(xmlOf(which), "bench.xml");
  const art::Model m = art::compile(spec);
  art::Simulation sim(m, art::simulationOptions(spec));
  Eigen::VectorXd qd;
  const Eigen::VectorXd q = settled(spec, m, &qd);
  sim.setState(0, q, qd);
  for (auto _ : state) {
    if (!sim.step() || sim.time() > 2) {
      state.PauseTiming();
      sim.setState(0, q, qd);
      state.ResumeTiming();
    }
    benchmark::DoNotOptimize(sim.q().data());
  }
  state.counters["ncon"] = static_cast<double>(sim.softConstraintData()->contacts.size());
  state.counters["nefc"] = sim.softConstraintData()->nefc;
}

#ifdef ARTICULATE_BENCH_MUJOCO
struct MjScene {
  mjModel* m = nullptr;
  mjData* d = nullptr;
  std::vector<double> qpos, qvel;
  explicit MjScene(int which) {
    try {
      m = bench::loadMujoco({{"bench.xml", xmlOf(which)}});  // mujoco_models.h: from memory
    } catch (const std::runtime_error&) {
      return;
    }
    d = mj_makeData(m);
    while (d->time < 1.0) mj_step(m, d);  // settled, as the Articulate side
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
  for (auto _ : state) {
    mj_step(h.m, h.d);
    if (h.d->time > 2) {
      state.PauseTiming();
      h.reset();
      state.ResumeTiming();
    }
    benchmark::DoNotOptimize(h.d->qpos);
  }
  state.counters["ncon"] = h.d->ncon;
  state.counters["nefc"] = h.d->nefc;
}
#endif

}  // namespace

BENCHMARK(BM_collide)->Name("BM_collide")->ArgName("pile")->Arg(0)->Arg(1);
BENCHMARK(BM_contact_step)->Name("BM_contact_step")->ArgName("pile")->Arg(0)->Arg(1);
#ifdef ARTICULATE_BENCH_MUJOCO
BENCHMARK(BM_mujoco_collide)->Name("BM_mujoco_collide")->ArgName("pile")->Arg(0)->Arg(1);
BENCHMARK(BM_mujoco_contact_step)->Name("BM_mujoco_contact_step")->ArgName("pile")->Arg(0)->Arg(1);
#endif
