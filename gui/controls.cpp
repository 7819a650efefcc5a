// The Controls dock (see controls.h).
#include "controls.h"

#include <algorithm>
#include <cmath>

#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSlider>
#include <QVBoxLayout>

#include "articulate/model/spec.h"
#include "number_box.h"

namespace art::gui {

namespace {

QString transmission(const ModelSpec& spec, const ActuatorSpec& a) {
  const auto site = [&](int k) {
    const std::string& n = spec.sites[static_cast<std::size_t>(k)].name;
    return n.empty() ? QString("site %1").arg(k) : QString::fromStdString(n);
  };
  switch (a.transmission) {
    case ActuatorSpec::Transmission::Joint:
      return QObject::tr("joint of '%1'").arg(QString::fromStdString(spec.bodies[static_cast<std::size_t>(a.target)].name));
    case ActuatorSpec::Transmission::JointInParent:
      return QObject::tr("joint of '%1' (parent axes)").arg(QString::fromStdString(spec.bodies[static_cast<std::size_t>(a.target)].name));
    case ActuatorSpec::Transmission::Tendon: {
      const std::string& n = spec.tendons[static_cast<std::size_t>(a.target)].name;
      return QObject::tr("tendon '%1'").arg(n.empty() ? QString::number(a.target) : QString::fromStdString(n));
    }
    case ActuatorSpec::Transmission::SliderCrank:
      return QObject::tr("slider-crank %1 / %2").arg(site(a.target), site(a.reference));
    case ActuatorSpec::Transmission::Site:
      return a.reference < 0 ? QObject::tr("site %1").arg(site(a.target))
                             : QObject::tr("site %1 from %2").arg(site(a.target), site(a.reference));
  }
  return {};
}

// an actuator's label: its name, else what it drives and how ("FL_hip motor")
QString label(const ModelSpec& spec, const ActuatorSpec& a, Eigen::Index k) {
  if (!a.name.empty()) return QString::fromStdString(a.name);
  const auto t = static_cast<std::size_t>(a.target);
  QString target;
  switch (a.transmission) {
    case ActuatorSpec::Transmission::Joint:
    case ActuatorSpec::Transmission::JointInParent: target = QString::fromStdString(spec.bodies[t].name); break;
    case ActuatorSpec::Transmission::Tendon: target = QString::fromStdString(spec.tendons[t].name); break;
    case ActuatorSpec::Transmission::SliderCrank:
    case ActuatorSpec::Transmission::Site: target = QString::fromStdString(spec.sites[t].name); break;
  }
  if (target.isEmpty()) return QObject::tr("actuator %1").arg(k);
  return target + " " + QString::fromStdString(a.shortcut);
}

}  // namespace

QWidget* addNoteAndRows(QWidget* panel, const QString& note, QLabel*& noteLabel) {
  auto* outer = new QVBoxLayout(panel);
  outer->setContentsMargins(4, 4, 4, 4);
  noteLabel = new QLabel(note, panel);
  noteLabel->setWordWrap(true);
  outer->addWidget(noteLabel);
  auto* scroll = new QScrollArea(panel);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  auto* inner = new QWidget(scroll);
  scroll->setWidget(inner);
  outer->addWidget(scroll, 1);
  return inner;
}

ControlsPanel::ControlsPanel(QWidget* parent) : QWidget(parent) {
  m_inner = addNoteAndRows(this,
                           tr("This model has no actuators. MJCF files bring theirs; a URDF's transmissions and "
                              "Simulation > Add Servos will add some."),
                           m_note);
  auto* outer = qobject_cast<QVBoxLayout*>(layout());
  m_grid = new QGridLayout(m_inner);
  m_grid->setContentsMargins(0, 0, 0, 0);
  m_grid->setColumnStretch(1, 1);
  m_zero = new QPushButton(tr("Zero all"), this);
  m_zero->setToolTip(tr("Sets every control to zero (or the nearest end of a range without zero)"));
  connect(m_zero, &QPushButton::clicked, this, &ControlsPanel::zeroAll);
  outer->addWidget(m_zero);
  m_zero->setEnabled(false);
}

void ControlsPanel::setModel(const ModelSpec& spec) { build(spec); }

void ControlsPanel::build(const ModelSpec& spec) {
  for (Row& r : m_rows) {
    delete r.name;
    delete r.slider;
    delete r.spin;
    delete r.force;
  }
  m_rows.clear();
  const auto n = static_cast<Eigen::Index>(spec.actuators.size());
  if (!m_header && n > 0) {  // the columns' titles, once
    m_header = new QLabel(tr("<i>control</i>"), m_inner);
    auto* force = new QLabel(tr("<i>force</i>"), m_inner);
    force->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    force->setToolTip(tr("N for a translation, N m for a rotation"));
    m_grid->addWidget(m_header, 0, 1, 1, 2);
    m_grid->addWidget(force, 0, 3);
  }
  m_ctrl = Eigen::VectorXd::Zero(n);
  m_note->setVisible(n == 0);
  m_zero->setEnabled(n > 0);
  for (Eigen::Index k = 0; k < n; ++k) {
    const ActuatorSpec& a = spec.actuators[static_cast<std::size_t>(k)];
    Row r;
    if (a.ctrlRange) {
      r.lo = (*a.ctrlRange)[0];
      r.hi = (*a.ctrlRange)[1];
    }
    const QString name = label(spec, a, k);
    r.name = new QLabel(name, m_inner);
    const QString tip = tr("%1: %2 on the %3; control %4 to %5%6")
                            .arg(name, QString::fromStdString(a.shortcut), transmission(spec, a))
                            .arg(r.lo)
                            .arg(r.hi)
                            .arg(a.ctrlRange ? QString() : tr(" (no range in the model: the slider's own)"));
    r.name->setToolTip(tip);
    r.slider = new QSlider(Qt::Horizontal, m_inner);
    r.slider->setRange(0, kSteps);
    r.slider->setToolTip(tip);
    r.slider->setAccessibleName(name);
    r.spin = new NumberBox(m_inner, r.lo, r.hi, 3);
    r.spin->setSingleStep((r.hi - r.lo) / 100);
    r.force = new QLabel(m_inner);
    r.force->setMinimumWidth(r.force->fontMetrics().horizontalAdvance("-0000.00 N m"));
    r.force->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    r.force->setToolTip(tr("the actuator's force at the shown state (N, or N m)"));
    const int row = static_cast<int>(k);
    m_grid->addWidget(r.name, row + 1, 0);
    m_grid->addWidget(r.slider, row + 1, 1);
    m_grid->addWidget(r.spin, row + 1, 2);
    m_grid->addWidget(r.force, row + 1, 3);
    m_rows.push_back(r);
    m_ctrl(k) = std::clamp(a.ctrl0, r.lo, r.hi);  // the control the simulation starts with
    setRow(row, m_ctrl(k));
    connect(r.slider, &QSlider::valueChanged, this, [this, row](int v) {
      const Row& x = m_rows[static_cast<std::size_t>(row)];
      edited(row, x.lo + (x.hi - x.lo) * v / double(kSteps));
    });
    connect(r.spin, &QDoubleSpinBox::valueChanged, this, [this, row](double v) { edited(row, v); });
  }
  m_grid->setRowStretch(static_cast<int>(n) + 1, 1);
}

void ControlsPanel::setRow(int row, double value) {
  const Row& r = m_rows[static_cast<std::size_t>(row)];
  const QSignalBlocker a(r.slider), b(r.spin);
  r.slider->setValue(static_cast<int>(std::lround((value - r.lo) / (r.hi - r.lo) * kSteps)));
  r.spin->setValue(value);
}

void ControlsPanel::edited(int row, double value) {
  m_ctrl(row) = value;
  setRow(row, value);
  emit controlsEdited(m_ctrl);
}

void ControlsPanel::zeroAll() {
  for (std::size_t k = 0; k < m_rows.size(); ++k) {
    m_ctrl(static_cast<Eigen::Index>(k)) = std::clamp(0.0, m_rows[k].lo, m_rows[k].hi);
    setRow(static_cast<int>(k), m_ctrl(static_cast<Eigen::Index>(k)));
  }
  if (!m_rows.empty()) emit controlsEdited(m_ctrl);
}

void ControlsPanel::setShown(const Eigen::VectorXd& ctrl, const Eigen::VectorXd& force) {
  const auto n = static_cast<Eigen::Index>(m_rows.size());
  if (ctrl.size() == n) m_ctrl = ctrl;
  else if (ctrl.size() == 0) m_ctrl.setZero(n);
  for (Eigen::Index k = 0; k < n; ++k) {
    setRow(static_cast<int>(k), m_ctrl(k));
    m_rows[static_cast<std::size_t>(k)].force->setText(force.size() == n ? QString::number(force(k), 'f', 2) : QString());
  }
}

QString ControlsPanel::forceText(int row) const { return m_rows[static_cast<std::size_t>(row)].force->text(); }

}  // namespace art::gui
