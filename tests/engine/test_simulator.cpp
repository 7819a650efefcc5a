// Joint controllers and external forces against closed forms and against each other, the
// recording (chunked storage, interpolation, truncation, files) and the threaded Simulator
// (same trajectory as a Simulation run directly, pacing never ahead of the wall clock,
// generations, divergence keeps the history).
#include <array>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>

#include <QtTest>

#include "test_main.h"

#include "articulate/dynamics/control.h"
#include "articulate/formulations/generators.h"
#include "articulate/formats/document.h"
#include "articulate/formats/files.h"
#include "articulate/formats/mjcf.h"
#include "articulate/simulation/recording.h"
#include "articulate/simulation/simulator.h"

using namespace art;

namespace {

// one body on a revolute z joint at the origin: rotational inertia `izz` about the joint axis,
// no gravity effect (gravity along the axis)
ModelSpec rotor(double izz) {
  ModelSpec s;
  s.name = "rotor";
  BodySpec b;
  b.name = "rotor";
  b.joint.type = JointType::Rz;
  b.inertia = InertiaSpec::fromMassComInertia(2.0, Vec3::Zero(), Vec3(0.3, 0.4, izz).asDiagonal());
  s.bodies.push_back(b);
  return s;
}

Eigen::VectorXd vec1(double v) { return Eigen::VectorXd::Constant(1, v); }

// waits until the simulator's thread has applied every command sent so far (a state, not a
// clock: under load the thread may take long to get there, and the test waits for it)
bool settleThread(const Simulator& sim, double limit = 30.0) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(limit);
  while (sim.status().commandsApplied < sim.commandsSent()) {
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

// takes the snapshots of `generation` until `count` samples came (a state, not a clock: under
// a sanitizer the thread publishes late), into a recording of the batch's sizes with its
// energies, energy dissipated, auxiliary state and perturbation log
Recording collect(Simulator& sim, long generation, std::size_t count, double limit = 60.0) {
  Recording rec;
  bool sized = false;
  SnapshotBatch batch;
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(limit);
  while (rec.size() < count && std::chrono::steady_clock::now() < end) {
    if (!sim.takeSnapshots(batch) || batch.generation != generation) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      continue;
    }
    if (!sized) rec = Recording(batch.nq, batch.nv, batch.nc, batch.nw, batch.ns), sized = true;
    for (std::size_t k = 0; k < batch.size(); ++k)
      rec.append(batch.time(k), batch.q(k), batch.qd(k), batch.kinetic(k), batch.potential(k),
                 batch.lambda(k), batch.auxiliary(k), batch.dissipated(k), batch.work(k), batch.softForces(k));
    for (const PerturbationChange& c : batch.perturbations) rec.setPerturbation(c.time, c.perturbation);
    for (const EqualityChange& c : batch.equalities) rec.setEqualities(c.time, c.active);
  }
  return rec;
}

// a tree system whose step throws once `after` steps were taken (a solver failing mid-run)
class ThrowingSystem : public TreeSystem {
 public:
  ThrowingSystem(std::shared_ptr<const Model> model, int after)
      : TreeSystem(std::move(model), {}), m_left(after) {}
  bool step() override {
    if (m_left-- <= 0) throw std::runtime_error("a solver failed");
    return TreeSystem::step();
  }

 private:
  int m_left;
};

// runs the simulator until it pauses by itself or `wall` seconds pass, collecting snapshots
Recording drain(Simulator& sim, long generation, int n, double wall) {
  Recording rec(n);
  SnapshotBatch batch;
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(wall);
  bool sawRunning = false;
  while (std::chrono::steady_clock::now() < end) {
    if (sim.takeSnapshots(batch) && batch.generation == generation)
      for (std::size_t k = 0; k < batch.size(); ++k)
        rec.append(batch.time(k), batch.q(k), batch.qd(k), batch.kinetic(k), batch.potential(k));
    // the thread's status of this generation only: until it applies the load, the status is the
    // previous generation's (stopped after its steps), which once ended a drain early under TSan
    const SimulatorStatus st = sim.status();
    if (st.generation != generation) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      continue;
    }
    sawRunning = sawRunning || st.running || st.steps > 0;
    if (sawRunning && !st.running) {
      // stopped: one more take for what it published last
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      while (sim.takeSnapshots(batch))
        if (batch.generation == generation)
          for (std::size_t k = 0; k < batch.size(); ++k)
            rec.append(batch.time(k), batch.q(k), batch.qd(k), batch.kinetic(k),
                       batch.potential(k));
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return rec;
}

}  // namespace

class TestSimulator : public QObject {
  Q_OBJECT
 private slots:
  // --- controllers and forces ---
  void constantTorqueGivesUniformAcceleration() {
    ModelSpec s = rotor(0.5);
    s.bodies[0].control.type = ControlSpec::Type::Constant;
    s.bodies[0].control.torque = 1.5;
    const Model m = compile(s);
    Simulation sim(m, {});
    QVERIFY(sim.advanceTo(2.0));
    // q = tau t^2 / (2 I)
    QVERIFY(std::abs(sim.q()(0) - 1.5 * 4 / (2 * 0.5)) < 1e-10);
    QVERIFY(std::abs(sim.qd()(0) - 1.5 * 2 / 0.5) < 1e-10);
  }

