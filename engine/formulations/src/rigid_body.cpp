// One free rigid body with impacts on a plane: the momentum formulation of
// spec/formulations.md section B, RK4, and projected Gauss-Seidel contact impulses.
#include "articulate/formulations/rigid_body.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "articulate/model/model.h"

namespace art {

namespace {

using Vec4 = Eigen::Vector4d;

constexpr double kPi = 3.14159265358979323846;
constexpr int kMaxCandidates = 8;
// Gauss-Seidel passes stop when no impulse changes by more than this fraction of the largest
// approach momentum (or, in resting contact, of the momentum gravity adds in two steps), or
// after kMaxSweeps passes
constexpr double kSweepTolerance = 1e-11;
constexpr double kRestingTolerance = 1e-4;
// approach speeds below the speed gravity adds in two steps, or below the speed that would
// rebound less than this height (m), are resting contact: cancelled without rebound
constexpr double kRestingRebound = 1e-6;
constexpr int kMaxSweeps = 200;

// |q|^2 times the rotation matrix of a quaternion given as coefficients (x, y, z, w) that need
// not be unit: (w^2 - v.v) I + 2 v v' + 2 w [v]x. No division, so that the rates' dependency
// chain stays short; the caller divides by |q|^2 off that chain.
inline Mat3 scaledRotation(const Vec4& q) {
  const double x = q(0), y = q(1), z = q(2), w = q(3);
  const double xx = x * x, yy = y * y, zz = z * z, ww = w * w;
  const double x2 = 2.0 * x, y2 = 2.0 * y, z2 = 2.0 * z;
  const double xy = x2 * y, xz = x2 * z, yz = y2 * z, wx = x2 * w, wy = y2 * w, wz = z2 * w;
  Mat3 R;
  R(0, 0) = (ww + xx) - (yy + zz);
  R(1, 1) = (ww - xx) + (yy - zz);
  R(2, 2) = (ww - xx) - (yy - zz);
  R(0, 1) = xy - wz;
  R(1, 0) = xy + wz;
  R(0, 2) = xz + wy;
  R(2, 0) = xz - wy;
  R(1, 2) = yz - wx;
  R(2, 1) = yz + wx;
  return R;
}

// the response of a contact point (defined below)
inline Mat3 responseMatrix(const Vec3& r, const Vec3& D, double invMass);

bool finite(const Vec3& v) { return v.allFinite(); }

void requirePositive(double v, const char* field, const char* unit) {
  if (!std::isfinite(v) || v <= 0)
    throw ModelError(field, std::string("must be a finite number > 0 (") + unit + ")");
}

}  // namespace

const char* shapeTypeName(ShapeSpec::Type type) {
  switch (type) {
    case ShapeSpec::Type::Box:
      return "box";
    case ShapeSpec::Type::Cylinder:
      return "cylinder";
    case ShapeSpec::Type::Sphere:
      return "sphere";
  }
  return "sphere";
}

bool parseShapeType(const std::string& name, ShapeSpec::Type& out) {
  for (ShapeSpec::Type t :
       {ShapeSpec::Type::Box, ShapeSpec::Type::Cylinder, ShapeSpec::Type::Sphere})
    if (name == shapeTypeName(t)) {
      out = t;
      return true;
    }
  return false;
}

double shapeVolume(const ShapeSpec& shape) {
  switch (shape.type) {
    case ShapeSpec::Type::Box:
      return shape.size.x() * shape.size.y() * shape.size.z();
    case ShapeSpec::Type::Cylinder:
      return kPi * shape.radius * shape.radius * shape.length;
    case ShapeSpec::Type::Sphere:
      return 4.0 / 3.0 * kPi * shape.radius * shape.radius * shape.radius;
  }
  return 0.0;
}

Vec3 shapeUnitInertia(const ShapeSpec& shape) {
  switch (shape.type) {
    case ShapeSpec::Type::Box: {
      const Vec3 s2 = shape.size.cwiseProduct(shape.size);
      return Vec3(s2.y() + s2.z(), s2.x() + s2.z(), s2.x() + s2.y()) / 12.0;
    }
    case ShapeSpec::Type::Cylinder: {
      const double r2 = shape.radius * shape.radius;
      const double across = (3.0 * r2 + shape.length * shape.length) / 12.0;
      return Vec3(across, across, r2 / 2.0);
    }
    case ShapeSpec::Type::Sphere:
      return Vec3::Constant(0.4 * shape.radius * shape.radius);
  }
  return Vec3::Zero();
}

nlohmann::json shapeAppearance(const ShapeSpec& shape) {
  using nlohmann::json;
  switch (shape.type) {
    case ShapeSpec::Type::Box: {
      const Vec3 h = 0.5 * shape.size;
      return json::array({"box", {{-h.x(), -h.y(), -h.z()}, {h.x(), h.y(), h.z()}}});
    }
    case ShapeSpec::Type::Cylinder: {
      const double h = 0.5 * shape.length;
      return json::array({"facets", 48, "cyl", {{0.0, 0.0, -h}, {0.0, 0.0, h}}, shape.radius});
    }
    case ShapeSpec::Type::Sphere:
      return json::array({"sphere", {0.0, 0.0, 0.0}, shape.radius});
  }
  return json::array();
}

double RigidBodySpec::effectiveMass() const {
  if (mass) return *mass;
  if (density) return *density * shapeVolume(shape);
  return 0.0;
}

RigidBody::RigidBody(const RigidBodySpec& spec) : m_shape(spec.shape) {
  // shape and mass properties
  switch (m_shape.type) {
    case ShapeSpec::Type::Box:
      for (int k = 0; k < 3; ++k) requirePositive(m_shape.size(k), "shape.size", "m");
      break;
    case ShapeSpec::Type::Cylinder:
      requirePositive(m_shape.radius, "shape.radius", "m");
      requirePositive(m_shape.length, "shape.length", "m");
      break;
    case ShapeSpec::Type::Sphere:
      requirePositive(m_shape.radius, "shape.radius", "m");
      break;
  }
  if (spec.mass && spec.density)
    throw ModelError("mass", "give either 'mass' or 'density', not both");
  if (!spec.mass && !spec.density) throw ModelError("", "needs 'mass' (kg) or 'density' (kg/m^3)");
  if (spec.mass) requirePositive(*spec.mass, "mass", "kg");
  if (spec.density) requirePositive(*spec.density, "density", "kg/m^3");
  m_mass = spec.effectiveMass();
  requirePositive(m_mass, spec.mass ? "mass" : "density", spec.mass ? "kg" : "kg/m^3");
  m_invMass = 1.0 / m_mass;
  m_inertia = m_mass * shapeUnitInertia(m_shape);
  m_invInertia = m_inertia.cwiseInverse();
  if (!m_inertia.allFinite() || !m_invInertia.allFinite() || (m_inertia.array() <= 0).any())
    throw ModelError("shape", "gives a singular inertia");
  if (!finite(spec.referencePoint)) throw ModelError("reference_point", "must be finite");
  m_refBody = spec.referencePoint;
  m_comBody = -m_refBody;
  m_offset = !m_refBody.isZero(0);
  // gravity and floor
  m_gravity = spec.effectiveGravity();
  if (!finite(m_gravity)) throw ModelError("gravity", "must be finite");
  m_weight = m_mass * m_gravity;
  if (spec.floor) {
    const FloorSpec& f = *spec.floor;
    if (!finite(f.origin)) throw ModelError("floor.origin", "must be finite");
    if (!finite(f.normal) || f.normal.norm() == 0)
      throw ModelError("floor.normal", "must be finite and nonzero");
    if (!(f.restitution >= 0 && f.restitution <= 1))
      throw ModelError("floor.restitution", "must be in [0, 1]");
    if (!std::isfinite(f.friction) || f.friction < 0)
      throw ModelError("floor.friction", "must be a finite number >= 0");
    if (!std::isfinite(f.rollingResistance) || f.rollingResistance < 0)
      throw ModelError("floor.rolling_resistance", "must be a finite number >= 0 (m)");
    m_hasFloor = true;
    m_origin = f.origin;
    m_normal = f.normal.normalized();
    m_planeOffset = m_normal.dot(m_origin);
    m_floorAlongZ = m_normal == Vec3::UnitZ();
    m_restitution = f.restitution;
    m_friction = f.friction;
    m_rolling = f.rollingResistance;
    m_gravityIntoFloor = std::max(0.0, -m_normal.dot(m_gravity));
    m_reboundSpeed = std::sqrt(2.0 * m_gravityIntoFloor * kRestingRebound);
    double shapeRadius = m_shape.radius;  // sphere
    if (m_shape.type == ShapeSpec::Type::Box)
      shapeRadius = 0.5 * m_shape.size.norm();
    else if (m_shape.type == ShapeSpec::Type::Cylinder)
      shapeRadius = std::hypot(m_shape.radius, 0.5 * m_shape.length);
    m_boundRadius = (shapeRadius + m_comBody.norm()) * (1.0 + 1e-9);
    if (m_shape.type == ShapeSpec::Type::Cylinder)
      for (int k = 0; k < 2; ++k) {
        const double z = (k ? 0.5 : -0.5) * m_shape.length;
        m_rimK[k] = responseMatrix(Vec3(m_shape.radius, 0, z), m_invInertia, m_invMass);
        m_rimKinv[k] = m_rimK[k].inverse();
      }
  }
  // initial state
  if (!finite(spec.position)) throw ModelError("initial.position", "must be finite");
  if (!isProperRotation(spec.rotation))
    throw ModelError("initial.rotation",
                     "is not a proper rotation matrix (orthonormal, determinant +1)");
  if (!finite(spec.velocity)) throw ModelError("initial.velocity", "must be finite");
  if (!finite(spec.angularVelocity)) throw ModelError("initial.angular_velocity", "must be finite");
  setMotion(0.0, spec.position, Eigen::Quaterniond(spec.rotation), spec.velocity,
            spec.angularVelocity);
}

void RigidBody::setState(double t, const RigidBodyState& state) {
  if (!std::isfinite(t) || !finite(state.position) || !state.orientation.coeffs().allFinite() ||
      !finite(state.momentum) || !finite(state.angularMomentum))
    throw std::invalid_argument("RigidBody::setState: the time and state must be finite");
  if (state.orientation.norm() == 0)
    throw std::invalid_argument("RigidBody::setState: the orientation quaternion is zero");
  m_t = t;
  m_s = state;
  m_s.orientation.normalize();
  m_q = m_s.orientation.coeffs();
  m_lastPenetration = 0.0;
  m_lastContacts = 0;
  m_warmValid = false;
}

void RigidBody::setMotion(double t, const Vec3& comPosition, const Eigen::Quaterniond& orientation,
                          const Vec3& comVelocity, const Vec3& angularVelocity) {
  if (!orientation.coeffs().allFinite() || orientation.norm() == 0)
    throw std::invalid_argument(
        "RigidBody::setMotion: the orientation must be a finite nonzero quaternion");
  RigidBodyState s;
  s.orientation = orientation.normalized();
  const Mat3 R = s.orientation.toRotationMatrix();
  const Vec3 c = R * m_comBody;
  s.position = comPosition - c;
  s.momentum = m_mass * comVelocity;
  s.angularMomentum =
      R * m_inertia.cwiseProduct(R.transpose() * angularVelocity) + c.cross(s.momentum);
  setState(t, s);
}

namespace {

// the quaternion's rate 1/2 q (x) (0, w_b) = scale * (q_w wb + q_v x wb, -q_v . wb) for
// wb = |q|^2 w_b; split so that the stage update q0 + (a scale) rate keeps the division by |q|^2
// off the step's dependency chain
inline Vec4 quaternionRate(const Vec4& q, const Vec3& wb) {
  const double x = q(0), y = q(1), z = q(2), w = q(3);
  return Vec4(w * wb(0) + (y * wb(2) - z * wb(1)), w * wb(1) + (z * wb(0) - x * wb(2)),
              w * wb(2) + (x * wb(1) - y * wb(0)), -(x * wb(0) + y * wb(1) + z * wb(2)));
}

inline double squaredNorm(const Vec4& q) {
  return (q(0) * q(0) + q(1) * q(1)) + (q(2) * q(2) + q(3) * q(3));
}

// q / |q|: 1/sqrt(n2) to second order about 1 while n2 is that close (RK4 keeps the norm to a few
// ulps per step), exactly otherwise
inline double inverseNorm(const Vec4& q) {
  const double n2 = squaredNorm(q), e = n2 - 1.0;
  return std::abs(e) < 1e-6 ? 1.0 - e * (0.5 - 0.375 * e) : 1.0 / std::sqrt(n2);
}
inline Vec4 normalised(const Vec4& q) { return inverseNorm(q) * q; }

}  // namespace

void RigidBody::rates(const Vec4& q, const Vec3& p, const Vec3& L, Rates& out) const {
  // body coordinates: w_b = D R' (L_b - c x p) = D (R' L_b - c_b x R' p), with c = R c_b;
  // Rs = |q|^2 R and wb = |q|^2 w_b
  const Mat3 Rs = scaledRotation(q);
  const double invN2 = 1.0 / squaredNorm(q);
  const Vec3 wb =
      m_invInertia.cwiseProduct(Rs.transpose() * L - m_comBody.cross(Rs.transpose() * p));
  // v_b = p/m + c x w = p/m + R (c_b x w_b); L_b' = c x m g - v_b x p
  out.dr = p * m_invMass + (invN2 * invN2) * (Rs * m_comBody.cross(wb));
  out.dL = (invN2 * (Rs * m_comBody)).cross(m_weight) - out.dr.cross(p);
  out.dp = m_weight;
  out.dq = quaternionRate(q, wb);
  out.qScale = 0.5 * invN2;
}

PerturbationLoad RigidBody::loadAt(const Vec3& r, const Vec4& q, const Vec3& p,
                                   const Vec3& L) const {
  const Mat3 R = scaledRotation(q) / squaredNorm(q);
  const Vec3 toCom = R * m_comBody;                     // b -> centre of mass, world
  const Vec3 arm = R * m_perturbation->point + toCom;   // b -> the grabbed point, world
  // w = R D R' (L - c x p): L about b less the moment of p about the centre of mass
  const Vec3 w = R * m_invInertia.cwiseProduct(R.transpose() * (L - toCom.cross(p)));
  const Vec3 vc = p * m_invMass;  // the centre of mass's velocity
  const Vec3 arml = arm - toCom;  // centre of mass -> the point
  return art::perturbationLoad(*m_perturbation, r + arm, vc + w.cross(arml), r + toCom, vc);
}

void RigidBody::perturbedRates(const Vec3& r, const Vec4& q, const Vec3& p, const Vec3& L,
                               Rates& out) const {
  rates(q, p, L, out);
  const PerturbationLoad load = loadAt(r, q, p, L);
  // the force and its moment about b, plus the torque, join gravity's
  out.dp += load.force;
  out.dL += (load.point - r).cross(load.force) + load.torque;
}

void RigidBody::setPerturbation(const std::optional<Perturbation>& perturbation) {
  if (perturbation) checkPerturbation(*perturbation);
  m_perturbation = perturbation;
}

std::optional<PerturbationLoad> RigidBody::perturbationLoad() const {
  if (!m_perturbation) return std::nullopt;
  return loadAt(m_s.position, m_s.orientation.coeffs(), m_s.momentum, m_s.angularMomentum);
}

void RigidBody::rk4Offset(double h) {
  const Vec4 q0 = m_q;
  const Vec3 r0 = m_s.position, p0 = m_s.momentum, L0 = m_s.angularMomentum;
  const double h2 = 0.5 * h;
  // the rates depend on where the body is only through a perturbation
  const auto eval = [this](const Vec3& r, const Vec4& q, const Vec3& p, const Vec3& L,
                           Rates& k) {
    if (m_perturbation)
      perturbedRates(r, q, p, L, k);
    else
      rates(q, p, L, k);
  };
  Rates k1, k2, k3, k4;
  eval(r0, q0, p0, L0, k1);
  eval(r0 + h2 * k1.dr, q0 + (h2 * k1.qScale) * k1.dq, p0 + h2 * k1.dp, L0 + h2 * k1.dL, k2);
  eval(r0 + h2 * k2.dr, q0 + (h2 * k2.qScale) * k2.dq, p0 + h2 * k2.dp, L0 + h2 * k2.dL, k3);
  eval(r0 + h * k3.dr, q0 + (h * k3.qScale) * k3.dq, p0 + h * k3.dp, L0 + h * k3.dL, k4);
  const double h6 = h / 6.0, h3 = h / 3.0;
  m_s.position += h6 * (k1.dr + 2.0 * (k2.dr + k3.dr) + k4.dr);
  m_s.momentum += h6 * (k1.dp + 2.0 * (k2.dp + k3.dp) + k4.dp);
  m_s.angularMomentum += h6 * (k1.dL + 2.0 * (k2.dL + k3.dL) + k4.dL);
  // the RK4 result divided by |q0| (see rk4Centred)
  const double sigma = inverseNorm(q0);
  m_q = sigma * q0 + (sigma * h6 * k1.qScale) * k1.dq + (sigma * h3 * k2.qScale) * k2.dq +
        (sigma * h3 * k3.qScale) * k3.dq + (sigma * h6 * k4.qScale) * k4.dq;
  m_s.orientation.coeffs() = normalised(m_q);
}

namespace {

// a quaternion's coefficients (x, y, z, w) as four scalars, so that the attitude stages stay in
// scalar registers: Eigen's packets would insert and extract lanes on the step's dependency chain
struct Quat {
  double x, y, z, w;
};
// a vector's coordinates as three scalars, likewise (body angular momenta, rimContact)
struct Scalars3 {
  double x, y, z;
};

// R' a (body coordinates of the world vector a, for R body -> world), in scalars
inline Scalars3 transposeTimes(const Mat3& R, double a0, double a1, double a2) {
  return {R(0, 0) * a0 + R(1, 0) * a1 + R(2, 0) * a2, R(0, 1) * a0 + R(1, 1) * a1 + R(2, 1) * a2,
          R(0, 2) * a0 + R(1, 2) * a1 + R(2, 2) * a2};
}

// q0 + q (x) (0, w): a stage quaternion of the attitude's RK4 from the previous one, q, and the
// body angular velocity w times the stage's fraction of the step times 1/2; three multiply-adds
// after q
inline Quat stage(const Quat& q0, const Quat& q, const Scalars3& w) {
  return {q0.x + q.w * w.x + q.y * w.z - q.z * w.y, q0.y + q.w * w.y + q.z * w.x - q.x * w.z,
          q0.z + q.w * w.z + q.x * w.y - q.y * w.x, q0.w - q.x * w.x - q.y * w.y - q.z * w.z};
}

}  // namespace

void RigidBody::rk4Centred(double h) {
  // b at the centre of mass: the world angular momentum L and p' = m g are constant, so RK4's
  // position and momentum stages sum exactly to r + h p/m + h^2/2 g and p + h m g, and L stays.
  // The attitude is integrated with the angular momentum in body axes, L_b = R' L, as Euler's
  // equations L_b' = L_b x w_b, w_b = D L_b, q' = 1/2 q (x) (0, w_b): the same motion (RK4 on an
  // equivalent system; the two differ by RK4's truncation error, here (h |w|)^5 ~ 1e-25), but
  // L_b's stages do not depend on q. Written for the shortest dependency chain: L_b x D L_b =
  // E (L_y L_z, L_z L_x, L_x L_y) with E = (D_z - D_y, D_x - D_z, D_y - D_x), one product and one
  // multiply-add per stage; and the stage quaternions q_i from one another, three multiply-adds
  // per stage, the stages' rates k_i recovered as (q_i - q0) / (their fraction of h).
  const Quat q0{m_q(0), m_q(1), m_q(2), m_q(3)};
  // L_b = R(q0)' L; |q0|^2 is 1 within a few ulps (see m_q), so the scaled rotation is R. R
  // depends on q0 alone, known long before a contact's impulse changes L: the matrix product is
  // all that follows L on the dependency chain.
  const Mat3 R = scaledRotation(m_q);
  const Vec3& L = m_s.angularMomentum;
  const Vec3& D = m_invInertia;
  const double Dx = D.x(), Dy = D.y(), Dz = D.z();
  const Scalars3 L1 = transposeTimes(R, L.x(), L.y(), L.z());
  const double h2 = 0.5 * h, h4 = 0.25 * h;
  // L1 + a L x D L, for the stage fraction a
  const Scalars3 E{Dz - Dy, Dx - Dz, Dy - Dx};
  const auto next = [&L1, &E](double a, const Scalars3& l) {
    return Scalars3{L1.x + (a * E.x) * (l.y * l.z), L1.y + (a * E.y) * (l.z * l.x),
                    L1.z + (a * E.z) * (l.x * l.y)};
  };
  const Scalars3 L2 = next(h2, L1), L3 = next(h2, L2), L4 = next(h, L3);
  // a w = a D L
  const auto omega = [Dx, Dy, Dz](double a, const Scalars3& l) {
    return Scalars3{(a * Dx) * l.x, (a * Dy) * l.y, (a * Dz) * l.z};
  };
  const Quat q2 = stage(q0, q0, omega(h4, L1));
  const Quat q3 = stage(q0, q2, omega(h4, L2));
  const Quat q4 = stage(q0, q3, omega(h2, L3));
  m_s.position += h * (m_invMass * m_s.momentum + h2 * m_gravity);
  m_s.momentum += h * m_weight;
  // RK4: q0 + h/6 (k1 + 2 k2 + 2 k3 + k4) = q0 + ((q2 - q0) + 2 (q3 - q0) + (q4 - q0)) / 3 +
  // h/6 k4 with k4 = 1/2 q4 (x) (0, w4), the last stage's rate last, so that it ends the
  // dependency chain. (A difference is exact where q_i's coefficient is within a factor 2 of
  // q0's, Sterbenz's lemma: all but coefficients near zero, whose error is then as small.)
  // Divided by |q0|, a factor computed alongside the stages and folded into the coefficients,
  // so that the integration's own quaternion keeps a norm within one step's RK4 norm error of 1
  // (RK4 shrinks it by about (h |w| / 2)^6 / 144 a step, which would otherwise accumulate)
  // without a normalisation on the dependency chain. The rates are linear in q, so this is RK4
  // from the unit quaternion.
  const double sigma = inverseNorm(m_q), s3 = sigma / 3.0;
  const Quat d{(q2.x - q0.x) + 2.0 * (q3.x - q0.x), (q2.y - q0.y) + 2.0 * (q3.y - q0.y),
               (q2.z - q0.z) + 2.0 * (q3.z - q0.z), (q2.w - q0.w) + 2.0 * (q3.w - q0.w)};
  const Quat b{sigma * q0.x + s3 * d.x, sigma * q0.y + s3 * d.y, sigma * q0.z + s3 * d.z,
               sigma * q0.w + s3 * d.w};
  const Quat e{b.x + s3 * (q4.x - q0.x), b.y + s3 * (q4.y - q0.y), b.z + s3 * (q4.z - q0.z),
               b.w + s3 * (q4.w - q0.w)};
  const Quat q = stage(e, q4, omega(sigma * h / 12.0, L4));
  m_q = Vec4(q.x, q.y, q.z, q.w);
  m_s.orientation.coeffs() = normalised(m_q);
}

void RigidBody::step(double h) {
  if (m_offset || m_perturbation)  // the general path
    rk4Offset(h);
  else
    rk4Centred(h);
  m_t += h;
  ++m_steps;
  m_lastPenetration = 0.0;
  m_lastContacts = 0;
  if (m_hasFloor) resolveContact(h);
  m_warmValid = m_warmStart;
}

void RigidBody::advanceTo(double t, double h) {
  if (!(h > 0) || !std::isfinite(h))
    throw std::invalid_argument("RigidBody::advanceTo: the step must be a finite number > 0");
  const double span = t - m_t;
  if (!(span > 0)) return;
  // n steps, counted rather than summed so that rounding cannot add a sliver of a step
  const long n = std::max(1L, static_cast<long>(std::ceil(span / h - 1e-6)));
  for (long k = 1; k < n; ++k) step(h);
  step(span - static_cast<double>(n - 1) * h);
  m_t = t;
}

namespace {

// A contact point's impulse response K = 1/m + [r]x' D [r]x: the velocity change of the point r
// (from the centre of mass, body coordinates) per unit impulse there; D the inverse principal
// moments. Symmetric positive definite.
inline Mat3 responseMatrix(const Vec3& r, const Vec3& D, double invMass) {
  const double rx = r.x(), ry = r.y(), rz = r.z();
  Mat3 K;
  K << invMass + D.y() * rz * rz + D.z() * ry * ry, -D.z() * rx * ry, -D.y() * rx * rz,
      -D.z() * rx * ry, invMass + D.x() * rz * rz + D.z() * rx * rx, -D.x() * ry * rz,
      -D.y() * rx * rz, -D.x() * ry * rz, invMass + D.x() * ry * ry + D.y() * rx * rx;
  return K;
}

// The sliding (or pulling) impulse at a point with response K, accumulated impulse J0, target
// normal velocity and velocity vp, whose sticking impulse has the tangential part f (only its
// direction matters): Coulomb friction against the slip velocity vt, J = l dir with dir = n - mu
// vt/|vt|, l = (target - n . (vp - K J0)) / (n . K dir) when that denominator is positive, else
// 0. With |vt| > 0 this is computed as t (|vt| n - mu vt), t = l / |vt| = (target - ...) /
// (|vt| n.K n - mu n.K vt): one division, not waiting for another (K is symmetric).
inline Vec3 slideImpulse(const Mat3& K, const Vec3& J0, double target, const Vec3& n,
                         const Vec3& vp, const Vec3& f, double mu) {
  const Vec3 vt = vp - n.dot(vp) * n;
  const double vs = vt.norm();
  const Vec3 Kn = K * n;
  const double num = target - n.dot(vp) + Kn.dot(J0);
  if (vs > 0) {
    const double denom = vs * Kn.dot(n) - mu * Kn.dot(vt);
    const double t = denom > 0 ? num / denom : 0.0;
    return std::max(0.0, t) * (vs * n - mu * vt);
  }
  const double slip = f.norm();
  const Vec3 dir = slip > 0 ? Vec3(n + (mu / slip) * f) : n;
  const double along = Kn.dot(dir);
  return std::max(0.0, along > 0 ? num / along : 0.0) * dir;
}

// The impulse of a single contact point (response K, velocity vp, height gap above the plane,
// normal velocity vn): what leaves it at its target normal velocity without slip, unless that
// pulls or lies outside the friction cone (then slideImpulse), without restitution if
// restitution would gain energy. The sticking impulse det(K) J = adj(K) (target n - vp) is
// tested for the friction cone without dividing by det(K) > 0.
inline Vec3 singleImpulse(const Mat3& K, const Vec3& n, const Vec3& vp, double gap, double vn,
                          double h, double restingSpeed, double restitution, double mu) {
  Mat3 adj;
  adj(0, 0) = K(1, 1) * K(2, 2) - K(1, 2) * K(1, 2);
  adj(0, 1) = adj(1, 0) = K(0, 2) * K(1, 2) - K(0, 1) * K(2, 2);
  adj(0, 2) = adj(2, 0) = K(0, 1) * K(1, 2) - K(0, 2) * K(1, 1);
  adj(1, 1) = K(0, 0) * K(2, 2) - K(0, 2) * K(0, 2);
  adj(1, 2) = adj(2, 1) = K(0, 1) * K(0, 2) - K(0, 0) * K(1, 2);
  adj(2, 2) = K(0, 0) * K(1, 1) - K(0, 1) * K(0, 1);
  const double det = K(0, 0) * adj(0, 0) + K(0, 1) * adj(1, 0) + K(0, 2) * adj(2, 0);
  const double mu2 = mu * mu;
  Vec3 J = Vec3::Zero();
  for (double e : {restitution, 0.0}) {
    const double target = gap > 0 ? -gap / h : vn < -restingSpeed ? -e * vn : 0.0;
    const Vec3 Jd = adj * (target * n - vp);
    const double ld = n.dot(Jd);
    const Vec3 fd = Jd - ld * n;
    if (ld <= 0 || fd.squaredNorm() > mu2 * ld * ld)
      J = slideImpulse(K, Vec3::Zero(), target, n, vp, fd, mu);
    else
      J = (1.0 / det) * Jd;
    // the kinetic energy changes by J . (vp + vp') / 2; resting contact (or a point above the
    // plane) has a target independent of e: the same impulse again, so no need to test it
    if (e == 0 || !(gap <= 0 && vn < -restingSpeed) ||
        J.dot(2.0 * vp + K * J) <= 1e-9 * std::abs(J.dot(vp)))
      break;
  }
  return J;
}

}  // namespace

void RigidBody::resolveContact(double h) {
  // the shape's candidate points near the plane and their heights above it: those below it, and
  // those within the distance they move at the resting speed in a step (resting contact). The
  // contact is solved in body coordinates, where the inertia is diagonal.
  const double restingSpeed = this->restingSpeed(h);
  const double margin = restingSpeed * h;
  m_warmStart = false;
  // the shape lies within m_boundRadius of the reference point: a body that high above the plane
  // has no point within the margin (the exact test below would return too), and needs neither
  // its rotation nor its nearest point
  if (m_normal.dot(m_s.position) - m_planeOffset - m_boundRadius > margin) return;
  if (m_shape.type == ShapeSpec::Type::Cylinder && m_rolling == 0 && !m_offset &&
      (m_floorAlongZ ? rimContact<true>(h, restingSpeed, margin)
                     : rimContact<false>(h, restingSpeed, margin)))
    return;
  resolvePoints(h, restingSpeed, margin);
}

// not inlined into resolveContact, so that the common cases above skip its large stack frame
[[gnu::noinline]] void RigidBody::resolvePoints(double h, double restingSpeed, double margin) {
  // R from the quaternion the integration continues from (m_s.orientation is it normalised):
  // |q|^-2 times its scaled rotation, which does not wait for the normalisation
  const Mat3 R = (1.0 / squaredNorm(m_q)) * scaledRotation(m_q);
  const Vec3 c = m_offset ? Vec3(R * m_comBody) : Vec3::Zero();
  const Vec3 rc = m_s.position + c;
  const double hc = m_normal.dot(rc) - m_planeOffset;
  const Vec3 n = R.transpose() * m_normal;  // the plane's normal in body coordinates
  Vec3 x[kMaxCandidates];                   // candidates from the centre of mass, body coordinates
  double d[kMaxCandidates];
  int id[kMaxCandidates];  // the candidate's number, which keys the warm start
  int nc = 0;
  double lowest = 0.0;
  switch (m_shape.type) {
    case ShapeSpec::Type::Sphere:
      lowest = hc - m_shape.radius;
      if (lowest > margin) return;
      x[0] = -m_shape.radius * n;
      d[0] = lowest;
      id[0] = 0;
      nc = 1;
      break;
    case ShapeSpec::Type::Box: {
      const Vec3 half = 0.5 * m_shape.size;
      lowest = hc - half.dot(n.cwiseAbs());
      if (lowest > margin) return;
      for (int k = 0; k < 8; ++k) {
        const Vec3 s((k & 1) ? half.x() : -half.x(), (k & 2) ? half.y() : -half.y(),
                     (k & 4) ? half.z() : -half.z());
        d[nc] = hc + s.dot(n);
        id[nc] = k;
        if (d[nc] <= margin) x[nc++] = s;
      }
      break;
    }
    case ShapeSpec::Type::Cylinder: {
      // the axis is body z
      const double na = n.z(), s2 = n.x() * n.x() + n.y() * n.y(), s = std::sqrt(s2);
      const double rad = m_shape.radius, halfLength = 0.5 * m_shape.length;
      lowest = hc - halfLength * std::abs(na) - rad * s;
      if (lowest > margin) return;
      // the rim point nearest the plane (any rim point when the cap is parallel to it) and the
      // points 90, 180, 270 degrees around the rim from it, on both caps
      // 1/s as s / s^2, so that the division runs alongside the square root
      const double invS = s * (1.0 / s2);
      const Vec3 u = s > 1e-12 ? Vec3(-n.x() * invS, -n.y() * invS, 0) : Vec3::UnitX();
      // the common case of one point taking part, the nearest rim point of the lower cap (the
      // cylinder rolling or wobbling on its rim), without rolling resistance: as below, without
      // the candidate lists (rimContact when the reference point is the centre of mass)
      const double zLow = na > 0 ? -halfLength : halfLength;
      if (m_rolling == 0 && hc + zLow * na > margin && hc - zLow * na - rad * s > margin) {
        const Vec3 r(rad * u.x(), rad * u.y(), zLow);
        const double gap = hc + n.dot(r);
        m_lastPenetration = std::max(0.0, -lowest);
        const Vec3 v = R.transpose() * (m_s.momentum * m_invMass);
        const Vec3 w = m_invInertia.cwiseProduct(R.transpose() *
                                                 (m_s.angularMomentum - c.cross(m_s.momentum)));
        const Vec3 vp = v + w.cross(r);
        const double vn = n.dot(vp);
        if (!(gap > 0 && vn < -restingSpeed)) {
          m_lastContacts = 1;
          const double target = gap > 0 ? -gap / h : vn < -restingSpeed ? -m_restitution * vn : 0.0;
          if (target - vn > 0) {
            const Vec3 J = singleImpulse(responseMatrix(r, m_invInertia, m_invMass), n, vp, gap, vn,
                                         h, restingSpeed, m_restitution, m_friction);
            const Vec3 Jw = R * J;
            m_s.momentum += Jw;
            m_s.angularMomentum += (R * r + c).cross(Jw);
          }
        }
        if (lowest < 0) m_s.position -= lowest * m_normal;
        return;
      }
      const Vec3 dirs[4] = {rad * u, Vec3(-rad * u.y(), rad * u.x(), 0), -rad * u,
                            Vec3(rad * u.y(), -rad * u.x(), 0)};
      for (int cap = 0; cap < 2; ++cap) {
        const double z = cap ? halfLength : -halfLength;
        for (int j = 0; j < 4; ++j) {
          const Vec3 p = dirs[j] + Vec3(0, 0, z);
          d[nc] = hc + n.dot(p);
          id[nc] = 4 * cap + j;
          if (d[nc] <= margin) x[nc++] = p;
        }
      }
      break;
    }
  }
  m_lastPenetration = std::max(0.0, -lowest);

  // velocities of the centre of mass and of rotation (body coordinates); the contact points:
  // those below the plane, and those just above it that approach slowly (they may close the
  // gap, no more). Each has its impulse response K = 1/m + [r]x' D [r]x (the point's velocity
  // change per unit impulse there; D the inverse principal moments).
  const Vec3& D = m_invInertia;
  Vec3 v = R.transpose() * (m_s.momentum * m_invMass);
  Vec3 w = D.cwiseProduct(R.transpose() * (m_s.angularMomentum - c.cross(m_s.momentum)));
  struct Point {
    Vec3 r, J;  // from the centre of mass (m); accumulated impulse (N s); body coordinates
    Mat3 K, Kinv;
    double gap, vn;  // height above the plane (m) and normal velocity before the impulses (m/s)
    double target;   // normal velocity to leave with (m/s)
    int id;
  };
  Point pts[kMaxCandidates];
  int np = 0;
  double approach = 0.0;
  for (int k = 0; k < nc; ++k) {
    const Vec3& r = x[k];
    const double vn = n.dot(v + w.cross(r));
    if (d[k] > 0 && vn < -restingSpeed) continue;  // it touches in the next step: an impact then
    Point& pt = pts[np++];
    pt.r = r;
    pt.K = responseMatrix(r, D, m_invMass);
    pt.id = id[k];
    pt.gap = d[k];
    pt.vn = vn;
    const double target = d[k] > 0 ? -d[k] / h : vn < -restingSpeed ? -m_restitution * vn : 0.0;
    approach = std::max(approach, target - vn);
  }
  m_lastContacts = np;

  // projected block Gauss-Seidel on the points' accumulated impulses: each point's impulse is
  // what leaves it at its target normal velocity without slip, unless that pulls or lies outside
  // the friction cone; then it slides: the impulse on the cone's edge, against the point's slip
  // velocity, that gives the target normal velocity (none if that pulls). Rolling resistance
  // then takes out rotation within rho times the normal impulse.
  const double mu2 = m_friction * m_friction;
  auto pointImpulse = [&](const Point& pt, const Vec3& vp) -> Vec3 {
    const Vec3 J = pt.J + pt.Kinv * (pt.target * n - vp);
    const double lambda = n.dot(J);
    const Vec3 f = J - lambda * n;
    if (lambda <= 0 || f.squaredNorm() > mu2 * lambda * lambda) {
      return slideImpulse(pt.K, pt.J, pt.target, n, vp, f, m_friction);
    }
    return J;
  };
  if (approach > 0 && np == 1 && m_rolling == 0) {
    // one point: its impulse directly, without restitution if that would gain energy
    const Point& pt = pts[0];
    const Vec3 J = singleImpulse(pt.K, n, v + w.cross(pt.r), pt.gap, pt.vn, h, restingSpeed,
                                 m_restitution, m_friction);
    const Vec3 Jw = R * J;
    m_s.momentum += Jw;
    m_s.angularMomentum += (R * pt.r + c).cross(Jw);
  } else if (approach > 0) {
    for (int k = 0; k < np; ++k) pts[k].Kinv = pts[k].K.inverse();
    const double tolerance =
        m_mass * std::max(kSweepTolerance * approach, kRestingTolerance * restingSpeed);
    const Vec3& I = m_inertia;
    const Vec3 v0 = v, w0 = w;
    const double kinetic0 = m_mass * v0.squaredNorm() + w0.dot(I.cwiseProduct(w0));  // twice
    Vec3 T = Vec3::Zero();  // accumulated rolling-resistance angular impulse (N m s)
    // Newton's restitution at each point can make an oblique impact on a rotating body gain
    // energy (the sticking impulse's coupling through the rotation); such an impact is
    // resolved again without restitution, which never gains energy
    for (int attempt = 0; attempt < 2; ++attempt) {
      const double e = attempt == 0 ? m_restitution : 0.0;
      v = v0;
      w = w0;
      T.setZero();
      for (int k = 0; k < np; ++k) {
        Point& pt = pts[k];
        pt.target = pt.gap > 0 ? -pt.gap / h : pt.vn < -restingSpeed ? -e * pt.vn : 0.0;
        pt.J.setZero();
      }
      // resting contact: start from the previous step's impulses at the same candidates
      if (m_warmValid) {
        for (int k = 0; k < np; ++k) {
          Point& pt = pts[k];
          pt.J = m_warm[pt.id];
          v += m_invMass * pt.J;
          w += D.cwiseProduct(pt.r.cross(pt.J));
        }
        T = m_warmTorque;
        w += D.cwiseProduct(T);
      }
      for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
        double change = 0.0, normal = 0.0;
        for (int k = 0; k < np; ++k) {
          Point& pt = pts[k];
          const Vec3 J = pointImpulse(pt, v + w.cross(pt.r));
          const Vec3 dJ = J - pt.J;
          pt.J = J;
          v += m_invMass * dJ;
          w += D.cwiseProduct(pt.r.cross(dJ));
          change = std::max(change, dJ.norm());
          normal += n.dot(J);
        }
        if (m_rolling > 0) {
          Vec3 Tn = T - I.cwiseProduct(w);
          const double cap = m_rolling * normal, tn = Tn.norm();
          if (tn > cap) Tn *= cap / tn;
          w += D.cwiseProduct(Tn - T);
          change = std::max(change, (Tn - T).norm() / m_rolling);
          T = Tn;
        }
        if (change <= tolerance) break;
      }
      if (e == 0 || m_mass * v.squaredNorm() + w.dot(I.cwiseProduct(w)) <= kinetic0 * (1 + 1e-9))
        break;
    }
    m_s.momentum = R * (m_mass * v);
    m_s.angularMomentum = R * I.cwiseProduct(w) + c.cross(m_s.momentum);
    for (Vec3& J : m_warm) J.setZero();
    for (int k = 0; k < np; ++k) m_warm[pts[k].id] = pts[k].J;
    m_warmTorque = T;
    m_warmStart = true;
  }

