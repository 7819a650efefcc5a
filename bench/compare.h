#pragma once
// Comparison benchmarks (built with -DARTICULATE_BENCH_COMPARE=ON, preset bench-compare): the
// same workloads in DART 6.12 and MuJoCo 2.2.2, named BM_<dart|mujoco>_<aba|rnea|crba>/<kind>/<N>.

#include "workloads.h"

namespace bench {

/// Builds the workload's mechanism in DART and MuJoCo from w.spec, checks (untimed) that both
/// agree with Articulate's aba, rnea and crba to 1e-6 (aborting otherwise, with a message on
/// stderr) and registers the DART and MuJoCo benchmarks of the workload.
void registerComparisons(const Workload& w);

}  // namespace bench
