// The free joint: 7 position variables (position, unit quaternion w first) and 6 velocity
// variables (body-coordinate spatial velocity) on a body of the base. Conservation laws and
// closed forms in simulation, agreement with spatial_v2's six-joint emulation away from its
// singularity (and smooth passage through it), ABA/CRBA/RNEA consistency with nq != nv, the
// integrators' orders, rolling contact, the floatbase conversion and the file format.
#include <QtTest>

#include "test_main.h"
#include <limits>

#include <cmath>
#include <random>

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>

#include "articulate/dynamics/configuration.h"
#include "articulate/dynamics/dynamics.h"
#include "articulate/formats/floating_base.h"
#include "articulate/formats/spatial_v2.h"
#include "articulate/formulations/generators.h"
#include "articulate/formats/document.h"
#include "articulate/formats/files.h"
#include "articulate/formulations/tree_simulation.h"
#include "test_util.h"

using namespace art;

namespace {

// one free body with the inertia diag(I) about its COM at `com` (body coordinates)
ModelSpec freeBody(const Vec3& I, const Vec3& com = Vec3::Zero(), double mass = 2.0) {
  ModelSpec s;
  s.name = "free_body";
  s.gravity = Vec3::Zero();
  BodySpec b;
  b.name = "body";
  b.joint = Joint{JointType::Free, 0.0};
  b.inertia = InertiaSpec::fromMassComInertia(mass, com, Mat3(I.asDiagonal()));
  s.bodies.push_back(b);
  return s;
}

// an autoTree with 4 bodies on mixed Rz / Ry joints, floated by spatial_v2's floatbase
ModelSpec sixJointTree() {
  AutoTreeOptions o;
  o.bodies = 4;
  o.branching = 2;
  o.axes = {JointType::Rz, JointType::Ry};
  return floatBase(autoTree(o));
}

Eigen::Quaterniond quatOf(const Eigen::VectorXd& q, int k) {
  return Eigen::Quaterniond(q(k + 3), q(k + 4), q(k + 5), q(k + 6));
}

// RK4 run of a single tumbling body for `T` seconds with step h; the final q
Eigen::VectorXd tumble(const Model& m, Integrator integrator, double h, double T) {
  SimulationOptions o;
  o.integrator = integrator;
  o.dt = h;
  Simulation sim(m, o);
  if (!sim.advanceTo(T)) return Eigen::VectorXd::Constant(m.nq(), std::numeric_limits<double>::quiet_NaN());
  return sim.q();
}

// orientation error (rad) between the quaternions of two configurations of one free body
double angleBetween(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return quatOf(a, 0).normalized().angularDistance(quatOf(b, 0).normalized());
}

}  // namespace

class TestFreeJoint : public QObject {
  Q_OBJECT

 private slots:
  // sizes and index arrays: nq = nv + 1 per free joint, the free joint first
  void layout() {
    const Model m = compile(convertFloatingBases(sixJointTree()));
    QCOMPARE(m.nb, 4);
    QCOMPARE(m.nq(), 7 + 3);
    QCOMPARE(m.nv(), 6 + 3);
    QVERIFY(m.joints[0].type == JointType::Free);
    QCOMPARE(m.qIndex[1], 7);
    QCOMPARE(m.vIndex[1], 6);
    QCOMPARE(int(m.dofParent.size()), m.nv());
    QCOMPARE(m.dofParent[0], -1);
    QCOMPARE(m.dofParent[5], 4);
    QCOMPARE(m.dofParent[6], 5);  // the first child hangs from the free joint's last variable
    QCOMPARE(m.q0.size(), Eigen::Index(m.nq()));
    QCOMPARE(m.qd0.size(), Eigen::Index(m.nv()));
    const Model plain = compile(autoTree(AutoTreeOptions{}));
    QCOMPARE(plain.nq(), plain.nb);
    QCOMPARE(plain.nv(), plain.nb);
    QVERIFY(!plain.hasQuaternions);
  }

