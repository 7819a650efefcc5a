// The ball joint: 4 position variables (unit quaternion, w first) and 3 velocity variables
// (body-coordinate angular velocity), anywhere in the tree. Checked against an independent
// form of the same mechanism: each ball replaced by three revolute joints Rx, Ry, Rz through
// its centre (two massless bodies between), whose single-DoF algorithms are checked against
// spatial_v2 elsewhere. At corresponding states the two forms give every body the same spatial
// acceleration and the other joints the same qdd (ABA), each form's ABA, CRBA and RNEA agree,
// and the kinetic energy is the same. In simulation: a spherical pendulum keeps its energy and
// its angular momentum about the vertical, a damped ball chain's E + dissipated stays E0, the
// configuration derivative is that of the integrator's exponential map, and the file format
// round-trips and refuses misuse with its JSON path.
#include <QtTest>

#include "test_main.h"

#include <cmath>
#include <random>

#include <Eigen/Geometry>

#include "articulate/dynamics/configuration.h"
#include "articulate/dynamics/dynamics.h"
#include "articulate/formats/articulate.h"
#include "articulate/formats/json.h"
#include "articulate/formats/spatial_v2.h"
#include "articulate/formats/urdf.h"
#include "articulate/formulations/tree_simulation.h"
#include "test_util.h"

using namespace art;

