#pragma once
// The main window: the 3D viewport in the centre, the Model and Properties docks, the playback
// bar at the bottom, menus, drag-and-drop of model files, and the open document (a model file
// as loaded, plus whether the camera was saved into it since).

#include <deque>
#include <optional>

#include <QDateTime>
#include <QMainWindow>
#include <QString>
#include <QStringList>

#include "articulate/formats/document.h"
#include "articulate/formulations/natural/structure.h"
#include "articulate/simulation/recording.h"
#include "articulate/simulation/system.h"
#include "document.h"
#include "settings.h"
#include "viewport/viewport.h"

class QAction;
class QDialog;
class QDockWidget;
class QFileSystemWatcher;
class QLabel;
class QMenu;
class QTimer;

class QActionGroup;

namespace art::gui {

class Viewport;
class Playback;
class PlaybackBar;
class PlotsPanel;
class ModelTreePanel;
class PropertiesPanel;
class LinkOptionsForm;
class ControlsPanel;
class EqualityPanel;
class JointSlidersPanel;
class KeyframesPanel;
class ImportReportPanel;
class SweepWindow;
class Autosaver;
struct RecoveryEntry;
struct Pick;
struct ExportOptions;

/// A model file of any kind the app opens: a kinematic tree (Articulate, spatial_v2 or URDF,
/// perhaps with a motion), a rigid body or a natural-coordinate structure. For the last two,
/// `loaded.spec` is their display model (displayModel) and the system places its bodies.
struct AnyDocument {
  LoadedModel loaded;
  std::optional<RigidBodySpec> rigid;
  std::optional<natural::StructureSpec> structure;
};
/// How a URDF file is read (the settings' File > URDF Base and URDF Package Folders).
struct UrdfReading {
  UrdfBase base = UrdfBase::Auto;
  std::vector<std::string> packageFolders;
};
/// Reads and checks any model file (a URDF as `urdf` says). Throws FormatError / ModelError
/// naming the field, or std::runtime_error when the file cannot be read.
AnyDocument readAnyDocument(const std::string& path, const UrdfReading& urdf = {});
/// A new system simulating a document from its initial state: the rigid body or structure when
/// given, else the tree `spec` with its simulation settings. Throws ModelError when the tree
/// does not compile.
std::unique_ptr<System> makeSystem(const ModelSpec& spec, const std::optional<RigidBodySpec>& rigid,
                                   const std::optional<natural::StructureSpec>& structure);

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
  /// Does not ask about unsaved changes (the menu, recent files and drops do). What the reader
  /// left out or approximated (LoadedModel::notes) goes to the Import report dock, raised, and
  /// to stderr as "note: FILE: NOTE".
  bool openFile(const QString& path);
  /// Starts an empty model (a floor, gravity -z, no bodies, no file) to build with the Add
  /// Body tool. Does not ask about unsaved changes (the menu does).
  void newModel();
  /// What the Add Body tool does on a click: attaches a link made with linkOptions() to the
  /// picked body (or the base) at the picked point, through an undoable "Add body" command,
  /// and selects it. Returns the new body's index, or -1 (nothing hit, a model that is not a
  /// tree, or a refused edit; the status bar says why).
  int addBodyAt(const Pick& pick);
  /// The Add Body tool's toggle and its options.
  QAction* addBodyAction() const { return m_addBodyAction; }
  /// The Move tool's toggle: a transform handle on the selected body.
  QAction* moveAction() const { return m_moveAction; }
  /// What a drag of the transform handle does: moves `body`'s joint placement (and so the body
  /// with its subtree) by the rigid motion x -> rotation x + translation (base coordinates)
  /// from where it was when the drag began; with `snap` the placement's position rounds to
  /// 1 cm and its roll-pitch-yaw to 15 degrees. Unfinished drags only show the result; the
  /// finished one is one undoable "Move 'name'" command.
  void moveBody(int body, const Mat3& rotation, const Vec3& translation, bool snap, bool finished);
  /// What dragging a body with the Move tool does: turns (slides) its joint's home position,
  /// the initial q, by `delta` (rad or m) from its value; unfinished drags only show it, the
  /// finished one is one undoable "Set initial state of 'name'" and, while the simulation is
  /// paused, restarts it from the initial state so that the new home position shows.
  void turnJoint(int body, double delta, bool finished);
  /// What Ctrl+drag in the viewport does while a simulation is live: pulls `point` (body
  /// coordinates) of `body` towards `target` (world) with the perturbation spring (stiffness and
  /// damping scaled to the mass the body carries; Perturbation), or with `torque` turns the body
  /// by the spring's moment; `finished` lets go. The spring is drawn from the grabbed point to
  /// the target and its force shown in the status bar. Nothing on an animation.
  void perturb(int body, const Vec3& point, const Vec3& target, bool torque, bool finished);
  LinkOptionsForm* linkOptions() const { return m_linkOptions; }
  /// Reads the model's file again after it changed on disk (the file watcher calls it once the
  /// file has been quiet for kReloadDelayMs): with unsaved edits it asks first. Keeps the
  /// camera, the selection and, for an animation, the playhead (a live simulation starts
  /// again from the file's initial state). A file that no longer opens gets its dialog and a
  /// status-bar message, and the model shown stays as it was. Returns whether it reloaded.
  bool reloadFromDisk();
  static constexpr int kReloadDelayMs = 200;
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
  /// File > Save Screenshot (Ctrl+P): the view as a PNG beside the model's file (a model
  /// without a file: the pictures folder), named MODEL-yyyyMMdd-HHmmss.png after `when` (and
  /// numbered, never overwriting one); errors in a dialog. Returns the path, or empty.
  QString saveScreenshot(const QDateTime& when = QDateTime::currentDateTime());
  /// Exports the recording as images or a video with a progress dialog (cancellable); errors
  /// in a dialog. A sweep's runs played together are drawn as the view draws them (their
  /// ghosts added to options.ghosts). Returns whether every frame was written.
  bool exportAnimation(const ExportOptions& options);
  /// Exports the model as URDF (a path ending in .urdf) or as spatial_v2 JSON, atomically;
  /// what the file cannot hold is listed in the status bar and the Import report dock (raised),
  /// a refusal (a model URDF cannot describe) in a dialog. Returns whether the file was written.
  bool exportModel(const QString& path);
  /// Stores the viewport's current camera in the model (marks the document modified).
  void saveCameraToModel();
  /// Offers the documents that processes which ended without a clean exit left in the
  /// recovery folder (recovery.h), newest first, one dialog each: Recover opens it as an unsaved,
  /// modified document titled after its original file (and offers no more), Discard deletes it,
  /// Later keeps it for the next start. Returns whether one was recovered. The application
  /// calls it once at startup.
  bool offerRecovery();
  /// Opens a recovery document as the unsaved changes of its original file (see offerRecovery)
  /// and moves it to this process's recovery file. Returns false, after an error dialog, when
  /// it does not open.
  bool recover(const RecoveryEntry& entry);

