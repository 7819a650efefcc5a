#pragma once
// System: the one interface through which solvers, the simulator, the recorder, the plots and
// the viewport see a formulation (spec/formulations.md section C, after ArtiSynth's
// MechSystem). The kinematic tree (TreeSystem), the free rigid body with floor impacts
// (RigidBodySystem) and the natural-coordinate structure (StructureSystem) implement it.
//
// Two halves:
//  - stepping and display: sizes, the state (time, q, v), one step of the formulation's own
//    integrator or an exact advance to a time, divergence, energies, names, body poses;
//  - solver-facing: everything a generic integrator needs to step the same equations itself,
//    evaluated at an explicit evaluation point (t, q, v, w) set by evaluate() (not the
//    integration state, which only setState and stepping change):
//        dq/dt = positionDerivative(q, v)          (q += h v: integratePositions)
//        M(q) dv/dt = f(t, q, v, w) + G(q)' lambda,   phi(q) = 0,   dw/dt = auxiliaryRate
//    with M the mass matrix (constant for structures), f the generalized forces (everything
//    except the bilateral constraint forces: gravity, velocity-product (Coriolis, gyroscopic)
//    terms, springs and dampers, controllers, external forces and compliant contact), G the
//    bilateral constraint Jacobian (nc x nv), phi its residual, and G'' = G dv/dt + Gdot v, so
//    that the constraint holds at acceleration level when G dv/dt = -Gdot v. w is auxiliary
//    state integrated beside (q, v): the ground's tangential deformation and dent under a
//    tree's contact points (contact.h), then its actuators' activations (actuation.h); empty
//    elsewhere.
//    lambda is the vector of constraint forces (constraintForces): G' lambda is the generalized
//    force the constraints exert, in the units of each row's conjugate (N for a distance row in
//    m, N m for an angle row, and so on).
//
// Units: SI; v is in the formulation's velocity variables (rad/s, m/s, or rates of natural
// coordinates); f and G' lambda are the conjugate generalized forces (N m, N, or forces per
// natural coordinate). Frames: world (base) coordinates unless said otherwise.
// Allocation: the solver-facing calls write into caller-sized outputs (Eigen::Ref) and allocate
// nothing once the system is built; a size mismatch throws std::invalid_argument.

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <Eigen/LU>

#include "articulate/dynamics/constraints.h"
#include "articulate/dynamics/contact.h"
#include "articulate/dynamics/dynamics.h"
#include "articulate/dynamics/perturbation.h"
#include "articulate/formulations/rigid_body.h"
#include "articulate/formulations/tree_simulation.h"

namespace art {

/// Kinetic and potential energy (J).
/// What the soft constraint solver did in its last evaluation (System::solverReport).
struct SolverReport {
  std::string solver;      // "newton", "pgs" or "cg"
  int iterations = 0;      // of the last solve
  int rows = 0;            // constraint rows present
  int active = 0;          // of them, those whose force is not zero
  double gradient = 0.0;   // MuJoCo's scaled gradient norm at the solution
  double violation = 0.0;  // the largest equality residual (m, or rad for rotations)
  int contacts = 0;        // body-body contacts found (collision.h)
};

struct EnergySample {
  double kinetic = 0.0, potential = 0.0;
};

/// One contact point of a formulation with unilateral contact, world (base) coordinates.
struct ContactReport {
  Vec3 position = Vec3::Zero();  // the body's point nearest the ground (m)
  Vec3 normal = Vec3::UnitZ();   // the ground's unit normal, out of the ground
  double distance = 0.0;         // signed height above the ground plane (m; < 0: penetrating)
  double normalForce = 0.0;      // ground reaction along the normal (N, >= 0)
  Vec3 frictionForce = Vec3::Zero();  // tangential ground reaction (N, normal to `normal`)
};

/// A force element drawn as a line between two world points: a structure's spring, damper or
/// cable (natural/structure.h, apparatuses), a piece of a tree's spatial tendon (a cable), or
/// a rigid link that has no body (a slider-crank actuator's connecting rod and the piston's
/// travel along its slider axis: a rod).
struct SegmentReport {
  // a damper: a spring without stiffness; an equality: a connect's or weld's two anchor points
  enum class Kind { Spring, Damper, Cable, Rod, Equality };
  Kind kind = Kind::Spring;
  Vec3 a = Vec3::Zero(), b = Vec3::Zero();  // the two attachment points, world (m)
  double tension = 0.0;  // N, positive pulls the points together (never negative for cables)
  bool slack = false;    // a cable that pulls nothing (tension 0); false for springs
  // an equality: how far it is from holding (m: the anchors' distance, plus a weld's rotation
  // error in rad times 0.1 m), and whether it acts now (switched off: drawn, not enforced)
  double violation = 0.0;
  bool active = true;
};

using VecOut = Eigen::Ref<Eigen::VectorXd>;
using MatOut = Eigen::Ref<Eigen::MatrixXd>;

class System {
 public:
  virtual ~System() = default;

