#pragma once
// Comparison benchmarks (built with -DARTICULATE_BENCH_COMPARE=ON, preset bench-compare): the
// same workloads in DART 6.12 and MuJoCo 2.2.2, named BM_<dart|mujoco>_<aba|rnea|crba>/<kind>/<N>.

#include "workloads.h"

namespace bench {

/// Builds the workload's mechanism in DART and MuJoCo from w.spec, checks (untimed) that both
/// agree with Articulate's aba, rnea and crba to 1e-6 (aborting otherwise, with a message on
/// stderr) and registers the DART and MuJoCo benchmarks of the workload.
void registerComparisons(const Workload& w);

/// Sweep throughput beside bench_sweep.cpp's: 1 s runs of `chain` (hinges under gravity) and
/// `quadruped` (a free-joint trunk, PD-controlled hinges as MuJoCo position actuators (controls: the targets) and joint
/// damping, foot spheres on a floor plane) through mj_step at 1 ms, Euler and RK4, one mjData per
/// thread, as BM_sweep/mujoco_<euler|rk4>/<chain20|quadruped>. Checks (untimed) that a run stays
/// finite; prints the quadruped's trunk height after 1 s.
void registerSweepComparisons(const art::ModelSpec& chain, const art::ModelSpec& quadruped);

}  // namespace bench
