#include "articulate/formulations/generators.h"

#include <array>
#include <cmath>
#include <random>
#include <sstream>
#include <stdexcept>

#include <Eigen/Eigenvalues>

namespace art {

namespace {

using nlohmann::json;

// x rounded to a stored double. Generated numbers go through this wherever a product meets a
// sum, so that the compiler cannot fuse them into an FMA: the example files in models/ must be
// reproduced bit for bit by every build (with or without -march=x86-64-v3).
double rnd(double x) {
  volatile double v = x;
  return v;
}

// a number for a drawing instruction: integral values are written as integers ("1", not "1.0")
json num(double x) {
  if (x == std::floor(x) && std::abs(x) < 1e15) return json(static_cast<long long>(x));
  return json(x);
}

json point(const Vec3& p) { return json::array({num(p.x()), num(p.y()), num(p.z())}); }

// Builds a spatial_v2 drawing instruction list (docs/model-format.md, Appearance).
class Draw {
 public:
  Draw& box(const Vec3& a, const Vec3& b) { return add("box", json::array({point(a), point(b)})); }
  Draw& cyl(const Vec3& a, const Vec3& b, double r) {
    return add("cyl", json::array({point(a), point(b)}), num(r));
  }
  Draw& sphere(const Vec3& c, double r) { return add("sphere", point(c), num(r)); }
  Draw& colour(const Vec3& c) { return add("colour", point(c)); }
  Draw& colour(const Vec3& c, const Vec3& c2) {
    return add("colour", json::array({point(c), point(c2)}));
  }
  Draw& facets(int n) { return add("facets", json(n)); }
  Draw& vertices(const std::vector<Vec3>& v) { return add("vertices", points(v)); }
  Draw& line(const std::vector<Vec3>& v) { return add("line", points(v)); }
  Draw& line(const std::vector<int>& indices) { return add("line", json(indices)); }
  Draw& triangles(const std::vector<std::array<int, 3>>& t) {
    json a = json::array();
    for (const auto& tri : t) a.push_back(json::array({tri[0], tri[1], tri[2]}));
    return add("triangles", a);
  }
  // a tiled floor: ranges [[x0, x1], [y0, y1], [z0, z1]] and the tile size
  Draw& tiles(const Vec2& x, const Vec2& y, const Vec2& z, double size) {
    json r = json::array();
    for (const Vec2* v : {&x, &y, &z}) r.push_back(json::array({num(v->x()), num(v->y())}));
    return add("tiles", r, num(size));
  }
  Draw& sub(const Draw& d) {
    m_list.push_back(d.m_list);
    return *this;
  }
  const json& list() const { return m_list; }

 private:
  json m_list = json::array();
  static json points(const std::vector<Vec3>& v) {
    json a = json::array();
    for (const Vec3& p : v) a.push_back(point(p));
    return a;
  }
  template <class... Args>
  Draw& add(const char* name, Args&&... args) {
    m_list.push_back(name);
    (m_list.push_back(std::forward<Args>(args)), ...);
    return *this;
  }
};

// unit vector of a joint's axis (x for Rx and Px, y for Ry and Py, z otherwise)
Vec3 jointAxis(JointType t) {
  switch (t) {
    case JointType::Rx:
    case JointType::Px: return Vec3::UnitX();
    case JointType::Ry:
    case JointType::Py: return Vec3::UnitY();
    default: return Vec3::UnitZ();
  }
}

BodySpec makeBody(const std::string& name, int parent, JointType type, const InertiaSpec& inertia,
                  const json& appearance) {
  BodySpec b;
  b.name = name;
  b.parent = parent;
  b.joint.type = type;
  b.inertia = inertia;
  b.appearance = appearance;
  return b;
}

// spatial_v2 planar(n)'s appearance of one link and of the base
json planarLinkAppearance() {
  return Draw().box({0, -0.07, -0.04}, {1, 0.07, 0.04}).cyl({0, 0, -0.07}, {0, 0, 0.07}, 0.1).list();
}
json planarBaseAppearance() { return Draw().box({-0.2, -0.3, -0.2}, {0.2, 0.3, -0.07}).list(); }

// spatial_v2 mcI(1, [0.5 0], 1/12): a unit link of planar(n)
InertiaSpec unitLink() {
  return InertiaSpec::fromMassComInertia(1.0, Vec3(0.5, 0, 0), Mat3::Identity() * (1.0 / 12));
}

// autoTree's link: a thin-walled tube of length l and mass m along `axis` from the origin
InertiaSpec tube(double m, double l, const Vec3& axis) {
  const double a = rnd(m * l * l * 0.0025), b = rnd(m * l * l * (1.015 / 12));
  Mat3 Ic;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const double uu = rnd(axis(i) * axis(j));
      Ic(i, j) = rnd(rnd(a * uu) + rnd(b * rnd((i == j ? 1.0 : 0.0) - uu)));
    }
  Vec3 com;
  for (int i = 0; i < 3; ++i) com(i) = rnd(0.5 * l * axis(i));
  return InertiaSpec::fromMassComInertia(m, com, Ic);
}

}  // namespace