  // ---------------------------------------------------------------- sizes and structure
  /// Sizes of the position state q and the velocity state v.
  virtual int positionSize() const = 0;
  virtual int velocitySize() const = 0;
  /// Bilateral constraint rows nc (the size of phi and lambda; 0 without constraints).
  virtual int constraintSize() const { return 0; }
  /// Auxiliary state size (see the header comment; 0 for most formulations).
  virtual int auxiliarySize() const { return 0; }
  /// Contact points reported by contacts() (a fixed number per system; 0 without contact).
  virtual int contactSize() const { return 0; }
  /// Changes whenever the system is rebuilt so that sizes or the sparsity of M or G may have
  /// changed (a solver caching matrices or factorisations rebuilds them then). Stable while
  /// only the state changes.
  long structureVersion() const { return m_structureVersion; }
  /// Where unit quaternions (w, x, y, z) start inside q: playback interpolates them by slerp.
  virtual std::vector<int> quaternionBlocks() const { return {}; }
  /// Readable names of q's and v's components, e.g. "q[1] link2", "v[2] wz".
  virtual std::string positionName(int i) const;
  virtual std::string velocityName(int i) const;
  /// Short column names of q's and v's components for data files: "q0", "qd0" by default.
  virtual std::string positionColumn(int i) const { return "q" + std::to_string(i); }
  virtual std::string velocityColumn(int i) const { return "qd" + std::to_string(i); }
  /// Readable name of constraint row i, e.g. "loop1.x" or "joint 'pin' [2]".
  virtual std::string constraintName(int i) const;

  // ---------------------------------------------------------------- stepping and display
  /// Current time (s) and state.
  virtual double time() const = 0;
  virtual const Eigen::VectorXd& positions() const = 0;
  virtual const Eigen::VectorXd& velocities() const = 0;
  /// Sets the state. Throws std::invalid_argument on a size mismatch. Formulations that keep
  /// their state on a manifold normalise quaternions and (trees) project onto the constraints.
  virtual void setState(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v) = 0;
  /// Back to the initial state at t = 0.
  virtual void reset() = 0;
  /// One integration step of the formulation's own integrator. Returns false (staying at the
  /// last good state) on divergence.
  virtual bool step() = 0;
  /// Advances exactly to time t (s) with the formulation's own integrator (the last step
  /// shortened to land on t). Returns false (staying at the last good state) on divergence.
  virtual bool advanceTo(double t) = 0;
  /// Why it stopped stepping, if it did.
  virtual const std::optional<Divergence>& divergence() const = 0;
  /// Steps the formulation's integrator has taken (accepted) since it was built, and steps an
  /// adaptive integrator rejected.
  virtual long stepsTaken() const = 0;
  virtual long stepsRejected() const { return 0; }
  /// The integrator's name ("rk4", "euler", "dopri5", "zhong06").
  virtual std::string integratorName() const = 0;
  /// Energies at the current state.
  virtual EnergySample energy() = 0;
  /// The energy the formulation's dissipative elements have taken out of the motion since the
  /// state was last set (setState, reset, a rebuild; J, >= 0 up to rounding): a tree's joint
  /// damping, stops and Coulomb friction (Simulation::energyDissipated). Without other forces
  /// doing work, the total energy plus this stays constant up to the integrator's error. 0 for
  /// formulations that do not account it (rigid bodies, structures).
  virtual double energyDissipated() const { return 0.0; }
  /// The work the formulation's actuators have done on the motion since the state was last set
  /// (J; a tree's, Simulation::actuatorWork). With it, energy + energyDissipated - actuatorWork
  /// stays constant up to the integrator's error. 0 without actuators.
  virtual double actuatorWork() const { return 0.0; }

