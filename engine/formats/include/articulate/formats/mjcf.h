#pragma once
// MJCF (MuJoCo's XML model format) import: Articulate's own reader (tinyxml2), following
// MuJoCo's documented semantics, so that files written for newer MuJoCo versions than the one
// Debian ships still open. The mapping and what is left out are in docs/model-format.md,
// section MJCF.
//
// Frames: an MJCF body frame is placed in its parent's frame by pos and an orientation (quat,
// axisangle, euler, xyaxes or zaxis). Hinge and slide joints move the body about or along an
// axis through their pos (body frame) from their reference position `ref`; Articulate's joint
// position q is MuJoCo's qpos. A body with several joints becomes a chain of bodies, the
// joints in file order, the ones before the last without mass. A free joint's q is the body's
// position and orientation quaternion (w x y z) in the world, as MuJoCo's qpos; its velocity is
// Articulate's body-coordinate [angular; linear] (MuJoCo: world linear, then local angular).

#include <string>
#include <vector>

#include "articulate/model/spec.h"

namespace art {

/// Whether `path` names an MJCF file (extension ".xml" or ".mjcf", any case).
bool isMjcfPath(const std::string& path);

/// What an MJCF import reports beside the spec.
struct MjcfImport {
  std::vector<std::string> notes;       // one line per kind of thing skipped, approximated or not modelled
  std::vector<std::string> jointNames;  // per body, its MJCF joint's name (generated for unnamed joints)
  bool floating = false;                // some body is on a free joint
};

/// Reads MJCF text into a spatial ModelSpec. `source` is the file's name: <include file> and
/// the compiler's meshdir/assetdir are relative to its folder. Read: <include> (at any place,
/// nested), <compiler> (angle, eulerseq, meshdir, assetdir, inertiafromgeom,
/// inertiagrouprange, autolimits), <option> (timestep, gravity, integrator), <default> classes
/// with nesting and `childclass`, <asset> meshes and materials, and the <worldbody> tree:
/// bodies (every orientation form), <inertial> (diaginertia or fullinertia), hinge, slide and
/// free joints (range, damping, frictionloss, ref), ball joints as three hinges (noted), geoms
/// (plane, sphere, capsule, ellipsoid, cylinder, box, mesh; size or fromto) as drawing
/// instructions, as the bodies' mass where inertia comes from geoms (MuJoCo's volumes and
/// densities; a mesh by its signed volume), and, when the world has a horizontal plane at
/// z = 0, as ground-contact points of moving bodies; <equality><joint> with a linear polycoef
/// as a coupling constraint. A top-level body without joints is welded to the world; a body
/// without joints inside another merges into it. Everything skipped (attributes of newer
/// MuJoCo that do not change the mechanism, actuators, tendons, sensors, other equalities,
/// armature, springs) is named in `report->notes`.
/// Throws FormatError naming the file, the line and the element for malformed XML, a broken
/// include (missing, cyclic, not <mujoco>), an unknown joint or geom type, numbers that do not
/// read, a free joint below the top level, global coordinates, and invalid masses or sizes.
ModelSpec specFromMjcf(const std::string& xml, const std::string& source, MjcfImport* report = nullptr);

/// Reads an MJCF file (at most 256 MiB) with specFromMjcf. Throws FormatError naming the file.
ModelSpec loadMjcf(const std::string& path, MjcfImport* report = nullptr);

}  // namespace art
