#pragma once
// The main window: the 3D viewport in the centre, the Model and Properties docks, the playback
// bar at the bottom, menus, drag-and-drop of model files, and the open document (a model file
// as loaded, plus whether the camera was saved into it since).

#include <optional>

#include <QMainWindow>
#include <QString>
#include <QStringList>

#include "articulate/model_format.h"
#include "articulate/natural/structure.h"
#include "articulate/system.h"
#include "document.h"
#include "settings.h"

class QAction;
class QLabel;
class QMenu;

namespace art::gui {

class Viewport;
class Playback;
class PlaybackBar;
class PlotsPanel;
class ModelTreePanel;
class PropertiesPanel;
struct Pick;
struct ExportOptions;

/// The joint positions of a loaded model at time `t` (s): with a motion, linear interpolation
/// between the samples around t (clamped to the first and last sample outside their range, the
/// later sample at a repeated time; see Recording::stateAt); without one, the initial pose q0 of
/// the compiled model. Throws ModelError when the spec does not compile.
Eigen::VectorXd poseAtTime(const LoadedModel& model, double t);

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  /// Builds the window and restores the remembered geometry, docks, overlays and recent files
  /// (Settings::load). No model is open.
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  /// Opens a model file of either format and shows it at its initial pose. On failure shows the
  /// loader's message (every problem) in a dialog, keeps the current model and returns false.
  /// Does not ask about unsaved changes (the menu, recent files and drops do).
  bool openFile(const QString& path);
  /// Saves the model to its file in the Articulate format. A model without a file, or read from
  /// a spatial_v2 file, asks for a new name instead. Returns whether it was saved.
  bool save();
  /// Asks for a file name and saves the model there. Returns whether it was saved.
  bool saveAs();
  /// Saves the model to `path` in the Articulate format, atomically; the document then refers
  /// to that file. Overwriting the spatial_v2 file the model came from asks first. Errors are
  /// shown in a dialog. Returns whether it was saved.
  bool saveTo(const QString& path);
  /// Moves the playhead to time `t` (s) (clamped to the recorded range) and shows that pose.
  void showTime(double t);
  /// Saves the timeline's recording (model and samples) atomically; errors in a dialog.
  bool saveRecordingTo(const QString& path);
  /// Writes the current view as a PNG of the given size (the viewport's size when 0).
  bool exportImage(const QString& path, int width = 0, int height = 0);
  /// Exports the recording as images or a video with a progress dialog (cancellable); errors
  /// in a dialog. Returns whether every frame was written.
  bool exportAnimation(const ExportOptions& options);
  /// Exports the model as URDF (a path ending in .urdf) or as spatial_v2 JSON, atomically;
  /// what the file cannot hold is listed in the status bar, a refusal (a model URDF cannot
  /// describe) in a dialog. Returns whether the file was written.
  bool exportModel(const QString& path);
  /// Stores the viewport's current camera in the model (marks the document modified).
  void saveCameraToModel();

  /// The open model, or null.
  const LoadedModel* model() const { return m_model ? &*m_model : nullptr; }
  /// The open model's file (absolute), or empty.
  QString filePath() const { return m_path; }
  /// The recent files, most recent first (at most Settings::kMaxRecentFiles).
  QStringList recentFiles() const { return m_settings.recentFiles; }
  /// The text of the last error shown in a dialog (title, then details), or empty.
  QString lastError() const { return m_lastError; }
  /// The text shown in the status bar.
  QString statusText() const;
  Viewport* viewport() const { return m_viewport; }
  Playback* playback() const { return m_playback; }
  ModelDocument* document() const { return m_document; }
  ModelTreePanel* modelTree() const { return m_tree; }
  PropertiesPanel* properties() const { return m_properties; }
  PlaybackBar* playbackBar() const { return m_playbackBar; }
  PlotsPanel* plots() const { return m_plots; }

 protected:
  void closeEvent(QCloseEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  void createMenus();
  void createDocks();
  void createPlaybackBar();
  void openDialog();
  void openFromUser(const QString& path);
  void updateRecentMenu();
  void rememberFile(const QString& path);
  void applyOverlays();
  void showPick(const Pick& pick);
  void about();
  void setModified(bool modified);
  void updateTitle();
  bool maybeSave();
  void showError(const QString& title, const QString& details);
  void createShortcuts();
  void startTimeline();
  void documentChanged(ModelDocument::Change change);
  std::unique_ptr<System> makeSystem() const;
  void showFrame();
  void simulationProblem(const QString& message);
  void chooseIntegrator(const QString& name);
  void updateIntegratorMenu();
  void chooseStep();
  void saveRecordingDialog();
  void exportImageDialog();
  void exportAnimationDialog(bool video);
  void exportModelDialog(bool urdf);
  void showKeys();

  Viewport* m_viewport = nullptr;
  Settings m_settings;
  std::optional<LoadedModel> m_model;  // a rigid body: its display model (m_rigid holds it)
  std::optional<RigidBodySpec> m_rigid;
  std::optional<natural::StructureSpec> m_structure;  // a structure: m_model holds its display model
  QString m_path;  // the model's file, absolute
  QString m_lastError;
  std::unique_ptr<System> m_display;  // names and body poses of the open model's states
  std::vector<BodyPose> m_poses;
  ModelDocument* m_document = nullptr;
  ModelTreePanel* m_tree = nullptr;
  PropertiesPanel* m_properties = nullptr;
  bool m_resetting = false, m_cameraEdit = false;
  Playback* m_playback = nullptr;
  PlaybackBar* m_playbackBar = nullptr;
  PlotsPanel* m_plots = nullptr;
  QMenu* m_integratorMenu = nullptr;
  QMenu* m_recentMenu = nullptr;
  QAction* m_saveAction = nullptr;
  QAction* m_saveAsAction = nullptr;
  QAction* m_saveCameraAction = nullptr;
  QAction* m_bodyFramesAction = nullptr;
  QAction* m_jointAxesAction = nullptr;
  QAction* m_comAction = nullptr;
};

}  // namespace art::gui
