// Frame time of the viewport: an autoTree of 10, 100 and 1000 bodies whose every pose changes
// each frame, rendered offscreen at 1280x720 (Mesa llvmpipe under Xvfb). One iteration =
// forward kinematics, actor transforms, one rendered frame.
// Run: xvfb-run -a -s "-screen 0 1920x1080x24" build/release/bench/articulate-bench-viewport
#include <benchmark/benchmark.h>

#include <QApplication>

#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "articulate/formats/document.h"
#include "articulate/formulations/generators.h"
#include "articulate/model/model.h"
#include "articulate/simulation/recording.h"
#include "articulate/simulation/system.h"
#include "frame.h"
#include "playback.h"
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
// Scrub latency: a 1-million-sample recording of a 20-body model; one iteration = the slider
// moves to a random time -> the playback looks the state up and interpolates -> the viewport
// moves the bodies and renders the frame (1280x720), as PlaybackBar -> Playback -> Viewport.
// the recording the scrub benchmarks move through: 20 joints, one sample per ms
art::Recording scrubRecording(std::size_t samples, int joints) {
  art::Recording rec(joints);
  Eigen::VectorXd q(joints), qd = Eigen::VectorXd::Zero(joints);
  for (std::size_t k = 0; k < samples; ++k) {
    const double t = 1e-3 * static_cast<double>(k);
    for (int i = 0; i < joints; ++i) q(i) = 0.5 * std::sin(t + 0.2 * i);
    rec.append(t, q, qd, 0.0, 0.0);
  }
  return rec;
}

// the scrub without the frame: the playback's lookup and interpolation alone
void BM_scrub_lookup(benchmark::State& state) {
  art::gui::Playback playback;
  playback.setAnimation(scrubRecording(static_cast<std::size_t>(state.range(0)), 20));
  std::uint64_t seed = 12345;
  for (auto _ : state) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    const double u = static_cast<double>(seed >> 11) / 9007199254740992.0;
    playback.setTime(playback.startTime() + u * (playback.endTime() - playback.startTime()));
    benchmark::DoNotOptimize(playback.q().data());
  }
}
BENCHMARK(BM_scrub_lookup)->Name("BM_scrub_lookup/autotree20/samples")->Arg(1000000);

void BM_scrub(benchmark::State& state) {
  art::AutoTreeOptions o;
  o.bodies = 20;
  o.branching = 2;
  o.axes = {art::JointType::Rz, art::JointType::Ry};
  const art::ModelSpec spec = art::autoTree(o);
  const std::size_t samples = static_cast<std::size_t>(state.range(0));
  art::Recording rec = scrubRecording(samples, o.bodies);
  state.counters["MB"] = static_cast<double>(samples * art::Recording::bytesPerSample(o.bodies, o.bodies)) / 1e6;
  art::gui::Playback playback;
  playback.setAnimation(std::move(rec));
  art::gui::OffscreenView view(spec, 1280, 720);
  view.setPose(playback.q(), true);
  view.render();
  std::uint64_t seed = 12345;
  for (auto _ : state) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    const double u = static_cast<double>(seed >> 11) / 9007199254740992.0;
    playback.setTime(playback.startTime() + u * (playback.endTime() - playback.startTime()));
    view.setPose(playback.q());
    view.render();
  }
}
BENCHMARK(BM_scrub)->Name("BM_scrub/autotree20/samples")->Arg(1000000)->Unit(benchmark::kMillisecond)->UseRealTime();

// Frame time with the force overlays: one iteration = the playhead moves to the next time of a
// simulated recording (2 s at 1 ms) -> computeFrame (poses; with overlays: contacts and their
// forces at the recorded ground deformation, loop forces, the system's centre of mass, 120-point
// trails of three bodies, every body's name) -> the view renders it at 1280x720. Arg: a set of
// overlays: 1 = the force overlays (contacts, loop forces, system centre of mass, trails),
// 2 = the per-body ones (frames and centres of mass), 4 = body names; 0 none, 7 all of them.
art::ModelSpec overlayModel(int which) {
  if (which == 0) return std::get<art::LoadedModel>(art::loadDocument(ARTICULATE_MODELS_DIR "/quadruped.json")).spec;
  art::AutoTreeOptions o;
  o.bodies = 100;
  o.branching = 2;
  o.axes = {art::JointType::Rz, art::JointType::Ry};
  return art::autoTree(o);
}