ModelSpec autoTree(const AutoTreeOptions& o) {
  if (o.bodies < 0) throw std::invalid_argument("autoTree: bodies must be >= 0");
  if (!(o.branching >= 1)) throw std::invalid_argument("autoTree: branching must be >= 1");
  if (!(o.taper > 0)) throw std::invalid_argument("autoTree: taper must be > 0");
  if (!std::isfinite(o.skew)) throw std::invalid_argument("autoTree: skew must be finite");
  if (o.axes.empty()) throw std::invalid_argument("autoTree: axes must not be empty");
  for (JointType t : o.axes)
    if (isPlanar(t)) throw std::invalid_argument("autoTree: axes must be spatial joint types");
  ModelSpec spec;
  spec.name = "autoTree";
  std::ostringstream d;
  d << "spatial_v2 autoTree(" << o.bodies << ", " << o.branching << ", " << o.skew << ", "
    << o.taper << "): a " << (o.branching == 1 ? "chain" : "tree") << " of " << o.bodies
    << " tubes";
  if (o.branching != 1) d << " (branching " << o.branching << ")";
  d << " on ";
  for (std::size_t k = 0; k < o.axes.size(); ++k)
    d << (k ? ", " : "") << jointCode(o.axes[k]);
  d << (o.axes.size() > 1 ? " joints in turn" : " joints");
  spec.description = d.str();
  spec.baseAppearance = Draw().box({-0.2, -0.3, -0.2}, {0.2, 0.3, -0.06}).list();
  std::vector<double> len(o.bodies);
  int p0 = -1;  // parent of the previous body: a joint cylinder is drawn on each first child
  for (int i = 1; i <= o.bodies; ++i) {
    BodySpec b;
    b.name = "link" + std::to_string(i);
    const int p = static_cast<int>(std::floor((i - 2 + std::ceil(o.branching)) / o.branching));
    b.parent = p - 1;
    b.joint.type = o.axes[(i - 1) % o.axes.size()];
    b.rotation = p == 0 ? Mat3::Identity() : rotxE(o.skew);  // as spatial_v2: no skew at the root
    b.translation = Vec3(p == 0 ? 0.0 : len[p - 1], 0, 0);
    const double l = std::pow(o.taper, i - 1);
    len[i - 1] = l;
    const double mass = std::pow(o.taper, 3 * (i - 1));
    b.inertia = tube(mass, l, Vec3::UnitX());
    Draw draw;
    draw.cyl({0, 0, 0}, {l, 0, 0}, 0.05 * l);
    if (p > p0) {
      const double pl = p == 0 ? 1.0 : len[p - 1];
      const Vec3 axis = jointAxis(b.joint.type);
      draw.cyl(-0.07 * pl * axis, 0.07 * pl * axis, 0.08 * pl);
      p0 = p;
    }
    b.appearance = draw.list();
    spec.bodies.push_back(std::move(b));
  }
  return spec;
}

