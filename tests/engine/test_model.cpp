// Invalid trees give a ModelError naming the body and field; algorithms reject wrong sizes;
// spatial_v2 JSON import reports the JSON path; export -> import is lossless.
#include <QtTest>

#include "test_main.h"
#include <limits>

#include <atomic>
#include <functional>
#include <mutex>
#include <set>

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "articulate/dynamics/dynamics.h"
#include "articulate/formulations/generators.h"
#include "articulate/formats/document.h"
#include "articulate/formats/spatial_v2.h"
#include "articulate/formats/files.h"

using namespace art;
using Edit = std::function<void(ModelSpec&)>;
Q_DECLARE_METATYPE(Edit)

// fsync interposed: records which directories the process flushed while the test that asks
// records them, so that it can see that a save flushes the directory after its rename (and not
// only the file). The interposer is the whole bundle's (test_engine): other tests' threads
// (test_sweep's workers save results) call it too, so it records only while asked, under a lock
// (unguarded, those threads' inserts raced: a crash and a leak under ASan in test_sweep)
namespace {
std::set<std::string> g_fsyncedDirectories;
std::mutex g_fsyncMutex;
std::atomic<bool> g_recordFsync{false};
}
extern "C" int fsync(int fd) {
  using Real = int (*)(int);
  static const auto real = reinterpret_cast<Real>(dlsym(RTLD_NEXT, "fsync"));
  struct stat st;
  if (g_recordFsync.load() && fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    char link[64], target[4096];
    std::snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    const ssize_t n = readlink(link, target, sizeof target - 1);
    if (n > 0) {
      const std::lock_guard<std::mutex> lock(g_fsyncMutex);
      g_fsyncedDirectories.insert(std::string(target, static_cast<std::size_t>(n)));
    }
  }
  return real(fd);
}

namespace {
ModelSpec threeLinks() {
  AutoTreeOptions o;
  o.bodies = 3;
  return autoTree(o);
}
}  // namespace

class TestModel : public QObject {
  Q_OBJECT
 private slots:
  void invalidTrees_data() {
    QTest::addColumn<Edit>("edit");
    QTest::addColumn<QString>("message");
    QTest::newRow("parent order") << Edit([](ModelSpec& s) { s.bodies[1].parent = 2; })
                                  << "bodies[1].parent: 'link3' must come before its child";
    QTest::newRow("self parent") << Edit([](ModelSpec& s) { s.bodies[1].parent = 1; })
                                 << "bodies[1].parent: 'link2' must come before";
    QTest::newRow("unknown parent") << Edit([](ModelSpec& s) { s.bodies[2].parent = 7; })
                                    << "bodies[2].parent: index 7 is not a body";
    QTest::newRow("duplicate name") << Edit([](ModelSpec& s) { s.bodies[2].name = "link1"; })
                                    << "bodies[2].name: is used twice";
    QTest::newRow("empty name") << Edit([](ModelSpec& s) { s.bodies[0].name = ""; })
                                << "bodies[0].name: must not be empty";
    QTest::newRow("planar joint in spatial model")
        << Edit([](ModelSpec& s) { s.bodies[1].joint.type = JointType::PlanarR; })
        << "bodies[1].joint.type: 'r' is a planar joint in a spatial model";
    QTest::newRow("negative mass") << Edit([](ModelSpec& s) { s.bodies[0].inertia.mass = -1; })
                                   << "bodies[0].inertia.mass: must be >= 0, got -1";
    QTest::newRow("NaN mass") << Edit([](ModelSpec& s) { s.bodies[0].inertia.mass = std::numeric_limits<double>::quiet_NaN(); })
                              << "bodies[0].inertia.mass: is not finite";
    QTest::newRow("non-symmetric inertia")
        << Edit([](ModelSpec& s) { s.bodies[1].inertia.aboutCom(0, 1) = 0.5; })
        << "bodies[1].inertia.about_com: matrix is not symmetric";
    QTest::newRow("indefinite inertia")
        << Edit([](ModelSpec& s) { s.bodies[1].inertia.aboutCom(0, 0) = -0.5; })
        << "bodies[1].inertia.about_com: matrix is not positive semi-definite";
    QTest::newRow("triangle inequality")
        << Edit([](ModelSpec& s) { s.bodies[1].inertia.aboutCom = Vec3(0.1, 0.1, 1.0).asDiagonal(); })
        << "bodies[1].inertia.about_com: principal moments violate the triangle";
    QTest::newRow("raw non-symmetric") << Edit([](ModelSpec& s) {
      Mat6 I = s.bodies[2].inertia.spatial();
      I(0, 5) += 1;
      s.bodies[2].inertia = InertiaSpec::fromMatrix(I);
    }) << "bodies[2].inertia.matrix: matrix is not symmetric";
    QTest::newRow("raw indefinite") << Edit([](ModelSpec& s) {
      s.bodies[2].inertia = InertiaSpec::fromMatrix(-Mat6::Identity());
    }) << "bodies[2].inertia.matrix: matrix is not positive semi-definite";
    QTest::newRow("bad rotation")
        << Edit([](ModelSpec& s) { s.bodies[1].rotation(0, 0) = 2; })
        << "bodies[1].placement.rotation: is not a proper rotation matrix";
    QTest::newRow("reflection")
        << Edit([](ModelSpec& s) { s.bodies[1].rotation = -Mat3::Identity(); })
        << "bodies[1].placement.rotation: is not a proper rotation matrix";
    QTest::newRow("NaN placement")
        << Edit([](ModelSpec& s) { s.bodies[1].translation.x() = std::numeric_limits<double>::infinity(); })
        << "bodies[1].placement: contains NaN or Inf";
    QTest::newRow("gravity") << Edit([](ModelSpec& s) { s.gravity = Vec3(0, std::numeric_limits<double>::quiet_NaN(), 0); })
                             << "gravity: is not finite";
    QTest::newRow("contact body") << Edit([](ModelSpec& s) { s.contacts.push_back({5, Vec3::Zero()}); })
                                  << "contacts[0].body: is not a body";
  }
  void invalidTrees() {
    QFETCH(Edit, edit);
    QFETCH(QString, message);
    ModelSpec spec = threeLinks();
    compile(spec);  // valid before the edit
    edit(spec);
    try {
      compile(spec);
      QFAIL("expected a ModelError");
    } catch (const ModelError& e) {
      QVERIFY2(QString(e.what()).startsWith(message), e.what());
    }
  }

