#pragma once
// What the robot-description readers (URDF, urdf.cpp; MJCF, mjcf.cpp) share: numbers and names
// in messages, mass properties of parts, shapes as drawing instructions, a joint axis as a
// coordinate axis, the contact points of a mesh, and a scan of XML nesting. Private to formats.

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "articulate/formats/mesh.h"
#include "articulate/model/spec.h"
#include "articulate/spatial/spatial.h"

namespace art::robot {

/// The shortest decimal that reads back to exactly v (-0 written as 0).
std::string num(double v);
/// "[x y z]" for messages.
std::string vecText(const Vec3& v);
/// [x, y, z] as a JSON array.
nlohmann::json vec(const Vec3& v);

/// Where a part's coordinates go (a URDF link, an MJCF body or frame): the Articulate body that
/// carries it (-1: the base) and x_owner = R x + t (m).
struct Frame {
  int owner = -1;
  Mat3 R = Mat3::Identity();
  Vec3 t = Vec3::Zero();
  /// This frame followed by (R2, t2), given in this frame's coordinates.
  Frame then(const Mat3& R2, const Vec3& t2) const { return {owner, R * R2, R * t2 + t}; }
};

/// Mass properties of one part in its owner's coordinates: kg, centre of mass (m) and the
/// rotational inertia about it (kg m^2).
struct Mass {
  double m = 0;
  Vec3 c = Vec3::Zero();
  Mat3 Ic = Mat3::Zero();
};
/// Several parts' mass properties as one (parallel-axis theorem).
Mass combine(const std::vector<Mass>& parts);

/// A box of full size d turned by R about its centre p, as a "vertices"/"triangles" drawing list.
nlohmann::json boxMesh(const Mat3& R, const Vec3& p, const Vec3& d);
/// Whether R's entries are all 0 or +-1 (to 1e-12): an axis-aligned box stays a "box".
bool signedPermutation(const Mat3& R);

/// The turn A (x_link = A x_body) making unit axis a the body's coordinate axis k (else z).
Mat3 axisTurn(const Vec3& a, int& k);

/// The indices of a mesh's extreme vertices (scaled by `scale`) in 14 directions, the axes and
/// the diagonals, without repeats: vertices of its convex hull, its ground-contact points.
std::vector<Vec3> meshSupportPoints(const MeshData& mesh, const Vec3& scale);

/// A closed triangle mesh's volume (m^3), centre of volume (m) and rotational inertia about that
/// centre per unit mass (m^2), by signed tetrahedra from the origin, its vertices scaled by
/// `scale` (an inside-out winding counts as outward). volume 0, and the rest zero, when it
/// encloses none (|V| <= 1e-18 m^3).
struct MeshMoments {
  double volume = 0;
  Vec3 centre = Vec3::Zero();
  Mat3 inertia = Mat3::Zero();
};
MeshMoments meshMoments(const MeshData& mesh, const Vec3& scale);

/// Makes k a mesh geom that collides as the convex hull (qhull) of `mesh`'s vertices scaled by
/// `scale`: the hull's vertices and faces, placed at the hull's centre of volume along its
/// principal axes (so that MPR starts inside it), that placement composed onto k.position and
/// k.rotation (the mesh's frame in k's body). Throws std::invalid_argument saying why when the
/// vertices span no volume (fewer than 4, or all on one plane).
void setHullGeom(const MeshData& mesh, const Vec3& scale, GeomSpec& k);

/// The pairs of bodies (body1 < body2, -1 the base) whose geoms overlap by more than `depth`
/// (m) at the spec's initial state, among the pairs that collide (collision.h: the filters and
/// excludes applied), in order. Compiles the spec; throws ModelError as compile() does.
std::vector<std::pair<int, int>> overlappingBodies(const ModelSpec& spec, double depth);

/// Whether text is well-formed UTF-8 with no control characters but tab, newline and CR.
bool validUtf8(const std::string& text);
/// A name for a message: bytes outside printable ASCII as \xHH.
std::string printable(const std::string& name);
/// The deepest element nesting of an XML text, by a scan of its markup without recursion.
std::size_t xmlNestingDepth(const std::string& xml);

/// Sets each body's inertia from its parts' mass properties (body coordinates), where it has
/// parts: `masses` has one list per body.
void setInertias(ModelSpec& spec, const std::vector<std::vector<Mass>>& masses);

/// Compiles the spec as a check: a ModelError becomes a FormatError (path `source`) naming the
/// body as "<what> 'NAME'" (what: "link", "body"), and so does a joint-space inertia at the
/// initial state that is not finite (each number finite, their products not: a centre of mass
/// or a joint origin 1e154 m out).
void checkCompiles(const ModelSpec& spec, const std::string& source, const char* what);

/// The lowest height (m, along z) of the spec's ground-contact points and of its moving geoms
/// (planes aside) at the initial state; infinity when it has neither. Compiles the spec.
double lowestPoint(const ModelSpec& spec);

/// Raises or lowers a floating robot (body 0 on a free joint of the base) along the world's z so
/// that its lowest ground-contact point, or the lowest point of its moving geoms (planes aside),
/// touches the ground z = 0 at the initial state, its posture unchanged. Returns the move (m,
/// > 0 up); 0 when it has neither or does not float.
double placeOnGround(ModelSpec& spec);

/// How many of the root's branches (the subtrees of body 0's child bodies) carry a ground-contact
/// point, or a geom (planes aside) whose lowest point, reaches below body 0's origin at the
/// initial state: the legs of a legged robot.
int branchesBelowRoot(const ModelSpec& spec);

/// Moves each one-variable joint's initial position (q0, and each keyframe's q) that lies
/// outside its limits onto the nearest limit: the stops would do it in the first step and add
/// energy. One note per joint and per keyframe, naming the joint by names[i] (the file's joint
/// name; the body's name where it is empty or missing) and the limit.
void clampToLimits(ModelSpec& spec, const std::vector<std::string>& names, std::vector<std::string>& notes);

/// "base" names the fixed base in Articulate's files: a body of that name gets another
/// ("base_link", "base_body" or "urdf_base", the first not taken). Returns the new name, or "".
std::string renameBase(ModelSpec& spec);

}  // namespace art::robot