ModelSpec planarChain(int n) {
  if (n < 0) throw std::invalid_argument("planarChain: n must be >= 0");
  ModelSpec spec;
  spec.name = "planar";
  spec.description = "spatial_v2 planar(" + std::to_string(n) + "): planar chain of unit links";
  spec.arithmetic = Arithmetic::Planar;
  spec.baseAppearance = planarBaseAppearance();
  for (int i = 0; i < n; ++i) {
    BodySpec b = makeBody("link" + std::to_string(i + 1), i - 1, JointType::PlanarR, unitLink(),
                          planarLinkAppearance());
    b.translation = Vec3(i == 0 ? 0.0 : 1.0, 0, 0);
    spec.bodies.push_back(std::move(b));
  }
  return spec;
}

namespace {

// dot and cross products and normalisation, rounded term by term (see rnd)
double dot3(const Vec3& a, const Vec3& b) {
  return rnd(rnd(rnd(a.x() * b.x()) + rnd(a.y() * b.y())) + rnd(a.z() * b.z()));
}
Vec3 cross3(const Vec3& a, const Vec3& b) {
  return Vec3(rnd(rnd(a.y() * b.z()) - rnd(a.z() * b.y())),
              rnd(rnd(a.z() * b.x()) - rnd(a.x() * b.z())),
              rnd(rnd(a.x() * b.y()) - rnd(a.y() * b.x())));
}
Vec3 unit(const Vec3& a) {
  const double n = std::sqrt(dot3(a, a));
  return Vec3(a.x() / n, a.y() / n, a.z() / n);
}
// values that are zero but for rounding (sin(pi) * r) are written as 0
double snap(double x, double scale) { return std::abs(x) < 1e-12 * scale ? 0.0 : x; }

// gfxExample's circle(centre, radius, direction): a closed polyline in its own sub-list
Draw circle(const Vec3& centre, double radius, const Vec3& direction, int segments = 32) {
  const Vec3 Z = unit(direction);
  Vec3 Y = std::abs(Z.z()) < 0.5 ? Vec3::UnitZ() : Vec3::UnitY();
  const double yz = dot3(Y, Z);
  Y = unit(Vec3(rnd(Y.x() - rnd(Z.x() * yz)), rnd(Y.y() - rnd(Z.y() * yz)),
                rnd(Y.z() - rnd(Z.z() * yz))));
  const Vec3 X = cross3(Y, Z);
  std::vector<Vec3> pts;
  for (int k = 0; k < segments; ++k) {
    const double a = 2 * M_PI * k / segments, c = std::cos(a), s = std::sin(a);
    Vec3 p;
    for (int i = 0; i < 3; ++i)
      p(i) = snap(rnd(rnd(radius * rnd(rnd(c * X(i)) + rnd(s * Y(i)))) + centre(i)), radius);
    pts.push_back(p);
  }
  pts.push_back(pts.front());
  Draw d;
  d.line(pts);
  return d;
}

InertiaSpec massless() { return InertiaSpec::fromMassComInertia(0.0, Vec3::Zero(), Mat3::Zero()); }

}  // namespace

