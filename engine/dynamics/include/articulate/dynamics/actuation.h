#pragma once
// Actuation and passive forces as MuJoCo 2.2.2 computes them ("Computation" chapter; mj_tendon,
// mj_transmission, mj_fwdActuation, mj_passive): tendon lengths and moment arms (tendon.cpp,
// wrapping in wrap.cpp), actuator lengths, moments, forces and activation rates, and the joint
// forces of joint springs, tendon springs and tendon dampers (actuation.cpp). The results land
// in the Data workspace (data.h, "actuation"); nothing allocates once Data is built.
//
// Coordinates: joint forces and moment arms are in the model's velocity variables (a free
// joint's are body-coordinate [angular; linear], MuJoCo's [linear in world axes; angular]).
// Units: lengths in m (rad for a joint transmission of a hinge), forces in N (N m), joint
// forces in each variable's conjugate unit.

#include <array>
#include <vector>

#include "articulate/dynamics/dynamics.h"
#include "articulate/model/data.h"
#include "articulate/model/model.h"

namespace art {

/// Tendon lengths (data.tendonLength), moment arms dL/dq (data.tendonMoment, one row per
/// tendon) and velocities (data.tendonVelocity = moment * qd) at (q, qd), and the drawn paths
/// (data.tendonPath). Runs forward kinematics when the model has spatial tendons.
/// Throws std::invalid_argument on a size mismatch.
void tendonKinematics(const Model& model, Data& data, const VecRef& q, const VecRef& qd);

/// Everything at time-free state (q, qd) with controls `ctrl` (nu) and activations `act` (na):
/// tendonKinematics, the transmissions (data.actuatorLength, actuatorMoment, actuatorVelocity),
/// the controls as applied (data.ctrl: clamped to their ranges; all zero if any is not
/// finite, as MuJoCo does), the actuator forces (data.actuatorForce), their joint forces
/// (data.qfrcActuator = actuatorMoment' * actuatorForce), the activation rates (data.actDot),
/// and the passive joint forces of joint springs, tendon springs and tendon dampers
/// (data.qfrcPassive; viscous joint damping is addControlForces's, control.h). The first call
/// on a Data also computes the model's constants at q0 (data.actuatorAcc0, tendonSpringLength,
/// lengthRange). Throws std::invalid_argument on a size mismatch.
void actuation(const Model& model, Data& data, const VecRef& q, const VecRef& qd, const VecRef& ctrl,
               const VecRef& act);

/// A slider-crank transmission's mechanism at the pose of the last actuation on `data` (world
/// coordinates, m): the slider site, the slider point (where the rod, crankLength long from the
/// crank pin, meets the slider's axis, the site's z axis; the pin's projection on the axis where
/// the rod cannot reach it) and the crank pin: what the app draws as the piston's travel and
/// the connecting rod. Throws std::invalid_argument for an actuator out of range or with
/// another transmission.
struct SliderCrankPoints {
  Vec3 slider, piston, crank;
};
SliderCrankPoints sliderCrankPoints(const Model& model, const Data& data, int actuator);

/// The potential energy of the joint and tendon springs at q (J): 1/2 k d^2 summed, d a hinge's
/// or slide's q - springRef, a ball joint's rotation angle from its initial orientation (and a
/// free joint's also its distance from its initial position), a tendon's L - springLength.
/// Overwrites the tendon results in data. Throws std::invalid_argument on a size mismatch.
double springEnergy(const Model& model, Data& data, const VecRef& q);

/// MuJoCo's derivative of the smooth forces in velocity that implicitfast takes (mjd_smooth_vel
/// without the bias forces' part, and without fluid forces): D = d(qfrc_actuator +
/// qfrc_passive)/d qd (nv x nv, N m s/rad or N s/m), the joints' viscous damping on the
/// diagonal (-damping), each tendon's damper as -damping J' J, and each actuator's velocity
/// slope s m' m, m its moment row and s its affine bias's kv (biasprm[2]) plus its gain's
/// velocity slope (an affine gain's gainprm[2], a muscle's force-velocity slope) times its
/// input (`ctrl` as given, unclamped as MuJoCo takes it, or its activation). The transmissions,
/// lengths and velocities are the last actuation's on `data`; forcerange clamping is not
/// differentiated, as in MuJoCo. Writes D (resized). Throws std::invalid_argument on a size
/// mismatch.
void smoothForceVelocityDerivative(const Model& model, const Data& data, const VecRef& ctrl, const VecRef& act,
                                   Eigen::MatrixXd& D);

/// The slope of MuJoCo's muscle gain in the muscle's velocity (mjd_muscleGain_vel): its
/// active force's force-velocity factor differentiated, per unit activation (N s/m).
double muscleGainVelocitySlope(double length, double velocity, const double lengthRange[2], double acc0, const double* prm);

/// The power the tendon dampers take from the motion (W, >= 0): sum damping Ldot^2, at the
/// tendon velocities in data (after tendonKinematics or actuation).
double tendonDampingPower(const Model& model, const Data& data);

/// A control time table (scripted input, a CSV file's: formats/controls.h): the controls of
/// some actuators at increasing times, linear between them, held before the first and after
/// the last. Actuators without a column keep the controls set otherwise.
struct ControlTable {
  std::vector<double> times;  // strictly increasing (s)
  std::vector<int> columns;   // the actuator of each column
  Eigen::MatrixXd values;     // times.size() x columns.size()
  /// Writes the table's controls at time t (s) into ctrl, its columns' actuators only.
  void apply(double t, Eigen::Ref<Eigen::VectorXd> ctrl) const;
};

/// The range of an actuator's length (its MuJoCo lengthrange) where a file gives none: from the
/// initial pose, the length pushed down and up along its moment arms (projected gradient
/// steps of at most 0.01 rad or m per joint, the joints held within their limits, a free base
/// held still) until it stops changing: the extremes that MuJoCo's compiler reaches by
/// simulating the model pushed by the actuator (mj_setLengthRange), found without its
/// integrator. The actuator's `lengthRange` must not be needed here (muscle gains are not
/// evaluated). Returns {0, 0} when a side does not settle (its length still changes after
/// 20,000 steps: an unlimited joint turning on), as MuJoCo's compiler fails to converge.
/// Throws std::invalid_argument for an actuator out of range.
std::array<double, 2> actuatorLengthRange(const Model& model, Data& data, int actuator);

/// Clamps each activation with an activation range into it (after a step, as MuJoCo does).
void clampActivations(const Model& model, Eigen::Ref<Eigen::VectorXd> act);

/// MuJoCo's muscle model (mju_muscleGain, mju_muscleBias, mju_muscleDynamics). prm: range[2],
/// force, scale, lmin, lmax, vmax, fpmax, fvmax; a negative force is scale / acc0. Gain and
/// bias are <= 0: a muscle pulls. The dynamics' prm: activation and deactivation time
/// constants (s).
double muscleGain(double length, double velocity, const double lengthRange[2], double acc0, const double* prm);
double muscleBias(double length, const double lengthRange[2], double acc0, const double* prm);
double muscleDynamics(double ctrl, double act, const double* prm);

/// MuJoCo's tendon wrap (mju_wrap): the shortest path from x0 to x1 around a sphere or an
/// infinite cylinder (its axis the frame's z) of `radius` at `centre` with axes `rotation`,
/// on the side of `side` when given. Returns the length of the path on the surface and its two
/// tangent points in p0 and p1, or -1 when the straight segment does not touch the shape.
double wrapTendon(const Vec3& x0, const Vec3& x1, const Vec3& centre, const Mat3& rotation, double radius,
                  bool cylinder, const Vec3* side, Vec3& p0, Vec3& p1);

}  // namespace art
