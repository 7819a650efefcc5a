#pragma once
// Model: the immutable, compiled form of a ModelSpec that the algorithms read.

#include <stdexcept>
#include <string>
#include <vector>

#include "articulate/model/spec.h"

namespace art {

/// An invalid model description. The message gives the JSON-style path of the field, the
/// reason and the body, e.g. "bodies[2].inertia.about_com: matrix is not symmetric (body
/// 'link3')".
class ModelError : public std::runtime_error {
 public:
  ModelError(int bodyIndex, const std::string& bodyName, const std::string& field,
             const std::string& reason);
  /// An error that is not about one body (bodyIndex() is then -1).
  ModelError(const std::string& field, const std::string& reason);
  int bodyIndex() const { return m_body; }
  const std::string& field() const { return m_field; }
  const std::string& reason() const { return m_reason; }

 private:
  int m_body = -1;
  std::string m_field, m_reason;
};

/// Per-arithmetic arrays of a model (only the arrays of the model's arithmetic are filled).
template <class A>
struct TreeArrays {
  std::vector<typename A::Xform> Xtree;  // parent -> joint predecessor frame (nb)
  std::vector<typename A::Vec> S;        // joint motion subspaces (nb)
  std::vector<int> axis;                 // k when S = e_k, else -1 (nb)
  // k (0, 1, 2) when joint i is a rotation about axis k (Rx, Ry, Rz) and Xtree[i] does not
  // rotate (E exactly the identity), so that Xup[i] is an AxisTransform<k> (spatial.h); else -1
  // (always -1 for planar models) (nb)
  std::vector<int> turnAxis;
  std::vector<typename A::Mat> I;        // spatial inertias, body coordinates (nb)
  typename A::Vec aGrav = A::Vec::Zero();  // fictitious base acceleration -[0; g]
};

/// A mesh geom's convex hull as the narrow phase climbs it: its vertices (geom coordinates, m)
/// and, per vertex, the vertices it shares an edge with.
struct GeomHull {
  std::vector<Vec3> vertices;
  std::vector<std::vector<int>> neighbours;
};

/// A compiled kinematic tree. Bodies are numbered 0..nb-1; parent[i] < i, -1 is the base.
/// Joint i connects parent[i] to body i and owns the position variables q[qIndex[i] ..
/// qIndex[i] + jointNq - 1] and the velocity variables qd[vIndex[i] .. vIndex[i] + jointNv - 1]
/// (joint.h). Without free and ball joints qIndex[i] == vIndex[i] == i and nq == nv == nb.
struct Model {
  Arithmetic arithmetic = Arithmetic::Spatial;
  int nb = 0;
  std::vector<int> parent;         // (nb), -1 = base
  std::vector<Joint> joints;       // (nb)
  std::vector<std::string> names;  // (nb)
  Vec3 gravity = Vec3::Zero();     // base coordinates, m/s^2 (planar: x, y used)
  Eigen::VectorXd q0, qd0;         // initial state (nq, nv)
  std::vector<int> qIndex, vIndex; // first position / velocity variable of joint i (nb)
  std::vector<int> dofParent;      // parent of each velocity variable in the expanded tree (nv)
  std::vector<int> dofBody;        // body whose joint owns each velocity variable (nv)
  int nqTotal = 0, nvTotal = 0;    // sizes of q and of qd, qdd, tau
  bool hasQuaternions = false;     // some joint is free or ball (nq != nv)
  std::vector<ContactPointSpec> contacts;
  GroundSpec ground;                        // compliant ground of the contact points
  std::vector<ConstraintSpec> constraints;  // enforced by constraints.h
  std::vector<ControlSpec> controls;        // (nb) one per joint
  std::vector<double> damping;              // (nb) viscous joint damping (BodySpec::damping)
  bool controlled = false;                  // some joint has a controller or damping
  std::vector<JointLimits> limits;          // (nb) BodySpec::limits
  std::vector<double> friction;             // (nb) Coulomb joint friction (BodySpec::friction)
  bool stops = false;                       // some joint has a position limit or friction (Exact physics)
  Eigen::VectorXd armature;                 // (nv) per velocity variable (BodySpec::armature)
  bool hasArmature = false;                 // some joint has armature
  std::vector<ExternalForceSpec> forces;    // constant external forces
  // joint springs, tendons and actuators (actuation.h; ModelSpec's, checked)
  std::vector<double> stiffness;            // (nb) BodySpec::stiffness
  Eigen::VectorXd qSpring;                  // (nq) the springs' reference pose
  std::vector<SiteSpec> sites;
  std::vector<TendonSpec> tendons;
  std::vector<ActuatorSpec> actuators;
  std::vector<int> actIndex;                // (nu) each actuator's entry in act, -1: no dynamics
  int na = 0;                               // activation states (actuators with dynamics)
  bool springs = false;                     // some joint or tendon has stiffness
  bool tendonDamping = false;               // some tendon has damping
  // the soft constraint model (PhysicsSpec::Soft, soft_constraints.h): the settings, the
  // equalities, and every row's parameters resolved (the element's, else physics.soft;
  // physics.override replaces both). With it, limits and friction are rows, not stops.
  PhysicsSpec physics;
  bool soft = false;                        // physics.constraints == Soft
  std::vector<EqualitySpec> equalities;     // quaternions normalised
  std::vector<SoftParams> equalitySoft;     // (equalities)
  std::vector<SoftParams> limitSoft, frictionSoft;  // (nb)
  std::vector<double> limitMargin;                  // (nb)
  std::vector<SoftParams> tendonLimitSoft, tendonFrictionSoft;  // (tendons)
  std::vector<double> tendonMargin;                             // (tendons)
  // body-body contact of the soft model (collision.h): the geoms, checked, each one's bounding
  // radius about its centre (m; 0 for a plane; MuJoCo's rbound), a mesh's hull graph, the
  // explicit pairs, and the excluded body pairs (the lower index first, sorted; -1 the base)
  std::vector<GeomSpec> geoms;
  std::vector<double> geomRbound;
  std::vector<GeomHull> geomHulls;  // (geoms): empty but for meshes
  std::vector<ContactPairSpec> contactPairs;
  std::vector<std::pair<int, int>> contactExcludes;
  std::vector<std::pair<int, int>> contactPairGeoms;  // the explicit pairs' geoms, the lower first, sorted
  /// Whether the actuation layer has anything to compute (actuation.h): springs, tendons or
  /// actuators.
  bool hasActuation() const { return springs || tendonDamping || !actuators.empty() || !tendons.empty(); }
  int nu() const { return static_cast<int>(actuators.size()); }
  TreeArrays<SpatialArith> spatial;
  TreeArrays<PlanarArith> planar;

