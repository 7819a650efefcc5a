// The stepping system interface and its kinematic-tree implementation (see system.h).
#include "articulate/system.h"

#include <stdexcept>

namespace art {

std::string System::positionName(int i) const { return "q[" + std::to_string(i) + "]"; }
std::string System::velocityName(int i) const { return "v[" + std::to_string(i) + "]"; }

TreeSystem::TreeSystem(std::shared_ptr<const Model> model, const SimulationOptions& options)
    : m_model(std::move(model)), m_sim(*m_model, options), m_data(*m_model) {}

std::string TreeSystem::positionName(int i) const {
  return System::positionName(i) + (i < m_model->nb ? " " + m_model->names[i] : "");
}

std::string TreeSystem::velocityName(int i) const {
  return "qd[" + std::to_string(i) + "]" + (i < m_model->nb ? " " + m_model->names[i] : "");
}

void TreeSystem::setState(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  m_sim.setState(t, q, v);
}

void TreeSystem::reset() { m_sim.setState(0.0, m_model->q0, m_model->qd0); }

EnergySample TreeSystem::energy() {
  const EnergyMomentum e = m_sim.energy();
  return {e.kinetic, e.potential};
}

void TreeSystem::bodyPoses(const Eigen::VectorXd& q, std::vector<BodyPose>& poses) {
  forwardKinematics(*m_model, m_data, q);
  poses.resize(m_model->nb);
  for (int i = 0; i < m_model->nb; ++i) poses[i] = bodyPose(*m_model, m_data, i);
}

}  // namespace art
