// Parameter sweeps (engine/batch/sweep.h, articulate-cli sweep): the table does not depend on
// threads, slicing or interruptions; a pendulum's period against the analytic one; seeded
// random values; divergence and invalid variants as rows; bad sweep files refused before any
// run, naming the parameter; run recordings; the Slurm script.
#include <signal.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include "test_main.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <fstream>
#include <set>

#include "articulate/batch/sweep.h"
#include "articulate/dynamics/contact.h"
#include "articulate/formats/document.h"
#include "articulate/formats/json.h"

using namespace art;
using json = nlohmann::json;

namespace {

QByteArray readAll(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("(missing " + path.toUtf8() + ")");
}

void writeJson(const QString& path, const json& j) {
  std::ofstream(path.toStdString()) << j.dump(2);
}

const std::string kSweepModels = ARTICULATE_MODELS_DIR;

// the double pendulum over a grid of 4 x 3 x 2 = 24 runs: the first initial angle, the second
// initial rate and a seeded random mass of the second link (a JSON Pointer into the model)
json doublePendulumSweep() {
  return {{"format", "articulate-sweep"},
          {"model", kSweepModels + "/tree_double_pendulum.json"},
          {"parameters",
           {{{"name", "theta1"}, {"initial_q", 0}, {"range", {{"from", -0.5}, {"to", 1.0}, {"count", 4}}}},
            {{"name", "omega2"}, {"initial_qd", 1}, {"values", {0.0, -2.0, 3.5}}},
            {{"name", "mass2"}, {"pointer", "/bodies/1/inertia/mass"}, {"random", {{"uniform", {0.3, 0.9}}, {"count", 2}}}}}},
          {"seed", 11},
          {"duration", 2.0},
          {"every", 20},
          {"metrics", {{{"max", "q1"}}, {{"min", "total"}}, {{"mean", "qd0"}}, "energy_drift"}}};
}

int runCli(const QStringList& args, QByteArray* output = nullptr) {
  QProcess p;
  p.setProcessChannelMode(QProcess::MergedChannels);
  p.start(ARTICULATE_CLI, args);
  if (!p.waitForFinished(240000)) return -1;
  if (output) *output = p.readAll();
  return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
}

long lineCount(const QString& dir) {
  long n = 0;
  for (const QString& f : QDir(dir + "/parts").entryList({"*.jsonl"}, QDir::Files)) {
    const QByteArray bytes = readAll(dir + "/parts/" + f);
    n += bytes.count('\n');
  }
  return n;
}

}  // namespace

class TestSweep : public QObject {
  Q_OBJECT

 private slots:
  // -j 1, -j 2 and three array tasks (one of them run in two goes) give the same bytes
  void independentOfThreadsAndTasks() {
    QTemporaryDir tmp;
    const QString file = tmp.filePath("dp.json");
    writeJson(file, doublePendulumSweep());
    const sweep::SweepSpec spec = sweep::readSweep(file.toStdString());
    QCOMPARE(spec.runs(), 24L);
    const std::string one = tmp.filePath("one").toStdString(), two = tmp.filePath("two").toStdString(),
                      tasks = tmp.filePath("tasks").toStdString();
    QVERIFY(!sweep::run(spec, one, {}, 1, nullptr).interrupted);
    sweep::collect(one);
    QVERIFY(!sweep::run(spec, two, {}, 2, nullptr).interrupted);
    sweep::collect(two);
    for (int k : {2, 0, 1}) QVERIFY(!sweep::run(spec, tasks, {k, 3}, k == 1 ? 2 : 1, nullptr).interrupted);
    const sweep::Collected c = sweep::collect(tasks);
    QCOMPARE(c.present, 24L);
    QCOMPARE(c.ok, 24L);
    for (const char* f : {"/results.csv", "/manifest.json", "/sweep.json"}) {
      QCOMPARE(readAll(QString::fromStdString(two) + f), readAll(QString::fromStdString(one) + f));
      QCOMPARE(readAll(QString::fromStdString(tasks) + f), readAll(QString::fromStdString(one) + f));
    }
    // the table has a row per run, in order, with the grid's values (last parameter fastest)
    const QList<QByteArray> rows = readAll(QString::fromStdString(one) + "/results.csv").trimmed().split('\n');
    QCOMPARE(rows.size(), 25);
    QCOMPARE(rows[0], QByteArray("run,theta1,omega2,mass2,status,end_time,steps,max(q1),min(total),mean(qd0),energy_drift,reason"));
    const QList<QByteArray> r7 = rows[8].split(',');  // run 7: theta1[1], omega2[0], mass2[1]
    QCOMPARE(r7[0], QByteArray("7"));
    QCOMPARE(r7[1].toDouble(), 0.0);
    QCOMPARE(r7[2].toDouble(), 0.0);
    QCOMPARE(r7[3].toDouble(), spec.parameters[2].values[1].get<double>());
    QCOMPARE(r7[4], QByteArray("ok"));
    QCOMPARE(r7[5].toDouble(), 2.0);
    QCOMPARE(r7[6], QByteArray("2000"));
  }

