// The Controls dock, driven with real input events: dragging a slider turns a position-servoed
// joint to its target, a typed number sets a control exactly, rewinding with the 0 key shows
// the control that was in force then, Zero all zeroes them, and the rows show each actuator's
// force at the shown state; the shipped gripper lifts a box off a table by its sliders.
#include <QtTest>

#include "test_main.h"

#include <functional>
#include <QtWidgets>

#include <cmath>

#include "articulate/formats/articulate.h"
#include "articulate/simulation/recording.h"
#include "controls.h"
#include "keyframes.h"
#include "plots.h"
#include "main_window.h"
#include "playback.h"
#include "window_test.h"
#include "../engine/arm7.h"
#include "viewport/viewport.h"

using namespace art;
using namespace art::gui;
using namespace art::test;

namespace {

// an arm on a hinge without gravity, held by a position servo (kp 20, damped by the joint),
// and a motor on the same joint whose force follows its control through a 0.1 s filter
const char* kServo =
    "<mujoco model='servo'><compiler angle='radian' inertiafromgeom='false'/><option gravity='0 0 0' timestep='0.001' integrator='RK4'/>"
    "<worldbody><body name='arm'><joint name='hinge' axis='0 1 0' damping='2'/>"
    "<inertial pos='0.3 0 0' mass='1' diaginertia='0.01 0.01 0.01'/><geom type='capsule' fromto='0 0 0 0.6 0 0' size='0.03'/>"
    "</body></worldbody><actuator><position name='servo' joint='hinge' kp='20' ctrlrange='-1.5 1.5'/>"
    "<general name='push' joint='hinge' gear='2' dyntype='filter' dynprm='0.1'/></actuator></mujoco>";

// writes kServo into `tmp` and opens it in the shown window
bool openServo(MainWindow& w, const QTemporaryDir& tmp) {
  const QString path = tmp.filePath("servo.xml");
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly)) return false;
  f.write(kServo);
  f.close();
  return openShown(w, path);
}

// drags a slider's handle to the fraction `to` of its groove with the mouse
void drag(QSlider* s, double to) {
  QStyleOptionSlider opt;
  opt.initFrom(s);
  opt.orientation = s->orientation();
  opt.minimum = s->minimum();
  opt.maximum = s->maximum();
  opt.sliderPosition = s->sliderPosition();
  opt.sliderValue = s->value();
  const QRect handle = s->style()->subControlRect(QStyle::CC_Slider, &opt, QStyle::SC_SliderHandle, s);
  const QRect groove = s->style()->subControlRect(QStyle::CC_Slider, &opt, QStyle::SC_SliderGroove, s);
  const QPoint from = handle.center();
  const QPoint target(groove.left() + handle.width() / 2 + static_cast<int>(to * (groove.width() - handle.width())), from.y());
  QTest::mousePress(s, Qt::LeftButton, Qt::NoModifier, from);
  for (int k = 1; k <= 10; ++k) QTest::mouseMove(s, from + (target - from) * k / 10);
  QTest::mouseRelease(s, Qt::LeftButton, Qt::NoModifier, target);
}

// the dock is a tab: raises it so that its sliders take the mouse
bool raised(ControlsPanel* c) {
  auto* dock = qobject_cast<QDockWidget*>(c->parentWidget());
  if (!dock) return false;
  dock->raise();
  return waitFor([&] { return c->slider(0)->isVisible(); }, 2);
}

}  // namespace

