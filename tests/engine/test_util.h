#pragma once
// Shared helpers for the engine tests.

#include <random>

#include <Eigen/Core>

namespace testutil {

/// A seeded random vector with entries in [lo, hi].
inline Eigen::VectorXd randomVector(int n, std::mt19937& rng, double lo = -2, double hi = 2) {
  std::uniform_real_distribution<double> u(lo, hi);
  Eigen::VectorXd v(n);
  for (int i = 0; i < n; ++i) v(i) = u(rng);
  return v;
}

/// A seeded random matrix with entries in [lo, hi].
inline Eigen::MatrixXd randomMatrix(int r, int c, std::mt19937& rng, double lo = -2, double hi = 2) {
  std::uniform_real_distribution<double> u(lo, hi);
  Eigen::MatrixXd m(r, c);
  for (int i = 0; i < r; ++i)
    for (int j = 0; j < c; ++j) m(i, j) = u(rng);
  return m;
}

/// max|a - b| / max(1, max|b|): the reference data's normwise-relative error.
inline double relErr(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  if (b.size() == 0) return 0.0;
  return (a - b).cwiseAbs().maxCoeff() / std::max(1.0, b.cwiseAbs().maxCoeff());
}

}  // namespace testutil
