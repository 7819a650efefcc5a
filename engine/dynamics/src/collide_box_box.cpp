// The narrow phase's box-box pair: MuJoCo 2.2.2's mjc_BoxBox (engine_collision_box.c), as
// docs/design/mujoco-collision-2.2.2.md reads it (section 3.4): the separating-axis test over
// the fifteen axes, then the clipping of the incident box's face (or edges) against the
// reference face. Its tie-breaks and two of its quirks are kept so that contacts agree with
// 2.2.2: a face contact's distance is half the separation (fixed in later MuJoCo), and the
// edge case's reference-corner test reuses the clip determinant's variable for each corner's
// squared distance.
#include <cmath>

#include "collision_detail.h"

namespace art::detail {

namespace {

// the deepest of the fifteen axes: code 0..5 a face of box 1 (axis, +3 for the negative side),
// 6..11 a face of box 2, 12 + 3 i + j the edges along box 1's axis i and box 2's axis j
struct Separation {
  double depth = 0;
  int code = -1;
  Vec3 normal = Vec3::Zero();  // an edge pair's axis, in box 1's coordinates
  bool inward = false;         // the edge axis points from box 2 to box 1
  int edge1 = 0, edge2 = 0;    // which edge of each box, as corner bits
};

// the signed permutation that turns face `face` (axis face % 3, negative side from 3) to +z
Mat3 faceTurn(int face) {
  Mat3 M = Mat3::Zero();
  switch (face) {
    case 0: M(0, 2) = -1, M(1, 1) = 1, M(2, 0) = 1; break;
    case 1: M(0, 0) = 1, M(1, 2) = -1, M(2, 1) = 1; break;
    case 2: M = Mat3::Identity(); break;
    case 3: M(0, 2) = 1, M(1, 1) = 1, M(2, 0) = -1; break;
    case 4: M(0, 0) = 1, M(1, 2) = 1, M(2, 1) = -1; break;
    default: M(0, 0) = -1, M(1, 1) = 1, M(2, 2) = -1; break;
  }
  return M;
}

// false when an axis separates the boxes by more than the margin
bool deepestAxis(const Vec3& s1, const Vec3& s2, const Vec3& pos21, const Vec3& pos12, const Mat3& Q, double margin,
                 Separation& sep) {
  const Mat3 Qa = Q.cwiseAbs();
  Vec3 plen1, plen2;
  for (int i = 0; i < 3; ++i) {
    plen2(i) = Qa(i, 0) * s2(0) + Qa(i, 1) * s2(1) + Qa(i, 2) * s2(2);
    plen1(i) = Qa(0, i) * s1(0) + Qa(1, i) * s1(1) + Qa(2, i) * s1(2);
  }
  sep.depth = margin;
  for (int i = 0; i < 3; ++i) sep.depth += s1(i) * 3 + s2(i) * 3;
  for (int i = 0; i < 3; ++i) {
    const double c1 = -std::abs(pos21(i)) + s1(i) + plen2(i), c2 = -std::abs(pos12(i)) + s2(i) + plen1(i);
    if (c1 < -margin || c2 < -margin) return false;
    if (c1 < sep.depth) sep.depth = c1, sep.code = i + 3 * (pos21(i) < 0);
    if (c2 < sep.depth) sep.depth = c2, sep.code = i + 3 * (pos12(i) < 0) + 6;
  }
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      Vec3 w = Vec3::Zero();  // box 1's axis i crossed with box 2's axis j
      if (i == 0) w(1) = -Q(2, j), w(2) = Q(1, j);
      else if (i == 1) w(0) = Q(2, j), w(2) = -Q(0, j);
      else w(0) = -Q(1, j), w(1) = Q(0, j);
      const double len = normalize3(w);
      if (len < kCollisionMinValue) continue;
      const double along = dot3(pos21, w);
      double c3 = 0;
      for (int k = 0; k < 3; ++k)
        if (k != i) c3 += s1(k) * std::abs(w(k));
      for (int k = 0; k < 3; ++k)
        if (k != j) c3 += s2(k) * Qa(i, 3 - k - j) / len;
      c3 -= std::abs(along);
      if (c3 < -margin) return false;
      if (c3 < sep.depth * (1 - 1e-12)) {
        sep.depth = c3;
        sep.edge1 = sep.edge2 = 0;
        for (int k = 0; k < 3; ++k)
          if (k != i && ((w(k) > 0) ^ (along < 0))) sep.edge1 += 1 << k;
        for (int k = 0; k < 3; ++k)
          if (k != j && ((Q(i, 3 - k - j) > 0) ^ (along < 0) ^ ((k - j + 3) % 3 == 1))) sep.edge2 += 1 << k;
        sep.code = 12 + 3 * i + j;
        sep.normal = w;
        sep.inward = along < 0;
      }
    }
  return sep.code != -1;
}

// the clipped points of a segment (origin o, direction d, both in the reference face's
// coordinates) where it crosses the rectangle |x| = ext(0), |y| = ext(1), for t in [0, 1]
template <class Add>
void clipSegment(const Vec3& o, const Vec3& d, const Vec3& ext, Add&& add) {
  for (int q = 0; q < 2; ++q) {
    const double a = o(q), b = d(q), c = o(1 - q), e = d(1 - q);
    if (!(std::abs(b) > kCollisionMinValue)) continue;
    for (int j = -1; j <= 1; j += 2) {
      const double l = ext(q) * j, t = (l - a) * (1 / b);
      if (t < 0 || t > 1) continue;
      const double other = c + e * t;
      if (std::abs(other) > ext(1 - q)) continue;
      add(q, l, t, other);
    }
  }
}

// a face of one box (code < 12) is the reference: the incident box's nearest face, edge or
// corner, clipped to it, the points below the margin
int faceContacts(const PlacedGeom& b1, const PlacedGeom& b2, const Mat3& Q, const Vec3& pos21, const Vec3& pos12, int code,
                 double margin, ContactPoint* out) {
  const int q1 = code % 6;
  const bool second = code / 6;  // box 2's face is the reference
  const Mat3 M = faceTurn(q1);
  const Mat3 r = second ? Mat3(M * Q.transpose()) : Mat3(M * Q);  // columns: the incident box's axes
  Vec3 p = M * (second ? pos12 : pos21);
  const Vec3 ext = (M * (second ? b2.size : b1.size)).cwiseAbs();
  const Vec3& s = second ? b1.size : b2.size;
  const double lx = ext(0), ly = ext(1), hz = ext(2);
  p(2) -= hz;
  int corner = 0;
  for (int i = 0; i < 3; ++i)
    if (r(2, i) < 0) corner += 1 << i;
  Vec3 pts[6] = {p, Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), Vec3::Zero()};
  for (int i = 0; i < 3; ++i) pts[0] += r.col(i) * (s(i) * (corner & (1 << i) ? 1 : -1));
  int m = 1;
  for (int i = 0; i < 3; ++i)
    if (std::abs(r(2, i)) < 0.5) pts[m++] = r.col(i) * (s(i) * (corner & (1 << i) ? -2 : 2));
  pts[3] = pts[0] + pts[1];
  pts[4] = pts[0] + pts[2];
  pts[5] = pts[3] + pts[2];
  Vec3 points[24];
  int n = 0;
  const auto clip = [&](const Vec3& o, const Vec3& d) {
    clipSegment(o, d, ext, [&](int, double, double t, double) { points[n++] = o + d * t; });
  };
  if (m > 1) clip(pts[0], pts[1]);
  if (m > 2) {
    clip(pts[0], pts[2]);
    clip(pts[3], pts[2]);
    clip(pts[4], pts[1]);
    const double a = pts[1](0), b = pts[2](0), c = pts[1](1), d = pts[2](1), det = a * d - b * c;
    for (int i = 0; i < 4; ++i) {  // reference corners inside the incident face
      const double cx = i / 2 ? lx : -lx, cy = i % 2 ? ly : -ly, x = cx - pts[0](0), y = cy - pts[0](1);
      const double u = (x * d - y * b) * (1 / det), v = (y * a - x * c) * (1 / det);
      if (u <= 0 || v <= 0 || u >= 1 || v >= 1) continue;
      points[n++] = Vec3(cx, cy, pts[0](2) + u * pts[1](2) + v * pts[2](2));
    }
  }
  for (int i = 0; i < 1 << (m - 1); ++i) {  // incident corners inside the reference face
    const Vec3& t = pts[i == 0 ? 0 : i + 2];
    if (i && (t(0) <= -lx || t(0) >= lx || t(1) <= -ly || t(1) >= ly)) continue;
    points[n++] = t;
  }
  const Mat3 R = (second ? b2.R : b1.R) * M.transpose();
  const Vec3 normal = R.col(2) * (second ? -1 : 1);
  const Vec3& origin = second ? b2.p : b1.p;
  int count = 0;
  for (int i = 0; i < n; ++i) {
    if (points[i](2) > margin) continue;
    ContactPoint& c = out[count++];
    c.dist = points[i](2) * 0.5;  // 2.2.2: half the separation
    c.pos = R * Vec3(points[i](0), points[i](1), c.dist + hz) + origin;
    c.normal = normal;
    c.hint.setZero();
  }
  return count;
}

