// URDF import and export (urdf.h, urdfdom): export then import gives the same dynamics to
// round-off; a hand-written URDF's dynamics agree with an independent textbook computation of
// the same mechanism (geometric Jacobians of URDF's forward kinematics); refusals name the body
// or joint and the reason; notes list what was left out.
#include <QtTest>

#include "test_main.h"

#include <algorithm>
#include <fstream>
#include <random>
#include <sstream>

#include "articulate/model/appearance.h"
#include "articulate/dynamics/configuration.h"
#include "articulate/dynamics/collision.h"
#include "articulate/dynamics/dynamics.h"
#include "articulate/formulations/generators.h"
#include "articulate/model/model.h"
#include "articulate/formats/document.h"
#include "articulate/formats/files.h"
#include "articulate/formats/urdf.h"
#include "articulate/formulations/tree_simulation.h"
#include "engine/test_util.h"

using namespace art;

namespace {

const std::string kFixture = ARTICULATE_TEST_DATA_DIR "/urdf/arm_fixture.urdf";

ModelSpec model(const std::string& file) { return loadModel(ARTICULATE_MODELS_DIR "/" + file).spec; }

// max relative difference of H(q) and ID(q, qd, qdd) of two models at random states, with
// b's joints permuted to a's order by body name (both have one variable per joint)
double dynamicsDifference(const ModelSpec& a, const ModelSpec& b, std::uint32_t seed) {
  const Model ma = compile(a), mb = compile(b);
  const int n = ma.nv();
  if (ma.nq() != n) {  // free joints: the same bodies in the same order, compared directly
    if (mb.nq() != ma.nq() || mb.nv() != n || a.bodies.size() != b.bodies.size()) return 1e300;
    for (std::size_t i = 0; i < a.bodies.size(); ++i)
      if (a.bodies[i].name != b.bodies[i].name) return 1e300;
    Data da(ma), db(mb);
    std::mt19937 rng(seed);
    double worst = 0;
    for (int trial = 0; trial < 5; ++trial) {
      Eigen::VectorXd q = testutil::randomVector(ma.nq(), rng);
      normalizeConfiguration(ma, q);
      const Eigen::VectorXd qd = testutil::randomVector(n, rng), qdd = testutil::randomVector(n, rng);
      const Eigen::MatrixXd Ha = crba(ma, da, q);
      const Eigen::VectorXd ta = rnea(ma, da, q, qd, qdd);
      worst = std::max({worst, testutil::relErr(crba(mb, db, q), Ha), testutil::relErr(rnea(mb, db, q, qd, qdd), ta)});
    }
    return worst;
  }
  if (mb.nv() != n || mb.nq() != n) return 1e300;
  std::vector<int> perm(n);  // b's index of a's joint i
  for (int i = 0; i < n; ++i) perm[i] = b.findBody(a.bodies[i].name);
  Eigen::PermutationMatrix<Eigen::Dynamic> P(n);
  for (int i = 0; i < n; ++i) {
    if (perm[i] < 0) return 1e300;
    P.indices()(i) = perm[i];
  }
  Data da(ma), db(mb);
  std::mt19937 rng(seed);
  double worst = 0;
  for (int trial = 0; trial < 5; ++trial) {
    const Eigen::VectorXd q = testutil::randomVector(n, rng), qd = testutil::randomVector(n, rng),
                          qdd = testutil::randomVector(n, rng);
    // x_b = P x_a puts a's entry i at b's position perm[i]
    const Eigen::VectorXd qb = P * q, qdb = P * qd, qddb = P * qdd;
    const Eigen::MatrixXd Ha = crba(ma, da, q);
    const Eigen::MatrixXd Hb = P.transpose() * crba(mb, db, qb) * P;
    const Eigen::VectorXd ta = rnea(ma, da, q, qd, qdd);
    const Eigen::VectorXd tb = P.transpose() * rnea(mb, db, qb, qdb, qddb);
    worst = std::max({worst, testutil::relErr(Hb, Ha), testutil::relErr(tb, ta)});
  }
  return worst;
}

// written and read back, floating again when it floated (a robot without legs otherwise reads
// back fixed: the automatic base)
ModelSpec roundTrip(const ModelSpec& spec, std::vector<std::string>* importNotes = nullptr) {
  const bool floating = !spec.bodies.empty() && spec.bodies[0].joint.type == JointType::Free;
  UrdfImport report;
  ModelSpec back = specFromUrdf(specToUrdf(spec).xml, "(round trip)", &report, floating ? UrdfBase::Floating : UrdfBase::Auto);
  if (importNotes) importNotes->insert(importNotes->end(), report.notes.begin(), report.notes.end());
  return back;
}

// The fixture, transcribed by hand into URDF's own terms: a link's frame is its parent's frame
// times the joint origin times the joint motion (rotation about or translation along the
// axis, in the joint frame).
struct RefLink {
  std::string name;
  int parent = -1;       // index into the list, -1 = root (fixed)
  enum Type { Fixed, Revolute, Prismatic } type = Fixed;
  Vec3 xyz = Vec3::Zero(), rpy = Vec3::Zero(), axis = Vec3::UnitZ();
  double m = 0;
  Vec3 com = Vec3::Zero(), comRpy = Vec3::Zero();
  Mat3 I = Mat3::Zero();  // about the COM in the inertial frame
  int q = -1;             // joint variable, -1 for fixed joints
};

Mat3 rpy(const Vec3& a) {
  return (Eigen::AngleAxisd(a(2), Vec3::UnitZ()) * Eigen::AngleAxisd(a(1), Vec3::UnitY()) *
          Eigen::AngleAxisd(a(0), Vec3::UnitX()))
      .toRotationMatrix();
}

Mat3 inertia(double xx, double xy, double xz, double yy, double yz, double zz) {
  Mat3 I;
  I << xx, xy, xz, xy, yy, yz, xz, yz, zz;
  return I;
}

std::vector<RefLink> fixtureByHand() {
  std::vector<RefLink> L(5);
  L[0] = {"shoulder", -1, RefLink::Revolute, {0, 0, 0.1}, {0, 0, 0}, {0, 0, 1},
          2, {0, 0.01, 0.2}, {0, 0, 0}, inertia(0.03, 0.001, 0, 0.028, 0.002, 0.004), 0};
  L[1] = {"upper_arm", 0, RefLink::Revolute, {0, 0, 0.4}, {1.5707963267948966, 0, 0.25}, {0, -1, 0},
          1.5, {0.15, 0.01, -0.02}, {0.2, -0.1, 0.3}, inertia(0.002, 0, 0, 0.012, 0, 0.013), 1};
  L[2] = {"tool", 1, RefLink::Fixed, {0.3, 0, 0}, {0, 0.5, 0}, {0, 0, 1},
          0.5, {0.02, 0, 0.01}, {0, 0, 0}, inertia(0.0002, 0, 0, 0.0003, 0, 0.0004), -1};
  L[3] = {"slider", 2, RefLink::Prismatic, {0.05, 0.02, 0}, {0, 0, 0.7}, {0.6, 0, 0.8},
          0.8, {0, 0, 0.05}, {0, 0, 0}, inertia(0.001, 0, 0, 0.001, 0, 0.0005), 2};
  L[4] = {"finger", 3, RefLink::Revolute, {0, 0, 0.1}, {0, 0, 0}, {-1, 0, 0},
          0.1, {0.03, 0, 0}, {0, 0, 0}, inertia(0.00001, 0, 0, 0.00004, 0, 0.00004), 3};
  return L;
}

// H(q) = sum over links of m Jv' Jv + Jw' I_world Jw with the geometric Jacobians of each
// link's centre of mass, and the gravity forces G(q) = sum m Jv' [0 0 9.81] (the joint forces
// that hold the mechanism still)
void textbookDynamics(const std::vector<RefLink>& L, const Eigen::VectorXd& q, Eigen::MatrixXd& H,
                      Eigen::VectorXd& G) {
  const int n = static_cast<int>(q.size());
  const std::size_t nl = L.size();
  std::vector<Mat3> R(nl);
  std::vector<Vec3> p(nl), axisW(nl), jointW(nl);
  H.setZero(n, n);
  G.setZero(n);
  for (std::size_t i = 0; i < nl; ++i) {
    const Mat3 Rp = L[i].parent < 0 ? Mat3::Identity() : R[L[i].parent];
    const Vec3 pp = L[i].parent < 0 ? Vec3::Zero() : p[L[i].parent];
    const Mat3 Rj = Rp * rpy(L[i].rpy);
    jointW[i] = Rp * L[i].xyz + pp;
    const Vec3 a = L[i].axis.normalized();
    axisW[i] = Rj * a;
    R[i] = Rj;
    p[i] = jointW[i];
    if (L[i].type == RefLink::Revolute) R[i] = Rj * Eigen::AngleAxisd(q(L[i].q), a).toRotationMatrix();
    if (L[i].type == RefLink::Prismatic) p[i] += axisW[i] * q(L[i].q);
    const Vec3 c = R[i] * L[i].com + p[i];
    const Mat3 Ri = R[i] * rpy(L[i].comRpy);
    const Mat3 Iw = Ri * L[i].I * Ri.transpose();
    Eigen::MatrixXd Jv = Eigen::MatrixXd::Zero(3, n), Jw = Eigen::MatrixXd::Zero(3, n);
    for (int k = static_cast<int>(i); k >= 0; k = L[k].parent) {
      if (L[k].type == RefLink::Revolute) {
        Jw.col(L[k].q) = axisW[k];
        const Vec3 r = c - jointW[k], v = axisW[k].cross(r);
        for (int d = 0; d < 3; ++d) Jv(d, L[k].q) = v(d);  // (a column assignment trips GCC 12's -Warray-bounds)
      } else if (L[k].type == RefLink::Prismatic) {
        Jv.col(L[k].q) = axisW[k];
      }
    }
    H += L[i].m * Jv.transpose() * Jv + Jw.transpose() * Iw * Jw;
    G += L[i].m * Jv.transpose() * Vec3(0, 0, 9.81);
  }
}

}  // namespace