  // move the deepest point onto the plane
  if (lowest < 0) m_s.position -= lowest * m_normal;
}

template <bool floorAlongZ>
bool RigidBody::rimContact(double h, double restingSpeed, double margin) {
  // R from the quaternion the integration continues from, whose norm is 1 within a few ulps
  // (rk4Centred and rk4Offset divide their result by the norm of the quaternion they started
  // from), so without the division by |q|^2. All in scalars: this is the step's dependency chain
  // (m_q -> impulse -> L_b -> the next step's attitude), and Eigen's packets would shuffle lanes
  // on it.
  const Mat3 R = scaledRotation(m_q);
  const Vec3 &N = m_normal, &p = m_s.momentum, &L = m_s.angularMomentum;
  const double hc = N.dot(m_s.position) - m_planeOffset;
  // the normal in body coordinates (the axis is body z); for the normal (0, 0, 1) exactly that,
  // R's last row, without waiting for a product
  const Scalars3 n =
      floorAlongZ ? Scalars3{R(2, 0), R(2, 1), R(2, 2)} : transposeTimes(R, N.x(), N.y(), N.z());
  const double na = n.z, s2 = n.x * n.x + n.y * n.y, s = std::sqrt(s2);
  const double rad = m_shape.radius, halfLength = 0.5 * m_shape.length;
  const double lowest = hc - halfLength * std::abs(na) - rad * s;
  if (lowest > margin) return true;
  const double zLow = na > 0 ? -halfLength : halfLength;
  // any other candidate within the margin (resolveContact's list: the other rim points of both
  // caps), or a cap parallel to the plane: not this case
  if (!(s > 1e-12 && hc + zLow * na > margin && hc - zLow * na - rad * s > margin)) return false;
  m_lastPenetration = std::max(0.0, -lowest);
  // 1/s as s / s^2, so that the division runs alongside the square root; u = m / s
  const double invS = s * (1.0 / s2), mx = -n.x, my = -n.y;
  const Scalars3 v = transposeTimes(R, p.x() * m_invMass, p.y() * m_invMass, p.z() * m_invMass);
  const Scalars3 Lb = transposeTimes(R, L.x(), L.y(), L.z());
  const Vec3& D = m_invInertia;
  const double w0 = D.x() * Lb.x, w1 = D.y() * Lb.y, w2 = D.z() * Lb.z;
  // The rim frame: x' = u, y' = z x u, z' = z. There the point is r' = (rad, 0, zLow), the normal
  // n' = (-s, 0, na), its tangents t1 = (0, 1, 0) and t2 = (na, 0, s), and the point's velocity
  // vp' = v' + w' x r' with v' = (u.v, (u x v)_z, v_z) and w' likewise: vp' = a + b / s, so that
  // 1/s comes last. The response K' (m_rimK) is constant there.
  const double wx = mx * w0 + my * w1, wy = mx * w1 - my * w0;       // s w'_x, s w'_y
  const double vx = mx * v.x + my * v.y, vy = mx * v.y - my * v.x;   // s v'_x, s v'_y
  const double bx = vx + zLow * wy, by = vy - zLow * wx, bz = -rad * wy;
  const double ay = rad * w2, az = v.z;
  const double px = invS * bx, py = ay + invS * by, pz = az + invS * bz;
  const double gap = (hc + zLow * na) - rad * s;
  const double vn = invS * (na * bz - s * bx) + na * az;
  // a point above the plane approaching fast touches in the next step: an impact then
  if (gap > 0 && vn < -restingSpeed) return true;
  m_lastContacts = 1;
  const bool impact = gap <= 0 && vn < -restingSpeed;
  const double target = gap > 0 ? -gap / h : impact ? -m_restitution * vn : 0.0;
  if (target - vn > 0) {
    const int k = zLow > 0;
    const Mat3 &K = m_rimK[k], &Ki = m_rimKinv[k];
    const double mu = m_friction;
    // the impulse in the rim frame, scale * J
    double scale = 1.0;
    Vec3 J;
    if (impact) {  // rare: with singleImpulse's test of the energy
      J = singleImpulse(K, Vec3(-s, 0.0, na), Vec3(px, py, pz), gap, vn, h, restingSpeed,
                        m_restitution, mu);
    } else {
      // singleImpulse's one pass (the target does not depend on restitution) on K's structure
      // (K'(0, 1) = K'(1, 2) = 0): the sticking impulse, else slideImpulse's
      const double ex = -target * s - px, ey = -py, ez = target * na - pz;
      const double jx = Ki(0, 0) * ex + Ki(0, 2) * ez, jy = Ki(1, 1) * ey,
                   jz = Ki(0, 2) * ex + Ki(2, 2) * ez;
      const double ld = na * jz - s * jx, fx = jx + ld * s, fz = jz - ld * na;
      J = Vec3(jx, jy, jz);
      if (ld <= 0 || (fx * fx + jy * jy) + fz * fz > mu * mu * ld * ld) {
        const double vt1 = py, vt2 = invS * (na * bx + s * bz) + s * az;  // slip along t1, t2
        const double vs = std::sqrt(vt1 * vt1 + vt2 * vt2);
        if (vs > 0) {
          const double knx = K(0, 2) * na - K(0, 0) * s, knz = K(2, 2) * na - K(0, 2) * s;
          const double denom = vs * (na * knz - s * knx) - mu * (vt2 * (na * knx + s * knz));
          scale = std::max(0.0, denom > 0 ? (target - vn) / denom : 0.0);
          J = Vec3(-vs * s - mu * (vt2 * na), -mu * vt1, vs * na - mu * (vt2 * s));
        } else {
          J = slideImpulse(K, Vec3::Zero(), target, Vec3(-s, 0.0, na), Vec3(px, py, pz),
                           Vec3(fx, jy, fz), mu);
        }
      }
    }
    // rim frame -> world: Q = R Rz, Rz's columns u, z x u, z; the scale last
    const double ux = mx * invS, uy = my * invS;
    Mat3 Q;
    Q.col(0) = ux * R.col(0) + uy * R.col(1);
    Q.col(1) = ux * R.col(1) - uy * R.col(0);
    Q.col(2) = R.col(2);
    const auto toWorld = [&Q](double a0, double a1, double a2) {
      return Vec3(Q(0, 0) * a0 + Q(0, 1) * a1 + Q(0, 2) * a2,
                  Q(1, 0) * a0 + Q(1, 1) * a1 + Q(1, 2) * a2,
                  Q(2, 0) * a0 + Q(2, 1) * a1 + Q(2, 2) * a2);
    };
    const Vec3 Jw = scale * toWorld(J.x(), J.y(), J.z());
    m_s.momentum += Jw;
    m_s.angularMomentum += scale * toWorld(-zLow * J.y(), zLow * J.x() - rad * J.z(), rad * J.y());
  }
  if (lowest < 0) m_s.position -= lowest * m_normal;
  return true;
}

