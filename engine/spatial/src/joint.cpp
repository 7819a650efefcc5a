#include "articulate/spatial/joint.h"

#include <array>
#include <cmath>
#include <utility>

#include <Eigen/Geometry>

namespace art {

namespace {
// Every code parseJointCode accepts, in the order jointCodeList shows them; a type's canonical
// code (jointCode) comes before its alias ("Rz" before "R", "Pz" before "P").
constexpr std::array<std::pair<std::string_view, JointType>, 14> kCodes{{
    {"Rx", JointType::Rx},
    {"Ry", JointType::Ry},
    {"Rz", JointType::Rz},
    {"R", JointType::Rz},
    {"Px", JointType::Px},
    {"Py", JointType::Py},
    {"Pz", JointType::Pz},
    {"P", JointType::Pz},
    {"H", JointType::H},
    {"free", JointType::Free},
    {"ball", JointType::Ball},
    {"r", JointType::PlanarR},
    {"px", JointType::PlanarPx},
    {"py", JointType::PlanarPy},
}};
}  // namespace

std::string_view jointCode(JointType t) {
  for (const auto& [code, type] : kCodes)
    if (type == t) return code;
  return "?";
}

std::string jointCodeList(bool quaternionJoints) {
  std::string list;
  for (const auto& [code, type] : kCodes)
    if (quaternionJoints || !hasQuaternion(type)) list += (list.empty() ? "" : " ") + std::string(code);
  return list;
}

bool parseJointCode(std::string_view code, JointType& out) {
  for (const auto& [c, type] : kCodes) {
    if (c == code) {
      out = type;
      return true;
    }
  }
  return false;
}

Vec6 Joint::subspace() const {
  Vec6 S = Vec6::Zero();
  switch (type) {
    case JointType::Rx: S(0) = 1; break;
    case JointType::Ry: S(1) = 1; break;
    case JointType::Rz: S(2) = 1; break;
    case JointType::Px: S(3) = 1; break;
    case JointType::Py: S(4) = 1; break;
    case JointType::Pz: S(5) = 1; break;
    case JointType::H:
      S(2) = 1;
      S(5) = pitch;
      break;
    default: break;  // planar joints have no spatial subspace
  }
  return S;
}

Vec3 Joint::planarSubspace() const {
  switch (type) {
    case JointType::PlanarR: return Vec3(1, 0, 0);
    case JointType::PlanarPx: return Vec3(0, 1, 0);
    case JointType::PlanarPy: return Vec3(0, 0, 1);
    default: return Vec3::Zero();
  }
}

Vec3 Joint::axis() const {
  if (hasQuaternion(type)) return Vec3::Zero();
  if (isPlanar(type)) {
    const Vec3 S = planarSubspace();
    return S(0) != 0 ? Vec3::UnitZ() : Vec3(S(1), S(2), 0);
  }
  const Vec6 S = subspace();
  return S.head<3>().norm() > 0 ? Vec3(S.head<3>()) : Vec3(S.tail<3>());
}

SpatialTransform Joint::transform(double q) const {
  switch (type) {
    case JointType::Rx: return SpatialTransform::rotation(rotxE(q));
    case JointType::Ry: return SpatialTransform::rotation(rotyE(q));
    case JointType::Rz: return SpatialTransform::rotation(rotzE(q));
    case JointType::Px: return SpatialTransform::translation(Vec3(q, 0, 0));
    case JointType::Py: return SpatialTransform::translation(Vec3(0, q, 0));
    case JointType::Pz: return SpatialTransform::translation(Vec3(0, 0, q));
    case JointType::H: return {rotzE(q), Vec3(0, 0, q * pitch)};
    default: return SpatialTransform::identity();
  }
}

SpatialTransform Joint::transformTimes(double q, const SpatialTransform& Xtree) const {
  SpatialTransform X = Xtree;
  const Mat3& E = Xtree.E;
  // rotation by q about axis k: rows (a, b) of E mix as [c s; -s c]; the translation is kept
  auto rotate = [&](int a, int b) {
    double s, c;
    ::sincos(q, &s, &c);
    X.E.row(a) = c * E.row(a) + s * E.row(b);
    X.E.row(b) = c * E.row(b) - s * E.row(a);
  };
  switch (type) {
    case JointType::Rx: rotate(1, 2); break;
    case JointType::Ry: rotate(2, 0); break;
    case JointType::Rz: rotate(0, 1); break;
    // xlt(q e_k) * Xtree = (E, r + q E^T e_k)
    case JointType::Px: X.r += q * E.row(0).transpose(); break;
    case JointType::Py: X.r += q * E.row(1).transpose(); break;
    case JointType::Pz: X.r += q * E.row(2).transpose(); break;
    case JointType::H:
      X.r += (q * pitch) * E.row(2).transpose();
      rotate(0, 1);
      break;
    default: break;
  }
  return X;
}

int Joint::unitAxis() const {
  switch (type) {
    case JointType::Rx: return 0;
    case JointType::Ry: return 1;
    case JointType::Rz: return 2;
    case JointType::Px: return 3;
    case JointType::Py: return 4;
    case JointType::Pz: return 5;
    case JointType::PlanarR: return 0;
    case JointType::PlanarPx: return 1;
    case JointType::PlanarPy: return 2;
    default: return -1;
  }
}

SpatialTransform Joint::ballTransform(const double* q4) {
  // XJ = rot(R^T): E = R^T maps joint-frame to body coordinates
  const Eigen::Quaterniond quat(q4[0], q4[1], q4[2], q4[3]);
  return {quat.normalized().toRotationMatrix().transpose(), Vec3::Zero()};
}

SpatialTransform Joint::freeTransform(const double* q7) {
  // XJ = rot(R^T) * xlt(p): the ball joint's rotation with r = p
  SpatialTransform X = ballTransform(q7 + 3);
  X.r = Vec3(q7[0], q7[1], q7[2]);
  return X;
}

PlanarTransform Joint::planarTransform(double q) const {
  switch (type) {
    case JointType::PlanarR: return PlanarTransform::make(q, Vec2::Zero());
    case JointType::PlanarPx: return PlanarTransform::make(0.0, Vec2(q, 0));
    case JointType::PlanarPy: return PlanarTransform::make(0.0, Vec2(0, q));
    default: return PlanarTransform::identity();
  }
}

}  // namespace art
