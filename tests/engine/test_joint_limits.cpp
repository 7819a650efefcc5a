// Joint limits and Coulomb friction in simulation (BodySpec::limits, friction; Simulation's
// stops): a pendulum released against its limit stops there and stays, the stop's impulse acts
// through the joint-space inertia (the other joints keep their momenta), a slider with friction
// follows the analytic constant-force motion or sticks, effort limits clamp controllers, and the
// energy balance E(t) + energyDissipated() = E(0) holds. Also the format and the URDF mapping.
#include <QtTest>

#include "test_main.h"

#include <cmath>

#include <Eigen/Dense>

#include "articulate/dynamics/dynamics.h"
#include "articulate/formats/articulate.h"
#include "articulate/formats/document.h"
#include "articulate/formats/urdf.h"
#include "articulate/formulations/tree_simulation.h"

using namespace art;
using nlohmann::json;

namespace {

// a rod pendulum about y (mass 1, centre of mass 0.5 m along x): gravity turns q positive
BodySpec rod(const std::string& name, int parent, double length) {
  BodySpec b;
  b.name = name;
  b.parent = parent;
  b.joint.type = JointType::Ry;
  if (parent >= 0) b.translation = Vec3(length, 0, 0);
  b.inertia = InertiaSpec::fromMassComInertia(1.0, Vec3(0.5, 0, 0), Vec3(0.01, 0.09, 0.09).asDiagonal().toDenseMatrix());
  return b;
}

ModelSpec pendulum(int links) {
  ModelSpec spec;
  spec.name = "pendulum";
  for (int i = 0; i < links; ++i) spec.bodies.push_back(rod("link" + std::to_string(i), i - 1, 1.0));
  spec.gravity = Vec3(0, 0, -9.81);
  return spec;
}

// a vertical slider (Pz) of mass 2 under gravity
ModelSpec frictionSlider(double friction) {
  ModelSpec spec;
  spec.name = "slider";
  BodySpec b;
  b.name = "block";
  b.joint.type = JointType::Pz;
  b.inertia = InertiaSpec::fromMassComInertia(2.0, Vec3::Zero(), Mat3::Identity() * 0.1);
  b.friction = friction;
  spec.bodies.push_back(b);
  spec.gravity = Vec3(0, 0, -9.81);
  return spec;
}

double limitTotalEnergy(Simulation& sim) {
  const EnergyMomentum e = sim.energy();
  return e.kinetic + e.potential;
}

}  // namespace

