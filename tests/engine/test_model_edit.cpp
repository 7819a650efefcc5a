// Structural edits of a ModelSpec: every reference to a body follows the renumbering, removed
// bodies take their contacts, forces and constraints with them, cycles are refused, and the
// edited models still compile and move as the same mechanism.
#include <QtTest>

#include "articulate/dynamics.h"
#include "articulate/generators.h"
#include "articulate/model.h"
#include "articulate/model_edit.h"
#include "articulate/model_format.h"

using namespace art;

namespace {

// base - a - b - c, and d under a
ModelSpec sample() {
  ModelSpec s;
  for (const char* name : {"a", "b", "c", "d"}) {
    BodySpec b;
    b.name = name;
    b.joint.type = JointType::Ry;
    b.translation = Vec3(0.3, 0, 0);
    b.inertia = InertiaSpec::fromMassComInertia(1.0, Vec3(0.15, 0, 0), Mat3::Identity() * 0.01);
    b.parent = s.bodies.empty() ? -1 : static_cast<int>(s.bodies.size()) - 1;
    s.bodies.push_back(b);
  }
  s.bodies[3].parent = 0;
  s.camera.body = 2;
  s.contacts.push_back({2, Vec3(0.3, 0, 0)});
  s.contacts.push_back({3, Vec3(0.3, 0, 0)});
  ConstraintSpec c;
  c.type = ConstraintSpec::Type::Coupling;
  c.joint = 3;
  c.master = 1;
  c.ratio = 2;
  s.constraints.push_back(c);
  ExternalForceSpec f;
  f.body = 2;
  f.force = Vec3(0, 0, 1);
  s.forces.push_back(f);
  return s;
}

}  // namespace

class TestModelEdit : public QObject {
  Q_OBJECT
 private slots:
  void addBodyChecksNameAndParent() {
    ModelSpec s = sample();
    BodySpec b = s.bodies[0];
    b.name = "e";
    b.parent = 3;
    QCOMPARE(addBody(s, b), 4);
    compile(s);
    b.parent = 9;
    b.name = "f";
    QVERIFY_THROWS_EXCEPTION(EditError, addBody(s, b));
    b.parent = 0;
    b.name = "a";
    QVERIFY_THROWS_EXCEPTION(EditError, addBody(s, b));
    b.name = "base";
    QVERIFY_THROWS_EXCEPTION(EditError, addBody(s, b));
    QCOMPARE(s.bodies.size(), std::size_t(5));
  }

  void subtreeFollowsParents() {
    const ModelSpec s = sample();
    QCOMPARE(subtree(s, 0), (std::vector<int>{0, 1, 2, 3}));
    QCOMPARE(subtree(s, 1), (std::vector<int>{1, 2}));
    QCOMPARE(subtree(s, 3), (std::vector<int>{3}));
  }

  void removeSubtreeTakesItsReferencesAlong() {
    ModelSpec s = sample();
    removeSubtree(s, 1);  // b and c
    QCOMPARE(s.bodies.size(), std::size_t(2));
    QCOMPARE(s.bodies[1].name, std::string("d"));
    QCOMPARE(s.bodies[1].parent, 0);
    QCOMPARE(s.camera.body, -1);  // tracked c is gone: a fixed camera
    QCOMPARE(s.contacts.size(), std::size_t(1));
    QCOMPARE(s.contacts[0].body, 1);  // d's contact, renumbered
    QVERIFY(s.constraints.empty());   // coupled to b
    QVERIFY(s.forces.empty());        // on c
    compile(s);
  }

  void reparentReordersAndRefusesCycles() {
    ModelSpec s = sample();
    QVERIFY_THROWS_EXCEPTION(EditError, reparent(s, 1, 2));  // under its own child
    QVERIFY_THROWS_EXCEPTION(EditError, reparent(s, 1, 1));
    // move a (with everything) ... to base: nothing changes
    const std::string before = specToJson(s).dump();
    QCOMPARE(reparent(s, 0, -1), 0);
    QCOMPARE(specToJson(s).dump(), before);
    // move b (with c) under d: d must now come before b
    const int nb = reparent(s, 1, 3);
    compile(s);
    QCOMPARE(s.bodies[nb].name, std::string("b"));
    QCOMPARE(s.bodies[s.bodies[nb].parent].name, std::string("d"));
    for (std::size_t i = 0; i < s.bodies.size(); ++i) QVERIFY(s.bodies[i].parent < int(i));
    // references follow the bodies by name
    QCOMPARE(s.bodies[s.camera.body].name, std::string("c"));
    QCOMPARE(s.bodies[s.contacts[0].body].name, std::string("c"));
    QCOMPARE(s.bodies[s.constraints[0].joint].name, std::string("d"));
    QCOMPARE(s.bodies[s.constraints[0].master].name, std::string("b"));
    QCOMPARE(s.bodies[s.forces[0].body].name, std::string("c"));
  }

  void reorderedTreeIsTheSameMechanism() {
    // move a subtree away and back: the bodies may end up in another order, but it is the same
    // mechanism: the mass matrices agree under the permutation by name
    AutoTreeOptions o;
    o.bodies = 7;
    o.branching = 2;
    o.axes = {JointType::Rz, JointType::Ry};
    const ModelSpec s = autoTree(o);
    ModelSpec moved = s;
    const int parent = s.bodies[1].parent;
    int at = reparent(moved, 1, static_cast<int>(moved.bodies.size()) - 1);  // under the last leaf
    at = reparent(moved, at, parent);                                          // and back
    QCOMPARE(moved.bodies[at].name, s.bodies[1].name);
    std::vector<int> perm(s.bodies.size());
    for (std::size_t i = 0; i < s.bodies.size(); ++i) perm[i] = moved.findBody(s.bodies[i].name);
    QVERIFY(perm != std::vector<int>({0, 1, 2, 3, 4, 5, 6}));  // the order did change
    const Model a = compile(s), b = compile(moved);
    Data da(a), db(b);
    const Eigen::VectorXd q = Eigen::VectorXd::LinSpaced(7, -0.5, 0.7);
    Eigen::VectorXd qb(7);
    for (int i = 0; i < 7; ++i) qb(perm[i]) = q(i);
    crba(a, da, q);
    crba(b, db, qb);
    for (int i = 0; i < 7; ++i)
      for (int j = 0; j < 7; ++j) QVERIFY(std::abs(da.H(i, j) - db.H(perm[i], perm[j])) < 1e-12);
  }
};

QTEST_APPLESS_MAIN(TestModelEdit)
#include "test_model_edit.moc"
