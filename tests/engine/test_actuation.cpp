// Actuators, tendons and springs against closed forms and conservation laws (MuJoCo's numbers
// are test_actuation_mujoco's): a filter's activation 1 - exp(-t/tau), a position servo's static
// equilibrium, a spring pendulum's energy, the energy account of a driven arm with dampers; the
// Articulate format's round trip of every actuator and tendon element; and bad MJCF input named
// by file, line and element.
#include <QtTest>

#include "test_main.h"

#include <cmath>
#include <limits>

#include "articulate/dynamics/actuation.h"
#include "articulate/dynamics/collision.h"
#include "articulate/dynamics/servos.h"
#include "articulate/formats/articulate.h"
#include "articulate/formats/controls.h"
#include "articulate/formats/json.h"
#include "articulate/formats/mjcf.h"
#include "articulate/formats/urdf.h"
#include "articulate/formulations/tree_simulation.h"
#include "articulate/model/model.h"
#include "articulate/simulation/system.h"
#include "arm7.h"

using namespace art;

namespace {

// a pendulum of mass m at length l on hinge 'hinge' about y, with the given actuator and
// joint elements (MJCF, radians)
std::string pendulum(const std::string& joint, const std::string& actuator, const std::string& extra = "") {
  return "<mujoco><compiler angle='radian' autolimits='true' inertiafromgeom='false'/><option gravity='0 0 -9.81'/>"
         "<worldbody><site name='top' pos='0 0 0.1'/><body name='bob'><joint name='hinge' axis='0 1 0' " + joint +
         "/><inertial pos='0 0 -0.5' mass='2' diaginertia='0.01 0.01 0.01'/><site name='s' pos='0.1 0 -0.5'/></body>"
         "</worldbody>" + extra + "<actuator>" + actuator + "</actuator></mujoco>";
}

std::string failure(const std::string& xml) {
  try {
    specFromMjcf(xml, "bad.xml");
  } catch (const FormatError& e) {
    return e.what();
  }
  return "";
}

// a driven, damped arm (servos, a muscle, a damped tendon) under controls that change every
// 0.1 s for 5 s: the largest |E + dissipated - actuator work - E(0)| over the run, at steps
// of 1 ms and 0.5 ms (gaps), and the work and dissipation at the end of the second
void drivenArmAccount(Integrator integrator, double gaps[2], double& work, double& dissipated) {
  const std::string xml =
      "<mujoco><compiler angle='radian' autolimits='true' inertiafromgeom='false'/><worldbody>"
      "<site name='a' pos='0 0.1 0'/><body name='l1'><joint name='j1' axis='0 1 0' damping='0.2'/>"
      "<inertial pos='0 0 -0.3' mass='1' diaginertia='0.01 0.01 0.01'/><site name='b' pos='0.05 0 -0.3'/>"
      "<body name='l2' pos='0 0 -0.6'><joint name='j2' axis='0 1 0' stiffness='2'/>"
      "<inertial pos='0 0 -0.2' mass='0.5' diaginertia='0.005 0.005 0.005'/><site name='c' pos='0 0 -0.3'/></body></body>"
      "</worldbody><tendon><spatial name='t' damping='0.4' stiffness='5'><site site='a'/><site site='b'/><site site='c'/></spatial></tendon>"
      "<actuator><position name='p1' joint='j1' kp='20'/><velocity name='v2' joint='j2' kv='1'/>"
      "<muscle name='m' tendon='t' lengthrange='0.3 1.2'/><motor name='free' joint='j2' gear='2'/></actuator></mujoco>";
  const Model model = compile(specFromMjcf(xml, "arm.xml"));
  for (int run = 0; run < 2; ++run) {
    SimulationOptions o;
    o.integrator = integrator;
    o.dt = run ? 5e-4 : 1e-3;
    Simulation sim(model, o);
    const EnergyMomentum e0 = sim.energy();
    gaps[run] = 0;
    for (int k = 1; k <= 50; ++k) {
      Eigen::VectorXd ctrl(4);
      ctrl << std::sin(0.3 * k), 0.5 * std::cos(0.2 * k), 0.5 + 0.5 * std::sin(0.5 * k), 0.3 * std::cos(0.7 * k);
      sim.setControls(ctrl);
      QVERIFY(sim.advanceTo(0.1 * k));
      const EnergyMomentum e = sim.energy();
      gaps[run] = std::max(gaps[run], std::abs(e.kinetic + e.potential + sim.energyDissipated() - sim.actuatorWork() -
                                               e0.kinetic - e0.potential));
    }
    work = sim.actuatorWork();
    dissipated = sim.energyDissipated();
  }
}

}  // namespace

