#include "sweep_window.h"

#include <QCheckBox>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QLineSeries>
#include <QPushButton>
#include <QScatterSeries>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace art::gui {

namespace {
constexpr int kSortRole = Qt::UserRole;       // numbers as doubles (an empty cell: last), text as text
constexpr int kValueRole = Qt::UserRole + 1;  // numbers as doubles, an empty cell NaN
constexpr int kRunRole = Qt::UserRole + 2;    // the run, on each row's first cell

// a number as the table writes it, whatever the user's locale (Qt sets LC_NUMERIC from it, and
// std::stod would stop at a '.' under a decimal comma); subnormals included
bool parseNumber(const std::string& text, double& out) {
  if (text.empty()) return false;
  bool ok = false;
  out = QLocale::c().toDouble(QString::fromStdString(text), &ok);
  return ok;
}
}  // namespace

// the rows whose status is the chosen one (any: empty) and that hold the filter text in a cell
class RunFilter : public QSortFilterProxyModel {
 public:
  using QSortFilterProxyModel::QSortFilterProxyModel;
  void set(const QString& text, const QString& status, int statusColumn) {
    m_text = text.trimmed();
    m_statusText = status;
    m_statusColumn = statusColumn;
    invalidateFilter();
  }

 protected:
  bool filterAcceptsRow(int row, const QModelIndex& parent) const override {
    const QAbstractItemModel* m = sourceModel();
    if (!m_statusText.isEmpty() && m->index(row, m_statusColumn, parent).data().toString() != m_statusText) return false;
    if (m_text.isEmpty()) return true;
    for (int c = 0; c < m->columnCount(); ++c)
      if (m->index(row, c, parent).data().toString().contains(m_text, Qt::CaseInsensitive)) return true;
    return false;
  }

 private:
  QString m_text, m_statusText;
  int m_statusColumn = 0;
};

