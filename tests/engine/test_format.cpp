// The Articulate model format: load -> save -> load is lossless, every accepted spelling reads
// to the same model, parents may come in any order, and drawing instructions are interpreted
// with showmotion's graphics-context rules.
#include <QRegularExpression>
#include <QtTest>

#include "test_main.h"

#include "articulate/model/appearance.h"
#include "articulate/formulations/generators.h"
#include "articulate/model/model.h"
#include "articulate/formats/articulate.h"
#include "articulate/formats/spatial_v2.h"
#include "articulate/formats/files.h"

using namespace art;
using nlohmann::json;

namespace {

ModelSpec read(const json& doc) {
  ModelSpec s;
  Diagnostics d;
  specFromJson(doc, s, d);
  if (!d.empty()) throw std::runtime_error(d.front().text());
  return s;
}

json minimal(json bodies) {
  return {{"format", "articulate-model"}, {"version", 1}, {"bodies", std::move(bodies)}};
}

json body(const std::string& name, const std::string& parent) {
  return {{"name", name}, {"parent", parent}, {"joint", "Rz"}, {"inertia", {{"mass", 1}}}};
}

}  // namespace

class TestFormat : public QObject {
  Q_OBJECT
 private slots:
  // save(load(save(spec))) is byte-identical to save(spec), and the compiled models agree
  void roundTripIsLossless_data() {
    QTest::addColumn<int>("which");
    for (int k = 0; k < 6; ++k) QTest::newRow(qPrintable(QString::number(k))) << k;
  }
  void roundTripIsLossless() {
    QFETCH(int, which);
    ModelSpec spec;
    switch (which) {
      case 0: spec = randomTree(15, 3, {JointType::Rx, JointType::Py, JointType::H, JointType::Rz}); break;
      case 1: spec = randomTree(9, 4, {JointType::PlanarR, JointType::PlanarPx, JointType::PlanarPy}); break;
      case 2: spec = planarChain(5); break;
      case 3: {
        AutoTreeOptions o;
        o.bodies = 12;
        o.branching = 2;
        o.skew = M_PI / 3;
        o.taper = 0.9;
        spec = autoTree(o);
        break;
      }
      case 4: {  // everything optional set
        spec = randomTree(4, 5, {JointType::Rx, JointType::Pz});
        spec.gravity = Vec3(0.1, -9.7, 0.3);
        spec.bodies[1].q0 = 0.25;
        spec.bodies[2].qd0 = -1.0 / 3.0;
        spec.bodies[3].inertia = InertiaSpec::fromMatrix(spec.bodies[3].inertia.spatial());
        spec.camera.body = 2;
        spec.camera.direction = Vec3(1, 0, 0.1);
        spec.camera.zoom = 1.5;
        spec.camera.locus = Vec2(0, 0.5);
        spec.contacts.push_back({1, Vec3(0.1, 0.2, 0.3)});
        ConstraintSpec c;
        c.joint = 3;
        c.master = 1;
        c.ratio = -2.5;
        spec.constraints.push_back(c);
        ConstraintSpec l;
        l.type = ConstraintSpec::Type::Loop;
        l.bodyA = 2;
        l.bodyB = -1;
        l.pointA = Vec3(1, 0, 0);
        l.align = true;
        l.axisB = Vec3(0, 1, 0);
        spec.constraints.push_back(l);
        spec.baseAppearance = json::array({"tiles", {{-1, 1}, {-1, 1}, {0, 0}}, 0.25});
        // keyframes: any doubles, bit-exact through the text
        KeyframeSpec k;
        k.name = "push";
        k.time = 1.0 / 3.0;
        k.q = Eigen::VectorXd::LinSpaced(4, -0.1, std::sqrt(2.0));
        k.qd = Eigen::VectorXd::LinSpaced(4, 1e-17, 3.0 / 7.0);
        spec.keyframes.push_back(k);
        k.name = "rest";
        k.time = 2.5;
        k.q.setZero();
        spec.keyframes.push_back(k);
        break;
      }
      default: spec = ModelSpec{};  // empty model
    }
    const std::string first = formatJson(specToJson(spec));
    const ModelSpec back = read(json::parse(first));
    const std::string second = formatJson(specToJson(back));
    QCOMPARE(QString::fromStdString(second), QString::fromStdString(first));
    QVERIFY(back.keyframes == spec.keyframes);
    const Model a = compile(spec), b = compile(back);
    QCOMPARE(a.parent, b.parent);
    QCOMPARE(a.q0, b.q0);
    QCOMPARE(a.qd0, b.qd0);
    for (int i = 0; i < a.nb; ++i) {
      if (a.arithmetic == Arithmetic::Spatial) {
        QVERIFY(a.spatial.I[i] == b.spatial.I[i]);  // bit-exact
        QVERIFY(a.spatial.Xtree[i].E == b.spatial.Xtree[i].E);
        QVERIFY(a.spatial.Xtree[i].r == b.spatial.Xtree[i].r);
      } else {
        QVERIFY(a.planar.I[i] == b.planar.I[i]);
      }
    }
  }