  // a free joint below another body, a controller on it or a coupling with it is refused
  // with the field named
  void refusesMisuse() {
    ModelSpec s = freeBody(Vec3(1, 2, 3));
    BodySpec child = s.bodies[0];
    child.name = "child";
    child.parent = 0;
    s.bodies.push_back(child);
    try {
      compile(s);
      QFAIL("a free joint below a body was accepted");
    } catch (const ModelError& e) {
      QCOMPARE(e.bodyIndex(), 1);
      QCOMPARE(QString::fromStdString(e.field()), QString("joint.type"));
    }
    ModelSpec c = freeBody(Vec3(1, 2, 3));
    c.bodies[0].control.type = ControlSpec::Type::Constant;
    QVERIFY_THROWS_EXCEPTION(ModelError, compile(c));
    ModelSpec z = freeBody(Vec3(1, 2, 3));
    z.bodies[0].freeOrientation.setZero();
    QVERIFY_THROWS_EXCEPTION(ModelError, compile(z));
    ModelSpec p = freeBody(Vec3(1, 2, 3));
    p.arithmetic = Arithmetic::Planar;
    QVERIFY_THROWS_EXCEPTION(ModelError, compile(p));
  }

  // zero gravity: linear and angular momentum (base coordinates) and energy stay constant
  // over 10 s of RK4 with 1 ms steps, for a tree on a free joint with a spinning body
  void conservesMomentumAndEnergy() {
    ModelSpec s = convertFloatingBases(sixJointTree());
    s.gravity = Vec3::Zero();
    s.bodies[0].freeOrientation = Eigen::Vector4d(0.9, 0.2, -0.3, 0.1);
    s.bodies[0].freeVelocity << 0.4, -1.1, 0.7, 0.3, -0.2, 0.5;
    for (std::size_t i = 1; i < s.bodies.size(); ++i) s.bodies[i].qd0 = 0.8 - 0.5 * i;
    const Model m = compile(s);
    Simulation sim(m, SimulationOptions{});
    const EnergyMomentum e0 = sim.energy();
    QVERIFY(sim.advanceTo(10.0));
    const EnergyMomentum e1 = sim.energy();
    const double dh = (e1.htot - e0.htot).cwiseAbs().maxCoeff() / e0.htot.cwiseAbs().maxCoeff();
    const double dE = std::abs(e1.kinetic - e0.kinetic) / e0.kinetic;
    qInfo("free tree, 10 s RK4: relative momentum change %.3g, energy change %.3g", dh, dE);
    QVERIFY(e0.kinetic > 0.1);
    QVERIFY(dh < 1e-9);
    QVERIFY(dE < 1e-9);
    QVERIFY(std::abs(quatOf(sim.q(), 0).norm() - 1.0) < 1e-14);
  }

  // ballistic flight: the COM of a spinning body follows p0 + v0 t + g t^2 / 2 and its
  // orientation R0 exp(w t) (spin about a principal axis), for every integrator
  void ballisticFlight_data() {
    QTest::addColumn<int>("integrator");
    QTest::newRow("rk4") << int(Integrator::RK4);
    QTest::newRow("dopri5") << int(Integrator::DormandPrince45);
  }
  void ballisticFlight() {
    QFETCH(int, integrator);
    ModelSpec s = freeBody(Vec3(0.1, 0.2, 0.25));
    s.gravity = Vec3(0, 0, -9.81);
    const Eigen::Quaterniond q0 = Eigen::Quaterniond(0.8, 0.1, 0.5, -0.2).normalized();
    const Vec3 w(0, 3.0, 0);                   // about the principal axis body y
    const Vec3 vWorld(1.5, -0.5, 6.0);          // initial COM velocity (base)
    const Vec3 vBody = q0.conjugate() * vWorld;  // its body coordinates
    s.bodies[0].freePosition = Vec3(0.2, 0.3, 1.0);
    s.bodies[0].freeOrientation = Eigen::Vector4d(q0.w(), q0.x(), q0.y(), q0.z());
    s.bodies[0].freeVelocity.head<3>() = w;
    s.bodies[0].freeVelocity.tail<3>() = vBody;
    const Model m = compile(s);
    SimulationOptions o;
    o.integrator = static_cast<Integrator>(integrator);
    o.dt = 1e-3;
    Simulation sim(m, o);
    const double T = 1.0;
    QVERIFY(sim.advanceTo(T));
    const Vec3 p = Vec3(0.2, 0.3, 1.0) + vWorld * T + 0.5 * T * T * Vec3(0, 0, -9.81);
    const Eigen::Quaterniond qT = q0 * Eigen::Quaterniond(Eigen::AngleAxisd(3.0 * T, Vec3::UnitY()));
    const double dp = (sim.q().head<3>() - p).norm();
    const double dr = quatOf(sim.q(), 0).angularDistance(qT);
    qInfo("ballistic: position error %.3g m, orientation error %.3g rad", dp, dr);
    QVERIFY(dp < 1e-10);
    QVERIFY(dr < 1e-10);
  }

