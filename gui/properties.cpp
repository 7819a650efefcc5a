// The Properties dock (see properties.h).
#include "properties.h"

#include <cmath>

#include <QComboBox>
#include <QGroupBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QVBoxLayout>

#include <Eigen/Geometry>

#include "articulate/model/appearance.h"
#include "articulate/model/diagnostics.h"
#include "articulate/spatial/joint.h"
#include "articulate/model/edit.h"
#include "articulate/formats/articulate.h"
#include "document.h"
#include "joint_code.h"
#include "link_options.h"
#include "number_box.h"

namespace art::gui {

namespace {

const JointType kSpatialJoints[] = {JointType::Rx, JointType::Ry, JointType::Rz, JointType::Px,
                                    JointType::Py, JointType::Pz, JointType::H, JointType::Ball};
const JointType kPlanarJoints[] = {JointType::PlanarR, JointType::PlanarPx, JointType::PlanarPy};

QDoubleSpinBox* spin(QWidget* parent, double lo, double hi, int decimals, const QString& suffix) {
  return new NumberBox(parent, lo, hi, decimals, suffix);  // one edit per value, not per keystroke
}

template <std::size_t N>
QWidget* row(QWidget* parent, QDoubleSpinBox* const (&boxes)[N], int minimumWidth = 56) {
  auto* w = new QWidget(parent);
  auto* l = new QHBoxLayout(w);
  l->setContentsMargins(0, 0, 0, 0);
  for (QDoubleSpinBox* b : boxes) {
    // share the row's width whatever the range's widest number: the dock stays narrow
    b->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    b->setMinimumWidth(minimumWidth);
    l->addWidget(b);
  }
  return w;
}

// the inertia tensor's entries in the fields' order: xx yy zz, then xy xz yz
constexpr int kInertiaRow[6] = {0, 1, 2, 0, 0, 1}, kInertiaCol[6] = {0, 1, 2, 1, 2, 2};

bool physical(const InertiaSpec& in) {
  try {
    validateInertia(in);
    return true;
  } catch (const EditError&) {
    return false;
  }
}

// one row per drawing instruction: its name and arguments as JSON ("cyl", [[0, 0, 0], ...], 0.02);
// a nested sub-list is a row of its own
QStringList instructionRows(const nlohmann::json& list) {
  QStringList rows;
  if (!list.is_array()) return rows;
  for (std::size_t k = 0; k < list.size();) {
    std::size_t n = 1;
    if (list[k].is_string()) n += static_cast<std::size_t>(std::max(0, instructionArity(list[k].get<std::string>())));
    QStringList parts;
    for (std::size_t j = k; j < std::min(list.size(), k + n); ++j) parts << QString::fromStdString(list[j].dump());
    rows << parts.join(", ");
    k += n;
  }
  return rows;
}

QString pointRow(const Vec3& p) {
  return QString("%1, %2, %3").arg(p.x(), 0, 'g', 10).arg(p.y(), 0, 'g', 10).arg(p.z(), 0, 'g', 10);
}

// a contact point "x, y, z", or a contact sphere "x, y, z, radius"
QString contactRow(const ContactPointSpec& c) {
  return c.radius > 0 ? pointRow(c.point) + QString(", %1").arg(c.radius, 0, 'g', 10) : pointRow(c.point);
}

// replaces a list editor's rows with `rows`, each editable in place
void fillRows(QListWidget* list, const QStringList& rows) {
  list->clear();
  for (const QString& r : rows) {
    auto* item = new QListWidgetItem(r, list);
    item->setFlags(item->flags() | Qt::ItemIsEditable);
  }
}

QStringList rowsOf(const QListWidget* list) {
  QStringList rows;
  for (int k = 0; k < list->count(); ++k) rows << list->item(k)->text();
  return rows;
}

}  // namespace

QWidget* PropertiesPanel::listEditor(QListWidget* list, const QString& what, const QString& newItem) {
  auto* box = new QWidget(m_form);
  auto* layout = new QVBoxLayout(box);
  layout->setContentsMargins(0, 0, 0, 0);
  list->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
  list->setMaximumHeight(110);
  layout->addWidget(list);
  auto* buttons = new QHBoxLayout;
  const auto button = [&](const QString& text, auto action) {
    auto* b = new QPushButton(text, box);
    b->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    b->setMinimumWidth(40);
    b->setObjectName(list->objectName() + text.simplified().remove(' ').remove('&'));
    connect(b, &QPushButton::clicked, this, action);
    buttons->addWidget(b);
  };
  const auto finish = [this, what] { commit(what); };
  button(tr("Add"), [list, newItem, finish] {
    auto* item = new QListWidgetItem(newItem);
    item->setFlags(item->flags() | Qt::ItemIsEditable);
    list->insertItem(list->currentRow() + 1, item);
    finish();
  });
  button(tr("Remove"), [list, finish] {
    if (list->currentRow() < 0) return;
    delete list->takeItem(list->currentRow());
    finish();
  });
  button(tr("Up"), [list, finish] {
    const int r = list->currentRow();
    if (r <= 0) return;
    list->insertItem(r - 1, list->takeItem(r));
    finish();
  });
  button(tr("Down"), [list, finish] {
    const int r = list->currentRow();
    if (r < 0 || r + 1 >= list->count()) return;
    list->insertItem(r + 1, list->takeItem(r));
    finish();
  });
  layout->addLayout(buttons);
  connect(list, &QListWidget::itemChanged, this, [this, what] { commit(what); });
  return box;
}

PropertiesPanel::PropertiesPanel(ModelDocument* document, QWidget* parent)
    : QWidget(parent), m_doc(document) {
  setObjectName("propertiesPanel");
  m_form = new QWidget(this);
  auto* form = new QFormLayout(m_form);
  form->setRowWrapPolicy(QFormLayout::WrapLongRows);  // narrow: labels above, the numbers get the width
  m_name = new QLineEdit(m_form);
  m_name->setObjectName("nameEdit");
  m_joint = new QComboBox(m_form);
  m_joint->setObjectName("jointCombo");
  m_pitch = spin(m_form, -10, 10, 4, " m/rad");
  for (int i = 0; i < 3; ++i) {
    m_pos[i] = spin(m_form, -1e3, 1e3, 4, "");
    m_rpy[i] = spin(m_form, -180, 180, 2, QString::fromUtf8("\u00b0"));
    m_com[i] = spin(m_form, -1e3, 1e3, 4, "");
  }
  for (int i = 0; i < 6; ++i) {
    m_inertia[i] = spin(m_form, i < 3 ? 0 : -1e6, 1e6, 6, "");
    m_inertia[i]->setObjectName(QString("inertia%1").arg(i));
  }
  m_mass = spin(m_form, 0, 1e6, 4, " kg");
  m_mass->setObjectName("massSpin");
  m_q0 = spin(m_form, -1e4, 1e4, 4, "");
  m_qd0 = spin(m_form, -1e4, 1e4, 4, "");
  m_q0->setObjectName("q0Spin");
  m_qd0->setObjectName("qd0Spin");
  form->addRow(tr("Name"), m_name);
  form->addRow(tr("Joint"), m_joint);
  form->addRow(tr("Pitch"), m_pitch);
  form->addRow(tr("Position (m)"), row(m_form, m_pos));
  form->addRow(tr("Rotation (r p y)"), row(m_form, m_rpy));
  for (int i = 0; i < 4; ++i) {
    m_axisAngle[i] = spin(m_form, i < 3 ? -1 : -180, i < 3 ? 1 : 180, i < 3 ? 4 : 2,
                          i < 3 ? QString() : QString::fromUtf8("\u00b0"));
    m_axisAngle[i]->setObjectName(QString("axisAngle%1").arg(i));
  }
  form->addRow(tr("Axis, angle"), row(m_form, m_axisAngle, 50));
  form->addRow(tr("Mass"), m_mass);
  form->addRow(tr("Centre of mass (m)"), row(m_form, m_com));
  QDoubleSpinBox* const diagonal[3] = {m_inertia[0], m_inertia[1], m_inertia[2]};
  QDoubleSpinBox* const products[3] = {m_inertia[3], m_inertia[4], m_inertia[5]};
  form->addRow(tr("Inertia (kg m\u00b2)"), row(m_form, diagonal));
  form->addRow(tr("Products (kg m\u00b2)"), row(m_form, products));
  form->itemAt(form->rowCount() - 2, QFormLayout::LabelRole)->widget()->setToolTip(
      tr("Ixx Iyy Izz about the centre of mass, body axes"));
  form->itemAt(form->rowCount() - 1, QFormLayout::LabelRole)->widget()->setToolTip(
      tr("Ixy Ixz Iyz about the centre of mass, body axes"));
  form->addRow(tr("Initial q"), m_q0);
  form->addRow(tr("Initial qd"), m_qd0);
  auto* shapeBox = new QGroupBox(tr("Inertia and appearance from a shape"), m_form);
  auto* shapeLayout = new QVBoxLayout(shapeBox);
  m_shape = new LinkOptionsForm(false, shapeBox);
  m_applyShape = new QPushButton(tr("Apply Shape"), shapeBox);
  m_applyShape->setObjectName("applyShape");
  m_applyShape->setToolTip(tr("Replace the body's mass properties and appearance with those of "
                              "this shape (along the body's x axis from its origin)"));
  shapeLayout->addWidget(m_shape);
  shapeLayout->addWidget(m_applyShape);
  form->addRow(shapeBox);
  m_appearance = new QListWidget(m_form);
  m_appearance->setObjectName("appearanceList");
  m_appearance->setToolTip(tr("Drawing instructions in body coordinates, one per row, as in "
                              "spatial_v2 (double-click a row to edit it)"));
  form->addRow(tr("Appearance"), listEditor(m_appearance, "appearance", "\"sphere\", [0, 0, 0], 0.05"));
  m_contacts = new QListWidget(m_form);
  m_contacts->setObjectName("contactList");
  m_contacts->setToolTip(tr("Ground-contact points in body coordinates (m): x, y, z; a contact sphere: x, y, z, radius"));
  form->addRow(tr("Contact points"), listEditor(m_contacts, "contacts", "0, 0, 0"));
  m_geoms = new QListWidget(m_form);
  m_geoms->setObjectName("geomList");
  m_geoms->setToolTip(tr("Collision geoms (body-body contact), one per row as the Articulate format writes them: "
                         "type, size (half sizes, m), position, rotation, friction, contype, conaffinity, ... "
                         "(docs/model-format.md, Geoms)"));
  form->addRow(tr("Collision geoms"), listEditor(m_geoms, "geoms", "{\"type\": \"sphere\", \"size\": [0.05]}"));
  // the model's settings, shown with the base selected
  m_modelForm = new QWidget(this);
  auto* modelLayout = new QFormLayout(m_modelForm);
  modelLayout->setRowWrapPolicy(QFormLayout::WrapLongRows);
  for (int i = 0; i < 3; ++i) {
    m_gravity[i] = spin(m_modelForm, -1e3, 1e3, 4, "");
    m_gravity[i]->setObjectName(QString("gravity%1").arg(i));
  }
  modelLayout->addRow(tr("Gravity (m/s\u00b2)"), row(m_modelForm, m_gravity));
  m_cameraBody = new QComboBox(m_modelForm);
  m_cameraBody->setObjectName("cameraBody");
  m_cameraBody->setToolTip(tr("A fixed camera, or one that tracks a body as showmotion's"));
  m_zoom = spin(m_modelForm, 0.01, 100, 3, QString::fromUtf8("\u00d7"));
  m_zoom->setObjectName("cameraZoom");
  modelLayout->addRow(tr("Camera"), m_cameraBody);
  modelLayout->addRow(tr("Camera zoom"), m_zoom);
  connect(m_cameraBody, &QComboBox::currentIndexChanged, this, [this] { commit("cameraBody"); });
  m_error = new QLabel(this);
  m_error->setObjectName("propertyError");
  m_error->setWordWrap(true);
  m_error->setStyleSheet("color: #b00020");
  m_none = new QLabel(tr("Select a body in the Model tree or the view"), this);
  m_none->setAlignment(Qt::AlignCenter);
  m_none->setEnabled(false);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(m_error);  // at the top, where the eye is; the field shows it too
  layout->addWidget(m_none);
  layout->addWidget(m_form);
  layout->addWidget(m_modelForm);
  layout->addStretch(1);

  connect(m_name, &QLineEdit::editingFinished, this, [this] { commit("name"); });
  m_name->installEventFilter(this);
  connect(m_joint, &QComboBox::currentIndexChanged, this, [this] { commit("joint"); });
  connect(m_applyShape, &QPushButton::clicked, this, [this] { commit("shape"); });
  const auto key = [this](QDoubleSpinBox* s) -> QString {
    if (s == m_mass) return "mass";
    if (s == m_pitch) return "pitch";
    if (s == m_q0) return "q0";
    if (s == m_qd0) return "qd0";
    for (int k = 0; k < 3; ++k) {
      if (s == m_pos[k]) return "position";
      if (s == m_rpy[k]) return "rotation";
      if (s == m_axisAngle[k]) return "axisangle";
      if (s == m_com[k]) return QString("com%1").arg(k);
      if (s == m_gravity[k]) return "gravity";
      if (s == m_zoom) return "camera";
    }
    if (s == m_axisAngle[3]) return "axisangle";
    for (int k = 0; k < 6; ++k)
      if (s == m_inertia[k]) return QString("inertia%1").arg(k);
    return {};  // the shape form's own fields
  };
  for (auto* s : findChildren<NumberBox*>()) {
    if (const QString what = key(s); !what.isEmpty())
      connect(s, &QDoubleSpinBox::valueChanged, this, [this, s, what] {
        m_source = s;
        commit(what);
        m_source = nullptr;
      });
    connect(s, &NumberBox::refused, m_error, &QLabel::setText);
  }
  connect(document, &ModelDocument::changed, this, &PropertiesPanel::refresh);
  refresh();
}

void PropertiesPanel::setBody(int body) {
  m_body = body;
  m_error->clear();
  refresh();
}

QString PropertiesPanel::lastError() const { return m_error->text(); }

bool PropertiesPanel::eventFilter(QObject* watched, QEvent* event) {
  if (watched == m_name && event->type() == QEvent::ShortcutOverride) {
    const bool undoRedo = undoKey(static_cast<QKeyEvent*>(event)) || redoKey(static_cast<QKeyEvent*>(event));
    const bool typing = m_body >= 0 && m_body < static_cast<int>(m_doc->spec().bodies.size()) &&
                        m_name->text() != QString::fromStdString(m_doc->spec().bodies[m_body].name);
    if (undoRedo && !typing) {
      event->ignore();  // not the field's: the window's Undo and Redo take the key
      return true;
    }
  }
  return QWidget::eventFilter(watched, event);
}

void PropertiesPanel::refresh() {
  const ModelSpec& s = m_doc->spec();
  const bool valid = m_body >= 0 && m_body < static_cast<int>(s.bodies.size());
  m_form->setVisible(valid);
  m_modelForm->setVisible(m_body == -1);
  m_none->setVisible(!valid && m_body != -1);
  m_updating = true;
  const Vec3 g = s.effectiveGravity();
  for (int i = 0; i < 3; ++i) {
    m_gravity[i]->setValue(g(i));
    m_gravity[i]->setEnabled(i < 2 || s.arithmetic == Arithmetic::Spatial);
  }
  m_cameraBody->clear();
  m_cameraBody->addItem(tr("Fixed"), -1);
  for (int k = 0; k < static_cast<int>(s.bodies.size()); ++k)
    m_cameraBody->addItem(tr("Tracks '%1'").arg(QString::fromStdString(s.bodies[k].name)), k);
  m_cameraBody->setCurrentIndex(std::max(0, m_cameraBody->findData(s.camera.body)));
  m_zoom->setValue(s.camera.zoom.value_or(1.0));
  m_updating = false;
  if (!valid) return;
  m_updating = true;
  const BodySpec& b = s.bodies[m_body];
  const bool planar = s.arithmetic == Arithmetic::Planar;
  m_name->setText(QString::fromStdString(b.name));
  m_joint->clear();
  if (planar)
    for (JointType t : kPlanarJoints) m_joint->addItem(jointCodeText(t), int(t));
  else
    for (JointType t : kSpatialJoints) m_joint->addItem(jointCodeText(t), int(t));
  m_joint->setCurrentIndex(m_joint->findData(int(b.joint.type)));
  m_joint->setEnabled(b.joint.type != JointType::Free);
  m_pitch->setValue(b.joint.pitch);
  m_pitch->setEnabled(b.joint.type == JointType::H);
  // the joint frame's orientation in its parent; the spec stores the inverse
  const Vec3 rpy = rpyAngles(b.rotation.transpose());
  const Eigen::AngleAxisd aa(Mat3(b.rotation.transpose()));
  const Vec3 axis = aa.angle() == 0 ? Vec3::UnitZ() : Vec3(aa.axis());
  for (int i = 0; i < 3; ++i) m_axisAngle[i]->setValue(axis(i));
  m_axisAngle[3]->setValue(aa.angle() * 180.0 / M_PI);
  for (int i = 0; i < 3; ++i) {
    m_pos[i]->setValue(b.translation(i));
    m_rpy[i]->setValue(rpy(i) * 180.0 / M_PI);
  }
  const bool massForm = !b.inertia.raw;
  m_mass->setValue(massForm ? b.inertia.mass : b.inertia.matrix(5, 5));
  for (int i = 0; i < 3; ++i) {
    m_com[i]->setValue(massForm ? b.inertia.com(i) : 0.0);
    m_com[i]->setEnabled(massForm);
  }
  for (int i = 0; i < 6; ++i) {
    m_inertia[i]->setValue(massForm ? b.inertia.aboutCom(kInertiaRow[i], kInertiaCol[i]) : 0.0);
    m_inertia[i]->setEnabled(massForm);
  }
  m_mass->setEnabled(massForm);
  fillRows(m_appearance, instructionRows(b.appearance));
  QStringList points;
  for (const ContactPointSpec& c : s.contacts)
    if (c.body == m_body) points << contactRow(c);
  fillRows(m_contacts, points);
  QStringList geoms;
  if (!s.geoms.empty()) {
    const nlohmann::ordered_json doc = specToJson(s);
    for (std::size_t k = 0; k < s.geoms.size(); ++k)
      if (s.geoms[k].body == m_body) {
        nlohmann::ordered_json geom = doc["geoms"][k];
        geom.erase("body");
        geoms << QString::fromStdString(geom.dump());
      }
  }
  fillRows(m_geoms, geoms);
  m_q0->setValue(b.q0);
  m_qd0->setValue(b.qd0);
  m_q0->setEnabled(!hasQuaternion(b.joint.type));
  m_qd0->setEnabled(!hasQuaternion(b.joint.type));
  m_updating = false;
}

void PropertiesPanel::commit(const QString& what) {
  if (m_updating) return;
  // the reason shows at the top and beside the field; the other fields show the stored values,
  // and the refused field or list keeps what was typed for fixing
  const auto finish = [this, what](const QString& error) {
    m_error->setText(error);
    if (error.isEmpty()) return;
    NumberBox* source = m_source;
    const QString typed = source ? source->typedText() : QString();
    QListWidget* list = what == "appearance" ? m_appearance : what == "contacts" ? m_contacts
                        : what == "geoms"    ? m_geoms : nullptr;
    const QStringList rows = list ? rowsOf(list) : QStringList();
    refresh();
    m_error->setText(error);
    if (source) {
      source->keepText(typed);
      source->refuse(error);
    }
    if (list) {
      m_updating = true;
      fillRows(list, rows);
      m_updating = false;
    }
  };
  QString error;
  if (what == "gravity") {
    Vec3 g;
    for (int k = 0; k < 3; ++k) g(k) = m_gravity[k]->value();
    if (m_doc->spec().arithmetic == Arithmetic::Planar) g.z() = 0;
    error = m_doc->edit(tr("Set gravity"), [g](ModelSpec& s) { s.gravity = g; },
                        ModelDocument::Change::Values, 4000);
    finish(error);
    return;
  }
  if (what == "camera" || what == "cameraBody") {
    const int tracked = m_cameraBody->currentData().toInt();
    const double zoom = m_zoom->value();
    error = m_doc->edit(tr("Set camera"), [tracked, zoom](ModelSpec& s) {
      s.camera.body = tracked;
      s.camera.zoom = zoom;
    }, ModelDocument::Change::Values, what == "camera" ? 4001 : 0);  // zoom steps merge
    finish(error);
    return;
  }
  if (m_body < 0 || m_body >= static_cast<int>(m_doc->spec().bodies.size())) return;
  const int i = m_body;
  const QString body = QString::fromStdString(m_doc->spec().bodies[i].name);
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
  } else if (what == "axisangle") {
    const Vec3 axis(m_axisAngle[0]->value(), m_axisAngle[1]->value(), m_axisAngle[2]->value());
    const double angle = m_axisAngle[3]->value() * M_PI / 180.0;
    if (axis.norm() < 1e-9)
      error = tr("The rotation axis must not be zero.");
    else
      error = m_doc->edit(tr("Set placement of '%1'").arg(body), [i, axis, angle](ModelSpec& s) {
        s.bodies[i].rotation = Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix().transpose();
      }, ModelDocument::Change::Values, 1000 + i);
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
      else s.bodies[i].rotation = rpyRotation(rpy).transpose();
    }, ModelDocument::Change::Values, 1000 + i);
  } else if (what == "mass" || what.startsWith("com") || what.startsWith("inertia")) {
    error = commitMassProperties(what, i, body);
  } else if (what == "appearance") {
    error = commitAppearance(i, body);
  } else if (what == "contacts") {
    error = commitContacts(i, body);
  } else if (what == "geoms") {
    error = commitGeoms(i, body);
  } else if (what == "shape") {
    const LinkOptions o = m_shape->options();
    error = m_doc->edit(tr("Set shape of '%1'").arg(body), [i, o](ModelSpec& s) {
      s.bodies[i].inertia = shapeInertia(linkShape(o), o.density);
      s.bodies[i].appearance = linkAppearance(o);
    });
  } else if (what == "q0" || what == "qd0") {
    const bool position = what == "q0";
    const double value = position ? m_q0->value() : m_qd0->value();
    error = m_doc->edit(tr("Set initial state of '%1'").arg(body), [i, position, value](ModelSpec& s) {
      (position ? s.bodies[i].q0 : s.bodies[i].qd0) = value;
    }, ModelDocument::Change::Values, 3000 + i);
  }
  finish(error);
}

