#pragma once
// Private helpers shared by the algorithm files.

#include <cmath>
#include <sstream>
#include <stdexcept>

#include "articulate/dynamics/collision.h"
#include "articulate/dynamics/dynamics.h"

namespace art {
struct SoftConstraintData;
}

namespace art::detail {

/// MuJoCo's mjMINVAL: the smallest divisor its formulas allow (actuation, wrapping).
inline constexpr double kMinVal = 1e-15;
inline constexpr double kPi = 3.14159265358979323846;

inline void checkSize(const char* fn, const char* arg, Eigen::Index got, Eigen::Index want) {
  if (got != want) {
    std::ostringstream s;
    s << fn << ": " << arg << " has size " << got << ", the model needs " << want;
    throw std::invalid_argument(s.str());
  }
}

inline void checkFext(const char* fn, const Model& m, const ExternalForces* fext) {
  if (!fext) return;
  const int dim = m.arithmetic == Arithmetic::Spatial ? 6 : 3;
  if (fext->rows() != dim || fext->cols() != m.nb) {
    std::ostringstream s;
    s << fn << ": fext is " << fext->rows() << "x" << fext->cols() << ", the model needs " << dim
      << "x" << m.nb << " (one column per body, base coordinates)";
    throw std::invalid_argument(s.str());
  }
}

/// Calls f(SpatialArith{}) or f(PlanarArith{}) for the model's arithmetic.
template <class F>
decltype(auto) dispatch(const Model& m, F&& f) {
  if (m.arithmetic == Arithmetic::Spatial) return f(SpatialArith{});
  return f(PlanarArith{});
}

/// Calls f(arith, std::bool_constant<Free>{}) for the model's arithmetic and whether it has
/// free or ball joints (Model::hasQuaternions): the instantiation for Free = false indexes q, qd
/// by body as before such joints existed, so models without them pay nothing for them.
template <class F>
decltype(auto) dispatchTree(const Model& m, F&& f) {
  if (m.arithmetic == Arithmetic::Planar) return f(PlanarArith{}, std::false_type{});
  if (m.hasQuaternions) return f(SpatialArith{}, std::true_type{});
  return f(SpatialArith{}, std::false_type{});
}

/// Whether joint i is free (only ever in the Free instantiation of a spatial model).
template <class A, bool Free>
inline bool isFree(const Model& m, int i) {
  if constexpr (Free && A::dim == 6)
    return m.joints[i].type == JointType::Free;
  else
    return false;
}

/// Whether joint i is a ball joint (only ever in the Free instantiation of a spatial model).
template <class A, bool Free>
inline bool isBall(const Model& m, int i) {
  if constexpr (Free && A::dim == 6)
    return m.joints[i].type == JointType::Ball;
  else
    return false;
}

/// Index of joint i's first position variable.
template <bool Free>
inline int qIdx(const Model& m, int i) {
  if constexpr (Free)
    return m.qIndex[i];
  else
    return i;
}

/// Index of joint i's first velocity variable.
template <bool Free>
inline int vIdx(const Model& m, int i) {
  if constexpr (Free)
    return m.vIndex[i];
  else
    return i;
}

/// Sines and cosines of joint angles q[i], for an outward pass that asks for them in increasing
/// i: computed kBlock at a time with glibc's vector math (libmvec, 4 lanes with AVX2, 2
/// without) where the build has it, a few times faster than one sincos call per joint; equal to
/// std::sin and std::cos within a few ulp (not bit for bit).
/// s[k] = sin(x[k]) and c[k] = cos(x[k]) for k < 4 (32-byte aligned arrays): one call of
/// libmvec's 4-lane sine and cosine where the build has it with AVX2 (batch.cpp), else std::sin
/// and std::cos. Lane by lane: each result depends on its own x only.
void sinCosLanes(const double* x, double* s, double* c);

class SinCosBlocks {
 public:
  explicit SinCosBlocks(const VecRef& q) : m_q(q.data()), m_n(static_cast<int>(q.size())) {}
  void get(int i, double& s, double& c) {
    if (i < m_begin || i >= m_begin + kBlock) fill(i);
    s = m_s[i - m_begin];
    c = m_c[i - m_begin];
  }