ModelSpec floatBase(const ModelSpec& model) {
  if (model.arithmetic != Arithmetic::Spatial)
    throw std::invalid_argument("floatBase: applies to spatial models only");
  if (model.bodies.empty()) throw std::invalid_argument("floatBase: the model has no bodies");
  if (model.bodies[0].parent != -1)
    throw std::invalid_argument("floatBase: the first body must be on the fixed base");
  for (std::size_t i = 1; i < model.bodies.size(); ++i)
    if (model.bodies[i].parent == -1)
      throw std::invalid_argument("floatBase: only one body may be on the fixed base ('" +
                                  model.bodies[i].name + "' is too)");
  for (const ConstraintSpec& c : model.constraints)
    if (c.type == ConstraintSpec::Type::Coupling && (c.joint == 0 || c.master == 0))
      throw std::invalid_argument("floatBase: a gearing constraint uses joint '" +
                                  model.bodies[0].name + "', which floatBase replaces");
  static const char* const names[5] = {"float_px", "float_py", "float_pz", "float_rx", "float_ry"};
  static const JointType types[5] = {JointType::Px, JointType::Py, JointType::Pz, JointType::Rx,
                                     JointType::Ry};
  for (const char* n : names)
    if (model.findBody(n) >= 0)
      throw std::invalid_argument(std::string("floatBase: a body is already named '") + n + "'");
  ModelSpec out = model;
  out.bodies.clear();
  for (int k = 0; k < 5; ++k)
    out.bodies.push_back(makeBody(names[k], k - 1, types[k], massless(), json::array()));
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    BodySpec b = model.bodies[i];
    if (i == 0) {
      b.parent = 4;
      b.joint = Joint{};  // Rz
      b.q0 = b.qd0 = 0.0;
    } else {
      b.parent += 5;
    }
    out.bodies.push_back(std::move(b));
  }
  auto shift = [](int& body) {
    if (body >= 0) body += 5;
  };
  shift(out.camera.body);
  for (ContactPointSpec& c : out.contacts) shift(c.body);
  for (ExternalForceSpec& f : out.forces) shift(f.body);
  for (SiteSpec& s : out.sites) shift(s.body);
  for (ConstraintSpec& c : out.constraints) {
    if (c.type == ConstraintSpec::Type::Coupling) {
      shift(c.joint);
      shift(c.master);
    } else {
      shift(c.bodyA);
      shift(c.bodyB);
    }
  }
  out.description += std::string(out.description.empty() ? "" : "; ") +
                     "floating base (spatial_v2 floatbase: Px Py Pz Rx Ry Rz joints, 5 massless "
                     "bodies)";
  return out;
}

ModelSpec doublePendulum() {
  ModelSpec spec = planarChain(2);
  spec.name = "double_pendulum";
  spec.description =
      "Double pendulum: spatial_v2 planar(2) under gravity -y, released from rest at "
      "q = [pi/3, -pi/6]; RK4 with the energy projection on, so its total energy stays constant";
  spec.gravity = Vec3(0, -9.81, 0);
  spec.bodies[0].q0 = M_PI / 3;
  spec.bodies[1].q0 = -M_PI / 6;
  // passive: RK4 with the energy projection keeps its total energy constant
  spec.simulation.energyProjection = true;
  return spec;
}

