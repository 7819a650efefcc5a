// The main window: layout, menus, the open document, opening and saving model files.
#include "main_window.h"

#include <Eigen/Geometry>

#include <algorithm>

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QComboBox>
#include <QSpinBox>
#include <QInputDialog>
#include <QProgressDialog>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QStatusBar>
#include <QStyle>
#include <QTextDocument>
#include <QTimer>
#include <QActionGroup>
#include <QDateTime>
#include <QScrollArea>
#include <QToolBar>
#include <QToolButton>
#include <QWidgetAction>

#include "articulate/model/model.h"
#include "articulate/model/edit.h"
#include "articulate/simulation/recording.h"
#include "articulate/formulations/tree_simulation.h"
#include "articulate/formats/files.h"
#include "articulate/formats/structure.h"
#include "articulate/formats/spatial_v2.h"
#include "articulate/simulation/structure_system.h"
#include "articulate/formats/urdf.h"
#include "export.h"
#include "link_options.h"
#include "joint_sliders.h"
#include "recovery.h"
#include "model_tree.h"
#include "properties.h"
#include "playback.h"
#include "plots.h"
#include "viewport/viewport.h"

namespace art::gui {

namespace {

constexpr int kVisibleProblemLines = 12;  // the rest of a long error is under "Show Details"

std::string localPath(const QString& path) { return QFile::encodeName(path).toStdString(); }

bool isArticulate(const LoadedModel& model) { return model.format == kModelFormatName; }

/// The first local .json or .urdf file among dropped URLs, or empty.
QString droppedModel(const QMimeData* mime) {
  if (!mime || !mime->hasUrls()) return {};
  for (const QUrl& url : mime->urls())
    if (url.isLocalFile() && (url.toLocalFile().endsWith(".json", Qt::CaseInsensitive) ||
                              isUrdfPath(localPath(url.toLocalFile()))))
      return url.toLocalFile();
  return {};
}

}  // namespace

Eigen::VectorXd poseAtTime(const LoadedModel& model, double t) {
  if (!model.motion || model.motion->t.size() == 0) return compile(model.spec).q0;
  Eigen::VectorXd q, qd;
  Recording::fromMotion(*model.motion).stateAt(t, q, qd);
  return q;
}

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent), m_settings(Settings::load()) {
  if (m_settings.pruneRecentFiles()) m_settings.save();
  m_viewport = new Viewport(this);
  setCentralWidget(m_viewport);
  connect(m_viewport, &Viewport::bodyPicked, this, &MainWindow::showPick);
  m_document = new ModelDocument(this);
  connect(m_document, &ModelDocument::changed, this, &MainWindow::documentChanged);
  connect(m_document->undoStack(), &QUndoStack::cleanChanged, this,
          [this](bool clean) { setModified(!clean); });
  m_playback = new Playback(this);
  connect(m_playback, &Playback::frameChanged, this, &MainWindow::showFrame);
  m_autosaver = new Autosaver(
      [this] {
        if (!m_model) return Autosaver::Source{};
        return Autosaver::Source{m_path, QString::fromStdString(m_model->format),
                                 [this](const std::string& path) { writeDocument(path); }};
      },
      this);
  connect(m_document, &ModelDocument::changed, m_autosaver, &Autosaver::noteChange);
  connect(m_autosaver, &Autosaver::failed, this, &MainWindow::autosaveFailed);
  connect(m_autosaver, &Autosaver::saved, this, [this] { m_autosaveWarned = false; });
  connect(m_playback, &Playback::problem, this, &MainWindow::simulationProblem);

  createDocks();
  createPlaybackBar();
  createBuildBar();
  createMenus();
  createShortcuts();
  statusBar()->showMessage(tr("Open a model with File > Open, or drop a .json model file here"));
  setAcceptDrops(true);

  resize(1280, 800);
  restoreGeometry(m_settings.geometry);
  restoreState(m_settings.state);
  applyOverlays();
  updateTitle();
}

MainWindow::~MainWindow() { m_autosaver->discard(); }

void MainWindow::createDocks() {
  auto* tree = new QDockWidget(tr("Model"), this);
  tree->setObjectName("modelDock");
  m_tree = new ModelTreePanel(m_document, tree);
  tree->setWidget(m_tree);
  addDockWidget(Qt::LeftDockWidgetArea, tree);
  connect(m_tree, &ModelTreePanel::bodySelected, this,
          [this](int body) {
            m_viewport->setSelectedBody(body);
            m_properties->setBody(body);
          });
  connect(m_tree->model(), &ModelTreeModel::refused, this,
          [this](const QString& why) { statusBar()->showMessage(why); });
  auto* properties = new QDockWidget(tr("Properties"), this);
  properties->setObjectName("propertiesDock");
  m_properties = new PropertiesPanel(m_document, properties);
  // scrolled: the panel's long form must not widen or lengthen the dock
  auto* scroll = new QScrollArea(properties);
  scroll->setWidget(m_properties);
  scroll->setWidgetResizable(true);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
  scroll->setFrameShape(QFrame::NoFrame);
  properties->setWidget(scroll);
  addDockWidget(Qt::RightDockWidgetArea, properties);
  auto* plots = new QDockWidget(tr("Plots"), this);
  plots->setObjectName("plotsDock");
  m_plots = new PlotsPanel(plots);
  plots->setWidget(m_plots);
  addDockWidget(Qt::BottomDockWidgetArea, plots);
  connect(m_playback, &Playback::stateChanged, m_plots,
          [this] { m_plots->setRecording(&m_playback->recording()); });
  // joint sliders: pose while paused, follow the shown state while playing (joint_sliders.h)
  auto* joints = new QDockWidget(tr("Joints"), this);
  joints->setObjectName("jointsDock");
  m_joints = new JointSlidersPanel(m_document, joints);
  joints->setWidget(m_joints);
  addDockWidget(Qt::RightDockWidgetArea, joints);
  connect(m_joints, &JointSlidersPanel::poseEdited, this, &MainWindow::poseJoints);
  connect(m_playback, &Playback::stateChanged, m_joints,
          [this] { m_joints->setReadOnly(m_playback->playing()); });
  // the Joints dock shares the Properties dock's place as a tab: each gets the full height
  tabifyDockWidget(properties, joints);
  properties->raise();
  // first-run sizes (a remembered layout replaces them): the view gets the most room
  resizeDocks({tree, properties}, {220, 420}, Qt::Horizontal);
  resizeDocks({plots}, {230}, Qt::Vertical);
}

void MainWindow::poseJoints(const Eigen::VectorXd& q) {
  if (!m_model || m_rigid || m_structure || !m_display || q.size() != m_display->positionSize())
    return;
  // a paused live simulation continues from the pose; an animation shows it until it moves
  if (m_playback->live()) m_playback->setStateHere(q, m_playback->qd());
  m_display->bodyPoses(q, m_poses);
  m_viewport->setBodyPoses(m_poses);
}

void MainWindow::createPlaybackBar() {
  auto* bar = new QToolBar(tr("Playback"), this);
  bar->setObjectName("playbackBar");
  bar->setMovable(false);
  m_playbackBar = new PlaybackBar(m_playback, bar);
  bar->addWidget(m_playbackBar);
  addToolBar(Qt::BottomToolBarArea, bar);
}

