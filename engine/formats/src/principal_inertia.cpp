// A full rotational inertia as MuJoCo's compiler keeps it (principal_inertia.h).
#include "principal_inertia.h"

#include <cmath>

#include <Eigen/Geometry>

namespace art {

Mat3 mujocoPrincipalInertia(const Mat3& I) {
  constexpr double kEps = 1e-12;  // MuJoCo's compiler's eigenvalue tolerance
  Eigen::Quaterniond q(1, 0, 0, 0);
  Vec3 moments = I.diagonal();
  for (int sweep = 0; sweep < 500; ++sweep) {
    const Mat3 R = q.toRotationMatrix();
    const Mat3 D = R.transpose() * I * R;
    moments = D.diagonal();
    // the largest off-diagonal entry (r, c), turned about the third axis
    int r = 1, c = 2, axis = 0;
    if (std::abs(D(0, 1)) > std::abs(D(0, 2)) && std::abs(D(0, 1)) > std::abs(D(1, 2))) r = 0, c = 1, axis = 2;
    else if (std::abs(D(0, 2)) > std::abs(D(1, 2))) r = 0, c = 2, axis = 1;
    if (std::abs(D(r, c)) < kEps) break;
    // the 2x2 symmetric Schur rotation's cosine
    const double tau = (D(c, c) - D(r, r)) / (2 * D(r, c));
    const double t = tau >= 0 ? 1 / (tau + std::sqrt(1 + tau * tau)) : -1 / (-tau + std::sqrt(1 + tau * tau));
    const double cosine = 1 / std::sqrt(1 + t * t);
    if (cosine > 1 - kEps) break;
    double half = std::sqrt(0.5 - 0.5 * cosine) * (tau >= 0 ? -1 : 1);  // sin of half the angle
    if (axis == 1) half = -half;
    Eigen::Quaterniond step(std::sqrt(1 - half * half), axis == 0 ? half : 0, axis == 1 ? half : 0, axis == 2 ? half : 0);
    step.normalize();
    q = (q * step).normalized();
  }
  const Mat3 R = q.toRotationMatrix();
  return R * moments.asDiagonal() * R.transpose();
}

}  // namespace art
