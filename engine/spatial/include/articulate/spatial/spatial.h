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

/// Whether R is a proper rotation: R R' and R' R are the identity within `tol` and det R > 0.
inline bool isProperRotation(const Mat3& R, double tol = 1e-9) {
  return R.allFinite() && (R * R.transpose() - Mat3::Identity()).cwiseAbs().maxCoeff() <= tol &&
         (R.transpose() * R - Mat3::Identity()).cwiseAbs().maxCoeff() <= tol && R.determinant() > 0;
}

/// Coordinate rotation matrices of spatial_v2 (rotx/roty/rotz, 3x3 part): they map a vector's
/// coordinates from the old frame to a frame rotated by theta (radians) about the axis.
Mat3 rotxE(double theta);
Mat3 rotyE(double theta);
Mat3 rotzE(double theta);

/// The active rotation R = Rz(yaw) Ry(pitch) Rx(roll) of rpy = [roll, pitch, yaw] (radians;
/// URDF's fixed-axis convention): R maps a vector's coordinates in the rotated frame to the
/// original frame's.
Mat3 rpyRotation(const Vec3& rpy);
/// Roll, pitch and yaw (radians) of a proper rotation R, with rpyRotation(rpyAngles(R)) == R to
/// round-off, also near pitch +-90 degrees where roll and yaw alone are ill-determined.
Vec3 rpyAngles(const Mat3& R);

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
  Mat6 transposeTransformInertia(const Mat6& I) const {
    Mat6 out = Mat6::Zero();
    addTransposeTransformInertia(I, out);
    return out;
  }
  /// out += X^T * I * X, without a 6x6 temporary (I symmetric).
  void addTransposeTransformInertia(const Mat6& I, Mat6& out) const;

  /// Composition: (*this) * other, i.e. apply `other` first.
  SpatialTransform operator*(const SpatialTransform& o) const {
    return {E * o.E, o.r + o.E.transpose() * r};
  }
  /// X^-1.
  SpatialTransform inverse() const { return {E.transpose(), -(E * r)}; }
  /// The 6x6 motion transform matrix, as spatial_v2 prints it.
  Mat6 matrix() const;
};

namespace detail {
// out += xlt(r)' [A1 B1; B1' M1] xlt(r) for A1, M1 symmetric (M1 stored in full, of A1 the upper
// triangle read): [A1 - B1 rx + (B1 rx)' - rx M1 rx, B1 + rx M1; sym, M1] with rx = skew(r).
// Scalar code exploiting symmetry: Eigen's 3x3 products compile to far more instructions.
inline void addShiftedInertia(const double (&A1)[3][3], const double (&B1)[3][3],
                              const double (&M1)[3][3], const Vec3& r, Mat6& out) {
  const double rx = r.x(), ry = r.y(), rz = r.z();
  // C = rx M1 (column j is r x M1(:, j)); D = B1 rx (row i is B1(i, :) x r)
  double C[3][3], D[3][3];
  for (int j = 0; j < 3; ++j) {
    C[0][j] = ry * M1[2][j] - rz * M1[1][j];
    C[1][j] = rz * M1[0][j] - rx * M1[2][j];
    C[2][j] = rx * M1[1][j] - ry * M1[0][j];
    D[j][0] = B1[j][1] * rz - B1[j][2] * ry;
    D[j][1] = B1[j][2] * rx - B1[j][0] * rz;
    D[j][2] = B1[j][0] * ry - B1[j][1] * rx;
  }
  for (int i = 0; i < 3; ++i) {
    // row i of C rx is C(i, :) x r; only the upper triangle is needed (it is symmetric)
    const double Crx[3] = {C[i][1] * rz - C[i][2] * ry, C[i][2] * rx - C[i][0] * rz,
                           C[i][0] * ry - C[i][1] * rx};
    for (int j = i; j < 3; ++j) {
      const double tl = A1[i][j] - D[i][j] - D[j][i] - Crx[j];
      out(i, j) += tl;
      if (j != i) out(j, i) += tl;
    }
    for (int j = 0; j < 3; ++j) {
      const double tr = B1[i][j] + C[i][j];
      out(i, 3 + j) += tr;
      out(3 + j, i) += tr;
      if (j >= i) {
        out(3 + i, 3 + j) += M1[i][j];
        if (j != i) out(3 + j, 3 + i) += M1[i][j];
      }
    }
  }
}
}  // namespace detail