void MainWindow::createBuildBar() {
  auto* bar = new QToolBar(tr("Build"), this);
  bar->setObjectName("buildBar");
  m_addBodyAction = new QAction(tr("Add Body"), this);
  m_addBodyAction->setObjectName("addBodyAction");
  m_addBodyAction->setCheckable(true);
  m_addBodyAction->setShortcut(QKeySequence(tr("B")));
  m_addBodyAction->setToolTip(
      tr("Add Body (B): click a body or the floor to attach a new link there; the arrow sets "
         "its joint, axis, shape and size"));
  connect(m_addBodyAction, &QAction::toggled, this, [this](bool on) {
    m_viewport->setCursor(on ? Qt::CrossCursor : Qt::ArrowCursor);
    if (on) statusBar()->showMessage(tr("Add Body: click a body or the floor (Esc or B to stop)"));
  });
  // the options as a small popup under the tool's arrow
  auto* menu = new QMenu(this);
  auto* holder = new QWidgetAction(menu);
  m_linkOptions = new LinkOptionsForm(true, menu);
  m_linkOptions->setObjectName("linkOptions");
  holder->setDefaultWidget(m_linkOptions);
  menu->addAction(holder);
  auto* button = new QToolButton(bar);
  button->setDefaultAction(m_addBodyAction);
  button->setMenu(menu);
  button->setPopupMode(QToolButton::MenuButtonPopup);
  bar->addWidget(button);
  m_moveAction = bar->addAction(tr("Move"));
  m_moveAction->setObjectName("moveAction");
  m_moveAction->setCheckable(true);
  m_moveAction->setShortcut(QKeySequence(tr("G")));
  m_moveAction->setToolTip(tr("Move (G): a handle on the selected body; drag its centre to move "
                              "the joint placement, its faces to turn it; Ctrl snaps to 1 cm and "
                              "15 degrees. Drag a body elsewhere to turn it about its joint axis "
                              "(its home position)"));
  connect(m_moveAction, &QAction::toggled, m_viewport, &Viewport::setTransformHandle);
  connect(m_viewport, &Viewport::handleDragged, this, &MainWindow::moveBody);
  connect(m_viewport, &Viewport::jointDragged, this, &MainWindow::turnJoint);
  auto* stop = new QAction(this);
  stop->setShortcut(Qt::Key_Escape);
  connect(stop, &QAction::triggered, this, [this] {
    m_addBodyAction->setChecked(false);
    m_moveAction->setChecked(false);
  });
  addAction(stop);
  addToolBar(Qt::TopToolBarArea, bar);
}

void MainWindow::selectBody(int body) {
  m_viewport->setSelectedBody(body);
  m_tree->selectBody(body);
  m_properties->setBody(body);
}

void MainWindow::moveBody(int body, const Mat3& rotation, const Vec3& translation, bool snap,
                          bool finished) {
  const ModelSpec& spec = m_document->spec();
  if (!m_model || m_rigid || m_structure || !m_display || body < 0 ||
      body >= static_cast<int>(spec.bodies.size()))
    return;
  if (m_poses.size() != spec.bodies.size()) m_display->bodyPoses(m_playback->q(), m_poses);
  if (m_poses.size() != spec.bodies.size()) return;
  const BodySpec& b = spec.bodies[body];
  // the joint frame in base coordinates: parent pose times the placement (the spec's rotation
  // maps parent to joint coordinates; its translation is the joint origin in the parent)
  const Mat3 Rp = b.parent < 0 ? Mat3::Identity() : m_poses[b.parent].rotation;
  const Vec3 pp = b.parent < 0 ? Vec3::Zero() : m_poses[b.parent].position;
  const Mat3 RJ0 = Rp * b.rotation.transpose();
  const Vec3 oJ0 = pp + Rp * b.translation;
  // moved: the new placement in the parent
  Mat3 E = (Rp.transpose() * rotation * RJ0).transpose();
  Vec3 r = Rp.transpose() * (rotation * oJ0 + translation - pp);
  if (snap) {
    r = (r / 0.01).array().round() * 0.01;
    // roll-pitch-yaw of the frame in its parent (the spec stores the inverse), each to 15 degrees
    const double step = M_PI / 12;
    const Vec3 rpy = (rpyAngles(E.transpose()) / step).array().round() * step;
    E = rpyRotation(rpy).transpose();
  }
  if (!finished) {
    // show it: the body and its subtree move rigidly with the joint frame
    const Mat3 dR = Rp * E.transpose() * RJ0.transpose();
    const Vec3 oJ1 = pp + Rp * r;
    std::vector<BodyPose> shown = m_poses;
    for (int k : subtree(spec, body)) {
      shown[k].rotation = dR * m_poses[k].rotation;
      shown[k].position = dR * (m_poses[k].position - oJ0) + oJ1;
    }
    m_viewport->setBodyPoses(shown);
    return;
  }
  const QString name = QString::fromStdString(b.name);
  const QString error = m_document->edit(tr("Move '%1'").arg(name), [body, E, r](ModelSpec& s) {
    s.bodies[body].rotation = E;
    s.bodies[body].translation = r;
  });
  if (!error.isEmpty()) statusBar()->showMessage(tr("Could not move '%1': %2").arg(name, error));
  selectBody(body);
}

void MainWindow::turnJoint(int body, double delta, bool finished) {
  const ModelSpec& spec = m_document->spec();
  if (!m_model || m_rigid || m_structure || !m_display || body < 0 ||
      body >= static_cast<int>(spec.bodies.size()) || spec.bodies[body].joint.type == JointType::Free)
    return;
  if (!finished) {
    Eigen::VectorXd q = m_playback->q();
    const Model model = compile(spec);
    if (q.size() != model.nq()) return;
    q(model.qIndex[body]) = spec.bodies[body].q0 + delta;
    m_display->bodyPoses(q, m_poses);
    m_viewport->setBodyPoses(m_poses);
    return;
  }
  if (delta == 0) {  // a click: show the state again
    showFrame();
    return;
  }
  const QString name = QString::fromStdString(spec.bodies[body].name);
  const double q0 = spec.bodies[body].q0 + delta;
  const QString error = m_document->edit(tr("Set initial state of '%1'").arg(name),
                                         [body, q0](ModelSpec& s) { s.bodies[body].q0 = q0; });
  if (!error.isEmpty()) {
    statusBar()->showMessage(tr("Could not turn '%1': %2").arg(name, error));
    showFrame();
    return;
  }
  if (m_playback->live() && !m_playback->playing()) m_playback->restart();
  selectBody(body);
}

int MainWindow::addBodyAt(const Pick& pick) {
  if (!m_model || m_rigid || m_structure) {
    statusBar()->showMessage(tr("Add Body builds kinematic trees: open or start one (File > New)"));
    return -1;
  }
  if (!pick.hit) {
    statusBar()->showMessage(tr("Add Body: click on a body or the floor to attach the link"));
    return -1;
  }
  const LinkOptions options = m_linkOptions->options();
  const Vec3 axis = m_linkOptions->axisFor(m_document->spec(), pick.body, pick.normal);
  const QString name = QString::fromStdString(freeBodyName(m_document->spec(), "link"));
  int added = -1;
  const QString error = m_document->edit(
      tr("Add body '%1'").arg(name),
      [&](ModelSpec& s) { added = addBody(s, makeLink(s, pick.body, pick.point, axis, options)); },
      ModelDocument::Change::Structure);
  if (!error.isEmpty()) {
    statusBar()->showMessage(tr("Could not add a body: %1").arg(error));
    return -1;
  }
  selectBody(added);
  statusBar()->showMessage(tr("Added '%1'").arg(name));
  return added;
}

