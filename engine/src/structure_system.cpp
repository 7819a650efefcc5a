// Natural-coordinate structures behind the System seam (see structure_system.h).
#include "articulate/structure_system.h"

#include <algorithm>
#include <cmath>

namespace art {

StructureSystem::StructureSystem(const natural::StructureSpec& spec)
    : m_structure(std::make_unique<natural::Structure>(spec)),
      m_sim(std::make_unique<natural::StructureSimulation>(*m_structure,
                                                            natural::simulationOptions(spec))) {
  for (std::size_t b = 0; b < m_structure->bodies().size(); ++b)
    for (int i = 0; i < m_structure->bodies()[b].coordinates(); ++i)
      m_owner.push_back(static_cast<int>(b));
}

std::string StructureSystem::positionName(int i) const {
  const int b = i >= 0 && i < static_cast<int>(m_owner.size()) ? m_owner[i] : -1;
  return System::positionName(i) +
         (b >= 0 ? " " + m_structure->spec().bodies[static_cast<std::size_t>(b)].name : "");
}

std::string StructureSystem::velocityName(int i) const {
  const int b = i >= 0 && i < static_cast<int>(m_owner.size()) ? m_owner[i] : -1;
  return "qd[" + std::to_string(i) + "]" +
         (b >= 0 ? " " + m_structure->spec().bodies[static_cast<std::size_t>(b)].name : "");
}

void StructureSystem::setState(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  m_sim->setState(t, q, v);
  m_divergence.reset();
}

void StructureSystem::reset() {
  m_sim = std::make_unique<natural::StructureSimulation>(
      *m_structure, natural::simulationOptions(m_structure->spec()));
  m_divergence.reset();
}

bool StructureSystem::step() {
  if (m_divergence) return false;
  if (m_sim->step()) return true;
  const std::string why = m_sim->failure() ? *m_sim->failure() : "the step failed";
  m_divergence = Divergence{m_sim->time(), "step",
                            "the simulation stopped at t = " + std::to_string(m_sim->time()) +
                                " s: " + why};
  return false;
}

EnergySample StructureSystem::energy() {
  const natural::StructureEnergy e = m_sim->energy();
  return {e.kinetic, e.potential};
}

void StructureSystem::bodyPoses(const Eigen::VectorXd& q, std::vector<BodyPose>& poses) {
  const auto& bodies = m_structure->bodies();
  poses.resize(bodies.size());
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    const natural::Body& body = bodies[b];
    const int d = body.dimension(), k = body.axes();
    const Eigen::VectorXd x =
        body.canonicalMap() * q.segment(m_structure->bodyOffset(static_cast<int>(b)), body.coordinates());
    // scalar copies: a d-long segment into a Vec3 trips GCC's bounds analysis under AVX
    Vec3 r = Vec3::Zero();
    for (int i = 0; i < d; ++i) r(i) = x(i);
    Mat3 R = Mat3::Identity();
    for (int a = 0; a < k; ++a) {
      R.col(a).setZero();
      for (int i = 0; i < d; ++i) R(i, a) = x(d + a * d + i);
    }
    if (k == 1) {  // a bar: two perpendiculars to its axis (2D: in the plane, then z)
      const Vec3 e1 = R.col(0).normalized();
      Vec3 e2 = d == 2 ? Vec3(-e1.y(), e1.x(), 0)
                       : (std::abs(e1.z()) < 0.9 ? Vec3::UnitZ() : Vec3::UnitX()).cross(e1).normalized();
      R.col(0) = e1;
      R.col(1) = e2;
      R.col(2) = e1.cross(e2);
    } else if (k == 2) {
      R.col(2) = R.col(0).cross(R.col(1));
    }
    poses[b].rotation = R;
    poses[b].position = r;
  }
}

ModelSpec displayModel(const natural::StructureSpec& spec) {
  ModelSpec m;
  m.name = spec.name;
  m.description = spec.description;
  if (spec.dimension == 2) {  // look at the x-y plane, y up
    m.camera.direction = Vec3(0, 0, 1);
    m.camera.up = Vec3(0, 1, 0);
  }
  double scale = 0.0;
  for (const natural::BodySpec& b : spec.bodies) scale = std::max(scale, b.length);
  if (!(scale > 0)) scale = 1.0;
  for (std::size_t i = 0; i < spec.bodies.size(); ++i) {
    const natural::BodySpec& nb = spec.bodies[i];
    BodySpec b;
    b.name = nb.name.empty() ? "body" + std::to_string(i + 1) : nb.name;
    b.joint.type = JointType::Rz;  // never moved by a joint: the viewport takes its pose
    b.inertia = InertiaSpec::fromMassComInertia(1.0, Vec3::Zero(), Mat3::Identity());
    const natural::BodyKind kind = nb.kind;
    if (natural::kindIsBar(kind)) {
      b.appearance = nlohmann::json::array(
          {"cyl", {{0, 0, 0}, {nb.length, 0, 0}}, 0.02 * scale, "sphere", {0, 0, 0}, 0.03 * scale,
           "sphere", {nb.length, 0, 0}, 0.03 * scale});
    } else {
      const double s = 0.08 * scale;
      b.appearance = nlohmann::json::array({"box", {{-s, -s, -s}, {s, s, s}}});
    }
    m.bodies.push_back(b);
  }
  return m;
}

}  // namespace art
