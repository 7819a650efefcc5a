// The Joints dock (see joint_sliders.h).
#include "joint_sliders.h"

#include <algorithm>
#include <cmath>

#include <Eigen/Geometry>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSlider>
#include <QVBoxLayout>

#include "articulate/spatial/joint.h"
#include "articulate/model/model.h"
#include "articulate/model/edit.h"
#include "document.h"
#include "number_box.h"

namespace art::gui {

namespace {

constexpr double kDegreesPerRadian = 180.0 / M_PI;
constexpr double kMaxSliderSteps = 1e9;  // within int

bool isAngle(JointType t) {
  return t == JointType::Rx || t == JointType::Ry || t == JointType::Rz || t == JointType::H ||
         t == JointType::PlanarR;
}

// the rotation vector (axis times angle, |angle| <= pi, rad) of the quaternion w x y z at q(at)
Vec3 rotationVector(const Eigen::VectorXd& q, Eigen::Index at) {
  Eigen::Quaterniond quat(q(at), q(at + 1), q(at + 2), q(at + 3));
  if (!(quat.norm() > 0)) return Vec3::Zero();
  quat.normalize();
  if (quat.w() < 0) quat.coeffs() = -quat.coeffs();  // the same rotation, the shorter way
  const Eigen::AngleAxisd aa(quat);
  return aa.angle() * aa.axis();
}

// the quaternion at q(at) set to the rotation vector r (rad)
void setRotationVector(Eigen::VectorXd& q, Eigen::Index at, const Vec3& r) {
  const double angle = r.norm();
  const Eigen::Quaterniond quat =
      angle > 0 ? Eigen::Quaterniond(Eigen::AngleAxisd(angle, r / angle)) : Eigen::Quaterniond::Identity();
  q(at) = quat.w();
  q(at + 1) = quat.x();
  q(at + 2) = quat.y();
  q(at + 3) = quat.z();
}

QString code(JointType t) {
  const std::string_view c = jointCode(t);
  return QString::fromUtf8(c.data(), static_cast<qsizetype>(c.size()));
}

}  // namespace

JointSlidersPanel::JointSlidersPanel(ModelDocument* document, QWidget* parent)
    : QWidget(parent), m_doc(document) {
  setObjectName("jointSlidersPanel");
  m_scroll = new QScrollArea(this);
  m_scroll->setWidgetResizable(true);
  m_scroll->setFrameShape(QFrame::NoFrame);
  m_rowsWidget = new QWidget(m_scroll);
  m_grid = new QGridLayout(m_rowsWidget);
  m_grid->setColumnStretch(0, 1);
  m_scroll->setWidget(m_rowsWidget);
  m_note = new QLabel(this);
  m_note->setWordWrap(true);
  m_note->setEnabled(false);
  m_unavailable = new QLabel(this);
  m_unavailable->setWordWrap(true);
  m_unavailable->setAlignment(Qt::AlignCenter);
  m_unavailable->setEnabled(false);
  m_unavailable->hide();
  m_setInitial = new QPushButton(tr("Set as Initial State"), this);
  m_setInitial->setObjectName("setInitialStateButton");
  m_setInitial->setToolTip(tr("Make the pose shown the model's initial joint positions (undoable)"));
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(m_unavailable);
  layout->addWidget(m_scroll, 1);
  layout->addWidget(m_note);
  layout->addWidget(m_setInitial);
  connect(m_setInitial, &QPushButton::clicked, this, [this] {
    const QString error = setAsInitialState();
    if (!error.isEmpty()) m_note->setText(error);
  });
  connect(document, &ModelDocument::changed, this, &JointSlidersPanel::documentChanged);
  documentChanged();
}

void JointSlidersPanel::setJointNames(const std::map<std::string, std::string>& names) {
  m_jointNames = names;
  m_key.clear();  // rebuilt with the names
  documentChanged();
}

QString JointSlidersPanel::rowLabel(int row) const { return m_rows[row].label->text(); }

QString JointSlidersPanel::rowMarker(int row) const { return m_rows[row].marker->text(); }

QString JointSlidersPanel::rowToolTip(int row) const { return m_rows[row].label->toolTip(); }

QString JointSlidersPanel::structureKey() const {
  const ModelSpec& s = m_doc->spec();
  QString key = QString::number(int(s.arithmetic));
  for (const BodySpec& b : s.bodies)
    key += QString("|%1,%2,%3").arg(QString::fromStdString(b.name)).arg(int(b.joint.type)).arg(b.parent);
  for (const ConstraintSpec& c : s.constraints)
    if (c.type == ConstraintSpec::Type::Coupling) key += QString("|c%1,%2").arg(c.joint).arg(c.master);
  return key;
}

void JointSlidersPanel::documentChanged() {
  Model model;
  try {
    model = compile(m_doc->spec());
  } catch (const std::exception&) {
    return;  // the document holds only models that compile; an empty one may not
  }
  m_qIndex = model.qIndex;
  m_vIndex = model.vIndex;
  m_nv = model.nv();
  if (m_pose.size() != model.nq()) m_pose = model.q0;
  const QString key = structureKey();
  if (key != m_key) {
    m_key = key;
    m_pose = model.q0;
    m_velocity.resize(0);
    rebuild();
  }
  applyLimits();  // limits, damping and friction are values: they change without a rebuild
  applyCouplings(m_pose);
  showValues();
}

void JointSlidersPanel::rebuild() {
  // rows are added to a hidden widget and shown with it in one pass: each widget added to a
  // visible one is shown by an event of its own that lays the whole grid out again, which for
  // a 1500-joint model kept the window busy for ten seconds after it opened
  const bool hidden = m_rowsWidget->isHidden();
  m_rowsWidget->hide();
  for (Row& r : m_rows) {
    delete r.label;
    delete r.marker;
    delete r.slider;
    delete r.spin;
  }
  m_rows.clear();
  for (int i = 0; i < m_grid->rowCount(); ++i) m_grid->setRowStretch(i, 0);
  const ModelSpec& s = m_doc->spec();
  m_reach = 0.0;
  for (const BodySpec& b : s.bodies) m_reach += b.translation.norm();
  m_reach = std::max(1.0, std::ceil(m_reach));
  for (int i = 0; i < static_cast<int>(s.bodies.size()); ++i) {
    const BodySpec& b = s.bodies[i];
    const auto named = m_jointNames.find(b.name);
    const bool fileName = named != m_jointNames.end() && !named->second.empty();
    const QString name = QString::fromStdString(fileName ? named->second : b.name);
    // a free joint: its position x y z, then its orientation as a rotation vector rx ry rz
    // (degrees); a ball joint: that rotation vector alone
    const JointType type = b.joint.type;
    const int n = type == JointType::Free ? 6 : type == JointType::Ball ? 3 : 1;
    for (int k = 0; k < n; ++k) {
      Row r;
      r.body = i;
      const bool rotation = (type == JointType::Free && k >= 3) || type == JointType::Ball;
      const int axis = type == JointType::Free ? k % 3 : k;
      if (rotation) {
        r.rotation = axis;
        r.index = m_qIndex[i] + quaternionOffset(type);
        r.vIndex = m_vIndex[i] + axis;  // w first
      } else {
        r.index = m_qIndex[i] + k;
        r.vIndex = m_vIndex[i] + (type == JointType::Free ? 3 + k : k);
      }
      const bool angle = rotation || isAngle(type);
      r.scale = angle ? kDegreesPerRadian : 1.0;
      r.steps = angle ? kStepsPerDegree : kStepsPerMetre;
      for (const ConstraintSpec& c : s.constraints)
        if (c.type == ConstraintSpec::Type::Coupling && c.joint == i) r.coupled = true;
      const int row = static_cast<int>(m_rows.size());
      r.label = new QLabel(n == 1 ? QString("%1 (%2)").arg(name, code(type))
                                  : QString("%1 %2%3").arg(name, rotation ? "r" : "", QString("xyz")[axis]),
                           m_rowsWidget);
      r.marker = new QLabel(m_rowsWidget);
      r.marker->setObjectName(QString("jointMarker%1").arg(row));
      r.slider = new QSlider(Qt::Horizontal, m_rowsWidget);
      r.slider->setObjectName(QString("jointSlider%1").arg(row));
      const double range = angle ? 180.0 : m_reach;
      r.spin = new NumberBox(m_rowsWidget, -range, range, angle ? 2 : 4,
                             angle ? QString::fromUtf8("\u00b0") : QString(" m"));
      r.spin->setObjectName(QString("jointSpin%1").arg(row));
      r.spin->setMinimumWidth(90);
      r.slider->setRange(static_cast<int>(-range * r.steps), static_cast<int>(range * r.steps));
      r.slider->setPageStep(angle ? 15 * r.steps : r.steps / 10);
      if (r.coupled) {
        r.slider->setEnabled(false);
        r.spin->setReadOnly(true);
        r.spin->setButtonSymbols(QAbstractSpinBox::NoButtons);
      }
      // the name, limit marker and number on one line, the slider under them at the dock's
      // full width
      m_grid->addWidget(r.label, 2 * row, 0);
      m_grid->addWidget(r.marker, 2 * row, 1);
      m_grid->addWidget(r.spin, 2 * row, 2);
      m_grid->addWidget(r.slider, 2 * row + 1, 0, 1, 3);
      connect(r.slider, &QSlider::valueChanged, this, [this, row](int steps) {
        if (m_updating) return;
        const Row& moved = m_rows[row];
        const double displayed = double(steps) / moved.steps;
        m_updating = true;
        moved.spin->setValue(displayed);
        m_updating = false;
        edited(row, displayed);
      });
      connect(r.spin, &QDoubleSpinBox::valueChanged, this, [this, row](double displayed) {
        if (m_updating) return;
        const Row& moved = m_rows[row];
        m_updating = true;
        moved.slider->setValue(static_cast<int>(std::lround(displayed * moved.steps)));
        m_updating = false;
        edited(row, displayed);
      });
      m_rows.push_back(r);
    }
  }
  m_grid->setRowStretch(2 * static_cast<int>(m_rows.size()), 1);
  QString note;
  if (s.bodies.empty()) note = tr("No joints to pose.");
  m_note->setText(note);
  m_setInitial->setEnabled(!s.bodies.empty());
  setReadOnly(m_readOnly);
  if (!hidden) m_rowsWidget->show();  // visible again with its dock (now, or when shown)
}

void JointSlidersPanel::applyLimits() {
  const ModelSpec& s = m_doc->spec();
  for (Row& r : m_rows) {
    const BodySpec& b = s.bodies[r.body];
    const bool one = !hasQuaternion(b.joint.type);  // limits are of one-variable joints
    const bool wasLimited = r.lower && r.upper;
    r.lower = one ? b.limits.lower : std::nullopt;
    r.upper = one ? b.limits.upper : std::nullopt;
    r.velocity = one ? b.limits.velocity : std::nullopt;
    // the tooltip: the coupling, limits, damping and friction, in the joint's units
    const bool angle = r.scale != 1.0;
    const auto position = [&](double v) {
      return angle ? tr("%1 rad (%2\u00b0)").arg(v).arg(v * r.scale, 0, 'f', 2) : tr("%1 m").arg(v);
    };
    QStringList tip;
    const auto named = m_jointNames.find(b.name);
    if (named != m_jointNames.end() && !named->second.empty())
      tip << tr("joint '%1' of body '%2'").arg(QString::fromStdString(named->second), QString::fromStdString(b.name));
    if (r.coupled) tip << tr("Follows its master joint (coupling constraint)");
    if (r.lower) tip << tr("lower stop %1").arg(position(*r.lower));
    if (r.upper) tip << tr("upper stop %1").arg(position(*r.upper));
    if (one && b.limits.effort)
      tip << tr("effort limit %1 %2").arg(*b.limits.effort).arg(angle ? "N m" : "N");
    if (r.velocity) tip << tr("velocity limit %1 %2").arg(*r.velocity).arg(angle ? "rad/s" : "m/s");
    if (one && b.damping > 0)
      tip << tr("damping %1 %2").arg(b.damping).arg(angle ? "N m s/rad" : "N s/m");
    if (one && b.friction > 0) tip << tr("friction %1 %2").arg(b.friction).arg(angle ? "N m" : "N");
    for (QWidget* w : {static_cast<QWidget*>(r.label), static_cast<QWidget*>(r.marker),
                       static_cast<QWidget*>(r.slider), static_cast<QWidget*>(r.spin)})
      w->setToolTip(tip.join('\n'));
    // a joint between two stops ranges between them; one that lost its stops gets the default
    // range back (setRange widens it for the values shown)
    if (r.lower && r.upper) {
      const double lo = std::min(*r.lower, *r.upper) * r.scale,
                   hi = std::max(*r.lower, *r.upper) * r.scale;
      r.spin->setRange(lo, hi);
      r.slider->setRange(static_cast<int>(std::lround(std::max(lo * r.steps, -kMaxSliderSteps))),
                         static_cast<int>(std::lround(std::min(hi * r.steps, kMaxSliderSteps))));
    } else if (wasLimited) {
      const double range = angle ? 180.0 : m_reach;
      r.spin->setRange(-range, range);
      r.slider->setRange(static_cast<int>(-range * r.steps), static_cast<int>(range * r.steps));
    }
  }
}

void JointSlidersPanel::showMarker(Row& r) {
  QStringList notes;
  if (r.index < m_pose.size() && r.rotation < 0) {
    const double q = m_pose(r.index);
    const double tolerance =
        kStopTolerance * std::max(1.0, r.lower && r.upper ? std::abs(*r.upper - *r.lower) : 1.0);
    if (r.lower && q < *r.lower - tolerance)
      notes << tr("past lower stop");
    else if (r.lower && q <= *r.lower + tolerance)
      notes << tr("at lower stop");
    else if (r.upper && q > *r.upper + tolerance)
      notes << tr("past upper stop");
    else if (r.upper && q >= *r.upper - tolerance)
      notes << tr("at upper stop");
  }
  if (r.velocity && r.vIndex < m_velocity.size() && std::abs(m_velocity(r.vIndex)) > *r.velocity)
    notes << tr("over velocity limit");
  const QString text = notes.join(", ");
  if (text == r.marker->text()) return;  // restyling every frame would lay the dock out again
  r.marker->setText(text);
  const QString warning = text.isEmpty() ? QString() : QString("color: rgb(215, 95, 0);");
  r.label->setStyleSheet(warning);
  r.marker->setStyleSheet(warning.isEmpty() ? warning : warning + " font-weight: bold;");
}

void JointSlidersPanel::setRange(Row& r, double displayed) {
  if (r.lower && r.upper) return;  // the stops' range (applyLimits)
  const double base = r.scale != 1.0 ? 180.0 : m_reach;
  double range = std::max(base, r.spin->maximum());
  if (std::abs(displayed) > range) range = std::ceil(std::abs(displayed) / base) * base;
  range = std::min(range, kMaxSliderSteps / r.steps);
  if (range == r.spin->maximum()) return;
  r.spin->setRange(-range, range);
  r.slider->setRange(static_cast<int>(-range * r.steps), static_cast<int>(range * r.steps));
}

void JointSlidersPanel::showValues() {
  m_updating = true;
  for (Row& r : m_rows) {
    if (r.index >= m_pose.size()) continue;
    const double displayed = value(r) * r.scale;
    setRange(r, displayed);
    r.spin->setValue(displayed);
    r.slider->setValue(static_cast<int>(std::lround(std::clamp(displayed * r.steps, -kMaxSliderSteps,
                                                               kMaxSliderSteps))));
    showMarker(r);
  }
  m_updating = false;
}

void JointSlidersPanel::applyCouplings(Eigen::VectorXd& q) const {
  const ModelSpec& s = m_doc->spec();
  const int nb = static_cast<int>(m_qIndex.size());
  for (const ConstraintSpec& c : s.constraints) {
    if (c.type != ConstraintSpec::Type::Coupling || c.joint < 0 || c.joint >= nb || c.master < 0 ||
        c.master >= nb || hasQuaternion(s.bodies[c.joint].joint.type) ||
        hasQuaternion(s.bodies[c.master].joint.type))
      continue;
    q(m_qIndex[c.joint]) = c.ratio * q(m_qIndex[c.master]) + c.offset;
  }
}

void JointSlidersPanel::edited(int row, double displayed) {
  const Row& r = m_rows[row];
  double q = displayed / r.scale;
  // within the stops; the ends of the number's and slider's ranges, rounded to their steps, are
  // the stops themselves
  if (r.lower && r.upper) {
    const double lo = std::min(*r.lower, *r.upper), hi = std::max(*r.lower, *r.upper);
    if (displayed <= r.spin->minimum()) q = lo;
    if (displayed >= r.spin->maximum()) q = hi;
    q = std::clamp(q, lo, hi);
  }
  if (r.rotation >= 0) {
    Vec3 v = rotationVector(m_pose, r.index);
    v(r.rotation) = q;
    setRotationVector(m_pose, r.index, v);
    showValues();  // the other components as the new rotation gives them (beyond 180° they turn)
  } else {
    m_pose(r.index) = q;
  }
  applyCouplings(m_pose);
  m_updating = true;
  for (Row& other : m_rows)
    if (other.coupled) other.spin->setValue(m_pose(other.index) * other.scale);
  m_updating = false;
  for (Row& shown : m_rows) showMarker(shown);
  m_note->clear();
  emit poseEdited(m_pose);
}

double JointSlidersPanel::value(const Row& r) const {
  return r.rotation >= 0 ? rotationVector(m_pose, r.index)(r.rotation) : m_pose(r.index);
}

void JointSlidersPanel::setPose(const Eigen::VectorXd& q, const Eigen::VectorXd& qd) {
  if (q.size() != m_pose.size()) return;
  m_pose = q;
  m_velocity = qd.size() == m_nv ? qd : Eigen::VectorXd();
  showValues();
}

void JointSlidersPanel::setReadOnly(bool readOnly) {
  m_readOnly = readOnly;
  for (Row& r : m_rows) {
    r.slider->setEnabled(!readOnly && !r.coupled);
    r.spin->setEnabled(!readOnly);
  }
}

void JointSlidersPanel::setUnavailable(const QString& reason) {
  m_unavailable->setText(reason);
  m_unavailable->setVisible(!reason.isEmpty());
  for (QWidget* w : {static_cast<QWidget*>(m_scroll), static_cast<QWidget*>(m_note),
                     static_cast<QWidget*>(m_setInitial)})
    w->setVisible(reason.isEmpty());
}

QString JointSlidersPanel::setAsInitialState() {
  Model model;
  try {
    model = compile(m_doc->spec());
  } catch (const std::exception& e) {
    return QString::fromStdString(e.what());
  }
  if (m_pose.size() != model.nq()) return tr("The pose does not fit the model.");
  if (m_pose == model.q0) return {};
  const Eigen::VectorXd q = m_pose;
  return m_doc->edit(tr("Set initial pose"), [q](ModelSpec& s) { setInitialState(s, q); });
}

}  // namespace art::gui
