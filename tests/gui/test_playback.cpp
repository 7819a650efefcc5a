// Playback and the live simulation in the main window, driven with QTest as a user would:
// play, pause, scrub, jog, speed keys, resume from here (the continued run equals a direct
// simulation from the scrubbed sample), the plots and their CSV, recordings, PNG / image-
// sequence / video export, and a diverging model that pauses with a message.
#include <QtTest>

#include "test_main.h"
#include <QtWidgets>
#include <QChartView>
#include <QLineSeries>
#include <QValueAxis>

#include <cmath>

#include "articulate/model/model.h"
#include "articulate/formats/document.h"
#include "articulate/formats/files.h"
#include "articulate/formulations/tree_simulation.h"
#include "articulate/formats/structure.h"
#include "articulate/simulation/structure_system.h"
#include "articulate/simulation/system.h"
#include "export.h"
#include "main_window.h"
#include "playback.h"
#include "plots.h"
#include "viewport/viewport.h"
#include "gui/window_test.h"
#include "render/baseline.h"

using namespace art;
using namespace art::gui;
using namespace art::test;

namespace {


double labelTime(const MainWindow& w) {
  // "t = 1.23 s / 4.56 s"
  const QString text = w.findChild<QLabel*>("timeLabel")->text();
  return text.section(' ', 2, 2).toDouble();
}

}  // namespace