class TestControls : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
  }

  void dragTurnsServoToTarget() {
    QTemporaryDir tmp;
    MainWindow w;
    QVERIFY(openServo(w, tmp));
    ControlsPanel* c = w.controlsPanel();
    QCOMPARE(c->rowCount(), 2);
    QVERIFY(raised(c));
    // drag the servo's slider three quarters along: ctrl = -1.5 + 0.75 * 3 = 0.75 (to the pixel)
    drag(c->slider(0), 0.75);
    const double target = c->controls()(0);
    QVERIFY2(std::abs(target - 0.75) < 0.05, qPrintable(QString::number(target)));
    QCOMPARE(w.playback()->controls()(0), target);
    // simulate 5 s: the damped servo turns the arm to its target
    QVERIFY(simulateUntil(w.playback(), 5.0));
    const double q = w.playback()->recording().q(w.playback()->recording().size() - 1)(0);
    qInfo() << "servo target" << target << "rad, arm at" << q << "rad at t =" << w.playback()->endTime() << "s";
    QVERIFY2(std::abs(q - target) < 1e-3, qPrintable(QString::number(q - target)));
    // the force shown is the servo's at the shown state: kp (ctrl - q), near zero at rest
    QVERIFY(!c->forceText(0).isEmpty());
    QVERIFY2(std::abs(c->forceText(0).toDouble()) < 0.05, qPrintable(c->forceText(0)));

    // a typed number sets the motor's control exactly; later, rewinding shows the earlier ones
    QDoubleSpinBox* box = c->spinBox(1);
    box->setFocus();
    box->selectAll();
    QTest::keyClicks(box, "0.5");
    QTest::keyClick(box, Qt::Key_Return);
    QCOMPARE(c->controls()(1), 0.5);
    QCOMPARE(w.playback()->controls()(1), 0.5);
    // run on until the recording holds the change (stamped with the simulation's time when it
    // took effect) and a second after it
    Playback* p = w.playback();
    p->setUnpaced(true);
    p->play();
    QVERIFY(waitFor([&] { return p->recording().controls().size() == 2 && p->endTime() > p->recording().controls().back().time + 1; }, 20));
    p->pause();
    QVERIFY(waitFor([&] { return !p->simulating(); }, 5));
    const ControlChange change = p->recording().controls().back();
    QCOMPARE(change.ctrl(1), 0.5);
    QCOMPARE(change.ctrl(0), target);
    QCOMPARE(p->recording().controlsAt(p->endTime())(1), 0.5);
    // rewind with the 0 key (the focus back on the view, as a click there puts it): the controls
    // in force at the start show again (the servo's target, the motor at zero)
    w.centralWidget()->setFocus();
    key(w, Qt::Key_0);
    QVERIFY(waitFor([&] { return w.playback()->time() == w.playback()->startTime(); }, 2));
    QCOMPARE(c->controls()(1), 0.0);
    QCOMPARE(c->controls()(0), target);
    QCOMPARE(c->spinBox(1)->value(), 0.0);

    // Zero all, clicked (back at the end: 0 again): every control to zero, in the panel and the
    // simulation
    key(w, Qt::Key_0);
    QTest::mouseClick(c->zeroButton(), Qt::LeftButton);
    QCOMPARE(c->controls(), Eigen::VectorXd::Zero(2));
    QCOMPARE(w.playback()->controls(), Eigen::VectorXd::Zero(2));
  }

  // a control set while paused over the past goes on from there when the simulation resumes
  // there, not the one recorded at that moment (which came back before, while the panel showed
  // the new one)
  void controlSetWhilePausedResumesFromThePast() {
    MainWindow w;
    QVERIFY(openShown(w, ARTICULATE_MODELS_DIR "/robots/mjcf_pick/pick_box.xml", QSize(1000, 700)));
    ControlsPanel* c = w.controlsPanel();
    QVERIFY(raised(c));
    Playback* p = w.playback();
    drag(c->slider(0), 1.0);  // lift: up, recorded from the start
    QVERIFY(simulateUntil(p, 0.4));
    p->setTime(0.2);
    drag(c->slider(0), 0.0);  // lift: down
    const double lift = c->controls()(0);
    QVERIFY(std::abs(lift + 0.05) < 1e-3);
    p->resumeFromHere();
    QVERIFY(waitFor([&] { return p->endTime() > 0.5; }, 20));
    p->pause();
    QVERIFY(waitFor([&] { return !p->simulating(); }, 5));
    QCOMPARE(p->controls()(0), lift);
    QCOMPARE(p->recording().controlsAt(p->endTime())(0), lift);
  }

  // the shipped pick scene (models/robots/mjcf_pick) driven by the sliders as a user drives it:
  // lift down round the box, grip closed, lift up; the box comes off the table in the jaws
  void gripperLiftsABoxBySliders() {
    MainWindow w;
    QVERIFY(openShown(w, ARTICULATE_MODELS_DIR "/robots/mjcf_pick/pick_box.xml", QSize(1000, 700)));
    ControlsPanel* c = w.controlsPanel();
    QCOMPARE(c->rowCount(), 2);
    QVERIFY(raised(c));
    Playback* p = w.playback();
    const Model model = compile(w.model()->spec);
    const int box = w.model()->spec.findBody("box");
    QVERIFY(box >= 0);
    const int bz = model.qIndex[static_cast<std::size_t>(box)] + 2;
    const double z0 = model.q0(bz);
    const auto last = [&] { return Eigen::VectorXd(p->recording().q(p->recording().size() - 1)); };
    const auto boxHeight = [&] { return last()(bz); };
    const auto at = [&](const char* body) {
      return model.qIndex[static_cast<std::size_t>(w.model()->spec.findBody(body))];
    };
    // each phase runs on from where the recording ends (an unpaced run may pass the time asked
    // for) until what it drives has got there: a loaded machine applies a dragged control at
    // another moment of the simulation
    const auto runUntil = [&](const std::function<bool()>& done) {
      for (int k = 0; k < 30; ++k) {
        if (!simulateUntil(p, p->endTime() + 0.2)) return false;
        if (done()) return true;
      }
      return false;
    };
    drag(c->slider(0), 0.0);  // lift: to the bottom of its range, the jaws round the box
    QVERIFY(std::abs(c->controls()(0) + 0.05) < 1e-3);
    QVERIFY2(runUntil([&] { return last()(at("carriage")) < -0.045; }), "the lift did not come down");
    QVERIFY(simulateUntil(p, p->endTime() + 0.3));
    drag(c->slider(1), 1.0);  // grip: closed, until the jaws stop on the box
    QVERIFY(std::abs(c->controls()(1) - 0.05) < 1e-3);
    double before = last()(at("left"));
    QVERIFY2(runUntil([&] {
               const double now = last()(at("left")), moved = std::abs(now - before);
               before = now;
               return now > 0.01 && moved < 1e-5;
             }),
             "the jaws did not close on the box");
    QVERIFY2(std::abs(boxHeight() - z0) < 2e-3, "the box left the table before the lift");
    drag(c->slider(0), 0.85);  // lift: up, to about 0.12 (the box with it, unless it slips out)
    QVERIFY(simulateUntil(p, p->endTime() + 1.5));
    runUntil([&] { return boxHeight() - z0 > 0.12; });  // under load the drag lands later in simulated time
    const double lifted = boxHeight() - z0;
    const Eigen::VectorXd qEnd = p->recording().q(p->recording().size() - 1);
    qInfo() << "the box rose" << lifted << "m with the lift at" << c->controls()(0) << "and the jaws at"
            << qEnd(model.qIndex[static_cast<std::size_t>(w.model()->spec.findBody("left"))])
            << qEnd(model.qIndex[static_cast<std::size_t>(w.model()->spec.findBody("right"))]) << "m; grip"
            << c->controls()(1);
    QVERIFY2(lifted > 0.12, qPrintable(QString::number(lifted)));
    if (qEnvironmentVariableIsSet("ARTICULATE_TEST_SHOTS")) {
      QTest::qWait(50);
      w.screen()->grabWindow(w.winId()).save(qEnvironmentVariable("ARTICULATE_TEST_SHOTS") + "/gripper-lifts-box.png");
    }
  }

  // Simulation > Add Servos, chosen with the keyboard (Alt+S, v): a servo on each of a 7-joint
  // arm's joints, one undoable edit, and the arm holds its pose under gravity for 5 s
  void addServosHoldsAnArm() {
    const ModelSpec spec = test::sevenJointArm();
    QTemporaryDir tmp;
    const QString path = tmp.filePath("arm7.json");
    saveModel(path.toStdString(), spec);
    MainWindow w;
    QVERIFY(openShown(w, path));
    QCOMPARE(w.controlsPanel()->rowCount(), 0);
    key(w, Qt::Key_S, Qt::AltModifier);
    QVERIFY(waitFor([] { return QApplication::activePopupWidget() != nullptr; }, 2));
    QTest::keyClick(QApplication::activePopupWidget(), Qt::Key_V);
    QVERIFY(waitFor([&] { return w.model()->spec.actuators.size() == 7; }, 2));
    QCOMPARE(w.controlsPanel()->rowCount(), 7);
    QCOMPARE(w.controlsPanel()->controls()(1), 0.8);  // each servo starts at the joint's pose
    // one edit: undo takes all seven away, redo brings them back
    key(w, Qt::Key_Z, Qt::ControlModifier);
    QVERIFY(waitFor([&] { return w.model()->spec.actuators.empty(); }, 2));
    key(w, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    QVERIFY(waitFor([&] { return w.model()->spec.actuators.size() == 7; }, 2));
    QVERIFY(simulateUntil(w.playback(), 5.0));
    const Recording& r = w.playback()->recording();
    double drift = 0;
    for (std::size_t k = 0; k < r.size() && r.time(k) <= 5.0; ++k)
      for (int i = 0; i < 7; ++i) drift = std::max(drift, std::abs(r.q(k)(i) - spec.bodies[static_cast<std::size_t>(i)].q0));
    qInfo() << "arm7 with servos: largest drift over 5 s" << drift << "rad";
    QVERIFY(r.endTime() >= 5.0);
    QVERIFY2(drift < 0.01, qPrintable(QString::number(drift)));
  }

  // a keyframe keeps the controls in force and the activations (added with Ctrl+K), and
  // restoring it with the Keyframes dock's button brings them back, into the panel and the
  // simulation
  void keyframesKeepControls() {
    QTemporaryDir tmp;
    MainWindow w;
    QVERIFY(openServo(w, tmp));
    ControlsPanel* c = w.controlsPanel();
    QDoubleSpinBox* box = c->spinBox(0);
    box->setFocus();
    box->selectAll();
    QTest::keyClicks(box, "1.25");
    QTest::keyClick(box, Qt::Key_Return);
    QDoubleSpinBox* push = c->spinBox(1);
    push->setFocus();
    push->selectAll();
    QTest::keyClicks(push, "0.5");
    QTest::keyClick(push, Qt::Key_Return);
    QVERIFY(simulateUntil(w.playback(), 0.5));
    w.centralWidget()->setFocus();
    key(w, Qt::Key_K, Qt::ControlModifier);
    QVERIFY(waitFor([&] { return w.model()->spec.keyframes.size() == 1; }, 2));
    const KeyframeSpec kept = w.model()->spec.keyframes[0];
    QCOMPARE(kept.ctrl.size(), Eigen::Index(2));
    QCOMPARE(kept.ctrl(0), 1.25);
    QCOMPARE(kept.act.size(), Eigen::Index(1));
    QVERIFY2(kept.act(0) > 0.45 && kept.act(0) < 0.5, qPrintable(QString::number(kept.act(0))));  // 0.5 (1 - e^-5)
    // the servo's target changes and the push dies away, then the keyframe comes back with its own
    box->setFocus();
    box->selectAll();
    QTest::keyClicks(box, "-1");
    QTest::keyClick(box, Qt::Key_Return);
    QCOMPARE(w.playback()->controls()(0), -1.0);
    push->setFocus();
    push->selectAll();
    QTest::keyClicks(push, "0");
    QTest::keyClick(push, Qt::Key_Return);
    QVERIFY(simulateUntil(w.playback(), 1.5));
    auto* dock = qobject_cast<QDockWidget*>(w.keyframes()->parentWidget());
    dock->raise();
    auto* restore = w.keyframes()->findChild<QPushButton*>("restoreKeyframeButton");
    QVERIFY(restore);
    QVERIFY(waitFor([&] { return restore->isVisible() && restore->isEnabled(); }, 2));
    QTest::mouseClick(restore, Qt::LeftButton);
    QVERIFY(waitFor([&] { return w.playback()->controls()(0) == 1.25; }, 2));
    QCOMPARE(c->controls()(0), 1.25);
    // the simulation goes on from the kept activation, not from zero
    const Recording& r = w.playback()->recording();
    QVERIFY(waitFor([&] { return !r.empty() && r.endTime() == kept.time; }, 2));
    QCOMPARE(r.auxiliary(r.size() - 1)(r.auxiliarySize() - 1), kept.act(0));
  }

  // the Plots dock offers each actuator's control, force and activation and each tendon's
  // length: a control set by the panel is what the ctrl series plots, and the servo's force is
  // kp (ctrl - q) - kv qd at every sample
  void plotsOfActuators() {
    QTemporaryDir tmp;
    MainWindow w;
    QVERIFY(openServo(w, tmp));
    PlotsPanel* plots = w.plots();
    // an actuated model's energy account is plotted from the start: what its actuators did and
    // total + dissipated - work, which stays put (not total + dissipated, which they change)
    QCOMPARE(plots->chosen(), QStringList({"kinetic", "potential", "total", "dissipated", "actuator work",
                                           "total + dissipated - work"}));
    plots->choose({"ctrl[0] servo", "force[0] servo", "q[0] arm", "qd[0] arm"});
    QCOMPARE(plots->chosen().size(), 4);
    QDoubleSpinBox* box = w.controlsPanel()->spinBox(0);
    box->setFocus();
    box->selectAll();
    QTest::keyClicks(box, "0.6");
    QTest::keyClick(box, Qt::Key_Return);
    QVERIFY(simulateUntil(w.playback(), 1.0));
    plots->redraw();
    QVERIFY(plots->pointCount("ctrl[0] servo") > 10);
    const QString csv = tmp.filePath("plots.csv");
    plots->exportCsv(csv);
    QFile in(csv);
    QVERIFY(in.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(in.readAll()).split('\n', Qt::SkipEmptyParts);
    in.close();
    QCOMPARE(lines.front(), QString("t,q[0],qd[0],ctrl[0],force[0]"));
    double worst = 0;
    for (int k = 1; k < lines.size(); ++k) {
      const QStringList v = lines[k].split(',');
      const double q = v[1].toDouble(), qd = v[2].toDouble(), ctrl = v[3].toDouble(), force = v[4].toDouble();
      QCOMPARE(ctrl, 0.6);
      worst = std::max(worst, std::abs(force - 20 * (ctrl - q)));  // the servo has no kv: its joint damps
      (void)qd;
    }
    QVERIFY2(worst < 1e-12, qPrintable(QString::number(worst)));
    // the recorded account balances: the servo's work went into energy and the joint's damping
    plots->choose({"actuator work", "total + dissipated - work"});
    plots->exportCsv(csv);
    QVERIFY(in.open(QIODevice::ReadOnly));
    const QStringList account = QString::fromUtf8(in.readAll()).split('\n', Qt::SkipEmptyParts);
    in.close();
    QCOMPARE(account.front(), QString("t,actuatorwork,total+dissipated-work"));
    double work = 0, drift = 0;
    const double start = account[1].split(',')[2].toDouble();
    for (int k = 1; k < account.size(); ++k) {
      const QStringList v = account[k].split(',');
      work = std::max(work, std::abs(v[1].toDouble()));
      drift = std::max(drift, std::abs(v[2].toDouble() - start));
    }
    QVERIFY2(work > 0.5 && drift < 1e-4 * work, qPrintable(QString("%1 %2").arg(work).arg(drift)));
  }

  // Simulation > Load Controls: a CSV table replays: every recorded sample logs the table's
  // interpolated controls, and the Controls dock shows them when scrubbed to
  void controlTableReplays() {
    QTemporaryDir tmp;
    const QString path = tmp.filePath("servo.xml"), table = tmp.filePath("ctrl.csv");
    QFile f(path), t(table);
    QVERIFY(f.open(QIODevice::WriteOnly) && t.open(QIODevice::WriteOnly));
    f.write(kServo);
    f.close();
    t.write("t,servo,push\n0,0,0\n1,1,0.2\n2,-0.5,0\n");
    t.close();
    MainWindow w;
    QVERIFY(openShown(w, path));
    QVERIFY(w.loadControls(table).isEmpty());
    QVERIFY(simulateUntil(w.playback(), 2.5));
    const Recording& r = w.playback()->recording();
    double worst = 0;
    for (std::size_t k = 0; k < r.size(); ++k) {
      const double s = r.time(k);
      const double expected = s <= 1 ? s : s <= 2 ? 1 - 1.5 * (s - 1) : -0.5;
      worst = std::max(worst, std::abs(r.controlsAt(s)(0) - expected));
    }
    QVERIFY2(worst < 1e-12, qPrintable(QString::number(worst)));
    // scrubbed to t = 1 s, the dock shows the controls of the sample there (the log holds one
    // per step of 1 ms: within a step of the ramp, 1 per second)
    w.playback()->setTime(1.0);
    QVERIFY(waitFor([&] { return std::abs(w.controlsPanel()->controls()(0) - 1.0) <= 1.5e-3; }, 2));
    QVERIFY(std::abs(w.controlsPanel()->controls()(1) - 0.2) <= 0.3e-3);
    // the servo followed: at t = 2.5 s its arm is on its way to -0.5
    QVERIFY(r.q(r.indexAt(2.5))(0) < 0.2);
    // a table naming no actuator is refused, naming the column
    QFile bad(tmp.filePath("bad.csv"));
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write("t,nope\n0,1\n");
    bad.close();
    // the refusal shows in a message box, which the user closes (here, a timer)
    QString shown;
    QTimer::singleShot(0, [&] {
      QVERIFY(waitFor([] { return QApplication::activeModalWidget() != nullptr; }, 5));
      auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
      if (!box) return;
      shown = box->text() + "\n" + box->informativeText();
      box->accept();
    });
    QVERIFY(w.loadControls(bad.fileName()).contains("column 2: 'nope' is not an actuator"));
    QVERIFY2(shown.contains("Could not load the controls.") && shown.contains("'nope' is not an actuator"), qPrintable(shown));
  }

  // with the forces overlay (F4) on, taut tendons are shaded from amber to deep red by their
  // tension against the largest drawn, slack ones stay pale; off, taut ones are red-orange again
  void tendonsShadedByTension() {
    MainWindow w;
    QVERIFY(openShown(w, ARTICULATE_TEST_DATA_DIR "/mjcf/actuated_arm.xml"));
    Viewport* v = w.viewport();
    QVERIFY(!v->overlays().constraintForces);
    key(w, Qt::Key_F4);
    QVERIFY(v->overlays().constraintForces);
    Eigen::VectorXd ctrl = Eigen::VectorXd::Constant(w.playback()->controls().size(), 0.7);
    w.playback()->setControls(ctrl);
    QVERIFY(simulateUntil(w.playback(), 0.3));
    QTest::qWait(50);
    auto check = [&](bool shaded) {
      const std::vector<SegmentReport> seg = v->segments();
      int taut = 0;
      double most = 0;
      for (std::size_t k = 0; k < seg.size(); ++k) {
        const auto c = v->segmentColour(static_cast<int>(k));
        std::array<unsigned char, 3> want = seg[k].slack ? std::array<unsigned char, 3>{150, 175, 205}
                                                         : std::array<unsigned char, 3>{225, 70, 25};
        if (seg[k].kind == SegmentReport::Kind::Rod) {  // the slider-crank's rod: grey, not a cable
          if (c != std::array<unsigned char, 3>{120, 125, 135}) return false;
          continue;
        }
        if (shaded && !seg[k].slack) want = tensionColour(seg[k].tension / v->tensionScale());
        if (c != want) return false;
        taut += !seg[k].slack;
        most = std::max(most, seg[k].tension);
      }
      return taut > 0 && (!shaded || (most <= v->tensionScale() && most > 0));
    };
    QVERIFY(check(true));
    // a harder pull shades deeper: the colour darkens with the tension
    QVERIFY(tensionColour(0.9)[1] < tensionColour(0.3)[1]);
    QCOMPARE(tensionColour(1.0), (std::array<unsigned char, 3>{170, 0, 20}));
    key(w, Qt::Key_F4);
    QVERIFY(check(false));
  }

  // a model without actuators: no rows, a note, Zero all disabled
  void noActuators() {
    MainWindow w;
    QVERIFY(openShown(w, QStringLiteral(ARTICULATE_MODELS_DIR) + "/double_pendulum.json"));
    QCOMPARE(w.controlsPanel()->rowCount(), 0);
    QVERIFY(!w.controlsPanel()->zeroButton()->isEnabled());
  }
};

ARTICULATE_TEST_MAIN(TestControls)
#include "test_controls.moc"