SweepWindow::SweepWindow(QWidget* parent) : QWidget(parent, Qt::Window) {
  setObjectName("sweepWindow");
  setWindowTitle(tr("Sweep"));
  resize(1100, 760);
  m_summary = new QLabel(this);
  m_summary->setWordWrap(true);
  m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_filter = new QLineEdit(this);
  m_filter->setPlaceholderText(tr("Filter: rows holding this text in any cell"));
  m_filter->setClearButtonEnabled(true);
  m_status = new QComboBox(this);
  m_status->addItem(tr("All runs"), QString());
  for (const char* s : {"ok", "diverged", "invalid", "error"}) m_status->addItem(QString(s), QString(s));
  m_model = new QStandardItemModel(this);
  m_proxy = new RunFilter(this);
  m_proxy->setSourceModel(m_model);
  m_proxy->setSortRole(kSortRole);
  m_table = new QTableView(this);
  m_table->setModel(m_proxy);
  m_table->setSortingEnabled(true);
  m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_table->verticalHeader()->hide();
  m_table->horizontalHeader()->setStretchLastSection(true);
  m_x = new QComboBox(this);
  m_y = new QComboBox(this);
  m_lines = new QCheckBox(tr("Lines"), this);
  m_lines->setToolTip(tr("Join the points in the order of the x axis"));
  m_chartView = new QChartView(new QChart, this);
  m_chartView->setRenderHint(QPainter::Antialiasing);
  m_chartView->chart()->legend()->hide();
  m_chartView->setMinimumHeight(220);
  m_open = new QPushButton(tr("&Open Run"), this);
  m_open->setToolTip(tr("Play the selected run's recording in the main window (double-click a row does too)"));
  m_open->setEnabled(false);
  m_together = new QPushButton(tr("Play &Together"), this);
  m_together->setToolTip(tr("Play the selected runs at once: the first as the model, the others as "
                            "translucent ghosts, with their plots dashed"));
  m_together->setEnabled(false);

  auto* filters = new QHBoxLayout;
  filters->addWidget(m_filter, 1);
  filters->addWidget(m_status);
  auto* axes = new QHBoxLayout;
  axes->addWidget(new QLabel(tr("Plot"), this));
  axes->addWidget(m_y, 1);
  axes->addWidget(new QLabel(tr("against"), this));
  axes->addWidget(m_x, 1);
  axes->addWidget(m_lines);
  auto* plot = new QWidget(this);
  auto* plotLayout = new QVBoxLayout(plot);
  plotLayout->setContentsMargins(0, 0, 0, 0);
  plotLayout->addLayout(axes);
  plotLayout->addWidget(m_chartView, 1);
  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(m_table);
  split->addWidget(plot);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  auto* buttons = new QHBoxLayout;
  buttons->addStretch(1);
  buttons->addWidget(m_together);
  buttons->addWidget(m_open);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(m_summary);
  layout->addLayout(filters);
  layout->addWidget(split, 1);
  layout->addLayout(buttons);

  auto refilter = [this] {
    const int statusColumn = static_cast<int>(std::find(m_results.columns.begin(), m_results.columns.end(), "status") -
                                              m_results.columns.begin());
    m_proxy->set(m_filter->text(), m_status->currentData().toString(), statusColumn);
    replot();
  };
  connect(m_filter, &QLineEdit::textChanged, this, refilter);
  connect(m_status, &QComboBox::currentIndexChanged, this, refilter);
  connect(m_x, &QComboBox::currentIndexChanged, this, [this] { replot(); });
  connect(m_y, &QComboBox::currentIndexChanged, this, [this] { replot(); });
  connect(m_lines, &QCheckBox::toggled, this, [this] { replot(); });
  connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
          [this] {
            const qsizetype n = selectedRuns().size();
            m_open->setEnabled(n == 1);
            m_together->setEnabled(n >= 2);
          });
  connect(m_table, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
    emit openRunRequested(m_proxy->index(index.row(), 0).data(kRunRole).toLongLong());
  });
  connect(m_together, &QPushButton::clicked, this, [this] {
    const QList<long> runs = selectedRuns();
    if (runs.size() >= 2) emit playRunsRequested(runs);
  });
  connect(m_open, &QPushButton::clicked, this, [this] {
    const QList<long> runs = selectedRuns();
    if (runs.size() == 1) emit openRunRequested(runs.front());
  });
}

QString SweepWindow::load(const QString& dir) {
  try {
    m_results = sweep::readResults(dir.toStdString());
  } catch (const std::exception& e) {
    return QString::fromStdString(e.what());
  }
  fillTable();
  return {};
}

