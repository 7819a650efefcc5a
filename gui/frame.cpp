// One frame's content from a System (see frame.h).
#include "frame.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "articulate/dynamics/constraints.h"

namespace art::gui {

namespace {

// mass (kg) and centre of mass (body coordinates, m) of a body's inertia
void massOf(const InertiaSpec& in, double& mass, Vec3& com) {
  if (!in.raw) {
    mass = in.mass;
    com = in.com;
    return;
  }
  mass = in.matrix(5, 5);
  com = mass > 0 ? Vec3(Vec3(in.matrix(2, 4), in.matrix(0, 5), in.matrix(1, 3)) / mass) : Vec3::Zero();
}

Vec3 bodyCom(const ModelSpec& display, const std::vector<BodyPose>& poses, std::size_t body) {
  double m = 0;
  Vec3 c = Vec3::Zero();
  massOf(display.bodies[body].inertia, m, c);
  return poses[body].position + poses[body].rotation * c;
}

void addContactReport(const ContactReport& c, Annotations& out) {
  const bool loaded = c.normalForce > 0 || c.frictionForce.squaredNorm() > 0;
  if (!loaded && c.distance > 0) return;
  out.contactPoints.push_back(c.position);
  if (c.normalForce > 0) out.arrows.push_back({ForceArrow::Kind::ContactNormal, c.position, c.normalForce * c.normal});
  if (c.frictionForce.squaredNorm() > 0) out.arrows.push_back({ForceArrow::Kind::ContactFriction, c.position, c.frictionForce});
}

void addContacts(System& system, const Recording* recording, double t, const Eigen::VectorXd& q,
                 const Eigen::VectorXd& qd, Annotations& out) {
  std::vector<ContactReport> contacts;
  if (auto* tree = dynamic_cast<TreeSystem*>(&system); tree && !tree->model().geoms.empty()) {
    // body-body contact (geoms): found at the state, its forces on geom2 (the body above, for
    // a floor plane) from the soft solve there
    system.setState(t, q, qd);
    system.bodyContacts(contacts);
    for (const ContactReport& c : contacts) addContactReport(c, out);
  }
  if (system.contactSize() == 0) return;
  // the ground's deformation and dents as recorded at t (a tree's friction springs): without
  // them, the friction a sticking foot carries would not show; without a recording, the
  // contact state a simulation set there would start from (dents under points deep inside)
  system.setState(t, q, qd);  // formulations that report the contact of their current state
  Eigen::VectorXd w(system.auxiliarySize());
  system.auxiliaryState(w);
  if (recording && !recording->empty() && recording->auxiliarySize() == system.auxiliarySize())
    w = recording->auxiliary(recording->indexAt(t));
  system.evaluate(t, q, qd, w);
  system.contacts(contacts);
  for (const ContactReport& c : contacts) addContactReport(c, out);
}

std::string forceText(const std::string& name, double value, bool rotational) {
  char buf[128];
  std::snprintf(buf, sizeof buf, "%s: %.3g %s", name.c_str(), value, rotational ? "N m" : "N");
  return buf;
}

void addConstraintForces(System& system, const std::vector<BodyPose>& poses, double t,
                         const Eigen::VectorXd& q, const Eigen::VectorXd& qd, Annotations& out) {
  auto* tree = dynamic_cast<TreeSystem*>(&system);
  if (!tree || tree->constraintSize() == 0) return;
  const Model& model = tree->model();
  Eigen::VectorXd lambda(tree->constraintSize());
  tree->evaluate(t, q, qd);
  tree->constraintForces(lambda);
  const ConstraintData rows(model);
  const bool planar = model.arithmetic == Arithmetic::Planar;
  auto place = [&](int body, const Vec3& point) -> Vec3 {
    if (body < 0 || body >= static_cast<int>(poses.size())) return point;
    const BodyPose& p = poses[static_cast<std::size_t>(body)];
    return p.position + p.rotation * point;
  };
  for (std::size_t k = 0; k < model.constraints.size(); ++k) {
    const ConstraintSpec& c = model.constraints[k];
    const int r = rows.row[k];
    const std::string name = c.name.empty() ? "constraint" + std::to_string(k) : c.name;
    if (c.type == ConstraintSpec::Type::Loop) {
      // the force on body A at its point (base coordinates); B feels its opposite there
      const Vec3 f = planar ? Vec3(lambda(r), lambda(r + 1), 0.0) : Vec3(lambda.segment<3>(r));
      out.arrows.push_back({ForceArrow::Kind::Constraint, place(c.bodyA, c.pointA), f});
    } else {
      const bool rotational = isRotational(model.joints[static_cast<std::size_t>(c.joint)].type);
      out.labels.push_back({place(c.joint, Vec3::Zero()), forceText(name, lambda(r), rotational)});
    }
  }
}

void addTrails(System& system, const ModelSpec& display, const Recording& recording, double t,
               const Overlays& overlays, Annotations& out) {
  if (recording.empty() || recording.positionSize() != system.positionSize()) return;
  const double start = std::max(recording.startTime(), t - overlays.trailSeconds);
  const double end = std::min(t, recording.endTime());
  if (!(end > start)) return;
  // evenly in time, never finer than the recording's own samples
  const std::size_t samples = recording.indexAt(end) - recording.indexAt(start) + 1;
  const int n = static_cast<int>(std::clamp<std::size_t>(samples, 2, kTrailPoints));
  std::vector<Trail> trails;
  for (int body : overlays.trailBodies)
    if (body >= 0 && body < system.bodies() && body < static_cast<int>(display.bodies.size()))
      trails.push_back({body, {}, {}});
  if (trails.empty()) return;
  Eigen::VectorXd q, qd;
  std::vector<BodyPose> poses;
  for (int i = 0; i < n; ++i) {
    const double ti = start + (end - start) * i / (n - 1);
    recording.stateAt(ti, q, qd);
    system.bodyPoses(q, poses);
    for (Trail& trail : trails) {
      trail.points.push_back(bodyCom(display, poses, static_cast<std::size_t>(trail.body)));
      trail.ages.push_back(t - ti);
    }
  }
  for (Trail& trail : trails) out.trails.push_back(std::move(trail));
}

}  // namespace

void computeFrame(System& system, const ModelSpec& display, const Recording* recording, double t,
                  const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                  const std::optional<Perturbation>& perturbation, const Overlays& overlays,
                  FrameContent& out) {
  system.bodyPoses(q, out.poses);
  static const Eigen::VectorXd none;  // velocities unknown: the elastic tension alone
  const bool velocities = qd.size() == system.velocitySize();
  system.segments(q, velocities ? qd : none, out.segments);
  out.annotations = Annotations();
  const auto& poses = out.poses;
  const bool perturbed = perturbation && perturbation->body >= 0 &&
                         perturbation->body < static_cast<int>(poses.size());
  // the mouse's pull: a spring from the grabbed point, where it is shown, to its target
  if (perturbed) {
    const BodyPose& pose = poses[static_cast<std::size_t>(perturbation->body)];
    SegmentReport pull;
    pull.kind = SegmentReport::Kind::Spring;
    pull.a = pose.position + pose.rotation * perturbation->point;
    pull.b = perturbation->target;
    pull.tension = perturbation->stiffness * (pull.b - pull.a).norm();
    out.segments.push_back(pull);
  }
  if (!velocities || q.size() != system.positionSize()) return;  // no state to evaluate
  if (overlays.contactForces) {
    addContacts(system, recording, t, q, qd, out.annotations);
    if (perturbed && !perturbation->torque) {
      // the pull as the dynamics feel it (spring and damper), at the grabbed point
      system.setState(t, q, qd);
      system.setPerturbation(perturbation);
      if (const auto load = system.perturbationLoad())
        out.annotations.arrows.push_back({ForceArrow::Kind::Perturbation, load->point, load->force});
      system.setPerturbation(std::nullopt);
    }
  }
  if (overlays.constraintForces) addConstraintForces(system, poses, t, q, qd, out.annotations);
  if (overlays.systemCom && !display.bodies.empty()) {
    double total = 0;
    Vec3 sum = Vec3::Zero();
    for (std::size_t b = 0; b < display.bodies.size() && b < poses.size(); ++b) {
      double m = 0;
      Vec3 c = Vec3::Zero();
      massOf(display.bodies[b].inertia, m, c);
      total += m;
      sum += m * (poses[b].position + poses[b].rotation * c);
    }
    if (total > 0) out.annotations.systemCom = sum / total;
  }
  if (overlays.trails && recording) addTrails(system, display, *recording, t, overlays, out.annotations);
}

}  // namespace art::gui
