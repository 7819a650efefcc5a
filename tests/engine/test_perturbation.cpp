// The perturbation spring (perturbation.h) through the one System interface, checked against
// independent references:
//  - statics: a pendulum whose bob is pulled towards a fixed point settles at the angle where
//    gravity's and the spring's moments balance, found here from the potential energy alone;
//    the load the system reports at rest is the spring law at the bob's position;
//  - virtual work: the generalized force the perturbation adds (generalizedForces with it less
//    without it) is J' F, with J the grabbed point's Jacobian taken by central differences of
//    its position along each velocity direction (integratePositions, bodyPoses), for a planar
//    tree, a rigid body with an offset reference point and a natural-coordinate structure;
//  - across formulations: the double pendulum as a tree and as a natural-coordinate structure,
//    pulled at the same material point, comes to rest at the same place;
//  - conservation: in torque mode a free body without gravity keeps its linear momentum (a pure
//    torque), while its angular momentum changes;
//  - the rigid body's reference point: with an offset reference point (the general RK4 path) a
//    body pulled by its centre of mass under gravity hangs at target + m g / k;
//  - refusals: a body out of range, a negative stiffness, a non-finite target.
#include <cmath>
#include <memory>

#include <QtTest>

#include "test_main.h"

#include "articulate/formats/document.h"
#include "articulate/formulations/generators.h"
#include "articulate/simulation/structure_system.h"
#include "articulate/simulation/system.h"

using namespace art;

namespace {

const std::string kModels = ARTICULATE_MODELS_DIR;

std::unique_ptr<System> systemOf(const std::string& file) {
  LoadedDocument doc = loadDocument(kModels + "/" + file);
  if (auto* tree = std::get_if<LoadedModel>(&doc)) {
    auto model = std::make_shared<const Model>(compile(tree->spec));
    SimulationOptions options = simulationOptions(tree->spec);
    options.energyProjection = false;
    return std::make_unique<TreeSystem>(model, options);
  }
  if (auto* rigid = std::get_if<RigidBodySpec>(&doc)) return std::make_unique<RigidBodySystem>(*rigid);
  return std::make_unique<StructureSystem>(std::get<natural::StructureSpec>(doc));
}

// world position of body b's point `point` at positions q (bodyPoses)
Vec3 worldPoint(System& s, const Eigen::VectorXd& q, int b, const Vec3& point) {
  std::vector<BodyPose> poses;
  s.bodyPoses(q, poses);
  return poses[static_cast<std::size_t>(b)].position +
         poses[static_cast<std::size_t>(b)].rotation * point;
}

// dp/dv (3 x nv) of the body point by central differences along each velocity direction
Eigen::MatrixXd pointJacobian(System& s, const Eigen::VectorXd& q, int b, const Vec3& point) {
  const int nv = s.velocitySize();
  Eigen::MatrixXd J(3, nv);
  Eigen::VectorXd e = Eigen::VectorXd::Zero(nv), qp(q.size()), qm(q.size());
  const double h = 1e-6;
  for (int j = 0; j < nv; ++j) {
    e.setZero();
    e(j) = 1.0;
    s.integratePositions(q, e, h, qp);
    s.integratePositions(q, e, -h, qm);
    // entry by entry: a Vec3 expression assigned to a column makes GCC 12 warn of a 32-byte
    // AVX load from the 24-byte vector (-Warray-bounds), as in jacobian.cpp
    const Vec3 d = (worldPoint(s, qp, b, point) - worldPoint(s, qm, b, point)) / (2 * h);
    for (int r = 0; r < 3; ++r) J(r, j) = d(r);
  }
  return J;
}

// a pendulum: one body on a revolute joint about y at the origin, its mass m at (0, 0, -L)
ModelSpec pendulum(double m, double L) {
  ModelSpec spec;
  spec.name = "pulled_pendulum";
  spec.gravity = Vec3(0, 0, -9.81);
  BodySpec bob;
  bob.name = "bob";
  bob.joint.type = JointType::Ry;
  bob.inertia = InertiaSpec::fromMassComInertia(m, Vec3(0, 0, -L), 1e-4 * Mat3::Identity());
  spec.bodies.push_back(bob);
  return spec;
}

}  // namespace

