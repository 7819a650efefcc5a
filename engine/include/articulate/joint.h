#pragma once
// Joint models of spatial_v2 (jcalc): every joint has one position variable q.
//   spatial: Rx Ry Rz (R = Rz) revolute, Px Py Pz (P = Pz) prismatic, H helical about z with a
//            pitch (m per rad): XJ = rotz(q) * xlt([0 0 q*pitch]), S = [0 0 1 0 0 pitch].
//   planar:  r revolute about z, px / py prismatic along x / y.

#include <string>
#include <string_view>

#include "articulate/spatial.h"

namespace art {

enum class JointType { Rx, Ry, Rz, Px, Py, Pz, H, PlanarR, PlanarPx, PlanarPy };

/// Whether the joint belongs to planar (3x3) arithmetic.
constexpr bool isPlanar(JointType t) {
  return t == JointType::PlanarR || t == JointType::PlanarPx || t == JointType::PlanarPy;
}

/// Whether the joint is revolute (or helical): its position is an angle in radians.
constexpr bool isRotational(JointType t) {
  return t == JointType::Rx || t == JointType::Ry || t == JointType::Rz || t == JointType::H ||
         t == JointType::PlanarR;
}

/// The canonical spatial_v2 code of a joint type ("Rx", ..., "H", "r", "px", "py").
std::string_view jointCode(JointType t);

/// Parses a spatial_v2 joint code, accepting the aliases "R" (= Rz) and "P" (= Pz).
/// Returns false when the code is unknown.
bool parseJointCode(std::string_view code, JointType& out);

/// One joint: its type and, for helical joints, the pitch in metres per radian.
struct Joint {
  JointType type = JointType::Rz;
  double pitch = 0.0;

  /// Motion subspace S (6-vector, joint coordinates) of a spatial joint.
  Vec6 subspace() const;
  /// Motion subspace S (3-vector) of a planar joint.
  Vec3 planarSubspace() const;
  /// Joint transform XJ(q) of a spatial joint.
  SpatialTransform transform(double q) const;
  /// Joint transform XJ(q) of a planar joint.
  PlanarTransform planarTransform(double q) const;
  /// XJ(q) * Xtree for a spatial joint, exploiting the joint's structure (a rotation about or
  /// a translation along a coordinate axis) instead of a general composition.
  SpatialTransform transformTimes(double q, const SpatialTransform& Xtree) const;
  /// Index k when the motion subspace is the unit vector e_k (spatial: 0..5, planar: 0..2),
  /// else -1 (helical joints).
  int unitAxis() const;
};

}  // namespace art
