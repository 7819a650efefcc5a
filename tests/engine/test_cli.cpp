// articulate-cli end to end: conformance passes on the reference data, fails (exit 1) on a
// perturbed copy and reports bad input (exit 2); info and generate work; structures simulate;
// dynamics prints H, bias and qdd that agree with each other.
#include <QtTest>

#include "test_main.h"

#include <array>
#include <csignal>
#include <cmath>
#include <fstream>
#include <random>

#include <nlohmann/json.hpp>

#include "articulate/formats/files.h"
#include "test_util.h"

namespace {

// the rows of a CSV file written by simulate: its header's names and the numbers
struct Csv {
  QStringList header;
  std::vector<std::vector<double>> rows;
  int column(const QString& name) const { return static_cast<int>(header.indexOf(name)); }
};

Csv readCsv(const QString& path) {
  Csv out;
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return out;
  const QStringList lines = QString::fromUtf8(f.readAll()).trimmed().split('\n');
  out.header = lines.value(0).split(',');
  for (int i = 1; i < lines.size(); ++i) {
    std::vector<double> row;
    for (const QString& x : lines[i].split(',')) row.push_back(x.toDouble());
    out.rows.push_back(row);
  }
  return out;
}

// joint angles and rates of the natural double pendulum's CSV row (two bar2d bodies, q =
// [r1; e1; r2; e2], qd their rates): the first bar's angle from x, the second's relative to
// it, and their rates (w = e x de/dt)
std::array<double, 4> pendulumJoints(const Csv& c, const std::vector<double>& row) {
  auto at = [&](const char* name) { return row[static_cast<std::size_t>(c.column(name))]; };
  const double a1 = std::atan2(at("q3"), at("q2")), a2 = std::atan2(at("q7"), at("q6"));
  const double w1 = at("q2") * at("qd3") - at("q3") * at("qd2");
  const double w2 = at("q6") * at("qd7") - at("q7") * at("qd6");
  return {a1, std::remainder(a2 - a1, 2 * M_PI), w1, w2 - w1};
}

// `doc` with every string value equal to `from` replaced by `to`: a body's name and the
// references to it
nlohmann::json renamed(nlohmann::json doc, const std::string& from, const std::string& to) {
  if (doc.is_string() && doc.get<std::string>() == from) return to;
  if (doc.is_structured())  // (a number or string iterates over itself)
    for (auto& child : doc) child = renamed(child, from, to);
  return doc;
}

// What is wrong with the tables of info's output: a table is a header line starting with "#"
// (one word per column) and its rows, up to a blank line. In every row each column must start
// at its header's offset, after at least two spaces, and every column but the last hold one
// word. Empty when the columns line up.
QString tableProblems(const QString& info) {
  const QStringList lines = info.split('\n');
  QString problems;
  int tables = 0;
  for (int h = 0; h < lines.size(); ++h) {
    if (!lines[h].startsWith("#")) continue;
    ++tables;
    QList<int> starts;  // each header word's offset
    for (int c = 0; c < lines[h].size(); ++c)
      if (lines[h][c] != ' ' && (c == 0 || lines[h][c - 1] == ' ')) starts << c;
    for (int r = h; r < lines.size() && !lines[r].isEmpty(); ++r) {
      const QString& row = lines[r];
      for (int k = 1; k < starts.size(); ++k) {
        const int at = starts[k];
        const QString before = row.mid(starts[k - 1], at - starts[k - 1]);
        if (row.size() <= at || row[at] == ' ' || !before.endsWith("  ") || before.trimmed().isEmpty() ||
            before.trimmed().contains(' '))
          problems += QString("column %1 (%2) of: %3\n").arg(k).arg(lines[h].mid(at).section(' ', 0, 0), row);
      }
    }
  }
  return tables ? problems : "no table in:\n" + info;
}

}  // namespace

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
  // Every command reads every kind of model through the one reader (formats/document.h):
  // each file of models/ (trees as Articulate and spatial_v2 JSON, rigid bodies, structures),
  // and a URDF written from one of them, is valid to validate, described by info, simulated,
  // and converted to the Articulate format, whose file describes the same model to info.
  void everyCommandReadsEveryModel() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QStringList files;
    for (const QFileInfo& f : QDir(ARTICULATE_MODELS_DIR).entryInfoList({"*.json", "*.urdf"}, QDir::Files))
      files << f.absoluteFilePath();
    QVERIFY2(files.size() >= 20, qPrintable(QString("only %1 models").arg(files.size())));
    const QString urdf = dir.filePath("arm6.urdf");
    QCOMPARE(run({"convert", ARTICULATE_MODELS_DIR "/arm6.json", urdf}), 0);
    files << urdf;
    QSet<QString> kinds;
    for (const QString& file : files) {
      const QByteArray name = QFileInfo(file).fileName().toUtf8();
      QString validate, info, simulate, convert, infoAgain;
      QVERIFY2(run({"validate", file}, &validate) == 0, name + ": " + validate.toUtf8());
      QVERIFY2(validate.contains(": valid "), name + ": " + validate.toUtf8());
      kinds << (validate.contains("valid structure") ? "structure"
                : validate.contains("rigid body")    ? "rigid body"
                                                     : "tree");
      QVERIFY2(run({"info", file}, &info) == 0, name + ": " + info.toUtf8());
      QVERIFY2(info.startsWith("model: "), name + ": " + info.toUtf8());
      const QString csv = dir.filePath(QString(name) + ".csv");
      QVERIFY2(run({"simulate", file, "--duration", "0.02", "-o", csv}, &simulate) == 0,
               name + ": " + simulate.toUtf8());
      const Csv c = readCsv(csv);
      QVERIFY2(c.rows.size() >= 2 && c.column("total") > 0, name.constData());
      for (const std::vector<double>& row : c.rows)
        for (double x : row) QVERIFY2(std::isfinite(x), name.constData());
      const QString converted = dir.filePath(QString(name) + ".articulate.json");
      QVERIFY2(run({"convert", file, converted, "--to", "articulate"}, &convert) == 0,
               name + ": " + convert.toUtf8());
      QVERIFY2(run({"info", converted}, &infoAgain) == 0, name + ": " + infoAgain.toUtf8());
      QCOMPARE(infoAgain, info);
    }
    QCOMPARE(kinds, (QSet<QString>{"tree", "rigid body", "structure"}));
  }

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
  // issue 31: NaN, infinities and absurd values are refused by every numeric option, naming
  // it, and no command writes its output over its input (named directly or through a link)
  void refusesNonFiniteOptionsAndOverwritingInputs() {
    const QString model = QString(ARTICULATE_MODELS_DIR) + "/double_pendulum.json";
    QTemporaryDir tmp;
    const QString csv = tmp.filePath("out.csv");
    const QList<QStringList> bad = {
        {"simulate", model, "-o", csv, "--duration", "nan"},   {"simulate", model, "-o", csv, "--duration", "inf"},
        {"simulate", model, "-o", csv, "--duration", "1e18"},  {"simulate", model, "-o", csv, "--dt", "1e-300"},
        {"simulate", model, "-o", csv, "--dt", "NaN"},         {"simulate", model, "-o", csv, "--rtol", "nan"},
        {"simulate", model, "-o", csv, "--atol", "-1"},        {"conformance", model, "--tolerance", "nan"},
        {"generate", "-o", csv, "autotree", "--taper", "nan"}, {"generate", "-o", csv, "autotree", "--branching", "nan"},
        {"generate", "-o", csv, "autotree", "--skew", "inf"}};
    for (const QStringList& args : bad) {
      QString out;
      QCOMPARE(run(args, &out), 105);  // CLI11's code for an option value it refuses (docs/cli.md)
      const QString option = args[args.size() - 2];
      QVERIFY2(out.contains(option) && (out.contains("not a finite number") || out.contains("outside")),
               qPrintable(args.join(' ') + " -> " + out));
      QVERIFY(!QFile::exists(csv));
    }
    // a 5 MB number is shortened in the message
    QString out;
    QCOMPARE(run({"simulate", model, "-o", csv, "--duration", QString(5000, '9')}, &out), 105);
    QVERIFY2(out.size() < 1000, qPrintable(out.left(200)));
    // more samples than the limit: refused before anything runs
    QCOMPARE(run({"simulate", model, "-o", csv, "--duration", "1e6", "--dt", "1e-6"}, &out), 2);
    QVERIFY2(out.contains("more than") && out.contains("--every"), qPrintable(out));
    // output over input
    const QString copy = tmp.filePath("dp.json"), link = tmp.filePath("link.json");
    QVERIFY(QFile::copy(model, copy));
    QVERIFY(QFile::link(copy, link));
    const auto bytes = [](const QString& path) {
      QFile f(path);
      f.open(QIODevice::ReadOnly);
      return f.readAll();
    };
    const QByteArray before = bytes(copy);
    for (const QString& target : {copy, link}) {
      QCOMPARE(run({"convert", copy, target}, &out), 2);
      QVERIFY2(out.contains("is the input file itself"), qPrintable(out));
      QCOMPARE(run({"simulate", copy, "-o", target}, &out), 2);
      QVERIFY2(out.contains("is the model file itself"), qPrintable(out));
    }
    QCOMPARE(bytes(copy), before);
    QCOMPARE(run({"simulate", copy, "-o", csv, "--duration", "0.01"}, &out), 0);  // elsewhere: fine
  }

  // issue 31: simulate streams its rows to the file and checks every write. Its peak memory
  // stays far below the size of what it writes, a write that fails (here a file-size limit)
  // ends it with exit 2 and the error while the target keeps its old bytes and no temporary
  // file is left, and a JSON output too large to build in memory is refused before it runs
  void simulateStreamsAndChecksItsWrites() {
    const QString model = QString(ARTICULATE_MODELS_DIR) + "/double_pendulum.json";
    QTemporaryDir tmp;
    const QString csv = tmp.filePath("big.csv");
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    // the child's peak resident memory, through Python's resource module (no shell involved);
    // measured in the release build only: ASan keeps freed memory in quarantine by design
#ifdef ARTICULATE_SANITIZED
    const bool measure = false;
#else
    const bool measure = true;
#endif
    p.start("/usr/bin/python3", {"-c",
                                 "import resource, subprocess, sys\n"
                                 "r = subprocess.run(sys.argv[1:]).returncode\n"
                                 "print('maxrss_kb', resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, 'rc', r)",
                                 ARTICULATE_CLI, "simulate", model, "-o", csv, "--duration", measure ? "300" : "20"});
    QVERIFY(p.waitForFinished(300000));
    const QString report = QString::fromUtf8(p.readAll());
    const QStringList words = report.trimmed().split(QRegularExpression("\\s+"));
    QVERIFY2(words.size() >= 4 && words[words.size() - 1] == "0", qPrintable(report));
    const double rssKb = words[words.indexOf("maxrss_kb") + 1].toDouble();
    const double fileKb = static_cast<double>(QFileInfo(csv).size()) / 1024;
    qInfo("simulate wrote %.1f MB with a peak resident memory of %.1f MB", fileKb / 1024, rssKb / 1024);
    if (measure) {
      QVERIFY2(fileKb > 40 * 1024, qPrintable(report));
      QVERIFY2(rssKb < fileKb / 3, qPrintable(report));
    }
    // a write that fails: the limit on file size (SIGXFSZ ignored, so write() returns EFBIG)
    const QString small = tmp.filePath("small.csv");
    {
      QFile f(small);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write("old\n");
    }
    p.start("/bin/bash", {"-c", "trap '' XFSZ; ulimit -f 512; exec \"$0\" \"$@\"", ARTICULATE_CLI, "simulate", model,
                          "-o", small, "--duration", "100"});
    QVERIFY(p.waitForFinished(300000));
    const QString error = QString::fromUtf8(p.readAll());
    QCOMPARE(p.exitCode(), 2);
    QVERIFY2(error.contains("error: ") && error.contains("small.csv"), qPrintable(error));
    QFile kept(small);
    QVERIFY(kept.open(QIODevice::ReadOnly));
    QCOMPARE(kept.readAll(), QByteArray("old\n"));
    QCOMPARE(QDir(tmp.path()).entryList(QDir::Files | QDir::Hidden).filter(".tmp").size(), 0);
    // JSON is built in memory: a run too large for it is refused before it starts
    QString out;
    QCOMPARE(run({"simulate", model, "-o", tmp.filePath("big.json"), "--duration", "10000"}, &out), 2);
    QVERIFY2(out.contains("more than a JSON output holds") && out.contains(".csv"), qPrintable(out));
  }

  // issue 31: no temporary file outlives its writer. One left by a process of this machine
  // that no longer runs is removed by the next write of the same file (a live writer's and
  // another machine's are kept), and SIGTERM or SIGINT during a write removes the writer's own
  void temporaryFilesDoNotOutliveTheirWriter() {
    const QString model = QString(ARTICULATE_MODELS_DIR) + "/double_pendulum.json";
    QTemporaryDir tmp;
    QProcess gone;
    gone.start("/bin/true", {});
    QVERIFY(gone.waitForFinished(10000));
    const qint64 deadPid = gone.processId() > 0 ? gone.processId() : 999999;
    QString host = QSysInfo::machineHostName();
    host.replace('/', '_').replace('@', '_');
    const QString csv = tmp.filePath("out.csv");
    const QString stale = csv + QString(".tmp-%1-1@%2").arg(deadPid).arg(host);
    const QString live = csv + QString(".tmp-%1-1@%2").arg(QCoreApplication::applicationPid()).arg(host);
    const QString elsewhere = csv + QString(".tmp-%1-1@another-machine").arg(deadPid);
    for (const QString& f : {stale, live, elsewhere}) {
      QFile file(f);
      QVERIFY(file.open(QIODevice::WriteOnly));
    }
    QString out;
    QCOMPARE(run({"simulate", model, "-o", csv, "--duration", "0.1"}, &out), 0);
    QVERIFY(!QFileInfo::exists(stale));
    QVERIFY(QFileInfo::exists(live) && QFileInfo::exists(elsewhere));
    // a signal during the write
    for (const int sig : {SIGTERM, SIGINT}) {
      const QString target = tmp.filePath(QString("long-%1.csv").arg(sig));
      QProcess p;
      p.start(ARTICULATE_CLI, {"simulate", model, "-o", target, "--duration", "50000"});
      QVERIFY(p.waitForStarted(10000));
      const auto pending = [&] {
        return QDir(tmp.path()).entryList({QFileInfo(target).fileName() + ".tmp-*"}, QDir::Files);
      };
      QElapsedTimer clock;
      clock.start();
      while (pending().isEmpty() && clock.elapsed() < 20000) QThread::msleep(20);
      QCOMPARE(pending().size(), 1);
      QThread::msleep(200);
      ::kill(static_cast<pid_t>(p.processId()), sig);
      QVERIFY(p.waitForFinished(20000));
      QCOMPARE(p.exitStatus(), QProcess::CrashExit);  // ended by the signal, as before
      QVERIFY2(pending().isEmpty(), qPrintable(pending().join(' ')));
      QVERIFY(!QFileInfo::exists(target));
    }
  }

  // issue 32: every command that reads a URDF takes --base; a legged robot (two legs reaching
  // below its root) floats by itself and stands on the ground, and `simulate` says when --q0
  // puts its feet inside the ground, by how much
  void baseAndFeetInsideTheGround() {
    QTemporaryDir dir;
    QString urdf = "<robot name='biped'><link name='pelvis'><inertial><mass value='5'/><inertia ixx='0.1' iyy='0.1' izz='0.1' ixy='0' ixz='0' iyz='0'/></inertial></link>";
    for (const QString side : {"left", "right"})
      urdf += "<link name='" + side + "'><inertial><mass value='1'/><inertia ixx='0.01' iyy='0.01' izz='0.01' ixy='0' ixz='0' iyz='0'/></inertial>"
              "<collision><origin xyz='0 0 -0.5'/><geometry><sphere radius='0.05'/></geometry></collision></link>"
              "<joint name='" + side + "_hip' type='revolute'><parent link='pelvis'/><child link='" + side + "'/><origin xyz='0 " +
              (side == "left" ? "0.1" : "-0.1") + " 0'/><axis xyz='0 1 0'/><limit lower='-1' upper='1' effort='1' velocity='1'/></joint>";
    urdf += "</robot>";
    const QString path = dir.filePath("biped.urdf");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(urdf.toUtf8());
    f.close();
    QString out;
    QCOMPARE(run({"info", path}, &out), 0);
    QVERIFY2(out.contains("free"), qPrintable(out));  // floats: two legs
    QCOMPARE(run({"info", path, "--base", "fixed"}, &out), 0);
    QVERIFY2(!out.contains("free"), qPrintable(out));
    QCOMPARE(run({"validate", path, "--base", "floating"}, &out), 0);
    QVERIFY2(out.contains("floats on a free joint (as asked"), qPrintable(out));
    QCOMPARE(run({"validate", path}, &out), 0);
    QVERIFY2(out.contains("the robot was raised by 0.55 m to stand on the ground"), qPrintable(out));
    const QString csv = dir.filePath("t.csv");
    // standing as opened: no note; 4 cm lower: the note says so
    QCOMPARE(run({"simulate", path, "--duration", "0.01", "-o", csv}, &out), 0);
    QVERIFY2(!out.contains("inside the ground"), qPrintable(out));
    QCOMPARE(run({"simulate", path, "--duration", "0.01", "--q0", "0,0,0.51,1,0,0,0,0,0", "-o", csv}, &out), 0);
    QVERIFY2(out.contains("the initial state puts 2 contact(s) more than 0.001 m deep, up to 0.04") &&
                 out.contains("m (ground in left#1): the soft contacts push them apart from the first step"),
             qPrintable(out));
    // the same with ground-contact points (converted so): the compliant ground yields there
    const QString points = dir.filePath("points.json");
    QCOMPARE(run({"convert", path, points, "--urdf-contact", "points"}, &out), 0);
    QCOMPARE(run({"simulate", points, "--duration", "0.01", "-o", csv}, &out), 0);
    QVERIFY2(!out.contains("inside the ground"), qPrintable(out));
    QCOMPARE(run({"simulate", points, "--duration", "0.01", "--q0", "0,0,0.51,1,0,0,0,0,0", "-o", csv}, &out), 0);
    QVERIFY2(out.contains("the initial state puts 2 ground-contact point(s) up to 0.04") &&
                 out.contains("m inside the ground: the ground yields there and lifts them out at 0.2 m/s"),
             qPrintable(out));
    QCOMPARE(run({"simulate", path, "--base", "welded", "-o", csv}, &out), 2);
    QVERIFY2(out.contains("--base: expected auto, fixed or floating, got 'welded'"), qPrintable(out));
  }

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

  // models/tree_double_pendulum.json and models/nc_double_pendulum.json through the CLI: the
  // tree with RK4 and the structure with Zhong06 (q the natural coordinates) give the same
  // joint angles and rates over 2 s. Tolerance: RK4 at 0.1 ms is exact here (its error,
  // O(h^4), is below 1e-10), so the difference is Zhong06's error; Zhong06 is second order,
  // and its error at h is estimated from the run at 2h by Richardson extrapolation as
  // |x(2h) - x(h)| / 3. The test allows twice that estimate (and asserts the estimate is small,
  // so that it means something).
  void doublePendulumBothWays() {
    QTemporaryDir dir;
    const QString tree = dir.filePath("tree.csv"), nc = dir.filePath("nc.csv"),
                  nc2 = dir.filePath("nc2.csv");
    QString out;
    QCOMPARE(run({"simulate", ARTICULATE_MODELS_DIR "/tree_double_pendulum.json", "--duration",
                  "2", "--dt", "1e-4", "--every", "1000", "-o", tree}, &out), 0);
    QVERIFY2(out.contains("with rk4 (20000 steps)"), qPrintable(out));
    QCOMPARE(run({"simulate", ARTICULATE_MODELS_DIR "/nc_double_pendulum.json", "--integrator",
                  "zhong06", "--duration", "2", "--dt", "1e-4", "--every", "1000", "-o", nc}, &out), 0);
    QVERIFY2(out.contains("with zhong06 (20000 steps, 8 coordinates, 6 constraints"), qPrintable(out));
    QCOMPARE(run({"simulate", ARTICULATE_MODELS_DIR "/nc_double_pendulum.json", "--integrator",
                  "zhong06", "--duration", "2", "--dt", "2e-4", "--every", "500", "-o", nc2}, &out), 0);
    const Csv t = readCsv(tree), n = readCsv(nc), n2 = readCsv(nc2);
    QCOMPARE(t.header.join(','), QString("t,q0,q1,qd0,qd1,kinetic,potential,total"));
    QCOMPARE(n.header.join(','), QString("t,q0,q1,q2,q3,q4,q5,q6,q7,qd0,qd1,qd2,qd3,qd4,qd5,qd6,qd7,"
                                         "kinetic,potential,total"));
    QCOMPARE(t.rows.size(), std::size_t{21});
    QCOMPARE(n.rows.size(), t.rows.size());
    QCOMPARE(n2.rows.size(), t.rows.size());
    double worst = 0, estimate = 0, largest = 0;
    for (std::size_t i = 0; i < t.rows.size(); ++i) {
      QCOMPARE(n.rows[i][0], t.rows[i][0]);
      const auto a = pendulumJoints(n, n.rows[i]), a2 = pendulumJoints(n2, n2.rows[i]);
      for (int k = 0; k < 4; ++k) {
        const double tree_k = t.rows[i][1 + k];
        const double diff = k < 2 ? std::remainder(a[k] - tree_k, 2 * M_PI) : a[k] - tree_k;
        const double richardson =
            (k < 2 ? std::abs(std::remainder(a2[k] - a[k], 2 * M_PI)) : std::abs(a2[k] - a[k])) / 3;
        worst = std::max(worst, std::abs(diff) - 2 * richardson);
        largest = std::max(largest, std::abs(diff));
        estimate = std::max(estimate, richardson);
      }
      if (i == 0) {  // the same initial state
        for (int k = 0; k < 4; ++k) QVERIFY(std::abs(a[k] - t.rows[0][1 + k]) < 1e-12);
        // and the same energy (the same masses, lengths and inertias)
        QVERIFY(std::abs(n.rows[0].back() - t.rows[0].back()) < 1e-12);
      }
    }
    qInfo("tree (rk4) vs natural (zhong06) at 0.1 ms over 2 s: largest difference %g (rad, "
          "rad/s), largest Richardson estimate %g", largest, estimate);
    QVERIFY2(estimate < 1e-3, qPrintable(QString::number(estimate)));
    QVERIFY2(worst <= 1e-9, qPrintable(QString::number(worst)));
  }

  // --constraint-forces: one column per constraint row named by the system (structures: body
  // intrinsic rows, then joint rows; trees: loop rows), JSON arrays `constraints` and `lambda`;
  // nothing added for a system without constraints. The natural pendulum at rest hanging
  // straight down holds its weight: the shoulder's vertical row carries both links' weight.
  void constraintForceColumns() {
    QTemporaryDir dir;
    const QString csv = dir.filePath("l.csv"), json = dir.filePath("l.json");
    QString out;
    QCOMPARE(run({"simulate", ARTICULATE_MODELS_DIR "/nc_double_pendulum.json", "--duration",
                  "0.01", "--constraint-forces", "-o", csv}, &out), 0);
    const Csv c = readCsv(csv);
    QCOMPARE(c.header.mid(19).join(','),
             QString("total,link1.intrinsic[0],link2.intrinsic[0],shoulder[0],shoulder[1],"
                     "elbow[0],elbow[1]"));
    QCOMPARE(c.rows[0].size(), std::size_t{26});
    // hanging at rest: q = r1, e1, r2, e2 straight down
    QCOMPARE(run({"simulate", ARTICULATE_MODELS_DIR "/nc_double_pendulum.json", "--duration",
                  "0.01", "--constraint-forces", "--q0", "0,0,0,-1,0,-1,0,-1", "--qd0",
                  "0,0,0,0,0,0,0,0", "-o", json}, &out), 0);
    const nlohmann::json doc = art::readJsonFile(json.toStdString());
    QCOMPARE(doc["constraints"].size(), std::size_t{6});
    QCOMPARE(doc["constraints"][3].get<std::string>(), std::string("shoulder[1]"));
    QCOMPARE(doc["lambda"].size(), doc["t"].size());
    // G' lambda is the constraint's force on the egg: the ground holds both links up with
    // (1 + 0.5) kg x 9.81 m/s^2, the elbow holds link2 with 0.5 x 9.81 (y rows)
    const auto& l0 = doc["lambda"][0];
    QVERIFY2(std::abs(std::abs(l0[3].get<double>()) - 1.5 * 9.81) < 1e-9, qPrintable(QString::fromStdString(l0.dump())));
    QVERIFY(std::abs(std::abs(l0[5].get<double>()) - 0.5 * 9.81) < 1e-9);
    QVERIFY(std::abs(l0[2].get<double>()) < 1e-9 && std::abs(l0[4].get<double>()) < 1e-9);
    // a tree with a loop names its rows; one without constraints gets no columns
    QCOMPARE(run({"simulate", ARTICULATE_MODELS_DIR "/fourbar.json", "--duration", "0.01",
                  "--constraint-forces", "-o", csv}, &out), 0);
    QVERIFY2(readCsv(csv).header.join(',').endsWith("total,coupler-rocker pin.x,coupler-rocker pin.y"),
             qPrintable(readCsv(csv).header.join(',')));
    QCOMPARE(run({"simulate", ARTICULATE_MODELS_DIR "/tree_double_pendulum.json", "--duration",
                  "0.01", "--constraint-forces", "-o", csv}, &out), 0);
    QVERIFY(readCsv(csv).header.join(',').endsWith(",total"));
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
    // a URDF's collision geometry: geoms by default, ground-contact points with --urdf-contact
    // points (of a floating robot); the option is for URDF files only
    const QString legged = dir.filePath("legged.urdf");
    std::string legs = "<robot name='legged'><link name='trunk'><inertial><mass value='2'/><inertia ixx='0.1' iyy='0.1' izz='0.1' ixy='0' ixz='0' iyz='0'/></inertial>"
                       "<collision><geometry><box size='0.4 0.2 0.1'/></geometry></collision></link>";
    for (const char* leg : {"a", "b"})
      legs += std::string("<link name='") + leg + "'><inertial><mass value='0.2'/><inertia ixx='0.01' iyy='0.01' izz='0.01' ixy='0' ixz='0' iyz='0'/></inertial>"
              "<collision><origin xyz='0 0 -0.3'/><geometry><sphere radius='0.02'/></geometry></collision></link>"
              "<joint name='" + leg + "_hip' type='revolute'><parent link='trunk'/><child link='" + leg + "'/><origin xyz='" +
              (leg[0] == 'a' ? "0.15" : "-0.15") + " 0 0'/><axis xyz='0 1 0'/><limit lower='-1' upper='1' effort='5' velocity='5'/></joint>";
    art::writeFileAtomically(legged.toStdString(), legs + "</robot>");
    const QString geoms = dir.filePath("geoms.json"), points = dir.filePath("points.json");
    QCOMPARE(run({"convert", legged, geoms}, &out), 0);
    QVERIFY2(out.contains("3 collision geometries collide with each other and with the ground plane z = 0"), qPrintable(out));
    const nlohmann::json withGeoms = art::readJsonFile(geoms.toStdString());
    QCOMPARE(withGeoms["geoms"].size(), std::size_t{4});
    QVERIFY(!withGeoms.contains("contacts"));
    QCOMPARE(run({"convert", legged, points, "--urdf-contact", "points"}, &out), 0);
    const nlohmann::json withPoints = art::readJsonFile(points.toStdString());
    QCOMPARE(withPoints["contacts"].size(), std::size_t{8 + 2});  // the trunk's corners, two feet
    QVERIFY(!withPoints.contains("geoms"));
    QCOMPARE(run({"convert", ARTICULATE_MODELS_DIR "/arm6.json", dir.filePath("x.json"), "--urdf-contact", "points"}, &out), 2);
    QVERIFY2(out.contains("--urdf-contact: for URDF files only"), qPrintable(out));
    QVERIFY(run({"convert", legged, dir.filePath("y.json"), "--urdf-contact", "hull"}, &out) != 0);
    QVERIFY2(out.contains("--urdf-contact"), qPrintable(out));
    const QString broken = dir.filePath("broken.urdf");
    art::writeFileAtomically(broken.toStdString(), "<robot name='r'><link name='a'/><link name='b'/></robot>");
    QCOMPARE(run({"validate", broken}, &out), 1);
    QVERIFY2(out.contains("not a valid URDF document: Failed to find root link: Two root links found"),
             qPrintable(out));
  }

  // dynamics: coordinates in q order with their joints, and H, bias and qdd that agree with
  // each other (H qdd + bias = tau: CRBA, RNEA and ABA are three algorithms); a URDF's base
  // chosen by --base (auto floats a robot whose root is not 'world'); bad input exits 2
  void dynamics() {
    QTemporaryDir dir;
    QString out;
    for (const QString& model : {QString(ARTICULATE_MODELS_DIR "/arm6.json"), QString(ARTICULATE_MODELS_DIR "/floatbase_tree.json")}) {
      QCOMPARE(run({"dynamics", model, "--json"}, &out), 0);
      const nlohmann::json d = nlohmann::json::parse(out.toStdString());
      const int nq = d["nq"], nv = d["nv"];
      // a random state and force
      std::mt19937 rng(5);
      const Eigen::VectorXd q = testutil::randomVector(nq, rng), qd = testutil::randomVector(nv, rng),
                            tau = testutil::randomVector(nv, rng);
      auto text = [](const Eigen::VectorXd& v) {
        QStringList parts;
        for (Eigen::Index k = 0; k < v.size(); ++k) parts << QString::number(v(k), 'g', 17);
        return parts.join(',');
      };
      QCOMPARE(run({"dynamics", model, "--q", text(q), "--qd", text(qd), "--tau", text(tau), "--json"}, &out), 0);
      const nlohmann::json e = nlohmann::json::parse(out.toStdString());
      Eigen::MatrixXd H(nv, nv);
      Eigen::VectorXd bias(nv), qdd(nv);
      for (int r = 0; r < nv; ++r) {
        bias(r) = e["bias"][static_cast<std::size_t>(r)];
        qdd(r) = e["qdd"][static_cast<std::size_t>(r)];
        for (int c = 0; c < nv; ++c) H(r, c) = e["H"][static_cast<std::size_t>(r)][static_cast<std::size_t>(c)];
      }
      QVERIFY2(testutil::relErr(H * qdd + bias, tau) < 1e-10, qPrintable(model));
      QVERIFY((H - H.transpose()).cwiseAbs().maxCoeff() == 0);
      int positions = 0;
      for (const auto& c : e["coordinates"]) positions += c["size"].get<int>();
      QCOMPARE(positions, nq);
    }
    // a free joint's q: x y z, then the quaternion w x y z (normalised)
    QCOMPARE(run({"dynamics", ARTICULATE_MODELS_DIR "/floatbase_tree.json", "--json"}, &out), 0);
    nlohmann::json f = nlohmann::json::parse(out.toStdString());
    const int floatNq = f["nq"];
    QCOMPARE(f["coordinates"][0]["type"].get<std::string>(), std::string("free"));
    QCOMPARE(f["coordinates"][0]["size"].get<int>(), 7);
    QCOMPARE(f["coordinates"][0]["velocity_size"].get<int>(), 6);
    // URDF: the joint names of the file; the base as asked
    const QString urdf = dir.filePath("arm6.urdf");
    QCOMPARE(run({"convert", ARTICULATE_MODELS_DIR "/arm6.json", urdf}, &out), 0);
    QCOMPARE(run({"dynamics", urdf, "--json"}, &out), 0);  // its root is 'world': fixed
    f = nlohmann::json::parse(out.toStdString());
    QCOMPARE(f["nv"].get<int>(), 6);
    QVERIFY2(f["coordinates"][0]["joint"].get<std::string>().rfind("_joint") != std::string::npos, out.toUtf8().constData());
    QCOMPARE(run({"dynamics", ARTICULATE_TEST_DATA_DIR "/urdf/arm_fixture.urdf", "--base", "floating", "--json"}, &out), 0);
    f = nlohmann::json::parse(out.toStdString());
    QCOMPARE(f["coordinates"][0]["type"].get<std::string>(), std::string("free"));
    QCOMPARE(f["coordinates"][0]["joint"].get<std::string>(), std::string(""));
    QCOMPARE(f["coordinates"][1]["joint"].get<std::string>(), std::string("shoulder_yaw"));
    QCOMPARE(run({"dynamics", ARTICULATE_TEST_DATA_DIR "/urdf/arm_fixture.urdf"}, &out), 0);
    QVERIFY2(out.contains("shoulder: joint 'shoulder_yaw', Rz, 1 position(s)") && out.contains("\nH:\n"), qPrintable(out));
    // bad input
    QCOMPARE(run({"dynamics", ARTICULATE_MODELS_DIR "/arm6.json", "--q", "1,2"}, &out), 2);
    QVERIFY2(out.contains("--q: expected 6 numbers, got 2"), qPrintable(out));
    QCOMPARE(run({"dynamics", ARTICULATE_MODELS_DIR "/arm6.json", "--qd", "1,x,3,4,5,6"}, &out), 2);
    QVERIFY2(out.contains("--qd: 'x' is not a number"), qPrintable(out));
    QCOMPARE(run({"dynamics", ARTICULATE_MODELS_DIR "/arm6.json", "--base", "fixed"}, &out), 2);
    QVERIFY2(out.contains("--base: for URDF files only"), qPrintable(out));
    QCOMPARE(run({"dynamics", urdf, "--base", "hovering"}, &out), 2);
    QVERIFY2(out.contains("--base: expected auto, fixed or floating, got 'hovering'"), qPrintable(out));
    QCOMPARE(run({"dynamics", ARTICULATE_MODELS_DIR "/natural_fourbar.json"}, &out), 2);
    QVERIFY2(out.contains("dynamics is for kinematic trees"), qPrintable(out));
    QCOMPARE(run({"dynamics", ARTICULATE_MODELS_DIR "/floatbase_tree.json", "--q", "0,0,0,0,0,0,0" + QString(",0").repeated(floatNq - 7)}, &out), 2);
    QVERIFY2(out.contains("quaternion of body"), qPrintable(out));
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

  // issue 31: the CLI under a limit on its address space (ulimit -v, KiB), so that a model that
  // needs too much memory fails fast instead of swapping
  static int runLimited(long kib, const QStringList& args, QString* out) {
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start("/bin/bash", QStringList{"-c", QString("ulimit -v %1; exec \"$0\" \"$@\"").arg(kib), ARTICULATE_CLI} + args);
    if (!p.waitForFinished(120000)) return -1;
    if (out) *out = QString::fromUtf8(p.readAll());
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
  }

  // issue 31: what validate accepts opens, within bounded memory. 8,000 joints import in 400 MB
  // (the import check built a dense 8,000 x 8,000 inertia matrix, twice: 1 GB); past the limit of
  // 10,000 bodies a model is refused in every format, naming the file and the limit
  void modelSizesAreBounded() {
#ifdef ARTICULATE_SANITIZED
    QSKIP("ulimit -v: a sanitizer build reserves terabytes of address space before main");
#endif
    QTemporaryDir tmp;
    const auto mjcf = [&](int n) {
      const QString path = tmp.filePath(QString("flat%1.xml").arg(n));
      QFile f(path);
      f.open(QIODevice::WriteOnly);
      f.write("<mujoco><worldbody>");
      for (int i = 0; i < n; ++i)
        f.write(QString("<body name=\"b%1\"><joint type=\"hinge\"/><geom type=\"sphere\" size=\"0.1\"/></body>").arg(i).toUtf8());
      f.write("</worldbody></mujoco>");
      return path;
    };
    QString out;
    const QString j8k = mjcf(8000);
    QCOMPARE(runLimited(400000, {"validate", j8k}, &out), 0);
    QVERIFY2(out.contains("valid mjcf, 8000 bodies"), qPrintable(out));
    QCOMPARE(runLimited(400000, {"validate", mjcf(20000)}, &out), 1);
    QVERIFY2(out.contains("flat20000.xml: ") && out.contains("20000 bodies, more than the 10000 a model may have"), qPrintable(out));
    // URDF: 10,001 links on the fixed base
    const QString urdf = tmp.filePath("many.urdf");
    {
      QFile f(urdf);
      f.open(QIODevice::WriteOnly);
      f.write("<robot name=\"r\"><link name=\"world\"/>");
      for (int i = 0; i < 10001; ++i)
        f.write(QString("<link name=\"l%1\"><inertial><mass value=\"1\"/><inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" "
                        "iyz=\"0\" izz=\"1\"/></inertial></link><joint name=\"j%1\" type=\"continuous\"><parent "
                        "link=\"world\"/><child link=\"l%1\"/></joint>").arg(i).toUtf8());
      f.write("</robot>");
    }
    QCOMPARE(runLimited(600000, {"validate", urdf}, &out), 1);
    QVERIFY2(out.contains("10001 bodies, more than the 10000 a model may have"), qPrintable(out));
    // Articulate JSON: 50,000 bodies were "valid" and could not be opened
    nlohmann::json doc = {{"format", "articulate-model"}, {"version", 1}, {"bodies", nlohmann::json::array()}};
    for (int i = 0; i < 50000; ++i)
      doc["bodies"].push_back({{"name", "b" + std::to_string(i)}, {"parent", "base"}, {"joint", "Rz"},
                               {"inertia", {{"mass", 1}, {"com", {0, 0, 0}}, {"about_com", {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}}}});
    const QString json = tmp.filePath("many.json");
    std::ofstream(json.toStdString()) << doc.dump();
    QCOMPARE(runLimited(1000000, {"validate", json}, &out), 1);
    QVERIFY2(out.contains("many.json: bodies: 50000 bodies, more than the 10000 a model may have"), qPrintable(out));
    QCOMPARE(runLimited(1000000, {"info", json}, &out), 2);
    QVERIFY2(out.contains("more than the 10000"), qPrintable(out));
  }

  // issue 31: running out of memory names the command and the file, not a bare std::bad_alloc
  // (info's workspace of a 10,000-joint chain is 1.6 GB; the limit leaves it 1 GB)
  void outOfMemoryNamesTheFile() {
#ifdef ARTICULATE_SANITIZED
    QSKIP("ulimit -v: a sanitizer build reserves terabytes of address space before main");
#endif
    QTemporaryDir tmp;
    const QString model = tmp.filePath("chain.json");
    QCOMPARE(run({"generate", "autotree", "--bodies", "10000", "--branching", "1", "-o", model}), 0);
    QString out;
    QCOMPARE(runLimited(1000000, {"info", model}, &out), 2);
    QVERIFY2(out.contains("error: " + model + ": ran out of memory: 'info'"), qPrintable(out));
    QVERIFY2(!out.contains("bad_alloc"), qPrintable(out));
  }


  // info's tables size their columns to the longest entry: long body and joint names (MJCF's
  // "lower_waist_abdomen_z", a tree's and a structure's long names) do not run into the next
  // column, whose every row starts at the header's offset
  void infoColumnsLineUp() {
    QTemporaryDir tmp;
    const std::string name = "a_very_long_body_name_indeed_123", joint = "a_very_long_joint_name_indeed_456";
    const QString tree = tmp.filePath("tree.json"), structure = tmp.filePath("structure.json");
    art::writeFileAtomically(
        tree.toStdString(), renamed(art::readJsonFile(ARTICULATE_MODELS_DIR "/tree_double_pendulum.json"), "link1", name).dump());
    art::writeFileAtomically(
        structure.toStdString(),
        renamed(renamed(art::readJsonFile(ARTICULATE_MODELS_DIR "/natural_pendulum.json"), "link1", name), "shoulder", joint)
            .dump());
    for (const QString& file : {QString(ARTICULATE_MODELS_DIR "/robots/mjcf_humanoid/humanoid.xml"), tree, structure}) {
      QString out;
      QVERIFY2(run({"info", file}, &out) == 0, qPrintable(out));
      const QString problems = tableProblems(out);
      QVERIFY2(problems.isEmpty(), qPrintable(file + ": the columns do not line up:\n" + problems));
    }
    QString out;  // both of a structure's tables were checked
    QCOMPARE(run({"info", structure}, &out), 0);
    QVERIFY2(out.count("\n#") == 2 && out.contains(QString::fromStdString(joint)), qPrintable(out));
  }

  // validate recognises a sweep file (docs/sweeps.md) and checks it with the sweep reader: the
  // shipped sweep is valid; a misspelled field, a pointer that names nothing in the base model
  // or a misspelled format is one problem naming the file and the field (not a model's
  // "unknown field" for each of the sweep's fields), exit 1
  void validateChecksSweeps() {
    QString out;
    const QString shipped = ARTICULATE_MODELS_DIR "/sweeps/double_pendulum_angles.json";
    QVERIFY2(run({"validate", shipped}, &out) == 0, qPrintable(out));
    QCOMPARE(out, shipped + ": valid articulate-sweep, 121 runs of ../tree_double_pendulum.json (2 parameters, 5 metrics)\n");
    QTemporaryDir tmp;
    const nlohmann::json good = art::readJsonFile(shipped.toStdString());
    const auto check = [&](const char* name, const char* patch, const QString& problem) {
      nlohmann::json doc = good;
      doc["model"] = ARTICULATE_MODELS_DIR "/tree_double_pendulum.json";
      doc.merge_patch(nlohmann::json::parse(patch));
      const QString file = tmp.filePath(name);
      art::writeFileAtomically(file.toStdString(), doc.dump(2));
      QString got;
      QVERIFY2(run({"validate", shipped, file}, &got) == 1, qPrintable(got));
      QVERIFY2(got.startsWith(shipped + ": valid articulate-sweep"), qPrintable(got));
      QVERIFY2(got.contains("\n" + file + ": " + problem), qPrintable(name + QString(": ") + got));
      QVERIFY2(got.endsWith("\n" + file + ": INVALID (1 problem)\n"), qPrintable(got));
      QVERIFY2(!got.contains("unknown field (expected one of: format, version, name"), qPrintable(got));
    };
    check("misspelled.json", R"({"metrics": null, "metric": ["energy_drift"]})",
          "unknown field 'metric' (expected format, version, model,");
    check("pointer.json", R"({"parameters": [{"name": "m", "pointer": "/bodies/5/inertia/mass", "values": [1]}]})",
          "parameters[0] 'm'.pointer: '/bodies/5/inertia/mass' names nothing in the model");
    check("format.json", R"({"format": "articulate-sweeps"})", "format: expected \"articulate-sweep\"");
  }

  // issue 31: messages with the right reason, the file, and values shortened
  void messagesNameTheFileAndTheReason() {
    QTemporaryDir tmp;
    QString out;
    // dynamics without --q uses the model's initial state, as docs/cli.md says: a free joint's
    // orientation [1e200 0 0 0] is the identity rotation (normalized() made it zero, and the
    // message blamed --q, which was not given)
    const QString huge = tmp.filePath("huge_quaternion.json");
    std::ofstream(huge.toStdString()) << R"({"format": "articulate-model", "version": 1, "bodies": [{"name": "a",
        "parent": "base", "joint": "free", "inertia": {"mass": 1, "com": [0, 0, 0], "about_com": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]},
        "initial": {"orientation": [1e200, 0, 0, 0]}}]})";
    QCOMPARE(run({"dynamics", huge}, &out), 0);
    QVERIFY2(out.contains("\nq: 0 0 0 1 0 0 0\n"), qPrintable(out));
    // conformance given a model file: not "0 cases"
    QCOMPARE(run({"conformance", ARTICULATE_MODELS_DIR "/arm6.json"}, &out), 2);
    QVERIFY2(out.contains("arm6.json: ") && out.contains("is not a conformance file"), qPrintable(out));
    // validate reports a missing mesh of an Articulate model, as convert does
    const QString mesh = tmp.filePath("mesh.json");
    std::ofstream(mesh.toStdString()) << R"({"format": "articulate-model", "version": 1, "bodies": [{"name": "a",
        "parent": "base", "joint": "Rz", "inertia": {"mass": 1, "com": [0, 0, 0], "about_com": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]},
        "appearance": ["mesh", {"file": "missing.stl"}]}]})";
    QCOMPARE(run({"validate", mesh}, &out), 0);
    QVERIFY2(out.contains(mesh + ": note: body 'a': a mesh is not drawn: ") && out.contains("missing.stl: no such mesh file"),
             qPrintable(out));
    // a 5 MB number is not echoed whole
    const QString big = tmp.filePath("big_number.json");
    std::ofstream(big.toStdString()) << R"({"format": "articulate-model", "version": 1, "bodies": [{"name": "a",
        "parent": "base", "joint": "Rz", "inertia": {"mass": 1)" << std::string(5000000, '0') << R"(, "com": [0, 0, 0],
        "about_com": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}}]})";
    QCOMPARE(run({"validate", big}, &out), 1);
    QVERIFY2(out.size() < 1000 && out.contains("number overflow") && out.contains("... (5000001 characters)"), qPrintable(out.left(1000)));
  }
};

ARTICULATE_TEST_MAIN(TestCli)
#include "test_cli.moc"