  // ---------------------------------------------------------------- actuators
  /// Number of actuators (their controls); 0 for formulations without them.
  virtual int actuatorSize() const { return 0; }
  /// Name of actuator i (its given name, else "actuator i").
  virtual std::string actuatorName(int i) const { return "actuator " + std::to_string(i); }
  /// The control range of actuator i where it has one (min < max).
  virtual std::optional<std::array<double, 2>> controlRange(int i) const { (void)i; return std::nullopt; }
  /// Sets the actuators' controls (actuatorSize entries), held from the next step on. Throws
  /// std::invalid_argument on a size mismatch.
  virtual void setControls(const Eigen::VectorXd& ctrl) { checkSize(ctrl.size(), actuatorSize(), "ctrl"); }
  /// The controls in force now (actuatorSize entries; with a control table, its values now).
  virtual Eigen::VectorXd controls() const { return Eigen::VectorXd(); }
  /// Scripted controls (actuation.h's ControlTable, in this system's time) over those set by
  /// setControls; null removes them. Throws std::invalid_argument for a column that is not an
  /// actuator, or for a system without actuators.
  virtual void setControlTable(std::shared_ptr<const ControlTable> table) {
    if (table) throw std::invalid_argument("this system has no actuators to drive");
  }
  /// Whether the controls change by themselves from step to step (a control table acts).
  virtual bool controlsVary() const { return false; }
  /// The actuators' forces at the current state (actuatorSize entries; N or N m).
  virtual Eigen::VectorXd actuatorForces() { return Eigen::VectorXd(); }
  /// The soft constraint solver's figures of the last evaluation (PhysicsSpec::Soft models;
  /// soft_constraints.h); none for other systems.
  virtual std::optional<SolverReport> solverReport() const { return std::nullopt; }

  /// Constraint forces lambda at the current state (constraintSize() entries; see the header
  /// comment for the sign and units): the multipliers of the formulation's own constrained
  /// dynamics there. Throws std::invalid_argument on a size mismatch.
  virtual void currentConstraintForces(VecOut lambda);

  // ---------------------------------------------------------------- the soft constraint model
  /// Channels of the soft constraint model's row forces (soft_constraints.h, softChannelNames:
  /// one per row the model can have, so the layout stays fixed while rows come and go); 0
  /// unless the model's physics is soft. They are not constraintSize()'s rows: those are the
  /// exact (algebraic) constraints of the formulation.
  virtual int softForceSize() const { return 0; }
  /// Channel i's name, e.g. "equality glue.rx", "friction knee", "limit hip.lower". Throws
  /// std::out_of_range for a channel that does not exist.
  virtual std::string softForceName(int i) const;
  /// The soft rows' forces at the current state by channel (softForceSize() entries, N or N m;
  /// 0 where no row acts). Throws std::invalid_argument on a size mismatch.
  virtual void currentSoftForces(VecOut f) { checkSize(f.size(), softForceSize(), "soft forces"); }
  /// Equality constraints that can be switched on and off (the soft model's, in the model's
  /// order; 0 otherwise), as MuJoCo's simulate switches eq_active.
  virtual int equalitySize() const { return 0; }
  /// Which of them act (equalitySize() entries, 1 acting, 0 switched off).
  virtual std::vector<char> equalityActive() const { return {}; }
  /// Switches them (equalitySize() entries), felt from the next evaluation on; the state is
  /// kept. Throws std::invalid_argument on a size mismatch.
  virtual void setEqualityActive(const std::vector<char>& active) {
    checkSize(static_cast<Eigen::Index>(active.size()), equalitySize(), "equality switches");
  }
  /// Number of bodies the viewport draws (the body indices of the display model).
  virtual int bodies() const = 0;
  /// Poses (base/world coordinates) of every body at positions q; `poses` is resized.
  virtual void bodyPoses(const Eigen::VectorXd& q, std::vector<BodyPose>& poses) = 0;