// the incident face's reference-face corners (step ii of the edge case); `det` is the clip
// determinant, overwritten as 2.2.2 overwrites it
void edgeReferenceCorners(const Vec3* pu, const Vec3* pts, const Vec3& ext, double margin, int clipped, double& det,
                          Vec3* points, double* depth, int& n) {
  const double a = pts[1](0), b = pts[2](0), c = pts[1](1), d = pts[2](1);
  for (int i = 0; i < 4 && n < kMaxPairContacts; ++i) {
    const double cx = i / 2 ? ext(0) : -ext(0), cy = i % 2 ? ext(1) : -ext(1), x = cx - pts[0](0), y = cy - pts[0](1);
    double u = (x * d - y * b) * (1 / det), v = (y * a - x * c) * (1 / det);
    const bool uOut = u < 0 || u > 1, vOut = v < 0 || v > 1;
    if (clipped == 0 ? uOut && vOut : uOut || vOut) continue;
    u = u < 0 ? 0 : u > 1 ? 1 : u;
    v = v < 0 ? 0 : v > 1 ? 1 : v;
    Vec3 X = pu[0] * (1 - u - v);
    X += pu[1] * u;
    X += pu[2] * v;
    const Vec3 corner(cx, cy, 0), dif = corner - X;
    det = dot3(dif, dif);
    if (X(2) > 0 && det > margin * margin) continue;
    points[n] = (corner + X) * 0.5;
    depth[n++] = std::sqrt(det) * (X(2) < 0 ? -1 : 1);
  }
}

