#include "articulate/joint.h"

#include <array>
#include <cmath>
#include <utility>

namespace art {

namespace {
constexpr std::array<std::pair<std::string_view, JointType>, 12> kCodes{{
    {"Rx", JointType::Rx},
    {"Ry", JointType::Ry},
    {"Rz", JointType::Rz},
    {"Px", JointType::Px},
    {"Py", JointType::Py},
    {"Pz", JointType::Pz},
    {"H", JointType::H},
    {"r", JointType::PlanarR},
    {"px", JointType::PlanarPx},
    {"py", JointType::PlanarPy},
    {"R", JointType::Rz},
    {"P", JointType::Pz},
}};
}  // namespace

std::string_view jointCode(JointType t) {
  for (const auto& [code, type] : kCodes)
    if (type == t) return code;
  return "?";
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

PlanarTransform Joint::planarTransform(double q) const {
  switch (type) {
    case JointType::PlanarR: return PlanarTransform::make(q, Vec2::Zero());
    case JointType::PlanarPx: return PlanarTransform::make(0.0, Vec2(q, 0));
    case JointType::PlanarPy: return PlanarTransform::make(0.0, Vec2(0, q));
    default: return PlanarTransform::identity();
  }
}

}  // namespace art