  /// File > Open Sweep: shows a sweep's results folder (docs/sweeps.md) in the sweep window
  /// (sweep_window.h), which it creates once. On failure shows the error in a dialog and
  /// returns false.
  bool openSweep(const QString& dir);
  /// Plays run `run` of the sweep shown in the sweep window: its model variant with the run's
  /// recording (re-simulated when the sweep kept none) as an unsaved recording. Asks about
  /// unsaved changes first. Runs of rigid-body and structure sweeps, and invalid runs, get an
  /// error dialog. Returns whether it opened.
  bool openSweepRun(long run);
  /// Plays several runs of the sweep together in one time base: the first as the model (as
  /// openSweepRun), the others as translucent ghosts (Viewport::setGhosts) posed from their
  /// recordings at the playhead, their chosen quantities dashed in the plots. At most
  /// kMaxGhosts ghosts. Opening another model removes them. Returns whether all opened (an
  /// error dialog otherwise, the first run staying open without ghosts).
  bool openSweepRuns(const QList<long>& runs);
  static constexpr int kMaxGhosts = 15;
  /// The runs shown as ghosts now.
  QList<long> ghostRuns() const;
  /// The sweep window, or null before the first sweep.
  SweepWindow* sweepWindow() const { return m_sweepWindow; }

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
  /// The model's name as the title and prompts show it: its file's name, else the model's
  /// name, else "untitled".
  QString displayName() const;
  /// Every key of the window, from its actions (menu or group, key, what it does) and the
  /// view's own keys: what Help > Keyboard Shortcuts lists.
  QList<QStringList> keyboardShortcuts() const;
  /// Where exports of the model go by default, without extension: beside its file with its
  /// base name, else the model's name (in the dialog's folder).
  QString exportStem() const;
  Viewport* viewport() const { return m_viewport; }
  Playback* playback() const { return m_playback; }
  ModelDocument* document() const { return m_document; }
  ModelTreePanel* modelTree() const { return m_tree; }
  PropertiesPanel* properties() const { return m_properties; }
  PlaybackBar* playbackBar() const { return m_playbackBar; }
  PlotsPanel* plots() const { return m_plots; }
  JointSlidersPanel* jointSliders() const { return m_joints; }
  ControlsPanel* controlsPanel() const { return m_controlsPanel; }
  EqualityPanel* equalityPanel() const { return m_equalityPanel; }
  /// Simulation > Add Servos: a position servo (servos.h, kServoFrequency) on every joint
  /// without a drive, holding the shown pose, as one undoable edit; returns how many (0 with a
  /// message when there is nothing to add or no tree).
  int addServos();
  static constexpr double kServoFrequency = 5.0;  // Hz
  /// Simulation > Load Controls: drives the simulation's actuators by the CSV control table at
  /// `path` (formats/controls.h), from where the simulation is; returns the refusal (shown), or
  /// empty.
  QString loadControls(const QString& path);
  KeyframesPanel* keyframes() const { return m_keyframes; }
  ImportReportPanel* importReport() const { return m_report; }
  QDockWidget* importReportDock() const { return m_reportDock; }
  /// Stores the state at the playhead as a keyframe of the model (named `name`; empty: the next
  /// "Keyframe N"), one undoable edit. Returns the refusal (no timeline, a rigid body or
  /// structure, a name in use), or empty; the status bar tells either.
  QString addKeyframe(const QString& name = {});
  /// Shows keyframe k as the paused state: a live simulation pauses at the keyframe's time
  /// (clamped to the recording), drops the samples after it and takes its state there, so that
  /// Play continues from it; an animation moves its playhead to that time. Returns false for
  /// an index out of range.
  bool restoreKeyframe(int k);
  /// Issue 32: a state that puts the tree's ground-contact points deeper than the ground takes
  /// elastically (kGroundElasticStartDepth; a keyframe, the file's initial state) on a robot
  /// whose root is a free joint: asks whether to lift the root by that depth so that the lowest
  /// point touches the ground. Returns q, lifted when the user says Yes. `what` names the state.
  Eigen::VectorXd offerToLift(const Eigen::VectorXd& q, const QString& what);
  /// Whether questions that are offers (offerToLift) are asked and errors shown in message
  /// boxes; off for unattended runs (--grab-window), which keep the state as it is and print
  /// errors to stderr instead of waiting for a click.
  void setAsking(bool asking) { m_asking = asking; }
  Autosaver* autosaver() const { return m_autosaver; }