void MainWindow::createShortcuts() {
  // showmotion's playback keys, active wherever the focus is in the window
  const auto key = [this](const QKeySequence& seq, auto slot) {
    auto* a = new QAction(this);
    a->setShortcut(seq);
    a->setShortcutContext(Qt::WindowShortcut);
    connect(a, &QAction::triggered, this, slot);
    addAction(a);
    return a;
  };
  Playback* p = m_playback;
  key(Qt::Key_Space, [p] { p->togglePlay(); });
  key(Qt::Key_0, [p] { p->stopRewind(); });
  key(Qt::Key_R, [p] { p->toggleRepeating(); });
  key(Qt::Key_Comma, [p] { p->slower(); });
  key(Qt::Key_Period, [p] { p->faster(); });
  key(Qt::Key_Slash, [p] { p->toggleReversed(); });
  key(Qt::Key_1, [p] { p->setSpeedOne(); });
  key(Qt::Key_M, [p] { p->jog(1); });
  key(Qt::Key_N, [p] { p->jog(-1); });
  key(Qt::SHIFT | Qt::Key_M, [p] { p->jog(10); });
  key(Qt::SHIFT | Qt::Key_N, [p] { p->jog(-10); });
  key(Qt::CTRL | Qt::Key_M, [p] { p->jog(100); });
  key(Qt::CTRL | Qt::Key_N, [p] { p->jog(-100); });
  key(Qt::Key_P, [this] {
    for (QToolBar* bar : findChildren<QToolBar*>())
      if (bar->objectName() == "playbackBar") bar->setVisible(!bar->isVisible());
  });
  key(Qt::Key_H, [this] { showKeys(); });
  key(Qt::Key_Question, [this] { showKeys(); });
}

void MainWindow::showKeys() {
  QMessageBox::information(
      this, tr("Keys"),
      tr("<table>"
         "<tr><td><b>Space</b></td><td>play / pause (a model without a motion simulates)</td></tr>"
         "<tr><td><b>0</b></td><td>stop and rewind (to the start; at the start, to the end)</td></tr>"
         "<tr><td><b>r</b></td><td>auto-repeat</td></tr>"
         "<tr><td><b>/</b></td><td>reverse</td></tr>"
         "<tr><td><b>, .</b></td><td>slower, faster (0.001 to 20); <b>1</b> normal speed</td></tr>"
         "<tr><td><b>n m</b></td><td>jog back, forward 1 step (N M: 10, Ctrl+N Ctrl+M: 100)</td></tr>"
         "<tr><td><b>p</b></td><td>show / hide the playback bar</td></tr>"
         "<tr><td><b>arrows</b></td><td>pan; Shift: rotate 3&deg;; Ctrl+left/right: spin 2&deg;</td></tr>"
         "<tr><td><b>z Z</b></td><td>zoom out, in</td></tr>"
         "<tr><td><b>i</b></td><td>reset the view</td></tr>"
         "<tr><td><b>l L o O</b></td><td>headlight, overhead light dimmer / brighter</td></tr>"
         "<tr><td><b>h ?</b></td><td>this help</td></tr></table>"));
}

std::unique_ptr<System> MainWindow::makeSystem() const {
  return gui::makeSystem(m_model->spec, m_rigid, m_structure);
}

void MainWindow::startTimeline() {
  // one system simulates on the simulator's thread; this one only names and poses for the GUI
  m_display = makeSystem();
  std::vector<std::string> positions, velocities, constraints;
  for (int i = 0; i < m_display->positionSize(); ++i) positions.push_back(m_display->positionName(i));
  for (int i = 0; i < m_display->velocitySize(); ++i) velocities.push_back(m_display->velocityName(i));
  for (int i = 0; i < m_display->constraintSize(); ++i)
    constraints.push_back("lambda[" + std::to_string(i) + "] " + m_display->constraintName(i));
  m_plots->setQuantities(positions, velocities, constraints);
  if (m_model->motion) {
    Recording r = Recording::fromMotion(*m_model->motion);
    r.setQuaternionBlocks(m_display->quaternionBlocks());
    m_playback->setAnimation(std::move(r));
  } else {
    m_playback->setSimulation(makeSystem());
  }
  m_plots->setRecording(&m_playback->recording());
  updateIntegratorMenu();
}

void MainWindow::computeState(const Eigen::VectorXd& q, const Eigen::VectorXd& qd) {
  m_display->bodyPoses(q, m_poses);
  // playback and scrubbing too: the segments come from the shown state, not the simulation's
  static const Eigen::VectorXd none;  // velocities unknown: the elastic tension alone
  m_display->segments(q, qd.size() == m_display->velocitySize() ? qd : none, m_segments);
}

void MainWindow::showState(const Eigen::VectorXd& q, const Eigen::VectorXd& qd) {
  computeState(q, qd);
  m_viewport->setSegments(m_segments);
  m_viewport->setBodyPoses(m_poses);
}

void MainWindow::showFrame() {
  showState(m_playback->q(), m_playback->qd());
  m_plots->setCursor(m_playback->time());
  if (m_playback->simulating()) m_plots->setRecording(&m_playback->recording());  // it grew (redraws at most 5 times a second)
  if (!m_rigid && !m_structure) m_joints->setPose(m_playback->q());
}

void MainWindow::simulationProblem(const QString& message) {
  m_lastError = message;
  statusBar()->showMessage(message);
}

void MainWindow::updateIntegratorMenu() {
  if (!m_integratorMenu) return;
  const QString current = m_model ? integratorName(m_model->spec.simulation.integrator) : "";
  const bool tree = simulatesTree();
  for (QAction* a : m_integratorMenu->actions()) {
    if (a == m_energyProjection) continue;
    a->setChecked(a->data().toString() == current);
    a->setEnabled(tree);
  }
  m_energyProjection->setChecked(m_model && m_model->spec.simulation.energyProjection);
  m_energyProjection->setEnabled(tree);
}

bool MainWindow::simulatesTree() const {
  return m_model && !m_model->motion && !m_rigid && !m_structure;
}

void MainWindow::setEnergyProjection(bool on) {
  if (!simulatesTree()) return;
  if (m_model->spec.simulation.energyProjection == on) return;
  const QString error = m_document->edit(
      on ? tr("Turn energy projection on") : tr("Turn energy projection off"),
      [on](ModelSpec& s) { s.simulation.energyProjection = on; });
  if (!error.isEmpty()) showError(tr("Could not change the energy projection."), error);
}

void MainWindow::chooseIntegrator(const QString& name) {
  if (!simulatesTree()) return;
  Integrator chosen = Integrator::RK4;
  if (!parseIntegrator(name.toStdString(), chosen)) return;
  if (m_model->spec.simulation.integrator == chosen) return;
  const QString error = m_document->edit(tr("Set integrator to %1").arg(name),
                                         [chosen](ModelSpec& s) { s.simulation.integrator = chosen; });
  if (!error.isEmpty()) showError(tr("Could not change the integrator."), error);
}

void MainWindow::chooseStep() {
  if (!simulatesTree()) return;
  bool ok = false;
  const double dt = QInputDialog::getDouble(this, tr("Time Step"), tr("Step (s):"),
                                            m_model->spec.simulation.dt, 1e-7, 1.0, 7, &ok, {},
                                            1e-4);
  if (!ok) return;
  const QString error = m_document->edit(tr("Set time step to %1 s").arg(dt),
                                         [dt](ModelSpec& s) { s.simulation.dt = dt; });
  if (!error.isEmpty()) showError(tr("Could not change the time step."), error);
}

