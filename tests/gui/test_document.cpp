// The document and its undo stack: every kind of edit undoes and redoes exactly (the model's
// canonical JSON before and after), drags merge into one command, an edit that would not
// compile is refused and changes nothing, and in the main window saving the camera, changing
// the integrator and the time step are undoable and mark the document modified.
#include <QtTest>

#include "test_main.h"
#include <QtWidgets>

#include "articulate/formulations/generators.h"
#include "articulate/model/edit.h"
#include "articulate/formats/document.h"
#include "document.h"
#include "main_window.h"
#include "model_tree.h"
#include "properties.h"
#include "playback.h"
#include "viewport/viewport.h"
#include "gui/gui_test.h"

using namespace art;
using namespace art::gui;
using namespace art::test;

namespace {

using Edit = std::function<void(ModelSpec&)>;

}  // namespace

class TestDocument : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
  }

  void everyEditRoundTrips_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("kind");
    const char* names[] = {"Add body 'tip'",     "Remove body 'link2'",  "Move 'link3' under 'link1'",
                           "Rename 'link1'",     "Set joint of 'link2'", "Set placement of 'link2'",
                           "Set mass of 'link2'", "Set initial state",   "Set appearance",
                           "Set gravity",        "Set camera",           "Add contact point",
                           "Add constraint",     "Set controller",       "Set integrator"};
    for (int k = 0; k < static_cast<int>(std::size(names)); ++k)
      QTest::newRow(names[k]) << QString(names[k]) << k;
  }

  void everyEditRoundTrips() {
    QFETCH(QString, name);
    QFETCH(int, kind);
    AutoTreeOptions o;
    o.bodies = 4;
    ModelSpec start = autoTree(o);
    const Edit edits[] = {
        [](ModelSpec& s) {
          BodySpec b = s.bodies[3];
          b.name = "tip";
          b.parent = 3;
          addBody(s, b);
        },
        [](ModelSpec& s) { removeSubtree(s, s.findBody("link2")); },
        [](ModelSpec& s) { reparent(s, s.findBody("link3"), s.findBody("link1")); },
        [](ModelSpec& s) { s.bodies[0].name = "shoulder"; },
        [](ModelSpec& s) { s.bodies[1].joint.type = JointType::Px; },
        [](ModelSpec& s) { s.bodies[1].translation = Vec3(0.2, 0.1, 0); },
        [](ModelSpec& s) { s.bodies[1].inertia.mass = 3.5; },
        [](ModelSpec& s) { s.bodies[2].q0 = 0.4, s.bodies[2].qd0 = -1; },
        [](ModelSpec& s) { s.bodies[2].appearance = nlohmann::json::parse(R"(["sphere", [0, 0, 0], 0.1])"); },
        [](ModelSpec& s) { s.gravity = Vec3(0, -9.81, 0); },
        [](ModelSpec& s) { s.camera.body = 2, s.camera.zoom = 0.5; },
        [](ModelSpec& s) { s.contacts.push_back({3, Vec3(1, 0, 0)}); },
        [](ModelSpec& s) {
          ConstraintSpec c;
          c.joint = 2;
          c.master = 1;
          c.ratio = -1;
          s.constraints.push_back(c);
        },
        [](ModelSpec& s) {
          s.bodies[0].control.type = ControlSpec::Type::PD;
          s.bodies[0].control.kp = 10;
        },
        [](ModelSpec& s) { s.simulation.integrator = Integrator::DormandPrince45; }};
    ModelDocument doc;
    doc.reset(start);
    QVERIFY(!doc.isModified());
    int changes = 0;
    connect(&doc, &ModelDocument::changed, this, [&] { ++changes; });
    const bool structural = kind <= 2;
    QCOMPARE(doc.edit(name, edits[kind], structural ? ModelDocument::Change::Structure
                                                     : ModelDocument::Change::Values),
             QString());
    const std::string after = text(doc.spec());
    QVERIFY(after != text(start));
    QVERIFY(doc.isModified());
    QCOMPARE(doc.undoStack()->undoText(), name);
    doc.undoStack()->undo();
    QCOMPARE(text(doc.spec()), text(start));
    QVERIFY(!doc.isModified());
    doc.undoStack()->redo();
    QCOMPARE(text(doc.spec()), after);
    QCOMPARE(changes, 3);
  }

  void dragsMergeIntoOneCommand() {
    ModelDocument doc;
    doc.reset(doublePendulum());
    for (int k = 1; k <= 10; ++k)
      doc.edit("Set initial position of 'link1'", [k](ModelSpec& s) { s.bodies[0].q0 = 0.1 * k; },
               ModelDocument::Change::Values, 42);
    QCOMPARE(doc.undoStack()->count(), 1);
    QCOMPARE(doc.spec().bodies[0].q0, 1.0);
    doc.undoStack()->undo();
    QCOMPARE(doc.spec().bodies[0].q0, doublePendulum().bodies[0].q0);
  }

  // an edit that leaves the model as it was (a drag released where it began) is nothing to undo
  void editsThatChangeNothingPushNothing() {
    ModelDocument doc;
    doc.reset(doublePendulum());
    const double q0 = doc.spec().bodies[0].q0;
    QVERIFY(doc.edit("Move 'link1'", [q0](ModelSpec& s) { s.bodies[0].q0 = q0; }).isEmpty());
    QCOMPARE(doc.undoStack()->count(), 0);
    QVERIFY(!doc.isModified());
    QVERIFY(doc.edit("Move 'link1'", [q0](ModelSpec& s) { s.bodies[0].q0 = q0 + 0.5; }).isEmpty());
    QCOMPARE(doc.undoStack()->count(), 1);
  }

  void invalidEditsAreRefused() {
    ModelDocument doc;
    doc.reset(doublePendulum());
    const std::string before = text(doc.spec());
    // negative mass: compile() refuses it with the field
    const QString why = doc.edit("Set mass", [](ModelSpec& s) { s.bodies[0].inertia.mass = -1; });
    QVERIFY2(why.contains("inertia"), qPrintable(why));
    // a cycle: the edit function throws
    QVERIFY(!doc.edit("Move", [](ModelSpec& s) { reparent(s, 0, 1); }).isEmpty());
    QCOMPARE(text(doc.spec()), before);
    QCOMPARE(doc.undoStack()->count(), 0);
  }

  void modelTreeEdits() {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openFile(ARTICULATE_MODELS_DIR "/double_pendulum.json"));
    ModelTreePanel* panel = w.modelTree();
    ModelTreeModel* m = panel->model();
    // base at the top, link1 under it, link2 under link1
    QCOMPARE(m->rowCount(), 1);
    const QModelIndex base = m->index(0, 0);
    QCOMPARE(m->data(base, Qt::DisplayRole).toString(), QString("base"));
    QCOMPARE(m->rowCount(base), 1);
    const QModelIndex link1 = m->index(0, 0, base);
    QCOMPARE(m->data(link1, Qt::DisplayRole).toString(), QString("link1"));
    QCOMPARE(m->data(m->index(0, 1, base), Qt::DisplayRole).toString(), QString("r"));
    QCOMPARE(ModelTreeModel::bodyOf(m->index(0, 0, link1)), 1);
    // rename in place; a duplicate name is refused
    QVERIFY(m->setData(link1, "upper", Qt::EditRole));
    QCOMPARE(w.model()->spec.bodies[0].name, std::string("upper"));
    QVERIFY(!m->setData(m->indexOfBody(1), "upper", Qt::EditRole));
    QVERIFY(m->lastError().contains("already"));
    // add a child under link2, duplicate link2's subtree, then delete the copy
    const int child = panel->addChild(1);
    QCOMPARE(child, 2);
    QCOMPARE(w.model()->spec.bodies[2].parent, 1);
    const int copy = panel->duplicate(1);
    QCOMPARE(w.model()->spec.bodies.size(), std::size_t(5));
    QCOMPARE(w.model()->spec.bodies[copy].name, std::string("link2_copy"));
    QVERIFY(panel->remove(copy, false));
    QCOMPARE(w.model()->spec.bodies.size(), std::size_t(3));
    // drag link2 onto the base: it moves with its child; onto its own child: refused
    auto* mime = m->mimeData({m->indexOfBody(1)});
    QVERIFY(!m->canDropMimeData(mime, Qt::MoveAction, -1, -1, m->indexOfBody(2)));
    m->dropMimeData(mime, Qt::MoveAction, -1, -1, m->indexOfBody(-1));
    delete mime;
    QCOMPARE(w.model()->spec.bodies[w.model()->spec.findBody("link2")].parent, -1);
    QCOMPARE(w.document()->undoStack()->undoText(), QString("Move 'link2' under 'base'"));
    // the simulation follows the edited model (three joints now)
    QCOMPARE(w.playback()->q().size(), 3);
    // everything undoes back to the file's model
    while (w.document()->undoStack()->canUndo()) w.document()->undoStack()->undo();
    QCOMPARE(text(w.model()->spec), text(loadModel(ARTICULATE_MODELS_DIR "/double_pendulum.json").spec));
    QVERIFY(!w.isWindowModified());
  }

  void propertiesEditTheSelectedBody() {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openFile(ARTICULATE_MODELS_DIR "/arm6.json"));
    PropertiesPanel* panel = w.properties();
    w.modelTree()->view()->setCurrentIndex(w.modelTree()->model()->indexOfBody(2));
    QCOMPARE(panel->body(), 2);
    const std::string name = w.model()->spec.bodies[2].name;
    auto* mass = panel->findChild<QDoubleSpinBox*>("massSpin");
    QVERIFY(mass && mass->isVisible());
    QCOMPARE(mass->value(), w.model()->spec.bodies[2].inertia.mass);
    const double before = mass->value();
    mass->setValue(before + 1.25);
    QCOMPARE(w.model()->spec.bodies[2].inertia.mass, before + 1.25);
    QCOMPARE(w.document()->undoStack()->undoText(),
             QString("Set mass of '%1'").arg(QString::fromStdString(name)));
    mass->setValue(before + 2.5);  // a second change of the same field merges
    QCOMPARE(w.document()->undoStack()->count(), 1);
    w.document()->undoStack()->undo();
    QCOMPARE(w.model()->spec.bodies[2].inertia.mass, before);
    QCOMPARE(mass->value(), before);  // the panel follows the document
    // a refused value: a first principal moment larger than the other two together breaks the
    // triangle inequality; it is not stored and the field goes back
    const Mat3 inertia = w.model()->spec.bodies[2].inertia.aboutCom;
    auto* moment = panel->findChild<QDoubleSpinBox*>("inertia0");
    QVERIFY(moment);
    moment->setValue(1000.0);
    QVERIFY2(panel->lastError().contains("triangle"), qPrintable(panel->lastError()));
    QCOMPARE(w.model()->spec.bodies[2].inertia.aboutCom, inertia);
    QCOMPARE(moment->value(), inertia(0, 0));
    // renaming from the panel; an existing name is refused with the reason
    auto* nameEdit0 = panel->findChild<QLineEdit*>("nameEdit");
    nameEdit0->setText(QString::fromStdString(w.model()->spec.bodies[0].name));
    emit nameEdit0->editingFinished();
    QCOMPARE(w.model()->spec.bodies[2].name, name);
    QVERIFY(panel->lastError().contains("unique"));
    auto* nameEdit = panel->findChild<QLineEdit*>("nameEdit");
    nameEdit->setText("renamed_link");
    emit nameEdit->editingFinished();
    QCOMPARE(w.model()->spec.bodies[2].name, std::string("renamed_link"));
  }

  void mainWindowEditsAreUndoable() {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openFile(ARTICULATE_MODELS_DIR "/double_pendulum.json"));
    QVERIFY(!w.isWindowModified());
    const CameraSpec before = w.model()->spec.camera;
    w.viewport()->setStandardView(StandardView::Top);
    w.saveCameraToModel();
    QVERIFY(w.isWindowModified());
    QVERIFY(w.model()->spec.camera.direction);
    QCOMPARE(w.document()->undoStack()->undoText(), QString("Save camera to model"));
    auto* undo = w.findChild<QAction*>("undoAction");
    QVERIFY(undo && undo->isEnabled());
    undo->trigger();
    QVERIFY(!w.isWindowModified());
    QCOMPARE(w.model()->spec.camera.direction.has_value(), before.direction.has_value());
    // an edit while simulating restarts from the current state (sizes unchanged)
    Playback* p = w.playback();
    p->setUnpaced(true);
    p->play();
    QTRY_VERIFY_WITH_TIMEOUT(p->endTime() > 0.2, 10000);
    p->pause();
    QTRY_VERIFY_WITH_TIMEOUT(!p->simulating(), 2000);
    const double t = p->time();
    const Eigen::VectorXd q = p->q();
    const std::size_t samples = p->recording().size();
    const Eigen::VectorXd halfway = p->recording().q(samples / 2);
    QVERIFY(w.document()->edit("Set time step to 0.0005 s",
                               [](ModelSpec& s) { s.simulation.dt = 5e-4; }).isEmpty());
    QCOMPARE(w.model()->spec.simulation.dt, 5e-4);
    QTRY_VERIFY_WITH_TIMEOUT(p->hasTimeline(), 5000);
    // a value edit keeps what was recorded before it (it used to discard the whole recording)
    QCOMPARE(p->startTime(), 0.0);
    QTRY_VERIFY_WITH_TIMEOUT(p->endTime() >= t, 5000);  // the simulator sends the sample at t
    QCOMPARE(p->recording().q(samples / 2), halfway);
    QVERIFY(p->q().isApprox(q));
    QVERIFY(w.statusText().contains("simulating on from t ="));
    p->pause();
    QTRY_VERIFY_WITH_TIMEOUT(!p->simulating(), 2000);

    // Simulation > Integrator > Energy Projection: double_pendulum.json asks for it, and the
    // simulation follows it (the pendulum is passive: its recorded total energy stays put);
    // turning it off is an undoable edit
    auto* projection = w.findChild<QAction*>("energyProjectionAction");
    QVERIFY(projection && projection->isEnabled() && projection->isChecked());
    const double from = p->endTime();
    p->play();
    QTRY_VERIFY_WITH_TIMEOUT(p->endTime() > from + 0.5, 10000);
    p->pause();
    QTRY_VERIFY_WITH_TIMEOUT(!p->simulating(), 2000);
    const Recording& r = p->recording();
    std::size_t first = 0;
    while (first < r.size() && r.time(first) < from) ++first;
    QVERIFY(r.size() > first + 100);
    const double E = r.kinetic(first) + r.potential(first);
    double worst = 0;
    for (std::size_t k = first; k < r.size(); ++k)
      worst = std::max(worst, std::abs(r.kinetic(k) + r.potential(k) - E));
    QVERIFY2(worst < 1e-12 * std::abs(E), qPrintable(QString("energy moved by %1 J").arg(worst)));
    projection->trigger();
    QVERIFY(!w.model()->spec.simulation.energyProjection);
    QVERIFY(!projection->isChecked());
    QCOMPARE(w.document()->undoStack()->undoText(), QString("Turn energy projection off"));
    undo->trigger();
    QVERIFY(w.model()->spec.simulation.energyProjection);
    QVERIFY(projection->isChecked());
  }

  void structuralEditsSetTheTimelineAsideAndUndoBringsItBack() {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openFile(ARTICULATE_MODELS_DIR "/double_pendulum.json"));
    Playback* p = w.playback();
    const auto addTip = [&] {
      return w.document()->edit("Add body 'tip'", [](ModelSpec& s) {
        BodySpec b;
        b.name = "tip";
        b.parent = 1;
        b.joint.type = JointType::PlanarR;
        b.inertia = InertiaSpec::fromMassComInertia(0.5, Vec3(0.2, 0, 0), Mat3::Identity() * 1e-3);
        addBody(s, b);
      }, ModelDocument::Change::Structure);
    };

    // a live recording: a body added changes the sizes, the recording is set aside
    p->setUnpaced(true);
    p->play();
    QTRY_VERIFY_WITH_TIMEOUT(p->endTime() > 0.2, 10000);
    p->pause();
    QTRY_VERIFY_WITH_TIMEOUT(!p->simulating(), 5000);
    const std::size_t samples = p->recording().size();
    const double end = p->endTime();
    const Eigen::VectorXd last = p->recording().q(samples - 1);
    const QString added = addTip();
    QVERIFY2(added.isEmpty(), qPrintable(added));
    QCOMPARE(p->recording().positionSize(), 3);
    QVERIFY(p->recording().size() <= 1);
    QVERIFY2(w.statusText().contains("set aside"), qPrintable(w.statusText()));
    // undo: the same recording is back, and the simulation goes on from its end
    w.document()->undoStack()->undo();
    QCOMPARE(p->recording().positionSize(), 2);
    QTRY_COMPARE_WITH_TIMEOUT(p->recording().size(), samples, 5000);
    QCOMPARE(p->endTime(), end);
    QCOMPARE(p->recording().q(samples - 1), last);
    p->play();
    QTRY_VERIFY_WITH_TIMEOUT(p->endTime() > end + 0.05, 10000);
    p->pause();
    QTRY_VERIFY_WITH_TIMEOUT(!p->simulating(), 5000);

    // a recorded motion (a saved recording): adding a body used to leave the motion's 2-joint
    // samples under a 3-joint model, and the next frame threw from frameChanged
    Motion motion = p->recording().toMotion();
    QTemporaryDir dir;
    const QString file = dir.filePath("swing.json");
    saveRecording(file.toStdString(), w.model()->spec, motion);
    QVERIFY(w.openFile(file));
    QVERIFY(!p->live());
    const std::size_t motionSamples = p->recording().size();
    QCOMPARE(motionSamples, static_cast<std::size_t>(motion.t.size()));
    QVERIFY(addTip().isEmpty());
    QVERIFY(p->live());  // the edited model simulates
    QVERIFY(!w.model()->motion);
    QVERIFY2(w.statusText().contains("set aside"), qPrintable(w.statusText()));
    // scrubbing and playing the edited model is safe
    p->play();
    QTRY_VERIFY_WITH_TIMEOUT(p->endTime() > 0.05, 10000);
    p->pause();
    p->setTime(0.0);
    p->tick();
    QCOMPARE(p->q().size(), 3);
    // undo brings the motion back as the animation it was
    w.document()->undoStack()->undo();
    QVERIFY(!p->live());
    QVERIFY(w.model()->motion.has_value());
    QCOMPARE(p->recording().size(), motionSamples);
    p->setTime(0.5 * p->endTime());
    p->tick();
    QCOMPARE(p->q().size(), 2);
    // redo sets it aside again
    w.document()->undoStack()->redo();
    QVERIFY(p->live());
    QCOMPARE(p->q().size(), 3);
  }
};

ARTICULATE_TEST_MAIN(TestDocument)
#include "test_document.moc"
