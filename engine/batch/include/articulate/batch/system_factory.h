#pragma once
// One System for any loaded document (a kinematic tree, a rigid body or a structure), with the
// simulation settings a command asks for over the model's own: what `articulate-cli simulate`
// and every run of a sweep (sweep.h) integrate.

#include <memory>
#include <string>

#include <Eigen/Core>

#include "articulate/formats/document.h"
#include "articulate/formulations/tree_simulation.h"
#include "articulate/simulation/system.h"

namespace art {

/// Settings over the model's own `simulation` settings; an empty or zero field keeps the
/// model's (docs/cli.md, simulate).
struct SimulationOverrides {
  std::string integrator;        // trees: rk4, euler, dopri5; structures: zhong06, rk4; rigid bodies: rk4
  double dt = 0;                 // step, or dopri5's largest step (s)
  double rtol = 0, atol = 0;     // dopri5's tolerances
  bool energyProjection = false; // trees: keep a passive model's energy (tree_simulation.h)
  int every = 1;                 // rigid bodies: contact reports average over dt * every
};

/// A built system and what messages call it.
struct BuiltSystem {
  std::unique_ptr<System> system;
  std::string name;                         // the model's name
  double dt = 1e-3;                         // the step it integrates with (s)
  Eigen::VectorXd q0, v0;                   // its initial state (positionSize, velocitySize)
  const char* variable = "joint variable";  // what one entry of q is, for messages
  std::shared_ptr<const Model> model;       // a tree's compiled model (null for the others)
  SimulationOptions options;                // and the options its system integrates with
};

/// Builds the system of `document` with `overrides` applied. Throws std::invalid_argument for a
/// setting the model's kind does not take (naming it as the option --integrator,
/// --energy-projection), ModelError for an invalid tree and std::invalid_argument or ModelError
/// from the rigid body's and structure's own checks.
BuiltSystem buildSystem(const LoadedDocument& document, const SimulationOverrides& overrides);

}  // namespace art
