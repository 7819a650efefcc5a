// The main window's exports: recordings, images, animations and models in other formats.
#include "main_window.h"

#include <QDateTime>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QProgressDialog>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>

#include "articulate/formats/urdf.h"
#include "articulate/formats/spatial_v2.h"
#include "export.h"
#include "import_report.h"
#include "main_window_private.h"
#include "playback.h"
#include "viewport/viewport.h"

namespace art::gui {

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
    if (syncGhosts()) {  // a sweep's runs played together: as the view shows them
      std::vector<ModelSpec> specs;
      for (const Ghost& g : m_ghosts) specs.push_back(g.spec);
      view.setGhosts(specs);
      Eigen::VectorXd q, qd;
      for (std::size_t g = 0; g < m_ghosts.size(); ++g) {
        m_ghosts[g].recording.stateAt(m_playback->time(), q, qd);
        view.setGhostPose(static_cast<int>(g), q);
      }
    }
    const bool timeline = m_playback->hasTimeline();
    computeState(timeline ? m_playback->q() : m_display->positions(),
                 timeline ? m_playback->qd() : m_display->velocities());
    view.setOverlays(m_viewport->overlays());
    view.setSegments(m_segments);
    view.setAnnotations(m_annotations);
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

QString MainWindow::saveScreenshot(const QDateTime& when) {
  if (!m_model) return {};
  // beside the model's file; a model without one: the pictures folder
  QString dir = m_path.isEmpty() ? QString() : QFileInfo(m_path).absolutePath();
  if (dir.isEmpty()) {
    // the pictures folder, made if it is missing (a fresh account has none)
    dir = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
    if (!dir.isEmpty() && !QDir().mkpath(dir)) dir.clear();
  }
  if (dir.isEmpty()) dir = QDir::currentPath();
  const QString base = m_path.isEmpty() ? QString::fromStdString(m_model->spec.name)
                                        : QFileInfo(m_path).completeBaseName();
  const QString stamp = when.toString("yyyyMMdd-HHmmss");
  QString path = QDir(dir).filePath(QString("%1-%2.png").arg(base.isEmpty() ? "articulate" : base, stamp));
  // two in one second: number them rather than overwrite
  for (int n = 2; QFileInfo::exists(path); ++n)
    path = QDir(dir).filePath(QString("%1-%2-%3.png").arg(base, stamp).arg(n));
  return exportImage(path) ? path : QString();
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
  // what the view shows: a sweep's runs played together too
  ExportOptions withGhosts = options;
  if (syncGhosts())
    for (const Ghost& g : m_ghosts) withGhosts.ghosts.push_back({g.spec, &g.recording});
  const QString error = exportFrames(m_model->spec, m_playback->recording(), *m_probe,
                                     m_viewport->viewState(), withGhosts, [&](int done, int) {
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

void MainWindow::exportAnimationDialog(bool video, std::optional<std::pair<double, double>> range) {
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
  start->setValue(range ? std::min(range->first, range->second) : m_playback->startTime());
  end->setValue(range ? std::max(range->first, range->second) : m_playback->endTime());
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
  const QString name = exportStem();
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
  o.overlays = m_viewport->overlays();
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
      notes = saveSpatialV2(localPath(path), m_model->spec);
  } catch (const std::exception& e) {
    showError(tr("Could not export '%1'.").arg(QFileInfo(path).fileName()),
              QString::fromStdString(e.what()));
    return false;
  }
  QString message = tr("Exported %1").arg(QDir::toNativeSeparators(path));
  for (const std::string& note : notes) message += "; " + QString::fromStdString(note);
  statusBar()->showMessage(message);
  m_report->addExport(path, notes);
  if (!notes.empty()) raiseImportReport();
  return true;
}

void MainWindow::exportModelDialog(bool urdf) {
  if (!m_model) return;
  const QString name = exportStem();
  const QString path = QFileDialog::getSaveFileName(
      this, urdf ? tr("Export URDF") : tr("Export spatial_v2 JSON"),
      name + (urdf ? ".urdf" : "-spatial_v2.json"),
      urdf ? tr("URDF files (*.urdf)") : tr("spatial_v2 models (*.json)"));
  if (!path.isEmpty()) exportModel(path);
}

}  // namespace art::gui