  void pdControllerIsADampedOscillator() {
    // I qdd = kp (target - q) - kd qd: underdamped closed form
    const double I = 0.5, kp = 20, kd = 1, target = 0.7;
    ModelSpec s = rotor(I);
    ControlSpec& c = s.bodies[0].control;
    c.type = ControlSpec::Type::PD;
    c.kp = kp;
    c.kd = kd;
    c.target = target;
    const Model m = compile(s);
    Simulation sim(m, {});
    const double zeta = kd / (2 * std::sqrt(kp * I)), wn = std::sqrt(kp / I);
    const double wd = wn * std::sqrt(1 - zeta * zeta);
    for (double t : {0.3, 1.1, 2.5}) {
      QVERIFY(sim.advanceTo(t));
      // e = q - target, e(0) = -target, e'(0) = 0
      const double e = -target * std::exp(-zeta * wn * t) *
                       (std::cos(wd * t) + zeta * wn / wd * std::sin(wd * t));
      QVERIFY2(std::abs(sim.q()(0) - (target + e)) < 1e-9, qPrintable(QString::number(sim.q()(0))));
    }
  }

  void tableInterpolatesAndHolds() {
    ControlSpec c;
    c.type = ControlSpec::Type::Table;
    c.times = {1.0, 2.0, 4.0};
    c.torques = {3.0, 5.0, -1.0};
    QCOMPARE(controlForce(c, 0.0, 0, 0), 3.0);
    QCOMPARE(controlForce(c, 1.5, 0, 0), 4.0);
    QCOMPARE(controlForce(c, 3.0, 0, 0), 2.0);
    QCOMPARE(controlForce(c, 9.0, 0, 0), -1.0);
    // a ramp table integrates to the cubic: tau = a t, q = a t^3 / (6 I)
    ModelSpec s = rotor(0.25);
    s.bodies[0].control.type = ControlSpec::Type::Table;
    s.bodies[0].control.times = {0.0, 10.0};
    s.bodies[0].control.torques = {0.0, 20.0};
    const Model m = compile(s);
    Simulation sim(m, {});
    QVERIFY(sim.advanceTo(1.0));
    QVERIFY(std::abs(sim.q()(0) - 2.0 / (6 * 0.25)) < 1e-10);
  }

  void externalForceEqualsItsJointTorque() {
    // a force F = (0, 2, 0) N at (0.3, 0, 0) on the rotor is the torque 0.6 N m about z
    ModelSpec forced = rotor(0.5);
    ExternalForceSpec f;
    f.body = 0;
    f.point = Vec3(0.3, 0, 0);
    f.force = Vec3(0, 2, 0);
    forced.forces.push_back(f);
    ModelSpec driven = rotor(0.5);
    driven.bodies[0].control.type = ControlSpec::Type::Constant;
    driven.bodies[0].control.torque = 0.6 * std::cos(0.0);
    const Model mf = compile(forced), md = compile(driven);
    Simulation a(mf, {}), b(md, {});
    // the moment arm turns with the body: compare only the first instant's acceleration ...
    QVERIFY(a.advanceTo(1e-3) && b.advanceTo(1e-3));
    QVERIFY(std::abs(a.qd()(0) - b.qd()(0)) < 1e-6 * std::abs(b.qd()(0)));
    // ... and the whole motion against the closed form of a pendulum-like torque 0.6 cos(q)
    Data d(mf);
    ExternalForces fx;
    externalForces(mf, d, vec1(0.4), fx);
    QVERIFY(std::abs(fx(2, 0) - 0.6 * std::cos(0.4)) < 1e-12);  // moment about z at the origin
    QVERIFY(std::abs(fx(4, 0) - 2.0) < 1e-15);
    // the same force in a planar model gives the same motion
    ModelSpec planar;
    planar.arithmetic = Arithmetic::Planar;
    BodySpec pb;
    pb.name = "rotor";
    pb.joint.type = JointType::PlanarR;
    pb.inertia = forced.bodies[0].inertia;
    planar.bodies.push_back(pb);
    planar.forces = forced.forces;
    const Model mp = compile(planar);
    Simulation p(mp, {});
    QVERIFY(a.advanceTo(2.0) && p.advanceTo(2.0));
    QVERIFY2(std::abs(a.q()(0) - p.q()(0)) < 1e-12, qPrintable(QString::number(a.q()(0) - p.q()(0))));
    QVERIFY(std::abs(a.q()(0)) > 0.1);
  }

  void controllersAndForcesRoundTripThroughTheFormat() {
    ModelSpec s = rotor(0.5);
    BodySpec arm = s.bodies[0];
    arm.name = "arm";
    arm.parent = 0;
    arm.joint.type = JointType::Ry;
    arm.translation = Vec3(0.2, 0, 0);
    s.bodies.push_back(arm);
    compile(s);
    s.bodies[0].control.type = ControlSpec::Type::PD;
    s.bodies[0].control.kp = 12.5;
    s.bodies[0].control.kd = 0.25;
    s.bodies[0].control.target = -0.5;
    s.bodies[1].control.type = ControlSpec::Type::Table;
    s.bodies[1].control.times = {0, 0.5, 2};
    s.bodies[1].control.torques = {0, 1, -0.25};
    ExternalForceSpec f;
    f.body = 1;
    f.point = Vec3(0.5, 0, 0);
    f.force = Vec3(0, 0, 3);
    f.torque = Vec3(0.1, 0, 0);
    s.forces.push_back(f);
    Diagnostics problems;
    ModelSpec back;
    specFromJson(nlohmann::json::parse(specToJson(s).dump()), back, problems);
    QVERIFY2(problems.empty(), problems.empty() ? "" : problems[0].text().c_str());
    QCOMPARE(QString::fromStdString(specToJson(back).dump()), QString::fromStdString(specToJson(s).dump()));
    QCOMPARE(back.bodies[1].control.torques, s.bodies[1].control.torques);
    QCOMPARE(back.forces.size(), std::size_t(1));
    QVERIFY(back.forces[0].force == f.force && back.forces[0].torque == f.torque);
  }

