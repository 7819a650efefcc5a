#pragma once
// Structures in natural coordinates (formulations.md, A): bodies (body.h), joints composed from
// four basic constraints, and apparatuses (springs, dampers, cables), with a connectivity
// generated from them. Spec -> Structure (immutable, built once) -> StructureData (workspaces),
// as Model and Data for trees.
//
// Connectivity. Every body owns a contiguous slice of the system vectors q, qd, F, in body
// order (bodyOffset); joints do not share coordinates between bodies, they add constraint
// rows. Constraint rows: first the intrinsic rows of every body in body order, then the
// extrinsic rows of every joint in joint order (jointRow).
//
// Joints (between a parent "hen", possibly the ground, and a child "egg"), each row written on
// the stacked coordinates x = [q_hen; q_egg] as phi = t' x + x' H x - c, with t, H built once
// and c chosen so that the reference configuration gives phi = 0. Basic rows:
//   coincidence  (linear)     the two bodies' copies of a point, d rows (m);
//   distance     (quadratic)  |p_egg - p_hen|^2 - L^2 (m^2);
//   normal       (quadratic)  n_hen . (p_egg - p_hen), a hen direction orthogonal to the
//                             relative displacement (m);
//   orthogonal   (quadratic)  a_hen . b_egg, two directions orthogonal (dimensionless).
// Joint types (rows; a, b, c a right-handed orthonormal triad with a the joint's axis, in 2D
// a the axis and n = R90 a):
//   spherical (3D)    coincidence (3)                                         3 DoF
//   revolute          coincidence; 3D: a_h . b_e, a_h . c_e (5)  2D: (2)        1 DoF
//   prismatic         3D: b_h . d, c_h . d, a_h . b_e, a_h . c_e, b_h . c_e
//                     2D: n_h . d, n_h . a_e   (d = p_egg - p_hen)              1 DoF
//   universal (3D)    coincidence; a_h . a2_e (a2 the egg's axis) (4)           2 DoF
//   cylindrical (3D)  b_h . d, c_h . d, a_h . b_e, a_h . c_e (4)                2 DoF
//   planar (3D)       a_h . d, a_h . b_e, a_h . c_e (3; a the plane's normal)   3 DoF
//   fixed             coincidence; 3D: a_h . b_e, a_h . c_e, b_h . c_e  2D: n_h . a_e
//   distance          |p_egg - p_hen| = its reference value (1): a massless rod
// where x_h is the hen's direction (constant for the ground) and x_e the egg's direction equal
// to it at the reference configuration.
//
// Apparatuses act between a point of body A (or the ground) and a point of body B: the tension
// T = k (l - l0) + c dl/dt along the line between them (N; positive pulls the points together).
// A spring (or damper, k = 0) pushes too; a cable only pulls: T = max(0, T), and no force at
// all while l <= l0 (slack).
//
// Update pipeline (updateStructure): clear the forces, update each body's view of q and qd,
// evaluate the apparatuses, apply gravity, assemble into F. Gravity's generalized force is
// constant (built once); the mass matrix is constant (no inertia update is ever needed).

#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include "articulate/dynamics/perturbation.h"
#include "articulate/formulations/natural/body.h"