inline void SpatialTransform::addTransposeTransformInertia(const Mat6& I, Mat6& out) const {
  // With I = [A B; B' M] (A, M symmetric), rotate the blocks back to source orientation
  // (A1 = E'AE, B1 = E'BE, M1 = E'ME), then shift by r (detail::addShiftedInertia)
  double A1[3][3], B1[3][3], M1[3][3], T[3][3];
  auto rotate = [&](int r0, int c0, double (&R)[3][3], bool symmetric) {
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        T[i][j] = I(r0 + i, c0) * E(0, j) + I(r0 + i, c0 + 1) * E(1, j) + I(r0 + i, c0 + 2) * E(2, j);
    for (int i = 0; i < 3; ++i)
      for (int j = symmetric ? i : 0; j < 3; ++j)
        R[i][j] = E(0, i) * T[0][j] + E(1, i) * T[1][j] + E(2, i) * T[2][j];
    if (symmetric) {
      R[1][0] = R[0][1];
      R[2][0] = R[0][2];
      R[2][1] = R[1][2];
    }
  };
  rotate(0, 0, A1, true);
  rotate(0, 3, B1, false);
  rotate(3, 3, M1, true);
  detail::addShiftedInertia(A1, B1, M1, r, out);
}

/// The Plücker transform X = rot(E) * xlt(r) of a revolute joint about coordinate axis K (0, 1,
/// 2: x, y, z) whose tree transform does not rotate: E is spatial_v2's rotx, roty or rotz of
/// the joint angle, given by its cosine c and sine s, and mixes only the coordinates (a, b) =
/// (K + 1, K + 2) mod 3. The same operations as SpatialTransform (same conventions, equal to
/// rounding), applied as a translation and a rotation of two coordinates: about a third of the
/// arithmetic of the full 3x3 products.
template <int K>
struct AxisTransform {
  static constexpr int a = (K + 1) % 3, b = (K + 2) % 3;
  double c = 1.0, s = 0.0;  // cosine and sine of the joint angle
  Vec3 r = Vec3::Zero();    // destination origin in source coordinates (m)

  /// The transform of a SpatialTransform X whose E is rot_K(angle) exactly (a tree transform
  /// without rotation times the joint's rotation; E(a, a) = c and E(a, b) = s).
  static AxisTransform from(const SpatialTransform& X) { return {X.E(a, a), X.E(a, b), X.r}; }

  /// X * m for a motion vector.
  Vec6 apply(const Vec6& m) const {
    const double t[3] = {m(3) - (r.y() * m(2) - r.z() * m(1)),
                         m(4) - (r.z() * m(0) - r.x() * m(2)),
                         m(5) - (r.x() * m(1) - r.y() * m(0))};
    Vec6 out;
    out(K) = m(K);
    out(a) = c * m(a) + s * m(b);
    out(b) = c * m(b) - s * m(a);
    out(3 + K) = t[K];
    out(3 + a) = c * t[a] + s * t[b];
    out(3 + b) = c * t[b] - s * t[a];
    return out;
  }
  /// X^T * f: a force vector from destination back to source coordinates.
  Vec6 applyTransposeForce(const Vec6& f) const {
    double n[3], g[3];
    n[K] = f(K);
    n[a] = c * f(a) - s * f(b);
    n[b] = s * f(a) + c * f(b);
    g[K] = f(3 + K);
    g[a] = c * f(3 + a) - s * f(3 + b);
    g[b] = s * f(3 + a) + c * f(3 + b);
    Vec6 out;
    out(0) = n[0] + (r.y() * g[2] - r.z() * g[1]);
    out(1) = n[1] + (r.z() * g[0] - r.x() * g[2]);
    out(2) = n[2] + (r.x() * g[1] - r.y() * g[0]);
    out(3) = g[0];
    out(4) = g[1];
    out(5) = g[2];
    return out;
  }
  /// out += X^T * I * X (I symmetric), as SpatialTransform::addTransposeTransformInertia.
  void addTransposeTransformInertia(const Mat6& I, Mat6& out) const {
    double A1[3][3], B1[3][3], M1[3][3];
    // R = E' S E for a symmetric block S: T = S E changes columns a and b, E' T rows a and b
    auto rotateSymmetric = [&](int o, double (&R)[3][3]) {
      const double Sab = I(o + a, o + b), Saa = I(o + a, o + a), Sbb = I(o + b, o + b);
      R[K][K] = I(o + K, o + K);
      R[K][a] = R[a][K] = c * I(o + K, o + a) - s * I(o + K, o + b);
      R[K][b] = R[b][K] = s * I(o + K, o + a) + c * I(o + K, o + b);
      const double Taa = c * Saa - s * Sab, Tba = c * Sab - s * Sbb;
      const double Tab = s * Saa + c * Sab, Tbb = s * Sab + c * Sbb;
      R[a][a] = c * Taa - s * Tba;
      R[a][b] = R[b][a] = c * Tab - s * Tbb;
      R[b][b] = s * Tab + c * Tbb;
    };
    rotateSymmetric(0, A1);
    rotateSymmetric(3, M1);
    // B1 = E' B E, B the top-right block
    double T[3][3];
    for (int i = 0; i < 3; ++i) {
      T[i][K] = I(i, 3 + K);
      T[i][a] = c * I(i, 3 + a) - s * I(i, 3 + b);
      T[i][b] = s * I(i, 3 + a) + c * I(i, 3 + b);
    }
    for (int j = 0; j < 3; ++j) {
      B1[K][j] = T[K][j];
      B1[a][j] = c * T[a][j] - s * T[b][j];
      B1[b][j] = s * T[a][j] + c * T[b][j];
    }
    detail::addShiftedInertia(A1, B1, M1, r, out);
  }
};