  // ---------------------------------------------------------------- solver-facing
  /// dq/dt for velocity v at q (positionSize): q' = v except for rotations (quaternion blocks:
  /// 1/2 quat * (0, w)).
  virtual void positionDerivative(const VecRef& q, const VecRef& v, VecOut qdot) const = 0;
  /// q moved along velocity v for h seconds, into qout (may alias q): q + h v, with the
  /// exponential map for rotations (configuration.h for free joints).
  virtual void integratePositions(const VecRef& q, const VecRef& v, double h,
                                  VecOut qout) const = 0;
  /// Brings q back onto its own manifold (unit quaternions) in place; nothing for linear q.
  virtual void normalizePositions(VecOut q) const { (void)q; }
  /// The current auxiliary state (auxiliarySize entries).
  virtual void auxiliaryState(VecOut w) const { (void)w; }
  /// Sets the auxiliary state (auxiliarySize entries), e.g. after setState to go on from a
  /// recorded sample exactly (setState resets it: a tree's ground starts undeformed). Throws
  /// std::invalid_argument on a size mismatch or a number that is not finite.
  virtual void setAuxiliaryState(const VecRef& w) { checkSize(w.size(), auxiliarySize(), "w"); }

  /// Sets the evaluation point of the calls below: time t (s), positions q, velocities v and
  /// auxiliary state w (auxiliarySize entries; the three-argument form takes the current one,
  /// allocating a copy when there is one). Does not change the integration state. Throws
  /// std::invalid_argument on a size mismatch.
  virtual void evaluate(double t, const VecRef& q, const VecRef& v, const VecRef& w) = 0;
  void evaluate(double t, const VecRef& q, const VecRef& v);
  /// Whether M is constant (the same at every q; natural coordinates).
  virtual bool isMassConstant() const { return false; }
  /// Mass matrix M at the evaluation point (nv x nv, symmetric positive definite).
  virtual void massMatrix(MatOut M) = 0;
  /// Solves M x = b in place (b: nv entries) at the evaluation point.
  virtual void solveMass(VecOut b) = 0;
  /// Generalized forces f at the evaluation point (nv): everything except the bilateral
  /// constraint forces (see the header comment).
  virtual void generalizedForces(VecOut f) = 0;
  /// Bilateral constraint residual phi (nc), Jacobian G = d phi / d(motion along v) (nc x nv)
  /// and the velocity-product term Gdot v (nc) at the evaluation point.
  virtual void constraintResidual(VecOut phi) { checkSize(phi.size(), constraintSize(), "phi"); }
  virtual void constraintJacobian(MatOut G);
  virtual void constraintVelocityTerm(VecOut gdotv) {
    checkSize(gdotv.size(), constraintSize(), "Gdot v");
  }
  /// Constraint forces of the formulation's own constrained dynamics at the evaluation point
  /// (nc; on the constraint manifold the stabilisation terms vanish and this is the exact
  /// lambda of M dv/dt = f + G' lambda, G dv/dt = -Gdot v).
  virtual void constraintForces(VecOut lambda) {
    checkSize(lambda.size(), constraintSize(), "lambda");
  }
  /// The rate of the auxiliary state at the evaluation point (auxiliarySize entries).
  virtual void auxiliaryRate(VecOut wdot) { checkSize(wdot.size(), auxiliarySize(), "w rate"); }
  /// Unilateral contact at the evaluation point (trees: the compliant ground, whose forces
  /// are part of f) or, for formulations with impulsive contact (the rigid body), the mean
  /// ground reaction over the last step at the current state: contactSize() reports, into a
  /// vector resized to that (no allocation once it has the capacity). Friction is the
  /// tangential part of each reaction.
  virtual void contacts(std::vector<ContactReport>& out) { out.clear(); }
  /// Body-body contacts at the current state (trees with geoms, collision.h; as many as there
  /// are now, so not contactSize()'s): each at the midpoint between the surfaces, its normal
  /// from geom1 towards geom2, the distance (m, < 0 overlapping) and the force on geom2 (N):
  /// along the normal and tangential; where geom2 is static (the base's), the normal and the
  /// force turn round to geom1's: what a floor or a table does to the body on it. The default
  /// has none.
  virtual void bodyContacts(std::vector<ContactReport>& out) { out.clear(); }
  /// The force elements drawn as lines (springs, dampers, cables), at positions q and
  /// velocities v (an empty v: at rest, the elastic tension alone), into `out` (resized to a
  /// fixed number per system; no allocation once it has the capacity). Independent of the
  /// evaluation point and of the integration state. None for rigid bodies. Throws
  /// std::invalid_argument on a size mismatch.
  virtual void segments(const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                        std::vector<SegmentReport>& out) {
    (void)q;
    (void)v;
    out.clear();
  }