  // the soft constraint model (docs/model-format.md#physics-exact-or-soft-constraints): the
  // physics settings, every type of equality and the joints' and tendons' solver parameters and
  // margins survive write -> read field by field, the second write is byte-identical, and
  // malformed ones are reported at their JSON path
  void softPhysicsRoundTrip_data() {
    QTest::addColumn<bool>("overrideOn");
    QTest::newRow("override kept, off") << false;
    QTest::newRow("override on") << true;
  }
  void softPhysicsRoundTrip() {
    QFETCH(bool, overrideOn);
    QVERIFY(!specToJson(ModelSpec{}).contains("physics"));  // the default writes none
    QVERIFY(!specToJson(ModelSpec{}).contains("equalities"));
    ModelSpec spec = randomTree(5, 11, {JointType::Rx, JointType::Pz, JointType::Ry});
    PhysicsSpec& ph = spec.physics;
    ph.constraints = PhysicsSpec::Constraints::Soft;
    ph.solver = PhysicsSpec::Solver::CG;
    ph.iterations = 37;
    ph.tolerance = 1e-11;
    ph.cone = PhysicsSpec::Cone::Elliptic;
    ph.impratio = 1.0 / 3.0;
    ph.soft.solref = {0.01, 0.7};
    ph.soft.solimp = {0.8, 0.9, 0.002, 0.4, 3};
    ph.override = overrideOn;
    ph.overrideSoft.solref = {-1000, -10};  // the direct form
    ph.overrideMargin = 0.0125;
    ph.frictionloss = false;
    ph.refsafe = false;
    // the joints' own rows
    spec.bodies[1].limits.lower = -0.5;
    spec.bodies[1].limits.upper = 0.75;
    spec.bodies[1].limitSoft = SoftParams{{0.005, 2}, {0.7, 0.99, 0.01, 0.3, 1.5}};
    spec.bodies[2].friction = 0.25;
    spec.bodies[2].frictionSoft = SoftParams{{0.03, 0.5}, {0.9, 0.95, 0.001, 0.5, 2}};
    spec.bodies[3].margin = 1.0 / 7.0;
    // tendons: one named, one known by its index
    const auto jointElement = [](int body, double coef) {
      TendonSpec::Element e;
      e.kind = TendonSpec::Element::Kind::Joint;
      e.index = body;
      e.coef = coef;
      return e;
    };
    TendonSpec t1;
    t1.name = "t1";
    t1.path = {jointElement(1, 0.5), jointElement(2, -0.25)};
    t1.range = std::array<double, 2>{-0.2, 0.3};
    t1.frictionloss = 0.1;
    t1.limitSoft = SoftParams{{0.04, 1.2}, {0.85, 0.96, 0.003, 0.6, 2.5}};
    t1.frictionSoft = SoftParams{};
    t1.margin = 0.002;
    TendonSpec t2;
    t2.path = {jointElement(3, 1.0)};
    t2.margin = 0.5;
    spec.tendons = {t1, t2};
    // every type of equality
    EqualitySpec connect;
    connect.type = EqualitySpec::Type::Connect;
    connect.name = "pin";
    connect.obj1 = 4;
    connect.obj2 = -1;
    connect.anchor1 = Vec3(0.1, -0.2, 1.0 / 3.0);
    connect.anchor2 = Vec3(0.5, 0, -0.25);
    EqualitySpec weld;
    weld.type = EqualitySpec::Type::Weld;
    weld.active = false;
    weld.obj1 = 3;
    weld.obj2 = 0;
    weld.anchor1 = Vec3(0, 0, 0.1);
    weld.quat1 = Eigen::Vector4d(0.5, 0.5, -0.5, 0.5);
    weld.quat2 = Eigen::Vector4d(2, 0, 0, 1);  // kept as given (compile() normalises its copy)
    weld.torquescale = 0.25;
    weld.soft = SoftParams{{0.02, 0.9}, {0.95, 0.99, 0.001, 0.5, 2}};
    EqualitySpec joint;
    joint.type = EqualitySpec::Type::Joint;
    joint.name = "gear";
    joint.obj1 = 2;
    joint.obj2 = 1;
    joint.poly = {0.1, -2, 0.5, 0, 1e-3};
    joint.ref1 = 0.2;
    joint.ref2 = -0.1;
    EqualitySpec lock;  // one joint held at ref1 + poly[0]
    lock.type = EqualitySpec::Type::Joint;
    lock.obj1 = 3;
    lock.poly = {0.3, 0, 0, 0, 0};
    EqualitySpec tendon;
    tendon.type = EqualitySpec::Type::Tendon;
    tendon.obj1 = 1;  // the unnamed one: written as its index
    tendon.obj2 = 0;
    tendon.ref1 = 0.05;
    tendon.soft = SoftParams{{0.1, 1}, {0.5, 0.6, 0.01, 0.5, 2}};
    spec.equalities = {connect, weld, joint, lock, tendon};
    compile(spec);  // a valid model

    const std::string first = formatJson(specToJson(spec));
    const json doc = json::parse(first);
    QVERIFY(doc.contains("physics"));
    QCOMPARE(QString::fromStdString(doc["physics"]["solver"].get<std::string>()), QString("cg"));
    QCOMPARE(QString::fromStdString(doc["equalities"][0]["body2"].get<std::string>()), QString("base"));
    QCOMPARE(doc["equalities"][4]["tendon1"].get<int>(), 1);
    const ModelSpec back = read(doc);
    QCOMPARE(QString::fromStdString(formatJson(specToJson(back))), QString::fromStdString(first));
    QVERIFY(back.physics == spec.physics);
    QCOMPARE(back.equalities.size(), spec.equalities.size());
    for (std::size_t k = 0; k < spec.equalities.size(); ++k)
      QVERIFY2(back.equalities[k] == spec.equalities[k], qPrintable(QString("equalities[%1]").arg(k)));
    QVERIFY(back.tendons == spec.tendons);
    QCOMPARE(back.bodies.size(), spec.bodies.size());
    for (std::size_t i = 0; i < spec.bodies.size(); ++i) {
      QVERIFY(back.bodies[i].limitSoft == spec.bodies[i].limitSoft);
      QVERIFY(back.bodies[i].frictionSoft == spec.bodies[i].frictionSoft);
      QCOMPARE(back.bodies[i].margin, spec.bodies[i].margin);
    }

    // a half not given takes physics' solref or solimp; polycoef's missing terms are zero
    json partial = doc;
    partial["bodies"][1]["limit_soft"] = {{"solref", {0.5, 0.5}}};
    partial["equalities"][2]["polycoef"] = {0, 3};
    const ModelSpec p = read(partial);
    QVERIFY(p.bodies[1].limitSoft == (SoftParams{{0.5, 0.5}, ph.soft.solimp}));
    QVERIFY((p.equalities[2].poly == std::array<double, 5>{0, 3, 0, 0, 0}));

    // malformed: each reported at its JSON path
    const auto problems = [](const json& d) {
      ModelSpec s;
      Diagnostics diag;
      specFromJson(d, s, diag);
      QStringList texts;
      for (const auto& x : diag) texts << QString::fromStdString(x.text());
      return texts;
    };
    json bad = doc;
    bad["equalities"][0]["body1"] = "nowhere";
    bad["physics"]["solver"] = "gauss";
    bad["equalities"][1]["polycoef"] = {0, 1};  // not a weld's
    bad["equalities"][3]["joint2"] = "base";
    bad["physics"]["disable"] = {"limit", "gravity"};
    bad["bodies"][2]["friction_soft"] = {{"solref", {0.02}}};
    const QStringList texts = problems(bad);
    const QString all = texts.join("\n");
    QVERIFY2(texts.contains("equalities[0].body1: 'nowhere' is not defined"), qPrintable(all));
    QVERIFY2(texts.contains("physics.solver: expected \"newton\", \"pgs\" or \"cg\", got \"gauss\""), qPrintable(all));
    QVERIFY2(texts.filter(QRegularExpression("^equalities\\[1\\]\\.polycoef: unknown field")).size() == 1, qPrintable(all));
    QVERIFY2(texts.contains("equalities[3].joint2: must name a body, not 'base'"), qPrintable(all));
    QVERIFY2(texts.contains("physics.disable[1]: expected \"equality\", \"frictionloss\", \"limit\", \"contact\", "
                            "\"filterparent\" or \"refsafe\", got \"gravity\""),
             qPrintable(all));
    QVERIFY2(texts.contains("bodies[2].friction_soft.solref: expected 2 numbers"), qPrintable(all));
    QCOMPARE(texts.size(), 6);
    // what compile() checks comes back at the equality's path too
    json same = doc;
    same["equalities"][2]["joint2"] = same["equalities"][2]["joint1"];
    QVERIFY2(problems(same).filter(QRegularExpression("^equalities\\[2\\]")).size() == 1, qPrintable(problems(same).join("\n")));
    // equalities need the soft model
    json exact = doc;
    exact.erase("physics");
    QVERIFY2(problems(exact).filter(QRegularExpression("^equalities: ")).size() == 1, qPrintable(problems(exact).join("\n")));
  }

