#pragma once
// A structure in natural coordinates behind the System seam (system.h), so that the
// application simulates, records, plots and shows it like a tree or a rigid body.

#include <memory>

#include "articulate/natural/integrator.h"
#include "articulate/natural/structure.h"
#include "articulate/system.h"

namespace art {

/// q and v are the natural coordinates and their rates (body after body: points and
/// unit-vector components); each step is one step of the structure's integrator (Zhong06 or
/// RK4, ModelSpec-independent settings from the structure's `simulation`).
class StructureSystem : public System {
 public:
  /// Throws std::invalid_argument for a structure that does not build (see natural::Structure).
  explicit StructureSystem(const natural::StructureSpec& spec);
  int positionSize() const override { return m_structure->nq(); }
  int velocitySize() const override { return m_structure->nq(); }
  std::string positionName(int i) const override;
  std::string velocityName(int i) const override;
  double time() const override { return m_sim->time(); }
  const Eigen::VectorXd& positions() const override { return m_sim->q(); }
  const Eigen::VectorXd& velocities() const override { return m_sim->qd(); }
  void setState(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v) override;
  void reset() override;
  bool step() override;
  const std::optional<Divergence>& divergence() const override { return m_divergence; }
  EnergySample energy() override;
  int bodies() const override { return static_cast<int>(m_structure->bodies().size()); }
  /// Each body's frame: its point, and its axes (bars: the axis and two perpendiculars; 2D
  /// bodies in the x-y plane).
  void bodyPoses(const Eigen::VectorXd& q, std::vector<BodyPose>& poses) override;

 private:
  std::unique_ptr<natural::Structure> m_structure;
  std::unique_ptr<natural::StructureSimulation> m_sim;
  std::optional<Divergence> m_divergence;
  std::vector<int> m_owner;  // body of each coordinate
};

/// A tree whose bodies draw a structure's bodies (bars as rods from their point along their
/// axis, rigid bodies as small boxes), for the viewport; poses come from
/// StructureSystem::bodyPoses. Springs and cables are not drawn.
ModelSpec displayModel(const natural::StructureSpec& spec);

}  // namespace art
