// articulate-cli end to end: conformance passes on the reference data, fails (exit 1) on a
// perturbed copy and reports bad input (exit 2); info and generate work; structures simulate.
#include <QtTest>

#include "articulate/model_io.h"

class TestCli : public QObject {
  Q_OBJECT

  static int run(const QStringList& args, QString* out = nullptr) {
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(ARTICULATE_CLI, args);
    if (!p.waitForFinished(120000)) return -1;
    if (out) *out = QString::fromUtf8(p.readAll());
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
  }

 private slots:
  void conformancePasses() {
    QString out;
    QCOMPARE(run({"conformance", ARTICULATE_TEST_DATA_DIR "/spatial_v2_cases.json"}, &out), 0);
    QVERIFY2(out.contains("33 cases, 3 trajectories"), qPrintable(out));
    QVERIFY(out.trimmed().endsWith("PASS"));
  }

  void conformanceFailsOnPerturbedData() {
    nlohmann::json doc = art::readJsonFile(ARTICULATE_TEST_DATA_DIR "/spatial_v2_cases.json");
    auto& v = doc["cases"][4]["outputs"]["ID_tau"][2];
    v = v.get<double>() * (1 + 1e-7) + 1e-7;
    QTemporaryDir dir;
    const QString path = dir.filePath("perturbed.json");
    art::writeFileAtomically(path.toStdString(), doc.dump());
    QString out;
    QCOMPARE(run({"conformance", path}, &out), 1);
    QVERIFY2(out.contains(QRegularExpression("ID_tau\\s+33\\s+\\S+\\s+FAIL")), qPrintable(out));
    QVERIFY(out.trimmed().endsWith("FAIL"));
  }

  void badInputExitsWithTwo() {
    QTemporaryDir dir;
    const QString path = dir.filePath("bad.json");
    art::writeFileAtomically(path.toStdString(), "{\"cases\": [ {\"name\": 1}");
    QString out;
    QCOMPARE(run({"conformance", path}, &out), 2);
    QVERIFY2(out.contains("is not valid JSON"), qPrintable(out));
    QCOMPARE(run({"info", path}, &out), 2);
  }

  // structures: simulate with Zhong06 (the default) or rk4, the trees' columns with q the
  // natural coordinates; a tree refuses zhong06; validate accepts the file
  void simulateStructure() {
    QTemporaryDir dir;
    const QString csv = dir.filePath("nc.csv");
    QString out;
    QCOMPARE(run({"simulate", ARTICULATE_MODELS_DIR "/natural_pendulum.json", "--duration", "0.5",
                  "--every", "10", "-o", csv}, &out), 0);
    QVERIFY2(out.contains("with zhong06 (500 steps, 8 coordinates, 6 constraints"), qPrintable(out));
    QFile f(csv);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(f.readAll()).trimmed().split('\n');
    QCOMPARE(lines.size(), 52);
    QCOMPARE(lines[0], QString("t,q0,q1,q2,q3,q4,q5,q6,q7,qd0,qd1,qd2,qd3,qd4,qd5,qd6,qd7,"
                               "kinetic,potential,total"));
    QCOMPARE(lines[1].split(',').size(), 20);
    QCOMPARE(run({"simulate", ARTICULATE_MODELS_DIR "/natural_pendulum.json", "--integrator",
                  "rk4", "-o", dir.filePath("rk4.json")}, &out), 0);
    QVERIFY2(out.contains("with rk4"), qPrintable(out));
    QCOMPARE(run({"simulate", ARTICULATE_MODELS_DIR "/double_pendulum.json", "--integrator",
                  "zhong06", "-o", dir.filePath("tree.csv")}, &out), 2);
    QCOMPARE(run({"validate", ARTICULATE_MODELS_DIR "/tensegrity_prism.json"}, &out), 0);
    QVERIFY2(out.contains("valid structure, 3 bodies, 0 joints, 9 apparatuses"), qPrintable(out));
  }

