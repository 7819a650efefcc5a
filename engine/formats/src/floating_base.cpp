// Six-joint floating bases (spatial_v2 floatbase) to free joints. The free body's pose and
// velocity come from the six-joint model's own kinematics (X0 and the body velocity of the Rz
// body), so any placements of the chain convert exactly.
#include "articulate/formats/floating_base.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

#include <Eigen/Geometry>

#include "articulate/dynamics/dynamics.h"
#include "articulate/model/edit.h"

namespace art {

namespace {

// the chain of six bodies (Px .. Rz) starting at each body on the base, when it qualifies
std::vector<std::array<int, 6>> findChains(const ModelSpec& s) {
  std::vector<std::array<int, 6>> chains;
  if (s.arithmetic != Arithmetic::Spatial) return chains;
  const int nb = static_cast<int>(s.bodies.size());
  static const JointType kTypes[6] = {JointType::Px, JointType::Py, JointType::Pz,
                                      JointType::Rx, JointType::Ry, JointType::Rz};
  auto children = [&](int b) {
    std::vector<int> c;
    for (int i = 0; i < nb; ++i)
      if (s.bodies[i].parent == b) c.push_back(i);
    return c;
  };
  auto referenced = [&](int b) {
    if (s.camera.body == b) return true;
    for (const ContactPointSpec& c : s.contacts)
      if (c.body == b) return true;
    for (const ExternalForceSpec& f : s.forces)
      if (f.body == b) return true;
    for (const SiteSpec& site : s.sites)
      if (site.body == b) return true;
    for (const ConstraintSpec& c : s.constraints)
      if (c.joint == b || c.master == b || c.bodyA == b || c.bodyB == b) return true;
    return false;
  };
  for (int first = 0; first < nb; ++first) {
    if (s.bodies[first].parent != -1) continue;
    std::array<int, 6> chain{};
    bool ok = true;
    int b = first;
    for (int k = 0; k < 6 && ok; ++k) {
      const BodySpec& body = s.bodies[b];
      chain[k] = b;
      ok = body.joint.type == kTypes[k];
      if (!ok || k == 5) break;
      // an intermediate body: massless, invisible, passive, unreferenced, with one child
      const std::vector<int> c = children(b);
      ok = c.size() == 1 && body.inertia.spatial().isZero(0) && body.appearance.is_array() &&
           body.appearance.empty() && body.control.type == ControlSpec::Type::None &&
           !referenced(b);
      if (ok) b = c[0];
    }
    // a Rz body under a coupling constraint would lose its joint variable
    if (ok)
      for (const ConstraintSpec& c : s.constraints)
        if (c.type == ConstraintSpec::Type::Coupling && (c.joint == b || c.master == b)) ok = false;
    if (ok && s.bodies[chain[5]].control.type != ControlSpec::Type::None) ok = false;
    if (ok) chains.push_back(chain);
  }
  return chains;
}

}  // namespace

bool hasFloatingBases(const ModelSpec& spec) { return !findChains(spec).empty(); }

void convertFloatingBaseMotion(const ModelSpec& spec, const Eigen::MatrixXd& q,
                               const Eigen::MatrixXd& qd, Eigen::MatrixXd& qOut,
                               Eigen::MatrixXd& qdOut) {
  const Model six = compile(spec);
  if (q.cols() != six.nq() || qd.cols() != six.nv() || q.rows() != qd.rows())
    throw std::invalid_argument("convertFloatingBaseMotion: q needs " +
                                std::to_string(six.nq()) + " columns and qd " +
                                std::to_string(six.nv()) + ", with as many rows");
  const auto chains = findChains(spec);
  std::vector<int> dropped(spec.bodies.size(), 0), freeBody(spec.bodies.size(), 0);
  for (const auto& c : chains) {
    for (int k = 0; k < 5; ++k) dropped[c[k]] = 1;
    freeBody[c[5]] = 1;
  }
  int nq = 0, nv = 0;
  for (std::size_t i = 0; i < spec.bodies.size(); ++i) {
    if (dropped[i]) continue;
    nq += freeBody[i] ? 7 : jointNq(spec.bodies[i].joint.type);
    nv += freeBody[i] ? 6 : jointNv(spec.bodies[i].joint.type);
  }
  qOut.resize(q.rows(), nq);
  qdOut.resize(q.rows(), nv);
  Data d(six);
  Eigen::VectorXd qk(six.nq()), qdk(six.nv());
  for (Eigen::Index k = 0; k < q.rows(); ++k) {
    qk = q.row(k).transpose();
    qdk = qd.row(k).transpose();
    if (!chains.empty()) {
      forwardKinematics(six, d, qk);
      energyMomentum(six, d, qk, qdk);  // leaves the body velocities in d.spatial.v
    }
    int qi = 0, vi = 0;
    for (int i = 0; i < six.nb; ++i) {
      if (dropped[i]) continue;
      if (freeBody[i]) {
        // the free joint's pose: the body's X0 = (E, r), R = E^T; its velocity: the body's own
        const SpatialTransform& X0 = d.spatial.X0[i];
        const Eigen::Quaterniond quat(Mat3(X0.E.transpose()));
        qOut.row(k).segment<3>(qi) = X0.r.transpose();
        qOut.row(k).segment<4>(qi + 3) << quat.w(), quat.x(), quat.y(), quat.z();
        qdOut.row(k).segment<6>(vi) = d.spatial.v[i].transpose();
        qi += 7;
        vi += 6;
      } else {
        const int n = six.jointNq(i), m = six.jointNv(i);
        qOut.row(k).segment(qi, n) = qk.segment(six.qIndex[i], n).transpose();
        qdOut.row(k).segment(vi, m) = qdk.segment(six.vIndex[i], m).transpose();
        qi += n;
        vi += m;
      }
    }
  }
}

void convertFloatingBaseState(const ModelSpec& spec, const Eigen::VectorXd& q,
                              const Eigen::VectorXd& qd, Eigen::VectorXd& qOut,
                              Eigen::VectorXd& qdOut) {
  Eigen::MatrixXd qo, qdo;
  try {
    convertFloatingBaseMotion(spec, q.transpose(), qd.transpose(), qo, qdo);
  } catch (const std::invalid_argument&) {
    const Model six = compile(spec);
    throw std::invalid_argument("convertFloatingBaseState: q needs " + std::to_string(six.nq()) +
                                " entries and qd " + std::to_string(six.nv()));
  }
  qOut = qo.row(0).transpose();
  qdOut = qdo.row(0).transpose();
}

ModelSpec convertFloatingBases(const ModelSpec& spec) {
  const auto chains = findChains(spec);
  if (chains.empty()) return spec;
  const Model six = compile(spec);
  Eigen::VectorXd q, qd;
  convertFloatingBaseState(spec, six.q0, six.qd0, q, qd);
  const int nb = static_cast<int>(spec.bodies.size());
  std::vector<int> dropped(nb, 0), freeBody(nb, 0), newIndex(nb, -1);
  for (const auto& c : chains) {
    for (int k = 0; k < 5; ++k) dropped[c[k]] = 1;
    freeBody[c[5]] = 1;
  }
  ModelSpec out = spec;
  out.bodies.clear();
  int qi = 0, vi = 0;
  for (int i = 0; i < nb; ++i) {
    if (dropped[i]) continue;
    newIndex[i] = static_cast<int>(out.bodies.size());
    BodySpec b = spec.bodies[i];
    if (freeBody[i]) {
      b.parent = -1;
      b.joint = Joint{JointType::Free, 0.0};
      b.rotation.setIdentity();
      b.translation.setZero();
      b.q0 = b.qd0 = 0.0;
      b.freePosition = q.segment<3>(qi);
      b.freeOrientation = q.segment<4>(qi + 3);
      b.freeVelocity = qd.segment<6>(vi);
      qi += 7;
      vi += 6;
    } else {
      b.parent = b.parent < 0 ? -1 : newIndex[b.parent];
      qi += jointNq(b.joint.type);
      vi += jointNv(b.joint.type);
    }
    out.bodies.push_back(std::move(b));
  }
  const std::string emulation =
      "floating base (spatial_v2 floatbase: Px Py Pz Rx Ry Rz joints, 5 massless bodies)";
  const std::size_t at = out.description.find(emulation);
  if (at != std::string::npos) out.description.replace(at, emulation.size(), "floating base (free joint)");
  renumberBodyReferences(out, newIndex);
  return out;
}

ModelSpec expandFreeJoints(const ModelSpec& spec) {
  bool any = false;
  for (const BodySpec& b : spec.bodies) any = any || b.joint.type == JointType::Free;
  if (!any) return spec;
  static const char* const kSuffix[5] = {"_px", "_py", "_pz", "_rx", "_ry"};
  static const JointType kTypes[5] = {JointType::Px, JointType::Py, JointType::Pz, JointType::Rx,
                                      JointType::Ry};
  const int nb = static_cast<int>(spec.bodies.size());
  std::vector<int> newIndex(nb, -1);
  ModelSpec out = spec;
  out.bodies.clear();
  for (int i = 0; i < nb; ++i) {
    BodySpec b = spec.bodies[i];
    b.parent = b.parent < 0 ? -1 : newIndex[b.parent];
    if (b.joint.type == JointType::Free) {
      // the angles of R = Rx(a) Ry(b) Rz(c) and their rates from the body's angular velocity
      const Eigen::Vector4d& o = b.freeOrientation;
      const Mat3 R = Eigen::Quaterniond(o(0), o(1), o(2), o(3)).normalized().toRotationMatrix();
      const double ang[3] = {std::atan2(-R(1, 2), R(2, 2)),
                             std::asin(std::max(-1.0, std::min(1.0, R(0, 2)))),
                             std::atan2(-R(0, 1), R(0, 0))};
      // body angular velocity w = (a' cb cc + b' sc, -a' cb sc + b' cc, a' sb + c'), inverted
      // (a' = 0 at the singularity cb = 0)
      const Vec3 w = b.freeVelocity.head<3>();
      const double sb = std::sin(ang[1]), cb = std::cos(ang[1]);
      const double sc = std::sin(ang[2]), cc = std::cos(ang[2]);
      const double ad = std::abs(cb) > 1e-12 ? (w.x() * cc - w.y() * sc) / cb : 0.0;
      const Vec3 rates(ad, w.x() * sc + w.y() * cc, w.z() - ad * sb);
      const Vec3 pdot = R * b.freeVelocity.tail<3>();
      for (int k = 0; k < 5; ++k) {
        BodySpec e;
        e.name = b.name + kSuffix[k];
        if (spec.findBody(e.name) >= 0)
          throw std::invalid_argument("expandFreeJoints: a body is already named '" + e.name + "'");
        e.parent = k == 0 ? b.parent : static_cast<int>(out.bodies.size()) - 1;
        e.joint = Joint{kTypes[k], 0.0};
        if (k == 0) {
          e.rotation = b.rotation;
          e.translation = b.translation;
        }
        e.inertia = InertiaSpec::fromMassComInertia(0.0, Vec3::Zero(), Mat3::Zero());
        e.q0 = k < 3 ? b.freePosition(k) : ang[k - 3];
        e.qd0 = k < 3 ? pdot(k) : rates(k - 3);
        out.bodies.push_back(e);
      }
      b.parent = static_cast<int>(out.bodies.size()) - 1;
      b.joint = Joint{JointType::Rz, 0.0};
      b.rotation.setIdentity();
      b.translation.setZero();
      b.q0 = ang[2];
      b.qd0 = rates(2);
      b.freePosition.setZero();
      b.freeOrientation = Eigen::Vector4d(1, 0, 0, 0);
      b.freeVelocity.setZero();
    }
    newIndex[i] = static_cast<int>(out.bodies.size());
    out.bodies.push_back(std::move(b));
  }
  renumberBodyReferences(out, newIndex);
  return out;
}

}  // namespace art
