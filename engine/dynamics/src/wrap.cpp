// Tendon wrapping around a sphere or an infinite cylinder, the geometry of MuJoCo 2.2.2's
// mju_wrap ("Modeling" chapter, tendons): both end points are taken into the shape's frame and
// onto a plane (a sphere's: through its centre and both points; a cylinder's: normal to its
// axis), where the path is the two tangent lines and the arc between them; a side point picks
// one of the two candidate paths, or, inside the circle, asks for the path that passes through
// the shape (wrapInside, solved by Newton's method). A cylinder's path then climbs its axis
// in proportion to length. The same branches and tolerances as MuJoCo's, so that lengths and
// moment arms agree to rounding.
#include <algorithm>
#include <cmath>

#include "articulate/dynamics/actuation.h"
#include "detail.h"

namespace art {

namespace {

using detail::kMinVal;  // MuJoCo's mjMINVAL
using detail::kPi;

using V2 = Eigen::Vector2d;

// whether segments p1-p2 and p3-p4 intersect (their parameters both in [0, 1])
bool segmentsCross(const V2& p1, const V2& p2, const V2& p3, const V2& p4) {
  const double det = (p4.y() - p3.y()) * (p2.x() - p1.x()) - (p4.x() - p3.x()) * (p2.y() - p1.y());
  if (std::abs(det) < kMinVal) return false;
  const double a = ((p4.x() - p3.x()) * (p1.y() - p3.y()) - (p4.y() - p3.y()) * (p1.x() - p3.x())) / det;
  const double b = ((p2.x() - p1.x()) * (p1.y() - p3.y()) - (p2.y() - p1.y()) * (p1.x() - p3.x())) / det;
  return a >= 0 && a <= 1 && b >= 0 && b <= 1;
}

// a unit 2-vector, or (1, 0) for a vanishing one (mju_normalize: times 1 / norm)
V2 unit(const V2& v) {
  const double n = v.norm();
  return n < kMinVal ? V2(1, 0) : V2(v * (1 / n));
}

// the arc from p0 to p1 on the circle of radius r, going the way `way` picks
double arcLength(const V2& p0, const V2& p1, int way, double r) {
  double angle = std::acos(unit(p0).dot(unit(p1)));
  const double cross = p0.y() * p1.x() - p0.x() * p1.y();
  if ((cross > 0 && way) || (cross < 0 && !way)) angle = 2 * kPi - angle;
  return r * angle;
}

// the wrap around the circle of radius r about the origin from d0 to d1, on the side of `side`
// (null: the shorter): the tangent points in t0, t1 and the arc's length, or -1 for no wrap
double wrapCircle(const V2& d0, const V2& d1, const V2* side, double r, V2& t0, V2& t1) {
  const double sq0 = d0.squaredNorm(), sq1 = d1.squaredNorm(), rr = r * r;
  if (sq0 < rr || sq1 < rr || r < kMinVal) return -1;
  const V2 dif = d1 - d0;
  const double dd = dif.squaredNorm();
  if (dd < kMinVal) return -1;
  const double a = std::clamp(-dif.dot(d0) / dd, 0.0, 1.0);
  const V2 nearest = d0 + a * dif;  // the segment's point nearest the centre
  if (nearest.squaredNorm() > rr && (!side || side->dot(nearest) >= 0)) return -1;
  V2 sol[2][2];
  double good[2];
  const double s0 = std::sqrt(sq0 - rr), s1 = std::sqrt(sq1 - rr);
  for (int i = 0; i < 2; ++i) {
    const double sg = i == 0 ? 1 : -1;
    sol[i][0] = V2((d0.x() * rr + sg * r * d0.y() * s0) / sq0, (d0.y() * rr - sg * r * d0.x() * s0) / sq0);
    sol[i][1] = V2((d1.x() * rr - sg * r * d1.y() * s1) / sq1, (d1.y() * rr + sg * r * d1.x() * s1) / sq1);
    good[i] = side ? unit(sol[i][0] + sol[i][1]).dot(*side) : -(sol[i][0] - sol[i][1]).squaredNorm();
    if (segmentsCross(d0, sol[i][0], d1, sol[i][1])) good[i] = -10000;
  }
  const int i = good[0] > good[1] ? 0 : 1;
  t0 = sol[i][0];
  t1 = sol[i][1];
  if (segmentsCross(d0, t0, d1, t1)) return -1;
  return arcLength(sol[i][0], sol[i][1], i, r);
}

// the path through the circle (a side point inside it): both tangent points at the one point
// where asin(A z) + asin(B z) - 2 asin(z) + G = 0; returns 0, or -1 for no wrap
double wrapInside(const V2& d0, const V2& d1, double r, V2& t0, V2& t1) {
  constexpr int kMaxIter = 20;
  constexpr double kStart = 1 - 1e-7, kTolerance = 1e-6;
  const double len0 = d0.norm(), len1 = d1.norm();
  const V2 dif = d1 - d0;
  const double dd = dif.squaredNorm();
  if (len0 <= r || len1 <= r || r < kMinVal || len0 < kMinVal || len1 < kMinVal) return -1;
  if (dd > kMinVal) {
    const double a = -dif.dot(d0) / dd;
    if (a > 0 && a < 1 && (d0 + a * dif).norm() <= r) return -1;
  }
  // the fallback on numerical failure: the middle of the two directions
  t0 = r * unit(0.5 * (d0 + d1));
  t1 = t0;
  const double A = r / len0, B = r / len1;
  const double cosG = (len0 * len0 + len1 * len1 - dd) / (2 * len0 * len1);
  if (cosG < -1 + kMinVal) return -1;
  if (cosG > 1 - kMinVal) return 0;
  const double G = std::acos(cosG);
  const auto f = [&](double z) { return std::asin(A * z) + std::asin(B * z) - 2 * std::asin(z) + G; };
  double z = kStart, fz = f(z);
  if (fz > 0) return 0;
  int iter = 0;
  for (; iter < kMaxIter && std::abs(fz) > kTolerance; ++iter) {
    const double df = A / std::max(kMinVal, std::sqrt(1 - z * z * A * A)) +
                      B / std::max(kMinVal, std::sqrt(1 - z * z * B * B)) -
                      2 / std::max(kMinVal, std::sqrt(1 - z * z));
    if (df > -kMinVal) return 0;
    const double z1 = z - fz / df;
    if (z1 > z) return 0;
    z = z1;
    fz = f(z);
    if (fz > kTolerance) return 0;
  }
  if (iter >= kMaxIter) return 0;
  const bool first = d0.x() * d1.y() - d0.y() * d1.x() > 0;
  const V2 v = unit(first ? d0 : d1);
  const double ang = std::asin(z) - std::asin((first ? A : B) * z);
  t0 = r * V2(std::cos(ang) * v.x() - std::sin(ang) * v.y(), std::sin(ang) * v.x() + std::cos(ang) * v.y());
  t1 = t0;
  return 0;
}

// a unit vector, or (1, 0, 0) for a vanishing one (mju_normalize3); returns the norm
double normalize3(Vec3& v) {
  const double n = v.norm();
  if (n < kMinVal)
    v = Vec3::UnitX();
  else
    v *= 1 / n;
  return n;
}

}  // namespace

double wrapTendon(const Vec3& x0, const Vec3& x1, const Vec3& centre, const Mat3& rotation, double radius,
                  bool cylinder, const Vec3* side, Vec3& p0, Vec3& p1) {
  const Vec3 a = rotation.transpose() * (x0 - centre), b = rotation.transpose() * (x1 - centre);
  if (a.norm() < kMinVal || b.norm() < kMinVal) return -1;
  // the plane of the 2D problem: its axes e0, e1
  Vec3 e0 = Vec3::UnitX(), e1 = Vec3::UnitY();
  if (!cylinder) {
    e0 = a;
    normalize3(e0);
    Vec3 normal = a.cross(b);
    if (normalize3(normal) < kMinVal) {  // a and b parallel: any plane through them
      int i = 0;
      if (std::abs(e0.y()) > std::abs(e0.x()) && std::abs(e0.y()) > std::abs(e0.z())) i = 1;
      if (std::abs(e0.z()) > std::abs(e0.x()) && std::abs(e0.z()) > std::abs(e0.y())) i = 2;
      Vec3 other = Vec3::Ones();
      other(i) = 0;
      normal = e0.cross(other);
      normalize3(normal);
    }
    e1 = normal.cross(e0);
    normalize3(e1);
  }
  const V2 d0(a.dot(e0), a.dot(e1)), d1(b.dot(e0), b.dot(e1));
  V2 sd(0, 0);
  if (side) {
    const Vec3 s = rotation.transpose() * (*side - centre);
    sd = V2(s.dot(e0), s.dot(e1));
    const double n = sd.norm();
    if (n >= radius)
      sd = radius * unit(sd);
    else
      sd.setZero();
  }
  V2 t0, t1;
  double length;
  if (side && sd.x() == 0 && sd.y() == 0)
    length = wrapInside(d0, d1, radius, t0, t1);
  else
    length = wrapCircle(d0, d1, side ? &sd : nullptr, radius, t0, t1);
  if (length < 0) return -1;
  Vec3 r0 = e0 * t0.x() + e1 * t0.y(), r1 = e0 * t1.x() + e1 * t1.y();
  if (cylinder) {  // climb the axis in proportion to the path's length
    const double L0 = std::sqrt((a.x() - r0.x()) * (a.x() - r0.x()) + (a.y() - r0.y()) * (a.y() - r0.y()));
    const double L1 = std::sqrt((b.x() - r1.x()) * (b.x() - r1.x()) + (b.y() - r1.y()) * (b.y() - r1.y()));
    r0.z() = a.z() + (b.z() - a.z()) * L0 / (L0 + length + L1);
    r1.z() = a.z() + (b.z() - a.z()) * (L0 + length) / (L0 + length + L1);
    const double height = std::abs(r1.z() - r0.z());
    length = std::sqrt(length * length + height * height);
  }
  p0 = rotation * r0 + centre;
  p1 = rotation * r1 + centre;
  return length;
}

}  // namespace art
