#pragma once
// Structural edits of a ModelSpec that keep every body reference consistent (parents, the
// camera's tracked body, contact points, constraints, external forces): adding a body,
// removing a body with its subtree, and moving a body (with its subtree) under a new parent.
// The model editor's undoable commands are built on these.

#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "articulate/model/spec.h"

namespace art {

/// An edit that would break the tree (a cycle, an unknown body, a duplicate name).
class EditError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// Renumbers every reference to a body outside the bodies' own parents (the camera's tracked
/// body, contact points, sites, external forces, constraints): body b becomes newIndex[b] and the base
/// (-1) stays. A reference to a body whose newIndex is -2 (removed) goes away with its item, and
/// a camera tracking one becomes fixed. newIndex has one entry per body before the renumbering.
void renumberBodyReferences(ModelSpec& spec, const std::vector<int>& newIndex);

/// Appends `body` (its parent must be -1 or an existing body) and returns its index. Throws
/// EditError for an unknown parent or a name that is empty or already used.
int addBody(ModelSpec& spec, BodySpec body);

/// The body and every body below it, in increasing index order.
std::vector<int> subtree(const ModelSpec& spec, int body);

/// Removes a body with its subtree; contact points, constraints and forces on removed bodies
/// go with them and a camera tracking one becomes fixed. Throws EditError for an unknown body.
void removeSubtree(ModelSpec& spec, int body);

/// Makes (q, qd) the model's initial state: each joint's q0 and qd0, a free joint's position,
/// orientation and velocity (q and qd in the compiled model's order: nq and nv entries, see
/// Model::qIndex). An empty qd keeps the initial velocities. A free joint's orientation that q
/// does not change (its stored quaternion normalised, to 1e-14) keeps its stored value. Throws
/// EditError when the spec does not compile or the sizes do not match it.
void setInitialState(ModelSpec& spec, const Eigen::VectorXd& q, const Eigen::VectorXd& qd = {});

/// Moves `body` (with its subtree) under `parent` (-1: the base), keeping its placement
/// relative to the new parent as given, and reorders the bodies so that parents precede
/// children (others keep their order). Returns the body's new index. Throws EditError when
/// `parent` is the body itself or below it (a cycle) or either is unknown.
int reparent(ModelSpec& spec, int body, int parent);

/// A solid of uniform density in body coordinates, for inertia from shape and the editor's new
/// links: a box (axis-aligned, centre `a`, full edge lengths `size`), a cylinder (end-face
/// centres `a` and `b`, radius `radius`) or a sphere (centre `a`, radius `radius`). Metres.
struct Shape {
  enum class Kind { Box, Cylinder, Sphere };
  Kind kind = Kind::Cylinder;
  Vec3 a = Vec3::Zero();
  Vec3 b = Vec3::UnitX();
  Vec3 size = Vec3::Ones();
  double radius = 0.05;
};

/// Mass (kg), centre of mass (body coordinates, m) and rotational inertia about it (kg m^2)
/// of `shape` at `density` (kg/m^3). Throws EditError for a non-positive or non-finite
/// density or dimension, or a cylinder whose end faces coincide.
InertiaSpec shapeInertia(const Shape& shape, double density);

/// The drawing instruction list that shows `shape` (showmotion "box", "cyl" or "sphere").
/// Throws EditError as shapeInertia.
nlohmann::json shapeAppearance(const Shape& shape);

/// Checks mass properties a user entered: a finite mass > 0, and a rotational inertia about
/// the centre of mass that is symmetric, positive definite and whose principal moments obey the
/// triangle inequality (each at most the sum of the other two, as for any real mass
/// distribution). A raw 6x6 inertia must be symmetric with a valid mass and inertia inside.
/// Throws EditError naming what is wrong.
void validateInertia(const InertiaSpec& inertia);

/// What the editor's "Add body" tool makes: a link of a given shape attached at a point.
struct LinkOptions {
  JointType joint = JointType::Rz;  ///< the joint, about/along the frame's axis (z for Rz/Pz/H)
  Shape::Kind shape = Shape::Kind::Cylinder;
  double length = 0.3;      ///< m, along the link frame's x axis
  double radius = 0.02;     ///< m (cylinder, sphere; a box is 2 radius thick)
  double density = 1000.0;  ///< kg/m^3
};

/// The solid of a link made with `o`, in body coordinates: a cylinder from the origin to
/// `length` along `along` (a unit vector), a box of that length centred halfway and 2 radius
/// thick, or a ball of the radius at the far end.
Shape linkShape(const LinkOptions& o, const Vec3& along = Vec3::UnitX());

/// The drawing instructions of linkShape(o, along) (a ball also gets the thin rod it hangs on).
/// Throws EditError for invalid dimensions.
nlohmann::json linkAppearance(const LinkOptions& o, const Vec3& along = Vec3::UnitX());

/// A new body attached to `parent` (-1: the base) at `point` (parent coordinates, m) whose
/// joint axis is `axis` (parent coordinates, any length > 0): the joint frame's z axis is
/// `axis` for Rz, Pz and H joints (x for Rx/Px, y for Ry/Py; planar models keep their plane and
/// use the planar joints), and the link runs `length` along the frame's x axis (perpendicular
/// to the axis, as close to the parent's x as possible). Its name is the first free "linkN";
/// inertia and appearance come from the shape. Throws EditError for an unknown parent, a zero
/// axis or invalid dimensions. The body is not added: pass it to addBody.
BodySpec makeLink(const ModelSpec& spec, int parent, const Vec3& point, const Vec3& axis,
                  const LinkOptions& options);

/// The first name "<stem>N" (N = first, first + 1, ...) that no body of `spec` uses.
std::string freeBodyName(const ModelSpec& spec, const std::string& stem, int first = 1);

}  // namespace art
