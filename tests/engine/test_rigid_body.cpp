// The single rigid body with floor impacts (engine/formulations/include/articulate/formulations/rigid_body.h): mass
// properties against closed forms, conservation in free flight, a symmetric top against its
// closed form, ballistic flight, a turned scene turning the motion (the floor's general
// normal), independence of the reference point, the energy ratio of a normal impact, no
// penetration over the reference run, coming to rest, the stopping distance of a sliding box,
// and the "rigid_body" documents (round trip, every problem reported by its JSON path).
#include <QtTest>

#include "test_main.h"
#include <cmath>
#include <limits>

#include "articulate/formulations/generators.h"
#include "articulate/model/model.h"
#include "articulate/formats/document.h"
#include "articulate/formats/files.h"
#include "articulate/formulations/rigid_body.h"

using namespace art;

Q_DECLARE_METATYPE(art::Vec3)

namespace {

const double kPi = 3.14159265358979323846;
const double kReferenceStep = 2.0 / 810000;  // the reference program's step (s)

ShapeSpec box(const Vec3& size) {
  ShapeSpec s;
  s.type = ShapeSpec::Type::Box;
  s.size = size;
  return s;
}
ShapeSpec cylinder(double radius, double length) {
  ShapeSpec s;
  s.type = ShapeSpec::Type::Cylinder;
  s.radius = radius;
  s.length = length;
  return s;
}
ShapeSpec sphere(double radius) {
  ShapeSpec s;
  s.type = ShapeSpec::Type::Sphere;
  s.radius = radius;
  return s;
}

RigidBodySpec body(const ShapeSpec& shape, double mass) {
  RigidBodySpec s;
  s.shape = shape;
  s.mass = mass;
  return s;
}

FloorSpec floorWith(double restitution, double friction, double rolling = 0.0) {
  FloorSpec f;
  f.restitution = restitution;
  f.friction = friction;
  f.rollingResistance = rolling;
  return f;
}

// the lowest point's height for a shape of this kind lying in its stable poses
double restingHeight(const RigidBody& b, bool* standing) {
  const Vec3 a = b.rotation().col(2);
  *standing = std::abs(a.z()) > 0.5;
  return *standing ? 0.5 * b.shape().length : b.shape().radius;
}

}  // namespace

class TestRigidBody : public QObject {
  Q_OBJECT