  // A sweep over initial states only steps kLanes runs together (sweep::vectorised): 21 runs,
  // one of them diverging beside the others, give the same bytes with -j 1, -j 2 and three
  // tasks (whose batches hold other runs), and the table of the one-run-at-a-time path
  // ("vectorise": false) to rounding: the same statuses, steps, end times and reasons
  void vectorisedSweeps() {
    QTemporaryDir tmp;
    json doc = doublePendulumSweep();
    doc["parameters"] = {{{"name", "theta1"}, {"initial_q", 0}, {"range", {{"from", -1.5}, {"to", 1.5}, {"count", 7}}}},
                         {{"name", "omega2"}, {"initial_qd", 1}, {"values", {0.0, 2.0, 1e200}}}};
    doc["metrics"] = {{{"max", "q1"}}, {{"min", "total"}}, {{"mean", "qd0"}}, {{"final", "kinetic"}}, {{"period", "q0"}}, "energy_drift"};
    writeJson(tmp.filePath("v.json"), doc);
    const sweep::SweepSpec spec = sweep::readSweep(tmp.filePath("v.json").toStdString());
    std::string why = "unset";
    QVERIFY2(sweep::vectorised(spec, &why), why.c_str());
    QVERIFY(why.empty());
    const std::string one = tmp.filePath("one").toStdString(), two = tmp.filePath("two").toStdString(),
                      tasks = tmp.filePath("tasks").toStdString();
    sweep::run(spec, one, {}, 1, nullptr);
    sweep::run(spec, two, {}, 2, nullptr);
    for (int k : {2, 0, 1}) sweep::run(spec, tasks, {k, 3}, 1, nullptr);
    const sweep::Collected c = sweep::collect(one);
    QCOMPARE(c.ok, 14L);
    QCOMPARE(c.diverged, 7L);
    sweep::collect(two);
    sweep::collect(tasks);
    QCOMPARE(readAll(QString::fromStdString(two) + "/results.csv"), readAll(QString::fromStdString(one) + "/results.csv"));
    QCOMPARE(readAll(QString::fromStdString(tasks) + "/results.csv"), readAll(QString::fromStdString(one) + "/results.csv"));
    // one run alone (as the app runs it again) gives its row's numbers bit for bit
    const std::optional<sweep::RunResult> alone = sweep::runOne(spec, 10, nullptr, "");
    QVERIFY(alone && alone->status == "ok");
    // the one-run-at-a-time path
    doc["vectorise"] = false;
    writeJson(tmp.filePath("s.json"), doc);
    const sweep::SweepSpec scalar = sweep::readSweep(tmp.filePath("s.json").toStdString());
    QVERIFY(!sweep::vectorised(scalar, &why));
    QVERIFY2(QString::fromStdString(why).contains("\"vectorise\": false"), why.c_str());
    const std::string apart = tmp.filePath("apart").toStdString();
    sweep::run(scalar, apart, {}, 2, nullptr);
    sweep::collect(apart);
    const QList<QByteArray> a = readAll(QString::fromStdString(one) + "/results.csv").trimmed().split('\n');
    const QList<QByteArray> b = readAll(QString::fromStdString(apart) + "/results.csv").trimmed().split('\n');
    QCOMPARE(a.size(), 22);
    QCOMPARE(b.size(), a.size());
    QCOMPARE(a[0], b[0]);
    const QList<QByteArray> header = a[0].split(',');
    for (int r = 1; r < a.size(); ++r) {
      const QList<QByteArray> x = a[r].split(','), y = b[r].split(',');
      QCOMPARE(x.size(), header.size());
      QCOMPARE(y.size(), header.size());
      for (int k = 0; k < header.size(); ++k) {
        if (header[k].contains('(') || header[k] == "energy_drift") {
          if (x[k].isEmpty() || y[k].isEmpty()) {
            QCOMPARE(x[k], y[k]);
            continue;
          }
          const double u = x[k].toDouble(), v = y[k].toDouble();
          QVERIFY2(std::abs(u - v) <= 1e-9 * std::max(1.0, std::abs(v)),
                   qPrintable(QString("run %1, %2: %3 vectorised, %4 one at a time").arg(r - 1).arg(QString(header[k])).arg(u).arg(v)));
        } else {
          QCOMPARE(x[k], y[k]);
        }
      }
      if (r - 1 == 10) {
        for (std::size_t k = 0; k < alone->metrics.size(); ++k) {
          const QByteArray cell = x[header.indexOf(QByteArray(spec.metrics[k].column().c_str()))];
          if (!alone->metrics[k]) QVERIFY(cell.isEmpty());
          else QVERIFY2(std::strtod(cell.constData(), nullptr) == *alone->metrics[k], cell.constData());
        }
      }
    }
    // what is not vectorised, and why
    const std::vector<std::pair<json, QString>> others = {
        {doublePendulumSweep(), "pointer"},
        {json{{"format", "articulate-sweep"}, {"model", kSweepModels + "/quadruped.json"}, {"duration", 0.01}}, "free and ball joints"},
        {json{{"format", "articulate-sweep"}, {"model", kSweepModels + "/tree_double_pendulum.json"}, {"duration", 0.01}, {"integrator", "dopri5"}}, "dopri5"},
        {json{{"format", "articulate-sweep"}, {"model", kSweepModels + "/bouncing_cylinder.json"}, {"duration", 0.01}}, "trees"}};
    for (const auto& [other, word] : others) {
      writeJson(tmp.filePath("o.json"), other);
      QVERIFY(!sweep::vectorised(sweep::readSweep(tmp.filePath("o.json").toStdString()), &why));
      QVERIFY2(QString::fromStdString(why).contains(word), why.c_str());
    }
  }

  // the shipped example sweeps read against their models, with the runs docs/sweeps.md says
  void shippedSweepsRead() {
    const sweep::SweepSpec s = sweep::readSweep(kSweepModels + "/sweeps/double_pendulum_angles.json");
    QCOMPARE(s.runs(), 121L);
    QCOMPARE(QString::fromStdString(s.model), QFileInfo(QString::fromStdString(kSweepModels + "/tree_double_pendulum.json")).canonicalFilePath());
    QCOMPARE(sweep::columns(s).size(), std::size_t(1 + 2 + 3 + 5 + 1));
  }

  // a pendulum released from rest at theta0 swings with T = T0 (1 + theta0^2/16 + 11 theta0^4/3072
  // + ...), T0 = 2 pi sqrt(I_pivot / (m g l)): the sweep's period metric over a grid of angles
  void pendulumPeriodMatchesSmallAngle() {
    QTemporaryDir tmp;
    const double m = 2.0, l = 0.8, Ic = 0.01, g = 9.81;
    const json model = {{"format", "articulate-model"}, {"version", 1}, {"name", "pendulum"}, {"kind", "tree"},
                        {"arithmetic", "planar"}, {"gravity", {0, -g}},
                        {"bodies", {{{"name", "bob"}, {"parent", "base"}, {"joint", "r"},
                                     {"inertia", {{"mass", m}, {"com", {0, -l}}, {"about_com", Ic}}}}}}};
    writeJson(tmp.filePath("pendulum.json"), model);
    writeJson(tmp.filePath("sweep.json"),
              {{"format", "articulate-sweep"}, {"model", "pendulum.json"},  // relative to the sweep file
               {"parameters", {{{"name", "theta0"}, {"initial_q", 0}, {"values", {0.01, 0.03, 0.1, 0.2}}}}},
               {"duration", 18.5}, {"dt", 1e-3}, {"integrator", "rk4"},
               {"metrics", {{{"period", "q0"}}, {{"max", "q0"}}, "energy_drift"}}});
    const sweep::SweepSpec spec = sweep::readSweep(tmp.filePath("sweep.json").toStdString());
    const double T0 = 2 * M_PI * std::sqrt((Ic + m * l * l) / (m * g * l));
    for (long run = 0; run < spec.runs(); ++run) {
      const auto r = sweep::runOne(spec, run, nullptr, "");
      QVERIFY(r && r->status == "ok");
      const double theta = spec.value(run, 0).get<double>();
      const double T = T0 * (1 + theta * theta / 16 + 11 * std::pow(theta, 4) / 3072);
      QVERIFY2(r->metrics[0].has_value(), "no period");
      QVERIFY2(std::abs(*r->metrics[0] - T) < 1e-6 * T0,
               qPrintable(QString("theta0 %1: period %2, analytic %3").arg(theta).arg(*r->metrics[0], 0, 'g', 12).arg(T, 0, 'g', 12)));
      QVERIFY(std::abs(*r->metrics[1] - theta) < 1e-6);  // released from rest: the amplitude
      QVERIFY(*r->metrics[2] < 1e-9);
      if (theta == 0.01) QVERIFY(std::abs(*r->metrics[0] / T0 - 1) < 1e-5);  // the small-angle period itself
    }
  }