  // convert to URDF (chosen by the extension or --to) and back; validate and info read URDF;
  // a model URDF cannot describe exits 2 with the body and the reason, writing nothing
  void convertUrdf() {
    QTemporaryDir dir;
    const QString urdf = dir.filePath("arm6.urdf"), back = dir.filePath("back.json");
    QString out;
    QCOMPARE(run({"convert", ARTICULATE_MODELS_DIR "/arm6.json", urdf}, &out), 0);
    QVERIFY2(out.contains("wrote " + urdf + " (urdf, 6 bodies)"), qPrintable(out));
    QVERIFY2(out.contains("note: " + urdf + ": the camera is not stored"), qPrintable(out));
    QCOMPARE(run({"convert", urdf, back}, &out), 0);
    QVERIFY2(out.contains("wrote " + back + " (articulate-model, 6 bodies)"), qPrintable(out));
    QCOMPARE(art::readJsonFile(back.toStdString())["bodies"].size(), std::size_t{6});
    QCOMPARE(run({"convert", ARTICULATE_MODELS_DIR "/arm6.json", dir.filePath("arm6.xml"), "--to", "urdf"}, &out), 0);
    QFile xml(dir.filePath("arm6.xml"));
    QVERIFY(xml.open(QIODevice::ReadOnly));
    QVERIFY(xml.readAll().contains("<robot name=\"arm6\">"));
    QCOMPARE(run({"validate", urdf, ARTICULATE_TEST_DATA_DIR "/urdf/arm_fixture.urdf"}, &out), 0);
    QVERIFY2(out.contains(urdf + ": valid urdf, 6 bodies"), qPrintable(out));
    QVERIFY2(out.contains("arm_fixture.urdf: note: 1 fixed joint(s) merged"), qPrintable(out));
    QCOMPARE(run({"info", ARTICULATE_TEST_DATA_DIR "/urdf/arm_fixture.urdf"}, &out), 0);
    const QString screw = dir.filePath("screw.urdf");
    QCOMPARE(run({"convert", ARTICULATE_MODELS_DIR "/helical_screw.json", screw}, &out), 2);
    QVERIFY2(out.contains("its helical joint (H) has no URDF form"), qPrintable(out));
    QVERIFY(!QFileInfo::exists(screw));
    const QString broken = dir.filePath("broken.urdf");
    art::writeFileAtomically(broken.toStdString(), "<robot name='r'><link name='a'/><link name='b'/></robot>");
    QCOMPARE(run({"validate", broken}, &out), 1);
    QVERIFY2(out.contains("not a valid URDF document: Failed to find root link: Two root links found"),
             qPrintable(out));
  }

  void generateThenInfo() {
    QTemporaryDir dir;
    const QString path = dir.filePath("tree.json");
    QCOMPARE(run({"generate", "autotree", "--bodies", "5", "--branching", "2", "--axes", "Rz,Ry",
                  "-o", path}),
             0);
    QString out;
    QCOMPARE(run({"info", path}, &out), 0);
    QVERIFY2(out.contains("bodies: 5"), qPrintable(out));
    QVERIFY(out.contains("total mass 5 kg"));
    QVERIFY(out.contains("joint-space inertia H(q0)"));
    QCOMPARE(run({"generate", "autotree", "--axes", "Rq"}, &out), 2);
    QVERIFY(out.contains("'Rq' is not a spatial joint code"));
  }

  // a rigid_body model: generate, info, simulate (rk4 only) to CSV with the documented columns
  void rigidBody() {
    QTemporaryDir dir;
    const QString model = dir.filePath("cyl.json"), csv = dir.filePath("cyl.csv");
    QCOMPARE(run({"generate", "bouncingcylinder", "--height", "0.2", "-o", model}), 0);
    QString out;
    QCOMPARE(run({"info", model}, &out), 0);
    QVERIFY2(out.contains("shape: cylinder") && out.contains("mass 2 kg"), qPrintable(out));
    QCOMPARE(run({"simulate", model, "--duration", "0.5", "--dt", "1e-4", "--every", "100", "-o", csv},
                 &out),
             0);
    QVERIFY2(out.contains("(5000 steps)"), qPrintable(out));
    QFile f(csv);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(f.readAll()).trimmed().split('\n');
    QCOMPARE(lines.size(), 52);  // the header and samples at 0, 0.01, ..., 0.5 s
    QCOMPARE(lines[0], QString("t,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz,kinetic,potential,total"));
    const QStringList last = lines.back().split(',');
    QCOMPARE(last.size(), 17);
    QCOMPARE(last[0].toDouble(), 0.5);
    QVERIFY(last[3].toDouble() >= 0.03 - 1e-9);  // above the floor
    QCOMPARE(run({"simulate", model, "--integrator", "euler", "-o", csv}, &out), 2);
    QVERIFY2(out.contains("rk4 only"), qPrintable(out));
    QCOMPARE(run({"generate", "bouncingcylinder", "--format", "spatial_v2"}, &out), 2);
  }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