  // rotation about the intermediate axis is unstable (the body flips, Dzhanibekov), yet the
  // quaternion stays a unit one and energy and angular momentum are kept
  void tumblingIntermediateAxis() {
    ModelSpec s = freeBody(Vec3(1.0, 2.0, 3.0), Vec3::Zero(), 1.0);
    s.bodies[0].freeVelocity << 0.01, 3.0, 0.01, 0, 0, 0;
    const Model m = compile(s);
    Simulation sim(m, SimulationOptions{});
    const EnergyMomentum e0 = sim.energy();
    double maxNormError = 0.0, wyMin = 3.0;
    while (sim.time() < 20.0 - 1e-9) {
      QVERIFY(sim.step());
      maxNormError = std::max(maxNormError, std::abs(quatOf(sim.q(), 0).norm() - 1.0));
      wyMin = std::min(wyMin, sim.qd()(1));
    }
    const EnergyMomentum e1 = sim.energy();
    const double dE = std::abs(e1.kinetic - e0.kinetic) / e0.kinetic;
    const double dL = (e1.htot - e0.htot).norm() / e0.htot.norm();
    qInfo("tumbling: |quat| error %.3g, energy change %.3g, momentum change %.3g, min wy %.3f",
          maxNormError, dE, dL, wyMin);
    QVERIFY(wyMin < -2.9);  // it flipped
    QVERIFY(maxNormError < 1e-14);
    QVERIFY(dE < 1e-7);
    QVERIFY(dL < 1e-7);
  }

  // RK4 is 4th order and semi-implicit Euler 1st order on the quaternion state: halving the
  // step divides the error by about 16 and 2
  void convergenceOrder_data() {
    QTest::addColumn<int>("integrator");
    QTest::addColumn<double>("order");
    QTest::newRow("rk4") << int(Integrator::RK4) << 4.0;
    QTest::newRow("euler") << int(Integrator::SemiImplicitEuler) << 1.0;
  }
  void convergenceOrder() {
    QFETCH(int, integrator);
    QFETCH(double, order);
    ModelSpec s = freeBody(Vec3(1.0, 2.0, 3.0), Vec3(0.1, -0.05, 0.2), 1.0);
    s.gravity = Vec3(0, 0, -9.81);
    s.bodies[0].freeVelocity << 1.5, 2.0, -1.0, 0.5, 0.2, 1.0;
    const Model m = compile(s);
    const double T = 1.0;
    const Eigen::VectorXd ref = tumble(m, Integrator::RK4, 1e-4, T);
    const auto err = [&](double h) {
      const Eigen::VectorXd q = tumble(m, static_cast<Integrator>(integrator), h, T);
      return (q.head<3>() - ref.head<3>()).norm() + angleBetween(q, ref);
    };
    const double h = order > 2 ? 0.02 : 0.002;
    const double e1 = err(h), e2 = err(h / 2);
    const double observed = std::log2(e1 / e2);
    qInfo("observed order %.3f (errors %.3g, %.3g)", observed, e1, e2);
    QVERIFY(std::abs(observed - order) < 0.3);
  }

