#pragma once
// Mesh files for the `mesh` drawing instruction (model/appearance.h), read through assimp:
// STL (binary and ASCII), OBJ, Collada DAE, glTF/GLB, PLY and the other formats assimp reads.
// Collada files are read as RViz reads them, which is what ROS robots are drawn for: their
// <unit> scales the vertices (a file in millimetres comes out in metres) and their <up_axis>
// is ignored (assimp would turn a Z_UP file to Y up). Node transforms are applied. Mesh file
// names in a document are relative to the document's folder; loadDocument makes them absolute
// and the Articulate writer makes those under the written file's folder relative again.

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include "articulate/spatial/spatial.h"

namespace art {

/// A triangle mesh as a file holds it (coordinates in m after the file's unit).
struct MeshData {
  std::vector<Eigen::Vector3f> vertices;
  std::vector<std::array<std::uint32_t, 3>> triangles;  // 0-based indices into vertices
  std::vector<int> triangleColour;  // per triangle: index into colours, -1 where the file has none
  std::vector<Vec3> colours;        // the materials' diffuse colours (0..1)
  Vec3 min = Vec3::Zero(), max = Vec3::Zero();  // bounding box of the vertices
};

/// Reads a mesh file (at most 256 MiB). Cached per file and modification time: a second call
/// for an unchanged file returns the same object, safe to share between threads. Throws
/// FormatError (path() = `path`) saying why: no such file, a format assimp does not read, a
/// file that is corrupt, or one without triangles.
std::shared_ptr<const MeshData> loadMesh(const std::string& path);

/// Every mesh file name in a drawing-instruction list (sub-lists included), in order, as written.
std::vector<std::string> meshFiles(const nlohmann::json& appearance);

/// Rewrites the relative mesh file names of a drawing-instruction list against `folder`
/// (absolute, normalised). Names that are absolute, and anything that is not a well-formed mesh
/// instruction, are left as they are.
void absoluteMeshPaths(nlohmann::json& appearance, const std::string& folder);

/// The reverse for writing a document into `folder`: absolute names under it become relative.
void relativeMeshPaths(nlohmann::json& appearance, const std::string& folder);

}  // namespace art