 private slots:
  // volume, mass and principal moments against the textbook formulas
  void massProperties_data() {
    QTest::addColumn<int>("shape");
    QTest::addColumn<bool>("byDensity");
    QTest::newRow("box, mass") << 0 << false;
    QTest::newRow("box, density") << 0 << true;
    QTest::newRow("cylinder, mass") << 1 << false;
    QTest::newRow("cylinder, density") << 1 << true;
    QTest::newRow("sphere, mass") << 2 << false;
    QTest::newRow("sphere, density") << 2 << true;
  }
  void massProperties() {
    QFETCH(int, shape);
    QFETCH(bool, byDensity);
    const double a = 0.3, b = 0.2, c = 0.1, R = 0.03, L = 0.09, rho = 7800.0, m = 2.0;
    ShapeSpec sh;
    double volume = 0;
    if (shape == 0) {
      sh = box(Vec3(a, b, c));
      volume = a * b * c;
    } else if (shape == 1) {
      sh = cylinder(R, L);
      volume = kPi * R * R * L;
    } else {
      sh = sphere(R);
      volume = 4.0 / 3.0 * kPi * R * R * R;
    }
    RigidBodySpec spec;
    spec.shape = sh;
    if (byDensity)
      spec.density = rho;
    else
      spec.mass = m;
    const double mass = byDensity ? rho * volume : m;
    Vec3 I;
    if (shape == 0)
      I = mass / 12.0 * Vec3(b * b + c * c, a * a + c * c, a * a + b * b);
    else if (shape == 1)
      I = Vec3(mass * (3 * R * R + L * L) / 12.0, mass * (3 * R * R + L * L) / 12.0,
               mass * R * R / 2.0);
    else
      I = Vec3::Constant(2.0 / 5.0 * mass * R * R);
    QVERIFY(std::abs(shapeVolume(sh) - volume) <= 1e-15 * volume);
    const RigidBody rb(spec);
    QVERIFY(std::abs(rb.mass() - mass) <= 1e-13 * mass);
    QVERIFY2((rb.principalInertia() - I).norm() <= 1e-13 * I.norm(),
             qPrintable(QString("inertia %1 %2 %3")
                            .arg(rb.principalInertia()(0))
                            .arg(rb.principalInertia()(1))
                            .arg(rb.principalInertia()(2))));
    // the kinetic energy of a rotation uses them: 1/2 w' I w about the body axes
    RigidBodySpec spinning = spec;
    spinning.rotation = Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()).toRotationMatrix();
    spinning.angularVelocity = Vec3(0.4, -1.1, 2.3);
    const RigidBody sb(spinning);
    const Vec3 wb = spinning.rotation.transpose() * spinning.angularVelocity;
    const double expected = 0.5 * wb.dot(I.cwiseProduct(wb));
    QVERIFY(std::abs(sb.energy().kinetic - expected) <= 1e-13 * expected);
  }

  // no gravity, no floor: momentum exactly, angular momentum about a fixed point to rounding,
  // about the centre of mass and energy within RK4's error, a unit quaternion; a box tumbling
  // about its unstable intermediate axis
  void freeFlightConservesMomentum_data() {
    QTest::addColumn<Vec3>("reference");
    QTest::newRow("reference point at the centre of mass") << Vec3(0, 0, 0);
    QTest::newRow("reference point at a corner") << Vec3(0.15, -0.1, 0.05);
    QTest::newRow("reference point outside the body") << Vec3(0.4, 0.3, -0.6);
  }
  void freeFlightConservesMomentum() {
    QFETCH(Vec3, reference);
    RigidBodySpec spec = body(box(Vec3(0.3, 0.2, 0.1)), 2.0);
    spec.referencePoint = reference;
    spec.gravity = Vec3::Zero();
    spec.position = Vec3(0.1, 0.2, 0.3);
    spec.rotation = Eigen::AngleAxisd(0.4, Vec3(1, -1, 2).normalized()).toRotationMatrix();
    spec.velocity = Vec3(0.1, -0.2, 0.3);
    spec.angularVelocity = spec.rotation * Vec3(0.05, 6.0, 0.02);
    RigidBody rb(spec);
    const Vec3 p0 = rb.momentum(), Lc0 = rb.angularMomentumAboutCom();
    const Vec3 Lo0 = rb.angularMomentumAbout(Vec3::Zero());
    const double E0 = rb.energy().total();
    const Vec3 w0 = rb.angularVelocity();
    double maxTurn = 0;
    for (int k = 0; k < 3000; ++k) {
      rb.step(1e-3);
      maxTurn = std::max(maxTurn, (rb.angularVelocity() - w0).norm());
    }
    QVERIFY2(maxTurn > 1.0, "the box did not tumble");  // the test must exercise rotation
    QVERIFY((rb.momentum() - p0).norm() <= 1e-15);
    const double Lo = (rb.angularMomentumAbout(Vec3::Zero()) - Lo0).norm() / Lo0.norm();
    QVERIFY2(Lo <= 1e-13, qPrintable(QString("about the origin: %1").arg(Lo)));
    const double Lc = (rb.angularMomentumAboutCom() - Lc0).norm() / Lc0.norm();
    QVERIFY2(Lc <= 1e-9, qPrintable(QString("about the centre of mass: %1").arg(Lc)));
    const double dE = std::abs(rb.energy().total() - E0) / E0;
    QVERIFY2(dE <= 1e-8, qPrintable(QString("energy: %1").arg(dE)));
    QVERIFY(std::abs(rb.state().orientation.norm() - 1) <= 1e-15);
    // the centre of mass moves uniformly: exactly with b at the centre of mass, within RK4's
    // error in the attitude (times |c|) otherwise
    const double drift = (rb.comPosition() - (spec.position + 3.0 * spec.velocity)).norm();
    QVERIFY2(drift <= (reference.isZero() ? 1e-12 : 1e-9),
             qPrintable(QString("centre of mass off by %1 m").arg(drift)));
  }

  // A body symmetric about its axis (a cylinder), torque-free, turns by the closed form
  // R(t) = exp(D_r |L| t [L/|L|]x) R0 exp((D_a - D_r) L_a t [e_z]x), D_r and D_a the inverse
  // moments across and about the axis, L_a the angular momentum's component along it (an
  // independent reference for the attitude's integration). At the reference step RK4's
  // truncation error is below 1e-24 a step, so the error left is rounding: no more than one
  // unit roundoff a step over 2 s (810000 steps; measured: 2e-12 with the reference point at the
  // centre, 1.4e-11 off it). At coarse steps it falls as h^4.
  void symmetricTopFollowsTheClosedForm_data() {
    QTest::addColumn<Vec3>("reference");
    QTest::newRow("reference point at the centre of mass") << Vec3(0, 0, 0);
    QTest::newRow("reference point off the centre") << Vec3(0.01, -0.02, 0.03);
  }
  void symmetricTopFollowsTheClosedForm() {
    QFETCH(Vec3, reference);
    RigidBodySpec spec = body(cylinder(0.03, 0.09), 2.0);
    spec.referencePoint = reference;
    spec.gravity = Vec3::Zero();
    spec.rotation = Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()).toRotationMatrix();
    spec.angularVelocity = Vec3(0.3, 5.0, 2.0);
    const auto error = [&spec](double h, double t) {
      RigidBody rb(spec);
      const Vec3 L = rb.angularMomentumAboutCom();
      const Mat3 R0 = rb.rotation();
      const double La = R0.col(2).dot(L);
      const double Dr = 1.0 / rb.principalInertia().x(), Da = 1.0 / rb.principalInertia().z();
      rb.advanceTo(t, h);
      const Mat3 R = Eigen::AngleAxisd(Dr * L.norm() * t, L.normalized()).toRotationMatrix() * R0 *
                     Eigen::AngleAxisd((Da - Dr) * La * t, Vec3::UnitZ()).toRotationMatrix();
      return (rb.rotation() - R).norm();
    };
    const double rounding = error(kReferenceStep, 2.0);
    QVERIFY2(rounding <= 810000 * std::numeric_limits<double>::epsilon(), qPrintable(QString("at the reference step: %1").arg(rounding)));
    const double coarse = error(4e-3, 2.0), fine = error(2e-3, 2.0);
    QVERIFY2(coarse > 1e-9 && coarse / fine > 12 && coarse / fine < 20,
             qPrintable(QString("errors %1 at h = 4 ms, %2 at 2 ms").arg(coarse).arg(fine)));
    qInfo("error %.3g at the reference step, %.3g at h = 4 ms, %.3g at 2 ms", rounding, coarse, fine);
  }

  // under gravity without a floor the centre of mass follows r0 + v0 t + g t^2 / 2 and the
  // angular momentum about it stays constant
  void ballisticFlight_data() {
    QTest::addColumn<Vec3>("reference");
    QTest::addColumn<double>("h");
    QTest::newRow("at the centre of mass") << Vec3(0, 0, 0) << 1e-3;
    // with an offset RK4 has an error: L_b and p change, and their combination L_c drifts by
    // 2e-8 at h = 1e-3
    QTest::newRow("offset") << Vec3(0.02, -0.01, 0.04) << 2.5e-4;
  }
  void ballisticFlight() {
    QFETCH(Vec3, reference);
    QFETCH(double, h);
    RigidBodySpec spec = body(cylinder(0.03, 0.09), 2.0);
    spec.referencePoint = reference;
    spec.gravity = Vec3(0.5, 0, -9.81);
    spec.position = Vec3(0, 0, 1);
    spec.velocity = Vec3(1, 2, 5);
    spec.angularVelocity = Vec3(3, 5, 1);
    RigidBody rb(spec);
    const Vec3 Lc0 = rb.angularMomentumAboutCom();
    rb.advanceTo(1.0, h);
    QCOMPARE(rb.time(), 1.0);
    QCOMPARE(rb.stepsTaken(), std::lround(1.0 / h));
    const Vec3 expected = spec.position + spec.velocity + 0.5 * *spec.gravity;
    const double err = (rb.comPosition() - expected).norm();
    QVERIFY2(err <= (reference.isZero() ? 1e-11 : 1e-9),
             qPrintable(QString("position error %1 m").arg(err)));
    QVERIFY((rb.comVelocity() - (spec.velocity + *spec.gravity)).norm() <= 1e-12);
    const double dL = (rb.angularMomentumAboutCom() - Lc0).norm() / Lc0.norm();
    QVERIFY2(dL <= (reference.isZero() ? 1e-15 : 1e-9),
             qPrintable(QString("L_c drift %1").arg(dL)));
  }

  // the reference point is a choice of state variables: the centre of mass, the orientation and
  // the angular velocity are the same (within RK4's error) wherever it is, also through impacts
  void referencePointGivesTheSameMotion() {
    RigidBodySpec atCom = bouncingCylinder(0.045);
    RigidBodySpec offset = atCom;
    offset.referencePoint = Vec3(0.02, -0.03, 0.04);
    RigidBody a(atCom), b(offset);
    QVERIFY((a.comPosition() - b.comPosition()).norm() <= 1e-15);
    double worst = 0;
    int contacts = 0;
    for (int k = 0; k < 20000; ++k) {  // about 0.05 s: the first impact and its rebound
      a.step(kReferenceStep);
      b.step(kReferenceStep);
      contacts += a.lastContactPoints() > 0;
      worst = std::max({worst, (a.comPosition() - b.comPosition()).norm(),
                        0.03 * (a.angularVelocity() - b.angularVelocity()).norm(),
                        0.03 * (a.rotation() - b.rotation()).norm()});
    }
    QVERIFY(contacts > 0);
    QVERIFY2(worst <= 1e-9, qPrintable(QString("largest difference %1 m").arg(worst)));
    // and in free flight with gravity for a second (h = 1e-4: the formulations' RK4 errors
    // differ, by 3e-7 at h = 1e-3, and fall as h^4)
    atCom.floor.reset();
    offset.floor.reset();
    RigidBody c(atCom), d(offset);
    c.advanceTo(1.0, 1e-4);
    d.advanceTo(1.0, 1e-4);
    const double dr = (c.comPosition() - d.comPosition()).norm();
    const double dR = (c.rotation() - d.rotation()).norm();
    QVERIFY2(dr <= 1e-10 && dR <= 1e-9,
             qPrintable(QString("differences %1 m, %2").arg(dr).arg(dR)));
  }

  // turning the whole scene (floor, gravity, initial state) turns the motion with it: the floor
  // along z takes the contact's special case for that normal, the turned one the general code
  // (rimContact<true> against rimContact<false> for one rim point; the candidate points of
  // resolvePoints otherwise). 0.2 s of sliding contact, every step in contact.
  void theSceneTurnedTurnsTheMotion_data() {
    QTest::addColumn<int>("pose");
    QTest::newRow("cylinder sliding on one rim point") << 0;
    QTest::newRow("cylinder rolling on its side (two rim points)") << 1;
    QTest::newRow("box sliding on a face (four corners)") << 2;
  }
  void theSceneTurnedTurnsTheMotion() {
    QFETCH(int, pose);
    RigidBodySpec spec = bouncingCylinder(0.1);
    spec.velocity = Vec3(1, 0, 0);
    spec.angularVelocity = Vec3::Zero();
    if (pose == 0) {
      spec.rotation = Eigen::AngleAxisd(0.5, Vec3::UnitX()).toRotationMatrix();
      spec.position.z() = 0.045 * std::cos(0.5) + 0.03 * std::sin(0.5);
    } else if (pose == 1) {
      spec.rotation = Eigen::AngleAxisd(kPi / 2, Vec3::UnitY()).toRotationMatrix();
      spec.position.z() = 0.03;
      spec.velocity = Vec3(0, 0.5, 0);
      spec.angularVelocity = Vec3(10, 0, 0);  // rolling with some slip
    } else {
      spec.shape = box(Vec3(0.06, 0.04, 0.09));
      spec.position.z() = 0.045;
    }
    const Mat3 T = Eigen::AngleAxisd(0.9, Vec3(1, 2, 0.5).normalized()).toRotationMatrix();
    RigidBodySpec turned = spec;
    turned.floor->origin = Vec3(0.1, -0.2, 0.3);
    turned.floor->normal = T * Vec3::UnitZ();
    turned.gravity = T * *spec.gravity;
    turned.position = turned.floor->origin + T * spec.position;
    turned.rotation = T * spec.rotation;
    turned.velocity = T * spec.velocity;
    turned.angularVelocity = T * spec.angularVelocity;
    RigidBody a(spec), b(turned);
    double worst = 0;
    int contacts = 0, differ = 0;
    const int steps = 80000;  // 0.2 s
    for (int k = 0; k < steps; ++k) {
      a.step(kReferenceStep);
      b.step(kReferenceStep);
      contacts += a.lastContactPoints() > 0;
      differ += a.lastContactPoints() != b.lastContactPoints();
      worst = std::max({worst, (turned.floor->origin + T * a.comPosition() - b.comPosition()).norm(),
                        0.03 * (T * a.rotation() - b.rotation()).norm(),
                        0.03 * (T * a.angularVelocity() - b.angularVelocity()).norm()});
    }
    QCOMPARE(contacts, steps);
    QCOMPARE(differ, 0);
    QVERIFY2(worst <= 1e-9, qPrintable(QString("largest difference %1 m").arg(worst)));
    qInfo("%d points in contact at the end, largest difference %.3g m", a.lastContactPoints(),
          worst);
  }

  // a body falling flat (no rotation) onto the floor at 1 m/s in zero gravity leaves it with
  // e^2 times its kinetic energy, straight up, without turning
  void energyRatioAfterNormalImpact_data() {
    QTest::addColumn<int>("pose");
    QTest::addColumn<double>("restitution");
    for (double e : {0.87, 0.5, 1.0}) {
      const QString tail = QString(", e = %1").arg(e);
      QTest::newRow(qPrintable("box on a face" + tail)) << 0 << e;
      QTest::newRow(qPrintable("cylinder on a cap" + tail)) << 1 << e;
      QTest::newRow(qPrintable("cylinder on its side" + tail)) << 2 << e;
      QTest::newRow(qPrintable("sphere" + tail)) << 3 << e;
    }
  }
  void energyRatioAfterNormalImpact() {
    QFETCH(int, pose);
    QFETCH(double, restitution);
    RigidBodySpec spec;
    double lowest = 0;
    if (pose == 0) {
      spec = body(box(Vec3(0.2, 0.1, 0.05)), 1.5);
      lowest = 0.025;
    } else if (pose <= 2) {
      spec = body(cylinder(0.03, 0.09), 2.0);
      lowest = pose == 1 ? 0.045 : 0.03;
      if (pose == 2) spec.rotation = Eigen::AngleAxisd(kPi / 2, Vec3::UnitX()).toRotationMatrix();
    } else {
      spec = body(sphere(0.05), 0.5);
      lowest = 0.05;
    }
    spec.gravity = Vec3::Zero();
    spec.floor = floorWith(restitution, 0.15);
    spec.position = Vec3(0, 0, lowest + 0.01003);
    spec.velocity = Vec3(0, 0, -1);
    RigidBody rb(spec);
    const double before = rb.energy().kinetic;
    bool hit = false;
    for (int k = 0; k < 500; ++k) {
      rb.step(1e-4);
      hit = hit || rb.lastContactPoints() > 0;
    }
    QVERIFY(hit);
    const double ratio = rb.energy().kinetic / before;
    QVERIFY2(std::abs(ratio - restitution * restitution) <= 1e-9,
             qPrintable(QString("energy ratio %1, e^2 = %2")
                            .arg(ratio, 0, 'g', 15)
                            .arg(restitution * restitution)));
    QVERIFY(rb.angularVelocity().norm() <= 1e-9);
    QVERIFY(rb.comVelocity().head<2>().norm() <= 1e-9);
    QVERIFY(rb.comVelocity().z() > 0);
  }

  // the reference run (2 s at the reference step, from standing on a cap, and the example file's
  // drop): the body bounces, never ends a step below the floor, never sinks more than one
  // step's travel before the contact pushes it out, and gains energy only as the push out lifts
  // it (m g times the depth), so that it ends with less than it started with
  void noPenetrationInTheReferenceRun_data() {
    QTest::addColumn<double>("height");
    QTest::newRow("standing on a cap (the benchmark)") << 0.045;
    QTest::newRow("dropped from 0.1 m (models/bouncing_cylinder.json)") << 0.1;
  }
  void noPenetrationInTheReferenceRun() {
    QFETCH(double, height);
    RigidBody rb(bouncingCylinder(height));
    const double start = rb.energy().total(), weight = rb.mass() * rb.gravity().norm();
    double lowest = 1, deepest = 0, highest = 0, energy = start, gain = 0;
    long contacts = 0;
    for (long k = 0; k < 810000; ++k) {
      rb.step(kReferenceStep);
      const double clearance = rb.floorClearance();
      lowest = std::min(lowest, clearance);
      highest = std::max(highest, clearance);
      deepest = std::max(deepest, rb.lastPenetration());
      contacts += rb.lastContactPoints() > 0;
      const double e = rb.energy().total();
      gain = std::max(gain, e - energy - weight * rb.lastPenetration());
      energy = e;
    }
    QCOMPARE(rb.time() > 1.999999, true);
    QVERIFY2(highest > 0.005, "the cylinder never left the floor");
    QVERIFY(contacts > 1000);
    QVERIFY2(lowest >= -1e-12,
             qPrintable(QString("lowest point %1 m below the floor").arg(-lowest)));
    // one step at the largest speed (about 1.2 m/s) travels 3e-6 m
    QVERIFY2(deepest <= 5e-6, qPrintable(QString("sank %1 m within a step").arg(deepest)));
    QVERIFY2(gain <= 1e-12, qPrintable(QString("gained %1 J more than the push out").arg(gain)));
    QVERIFY(energy < start);
    QVERIFY(std::abs(rb.state().orientation.norm() - 1) <= 1e-15);
  }

  // a longer run comes to rest on the floor in a stable pose: standing on a cap (centre at L/2)
  // or lying on its side (at R), with the rolling resistance that stops rolling and wobbling
  // (an ideal rigid contact, rho = 0, lets a cylinder roll or wobble on its rim for ever)
  void comesToRest_data() {
    QTest::addColumn<double>("height");
#ifndef ARTICULATE_SANITIZED
    // 4.5 million steps each: under the sanitizers (CI's asan stage) 40 to 66 s a row, where the
    // one row below runs the same code for its first second (comesToRest)
    QTest::newRow("from standing on a cap") << 0.045;
#endif
    QTest::newRow("dropped from 0.1 m") << 0.1;
  }
  void comesToRest() {
    QFETCH(double, height);
    RigidBodySpec spec = bouncingCylinder(height);
    spec.floor->rollingResistance = 0.001;
    RigidBody rb(spec);
#ifdef ARTICULATE_SANITIZED
    // the 4.5 million steps to rest took 66 s under ASan: there the first second runs, rolling
    // resistance and all, and what holds by then is checked: above the floor, with less energy
    const double start = rb.energy().total();
    rb.advanceTo(1.0, kReferenceStep);
    QVERIFY(rb.floorClearance() >= -1e-12);
    QVERIFY(rb.energy().total() < start);
    QVERIFY(std::abs(rb.state().orientation.norm() - 1) <= 1e-15);
    return;
#endif
    rb.advanceTo(10.0, kReferenceStep);
    bool standing = false;
    const double rest = restingHeight(rb, &standing);
    const Vec3 a = rb.rotation().col(2);
    // within 1 microradian and 10 nm: the contact keeps the lowest point on the plane, and a
    // resting point may sit up to 2 g h^2 above it
    QVERIFY2(std::abs(standing ? std::abs(a.z()) - 1 : a.z()) <= 1e-6,
             qPrintable(QString("axis z component %1").arg(a.z())));
    QVERIFY2(std::abs(rb.comPosition().z() - rest) <= 1e-8,
             qPrintable(QString("centre at %1 m, rest at %2 m")
                            .arg(rb.comPosition().z(), 0, 'g', 15)
                            .arg(rest)));
    QVERIFY2(rb.comVelocity().norm() <= 1e-6,
             qPrintable(QString("speed %1 m/s").arg(rb.comVelocity().norm())));
    QVERIFY2(rb.angularVelocity().norm() <= 1e-5,
             qPrintable(QString("angular speed %1 rad/s").arg(rb.angularVelocity().norm())));
    // and stays there
    const Vec3 at = rb.comPosition();
    rb.advanceTo(11.0, kReferenceStep);
    QVERIFY((rb.comPosition() - at).norm() <= 1e-9);
  }

  // a box sliding on the floor stops after v^2 / (2 mu g), in a straight line, and stays
  void frictionStopsSliding_data() {
    QTest::addColumn<double>("mu");
    QTest::addColumn<Vec3>("velocity");
    QTest::newRow("mu 0.15 along x") << 0.15 << Vec3(1, 0, 0);
    QTest::newRow("mu 0.3 diagonal") << 0.3 << Vec3(0.6, -0.8, 0);
    QTest::newRow("mu 0.6 along y, 2 m/s") << 0.6 << Vec3(0, 2, 0);
  }
  void frictionStopsSliding() {
    QFETCH(double, mu);
    QFETCH(Vec3, velocity);
    const double g = 10;
    RigidBodySpec spec = body(box(Vec3(0.2, 0.2, 0.05)), 1.0);
    spec.gravity = Vec3(0, 0, -g);
    spec.floor = floorWith(0.87, mu);
    spec.position = Vec3(0, 0, 0.025);
    spec.velocity = velocity;
    RigidBody rb(spec);
    const double h = 1e-4;
    int k = 0, stopped = -1;
    while (rb.comVelocity().norm() > 1e-12 && k < 100000) {
      rb.step(h);
      ++k;
      if (stopped < 0 && rb.comVelocity().norm() <= 1e-6 * velocity.norm()) stopped = k;
    }
    const double v0 = velocity.norm(), expected = v0 * v0 / (2 * mu * g);
    const Vec3 travelled = rb.comPosition() - spec.position;
    QVERIFY2(std::abs(travelled.head<2>().norm() - expected) <= 1e-3 * expected + v0 * h,
             qPrintable(QString("stopped after %1 m, expected %2 m")
                            .arg(travelled.head<2>().norm())
                            .arg(expected)));
    QVERIFY(std::abs(travelled.head<2>().normalized().dot(velocity.head<2>().normalized()) - 1) <=
            1e-9);
    QVERIFY(std::abs(travelled.z()) <= 1e-9);
    QVERIFY(rb.angularVelocity().norm() <= 1e-9);
    const double stopTime = stopped * h;
    QVERIFY2(std::abs(stopTime - v0 / (mu * g)) <= 2e-3 * v0 / (mu * g) + 2 * h,
             qPrintable(QString("stopped after %1 s").arg(stopTime)));
    const Vec3 at = rb.comPosition();
    for (int j = 0; j < 5000; ++j) rb.step(h);
    QVERIFY((rb.comPosition() - at).norm() <= 1e-12);
  }

  // the spec's checks name the field
  void invalidSpecsThrow() {
    RigidBodySpec s = body(cylinder(0.03, 0.09), 2);
    RigidBodySpec bad = s;
    bad.shape.radius = 0;
    QVERIFY_THROWS_EXCEPTION(ModelError, RigidBody{bad});
    bad = s;
    bad.density = 1000;
    QVERIFY_THROWS_EXCEPTION(ModelError, RigidBody{bad});
    bad = s;
    bad.floor = floorWith(1.2, 0.1);
    try {
      RigidBody b(bad);
      QFAIL("no exception");
    } catch (const ModelError& e) {
      QCOMPARE(QString::fromStdString(e.field()), QString("floor.restitution"));
    }
    bad = s;
    bad.rotation(0, 0) = -1;
    QVERIFY_THROWS_EXCEPTION(ModelError, RigidBody{bad});
    RigidBody ok(s);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ok.advanceTo(1.0, 0.0));
  }

  // rigidBodyToJson writes every field; reading it back and writing again gives the same text;
  // other rotation forms are written as the matrix
  void documentRoundTrip() {
    RigidBodySpec s = body(box(Vec3(0.3, 0.2, 0.1)), 1);
    s.mass.reset();
    s.density = 2700;
    s.name = "plate";
    s.description = "An aluminium plate";
    s.referencePoint = Vec3(0.15, 0.1, 0.05);
    s.position = Vec3(0.1, -0.2, 0.5);
    s.rotation = Eigen::AngleAxisd(0.3, Vec3(0, 1, 0)).toRotationMatrix();
    s.velocity = Vec3(1, 0, 0);
    s.angularVelocity = Vec3(0, 0, 3);
    s.gravity = Vec3(0, 0, -9.81);
    FloorSpec f = floorWith(0.5, 0.3, 0.002);
    f.origin = Vec3(0, 0, -0.1);
    f.normal = Vec3(0, 0.1, 1);
    s.floor = f;
    s.appearance = nlohmann::json::array({"box", {{-0.15, -0.1, -0.05}, {0.15, 0.1, 0.05}}});
    s.baseAppearance = nlohmann::json::array({"tiles", {{-1, 1}, {-1, 1}, {-0.1, -0.1}}, 0.2});
    const std::string text = formatJson(rigidBodyToJson(s));
    Diagnostics problems;
    const std::optional<LoadedDocument> d = readDocument(parseJsonText(text, "plate"), problems);
    QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().text().c_str());
    QVERIFY(d && std::holds_alternative<RigidBodySpec>(*d));
    const RigidBodySpec& back = std::get<RigidBodySpec>(*d);
    QCOMPARE(QString::fromStdString(formatJson(rigidBodyToJson(back))),
             QString::fromStdString(text));
    QCOMPARE(*back.density, 2700.0);
    QVERIFY(!back.mass);
    QCOMPARE(back.floor->rollingResistance, 0.002);
    QVERIFY(back.rotation == s.rotation);
    // rpy in, matrix out, and then stable
    nlohmann::json doc = nlohmann::json::parse(text);
    doc["initial"]["rotation"] = {{"rpy", {0.1, 0.2, 0.3}}};
    RigidBodySpec viaRpy;
    problems.clear();
    rigidBodyFromJson(doc, viaRpy, problems);
    QVERIFY(problems.empty());
    const std::string once = formatJson(rigidBodyToJson(viaRpy));
    RigidBodySpec again;
    rigidBodyFromJson(parseJsonText(once, "again"), again, problems);
    QVERIFY(problems.empty());
    QCOMPARE(QString::fromStdString(formatJson(rigidBodyToJson(again))),
             QString::fromStdString(once));
    // saved and loaded through files
    QTemporaryDir dir;
    const std::string path = dir.filePath("plate.json").toStdString();
    saveRigidBody(path, back);
    QVERIFY(std::holds_alternative<RigidBodySpec>(loadDocument(path)));
    // the tree readers refuse it, at "kind"
    try {
      loadModel(path);
      QFAIL("loadModel read a rigid body");
    } catch (const FormatError& e) {
      QVERIFY2(QString(e.what()).contains("kind: 'rigid_body' models are not kinematic trees"),
               e.what());
    }
  }

  // every problem of a rigid_body document is reported with its JSON path
  void malformedDocuments_data() {
    QTest::addColumn<QString>("change");  // a JSON object merged into a valid document
    QTest::addColumn<QString>("expected");
    QTest::newRow("no shape") << R"({"shape": null})"
                              << "(document): missing field 'shape'";
    QTest::newRow("unknown shape")
        << R"({"shape": {"type": "cone"}})"
        << R"(shape.type: expected "box", "cylinder" or "sphere", got "cone")";
    QTest::newRow("negative radius") << R"({"shape": {"radius": -1}})"
                                     << "shape.radius: must be > 0 (m), got -1";
    QTest::newRow("cylinder without length") << R"({"shape": {"length": null}})"
                                             << "shape: a cylinder needs 'length'";
    QTest::newRow("box with radius")
        << R"({"shape": {"type": "box", "size": [1, 0, 1], "length": null}})"
        << "shape.radius: unknown field";
    QTest::newRow("box with a zero edge")
        << R"({"shape": {"type": "box", "size": [1, 0, 1], "length": null, "radius": null}})"
        << "shape.size[1]: must be > 0 (m), got 0";
    QTest::newRow("mass and density")
        << R"({"density": 1000})"
        << "density: give either 'mass' (kg) or 'density' (kg/m^3), not both";
    QTest::newRow("no mass") << R"({"mass": null})"
                             << "(document): missing field 'mass' (kg) or 'density' (kg/m^3)";
    QTest::newRow("zero mass") << R"({"mass": 0})"
                               << "mass: must be > 0 (kg), got 0";
    QTest::newRow("restitution above 1") << R"({"floor": {"restitution": 1.5}})"
                                         << "floor.restitution: must be in [0, 1], got 1.5";
    QTest::newRow("negative friction") << R"({"floor": {"friction": -0.1}})"
                                       << "floor.friction: must be >= 0, got -0.1";
    QTest::newRow("no restitution") << R"({"floor": {"restitution": null}})"
                                    << "floor: missing field 'restitution'";
    QTest::newRow("zero normal") << R"({"floor": {"normal": [0, 0, 0]}})"
                                 << "floor.normal: must be nonzero";
    QTest::newRow("negative rolling resistance")
        << R"({"floor": {"rolling_resistance": -1}})"
        << "floor.rolling_resistance: must be >= 0 (m), got -1";
    QTest::newRow("reflection")
        << R"({"initial": {"rotation": [[-1, 0, 0], [0, 1, 0], [0, 0, 1]]}})"
        << "initial.rotation: is not a proper rotation matrix";
    QTest::newRow("velocity of 2 numbers") << R"({"initial": {"velocity": [1, 2]}})"
                                           << "initial.velocity: expected 3 numbers";
    QTest::newRow("not finite") << R"({"reference_point": [0, "a", 0]})"
                                << "reference_point[1]: expected a number, got string";
    QTest::newRow("tree field") << R"({"bodies": []})"
                                << "bodies: unknown field (expected one of:";
    QTest::newRow("bad appearance") << R"({"appearance": ["cube"]})"
                                    << "appearance[0]: 'cube' is not a drawing instruction";
    QTest::newRow("tiles on the body")
        << R"({"appearance": ["tiles", [[-1, 1], [-1, 1], [0, 0]], 0.1]})"
        << "appearance[0]: 'tiles' is only allowed in the base's appearance";
    QTest::newRow("version 2") << R"({"version": 2})"
                               << "version: this Articulate reads format version 1, got 2";
  }
  void malformedDocuments() {
    QFETCH(QString, change);
    QFETCH(QString, expected);
    nlohmann::json doc = nlohmann::json::parse(formatJson(rigidBodyToJson(bouncingCylinder(0.1))));
    doc.merge_patch(nlohmann::json::parse(change.toStdString()));
    Diagnostics problems;
    QVERIFY(!readDocument(doc, problems));
    QStringList texts;
    for (const Diagnostic& p : problems) texts << QString::fromStdString(p.text());
    bool found = false;
    for (const QString& t : texts) found = found || t.startsWith(expected);
    QVERIFY2(found, qPrintable("expected '" + expected + "', got:\n" + texts.join("\n")));
  }
};

ARTICULATE_TEST_MAIN(TestRigidBody)
#include "test_rigid_body.moc"
