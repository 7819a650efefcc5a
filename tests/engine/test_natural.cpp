// Structures in natural coordinates: body kinds against the rigid-body formulas, joint rows
// against finite differences, the reference figures of one free body, Zhong06 against the tree
// engine (double pendulum), its long-run energy, its order, cables that never push, a
// spring-mass oscillation against the closed form, and the structure files of models/.
#include <QtTest>

#include "test_main.h"

#include <cmath>
#include <random>

#include <Eigen/Geometry>
#include <Eigen/QR>

#include "articulate/formulations/generators.h"
#include "articulate/formats/document.h"
#include "articulate/formats/files.h"
#include "articulate/formulations/natural/integrator.h"
#include "articulate/formulations/natural/structure.h"
#include "articulate/formats/structure.h"
#include "articulate/formulations/tree_simulation.h"
#include "articulate/simulation/structure_system.h"

namespace nc = art::natural;

namespace {

const QString kModels = QStringLiteral(ARTICULATE_MODELS_DIR);

Eigen::Matrix3d randomNaturalRotation(std::mt19937& rng) {
  std::normal_distribution<double> n;
  return Eigen::Quaterniond(n(rng), n(rng), n(rng), n(rng)).normalized().toRotationMatrix();
}

Eigen::Vector3d randomVector(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  return Eigen::Vector3d(u(rng), u(rng), u(rng));
}

// a random body of the kind, placed and moving at random (2D: in the xy plane, about z)
nc::BodySpec randomBody(nc::BodyKind kind, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(0.5, 2.0);
  nc::BodySpec b;
  b.name = "b";
  b.kind = kind;
  const int d = nc::kindDimension(kind);
  b.origin = randomVector(rng);
  b.velocity = randomVector(rng);
  b.angularVelocity = randomVector(rng);
  if (d == 2) {
    const double a = u(rng) * 3;
    b.orientation = Eigen::AngleAxisd(a, Eigen::Vector3d::UnitZ()).toRotationMatrix();
    b.origin.z() = b.velocity.z() = 0;
    b.angularVelocity.x() = b.angularVelocity.y() = 0;
  } else {
    b.orientation = randomNaturalRotation(rng);
  }
  b.length = u(rng);
  b.mass = u(rng);
  b.massCentre = randomVector(rng);
  if (nc::kindAxes(kind) < 3) b.massCentre.z() = 0;
  if (nc::kindAxes(kind) < 2) b.massCentre.y() = 0;
  const Eigen::Vector3d p(u(rng), u(rng), u(rng));  // principal moments, triangle inequality
  const Eigen::Vector3d moments(p.y() + p.z(), p.x() + p.z(), p.x() + p.y());
  const Eigen::Matrix3d Q = randomNaturalRotation(rng);
  b.inertia = nc::kindAxes(kind) == 3 ? Eigen::Matrix3d(Q * moments.asDiagonal() * Q.transpose())
                                      : Eigen::Matrix3d(u(rng) * Eigen::Matrix3d::Identity());
  return b;
}

// kinetic energy of the rigid body by the rigid-body formulas: 1/2 m vc^2 + 1/2 w . Ic w
double rigidKinetic(const nc::BodySpec& b) {
  const int k = nc::kindAxes(b.kind), d = nc::kindDimension(b.kind);
  const Eigen::Matrix3d& R = b.orientation;
  Eigen::Vector3d w = b.angularVelocity;
  Eigen::Vector3d c = b.massCentre;
  if (k == 1) c = Eigen::Vector3d(c.x(), 0, 0);
  const Eigen::Vector3d vc = b.velocity + w.cross(R * c);
  double rot = 0;
  if (k == 3) {
    rot = w.dot(R * b.inertia * R.transpose() * w);
  } else if (d == 2) {
    rot = b.inertia(0, 0) * w.z() * w.z();
  } else {  // 3D bar: no inertia about its axis
    const Eigen::Vector3d a = R.col(0);
    const Eigen::Vector3d wp = w - a * a.dot(w);
    rot = b.inertia(0, 0) * wp.squaredNorm();
  }
  return 0.5 * b.mass * vc.squaredNorm() + 0.5 * rot;
}

// one body in a structure of its dimension
nc::StructureSpec single(const nc::BodySpec& b) {
  nc::StructureSpec s;
  s.dimension = nc::kindDimension(b.kind);
  s.bodies.push_back(b);
  return s;
}

// central differences of the residual: d phi / d q (dense)
Eigen::MatrixXd numericJacobian(const nc::Structure& s, nc::StructureData& d,
                                const Eigen::VectorXd& q) {
  const double eps = 1e-6;
  Eigen::MatrixXd J(s.nc(), s.nq());
  for (int j = 0; j < s.nq(); ++j) {
    Eigen::VectorXd a = q, b = q;
    a(j) += eps;
    b(j) -= eps;
    const Eigen::VectorXd pa = nc::constraintResidual(s, d, a);
    J.col(j) = (pa - nc::constraintResidual(s, d, b)) / (2 * eps);
  }
  return J;
}

// the double pendulum of art::doublePendulum() as a natural-coordinate structure
nc::StructureSpec naturalDoublePendulum() { return nc::loadStructure((kModels + "/natural_pendulum.json").toStdString()); }

// relative joint angles of the two bars from their axes
Eigen::Vector2d pendulumAngles(const Eigen::VectorXd& q) {
  const double a1 = std::atan2(q(3), q(2)), a2 = std::atan2(q(7), q(6));
  return Eigen::Vector2d(a1, std::remainder(a2 - a1, 2 * M_PI));
}

}  // namespace

