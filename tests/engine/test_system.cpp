// The System interface (system.h) of the three formulations, checked against independent
// algorithms and against each formulation's own stepping:
//  - trees: the interface's M against inverse dynamics (M e_j = RNEA(q, v, e_j) - RNEA(q, v,
//    0)), its solve against a dense factorisation, M^-1 f against ABA;
//  - every formulation: dq/dt and G against central differences of integratePositions and phi,
//    Gdot v against a central difference of G v along the motion;
//  - completeness: an integrator written only against the interface (RK4 on the index-1
//    equations with Baumgarte terms, the quaternions normalised and, for trees, the
//    simulation's projection) reproduces each formulation's own RK4;
//  - constraint forces: a compound pendulum modelled as a tree closed by a loop against the
//    analytic pivot force, and a natural-coordinate bar chain against the same chain as a tree;
//  - structureVersion changes on rebuilds only;
//  - contact Jacobians N and D against differences of the contact points' distance and
//    tangential displacement, and the rigid body's floor impulse redone with N, D and M^-1;
//  - force Jacobians: the central-difference default against the closed forms of a two-link
//    tree and a spinning body, the structures' analytic ones against the default.
//  - segments (springs and cables for the viewport) at the structure's own point positions,
//    slack exactly when the cable adds no force.
#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <variant>

#include <QtTest>

#include "test_main.h"

#include <Eigen/Dense>

#include "articulate/dynamics/dynamics.h"
#include "articulate/formulations/generators.h"
#include "articulate/formats/document.h"
#include "articulate/formats/files.h"
#include "articulate/formats/structure.h"
#include "articulate/simulation/structure_system.h"
#include "articulate/simulation/system.h"
#include "test_util.h"

using namespace art;

namespace {

const std::string kModels = ARTICULATE_MODELS_DIR;

std::shared_ptr<const Model> loadTree(const std::string& file) {
  return std::make_shared<const Model>(compile(loadModel(kModels + "/" + file).spec));
}

// n unit bars (1 kg, 1/12 kg m^2 about the middle) in the x-y plane under gravity -y, laid out
// along +x from the origin, each a free planar body (px and py on two massless bodies, then r)
// pinned to the previous bar's end (the first to the origin) by a loop constraint: the
// mechanism of natural::barChain(n), as a tree with loops. Bar k is body 3k + 2.
ModelSpec loopChain(int n) {
  ModelSpec spec;
  spec.name = "loop_chain";
  spec.arithmetic = Arithmetic::Planar;
  spec.gravity = Vec3(0, -9.81, 0);
  const InertiaSpec none = InertiaSpec::fromMassComInertia(0.0, Vec3::Zero(), Mat3::Zero());
  for (int k = 0; k < n; ++k) {
    const int first = static_cast<int>(spec.bodies.size());
    BodySpec x, y, bar;
    x.name = "x" + std::to_string(k + 1);
    x.parent = -1;
    x.joint.type = JointType::PlanarPx;
    x.inertia = none;
    x.q0 = k;
    y.name = "y" + std::to_string(k + 1);
    y.parent = first;
    y.joint.type = JointType::PlanarPy;
    y.inertia = none;
    bar.name = "bar" + std::to_string(k + 1);
    bar.parent = first + 1;
    bar.joint.type = JointType::PlanarR;
    bar.inertia = InertiaSpec::fromMassComInertia(1.0, Vec3(0.5, 0, 0), Mat3::Identity() / 12);
    spec.bodies.push_back(x);
    spec.bodies.push_back(y);
    spec.bodies.push_back(bar);
    ConstraintSpec c;
    c.type = ConstraintSpec::Type::Loop;
    c.name = "pin" + std::to_string(k + 1);
    c.bodyA = first + 2;
    c.bodyB = k == 0 ? -1 : first - 1;
    c.pointB = k == 0 ? Vec3::Zero() : Vec3(1, 0, 0);
    spec.constraints.push_back(c);
  }
  return spec;
}

// An integrator written only against the System interface: classical RK4 on (q, v, w) (q
// combined linearly in the stages, as art::Simulation does), with dv/dt from the index-1
// equations M dv/dt = f + G' lambda, G dv/dt = -Gdot v - 2 alpha G v - beta^2 phi, then the
// positions normalised and, with `project`, the state projected onto the constraints as
// art::projectConstraints does (Gauss-Newton least-norm steps along integratePositions until
// max |phi| <= 1e-12 or 10 steps, then the velocity's least change in the M metric).
class InterfaceRk4 {
 public:
  InterfaceRk4(System& s, double alpha, double beta, bool project)
      : m_s(s), m_alpha(alpha), m_beta(beta), m_project(project) {
    const int nq = s.positionSize(), nv = s.velocitySize(), nc = s.constraintSize(),
              nw = s.auxiliarySize();
    t = s.time();
    q = s.positions();
    v = s.velocities();
    w.resize(nw);
    s.auxiliaryState(w);
    for (int k = 0; k < 4; ++k) {
      m_kq[k].resize(nq);
      m_kv[k].resize(nv);
      m_kw[k].resize(nw);
    }
    m_f.resize(nv);
    m_G.resize(nc, nv);
    m_Y.resize(nv, nc);
    m_phi.resize(nc);
    m_gdotv.resize(nc);
    m_version = s.structureVersion();
  }

  void step(double h) {
    QCOMPARE(m_s.structureVersion(), m_version);  // sizes cached above still hold
    const double c[4] = {0, 0.5 * h, 0.5 * h, h};
    Eigen::VectorXd qs = q, vs = v, ws = w;
    for (int k = 0; k < 4; ++k) {
      if (k > 0) {
        qs = q + c[k] * m_kq[k - 1];
        vs = v + c[k] * m_kv[k - 1];
        ws = w + c[k] * m_kw[k - 1];
      }
      rates(t + c[k], qs, vs, ws, k);
    }
    q += (h / 6) * (m_kq[0] + 2 * m_kq[1] + 2 * m_kq[2] + m_kq[3]);
    v += (h / 6) * (m_kv[0] + 2 * m_kv[1] + 2 * m_kv[2] + m_kv[3]);
    w += (h / 6) * (m_kw[0] + 2 * m_kw[1] + 2 * m_kw[2] + m_kw[3]);
    t += h;
    m_s.normalizePositions(q);
    if (m_project && m_s.constraintSize() > 0) project();
  }

  double t = 0;
  Eigen::VectorXd q, v, w;

 private:
  System& m_s;
  double m_alpha, m_beta;
  bool m_project;
  long m_version = 0;
  Eigen::VectorXd m_kq[4], m_kv[4], m_kw[4], m_f, m_phi, m_gdotv;
  Eigen::MatrixXd m_G, m_Y;

  // Y = M^-1 G' at the evaluation point
  void fillY() {
    for (int i = 0; i < m_G.rows(); ++i) {
      m_Y.col(i) = m_G.row(i).transpose();
      m_s.solveMass(m_Y.col(i));
    }
  }