ModelSpec gfxExample(bool trackingCamera) {
  ModelSpec spec = planarChain(2);
  spec.name = trackingCamera ? "gfx_example_tracking" : "gfx_example";
  spec.description =
      std::string("spatial_v2 gfxExample") + (trackingCamera ? "(1)" : "") +
      ": planar(2) showing every drawing instruction (tiles, box, cyl, sphere, two-tone colour, "
      "facets, vertices, triangles, lines, sub-lists)" +
      (trackingCamera ? ", camera tracking point [1.1, 0, 0] of body 2" : "");
  // a roof: quadrilaterals and base in roofT1, end triangles in roofT2 (counter-clockwise seen
  // from outside)
  const std::vector<Vec3> roofV{{-0.2, -0.1, 0.4}, {0.1, -0.1, 0.4}, {0.1, 0.1, 0.4},
                                {-0.2, 0.1, 0.4},  {-0.1, 0, 0.5},   {0, 0, 0.5}};
  const std::vector<std::array<int, 3>> roofT1{{1, 2, 6}, {1, 6, 5}, {3, 4, 5},
                                               {3, 5, 6}, {3, 2, 1}, {3, 1, 4}};
  const std::vector<std::array<int, 3>> roofT2{{2, 3, 6}, {4, 1, 5}};
  // a large floor, then a platform: its sides facing -y, +y, -x, +x and its top
  spec.baseAppearance = Draw()
                            .tiles({-1, 2}, {-1, 1}, {-0.3, -0.3}, 0.4)
                            .tiles({-0.4, 0.45}, {-0.4, -1}, {-0.3, -0.15}, 0.1)
                            .tiles({-0.4, 0.45}, {0.4, 0.4}, {-0.3, -0.15}, 0.1)
                            .tiles({-0.4, -1}, {-0.4, 0.4}, {-0.3, -0.15}, 0.1)
                            .tiles({0.45, 0.45}, {-0.4, 0.4}, {-0.3, -0.15}, 0.1)
                            .tiles({-0.4, 0.45}, {-0.4, 0.4}, {-0.15, -0.15}, 0.1)
                            .box({-0.2, -0.3, -0.2}, {0.2, 0.3, -0.07})
                            .vertices(roofV)
                            .triangles(roofT1)
                            .colour({0.45, 0.2, 0.35})
                            .triangles(roofT2)
                            .list();
  // sub-lists keep their colour and facets to themselves: "posh" is two-tone green at 80
  // facets, "crude" inherits the blue of the enclosing sub-list at 8 facets, and the line and
  // sphere after the sub-list are drawn in the body's default colour at 24 facets
  Draw crude, posh, outline;
  crude.facets(8).sphere({0.2, 0, 0.2}, 0.1);
  posh.facets(80).colour({0, 0.5, 0}, {0.4, 0.8, 0.4}).sphere({0.4, 0, 0.2}, 0.08);
  // Articulate's addition: a line through vertex indices (a yellow outline on the link's top)
  outline.colour({1, 0.85, 0.1})
      .vertices({{0.7, -0.07, 0.045}, {0.9, -0.07, 0.045}, {0.9, 0.07, 0.045}, {0.7, 0.07, 0.045}})
      .line(std::vector<int>{1, 2, 3, 4, 1});
  spec.bodies[0].appearance = Draw()
                                  .box({0, -0.07, -0.04}, {1, 0.07, 0.04})
                                  .cyl({0, 0, -0.07}, {0, 0, 0.07}, 0.1)
                                  .sub(Draw().colour({0.1, 0.3, 0.6}).sub(posh).sub(crude))
                                  .line({{0, 0, 0}, {0, 0, 0.2}, {0.8, 0, 0.2}})
                                  .sphere({0.6, 0, 0.2}, 0.06)
                                  .sub(outline)
                                  .list();
  // body 2: rings of circles and a white arrowhead whose apex, [1.1, 0, 0], the tracking
  // camera follows
  Draw b2;
  b2.box({0, -0.07, -0.04}, {1, 0.07, 0.04}).cyl({0, 0, -0.07}, {0, 0, 0.07}, 0.1);
  const double green[6] = {0.8, 0.75, 0.7, 0.65, 0.6, 0.55};
  const double x[6] = {0.2, 0.25, 0.3, 0.35, 0.4, 0.45};
  const double radius[6] = {0.15, 0.14, 0.13, 0.12, 0.11, 0.1};
  for (int k = 0; k < 6; ++k)
    b2.colour({0, green[k], 0.8}).sub(circle({x[k], 0, 0}, radius[k], Vec3::UnitX()));
  b2.colour({0.8, 0.5, 0.7})
      .sub(circle({0, 0, 0}, 0.2, {1, 0, 1}))
      .colour({1, 1, 1})
      .line({{1.1, 0, 0}, {1.02, 0.04, 0}, {1.02, -0.04, 0}, {1.1, 0, 0}});
  spec.bodies[1].appearance = b2.list();
  if (trackingCamera) {
    spec.camera.body = 1;
    spec.camera.trackpoint = Vec3(1.1, 0, 0);
  }
  return spec;
}

ModelSpec vee() {
  ModelSpec spec;
  spec.name = "vee";
  spec.gravity = Vec3::Zero();
  const double s = std::sqrt(0.5);
  const Vec3 axis(s, 0, s);  // joint axis in rod1 coordinates, 45 degrees to both rods
  Mat3 E;                    // rod1 -> joint frame: the joint's z axis is `axis`
  E << s, 0, -s, 0, 1, 0, s, 0, s;
  const Vec3 u(-s, 0, s);  // rod2's direction in its own coordinates (along rod1's z at q = 0)
  const Vec3 grey(0.3, 0.3, 0.3);
  spec.bodies.push_back(makeBody(
      "rod1", -1, JointType::Rz, tube(1, 1, Vec3::UnitX()),
      Draw()
          .cyl({0, 0, 0}, {1, 0, 0}, 0.05)
          .sub(Draw().colour(grey).cyl(-0.1 * axis, 0.1 * axis, 0.07).sphere({1, 0, 0}, 0.06))
          .list()));
  BodySpec rod2 = makeBody(
      "rod2", 0, JointType::Rz, tube(1, 1, u),
      Draw().cyl({0, 0, 0}, u, 0.05).sub(Draw().colour(grey).sphere(u, 0.06)).list());
  rod2.rotation = E;
  rod2.q0 = M_PI / 2;  // the rods 60 degrees apart
  spec.bodies.push_back(std::move(rod2));
  spec = floatBase(spec);
  spec.description =
      "Vee: two free-floating 1 m, 1 kg tubes joined at one end by a revolute joint at 45 "
      "degrees to both, opened to 60 degrees, zero gravity (floating base)";
  return spec;
}

