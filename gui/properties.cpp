// The Properties dock (see properties.h).
#include "properties.h"

#include <cmath>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

#include <Eigen/Geometry>

#include "articulate/joint.h"
#include "document.h"

namespace art::gui {

namespace {

const JointType kSpatialJoints[] = {JointType::Rx, JointType::Ry, JointType::Rz, JointType::Px,
                                    JointType::Py, JointType::Pz, JointType::H};
const JointType kPlanarJoints[] = {JointType::PlanarR, JointType::PlanarPx, JointType::PlanarPy};

QDoubleSpinBox* spin(QWidget* parent, double lo, double hi, int decimals, const QString& suffix) {
  auto* s = new QDoubleSpinBox(parent);
  s->setRange(lo, hi);
  s->setDecimals(decimals);
  s->setSuffix(suffix);
  s->setKeyboardTracking(false);  // one edit per value, not per keystroke
  return s;
}

QWidget* row(QWidget* parent, QDoubleSpinBox* const (&boxes)[3]) {
  auto* w = new QWidget(parent);
  auto* l = new QHBoxLayout(w);
  l->setContentsMargins(0, 0, 0, 0);
  for (QDoubleSpinBox* b : boxes) l->addWidget(b);
  return w;
}

QString code(JointType t) {
  const std::string_view c = jointCode(t);
  return QString::fromUtf8(c.data(), static_cast<qsizetype>(c.size()));
}

// roll-pitch-yaw (rad) of the joint frame's orientation in its parent, R = Rz Ry Rx, where the
// spec stores the inverse (parent -> joint coordinates)
Vec3 rpyOf(const Mat3& specRotation) {
  const Mat3 R = specRotation.transpose();
  return Vec3(std::atan2(R(2, 1), R(2, 2)), std::asin(-std::clamp(R(2, 0), -1.0, 1.0)),
              std::atan2(R(1, 0), R(0, 0)));
}

Mat3 specRotationOf(const Vec3& rpy) {
  const Mat3 R = (Eigen::AngleAxisd(rpy(2), Vec3::UnitZ()) * Eigen::AngleAxisd(rpy(1), Vec3::UnitY()) *
                  Eigen::AngleAxisd(rpy(0), Vec3::UnitX()))
                     .toRotationMatrix();
  return R.transpose();
}

}  // namespace

PropertiesPanel::PropertiesPanel(ModelDocument* document, QWidget* parent)
    : QWidget(parent), m_doc(document) {
  setObjectName("propertiesPanel");
  m_form = new QWidget(this);
  auto* form = new QFormLayout(m_form);
  m_name = new QLineEdit(m_form);
  m_name->setObjectName("nameEdit");
  m_joint = new QComboBox(m_form);
  m_joint->setObjectName("jointCombo");
  m_pitch = spin(m_form, -10, 10, 4, " m/rad");
  for (int i = 0; i < 3; ++i) {
    m_pos[i] = spin(m_form, -1e3, 1e3, 4, " m");
    m_rpy[i] = spin(m_form, -180, 180, 2, QString::fromUtf8("\u00b0"));
    m_com[i] = spin(m_form, -1e3, 1e3, 4, " m");
    m_moments[i] = spin(m_form, 0, 1e6, 6, "");
  }
  m_mass = spin(m_form, 0, 1e6, 4, " kg");
  m_mass->setObjectName("massSpin");
  m_q0 = spin(m_form, -1e4, 1e4, 4, "");
  m_qd0 = spin(m_form, -1e4, 1e4, 4, "");
  form->addRow(tr("Name"), m_name);
  form->addRow(tr("Joint"), m_joint);
  form->addRow(tr("Pitch"), m_pitch);
  form->addRow(tr("Position"), row(m_form, m_pos));
  form->addRow(tr("Rotation (r p y)"), row(m_form, m_rpy));
  form->addRow(tr("Mass"), m_mass);
  form->addRow(tr("Centre of mass"), row(m_form, m_com));
  form->addRow(tr("Moments (kg m\u00b2)"), row(m_form, m_moments));
  form->addRow(tr("Initial q"), m_q0);
  form->addRow(tr("Initial qd"), m_qd0);
  m_error = new QLabel(this);
  m_error->setObjectName("propertyError");
  m_error->setWordWrap(true);
  m_error->setStyleSheet("color: #b00020");
  m_none = new QLabel(tr("Select a body in the Model tree or the view"), this);
  m_none->setAlignment(Qt::AlignCenter);
  m_none->setEnabled(false);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(m_none);
  layout->addWidget(m_form);
  layout->addWidget(m_error);
  layout->addStretch(1);

  connect(m_name, &QLineEdit::editingFinished, this, [this] { commit("name"); });
  connect(m_joint, &QComboBox::currentIndexChanged, this, [this] { commit("joint"); });
  for (QDoubleSpinBox* s : findChildren<QDoubleSpinBox*>())
    connect(s, &QDoubleSpinBox::valueChanged, this, [this, s] {
      commit(s == m_mass ? "mass" : s == m_pitch ? "pitch" : s == m_q0 ? "q0" : s == m_qd0 ? "qd0"
             : (s == m_pos[0] || s == m_pos[1] || s == m_pos[2]) ? "position"
             : (s == m_rpy[0] || s == m_rpy[1] || s == m_rpy[2]) ? "rotation"
             : s == m_com[0] ? "com0" : s == m_com[1] ? "com1" : s == m_com[2] ? "com2"
             : s == m_moments[0] ? "moment0" : s == m_moments[1] ? "moment1" : "moment2");
    });
  connect(document, &ModelDocument::changed, this, &PropertiesPanel::refresh);
  refresh();
}

void PropertiesPanel::setBody(int body) {
  m_body = body;
  m_error->clear();
  refresh();
}

QString PropertiesPanel::lastError() const { return m_error->text(); }

void PropertiesPanel::refresh() {
  const ModelSpec& s = m_doc->spec();
  const bool valid = m_body >= 0 && m_body < static_cast<int>(s.bodies.size());
  m_form->setVisible(valid);
  m_none->setVisible(!valid);
  if (!valid) return;
  m_updating = true;
  const BodySpec& b = s.bodies[m_body];
  const bool planar = s.arithmetic == Arithmetic::Planar;
  m_name->setText(QString::fromStdString(b.name));
  m_joint->clear();
  if (planar)
    for (JointType t : kPlanarJoints) m_joint->addItem(code(t), int(t));
  else
    for (JointType t : kSpatialJoints) m_joint->addItem(code(t), int(t));
  m_joint->setCurrentIndex(m_joint->findData(int(b.joint.type)));
  m_joint->setEnabled(b.joint.type != JointType::Free);
  m_pitch->setValue(b.joint.pitch);
  m_pitch->setEnabled(b.joint.type == JointType::H);
  const Vec3 rpy = rpyOf(b.rotation);
  for (int i = 0; i < 3; ++i) {
    m_pos[i]->setValue(b.translation(i));
    m_rpy[i]->setValue(rpy(i) * 180.0 / M_PI);
  }
  const bool massForm = !b.inertia.raw;
  m_mass->setValue(massForm ? b.inertia.mass : b.inertia.matrix(5, 5));
  for (int i = 0; i < 3; ++i) {
    m_com[i]->setValue(massForm ? b.inertia.com(i) : 0.0);
    m_moments[i]->setValue(massForm ? b.inertia.aboutCom(i, i) : 0.0);
    m_com[i]->setEnabled(massForm);
    m_moments[i]->setEnabled(massForm);
  }
  m_mass->setEnabled(massForm);
  m_q0->setValue(b.q0);
  m_qd0->setValue(b.qd0);
  m_q0->setEnabled(b.joint.type != JointType::Free);
  m_qd0->setEnabled(b.joint.type != JointType::Free);
  m_updating = false;
}

void PropertiesPanel::commit(const QString& what) {
  if (m_updating || m_body < 0 || m_body >= static_cast<int>(m_doc->spec().bodies.size())) return;
  const int i = m_body;
  const QString body = QString::fromStdString(m_doc->spec().bodies[i].name);
  QString error;
  if (what == "name") {
    const std::string name = m_name->text().trimmed().toStdString();
    if (name == m_doc->spec().bodies[i].name) return;
    if (name.empty() || name == "base" || m_doc->spec().findBody(name) >= 0)
      error = tr("'%1' cannot name a body: names are unique, not empty and not 'base'.")
                  .arg(QString::fromStdString(name));
    else
      error = m_doc->edit(tr("Rename '%1' to '%2'").arg(body, QString::fromStdString(name)),
                          [i, name](ModelSpec& s) { s.bodies[i].name = name; });
  } else if (what == "joint" || what == "pitch") {
    const auto type = static_cast<JointType>(m_joint->currentData().toInt());
    const double pitch = m_pitch->value();
    error = m_doc->edit(tr("Set joint of '%1'").arg(body), [i, type, pitch](ModelSpec& s) {
      s.bodies[i].joint.type = type;
      s.bodies[i].joint.pitch = type == JointType::H ? pitch : 0.0;
    });
  } else if (what == "position" || what == "rotation") {
    // only the edited part: the other keeps its exact stored value (the fields round it)
    Vec3 p, rpy;
    for (int k = 0; k < 3; ++k) {
      p(k) = m_pos[k]->value();
      rpy(k) = m_rpy[k]->value() * M_PI / 180.0;
    }
    const bool position = what == "position";
    error = m_doc->edit(tr("Set placement of '%1'").arg(body), [i, p, rpy, position](ModelSpec& s) {
      if (position) s.bodies[i].translation = p;
      else s.bodies[i].rotation = specRotationOf(rpy);
    }, ModelDocument::Change::Values, 1000 + i);
  } else if (what == "mass" || what.startsWith("com") || what.startsWith("moment")) {
    // only the edited number changes: the others keep their exact stored values (the fields
    // round them), and off-diagonal products of inertia stay
    const int k = what == "mass" ? -1 : what.right(1).toInt();
    const double value = what == "mass" ? m_mass->value()
                         : what.startsWith("com") ? m_com[k]->value() : m_moments[k]->value();
    const bool com = what.startsWith("com");
    error = m_doc->edit(what == "mass" ? tr("Set mass of '%1'").arg(body)
                                       : tr("Set inertia of '%1'").arg(body),
                        [i, k, value, com](ModelSpec& s) {
                          InertiaSpec& in = s.bodies[i].inertia;
                          if (k < 0) in.mass = value;
                          else if (com) in.com(k) = value;
                          else in.aboutCom(k, k) = value;
                        },
                        ModelDocument::Change::Values, 2000 + i);
  } else if (what == "q0" || what == "qd0") {
    const bool position = what == "q0";
    const double value = position ? m_q0->value() : m_qd0->value();
    error = m_doc->edit(tr("Set initial state of '%1'").arg(body), [i, position, value](ModelSpec& s) {
      (position ? s.bodies[i].q0 : s.bodies[i].qd0) = value;
    }, ModelDocument::Change::Values, 3000 + i);
  }
  m_error->setText(error);
  if (!error.isEmpty()) refresh();  // the field goes back to the stored value
}

}  // namespace art::gui