  // the same tree as a free joint and as the six-joint emulation, at random states away from
  // the singularity: the same accelerations (the free body's qdd being its spatial
  // acceleration, which RNEA on the six-joint form gives), and for the free form ABA = CRBA
  // (H qdd + C = tau with the nv x nv H), RNEA(ABA(tau)) = tau
  void matchesSixJointEmulation() {
    const ModelSpec six = sixJointTree();
    const ModelSpec fr = convertFloatingBases(six);
    const Model ms = compile(six), mf = compile(fr);
    Data ds(ms), df(mf);
    std::mt19937 rng(7);
    for (int trial = 0; trial < 20; ++trial) {
      Eigen::VectorXd qs = testutil::randomVector(ms.nq(), rng, -1.2, 1.2);
      const Eigen::VectorXd qds = testutil::randomVector(ms.nv(), rng);
      Eigen::VectorXd taus = testutil::randomVector(ms.nv(), rng);
      taus.head<6>().setZero();  // the emulation's joints are passive
      Eigen::VectorXd qf, qdf;
      convertFloatingBaseState(six, qs, qds, qf, qdf);
      const Eigen::VectorXd tauf =
          (Eigen::VectorXd(mf.nv()) << Eigen::VectorXd::Zero(6), taus.tail(ms.nv() - 6)).finished();
      const Eigen::VectorXd qdds = aba(ms, ds, qs, qds, taus);
      const Eigen::VectorXd qddf = aba(mf, df, qf, qdf, tauf);
      // the free body's spatial acceleration (with the fictitious gravity) in both forms
      rnea(ms, ds, qs, qds, qdds);
      rnea(mf, df, qf, qdf, qddf);
      const double da = testutil::relErr(df.spatial.a[0], ds.spatial.a[5]);
      const double dq = testutil::relErr(qddf.tail(mf.nv() - 6), qdds.tail(ms.nv() - 6));
      QVERIFY2(da < 1e-10 && dq < 1e-10, qPrintable(QString("trial %1: %2 %3").arg(trial).arg(da).arg(dq)));
      // ABA = CRBA and RNEA(ABA) = tau on the free form
      crba(mf, df, qf);
      biasForces(mf, df, qf, qdf);
      QCOMPARE(df.H.rows(), Eigen::Index(mf.nv()));
      QVERIFY(testutil::relErr(df.H * qddf + df.C, tauf) < 1e-10);
      const Eigen::VectorXd qddc = forwardDynamicsCrb(mf, df, qf, qdf, tauf);
      QVERIFY(testutil::relErr(qddc, qddf) < 1e-10);
      QVERIFY(testutil::relErr(rnea(mf, df, qf, qdf, qddf), tauf) < 1e-10);
      // the kinetic energy agrees
      const double ks = energyMomentum(ms, ds, qs, qds).kinetic;
      const double kf = energyMomentum(mf, df, qf, qdf).kinetic;
      QVERIFY(std::abs(ks - kf) < 1e-10 * std::max(1.0, ks));
    }
  }

  // external forces act alike on both forms
  void externalForcesMatch() {
    const ModelSpec six = sixJointTree();
    const ModelSpec fr = convertFloatingBases(six);
    const Model ms = compile(six), mf = compile(fr);
    Data ds(ms), df(mf);
    std::mt19937 rng(3);
    const Eigen::VectorXd qs = testutil::randomVector(ms.nq(), rng, -1, 1);
    const Eigen::VectorXd qds = testutil::randomVector(ms.nv(), rng);
    Eigen::VectorXd qf, qdf;
    convertFloatingBaseState(six, qs, qds, qf, qdf);
    ExternalForces fs = ExternalForces::Zero(6, ms.nb);
    const ExternalForces ff = testutil::randomMatrix(6, mf.nb, rng);
    fs.rightCols(mf.nb) = ff;
    const Eigen::VectorXd qdds = aba(ms, ds, qs, qds, Eigen::VectorXd::Zero(ms.nv()), &fs);
    const Eigen::VectorXd qddf = aba(mf, df, qf, qdf, Eigen::VectorXd::Zero(mf.nv()), &ff);
    rnea(ms, ds, qs, qds, qdds, &fs);
    rnea(mf, df, qf, qdf, qddf, &ff);
    QVERIFY(testutil::relErr(df.spatial.a[0], ds.spatial.a[5]) < 1e-10);
    QVERIFY(testutil::relErr(qddf.tail(3), qdds.tail(3)) < 1e-10);
  }

