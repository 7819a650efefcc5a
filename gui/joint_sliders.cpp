// The Joints dock (see joint_sliders.h).
#include "joint_sliders.h"

#include <algorithm>
#include <cmath>

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

namespace art::gui {

namespace {

constexpr double kDegreesPerRadian = 180.0 / M_PI;
constexpr double kMaxSliderSteps = 1e9;  // within int

bool isAngle(JointType t) {
  return t == JointType::Rx || t == JointType::Ry || t == JointType::Rz || t == JointType::H ||
         t == JointType::PlanarR;
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

QString JointSlidersPanel::rowLabel(int row) const { return m_rows[row].label->text(); }

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
  if (m_pose.size() != model.nq()) m_pose = model.q0;
  const QString key = structureKey();
  if (key != m_key) {
    m_key = key;
    m_pose = model.q0;
    rebuild();
  }
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
    delete r.slider;
    delete r.spin;
  }
  m_rows.clear();
  for (int i = 0; i < m_grid->rowCount(); ++i) m_grid->setRowStretch(i, 0);
  const ModelSpec& s = m_doc->spec();
  m_reach = 0.0;
  for (const BodySpec& b : s.bodies) m_reach += b.translation.norm();
  m_reach = std::max(1.0, std::ceil(m_reach));
  bool free = false;
  for (int i = 0; i < static_cast<int>(s.bodies.size()); ++i) {
    const BodySpec& b = s.bodies[i];
    const QString name = QString::fromStdString(b.name);
    const int n = b.joint.type == JointType::Free ? 3 : 1;
    free = free || n == 3;
    for (int k = 0; k < n; ++k) {
      Row r;
      r.body = i;
      r.index = m_qIndex[i] + k;
      const bool angle = isAngle(b.joint.type);
      r.scale = angle ? kDegreesPerRadian : 1.0;
      r.steps = angle ? kStepsPerDegree : kStepsPerMetre;
      for (const ConstraintSpec& c : s.constraints)
        if (c.type == ConstraintSpec::Type::Coupling && c.joint == i) r.coupled = true;
      const int row = static_cast<int>(m_rows.size());
      r.label = new QLabel(n == 3 ? QString("%1 %2").arg(name, QString("xyz")[k])
                                  : QString("%1 (%2)").arg(name, code(b.joint.type)),
                           m_rowsWidget);
      r.slider = new QSlider(Qt::Horizontal, m_rowsWidget);
      r.slider->setObjectName(QString("jointSlider%1").arg(row));
      r.spin = new QDoubleSpinBox(m_rowsWidget);
      r.spin->setObjectName(QString("jointSpin%1").arg(row));
      r.spin->setDecimals(angle ? 2 : 4);
      r.spin->setSuffix(angle ? QString::fromUtf8("\u00b0") : QString(" m"));
      r.spin->setKeyboardTracking(false);
      r.spin->setMinimumWidth(90);
      const double range = angle ? 180.0 : m_reach;
      r.spin->setRange(-range, range);
      r.slider->setRange(static_cast<int>(-range * r.steps), static_cast<int>(range * r.steps));
      r.slider->setPageStep(angle ? 15 * r.steps : r.steps / 10);
      if (r.coupled) {
        r.slider->setEnabled(false);
        r.spin->setReadOnly(true);
        r.spin->setButtonSymbols(QAbstractSpinBox::NoButtons);
        r.label->setToolTip(tr("Follows its master joint (coupling constraint)"));
      }
      // the name and number on one line, the slider under them at the dock's full width
      m_grid->addWidget(r.label, 2 * row, 0);
      m_grid->addWidget(r.spin, 2 * row, 1);
      m_grid->addWidget(r.slider, 2 * row + 1, 0, 1, 2);
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
  if (free) note = tr("A free joint's orientation is not posed here, only its position.");
  m_note->setText(note);
  m_setInitial->setEnabled(!s.bodies.empty());
  setReadOnly(m_readOnly);
  if (!hidden) m_rowsWidget->show();  // visible again with its dock (now, or when shown)
}

void JointSlidersPanel::setRange(Row& r, double displayed) {
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
    const double displayed = m_pose(r.index) * r.scale;
    setRange(r, displayed);
    r.spin->setValue(displayed);
    r.slider->setValue(static_cast<int>(std::lround(std::clamp(displayed * r.steps, -kMaxSliderSteps,
                                                               kMaxSliderSteps))));
  }
  m_updating = false;
}

void JointSlidersPanel::applyCouplings(Eigen::VectorXd& q) const {
  const ModelSpec& s = m_doc->spec();
  const int nb = static_cast<int>(m_qIndex.size());
  for (const ConstraintSpec& c : s.constraints) {
    if (c.type != ConstraintSpec::Type::Coupling || c.joint < 0 || c.joint >= nb || c.master < 0 ||
        c.master >= nb || s.bodies[c.joint].joint.type == JointType::Free ||
        s.bodies[c.master].joint.type == JointType::Free)
      continue;
    q(m_qIndex[c.joint]) = c.ratio * q(m_qIndex[c.master]) + c.offset;
  }
}

void JointSlidersPanel::edited(int row, double displayed) {
  const Row& r = m_rows[row];
  m_pose(r.index) = displayed / r.scale;
  applyCouplings(m_pose);
  m_updating = true;
  for (Row& other : m_rows)
    if (other.coupled) other.spin->setValue(m_pose(other.index) * other.scale);
  m_updating = false;
  m_note->clear();
  emit poseEdited(m_pose);
}

void JointSlidersPanel::setPose(const Eigen::VectorXd& q) {
  if (q.size() != m_pose.size()) return;
  m_pose = q;
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