namespace {

Mat3 randomRotation(std::mt19937& rng) {
  const Eigen::Vector4d v = testutil::randomVector(4, rng, -1, 1);
  return Eigen::Quaterniond(v(0), v(1), v(2), v(3)).normalized().toRotationMatrix();
}

InertiaSpec randomInertia(std::mt19937& rng) {
  const Mat3 R = randomRotation(rng);
  const Vec3 d = testutil::randomVector(3, rng, 0.05, 0.3);
  // principal moments obeying the triangle inequality: sums of positive parts
  const Vec3 I(d.y() + d.z(), d.x() + d.z(), d.x() + d.y());
  return InertiaSpec::fromMassComInertia(0.5 + std::abs(d.sum()), testutil::randomVector(3, rng, -0.3, 0.3),
                                         R * I.asDiagonal() * R.transpose());
}

// The same random tree in two forms: `ball` with ball joints on the bodies listed in `balls`
// (rotated placements, offsets, COMs away from the centre), and `euler` with each of them
// replaced by Rx and Ry bodies (massless) and the body itself on Rz, the first carrying the
// ball's placement. body[i] is body i of `ball` in `euler`.
struct TwoForms {
  ModelSpec ball, euler;
  std::vector<int> body;
};

TwoForms randomTree(int n, const std::vector<int>& balls, std::mt19937& rng, bool floating = false) {
  TwoForms t;
  t.ball.gravity = Vec3(0.3, -0.2, -9.81);
  t.euler.gravity = t.ball.gravity;
  static constexpr JointType kTypes[4] = {JointType::Rz, JointType::Ry, JointType::Px, JointType::Rx};
  for (int i = 0; i < n; ++i) {
    BodySpec b;
    b.name = "b" + std::to_string(i);
    b.parent = i == 0 ? -1 : static_cast<int>(rng() % static_cast<unsigned>(i));
    b.joint.type = kTypes[i % 4];
    if (floating && i == 0) b.joint.type = JointType::Free;
    b.rotation = randomRotation(rng);
    b.translation = testutil::randomVector(3, rng, -0.5, 0.5);
    b.inertia = randomInertia(rng);
    const bool isBall = std::find(balls.begin(), balls.end(), i) != balls.end();
    if (isBall) b.joint.type = JointType::Ball;
    t.ball.bodies.push_back(b);
    b.parent = b.parent < 0 ? -1 : t.body[static_cast<std::size_t>(b.parent)];
    if (isBall) {
      BodySpec x = b, y = b;
      x.name += "_x";
      x.joint.type = JointType::Rx;
      x.inertia = InertiaSpec{};
      y.name += "_y";
      y.joint.type = JointType::Ry;
      y.inertia = InertiaSpec{};
      y.parent = static_cast<int>(t.euler.bodies.size());
      y.rotation.setIdentity();
      y.translation.setZero();
      t.euler.bodies.push_back(x);
      t.euler.bodies.push_back(y);
      b.joint.type = JointType::Rz;
      b.parent = y.parent + 1;
      b.rotation.setIdentity();
      b.translation.setZero();
    }
    t.body.push_back(static_cast<int>(t.euler.bodies.size()));
    t.euler.bodies.push_back(b);
  }
  return t;
}

// A random state of the Euler form and the ball form's state of the same motion: the ball's
// quaternion is the rotation Rx(a) Ry(b) Rz(c) (E = rotz(c) roty(b) rotx(a) the coordinate
// transform), its angular velocity w = Ez Ey e1 a' + Ez e2 b' + e3 c' in body coordinates
void states(const TwoForms& t, const Model& mb, const Model& me, std::mt19937& rng, Eigen::VectorXd& qb,
            Eigen::VectorXd& qdb, Eigen::VectorXd& qe, Eigen::VectorXd& qde) {
  qe = testutil::randomVector(me.nq(), rng, -1.4, 1.4);
  qde = testutil::randomVector(me.nv(), rng, -2, 2);
  qb.resize(mb.nq());
  qdb.resize(mb.nv());
  for (int i = 0; i < mb.nb; ++i) {
    const int e = t.body[static_cast<std::size_t>(i)];
    const int qi = mb.qIndex[i], vi = mb.vIndex[i], qj = me.qIndex[e], vj = me.vIndex[e];
    if (mb.joints[i].type == JointType::Ball) {
      const double a = qe(qj - 2), b = qe(qj - 1), c = qe(qj);
      const Mat3 Ez = rotzE(c), Ey = rotyE(b), E = Ez * Ey * rotxE(a);
      const Eigen::Quaterniond quat(Mat3(E.transpose()));
      qb.segment<4>(qi) << quat.w(), quat.x(), quat.y(), quat.z();
      qdb.segment<3>(vi) = Ez * Ey * Vec3::UnitX() * qde(vj - 2) + Ez * Vec3::UnitY() * qde(vj - 1) +
                           Vec3::UnitZ() * qde(vj);
    } else if (mb.joints[i].type == JointType::Free) {
      Eigen::Vector4d quat = qe.segment<4>(qj + 3).normalized();
      qe.segment<4>(qj + 3) = quat;
      qb.segment<7>(qi) = qe.segment<7>(qj);
      qdb.segment<6>(vi) = qde.segment<6>(vj);
    } else {
      qb(qi) = qe(qj);
      qdb(vi) = qde(vj);
    }
  }
}

ModelSpec sphericalPendulum() {
  ModelSpec s;
  s.gravity = Vec3(0, 0, -9.81);
  BodySpec b;
  b.name = "bob";
  b.joint.type = JointType::Ball;
  b.inertia = InertiaSpec::fromMassComInertia(1.5, Vec3(0.1, 0.05, -0.8), Mat3(Vec3(0.02, 0.03, 0.01).asDiagonal()));
  b.freeOrientation = Eigen::Vector4d(0.9, 0.3, -0.2, 0.1);
  b.freeVelocity.head<3>() = Vec3(0.5, -1.2, 2.5);
  s.bodies.push_back(b);
  return s;
}

}  // namespace

class TestBallJoint : public QObject {
  Q_OBJECT

 private slots:
  // sizes, indices and the expanded tree of the velocity variables
  void layout() {
    std::mt19937 rng(1);
    const TwoForms t = randomTree(5, {1, 3}, rng);
    const Model m = compile(t.ball);
    QCOMPARE(m.nq(), 3 + 2 * 4);
    QCOMPARE(m.nv(), 3 + 2 * 3);
    QVERIFY(m.hasQuaternions);
    QCOMPARE(m.qIndex, (std::vector<int>{0, 1, 5, 6, 10}));
    QCOMPARE(m.vIndex, (std::vector<int>{0, 1, 4, 5, 8}));
    // a ball's three variables form a chain under its parent's last one
    QCOMPARE(m.dofParent[1], m.parent[1] < 0 ? -1 : m.vIndex[m.parent[1]] + m.jointNv(m.parent[1]) - 1);
    QCOMPARE(m.dofParent[2], 1);
    QCOMPARE(m.dofParent[3], 2);
    QVERIFY(m.q0.segment<4>(1) == Eigen::Vector4d(1, 0, 0, 0));
  }

