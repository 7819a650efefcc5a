// Algorithms checked against each other on seeded random trees: ABA vs CRBA solve,
// RNEA(ABA(tau)) == tau, H qdd + C == tau, KE == qd'H qd / 2, energy rate == joint power,
// planar arithmetic vs the same mechanism in spatial arithmetic, generators vs spatial_v2.
#include <QtTest>

#include "test_main.h"

#include <Eigen/Eigenvalues>

#include "articulate/dynamics/dynamics.h"
#include "articulate/formulations/generators.h"
#include "articulate/formats/files.h"
#include "articulate/formats/spatial_v2.h"
#include "test_util.h"

using namespace art;
using testutil::relErr;

namespace {

const std::vector<JointType> kSpatialTypes{JointType::Rx, JointType::Ry, JointType::Rz,
                                           JointType::Px, JointType::Py, JointType::Pz,
                                           JointType::H};
const std::vector<JointType> kPlanarTypes{JointType::PlanarR, JointType::PlanarPx,
                                          JointType::PlanarPy};

ModelSpec specFor(const QString& kind, int nb, int seed) {
  if (kind == "spatial") return randomTree(nb, seed, kSpatialTypes);
  if (kind == "revolute") return randomTree(nb, seed, {JointType::Rx, JointType::Ry, JointType::Rz});
  if (kind == "unrotated") {
    // tree transforms without rotation: the revolute joints take ABA's specialised inward step
    // (Model turnAxis), next to prismatic and helical ones that take the general step
    ModelSpec s = randomTree(nb, seed, kSpatialTypes);
    for (BodySpec& b : s.bodies) b.rotation = Mat3::Identity();
    return s;
  }
  if (kind == "planar") {
    ModelSpec s = randomTree(nb, seed, kPlanarTypes);
    s.gravity = Vec3(1.2, -9.81, 0);
    return s;
  }
  AutoTreeOptions o;
  o.bodies = nb;
  o.branching = 2;
  o.skew = 0.4;
  o.taper = 0.9;
  return autoTree(o);
}

}  // namespace