  // at pitch (the Ry angle) = 90 degrees the six-joint emulation's joint-space inertia is
  // singular; the free joint's is not, and a body spinning through that orientation moves
  // smoothly: with an isotropic inertia its angular velocity is constant, R(t) = R0 exp(w t)
  void passesThroughTheSingularity() {
    ModelSpec six = floatBase(freeBodySixJointBase());
    const Model ms = compile(six);
    Data ds(ms);
    Eigen::VectorXd qs = Eigen::VectorXd::Zero(ms.nq());
    qs(4) = M_PI / 2;
    crba(ms, ds, qs);
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(ds.H, Eigen::EigenvaluesOnly);
    const double sixRatio = es.eigenvalues().minCoeff() / es.eigenvalues().maxCoeff();
    QVERIFY(sixRatio < 1e-12);

    ModelSpec s = freeBody(Vec3(0.5, 0.5, 0.5), Vec3::Zero(), 1.0);
    const Eigen::Quaterniond q0(Eigen::AngleAxisd(1.3, Vec3::UnitY()));
    const Vec3 w(0.0, 1.2, 0.0);  // about body y: the pitch runs through 90 degrees at 0.22 s
    s.bodies[0].freeOrientation = Eigen::Vector4d(q0.w(), q0.x(), q0.y(), q0.z());
    s.bodies[0].freeVelocity.head<3>() = w;
    const Model m = compile(s);
    Data d(m);
    Eigen::VectorXd qf(7);
    qf << 0, 0, 0, 1, 0, 0, 0;
    const Eigen::Quaterniond atPitch90(Eigen::AngleAxisd(M_PI / 2, Vec3::UnitY()));
    qf.tail<4>() << atPitch90.w(), atPitch90.x(), atPitch90.y(), atPitch90.z();
    crba(m, d, qf);
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> ef(d.H, Eigen::EigenvaluesOnly);
    QVERIFY(ef.eigenvalues().minCoeff() / ef.eigenvalues().maxCoeff() > 0.4);

    Simulation sim(m, SimulationOptions{});
    double maxPitch = 0.0, maxErr = 0.0;
    while (sim.time() < 3.0 - 1e-9) {
      QVERIFY(sim.step());
      const Eigen::Quaterniond qt = quatOf(sim.q(), 0);
      const Mat3 R = qt.toRotationMatrix();
      maxPitch = std::max(maxPitch, std::asin(std::min(1.0, std::abs(R(0, 2)))));
      const Eigen::Quaterniond exact =
          q0 * Eigen::Quaterniond(Eigen::AngleAxisd(w.norm() * sim.time(), w.normalized()));
      maxErr = std::max(maxErr, qt.angularDistance(exact));
    }
    qInfo("six-joint H at pitch 90: eigenvalue ratio %.3g; free joint: max pitch %.6f rad, max "
          "orientation error %.3g rad",
          sixRatio, maxPitch, maxErr);
    QVERIFY(maxPitch > M_PI / 2 - 1e-3);  // it went through (or within 1e-3 rad of) 90 degrees
    QVERIFY(maxErr < 1e-10);
  }

  // spatial_v2's rolling disc on the free joint rolls a full turn on its rim (axle along body
  // y, which would take the six-joint emulation into its singularity after a quarter turn)
  void rollingDiscRollsAFullTurn() {
    const ModelSpec spec = convertFloatingBases(rollingDisc(32));
    QCOMPARE(spec.bodies.size(), std::size_t(1));
    QVERIFY(spec.bodies[0].joint.type == JointType::Free);
    const Model m = compile(spec);
    Data d(m);
    const double R = 0.05, v = 0.4;
    Eigen::VectorXd q = m.q0, qd = Eigen::VectorXd::Zero(m.nv());
    qd(1) = v / R;  // rolling about the axle, body y
    qd(3) = v;      // the centre moves along x
    q(2) -= contactPositionsVelocities(m, d, q, qd).row(2).minCoeff();  // rim on the floor
    Simulation sim(m, SimulationOptions{});
    sim.setState(0, q, qd);
    double turned = 0.0, lowest = 1.0;
    while (turned < 2 * M_PI) {
      const double w = sim.qd()(1);
      QVERIFY2(sim.step(), sim.divergence() ? sim.divergence()->message.c_str() : "");
      turned += 0.5 * (w + sim.qd()(1)) * 1e-3;
      lowest = std::min(lowest, contactPositionsVelocities(m, d, sim.q(), sim.qd()).row(2).minCoeff());
      QVERIFY(sim.time() < 2.0);
    }
    const double moved = sim.q()(0) - q(0);
    qInfo("rolling disc: a full turn in %.3f s, moved %.4f m (2 pi R = %.4f), lowest point %.3g mm",
          sim.time(), moved, 2 * M_PI * R, lowest * 1e3);
    QVERIFY(lowest > -2e-3);
    QVERIFY(std::abs(moved - 2 * M_PI * R) < 0.1 * 2 * M_PI * R);
  }

