// "No allocation after Data is built": every heap allocation is counted (malloc, calloc,
// realloc and the aligned allocators, which Eigen's temporaries and operator new both go
// through) while every algorithm runs on spatial and planar models, with and without external
// forces, while simulations with constraints and ground contact step, and while a rigid body
// steps through impacts, rolling and resting contact, and while the System interface's
// solver-facing calls run.
#include <QtTest>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <new>

#include <Eigen/Core>

#include "articulate/dynamics/configuration.h"
#include "articulate/dynamics/dynamics.h"
#include "articulate/formulations/generators.h"
#include "articulate/formats/document.h"
#include "articulate/formats/files.h"
#include "articulate/formats/mjcf.h"
#include "articulate/formulations/natural/integrator.h"
#include "articulate/formats/structure.h"
#include "articulate/formulations/tree_batch.h"
#include "articulate/formulations/tree_simulation.h"
#include "articulate/formulations/rigid_body.h"
#include "articulate/simulation/structure_system.h"
#include "articulate/simulation/system.h"

namespace {
std::atomic<long> g_allocations{0};
}

#ifdef ARTICULATE_SANITIZED  // the asan, tsan and fuzz builds (CMakeLists.txt)
// Under a sanitizer its runtime owns malloc, and GCC 12's runtimes call neither the
// __sanitizer_malloc_hook nor hooks installed with __sanitizer_install_malloc_and_free_hooks
// (tried: both count nothing): nothing here could see an allocation, so the test does not run
// (initTestCase); the plain build's run counts every allocation.
constexpr bool kCanCount = false;
#else
constexpr bool kCanCount = true;
// glibc's allocator under its own names: the counting wrappers below replace malloc and its
// relatives for the whole process (libstdc++'s operator new and Eigen's aligned_malloc call
// malloc, so they are counted too, and so is an allocation made inside any library)
extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void* __libc_memalign(std::size_t, std::size_t);
void* malloc(std::size_t n) {
  ++g_allocations;
  return __libc_malloc(n);
}
void* calloc(std::size_t count, std::size_t n) {
  ++g_allocations;
  return __libc_calloc(count, n);
}
void* realloc(void* p, std::size_t n) {
  ++g_allocations;
  return __libc_realloc(p, n);
}
void* memalign(std::size_t alignment, std::size_t n) {
  ++g_allocations;
  return __libc_memalign(alignment, n);
}
void* aligned_alloc(std::size_t alignment, std::size_t n) {
  ++g_allocations;
  return __libc_memalign(alignment, n);
}
int posix_memalign(void** p, std::size_t alignment, std::size_t n) {
  ++g_allocations;
  *p = __libc_memalign(alignment, n);
  return *p ? 0 : ENOMEM;
}
}
#endif

using namespace art;

