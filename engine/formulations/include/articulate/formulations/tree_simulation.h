#pragma once
// Time integration of a kinematic tree's forward dynamics, qdd = ABA(q, qd, tau, fext), where
// tau is a constant joint force (setJointForces; zero by default) plus the model's joint
// controllers at (t, q, qd), and fext the model's external forces. Engine only: no threads.
// A model with constraints is integrated with constrainedForwardDynamics (constraints.h) and
// projected back onto its constraints after every step; a model with contact points feels
// the compliant ground (contact.h) as further external forces, and the ground's tangential
// deformation u is integrated with (q, qd). Models with neither take the plain ABA path. With
// free joints q (nq) and qd (nv) differ in size and dq/dt = configurationDerivative(q, qd)
// (configuration.h); the quaternions are renormalised after every step.

#include <memory>
#include <optional>
#include <string>

#include <Eigen/Core>

#include "articulate/dynamics/actuation.h"
#include "articulate/dynamics/constraints.h"
#include "articulate/dynamics/contact.h"
#include "articulate/dynamics/control.h"
#include "articulate/model/data.h"
#include "articulate/dynamics/dynamics.h"
#include "articulate/dynamics/perturbation.h"
#include "articulate/dynamics/soft_constraints.h"
#include "articulate/model/model.h"

namespace art {

struct SimulationOptions {
  Integrator integrator = Integrator::RK4;
  double dt = 1e-3;      // fixed step, or the first and largest step of dopri5 (s)
  double relTol = 1e-9;  // dopri5 tolerances, per component
  double absTol = 1e-9;
  double minDt = 1e-12;  // dopri5 gives up below this step (s)
  // divergence: a state or energy that is not finite, a total energy that grows by more than
  // this many times its initial magnitude (plus 1 J), or constraints that the projection
  // cannot close to 1e-8 (a loop that cannot be assembled) stops the simulation
  double energyGrowthLimit = 1e6;
  // and, while nothing drives the model (no controllers, external forces, joint forces or
  // perturbation), a total energy that rises above E* (the energy of the state last set, or
  // when the driving stopped) by more than this many times (|E*| + M g x 1 m + 1 J), M the
  // model's mass: energy that grew by orders of magnitude out of nothing (a too coarse step)
  double undrivenEnergyGrowthLimit = 100;
  // rk4 and dopri5 on a passive model (no controllers, external forces, contact points or
  // joint forces): after every step, scale qd by sqrt((E* - V(q)) / T(q, qd)) so that the total
  // energy T + V returns to E*, the energy of the state last set (setState, or
  // setJointForces returning to zero). A projection onto the energy surface along the
  // velocities (Hairer, Lubich & Wanner, Geometric Numerical Integration, IV.4): the step's
  // correction is of the size of its own error, so the integrator keeps its order, and ideal
  // constraints stay satisfied (J qd = 0 is homogeneous). A step whose energy error exceeds
  // kMaxEnergyCorrection of its kinetic energy (near rest, or a step far too coarse) is left
  // as it is. Ignored by semi-implicit Euler (symplectic: its energy error stays bounded).
  bool energyProjection = false;
};

/// Largest relative change of the kinetic energy an energy projection makes in one step.
inline constexpr double kMaxEnergyCorrection = 1e-3;

/// SimulationOptions::undrivenEnergyGrowthLimit's scale for a model of `mass` kg: M |g| x 1 m
/// + 1 J (J).
double undrivenEnergyScale(const Model& model, double mass);
/// Simulation's and BatchSimulation's undriven check: when `total` (J) rose above `target` (the
/// energy E* to keep) by more than options.undrivenEnergyGrowthLimit (|E*| + scale), the end of
/// the divergence message (" J, from E* J with nothing driving the model"); else nothing.
std::optional<std::string> undrivenEnergyGrowth(const SimulationOptions& options, double total, double target,
                                                double scale);

/// The options a model asks for (ModelSpec::simulation).
SimulationOptions simulationOptions(const ModelSpec& spec);

/// The load of a perturbation of a tree's body at (q, qd) (world coordinates). Overwrites the
/// tree workspace of `data`. Throws std::invalid_argument for a body out of range.
PerturbationLoad treePerturbationLoad(const Model& model, Data& data, const Perturbation& p,
                                      const VecRef& q, const VecRef& qd);

/// The external body forces on a tree at (q, qd) with ground deformation u, as spatial_v2's
/// f_ext (base coordinates): the model's constant forces, the ground's reactions when
/// `contact` is given (filled by groundContact) and the perturbation's spring. Returns null
/// when there are none, else `fext` or `&contact->fext` (when the ground's are the only ones);
/// `fext` is sized once, then nothing allocates. Overwrites the tree workspace of `data`.
const ExternalForces* treeExternalForces(const Model& model, Data& data, ContactData* contact,
                                         const std::optional<Perturbation>& perturbation,
                                         const VecRef& q, const VecRef& qd, const VecRef& u,
                                         ExternalForces& fext);

/// Why the simulation stopped stepping; empty while it runs normally.
struct Divergence {
  double time = 0.0;     // s
  std::string quantity;  // e.g. "qd[3]" or "total energy"
  std::string message;   // readable, names the time and the quantity
};

/// Integrates one model from a state. Not thread-safe; one per thread.
class Simulation {
 public:
  /// Starts at the model's initial state (q0, qd0) at t = 0 with tau = 0 and the actuators'
  /// initial controls (ActuatorSpec::ctrl0). Throws
  /// std::invalid_argument for a non-positive dt or tolerance.
  Simulation(const Model& model, const SimulationOptions& options);