  void rates(double ts, const Eigen::VectorXd& qs, const Eigen::VectorXd& vs,
             const Eigen::VectorXd& ws, int k) {
    m_s.evaluate(ts, qs, vs, ws);
    m_s.generalizedForces(m_f);
    m_kv[k] = m_f;
    m_s.solveMass(m_kv[k]);
    if (m_s.constraintSize() > 0) {
      m_s.constraintJacobian(m_G);
      m_s.constraintResidual(m_phi);
      m_s.constraintVelocityTerm(m_gdotv);
      fillY();
      const Eigen::MatrixXd S = m_G * m_Y;
      const Eigen::VectorXd rhs = -m_gdotv - 2 * m_alpha * (m_G * vs) -
                                  m_beta * m_beta * m_phi - m_G * m_kv[k];
      m_kv[k] += m_Y * S.completeOrthogonalDecomposition().solve(rhs);
    }
    m_s.positionDerivative(qs, vs, m_kq[k]);
    m_s.auxiliaryRate(m_kw[k]);
  }

  void project() {
    for (int it = 0;; ++it) {
      m_s.evaluate(t, q, v, w);
      m_s.constraintResidual(m_phi);
      if (m_phi.cwiseAbs().maxCoeff() <= 1e-12 || it >= 10) break;
      m_s.constraintJacobian(m_G);
      const Eigen::MatrixXd GGt = m_G * m_G.transpose();
      const Eigen::VectorXd dq =
          -m_G.transpose() * GGt.completeOrthogonalDecomposition().solve(m_phi);
      m_s.integratePositions(q, dq, 1.0, q);
    }
    m_s.constraintJacobian(m_G);
    fillY();
    const Eigen::MatrixXd S = m_G * m_Y;
    v -= m_Y * S.completeOrthogonalDecomposition().solve(m_G * v);
  }
};

// Zhong06 written only against the interface (for a constant mass matrix; natural/integrator.h
// has the step equations): Newton iterations on the step equations with the matrix [M, G0';
// G1, 0] (the force Jacobian left out: a simplified Newton converging to the same solution),
// until the largest coordinate update is below 1e-12
class InterfaceZhong06 {
 public:
  explicit InterfaceZhong06(System& s) : m_s(s) {
    const int n = s.positionSize(), m = s.constraintSize();
    t = s.time();
    q = s.positions();
    m_M.resize(n, n);
    s.evaluate(t, q, s.velocities());
    s.massMatrix(m_M);
    p = m_M * s.velocities();
    m_mu = Eigen::VectorXd::Zero(m);
    m_G0.resize(m, n);
    m_G1.resize(m, n);
    m_F.resize(n);
    m_phi.resize(m);
  }

  bool step(double h) {
    const int n = m_s.positionSize(), m = m_s.constraintSize();
    const Eigen::VectorXd none(0);
    m_s.evaluate(t, q, p, none);
    m_s.constraintJacobian(m_G0);
    Eigen::VectorXd v0 = p;
    m_s.solveMass(v0);
    Eigen::VectorXd q1 = q + h * v0;
    Eigen::MatrixXd K = Eigen::MatrixXd::Zero(n + m, n + m);
    Eigen::VectorXd r(n + m);
    for (int it = 0; it < 50; ++it) {
      m_s.evaluate(t + 0.5 * h, 0.5 * (q + q1), (q1 - q) / h, none);
      m_s.generalizedForces(m_F);
      r.head(n) = m_M * (q1 - q) - h * p - 0.5 * h * h * m_F + m_G0.transpose() * m_mu;
      m_s.evaluate(t + h, q1, (q1 - q) / h, none);
      m_s.constraintResidual(m_phi);
      m_s.constraintJacobian(m_G1);
      r.tail(m) = m_phi;
      K.topLeftCorner(n, n) = m_M;
      K.topRightCorner(n, m) = m_G0.transpose();
      K.bottomLeftCorner(m, n) = m_G1;
      const Eigen::VectorXd dz = K.partialPivLu().solve(r);
      q1 -= dz.head(n);
      m_mu -= dz.tail(m);
      if (dz.head(n).cwiseAbs().maxCoeff() <= 1e-12) {
        m_s.evaluate(t + h, q1, q1, none);
        m_s.constraintJacobian(m_G1);
        p = -p + (2.0 / h) * (m_M * (q1 - q)) + (1.0 / h) * ((m_G0 - m_G1).transpose() * m_mu);
        q = q1;
        t += h;
        return true;
      }
    }
    return false;
  }

  Eigen::VectorXd velocities() {
    Eigen::VectorXd v = p;
    m_s.solveMass(v);
    return v;
  }

  double t = 0;
  Eigen::VectorXd q, p;