class TestActuation : public QObject {
  Q_OBJECT

 private slots:
  // a filter actuator (cylinder) driven by ctrl = 1 from rest: act(t) = 1 - exp(-t / tau)
  void filterActivationFollowsExponential() {
    const ModelSpec spec = specFromMjcf(pendulum("", "<cylinder name='c' joint='hinge' timeconst='0.2' area='1'/>"), "f.xml");
    const Model model = compile(spec);
    QCOMPARE(model.na, 1);
    SimulationOptions o;
    o.dt = 1e-3;
    Simulation sim(model, o);
    sim.setControls(Eigen::VectorXd::Ones(1));
    double worst = 0;
    for (int k = 1; k <= 10; ++k) {
      QVERIFY(sim.advanceTo(0.1 * k));
      const double act = sim.auxiliaryState()(0);
      worst = std::max(worst, std::abs(act - (1 - std::exp(-0.1 * k / 0.2))));
    }
    qInfo() << "filter activation: largest gap to 1 - exp(-t/tau) over 1 s:" << worst;
    QVERIFY2(worst < 1e-10, qPrintable(QString::number(worst)));
  }

  // a position servo of gain kp holding a pendulum against gravity settles where
  // kp (target - q) = m g l sin q
  void positionServoSettlesAtEquilibrium() {
    const double kp = 40, target = 0.8, mgl = 2 * 9.81 * 0.5;
    const ModelSpec spec =
        specFromMjcf(pendulum("damping='3'", "<position name='p' joint='hinge' kp='40'/>"), "p.xml");
    const Model model = compile(spec);
    SimulationOptions o;
    o.dt = 1e-3;
    Simulation sim(model, o);
    sim.setControls(Eigen::VectorXd::Constant(1, target));
    QVERIFY(sim.advanceTo(30));
    double q = target;  // Newton on kp (target - q) - mgl sin q = 0
    for (int k = 0; k < 50; ++k) q -= (kp * (target - q) - mgl * std::sin(q)) / (-kp - mgl * std::cos(q));
    qInfo() << "servo: settled at" << sim.q()(0) << "rad, equilibrium" << q;
    QVERIFY(std::abs(q - target) > 0.05);  // gravity pulls it visibly off its target
    QVERIFY2(std::abs(sim.q()(0) - q) < 1e-8, qPrintable(QString::number(sim.q()(0) - q)));
  }

  // joint and tendon springs are conservative: a spring pendulum's total energy (with the
  // springs' potential) stays put over 10 s of RK4
  void springPendulumConservesEnergy() {
    const std::string tendon =
        "<tendon><spatial name='cord' stiffness='30' springlength='0.3'><site site='top'/><site site='s'/></spatial></tendon>";
    const ModelSpec spec = specFromMjcf(pendulum("stiffness='5' springref='0.4'", "", tendon), "s.xml");
    const Model model = compile(spec);
    QVERIFY(model.springs);
    SimulationOptions o;
    o.dt = 1e-3;
    Simulation sim(model, o);
    sim.setState(0, Eigen::VectorXd::Constant(1, -1.0), Eigen::VectorXd::Zero(1));
    const EnergyMomentum e0 = sim.energy();
    double worst = 0, swing = 0;
    for (int k = 1; k <= 100; ++k) {
      QVERIFY(sim.advanceTo(0.1 * k));
      const EnergyMomentum e = sim.energy();
      worst = std::max(worst, std::abs(e.kinetic + e.potential - e0.kinetic - e0.potential));
      swing = std::max(swing, e.kinetic);
    }
    qInfo() << "spring pendulum: energy" << e0.kinetic + e0.potential << "J, drift" << worst << "J over 10 s, largest kinetic" << swing;
    QVERIFY(swing > 1);
    QVERIFY2(worst < 1e-7 * swing, qPrintable(QString::number(worst)));
  }

