#pragma once
// A ModelSpec's mechanism as MuJoCo 2.2.2 reads it: MJCF written from the spec, loaded from
// memory. Shared by the comparison benchmarks (compare.cpp: DART and MuJoCo, preset
// bench-compare) and the sweep throughput comparison (registerSweepComparisons), which also
// builds without DART and so keeps the release build's AVX2 (preset bench-mujoco).

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Core>
#include <mujoco/mujoco.h>

#include "articulate/model/spec.h"

namespace bench {

struct BodyInertia {
  double mass = 0.0;
  Eigen::Vector3d com = Eigen::Vector3d::Zero();       // body coordinates
  Eigen::Matrix3d aboutCom = Eigen::Matrix3d::Zero();  // rotational inertia about the COM
};

// Splits spatial_v2's mcI = [Ic + m C C^T, m C; m C^T, m 1] (C = skew(com)) into m, com, Ic,
// which covers both the mass/com/aboutCom and the raw-matrix forms of InertiaSpec.
BodyInertia splitInertia(const art::Mat6& I);
/// The axis of an Rx, Ry or Rz joint; throws std::invalid_argument for the others.
Eigen::Vector3d hingeAxis(const art::Joint& j);
/// Throws std::invalid_argument unless the spec is spatial, parents precede children and every
/// joint is Rx, Ry or Rz.
void checkSpec(const art::ModelSpec& spec);

struct MjModelDeleter {
  void operator()(mjModel* m) const { mj_deleteModel(m); }
};
struct MjDataDeleter {
  void operator()(mjData* d) const { mj_deleteData(d); }
};
using MjDataPtr = std::unique_ptr<mjData, MjDataDeleter>;

struct MujocoModel {
  std::shared_ptr<const mjModel> model;
  std::vector<int> dof;   // Articulate body i -> MuJoCo dof (qvel, qacc, qfrc, M index)
  std::vector<int> qpos;  // Articulate body i -> MuJoCo qpos index
};

using XmlFiles = std::vector<std::pair<std::string, std::string>>;  // name, content

/// The MJCF files of the model (hinges, inertials, no geoms), the main file first.
XmlFiles mjcf(const art::ModelSpec& spec);
/// MuJoCo's model of the files, read from memory; throws std::runtime_error with MuJoCo's error.
mjModel* loadMujoco(const XmlFiles& files);
/// mjcf() loaded, with Articulate body i's dof and qpos index.
MujocoModel buildMujoco(const art::ModelSpec& spec);

/// Sweep throughput beside bench_sweep.cpp's: 1 s runs of `chain` (hinges under gravity) and
/// `quadruped` (a free-joint trunk, PD-controlled hinges as MuJoCo position actuators (controls:
/// the targets) and joint damping, foot spheres on a floor plane) through mj_step at 1 ms, Euler
/// and RK4, one mjData per thread, as BM_sweep/mujoco_<euler|rk4>/<chain20|quadruped>. Checks
/// (untimed) that a run stays finite; prints the quadruped's trunk height after 1 s.
void registerSweepComparisons(const art::ModelSpec& chain, const art::ModelSpec& quadruped);

}  // namespace bench
