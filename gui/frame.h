#pragma once
// What one frame shows, computed from a System at a state: the body poses, the force elements
// drawn as lines (a structure's springs and cables, and the mouse's pull), and the force
// overlays' annotations (contacts, constraint forces, the system's centre of mass, trails).
// One function for the viewport, image and video exports, so that an export shows what the
// viewport shows.

#include <optional>
#include <vector>

#include <Eigen/Core>

#include "articulate/model/spec.h"
#include "articulate/simulation/recording.h"
#include "articulate/simulation/system.h"
#include "viewport/viewport.h"

namespace art::gui {

/// One frame's content (world coordinates).
struct FrameContent {
  std::vector<BodyPose> poses;
  std::vector<SegmentReport> segments;
  Annotations annotations;
};

/// Computes the frame of `system` at time t (s) and state (q, qd) (qd of another size: at
/// rest, the segments' elastic tension alone):
///  - poses (System::bodyPoses) and segments (System::segments), plus the perturbation's
///    spring from the grabbed point to its target when `perturbation` acts;
///  - with overlays.contactForces, the contact points touching the ground (distance <= 0 or a
///    reaction) and arrows of their normal and friction reactions (System::contacts at (t, q,
///    qd) with the recording's auxiliary state at t: a tree's ground deformation; zeros
///    without one), and the perturbation's force arrow;
///  - with overlays.constraintForces, on a kinematic tree, the loop closures' forces on body A
///    as arrows at its point and the couplings' forces as labels at the joint (ConstraintData's
///    lambda, from System::constraintForces at (t, q, qd));
///  - with overlays.systemCom, the centre of mass of the bodies of `display` (their masses and
///    centres of mass at the poses);
///  - with overlays.trails, the paths of overlays.trailBodies' centres of mass over
///    [t - trailSeconds, t] from `recording` (at most kTrailPoints points each).
/// `display` is the model the viewport draws (its bodies match the system's). It evaluates
/// `system` (System::evaluate and setState), so pass a system used for display only.
void computeFrame(System& system, const ModelSpec& display, const Recording* recording, double t,
                  const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                  const std::optional<Perturbation>& perturbation, const Overlays& overlays,
                  FrameContent& out);

inline constexpr int kTrailPoints = 120;

}  // namespace art::gui