  // the two forms at corresponding states: the same body accelerations, qdd of the other
  // joints and kinetic energy; ABA = CRBA, RNEA(ABA) = tau and KE = qd' H qd / 2 in the ball form
  void matchesThreeRevolutes_data() {
    QTest::addColumn<int>("seed");
    QTest::addColumn<bool>("floating");
    QTest::addColumn<bool>("armature");
    QTest::newRow("fixed base") << 2 << false << false;
    QTest::newRow("fixed base, armature") << 3 << false << true;
    QTest::newRow("floating base") << 4 << true << false;
  }
  void matchesThreeRevolutes() {
    QFETCH(int, seed);
    QFETCH(bool, floating);
    QFETCH(bool, armature);
    std::mt19937 rng(static_cast<unsigned>(seed));
    TwoForms t = randomTree(9, {1, 2, 5, 8}, rng, floating);
    if (armature) {  // on the non-ball joints only: the Euler form's rotors would differ
      t.ball.bodies[3].armature = 0.07;
      t.euler.bodies[static_cast<std::size_t>(t.body[3])].armature = 0.07;
    }
    const Model mb = compile(t.ball), me = compile(t.euler);
    Data db(mb), de(me);
    double worst = 0;
    for (int trial = 0; trial < 10; ++trial) {
      Eigen::VectorXd qb, qdb, qe, qde;
      states(t, mb, me, rng, qb, qdb, qe, qde);
      Eigen::VectorXd taub = testutil::randomVector(mb.nv(), rng), taue = Eigen::VectorXd::Zero(me.nv());
      for (int i = 0; i < mb.nb; ++i) {
        if (hasQuaternion(mb.joints[i].type))
          taub.segment(mb.vIndex[i], mb.jointNv(i)).setZero();  // passive: the forms' forces differ
        else
          taue(me.vIndex[t.body[static_cast<std::size_t>(i)]]) = taub(mb.vIndex[i]);
      }
      const Eigen::VectorXd qddb = aba(mb, db, qb, qdb, taub);
      const Eigen::VectorXd qdde = aba(me, de, qe, qde, taue);
      rnea(mb, db, qb, qdb, qddb);
      rnea(me, de, qe, qde, qdde);
      for (int i = 0; i < mb.nb; ++i) {
        const int e = t.body[static_cast<std::size_t>(i)];
        worst = std::max(worst, testutil::relErr(db.spatial.a[i], de.spatial.a[e]));
        worst = std::max(worst, testutil::relErr(db.spatial.v[i], de.spatial.v[e]));
        if (!hasQuaternion(mb.joints[i].type))
          worst = std::max(worst, std::abs(qddb(mb.vIndex[i]) - qdde(me.vIndex[e])) / std::max(1.0, qddb.cwiseAbs().maxCoeff()));
      }
      const double kb = energyMomentum(mb, db, qb, qdb).kinetic, ke = energyMomentum(me, de, qe, qde).kinetic;
      QVERIFY2(std::abs(kb - ke) < 1e-12 * std::max(1.0, kb), qPrintable(QString::number(kb - ke)));
      // the ball form's own algorithms agree
      crba(mb, db, qb);
      biasForces(mb, db, qb, qdb);
      QVERIFY(testutil::relErr(db.H * qddb + db.C, taub) < 1e-11);
      QVERIFY(testutil::relErr(forwardDynamicsCrb(mb, db, qb, qdb, taub), qddb) < 1e-11);
      QVERIFY(testutil::relErr(rnea(mb, db, qb, qdb, qddb), taub) < 1e-11);
      crba(mb, db, qb);
      QVERIFY(std::abs(0.5 * qdb.dot(db.H * qdb) - kb) < 1e-12 * std::max(1.0, kb));
      QVERIFY((db.H - db.H.transpose()).cwiseAbs().maxCoeff() < 1e-14 * db.H.cwiseAbs().maxCoeff());
    }
    qInfo("ball form against the three-revolute form, 10 states: worst relative gap %.3g", worst);
    QVERIFY2(worst < 1e-11, qPrintable(QString::number(worst)));
  }

