#pragma once
// The size check of the natural-coordinate formulation's state vectors (structure.cpp,
// integrator.cpp). Private to formulations.

#include <stdexcept>
#include <string>

#include <Eigen/Core>

namespace art::natural::detail {

/// Throws std::invalid_argument "WHAT: expected size N, got M" unless v has n entries.
inline void checkSize(const Eigen::VectorXd& v, int n, const char* what) {
  if (v.size() != n)
    throw std::invalid_argument(std::string(what) + ": expected size " + std::to_string(n) +
                                ", got " + std::to_string(v.size()));
}

}  // namespace art::natural::detail