  // rotation matrix, roll-pitch-yaw and axis-angle spell the same placement
  void rotationForms() {
    const double a = 0.7;
    // json::array: a braced list of one json is a copy of it under clang, an array under GCC
    json m = minimal(json::array({body("b", "base")}));
    m["bodies"][0]["placement"] = {{"rotation", {{"axis", {0, 0, 2}}, {"angle", a}}}};
    const Mat3 Eaxis = read(m).bodies[0].rotation;
    m["bodies"][0]["placement"] = {{"rotation", {{"rpy", {0, 0, a}}}}};
    const Mat3 Erpy = read(m).bodies[0].rotation;
    m["bodies"][0]["placement"] = {
        {"rotation", {{std::cos(a), -std::sin(a), 0}, {std::sin(a), std::cos(a), 0}, {0, 0, 1}}}};
    const Mat3 Emat = read(m).bodies[0].rotation;
    // the stored E is spatial_v2's coordinate rotation: rotz(a)
    QVERIFY((Eaxis - rotzE(a)).norm() < 1e-15);
    QVERIFY((Erpy - rotzE(a)).norm() < 1e-15);
    QVERIFY((Emat - rotzE(a)).norm() < 1e-15);
    // rpy composes as Rz(yaw) Ry(pitch) Rx(roll)
    m["bodies"][0]["placement"] = {{"rotation", {{"rpy", {0.1, 0.2, 0.3}}}}};
    const Mat3 R = read(m).bodies[0].rotation.transpose();
    const Mat3 expect = rotzE(0.3).transpose() * rotyE(0.2).transpose() * rotxE(0.1).transpose();
    QVERIFY((R - expect).norm() < 1e-15);
  }

