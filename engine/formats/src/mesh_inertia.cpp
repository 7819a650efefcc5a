// A mesh's mass properties as MuJoCo 3.3.8 computes them (mesh_inertia.h).
#include "mesh_inertia.h"

#include <cmath>
#include <stdexcept>
#include <vector>

#include "convex_hull.h"

namespace art {

namespace {

constexpr double kMinVal = 1e-15;  // MuJoCo's mjMINVAL

struct Triangles {
  std::vector<Vec3> v;
  std::vector<std::array<std::uint32_t, 3>> t;
};

// a triangle's area, its unit normal (zero for no area) and its centre
double triangle(const Vec3& a, const Vec3& b, const Vec3& c, Vec3& normal, Vec3& centre) {
  centre = (a + b + c) / 3;
  const Vec3 n = (b - a).cross(c - a);
  const double twice = n.norm();
  normal = twice > kMinVal ? Vec3(n / twice) : Vec3::Zero();
  return twice / 2;
}

}  // namespace

bool parseMeshInertia(const std::string& text, MeshInertia& out) {
  if (text == "convex") out = MeshInertia::Convex;
  else if (text == "exact") out = MeshInertia::Exact;
  else if (text == "legacy") out = MeshInertia::Legacy;
  else if (text == "shell") out = MeshInertia::Shell;
  else return false;
  return true;
}

MeshMass meshMass(const MeshData& mesh, const Vec3& scale, MeshInertia mode) {
  // the triangles' vertices scaled in double, as MuJoCo scales them
  const auto scaled = [&](const MeshData& from, Triangles& to) {
    to.v.reserve(from.vertices.size());
    for (const Eigen::Vector3f& p : from.vertices) to.v.push_back(scale.cwiseProduct(p.cast<double>()));
    to.t = from.triangles;
  };
  Triangles m;
  if (mode == MeshInertia::Convex) {
    // the hull of the file's (float) vertices, scaled after it: the hull's vertices are kept in
    // float, which would round scaled ones
    std::vector<Vec3> points;
    points.reserve(mesh.vertices.size());
    for (const Eigen::Vector3f& p : mesh.vertices) points.push_back(p.cast<double>());
    scaled(convexHull(points), m);  // throws for a flat hull
    mode = MeshInertia::Exact;
  } else {
    scaled(mesh, m);
  }
  const auto at = [&](std::uint32_t k) -> const Vec3& { return m.v[k]; };
  // the faces' area-weighted centroid
  Vec3 facecen = Vec3::Zero(), normal, centre;
  double area = 0;
  for (const auto& t : m.t) {
    const double a = triangle(at(t[0]), at(t[1]), at(t[2]), normal, centre);
    facecen += a * centre;
    area += a;
  }
  if (!(area >= kMinVal)) throw std::invalid_argument("its surface area is too small");
  facecen /= area;
  // volume (or area) and centre: pyramids to facecen
  const bool shell = mode == MeshInertia::Shell, legacy = mode == MeshInertia::Legacy;
  double total = 0;
  Vec3 com = Vec3::Zero();
  for (const auto& t : m.t) {
    const double a = triangle(at(t[0]), at(t[1]), at(t[2]), normal, centre);
    double w = shell ? a : (centre - facecen).dot(normal) * a / 3;
    if (legacy) w = std::abs(w);
    total += w;
    com += w * (centre * 0.75 + facecen * 0.25);
  }
  if (!(total >= kMinVal)) {
    if (shell) throw std::invalid_argument("its surface area is too small");
    throw std::invalid_argument(total < 0 ? "its volume is negative (misoriented triangles)"
                                          : "its volume is too small (inertia='shell' takes its surface instead)");
  }
  com /= total;
  // inertia about com, and the volume again: tetrahedra (or triangles) to com
  Mat3 P = Mat3::Zero();  // integral of x x^T
  total = 0;
  for (const auto& t : m.t) {
    const Vec3 D = at(t[0]) - com, E = at(t[1]) - com, F = at(t[2]) - com;
    const double a = triangle(D, E, F, normal, centre);
    double w = shell ? a : centre.dot(normal) * a / 3;
    if (legacy) w = std::abs(w);
    total += w;
    const Vec3 sum = D + E + F;
    P += w / (shell ? 12.0 : 20.0) * (D * D.transpose() + E * E.transpose() + F * F.transpose() + sum * sum.transpose());
  }
  if (!(total >= kMinVal)) throw std::invalid_argument("its volume is too small");
  MeshMass out;
  out.volume = total;
  out.centre = com;
  out.inertia = (P.trace() * Mat3::Identity() - P) / total;
  return out;
}

}  // namespace art