  // the springs' potential is part of the energy: without it the same motion's energy swings
  void springEnergyIsCounted() {
    const ModelSpec spec = specFromMjcf(pendulum("stiffness='5' springref='0.4'", ""), "s.xml");
    const Model model = compile(spec);
    Data data(model);
    const Eigen::VectorXd q = Eigen::VectorXd::Constant(1, -1.0);
    QCOMPARE(springEnergy(model, data, q), 0.5 * 5 * 1.4 * 1.4);
  }

  // a driven, damped arm (servos, a muscle, a damped tendon): E + dissipated - actuator work
  // stays E(0) within the integrator's error, which falls as RK4's h^4 (16 times per halving),
  // with the work and the dissipation far larger
  void energyAccountOfDrivenArm() {
    double gaps[2] = {0, 0}, work = 0, dissipated = 0;
    drivenArmAccount(Integrator::RK4, gaps, work, dissipated);
    if (QTest::currentTestFailed()) return;  // a step failed inside: the figures are partial
    qInfo() << "driven arm: work" << work << "J, dissipated" << dissipated << "J, account off by" << gaps[0]
            << "J (1 ms steps)," << gaps[1] << "J (0.5 ms)";
    QVERIFY(std::abs(work) > 1 && dissipated > 1);
    QVERIFY2(gaps[0] / gaps[1] > 10, qPrintable(QString::number(gaps[0] / gaps[1])));
    QVERIFY2(gaps[1] < 1e-7 * std::abs(work), qPrintable(QString::number(gaps[1])));
  }

  // the same under MuJoCo's semi-implicit Euler, the default of MJCF files: first order (half
  // the gap when the step halves), the actuators' work counted with each step's mean velocity.
  // Counted with the step's end velocity it was off by h/2 f . dqd a step, which the servo's
  // spring adds up: 0.087 J of 12.3 J of work at 0.5 ms (0.007 J of 12.16 J now)
  void energyAccountOfDrivenArmUnderEuler() {
    double gaps[2] = {0, 0}, work = 0, dissipated = 0;
    drivenArmAccount(Integrator::MujocoEuler, gaps, work, dissipated);
    if (QTest::currentTestFailed()) return;  // a step failed inside: the figures are partial
    qInfo() << "driven arm, mujoco-euler: work" << work << "J, dissipated" << dissipated << "J, account off by"
            << gaps[0] << "J (1 ms steps)," << gaps[1] << "J (0.5 ms)";
    QVERIFY(std::abs(work) > 1 && dissipated > 1);
    QVERIFY2(gaps[0] / gaps[1] > 1.8, qPrintable(QString::number(gaps[0] / gaps[1])));
    QVERIFY2(gaps[1] < 1e-3 * std::abs(work), qPrintable(QString::number(gaps[1])));
  }

