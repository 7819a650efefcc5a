// The narrow phase's box pairs (MuJoCo 2.2.2's engine_collision_box.c, as
// docs/design/mujoco-collision-2.2.2.md reads it, section 3.4): sphere-box.
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

}  // namespace art::detail
