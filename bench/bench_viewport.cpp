// Frame time of the viewport: an autoTree of 10, 100 and 1000 bodies whose every pose changes
// each frame, rendered offscreen at 1280x720 (Mesa llvmpipe under Xvfb). One iteration =
// forward kinematics, actor transforms, one rendered frame.
// Run: xvfb-run -a -s "-screen 0 1920x1080x24" build/release/bench/articulate-bench-viewport
#include <benchmark/benchmark.h>

#include <QGuiApplication>

#include "articulate/generators.h"
#include "viewport/viewport.h"

namespace {

void BM_frame(benchmark::State& state) {
  art::AutoTreeOptions o;
  o.bodies = static_cast<int>(state.range(0));
  o.branching = o.bodies > 10 ? 2 : 1;
  o.axes = {art::JointType::Rz, art::JointType::Ry};
  art::gui::OffscreenView view(art::autoTree(o), 1280, 720);
  Eigen::VectorXd q = Eigen::VectorXd::Zero(o.bodies);
  view.setPose(q, true);
  view.render();  // first frame builds GL resources
  double t = 0;
  for (auto _ : state) {
    t += 0.01;
    for (int i = 0; i < o.bodies; ++i) q(i) = 0.3 * std::sin(t + 0.1 * i);
    view.setPose(q);
    view.render();
  }
  state.counters["fps"] = benchmark::Counter(static_cast<double>(state.iterations()),
                                             benchmark::Counter::kIsRate);
}
BENCHMARK(BM_frame)->Name("BM_frame/autotree")->Arg(1)->Arg(10)->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
  QGuiApplication app(argc, argv);  // the X connection for VTK's window
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