class TestJointLimits : public QObject {
  Q_OBJECT
 private slots:
  // stops act with couplings (a URDF <mimic>) and loops: a double pendulum whose second joint
  // follows the first (q1 = 0.5 q0 + 0.1) swings until either joint meets its own stop (the
  // first's at 0.6 rad; the second's at 0.3 rad, i.e. q0 = 0.4 rad), stays there with the
  // coupling kept, and E + dissipated = E0 holds as without the coupling
  void stopsActWithCouplings_data() {
    QTest::addColumn<int>("integrator");
    QTest::addColumn<bool>("followerStops");
    for (const auto& [name, integrator] : {std::pair{"rk4", Integrator::RK4}, {"euler", Integrator::SemiImplicitEuler},
                                           {"dopri5", Integrator::DormandPrince45}}) {
      QTest::newRow(qPrintable(QString("%1, the first joint's stop").arg(name))) << static_cast<int>(integrator) << false;
      QTest::newRow(qPrintable(QString("%1, the follower's stop").arg(name))) << static_cast<int>(integrator) << true;
    }
  }
  void stopsActWithCouplings() {
    QFETCH(int, integrator);
    QFETCH(bool, followerStops);
    ModelSpec spec = pendulum(2);
    ConstraintSpec mimic;
    mimic.joint = 1;
    mimic.master = 0;
    mimic.ratio = 0.5;
    mimic.offset = 0.1;
    spec.constraints.push_back(mimic);
    spec.bodies[0].q0 = -0.5;
    spec.bodies[1].q0 = -0.15;
    if (followerStops)
      spec.bodies[1].limits.upper = 0.3;
    else
      spec.bodies[0].limits.upper = 0.6;
    const double stop0 = followerStops ? 0.4 : 0.6;
    const Model m = compile(spec);
    QVERIFY(m.stops && !m.constraints.empty());
    SimulationOptions opt;
    opt.integrator = static_cast<Integrator>(integrator);
    opt.relTol = opt.absTol = 1e-10;
    Simulation sim(m, opt);
    const double e0 = limitTotalEnergy(sim);
    double maxQ = -1, worstCoupling = 0, worstBalance = 0;
    for (int k = 1; k <= 2000; ++k) {
      QVERIFY(sim.advanceTo(k * 1e-3));
      maxQ = std::max(maxQ, sim.q()(0));
      worstCoupling = std::max(worstCoupling, std::abs(sim.q()(1) - 0.5 * sim.q()(0) - 0.1));
      worstBalance = std::max(worstBalance, std::abs(limitTotalEnergy(sim) + sim.energyDissipated() - e0));
    }
    qInfo("q0 at most %.9f (stop %.1f), at the end %.9f, |qd| %.2e; coupling error %.2e; "
          "worst |E + dissipated - E0| %.2e J of %.4f J dissipated",
          maxQ, stop0, sim.q()(0), sim.qd().norm(), worstCoupling, worstBalance, sim.energyDissipated());
    QVERIFY(maxQ < stop0 + 1e-6);                     // never through the stop
    QVERIFY(std::abs(sim.q()(0) - stop0) < 1e-6);     // resting on it
    QVERIFY(sim.qd().norm() < 1e-6);
    QVERIFY(worstCoupling < 1e-9);                    // the coupling kept
    QVERIFY(sim.energyDissipated() > 0.5);            // the stop took the swing's energy
    // semi-implicit Euler's own energy error at 1 ms is about 1% (pendulumStopsAtItsLimit)
    QVERIFY(worstBalance < (integrator == static_cast<int>(Integrator::SemiImplicitEuler) ? 0.05 : 1e-4));
  }

  // released at -0.5 rad, the pendulum swings into its stop at 0.6 rad, stops there and stays:
  // q on the stop and qd zero, exactly, until the end; what the stop took is the energy lost
  void pendulumStopsAtItsLimit_data() {
    QTest::addColumn<int>("integrator");
    QTest::newRow("rk4") << static_cast<int>(Integrator::RK4);
    QTest::newRow("euler") << static_cast<int>(Integrator::SemiImplicitEuler);
    QTest::newRow("dopri5") << static_cast<int>(Integrator::DormandPrince45);
  }
  void pendulumStopsAtItsLimit() {
    QFETCH(int, integrator);
    ModelSpec spec = pendulum(1);
    spec.bodies[0].limits.lower = -1.0;
    spec.bodies[0].limits.upper = 0.6;
    spec.bodies[0].q0 = -0.5;
    const Model m = compile(spec);
    QVERIFY(m.stops);
    SimulationOptions opt;
    opt.integrator = static_cast<Integrator>(integrator);
    opt.dt = 1e-3;
    opt.relTol = opt.absTol = 1e-10;
    Simulation sim(m, opt);
    const double e0 = limitTotalEnergy(sim);
    // the integrator's own energy error over the swing, without the stop: the balance may not be
    // worse (semi-implicit Euler's is about 1% at this step; RK4's and dopri5's far smaller)
    ModelSpec unlimited = spec;
    unlimited.bodies[0].limits = JointLimits{};
    const Model mu = compile(unlimited);
    Simulation free(mu, opt);
    double own = 0;
    while (free.q()(0) < 0.6) {
      QVERIFY(free.step());
      own = std::max(own, std::abs(limitTotalEnergy(free) - e0));
    }
    const double swing = 9.81 * 0.5 * (std::sin(0.6) - std::sin(-0.5));
    const double tolerance = std::max(1e-9 * swing, 2 * own);
    double hit = -1, worstBalance = 0, maxQ = -1, atHit = 0;
    for (int k = 1; k <= 2000; ++k) {
      QVERIFY(sim.advanceTo(k * 1e-3));
      maxQ = std::max(maxQ, sim.q()(0));
      if (hit < 0 && sim.q()(0) >= 0.6) {
        hit = sim.time();
        atHit = sim.energyDissipated();
      }
      worstBalance = std::max(worstBalance, std::abs(limitTotalEnergy(sim) + sim.energyDissipated() - e0));
    }
    qInfo("stop reached at t = %.3f s; worst |E + dissipated - E0| %.2e J (own error %.2e J), dissipated %.6f J", hit,
          worstBalance, own, sim.energyDissipated());
    QVERIFY(hit > 0.2 && hit < 1.0);  // it swung there (about 0.39 s by the energy)
    QCOMPARE(maxQ, 0.6);               // never past it
    QCOMPARE(sim.q()(0), 0.6);         // on it at the end
    QVERIFY2(std::abs(sim.qd()(0)) < 1e-12, qPrintable(QString::number(sim.qd()(0))));
    // the stop took the kinetic energy of the swing: m g (zc(-0.5) - zc(0.6)) with zc = -0.5 sin q
    QVERIFY2(std::abs(atHit - swing) < tolerance, qPrintable(QString::number(atHit, 'g', 12)));
    QVERIFY(std::abs(sim.energyDissipated() - atHit) < tolerance);  // held on the stop: nothing more
    QVERIFY(worstBalance < tolerance);
  }

