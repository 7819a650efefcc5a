// The Joints dock, driven with QTest: a slider or a typed number poses the mechanism (the body
// poses shown match forward kinematics worked by hand), a paused live simulation continues
// from the pose, the sliders follow and are read-only while playing, prismatic and free joints
// move in metres, a coupled joint follows its master, and "Set as initial state" is one
// undoable command that round-trips exactly with undo and redo.
#include <QtTest>

#include "test_main.h"
#include <QtWidgets>

#include <cmath>
#include <optional>
#include <Eigen/Geometry>

#include "articulate/formulations/generators.h"
#include "articulate/model/model.h"
#include "articulate/formats/articulate.h"
#include "articulate/formats/document.h"
#include "document.h"
#include "joint_sliders.h"
#include "main_window.h"
#include "playback.h"
#include "viewport/viewport.h"
#include "gui/gui_test.h"

using namespace art;
using namespace art::gui;
using namespace art::test;

namespace {


/// Opens a model in a shown window and waits for its live timeline's first sample.
bool open(MainWindow& w, const QString& file) {
  w.show();
  if (!QTest::qWaitForWindowExposed(&w) || !w.openFile(kModels + "/" + file)) return false;
  return waitFor([&] { return w.playback()->hasTimeline(); }, 5);
}

/// Types a number into a spin box as a user would (select all, type, Enter).
void type(QDoubleSpinBox* box, const QString& value) {
  box->setFocus();
  box->selectAll();
  QTest::keyClicks(box, value);
  QTest::keyClick(box, Qt::Key_Return);
}

}  // namespace