 private:
  System& m_s;
  Eigen::MatrixXd m_M, m_G0, m_G1;
  Eigen::VectorXd m_mu, m_F, m_phi;
};

// the largest difference between the interface-driven RK4 and the system's own stepping over
// `steps` steps of h from the system's current state
double rk4Difference(System& s, double h, int steps, double alpha, double beta, bool project) {
  InterfaceRk4 generic(s, alpha, beta, project);
  double worst = 0;
  for (int k = 1; k <= steps; ++k) {
    generic.step(h);
    if (!s.step()) return std::numeric_limits<double>::infinity();
    worst = std::max({worst, (generic.q - s.positions()).cwiseAbs().maxCoeff(),
                      (generic.v - s.velocities()).cwiseAbs().maxCoeff(),
                      std::abs(generic.t - s.time())});
  }
  return worst;
}

// central differences of the solver-facing geometry at (q, v): dq/dt against
// integratePositions, G against phi along each velocity direction, Gdot v against G v along v
// (exactFlow: integratePositions composes exactly, h then h is 2h; a free joint's translation
// is first order in h, configuration.h)
void checkDifferences(System& s, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                      double tolerance, bool exactFlow) {
  const int nq = s.positionSize(), nv = s.velocitySize(), nc = s.constraintSize();
  const double eps = 1e-6;
  Eigen::VectorXd qdot(nq), qp(nq), qm(nq);
  s.positionDerivative(q, v, qdot);
  s.integratePositions(q, v, eps, qp);
  s.integratePositions(q, v, -eps, qm);
  const double e1 = testutil::relErr((qp - qm) / (2 * eps), qdot);
  QVERIFY2(e1 < tolerance, qPrintable(QString("dq/dt error %1").arg(e1)));
  Eigen::VectorXd q2(nq);
  s.integratePositions(q, v, 0.3, qp);
  s.integratePositions(qp, v, 0.3, q2);
  s.integratePositions(q, v, 0.6, qm);
  if (exactFlow)
    QVERIFY2((q2 - qm).cwiseAbs().maxCoeff() < 1e-12, "integratePositions is not a flow");
  if (nc == 0) return;
  const Eigen::VectorXd w = Eigen::VectorXd::Zero(s.auxiliarySize());
  Eigen::MatrixXd G(nc, nv), Gp(nc, nv), Gm(nc, nv), Gfd(nc, nv);
  Eigen::VectorXd phip(nc), phim(nc), gdotv(nc);
  s.evaluate(0.0, q, v, w);
  s.constraintJacobian(G);
  s.constraintVelocityTerm(gdotv);
  for (int j = 0; j < nv; ++j) {
    const Eigen::VectorXd e = Eigen::VectorXd::Unit(nv, j);
    s.integratePositions(q, e, eps, qp);
    s.integratePositions(q, e, -eps, qm);
    s.evaluate(0.0, qp, v, w);
    s.constraintResidual(phip);
    s.evaluate(0.0, qm, v, w);
    s.constraintResidual(phim);
    Gfd.col(j) = (phip - phim) / (2 * eps);
  }
  const double e2 = testutil::relErr(Gfd, G);
  QVERIFY2(e2 < tolerance, qPrintable(QString("G error %1").arg(e2)));
  s.integratePositions(q, v, eps, qp);
  s.integratePositions(q, v, -eps, qm);
  s.evaluate(0.0, qp, v, w);
  s.constraintJacobian(Gp);
  s.evaluate(0.0, qm, v, w);
  s.constraintJacobian(Gm);
  const Eigen::VectorXd fd = (Gp - Gm) * v / (2 * eps);
  const double e3 = testutil::relErr(fd, gdotv);
  QVERIFY2(e3 < tolerance, qPrintable(QString("Gdot v error %1").arg(e3)));
}

// a state of the system near its current one: positions moved along a random velocity,
// random velocities
void randomState(System& s, std::mt19937& rng, Eigen::VectorXd& q, Eigen::VectorXd& v) {
  q = s.positions();
  s.integratePositions(q, testutil::randomVector(s.velocitySize(), rng, -0.3, 0.3), 1.0, q);
  v = testutil::randomVector(s.velocitySize(), rng, -1.5, 1.5);
}

// N and D against central differences at (q, v): the contact points' distance (its rate is N
// v) and their displacement along the tangents (D v), the positions moved along each velocity
// direction by integratePositions. `where` gives, for a position q, each point's distance and
// world position of the same material point (the one at the contact at the base pose).
template <class Where>
void checkContactJacobians(System& s, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                           const Vec3& normal, Where&& where) {
  const int nv = s.velocitySize(), np = s.contactSize();
  QVERIFY(np > 0);
  Eigen::MatrixXd N(np, nv), D(2 * np, nv), Nfd(np, nv), Dfd(2 * np, nv);
  s.evaluate(0.0, q, v);
  s.contactJacobians(N, D);
  const Mat3 F = System::contactFrame(normal);
  const double eps = 1e-6;
  Eigen::VectorXd qp(q.size()), qm(q.size());
  Eigen::VectorXd dp(np), dm(np);
  Eigen::Matrix3Xd pp(3, np), pm(3, np);
  for (int j = 0; j < nv; ++j) {
    s.integratePositions(q, Eigen::VectorXd::Unit(nv, j), eps, qp);
    s.integratePositions(q, Eigen::VectorXd::Unit(nv, j), -eps, qm);
    where(qp, dp, pp);
    where(qm, dm, pm);
    for (int k = 0; k < np; ++k) {
      Nfd(k, j) = (dp(k) - dm(k)) / (2 * eps);
      const Vec3 move = (pp.col(k) - pm.col(k)) / (2 * eps);
      Dfd(2 * k, j) = F.col(0).dot(move);
      Dfd(2 * k + 1, j) = F.col(1).dot(move);
      // the material point's normal motion is the distance's rate too
      QVERIFY(std::abs(F.col(2).dot(move) - N(k, j)) < 1e-7 * (1 + std::abs(N(k, j))));
    }
  }
  QVERIFY2(testutil::relErr(N, Nfd) < 1e-8, qPrintable(QString("N error %1").arg(testutil::relErr(N, Nfd))));
  QVERIFY2(testutil::relErr(D, Dfd) < 1e-8, qPrintable(QString("D error %1").arg(testutil::relErr(D, Dfd))));
  // (t1, t2, n) is a right-handed orthonormal frame with n the ground's normal
  QVERIFY((F.transpose() * F - Mat3::Identity()).norm() < 1e-14 && F.determinant() > 0);
  QVERIFY((F.col(2) - normal.normalized()).norm() < 1e-14);
}

// a rigid body of the shape, tilted and spinning, over a floor with a tilted normal
RigidBodySpec tiltedBody(ShapeSpec::Type type, std::mt19937& rng) {
  RigidBodySpec spec;
  spec.shape.type = type;
  spec.shape.size = Vec3(0.1, 0.2, 0.3);
  spec.shape.radius = 0.05;
  spec.shape.length = 0.2;
  spec.mass = 2.0;
  spec.referencePoint = Vec3(0.01, 0.02, -0.03);  // a state choice only
  spec.position = Vec3(0.1, -0.2, 0.5);
  std::normal_distribution<double> g;
  spec.rotation = Eigen::Quaterniond(g(rng), g(rng), g(rng), g(rng)).normalized().toRotationMatrix();
  FloorSpec floor;
  floor.normal = Vec3(0.1, -0.2, 1.0);
  floor.origin = Vec3(0, 0, 0.05);
  floor.restitution = 0.5;
  floor.friction = 0.3;
  spec.floor = floor;
  return spec;
}

}  // namespace

class TestSystem : public QObject {
  Q_OBJECT
 private slots:
  // trees: M against inverse dynamics, the solve against a dense factorisation, M^-1 f
  // against ABA (no constraints) at random states
  void treeMassMatrixAndForces_data() {
    QTest::addColumn<QString>("file");
    for (const char* f : {"double_pendulum.json", "autotree_tree15.json", "floatbase_tree.json",
                          "spinning_top.json", "cart_pole.json", "fourbar.json"})
      QTest::newRow(f) << QString(f);
  }
  void treeMassMatrixAndForces() {
    QFETCH(QString, file);
    auto model = loadTree(file.toStdString());
    TreeSystem s(model, {});
    Data data(*model);
    std::mt19937 rng(7);
    const int nv = s.velocitySize();
    Eigen::MatrixXd M(nv, nv), Mid(nv, nv);
    Eigen::VectorXd q, v, f(nv), x(nv);
    for (int trial = 0; trial < 3; ++trial) {
      randomState(s, rng, q, v);
      s.evaluate(0.0, q, v);
      QVERIFY(!s.isMassConstant());
      s.massMatrix(M);
      const Eigen::VectorXd zero = Eigen::VectorXd::Zero(nv);
      const Eigen::VectorXd bias = rnea(*model, data, q, v, zero);
      for (int j = 0; j < nv; ++j)
        Mid.col(j) = rnea(*model, data, q, v, Eigen::VectorXd::Unit(nv, j)) - bias;
      QVERIFY2(testutil::relErr(M, Mid) < 1e-12, qPrintable(file));
      const Eigen::VectorXd b = testutil::randomVector(nv, rng);
      x = b;
      s.solveMass(x);
      QVERIFY(testutil::relErr(x, M.ldlt().solve(b)) < 1e-9);
      s.generalizedForces(f);
      if (s.contactSize() == 0 && !model->controlled && model->forces.empty()) {
        // f = -C: the bias of inverse dynamics, gravity included
        QVERIFY(testutil::relErr(f, -bias) < 1e-12);
        x = f;
        s.solveMass(x);
        QVERIFY2(testutil::relErr(x, aba(*model, data, q, v, zero)) < 1e-9, qPrintable(file));
      }
    }
  }

