#pragma once
// Constraints on a kinematic tree (the model's `constraints`, replacing spatial_v2's gamma_q):
// residual phi(q), Jacobian G(q) = d phi / d q, bias g = -Gdot qd, constrained forward dynamics
// with Baumgarte stabilisation (RBDA section 8.3), and the projection of a state back onto the
// constraint manifold.
//
// Rows, in the order of model.constraints:
//  - coupling: 1 row, phi = q[joint] - ratio * q[master] - offset (rad or m);
//  - loop: point A minus point B in base coordinates (spatial: x y z, planar: x y; m), then
//    with `align` the cross product of the two unit axes in base coordinates (spatial: x y z,
//    planar: z), i.e. the sine of the angle between them.
// Loops in planar mechanisms built with spatial joints (and the alignment rows) are redundant:
// G may lose rank. Every solve here is a pivoted LDL^T that drops dependent rows, so the
// constraint forces of such rows are one admissible set, not the unique one.

#include <vector>

#include <Eigen/Core>

#include "articulate/model/data.h"
#include "articulate/dynamics/dynamics.h"
#include "articulate/model/model.h"

namespace art {

/// Number of constraint rows of a model (the size of phi).
int constraintRowCount(const Model& model);

/// Baumgarte stabilisation gains of constrained forward dynamics: G qdd = g - 2 alpha phidot -
/// beta^2 phi. alpha and beta in 1/s; the default is critically damped with a 0.1 s time
/// constant (the projection after each step keeps the error small; this only damps it).
struct BaumgarteGains {
  double alpha = 10.0;
  double beta = 10.0;
};

/// Constraint results and workspaces for one Model. Sized once; nothing allocates afterwards.
struct ConstraintData {
  /// Sizes every array for `model`.
  explicit ConstraintData(const Model& model);

  int nc = 0;            // constraint rows
  std::vector<int> row;  // first row of each model.constraints[k]; row[k + 1] ends it
  Eigen::VectorXd phi;     // residual (nc): m, rad or sine of an angle
  Eigen::VectorXd phidot;  // G qd (nc)
  Eigen::VectorXd g;       // bias -Gdot qd, so that phi'' = G qdd - g (nc)
  Eigen::MatrixXd G;       // Jacobian d phi / d q, per velocity variable (nc x nv)
  // constraint forces of the last constrainedForwardDynamics (nc): the generalised force they
  // exert is G' lambda. Loop rows: the force (N, base coordinates) applied to body A at its
  // point, and its opposite to body B at its point; alignment rows: the couple (N m, base
  // coordinates) as seen through the cross product; coupling rows: the joint force (N m or N)
  // on `joint`, with -ratio times it on `master`.
  Eigen::VectorXd lambda;

