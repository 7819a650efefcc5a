#include "workloads.h"

#include <random>

#include "articulate/formulations/generators.h"

namespace bench {

namespace {
Workload make(const std::string& kind, int n, double branching) {
  art::AutoTreeOptions o;
  o.bodies = n;
  o.branching = branching;
  o.axes = {art::JointType::Rz, art::JointType::Ry};
  Workload w{kind, n, art::autoTree(o), {}, {}, {}, {}};
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  auto rnd = [&] {
    Eigen::VectorXd v(n);
    for (int i = 0; i < n; ++i) v(i) = u(rng);
    return v;
  };
  w.q = rnd();
  w.qd = rnd();
  w.qdd = rnd();
  w.tau = rnd();
  return w;
}
}  // namespace

std::vector<Workload> workloads() {
  return {make("chain", 7, 1), make("chain", 20, 1), make("chain", 50, 1), make("chain", 200, 1),
          make("tree", 31, 2)};
}

}  // namespace bench
