#pragma once
// System: what the simulator, the recorder, the plots and the viewport need from a
// formulation (spec/formulations.md section C, the stepping and display part): state sizes
// (position and velocity sizes may differ: a quaternion against an angular velocity), state
// get/set, one integration step with divergence detection, energies, names of the state's
// components, and body poses for the viewport. The kinematic tree (TreeSystem) and the free
// rigid body with floor impacts (RigidBodySystem) implement it; the solver-facing parts (mass
// matrix, constraint Jacobians) come with the natural-coordinate formulation.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "articulate/dynamics.h"
#include "articulate/rigid_body.h"
#include "articulate/simulation.h"

namespace art {

/// Kinetic and potential energy (J).
struct EnergySample {
  double kinetic = 0.0, potential = 0.0;
};

class System {
 public:
  virtual ~System() = default;
  /// Sizes of the position state q and the velocity state v.
  virtual int positionSize() const = 0;
  virtual int velocitySize() const = 0;
  /// Where unit quaternions (w, x, y, z) start inside q: playback interpolates them by slerp.
  virtual std::vector<int> quaternionBlocks() const { return {}; }
  /// Readable names of q's and v's components, e.g. "q[1] link2", "v[2] wz".
  virtual std::string positionName(int i) const;
  virtual std::string velocityName(int i) const;

  /// Current time (s) and state.
  virtual double time() const = 0;
  virtual const Eigen::VectorXd& positions() const = 0;
  virtual const Eigen::VectorXd& velocities() const = 0;
  /// Sets the state. Throws std::invalid_argument on a size mismatch.
  virtual void setState(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v) = 0;
  /// Back to the initial state at t = 0.
  virtual void reset() = 0;
  /// One integration step. Returns false (staying at the last good state) on divergence.
  virtual bool step() = 0;
  /// Why it stopped stepping, if it did.
  virtual const std::optional<Divergence>& divergence() const = 0;
  /// Energies at the current state.
  virtual EnergySample energy() = 0;

  /// Number of bodies the viewport draws (the body indices of the display model).
  virtual int bodies() const = 0;
  /// Poses (base/world coordinates) of every body at positions q; `poses` is resized.
  virtual void bodyPoses(const Eigen::VectorXd& q, std::vector<BodyPose>& poses) = 0;
};

/// A kinematic tree integrated by art::Simulation (its controllers, forces, constraints and
/// contact included). q and v are the joint positions and velocities.
class TreeSystem : public System {
 public:
  /// Throws std::invalid_argument for bad options (see Simulation).
  TreeSystem(std::shared_ptr<const Model> model, const SimulationOptions& options);
  int positionSize() const override { return m_model->nq(); }
  int velocitySize() const override { return m_model->nv(); }
  /// Free joints' quaternions: [x y z qw qx qy qz] starting at the joint's qIndex.
  std::vector<int> quaternionBlocks() const override;
  std::string positionName(int i) const override;
  std::string velocityName(int i) const override;
  double time() const override { return m_sim.time(); }
  const Eigen::VectorXd& positions() const override { return m_sim.q(); }
  const Eigen::VectorXd& velocities() const override { return m_sim.qd(); }
  void setState(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v) override;
  void reset() override;
  bool step() override { return m_sim.step(); }
  const std::optional<Divergence>& divergence() const override { return m_sim.divergence(); }
  EnergySample energy() override;
  int bodies() const override { return m_model->nb; }
  void bodyPoses(const Eigen::VectorXd& q, std::vector<BodyPose>& poses) override;
  const Simulation& simulation() const { return m_sim; }

 private:
  std::shared_ptr<const Model> m_model;
  Simulation m_sim;
  Data m_data;  // for bodyPoses
};

/// One free rigid body with floor impacts (RigidBody), integrated with RK4 at the step `h`
/// and sampled every `period` seconds (one step() = period / h RK4 steps, rounded up).
/// q = [centre of mass x y z (m), orientation quaternion w x y z]; v = [centre-of-mass velocity
/// (m/s), angular velocity (rad/s)], world coordinates.
class RigidBodySystem : public System {
 public:
  /// Throws ModelError for an invalid spec and std::invalid_argument for h or period <= 0.
  explicit RigidBodySystem(const RigidBodySpec& spec, double h = 2.0 / 810000,
                           double period = 1e-3);
  int positionSize() const override { return 7; }
  int velocitySize() const override { return 6; }
  std::vector<int> quaternionBlocks() const override { return {3}; }
  std::string positionName(int i) const override;
  std::string velocityName(int i) const override;
  double time() const override { return m_body.time(); }
  const Eigen::VectorXd& positions() const override { return m_q; }
  const Eigen::VectorXd& velocities() const override { return m_v; }
  void setState(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v) override;
  void reset() override;
  bool step() override;
  const std::optional<Divergence>& divergence() const override { return m_divergence; }
  EnergySample energy() override;
  int bodies() const override { return 1; }
  void bodyPoses(const Eigen::VectorXd& q, std::vector<BodyPose>& poses) override;
  const RigidBody& body() const { return m_body; }

 private:
  RigidBodySpec m_spec;
  RigidBody m_body;
  double m_h, m_period;
  Eigen::VectorXd m_q, m_v;
  std::optional<Divergence> m_divergence;
  void readState();
};

/// A one-body tree that draws a rigid body (its appearance on body 0, its base appearance),
/// for the viewport, with a camera tracking the body from 4 times the default distance; the
/// body's pose comes from RigidBodySystem::bodyPoses.
ModelSpec displayModel(const RigidBodySpec& spec);

}  // namespace art