  // a double pendulum whose shoulder hits its stop while the elbow swings: the stop's impulse
  // is H^-1 e_0 lambda (the elbow keeps its own momentum), computed here from a dense inverse
  // of CRBA's H against the simulation's sparse factorisation; the position moves by h/2 dqd
  void stopImpulseActsThroughTheInertia() {
    ModelSpec free = pendulum(2);
    free.bodies[0].q0 = -0.3;
    free.bodies[1].q0 = -1.2;
    ModelSpec limited = free;
    limited.bodies[0].limits.upper = 0.4;
    const Model mf = compile(free), ml = compile(limited);
    SimulationOptions opt;
    Simulation simF(mf, opt), simL(ml, opt);
    Data data(mf);
    int impulses = 0;
    // the first impact only: from the next step on the shoulder rests on its stop and is held
    // inside the steps (Simulation's holdStops), which the free step does not do
    for (int k = 1; k <= 1500 && impulses < 1; ++k) {
      simF.setState(simL.time(), simL.q(), simL.qd());
      QVERIFY(simF.step());
      QVERIFY(simL.step());
      if (simF.q()(0) < 0.4) {  // no stop in this step: both the same
        QVERIFY((simF.q() - simL.q()).norm() < 1e-15 && (simF.qd() - simL.qd()).norm() < 1e-15);
        continue;
      }
      if (simF.qd()(0) <= 0) continue;  // resting: checked by the pendulum above
      ++impulses;
      const Eigen::MatrixXd Hinv = crba(mf, data, simF.q()).inverse();
      const double lambda = -simF.qd()(0) / Hinv(0, 0);
      const Eigen::VectorXd qd = simF.qd() + Hinv.col(0) * lambda;
      Eigen::VectorXd q = simF.q() + 0.5 * opt.dt * (qd - simF.qd());
      q(0) = 0.4;  // the stop pushed: the joint ends the step on it
      qInfo("impulse at t = %.3f s: lambda %.4f N m s, elbow qd %.4f -> %.4f rad/s", simL.time(), lambda,
            simF.qd()(1), simL.qd()(1));
      QVERIFY2((simL.qd() - qd).norm() < 1e-12, qPrintable(QString("%1").arg((simL.qd() - qd).norm())));
      QVERIFY2((simL.q() - q).norm() < 1e-14, qPrintable(QString("%1").arg((simL.q() - q).norm())));
      QVERIFY(std::abs(simL.qd()(1) - simF.qd()(1)) > 1e-3);  // the elbow felt it
    }
    QVERIFY(impulses >= 1);
  }

