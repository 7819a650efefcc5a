#pragma once
// spatial_v2 drawing instruction lists (showmotion spec section 2), written as JSON arrays:
// an instruction name followed by its arguments, e.g. ["colour", [1, 0, 0], "box",
// [[0, -0.1, -0.1], [1, 0.1, 0.1]]]; a nested array in instruction position is a sub-list.
// The interpreter resolves the graphics context (colour, facets, vertices) and yields
// primitives in body coordinates; the same pass validates the list.

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "articulate/model/diagnostics.h"
#include "articulate/spatial/spatial.h"

namespace art {

/// One shape to draw, in body coordinates, with its resolved colour and facets.
struct Primitive {
  enum class Kind { Box, Cylinder, Sphere, Line, Triangles, Tiles, Mesh };
  Kind kind = Kind::Box;
  Vec3 colour = Vec3::Constant(0.5);
  std::optional<Vec3> colour2;   // second colour row (two-tone spheres)
  double opacity = 1.0;          // 1 opaque, down to 0 (the "opacity" instruction)
  int facets = 24;
  std::vector<Vec3> points;      // box: 2 corners; cyl: 2 end centres; sphere: centre;
                                 // line: polyline; triangles: vertices
  std::vector<std::array<int, 3>> triangles;  // 0-based indices into points
  double radius = 0.0;           // cyl, sphere
  Eigen::Matrix<double, 3, 2> range = Eigen::Matrix<double, 3, 2>::Zero();  // tiles
  double size = 0.0;             // tiles: tile edge length
  std::string path;              // JSON path of the instruction
  // mesh: the file (as written: absolute once a document is loaded, formats/mesh.h), and where
  // its vertices go: x_body = rotation * (scale .* x_file) + points[0]; fileColours: the file's
  // material colours where it has them (else `colour`, the graphics context's)
  std::string file;
  Vec3 scale = Vec3::Ones();
  Mat3 rotation = Mat3::Identity();
  bool fileColours = true;
};

/// Default colour of body `bodyNumber` (1-based as spatial_v2; 0 = base).
Vec3 defaultBodyColour(int bodyNumber);

/// Limits that keep a malicious or mistaken file from exhausting memory.
struct AppearanceLimits {
  int maxFacets = 1024;
  std::size_t maxVertices = 1000000;   // per vertex list, line or triangle list
  double maxTiles = 1e6;               // tiles per floor
  int maxDepth = 64;                   // sub-list nesting
};

/// At most this many triangles draw a whole model: every body's and the base's shapes, round
/// ones at their facets (drawingTriangles), and every mesh instruction's file (its triangles,
/// once per instruction). A model past it is refused when read (formats/document.h), so
/// that a small file cannot ask the viewport for gigabytes (50 spheres at facets 1024 did).
inline constexpr std::size_t kMaxDrawingTriangles = 16u << 20;

/// About how many triangles the viewport makes to draw `p`: a sphere at f facets about f², a
/// cylinder 4f, a box 12, a triangle list its triangles twice (both windings), tiles two
/// each; 0 for a line, and for a mesh, whose file says (MeshData).
std::size_t drawingTriangles(const Primitive& p);

/// Removes the triangles of `triangles` that repeat an earlier one (the same corners in the same
/// cyclic order, so a triangle and its reverse are both kept) and those with a repeated corner,
/// keeping the order of the rest; `perTriangle`, when given, loses the same entries. A repeat
/// draws nothing new, yet every copy is rasterised: 5,000 copies of one triangle took software
/// GL tens of seconds. O(n log n).
template <class Index, class PerTriangle = std::vector<int>>
void removeRepeatedTriangles(std::vector<std::array<Index, 3>>& triangles, PerTriangle* perTriangle = nullptr) {
  std::vector<std::pair<std::array<Index, 3>, std::size_t>> keyed;
  keyed.reserve(triangles.size());
  for (std::size_t k = 0; k < triangles.size(); ++k) {
    std::array<Index, 3> t = triangles[k];
    while (t[0] > t[1] || t[0] > t[2]) t = {t[1], t[2], t[0]};  // the smallest corner first
    keyed.emplace_back(t, k);
  }
  std::sort(keyed.begin(), keyed.end());
  std::vector<char> keep(triangles.size(), 0);
  for (std::size_t k = 0; k < keyed.size(); ++k) {
    const auto& t = keyed[k].first;
    if (t[0] != t[1] && t[1] != t[2] && t[0] != t[2] && (k == 0 || keyed[k - 1].first != t)) keep[keyed[k].second] = 1;
  }
  std::size_t out = 0;
  for (std::size_t k = 0; k < triangles.size(); ++k) {
    if (!keep[k]) continue;
    triangles[out] = triangles[k];
    if (perTriangle) (*perTriangle)[out] = (*perTriangle)[k];
    ++out;
  }
  triangles.resize(out);
  if (perTriangle) perTriangle->resize(out);
}

/// The number of arguments of a drawing instruction ("cyl": 2), or -1 for an unknown name.
int instructionArity(const std::string& name);

/// Interprets one body's drawing instruction list. `path` is the list's JSON path (used in
/// messages such as "bodies[1].appearance[2]: 'cyl' needs 2 arguments"); `isBase` allows
/// `tiles`. Every problem is appended to `problems` (when given) and the faulty instruction
/// is skipped; the valid primitives are returned.
std::vector<Primitive> interpretAppearance(const nlohmann::json& list, const Vec3& defaultColour,
                                           bool isBase, const std::string& path,
                                           Diagnostics* problems,
                                           const AppearanceLimits& limits = {});

}  // namespace art