  // every formulation: the derivative of integratePositions, G and Gdot v by differences
  void differences_data() {
    QTest::addColumn<QString>("file");
    for (const char* f : {"fourbar.json", "slider_crank.json", "double_elbow.json",
                          "floatbase_tree.json", "natural_pendulum.json",
                          "natural_fourbar.json", "natural_spatial_chain.json",
                          "bouncing_cylinder.json"})
      QTest::newRow(f) << QString(f);
  }
  void differences() {
    QFETCH(QString, file);
    const std::string path = kModels + "/" + file.toStdString();
    std::unique_ptr<System> s;
    bool exactFlow = true;
    if (natural::isStructureDocument(readJsonFile(path)))
      s = std::make_unique<StructureSystem>(natural::loadStructure(path));
    else if (const auto document = loadDocument(path);
             const auto* rb = std::get_if<RigidBodySpec>(&document))
      s = std::make_unique<RigidBodySystem>(*rb);
    else {
      s = std::make_unique<TreeSystem>(loadTree(file.toStdString()), SimulationOptions{});
      exactFlow = s->quaternionBlocks().empty();
    }
    std::mt19937 rng(11);
    Eigen::VectorXd q, v;
    for (int trial = 0; trial < 3; ++trial) {
      randomState(*s, rng, q, v);
      s->normalizePositions(q);
      checkDifferences(*s, q, v, 1e-7, exactFlow);
    }
  }

  // the interface-driven RK4 reproduces each tree's own RK4 (with its Baumgarte gains and
  // projection): passive, controlled, constrained, floating and standing on contact points
  void interfaceRk4ReproducesTrees_data() {
    QTest::addColumn<QString>("file");
    for (const char* f : {"double_pendulum.json", "cart_pole.json", "fourbar.json",
                          "slider_crank.json", "spinning_top.json", "quadruped.json",
                          "vee.json"})
      QTest::newRow(f) << QString(f);
  }
  void interfaceRk4ReproducesTrees() {
    QFETCH(QString, file);
    SimulationOptions opt;
    opt.dt = 1e-3;
    TreeSystem s(loadTree(file.toStdString()), opt);
    const BaumgarteGains gains;
    const double worst = rk4Difference(s, opt.dt, 500, gains.alpha, gains.beta, true);
    // the same scheme: only rounding differs (ABA against CRBA and the L'L solve, the
    // pivoted Schur solve against a complete orthogonal decomposition)
    QVERIFY2(worst < 1e-9, qPrintable(QString("%1: worst difference %2").arg(file).arg(worst)));
  }

  // ... and a structure's own RK4 (index 1, Baumgarte alpha = beta = options.baumgarte)
  void interfaceRk4ReproducesStructures_data() {
    QTest::addColumn<QString>("file");
    for (const char* f : {"natural_pendulum.json", "natural_fourbar.json",
                          "natural_spatial_chain.json", "tensegrity_prism.json"})
      QTest::newRow(f) << QString(f);
  }
  void interfaceRk4ReproducesStructures() {
    QFETCH(QString, file);
    const natural::StructureSpec spec = natural::loadStructure(kModels + "/" + file.toStdString());
    natural::SimulationOptions opt = natural::simulationOptions(spec);
    opt.integrator = natural::Integrator::RK4;
    StructureSystem s(spec, opt);
    QVERIFY(s.isMassConstant());
    const double worst = rk4Difference(s, opt.dt, 500, opt.baumgarte, opt.baumgarte, false);
    QVERIFY2(worst < 1e-9, qPrintable(QString("%1: worst difference %2").arg(file).arg(worst)));
  }

  // ... and a structure's own Zhong06 (the structure's default integrator): a constant mass
  // matrix, forces, the Jacobian and the residual are all it needs
  void interfaceZhong06ReproducesStructures_data() {
    QTest::addColumn<QString>("file");
    for (const char* f : {"natural_pendulum.json", "natural_fourbar.json",
                          "natural_spatial_chain.json", "tensegrity_prism.json"})
      QTest::newRow(f) << QString(f);
  }
  void interfaceZhong06ReproducesStructures() {
    QFETCH(QString, file);
    const natural::StructureSpec spec = natural::loadStructure(kModels + "/" + file.toStdString());
    natural::SimulationOptions opt = natural::simulationOptions(spec);
    opt.integrator = natural::Integrator::Zhong06;
    StructureSystem s(spec, opt);
    InterfaceZhong06 generic(s);
    double worst = 0;
    for (int k = 0; k < 300; ++k) {
      QVERIFY(generic.step(opt.dt));
      QVERIFY(s.step());
      worst = std::max({worst, (generic.q - s.positions()).cwiseAbs().maxCoeff(),
                        (generic.velocities() - s.velocities()).cwiseAbs().maxCoeff()});
    }
    // both solve the same step equations to a 1e-12 Newton tolerance
    QVERIFY2(worst < 1e-9, qPrintable(QString("%1: worst difference %2").arg(file).arg(worst)));
  }

  // ... and the free rigid body's RK4 on its momentum state (a different set of variables, so
  // the two RK4s agree to their error, O(h^4): halving h shrinks the difference about 16-fold)
  void interfaceRk4ReproducesRigidBody() {
    RigidBodySpec spec = bouncingCylinder(0.5);
    spec.floor.reset();
    spec.angularVelocity = Vec3(5, 1, 2);  // about no principal axis: the body tumbles
    double previous = 0;
    for (double h : {2e-3, 1e-3}) {
      RigidBodySystem s(spec, h, h);
      const double worst = rk4Difference(s, h, static_cast<int>(std::lround(1.0 / h)), 0, 0,
                                         false);
      QVERIFY2(worst < 1e-7, qPrintable(QString("h = %1: difference %2").arg(h).arg(worst)));
      if (previous > 0)
        QVERIFY2(previous / worst > 10,
                 qPrintable(QString("the difference shrank only %1-fold").arg(previous / worst)));
      previous = worst;
    }
    // M and f: kinetic energy 1/2 v' M v, and f's gyroscopic part does no work
    RigidBodySystem s(spec);
    Eigen::MatrixXd M(6, 6);
    Eigen::VectorXd f(6);
    s.evaluate(0.0, s.positions(), s.velocities());
    s.massMatrix(M);
    s.generalizedForces(f);
    QVERIFY(std::abs(0.5 * s.velocities().dot(M * s.velocities()) - s.energy().kinetic) < 1e-12);
    QVERIFY(std::abs(f.tail<3>().dot(s.velocities().tail<3>())) < 1e-12);
  }

