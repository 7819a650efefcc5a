// The application shell: opening models (title, errors that keep the current model), recent
// files across restarts, saving (camera into the model, never over a spatial_v2 file), picks in
// the status bar, drops, poses from a motion, and `articulate --screenshot` end to end.
#include <QtTest>

#include "test_main.h"
#include <QtWidgets>

#include "articulate/model/model.h"
#include "articulate/formats/document.h"
#include "articulate/formats/mesh.h"
#include "articulate/formats/spatial_v2.h"
#include "articulate/formats/files.h"
#include "document.h"
#include "import_report.h"
#include "joint_sliders.h"
#include "model_tree.h"
#include "articulate/dynamics/dynamics.h"
#include "controls.h"
#include "main_window.h"
#include "playback.h"
#include "gui/window_test.h"
#include "articulate/dynamics/contact.h"
#include "articulate/formats/urdf.h"
#include "articulate/dynamics/collision.h"
#include "articulate/formats/articulate.h"
#include "settings.h"
#include "viewport/viewport.h"

using art::gui::MainWindow;

namespace {



QByteArray readAll(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// Runs the built `articulate` with `args`; returns the exit code (-1: did not finish).
int runGui(const QStringList& args, QString* out = nullptr) {
  QProcess p;
  p.setProcessChannelMode(QProcess::MergedChannels);
  p.start(ARTICULATE_GUI, args);
  if (!p.waitForFinished(120000)) return -1;
  if (out) *out = QString::fromUtf8(p.readAll());
  return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
}

/// A three-problem Articulate document (unknown parent, missing joint, missing inertia).
const char* const kMalformed =
    R"({"format": "articulate-model", "version": 1, "name": "broken",
        "bodies": [{"name": "a", "parent": "nowhere"}]})";

}  // namespace