  // random values come from the seed alone: the same seed, the same values and table; another
  // seed, other values; uniform ones inside their range, normal ones with their mean and spread
  void randomReproducesWithSeed() {
    QTemporaryDir tmp;
    json doc = doublePendulumSweep();
    doc["parameters"] = {{{"name", "u"}, {"initial_q", 0}, {"random", {{"uniform", {-1.0, 2.0}}, {"count", 2000}}}},
                         {{"name", "n"}, {"initial_qd", 0}, {"random", {{"normal", {0.5, 0.25}}, {"count", 2000}}}}};
    doc["combine"] = "zip";
    writeJson(tmp.filePath("a.json"), doc);
    const sweep::SweepSpec a = sweep::readSweep(tmp.filePath("a.json").toStdString());
    const sweep::SweepSpec b = sweep::readSweep(tmp.filePath("a.json").toStdString());
    doc["seed"] = 12;
    writeJson(tmp.filePath("c.json"), doc);
    const sweep::SweepSpec c = sweep::readSweep(tmp.filePath("c.json").toStdString());
    QCOMPARE(a.runs(), 2000L);
    double sum = 0, sum2 = 0;
    int differ = 0;
    for (long r = 0; r < a.runs(); ++r) {
      for (std::size_t p = 0; p < 2; ++p) {
        QCOMPARE(a.value(r, p).get<double>(), b.value(r, p).get<double>());  // bit for bit
        differ += a.value(r, p) != c.value(r, p);
      }
      const double u = a.value(r, 0).get<double>(), n = a.value(r, 1).get<double>();
      QVERIFY(u >= -1.0 && u < 2.0);
      sum += n;
      sum2 += n * n;
    }
    QCOMPARE(differ, 4000);
    const double mean = sum / 2000, sd = std::sqrt(sum2 / 2000 - mean * mean);
    QVERIFY2(std::abs(mean - 0.5) < 4 * 0.25 / std::sqrt(2000.0), qPrintable(QString::number(mean)));
    QVERIFY2(std::abs(sd - 0.25) < 0.02, qPrintable(QString::number(sd)));
    // the two parameters' streams are not the same numbers
    QVERIFY(a.value(0, 0) != a.value(0, 1));
    // and the same table twice (a few runs of it, shortened)
    doc["seed"] = 11;
    doc["duration"] = 0.2;
    doc["parameters"][0]["random"]["count"] = 6;
    doc["parameters"][1]["random"]["count"] = 6;
    writeJson(tmp.filePath("short.json"), doc);
    const sweep::SweepSpec s = sweep::readSweep(tmp.filePath("short.json").toStdString());
    sweep::run(s, tmp.filePath("r1").toStdString(), {}, 2, nullptr);
    sweep::run(s, tmp.filePath("r2").toStdString(), {}, 1, nullptr);
    sweep::collect(tmp.filePath("r1").toStdString());
    sweep::collect(tmp.filePath("r2").toStdString());
    QCOMPARE(readAll(tmp.filePath("r1/results.csv")), readAll(tmp.filePath("r2/results.csv")));
  }

  // stopped after a few runs, then resumed (with a line torn as a kill leaves it): every run
  // once, and the very table of an uninterrupted sweep
  void interruptAndResumeLoseNothing() {
    QTemporaryDir tmp;
    writeJson(tmp.filePath("dp.json"), doublePendulumSweep());
    const sweep::SweepSpec spec = sweep::readSweep(tmp.filePath("dp.json").toStdString());
    const std::string whole = tmp.filePath("whole").toStdString(), cut = tmp.filePath("cut").toStdString();
    sweep::run(spec, whole, {}, 2, nullptr);
    sweep::collect(whole);
    std::atomic<bool> stop{false};
    const sweep::RunSummary first =
        sweep::run(spec, cut, {}, 2, &stop, [&](long done, long) { if (done >= 5) stop = true; });
    QVERIFY(first.interrupted);
    QVERIFY(first.finished >= 5 && first.finished < 24);
    { std::ofstream(cut + "/parts/local.jsonl", std::ios::app) << "{\"run\": 23, \"status\": \"o"; }  // torn
    const sweep::RunSummary second = sweep::run(spec, cut, {}, 2, nullptr);
    QVERIFY(!second.interrupted);
    QCOMPARE(second.skipped, first.finished);
    QCOMPARE(second.finished + second.skipped, 24L);
    QCOMPARE(lineCount(QString::fromStdString(cut)), 24L + 1);  // the torn line, now on its own line
    const sweep::Collected c = sweep::collect(cut);
    QCOMPARE(c.present, 24L);
    QCOMPARE(readAll(QString::fromStdString(cut) + "/results.csv"), readAll(QString::fromStdString(whole) + "/results.csv"));
    // a rerun of a finished sweep runs nothing
    QCOMPARE(sweep::run(spec, cut, {}, 2, nullptr).finished, 0L);
    // another sweep into the same folder is refused, the results untouched
    json other = doublePendulumSweep();
    other["duration"] = 3.0;
    other["recordings"] = true;
    writeJson(tmp.filePath("other.json"), other);
    try {
      sweep::run(sweep::readSweep(tmp.filePath("other.json").toStdString()), cut, {}, 1, nullptr);
      QFAIL("no error");
    } catch (const std::runtime_error& e) {
      QVERIFY2(QString(e.what()).contains("holds the results of another sweep"), e.what());
    }
    QCOMPARE(lineCount(QString::fromStdString(cut)), 25L);
    QVERIFY(!QFileInfo::exists(QString::fromStdString(cut) + "/recordings"));  // nothing in it changed
    // the largest seed is a seed
    json big = doublePendulumSweep();
    big["seed"] = 18446744073709551615ull;
    writeJson(tmp.filePath("big.json"), big);
    QCOMPARE(sweep::readSweep(tmp.filePath("big.json").toStdString()).seed, 18446744073709551615ull);
  }