ModelSpec singleBody() {
  ModelSpec spec;
  spec.name = "singlebody";
  spec.gravity = Vec3::Zero();
  spec.baseAppearance = Draw()
                            .colour({0.9, 0, 0})
                            .line({{0, 0, 0}, {2, 0, 0}})
                            .colour({0, 0.9, 0})
                            .line({{0, 0, 0}, {0, 2, 0}})
                            .colour({0, 0.3, 0.9})
                            .line({{0, 0, 0}, {0, 0, 2}})
                            .list();
  // a uniform box with one vertex at the body origin and the opposite one at (3, 2, 1)
  spec.bodies.push_back(makeBody(
      "box", -1, JointType::Rz,
      InertiaSpec::fromMassComInertia(1, Vec3(1.5, 1, 0.5),
                                      Vec3(5.0 / 12, 10.0 / 12, 13.0 / 12).asDiagonal()),
      Draw().box({0, 0, 0}, {3, 2, 1}).list()));
  spec = floatBase(spec);
  spec.description =
      "spatial_v2 singlebody: a free-floating unit-mass 3 x 2 x 1 m box in zero gravity "
      "(floating base); the base's x, y, z axes drawn red, green, blue";
  return spec;
}

ModelSpec scissor() {
  ModelSpec spec;
  spec.name = "scissor";
  spec.gravity = Vec3::Zero();
  // centroidal inertia of a unit-mass 0.2 x 0.1 x 1 box
  const Mat3 Ic = Vec3(1.01 / 12, 1.04 / 12, 0.05 / 12).asDiagonal();
  spec.bodies.push_back(makeBody("blade1", -1, JointType::Rz,
                                 InertiaSpec::fromMassComInertia(1, Vec3(0, -0.05, 0), Ic),
                                 Draw()
                                     .box({-0.1, -0.1, -0.5}, {0.1, 0, 0.5})
                                     .colour({0.6, 0.3, 0.8})
                                     .cyl({0, -0.13, 0}, {0, 0.13, 0}, 0.07)
                                     .list()));
  BodySpec blade2 = makeBody("blade2", 0, JointType::Ry,
                             InertiaSpec::fromMassComInertia(1, Vec3(0, 0.05, 0), Ic),
                             Draw().box({-0.1, 0, -0.5}, {0.1, 0.1, 0.5}).list());
  blade2.q0 = 0.6;
  spec.bodies.push_back(std::move(blade2));
  spec.camera.direction = Vec3(0, -3, 1);
  spec.camera.zoom = 0.9;
  spec = floatBase(spec);
  spec.description =
      "spatial_v2 scissor: two unit-mass 0.2 x 0.1 x 1 m plates joined at the middle by a "
      "revolute joint, opened 0.6 rad, floating in zero gravity (floating base)";
  return spec;
}

