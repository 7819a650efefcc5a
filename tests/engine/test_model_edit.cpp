// Structural edits of a ModelSpec: every reference to a body follows the renumbering, removed
// bodies take their contacts, forces and constraints with them, cycles are refused, and the
// edited models still compile and move as the same mechanism.
#include <QtTest>

#include "test_main.h"

#include <functional>

#include <Eigen/Geometry>

#include "articulate/dynamics/dynamics.h"
#include "articulate/formulations/generators.h"
#include "articulate/model/model.h"
#include "articulate/model/edit.h"
#include "articulate/formats/articulate.h"

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

// Mass properties of a solid by brute force: n^3 midpoint cells over its bounding box, each
// counted when its centre is inside. Independent of the closed forms in shapeInertia.
InertiaSpec sampled(const std::function<bool(const Vec3&)>& inside, const Vec3& lo, const Vec3& hi,
                    double density, int n) {
  const Vec3 h = (hi - lo) / n;
  const double dm = density * h.prod();
  double m = 0;
  Vec3 first = Vec3::Zero();
  Mat3 second = Mat3::Zero();
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k) {
        const Vec3 p = lo + Vec3((i + 0.5) * h.x(), (j + 0.5) * h.y(), (k + 0.5) * h.z());
        if (!inside(p)) continue;
        m += dm;
        first += dm * p;
        second += dm * p * p.transpose();
      }
  const Vec3 c = first / m;
  // about the centre: sum dm (|r|^2 1 - r r^T) with r = p - c
  const Mat3 rr = second - m * c * c.transpose();
  return InertiaSpec::fromMassComInertia(m, c, rr.trace() * Mat3::Identity() - rr);
}

