// The batched passes and integrator (dynamics/batch.h, formulations/tree_batch.h) against the
// one-state algorithms they restate: aba() and energyMomentum() on random trees of every
// one-degree-of-freedom joint type, spatial and planar, Simulation step for step from the same states, the same
// divergences; and the lanes' independence, bit for bit, whatever the other lanes hold.
#include <QtTest>

#include "test_main.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "articulate/dynamics/batch.h"
#include "articulate/dynamics/dynamics.h"
#include "articulate/formats/document.h"
#include "articulate/formulations/generators.h"
#include "articulate/formulations/tree_batch.h"
#include "articulate/formulations/tree_simulation.h"
#include "test_util.h"

using namespace art;
using testutil::randomVector;
using testutil::relErr;

namespace {

const std::vector<JointType> kTypes{JointType::Rx, JointType::Ry, JointType::Rz, JointType::Px,
                                    JointType::Py, JointType::Pz, JointType::H};

ModelSpec specFor(const QString& kind, int nb, int seed) {
  if (kind == "unrotated") {  // tree transforms without rotation (ABA's specialised revolute step)
    ModelSpec s = randomTree(nb, static_cast<std::uint32_t>(seed), kTypes);
    for (BodySpec& b : s.bodies) b.rotation = Mat3::Identity();
    return s;
  }
  if (kind == "planar") {
    ModelSpec s = randomTree(nb, static_cast<std::uint32_t>(seed), {JointType::PlanarR, JointType::PlanarPx, JointType::PlanarPy});
    s.gravity = Vec3(1.2, -9.81, 0);
    return s;
  }
  if (kind == "chain") {  // the benchmarks' autoTree(20) chain
    AutoTreeOptions o;
    o.bodies = nb;
    o.axes = {JointType::Rz, JointType::Ry};
    ModelSpec s = autoTree(o);
    s.gravity = Vec3(0, 0, -9.81);
    return s;
  }
  ModelSpec s = randomTree(nb, static_cast<std::uint32_t>(seed), kTypes);
  s.gravity = Vec3(0.3, -1.1, -9.81);
  return s;
}

// lane `lane` of x[0..n) as a vector
Eigen::VectorXd lane(const std::vector<Lanes>& x, int lane) {
  Eigen::VectorXd v(static_cast<Eigen::Index>(x.size()));
  for (std::size_t i = 0; i < x.size(); ++i) v(static_cast<Eigen::Index>(i)) = x[i][lane];
  return v;
}

void setLane(std::vector<Lanes>& x, int lane, const Eigen::VectorXd& v) {
  for (std::size_t i = 0; i < x.size(); ++i) x[i][lane] = v(static_cast<Eigen::Index>(i));
}

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

SimulationOptions options(const QString& integrator, double dt, bool projection = false) {
  SimulationOptions o;
  parseIntegrator(integrator.toStdString(), o.integrator);
  o.dt = dt;
  o.energyProjection = projection;
  return o;
}

}  // namespace

class TestBatch : public QObject {
  Q_OBJECT

