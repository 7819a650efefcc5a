#pragma once
// The options of a new or reshaped link: joint and axis (for the viewport's Add Body tool),
// shape, length, radius and density. The Add Body tool shows it as its popup; the Properties
// dock uses the shape half to compute a body's inertia and appearance from a shape.

#include <QWidget>

#include "articulate/model/edit.h"

class QComboBox;
class QDoubleSpinBox;

namespace art::gui {

class LinkOptionsForm : public QWidget {
  Q_OBJECT
 public:
  /// Which direction the new joint's axis takes: parallel to the clicked body's own joint axis
  /// (a planar chain; the surface normal on the base), the clicked surface's normal, or an axis
  /// of the clicked body's (or the base's) coordinates.
  enum class Axis { ParentJoint, SurfaceNormal, X, Y, Z };

  /// `withJoint`: show the joint and axis choices (the Add Body tool), else only the shape.
  explicit LinkOptionsForm(bool withJoint, QWidget* parent = nullptr);
  LinkOptions options() const;
  Axis axis() const;
  /// The axis direction (clicked body's coordinates) for a click on body `body` (-1: the base)
  /// of `spec` with surface normal `normal` (body coordinates).
  Vec3 axisFor(const ModelSpec& spec, int body, const Vec3& normal) const;
  void setJoint(JointType type);
  void setAxis(Axis axis);
  void setShape(Shape::Kind kind, double length, double radius, double density);

 private:
  QComboBox *m_joint = nullptr, *m_axis = nullptr, *m_shape;
  QDoubleSpinBox *m_length, *m_radius, *m_density;
};

}  // namespace art::gui