class TestNoAlloc : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    if (!kCanCount) QSKIP("under a sanitizer no allocation can be counted (see the top of this file)");
  }
  void algorithmsDoNotAllocate_data() {
    QTest::addColumn<bool>("planar");
    QTest::addColumn<bool>("free");
    QTest::addColumn<bool>("ball");
    QTest::newRow("spatial") << false << false << false;
    QTest::newRow("planar") << true << false << false;
    QTest::newRow("free joint") << false << true << false;
    QTest::newRow("ball joints") << false << true << true;
  }
  void algorithmsDoNotAllocate() {
    QFETCH(bool, planar);
    QFETCH(bool, free);
    QFETCH(bool, ball);
    ModelSpec spec =
        planar ? randomTree(12, 1, {JointType::PlanarR, JointType::PlanarPx})
               : randomTree(12, 1, {JointType::Rx, JointType::Pz, JointType::H, JointType::Ry});
    if (free) spec.bodies[0].joint = Joint{JointType::Free, 0.0};
    if (ball)  // with armature: aba's 3x3 solve with it
      for (int i : {3, 7, 11}) {
        spec.bodies[static_cast<std::size_t>(i)].joint = Joint{JointType::Ball, 0.0};
        spec.bodies[static_cast<std::size_t>(i)].armature = 0.01;
      }
    const Model m = compile(spec);
    Data d(m);
    const Eigen::VectorXd q = Eigen::VectorXd::LinSpaced(m.nq(), -1, 1);
    const Eigen::VectorXd qd = Eigen::VectorXd::LinSpaced(m.nv(), 1, -1);
    const Eigen::VectorXd tau = 2 * Eigen::VectorXd::LinSpaced(m.nv(), -1, 1);
    Eigen::VectorXd q1 = q;
    const Eigen::MatrixXd fext = Eigen::MatrixXd::Ones(planar ? 3 : 6, 12);
    const long before = g_allocations.load();
    for (const ExternalForces* f : {static_cast<const ExternalForces*>(nullptr), &fext}) {
      forwardKinematics(m, d, q);
      rnea(m, d, q, qd, tau, f);
      aba(m, d, q, qd, tau, f);
      crba(m, d, q);
      biasForces(m, d, q, qd, f);
      forwardDynamicsCrb(m, d, q, qd, tau, f);
      energyMomentum(m, d, q, qd);
      configurationDerivative(m, q, qd, q1);
      integrateConfiguration(m, q, qd, 0.01, q1);
      normalizeConfiguration(m, q1);
    }
    const long count = g_allocations.load() - before;
    QCOMPARE(count, 0L);
    // the counter works: operator new, a plain malloc and an Eigen temporary are each seen
    // (each escapes to an empty asm statement: clang removes an allocation that nothing uses)
    long seen = g_allocations.load();
    auto* probe = new std::vector<double>(100);
    asm volatile("" : : "r"(probe) : "memory");
    QVERIFY(g_allocations.load() > seen);
    delete probe;
    seen = g_allocations.load();
    void* raw = std::malloc(64);
    asm volatile("" : : "r"(raw) : "memory");
    QVERIFY(g_allocations.load() > seen);
    std::free(raw);
    seen = g_allocations.load();
    const Eigen::VectorXd sum = q + q;  // a dynamic-size Eigen result: Eigen's aligned_malloc
    QVERIFY(g_allocations.load() > seen);
    QVERIFY(sum.size() == q.size());
  }

  // stepping a constrained (four-bar, planar and loop) or contact (quadruped) model with each
  // integrator, and reading its constraint and contact forces, allocates nothing
  void simulationStepsDoNotAllocate_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("integrator");
    // "+stops": every joint but the free one gets a tight stop and friction, so that stops act
    for (const char* file : {"fourbar.json", "double_elbow.json", "quadruped.json", "quadruped.json+stops"})
      for (const char* integrator : {"rk4", "euler", "dopri5"})
        QTest::newRow(qPrintable(QString(file) + "/" + integrator)) << file << integrator;
  }
  void simulationStepsDoNotAllocate() {
    QFETCH(QString, file);
    QFETCH(QString, integrator);
    const bool stops = file.endsWith("+stops");
    ModelSpec spec = loadModel(std::string(ARTICULATE_MODELS_DIR) + "/" + file.section('+', 0, 0).toStdString()).spec;
    if (stops)
      for (BodySpec& b : spec.bodies)
        if (b.joint.type != JointType::Free) {
          b.limits.lower = b.q0 - 0.001;
          b.limits.upper = b.q0 + 0.001;
          b.friction = 0.5;
        }
    const Model m = compile(spec);
    QCOMPARE(m.stops, stops);
    SimulationOptions opt;
    QVERIFY(parseIntegrator(integrator.toStdString(), opt.integrator));
    Simulation sim(m, opt);
    QVERIFY(sim.step());
    const long before = g_allocations.load();
    for (int k = 0; k < 20; ++k) QVERIFY(sim.step());
    QVERIFY(sim.advanceTo(sim.time() + 0.0105));
    sim.constraintForces();
    sim.contactForces();
    sim.constraintError();
    QCOMPARE(g_allocations.load() - before, 0L);
  }

  // body-body contact on the soft model, in both cones (MuJoCo's Newton, CG and PGS): a
  // tumbling pile of boxes, a capsule and a ball on a floor, stepped until its contacts have
  // all come (the rows' arrays grow to the most seen, once), then stepped on
  void softContactStepsDoNotAllocate_data() {
    QTest::addColumn<QString>("cone");
    QTest::addColumn<QString>("solver");
    for (const char* cone : {"pyramidal", "elliptic"})
      for (const char* solver : {"Newton", "CG", "PGS"}) QTest::newRow(qPrintable(QString(cone) + "/" + solver)) << cone << solver;
  }
  void softContactStepsDoNotAllocate() {
    QFETCH(QString, cone);
    QFETCH(QString, solver);
    std::string xml = "<mujoco><option cone='" + cone.toStdString() + "' solver='" + solver.toStdString() +
                      "'/><worldbody><geom type='plane' size='2 2 0.1'/>";
    for (int k = 0; k < 4; ++k)
      xml += "<body pos='" + std::to_string(0.03 * k) + " 0 " + std::to_string(0.06 + 0.11 * k) + "' euler='" + std::to_string(17 * k) +
             " 9 0'><freejoint/><geom type='box' size='0.05 0.04 0.05' condim='" + (k == 3 ? "6" : "3") + "'/></body>";
    xml += "<body pos='0 0.1 0.6'><freejoint/><geom type='capsule' size='0.03 0.08' condim='4'/></body>"
           "<body pos='0.1 0 0.7'><freejoint/><geom type='sphere' size='0.05' condim='6'/></body></worldbody></mujoco>";
    const ModelSpec spec = specFromMjcf(xml, "pile.xml");
    QCOMPARE(spec.geoms.size(), std::size_t(7));
    const Model m = compile(spec);
    Simulation sim(m, simulationOptions(spec));
    QVERIFY(sim.advanceTo(1.0));
    const long before = g_allocations.load();
    QVERIFY(sim.advanceTo(1.2));
    sim.constraintForces();
    QVERIFY(!sim.softConstraints()->contacts.empty());
    QCOMPARE(g_allocations.load() - before, 0L);
  }

  void batchStepsDoNotAllocate_data() {
    QTest::addColumn<QString>("integrator");
    QTest::newRow("rk4") << "rk4";
    QTest::newRow("euler") << "euler";
  }
  // four states of the autoTree(20) chain stepped together (tree_batch.h)
  void batchStepsDoNotAllocate() {
    QFETCH(QString, integrator);
    AutoTreeOptions o;
    o.bodies = 20;
    o.axes = {JointType::Rz, JointType::Ry};
    ModelSpec spec = autoTree(o);
    spec.gravity = Vec3(0, 0, -9.81);
    const Model m = compile(spec);
    SimulationOptions opt;
    QVERIFY(parseIntegrator(integrator.toStdString(), opt.integrator));
    BatchSimulation batch(m, opt);
    for (int l = 0; l < kLanes; ++l) batch.setState(l, Eigen::VectorXd::Constant(m.nq(), 0.1 * l), m.qd0);
    QVERIFY(batch.advanceTo(0.001));
    const long before = g_allocations.load();
    QVERIFY(batch.advanceTo(0.0255));
    QCOMPARE(batch.stepsTaken(3), 26L);
    QCOMPARE(g_allocations.load() - before, 0L);
  }

  void rigidBodyStepsDoNotAllocate() {
    RigidBodySpec spec = bouncingCylinder(0.045);
    spec.floor->rollingResistance = 0.001;  // the Gauss-Seidel path with several points too
    spec.referencePoint = Vec3(0.01, 0, 0.02);
    RigidBody body(spec);
    const long before = g_allocations.load();
    int contacts = 0;
    for (int k = 0; k < 200000; ++k) {
      body.step(1e-5);
      contacts += body.lastContactPoints() > 1;
    }
    QCOMPARE(g_allocations.load() - before, 0L);
    QVERIFY(contacts > 0);
  }

  // natural-coordinate structures: the update pipeline, residual, Jacobian, velocity term and
  // energies substitute values into matrices built once; a dense Zhong06 or RK4 step too
  void structureEvaluationDoesNotAllocate_data() {
    QTest::addColumn<QString>("file");
    for (const char* file : {"tensegrity_prism.json", "natural_spatial_chain.json",
                             "natural_fourbar.json"})
      QTest::newRow(file) << file;
  }
  void structureEvaluationDoesNotAllocate() {
    QFETCH(QString, file);
    namespace nc = art::natural;
    const nc::Structure s(
        nc::loadStructure(std::string(ARTICULATE_MODELS_DIR) + "/" + file.toStdString()));
    nc::StructureData d(s);
    const Eigen::VectorXd q = s.q0() + 0.01 * Eigen::VectorXd::Ones(s.nq());
    const Eigen::VectorXd qd = Eigen::VectorXd::Ones(s.nq());
    nc::StructureSimulation zhong(s, nc::SimulationOptions{});
    nc::SimulationOptions rk;
    rk.integrator = nc::Integrator::RK4;
    nc::StructureSimulation rk4(s, rk);
    QVERIFY(zhong.step() && rk4.step());
    const long before = g_allocations.load();
    nc::updateStructure(s, d, q, qd);
    nc::constraintResidual(s, d, q);
    nc::constraintJacobian(s, d, q);
    nc::constraintVelocityTerm(s, d, qd);
    nc::energy(s, d, q, qd);
    nc::pointPosition(s, 0, Eigen::Vector3d(0.1, 0, 0), q);
    for (int k = 0; k < 10; ++k) QVERIFY(zhong.step() && rk4.step());
    zhong.energy();
    zhong.constraintError();
    QCOMPARE(g_allocations.load() - before, 0L);
  }

  // the System interface's solver-facing calls write into caller-sized outputs: a tree with
  // constraints, one with ground contact and controllers, structures (one with cables, whose
  // segments are drawn every frame) and a rigid body
  void systemCallsDoNotAllocate_data() {
    QTest::addColumn<QString>("file");
    for (const char* file : {"fourbar.json", "quadruped.json", "floatbase_tree.json",
                             "natural_fourbar.json", "tensegrity_prism.json",
                             "bouncing_cylinder.json"})
      QTest::newRow(file) << file;
  }
  void systemCallsDoNotAllocate() {
    QFETCH(QString, file);
    const std::string path = std::string(ARTICULATE_MODELS_DIR) + "/" + file.toStdString();
    std::unique_ptr<System> s;
    if (natural::isStructureDocument(readJsonFile(path)))
      s = std::make_unique<StructureSystem>(natural::loadStructure(path));
    else if (const LoadedDocument doc = loadDocument(path); std::holds_alternative<RigidBodySpec>(doc))
      s = std::make_unique<RigidBodySystem>(std::get<RigidBodySpec>(doc));
    else
      s = std::make_unique<TreeSystem>(
          std::make_shared<const Model>(compile(std::get<LoadedModel>(doc).spec)),
          SimulationOptions{});
    const int nq = s->positionSize(), nv = s->velocitySize(), nc = s->constraintSize();
    Eigen::VectorXd q = s->positions(), v = s->velocities(), w(s->auxiliarySize()),
                    qdot(nq), f(nv), phi(nc), gdotv(nc), lambda(nc), wdot(w.size());
    Eigen::MatrixXd M(nv, nv), G(nc, nv), N(s->contactSize(), nv), D(2 * s->contactSize(), nv);
    std::vector<ContactReport> contacts;
    s->contacts(contacts);  // sized once
    s->contactJacobians(N, D);  // trees build its workspace on first use
    std::vector<SegmentReport> segments;
    const Eigen::VectorXd none;
    s->segments(q, v, segments);  // sized once
    QVERIFY(s->step());
    s->auxiliaryState(w);
    const long before = g_allocations.load();
    for (int k = 0; k < 3; ++k) {
      s->evaluate(0.1, q, v, w);
      s->positionDerivative(q, v, qdot);
      s->integratePositions(q, v, 1e-3, q);
      s->normalizePositions(q);
      s->massMatrix(M);
      s->generalizedForces(f);
      s->solveMass(f);
      s->constraintResidual(phi);
      s->constraintJacobian(G);
      s->constraintVelocityTerm(gdotv);
      s->constraintForces(lambda);
      s->auxiliaryRate(wdot);
      s->contacts(contacts);
      s->contactJacobians(N, D);
      s->currentConstraintForces(lambda);
      s->segments(q, v, segments);
      s->segments(q, none, segments);
      QVERIFY(s->step());
    }
    QCOMPARE(g_allocations.load() - before, 0L);
  }
};

QTEST_APPLESS_MAIN(TestNoAlloc)
#include "test_noalloc.moc"
