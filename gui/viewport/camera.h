#pragma once
// showmotion's camera rules (spec section 3) as plain math, without VTK: the model's camera
// with its defaults, the initial framing, and tracking.

#include <Eigen/Core>

#include "articulate/model/spec.h"

namespace art::gui {

/// A perspective camera: eye position, focal point, up vector (base coordinates, m), the
/// vertical view angle (degrees) and the window-centre shift that places the focal point at
/// a locus (in [-1, 1]^2 of the viewport).
struct CameraPose {
  Vec3 position = Vec3(0, -5, 4);
  Vec3 focus = Vec3::Zero();
  Vec3 up = Vec3::UnitZ();
  double viewAngle = 25.0;
  Vec2 windowCentre = Vec2::Zero();
};

/// The model's camera with every unset field at showmotion's default. Planar models whose
/// gravity points mostly along -y default to up [0 1 0] and direction [0 0.4 1].
struct ResolvedCamera {
  int body = -1;  // tracked body, -1 fixed
  Vec3 trackpoint = Vec3::Zero();
  Vec3 direction = Vec3(0, -1, 0.8).normalized();  // from the scene towards the eye, unit
  Vec3 up = Vec3::UnitZ();
  double zoom = 1.0;
  bool hasLocus = false;
  Vec2 locus = Vec2::Zero();
};
ResolvedCamera resolveCamera(const ModelSpec& spec);

/// The initial view: perspective with a 25 degree view angle, aimed at the centre of the
/// bounding box [lo, hi] of the moving bodies (or, for a tracking camera, at the trackpoint's
/// world position `track`), at distance r / sin(12.5 deg) / zoom with r half the box's diagonal
/// (1 m when the box is empty). `aspect` is width / height (for the locus, which is given in
/// the largest inscribed square).
CameraPose initialCamera(const ResolvedCamera& cam, const Vec3& lo, const Vec3& hi,
                         const Vec3& track, double aspect);

/// Tracking: the camera and its focus move by the trackpoint's displacement with the component
/// along `up` removed (horizontal only).
Vec3 trackingShift(const ResolvedCamera& cam, const Vec3& trackNow, const Vec3& trackStart);

/// The turntable orbit (Blender's, MuJoCo's and RViz's default): the eye turned about the focus
/// by `azimuth` (rad) about the vertical `up` and by `elevation` (rad, positive raises the eye)
/// about the horizontal axis across the view, stopping 1 degree short of straight above or
/// below. The horizon never rolls: view up stays `up` projected off the view direction.
/// Returns the new eye position.
Vec3 turntableOrbit(const Vec3& eye, const Vec3& focus, const Vec3& up, double azimuth, double elevation);

}  // namespace art::gui
