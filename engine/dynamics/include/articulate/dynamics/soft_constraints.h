#pragma once
// MuJoCo's constraint model on a kinematic tree (PhysicsSpec::Soft): equality constraints,
// joint and tendon friction (frictionloss) and joint and tendon limits as soft constraint rows,
// solved together as one convex problem, as MuJoCo 2.2.2 computes them ("Computation" chapter;
// mj_makeConstraint, mj_constraintUpdate, mj_solNewton/PGS/CG).
//
// Each row i has a Jacobian row J_i (per velocity variable), a residual pos_i with a margin,
// its velocity vel_i = J_i qd, an impedance d_i = d(pos_i) from solimp, a reference acceleration
// aref_i = -b vel_i - k d_i (pos_i - margin_i) from solref, and the regulariser R_i = (1 - d_i) /
// d_i * A_i, with A_i MuJoCo's approximation of (J H^-1 J')_ii from the inverse weights at q0.
// The constrained acceleration minimises
//   1/2 (qacc - qacc0)' H (qacc - qacc0) + sum_i s_i(J_i qacc - aref_i),
// qacc0 = H^-1 (tau - C) the unconstrained acceleration, s_i = 1/2 jar^2 / R_i for equality
// rows, the same for limit rows when jar < 0 (else 0), and Huber's function with the force box
// |f| <= frictionloss for friction rows. The row forces are f_i = -s_i'(jar_i) (a limit's >= 0)
// and H qacc = tau - C + J' f. The problem is strictly convex: every solver finds the same qacc.
//
// Rows come in MuJoCo's order: equalities (connect 3 rows, weld 6, joint and tendon 1),
// friction on velocity variables then tendons, limits on joints then tendons (a limit's row
// exists while its distance is below its margin), contacts (collision.h) in their order: one
// row of the normal for condim 1, else under pyramidal cones the pyramid's 2 (condim - 1) edges
// J_n +- mu_k J_k, each one-sided as a limit's, and under elliptic cones (physics.cone) condim
// rows J_n, J_t1, J_t2 (then the torsional and rolling rows of the relative rotation) that
// form one block: with U = (mu jar_n, mu_k jar_k), N = U_0 and T = |U_1..|, mu = mu_0 /
// sqrt(impratio) (Contact::mu), its cost is 0 where N >= mu T (the contact separates or
// sticks inside the cone), 1/2 sum D_j jar_j^2 where mu N + T <= 0, and between them
// 1/2 D_0 / (mu^2 (1 + mu^2)) (N - mu T)^2; its forces lie in the cone f_n >= |(f_k / mu_k)|.
// Spatial models only.

#include <string>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include "articulate/dynamics/collision.h"
#include "articulate/dynamics/dynamics.h"
#include "articulate/model/data.h"
#include "articulate/model/model.h"

namespace art {

/// MuJoCo's mjMINVAL: the floor of the regulariser and of divisions in the soft model.
inline constexpr double kSoftMinValue = 1e-15;

/// A soft row's kind (MuJoCo's efc_type).
enum class SoftRowType {
  Equality,
  FrictionDof,
  FrictionTendon,
  LimitJoint,
  LimitTendon,
  ContactFrictionless,
  ContactPyramidal,
  ContactElliptic
};
/// "equality", "friction", "limit" or "contact" (the CLI's and the plots' names of the kinds).
const char* softRowKind(SoftRowType type);

/// A row's state after the solve (MuJoCo's efc_state); Cone: an elliptic contact's rows in the
/// cone's middle zone (sliding on the cone's surface).
enum class SoftRowState { Satisfied, Quadratic, LinearNeg, LinearPos, Cone };

/// Rows, results and workspaces of the soft constraint model for one Model. The constructor
/// computes MuJoCo's constants at the model's initial pose q0 (the inverse weights of bodies,
/// velocity variables and tendons, and the mean of H's diagonal) and sizes every array for the
/// most rows the model can have; nothing allocates afterwards.
struct SoftConstraintData {
  /// Throws std::invalid_argument for a planar model.
  explicit SoftConstraintData(const Model& model);

  double timestep = 0.002;  // s: a time constant below 2 timestep is raised to it (refsafe)
  std::vector<char> equalityActive;  // per model.equalities: whether it acts (starts as given)

  // rows of the last softConstraintRows (the first nefc entries of each array)
  int nefc = 0, ne = 0, nf = 0;  // all rows, equality rows, friction rows
  std::vector<SoftRowType> type;
  std::vector<int> id;       // its element: equality, velocity variable, tendon, body (joint) or contact index
  std::vector<int> channel;  // its channel (softChannelNames): where its force is recorded; -1 a contact's
  int channels = 0;          // every row the model can have but contacts: the channels
  int capacity = 0;          // the arrays' rows: the channels, and room for the contacts (grows)
  std::vector<Contact> contacts;  // the last collide(), whose rows follow the limits'
  int ncon = 0;              // contact rows among the nefc
  // (capacity x nv), one row per constraint row, stored by rows; row r is zero outside the
  // columns nzIndex[r nv, r nv + nnz[r]) (ascending): for a contact, the velocity variables
  // that move one of its bodies and not the other (their kinematic chains less the common
  // part); nzValue holds those entries in the same places, packed
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> J;
  std::vector<int> nnz, nzIndex;
  std::vector<double> nzValue;
  Eigen::VectorXd pos, margin, frictionloss, vel, aref, R, D, diagApprox, imp;
  // results of the last solve
  Eigen::VectorXd force;     // row forces f (N, N m; a limit's >= 0)
  std::vector<SoftRowState> state;
  Eigen::VectorXd qacc0;     // unconstrained acceleration H^-1 (tau - C) (nv)
  Eigen::VectorXd qacc;      // constrained acceleration (nv)
  Eigen::VectorXd qfrcConstraint;  // J' f (nv)
  int iterations = 0;        // solver iterations of the last solve
  double gradient = 0.0;     // the last iteration's scaled gradient norm (MuJoCo's)
  double improvement = 0.0;  // and its scaled cost improvement
  double cost = 0.0;         // the constraint part of the cost at qacc

