#pragma once
// Body-body collision of the soft model's geoms (ModelSpec::geoms), as MuJoCo 2.2.2 computes it
// (mj_collision, mj_collideGeoms and the analytic narrow-phase functions of
// engine_collision_primitive.c and engine_collision_box.c; docs/design/mujoco-collision-2.2.2.md
// is the reading note this follows).
//
// The pairs: every pair of geoms on different bodies whose bounding spheres come within the
// pair's margin, that passes MuJoCo's filters in its order (the bitmasks (contype1 &
// conaffinity2) || (contype2 & conaffinity1); not two static geoms; not a body and its parent
// unless physics.filterParent is off, the base excepted; not an excluded body pair), and every
// explicit pair (ModelSpec::contactPairs), which passes no filter. They come in MuJoCo's order:
// by body pair (the lower body first, the base before every body), then by geom.
//
// The narrow phase: MuJoCo's analytic functions (plane with sphere, capsule, cylinder and box;
// sphere with sphere, capsule and box; capsule with capsule and box; box with box), the plane
// against an ellipsoid or a mesh by their support points, and every other pair of convex
// geoms (meshes as their hulls) by libccd's MPR. The contact's frame is completed by
// mju_makeFrame's rule.

#include <array>
#include <vector>

#include "articulate/model/data.h"
#include "articulate/model/model.h"

namespace art {

/// One contact between two geoms (MuJoCo's mjContact).
struct Contact {
  int geom1 = -1, geom2 = -1;  // indices into model.geoms; geom1's type is the lower (MuJoCo's order)
  double dist = 0.0;           // m: the signed distance of the surfaces (< 0 where they overlap)
  Vec3 pos = Vec3::Zero();     // the midpoint between the surfaces, base coordinates (m)
  // the contact frame: its rows are the normal (from geom1 towards geom2), then two tangents
  // (normal x tangent1 = tangent2), base coordinates
  Mat3 frame = Mat3::Identity();
  int dim = 3;                 // condim: 1, 3, 4 or 6
  std::array<double, 5> friction = {1, 1, 0.005, 0.0001, 0.0001};  // tangent 1, 2, torsional, rolling 1, 2
  SoftParams soft;             // the pair's solref and solimp (mixed, or physics.override's)
  double includeMargin = 0.0;  // m: margin - gap; the contact acts where dist < includeMargin
  bool exclude = false;        // within the margin, outside includeMargin: reported, no rows
  bool explicitPair = false;   // from ModelSpec::contactPairs
  int row = -1;                // its first soft row after softConstraintRows, -1: none
  // the friction cone's coefficient in the soft rows' scaled space, friction[0] sqrt(R_1 / R_0)
  // (MuJoCo's con->mu: friction[0] / sqrt(impratio)); set by softConstraintRows
  double mu = 0.0;
};

/// The contacts of model.geoms at the kinematics in `data` (forwardKinematics, or crba, at the
/// state), appended to `out` after clearing it, in MuJoCo 2.2.2's order. Nothing when the
/// model has no geoms or physics.contact is off.
void collide(const Model& model, const Data& data, std::vector<Contact>& out);

/// A geom's pose in base coordinates at the kinematics in `data`: R its axes (columns), p its centre.
void geomPose(const Model& model, const Data& data, int geom, Mat3& R, Vec3& p);

/// The name of model.geoms[g] in reports: its own name, else "BODY#K", its body's name (or
/// "world") and its place K among that body's geoms in model.geoms (those that collide), from 1.
std::string geomName(const Model& model, int g);

}  // namespace art
