// The link options form (see link_options.h).
#include "link_options.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>

#include "articulate/spatial/joint.h"
#include "number_box.h"

namespace art::gui {

namespace {

QDoubleSpinBox* spin(QWidget* parent, double lo, double hi, double value, int decimals,
                     const QString& suffix, const char* name) {
  auto* s = new NumberBox(parent, lo, hi, decimals, suffix);
  s->setKeyboardTracking(true);  // read when a link is added: the value typed so far counts
  s->setValue(value);
  s->setObjectName(name);
  return s;
}

}  // namespace

LinkOptionsForm::LinkOptionsForm(bool withJoint, QWidget* parent) : QWidget(parent) {
  auto* form = new QFormLayout(this);
  if (withJoint) {
    m_joint = new QComboBox(this);
    m_joint->setObjectName("linkJoint");
    m_joint->addItem(tr("Revolute about the axis"), int(JointType::Rz));
    m_joint->addItem(tr("Prismatic along the axis"), int(JointType::Pz));
    m_joint->addItem(tr("Helical about the axis"), int(JointType::H));
    m_axis = new QComboBox(this);
    m_axis->setObjectName("linkAxis");
    m_axis->addItem(tr("Parallel to the clicked body's joint"), int(Axis::ParentJoint));
    m_axis->addItem(tr("Surface normal"), int(Axis::SurfaceNormal));
    m_axis->addItem(tr("x of the clicked body"), int(Axis::X));
    m_axis->addItem(tr("y of the clicked body"), int(Axis::Y));
    m_axis->addItem(tr("z of the clicked body"), int(Axis::Z));
    form->addRow(tr("Joint"), m_joint);
    form->addRow(tr("Axis"), m_axis);
  }
  m_shape = new QComboBox(this);
  m_shape->setObjectName("linkShape");
  m_shape->addItem(tr("Cylinder"), int(Shape::Kind::Cylinder));
  m_shape->addItem(tr("Box"), int(Shape::Kind::Box));
  m_shape->addItem(tr("Ball on a rod"), int(Shape::Kind::Sphere));
  const LinkOptions defaults;
  m_length = spin(this, 0.001, 100, defaults.length, 3, " m", "linkLength");
  m_radius = spin(this, 0.001, 10, defaults.radius, 3, " m", "linkRadius");
  m_density = spin(this, 1, 1e5, defaults.density, 0, QString::fromUtf8(" kg/m\u00b3"), "linkDensity");
  form->addRow(tr("Shape"), m_shape);
  form->addRow(tr("Length"), m_length);
  form->addRow(tr("Radius"), m_radius);
  form->addRow(tr("Density"), m_density);
}

LinkOptions LinkOptionsForm::options() const {
  LinkOptions o;
  if (m_joint) o.joint = static_cast<JointType>(m_joint->currentData().toInt());
  o.shape = static_cast<Shape::Kind>(m_shape->currentData().toInt());
  o.length = m_length->value();
  o.radius = m_radius->value();
  o.density = m_density->value();
  return o;
}

LinkOptionsForm::Axis LinkOptionsForm::axis() const {
  return m_axis ? static_cast<Axis>(m_axis->currentData().toInt()) : Axis::SurfaceNormal;
}

Vec3 LinkOptionsForm::axisFor(const ModelSpec& spec, int body, const Vec3& normal) const {
  switch (axis()) {
    case Axis::X: return Vec3::UnitX();
    case Axis::Y: return Vec3::UnitY();
    case Axis::Z: return Vec3::UnitZ();
    case Axis::ParentJoint:
      // the joint's axis in its successor (the body's own) coordinates
      if (body >= 0 && body < static_cast<int>(spec.bodies.size())) {
        const Joint& j = spec.bodies[body].joint;
        if (!hasQuaternion(j.type) && !isPlanar(j.type)) return j.axis();
      }
      break;
    case Axis::SurfaceNormal: break;
  }
  return normal;
}

void LinkOptionsForm::setJoint(JointType type) {
  if (m_joint) m_joint->setCurrentIndex(std::max(0, m_joint->findData(int(type))));
}

void LinkOptionsForm::setAxis(Axis axis) {
  if (m_axis) m_axis->setCurrentIndex(std::max(0, m_axis->findData(int(axis))));
}

void LinkOptionsForm::setShape(Shape::Kind kind, double length, double radius, double density) {
  m_shape->setCurrentIndex(std::max(0, m_shape->findData(int(kind))));
  m_length->setValue(length);
  m_radius->setValue(radius);
  m_density->setValue(density);
}

}  // namespace art::gui