void BM_overlays(benchmark::State& state, int which) {
  const art::ModelSpec spec = overlayModel(which);
  art::TreeSystem system(std::make_shared<const art::Model>(art::compile(spec)),
                         art::simulationOptions(spec));
  art::Recording rec(system.positionSize(), system.velocitySize(), system.constraintSize(),
                     system.auxiliarySize());
  Eigen::VectorXd w(system.auxiliarySize());
  for (int k = 0; k <= 2000; ++k) {
    if (k) system.advanceTo(1e-3 * k);
    system.auxiliaryState(w);
    rec.append(system.time(), system.positions().data(), system.velocities().data(), 0, 0, nullptr,
               w.data());
  }
  art::gui::Overlays overlays;
  const long set = state.range(0);
  if (set & 1) {
    overlays.contactForces = overlays.constraintForces = overlays.systemCom = true;
    overlays.trails = true;
    overlays.trailBodies = {0, system.bodies() / 2, system.bodies() - 1};
  }
  if (set & 2) overlays.bodyFrames = overlays.centresOfMass = true;
  if (set & 4) overlays.bodyNames = true;
  art::TreeSystem probe(std::make_shared<const art::Model>(art::compile(spec)),
                        art::simulationOptions(spec));
  art::gui::OffscreenView view(spec, 1280, 720);
  view.setOverlays(overlays);
  art::gui::FrameContent frame;
  Eigen::VectorXd q, qd;
  rec.stateAt(1.0, q, qd);
  art::gui::computeFrame(probe, spec, &rec, 1.0, q, qd, std::nullopt, overlays, frame);
  view.setBodyPoses(frame.poses, true);
  view.render();
  double t = 1.0;
  std::size_t arrows = 0;
  for (auto _ : state) {
    t = t >= 2.0 ? 1.0 : t + 0.004;
    rec.stateAt(t, q, qd);
    art::gui::computeFrame(probe, spec, &rec, t, q, qd, std::nullopt, overlays, frame);
    view.setSegments(frame.segments);
    view.setAnnotations(frame.annotations);
    view.setBodyPoses(frame.poses);
    view.render();
    arrows = frame.annotations.arrows.size();
  }
  state.counters["arrows"] = static_cast<double>(arrows);
}
BENCHMARK_CAPTURE(BM_overlays, quadruped, 0)->Name("BM_overlays/quadruped")->Arg(0)->Arg(1)->Arg(2)->Arg(4)->Arg(7)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_overlays, autotree100, 1)->Name("BM_overlays/autotree100")->Arg(0)->Arg(1)->Arg(2)->Arg(4)->Arg(7)->Unit(benchmark::kMillisecond)->UseRealTime();

