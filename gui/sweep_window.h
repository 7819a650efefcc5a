#pragma once
// File > Open Sweep: a sweep's results (articulate/batch/sweep.h, docs/sweeps.md) in a window of
// their own: the table (sortable by any column, numbers as numbers; filtered by text and by
// status), a scatter or line plot of any numeric column against another (Qt Charts; a click on
// a point selects its run), and Open Run (or a double-click), which plays the run's recording
// in the main window.

#include <QWidget>

#include "articulate/batch/sweep.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QStandardItemModel;
class QTableView;

class QChartView;
class QScatterSeries;
class QLineSeries;

namespace art::gui {

class RunFilter;

class SweepWindow : public QWidget {
  Q_OBJECT
 public:
  explicit SweepWindow(QWidget* parent = nullptr);

  /// Reads a results folder (sweep::readResults) and shows it. Returns the error, or empty (the
  /// window then shows the new sweep; on an error it keeps what it showed).
  QString load(const QString& dir);
  const sweep::Results& results() const { return m_results; }

  /// The runs the table shows, in its order (after sorting and filtering).
  QList<long> shownRuns() const;
  /// The selected runs, in the table's order.
  QList<long> selectedRuns() const;
  /// Selects one run's row (and shows it); false when the filter hides it.
  bool selectRun(long run);
  /// The plot's axes: column names of the table's numeric columns.
  bool setAxes(const QString& x, const QString& y);
  /// The plotted points (x, y) and their runs, in the order drawn.
  const std::vector<std::pair<QPointF, long>>& points() const { return m_points; }
  /// The run whose point is nearest to `value` (chart coordinates; scaled per axis), or -1.
  long runNearest(const QPointF& value) const;

  QTableView* table() const { return m_table; }
  QLineEdit* filter() const { return m_filter; }
  QComboBox* statusFilter() const { return m_status; }
  QComboBox* xAxis() const { return m_x; }
  QComboBox* yAxis() const { return m_y; }
  QCheckBox* lines() const { return m_lines; }
  QChartView* chartView() const { return m_chartView; }
  QPushButton* openButton() const { return m_open; }
  QPushButton* togetherButton() const { return m_together; }

 signals:
  /// Open Run was clicked, or a row double-clicked.
  void openRunRequested(long run);
  /// Play Together was clicked with two or more runs selected (table order).
  void playRunsRequested(const QList<long>& runs);

 private:
  void fillTable();
  void replot();
  sweep::Results m_results;
  std::vector<bool> m_numeric;  // per column
  QStandardItemModel* m_model;
  RunFilter* m_proxy;
  QLabel* m_summary;
  QLineEdit* m_filter;
  QComboBox *m_status, *m_x, *m_y;
  QCheckBox* m_lines;
  QTableView* m_table;
  QChartView* m_chartView;
  QScatterSeries* m_scatter = nullptr;
  QLineSeries* m_line = nullptr;
  QPushButton *m_open, *m_together;
  std::vector<std::pair<QPointF, long>> m_points;
  bool m_filling = false;
};

}  // namespace art::gui
