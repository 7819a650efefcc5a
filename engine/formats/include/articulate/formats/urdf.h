#pragma once
// URDF (the ROS Unified Robot Description Format) import and export through Debian's urdfdom:
// its parser reads the XML, its exporter writes it. Both convert between urdf::ModelInterface
// and ModelSpec here. The mapping and what is refused are in docs/model-format.md, section URDF.
//
// Frames: a URDF link frame is the body frame; a joint's <origin> (xyz, fixed-axis
// roll-pitch-yaw) is the joint frame in the parent link's frame, which is BodySpec's
// placement (translation, rotation^T). <inertial> is the mass, the centre of mass and the
// inertia about it in the link frame (a rotated inertial frame is rotated into link axes).

#include <stdexcept>
#include <string>
#include <vector>

#include "articulate/model/spec.h"

namespace art {

/// A model that has no URDF form (a helical or free joint, planar arithmetic, a loop
/// closure); the message names the body or constraint and the reason.
class UrdfError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A URDF document and what the conversion left out.
struct UrdfText {
  std::string xml;                 // the URDF document (UTF-8)
  std::vector<std::string> notes;  // one line per thing not carried over (initial state, ...)
};

/// Whether `path` names a URDF file (extension ".urdf", any case).
bool isUrdfPath(const std::string& path);

/// Converts a spatial kinematic tree to URDF. The fixed base is the root link "world" (which
/// URDF readers take as the fixed frame); a model whose first body is on a free joint (placed
/// at the base's origin, the only body on the base) floats: that body's link is the root link,
/// with no "world". Body i becomes
/// link `name` on joint `name_joint`: Rx Ry Rz as "continuous" about x, y, z of the joint
/// frame, Px Py Pz as "prismatic" (with <limit lower="-1000" upper="1000" effort="1000"
/// velocity="100">, since URDF requires limits and Articulate's joints have none); coupling
/// constraints become <mimic>. Boxes, cylinders and spheres of the appearance become
/// <visual>s with their colour; sphere, box and cylinder geoms become <collision>s named as the
/// geom (read back, they are the same geoms). Numbers are written with 17 significant digits
/// (shortest exact form), so importing the result gives the same dynamics to round-off.
/// Throws UrdfError naming the body and the reason for planar models, helical and ball joints, free
/// joints other than such a root's, and loop constraints. What URDF cannot hold but does not change the tree
/// (gravity other than [0 0 -9.81], initial state, controllers, contact points, other geoms and
/// the geoms' contact parameters, pairs and excludes, equalities, forces, camera, lines,
/// triangles and tiles) is left out and listed in `notes`.
UrdfText specToUrdf(const ModelSpec& spec);

/// specToUrdf written to a file atomically (writeFileAtomically); returns the notes.
/// Throws UrdfError as specToUrdf, std::runtime_error naming the file when it cannot write.
std::vector<std::string> saveUrdf(const std::string& path, const ModelSpec& spec);

/// The deepest XML element nesting a URDF document may have (a real one has about five).
inline constexpr std::size_t kMaxUrdfDepth = 256;

/// How a URDF's root link joins the world.
enum class UrdfBase {
  // from the robot (docs/urdf.md#the-base): fixed for a root link named "world"; else floating
  // when collision geometry reaches below the root link (at the initial pose) in two or more of
  // its branches, the subtrees of its child links (legs); else fixed (arms, mounted mechanisms)
  Auto,
  Fixed,    // the root link is the fixed base: its mass is not used, it does not move
  Floating  // the root link is a body on a free joint, its mass used, standing on the ground
};

/// "auto", "fixed" or "floating"; false for any other text.
bool parseUrdfBase(const std::string& text, UrdfBase& out);

/// What a URDF robot's <collision> geometry becomes (docs/model-format.md#urdf-collision).
enum class UrdfContact {
  // body-body contact (the default): each <collision> a geom of its link's body (a sphere, box
  // or cylinder as it is, a mesh as its convex hull) that collides with the robot's other links
  // and with the ground plane z = 0 (the geom "ground"), in MuJoCo's soft constraint model,
  // which then also holds the joints' limits, friction and <mimic>s; links that are adjacent
  // or that overlap at the initial pose are excluded from each other
  Geoms,
  // ground-contact points of a floating robot on the compliant ground (spheres as contact
  // spheres, boxes by their corners, cylinders by 8 points on each rim, meshes by their extreme
  // vertices in 14 directions), with exact limits; a fixed robot's collisions are not used
  Points
};

/// "geoms" or "points"; false for any other text.
bool parseUrdfContact(const std::string& text, UrdfContact& out);

/// What a URDF import reports beside the spec.
struct UrdfImport {
  std::vector<std::string> notes;       // one line per kind of thing not used (limits, meshes, ...)
  std::vector<std::string> jointNames;  // per body, its URDF joint's name ("" for a floating root)
  bool floating = false;                // the root link floats (body 0, a free joint)
};

/// Reads URDF text into a spatial ModelSpec with the default gravity [0 0 -9.81]. The root
/// link is the fixed base (its own mass is ignored: the base does not move) or, floating
/// (`base`), body 0 on a free joint with its mass and its drawing; "revolute" and
/// "continuous" joints become R joints, "prismatic" joints P joints (about or along x, y or z
/// of the joint frame; any other axis turns the body frame so that the axis is its z, with the
/// link's inertia, drawing and child placements turned to match); "fixed" joints merge the
/// child link into its parent (inertias added, drawings and children moved along); <mimic>
/// becomes a coupling constraint. Visual boxes, cylinders and spheres become drawing
/// instructions in their material's colour; mesh visuals become `mesh` instructions with the
/// file's absolute name (relative to the URDF's folder, file://, or package://NAME/PATH found
/// beside the URDF and in its parent folders, ROS_PACKAGE_PATH, AMENT_PREFIX_PATH/share, then
/// `packagePaths`), in the material's colour, or the file's own without one. A mesh that is
/// not found or does not read is left out with a note naming the link and the file. <limit>
/// becomes the body's JointLimits (position stops on revolute and prismatic joints; effort
/// and velocity when > 0), <dynamics> its damping and friction; with <mimic> joints the stops
/// and friction are left unused (compile refuses them with constraints), with a note.
/// Collision geometry becomes what `contact` says (UrdfContact): geoms, the default, when the
/// robot has any, in the soft constraint model (limits, friction and <mimic>s as its rows, the
/// integrator mujoco-euler at 2 ms); else, or with Points, the exact model. A floating robot is
/// raised or lowered to stand on the ground: its lowest collision geometry at z = 0, its
/// posture unchanged. A
/// joint whose initial position (0) lies outside its limits starts on the nearest limit. Each
/// kind of thing not used, approximated or moved is listed in `notes`, and so is the base and
/// why it was chosen.
/// Throws FormatError (its path() is `source`) naming the link or joint and the reason: XML
/// nested deeper than kMaxUrdfDepth elements (checked before parsing, whose recursion a deeper
/// document would overflow), XML or URDF errors reported by urdfdom, "floating" and "planar"
/// joints, a zero joint axis, invalid mass properties or geometry sizes.
ModelSpec specFromUrdf(const std::string& xml, const std::string& source, UrdfImport* report,
                       UrdfBase base = UrdfBase::Auto, const std::vector<std::string>& packagePaths = {},
                       UrdfContact contact = UrdfContact::Geoms);
/// specFromUrdf with the notes alone, the base chosen by UrdfBase::Auto.
ModelSpec specFromUrdf(const std::string& xml, const std::string& source,
                       std::vector<std::string>* notes = nullptr);

/// Reads a URDF file (at most 256 MiB) with specFromUrdf. Throws FormatError naming the file.
ModelSpec loadUrdf(const std::string& path, UrdfImport* report, UrdfBase base = UrdfBase::Auto,
                   const std::vector<std::string>& packagePaths = {}, UrdfContact contact = UrdfContact::Geoms);
ModelSpec loadUrdf(const std::string& path, std::vector<std::string>* notes = nullptr);

}  // namespace art
