// The main window: layout, menus, the open document, opening and saving model files.
#include "main_window.h"

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
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QStatusBar>
#include <QStyle>
#include <QTextDocument>
#include <QTimer>
#include <QToolBar>

#include "articulate/model.h"
#include "viewport/viewport.h"

namespace art::gui {

namespace {

constexpr int kVisibleProblemLines = 12;  // the rest of a long error is under "Show Details"

std::string localPath(const QString& path) { return QFile::encodeName(path).toStdString(); }

bool isArticulate(const LoadedModel& model) { return model.format == kModelFormatName; }

/// The first local .json file among dropped URLs, or empty.
QString droppedModel(const QMimeData* mime) {
  if (!mime || !mime->hasUrls()) return {};
  for (const QUrl& url : mime->urls())
    if (url.isLocalFile() && url.toLocalFile().endsWith(".json", Qt::CaseInsensitive))
      return url.toLocalFile();
  return {};
}

}  // namespace

Eigen::VectorXd poseAtTime(const LoadedModel& model, double t) {
  const Motion* motion = model.motion ? &*model.motion : nullptr;
  if (!motion || motion->t.size() == 0) return compile(model.spec).q0;
  const Eigen::VectorXd& times = motion->t;
  const Eigen::Index last = times.size() - 1;
  if (!(t > times[0])) return motion->q.row(0).transpose();
  if (t >= times[last]) return motion->q.row(last).transpose();
  // samples k and k + 1 with times[k] <= t < times[k + 1]
  const Eigen::Index k =
      std::upper_bound(times.data(), times.data() + times.size(), t) - times.data() - 1;
  const double span = times[k + 1] - times[k];
  const double alpha = span > 0 ? (t - times[k]) / span : 0.0;
  return ((1 - alpha) * motion->q.row(k) + alpha * motion->q.row(k + 1)).transpose();
}

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent), m_settings(Settings::load()) {
  if (m_settings.pruneRecentFiles()) m_settings.save();
  m_viewport = new Viewport(this);
  setCentralWidget(m_viewport);
  connect(m_viewport, &Viewport::bodyPicked, this, &MainWindow::showPick);

  createDocks();
  createPlaybackBar();
  createMenus();
  statusBar()->showMessage(tr("Open a model with File > Open, or drop a .json model file here"));
  setAcceptDrops(true);

  resize(1280, 800);
  restoreGeometry(m_settings.geometry);
  restoreState(m_settings.state);
  applyOverlays();
  updateTitle();
}

MainWindow::~MainWindow() = default;

void MainWindow::createDocks() {
  const auto addPlaceholderDock = [this](const QString& title, const QString& name,
                                         const QString& text, Qt::DockWidgetArea area) {
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(name);
    auto* label = new QLabel(text, dock);
    label->setObjectName(name + "Placeholder");
    label->setAlignment(Qt::AlignCenter);
    label->setWordWrap(true);
    label->setMargin(12);
    label->setEnabled(false);
    dock->setWidget(label);
    addDockWidget(area, dock);
  };
  addPlaceholderDock(tr("Model"), "modelDock", tr("The model tree editor comes in a later version"),
                     Qt::LeftDockWidgetArea);
  addPlaceholderDock(tr("Properties"), "propertiesDock",
                     tr("The property editor comes in a later version"), Qt::RightDockWidgetArea);
}

void MainWindow::createPlaybackBar() {
  auto* bar = new QToolBar(tr("Playback"), this);
  bar->setObjectName("playbackBar");
  QAction* play = bar->addAction(style()->standardIcon(QStyle::SP_MediaPlay), tr("Play"));
  play->setObjectName("playAction");
  play->setToolTip(tr("Playback comes in a later version"));
  play->setEnabled(false);
  m_timeLabel = new QLabel(tr("t = %1 s").arg(0.0, 0, 'f', 3), bar);
  m_timeLabel->setObjectName("timeLabel");
  m_timeLabel->setMargin(6);
  bar->addWidget(m_timeLabel);
  addToolBar(Qt::BottomToolBarArea, bar);
}

void MainWindow::createMenus() {
  // file
  QMenu* file = menuBar()->addMenu(tr("&File"));
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
  file->addSeparator();
  QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
  quit->setShortcut(QKeySequence(tr("Ctrl+Q")));
  quit->setMenuRole(QAction::QuitRole);

  // view: the viewport handles the key `i` itself; the menu shows it without a shortcut
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
  view->addSeparator();
  QMenu* panels = view->addMenu(tr("&Panels"));
  for (QDockWidget* dock : findChildren<QDockWidget*>())
    panels->addAction(dock->toggleViewAction());
  for (QToolBar* bar : findChildren<QToolBar*>()) panels->addAction(bar->toggleViewAction());

  // help
  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&About Articulate"), this, &MainWindow::about)
      ->setMenuRole(QAction::AboutRole);
  help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt)->setMenuRole(QAction::AboutQtRole);
}

bool MainWindow::openFile(const QString& path) {
  const QString file = QFileInfo(path).absoluteFilePath();
  LoadedModel loaded;
  Eigen::VectorXd q;
  try {
    loaded = loadModel(localPath(file));
    q = poseAtTime(loaded, 0.0);
  } catch (const std::exception& e) {
    showError(tr("Could not open '%1'.").arg(QFileInfo(file).fileName()),
              QString::fromStdString(e.what()));
    return false;
  }
  try {
    m_viewport->setModel(loaded.spec, q);
  } catch (const std::exception& e) {
    if (m_model) m_viewport->setModel(m_model->spec, poseAtTime(*m_model, 0.0));
    showError(tr("Could not show '%1'.").arg(QFileInfo(file).fileName()),
              QString::fromStdString(e.what()));
    return false;
  }
  m_model = std::move(loaded);
  m_path = file;
  m_timeLabel->setText(tr("t = %1 s").arg(0.0, 0, 'f', 3));
  setModified(false);
  rememberFile(file);
  statusBar()->showMessage(tr("Opened %1").arg(QDir::toNativeSeparators(file)));
  return true;
}

bool MainWindow::save() {
  if (!m_model) return false;
  if (m_path.isEmpty()) return saveAs();
  if (!isArticulate(*m_model)) {
    QMessageBox box(QMessageBox::Question, tr("Save"),
                    tr("'%1' is a spatial_v2 file.").arg(QFileInfo(m_path).fileName()),
                    QMessageBox::Cancel, this);
    box.setInformativeText(
        tr("Articulate saves models in its own format and does not overwrite "
           "spatial_v2 files. Save the model under a new name?"));
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
    saveModel(localPath(file), m_model->spec);
  } catch (const std::exception& e) {
    showError(tr("Could not save '%1'.").arg(QFileInfo(file).fileName()),
              QString::fromStdString(e.what()));
    return false;
  }
  m_model->format = kModelFormatName;
  m_path = file;
  setModified(false);
  rememberFile(file);
  statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(file)));
  return true;
}

void MainWindow::showTime(double t) {
  m_timeLabel->setText(tr("t = %1 s").arg(t, 0, 'f', 3));
  if (m_model) m_viewport->setPose(poseAtTime(*m_model, t));
}

void MainWindow::saveCameraToModel() {
  if (!m_model) return;
  m_model->spec.camera = m_viewport->currentCamera();
  setModified(true);
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
                                                    tr("Model files (*.json);;All files (*)"));
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

void MainWindow::setModified(bool modified) {
  setWindowModified(modified);
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
