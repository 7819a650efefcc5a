#include "viewport/camera.h"

#include <algorithm>
#include <cmath>

#include <Eigen/Geometry>

namespace art::gui {

ResolvedCamera resolveCamera(const ModelSpec& spec) {
  ResolvedCamera r;
  const CameraSpec& c = spec.camera;
  const Vec3 g = spec.effectiveGravity();
  if (spec.arithmetic == Arithmetic::Planar && g.y() < 0 && std::abs(g.y()) >= std::abs(g.x())) {
    r.up = Vec3::UnitY();
    r.direction = Vec3(0, 0.4, 1).normalized();
  }
  r.body = c.body;
  if (c.trackpoint) r.trackpoint = *c.trackpoint;
  if (c.direction) r.direction = c.direction->normalized();
  if (c.up) r.up = c.up->normalized();
  if (c.zoom) r.zoom = *c.zoom;
  if (c.locus) {
    r.hasLocus = true;
    r.locus = *c.locus;
  }
  return r;
}

CameraPose initialCamera(const ResolvedCamera& cam, const Vec3& lo, const Vec3& hi,
                         const Vec3& track, double aspect) {
  CameraPose p;
  const bool empty = !(lo.array() <= hi.array()).all();
  const double r = empty ? 1.0 : std::max(0.5 * (hi - lo).norm(), 1e-3);
  p.focus = cam.body >= 0 ? track : (empty ? Vec3::Zero() : Vec3(0.5 * (lo + hi)));
  const double distance = r / std::sin(12.5 * M_PI / 180.0) / cam.zoom;
  p.position = p.focus + distance * cam.direction;
  // up must not be parallel to the view direction
  Vec3 up = cam.up - cam.up.dot(cam.direction) * cam.direction;
  if (up.norm() < 1e-9) up = std::abs(cam.direction.z()) < 0.9 ? Vec3::UnitZ() : Vec3::UnitY();
  p.up = up.normalized();
  p.viewAngle = 25.0;
  if (cam.hasLocus) {
    // the locus is given in the largest inscribed square; VTK's window centre spans the
    // whole viewport in x
    const double sx = aspect > 1 ? 1.0 / aspect : 1.0, sy = aspect < 1 ? aspect : 1.0;
    p.windowCentre = Vec2(-cam.locus.x() * sx, -cam.locus.y() * sy);
  }
  return p;
}

Vec3 turntableOrbit(const Vec3& eye, const Vec3& focus, const Vec3& up, double azimuth, double elevation) {
  const Vec3 u = up.normalized();
  Vec3 v = Eigen::AngleAxisd(azimuth, u) * (eye - focus);
  const double r = v.norm();
  if (r < 1e-12) return eye;
  const double limit = M_PI / 2 - M_PI / 180;
  const double now = std::asin(std::clamp(v.dot(u) / r, -1.0, 1.0));
  const double target = std::clamp(now + elevation, -limit, limit);
  Vec3 across = u.cross(v);
  if (across.norm() < 1e-12) return eye;  // straight above: no horizontal axis to turn about
  v = Eigen::AngleAxisd(target - now, across.normalized()) * v;  // about u x v: towards up
  return focus + v;
}

Vec3 trackingShift(const ResolvedCamera& cam, const Vec3& trackNow, const Vec3& trackStart) {
  const Vec3 d = trackNow - trackStart;
  return d - d.dot(cam.up) * cam.up;
}

}  // namespace art::gui