  // the test can fail: a ball state that is not the Euler state's (its angular velocity in the
  // joint frame instead of the body's) gives different accelerations
  void wrongVelocityFrameIsSeen() {
    std::mt19937 rng(5);
    const TwoForms t = randomTree(4, {1}, rng);
    const Model mb = compile(t.ball), me = compile(t.euler);
    Data db(mb), de(me);
    Eigen::VectorXd qb, qdb, qe, qde;
    states(t, mb, me, rng, qb, qdb, qe, qde);
    const Eigen::Quaterniond quat(qb(1), qb(2), qb(3), qb(4));
    qdb.segment<3>(1) = quat * Vec3(qdb.segment<3>(1));  // joint-frame coordinates
    aba(mb, db, qb, qdb, Eigen::VectorXd::Zero(mb.nv()));
    aba(me, de, qe, qde, Eigen::VectorXd::Zero(me.nv()));
    rnea(mb, db, qb, qdb, db.qdd);
    rnea(me, de, qe, qde, de.qdd);
    QVERIFY(testutil::relErr(db.spatial.a[1], de.spatial.a[t.body[1]]) > 1e-3);
  }

  // a spherical pendulum over 10 s of RK4: energy, and angular momentum about the vertical
  // through the pivot, stay; the quaternion stays a unit one
  void sphericalPendulumConserves() {
    const Model m = compile(sphericalPendulum());
    SimulationOptions o;
    o.dt = 1e-3;
    Simulation sim(m, o);
    const EnergyMomentum e0 = sim.energy();
    QVERIFY(sim.advanceTo(10.0));
    const EnergyMomentum e1 = sim.energy();
    const double E0 = e0.kinetic + e0.potential, E1 = e1.kinetic + e1.potential;
    const double dE = std::abs(E1 - E0) / e0.kinetic, dL = std::abs(e1.htot(2) - e0.htot(2)) / std::abs(e0.htot(2));
    qInfo("spherical pendulum, 10 s RK4: energy change %.3g, Lz change %.3g (relative)", dE, dL);
    QVERIFY(std::abs(e0.htot(2)) > 0.1);
    QVERIFY(dE < 1e-9);
    QVERIFY(dL < 1e-9);
    QVERIFY(std::abs(sim.q().segment<4>(0).norm() - 1.0) < 1e-14);
    // it moved: not a resting state
    QVERIFY((sim.q().segment<4>(0) - m.q0.segment<4>(0)).norm() > 0.1);
  }

  // a chain of three damped ball joints with armature: E + dissipated stays E0, and the
  // damping took energy out
  void dampedChainAccountsTheEnergy() {
    std::mt19937 rng(8);
    TwoForms t = randomTree(3, {0, 1, 2}, rng);
    for (std::size_t i = 0; i < 3; ++i) {
      t.ball.bodies[i].parent = static_cast<int>(i) - 1;
      t.ball.bodies[i].damping = 0.05;
      t.ball.bodies[i].armature = 0.02;
      t.ball.bodies[i].freeVelocity.head<3>() = testutil::randomVector(3, rng, -2, 2);
    }
    const Model m = compile(t.ball);
    SimulationOptions o;
    o.dt = 1e-3;
    Simulation sim(m, o);
    const EnergyMomentum e0 = sim.energy();
    QVERIFY(sim.advanceTo(3.0));
    const EnergyMomentum e1 = sim.energy();
    const double E0 = e0.kinetic + e0.potential, E1 = e1.kinetic + e1.potential;
    const double gap = std::abs(E1 + sim.energyDissipated() - E0);
    qInfo("damped ball chain, 3 s RK4: dissipated %.6g J, |E + dissipated - E0| %.3g J", sim.energyDissipated(), gap);
    QVERIFY(sim.energyDissipated() > 0.01);
    QVERIFY(gap < 1e-7);
    // without damping's accounting the gap would be the dissipated energy itself
    QVERIFY(gap < 1e-4 * sim.energyDissipated());
  }