  // the floor's reaction on a body resting on it is its weight, at the middle of its cap; the
  // resting contact's Gauss-Seidel passes stop once no point's impulse changes by more than
  // 1e-4 of the momentum gravity adds in two steps (rigid_body.cpp, kRestingTolerance), so the
  // momentum left at the end of a period T of steps h, and the mean reaction's error, is
  // about that per supporting point: n 1e-4 2 m g h / T for n points
  void rigidBodyContactReport() {
    RigidBodySpec spec = bouncingCylinder(0.045);
    spec.velocity = Vec3::Zero();
    spec.angularVelocity = Vec3::Zero();
    RigidBodySystem s(spec, 1e-4, 1e-2);
    QCOMPARE(s.contactSize(), 1);
    for (int k = 0; k < 20; ++k) QVERIFY(s.step());
    std::vector<ContactReport> c;
    s.contacts(c);
    QCOMPARE(c.size(), std::size_t(1));
    const double weight = s.body().mass() * s.body().gravity().norm();
    QCOMPARE(s.body().lastContactPoints(), 4);  // standing on a square of rim points
    const double tolerance = 4 * 1e-4 * 2 * weight * 1e-4 / 1e-2;
    QVERIFY2(std::abs(c[0].normalForce - weight) <= tolerance,
             qPrintable(QString("normal force %1 N, weight %2 N").arg(c[0].normalForce).arg(weight)));
    QVERIFY2(c[0].frictionForce.norm() <= tolerance,
             qPrintable(QString("friction %1 N").arg(c[0].frictionForce.norm())));
    QVERIFY(std::abs(c[0].distance) < 1e-9);
    QVERIFY((c[0].position - Vec3(s.positions()(0), s.positions()(1), 0)).norm() < 1e-9);
    // the cap counts as flat, and the report gives its centre, while the rim's heights differ by
    // at most the step's contact margin (here about 4.5e-7 m, where resting tilts by round-off
    // spread it by 1e-10 m): the cap tilted to half the margin reports its centre, tilted to twice
    // it the rim's lowest point
    const double margin = s.body().contactMargin(1e-4);
    QVERIFY(margin > 1e-7 && margin < 1e-6);
    for (const double factor : {0.5, 2.0}) {
      Eigen::VectorXd q = s.positions();
      const Eigen::Quaterniond o(
          Eigen::AngleAxisd(std::asin(factor * margin / (2 * spec.shape.radius)), Vec3::UnitX()));
      q(3) = o.w();
      q(4) = o.x();
      q(5) = o.y();
      q(6) = o.z();
      s.setState(s.time(), q, Eigen::VectorXd::Zero(6));
      s.contacts(c);
      const double offset = (c[0].position - q.head<3>()).head<2>().norm();
      if (factor < 1)
        QVERIFY2(offset < 1e-6, qPrintable(QString("offset %1 m").arg(offset)));
      else
        QVERIFY2(std::abs(offset - spec.shape.radius) < 1e-6,
                 qPrintable(QString("offset %1 m").arg(offset)));
    }
  }

  // a tree's compliant ground: the reported reactions carry the quadruped's weight
  void treeContactReport() {
    auto model = loadTree("quadruped.json");
    SimulationOptions opt;
    TreeSystem s(model, opt);
    QVERIFY(s.advanceTo(1.0));
    std::vector<ContactReport> c;
    s.evaluate(s.time(), s.positions(), s.velocities());
    s.contacts(c);
    QCOMPARE(static_cast<int>(c.size()), s.contactSize());
    Data data(*model);
    const double weight = energyMomentum(*model, data, s.positions(), s.velocities()).mass *
                          std::abs(model->gravity.z());
    double support = 0;
    for (const ContactReport& r : c) {
      QVERIFY(r.normalForce >= 0);
      QVERIFY(r.frictionForce.norm() <= model->ground.friction * r.normalForce + 1e-9);
      support += r.normalForce;
    }
    // standing still after 1 s: the ground carries the weight to within its residual motion
    QVERIFY2(std::abs(support - weight) < 0.02 * weight,
             qPrintable(QString("support %1 N, weight %2 N").arg(support).arg(weight)));
  }