  // ---------------------------------------------------------------- perturbation
  /// Sets or (nullopt) removes a perturbation (perturbation.h): a spring-damper pulling a point
  /// of body `body` (a bodyPoses index; the point in the frame bodyPoses places) towards a
  /// world target, or turning the body with its moment. It acts as a force element of the
  /// formulation's own dynamics: step and advanceTo feel it at every derivative evaluation
  /// from now on, generalizedForces at the next evaluate (not forceJacobians: the viewport's
  /// spring is soft, and Newton iterations converge without its Jacobian). Throws
  /// std::invalid_argument for a body out of range or non-finite or negative numbers.
  virtual void setPerturbation(const std::optional<Perturbation>& perturbation) = 0;
  /// The perturbation acting, if any.
  virtual std::optional<Perturbation> perturbation() const = 0;
  /// Its load at the current state (world coordinates), if one acts.
  virtual std::optional<PerturbationLoad> perturbationLoad() = 0;
  /// The mass a perturbation of `body` moves (kg): the body and the bodies it carries (a
  /// tree's subtree; the body alone elsewhere), for scaling the spring. Throws
  /// std::invalid_argument for a body out of range.
  virtual double carriedMass(int body) const = 0;

  // ---------------------------------------------------------------- contact and force Jacobians
  /// The ground's tangent basis for a unit normal n, as the columns (t1, t2, n) of a rotation:
  /// t1 is the world x axis projected onto the ground plane and normalised (the y axis instead
  /// when n is within 25 degrees of x), t2 = n x t1. Trees: n = z (planar models: y, so that t1
  /// = x and t2 = -z); the rigid body: its floor's normal.
  static Mat3 contactFrame(const Vec3& normal);
  /// Unilateral contact and friction Jacobians at the evaluation point (spec C's N and D), for
  /// the contact points that contacts() reports (k = 0 .. contactSize() - 1): row k of N
  /// (contactSize x nv) maps v to the rate of point k's signed distance from the ground (m/s,
  /// positive separating: N v < 0 approaches), rows 2k and 2k + 1 of D (2 contactSize x nv)
  /// map v to the point's velocity along t1 and t2 of contactFrame(normal) (m/s, world). The
  /// point is the material point of the body at the contact (trees: the contact point; the
  /// rigid body: the shape's point nearest its floor at the evaluation pose), so that D v
  /// integrates to its tangential displacement. By duality N' fn + D' ft is the generalized
  /// force (f's units) of ground reactions with normal components fn (N, >= 0: unilateral) and
  /// tangential components ft (N, along t1, t2; Coulomb: |ft_k| <= mu fn_k) on the points.
  /// Throws std::invalid_argument on a size mismatch; the default has no contact points.
  virtual void contactJacobians(MatOut N, MatOut D);
  /// Force Jacobians for implicit steps at the evaluation point: Kq = d f / d(motion along v)
  /// (nv x nv: the change of f as q moves to integratePositions(q, dq, 1), per unit dq; for
  /// linear q simply d f / d q) and Kv = d f / d v (nv x nv), f as generalizedForces, t and w
  /// held. Units: f's per unit of v's variable (N/m, N m/rad, ...; Kv times s). The default
  /// takes central differences of generalizedForces (steps of 1e-6 (1 + |v_j|) in v_j and 1e-6
  /// along each motion direction; error about 1e-10 relative) through evaluate(), restoring the
  /// evaluation point afterwards; it allocates. TreeSystem and RigidBodySystem use it (their f
  /// holds the velocity-product terms, controllers and the compliant ground);
  /// StructureSystem's are analytic (springs, dampers and cables; gravity is constant).
  /// Throws std::invalid_argument on a size mismatch.
  virtual void forceJacobians(MatOut Kq, MatOut Kv);