bool MainWindow::saveRecordingTo(const QString& path) {
  if (!m_model || m_playback->recording().empty()) return false;
  try {
    Motion motion = m_playback->recording().toMotion();
    if (m_model->motion) {
      motion.title = m_model->motion->title;
      motion.author = m_model->motion->author;
      motion.description = m_model->motion->description;
    }
    motion.date = QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString();
    saveRecording(localPath(path), m_model->spec, motion);
  } catch (const std::exception& e) {
    showError(tr("Could not save '%1'.").arg(QFileInfo(path).fileName()),
              QString::fromStdString(e.what()));
    return false;
  }
  statusBar()->showMessage(tr("Saved the recording to %1").arg(QDir::toNativeSeparators(path)));
  return true;
}

void MainWindow::saveRecordingDialog() {
  if (!m_model || m_playback->recording().empty()) return;
  const QString suggestion = QString::fromStdString(m_model->spec.name) + "-recording.json";
  const QString path = QFileDialog::getSaveFileName(this, tr("Save Recording"), suggestion,
                                                    tr("Articulate recordings (*.json)"));
  if (!path.isEmpty()) saveRecordingTo(path);
}

bool MainWindow::exportImage(const QString& path, int width, int height) {
  if (!m_model) return false;
  try {
    OffscreenView view(m_model->spec, width > 0 ? width : m_viewport->width(),
                       height > 0 ? height : m_viewport->height());
    view.setViewState(m_viewport->viewState());
    const bool timeline = m_playback->hasTimeline();
    computeState(timeline ? m_playback->q() : m_display->positions(),
                 timeline ? m_playback->qd() : m_display->velocities());
    view.setSegments(m_segments);
    view.setBodyPoses(m_poses);
    view.savePng(path);
  } catch (const std::exception& e) {
    showError(tr("Could not export '%1'.").arg(QFileInfo(path).fileName()),
              QString::fromStdString(e.what()));
    return false;
  }
  statusBar()->showMessage(tr("Exported %1").arg(QDir::toNativeSeparators(path)));
  return true;
}

void MainWindow::exportImageDialog() {
  if (!m_model) return;
  const QString path = QFileDialog::getSaveFileName(
      this, tr("Export Image"), QString::fromStdString(m_model->spec.name) + ".png",
      tr("PNG images (*.png)"));
  if (!path.isEmpty()) exportImage(path);
}

bool MainWindow::exportAnimation(const ExportOptions& options) {
  if (!m_model) return false;
  m_playback->pause();
  QProgressDialog progress(tr("Exporting %1 frames...").arg(exportFrameCount(options)),
                           tr("Cancel"), 0, exportFrameCount(options), this);
  progress.setWindowModality(Qt::WindowModal);
  progress.setMinimumDuration(500);
  const QString error = exportFrames(m_model->spec, m_playback->recording(), *m_display,
                                     m_viewport->viewState(), options, [&](int done, int) {
                                       progress.setValue(done);
                                       return !progress.wasCanceled();
                                     });
  progress.reset();
  if (error == "cancelled") {
    statusBar()->showMessage(tr("Export cancelled"));
    return false;
  }
  if (!error.isEmpty()) {
    showError(tr("Could not export '%1'.").arg(QFileInfo(options.path).fileName()), error);
    return false;
  }
  statusBar()->showMessage(tr("Exported %1 frames to %2")
                               .arg(exportFrameCount(options))
                               .arg(QDir::toNativeSeparators(options.path)));
  return true;
}

void MainWindow::exportAnimationDialog(bool video) {
  if (!m_model || m_playback->recording().empty()) return;
  const bool ffmpeg = !ffmpegProgram().isEmpty();
  QDialog dialog(this);
  dialog.setWindowTitle(video ? tr("Export Video") : tr("Export Image Sequence"));
  auto* form = new QFormLayout(&dialog);
  auto* width = new QSpinBox(&dialog);
  width->setRange(16, 7680);
  width->setSingleStep(2);
  width->setValue(1280);
  auto* height = new QSpinBox(&dialog);
  height->setRange(16, 4320);
  height->setSingleStep(2);
  height->setValue(720);
  auto* fps = new QDoubleSpinBox(&dialog);
  fps->setRange(1, 240);
  fps->setValue(30);
  auto* speed = new QDoubleSpinBox(&dialog);
  speed->setDecimals(3);
  speed->setRange(0.001, 20);
  speed->setValue(m_playback->speed());
  const int dec = 4;
  auto* start = new QDoubleSpinBox(&dialog);
  auto* end = new QDoubleSpinBox(&dialog);
  for (QDoubleSpinBox* b : {start, end}) {
    b->setDecimals(dec);
    b->setRange(m_playback->startTime(), m_playback->endTime());
    b->setSuffix(" s");
  }
  start->setValue(m_playback->startTime());
  end->setValue(m_playback->endTime());
  form->addRow(tr("Width (px):"), width);
  form->addRow(tr("Height (px):"), height);
  form->addRow(tr("Frames per second:"), fps);
  form->addRow(tr("Speed (simulated s per s):"), speed);
  form->addRow(tr("From:"), start);
  form->addRow(tr("To:"), end);
  if (video)
    form->addRow(new QLabel(ffmpeg ? tr("Written with ffmpeg (.mp4, .mkv, ...) or as Ogg Theora (.ogv)")
                                   : tr("ffmpeg is not installed: the video is Ogg Theora (.ogv)"),
                            &dialog));
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
  connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
  form->addRow(buttons);
  if (dialog.exec() != QDialog::Accepted) return;
  const QString name = QString::fromStdString(m_model->spec.name);
  const QString path =
      video ? QFileDialog::getSaveFileName(this, tr("Export Video"), name + (ffmpeg ? ".mp4" : ".ogv"),
                                           ffmpeg ? tr("Videos (*.mp4 *.mkv *.webm *.ogv)")
                                                  : tr("Ogg Theora videos (*.ogv)"))
            : QFileDialog::getSaveFileName(this, tr("Export Image Sequence (first file)"),
                                           name + ".png", tr("PNG images (*.png)"));
  if (path.isEmpty()) return;
  ExportOptions o;
  o.kind = video ? ExportOptions::Kind::Video : ExportOptions::Kind::Images;
  o.path = path;
  o.width = width->value() & ~1;
  o.height = height->value() & ~1;
  o.fps = fps->value();
  o.speed = speed->value();
  o.start = start->value();
  o.end = end->value();
  exportAnimation(o);
}

bool MainWindow::exportModel(const QString& path) {
  if (!m_model || m_rigid || m_structure) {
    showError(tr("Could not export '%1'.").arg(QFileInfo(path).fileName()),
              tr("Only kinematic trees have a spatial_v2 or URDF form."));
    return false;
  }
  std::vector<std::string> notes;
  try {
    if (isUrdfPath(localPath(path)))
      notes = saveUrdf(localPath(path), m_model->spec);
    else
      saveSpatialV2(localPath(path), m_model->spec);
  } catch (const std::exception& e) {
    showError(tr("Could not export '%1'.").arg(QFileInfo(path).fileName()),
              QString::fromStdString(e.what()));
    return false;
  }
  QString message = tr("Exported %1").arg(QDir::toNativeSeparators(path));
  for (const std::string& note : notes) message += "; " + QString::fromStdString(note);
  statusBar()->showMessage(message);
  return true;
}

