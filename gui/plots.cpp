// The Plots dock (see plots.h).
#include "plots.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <limits>
#include <stdexcept>

#include <QChart>
#include <QChartView>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLineSeries>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>
#include <QValueAxis>

#include "articulate/formats/files.h"

namespace art::gui {

PlotsPanel::PlotsPanel(QWidget* parent) : QWidget(parent) {
  setObjectName("plotsPanel");
  m_chart = new QChart();
  m_chart->legend()->setAlignment(Qt::AlignBottom);
  m_chart->setMargins(QMargins(2, 2, 2, 2));
  m_x = new QValueAxis(m_chart);
  m_x->setTitleText(tr("t (s)"));
  m_y = new QValueAxis(m_chart);
  m_y->setLabelFormat("%.4g");
  m_chart->addAxis(m_x, Qt::AlignBottom);
  m_chart->addAxis(m_y, Qt::AlignLeft);
  m_cursor = new QLineSeries(m_chart);
  m_cursor->setName(tr("now"));
  m_cursor->setPen(QPen(QColor(200, 40, 40), 1, Qt::DashLine));
  m_chart->addSeries(m_cursor);
  m_cursor->attachAxis(m_x);
  m_cursor->attachAxis(m_y);
  auto* view = new QChartView(m_chart, this);
  view->setRenderHint(QPainter::Antialiasing, false);
  view->setMinimumHeight(160);

  m_list = new QListWidget(this);
  m_list->setObjectName("plotChoice");
  m_list->setMaximumWidth(170);
  connect(m_list, &QListWidget::itemChanged, this, [this] { redraw(); });
  auto* csv = new QPushButton(tr("Export CSV..."), this);
  csv->setObjectName("exportCsvButton");
  connect(csv, &QPushButton::clicked, this, &PlotsPanel::exportDialog);

  auto* side = new QVBoxLayout;
  side->addWidget(m_list, 1);
  side->addWidget(csv);
  auto* row = new QHBoxLayout(this);
  row->setContentsMargins(2, 2, 2, 2);
  row->addWidget(view, 1);
  row->addLayout(side);

  m_throttle = new QTimer(this);
  m_throttle->setSingleShot(true);
  m_throttle->setInterval(200);
  connect(m_throttle, &QTimer::timeout, this, &PlotsPanel::redraw);
  setQuantities({}, {});
}

int PlotsPanel::quantities() const { return kEnergies + static_cast<int>(m_names.size()); }

QString PlotsPanel::quantityName(int k) const {
  if (k < kEnergies)
    return QStringList{"kinetic",         "potential",     "total",
                       "dissipated",      "total + dissipated", "actuator work",
                       "total + dissipated - work"}[k];
  return QString::fromStdString(m_names[k - kEnergies]);
}

double PlotsPanel::value(const Recording& r, int k, std::size_t s) const {
  switch (k) {
    case 0: return r.kinetic(s);
    case 1: return r.potential(s);
    case 2: return r.kinetic(s) + r.potential(s);
    case 3: return r.dissipated(s);
    case 4: return r.kinetic(s) + r.potential(s) + r.dissipated(s);
    case 5: return r.work(s);
    case 6: return r.kinetic(s) + r.potential(s) + r.dissipated(s) - r.work(s);
    default:
      k -= kEnergies;
      if (k < m_nq) return r.q(s)(k);
      if (k < m_nq + m_nv) return r.qd(s)(k - m_nq);
      if (k >= m_nq + m_nv + m_nc) return m_derived ? m_derived(r, k - m_nq - m_nv - m_nc, s) : std::nan("");
      // a recording without constraint forces (a loaded motion) has none to give
      return k - m_nq - m_nv < r.constraintSize() ? r.lambda(s)(k - m_nq - m_nv) : std::nan("");
  }
}

void PlotsPanel::setQuantities(const std::vector<std::string>& positions,
                               const std::vector<std::string>& velocities,
                               const std::vector<std::string>& constraints, bool dissipative,
                               bool actuated) {
  for (QLineSeries* s : m_series)
    if (s) {
      m_chart->removeSeries(s);
      delete s;
    }
  m_names = positions;
  m_names.insert(m_names.end(), velocities.begin(), velocities.end());
  m_names.insert(m_names.end(), constraints.begin(), constraints.end());
  m_nq = static_cast<int>(positions.size());
  m_nv = static_cast<int>(velocities.size());
  m_nc = static_cast<int>(constraints.size());
  m_nd = 0;
  m_derived = nullptr;
  m_series.assign(quantities(), nullptr);
  const QSignalBlocker block(m_list);
  m_list->clear();
  for (int k = 0; k < quantities(); ++k) {
    auto* item = new QListWidgetItem(quantityName(k), m_list);
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
    // a driven model's own balance is total + dissipated - work; a passive one's total + dissipated
    const bool shown = k < 3 || (actuated ? k == 3 || k == 5 || k == 6 : dissipative && k < 5);
    item->setCheckState(shown ? Qt::Checked : Qt::Unchecked);
  }
  m_recording = nullptr;
  m_ghosts.clear();
  redraw();
}

void PlotsPanel::setDerived(const std::vector<std::string>& names, DerivedValue value) {
  for (std::size_t k = static_cast<std::size_t>(kEnergies + m_nq + m_nv + m_nc); k < m_series.size(); ++k)
    if (m_series[k]) {
      m_chart->removeSeries(m_series[k]);
      delete m_series[k];
      m_series[k] = nullptr;
    }
  m_names.resize(static_cast<std::size_t>(m_nq + m_nv + m_nc));
  m_names.insert(m_names.end(), names.begin(), names.end());
  m_nd = static_cast<int>(names.size());
  m_derived = std::move(value);
  m_series.resize(static_cast<std::size_t>(quantities()), nullptr);
  const QSignalBlocker block(m_list);
  while (m_list->count() > kEnergies + m_nq + m_nv + m_nc) delete m_list->takeItem(m_list->count() - 1);
  for (int k = kEnergies + m_nq + m_nv + m_nc; k < quantities(); ++k) {
    auto* item = new QListWidgetItem(quantityName(k), m_list);
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
    item->setCheckState(Qt::Unchecked);
  }
  redraw();
}

void PlotsPanel::setGhosts(const std::vector<std::pair<QString, const Recording*>>& ghosts) {
  m_ghosts = ghosts;
  redraw();
}

QStringList PlotsPanel::chosen() const {
  QStringList names;
  for (int k = 0; k < m_list->count(); ++k)
    if (m_list->item(k)->checkState() == Qt::Checked) names << m_list->item(k)->text();
  return names;
}

void PlotsPanel::choose(const QStringList& names) {
  {
    const QSignalBlocker block(m_list);
    for (int k = 0; k < m_list->count(); ++k)
      m_list->item(k)->setCheckState(names.contains(m_list->item(k)->text()) ? Qt::Checked
                                                                             : Qt::Unchecked);
  }
  redraw();
}

int PlotsPanel::pointCount(const QString& name) const {
  for (int k = 0; k < static_cast<int>(m_series.size()); ++k)
    if (m_series[k] && quantityName(k) == name) return m_series[k]->count();
  return -1;
}

void PlotsPanel::setRecording(const Recording* recording) {
  m_recording = recording;
  if (!m_throttle->isActive()) m_throttle->start();
}

void PlotsPanel::setCursor(double t) {
  m_cursorTime = t;
  const QList<QPointF> line{{t, m_y->min()}, {t, m_y->max()}};
  m_cursor->replace(line);
}

void PlotsPanel::redraw() {
  const bool haveData = m_recording && !m_recording->empty() &&
                        m_recording->positionSize() == m_nq && m_recording->velocitySize() == m_nv;
  // a loaded motion has no constraint forces: their series stay empty
  const bool haveForces = haveData && m_recording->constraintSize() == m_nc;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  const std::size_t size = haveData ? m_recording->size() : 0;
  const std::size_t stride = std::max<std::size_t>(1, (size + kMaxPoints - 1) / kMaxPoints);
  for (int k = 0; k < quantities(); ++k) {
    const bool want = m_list->item(k)->checkState() == Qt::Checked;
    QLineSeries*& series = m_series[k];
    if (!want) {
      if (series) {
        m_chart->removeSeries(series);
        delete series;
        series = nullptr;
      }
      continue;
    }
    if (!series) {
      series = new QLineSeries(m_chart);
      series->setName(quantityName(k));
      m_chart->addSeries(series);
      if (k < kEnergies) {
        // fixed colours, none near the red "now" cursor: kinetic blue, potential green, total
        // near-black, dissipated violet, total + dissipated olive, actuator work orange, total +
        // dissipated - work teal
        static const QColor kEnergyColours[kEnergies] = {QColor(31, 119, 180), QColor(44, 160, 44), QColor(40, 40, 40),
                                                         QColor(148, 103, 189), QColor(188, 189, 34), QColor(255, 127, 14),
                                                         QColor(23, 190, 207)};
        series->setPen(QPen(kEnergyColours[k], 2));
      }
      series->attachAxis(m_x);
      series->attachAxis(m_y);
    }
    QList<QPointF> points;
    if (k - kEnergies >= m_nq + m_nv && !haveForces) {
      series->replace(points);
      continue;
    }
    points.reserve(static_cast<qsizetype>(size / stride + 2));
    for (std::size_t s = 0; s < size; s += stride) {
      const double v = value(*m_recording, k, s);
      points.append({m_recording->time(s), v});
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
    if (size && (size - 1) % stride) {  // always end at the newest sample
      const double v = value(*m_recording, k, size - 1);
      points.append({m_recording->time(size - 1), v});
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
    series->replace(points);
  }
  // the ghosts: each chosen quantity of each ghost recording of the plotted sizes, dashed
  for (QLineSeries* g : m_ghostSeries) {
    m_chart->removeSeries(g);
    delete g;
  }
  m_ghostSeries.clear();
  double ghostEnd = -std::numeric_limits<double>::infinity();
  for (const auto& [label, ghost] : m_ghosts) {
    if (!ghost || ghost->empty() || ghost->positionSize() != m_nq || ghost->velocitySize() != m_nv) continue;
    ghostEnd = std::max(ghostEnd, ghost->endTime());
    const std::size_t n = ghost->size();
    const std::size_t step = std::max<std::size_t>(1, (n + kMaxPoints - 1) / kMaxPoints);
    for (int k = 0; k < quantities(); ++k) {
      if (!m_series[k] || (k - kEnergies >= m_nq + m_nv && ghost->constraintSize() != m_nc))
        continue;
      auto* series = new QLineSeries(m_chart);
      series->setName(quantityName(k) + " (" + label + ")");
      QPen pen(m_series[k]->color());
      pen.setStyle(Qt::DashLine);
      pen.setWidthF(1.2);
      series->setPen(pen);
      QList<QPointF> points;
      for (std::size_t s = 0;; s += step) {  // every step-th sample, and the last
        s = std::min(s, n - 1);
        const double v = value(*ghost, k, s);
        points.append({ghost->time(s), v});
        lo = std::min(lo, v);
        hi = std::max(hi, v);
        if (s == n - 1) break;
      }
      series->replace(points);
      m_chart->addSeries(series);
      series->attachAxis(m_x);
      series->attachAxis(m_y);
      m_ghostSeries.push_back(series);
    }
  }
  if (!(lo <= hi)) lo = 0, hi = 1;
  // a flat series gets a range around it in proportion to its size
  const double pad = std::max({1e-9, 0.05 * (hi - lo), 1e-3 * std::max(std::abs(lo), std::abs(hi))});
  m_y->setRange(lo - pad, hi + pad);
  const double t0 = haveData ? m_recording->startTime() : 0.0;
  const double t1 = std::max(haveData ? m_recording->endTime() : 1.0, ghostEnd);
  m_x->setRange(t0, t1 > t0 ? t1 : t0 + 1.0);
  setCursor(m_cursorTime);
}

void PlotsPanel::exportCsv(const QString& path) const {
  std::ostringstream out;
  std::vector<int> chosenKs;
  out << "t";
  for (int k = 0; k < quantities(); ++k)
    if (m_list->item(k)->checkState() == Qt::Checked) {
      chosenKs.push_back(k);
      // "q[1] link2" is q[1]; "total + dissipated" total+dissipated, "actuator work" actuatorwork
      const QString name = quantityName(k);
      out << ","
          << (k < kEnergies ? QString(name).remove(' ') : name.section(' ', 0, 0)).toStdString();
    }
  out << "\n";
  out.precision(17);
  if (m_recording)
    for (std::size_t s = 0; s < m_recording->size(); ++s) {
      out << m_recording->time(s);
      for (int k : chosenKs) out << "," << value(*m_recording, k, s);
      out << "\n";
    }
  writeFileAtomically(path.toLocal8Bit().toStdString(), out.str());
}

void PlotsPanel::exportDialog() {
  const QString path = QFileDialog::getSaveFileName(this, tr("Export Plotted Data"), "plots.csv",
                                                    tr("CSV files (*.csv)"));
  if (path.isEmpty()) return;
  try {
    exportCsv(path);
  } catch (const std::exception& e) {
    QMessageBox::warning(this, tr("Export CSV"), QString::fromStdString(e.what()));
  }
}

}  // namespace art::gui
