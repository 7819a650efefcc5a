#pragma once
// Spatial (6D) and planar (3D) vector algebra in Featherstone's convention, as spatial_v2:
// Plücker coordinates, angular part first. Motion vectors are [w; v], force vectors [n; f].
// Planar vectors are [wz; vx; vy] and [nz; fx; fy].
//
// A coordinate transform X = rot(E) * xlt(r) is stored compactly as (E, r): E rotates from the
// source frame to the destination frame and r is the destination frame's origin expressed in
// source coordinates. The 6x6 matrix is never formed in the algorithms.

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace art {

using Vec2 = Eigen::Vector2d;
using Vec3 = Eigen::Vector3d;
using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat2 = Eigen::Matrix2d;
using Mat3 = Eigen::Matrix3d;
using Mat6 = Eigen::Matrix<double, 6, 6>;

/// 3x3 cross-product matrix: skew(a) * b == a.cross(b).
inline Mat3 skew(const Vec3& a) {
  Mat3 s;
  s << 0, -a.z(), a.y(), a.z(), 0, -a.x(), -a.y(), a.x(), 0;
  return s;
}

/// Coordinate rotation matrices of spatial_v2 (rotx/roty/rotz, 3x3 part): they map a vector's
/// coordinates from the old frame to a frame rotated by theta (radians) about the axis.
Mat3 rotxE(double theta);
Mat3 rotyE(double theta);
Mat3 rotzE(double theta);

/// a x b for 3-vectors given by pointers (scalar code that always inlines).
inline void cross3(const double* a, const double* b, double* out) {
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

/// Spatial cross product for motion vectors: crm(v) * m.
inline Vec6 crossMotion(const Vec6& v, const Vec6& m) {
  Vec6 out;
  double t[3];
  cross3(v.data(), m.data(), out.data());
  cross3(v.data(), m.data() + 3, out.data() + 3);
  cross3(v.data() + 3, m.data(), t);
  out(3) += t[0];
  out(4) += t[1];
  out(5) += t[2];
  return out;
}

/// Spatial cross product for force vectors: crf(v) * f = -crm(v)' * f.
inline Vec6 crossForce(const Vec6& v, const Vec6& f) {
  Vec6 out;
  double t[3];
  cross3(v.data(), f.data(), out.data());
  cross3(v.data() + 3, f.data() + 3, t);
  out(0) += t[0];
  out(1) += t[1];
  out(2) += t[2];
  cross3(v.data(), f.data() + 3, out.data() + 3);
  return out;
}

/// Planar cross product for motion vectors ([wz; vx; vy]).
inline Vec3 crossMotion(const Vec3& v, const Vec3& m) {
  return Vec3(0.0, v(2) * m(0) - v(0) * m(2), v(0) * m(1) - v(1) * m(0));
}

/// Planar cross product for force vectors ([nz; fx; fy]).
inline Vec3 crossForce(const Vec3& v, const Vec3& f) {
  return Vec3(v(1) * f(2) - v(2) * f(1), -v(0) * f(2), v(0) * f(1));
}

/// Plücker transform X = rot(E) * xlt(r) (6x6 motion transform, applied without forming it).
struct SpatialTransform {
  Mat3 E = Mat3::Identity();  // rotation, source -> destination coordinates
  Vec3 r = Vec3::Zero();      // destination origin in source coordinates (m)

  static SpatialTransform identity() { return {}; }
  /// Pure translation xlt(r).
  static SpatialTransform translation(const Vec3& r) { return {Mat3::Identity(), r}; }
  /// Pure rotation rot(E).
  static SpatialTransform rotation(const Mat3& E) { return {E, Vec3::Zero()}; }

  /// X * m for a motion vector.
  Vec6 apply(const Vec6& m) const {
    Vec6 out;
    Vec3 t;
    cross3(r.data(), m.data(), t.data());
    out.head<3>().noalias() = E * m.head<3>();
    out.tail<3>().noalias() = E * (m.tail<3>() - t);
    return out;
  }
  /// X^-1 * m for a motion vector.
  Vec6 applyInverse(const Vec6& m) const {
    Vec6 out;
    out.head<3>().noalias() = E.transpose() * m.head<3>();
    Vec3 t;
    cross3(r.data(), out.data(), t.data());
    out.tail<3>().noalias() = E.transpose() * m.tail<3>();
    out.tail<3>() += t;
    return out;
  }
  /// X^-T * f: transforms a force vector from source to destination coordinates.
  Vec6 applyForce(const Vec6& f) const {
    Vec6 out;
    Vec3 t;
    cross3(r.data(), f.data() + 3, t.data());
    out.head<3>().noalias() = E * (f.head<3>() - t);
    out.tail<3>().noalias() = E * f.tail<3>();
    return out;
  }
  /// X^T * f: transforms a force vector from destination back to source coordinates.
  Vec6 applyTransposeForce(const Vec6& f) const {
    Vec6 out;
    out.tail<3>().noalias() = E.transpose() * f.tail<3>();
    Vec3 t;
    cross3(r.data(), out.data() + 3, t.data());
    out.head<3>().noalias() = E.transpose() * f.head<3>();
    out.head<3>() += t;
    return out;
  }
  /// X^T * I * X: a spatial inertia (or any symmetric force-motion operator) expressed in
  /// destination coordinates, re-expressed in source coordinates. Uses 3x3 blocks only.
  Mat6 transposeTransformInertia(const Mat6& I) const;

  /// Composition: (*this) * other, i.e. apply `other` first.
  SpatialTransform operator*(const SpatialTransform& o) const {
    return {E * o.E, o.r + o.E.transpose() * r};
  }
  /// X^-1.
  SpatialTransform inverse() const { return {E.transpose(), -(E * r)}; }
  /// The 6x6 motion transform matrix, as spatial_v2 prints it.
  Mat6 matrix() const;
};

inline Mat6 SpatialTransform::transposeTransformInertia(const Mat6& I) const {
  // rotate the 3x3 blocks back to source orientation, then shift by r:
  // xlt(r)^T [A B; B^T M] xlt(r) = [A + rx B^T - B rx - rx M rx, B + rx M; sym, M];
  // products with rx = skew(r) are done as cross products
  const Mat3 Et = E.transpose();
  Mat3 A, B, M;
  A.noalias() = Et * (I.topLeftCorner<3, 3>() * E);
  B.noalias() = Et * (I.topRightCorner<3, 3>() * E);
  M.noalias() = Et * (I.bottomRightCorner<3, 3>() * E);
  Mat3 rxM, Brx, rxMrx;
  for (int j = 0; j < 3; ++j) {
    rxM.col(j) = r.cross(M.col(j));
    Brx.row(j) = B.row(j).cross(r.transpose());
  }
  for (int j = 0; j < 3; ++j) rxMrx.row(j) = rxM.row(j).cross(r.transpose());
  Mat6 out;
  out.topLeftCorner<3, 3>() = A - Brx - Brx.transpose() - rxMrx;
  out.topRightCorner<3, 3>() = B + rxM;
  out.bottomLeftCorner<3, 3>() = out.topRightCorner<3, 3>().transpose();
  out.bottomRightCorner<3, 3>() = M;
  return out;
}

/// Planar Plücker transform plnr(theta, r): rotation by theta about z, then translation r.
struct PlanarTransform {
  double c = 1.0, s = 0.0;  // cos and sin of the rotation angle
  Vec2 r = Vec2::Zero();    // destination origin in source coordinates (m)

  static PlanarTransform identity() { return {}; }
  static PlanarTransform make(double theta, const Vec2& r) {
    return {std::cos(theta), std::sin(theta), r};
  }
  Mat2 E() const {
    Mat2 e;
    e << c, s, -s, c;
    return e;
  }
  Vec3 apply(const Vec3& m) const {
    const double vx = m(1) - r.y() * m(0), vy = m(2) + r.x() * m(0);
    return Vec3(m(0), c * vx + s * vy, -s * vx + c * vy);
  }
  Vec3 applyInverse(const Vec3& m) const {
    const double vx = c * m(1) - s * m(2), vy = s * m(1) + c * m(2);
    return Vec3(m(0), vx + r.y() * m(0), vy - r.x() * m(0));
  }
  Vec3 applyForce(const Vec3& f) const {
    const double n = f(0) - (r.x() * f(2) - r.y() * f(1));
    return Vec3(n, c * f(1) + s * f(2), -s * f(1) + c * f(2));
  }
  Vec3 applyTransposeForce(const Vec3& f) const {
    const double fx = c * f(1) - s * f(2), fy = s * f(1) + c * f(2);
    return Vec3(f(0) + r.x() * fy - r.y() * fx, fx, fy);
  }
  Mat3 transposeTransformInertia(const Mat3& I) const {
    const Mat3 X = matrix();
    return X.transpose() * I * X;
  }
  PlanarTransform operator*(const PlanarTransform& o) const {
    // rotation E1*E2 (angles add); translation o.r + E2^T r
    const Vec2 rr = o.r + o.E().transpose() * r;
    return {c * o.c - s * o.s, s * o.c + c * o.s, rr};
  }
  PlanarTransform inverse() const { return {c, -s, -(E() * r)}; }
  Mat3 matrix() const {
    Mat3 X;
    X << 1, 0, 0, s * r.x() - c * r.y(), c, s, c * r.x() + s * r.y(), -s, c;
    return X;
  }
};

/// Spatial inertia of a rigid body from mass m (kg), centre of mass c (m, body coordinates)
/// and rotational inertia Ic about the centre of mass (kg m^2), as spatial_v2's mcI.
Mat6 spatialInertia(double m, const Vec3& c, const Mat3& Ic);

/// Planar inertia from mass, centre of mass (x, y) and inertia about the COM (z).
Mat3 planarInertia(double m, const Vec2& c, double Izz);

}  // namespace art