  void planarPlacementMustStayInPlane() {
    ModelSpec s = planarChain(2);
    s.bodies[1].translation.z() = 0.1;
    QVERIFY_THROWS_EXCEPTION(ModelError, compile(s));
    s = planarChain(2);
    s.bodies[1].rotation = rotxE(0.3);
    QVERIFY_THROWS_EXCEPTION(ModelError, compile(s));
  }

  void emptyModelIsValid() {
    const Model m = compile(ModelSpec{});
    Data d(m);
    const Eigen::VectorXd none(0);
    QCOMPARE(aba(m, d, none, none, none).size(), 0);
    QCOMPARE(energyMomentum(m, d, none, none).mass, 0.0);
  }

  void algorithmsCheckSizes() {
    const Model m = compile(threeLinks());
    Data d(m);
    const Eigen::VectorXd ok = Eigen::VectorXd::Zero(3), bad = Eigen::VectorXd::Zero(2);
    try {
      aba(m, d, ok, bad, ok);
      QFAIL("expected std::invalid_argument");
    } catch (const std::invalid_argument& e) {
      QCOMPARE(QString(e.what()), QString("aba: qd has size 2, the model needs 3"));
    }
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, rnea(m, d, ok, ok, bad));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, crba(m, d, bad));
    const Eigen::MatrixXd fext = Eigen::MatrixXd::Zero(3, 3);  // planar shape for a spatial model
    try {
      rnea(m, d, ok, ok, ok, &fext);
      QFAIL("expected std::invalid_argument");
    } catch (const std::invalid_argument& e) {
      QVERIFY(QString(e.what()).startsWith("rnea: fext is 3x3, the model needs 6x3"));
    }
  }

  void spatialV2ImportErrors_data() {
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("message");
    const QString ok = R"("Xtree":[[[1,0,0,0,0,0],[0,1,0,0,0,0],[0,0,1,0,0,0],[0,0,0,1,0,0],[0,0,0,0,1,0],[0,0,0,0,0,1]]],"I":[[[1,0,0,0,0,0],[0,1,0,0,0,0],[0,0,1,0,0,0],[0,0,0,1,0,0],[0,0,0,0,1,0],[0,0,0,0,0,1]]])";
    QTest::newRow("unknown joint") << R"({"NB":1,"parent":[0],"jtype":["Rq"],)" + ok + "}"
                                   << "jtype[0]: unknown joint code 'Rq'";
    QTest::newRow("parent after child") << R"({"NB":1,"parent":[1],"jtype":["R"],)" + ok + "}"
                                        << "parent[0]: must be from 0 to 0";
    QTest::newRow("wrong count") << R"({"NB":2,"parent":[0],"jtype":["R"],)" + ok + "}"
                                 << "parent: expected 2 entries (NB)";
    QTest::newRow("missing field") << R"({"NB":1,"parent":[0],"jtype":["R"]})"
                                   << "(document): missing field 'Xtree'";
    QTest::newRow("not a transform")
        << R"({"NB":1,"parent":[0],"jtype":["R"],"Xtree":[[[1,0,0,0,0,0],[0,1,0,0,0,0],[0,0,1,0,0,0],[0,0,0,1,0,0],[0,0,0,0,1,0],[0,0,0,0,0,2]]],"I":[[[1,0,0,0,0,0],[0,1,0,0,0,0],[0,0,1,0,0,0],[0,0,0,1,0,0],[0,0,0,0,1,0],[0,0,0,0,0,1]]]})"
        << "Xtree[0]: is not a Plücker coordinate transform";
    QTest::newRow("short row")
        << R"({"NB":1,"parent":[0],"jtype":["R"],"Xtree":[[[1,0,0,0,0,0],[0,1,0,0,0],[0,0,1,0,0,0],[0,0,0,1,0,0],[0,0,0,0,1,0],[0,0,0,0,0,1]]],"I":[]})"
        << "I: expected 1 entries (NB)";
    QTest::newRow("string in matrix")
        << R"({"NB":1,"parent":[0],"jtype":["R"],"Xtree":[[[1,0,0,0,0,0],[0,1,0,0,0,0],[0,0,"x",0,0,0],[0,0,0,1,0,0],[0,0,0,0,1,0],[0,0,0,0,0,1]]],"I":[[[1,0,0,0,0,0],[0,1,0,0,0,0],[0,0,1,0,0,0],[0,0,0,1,0,0],[0,0,0,0,1,0],[0,0,0,0,0,1]]]})"
        << "Xtree[0][2][2]: expected a number, got string";
    QTest::newRow("gravity size") << R"({"NB":1,"parent":[0],"jtype":["R"],)" + ok + R"(,"gravity":[0,1]})"
                                  << "gravity: expected 3 numbers";
    QTest::newRow("contact body") << R"({"NB":1,"parent":[0],"jtype":["R"],)" + ok + R"(,"gc":{"body":[2],"point":[[0,0,0]]}})"
                                  << "gc.body[0]: expected a body number from 1 to 1";
  }
  void spatialV2ImportErrors() {
    QFETCH(QString, json);
    QFETCH(QString, message);
    const auto doc = nlohmann::json::parse(json.toStdString());
    try {
      specFromSpatialV2(doc);
      QFAIL("expected a FormatError");
    } catch (const FormatError& e) {
      QVERIFY2(QString(e.what()).startsWith(message), e.what());
    }
  }

  // spatial_v2 JSON export then import gives the same compiled model, spatial and planar
  void spatialV2RoundTrip() {
    for (const ModelSpec& spec :
         {randomTree(9, 3, {JointType::Rx, JointType::Py, JointType::H, JointType::Rz}),
          randomTree(6, 4, {JointType::PlanarR, JointType::PlanarPx, JointType::PlanarPy})}) {
      const std::string text = specToSpatialV2(spec).dump();
      const ModelSpec back = specFromSpatialV2(nlohmann::json::parse(text));
      const Model a = compile(spec), b = compile(back);
      QCOMPARE(a.parent, b.parent);
      QCOMPARE(a.gravity, b.gravity);
      for (int i = 0; i < a.nb; ++i) {
        QCOMPARE(a.joints[i].type, b.joints[i].type);
        QCOMPARE(a.joints[i].pitch, b.joints[i].pitch);
        if (a.arithmetic == Arithmetic::Spatial) {
          QVERIFY((a.spatial.Xtree[i].matrix() - b.spatial.Xtree[i].matrix()).norm() < 1e-15);
          QVERIFY((a.spatial.I[i] - b.spatial.I[i]).norm() < 1e-15);
        } else {
          QVERIFY((a.planar.Xtree[i].matrix() - b.planar.Xtree[i].matrix()).norm() < 1e-15);
          QVERIFY((a.planar.I[i] - b.planar.I[i]).norm() < 1e-14);
        }
      }
    }
  }

  void atomicWrite() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("model.json").toStdString();
    writeFileAtomically(path, R"({"a": 1})");
    writeFileAtomically(path, R"({"a": 2})");
    QCOMPARE(readJsonFile(path)["a"].get<int>(), 2);
    // a failed save (the target is a directory) throws, names the file and leaves nothing behind
    const std::string sub = dir.filePath("sub").toStdString();
    QVERIFY(QDir().mkdir(QString::fromStdString(sub)));
    try {
      writeFileAtomically(sub, "x");
      QFAIL("expected std::runtime_error");
    } catch (const std::runtime_error& e) {
      QVERIFY2(QString(e.what()).startsWith(QString::fromStdString("cannot save '" + sub + "'")), e.what());
    }
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"model.json"});
    QCOMPARE(readJsonFile(path)["a"].get<int>(), 2);
  }

  void atomicWriteKeepsLinksPermissionsAndFlushesTheDirectory() {
    QTemporaryDir dir;
    const QString real = dir.filePath("real.json"), link = dir.filePath("link.json");
    writeFileAtomically(real.toStdString(), R"({"a": 1})");
    QVERIFY(::chmod(real.toLocal8Bit().constData(), 0640) == 0);
    QVERIFY(QFile::link("real.json", link));  // a relative link, as users make them
    {
      const std::lock_guard<std::mutex> lock(g_fsyncMutex);
      g_fsyncedDirectories.clear();
    }
    g_recordFsync = true;
    writeFileAtomically(link.toStdString(), R"({"a": 2})");
    g_recordFsync = false;
    // the link is still a link, and its target has the new bytes and the old permissions
    QVERIFY(QFileInfo(link).isSymLink());
    QCOMPARE(readJsonFile(link.toStdString())["a"].get<int>(), 2);
    struct stat st;
    QVERIFY(::stat(real.toLocal8Bit().constData(), &st) == 0);
    QCOMPARE(st.st_mode & 07777, 0640u);
    // the rename was made durable: the directory holding the target was flushed
    const QString canonical = QFileInfo(dir.path()).canonicalFilePath();
    {
      const std::lock_guard<std::mutex> lock(g_fsyncMutex);
      QVERIFY2(g_fsyncedDirectories.count(canonical.toStdString()) == 1,
               qPrintable("flushed directories: " + QString::number(g_fsyncedDirectories.size())));
    }
    // a new file gets 0666 less the umask, not a fixed 0644
    const mode_t old = ::umask(0007);
    writeFileAtomically(dir.filePath("new.json").toStdString(), "{}");
    ::umask(old);
    QVERIFY(::stat(dir.filePath("new.json").toLocal8Bit().constData(), &st) == 0);
    QCOMPARE(st.st_mode & 07777, 0660u);
    // a writer dropped before commit leaves the target as it was and no temporary behind
    {
      AtomicFile file(real.toStdString());
      file.write("{\"a\": 3");
    }
    QCOMPARE(readJsonFile(real.toStdString())["a"].get<int>(), 2);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::System).size(), 3);
  }

  void spatialV2AppearanceListsFollowShowmotion() {
    // showmotion draws bodies 1..NB from appearance.body: a longer list loads, and its unused
    // entries are named in a note (a shorter one is refused: test_malformed)
    const nlohmann::json eye = {{1, 0, 0, 0, 0, 0}, {0, 1, 0, 0, 0, 0}, {0, 0, 1, 0, 0, 0},
                                {0, 0, 0, 1, 0, 0}, {0, 0, 0, 0, 1, 0}, {0, 0, 0, 0, 0, 1}};
    const nlohmann::json box = {"box", {{0, 0, 0}, {1, 1, 1}}};
    nlohmann::json doc = {{"NB", 2}, {"parent", {0, 1}}, {"jtype", {"Rz", "Rx"}},
                          {"Xtree", {eye, eye}}, {"I", {eye, eye}},
                          {"appearance", {{"base", nlohmann::json::array()},
                                          {"body", nlohmann::json::array({box, box, box})}}}};
    Diagnostics problems;
    const auto loaded = readModelDocument(doc, problems);
    QVERIFY2(loaded && problems.empty(), problems.empty() ? "" : problems[0].text().c_str());
    QCOMPARE(loaded->notes.size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(loaded->notes[0]),
             QString("appearance.body: 3 entries for 2 bodies: the last 1 are not used (showmotion "
                     "draws bodies 1 to NB)"));
    QCOMPARE(loaded->spec.bodies[1].appearance, box);
    doc["appearance"]["body"] = nlohmann::json::array({box, box});
    QVERIFY(readModelDocument(doc, problems)->notes.empty());
  }

  void truncatedJsonNamesLineAndColumn() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("bad.json").toStdString();
    writeFileAtomically(path, "{\n  \"NB\": 2,\n  \"parent\": [0, ");
    try {
      loadModel(path);
      QFAIL("expected a FormatError");
    } catch (const FormatError& e) {
      QVERIFY2(QString(e.what()).contains("is not valid JSON (line 3"), e.what());
    }
  }
};

ARTICULATE_TEST_MAIN(TestModel)
#include "test_model.moc"
