// The narrow phase's general convex pairs (MuJoCo 2.2.2's engine_collision_convex.c, as
// docs/design/mujoco-collision-2.2.2.md reads it, sections 3.2 and 3.5): every pair of
// sphere, capsule, ellipsoid, cylinder, box and mesh without an analytic function goes to
// libccd's Minkowski portal refinement (Debian's libccd-dev, the library MuJoCo 2.2.2 itself
// links), with MuJoCo's support functions and its analytic correction of the normal; a plane
// against an ellipsoid or a mesh takes the support point below the plane.
#include <ccd/ccd.h>
#include <ccd/vec3.h>

#include <cmath>

#include "collision_detail.h"

namespace art::detail {

namespace {

using T = GeomSpec::Type;

// MuJoCo's opt.mpr_iterations and opt.mpr_tolerance (2.2.2's defaults)
constexpr int kMprIterations = 50;
constexpr double kMprTolerance = 1e-6;
// MuJoCo's plane-mesh contacts: at most 3, the extra ones 0.3 rbound from the first
constexpr int kPlaneMeshContacts = 3;
constexpr double kPlaneMeshSpacing = 0.3;

double sign(double x) { return x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0; }

// R^T v and R v, summed in MuJoCo's order (mju_mulMatTVec3, mju_mulMatVec3)
Vec3 toLocal(const Mat3& R, const Vec3& v) {
  return {R(0, 0) * v(0) + R(1, 0) * v(1) + R(2, 0) * v(2), R(0, 1) * v(0) + R(1, 1) * v(1) + R(2, 1) * v(2),
          R(0, 2) * v(0) + R(1, 2) * v(1) + R(2, 2) * v(2)};
}
Vec3 toWorld(const Mat3& R, const Vec3& v) {
  return {R(0, 0) * v(0) + R(0, 1) * v(1) + R(0, 2) * v(2), R(1, 0) * v(0) + R(1, 1) * v(1) + R(1, 2) * v(2),
          R(2, 0) * v(0) + R(2, 1) * v(1) + R(2, 2) * v(2)};
}

// the hull vertex farthest along d (geom coordinates), climbing the hull's edges from `start`
// (MuJoCo's hill climb on its mesh graph: the first better neighbour in order is taken)
int meshSupportVertex(const GeomHull& hull, const Vec3& d, int start) {
  int best = start;
  double top = dot3(d, hull.vertices[static_cast<std::size_t>(best)]);
  for (bool moved = true; moved;) {
    moved = false;
    for (int n : hull.neighbours[static_cast<std::size_t>(best)]) {
      const double x = dot3(d, hull.vertices[static_cast<std::size_t>(n)]);
      if (x > top) {
        top = x;
        best = n;
        moved = true;
      }
    }
  }
  return best;
}

// the point of g farthest along the unit direction d (geom coordinates), before the margin
// (mjccd_support's cases); `vertex` keeps a mesh's support vertex, the next climb's start
Vec3 localSupport(const PlacedGeom& g, const Vec3& d, int& vertex) {
  const Vec3& s = g.size;
  switch (g.type) {
    case T::Sphere: return d * s(0);
    case T::Capsule: return Vec3(d(0) * s(0), d(1) * s(0), d(2) * s(0) + sign(d(2)) * s(1));
    case T::Ellipsoid: {
      Vec3 u = d.cwiseProduct(s);
      normalize3(u);
      return u.cwiseProduct(s);
    }
    case T::Cylinder: {
      const double radial = std::sqrt(d(0) * d(0) + d(1) * d(1));
      Vec3 r(0, 0, sign(d(2)) * s(1));
      if (radial > kCollisionMinValue) {
        r(0) = d(0) / radial * s(0);
        r(1) = d(1) / radial * s(0);
      }
      return r;
    }
    case T::Box: return Vec3(sign(d(0)) * s(0), sign(d(1)) * s(1), sign(d(2)) * s(2));
    case T::Mesh:
      vertex = meshSupportVertex(*g.hull, d, vertex < 0 ? 0 : vertex);
      return g.hull->vertices[static_cast<std::size_t>(vertex)];
    case T::Plane: break;
  }
  return Vec3::Zero();
}

// one geom as libccd sees it: inflated by half the pair's margin on every side
struct ConvexObject {
  const PlacedGeom* geom;
  double margin;
  int vertex = -1;  // a mesh's last support vertex
};

Vec3 support(ConvexObject& o, const Vec3& dir) {
  const Vec3 d = toLocal(o.geom->R, dir);
  const Vec3 local = localSupport(*o.geom, d, o.vertex) + d * o.margin / 2;
  return toWorld(o.geom->R, local) + o.geom->p;
}

void ccdSupport(const void* object, const ccd_vec3_t* dir, ccd_vec3_t* out) {
  const Vec3 s = support(*static_cast<ConvexObject*>(const_cast<void*>(object)), Vec3(dir->v[0], dir->v[1], dir->v[2]));
  ccdVec3Set(out, s(0), s(1), s(2));
}

void ccdCentre(const void* object, ccd_vec3_t* out) {
  const Vec3& p = static_cast<const ConvexObject*>(object)->geom->p;
  ccdVec3Set(out, p(0), p(1), p(2));
}

// an ellipsoid's outward normal at the point nearest to p, p inside (a ray from p along the
// current normal meets the surface, whose normal there is the next guess; MuJoCo's
// mjc_ellipsoidInside); false when the first step fails
bool ellipsoidNormalInside(Vec3& n, const Vec3& p, const Vec3& size) {
  const Vec3 inv(1 / (size(0) * size(0)), 1 / (size(1) * size(1)), 1 / (size(2) * size(2)));
  const double C = p(0) * p(0) * inv(0) + p(1) * p(1) * inv(1) + p(2) * p(2) * inv(2) - 1;
  if (C > 0) return false;
  normalize3(n);
  for (int iter = 0; iter < 30; ++iter) {
    const double A = n(0) * n(0) * inv(0) + n(1) * n(1) * inv(1) + n(2) * n(2) * inv(2);
    const double B = p(0) * n(0) * inv(0) + p(1) * n(1) * inv(1) + p(2) * n(2) * inv(2);
    const double det = B * B - A * C;
    if (det < kCollisionMinValue || A < kCollisionMinValue) return iter > 0;
    const double x = (-B + std::sqrt(det)) / A;
    if (x < 0) return iter > 0;
    const Vec3 on = p + n * x;
    Vec3 next = on.cwiseProduct(inv);
    normalize3(next);
    const double change = (n - next).norm();
    n = next;
    if (change < 1e-6) break;
  }
  return true;
}

// the same for p outside: Newton's method on the multiplier of the nearest point
// (MuJoCo's mjc_ellipsoidOutside)
void ellipsoidNormalOutside(Vec3& n, const Vec3& p, const Vec3& size) {
  const Vec3 S2 = size.cwiseProduct(size);
  const Vec3 PS2(p(0) * p(0) * S2(0), p(1) * p(1) * S2(1), p(2) * p(2) * S2(2));
  double la = 0;
  for (int iter = 0; iter < 30; ++iter) {
    const Vec3 R(1 / (S2(0) + la), 1 / (S2(1) + la), 1 / (S2(2) + la));
    const double value = PS2(0) * R(0) * R(0) + PS2(1) * R(1) * R(1) + PS2(2) * R(2) * R(2) - 1;
    if (value < 1e-6) break;
    const double slope = -2 * (PS2(0) * R(0) * R(0) * R(0) + PS2(1) * R(1) * R(1) * R(1) + PS2(2) * R(2) * R(2) * R(2));
    if (slope > -kCollisionMinValue) break;
    const double delta = -value / slope;
    if (delta < 1e-6) break;
    la += delta;
  }
  n = Vec3(p(0) / (S2(0) + la), p(1) / (S2(1) + la), p(2) / (S2(2) + la));
  normalize3(n);
}

// the surface normal of a round geom at the contact point, outward, from the guess n (base
// coordinates); false where the geom's shape gives none (a box, a mesh, a cylinder's flat end)
bool analyticNormal(const PlacedGeom& g, const Vec3& at, Vec3& n) {
  const Vec3 p = toLocal(g.R, at - g.p);
  Vec3 local = toLocal(g.R, n);
  const Vec3& s = g.size;
  switch (g.type) {
    case T::Sphere: local = p; break;
    case T::Capsule:
      local = Vec3(p(0), p(1), p(2) < -s(1) ? p(2) + s(1) : p(2) > s(1) ? p(2) - s(1) : 0.0);
      break;
    case T::Ellipsoid: {
      if (s(0) < kCollisionMinValue || s(1) < kCollisionMinValue || s(2) < kCollisionMinValue) return false;
      const double e = p(0) * p(0) / (s(0) * s(0)) + p(1) * p(1) / (s(1) * s(1)) + p(2) * p(2) / (s(2) * s(2));
      if (e <= 1) {
        if (!ellipsoidNormalInside(local, p, s)) return false;
      } else {
        ellipsoidNormalOutside(local, p, s);
      }
      break;
    }
    case T::Cylinder: {
      // the round wall only, away from the ends and 4x nearer than the flat one
      if (std::abs(p(2)) > 0.95 * s(1)) return false;
      const double flat = std::abs(s(1) - std::abs(p(2))), round = std::abs(s(0) - std::hypot(p(0), p(1)));
      if (flat < 0.25 * round) return false;
      local = Vec3(p(0), p(1), 0);
      break;
    }
    default: return false;
  }
  normalize3(local);
  n = toWorld(g.R, local);
  return true;
}

// MuJoCo's mjc_fixNormal: MPR's normal replaced by the round geoms' own
void fixNormal(const PlacedGeom& g1, const PlacedGeom& g2, ContactPoint& c) {
  Vec3 n1 = c.normal, n2 = -c.normal;
  const bool own1 = analyticNormal(g1, c.pos, n1), own2 = analyticNormal(g2, c.pos, n2);
  if (own1 && own2) {
    c.normal = n1 - n2;
    normalize3(c.normal);
  } else if (own1) {
    c.normal = n1;
  } else if (own2) {
    c.normal = -n2;
  }
}

}  // namespace

int convexPair(const PlacedGeom& g1, const PlacedGeom& g2, double margin, ContactPoint* out) {
  ConvexObject o1{&g1, margin}, o2{&g2, margin};
  ccd_t ccd;
  CCD_INIT(&ccd);
  ccd.support1 = ccdSupport;
  ccd.support2 = ccdSupport;
  ccd.center1 = ccdCentre;
  ccd.center2 = ccdCentre;
  ccd.max_iterations = kMprIterations;
  ccd.mpr_tolerance = kMprTolerance;
  ccd_real_t depth;
  ccd_vec3_t dir, pos;
  if (ccdMPRPenetration(&o1, &o2, &ccd, &depth, &dir, &pos) != 0) return 0;
  if (ccdVec3Eq(&dir, ccd_vec3_origin)) return 0;  // touching: no normal
  out->dist = margin - depth;
  out->normal = Vec3(dir.v[0], dir.v[1], dir.v[2]);
  out->pos = Vec3(pos.v[0], pos.v[1], pos.v[2]);
  out->hint.setZero();
  fixNormal(g1, g2, *out);
  return 1;
}

int planeConvex(const PlacedGeom& plane, const PlacedGeom& g, double margin, ContactPoint* out) {
  const Vec3 n = plane.R.col(2);
  ConvexObject o{&g, 0.0};
  const Vec3 s = support(o, -n);
  const double dist = dot3(n, s - plane.p);
  if (dist > margin) return 0;
  out[0] = {dist, s - n * (0.5 * dist), n, Vec3::Zero()};
  if (g.type != T::Mesh) return 1;
  // a mesh: up to two more hull vertices next to the first, below the margin and apart from it
  int count = 1;
  const Vec3 down = toLocal(g.R, -n);
  const double threshold = dot3(n, g.p - plane.p) - margin;
  for (int k : g.hull->neighbours[static_cast<std::size_t>(o.vertex)]) {
    if (count >= kPlaneMeshContacts) break;
    const Vec3& v = g.hull->vertices[static_cast<std::size_t>(k)];
    if (!(dot3(down, v) > threshold)) continue;
    const Vec3 at = toWorld(g.R, v) + g.p;
    if ((at - out[0].pos).norm() < kPlaneMeshSpacing * g.rbound) continue;
    const double d = dot3(n, at - plane.p);
    out[count++] = {d, at - n * (0.5 * d), n, Vec3::Zero()};
  }
  return count;
}

}  // namespace art::detail
