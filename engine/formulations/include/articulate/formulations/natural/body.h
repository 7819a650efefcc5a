#pragma once
// Rigid bodies in natural coordinates (Garcia de Jalon; Rible's formulation): a body is
// described by points and direction vectors in world coordinates instead of angles, so that a
// local point maps to a world position linearly, r = C(c) q, with a constant Jacobian C(c), and
// the mass matrix is constant.
//
// Every body kind is a constant linear map Y from its own coordinates q (what the system
// stores) to the canonical coordinates x = [r; e_1; ...; e_k] = Y q: the base point r (the
// local origin) and the k local axes e_a in world coordinates (d = 2 or 3 components each).
//  - point + vectors kinds store x itself (bars in 2D store only e_1: e_2 = R90 e_1 is linear);
//  - two-point kinds store the second point r_j = r + L e_1 instead of e_1 (L the length).
// A local point c (k components, m) is at r + sum_a c_a e_a; the intrinsic constraints keep
// the axes orthonormal, e_a . e_b - delta_ab = 0, one row for each pair (a, b) that the kind
// does not satisfy identically.
//
//   kind              d  k  q                     coordinates  intrinsic  DoF
//   bar2d             2  2  [r; e1]               4            1          3
//   bar2d_2p          2  2  [r; rj]               4            1          3
//   rigid2d           2  2  [r; e1; e2]           6            3          3
//   rigid2d_2p        2  2  [r; rj; e2]           6            3          3
//   bar3d             3  1  [r; e1]               6            1          5
//   bar3d_2p          3  1  [r; rj]               6            1          5
//   rigid3d           3  3  [r; e1; e2; e3]       12           6          6
//   rigid3d_2p        3  3  [r; rj; e2; e3]       12           6          6
// A 3D bar has no rotation about its own axis (no inertia about it): its local points lie on
// the axis (k = 1).
//
// The mass matrix is M = Y' (Mbar kron I_d) Y with Mbar = [m, m c'; m c, S + m c c'] the
// (k+1) x (k+1) moments of the mass about the base point in local axes: c the mass centre
// and S the second moment of mass about the mass centre, from the inertia tensor I about the
// mass centre: S = tr(I)/2 I - I in 3D, S = I/2 I_2 (I the polar moment) in 2D, S = I (the
// moment about an axis through the mass centre across the bar) for a 3D bar.

#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

namespace art::natural {

enum class BodyKind {
  Bar2D,
  Bar2DTwoPoints,
  Rigid2D,
  Rigid2DTwoPoints,
  Bar3D,
  Bar3DTwoPoints,
  Rigid3D,
  Rigid3DTwoPoints
};

/// The file name of a kind: "bar2d", "bar2d_2p", "rigid2d", "rigid2d_2p", "bar3d", "bar3d_2p",
/// "rigid3d" or "rigid3d_2p".
const char* bodyKindName(BodyKind kind);
/// Parses a kind's file name; returns false for anything else.
bool parseBodyKind(const std::string& name, BodyKind& out);
/// Space dimension d of a kind (2 or 3).
int kindDimension(BodyKind kind);
/// Number of local axes k (local points have k components).
int kindAxes(BodyKind kind);
/// Whether the kind stores a second point instead of its first axis.
bool kindHasTwoPoints(BodyKind kind);
/// Whether the kind is a bar (its inertia is one number).
bool kindIsBar(BodyKind kind);

/// The editable description of one body at its reference (initial) configuration. 2D kinds
/// use the x and y components of vectors and the top-left 2x2 block of matrices only.
/// Units: m, kg, kg m^2, m/s, rad/s; vectors in world coordinates unless marked local.
struct BodySpec {
  std::string name;
  BodyKind kind = BodyKind::Rigid3D;
  Eigen::Vector3d origin = Eigen::Vector3d::Zero();  // base point r in world (m)
  // local axes in world as columns (a proper rotation); bars: column 0 is the bar's axis
  Eigen::Matrix3d orientation = Eigen::Matrix3d::Identity();
  double length = 1.0;  // bars and two-point kinds: distance from r to the second point (m)
  // what a file gave instead of the orientation and length (bars: the other end, m; 2D
  // non-bars: the angle, rad), written back as given while the orientation and length still
  // agree with it, so that saving a loaded structure gives the file it was, digit for digit
  // (recomputing them from the orientation would move the last digit on every save)
  std::optional<Eigen::Vector3d> givenEnd;
  std::optional<double> givenAngle;
  double mass = 1.0;    // kg, > 0
  Eigen::Vector3d massCentre = Eigen::Vector3d::Zero();  // local, first k components (m)
  // about the mass centre in local axes (kg m^2): 3D rigid: the tensor; 2D: (0,0) is the
  // polar moment; 3D bars: (0,0) is the moment about an axis across the bar
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Identity();
  Eigen::Vector3d velocity = Eigen::Vector3d::Zero();         // of the base point, world (m/s)
  Eigen::Vector3d angularVelocity = Eigen::Vector3d::Zero();  // world (rad/s); 2D: z only
  // drawing instructions (appearance.h) in the body frame (StructureSystem::bodyPoses: origin
  // at the base point r, axes the local axes); none: the default look (a rod for bars, a small
  // box otherwise)
  std::optional<nlohmann::json> appearance;
};

/// One quadratic constraint row on a coordinate vector x: phi = t' x + x' H x - c, H
/// symmetric, so that d phi / d x = t' + 2 x' H and the Hessian is 2 H.
struct QuadraticRow {
  Eigen::VectorXd t;
  Eigen::MatrixXd H;
  double c = 0.0;
};

/// A body compiled from its spec: the constant maps, the mass matrix and the reference state.
class Body {
 public:
  /// Builds the maps and the mass matrix. Throws std::invalid_argument naming the body when
  /// the orientation is not a rotation, the length, mass or inertia are not positive, or the
  /// mass matrix is not positive definite.
  explicit Body(const BodySpec& spec);