void SweepWindow::fillTable() {
  m_filling = true;
  const auto& r = m_results;
  const std::size_t columns = r.columns.size();
  // a column is numeric when every non-empty cell is a number (status and reason never are)
  m_numeric.assign(columns, true);
  for (std::size_t c = 0; c < columns; ++c) {
    bool any = false;
    for (const auto& row : r.rows) {
      double x;
      if (row[c].empty()) continue;
      any = true;
      if (!parseNumber(row[c], x)) m_numeric[c] = false;
    }
    if (!any || r.columns[c] == "status" || r.columns[c] == "reason") m_numeric[c] = false;
  }
  m_model->clear();
  QStringList header;
  for (const std::string& c : r.columns) header << QString::fromStdString(c);
  m_model->setHorizontalHeaderLabels(header);
  for (const auto& row : r.rows) {
    QList<QStandardItem*> items;
    for (std::size_t c = 0; c < columns; ++c) {
      auto* item = new QStandardItem(QString::fromStdString(row[c]));
      double x = std::numeric_limits<double>::quiet_NaN();
      if (m_numeric[c]) {
        parseNumber(row[c], x);
        item->setData(std::isnan(x) ? std::numeric_limits<double>::infinity() : x, kSortRole);
        item->setData(x, kValueRole);
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
      } else {
        item->setData(QString::fromStdString(row[c]), kSortRole);
      }
      if (c == 0) item->setData(static_cast<qlonglong>(std::stol(row[0])), kRunRole);
      items << item;
    }
    m_model->appendRow(items);
  }
  m_table->sortByColumn(0, Qt::AscendingOrder);
  m_table->resizeColumnsToContents();
  // the plot's axes: the numeric columns; y a metric, x the first parameter
  const QString x = m_x->currentText(), y = m_y->currentText();
  m_x->clear();
  m_y->clear();
  for (std::size_t c = 0; c < columns; ++c)
    if (m_numeric[c]) {
      m_x->addItem(header[static_cast<int>(c)]);
      m_y->addItem(header[static_cast<int>(c)]);
    }
  const std::size_t params = r.spec.parameters.size();
  const int firstParam = m_x->findText(params ? header[1] : QString("run"));
  const int firstMetric = r.spec.metrics.empty() ? -1 : m_y->findText(QString::fromStdString(r.spec.metrics.front().column()));
  m_x->setCurrentIndex(m_x->findText(x) >= 0 ? m_x->findText(x) : std::max(firstParam, 0));
  m_y->setCurrentIndex(m_y->findText(y) >= 0 ? m_y->findText(y) : std::max(firstMetric, 0));
  long ok = 0, diverged = 0, invalid = 0, error = 0;
  const auto status = std::find(r.columns.begin(), r.columns.end(), "status") - r.columns.begin();
  for (const auto& row : r.rows) {
    const std::string& s = row[static_cast<std::size_t>(status)];
    (s == "ok" ? ok : s == "diverged" ? diverged : s == "invalid" ? invalid : error) += 1;
  }
  const QString model = QFileInfo(QString::fromStdString(r.spec.model)).fileName();
  setWindowTitle(tr("Sweep %1").arg(QFileInfo(QString::fromStdString(r.dir)).fileName()));
  m_summary->setText(tr("<b>%1</b>: %2 of %3 runs of <b>%4</b> (%5 ok, %6 diverged, %7 invalid%8), %9 s each")
                         .arg(QString::fromStdString(r.dir).toHtmlEscaped())
                         .arg(r.rows.size())
                         .arg(r.spec.runs())
                         .arg(model.toHtmlEscaped())
                         .arg(ok)
                         .arg(diverged)
                         .arg(invalid)
                         .arg(error ? tr(", %1 error").arg(error) : QString())
                         .arg(r.spec.duration));
  m_filling = false;
  replot();
}

QList<long> SweepWindow::shownRuns() const {
  QList<long> out;
  for (int row = 0; row < m_proxy->rowCount(); ++row) out << m_proxy->index(row, 0).data(kRunRole).toLongLong();
  return out;
}