/// Planar Plücker transform plnr(theta, r): rotation by theta about z, then translation r.
struct PlanarTransform {
  double c = 1.0, s = 0.0;  // cos and sin of the rotation angle
  Vec2 r = Vec2::Zero();    // destination origin in source coordinates (m)

  static PlanarTransform identity() { return {}; }
  /// plnr(theta, r): rotation by theta (rad) about z, then translation by r (m).
  static PlanarTransform make(double theta, const Vec2& r) {
    return {std::cos(theta), std::sin(theta), r};
  }
  /// The 2x2 coordinate rotation [c s; -s c].
  Mat2 E() const {
    Mat2 e;
    e << c, s, -s, c;
    return e;
  }
  /// X * m for a planar motion vector.
  Vec3 apply(const Vec3& m) const {
    const double vx = m(1) - r.y() * m(0), vy = m(2) + r.x() * m(0);
    return Vec3(m(0), c * vx + s * vy, -s * vx + c * vy);
  }
  /// X^-1 * m for a planar motion vector.
  Vec3 applyInverse(const Vec3& m) const {
    const double vx = c * m(1) - s * m(2), vy = s * m(1) + c * m(2);
    return Vec3(m(0), vx + r.y() * m(0), vy - r.x() * m(0));
  }
  /// X^-T * f: a planar force from source to destination coordinates.
  Vec3 applyForce(const Vec3& f) const {
    const double n = f(0) - (r.x() * f(2) - r.y() * f(1));
    return Vec3(n, c * f(1) + s * f(2), -s * f(1) + c * f(2));
  }
  /// X^T * f: a planar force from destination back to source coordinates.
  Vec3 applyTransposeForce(const Vec3& f) const {
    const double fx = c * f(1) - s * f(2), fy = s * f(1) + c * f(2);
    return Vec3(f(0) + r.x() * fy - r.y() * fx, fx, fy);
  }
  /// X^T * I * X for a planar inertia.
  Mat3 transposeTransformInertia(const Mat3& I) const {
    const Mat3 X = matrix();
    return X.transpose() * I * X;
  }
  /// out += X^T * I * X.
  void addTransposeTransformInertia(const Mat3& I, Mat3& out) const {
    const Mat3 X = matrix();
    out.noalias() += X.transpose() * I * X;
  }
  /// Composition: (*this) * o, i.e. apply `o` first.
  PlanarTransform operator*(const PlanarTransform& o) const {
    // rotation E1*E2 (angles add); translation o.r + E2^T r
    const Vec2 rr = o.r + o.E().transpose() * r;
    return {c * o.c - s * o.s, s * o.c + c * o.s, rr};
  }
  /// X^-1.
  PlanarTransform inverse() const { return {c, -s, -(E() * r)}; }
  /// The 3x3 matrix plnr(theta, r), as spatial_v2 prints it.
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