  /// The spec the body was built from.
  const BodySpec& spec() const { return m_spec; }
  /// Space dimension d (2 or 3) and number of local axes k (a local point's components).
  int dimension() const { return m_d; }
  int axes() const { return m_k; }
  /// Number of coordinates of the body (its slice of the system vectors).
  int coordinates() const { return static_cast<int>(m_Y.cols()); }
  /// Canonical coordinates from the body's own: x = Y q ((d + d k) x coordinates()).
  const Eigen::MatrixXd& canonicalMap() const { return m_Y; }
  /// Constant position Jacobian C(c) of local point c (k components used, m): the world
  /// position is C(c) q (d x coordinates()). Allocates; for building, not for stepping.
  Eigen::MatrixXd pointJacobian(const Eigen::Vector3d& c) const;
  /// Constant Jacobian D(a) of a local direction a: the world direction is D(a) q.
  Eigen::MatrixXd directionJacobian(const Eigen::Vector3d& a) const;
  /// Local coordinates of a world point at the reference configuration (k components, the
  /// rest zero); `offAxis` receives the distance (m) of the point from what the body can
  /// express (nonzero only for points off a 3D bar's axis).
  Eigen::Vector3d localPoint(const Eigen::Vector3d& world, double* offAxis = nullptr) const;
  /// Local components of a world direction at the reference configuration; `offAxis` as above.
  Eigen::Vector3d localDirection(const Eigen::Vector3d& world, double* offAxis = nullptr) const;
  /// Constant mass matrix (coordinates() x coordinates(), kg, kg m, kg m^2).
  const Eigen::MatrixXd& massMatrix() const { return m_M; }
  /// Intrinsic constraint rows on q (dimensionless: e_a . e_b - delta_ab).
  const std::vector<QuadraticRow>& intrinsicRows() const { return m_rows; }
  /// Coordinates and velocities of the reference configuration and initial motion.
  const Eigen::VectorXd& referenceCoordinates() const { return m_q0; }
  const Eigen::VectorXd& referenceVelocities() const { return m_qd0; }

 private:
  BodySpec m_spec;
  int m_d = 3, m_k = 3;
  Eigen::MatrixXd m_Y, m_M;
  Eigen::VectorXd m_q0, m_qd0;
  std::vector<QuadraticRow> m_rows;
  Eigen::MatrixXd m_E0;  // local axes at the reference, world (d x k)
};

}  // namespace art::natural
