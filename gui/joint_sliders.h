#pragma once
// The Joints dock: one slider and one number per joint coordinate, to pose the mechanism
// kinematically (no dynamics). Revolute, helical and planar-revolute joints in degrees (±180°,
// wider when a value is), prismatic joints in metres (± the model's reach, at least 1 m), a
// free joint's position x, y, z and its orientation, and a ball joint's orientation, as the
// components rx, ry, rz of a rotation vector (axis times angle, degrees, |angle| <= 180°;
// editing one component keeps the others and sets the quaternion from the vector). A joint
// driven by a coupling constraint follows its master (q = ratio q_master + offset) and shows
// its value without a slider of its own; loop constraints are not enforced while posing.
//
// Limits (BodySpec::limits, URDF <limit>): a joint with a lower and an upper position stop has
// the stops as its slider's and number's range, and a pose is clamped to them. A row whose joint
// is at or past a stop (within kStopTolerance of the stops' range, or of 1 rad or m when that is
// smaller) or moves faster than its velocity limit is marked: its name and a note beside it
// ("at lower stop", "at upper stop", "past upper stop", "over velocity limit") turn orange,
// following every pose shown. Each row's tooltip lists the joint's limits, damping and friction.
//
// How it meets the model and the timeline (MainWindow wires it):
//  - moving a slider emits poseEdited with the whole pose; the window shows it and, on a
//    paused live simulation, makes it the simulation's state at the playhead, so that Play
//    continues from the pose (the velocities stay; later samples are discarded, as "resume
//    from here" does). On an animation the pose is shown until the playhead moves.
//  - while playback runs the sliders are read-only and follow the shown state (setPose).
//  - "Set as initial state" writes the shown pose into the model's initial positions (q0, a
//    free joint's position and orientation, a ball joint's orientation) as one undoable command,
//    "Set initial pose".

#include <optional>
#include <vector>

#include <Eigen/Core>
#include <map>
#include <string>

#include <QWidget>

class QDoubleSpinBox;
class QGridLayout;
class QLabel;
class QPushButton;
class QScrollArea;
class QSlider;

namespace art::gui {

class ModelDocument;

class JointSlidersPanel : public QWidget {
  Q_OBJECT
 public:
  /// Slider steps per displayed unit: 0.1 degree, 1 mm.
  static constexpr int kStepsPerDegree = 10;
  static constexpr int kStepsPerMetre = 1000;

  explicit JointSlidersPanel(ModelDocument* document, QWidget* parent = nullptr);

  /// A joint within this fraction of its stops' range (at least 1 rad or m) of a stop is at it.
  static constexpr double kStopTolerance = 1e-9;

  /// Shows a pose (the model's q, of size nq) and its velocities (qd, of size nv; another size:
  /// none, so no velocity limit is marked) without emitting poseEdited; a pose of another size
  /// is ignored.
  void setPose(const Eigen::VectorXd& q, const Eigen::VectorXd& qd = {});
  /// The pose shown (size nq of the document's model).
  const Eigen::VectorXd& pose() const { return m_pose; }
  /// Greys the sliders and numbers (playback runs); they still follow setPose.
  void setReadOnly(bool readOnly);
  bool readOnly() const { return m_readOnly; }
  /// The joints' names in the model's file (URDF, MJCF), by body name: rows are labelled by
  /// them, with the body in the tooltip; a body not listed (or renamed since) shows its own
  /// name. Rebuilds the rows.
  void setJointNames(const std::map<std::string, std::string>& names);
  /// The panel is unavailable for this model, with the reason shown instead of the sliders
  /// (rigid bodies and structures); an empty reason makes it available again.
  void setUnavailable(const QString& reason);

  /// Number of coordinate rows, and each row's widgets, index into q and label (for tests).
  int rowCount() const { return static_cast<int>(m_rows.size()); }
  QSlider* slider(int row) const { return m_rows[row].slider; }
  QDoubleSpinBox* spinBox(int row) const { return m_rows[row].spin; }
  int coordinate(int row) const { return m_rows[row].index; }
  QString rowLabel(int row) const;
  /// The row's limit marker ("at lower stop", "over velocity limit", ...; empty when none) and
  /// its tooltip (the joint's limits, damping and friction).
  QString rowMarker(int row) const;
  QString rowToolTip(int row) const;

  /// Writes the shown pose into the model's initial state as the undoable "Set initial pose".
  /// Returns the reason it was refused, or empty (also when the pose is already the initial
  /// state: then nothing is pushed).
  QString setAsInitialState();

 signals:
  /// The user moved a slider or typed a number: the whole pose (size nq).
  void poseEdited(const Eigen::VectorXd& q);

 private:
  struct Row {
    int body = -1;
    int index = 0;        // into q (a rotation row: the quaternion's first entry, w)
    int rotation = -1;    // k >= 0: component k of the quaternion's rotation vector (free, ball)
    double scale = 1.0;   // displayed units per unit of q (degrees per radian, or 1)
    int steps = 1;        // slider steps per displayed unit
    int vIndex = 0;       // into qd
    bool coupled = false; // follows a coupling constraint's master
    std::optional<double> lower, upper, velocity;  // position stops (rad or m), speed limit
    QLabel* label = nullptr;
    QLabel* marker = nullptr;  // "at lower stop", ...
    QSlider* slider = nullptr;
    QDoubleSpinBox* spin = nullptr;
  };
  void documentChanged();
  void rebuild();
  void showValues();
  void setRange(Row& row, double displayed);
  void applyLimits();
  void showMarker(Row& row);
  void edited(int row, double displayed);
  /// The row's value in q's units: q itself, or a rotation vector's component (rad).
  double value(const Row& row) const;
  void applyCouplings(Eigen::VectorXd& q) const;
  QString structureKey() const;

  ModelDocument* m_doc;
  std::vector<Row> m_rows;
  std::vector<int> m_qIndex, m_vIndex;  // first position and velocity variable of each joint
  Eigen::VectorXd m_pose, m_velocity;  // m_velocity: empty when not known
  int m_nv = 0;
  double m_reach = 1.0;  // m: the range of prismatic and free-joint sliders
  QString m_key;          // what the rows were built for
  std::map<std::string, std::string> m_jointNames;  // body name -> the file's joint name
  bool m_updating = false, m_readOnly = false;
  QScrollArea* m_scroll;
  QWidget* m_rowsWidget;
  QGridLayout* m_grid;
  QLabel *m_note, *m_unavailable;
  QPushButton* m_setInitial;
};

}  // namespace art::gui
