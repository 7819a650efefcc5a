#pragma once
// The Plots dock: live plots (Qt Charts) of chosen joint positions and velocities and of the
// kinetic, potential and total energy of the timeline's recording, with a cursor at the
// playback time and CSV export of the plotted quantities at every sample.

#include <string>
#include <vector>

#include <QWidget>

#include "articulate/recording.h"

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

  /// The joint names of the model being plotted (one per joint); resets the choice to the
  /// three energies.
  void setJoints(const std::vector<std::string>& names);
  /// Plots `recording` (at most kMaxPoints points per series) soon: redraws at most 5 times a
  /// second however often it is called. The recording must outlive the next redraw.
  void setRecording(const Recording* recording);
  /// Moves the cursor to time t (s).
  void setCursor(double t);
  /// Redraws now.
  void redraw();
  /// Writes the chosen quantities at every sample as CSV (header: t, then the quantities'
  /// names). Throws std::runtime_error naming the file when it cannot be written.
  void exportCsv(const QString& path) const;

  /// The names of the chosen quantities, e.g. "total", "q[1] link2".
  QStringList chosen() const;
  /// Chooses quantities by name (the others are cleared).
  void choose(const QStringList& names);
  /// Points drawn in the named series (for tests).
  int pointCount(const QString& name) const;

  static constexpr int kMaxPoints = 2000;

 private:
  double value(int quantity, std::size_t k) const;  // quantity: 0..2 energies, then q, qd
  QString quantityName(int quantity) const;
  int quantities() const;
  void exportDialog();

  const Recording* m_recording = nullptr;
  std::vector<std::string> m_joints;
  QChart* m_chart = nullptr;
  QValueAxis *m_x = nullptr, *m_y = nullptr;
  QLineSeries* m_cursor = nullptr;
  std::vector<QLineSeries*> m_series;  // per quantity, null when not chosen
  QListWidget* m_list = nullptr;
  QTimer* m_throttle = nullptr;
  double m_cursorTime = 0.0;
};

}  // namespace art::gui