// the mass, a centre-of-mass coordinate or an inertia entry of body i; the refusal, if any
QString PropertiesPanel::commitMassProperties(const QString& what, int i, const QString& body) {
  QString error;
  // only the edited number changes: the others keep their exact stored values (the fields
  // round them). A body whose mass properties are physical must stay so; one loaded without
  // (a massless body of a spatial_v2 model) may be edited towards it.
  const int k = what == "mass" ? -1 : what.right(1).toInt();
  const double value = what == "mass" ? m_mass->value()
                       : what.startsWith("com") ? m_com[k]->value() : m_inertia[k]->value();
  const bool com = what.startsWith("com");
  error = m_doc->edit(what == "mass" ? tr("Set mass of '%1'").arg(body)
                                     : tr("Set inertia of '%1'").arg(body),
                      [i, k, value, com](ModelSpec& s) {
                        InertiaSpec& in = s.bodies[i].inertia;
                        const bool wasPhysical = physical(in);
                        if (k < 0) in.mass = value;
                        else if (com) in.com(k) = value;
                        else in.aboutCom(kInertiaRow[k], kInertiaCol[k]) =
                                 in.aboutCom(kInertiaCol[k], kInertiaRow[k]) = value;
                        if (wasPhysical) validateInertia(in);
                      },
                      ModelDocument::Change::Values, 2000 + i);
  return error;
}

