#pragma once
// Compliant ground contact of spatial_v2 (gcontact, after Azad & Featherstone, "Modelling the
// contact between a rolling sphere and a compliant ground plane", ACRA 2010) for the model's
// contact points. The ground is the plane z = 0 (planar models: y = 0), normal up. For a point
// at height z with velocity v, and zr = sqrt(max(0, -z)):
//   normal force      fn = zr (-K z - D zdot), no contact unless fn > 0;
//   tangential force  ft = -zr (K u + D v_t), where u is the point's tangential deformation of
//                     the ground, a state with rate du/dt = v_t while sticking;
//   friction cone     |ft| <= mu fn: beyond it the point slips, ft is scaled onto the cone and
//                     du/dt = -(ft + K zr u) / (D zr); out of contact du/dt = -(K / D) u.
// K (N/m^1.5), D (N s/m^1.5) and mu are the model's `ground` parameters.
//
// The ground never launches a body that starts inside it. The law above is passive: with the
// ground's elastic energy U = 0.4 K d^2.5 at depth d = -z, the normal force does no more work
// on a point than U gives back (the damper and the unloading at fn = 0 only take). But a state
// set from outside (opening, a keyframe, a sweep's start) may put a point deep in the ground,
// where U is large (128 J per point at d = 4 cm with the default K), energy nobody put in. So
// the ground yields there: each point has a dent depth s >= 0, the ground's surface under it is
// at z = -s, the law acts on the depth d - s, and the dent recovers at kGroundRecoverySpeed,
// lifting what rests in it (ds/dt = -v min(1, s / kGroundRecoveryBlend)). setState-like entry
// points start a point at depth d with the dent d - kGroundElasticStartDepth; a body driven into
// the ground later makes no dent and gets back at most the energy it stored. With s = 0 the law
// is spatial_v2's, exactly.

#include <vector>

#include <Eigen/Core>

#include "articulate/model/data.h"
#include "articulate/dynamics/dynamics.h"
#include "articulate/model/model.h"

namespace art {

/// The depth (m) a contact point may start inside the ground and be pushed out elastically;
/// deeper, the ground starts dented (see above). 2 mm: a point resting on the default ground
/// with up to 89 N (9 kg) starts undented, and the elastic energy there is 0.07 J.
constexpr double kGroundElasticStartDepth = 2e-3;
/// The speed (m/s) at which a dent recovers.
constexpr double kGroundRecoverySpeed = 0.2;
/// The dent depth (m) below which the recovery slows down exponentially (smooth rate).
constexpr double kGroundRecoveryBlend = 1e-3;

/// Number of contact state variables of a model: per contact point its tangential deformation
/// (2 entries spatial, 1 planar), then per point its dent depth (1 entry). Layout: the
/// deformations of all points first (point k: u[nt k] ...), then the dents (point k:
/// u[nt np + k]).
int contactStateSize(const Model& model);

/// The contact state to start from at q (contactStateSize entries): zero deformation, and a dent
/// of max(0, d - kGroundElasticStartDepth) under each point at depth d. Overwrites the tree
/// workspace of `data`. Throws std::invalid_argument on a size mismatch.
Eigen::VectorXd startingContactState(const Model& model, Data& data, const VecRef& q);

/// Contact results and workspace for one Model. Sized once; nothing allocates afterwards.
struct ContactData {
  /// Sizes every array for `model`.
  explicit ContactData(const Model& model);

  Eigen::Matrix3Xd position;  // contact points in base coordinates (3 x np), m
  Eigen::Matrix3Xd velocity;  // their velocities (3 x np), m/s
  Eigen::Matrix3Xd force;     // ground reaction on each point, base coordinates (3 x np), N
  Eigen::VectorXd udot;       // rate of the contact state (contactStateSize), m/s
  ExternalForces fext;        // the reactions as body forces, base coordinates (6 or 3 x nb)
  int inContact = 0;          // points with a nonzero force
};

/// Ground-contact forces at (q, qd) with contact state `u` (contactStateSize entries, m; point k
/// owns the deformation u[2k], u[2k + 1] along base x and y, or u[k] along x in planar models,
/// and the dent u[nt np + k]):
/// fills `cdata` (forces, deformation rates, and fext for aba/rnea). Overwrites the tree
/// workspace of `data` (Xup, X0, v). Throws std::invalid_argument on a size mismatch.
void groundContact(const Model& model, Data& data, ContactData& cdata, const VecRef& q,
                   const VecRef& qd, const VecRef& u);

/// Kinematics of one body point, base coordinates: its position (m) and velocity (m/s), and
/// those of the body's centre of mass (planar models: z = 0).
struct BodyPointMotion {
  Vec3 position = Vec3::Zero(), velocity = Vec3::Zero();
  Vec3 com = Vec3::Zero(), comVelocity = Vec3::Zero();
};

/// The motion of `point` (body coordinates, m) of body `body` at (q, qd), by the same outward
/// pass as the contact points'. Overwrites the tree workspace of `data` (Xup, X0, v). Throws
/// std::invalid_argument on a size mismatch or a body index out of range. Allocates nothing.
BodyPointMotion bodyPointMotion(const Model& model, Data& data, int body, const Vec3& point,
                                const VecRef& q, const VecRef& qd);

/// The height above the ground of each contact point's lowest point at q, in model.contacts'
/// order (m; a contact sphere's lowest point; along z, or y in planar models; negative inside
/// the ground). Overwrites the tree workspace of `data`. Throws std::invalid_argument on a size
/// mismatch.
std::vector<double> groundHeights(const Model& model, Data& data, const VecRef& q);

}  // namespace art
