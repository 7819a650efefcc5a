// articulate-cli end to end: conformance passes on the reference data, fails (exit 1) on a
// perturbed copy and reports bad input (exit 2); info and generate work.
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
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