Vec3 RigidBody::comPosition() const {
  return m_offset ? Vec3(m_s.position + rotation() * m_comBody) : m_s.position;
}

Vec3 RigidBody::angularVelocity() const {
  const Mat3 R = rotation();
  return R * m_invInertia.cwiseProduct(R.transpose() * angularMomentumAboutCom());
}

Vec3 RigidBody::angularMomentumAboutCom() const {
  if (!m_offset) return m_s.angularMomentum;
  return m_s.angularMomentum - (rotation() * m_comBody).cross(m_s.momentum);
}

Vec3 RigidBody::angularMomentumAbout(const Vec3& point) const {
  return angularMomentumAboutCom() + (comPosition() - point).cross(m_s.momentum);
}

RigidBodyEnergy RigidBody::energy() const {
  RigidBodyEnergy e;
  e.kinetic = 0.5 * m_s.momentum.squaredNorm() * m_invMass +
              0.5 * angularVelocity().dot(angularMomentumAboutCom());
  e.potential = -m_mass * m_gravity.dot(comPosition());
  return e;
}

double RigidBody::floorClearance() const {
  if (!m_hasFloor) return std::numeric_limits<double>::infinity();
  const Mat3 R = rotation();
  const double hc = m_normal.dot(comPosition()) - m_planeOffset;
  switch (m_shape.type) {
    case ShapeSpec::Type::Box:
      return hc - (0.5 * m_shape.size).dot((R.transpose() * m_normal).cwiseAbs());
    case ShapeSpec::Type::Cylinder: {
      const double na = m_normal.dot(R.col(2));
      return hc - 0.5 * m_shape.length * std::abs(na) -
             m_shape.radius * std::sqrt(std::max(0.0, 1.0 - na * na));
    }
    case ShapeSpec::Type::Sphere:
      return hc - m_shape.radius;
  }
  return hc;
}

}  // namespace art