 protected:
  void showEvent(QShowEvent* event) override;
  void closeEvent(QCloseEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  void createMenus();
  void createDocks();
  bool openDocument(const QString& file);
  /// Shows the Import report dock and brings it to the front of its tabs.
  void raiseImportReport();
  /// How the URDF `file` is read: the base chosen for it (automatic unless chosen) and the
  /// settings' package folders.
  UrdfReading urdfReading(const QString& file) const;
  /// File > URDF Base: remembers the choice for the open URDF and reads it again with it.
  void setUrdfBase(const QString& base);
  /// File > URDF Base shows the open robot's base; disabled when no URDF is open.
  void updateUrdfBaseMenu();
  void writeDocument(const std::string& path) const;
  void poseJoints(const Eigen::VectorXd& q);
  void createPlaybackBar();
  void createBuildBar();
  bool showModel(LoadedModel loaded, std::optional<RigidBodySpec> rigid,
                 std::optional<natural::StructureSpec> structure, const Eigen::VectorXd& q,
                 const QString& file);
  void openDialog();
  void openFromUser(const QString& path);
  void updateRecentMenu();
  void rememberFile(const QString& path);
  void applyOverlays();
  /// View > Trail the Selected Body (T): adds `body` to the trails (turning Trails on) or
  /// removes it; without a body the status bar says how to choose one.
  void toggleTrail(int body);
  void chooseTrailLength();
  void showPick(const Pick& pick);
  void selectBody(int body);  // in the view, the tree and the Properties dock
  void about();
  void setModified(bool modified);
  void autosaveFailed(const QString& why);
  void updateTitle();
  bool maybeSave();
  void showError(const QString& title, const QString& details);
  void createShortcuts();
  void watchFile();          // watches m_path (none: stops), remembering its content's hash
  void fileChangedOnDisk();  // the watcher's debounced change: reloads if the bytes differ
  void startTimeline();
  void documentChanged(ModelDocument::Change change);
  /// documentChanged's work: the timeline follows the edited model (carried over, restarted
  /// from an edited initial state, set aside or brought back).
  void followDocument(ModelDocument::Change change);
  /// After an edit, brings back the newest timeline set aside for the model whose canonical
  /// JSON is `key` (an undo): its motion, or a live recording with the simulation at its end.
  bool restoreSetAside(const std::string& key);
  std::unique_ptr<System> makeSystem() const;
  void showFrame();
  /// The status overlay's text (View > Status Overlay) for the frame shown now.
  QString statusOverlayText();
  /// m_poses, m_segments and m_annotations of the state (q, qd) at the playhead (computeFrame;
  /// qd of another size: the segments' elastic tension alone).
  void computeState(const Eigen::VectorXd& q, const Eigen::VectorXd& qd);
  /// Shows the state (q, qd) in the viewport (computeState).
  void showState(const Eigen::VectorXd& q, const Eigen::VectorXd& qd);
  void simulationProblem(const QString& message);
  void chooseIntegrator(const QString& name);
  // Simulation > Integrator > Energy Projection: an undoable edit of the model's
  // simulation.energy_projection
  void setEnergyProjection(bool on);
  void updateIntegratorMenu();
  // a tree model that is simulated (not a recorded motion, rigid body or structure): the one
  // whose integrator settings the Simulation menu edits
  bool simulatesTree() const;
  void chooseStep();
  // Simulation > Physics...: the constraint model and the soft model's solver settings
  void choosePhysics();
  void saveRecordingDialog();
  void exportImageDialog();
  /// The export dialog, its time range preset to `range` (s; e.g. two keyframes' times) or
  /// the whole recording.
  void exportAnimationDialog(bool video, std::optional<std::pair<double, double>> range = {});
  void exportModelDialog(bool urdf);
  void showKeys();

  Viewport* m_viewport = nullptr;
  Settings m_settings;
  std::optional<LoadedModel> m_model;  // a rigid body: its display model (m_rigid holds it)
  std::optional<RigidBodySpec> m_rigid;
  std::optional<natural::StructureSpec> m_structure;  // a structure: m_model holds its display model
  QString m_path;  // the model's file, absolute
  QFileSystemWatcher* m_watcher = nullptr;  // m_path, for reloading when it changes on disk
  QTimer* m_reloadTimer = nullptr;
  QByteArray m_diskHash;  // the hash of m_path's bytes as last read or written here
  QString m_lastError;
  std::unique_ptr<System> m_display;  // names and body poses of the open model's states
  std::unique_ptr<System> m_probe;    // the force overlays' evaluations (computeFrame)
  /// The Controls dock at the shown time: the controls then in force and the actuators' forces.
  void showControls();
  /// The Equality dock at the shown time: the switches then in force, which the probe takes.
  void showEqualities();
  /// The Plots dock's actuator and tendon quantities (ctrl, force, act, length), for a tree.
  void setActuationPlots();
  std::vector<BodyPose> m_poses;
  std::vector<SegmentReport> m_segments;  // springs and cables of a structure, the mouse's pull
  Annotations m_annotations;              // the force overlays of the frame shown
  ModelDocument* m_document = nullptr;
  ModelTreePanel* m_tree = nullptr;
  PropertiesPanel* m_properties = nullptr;
  bool m_resetting = false, m_cameraEdit = false;
  bool m_autosaveWarned = false;  // a dialog has told of the current run of autosave failures
  Playback* m_playback = nullptr;
  PlaybackBar* m_playbackBar = nullptr;
  PlotsPanel* m_plots = nullptr;
  JointSlidersPanel* m_joints = nullptr;
  ControlsPanel* m_controlsPanel = nullptr;  // the actuators' controls (controls.h)
  EqualityPanel* m_equalityPanel = nullptr;  // the equality constraints' switches (equalities.h)
  KeyframesPanel* m_keyframes = nullptr;
  ImportReportPanel* m_report = nullptr;
  QDockWidget* m_reportDock = nullptr;
  SweepWindow* m_sweepWindow = nullptr;
  struct Ghost {  // a sweep run played beside the model (openSweepRuns)
    long run = 0;
    ModelSpec spec;
    Recording recording;
  };
  /// Drops the ghosts (and their plots) once the viewport has dropped them: any change of the
  /// viewport's model (an edit, another model) does. Returns whether ghosts are shown.
  bool syncGhosts();
  std::deque<Ghost> m_ghosts;  // deque: the plots hold pointers to the recordings
  Autosaver* m_autosaver = nullptr;
  QMenu* m_integratorMenu = nullptr;
  QAction* m_energyProjection = nullptr;  // Simulation > Integrator > Energy Projection
  QMenu* m_recentMenu = nullptr;
  QActionGroup* m_urdfBaseGroup = nullptr;  // File > URDF Base
  QAction* m_saveAction = nullptr;
  QAction* m_saveAsAction = nullptr;
  QAction* m_saveCameraAction = nullptr;
  QAction* m_bodyFramesAction = nullptr;
  QAction* m_jointAxesAction = nullptr;
  QAction* m_comAction = nullptr;
  QAction* m_sitesAction = nullptr;
  QAction* m_collisionGeomsAction = nullptr;
  bool m_asking = true;  // setAsking
  QAction* m_statusOverlayAction = nullptr;
  QAction* m_contactForcesAction = nullptr;
  QAction* m_constraintForcesAction = nullptr;
  QAction* m_systemComAction = nullptr;
  QAction* m_bodyNamesAction = nullptr;
  QAction* m_trailsAction = nullptr;
  std::vector<int> m_trailBodies;  // the bodies leaving trails (cleared by another model)
  std::deque<qint64> m_frameTimes;  // wall times (ms) of the frames shown in the last second
  QAction* m_addBodyAction = nullptr;
  QAction* m_moveAction = nullptr;
  LinkOptionsForm* m_linkOptions = nullptr;
  /// Timelines an edit could not carry over (the model's state sizes or structure changed, so
  /// its recording or recorded motion no longer fits it): kept, moved and not copied, with the
  /// model they belong to, so that undoing the edit brings them back. Newest last; at most
  /// kSetAsideLimit, cleared when another model is opened.
  struct SetAside {
    std::string spec;  // the canonical JSON of the model the timeline belongs to
    Recording recording;
    std::optional<Motion> motion;  // the model's own motion (an animation), else a live recording
    double time = 0.0;             // the playhead
  };
  static constexpr std::size_t kSetAsideLimit = 8;
  std::deque<SetAside> m_setAside;
  bool m_shownOnce = false;
  QDialog* m_keysDialog = nullptr;  // Help > Keyboard Shortcuts, made on first use  // the first show sizes the docks (showEvent)
};

}  // namespace art::gui
