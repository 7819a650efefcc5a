// Structural edits of a ModelSpec (see articulate/model/edit.h).
#include "articulate/model/edit.h"
#include "articulate/model/diagnostics.h"

#include <algorithm>
#include <cmath>
#include <string>

#include <Eigen/Eigenvalues>

#include "articulate/model/model.h"

namespace art {

namespace {

void checkBody(const ModelSpec& spec, int body, bool baseAllowed, const char* what) {
  if ((baseAllowed && body == -1) || (body >= 0 && body < static_cast<int>(spec.bodies.size())))
    return;
  throw EditError(std::string(what) + ": " + std::to_string(body) + " is not a body");
}

// Renumbers bodies: newIndex[old] is the new index, or -2 for a removed body. The bodies
// vector must already be in the new order; this fixes every reference to a body.
void remap(ModelSpec& spec, const std::vector<int>& newIndex) {
  for (BodySpec& b : spec.bodies) b.parent = b.parent < 0 ? b.parent : newIndex[b.parent];
  renumberBodyReferences(spec, newIndex);
}

}  // namespace

void renumberBodyReferences(ModelSpec& spec, const std::vector<int>& newIndex) {
  auto map = [&](int b) { return b < 0 ? b : newIndex[b]; };
  if (spec.camera.body >= 0) {
    spec.camera.body = map(spec.camera.body);
    if (spec.camera.body == -2) {
      spec.camera.body = -1;
      spec.camera.trackpoint.reset();
    }
  }
  std::vector<ContactPointSpec> contacts;
  for (ContactPointSpec c : spec.contacts)
    if ((c.body = map(c.body)) >= 0) contacts.push_back(c);
  spec.contacts = contacts;
  std::vector<SiteSpec> sites;
  for (SiteSpec s : spec.sites)
    if ((s.body = map(s.body)) != -2) sites.push_back(s);
  spec.sites = sites;
  std::vector<ExternalForceSpec> forces;
  for (ExternalForceSpec f : spec.forces)
    if ((f.body = map(f.body)) >= 0) forces.push_back(f);
  spec.forces = forces;
  std::vector<ConstraintSpec> constraints;
  for (ConstraintSpec c : spec.constraints) {
    if (c.type == ConstraintSpec::Type::Coupling) {
      c.joint = map(c.joint);
      c.master = map(c.master);
      if (c.joint < 0 || c.master < 0) continue;
    } else {
      c.bodyA = map(c.bodyA);
      c.bodyB = map(c.bodyB);
      if (c.bodyA == -2 || c.bodyB == -2) continue;
    }
    constraints.push_back(c);
  }
  spec.constraints = constraints;
}

int addBody(ModelSpec& spec, BodySpec body) {
  checkBody(spec, body.parent, true, "parent");
  if (body.name.empty()) throw EditError("a body needs a name");
  if (hasControlCharacter(body.name)) throw EditError("a body's name must not hold control characters");
  if (body.name == "base") throw EditError("'base' names the fixed base");
  if (spec.findBody(body.name) >= 0)
    throw EditError("'" + body.name + "' is already the name of a body");
  spec.bodies.push_back(std::move(body));
  return static_cast<int>(spec.bodies.size()) - 1;
}

std::vector<int> subtree(const ModelSpec& spec, int body) {
  checkBody(spec, body, false, "body");
  std::vector<bool> in(spec.bodies.size(), false);
  std::vector<int> out;
  // parents may follow children in an unsorted spec: iterate to a fixed point
  in[body] = true;
  for (bool grew = true; grew;) {
    grew = false;
    for (std::size_t i = 0; i < spec.bodies.size(); ++i) {
      const int p = spec.bodies[i].parent;
      if (!in[i] && p >= 0 && in[p]) in[i] = grew = true;
    }
  }
  for (std::size_t i = 0; i < in.size(); ++i)
    if (in[i]) out.push_back(static_cast<int>(i));
  return out;
}

void removeSubtree(ModelSpec& spec, int body) {
  const std::vector<int> gone = subtree(spec, body);
  std::vector<int> newIndex(spec.bodies.size(), -2);
  std::vector<BodySpec> kept;
  for (std::size_t i = 0; i < spec.bodies.size(); ++i) {
    if (std::binary_search(gone.begin(), gone.end(), static_cast<int>(i))) continue;
    newIndex[i] = static_cast<int>(kept.size());
    kept.push_back(spec.bodies[i]);
  }
  spec.bodies = kept;
  remap(spec, newIndex);
}

int reparent(ModelSpec& spec, int body, int parent) {
  checkBody(spec, body, false, "body");
  checkBody(spec, parent, true, "parent");
  const std::vector<int> below = subtree(spec, body);
  if (parent >= 0 && std::binary_search(below.begin(), below.end(), parent))
    throw EditError("'" + spec.bodies[body].name + "' cannot move under " +
                    (parent == body ? "itself" : "its own descendant '" + spec.bodies[parent].name + "'"));
  spec.bodies[body].parent = parent;
  // stable order with parents first: repeatedly take the first body whose parent is placed
  const std::size_t n = spec.bodies.size();
  std::vector<int> newIndex(n, -1), order;
  while (order.size() < n) {
    for (std::size_t i = 0; i < n; ++i) {
      if (newIndex[i] >= 0) continue;
      const int p = spec.bodies[i].parent;
      if (p < 0 || newIndex[p] >= 0) {
        newIndex[i] = static_cast<int>(order.size());
        order.push_back(static_cast<int>(i));
        break;
      }
    }
  }
  std::vector<BodySpec> sorted;
  for (int i : order) sorted.push_back(spec.bodies[i]);
  spec.bodies = sorted;
  remap(spec, newIndex);
  return newIndex[body];
}

namespace {

void checkPositive(double v, const char* what) {
  if (!std::isfinite(v) || v <= 0)
    throw EditError(std::string(what) + " must be a finite number > 0, not " + messageNumber(v));
}

void checkShape(const Shape& s) {
  if (!s.a.allFinite() || !s.b.allFinite()) throw EditError("shape points must be finite");
  switch (s.kind) {
    case Shape::Kind::Box:
      for (int k = 0; k < 3; ++k) checkPositive(s.size(k), "box edge length");
      break;
    case Shape::Kind::Cylinder:
      checkPositive(s.radius, "cylinder radius");
      checkPositive((s.b - s.a).norm(), "cylinder length");
      break;
    case Shape::Kind::Sphere: checkPositive(s.radius, "sphere radius"); break;
  }
}

nlohmann::json point(const Vec3& v) { return nlohmann::json::array({v.x(), v.y(), v.z()}); }

}  // namespace

InertiaSpec shapeInertia(const Shape& s, double density) {
  checkShape(s);
  checkPositive(density, "density");
  switch (s.kind) {
    case Shape::Kind::Box: {
      const Vec3& d = s.size;
      const double m = density * d.prod();
      const Vec3 sq = d.cwiseAbs2();
      return InertiaSpec::fromMassComInertia(
          m, s.a, (m / 12.0 * Vec3(sq.y() + sq.z(), sq.x() + sq.z(), sq.x() + sq.y())).asDiagonal());
    }
    case Shape::Kind::Cylinder: {
      const Vec3 axis = s.b - s.a;
      const double L = axis.norm(), r = s.radius;
      const double m = density * M_PI * r * r * L;
      const Vec3 u = axis / L;
      const double along = 0.5 * m * r * r, across = m * (3 * r * r + L * L) / 12.0;
      // about the axis `along`, about any perpendicular `across`: I = across 1 + (along - across) u u^T
      const Mat3 I = across * Mat3::Identity() + (along - across) * u * u.transpose();
      return InertiaSpec::fromMassComInertia(m, 0.5 * (s.a + s.b), I);
    }
    case Shape::Kind::Sphere: {
      const double r = s.radius, m = density * 4.0 / 3.0 * M_PI * r * r * r;
      return InertiaSpec::fromMassComInertia(m, s.a, (0.4 * m * r * r) * Mat3::Identity());
    }
  }
  throw EditError("unknown shape");
}

nlohmann::json shapeAppearance(const Shape& s) {
  checkShape(s);
  switch (s.kind) {
    case Shape::Kind::Box:
      return {"box", {point(s.a - 0.5 * s.size), point(s.a + 0.5 * s.size)}};
    case Shape::Kind::Cylinder: return {"cyl", {point(s.a), point(s.b)}, s.radius};
    case Shape::Kind::Sphere: return {"sphere", point(s.a), s.radius};
  }
  throw EditError("unknown shape");
}

void validateInertia(const InertiaSpec& in) {
  double mass = in.mass;
  Mat3 I = in.aboutCom;
  if (in.raw) {
    const Mat6& M = in.matrix;
    if (!M.allFinite()) throw EditError("the spatial inertia has a non-finite entry");
    if (!M.isApprox(M.transpose(), 1e-12)) throw EditError("the spatial inertia is not symmetric");
    mass = M(5, 5);
    checkPositive(mass, "mass");
    const Mat3 cx = M.block<3, 3>(0, 3) / mass;  // skew(c)
    I = M.block<3, 3>(0, 0) + mass * cx * cx;     // about the centre of mass
  } else {
    checkPositive(mass, "mass");
    if (!in.com.allFinite()) throw EditError("the centre of mass must be finite");
    if (!I.allFinite()) throw EditError("the inertia has a non-finite entry");
  }
  const double scale = std::max(I.cwiseAbs().maxCoeff(), 1e-300);
  if ((I - I.transpose()).cwiseAbs().maxCoeff() > 1e-12 * scale)
    throw EditError("the inertia tensor is not symmetric");
  const Vec3 p = Eigen::SelfAdjointEigenSolver<Mat3>(I).eigenvalues();  // ascending
  if (p(0) <= 0)
    throw EditError("the inertia tensor is not positive definite (smallest principal moment " +
                    std::to_string(p(0)) + " kg m^2)");
  if (p(2) > (p(0) + p(1)) * (1 + 1e-12))
    throw EditError("the principal moments " + std::to_string(p(0)) + ", " + std::to_string(p(1)) +
                    ", " + std::to_string(p(2)) +
                    " kg m^2 break the triangle inequality (the largest exceeds the sum of the "
                    "other two): no real body has them");
}

std::string freeBodyName(const ModelSpec& spec, const std::string& stem, int first) {
  for (int k = first;; ++k) {
    std::string name = stem + std::to_string(k);
    if (spec.findBody(name) < 0) return name;
  }
}

BodySpec makeLink(const ModelSpec& spec, int parent, const Vec3& point, const Vec3& axis,
                  const LinkOptions& o) {
  checkBody(spec, parent, true, "parent");
  if (!point.allFinite()) throw EditError("the attachment point must be finite");
  checkPositive(o.length, "link length");
  checkPositive(o.radius, "link radius");
  BodySpec b;
  b.name = freeBodyName(spec, "link");
  b.parent = parent;
  b.translation = point;
  const bool planar = spec.arithmetic == Arithmetic::Planar;
  if (planar) {
    b.translation.z() = 0;
    b.joint.type = o.joint == JointType::Px || o.joint == JointType::PlanarPx ? JointType::PlanarPx
                   : o.joint == JointType::Py || o.joint == JointType::PlanarPy ? JointType::PlanarPy
                                                                                : JointType::PlanarR;
  } else {
    if (!axis.allFinite() || axis.norm() < 1e-12) throw EditError("the joint axis must not be zero");
    if (hasQuaternion(o.joint) || isPlanar(o.joint))
      throw EditError("the Add body tool attaches by a one-axis joint (Rx..Pz or H)");
    b.joint.type = o.joint;
    // the frame's joint axis (x, y or z by the joint type) along `axis`; the link (frame x, or
    // y for x-axis joints) perpendicular to it, as close to the parent's x as possible
    const int k = (o.joint == JointType::Rx || o.joint == JointType::Px) ? 0
                  : (o.joint == JointType::Ry || o.joint == JointType::Py) ? 1 : 2;
    const Vec3 n = axis.normalized();
    Vec3 x = Vec3::UnitX() - n.x() * n;
    if (x.norm() < 1e-6) x = Vec3::UnitY() - n.y() * n;
    x.normalize();
    Mat3 R;  // columns: the joint frame's axes in parent coordinates, right-handed
    if (k == 2) R << x, n.cross(x), n;
    else if (k == 1) R << x, n, x.cross(n);
    else R << n, x, n.cross(x);
    b.rotation = R.transpose();  // the spec stores parent -> joint coordinates
  }
  const Vec3 along = (!planar && (o.joint == JointType::Rx || o.joint == JointType::Px)) ? Vec3::UnitY()
                                                                                       : Vec3::UnitX();
  b.inertia = shapeInertia(linkShape(o, along), o.density);
  b.appearance = linkAppearance(o, along);
  return b;
}

Shape linkShape(const LinkOptions& o, const Vec3& along) {
  Shape s;
  s.kind = o.shape;
  s.radius = o.radius;
  if (o.shape == Shape::Kind::Cylinder) {
    s.a = Vec3::Zero();
    s.b = o.length * along;
  } else if (o.shape == Shape::Kind::Box) {
    s.a = 0.5 * o.length * along;
    s.size = (2 * o.radius) * (Vec3::Ones() - along.cwiseAbs()) + o.length * along.cwiseAbs();
  } else {
    s.a = o.length * along;  // a ball at the end of a massless rod
  }
  return s;
}

nlohmann::json linkAppearance(const LinkOptions& o, const Vec3& along) {
  nlohmann::json look = nlohmann::json::array();
  if (o.shape == Shape::Kind::Sphere)  // the rod the ball hangs on
    for (const nlohmann::json& item : shapeAppearance({Shape::Kind::Cylinder, Vec3::Zero(),
                                                       o.length * along, Vec3::Ones(), 0.2 * o.radius}))
      look.push_back(item);
  for (const nlohmann::json& item : shapeAppearance(linkShape(o, along))) look.push_back(item);
  return look;
}

void setInitialState(ModelSpec& spec, const Eigen::VectorXd& q, const Eigen::VectorXd& qd) {
  Model model;
  try {
    model = compile(spec);
  } catch (const std::exception& e) {
    throw EditError(e.what());
  }
  if (q.size() != model.nq() || (qd.size() != 0 && qd.size() != model.nv()))
    throw EditError("the state has " + std::to_string(q.size()) + " positions and " +
                    std::to_string(qd.size()) + " velocities; the model has " +
                    std::to_string(model.nq()) + " and " + std::to_string(model.nv()));
  for (std::size_t i = 0; i < spec.bodies.size(); ++i) {
    BodySpec& b = spec.bodies[i];
    const int k = model.qIndex[i], v = model.vIndex[i];
    if (!hasQuaternion(b.joint.type)) {
      b.q0 = q(k);
      if (qd.size()) b.qd0 = qd(v);
      continue;
    }
    // free and ball joints: the position (free only), the quaternion, kept exactly when it is
    // the stored one's, and the velocity (6 or 3 entries)
    if (b.joint.type == JointType::Free) b.freePosition = q.segment<3>(k);
    const Eigen::Vector4d quaternion = q.segment<4>(k + quaternionOffset(b.joint.type));
    if (!quaternion.isApprox(b.freeOrientation.normalized(), 1e-14)) b.freeOrientation = quaternion;
    const int n = model.jointNv(static_cast<int>(i));
    if (qd.size()) b.freeVelocity.head(n) = qd.segment(v, n);
  }
}

}  // namespace art
