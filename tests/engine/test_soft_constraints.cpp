// The soft constraint model (soft_constraints.h) on its own: closed forms of MuJoCo's model
// (dry friction that holds below its force and lets go above it, a limit's steady penetration
// under a constant load), energy accounting with dry friction, solvers that agree, and the named
// errors of malformed MJCF. test_soft_mujoco.cpp holds the same model against MuJoCo itself.
#include <QtTest>

#include <cmath>
#include <string>

#include "articulate/dynamics/soft_constraints.h"
#include "articulate/formats/json.h"
#include "articulate/formats/mjcf.h"
#include "articulate/formulations/tree_simulation.h"

using namespace art;

namespace {

ModelSpec mjcf(const std::string& text) { return specFromMjcf(text, "soft.xml"); }

// a slider of mass m along x, without gravity, its frictionloss f (MuJoCo's default solref and
// solimp: dmin 0.9, dmax 0.95, time constant 0.02 s, damping ratio 1)
std::string slider(double m, double f) {
  return "<mujoco><compiler inertiafromgeom='false'/><option gravity='0 0 0' integrator='Euler'/><worldbody>"
         "<body name='puck'><joint name='x' type='slide' axis='1 0 0' frictionloss='" + std::to_string(f) +
         "'/><inertial pos='0 0 0' mass='" + std::to_string(m) + "' diaginertia='1 1 1'/></body></worldbody></mujoco>";
}

// the message of the FormatError reading `text` throws, or "" when it reads
std::string failure(const std::string& text) {
  try {
    compile(mjcf(text));
  } catch (const FormatError& e) {
    return e.what();
  } catch (const ModelError& e) {
    return std::string("ModelError: ") + e.what();
  }
  return "";
}

const char* kHead = "<mujoco><compiler inertiafromgeom='false'/><worldbody><body name='a'>"
                    "<inertial pos='0 0 0' mass='1' diaginertia='1 1 1'/>";
const char* kTendon = "<tendon><fixed name='t'><joint joint='j' coef='1'/></fixed></tendon>";

}  // namespace

class TestSoftConstraints : public QObject {
  Q_OBJECT
 private slots:
  // F > f: the friction row is saturated at -f, so qacc = (F - f) / m exactly, moving or not
  void dryFrictionLetsGoAboveItsForce() {
    const double m = 2, f = 3, F = 5;
    const ModelSpec spec = mjcf(slider(m, f));
    const Model model = compile(spec);
    QVERIFY(model.soft);
    Simulation sim(model, simulationOptions(spec));
    sim.setJointForces(Eigen::VectorXd::Constant(1, F));
    for (int k = 0; k < 500; ++k) QVERIFY(sim.step());
    const SoftConstraintData* soft = sim.softConstraints();
    QVERIFY(soft && soft->nefc == 1);
    QCOMPARE(soft->force(0), -f);
    QVERIFY(std::abs(soft->qacc(0) - (F - f) / m) <= 1e-12);
    // semi-implicit Euler from rest: v = n h a exactly
    QVERIFY(std::abs(sim.qd()(0) - 500 * spec.simulation.dt * (F - f) / m) <= 1e-12);
  }

  // F < f: the row stays in its quadratic zone and holds the slider but for MuJoCo's creep: at
  // steady state the force -D (J qacc - aref) = D b v balances F, so v = F R / b with R = (1 -
  // dmin) / dmin / m and b = 2 / (dmax tau)
  void dryFrictionHoldsBelowItsForce() {
    const double m = 2, f = 3, F = 2;
    const ModelSpec spec = mjcf(slider(m, f));
    const Model model = compile(spec);
    Simulation sim(model, simulationOptions(spec));
    sim.setJointForces(Eigen::VectorXd::Constant(1, F));
    for (int k = 0; k < 1000; ++k) QVERIFY(sim.step());
    const double R = (1 - 0.9) / 0.9 / m, b = 2 / (0.95 * 0.02), creep = F * R / b;
    qInfo("creep %.6g m/s (closed form %.6g), travelled %.3g m in 2 s", sim.qd()(0), creep, sim.q()(0));
    QVERIFY(std::abs(sim.qd()(0) - creep) <= 1e-9 * creep);
    QVERIFY(std::abs(sim.softConstraints()->force(0)) < f);
    QVERIFY(sim.q()(0) < 2.5 * creep);  // held: it moved less than 3 mm in 2 s
  }

