// Mesh files through assimp (mesh.h).
#include "articulate/formats/mesh.h"

#include <filesystem>
#include <map>
#include <mutex>

#include <assimp/Importer.hpp>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include "articulate/formats/files.h"

#include "articulate/formats/json.h"

namespace art {

namespace fs = std::filesystem;

namespace {

constexpr std::uintmax_t kMaxMeshBytes = 256ull << 20;

std::shared_ptr<const MeshData> readMesh(const std::string& path) {
  if (regularFileSize(path, "mesh file") > kMaxMeshBytes) throw FormatError(path, "the mesh file is larger than 256 MiB");
  Assimp::Importer importer;
  // as RViz: a Collada file's <unit> is applied, its <up_axis> is not
  importer.SetPropertyBool(AI_CONFIG_IMPORT_COLLADA_IGNORE_UP_DIRECTION, true);
  importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_POINT | aiPrimitiveType_LINE);
  const aiScene* scene = importer.ReadFile(path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices |
                                                     aiProcess_PreTransformVertices | aiProcess_SortByPType |
                                                     aiProcess_FindInvalidData);
  if (!scene || (scene->mFlags & AI_SCENE_FLAGS_INCOMPLETE) || !scene->mRootNode) {
    const std::string why = importer.GetErrorString();
    throw FormatError(path, "the mesh file does not read" + (why.empty() ? std::string() : ": " + why));
  }
  auto out = std::make_shared<MeshData>();
  std::map<unsigned, int> colourOf;  // material -> colours index
  for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
    const aiMesh* mesh = scene->mMeshes[m];
    if (!(mesh->mPrimitiveTypes & aiPrimitiveType_TRIANGLE)) continue;
    int colour = -1;
    // assimp gives a file without materials (STL, a bare OBJ or PLY) its "DefaultMaterial":
    // not the file's colour, so such parts take the drawing's
    const aiMaterial* material = mesh->mMaterialIndex < scene->mNumMaterials ? scene->mMaterials[mesh->mMaterialIndex] : nullptr;
    if (material && material->GetName() != aiString(AI_DEFAULT_MATERIAL_NAME)) {
      aiColor4D c;
      if (material->Get(AI_MATKEY_COLOR_DIFFUSE, c) == AI_SUCCESS) {
        auto [it, added] = colourOf.emplace(mesh->mMaterialIndex, static_cast<int>(out->colours.size()));
        if (added) out->colours.emplace_back(c.r, c.g, c.b);
        colour = it->second;
      }
    }
    const auto base = static_cast<std::uint32_t>(out->vertices.size());
    for (unsigned v = 0; v < mesh->mNumVertices; ++v) {
      const aiVector3D& p = mesh->mVertices[v];
      out->vertices.emplace_back(p.x, p.y, p.z);
    }
    for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
      const aiFace& face = mesh->mFaces[f];
      if (face.mNumIndices != 3) continue;
      out->triangles.push_back({base + face.mIndices[0], base + face.mIndices[1], base + face.mIndices[2]});
      out->triangleColour.push_back(colour);
    }
  }
  if (out->triangles.empty()) throw FormatError(path, "the mesh file has no triangles");
  Eigen::Vector3f lo = out->vertices.front(), hi = lo;
  for (const Eigen::Vector3f& v : out->vertices) {
    if (!v.allFinite()) throw FormatError(path, "the mesh file has a vertex that is not a finite number");
    lo = lo.cwiseMin(v);
    hi = hi.cwiseMax(v);
  }
  out->min = lo.cast<double>();
  out->max = hi.cast<double>();
  return out;
}

// calls f(instruction's object) for each well-formed "mesh" instruction, sub-lists included
template <class F>
void eachMesh(nlohmann::json& list, F&& f, int depth = 0) {
  if (!list.is_array() || depth > 64) return;
  for (std::size_t k = 0; k < list.size(); ++k) {
    if (list[k].is_array()) {
      eachMesh(list[k], f, depth + 1);
    } else if (list[k] == "mesh" && k + 1 < list.size() && list[k + 1].is_object() && list[k + 1].contains("file") &&
               list[k + 1]["file"].is_string()) {
      f(list[k + 1]);
      ++k;
    }
  }
}

}  // namespace

std::shared_ptr<const MeshData> loadMesh(const std::string& path) {
  static std::mutex mutex;
  static std::map<std::pair<std::string, fs::file_time_type>, std::shared_ptr<const MeshData>> cache;
  std::error_code ec;
  const fs::file_time_type modified = fs::last_write_time(path, ec);
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = cache.find({path, modified}); it != cache.end()) return it->second;
  }
  std::shared_ptr<const MeshData> mesh = readMesh(path);  // outside the lock: meshes load in parallel
  std::lock_guard<std::mutex> lock(mutex);
  return cache.emplace(std::make_pair(path, modified), mesh).first->second;
}

std::vector<std::string> meshFiles(const nlohmann::json& appearance) {
  std::vector<std::string> out;
  nlohmann::json copy = appearance;
  eachMesh(copy, [&](nlohmann::json& m) { out.push_back(m["file"].get<std::string>()); });
  return out;
}

void absoluteMeshPaths(nlohmann::json& appearance, const std::string& folder) {
  eachMesh(appearance, [&](nlohmann::json& m) {
    const fs::path file = m["file"].get<std::string>();
    if (!file.is_absolute()) m["file"] = (fs::path(folder) / file).lexically_normal().string();
  });
}

void relativeMeshPaths(nlohmann::json& appearance, const std::string& folder) {
  const fs::path dir = fs::path(folder).lexically_normal();
  eachMesh(appearance, [&](nlohmann::json& m) {
    const fs::path file = fs::path(m["file"].get<std::string>()).lexically_normal();
    if (!file.is_absolute()) return;
    const fs::path rel = file.lexically_relative(dir);
    if (!rel.empty() && *rel.begin() != "..") m["file"] = rel.string();
  });
}

}  // namespace art