 private slots:
  void forwardDynamicsAndEnergiesMatchOneState_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<int>("nb");
    QTest::addColumn<int>("seed");
    for (int seed : {1, 2, 3}) {
      QTest::newRow(qPrintable(QString("random 1 body, seed %1").arg(seed))) << "random" << 1 << seed;
      QTest::newRow(qPrintable(QString("random 9 bodies, seed %1").arg(seed))) << "random" << 9 << seed;
      QTest::newRow(qPrintable(QString("unrotated 9 bodies, seed %1").arg(seed))) << "unrotated" << 9 << seed;
    }
    QTest::newRow("random 30 bodies") << "random" << 30 << 4;
    QTest::newRow("planar 1 body") << "planar" << 1 << 5;
    QTest::newRow("planar 12 bodies") << "planar" << 12 << 6;
    QTest::newRow("autoTree(20) chain") << "chain" << 20 << 0;
  }
  // qdd of four random states at once equals aba() of each (with joint forces), and the
  // energies equal energyMomentum()'s, to rounding
  void forwardDynamicsAndEnergiesMatchOneState() {
    QFETCH(QString, kind);
    QFETCH(int, nb);
    QFETCH(int, seed);
    const Model m = compile(specFor(kind, nb, seed));
    QVERIFY(batchUnsupported(m).empty());
    Data d(m);
    BatchTree batch(m);
    std::mt19937 rng(static_cast<unsigned>(seed));
    const std::size_t n = static_cast<std::size_t>(m.nv());
    std::vector<Lanes> q(n), qd(n), tau(n), qdd(n);
    Eigen::VectorXd qs[kLanes], qds[kLanes], taus[kLanes];
    for (int l = 0; l < kLanes; ++l) {
      qs[l] = randomVector(m.nv(), rng, -3, 3);
      qds[l] = randomVector(m.nv(), rng, -4, 4);
      taus[l] = randomVector(m.nv(), rng, -5, 5);
      setLane(q, l, qs[l]);
      setLane(qd, l, qds[l]);
      setLane(tau, l, taus[l]);
    }
    batch.forwardDynamics(q.data(), qd.data(), tau.data(), qdd.data());
    Lanes kinetic, potential;
    batch.kineticPotential(q.data(), qd.data(), kinetic, potential);
    for (int l = 0; l < kLanes; ++l) {
      const Eigen::VectorXd expected = aba(m, d, qs[l], qds[l], taus[l]);
      QVERIFY2(relErr(lane(qdd, l), expected) < 1e-11,
               qPrintable(QString("lane %1: qdd off by %2").arg(l).arg(relErr(lane(qdd, l), expected))));
      const EnergyMomentum e = energyMomentum(m, d, qs[l], qds[l]);
      const double scale = std::max({1.0, e.kinetic, std::abs(e.potential)});
      QVERIFY(std::abs(kinetic[l] - e.kinetic) < 1e-12 * scale);
      QVERIFY(std::abs(potential[l] - e.potential) < 1e-12 * scale);
    }
    // without joint forces: null tau is zero tau
    batch.forwardDynamics(q.data(), qd.data(), nullptr, qdd.data());
    QVERIFY(relErr(lane(qdd, 2), aba(m, d, qs[2], qds[2], Eigen::VectorXd::Zero(m.nv()))) < 1e-11);
  }

  // A state gives the same bits in any lane, beside any others: finite, huge, NaN or inf
  void lanesAreIndependent() {
    const Model m = compile(specFor("random", 12, 5));
    BatchTree batch(m);
    std::mt19937 rng(11);
    const std::size_t n = static_cast<std::size_t>(m.nv());
    const Eigen::VectorXd q = randomVector(m.nv(), rng, -3, 3), qd = randomVector(m.nv(), rng, -3, 3);
    std::vector<Lanes> Q(n), QD(n), QDD(n);
    setLane(Q, 0, q);
    setLane(QD, 0, qd);
    for (int l = 1; l < kLanes; ++l) {
      setLane(Q, l, randomVector(m.nv(), rng, -3, 3));
      setLane(QD, l, randomVector(m.nv(), rng, -3, 3));
    }
    batch.forwardDynamics(Q.data(), QD.data(), nullptr, QDD.data());
    const Eigen::VectorXd first = lane(QDD, 0);
    Lanes k0, p0;
    batch.kineticPotential(Q.data(), QD.data(), k0, p0);
    // now in lane 3, beside NaN, inf and 1e300
    const double others[3] = {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(), 1e300};
    for (int l = 0; l < 3; ++l) {
      setLane(Q, l, Eigen::VectorXd::Constant(m.nv(), others[l]));
      setLane(QD, l, Eigen::VectorXd::Constant(m.nv(), others[l]));
    }
    setLane(Q, 3, q);
    setLane(QD, 3, qd);
    batch.forwardDynamics(Q.data(), QD.data(), nullptr, QDD.data());
    Lanes k3, p3;
    batch.kineticPotential(Q.data(), QD.data(), k3, p3);
    for (int i = 0; i < m.nv(); ++i) QVERIFY2(sameBits(QDD[static_cast<std::size_t>(i)][3], first(i)), qPrintable(QString("qdd[%1]").arg(i)));
    QVERIFY(sameBits(k3[3], k0[0]));
    QVERIFY(sameBits(p3[3], p0[0]));
    QVERIFY(std::isnan(QDD[0][0]));  // the NaN lane stayed NaN: the lanes were really computed
  }

  void simulationFollowsSimulation_data() {
    QTest::addColumn<QString>("integrator");
    QTest::addColumn<bool>("projection");
    QTest::newRow("rk4") << "rk4" << false;
    QTest::newRow("euler") << "euler" << false;
    QTest::newRow("rk4 with energy projection") << "rk4" << true;
  }
  // four initial states integrated together follow four Simulations step for step: the same
  // times and step counts, states equal to rounding after 0.5 s, energies as Simulation's
  void simulationFollowsSimulation() {
    QFETCH(QString, integrator);
    QFETCH(bool, projection);
    const Model m = compile(specFor("random", 6, 8));
    const SimulationOptions opt = options(integrator, 1e-3, projection);
    QVERIFY(BatchSimulation::unsupported(m, opt).empty());
    BatchSimulation batch(m, opt);
    std::mt19937 rng(3);
    std::vector<std::unique_ptr<Simulation>> sims;
    for (int l = 0; l < kLanes; ++l) {
      const Eigen::VectorXd q = randomVector(m.nv(), rng, -1, 1), qd = randomVector(m.nv(), rng, -1, 1);
      batch.setState(l, q, qd);
      sims.push_back(std::make_unique<Simulation>(m, opt));
      sims.back()->setState(0.0, q, qd);
      QVERIFY(sims.back()->energyProjectionActive() == projection);
    }
    Eigen::VectorXd q, qd;
    for (int k = 1; k <= 50; ++k) {
      const double t = k * 0.0105;  // not a multiple of dt: every advance ends on a short step
      QVERIFY(batch.advanceTo(t));
      for (int l = 0; l < kLanes; ++l) {
        QVERIFY(sims[static_cast<std::size_t>(l)]->advanceTo(t));
        Simulation& s = *sims[static_cast<std::size_t>(l)];
        QCOMPARE(batch.time(l), s.time());
        QCOMPARE(batch.stepsTaken(l), s.stepsTaken());
        batch.state(l, q, qd);
        QVERIFY2(relErr(q, s.q()) < 1e-9 && relErr(qd, s.qd()) < 1e-9,
                 qPrintable(QString("t = %1, lane %2: q off by %3, qd by %4").arg(t).arg(l).arg(relErr(q, s.q())).arg(relErr(qd, s.qd()))));
        const EnergyMomentum e = s.energy();
        QVERIFY(std::abs(batch.kinetic(l) - e.kinetic) < 1e-9 * std::max(1.0, e.kinetic));
        QVERIFY(std::abs(batch.potential(l) - e.potential) < 1e-9 * std::max(1.0, std::abs(e.potential)));
      }
    }
  }

  // A lane that diverges stops where Simulation stops, with its quantity and message, and the
  // other lanes go on as if it were not there
  void divergenceIsPerLane_data() {
    QTest::addColumn<QString>("integrator");
    QTest::addColumn<double>("dt");
    QTest::addColumn<double>("speed");
    QTest::addColumn<QString>("quantity");
    // a velocity whose kinetic energy overflows: the first step's state is not finite
    QTest::newRow("state not finite") << "rk4" << 1e-3 << 1e160 << "q";
    // the chain thrown at 100 rad/s, Euler's 1 ms step too long for that, against a growth
    // limit of the initial energy (SimulationOptions::energyGrowthLimit) instead of a million
    // times it
    QTest::newRow("energy grows") << "euler" << 0.001 << 100.0 << "total energy";
  }
  void divergenceIsPerLane() {
    QFETCH(QString, integrator);
    QFETCH(double, dt);
    QFETCH(double, speed);
    QFETCH(QString, quantity);
    const Model m = compile(specFor(quantity == "total energy" ? "chain" : "random", 6, 8));
    SimulationOptions opt = options(integrator, dt);
    if (quantity == "total energy") opt.energyGrowthLimit = 1.0;
    std::mt19937 rng(4);
    const Eigen::VectorXd q = randomVector(m.nv(), rng, -1, 1);
    const Eigen::VectorXd wild = randomVector(m.nv(), rng, -1, 1) * speed;
    const Eigen::VectorXd calm = randomVector(m.nv(), rng, -0.1, 0.1);
    BatchSimulation batch(m, opt), alone(m, opt);
    batch.setState(0, q, calm);
    batch.setState(1, q, wild);
    batch.setState(2, q, calm);
    batch.setState(3, q, calm);
    alone.setState(0, q, calm);
    alone.setState(1, q, calm);
    alone.setState(2, q, calm);
    alone.setState(3, q, calm);
    Simulation sim(m, opt);
    sim.setState(0.0, q, wild);
    bool simGoing = true;
    for (int k = 1; k <= 200; ++k) {
      QVERIFY(batch.advanceTo(k * 0.05));
      QVERIFY(alone.advanceTo(k * 0.05));
      if (simGoing) simGoing = sim.advanceTo(k * 0.05);
    }
    QVERIFY(!simGoing);
    QVERIFY(!batch.active(1));
    QVERIFY(batch.divergence(1)->quantity.rfind(quantity.toStdString(), 0) == 0);
    QCOMPARE(QString::fromStdString(batch.divergence(1)->quantity), QString::fromStdString(sim.divergence()->quantity));
    QCOMPARE(batch.divergence(1)->time, sim.divergence()->time);
    QCOMPARE(batch.time(1), sim.time());
    QCOMPARE(batch.stepsTaken(1), sim.stepsTaken());
    QVERIFY(QString::fromStdString(batch.divergence(1)->message).startsWith("the simulation diverged at t = "));
    // the diverged lane kept its last good state
    Eigen::VectorXd bq, bqd;
    batch.state(1, bq, bqd);
    QVERIFY(bq.allFinite() && bqd.allFinite());
    // the calm lanes went on to the end, bit for bit as without the wild one beside them
    Eigen::VectorXd aq, aqd;
    for (int l : {0, 2, 3}) {
      QVERIFY(batch.active(l));
      QCOMPARE(batch.time(l), 10.0);
      batch.state(l, bq, bqd);
      alone.state(l, aq, aqd);
      QVERIFY(std::memcmp(bq.data(), aq.data(), sizeof(double) * static_cast<std::size_t>(bq.size())) == 0);
      QVERIFY(std::memcmp(bqd.data(), aqd.data(), sizeof(double) * static_cast<std::size_t>(bqd.size())) == 0);
    }
    // a lane set again rejoins
    batch.setState(1, q, calm);
    QVERIFY(batch.active(1));
    const long before = batch.stepsTaken(0);
    QVERIFY(batch.advanceTo(10.5));
    QCOMPARE(batch.time(1), 10.5);
    QCOMPARE(batch.stepsTaken(1), batch.stepsTaken(0) - before);
  }

  // what the batch does not take, and why
  void unsupportedModelsAreNamed() {
    const Model chain = compile(specFor("chain", 3, 0));
    QVERIFY(BatchSimulation::unsupported(chain, options("rk4", 1e-3)).empty());
    QVERIFY(QString::fromStdString(BatchSimulation::unsupported(chain, options("dopri5", 1e-3))).contains("dopri5"));
    // each of what the batch leaves to one-state stepping, added to the chain alone
    std::vector<std::pair<ModelSpec, QString>> cases;
    ModelSpec contact = specFor("chain", 3, 0);
    contact.contacts.push_back({2, Vec3(1, 0, 0)});
    cases.push_back({contact, "ground contact"});
    ModelSpec force = specFor("chain", 3, 0);
    force.forces.push_back({1, Vec3::Zero(), Vec3(0, 0, 1), Vec3::Zero()});
    cases.push_back({force, "external forces"});
    ModelSpec gear = specFor("chain", 3, 0);
    ConstraintSpec coupling;
    coupling.joint = 2;
    coupling.master = 1;
    gear.constraints.push_back(coupling);
    cases.push_back({gear, "loops and gears"});
    ModelSpec pd = specFor("chain", 3, 0);
    pd.bodies[1].control.type = ControlSpec::Type::PD;
    pd.bodies[1].control.kp = 10;
    cases.push_back({pd, "joint controllers"});
    cases.push_back({loadModel(std::string(ARTICULATE_MODELS_DIR) + "/quadruped.json").spec, "free and ball joints"});
    cases.push_back({loadModel(std::string(ARTICULATE_MODELS_DIR) + "/fourbar.json").spec, "loops"});
    for (const auto& [spec, word] : cases) {
      const Model m = compile(spec);
      const QString why = QString::fromStdString(BatchSimulation::unsupported(m, options("rk4", 1e-3)));
      QVERIFY2(why.contains(word), qPrintable(word + ": " + why));
      QVERIFY_THROWS_EXCEPTION(std::invalid_argument, BatchSimulation(m, options("rk4", 1e-3)));
    }
    BatchSimulation batch(chain, options("rk4", 1e-3));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, batch.setState(kLanes, chain.q0, chain.qd0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, batch.setState(0, Eigen::VectorXd::Zero(2), chain.qd0));
  }
};

ARTICULATE_TEST_MAIN(TestBatch)
#include "test_batch.moc"