  /// Sets the state (q of size nq, qd of size nv; free joints' quaternions are normalised);
  /// throws std::invalid_argument on a size mismatch. The contact state starts
  /// as startingContactState gives it (no deformation; a dent under a point set deeper than
  /// kGroundElasticStartDepth, contact.h); a state that violates the model's constraints is projected
  /// onto them (q() and qd() then return the projected state). Where the joint-space inertia
  /// is singular at that state the projection cannot be made: the state stays as given and
  /// divergence() says why (step() then returns false).
  void setState(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd);
  /// Sets the auxiliary state (auxiliaryState()'s layout: the contact state, then the
  /// activations), e.g. after setState to go on from a recorded moment with the friction
  /// springs, dents and activations as they were. Throws std::invalid_argument on a size
  /// mismatch or a number that is not finite.
  void setAuxiliaryState(const Eigen::VectorXd& u);
  /// Sets the actuators' controls (nu; actuation.h: clamped to their ranges where they act),
  /// held from the next derivative evaluation on. Throws std::invalid_argument on a size
  /// mismatch.
  void setControls(const Eigen::VectorXd& ctrl);
  const Eigen::VectorXd& controls() const { return m_ctrl; }
  /// Drives the actuators that have a column by `table` (actuation.h; times in this
  /// simulation's time), interpolated at every derivative evaluation, over the controls set by
  /// setControls; null removes it. Throws std::invalid_argument for a column that is not an
  /// actuator.
  void setControlTable(std::shared_ptr<const ControlTable> table);
  bool hasControlTable() const { return m_table != nullptr; }
  /// The controls acting at time t: setControls', with the table's columns at t.
  Eigen::VectorXd controlsAt(double t) const;
  /// The actuators' results at the current state (the Data's actuation arrays, actuation.h:
  /// lengths, velocities, forces, tendon lengths, the controls as applied, their joint forces).
  const Data& actuationResults();
  /// Sets constant joint forces (N m or N); throws std::invalid_argument on a size mismatch.
  void setJointForces(const Eigen::VectorXd& tau);

  /// Sets or (nullopt) removes the perturbation spring (perturbation.h; `body` a body index of
  /// the model), felt at every derivative evaluation from the next step on as a further
  /// external force. Removing it makes the present energy the one the energy projection keeps
  /// (which is off while a perturbation acts: it does work). Throws std::invalid_argument for
  /// a body out of range or non-finite, negative numbers.
  void setPerturbation(const std::optional<Perturbation>& perturbation);
  const std::optional<Perturbation>& perturbation() const { return m_perturbation; }
  /// The perturbation's load at the current state (world coordinates), if one acts.
  std::optional<PerturbationLoad> perturbationLoad();

  /// Advances exactly to time `t` (s): fixed-step integrators take steps of dt (the last one
  /// shortened), dopri5 adapts its steps and lands on `t`. Returns false (and stays at the
  /// last good state) if the simulation diverged; see divergence().
  bool advanceTo(double t);
  /// One step of dt (fixed-step) or one accepted adaptive step. Returns false on divergence,
  /// which includes a state where the joint-space inertia matrix is singular (no acceleration
  /// exists: SingularInertiaError, reported as a divergence of "joint-space inertia").
  bool step();