  // the model file edited during or after a sweep: a sweep already read keeps the model it
  // loaded; resuming into the folder is refused by name; re-simulating a run for the app is
  // refused too (it would not be the run in the table)
  void modelChangedDuringASweep() {
    QTemporaryDir tmp;
    QVERIFY(QFile::copy(QString::fromStdString(kSweepModels + "/tree_double_pendulum.json"), tmp.filePath("dp_model.json")));
    json doc = doublePendulumSweep();
    doc["model"] = "dp_model.json";
    writeJson(tmp.filePath("s.json"), doc);
    const sweep::SweepSpec spec = sweep::readSweep(tmp.filePath("s.json").toStdString());
    const auto before = sweep::runOne(spec, 5, nullptr, "");
    std::atomic<bool> stop{false};
    const std::string dir = tmp.filePath("r").toStdString();
    QVERIFY(sweep::run(spec, dir, {}, 1, &stop, [&](long done, long) { if (done >= 3) stop = true; }).interrupted);
    // heavier first link, in the file
    json model = json::parse(readAll(tmp.filePath("dp_model.json")).toStdString());
    model["bodies"][0]["inertia"]["mass"] = 3.0;
    writeJson(tmp.filePath("dp_model.json"), model);
    QThread::msleep(20);  // a later modification time on coarse clocks
    const auto after = sweep::runOne(spec, 5, nullptr, "");
    QCOMPARE(after->metrics, before->metrics);  // the spec's own loaded model
    try {
      sweep::run(sweep::readSweep(tmp.filePath("s.json").toStdString()), dir, {}, 1, nullptr);
      QFAIL("no error");
    } catch (const std::runtime_error& e) {
      QVERIFY2(QString(e.what()).contains("dp_model.json changed since this sweep started"), e.what());
    }
    const sweep::Results results = sweep::readResults(dir);
    try {
      sweep::runRecording(results, 1);
      QFAIL("no error");
    } catch (const FormatError& e) {
      QVERIFY2(QString(e.what()).contains("changed since this sweep ran"), e.what());
    }
  }

  // the real program: Ctrl+C (SIGINT) while it runs, exit 130, the same command again finishes
  void cliInterruptAndResume() {
    QTemporaryDir tmp;
    json doc = doublePendulumSweep();
    doc["duration"] = 4.0;  // 24 runs of 20,000 steps (about 0.02 s each): time to interrupt
    doc["dt"] = 2e-4;
    doc["every"] = 100;
    writeJson(tmp.filePath("dp.json"), doc);
    QByteArray out;
    QCOMPARE(runCli({"sweep", tmp.filePath("dp.json"), "-o", tmp.filePath("whole"), "-j", "2"}, &out), 0);
    QVERIFY2(out.contains("24 of 24 runs (24 ok, 0 diverged, 0 invalid)"), out.constData());
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(ARTICULATE_CLI, {"sweep", tmp.filePath("dp.json"), "-o", tmp.filePath("cut"), "-j", "2"});
    QVERIFY(p.waitForStarted());
    QElapsedTimer clock;
    clock.start();
    while (lineCount(tmp.filePath("cut")) < 2 && clock.elapsed() < 60000) QThread::msleep(5);
    QVERIFY(lineCount(tmp.filePath("cut")) >= 2);
    ::kill(static_cast<pid_t>(p.processId()), SIGINT);
    QVERIFY(p.waitForFinished(60000));
    const QByteArray said = p.readAll();
    QCOMPARE(p.exitCode(), 130);
    QVERIFY2(said.contains("interrupted: ") && said.contains("run the same command again"), said.constData());
    const long kept = lineCount(tmp.filePath("cut"));
    QVERIFY2(kept < 24, "the interrupt came too late to test anything");
    QCOMPARE(runCli({"sweep", tmp.filePath("dp.json"), "-o", tmp.filePath("cut"), "-j", "1"}, &out), 0);
    QVERIFY2(out.contains("(" + QByteArray::number(static_cast<int>(kept)) + " already done)"), out.constData());
    QCOMPARE(lineCount(tmp.filePath("cut")), 24L);
    QCOMPARE(readAll(tmp.filePath("cut/results.csv")), readAll(tmp.filePath("whole/results.csv")));
  }

  // a variant whose simulation diverges, or whose model is invalid, is a row with its reason
  void divergedAndInvalidRunsAreRows() {
    QTemporaryDir tmp;
    json doc = doublePendulumSweep();
    doc["parameters"] = {{{"name", "omega1"}, {"initial_qd", 0}, {"values", {0.0, 1e200}}},
                         {{"name", "mass1"}, {"pointer", "/bodies/0/inertia/mass"}, {"values", {1.0, -1.0}}}};
    writeJson(tmp.filePath("s.json"), doc);
    const sweep::SweepSpec spec = sweep::readSweep(tmp.filePath("s.json").toStdString());
    sweep::run(spec, tmp.filePath("r").toStdString(), {}, 2, nullptr);
    const sweep::Collected c = sweep::collect(tmp.filePath("r").toStdString());
    QCOMPARE(c.ok, 1L);
    QCOMPARE(c.diverged, 1L);
    QCOMPARE(c.invalid, 2L);
    const QList<QByteArray> rows = readAll(tmp.filePath("r/results.csv")).trimmed().split('\n');
    QVERIFY2(rows[1].startsWith("0,0,1,ok,2,2000,"), rows[1].constData());
    QVERIFY2(rows[2].contains(",invalid,0,0,,,,,") && rows[2].contains("bodies[0].inertia.mass: must be >= 0, got -1"),
             rows[2].constData());
    QVERIFY2(rows[3].startsWith("2,1e+200,1,diverged,0,"), rows[3].constData());
    QVERIFY2(rows[3].endsWith(",the simulation diverged at t = 0.001 s: q[0] = -nan"), rows[3].constData());
  }

  // first_contact: the bouncing cylinder (upright, 45 mm half-length, falling at 1 m/s, g = 10,
  // no spin) dropped from several heights and masses meets the floor when its bottom has fallen
  // z - 0.045 = t + 5 t^2, within the 1 ms step that holds the impact; in flight it reports no
  // reaction (a 2.5 kg body's round-off once read as contact at t = 1 ms)
  void firstContactOfADroppedBody() {
    QTemporaryDir tmp;
    writeJson(tmp.filePath("s.json"),
              {{"format", "articulate-sweep"}, {"model", kSweepModels + "/bouncing_cylinder.json"},
               {"parameters", {{{"name", "z"}, {"initial_q", 2}, {"values", {0.1, 0.3, 0.6}}},
                               {{"name", "wy"}, {"initial_qd", 4}, {"values", {0.0}}},
                               {{"name", "mass"}, {"pointer", "/mass"}, {"values", {1.0, 2.5, 7.0}}}}},
               {"duration", 0.4}, {"dt", 1e-3}, {"metrics", {"first_contact", {{"min", "z"}}}}});
    const sweep::SweepSpec spec = sweep::readSweep(tmp.filePath("s.json").toStdString());
    for (long run = 0; run < spec.runs(); ++run) {
      const auto r = sweep::runOne(spec, run, nullptr, "");
      QVERIFY(r && r->status == "ok");
      const double z = spec.value(run, 0).get<double>();
      const double t = (-1 + std::sqrt(1 + 20 * (z - 0.045))) / 10;
      QVERIFY2(r->metrics[0].has_value(), qPrintable(QString("z %1: no contact").arg(z)));
      QVERIFY2(*r->metrics[0] >= t - 1e-9 && *r->metrics[0] <= t + 1e-3 + 1e-9,
               qPrintable(QString("z %1 mass %2: contact at %3, analytic %4").arg(z).arg(spec.value(run, 2).dump().c_str()).arg(*r->metrics[0]).arg(t)));
    }
    // ended before it lands: no contact
    json doc = json::parse(readAll(tmp.filePath("s.json")).toStdString());
    doc["duration"] = 0.02;
    writeJson(tmp.filePath("short.json"), doc);
    const sweep::SweepSpec early = sweep::readSweep(tmp.filePath("short.json").toStdString());
    for (long run = 3; run < early.runs(); ++run) QVERIFY(!sweep::runOne(early, run, nullptr, "")->metrics[0]);
  }

