// Ground contact of spatial_v2 (gcPosVel + gcontact + Fpt): contact-point kinematics by an
// outward pass, the nonlinear spring-damper law with tangential deformation and friction cone
// per point, and the reactions as external body forces [p x f; f] in base coordinates.
#include "articulate/dynamics/contact.h"

#include <cmath>

#include "detail.h"

namespace art {

namespace {

// body velocities (body coordinates) by the outward pass, with Xup and X0
template <class A, bool Free>
void velocityPass(const Model& m, Data& d, const VecRef& q, const VecRef& qd) {
  using Vec = typename A::Vec;
  auto& w = d.ws<A>();
  for (int i = 0; i < m.nb; ++i) {
    detail::updateXup<A, Free>(m, w, i, q, true);
    const Vec vJ = detail::jointVelocity<A, Free>(m, i, qd);
    w.v[i] = m.parent[i] < 0 ? vJ : Vec(w.Xup[i].apply(w.v[m.parent[i]]) + vJ);
  }
}

// after velocityPass: position and velocity of body b's point pt (body coordinates) in base
// coordinates (planar: z = 0); with a radius r > 0, of the lowest point of the sphere of
// radius r about pt (the point r below it along the ground's normal, z or planar y), which
// moves with the body as the material point there
template <class A>
void pointKinematics(Data& d, int b, const Vec3& pt, Vec3& position, Vec3& velocity, double r = 0.0) {
  using Vec = typename A::Vec;
  auto& w = d.ws<A>();
  const auto& X0 = w.X0[b];
  const Vec v0 = X0.applyInverse(w.v[b]);  // body velocity in base coordinates
  if constexpr (A::dim == 6) {
    position = X0.E.transpose() * pt + X0.r;
    position.z() -= r;
    velocity = v0.template tail<3>() + v0.template head<3>().cross(position);
  } else {
    Vec2 p = X0.E().transpose() * pt.head<2>() + X0.r;
    p.y() -= r;
    position << p.x(), p.y(), 0.0;
    velocity << v0(1) - v0(0) * p.y(), v0(2) + v0(0) * p.x(), 0.0;
  }
}

// contact-point positions and velocities in base coordinates (planar: z = 0)
template <class A, bool Free>
void pointMotion(const Model& m, Data& d, ContactData& cd, const VecRef& q, const VecRef& qd) {
  velocityPass<A, Free>(m, d, q, qd);
  Vec3 position, velocity;
  for (std::size_t k = 0; k < m.contacts.size(); ++k) {
    pointKinematics<A>(d, m.contacts[k].body, m.contacts[k].point, position, velocity, m.contacts[k].radius);
    const auto col = static_cast<Eigen::Index>(k);
    cd.position.col(col) = position;
    cd.velocity.col(col) = velocity;
  }
}

// body b's centre of mass, body coordinates, from its spatial (planar) inertia; the origin for
// a body without mass
Vec3 centreOfMass(const Model& m, int b) {
  if (m.arithmetic == Arithmetic::Spatial) {
    const Mat6& I = m.spatial.I[static_cast<std::size_t>(b)];
    const double mass = I(3, 3);
    if (!(mass > 0.0)) return Vec3::Zero();
    const Mat3 mc = I.topRightCorner<3, 3>();  // m skew(c)
    return Vec3(mc(2, 1), mc(0, 2), mc(1, 0)) / mass;
  }
  const Mat3& I = m.planar.I[static_cast<std::size_t>(b)];
  const double mass = I(1, 1);
  if (!(mass > 0.0)) return Vec3::Zero();
  return Vec3(I(0, 2) / mass, -I(0, 1) / mass, 0.0);
}

}  // namespace

BodyPointMotion bodyPointMotion(const Model& m, Data& d, int body, const Vec3& point,
                                const VecRef& q, const VecRef& qd) {
  detail::checkSize("bodyPointMotion", "q", q.size(), m.nq());
  detail::checkSize("bodyPointMotion", "qd", qd.size(), m.nv());
  if (body < 0 || body >= m.nb)
    throw std::invalid_argument("bodyPointMotion: body " + std::to_string(body) +
                                " is not a body of the model (" + std::to_string(m.nb) + ")");
  BodyPointMotion out;
  const Vec3 com = centreOfMass(m, body);
  detail::dispatchTree(m, [&](auto arith, auto free) {
    using A = decltype(arith);
    velocityPass<A, decltype(free)::value>(m, d, q, qd);
    pointKinematics<A>(d, body, point, out.position, out.velocity);
    pointKinematics<A>(d, body, com, out.com, out.comVelocity);
  });
  return out;
}

std::vector<double> groundHeights(const Model& m, Data& d, const VecRef& q) {
  std::vector<double> heights;
  const Eigen::VectorXd rest = Eigen::VectorXd::Zero(m.nv());
  const int up = m.arithmetic == Arithmetic::Spatial ? 2 : 1;
  for (const ContactPointSpec& c : m.contacts)
    heights.push_back(bodyPointMotion(m, d, c.body, c.point, q, rest).position(up) - c.radius);
  return heights;
}

int contactStateSize(const Model& model) {
  return static_cast<int>(model.contacts.size()) *
         (model.arithmetic == Arithmetic::Spatial ? 3 : 2);
}

Eigen::VectorXd startingContactState(const Model& m, Data& d, const VecRef& q) {
  detail::checkSize("startingContactState", "q", q.size(), m.nq());
  Eigen::VectorXd u = Eigen::VectorXd::Zero(contactStateSize(m));
  const std::vector<double> heights = groundHeights(m, d, q);
  const auto dents = u.size() - static_cast<Eigen::Index>(heights.size());
  for (std::size_t k = 0; k < heights.size(); ++k)
    u(dents + static_cast<Eigen::Index>(k)) = std::max(0.0, -heights[k] - kGroundElasticStartDepth);
  return u;
}

ContactData::ContactData(const Model& model) {
  const auto np = static_cast<Eigen::Index>(model.contacts.size());
  position.setZero(3, np);
  velocity.setZero(3, np);
  force.setZero(3, np);
  udot.setZero(contactStateSize(model));
  fext.setZero(model.arithmetic == Arithmetic::Spatial ? 6 : 3, model.nb);
}

void groundContact(const Model& m, Data& d, ContactData& cd, const VecRef& q, const VecRef& qd,
                   const VecRef& u) {
  detail::checkSize("groundContact", "q", q.size(), m.nq());
  detail::checkSize("groundContact", "qd", qd.size(), m.nv());
  detail::checkSize("groundContact", "u", u.size(), contactStateSize(m));
  const bool spatial = m.arithmetic == Arithmetic::Spatial;
  detail::dispatchTree(m, [&](auto arith, auto free) {
    pointMotion<decltype(arith), decltype(free)::value>(m, d, cd, q, qd);
  });
  const double K = m.ground.stiffness, D = m.ground.damping, mu = m.ground.friction;
  const int nt = spatial ? 2 : 1;  // tangential directions: x, y (spatial) or x (planar)
  const int up = spatial ? 2 : 1;  // normal direction: z (spatial) or y (planar)
  cd.fext.setZero();
  cd.inContact = 0;
  const Eigen::Index np = cd.position.cols();
  for (Eigen::Index k = 0; k < np; ++k) {
    // the dent: the ground's surface under the point is at z = -s and rises at -sd
    const double s = u(nt * np + k);
    const double sd = -kGroundRecoverySpeed * std::min(1.0, std::max(0.0, s) / kGroundRecoveryBlend);
    cd.udot(nt * np + k) = sd;
    // the point's height above that surface, and its rate
    const double z = cd.position(up, k) + std::max(0.0, s), zd = cd.velocity(up, k) + sd;
    const double zr = std::sqrt(std::max(0.0, -z));
    const double fn = zr * (-K * z - D * zd);
    Vec3 f = Vec3::Zero();
    if (!(fn > 0.0)) {
      // out of contact: the ground's deformation relaxes
      for (int j = 0; j < nt; ++j) cd.udot(nt * k + j) = -(K / D) * u(nt * k + j);
      cd.force.col(k).setZero();
      continue;
    }
    ++cd.inContact;
    f(up) = fn;
    // sticking: ft = -zr (K u + D v_t), du/dt = v_t
    double ft[2] = {0.0, 0.0}, mag2 = 0.0;
    for (int j = 0; j < nt; ++j) {
      ft[j] = -zr * (K * u(nt * k + j) + D * cd.velocity(j, k));
      mag2 += ft[j] * ft[j];
      cd.udot(nt * k + j) = cd.velocity(j, k);
    }
    const double limit = mu * fn, mag = std::sqrt(mag2);
    if (mag > limit) {
      // slipping: the force lies on the friction cone and the deformation follows it
      const double scale = mag > 0.0 ? limit / mag : 0.0;
      for (int j = 0; j < nt; ++j) {
        ft[j] *= scale;
        cd.udot(nt * k + j) = -(ft[j] + K * zr * u(nt * k + j)) / (D * zr);
      }
    }
    for (int j = 0; j < nt; ++j) f(j) = ft[j];
    cd.force.col(k) = f;
    // the force f at point p as a body force in base coordinates: [p x f; f]
    const Vec3 p = cd.position.col(k);
    const int b = m.contacts[static_cast<std::size_t>(k)].body;
    if (spatial) {
      cd.fext.col(b).head<3>() += p.cross(f);
      cd.fext.col(b).tail<3>() += f;
    } else {
      cd.fext(0, b) += p.x() * f.y() - p.y() * f.x();
      cd.fext(1, b) += f.x();
      cd.fext(2, b) += f.y();
    }
  }
}

}  // namespace art