class TestCrossCheck : public QObject {
  Q_OBJECT
 private slots:
  void algorithmsAgree_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<int>("nb");
    QTest::addColumn<int>("seed");
    for (const char* kind : {"spatial", "revolute", "unrotated", "planar", "autotree"})
      for (int nb : {1, 2, 7, 20, 45})
        for (int seed : {1, 2})
          QTest::newRow(qPrintable(QString("%1/%2/seed%3").arg(kind).arg(nb).arg(seed)))
              << QString(kind) << nb << seed;
  }

  void algorithmsAgree() {
    QFETCH(QString, kind);
    QFETCH(int, nb);
    QFETCH(int, seed);
    const Model model = compile(specFor(kind, nb, seed));
    if (kind == "unrotated" && nb == 45) {
      // the specialised step meets all three axes, and parents taking either step
      bool axes[3] = {}, generalParent = false, turningParent = false;
      for (int i = 0; i < nb; ++i) {
        const int k = model.spatial.turnAxis[i], p = model.parent[i];
        if (k < 0 || p < 0) continue;
        axes[k] = true;
        (model.spatial.turnAxis[p] >= 0 ? turningParent : generalParent) = true;
      }
      QVERIFY(axes[0] && axes[1] && axes[2] && generalParent && turningParent);
    }
    Data data(model);
    std::mt19937 rng(seed * 7919 + nb);
    const Eigen::VectorXd q = testutil::randomVector(nb, rng, -M_PI, M_PI);
    const Eigen::VectorXd qd = testutil::randomVector(nb, rng);
    const Eigen::VectorXd tau = testutil::randomVector(nb, rng);
    const int dim = model.arithmetic == Arithmetic::Spatial ? 6 : 3;
    const Eigen::MatrixXd fext = testutil::randomMatrix(dim, nb, rng);

    for (const ExternalForces* f : {static_cast<const ExternalForces*>(nullptr), &fext}) {
      const Eigen::VectorXd qddAba = aba(model, data, q, qd, tau, f);
      const Eigen::VectorXd qddCrb = forwardDynamicsCrb(model, data, q, qd, tau, f);
      QVERIFY2(relErr(qddAba, qddCrb) < 1e-9, "ABA and CRBA solve disagree");
      // inverse dynamics undoes forward dynamics
      const Eigen::VectorXd tauBack = rnea(model, data, q, qd, qddAba, f);
      QVERIFY2(relErr(tauBack, tau) < 1e-9, "RNEA(ABA(tau)) != tau");
      // tau = H qdd + C
      const Eigen::MatrixXd H = crba(model, data, q);
      const Eigen::VectorXd C = biasForces(model, data, q, qd, f);
      QVERIFY(relErr(H * qddAba + C, tau) < 1e-9);
      QVERIFY((H - H.transpose()).cwiseAbs().maxCoeff() == 0.0);
    }
    const Eigen::MatrixXd H = crba(model, data, q);
    QVERIFY(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(H).eigenvalues().minCoeff() > 0);
    const EnergyMomentum e = energyMomentum(model, data, q, qd);
    QVERIFY(std::abs(e.kinetic - 0.5 * qd.dot(H * qd)) <= 1e-12 * std::max(1.0, e.kinetic));
  }

  // d(KE + PE)/dt equals the power of the joint forces, qd . tau (no external forces)
  void energyRateIsJointPower_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<int>("seed");
    for (const char* kind : {"spatial", "planar", "autotree"})
      for (int seed : {3, 4, 5}) QTest::newRow(qPrintable(QString("%1/seed%2").arg(kind).arg(seed))) << QString(kind) << seed;
  }
  void energyRateIsJointPower() {
    QFETCH(QString, kind);
    QFETCH(int, seed);
    const Model model = compile(specFor(kind, 9, seed));
    Data data(model);
    std::mt19937 rng(seed);
    const Eigen::VectorXd q = testutil::randomVector(model.nb, rng, -M_PI, M_PI);
    const Eigen::VectorXd qd = testutil::randomVector(model.nb, rng);
    const Eigen::VectorXd tau = testutil::randomVector(model.nb, rng);
    const Eigen::VectorXd qdd = aba(model, data, q, qd, tau);
    auto energyAt = [&](double h) {
      // second-order Taylor step; its error in qd is even in h and cancels below
      const Eigen::VectorXd qh = q + h * qd + 0.5 * h * h * qdd;
      const Eigen::VectorXd qdh = qd + h * qdd;
      const EnergyMomentum e = energyMomentum(model, data, qh, qdh);
      return e.kinetic + e.potential;
    };
    // central differences are O(h^2) (accelerations reach hundreds of rad/s^2 here), so
    // Richardson-extrapolate two step sizes to O(h^4)
    auto central = [&](double h) { return (energyAt(h) - energyAt(-h)) / (2 * h); };
    const double h = 1e-4;
    const double rate = (4 * central(h / 2) - central(h)) / 3;
    const double power = qd.dot(tau);
    QVERIFY2(std::abs(rate - power) < 1e-8 * std::max(1.0, std::abs(power)),
             qPrintable(QString("dE/dt %1, power %2").arg(rate, 0, 'g', 12).arg(power, 0, 'g', 12)));
  }

  // a planar chain and the same mechanism built with spatial Rz joints move identically
  void planarEqualsSpatial() {
    ModelSpec planar = randomTree(8, 11, {JointType::PlanarR, JointType::PlanarPx, JointType::PlanarPy});
    planar.gravity = Vec3(0.5, -9.81, 0);
    ModelSpec spatial = planar;
    spatial.arithmetic = Arithmetic::Spatial;
    for (BodySpec& b : spatial.bodies) {
      b.joint.type = b.joint.type == JointType::PlanarR    ? JointType::Rz
                     : b.joint.type == JointType::PlanarPx ? JointType::Px
                                                          : JointType::Py;
    }
    const Model mp = compile(planar), ms = compile(spatial);
    Data dp(mp), ds(ms);
    std::mt19937 rng(5);
    const Eigen::VectorXd q = testutil::randomVector(8, rng), qd = testutil::randomVector(8, rng),
                          tau = testutil::randomVector(8, rng);
    QVERIFY(relErr(aba(mp, dp, q, qd, tau), aba(ms, ds, q, qd, tau)) < 1e-12);
    QVERIFY(relErr(crba(mp, dp, q), crba(ms, ds, q)) < 1e-12);
    const EnergyMomentum ep = energyMomentum(mp, dp, q, qd), es = energyMomentum(ms, ds, q, qd);
    QVERIFY(std::abs(ep.kinetic - es.kinetic) < 1e-12 * std::max(1.0, es.kinetic));
    QVERIFY(std::abs(ep.potential - es.potential) < 1e-12 * std::max(1.0, std::abs(es.potential)));
    forwardKinematics(mp, dp, q);
    forwardKinematics(ms, ds, q);
    for (int i = 0; i < 8; ++i) {
      QVERIFY((bodyPose(mp, dp, i).rotation - bodyPose(ms, ds, i).rotation).norm() < 1e-12);
      QVERIFY((bodyPose(mp, dp, i).position - bodyPose(ms, ds, i).position).norm() < 1e-12);
    }
  }

  // the generators reproduce spatial_v2's own models in the reference data
  void generatorsMatchSpatialV2_data() {
    QTest::addColumn<QString>("caseName");
    QTest::addColumn<int>("bodies");
    QTest::addColumn<double>("branching");
    QTest::addColumn<double>("skew");
    QTest::addColumn<double>("taper");
    QTest::newRow("autoTree(7)") << "autoTree7_chain/state1" << 7 << 1.0 << 0.0 << 1.0;
    QTest::newRow("autoTree(12,2,pi/3,0.9)")
        << "autoTree12_bf2_skewpi3_taper0.9/state1" << 12 << 2.0 << M_PI / 3 << 0.9;
    QTest::newRow("autoTree(15,1.5,0.7,0.95)")
        << "autoTree15_bf1.5_skew0.7_taper0.95/state1" << 15 << 1.5 << 0.7 << 0.95;
    QTest::newRow("planar(2)") << "planar2/state1" << 2 << 0.0 << 0.0 << 0.0;
    QTest::newRow("planar(5)") << "planar5/state1" << 5 << 0.0 << 0.0 << 0.0;
  }
  void generatorsMatchSpatialV2() {
    QFETCH(QString, caseName);
    QFETCH(int, bodies);
    QFETCH(double, branching);
    QFETCH(double, skew);
    QFETCH(double, taper);
    const nlohmann::json doc = readJsonFile(ARTICULATE_TEST_DATA_DIR "/spatial_v2_cases.json");
    const nlohmann::json* ref = nullptr;
    for (const auto& c : doc["cases"])
      if (c["name"] == caseName.toStdString()) ref = &c;
    QVERIFY(ref);
    ModelSpec gen;
    if (branching == 0.0) {
      gen = planarChain(bodies);
    } else {
      AutoTreeOptions o;
      o.bodies = bodies;
      o.branching = branching;
      o.skew = skew;
      o.taper = taper;
      gen = autoTree(o);
    }
    const Model mg = compile(gen);
    const Model mr = compile(specFromSpatialV2((*ref)["model"]));
    QCOMPARE(mg.parent, mr.parent);
    for (int i = 0; i < mg.nb; ++i) {
      QCOMPARE(mg.joints[i].type, mr.joints[i].type);
      if (mg.arithmetic == Arithmetic::Spatial) {
        QVERIFY(relErr(mg.spatial.Xtree[i].matrix(), mr.spatial.Xtree[i].matrix()) < 1e-14);
        QVERIFY(relErr(mg.spatial.I[i], mr.spatial.I[i]) < 1e-14);
      } else {
        QVERIFY(relErr(mg.planar.Xtree[i].matrix(), mr.planar.Xtree[i].matrix()) < 1e-14);
        QVERIFY(relErr(mg.planar.I[i], mr.planar.I[i]) < 1e-14);
      }
    }
  }
};

ARTICULATE_TEST_MAIN(TestCrossCheck)
#include "test_crosscheck.moc"