  double time() const { return m_t; }
  const Eigen::VectorXd& q() const { return m_q; }
  const Eigen::VectorXd& qd() const { return m_qd; }
  /// Energy and momentum at the current state (computed on the first call after a step and
  /// kept; the divergence check computes the kinetic and potential energy alone).
  EnergyMomentum energy();
  const std::optional<Divergence>& divergence() const { return m_divergence; }
  /// Whether the steps are projected onto the energy surface now (SimulationOptions::
  /// energyProjection asked for, an integrator other than semi-implicit Euler, a passive model
  /// and zero joint forces).
  bool energyProjectionActive() const;
  /// The energy the projection has removed since the state was last set (J): the sum over
  /// steps of E(step's result) - E*, what the integrator's steps gained (> 0) or lost along
  /// the computed motion. On a regular motion that is the drift the integrator alone shows;
  /// a chaotic one parts ways with the unprojected run, so the two sums differ.
  double energyProjected() const { return m_energyProjected; }
  /// The energy the joints have taken out of the motion since the state was last set (J, >= 0
  /// up to rounding): the work of the viscous joint damping (BodySpec::damping) and of the
  /// forces holding a joint inside a step (stops and friction), their power integrated with the
  /// stages' weights of RK4 and dopri5 (semi-implicit Euler: damping by the trapezoid rule over
  /// the step's end velocities, the holding forces as constant forces), plus what the stops' and
  /// the Coulomb friction's impulses removed after each step (exactly: the energy before minus after).
  /// With soft physics it also counts the work the soft constraint rows' forces take out of the
  /// motion (-J' f . qd): dry friction's, and what a limit's or equality's spring stores for a while.
  /// Without other forces doing work, E(t) + energyDissipated() stays E(0) up to the
  /// integrator's error.
  double energyDissipated() const { return m_energyDissipated; }

  /// Largest constraint residual max |phi(q)| at the current state (m, rad or sine of an
  /// angle; 0 without constraints).
  double constraintError();
  /// The soft constraint model's rows, forces and solver figures at the current state
  /// (soft_constraints.h), evaluated now; null unless the model's physics is soft.
  const SoftConstraintData* softConstraints();
  /// The soft constraint model's data as the last evaluation left it (null unless soft), e.g.
  /// to switch an equality on or off (equalityActive) from the next evaluation on.
  SoftConstraintData* softConstraintData() { return m_soft ? &*m_soft : nullptr; }
  /// Constraint forces lambda at the current state (constraints.h, ConstraintData::lambda for
  /// their rows and units; empty without constraints).
  const Eigen::VectorXd& constraintForces();
  /// Ground reactions on the contact points at the current state, base coordinates (3 x
  /// ncontacts, N; empty without contact points).
  const Eigen::Matrix3Xd& contactForces();
  /// The auxiliary state integrated with (q, qd): the contact state (contact.h: the ground's
  /// tangential deformation under each contact point, then the dent under each, m; its first
  /// contactStateSize entries), then the actuators' activations (model.na). setState sets the
  /// contact state as startingContactState gives it and the activations to zero.
  const Eigen::VectorXd& auxiliaryState() const { return m_u; }
  /// The work the actuators have done on the motion since the state was last set (J): their
  /// power qfrcActuator . qd integrated with the integrator's own weights. With it, E(t) +
  /// energyDissipated() - actuatorWork() stays E(0) up to the integrator's error.
  double actuatorWork() const { return m_actuatorWork; }
  /// Steps taken (accepted) and rejected so far.
  long stepsTaken() const { return m_steps; }
  long stepsRejected() const { return m_rejected; }

