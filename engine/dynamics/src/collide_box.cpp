// The narrow phase's box pairs (MuJoCo 2.2.2's engine_collision_box.c, as
// docs/design/mujoco-collision-2.2.2.md reads it, section 3.4): sphere-box and capsule-box.
#include <algorithm>
#include <cmath>

#include "collision_detail.h"

namespace art::detail {

// The nearest point of the box to the sphere's centre; a centre inside the box pushes out
// through the nearest face, with 2.2.2's depth of the radius alone (its bug, fixed in 3.2.7:
// reproduced so that contacts agree with 2.2.2)
int sphereBox(const Vec3& c, double r, const PlacedGeom& box, double margin, ContactPoint* out) {
  const Vec3& s = box.size;
  const Vec3 q = box.R.transpose() * (c - box.p);
  Vec3 k = q;
  for (int i = 0; i < 3; ++i)
    if (s(i) > 0) k(i) = std::clamp(q(i), -s(i), s(i));
  Vec3 e = k - q;
  const double D = normalize3(e);
  if (D - r > margin) return 0;
  Vec3 local, dir;
  if (D > kCollisionMinValue) {
    local = (k + (q + r * e)) / 2;
    dir = e;
  } else {
    int face = 0;
    double closest = 0;
    for (int f = 0; f < 6; ++f) {
      const double gap = std::abs((f % 2 ? 1 : -1) * s(f / 2) - q(f / 2));
      if (f == 0 || gap < closest) {
        closest = gap;
        face = f;
      }
    }
    dir = Vec3::Zero();
    dir(face / 2) = face % 2 ? -1 : 1;
    local = q + dir * ((r - closest) / 2);
  }
  out->dist = D - r;
  out->normal = box.R * dir;
  out->pos = box.R * local + box.p;
  out->hint.setZero();
  return 1;
}

namespace {

// the segment's end (sign = -1 or +1) against the box's faces: the end clamped to the box,
// counted only when at most one coordinate was clamped
struct SegmentBest {
  double dist2;           // the best squared distance so far
  double segment = 0;     // where on the segment (-1..1)
  double edge = 0;        // where on the box's edge (-1..1)
  int type = -4;          // -4 none; -3, -1 an end against a face; 0..8 3 s1 + s2 of an edge
  int face = -1;          // the face's axis of an end's contact, -1 the end inside the box
  int corner = 0, axis = 0;  // the edge's corner (0..7 in bits) and axis
};

void segmentEndsAgainstFaces(const Vec3& P, const Vec3& H, const Vec3& s, SegmentBest& best) {
  for (int i = -1; i <= 1; i += 2) {
    const Vec3 end = P + H * i;
    Vec3 k = end;
    int clamped = 0, last = -1;
    for (int j = 0; j < 3; ++j) {
      if (k(j) < -s(j) || k(j) > s(j)) {
        ++clamped;
        last = j;
        k(j) = k(j) < -s(j) ? -s(j) : s(j);
      }
    }
    if (clamped > 1) continue;
    const Vec3 d = k - end;
    const double dist2 = dot3(d, d);
    if (dist2 < best.dist2) {
      best.dist2 = dist2;
      best.segment = i;
      best.type = -2 + i;
      best.face = last;
    }
  }
}

// the segment (P + x2 H, half-length h) against each of the box's twelve edges, as capsule-capsule
// does: s1 and s2 say which end each parameter was clamped to (0 the lower, 1 none, 2 the upper)
void segmentAgainstEdges(const Vec3& P, const Vec3& H, double h, const Vec3& s, SegmentBest& best) {
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 8; ++i) {
      if (i & (1 << j)) continue;
      Vec3 C((i & 1 ? 1 : -1) * s(0), (i & 2 ? 1 : -1) * s(1), (i & 4 ? 1 : -1) * s(2));
      C(j) = 0;
      const Vec3 dif = C - P;
      const double ma = s(j) * s(j), mb = -s(j) * H(j), mc = h * h;
      const double u = -s(j) * dif(j), v = dot3(H, dif);
      const double det = ma * mc - mb * mb;
      if (std::abs(det) < kCollisionMinValue) continue;
      const double idet = 1 / det;
      double x1 = (mc * u - mb * v) * idet, x2 = (ma * v - mb * u) * idet;
      int s1 = 1, s2 = 1;
      const auto clampX1 = [&] {
        if (x1 > 1) x1 = 1, s1 = 2;
        else if (x1 < -1) x1 = -1, s1 = 0;
      };
      if (x1 > 1) {
        x1 = 1, s1 = 2, x2 = (v - mb) * (1 / mc);
      } else if (x1 < -1) {
        x1 = -1, s1 = 0, x2 = (v + mb) * (1 / mc);
      }
      if (x2 > 1) {
        x2 = 1, s2 = 2, x1 = (u - mb) * (1 / ma);
        clampX1();
      } else if (x2 < -1) {
        x2 = -1, s2 = 0, x1 = (u + mb) * (1 / ma);
        clampX1();
      }
      Vec3 d = dif - H * x2;
      d(j) += s(j) * x1;
      const double dist2 = dot3(d, d);
      if (dist2 < best.dist2 - kCollisionMinValue) {
        best.dist2 = dist2;
        best.segment = x2;
        best.edge = x1;
        best.corner = i + (1 << j) * ((3 * s1 + s2) / 6);
        best.axis = j;
        best.type = 3 * s1 + s2;
      }
    }
}

// MuJoCo's heuristic second point along the segment, as an offset from the first in segment
// units; below -3 means none (docs/design/mujoco-collision-2.2.2.md, section 3.4)
double secondSegmentPoint(const Vec3& P, const Vec3& H, const Vec3& axis, const Vec3& s, const SegmentBest& b) {
  const int axisdir = (H(0) > 0) + 2 * (H(1) > 0) + 4 * (H(2) > 0);
  double second = -4;
  if (b.type >= 0 && b.type / 3 != 1) {  // a corner of the box is closest
    int c = axisdir ^ b.corner;
    if (c == 0 || c == 7) return second;  // pointing at or away from the corner
    double mul = 1, de = 1 - b.segment, dp = 1 + b.segment;
    if (c == 3 || c == 5 || c == 6) {
      mul = -1;
      c = 7 - c;
      dp = 1 - b.segment;
      de = 1 + b.segment;
    }
    const int a = c == 1 ? 0 : c == 2 ? 1 : 2, a1 = (a + 1) % 3, a2 = (a + 2) % 3;
    if (axis(a) * axis(a) > 0.5) {  // along the box's edge
      second = std::min(de, 2 * s(a) / std::abs(H(a)));
      return second * mul;
    }
    second = std::min(dp, 2 * s(a1) / std::abs(H(a1)));  // along a face
    second = std::min(second, 2 * s(a2) / std::abs(H(a2)));
    return second * -mul;
  }
  if (b.type >= 0) {  // the inside of an edge: crossing it (X) gives a second point, a T not
    const int c = (axisdir ^ b.corner) & (7 - (1 << b.axis));
    if (c != 1 && c != 2 && c != 4) return second;
    const int a = b.axis;
    int a1 = (a + 1) % 3, a2 = (a + 2) % 3;
    if (std::abs(axis(a1)) > std::abs(axis(a2))) a1 = a2;
    a2 = 3 - a - a1;
    const bool up = c & (1 << a2);
    const double mul = up ? 1 : -1;
    second = up ? 1 - b.segment : 1 + b.segment;
    second = std::min(second, 2 * s(a2) / std::abs(H(a2)));
    const double e2 = (((axisdir & (1 << a)) != 0) == up) ? 1 - b.edge : 1 + b.edge;
    second = std::min(second, s(a) * e2 / std::abs(H(a)));
    return second * mul;
  }
  if (b.face == -1) return second;  // the end is inside the box
  const double mul = b.type == -3 ? 1 : -1;
  second = 2;
  const Vec3 tip = P + H * -mul;
  for (int i = 0; i < 3; ++i) {
    if (i == b.face) continue;
    for (double bound : {s(i), -s(i)}) {
      const double e = (bound - tip(i)) / H(i) * mul;
      if (e > 0 && e < second) second = e;
    }
  }
  return second * mul;
}

}  // namespace

// The capsule's segment closest to the box (an end against a face, or against an edge), a
// sphere-box contact there, and one more where MuJoCo's heuristic expects the capsule to lie
// along the box
int capsuleBox(const PlacedGeom& cap, const PlacedGeom& box, double margin, ContactPoint* out) {
  const Vec3& s = box.size;
  const double r = cap.size(0), h = cap.size(1);
  const Vec3 P = box.R.transpose() * (cap.p - box.p);
  const Vec3 axis = box.R.transpose() * cap.R.col(2);
  const Vec3 H = axis * h;
  SegmentBest best;
  best.dist2 = margin + 2 * (r + h + s(0) + s(1) + s(2));
  segmentEndsAgainstFaces(P, H, s, best);
  segmentAgainstEdges(P, H, h, s, best);
  if (best.type == -4) return 0;
  const double second = secondSegmentPoint(P, H, axis, s, best);
  int count = sphereBox(box.R * (P + H * best.segment) + box.p, r, box, margin, out);
  if (second > -3) count += sphereBox(box.R * (P + H * (second + best.segment)) + box.p, r, box, margin, out + count);
  return count;
}

}  // namespace art::detail