void MainWindow::exportModelDialog(bool urdf) {
  if (!m_model) return;
  const QString name = m_path.isEmpty() ? QString::fromStdString(m_model->spec.name)
                                        : QFileInfo(m_path).dir().filePath(QFileInfo(m_path).completeBaseName());
  const QString path = QFileDialog::getSaveFileName(
      this, urdf ? tr("Export URDF") : tr("Export spatial_v2 JSON"),
      name + (urdf ? ".urdf" : "-spatial_v2.json"),
      urdf ? tr("URDF files (*.urdf)") : tr("spatial_v2 models (*.json)"));
  if (!path.isEmpty()) exportModel(path);
}

void MainWindow::createMenus() {
  // file
  QMenu* file = menuBar()->addMenu(tr("&File"));
  QAction* newAction = file->addAction(tr("&New"), this, [this] {
    if (maybeSave()) newModel();
  });
  newAction->setShortcut(QKeySequence::New);
  QAction* open = file->addAction(tr("&Open..."), this, &MainWindow::openDialog);
  open->setShortcut(QKeySequence::Open);
  m_recentMenu = file->addMenu(tr("Open &Recent"));
  connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::updateRecentMenu);
  updateRecentMenu();
  file->addSeparator();
  m_saveAction = file->addAction(tr("&Save"), this, &MainWindow::save);
  m_saveAction->setShortcut(QKeySequence(tr("Ctrl+S")));
  m_saveAsAction = file->addAction(tr("Save &As..."), this, &MainWindow::saveAs);
  m_saveAsAction->setShortcut(QKeySequence(tr("Ctrl+Shift+S")));
  file->addAction(tr("Save &Recording..."), this, &MainWindow::saveRecordingDialog);
  QMenu* exportMenu = file->addMenu(tr("&Export"));
  exportMenu->addAction(tr("&Image..."), this, &MainWindow::exportImageDialog);
  exportMenu->addAction(tr("Image &Sequence..."), this, [this] { exportAnimationDialog(false); });
  exportMenu->addAction(tr("&Video..."), this, [this] { exportAnimationDialog(true); });
  exportMenu->addSeparator();
  exportMenu->addAction(tr("s&patial_v2 JSON..."), this, [this] { exportModelDialog(false); });
  exportMenu->addAction(tr("&URDF..."), this, [this] { exportModelDialog(true); });
  file->addSeparator();
  QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
  quit->setShortcut(QKeySequence(tr("Ctrl+Q")));
  quit->setMenuRole(QAction::QuitRole);

  // view: the viewport handles the key `i` itself; the menu shows it without a shortcut
  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  QAction* undo = m_document->undoStack()->createUndoAction(this, tr("&Undo"));
  undo->setShortcut(QKeySequence::Undo);
  undo->setObjectName("undoAction");
  QAction* redo = m_document->undoStack()->createRedoAction(this, tr("&Redo"));
  redo->setShortcut(QKeySequence::Redo);
  redo->setObjectName("redoAction");
  edit->addAction(undo);
  edit->addAction(redo);

  QMenu* view = menuBar()->addMenu(tr("&View"));
  view->addAction(tr("&Reset View") + "\tI", m_viewport, &Viewport::resetView);
  view->addSeparator();
  const std::pair<QString, StandardView> views[] = {{tr("&Front"), StandardView::Front},
                                                    {tr("&Side"), StandardView::Side},
                                                    {tr("&Top"), StandardView::Top},
                                                    {tr("&Iso"), StandardView::Iso}};
  int key = 1;
  for (const auto& [name, standard] : views) {
    QAction* a =
        view->addAction(name, this, [this, s = standard] { m_viewport->setStandardView(s); });
    a->setShortcut(QKeySequence(tr("Ctrl+%1").arg(key++)));
  }
  view->addSeparator();
  const auto overlay = [&](const QString& name, bool checked) {
    QAction* a = view->addAction(name);
    a->setCheckable(true);
    a->setChecked(checked);
    connect(a, &QAction::toggled, this, &MainWindow::applyOverlays);
    return a;
  };
  m_bodyFramesAction = overlay(tr("&Body Frames"), m_settings.bodyFrames);
  m_jointAxesAction = overlay(tr("&Joint Axes"), m_settings.jointAxes);
  m_comAction = overlay(tr("&Centres of Mass"), m_settings.centresOfMass);
  view->addSeparator();
  m_saveCameraAction =
      view->addAction(tr("Save &Camera to Model"), this, &MainWindow::saveCameraToModel);
  m_saveCameraAction->setShortcut(QKeySequence(tr("Ctrl+Shift+C")));
  view->addSeparator();
  QMenu* panels = view->addMenu(tr("&Panels"));
  for (QDockWidget* dock : findChildren<QDockWidget*>())
    panels->addAction(dock->toggleViewAction());
  for (QToolBar* bar : findChildren<QToolBar*>()) panels->addAction(bar->toggleViewAction());

  // simulation
  QMenu* sim = menuBar()->addMenu(tr("&Simulation"));
  sim->addAction(tr("&Play / Pause") + "\tSpace", m_playback, &Playback::togglePlay);
  sim->addAction(tr("&Resume from Here"), m_playback, &Playback::resumeFromHere);
  sim->addAction(tr("Re&start"), m_playback, &Playback::restart);
  QAction* unpaced = sim->addAction(tr("As &Fast as Possible"));
  unpaced->setCheckable(true);
  connect(unpaced, &QAction::toggled, m_playback, &Playback::setUnpaced);
  sim->addSeparator();
  m_integratorMenu = sim->addMenu(tr("&Integrator"));
  auto* group = new QActionGroup(this);
  const std::pair<QString, QString> integrators[] = {
      {"rk4", tr("&RK4 (fixed step)")},
      {"euler", tr("Semi-implicit &Euler (symplectic)")},
      {"dopri5", tr("&Dormand-Prince 5(4) (adaptive)")}};
  for (const auto& [id, label] : integrators) {
    QAction* a = m_integratorMenu->addAction(label, this, [this, id = id] { chooseIntegrator(id); });
    a->setData(id);
    a->setCheckable(true);
    group->addAction(a);
  }
  m_integratorMenu->addSeparator();
  m_energyProjection = m_integratorMenu->addAction(tr("Energy &Projection (passive models)"));
  m_energyProjection->setObjectName("energyProjectionAction");
  m_energyProjection->setCheckable(true);
  m_energyProjection->setToolTip(
      tr("RK4 and Dormand-Prince on a model without controllers, external forces or contact "
         "points: rescale the joint velocities after every step so that the total energy keeps "
         "its initial value"));
  m_integratorMenu->setToolTipsVisible(true);
  connect(m_energyProjection, &QAction::triggered, this, &MainWindow::setEnergyProjection);
  sim->addAction(tr("Time &Step..."), this, &MainWindow::chooseStep);

  // help
  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&About Articulate"), this, &MainWindow::about)
      ->setMenuRole(QAction::AboutRole);
  help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt)->setMenuRole(QAction::AboutQtRole);
}

bool MainWindow::openFile(const QString& path) {
  const QString file = QFileInfo(path).absoluteFilePath();
  if (!openDocument(file)) return false;
  rememberFile(file);
  QString opened = tr("Opened %1").arg(QDir::toNativeSeparators(file));
  for (const std::string& note : m_model->notes) opened += "; " + QString::fromStdString(note);
  statusBar()->showMessage(opened);
  return true;
}