 private:
  const Model& m_model;
  SimulationOptions m_opt;
  Data m_data;
  double m_t = 0.0, m_h = 0.0, m_e0 = 0.0;
  double m_energyTarget = 0.0, m_energyProjected = 0.0;  // E* and the energy projected away (J)
  double m_energyDissipated = 0.0;  // by damping, stops and friction (J)
  double m_actuatorWork = 0.0;      // by the actuators (J)
  Eigen::VectorXd m_ctrl;           // the actuators' controls (nu)
  std::shared_ptr<const ControlTable> m_table;  // scripted controls over m_ctrl, or null
  Eigen::VectorXd m_ctrlNow;        // m_ctrl with the table at the evaluation's time
  Eigen::VectorXd m_udot;           // the auxiliary state's rate at the last accel
  double m_energyScale = 1.0;  // M g x 1 m + 1 J: undrivenEnergyGrowthLimit's scale (J)
  // the stops' impulse problem (model.stops): H^-1 columns of the rows, their impulses and boxes
  Eigen::MatrixXd m_minv;
  Eigen::VectorXd m_lambda, m_lo, m_hi, m_dqd, m_w0;  // m_w0: H^-1's diagonal at the rows
  std::vector<int> m_rows;  // velocity index of each row
  std::vector<int> m_pinned;  // joints on a stop after applyStops: the projection keeps them
  // the joints held inside a step (holdStops): velocity index of each, their force boxes, and
  // the stages' accelerations with the holding forces
  std::vector<int> m_held;
  Eigen::VectorXd m_heldLo, m_heldHi, m_heldForce, m_acc;
  Eigen::MatrixXd m_heldMinv;
  bool m_passive = false, m_tauZero = true;
  Eigen::VectorXd m_q, m_qd, m_tau, m_tauTotal;
  ExternalForces m_fext;
  std::optional<Perturbation> m_perturbation;
  Eigen::VectorXd m_u;  // the auxiliary state: the contact state (contact.h), then activations
  // stage storage (no allocation while stepping)
  Eigen::VectorXd m_kq[7], m_kv[7], m_ku[7], m_q1, m_qd1, m_u1, m_errq, m_errv, m_erru;
  // per stage, the power the damping and the holding forces take (W): the step's dissipated
  // energy is their quadrature with the integrator's own weights
  double m_stagePower[7] = {0, 0, 0, 0, 0, 0, 0};
  double m_stageWork[7] = {0, 0, 0, 0, 0, 0, 0};  // the actuators' power per stage (W)
  EnergyMomentum m_energy;      // of (m_q, m_qd) when m_energyCurrent
  bool m_energyCurrent = false;
  std::optional<Divergence> m_divergence;
  long m_steps = 0, m_rejected = 0;
  std::optional<ConstraintData> m_cons;  // when the model has constraints
  std::optional<SoftConstraintData> m_soft;  // when the model's physics is soft
  Eigen::VectorXd m_eulerAcc;               // mujoco-euler's acceleration with implicit damping
  Eigen::MatrixXd m_qDeriv;                 // mujoco-implicitfast's d(smooth forces)/d qd (nv x nv)
  std::optional<ContactData> m_contact;  // when the model has contact points
  // what constraintForces and contactForces return without constraints or contacts: members,
  // not function-local statics, whose first use registers a destructor with atexit (a calloc
  // on a stepping path)
  const Eigen::VectorXd m_noConstraintForces;
  const Eigen::Matrix3Xd m_noContactForces;

  // qdd at time t and state (q, qd) with auxiliary state u, with the controllers', actuators',
  // springs', external and ground forces; leaves du/dt in m_udot
  const Eigen::VectorXd& accel(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                               const Eigen::VectorXd& u);
  // stores the stage derivatives k of (q, qd, u) at time t
  void stage(int k, double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
             const Eigen::VectorXd& u);
  bool fixedStep(double h);
  // semi-implicit Euler or MuJoCo's
  bool euler() const {
    return m_opt.integrator == Integrator::SemiImplicitEuler || m_opt.integrator == Integrator::MujocoEuler ||
           m_opt.integrator == Integrator::MujocoImplicitFast;
  }
  // qdd at the current state with the joints' damping implicit over a step h (mj_Euler)
  const Eigen::VectorXd& mujocoEulerAccel(double h);
  // qdd at the current state with the smooth forces' velocity derivative implicit over a step h
  // (mj_implicit's implicitfast)
  const Eigen::VectorXd& mujocoImplicitFastAccel(double h);
  // mj_Euler's step of free joints' velocities in its coordinates (tree_simulation.cpp)
  void freeJointsInWorldVelocity(double h, bool before);
  bool advanceSteps(double t);  // advanceTo's loop
  bool singular(const SingularInertiaError& e);  // a singular H as a divergence; returns false
  bool adaptiveStep(double hMax);
  // accepts the step held in m_q1, m_qd1 unless it diverged
  bool commit(double h);
  void applyStops(double h, double& constraintError);  // closes the constraints again
  void holdStops();
  const Eigen::VectorXd& holdJoints(const Eigen::VectorXd& q, const Eigen::VectorXd& qdd);
  double dampingPower(const Eigen::VectorXd& qd) const;
  double heldPower(const Eigen::VectorXd& qd) const;
  // whether the state held in m_q1, m_qd1, m_u1 is finite, its energy has not grown beyond
  // the limit and its constraints hold after the projection (error `constraintError`); leaves
  // the state's kinetic and potential energy (J) in `kinetic` and `potential`
  bool check(double constraintError, double& kinetic, double& potential);
  // the energy projection: scales m_qd1 (whose energies check() gave) onto the energy E*
  void projectEnergy(double kinetic, double potential);
};

}  // namespace art
