#include "articulate/spatial/spatial.h"

#include <cmath>

namespace art {

Mat3 rotxE(double theta) {
  const double c = std::cos(theta), s = std::sin(theta);
  Mat3 E;
  E << 1, 0, 0, 0, c, s, 0, -s, c;
  return E;
}

Mat3 rotyE(double theta) {
  const double c = std::cos(theta), s = std::sin(theta);
  Mat3 E;
  E << c, 0, -s, 0, 1, 0, s, 0, c;
  return E;
}

Mat3 rotzE(double theta) {
  const double c = std::cos(theta), s = std::sin(theta);
  Mat3 E;
  E << c, s, 0, -s, c, 0, 0, 0, 1;
  return E;
}

Mat3 rpyRotation(const Vec3& rpy) {
  return (Eigen::AngleAxisd(rpy(2), Vec3::UnitZ()) * Eigen::AngleAxisd(rpy(1), Vec3::UnitY()) *
          Eigen::AngleAxisd(rpy(0), Vec3::UnitX()))
      .toRotationMatrix();
}

// the roll comes from Rz(-yaw) R = Ry(pitch) Rx(roll), whose entries are not small near pitch
// +-90 degrees, so that the three angles rebuild R even there
Vec3 rpyAngles(const Mat3& R) {
  const double yaw = std::atan2(R(1, 0), R(0, 0));
  const double pitch = std::atan2(-R(2, 0), std::hypot(R(0, 0), R(1, 0)));
  const double s = std::sin(yaw), c = std::cos(yaw);
  return {std::atan2(s * R(0, 2) - c * R(1, 2), c * R(1, 1) - s * R(0, 1)), pitch, yaw};
}

Mat6 SpatialTransform::matrix() const {
  Mat6 X = Mat6::Zero();
  X.topLeftCorner<3, 3>() = E;
  X.bottomRightCorner<3, 3>() = E;
  X.bottomLeftCorner<3, 3>() = -E * skew(r);
  return X;
}

Mat6 spatialInertia(double m, const Vec3& c, const Mat3& Ic) {
  const Mat3 C = skew(c);
  Mat6 I;
  I.topLeftCorner<3, 3>() = Ic + m * C * C.transpose();
  I.topRightCorner<3, 3>() = m * C;
  I.bottomLeftCorner<3, 3>() = m * C.transpose();
  I.bottomRightCorner<3, 3>() = m * Mat3::Identity();
  return I;
}

Mat3 planarInertia(double m, const Vec2& c, double Izz) {
  Mat3 I;
  I << Izz + m * c.squaredNorm(), -m * c.y(), m * c.x(), -m * c.y(), m, 0, m * c.x(), 0, m;
  return I;
}

}  // namespace art