 private:
  static constexpr int kBlock = 8;
  void fill(int i);  // sincos_blocks.cpp
  const double* m_q;
  int m_n;
  int m_begin = -kBlock;
  alignas(32) double m_s[kBlock], m_c[kBlock];
};

/// Xup[i] = XJ(q_i) * Xtree[i]; also X0 when `withX0`. `angles`, when given, supplies the sine
/// and cosine of q(i) for a joint turning about a coordinate axis (Free = false only).
template <class A, bool Free = false>
inline void updateXup(const Model& m, Workspace<A>& w, int i, const VecRef& q, bool withX0,
                      SinCosBlocks* angles = nullptr) {
  const auto& t = m.arrays<A>();
  if constexpr (Free && A::dim == 6) {
    if (m.joints[i].type == JointType::Free)
      w.Xup[i] = Joint::freeTransform(q.data() + m.qIndex[i]) * t.Xtree[i];
    else if (m.joints[i].type == JointType::Ball)
      w.Xup[i] = Joint::ballTransform(q.data() + m.qIndex[i]) * t.Xtree[i];
    else
      w.Xup[i] = A::jointTimesTree(m.joints[i], q(m.qIndex[i]), t.Xtree[i]);
  } else if constexpr (A::dim == 6) {
    const int k = m.spatial.turnAxis[i];
    if (k >= 0) {
      // Xtree does not rotate: E is the joint's rotation itself (as Joint::transformTimes
      // gives it), written in place rather than returned through memory
      static constexpr int kNext[3] = {1, 2, 0}, kAfter[3] = {2, 0, 1};
      const int a = kNext[k], b = kAfter[k];  // (k + 1) % 3 and (k + 2) % 3 without divisions
      double s, c;
      if (angles)
        angles->get(i, s, c);
      else
        ::sincos(q(i), &s, &c);
      Mat3& E = w.Xup[i].E;
      E.setIdentity();
      E(a, a) = c;
      E(a, b) = s;
      E(b, a) = -s;
      E(b, b) = c;
      w.Xup[i].r = t.Xtree[i].r;
    } else {
      w.Xup[i] = A::jointTimesTree(m.joints[i], q(i), t.Xtree[i]);
    }
  } else {
    w.Xup[i] = A::jointTimesTree(m.joints[i], q(i), t.Xtree[i]);
  }
  if (withX0) w.X0[i] = m.parent[i] < 0 ? w.Xup[i] : w.Xup[i] * w.X0[m.parent[i]];
}

/// a + b for fixed-size vectors, written out so that it always inlines: inside the large
/// algorithm functions GCC compiles Eigen's expression as an out-of-line call per body.
template <class V>
inline V sum(const V& a, const V& b) {
  V out;
  for (int k = 0; k < V::RowsAtCompileTime; ++k) out(k) = a(k) + b(k);
  return out;
}

/// Calls f(X) with X = Xup[i] as an AxisTransform<k> (spatial.h) when joint i turns about
/// coordinate axis k on a tree transform without rotation (Model turnAxis), else with Xup[i]
/// itself: the same operations in about a third of the arithmetic.
template <class A, class F>
inline void withXup(const Model& m, const Workspace<A>& w, int i, F&& f) {
  if constexpr (A::dim == 6) {
    switch (m.spatial.turnAxis[i]) {
      case 0: f(AxisTransform<0>::from(w.Xup[i])); return;
      case 1: f(AxisTransform<1>::from(w.Xup[i])); return;
      case 2: f(AxisTransform<2>::from(w.Xup[i])); return;
      default: break;
    }
  }
  f(w.Xup[i]);
}

/// The joint velocity vJ = S qd_i of joint i (the body's velocity itself for a free joint, its
/// angular velocity [w; 0] for a ball joint).
template <class A, bool Free = false>
inline typename A::Vec jointVelocity(const Model& m, int i, const VecRef& qd) {
  if constexpr (Free && A::dim == 6) {
    if (m.joints[i].type == JointType::Free) return qd.template segment<6>(m.vIndex[i]);
    if (m.joints[i].type == JointType::Ball) {
      Vec6 vJ;
      vJ << qd.template segment<3>(m.vIndex[i]), 0.0, 0.0, 0.0;
      return vJ;
    }
  }
  return m.arrays<A>().S[i] * qd(vIdx<Free>(m, i));
}

/// The external force on body i in body coordinates (requires X0[i]).
template <class A>
inline typename A::Vec bodyExternalForce(const Workspace<A>& w, const ExternalForces& fext, int i) {
  return w.X0[i].applyForce(fext.col(i).template head<A::dim>());
}

/// Jacobians at the kinematics in `d` (X0 current, spatial models): Jp (3 x nv) of the world
/// velocity of the world point p moving with body `body`, and Jr (3 x nv) of the body's
/// angular velocity (world axes). Either may be null; body -1 (the base) gives zeros.
void frameJacobian(const Model& m, const Data& d, int body, const Vec3& p, Eigen::MatrixXd* Jp,
                   Eigen::MatrixXd* Jr);

/// y = H x for a matrix H with the joint-space inertia's pattern (nonzero only between a velocity
/// variable and its ancestors in dofParent's tree, and on the diagonal): crba's H, or H plus a
/// diagonal. y must not alias x.
void multiplyMassMatrix(const Model& m, const Eigen::MatrixXd& H, const Eigen::VectorXd& x, Eigen::VectorXd& y);

/// Each velocity variable's unit motion in base coordinates at the base origin (6 x nv, the
/// motion subspace carried to the base: MuJoCo's cdof, at the world origin) from the
/// kinematics (X0) in `d`, spatial models.
void dofMotions(const Model& m, const Data& d, Eigen::Matrix<double, 6, Eigen::Dynamic>& out);

/// The Jacobians of body b2's motion relative to body b1's (either -1 for the base) at the world
/// point p, kept to the velocity variables that move one body and not the other (each one's
/// chain of ancestors less their common part): their indices ascending in cols[0, n), and in
/// columns 0..n-1 of Jp (3 x >= n) b2's point-velocity Jacobian less b1's and of Jr b2's
/// angular-velocity Jacobian less b1's (world axes), from `motions` (dofMotions). Returns n.
int relativeJacobian(const Model& m, const Eigen::Matrix<double, 6, Eigen::Dynamic>& motions, int b1, int b2,
                     const Vec3& p, int* cols, Eigen::MatrixXd& Jp, Eigen::MatrixXd& Jr);

/// The soft rows' products through their nonzeros (SoftConstraintData::nnz, nzIndex): y(r) =
/// J_r x for the rows [first, end).
void softRowsTimes(const SoftConstraintData& s, int first, int end, const VecRef& x, Eigen::VectorXd& y);

/// y = J' f over the first nefc rows, through their nonzeros (rows with f = 0 skipped).
void softRowsTransposeTimes(const SoftConstraintData& s, const Eigen::VectorXd& f, Eigen::VectorXd& y);

/// Finds rows [first, end)'s nonzero columns by scanning them (rows not built sparse).
void softRowSparsity(SoftConstraintData& s, int first, int end);

/// softConstraintRows (soft_constraints.h) with the kinematics (X0) of q already in `d`, as
/// crba leaves them: softForwardDynamics runs crba first and saves a pass.
void softRowsAtKinematics(const Model& m, Data& d, SoftConstraintData& s, const VecRef& q, const VecRef& qd);

/// The soft rows of contact c: 1 for condim 1, else the pyramid's 2 (condim - 1) or, under
/// elliptic cones, condim.
inline int contactRowCount(const Contact& c, bool elliptic) {
  return c.dim == 1 ? 1 : elliptic ? c.dim : 2 * (c.dim - 1);
}

/// Whether the model's contacts take elliptic cones (physics.cone).
inline bool ellipticCones(const Model& m) { return m.physics.cone == PhysicsSpec::Cone::Elliptic; }

/// Appends the rows of s.contacts (soft_contact_rows.cpp; those not excluded) after the rows
/// already in `s`: their Jacobians, residuals, margins and MuJoCo's diagApprox; sets each
/// contact's row and s.ncon.
void softContactRows(const Model& m, const Data& d, SoftConstraintData& s);

/// MuJoCo's mj_makeImpedance for the rows of the contact whose first row is `first` (s.vel
/// current): impedance, R (with impratio's and the cone's scaling), D and aref; sets the
/// contact's mu.
void contactImpedance(const Model& m, SoftConstraintData& s, int first);

/// The cone of an elliptic contact's block of rows [first, first + dim) at s.jar (soft_cone.cpp;
/// MuJoCo's mj_constraintUpdate): writes the rows' forces and states into s and returns the
/// block's cost; with `hessian`, also the cost's dim x dim Hessian in jar in the middle zone
/// (MuJoCo's cone Hessian; left alone elsewhere: the bottom zone's rows are each quadratic).
double coneUpdate(SoftConstraintData& s, int first, Eigen::Matrix<double, 6, 6>* hessian);

/// The block's cost at s.jar + a s.Jdir (its rows' entries), and the cost's first and second
/// derivative in a there: the line search's terms of an elliptic contact.
double coneAlong(const SoftConstraintData& s, int first, double a, double& d1, double& d2);

/// One step of projected Gauss-Seidel on an elliptic contact's block of the dual problem
/// min 1/2 f' AR f + f' r0 over the cone f_n >= |(f_k / mu_k)| (soft_cone.cpp): `A` the
/// block of AR, `res` the block's dual residual (AR f + r0) at its forces `f` (dim entries,
/// updated in place). From the apex (no normal force) the exact step along the projection of
/// -gradient onto the cone, else a step along the force's ray (which moves the normal and the
/// friction together), then the friction's minimum
/// over the ellipse |(f_k / mu_k)| <= f_n with the normal fixed. Returns the dual cost's decrease.
double conePgsStep(const SoftConstraintData& s, int first, const Eigen::Ref<const Eigen::MatrixXd>& A,
                   const Eigen::Ref<const Eigen::VectorXd>& res, Eigen::Ref<Eigen::VectorXd> f);

/// A spatial model's body pose from the kinematics in `d`: rotation (body to world) and origin;
/// the identity for body -1 (the base).
inline void worldPose(const Data& d, int body, Mat3& R, Vec3& r) {
  if (body < 0) {
    R.setIdentity();
    r.setZero();
    return;
  }
  R = d.spatial.X0[static_cast<std::size_t>(body)].E.transpose();
  r = d.spatial.X0[static_cast<std::size_t>(body)].r;
}

}  // namespace art::detail
