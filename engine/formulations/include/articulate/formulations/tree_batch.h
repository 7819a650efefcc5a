#pragma once
// kLanes independent states of one kinematic tree integrated together, vectorised across the
// states (dynamics/batch.h): what a sweep over initial states steps (batch/sweep.h). Each lane
// follows Simulation's rules (tree_simulation.h) for the fixed-step integrators: the same
// steps and times, the same divergence checks and messages, the same energy projection. Its
// numbers equal a Simulation's from the same state to rounding (the operations are ordered
// differently), and do not depend on the other lanes. Engine only: no threads.

#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "articulate/dynamics/batch.h"
#include "articulate/formulations/tree_simulation.h"

namespace art {

class BatchSimulation {
 public:
  /// Why BatchSimulation cannot integrate `model` with `options` ("" when it can): a model
  /// BatchTree does not take (batchUnsupported), joint controllers, or dopri5 (adaptive steps
  /// differ between states).
  static std::string unsupported(const Model& model, const SimulationOptions& options);

  /// Every lane at the model's initial state (q0, qd0) at t = 0. Throws std::invalid_argument
  /// with unsupported()'s reason, or for a non-positive dt. Keeps a reference to the model.
  BatchSimulation(const Model& model, const SimulationOptions& options);

  /// Sets lane `lane`'s state (nq and nv entries) at the batch's present time and makes it
  /// active again; its energy at that state becomes the one the divergence check and the energy
  /// projection measure against. Throws std::invalid_argument for a lane outside [0, kLanes) or
  /// a size mismatch.
  void setState(int lane, const Eigen::VectorXd& q, const Eigen::VectorXd& qd);
  /// Every lane at (q0, qd0) at time t (s), active, no steps taken.
  void reset(double t = 0.0);

  /// Advances the active lanes exactly to time t (s) in steps of dt (the last one shortened), as
  /// Simulation::advanceTo. A lane that diverges stops at its last good state and leaves the
  /// batch (divergence(lane)); the others go on. Returns whether some lane is still active.
  bool advanceTo(double t);

  /// The batch's present time (s): that of every active lane.
  double time() const { return m_t; }
  /// Lane `lane`'s time: the batch's, or where it diverged.
  double time(int lane) const { return m_laneTime[static_cast<std::size_t>(lane)]; }
  bool active(int lane) const { return !m_divergence[static_cast<std::size_t>(lane)]; }
  const std::optional<Divergence>& divergence(int lane) const { return m_divergence[static_cast<std::size_t>(lane)]; }
  long stepsTaken(int lane) const { return m_steps[static_cast<std::size_t>(lane)]; }
  /// Lane `lane`'s q and qd (resized to nq, nv).
  void state(int lane, Eigen::VectorXd& q, Eigen::VectorXd& qd) const;
  /// Kinetic and potential energy of lane `lane`'s present state (J): those the divergence
  /// check computed (BatchTree::kineticPotential).
  double kinetic(int lane) const { return m_kinetic[lane]; }
  double potential(int lane) const { return m_potential[lane]; }

 private:
  void accel(const std::vector<Lanes>& q, const std::vector<Lanes>& qd, std::vector<Lanes>& qdd);
  void step(double h);
  void commit(double h);
  const Model& m_model;
  SimulationOptions m_opt;
  BatchTree m_tree;
  bool m_project = false;
  double m_t = 0.0;
  double m_energyScale = 1.0;  // M g x 1 m + 1 J (SimulationOptions::undrivenEnergyGrowthLimit)
  std::vector<Lanes> m_q, m_qd, m_q1, m_qd1, m_kq[4], m_kv[4];
  Lanes m_kinetic{}, m_potential{}, m_e0{}, m_target{};
  std::vector<double> m_laneTime;
  std::vector<long> m_steps;
  std::vector<std::optional<Divergence>> m_divergence;
};

}  // namespace art