  // children may be listed before their parents; q follows the sorted order
  void parentsInAnyOrder() {
    const ModelSpec s = read(minimal({body("c", "b"), body("a", "base"), body("b", "a")}));
    QCOMPARE(s.bodies.size(), std::size_t(3));
    QCOMPARE(QString::fromStdString(s.bodies[0].name), QString("a"));
    QCOMPARE(QString::fromStdString(s.bodies[1].name), QString("b"));
    QCOMPARE(QString::fromStdString(s.bodies[2].name), QString("c"));
    QCOMPARE(s.bodies[2].parent, 1);
    QCOMPARE(s.bodies[1].parent, 0);
  }

  void everyProblemIsReported() {
    json m = minimal({body("a", "base"), body("b", "nowhere"), body("c", "a")});
    m["bodies"][0]["inertia"]["mass"] = -1;
    m["bodies"][2]["appearance"] = {"cyl", {{0, 0, 0}, {1, 0, 0}}};
    m["gravty"] = {0, 0, -9.81};
    ModelSpec s;
    Diagnostics d;
    specFromJson(m, s, d);
    QStringList texts;
    for (const auto& p : d) texts << QString::fromStdString(p.text());
    QVERIFY2(texts.contains("bodies[0].inertia.mass: must be >= 0, got -1"), qPrintable(texts.join("\n")));
    QVERIFY2(texts.contains("bodies[1].parent: 'nowhere' is not defined"), qPrintable(texts.join("\n")));
    QVERIFY2(texts.contains("bodies[2].appearance[0]: 'cyl' needs 2 arguments"), qPrintable(texts.join("\n")));
    QVERIFY(texts.filter("gravty: unknown field").size() == 1);
  }