ModelSpec doubleElbow() {
  ModelSpec spec;
  spec.name = "double_elbow";
  spec.description =
      "spatial_v2 doubleElbow: planar(2) with a double elbow, two revolute joints 0.25 m apart "
      "geared 1:1 (coupling q3 = q2)";
  spec.arithmetic = Arithmetic::Planar;
  spec.baseAppearance = planarBaseAppearance();
  spec.bodies.push_back(makeBody("upper", -1, JointType::PlanarR, unitLink(),
                                 Draw()
                                     .box({0, -0.07, -0.04}, {1, 0.07, 0.04})
                                     .cyl({0, 0, -0.07}, {0, 0, 0.07}, 0.1)
                                     .cyl({1, 0, -0.05}, {1, 0, 0.05}, 0.125)
                                     .list()));
  BodySpec elbow = makeBody("elbow", 0, JointType::PlanarR, massless(),
                            Draw()
                                .box({0, -0.06, 0.05}, {0.25, 0.06, 0.08})
                                .box({0, -0.06, -0.05}, {0.25, 0.06, -0.08})
                                .cyl({0, 0, -0.08}, {0, 0, 0.08}, 0.06)
                                .cyl({0.25, 0, -0.08}, {0.25, 0, 0.08}, 0.06)
                                .list());
  elbow.translation = Vec3(1, 0, 0);
  spec.bodies.push_back(std::move(elbow));
  BodySpec lower = makeBody("lower", 1, JointType::PlanarR, unitLink(),
                            Draw()
                                .box({0, -0.07, -0.04}, {1, 0.07, 0.04})
                                .cyl({0, 0, -0.05}, {0, 0, 0.05}, 0.125)
                                .list());
  lower.translation = Vec3(0.25, 0, 0);
  spec.bodies.push_back(std::move(lower));
  ConstraintSpec gears;
  gears.name = "gears 1:1";
  gears.joint = 2;
  gears.master = 1;
  spec.constraints.push_back(gears);
  return spec;
}

ModelSpec rollingDisc(int npt) {
  if (npt < 3 || npt > 1024)
    throw std::invalid_argument("rollingDisc: points must be from 3 to 1024");
  const double R = 0.05, T = 0.01, density = 3000;  // m, m, kg/m^3
  const double mass = rnd(rnd(rnd(M_PI * R) * R) * T) * density;
  const double Ibig = rnd(rnd(mass * R) * R) / 2;
  const double Ismall = rnd(mass * rnd(rnd(rnd(3 * R) * R) + rnd(T * T))) / 12;
  ModelSpec spec;
  spec.name = "rollingdisc";
  spec.baseAppearance = Draw().tiles({-0.1, 1}, {-0.3, 0.3}, {0, 0}, 0.1).list();
  // the rim as an npt-sided cylinder (matching the contact points) and a white stripe through
  // it, so that rolling shows
  const double stripe = rnd(0.8 * rnd(R * std::cos(M_PI / npt)));
  spec.bodies.push_back(makeBody(
      "disc", -1, JointType::Rz,
      InertiaSpec::fromMassComInertia(mass, Vec3::Zero(), Vec3(Ismall, Ibig, Ismall).asDiagonal()),
      Draw()
          .facets(npt)
          .cyl({0, -T / 2, 0}, {0, T / 2, 0}, R)
          .sub(Draw().colour({0.95, 0.95, 0.95}).box({-stripe, -0.0055, -0.003}, {stripe, 0.0055, 0.003}))
          .list()));
  spec.camera.body = 0;
  spec.camera.direction = Vec3(1, 0, 0.1);
  spec.camera.locus = Vec2(0, 0.5);
  double zmin = 0;
  for (double y : {-T / 2, T / 2})
    for (int k = 0; k < npt; ++k) {
      const double a = 2 * M_PI * k / npt;
      const Vec3 p(snap(rnd(std::sin(a) * R), R), y, snap(rnd(std::cos(a) * R), R));
      zmin = std::min(zmin, p.z());
      spec.contacts.push_back({0, p});
    }
  spec = floatBase(spec);
  spec.bodies[2].q0 = -zmin;  // standing on its rim on the floor
  std::ostringstream d;
  d << "spatial_v2 rollingdisc(" << npt << "): a floating disc (R 0.05 m, 0.01 m thick, 3000 "
    << "kg/m^3) with " << 2 * npt << " rim contact points, at rest on its edge on a tiled floor";
  spec.description = d.str();
  return spec;
}