class TestUrdf : public QObject {
  Q_OBJECT
 private slots:
  // ModelSpec -> URDF -> ModelSpec: same bodies, placements and dynamics for every example
  // model that URDF can hold, and for random trees on all six joint types with general
  // placements (raw spatial inertias included)
  void roundTripKeepsDynamics_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("seed");
    for (const char* f : {"arm6.json", "cart_pole.json", "furuta_pendulum.json", "spinning_top.json",
                          "autotree_chain7.json", "autotree_tree15.json", "floatbase_tree.json"})
      QTest::newRow(f) << QString(f) << 0;
    for (int seed : {1, 2, 3}) QTest::newRow(qPrintable("random " + QString::number(seed))) << QString() << seed;
  }
  void roundTripKeepsDynamics() {
    QFETCH(QString, file);
    QFETCH(int, seed);
    ModelSpec spec = file.isEmpty()
                         ? randomTree(14, static_cast<std::uint32_t>(seed),
                                      {JointType::Rx, JointType::Ry, JointType::Rz, JointType::Px,
                                       JointType::Py, JointType::Pz})
                         : model(file.toStdString());
    spec.gravity = Vec3(0, 0, -9.81);  // URDF stores none; its readers assume this one
    if (seed == 2)  // raw 6x6 inertias are written as mass, centre of mass and inertia
      for (BodySpec& b : spec.bodies) b.inertia = InertiaSpec::fromMatrix(b.inertia.spatial());
    const ModelSpec back = roundTrip(spec);
    QCOMPARE(back.bodies.size(), spec.bodies.size());
    for (std::size_t i = 0; i < spec.bodies.size(); ++i) {
      const BodySpec &a = spec.bodies[i], &b = back.bodies[i];
      QCOMPARE(b.name, a.name);
      QCOMPARE(b.parent, a.parent);
      QCOMPARE(std::string(jointCode(b.joint.type)), std::string(jointCode(a.joint.type)));
      QVERIFY2((b.translation - a.translation).norm() <= 1e-15 * (1 + a.translation.norm()), a.name.c_str());
      QVERIFY2((b.rotation - a.rotation).norm() <= 1e-14,
               qPrintable(QString::fromStdString(a.name) + " " + QString::number((b.rotation - a.rotation).norm())));
      QVERIFY2((b.inertia.spatial() - a.inertia.spatial()).norm() <= 1e-13 * (1 + a.inertia.spatial().norm()),
               a.name.c_str());
    }
    const double err = dynamicsDifference(spec, back, 7);
    QVERIFY2(err <= 1e-10, qPrintable(QString::number(err)));
  }

  // joint frames near pitch +-90 degrees, where urdfdom's own rpy (getRPY) snaps roll to 0
  // within 0.26 degrees (an error of about 1e-4 at pitch 90 - 0.006 degrees), come back to
  // round-off (a few units in the last place of the nine entries)
  void rotationsNearGimbalLock() {
    for (double pitch : {M_PI / 2, M_PI / 2 - 1e-4, -M_PI / 2 + 1e-7, -M_PI / 2, 1.2, -3.0}) {
      ModelSpec spec;
      BodySpec b;
      b.name = "b";
      b.inertia = InertiaSpec::fromMassComInertia(1, Vec3(0.1, 0.2, 0.3), Mat3::Identity());
      b.rotation = rpy({0.7, pitch, -0.4}).transpose();
      spec.bodies.push_back(b);
      const double err = (roundTrip(spec).bodies[0].rotation - b.rotation).norm();
      QVERIFY2(err <= 4e-15, qPrintable(QString("pitch %1: %2").arg(pitch).arg(err)));
    }
  }

  // a perturbed model fails the same comparison: the check can fail
  void dynamicsComparisonDetectsAChange() {
    const ModelSpec spec = model("arm6.json");
    ModelSpec back = roundTrip(spec);
    back.bodies[2].translation.x() += 1e-6;
    QVERIFY(dynamicsDifference(spec, back, 7) > 1e-8);
  }

  // the hand-written fixture against the textbook computation: axes along +z, -y and a general
  // direction, a rotated inertial frame, a fixed joint, a prismatic joint
  void fixtureMatchesTextbookDynamics() {
    std::vector<std::string> notes;
    const ModelSpec spec = loadUrdf(kFixture, &notes);
    QCOMPARE(spec.name, std::string("arm_fixture"));
    const std::vector<RefLink> ref = fixtureByHand();
    std::vector<int> body;  // imported body of each joint variable
    for (const RefLink& l : ref)
      if (l.q >= 0) body.push_back(spec.findBody(l.name));
    QCOMPARE(spec.bodies.size(), std::size_t{4});  // the tool merged into the upper arm
    QCOMPARE(spec.findBody("tool"), -1);
    for (int b : body) QVERIFY(b >= 0);
    const Model m = compile(spec);
    Data d(m);
    std::mt19937 rng(3);
    for (int trial = 0; trial < 5; ++trial) {
      const Eigen::VectorXd q = testutil::randomVector(4, rng), qdd = testutil::randomVector(4, rng);
      Eigen::VectorXd qm(4), qddm(4);
      for (int k = 0; k < 4; ++k) {
        qm(body[k]) = q(k);
        qddm(body[k]) = qdd(k);
      }
      Eigen::MatrixXd Href;
      Eigen::VectorXd Gref;
      textbookDynamics(ref, q, Href, Gref);
      const Eigen::MatrixXd Hm = crba(m, d, qm);
      const Eigen::VectorXd tau = rnea(m, d, qm, Eigen::VectorXd::Zero(4), qddm);
      Eigen::MatrixXd H(4, 4);
      Eigen::VectorXd t(4);
      for (int i = 0; i < 4; ++i) {
        t(i) = tau(body[i]);
        for (int j = 0; j < 4; ++j) H(i, j) = Hm(body[i], body[j]);
      }
      QVERIFY2(testutil::relErr(H, Href) <= 1e-12, qPrintable(QString::number(testutil::relErr(H, Href))));
      const Eigen::VectorXd tref = Href * qdd + Gref;
      QVERIFY2(testutil::relErr(t, tref) <= 1e-12, qPrintable(QString::number(testutil::relErr(t, tref))));
    }
    // the mimic joint is a coupling constraint on the joint variables as URDF numbers them
    QCOMPARE(spec.constraints.size(), std::size_t{1});
    const ConstraintSpec& c = spec.constraints[0];
    QVERIFY(c.type == ConstraintSpec::Type::Coupling);
    QCOMPARE(c.joint, spec.findBody("finger"));
    QCOMPARE(c.master, spec.findBody("shoulder"));
    QCOMPARE(c.ratio, -0.5);
    QCOMPARE(c.offset, 0.1);
    // what was not used
    const auto noted = [&](const char* text) {
      return std::any_of(notes.begin(), notes.end(), [&](const std::string& n) { return n.find(text) != std::string::npos; });
    };
    QVERIFY(noted("root link 'world'"));
    QVERIFY(noted("1 fixed joint(s) merged"));
    // the fixture has a <mimic>: it couples its two joints and leaves every joint's limits
    // (issue 32: a mimic once switched off all of them, with a note)
    QVERIFY(!noted("not used: the robot has <mimic> joints"));
    const BodySpec& upper = spec.bodies[static_cast<std::size_t>(spec.findBody("upper_arm"))];
    QCOMPARE(upper.limits.lower.value_or(0), -2.0);
    QCOMPARE(upper.limits.upper.value_or(0), 2.0);
    const BodySpec& slider = spec.bodies[static_cast<std::size_t>(spec.findBody("slider"))];
    QCOMPARE(slider.limits.lower.value_or(0), -0.1);
    QCOMPARE(slider.limits.upper.value_or(0), 0.1);
    QVERIFY(compile(spec).stops);
    QCOMPARE(upper.limits.effort.value_or(0), 50.0);
    QCOMPARE(upper.limits.velocity.value_or(0), 3.0);
    for (const BodySpec& b : spec.bodies) QCOMPARE(b.damping, b.name == "upper_arm" ? 0.1 : 0.0);
  }

  // visuals become drawing instructions in body coordinates: the cylinder keeps its colour,
  // the turned box of the slider becomes a closed triangle mesh, the base gets the root's box
  void fixtureVisuals() {
    const ModelSpec spec = loadUrdf(kFixture);
    Diagnostics problems;
    const auto base = interpretAppearance(spec.baseAppearance, defaultBodyColour(0), true, "base", &problems);
    QCOMPARE(base.size(), std::size_t{1});
    QVERIFY(base[0].kind == Primitive::Kind::Box);
    QVERIFY((base[0].points[0] - Vec3(-0.5, -0.5, -0.1)).norm() < 1e-15);
    const auto shoulder = interpretAppearance(spec.bodies[spec.findBody("shoulder")].appearance,
                                              defaultBodyColour(1), false, "shoulder", &problems);
    QCOMPARE(shoulder.size(), std::size_t{1});
    QVERIFY(shoulder[0].kind == Primitive::Kind::Cylinder);
    QVERIFY((shoulder[0].colour - Vec3(0.6, 0.6, 0.65)).norm() < 1e-7);  // URDF colours are floats
    QVERIFY((shoulder[0].points[1] - Vec3(0, 0, 0.4)).norm() < 1e-15);
    // the upper arm: its box (axis -y: the body frame is turned, the box stays a box) and the
    // merged tool's sphere at the tool's origin
    const BodySpec& arm = spec.bodies[spec.findBody("upper_arm")];
    const auto armShapes = interpretAppearance(arm.appearance, defaultBodyColour(2), false, "arm", &problems);
    QCOMPARE(armShapes.size(), std::size_t{2});
    QVERIFY(armShapes[0].kind == Primitive::Kind::Box);
    QVERIFY(armShapes[1].kind == Primitive::Kind::Sphere);
    const Mat3 A = arm.rotation * rpy({1.5707963267948966, 0, 0.25});  // x_body = A x_link
    QVERIFY((armShapes[1].points[0] - A * Vec3(0.3, 0, 0)).norm() < 1e-14);
    const auto slider = interpretAppearance(spec.bodies[spec.findBody("slider")].appearance,
                                            defaultBodyColour(3), false, "slider", &problems);
    QCOMPARE(slider.size(), std::size_t{1});
    QVERIFY(slider[0].kind == Primitive::Kind::Triangles);
    QCOMPARE(slider[0].triangles.size(), std::size_t{12});
    // closed and outward: the signed volume of the mesh is the box's volume
    double volume = 0;
    for (const auto& t : slider[0].triangles)
      volume += slider[0].points[t[0]].dot(slider[0].points[t[1]].cross(slider[0].points[t[2]])) / 6;
    QVERIFY2(std::abs(volume - 0.04 * 0.04 * 0.1) < 1e-15, qPrintable(QString::number(volume)));
    QVERIFY2(problems.empty(), problems.empty() ? "" : problems[0].text().c_str());
  }

  // export: boxes, cylinders and spheres of every body and the base go out and come back
  void visualsRoundTrip() {
    const ModelSpec spec = model("arm6.json");
    const ModelSpec back = roundTrip(spec);
    for (std::size_t i = 0; i < spec.bodies.size(); ++i) {
      const auto a = interpretAppearance(spec.bodies[i].appearance, defaultBodyColour(int(i) + 1), false, "", nullptr);
      const auto b = interpretAppearance(back.bodies[i].appearance, defaultBodyColour(int(i) + 1), false, "", nullptr);
      std::vector<Primitive> solids;
      for (const Primitive& p : a)
        if (p.kind == Primitive::Kind::Box || p.kind == Primitive::Kind::Cylinder || p.kind == Primitive::Kind::Sphere)
          solids.push_back(p);
      QCOMPARE(b.size(), solids.size());
      for (std::size_t k = 0; k < b.size(); ++k) {
        QVERIFY(b[k].kind == solids[k].kind);
        QVERIFY((b[k].colour - solids[k].colour).norm() < 1e-7);
        QCOMPARE(b[k].radius, solids[k].radius);
        for (std::size_t j = 0; j < b[k].points.size(); ++j) {
          Vec3 expect = solids[k].points[j];
          if (b[k].kind == Primitive::Kind::Box)  // corners come back as min and max
            expect = j == 0 ? Vec3(solids[k].points[0].cwiseMin(solids[k].points[1]))
                            : Vec3(solids[k].points[0].cwiseMax(solids[k].points[1]));
          QVERIFY2((b[k].points[j] - expect).norm() < 1e-14, spec.bodies[i].name.c_str());
        }
      }
    }
  }

  // coupling constraints go out as <mimic> and come back
  void couplingRoundTrip() {
    ModelSpec spec = randomTree(5, 9, {JointType::Rz, JointType::Px});
    ConstraintSpec c;
    c.joint = 3;
    c.master = 1;
    c.ratio = -0.37;
    c.offset = 0.25;
    spec.constraints.push_back(c);
    const ModelSpec back = roundTrip(spec);
    QCOMPARE(back.constraints.size(), std::size_t{1});
    QCOMPARE(back.constraints[0].joint, 3);
    QCOMPARE(back.constraints[0].master, 1);
    QCOMPARE(back.constraints[0].ratio, -0.37);
    QCOMPARE(back.constraints[0].offset, 0.25);
  }

  // names are XML attribute values: quotes, ampersands, angle brackets and UTF-8 come back
  void namesWithXmlCharacters() {
    ModelSpec spec = randomTree(2, 5, {JointType::Rx});
    spec.name = "model -- <\"1\"> & more";
    spec.bodies[0].name = "a&b \"c\" <d>";
    spec.bodies[1].name = "\u00e9l\u00e9ment";
    const ModelSpec back = roundTrip(spec);
    QCOMPARE(back.name, spec.name);
    QCOMPARE(back.bodies[0].name, spec.bodies[0].name);
    QCOMPARE(back.bodies[1].name, spec.bodies[1].name);
  }

  // what URDF cannot hold is refused, naming the body or constraint and the reason
  void refusals_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("message");
    QTest::newRow("helical") << "helical_screw.json" << "its helical joint (H) has no URDF form";
    QTest::newRow("placed free joint") << "floatbase_tree.json" << "the placement of its free joint has no URDF form";
    QTest::newRow("planar") << "double_pendulum.json" << "planar models (arithmetic \"planar\") have no URDF form";
    QTest::newRow("loop") << "" << "constraint 'closure': loop closures have no URDF form";
  }
  void refusals() {
    QFETCH(QString, file);
    QFETCH(QString, message);
    ModelSpec spec;
    if (file.isEmpty()) {
      spec = randomTree(3, 4, {JointType::Rz});
      ConstraintSpec loop;
      loop.type = ConstraintSpec::Type::Loop;
      loop.name = "closure";
      loop.bodyA = 2;
      spec.constraints.push_back(loop);
    } else {
      spec = model(file.toStdString());
      if (file == "floatbase_tree.json") spec.bodies[0].translation = Vec3(0, 0, 1);  // its root floats from a placed frame
    }
    try {
      specToUrdf(spec);
      QFAIL("no error");
    } catch (const UrdfError& e) {
      QVERIFY2(QString(e.what()).contains(message), e.what());
      if (file == "helical_screw.json")
        QVERIFY2(QString(e.what()).startsWith("body '" + QString::fromStdString(spec.bodies[0].name) + "'"), e.what());
    }
  }

  void importRefusals_data() {
    QTest::addColumn<QString>("xml");
    QTest::addColumn<QString>("message");
    const QString head = "<robot name='r'><link name='a'/><link name='b'>"
                         "<inertial><mass value='1'/><inertia ixx='1' ixy='0' ixz='0' iyy='1' iyz='0' izz='1'/></inertial>"
                         "</link><joint name='j' type='";
    QTest::newRow("floating") << head + "floating'><parent link='a'/><child link='b'/></joint></robot>"
                              << "joint 'j' (to link 'b'): 'floating' joints are not supported";
    QTest::newRow("planar") << head + "planar'><parent link='a'/><child link='b'/><axis xyz='0 0 1'/></joint></robot>"
                            << "joint 'j' (to link 'b'): 'planar' joints are not supported";
    QTest::newRow("xml") << "<robot name='r'><link name='a'>" << "not a valid URDF document";
    QTest::newRow("loop") << "<robot name='r'><link name='a'/><link name='b'/><link name='c'/>"
                             "<joint name='j1' type='fixed'><parent link='a'/><child link='b'/></joint>"
                             "<joint name='j2' type='fixed'><parent link='b'/><child link='c'/></joint>"
                             "<joint name='j3' type='fixed'><parent link='c'/><child link='b'/></joint></robot>"
                          << "link 'b' is the child of joints 'j1' and 'j3': a URDF is a tree";
    QTest::newRow("cycle") << "<robot name='r'><link name='a'/><link name='b'/><link name='c'/>"
                              "<joint name='j1' type='fixed'><parent link='b'/><child link='c'/></joint>"
                              "<joint name='j2' type='fixed'><parent link='c'/><child link='b'/></joint></robot>"
                           << "joints 'j2', 'j1' form a loop through link 'b': a URDF is a tree";
    QTest::newRow("two roots") << "<robot name='r'><link name='a'/><link name='b'/></robot>"
                               << "not a valid URDF document: ";
    QTest::newRow("zero axis") << head + "continuous'><parent link='a'/><child link='b'/><axis xyz='0 0 0'/></joint></robot>"
                               << "joint 'j' (to link 'b'): axis must be a nonzero vector";
    QTest::newRow("negative mass")
        << "<robot name='r'><link name='a'/><link name='b'><inertial><mass value='-1'/>"
           "<inertia ixx='1' ixy='0' ixz='0' iyy='1' iyz='0' izz='1'/></inertial></link>"
           "<joint name='j' type='continuous'><parent link='a'/><child link='b'/></joint></robot>"
        << "link 'b': inertial mass must be >= 0, got -1";
    QTest::newRow("triangle inequality")
        << "<robot name='r'><link name='a'/><link name='b'><inertial><mass value='1'/>"
           "<inertia ixx='1' ixy='0' ixz='0' iyy='1' iyz='0' izz='3'/></inertial></link>"
           "<joint name='j' type='continuous'><parent link='a'/><child link='b'/></joint></robot>"
        << "link 'b': inertia";
    QTest::newRow("box")
        << "<robot name='r'><link name='a'><visual><geometry><box size='1 0 1'/></geometry></visual></link></robot>"
        << "link 'a': visual box size must be positive";
    // fuzz_urdf: a box whose faces round to one plane so far out (it could not be saved and read)
    QTest::newRow("far box")
        << "<robot name='r'><link name='a'><visual><origin xyz='666666666666660 0 0.1'/>"
           "<geometry><box size='0.1 0.2 0.3'/></geometry></visual></link></robot>"
        << "link 'a': visual box of size";
    QTest::newRow("far cylinder")
        << "<robot name='r'><link name='a'><visual><origin xyz='0 0 1e17'/>"
           "<geometry><cylinder radius='0.1' length='0.4'/></geometry></visual></link></robot>"
        << "link 'a': visual cylinder of length";
    // fuzz_urdf: finite numbers whose spatial inertia (m c^2) or joint-space inertia
    // (m r^2 through a far joint origin) overflows; the exported URDF then had other dynamics
    QTest::newRow("far centre of mass")
        << "<robot name='r'><link name='a'/><link name='b'><inertial><origin xyz='0 1e308 0.1'/><mass value='1'/>"
           "<inertia ixx='1' ixy='0' ixz='0' iyy='1' iyz='0' izz='1'/></inertial></link>"
           "<joint name='j' type='continuous'><parent link='a'/><child link='b'/></joint></robot>"
        << "link 'b': inertia.com: is so far from the body frame that the spatial inertia";
    QTest::newRow("far joint origin")
        << "<robot name='r'><link name='a'/><link name='b'/><link name='c'><inertial><mass value='1'/>"
           "<inertia ixx='1' ixy='0' ixz='0' iyy='1' iyz='0' izz='1'/></inertial></link>"
           "<joint name='j' type='continuous'><parent link='a'/><child link='b'/></joint>"
           "<joint name='k' type='continuous'><parent link='b'/><child link='c'/><origin xyz='1e200 0 0'/></joint></robot>"
        << "the joint-space inertia at the initial state is not finite";
  }
  // issue 31: a numeric attribute that is not a finite number (a typo such as "1.O", "nan",
  // "inf", "") is an error naming the link or joint, the element and the attribute; urdfdom
  // 3.0 read the link's as nothing, and the link was massless or shapeless yet "valid"
  void malformedNumbers_data() {
    QTest::addColumn<QString>("xml");
    QTest::addColumn<QString>("message");
    const auto robot = [](const QString& link, const QString& joint) {
      return "<robot name='r'><link name='world'/><link name='arm'>" + link +
             "</link><joint name='j' type='revolute'><parent link='world'/><child link='arm'/>" + joint +
             "</joint></robot>";
    };
    const QString inertia = "<inertia ixx='1' ixy='0' ixz='0' iyy='1' iyz='0' izz='1'/>";
    const QString limit = "<limit lower='-1' upper='1' effort='1' velocity='1'/>";
    for (const QString& v : {QString("1.O"), QString("nan"), QString("inf"), QString("")}) {
      const QString why = v.isEmpty() ? "empty, expected a number" : v == "1.O" ? "'1.O' is not a number" : "'" + v + "' is not a finite number";
      QTest::newRow(qPrintable("mass " + v)) << robot("<inertial><mass value='" + v + "'/>" + inertia + "</inertial>", limit)
                                             << "link 'arm': <mass value=\"" + v + "\">: " + why;
    }
    QTest::newRow("inertia") << robot("<inertial><mass value='1'/><inertia ixx='nan' ixy='0' ixz='0' iyy='1' iyz='0' izz='1'/></inertial>", limit)
                             << "link 'arm': <inertia ixx=\"nan\">: 'nan' is not a finite number";
    QTest::newRow("inertial origin") << robot("<inertial><origin xyz='0 0 nan'/><mass value='1'/>" + inertia + "</inertial>", limit)
                                     << "link 'arm': <origin xyz=\"0 0 nan\">: 'nan' is not a finite number";
    QTest::newRow("box") << robot("<visual><geometry><box size='1 1 1.O'/></geometry></visual>", limit)
                         << "link 'arm': <box size=\"1 1 1.O\">: '1.O' is not a number";
    QTest::newRow("box count") << robot("<visual><geometry><box size='1 1'/></geometry></visual>", limit)
                               << "link 'arm': <box size=\"1 1\">: expected 3 numbers, got 2";
    QTest::newRow("cylinder") << robot("<visual><geometry><cylinder radius='' length='1'/></geometry></visual>", limit)
                              << "link 'arm': <cylinder radius=\"\">: empty, expected a number";
    QTest::newRow("cylinder length") << robot("<collision><geometry><cylinder radius='1' length='inf'/></geometry></collision>", limit)
                                     << "link 'arm': <cylinder length=\"inf\">: 'inf' is not a finite number";
    QTest::newRow("sphere") << robot("<visual><geometry><sphere radius='NaN'/></geometry></visual>", limit)
                            << "link 'arm': <sphere radius=\"NaN\">: 'NaN' is not a finite number";
    QTest::newRow("mesh scale") << robot("<visual><geometry><mesh filename='a.stl' scale='1 x 1'/></geometry></visual>", limit)
                                << "link 'arm': <mesh scale=\"1 x 1\">: 'x' is not a number";
    QTest::newRow("joint origin") << robot("", "<origin xyz='0 0 1.O'/>" + limit)
                                  << "joint 'j': <origin xyz=\"0 0 1.O\">: '1.O' is not a number";
    QTest::newRow("joint axis") << robot("", "<axis xyz='0 0 inf'/>" + limit)
                                << "joint 'j': <axis xyz=\"0 0 inf\">: 'inf' is not a finite number";
    QTest::newRow("joint limit") << robot("", "<limit lower='-1' upper='nan' effort='1' velocity='1'/>")
                                 << "joint 'j': <limit upper=\"nan\">: 'nan' is not a finite number";
    QTest::newRow("joint dynamics") << robot("", limit + "<dynamics damping='0.1.2'/>")
                                    << "joint 'j': <dynamics damping=\"0.1.2\">: '0.1.2' is not a number";
  }
  // the same check as importRefusals: refused naming the file, with the row's message
  void malformedNumbers() { importRefusals(); }

  // issue 31: names with control characters have no URDF form (a NUL ended in "map::at", \x01
  // was written as &#x01;, which no XML 1.0 reader reads back): export refuses them by name
  void controlCharactersInNames() {
    for (const std::string& name : {std::string("a\0b", 3), std::string("a\x01"), std::string("tab\there")}) {
      ModelSpec spec = randomTree(2, 5, {JointType::Rx});
      spec.bodies[1].name = name;
      try {
        specToUrdf(spec);
        QFAIL("no error");
      } catch (const UrdfError& e) {
        QVERIFY2(QString(e.what()).startsWith("body 'a\\x") || QString(e.what()).startsWith("body 'tab\\x09"), e.what());
        QVERIFY2(QString(e.what()).contains("control character"), e.what());
      }
      try {
        compile(spec);
        QFAIL("no error");
      } catch (const ModelError& e) {
        QCOMPARE(QString::fromStdString(e.field()), QString("name"));
        QCOMPARE(e.bodyIndex(), 1);
      }
    }
  }

  void importRefusals() {
    QFETCH(QString, xml);
    QFETCH(QString, message);
    try {
      specFromUrdf(xml.toStdString(), "test.urdf");
      QFAIL("no error");
    } catch (const FormatError& e) {
      QCOMPARE(QString::fromStdString(e.path()), QString("test.urdf"));
      QVERIFY2(QString(e.what()).contains(message), e.what());
    }
  }

  // TinyXML (urdfdom's parser) builds and frees its element tree recursively: a deeply nested
  // document overflowed the stack (a segmentation fault, not an error). It is refused first,
  // whatever the nested elements are called, while comments, CDATA and quoted '>' do not count
  // as nesting, and a long chain of links (nested by reference, not by markup) still loads.
  void deepNesting() {
    for (const std::string& tag : {std::string("link"), std::string("x")}) {
      std::string xml = "<?xml version='1.0'?><robot name='r'><link name='a'/>";
      const int n = 200000;
      for (int k = 0; k < n; ++k) xml += "<" + tag + ">";
      for (int k = 0; k < n; ++k) xml += "</" + tag + ">";
      xml += "</robot>";
      try {
        specFromUrdf(xml, "deep.urdf");
        QFAIL("no error");
      } catch (const FormatError& e) {
        QVERIFY2(QString(e.what()).contains("is nested deeper than 256 XML elements"), e.what());
      }
    }
    // at the limit: no depth error (the document is simply not a URDF link tree, or it is)
    std::string ok = "<robot name='r'><!-- <a><b><c> --><link name='a'><visual><geometry>"
                     "<box size='1 1 1'/></geometry><material name='m'><color rgba='1 0 0 1'/>"
                     "</material></visual></link><![CDATA[<<<<]]></robot>";
    QCOMPARE(specFromUrdf(ok, "ok.urdf", nullptr, UrdfBase::Fixed).bodies.size(), std::size_t(0));
    std::string chain = "<robot name='chain'><link name='l0'/>";
    const int links = 3000;
    for (int k = 1; k <= links; ++k) {
      chain += "<link name='l" + std::to_string(k) + "'><inertial><mass value='1'/><inertia ixx='0.1' "
               "iyy='0.1' izz='0.1' ixy='0' ixz='0' iyz='0'/></inertial></link>";
      chain += "<joint name='j" + std::to_string(k) + "' type='continuous'><parent link='l" +
               std::to_string(k - 1) + "'/><child link='l" + std::to_string(k) +
               "'/><origin xyz='0 0 0.1' rpy='0 0 0'/><axis xyz='0 1 0'/></joint>";
    }
    chain += "</robot>";
    const ModelSpec spec = specFromUrdf(chain, "chain.urdf", nullptr, UrdfBase::Fixed);
    QCOMPARE(spec.bodies.size(), std::size_t(links));
    QCOMPARE(spec.bodies.back().parent, links - 2);  // 0-based: body k hangs from body k - 1
  }

  // Found by fuzz_urdf: a name that is not UTF-8 (here a lone lead byte 0xD4, read by TinyXML
  // as one Latin-1 character when the XML declaration is broken) loaded, then the URDF export
  // wrote a document urdfdom could not read back, and the Articulate format's save threw
  // (JSON text is UTF-8). Names enter the model only as valid UTF-8; the message names the byte.
  void namesMustBeUtf8() {
    const std::string body = "<link name='a'/><link name='b'><inertial><mass value='1'/><inertia ixx='1' "
                              "iyy='1' izz='1' ixy='0' ixz='0' iyz='0'/></inertial></link><joint name='j' "
                              "type='continuous'><parent link='a'/><child link='b'/></joint>";
    const struct {
      std::string xml, message;
    } rows[] = {
        {"<=xml version='1.0'?><robot name='c\xD4'>" + body + "</robot>",
         "robot 'c\\xD4': the name is not valid UTF-8 text"},
        {"<robot name='r'>" + body + "<link name='\x01x'/><joint name='k' type='fixed'><parent link='b'/>"
         "<child link='\x01x'/></joint></robot>",
         "link '\\x01x': the name is not valid UTF-8 text"},
        {"<robot name='r'>" + body.substr(0, body.find("<joint")) + "<joint name='j\xC0\xAF' type='continuous'>"
         "<parent link='a'/><child link='b'/></joint></robot>",
         "joint 'j\\xC0\\xAF': the name is not valid UTF-8 text"},  // an overlong '/'
    };
    for (const auto& row : rows) {
      try {
        specFromUrdf(row.xml, "names.urdf");
        QFAIL(qPrintable(QString::fromStdString("no error for " + row.message)));
      } catch (const FormatError& e) {
        QVERIFY2(std::string(e.what()).find(row.message) != std::string::npos, e.what());
      }
    }
    // UTF-8 names load and save
    const ModelSpec spec = specFromUrdf("<robot name='Grüße'>" + body + "</robot>", "ok.urdf");
    QCOMPARE(spec.name, std::string("Grüße"));
    QVERIFY(!formatJson(specToJson(spec)).empty());
  }

  // what URDF does not store is listed, not silently lost
  void exportNotes() {
    ModelSpec spec = model("arm6.json");
    spec.gravity = Vec3(0, -9.81, 0);
    for (BodySpec& b : spec.bodies) b.q0 = b.qd0 = 0;
    spec.bodies[1].q0 = 0.3;
    spec.contacts.push_back({2, Vec3(0, 0, 0.1)});
    spec.baseAppearance.push_back("tiles");
    spec.baseAppearance.push_back(nlohmann::json::parse("[[-1, 1], [-1, 1], [0, 0]]"));
    spec.baseAppearance.push_back(0.5);
    const UrdfText t = specToUrdf(spec);
    std::string all;
    for (const std::string& n : t.notes) all += n + "\n";
    QVERIFY2(all.find("gravity [0 -9.81 0] m/s^2 is not stored") != std::string::npos, all.c_str());
    QVERIFY2(all.find("the initial state of 1 joint(s)") != std::string::npos, all.c_str());
    QVERIFY2(all.find("1 ground-contact point(s)") != std::string::npos, all.c_str());
    QVERIFY2(all.find("(lines, triangles, tiles) are not stored") != std::string::npos, all.c_str());
    for (const std::string& n : specToUrdf(model("autotree_chain7.json")).notes)  // default gravity
      QVERIFY2(n.find("gravity") == std::string::npos, n.c_str());
  }

  // the model loaders read .urdf files (format "urdf", with notes), and save writes atomically
  void loadersReadUrdf() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("arm6.URDF").toStdString();
    saveUrdf(path, model("arm6.json"));
    const LoadedModel lm = loadModel(path);
    QCOMPARE(lm.format, std::string("urdf"));
    QVERIFY(dynamicsDifference(model("arm6.json"), lm.spec, 11) <= 1e-10);
    QVERIFY(std::holds_alternative<LoadedModel>(loadDocument(path)));
    // the world root and the merged tool (its <mimic> no longer drops limits)
    QCOMPARE(std::get<LoadedModel>(loadDocument(kFixture)).notes.size(), std::size_t{2});
    try {
      loadModel(dir.filePath("missing.urdf").toStdString());
      QFAIL("no error");
    } catch (const FormatError& e) {
      QVERIFY2(QString(e.what()).contains("missing.urdf: no such file"), e.what());
    }
  }

  // a floating quadruped URDF (written here): torso with a collision box, legs with hip and
  // knee stops and friction, sphere feet. Dropped from 0.13 m it lands on its four feet and
  // stands: after 3 s it is at rest, only the feet touch the ground, with a few millimetres of
  // penetration, and the ground carries its weight
  // a collision mesh touches the ground by its extreme vertices in 14 directions: on a
  // tetrahedron, scaled, those are its 4 corners (each extreme in some direction), once each
  void collisionMeshContactPoints() {
    QTemporaryDir dir;
    {
      std::ofstream obj(dir.filePath("tet.obj").toStdString());
      obj << "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";
    }
    const std::string xml = "<robot name='r'><link name='a'><inertial><mass value='1'/><inertia ixx='0.1' iyy='0.1' izz='0.1' ixy='0' ixz='0' iyz='0'/></inertial>"
                            "<collision><origin xyz='0.5 0 0' rpy='0 0 1.5707963267948966'/><geometry><mesh filename='tet.obj' scale='0.1 0.2 0.3'/></geometry></collision></link></robot>";
    UrdfImport report;
    const ModelSpec spec = specFromUrdf(xml, dir.filePath("r.urdf").toStdString(), &report, UrdfBase::Floating, {}, UrdfContact::Points);
    QCOMPARE(spec.contacts.size(), std::size_t{4});
    // the corners scaled, then turned a quarter about z and moved 0.5 along x
    const std::vector<Vec3> expected = {Vec3(0.5, 0, 0), Vec3(0.5, 0.1, 0), Vec3(0.3, 0, 0), Vec3(0.5, 0, 0.3)};
    for (const Vec3& e : expected) {
      bool found = false;
      for (const ContactPointSpec& c : spec.contacts) found = found || ((c.point - e).norm() < 1e-12 && c.radius == 0 && c.body == 0);
      QVERIFY2(found, qPrintable(QString("no contact at %1 %2 %3").arg(e.x()).arg(e.y()).arg(e.z())));
    }
  }

  // a collision mesh as CAD exports them: a box whose edges carry extra points (collinear to
  // within rounding, as a tessellated fillet leaves them), triangles of no area along those edges and a repeated
  // vertex. ROS, DART and Pinocchio open such files; here too (issue 56): the mesh collides as
  // the convex hull qhull builds from its vertices, whose triangulation of the box's merged
  // faces has triangles of no area of its own, and the model compiles
  void cadCollisionMeshWithDegenerateTrianglesOpens() {
    QTemporaryDir dir;
    {
      std::ofstream obj(dir.filePath("cad.obj").toStdString());
      const Vec3 size(0.2, 0.1, 0.05);
      std::vector<Vec3> v;
      for (int k = 0; k < 8; ++k) v.push_back(Vec3(k & 1 ? size.x() : 0, k & 2 ? size.y() : 0, k & 4 ? size.z() : 0));
      const int quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
      std::ostringstream f;
      for (const auto& q : quads) f << "f " << q[0] + 1 << " " << q[1] + 1 << " " << q[2] + 1 << "\nf " << q[0] + 1 << " " << q[2] + 1 << " " << q[3] + 1 << "\n";
      for (int a = 0; a < 8; ++a)  // ten points along each edge, in triangles of no area
        for (int bit : {1, 2, 4}) {
          if (a & bit) continue;
          const int first = static_cast<int>(v.size());
          for (int i = 1; i < 10; ++i) {  // off the edge by CAD's rounding, 1e-9 m outwards
            const Vec3 p = v[static_cast<std::size_t>(a)] + (v[static_cast<std::size_t>(a | bit)] - v[static_cast<std::size_t>(a)]) * i / 10.0;
            v.push_back(p + 1e-9 * (p - size / 2).normalized());
          }
          for (int i = 0; i + 1 < 9; ++i) f << "f " << a + 1 << " " << first + i + 1 << " " << first + i + 2 << "\n";
        }
      v.push_back(v[0]);  // a repeated vertex
      for (const Vec3& p : v) obj << "v " << p.x() << " " << p.y() << " " << p.z() << "\n";
      obj << f.str();
    }
    const std::string xml = "<robot name='r'><link name='a'><inertial><mass value='1'/><inertia ixx='0.1' iyy='0.1' izz='0.1' ixy='0' ixz='0' iyz='0'/></inertial>"
                            "<visual><geometry><mesh filename='cad.obj'/></geometry></visual>"
                            "<collision><geometry><mesh filename='cad.obj'/></geometry></collision></link></robot>";
    UrdfImport report;
    const ModelSpec spec = specFromUrdf(xml, dir.filePath("r.urdf").toStdString(), &report, UrdfBase::Floating);
    const auto mesh = std::find_if(spec.geoms.begin(), spec.geoms.end(), [](const GeomSpec& g) { return g.type == GeomSpec::Type::Mesh; });
    QVERIFY(mesh != spec.geoms.end());
    // the hull's triangles of no area: what the old check refused ("a triangle of no area")
    int noArea = 0;
    double volume = 0;
    for (const auto& t : mesh->faces) {
      const Vec3 &a = mesh->vertices[static_cast<std::size_t>(t[0])], &b = mesh->vertices[static_cast<std::size_t>(t[1])],
                 &c = mesh->vertices[static_cast<std::size_t>(t[2])];
      noArea += (b - a).cross(c - a).norm() <= 1e-6 * 0.23 * 0.23 ? 1 : 0;
      volume += a.dot(b.cross(c)) / 6;
    }
    qInfo("hull: %zu vertices, %zu triangles, %d of no area, volume %.9g m^3", mesh->vertices.size(), mesh->faces.size(), noArea, volume);
    QVERIFY(noArea > 0);
    QVERIFY(std::abs(volume - 0.2 * 0.1 * 0.05) < 1e-8);
    QVERIFY_THROWS_NO_EXCEPTION(compile(spec));
  }

  // <collision> elements become geoms of their links' bodies (UrdfContact::Geoms, the default):
  // a sphere, a box and a cylinder as they are (half sizes), a mesh as its convex hull placed at
  // the hull's centre along its principal axes, the fixed base's static; names are the
  // element's own or LINK#K; a fixed joint's child link lands on its parent's body; the ground
  // plane is added, and the model is the soft one, stepped by mujoco-euler at 2 ms
  void collisionBecomesGeoms() {
    QTemporaryDir dir;
    {
      std::ofstream obj(dir.filePath("tet.obj").toStdString());
      obj << "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";
      std::ofstream flat(dir.filePath("flat.obj").toStdString());
      flat << "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 3\nf 2 4 3\n";
    }
    const char* inertial = "<inertial><mass value='1'/><inertia ixx='0.01' iyy='0.01' izz='0.01' ixy='0' ixz='0' iyz='0'/></inertial>";
    const std::string xml = std::string("<robot name='r'><link name='base'><collision name='table'><origin xyz='1 0 0.4'/>"
                            "<geometry><box size='0.6 0.4 0.8'/></geometry></collision></link>") +
                            "<link name='arm'>" + inertial + "<collision><origin xyz='0 0 0.25'/><geometry><cylinder radius='0.05' length='0.5'/></geometry></collision>"
                            "<collision><origin xyz='0 0 0.5' rpy='0 0 1.5707963267948966'/><geometry><mesh filename='tet.obj' scale='0.1 0.2 0.3'/></geometry></collision>"
                            "<collision><geometry><mesh filename='flat.obj'/></geometry></collision></link>"
                            "<link name='hand'>" + inertial + "<collision><geometry><sphere radius='0.04'/></geometry></collision></link>"
                            "<joint name='shoulder' type='revolute'><parent link='base'/><child link='arm'/><origin xyz='0 0 1'/><axis xyz='0 1 0'/>"
                            "<limit lower='-2' upper='2' effort='10' velocity='5'/></joint>"
                            "<joint name='wrist' type='fixed'><parent link='arm'/><child link='hand'/><origin xyz='0 0 0.7'/></joint></robot>";
    UrdfImport report;
    const ModelSpec spec = specFromUrdf(xml, dir.filePath("r.urdf").toStdString(), &report);
    std::string said;
    for (const std::string& n : report.notes) said += n + "\n";
    QVERIFY(!report.floating);
    QVERIFY(spec.contacts.empty());
    QCOMPARE(spec.physics.constraints, PhysicsSpec::Constraints::Soft);
    QCOMPARE(spec.simulation.integrator, Integrator::MujocoEuler);
    QCOMPARE(spec.simulation.dt, 0.002);
    QCOMPARE(spec.geoms.size(), std::size_t{5});  // table, cylinder, tetrahedron, sphere, ground
    const GeomSpec& table = spec.geoms[0];
    QCOMPARE(table.name, std::string("table"));
    QCOMPARE(table.body, -1);
    QCOMPARE(table.type, GeomSpec::Type::Box);
    QVERIFY((table.size - Vec3(0.3, 0.2, 0.4)).norm() < 1e-15 && (table.position - Vec3(1, 0, 0.4)).norm() < 1e-15);
    const GeomSpec& cylinder = spec.geoms[1];
    QCOMPARE(cylinder.name, std::string("arm#1"));
    QCOMPARE(cylinder.body, 0);
    QCOMPARE(cylinder.type, GeomSpec::Type::Cylinder);
    QVERIFY((cylinder.size.head<2>() - Eigen::Vector2d(0.05, 0.25)).norm() < 1e-15);
    // the hull in its body: the tetrahedron's corners scaled, turned a quarter about z, 0.5 up
    const GeomSpec& tet = spec.geoms[2];
    QCOMPARE(tet.name, std::string("arm#2"));
    QCOMPARE(tet.type, GeomSpec::Type::Mesh);
    QCOMPARE(tet.vertices.size(), std::size_t{4});
    QCOMPARE(tet.faces.size(), std::size_t{4});
    const Mat3 Rbody = spec.bodies[0].rotation.transpose();  // the body frame turns the joint axis onto a coordinate axis
    for (const Vec3& corner : {Vec3(0, 0, 0.5), Vec3(0, 0.1, 0.5), Vec3(-0.2, 0, 0.5), Vec3(0, 0, 0.8)}) {
      double nearest = 1e9;
      for (const Vec3& v : tet.vertices) nearest = std::min(nearest, (Rbody * (tet.rotation * v + tet.position) - corner).norm());
      QVERIFY2(nearest < 1e-6, qPrintable(QString::number(nearest)));  // the mesh's vertices are floats
    }
    // the hull's centre of volume is the geom's origin: the tetrahedron's centroid
    Vec3 centre = Vec3::Zero();
    for (const Vec3& v : tet.vertices) centre += v / 4;
    QVERIFY(centre.norm() < 1e-6);
    const GeomSpec& sphere = spec.geoms[3];
    QCOMPARE(sphere.name, std::string("hand#1"));
    QCOMPARE(sphere.body, 0);  // the fixed joint merged the hand into the arm's body
    QVERIFY((Rbody * sphere.position - Vec3(0, 0, 0.7)).norm() < 1e-15);
    QCOMPARE(spec.geoms[4].name, std::string("ground"));
    QCOMPARE(spec.geoms[4].type, GeomSpec::Type::Plane);
    QCOMPARE(spec.geoms[4].body, -1);
    QVERIFY2(said.find("4 collision geometries collide with each other and with the ground plane z = 0 (geom 'ground'), in the soft "
                       "constraint model: 1 sphere(s), 1 box(es), 1 cylinder(s) and 1 mesh(es)") != std::string::npos, said.c_str());
    // a flat collision mesh has no hull: left out, with a note naming it
    QVERIFY2(said.find("link 'arm': collision mesh 'flat.obj' is not used for contact: it has no convex hull") != std::string::npos, said.c_str());
    // the arm's cylinder reaches into the table's box? No: 1 m up. Nothing overlaps, nothing is excluded
    QVERIFY(spec.contactExcludes.empty());
    // and asked for points, a fixed robot's collisions are not used
    const ModelSpec points = specFromUrdf(xml, dir.filePath("r.urdf").toStdString(), nullptr, UrdfBase::Auto, {}, UrdfContact::Points);
    QVERIFY(points.geoms.empty() && points.contacts.empty());
    QCOMPARE(points.physics.constraints, PhysicsSpec::Constraints::Exact);
  }

  // links that overlap at the initial pose are excluded from each other, with a note, as robot
  // tools exclude the meshes that touch at the joints; links that touch only later collide. A
  // pendulum on a fixed base swings down onto the base's table and stops on it rather than
  // passing through; its upper link, which starts inside the base's pillar, never collides
  // with the base (the pillar, the table or the ground)
  void linksCollideWithEachOtherAndTheWorld() {
    const char* inertial = "<inertial><origin xyz='%1 0 0'/><mass value='1'/><inertia ixx='0.001' iyy='0.001' izz='0.001' ixy='0' ixz='0' iyz='0'/></inertial>";
    const QString xml = QString("<robot name='p'><link name='stand'>"
                                "<collision name='pillar'><origin xyz='0 0 0.5'/><geometry><box size='0.1 0.1 1'/></geometry></collision>"
                                "<collision name='table'><origin xyz='0.45 0 0.35'/><geometry><box size='0.5 0.4 0.7'/></geometry></collision></link>"
                                "<link name='upper'>%1<collision><origin xyz='0.05 0 0'/><geometry><box size='0.2 0.04 0.04'/></geometry></collision></link>"
                                "<link name='lower'>%2<collision><origin xyz='0.3 0 0'/><geometry><sphere radius='0.05'/></geometry></collision></link>"
                                "<joint name='j1' type='fixed'><parent link='stand'/><child link='upper'/><origin xyz='0 0 1'/></joint>"
                                "<joint name='j2' type='revolute'><parent link='upper'/><child link='lower'/><origin xyz='0.15 0 0'/><axis xyz='0 1 0'/>"
                                "<limit lower='-3' upper='3' effort='1' velocity='10'/></joint></robot>")
                            .arg(QString(inertial).arg(0.05), QString(inertial).arg(0.3));
    // the fixed joint merges 'upper' into the base: make it a body with a stiff joint instead
    QString moving = xml;
    moving.replace("<joint name='j1' type='fixed'><parent link='stand'/><child link='upper'/><origin xyz='0 0 1'/></joint>",
                   "<joint name='j1' type='revolute'><parent link='stand'/><child link='upper'/><origin xyz='0 0 1'/><axis xyz='0 0 1'/>"
                   "<limit lower='0' upper='0' effort='1' velocity='1'/></joint>");
    UrdfImport report;
    const ModelSpec spec = specFromUrdf(moving.toStdString(), "p.urdf", &report);
    std::string said;
    for (const std::string& n : report.notes) said += n + "\n";
    QCOMPARE(spec.bodies.size(), std::size_t{2});
    // 'upper' (body 0) starts inside the pillar: that pair is excluded; 'lower' overlaps nothing
    QCOMPARE(spec.contactExcludes.size(), std::size_t{1});
    QCOMPARE(spec.contactExcludes[0].body1, -1);
    QCOMPARE(spec.contactExcludes[0].body2, 0);
    QVERIFY2(said.find("1 pair(s) of links do not collide with each other: stand (the fixed base) and upper "
                       "(overlap at the initial pose)") != std::string::npos, said.c_str());
    const Model m = compile(spec);
    Simulation sim(m, simulationOptions(spec));
    QVERIFY2(sim.advanceTo(2.0), sim.divergence() ? sim.divergence()->message.c_str() : "");
    Data d(m);
    // the sphere's centre: on the table top (z = 0.7) with its radius, a little into it
    const Vec3 ball = bodyPointMotion(m, d, 1, spec.bodies[1].rotation * Vec3(0.3, 0, 0), sim.q(), sim.qd()).position;
    qInfo("the ball rests at x = %.4f, z = %.4f m, joint speed %.2e rad/s", ball.x(), ball.z(), sim.qd()(1));
    QVERIFY2(ball.z() > 0.7 + 0.05 - 0.002 && ball.z() < 0.7 + 0.05 + 1e-3, qPrintable(QString::number(ball.z())));
    QVERIFY(std::abs(sim.qd()(1)) < 1e-3);
    // asked for points, nothing stops it: it swings through the table
    const ModelSpec points = specFromUrdf(moving.toStdString(), "p.urdf", nullptr, UrdfBase::Auto, {}, UrdfContact::Points);
    const Model mp = compile(points);
    Simulation through(mp, simulationOptions(points));
    double lowest = 1e9;
    while (through.time() < 1.0 && through.step())
      lowest = std::min(lowest, bodyPointMotion(mp, d, 1, points.bodies[1].rotation * Vec3(0.3, 0, 0), through.q(), through.qd()).position.z());
    QVERIFY2(lowest < 0.701, qPrintable(QString::number(lowest)));  // its centre down to 0.7, half the ball in the table
  }

  // the geoms go out as <collision>s and come back the same: the quadruped read from URDF,
  // written and read again, has the same geoms (names, types, sizes, placements), the same
  // excludes and the same dynamics
  void geomsRoundTrip() {
    const ModelSpec spec = specFromUrdf(dogUrdf().toStdString(), "dog.urdf");
    const UrdfText out = specToUrdf(spec);
    QVERIFY2(out.xml.find("<collision name=\"leg0_shank#1\">") != std::string::npos, out.xml.c_str());
    UrdfImport report;
    const ModelSpec back = specFromUrdf(out.xml, "back.urdf", &report, UrdfBase::Floating);
    QCOMPARE(back.geoms.size(), spec.geoms.size());
    for (std::size_t k = 0; k < spec.geoms.size(); ++k) {
      const GeomSpec &a = spec.geoms[k], &b = back.geoms[k];
      QCOMPARE(b.name, a.name);
      QCOMPARE(b.type, a.type);
      QCOMPARE(b.body, a.body);
      QVERIFY2((b.size - a.size).norm() < 1e-15 && (b.position - a.position).norm() < 1e-14 &&
                   (b.rotation - a.rotation).norm() < 1e-14,
               a.name.c_str());
    }
    QVERIFY(back.contactExcludes == spec.contactExcludes);
    QCOMPARE(back.physics.constraints, PhysicsSpec::Constraints::Soft);
    // a capsule has no URDF form: noted, not lost silently
    ModelSpec capsule = spec;
    capsule.geoms[1].type = GeomSpec::Type::Capsule;
    capsule.geoms[1].size = Vec3(0.03, 0.01, 0);
    capsule.geoms[2].friction[0] = 0.5;
    std::string said;
    for (const std::string& n : specToUrdf(capsule).notes) said += n + "\n";
    QVERIFY2(said.find("1 collision geom(s) are not stored: URDF's <collision>s are spheres, boxes, cylinders and mesh files") !=
                 std::string::npos, said.c_str());
    QVERIFY2(said.find("the contact parameters of 1 geom(s) are not stored") != std::string::npos, said.c_str());
  }

  // a legged robot on its geoms: the quadruped dropped from 0.13 m lands and stands on its four
  // sphere feet on the ground plane; after 3 s it is at rest and only its feet touch the ground,
  // each a little into it
  void quadrupedStandsOnItsGeoms() {
    UrdfImport report;
    const ModelSpec spec = specFromUrdf(dogUrdf().toStdString(), "dog.urdf", &report);
    QVERIFY(report.floating);
    QCOMPARE(spec.geoms.size(), std::size_t{6});  // the torso's box, four feet, the ground
    const Model m = compile(spec);
    Data data(m);
    // placed on the ground: the lowest foot's lowest point at z = 0
    forwardKinematics(m, data, m.q0);
    double lowest = 1e9;
    for (int g = 1; g <= 4; ++g) {
      Mat3 R;
      Vec3 p;
      geomPose(m, data, g, R, p);
      lowest = std::min(lowest, p.z() - m.geoms[static_cast<std::size_t>(g)].size(0));
    }
    QVERIFY2(std::abs(lowest) < 1e-12, qPrintable(QString::number(lowest)));
    Simulation sim(m, simulationOptions(spec));
    Eigen::VectorXd q = m.q0, qd = Eigen::VectorXd::Zero(m.nv());
    q(2) += 0.13;
    sim.setState(0, q, qd);
    QVERIFY2(sim.advanceTo(3.0), sim.divergence() ? sim.divergence()->message.c_str() : "");
    const EnergyMomentum e = sim.energy();
    forwardKinematics(m, data, sim.q());
    std::vector<Contact> contacts;
    collide(m, data, contacts);
    qInfo("torso at z = %.4f m (placed at %.4f), kinetic energy %.2e J, %d contacts", sim.q()(2), m.q0(2), e.kinetic,
          static_cast<int>(contacts.size()));
    QVERIFY(e.kinetic < 1e-4);
    QCOMPARE(contacts.size(), std::size_t{4});
    for (const Contact& c : contacts) {
      QCOMPARE(m.geoms[static_cast<std::size_t>(c.geom1)].name, std::string("ground"));
      QVERIFY2(m.geoms[static_cast<std::size_t>(c.geom2)].type == GeomSpec::Type::Sphere, geomName(m, c.geom2).c_str());
      QVERIFY2(c.dist < 0 && c.dist > -0.005, qPrintable(QString::number(c.dist)));
    }
    QVERIFY(sim.q()(2) > m.q0(2) - 0.02 && sim.q()(2) < m.q0(2));
  }

  // a quadruped (written here): torso with a collision box, legs with hip and knee stops and
  // friction, sphere feet
  static QString dogUrdf() {
    const char* inertial = "<inertial><mass value='%1'/><inertia ixx='%2' iyy='%2' izz='%2' ixy='0' ixz='0' iyz='0'/></inertial>";
    QString xml = "<robot name='dog'><link name='torso'>" + QString(inertial).arg(8).arg(0.2) +
                  "<collision><geometry><box size='0.6 0.3 0.1'/></geometry></collision></link>";
    const double hx[4] = {0.25, 0.25, -0.25, -0.25}, hy[4] = {0.15, -0.15, 0.15, -0.15};
    for (int k = 0; k < 4; ++k) {
      const QString leg = QString("leg%1").arg(k);
      xml += "<link name='" + leg + "_thigh'>" + QString(inertial).arg(0.5).arg(0.002) + "</link>";
      xml += "<link name='" + leg + "_shank'>" + QString(inertial).arg(0.3).arg(0.001) +
             "<collision><origin xyz='0 0 -0.2'/><geometry><sphere radius='0.03'/></geometry></collision></link>";
      xml += QString("<joint name='%1_hip' type='revolute'><parent link='torso'/><child link='%1_thigh'/>"
                     "<origin xyz='%2 %3 -0.05'/><axis xyz='0 1 0'/><limit lower='-0.3' upper='-0.25' effort='30' velocity='10'/>"
                     "<dynamics friction='1'/></joint>").arg(leg).arg(hx[k]).arg(hy[k]);
      xml += QString("<joint name='%1_knee' type='revolute'><parent link='%1_thigh'/><child link='%1_shank'/>"
                     "<origin xyz='0 0 -0.2'/><axis xyz='0 1 0'/><limit lower='0.5' upper='0.6' effort='30' velocity='10'/>"
                     "<dynamics friction='1'/></joint>").arg(leg);
    }
    xml += "</robot>";
    return xml;
  }

  // the automatic base (UrdfBase::Auto) comes from the robot: floating when collision geometry
  // reaches below the root link in two or more of its branches (legs), else fixed; a root link
  // named 'world' is always fixed. Arms (a gripper's two fingers are one branch), a mounted
  // pendulum and a robot without collision geometry stay where they are; legged robots float
  void baseFollowsTheRobot_data() {
    QTest::addColumn<QString>("xml");
    QTest::addColumn<bool>("floating");
    QTest::addColumn<QString>("why");
    const auto link = [](const QString& name, const QString& collision = "") {
      return "<link name='" + name + "'><inertial><mass value='1'/><inertia ixx='0.01' iyy='0.01' izz='0.01' ixy='0' ixz='0' iyz='0'/></inertial>" +
             (collision.isEmpty() ? QString() : "<collision>" + collision + "</collision>") + "</link>";
    };
    const auto joint = [](const QString& child, const QString& parent, const QString& xyz, const QString& type = "revolute") {
      return "<joint name='" + child + "_joint' type='" + type + "'><parent link='" + parent + "'/><child link='" + child +
             "'/><origin xyz='" + xyz + "'/><axis xyz='0 1 0'/><limit lower='-3' upper='3' effort='10' velocity='5'/></joint>";
    };
    const QString box = "<origin xyz='0 0 0.15'/><geometry><box size='0.05 0.05 0.3'/></geometry>";
    const QString hanging = "<origin xyz='0 0 -0.2'/><geometry><cylinder radius='0.02' length='0.4'/></geometry>";
    const QString foot = "<origin xyz='0 0 -0.3'/><geometry><sphere radius='0.03'/></geometry>";
    // an arm standing up from its base, with a two-finger gripper at its end
    QString arm = "<robot name='arm'>" + link("base_link", "<geometry><cylinder radius='0.1' length='0.1'/></geometry>") +
                  link("l1", box) + joint("l1", "base_link", "0 0 0.05") + link("l2", box) + joint("l2", "l1", "0 0 0.3") +
                  link("hand", box) + joint("hand", "l2", "0 0 0.3") +
                  link("finger_l", "<geometry><box size='0.01 0.01 0.05'/></geometry>") + joint("finger_l", "hand", "0 0.02 0.3", "prismatic") +
                  link("finger_r", "<geometry><box size='0.01 0.01 0.05'/></geometry>") + joint("finger_r", "hand", "0 -0.02 0.3", "prismatic") + "</robot>";
    QTest::newRow("arm") << arm << false << "no collision geometry reaches below the root link";
    // a double pendulum hanging from a wall mount: one branch below its root
    QString pendulum = "<robot name='pendulum'>" + link("mount", "<geometry><box size='0.1 0.1 0.1'/></geometry>") +
                       link("upper", hanging) + joint("upper", "mount", "0 0 0") + link("lower", hanging) +
                       joint("lower", "upper", "0 0 -0.4") + "</robot>";
    QTest::newRow("mounted pendulum") << pendulum << false << "in 1 of its branches, fewer than two legs";
    QString biped = "<robot name='biped'>" + link("pelvis", "<geometry><box size='0.2 0.3 0.1'/></geometry>");
    for (const QString side : {"left", "right"})
      biped += link(side + "_thigh", hanging) + joint(side + "_thigh", "pelvis", side == "left" ? "0 0.1 -0.05" : "0 -0.1 -0.05") +
               link(side + "_shin", foot) + joint(side + "_shin", side + "_thigh", "0 0 -0.4");
    biped += link("torso", box) + joint("torso", "pelvis", "0 0 0.05") + "</robot>";
    QTest::newRow("biped") << biped << true << "in 2 of its branches, its legs";
    QTest::newRow("quadruped") << dogUrdf() << true << "in 4 of its branches, its legs";
    QString world = biped;
    world.replace("<robot name='biped'>", "<robot name='biped'><link name='world'/><joint name='pin' type='fixed'><parent link='world'/><child link='pelvis'/></joint>");
    QTest::newRow("root named world") << world << false << "";
    QString bare = pendulum;
    bare.replace(QRegularExpression("<collision>.*?</collision>"), "");
    QTest::newRow("no collision geometry") << bare << false << "no collision geometry reaches below the root link";
  }
  void baseFollowsTheRobot() {
    QFETCH(QString, xml);
    QFETCH(bool, floating);
    QFETCH(QString, why);
    UrdfImport report;
    const ModelSpec spec = specFromUrdf(xml.toStdString(), "robot.urdf", &report);
    std::string said;
    for (const std::string& n : report.notes) said += n + "\n";
    QVERIFY2(report.floating == floating, said.c_str());
    QCOMPARE(spec.bodies[0].joint.type == JointType::Free, floating);
    // collision geometry becomes geoms, fixed or floating; ground-contact points when asked,
    // on a floating robot only
    QVERIFY(spec.contacts.empty());
    QCOMPARE(spec.geoms.empty(), !xml.contains("<collision>"));
    const ModelSpec points = specFromUrdf(xml.toStdString(), "robot.urdf", nullptr, UrdfBase::Auto, {}, UrdfContact::Points);
    QCOMPARE(points.contacts.empty(), !floating);
    QVERIFY(points.geoms.empty());
    QVERIFY2(QString::fromStdString(said).contains(why), said.c_str());
    if (why.isEmpty()) return;  // the root link 'world'
    QVERIFY2(QString::fromStdString(said).contains(floating ? "floats on a free joint (automatic: " : "is the fixed base (automatic: "), said.c_str());
    // the caller's choice wins
    UrdfImport asked;
    const ModelSpec other = specFromUrdf(xml.toStdString(), "robot.urdf", &asked, floating ? UrdfBase::Fixed : UrdfBase::Floating);
    QCOMPARE(asked.floating, !floating);
    QCOMPARE(other.bodies[0].joint.type == JointType::Free, !floating);
  }

  // a legged robot whose root link is at the origin has its legs inside the floor: it opens
  // standing on the ground (the lowest foot at z = 0 to round-off, the posture kept), says how
  // far it was raised, and stands for 3 s without sinking or gaining energy
  void floatingRobotStandsOnTheGround() {
    UrdfImport report;
    const ModelSpec spec = specFromUrdf(dogUrdf().toStdString(), "dog.urdf", &report, UrdfBase::Auto, {}, UrdfContact::Points);
    QVERIFY(report.floating);
    std::string said;
    for (const std::string& n : report.notes) said += n + "\n";
    const Model m = compile(spec);
    Data data(m);
    double lowest = 1e9;
    Eigen::VectorXd qd0 = Eigen::VectorXd::Zero(m.nv());
    for (const ContactPointSpec& c : spec.contacts)
      lowest = std::min(lowest, bodyPointMotion(m, data, c.body, c.point, m.q0, qd0).position.z() - c.radius);
    QVERIFY2(std::abs(lowest) < 1e-12, qPrintable(QString::number(lowest)));
    // the torso's origin: raised from 0 by the legs' reach, the joints as the limits put them
    const double raised = m.q0(2);
    QVERIFY2(raised > 0.3 && raised < 0.5, qPrintable(QString::number(raised)));
    QVERIFY2(said.find("the robot was raised by " + std::to_string(raised).substr(0, 4)) != std::string::npos, said.c_str());
    QVERIFY2(said.find("to stand on the ground: its lowest collision geometry touches z = 0") != std::string::npos, said.c_str());
    Simulation sim(m, SimulationOptions{});
    const double e0 = sim.energy().kinetic + sim.energy().potential;
    QVERIFY2(sim.advanceTo(3.0), sim.divergence() ? sim.divergence()->message.c_str() : "");
    const EnergyMomentum e = sim.energy();
    qInfo("torso from z = %.4f to %.4f m, kinetic energy %.2e J, energy %.4f -> %.4f J", raised, sim.q()(2), e.kinetic, e0,
          e.kinetic + e.potential);
    QVERIFY(e.kinetic < 1e-6);
    QVERIFY(sim.q()(2) > raised - 0.01 && sim.q()(2) < raised + 1e-9);  // settled a few mm into the ground
    QVERIFY(e.kinetic + e.potential <= e0 + 1e-9);
  }

  // a joint that starts (q = 0) outside its limits, as a Kinova arm's do, starts on its nearest
  // limit with a note naming it: the stops would snap it there in the first step and add
  // energy (3.16 J became 7.33 J, and the dissipated energy went negative)
  void startPoseIsClampedToLimits() {
    QString xml = "<robot name='kinova'><link name='world'/>";
    const double lower[3] = {0.82, 0.33, -0.5}, upper[3] = {2.5, 2.0, -0.1};
    QString parent = "world";
    for (int k = 0; k < 3; ++k) {
      const QString name = QString("l%1").arg(k + 1);
      xml += "<link name='" + name + "'><inertial><origin xyz='0.2 0 0'/><mass value='1'/><inertia ixx='0.01' iyy='0.01' izz='0.01' ixy='0' ixz='0' iyz='0'/></inertial></link>";
      xml += QString("<joint name='j%1' type='revolute'><parent link='%2'/><child link='%3'/><origin xyz='%4 0 0'/><axis xyz='0 1 0'/>"
                     "<limit lower='%5' upper='%6' effort='10' velocity='5'/></joint>")
                 .arg(k + 1).arg(parent, name).arg(k ? 0.4 : 0.0).arg(lower[k]).arg(upper[k]);
      parent = name;
    }
    xml += "</robot>";
    UrdfImport report;
    const ModelSpec spec = specFromUrdf(xml.toStdString(), "kinova.urdf", &report);
    QCOMPARE(spec.bodies[0].q0, 0.82);
    QCOMPARE(spec.bodies[1].q0, 0.33);
    QCOMPARE(spec.bodies[2].q0, -0.1);
    std::string said;
    for (const std::string& n : report.notes) said += n + "\n";
    QVERIFY2(said.find("joint 'j1' starts at 0, outside its limits: moved to its lower limit 0.82") != std::string::npos, said.c_str());
    QVERIFY2(said.find("joint 'j2' starts at 0, outside its limits: moved to its lower limit 0.33") != std::string::npos, said.c_str());
    QVERIFY2(said.find("joint 'j3' starts at 0, outside its limits: moved to its upper limit -0.1") != std::string::npos, said.c_str());
    // from there the stops only take energy out
    const Model m = compile(spec);
    Simulation sim(m, SimulationOptions{});
    const double e0 = sim.energy().kinetic + sim.energy().potential;
    QVERIFY(sim.advanceTo(1.0));
    const EnergyMomentum e = sim.energy();
    qInfo("energy %.4f J -> %.4f J, dissipated %.4f J", e0, e.kinetic + e.potential, sim.energyDissipated());
    QVERIFY(sim.energyDissipated() >= -1e-9);
    QVERIFY(e.kinetic + e.potential <= e0 + 1e-6);
  }

  void floatingQuadrupedLandsAndStands() {
    const QString xml = dogUrdf();
    UrdfImport report;
    const ModelSpec spec = specFromUrdf(xml.toStdString(), "dog.urdf", &report, UrdfBase::Auto, {}, UrdfContact::Points);
    QVERIFY(report.floating);
    const std::vector<std::string>& notes = report.notes;
    QCOMPARE(spec.contacts.size(), std::size_t{8 + 4});  // the box's corners and the four feet
    std::string said;
    for (const std::string& n : notes) said += n + "\n";
    QVERIFY2(said.find("collision geometry became 12 ground-contact point(s): 4 sphere(s)") != std::string::npos, said.c_str());
    const Model m = compile(spec);
    Simulation sim(m, SimulationOptions{});
    Eigen::VectorXd q = m.q0, qd = Eigen::VectorXd::Zero(m.nv());
    q(2) = 0.6;  // the torso's height: the feet 0.13 m above the ground
    for (int i = 1; i < m.nb; ++i) q(m.qIndex[i]) = m.names[i].find("hip") != std::string::npos || m.names[i].find("thigh") != std::string::npos ? -0.27 : 0.55;
    sim.setState(0, q, qd);
    QVERIFY2(sim.advanceTo(3.0), sim.divergence() ? sim.divergence()->message.c_str() : "");
    const Eigen::Matrix3Xd& f = sim.contactForces();
    double weight = 0, total = 0;
    for (int i = 0; i < m.nb; ++i) {
      const Eigen::Matrix<double, 6, 6> I = m.spatial.I[static_cast<std::size_t>(i)];
      weight += I(3, 3) * 9.81;
    }
    for (Eigen::Index k = 0; k < f.cols(); ++k) {
      const bool foot = spec.contacts[static_cast<std::size_t>(k)].radius > 0;
      qInfo("contact %d (%s): normal force %.3f N", static_cast<int>(k), foot ? "foot" : "torso", f(2, k));
      QVERIFY(foot ? f(2, k) > 0.1 * weight / 4 : f(2, k) == 0.0);
      total += f(2, k);
    }
    const EnergyMomentum e = sim.energy();
    qInfo("torso at z = %.4f m, kinetic energy %.2e J, ground carries %.3f N of %.3f N", sim.q()(2), e.kinetic, total, weight);
    QVERIFY(e.kinetic < 1e-6);
    QVERIFY(std::abs(total - weight) < 1e-3 * weight);
    QVERIFY(sim.q()(2) > 0.4 && sim.q()(2) < 0.47);
    Data data(m);
    for (std::size_t k = 0; k < spec.contacts.size(); ++k) {
      const ContactPointSpec& c = spec.contacts[k];
      if (c.radius == 0) continue;
      const BodyPointMotion foot = bodyPointMotion(m, data, c.body, c.point, sim.q(), sim.qd());
      QVERIFY2(foot.position.z() - c.radius < 0 && foot.position.z() - c.radius > -0.005, qPrintable(QString::number(foot.position.z())));
    }
  }

};

ARTICULATE_TEST_MAIN(TestUrdf)
#include "test_urdf.moc"
