// The main window: layout, tool bars, editing in the viewport, the open document's state.
#include "main_window.h"

#include <algorithm>
#include <cstdio>
#include <utility>

#include <QAction>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDir>
#include <QFileInfo>
#include <QInputDialog>
#include <QMenu>
#include <QMessageBox>
#include <QScrollArea>
#include <QStatusBar>
#include <QTextDocument>
#include <QToolBar>
#include <QToolButton>
#include <QWidgetAction>

#include "articulate/dynamics/collision.h"
#include "articulate/dynamics/contact.h"
#include "articulate/model/edit.h"
#include "articulate/model/model.h"
#include "articulate/simulation/recording.h"
#include "import_report.h"
#include "controls.h"
#include "equalities.h"
#include "joint_sliders.h"
#include "keyframes.h"
#include "link_options.h"
#include "model_tree.h"
#include "playback.h"
#include "plots.h"
#include "properties.h"
#include "recovery.h"
#include "viewport/viewport.h"

namespace art::gui {

namespace {

constexpr int kVisibleProblemLines = 12;  // the rest of a long error is under "Show Details"
// clicked points and dragged placements are rounded to a micrometre: k / kPerMetre with k whole
// (divided by an exact power of ten, the nearest double to the decimal, as a file would hold it)
constexpr double kPerMetre = 1e6;

Vec3 toMicrometre(const Vec3& v) { return (v * kPerMetre).array().round() / kPerMetre; }

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
  // below the model tree, so that the view keeps the window's whole right side
  addDockWidget(Qt::LeftDockWidgetArea, properties);
  splitDockWidget(tree, properties, Qt::Vertical);
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
  addDockWidget(Qt::LeftDockWidgetArea, joints);
  connect(m_joints, &JointSlidersPanel::poseEdited, this, &MainWindow::poseJoints);
  connect(m_playback, &Playback::stateChanged, m_joints,
          [this] { m_joints->setReadOnly(m_playback->playing()); });
  // controls: one slider per actuator, felt by the simulation at once (controls.h)
  auto* controls = new QDockWidget(tr("Controls"), this);
  controls->setObjectName("controlsDock");
  m_controlsPanel = new ControlsPanel(controls);
  controls->setWidget(m_controlsPanel);
  addDockWidget(Qt::LeftDockWidgetArea, controls);
  // an edit acts on the simulation from where it is (the live end); scrubbed back, the panel
  // keeps showing the edit until the playhead moves
  connect(m_controlsPanel, &ControlsPanel::controlsEdited, this, [this](const Eigen::VectorXd& ctrl) {
    m_playback->setControls(ctrl);
    if (m_playback->following() || m_playback->time() >= m_playback->endTime()) showControls();
  });
  // equality constraints switched on and off, recorded with the motion (equalities.h)
  auto* equalityDock = new QDockWidget(tr("Equality"), this);
  equalityDock->setObjectName("equalityDock");
  m_equalityPanel = new EqualityPanel(equalityDock);
  equalityDock->setWidget(m_equalityPanel);
  addDockWidget(Qt::LeftDockWidgetArea, equalityDock);
  connect(m_equalityPanel, &EqualityPanel::equalitiesEdited, this, [this](const std::vector<char>& active) {
    m_playback->setEqualities(active);
    showFrame();  // the anchors' drawing and F2 follow at once
  });
  // keyframes: named states kept in the model (keyframes.h)
  auto* keyframes = new QDockWidget(tr("Keyframes"), this);
  keyframes->setObjectName("keyframesDock");
  m_keyframes = new KeyframesPanel(m_document, keyframes);
  keyframes->setWidget(m_keyframes);
  addDockWidget(Qt::LeftDockWidgetArea, keyframes);
  connect(m_keyframes, &KeyframesPanel::addRequested, this, [this] { addKeyframe(); });
  connect(m_keyframes, &KeyframesPanel::restoreRequested, this, &MainWindow::restoreKeyframe);
  connect(m_keyframes, &KeyframesPanel::exportRequested, this,
          [this](double from, double to) { exportAnimationDialog(true, std::make_pair(from, to)); });
  // what opening or exporting a file left out (import_report.h): a tab beside the plots, closed
  // until there is something to report (its tab bar would take height from the view)
  m_reportDock = new QDockWidget(tr("Import Report"), this);
  m_reportDock->setObjectName("importReportDock");
  m_report = new ImportReportPanel(m_reportDock);
  m_reportDock->setWidget(m_report);
  addDockWidget(Qt::BottomDockWidgetArea, m_reportDock);
  tabifyDockWidget(plots, m_reportDock);
  m_reportDock->hide();
  plots->raise();
  // the Joints and Keyframes docks share the Properties dock's place as tabs: each gets the
  // full height
  tabifyDockWidget(properties, joints);
  tabifyDockWidget(properties, controls);
  tabifyDockWidget(properties, equalityDock);
  tabifyDockWidget(properties, keyframes);
  properties->raise();
  // first-run sizes (a remembered layout replaces them): the view gets most of the window
  resizeDocks({tree}, {330}, Qt::Horizontal);
  resizeDocks({tree, properties}, {220, 380}, Qt::Vertical);
  resizeDocks({plots}, {200}, Qt::Vertical);
}

void MainWindow::showEvent(QShowEvent* event) {
  QMainWindow::showEvent(event);
  if (m_shownOnce) return;
  m_shownOnce = true;
  if (!m_settings.state.isEmpty()) return;  // the remembered layout stays
  // first start: the plots a quarter of the window's height (a readable chart), the left docks
  // wide enough for the Properties dock's rows of three numbers
  auto* plots = findChild<QDockWidget*>("plotsDock");
  auto* tree = findChild<QDockWidget*>("modelDock");
  resizeDocks({plots}, {std::max(230, height() / 4)}, Qt::Vertical);
  resizeDocks({tree}, {std::max(360, width() / 4)}, Qt::Horizontal);
}

QString MainWindow::addKeyframe(const QString& name) {
  if (!m_model || m_rigid || m_structure || !m_display ||
      m_playback->q().size() != m_display->positionSize() ||
      m_playback->qd().size() != m_display->velocitySize())
    return tr("There is no state to keep.");
  // the actuators' controls then in force and their activations, kept with the state
  const double t = m_playback->time();
  Eigen::VectorXd ctrl, act;
  if (const int nu = m_display->actuatorSize()) {
    ctrl = m_playback->live() && (m_playback->following() || t >= m_playback->endTime()) ? m_playback->controls()
                                                                                       : m_playback->controlsAt(t);
    if (ctrl.size() != nu) ctrl = Eigen::VectorXd::Zero(nu);
    const auto* tree = dynamic_cast<const TreeSystem*>(m_display.get());
    const Recording& r = m_playback->recording();
    if (tree && tree->model().na > 0 && !r.empty() && r.auxiliarySize() == m_display->auxiliarySize())
      act = r.auxiliary(r.indexAt(t)).tail(tree->model().na);
  }
  const QString error = m_keyframes->add(t, m_playback->q(), m_playback->qd(), name, ctrl, act);
  if (!error.isEmpty()) {
    statusBar()->showMessage(tr("Could not add the keyframe: %1").arg(error));
    return error;
  }
  const auto& k = m_model->spec.keyframes.back();
  statusBar()->showMessage(tr("Keyframe '%1' at t = %2 s (saved with the model)")
                               .arg(QString::fromStdString(k.name))
                               .arg(k.time, 0, 'f', 3));
  return {};
}

bool MainWindow::restoreKeyframe(int k) {
  if (!m_model || k < 0 || k >= static_cast<int>(m_model->spec.keyframes.size())) return false;
  const KeyframeSpec f = m_model->spec.keyframes[static_cast<std::size_t>(k)];
  if (!m_playback->live()) {  // an animation: its moment
    m_playback->pause();
    m_playback->setTime(f.time);
  } else {
    // its state at the end of the recording, paused: the recording is kept whole, and Play goes
    // on from the keyframe (setting it at its own time would discard what came after)
    m_playback->pause();
    m_playback->setTime(m_playback->endTime());
    const Eigen::VectorXd q = offerToLift(f.q, tr("Keyframe '%1'").arg(QString::fromStdString(f.name)));
    // its activations too: the auxiliary state's tail, after the contact state's reset value
    // (read from the probe, whose state is set afresh for every frame: m_display keeps the
    // model's initial state, which opening and exporting read)
    Eigen::VectorXd w;
    if (const auto* tree = dynamic_cast<const TreeSystem*>(m_probe.get());
        tree && f.act.size() && f.act.size() == tree->model().na && q.size() == m_probe->positionSize() &&
        f.qd.size() == m_probe->velocitySize()) {
      m_probe->setState(m_playback->time(), q, f.qd);
      w.resize(m_probe->auxiliarySize());
      m_probe->auxiliaryState(w);
      w.tail(f.act.size()) = f.act;
    }
    m_playback->setStateHere(q, f.qd, w);
    // and its controls act again
    if (f.ctrl.size() && f.ctrl.size() == m_display->actuatorSize()) m_playback->setControls(f.ctrl);
    showControls();
  }
  statusBar()->showMessage(m_playback->live()
                               ? tr("Restored keyframe '%1' at the end of the recording (t = %2 s): "
                                    "what was recorded stays, and Play goes on from the keyframe")
                                     .arg(QString::fromStdString(f.name))
                                     .arg(m_playback->time(), 0, 'f', 3)
                               : tr("Restored keyframe '%1' (t = %2 s)")
                                     .arg(QString::fromStdString(f.name))
                                     .arg(m_playback->time(), 0, 'f', 3));
  return true;
}

// How far (m, along z) the first root's subtree reaches into the ground at q, and at how many
// places: its ground-contact points below z = 0, or its geoms' contacts with the world's planes
// that are deeper than a millimetre (MuJoCo's default solimp width); depth 0 when none.
static std::pair<double, int> depthInGround(const Model& m, const Eigen::VectorXd& q) {
  const auto inRoot = [&](int b) {  // a body of the first root's subtree (an MJCF scene may hold other free bodies)
    while (b > 0) b = m.parent[b];
    return b == 0;
  };
  Data workspace(m);
  std::vector<double> heights;
  if (!m.contacts.empty()) {
    const std::vector<double> all = groundHeights(m, workspace, q);
    for (std::size_t k = 0; k < all.size(); ++k)
      if (inRoot(m.contacts[k].body)) heights.push_back(all[k]);
  } else if (!m.geoms.empty()) {
    forwardKinematics(m, workspace, q);
    std::vector<Contact> contacts;
    collide(m, workspace, contacts);
    for (const Contact& c : contacts) {
      const GeomSpec &a = m.geoms[static_cast<std::size_t>(c.geom1)], &b = m.geoms[static_cast<std::size_t>(c.geom2)];
      if (a.type == GeomSpec::Type::Plane && a.body < 0 && b.body >= 0 && inRoot(b.body) && c.dist < -1e-3)
        heights.push_back(c.dist);
    }
  }
  if (heights.empty()) return {0.0, 0};
  const double depth = -*std::min_element(heights.begin(), heights.end());
  return {depth, static_cast<int>(std::count_if(heights.begin(), heights.end(), [](double h) { return h < 0; }))};
}

Eigen::VectorXd MainWindow::offerToLift(const Eigen::VectorXd& q, const QString& what) {
  const auto* tree = dynamic_cast<const TreeSystem*>(m_display.get());
  if (!tree || !m_asking) return q;
  const Model& m = tree->model();
  if ((m.contacts.empty() && m.geoms.empty()) || m.nb == 0 || m.parent[0] >= 0 || m.joints[0].type != JointType::Free ||
      q.size() != m.nq())
    return q;
  const auto [depth, inside] = depthInGround(m, q);
  const bool points = !m.contacts.empty();
  if (!(depth > (points ? kGroundElasticStartDepth : 1e-3))) return q;
  QMessageBox box(QMessageBox::Question, tr("Inside the ground"),
                  (points ? tr("%1 puts %2 ground-contact point(s) up to %3 cm inside the ground.")
                          : tr("%1 puts %2 contact(s) of the robot up to %3 cm inside the ground."))
                      .arg(what)
                      .arg(inside)
                      .arg(100 * depth, 0, 'f', 1),
                  QMessageBox::Yes | QMessageBox::No, this);
  box.setInformativeText(points ? tr("Lift the robot by %1 cm so that it stands on the ground? Kept as it is, the "
                                     "ground yields under the feet and lifts them out at %2 m/s. The file is not changed.")
                                      .arg(100 * depth, 0, 'f', 1)
                                      .arg(kGroundRecoverySpeed)
                                : tr("Lift the robot by %1 cm so that it stands on the ground? Kept as it is, the soft "
                                     "contacts push it out from the first step. The file is not changed.")
                                      .arg(100 * depth, 0, 'f', 1));
  box.button(QMessageBox::Yes)->setText(tr("Lift"));
  box.button(QMessageBox::No)->setText(tr("Keep"));
  box.setDefaultButton(QMessageBox::Yes);
  if (box.exec() != QMessageBox::Yes) return q;
  Eigen::VectorXd lifted = q;
  lifted(m.qIndex[0] + 2) += depth;  // the free joint's z
  statusBar()->showMessage(tr("Lifted the robot by %1 cm onto the ground").arg(100 * depth, 0, 'f', 1));
  return lifted;
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
  m_moveAction->setToolTip(tr("Move (G): handles on the selected body's joint frame; drag an "
                              "arrow to move the joint placement along an axis, a ring to turn it "
                              "about one, the ball to move it in the view's plane; Ctrl snaps to "
                              "1 cm and 15 degrees. Drag a body elsewhere to turn it about its "
                              "joint axis (its initial position)"));
  connect(m_viewport, &Viewport::hint, this, [this](const QString& text) { statusBar()->showMessage(text); });
  connect(m_moveAction, &QAction::toggled, m_viewport, &Viewport::setTransformHandle);
  connect(m_viewport, &Viewport::handleDragged, this, &MainWindow::moveBody);
  connect(m_viewport, &Viewport::jointDragged, this, &MainWindow::turnJoint);
  connect(m_viewport, &Viewport::perturbationDragged, this, &MainWindow::perturb);
  // Ctrl+drag pulls bodies while a simulation is live (the camera otherwise)
  connect(m_playback, &Playback::stateChanged, this,
          [this] { m_viewport->setPerturbable(m_playback->live()); });
  auto* stop = new QAction(tr("Leave Add Body or Move"), this);
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
  if (!snap) r = toMicrometre(r);
  if (snap) {
    r = (r * 100).array().round() / 100;
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
      body >= static_cast<int>(spec.bodies.size()) || hasQuaternion(spec.bodies[body].joint.type))
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
  // what a click means, not the picker's single-precision noise: the point to the micrometre
  // (a pixel is about a millimetre), the surface normal to 1e-6 before it is made unit
  // (-0.05000000074505806 is saved as -0.05)
  const Vec3 point = toMicrometre(pick.point);
  Vec3 normal = toMicrometre(pick.normal);
  normal = normal.norm() > 0 ? Vec3(normal.normalized()) : pick.normal;
  const Vec3 axis = m_linkOptions->axisFor(m_document->spec(), pick.body, normal);
  const QString name = QString::fromStdString(freeBodyName(m_document->spec(), "link"));
  int added = -1;
  const QString error = m_document->edit(
      tr("Add body '%1'").arg(name),
      [&](ModelSpec& s) { added = addBody(s, makeLink(s, pick.body, point, axis, options)); },
      ModelDocument::Change::Structure);
  if (!error.isEmpty()) {
    statusBar()->showMessage(tr("Could not add a body: %1").arg(error));
    return -1;
  }
  selectBody(added);
  statusBar()->showMessage(tr("Added '%1'").arg(name));
  return added;
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

void MainWindow::applyOverlays() {
  Overlays overlays;
  overlays.bodyFrames = m_bodyFramesAction->isChecked();
  overlays.jointAxes = m_jointAxesAction->isChecked();
  overlays.centresOfMass = m_comAction->isChecked();
  overlays.sites = m_sitesAction->isChecked();
  overlays.collisionGeoms = m_collisionGeomsAction->isChecked();
  overlays.contactForces = m_contactForcesAction->isChecked();
  overlays.constraintForces = m_constraintForcesAction->isChecked();
  overlays.systemCom = m_systemComAction->isChecked();
  overlays.bodyNames = m_bodyNamesAction->isChecked();
  overlays.trails = m_trailsAction->isChecked();
  overlays.trailBodies = m_trailBodies;
  overlays.trailSeconds = m_settings.trailSeconds;
  m_viewport->setOverlays(overlays);
  const bool status = m_statusOverlayAction->isChecked();
  if (!status) m_viewport->setInfoText(QString());
  if (m_model) showFrame();  // the status text and annotations now, not at the next frame
  Settings changed = m_settings;
  changed.statusOverlay = status;
  changed.bodyFrames = overlays.bodyFrames;
  changed.jointAxes = overlays.jointAxes;
  changed.centresOfMass = overlays.centresOfMass;
  changed.sites = overlays.sites;
  changed.collisionGeoms = overlays.collisionGeoms;
  changed.contactForces = overlays.contactForces;
  changed.constraintForces = overlays.constraintForces;
  changed.systemCom = overlays.systemCom;
  changed.bodyNames = overlays.bodyNames;
  changed.trails = overlays.trails;
  if (changed.toJson() == m_settings.toJson()) return;
  m_settings = changed;
  m_settings.save();
}

void MainWindow::toggleTrail(int body) {
  if (!m_model || body < 0 || body >= static_cast<int>(m_model->spec.bodies.size())) {
    statusBar()->showMessage(tr("Select a body to trail it (click it in the view)"));
    return;
  }
  const QString name = QString::fromStdString(m_model->spec.bodies[static_cast<std::size_t>(body)].name);
  const auto at = std::find(m_trailBodies.begin(), m_trailBodies.end(), body);
  if (at != m_trailBodies.end()) {
    m_trailBodies.erase(at);
    statusBar()->showMessage(tr("'%1' leaves no trail").arg(name));
  } else {
    m_trailBodies.push_back(body);
    if (!m_trailsAction->isChecked()) m_trailsAction->setChecked(true);  // applies the overlays
    statusBar()->showMessage(tr("'%1' leaves a trail of the last %2 s (View > Trails, F7)")
                                 .arg(name)
                                 .arg(m_settings.trailSeconds));
  }
  applyOverlays();
}

void MainWindow::chooseTrailLength() {
  bool ok = false;
  const double seconds = QInputDialog::getDouble(this, tr("Trail Length"), tr("Seconds of path:"),
                                                 m_settings.trailSeconds, 0.1, 60, 1, &ok);
  if (!ok) return;
  m_settings.trailSeconds = seconds;
  m_settings.save();
  applyOverlays();
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

void MainWindow::documentChanged(ModelDocument::Change change) {
  if (!m_model || m_resetting) return;
  followDocument(change);
  // every view shows the timeline's state now, also when the new timeline's first frame is
  // at the time of the old one's (the playback then has no frame to announce)
  if (m_model) showFrame();
}

void MainWindow::followDocument(ModelDocument::Change change) {
  // only the camera or the keyframes changed: the view takes the camera, the simulation and
  // its recording go on (gravity, contacts and everything else restart it below)
  const auto withoutPresentation = [](const nlohmann::ordered_json& spec) {
    nlohmann::ordered_json j = spec;
    j.erase("camera");
    j.erase("keyframes");
    return j;
  };
  const nlohmann::ordered_json before = specToJson(m_model->spec), after = specToJson(m_document->spec());
  const bool presentationOnly = change == ModelDocument::Change::Values &&
                                withoutPresentation(before) == withoutPresentation(after);
  const std::string previousSpec = presentationOnly ? std::string() : before.dump();
  Eigen::VectorXd q0Before, qd0Before;  // the initial state before the edit
  if (!presentationOnly) {
    try {
      const Model old = compile(m_model->spec);
      q0Before = old.q0;
      qd0Before = old.qd0;
    } catch (const std::exception&) {  // it compiled when it was applied; nothing to compare
    }
  }
  m_model->spec = m_document->spec();
  if (presentationOnly) {
    if (!m_cameraEdit && before.value("camera", nlohmann::ordered_json()) !=
                             after.value("camera", nlohmann::ordered_json())) {
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
  bool initialChanged = false;  // an edit of the initial state: the timeline starts from it
  try {
    const Model edited = compile(m_model->spec);
    initialChanged = edited.q0.size() == q0Before.size() && edited.qd0.size() == qd0Before.size() &&
                     (edited.q0 != q0Before || edited.qd0 != qd0Before);
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
  if (initialChanged && !m_model->motion) {
    // the recording began from another initial state: the timeline (started above from the
    // edited model's initial state) replaces it, and it is set aside for Undo
    m_setAside.push_back({previousSpec, std::move(history), std::nullopt, t});
    if (m_setAside.size() > kSetAsideLimit) m_setAside.pop_front();
    if (playing) m_playback->play();
    statusBar()->showMessage(tr("The initial state changed: the timeline starts from it (Undo "
                                "brings the recording back)"));
    return;
  }
  const bool sameSizes = history.positionSize() == m_display->positionSize() &&
                         history.velocitySize() == m_display->velocitySize() &&
                         history.constraintSize() == m_display->constraintSize() &&
                         history.auxiliarySize() == m_display->auxiliarySize() &&
                         history.softForceSize() == m_display->softForceSize();
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
        entry.recording.constraintSize() != m_display->constraintSize() ||
        entry.recording.auxiliarySize() != m_display->auxiliarySize() ||
        entry.recording.softForceSize() != m_display->softForceSize())
      return false;
    m_playback->restoreRecording(std::move(entry.recording), entry.time);
    statusBar()->showMessage(tr("The recording is back (%1 s)").arg(m_playback->endTime()));
    return true;
  }
  return false;
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
  updateUrdfBaseMenu();
  if (!m_model) {
    setWindowTitle(tr("Articulate"));
    return;
  }
  setWindowTitle(tr("Articulate — %1[*]").arg(displayName()));
}

QString MainWindow::displayName() const {
  if (!m_path.isEmpty()) return QFileInfo(m_path).fileName();
  if (m_model && !m_model->spec.name.empty()) return QString::fromStdString(m_model->spec.name);
  return tr("untitled");
}

QString MainWindow::exportStem() const {
  if (!m_path.isEmpty()) return QFileInfo(m_path).dir().filePath(QFileInfo(m_path).completeBaseName());
  return m_model && !m_model->spec.name.empty() ? QString::fromStdString(m_model->spec.name) : tr("untitled");
}

void MainWindow::showError(const QString& title, const QString& details) {
  m_lastError = title + "\n" + details;
  statusBar()->showMessage(title + " " + details.section('\n', 0, 0));
  if (!m_asking) {  // unattended: nobody would close a box
    std::fprintf(stderr, "%s\n%s\n", qPrintable(title), qPrintable(details));
    return;
  }
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