  // constants at q0 (MuJoCo's body_invweight0, dof_invweight0, tendon_invweight0, meaninertia)
  std::vector<double> bodyInvWeight;    // (2 nb): translation, rotation
  Eigen::VectorXd dofInvWeight;         // (nv)
  Eigen::VectorXd tendonInvWeight;      // (ntendon)
  double meanInertia = 1.0;
  bool sparseH = false;  // whether H's tree sparsity makes H x cheaper than the dense product

  // workspaces
  Eigen::MatrixXd Hs, MinvJt, AR, jp1, jr1, jp2, jr2;
  Eigen::Matrix<double, 6, Eigen::Dynamic> dofMotion;  // (6 x nv) each velocity variable's motion, world
  Eigen::LLT<Eigen::MatrixXd> llt;
  std::vector<int> hNnz, hCols;  // Newton's sparse factor (sparseH): each row's count and columns below the diagonal (hCols nv x nv, empty without sparseH)
  std::vector<char> hMark;       // (nv x nv, sparseH) whether (i, j) is in row i's pattern
  std::vector<double> hRows;     // (nv x 10) a contact's rows on its columns, by rows
  Eigen::VectorXd jar, grad, dir, Jdir, Mdir, Ma, r0, work, prevGrad, prevMgrad, mgrad;  // Ma = H (qacc - qacc0)
  struct Kink {
    double at, change;  // where along the search direction a row changes zone, and the curvature's change there
  };
  std::vector<Kink> kinks;  // the line search's kinks (capacity 2 per row)
  Eigen::VectorXd warm;      // the last solve's qacc: the next one starts there when it is better
  bool warmValid = false;
};

/// Builds the rows at (q, qd) into `soft` (its J, pos, margin, frictionloss, vel, aref, R, D,
/// diagApprox, imp; MuJoCo's mj_makeConstraint and mj_referenceConstraint). Runs forward
/// kinematics and, with tendons, tendonKinematics on `data`. Throws std::invalid_argument on a
/// size mismatch.
void softConstraintRows(const Model& model, Data& data, SoftConstraintData& soft, const VecRef& q,
                        const VecRef& qd);

/// Constrained forward dynamics of the soft model: H and C by crba and rnea at (q, qd) under tau
/// (N m, N) and fext (dynamics.h), qacc0 = H^-1 (tau - C), the rows at (q, qd), and the
/// minimiser qacc by model.physics.solver (Newton with an exact line search, PGS on the dual,
/// or nonlinear conjugate gradients) to model.physics.tolerance within model.physics.iterations.
/// qacc (rad/s^2, m/s^2) is returned and left in soft.qacc and data.qdd; the row forces in
/// soft.force, H in data.H (its factor in data.L). Throws std::invalid_argument on a size
/// mismatch and SingularInertiaError when H is not positive definite.
const Eigen::VectorXd& softForwardDynamics(const Model& model, Data& data, SoftConstraintData& soft,
                                           const VecRef& q, const VecRef& qd, const VecRef& tau,
                                           const ExternalForces* fext = nullptr);

/// Minimises the cost above over qacc for the rows in `soft` and H factorised in `data`
/// (factorizeMassMatrix), from soft.qacc0, by `solver` with at most `iterations` iterations and
/// `tolerance`; fills soft.qacc, force, state, qfrcConstraint, iterations, gradient and cost.
void solveSoftConstraints(const Model& model, const Data& data, SoftConstraintData& soft,
                          PhysicsSpec::Solver solver, int iterations, double tolerance);

/// The names of the soft model's force channels: one per row the model can have, whether the
/// row is present now or not, so that a recording keeps a fixed layout while limits come and
/// go and equalities are switched. In MuJoCo's row order: per equality "equality NAME" (a
/// connect's ".x .y .z", a weld's also ".rx .ry .rz"; unnamed: "equality K"), per velocity
/// variable with frictionloss "friction BODY" ("[k]" for a joint's k-th of several), per
/// tendon with frictionloss "friction TENDON" (unnamed: "tendon K"), per joint limit "limit
/// BODY.lower" and ".upper", per tendon range "limit TENDON.lower" and ".upper".
/// SoftConstraintData::channels of them.
std::vector<std::string> softChannelNames(const Model& model);

/// The force of contact `k` of the last solve in its frame (MuJoCo's mj_contactForce): normal,
/// tangent 1, tangent 2, torsional, rolling 1, rolling 2 (N, N m), on geom2 from geom1 (geom1
/// takes the opposite); zeros for a contact without rows. Elliptic rows are these forces
/// themselves; a pyramid's edges are summed (mju_decodePyramid). Throws std::out_of_range on a bad k.
Vec6 contactForce(const SoftConstraintData& soft, int k);

/// The last solve's row forces by channel (soft.channels entries, N or N m; 0 for a row that is
/// not present, e.g. a limit away from its bound or an equality switched off). Throws
/// std::invalid_argument on a size mismatch.
void softChannelForces(const SoftConstraintData& soft, Eigen::Ref<Eigen::VectorXd> out);

/// The name of row i's element for messages and the CLI: the equality's name (or
/// "equality N"), the joint's body name, the tendon's name (or "tendon N").
std::string softRowName(const Model& model, const SoftConstraintData& soft, int row);

}  // namespace art