  // a loop through ball joints: two links hang from the base in a V whose tip is pinned to a
  // base point below the first pivot; under sideways gravity the V swings about the vertical
  // through both pins like a door, the pin holds and the energy stays
  void loopThroughBallJoints() {
    ModelSpec s;
    s.gravity = Vec3(-9.81, 0, 0);
    for (int i = 0; i < 2; ++i) {
      BodySpec b;
      b.name = i ? "lower" : "upper";
      b.parent = i - 1;
      b.joint.type = JointType::Ball;
      if (i) b.translation = Vec3(0, 0, -0.5);
      b.inertia = InertiaSpec::fromMassComInertia(1.0, Vec3(0.02, 0, -0.25), Mat3(Vec3(0.021, 0.02, 0.001).asDiagonal()));
      // upper turned by +60 degrees about x, lower by -120 relative: the tip is at (0, 0, -0.5)
      const Eigen::Quaterniond turn(Eigen::AngleAxisd(i ? -2 * M_PI / 3 : M_PI / 3, Vec3::UnitX()));
      b.freeOrientation << turn.w(), turn.x(), turn.y(), turn.z();
      s.bodies.push_back(b);
    }
    ConstraintSpec pin;
    pin.type = ConstraintSpec::Type::Loop;
    pin.bodyA = 1;
    pin.pointA = Vec3(0, 0, -0.5);
    pin.bodyB = -1;
    pin.pointB = Vec3(0, 0, -0.5);
    s.constraints.push_back(pin);
    const Model m = compile(s);
    SimulationOptions o;
    o.dt = 1e-3;
    Simulation sim(m, o);
    QVERIFY(sim.constraintError() < 1e-15);
    const EnergyMomentum e0 = sim.energy();
    const Vec3 knee0 = Eigen::Quaterniond(m.q0(0), m.q0(1), m.q0(2), m.q0(3)) * Vec3(0, 0, -0.5);
    double worst = 0;
    for (int k = 0; k < 20; ++k) {
      QVERIFY(sim.advanceTo(0.1 * (k + 1)));
      worst = std::max(worst, sim.constraintError());
    }
    const EnergyMomentum e1 = sim.energy();
    const Vec3 knee1 = Eigen::Quaterniond(sim.q()(0), sim.q()(1), sim.q()(2), sim.q()(3)) * Vec3(0, 0, -0.5);
    const double swing = std::atan2(knee0.head<2>().x() * knee1.y() - knee0.y() * knee1.x(), knee0.head<2>().dot(knee1.head<2>()));
    const double dE = std::abs(e1.kinetic + e1.potential - e0.kinetic - e0.potential);
    qInfo("ball-jointed V pinned at its tip, 2 s: swung %.3f rad about z, pin error %.3g m, energy change %.3g J", swing, worst, dE);
    QVERIFY(std::abs(swing) > 0.3);                // it swings
    QVERIFY(std::abs(knee1.z() - knee0.z()) < 1e-6);  // about the vertical through the pins
    QVERIFY(worst < 1e-9);
    QVERIFY(dE < 1e-6 * std::max(1.0, e1.kinetic));
  }

  // dq/dt is the derivative of the exponential-map step: (integrate(q, qd, h) - q) / h -> qdot
  void configurationDerivativeMatchesIntegration() {
    std::mt19937 rng(9);
    const Model m = compile(randomTree(4, {1, 2}, rng).ball);
    Eigen::VectorXd q = testutil::randomVector(m.nq(), rng);
    normalizeConfiguration(m, q);
    const Eigen::VectorXd qd = testutil::randomVector(m.nv(), rng);
    Eigen::VectorXd qdot(m.nq()), q1(m.nq()), q2(m.nq());
    configurationDerivative(m, q, qd, qdot);
    const double h = 1e-6;
    integrateConfiguration(m, q, qd, h, q1);
    integrateConfiguration(m, q, qd, -h, q2);
    QVERIFY2(testutil::relErr((q1 - q2) / (2 * h), qdot) < 1e-9, qPrintable(QString::number(testutil::relErr((q1 - q2) / (2 * h), qdot))));
    QVERIFY(std::abs(q1.segment<4>(1).norm() - 1) < 1e-15);
    // a zero quaternion normalises to the identity
    q.segment<4>(1).setZero();
    normalizeConfiguration(m, q);
    QVERIFY(q.segment<4>(1) == Eigen::Vector4d(1, 0, 0, 0));
  }

