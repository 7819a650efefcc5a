#pragma once
// One free rigid body bouncing on one plane (spec/formulations.md section B, the FortranMbdVector
// formulation): a momentum-based state (position r_b of a reference point b, unit quaternion,
// linear momentum p, angular momentum L_b about b, all in world coordinates), mass properties
// computed from a shape (box, cylinder, sphere), classical RK4 with the quaternion renormalised
// after each step, and impulsive contact with one plane: restitution for the normal impulse,
// Coulomb friction capped by mu times the normal impulse.
//
// Frames: the body frame has its origin at the shape's centre, which is the centre of mass,
// and its axes along the shape's axes (a cylinder's axis is body z), so the inertia about the
// centre of mass is diagonal in body axes. The reference point b is fixed in the body
// (reference_point, body coordinates); c = R c_b is the vector from b to the centre of mass.
// With the rotation R (body -> world) and I_c = R I_body R':
//   p = m v_c;  L_b = I_c w + c x p;  v_b = p/m + c x w;  w = I_c^-1 (L_b - c x p)
//   r_b' = v_b;  q' = 1/2 (0, w) (x) q;  p' = m g;  L_b' = c x m g - v_b x p
// The reference point is a choice of state variables only: the motion does not depend on it.
// With b at the centre of mass (c = 0) the torque-free L_b stays exactly constant, and RK4's
// attitude stages use it in body axes instead, Euler's equations L' = L x w, w = I_body^-1 L,
// q' = 1/2 q (x) (0, w) (the same ODE in other coordinates, so the same motion within RK4's
// error, (h |w|)^5 a step: 1e-25 in the reference workload), which needs no rotation per stage.
//
// Contact with the plane (origin o, unit normal n) is resolved after every step. Candidate
// points are the shape's points nearest the plane: the sphere's centre - radius n; the box's 8
// corners; for a cylinder, four rim points on each end cap, the rim point nearest the plane
// and the points 90, 180 and 270 degrees around the rim from it (so that a cylinder lying on its
// side touches at both ends and one standing on a cap is supported by a square of rim points).
// Every candidate at or below the plane takes part (and one within a step's resting travel
// above it that approaches slowly, which may close the gap). The contact is solved in body
// coordinates, where the inertia is diagonal: a single point directly, several by projected
// block Gauss-Seidel passes. They apply accumulated normal impulses (>= 0) that make each
// approaching point leave at e times its approach speed (approach speeds below the speed
// gravity adds in two steps, or that would rebound less than 1 micrometre, count as resting:
// they are cancelled without rebound; an impact that this rule would make gain energy is
// resolved without restitution; resting contact starts from the last step's impulses) and
// friction impulses against the slip velocity, capped by mu times the point's normal impulse,
// and (optionally) rolling resistance: an angular impulse against the rotation capped by rho
// times the normal impulse. Then the body is moved along n so that its deepest point lies on
// the plane, so penetration never accumulates.
//
// No allocation after construction; steps take fixed-size Eigen values only.

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "articulate/dynamics/perturbation.h"
#include "articulate/spatial/spatial.h"