AnyDocument readAnyDocument(const std::string& path) {
  AnyDocument doc;
  const nlohmann::json json = isUrdfPath(path) ? nlohmann::json() : readJsonFile(path);
  if (natural::isStructureDocument(json)) {
    Diagnostics problems;
    natural::StructureSpec st = natural::structureFromJson(json, problems);
    if (!problems.empty()) {
      std::string text;
      for (const Diagnostic& d : problems) text += (text.empty() ? "" : "\n") + d.text();
      throw FormatError(path, text);
    }
    StructureSystem check(st);  // builds the structure (its own checks)
    doc.loaded.spec = displayModel(st);
    doc.loaded.format = kModelFormatName;
    doc.structure = std::move(st);
  } else if (LoadedDocument loaded = loadDocument(path); auto* body = std::get_if<RigidBodySpec>(&loaded)) {
    RigidBodySystem check(*body);  // the spec's own checks (ModelError naming the field)
    doc.rigid = *body;
    doc.loaded.spec = displayModel(*body);
    doc.loaded.format = kModelFormatName;
  } else {
    doc.loaded = std::get<LoadedModel>(std::move(loaded));
    if (doc.loaded.motion) Recording::fromMotion(*doc.loaded.motion);  // checks the samples' sizes
  }
  return doc;
}

std::unique_ptr<System> makeSystem(const ModelSpec& spec, const std::optional<RigidBodySpec>& rigid,
                                   const std::optional<natural::StructureSpec>& structure) {
  if (rigid) return std::make_unique<RigidBodySystem>(*rigid);
  if (structure) return std::make_unique<StructureSystem>(*structure);
  auto model = std::make_shared<const Model>(compile(spec));
  return std::make_unique<TreeSystem>(model, simulationOptions(spec));
}

bool MainWindow::openDocument(const QString& file) {
  AnyDocument doc;
  Eigen::VectorXd q;
  try {
    doc = readAnyDocument(localPath(file));
    q = doc.rigid || doc.structure ? compile(doc.loaded.spec).q0 : poseAtTime(doc.loaded, 0.0);
  } catch (const std::exception& e) {
    showError(tr("Could not open '%1'.").arg(QFileInfo(file).fileName()),
              QString::fromStdString(e.what()));
    return false;
  }
  return showModel(std::move(doc.loaded), std::move(doc.rigid), std::move(doc.structure), q, file);
}

void MainWindow::newModel() {
  LoadedModel loaded;
  loaded.format = kModelFormatName;
  loaded.spec.name = "untitled";
  // a floor, and a grey post 1 m high to hang the first link from (a click on its side
  // attaches a link turning about the side's normal: a pendulum under gravity)
  loaded.spec.baseAppearance = nlohmann::json::parse(
      R"(["tiles", [[-1, 1], [-1, 1], [0, 0]], 0.25, "colour", [0.55, 0.55, 0.6],
          "box", [[-0.05, -0.05, 0], [0.05, 0.05, 1]]])");
  const Eigen::VectorXd q = compile(loaded.spec).q0;
  if (!showModel(std::move(loaded), std::nullopt, std::nullopt, q, QString())) return;
  statusBar()->showMessage(tr("New model: choose Add Body and click the floor to attach a link"));
}

bool MainWindow::showModel(LoadedModel loaded, std::optional<RigidBodySpec> rigid,
                           std::optional<natural::StructureSpec> structure,
                           const Eigen::VectorXd& q, const QString& file) {
  try {
    m_viewport->setSelectedBody(-1);  // a new model: nothing selected
    m_viewport->setModel(loaded.spec, q);
  } catch (const std::exception& e) {
    if (m_model) m_viewport->setModel(m_model->spec, poseAtTime(*m_model, 0.0));
    showError(tr("Could not show '%1'.").arg(file.isEmpty() ? tr("the model") : QFileInfo(file).fileName()),
              QString::fromStdString(e.what()));
    return false;
  }
  m_model = std::move(loaded);
  m_rigid = std::move(rigid);
  m_structure = std::move(structure);
  // rigid bodies and structures are edited in their files, not as trees
  m_tree->setEnabled(!m_rigid && !m_structure);
  m_joints->setUnavailable(m_rigid || m_structure
                               ? tr("Rigid-body and structure models have no joints to pose.")
                               : QString());
  m_path = file;
  m_setAside.clear();  // they belong to the model that was open
  m_resetting = true;
  m_document->reset(m_model->spec);
  m_resetting = false;
  startTimeline();
  // frame the view on the system's own poses (rigid bodies and structures are not placed by
  // the display model's joints)
  showState(m_display->positions(), m_display->velocities());
  m_viewport->resetView();
  setModified(false);
  if (m_addBodyAction) m_addBodyAction->setEnabled(!m_rigid && !m_structure);
  return true;
}

bool MainWindow::save() {
  if (!m_model) return false;
  if (m_path.isEmpty()) return saveAs();
  if (!isArticulate(*m_model)) {
    QMessageBox box(QMessageBox::Question, tr("Save"),
                    m_model->format == kRecordingFormatName
                        ? tr("'%1' is a recording.").arg(QFileInfo(m_path).fileName())
                    : m_model->format == "urdf"
                        ? tr("'%1' is a URDF file.").arg(QFileInfo(m_path).fileName())
                        : tr("'%1' is a spatial_v2 file.").arg(QFileInfo(m_path).fileName()),
                    QMessageBox::Cancel, this);
    box.setInformativeText(
        tr("Articulate saves models in its own format and does not overwrite "
           "spatial_v2 files, URDF files or recordings with them. Save the model under a new name?"));
    QPushButton* saveAsButton = box.addButton(tr("Save &As..."), QMessageBox::AcceptRole);
    box.setDefaultButton(saveAsButton);
    box.exec();
    return box.clickedButton() == saveAsButton && saveAs();
  }
  return saveTo(m_path);
}

bool MainWindow::saveAs() {
  if (!m_model) return false;
  QString suggestion = m_path;
  if (m_path.isEmpty())
    suggestion = QString::fromStdString(m_model->spec.name) + ".json";
  else if (!isArticulate(*m_model))
    suggestion =
        QFileInfo(m_path).dir().filePath(QFileInfo(m_path).completeBaseName() + "-articulate.json");
  QFileDialog dialog(this, tr("Save Model As"), suggestion, tr("Articulate models (*.json)"));
  dialog.setAcceptMode(QFileDialog::AcceptSave);
  dialog.setDefaultSuffix("json");
  dialog.selectFile(suggestion);
  if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty()) return false;
  return saveTo(dialog.selectedFiles().first());
}

bool MainWindow::saveTo(const QString& path) {
  if (!m_model) return false;
  const QString file = QFileInfo(path).absoluteFilePath();
  if (!isArticulate(*m_model) && file == m_path) {
    const auto answer = QMessageBox::warning(
        this, tr("Save"),
        tr("Replace the spatial_v2 file '%1' with a file in the Articulate format? spatial_v2 "
           "cannot read it.")
            .arg(QFileInfo(file).fileName()),
        QMessageBox::Yes | QMessageBox::No, QMessageBox::No);
    if (answer != QMessageBox::Yes) return false;
  }
  try {
    writeDocument(localPath(file));
  } catch (const std::exception& e) {
    showError(tr("Could not save '%1'.").arg(QFileInfo(file).fileName()),
              QString::fromStdString(e.what()));
    return false;
  }
  m_model->format = kModelFormatName;
  m_path = file;
  m_document->setClean();
  setModified(false);
  rememberFile(file);
  statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(file)));
  return true;
}

void MainWindow::writeDocument(const std::string& path) const {
  if (m_rigid) saveRigidBody(path, *m_rigid);
  else if (m_structure) writeFileAtomically(path, formatJson(natural::structureToJson(*m_structure)));
  else saveModel(path, m_model->spec);
}