  // Coulomb friction f on a vertical slider of mass m: with f < m g it slides down at
  // g - f / m exactly (the friction acts as a constant force over each step), dissipating f
  // times the distance; with f > m g it sticks where it is, exactly
  void sliderFriction() {
    for (const double f : {10.0, 25.0}) {
      const Model m = compile(frictionSlider(f));
      SimulationOptions opt;
      Simulation sim(m, opt);
      const double e0 = limitTotalEnergy(sim);
      QVERIFY(sim.advanceTo(1.0));
      const double a = f < 2 * 9.81 ? 9.81 - f / 2 : 0.0;  // downward acceleration
      qInfo("friction %g N: z(1) = %.12f m (analytic %.12f), qd(1) = %.12f m/s", f, sim.q()(0), -0.5 * a,
            sim.qd()(0));
      QVERIFY(std::abs(sim.q()(0) + 0.5 * a) < 1e-12);
      QVERIFY(std::abs(sim.qd()(0) + a) < 1e-12);
      QVERIFY(std::abs(sim.energyDissipated() - f * 0.5 * a) < 1e-9);
      QVERIFY(std::abs(limitTotalEnergy(sim) + sim.energyDissipated() - e0) < 1e-9);
    }
  }

  // an effort limit clamps a controller's force: a PD far from its target pushes with
  // exactly the effort, so the joint accelerates at effort / inertia
  void effortClampsControllers() {
    ModelSpec spec = frictionSlider(0.0);
    spec.gravity = Vec3::Zero();
    spec.bodies[0].control.type = ControlSpec::Type::PD;
    spec.bodies[0].control.kp = 1e4;
    spec.bodies[0].control.target = 1.0;
    spec.bodies[0].limits.effort = 3.0;
    const Model m = compile(spec);
    Simulation sim(m, SimulationOptions{});
    QVERIFY(sim.advanceTo(0.1));
    QVERIFY(std::abs(sim.q()(0) - 0.5 * (3.0 / 2.0) * 0.01) < 1e-14);
    Eigen::VectorXd tau = Eigen::VectorXd::Zero(1);
    addControlForces(m, 0.0, Eigen::VectorXd::Constant(1, 2.0), Eigen::VectorXd::Zero(1), tau);
    QCOMPARE(tau(0), -3.0);  // both ways
  }

  // the format reads and writes limits and friction, and refuses what makes no sense
  void format_data() {
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("message");
    QTest::newRow("lower above upper") << "limits" << "{\"lower\": 1, \"upper\": 0}" << "bodies[0].limits: lower (1) is above upper (0)";
    QTest::newRow("effort") << "limits" << "{\"effort\": 0}" << "bodies[0].limits.effort: must be > 0";
    QTest::newRow("velocity") << "limits" << "{\"velocity\": -1}" << "bodies[0].limits.velocity: must be > 0";
    QTest::newRow("unknown") << "limits" << "{\"stiffness\": 1}" << "bodies[0].limits.stiffness";
    QTest::newRow("string") << "limits" << "{\"lower\": \"low\"}" << "bodies[0].limits.lower";
    QTest::newRow("friction") << "friction" << "-0.5" << "bodies[0].friction: must be >= 0";
  }
  void format() {
    QFETCH(QString, field);
    QFETCH(QString, value);
    QFETCH(QString, message);
    ModelSpec spec = pendulum(2);
    spec.bodies[0].limits.lower = -1;
    spec.bodies[0].limits.velocity = 2;
    spec.bodies[1].limits.upper = 0.5;
    spec.bodies[1].limits.effort = 7;
    spec.bodies[1].friction = 0.3;
    Diagnostics problems;
    const std::optional<LoadedModel> back = readModelDocument(json::parse(specToJson(spec).dump()), problems);
    QVERIFY(back && problems.empty());
    for (std::size_t i = 0; i < 2; ++i) {
      QVERIFY(back->spec.bodies[i].limits == spec.bodies[i].limits);
      QCOMPARE(back->spec.bodies[i].friction, spec.bodies[i].friction);
    }
    json doc = json::parse(specToJson(spec).dump());
    doc["bodies"][0][field.toStdString()] = json::parse(value.toStdString());
    problems.clear();
    QVERIFY(!readModelDocument(doc, problems));
    QVERIFY2(!problems.empty() && QString::fromStdString(problems.front().text()).contains(message),
             problems.empty() ? "no problem" : problems.front().text().c_str());
  }