  // a slider resting on its lower limit under gravity: penetration r = g (1 - d) tau^2 zeta^2
  // (MuJoCo's "Modeling" chapter, solref and solimp: with a flat impedance d = dmin = dmax)
  void limitSettlesAtItsSoftPenetration() {
    const double d = 0.9, tau = 0.05, zeta = 0.7, g = 9.81;
    const std::string text = std::string("<mujoco><compiler inertiafromgeom='false'/><option integrator='Euler'/><worldbody>") +
                             "<body name='b'><joint name='z' type='slide' axis='0 0 1' range='0 1' solreflimit='0.05 0.7' "
                             "solimplimit='0.9 0.9 0.001'/><inertial pos='0 0 0' mass='3' diaginertia='1 1 1'/></body>"
                             "</worldbody></mujoco>";
    const ModelSpec spec = mjcf(text);
    const Model model = compile(spec);
    Simulation sim(model, simulationOptions(spec));
    sim.setState(0, Eigen::VectorXd::Constant(1, 0.01), Eigen::VectorXd::Zero(1));
    for (int k = 0; k < 2500; ++k) QVERIFY(sim.step());
    const double r = -sim.q()(0), expected = g * (1 - d) * tau * tau * zeta * zeta;
    qInfo("penetration %.9g m, closed form %.9g m", r, expected);
    QVERIFY(std::abs(r - expected) <= 1e-6 * expected);
    QVERIFY(std::abs(sim.qd()(0)) < 1e-9);
  }

  // with dry friction the energy the rows take out is counted: E + dissipated stays E(0)
  void dryFrictionEnergyIsAccountedFor() {
    const std::string text = std::string("<mujoco><compiler inertiafromgeom='false'/><option timestep='0.001' integrator='RK4'/><worldbody>") +
                             "<body name='p' pos='0 0 1'><joint name='h' axis='0 1 0' frictionloss='0.3'/>"
                             "<inertial pos='0 0 -0.5' mass='1' diaginertia='0.01 0.01 0.01'/></body></worldbody></mujoco>";
    const ModelSpec spec = mjcf(text);
    const Model model = compile(spec);
    Simulation sim(model, simulationOptions(spec));
    sim.setState(0, Eigen::VectorXd::Constant(1, 1.2), Eigen::VectorXd::Zero(1));
    const double e0 = sim.energy().kinetic + sim.energy().potential;
    QVERIFY(sim.advanceTo(2.0));
    const EnergyMomentum e = sim.energy();
    const double lost = e0 - (e.kinetic + e.potential);
    qInfo("energy lost %.6g J, counted as dissipated %.6g J", lost, sim.energyDissipated());
    QVERIFY(lost > 0.1);
    QVERIFY(std::abs(lost - sim.energyDissipated()) <= 1e-3 * lost);
  }

  // the three solvers find the one minimiser, here with equalities, limits and friction at once
  void solversAgree() {
    const std::string text = std::string(kHead) +
                             "<joint name='j' axis='0 1 0' range='-0.2 0.2' frictionloss='0.5'/><body name='c' pos='0.3 0 0'>"
                             "<joint name='k' axis='0 1 0'/><inertial pos='0.1 0 0' mass='0.5' diaginertia='0.01 0.01 0.01'/>"
                             "</body></body><body name='w' pos='0.6 0 0'><joint name='l' axis='0 1 0' range='-1 0'/>"
                             "<inertial pos='0 0 0.1' mass='0.5' diaginertia='0.01 0.01 0.01'/></body></worldbody>"
                             "<equality><connect body1='c' body2='w' anchor='0.3 0 0'/><joint joint1='k' joint2='l' "
                             "polycoef='0 0.5 0.1 0 0'/></equality></mujoco>";
    const Model model = compile(mjcf(text));
    Data data(model);
    SoftConstraintData soft(model);
    const Eigen::VectorXd q = (Eigen::VectorXd(3) << 0.4, -0.3, 0.2).finished(), qd = Eigen::VectorXd::Constant(3, 0.7);
    const Eigen::VectorXd qacc = softForwardDynamics(model, data, soft, q, qd, Eigen::VectorXd::Zero(3));
    QVERIFY(soft.nefc == 3 + 1 + 1 + 2);  // connect, joint, friction, both limits
    for (const PhysicsSpec::Solver s : {PhysicsSpec::Solver::PGS, PhysicsSpec::Solver::CG}) {
      soft.warmValid = false;
      solveSoftConstraints(model, data, soft, s, 100000, 1e-16);
      const double gap = (soft.qacc - qacc).cwiseAbs().maxCoeff() / std::max(1.0, qacc.cwiseAbs().maxCoeff());
      qInfo("%s: within %.3g of Newton's qacc in %d iterations", solverName(s), gap, soft.iterations);
      QVERIFY(gap <= 1e-8);
    }
  }

