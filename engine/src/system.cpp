// The stepping system interface and its kinematic-tree implementation (see system.h).
#include "articulate/system.h"

#include <cmath>
#include <stdexcept>

#include <Eigen/Geometry>

namespace art {

std::string System::positionName(int i) const { return "q[" + std::to_string(i) + "]"; }
std::string System::velocityName(int i) const { return "v[" + std::to_string(i) + "]"; }

TreeSystem::TreeSystem(std::shared_ptr<const Model> model, const SimulationOptions& options)
    : m_model(std::move(model)), m_sim(*m_model, options), m_data(*m_model) {}

namespace {
// the joint owning position (or velocity) variable i, and the variable's place in it
std::string variableOwner(const Model& m, int i, bool velocity) {
  for (int j = 0; j < m.nb; ++j) {
    const int start = velocity ? m.vIndex[j] : m.qIndex[j];
    const int size = velocity ? m.jointNv(j) : m.jointNq(j);
    if (i >= start && i < start + size) {
      if (size == 1) return " " + m.names[j];
      static const char* const q7[] = {"x", "y", "z", "qw", "qx", "qy", "qz"};
      static const char* const v6[] = {"wx", "wy", "wz", "vx", "vy", "vz"};
      return " " + m.names[j] + "." + (velocity ? v6[i - start] : q7[i - start]);
    }
  }
  return "";
}
}  // namespace

std::string TreeSystem::positionName(int i) const {
  return System::positionName(i) + variableOwner(*m_model, i, false);
}

std::string TreeSystem::velocityName(int i) const {
  return "qd[" + std::to_string(i) + "]" + variableOwner(*m_model, i, true);
}

std::vector<int> TreeSystem::quaternionBlocks() const {
  std::vector<int> blocks;
  for (int j = 0; j < m_model->nb; ++j)
    if (m_model->joints[j].type == JointType::Free) blocks.push_back(m_model->qIndex[j] + 3);
  return blocks;
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

RigidBodySystem::RigidBodySystem(const RigidBodySpec& spec, double h, double period)
    : m_spec(spec), m_body(spec), m_h(h), m_period(period), m_q(7), m_v(6) {
  if (!(h > 0) || !(period > 0) || !std::isfinite(h) || !std::isfinite(period))
    throw std::invalid_argument("RigidBodySystem: the step and the sample period must be > 0");
  readState();
}

std::string RigidBodySystem::positionName(int i) const {
  static const char* const names[] = {"x", "y", "z", "qw", "qx", "qy", "qz"};
  return i >= 0 && i < 7 ? names[i] : System::positionName(i);
}

std::string RigidBodySystem::velocityName(int i) const {
  static const char* const names[] = {"vx", "vy", "vz", "wx", "wy", "wz"};
  return i >= 0 && i < 6 ? names[i] : System::velocityName(i);
}

void RigidBodySystem::readState() {
  const Eigen::Quaterniond o = m_body.state().orientation;
  const Vec3 c = m_body.comPosition(), vc = m_body.comVelocity(), w = m_body.angularVelocity();
  for (int i = 0; i < 3; ++i) {
    m_q(i) = c(i);
    m_v(i) = vc(i);
    m_v(3 + i) = w(i);
  }
  m_q(3) = o.w();
  m_q(4) = o.x();
  m_q(5) = o.y();
  m_q(6) = o.z();
}

void RigidBodySystem::setState(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  if (q.size() != 7 || v.size() != 6)
    throw std::invalid_argument("RigidBodySystem::setState: expected 7 positions and 6 velocities");
  const Eigen::Quaterniond o = Eigen::Quaterniond(q(3), q(4), q(5), q(6)).normalized();
  m_body.setMotion(t, q.head<3>(), o, v.head<3>(), v.tail<3>());
  m_divergence.reset();
  readState();
}

void RigidBodySystem::reset() {
  m_body = RigidBody(m_spec);
  m_divergence.reset();
  readState();
}

bool RigidBodySystem::step() {
  if (m_divergence) return false;
  const RigidBody before = m_body;
  m_body.advanceTo(m_body.time() + m_period, m_h);
  readState();
  for (int i = 0; i < 7; ++i)
    if (!std::isfinite(m_q(i))) {
      m_divergence = Divergence{before.time(), positionName(i),
                                "the simulation diverged after t = " +
                                    std::to_string(before.time()) + " s: " + positionName(i) +
                                    " is not finite"};
      m_body = before;
      readState();
      return false;
    }
  return true;
}

EnergySample RigidBodySystem::energy() {
  const RigidBodyEnergy e = m_body.energy();
  return {e.kinetic, e.potential};
}

void RigidBodySystem::bodyPoses(const Eigen::VectorXd& q, std::vector<BodyPose>& poses) {
  poses.resize(1);
  poses[0].rotation = Eigen::Quaterniond(q(3), q(4), q(5), q(6)).normalized().toRotationMatrix();
  poses[0].position = q.head<3>();  // the shape (and its drawing) is centred on the body origin
}

ModelSpec displayModel(const RigidBodySpec& spec) {
  ModelSpec m;
  m.name = spec.name;
  m.description = spec.description;
  m.gravity = spec.effectiveGravity();
  BodySpec b;
  b.name = spec.name.empty() ? "body" : spec.name;
  b.joint.type = JointType::Rz;  // never moved by a joint: the viewport takes its pose
  b.inertia = InertiaSpec::fromMassComInertia(1.0, Vec3::Zero(), Mat3::Identity());
  b.appearance = spec.effectiveAppearance();
  m.bodies.push_back(b);
  m.baseAppearance = spec.baseAppearance;
  // a small body that travels: follow it, from far enough to see it bounce
  m.camera.body = 0;
  m.camera.zoom = 0.25;
  return m;
}

}  // namespace art
