#pragma once
// The Move tool's gizmo, in the manner of Blender's and Gazebo's: three arrows that move the
// selected body's joint frame along its axes, three rings that turn it about them, and a ball
// at the frame's origin that moves it in the view plane. Drawn over the scene (the overlay
// renderer) at a constant size on screen; x red, y green, z blue, the part under the mouse
// yellow. Which part a widget point touches is decided on screen, from the projected shapes,
// so that every visible part can be grabbed and nothing invisible can.

#include <functional>
#include <memory>

#include "articulate/spatial/spatial.h"

class vtkRenderer;

namespace art::gui {

/// A part of the gizmo: the origin's ball, an arrow along axis 0..2, or a ring about it.
struct GizmoPart {
  enum class Kind { None, Centre, Arrow, Ring };
  Kind kind = Kind::None;
  int axis = -1;
  bool operator==(const GizmoPart& o) const { return kind == o.kind && axis == o.axis; }
  bool operator!=(const GizmoPart& o) const { return !(*this == o); }
};

class MoveGizmo {
 public:
  /// The gizmo's actors go to `overlay` (drawn over the scene), hidden until place().
  explicit MoveGizmo(vtkRenderer* overlay);
  ~MoveGizmo();
  MoveGizmo(const MoveGizmo&) = delete;
  MoveGizmo& operator=(const MoveGizmo&) = delete;

  /// Shows the gizmo at `origin` (world, m) with its arrows along the columns of `axes`
  /// (orthonormal), each `length` m long (the rings' radius is 0.8 of it), seen from `eye`: a
  /// ring seen edge-on and an arrow seen end-on turn nothing one can aim at, and are hidden
  /// (as Blender hides them) until the view turns.
  void place(const Vec3& origin, const Mat3& axes, double length, const Vec3& eye);
  /// Whether a part is drawn (and can be grabbed) from the eye place() was given.
  bool shown(const GizmoPart& part) const;
  void hide();
  bool visible() const { return m_visible; }
  const Vec3& origin() const { return m_origin; }
  const Mat3& axes() const { return m_axes; }
  double length() const { return m_length; }

  /// Draws `part` highlighted (None: none).
  void highlight(const GizmoPart& part);
  GizmoPart highlighted() const { return m_highlight; }

  /// The part whose drawing passes within a few pixels of `point` (widget pixels), given the
  /// projection of world points into the widget; None when the gizmo is hidden or nothing is
  /// near. The ball comes first, then the nearest arrow or ring.
  GizmoPart partAt(const Vec2& point, const std::function<Vec2(const Vec3&)>& toWidget) const;
  /// The point at s in [0, 1] along a part's drawing (world): from the arrow's start to its
  /// tip, or once round the ring; the ball's is the origin.
  Vec3 partPoint(const GizmoPart& part, double s) const;
  /// A point of part's drawing (world): the arrow's tip, a point of the ring facing `eye`, or
  /// the origin (for tests and hints that place the mouse on a part).
  Vec3 grabPoint(const GizmoPart& part, const Vec3& eye) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> d;
  bool m_visible = false;
  Vec3 m_origin = Vec3::Zero();
  Mat3 m_axes = Mat3::Identity();
  double m_length = 1.0;
  GizmoPart m_highlight;
  bool m_arrowShown[3] = {true, true, true}, m_ringShown[3] = {true, true, true};
};

}  // namespace art::gui
