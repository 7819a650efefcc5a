#pragma once
// A model's motion over time: the samples that spatial_v2's showmotion plays back, and what an
// Articulate recording stores (formats/articulate.h reads and writes both; simulation's
// Recording converts to and from it).

#include <string>

#include <Eigen/Core>

namespace art {

/// A recorded motion that came with a model (spatial_v2 showmotion's t and q), or an
/// Articulate recording (which also has qd and energies, and may have a title and so on).
struct Motion {
  Eigen::VectorXd t;  // sample times (s), non-decreasing (nt)
  Eigen::MatrixXd q;  // joint positions, one row per sample (nt x nq)
  Eigen::MatrixXd qd;  // joint velocities (nt x nv), or empty
  Eigen::VectorXd kinetic, potential;  // energies (J) (nt), or empty
  Eigen::VectorXd dissipated;  // energy dissipated since the first sample (J) (nt), or empty
  Eigen::VectorXd actuatorWork;  // work the actuators did since the first sample (J) (nt), or empty
  std::string title, author, description, date;  // showmotion's animation fields, optional
};

}  // namespace art
