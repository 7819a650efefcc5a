// The narrow phase's plane, sphere and capsule pairs (MuJoCo 2.2.2's
// engine_collision_primitive.c, as docs/design/mujoco-collision-2.2.2.md reads it, section 3),
// mju_normalize3 and mju_makeFrame, and the dispatch by the pair's types (MuJoCo's table: the
// analytic functions, else MPR).
#include <algorithm>
#include <cmath>

#include "collision_detail.h"

namespace art::detail {

namespace {

using T = GeomSpec::Type;

// spheres (c1, r1) and (c2, r2); coincident centres take the normal z1 x z2 of the geoms' axes
int sphereSphere(const Vec3& c1, const Mat3& R1, double r1, const Vec3& c2, const Mat3& R2, double r2, double margin,
                 ContactPoint* out) {
  const Vec3 dif = c2 - c1;
  const double dist = dif.norm() - r1 - r2;
  if (dist > margin) return 0;
  Vec3 n = dif;
  if (dif.norm() < kCollisionMinValue) n = R1.col(2).cross(R2.col(2));
  normalize3(n);
  out->dist = dist;
  out->normal = n;
  out->hint.setZero();
  out->pos = c1 + n * (r1 + dist / 2);
  return 1;
}

// the plane z = 0 of g1 (normal n, origin p1) against a sphere (c, r)
int planeSphereAt(const Vec3& n, const Vec3& p1, const Vec3& c, double r, double margin, ContactPoint* out) {
  const double centre = (c - p1).dot(n);
  if (centre > margin + r) return 0;
  out->dist = centre - r;
  out->pos = c - n * (r + out->dist / 2);
  out->normal = n;
  out->hint.setZero();
  return 1;
}

int planeCapsule(const PlacedGeom& g1, const PlacedGeom& g2, double margin, ContactPoint* out) {
  const Vec3 n = g1.R.col(2), a = g2.R.col(2);
  int count = 0;
  for (double end : {1.0, -1.0})
    if (planeSphereAt(n, g1.p, g2.p + end * g2.size(1) * a, g2.size(0), margin, out + count)) {
      out[count].hint = a;
      ++count;
    }
  return count;
}

// the corners on the plane's side of the box's centre, within the margin, in corner order
int planeBox(const PlacedGeom& g1, const PlacedGeom& g2, double margin, ContactPoint* out) {
  const Vec3 n = g1.R.col(2);
  const double d0 = (g2.p - g1.p).dot(n);
  int count = 0;
  for (int i = 0; i < 8 && count < 4; ++i) {
    const Vec3 v((i & 1 ? 1 : -1) * g2.size(0), (i & 2 ? 1 : -1) * g2.size(1), (i & 4 ? 1 : -1) * g2.size(2));
    const Vec3 w = g2.R * v;
    const double l = n.dot(w);
    if (d0 + l > margin || l > 0) continue;
    ContactPoint& c = out[count++];
    c.dist = d0 + l;
    c.pos = g2.p + w - n * (c.dist / 2);
    c.normal = n;
    c.hint.setZero();
  }
  return count;
}

// the nearest rim point of the near cap, the far cap's, and two more rim points of the near cap
int planeCylinder(const PlacedGeom& g1, const PlacedGeom& g2, double margin, ContactPoint* out) {
  const Vec3 n = g1.R.col(2);
  Vec3 a = g2.R.col(2);
  const double r = g2.size(0), h = g2.size(1);
  if (n.dot(a) > 0) a = -a;
  const double pa = n.dot(a), d0 = (g2.p - g1.p).dot(n);
  Vec3 v = a * pa - n;
  const double lv = v.norm();
  if (lv >= kCollisionMinValue) v *= r / lv;
  else v = g2.R.col(0) * r;
  const double pv = v.dot(n), pA = pa * h;
  const Vec3 A = a * h;
  const auto put = [&](ContactPoint& c, double d, const Vec3& at) {
    c.dist = d;
    c.pos = at - n * (d / 2);
    c.normal = n;
    c.hint.setZero();
  };
  double d = d0 + pA + pv;
  if (d > margin) return 0;
  int count = 0;
  put(out[count++], d, g2.p + v + A);
  d = d0 - pA + pv;
  if (d <= margin) put(out[count++], d, g2.p + v - A);
  const double pv1 = -pv / 2;
  d = d0 + pA + pv1;
  if (d <= margin) {
    Vec3 u = v.cross(A);
    normalize3(u);
    u *= r * std::sqrt(3.0) / 2;
    put(out[count++], d, g2.p + u + A - v / 2);
    put(out[count++], d, g2.p - u + A - v / 2);
  }
  return count;
}

int sphereCapsule(const PlacedGeom& g1, const PlacedGeom& g2, double margin, ContactPoint* out) {
  const Vec3 A = g2.R.col(2) * g2.size(1);
  const double t = std::clamp(A.dot(g1.p - g2.p) / A.dot(A), -1.0, 1.0);
  return sphereSphere(g1.p, g1.R, g1.size(0), g2.p + t * A, g2.R, g2.size(0), margin, out);
}

int capsuleCapsule(const PlacedGeom& g1, const PlacedGeom& g2, double margin, ContactPoint* out) {
  const Vec3 A1 = g1.R.col(2) * g1.size(1), A2 = g2.R.col(2) * g2.size(1), dif = g1.p - g2.p;
  const double ma = A1.dot(A1), mb = -A1.dot(A2), mc = A2.dot(A2), u = -A1.dot(dif), v = A2.dot(dif);
  const double det = ma * mc - mb * mb;
  const double r1 = g1.size(0), r2 = g2.size(0);
  const auto test = [&](double x1, double x2, ContactPoint* c) {
    return sphereSphere(g1.p + x1 * A1, g1.R, r1, g2.p + x2 * A2, g2.R, r2, margin, c);
  };
  const auto clamp1 = [](double x) { return std::clamp(x, -1.0, 1.0); };
  if (std::abs(det) >= kCollisionMinValue) {
    double x1 = (mc * u - mb * v) / det, x2 = (ma * v - mb * u) / det;
    if (x1 > 1) {
      x1 = 1;
      x2 = (v - mb) / mc;
    } else if (x1 < -1) {
      x1 = -1;
      x2 = (v + mb) / mc;
    }
    if (x2 > 1) {
      x2 = 1;
      x1 = clamp1((u - mb) / ma);
    } else if (x2 < -1) {
      x2 = -1;
      x1 = clamp1((u + mb) / ma);
    }
    return test(x1, x2, out);
  }
  // parallel: the ends of each against the other, until two contacts
  int count = test(1, clamp1((v - mb) / mc), out);
  count += test(-1, clamp1((v + mb) / mc), out + count);
  if (count >= 2) return count;
  count += test(clamp1((u - mb) / ma), 1, out + count);
  if (count >= 2) return count;
  return count + test(clamp1((u + mb) / ma), -1, out + count);
}

}  // namespace

double normalize3(Vec3& v) {
  const double norm = v.norm();
  if (norm < kCollisionMinValue) {
    v = Vec3::UnitX();
  } else {
    v *= 1 / norm;
  }
  return norm;
}

Mat3 makeFrame(Vec3 x, const Vec3& hint) {
  normalize3(x);
  Vec3 y = hint;
  if (y.norm() < 0.5) y = x(1) > -0.5 && x(1) < 0.5 ? Vec3::UnitY() : Vec3::UnitZ();
  const double along = x.dot(y);
  y -= x * along;
  normalize3(y);
  Mat3 frame;
  frame.row(0) = x.transpose();
  frame.row(1) = y.transpose();
  frame.row(2) = x.cross(y).transpose();
  return frame;
}

int narrowPhase(const PlacedGeom& g1, const PlacedGeom& g2, double margin, ContactPoint* out) {
  switch (g1.type) {
    case T::Plane:
      switch (g2.type) {
        case T::Plane: return 0;
        case T::Sphere: return planeSphereAt(g1.R.col(2), g1.p, g2.p, g2.size(0), margin, out);
        case T::Capsule: return planeCapsule(g1, g2, margin, out);
        case T::Cylinder: return planeCylinder(g1, g2, margin, out);
        case T::Box: return planeBox(g1, g2, margin, out);
        case T::Ellipsoid:
        case T::Mesh: return planeConvex(g1, g2, margin, out);
      }
      return 0;
    case T::Sphere:
      switch (g2.type) {
        case T::Sphere: return sphereSphere(g1.p, g1.R, g1.size(0), g2.p, g2.R, g2.size(0), margin, out);
        case T::Capsule: return sphereCapsule(g1, g2, margin, out);
        case T::Box: return sphereBox(g1.p, g1.size(0), g2, margin, out);
        default: break;
      }
      break;
    case T::Capsule:
      if (g2.type == T::Capsule) return capsuleCapsule(g1, g2, margin, out);
      if (g2.type == T::Box) return capsuleBox(g1, g2, margin, out);
      break;
    case T::Box:
      if (g2.type == T::Box) return boxBox(g1, g2, margin, out);
      break;
    default: break;
  }
  return convexPair(g1, g2, margin, out);
}

}  // namespace art::detail