namespace art::natural {

enum class JointType { Spherical, Revolute, Prismatic, Universal, Cylindrical, Planar, Fixed, Distance };

/// The file name of a joint type ("spherical", "revolute", ...), and its parser.
const char* jointTypeName(JointType type);
bool parseJointType(const std::string& name, JointType& out);

/// A joint at the reference configuration. Points and axes are in world coordinates at the
/// reference configuration (the structure's bodies' initial placement); 2D structures use x, y.
struct JointSpec {
  std::string name;
  JointType type = JointType::Revolute;
  int hen = -1;  // parent body index, -1 for the ground
  int egg = 0;   // child body index
  Eigen::Vector3d point = Eigen::Vector3d::Zero();   // joint centre (m); distance: hen's point
  Eigen::Vector3d point2 = Eigen::Vector3d::Zero();  // distance joints only: egg's point (m)
  // unit; planar: the plane's normal; unused by spherical, distance and 2D revolute joints
  Eigen::Vector3d axis = Eigen::Vector3d::UnitZ();
  Eigen::Vector3d axis2 = Eigen::Vector3d::UnitY();  // universal only: the egg's axis, unit
};

enum class ApparatusType { Spring, Cable };

/// A spring-damper or a cable between two body points (world coordinates at the reference).
struct ApparatusSpec {
  std::string name;
  ApparatusType type = ApparatusType::Spring;
  int bodyA = -1;  // -1: the ground
  int bodyB = 0;
  Eigen::Vector3d pointA = Eigen::Vector3d::Zero(), pointB = Eigen::Vector3d::Zero();  // m
  double stiffness = 0.0;  // N/m, >= 0
  double damping = 0.0;    // N s/m, >= 0
  std::optional<double> restLength;  // m, >= 0; default: the reference distance
};

enum class Integrator { Zhong06, RK4 };

/// "zhong06" or "rk4", and the parser.
const char* integratorName(Integrator integrator);
bool parseIntegrator(const std::string& name, Integrator& out);

struct SimulationSpec {
  Integrator integrator = Integrator::Zhong06;
  double dt = 1e-3;  // s
};

/// The editable description of a structure.
struct StructureSpec {
  std::string name, description;
  int dimension = 3;  // 2 (x, y) or 3
  Eigen::Vector3d gravity = Eigen::Vector3d::Zero();  // m/s^2, world
  std::vector<BodySpec> bodies;
  std::vector<JointSpec> joints;
  std::vector<ApparatusSpec> apparatuses;
  SimulationSpec simulation;
  // drawing instructions fixed in the world (floors; `tiles` allowed), world coordinates
  nlohmann::json baseAppearance = nlohmann::json::array();
};

/// Constraint rows sharing their coordinates: one body's intrinsic rows (x = q_body) or one
/// joint's rows (x = [q_hen; q_egg]).
struct RowGroup {
  std::vector<int> index;  // global coordinate index of each entry of x
  std::vector<QuadraticRow> rows;
  int firstRow = 0;  // its first row in phi
};

/// A compiled apparatus: its two points' constant Jacobians.
struct CompiledApparatus {
  ApparatusType type = ApparatusType::Spring;
  int bodyA = -1, bodyB = 0;
  Eigen::MatrixXd CA, CB;  // d x coordinates of body A / B (CA empty for the ground)
  Eigen::VectorXd groundA;  // world point when A is the ground (d)
  double stiffness = 0, damping = 0, restLength = 0;
};

/// A structure compiled from its spec: immutable, shared by any number of StructureData.
class Structure {
 public:
  /// Builds bodies, connectivity, joints and apparatuses. Throws std::invalid_argument naming
  /// the body, joint or apparatus: unknown body index, kinds of the wrong dimension, a joint
  /// type the dimension lacks, joint points or axes a body cannot express (off a 3D bar's
  /// axis), non-unit axes, or negative stiffness, damping or rest length.
  explicit Structure(const StructureSpec& spec);

  /// The spec the structure was built from, and its space dimension (2 or 3).
  const StructureSpec& spec() const { return m_spec; }
  int dimension() const { return m_spec.dimension; }
  /// Size of q, qd and F.
  int nq() const { return m_nq; }
  /// Constraint rows: all, intrinsic (first) and extrinsic (after them).
  int nc() const { return m_nIntrinsic + m_nExtrinsic; }
  int intrinsicRowCount() const { return m_nIntrinsic; }
  int extrinsicRowCount() const { return m_nExtrinsic; }
  /// Nominal degrees of freedom, nq - nc (more where rows are redundant).
  int dof() const { return m_nq - nc(); }
  /// The compiled bodies, in spec order.
  const std::vector<Body>& bodies() const { return m_bodies; }
  /// First coordinate of body b in q.
  int bodyOffset(int b) const { return m_offset[static_cast<std::size_t>(b)]; }
  /// Body b's slice of a system vector (q, qd or F, size nq): a view into the same memory.
  Eigen::VectorBlock<const Eigen::VectorXd> bodyView(const Eigen::VectorXd& v, int b) const {
    return v.segment(bodyOffset(b), m_bodies[static_cast<std::size_t>(b)].coordinates());
  }
  Eigen::VectorBlock<Eigen::VectorXd> bodyView(Eigen::VectorXd& v, int b) const {
    return v.segment(bodyOffset(b), m_bodies[static_cast<std::size_t>(b)].coordinates());
  }
  /// First intrinsic row of body b in phi (its intrinsicRows().size() rows follow).
  int bodyRow(int b) const { return m_bodyRow[static_cast<std::size_t>(b)]; }
  /// Row groups: one per body (its intrinsic rows), then one per joint, in spec order.
  const std::vector<RowGroup>& rowGroups() const { return m_groups; }
  /// First row of joint j in phi.
  int jointRow(int j) const { return m_groups[m_bodies.size() + static_cast<std::size_t>(j)].firstRow; }
  /// The compiled apparatuses, in spec order.
  const std::vector<CompiledApparatus>& apparatuses() const { return m_apparatuses; }
  /// Reference coordinates and initial velocities, stacked (nq).
  const Eigen::VectorXd& q0() const { return m_q0; }
  const Eigen::VectorXd& qd0() const { return m_qd0; }
  /// The constant mass matrix (nq x nq, block diagonal by body), sparse and dense.
  const Eigen::SparseMatrix<double>& massMatrix() const { return m_M; }
  const Eigen::MatrixXd& denseMassMatrix() const { return m_Mdense; }
  /// Gravity's constant generalized force (nq): the potential energy of gravity is -Fg' q.
  const Eigen::VectorXd& gravityForce() const { return m_Fg; }