RigidBodySpec bouncingCylinder(double height) {
  if (!std::isfinite(height) || height < 0.045)
    throw std::invalid_argument("bouncingCylinder: the height must be >= 0.045 m (on the floor)");
  const double R = 0.03, L = 0.09;  // m
  RigidBodySpec spec;
  spec.name = "bouncing_cylinder";
  spec.description =
      "Bouncing cylinder (FortranMbdVector's workload): L 90 mm, R 30 mm, 2 kg, dropped upright "
      "at 1 m/s spinning at 5 rad/s about y onto a floor with restitution 0.87 and friction "
      "0.15, g = 10";
  spec.shape.type = ShapeSpec::Type::Cylinder;
  spec.shape.radius = R;
  spec.shape.length = L;
  spec.mass = 2.0;
  spec.position = Vec3(0, 0, height);
  spec.velocity = Vec3(0, 0, -1);
  spec.angularVelocity = Vec3(0, 5, 0);
  spec.gravity = Vec3(0, 0, -10);
  FloorSpec floor;
  floor.restitution = 0.87;
  floor.friction = 0.15;
  spec.floor = floor;
  // the cylinder and a white stripe through it along x (poking out 1 mm), so that spin shows
  spec.appearance = Draw()
                        .facets(48)
                        .cyl({0, 0, -L / 2}, {0, 0, L / 2}, R)
                        .sub(Draw().colour({0.95, 0.95, 0.95}).box({-0.031, -0.004, -0.0455},
                                                                   {0.031, 0.004, 0.0455}))
                        .list();
  spec.baseAppearance = Draw().tiles({-0.6, 0.2}, {-0.2, 0.2}, {0, 0}, 0.05).list();
  return spec;
}

ModelSpec randomTree(int nb, std::uint32_t seed, const std::vector<JointType>& types) {
  if (nb < 0 || types.empty()) throw std::invalid_argument("randomTree: bad arguments");
  const bool planar = isPlanar(types.front());
  for (JointType t : types)
    if (isPlanar(t) != planar)
      throw std::invalid_argument("randomTree: mixes planar and spatial joint types");
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  auto u = [&](double lo, double hi) { return lo + (hi - lo) * 0.5 * (uni(rng) + 1.0); };
  ModelSpec spec;
  spec.name = "random";
  spec.arithmetic = planar ? Arithmetic::Planar : Arithmetic::Spatial;
  for (int i = 0; i < nb; ++i) {
    BodySpec b;
    b.name = "b" + std::to_string(i + 1);
    b.parent = i == 0 ? -1 : static_cast<int>(std::floor(u(-1, i - 1e-9)));
    b.joint.type = types[static_cast<std::size_t>(u(0, types.size() - 1e-9))];
    if (b.joint.type == JointType::H) b.joint.pitch = u(-0.5, 0.5);
    if (planar) {
      b.rotation = rotzE(u(-M_PI, M_PI));
      b.translation = Vec3(u(-0.6, 0.6), u(-0.6, 0.6), 0);
    } else {
      b.rotation = rotxE(u(-M_PI, M_PI)) * rotyE(u(-M_PI, M_PI)) * rotzE(u(-M_PI, M_PI));
      b.translation = Vec3(u(-0.6, 0.6), u(-0.6, 0.6), u(-0.6, 0.6));
    }
    Mat3 A;
    for (int k = 0; k < 9; ++k) A(k / 3, k % 3) = u(-1, 1);
    Mat3 Ic = A * A.transpose() + 0.1 * Mat3::Identity();
    // keep the triangle inequality: a random SPD matrix need not satisfy it
    Eigen::SelfAdjointEigenSolver<Mat3> es(Ic);
    Vec3 p = es.eigenvalues();
    p(2) = std::min(p(2), p(0) + p(1));
    Ic = es.eigenvectors() * p.asDiagonal() * es.eigenvectors().transpose();
    Ic = 0.5 * (Ic + Ic.transpose()).eval();
    const Vec3 com = planar ? Vec3(u(-0.3, 0.3), u(-0.3, 0.3), 0)
                            : Vec3(u(-0.3, 0.3), u(-0.3, 0.3), u(-0.3, 0.3));
    b.inertia = InertiaSpec::fromMassComInertia(u(0.5, 2.0), com, Ic);
    spec.bodies.push_back(std::move(b));
  }
  return spec;
}

}  // namespace art