  // compile() refuses limits on a free joint
  void compileRefusals() {
    ModelSpec floating = pendulum(1);
    floating.bodies[0].joint.type = JointType::Free;
    floating.bodies[0].friction = 1;
    QVERIFY_THROWS_EXCEPTION(ModelError, compile(floating));
  }

  // URDF: <limit> and <dynamics friction> come in and go back out; continuous joints keep
  // effort and velocity; a one-sided limit is written with the other side at 1000
  void urdfRoundTrip() {
    std::vector<std::string> notes;
    const ModelSpec robot = specFromUrdf(
        "<robot name='r'><link name='world'/>"
        "<link name='a'><inertial><mass value='1'/><origin xyz='0.5 0 0'/><inertia ixx='0.01' iyy='0.09' izz='0.09' ixy='0' ixz='0' iyz='0'/></inertial></link>"
        "<link name='b'><inertial><mass value='1'/><inertia ixx='0.01' iyy='0.09' izz='0.09' ixy='0' ixz='0' iyz='0'/></inertial></link>"
        "<joint name='ja' type='revolute'><parent link='world'/><child link='a'/><axis xyz='0 1 0'/>"
        "<limit lower='-0.7' upper='1.1' effort='12' velocity='2.5'/><dynamics friction='0.2'/></joint>"
        "<joint name='jb' type='continuous'><parent link='a'/><child link='b'/><origin xyz='1 0 0'/><axis xyz='0 1 0'/>"
        "<limit effort='4' velocity='0'/></joint></robot>",
        "limited.urdf", &notes);
    QVERIFY2(notes.empty(), notes.empty() ? "" : notes[0].c_str());
    const JointLimits& a = robot.bodies[0].limits;
    QVERIFY(a.lower == -0.7 && a.upper == 1.1 && a.effort == 12.0 && a.velocity == 2.5);
    QCOMPARE(robot.bodies[0].friction, 0.2);
    const JointLimits& b = robot.bodies[1].limits;
    QVERIFY(!b.lower && !b.upper && b.effort == 4.0 && !b.velocity);  // velocity 0: no limit
    const ModelSpec back = specFromUrdf(specToUrdf(robot).xml, "back.urdf");
    for (std::size_t i = 0; i < 2; ++i) QCOMPARE(back.bodies[i].friction, robot.bodies[i].friction);
    QVERIFY(back.bodies[0].limits == a);
    QVERIFY(back.bodies[1].limits.effort == 4.0 && !back.bodies[1].limits.lower);
    ModelSpec oneSided = robot;
    oneSided.bodies[0].limits.lower.reset();
    const ModelSpec sided = specFromUrdf(specToUrdf(oneSided).xml, "sided.urdf");
    QVERIFY(sided.bodies[0].limits.lower == -1000.0 && sided.bodies[0].limits.upper == 1.1);
    // refused: lower above upper, negative friction
    for (const char* bad : {"<limit lower='1' upper='0' effort='1' velocity='1'/>", "<limit lower='0' upper='1' effort='1' velocity='1'/><dynamics friction='-1'/>"}) {
      try {
        specFromUrdf(std::string("<robot name='r'><link name='world'/><link name='a'/><joint name='ja' type='revolute'>"
                                 "<parent link='world'/><child link='a'/><axis xyz='0 1 0'/>") + bad + "</joint></robot>",
                     "bad.urdf");
        QFAIL(bad);
      } catch (const FormatError& e) {
        QVERIFY2(QString(e.what()).contains("joint 'ja'"), e.what());
      }
    }
  }
};

ARTICULATE_TEST_MAIN(TestJointLimits)
#include "test_joint_limits.moc"
