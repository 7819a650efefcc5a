// A mesh file through assimp in this process (mesh_read.h): side files confined to the mesh
// file's folder, the scene's size checked against MeshLimits before it is triangulated and
// placed, and the triangles and material colours copied out.
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <new>
#include <utility>
#include <vector>

#include <assimp/DefaultIOSystem.h>
#include <assimp/Importer.hpp>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include "articulate/formats/files.h"
#include "articulate/formats/json.h"
#include "articulate/model/appearance.h"
#include "mesh_read.h"
#include "robot_import.h"

namespace art::mesh_read {

namespace fs = std::filesystem;

namespace {

// assimp's file access for one mesh file: the file itself, and side files (an OBJ's mtllib, a
// glTF's buffers) only when they are regular files no larger than MeshLimits::bytes in the
// mesh file's folder or below it, as a file's own references are written. A refused side file
// is remembered, and the import is then refused with its reason: a FIFO would block the read,
// and "../../etc/passwd" would be read as vertices.
class ConfinedFiles : public Assimp::DefaultIOSystem {
 public:
  explicit ConfinedFiles(const std::string& path)
      : m_file(fs::absolute(path).lexically_normal()), m_folder(m_file.parent_path()) {}

  // stat, never open: assimp's own Exists opens the file, which blocks on a FIFO
  bool Exists(const char* file) const override {
    struct stat st {};
    return ::stat(file, &st) == 0;
  }

  Assimp::IOStream* Open(const char* file, const char* mode) override {
    const fs::path p = fs::absolute(file).lexically_normal();
    if (p != m_file && Exists(file)) {  // a missing side file is assimp's to handle (a warning)
      const fs::path rel = p.lexically_relative(m_folder);
      if (rel.empty() || *rel.begin() == "..") {
        refuse("names the side file '" + std::string(file) + "', which is outside the mesh file's folder");
        return nullptr;
      }
      try {
        if (regularFileSize(p.string(), "side file") > MeshLimits::bytes) {
          refuse("names the side file '" + std::string(file) + "', which is larger than 256 MiB");
          return nullptr;
        }
      } catch (const FormatError& e) {
        refuse("names a side file that cannot be read: " + std::string(e.what()));
        return nullptr;
      }
    }
    if (std::string(mode).find_first_of("wa+") != std::string::npos) return nullptr;  // reading only
    return DefaultIOSystem::Open(file, mode);
  }

  // the first side file refused
  const std::string& refused() const { return m_refused; }

