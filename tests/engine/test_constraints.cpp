// Constrained dynamics of closed loops and gearing (constraints.h, Simulation): the Jacobian and
// bias against finite differences, G qdd = g (stabilised) and workless constraint forces, drift
// below 1e-8 and energy conservation over 10 s for the four-bar and the slider-crank, exact
// gearing, the four-bar against Kane's equations in its one independent coordinate, and the
// same four-bar in spatial arithmetic (redundant out-of-plane rows) against the planar one; a
// loop that cannot be assembled stops the simulation.
#include <QtTest>

#include "test_main.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "articulate/dynamics/constraints.h"
#include "articulate/dynamics/soft_constraints.h"
#include "articulate/formulations/generators.h"
#include "articulate/formats/document.h"
#include "articulate/formats/json.h"
#include "articulate/formats/mjcf.h"
#include "articulate/formulations/tree_simulation.h"
#include "test_util.h"

using namespace art;

namespace {

ModelSpec loadSpec(const char* file) {
  return loadModel(std::string(ARTICULATE_MODELS_DIR) + "/" + file).spec;
}

// a planar spec rebuilt with spatial joints about / along the same axes (r -> Rz, px -> Px,
// py -> Py): the same mechanism, whose loop closures now have a dependent out-of-plane row
ModelSpec toSpatial(ModelSpec s) {
  const Vec3 g = s.effectiveGravity();
  s.arithmetic = Arithmetic::Spatial;
  s.gravity = Vec3(g.x(), g.y(), 0.0);
  for (BodySpec& b : s.bodies) {
    switch (b.joint.type) {
      case JointType::PlanarR: b.joint.type = JointType::Rz; break;
      case JointType::PlanarPx: b.joint.type = JointType::Px; break;
      case JointType::PlanarPy: b.joint.type = JointType::Py; break;
      default: break;
    }
    const double izz = b.inertia.aboutCom(2, 2);
    b.inertia.aboutCom = Mat3::Identity() * izz;
  }
  return s;
}

// a random spatial tree closed by a loop with axis alignment between two branches, a loop to
// the base and a gear (10 rows)
ModelSpec randomLoopTree() {
  ModelSpec s = randomTree(7, 3, {JointType::Rx, JointType::Ry, JointType::Pz, JointType::H,
                                  JointType::Rz});
  ConstraintSpec loop;
  loop.type = ConstraintSpec::Type::Loop;
  loop.bodyA = 6;
  loop.bodyB = 3;
  loop.pointA = Vec3(0.1, -0.2, 0.3);
  loop.pointB = Vec3(-0.3, 0.2, 0.05);
  loop.align = true;
  loop.axisA = Vec3(1, 2, -0.5);
  loop.axisB = Vec3(0, 0.3, 1);
  s.constraints.push_back(loop);
  ConstraintSpec toBase = loop;
  toBase.bodyA = 4;
  toBase.bodyB = -1;
  toBase.align = false;
  s.constraints.push_back(toBase);
  ConstraintSpec gear;
  gear.joint = 5;
  gear.master = 1;
  gear.ratio = -2.5;
  gear.offset = 0.2;
  s.constraints.push_back(gear);
  return s;
}

ModelSpec specByName(const QString& name) {
  if (name == "random") return randomLoopTree();
  if (name == "fourbar_spatial") return toSpatial(loadSpec("fourbar.json"));
  return loadSpec(qPrintable(name + ".json"));
}

double totalEnergy(Simulation& sim) {
  const EnergyMomentum e = sim.energy();
  return e.kinetic + e.potential;
}

double angleOf(const BodyPose& p) { return std::atan2(p.rotation(1, 0), p.rotation(0, 0)); }
Vec2 rot(double a, const Vec2& r) {
  return Vec2(std::cos(a) * r.x() - std::sin(a) * r.y(), std::sin(a) * r.x() + std::cos(a) * r.y());
}
Vec2 perp(const Vec2& v) { return Vec2(-v.y(), v.x()); }

}  // namespace