// A meshed robot as users bring them: a URDF of 6 links on revolute joints, each drawn by a
// binary STL of about 65,000 triangles (390,000 in all), written once to a scratch folder.
// Counters: load_ms (the first loadModel: URDF, mesh files through assimp) and build_ms (the
// view's first frame: VTK data, decimated forms, GL upload); the timed loop moves every joint
// each frame, with the camera's default framing (the fine forms drawn).
std::string meshedRobot() {
  static const std::string path = [] {
    const std::string dir = (std::filesystem::temp_directory_path() / ("articulate-bench-mesh-" + std::to_string(::getpid()))).string();
    std::filesystem::create_directories(dir);
    // a capsule-like UV sphere stretched along x: n x m quads
    auto write = [&](const std::string& file, int n, int m, double length, double radius) {
      std::vector<std::array<float, 9>> tris;
      auto pt = [&](int i, int j) {
        const double th = M_PI * j / m, ph = 2 * M_PI * i / n;
        return std::array<float, 3>{static_cast<float>(0.5 * length * (1 - std::cos(th))),
                                    static_cast<float>(radius * std::sin(th) * std::cos(ph)),
                                    static_cast<float>(radius * std::sin(th) * std::sin(ph))};
      };
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < m; ++j) {
          const auto a = pt(i, j), b = pt(i + 1, j), c = pt(i + 1, j + 1), d = pt(i, j + 1);
          if (j > 0) tris.push_back({a[0], a[1], a[2], d[0], d[1], d[2], b[0], b[1], b[2]});
          if (j < m - 1) tris.push_back({b[0], b[1], b[2], d[0], d[1], d[2], c[0], c[1], c[2]});
        }
      std::ofstream out(dir + "/" + file, std::ios::binary);
      out << std::string(80, ' ');
      const std::uint32_t count = static_cast<std::uint32_t>(tris.size());
      out.write(reinterpret_cast<const char*>(&count), 4);
      for (const auto& t : tris) {
        const float normal[3] = {0, 0, 0};
        out.write(reinterpret_cast<const char*>(normal), 12);
        out.write(reinterpret_cast<const char*>(t.data()), 36);
        out.write("\0\0", 2);
      }
    };
    std::ostringstream urdf;
    urdf << "<robot name='meshed'><link name='world'/>";
    std::string parent = "world";
    for (int k = 0; k < 6; ++k) {
      const std::string name = "l" + std::to_string(k);
      write(name + ".stl", 256, 128, 0.3, 0.05);
      urdf << "<link name='" << name << "'><inertial><origin xyz='0.15 0 0'/><mass value='1'/><inertia ixx='0.01' iyy='0.01' izz='0.01' ixy='0' ixz='0' iyz='0'/></inertial>"
           << "<visual><geometry><mesh filename='" << name << ".stl'/></geometry></visual></link>"
           << "<joint name='j" << k << "' type='continuous'><parent link='" << parent << "'/><child link='" << name
           << "'/><origin xyz='" << (k ? 0.3 : 0.0) << " 0 0'/><axis xyz='0 " << (k % 2 ? 1 : 0) << " " << (k % 2 ? 0 : 1) << "'/></joint>";
      parent = name;
    }
    urdf << "</robot>";
    std::ofstream(dir + "/robot.urdf") << urdf.str();
    return dir + "/robot.urdf";
  }();
  return path;
}

void BM_mesh_robot(benchmark::State& state) {
  const std::string file = meshedRobot();
  const auto t0 = std::chrono::steady_clock::now();
  const art::LoadedModel lm = art::loadModel(file);
  const auto t1 = std::chrono::steady_clock::now();
  // the first load reads the files; later ones find them in the mesh cache
  static const double firstLoad = std::chrono::duration<double, std::milli>(t1 - t0).count();
  art::gui::OffscreenView view(lm.spec, 1280, 720);
  const int n = art::compile(lm.spec).nv();
  Eigen::VectorXd q = Eigen::VectorXd::Zero(n);
  view.setPose(q, true);
  view.render();
  const auto t2 = std::chrono::steady_clock::now();
  double t = 0;
  for (auto _ : state) {
    t += 0.01;
    for (int i = 0; i < n; ++i) q(i) = 0.4 * std::sin(t + 0.3 * i);
    view.setPose(q);
    view.render();
  }
  state.counters["load_ms"] = firstLoad;
  state.counters["build_ms"] = std::chrono::duration<double, std::milli>(t2 - t1).count();
  state.counters["fps"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_mesh_robot)->Name("BM_mesh_robot/390k_triangles")->Unit(benchmark::kMillisecond)->UseRealTime();

BENCHMARK(BM_frame)->Name("BM_frame/autotree")->Arg(1)->Arg(10)->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
  QApplication app(argc, argv);  // the X connection for VTK's window; Playback's timer
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