bool MainWindow::offerRecovery() {
  const RecoveryStore& store = m_autosaver->store();
  for (const RecoveryEntry& entry : store.orphans()) {
    const QString name = entry.original.isEmpty() ? tr("a new model") : QFileInfo(entry.original).fileName();
    QMessageBox box(QMessageBox::Question, tr("Recover Unsaved Changes"),
                    tr("Articulate ended without saving the changes to %1.").arg(name),
                    QMessageBox::NoButton, this);
    box.setInformativeText(
        tr("They were saved automatically at %1. Recover them, discard them for good, or decide "
           "at the next start?")
            .arg(QLocale().toString(entry.written.toLocalTime(), QLocale::ShortFormat)));
    if (!entry.original.isEmpty()) box.setDetailedText(QDir::toNativeSeparators(entry.original));
    QPushButton* recoverButton = box.addButton(tr("&Recover"), QMessageBox::AcceptRole);
    QPushButton* discardButton = box.addButton(tr("&Discard"), QMessageBox::DestructiveRole);
    QPushButton* laterButton = box.addButton(tr("&Later"), QMessageBox::RejectRole);
    box.setDefaultButton(recoverButton);
    box.setEscapeButton(laterButton);
    box.exec();
    if (box.clickedButton() == discardButton) store.remove(entry.owner);
    else if (box.clickedButton() == recoverButton && recover(entry)) return true;
  }
  return false;
}

bool MainWindow::recover(const RecoveryEntry& entry) {
  if (!openDocument(entry.documentPath)) return false;
  m_path = entry.original;
  if (!entry.format.isEmpty()) m_model->format = entry.format.toStdString();
  m_document->markModified();
  updateTitle();
  // this process owns the changes now: its own recovery file first, then the old one goes
  if (m_autosaver->saveNow()) m_autosaver->store().remove(entry.owner);
  statusBar()->showMessage(
      tr("Recovered the unsaved changes to %1; save them to keep them")
          .arg(entry.original.isEmpty() ? tr("a new model") : QDir::toNativeSeparators(entry.original)));
  return true;
}

void MainWindow::showTime(double t) { m_playback->setTime(t); }

void MainWindow::saveCameraToModel() {
  if (!m_model) return;
  if (m_rigid || m_structure) {
    statusBar()->showMessage(tr("Rigid-body and structure models have no camera to save"));
    return;
  }
  const CameraSpec camera = m_viewport->currentCamera();
  m_cameraEdit = true;  // the view already shows this camera: keep it
  m_document->edit(tr("Save camera to model"), [camera](ModelSpec& s) { s.camera = camera; });
  m_cameraEdit = false;
  statusBar()->showMessage(tr("Camera saved to the model; save the file to keep it"));
}

QString MainWindow::statusText() const { return statusBar()->currentMessage(); }

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!maybeSave()) {
    event->ignore();
    return;
  }
  m_settings.recentFiles = Settings::load().recentFiles;
  m_settings.geometry = saveGeometry();
  m_settings.state = saveState();
  m_settings.save();
  m_autosaver->discard();  // a clean exit: saved, or the changes were discarded
  event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (!droppedModel(event->mimeData()).isEmpty()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  const QString path = droppedModel(event->mimeData());
  if (path.isEmpty()) return;
  event->acceptProposedAction();
  // open after the drop has finished: a dialog inside the drag-and-drop loop can hang it
  QTimer::singleShot(0, this, [this, path] { openFromUser(path); });
}

void MainWindow::openDialog() {
  if (!maybeSave()) return;
  const QString dir = m_path.isEmpty() ? QString() : QFileInfo(m_path).absolutePath();
  const QString path = QFileDialog::getOpenFileName(this, tr("Open Model"), dir,
                                                    tr("Model files (*.json *.urdf);;All files (*)"));
  if (!path.isEmpty()) openFile(path);
}

void MainWindow::openFromUser(const QString& path) {
  if (!maybeSave()) return;
  if (!QFileInfo::exists(path)) {
    m_settings.removeRecentFile(path);
    m_settings.save();
    updateRecentMenu();
    showError(tr("Could not open '%1'.").arg(QFileInfo(path).fileName()),
              tr("The file no longer exists: %1").arg(QDir::toNativeSeparators(path)));
    return;
  }
  openFile(path);
}

void MainWindow::updateRecentMenu() {
  if (m_settings.pruneRecentFiles()) m_settings.save();
  m_recentMenu->clear();
  for (int i = 0; i < m_settings.recentFiles.size(); ++i) {
    const QString& path = m_settings.recentFiles[i];
    const QString number = i < 9 ? QString("&%1").arg(i + 1) : QString("1&0");
    QString name = QFileInfo(path).fileName();
    QAction* a = m_recentMenu->addAction(number + " " + name.replace("&", "&&"), this,
                                         [this, path] { openFromUser(path); });
    a->setStatusTip(QDir::toNativeSeparators(path));
    a->setToolTip(QDir::toNativeSeparators(path));
  }
  m_recentMenu->setEnabled(!m_settings.recentFiles.isEmpty());
  if (m_settings.recentFiles.isEmpty()) return;
  m_recentMenu->addSeparator();
  m_recentMenu->addAction(tr("&Clear List"), this, [this] {
    m_settings.recentFiles.clear();
    m_settings.save();
    updateRecentMenu();
  });
}

void MainWindow::rememberFile(const QString& path) {
  // start from the stored list, so that several windows do not lose each other's files
  m_settings.recentFiles = Settings::load().recentFiles;
  m_settings.addRecentFile(path);
  m_settings.save();
  updateRecentMenu();
}

void MainWindow::applyOverlays() {
  Overlays overlays;
  overlays.bodyFrames = m_bodyFramesAction->isChecked();
  overlays.jointAxes = m_jointAxesAction->isChecked();
  overlays.centresOfMass = m_comAction->isChecked();
  m_viewport->setOverlays(overlays);
  if (m_settings.bodyFrames == overlays.bodyFrames && m_settings.jointAxes == overlays.jointAxes &&
      m_settings.centresOfMass == overlays.centresOfMass)
    return;
  m_settings.bodyFrames = overlays.bodyFrames;
  m_settings.jointAxes = overlays.jointAxes;
  m_settings.centresOfMass = overlays.centresOfMass;
  m_settings.save();
}

void MainWindow::showPick(const Pick& pick) {
  if (m_addBodyAction && m_addBodyAction->isChecked()) {
    addBodyAt(pick);
    return;
  }
  m_tree->selectBody(pick.body);
  m_properties->setBody(m_rigid || m_structure ? -2 : pick.body);
  const int nb = m_model ? static_cast<int>(m_model->spec.bodies.size()) : 0;
  if (pick.body < 0 || pick.body >= nb) {
    statusBar()->showMessage(tr("base"));
    return;
  }
  const auto coordinate = [&](int i) { return QString::number(pick.point[i], 'f', 3); };
  statusBar()->showMessage(
      tr("body '%1': point [%2, %3, %4] m (body coordinates)")
          .arg(QString::fromStdString(
                   m_model->spec.bodies[static_cast<std::size_t>(pick.body)].name),
               coordinate(0), coordinate(1), coordinate(2)));
}

void MainWindow::about() {
  QMessageBox::about(
      this, tr("About Articulate"),
      tr("<h3>Articulate %1</h3>"
         "<p>Build, simulate and play back articulated mechanisms.</p>"
         "<p>Algorithms after Roy Featherstone's spatial_v2.</p>"
         "<p>Built with Qt %2.</p>")
          .arg(QCoreApplication::applicationVersion().toHtmlEscaped(), QString(qVersion())));
}