class TestNatural : public QObject {
  Q_OBJECT

 private slots:
  // sizes of each kind, zero intrinsic residual, points mapped by C(c), and the kinetic energy
  // 1/2 qd' M qd equal to the rigid-body formula for random states on the constraints
  void bodyKinds_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("coordinates");
    QTest::addColumn<int>("intrinsic");
    const int rows[][3] = {{0, 4, 1}, {1, 4, 1}, {2, 6, 3}, {3, 6, 3},
                           {4, 6, 1}, {5, 6, 1}, {6, 12, 6}, {7, 12, 6}};
    for (const auto& r : rows)
      QTest::newRow(nc::bodyKindName(static_cast<nc::BodyKind>(r[0]))) << r[0] << r[1] << r[2];
  }
  void bodyKinds() {
    QFETCH(int, kind);
    QFETCH(int, coordinates);
    QFETCH(int, intrinsic);
    std::mt19937 rng(static_cast<unsigned>(kind + 1));
    for (int trial = 0; trial < 20; ++trial) {
      const nc::BodySpec b = randomBody(static_cast<nc::BodyKind>(kind), rng);
      const nc::Structure s(single(b));
      nc::StructureData d(s);
      QCOMPARE(s.nq(), coordinates);
      QCOMPARE(s.nc(), intrinsic);
      QCOMPARE(s.intrinsicRowCount(), intrinsic);
      QVERIFY(nc::constraintResidual(s, d, s.q0()).lpNorm<Eigen::Infinity>() < 1e-12);
      // velocities on the constraints: A qd = 0
      const Eigen::VectorXd v = Eigen::MatrixXd(nc::constraintJacobian(s, d, s.q0())) * s.qd0();
      QVERIFY(v.lpNorm<Eigen::Infinity>() < 1e-12);
      const double ke = nc::kineticEnergy(s, d, s.qd0());
      QVERIFY2(std::abs(ke - rigidKinetic(b)) < 1e-12 * (1 + ke),
               qPrintable(QString("%1 vs %2").arg(ke).arg(rigidKinetic(b))));
      // a local point goes where the rigid placement puts it
      Eigen::Vector3d c = randomVector(rng);
      if (nc::kindAxes(b.kind) < 3) c.z() = 0;
      if (nc::kindAxes(b.kind) < 2) c.y() = 0;
      const Eigen::Vector3d expect = b.origin + b.orientation * c;
      QVERIFY((nc::pointPosition(s, 0, c, s.q0()) - expect).norm() < 1e-12);
      // the potential of gravity is that of the mass at its centre
      nc::StructureSpec g = single(b);
      g.gravity = Eigen::Vector3d(0, -9.81, nc::kindDimension(b.kind) == 3 ? -1.0 : 0.0);
      const nc::Structure sg(g);
      nc::StructureData dg(sg);
      Eigen::Vector3d cm = b.massCentre;
      if (nc::kindAxes(b.kind) < 2) cm.y() = 0;
      const double V = -b.mass * g.gravity.dot(b.origin + b.orientation * cm);
      QVERIFY(std::abs(nc::potentialEnergy(sg, dg, sg.q0()) - V) < 1e-12);
    }
  }

  // one free 3D body: 12 coordinates, 6 constraints, 6 DoF, zero residual at the reference,
  // a 6x12 Jacobian and a 12x12 mass matrix; under gravity with dt = 1e-3, 10 steps give 11
  // samples and the first step's mid-step velocity is [0, 0, -0.004905]
  void freeBodyReferenceFigures() {
    nc::BodySpec b;
    b.name = "body";
    b.inertia = Eigen::Vector3d(0.2, 0.3, 0.4).asDiagonal();
    nc::StructureSpec spec = single(b);
    spec.gravity = Eigen::Vector3d(0, 0, -9.81);
    const nc::Structure s(spec);
    nc::StructureData d(s);
    QCOMPARE(s.nq(), 12);
    QCOMPARE(s.nc(), 6);
    QCOMPARE(s.dof(), 6);
    QCOMPARE(nc::constraintResidual(s, d, s.q0()).norm(), 0.0);
    QCOMPARE(nc::constraintJacobian(s, d, s.q0()).rows(), 6);
    QCOMPARE(nc::constraintJacobian(s, d, s.q0()).cols(), 12);
    QCOMPARE(s.massMatrix().rows(), 12);
    QCOMPARE(s.massMatrix().cols(), 12);
    nc::StructureSimulation sim(s, nc::SimulationOptions{});
    std::vector<Eigen::VectorXd> samples{sim.q()};
    for (int k = 0; k < 10; ++k) {
      QVERIFY(sim.step());
      samples.push_back(sim.q());
      if (k == 0) {
        const Eigen::Vector3d mid = (samples[1] - samples[0]).head<3>() / 1e-3;
        QVERIFY((mid - Eigen::Vector3d(0, 0, -0.004905)).norm() < 1e-12);
      }
    }
    QCOMPARE(samples.size(), std::size_t(11));
    // the body's view is the system vector's memory
    Eigen::VectorXd q = sim.q();
    s.bodyView(q, 0)(2) = 7.0;
    QCOMPARE(q(2), 7.0);
    QCOMPARE(s.bodyView(sim.q(), 0).data(), sim.q().data());
    QVERIFY(sim.constraintError() < 1e-12);
  }

  // every joint type: the Jacobian equals central differences of phi at perturbed states, the
  // velocity term equals the derivative of A qd, the rows hold at the reference, the joint
  // leaves the documented degrees of freedom, and its rows are independent there
  void jointRowsAgainstFiniteDifferences_data() {
    QTest::addColumn<int>("type");
    QTest::addColumn<int>("dimension");
    QTest::addColumn<bool>("ground");
    QTest::addColumn<int>("dof");
    const struct {
      nc::JointType t;
      int d, dof;
    } rows[] = {{nc::JointType::Spherical, 3, 3},   {nc::JointType::Revolute, 3, 1},
                {nc::JointType::Prismatic, 3, 1},   {nc::JointType::Universal, 3, 2},
                {nc::JointType::Cylindrical, 3, 2}, {nc::JointType::Planar, 3, 3},
                {nc::JointType::Fixed, 3, 0},       {nc::JointType::Distance, 3, 5},
                {nc::JointType::Revolute, 2, 1},    {nc::JointType::Prismatic, 2, 1},
                {nc::JointType::Fixed, 2, 0},       {nc::JointType::Distance, 2, 2}};
    for (const auto& r : rows)
      for (bool ground : {false, true})
        QTest::newRow(qPrintable(QString("%1 %2D%3").arg(nc::jointTypeName(r.t)).arg(r.d).arg(ground ? " to ground" : "")))
            << static_cast<int>(r.t) << r.d << ground << r.dof;
  }
  void jointRowsAgainstFiniteDifferences() {
    QFETCH(int, type);
    QFETCH(int, dimension);
    QFETCH(bool, ground);
    QFETCH(int, dof);
    std::mt19937 rng(static_cast<unsigned>(type * 7 + dimension));
    nc::StructureSpec spec;
    spec.dimension = dimension;
    const nc::BodyKind kind = dimension == 3 ? nc::BodyKind::Rigid3D : nc::BodyKind::Rigid2D;
    for (int i = 0; i < 2; ++i) {
      nc::BodySpec b = randomBody(kind, rng);
      b.name = "b" + std::to_string(i);
      spec.bodies.push_back(b);
    }
    nc::JointSpec j;
    j.name = "j";
    j.type = static_cast<nc::JointType>(type);
    j.hen = ground ? -1 : 0;
    j.egg = 1;
    j.point = randomVector(rng);
    j.point2 = randomVector(rng);
    Eigen::Vector3d axis = randomVector(rng);
    if (dimension == 2) j.point.z() = j.point2.z() = axis.z() = 0;
    j.axis = axis.normalized();
    j.axis2 = j.axis.unitOrthogonal();
    spec.joints.push_back(j);
    const nc::Structure s(spec);
    nc::StructureData d(s);
    const int bodyDof = dimension == 3 ? 6 : 3;
    QCOMPARE(s.dof(), dof + bodyDof);  // body 0 is free when the hen is the ground
    QVERIFY(nc::constraintResidual(s, d, s.q0()).lpNorm<Eigen::Infinity>() < 1e-12);
    Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(Eigen::MatrixXd(nc::constraintJacobian(s, d, s.q0())));
    QCOMPARE(static_cast<int>(qr.rank()), s.nc());
    for (int trial = 0; trial < 5; ++trial) {
      const Eigen::VectorXd q = s.q0() + 0.3 * Eigen::VectorXd::Random(s.nq());
      const Eigen::VectorXd qd = Eigen::VectorXd::Random(s.nq());
      const Eigen::MatrixXd A = nc::constraintJacobian(s, d, q);
      QVERIFY((A - numericJacobian(s, d, q)).lpNorm<Eigen::Infinity>() < 1e-7);
      // Adot qd = d/dt (A qd) along qd
      const double eps = 1e-6;
      const Eigen::VectorXd Ap = Eigen::MatrixXd(nc::constraintJacobian(s, d, q + eps * qd)) * qd;
      const Eigen::VectorXd Am = Eigen::MatrixXd(nc::constraintJacobian(s, d, q - eps * qd)) * qd;
      const Eigen::VectorXd g = nc::constraintVelocityTerm(s, d, qd);
      QVERIFY(((Ap - Am) / (2 * eps) - g).lpNorm<Eigen::Infinity>() < 1e-6);
    }
  }

  // spring and cable force Jacobians (used by Zhong06's Newton matrix) against differences of
  // the assembled force
  void apparatusForceJacobians() {
    const nc::StructureSpec spec =
        nc::loadStructure((kModels + "/tensegrity_prism.json").toStdString());
    const nc::Structure s(spec);
    nc::StructureData d(s);
    const Eigen::VectorXd q = s.q0() + 0.01 * Eigen::VectorXd::Random(s.nq());
    const Eigen::VectorXd qd = Eigen::VectorXd::Random(s.nq());
    nc::updateStructure(s, d, q, qd);
    // assemble dF/dq from the per-apparatus blocks
    Eigen::MatrixXd K = Eigen::MatrixXd::Zero(s.nq(), s.nq());
    for (std::size_t k = 0; k < s.apparatuses().size(); ++k) {
      const nc::CompiledApparatus& a = s.apparatuses()[k];
      const int oA = s.bodyOffset(a.bodyA), oB = s.bodyOffset(a.bodyB);
      const Eigen::MatrixXd Kp = d.Kp[k];
      K.block(oA, oA, a.CA.cols(), a.CA.cols()) -= a.CA.transpose() * Kp * a.CA;
      K.block(oA, oB, a.CA.cols(), a.CB.cols()) += a.CA.transpose() * Kp * a.CB;
      K.block(oB, oA, a.CB.cols(), a.CA.cols()) += a.CB.transpose() * Kp * a.CA;
      K.block(oB, oB, a.CB.cols(), a.CB.cols()) -= a.CB.transpose() * Kp * a.CB;
    }
    const double eps = 1e-7;
    for (int j = 0; j < s.nq(); ++j) {
      Eigen::VectorXd a = q, b = q;
      a(j) += eps;
      b(j) -= eps;
      nc::updateStructure(s, d, a, qd);
      const Eigen::VectorXd Fa = d.F;
      nc::updateStructure(s, d, b, qd);
      const Eigen::VectorXd col = (Fa - d.F) / (2 * eps);
      QVERIFY2((col - K.col(j)).lpNorm<Eigen::Infinity>() < 1e-4 * (1 + col.norm()),
               qPrintable(QString("column %1").arg(j)));
    }
  }

  // the double pendulum built both ways gives the same joint angles over 2 s
  void doublePendulumMatchesTree() {
    const art::Model model = art::compile(art::doublePendulum());
    art::SimulationOptions topt;
    topt.dt = 1e-4;
    art::Simulation tree(model, topt);
    const nc::Structure s(naturalDoublePendulum());
    nc::SimulationOptions opt;
    opt.dt = 1e-4;
    nc::StructureSimulation sim(s, opt);
    QVERIFY((pendulumAngles(sim.q()) - Eigen::Vector2d(M_PI / 3, -M_PI / 6)).norm() < 1e-12);
    double worst = 0;
    for (int k = 1; k <= 20; ++k) {
      QVERIFY(tree.advanceTo(0.1 * k));
      QVERIFY(sim.advanceTo(0.1 * k));
      const Eigen::Vector2d diff = pendulumAngles(sim.q()) - Eigen::Vector2d(tree.q());
      for (int i = 0; i < 2; ++i) worst = std::max(worst, std::abs(std::remainder(diff(i), 2 * M_PI)));
    }
    qInfo("double pendulum, natural (Zhong06) vs tree (RK4), 0.1 ms: %g rad", worst);
    QVERIFY2(worst < 1e-4, qPrintable(QString("angle difference %1 rad").arg(worst)));
    // the energies agree too
    const double e = sim.energy().total(), et = tree.energy().kinetic + tree.energy().potential;
    QVERIFY2(std::abs(e - et) < 1e-4, qPrintable(QString("%1 vs %2").arg(e).arg(et)));
  }

  // a spatial 3-link chain (revolute joints about y, z and x of links laid out along x) built
  // as a tree and as a structure of rigid3d bodies, started with every joint moving: the
  // natural coordinates follow the tree's placements (origins and axes) over 2 s
  void spatialChainMatchesTree() {
    const Eigen::Vector3d com(0.25, 0, 0), qd0(0.5, 2.0, 3.0);
    const Eigen::Matrix3d Ic = Eigen::Vector3d(0.002, 0.02, 0.02).asDiagonal();
    const art::JointType types[3] = {art::JointType::Ry, art::JointType::Rz, art::JointType::Rx};
    const Eigen::Vector3d axes[3] = {Eigen::Vector3d::UnitY(), Eigen::Vector3d::UnitZ(),
                                     Eigen::Vector3d::UnitX()};
    art::ModelSpec tree;
    nc::StructureSpec spec;
    spec.gravity = Eigen::Vector3d(0, 0, -9.81);
    tree.gravity = spec.gravity;
    Eigen::Vector3d w = Eigen::Vector3d::Zero(), v = Eigen::Vector3d::Zero();
    for (int i = 0; i < 3; ++i) {
      art::BodySpec tb;
      tb.name = "link" + std::to_string(i + 1);
      tb.parent = i - 1;
      tb.joint.type = types[i];
      tb.translation = Eigen::Vector3d(i == 0 ? 0.0 : 0.5, 0, 0);
      tb.inertia = art::InertiaSpec::fromMassComInertia(1.0, com, Ic);
      tb.qd0 = qd0(i);
      tree.bodies.push_back(tb);
      // the same link at q = 0: origin at 0.5 i along x, axes the world's
      nc::BodySpec nb;
      nb.name = tb.name;
      nb.origin = Eigen::Vector3d(0.5 * i, 0, 0);
      nb.massCentre = com;
      nb.inertia = Ic;
      if (i > 0) v += w.cross(Eigen::Vector3d(0.5, 0, 0));
      w += qd0(i) * axes[i];
      nb.velocity = v;
      nb.angularVelocity = w;
      spec.bodies.push_back(nb);
      nc::JointSpec j;
      j.name = "joint" + std::to_string(i + 1);
      j.hen = i - 1;
      j.egg = i;
      j.point = nb.origin;
      j.axis = axes[i];
      spec.joints.push_back(j);
    }
    const art::Model model = art::compile(tree);
    art::SimulationOptions topt;
    topt.dt = 1e-4;
    art::Simulation ts(model, topt);
    const nc::Structure s(spec);
    QCOMPARE(s.dof(), 3);
    nc::SimulationOptions opt;
    opt.dt = 1e-4;
    nc::StructureSimulation sim(s, opt);
    // the natural coordinates of the tree's state: each link's origin and world axes
    auto placements = [&](const Eigen::VectorXd& q) {
      Eigen::VectorXd x(36);
      Eigen::Matrix3d R = Eigen::Matrix3d::Identity();
      Eigen::Vector3d p = Eigen::Vector3d::Zero();
      for (int i = 0; i < 3; ++i) {
        if (i > 0) p += R * Eigen::Vector3d(0.5, 0, 0);
        R = R * Eigen::AngleAxisd(q(i), axes[i]).toRotationMatrix();
        x.segment<3>(12 * i) = p;
        for (int a = 0; a < 3; ++a) x.segment<3>(12 * i + 3 + 3 * a) = R.col(a);
      }
      return x;
    };
    QVERIFY((placements(ts.q()) - sim.q()).norm() < 1e-12);
    double worst = 0;
    for (int k = 1; k <= 20; ++k) {
      QVERIFY(ts.advanceTo(0.1 * k));
      QVERIFY(sim.advanceTo(0.1 * k));
      worst = std::max(worst, (placements(ts.q()) - sim.q()).lpNorm<Eigen::Infinity>());
    }
    qInfo("spatial chain, natural (Zhong06) vs tree (RK4), 0.1 ms: %g", worst);
    QVERIFY2(worst < 1e-4, qPrintable(QString("largest coordinate difference %1").arg(worst)));
    const double et = ts.energy().kinetic + ts.energy().potential;
    QVERIFY2(std::abs(sim.energy().total() - et) < 1e-4,
             qPrintable(QString("%1 vs %2").arg(sim.energy().total()).arg(et)));
  }

  // 100 s of the double pendulum with Zhong06 at 1 ms: the energy error stays bounded (the
  // second 50 s do not exceed the first by more than the chaotic motion's fluctuation: no
  // drift) and the constraints hold at every step. The 1000 s figures (nc_double_pendulum,
  // articulate-cli simulate --duration 1000) are in docs/cli.md; this is their cheap guard.
  void zhong06LongRun() {
    const nc::Structure s(naturalDoublePendulum());
    nc::StructureSimulation sim(s, nc::SimulationOptions{});
    const double e0 = sim.energy().total();
    double worst[2] = {0, 0}, worstResidual = 0;
    for (int k = 0; k < 100000; ++k) {
      QVERIFY(sim.step());
      if (k % 10 == 0) {
        double& w = worst[k < 50000 ? 0 : 1];
        w = std::max(w, std::abs(sim.energy().total() - e0));
        worstResidual = std::max(worstResidual, sim.constraintError());
      }
    }
    qInfo("Zhong06, 100 s at 1 ms: max |E - E0| = %g J in the first 50 s, %g J in the next "
          "(E0 = %g J), max residual %g", worst[0], worst[1], e0, worstResidual);
    QVERIFY(std::max(worst[0], worst[1]) < 1e-3 * std::abs(e0));
    QVERIFY(worst[1] < 1.5 * worst[0]);
    QVERIFY(worstResidual < 1e-10);
  }

  // bounded against drifting: nc_double_pendulum for 200 s at 5 ms. Zhong06's energy error
  // oscillates without growing (the second 100 s within 1.5 times the first); RK4's (index
  // 1, Baumgarte) is smaller at first (fourth order) but drifts: the energy keeps falling,
  // its error at 200 s more than 1.5 times that at 100 s (measured over 1000 s: Zhong06
  // 1.5e-2 relative throughout, RK4 6e-4 after 100 s growing to 7.2e-3)
  void zhong06BoundedRk4Drifts() {
    const nc::Structure s(nc::loadStructure((kModels + "/nc_double_pendulum.json").toStdString()));
    auto run = [&](nc::Integrator integrator, double* worst, double* at) {
      nc::SimulationOptions opt;
      opt.integrator = integrator;
      opt.dt = 5e-3;
      nc::StructureSimulation sim(s, opt);
      const double e0 = sim.energy().total();
      for (int k = 1; k <= 40000; ++k) {
        if (!sim.step()) return false;
        const double err = std::abs(sim.energy().total() - e0) / std::abs(e0);
        worst[k <= 20000 ? 0 : 1] = std::max(worst[k <= 20000 ? 0 : 1], err);
        if (k == 20000) at[0] = err;
      }
      at[1] = std::abs(sim.energy().total() - e0) / std::abs(e0);
      return true;
    };
    double zw[2] = {0, 0}, za[2] = {0, 0}, rw[2] = {0, 0}, ra[2] = {0, 0};
    QVERIFY(run(nc::Integrator::Zhong06, zw, za));
    QVERIFY(run(nc::Integrator::RK4, rw, ra));
    qInfo("relative energy error, 5 ms: Zhong06 max %g (0-100 s), %g (100-200 s); RK4 %g at "
          "100 s, %g at 200 s", zw[0], zw[1], ra[0], ra[1]);
    QVERIFY(zw[1] < 1.5 * zw[0]);
    QVERIFY(zw[1] < 0.05);
    QVERIFY(ra[1] > 1.5 * ra[0]);
  }

  // Zhong06's Newton matrix holds the apparatuses' force Jacobians: its top-left block equals
  // central differences of the step residual M (q1 - q0) - h p0 - h^2/2 F(qm, vm) + A(q0)' mu
  // in q1 (the tensegrity prism: cables with damping, taut and slack), and its other blocks
  // are A(q0)' and A(q1)
  void zhong06NewtonMatrixHasForceJacobians() {
    const nc::Structure s(nc::loadStructure((kModels + "/tensegrity_prism.json").toStdString()));
    nc::StructureData d(s);
    const int n = s.nq(), m = s.nc();
    const double h = 1e-3;
    const Eigen::VectorXd q0 = s.q0() + 0.01 * Eigen::VectorXd::Random(n);
    const Eigen::VectorXd q1 = q0 + h * Eigen::VectorXd::Random(n);
    const Eigen::MatrixXd J = nc::zhong06NewtonMatrix(s, q0, q1, h);
    QCOMPARE(J.rows(), n + m);
    auto force = [&](const Eigen::VectorXd& x) {
      nc::updateStructure(s, d, 0.5 * (q0 + x), (x - q0) / h);
      return Eigen::VectorXd(d.F);
    };
    const double eps = 1e-7;
    Eigen::MatrixXd fd(n, n);
    for (int j = 0; j < n; ++j) {
      Eigen::VectorXd a = q1, b = q1;
      a(j) += eps;
      b(j) -= eps;
      // d/dq1 of M (q1 - q0) - h^2/2 F: M e_j - h^2/2 dF
      fd.col(j) = s.denseMassMatrix().col(j) - 0.5 * h * h * (force(a) - force(b)) / (2 * eps);
    }
    const double err = (J.topLeftCorner(n, n) - fd).lpNorm<Eigen::Infinity>();
    QVERIFY2(err < 1e-9, qPrintable(QString("Newton block error %1").arg(err)));
    // the damping's part is visible at this step: without it the block differs
    QVERIFY((J.topLeftCorner(n, n) - s.denseMassMatrix()).lpNorm<Eigen::Infinity>() > 1e-6);
    const Eigen::MatrixXd A0 = Eigen::MatrixXd(nc::constraintJacobian(s, d, q0));
    const Eigen::MatrixXd A1 = Eigen::MatrixXd(nc::constraintJacobian(s, d, q1));
    QVERIFY((J.topRightCorner(n, m) - A0.transpose()).norm() < 1e-14);
    QVERIFY((J.bottomLeftCorner(m, n) - A1).norm() < 1e-14);
  }

  // Zhong06 is second order: halving the step quarters the error at t = 1 s
  void zhong06SecondOrder() {
    const nc::Structure s(naturalDoublePendulum());
    auto run = [&](double h) {
      nc::SimulationOptions opt;
      opt.dt = h;
      nc::StructureSimulation sim(s, opt);
      sim.advanceTo(0.5);
      return Eigen::VectorXd(sim.q());
    };
    const Eigen::VectorXd ref = run(1e-3 / 64);
    double previous = 0;
    for (int i = 0; i < 3; ++i) {
      const double err = (run(1e-2 / (1 << i)) - ref).norm();
      if (i > 0) {
        const double order = std::log2(previous / err);
        QVERIFY2(order > 1.8 && order < 2.2, qPrintable(QString("order %1").arg(order)));
      }
      previous = err;
    }
  }

  // RK4 with Baumgarte agrees with Zhong06 on the double pendulum over 1 s
  void rk4AgreesWithZhong06() {
    const nc::Structure s(naturalDoublePendulum());
    nc::SimulationOptions opt;
    opt.dt = 1e-4;
    nc::StructureSimulation z(s, opt);
    opt.integrator = nc::Integrator::RK4;
    nc::StructureSimulation r(s, opt);
    QVERIFY(z.advanceTo(1.0));
    QVERIFY(r.advanceTo(1.0));
    QVERIFY2((z.q() - r.q()).norm() < 1e-5, qPrintable(QString::number((z.q() - r.q()).norm())));
    QVERIFY(r.constraintError() < 1e-6);
  }

  // a point mass on a vertical cable: slack (no force) while the cable is shorter than its rest
  // length, pulling only; the tension is never negative in a bouncing run
  void cablesNeverPush() {
    nc::StructureSpec spec;
    spec.dimension = 2;
    spec.gravity = Eigen::Vector3d(0, -9.81, 0);
    nc::BodySpec b;
    b.name = "mass";
    b.kind = nc::BodyKind::Rigid2D;
    b.origin = Eigen::Vector3d(0, -0.5, 0);
    b.inertia(0, 0) = 0.01;
    spec.bodies.push_back(b);
    nc::ApparatusSpec c;
    c.name = "cable";
    c.type = nc::ApparatusType::Cable;
    c.bodyA = -1;
    c.bodyB = 0;
    c.pointB = b.origin;
    c.stiffness = 500;
    c.damping = 1;
    c.restLength = 1.0;
    spec.apparatuses.push_back(c);
    const nc::Structure s(spec);
    nc::StructureData d(s);
    // compressed: slack, only gravity
    nc::updateStructure(s, d, s.q0(), s.qd0());
    QCOMPARE(d.tension[0], 0.0);
    QVERIFY((d.F - s.gravityForce()).norm() == 0.0);
    // moving towards the anchor while stretched: damping cannot make it push
    Eigen::VectorXd q = s.q0(), qd = s.qd0();
    q(1) = -1.01;
    qd(1) = 100;
    nc::updateStructure(s, d, q, qd);
    QCOMPARE(d.tension[0], 0.0);
    // the same as a spring pushes
    spec.apparatuses[0].type = nc::ApparatusType::Spring;
    const nc::Structure spring(spec);
    nc::StructureData ds(spring);
    nc::updateStructure(spring, ds, spring.q0(), spring.qd0());
    QVERIFY(ds.tension[0] < 0);
    // falls, catches, bounces: never negative
    nc::StructureSimulation sim(s, nc::SimulationOptions{});
    double lowest = 0, highest = 0;
    for (int k = 0; k < 3000; ++k) {
      QVERIFY(sim.step());
      nc::updateStructure(s, d, sim.q(), sim.qd());
      lowest = std::min(lowest, d.tension[0]);
      highest = std::max(highest, d.tension[0]);
    }
    QVERIFY(lowest >= 0.0);
    QVERIFY(highest > 9.81);
  }

  // a body on a prismatic joint pulled by a spring oscillates as x0 + a cos(sqrt(k/m) t)
  void springMassOscillation() {
    nc::StructureSpec spec;
    spec.dimension = 2;
    nc::BodySpec b;
    b.name = "mass";
    b.kind = nc::BodyKind::Bar2D;
    b.length = 0.2;
    b.mass = 2.0;
    b.massCentre = Eigen::Vector3d::Zero();
    b.inertia(0, 0) = 0.01;
    b.origin = Eigen::Vector3d(1.1, 0, 0);
    spec.bodies.push_back(b);
    nc::JointSpec j;
    j.name = "slider";
    j.type = nc::JointType::Prismatic;
    j.hen = -1;
    j.egg = 0;
    j.point = b.origin;
    j.axis = Eigen::Vector3d::UnitX();
    spec.joints.push_back(j);
    nc::ApparatusSpec sp;
    sp.name = "spring";
    sp.bodyB = 0;
    sp.pointB = b.origin;
    sp.stiffness = 50;
    sp.restLength = 1.0;
    spec.apparatuses.push_back(sp);
    const nc::Structure s(spec);
    QCOMPARE(s.dof(), 1);
    nc::SimulationOptions opt;
    opt.dt = 1e-4;
    nc::StructureSimulation sim(s, opt);
    const double w = std::sqrt(50 / 2.0);
    double worst = 0;
    for (int k = 1; k <= 30; ++k) {
      QVERIFY(sim.advanceTo(0.1 * k));
      worst = std::max(worst, std::abs(sim.q()(0) - (1.0 + 0.1 * std::cos(w * sim.time()))));
    }
    QVERIFY2(worst < 1e-6, qPrintable(QString("error %1 m").arg(worst)));
    QVERIFY(std::abs(sim.q()(1)) < 1e-12);
  }

  // the sparse solver (SparseLU, chosen from 200 unknowns) steps as the dense one does
  void sparseSolverMatchesDense() {
    const nc::Structure s(nc::barChain(30));
    nc::SimulationOptions opt;
    opt.solver = nc::LinearSolver::Dense;
    nc::StructureSimulation dense(s, opt);
    opt.solver = nc::LinearSolver::Auto;
    opt.denseLimit = 50;
    nc::StructureSimulation sparse(s, opt);
    QVERIFY(!dense.sparse());
    QVERIFY(sparse.sparse());
    QVERIFY(dense.advanceTo(0.2));
    QVERIFY(sparse.advanceTo(0.2));
    QVERIFY((dense.q() - sparse.q()).lpNorm<Eigen::Infinity>() < 1e-9);
    QVERIFY((dense.qd() - sparse.qd()).lpNorm<Eigen::Infinity>() < 1e-8);
    QVERIFY(sparse.constraintError() < 1e-10);
    QVERIFY(nc::Structure(nc::barChain(100)).nq() + nc::Structure(nc::barChain(100)).nc() >= 200);
  }

  // the structure files of models/: load, round-trip, simulate 1 s with Zhong06 with the
  // constraints held (the four-bar to 1e-10 at every step) and the energy of the conservative
  // ones kept
  void structureModels_data() {
    QTest::addColumn<QString>("file");
    for (const QString& f : QDir(kModels).entryList({"*.json"}, QDir::Files, QDir::Name))
      if (nc::isStructureDocument(art::readJsonFile((kModels + "/" + f).toStdString())))
        QTest::newRow(qPrintable(f)) << f;
  }
  void structureModels() {
    QFETCH(QString, file);
    const nc::StructureSpec spec = nc::loadStructure((kModels + "/" + file).toStdString());
    QVERIFY(!spec.description.empty());
    // writer and reader agree
    art::Diagnostics problems;
    const nc::StructureSpec back =
        nc::structureFromJson(nlohmann::json::parse(nc::structureToJson(spec).dump()), problems);
    QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().text().c_str());
    const nc::Structure s(spec), sb(back);
    QVERIFY((s.q0() - sb.q0()).lpNorm<Eigen::Infinity>() < 1e-14);
    QVERIFY((s.qd0() - sb.qd0()).lpNorm<Eigen::Infinity>() < 1e-14);
    QVERIFY((s.denseMassMatrix() - sb.denseMassMatrix()).lpNorm<Eigen::Infinity>() < 1e-14);
    QCOMPARE(sb.nc(), s.nc());
    // drawing instructions round-trip, and the display model draws them (every body of the
    // shipped structures has its own appearance)
    QVERIFY(back.baseAppearance == spec.baseAppearance);
    const art::ModelSpec shown = art::displayModel(spec);
    QCOMPARE(shown.bodies.size(), spec.bodies.size());
    QVERIFY(shown.baseAppearance == spec.baseAppearance);
    for (std::size_t b = 0; b < spec.bodies.size(); ++b) {
      QVERIFY(spec.bodies[b].appearance.has_value());
      QVERIFY(back.bodies[b].appearance == spec.bodies[b].appearance);
      QVERIFY(shown.bodies[b].appearance == *spec.bodies[b].appearance);
    }
    nc::StructureSimulation sim(s, nc::simulationOptions(spec));
    nc::StructureData d(s);
    double worst = 0;
    while (sim.time() < 1.0 - 1e-12) {
      QVERIFY2(sim.step(), sim.failure() ? sim.failure()->c_str() : "");
      worst = std::max(worst, sim.constraintError());
    }
    QVERIFY2(worst < 1e-10, qPrintable(QString("constraint residual %1").arg(worst)));
    QVERIFY(sim.q().allFinite() && sim.qd().allFinite());
  }

  // reading reports problems at their JSON paths
  void readerReportsPaths() {
    nlohmann::json doc = nlohmann::json::parse(
        nc::structureToJson(naturalDoublePendulum()).dump());
    doc["bodies"][1]["mass"] = -1;
    doc["joints"][0]["egg"] = "nobody";
    doc["bodies"][0]["colour"] = 1;
    doc["joints"][1]["type"] = "weld";
    art::Diagnostics problems;
    nc::structureFromJson(doc, problems);
    QStringList paths;
    for (const auto& p : problems) paths << QString::fromStdString(p.path);
    QVERIFY2(paths.contains("bodies[1].mass"), qPrintable(paths.join(",")));
    QVERIFY(paths.contains("joints[0].egg"));
    QVERIFY(paths.contains("bodies[0].colour"));
    QVERIFY(paths.contains("joints[1].type"));
    // a compile-time problem is reported at its joint: a 3D bar cannot hold a revolute axis
    nlohmann::json t = nlohmann::json::parse(nc::structureToJson(
        nc::loadStructure((kModels + "/tensegrity_prism.json").toStdString())).dump());
    t["joints"].push_back({{"name", "hinge"}, {"type", "revolute"}, {"hen", "ground"},
                           {"egg", "bar1"}, {"point", t["bodies"][0]["origin"]},
                           {"axis", {0, 0, 1}}});
    problems.clear();
    nc::structureFromJson(t, problems);
    QCOMPARE(problems.size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(problems[0].path), QString("joints[0]"));
    // without an appearance a body gets the default look (a bar: a rod along its axis); a
    // document without any round-trips without the fields
    {
      nc::StructureSpec plain = naturalDoublePendulum();
      for (nc::BodySpec& b : plain.bodies) b.appearance.reset();
      plain.baseAppearance = nlohmann::json::array();
      const art::ModelSpec shown = art::displayModel(plain);
      QVERIFY(shown.bodies[0].appearance.is_array() && shown.bodies[0].appearance[0] == "cyl");
      const auto written = nc::structureToJson(plain);
      QVERIFY(!written.contains("base_appearance"));
      QVERIFY(!written["bodies"][0].contains("appearance"));
    }
    // the tree reader still refuses structures
    problems.clear();
    QVERIFY(!art::readModelDocument(doc, problems));
  }
};

ARTICULATE_TEST_MAIN(TestNatural)
#include "test_natural.moc"
