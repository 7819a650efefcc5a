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
  // 0-based indices into vertices; repeats of a triangle and triangles with a repeated corner
  // are removed (removeRepeatedTriangles, model/appearance.h)
  std::vector<std::array<std::uint32_t, 3>> triangles;
  std::vector<int> triangleColour;  // per triangle: index into colours, -1 where the file has none
  std::vector<Vec3> colours;        // the materials' diffuse colours (0..1)
  // per colours entry: the material's diffuse (glTF: base colour) texture, an absolute path to
  // an existing file in the mesh file's folder or below, or empty. The viewport draws such a
  // part in its colour times the texture's average colour.
  std::vector<std::string> textures;
  // what of the file is drawn otherwise than written (a texture drawn as its average colour,
  // a texture not found, embedded or outside the folder: the material colour instead), one
  // line each, for the import report
  std::vector<std::string> notes;
  Vec3 min = Vec3::Zero(), max = Vec3::Zero();  // bounding box of the vertices
};

/// Sets mesh.min and mesh.max to the bounding box of its vertices (unchanged without vertices).
void boundMesh(MeshData& mesh);

/// What a mesh file may ask of the reader. A mesh file is untrusted input: each limit is
/// checked before the work it bounds, and a file past one is refused with the limit named.
struct MeshLimits {
  /// bytes of the file, and of each side file it names (an OBJ's mtllib, a glTF's buffers)
  static constexpr std::uintmax_t bytes = 256ull << 20;
  /// how deep a Collada file's XML elements, or a glTF's JSON arrays and objects, nest
  static constexpr int nesting = 100;
  /// scene nodes once a Collada file's <instance_node> references are expanded (and of any
  /// format's node tree), and how deep that expansion goes
  static constexpr std::size_t nodes = 100000;
  static constexpr int nodeDepth = 1000;
  /// triangles once polygons are triangulated and every node's meshes placed
  static constexpr std::size_t triangles = 16u << 20;
  /// polygons (faces of more than four corners) are triangulated by ear clipping, whose time
  /// grows with the square of a polygon's corners: at most this many corners per polygon, and
  /// this many polygon corners in all, bound it to well under a second (an OBJ's faces are
  /// counted before assimp parses them, every format's before they are triangulated)
  static constexpr std::size_t polygonCorners = 1000;
  static constexpr std::size_t allPolygonCorners = 100000;
  /// the reader runs in a process of its own (fork) with this much address space beyond what
  /// the caller's process already maps, and this much time, so that no file can crash, hang or
  /// exhaust the caller
  static constexpr std::uintmax_t memory = 3ull << 30;
  static constexpr int seconds = 60;
};

/// Reads a mesh file within MeshLimits. Cached per file and modification time: a second call
/// for an unchanged file returns the same object, safe to share between threads, or throws the
/// same refusal without reading the file again. The file is
/// read in a child process (fork) with MeshLimits::memory and MeshLimits::seconds; Collada
/// and glTF structure is checked before assimp parses it; side files must be regular files
/// in the mesh file's folder or below it. Throws FormatError (path() = `path`) saying why: no
/// such file, not a regular file, a format assimp does not read, a file that is corrupt, one
/// without triangles, a side file refused (outside the folder, not a regular file, too
/// large), a limit of MeshLimits passed, or the reader crashed, ran out of memory or time.
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