class TestJointSliders : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
  }

  void rowsAndUnits() {
    MainWindow w;
    QVERIFY(open(w, "double_pendulum.json"));
    JointSlidersPanel* p = w.jointSliders();
    QCOMPARE(p->rowCount(), 2);
    QCOMPARE(p->rowLabel(0), QString("link1 (r)"));
    // revolute joints in degrees: q0 = pi/3 shows as 60 degrees, the slider in 0.1 degree steps
    QCOMPARE(p->spinBox(0)->value(), 60.0);
    QCOMPARE(p->spinBox(1)->value(), -30.0);
    QCOMPARE(p->slider(0)->value(), 600);
    QCOMPARE(p->spinBox(0)->maximum(), 180.0);
  }

  void sliderPosesTheView() {
    MainWindow w;
    QVERIFY(open(w, "double_pendulum.json"));
    JointSlidersPanel* p = w.jointSliders();
    Playback* pb = w.playback();
    QVERIFY(!pb->playing());
    // link2's joint is 1 m along link1: at q1 = 60 degrees it is at (cos 60, sin 60)
    QVERIFY(std::abs(w.viewport()->bodyPose(1).position.x() - 0.5) < 1e-12);
    // two page steps of 15 degrees: q1 = 90 degrees puts link2's joint at (0, 1)
    QSlider* s = p->slider(0);
    s->setFocus();
    QTest::keyClick(s, Qt::Key_PageUp);
    QTest::keyClick(s, Qt::Key_PageUp);
    QCOMPARE(p->spinBox(0)->value(), 90.0);
    QVERIFY(std::abs(p->pose()(0) - M_PI / 2) < 1e-12);
    QVERIFY(std::abs(p->pose()(1) + M_PI / 6) < 1e-12);  // the other joint stays
    const Vec3 joint2 = w.viewport()->bodyPose(1).position;
    QVERIFY2((joint2 - Vec3(0, 1, 0)).norm() < 1e-12, qPrintable(QString::number(joint2.x())));
    // typed into the number: q2 = 45 degrees; link2's joint stays, the tip is at
    // (0, 1) + (cos 135, sin 135) in link2's frame rotated by q1 + q2
    type(p->spinBox(1), "45");
    QCOMPARE(p->slider(1)->value(), 450);
    QVERIFY(std::abs(p->pose()(1) - M_PI / 4) < 1e-12);
    const BodyPose link2 = w.viewport()->bodyPose(1);
    const Vec3 tip = link2.position + link2.rotation * Vec3(1, 0, 0);
    const Vec3 tipT = link2.position + link2.rotation.transpose() * Vec3(1, 0, 0);
    const Vec3 expected(std::cos(3 * M_PI / 4), 1 + std::sin(3 * M_PI / 4), 0);
    // whichever way BodyPose's rotation is stored, one of the two is the tip
    QVERIFY((tip - expected).norm() < 1e-12 || (tipT - expected).norm() < 1e-12);

    // the paused simulation takes the pose: its sample at the playhead is the pose, and the
    // view does not go back to the old state while the sample comes
    QVERIFY(waitFor([&] { return pb->recording().size() == 1; }, 5));
    QVERIFY(pb->recording().q(0).isApprox(p->pose(), 1e-15));
    QVERIFY(pb->q().isApprox(p->pose(), 1e-15));
    QVERIFY((w.viewport()->bodyPose(1).position - Vec3(0, 1, 0)).norm() < 1e-12);
    // the model did not change: posing is not an edit
    QVERIFY(!w.document()->isModified());
    QCOMPARE(w.document()->spec().bodies[0].q0, M_PI / 3);
  }

  void playingFollowsReadOnly() {
    MainWindow w;
    QVERIFY(open(w, "double_pendulum.json"));
    JointSlidersPanel* p = w.jointSliders();
    Playback* pb = w.playback();
    // pose, then play: the simulation starts from the pose (released from rest there)
    type(p->spinBox(0), "0");
    QVERIFY(waitFor([&] { return pb->recording().size() == 1; }, 5));
    pb->play();
    QVERIFY(p->readOnly());
    QVERIFY(!p->slider(0)->isEnabled());
    QVERIFY(waitFor([&] { return pb->endTime() > 0.3; }, 10));
    QCOMPARE(pb->recording().q(0)(0), 0.0);
    QCOMPARE(pb->recording().q(0)(1), w.document()->spec().bodies[1].q0);
    pb->pause();
    QVERIFY(!p->readOnly());
    QVERIFY(p->slider(0)->isEnabled());
    QVERIFY(waitFor([&] { return !pb->simulating(); }, 2));
    QTest::qWait(100);
    // the sliders show the state under the playhead
    QVERIFY(p->pose().isApprox(pb->q(), 1e-15));
    QVERIFY(std::abs(p->spinBox(0)->value() - pb->q()(0) * 180 / M_PI) < 0.005);
    QVERIFY(pb->q()(0) != 0.0);  // it fell
  }

  void setAsInitialStateUndoRedo() {
    MainWindow w;
    QVERIFY(open(w, "double_pendulum.json"));
    JointSlidersPanel* p = w.jointSliders();
    QUndoStack* undo = w.document()->undoStack();
    const std::string before = text(w.document()->spec());
    // pressing the button with the initial pose shown pushes nothing
    QTest::mouseClick(w.findChild<QPushButton*>("setInitialStateButton"), Qt::LeftButton);
    QCOMPARE(undo->count(), 0);
    // a drag over many slider values, then the button: one command
    QSlider* s = p->slider(1);
    for (int v = -300; v <= 250; v += 50) s->setValue(v);
    QTest::mouseClick(w.findChild<QPushButton*>("setInitialStateButton"), Qt::LeftButton);
    QCOMPARE(undo->count(), 1);
    QCOMPARE(undo->undoText(), QString("Set initial pose"));
    QVERIFY(w.isWindowModified());
    const ModelSpec& spec = w.document()->spec();
    QVERIFY(std::abs(spec.bodies[1].q0 - 25 * M_PI / 180) < 1e-12);
    QCOMPARE(spec.bodies[0].q0, M_PI / 3);  // unchanged, exactly
    const std::string after = text(spec);
    QCOMPARE(compile(spec).q0(1), spec.bodies[1].q0);
    undo->undo();
    QCOMPARE(text(w.document()->spec()), before);
    QVERIFY(!w.isWindowModified());
    undo->redo();
    QCOMPARE(text(w.document()->spec()), after);
    // the simulation's state stays the pose (the model changed under it: it goes on from there)
    QVERIFY(waitFor([&] { return w.playback()->hasTimeline(); }, 5));
    QVERIFY(std::abs(w.playback()->q()(1) - 25 * M_PI / 180) < 1e-12);
    QVERIFY(std::abs(p->spinBox(1)->value() - 25.0) < 1e-9);
  }

  void prismaticAndFreeJointsInMetres() {
    {
      MainWindow w;
      QVERIFY(open(w, "cart_pole.json"));
      JointSlidersPanel* p = w.jointSliders();
      const ModelSpec& spec = w.document()->spec();
      QVERIFY(spec.bodies[0].joint.type == JointType::Px || spec.bodies[0].joint.type == JointType::PlanarPx);
      QCOMPARE(p->spinBox(0)->suffix(), QString(" m"));
      const Vec3 before = w.viewport()->bodyPose(0).position;
      QSlider* s = p->slider(0);
      s->setFocus();
      QTest::keyClick(s, Qt::Key_PageUp);  // one page: 0.1 m
      const Vec3 moved = w.viewport()->bodyPose(0).position - before;
      QVERIFY2(std::abs(moved.norm() - 0.1) < 1e-12, qPrintable(QString::number(moved.norm(), 'g', 17)));
    }
    {
      MainWindow w;
      QVERIFY(open(w, "floatbase_tree.json"));
      JointSlidersPanel* p = w.jointSliders();
      const ModelSpec& spec = w.document()->spec();
      QVERIFY(spec.bodies[0].joint.type == JointType::Free);
      QCOMPARE(p->rowLabel(0), QString::fromStdString(spec.bodies[0].name) + " x");
      QCOMPARE(p->rowLabel(2), QString::fromStdString(spec.bodies[0].name) + " z");
      QCOMPARE(p->rowCount(), static_cast<int>(spec.bodies.size()) + 5);  // x y z rx ry rz
      const Vec3 before = w.viewport()->bodyPose(0).position;
      const double z0 = spec.bodies[0].freePosition.z();
      const Eigen::Vector4d orientation = spec.bodies[0].freeOrientation;
      type(p->spinBox(2), QString::number(z0 + 0.25, 'f', 4));
      const double z = p->spinBox(2)->value();
      QVERIFY(std::abs(z - (z0 + 0.25)) < 1e-4);
      const Vec3 moved = w.viewport()->bodyPose(0).position - before;
      QVERIFY(std::abs(moved.norm() - std::abs(z - z0)) < 1e-12);
      // the initial state takes the position; the orientation keeps its stored value exactly
      const std::string original = text(w.document()->spec());
      QVERIFY(p->setAsInitialState().isEmpty());
      QCOMPARE(w.document()->spec().bodies[0].freePosition.z(), z);
      QVERIFY(w.document()->spec().bodies[0].freeOrientation == orientation);
      w.document()->undoStack()->undo();
      QCOMPARE(text(w.document()->spec()), original);
    }
  }

  // a ball joint's orientation as a rotation vector rx ry rz (degrees): the rows show the
  // initial quaternion's, typing a component turns the body to the vector's rotation (the others
  // kept), and "Set as initial state" stores that quaternion, undoably
  void ballJointRowsPoseTheOrientation() {
    MainWindow w;
    QVERIFY(open(w, "ball_chain.json"));
    JointSlidersPanel* p = w.jointSliders();
    const ModelSpec& spec = w.document()->spec();
    QVERIFY(spec.bodies[0].joint.type == JointType::Ball);
    QCOMPARE(p->rowCount(), 3 * static_cast<int>(spec.bodies.size()));
    QCOMPARE(p->rowLabel(0), QString("link1 rx"));
    QCOMPARE(p->rowLabel(5), QString("link2 rz"));
    QCOMPARE(p->spinBox(0)->suffix(), QString::fromUtf8("\u00b0"));
    // link1 starts at [0.98 0.2 0 0]: a turn about x by 2 atan2(0.2, 0.98)
    const double start = 2 * std::atan2(0.2, 0.98) * 180 / M_PI;
    QVERIFY2(std::abs(p->spinBox(0)->value() - start) < 0.006, qPrintable(QString::number(p->spinBox(0)->value())));
    QCOMPARE(p->spinBox(1)->value(), 0.0);
    type(p->spinBox(0), "40");
    type(p->spinBox(1), "30");
    QCOMPARE(p->spinBox(0)->value(), 40.0);
    const Vec3 r = Vec3(40, 30, 0) * (M_PI / 180);
    const Mat3 want = Eigen::AngleAxisd(r.norm(), r.normalized()).toRotationMatrix();
    const Mat3 shown = w.viewport()->bodyPose(0).rotation;
    QVERIFY2((shown - want).cwiseAbs().maxCoeff() < 1e-12, qPrintable(QString::number((shown - want).cwiseAbs().maxCoeff())));
    // the child link hangs from the turned link's end
    const Vec3 end = want * Vec3(0, 0, -0.5);
    QVERIFY((w.viewport()->bodyPose(1).position - end).norm() < 1e-12);
    const std::string original = text(w.document()->spec());
    QVERIFY(p->setAsInitialState().isEmpty());
    const Eigen::Vector4d stored = w.document()->spec().bodies[0].freeOrientation;
    const Eigen::Quaterniond quat(want);
    QVERIFY((stored - Eigen::Vector4d(quat.w(), quat.x(), quat.y(), quat.z())).norm() < 1e-12);
    w.document()->undoStack()->undo();
    QCOMPARE(text(w.document()->spec()), original);
  }

  void rigidBodiesAndStructuresHaveNoSliders() {
    MainWindow w;
    QVERIFY(open(w, "bouncing_cylinder.json"));
    auto* button = w.jointSliders()->findChild<QPushButton*>("setInitialStateButton");
    QVERIFY(!button->isVisible());
    // a tree model afterwards has them again
    QVERIFY(w.openFile(kModels + "/double_pendulum.json"));
    QVERIFY(button->isVisible());
    QCOMPARE(w.jointSliders()->rowCount(), 2);
    QTRY_VERIFY(w.jointSliders()->slider(0)->isVisible());  // a new child shows once events run
  }

  // a joint between two stops (models/limited_arm.json: the elbow at -0.6 and 1.2 rad, 8 rad/s)
  // ranges between them, is marked at or past a stop and over its velocity limit, and its
  // tooltip lists its limits; a joint without them keeps the default range
  void limitsRangeMarkersAndTooltips() {
    ModelDocument doc;
    doc.reset(loadModel(ARTICULATE_MODELS_DIR "/limited_arm.json").spec);
    JointSlidersPanel p(&doc);
    const double deg = 180 / M_PI;
    QCOMPARE(p.rowCount(), 2);
    QCOMPARE(p.spinBox(0)->maximum(), 180.0);
    QVERIFY(std::abs(p.spinBox(1)->minimum() + 0.6 * deg) < 0.005);
    QVERIFY(std::abs(p.spinBox(1)->maximum() - 1.2 * deg) < 0.005);
    QCOMPARE(p.slider(1)->minimum(), static_cast<int>(std::lround(-0.6 * deg * 10)));
    QCOMPARE(p.slider(1)->maximum(), static_cast<int>(std::lround(1.2 * deg * 10)));
    // the marker, on and off the stops (tolerance 1e-9 of the 1.8 rad range)
    Eigen::VectorXd q = p.pose(), qd = Eigen::VectorXd::Zero(2);
    QCOMPARE(p.rowMarker(1), QString());
    const auto marker = [&](double q1, double qd1) {
      q(1) = q1;
      qd(1) = qd1;
      p.setPose(q, qd);
      return p.rowMarker(1);
    };
    QCOMPARE(marker(-0.6, 0), QString("at lower stop"));
    QCOMPARE(marker(-0.6 + 1e-6, 0), QString());
    QCOMPARE(marker(1.2 + 1e-10, 0), QString("at upper stop"));
    QCOMPARE(marker(1.2 - 1e-10, 0), QString("at upper stop"));
    QCOMPARE(marker(1.2 - 1e-7, 0), QString());
    QCOMPARE(marker(1.3, 0), QString("past upper stop"));
    QCOMPARE(marker(0.1, -8.5), QString("over velocity limit"));
    QCOMPARE(marker(-0.6, 8.5), QString("at lower stop, over velocity limit"));
    QCOMPARE(marker(0.1, 7.9), QString());
    QCOMPARE(p.rowMarker(0), QString());  // link1 has no stops
    p.setPose(q, Eigen::VectorXd());      // no velocities known: no velocity marker
    q(1) = 0.1;
    p.setPose(q, Eigen::Vector2d(0, 9));
    QCOMPARE(p.rowMarker(1), QString("over velocity limit"));
    p.setPose(q);
    QCOMPARE(p.rowMarker(1), QString());
    // the ends of the slider and of the number are the stops themselves
    p.slider(1)->setValue(p.slider(1)->minimum());
    QCOMPARE(p.pose()(1), -0.6);
    QCOMPARE(p.rowMarker(1), QString("at lower stop"));
    p.spinBox(1)->setValue(p.spinBox(1)->maximum());
    QCOMPARE(p.pose()(1), 1.2);
    QCOMPARE(p.rowMarker(1), QString("at upper stop"));
    p.spinBox(1)->setValue(10.0);
    QCOMPARE(p.rowMarker(1), QString());
    // the tooltips: limits, damping and friction where set
    const QString elbow = p.rowToolTip(1), shoulder = p.rowToolTip(0);
    for (const char* line : {"lower stop -0.6 rad (-34.38", "upper stop 1.2 rad (68.75",
                             "effort limit 5 N m", "velocity limit 8 rad/s"})
      QVERIFY2(elbow.contains(QString::fromUtf8(line)), qPrintable(elbow));
    QVERIFY2(!elbow.contains("damping") && !elbow.contains("friction"), qPrintable(elbow));
    QVERIFY2(shoulder.contains("damping 0.05 N m s/rad") && shoulder.contains("friction 0.5 N m"),
             qPrintable(shoulder));
    QVERIFY2(!shoulder.contains("stop") && !shoulder.contains("limit"), qPrintable(shoulder));
    // limits are values of the model: an edit that removes them gives the default range back
    QVERIFY(doc.edit("no stops", [](ModelSpec& s) { s.bodies[1].limits = JointLimits{}; }).isEmpty());
    QCOMPARE(p.spinBox(1)->maximum(), 180.0);
    QVERIFY(!p.rowToolTip(1).contains("stop"));
    q(1) = -0.6;
    p.setPose(q);
    QCOMPARE(p.rowMarker(1), QString());
  }

  // the marker follows the state shown: the limited arm's elbow, simulated, comes to a stop
  void markerFollowsTheSimulation() {
    MainWindow w;
    QVERIFY(open(w, "limited_arm.json"));
    JointSlidersPanel* p = w.jointSliders();
    Playback* pb = w.playback();
    pb->setUnpaced(true);
    pb->play();
    QVERIFY(waitFor([&] { return pb->endTime() > 3.0; }, 20));
    pb->pause();
    QVERIFY(waitFor([&] { return !pb->simulating(); }, 5));
    const Recording& r = pb->recording();
    std::optional<std::size_t> at, off;
    for (std::size_t k = 0; k < r.size(); ++k) {
      const double q1 = r.q(k)(1);
      if (!at && (q1 == -0.6 || q1 == 1.2)) at = k;
      if (!off && std::abs(q1 + 0.6) > 0.01 && std::abs(q1 - 1.2) > 0.01) off = k;
    }
    QVERIFY2(at && off, "the elbow reaches a stop in 3 s");
    w.showTime(r.time(*at));
    QCOMPARE(p->rowMarker(1), QString(r.q(*at)(1) < 0 ? "at lower stop" : "at upper stop"));
    if (qEnvironmentVariableIsSet("ARTICULATE_TEST_SHOTS")) {
      w.findChild<QDockWidget*>("jointsDock")->raise();
      QTest::qWait(200);
      w.screen()->grabWindow(w.winId()).save(qEnvironmentVariable("ARTICULATE_TEST_SHOTS") + "/joint_stop.png");
    }
    w.showTime(r.time(*off));
    QCOMPARE(p->rowMarker(1), QString());
  }

  void couplingFollowsMaster() {
    ModelDocument doc;
    AutoTreeOptions o;
    o.bodies = 3;
    ModelSpec s = autoTree(o);
    ConstraintSpec c;
    c.type = ConstraintSpec::Type::Coupling;
    c.joint = 2;
    c.master = 0;
    c.ratio = -2.0;
    c.offset = 0.1;
    s.constraints.push_back(c);
    doc.reset(s);
    JointSlidersPanel p(&doc);
    QCOMPARE(p.rowCount(), 3);
    QVERIFY(!p.slider(2)->isEnabled());
    int edits = 0;
    Eigen::VectorXd q;
    connect(&p, &JointSlidersPanel::poseEdited, this, [&](const Eigen::VectorXd& pose) {
      ++edits;
      q = pose;
    });
    p.spinBox(0)->setValue(30.0);
    QCOMPARE(edits, 1);
    QVERIFY(std::abs(q(0) - M_PI / 6) < 1e-12);
    QVERIFY(std::abs(q(2) - (-2.0 * M_PI / 6 + 0.1)) < 1e-12);
    QVERIFY(std::abs(p.spinBox(2)->value() - (-2.0 * 30 + 0.1 * 180 / M_PI)) < 0.005);
  }
};

ARTICULATE_TEST_MAIN(TestJointSliders)
#include "test_joint_sliders.moc"