 protected:
  /// Implementations call this from evaluate() with the evaluation point, so that defaults
  /// that re-evaluate elsewhere (forceJacobians) can come back to it. Allocates only when a
  /// size changes.
  void recordEvaluation(double t, const VecRef& q, const VecRef& v, const VecRef& w);
  /// Marks a rebuild (see structureVersion).
  void bumpStructureVersion() { ++m_structureVersion; }
  /// Throws std::invalid_argument "System: <what> has n entries, expected m" unless n == m.
  static void checkSize(Eigen::Index n, Eigen::Index expected, const char* what);

 private:
  long m_structureVersion = 0;
  double m_evalT = 0.0;  // the evaluation point of recordEvaluation
  Eigen::VectorXd m_evalQ, m_evalV, m_evalW;
};

/// A kinematic tree integrated by art::Simulation (its controllers, forces, constraints and
/// contact included). q and v are the joint positions and velocities (nq and nv; free joints:
/// position and quaternion, body-coordinate spatial velocity). Solver-facing: M is the joint-space
/// inertia (crba), solved by its sparse L'L factor; f = tau - C(q, v, fext) with tau the joint
/// forces of setJointForces plus the controllers, and fext the model's external forces plus
/// the compliant ground's reactions; the constraint rows are those of constraints.h (G per
/// velocity variable, Gdot v = -ConstraintData::g); w is the contact state: the ground's tangential deformation and dents (contact.h).
/// Force Jacobians: System's central-difference default (no analytic derivatives of RNEA,
/// the controllers or the ground yet).
class TreeSystem : public System {
 public:
  /// Throws std::invalid_argument for bad options (see Simulation).
  TreeSystem(std::shared_ptr<const Model> model, const SimulationOptions& options);
  ~TreeSystem() override;
  /// Rebuilds on another model (at its initial state, t = 0); structureVersion() changes.
  /// Throws as the constructor.
  void setModel(std::shared_ptr<const Model> model, const SimulationOptions& options);
  /// Constant joint forces (N m or N, nv entries) added to the controllers' (Simulation::
  /// setJointForces). Throws std::invalid_argument on a size mismatch.
  void setJointForces(const Eigen::VectorXd& tau);

  int positionSize() const override { return m_model->nq(); }
  int velocitySize() const override { return m_model->nv(); }
  int constraintSize() const override { return m_nc; }
  /// The contact state, then the actuators' activations (Simulation::auxiliaryState).
  int auxiliarySize() const override { return contactStateSize(*m_model) + m_model->na; }
  int contactSize() const override { return static_cast<int>(m_model->contacts.size()); }
  /// Free and ball joints' quaternions: at qIndex + 3 of a free joint ([x y z qw qx qy qz]),
  /// at qIndex of a ball joint ([qw qx qy qz]).
  std::vector<int> quaternionBlocks() const override;
  std::string positionName(int i) const override;
  std::string velocityName(int i) const override;
  /// "<constraint name or constraintK>.x" (loop rows x y z, alignment rows ax ay az; planar
  /// loops x y and az), coupling rows by the constraint's name alone.
  std::string constraintName(int i) const override;
  double time() const override { return m_sim->time(); }
  const Eigen::VectorXd& positions() const override { return m_sim->q(); }
  const Eigen::VectorXd& velocities() const override { return m_sim->qd(); }
  void setState(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v) override;
  void reset() override;
  bool step() override { return m_sim->step(); }
  bool advanceTo(double t) override { return m_sim->advanceTo(t); }
  const std::optional<Divergence>& divergence() const override { return m_sim->divergence(); }
  long stepsTaken() const override { return m_sim->stepsTaken(); }
  long stepsRejected() const override { return m_sim->stepsRejected(); }
  std::string integratorName() const override { return art::integratorName(m_options.integrator); }
  EnergySample energy() override;
  double energyDissipated() const override { return m_sim->energyDissipated(); }
  double actuatorWork() const override { return m_sim->actuatorWork(); }
  std::optional<SolverReport> solverReport() const override;
  int actuatorSize() const override { return m_model->nu(); }
  std::string actuatorName(int i) const override;
  std::optional<std::array<double, 2>> controlRange(int i) const override;
  void setControls(const Eigen::VectorXd& ctrl) override;
  Eigen::VectorXd controls() const override { return m_sim->controlsAt(m_sim->time()); }
  void setControlTable(std::shared_ptr<const ControlTable> table) override;
  bool controlsVary() const override { return m_sim->hasControlTable(); }
  Eigen::VectorXd actuatorForces() override { return m_sim->actuationResults().actuatorForce; }
  void currentConstraintForces(VecOut lambda) override;
  int softForceSize() const override;
  std::string softForceName(int i) const override;
  /// From the simulation's own evaluation at its current state (Simulation::softConstraints).
  void currentSoftForces(VecOut f) override;
  int equalitySize() const override;
  std::vector<char> equalityActive() const override;
  /// Switches the simulation's equalities (SoftConstraintData::equalityActive); a rebuild
  /// (setModel) starts from the model's own (EqualitySpec::active), reset() keeps them.
  void setEqualityActive(const std::vector<char>& active) override;
  int bodies() const override { return m_model->nb; }
  void bodyPoses(const Eigen::VectorXd& q, std::vector<BodyPose>& poses) override;

