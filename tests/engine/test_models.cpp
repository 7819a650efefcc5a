// The example models of models/: every file loads, compiles, is in the canonical form and
// round-trips, has a one-line description, draws without problems, gives finite dynamics for a
// second of motion, and is listed in models/README.md; the generated ones are reproduced
// exactly by their documented generator (the C++ functions, and articulate-cli itself). Files
// of kind "rigid_body" (one free body) go through the same checks with the rigid-body API.
#include <QtTest>

#include "test_main.h"

#include <cmath>
#include <functional>

#include "articulate/model/appearance.h"
#include "articulate/dynamics/configuration.h"
#include "articulate/dynamics/dynamics.h"
#include "articulate/formats/floating_base.h"
#include "articulate/formulations/generators.h"
#include "articulate/model/model.h"
#include "articulate/formats/document.h"
#include "articulate/formats/files.h"
#include "articulate/formulations/rigid_body.h"
#include "articulate/formats/structure.h"
#include "articulate/formulations/tree_simulation.h"

using namespace art;

namespace {

const QString kModels = QStringLiteral(ARTICULATE_MODELS_DIR);

// A generated file: the articulate-cli arguments documented in models/README.md (without
// "-o FILE") and the same model built by the generator functions the CLI calls (a tree, or a
// rigid body when `body` is set).
struct Generated {
  QString file;
  QString command;
  std::function<ModelSpec()> make;
  std::function<RigidBodySpec()> body = nullptr;
};

ModelSpec named(ModelSpec s, const std::string& name) {
  s.name = name;
  return s;
}

AutoTreeOptions treeOptions(int bodies, double branching = 1, double skew = 0, double taper = 1) {
  AutoTreeOptions o;
  o.bodies = bodies;
  o.branching = branching;
  o.skew = skew;
  o.taper = taper;
  return o;
}

const std::vector<Generated>& generated() {
  static const std::vector<Generated> list{
      {"planar2.json", "generate planar --bodies 2 --name planar2",
       [] { return named(planarChain(2), "planar2"); }},
      {"planar5.json", "generate planar --bodies 5 --name planar5",
       [] { return named(planarChain(5), "planar5"); }},
      {"double_pendulum.json", "generate doublependulum", [] { return doublePendulum(); }},
      {"autotree_chain7.json", "generate autotree --bodies 7 --name autotree_chain7",
       [] { return named(autoTree(treeOptions(7)), "autotree_chain7"); }},
      {"autotree_tree15.json",
       "generate autotree --bodies 15 --branching 2 --skew 0.7853981633974483 --taper 0.9 "
       "--name autotree_tree15",
       [] { return named(autoTree(treeOptions(15, 2, M_PI / 4, 0.9)), "autotree_tree15"); }},
      {"floatbase_tree.json",
       "generate autotree --bodies 5 --branching 2 --floating --gravity 0,0,0 --name "
       "floatbase_tree",
       [] {
         ModelSpec s = floatBase(autoTree(treeOptions(5, 2)));
         s.gravity = Vec3::Zero();
         return named(s, "floatbase_tree");
       }},
      {"gfx_example.json", "generate gfxexample", [] { return gfxExample(false); }},
      {"gfx_example_tracking.json", "generate gfxexample --tracking",
       [] { return gfxExample(true); }},
      {"vee.json", "generate vee", [] { return vee(); }},
      {"singlebody.json", "generate singlebody", [] { return singleBody(); }},
      {"scissor.json", "generate scissor", [] { return scissor(); }},
      {"double_elbow.json", "generate doubleelbow", [] { return doubleElbow(); }},
      {"rollingdisc.json", "generate rollingdisc --points 8", [] { return rollingDisc(8); }},
      {"bouncing_cylinder.json", "generate bouncingcylinder", nullptr,
       [] { return bouncingCylinder(0.1); }},
  };
  return list;
}

// the tree models; structures in natural coordinates ("kind": "structure") are checked by
// test_natural, and listed in models/README.md as checked below
QStringList modelFiles() {
  QStringList trees;
  for (const QString& f : QDir(kModels).entryList({"*.json"}, QDir::Files, QDir::Name))
    if (!natural::isStructureDocument(readJsonFile((kModels + "/" + f).toStdString()))) trees << f;
  return trees;
}

QStringList structureFiles() {
  QStringList out;
  for (const QString& f : QDir(kModels).entryList({"*.json"}, QDir::Files, QDir::Name))
    if (natural::isStructureDocument(readJsonFile((kModels + "/" + f).toStdString()))) out << f;
  return out;
}

QString readText(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return QString::fromUtf8(f.readAll());
}

void addFileRows() {
  QTest::addColumn<QString>("file");
  for (const QString& f : modelFiles()) QTest::newRow(qPrintable(f)) << f;
}

LoadedDocument loadAny(const QString& file) {
  return loadDocument((kModels + "/" + file).toStdString());
}

// the tree of a tree file; an empty spec for a rigid body
ModelSpec load(const QString& file) {
  const LoadedDocument d = loadAny(file);
  const auto* lm = std::get_if<LoadedModel>(&d);
  return lm ? lm->spec : ModelSpec{};
}

const RigidBodySpec* rigidBody(const LoadedDocument& d) { return std::get_if<RigidBodySpec>(&d); }

std::string description(const QString& file) {
  const LoadedDocument d = loadAny(file);
  return rigidBody(d) ? rigidBody(d)->description : std::get<LoadedModel>(d).spec.description;
}

// the canonical text of a generated file
std::string generatedText(const Generated& g) {
  if (g.body) {
    const RigidBodySpec spec = g.body();
    RigidBody check(spec);
    return formatJson(rigidBodyToJson(spec));
  }
  const ModelSpec spec = convertFloatingBases(g.make());
  compile(spec);
  return formatJson(specToJson(spec));
}

bool finite(const Eigen::MatrixXd& m) { return m.allFinite(); }

}  // namespace