  // the shipped gripper (models/robots/mjcf_gripper): its one servo closes and opens both
  // fingers, the joint equality mirroring them, and the connects keep both four-bars closed
  void gripperClosesOpensAndHoldsTogether() {
    const ModelSpec spec = loadMjcf(ARTICULATE_MODELS_DIR "/robots/mjcf_gripper/gripper.xml");
    const Model model = compile(spec);
    QCOMPARE(model.equalities.size(), std::size_t(3));
    Simulation sim(model, simulationOptions(spec));
    const int left = spec.findBody("l_driver"), right = spec.findBody("r_driver");
    QVERIFY(left >= 0 && right >= 0);
    for (const double target : {0.8, 0.0, 0.5}) {
      sim.setControls(Eigen::VectorXd::Constant(1, target));
      QVERIFY(sim.advanceTo(sim.time() + 1.5));
      const double l = sim.q()(model.qIndex[left]), r = sim.q()(model.qIndex[right]);
      qInfo("close %.1f: left driver %.4f rad, right %.4f rad, connect error %.2g m", target, l, r, sim.constraintError());
      QVERIFY2(std::abs(l - target) < 0.02, qPrintable(QString::number(l)));
      QVERIFY2(std::abs(r + l) < 1e-3, qPrintable(QString::number(r)));  // mirrored
      QVERIFY(sim.constraintError() < 1e-3);                              // the chains closed
    }
  }

  // each malformed input names its file, line and element, and why
  void malformedInputIsNamed_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");
    const std::string joint = std::string(kHead) + "<joint name='j' axis='0 1 0' range='-1 1' ";
    const std::string rest = "/></body><body name='b' pos='1 0 0'><joint name='k'/>"
                             "<inertial pos='0 0 0' mass='1' diaginertia='1 1 1'/></body></worldbody>";
    QTest::newRow("solref with a zero time constant")
        << QString::fromStdString(joint + "solreflimit='0 1'" + rest + "</mujoco>") << "soft.xml:1: <joint name='j'>: solreflimit must give a time constant";
    QTest::newRow("solimp outside (0, 1)")
        << QString::fromStdString(joint + "solimplimit='1.2 0.95 0.001'" + rest + "</mujoco>") << "solimplimit's dmin must lie in (0, 1), got 1.2";
    QTest::newRow("an equality naming a missing body")
        << QString::fromStdString(joint + rest + "<equality><connect body1='a' body2='nobody' anchor='0 0 0'/></equality></mujoco>")
        << "<connect>: body2 'nobody' names no body of this model";
    QTest::newRow("an equality naming a missing joint")
        << QString::fromStdString(joint + rest + "<equality><joint joint1='j' joint2='nojoint'/></equality></mujoco>")
        << "joint2 'nojoint' names no hinge or slide joint of this model";
    QTest::newRow("an equality naming a missing tendon")
        << QString::fromStdString(joint + rest + kTendon + "<equality><tendon tendon1='t' tendon2='none'/></equality></mujoco>")
        << "tendon2 'none' names no tendon of this model";
    QTest::newRow("a weld between a body and itself")
        << QString::fromStdString(joint + rest + "<equality><weld name='w' body1='b' body2='b'/></equality></mujoco>")
        << "<weld name='w'>: body1 and body2 are both 'b'";
    QTest::newRow("a polynomial of the wrong length")
        << QString::fromStdString(joint + rest + "<equality><joint joint1='j' joint2='k' polycoef='0 1 0 0 0 2'/></equality></mujoco>")
        << "polycoef";
    QTest::newRow("an unknown solver")
        << QString::fromStdString(std::string("<mujoco><option solver='Simplex'/>") + (joint + rest).substr(8) + "</mujoco>")
        << "<option>: solver must be Newton, PGS or CG, got 'Simplex'";
  }
  void malformedInputIsNamed() {
    QFETCH(QString, text);
    QFETCH(QString, expected);
    const QString message = QString::fromStdString(failure(text.toStdString()));
    qInfo().noquote() << message;
    QVERIFY2(message.startsWith("soft.xml: soft.xml:"), qPrintable(message));
    QVERIFY2(message.contains(expected), qPrintable(message));
  }
};

QTEST_GUILESS_MAIN(TestSoftConstraints)
#include "test_soft_constraints.moc"