void MainWindow::documentChanged(ModelDocument::Change change) {
  if (!m_model || m_resetting) return;
  // only the camera changed: the view takes it, the simulation goes on (gravity, contacts and
  // everything else restart it below)
  const auto withoutCamera = [](const ModelSpec& spec) {
    nlohmann::ordered_json j = specToJson(spec);
    j.erase("camera");
    return j;
  };
  const bool cameraOnly = change == ModelDocument::Change::Values &&
                          withoutCamera(m_model->spec) == withoutCamera(m_document->spec());
  const std::string previousSpec = cameraOnly ? std::string() : specToJson(m_model->spec).dump();
  m_model->spec = m_document->spec();
  if (cameraOnly) {
    if (!m_cameraEdit) {
      m_viewport->setModel(m_model->spec, m_playback->q());
      m_viewport->resetView();  // the model's new camera
    }
    return;
  }
  // The model changed under the timeline. A value edit of a simulated model carries the
  // recording over: the history up to the playhead stays and the simulation goes on from its
  // state there. A timeline that no longer fits (other state sizes, a structural edit, or a
  // recorded motion of another size) is set aside, so that undoing the edit brings it back.
  const Eigen::VectorXd q = m_playback->q(), qd = m_playback->qd();
  const double t = m_playback->time();
  const bool live = m_playback->live(), playing = m_playback->playing();
  Recording history = m_playback->releaseRecording();
  try {
    const Model edited = compile(m_model->spec);
    if (m_model->motion && Recording::fromMotion(*m_model->motion).positionSize() != edited.nq()) {
      // the motion cannot pose the edited model: it is set aside, and the model simulates
      m_setAside.push_back({previousSpec, std::move(history), std::move(m_model->motion), t});
      m_model->motion.reset();
      statusBar()->showMessage(tr("The recorded motion does not fit the edited model: it is set "
                                  "aside (Undo brings it back), and the model simulates"));
    }
    m_viewport->setModel(m_model->spec, edited.q0);
    startTimeline();
  } catch (const std::exception& e) {
    showError(tr("Could not apply the change."), QString::fromStdString(e.what()));
    return;
  }
  // back to a model whose timeline an earlier edit set aside (an undo, a redo): it returns, and
  // the timeline it replaces is set aside in turn
  const std::string key = specToJson(m_model->spec).dump();
  if (std::any_of(m_setAside.begin(), m_setAside.end(), [&](const SetAside& a) { return a.spec == key; })) {
    if (live && !history.empty()) m_setAside.push_back({previousSpec, std::move(history), std::nullopt, t});
    restoreSetAside(key);
    if (m_setAside.size() > kSetAsideLimit) m_setAside.pop_front();
    return;
  }
  if (m_setAside.size() > kSetAsideLimit) m_setAside.pop_front();
  if (!live || history.empty()) return;
  const bool sameSizes = history.positionSize() == m_display->positionSize() &&
                         history.velocitySize() == m_display->velocitySize() &&
                         history.constraintSize() == m_display->constraintSize();
  if (change == ModelDocument::Change::Values && sameSizes) {
    m_playback->continueFrom(std::move(history), t, q, qd);
    if (playing) m_playback->play();
    statusBar()->showMessage(tr("The model changed: simulating on from t = %1 s").arg(t));
    return;
  }
  m_setAside.push_back({previousSpec, std::move(history), std::nullopt, t});
  if (m_setAside.size() > kSetAsideLimit) m_setAside.pop_front();
  if (sameSizes) {
    m_playback->restartFrom(t, q, qd);
    if (playing) m_playback->play();
    statusBar()->showMessage(tr("The model changed: simulating on from t = %1 s; the recording "
                                "before it is set aside (Undo brings it back)").arg(t));
  } else {
    statusBar()->showMessage(tr("The model changed size: simulating from the initial state; the "
                                "recording is set aside (Undo brings it back)"));
  }
}

bool MainWindow::restoreSetAside(const std::string& key) {
  for (auto it = m_setAside.rbegin(); it != m_setAside.rend(); ++it) {
    if (it->spec != key) continue;
    SetAside entry = std::move(*it);
    m_setAside.erase(std::next(it).base());
    if (entry.motion) {
      m_model->motion = std::move(entry.motion);
      startTimeline();
      m_playback->setTime(entry.time);
      statusBar()->showMessage(tr("The recorded motion is back"));
      return true;
    }
    if (entry.recording.positionSize() != m_display->positionSize() ||
        entry.recording.velocitySize() != m_display->velocitySize() ||
        entry.recording.constraintSize() != m_display->constraintSize())
      return false;
    m_playback->restoreRecording(std::move(entry.recording), entry.time);
    statusBar()->showMessage(tr("The recording is back (%1 s)").arg(m_playback->endTime()));
    return true;
  }
  return false;
}

void MainWindow::autosaveFailed(const QString& why) {
  statusBar()->showMessage(why);
  // a dialog, once per run of failures (the next autosave that works ends the run): the status
  // bar alone is easily missed, and unsaved work is at stake
  if (m_autosaveWarned) return;
  m_autosaveWarned = true;
  auto* box = new QMessageBox(QMessageBox::Warning, tr("Articulate"),
                              tr("Your unsaved changes could not be autosaved."),
                              QMessageBox::Ok, this);
  box->setObjectName("autosaveFailedBox");
  box->setInformativeText(why + "\n\n" +
                          tr("Articulate keeps trying every minute. Save the model (File > Save) "
                             "to keep your changes safe."));
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->setModal(false);
  box->show();
}

void MainWindow::setModified(bool modified) {
  setWindowModified(modified);
  m_autosaver->setModified(modified);
  updateTitle();
}

void MainWindow::updateTitle() {
  m_saveAction->setEnabled(m_model.has_value());
  m_saveAsAction->setEnabled(m_model.has_value());
  m_saveCameraAction->setEnabled(m_model.has_value());
  if (!m_model) {
    setWindowTitle(tr("Articulate"));
    return;
  }
  const QString name = m_model->spec.name.empty() ? QFileInfo(m_path).fileName()
                                                  : QString::fromStdString(m_model->spec.name);
  setWindowTitle(tr("Articulate — %1[*]").arg(name));
}

bool MainWindow::maybeSave() {
  if (!m_model || !isWindowModified()) return true;
  const auto answer = QMessageBox::question(
      this, tr("Articulate"),
      tr("'%1' has unsaved changes. Save them before closing the model?")
          .arg(QFileInfo(m_path).fileName()),
      QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
  if (answer == QMessageBox::Save) return save();
  return answer == QMessageBox::Discard;
}

void MainWindow::showError(const QString& title, const QString& details) {
  m_lastError = title + "\n" + details;
  const QStringList lines = details.split('\n', Qt::SkipEmptyParts);
  QString visible = details;
  if (lines.size() > kVisibleProblemLines)
    visible = lines.mid(0, kVisibleProblemLines).join('\n') + "\n" +
              tr("... and %n more (see Show Details)", nullptr,
                 static_cast<int>(lines.size()) - kVisibleProblemLines);
  QMessageBox box(QMessageBox::Warning, tr("Articulate"), title, QMessageBox::Ok, this);
  box.setInformativeText(Qt::convertFromPlainText(visible, Qt::WhiteSpaceNormal));
  if (lines.size() > kVisibleProblemLines) box.setDetailedText(details);
  box.exec();
}

}  // namespace art::gui