namespace art {

/// The shape of a rigid body, centred on the body origin with its axes along the body axes.
struct ShapeSpec {
  enum class Type { Box, Cylinder, Sphere };
  Type type = Type::Sphere;
  Vec3 size = Vec3::Zero();  // box: edge lengths along body x, y, z (m)
  double radius = 0.0;       // cylinder, sphere: radius (m)
  double length = 0.0;       // cylinder: length along body z (m)
};

/// The file name of a shape type: "box", "cylinder" or "sphere".
const char* shapeTypeName(ShapeSpec::Type type);
/// Parses "box", "cylinder" or "sphere"; returns false for anything else.
bool parseShapeType(const std::string& name, ShapeSpec::Type& out);

/// The shape's volume (m^3): a b c, pi R^2 L, 4/3 pi R^3. Does not check the dimensions.
double shapeVolume(const ShapeSpec& shape);

/// The principal moments of inertia about the centre per unit mass (m^2, body x, y, z):
/// box (b^2 + c^2, a^2 + c^2, a^2 + b^2) / 12; cylinder ((3R^2 + L^2)/12, same, R^2/2);
/// sphere 2 R^2 / 5 on every axis. Does not check the dimensions.
Vec3 shapeUnitInertia(const ShapeSpec& shape);

/// Drawing instructions (docs/model-format.md, Appearance) that draw the shape in body
/// coordinates in spatial_v2's colour of body 1: a box, a cylinder (48 facets) or a sphere.
nlohmann::json shapeAppearance(const ShapeSpec& shape);

/// The contact plane: the half-space above it (along `normal`) is free space.
struct FloorSpec {
  Vec3 origin = Vec3::Zero();   // a point of the plane, world coordinates (m)
  Vec3 normal = Vec3::UnitZ();  // nonzero, need not be unit; points out of the floor
  double restitution = 0.0;     // coefficient of restitution, in [0, 1]
  double friction = 0.0;        // Coulomb friction coefficient mu, >= 0
  // rolling resistance rho (m, >= 0): each contact point resists the body's rotation with an
  // angular impulse of at most rho times its normal impulse (0: an ideal rigid contact, on
  // which rolling, and a cylinder's wobble on its rim, never stop)
  double rollingResistance = 0.0;
};

/// The editable description of one free rigid body (a "rigid_body" model document).
struct RigidBodySpec {
  std::string name;
  std::string description;
  ShapeSpec shape;
  // exactly one of mass (kg, > 0) and density (kg/m^3, > 0) is set; the form given is kept
  std::optional<double> mass;
  std::optional<double> density;
  Vec3 referencePoint = Vec3::Zero();  // b, body coordinates (m); the state's reference point
  // initial state, world coordinates
  Vec3 position = Vec3::Zero();         // of the centre of mass (m)
  Mat3 rotation = Mat3::Identity();     // columns: the body axes (body -> world)
  Vec3 velocity = Vec3::Zero();         // of the centre of mass (m/s)
  Vec3 angularVelocity = Vec3::Zero();  // rad/s
  // gravitational acceleration (m/s^2, world); unset means [0, 0, -9.81]
  std::optional<Vec3> gravity;
  std::optional<FloorSpec> floor;  // unset: no contact plane (free flight)
  // drawing instructions in body coordinates; unset means shapeAppearance(shape)
  std::optional<nlohmann::json> appearance;
  nlohmann::json baseAppearance = nlohmann::json::array();  // drawn fixed in the world

  /// The mass in effect (kg): `mass`, or density times the shape's volume (0 if neither).
  double effectiveMass() const;
  /// The gravity in effect (m/s^2, world).
  Vec3 effectiveGravity() const { return gravity ? *gravity : Vec3(0, 0, -9.81); }
  /// The drawing instructions in effect (body coordinates).
  nlohmann::json effectiveAppearance() const {
    return appearance ? *appearance : shapeAppearance(shape);
  }
};

/// The state integrated by RigidBody (world coordinates).
struct RigidBodyState {
  Vec3 position = Vec3::Zero();                                     // r_b, the reference point (m)
  Eigen::Quaterniond orientation = Eigen::Quaterniond::Identity();  // body -> world, unit
  Vec3 momentum = Vec3::Zero();                                     // p = m v_c (kg m/s)
  Vec3 angularMomentum = Vec3::Zero();  // L_b, about the reference point (kg m^2/s)
};

/// Energy of a rigid body (J): kinetic 1/2 m v_c^2 + 1/2 w' I_c w and potential -m g . r_c.
struct RigidBodyEnergy {
  double kinetic = 0.0;
  double potential = 0.0;
  /// Kinetic plus potential energy (J).
  double total() const { return kinetic + potential; }
};

/// One free rigid body with its constants (mass properties, gravity, floor) and its state.
/// Copyable (a copy is a snapshot); not thread-safe.
class RigidBody {
 public:
  /// Checks the spec and starts at its initial state at t = 0. Throws ModelError (model.h)
  /// naming the field ("shape.radius", "mass", "floor.normal", ...) for a non-finite number, a
  /// non-positive dimension, mass or density, both or neither of mass and density, a rotation
  /// that is not proper, a zero floor normal, a restitution outside [0, 1] or a negative
  /// friction coefficient.
  explicit RigidBody(const RigidBodySpec& spec);

  /// One RK4 step of h seconds (h > 0, not checked), the quaternion renormalised, then the
  /// contact with the floor resolved (impulses, then the deepest point moved onto the plane).
  /// Allocates nothing.
  void step(double h);
  /// Steps of h seconds up to time t (s), the last one shortened to land on t exactly; does
  /// nothing if t is not after time(). Throws std::invalid_argument if h is not > 0.
  void advanceTo(double t, double h);

