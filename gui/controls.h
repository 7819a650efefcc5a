#pragma once
// The Controls dock: one row per actuator of the model (ActuatorSpec), as MuJoCo's simulate
// has in its Control panel: the actuator's name (its shortcut and transmission in the
// tooltip), a slider over its control range (ctrl_range, else -1 to 1) with a number beside it
// for exact values, and the force it exerts at the shown state (N, or N m). *Zero all* sets
// every control to zero (or the nearest end of a range that excludes it).
//
// How it meets the simulation (MainWindow wires it): moving a slider or typing a number emits
// controlsEdited with every control; the window hands them to the running (or paused)
// simulation at once (Playback::setControls), which records each change with the time it took
// effect (Recording::controlsAt). While the playhead is off the live end (scrubbing, an
// animation) the rows follow the controls that were in force at the shown time (setShown).

#include <array>
#include <optional>
#include <vector>

#include <Eigen/Core>
#include <QWidget>

class QDoubleSpinBox;
class QGridLayout;
class QLabel;
class QPushButton;
class QSlider;

namespace art {
struct ActuatorSpec;
struct ModelSpec;
}  // namespace art

namespace art::gui {

/// The layout of a dock panel of rows (the Controls and Equality docks): a vertical layout on
/// `panel` holding a wrapped note (`noteLabel`: what the panel says while it has no rows), then
/// a frameless scroll area; returns the widget inside the scroll area, for the rows.
QWidget* addNoteAndRows(QWidget* panel, const QString& note, QLabel*& noteLabel);

class ControlsPanel : public QWidget {
  Q_OBJECT
 public:
  /// Slider steps over a control's range.
  static constexpr int kSteps = 2000;

  explicit ControlsPanel(QWidget* parent = nullptr);

  /// Builds one row per actuator of `spec` (none: a note saying the model has no actuators);
  /// the controls start at their initial values (ActuatorSpec::ctrl0, clamped into their
  /// ranges).
  void setModel(const ModelSpec& spec);
  /// Shows controls (one per actuator; empty: zero) and forces (one per actuator; empty: none)
  /// without emitting controlsEdited.
  void setShown(const Eigen::VectorXd& ctrl, const Eigen::VectorXd& force);
  /// The controls the rows show (one per actuator).
  const Eigen::VectorXd& controls() const { return m_ctrl; }
  /// Sets every control to zero (or the nearest end of its range) and emits controlsEdited.
  void zeroAll();

  // for tests
  int rowCount() const { return static_cast<int>(m_rows.size()); }
  QSlider* slider(int row) const { return m_rows[static_cast<std::size_t>(row)].slider; }
  QDoubleSpinBox* spinBox(int row) const { return m_rows[static_cast<std::size_t>(row)].spin; }
  QString forceText(int row) const;
  QPushButton* zeroButton() const { return m_zero; }

 signals:
  /// The user changed a control: every control, one per actuator.
  void controlsEdited(const Eigen::VectorXd& ctrl);

 private:
  struct Row {
    QLabel* name = nullptr;
    QSlider* slider = nullptr;
    QDoubleSpinBox* spin = nullptr;
    QLabel* force = nullptr;
    double lo = -1, hi = 1;
  };
  void build(const ModelSpec& spec);
  void setRow(int row, double value);  // slider and number, without signals
  void edited(int row, double value);
  std::vector<Row> m_rows;
  Eigen::VectorXd m_ctrl;
  QGridLayout* m_grid = nullptr;
  QWidget* m_inner = nullptr;
  QLabel* m_note = nullptr;
  QLabel* m_header = nullptr;  // the columns' titles (first row), made with the first actuators
  QPushButton* m_zero = nullptr;
};

}  // namespace art::gui