  // the rigid body's N and D at its point nearest the floor, for each shape in a random pose,
  // against differences of the nearest point's distance (the shape's support function) and of
  // the same material point's position
  void rigidBodyContactJacobians() {
    std::mt19937 rng(5);
    for (ShapeSpec::Type type :
         {ShapeSpec::Type::Box, ShapeSpec::Type::Cylinder, ShapeSpec::Type::Sphere}) {
      const RigidBodySpec spec = tiltedBody(type, rng);
      RigidBodySystem s(spec);
      QCOMPARE(s.contactSize(), 1);
      const Eigen::VectorXd q = s.positions(), v = testutil::randomVector(6, rng);
      // the material point at the contact at q, in body coordinates
      std::vector<ContactReport> c;
      s.contacts(c);
      const Mat3 R0 = s.body().rotation();
      const Vec3 pb = R0.transpose() * (c[0].position - q.head<3>());
      auto where = [&](const Eigen::VectorXd& x, Eigen::VectorXd& dist, Eigen::Matrix3Xd& pos) {
        RigidBodySystem at(spec);
        at.setState(0.0, x, v);
        std::vector<ContactReport> r;
        at.contacts(r);
        dist(0) = r[0].distance;
        pos.col(0) = x.head<3>() + at.body().rotation() * pb;
      };
      checkContactJacobians(s, q, v, spec.floor->normal, where);
    }
    // without a floor: no rows
    RigidBodySpec free = tiltedBody(ShapeSpec::Type::Box, rng);
    free.floor.reset();
    RigidBodySystem s(free);
    Eigen::MatrixXd N(0, 6), D(0, 6), bad(1, 6);
    s.contactJacobians(N, D);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, s.contactJacobians(bad, D));
  }

  // a tree's contact points (the quadruped's feet, on a free-joint base) at a random state
  void treeContactJacobians() {
    auto model = loadTree("quadruped.json");
    TreeSystem s(model, {});
    std::mt19937 rng(9);
    Eigen::VectorXd q, v;
    randomState(s, rng, q, v);
    s.normalizePositions(q);
    std::vector<ContactReport> c;
    auto where = [&](const Eigen::VectorXd& x, Eigen::VectorXd& dist, Eigen::Matrix3Xd& pos) {
      s.evaluate(0.0, x, v);
      s.contacts(c);
      for (std::size_t k = 0; k < c.size(); ++k) {
        dist(static_cast<Eigen::Index>(k)) = c[k].distance;
        pos.col(static_cast<Eigen::Index>(k)) = c[k].position;
      }
    };
    checkContactJacobians(s, q, v, Vec3::UnitZ(), where);
    // the contact velocity is what the ground model sees: N v is the points' normal velocity
    Eigen::MatrixXd N(s.contactSize(), s.velocitySize()), D(2 * s.contactSize(), s.velocitySize());
    s.evaluate(0.0, q, v);
    s.contactJacobians(N, D);
    Data data(*model);
    const auto pv = contactPositionsVelocities(*model, data, q, v);
    for (int k = 0; k < s.contactSize(); ++k) {
      QVERIFY(std::abs(N.row(k).dot(v) - pv(5, k)) < 1e-12 * (1 + v.norm()));
      QVERIFY(std::abs(D.row(2 * k).dot(v) - pv(3, k)) < 1e-12 * (1 + v.norm()));
      QVERIFY(std::abs(D.row(2 * k + 1).dot(v) - pv(4, k)) < 1e-12 * (1 + v.norm()));
    }
  }

  // the rigid body's floor impulse redone generically: with W = [N; D] at the post-step pose,
  // the contact-space response K = W M^-1 W', the approach velocity u = W v-, Newton's
  // restitution target -e u_n and Coulomb friction as RigidBody applies them (sticking
  // impulse K^-1 (target e_n - u) inside the cone; else sliding against the slip velocity on
  // the cone's edge; restitution dropped if it would gain energy), v+ = v- + M^-1 W' P
  // reproduces the body's own post-impact velocity. A cube without gravity keeps v and w
  // through the step (isotropic inertia), so v- is the initial velocity; one corner touches.
  // Two cases: sticking (high friction) and sliding (low friction, fast sideways motion).
  void rigidBodyImpulseFromJacobians() {
    struct Case {
      double mu;
      Vec3 v, w;
      bool sticks;
    };
    for (const Case& k : {Case{0.9, Vec3(0.05, -0.02, -1.0), Vec3(0.5, -0.3, 0.2), true},
                          Case{0.1, Vec3(1.5, 0.7, -1.0), Vec3(2.0, -1.0, 3.0), false}}) {
      RigidBodySpec spec;
      spec.shape.type = ShapeSpec::Type::Box;
      spec.shape.size = Vec3(0.1, 0.1, 0.1);
      spec.mass = 1.5;
      spec.gravity = Vec3::Zero();
      spec.rotation = (Eigen::AngleAxisd(0.4, Vec3::UnitX()) * Eigen::AngleAxisd(0.3, Vec3::UnitY()))
                          .toRotationMatrix();
      spec.velocity = k.v;
      spec.angularVelocity = k.w;
      FloorSpec floor;
      floor.restitution = 0.6;
      floor.friction = k.mu;
      spec.floor = floor;
      const double h = 1e-3;
      // the lowest corner 0.3 of a step's approach above the floor: it penetrates in the step
      {
        RigidBodySystem probe(spec, h, h);
        std::vector<ContactReport> c;
        probe.contacts(c);
        const Vec3 r = c[0].position - probe.positions().head<3>();
        const double approach = -(k.v + k.w.cross(r)).z();
        QVERIFY(approach > 0.5);
        spec.position.z() -= c[0].distance - 0.3 * approach * h;
      }
      RigidBodySystem s(spec, h, h);
      const Eigen::VectorXd v0 = s.velocities();
      QVERIFY(s.step());
      QCOMPARE(s.body().lastContactPoints(), 1);
      const Eigen::VectorXd q1 = s.positions(), v1 = s.velocities();
      // generic: N, D and M^-1 at the post-step pose (the impulse's pose; the body is then
      // moved out of the floor by translation only)
      s.evaluate(s.time(), q1, v0);
      Eigen::MatrixXd N(1, 6), D(2, 6), W(3, 6), MinvWt(6, 3);
      s.contactJacobians(N, D);
      W << N, D;
      for (int i = 0; i < 3; ++i) {
        Eigen::VectorXd col = W.row(i).transpose();
        s.solveMass(col);
        MinvWt.col(i) = col;
      }
      const Mat3 K = W * MinvWt;
      const Vec3 u = W * v0;  // normal, t1, t2 velocities of the contact point
      QVERIFY(u(0) < 0);
      const Vec3 en = Vec3::UnitX();
      bool sticks = false;
      Vec3 P = Vec3::Zero();
      for (double e : {floor.restitution, 0.0}) {
        const double target = -e * u(0);
        P = K.ldlt().solve(target * en - u);
        sticks = P(0) > 0 && P.tail<2>().norm() <= k.mu * P(0);
        if (!sticks) {
          const Vec3 vt(0, u(1), u(2));
          const Vec3 Kn = K * en;
          const double t = (target - u(0)) / (vt.norm() * Kn(0) - k.mu * Kn.dot(vt));
          P = std::max(0.0, t) * (vt.norm() * en - k.mu * vt);
        }
        if (e == 0 || P.dot(2 * u + K * P) <= 1e-9 * std::abs(P.dot(u))) break;
      }
      QCOMPARE(sticks, k.sticks);
      const Eigen::VectorXd vplus = v0 + MinvWt * P;
      qInfo("mu %g: impulse [%g %g %g] N s, |v+ generic - v+ body| = %g", k.mu, P(0), P(1), P(2),
            (vplus - v1).norm());
      QVERIFY2((vplus - v1).lpNorm<Eigen::Infinity>() < 1e-10,
               qPrintable(QString("generic v+ differs by %1").arg((vplus - v1).lpNorm<Eigen::Infinity>())));
      // and the contact point leaves at e times its approach speed (sticking: no slip)
      const Vec3 u1 = W * vplus;
      if (k.sticks) {
        QVERIFY(std::abs(u1(0) + floor.restitution * u(0)) < 1e-10 || std::abs(u1(0)) < 1e-10);
        QVERIFY(u1.tail<2>().norm() < 1e-10);
      }
    }
  }

  // force Jacobians: the central-difference default of a tree against the closed forms of the
  // two-link pendulum (Spong: f = -C(q, qd) - g(q), h = m2 l1 lc2 sin q2,
  // C = [-h (2 qd1 qd2 + qd2^2), h qd1^2]), and of a spinning free body (f = [m g; -w x I w],
  // I = R I_c R': Kv = [I w]x - [w]x I, Kq = [w]x [I w]x - [w]x I [w]x for rotations R ->
  // exp([dtheta]) R); the evaluation point is kept
  void defaultForceJacobians() {
    auto model = loadTree("tree_double_pendulum.json");
    TreeSystem s(model, {});
    const double m1 = 1.0, l1 = 1.0, lc1 = 0.5, m2 = 0.5, lc2 = 0.35, g = 9.81;
    std::mt19937 rng(3);
    for (int trial = 0; trial < 3; ++trial) {
      const Eigen::VectorXd q = testutil::randomVector(2, rng, -3, 3),
                            v = testutil::randomVector(2, rng, -3, 3);
      s.evaluate(0.0, q, v);
      Eigen::MatrixXd Kq(2, 2), Kv(2, 2), Kq0(2, 2), Kv0(2, 2);
      s.forceJacobians(Kq, Kv);
      const double hq = m2 * l1 * lc2 * std::sin(q(1)), dh = m2 * l1 * lc2 * std::cos(q(1));
      const double s1 = std::sin(q(0)), s12 = std::sin(q(0) + q(1));
      Kv0 << 2 * hq * v(1), 2 * hq * (v(0) + v(1)), -2 * hq * v(0), 0;
      // -dg/dq - dC/dq
      Kq0 << (m1 * lc1 + m2 * l1) * g * s1 + m2 * lc2 * g * s12,
          m2 * lc2 * g * s12 + dh * (2 * v(0) * v(1) + v(1) * v(1)), m2 * lc2 * g * s12,
          m2 * lc2 * g * s12 - dh * v(0) * v(0);
      QVERIFY2(testutil::relErr(Kq, Kq0) < 1e-8, qPrintable(QString("Kq error %1").arg(testutil::relErr(Kq, Kq0))));
      QVERIFY2(testutil::relErr(Kv, Kv0) < 1e-8, qPrintable(QString("Kv error %1").arg(testutil::relErr(Kv, Kv0))));
      // the evaluation point is restored
      Eigen::VectorXd f(2), f0(2);
      s.generalizedForces(f);
      TreeSystem fresh(model, {});
      fresh.evaluate(0.0, q, v);
      fresh.generalizedForces(f0);
      QVERIFY((f - f0).norm() < 1e-14);
    }
    std::mt19937 rng2(4);
    RigidBodySpec spec = tiltedBody(ShapeSpec::Type::Box, rng2);
    RigidBodySystem rb(spec);
    const Eigen::VectorXd q = rb.positions(), v = testutil::randomVector(6, rng2);
    rb.evaluate(0.0, q, v);
    Eigen::MatrixXd M(6, 6), Kq(6, 6), Kv(6, 6);
    rb.massMatrix(M);
    rb.forceJacobians(Kq, Kv);
    const Mat3 I = M.bottomRightCorner<3, 3>();
    const Vec3 w = v.tail<3>();
    auto hat = [](const Vec3& a) {
      Mat3 A;
      A << 0, -a.z(), a.y(), a.z(), 0, -a.x(), -a.y(), a.x(), 0;
      return A;
    };
    Eigen::MatrixXd Kq0 = Eigen::MatrixXd::Zero(6, 6), Kv0 = Eigen::MatrixXd::Zero(6, 6);
    Kv0.bottomRightCorner<3, 3>() = hat(I * w) - hat(w) * I;
    Kq0.bottomRightCorner<3, 3>() = hat(w) * hat(I * w) - hat(w) * I * hat(w);
    QVERIFY2(testutil::relErr(Kv, Kv0) < 1e-8, qPrintable(QString("Kv error %1").arg(testutil::relErr(Kv, Kv0))));
    QVERIFY2(testutil::relErr(Kq, Kq0) < 1e-8, qPrintable(QString("Kq error %1").arg(testutil::relErr(Kq, Kq0))));
    Eigen::MatrixXd bad(5, 6);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, rb.forceJacobians(bad, Kv));
  }

  // structures: the analytic force Jacobians (springs, dampers, cables) against the interface's
  // central-difference default, on the tensegrity prism (taut and slack cables, damping) and a
  // spring-loaded structure with a grounded spring
  void structureForceJacobians() {
    StructureSystem s(natural::loadStructure(kModels + "/tensegrity_prism.json"));
    std::mt19937 rng(13);
    const int n = s.velocitySize();
    Eigen::MatrixXd Kq(n, n), Kv(n, n), Kqd(n, n), Kvd(n, n);
    for (int trial = 0; trial < 3; ++trial) {
      const Eigen::VectorXd q = s.positions() + testutil::randomVector(n, rng, -0.02, 0.02);
      const Eigen::VectorXd v = testutil::randomVector(n, rng, -1, 1);
      s.evaluate(0.0, q, v);
      s.forceJacobians(Kq, Kv);
      s.System::forceJacobians(Kqd, Kvd);  // the default, by differences
      QVERIFY2(testutil::relErr(Kq, Kqd) < 1e-6, qPrintable(QString("Kq error %1").arg(testutil::relErr(Kq, Kqd))));
      QVERIFY2(testutil::relErr(Kv, Kvd) < 1e-6, qPrintable(QString("Kv error %1").arg(testutil::relErr(Kv, Kvd))));
      QVERIFY(Kv.norm() > 0 && Kq.norm() > 0);
    }
  }

  // a compound pendulum (a unit bar pinned at one end) as a tree closed by a loop: lambda is
  // the pivot's force on the bar, F = m a_c - m g, a_c = alpha z x r - omega^2 r, alpha =
  // (r x m g)_z / (I_c + m r^2)
  void treeLoopPendulumForces() {
    auto model = std::make_shared<const Model>(compile(loopChain(1)));
    TreeSystem s(model, {});
    QCOMPARE(s.constraintSize(), 2);
    QCOMPARE(QString::fromStdString(s.constraintName(1)), QString("pin1.y"));
    Eigen::VectorXd lambda(2);
    for (double t : {0.0, 0.3, 0.55, 0.9}) {
      QVERIFY(s.advanceTo(t));
      s.currentConstraintForces(lambda);
      const double theta = s.positions()(2), omega = s.velocities()(2);
      const Eigen::Vector2d r = 0.5 * Eigen::Vector2d(std::cos(theta), std::sin(theta));
      const Eigen::Vector2d g(0, -9.81);
      const double alpha = (r.x() * g.y() - r.y() * g.x()) / (1.0 / 12 + r.squaredNorm());
      const Eigen::Vector2d a = alpha * Eigen::Vector2d(-r.y(), r.x()) - omega * omega * r;
      const Eigen::Vector2d F = a - g;
      QVERIFY2((lambda - F).norm() < 1e-8 * F.norm(),
               qPrintable(QString("t = %1: lambda (%2, %3), analytic (%4, %5)")
                              .arg(t).arg(lambda(0)).arg(lambda(1)).arg(F.x()).arg(F.y())));
    }
  }

  // the natural-coordinate bar chain and the same chain as a tree with loops: at the same
  // state (the tree's after 0.4 s, mapped to natural coordinates) the revolute joints'
  // multipliers are the loops' forces, and the structure's own Zhong06 run stays close to the
  // tree's
  void structureForcesMatchTree() {
    const int n = 2;
    auto model = std::make_shared<const Model>(compile(loopChain(n)));
    TreeSystem tree(model, {});
    StructureSystem nc(natural::barChain(n));
    QCOMPARE(nc.constraintSize(), n + 2 * n);  // one intrinsic row per bar, then the pins
    QCOMPARE(QString::fromStdString(nc.constraintName(n)), QString("joint1[0]"));
    QVERIFY(tree.advanceTo(0.4));
    QVERIFY(nc.advanceTo(0.4));
    Eigen::VectorXd q(4 * n), v(4 * n);
    for (int k = 0; k < n; ++k) {
      const Eigen::VectorXd& tq = tree.positions();
      const Eigen::VectorXd& tv = tree.velocities();
      const double th = tq(3 * k + 2), w = tv(3 * k + 2);
      q.segment<4>(4 * k) << tq(3 * k), tq(3 * k + 1), std::cos(th), std::sin(th);
      v.segment<4>(4 * k) << tv(3 * k), tv(3 * k + 1), -w * std::sin(th), w * std::cos(th);
    }
    // Zhong06 (its own step, dt = 1 ms) against the tree's RK4: the same motion to within the
    // second-order scheme's error
    QVERIFY2((nc.positions() - q).cwiseAbs().maxCoeff() < 1e-4,
             qPrintable(QString("positions differ by %1")
                            .arg((nc.positions() - q).cwiseAbs().maxCoeff())));
    Eigen::VectorXd lt(2 * n), ln(3 * n);
    tree.currentConstraintForces(lt);
    nc.evaluate(tree.time(), q, v);
    nc.constraintForces(ln);
    const double err = (ln.tail(2 * n) - lt).cwiseAbs().maxCoeff();
    QVERIFY2(err < 1e-8 * lt.cwiseAbs().maxCoeff(),
             qPrintable(QString("pin forces differ by %1 N").arg(err)));
    // the intrinsic rows keep each bar's direction unit: their multipliers balance the
    // centripetal pull along the bar, nonzero while it swings
    QVERIFY(ln.head(n).cwiseAbs().maxCoeff() > 1e-3);
  }

  // structureVersion: stable while stepping and setting the state; a rebuild changes it
  void structureVersion() {
    TreeSystem tree(loadTree("double_pendulum.json"), {});
    const long v0 = tree.structureVersion();
    QVERIFY(tree.step());
    tree.setState(0.0, tree.positions(), tree.velocities());
    tree.reset();
    QCOMPARE(tree.structureVersion(), v0);
    tree.setModel(loadTree("fourbar.json"), {});
    QVERIFY(tree.structureVersion() != v0);
    QCOMPARE(tree.constraintSize(), 2);
    QCOMPARE(tree.positionSize(), 3);
    QVERIFY(tree.step());
    // a rejected model leaves the system as it was
    const long v1 = tree.structureVersion();
    SimulationOptions bad;
    bad.dt = -1;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             tree.setModel(loadTree("double_pendulum.json"), bad));
    QCOMPARE(tree.structureVersion(), v1);
    QCOMPARE(tree.positionSize(), 3);

    StructureSystem nc(natural::barChain(2));
    const long s0 = nc.structureVersion();
    QVERIFY(nc.step());
    QCOMPARE(nc.structureVersion(), s0);
    nc.setStructure(natural::barChain(3));
    QVERIFY(nc.structureVersion() != s0);
    QCOMPARE(nc.positionSize(), 12);
    QVERIFY(nc.step());
  }

  // segments (what the viewport draws for springs and cables): one per apparatus, its ends at
  // the structure's own positions of the attachment points (natural::pointPosition of their
  // local coordinates), a taut cable's tension k (l - l0) from those points, and slack exactly
  // when removing the cable leaves the generalized forces unchanged; at rigidly displaced bars
  // (some cables slack, some taut). Trees and rigid bodies have none.
  void segmentsFollowAttachmentPoints() {
    const natural::StructureSpec spec = natural::loadStructure(kModels + "/tensegrity_prism.json");
    StructureSystem sys(spec);
    const natural::Structure& st = sys.structure();
    const int n = sys.positionSize(), na = static_cast<int>(spec.apparatuses.size());
    QCOMPARE(na, 9);
    // the same structure without apparatus k
    std::vector<std::unique_ptr<StructureSystem>> without;
    for (int k = 0; k < na; ++k) {
      natural::StructureSpec s = spec;
      s.apparatuses.erase(s.apparatuses.begin() + k);
      without.push_back(std::make_unique<StructureSystem>(s));
    }
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(-0.15, 0.15);
    const Eigen::VectorXd v0 = Eigen::VectorXd::Zero(n);
    Eigen::VectorXd f(n), fk(n);
    std::vector<SegmentReport> seg;
    int slack = 0, taut = 0;
    for (int trial = 0; trial < 20; ++trial) {
      Eigen::VectorXd q = st.q0();
      if (trial > 0)  // each bar moved rigidly (both of its points by the same vector)
        for (int b = 0; b < st.nq() / 6; ++b) {
          const Eigen::Vector3d t(u(rng), u(rng), u(rng));
          q.segment<3>(6 * b) += t;
          q.segment<3>(6 * b + 3) += t;
        }
      sys.segments(q, Eigen::VectorXd(), seg);
      QCOMPARE(static_cast<int>(seg.size()), na);
      sys.evaluate(0, q, v0);
      sys.generalizedForces(f);
      for (int k = 0; k < na; ++k) {
        const natural::ApparatusSpec& a = spec.apparatuses[static_cast<std::size_t>(k)];
        const auto& bodyA = st.bodies()[static_cast<std::size_t>(a.bodyA)];
        const auto& bodyB = st.bodies()[static_cast<std::size_t>(a.bodyB)];
        const Vec3 pA = natural::pointPosition(st, a.bodyA, bodyA.localPoint(a.pointA), q);
        const Vec3 pB = natural::pointPosition(st, a.bodyB, bodyB.localPoint(a.pointB), q);
        QVERIFY(seg[k].kind == SegmentReport::Kind::Cable);
        QVERIFY2((seg[k].a - pA).norm() < 1e-12 && (seg[k].b - pB).norm() < 1e-12,
                 qPrintable(QString("segment %1 is off its attachment points").arg(k)));
        without[static_cast<std::size_t>(k)]->evaluate(0, q, v0);
        without[static_cast<std::size_t>(k)]->generalizedForces(fk);
        const double effect = (f - fk).lpNorm<Eigen::Infinity>();
        const double stretch = (pB - pA).norm() - *a.restLength;
        if (seg[k].slack) {
          ++slack;
          QVERIFY2(effect < 1e-12, qPrintable(QString("slack cable %1 pulls: %2").arg(k).arg(effect)));
          QCOMPARE(seg[k].tension, 0.0);
          QVERIFY(stretch <= 0);
        } else {
          ++taut;
          QVERIFY2(effect > 1e-6, qPrintable(QString("taut cable %1 pulls nothing").arg(k)));
          QVERIFY(std::abs(seg[k].tension - a.stiffness * stretch) < 1e-9 * a.stiffness);
        }
      }
    }
    QVERIFY2(slack > 0 && taut > 0, qPrintable(QString("%1 slack, %2 taut").arg(slack).arg(taut)));
    // q or v of the wrong size is refused
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, sys.segments(st.q0(), Eigen::VectorXd(3), seg));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, sys.segments(Eigen::VectorXd(3), v0, seg));
    // springs with and without stiffness: Spring and Damper, never slack, and they push
    natural::StructureSpec chain = natural::barChain(1);
    natural::ApparatusSpec sp;
    sp.bodyA = -1;
    sp.bodyB = 0;
    sp.pointA = Eigen::Vector3d(1, 1, 0);
    sp.pointB = Eigen::Vector3d(1, 0, 0);
    sp.stiffness = 10;
    sp.restLength = 2.0;  // compressed: pushes
    chain.apparatuses.push_back(sp);
    sp.stiffness = 0;
    sp.damping = 3;
    chain.apparatuses.push_back(sp);
    StructureSystem springs(chain);
    Eigen::VectorXd v = Eigen::VectorXd::Zero(springs.velocitySize());
    v.segment<2>(0) = Eigen::Vector2d(0, -0.5);  // the bar's point moves down: away from A
    springs.segments(springs.positions(), Eigen::VectorXd(), seg);
    QCOMPARE(seg.size(), std::size_t(2));
    QVERIFY(seg[0].kind == SegmentReport::Kind::Spring);
    QVERIFY(seg[1].kind == SegmentReport::Kind::Damper);
    QVERIFY(!seg[0].slack && !seg[1].slack);
    QVERIFY(std::abs(seg[0].tension - 10 * (1.0 - 2.0)) < 1e-12);
    QVERIFY((seg[0].a - Vec3(1, 1, 0)).norm() < 1e-15 && (seg[0].b - Vec3(1, 0, 0)).norm() < 1e-12);
    springs.segments(springs.positions(), v, seg);
    // the bar's base point r is at the origin; point B (its end) moves with r here
    QVERIFY(std::abs(seg[1].tension - 3 * 0.5) < 1e-12);
    // no segments elsewhere, and the list is emptied
    TreeSystem tree(loadTree("double_pendulum.json"), {});
    tree.segments(tree.positions(), tree.velocities(), seg);
    QVERIFY(seg.empty());
  }

  // size mismatches are refused with a message naming the argument
  void sizeMismatchThrows() {
    TreeSystem tree(loadTree("fourbar.json"), {});
    Eigen::VectorXd wrong(5);
    Eigen::MatrixXd G(1, 3);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, tree.generalizedForces(wrong));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, tree.constraintJacobian(G));
    try {
      tree.constraintResidual(wrong);
      QFAIL("no throw");
    } catch (const std::invalid_argument& e) {
      QVERIFY2(QString(e.what()).contains("phi"), e.what());
    }
  }
};

ARTICULATE_TEST_MAIN(TestSystem)
#include "test_system.moc"
