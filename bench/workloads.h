#pragma once
// The benchmark workloads shared by Articulate and the comparison engines: spatial_v2 autoTree
// links (length 1, mass 1, COM at 0.5 on x, inertia about the COM
// diag(0.0025, 1.015/12, 1.015/12), Xtree = xlt([1 0 0])) with joint axes alternating Rz, Ry.

#include <string>
#include <vector>

#include <Eigen/Core>

#include "articulate/model/spec.h"

namespace bench {

struct Workload {
  std::string kind;  // "chain" or "tree"
  int bodies = 0;
  art::ModelSpec spec;
  Eigen::VectorXd q, qd, qdd, tau;  // a fixed random state (seeded)
};

/// Chains of 7, 20, 50, 200 bodies and a binary tree of 31 bodies.
std::vector<Workload> workloads();

/// Registers bench_sweep.cpp's sweep-throughput benchmarks (and MuJoCo's beside them when
/// built with ARTICULATE_BENCH_COMPARE). Call from main, not during static initialisation.
void registerSweepBenchmarks();

}  // namespace bench