// body i's drawing instructions from the appearance rows; the refusal, if any
QString PropertiesPanel::commitAppearance(int i, const QString& body) {
  QString error;
  nlohmann::json list = nlohmann::json::array();
  for (const QString& row : rowsOf(m_appearance)) {
    nlohmann::json parsed;
    try {
      parsed = nlohmann::json::parse("[" + row.toStdString() + "]");
    } catch (const std::exception&) {
      error = tr("'%1' is not JSON: write an instruction as in spatial_v2, e.g. \"cyl\", [[0, 0, 0], [0.3, 0, 0]], 0.02").arg(row);
      break;
    }
    for (const auto& item : parsed) list.push_back(item);
  }
  if (error.isEmpty()) {
    Diagnostics problems;
    interpretAppearance(list, Vec3::Ones(), false, "appearance", &problems);
    if (!problems.empty()) error = QString::fromStdString(problems.front().text());
  }
  if (error.isEmpty())
    error = m_doc->edit(tr("Set appearance of '%1'").arg(body),
                        [i, list](ModelSpec& s) { s.bodies[i].appearance = list; });
  return error;
}

// body i's contact points from the contact rows; the refusal, if any
QString PropertiesPanel::commitContacts(int i, const QString& body) {
  QString error;
  std::vector<ContactPointSpec> points;
  for (const QString& row : rowsOf(m_contacts)) {
    const QStringList parts = row.split(QRegularExpression("[,\\s]+"), Qt::SkipEmptyParts);
    bool ok = parts.size() == 3 || parts.size() == 4;
    ContactPointSpec c;
    c.body = i;
    for (int k = 0; ok && k < 3; ++k) c.point(k) = parts[k].toDouble(&ok);
    if (ok && parts.size() == 4) c.radius = parts[3].toDouble(&ok);
    if (!ok || !c.point.allFinite() || !(c.radius >= 0) || !std::isfinite(c.radius)) {
      error = tr("'%1' is not a point: write x, y, z in metres, and a sphere's radius (>= 0) after them").arg(row);
      break;
    }
    points.push_back(c);
  }
  if (error.isEmpty())
    error = m_doc->edit(tr("Set contact points of '%1'").arg(body), [i, points](ModelSpec& s) {
      // this body's points replace its old ones where the first of them was
      std::vector<ContactPointSpec> out;
      bool placed = false;
      const auto place = [&] {
        out.insert(out.end(), points.begin(), points.end());
        placed = true;
      };
      for (const ContactPointSpec& c : s.contacts) {
        if (c.body != i) out.push_back(c);
        else if (!placed) place();
      }
      if (!placed) place();
      s.contacts = out;
    });
  return error;
}