  // --- recording ---
  void recordingStoresAcrossChunksAndInterpolates() {
    const int n = 3;
    Recording r(n);
    const std::size_t count = 3 * Recording::kChunk + 17;
    Eigen::VectorXd q(n), qd(n);
    for (std::size_t k = 0; k < count; ++k) {
      const double t = 0.001 * static_cast<double>(k);
      q << t, 2 * t, -t;
      qd << 1, 2, -1;
      r.append(t, q, qd, t * t, -t);
    }
    QCOMPARE(r.size(), count);
    QCOMPARE(r.q(Recording::kChunk + 5)(1), 2 * 0.001 * (Recording::kChunk + 5));
    QCOMPARE(r.kinetic(count - 1), r.endTime() * r.endTime());
    QCOMPARE(r.indexAt(-1.0), std::size_t(0));
    QCOMPARE(r.indexAt(1e9), count - 1);
    QCOMPARE(r.indexAt(0.0125), std::size_t(12));
    r.stateAt(0.01255, q, qd);
    QVERIFY(std::abs(q(1) - 2 * 0.01255) < 1e-12);
    r.stateAt(-5, q, qd);  // clamped
    QCOMPARE(q(0), 0.0);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, r.append(0.0, q, qd, 0, 0));
    r.truncateAfter(0.0045);
    QCOMPARE(r.size(), std::size_t(5));
    QCOMPARE(r.endTime(), 0.004);
    r.truncateAfter(-1);
    QVERIFY(r.empty());
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, r.indexAt(0));
  }

  void repeatedTimesJumpToTheLaterSample() {
    Recording r(1);
    r.append(0, vec1(0), vec1(0), 0, 0);
    r.append(1, vec1(1), vec1(0), 0, 0);
    r.append(1, vec1(5), vec1(0), 0, 0);  // an instantaneous jump
    r.append(2, vec1(6), vec1(0), 0, 0);
    Eigen::VectorXd q, qd;
    r.stateAt(1.0, q, qd);
    QCOMPARE(q(0), 5.0);
    r.stateAt(0.5, q, qd);
    QCOMPARE(q(0), 0.5);
    r.stateAt(1.5, q, qd);
    QCOMPARE(q(0), 5.5);
  }

  void recordingFileRoundTrips() {
    const ModelSpec spec = doublePendulum();
    const Model m = compile(spec);
    Simulation sim(m, {});
    Recording r(m.nb);
    for (int k = 0; k <= 50; ++k) {
      if (k) QVERIFY(sim.advanceTo(k * 0.01));
      const EnergyMomentum e = sim.energy();
      r.append(sim.time(), sim.q(), sim.qd(), e.kinetic, e.potential);
    }
    Motion mo = r.toMotion();
    mo.title = "swing";
    mo.author = "tests";
    QTemporaryDir dir;
    const std::string path = dir.filePath("swing.json").toStdString();
    saveRecording(path, spec, mo);
    const LoadedModel lm = loadModel(path);
    QCOMPARE(lm.format, std::string(kRecordingFormatName));
    QVERIFY(lm.motion);
    QCOMPARE(lm.motion->title, std::string("swing"));
    QCOMPARE(specToJson(lm.spec).dump(), specToJson(spec).dump());
    const Recording back = Recording::fromMotion(*lm.motion);
    QCOMPARE(back.size(), r.size());
    for (std::size_t k = 0; k < r.size(); k += 7) {
      QCOMPARE(back.time(k), r.time(k));
      QVERIFY(back.q(k) == r.q(k) && back.qd(k) == r.qd(k));
      QCOMPARE(back.potential(k), r.potential(k));
    }
    // the streamed writer writes the very bytes of the document formatJson would: with and
    // without the optional fields, with no sample, and past its 1 MiB write buffer
    const auto fileText = [](const std::string& file) { return readTextFile(file); };
    QCOMPARE(fileText(path), formatJson(recordingToJson(spec, mo)));
    Motion bare = mo;
    bare.title = bare.author = "";
    bare.qd.resize(0, 0);
    bare.kinetic.resize(0);
    bare.potential.resize(0);
    saveRecording(path, spec, bare);
    QCOMPARE(fileText(path), formatJson(recordingToJson(spec, bare)));
    Motion none;
    none.q.resize(0, 2);
    saveRecording(path, spec, none);
    QCOMPARE(fileText(path), formatJson(recordingToJson(spec, none)));
    // without the energy dissipated a recording is version 1, as earlier versions wrote it;
    // with it, version 2, and it comes back; version 1 does not have it
    saveRecording(path, spec, mo);
    QVERIFY(fileText(path).find("\"version\": 1,") != std::string::npos);
    Motion dissipative = mo;
    dissipative.dissipated = Eigen::VectorXd::LinSpaced(mo.t.size(), 0.0, 0.25);
    saveRecording(path, spec, dissipative);
    QCOMPARE(fileText(path), formatJson(recordingToJson(spec, dissipative)));
    QVERIFY(fileText(path).find("\"version\": 2,") != std::string::npos);
    const Recording withLoss = Recording::fromMotion(*loadModel(path).motion);
    QCOMPARE(withLoss.dissipated(withLoss.size() - 1), 0.25);
    QCOMPARE(withLoss.toMotion().dissipated, dissipative.dissipated);
    QCOMPARE(back.dissipated(back.size() - 1), 0.0);
    QCOMPARE(back.toMotion().dissipated.size(), Eigen::Index(0));  // all zero: not written
    nlohmann::ordered_json old = recordingToJson(spec, dissipative);
    old["version"] = 1;
    writeFileAtomically(path, old.dump());
    QVERIFY_THROWS_EXCEPTION(FormatError, loadModel(path));
    // the actuators' work came with version 3: written only when some sample has it, back
    // exactly, and refused in an older version
    Motion driven = dissipative;
    driven.actuatorWork = Eigen::VectorXd::LinSpaced(mo.t.size(), 0.0, 1.5);
    saveRecording(path, spec, driven);
    QCOMPARE(fileText(path), formatJson(recordingToJson(spec, driven)));
    QVERIFY(fileText(path).find("\"version\": 3,") != std::string::npos);
    const Recording withWork = Recording::fromMotion(*loadModel(path).motion);
    QCOMPARE(withWork.work(withWork.size() - 1), 1.5);
    QCOMPARE(withWork.toMotion().actuatorWork, driven.actuatorWork);
    QCOMPARE(withWork.toMotion().dissipated, driven.dissipated);
    QCOMPARE(withLoss.toMotion().actuatorWork.size(), Eigen::Index(0));
    nlohmann::ordered_json older = recordingToJson(spec, driven);
    older["version"] = 2;
    writeFileAtomically(path, older.dump());
    try {
      loadModel(path);
      QFAIL("a version 2 recording with actuator_work opened");
    } catch (const FormatError& e) {
      QVERIFY2(std::string(e.what()).find("actuator_work: needs version 3") != std::string::npos, e.what());
    }
    Motion big;
    const Eigen::Index n = 40000;
    big.t = Eigen::VectorXd::LinSpaced(n, 0.0, 40.0);
    big.q = Eigen::MatrixXd::Random(n, 2) * 3.14159;
    big.qd = Eigen::MatrixXd::Random(n, 2);
    big.kinetic = Eigen::VectorXd::Random(n).cwiseAbs();
    big.potential = -Eigen::VectorXd::Random(n).cwiseAbs();
    big.date = "2026-11-24T20:00:00Z";
    saveRecording(path, spec, big);
    const std::string streamed = fileText(path);
    QVERIFY(streamed.size() > (std::size_t(2) << 20));
    QVERIFY(streamed == formatJson(recordingToJson(spec, big)));
  }

  // A recording past the 256 MiB model-file limit (about 15 minutes of the 6-joint arm at
  // 1 kHz) reopens: before, loadModel refused it as "larger than 256 MiB". A model file that
  // large is still refused, and the recording's every sample comes back exactly.
  void aRecordingPastTheModelLimitReopens() {
#ifdef ARTICULATE_SANITIZED
    QSKIP("writes and parses a 270 MiB file: too slow and large under a sanitizer");
#endif
    const ModelSpec spec = loadModel(std::string(ARTICULATE_MODELS_DIR) + "/arm6.json").spec;
    const Eigen::Index n = 960000;  // 16 minutes at 1 kHz
    Motion mo;
    mo.t = Eigen::VectorXd::LinSpaced(n, 0.0, (n - 1) * 1e-3);
    mo.q = Eigen::MatrixXd::Random(n, 6);
    mo.qd = Eigen::MatrixXd::Random(n, 6) * 3.0;
    mo.kinetic = Eigen::VectorXd::Random(n).cwiseAbs();
    mo.potential = Eigen::VectorXd::Random(n);
    QTemporaryDir dir;
    const std::string path = dir.filePath("long.json").toStdString();
    saveRecording(path, spec, mo);
    const auto bytes = std::filesystem::file_size(path);
    QVERIFY2(bytes > (std::uintmax_t(256) << 20), qPrintable(QString("%1 bytes").arg(bytes)));
    {
      const LoadedModel lm = loadModel(path);
      QVERIFY(lm.motion);
      QCOMPARE(lm.motion->t.size(), n);
      QVERIFY(lm.motion->t == mo.t && lm.motion->q == mo.q && lm.motion->qd == mo.qd);
      QVERIFY(lm.motion->kinetic == mo.kinetic && lm.motion->potential == mo.potential);
    }
    // the same size as a model file (its format field says so) is refused, naming the limit
    {
      std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
      std::string head(200, '\0');
      f.read(head.data(), 200);
      const std::size_t at = head.find("articulate-recording");
      QVERIFY(at != std::string::npos);
      f.seekp(static_cast<std::streamoff>(at));
      f.write("articulate-model    ", 20);  // same length: the rest of the file stays
    }
    try {
      loadModel(path);
      QFAIL("a 270 MiB model file was read");
    } catch (const FormatError& e) {
      QVERIFY2(std::string(e.what()).find("is larger than 256 MiB") != std::string::npos, e.what());
    }
  }

  // --- the threaded simulator ---
  void threadedRunEqualsADirectSimulation() {
    auto model = std::make_shared<const Model>(compile(doublePendulum()));
    Simulator sim;
    const long g = sim.load(model, {});
    sim.setUnpaced(true);
    sim.setStopTime(0.5);
    sim.play();
    const Recording rec = drain(sim, g, model->nb, 20.0);
    QCOMPARE(rec.size(), std::size_t(501));  // t = 0 and 500 steps
    QCOMPARE(rec.startTime(), 0.0);
    Simulation direct(*model, {});
    for (std::size_t k = 1; k <= 500; ++k) {
      QVERIFY(direct.step());
      if (k % 50 && k != 1) continue;
      QCOMPARE(direct.time(), rec.time(k));
      QVERIFY2((direct.q() - rec.q(k)).norm() == 0.0, "the thread must take the very same steps");
      const EnergyMomentum e = direct.energy();
      QCOMPARE(rec.kinetic(k), e.kinetic);
    }
    QVERIFY(std::abs(rec.endTime() - 0.5) < 1e-12);
    QCOMPARE(sim.status().steps, 500L);
  }

  // the simulator's samples carry the energy the joints dissipated (models/limited_arm.json:
  // damping and friction at the shoulder, stops at the elbow), the very numbers of a Simulation
  // run directly: the total energy falls by a lot while the total plus the energy dissipated
  // stays at its start; a state set with the energy dissipated before it ("resume from here")
  // goes on counting from there
  void simulatorRecordsTheEnergyDissipated() {
    const ModelSpec spec = loadModel(ARTICULATE_MODELS_DIR "/limited_arm.json").spec;
    const SimulationOptions options = simulationOptions(spec);
    auto model = std::make_shared<const Model>(compile(spec));
    QVERIFY(model->stops);
    const double duration = 5.0;
    const auto steps = static_cast<std::size_t>(std::lround(duration / options.dt));
    // the integrator's own energy error: the same arm without damping, friction and stops
    ModelSpec passive = spec;
    for (BodySpec& b : passive.bodies) {
      b.damping = b.friction = 0.0;
      b.limits = JointLimits{};
    }
    const Model freeModel = compile(passive);
    Simulation free(freeModel, options);
    const auto total = [](Simulation& s) { return s.energy().kinetic + s.energy().potential; };
    const double freeE0 = total(free);
    double own = 0.0;
    while (free.time() < duration - 1e-9) {
      QVERIFY(free.step());
      own = std::max(own, std::abs(total(free) - freeE0));
    }
    Simulator sim;
    const long g = sim.load(model, options);
    sim.setUnpaced(true);
    sim.setStopTime(duration);
    sim.play();
    const Recording rec = collect(sim, g, steps + 1);
    QCOMPARE(rec.size(), steps + 1);
    const std::size_t last = rec.size() - 1;
    const auto energy = [&](const Recording& r, std::size_t k) { return r.kinetic(k) + r.potential(k); };
    Simulation direct(*model, options);
    QCOMPARE(rec.dissipated(0), 0.0);
    for (std::size_t k = 1; k <= last; ++k) {
      QVERIFY(direct.step());
      if (k % 97) continue;
      QCOMPARE(rec.time(k), direct.time());
      QCOMPARE(rec.dissipated(k), direct.energyDissipated());
      QCOMPARE(energy(rec, k), total(direct));
    }
    const double e0 = energy(rec, 0);
    double worst = 0.0;
    for (std::size_t k = 0; k <= last; ++k)
      worst = std::max(worst, std::abs(energy(rec, k) + rec.dissipated(k) - e0));
    qInfo("E0 %.6f J, E(%g s) %.6f J, dissipated %.6f J; worst |E + dissipated - E0| %.2e J "
          "(the arm's integrator error without damping, friction and stops %.2e J)",
          e0, duration, energy(rec, last), rec.dissipated(last), worst, own);
    // the balance holds within the integrator's own energy error (the same arm without
    // damping, friction and stops drifts 2e-7 J; the balance stays within about 2e-9 J)
    const double tolerance = 2 * own;
    QVERIFY2(worst < tolerance, qPrintable(QString::number(worst)));
    QVERIFY(e0 - energy(rec, last) > 0.5 * e0);  // the total fell by a lot
    // resume from the middle with what was dissipated before it: the count goes on
    const std::size_t k = last / 2;
    const long g2 = sim.setState(rec.time(k), rec.q(k), rec.qd(k), {}, rec.dissipated(k));
    sim.play();
    const Recording resumed = collect(sim, g2, last - k + 1);
    QCOMPARE(resumed.size(), last - k + 1);
    QCOMPARE(resumed.dissipated(0), rec.dissipated(k));
    double worstResumed = 0.0;
    for (std::size_t j = 0; j < resumed.size(); ++j)
      worstResumed = std::max(worstResumed, std::abs(energy(resumed, j) + resumed.dissipated(j) - e0));
    QVERIFY2(worstResumed < tolerance, qPrintable(QString::number(worstResumed)));
    QVERIFY(resumed.dissipated(resumed.size() - 1) > rec.dissipated(k) + 1.0);
  }

  // the recording's log of perturbations: the change at or before t acts at t; later changes
  // go with truncateAfter; time runs forward; a change at the last change's time replaces it
  void recordingLogsPerturbations() {
    Recording r(1, 1, 0, 2);
    QCOMPARE(r.auxiliarySize(), 2);
    QCOMPARE(Recording::bytesPerSample(1, 1, 0, 2), sizeof(double) * 9);
    const double w0[2] = {1e-4, -2e-4}, q0 = 0.1, v0 = 0.2;
    r.append(0.0, &q0, &v0, 0, 0, nullptr, w0);
    r.append(1.0, &q0, &v0, 0, 0);  // no auxiliary state: zeros
    QCOMPARE(r.auxiliary(0)(1), -2e-4);
    QCOMPARE(r.auxiliary(1)(0), 0.0);
    Perturbation p;
    p.body = 0;
    p.target = Vec3(1, 2, 3);
    p.stiffness = 100;
    p.damping = 20;
    QVERIFY(!r.perturbationAt(0.5));
    r.setPerturbation(0.25, p);
    p.target.x() = 5;
    r.setPerturbation(0.5, p);
    r.setPerturbation(0.75, std::nullopt);
    QVERIFY(!r.perturbationAt(0.2));
    QCOMPARE(r.perturbationAt(0.25)->target.x(), 1.0);
    QCOMPARE(r.perturbationAt(0.6)->target.x(), 5.0);
    QVERIFY(!r.perturbationAt(0.75));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, r.setPerturbation(0.7, std::nullopt));
    p.stiffness = -1;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, r.setPerturbation(0.9, p));
    r.setPerturbation(0.75, r.perturbationAt(0.5));  // the same time: replaces
    QCOMPARE(r.perturbations().size(), std::size_t(3));
    QCOMPARE(r.perturbationAt(0.9)->target.x(), 5.0);
    r.truncateAfter(0.6);
    QCOMPARE(r.perturbations().size(), std::size_t(2));
    QCOMPARE(r.perturbationAt(0.9)->target.x(), 5.0);
    r.clear();
    QVERIFY(r.perturbations().empty());
  }

  // the thread publishes each perturbation change with the simulation time it took effect at,
  // and every sample's auxiliary state (the ground's deformation under the feet): both equal a
  // direct run of the same system with the same changes at the same steps
  void perturbationsAndGroundDeformationArePublished() {
    const LoadedModel loaded = loadModel(ARTICULATE_MODELS_DIR "/quadruped.json");
    auto model = std::make_shared<const Model>(compile(loaded.spec));
    const SimulationOptions options = simulationOptions(loaded.spec);
    Perturbation p;
    p.body = 0;
    p.point = Vec3(0.1, 0, 0);
    p.target = Vec3(0.5, 0.2, 0.6);
    p.stiffness = 500;
    p.damping = 30;
    Simulator sim;
    const long g = sim.load(std::make_unique<TreeSystem>(model, options));
    for (int k = 0; k < 30; ++k) sim.stepOnce();
    sim.setPerturbation(p);
    for (int k = 0; k < 20; ++k) sim.stepOnce();
    sim.setPerturbation(std::nullopt);
    for (int k = 0; k < 10; ++k) sim.stepOnce();
    TreeSystem direct(model, options);
    const int nw = direct.auxiliarySize();
    QCOMPARE(nw, 12);  // four feet: two tangential directions and a dent each
    const Recording rec = collect(sim, g, 61);
    QCOMPARE(rec.auxiliarySize(), nw);
    QCOMPARE(rec.size(), std::size_t(61));
    QCOMPARE(rec.perturbations().size(), std::size_t(2));
    QCOMPARE(rec.perturbations()[0].time, rec.time(30));
    QVERIFY(rec.perturbations()[0].perturbation.has_value());
    QCOMPARE(rec.perturbations()[1].time, rec.time(50));
    QVERIFY(!rec.perturbations()[1].perturbation.has_value());
    Eigen::VectorXd w(nw);
    for (std::size_t k = 0; k <= 60; ++k) {
      // the change logged at sample 30's time acts on the steps after it
      if (k == 31) direct.setPerturbation(p);
      if (k == 51) direct.setPerturbation(std::nullopt);
      if (k) QVERIFY(direct.step());
      direct.auxiliaryState(w);
      QCOMPARE(direct.time(), rec.time(k));
      QVERIFY2((w - rec.auxiliary(k)).norm() == 0.0, "the recorded deformation is the system's");
      QVERIFY((direct.positions() - rec.q(k)).norm() == 0.0);
    }
    QVERIFY(w.norm() > 0);  // the feet are on the ground and deform it
  }

  // going on from a recorded sample with its ground deformation (resume from here) takes the
  // very steps of the uninterrupted run; without it the friction springs start relaxed
  void resumingWithTheGroundDeformationContinuesExactly() {
    const LoadedModel loaded = loadModel(ARTICULATE_MODELS_DIR "/quadruped.json");
    auto model = std::make_shared<const Model>(compile(loaded.spec));
    const SimulationOptions options = simulationOptions(loaded.spec);
    TreeSystem run(model, options);
    const int nw = run.auxiliarySize();
    Recording rec(run.positionSize(), run.velocitySize(), 0, nw);
    Eigen::VectorXd w(nw);
    for (int k = 0; k <= 200; ++k) {
      if (k) QVERIFY(run.step());
      run.auxiliaryState(w);
      rec.append(run.time(), run.positions().data(), run.velocities().data(), 0, 0, nullptr, w.data());
    }
    QVERIFY(rec.auxiliary(100).norm() > 1e-7);  // standing: the ground is deformed sideways
    Simulator sim;
    sim.load(std::make_unique<TreeSystem>(model, options));
    const auto resume = [&](bool withW) {
      const long g = sim.setState(rec.time(100), rec.q(100), rec.qd(100),
                                  withW ? Eigen::VectorXd(rec.auxiliary(100)) : Eigen::VectorXd());
      for (int k = 0; k < 100; ++k) sim.stepOnce();
      return collect(sim, g, 101);
    };
    const Recording exact = resume(true);
    QCOMPARE(exact.size(), std::size_t(101));
    for (std::size_t k = 0; k <= 100; ++k) {
      QCOMPARE(exact.time(k), rec.time(100 + k));
      QVERIFY2((exact.q(k) - rec.q(100 + k)).norm() == 0.0, "the same steps");
      QVERIFY((exact.auxiliary(k) - rec.auxiliary(100 + k)).norm() == 0.0);
    }
    const Recording relaxed = resume(false);
    QVERIFY((relaxed.auxiliary(0).head(8)).norm() == 0.0);  // the deformations; the dents come from q
    QVERIFY((relaxed.q(100) - rec.q(200)).norm() > 0.0);
    // a wrong size is refused, changing nothing
    sim.setState(0.0, rec.q(0), rec.qd(0), Eigen::VectorXd::Zero(3));
    QVERIFY(settleThread(sim));
    QVERIFY(sim.status().error.find("auxiliary") != std::string::npos);
  }

  // the soft model's forces by channel and the equality switches are published with the
  // samples: an arm on a hinge held level by a connect at its tip (0.5 m out; its centre of mass
  // 0.25 m out, 2 kg), let go after 0.6 s, falls onto its upper limit
  void softForcesAndEqualitySwitchesArePublished() {
    const char* text =
        "<mujoco><compiler inertiafromgeom='false' angle='radian'/><option integrator='Euler' timestep='0.002'/><worldbody>"
        "<body name='arm'><joint name='hinge' axis='0 1 0' limited='true' range='-1 1'/>"
        "<inertial pos='0.25 0 0' mass='2' diaginertia='0.01 0.05 0.05'/></body></worldbody>"
        "<equality><connect name='hold' body1='arm' body2='world' anchor='0.5 0 0'/></equality></mujoco>";
    const ModelSpec spec = specFromMjcf(text, "held.xml");
    auto model = std::make_shared<const Model>(compile(spec));
    const SimulationOptions options = simulationOptions(spec);
    TreeSystem direct(model, options);
    // a fixed layout: every row the model can have, present or not
    QCOMPARE(direct.softForceSize(), 5);
    const std::vector<std::string> names = {"equality hold.x", "equality hold.y", "equality hold.z", "limit arm.lower",
                                            "limit arm.upper"};
    for (int i = 0; i < 5; ++i) QCOMPARE(direct.softForceName(i), names[static_cast<std::size_t>(i)]);
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, direct.softForceName(5));
    QCOMPARE(direct.equalitySize(), 1);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, direct.setEqualityActive({1, 0}));

    Simulator sim;
    const long g = sim.load(std::make_unique<TreeSystem>(model, options));
    for (int k = 0; k < 300; ++k) sim.stepOnce();
    sim.setEqualities({0});
    for (int k = 0; k < 200; ++k) sim.stepOnce();
    sim.setEqualities({1, 1});  // a wrong size: refused, nothing changes
    Recording rec = collect(sim, g, 501);
    QVERIFY(settleThread(sim));
    QVERIFY(sim.status().error.find("equality switches") != std::string::npos);
    QCOMPARE(rec.size(), std::size_t(501));
    QCOMPARE(rec.softForceSize(), 5);
    QCOMPARE(rec.equalities().size(), std::size_t(1));
    QCOMPARE(rec.equalities()[0].time, rec.time(300));
    QCOMPARE(rec.equalities()[0].active, std::vector<char>{0});
    QVERIFY(rec.equalitiesAt(rec.time(299)).empty());  // before the first switch: the model's own
    QCOMPARE(rec.equalitiesAt(rec.time(400)), std::vector<char>{0});

    // the same steps as the system stepped directly, switched after the same sample (a recorded
    // sample's forces are evaluated at its state, as the thread does)
    Eigen::VectorXd f(5);
    for (std::size_t k = 0; k <= 500; ++k) {
      if (k == 301) direct.setEqualityActive({0});
      if (k) QVERIFY(direct.step());
      direct.currentSoftForces(f);
      QVERIFY2((direct.positions() - rec.q(k)).norm() == 0.0, "the same steps");
      QVERIFY2((f - rec.softForces(k)).norm() == 0.0, "the recorded forces are the system's");
    }
    // held: at rest after 0.6 s (30 time constants) the connect's force at the tip balances
    // gravity's torque about the hinge exactly: with the arm sagged by th, the tip at 0.5 (cos th,
    // 0, -sin th) and the centre of mass at 0.25 (cos th, 0, -sin th), 0.5 (cos th fz + sin th fx)
    // = 0.25 cos th m g; fz is about m g lc / L = 9.81 N
    const Eigen::VectorXd held = rec.softForces(300);
    const double th = rec.q(300)(0), m = 2, gravity = 9.81;
    qInfo("held at %.3g rad: hold.x %.6g N, hold.z %.12g N (m g lc / L = %.12g N)", th, held(0), held(2), m * gravity * 0.25 / 0.5);
    const double balance = 0.5 * (std::cos(th) * held(2) + std::sin(th) * held(0)) - 0.25 * std::cos(th) * m * gravity;
    qInfo("torque balance %.3g N m, qd %.3g rad/s", balance, rec.qd(300)(0));
    // to the solver's tolerance (MuJoCo's default, 1e-8, relative)
    QVERIFY(std::abs(balance) <= 1e-8 * 0.25 * m * gravity);
    QVERIFY(std::abs(held(2) - m * gravity * 0.25 / 0.5) <= 1e-6 && std::abs(held(0)) <= 1e-3 && held(1) == 0.0);
    QVERIFY(held.tail(2).norm() == 0.0);  // within its limits: no limit rows
    // let go: no connect rows, the arm falls onto its upper limit, whose row pushes back
    QVERIFY(rec.softForces(301).head(3).norm() == 0.0 && rec.softForces(500).head(3).norm() == 0.0);
    QVERIFY2(rec.q(500)(0) > 0.95, qPrintable(QString::number(rec.q(500)(0))));
    QVERIFY(rec.softForces(500)(4) > 0.0 && rec.softForces(500)(3) == 0.0);

    // going back before the switch forgets it
    rec.truncateAfter(rec.time(299));
    QVERIFY(rec.equalities().empty());
    QCOMPARE(rec.size(), std::size_t(300));
    QCOMPARE(Recording::bytesPerSample(1, 1, 0, 0, 5), sizeof(double) * 12);
  }

  void pacedRunNeverGetsAheadOfTheWallClock() {
    auto model = std::make_shared<const Model>(compile(doublePendulum()));
    Simulator sim;
    sim.load(model, {});
    sim.setSpeed(0.5);
    const auto start = std::chrono::steady_clock::now();
    sim.play();
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    const SimulatorStatus st = sim.status();
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    QVERIFY(st.running);
    QVERIFY2(st.time <= 0.5 * wall + 2e-3, qPrintable(QString("t = %1 after %2 s").arg(st.time).arg(wall)));
    QVERIFY(st.time > 0.0);
    sim.pause();
    QVERIFY(settleThread(sim));
    const double paused = sim.status().time;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    QCOMPARE(sim.status().time, paused);
    QVERIFY(!sim.status().running);
  }

  void setStateStartsANewGeneration() {
    auto model = std::make_shared<const Model>(compile(doublePendulum()));
    Simulator sim;
    const long g1 = sim.load(model, {});
    const Eigen::VectorXd q = Eigen::Vector2d(0.3, -0.2), qd = Eigen::Vector2d(0.0, 1.0);
    const long g2 = sim.setState(7.0, q, qd);
    QVERIFY(g2 > g1);
    sim.setUnpaced(true);
    sim.setStopTime(7.1);
    sim.play();
    const Recording rec = drain(sim, g2, model->nb, 20.0);
    QVERIFY(rec.size() > 90);
    QCOMPARE(rec.startTime(), 7.0);
    QVERIFY(rec.q(0) == q && rec.qd(0) == qd);
    // a wrong size is refused with a message and changes nothing
    sim.setState(0.0, Eigen::VectorXd::Zero(5), Eigen::VectorXd::Zero(5));
    QVERIFY(settleThread(sim));
    QVERIFY(sim.status().error.find("expected 2") != std::string::npos);
    QVERIFY(std::abs(sim.status().time - 7.1) < 1e-9);
  }

  void divergencePausesAndKeepsTheHistory() {
    // a joint force that grows without bound: the energy explodes past the limit
    ModelSpec s = rotor(0.5);
    s.bodies[0].control.type = ControlSpec::Type::Table;
    s.bodies[0].control.times = {0.0, 1.0};
    s.bodies[0].control.torques = {0.0, 1e3};
    auto model = std::make_shared<const Model>(compile(s));
    Simulator sim;
    const long g = sim.load(model, {});
    sim.setUnpaced(true);
    sim.play();
    const Recording rec = drain(sim, g, 1, 20.0);
    const SimulatorStatus st = sim.status();
    QVERIFY(!st.running);
    QVERIFY(st.divergence);
    QCOMPARE(st.divergence->quantity, std::string("total energy"));
    QVERIFY(st.divergence->message.find("diverged at t = ") != std::string::npos);
    QVERIFY(rec.size() > 500);  // it ran for a while: KE passes 1e6 J near t = 1 s
    for (std::size_t k = 0; k < rec.size(); ++k) QVERIFY(rec.q(k).allFinite());
    QVERIFY(std::abs(rec.endTime() - st.time) < 1e-12);
    sim.play();  // refuses to run on from a diverged state
    QVERIFY(settleThread(sim));
    QVERIFY(!sim.status().running);
    QCOMPARE(sim.status().time, st.time);
    QCOMPARE(sim.status().steps, st.steps);
  }

  void anExceptionInAStepPausesWithItsMessage() {
    // before: Simulator::run had no try/catch, so this ended the process (std::terminate)
    auto model = std::make_shared<const Model>(compile(doublePendulum()));
    Simulator sim;
    const long g = sim.load(std::make_unique<ThrowingSystem>(model, 100));
    sim.setUnpaced(true);
    sim.play();
    const Recording rec = drain(sim, g, model->nb, 30.0);
    QVERIFY(settleThread(sim));
    const SimulatorStatus st = sim.status();
    QVERIFY(!st.running);
    QVERIFY2(st.error == "The simulation stopped: a solver failed", st.error.c_str());
    QCOMPARE(rec.size(), std::size_t(101));  // t = 0 and the 100 steps before the failure
    // the thread still serves commands: a new model runs
    const long g2 = sim.load(model, {});
    sim.setStopTime(0.1);
    sim.play();
    const Recording again = drain(sim, g2, model->nb, 30.0);
    QCOMPARE(again.size(), std::size_t(101));
    QVERIFY(sim.status().error.empty());
  }

  void loadingModelsOfOtherSizesWhileCollectingFast() {
    // Stress for the snapshot channel: models with different position and constraint counts
    // loaded one after another while a consumer takes batches as fast as it can. Every batch
    // must carry its own generation's sizes, and each new generation must reach the consumer.
    // Before the fix publish() read the batch header back from the consumer's buffer after
    // releasing the lock: batches came labelled with an old generation (the live recording
    // froze) or with an old constraint count (record() threw and the process ended); under
    // ThreadSanitizer the read is reported as a data race.
    struct Kind {
      std::shared_ptr<const Model> model;
      int nc;
    };
    const std::string dir = ARTICULATE_MODELS_DIR;
    std::vector<Kind> kinds;
    for (const char* file : {"fourbar.json", "double_pendulum.json", "slider_crank.json", "arm6.json"}) {
      auto model = std::make_shared<const Model>(compile(loadModel(dir + "/" + file).spec));
      kinds.push_back({model, TreeSystem(model, {}).constraintSize()});
    }
    QVERIFY(kinds[0].nc > 0 && kinds[1].nc == 0);  // both sides of the constraint count
    Simulator sim;
    sim.setUnpaced(true);
    std::atomic<bool> stop{false};
    std::atomic<long> bad{0}, batches{0}, newest{0};
    std::map<long, std::array<int, 3>> sizes;  // generation -> nq, nv, nc (written before load)
    std::mutex sizesMutex;
    std::thread consumer([&] {
      SnapshotBatch batch;
      while (!stop) {
        if (!sim.takeSnapshots(batch)) continue;
        ++batches;
        std::lock_guard<std::mutex> lock(sizesMutex);
        const auto it = sizes.find(batch.generation);
        if (it == sizes.end() || it->second != std::array<int, 3>{batch.nq, batch.nv, batch.nc}) ++bad;
        if (batch.generation > newest) newest = batch.generation;
      }
    });
    for (int round = 0; round < 120; ++round) {
      const Kind& k = kinds[static_cast<std::size_t>(round) % kinds.size()];
      {
        std::lock_guard<std::mutex> lock(sizesMutex);
        sizes[sim.generation() + 1] = {k.model->nq(), k.model->nv(), k.nc};
      }
      const long g = sim.load(k.model, {});
      sim.play();
      // the new generation reaches the consumer (a frozen channel never does)
      const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(30);
      while (newest < g && std::chrono::steady_clock::now() < end)
        std::this_thread::sleep_for(std::chrono::microseconds(200));
      QVERIFY2(newest >= g, qPrintable(QString("generation %1 never arrived (round %2)").arg(g).arg(round)));
      QVERIFY2(sim.status().error.empty(), sim.status().error.c_str());
    }
    stop = true;
    consumer.join();
    QCOMPARE(bad.load(), 0L);
    QVERIFY(batches > 120);
  }
};

ARTICULATE_TEST_MAIN(TestSimulator)
#include "test_simulator.moc"
