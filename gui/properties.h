#pragma once
// The Properties dock for the selected body: name, joint type (and helical pitch), joint
// placement (position, rotation as roll-pitch-yaw or axis-angle in degrees), mass, centre of mass and the
// inertia tensor about it (validated: positive definite, triangle inequality), inertia and
// appearance from a shape and density, the initial joint position and velocity, the drawing
// instructions as an editable list (one instruction per row), the ground-contact points and the
// collision geoms (one geom per row, as the Articulate format writes it). With the
// base selected: the model's gravity and camera (tracked body, zoom). Every field edits the document through an undoable
// command ("Set mass of 'link2'"); a value the model refuses is not stored: the field goes back
// and the reason shows under the form.

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;

namespace art::gui {

class ModelDocument;
class LinkOptionsForm;
class NumberBox;

class PropertiesPanel : public QWidget {
  Q_OBJECT
 public:
  explicit PropertiesPanel(ModelDocument* document, QWidget* parent = nullptr);
  /// Shows a body's properties (-1: the base, that is the model's settings; less: none).
  void setBody(int body);
  int body() const { return m_body; }
  /// The reason the last edit was refused, or empty.
  QString lastError() const;

 protected:
  /// Ctrl+Z and Ctrl+Y in the name field undo and redo the model unless a rename is being
  /// typed (NumberBox does the same for the numeric fields).
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void refresh();
  void commit(const QString& what);
  QString commitMassProperties(const QString& what, int i, const QString& body);
  QString commitAppearance(int i, const QString& body);
  QString commitContacts(int i, const QString& body);
  QString commitGeoms(int i, const QString& body);
  QWidget* listEditor(QListWidget* list, const QString& what, const QString& newItem);
  ModelDocument* m_doc;
  int m_body = -1;
  bool m_updating = false;
  NumberBox* m_source = nullptr;  // the field whose value is being committed
  QLineEdit* m_name;
  QComboBox *m_joint, *m_cameraBody;
  QDoubleSpinBox* m_zoom;
  QDoubleSpinBox *m_pitch, *m_mass, *m_q0, *m_qd0;
  QDoubleSpinBox *m_pos[3], *m_rpy[3], *m_com[3], *m_inertia[6], *m_gravity[3], *m_axisAngle[4];
  QLabel *m_error, *m_none;
  QWidget *m_form, *m_modelForm;
  LinkOptionsForm* m_shape;
  QListWidget *m_appearance, *m_contacts, *m_geoms;
  QPushButton* m_applyShape;
};

}  // namespace art::gui