// the incident box's projected corners against the reference face (step iii of the edge case)
void edgeIncidentCorners(const Vec3* pu, const double (*pp)[2], const Vec3& ext, double innorm, double margin, int clipped,
                         int cornersIn, Vec3* points, double* depth, int& n) {
  for (int i = 0; i < 4 && n < kMaxPairContacts; ++i) {
    const double x = pp[i][0], y = pp[i][1];
    const bool xOut = x < -ext(0) || x > ext(0), yOut = y < -ext(1) || y > ext(1);
    if (clipped ? xOut || yOut : cornersIn != 0 && xOut && yOut) continue;
    double c = 0;
    Vec3 at(x * 0.5, y * 0.5, 0);
    for (int j = 0; j < 2; ++j) {
      if (pp[i][j] < -ext(j)) {
        c += (pp[i][j] + ext(j)) * (pp[i][j] + ext(j));
        at(j) = -ext(j) * 0.5;
      } else if (pp[i][j] > ext(j)) {
        c += (pp[i][j] - ext(j)) * (pp[i][j] - ext(j));
        at(j) = ext(j) * 0.5;
      }
    }
    c += pu[i](2) * innorm * pu[i](2) * innorm;
    if (pu[i](2) > 0 && c > margin * margin) continue;
    at += pu[i] * 0.5;
    points[n] = at;
    depth[n++] = std::sqrt(c) * (pu[i](2) < 0 ? -1 : 1);
  }
}