class TestConstraints : public QObject {
  Q_OBJECT

 private slots:
  void modelRows_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("rows");
    QTest::newRow("fourbar") << "fourbar" << 2;
    QTest::newRow("slider_crank") << "slider_crank" << 2;
    QTest::newRow("double_elbow") << "double_elbow" << 1;
    QTest::newRow("fourbar_spatial") << "fourbar_spatial" << 3;
    QTest::newRow("random") << "random" << 3 + 3 + 3 + 1;
  }
  void modelRows() {
    QFETCH(QString, model);
    QFETCH(int, rows);
    QCOMPARE(constraintRowCount(compile(specByName(model))), rows);
  }

  // G = d phi / dq and g = -(d/dt G) qd against central differences, at states that need not
  // satisfy the constraints
  void jacobianAndBiasMatchDifferences_data() { modelRows_data(); }
  void jacobianAndBiasMatchDifferences() {
    QFETCH(QString, model);
    const Model m = compile(specByName(model));
    Data d(m);
    ConstraintData cd(m);
    std::mt19937 rng(11);
    for (int trial = 0; trial < 5; ++trial) {
      const Eigen::VectorXd q = testutil::randomVector(m.nb, rng, -1.5, 1.5);
      const Eigen::VectorXd qd = testutil::randomVector(m.nb, rng, -2, 2);
      constraintKinematics(m, d, cd, q, qd);
      const Eigen::MatrixXd G = cd.G;
      const Eigen::VectorXd g = cd.g, phidot = cd.phidot;
      QVERIFY(testutil::relErr(phidot, G * qd) < 1e-12);
      const double eps = 1e-6;
      Eigen::MatrixXd Gfd(cd.nc, m.nb);
      for (int j = 0; j < m.nb; ++j) {
        Eigen::VectorXd qp = q, qm = q;
        qp(j) += eps;
        qm(j) -= eps;
        constraintKinematics(m, d, cd, qp, qd);
        const Eigen::VectorXd phip = cd.phi;
        constraintKinematics(m, d, cd, qm, qd);
        Gfd.col(j) = (phip - cd.phi) / (2 * eps);
      }
      const double eG = testutil::relErr(G, Gfd);
      QVERIFY2(eG < 1e-7, qPrintable(QString("G error %1").arg(eG)));
      constraintKinematics(m, d, cd, q + eps * qd, qd);
      const Eigen::VectorXd vp = cd.G * qd;
      constraintKinematics(m, d, cd, q - eps * qd, qd);
      const Eigen::VectorXd gfd = -(vp - cd.G * qd) / (2 * eps);
      const double eg = testutil::relErr(g, gfd);
      QVERIFY2(eg < 1e-6, qPrintable(QString("g error %1").arg(eg)));
    }
  }

  // at a consistent state the accelerations meet the constraints (G qdd = g), the constraint
  // forces deliver no power, and qdd solves H qdd + C = tau + G' lambda
  void accelerationsMeetConstraints_data() {
    QTest::addColumn<QString>("model");
    for (const char* model : {"fourbar", "slider_crank", "double_elbow", "fourbar_spatial"})
      QTest::newRow(model) << model;
  }
  void accelerationsMeetConstraints() {
    QFETCH(QString, model);
    const Model m = compile(specByName(model));
    Data d(m);
    ConstraintData cd(m);
    std::mt19937 rng(5);
    Eigen::VectorXd q = m.q0 + testutil::randomVector(m.nb, rng, -0.3, 0.3);
    Eigen::VectorXd qd = testutil::randomVector(m.nb, rng, -2, 2);
    const double err = projectConstraints(m, d, cd, q, qd);
    QVERIFY2(err < 1e-12, qPrintable(QString("projection left %1").arg(err)));
    const Eigen::VectorXd tau = testutil::randomVector(m.nb, rng, -1, 1);
    const Eigen::VectorXd qdd = constrainedForwardDynamics(m, d, cd, q, qd, tau);
    constraintKinematics(m, d, cd, q, qd);
    QVERIFY(cd.phidot.cwiseAbs().maxCoeff() < 1e-12);
    const Eigen::VectorXd residual = cd.G * qdd - cd.g;
    QVERIFY2(residual.cwiseAbs().maxCoeff() < 1e-9 * std::max(1.0, cd.g.cwiseAbs().maxCoeff()),
             qPrintable(QString("G qdd - g = %1").arg(residual.cwiseAbs().maxCoeff())));
    const Eigen::VectorXd Qc = cd.G.transpose() * cd.lambda;  // generalised constraint force
    QVERIFY(std::abs(Qc.dot(qd)) < 1e-10 * std::max(1.0, Qc.norm() * qd.norm()));
    // equation of motion with RNEA: ID(q, qd, qdd) = tau + G' lambda
    const Eigen::VectorXd id = rnea(m, d, q, qd, qdd);
    QVERIFY2(testutil::relErr(id, tau + Qc) < 1e-9,
             qPrintable(QString("ID error %1").arg(testutil::relErr(id, tau + Qc))));
    // the constraint actually acts: without it the accelerations differ
    QVERIFY((aba(m, d, q, qd, tau) - qdd).norm() > 1e-6);
  }

  // at any state, consistent or not, the accelerations meet the stabilised constraint
  // equations G qdd = g - 2 alpha phidot - beta^2 phi (alignment rows, a loop to the base and a
  // gear), and solve ID(q, qd, qdd) = tau + G' lambda
  void stabilisedAccelerationsAtAnyState() {
    // a 12-joint random chain, so that every row has joints enough to move it: the aligned
    // loop spans joints 7..12, the loop to the base joints 1..5, the gear joints 6 and 2
    ModelSpec spec = randomTree(12, 7, {JointType::Rx, JointType::Ry, JointType::Pz,
                                        JointType::H, JointType::Rz});
    for (int i = 0; i < 12; ++i) spec.bodies[i].parent = i - 1;
    const ModelSpec loops = randomLoopTree();
    spec.constraints = loops.constraints;
    spec.constraints[0].bodyA = 11;
    spec.constraints[0].bodyB = 5;
    spec.constraints[1].bodyA = 4;
    const Model m = compile(spec);
    Data d(m);
    ConstraintData cd(m);
    std::mt19937 rng(17);
    const BaumgarteGains gains{7.0, 5.0};
    for (int trial = 0; trial < 5; ++trial) {
      const Eigen::VectorXd q = testutil::randomVector(m.nb, rng, -1.5, 1.5);
      const Eigen::VectorXd qd = testutil::randomVector(m.nb, rng, -2, 2);
      const Eigen::VectorXd tau = testutil::randomVector(m.nb, rng, -1, 1);
      const Eigen::VectorXd qdd = constrainedForwardDynamics(m, d, cd, q, qd, tau, nullptr, gains);
      QCOMPARE(cd.rank, cd.nc);  // generic states: independent rows
      const Eigen::VectorXd lambda = cd.lambda;
      constraintKinematics(m, d, cd, q, qd);
      const Eigen::VectorXd rhs = cd.g - 2 * gains.alpha * cd.phidot -
                                  gains.beta * gains.beta * cd.phi;
      const double e = testutil::relErr(cd.G * qdd, rhs);
      QVERIFY2(e < 1e-9, qPrintable(QString("G qdd - rhs: %1").arg(e)));
      const Eigen::VectorXd id = rnea(m, d, q, qd, qdd);
      QVERIFY(testutil::relErr(id, tau + cd.G.transpose() * lambda) < 1e-9);
    }
  }

  // the passive four-bar and slider-crank over 10 s: constraint error below 1e-8 after every
  // step and energy conserved
  void driftAndEnergy_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("integrator");
    QTest::addColumn<double>("energyTol");  // relative to the initial total energy
    for (const char* model : {"fourbar", "slider_crank", "fourbar_spatial"}) {
      QTest::newRow(qPrintable(QString(model) + "/rk4")) << model << "rk4" << 1e-7;
      QTest::newRow(qPrintable(QString(model) + "/dopri5")) << model << "dopri5" << 1e-8;
      // semi-implicit Euler is first order and, with H(q), not symplectic in (q, qd): its
      // velocity projection removes O(h) a step, some percent of the energy over these 10 s
      // (without closing the loops by the step's own impulse, 40% and rising: see
      // closeConstraintsAfterStep)
      QTest::newRow(qPrintable(QString(model) + "/euler")) << model << "euler" << 5e-2;
    }
  }
  void driftAndEnergy() {
    QFETCH(QString, model);
    QFETCH(QString, integrator);
    QFETCH(double, energyTol);
    const Model m = compile(specByName(model));
    SimulationOptions opt;
    QVERIFY(parseIntegrator(integrator.toStdString(), opt.integrator));
    opt.dt = 1e-3;
    opt.relTol = opt.absTol = 1e-10;
    Simulation sim(m, opt);
    Eigen::VectorXd qd0 = Eigen::VectorXd::Zero(m.nb);
    qd0(0) = 3.0;  // spin the crank
    sim.setState(0.0, m.q0, qd0);
    const double e0 = totalEnergy(sim);
    double maxErr = 0.0, maxDe = 0.0;
    for (int k = 1; k <= 100; ++k) {
      while (sim.time() < 0.1 * k - 1e-12) {
        QVERIFY(sim.step());
        maxErr = std::max(maxErr, sim.constraintError());
      }
      maxDe = std::max(maxDe, std::abs(totalEnergy(sim) - e0));
    }
    QVERIFY(sim.time() >= 10.0 - 1e-9);
    qInfo("%s %s: max constraint error %.3g, max energy change %.3g J (E0 = %.4g J)",
          qPrintable(model), qPrintable(integrator), maxErr, maxDe, e0);
    QVERIFY2(maxErr < 1e-8, qPrintable(QString("constraint error %1").arg(maxErr)));
    QVERIFY2(maxDe < energyTol * std::abs(e0), qPrintable(QString("energy change %1 J").arg(maxDe)));
    // the mechanism moved through large angles
    QVERIFY(std::abs(sim.q()(0) - m.q0(0)) > 1.0 || sim.qd().norm() > 1.0);
  }

  // gearing q[lower] = q[elbow] holds exactly along a 10 s run
  void couplingExact() {
    const ModelSpec spec = loadSpec("double_elbow.json");
    ModelSpec withGravity = spec;
    withGravity.gravity = Vec3(0, -9.81, 0);
    const Model m = compile(withGravity);
    const int j = spec.findBody("lower"), k = spec.findBody("elbow");
    SimulationOptions opt;
    Simulation sim(m, opt);
    Eigen::VectorXd q0 = m.q0, qd0 = Eigen::VectorXd::Zero(m.nb);
    q0(0) = 0.4;
    qd0(k) = qd0(j) = 1.5;
    sim.setState(0, q0, qd0);
    const double e0 = totalEnergy(sim);
    double maxGap = 0.0, maxRateGap = 0.0;
    while (sim.time() < 10.0 - 1e-12) {
      QVERIFY(sim.step());
      maxGap = std::max(maxGap, std::abs(sim.q()(j) - sim.q()(k)));
      maxRateGap = std::max(maxRateGap, std::abs(sim.qd()(j) - sim.qd()(k)));
    }
    qInfo("double_elbow: max |q3 - q2| %.3g rad, max |qd3 - qd2| %.3g rad/s, energy change %.3g J",
          maxGap, maxRateGap, std::abs(totalEnergy(sim) - e0));
    QVERIFY(maxGap < 1e-12);
    QVERIFY(maxRateGap < 1e-12);
    QVERIFY(std::abs(totalEnergy(sim) - e0) < 1e-6);
    QVERIFY(std::abs(sim.q()(k)) > 0.1);  // the elbow moved
    // the gear carries torque: lambda nonzero
    QVERIFY(sim.constraintForces().cwiseAbs().maxCoeff() > 1e-3);
  }

  // the four-bar's crank acceleration against Kane's equations in the crank angle alone (plane
  // geometry of the loop, velocity and acceleration analysis by hand), at states along a run
  void fourbarAgainstKane() {
    const ModelSpec spec = loadSpec("fourbar.json");
    const Model m = compile(spec);
    const int crank = spec.findBody("crank"), coupler = spec.findBody("coupler"),
              rocker = spec.findBody("rocker");
    QVERIFY(crank >= 0 && coupler >= 0 && rocker >= 0);
    QCOMPARE(spec.constraints.size(), std::size_t(1));
    const ConstraintSpec& loop = spec.constraints[0];
    QCOMPARE(loop.bodyA, coupler);
    QCOMPARE(loop.bodyB, rocker);
    const Vec2 tA = spec.bodies[coupler].translation.head<2>();  // coupler pivot on the crank
    const Vec2 pA = loop.pointA.head<2>(), pB = loop.pointB.head<2>();
    const int body[3] = {crank, coupler, rocker};
    double mass[3], inertia[3];
    Vec2 com[3];
    for (int i = 0; i < 3; ++i) {
      const InertiaSpec& in = spec.bodies[body[i]].inertia;
      mass[i] = in.mass;
      inertia[i] = in.aboutCom(2, 2);
      com[i] = in.com.head<2>();
    }
    const Vec2 grav = m.gravity.head<2>();

    SimulationOptions opt;
    Simulation sim(m, opt);
    Eigen::VectorXd qd0 = Eigen::VectorXd::Zero(m.nb);
    qd0(crank) = 2.0;
    sim.setState(0, m.q0, qd0);
    Data d(m);
    ConstraintData cd(m);
    for (int sample = 0; sample < 8; ++sample) {
      QVERIFY(sim.advanceTo(0.37 * sample));
      const Eigen::VectorXd q = sim.q(), qd = sim.qd();
      const Eigen::VectorXd qdd = constrainedForwardDynamics(m, d, cd, q, qd, Eigen::VectorXd::Zero(m.nb));
      forwardKinematics(m, d, q);
      const double p1 = angleOf(bodyPose(m, d, crank)), p2 = angleOf(bodyPose(m, d, coupler)),
                   p3 = angleOf(bodyPose(m, d, rocker));
      const Vec2 O1 = bodyPose(m, d, crank).position.head<2>();
      const Vec2 O3 = bodyPose(m, d, rocker).position.head<2>();
      const double w1 = qd(crank);
      const Vec2 u1 = rot(p1, tA), u2 = rot(p2, pA), u3 = rot(p3, pB);
      // the loop closes: O1 + u1 + u2 = O3 + u3
      QVERIFY((O1 + u1 + u2 - O3 - u3).norm() < 1e-9);
      // velocity analysis: w1 perp(u1) + w2 perp(u2) - w3 perp(u3) = 0
      Mat2 M;
      M.col(0) = perp(u2);
      M.col(1) = -perp(u3);
      const Vec2 k = M.inverse() * (-perp(u1));  // dw2/dw1, dw3/dw1
      const double w2 = k(0) * w1, w3 = k(1) * w1;
      QVERIFY(std::abs(w2 - (qd(crank) + qd(coupler))) < 1e-9);
      QVERIFY(std::abs(w3 - qd(rocker)) < 1e-9);
      // acceleration analysis: [dw2; dw3] = k dw1 + kappa
      const Vec2 kappa = M.inverse() * (w1 * w1 * u1 + w2 * w2 * u2 - w3 * w3 * u3);
      // Kane: sum m (a - g) . dv/dw1 + I dw dw/dw1 = 0, affine in dw1
      auto residual = [&](double dw1) {
        const double dw2 = k(0) * dw1 + kappa(0), dw3 = k(1) * dw1 + kappa(1);
        const Vec2 r1 = rot(p1, com[0]), r2 = rot(p2, com[1]), r3 = rot(p3, com[2]);
        const Vec2 a1 = dw1 * perp(r1) - w1 * w1 * r1;
        const Vec2 a2 = dw1 * perp(u1) - w1 * w1 * u1 + dw2 * perp(r2) - w2 * w2 * r2;
        const Vec2 a3 = dw3 * perp(r3) - w3 * w3 * r3;
        const Vec2 v1 = perp(r1), v2 = perp(u1) + k(0) * perp(r2), v3 = k(1) * perp(r3);
        return mass[0] * (a1 - grav).dot(v1) + mass[1] * (a2 - grav).dot(v2) +
               mass[2] * (a3 - grav).dot(v3) + inertia[0] * dw1 + inertia[1] * dw2 * k(0) +
               inertia[2] * dw3 * k(1);
      };
      const double f0 = residual(0.0), f1 = residual(1.0);
      const double dw1 = -f0 / (f1 - f0);
      const double dw2 = k(0) * dw1 + kappa(0), dw3 = k(1) * dw1 + kappa(1);
      const double scale = std::max(1.0, std::abs(dw1));
      QVERIFY2(std::abs(qdd(crank) - dw1) < 1e-8 * scale,
               qPrintable(QString("crank qdd %1, Kane %2").arg(qdd(crank)).arg(dw1)));
      QVERIFY(std::abs(qdd(crank) + qdd(coupler) - dw2) < 1e-8 * scale);
      QVERIFY(std::abs(qdd(rocker) - dw3) < 1e-8 * scale);
    }
  }

  // the four-bar built from spatial joints (a dependent z row in its loop) moves exactly as the
  // planar one
  void spatialFourbarMatchesPlanar() {
    const Model planar = compile(loadSpec("fourbar.json"));
    const Model spatial = compile(toSpatial(loadSpec("fourbar.json")));
    Data dp(planar), ds(spatial);
    ConstraintData cp(planar), cs(spatial);
    std::mt19937 rng(3);
    Eigen::VectorXd q = planar.q0 + testutil::randomVector(planar.nb, rng, -0.2, 0.2);
    Eigen::VectorXd qd = testutil::randomVector(planar.nb, rng, -3, 3);
    projectConstraints(planar, dp, cp, q, qd);
    const Eigen::VectorXd tau = testutil::randomVector(planar.nb, rng, -1, 1);
    const Eigen::VectorXd a = constrainedForwardDynamics(planar, dp, cp, q, qd, tau);
    const Eigen::VectorXd b = constrainedForwardDynamics(spatial, ds, cs, q, qd, tau);
    QVERIFY2(testutil::relErr(b, a) < 1e-10, qPrintable(QString("%1").arg(testutil::relErr(b, a))));
    // and the in-plane constraint forces agree
    QVERIFY(testutil::relErr(cs.lambda.head<2>(), cp.lambda) < 1e-8);
  }

  // a loop that cannot close (coupler and rocker pins too close to their pivots to meet across
  // the 0.32 m ground link) stops the simulation with a divergence naming the constraint error
  void unassemblableLoopDiverges() {
    ModelSpec spec = loadSpec("fourbar.json");
    spec.constraints[0].pointA = Vec3(0.05, 0, 0);
    spec.constraints[0].pointB = Vec3(0.02, 0, 0);
    const Model m = compile(spec);
    Simulation sim(m, SimulationOptions{});
    QVERIFY(sim.constraintError() > 1e-3);
    QVERIFY(!sim.step());
    QVERIFY(sim.divergence());
    QCOMPARE(QString::fromStdString(sim.divergence()->quantity), QString("constraint error"));
    QCOMPARE(sim.stepsTaken(), 0L);
  }

  // a state off the constraints is projected onto them by setState
  void setStateProjects() {
    const Model m = compile(loadSpec("slider_crank.json"));
    Simulation sim(m, SimulationOptions{});
    Eigen::VectorXd q = m.q0, qd = Eigen::VectorXd::Constant(m.nb, 1.0);
    q(0) += 0.05;
    sim.setState(0, q, qd);
    QVERIFY(sim.constraintError() < 1e-12);
    Data d(m);
    ConstraintData cd(m);
    constraintKinematics(m, d, cd, sim.q(), sim.qd());
    QVERIFY(cd.phidot.cwiseAbs().maxCoeff() < 1e-12);
    QVERIFY((sim.q() - q).norm() < 0.1);
  }
};

