// "No allocation after Data is built": global operator new is counted while every algorithm
// runs on spatial and planar models, with and without external forces, and while a rigid body
// steps through impacts, rolling and resting contact.
#include <QtTest>

#include <atomic>
#include <cstdlib>
#include <new>

#include "articulate/dynamics.h"
#include "articulate/generators.h"
#include "articulate/rigid_body.h"

namespace {
std::atomic<long> g_allocations{0};
}

void* operator new(std::size_t n) {
  ++g_allocations;
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

using namespace art;

class TestNoAlloc : public QObject {
  Q_OBJECT
 private slots:
  void algorithmsDoNotAllocate_data() {
    QTest::addColumn<bool>("planar");
    QTest::newRow("spatial") << false;
    QTest::newRow("planar") << true;
  }
  void algorithmsDoNotAllocate() {
    QFETCH(bool, planar);
    const ModelSpec spec =
        planar ? randomTree(12, 1, {JointType::PlanarR, JointType::PlanarPx})
               : randomTree(12, 1, {JointType::Rx, JointType::Pz, JointType::H, JointType::Ry});
    const Model m = compile(spec);
    Data d(m);
    const Eigen::VectorXd q = Eigen::VectorXd::LinSpaced(12, -1, 1), qd = q.reverse(), tau = 2 * q;
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
    }
    const long count = g_allocations.load() - before;
    QCOMPARE(count, 0L);
    // the counter works: an allocation is seen
    auto* probe = new std::vector<double>(100);
    QVERIFY(g_allocations.load() > before);
    delete probe;
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
};

QTEST_APPLESS_MAIN(TestNoAlloc)
#include "test_noalloc.moc"
