// The main window's file handling: opening, saving, recovery and dropped model files.
#include "main_window.h"
#include "controls.h"
#include "plots.h"
#include "sweep_window.h"

#include <QAction>
#include <QActionGroup>
#include <QCryptographicHash>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <algorithm>
#include <cstdio>
#include <QFileDialog>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QLocale>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QStatusBar>
#include <QTimer>

#include "articulate/formats/files.h"
#include "articulate/formats/spatial_v2.h"
#include "articulate/formats/structure.h"
#include "articulate/formats/mjcf.h"
#include "articulate/formats/urdf.h"
#include "articulate/formulations/tree_simulation.h"
#include "articulate/model/model.h"
#include "articulate/simulation/recording.h"
#include "articulate/simulation/structure_system.h"
#include "import_report.h"
#include "joint_sliders.h"
#include "keyframes.h"
#include "main_window_private.h"
#include "model_tree.h"
#include "playback.h"
#include "recovery.h"
#include "viewport/viewport.h"

namespace art::gui {

namespace {

bool isArticulate(const LoadedModel& model) { return model.format == kModelFormatName; }

bool isModelPath(const QString& path) {
  return path.endsWith(".json", Qt::CaseInsensitive) || isUrdfPath(localPath(path)) || isMjcfPath(localPath(path));
}

// the first local file of a drop, preferring one a reader takes (.json, .urdf, .xml): a drop of a
// model with its README opens the model; a drop of files none of which is a model is refused
// with a message, not silently
QString droppedFile(const QMimeData* mime) {
  if (!mime || !mime->hasUrls()) return {};
  QString first;
  for (const QUrl& url : mime->urls()) {
    if (!url.isLocalFile()) continue;
    const QString path = url.toLocalFile();
    if (isModelPath(path)) return path;
    if (first.isEmpty()) first = path;
  }
  return first;
}


}  // namespace

bool MainWindow::openFile(const QString& path) {
  const QString file = QFileInfo(path).absoluteFilePath();
  if (!openDocument(file)) return false;
  m_trailBodies.clear();  // another model's bodies
  applyOverlays();
  rememberFile(file);
  QString opened = tr("Opened %1").arg(QDir::toNativeSeparators(file));
  for (const std::string& note : m_model->notes) opened += "; " + QString::fromStdString(note);
  statusBar()->showMessage(opened);
  // a floating robot whose initial state is inside the ground: lifted if the user says so
  if (m_playback->live() && m_display) {
    const Eigen::VectorXd q0 = m_display->positions();
    const Eigen::VectorXd lifted = offerToLift(q0, tr("The initial state of %1").arg(QFileInfo(file).fileName()));
    if (lifted != q0) m_playback->setStateHere(lifted, m_display->velocities());
  }
  return true;
}

AnyDocument readAnyDocument(const std::string& path, const UrdfReading& urdf) {
  AnyDocument doc;
  // the engine's one reader, as articulate-cli's commands use it (a URDF with the base and
  // package folders asked for)
  LoadedDocument loaded = isUrdfPath(path) ? LoadedDocument(loadUrdfModel(path, urdf.base, urdf.packageFolders))
                                           : loadDocument(path);
  if (auto* st = std::get_if<natural::StructureSpec>(&loaded)) {
    StructureSystem check(*st);  // builds the structure (its own checks)
    doc.loaded.spec = displayModel(*st);
    doc.loaded.format = kModelFormatName;
    doc.structure = std::move(*st);
  } else if (auto* body = std::get_if<RigidBodySpec>(&loaded)) {
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

UrdfReading MainWindow::urdfReading(const QString& file) const {
  UrdfReading r;
  parseUrdfBase(m_settings.urdfBase(file).toStdString(), r.base);
  for (const QString& folder : m_settings.packageFolders) r.packageFolders.push_back(localPath(folder));
  return r;
}

void MainWindow::setUrdfBase(const QString& base) {
  if (m_path.isEmpty() || !isUrdfPath(localPath(m_path)) || base == m_settings.urdfBase(m_path)) return;
  // the open robot, read again with the new base (after asking to keep its edits)
  if (!maybeSave()) {
    updateUrdfBaseMenu();
    return;
  }
  m_settings.setUrdfBase(m_path, base);
  m_settings.save();
  openFile(m_path);
}

void MainWindow::updateUrdfBaseMenu() {
  const bool urdf = !m_path.isEmpty() && isUrdfPath(localPath(m_path));
  const QString base = urdf ? m_settings.urdfBase(m_path) : QString();
  for (QAction* a : m_urdfBaseGroup->actions()) {
    a->setEnabled(urdf);
    a->setChecked(a->data().toString() == base);
  }
}

bool MainWindow::openDocument(const QString& file) {
  AnyDocument doc;
  Eigen::VectorXd q;
  try {
    doc = readAnyDocument(localPath(file), urdfReading(file));
    q = doc.rigid || doc.structure ? compile(doc.loaded.spec).q0 : poseAtTime(doc.loaded, 0.0);
  } catch (const std::exception& e) {
    showError(tr("Could not open '%1'.").arg(QFileInfo(file).fileName()),
              QString::fromStdString(e.what()));
    return false;
  }
  return showModel(std::move(doc.loaded), std::move(doc.rigid), std::move(doc.structure), q, file);
}

bool MainWindow::openSweep(const QString& dir) {
  if (!m_sweepWindow) {
    m_sweepWindow = new SweepWindow(this);
    connect(m_sweepWindow, &SweepWindow::openRunRequested, this, [this](long run) {
      if (openSweepRun(run)) {
        raise();
        activateWindow();
      }
    });
    connect(m_sweepWindow, &SweepWindow::playRunsRequested, this, [this](const QList<long>& runs) {
      if (openSweepRuns(runs)) {
        raise();
        activateWindow();
      }
    });
  }
  const QString error = m_sweepWindow->load(QString::fromStdString(localPath(dir)));
  if (!error.isEmpty()) {
    showError(tr("Could not open the sweep '%1'.").arg(QFileInfo(dir).fileName()), error);
    return false;
  }
  m_sweepWindow->show();
  m_sweepWindow->raise();
  statusBar()->showMessage(tr("Sweep %1: %2 runs").arg(QFileInfo(dir).fileName()).arg(m_sweepWindow->results().rows.size()));
  return true;
}

namespace {
// run `run` of a sweep as an unsaved recording of its model variant; throws std::runtime_error
// (or FormatError) saying why it cannot be played
LoadedModel sweepRunModel(const sweep::Results& results, long run) {
  const LoadedDocument doc = sweep::variantDocument(results.spec, run);
  const auto* tree = std::get_if<LoadedModel>(&doc);
  if (!tree)
    throw std::runtime_error("the app plays the runs of tree models (Articulate, spatial_v2, URDF); this "
                             "sweep's model is a rigid body or a structure, whose runs articulate-cli "
                             "keeps in RESULTS/recordings");
  const sweep::RunRecording rec = sweep::runRecording(results, run);
  LoadedModel loaded = *tree;
  loaded.format = kRecordingFormatName;
  Motion m;
  m.t = Eigen::Map<const Eigen::VectorXd>(rec.t.data(), static_cast<Eigen::Index>(rec.t.size()));
  m.q = rec.q.transpose();
  m.qd = rec.v.transpose();
  m.kinetic = Eigen::Map<const Eigen::VectorXd>(rec.kinetic.data(), static_cast<Eigen::Index>(rec.kinetic.size()));
  m.potential = Eigen::Map<const Eigen::VectorXd>(rec.potential.data(), static_cast<Eigen::Index>(rec.potential.size()));
  m.title = "run " + std::to_string(run) + " of the sweep " + results.dir;
  loaded.motion = std::move(m);
  return loaded;
}
}  // namespace

bool MainWindow::openSweepRuns(const QList<long>& runs) {
  if (runs.isEmpty() || !openSweepRun(runs.front())) return false;
  const sweep::Results& results = m_sweepWindow->results();
  std::deque<Ghost> ghosts;
  std::vector<ModelSpec> specs;
  try {
    if (runs.size() - 1 > kMaxGhosts)
      throw std::runtime_error("at most " + std::to_string(kMaxGhosts) + " runs play beside the first");
    for (qsizetype k = 1; k < runs.size(); ++k) {
      LoadedModel loaded = sweepRunModel(results, runs[k]);
      ghosts.push_back({runs[k], loaded.spec, Recording::fromMotion(*loaded.motion)});
      specs.push_back(std::move(loaded.spec));
    }
    m_viewport->setGhosts(specs);
  } catch (const std::exception& e) {
    showError(tr("Could not play the runs together."), QString::fromStdString(e.what()));
    return false;
  }
  m_ghosts = std::move(ghosts);
  std::vector<std::pair<QString, const Recording*>> plotted;
  QStringList names;
  for (const Ghost& g : m_ghosts) {
    plotted.push_back({tr("run %1").arg(g.run), &g.recording});
    names << QString::number(g.run);
  }
  m_plots->setGhosts(plotted);
  showFrame();
  statusBar()->showMessage(tr("Run %1 with runs %2 as ghosts, in one time base").arg(runs.front()).arg(names.join(", ")));
  return true;
}

bool MainWindow::syncGhosts() {
  if (m_ghosts.empty()) return false;
  if (m_viewport->ghosts() == static_cast<int>(m_ghosts.size())) return true;
  m_plots->setGhosts({});
  m_ghosts.clear();
  return false;
}

QList<long> MainWindow::ghostRuns() const {
  QList<long> out;
  for (const Ghost& g : m_ghosts) out << g.run;
  return out;
}

bool MainWindow::openSweepRun(long run) {
  if (!m_sweepWindow) return false;
  const sweep::Results& results = m_sweepWindow->results();
  const QString title = tr("Could not open run %1 of the sweep.").arg(run);
  LoadedModel loaded;
  Eigen::VectorXd q;
  try {
    loaded = sweepRunModel(results, run);
    q = poseAtTime(loaded, 0.0);
  } catch (const std::exception& e) {
    showError(title, QString::fromStdString(e.what()));
    return false;
  }
  if (!maybeSave()) return false;
  if (!showModel(std::move(loaded), std::nullopt, std::nullopt, q, QString())) return false;
  QStringList values;
  for (std::size_t p = 0; p < results.spec.parameters.size(); ++p) {
    const auto& v = results.spec.value(run, p);
    values << QString::fromStdString(results.spec.parameters[p].name) + " = " +
                  QString::fromStdString(v.is_string() ? v.get<std::string>() : v.dump());
  }
  statusBar()->showMessage(tr("Run %1 of %2: %3").arg(run).arg(QFileInfo(QString::fromStdString(results.dir)).fileName(),
                                                           values.join(", ")));
  return true;
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
  // the viewport dropped its ghosts with the old model
  m_plots->setGhosts({});
  m_ghosts.clear();
  m_model = std::move(loaded);
  std::map<std::string, std::string> jointNames;  // the file's joint names, by body
  if (m_model->jointNames.size() == m_model->spec.bodies.size())
    for (std::size_t b = 0; b < m_model->spec.bodies.size(); ++b)
      jointNames[m_model->spec.bodies[b].name] = m_model->jointNames[b];
  m_joints->setJointNames(jointNames);
  m_rigid = std::move(rigid);
  m_structure = std::move(structure);
  // rigid bodies and structures are edited in their files, not as trees
  m_tree->setEnabled(!m_rigid && !m_structure);
  m_joints->setUnavailable(m_rigid || m_structure
                               ? tr("Rigid-body and structure models have no joints to pose.")
                               : QString());
  m_keyframes->setUnavailable(m_rigid || m_structure
                                  ? tr("Keyframes are kept in tree models (Articulate, spatial_v2, "
                                       "URDF); rigid-body and structure files have none yet.")
                                  : QString());
  m_path = file;
  // what reading the file left out or approximated: in the Import report, and on stderr as
  // articulate-cli prints it
  m_report->setOpened(file, m_model->notes);
  for (const std::string& note : m_model->notes)
    std::fprintf(stderr, "note: %s: %s\n", localPath(file).c_str(), note.c_str());
  if (!m_model->notes.empty()) raiseImportReport();
  watchFile();
  m_setAside.clear();  // they belong to the model that was open
  m_trailBodies.erase(std::remove_if(m_trailBodies.begin(), m_trailBodies.end(),
                                     [&](int b) { return b >= static_cast<int>(m_model->spec.bodies.size()); }),
                      m_trailBodies.end());
  m_resetting = true;
  m_document->reset(m_model->spec);
  m_resetting = false;
  startTimeline();
  // a model that brings actuators opens with its Controls in front: driving it is what comes next
  if (!m_model->spec.actuators.empty())
    if (auto* dock = qobject_cast<QDockWidget*>(m_controlsPanel->parentWidget())) dock->raise();
  // frame the view on the system's own poses (rigid bodies and structures are not placed by
  // the display model's joints)
  showState(m_display->positions(), m_display->velocities());
  // a recorded motion: where its bodies go too (a floating robot walks out of its first pose's
  // frame); at most 200 of its samples
  std::vector<Vec3> visited;
  if (m_model->motion && !m_rigid && !m_structure) {
    const Recording& r = m_playback->recording();
    std::vector<BodyPose> poses;
    const std::size_t stride = std::max<std::size_t>(1, r.size() / 200);
    for (std::size_t k = 0; k < r.size(); k += stride) {
      m_display->bodyPoses(r.q(k), poses);
      for (const BodyPose& p : poses) visited.push_back(p.position);
    }
  }
  m_viewport->setFramingPoints(visited);
  m_viewport->resetView();
  setModified(false);
  if (m_addBodyAction) m_addBodyAction->setEnabled(!m_rigid && !m_structure);
  return true;
}

void MainWindow::raiseImportReport() {
  m_reportDock->show();
  m_reportDock->raise();
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
  watchFile();  // our own write is not a change on disk
  m_document->setClean();
  setModified(false);
  rememberFile(file);
  statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(file)));
  return true;
}

namespace {

// the file's bytes' hash, empty when it cannot be read
QByteArray fileHash(const QString& path) {
  QFile f(path);
  QCryptographicHash hash(QCryptographicHash::Sha1);
  if (!f.open(QIODevice::ReadOnly) || !hash.addData(&f)) return {};
  return hash.result();
}

}  // namespace

void MainWindow::watchFile() {
  if (!m_watcher) {
    m_watcher = new QFileSystemWatcher(this);
    m_reloadTimer = new QTimer(this);
    m_reloadTimer->setSingleShot(true);
    m_reloadTimer->setInterval(kReloadDelayMs);
    // a writer may take several writes (or a rename) to finish: wait until it has been quiet
    connect(m_watcher, &QFileSystemWatcher::fileChanged, m_reloadTimer,
            qOverload<>(&QTimer::start));
    connect(m_reloadTimer, &QTimer::timeout, this, &MainWindow::fileChangedOnDisk);
  }
  if (!m_watcher->files().isEmpty()) m_watcher->removePaths(m_watcher->files());
  m_diskHash.clear();
  if (m_path.isEmpty()) return;
  m_watcher->addPath(m_path);
  m_diskHash = fileHash(m_path);
}

void MainWindow::fileChangedOnDisk() {
  if (m_path.isEmpty()) return;
  const QString name = QFileInfo(m_path).fileName();
  // an editor that saves by renaming a new file over the old one ends the watch: renew it
  if (!m_watcher->files().contains(m_path) && QFileInfo::exists(m_path)) m_watcher->addPath(m_path);
  if (!QFileInfo::exists(m_path)) {
    statusBar()->showMessage(tr("'%1' was removed from disk; the model stays open").arg(name));
    return;
  }
  const QByteArray hash = fileHash(m_path);
  if (hash.isEmpty() || hash == m_diskHash) return;  // unreadable for now, or what we read
  m_diskHash = hash;
  reloadFromDisk();
}

bool MainWindow::reloadFromDisk() {
  if (!m_model || m_path.isEmpty()) return false;
  const QString name = QFileInfo(m_path).fileName();
  if (isWindowModified()) {
    const auto answer = QMessageBox::question(
        this, tr("Reload"),
        tr("'%1' changed on disk. Reload it and discard your unsaved changes?").arg(name),
        QMessageBox::Yes | QMessageBox::No, QMessageBox::No);
    if (answer != QMessageBox::Yes) {
      statusBar()->showMessage(tr("'%1' changed on disk; your unsaved changes are kept").arg(name));
      return false;
    }
  }
  // what the user was looking at
  const ViewState view = m_viewport->viewState();
  const int selected = m_viewport->selectedBody();
  const bool animation = m_playback->hasTimeline() && !m_playback->live();
  const double playhead = m_playback->time();
  const QByteArray hash = m_diskHash;
  if (!openDocument(m_path)) {  // its dialog names the problem; the model shown stays
    m_diskHash = hash;  // not asked again until the file changes once more
    statusBar()->showMessage(
        tr("'%1' changed on disk and no longer opens; the model shown is the one read before")
            .arg(name));
    return false;
  }
  m_viewport->setViewState(view);
  if (selected >= 0 && selected < static_cast<int>(m_model->spec.bodies.size())) selectBody(selected);
  if (animation && m_playback->hasTimeline() && !m_playback->live()) m_playback->setTime(playhead);
  statusBar()->showMessage(tr("Reloaded '%1': it changed on disk").arg(name));
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
  watchFile();  // the original file, as it is now: the recovered changes are not on disk
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

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (!droppedFile(event->mimeData()).isEmpty()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  const QString path = droppedFile(event->mimeData());
  if (path.isEmpty()) return;
  event->acceptProposedAction();
  // after the drop has finished: a dialog inside the drag-and-drop loop can hang it
  QTimer::singleShot(0, this, [this, path] {
    if (isModelPath(path)) return openFromUser(path);
    showError(tr("Articulate cannot open '%1'.").arg(QFileInfo(path).fileName()),
              tr("It opens models: Articulate and spatial_v2 files (.json) and URDF robots "
                 "(.urdf) and MuJoCo models (.xml, .mjcf). The model shown stays open."));
  });
}

void MainWindow::openDialog() {
  if (!maybeSave()) return;
  const QString dir = m_path.isEmpty() ? QString() : QFileInfo(m_path).absolutePath();
  const QString path = QFileDialog::getOpenFileName(this, tr("Open Model"), dir,
                                                    tr("Model files (*.json *.urdf *.xml *.mjcf);;All files (*)"));
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

bool MainWindow::maybeSave() {
  if (!m_model || !isWindowModified()) return true;
  const auto answer = QMessageBox::question(
      this, tr("Articulate"),
      tr("'%1' has unsaved changes. Save them before closing the model?").arg(displayName()),
      QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
  if (answer == QMessageBox::Save) return save();
  return answer == QMessageBox::Discard;
}

}  // namespace art::gui