  // workspaces; after constrainedForwardDynamics Y, A, perm and rank describe its state
  Eigen::MatrixXd Y;     // H^-1 G' (nv x nc)
  Eigen::MatrixXd A;     // G H^-1 G' or G G' and its pivoted factor (nc x nc)
  int rank = 0;          // independent rows found by that factorisation
  Eigen::VectorXd rhs;   // (nc)
  Eigen::VectorXd work;  // (nc)
  Eigen::VectorXi perm;  // pivot order (nc)
  Eigen::VectorXd dq;    // a velocity-space correction (nv)
  std::vector<Vec6> v0, a0;  // per body in base coordinates: velocity, velocity-product
                             // acceleration (planar vectors embedded in 6D) (nb)
  std::vector<Vec6> s0;      // per velocity variable in base coordinates: its joint axis (nv)
};

/// Evaluates phi, phidot, G and g at (q, qd) into `cdata`. Overwrites the tree workspace of
/// `data` (Xup, X0, v, a). Throws std::invalid_argument on a size mismatch.
void constraintKinematics(const Model& model, Data& data, ConstraintData& cdata, const VecRef& q,
                          const VecRef& qd);

/// Constrained forward dynamics: solves [H G'; G 0] [qdd; -lambda] = [tau - C; g - 2 alpha
/// phidot - beta^2 phi] through the Schur complement G H^-1 G' (pivoted, dependent rows
/// dropped), with H and C from crba and rnea (fext as in dynamics.h, base coordinates). qdd
/// (rad/s^2 or m/s^2) is returned in data.qdd, the constraint forces in cdata.lambda. With no
/// constraint rows this is forwardDynamicsCrb. Throws std::invalid_argument on a size
/// mismatch and std::runtime_error if H is not positive definite.
const Eigen::VectorXd& constrainedForwardDynamics(const Model& model, Data& data,
                                                  ConstraintData& cdata, const VecRef& q,
                                                  const VecRef& qd, const VecRef& tau,
                                                  const ExternalForces* fext = nullptr,
                                                  const BaumgarteGains& gains = {});

/// Completes a semi-implicit Euler step qd1 = qd + h qdd, q1 = q + h qd1 whose qdd came from
/// constrainedForwardDynamics at q (cdata still holding that call's Y = H^-1 G(q)' and factor):
/// adds the constraint impulse that closes the constraints at the end of the step, q1 +=
/// h^2 Y dlambda and qd1 += h Y dlambda with phi(q1) = 0 (SHAKE; Hairer, Lubich & Wanner,
/// Geometric Numerical Integration, VII.1), by quasi-Newton steps until max |phi| <= tolerance
/// or `maxIterations` steps. Projecting along the constraint forces of the step, rather than
/// normal to the constraints at q1, keeps the step symplectic, so energy does not drift. Follow
/// it with projectConstraints for the velocities. Returns max |phi(q1)|; throws
/// std::invalid_argument on a size mismatch or h <= 0.
double closeConstraintsAfterStep(const Model& model, Data& data, ConstraintData& cdata,
                                 Eigen::Ref<Eigen::VectorXd> q1, Eigen::Ref<Eigen::VectorXd> qd1,
                                 double h, double tolerance = 1e-12, int maxIterations = 10);

/// Turns columns of H^-1 into columns of the constrained inverse H^-1 - Y (G Y)^+ Y' (Y =
/// H^-1 G'(q)): X (nv x k) holds H^-1 S for generalised forces S (solveMassMatrix), with H
/// factorised at q in `data` (factorizeMassMatrix); afterwards a force or impulse S lambda
/// changes the accelerations or velocities by X lambda and leaves G qdd or G qd as it was (the
/// constraint forces that keep the constraints are included). Joint stops and friction use it
/// on models with loops and couplings. Overwrites cdata's G, Y, A and scratch vectors (not
/// lambda) and the tree workspace of `data`. Throws std::invalid_argument on a size mismatch.
void constrainedInverseColumns(const Model& model, Data& data, ConstraintData& cdata,
                               const VecRef& q, Eigen::Ref<Eigen::MatrixXd> X);

/// Projects a state onto the constraint manifold: Gauss-Newton steps q -= G' (G G')^+ phi
/// (least change of q; applied through integrateConfiguration for free joints, whose G
/// columns are per velocity variable) until max |phi| <= tolerance or `maxIterations` steps, then
/// qd -= H^-1 G' (G H^-1 G')^+ G qd (least change of kinetic energy), so that G qd = 0.
/// `pinned` (velocity indices of one-variable joints, e.g. joints just put on their stops)
/// keeps those joints' positions: their columns of G are left out of the position steps.
/// Returns max |phi| at the projected q. Throws std::invalid_argument on a size mismatch.
double projectConstraints(const Model& model, Data& data, ConstraintData& cdata,
                          Eigen::Ref<Eigen::VectorXd> q, Eigen::Ref<Eigen::VectorXd> qd,
                          double tolerance = 1e-12, int maxIterations = 10,
                          const std::vector<int>* pinned = nullptr);

}  // namespace art
