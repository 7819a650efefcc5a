#pragma once
// Joint models of spatial_v2 (jcalc): every joint but the free joint has one position variable q.
//   spatial: Rx Ry Rz (R = Rz) revolute, Px Py Pz (P = Pz) prismatic, H helical about z with a
//            pitch (m per rad): XJ = rotz(q) * xlt([0 0 q*pitch]), S = [0 0 1 0 0 pitch].
//            free: 6 degrees of freedom, 7 position variables q = [x y z qw qx qy qz] (origin of
//            the body in the joint frame, m, and the unit quaternion of the body's orientation
//            in the joint frame, w first) and 6 velocity variables, the body's spatial
//            velocity in body coordinates [wx wy wz vx vy vz] (spatial_v2's FDfb convention):
//            XJ = rot(R(quat)^T) * xlt(p), S = identity(6). Only on bodies of the fixed base.
//            ball: 3 degrees of freedom, 4 position variables q = [qw qx qy qz] (the unit
//            quaternion of the body's orientation in the joint frame, w first) and 3 velocity
//            variables, the body's angular velocity in body coordinates [wx wy wz] (MuJoCo's
//            ball joint): XJ = rot(R(quat)^T), S = [identity(3); 0]. Anywhere in the tree.
//   planar:  r revolute about z, px / py prismatic along x / y.

#include <string>
#include <string_view>

#include "articulate/spatial/spatial.h"

namespace art {

enum class JointType { Rx, Ry, Rz, Px, Py, Pz, H, PlanarR, PlanarPx, PlanarPy, Free, Ball };

/// Whether the joint belongs to planar (3x3) arithmetic.
constexpr bool isPlanar(JointType t) {
  return t == JointType::PlanarR || t == JointType::PlanarPx || t == JointType::PlanarPy;
}

/// Whether the joint is revolute (or helical): its position is an angle in radians.
constexpr bool isRotational(JointType t) {
  return t == JointType::Rx || t == JointType::Ry || t == JointType::Rz || t == JointType::H ||
         t == JointType::PlanarR;
}

/// Whether the joint's orientation is a quaternion (free and ball joints): it has more than one
/// degree of freedom and more position than velocity variables, and it takes no limits,
/// friction or controller.
constexpr bool hasQuaternion(JointType t) { return t == JointType::Free || t == JointType::Ball; }
/// Where the joint's quaternion [qw qx qy qz] starts among its position variables: 3 for a free
/// joint (after x y z), 0 for a ball joint; -1 for joints without one.
constexpr int quaternionOffset(JointType t) {
  return t == JointType::Free ? 3 : t == JointType::Ball ? 0 : -1;
}

/// Number of position variables of a joint (7 for a free joint, 4 for a ball joint, else 1).
constexpr int jointNq(JointType t) {
  return t == JointType::Free ? 7 : t == JointType::Ball ? 4 : 1;
}
/// Number of velocity variables of a joint (6 for a free joint, 3 for a ball joint, else 1).
constexpr int jointNv(JointType t) {
  return t == JointType::Free ? 6 : t == JointType::Ball ? 3 : 1;
}

/// The canonical code of a joint type ("Rx", ..., "H", "r", "px", "py", and Articulate's "free"
/// and "ball").
std::string_view jointCode(JointType t);

/// Parses a spatial_v2 joint code, accepting the aliases "R" (= Rz) and "P" (= Pz).
/// Returns false when the code is unknown.
bool parseJointCode(std::string_view code, JointType& out);

/// Every code parseJointCode accepts, aliases included, separated by spaces
/// ("Rx Ry Rz R Px Py Pz P H free ball r px py"): for messages that list the known codes.
/// Without `quaternionJoints`, the codes of free and ball joints are left out (spatial_v2 has
/// neither).
std::string jointCodeList(bool quaternionJoints = true);

/// One joint: its type and, for helical joints, the pitch in metres per radian.
struct Joint {
  JointType type = JointType::Rz;
  double pitch = 0.0;

  /// Motion subspace S (6-vector, joint coordinates) of a single-DoF spatial joint (zero for a
  /// free joint, whose subspace is the 6x6 identity, and for a ball joint, whose subspace is
  /// the first three columns of it).
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
  /// Joint transform XJ of a free joint from its 7 position variables q7 = [x y z qw qx qy qz]
  /// (the quaternion is normalised here, so any nonzero quaternion gives a rotation).
  static SpatialTransform freeTransform(const double* q7);
  /// Joint transform XJ = rot(R(quat)^T) of a ball joint from its 4 position variables
  /// q4 = [qw qx qy qz] (normalised here, so any nonzero quaternion gives a rotation).
  static SpatialTransform ballTransform(const double* q4);
  /// Direction of the joint's motion in joint coordinates: the rotation axis of a revolute,
  /// helical or planar revolute joint (z for planar r), the translation of a prismatic one
  /// (x or y for planar px, py). Zero for a free or ball joint.
  Vec3 axis() const;
  /// Index k when the motion subspace is the unit vector e_k (spatial: 0..5, planar: 0..2),
  /// else -1 (helical joints).
  int unitAxis() const;
};

}  // namespace art
