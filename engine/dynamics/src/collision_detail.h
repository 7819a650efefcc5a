#pragma once
// The narrow phase of collision.h, shared by its files: geoms in base coordinates and MuJoCo
// 2.2.2's analytic functions per pair of types (collide_primitives.cpp, collide_box.cpp,
// collide_box_box.cpp).

#include "articulate/model/model.h"

namespace art::detail {

/// MuJoCo's mjMINVAL.
inline constexpr double kCollisionMinValue = 1e-15;
/// The most contacts one pair of geoms gives: box-box's 16 clipped edge points and 8 corners
/// (MuJoCo's own bound, mjMAXCONPAIR, is 50).
inline constexpr int kMaxPairContacts = 24;

/// A geom placed in base coordinates: its axes R (columns) and centre p; a mesh's hull, and the
/// bounding radius (Model::geomRbound).
struct PlacedGeom {
  GeomSpec::Type type = GeomSpec::Type::Sphere;
  Vec3 size = Vec3::Zero();
  Mat3 R = Mat3::Identity();
  Vec3 p = Vec3::Zero();
  const GeomHull* hull = nullptr;
  double rbound = 0.0;
};

/// A narrow-phase result: distance, midpoint, normal from geom 1 towards geom 2, and the
/// tangent hint of mju_makeFrame (zero: none).
struct ContactPoint {
  double dist = 0.0;
  Vec3 pos = Vec3::Zero(), normal = Vec3::UnitX(), hint = Vec3::Zero();
};

/// MuJoCo's mju_dot3, in its order of summation (Eigen's dot may sum otherwise, which moves
/// ties in the box functions' comparisons)
inline double dot3(const Vec3& a, const Vec3& b) { return a(0) * b(0) + a(1) * b(1) + a(2) * b(2); }

/// MuJoCo's mju_normalize3: scales v to unit length and returns its length; a length below
/// kCollisionMinValue leaves v = (1, 0, 0).
double normalize3(Vec3& v);

/// MuJoCo's mju_makeFrame: the frame's rows are the normal, the tangent (the hint made
/// orthogonal, else y or z of the base) and their cross product.
Mat3 makeFrame(Vec3 normal, const Vec3& hint);

/// The contacts of g1 and g2 within `margin` (m), g1's type not above g2's, written to `out`
/// (room for kMaxPairContacts); returns how many. Two planes give 0.
int narrowPhase(const PlacedGeom& g1, const PlacedGeom& g2, double margin, ContactPoint* out);

/// sphere (centre c, radius r) against box g (collide_box.cpp)
int sphereBox(const Vec3& c, double r, const PlacedGeom& box, double margin, ContactPoint* out);

/// capsule against box, up to 2 contacts (collide_box.cpp)
int capsuleBox(const PlacedGeom& cap, const PlacedGeom& box, double margin, ContactPoint* out);

/// box against box, up to kMaxPairContacts contacts, possibly repeated (collide_box_box.cpp;
/// the driver drops repeats as MuJoCo does)
int boxBox(const PlacedGeom& b1, const PlacedGeom& b2, double margin, ContactPoint* out);

/// any two of sphere, capsule, ellipsoid, cylinder, box and mesh by libccd's MPR, at most 1
/// contact, its normal corrected on round geoms (collide_convex.cpp)
int convexPair(const PlacedGeom& g1, const PlacedGeom& g2, double margin, ContactPoint* out);

/// plane against an ellipsoid (1 contact) or a mesh (up to 3) (collide_convex.cpp)
int planeConvex(const PlacedGeom& plane, const PlacedGeom& g, double margin, ContactPoint* out);

}  // namespace art::detail