  // convertFloatingBases maps spatial_v2's floatbase model to one free body with the same
  // motion: poses of every real body agree after 1 s of RK4 from the same initial state
  void conversionKeepsTheMotion() {
    ModelSpec six = sixJointTree();
    six.gravity = Vec3(0, 0, -9.81);
    const double q0[6] = {0.1, -0.2, 0.5, 0.3, -0.4, 0.6}, qd0[6] = {0.5, 0.1, 2.0, 0.7, -0.3, 1.1};
    for (int k = 0; k < 6; ++k) {
      six.bodies[k].q0 = q0[k];
      six.bodies[k].qd0 = qd0[k];
    }
    six.bodies[7].q0 = 0.4;
    six.bodies[8].qd0 = -0.9;
    six.camera.body = 5;
    QVERIFY(hasFloatingBases(six));
    const ModelSpec fr = convertFloatingBases(six);
    QVERIFY(!hasFloatingBases(fr));
    QCOMPARE(fr.bodies.size(), six.bodies.size() - 5);
    QVERIFY(fr.bodies[0].name == six.bodies[5].name);
    QCOMPARE(fr.bodies[2].q0, 0.4);
    QCOMPARE(fr.bodies[3].qd0, -0.9);
    QCOMPARE(fr.camera.body, 0);
    ModelSpec withContact = six;
    withContact.contacts.push_back({7, Vec3(1, 0, 0)});
    withContact.forces.push_back({8, Vec3::Zero(), Vec3(1, 0, 0), Vec3::Zero()});
    const ModelSpec frc = convertFloatingBases(withContact);
    QCOMPARE(frc.contacts[0].body, 2);
    QCOMPARE(frc.forces[0].body, 3);
    const Model ms = compile(six), mf = compile(fr);
    Simulation ss(ms, SimulationOptions{}), sf(mf, SimulationOptions{});
    QVERIFY(ss.advanceTo(1.0));
    QVERIFY(sf.advanceTo(1.0));
    Data ds(ms), df(mf);
    forwardKinematics(ms, ds, ss.q());
    forwardKinematics(mf, df, sf.q());
    double worst = 0.0;
    for (int i = 0; i < mf.nb; ++i) {
      const BodyPose a = bodyPose(ms, ds, i + 5), b = bodyPose(mf, df, i);
      worst = std::max({worst, (a.position - b.position).norm(), (a.rotation - b.rotation).norm()});
    }
    qInfo("six-joint vs free after 1 s: largest pose difference %.3g", worst);
    QVERIFY(worst < 1e-9);
    // loading converts (spatial_v2 and Articulate documents alike), unless asked not to
    Diagnostics problems;
    const auto sv2 =
        readModelDocument(nlohmann::json::parse(specToSpatialV2(six).dump()), problems, true);
    QVERIFY(sv2);
    QCOMPARE(sv2->spec.bodies.size(), fr.bodies.size());
    QVERIFY(sv2->spec.bodies[0].joint.type == JointType::Free);
    const auto art = readModelDocument(nlohmann::json::parse(specToJson(six).dump()), problems, true);
    QVERIFY(art);
    QVERIFY(art->spec.bodies[0].joint.type == JointType::Free);
    QVERIFY(art->spec.bodies[0].freeVelocity == fr.bodies[0].freeVelocity);
    const auto asIs = readModelDocument(nlohmann::json::parse(specToJson(six).dump()), problems, false);
    QVERIFY(asIs);
    QCOMPARE(asIs->spec.bodies.size(), six.bodies.size());
    QVERIFY(problems.empty());
    // a spatial_v2 motion beside the model is mapped sample by sample
    nlohmann::json withMotion = nlohmann::json::parse(specToSpatialV2(six).dump());
    const Eigen::VectorXd qa = ms.q0, qb = ms.q0 + Eigen::VectorXd::Constant(ms.nq(), 0.25);
    withMotion["t"] = {0.0, 1.0};
    withMotion["q"] = nlohmann::json::array();
    for (const Eigen::VectorXd* s6 : {&qa, &qb})
      withMotion["q"].push_back(std::vector<double>(s6->data(), s6->data() + s6->size()));
    const auto moved = readModelDocument(withMotion, problems);
    QVERIFY(moved && moved->motion);
    QCOMPARE(moved->motion->q.cols(), Eigen::Index(mf.nq()));
    Eigen::VectorXd qExpected, qdExpected;
    convertFloatingBaseState(six, qb, Eigen::VectorXd::Zero(ms.nv()), qExpected, qdExpected);
    QVERIFY((moved->motion->q.row(1).transpose() - qExpected).norm() < 1e-12);
    // a chain with mass on an intermediate body is not spatial_v2's emulation
    ModelSpec heavy = six;
    heavy.bodies[2].inertia = InertiaSpec::fromMassComInertia(1, Vec3::Zero(), Mat3::Identity());
    QVERIFY(!hasFloatingBases(heavy));
  }