 private:
  void refuse(const std::string& why) {
    if (m_refused.empty()) m_refused = why;
  }
  fs::path m_file, m_folder;
  std::string m_refused;
};

// what triangulating and placing the scene will make, from its polygons and nodes, before any
// of it is made; throws past a limit of MeshLimits
void checkScene(const aiScene& scene, const std::string& path) {
  struct Faces {
    std::size_t triangles = 0, polygonCorners = 0;
  };
  std::vector<Faces> faces(scene.mNumMeshes);
  for (unsigned m = 0; m < scene.mNumMeshes; ++m) {
    const aiMesh& mesh = *scene.mMeshes[m];
    for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
      const std::size_t k = mesh.mFaces[f].mNumIndices;
      if (k > MeshLimits::polygonCorners)
        throw FormatError(path, "the mesh file has a polygon of " + std::to_string(k) + " corners (at most " +
                                    std::to_string(MeshLimits::polygonCorners) + ")");
      if (k >= 3) faces[m].triangles += k - 2;
      if (k > 4) faces[m].polygonCorners += k;
    }
  }
  std::size_t nodes = 0, triangles = 0, corners = 0;
  std::vector<std::pair<const aiNode*, int>> stack{{scene.mRootNode, 1}};
  while (!stack.empty()) {
    const auto [node, depth] = stack.back();
    stack.pop_back();
    if (++nodes > MeshLimits::nodes || depth > MeshLimits::nodeDepth)
      throw FormatError(path, "the mesh file's scene has more than " + std::to_string(MeshLimits::nodes) +
                                  " nodes, or nests them deeper than " + std::to_string(MeshLimits::nodeDepth));
    for (unsigned k = 0; k < node->mNumMeshes; ++k) {
      if (node->mMeshes[k] >= scene.mNumMeshes) continue;  // assimp's validation refuses such a scene
      triangles += faces[node->mMeshes[k]].triangles;
      corners += faces[node->mMeshes[k]].polygonCorners;
    }
    if (triangles > MeshLimits::triangles)
      throw FormatError(path, "the mesh file has more than " + std::to_string(MeshLimits::triangles) +
                                  " triangles once its polygons are triangulated and its nodes placed");
    if (corners > MeshLimits::allPolygonCorners)
      throw FormatError(path, "the mesh file's polygons have more than " + std::to_string(MeshLimits::allPolygonCorners) +
                                  " corners in all (polygons are faces of more than four corners)");
    for (unsigned c = 0; c < node->mNumChildren; ++c) stack.emplace_back(node->mChildren[c], depth + 1);
  }
}

// the material's diffuse (or glTF base colour) texture as MeshData::textures holds it, with a
// note on what is drawn
std::string textureOf(const aiMaterial& material, const std::string& path, std::vector<std::string>& notes) {
  aiString name;
  if (material.GetTexture(aiTextureType_DIFFUSE, 0, &name) != AI_SUCCESS &&
      material.GetTexture(aiTextureType_BASE_COLOR, 0, &name) != AI_SUCCESS)
    return "";
  std::string file = name.C_Str();
  // a mesh file's text is not checked as a URDF's is: its names are shown escaped and shortened
  const std::string shown = robot::printable(messageValue(file, 200));
  if (file.empty()) return "";
  if (file[0] == '*') {
    notes.push_back("its embedded texture '" + shown + "' is not drawn: the material colour is used");
    return "";
  }
  if (file.rfind("file://", 0) == 0) file = file.substr(7);
  const fs::path folder = fs::absolute(path).lexically_normal().parent_path();
  fs::path p = fs::path(file).is_absolute() ? fs::path(file) : folder / file;
  p = fs::absolute(p).lexically_normal();
  const fs::path rel = p.lexically_relative(folder);
  std::error_code ec;
  if (rel.empty() || *rel.begin() == "..") {
    notes.push_back("its texture '" + shown + "' is outside the mesh file's folder and not drawn: the material colour is used");
    return "";
  }
  if (!fs::is_regular_file(p, ec)) {
    notes.push_back("its texture '" + shown + "' is not found: the material colour is used");
    return "";
  }
  notes.push_back("its texture '" + shown + "' is drawn as its average colour");
  return p.string();
}

// the triangles and material colours of a triangulated, placed scene
MeshData copyTriangles(const aiScene& scene, const std::string& path) {
  MeshData out;
  std::map<unsigned, int> colourOf;  // material -> colours index
  for (unsigned m = 0; m < scene.mNumMeshes; ++m) {
    const aiMesh* mesh = scene.mMeshes[m];
    if (!(mesh->mPrimitiveTypes & aiPrimitiveType_TRIANGLE)) continue;
    int colour = -1;
    // assimp gives a file without materials (STL, a bare OBJ or PLY) its "DefaultMaterial":
    // not the file's colour, so such parts take the drawing's
    const aiMaterial* material = mesh->mMaterialIndex < scene.mNumMaterials ? scene.mMaterials[mesh->mMaterialIndex] : nullptr;
    if (material && material->GetName() != aiString(AI_DEFAULT_MATERIAL_NAME)) {
      aiColor4D c(1, 1, 1, 1);  // a textured material may give no colour: the texture's alone
      const bool coloured = material->Get(AI_MATKEY_COLOR_DIFFUSE, c) == AI_SUCCESS;
      const auto known = colourOf.find(mesh->mMaterialIndex);
      if (known != colourOf.end()) {
        colour = known->second;
      } else {
        std::string texture = textureOf(*material, path, out.notes);
        if (coloured || !texture.empty()) {
          colour = static_cast<int>(out.colours.size());
          out.colours.emplace_back(std::clamp(double(c.r), 0.0, 1.0), std::clamp(double(c.g), 0.0, 1.0),
                                   std::clamp(double(c.b), 0.0, 1.0));
          out.textures.push_back(std::move(texture));
        }
        colourOf.emplace(mesh->mMaterialIndex, colour);  // once per material, -1 included
      }
    }
    const auto base = static_cast<std::uint32_t>(out.vertices.size());
    for (unsigned v = 0; v < mesh->mNumVertices; ++v) {
      const aiVector3D& p = mesh->mVertices[v];
      out.vertices.emplace_back(p.x, p.y, p.z);
    }
    for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
      const aiFace& face = mesh->mFaces[f];
      if (face.mNumIndices != 3) continue;
      out.triangles.push_back({base + face.mIndices[0], base + face.mIndices[1], base + face.mIndices[2]});
      out.triangleColour.push_back(colour);
    }
  }
  removeRepeatedTriangles(out.triangles, &out.triangleColour);
  if (out.triangles.empty()) throw FormatError(path, "the mesh file has no triangles");
  for (const Eigen::Vector3f& v : out.vertices)
    if (!v.allFinite()) throw FormatError(path, "the mesh file has a vertex that is not a finite number");
  return out;
}

}  // namespace

MeshData readWithAssimp(const std::string& path) {
  if (regularFileSize(path, "mesh file") > MeshLimits::bytes) throw FormatError(path, "the mesh file is larger than 256 MiB");
  prescan(path);
  Assimp::Importer importer;
  auto* files = new ConfinedFiles(path);
  importer.SetIOHandler(files);  // the importer owns it
  // as RViz: a Collada file's <unit> is applied, its <up_axis> is not
  importer.SetPropertyBool(AI_CONFIG_IMPORT_COLLADA_IGNORE_UP_DIRECTION, true);
  importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_POINT | aiPrimitiveType_LINE);
  // the file as it is first, so that its size is known before it is triangulated and placed
  const aiScene* scene = importer.ReadFile(path, 0);
  if (!files->refused().empty()) throw FormatError(path, "the mesh file " + files->refused());
  if (!scene || (scene->mFlags & AI_SCENE_FLAGS_INCOMPLETE) || !scene->mRootNode) {
    const std::string why = importer.GetErrorString();
    if (why.find("bad_alloc") != std::string::npos) throw std::bad_alloc();  // assimp caught it
    throw FormatError(path, "the mesh file does not read" + (why.empty() ? std::string() : ": " + why));
  }
  checkScene(*scene, path);
  scene = importer.ApplyPostProcessing(aiProcess_Triangulate | aiProcess_JoinIdenticalVertices |
                                       aiProcess_PreTransformVertices | aiProcess_SortByPType |
                                       aiProcess_FindInvalidData);
  if (!scene) {
    const std::string why = importer.GetErrorString();
    throw FormatError(path, "the mesh file does not read" + (why.empty() ? std::string() : ": " + why));
  }
  return copyTriangles(*scene, path);
}

}  // namespace art::mesh_read
