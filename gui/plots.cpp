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

namespace {
// a recording's force channels: the exact constraints' rows, then the soft model's channels
int forceChannels(const Recording& r) { return r.constraintSize() + r.softForceSize(); }

// colours of the quantities that are not energies, in turn: none is near the red "now" line
// or an energy's colour
const QColor kPalette[] = {QColor(140, 86, 75), QColor(0, 0, 139),    QColor(0, 110, 60),
                           QColor(120, 0, 120), QColor(90, 90, 90),   QColor(0, 120, 140),
                           QColor(200, 160, 0), QColor(70, 90, 200),  QColor(160, 82, 45)};
// fixed colours of the energies: kinetic blue, potential green, total near-black, dissipated
// violet, total + dissipated olive, actuator work orange, total + dissipated - work teal
const QColor kEnergyColours[PlotsPanel::kEnergies] = {
    QColor(31, 119, 180), QColor(44, 160, 44),  QColor(40, 40, 40),  QColor(148, 103, 189),
    QColor(188, 189, 34), QColor(255, 127, 14), QColor(23, 190, 207)};

}  // namespace

PlotsPanel::PlotsPanel(QWidget* parent) : QWidget(parent) {
  setObjectName("plotsPanel");
  m_chart = new QChart();
  m_chart->legend()->setAlignment(Qt::AlignBottom);
  m_chart->setMargins(QMargins(2, 2, 2, 2));
  m_x = new QValueAxis(m_chart);
  m_x->setTitleText(tr("t (s)"));
  m_chart->addAxis(m_x, Qt::AlignBottom);
  m_nowAxis = new QValueAxis(m_chart);
  m_nowAxis->setRange(0, 1);
  m_nowAxis->setVisible(false);
  m_chart->addAxis(m_nowAxis, Qt::AlignLeft);
  m_cursor = new QLineSeries(m_chart);
  m_cursor->setName(tr("now"));
  m_cursor->setPen(QPen(nowColour(), 1.5, Qt::DashLine));
  m_chart->addSeries(m_cursor);
  m_cursor->attachAxis(m_x);
  m_cursor->attachAxis(m_nowAxis);
  auto* view = new QChartView(m_chart, this);
  view->setObjectName("plotView");
  view->setRenderHint(QPainter::Antialiasing, false);
  // tall enough for the legend, two or three labelled ticks and the time axis: a shorter chart
  // elides its labels
  view->setMinimumHeight(210);

  m_list = new QListWidget(this);
  m_list->setObjectName("plotChoice");
  m_list->setMaximumWidth(m_list->fontMetrics().horizontalAdvance("total + dissipated - work") + 48);
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

PlotsPanel::Kind PlotsPanel::kindOf(int k) const {
  if (k < kEnergies) return Kind::Energy;
  k -= kEnergies;
  if (k < m_nq) return Kind::Position;
  if (k < m_nq + m_nv) return Kind::Velocity;
  if (k < m_nq + m_nv + m_nc) return Kind::Force;
  const std::string& name = m_names[static_cast<std::size_t>(k)];
  if (name.rfind("force[", 0) == 0) return Kind::Force;
  if (name.rfind("length[", 0) == 0) return Kind::Length;
  return Kind::Control;
}

QColor PlotsPanel::nowColour() { return QColor(200, 40, 40); }

QColor PlotsPanel::seriesColour(const QString& name) const {
  for (int k = 0; k < static_cast<int>(m_series.size()); ++k)
    if (m_series[k] && quantityName(k) == name) return m_series[k]->pen().color();
  return {};
}

double PlotsPanel::niceStep(double span, int ticks, int* decimals) {
  if (!(span > 0) || !std::isfinite(span)) span = 1;
  const double raw = span / std::max(1, ticks);
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double r = raw / magnitude;
  const double step = (r < 1.5 ? 1 : r < 3.5 ? 2 : r < 7.5 ? 5 : 10) * magnitude;
  if (decimals) *decimals = std::max(0, static_cast<int>(std::ceil(-std::log10(step) - 1e-9)));
  return step;
}

void PlotsPanel::setRounded(QValueAxis* axis, double lo, double hi, int ticks) {
  int decimals = 0;
  const double step = niceStep(hi - lo, ticks, &decimals);
  // the ticks first: Qt Charts lays the labels out when the range changes, not the interval
  axis->setTickType(QValueAxis::TicksDynamic);
  axis->setTickAnchor(0);
  axis->setTickInterval(step);
  const double largest = std::max(std::abs(lo), std::abs(hi));
  // round values print in full ("0.25", "120"); only extreme magnitudes in powers of ten
  axis->setLabelFormat(decimals <= 5 && largest < 1e7 ? QString("%.%1f").arg(decimals) : QString("%.2e"));
  axis->setRange(lo, hi);
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
      // the exact constraints' forces, then the soft model's channels; a recording without
      // them (a loaded motion) has none to give
      k -= m_nq + m_nv;
      if (k < r.constraintSize()) return r.lambda(s)(k);
      k -= r.constraintSize();
      return k < r.softForceSize() ? r.softForces(s)(k) : std::nan("");
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
  const QList<QPointF> line{{t, 0.0}, {t, 1.0}};
  m_cursor->replace(line);
}

void PlotsPanel::redraw() {
  const bool haveData = m_recording && !m_recording->empty() &&
                        m_recording->positionSize() == m_nq && m_recording->velocitySize() == m_nv;
  // a loaded motion has no constraint forces: their series stay empty
  const bool haveForces = haveData && forceChannels(*m_recording) == m_nc;
  constexpr double kInf = std::numeric_limits<double>::infinity();
  double lo[kKinds], hi[kKinds];
  bool used[kKinds] = {};
  std::fill(std::begin(lo), std::end(lo), kInf);
  std::fill(std::begin(hi), std::end(hi), -kInf);
  // the axis of a kind, created on the left when none is there yet, else on the right
  const auto axisOf = [&](int k) {
    const int kind = static_cast<int>(kindOf(k));
    used[kind] = true;
    QValueAxis*& a = m_axes[kind];
    if (!a) {
      // short: a vertical title longer than the plot's height is elided
      static const char* const kTitles[kKinds] = {
          QT_TR_NOOP("energy (J)"), QT_TR_NOOP("q (rad, m)"),     QT_TR_NOOP("qd (rad/s, m/s)"),
          QT_TR_NOOP("force (N, N m)"), QT_TR_NOOP("length (m)"), QT_TR_NOOP("ctrl, act")};
      bool left = false;
      for (const QValueAxis* other : m_axes)
        if (other && other->alignment() == Qt::AlignLeft) left = true;
      a = new QValueAxis(m_chart);
      a->setTitleText(tr(kTitles[kind]));
      QFont font = a->titleFont();
      font.setPointSizeF(font.pointSizeF() * 0.85);
      a->setTitleFont(font);
      m_chart->addAxis(a, left ? Qt::AlignRight : Qt::AlignLeft);
    }
    return kind;
  };
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
    const int kind = axisOf(k);
    if (!series) {
      series = new QLineSeries(m_chart);
      series->setName(quantityName(k));
      m_chart->addSeries(series);
      series->setPen(QPen(k < kEnergies ? kEnergyColours[k] : kPalette[(k - kEnergies) % std::size(kPalette)], 2));
      series->attachAxis(m_x);
      series->attachAxis(m_axes[kind]);
    }
    QList<QPointF> points;
    if (k - kEnergies >= m_nq + m_nv && !haveForces) {
      series->replace(points);
      continue;
    }
    points.reserve(static_cast<qsizetype>(size / stride + 2));
    const auto add = [&](std::size_t s) {
      const double v = value(*m_recording, k, s);
      points.append({m_recording->time(s), v});
      lo[kind] = std::min(lo[kind], v);
      hi[kind] = std::max(hi[kind], v);
    };
    for (std::size_t s = 0; s < size; s += stride) add(s);
    if (size && (size - 1) % stride) add(size - 1);  // always end at the newest sample
    series->replace(points);
  }
  // the ghosts: each chosen quantity of each ghost recording of the plotted sizes, dashed
  for (QLineSeries* g : m_ghostSeries) {
    m_chart->removeSeries(g);
    delete g;
  }
  m_ghostSeries.clear();
  double ghostEnd = -kInf;
  for (const auto& [label, ghost] : m_ghosts) {
    if (!ghost || ghost->empty() || ghost->positionSize() != m_nq || ghost->velocitySize() != m_nv) continue;
    ghostEnd = std::max(ghostEnd, ghost->endTime());
    const std::size_t n = ghost->size();
    const std::size_t step = std::max<std::size_t>(1, (n + kMaxPoints - 1) / kMaxPoints);
    for (int k = 0; k < quantities(); ++k) {
      if (!m_series[k] || (k - kEnergies >= m_nq + m_nv && forceChannels(*ghost) != m_nc))
        continue;
      const int kind = axisOf(k);
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
        lo[kind] = std::min(lo[kind], v);
        hi[kind] = std::max(hi[kind], v);
        if (s == n - 1) break;
      }
      series->replace(points);
      m_chart->addSeries(series);
      series->attachAxis(m_x);
      series->attachAxis(m_axes[kind]);
      m_ghostSeries.push_back(series);
    }
  }
  for (int kind = 0; kind < kKinds; ++kind) {
    QValueAxis*& a = m_axes[kind];
    if (!used[kind]) {  // no series of this kind: its axis goes
      if (a) {
        m_chart->removeAxis(a);
        delete a;
        a = nullptr;
      }
      continue;
    }
    double l = lo[kind], h = hi[kind];
    if (!(l <= h)) l = 0, h = 1;
    // a flat series gets a range around it in proportion to its size
    const double pad = std::max({1e-9, 0.05 * (h - l), 1e-3 * std::max(std::abs(l), std::abs(h))});
    setRounded(a, l - pad, h + pad, 4);
  }
  const double t0 = haveData ? m_recording->startTime() : 0.0;
  const double t1 = std::max(haveData ? m_recording->endTime() : 1.0, ghostEnd);
  setRounded(m_x, t0, t1 > t0 ? t1 : t0 + 1.0, 6);
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