  /// Sets the time (s) and the state; the orientation is normalised. Throws
  /// std::invalid_argument if the quaternion is zero or a value is not finite.
  void setState(double t, const RigidBodyState& state);
  /// Sets the state from the centre of mass's position (m) and velocity (m/s), the
  /// orientation (body -> world, normalised) and the angular velocity (rad/s), all in world
  /// coordinates, at time t (s). Throws as setState.
  void setMotion(double t, const Vec3& comPosition, const Eigen::Quaterniond& orientation,
                 const Vec3& comVelocity, const Vec3& angularVelocity);

  /// Sets or (nullopt) removes a perturbation spring (perturbation.h; `point` in body
  /// coordinates, whose origin is the centre of mass; `body` ignored), felt at every RK4 stage
  /// from the next step on. Steps with one take the general RK4 path. Throws
  /// std::invalid_argument for non-finite or negative numbers.
  void setPerturbation(const std::optional<Perturbation>& perturbation);
  const std::optional<Perturbation>& perturbation() const { return m_perturbation; }
  /// The perturbation's load at the current state (world coordinates), if one acts.
  std::optional<PerturbationLoad> perturbationLoad() const;

  /// Simulated time (s).
  double time() const { return m_t; }
  /// The integrated state (world coordinates; see RigidBodyState).
  const RigidBodyState& state() const { return m_s; }
  /// Steps taken since construction.
  long stepsTaken() const { return m_steps; }

  // constants
  /// Mass (kg).
  double mass() const { return m_mass; }
  /// Principal moments of inertia about the centre of mass, body x, y, z (kg m^2).
  const Vec3& principalInertia() const { return m_inertia; }
  /// The reference point b in body coordinates (m; the origin is the centre of mass).
  const Vec3& referencePoint() const { return m_refBody; }
  /// Gravitational acceleration, world (m/s^2).
  const Vec3& gravity() const { return m_gravity; }
  /// The shape (body coordinates, m).
  const ShapeSpec& shape() const { return m_shape; }
  /// Whether there is a contact plane.
  bool hasFloor() const { return m_hasFloor; }
  /// The floor's unit normal, world (pointing out of the floor).
  const Vec3& floorNormal() const { return m_normal; }
  /// A point of the floor plane, world (m).
  const Vec3& floorOrigin() const { return m_origin; }

  // pose and motion at the current state (world coordinates)
  /// Rotation matrix body -> world (its columns are the body axes).
  Mat3 rotation() const { return m_s.orientation.toRotationMatrix(); }
  /// Position of the centre of mass (the shape's centre), m.
  Vec3 comPosition() const;
  /// Position of the reference point b, m.
  const Vec3& referencePosition() const { return m_s.position; }
  /// Velocity of the centre of mass, m/s.
  Vec3 comVelocity() const { return m_s.momentum / m_mass; }
  /// Angular velocity, rad/s.
  Vec3 angularVelocity() const;
  /// Linear momentum p, kg m/s.
  const Vec3& momentum() const { return m_s.momentum; }
  /// Angular momentum about the centre of mass, L_c = L_b - c x p (kg m^2/s).
  Vec3 angularMomentumAboutCom() const;
  /// Angular momentum about a point fixed in the world (m), kg m^2/s.
  Vec3 angularMomentumAbout(const Vec3& point) const;
  /// Kinetic and potential energy (J); the potential is zero at the world origin.
  RigidBodyEnergy energy() const;
  /// Signed distance (m) of the shape's point nearest the floor from the floor plane
  /// (negative: below it); +infinity without a floor.
  double floorClearance() const;
  /// How far the deepest point was below the plane at the end of the last step's integration,
  /// before the contact pushed it out (m, >= 0).
  double lastPenetration() const { return m_lastPenetration; }
  /// Number of contact points that took part in the last step's contact (0: none).
  int lastContactPoints() const { return m_lastContacts; }
  /// The contact margin of a step of h seconds (m): the shape's points up to this height above
  /// the floor take part in the step's contact (resting contact), the distance a point moves in
  /// the step at the resting speed max(2 |g . n| h, the speed that rebounds 1 micrometre). 0
  /// without gravity into the floor or without a floor.
  double contactMargin(double h) const { return restingSpeed(h) * h; }

