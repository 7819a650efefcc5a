// The convex hull of a point set through qhull (convex_hull.h).
#include "convex_hull.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <stdexcept>

extern "C" {
#include <libqhull_r/qhull_ra.h>
}

namespace art {

namespace {

// one qhull computation, freed however it ends
struct Qhull {
  qhT qh{};
  std::unique_ptr<FILE, int (*)(FILE*)> sink{std::fopen("/dev/null", "w"), &std::fclose};
  int status = 0;
  Qhull(std::vector<double>& coordinates, int count) {
    qh_zero(&qh, sink.get());
    // Qt: triangulated facets; the messages of a failure go to the sink (the exception says why)
    char options[] = "qhull Qt";
    status = qh_new_qhull(&qh, 3, count, coordinates.data(), False, options, nullptr, sink.get());
  }
  ~Qhull() {
    int curlong = 0, totlong = 0;
    qh_freeqhull(&qh, !qh_ALL);
    qh_memfreeshort(&qh, &curlong, &totlong);
  }
  Qhull(const Qhull&) = delete;
  Qhull& operator=(const Qhull&) = delete;
};

}  // namespace

MeshData convexHull(const std::vector<Vec3>& points) {
  if (points.size() < 4)
    throw std::invalid_argument("a convex hull needs at least 4 vertices, got " + std::to_string(points.size()));
  if (points.size() > MeshLimits::triangles)
    throw std::invalid_argument("more than " + std::to_string(MeshLimits::triangles) + " vertices");
  std::vector<double> coordinates;
  coordinates.reserve(3 * points.size());
  for (const Vec3& p : points) {
    if (!p.allFinite()) throw std::invalid_argument("a vertex is not finite");
    coordinates.insert(coordinates.end(), {p.x(), p.y(), p.z()});
  }
  Qhull hull(coordinates, static_cast<int>(points.size()));
  if (hull.status != 0)
    throw std::invalid_argument("its vertices span no volume (they lie on one plane or line): the convex hull is flat");
  MeshData mesh;
  std::map<int, std::uint32_t> index;  // qhull's point id -> the mesh's vertex
  qhT* qh = &hull.qh;
  facetT* facet = nullptr;
  FORALLfacets {
    std::array<std::uint32_t, 3> triangle{};
    int k = 0;
    vertexT* vertex = nullptr;
    vertexT** vertexp = nullptr;
    FOREACHvertex_(facet->vertices) {
      if (k == 3) break;
      const int id = qh_pointid(qh, vertex->point);
      const auto [it, added] = index.emplace(id, static_cast<std::uint32_t>(mesh.vertices.size()));
      if (added) mesh.vertices.push_back(points[static_cast<std::size_t>(id)].cast<float>());
      triangle[static_cast<std::size_t>(k++)] = it->second;
    }
    if (k != 3) continue;
    // wound so that its normal points along qhull's outward facet normal
    const Vec3 a = mesh.vertices[triangle[0]].cast<double>(), b = mesh.vertices[triangle[1]].cast<double>(),
               c = mesh.vertices[triangle[2]].cast<double>();
    const Vec3 outward(facet->normal[0], facet->normal[1], facet->normal[2]);
    if ((b - a).cross(c - a).dot(outward) < 0) std::swap(triangle[1], triangle[2]);
    mesh.triangles.push_back(triangle);
    mesh.triangleColour.push_back(-1);
  }
  boundMesh(mesh);
  return mesh;
}

}  // namespace art