  // showmotion's example: {Cr,B,{B,Cg,B,Cb,B},B} draws red, red, green, blue, red
  void graphicsContextRules() {
    const json box = {{0, 0, 0}, {1, 1, 1}};
    const json list = {"colour", {1, 0, 0}, "box", box,
                       json::array({"box", box, "colour", {0, 1, 0}, "box", box, "colour", {0, 0, 1}, "box", box}),
                       "box", box};
    Diagnostics d;
    const auto prims = interpretAppearance(list, Vec3(0.5, 0.5, 0.5), false, "a", &d);
    QVERIFY(d.empty());
    QCOMPARE(prims.size(), std::size_t(5));
    const Vec3 red(1, 0, 0), green(0, 1, 0), blue(0, 0, 1);
    QVERIFY(prims[0].colour == red);
    QVERIFY(prims[1].colour == red);
    QVERIFY(prims[2].colour == green);
    QVERIFY(prims[3].colour == blue);
    QVERIFY(prims[4].colour == red);
    // default colour and facets; vertices with line indices and triangles
    const json tri = {"facets", 6, "vertices", {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, "line", {1, 2, 3},
                      "triangles", {{1, 2, 3}}, "sphere", {0, 0, 0}, 0.5};
    const auto p2 = interpretAppearance(tri, defaultBodyColour(2), false, "b", &d);
    QVERIFY(d.empty());
    QCOMPARE(p2.size(), std::size_t(3));
    QVERIFY(p2[0].colour == Vec3(0.8, 0.4, 0.1));
    QCOMPARE(p2[0].points.size(), std::size_t(3));
    QCOMPARE(p2[2].facets, 6);
    QVERIFY(defaultBodyColour(13) == defaultBodyColour(1));
    QVERIFY(defaultBodyColour(0) == Vec3(0.4, 0.3, 0.2));
  }

  void emptyListsAreValid() {
    Diagnostics d;
    QVERIFY(interpretAppearance(json::array(), Vec3::Zero(), false, "a", &d).empty());
    QVERIFY(interpretAppearance(json::parse("[[], [[]]]"), Vec3::Zero(), false, "a", &d).empty());
    QVERIFY(d.empty());
  }

  void deepNestingIsRefused() {
    std::string text;
    for (int k = 0; k < 300; ++k) text += "[";
    for (int k = 0; k < 300; ++k) text += "]";
    try {
      parseJsonText(text, "deep.json");
      QFAIL("expected a FormatError");
    } catch (const FormatError& e) {
      QCOMPARE(QString(e.what()), QString("deep.json: is nested deeper than 256 levels"));
    }
  }

  // spatial_v2 JSON -> Articulate -> spatial_v2 keeps every number
  void spatialV2ConversionKeepsNumbers() {
    const json ref = readJsonFile(ARTICULATE_TEST_DATA_DIR "/spatial_v2_cases.json");
    for (const auto& c : ref["cases"]) {
      ModelSpec fromSv2 = specFromSpatialV2(c["model"]);
      const ModelSpec viaArticulate = read(json::parse(formatJson(specToJson(fromSv2))));
      const json back = json::parse(formatJson(specToSpatialV2(viaArticulate)));
      for (int i = 0; i < c["model"]["NB"].get<int>(); ++i) {
        for (const char* f : {"Xtree", "I"}) {
          const json& a = c["model"][f][i];
          const json& b = back[f][i];
          for (std::size_t r = 0; r < a.size(); ++r)
            for (std::size_t k = 0; k < a[r].size(); ++k)
              QVERIFY2(std::abs(a[r][k].get<double>() - b[r][k].get<double>()) <= 1e-15,
                       qPrintable(QString::fromStdString(c["name"].get<std::string>()) + " " + f));
        }
      }
    }
  }
};

ARTICULATE_TEST_MAIN(TestFormat)
#include "test_format.moc"