class TestMainWindow : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QCoreApplication::setOrganizationName("articulate-test");
    QCoreApplication::setApplicationName("test_main_window");
    QCoreApplication::setApplicationVersion("0.1.0");
  }
  void init() { QSettings().clear(); }
  void cleanupTestCase() { QSettings().clear(); }

  void openSetsTitle() {
    MainWindow w;
    w.show();
    QCOMPARE(w.windowTitle(), QString("Articulate"));
    QVERIFY(w.openFile(kModels + "/arm6.json"));
    QCOMPARE(w.windowTitle(), QString::fromUtf8("Articulate — arm6.json[*]"));
    QVERIFY(!w.isWindowModified());
    QCOMPARE(w.filePath(), QFileInfo(kModels + "/arm6.json").absoluteFilePath());
    QVERIFY(w.openFile(kModels + "/planar2.json"));
    QCOMPARE(w.windowTitle(), QString::fromUtf8("Articulate — planar2.json[*]"));
    QVERIFY(w.lastError().isEmpty());
  }

  void malformedFileShowsEveryProblemAndKeepsModel() {
    QTemporaryDir dir;
    const QString bad = dir.filePath("broken.json");
    art::writeFileAtomically(bad.toStdString(), kMalformed);
    MainWindow w;
    w.show();
    QVERIFY(w.openFile(kModels + "/arm6.json"));
    QString shown;
    closeNextDialog(&shown);
    QVERIFY(!w.openFile(bad));
    for (const char* problem :
         {"bodies[0].parent: 'nowhere' is not defined", "bodies[0]: missing field 'joint'",
          "bodies[0]: missing field 'inertia'"}) {
      QVERIFY2(shown.contains(problem), qPrintable(shown));
      QVERIFY2(w.lastError().contains(problem), qPrintable(w.lastError()));
    }
    QVERIFY(shown.contains("Could not open 'broken.json'"));
    QCOMPARE(QString::fromStdString(w.model()->spec.name), QString("arm6"));
    QCOMPARE(w.windowTitle(), QString::fromUtf8("Articulate — arm6.json[*]"));
    QCOMPARE(w.filePath(), QFileInfo(kModels + "/arm6.json").absoluteFilePath());
    QCOMPARE(w.recentFiles().size(), 1);

    // a file that is not JSON at all, and one that does not exist
    art::writeFileAtomically(bad.toStdString(), "{\"format\": ");
    closeNextDialog(&shown);
    QVERIFY(!w.openFile(bad));
    QVERIFY2(shown.contains("broken.json"), qPrintable(shown));
    closeNextDialog(&shown);
    QVERIFY(!w.openFile(dir.filePath("missing.json")));
    QVERIFY2(shown.contains("missing.json"), qPrintable(shown));
    QCOMPARE(QString::fromStdString(w.model()->spec.name), QString("arm6"));
  }

  void recentFilesAreCappedAndSurviveRestart() {
    QTemporaryDir dir;
    QStringList files;
    const QByteArray planar = readAll(kModels + "/planar2.json");
    for (int i = 0; i < 12; ++i) {
      files << dir.filePath(QString("model%1.json").arg(i));
      art::writeFileAtomically(files.last().toStdString(), planar.toStdString());
    }
    QStringList expected;
    {
      MainWindow w;
      for (const QString& f : files) QVERIFY(w.openFile(f));
      QVERIFY(w.openFile(files[5]));  // moves to the front, no duplicate
      expected = {files[5], files[11], files[10], files[9], files[8],
                  files[7], files[6],  files[4],  files[3], files[2]};
      QCOMPARE(w.recentFiles(), expected);
      w.close();
    }
    {
      MainWindow w;  // a restart reads the list back
      QCOMPARE(w.recentFiles(), expected);
    }
    QVERIFY(QFile::remove(files[11]));
    MainWindow w;  // files that no longer exist are dropped
    expected.removeAll(files[11]);
    QCOMPARE(w.recentFiles(), expected);
  }

  void cameraSavedIntoModelMarksModified() {
    QTemporaryDir dir;
    const QString path = dir.filePath("arm.json");
    QVERIFY(QFile::copy(kModels + "/arm6.json", path));
    MainWindow w;
    w.show();
    QVERIFY(w.openFile(path));
    w.viewport()->setStandardView(art::gui::StandardView::Top);
    w.saveCameraToModel();
    QVERIFY(w.isWindowModified());
    QVERIFY(w.windowTitle().endsWith("[*]"));
    const art::CameraSpec camera = w.model()->spec.camera;
    QVERIFY(w.save());
    QVERIFY(!w.isWindowModified());
    const art::LoadedModel saved = art::loadModel(path.toStdString());
    QCOMPARE(saved.format, std::string(art::kModelFormatName));
    QCOMPARE(saved.spec.camera.body, camera.body);
    QCOMPARE(saved.spec.camera.direction.has_value(), camera.direction.has_value());
    if (camera.direction) QVERIFY(saved.spec.camera.direction->isApprox(*camera.direction));
    QCOMPARE(saved.spec.camera.zoom.has_value(), camera.zoom.has_value());
    if (camera.zoom) QCOMPARE(*saved.spec.camera.zoom, *camera.zoom);
  }

  void closePromptsWhenModified() {
    MainWindow w;
    w.show();
    QVERIFY(w.openFile(kModels + "/arm6.json"));
    w.saveCameraToModel();
    QString shown;
    closeNextDialog(&shown, QMessageBox::Cancel);
    QVERIFY(!w.close());
    QVERIFY2(shown.contains("unsaved changes"), qPrintable(shown));
    QVERIFY(w.isVisible());
    closeNextDialog(&shown, QMessageBox::Discard);
    QVERIFY(w.close());
  }

  // an untitled model is "untitled" in the title and the close prompt; saved, both use the
  // file's name, and exports default beside it with its base name
  void titleAndPromptsUseTheFileName() {
    using namespace art;
    using namespace art::test;
    MainWindow w;
    QVERIFY(showActive(w));
    key(w, Qt::Key_N, Qt::ControlModifier);
    QVERIFY2(w.windowTitle().contains("untitled"), qPrintable(w.windowTitle()));
    w.saveCameraToModel();  // a change
    QString shown;
    closeNextDialog(&shown, QMessageBox::Cancel);
    QVERIFY(!w.close());
    QVERIFY2(shown.contains("'untitled' has unsaved changes"), qPrintable(shown));
    QTemporaryDir dir;
    QVERIFY(w.saveTo(dir.filePath("pendulum.json")));
    QVERIFY2(w.windowTitle().contains("pendulum.json") && !w.windowTitle().contains("untitled"),
             qPrintable(w.windowTitle()));
    QCOMPARE(w.exportStem(), QDir(dir.path()).filePath("pendulum"));
    w.document()->edit("Set gravity", [](ModelSpec& m) { m.gravity = Vec3(0, 0, -1); });
    closeNextDialog(&shown, QMessageBox::Discard);
    QVERIFY(w.close());
    QVERIFY2(shown.contains("'pendulum.json' has unsaved changes"), qPrintable(shown));
  }

  // Duplicate Subtree (from the tree's context menu) puts the copy beside the original, not on
  // it; moving a body under another keeps it where it is in the world
  void duplicateIsOffsetAndReparentKeepsTheWorldPose() {
    using namespace art;
    using namespace art::gui;
    using namespace art::test;
    MainWindow w;
    QVERIFY(openShown(w, kModels + "/arm6.json"));
    ModelTreePanel* panel = w.modelTree();
    QTreeView* view = panel->view();
    view->expandAll();
    const ModelSpec& s = w.document()->spec();
    const auto frameOrigin = [&](const std::string& name) {
      const Model m = compile(s);
      Data d(m);
      forwardKinematics(m, d, m.q0);
      const int b = s.findBody(name);
      const BodySpec& body = s.bodies[static_cast<std::size_t>(b)];
      const BodyPose parent = body.parent < 0 ? BodyPose{} : bodyPose(m, d, body.parent);
      return std::make_pair(BodyPose{Mat3(parent.rotation * body.rotation.transpose()),
                                     Vec3(parent.position + parent.rotation * body.translation)},
                            bodyPose(m, d, b));
    };
    const std::string name = s.bodies[2].name;
    const auto original = frameOrigin(name);
    // right-click the body's row, choose Duplicate Subtree
    const QModelIndex row = panel->model()->indexOfBody(2);
    view->scrollTo(row);
    const QPoint at = view->visualRect(row).center();
    // clicks Duplicate Subtree once the menu is up (polled: a loaded machine shows it late)
    QTimer picker;
    picker.setInterval(50);
    connect(&picker, &QTimer::timeout, &picker, [&picker] {
      auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
      if (!menu) return;
      picker.stop();
      for (QAction* a : menu->actions())
        if (a->text().startsWith("Duplicate")) QTest::mouseClick(menu, Qt::LeftButton, {}, menu->actionGeometry(a).center());
      if (QApplication::activePopupWidget()) QApplication::activePopupWidget()->close();
    });
    picker.start();
    QContextMenuEvent menuEvent(QContextMenuEvent::Mouse, at, view->viewport()->mapToGlobal(at));
    QApplication::sendEvent(view->viewport(), &menuEvent);
    QVERIFY(waitFor([&] { return s.findBody(name + "_copy") >= 0; }, 5));
    const auto copy = frameOrigin(name + "_copy");
    QVERIFY2((copy.first.position - original.first.position - Vec3(0.25, 0, 0)).norm() < 1e-12,
             qPrintable(QString("copy %1 m from the original").arg((copy.first.position - original.first.position).norm())));
    QVERIFY((copy.first.rotation - original.first.rotation).norm() < 1e-12);
    w.document()->undoStack()->undo();
    // link 3 moved under the base: its joint frame and its body stay where they were
    const std::string moved = s.bodies[3].name;
    const auto before = frameOrigin(moved);
    ModelTreeModel* m = panel->model();
    auto* mime = m->mimeData({m->indexOfBody(3)});
    m->dropMimeData(mime, Qt::MoveAction, -1, -1, m->indexOfBody(-1));
    delete mime;
    QCOMPARE(s.bodies[static_cast<std::size_t>(s.findBody(moved))].parent, -1);
    const auto after = frameOrigin(moved);
    QVERIFY2((after.first.position - before.first.position).norm() < 1e-12 &&
                 (after.first.rotation - before.first.rotation).norm() < 1e-12,
             qPrintable(QString("the joint frame moved %1 m").arg((after.first.position - before.first.position).norm())));
    QVERIFY((after.second.position - before.second.position).norm() < 1e-12);
  }

  // a model without a camera is framed so that its motion stays in view: every sample of a
  // double pendulum swinging wildly (from the horizontal) draws inside the view
  void cameraFramesTheWholeMotion() {
    using namespace art;
    using namespace art::gui;
    using namespace art::test;
    MainWindow w;
    QVERIFY(openShown(w, kModels + "/double_pendulum.json", QSize(1280, 800)));
    // both links start level: they swing through everything below and beside the pivot
    QVERIFY(w.document()->edit("Set initial state", [](ModelSpec& m) { m.bodies[0].q0 = 0; m.bodies[1].q0 = 0; }).isEmpty());
    w.viewport()->resetView();
    Playback* p = w.playback();
    QVERIFY(simulateUntil(p, 4.0));
    Viewport* v = w.viewport();
    const QRect inside = v->rect();
    const Recording& r = p->recording();
    for (std::size_t k = 0; k < r.size(); k += std::max<std::size_t>(1, r.size() / 200)) {
      p->setTime(r.time(k));
      for (int b = 0; b < 2; ++b) {
        const BodyPose pose = v->bodyPose(b);
        for (const Vec3& local : {Vec3(0, 0, 0), Vec3(0.3, 0, 0)}) {  // the joint and the link's end
          const QPoint at = v->widgetPoint(pose.position + pose.rotation * local);
          QVERIFY2(inside.contains(at), qPrintable(QString("t = %1: body %2 drawn at (%3, %4), outside %5 x %6")
                                                        .arg(r.time(k)).arg(b).arg(at.x()).arg(at.y()).arg(inside.width()).arg(inside.height())));
        }
      }
    }
  }

  // a recorded motion is framed whole: a floating tree falling 20 m stays in view throughout
  void cameraFramesARecordedMotion() {
    using namespace art;
    using namespace art::gui;
    using namespace art::test;
    QTemporaryDir tmp;
    MainWindow w;
    QVERIFY(openShown(w, kModels + "/floatbase_tree.json", QSize(1280, 800)));
    QVERIFY(w.document()->edit("Set gravity", [](ModelSpec& m) { m.gravity = Vec3(0, 0, -9.81); }).isEmpty());
    Playback* p = w.playback();
    QVERIFY(simulateUntil(p, 2.0));
    const QString saved = tmp.filePath("falling.json");
    QVERIFY(w.saveRecordingTo(saved));
    QVERIFY(w.openFile(saved));
    QVERIFY(!p->live());
    Viewport* v = w.viewport();
    const Recording& r = p->recording();
    QVERIFY(r.endTime() >= 2.0);
    for (std::size_t k = 0; k < r.size(); k += std::max<std::size_t>(1, r.size() / 100)) {
      p->setTime(r.time(k));
      const QPoint at = v->widgetPoint(v->bodyPose(0).position);
      QVERIFY2(v->rect().contains(at), qPrintable(QString("t = %1: the root drawn at (%2, %3)").arg(r.time(k)).arg(at.x()).arg(at.y())));
    }
  }

  // dragging with the left button turns the view as a turntable: however the mouse goes, the
  // horizon stays level (View > Trackball Camera gives the free trackball, which rolls it)
  void turntableCameraKeepsTheHorizonLevel() {
    using namespace art;
    using namespace art::gui;
    using namespace art::test;
    QSettings().clear();
    MainWindow w;
    QVERIFY(openShown(w, kModels + "/arm6.json", QSize(1000, 700)));
    Viewport* v = w.viewport();
    QVERIFY(v->turntable());
    const auto roll = [&] {
      const ViewState s = v->viewState();
      const Vec3 right = (s.focus - s.position).cross(s.up).normalized();
      return std::abs(right.dot(Vec3::UnitZ()));  // arm6's up is z
    };
    const auto circle = [&] {
      const QPoint c(v->width() / 2 + 40, v->height() / 2 - 30);
      QTest::mousePress(v, Qt::LeftButton, Qt::NoModifier, c);
      for (int k = 1; k <= 21; ++k) {  // one and three quarter turns: it ends elsewhere
        const QPointF at = c + QPointF(120 * std::sin(k * M_PI / 6), 90 * (1 - std::cos(k * M_PI / 6)));
        QMouseEvent move(QEvent::MouseMove, at, v->mapToGlobal(at), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(v, &move);
      }
      QTest::mouseRelease(v, Qt::LeftButton, Qt::NoModifier, c + QPoint(-120, 90));
    };
    const ViewState before = v->viewState();
    circle();
    QVERIFY((v->viewState().position - before.position).norm() > 1e-3);  // it turned
    QVERIFY2(roll() < 1e-9, qPrintable(QString("the horizon rolled by %1").arg(roll())));
    auto* trackball = w.findChild<QAction*>("trackballAction");
    QVERIFY(trackball);
    trackball->trigger();
    QVERIFY(!v->turntable());
    circle();
    QVERIFY2(roll() > 1e-3, qPrintable(QString("the trackball kept the horizon: %1").arg(roll())));
    trackball->trigger();
  }

  // the Joints dock names joints as the file does (MJCF's abdomen_z, not the body lower_waist
  // or a generated lower_waist_abdomen_z), with the body in the tooltip
  void jointsDockShowsTheFilesJointNames() {
    using namespace art::gui;
    MainWindow w;
    QVERIFY(art::test::openShown(w, kModels + "/robots/mjcf_humanoid/humanoid.xml"));
    JointSlidersPanel* joints = w.jointSliders();
    int found = -1;
    for (int r = 0; r < joints->rowCount(); ++r)
      if (joints->rowLabel(r).startsWith("abdomen_z")) found = r;
    QVERIFY2(found >= 0, qPrintable(joints->rowLabel(std::min(joints->rowCount() - 1, 6))));
    QVERIFY2(joints->rowToolTip(found).contains("abdomen_z") && joints->rowToolTip(found).contains("lower_waist"),
             qPrintable(joints->rowToolTip(found)));
  }

  // Help > Keyboard Shortcuts (F1, h or ?) lists every key, built from the actions themselves:
  // each action's key is in the list with what it does
  void keyboardShortcutsAreListedFromTheActions() {
    using namespace art::test;
    MainWindow w;
    QVERIFY(showActive(w));
    key(w, Qt::Key_F1);
    auto* dialog = w.findChild<QDialog*>("keysDialog");
    QVERIFY(dialog && dialog->isVisible());
    auto* table = dialog->findChild<QTableWidget*>("shortcutTable");
    QVERIFY(table);
    QStringList listed;
    for (int r = 0; r < table->rowCount(); ++r) {
      for (int c = 0; c < 3; ++c)
        QVERIFY2(table->item(r, c) && !table->item(r, c)->text().isEmpty(), qPrintable(QString("row %1 column %2 is empty").arg(r).arg(c)));
      listed << table->item(r, 1)->text();
    }
    const auto has = [&](const QString& text) {
      return std::any_of(listed.begin(), listed.end(), [&](const QString& l) { return l.split(", ").contains(text); });
    };
    int actions = 0;
    for (QAction* a : w.findChildren<QAction*>())
      for (const QKeySequence& k : a->shortcuts()) {
        ++actions;
        const QString text = k.toString(QKeySequence::NativeText);
        QVERIFY2(has(text), qPrintable(text + " (" + a->text() + ") is not listed"));
      }
    QVERIFY(actions > 30);
    QVERIFY(has("Ctrl+Y") && has("Alt+N") && has("z") && has("F2"));
    if (qEnvironmentVariableIsSet("ARTICULATE_TEST_SHOTS"))
      dialog->grab().save(qEnvironmentVariable("ARTICULATE_TEST_SHOTS") + "/keys.png");
    dialog->close();
    QVERIFY(showActive(w));
    key(w, Qt::Key_H);
    QVERIFY(dialog->isVisible());
    dialog->close();
  }

  // no two actions share a key (Ctrl+N was both File > New and jog back 100, so neither ran);
  // Ctrl+N, pressed, makes a new model, and Ctrl+Y redoes as Ctrl+Shift+Z does
  void everyShortcutIsUnique() {
    MainWindow w;
    QVERIFY(art::test::openShown(w, kModels + "/double_pendulum.json"));
    QMap<QString, QStringList> owners;
    for (QAction* a : w.findChildren<QAction*>())
      for (const QKeySequence& k : a->shortcuts())
        if (!k.isEmpty()) owners[k.toString()] << (a->text().isEmpty() ? a->objectName() : a->text());
    QStringList clashes;
    for (auto it = owners.cbegin(); it != owners.cend(); ++it)
      if (it.value().size() > 1) clashes << it.key() + ": " + it.value().join(", ");
    QVERIFY2(clashes.isEmpty(), qPrintable(clashes.join("; ")));
    QVERIFY(owners.size() > 40);
    auto* newAction = w.findChild<QAction*>("newAction");
    QVERIFY(newAction);
    QSignalSpy made(newAction, &QAction::triggered);
    w.centralWidget()->setFocus();
    QTest::keyClick(w.centralWidget(), Qt::Key_N, Qt::ControlModifier);
    QCOMPARE(made.count(), 1);
    // an edit, undone with Ctrl+Z, comes back with Ctrl+Y
    art::gui::ModelDocument* doc = w.document();
    const std::optional<art::Vec3> before = doc->spec().gravity;
    QVERIFY(doc->edit("Set gravity", [](art::ModelSpec& s) { s.gravity = art::Vec3(0, 0, -3); }).isEmpty());
    QTest::keyClick(w.centralWidget(), Qt::Key_Z, Qt::ControlModifier);
    QVERIFY(doc->spec().gravity == before);
    QTest::keyClick(w.centralWidget(), Qt::Key_Y, Qt::ControlModifier);
    QVERIFY(doc->spec().gravity == art::Vec3(0, 0, -3));
  }

  void aboutNamesVersionAndCredits() {
    MainWindow w;
    QAction* about = nullptr;
    for (QAction* a : w.findChildren<QAction*>())
      if (a->text() == "&About Articulate") about = a;
    QVERIFY(about);
    QString shown;
    closeNextDialog(&shown);
    about->trigger();
    QVERIFY2(shown.contains("Articulate 0.1.0"), qPrintable(shown));
    QVERIFY2(shown.contains("Algorithms after Roy Featherstone's spatial_v2"), qPrintable(shown));
  }

  void spatialV2FileIsNeverOverwrittenSilently() {
    QTemporaryDir dir;
    const QString sv2 = dir.filePath("planar_sv2.json");
    art::saveSpatialV2(sv2.toStdString(),
                       art::loadModel(ARTICULATE_MODELS_DIR "/planar2.json").spec);
    const QByteArray original = readAll(sv2);
    MainWindow w;
    w.show();
    QVERIFY(w.openFile(sv2));
    QCOMPARE(w.model()->format, std::string("spatial_v2"));
    w.saveCameraToModel();

    QString shown;
    closeNextDialog(&shown, QMessageBox::Cancel);  // save: asks for a new name instead
    QVERIFY(!w.save());
    QVERIFY2(shown.contains("spatial_v2"), qPrintable(shown));
    closeNextDialog(&shown, QMessageBox::No);  // explicitly onto the same file: asks first
    QVERIFY(!w.saveTo(sv2));
    QVERIFY2(shown.contains("Replace the spatial_v2 file"), qPrintable(shown));
    QCOMPARE(readAll(sv2), original);
    QVERIFY(w.isWindowModified());

    const QString copy = dir.filePath("planar_articulate.json");
    QVERIFY(w.saveTo(copy));
    QCOMPARE(readAll(sv2), original);
    QCOMPARE(w.filePath(), copy);
    QCOMPARE(w.model()->format, std::string(art::kModelFormatName));
    QVERIFY(!w.isWindowModified());
    QVERIFY(w.save());  // now an Articulate file: saved in place without asking
    QCOMPARE(art::loadModel(copy.toStdString()).format, std::string(art::kModelFormatName));
  }

  void saveErrorIsShown() {
    MainWindow w;
    QVERIFY(w.openFile(kModels + "/planar2.json"));
    QString shown;
    closeNextDialog(&shown);
    QVERIFY(!w.saveTo("/nonexistent-directory/planar2.json"));
    QVERIFY2(shown.contains("Could not save 'planar2.json'"), qPrintable(shown));
    QVERIFY2(shown.contains("nonexistent-directory"), qPrintable(shown));
  }

  void pickShowsInStatusBar() {
    MainWindow w;
    QVERIFY(w.openFile(kModels + "/arm6.json"));
    art::gui::Pick pick;
    pick.body = 0;
    pick.point = art::Vec3(0.1, 0, -0.25);
    emit w.viewport()->bodyPicked(pick);
    QCOMPARE(w.statusText(),
             QString("body 'turret': point [0.100, 0.000, -0.250] m (body coordinates)"));
    emit w.viewport()->bodyPicked(art::gui::Pick{});
    QCOMPARE(w.statusText(), QString("base"));
  }

  void droppedModelFileOpens() {
    MainWindow w;
    w.show();
    QVERIFY(w.openFile(kModels + "/arm6.json"));
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(kModels + "/README.md"),
                  QUrl::fromLocalFile(kModels + "/planar5.json")});
    QDragEnterEvent enter(QPoint(20, 20), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(20, 20), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &drop);
    QTRY_COMPARE(QString::fromStdString(w.model()->spec.name), QString("planar5"));

    // an MJCF model dropped with its defaults file opens (the .xml that includes the other),
    // with its twelve motors in the Controls dock, raised, and the Import Report lists what it
    // does not model
    const QString quadruped = kModels + "/robots/mjcf_quadruped/quadruped.xml";
    QMimeData mjcf;
    mjcf.setUrls({QUrl::fromLocalFile(kModels + "/robots/mjcf_quadruped/meshes/torso.stl"), QUrl::fromLocalFile(quadruped)});
    QDragEnterEvent enterMjcf(QPoint(20, 20), Qt::CopyAction, &mjcf, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &enterMjcf);
    QVERIFY(enterMjcf.isAccepted());
    QDropEvent dropMjcf(QPointF(20, 20), Qt::CopyAction, &mjcf, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &dropMjcf);
    QTRY_COMPARE(QString::fromStdString(w.model()->spec.name), QString("mjcf_quadruped"));
    QCOMPARE(w.model()->format, std::string("mjcf"));
    QCOMPARE(w.model()->spec.bodies.size(), std::size_t{13});
    art::gui::ImportReportPanel* report = w.importReport();
    QVERIFY(report);
    QCOMPARE(report->headings(), QStringList{"quadruped.xml"});
    // its visual meshes (density 0) are read, weighed as MuJoCo 3.3.8 weighs them and drawn: no
    // note may say otherwise (one said "their mesh was not read" of meshes it drew, issue 56)
    QVERIFY2(!report->rows(0).join('\n').contains("not read"), qPrintable(report->rows(0).join('\n')));
    QVERIFY2(!report->rows(0).join('\n').contains("actuator"), qPrintable(report->rows(0).join('\n')));
    QCOMPARE(w.model()->spec.actuators.size(), std::size_t{12});
    QCOMPARE(w.controlsPanel()->rowCount(), 12);
    QVERIFY(w.controlsPanel()->isVisible());

    QMimeData text;
    text.setText("planar5.json");
    QDragEnterEvent refused(QPoint(20, 20), Qt::CopyAction, &text, Qt::LeftButton, Qt::NoModifier);
    refused.setAccepted(false);
    QApplication::sendEvent(&w, &refused);
    QVERIFY(!refused.isAccepted());
  }

  // Ctrl+P saves the view beside the model with a timestamped name, never over another; F11
  // toggles full screen; both as key presses through the window system
  void screenshotKeyAndFullScreen() {
    QTemporaryDir dir;
    const QString model = dir.filePath("pendulum.json");
    QVERIFY(QFile::copy(kModels + "/double_pendulum.json", model));
    MainWindow w;
    w.resize(900, 600);
    w.show();
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QVERIFY(w.openFile(model));
    const QString stamp = QDateTime::currentDateTime().toString("yyyyMMdd-HHmm");
    QTest::keyClick(w.windowHandle(), Qt::Key_P, Qt::ControlModifier);
    QTest::keyClick(w.windowHandle(), Qt::Key_P, Qt::ControlModifier);
    const QStringList shots = QDir(dir.path()).entryList({"pendulum-*.png"}, QDir::Files, QDir::Name);
    QCOMPARE(shots.size(), 2);  // two presses, two files (the second numbered if in one second)
    for (const QString& name : shots) {
      QVERIFY2(name.startsWith("pendulum-" + stamp) ||
                   name.startsWith("pendulum-" + QDateTime::currentDateTime().toString("yyyyMMdd-HHmm")),
               qPrintable(name));
      QImage image(dir.filePath(name));
      QCOMPARE(image.size(), w.viewport()->size());
      // a rendered view, not a blank image: the links stand out from the background
      QSet<QRgb> colours;
      for (int y = 0; y < image.height(); y += 8)
        for (int x = 0; x < image.width(); x += 8) colours.insert(image.pixel(x, y));
      QVERIFY(colours.size() > 20);
      if (qEnvironmentVariableIsSet("ARTICULATE_TEST_SHOTS"))
        image.save(qEnvironmentVariable("ARTICULATE_TEST_SHOTS") + "/ctrl-p.png");
    }
    QVERIFY(w.statusText().contains(".png"));

    QVERIFY(!w.isFullScreen());
    QTest::keyClick(w.windowHandle(), Qt::Key_F11);
    QTRY_VERIFY(w.isFullScreen());
    QTest::keyClick(w.windowHandle(), Qt::Key_F11);
    QTRY_VERIFY(!w.isFullScreen());
  }

  // the model reloads when its file changes on disk, keeping the view and the selection; an
  // invalid rewrite leaves the model shown as it was, with a message and a dialog; unsaved
  // edits are asked about first; our own save is no change
  void reloadsWhenTheFileChangesOnDisk() {
    QTemporaryDir dir;
    const QString file = dir.filePath("model.json");
    QVERIFY(QFile::copy(kModels + "/double_pendulum.json", file));
    QFile::setPermissions(file, QFile::ReadOwner | QFile::WriteOwner);
    const QByteArray original = readAll(file);
    const auto rewrite = [&](const QByteArray& bytes) {
      QFile f(file);  // in place, as an editor that truncates and writes
      QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
      f.write(bytes);
    };
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openFile(file));
    w.viewport()->setStandardView(art::gui::StandardView::Top);
    const art::gui::ViewState view = w.viewport()->viewState();
    QTest::mouseClick(w.viewport(), Qt::LeftButton, Qt::NoModifier,
                      w.viewport()->widgetPoint(art::Vec3(0.5 * std::cos(M_PI / 3),
                                                          0.5 * std::sin(M_PI / 3), 0)));
    QCOMPARE(w.viewport()->selectedBody(), 0);

    // a new name and gravity on disk: reloaded, the view and the selection kept
    QByteArray changed = original;
    changed.replace("\"name\": \"double_pendulum\"", "\"name\": \"renamed\"");
    changed.replace("-9.81", "-3.7");
    QVERIFY(changed != original);
    rewrite(changed);
    QTRY_COMPARE(QString::fromStdString(w.model()->spec.name), QString("renamed"));
    QVERIFY(w.model()->spec.gravity.has_value());
    QCOMPARE(w.model()->spec.gravity->y(), -3.7);
    QVERIFY((w.viewport()->viewState().position - view.position).norm() < 1e-12);
    QCOMPARE(w.viewport()->selectedBody(), 0);
    QVERIFY(w.statusText().contains("Reloaded"));
    QVERIFY(!w.isWindowModified());

    // broken on disk: a dialog and a message; the model shown stays, intact
    QString shown;
    closeNextDialog(&shown);
    rewrite("{\"format\": \"articulate-model\", \"version\": 1, \"bodies\": [{\"name\": 3}]}");
    QTRY_VERIFY(w.statusText().contains("no longer opens"));
    QTRY_VERIFY(!shown.isEmpty());
    QVERIFY(shown.contains("bodies[0]"));
    QCOMPARE(QString::fromStdString(w.model()->spec.name), QString("renamed"));
    QCOMPARE(w.model()->spec.bodies.size(), std::size_t(2));

    // unsaved edits: asked first; No keeps them
    rewrite(changed);
    QTRY_VERIFY(w.statusText().contains("Reloaded"));
    w.saveCameraToModel();  // an edit
    QVERIFY(w.isWindowModified());
    QString asked;
    closeNextDialog(&asked, QMessageBox::No);
    rewrite(original);
    QTRY_VERIFY(asked.contains("changed on disk"));
    QTRY_VERIFY(w.statusText().contains("unsaved changes are kept"));
    QCOMPARE(QString::fromStdString(w.model()->spec.name), QString("renamed"));
    QVERIFY(w.isWindowModified());

    // our own save is not a change on disk: nothing asked, nothing reloaded
    QVERIFY(w.save());
    QTest::qWait(3 * MainWindow::kReloadDelayMs);
    QVERIFY(w.statusText().startsWith("Saved"));
  }

  // on the first start (no remembered layout) the view gets most of the window
  void firstStartGivesTheViewMostOfTheWindow() {
    QSettings().clear();
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openFile(kModels + "/arm6.json"));
    QTRY_VERIFY(w.viewport()->width() > 0);
    const double share = double(w.viewport()->width() * w.viewport()->height()) /
                         (w.width() * w.height());
    if (qEnvironmentVariableIsSet("ARTICULATE_TEST_SHOTS"))
      w.screen()->grabWindow(w.winId()).save(qEnvironmentVariable("ARTICULATE_TEST_SHOTS") + "/layout.png");
    // more than any dock and 40% of the window (the menus, bars and status line take some);
    // the old layout gave it a quarter. The plots take about a quarter of the height and the
    // left docks a quarter of the width (issue 36: a readable chart, unclipped numbers).
    for (QDockWidget* dock : w.findChildren<QDockWidget*>())
      if (dock->isVisible() && !dock->visibleRegion().isEmpty())
        QVERIFY2(w.viewport()->width() * w.viewport()->height() > dock->width() * dock->height(),
                 qPrintable(dock->objectName()));
    QVERIFY2(share > 0.4, qPrintable(QString("the view has %1 of the window").arg(share)));
    auto* plots = w.findChild<QDockWidget*>("plotsDock");
    QVERIFY2(plots->height() >= w.height() / 4 - 30, qPrintable(QString("plots %1 px").arg(plots->height())));
  }

  void poseAtTime_data() {
    QTest::addColumn<double>("t");
    QTest::addColumn<double>("q0");
    QTest::newRow("before the first sample") << -1.0 << 0.0;
    QTest::newRow("first sample") << 0.0 << 0.0;
    QTest::newRow("between samples") << 0.25 << 0.5;
    QTest::newRow("repeated time: the later sample") << 1.0 << 4.0;
    QTest::newRow("after the jump") << 1.5 << 5.0;
    QTest::newRow("after the last sample") << 7.0 << 6.0;
  }
  void poseAtTime() {
    QFETCH(double, t);
    QFETCH(double, q0);
    art::LoadedModel model = art::loadModel(ARTICULATE_MODELS_DIR "/planar2.json");
    art::Motion motion;
    motion.t = Eigen::Vector4d(0, 1, 1, 2);
    motion.q.resize(4, 2);
    motion.q << 0, 10, 2, 20, 4, 30, 6, 40;
    model.motion = motion;
    const Eigen::VectorXd q = art::gui::poseAtTime(model, t);
    QCOMPARE(q.size(), Eigen::Index(2));
    QCOMPARE(q[0], q0);
    QCOMPARE(q[1], 10 + 5 * q0);
  }
  void poseWithoutMotionIsInitialPose() {
    const art::LoadedModel model = art::loadModel(ARTICULATE_MODELS_DIR "/arm6.json");
    QVERIFY(art::gui::poseAtTime(model, 3.0).isApprox(art::compile(model.spec).q0));
  }

  // File > Export > URDF and spatial_v2 JSON, and File > Open of the URDF; a model URDF cannot
  // describe is refused in a dialog with the reason, writing nothing
  void exportModelAndOpenUrdf() {
    QTemporaryDir dir;
    MainWindow w;
    w.show();
    QVERIFY(w.openFile(kModels + "/arm6.json"));
    const QString urdf = dir.filePath("arm6.urdf"), sv2 = dir.filePath("arm6-sv2.json");
    QVERIFY(w.exportModel(urdf));
    QVERIFY2(w.statusText().contains("the camera is not stored"), qPrintable(w.statusText()));
    QVERIFY(w.exportModel(sv2));
    QCOMPARE(art::loadModel(sv2.toStdString()).format, std::string("spatial_v2"));
    QVERIFY(w.openFile(urdf));
    QCOMPARE(w.model()->format, std::string("urdf"));
    QCOMPARE(w.model()->spec.bodies.size(), std::size_t{6});
    QVERIFY(w.lastError().isEmpty());
    QVERIFY(w.openFile(kModels + "/helical_screw.json"));
    QString shown;
    closeNextDialog(&shown);
    QVERIFY(!w.exportModel(dir.filePath("screw.urdf")));
    QVERIFY2(shown.contains("helical joint (H) has no URDF form"), qPrintable(shown));
    QVERIFY(!QFileInfo::exists(dir.filePath("screw.urdf")));
  }

  // the Import report dock: what reading a file left out, a row per note under the file's name,
  // raised when there are notes, started afresh by the next model; an export's notes under
  // "Export to FILE"; in View > Panels as the other docks; and the notes on stderr
  void importReportListsTheNotes() {
    QTemporaryDir dir;
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    art::gui::ImportReportPanel* report = w.importReport();
    QDockWidget* dock = w.importReportDock();
    QVERIFY(report && dock);
    bool inMenu = false;
    for (QMenu* menu : w.findChildren<QMenu*>())
      if (menu->title() == "&Panels") inMenu = menu->actions().contains(dock->toggleViewAction());
    QVERIFY(inMenu);
    QVERIFY(w.openFile(kModels + "/arm6.json"));
    QVERIFY(report->headings().isEmpty());
    QVERIFY2(report->emptyText().contains("nothing was left out"), qPrintable(report->emptyText()));
    const QString urdf = QStringLiteral(ARTICULATE_TEST_DATA_DIR) + "/urdf/arm_fixture.urdf";
    const std::vector<std::string> notes = art::loadModel(urdf.toStdString()).notes;
    QVERIFY(notes.size() >= 2);
    dock->hide();
    QVERIFY(w.openFile(urdf));
    QCOMPARE(report->headings(), QStringList{"arm_fixture.urdf"});
    QStringList expected;
    for (const std::string& note : notes) expected << QString::fromStdString(note);
    QCOMPARE(report->rows(0), expected);
    QVERIFY(report->rows(0).join('\n').contains("fixed joint(s) merged"));
    QVERIFY(report->emptyText().isEmpty());
    QTRY_VERIFY(dock->isVisible() && !dock->visibleRegion().isEmpty());  // shown, in front of the plots
    // an export that leaves things out adds its notes below
    QVERIFY(w.exportModel(dir.filePath("fixture.urdf")));
    const QStringList headings = report->headings();
    QVERIFY2(headings.size() == 2 && headings[1] == "Export to fixture.urdf", qPrintable(headings.join(" | ")));
    QVERIFY(!report->rows(1).isEmpty());
    // another model starts the report afresh
    QVERIFY(w.openFile(kModels + "/limited_arm.json"));
    QVERIFY(report->headings().isEmpty());
    QVERIFY(report->emptyText().contains("limited_arm.json"));
    // the application prints the notes of the file it opens on stderr, as articulate-cli does
    QString out;
    QCOMPARE(runGui({"--grab-window", dir.filePath("report.png"), "--play-for", "0.5", urdf}, &out), 0);
    for (const std::string& note : notes)
      QVERIFY2(out.contains(QString("note: %1: %2").arg(urdf, QString::fromStdString(note))), qPrintable(out));
    if (qEnvironmentVariableIsSet("ARTICULATE_TEST_SHOTS"))
      QFile::copy(dir.filePath("report.png"), qEnvironmentVariable("ARTICULATE_TEST_SHOTS") + "/import_report.png");
  }

  // File > URDF Base: a robot without legs (no collision geometry below its root link) opens
  // fixed; choosing Floating through the menu reads the open robot again floating, and the
  // choice is remembered for that file alone: another robot opens with its automatic base.
  // File > URDF Package Folders' list finds package:// meshes found nowhere else.
  void urdfBaseAndPackageFolders() {
    QTemporaryDir dir;
    // a two-link robot whose meshes are in a package outside its own folders
    QFile stl(dir.filePath("elsewhere/my_pkg/part.stl"));
    QVERIFY(QDir().mkpath(dir.filePath("elsewhere/my_pkg")));
    QVERIFY(stl.open(QIODevice::WriteOnly));
    stl.write(QByteArray(80, ' '));
    const std::uint32_t one = 1;
    stl.write(reinterpret_cast<const char*>(&one), 4);
    const float tri[12] = {0, 0, 0, 0, 0, 0, 0.1f, 0, 0, 0, 0.1f, 0};
    stl.write(reinterpret_cast<const char*>(tri), sizeof tri);
    stl.write("\0\0", 2);
    stl.close();
    const QString urdf = dir.filePath("robot/robot.urdf");
    QVERIFY(QDir().mkpath(dir.filePath("robot")));
    QFile f(urdf);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("<robot name='r'><link name='base_link'><inertial><mass value='2'/><inertia ixx='1' iyy='1' izz='1' "
            "ixy='0' ixz='0' iyz='0'/></inertial><visual><geometry><mesh filename='package://my_pkg/part.stl'/>"
            "</geometry></visual></link><link name='arm'><inertial><mass value='1'/><inertia ixx='0.1' iyy='0.1' "
            "izz='0.1' ixy='0' ixz='0' iyz='0'/></inertial></link><joint name='hinge' type='continuous'>"
            "<parent link='base_link'/><child link='arm'/><axis xyz='0 0 1'/></joint></robot>");
    f.close();
    QVERIFY(QFile::copy(urdf, dir.filePath("robot/other.urdf")));
    MainWindow w;
    w.show();
    QAction* automatic = nullptr;
    QAction* floating = nullptr;
    for (QAction* a : w.findChildren<QAction*>()) {
      if (a->data().toString() == "auto") automatic = a;
      if (a->data().toString() == "floating") floating = a;
    }
    QVERIFY(automatic && floating);
    QVERIFY(!floating->isEnabled());  // no robot open
    QVERIFY(w.openFile(urdf));
    QCOMPARE(w.model()->spec.bodies.size(), std::size_t{1});
    QCOMPARE(w.model()->spec.bodies[0].joint.type, art::JointType::Rz);
    QVERIFY(automatic->isChecked() && floating->isEnabled());
    QVERIFY2(w.statusText().contains("mesh 'package://my_pkg/part.stl' is not drawn: not found"), qPrintable(w.statusText()));
    floating->trigger();
    QCOMPARE(w.model()->spec.bodies.size(), std::size_t{2});
    QCOMPARE(w.model()->spec.bodies[0].joint.type, art::JointType::Free);
    QVERIFY(floating->isChecked());
    QCOMPARE(art::gui::Settings::load().urdfBase(urdf), QString("floating"));
    QCOMPARE(art::gui::Settings::load().urdfBase(dir.filePath("robot/other.urdf")), QString("auto"));
    QVERIFY(w.openFile(dir.filePath("robot/other.urdf")));
    QCOMPARE(w.model()->spec.bodies.size(), std::size_t{1});  // its own, automatic base
    QVERIFY(automatic->isChecked());
    // the package folder, as File > URDF Package Folders stores it
    art::gui::Settings settings = art::gui::Settings::load();
    settings.packageFolders = {dir.filePath("elsewhere")};
    settings.save();
    MainWindow again;
    again.show();
    QVERIFY(again.openFile(urdf));
    QCOMPARE(again.model()->spec.bodies.size(), std::size_t{2});  // still floating: remembered
    QVERIFY2(!again.statusText().contains("not drawn"), qPrintable(again.statusText()));
    const std::vector<std::string> meshes = art::meshFiles(again.model()->spec.bodies[0].appearance);
    QCOMPARE(meshes.size(), std::size_t{1});
    QCOMPARE(QString::fromStdString(meshes[0]), QFileInfo(dir.filePath("elsewhere/my_pkg/part.stl")).absoluteFilePath());
  }

  // issue 32: a legged URDF robot floats, stands on the ground and has a floor drawn under it
  // (its file draws none); the same robot bolted to a root link 'world' has no ground contact
  // and no floor. The pixel below the robot is the floor's grey, else the sky's gradient
  void floorUnderLeggedRobots() {
    QTemporaryDir dir;
    QString urdf = "<robot name='dog'><link name='torso'><inertial><mass value='8'/><inertia ixx='0.2' iyy='0.2' izz='0.2' ixy='0' ixz='0' iyz='0'/></inertial>"
                   "<visual><geometry><box size='0.6 0.3 0.1'/></geometry></visual><collision><geometry><box size='0.6 0.3 0.1'/></geometry></collision></link>";
    for (int k = 0; k < 4; ++k)
      urdf += QString("<link name='leg%1'><inertial><mass value='0.5'/><inertia ixx='0.002' iyy='0.002' izz='0.002' ixy='0' ixz='0' iyz='0'/></inertial>"
                      "<visual><origin xyz='0 0 -0.15'/><geometry><cylinder radius='0.02' length='0.3'/></geometry></visual>"
                      "<collision><origin xyz='0 0 -0.3'/><geometry><sphere radius='0.03'/></geometry></collision></link>"
                      "<joint name='hip%1' type='revolute'><parent link='torso'/><child link='leg%1'/><origin xyz='%2 %3 -0.05'/>"
                      "<axis xyz='0 1 0'/><limit lower='-0.5' upper='0.5' effort='10' velocity='5'/></joint>")
                  .arg(k).arg(k < 2 ? 0.25 : -0.25).arg(k % 2 ? 0.15 : -0.15);
    urdf += "</robot>";
    const auto below = [&](const QString& text) {
      const QString path = dir.filePath("robot.urdf"), png = dir.filePath("shot.png");
      QFile f(path);
      if (!f.open(QIODevice::WriteOnly)) return QColor();
      f.write(text.toUtf8());
      f.close();
      QString out;
      if (runGui({"--screenshot", png, "--size", "400x300", path}, &out) != 0) return QColor();
      const QImage image(png);
      return image.isNull() ? QColor() : image.pixelColor(200, 290);
    };
    const QColor floor = below(urdf);
    QVERIFY2(floor.isValid() && floor.red() == floor.green() && floor.green() == floor.blue() && floor.red() > 40,
             qPrintable(floor.name()));
    QString bolted = urdf;
    bolted.replace("<robot name='dog'>", "<robot name='dog'><link name='world'/><joint name='bolt' type='fixed'>"
                                         "<parent link='world'/><child link='torso'/></joint>");
    const QColor sky = below(bolted);
    QVERIFY2(sky.isValid() && sky.blue() > sky.red() + 5, qPrintable(sky.name()));
  }

  void screenshotWritesImageOfRequestedSize() {
    QTemporaryDir dir;
    const QString png = dir.filePath("arm6.png");
    QString out;
    QCOMPARE(runGui({"--screenshot", png, "--size", "320x200", kModels + "/arm6.json"}, &out), 0);
    QImage image(png);
    QVERIFY2(!image.isNull(), qPrintable(out));
    QCOMPARE(image.size(), QSize(320, 200));

    // a spatial_v2 file with a motion, at a time between its samples
    nlohmann::ordered_json doc =
        art::specToSpatialV2(art::loadModel(ARTICULATE_MODELS_DIR "/planar2.json").spec);
    doc["t"] = {0.0, 1.0};
    doc["q"] = {{0.0, 0.0}, {1.5, -1.0}};
    const QString sv2 = dir.filePath("motion.json");
    art::writeFileAtomically(sv2.toStdString(), doc.dump());
    const QString png2 = dir.filePath("motion.png");
    QCOMPARE(runGui({sv2, "--screenshot", png2, "--time", "0.5"}, &out), 0);
    QCOMPARE(QImage(png2).size(), QSize(1280, 720));
  }

  // every kind the app opens has screenshots: a rigid body and a structure, at the initial
  // state and simulated to a time (the bodies have moved: the images differ). The initial
  // state's image shows the bodies where they start: it matches the image one step later
  // (they have moved less than a thousandth of a pixel), drawn from the simulated poses.
  void screenshotOfEveryModelKind() {
    QTemporaryDir dir;
    for (const char* model : {"bouncing_cylinder.json", "tensegrity_prism.json", "nc_double_pendulum.json",
                              "natural_fourbar.json"}) {
      QString out;
      const QString at0 = dir.filePath("a.png"), at1 = dir.filePath("b.png"), step = dir.filePath("c.png");
      QCOMPARE(runGui({"--screenshot", at0, "--size", "320x200", kModels + "/" + model}, &out), 0);
      QCOMPARE(runGui({"--screenshot", at1, "--size", "320x200", "--time", "0.4", kModels + "/" + model}, &out), 0);
      QCOMPARE(runGui({"--screenshot", step, "--size", "320x200", "--time", "1e-6", kModels + "/" + model}, &out), 0);
      const QImage a(at0), b(at1), c(step);
      QVERIFY2(!a.isNull() && !b.isNull() && !c.isNull(), qPrintable(QString(model) + ": " + out));
      QCOMPARE(b.size(), QSize(320, 200));
      QVERIFY2(a != b, model);
      int differing = 0;
      for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x) {
          const QColor p = a.pixelColor(x, y), q = c.pixelColor(x, y);
          differing += std::abs(p.red() - q.red()) > 24 || std::abs(p.green() - q.green()) > 24 ||
                       std::abs(p.blue() - q.blue()) > 24;
        }
      QVERIFY2(differing <= 4, qPrintable(QString("%1: %2 pixels differ from the image one step later")
                                              .arg(model).arg(differing)));
    }
  }

  void screenshotErrorsExitWithTwo() {
    QTemporaryDir dir;
    const QString bad = dir.filePath("broken.json");
    art::writeFileAtomically(bad.toStdString(), kMalformed);
    const QString png = dir.filePath("out.png");
    QString out;
    QCOMPARE(runGui({"--screenshot", png, bad}, &out), 2);
    QVERIFY2(out.startsWith("articulate: "), qPrintable(out));
    QVERIFY2(out.contains("bodies[0]: missing field 'inertia'"), qPrintable(out));
    QVERIFY(!QFile::exists(png));
    QCOMPARE(runGui({"--screenshot", png, "--size", "12x", kModels + "/arm6.json"}, &out), 2);
    QVERIFY2(out.startsWith("articulate: --size"), qPrintable(out));
    QCOMPARE(runGui({"--screenshot", png, "--time", "soon", kModels + "/arm6.json"}, &out), 2);
    QVERIFY2(out.startsWith("articulate: --time"), qPrintable(out));
    QCOMPARE(runGui({"--screenshot", png, "--no-such-option"}, &out), 2);
    QVERIFY(!QFile::exists(png));
    // the image never replaces the model it shows, named directly or through a link
    const QString model = dir.filePath("arm6.json"), link = dir.filePath("link.png");
    QVERIFY(QFile::copy(kModels + "/arm6.json", model));
    QVERIFY(QFile::link(model, link));
    const QByteArray before = [&] { QFile f(model); f.open(QIODevice::ReadOnly); return f.readAll(); }();
    for (const QString& target : {model, link}) {
      QCOMPARE(runGui({"--screenshot", target, model}, &out), 2);
      QVERIFY2(out.contains("is the model file itself"), qPrintable(out));
    }
    QFile after(model);
    QVERIFY(after.open(QIODevice::ReadOnly));
    QCOMPARE(after.readAll(), before);
    QCOMPARE(runGui({"--version"}, &out), 0);
    QVERIFY2(out.contains("0.1.0"), qPrintable(out));
  }

  // issue 32: a floating robot whose initial state or keyframe puts its feet inside the ground:
  // the app offers to lift it by the depth (Lift: the lowest foot touches the ground; Keep:
  // the state as it is); the file is not changed
  void offersToLiftAStateInsideTheGround() {
    using namespace art;
    ModelSpec spec = loadModel((kModels + "/quadruped.json").toStdString()).spec;
    const auto lowest = [](const Model& m, const Eigen::VectorXd& q) {
      Data d(m);
      const std::vector<double> h = groundHeights(m, d, q);
      return *std::min_element(h.begin(), h.end());
    };
    const double below = lowest(compile(spec), compile(spec).q0) + 0.04;  // feet 4 cm inside
    spec.bodies[0].freePosition.z() -= below;
    Eigen::VectorXd crouch = compile(spec).q0;
    crouch(2) -= 0.02;  // 6 cm inside
    spec.keyframes.push_back({"sunk", 0.0, crouch, compile(spec).qd0, {}, {}});
    QTemporaryDir dir;
    const QString path = dir.filePath("sunk.json");
    art::writeFileAtomically(path.toStdString(), formatJson(specToJson(spec)));
    const QByteArray before = readAll(path);
    art::gui::MainWindow w;
    QString asked;
    closeNextDialog(&asked, QMessageBox::Yes);  // Lift
    QVERIFY(art::test::openShown(w, path));
    QVERIFY2(asked.startsWith("The initial state of sunk.json puts 4 ground-contact point(s) up to 4.0 cm inside the ground."),
             qPrintable(asked));
    QVERIFY2(asked.contains("lifts them out at 0.2 m/s"), qPrintable(asked));
    art::gui::Playback* p = w.playback();
    const Model m = compile(spec);
    QVERIFY(art::test::waitFor([&] { return p->recording().size() > 0 && std::abs(lowest(m, p->q())) < 1e-9; }, 5));
    QVERIFY(std::abs(p->q()(2) - (m.q0(2) + 0.04)) < 1e-9);
    // the keyframe: kept, then lifted
    closeNextDialog(&asked, QMessageBox::No);  // Keep
    QVERIFY(w.restoreKeyframe(0));
    QVERIFY2(asked.startsWith("Keyframe 'sunk' puts 4 ground-contact point(s) up to 6.0 cm"), qPrintable(asked));
    QVERIFY(art::test::waitFor([&] { return (p->q() - crouch).norm() < 1e-12; }, 5));
    closeNextDialog(&asked, QMessageBox::Yes);
    QVERIFY(w.restoreKeyframe(0));
    QVERIFY(art::test::waitFor([&] { return std::abs(lowest(m, p->q())) < 1e-9; }, 5));
    QCOMPARE(readAll(path), before);
    // a robot standing on the ground is not asked about
    asked.clear();
    art::gui::MainWindow standing;
    closeNextDialog(&asked, QMessageBox::Yes);
    QVERIFY(art::test::openShown(standing, kModels + "/quadruped.json"));
    QTest::qWait(200);
    forgetPendingDialogs();  // `asked` goes out of scope here
    QVERIFY2(asked.isEmpty(), qPrintable(asked));
  }

  // a robot on geoms (a URDF quadruped, saved lowered by 4 cm) is offered the lift too: its
  // four feet's contacts with the ground plane are 4 cm deep; lifted, the deepest touches z = 0
  void offersToLiftGeomsInsideTheGround() {
    using namespace art;
    QString urdf = "<robot name='dog'><link name='torso'><inertial><mass value='8'/><inertia ixx='0.2' iyy='0.2' izz='0.2' ixy='0' ixz='0' iyz='0'/></inertial>"
                   "<collision><geometry><box size='0.6 0.3 0.1'/></geometry></collision></link>";
    for (int k = 0; k < 4; ++k)
      urdf += QString("<link name='leg%1'><inertial><mass value='0.5'/><inertia ixx='0.002' iyy='0.002' izz='0.002' ixy='0' ixz='0' iyz='0'/></inertial>"
                      "<collision><origin xyz='0 0 -0.3'/><geometry><sphere radius='0.03'/></geometry></collision></link>"
                      "<joint name='hip%1' type='revolute'><parent link='torso'/><child link='leg%1'/><origin xyz='%2 %3 -0.05'/>"
                      "<axis xyz='0 1 0'/><limit lower='-0.5' upper='0.5' effort='10' velocity='5'/></joint>")
                  .arg(k).arg(k < 2 ? 0.25 : -0.25).arg(k % 2 ? 0.15 : -0.15);
    ModelSpec spec = specFromUrdf((urdf + "</robot>").toStdString(), "dog.urdf");
    QVERIFY(!spec.geoms.empty() && spec.contacts.empty());
    spec.bodies[0].freePosition.z() -= 0.04;
    QTemporaryDir dir;
    const QString path = dir.filePath("sunk.json");
    art::writeFileAtomically(path.toStdString(), formatJson(specToJson(spec)));
    const Model m = compile(spec);
    const auto deepest = [&](const Eigen::VectorXd& q) {  // the deepest contact's dist (m)
      Data d(m);
      forwardKinematics(m, d, q);
      std::vector<Contact> contacts;
      collide(m, d, contacts);
      double least = 0.0;  // contacts exist where the geoms touch (dist <= 0, no margin)
      for (const Contact& c : contacts) least = std::min(least, c.dist);
      return least;
    };
    art::gui::MainWindow w;
    QString asked;
    closeNextDialog(&asked, QMessageBox::Yes);  // Lift
    QVERIFY(art::test::openShown(w, path));
    QVERIFY2(asked.startsWith("The initial state of sunk.json puts 4 contact(s) of the robot up to 4.0 cm inside the ground."),
             qPrintable(asked));
    QVERIFY2(asked.contains("the soft contacts push it out from the first step"), qPrintable(asked));
    art::gui::Playback* p = w.playback();
    QVERIFY(deepest(m.q0) < -0.039);
    QVERIFY(art::test::waitFor([&] { return p->recording().size() > 0 && deepest(p->q()) > -1e-9; }, 5));
    QVERIFY(std::abs(p->q()(2) - (m.q0(2) + 0.04)) < 1e-9);
  }

  // without an X display --screenshot says in one line what it needs (VTK's X window aborted
  // with signal 6 before), with DISPLAY unset and with one that cannot be opened
  void screenshotWithoutDisplaySaysWhy() {
    QTemporaryDir dir;
    const QString png = dir.filePath("out.png");
    for (const QString& display : {QString(), QString(":4711")}) {
      QProcess p;
      p.setProcessChannelMode(QProcess::MergedChannels);
      QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
      if (display.isEmpty())
        env.remove("DISPLAY");
      else
        env.insert("DISPLAY", display);
      p.setProcessEnvironment(env);
      p.start(ARTICULATE_GUI, {"--screenshot", png, kModels + "/arm6.json"});
      QVERIFY(p.waitForFinished(60000));
      const QString out = QString::fromUtf8(p.readAll()).trimmed();
      QCOMPARE(p.exitStatus(), QProcess::NormalExit);
      QCOMPARE(p.exitCode(), 2);
      QVERIFY2(out.startsWith("articulate: rendering an image needs an X display") && !out.contains('\n'), qPrintable(out));
      QVERIFY2(out.contains(display.isEmpty() ? "DISPLAY is not set" : "DISPLAY ':4711' cannot be opened"), qPrintable(out));
      QVERIFY2(out.contains("xvfb-run -a articulate --screenshot"), qPrintable(out));
      QVERIFY(!QFile::exists(png));
    }
  }
};

ARTICULATE_TEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