  // issue 32: a sweep over a URDF robot reads it with the sweep file's "base" (its automatic
  // base without one): a pendulum without legs opens fixed, with one joint variable, and
  // "floating" puts it on a free joint, whose 7 positions come first, and runs
  void urdfBaseOfASweep() {
    QTemporaryDir tmp;
    const QString urdf = "<robot name='pendulum'><link name='mount'><inertial><mass value='2'/><inertia ixx='0.02' iyy='0.02' izz='0.02' ixy='0' ixz='0' iyz='0'/></inertial></link><link name='arm'><inertial><origin xyz='0 0 -0.5'/><mass value='1'/>"
                         "<inertia ixx='0.01' iyy='0.01' izz='0.01' ixy='0' ixz='0' iyz='0'/></inertial></link>"
                         "<joint name='hinge' type='continuous'><parent link='mount'/><child link='arm'/><axis xyz='0 1 0'/></joint></robot>";
    QFile f(tmp.filePath("pendulum.urdf"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(urdf.toUtf8());
    f.close();
    json doc = {{"format", "articulate-sweep"}, {"model", "pendulum.urdf"}, {"duration", 0.01},
                // the hinge, after a free joint's 7 positions
                {"parameters", json::array({{{"name", "a"}, {"initial_q", 7}, {"values", {0.1, 0.2}}}})}};
    writeJson(tmp.filePath("auto.json"), doc);
    const auto refusal = [&](const QString& file) {
      try {
        sweep::readSweep(tmp.filePath(file).toStdString());
      } catch (const FormatError& e) {
        return QString(e.what());
      }
      return QString();
    };
    // no legs: fixed, one joint variable
    QVERIFY2(refusal("auto.json").contains("index 7 is outside the model's 1 initial positions"), qPrintable(refusal("auto.json")));
    doc["base"] = "floating";
    writeJson(tmp.filePath("floating.json"), doc);
    QCOMPARE(refusal("floating.json"), QString());
    const sweep::SweepSpec floating = sweep::readSweep(tmp.filePath("floating.json").toStdString());
    const auto run = sweep::runOne(floating, 1, nullptr, "");
    QVERIFY(run);
    QCOMPARE(run->status, std::string("ok"));
  }

  // issue 32's sweep: the quadruped released with its feet 0 to 10 cm inside the floor never
  // flies (contact.h's dent) and every row is ok; a run whose energy grows by orders of
  // magnitude with nothing driving it (the double pendulum with a 0.5 s rk4 step) is a
  // diverged row that says so, not ok
  void sweepFromInsideTheFloor() {
    QTemporaryDir tmp;
    const Model m = compile(loadModel(kSweepModels + "/quadruped.json").spec);
    Data d(m);
    const std::vector<double> h = groundHeights(m, d, m.q0);
    const double touching = m.q0(2) - *std::min_element(h.begin(), h.end());
    json heights = json::array();
    for (int k = 0; k <= 5; ++k) heights.push_back(touching - 0.02 * k);
    const json doc = {{"format", "articulate-sweep"}, {"model", kSweepModels + "/quadruped.json"}, {"duration", 1.5},
                      {"parameters", {{{"name", "z"}, {"initial_q", 2}, {"values", heights}}}},
                      {"metrics", {{{"max", "q2"}}}}};
    writeJson(tmp.filePath("depths.json"), doc);
    const sweep::SweepSpec spec = sweep::readSweep(tmp.filePath("depths.json").toStdString());
    for (long run = 0; run < 6; ++run) {
      const auto r = sweep::runOne(spec, run, nullptr, "");
      QVERIFY(r && r->metrics[0]);
      qInfo("feet %.0f cm deep: %s, trunk at most %.2f mm above touching", 2.0 * run, r->status.c_str(),
            (*r->metrics[0] - touching) * 1e3);
      QCOMPARE(r->status, std::string("ok"));
      QVERIFY(*r->metrics[0] - touching < 0.02);
    }
    json coarse = doublePendulumSweep();
    coarse["dt"] = 0.5;
    coarse["duration"] = 20.0;
    writeJson(tmp.filePath("coarse.json"), coarse);
    const auto r = sweep::runOne(sweep::readSweep(tmp.filePath("coarse.json").toStdString()), 0, nullptr, "");
    QVERIFY(r);
    qInfo("%s: %s", r->status.c_str(), r->reason.c_str());
    QCOMPARE(r->status, std::string("diverged"));
    QVERIFY2(r->reason.find("with nothing driving the model") != std::string::npos, r->reason.c_str());
  }

  void badSweepsAreRefusedBeforeAnyRun_data() {
    QTest::addColumn<QString>("patch");  // JSON merged into the good sweep
    QTest::addColumn<QString>("message");
    QTest::newRow("pointer names nothing")
        << R"({"parameters": [{"name": "m", "pointer": "/bodies/5/inertia/mass", "values": [1]}]})"
        << "parameters[0] 'm'.pointer: '/bodies/5/inertia/mass' names nothing in the model";
    // fuzz_sweep: an empty reference token into a list made the JSON library throw
    QTest::newRow("empty token into a list")
        << R"({"parameters": [{"name": "m", "pointer": "/bodies//mass", "values": [1]}]})"
        << "parameters[0] 'm'.pointer: '/bodies//mass' names nothing in the model";
    QTest::newRow("not a pointer") << R"({"parameters": [{"name": "m", "pointer": "bodies/0", "values": [1]}]})"
                                   << "parameters[0] 'm'.pointer: 'bodies/0' is not a JSON Pointer";
    QTest::newRow("pointer to an object")
        << R"({"parameters": [{"name": "m", "pointer": "/bodies/0/inertia", "values": [1]}]})"
        << "parameters[0] 'm'.pointer: '/bodies/0/inertia' names an object";
    QTest::newRow("wrong type")
        << R"({"parameters": [{"name": "m", "pointer": "/bodies/0/inertia/mass", "values": [1, "heavy"]}]})"
        << "parameters[0] 'm': the value \"heavy\" is of another type than the model's 1.0";
    QTest::newRow("empty range step")
        << R"({"parameters": [{"name": "a", "initial_q": 0, "range": {"from": 1, "to": 0, "step": 0.1}}]})"
        << "parameters[0] 'a'.range: the range is empty";
    QTest::newRow("empty range count")
        << R"({"parameters": [{"name": "a", "initial_q": 0, "range": {"from": 0, "to": 1, "count": 0}}]})"
        << "parameters[0] 'a'.range: the range is empty (count 0)";
    QTest::newRow("empty list") << R"({"parameters": [{"name": "a", "initial_q": 0, "values": []}]})"
                                << "parameters[0] 'a'.values: is empty";
    QTest::newRow("empty random") << R"({"parameters": [{"name": "a", "initial_q": 0, "random": {"uniform": [1, 1], "count": 3}}]})"
                                  << "parameters[0] 'a'.random.uniform: the range is empty";
    QTest::newRow("index outside q0") << R"({"parameters": [{"name": "a", "initial_q": 2, "values": [0]}]})"
                                      << "parameters[0] 'a': index 2 is outside the model's 2 initial positions";
    QTest::newRow("zip lengths")
        << R"({"combine": "zip", "parameters": [{"name": "a", "initial_q": 0, "values": [0, 1]}, {"name": "b", "initial_q": 1, "values": [0, 1, 2]}]})"
        << "parameters[1] 'b': has 3 values, but zip needs as many as parameters[0] 'a' (2)";
    QTest::newRow("initial state not a number") << R"({"parameters": [{"name": "a", "initial_qd": 0, "values": [true]}]})"
                                                << "parameters[0] 'a': an initial state takes numbers, not true";
    QTest::newRow("two targets") << R"({"parameters": [{"name": "a", "initial_q": 0, "pointer": "/name", "values": [0]}]})"
                                 << "parameters[0]: needs exactly one of 'pointer', 'initial_q' or 'initial_qd'";
    QTest::newRow("duplicate name")
        << R"({"parameters": [{"name": "a", "initial_q": 0, "values": [0]}, {"name": "a", "initial_q": 1, "values": [0]}]})"
        << "parameters[1] 'a': the name is used by another column";
    QTest::newRow("base model fails") << R"({"model": "no_such_model.json"})"
                                      << "model: the base model does not load";
    QTest::newRow("unknown series") << R"({"metrics": [{"max": "q7"}]})"
                                    << "metrics[0]: the model has no series 'q7' (it has q0..q1, qd0..qd1, kinetic, potential, total)";
    QTest::newRow("unknown field") << R"({"paramters": []})" << "unknown field 'paramters'";
    QTest::newRow("base of a JSON model") << R"({"base": "fixed"})" << "base: is for a URDF base model only";
    QTest::newRow("base not a base") << R"({"base": "welded"})" << "base: expected \"auto\", \"fixed\" or \"floating\", got \"welded\"";
    // found in review: names against the default metrics' columns, and numbers past their types
    QTest::newRow("name of a default metric")
        << R"({"metrics": null, "parameters": [{"name": "energy_drift", "initial_q": 0, "values": [0]}]})"
        << "parameters[0] 'energy_drift': the name is used by another column";
    QTest::newRow("endless duration") << R"({"duration": 1e20, "dt": 0.001, "every": 1})"
                                      << "duration: 1e+20 s at a step of 0.001 s is more than 1e+12 samples";
    QTest::newRow("every past int") << R"({"every": 4294967297})" << "every: must be at most 2147483647, got 4294967297";
    QTest::newRow("index past int") << R"({"parameters": [{"name": "a", "initial_q": 4294967296, "values": [0]}]})"
                                    << "parameters[0].initial_q: must be at most 2147483647";
    QTest::newRow("negative seed") << R"({"seed": -3})" << "seed: expected a whole number from 0 to 2^64 - 1";
    QTest::newRow("too many runs")
        << R"({"parameters": [{"name": "a", "initial_q": 0, "range": {"from": 0, "to": 1, "count": 100000}},
                             {"name": "b", "initial_q": 1, "range": {"from": 0, "to": 1, "count": 100000}},
                             {"name": "c", "initial_qd": 0, "range": {"from": 0, "to": 1, "count": 100000}}]})"
        << "parameters: the grid has more than 1000000000 runs";
    QTest::newRow("duration") << R"({"duration": -1})" << "duration: must be > 0";
    QTest::newRow("integrator") << R"({"integrator": "zhong06"})"
                                << "model: the base model does not simulate with these settings: --integrator";
  }
  void badSweepsAreRefusedBeforeAnyRun() {
    QFETCH(QString, patch);
    QFETCH(QString, message);
    QTemporaryDir tmp;
    json doc = doublePendulumSweep();
    doc.merge_patch(json::parse(patch.toStdString()));
    const QString file = tmp.filePath("bad.json");
    writeJson(file, doc);
    try {
      sweep::readSweep(file.toStdString());
      QFAIL("no error");
    } catch (const FormatError& e) {
      QVERIFY2(QString(e.what()).startsWith(file + ": " + message), e.what());
    }
    // the command says so (exit 2) and leaves no results folder
    QByteArray out;
    QCOMPARE(runCli({"sweep", file, "-o", tmp.filePath("results")}, &out), 2);
    QVERIFY2(out.contains(message.toUtf8()), out.constData());
    QVERIFY(!QFileInfo::exists(tmp.filePath("results")));
  }

  // recordings: every sample of the run in the binary file, agreeing with the table's metrics;
  // a truncated file is refused naming it
  void recordings() {
    QTemporaryDir tmp;
    json doc = doublePendulumSweep();
    doc["recordings"] = true;
    doc["metrics"] = {{{"final", "q0"}}, {{"max", "qd1"}}};
    writeJson(tmp.filePath("s.json"), doc);
    const sweep::SweepSpec spec = sweep::readSweep(tmp.filePath("s.json").toStdString());
    const std::string dir = tmp.filePath("r").toStdString();
    sweep::run(spec, dir, {}, 2, nullptr);
    for (long run : {0L, 13L, 23L}) {
      char name[32];
      std::snprintf(name, sizeof name, "/recordings/run-%06ld.arec", run);
      const sweep::RunRecording rec = sweep::readRecording(dir + name);
      QCOMPARE(rec.nq, 2);
      QCOMPARE(rec.nv, 2);
      QCOMPARE(rec.t.size(), std::size_t(101));  // 2 s sampled every 20 ms, both ends
      QCOMPARE(rec.t.back(), 2.0);
      const auto r = sweep::runOne(spec, run, nullptr, "");
      QCOMPARE(rec.q(0, 100), *r->metrics[0]);
      QCOMPARE(rec.v.row(1).maxCoeff(), *r->metrics[1]);
      QCOMPARE(rec.q(0, 0), spec.value(run, 0).get<double>());  // theta1 as swept
      QCOMPARE(rec.v(1, 0), spec.value(run, 1).get<double>());
      QVERIFY(std::abs(rec.kinetic[50] + rec.potential[50] - rec.kinetic[0] - rec.potential[0]) < 1e-6);
    }
    const QString file = QString::fromStdString(dir) + "/recordings/run-000005.arec";
    QByteArray bytes = readAll(file);
    QVERIFY(bytes.startsWith(QByteArray("ARTREC1\0", 8)));
    QFile f(file);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(bytes.left(bytes.size() - 8));
    f.close();
    try {
      sweep::readRecording(file.toStdString());
      QFAIL("no error");
    } catch (const std::runtime_error& e) {
      QVERIFY2(QString(e.what()).startsWith(file + ": holds") && QString(e.what()).contains("not the 101 samples"), e.what());
    }
    // issue 31: a last time that is NaN, a time that goes back, a NaN in a sample: refused,
    // naming the file and the sample (the app then opens nothing that would play forever)
    const auto tampered = [&](std::size_t sample, std::size_t number, double value, const char* why) {
      QByteArray copy = bytes;
      const std::size_t width = 3 + 2 + 2;
      std::memcpy(copy.data() + 24 + (sample * width + number) * 8, &value, 8);
      QFile g(file);
      g.open(QIODevice::WriteOnly | QIODevice::Truncate);
      g.write(copy);
      g.close();
      try {
        sweep::readRecording(file.toStdString());
        return false;
      } catch (const std::runtime_error& e) {
        return QString(e.what()).startsWith(file + ": sample " + QString::number(sample)) && QString(e.what()).contains(why);
      }
    };
    QVERIFY(tampered(100, 0, std::nan(""), "is not a finite number"));
    QVERIFY(tampered(40, 0, 0.5, "before the previous"));
    QVERIFY(tampered(7, 3, -std::numeric_limits<double>::infinity(), "not finite"));
    // issue 31: a number in a message in %g form, not -DBL_MAX's 309 digits
    QVERIFY(tampered(40, 0, -std::numeric_limits<double>::max(), "time -1.79769e+308 is before the previous"));
  }

  // issue 31: a part file changed by hand (a field of the wrong type) is refused by collect
  // naming the part file, the run and the field, not with nlohmann's bare type_error.302
  void tamperedPartNamesFileAndField() {
    QTemporaryDir tmp;
    writeJson(tmp.filePath("dp.json"), doublePendulumSweep());
    const std::string dir = tmp.filePath("r").toStdString();
    sweep::run(sweep::readSweep(tmp.filePath("dp.json").toStdString()), dir, {}, 1, nullptr);
    const QString part = QString::fromStdString(dir) + "/parts/local.jsonl";
    const QByteArray original = readAll(part);
    for (const char* field : {"status", "steps", "end_time", "reason"}) {
      QByteArray changed;
      for (const QByteArray& line : original.split('\n')) {
        if (line.isEmpty()) continue;
        json j = json::parse(line.toStdString());
        if (j["run"] == 5) j[field] = field == std::string("reason") ? json(3) : json::array({1, 2});
        changed += QByteArray::fromStdString(j.dump()) + "\n";
      }
      QFile f(part);
      QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
      f.write(changed);
      f.close();
      try {
        sweep::collect(dir);
        QFAIL("no error");
      } catch (const FormatError& e) {
        QVERIFY2(QString(e.what()).startsWith(part + ": run 5: field '" + field + "': expected "), e.what());
      } catch (const std::exception& e) {
        QFAIL(e.what());
      }
    }
  }

  // what the app reads: the table with the reason's commas quoted, each run's model variant,
  // and a run's samples, re-simulated when the sweep kept no recordings, equal to the kept ones
  void resultsAsTheAppReadsThem() {
    QTemporaryDir tmp;
    json doc = doublePendulumSweep();
    doc["parameters"][2] = {{"name", "mass2"}, {"pointer", "/bodies/1/inertia/mass"}, {"values", {0.5, -1.0}}};
    doc["recordings"] = true;
    writeJson(tmp.filePath("kept.json"), doc);
    doc["recordings"] = false;
    writeJson(tmp.filePath("not.json"), doc);
    const std::string kept = tmp.filePath("kept").toStdString(), not_ = tmp.filePath("not").toStdString();
    sweep::run(sweep::readSweep(tmp.filePath("kept.json").toStdString()), kept, {}, 2, nullptr);
    sweep::run(sweep::readSweep(tmp.filePath("not.json").toStdString()), not_, {}, 2, nullptr);
    const sweep::Results a = sweep::readResults(kept), b = sweep::readResults(not_);
    QCOMPARE(a.rows.size(), std::size_t(24));
    QCOMPARE(a.columns, sweep::columns(a.spec));
    QCOMPARE(a.rows[1][4], std::string("invalid"));
    QCOMPARE(a.rows[1].back(), std::string("bodies[1].inertia.mass: must be >= 0, got -1"));
    QCOMPARE(a.rows[2][3], std::string("0.5"));
    const LoadedDocument variant = sweep::variantDocument(a.spec, 2);  // (ASan: not a temporary's address)
    const auto* model = std::get_if<LoadedModel>(&variant);
    QVERIFY(model);
    QCOMPARE(model->spec.bodies[1].inertia.mass, 0.5);
    try {
      sweep::variantDocument(a.spec, 1);
      QFAIL("no error");
    } catch (const FormatError& e) {
      QVERIFY2(QString(e.what()).contains("run 1: ") && QString(e.what()).contains("must be >= 0"), e.what());
    }
    for (long run : {0L, 10L}) {
      const sweep::RunRecording x = sweep::runRecording(a, run), y = sweep::runRecording(b, run);
      QCOMPARE(y.t, x.t);
      QVERIFY(x.q == y.q && x.v == y.v);  // bit for bit
      QCOMPARE(y.kinetic, x.kinetic);
    }
    try {
      sweep::runRecording(b, 1);
      QFAIL("no error");
    } catch (const std::runtime_error& e) {
      QVERIFY2(QString(e.what()).contains("has no samples"), e.what());
    }
  }

  // issue 31: no name runs as a command. Paths full of shell syntax come through the script as
  // exactly the words they are (bash -n accepts it; run, it hands a stand-in articulate-cli
  // exactly those arguments and creates nothing), and control characters and a partition that
  // is not a plain name are refused, through the library and the command
  void slurmScriptRunsNoName() {
    QTemporaryDir tmp;
    const QString hostile = tmp.filePath("we $(touch PWNED) `touch PWNED2` it's \"q\" ;touch PWNED3; a%b");
    QVERIFY(QDir().mkpath(hostile) && QDir().mkpath(tmp.filePath("bin dir")));
    const QString spec = hostile + "/sweep $(x).json", results = hostile + "/res", stub = tmp.filePath("bin dir/cli 'x'");
    writeJson(spec, doublePendulumSweep());
    {
      QFile f(stub);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write("#!/bin/bash\nprintf '%s\\n' \"$@\" > \"$ARGS_FILE\"\n");
    }
    QVERIFY(QFile::setPermissions(stub, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner));
    const std::string script = sweep::slurmScript(stub.toStdString(), spec.toStdString(), results.toStdString(), 2, 1, "");
    const QString file = tmp.filePath("job.sbatch");
    {
      QFile f(file);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(script.c_str());
    }
    QProcess bash;
    bash.setWorkingDirectory(tmp.path());
    bash.start("/bin/bash", {"-n", file});
    QVERIFY(bash.waitForFinished(10000));
    QCOMPARE(bash.exitCode(), 0);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("SLURM_ARRAY_TASK_ID", "1");
    env.insert("SLURM_CPUS_PER_TASK", "3");
    env.insert("ARGS_FILE", tmp.filePath("args.txt"));
    bash.setProcessEnvironment(env);
    bash.start("/bin/bash", {file});
    QVERIFY(bash.waitForFinished(10000));
    QCOMPARE(bash.exitCode(), 0);
    QFile args(tmp.filePath("args.txt"));
    QVERIFY(args.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(args.readAll()).split('\n', Qt::SkipEmptyParts),
             (QStringList{"sweep", spec, "-o", results, "--task", "1/2", "-j", "3", "--quiet"}));
    for (const char* made : {"PWNED", "PWNED2", "PWNED3"}) {
      QVERIFY(!QFileInfo::exists(tmp.filePath(made)));
      QVERIFY(!QFileInfo::exists(hostile + "/" + made));
    }
    // a newline in a path, or a partition that is not a name: refused
    const auto refused = [](const std::string& specPath, const std::string& partition, const char* why) {
      try {
        sweep::slurmScript("/usr/bin/articulate-cli", specPath, "/tmp/res", 2, 1, partition);
        return false;
      } catch (const std::invalid_argument& e) {
        return QString(e.what()).contains(why);
      }
    };
    QVERIFY(refused("/tmp/a\ntouch PWNED.json", "", "control character"));
    QVERIFY(refused("/tmp/a\rb.json", "", "control character"));
    QVERIFY(refused("/tmp/a.json", "debug\ntouch PWNED", "--partition"));
    QVERIFY(refused("/tmp/a.json", "debug; touch PWNED", "--partition"));
    QVERIFY(refused("/tmp/a.json", "$(touch PWNED)", "--partition"));
    QVERIFY(!refused("/tmp/a.json", "short,long-1.x_y", "--partition"));
    // through the command: a sweep file whose name holds a newline, and a bad partition
    const QString newline = tmp.filePath("dp\ntouch PWNED.json");
    writeJson(newline, doublePendulumSweep());
    QByteArray out;
    QCOMPARE(runCli({"sweep", newline, "-o", tmp.filePath("r1"), "--slurm", "--dry-run"}, &out), 2);
    QVERIFY2(out.contains("control character"), out.constData());
    QCOMPARE(runCli({"sweep", spec, "-o", tmp.filePath("r2"), "--slurm", "--dry-run", "--partition", "x\ntouch PWNED"}, &out), 2);
    QVERIFY2(out.contains("--partition"), out.constData());
    QVERIFY(!QFileInfo::exists(tmp.filePath("PWNED")));
  }

  // the Slurm script: a job array of N tasks, each running its slice with the absolute paths
  void slurmDryRun() {
    QTemporaryDir tmp;
    writeJson(tmp.filePath("dp.json"), doublePendulumSweep());
    QByteArray out;
    QCOMPARE(runCli({"sweep", tmp.filePath("dp.json"), "-o", tmp.filePath("res"), "--slurm", "--dry-run", "--tasks", "5",
                     "--cpus", "4", "--partition", "short"},
                    &out),
             0);
    QVERIFY2(out.startsWith("#!/bin/bash\n"), out.constData());
    for (const QString& line : {QString("#SBATCH --array=0-4\n"), QString("#SBATCH --cpus-per-task=4\n"),
                                QString("#SBATCH --partition=short\n"),
                                QString("#SBATCH --output=%1/slurm/task-%a.out\n").arg(tmp.filePath("res")),
                                QString("exec '%1' sweep '%2' -o '%3' --task \"${SLURM_ARRAY_TASK_ID}/5\" -j \"${SLURM_CPUS_PER_TASK:-4}\" --quiet\n")
                                    .arg(QFileInfo(ARTICULATE_CLI).canonicalFilePath(), tmp.filePath("dp.json"), tmp.filePath("res"))})
      QVERIFY2(out.contains(line.toUtf8()), qPrintable(line + "\nnot in\n" + out));
    QVERIFY(!QFileInfo::exists(tmp.filePath("res")));  // a dry run writes nothing
    // #SBATCH --output cannot quote: a results path with a space is refused
    QCOMPARE(runCli({"sweep", tmp.filePath("dp.json"), "-o", tmp.filePath("res dir"), "--slurm", "--dry-run"}, &out), 2);
    QVERIFY2(out.contains("may not hold spaces or '%'"), out.constData());
    // --task slices and --collect merges, through the command
    for (const char* task : {"0/2", "1/2"})
      QCOMPARE(runCli({"sweep", tmp.filePath("dp.json"), "-o", tmp.filePath("res"), "--task", task, "-q"}, &out), 0);
    QCOMPARE(runCli({"sweep", "--collect", tmp.filePath("res")}, &out), 0);
    QVERIFY2(out.contains("24 of 24 runs"), out.constData());
    QCOMPARE(runCli({"sweep", tmp.filePath("dp.json"), "-o", tmp.filePath("half"), "--task", "0/2", "-q"}, &out), 0);
    QCOMPARE(runCli({"sweep", "--collect", tmp.filePath("half")}, &out), 1);
    QVERIFY2(out.contains("12 of 24 runs") && out.contains("12 runs are not finished yet"), out.constData());
  }
};

ARTICULATE_TEST_MAIN(TestSweep)
#include "test_sweep.moc"