class TestPlayback : public QObject {
  Q_OBJECT
 private slots:
  void recordingLimitFollowsTheAvailableMemory() {
    // the 4 GiB cap, lowered to half of what the kernel reports available (it used to ignore
    // the machine's memory: a 2 GiB machine would swap long before the cap)
    const QByteArray small = "MemTotal:        2000000 kB\nMemFree:          100000 kB\n"
                             "MemAvailable:    1000000 kB\nBuffers:           1000 kB\n";
    QCOMPARE(recordingLimitBytes(small), 0.5 * 1000000 * 1024);
    QCOMPARE(recordingLimitBytes("MemAvailable:   100000000 kB\n"), kRecordingLimitBytes);
    QCOMPARE(recordingLimitBytes("MemTotal: 1000 kB\n"), kRecordingLimitBytes);  // no line: the cap
    const double here = recordingLimitBytes();
    QVERIFY(here > 0 && here <= kRecordingLimitBytes);
  }

  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
  }

  void speedScale() {
    QCOMPARE(speedAt(0), 0.001);
    QCOMPARE(speedAt(kSpeedOne), 1.0);
    QVERIFY(std::abs(speedAt(kSpeedSteps - 1) - 20.0) < 1e-12);
    // round speeds, about 1.5 times apart: from 1 to 20 in eight presses (the old scale took 33)
    QCOMPARE(kSpeedSteps - 1 - kSpeedOne, 8);
    QVERIFY(std::abs(speedAt(kSpeedOne + 1) - 1.5) < 1e-12 && std::abs(speedAt(kSpeedOne - 1) - 0.7) < 1e-12);
    for (int i = 1; i < kSpeedSteps; ++i) QVERIFY(speedAt(i) / speedAt(i - 1) < 1.7);
    for (int i = 1; i < kSpeedSteps; ++i) QVERIFY(speedAt(i) > speedAt(i - 1));
    for (int i = 0; i < kSpeedSteps; ++i) QCOMPARE(speedIndex(speedAt(i)), i);
    QCOMPARE(timeDecimals(1.0), 2);
    QCOMPARE(timeDecimals(0.01), 4);
    QCOMPARE(timeDecimals(0.001), 5);
    QCOMPARE(timeDecimals(1.0, 0.001), 3);  // samples 1 ms apart are told apart
  }

  void playPauseScrubResume() {
    MainWindow w;
    QVERIFY(showActive(w));
    QVERIFY(w.openFile(kModels + "/double_pendulum.json"));
    Playback* p = w.playback();
    QVERIFY(p->live());
    QVERIFY(waitFor([&] { return p->hasTimeline(); }, 5));
    QCOMPARE(p->time(), 0.0);

    // play: the simulation runs and the playhead follows it
    key(w, Qt::Key_Space);
    QVERIFY(p->playing());
    QVERIFY(waitFor([&] { return p->endTime() > 0.6; }, 10));
    key(w, Qt::Key_Space);  // pause
    QVERIFY(!p->playing());
    QVERIFY(waitFor([&] { return !p->simulating(); }, 2));
    QTest::qWait(50);
    const double end = p->endTime();
    QTest::qWait(150);
    QCOMPARE(p->endTime(), end);  // paused: nothing more is simulated
    QCOMPARE(p->time(), end);
    QVERIFY(std::abs(labelTime(w) - end) < 0.006);

    // the shown pose is the recorded state at the playhead
    Eigen::VectorXd q, qd;
    p->recording().stateAt(p->time(), q, qd);
    QVERIFY(p->q().isApprox(q, 1e-15));

    // scrub with the coarse slider to about 40% of the range
    auto* coarse = w.findChild<QSlider*>("coarseSlider");
    coarse->setValue(40);
    const double scrubbed = p->time();
    QVERIFY(std::abs(scrubbed - 0.4 * end) < 0.011 * end);
    QVERIFY(!p->following());
    p->recording().stateAt(scrubbed, q, qd);
    QVERIFY(p->q().isApprox(q, 1e-15));
    QVERIFY(std::abs(labelTime(w) - scrubbed) < 0.006);

    // jog: m forward one recorded sample (one simulation step), Shift+N back ten; from between
    // two samples the first step lands on the next one; jogging pauses
    const Recording& rec = p->recording();
    const std::size_t at = rec.indexAt(scrubbed);
    key(w, Qt::Key_M);
    QCOMPARE(p->time(), rec.time(at + 1));
    key(w, Qt::Key_N, Qt::ShiftModifier);
    QCOMPARE(p->time(), rec.time(at - 9));
    key(w, Qt::Key_M);
    QCOMPARE(p->time(), rec.time(at - 8));
    // the time label tells samples apart: as many decimals as the step needs
    QVERIFY2(std::abs(labelTime(w) - p->time()) < 0.5 * (rec.time(1) - rec.time(0)),
             qPrintable(QString("label %1, time %2").arg(labelTime(w)).arg(p->time())));

    // speed keys
    key(w, Qt::Key_Comma);
    QCOMPARE(p->speedIndex(), kSpeedOne - 1);
    key(w, Qt::Key_1);
    QCOMPARE(p->speedIndex(), kSpeedOne);

    // resume from here: the future is discarded and the simulation continues from the sample
    const std::size_t k = p->recording().indexAt(p->time());
    const double t0 = p->recording().time(k);
    const Eigen::VectorXd q0 = p->recording().q(k), qd0 = p->recording().qd(k);
    w.findChild<QToolButton*>("resumeButton")->click();
    QVERIFY(p->playing());
    QVERIFY(p->endTime() <= t0 + 1e-12);
    QVERIFY(waitFor([&] { return p->endTime() > t0 + 0.3; }, 10));
    key(w, Qt::Key_Space);
    QVERIFY(waitFor([&] { return !p->simulating(); }, 2));
    // every sample after t0 matches a direct simulation from the resumed state
    const Model model = compile(w.model()->spec);
    Simulation direct(model, simulationOptions(w.model()->spec));
    direct.setState(t0, q0, qd0);
    const std::size_t k0 = p->recording().indexAt(t0);
    QCOMPARE(p->recording().time(k0), t0);
    for (std::size_t j = k0 + 1; j < p->recording().size() && j < k0 + 200; ++j) {
      QVERIFY(direct.step());
      QVERIFY2((direct.q() - p->recording().q(j)).norm() < 1e-12,
               qPrintable(QString("sample %1").arg(j)));
    }

    // stop/rewind: to the start, then to the end
    key(w, Qt::Key_0);
    QCOMPARE(p->time(), p->startTime());
    key(w, Qt::Key_0);
    QCOMPARE(p->time(), p->endTime());

    // the plots: three energies, at most kMaxPoints points each; CSV of every sample
    PlotsPanel* plots = w.plots();
    plots->redraw();
    QVERIFY(plots->pointCount("total") > 10);
    QVERIFY(plots->pointCount("total") <= PlotsPanel::kMaxPoints + 1);
    plots->choose({"total", "q[1] link2"});
    QTemporaryDir dir;
    plots->exportCsv(dir.filePath("plots.csv"));
    QFile csv(dir.filePath("plots.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(csv.readAll()).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.first(), QString("t,total,q[1]"));
    QCOMPARE(static_cast<std::size_t>(lines.size() - 1), p->recording().size());
    const QStringList last = lines.last().split(',');
    QCOMPARE(last[2].toDouble(), p->recording().q(p->recording().size() - 1)(1));

    // the recording saves and opens again as an animation of the same samples
    QVERIFY(w.saveRecordingTo(dir.filePath("rec.json")));
    const std::size_t samples = p->recording().size();
    MainWindow w2;
    QVERIFY(w2.openFile(dir.filePath("rec.json")));
    QVERIFY(!w2.playback()->live());
    QCOMPARE(w2.playback()->recording().size(), samples);
    w2.playback()->play();  // at the end: rewinds first, then plays
    QVERIFY(w2.playback()->time() <= w2.playback()->startTime() + 0.02);
    QVERIFY(waitFor([&] { return w2.playback()->time() > 0.2; }, 10));
  }

  void exports() {
    MainWindow w;
    QVERIFY(showActive(w));
    QVERIFY(w.openFile(kModels + "/double_pendulum.json"));
    Playback* p = w.playback();
    p->setUnpaced(true);
    p->play();
    QVERIFY(waitFor([&] { return p->endTime() > 0.5; }, 10));
    p->pause();
    QTemporaryDir dir;
    QVERIFY(w.exportImage(dir.filePath("view.png"), 200, 150));
    QCOMPARE(QImage(dir.filePath("view.png")).size(), QSize(200, 150));

    ExportOptions o;
    o.kind = ExportOptions::Kind::Images;
    o.path = dir.filePath("seq/frame.png");
    QVERIFY(QDir().mkpath(dir.filePath("seq")));
    o.width = 160;
    o.height = 120;
    o.fps = 10;
    o.start = 0.0;
    o.end = 0.5;
    QCOMPARE(exportFrameCount(o), 6);
    QVERIFY(w.exportAnimation(o));
    QCOMPARE(QDir(dir.filePath("seq")).entryList({"frame_*.png"}).size(), 6);
    // successive frames differ (the pendulum moves)
    QVERIFY(QImage(dir.filePath("seq/frame_00000.png")) != QImage(dir.filePath("seq/frame_00005.png")));

    o.kind = ExportOptions::Kind::Video;
    o.path = dir.filePath("movie.ogv");
    QVERIFY(w.exportAnimation(o));
    QFile ogv(o.path);
    QVERIFY(ogv.open(QIODevice::ReadOnly));
    QVERIFY(ogv.size() > 1000);
    QCOMPARE(ogv.read(4), QByteArray("OggS"));

    if (!ffmpegProgram().isEmpty()) {
      o.path = dir.filePath("movie.mp4");
      QVERIFY(w.exportAnimation(o));
      QVERIFY(QFileInfo(o.path).size() > 1000);
    } else {
      o.path = dir.filePath("movie.mp4");
      TreeSystem poses(std::make_shared<const Model>(compile(w.model()->spec)), {});
      const QString error = exportFrames(w.model()->spec, p->recording(), poses, w.viewport()->viewState(), o, {});
      QVERIFY(error.contains("ffmpeg is not installed"));
    }
    // cancelling removes the unfinished video
    o.path = dir.filePath("cancelled.ogv");
    TreeSystem poses(std::make_shared<const Model>(compile(w.model()->spec)), {});
    const auto cancelAfterOne = [](int done, int) { return done < 2; };
    QString error = exportFrames(w.model()->spec, p->recording(), poses,
                                 w.viewport()->viewState(), o, cancelAfterOne);
    QCOMPARE(error, QString("cancelled"));
    QVERIFY(!QFile::exists(o.path));
    // exporting over an existing file and cancelling leaves that file as it was (it used to be
    // deleted: ffmpeg ran with -y on the target, and cancel removed the target), with no
    // temporary file left beside it; ffmpeg's path (mp4) and the Ogg writer's alike
    const QStringList suffixes = ffmpegProgram().isEmpty() ? QStringList{"ogv"} : QStringList{"ogv", "mp4"};
    for (const QString& suffix : suffixes) {
      o.path = dir.filePath("existing." + suffix);
      {
        QFile f(o.path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("the user's earlier video");
      }
      const QStringList before = QDir(dir.path()).entryList(QDir::Files | QDir::Hidden);
      error = exportFrames(w.model()->spec, p->recording(), poses, w.viewport()->viewState(), o,
                           cancelAfterOne);
      QCOMPARE(error, QString("cancelled"));
      QFile f(o.path);
      QVERIFY(f.open(QIODevice::ReadOnly));
      QCOMPARE(f.readAll(), QByteArray("the user's earlier video"));
      QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), before);
      // finishing replaces it whole
      QVERIFY(exportFrames(w.model()->spec, p->recording(), poses, w.viewport()->viewState(), o, {}).isEmpty());
      QVERIFY(QFileInfo(o.path).size() > 1000);
      QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), before);
    }
  }

  void rigidBodySimulatesThroughTheSameSeam() {
    MainWindow w;
    QVERIFY(showActive(w));
    QVERIFY(w.openFile(kModels + "/bouncing_cylinder.json"));
    Playback* p = w.playback();
    QVERIFY(p->live());
    QVERIFY(simulateUntil(p, 0.3));
    const Recording& r = p->recording();
    QCOMPARE(r.positionSize(), 7);
    QCOMPARE(r.velocitySize(), 6);
    // the same samples as the system stepped directly
    const LoadedDocument doc = loadDocument((kModels + "/bouncing_cylinder.json").toStdString());
    RigidBodySystem direct(std::get<RigidBodySpec>(doc));
    for (std::size_t k = 1; k < r.size() && k < 300; ++k) {
      QVERIFY(direct.step());
      QVERIFY2((direct.positions() - r.q(k)).norm() == 0.0, qPrintable(QString("sample %1").arg(k)));
    }
    // never below the floor: the centre stays at least a radius (30 mm) up
    for (std::size_t k = 0; k < r.size(); ++k) QVERIFY(r.q(k)(2) > 0.03 - 1e-5);
    // between samples the orientation is slerped: a unit quaternion
    Eigen::VectorXd q, v;
    r.stateAt(0.5 * (r.time(40) + r.time(41)), q, v);
    QVERIFY(std::abs(q.segment<4>(3).norm() - 1.0) < 1e-12);
    // scrubbing shows the body where the recording has it
    p->setTime(r.time(100));
    std::vector<BodyPose> poses;
    direct.bodyPoses(r.q(100), poses);
    QVERIFY((poses[0].position - r.q(100).head<3>()).norm() == 0.0);
    // saving writes the rigid body back, not a tree
    QTemporaryDir dir;
    QVERIFY(w.saveTo(dir.filePath("cyl.json")));
    const LoadedDocument back = loadDocument(dir.filePath("cyl.json").toStdString());
    QVERIFY(std::holds_alternative<RigidBodySpec>(back));
  }

  void structureSimulatesThroughTheSameSeam() {
    MainWindow w;
    QVERIFY(showActive(w));
    QVERIFY(w.openFile(kModels + "/natural_pendulum.json"));
    Playback* p = w.playback();
    QVERIFY(p->live());
    QVERIFY(simulateUntil(p, 0.2));
    const Recording& r = p->recording();
    StructureSystem direct(natural::loadStructure((kModels + "/natural_pendulum.json").toStdString()));
    QCOMPARE(r.positionSize(), direct.positionSize());
    for (std::size_t k = 1; k < r.size() && k < 200; ++k) {
      QVERIFY(direct.step());
      QVERIFY2((direct.positions() - r.q(k)).norm() == 0.0, qPrintable(QString("sample %1").arg(k)));
    }
    // the bodies are where the coordinates put them: link1's frame origin is its point
    std::vector<BodyPose> poses;
    direct.bodyPoses(r.q(150), poses);
    QCOMPARE(poses.size(), std::size_t(2));
    QVERIFY(std::abs(poses[0].rotation.determinant() - 1.0) < 1e-9);
    // the same mechanism as the tree double pendulum: equal energies at equal times
    QVERIFY(std::abs(r.kinetic(150) + r.potential(150) - (r.kinetic(0) + r.potential(0))) < 1e-3);
  }

  // a structure's cables are drawn between their attachment points at the shown state, while
  // simulating and when scrubbing, in the taut or slack colour of the cable's force: the
  // viewport's lines against a StructureSystem's own segments at the recorded states (the
  // tensegrity prism set swinging so that cables go slack and taut again)
  void cablesFollowTheShownState() {
    natural::StructureSpec spec =
        natural::loadStructure((kModels + "/tensegrity_prism.json").toStdString());
    spec.bodies[0].velocity = Eigen::Vector3d(-8, 0, 0);
    QTemporaryDir dir;
    const QString file = dir.filePath("swinging_prism.json");
    writeFileAtomically(file.toStdString(), natural::structureToJson(spec).dump(2));
    MainWindow w;
    QVERIFY(showActive(w));
    QVERIFY(w.openFile(file));
    Playback* p = w.playback();
    StructureSystem direct(spec);
    std::vector<SegmentReport> seg;
    auto shownMatches = [&](const Eigen::VectorXd& q, const Eigen::VectorXd& qd, int& slack) {
      direct.segments(q, qd, seg);
      if (seg.size() != 9) return false;
      for (int k = 0; k < 9; ++k) {
        const std::vector<Vec3> line = w.viewport()->segmentPolyline(k);
        if (line.size() != 2 || (line.front() - seg[k].a).norm() > 1e-12 ||
            (line.back() - seg[k].b).norm() > 1e-12)
          return false;
        const auto c = w.viewport()->segmentColour(k);
        if ((c[0] == 150) != seg[k].slack || (c[0] == 225) == seg[k].slack) return false;
        slack += seg[k].slack;
      }
      return true;
    };
    int slack = 0;
    QVERIFY(shownMatches(direct.positions(), direct.velocities(), slack));  // as opened
    QCOMPARE(slack, 0);  // pretensioned
    QVERIFY(simulateUntil(p, 0.4));
    QVERIFY(shownMatches(p->q(), p->qd(), slack));  // where the simulation paused
    const Recording& r = p->recording();
    // about 60 scrubbed samples over the whole recording (the unpaced run overshoots 0.4 s by
    // seconds: every 7th of them took 370 frames)
    for (std::size_t k = 10; k < r.size(); k += std::max<std::size_t>(7, r.size() / 60)) {
      p->setTime(r.time(k));
      QVERIFY2(shownMatches(r.q(k), r.qd(k), slack), qPrintable(QString("sample %1").arg(k)));
    }
    QVERIFY2(slack > 0, "no cable went slack: the test shows nothing");
  }

  // a model with constraints records its constraint forces with every sample, and the plots
  // offer one series per constraint row: the four-bar's loop forces, equal to the System's own
  // issue 36's plots at 1280x800 with every dock open (the Import Report's tab too): no label
  // or title is elided, each kind of quantity has its own y axis with its unit, ticks fall on
  // round values, and no series is drawn near the "now" line's red
  void plotsAreReadable() {
    QSettings().clear();
    MainWindow w;
    w.resize(1280, 800);
    QVERIFY(showActive(w));
    QVERIFY(w.openFile(kModels + "/double_pendulum.json"));
    // a first start gives the plots about a quarter of the window
    auto* plotsDock = w.findChild<QDockWidget*>("plotsDock");
    QVERIFY2(plotsDock->height() >= w.height() / 4 - 30, qPrintable(QString("%1 of %2").arg(plotsDock->height()).arg(w.height())));
    for (QDockWidget* dock : w.findChildren<QDockWidget*>()) dock->show();
    QVERIFY(simulateUntil(w.playback(), 1.0));
    PlotsPanel* plots = w.plots();
    plots->choose({"kinetic", "total", "qd[0] link1"});
    // q[1] ticked with the mouse, as the newcomer did
    auto* list = plots->findChild<QListWidget*>("plotChoice");
    QListWidgetItem* q1 = list->findItems("q[1] link2", Qt::MatchExactly).value(0);
    QVERIFY(q1);
    list->scrollToItem(q1);
    const QRect row = list->visualItemRect(q1);
    QTest::mouseClick(list->viewport(), Qt::LeftButton, Qt::NoModifier, QPoint(row.left() + 10, row.center().y()));
    QCOMPARE(q1->checkState(), Qt::Checked);
    plots->setCursor(0.5);
    plots->redraw();
    auto* view = plots->findChild<QChartView*>("plotView");
    QVERIFY(view && view->isVisible());
    QVERIFY2(waitUntilQuiet(view->scene()), "the chart kept changing for 10 s");
    QVERIFY2(view->height() >= 200, qPrintable(QString("%1 px").arg(view->height())));
    int texts = 0;
    QStringList elided, all;
    for (QGraphicsItem* item : view->scene()->items()) {
      QString t;
      if (auto* a = dynamic_cast<QGraphicsTextItem*>(item)) t = a->toPlainText();
      else if (auto* b = dynamic_cast<QGraphicsSimpleTextItem*>(item)) t = b->text();
      else continue;
      if (!item->isVisible() || t.isEmpty()) continue;
      ++texts;
      const QRectF at = item->sceneBoundingRect();
      all << QString("\"%1\" at (%2, %3) %4x%5").arg(t).arg(at.x()).arg(at.y()).arg(at.width()).arg(at.height());
      if (t.contains(QChar(0x2026)) || t.contains("...")) elided << all.back();
    }
    // on a failure, every label with its place, the view's size and the plotted span, so that
    // a failure seen once (in CI) says which label it was
    QVERIFY2(elided.isEmpty(), qPrintable(QString("elided: %1\nview %2x%3, t to %4 s; every label: %5")
                                              .arg(elided.join("; ")).arg(view->width()).arg(view->height())
                                              .arg(w.playback()->endTime()).arg(all.join("; "))));
    QVERIFY(texts > 10);  // the ticks, the titles and the legend were looked at
    // angles on their own axis in rad, energies in J
    QValueAxis* energy = plots->axis(PlotsPanel::Kind::Energy);
    QValueAxis* position = plots->axis(PlotsPanel::Kind::Position);
    QValueAxis* velocity = plots->axis(PlotsPanel::Kind::Velocity);
    QVERIFY(energy && position && velocity);
    QVERIFY(energy->titleText().contains("(J)"));
    QVERIFY(position->titleText().contains("rad"));
    QVERIFY(velocity->titleText().contains("rad/s"));
    QVERIFY(!plots->axis(PlotsPanel::Kind::Force));
    for (QAbstractSeries* series : view->chart()->series()) {
      if (series->name() != "q[1] link2") continue;
      QVERIFY(series->attachedAxes().contains(position));
      QVERIFY(!series->attachedAxes().contains(energy));
    }
    // the q axis spans q's own range, not the joules'
    const Recording& r = w.playback()->recording();
    double qlo = 1e9, qhi = -1e9;
    for (std::size_t k = 0; k < r.size(); ++k) qlo = std::min(qlo, r.q(k)(1)), qhi = std::max(qhi, r.q(k)(1));
    QVERIFY(position->min() <= qlo && position->max() >= qhi);
    QVERIFY(position->max() - position->min() < 1.5 * (qhi - qlo) + 1e-6);
    // round ticks: 1, 2 or 5 times a power of ten, from 0
    for (QValueAxis* a : {energy, position, velocity, plots->timeAxis()}) {
      QCOMPARE(a->tickType(), QValueAxis::TicksDynamic);
      QCOMPARE(a->tickAnchor(), 0.0);
      const double m = a->tickInterval() / std::pow(10.0, std::floor(std::log10(a->tickInterval())));
      QVERIFY2(std::abs(m - 1) < 1e-9 || std::abs(m - 2) < 1e-9 || std::abs(m - 5) < 1e-9,
               qPrintable(QString("%1: tick %2").arg(a->titleText()).arg(a->tickInterval())));
    }
    // colours apart from the "now" line
    const QColor now = PlotsPanel::nowColour();
    for (const QString& name : plots->chosen()) {
      const QColor c = plots->seriesColour(name);
      QVERIFY(c.isValid());
      const double d = std::hypot(c.red() - now.red(), c.green() - now.green(), c.blue() - now.blue());
      QVERIFY2(d > 100, qPrintable(QString("%1 is %2 from the now line").arg(name).arg(d)));
    }
    if (qEnvironmentVariableIsSet("ARTICULATE_TEST_SHOTS"))
      w.screen()->grabWindow(w.winId()).save(qEnvironmentVariable("ARTICULATE_TEST_SHOTS") + "/plots_all_docks.png");
  }

  // the plot of a fixed recording looks as its baseline image does (tests/render/baselines)
  void plotsMatchTheirBaseline() {
    Recording r(2, 2);
    for (int k = 0; k <= 300; ++k) {
      const double t = 0.01 * k;
      const Eigen::Vector2d q(std::sin(2 * t), 0.5 * std::cos(3 * t)), qd(2 * std::cos(2 * t), -1.5 * std::sin(3 * t));
      const double kinetic = 0.5 * qd.squaredNorm(), potential = 9.81 * (1 - std::cos(q(0)));
      r.append(t, q, qd, kinetic, potential);
    }
    PlotsPanel plots;
    plots.setQuantities({"q[0] a", "q[1] b"}, {"qd[0] a", "qd[1] b"});
    plots.resize(900, 320);
    plots.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plots));
    plots.setRecording(&r);
    plots.choose({"kinetic", "potential", "total", "q[1] b"});
    plots.setCursor(1.25);
    plots.redraw();
    QVERIFY(waitUntilQuiet(plots.findChild<QChartView*>("plotView")->scene()));
    const QImage image = plots.findChild<QChartView*>("plotView")->grab().toImage();
    if (qEnvironmentVariableIsSet("ARTICULATE_UPDATE_BASELINES")) {
      QVERIFY(image.save(QStringLiteral(ARTICULATE_RENDER_BASELINES) + "/plots.png"));
      QSKIP("baseline written");
    }
    const QString problem = compareWithBaseline(image, "plots");
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
  }

  void constraintForcesArePlotted() {
    MainWindow w;
    QVERIFY(showActive(w));
    QVERIFY(w.openFile(kModels + "/fourbar.json"));
    Playback* p = w.playback();
    QVERIFY(simulateUntil(p, 0.2));
    const Recording& r = p->recording();
    TreeSystem direct(std::make_shared<const Model>(compile(w.model()->spec)),
                      simulationOptions(w.model()->spec));
    QCOMPARE(r.constraintSize(), direct.constraintSize());
    QVERIFY(r.constraintSize() > 0);
    Eigen::VectorXd lambda(direct.constraintSize());
    for (std::size_t k = 1; k < r.size() && k < 100; ++k) {
      QVERIFY(direct.step());
      direct.currentConstraintForces(lambda);
      QVERIFY2((lambda - r.lambda(k)).norm() <= 1e-12 * lambda.norm(),
               qPrintable(QString("sample %1").arg(k)));
    }
    const QString name = QString("lambda[0] ") + QString::fromStdString(direct.constraintName(0));
    PlotsPanel* plots = w.plots();
    plots->choose({"total", name});
    QCOMPARE(plots->chosen(), QStringList({"total", name}));
    QVERIFY(plots->pointCount(name) > 10);
  }

  // Ctrl+drag pulls a body while the simulation runs (perturbation): a pendulum hanging at
  // rest, which would stay there, swings towards the mouse while the button is held, with the
  // spring drawn from the grabbed point to the mouse; a plain drag turns the camera instead
  // a model whose joints dissipate (models/limited_arm.json) plots the energy dissipated and the
  // total plus it, which stays at its start while the total falls; resuming from a sample goes
  // on counting from it; a saved recording keeps it; other models offer the series unticked
  void dissipatedEnergyIsPlotted() {
    MainWindow w;
    QVERIFY(showActive(w));
    QVERIFY(w.openFile(kModels + "/limited_arm.json"));
    PlotsPanel* plots = w.plots();
    QVERIFY(plots->chosen().contains("dissipated"));
    QVERIFY(plots->chosen().contains("total + dissipated"));
    Playback* p = w.playback();
    QVERIFY(simulateUntil(p, 2.0));
    const Recording& r = p->recording();
    const auto total = [&](std::size_t k) { return r.kinetic(k) + r.potential(k); };
    const auto balance = [&] {  // the worst |E + dissipated - E(0)| over the samples (J)
      double worst = 0;
      for (std::size_t k = 0; k < r.size(); ++k) worst = std::max(worst, std::abs(total(k) + r.dissipated(k) - total(0)));
      return worst;
    };
    const double lost = total(0) - total(r.size() - 1);
    QVERIFY(lost > 0.5);
    QVERIFY2(balance() < 1e-4 * lost, qPrintable(QString::number(balance())));  // as test_simulator
    plots->redraw();
    QVERIFY(plots->pointCount("dissipated") > 10);
    QVERIFY(plots->pointCount("total + dissipated") > 10);
    // the energies' colours differ from each other and from the red "now" cursor
    plots->choose({"kinetic", "potential", "total", "dissipated", "total + dissipated"});
    plots->redraw();
    std::vector<QColor> colours;
    for (QAbstractSeries* a : plots->findChild<QChartView*>()->chart()->series())
      if (auto* line = qobject_cast<QLineSeries*>(a); line && plots->chosen().contains(line->name())) colours.push_back(line->color());
    QCOMPARE(colours.size(), std::size_t{5});
    const auto distance = [](const QColor& a, const QColor& b) {
      return std::hypot(a.red() - b.red(), a.green() - b.green(), a.blue() - b.blue());
    };
    for (std::size_t i = 0; i < colours.size(); ++i) {
      QVERIFY2(distance(colours[i], QColor(200, 40, 40)) > 100, qPrintable(colours[i].name()));
      for (std::size_t j = 0; j < i; ++j) QVERIFY(distance(colours[i], colours[j]) > 60);
    }
    // resume from here at 1 s: the samples after it go on from its energy dissipated
    p->setTime(1.0);
    const std::size_t k = r.indexAt(1.0);
    const double before = r.dissipated(k);
    QVERIFY(before > 0);
    p->resumeFromHere();
    QVERIFY(waitFor([&] { return p->endTime() > 1.5; }, 20));
    p->pause();
    QVERIFY(waitFor([&] { return !p->simulating(); }, 5));
    QCOMPARE(r.dissipated(k), before);
    QVERIFY(r.dissipated(r.size() - 1) > before);
    QVERIFY2(balance() < 1e-4 * lost, qPrintable(QString::number(balance())));  // as test_simulator
    // CSV: one column for the sum
    plots->choose({"dissipated", "total + dissipated"});
    QTemporaryDir dir;
    plots->exportCsv(dir.filePath("plots.csv"));
    QFile csv(dir.filePath("plots.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(csv.readLine()).trimmed(), QString("t,dissipated,total+dissipated"));
    // F2's overlay gives the energy dissipated at the playhead and E + dissipated
    key(w, Qt::Key_F2);
    p->setTime(1.0);
    const QString overlay = w.viewport()->infoText();
    const double shown = overlay.section("dissipated ", 1).section(' ', 0, 0).toDouble();
    QVERIFY2(std::abs(shown - r.dissipated(r.indexAt(1.0))) < 1e-4 && shown > 0, qPrintable(overlay));
    QVERIFY2(overlay.contains("E + dissipated"), qPrintable(overlay));
    if (qEnvironmentVariableIsSet("ARTICULATE_TEST_SHOTS"))
      w.screen()->grabWindow(w.winId()).save(qEnvironmentVariable("ARTICULATE_TEST_SHOTS") + "/status_dissipated.png");
    key(w, Qt::Key_F2);
    // saved and opened again, the recording keeps the energy dissipated
    QVERIFY(w.saveRecordingTo(dir.filePath("rec.json")));
    MainWindow again;
    QVERIFY(again.openFile(dir.filePath("rec.json")));
    const Recording& back = again.playback()->recording();
    QCOMPARE(back.size(), r.size());
    QCOMPARE(back.dissipated(back.size() - 1), r.dissipated(r.size() - 1));
    QVERIFY(again.plots()->chosen().contains("total + dissipated"));
    // a model without damping, friction or stops offers the series, unticked
    MainWindow plain;
    QVERIFY(plain.openFile(kModels + "/double_pendulum.json"));
    QVERIFY(!plain.plots()->chosen().contains("dissipated"));
    plain.plots()->choose({"total", "dissipated"});
    QCOMPARE(plain.plots()->chosen(), QStringList({"total", "dissipated"}));
  }

  void ctrlDragPullsTheBody() {
    QTemporaryDir dir;
    const QString file = dir.filePath("hanging.json");
    {
      QFile f(file);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(R"({"format": "articulate-model", "version": 1, "name": "hanging", "kind": "tree",
        "gravity": [0, 0, -9.81],
        "bodies": [{"name": "bob", "parent": "base", "joint": "Ry",
          "inertia": {"mass": 2.0, "com": [0, 0, -1], "about_com": [0.01, 0.01, 0.01]},
          "appearance": ["box", [[-0.15, -0.15, -1.15], [0.15, 0.15, -0.85]]]}]})");
    }
    MainWindow w;
    w.resize(1200, 800);
    QVERIFY(showActive(w));
    QVERIFY(w.openFile(file));
    Playback* p = w.playback();
    Viewport* v = w.viewport();
    QVERIFY(p->live());
    QVERIFY(v->perturbable());
    auto bobX = [&] {
      const BodyPose pose = v->bodyPose(0);
      return (pose.position + pose.rotation * Vec3(0, 0, -1)).x();
    };
    const QPoint at = v->widgetPoint(Vec3(0, 0, -1));
    const auto move = [&](QPoint to, Qt::KeyboardModifiers mods) {
      QMouseEvent e(QEvent::MouseMove, to, v->mapToGlobal(QPointF(to)), Qt::NoButton,
                    Qt::LeftButton, mods);
      QApplication::sendEvent(v, &e);
    };

    // a plain drag: the camera turns, nothing pulls
    const ViewState before = v->viewState();
    QTest::mousePress(v, Qt::LeftButton, Qt::NoModifier, at);
    move(at + QPoint(40, 0), Qt::NoModifier);
    QVERIFY(!p->perturbation());
    QTest::mouseRelease(v, Qt::LeftButton, Qt::NoModifier, at + QPoint(40, 0));
    QVERIFY((v->viewState().position - before.position).norm() > 1e-3);
    v->resetView();

    // Ctrl+drag to the right of the bob (+x on screen: the default camera looks along +y)
    const QPoint grab = v->widgetPoint(Vec3(0, 0, -1));
    QTest::mousePress(v, Qt::LeftButton, Qt::ControlModifier, grab);
    QVERIFY(p->perturbation().has_value());
    QCOMPARE(p->perturbation()->body, 0);
    QVERIFY(!p->perturbation()->torque);
    for (int k = 1; k <= 5; ++k) move(grab + QPoint(30 * k, 0), Qt::ControlModifier);
    const Perturbation pull = *p->perturbation();
    // the target is under the mouse, to the right of the bob, at the bob's depth
    QVERIFY((v->widgetPoint(pull.target) - (grab + QPoint(150, 0))).manhattanLength() <= 1);
    QVERIFY2(pull.target.x() > 0.1, qPrintable(QString::number(pull.target.x())));
    const Vec3 grabbed = v->bodyPose(0).position + v->bodyPose(0).rotation * pull.point;
    QVERIFY(std::abs(pull.target.y() - grabbed.y()) < 1e-6);  // a horizontal drag on a camera
    QVERIFY(std::abs(pull.target.z() - grabbed.z()) < 1e-6);  // whose right is +x moves along x
    // the spring is scaled to the bob's mass (2 kg)
    QCOMPARE(pull.stiffness, 2.0 * kPerturbationFrequency * kPerturbationFrequency);
    QVERIFY(w.statusText().contains("Pulling 'bob'"));
    // drawn: a spring from the grabbed point, where it is shown, to the mouse's point
    const std::vector<Vec3> line = v->segmentPolyline(0);
    QVERIFY(line.size() >= 2);
    QVERIFY((line.back() - pull.target).norm() < 1e-9);
    const BodyPose shown = v->bodyPose(0);
    QVERIFY((line.front() - (shown.position + shown.rotation * pull.point)).norm() < 1e-9);

    // it swings towards the mouse while held
    QCOMPARE(bobX(), 0.0);
    if (qEnvironmentVariableIsSet("ARTICULATE_TEST_SHOTS"))  // the spring, as seen
      w.screen()->grabWindow(w.winId()).save(qEnvironmentVariable("ARTICULATE_TEST_SHOTS") + "/pull.png");

    key(w, Qt::Key_Space);
    QVERIFY(waitFor([&] { return p->endTime() > 1.0; }, 20));
    QVERIFY2(bobX() > 0.1, qPrintable(QString::number(bobX())));

    // let go: no spring, none drawn
    QTest::mouseRelease(v, Qt::LeftButton, Qt::ControlModifier, grab + QPoint(150, 0));
    QVERIFY(!p->perturbation());
    QVERIFY(v->segmentPolyline(0).empty());
    key(w, Qt::Key_Space);
    QVERIFY(waitFor([&] { return !p->simulating(); }, 2));
  }

  // F2 shows the status overlay in the view's corner: time, real-time factor, step, frame rate
  // and the energy of the sample shown
  void statusOverlay() {
    MainWindow w;
    w.resize(1200, 800);
    QVERIFY(showActive(w));
    QVERIFY(w.openFile(kModels + "/double_pendulum.json"));
    Playback* p = w.playback();
    Viewport* v = w.viewport();
    QVERIFY(v->infoText().isEmpty());
    key(w, Qt::Key_F2);
    QVERIFY(v->infoText().startsWith("t = 0.000 s"));
    QVERIFY(v->infoText().contains("paused"));
    key(w, Qt::Key_Space);
    QVERIFY(waitFor([&] { return p->endTime() > 0.5; }, 20));
    QVERIFY(waitFor([&] { return v->infoText().contains("real time x"); }, 5));
    key(w, Qt::Key_Space);
    QVERIFY(waitFor([&] { return !p->simulating(); }, 2));
    p->setTime(0.25);
    const QString text = v->infoText();
    QVERIFY2(text.contains("t = 0.250 s") && text.contains("step 1 ms") && text.contains(" fps"),
             qPrintable(text));
    // the energy of the sample under the playhead, as the recording has it
    const Recording& r = p->recording();
    const std::size_t k = r.indexAt(0.25);
    const double E = text.section("E ", 1).section(' ', 0, 0).toDouble();
    QVERIFY2(std::abs(E - (r.kinetic(k) + r.potential(k))) < 1e-4, qPrintable(text));
    QVERIFY2(!text.contains("dissipated"), qPrintable(text));  // a passive model dissipates nothing
    if (qEnvironmentVariableIsSet("ARTICULATE_TEST_SHOTS"))
      w.screen()->grabWindow(w.winId()).save(qEnvironmentVariable("ARTICULATE_TEST_SHOTS") + "/status.png");
    key(w, Qt::Key_F2);
    QVERIFY(v->infoText().isEmpty());
  }

  void divergencePausesWithAMessage() {
    // a joint force ramping without bound drives the energy past the divergence limit
    ModelSpec s;
    s.name = "runaway";
    BodySpec b;
    b.name = "rotor";
    b.joint.type = JointType::Rz;
    b.inertia = InertiaSpec::fromMassComInertia(1.0, Vec3(0.2, 0, 0), Mat3::Identity() * 0.01);
    b.appearance = nlohmann::json::parse(R"(["box", [[0, -0.05, -0.05], [0.4, 0.05, 0.05]]])");
    b.control.type = ControlSpec::Type::Table;
    b.control.times = {0.0, 1.0};
    b.control.torques = {0.0, 1e3};
    s.bodies.push_back(b);
    QTemporaryDir dir;
    saveModel(dir.filePath("runaway.json").toStdString(), s);
    MainWindow w;
    QVERIFY(showActive(w));
    QVERIFY(w.openFile(dir.filePath("runaway.json")));
    Playback* p = w.playback();
    p->setUnpaced(true);
    key(w, Qt::Key_Space);
    QVERIFY(waitFor([&] { return !w.lastError().isEmpty(); }, 20));
    QVERIFY2(w.lastError().contains("diverged at t = "), qPrintable(w.lastError()));
    QVERIFY(w.statusText().contains("diverged"));
    QVERIFY(waitFor([&] { return !p->playing(); }, 2));
    QVERIFY2(p->recording().size() > 100, qPrintable(QString("%1 samples; %2").arg(p->recording().size()).arg(w.lastError())));
    for (std::size_t k = 0; k < p->recording().size(); ++k)
      QVERIFY(p->recording().q(k).allFinite());
    // the pose shown is finite and the last good one
    QVERIFY(p->q().allFinite());
  }
};

ARTICULATE_TEST_MAIN(TestPlayback)
#include "test_playback.moc"