// the body's rows replace its geoms in place (a contact pair names geoms by their index, so
// those stay where they are), new rows go after all geoms; each row is read as the Articulate
// format reads a geom, and the whole model must then compile
QString PropertiesPanel::commitGeoms(int i, const QString& body) {
  std::vector<nlohmann::json> rows;
  for (const QString& row : rowsOf(m_geoms)) {
    nlohmann::json g = nlohmann::json::parse(row.toStdString(), nullptr, false);
    if (!g.is_object())
      return tr("'%1' is not a geom: write it as a JSON object, e.g. {\"type\": \"box\", \"size\": [0.1, 0.1, 0.1]}").arg(row);
    if (g.contains("body")) return tr("'%1': a row's geom belongs to this body; leave out \"body\"").arg(row);
    g["body"] = body.toStdString();
    rows.push_back(std::move(g));
  }
  return m_doc->edit(tr("Set collision geoms of '%1'").arg(body), [i, rows](ModelSpec& s) {
    nlohmann::json doc = nlohmann::json::parse(specToJson(s).dump());
    nlohmann::json kept = nlohmann::json::array();
    std::size_t next = 0;
    bool removed = false;
    for (std::size_t k = 0; k < s.geoms.size(); ++k) {
      if (s.geoms[k].body != i) kept.push_back(doc["geoms"][k]);
      else if (next < rows.size()) kept.push_back(rows[next++]);
      else removed = true;
    }
    if (removed && !s.contactPairs.empty())
      throw std::runtime_error("this model's contact pairs name geoms by their place in the list: a geom cannot be "
                               "removed here while it has pairs (edit the file)");
    for (; next < rows.size(); ++next) kept.push_back(rows[next]);
    doc["geoms"] = kept;
    ModelSpec read;
    Diagnostics problems;
    specFromJson(doc, read, problems);
    if (!problems.empty()) throw std::runtime_error(problems.front().text());
    s.geoms = read.geoms;
  });
}

}  // namespace art::gui