  void positionDerivative(const VecRef& q, const VecRef& v, VecOut qdot) const override;
  void integratePositions(const VecRef& q, const VecRef& v, double h, VecOut qout) const override;
  void normalizePositions(VecOut q) const override;
  void auxiliaryState(VecOut w) const override;
  void setAuxiliaryState(const VecRef& w) override;
  using System::evaluate;
  void evaluate(double t, const VecRef& q, const VecRef& v, const VecRef& w) override;
  void massMatrix(MatOut M) override;
  void solveMass(VecOut b) override;
  void generalizedForces(VecOut f) override;
  void constraintResidual(VecOut phi) override;
  void constraintJacobian(MatOut G) override;
  void constraintVelocityTerm(VecOut gdotv) override;
  void constraintForces(VecOut lambda) override;
  void auxiliaryRate(VecOut wdot) override;
  void contacts(std::vector<ContactReport>& out) override;
  /// From the simulation's own evaluation at its current state (Simulation::softConstraints).
  void bodyContacts(std::vector<ContactReport>& out) override;
  /// The spatial tendons, as cables through their path points (sites and wrap points; none
  /// across a pulley), each pulling with the tendon's tension: its spring's and damper's
  /// force plus what the actuators on it pull, at the simulation's controls and activations
  /// (positive pulls; a tendon that pushes or carries nothing is slack).
  void segments(const Eigen::VectorXd& q, const Eigen::VectorXd& v, std::vector<SegmentReport>& out) override;
  void setPerturbation(const std::optional<Perturbation>& perturbation) override;
  std::optional<Perturbation> perturbation() const override { return m_sim->perturbation(); }
  std::optional<PerturbationLoad> perturbationLoad() override { return m_sim->perturbationLoad(); }
  /// The mass of the body's subtree.
  double carriedMass(int body) const override;
  /// The contact points' Jacobians (the ground's normal z, planar models y), from the tree's
  /// point velocities (exact: the points' velocities are linear in v).
  void contactJacobians(MatOut N, MatOut D) override;

  const Model& model() const { return *m_model; }
  const Simulation& simulation() const { return *m_sim; }