class TestModels : public QObject {
  Q_OBJECT

 private slots:
  // the directory is there and holds the required examples (a missing directory cannot pass)
  void directoryHoldsTheExamples() {
    const QStringList files = modelFiles();
    QVERIFY2(files.size() >= 20, qPrintable(QString("%1 models in %2").arg(files.size()).arg(kModels)));
    for (const char* required :
         {"planar2", "planar5", "double_pendulum", "autotree_chain7", "autotree_tree15",
          "floatbase_tree", "gfx_example", "gfx_example_tracking", "vee", "singlebody", "scissor",
          "double_elbow", "rollingdisc", "fourbar", "slider_crank", "arm6", "quadruped",
          "helical_screw", "bouncing_cylinder"})
      QVERIFY2(files.contains(QString(required) + ".json"), required);
  }

  // loads without problems, compiles, is written in the canonical form, and
  // formatJson(specToJson(spec)) reads back to the same text; one-line description
  void loadsAndRoundTrips_data() { addFileRows(); }
  void loadsAndRoundTrips() {
    QFETCH(QString, file);
    std::optional<LoadedDocument> document;
    try {
      document = loadAny(file);
    } catch (const std::exception& e) {
      QFAIL(e.what());
    }
    if (const RigidBodySpec* body = rigidBody(*document)) {
      QVERIFY2(!body->description.empty(), "no description");
      QVERIFY(body->description.find('\n') == std::string::npos);
      QVERIFY(!body->name.empty());
      try {
        RigidBody check(*body);
      } catch (const std::exception& e) {
        QFAIL(e.what());
      }
      const std::string first = formatJson(rigidBodyToJson(*body));
      QCOMPARE(QString::fromStdString(first), readText(kModels + "/" + file));
      RigidBodySpec back;
      Diagnostics problems;
      rigidBodyFromJson(parseJsonText(first, file.toStdString()), back, problems);
      QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().text().c_str());
      QCOMPARE(QString::fromStdString(formatJson(rigidBodyToJson(back))), QString::fromStdString(first));
      return;
    }
    const LoadedModel& lm = std::get<LoadedModel>(*document);
    QCOMPARE(QString::fromStdString(lm.format), QString("articulate-model"));
    QVERIFY(!lm.motion);
    const ModelSpec& spec = lm.spec;
    QVERIFY2(!spec.description.empty(), "no description");
    QVERIFY(spec.description.find('\n') == std::string::npos);
    QVERIFY(!spec.name.empty());
    QVERIFY(!spec.bodies.empty());
    try {
      compile(spec);
    } catch (const std::exception& e) {
      QFAIL(e.what());
    }
    const std::string first = formatJson(specToJson(spec));
    QCOMPARE(QString::fromStdString(first), readText(kModels + "/" + file));
    ModelSpec back;
    Diagnostics problems;
    specFromJson(parseJsonText(first, file.toStdString()), back, problems);
    QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().text().c_str());
    QCOMPARE(QString::fromStdString(formatJson(specToJson(back))), QString::fromStdString(first));
  }

  // every drawing instruction list interprets without a problem; every body with mass draws
  // something
  void appearanceIsValid_data() { addFileRows(); }
  void appearanceIsValid() {
    QFETCH(QString, file);
    const LoadedDocument document = loadAny(file);
    if (const RigidBodySpec* body = rigidBody(document)) {
      Diagnostics problems;
      interpretAppearance(body->baseAppearance, defaultBodyColour(0), true, "base_appearance",
                          &problems);
      const auto prims = interpretAppearance(body->effectiveAppearance(), defaultBodyColour(1),
                                             false, "appearance", &problems);
      QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().text().c_str());
      QVERIFY2(!prims.empty(), "the body draws nothing");
      return;
    }
    const ModelSpec spec = load(file);
    Diagnostics problems;
    interpretAppearance(spec.baseAppearance, defaultBodyColour(0), true, "base_appearance",
                        &problems);
    for (std::size_t i = 0; i < spec.bodies.size(); ++i) {
      const BodySpec& b = spec.bodies[i];
      const std::string path = "bodies[" + std::to_string(i) + "].appearance";
      const auto prims = interpretAppearance(b.appearance, defaultBodyColour(static_cast<int>(i) + 1),
                                             false, path, &problems);
      if (b.inertia.spatial()(5, 5) > 0)
        QVERIFY2(!prims.empty(), qPrintable("body '" + QString::fromStdString(b.name) + "' draws nothing"));
    }
    QStringList texts;
    for (const Diagnostic& d : problems) texts << QString::fromStdString(d.text());
    QVERIFY2(problems.empty(), qPrintable(texts.join("\n")));
  }

  // the unactuated accelerations at the initial state are finite, and so is one second of
  // motion (semi-implicit Euler, 1 ms steps); so are the contact points' positions and
  // velocities
  void oneSecondOfMotion_data() { addFileRows(); }
  void oneSecondOfMotion() {
    QFETCH(QString, file);
    const LoadedDocument document = loadAny(file);
    if (const RigidBodySpec* spec = rigidBody(document)) {
      // a rigid body: RK4 at 1 ms with its contact; finite, and never below its floor
      RigidBody body(*spec);
      for (int step = 0; step < 1000; ++step) {
        body.step(1e-3);
        const RigidBodyState& s = body.state();
        if (!s.position.allFinite() || !s.momentum.allFinite() || !s.angularMomentum.allFinite())
          QFAIL(qPrintable(QString("not finite after %1 s").arg((step + 1) * 1e-3)));
        QVERIFY(body.floorClearance() >= -1e-12);
      }
      return;
    }
    const Model model = compile(load(file));
    Data data(model);
    Eigen::VectorXd q = model.q0, qd = model.qd0;
    const Eigen::VectorXd tau = Eigen::VectorXd::Zero(model.nv());
    const bool contacts = !model.contacts.empty();
    QVERIFY(!contacts || model.arithmetic == Arithmetic::Spatial);
    if (contacts) QVERIFY(finite(contactPositionsVelocities(model, data, q, qd)));
    QVERIFY(finite(aba(model, data, q, qd, tau)));
    const double dt = 1e-3;
    for (int step = 0; step < 1000; ++step) {
      const Eigen::VectorXd& qdd = aba(model, data, q, qd, tau);
      qd += dt * qdd;
      integrateConfiguration(model, q, qd, dt, q);
      if (!q.allFinite() || !qd.allFinite())
        QFAIL(qPrintable(QString("not finite after %1 s").arg((step + 1) * dt)));
    }
    if (contacts) QVERIFY(finite(contactPositionsVelocities(model, data, q, qd)));
  }

  // a second of art::Simulation (RK4, 1 ms) with the model's constraints and ground contact
  // enforced: no divergence, the constraints hold to 1e-8, no contact point sinks 5 mm (trees;
  // oneSecondOfMotion runs the rigid bodies with their floor)
  void oneSecondSimulated_data() {
    QTest::addColumn<QString>("file");
    for (const QString& f : modelFiles())
      if (!rigidBody(loadAny(f))) QTest::newRow(qPrintable(f)) << f;
  }
  void oneSecondSimulated() {
    QFETCH(QString, file);
    const Model model = compile(load(file));
    Simulation sim(model, SimulationOptions{});
    Data data(model);
    double worstError = 0.0, lowest = 0.0;
    while (sim.time() < 1.0 - 1e-12) {
      QVERIFY2(sim.step(), sim.divergence() ? sim.divergence()->message.c_str() : "");
      worstError = std::max(worstError, sim.constraintError());
      if (!model.contacts.empty())
        lowest = std::min(lowest, contactPositionsVelocities(model, data, sim.q(), sim.qd())
                                      .row(2).minCoeff());
    }
    QVERIFY2(worstError < 1e-8, qPrintable(QString("constraint error %1").arg(worstError)));
    QVERIFY2(lowest > -5e-3, qPrintable(QString("a contact point sank to z = %1").arg(lowest)));
  }

  // models with contact points start on the floor (z = 0), not under it
  void contactsStartOnTheFloor_data() {
    QTest::addColumn<QString>("file");
    for (const QString& f : modelFiles())
      if (!load(f).contacts.empty()) QTest::newRow(qPrintable(f)) << f;
  }
  void contactsStartOnTheFloor() {
    QFETCH(QString, file);
    const Model model = compile(load(file));
    Data data(model);
    const auto pv = contactPositionsVelocities(model, data, model.q0, model.qd0);
    const double zmin = pv.row(2).minCoeff();
    QVERIFY2(zmin >= -1e-12 && zmin < 0.005, qPrintable(QString("lowest contact at z = %1").arg(zmin)));
  }

  // the generated files are exactly what their generator writes, descriptions included
  void generatedFilesAreReproduced_data() {
    QTest::addColumn<int>("index");
    for (std::size_t k = 0; k < generated().size(); ++k)
      QTest::newRow(qPrintable(generated()[k].file)) << static_cast<int>(k);
  }
  void generatedFilesAreReproduced() {
    QFETCH(int, index);
    const Generated& g = generated()[static_cast<std::size_t>(index)];
    // the files hold free joints where the generators build spatial_v2's six-joint floating
    // base: articulate-cli generate converts it
    QCOMPARE(QString::fromStdString(generatedText(g)), readText(kModels + "/" + g.file));
  }

  // models/README.md lists every file with its description and its command (or
  // "hand-written"), and the commands are the ones above
  void readmeListsEveryFile() {
    const QString readme = readText(kModels + "/README.md");
    QVERIFY(!readme.isEmpty());
    int commands = 0;
    for (const QString& file : modelFiles()) {
      const QString row =
          "| `" + file + "` | " + QString::fromStdString(description(file)) + " | ";
      const int at = readme.indexOf(row);
      QVERIFY2(at >= 0, qPrintable("no README row: " + row));
      const QString rest = readme.mid(at + row.size()).section('\n', 0, 0);
      const auto g = std::find_if(generated().begin(), generated().end(),
                                  [&](const Generated& x) { return x.file == file; });
      if (g == generated().end()) {
        QCOMPARE(rest, QString("hand-written |"));
      } else {
        QCOMPARE(rest, "`articulate-cli " + g->command + " -o models/" + file + "` |");
        ++commands;
      }
    }
    // structures: the same row, hand-written
    for (const QString& file : structureFiles()) {
      const natural::StructureSpec spec =
          natural::loadStructure((kModels + "/" + file).toStdString());
      const QString row = "| `" + file + "` | " + QString::fromStdString(spec.description) +
                          " | hand-written |";
      QVERIFY2(readme.contains(row), qPrintable("no README row: " + row));
    }
    QCOMPARE(commands, static_cast<int>(generated().size()));
    QCOMPARE(readme.count("`articulate-cli generate "), commands);
  }

  // articulate-cli runs the documented commands to the same bytes
  void cliReproducesGeneratedFiles_data() { generatedFilesAreReproduced_data(); }
  void cliReproducesGeneratedFiles() {
    QFETCH(int, index);
    if (!QFileInfo::exists(ARTICULATE_CLI)) QSKIP("articulate-cli is not built");
    const Generated& g = generated()[static_cast<std::size_t>(index)];
    QTemporaryDir dir;
    const QString out = dir.filePath(g.file);
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(ARTICULATE_CLI, QProcess::splitCommand(g.command) << "-o" << out);
    QVERIFY(p.waitForFinished(60000));
    QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0,
             qPrintable(QString::fromUtf8(p.readAll())));
    QCOMPARE(readText(out), readText(kModels + "/" + g.file));
  }

  // floatBase shifts body indices and keeps the rest; it refuses what spatial_v2 refuses
  void floatBaseShiftsIndices() {
    ModelSpec s = autoTree(treeOptions(3));
    s.camera.body = 2;
    s.contacts.push_back({1, Vec3(1, 0, 0)});
    ConstraintSpec c;
    c.joint = 2;
    c.master = 1;
    s.constraints.push_back(c);
    ConstraintSpec l;
    l.type = ConstraintSpec::Type::Loop;
    l.bodyA = 2;
    l.bodyB = -1;
    s.constraints.push_back(l);
    s.bodies[0].q0 = 0.5;
    const ModelSpec f = floatBase(s);
    QCOMPARE(f.bodies.size(), std::size_t(8));
    const char* types[] = {"Px", "Py", "Pz", "Rx", "Ry", "Rz", "Rz", "Rz"};
    for (int i = 0; i < 8; ++i) {
      QCOMPARE(QString::fromStdString(std::string(jointCode(f.bodies[i].joint.type))), QString(types[i]));
      QCOMPARE(f.bodies[i].parent, i - 1);
      if (i < 5) QVERIFY(f.bodies[i].inertia.spatial().isZero(0));
    }
    QCOMPARE(QString::fromStdString(f.bodies[5].name), QString::fromStdString(s.bodies[0].name));
    QCOMPARE(f.bodies[5].q0, 0.0);
    QCOMPARE(f.camera.body, 7);
    QCOMPARE(f.contacts[0].body, 6);
    QCOMPARE(f.constraints[0].joint, 7);
    QCOMPARE(f.constraints[0].master, 6);
    QCOMPARE(f.constraints[1].bodyA, 7);
    QCOMPARE(f.constraints[1].bodyB, -1);
    compile(f);
    // the floating body moves freely: H is 6x6 nonsingular for the body alone
    const Model m = compile(floatBase(autoTree(treeOptions(1))));
    Data d(m);
    const Eigen::MatrixXd H = crba(m, d, m.q0);
    QVERIFY(std::abs(H.determinant()) > 1e-12);

    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, floatBase(planarChain(2)));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, floatBase(ModelSpec{}));
    ModelSpec two = autoTree(treeOptions(2));
    two.bodies[1].parent = -1;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, floatBase(two));
    ModelSpec geared = autoTree(treeOptions(2));
    ConstraintSpec g;
    g.joint = 1;
    g.master = 0;
    geared.constraints.push_back(g);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, floatBase(geared));
  }

  // rollingdisc(npt): 2 npt contacts on the rim of a disc of the stated mass
  void rollingDiscNumbers() {
    for (int npt : {3, 8, 17}) {
      const ModelSpec s = rollingDisc(npt);
      QCOMPARE(s.contacts.size(), std::size_t(2 * npt));
      const BodySpec& disc = s.bodies[5];
      QCOMPARE(QString::fromStdString(disc.name), QString("disc"));
      QVERIFY(std::abs(disc.inertia.mass - M_PI * 0.05 * 0.05 * 0.01 * 3000) < 1e-15);
      for (const ContactPointSpec& c : s.contacts) {
        QCOMPARE(c.body, 5);
        QVERIFY(std::abs(std::hypot(c.point.x(), c.point.z()) - 0.05) < 1e-15);
        QCOMPARE(std::abs(c.point.y()), 0.005);
      }
    }
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, rollingDisc(2));
  }
};

ARTICULATE_TEST_MAIN(TestModels)
#include "test_models.moc"