// The soft constraint model (soft_constraints.h) on its own: closed forms of MuJoCo's model
// (dry friction that holds below its force and lets go above it, a limit's steady penetration
// under a constant load), energy accounting with dry friction, solvers that agree, and the named
// errors of malformed MJCF. test_mjcf_mujoco.cpp holds the same model against MuJoCo itself.
namespace soft {

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

  // semi-implicit Euler (MJCF's integrator='Euler'): a pendulum beating between its soft joint
  // limits, whose springs (solref 0.02 1: stiff, critically damped) take energy at each hit and
  // give part of it back. E + dissipated stays E(0) to the integrator's first order (half the
  // gap when the step halves), with dissipated counted from the rows' forces held over each
  // step at its mean velocity. Counted at the step's end velocity it was off by h/2 f . dqd a
  // step, which a stiff spring adds up: 0.27 J (1 ms) and 0.13 J (0.5 ms) here
  void limitEnergyIsAccountedForUnderEuler() {
    const std::string text = std::string("<mujoco><compiler angle='radian' inertiafromgeom='false'/><option integrator='Euler'/><worldbody>") +
                             "<body name='p' pos='0 0 1'><joint name='h' axis='0 1 0' range='-0.5 0.5' limited='true'/>"
                             "<inertial pos='0 0 -0.5' mass='1' diaginertia='0.01 0.01 0.01'/></body></worldbody></mujoco>";
    const ModelSpec spec = mjcf(text);
    const Model model = compile(spec);
    double gaps[2] = {0, 0}, lost = 0, dissipated = 0;
    for (int run = 0; run < 2; ++run) {
      SimulationOptions o = simulationOptions(spec);
      QCOMPARE(o.integrator, Integrator::MujocoEuler);
      o.dt = run ? 5e-4 : 1e-3;
      Simulation sim(model, o);
      sim.setState(0, Eigen::VectorXd::Zero(1), Eigen::VectorXd::Constant(1, 6.0));  // past 0.5 rad in 0.1 s
      const double e0 = sim.energy().kinetic + sim.energy().potential;
      while (sim.time() < 2.0 - 1e-9) {
        QVERIFY(sim.step());
        const EnergyMomentum e = sim.energy();
        gaps[run] = std::max(gaps[run], std::abs(e.kinetic + e.potential + sim.energyDissipated() - e0));
      }
      lost = e0 - (sim.energy().kinetic + sim.energy().potential);
      dissipated = sim.energyDissipated();
    }
    qInfo("soft limits, Euler: lost %.6g J, dissipated %.6g J; |E + dissipated - E0| at most %.3g J (1 ms), %.3g J (0.5 ms)",
          lost, dissipated, gaps[0], gaps[1]);
    QVERIFY(lost > 3);  // the hits took most of the swing's 4.7 J
    QVERIFY2(gaps[1] < 2e-3 * lost, qPrintable(QString::number(gaps[1])));
    QVERIFY2(gaps[0] / gaps[1] > 1.8, qPrintable(QString::number(gaps[0] / gaps[1])));
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

  // MuJoCo 3.3.8 opens any finite solref and solimp (its humanoid gives solimplimit's dmin as
  // 0, ANYmal C a dmax of 1) and clamps them where it uses them (getsolparam): a file giving
  // such values moves exactly as the file giving the clamped ones, and says so in a note
  void outOfRangeParametersMoveAsTheirClampedValues_data() {
    QTest::addColumn<QString>("given");
    QTest::addColumn<QString>("clamped");
    QTest::addColumn<QString>("note");
    QTest::newRow("dmin 0 (the humanoid)") << "solimplimit='0 0.95 0.01'" << "solimplimit='0.0001 0.95 0.01'" << "dmin outside";
    QTest::newRow("dmax 1 (ANYmal C)") << "solimplimit='0.5 1 0.01'" << "solimplimit='0.5 0.9999 0.01'" << "dmax outside";
    QTest::newRow("dmin above 1") << "solimplimit='1.2 0.95 0.01'" << "solimplimit='0.9999 0.95 0.01'" << "dmin outside";
    QTest::newRow("midpoint, width and power") << "solimplimit='0.5 0.95 0.02 2 0.5'"
                                               << "solimplimit='0.5 0.95 0.02 0.9999 1'" << "midpoint outside";
    QTest::newRow("a negative width") << "solimplimit='0.5 0.95 -1'" << "solimplimit='0.5 0.95 0'" << "width < 0";
    QTest::newRow("a zero time constant") << "solreflimit='0 1'" << "solreflimit='0.02 1'" << "replaced by the default 0.02 1";
    QTest::newRow("a negative damping ratio") << "solreflimit='0.05 -1'" << "solreflimit='0.02 1'" << "replaced by the default";
  }
  void outOfRangeParametersMoveAsTheirClampedValues() {
    QFETCH(QString, given);
    QFETCH(QString, clamped);
    QFETCH(QString, note);
    // the joint starts 0.3 rad past its range's end, so the limit row acts from the first step
    const auto file = [](const QString& params) {
      return std::string(kHead) + "<joint name='j' axis='0 1 0' range='-1 1' " + params.toStdString() +
             "/></body></worldbody><keyframe><key qpos='1.3'/></keyframe></mujoco>";
    };
    MjcfImport report;
    const ModelSpec a = specFromMjcf(file(given), "soft.xml", &report), b = specFromMjcf(file(clamped), "soft.xml");
    const auto noted = std::find_if(report.notes.begin(), report.notes.end(), [&](const std::string& n) {
      return QString::fromStdString(n).contains(note) && QString::fromStdString(n).contains("soft.xml:1: <joint name='j'>");
    });
    QVERIFY2(noted != report.notes.end(), qPrintable(QString::number(report.notes.size()) + " notes, none says " + note));
    qInfo().noquote() << QString::fromStdString(*noted);
    const Model ma = compile(a), mb = compile(b);
    Simulation sa(ma, simulationOptions(a)), sb(mb, simulationOptions(b));
    Eigen::VectorXd q0 = Eigen::VectorXd::Constant(1, 1.3);
    sa.setState(0, q0, Eigen::VectorXd::Zero(1));
    sb.setState(0, q0, Eigen::VectorXd::Zero(1));
    for (int k = 0; k < 200; ++k) QVERIFY(sa.step() && sb.step());
    QCOMPARE(sa.q()(0), sb.q()(0));  // the same bits
    QVERIFY2(sa.q()(0) < 1.25, qPrintable(QString::number(sa.q()(0))));  // and the limit pushed it back
  }

  // each malformed input names its file, line and element, and why
  void malformedInputIsNamed_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");
    const std::string joint = std::string(kHead) + "<joint name='j' axis='0 1 0' range='-1 1' ";
    const std::string rest = "/></body><body name='b' pos='1 0 0'><joint name='k'/>"
                             "<inertial pos='0 0 0' mass='1' diaginertia='1 1 1'/></body></worldbody>";
    QTest::newRow("solimp that is not numbers")
        << QString::fromStdString(joint + "solimplimit='0.9 nan 0.001'" + rest + "</mujoco>") << "soft.xml:1: <joint name='j'>: solimplimit must be numbers";
    QTest::newRow("solref with three numbers")
        << QString::fromStdString(joint + "solreflimit='0.02 1 3'" + rest + "</mujoco>") << "solreflimit needs 1 to 2 number(s), got 3";
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

}  // namespace soft

ARTICULATE_TEST_MAIN(TestConstraints, soft::TestSoftConstraints)
#include "test_constraints.moc"