QList<long> SweepWindow::selectedRuns() const {
  QList<long> out;
  QModelIndexList rows = m_table->selectionModel()->selectedRows();
  std::sort(rows.begin(), rows.end(), [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
  for (const QModelIndex& i : rows) out << i.data(kRunRole).toLongLong();
  return out;
}

bool SweepWindow::selectRun(long run) {
  for (int row = 0; row < m_proxy->rowCount(); ++row)
    if (m_proxy->index(row, 0).data(kRunRole).toLongLong() == run) {
      m_table->selectRow(row);
      m_table->scrollTo(m_proxy->index(row, 0));
      return true;
    }
  return false;
}

bool SweepWindow::setAxes(const QString& x, const QString& y) {
  const int ix = m_x->findText(x), iy = m_y->findText(y);
  if (ix < 0 || iy < 0) return false;
  m_x->setCurrentIndex(ix);
  m_y->setCurrentIndex(iy);
  replot();
  return true;
}

long SweepWindow::runNearest(const QPointF& value) const {
  const QChart* chart = m_chartView->chart();
  const auto axes = chart->axes();
  if (axes.size() < 2 || m_points.empty()) return -1;
  const auto* ax = static_cast<const QValueAxis*>(chart->axes(Qt::Horizontal).front());
  const auto* ay = static_cast<const QValueAxis*>(chart->axes(Qt::Vertical).front());
  const double sx = std::max(ax->max() - ax->min(), 1e-300), sy = std::max(ay->max() - ay->min(), 1e-300);
  long best = -1;
  double nearest = std::numeric_limits<double>::infinity();
  for (const auto& [p, run] : m_points) {
    const double d = std::hypot((p.x() - value.x()) / sx, (p.y() - value.y()) / sy);
    if (d < nearest) nearest = d, best = run;
  }
  return best;
}

void SweepWindow::replot() {
  if (m_filling) return;
  QChart* chart = m_chartView->chart();
  chart->removeAllSeries();
  for (QAbstractAxis* a : chart->axes()) {
    chart->removeAxis(a);
    delete a;
  }
  m_points.clear();
  m_scatter = nullptr;
  m_line = nullptr;
  const auto column = [&](const QString& name) {
    for (std::size_t c = 0; c < m_results.columns.size(); ++c)
      if (QString::fromStdString(m_results.columns[c]) == name) return static_cast<int>(c);
    return -1;
  };
  const int cx = column(m_x->currentText()), cy = column(m_y->currentText());
  if (cx < 0 || cy < 0) return;
  for (int row = 0; row < m_proxy->rowCount(); ++row) {
    const double x = m_proxy->index(row, cx).data(kValueRole).toDouble();
    const double y = m_proxy->index(row, cy).data(kValueRole).toDouble();
    if (std::isfinite(x) && std::isfinite(y))
      m_points.push_back({QPointF(x, y), m_proxy->index(row, 0).data(kRunRole).toLongLong()});
  }
  std::stable_sort(m_points.begin(), m_points.end(), [](const auto& a, const auto& b) { return a.first.x() < b.first.x(); });
  m_scatter = new QScatterSeries;
  m_scatter->setMarkerSize(7);
  for (const auto& [p, run] : m_points) m_scatter->append(p);
  if (m_lines->isChecked()) {
    m_line = new QLineSeries;
    for (const auto& [p, run] : m_points) m_line->append(p);
    chart->addSeries(m_line);
  }
  chart->addSeries(m_scatter);
  auto* ax = new QValueAxis;
  auto* ay = new QValueAxis;
  ax->setTitleText(m_x->currentText());
  ay->setTitleText(m_y->currentText());
  double x0 = 0, x1 = 1, y0 = 0, y1 = 1;
  if (!m_points.empty()) {
    x0 = x1 = m_points.front().first.x();
    y0 = y1 = m_points.front().first.y();
    for (const auto& [p, run] : m_points) {
      x0 = std::min(x0, p.x()), x1 = std::max(x1, p.x());
      y0 = std::min(y0, p.y()), y1 = std::max(y1, p.y());
    }
  }
  const double mx = (x1 - x0) * 0.05 + (x1 == x0 ? 0.5 * std::max(1.0, std::abs(x0)) : 0);
  const double my = (y1 - y0) * 0.05 + (y1 == y0 ? 0.5 * std::max(1.0, std::abs(y0)) : 0);
  ax->setRange(x0 - mx, x1 + mx);
  ay->setRange(y0 - my, y1 + my);
  ax->applyNiceNumbers();  // ticks at round numbers
  ay->applyNiceNumbers();
  chart->addAxis(ax, Qt::AlignBottom);
  chart->addAxis(ay, Qt::AlignLeft);
  for (QAbstractSeries* s : chart->series()) {
    s->attachAxis(ax);
    s->attachAxis(ay);
  }
  chart->setTitle(tr("%1 against %2 (%3 runs shown)").arg(m_y->currentText(), m_x->currentText()).arg(m_points.size()));
  connect(m_scatter, &QScatterSeries::clicked, this, [this](const QPointF& p) {
    const long run = runNearest(p);
    if (run >= 0) selectRun(run);
  });
}

}  // namespace art::gui
