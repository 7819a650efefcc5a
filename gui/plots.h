#pragma once
// The Plots dock: live plots (Qt Charts) of chosen joint positions and velocities, constraint
// forces, and the kinetic, potential and total energy of the timeline's recording, the energy
// dissipated so far (Recording::dissipated: joint damping, stops and friction) and the total
// plus it (constant for a passive model but for the integrator's error), the actuators' work so
// far (Recording::work) and the total plus dissipated minus it (constant for a driven model but
// for the integrator's error), with a cursor at the
// playback time and CSV export of the plotted quantities at every sample.

#include <functional>
#include <string>
#include <vector>

#include <QColor>
#include <QWidget>

#include "articulate/simulation/recording.h"

class QChart;
class QLineSeries;
class QListWidget;
class QValueAxis;
class QTimer;

namespace art::gui {

class PlotsPanel : public QWidget {
  Q_OBJECT
 public:
  explicit PlotsPanel(QWidget* parent = nullptr);

  /// The names of the plotted system's position and velocity components (System::
  /// positionName, velocityName) and of its constraint forces (one per constraint row, e.g.
  /// "lambda[0] pin.x", then one per soft force channel, System::softForceName, e.g.
  /// "lambda[3] limit knee.lower"; drawn from recordings that hold them: Recording::lambda,
  /// then Recording::softForces); resets the choice to the three
  /// energies, and for a `dissipative` system (joint damping, stops or friction) also
  /// "dissipated" and "total + dissipated", for an `actuated` one "dissipated", "actuator work"
  /// and "total + dissipated - work" instead.
  void setQuantities(const std::vector<std::string>& positions,
                     const std::vector<std::string>& velocities,
                     const std::vector<std::string>& constraints = {}, bool dissipative = false,
                     bool actuated = false);
  /// Quantities derived from a recording's samples, listed after the others (set after
  /// setQuantities, which clears them): their names, and their value at sample k of a
  /// recording (a model's actuators' controls, forces and activations, its tendons' lengths).
  using DerivedValue = std::function<double(const Recording& recording, int quantity, std::size_t sample)>;
  void setDerived(const std::vector<std::string>& names, DerivedValue value);
  /// Plots `recording` (at most kMaxPoints points per series) soon: redraws at most 5 times a
  /// second however often it is called. The recording must outlive the next redraw.
  void setRecording(const Recording* recording);
  /// Other recordings plotted with the same quantities (a sweep's runs played as ghosts):
  /// dashed, in their quantity's colour, named "QUANTITY (LABEL)". Recordings of other sizes
  /// are skipped. They must outlive the next redraw; an empty list removes them, and so does
  /// setQuantities.
  void setGhosts(const std::vector<std::pair<QString, const Recording*>>& ghosts);
  /// The ghost series drawn now (for tests): one per chosen quantity and ghost.
  int ghostSeries() const { return static_cast<int>(m_ghostSeries.size()); }
  /// Moves the cursor to time t (s).
  void setCursor(double t);
  /// Redraws now.
  void redraw();
  /// Writes the chosen quantities at every sample as CSV (header: t, then the quantities'
  /// names). Throws std::runtime_error naming the file when it cannot be written.
  void exportCsv(const QString& path) const;

  /// The names of the chosen quantities, e.g. "total", "total + dissipated", "q[1] link2".
  QStringList chosen() const;
  /// Chooses quantities by name (the others are cleared).
  void choose(const QStringList& names);
  /// Points drawn in the named series (for tests).
  int pointCount(const QString& name) const;

  /// What a quantity measures; each kind plotted gets a y axis of its own (the first on the
  /// left, the others on the right), titled with its units, so that angles never flatten
  /// against joules: energies (J), joint positions (rad or m), velocities (rad/s or m/s),
  /// forces (constraint and actuator forces: N or N m), tendon lengths (m), and controls and
  /// activations (no unit).
  enum class Kind { Energy, Position, Velocity, Force, Length, Control };
  static constexpr int kKinds = 6;
  Kind kindOf(int quantity) const;
  /// The y axis of a kind as drawn now (null when no chosen quantity is of the kind), and the
  /// time axis.
  QValueAxis* axis(Kind kind) const { return m_axes[static_cast<int>(kind)]; }
  QValueAxis* timeAxis() const { return m_x; }
  /// The pen colour of the named series (invalid when not drawn) and of the "now" line.
  QColor seriesColour(const QString& name) const;
  static QColor nowColour();
  /// A tick spacing of 1, 2 or 5 times a power of ten giving about `ticks` intervals over
  /// `span`, and the decimals its labels need.
  static double niceStep(double span, int ticks, int* decimals = nullptr);

  static constexpr int kMaxPoints = 2000;
  /// The energy series, first in the list: kinetic, potential, total, dissipated, total +
  /// dissipated, actuator work, total + dissipated - work.
  static constexpr int kEnergies = 7;

 private:
  // quantity: 0..kEnergies-1 energies, then q, qd, lambda of recording r at sample k
  double value(const Recording& r, int quantity, std::size_t k) const;
  QString quantityName(int quantity) const;
  int quantities() const;
  void exportDialog();

  const Recording* m_recording = nullptr;
  std::vector<std::string> m_names;  // positions, velocities, then constraint forces
  int m_nq = 0, m_nv = 0, m_nc = 0, m_nd = 0;  // ... and derived quantities
  DerivedValue m_derived;
  QChart* m_chart = nullptr;
  // the y axes by kind, created when a quantity of the kind is chosen; the "now" line lives
  // on a hidden axis of its own from 0 to 1
  QValueAxis *m_x = nullptr, *m_axes[kKinds] = {}, *m_nowAxis = nullptr;
  void setRounded(QValueAxis* axis, double lo, double hi, int ticks);
  QLineSeries* m_cursor = nullptr;
  std::vector<QLineSeries*> m_series;  // per quantity, null when not chosen
  std::vector<std::pair<QString, const Recording*>> m_ghosts;
  std::vector<QLineSeries*> m_ghostSeries;
  QListWidget* m_list = nullptr;
  QTimer* m_throttle = nullptr;
  double m_cursorTime = 0.0;
};

}  // namespace art::gui
