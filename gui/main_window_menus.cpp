// The main window's menus, keyboard shortcuts, recent files and About box.
#include "main_window.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QFileDialog>
#include <QInputDialog>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QToolBar>
#include <QVBoxLayout>
#include <QTableWidget>
#include <QHeaderView>
#include <QDialogButtonBox>
#include <QDialog>

#include "playback.h"
#include "viewport/viewport.h"

namespace art::gui {

void MainWindow::createShortcuts() {
  // showmotion's playback keys, active wherever the focus is in the window; each action's text
  // is what Help > Keyboard Shortcuts lists for it
  const auto key = [this](const QKeySequence& seq, const QString& what, auto slot) {
    auto* a = new QAction(what, this);
    a->setShortcut(seq);
    a->setShortcutContext(Qt::WindowShortcut);
    a->setProperty("keyGroup", tr("Playback"));
    connect(a, &QAction::triggered, this, slot);
    addAction(a);
    return a;
  };
  Playback* p = m_playback;
  key(Qt::Key_Space, tr("Play / pause (a model without a motion simulates)"), [p] { p->togglePlay(); });
  key(Qt::Key_0, tr("Stop and rewind (to the start; at the start, to the end)"), [p] { p->stopRewind(); });
  key(Qt::Key_R, tr("Auto-repeat"), [p] { p->toggleRepeating(); });
  key(Qt::Key_Comma, tr("Slower (0.001 to 20)"), [p] { p->slower(); });
  key(Qt::Key_Period, tr("Faster (0.001 to 20)"), [p] { p->faster(); });
  key(Qt::Key_Slash, tr("Reverse"), [p] { p->toggleReversed(); });
  key(Qt::Key_1, tr("Normal speed"), [p] { p->setSpeedOne(); });
  key(Qt::Key_M, tr("Jog forward one sample"), [p] { p->jog(1); });
  key(Qt::Key_N, tr("Jog back one sample"), [p] { p->jog(-1); });
  key(Qt::SHIFT | Qt::Key_M, tr("Jog forward 10 samples"), [p] { p->jog(10); });
  key(Qt::SHIFT | Qt::Key_N, tr("Jog back 10 samples"), [p] { p->jog(-10); });
  // by 100 with Alt: Ctrl+N is File > New
  key(Qt::ALT | Qt::Key_M, tr("Jog forward 100 samples"), [p] { p->jog(100); });
  key(Qt::ALT | Qt::Key_N, tr("Jog back 100 samples"), [p] { p->jog(-100); });
  key(Qt::Key_P, tr("Show / hide the playback bar"), [this] {
    for (QToolBar* bar : findChildren<QToolBar*>())
      if (bar->objectName() == "playbackBar") bar->setVisible(!bar->isVisible());
  });
  key(Qt::Key_H, tr("Keyboard shortcuts (this list)"), [this] { showKeys(); });
  key(Qt::Key_Question, tr("Keyboard shortcuts (this list)"), [this] { showKeys(); });
}

QList<QStringList> MainWindow::keyboardShortcuts() const {
  QList<QStringList> rows;
  // every action of the window with a key: its menu (or group), its key, what it does
  for (QAction* a : findChildren<QAction*>()) {
    if (a->shortcuts().isEmpty()) continue;
    QString where = a->property("keyGroup").toString();
    for (QObject* w : a->associatedObjects()) {
      if (auto* menu = qobject_cast<QMenu*>(w)) where = menu->title().remove('&');
      else if (auto* bar = qobject_cast<QToolBar*>(w); bar && where.isEmpty()) where = bar->windowTitle();
    }
    if (where.isEmpty()) where = tr("Window");
    QString what = a->text().remove('&');
    if (what.endsWith("...")) what.chop(3);
    if (what.isEmpty()) what = a->toolTip();
    QStringList keys;
    for (const QKeySequence& k : a->shortcuts()) keys << k.toString(QKeySequence::NativeText);
    rows.append({where, keys.join(", "), what});
  }
  std::sort(rows.begin(), rows.end());
  // the view's own keys and mouse (Viewport::keyBindings)
  for (const auto& [keys, what] : Viewport::keyBindings()) rows.append({tr("View (in the 3D view)"), keys, what});
  return rows;
}

void MainWindow::showKeys() {
  if (!m_keysDialog) {
    m_keysDialog = new QDialog(this);
    m_keysDialog->setObjectName("keysDialog");
    m_keysDialog->setWindowTitle(tr("Keyboard Shortcuts"));
    auto* layout = new QVBoxLayout(m_keysDialog);
    auto* table = new QTableWidget(m_keysDialog);
    table->setObjectName("shortcutTable");
    table->setColumnCount(3);
    table->setHorizontalHeaderLabels({tr("Where"), tr("Key"), tr("Does")});
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->horizontalHeader()->setStretchLastSection(true);
    table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    layout->addWidget(table);
    auto* close = new QDialogButtonBox(QDialogButtonBox::Close, m_keysDialog);
    connect(close, &QDialogButtonBox::rejected, m_keysDialog, &QDialog::close);
    layout->addWidget(close);
    m_keysDialog->resize(760, 620);
  }
  if (m_keysDialog->isVisible()) {  // already listing what the keys do
    m_keysDialog->raise();
    m_keysDialog->activateWindow();
    return;
  }
  // built afresh from the actions each time it opens: what it lists is what the keys do now
  auto* table = m_keysDialog->findChild<QTableWidget*>("shortcutTable");
  const QList<QStringList> rows = keyboardShortcuts();
  table->setRowCount(static_cast<int>(rows.size()));
  for (int r = 0; r < rows.size(); ++r)
    for (int c = 0; c < 3; ++c) table->setItem(r, c, new QTableWidgetItem(rows[r][c]));
  table->resizeColumnsToContents();
  m_keysDialog->show();
  m_keysDialog->raise();
  m_keysDialog->activateWindow();
}

void MainWindow::createMenus() {
  // file
  QMenu* file = menuBar()->addMenu(tr("&File"));
  QAction* newAction = file->addAction(tr("&New"), this, [this] {
    if (maybeSave()) newModel();
  });
  newAction->setShortcut(QKeySequence::New);
  newAction->setObjectName("newAction");
  QAction* open = file->addAction(tr("&Open..."), this, &MainWindow::openDialog);
  open->setShortcut(QKeySequence::Open);
  m_recentMenu = file->addMenu(tr("Open &Recent"));
  connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::updateRecentMenu);
  updateRecentMenu();
  QAction* openSweepAction = file->addAction(tr("Open S&weep..."), this, [this] {
    const QString dir = QFileDialog::getExistingDirectory(
        this, tr("Open Sweep Results"), m_path.isEmpty() ? QString() : QFileInfo(m_path).absolutePath());
    if (!dir.isEmpty()) openSweep(dir);
  });
  openSweepAction->setToolTip(tr("A results folder of articulate-cli sweep: its table, plots and runs"));
  // how URDF robots are read: the open robot's base (remembered per file), and where
  // package://NAME/... meshes are found
  QMenu* urdfBase = file->addMenu(tr("URDF &Base"));
  urdfBase->setToolTipsVisible(true);
  m_urdfBaseGroup = new QActionGroup(this);
  for (const auto& [key, label] : {std::pair<QString, QString>{"auto", tr("&Automatic: floating when it has legs")},
                                   {"fixed", tr("&Fixed: the root link is the base")},
                                   {"floating", tr("F&loating: the root link on a free joint, on the ground")}}) {
    QAction* a = urdfBase->addAction(label);
    a->setCheckable(true);
    a->setData(key);
    m_urdfBaseGroup->addAction(a);
    connect(a, &QAction::triggered, this, [this, key = key] { setUrdfBase(key); });
  }
  m_urdfBaseGroup->actions().front()->setToolTip(
      tr("Floating when collision geometry reaches below the root link in two or more of its branches "
         "(legs); fixed otherwise, and when the root link is named 'world'. The choice is kept for "
         "each file."));
  updateUrdfBaseMenu();
  file->addAction(tr("URDF &Package Folders..."), this, [this] {
    bool ok = false;
    const QString text = QInputDialog::getMultiLineText(
        this, tr("URDF Package Folders"),
        tr("Folders where package://NAME/... is also found (one per line): a folder named NAME, or one "
           "holding a folder NAME. Searched after the URDF's own folder and its parents, "
           "ROS_PACKAGE_PATH and AMENT_PREFIX_PATH."),
        m_settings.packageFolders.join("\n"), &ok);
    if (!ok) return;
    QStringList folders;
    for (const QString& line : text.split('\n'))
      if (!line.trimmed().isEmpty()) folders << line.trimmed();
    m_settings.packageFolders = folders;
    m_settings.save();
  });
  file->addSeparator();
  m_saveAction = file->addAction(tr("&Save"), this, &MainWindow::save);
  m_saveAction->setShortcut(QKeySequence(tr("Ctrl+S")));
  m_saveAsAction = file->addAction(tr("Save &As..."), this, &MainWindow::saveAs);
  m_saveAsAction->setShortcut(QKeySequence(tr("Ctrl+Shift+S")));
  file->addAction(tr("Save &Recording..."), this, &MainWindow::saveRecordingDialog);
  QMenu* exportMenu = file->addMenu(tr("&Export"));
  exportMenu->addAction(tr("&Image..."), this, &MainWindow::exportImageDialog);
  QAction* screenshot = file->addAction(tr("Save Screens&hot"), this, [this] { saveScreenshot(); });
  screenshot->setShortcut(QKeySequence(tr("Ctrl+P")));
  screenshot->setToolTip(tr("The view as a PNG beside the model, named after it and the time"));
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
  // the platform's redo keys (Ctrl+Shift+Z here) and Ctrl+Y, which most desktops also take
  QList<QKeySequence> redoKeys = QKeySequence::keyBindings(QKeySequence::Redo);
  if (!redoKeys.contains(QKeySequence(Qt::CTRL | Qt::Key_Y))) redoKeys.append(QKeySequence(Qt::CTRL | Qt::Key_Y));
  redo->setShortcuts(redoKeys);
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
  m_bodyFramesAction->setShortcut(QKeySequence(Qt::Key_F8));
  m_jointAxesAction = overlay(tr("&Joint Axes"), m_settings.jointAxes);
  m_jointAxesAction->setShortcut(QKeySequence(Qt::Key_F9));
  m_comAction = overlay(tr("&Centres of Mass"), m_settings.centresOfMass);
  m_comAction->setShortcut(QKeySequence(Qt::Key_F10));
  m_sitesAction = overlay(tr("S&ites"), m_settings.sites);
  m_sitesAction->setObjectName("sitesAction");
  m_sitesAction->setToolTip(tr("The model's sites (MJCF <site>): named points drawn as small spheres"));
  m_collisionGeomsAction = overlay(tr("Collision &Geometry"), m_settings.collisionGeoms);
  m_collisionGeomsAction->setObjectName("collisionGeomsAction");
  m_collisionGeomsAction->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F3));
  m_collisionGeomsAction->setToolTip(tr("The shapes that collide (body-body contact: MJCF geoms, a mesh as its "
                                        "convex hull), translucent orange over what is drawn"));
  QAction* trackball = view->addAction(tr("T&rackball Camera"));
  trackball->setObjectName("trackballAction");
  trackball->setCheckable(true);
  trackball->setChecked(m_settings.trackball);
  trackball->setToolTip(tr("Drag to turn the view freely (roll outside the middle); off: a turntable "
                           "about the vertical, as MuJoCo, RViz and Blender turn it"));
  m_viewport->setTurntable(!m_settings.trackball);
  connect(trackball, &QAction::toggled, this, [this](bool on) {
    m_viewport->setTurntable(!on);
    m_settings.trackball = on;
    m_settings.save();
  });
  m_statusOverlayAction = overlay(tr("&Status Overlay"), m_settings.statusOverlay);
  m_statusOverlayAction->setShortcut(QKeySequence(Qt::Key_F2));
  m_statusOverlayAction->setToolTip(tr("Time, real-time factor, step, frame rate and energy in "
                                       "the view's corner"));
  // the force overlays (frame.h): drawn in the view and in exported images and videos
  const auto keyed = [&](const QString& name, bool checked, Qt::Key k, const QString& tip) {
    QAction* a = overlay(name, checked);
    a->setShortcut(QKeySequence(k));
    a->setToolTip(tip);
    return a;
  };
  m_contactForcesAction = keyed(tr("C&ontact Forces"), m_settings.contactForces, Qt::Key_F3,
                                tr("Contact points touching the ground, with arrows of the normal "
                                   "(yellow) and friction (blue) reactions"));
  m_constraintForcesAction =
      keyed(tr("Co&nstraint Forces"), m_settings.constraintForces, Qt::Key_F4,
            tr("Loop closures' forces as arrows (magenta), couplings' (gears') forces as labels"));
  m_systemComAction = keyed(tr("System Centre of &Mass"), m_settings.systemCom, Qt::Key_F5,
                            tr("The whole mechanism's centre of mass (orange)"));
  m_bodyNamesAction = keyed(tr("Body &Names"), m_settings.bodyNames, Qt::Key_F6,
                            tr("Each body's name at its centre of mass"));
  m_trailsAction = keyed(tr("&Trails"), m_settings.trails, Qt::Key_F7,
                         tr("The chosen bodies' paths over the last seconds, fading out"));
  QAction* trailBody = view->addAction(tr("Trail the Selected &Body"), this, [this] {
    toggleTrail(m_viewport->selectedBody());
  });
  trailBody->setShortcut(QKeySequence(Qt::Key_T));
  trailBody->setToolTip(tr("Adds the selected body to the trails, or removes it"));
  view->addAction(tr("Trail &Length..."), this, &MainWindow::chooseTrailLength);
  view->addSeparator();
  m_saveCameraAction =
      view->addAction(tr("Save &Camera to Model"), this, &MainWindow::saveCameraToModel);
  m_saveCameraAction->setShortcut(QKeySequence(tr("Ctrl+Shift+C")));
  view->addSeparator();
  QAction* fullScreen = view->addAction(tr("&Full Screen"));
  fullScreen->setCheckable(true);
  fullScreen->setShortcut(QKeySequence(Qt::Key_F11));
  connect(fullScreen, &QAction::toggled, this, [this](bool on) {
    on ? showFullScreen() : showNormal();
  });
  view->addSeparator();
  QMenu* panels = view->addMenu(tr("&Panels"));
  for (QDockWidget* dock : findChildren<QDockWidget*>())
    panels->addAction(dock->toggleViewAction());
  for (QToolBar* bar : findChildren<QToolBar*>()) panels->addAction(bar->toggleViewAction());

  // simulation
  QMenu* sim = menuBar()->addMenu(tr("&Simulation"));
  sim->addAction(tr("&Play / Pause") + "\tSpace", m_playback, &Playback::togglePlay);
  sim->addAction(tr("&Resume from Here"), m_playback, &Playback::resumeFromHere);
  QAction* keyframe = sim->addAction(tr("Add &Keyframe"), this, [this] { addKeyframe(); });
  keyframe->setShortcut(QKeySequence(tr("Ctrl+K")));
  keyframe->setToolTip(tr("Store the state at the playhead in the model's Keyframes"));
  sim->addAction(tr("Re&start"), m_playback, &Playback::restart);
  QAction* servos = sim->addAction(tr("Add Ser&vos"), this, [this] { addServos(); });
  servos->setObjectName("addServosAction");
  servos->setToolTip(tr("A position servo on every joint without a drive, holding the shown pose (one undoable edit)"));
  QAction* loadControls = sim->addAction(tr("&Load Controls..."), this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Load Controls"), QString(), tr("Control tables (*.csv)"));
    if (!path.isEmpty()) this->loadControls(path);
  });
  loadControls->setObjectName("loadControlsAction");
  loadControls->setToolTip(tr("Drive the actuators by a CSV table: t, then one column per actuator by name"));
  QAction* unpaced = sim->addAction(tr("As &Fast as Possible"));
  unpaced->setCheckable(true);
  connect(unpaced, &QAction::toggled, m_playback, &Playback::setUnpaced);
  sim->addSeparator();
  m_integratorMenu = sim->addMenu(tr("&Integrator"));
  auto* group = new QActionGroup(this);
  const std::pair<QString, QString> integrators[] = {
      {"rk4", tr("&RK4 (fixed step)")},
      {"euler", tr("Semi-implicit &Euler (symplectic)")},
      {"dopri5", tr("&Dormand-Prince 5(4) (adaptive)")},
      {"mujoco-euler", tr("&MuJoCo's Euler (damping implicit)")},
      {"mujoco-implicitfast", tr("MuJoCo's &implicitfast (damping and servos implicit)")}};
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
  QAction* physics = sim->addAction(tr("&Physics..."), this, &MainWindow::choosePhysics);
  physics->setObjectName("physicsAction");
  physics->setToolTip(tr("Exact or soft (MuJoCo's) constraints, and the soft model's solver settings"));

  // help
  QMenu* help = menuBar()->addMenu(tr("&Help"));
  QAction* keys = help->addAction(tr("&Keyboard Shortcuts"), this, &MainWindow::showKeys);
  keys->setObjectName("keysAction");
  keys->setShortcut(QKeySequence(Qt::Key_F1));
  help->addAction(tr("&About Articulate"), this, &MainWindow::about)
      ->setMenuRole(QAction::AboutRole);
  help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt)->setMenuRole(QAction::AboutQtRole);
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

void MainWindow::about() {
  QMessageBox::about(
      this, tr("About Articulate"),
      tr("<h3>Articulate %1</h3>"
         "<p>Build, simulate and play back articulated mechanisms.</p>"
         "<p>Algorithms after Roy Featherstone's spatial_v2.</p>"
         "<p>Built with Qt %2.</p>")
          .arg(QCoreApplication::applicationVersion().toHtmlEscaped(), QString(qVersion())));
}

}  // namespace art::gui