class TestPerturbation : public QObject {
  Q_OBJECT
 private slots:
  // The bob's position for joint angle theta is p = (-L sin theta, 0, -L cos theta) (a right-
  // handed turn about y). The potential V = m g z + k/2 |T - p|^2 is least where
  // dV/dtheta = m g L sin theta - k (T - p) . (-L cos theta, 0, L sin theta) = 0.
  void pendulumSettlesAtStaticEquilibrium() {
    const double m = 1.3, L = 0.8, g = 9.81;
    const double k = m * kPerturbationFrequency * kPerturbationFrequency;
    const double c = 2.0 * m * kPerturbationFrequency;
    const Vec3 T(0.9, 0.0, -0.2);
    auto position = [&](double th) { return Vec3(-L * std::sin(th), 0.0, -L * std::cos(th)); };
    auto dV = [&](double th) {
      return m * g * L * std::sin(th) -
             k * (T - position(th)).dot(Vec3(-L * std::cos(th), 0.0, L * std::sin(th)));
    };
    // the minimum: the spring pulls towards +x, so theta < 0; bisect dV on [-pi + 0.1, 0]
    double lo = -M_PI + 0.1, hi = 0.0;
    QVERIFY(dV(lo) < 0 && dV(hi) > 0);
    for (int i = 0; i < 200; ++i) {
      const double mid = 0.5 * (lo + hi);
      (dV(mid) < 0 ? lo : hi) = mid;
    }
    const double expected = 0.5 * (lo + hi);

    auto model = std::make_shared<const Model>(compile(pendulum(m, L)));
    SimulationOptions options;
    options.dt = 1e-3;
    TreeSystem s(model, options);
    Perturbation p;
    p.body = 0;
    p.point = Vec3(0, 0, -L);
    p.target = T;
    p.stiffness = k;
    p.damping = c;
    s.setPerturbation(p);
    QVERIFY(s.perturbation().has_value());
    QVERIFY(s.advanceTo(15.0));
    const double theta = s.positions()(0);
    QVERIFY2(std::abs(theta - expected) < 1e-3,
             qPrintable(QString("settled at %1 rad, statics %2").arg(theta).arg(expected)));
    QVERIFY(std::abs(s.velocities()(0)) < 1e-6);

    // the load at rest: the spring law at the bob's position (the analytic one above)
    const auto load = s.perturbationLoad();
    QVERIFY(load.has_value());
    const Vec3 pos = position(theta);
    const Vec3 vel = Vec3(-L * std::cos(theta), 0.0, L * std::sin(theta)) * s.velocities()(0);
    QVERIFY((load->point - pos).norm() < 1e-12);
    QVERIFY((load->force - (k * (T - pos) - c * vel)).norm() < 1e-9);
    QCOMPARE(load->torque.norm(), 0.0);

    // let go: the pendulum swings back down through the bottom
    s.setPerturbation(std::nullopt);
    QVERIFY(!s.perturbationLoad().has_value());
    QVERIFY(s.advanceTo(15.5));
    QVERIFY(std::abs(s.velocities()(0)) > 1.0);
  }