 private:
  // time derivatives of the state; the quaternion's is qScale * dq (coefficients x, y, z, w)
  struct Rates {
    Vec3 dr, dp, dL;
    Eigen::Vector4d dq;
    double qScale;
  };
  // constants
  ShapeSpec m_shape;
  double m_mass = 0.0, m_invMass = 0.0;
  Vec3 m_inertia = Vec3::Zero(), m_invInertia = Vec3::Zero();  // body axes (kg m^2, 1/...)
  Vec3 m_refBody = Vec3::Zero();                               // b in body coordinates
  Vec3 m_comBody = Vec3::Zero();  // c_b = -b: from b to the centre of mass, body coordinates
  bool m_offset = false;          // b is not the centre of mass
  Vec3 m_gravity = Vec3::Zero(), m_weight = Vec3::Zero();  // g, m g
  bool m_hasFloor = false;
  Vec3 m_origin = Vec3::Zero(), m_normal = Vec3::UnitZ();
  double m_planeOffset = 0.0;  // n . origin
  double m_restitution = 0.0, m_friction = 0.0, m_rolling = 0.0;
  double m_gravityIntoFloor = 0.0;  // max(0, -n . g), m/s^2
  double m_reboundSpeed = 0.0;      // the approach speed that rebounds 1 micrometre at e = 1 (m/s)
  // the distance from the reference point beyond which no point of the shape lies (m), a little
  // more, so that the contact's bounding-sphere rejection never disagrees with the exact test
  double m_boundRadius = 0.0;
  // a cylinder's response K (and K^-1) at a rim point in its rim frame (body axes turned about
  // the axis so that the point lies on x; the same for every rim point, the inertia being
  // symmetric about the axis), the point (radius, 0, -length/2) [0] and (radius, 0, length/2) [1]
  std::array<Mat3, 2> m_rimK{}, m_rimKinv{};
  // the floor's normal is (0, 0, 1) exactly (a flag rather than a comparison in resolveContact,
  // which would let the compiler specialise, and so round differently, its general case)
  bool m_floorAlongZ = false;
  std::optional<Perturbation> m_perturbation;
  // state
  double m_t = 0.0;
  long m_steps = 0;
  RigidBodyState m_s;
  // the quaternion the integration continues from: the last step's RK4 result divided by the
  // norm of the quaternion it started from, not normalised (m_s.orientation is it normalised).
  // RK4 on these rates commutes with scaling the quaternion, so continuing from it gives the same
  // motion, while the normalisation stays off the step-to-step dependency chain.
  Eigen::Vector4d m_q = Eigen::Vector4d(0, 0, 0, 1);
  double m_lastPenetration = 0.0;
  int m_lastContacts = 0;
  // the last step's contact impulses by candidate number, to start resting contact from
  std::array<Vec3, 8> m_warm{};
  Vec3 m_warmTorque = Vec3::Zero();
  bool m_warmValid = false, m_warmStart = false;

  // the rates of the state at (q, p, L_b)
  void rates(const Eigen::Vector4d& q, const Vec3& p, const Vec3& L, Rates& out) const;
  // rates plus the perturbation's load, with the reference point at r
  void perturbedRates(const Vec3& r, const Eigen::Vector4d& q, const Vec3& p, const Vec3& L,
                      Rates& out) const;
  // the perturbation's load with the reference point at r, orientation q (any norm), momenta
  PerturbationLoad loadAt(const Vec3& r, const Eigen::Vector4d& q, const Vec3& p,
                          const Vec3& L) const;
  // RK4 of the general case (an offset reference point, or a perturbation)
  void rk4Offset(double h);
  void rk4Centred(double h);
  void resolveContact(double h);
  // resolveContact's candidate points and their impulses, past the quick rejections
  void resolvePoints(double h, double restingSpeed, double margin);
  // approach speeds below this are resting contact (m/s), for a step of h seconds
  double restingSpeed(double h) const {
    return std::max(2.0 * m_gravityIntoFloor * h, m_reboundSpeed);
  }
  // resolveContact's common case of a cylinder without rolling resistance, its reference point at
  // the centre, touching with one rim point, the nearest of its lower cap (rolling or wobbling on
  // its rim), solved in the rim frame; returns false, changing nothing, when another candidate is
  // within the margin
  // (floorAlongZ: the floor's normal is (0, 0, 1))
  template <bool floorAlongZ>
  bool rimContact(double h, double restingSpeed, double margin);
};

}  // namespace art