  // expandFreeJoints (spatial_v2 export) inverts the conversion, initial state included
  void expansionInvertsConversion() {
    ModelSpec s = convertFloatingBases(sixJointTree());
    s.bodies[0].freePosition = Vec3(0.3, -0.1, 0.8);
    s.bodies[0].freeOrientation = Eigen::Vector4d(0.7, 0.3, -0.2, 0.4);
    s.bodies[0].freeVelocity << 0.3, -0.6, 0.9, 1.0, -0.4, 0.2;
    const ModelSpec six = expandFreeJoints(s);
    QCOMPARE(six.bodies.size(), s.bodies.size() + 5);
    QVERIFY(six.bodies[5].joint.type == JointType::Rz);
    const ModelSpec back = convertFloatingBases(six);
    QCOMPARE(back.bodies.size(), s.bodies.size());
    QVERIFY((back.bodies[0].freePosition - s.bodies[0].freePosition).norm() < 1e-12);
    const Eigen::Vector4d o = s.bodies[0].freeOrientation.normalized();
    const Eigen::Vector4d ob = back.bodies[0].freeOrientation;
    QVERIFY(std::min((ob - o).norm(), (ob + o).norm()) < 1e-12);
    QVERIFY((back.bodies[0].freeVelocity - s.bodies[0].freeVelocity).norm() < 1e-12);
  }

  // the file format: "joint": "free" with its initial state round-trips exactly; problems
  // are reported by JSON path
  void format() {
    ModelSpec s = convertFloatingBases(sixJointTree());
    s.bodies[0].freePosition = Vec3(0.25, -1.5, 3.0);
    s.bodies[0].freeOrientation = Eigen::Vector4d(0.5, 0.5, -0.5, 0.5);
    s.bodies[0].freeVelocity << 1, 2, 3, 4, 5, 6.125;
    const std::string text = formatJson(specToJson(s));
    QVERIFY(text.find("\"free\"") != std::string::npos);
    ModelSpec back;
    Diagnostics problems;
    specFromJson(nlohmann::json::parse(text), back, problems);
    QVERIFY(problems.empty());
    QCOMPARE(formatJson(specToJson(back)), text);
    QVERIFY(back.bodies[0].freeVelocity == s.bodies[0].freeVelocity);
    QVERIFY(back.bodies[0].freeOrientation == s.bodies[0].freeOrientation);

    auto problemsOf = [](nlohmann::json doc) {
      ModelSpec out;
      Diagnostics d;
      specFromJson(doc, out, d);
      QString all;
      for (const auto& p : d) all += QString::fromStdString(p.text()) + "\n";
      return all;
    };
    nlohmann::json doc = nlohmann::json::parse(text);
    nlohmann::json bad = doc;
    bad["bodies"][0]["initial"]["orientation"] = {0, 0, 0, 0};
    QVERIFY(problemsOf(bad).contains("bodies[0].initial.orientation"));
    bad = doc;
    bad["bodies"][0]["initial"] = {{"q", 1.0}};
    QVERIFY(problemsOf(bad).contains("bodies[0].initial.q: unknown field"));
    bad = doc;
    bad["bodies"][1]["joint"] = "free";
    QVERIFY(problemsOf(bad).contains("bodies[1].joint.type"));
    bad = doc;
    bad["bodies"][0]["initial"]["velocity"] = {1, 2, 3};
    QVERIFY(problemsOf(bad).contains("bodies[0].initial.velocity"));
  }

 private:
  // a single unit box-like body on the base by an Rz joint, for floatBase
  static ModelSpec freeBodySixJointBase() {
    ModelSpec s;
    s.gravity = Vec3::Zero();
    BodySpec b;
    b.name = "box";
    b.inertia = InertiaSpec::fromMassComInertia(1.0, Vec3::Zero(), Mat3(Vec3(0.5, 0.5, 0.5).asDiagonal()));
    s.bodies.push_back(b);
    return s;
  }
};

ARTICULATE_TEST_MAIN(TestFreeJoint)
#include "test_free_joint.moc"