  template <class A>
  const TreeArrays<A>& arrays() const {
    if constexpr (std::is_same_v<A, SpatialArith>)
      return spatial;
    else
      return planar;
  }
  /// Number of position variables (size of q).
  int nq() const { return nqTotal; }
  /// Number of velocity variables (size of qd, qdd, tau).
  int nv() const { return nvTotal; }
  /// Number of position variables of joint i (7 free, 4 ball, else 1).
  int jointNq(int i) const { return art::jointNq(joints[i].type); }
  /// Number of velocity variables of joint i (6 free, 3 ball, else 1).
  int jointNv(int i) const { return art::jointNv(joints[i].type); }
};

/// The initial state of body b's joint in the compiled model's layout (joint.h): q gets its
/// jointNq position variables (q0, or a free joint's position and normalised quaternion, or a
/// ball joint's normalised quaternion) and qd its jointNv velocity variables (qd0, or the first
/// 6 or 3 entries of freeVelocity). Throws std::invalid_argument when the sizes do not fit.
void initialJointState(const BodySpec& b, Eigen::Ref<Eigen::VectorXd> q, Eigen::Ref<Eigen::VectorXd> qd);

/// Checks a ModelSpec and compiles it. Throws ModelError naming the body and field for: an
/// empty or duplicate name, a parent that is unknown or does not precede the body, a joint type
/// of the other arithmetic, a non-finite number, a placement rotation that is not a proper
/// rotation (or, in planar models, not about z / a translation out of the plane), an inertia
/// that is not symmetric, not positive semi-definite, has negative mass or violates the
/// triangle inequality, a contact point, constraint or external force on an unknown body, a
/// controller with negative gains or a table whose times do not increase, a ground stiffness or
/// damping that is not > 0 or a friction coefficient that is negative; and for a free joint
/// (field "joint.type") a parent other than the fixed base; and for a free or ball joint (field
/// "control") a controller, (field "initial.orientation") a zero quaternion, limits, friction or
/// a coupling constraint on it (a free joint also refuses damping and armature; a ball joint
/// takes them on each of its three velocity variables). It also refuses a model larger than
/// the limits below (kMaxBodies, kMaxDegreesOfFreedom, kMaxKeyframes; field "bodies" or
/// "keyframes") and a name with a control character (hasControlCharacter: the model's, a
/// body's, a constraint's or a keyframe's), so that every reader, which compiles what it read,
/// refuses them alike.
Model compile(const ModelSpec& spec);

/// How many of an actuator's 6 gear numbers its transmission uses: 6 for a site or a free
/// joint, 3 for a ball joint, else 1; compile() refuses a nonzero number beyond them.
int gearSize(const ModelSpec& spec, const ActuatorSpec& a);

/// The most bodies a model may have. Every reader compiles what it reads, so a file of more is
/// refused when it is read (docs/model-format.md, "Limits"): the algorithms' workspace (Data)
/// holds two nv x nv matrices, 1.6 GB at 10,000 velocity variables.
inline constexpr int kMaxBodies = 10000;
/// The most velocity variables (degrees of freedom, nv) a model may have (see kMaxBodies).
inline constexpr int kMaxDegreesOfFreedom = 10000;
/// The most keyframes a model may have.
inline constexpr int kMaxKeyframes = 10000;

/// Whether `name` holds a control character (U+0000..U+001F or U+007F), which no format's
/// name can carry through a save and a read (a NUL ends a C string, URDF's XML 1.0 has no
/// form for the others): compile refuses such names.
bool hasControlCharacter(const std::string& name);

}  // namespace art