// an edge of each box (code >= 12): box 2's face along its edge, projected along the axis
// onto box 1's face beside its edge and clipped there
int edgeContacts(const PlacedGeom& b1, const PlacedGeom& b2, const Mat3& Q, const Vec3& pos21, const Separation& sep,
                 double margin, ContactPoint* out) {
  const int i = (sep.code - 12) / 3, j = (sep.code - 12) % 3;
  int ax1 = j == 1 ? 0 : 1, ax2 = j == 2 ? 0 : 2;
  int pax1 = i == 1 ? 0 : 1, pax2 = i == 2 ? 0 : 2;
  if (std::abs(Q(i, ax1)) < std::abs(Q(i, ax2))) ax1 = ax2, ax2 = 3 - j - ax1;
  if (std::abs(Q(pax1, j)) < std::abs(Q(pax2, j))) pax1 = pax2, pax2 = 3 - i - pax1;
  const int face = sep.edge1 & (1 << pax2) ? pax2 : pax2 + 3;
  const Mat3 M = faceTurn(face);
  Vec3 p = M * pos21;
  const Vec3 rnorm = M * sep.normal;
  const Mat3 r = M * Q;
  const Vec3 ext = (M.transpose() * b1.size).cwiseAbs();
  const Vec3& s2 = b2.size;
  const double hz = ext(2);
  p(2) -= hz;
  const double sg1 = sep.edge2 & (1 << ax1) ? 1 : -1, sg2 = sep.edge2 & (1 << ax2) ? 1 : -1;
  Vec3 P[4];
  P[0] = p + r.col(ax1) * (s2(ax1) * sg1) + r.col(ax2) * (s2(ax2) * sg2);
  P[1] = P[0] + r.col(j) * -s2(j);
  P[0] += r.col(j) * s2(j);
  P[2] = p + r.col(ax1) * (s2(ax1) * -sg1) + r.col(ax2) * (s2(ax2) * sg2);
  P[3] = P[2] + r.col(j) * -s2(j);
  P[2] += r.col(j) * s2(j);
  const Vec3 axi[3] = {P[0], P[1] - P[0], P[2] - P[0]};
  if (std::abs(rnorm(2)) < kCollisionMinValue) return 0;
  const double innorm = (1 / rnorm(2)) * (sep.inward ? -1 : 1);
  Vec3 pu[4];
  double pp[4][2];
  for (int k = 0; k < 4; ++k) {
    const double t = -P[k](2) * (1 / rnorm(2));
    pu[k] = P[k];
    P[k] += rnorm * t;
    pp[k][0] = P[k](0), pp[k][1] = P[k](1);
  }
  const Vec3 pts[3] = {P[0], P[1] - P[0], P[2] - P[0]};
  Vec3 points[kMaxPairContacts];
  double depth[kMaxPairContacts];
  int n = 0;
  const auto clip = [&](const Vec3& o, const Vec3& d, const Vec3& uo, const Vec3& ud) {
    clipSegment(o, d, ext, [&](int q, double l, double t, double other) {
      if (n >= kMaxPairContacts || (uo(2) + ud(2) * t) * innorm > margin) return;
      points[n] = uo * 0.5;
      points[n] += ud * (0.5 * t);
      points[n](q) += 0.5 * l;
      points[n](1 - q) += 0.5 * other;
      depth[n] = points[n](2) * innorm * 2;
      ++n;
    });
  };
  clip(pts[0], pts[1], axi[0], axi[1]);
  clip(pts[0], pts[2], axi[0], axi[2]);
  clip(pts[0] + pts[1], pts[2], axi[0] + axi[1], axi[2]);
  clip(pts[0] + pts[2], pts[1], axi[0] + axi[2], axi[1]);
  const int clipped = n;
  double det = pts[1](0) * pts[2](1) - pts[2](0) * pts[1](1);
  edgeReferenceCorners(pu, pts, ext, margin, clipped, det, points, depth, n);
  edgeIncidentCorners(pu, pp, ext, innorm, margin, clipped, n, points, depth, n);
  const Mat3 R = b1.R * M.transpose();
  const Vec3 normal = (R * rnorm) * (sep.inward ? -1 : 1);
  for (int k = 0; k < n; ++k) {
    out[k].dist = depth[k];
    out[k].pos = R * Vec3(points[k](0), points[k](1), points[k](2) + hz) + b1.p;
    out[k].normal = normal;
    out[k].hint.setZero();
  }
  return n;
}

}  // namespace

int boxBox(const PlacedGeom& b1, const PlacedGeom& b2, double margin, ContactPoint* out) {
  const Vec3 pos21 = b1.R.transpose() * (b2.p - b1.p), pos12 = b2.R.transpose() * (b1.p - b2.p);
  const Mat3 Q = b1.R.transpose() * b2.R;  // Q(i, j): box 1's axis i against box 2's axis j
  Separation sep;
  if (!deepestAxis(b1.size, b2.size, pos21, pos12, Q, margin, sep)) return 0;
  if (sep.code < 12) return faceContacts(b1, b2, Q, pos21, pos12, sep.code, margin, out);
  return edgeContacts(b1, b2, Q, pos21, sep, margin, out);
}

}  // namespace art::detail
