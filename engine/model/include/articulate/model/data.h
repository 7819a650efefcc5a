#pragma once
// Data: every workspace array the algorithms use, sized once for one Model. Algorithms never
// allocate after a Data is constructed.

#include <vector>

#include <Eigen/Core>

#include "articulate/model/model.h"

namespace art {

/// Workspace of one arithmetic. Per-body arrays are indexed by body (nb).
template <class A>
struct Workspace {
  std::vector<typename A::Xform> Xup;  // parent -> body coordinates
  std::vector<typename A::Xform> X0;   // base -> body coordinates
  std::vector<typename A::Vec> v, a, c, f, pA, U;  // velocities, accelerations, bias, forces
  std::vector<typename A::Mat> IA;                 // articulated / composite inertias
  std::vector<double> d, u;  // ABA: 1/d_i = 1/(S' IA S) and u_i = tau_i - S' pA
  // ABA for ball joints (spatial models with ball joints only, else empty): U = IA S (6x3),
  // D^-1 = (S' IA S + armature)^-1 and u = tau_i - S' pA (3)
  std::vector<Eigen::Matrix<double, 6, 3>> Uball;
  std::vector<Eigen::Matrix3d> Dinvball;
  std::vector<Eigen::Vector3d> uball;
  void resizeBall(int nb) {
    Uball.assign(nb, Eigen::Matrix<double, 6, 3>::Zero());
    Dinvball.assign(nb, Eigen::Matrix3d::Zero());
    uball.assign(nb, Eigen::Vector3d::Zero());
  }
  void resize(int nb) {
    Xup.resize(nb);
    X0.resize(nb);
    for (auto* vec : {&v, &a, &c, &f, &pA, &U}) vec->assign(nb, A::Vec::Zero());
    IA.assign(nb, A::Mat::Zero());
    d.assign(nb, 0.0);
    u.assign(nb, 0.0);
  }
};

/// Workspace and results for one Model. Results of the last call of each algorithm stay here.
struct Data {
  /// Sizes every array for `model`.
  explicit Data(const Model& model);

  int nb = 0;
  Workspace<SpatialArith> spatial;
  Workspace<PlanarArith> planar;
  Eigen::VectorXd tau;   // rnea result (nv)
  Eigen::VectorXd qdd;   // aba / forwardDynamicsCrb result (nv)
  Eigen::VectorXd C;     // bias forces (nv)
  Eigen::MatrixXd H;     // joint-space inertia matrix (nv x nv)
  Eigen::MatrixXd L;     // its tree-sparse factor, H = L^T L (nv x nv, lower triangle)
  Eigen::VectorXd tmp;   // scratch (nv)
  std::vector<int> ancestors;  // scratch (nv): a velocity variable's ancestors, nearest first

  // actuation (dynamics/actuation.h): results of the last actuation() or tendonKinematics()
  Eigen::VectorXd tendonLength, tendonVelocity;  // (ntendon) m, m/s
  Eigen::MatrixXd tendonMoment;                  // (ntendon x nv) dL/dq in velocity variables
  Eigen::VectorXd actuatorLength, actuatorVelocity, actuatorForce;  // (nu)
  Eigen::MatrixXd actuatorMoment;                // (nu x nv) joint forces of a unit actuator force
  Eigen::VectorXd ctrl;                          // (nu) the controls as applied (clamped)
  Eigen::VectorXd qfrcActuator, qfrcPassive;     // (nv) actuators' and springs' and dampers' joint forces
  Eigen::VectorXd actDot;                        // (na) activation rates
  // the tendons' drawn paths: the points of tendon k are columns tendonPathStart[k] ..
  // tendonPathStart[k + 1] - 1 of tendonPath (world, m): sites and the ends of each wrap
  Eigen::Matrix3Xd tendonPath;
  std::vector<int> tendonPathStart;              // (ntendon + 1)
  std::vector<char> tendonPathBranch;            // per point: it starts a branch after a pulley
  // constants computed on first use (actuation.cpp): MuJoCo's actuator_acc0 (the acceleration
  // norm of a unit force at q0), the tendons' spring lengths, the muscles' length ranges
  bool actuationReady = false;
  Eigen::VectorXd actuatorAcc0, tendonSpringLength;  // (nu), (ntendon)
  Eigen::Matrix2Xd lengthRange;                      // (2 x nu)
  Eigen::MatrixXd jacA, jacB, jacR;                  // scratch (3 x nv)

  template <class A>
  Workspace<A>& ws() {
    if constexpr (std::is_same_v<A, SpatialArith>)
      return spatial;
    else
      return planar;
  }
  template <class A>
  const Workspace<A>& ws() const {
    if constexpr (std::is_same_v<A, SpatialArith>)
      return spatial;
    else
      return planar;
  }
};

}  // namespace art