  // pointJacobian is the velocity map of a body-fixed point: J qd equals the derivative of the
  // point's position along the exponential-map step (central differences), and the velocity
  // that contactPositionsVelocities' own velocity recursion gives, on a floating tree with ball
  // joints and on a planar chain
  void pointJacobianIsTheVelocityMap() {
    std::mt19937 rng(11);
    ModelSpec spec = randomTree(6, {2, 4}, rng, true).ball;
    const Vec3 point(0.2, -0.1, 0.3);
    for (int b = 0; b < 6; ++b) spec.contacts.push_back({b, point, 0.0});
    const Model m = compile(spec);
    Data d(m);
    Eigen::VectorXd q = testutil::randomVector(m.nq(), rng);
    normalizeConfiguration(m, q);
    const Eigen::VectorXd qd = testutil::randomVector(m.nv(), rng, -2, 2);
    const double h = 1e-6;
    Eigen::VectorXd q1(m.nq()), q2(m.nq());
    integrateConfiguration(m, q, qd, h, q1);
    integrateConfiguration(m, q, qd, -h, q2);
    const auto pointAt = [&](const Eigen::VectorXd& qq, int b) {
      forwardKinematics(m, d, qq);
      const BodyPose pose = bodyPose(m, d, b);
      return Vec3(pose.rotation * point + pose.position);
    };
    const Eigen::Matrix<double, 6, Eigen::Dynamic> pv = contactPositionsVelocities(m, d, q, qd);
    Eigen::MatrixXd J(3, m.nv());
    for (int b = 0; b < m.nb; ++b) {
      pointJacobian(m, d, q, b, point, J);
      const Vec3 v = J * qd, fd = (pointAt(q1, b) - pointAt(q2, b)) / (2 * h);
      QVERIFY2((v - fd).norm() < 1e-8 * std::max(1.0, v.norm()), qPrintable(QString::number((v - fd).norm())));
      QVERIFY2((v - pv.col(b).tail<3>()).norm() < 1e-13 * std::max(1.0, v.norm()),
               qPrintable(QString::number((v - pv.col(b).tail<3>()).norm())));
      // columns of joints that do not carry the body are zero
      for (int k = 0; k < m.nv(); ++k) {
        int j = m.dofBody[k], a = b;
        while (a >= 0 && a != j) a = m.parent[a];
        if (a < 0) QCOMPARE(J.col(k).norm(), 0.0);
      }
    }
    // a planar chain: J qd is the time derivative of the point's position in the x-y plane
    ModelSpec planar;
    planar.arithmetic = Arithmetic::Planar;
    for (int i = 0; i < 3; ++i) {
      BodySpec link;
      link.name = "p" + std::to_string(i);
      link.parent = i - 1;
      link.joint.type = i == 1 ? JointType::PlanarPx : JointType::PlanarR;
      link.translation = Vec3(i == 0 ? 0.0 : 0.7, 0, 0);
      link.inertia = InertiaSpec::fromMassComInertia(1, Vec3(0.3, 0, 0), Mat3::Identity() * 0.01);
      planar.bodies.push_back(link);
    }
    const Model mp = compile(planar);
    Data dp(mp);
    const Eigen::VectorXd qp = testutil::randomVector(3, rng), qdp = testutil::randomVector(3, rng);
    Eigen::MatrixXd Jp(3, 3);
    pointJacobian(mp, dp, qp, 2, point, Jp);
    const auto planarPoint = [&](const Eigen::VectorXd& qq) {
      forwardKinematics(mp, dp, qq);
      const BodyPose pose = bodyPose(mp, dp, 2);
      return Vec3(pose.rotation * point + pose.position);
    };
    const Vec3 fdp = (planarPoint(qp + h * qdp) - planarPoint(qp - h * qdp)) / (2 * h);
    QVERIFY((Jp * qdp - fdp).norm() < 1e-8);
    QCOMPARE(Jp.row(2).norm(), 0.0);
    // misuse is refused, naming the argument
    Eigen::MatrixXd wrong(3, 2);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, pointJacobian(mp, dp, qp, 2, point, wrong));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, pointJacobian(mp, dp, qp, 3, point, Jp));
  }

  // what a ball joint takes and refuses, each named by its field
  void refusesMisuse() {
    const auto field = [](const ModelSpec& s) {
      try {
        compile(s);
      } catch (const ModelError& e) {
        return QString::fromStdString(e.field());
      }
      return QString("accepted");
    };
    ModelSpec s = sphericalPendulum();
    s.bodies[0].damping = 0.1;
    s.bodies[0].armature = 0.1;
    QCOMPARE(field(s), QString("accepted"));
    ModelSpec c = sphericalPendulum();
    c.bodies[0].control.type = ControlSpec::Type::Constant;
    QCOMPARE(field(c), QString("control"));
    ModelSpec l = sphericalPendulum();
    l.bodies[0].limits.lower = -1.0;
    QCOMPARE(field(l), QString("limits"));
    ModelSpec f = sphericalPendulum();
    f.bodies[0].friction = 0.1;
    QCOMPARE(field(f), QString("friction"));
    ModelSpec z = sphericalPendulum();
    z.bodies[0].freeOrientation.setZero();
    QCOMPARE(field(z), QString("initial.orientation"));
    ModelSpec p = sphericalPendulum();
    p.arithmetic = Arithmetic::Planar;
    p.gravity = Vec3::Zero();
    QCOMPARE(field(p), QString("joint.type"));
    // exporters: neither URDF nor spatial_v2 has a ball joint
    QVERIFY_THROWS_EXCEPTION(UrdfError, specToUrdf(sphericalPendulum()));
    QVERIFY_THROWS_EXCEPTION(FormatError, specToSpatialV2(sphericalPendulum()));
  }

  // "joint": "ball" with its initial orientation and angular velocity round-trips exactly;
  // problems are reported by JSON path
  void format() {
    std::mt19937 rng(10);
    ModelSpec s = randomTree(3, {1}, rng).ball;
    s.bodies[1].freeOrientation = Eigen::Vector4d(0.5, 0.5, -0.5, 0.5);
    s.bodies[1].freeVelocity.head<3>() = Vec3(1, 2, 3.125);
    s.bodies[1].damping = 0.25;
    const std::string text = formatJson(specToJson(s));
    QVERIFY(text.find("\"ball\"") != std::string::npos);
    ModelSpec back;
    Diagnostics problems;
    specFromJson(nlohmann::json::parse(text), back, problems);
    QVERIFY(problems.empty());
    QCOMPARE(formatJson(specToJson(back)), text);
    QVERIFY(back.bodies[1].joint.type == JointType::Ball);
    QVERIFY(back.bodies[1].freeOrientation == s.bodies[1].freeOrientation);
    QVERIFY(back.bodies[1].freeVelocity == s.bodies[1].freeVelocity);
    const Model m = compile(back);
    QVERIFY(m.qd0.segment<3>(m.vIndex[1]) == Eigen::Vector3d(1, 2, 3.125));

    auto problemsOf = [](nlohmann::json doc) {
      ModelSpec out;
      Diagnostics d;
      specFromJson(doc, out, d);
      QString all;
      for (const auto& p : d) all += QString::fromStdString(p.text()) + "\n";
      return all;
    };
    const nlohmann::json doc = nlohmann::json::parse(text);
    nlohmann::json bad = doc;
    bad["bodies"][1]["initial"]["velocity"] = {1, 2, 3, 4, 5, 6};
    QVERIFY(problemsOf(bad).contains("bodies[1].initial.velocity"));
    bad = doc;
    bad["bodies"][1]["initial"]["position"] = {1, 2, 3};
    QVERIFY(problemsOf(bad).contains("bodies[1].initial.position: unknown field"));
    bad = doc;
    bad["bodies"][1]["initial"]["orientation"] = {0, 0, 0, 0};
    QVERIFY(problemsOf(bad).contains("bodies[1].initial.orientation"));
    bad = doc;
    bad["bodies"][1]["limits"] = {{"lower", -1}};
    QVERIFY(problemsOf(bad).contains("bodies[1].limits: a ball joint takes no limits"));
    bad = doc;
    bad["bodies"][1]["friction"] = 0.5;
    QVERIFY(problemsOf(bad).contains("bodies[1].friction: a ball joint takes no friction"));
  }
};

ARTICULATE_TEST_MAIN(TestBallJoint)
#include "test_ball_joint.moc"