  // every actuator and tendon element survives the Articulate format: MJCF -> spec -> JSON ->
  // spec is the same spec, and saving it again gives the same text
  void roundTripsThroughArticulateFormat() {
    QFile arm(ARTICULATE_TEST_DATA_DIR "/mjcf/actuated_arm.xml");
    QVERIFY(arm.open(QIODevice::ReadOnly));
    const ModelSpec spec = specFromMjcf(arm.readAll().toStdString(), ARTICULATE_TEST_DATA_DIR "/mjcf/actuated_arm.xml");
    QVERIFY(spec.actuators.size() >= 15);
    QVERIFY(spec.tendons.size() >= 4);
    const auto text = specToJson(spec);
    ModelSpec back;
    Diagnostics problems;
    specFromJson(nlohmann::json::parse(text.dump()), back, problems);
    QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().message.c_str());
    QCOMPARE(back.actuators.size(), spec.actuators.size());
    for (std::size_t k = 0; k < spec.actuators.size(); ++k) QVERIFY2(back.actuators[k] == spec.actuators[k], spec.actuators[k].name.c_str());
    for (std::size_t k = 0; k < spec.tendons.size(); ++k) QVERIFY2(back.tendons[k] == spec.tendons[k], spec.tendons[k].name.c_str());
    QVERIFY(back.sites == spec.sites);
    for (std::size_t k = 0; k < spec.bodies.size(); ++k) {
      QCOMPARE(back.bodies[k].stiffness, spec.bodies[k].stiffness);
      QCOMPARE(back.bodies[k].springRef, spec.bodies[k].springRef);
    }
    QCOMPARE(specToJson(back).dump(), text.dump());
  }

  // Add Servos on a 7-joint arm under gravity, without a drive of its own: it falls; with the
  // servos (5 Hz, critically damped, gravity carried) it holds its pose within 0.01 rad for 5 s
  void servosHoldAnArm() {
    const ModelSpec spec = test::sevenJointArm();
    const auto worstDrift = [](const ModelSpec& s) {
      const Model m = compile(s);
      SimulationOptions o;
      o.dt = 1e-3;
      Simulation sim(m, o);
      double worst = 0;
      for (int k = 1; k <= 50 && sim.advanceTo(0.1 * k); ++k) worst = std::max(worst, (sim.q() - m.q0).cwiseAbs().maxCoeff());
      return worst;
    };
    QVERIFY(worstDrift(spec) > 0.5);  // undriven, it falls
    ModelSpec held = spec;
    QCOMPARE(addServos(held, compile(spec).q0), 7);
    QCOMPARE(addServos(held, compile(spec).q0), 0);  // every joint has its drive now
    const ActuatorSpec& shoulder = held.actuators[1];
    QCOMPARE(shoulder.ctrl0, 0.8);
    QVERIFY(shoulder.forceRange && (*shoulder.forceRange)[1] == 300);
    const double drift = worstDrift(held);
    qInfo() << "7-joint arm with servos: largest drift from the pose over 5 s" << drift << "rad";
    QVERIFY2(drift < 0.01, qPrintable(QString::number(drift)));
    // without the gravity it carries, the servos alone sag: what the constant is for
    ModelSpec sagging = held;
    for (ActuatorSpec& a : sagging.actuators) a.biasPrm[0] = 0;
    QVERIFY(worstDrift(sagging) > drift);
  }

  // the shipped slider-crank engine: its drawn connecting rod is crankLength long from the
  // crank pin to a piston on the slider's axis, whose distance from the slider site is the
  // actuator's length; the piston servo turns the crank to the angle of its stroke
  void sliderCrankRodAndStroke() {
    const ModelSpec spec = loadMjcf(ARTICULATE_MODELS_DIR "/robots/mjcf_slider_crank/slider_crank.xml");
    auto model = std::make_shared<const Model>(compile(spec));
    QCOMPARE(model->nu(), 2);
    TreeSystem system(model, SimulationOptions{});
    Data d(*model);
    std::vector<SegmentReport> seg;
    for (double angle : {0.0, 0.7, 2.0, -2.5}) {
      const Eigen::VectorXd q = Eigen::VectorXd::Constant(1, angle), qd = Eigen::VectorXd::Zero(1);
      system.segments(q, qd, seg);
      QCOMPARE(seg.size(), std::size_t(2));
      QVERIFY(seg[0].kind == SegmentReport::Kind::Rod && seg[1].kind == SegmentReport::Kind::Rod);
      QVERIFY(std::abs((seg[0].a - seg[0].b).norm() - 0.22) < 1e-12);  // the rod
      const Vec3 stroke = seg[1].b - seg[1].a;                          // along the cylinder
      QVERIFY(std::abs(stroke.y()) < 1e-12 && std::abs(stroke.z()) < 1e-12);
      actuation(*model, d, q, qd, Eigen::VectorXd::Zero(2), Eigen::VectorXd());
      QVERIFY(std::abs(-stroke.x() - d.actuatorLength(0)) < 1e-12);
    }
    // off the dead centre (where the rod points at the axle, and no piston force turns it)
    system.setState(0.0, Eigen::VectorXd::Constant(1, 0.5), Eigen::VectorXd::Zero(1));
    system.setControls((Eigen::VectorXd(2) << 0.2, 0.0).finished());
    QVERIFY(system.advanceTo(3.0));
    actuation(*model, d, system.positions(), system.velocities(), system.controls(), Eigen::VectorXd());
    QVERIFY2(std::abs(d.actuatorLength(0) - 0.2) < 0.01, qPrintable(QString::number(d.actuatorLength(0))));
  }

  // a legged robot on the ground, its motors taken away, stands on Add Servos' servos
  void servosStandALeggedRobot() {
    ModelSpec spec = loadMjcf(ARTICULATE_MODELS_DIR "/robots/mjcf_quadruped/quadruped.xml");
    spec.actuators.clear();
    const Model bare = compile(spec);
    QVERIFY(addServos(spec, bare.q0) == 12);
    const Model m = compile(spec);
    Data d(m);
    // how high its feet start above the floor: its foot spheres (body-body contact, as MuJoCo
    // computes it) or its ground-contact points
    double gap = std::numeric_limits<double>::infinity();
    if (m.geoms.empty()) {
      gap = contactPositionsVelocities(m, d, m.q0, m.qd0).row(2).minCoeff();
    } else {
      forwardKinematics(m, d, m.q0);
      for (int g = 0; g < static_cast<int>(m.geoms.size()); ++g) {
        if (m.geoms[static_cast<std::size_t>(g)].type != GeomSpec::Type::Sphere) continue;
        Mat3 R;
        Vec3 p;
        geomPose(m, d, g, R, p);
        gap = std::min(gap, p.z() - m.geoms[static_cast<std::size_t>(g)].size(0));
      }
    }
    QVERIFY(std::isfinite(gap) && gap >= 0);
    SimulationOptions o;
    o.dt = 1e-3;
    Simulation sim(m, o);
    const double z0 = m.q0(2);
    double lowest = z0;
    for (int k = 1; k <= 30; ++k) {
      QVERIFY(sim.advanceTo(0.1 * k));
      lowest = std::min(lowest, sim.q()(2));
    }
    const double sag = z0 - gap - lowest;  // below where its feet first touch
    qInfo() << "quadruped with servos: released" << gap << "m above the floor, trunk from" << z0 << "m, lowest" << lowest
            << "m (" << sag << "m below touching), at 3 s" << sim.q()(2) << "m moving" << sim.qd().norm();
    QVERIFY2(sag < 0.02, qPrintable(QString::number(sag)));
    QVERIFY2(sim.qd().norm() < 0.05, qPrintable(QString::number(sim.qd().norm())));  // at rest, standing
  }

  // a URDF arm's ros_control transmissions: an effort joint a motor (its effort limit over the
  // reduction its range), a position joint a servo holding the initial pose, a velocity joint a
  // velocity servo; the others noted. The exporter writes them back, and they read back alike.
  void urdfTransmissions() {
    const auto link = [](const std::string& n) {
      return "<link name='" + n + "'><inertial><mass value='1.5'/><origin xyz='0 0 0.15'/><inertia ixx='0.02' iyy='0.02' "
             "izz='0.004' ixy='0' ixz='0' iyz='0'/></inertial></link>";
    };
    const auto joint = [](const std::string& n, const std::string& parent, const std::string& child, const std::string& axis) {
      return "<joint name='" + n + "' type='revolute'><parent link='" + parent + "'/><child link='" + child +
             "'/><origin xyz='0 0 0.3'/><axis xyz='" + axis + "'/><limit lower='-2' upper='2' effort='80' velocity='3'/></joint>";
    };
    const auto transmission = [](const std::string& j, const std::string& iface, const std::string& reduction) {
      return "<transmission name='" + j + "_trans'><type>transmission_interface/SimpleTransmission</type><joint name='" + j +
             "'><hardwareInterface>hardware_interface/" + iface + "</hardwareInterface></joint><actuator name='" + j +
             "_motor'><mechanicalReduction>" + reduction + "</mechanicalReduction></actuator></transmission>";
    };
    const std::string urdf = "<robot name='arm'><link name='world'/>" + link("l1") + link("l2") + link("l3") + link("l4") +
                             joint("j1", "world", "l1", "0 0 1") + joint("j2", "l1", "l2", "0 1 0") + joint("j3", "l2", "l3", "0 1 0") +
                             joint("j4", "l3", "l4", "1 0 0") + transmission("j1", "EffortJointInterface", "50") +
                             transmission("j2", "PositionJointInterface", "1") + transmission("j3", "VelocityJointInterface", "2") +
                             "<transmission name='odd'><type>transmission_interface/DifferentialTransmission</type></transmission>"
                             "</robot>";
    UrdfImport report;
    const ModelSpec spec = specFromUrdf(urdf, "arm.urdf", &report, UrdfBase::Auto);
    QCOMPARE(spec.actuators.size(), std::size_t{3});
    const ActuatorSpec& motor = spec.actuators[0];
    QCOMPARE(motor.shortcut, std::string("motor"));
    QCOMPARE(motor.gear[0], 50.0);
    QVERIFY(motor.forceRange && (*motor.forceRange)[1] == 80.0 / 50);
    QCOMPARE(spec.actuators[1].shortcut, std::string("position"));
    QCOMPARE(spec.actuators[2].shortcut, std::string("velocity"));
    QCOMPARE(spec.actuators[2].gear[0], 2.0);
    std::string notes;
    for (const std::string& n : report.notes) notes += n + "\n";
    QVERIFY2(notes.find("1 transmission(s) not read: transmission 'odd'") != std::string::npos, notes.c_str());
    // the servo holds its joint at the initial pose under gravity (the others: motor at zero,
    // velocity servo at zero speed)
    const Model m = compile(spec);
    SimulationOptions o;
    Simulation sim(m, o);
    QVERIFY(sim.advanceTo(2.0));
    QVERIFY2(std::abs(sim.q()(1) - m.q0(1)) < 1e-3, qPrintable(QString::number(sim.q()(1) - m.q0(1))));
    // written back and read again: the same kinds, gears and ranges
    const UrdfText out = specToUrdf(spec);
    QVERIFY(out.xml.find("<hardwareInterface>hardware_interface/PositionJointInterface</hardwareInterface>") != std::string::npos);
    const ModelSpec back = specFromUrdf(out.xml, "back.urdf", nullptr, UrdfBase::Fixed);
    QCOMPARE(back.actuators.size(), std::size_t{3});
    for (std::size_t k = 0; k < 3; ++k) {
      QCOMPARE(back.actuators[k].shortcut, spec.actuators[k].shortcut);
      QCOMPARE(back.actuators[k].gear, spec.actuators[k].gear);
      QCOMPARE(back.actuators[k].gainPrm, spec.actuators[k].gainPrm);
    }
  }

  // `articulate-cli simulate --ctrl FILE` drives a servo by a CSV table (linear between its
  // rows, held after): the arm follows the ramp to the last target; a column that names no
  // actuator is refused by line and column, the file named
  void simulateWithControlTable() {
    QTemporaryDir tmp;
    const QString model = tmp.filePath("servo.xml"), table = tmp.filePath("ctrl.csv"), out = tmp.filePath("run.csv");
    const std::string xml = pendulum("damping='4'", "<position name='servo' joint='hinge' kp='60'/>");
    QFile m(model), t(table);
    QVERIFY(m.open(QIODevice::WriteOnly) && t.open(QIODevice::WriteOnly));
    m.write(xml.c_str());
    m.close();
    t.write("# a ramp to 0.5 rad over a second, then held\nt,servo\n0,0\n1,0.5\n");
    t.close();
    QProcess p;
    p.start(ARTICULATE_CLI, {"simulate", model, "--duration", "6", "--ctrl", table, "-o", out});
    QVERIFY(p.waitForFinished(60000));
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    QFile csv(out);
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(csv.readAll()).split('\n', Qt::SkipEmptyParts);
    const double q = lines.back().split(',')[1].toDouble();
    // the servo's equilibrium at 0.5 against the pendulum's weight: kp (0.5 - q) = m g l sin q
    double rest = 0.5;
    for (int k = 0; k < 50; ++k) rest -= (60 * (0.5 - rest) - 9.81 * std::sin(rest)) / (-60 - 9.81 * std::cos(rest));
    QVERIFY2(std::abs(q - rest) < 1e-4, qPrintable(QString("q %1, equilibrium %2").arg(q).arg(rest)));
    // a column naming no actuator
    QFile bad(tmp.filePath("bad.csv"));
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write("t,servo,elbow\n0,0,0\n");
    bad.close();
    p.start(ARTICULATE_CLI, {"simulate", model, "--ctrl", bad.fileName(), "-o", out});
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 2);
    const QString error = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(error.contains("bad.csv: line 1, column 3: 'elbow' is not an actuator of the model (its actuators: servo)"),
             qPrintable(error));
    // a header of times alone drives nothing: refused (found by fuzz_controls)
    try {
      readControlTable("t\n0\n1\n", "times.csv", specFromMjcf(xml, "servo.xml").actuators);
      QFAIL("a table without actuator columns was read");
    } catch (const FormatError& e) {
      QVERIFY2(std::string(e.what()).find("times.csv: line 1: no actuator column after 't' (its actuators: servo)") != std::string::npos,
               e.what());
    }
  }

  // a muscle without lengthrange on a tendon across limited joints: its range is found as
  // MuJoCo's compiler finds it (the tendon's extremes within the limits: here, by hand, the
  // fixed tendon q1 - 0.5 q2 over the box [-1, 1.2] x [-0.4, 0.8])
  void muscleLengthRangeIsFound() {
    const std::string xml =
        "<mujoco><compiler angle='radian' autolimits='true' inertiafromgeom='false'/><worldbody><body name='a'>"
        "<joint name='j1' axis='0 1 0' range='-1 1.2'/><inertial pos='0 0 -0.3' mass='1' diaginertia='0.01 0.01 0.01'/>"
        "<body name='b' pos='0 0 -0.6'><joint name='j2' axis='0 1 0' range='-0.4 0.8'/>"
        "<inertial pos='0 0 -0.2' mass='0.5' diaginertia='0.005 0.005 0.005'/></body></body></worldbody>"
        "<tendon><fixed name='t'><joint joint='j1' coef='1'/><joint joint='j2' coef='-0.5'/></fixed></tendon>"
        "<actuator><muscle name='m' tendon='t'/></actuator></mujoco>";
    MjcfImport report;
    const ModelSpec spec = specFromMjcf(xml, "muscle.xml", &report);
    QVERIFY(spec.actuators[0].lengthRange);
    const auto r = *spec.actuators[0].lengthRange;
    qInfo() << "muscle length range found:" << r[0] << r[1] << "(exact: -1.4, 1.4)";
    QVERIFY2(std::abs(r[0] + 1.4) < 1e-12 && std::abs(r[1] - 1.4) < 1e-12, qPrintable(QString("%1 %2").arg(r[0]).arg(r[1])));
    std::string notes;
    for (const std::string& n : report.notes) notes += n + "\n";
    QVERIFY2(notes.find("the length range of 1 muscle(s) was found") != std::string::npos, notes.c_str());
  }

  // a sweep of an MJCF file varies an actuator's initial control and its gain by JSON pointers
  // into its Articulate form: each run's servo settles at its equilibrium kp (ctrl - q) = m g l sin q
  void sweepOverControlsAndGains() {
    QTemporaryDir tmp;
    QFile xml(tmp.filePath("servo.xml"));
    QVERIFY(xml.open(QIODevice::WriteOnly));
    xml.write(pendulum("damping='4'", "<position name='servo' joint='hinge' kp='60'/>").c_str());
    xml.close();
    QFile sweep(tmp.filePath("servo_sweep.json"));
    QVERIFY(sweep.open(QIODevice::WriteOnly));
    sweep.write(R"({"format": "articulate-sweep", "version": 1, "model": "servo.xml", "duration": 8, "dt": 0.001,
      "parameters": [{"name": "target", "pointer": "/actuators/0/initial_ctrl", "values": [-0.5, 0.25, 1.0]},
                     {"name": "kp", "pointer": "/actuators/0/gain_parameters/0", "values": [30.0, 90.0]}],
      "metrics": [{"final": "q0"}]})");
    sweep.close();
    // the servo's bias follows its kp only through bias_parameters[1]: a sweep of the gain alone
    // changes the actuator, as the model file says it is (gain kp, bias -60 q here)
    QProcess p;
    p.start(ARTICULATE_CLI, {"sweep", sweep.fileName(), "-o", tmp.filePath("out"), "-j", "1"});
    QVERIFY(p.waitForFinished(120000));
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    QFile results(tmp.filePath("out/results.csv"));
    QVERIFY(results.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(results.readAll()).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 7);
    const QStringList header = lines[0].split(',');
    const int target = static_cast<int>(header.indexOf("target")), kp = static_cast<int>(header.indexOf("kp")),
              q = static_cast<int>(header.indexOf("final(q0)"));
    QVERIFY(target >= 0 && kp >= 0 && q >= 0);
    for (int k = 1; k < lines.size(); ++k) {
      const QStringList v = lines[k].split(',');
      const double c = v[target].toDouble(), gain = v[kp].toDouble(), end = v[q].toDouble();
      // force = gain ctrl - 60 q (the bias kept its -60): equilibrium gain c - 60 q = m g l sin q
      double e = 0;
      for (int it = 0; it < 100; ++it) e -= (gain * c - 60 * e - 9.81 * std::sin(e)) / (-60 - 9.81 * std::cos(e));
      QVERIFY2(std::abs(end - e) < 1e-5, qPrintable(QString("ctrl %1 kp %2: q %3, equilibrium %4").arg(c).arg(gain).arg(end).arg(e)));
    }
  }

  // bad input: named by file, line and element, and nothing half-read
  void badInputIsNamed_data() {
    QTest::addColumn<QString>("xml");
    QTest::addColumn<QString>("expected");
    QTest::newRow("missing joint") << QString::fromStdString(pendulum("", "<motor name='m' joint='nope'/>"))
                                   << "bad.xml:1: <motor name='m'>: joint 'nope' is not in this model";
    QTest::newRow("missing tendon") << QString::fromStdString(pendulum("", "<motor name='m' tendon='nope'/>"))
                                    << "<motor name='m'>: tendon 'nope' is not in this model";
    QTest::newRow("missing site") << QString::fromStdString(pendulum("", "<motor name='m' site='nope'/>"))
                                  << "<motor name='m'>: site 'nope' is not in this model";
    QTest::newRow("gear size") << QString::fromStdString(pendulum("", "<motor name='m' joint='hinge' gear='1 2 3'/>"))
                               << "<motor name='m'>: gear has 2 or more numbers, and this transmission takes 1";
    QTest::newRow("ctrlrange") << QString::fromStdString(pendulum("", "<motor name='m' joint='hinge' ctrlrange='1 -1'/>"))
                               << "<motor name='m'>: ctrlrange's lower end (1) must be below its upper end (-1)";
    QTest::newRow("tendon site") << QString::fromStdString(pendulum("", "", "<tendon><spatial name='t'><site site='top'/><site site='gone'/></spatial></tendon>"))
                                 << "<site>: site 'gone' is not in this model";
    QTest::newRow("tendon geom") << QString::fromStdString(pendulum("", "", "<tendon><spatial name='t'><site site='top'/><geom geom='gone'/><site site='s'/></spatial></tendon>"))
                                 << "<geom>: geom 'gone' is not a named geom of this model";
    QTest::newRow("muscle range") << QString::fromStdString(pendulum("", "<muscle name='m' joint='hinge'/>"))
                                  << "<muscle name='m'>: a muscle's length range could not be found";
    QTest::newRow("no transmission") << QString::fromStdString(pendulum("", "<motor name='m'/>"))
                                     << "<motor name='m'>: an actuator needs a transmission";
  }
  void badInputIsNamed() {
    QFETCH(QString, xml);
    QFETCH(QString, expected);
    const QString message = QString::fromStdString(failure(xml.toStdString()));
    QVERIFY2(message.contains(expected), qPrintable(message));
  }
};

ARTICULATE_TEST_MAIN(TestActuation)
#include "test_actuation.moc"