void expectClose(const InertiaSpec& a, const InertiaSpec& b, double rel) {
  QVERIFY2(std::abs(a.mass - b.mass) <= rel * b.mass,
           qPrintable(QString("mass %1 vs %2").arg(a.mass).arg(b.mass)));
  const double size = std::sqrt(b.aboutCom.norm() / b.mass);  // a length of the body
  QVERIFY2((a.com - b.com).norm() <= rel * size, qPrintable(QString("com off by %1").arg((a.com - b.com).norm())));
  QVERIFY2((a.aboutCom - b.aboutCom).norm() <= rel * b.aboutCom.norm(),
           qPrintable(QString("inertia off by %1 of %2").arg((a.aboutCom - b.aboutCom).norm()).arg(b.aboutCom.norm())));
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

  // setInitialState writes a state (the model's q and qd order, free joints included) into the
  // spec: compiling it gives that state back
  void setInitialStateRoundTrips() {
    ModelSpec s = randomTree(5, 11, {JointType::Rx, JointType::Py, JointType::Rz});
    s.bodies[0].joint.type = JointType::Free;
    const Model before = compile(s);
    Eigen::VectorXd q = Eigen::VectorXd::LinSpaced(before.nq(), -0.3, 0.7);
    q.segment<4>(before.qIndex[0] + 3) = Eigen::Vector4d(0.5, 0.5, -0.5, 0.5);  // a unit quaternion
    const Eigen::VectorXd qd = Eigen::VectorXd::LinSpaced(before.nv(), 1.0, -2.0);
    setInitialState(s, q, qd);
    const Model after = compile(s);
    QVERIFY((after.q0 - q).norm() < 1e-15);
    QVERIFY((after.qd0 - qd).norm() < 1e-15);
    // without velocities they stay; a wrong size is refused and changes nothing
    setInitialState(s, Eigen::VectorXd::Zero(before.nq()) + q * 0.5);
    QVERIFY((compile(s).qd0 - qd).norm() < 1e-15);
    const std::string unchanged = specToJson(s).dump();
    QVERIFY_THROWS_EXCEPTION(EditError, setInitialState(s, Eigen::VectorXd::Zero(3)));
    QCOMPARE(specToJson(s).dump(), unchanged);
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

  void shapeInertiaMatchesSampledSolids() {
    const double rho = 2700;
    Shape box;
    box.kind = Shape::Kind::Box;
    box.a = Vec3(0.1, -0.2, 0.05);
    box.size = Vec3(0.3, 0.1, 0.05);
    expectClose(shapeInertia(box, rho),
                sampled([&](const Vec3& p) { return ((p - box.a).cwiseAbs().array() <= 0.5 * box.size.array()).all(); },
                        box.a - 0.5 * box.size, box.a + 0.5 * box.size, rho, 60),
                2e-3);
    // a tilted cylinder: the products of inertia must come out right too
    Shape cyl;
    cyl.kind = Shape::Kind::Cylinder;
    cyl.a = Vec3(0.02, 0.01, -0.03);
    cyl.b = Vec3(0.25, 0.1, 0.12);
    cyl.radius = 0.04;
    const Vec3 u = (cyl.b - cyl.a).normalized();
    const double L = (cyl.b - cyl.a).norm();
    auto inCyl = [&](const Vec3& p) {
      const double s = (p - cyl.a).dot(u);
      return s >= 0 && s <= L && (p - cyl.a - s * u).norm() <= cyl.radius;
    };
    const Vec3 lo = cyl.a.cwiseMin(cyl.b) - Vec3::Constant(cyl.radius),
               hi = cyl.a.cwiseMax(cyl.b) + Vec3::Constant(cyl.radius);
    const InertiaSpec c = shapeInertia(cyl, rho);
    expectClose(c, sampled(inCyl, lo, hi, rho, 120), 1e-2);
    QVERIFY(std::abs(c.aboutCom(0, 1)) > 1e-6);  // tilted: not diagonal
    Shape ball;
    ball.kind = Shape::Kind::Sphere;
    ball.a = Vec3(0, 0.3, 0);
    ball.radius = 0.07;
    expectClose(shapeInertia(ball, rho),
                sampled([&](const Vec3& p) { return (p - ball.a).norm() <= ball.radius; },
                        ball.a - Vec3::Constant(0.07), ball.a + Vec3::Constant(0.07), rho, 80),
                1e-2);
    // what the instruction list draws is the shape
    QCOMPARE(shapeAppearance(cyl)[0].get<std::string>(), std::string("cyl"));
    QCOMPARE(shapeAppearance(cyl)[2].get<double>(), 0.04);
    QCOMPARE(shapeAppearance(box)[1][0][0].get<double>(), 0.1 - 0.15);
    for (const Shape& s : {box, cyl, ball}) validateInertia(shapeInertia(s, rho));
    cyl.radius = 0;
    QVERIFY_THROWS_EXCEPTION(EditError, shapeInertia(cyl, rho));
    QVERIFY_THROWS_EXCEPTION(EditError, shapeInertia(ball, -1));
  }

  void validateInertiaRefusesImpossibleBodies() {
    InertiaSpec ok = InertiaSpec::fromMassComInertia(2, Vec3(0.1, 0, 0), Vec3(1, 2, 2.5).asDiagonal() * 0.01);
    validateInertia(ok);
    validateInertia(InertiaSpec::fromMatrix(ok.spatial()));  // the same body as a raw matrix
    auto refused = [](const InertiaSpec& in, const char* why) {
      try {
        validateInertia(in);
      } catch (const EditError& e) {
        return QString(e.what()).contains(why);
      }
      return false;
    };
    InertiaSpec bad = ok;
    bad.mass = 0;
    QVERIFY(refused(bad, "mass"));
    bad = ok;
    bad.aboutCom = Vec3(1, 1, 2.5).asDiagonal() * 0.01;  // 2.5 > 1 + 1
    QVERIFY(refused(bad, "triangle inequality"));
    QVERIFY(refused(InertiaSpec::fromMatrix(bad.spatial()), "triangle inequality"));
    bad.aboutCom = Vec3(1, 1, -0.5).asDiagonal() * 0.01;
    QVERIFY(refused(bad, "positive definite"));
    bad = ok;
    bad.aboutCom(0, 1) = 0.001;  // not symmetric
    QVERIFY(refused(bad, "symmetric"));
    // a rotated valid tensor with products of inertia stays valid
    const Mat3 R = Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()).toRotationMatrix();
    bad = ok;
    bad.aboutCom = R * ok.aboutCom * R.transpose();
    validateInertia(bad);
  }

  void makeLinkTurnsAboutTheGivenAxisThroughThePoint() {
    ModelSpec s = sample();
    const Vec3 point(0.1, 0.05, 0.02), axis(0.3, -1.0, 0.4);  // in body 'b' coordinates
    for (JointType type : {JointType::Rx, JointType::Ry, JointType::Rz}) {
      ModelSpec m = s;
      LinkOptions o;
      o.joint = type;
      o.length = 0.4;
      const BodySpec link = makeLink(m, 1, point, axis, o);
      QCOMPARE(link.name, std::string("link1"));
      const Mat3 R = link.rotation.transpose();
      QVERIFY((R.transpose() * R - Mat3::Identity()).norm() < 1e-12);
      QVERIFY(std::abs(R.determinant() - 1) < 1e-12);
      const int added = addBody(m, link);
      const Model model = compile(m);
      Data data(model);
      // the link's far end (the drawn cylinder's second point) turns about the axis through the point
      const auto cylEnd = [&](const nlohmann::json& look) {
        return Vec3(look[1][1][0].get<double>(), look[1][1][1].get<double>(), look[1][1][2].get<double>());
      };
      const Vec3 tipBody = cylEnd(link.appearance);
      QVERIFY(std::abs(tipBody.norm() - 0.4) < 1e-12);
      std::vector<Vec3> tips;  // in body 'b' coordinates
      for (double q : {0.0, 0.8, 2.0}) {
        Eigen::VectorXd qv = Eigen::VectorXd::Zero(model.nq());
        qv(model.qIndex[added]) = q;
        forwardKinematics(model, data, qv);
        const BodyPose pb = bodyPose(model, data, 1), pl = bodyPose(model, data, added);
        tips.push_back(pb.rotation.transpose() * (pl.rotation * tipBody + pl.position - pb.position));
      }
      const Vec3 n = axis.normalized();
      for (const Vec3& t : tips) {
        QVERIFY(std::abs((t - point).dot(n)) < 1e-12);              // in the plane through the point
        QVERIFY(std::abs((t - point).norm() - 0.4) < 1e-12);        // at the link's length
      }
      QVERIFY((tips[1] - tips[0]).norm() > 0.1);  // and it moves
      QVERIFY(std::abs(link.inertia.mass - 1000 * M_PI * 0.02 * 0.02 * 0.4) < 1e-12);
    }
    LinkOptions o;
    QVERIFY_THROWS_EXCEPTION(EditError, makeLink(s, 1, point, Vec3::Zero(), o));
    QVERIFY_THROWS_EXCEPTION(EditError, makeLink(s, 7, point, axis, o));
    o.length = 0;
    QVERIFY_THROWS_EXCEPTION(EditError, makeLink(s, 1, point, axis, o));
  }

  void makeLinkInPlanarModelsUsesPlanarJoints() {
    ModelSpec s;
    s.arithmetic = Arithmetic::Planar;
    LinkOptions o;
    o.shape = Shape::Kind::Sphere;
    BodySpec link = makeLink(s, -1, Vec3(0.2, 0.1, 0.5), Vec3::UnitZ(), o);
    QVERIFY(link.joint.type == JointType::PlanarR);
    QCOMPARE(link.translation.z(), 0.0);
    QCOMPARE(link.appearance[0].get<std::string>(), std::string("cyl"));    // the rod
    QCOMPARE(link.appearance[3].get<std::string>(), std::string("sphere"));  // the ball
    addBody(s, link);
    o.joint = JointType::Px;
    link = makeLink(s, 0, Vec3(0.3, 0, 0), Vec3::UnitZ(), o);
    QCOMPARE(link.name, std::string("link2"));
    QVERIFY(link.joint.type == JointType::PlanarPx);
    addBody(s, link);
    compile(s);
  }
};

ARTICULATE_TEST_MAIN(TestModelEdit)
#include "test_model_edit.moc"