  void generalizedForceIsTheLoadsVirtualWork_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("body");
    QTest::addColumn<double>("x");
    QTest::addColumn<double>("y");
    QTest::addColumn<double>("z");
    QTest::newRow("planar tree") << "double_pendulum.json" << 1 << 0.7 << 0.05 << 0.0;
    QTest::newRow("spatial tree, free base") << "floatbase_tree.json" << 2 << 0.1 << -0.2 << 0.3;
    QTest::newRow("rigid body") << "bouncing_cylinder.json" << 0 << 0.05 << 0.02 << -0.1;
    QTest::newRow("2D structure") << "natural_pendulum.json" << 1 << 0.6 << 0.0 << 0.0;
    QTest::newRow("3D structure") << "natural_spatial_chain.json" << 1 << 0.3 << 0.0 << 0.0;
  }
  void generalizedForceIsTheLoadsVirtualWork() {
    QFETCH(QString, file);
    QFETCH(int, body);
    QFETCH(double, x);
    QFETCH(double, y);
    QFETCH(double, z);
    const Vec3 point(x, y, z);
    auto s = systemOf(file.toStdString());
    // a state that moves: a few steps from the initial one
    for (int i = 0; i < 20; ++i) QVERIFY(s->step());
    const Eigen::VectorXd q = s->positions(), v = s->velocities();
    const int nv = s->velocitySize();
    Eigen::VectorXd f0(nv), f1(nv);
    s->evaluate(s->time(), q, v);
    s->generalizedForces(f0);
    Perturbation p;
    p.body = body;
    p.point = point;
    p.target = worldPoint(*s, q, body, point) + Vec3(0.3, -0.2, 0.4);
    p.stiffness = 50.0;
    p.damping = 3.0;
    s->setPerturbation(p);
    s->evaluate(s->time(), q, v);
    s->generalizedForces(f1);
    const auto load = s->perturbationLoad();
    QVERIFY(load.has_value());
    // the load's point is the body point bodyPoses places
    QVERIFY((load->point - worldPoint(*s, q, body, point)).norm() < 1e-9);
    Vec3 force = load->force;
    const Eigen::MatrixXd J = pointJacobian(*s, q, body, point);
    // the reported load is the law at the point's velocity J v
    const Vec3 expectedForce = p.stiffness * (p.target - load->point) - p.damping * (J * v);
    const double scale = std::max(1.0, expectedForce.norm());
    // (planar models: z is no coordinate; its force does no work and is not compared)
    for (int i = 0; i < 3; ++i)
      if (J.row(i).norm() > 0) QVERIFY2(std::abs(force(i) - expectedForce(i)) < 1e-6 * scale,
                                        qPrintable(QString("force[%1] %2 vs %3").arg(i)
                                                       .arg(force(i)).arg(expectedForce(i))));
    const Eigen::VectorXd added = f1 - f0, work = J.transpose() * force;
    const double err = (added - work).cwiseAbs().maxCoeff() / std::max(1.0, work.cwiseAbs().maxCoeff());
    QVERIFY2(err < 1e-7, qPrintable(QString("J'F differs by %1 relative").arg(err)));
    QVERIFY(work.cwiseAbs().maxCoeff() > 1.0);  // the check saw a real force
  }

  // the double pendulum as a tree and as a structure (natural_pendulum.json is the mechanism of
  // double_pendulum.json), pulled at the end of the second link, rest at the same place
  void treeAndStructureRestAlike() {
    auto tree = systemOf("double_pendulum.json");
    auto structure = systemOf("natural_pendulum.json");
    const Vec3 end(1, 0, 0);
    QVERIFY((worldPoint(*tree, tree->positions(), 1, end) -
             worldPoint(*structure, structure->positions(), 1, end)).norm() < 1e-12);
    for (System* s : {tree.get(), structure.get()}) {
      Perturbation p;
      p.body = 1;
      p.point = end;
      p.target = Vec3(1.2, 0.9, 0);
      const double m = s->carriedMass(1);
      QCOMPARE(m, 1.0);  // link2 carries itself alone
      p.stiffness = 2 * m * kPerturbationFrequency * kPerturbationFrequency;
      p.damping = 2 * m * kPerturbationFrequency;
      s->setPerturbation(p);
      QVERIFY(s->advanceTo(20.0));
    }
    QCOMPARE(tree->carriedMass(0), 2.0);  // link1 carries link2
    const Vec3 a = worldPoint(*tree, tree->positions(), 1, end);
    const Vec3 b = worldPoint(*structure, structure->positions(), 1, end);
    QVERIFY2((a - b).norm() < 1e-6, qPrintable(QString("tree (%1, %2), structure (%3, %4)")
                                                   .arg(a.x()).arg(a.y()).arg(b.x()).arg(b.y())));
    // and not where it started
    QVERIFY((a - worldPoint(*tree, Eigen::VectorXd(Eigen::Vector2d(M_PI / 3, -M_PI / 6)), 1, end))
                .norm() > 0.1);
  }

  void torqueModeKeepsLinearMomentum() {
    RigidBodySpec spec;
    spec.shape.type = ShapeSpec::Type::Box;
    spec.shape.size = Vec3(0.4, 0.2, 0.1);
    spec.mass = 2.0;
    spec.gravity = Vec3::Zero();
    spec.velocity = Vec3(0.1, 0, 0);
    RigidBodySystem s(spec);
    Perturbation p;
    p.body = 0;
    p.point = Vec3(0.2, 0, 0);
    p.target = Vec3(0, 0.5, 0);
    p.stiffness = 20.0;
    p.damping = 1.0;
    p.torque = true;
    s.setPerturbation(p);
    const auto load = s.perturbationLoad();
    QVERIFY(load && load->force.isZero(0.0) && load->torque.norm() > 1.0);
#ifdef ARTICULATE_SANITIZED
    const double T = 0.5;  // 202,500 steps: the 810,000 of 2 s took 24 s under ASan
#else
    const double T = 2.0;
#endif
    QVERIFY(s.advanceTo(T));
    // a pure torque: the momentum stays exactly (its rate is zero at every stage), the centre of
    // mass goes on at its velocity (to the rounding of 405,000 RK4 position updates a second),
    // and the body has turned
    QCOMPARE(s.velocities().head<3>(), Vec3(0.1, 0, 0));
    QVERIFY((s.positions().head<3>() - Vec3(0.1 * T, 0, 0)).norm() < 1e-10);
    QVERIFY(s.velocities().tail<3>().norm() > 0.1);
  }

  void offsetRigidBodyHangsFromTheSpring() {
    RigidBodySpec spec;
    spec.shape.type = ShapeSpec::Type::Sphere;
    spec.shape.radius = 0.1;
    spec.mass = 0.5;
    spec.referencePoint = Vec3(0.05, 0, 0);  // the general RK4 path
    RigidBodySystem s(spec, 1e-3);            // a static equilibrium: RK4 at 1 ms finds it
    Perturbation p;
    p.body = 0;
    p.target = Vec3(0.3, 0.1, 1.0);
    p.stiffness = 0.5 * 100;
    p.damping = 0.5 * 20;
    s.setPerturbation(p);
    QVERIFY(s.advanceTo(10.0));
    const Vec3 expected = p.target + 0.5 * spec.effectiveGravity() / p.stiffness;
    QVERIFY2((s.positions().head<3>() - expected).norm() < 1e-6,
             qPrintable(QString("z %1, expected %2").arg(s.positions()(2)).arg(expected.z())));
  }

  void refusals() {
    auto tree = systemOf("double_pendulum.json");
    auto rigid = systemOf("bouncing_cylinder.json");
    auto structure = systemOf("natural_pendulum.json");
    for (System* s : {tree.get(), rigid.get(), structure.get()}) {
      Perturbation p;
      p.body = s->bodies();
      QVERIFY_THROWS_EXCEPTION(std::invalid_argument, s->setPerturbation(p));
      QVERIFY_THROWS_EXCEPTION(std::invalid_argument, s->carriedMass(s->bodies()));
      p.body = 0;
      p.stiffness = -1;
      QVERIFY_THROWS_EXCEPTION(std::invalid_argument, s->setPerturbation(p));
      p.stiffness = 1;
      p.target.x() = std::nan("");
      QVERIFY_THROWS_EXCEPTION(std::invalid_argument, s->setPerturbation(p));
      QVERIFY(!s->perturbation().has_value());  // a refusal leaves none
    }
  }
};

ARTICULATE_TEST_MAIN(TestPerturbation)
#include "test_perturbation.moc"