 private:
  std::shared_ptr<const Model> m_model;
  SimulationOptions m_options;
  std::unique_ptr<Simulation> m_sim;
  std::vector<std::string> m_softNames;  // the soft model's force channels (softChannelNames)
  // the connects' and welds' anchor pairs at q (segments)
  void equalitySegments(const Eigen::VectorXd& q, std::vector<SegmentReport>& out);
  Data m_data;  // for bodyPoses
  int m_nc = 0;
  Eigen::VectorXd m_tau;  // constant joint forces (nv)
  // evaluation point and its workspaces (see System::evaluate)
  struct Evaluation;
  std::unique_ptr<Evaluation> m_eval;
  void build();
  void needForces();       // f, contact, fext at the evaluation point
  void needMass();         // H and its factor
  void needConstraints();  // phi, G, g
};

/// One free rigid body with floor impacts (RigidBody), integrated with RK4 at the step `h`
/// and sampled every `period` seconds (one step() = period / h RK4 steps, rounded up).
/// q = [centre of mass x y z (m), orientation quaternion w x y z]; v = [centre-of-mass velocity
/// (m/s), angular velocity (rad/s)], world coordinates. Solver-facing: M = diag(m I, R I_c R')
/// (not constant: the inertia turns with the body), f = [m g; -w x (R I_c R' w)] (gravity and
/// the gyroscopic term), no bilateral constraints; the floor's impulsive contact is reported
/// by contacts() as the mean reaction over the last step (from the momentum balance) at the
/// shape's point nearest the floor. Force Jacobians: System's central-difference default.
class RigidBodySystem : public System {
 public:
  /// Throws ModelError for an invalid spec and std::invalid_argument for h or period <= 0.
  explicit RigidBodySystem(const RigidBodySpec& spec, double h = 2.0 / 810000,
                           double period = 1e-3);
  int positionSize() const override { return 7; }
  int velocitySize() const override { return 6; }
  int contactSize() const override { return m_body.hasFloor() ? 1 : 0; }
  std::vector<int> quaternionBlocks() const override { return {3}; }
  std::string positionName(int i) const override;
  std::string velocityName(int i) const override;
  /// x y z qw qx qy qz and vx vy vz wx wy wz.
  std::string positionColumn(int i) const override { return positionName(i); }
  std::string velocityColumn(int i) const override { return velocityName(i); }
  double time() const override { return m_body.time(); }
  const Eigen::VectorXd& positions() const override { return m_q; }
  const Eigen::VectorXd& velocities() const override { return m_v; }
  void setState(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v) override;
  void reset() override;
  bool step() override;
  bool advanceTo(double t) override;
  const std::optional<Divergence>& divergence() const override { return m_divergence; }
  long stepsTaken() const override { return m_body.stepsTaken(); }
  std::string integratorName() const override { return "rk4"; }
  EnergySample energy() override;
  int bodies() const override { return 1; }
  void bodyPoses(const Eigen::VectorXd& q, std::vector<BodyPose>& poses) override;

  void positionDerivative(const VecRef& q, const VecRef& v, VecOut qdot) const override;
  void integratePositions(const VecRef& q, const VecRef& v, double h, VecOut qout) const override;
  void normalizePositions(VecOut q) const override;
  using System::evaluate;
  void evaluate(double t, const VecRef& q, const VecRef& v, const VecRef& w) override;
  void massMatrix(MatOut M) override;
  void solveMass(VecOut b) override;
  void generalizedForces(VecOut f) override;
  void contacts(std::vector<ContactReport>& out) override;
  /// The point is in body coordinates with the origin at the centre of mass (bodyPoses).
  void setPerturbation(const std::optional<Perturbation>& perturbation) override;
  std::optional<Perturbation> perturbation() const override { return m_body.perturbation(); }
  std::optional<PerturbationLoad> perturbationLoad() override { return m_body.perturbationLoad(); }
  double carriedMass(int body) const override;
  /// At the shape's point nearest the floor at the evaluation pose (one point, contactSize()):
  /// N = n' [I, -[r]x], D = [t1'; t2'] [I, -[r]x] with r from the centre of mass to the point
  /// (world), so that M^-1 [N; D]' maps a contact impulse to the velocity change the body's
  /// own impulsive contact applies (RigidBody's contact law).
  void contactJacobians(MatOut N, MatOut D) override;
  const RigidBody& body() const { return m_body; }

 private:
  RigidBodySpec m_spec;
  RigidBody m_body;
  double m_h, m_period;
  Eigen::VectorXd m_q, m_v;
  std::optional<Divergence> m_divergence;
  // the evaluation point: rotation, world inertia about the centre of mass, angular velocity
  Mat3 m_R = Mat3::Identity();
  Mat3 m_Iw = Mat3::Identity();
  Vec3 m_w = Vec3::Zero();
  Vec3 m_evalQ3 = Vec3::Zero(), m_evalV3 = Vec3::Zero();  // centre of mass and its velocity
  // the last step's mean floor reaction (N, world) from the momentum balance
  Vec3 m_reaction = Vec3::Zero();
  void readState();
  bool advance(double t);
  // the shape's point nearest the floor, body coordinates, for rotation R (body -> world)
  Vec3 nearestPoint(const Mat3& R) const;
};

/// A one-body tree that draws a rigid body (its appearance on body 0, its base appearance),
/// for the viewport, with a camera tracking the body from 4 times the default distance; the
/// body's pose comes from RigidBodySystem::bodyPoses.
ModelSpec displayModel(const RigidBodySpec& spec);

}  // namespace art