 private:
  // the constructor's steps, in order (structure.cpp)
  void addBodies();          // compiles the bodies: their slices of q and their intrinsic rows
  void assembleConstants();  // reference q0, qd0, the mass matrix and gravity's force
  void addJoints();          // one row group per joint, after the intrinsic rows
  void addApparatuses();     // the apparatuses' constant point Jacobians

  StructureSpec m_spec;
  std::vector<Body> m_bodies;
  std::vector<int> m_offset, m_bodyRow;
  std::vector<RowGroup> m_groups;
  std::vector<CompiledApparatus> m_apparatuses;
  int m_nq = 0, m_nIntrinsic = 0, m_nExtrinsic = 0;
  Eigen::VectorXd m_q0, m_qd0, m_Fg;
  Eigen::SparseMatrix<double> m_M;
  Eigen::MatrixXd m_Mdense;
};

/// Workspaces and results for one Structure. Sized once; evaluation allocates nothing.
struct StructureData {
  /// Sizes every array for `s`.
  explicit StructureData(const Structure& s);

  Eigen::VectorXd F;    // assembled generalized force (nq) of the last updateStructure
  Eigen::VectorXd phi;  // constraint residual (nc) of the last constraintResidual
  // constraint Jacobian d phi / d q (nc x nq, row major; fixed sparsity pattern)
  Eigen::SparseMatrix<double, Eigen::RowMajor> A;
  Eigen::VectorXd Adotqd;  // Adot qd = qd' (d^2 phi / dq^2) qd (nc) of the last call
  // per apparatus, after updateStructure: tension (N), length (m), and d f / d(pB - pA),
  // d f / d(vB - vA) (d x d) of the force f on point A (f = T e, e from A to B)
  std::vector<double> tension, length;
  std::vector<Eigen::Matrix3d> Kp, Kv;
  double springEnergy = 0.0;  // J, of the last updateStructure
  // the perturbation (setPerturbation) and the constant position Jacobians of its point and
  // of its body's mass centre (d x the body's coordinates)
  std::optional<Perturbation> perturbation;
  Eigen::MatrixXd perturbPoint, perturbCentre;
  // workspaces
  std::vector<std::vector<int>> slot;  // per row group: position of each entry in A's values
  Eigen::VectorXd x, Hx, Mqd;
};

/// The update pipeline at (q, qd): clears F, updates the body views, evaluates every
/// apparatus (tension, length, force Jacobians), applies gravity, assembles into d.F (N, N m
/// per natural coordinate). Throws std::invalid_argument on a size mismatch.
void updateStructure(const Structure& s, StructureData& d, const Eigen::VectorXd& q,
                     const Eigen::VectorXd& qd);

/// Sets or (nullopt) removes the perturbation that updateStructure adds to d.F: `body` a
/// structure body, `point` in its local frame (StructureSystem::bodyPoses: origin at the base
/// point, axes the local axes; a bar uses the component along its axis). Its torque form is the
/// pull applied at the point and its opposite at the mass centre (the same moment, no net
/// force). Allocates the Jacobians; throws std::invalid_argument for a body out of range or
/// non-finite, negative numbers.
void setPerturbation(const Structure& s, StructureData& d,
                     const std::optional<Perturbation>& perturbation);
/// The perturbation's load at (q, qd) (world coordinates), if one is set. Throws
/// std::invalid_argument on a size mismatch.
std::optional<PerturbationLoad> perturbationLoad(const Structure& s, const StructureData& d,
                                                 const Eigen::VectorXd& q,
                                                 const Eigen::VectorXd& qd);

/// Constraint residual phi(q) (nc; intrinsic rows dimensionless, joint rows m, m^2 or
/// dimensionless as in the table above). Throws std::invalid_argument on a size mismatch.
const Eigen::VectorXd& constraintResidual(const Structure& s, StructureData& d,
                                          const Eigen::VectorXd& q);

/// Constraint Jacobian A(q) = d phi / d q (nc x nq). Throws std::invalid_argument on a size
/// mismatch.
const Eigen::SparseMatrix<double, Eigen::RowMajor>& constraintJacobian(const Structure& s,
                                                                       StructureData& d,
                                                                       const Eigen::VectorXd& q);

/// The velocity-product term Adot qd (nc), so that phi'' = A qdd + Adot qd. Throws
/// std::invalid_argument on a size mismatch.
const Eigen::VectorXd& constraintVelocityTerm(const Structure& s, StructureData& d,
                                              const Eigen::VectorXd& qd);

/// The apparatuses' force Jacobians after updateStructure, scaled and summed:
/// kq dF/dq + kv dF/dqd (nq x nq; N/m and N s/m per natural coordinate), passed entry by entry
/// to add(i, j, value) (entries of one apparatus's blocks may repeat: add them up). The one
/// assembly of these Jacobians: Zhong06's Newton matrix (with kq = -h^2/4, kv = -h/2) and
/// StructureSystem::forceJacobians use it. Gravity's force is constant (no Jacobian). With
/// F_A = CA' f and F_B = -CB' f for the force f(pB - pA, vB - vA) on point A (d.Kp, d.Kv):
/// dF_A/dq_A = -CA' Kp CA, dF_A/dq_B = CA' Kp CB, and so on. Allocates nothing.
template <class Add>
void forceJacobianEntries(const Structure& s, const StructureData& d, double kq, double kv,
                          Add&& add) {
  // adds sign C1' K C2 at rows r0.., columns c0..
  auto congruence = [&](const Eigen::MatrixXd& C1, const Eigen::Matrix3d& K,
                        const Eigen::MatrixXd& C2, double sign, int r0, int c0) {
    const Eigen::Index dim = C1.rows();
    for (Eigen::Index i = 0; i < C1.cols(); ++i)
      for (Eigen::Index j = 0; j < C2.cols(); ++j) {
        double v = 0;
        for (Eigen::Index a = 0; a < dim; ++a)
          for (Eigen::Index b = 0; b < dim; ++b) v += C1(a, i) * K(a, b) * C2(b, j);
        if (v != 0.0) add(r0 + static_cast<int>(i), c0 + static_cast<int>(j), sign * v);
      }
  };
  for (std::size_t k = 0; k < s.apparatuses().size(); ++k) {
    const CompiledApparatus& a = s.apparatuses()[k];
    const Eigen::Matrix3d K = kq * d.Kp[k] + kv * d.Kv[k];
    const int oB = s.bodyOffset(a.bodyB);
    if (a.bodyA >= 0) {
      const int oA = s.bodyOffset(a.bodyA);
      congruence(a.CA, K, a.CA, -1.0, oA, oA);
      congruence(a.CA, K, a.CB, 1.0, oA, oB);
      congruence(a.CB, K, a.CA, 1.0, oB, oA);
    }
    congruence(a.CB, K, a.CB, -1.0, oB, oB);
  }
}

/// Kinetic energy 1/2 qd' M qd (J).
double kineticEnergy(const Structure& s, StructureData& d, const Eigen::VectorXd& qd);

/// Potential energy of gravity and of the springs and taut cables (J; gravity's zero at the
/// world origin); the springs' and cables' part is also left in d.springEnergy.
double potentialEnergy(const Structure& s, StructureData& d, const Eigen::VectorXd& q);

struct StructureEnergy {
  double kinetic = 0, potential = 0;  // J
  double total() const { return kinetic + potential; }
};

/// Kinetic and potential energy at (q, qd) (J).
StructureEnergy energy(const Structure& s, StructureData& d, const Eigen::VectorXd& q,
                       const Eigen::VectorXd& qd);

/// A hanging chain of n unit bars (1 kg, inertia 1/12 kg m^2 about the middle) in the x-y
/// plane: bar2d bodies joined by revolute joints, the first to the ground at the origin, laid
/// out along +x (horizontal) under gravity -9.81 y. Throws std::invalid_argument for n < 1.
StructureSpec barChain(int n);

/// World position of local point c of body b at coordinates q (m): C(c) q_b. Allocates
/// nothing; c in the body's local axes.
Eigen::Vector3d pointPosition(const Structure& s, int b, const Eigen::Vector3d& c,
                              const Eigen::VectorXd& q);

}  // namespace art::natural
