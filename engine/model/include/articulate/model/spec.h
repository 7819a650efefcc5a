#pragma once
// ModelSpec: the editable, named description of a kinematic tree that files store and the GUI
// edits. compile() (model.h) turns it into an immutable Model.

#include <array>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "articulate/spatial/arith.h"

namespace art {

/// Inertia of one body, kept in the form it was given so that files round-trip exactly.
struct InertiaSpec {
  bool raw = false;           // true: `matrix` holds the spatial inertia as given
  double mass = 0.0;          // kg (when !raw)
  Vec3 com = Vec3::Zero();    // centre of mass in body coordinates, m (when !raw)
  Mat3 aboutCom = Mat3::Zero();  // rotational inertia about the COM, kg m^2 (when !raw)
  Mat6 matrix = Mat6::Zero();    // raw 6x6 spatial inertia in body coordinates (when raw)

  /// The 6x6 spatial inertia in body coordinates.
  Mat6 spatial() const { return raw ? matrix : spatialInertia(mass, com, aboutCom); }
  static InertiaSpec fromMassComInertia(double m, const Vec3& c, const Mat3& Ic) {
    InertiaSpec s;
    s.mass = m;
    s.com = c;
    s.aboutCom = Ic;
    return s;
  }
  static InertiaSpec fromMatrix(const Mat6& I) {
    InertiaSpec s;
    s.raw = true;
    s.matrix = I;
    return s;
  }
};

/// Time integrators (formulations/tree_simulation.h).
enum class Integrator {
  RK4,                // classical fixed-step Runge-Kutta, 4th order ("rk4")
  SemiImplicitEuler,  // symplectic Euler: qd += h qdd(q, qd); q += h qd ("euler")
  DormandPrince45,    // adaptive embedded Runge-Kutta 5(4) with error control ("dopri5")
  // MuJoCo's semi-implicit Euler (mj_Euler, "mujoco-euler"): qd += h (H + h B)^-1 (H qdd), B the
  // joints' viscous damping, then q advances with the new qd; activations advance with the old
  // rates. Without damping it is the symplectic Euler above. Steps compare with mj_step.
  MujocoEuler,
  // MuJoCo's implicitfast (mj_implicit, "mujoco-implicitfast"): as MujocoEuler with
  // qd += h (H + h B)^-1 (H qdd), where B = -d(actuator and passive forces)/d qd holds the
  // joints' and the tendons' viscous damping, the actuators' affine velocity gains and biases
  // (a position servo's kv, a velocity servo's) and the muscles' force-velocity slope, kept on
  // H's tree pattern as MuJoCo keeps it on M's. What Menagerie's arms use: stiff velocity
  // feedback that explicit Euler cannot hold stays stable.
  MujocoImplicitFast
};

/// Parses "rk4", "euler", "dopri5", "mujoco-euler" or "mujoco-implicitfast"; returns false for
/// anything else.
bool parseIntegrator(const std::string& name, Integrator& out);
/// "rk4", "euler", "dopri5", "mujoco-euler" or "mujoco-implicitfast".
const char* integratorName(Integrator integrator);

/// MuJoCo's solver parameters of one soft constraint ("Modeling" chapter, "Solver parameters"):
/// solref = (time constant s, damping ratio), or with both entries <= 0 the direct form
/// (-stiffness, -damping); solimp = (dmin, dmax, width m, midpoint, power), the impedance d(r)
/// rising from dmin at r = 0 to dmax at |r| >= width. The defaults are MuJoCo's.
struct SoftParams {
  std::array<double, 2> solref = {0.02, 1.0};
  std::array<double, 5> solimp = {0.9, 0.95, 0.001, 0.5, 2.0};
  bool operator==(const SoftParams& o) const { return solref == o.solref && solimp == o.solimp; }
  bool operator!=(const SoftParams& o) const { return !(*this == o); }
};

/// How a tree's limits, joint friction and equality constraints are enforced (ModelSpec::physics,
/// docs/model-format.md#physics).
///  - Exact (the default of Articulate and spatial_v2 models): limits are rigid stops and joint
///    friction an impulse after each step; loops and couplings are exact (`constraints`);
///    `equalities` are refused.
///  - Soft (the default of MJCF files): MuJoCo's constraint model. Limits, joint and tendon
///    friction (frictionloss) and `equalities` are soft constraint rows, solved together at every
///    evaluation as one convex problem by `solver` (soft_constraints.h), as MuJoCo 2.2.2 does.
struct PhysicsSpec {
  enum class Constraints { Exact, Soft };
  enum class Solver { Newton, PGS, CG };
  enum class Cone { Pyramidal, Elliptic };
  Constraints constraints = Constraints::Exact;
  Solver solver = Solver::Newton;
  int iterations = 100;      // solver iterations (>= 1)
  double tolerance = 1e-8;   // stops when the scaled cost improvement or gradient falls below (>= 0)
  Cone cone = Cone::Pyramidal;  // friction cones of contacts
  double impratio = 1.0;     // frictional-to-normal impedance ratio of contacts (> 0)
  SoftParams soft;           // the parameters of a row whose element gives none
  // MuJoCo's <flag override>: every row takes overrideSoft and overrideMargin (o_solref, o_solimp, o_margin)
  bool override = false;
  SoftParams overrideSoft;
  double overrideMargin = 0.0;
  // MuJoCo's disable flags: false turns the kind of row off
  bool equality = true, frictionloss = true, limit = true, contact = true;
  // MuJoCo's filterparent: a body's geoms do not collide with its parent's (false: they may)
  bool filterParent = true;
  bool refsafe = true;  // a time constant below 2 dt is raised to 2 dt (MuJoCo's refsafe)
  bool operator==(const PhysicsSpec& o) const {
    return constraints == o.constraints && solver == o.solver && iterations == o.iterations &&
           tolerance == o.tolerance && cone == o.cone && impratio == o.impratio && soft == o.soft &&
           override == o.override && overrideSoft == o.overrideSoft && overrideMargin == o.overrideMargin &&
           equality == o.equality && frictionloss == o.frictionloss && limit == o.limit && contact == o.contact &&
           filterParent == o.filterParent && refsafe == o.refsafe;
  }
  bool operator!=(const PhysicsSpec& o) const { return !(*this == o); }
};

/// "newton", "pgs" or "cg"; parseSolver returns false for anything else.
const char* solverName(PhysicsSpec::Solver solver);
bool parseSolver(const std::string& name, PhysicsSpec::Solver& out);

/// An equality constraint of the soft model (MuJoCo's <equality>), one of:
///  - Connect: point anchor1 of body1 (its coordinates, m) coincides with anchor2 of body2 (3 rows);
///  - Weld: the frame (anchor1, quat1) of body1 coincides with the frame (anchor2, quat2) of body2
///    (quaternions [w x y z] of the frames' axes in body coordinates): 3 rows, p1 - p2 in base
///    coordinates, and 3 rows, the vector part of the quaternion from frame 2 to frame 1, their
///    Jacobian scaled by torquescale (MuJoCo's);
///  - Joint: q[obj1] - ref1 = sum_k poly[k] (q[obj2] - ref2)^k (1 row; obj2 = -1: q[obj1] - ref1 = poly[0]);
///  - Tendon: the same on the lengths of tendons obj1 and obj2.
/// body1, body2 (Connect, Weld) are body indices, -1 the base; obj1, obj2 (Joint) are the bodies
/// whose hinge or slide joints are meant, (Tendon) tendon indices.
struct EqualitySpec {
  enum class Type { Connect, Weld, Joint, Tendon };
  Type type = Type::Connect;
  std::string name;
  bool active = true;  // whether it acts when a simulation starts (the app can switch it)
  int obj1 = -1, obj2 = -1;
  Vec3 anchor1 = Vec3::Zero(), anchor2 = Vec3::Zero();
  Eigen::Vector4d quat1 = Eigen::Vector4d(1, 0, 0, 0), quat2 = Eigen::Vector4d(1, 0, 0, 0);
  double torquescale = 1.0;
  std::array<double, 5> poly = {0, 1, 0, 0, 0};
  double ref1 = 0.0, ref2 = 0.0;  // rad or m
  std::optional<SoftParams> soft;  // unset: PhysicsSpec::soft
  bool operator==(const EqualitySpec& o) const {
    return type == o.type && name == o.name && active == o.active && obj1 == o.obj1 && obj2 == o.obj2 &&
           anchor1 == o.anchor1 && anchor2 == o.anchor2 && quat1 == o.quat1 && quat2 == o.quat2 && torquescale == o.torquescale &&
           poly == o.poly && ref1 == o.ref1 && ref2 == o.ref2 && soft == o.soft;
  }
};
/// "connect", "weld", "joint" or "tendon".
const char* equalityTypeName(EqualitySpec::Type type);

/// How the model is simulated by default (the app and `articulate-cli simulate`).
struct SimulationSpec {
  Integrator integrator = Integrator::RK4;
  double dt = 1e-3;                // fixed step, or dopri5's largest step (s)
  double relTol = 1e-9, absTol = 1e-9;  // dopri5 error tolerances
  // rk4 and dopri5 on a passive model: rescale the joint velocities after every step so that the
  // total energy stays at its initial value (SimulationOptions::energyProjection)
  bool energyProjection = false;
  bool operator==(const SimulationSpec& o) const {
    return integrator == o.integrator && dt == o.dt && relTol == o.relTol && absTol == o.absTol &&
           energyProjection == o.energyProjection;
  }
};

/// A joint's controller: the joint force it applies (N m for rotations, N for translations),
/// evaluated at every derivative evaluation of the integrator.
struct ControlSpec {
  enum class Type {
    None,      // passive joint
    Constant,  // tau = torque
    PD,        // tau = torque + kp (target - q) + kd (targetVelocity - qd)
    Table      // tau(t) linear between (times[k], torques[k]), held outside the table
  };
  Type type = Type::None;
  double torque = 0.0;                // constant force, or the PD's feed-forward term
  double kp = 0.0, kd = 0.0;          // PD gains (N m/rad, N m s/rad; N/m, N s/m)
  double target = 0.0;                // PD target position (rad or m)
  double targetVelocity = 0.0;        // PD target velocity (rad/s or m/s)
  std::vector<double> times, torques; // table: increasing times (s) and their forces
};

/// A constant external force on a body: `force` (N) applied at `point` (body coordinates, m)
/// plus a pure `torque` (N m); both vectors in base coordinates.
struct ExternalForceSpec {
  int body = 0;  // index into ModelSpec::bodies
  Vec3 point = Vec3::Zero();
  Vec3 force = Vec3::Zero();
  Vec3 torque = Vec3::Zero();
};

/// Limits of a one-variable joint (URDF <limit>). An unset entry is no limit.
struct JointLimits {
  // position stops (rad or m): inelastic and rigid. After every step a joint past a stop is put
  // back on it and an impulse through the joint-space inertia stops its motion into the stop
  // (Simulation; see docs/model-format.md#limits)
  std::optional<double> lower, upper;
  std::optional<double> effort;    // > 0: controller forces are clamped to [-effort, effort] (N m or N)
  std::optional<double> velocity;  // > 0: recorded and shown, not enforced (rad/s or m/s)
  bool empty() const { return !lower && !upper && !effort && !velocity; }
  bool operator==(const JointLimits& o) const {
    return lower == o.lower && upper == o.upper && effort == o.effort && velocity == o.velocity;
  }
  bool operator!=(const JointLimits& o) const { return !(*this == o); }
};

/// One body and the joint that connects it to its parent.
struct BodySpec {
  std::string name;
  int parent = -1;  // index into ModelSpec::bodies; -1 is the fixed base
  Joint joint;
  // joint placement Xtree = rot(rotation) * xlt(translation), from parent coordinates to the
  // joint's predecessor frame: rotation maps parent coordinates to joint-frame coordinates and
  // translation is the joint frame's origin in parent coordinates (m)
  Mat3 rotation = Mat3::Identity();
  Vec3 translation = Vec3::Zero();
  InertiaSpec inertia;
  double q0 = 0.0;   // initial joint position (rad or m); unused by a free joint
  double qd0 = 0.0;  // initial joint velocity (rad/s or m/s); unused by a free joint
  // initial state of a free joint: origin of the body in the joint frame (m), orientation of
  // the body in the joint frame as a quaternion [w x y z] (need not be normalised; compile()
  // normalises it), and body-coordinate spatial velocity [wx wy wz vx vy vz] (rad/s, m/s)
  Vec3 freePosition = Vec3::Zero();
  Eigen::Vector4d freeOrientation = Eigen::Vector4d(1, 0, 0, 0);
  Vec6 freeVelocity = Vec6::Zero();
  nlohmann::json appearance = nlohmann::json::array();  // drawing instructions, body coords
  ControlSpec control;  // the joint's controller (none: passive)
  // viscous joint damping: the joint force -damping * qd (N m s/rad or N s/m, >= 0); not on a
  // free joint. It acts with the controllers (addControlForces) and dissipates energy.
  double damping = 0.0;
  // Coulomb joint friction (N m or N, >= 0; not on a free joint): a joint force of magnitude up
  // to `friction` that holds the joint at rest and opposes its motion, applied as an impulse
  // after every step with the stops (Simulation)
  double friction = 0.0;
  // armature (kg m^2 or kg, >= 0; not on a free joint): an inertia the joint's own motion adds,
  // as a motor's rotor behind a gearbox has (MJCF's joint armature): H(i, i) += armature, and
  // its kinetic energy 1/2 armature qd^2 counts with the bodies'
  double armature = 0.0;
  // joint spring (MJCF's joint stiffness and springref): the joint force -stiffness (q -
  // springRef) on a hinge or slide (N m/rad or N/m, >= 0); a ball joint turns back towards its
  // initial orientation with the torque -stiffness * (its rotation from there as axis * angle),
  // a free joint also pulls its origin back to its initial position. Its energy 1/2 stiffness
  // d^2 counts as potential energy.
  double stiffness = 0.0;
  double springRef = 0.0;  // rad or m (hinge and slide)
  JointLimits limits;  // not on a free joint
  // the soft model (PhysicsSpec::Soft): the limit rows' and friction row's parameters (unset:
  // PhysicsSpec::soft) and the distance from a limit at which its row starts to act (m or rad, >= 0)
  std::optional<SoftParams> limitSoft, frictionSoft;
  double margin = 0.0;
};

/// Camera of spatial_v2's showmotion (every field optional; unset fields take the viewer's
/// defaults: fixed camera, trackpoint 0, direction [0 -1 0.8], up [0 0 1], zoom 1, no locus).
struct CameraSpec {
  int body = -1;                       // tracked body (index), -1 = fixed camera
  std::optional<Vec3> trackpoint;      // point in the tracked body to follow (m)
  std::optional<Vec3> direction;       // from the scene towards the camera
  std::optional<Vec3> up;              // up direction; defines the horizontal plane
  std::optional<double> zoom;          // > 0, relative to the default framing
  std::optional<Vec2> locus;           // window position in [-1, 1]^2 of the trackpoint
  bool empty() const {
    return body < 0 && !trackpoint && !direction && !up && !zoom && !locus;
  }
};

/// A constraint on a kinematic tree (closed loops and gearing; see docs/model-format.md).
struct ConstraintSpec {
  enum class Type { Coupling, Loop };
  Type type = Type::Coupling;
  std::string name;  // optional, for messages and plots
  // coupling: q[joint] = ratio * q[master] + offset
  int joint = -1, master = -1;  // body indices
  double ratio = 1.0, offset = 0.0;
  // loop: point `pointA` of body `bodyA` coincides with `pointB` of `bodyB` (-1 = base); with
  // `align`, axis `axisA` of body A stays parallel to `axisB` of body B
  int bodyA = -1, bodyB = -1;
  Vec3 pointA = Vec3::Zero(), pointB = Vec3::Zero();
  bool align = false;
  Vec3 axisA = Vec3::UnitZ(), axisB = Vec3::UnitZ();
};

/// A ground-contact point fixed in a body, or a sphere (radius > 0) centred there: the sphere
/// touches the ground with its lowest point, which rolls (URDF collision spheres, feet).
struct ContactPointSpec {
  int body = 0;             // index into ModelSpec::bodies
  Vec3 point = Vec3::Zero();  // body coordinates, m
  double radius = 0.0;      // m, >= 0
};

/// A collision geom of the soft model's body-body contact (MuJoCo's <geom>, "Modeling" chapter,
/// "Contact"): a primitive shape fixed in a body (or the base, where it is static) that collides
/// with other bodies' geoms as MuJoCo 2.2.2 computes it (collision.h). Sizes are MuJoCo's half
/// sizes (m): sphere (radius), capsule (radius, half length of its segment along z), cylinder
/// (radius, half height along z), ellipsoid (the three semi-axes), box (the three half edges);
/// a plane is the infinite plane z = 0 of its frame, its normal z (size only draws it).
/// Two geoms touch when (contype1 & conaffinity2) || (contype2 & conaffinity1), they are on
/// different bodies and neither body is the other's parent (PhysicsSpec::filterParent). Their
/// contact takes the parameters of the geom with the higher priority, or with equal priorities
/// the larger condim and frictions, and solref and solimp mixed by solmix (MuJoCo's rules).
struct GeomSpec {
  // MuJoCo's order of geom types, which orders a pair's two geoms
  enum class Type { Plane, Sphere, Capsule, Ellipsoid, Cylinder, Box, Mesh };
  std::string name;  // may be empty: named "BODY#K" in reports (its K-th geom, from 1)
  int body = -1;     // index into ModelSpec::bodies, -1 = the base (static)
  Type type = Type::Sphere;
  Vec3 size = Vec3::Zero();  // half sizes (m), as above
  Vec3 position = Vec3::Zero();           // its centre in body coordinates (m)
  Mat3 rotation = Mat3::Identity();       // its axes in body coordinates (the columns)
  int contype = 1, conaffinity = 1;       // collision bitmasks (>= 0)
  int condim = 3;                         // 1 frictionless, 3 sliding, 4 + torsional, 6 + rolling
  int priority = 0;                       // the higher one's parameters win
  std::array<double, 3> friction = {1.0, 0.005, 0.0001};  // sliding, torsional (m), rolling (m) (>= 0)
  double solmix = 1.0;                    // weight of its solref and solimp (>= 0)
  double margin = 0.0, gap = 0.0;         // m: contacts exist within margin and act within margin - gap
  SoftParams soft;                        // solref, solimp (MuJoCo's defaults)
  // a mesh collides as its convex hull, as in MuJoCo: the hull's vertices in geom coordinates
  // (m) and its triangles (indices into vertices, wound outwards); other types leave them empty
  std::vector<Vec3> vertices;
  std::vector<std::array<int, 3>> faces;
  bool operator==(const GeomSpec& o) const {
    return name == o.name && body == o.body && type == o.type && size == o.size && position == o.position &&
           rotation == o.rotation && contype == o.contype && conaffinity == o.conaffinity && condim == o.condim &&
           priority == o.priority && friction == o.friction && solmix == o.solmix && margin == o.margin &&
           gap == o.gap && soft == o.soft && vertices == o.vertices && faces == o.faces;
  }
  bool operator!=(const GeomSpec& o) const { return !(*this == o); }
};
/// "plane", "sphere", "capsule", "ellipsoid", "cylinder", "box" or "mesh"; parseGeomType
/// returns false for anything else.
const char* geomTypeName(GeomSpec::Type type);
bool parseGeomType(const std::string& name, GeomSpec::Type& out);
/// How many of GeomSpec::size a type uses: a plane 0 (its size only draws it) and a mesh 0 (its
/// vertices are its shape), a sphere 1, a capsule and a cylinder 2, an ellipsoid and a box 3.
int geomSizeCount(GeomSpec::Type type);

/// An explicit contact pair (MuJoCo's <contact><pair>): geoms geom1 and geom2 (indices into
/// ModelSpec::geoms) collide with these parameters whatever their bitmasks, bodies and
/// excludes say. 2.2.2's defaults: a pair does not take its geoms' friction or margin.
struct ContactPairSpec {
  std::string name;
  int geom1 = -1, geom2 = -1;
  int condim = 3;
  std::array<double, 5> friction = {1.0, 1.0, 0.005, 0.0001, 0.0001};  // tangent 1, 2, torsional, rolling 1, 2
  double margin = 0.0, gap = 0.0;
  SoftParams soft;
  bool operator==(const ContactPairSpec& o) const {
    return name == o.name && geom1 == o.geom1 && geom2 == o.geom2 && condim == o.condim && friction == o.friction &&
           margin == o.margin && gap == o.gap && soft == o.soft;
  }
};

/// Bodies whose geoms never collide with each other (MuJoCo's <contact><exclude>; -1 = the base).
struct ContactExcludeSpec {
  std::string name;
  int body1 = -1, body2 = -1;
  bool operator==(const ContactExcludeSpec& o) const {
    return name == o.name && body1 == o.body1 && body2 == o.body2;
  }
};

/// A site: a named point of a body (or of the base), drawn as a small sphere that the app
/// shows or hides (View > Sites). MuJoCo's `<site>`; what actuators and tendons attach to.
struct SiteSpec {
  std::string name;              // may be empty
  int body = -1;                 // index into ModelSpec::bodies, -1 = the base
  Vec3 position = Vec3::Zero();  // body coordinates, m
  // the site's frame: its axes in body coordinates (the columns; a proper rotation). Site
  // transmissions apply their wrench along these axes; a slider-crank slides along z.
  Mat3 rotation = Mat3::Identity();
  double size = 0.005;           // the drawn sphere's radius, m (> 0)
  Vec3 colour = Vec3::Constant(0.5);  // drawn colour, each in [0, 1]
  double opacity = 1.0;          // [0, 1]
  bool operator==(const SiteSpec& o) const {
    return name == o.name && body == o.body && position == o.position && rotation == o.rotation && size == o.size &&
           colour == o.colour && opacity == o.opacity;
  }
};

/// A tendon (MuJoCo's <tendon>, "Modeling" chapter): a length L(q) with moment arms dL/dq.
/// A fixed tendon is a linear combination of joint positions, L = sum coef_k q_k; a spatial
/// tendon is a path through sites, wrapping around spheres and cylinders between two sites and
/// split by pulleys (each branch after a pulley counts divided by its divisor), as MuJoCo 2.2.2
/// computes it (mj_tendon, mju_wrap). A spring (stiffness, springLength) and a damper act
/// along it; range and frictionloss are read and kept for the constraint solver.
struct TendonSpec {
  struct Element {
    enum class Kind { Joint, Site, Sphere, Cylinder, Pulley };
    Kind kind = Kind::Site;
    int index = -1;     // Joint: the body whose joint it is; Site: a site index
    double coef = 1.0;  // Joint: the coefficient (m/rad or m/m); Pulley: the divisor (> 0)
    // Sphere, Cylinder: the wrapping shape, fixed in body `body` (-1: the base) at `position`
    // with axes `rotation` (a cylinder's axis is its z), radius `radius` (m); `sideSite` (a site
    // index, -1: none) picks the side the tendon passes on
    std::string name;  // the shape's name (MJCF's geom), for messages and files
    int body = -1;
    Vec3 position = Vec3::Zero();
    Mat3 rotation = Mat3::Identity();
    double radius = 0.0;
    int sideSite = -1;
    bool operator==(const Element& o) const {
      return kind == o.kind && index == o.index && coef == o.coef && name == o.name && body == o.body &&
             position == o.position && rotation == o.rotation && radius == o.radius && sideSite == o.sideSite;
    }
  };
  std::string name;
  std::vector<Element> path;  // all Joint (fixed), or Site/Sphere/Cylinder/Pulley (spatial)
  double stiffness = 0.0;     // N/m, >= 0: the force -stiffness (L - springLength) along it
  double damping = 0.0;       // N s/m, >= 0: the force -damping dL/dt
  // the spring's rest length (m); unset: the tendon's length at the spring pose (every hinge
  // and slide at its springRef, ball and free joints at their initial pose), as MuJoCo's -1
  std::optional<double> springLength;
  std::optional<std::array<double, 2>> range;  // length limits (m): kept, enforced by the constraint solver
  double frictionloss = 0.0;                   // N: kept, enforced by the constraint solver
  // the soft model's parameters of its limit and friction rows (unset: PhysicsSpec::soft) and
  // the limit's margin (m, >= 0)
  std::optional<SoftParams> limitSoft, frictionSoft;
  double margin = 0.0;
  double width = 0.003;                        // drawn width (m)
  Vec3 colour = Vec3::Constant(0.5);
  bool spatial() const { return !path.empty() && path.front().kind != Element::Kind::Joint; }
  bool operator==(const TendonSpec& o) const {
    return name == o.name && path == o.path && stiffness == o.stiffness && damping == o.damping &&
           springLength == o.springLength && range == o.range && frictionloss == o.frictionloss && width == o.width &&
           colour == o.colour && limitSoft == o.limitSoft && frictionSoft == o.frictionSoft && margin == o.margin;
  }
};

/// An actuator (MuJoCo's <actuator>, "Computation" chapter): a scalar force through a
/// transmission, from a control input ctrl and, with dynamics, an activation state act:
///   force = gain * (dynamics none ? ctrl : act) + bias,  clamped to forceRange,
/// gain and bias from gainType/biasType with their parameters (affine: prm[0] + prm[1] length
/// + prm[2] velocity; muscle: MuJoCo's force-length-velocity curves, prm = range[2], force,
/// scale, lmin, lmax, vmax, fpmax, fvmax), ctrl clamped to ctrlRange, act integrated with
/// (integrator) dact/dt = ctrl, (filter) (ctrl - act) / dynPrm[0], (muscle) MuJoCo's
/// activation dynamics, and clamped to actRange. The transmission gives the actuator's length
/// and its moment arms (the joint forces of a unit force): a joint (hinge or slide: length
/// gear[0] q; ball: gear[0..2] a torque in the joint frame, in the parent's with
/// jointInParent; free: gear[0..2] a force in world axes, gear[3..5] a torque in body axes),
/// a tendon (length gear[0] L), a slider-crank (crank site `target`, slider site `reference`
/// sliding along its z, rod `crankLength`), or a site (the wrench gear in the site's axes;
/// with a reference site, the site's displacement from it). MJCF's shortcuts (motor,
/// position, ...) are parameter sets of this one form.
struct ActuatorSpec {
  enum class Transmission { Joint, JointInParent, Tendon, SliderCrank, Site };
  enum class Dynamics { None, Integrator, Filter, Muscle };
  enum class Gain { Fixed, Affine, Muscle };
  enum class Bias { None, Affine, Muscle };
  std::string name;
  Transmission transmission = Transmission::Joint;
  int target = -1;     // Joint: a body (its joint); Tendon: a tendon; SliderCrank, Site: a site
  int reference = -1;  // SliderCrank: the slider site; Site: the reference site (-1: none)
  double crankLength = 0.0;  // SliderCrank: the rod's length (m, > 0)
  std::array<double, 6> gear = {1, 0, 0, 0, 0, 0};
  Dynamics dynamics = Dynamics::None;
  Gain gain = Gain::Fixed;
  Bias bias = Bias::None;
  std::array<double, 10> dynPrm = {1, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  std::array<double, 10> gainPrm = {1, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  std::array<double, 10> biasPrm = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  // ranges (min < max); unset: not limited
  std::optional<std::array<double, 2>> ctrlRange, forceRange, actRange;
  // the muscle's length range (m or rad); unset: the joint's or tendon's limits
  std::optional<std::array<double, 2>> lengthRange;
  // the MJCF element it was written as ("motor", "position", "muscle", ...; "general" if any
  // other): what the app shows and the JSON writer's form
  std::string shortcut = "general";
  // the control a simulation starts with (MJCF: 0); Add Servos sets it to the pose to hold
  double ctrl0 = 0.0;
  bool operator==(const ActuatorSpec& o) const {
    return name == o.name && transmission == o.transmission && target == o.target && reference == o.reference &&
           crankLength == o.crankLength && gear == o.gear && dynamics == o.dynamics && gain == o.gain &&
           bias == o.bias && dynPrm == o.dynPrm && gainPrm == o.gainPrm && biasPrm == o.biasPrm &&
           ctrlRange == o.ctrlRange && forceRange == o.forceRange && actRange == o.actRange &&
           lengthRange == o.lengthRange && shortcut == o.shortcut && ctrl0 == o.ctrl0;
  }
};

/// The compliant ground that contact points touch (spatial_v2 gcontact's K, D and mu; see
/// contact.h). The defaults hold a few kilograms per point with about a millimetre of
/// penetration and are stable with 1 ms steps.
struct GroundSpec {
  double stiffness = 1e6;  // K, N/m^1.5: normal force K (-z)^1.5 at depth -z
  double damping = 2000;   // D, N s/m^1.5: damping force D sqrt(-z) (-zdot)
  double friction = 0.5;   // mu, Coulomb friction coefficient (0: frictionless)
  bool operator==(const GroundSpec& o) const {
    return stiffness == o.stiffness && damping == o.damping && friction == o.friction;
  }
  bool operator!=(const GroundSpec& o) const { return !(*this == o); }
};

/// The editable description of a kinematic tree.
/// A named state of the mechanism kept with the model (the app's Keyframes list; showmotion
/// users mark and return to moments): its time (s) and the joint positions q and velocities qd
/// in the compiled model's order (nq and nv entries; a free joint: position x y z and
/// quaternion w x y z, then body-coordinate spatial velocity [wx wy wz vx vy vz]).
struct KeyframeSpec {
  std::string name;
  double time = 0.0;
  Eigen::VectorXd q, qd;
  // the actuators' controls then (empty: zero; else one per actuator) and activations (empty:
  // zero; else one per actuator with dynamics, in order)
  Eigen::VectorXd ctrl, act;
  bool operator==(const KeyframeSpec& o) const {
    return name == o.name && time == o.time && q.size() == o.q.size() && qd.size() == o.qd.size() &&
           q == o.q && qd == o.qd && ctrl.size() == o.ctrl.size() && ctrl == o.ctrl && act.size() == o.act.size() &&
           act == o.act;
  }
};

struct ModelSpec {
  std::string name;
  std::string description;
  Arithmetic arithmetic = Arithmetic::Spatial;
  std::vector<BodySpec> bodies;
  // gravitational acceleration in base coordinates (m/s^2); planar models use x and y.
  // Unset means spatial_v2's default: [0 0 -9.81] spatial, [0 0] planar.
  std::optional<Vec3> gravity;
  std::vector<ContactPointSpec> contacts;
  GroundSpec ground;  // what the contact points touch
  std::vector<SiteSpec> sites;  // named points, drawn on request
  std::vector<TendonSpec> tendons;
  std::vector<ActuatorSpec> actuators;
  std::vector<ConstraintSpec> constraints;
  std::vector<EqualitySpec> equalities;  // soft equality constraints (physics Soft only)
  // body-body contact (physics Soft only; a model has these or `contacts`, not both)
  std::vector<GeomSpec> geoms;
  std::vector<ContactPairSpec> contactPairs;
  std::vector<ContactExcludeSpec> contactExcludes;
  PhysicsSpec physics;                   // how limits, friction and equalities are enforced
  std::vector<ExternalForceSpec> forces;  // constant external forces
  SimulationSpec simulation;              // default integrator settings
  nlohmann::json baseAppearance = nlohmann::json::array();  // drawing instructions, base coords
  CameraSpec camera;
  std::vector<KeyframeSpec> keyframes;  // compile() checks their names, numbers and sizes

  /// The gravity in effect (m/s^2, base coordinates).
  Vec3 effectiveGravity() const {
    if (gravity) return *gravity;
    return arithmetic == Arithmetic::Spatial ? Vec3(0, 0, -9.81) : Vec3::Zero();
  }
  /// Index of the body with this name, or -1.
  int findBody(const std::string& bodyName) const {
    for (std::size_t i = 0; i < bodies.size(); ++i)
      if (bodies[i].name == bodyName) return static_cast<int>(i);
    return -1;
  }
};

}  // namespace art
