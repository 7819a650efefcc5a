// Mesh files (mesh.h): the cache, and the mesh instructions of drawing lists. The reading is
// mesh_child.cpp, mesh_assimp.cpp and mesh_prescan.cpp.
#include "articulate/formats/mesh.h"

#include <filesystem>
#include <map>
#include <mutex>

#include "articulate/formats/files.h"
#include "articulate/formats/json.h"
#include "mesh_read.h"

namespace art {

namespace fs = std::filesystem;

namespace {

// the mesh of a file, read in a child process (mesh_child.cpp), with its bounding box
std::shared_ptr<const MeshData> readMesh(const std::string& path) {
  regularFileSize(path, "mesh file");  // no such file, a folder or a FIFO: said without a child
  auto out = std::make_shared<MeshData>(mesh_read::readInChild(path));
  boundMesh(*out);
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

void boundMesh(MeshData& mesh) {
  if (mesh.vertices.empty()) return;
  Eigen::Vector3f lo = mesh.vertices.front(), hi = lo;
  for (const Eigen::Vector3f& v : mesh.vertices) {
    lo = lo.cwiseMin(v);
    hi = hi.cwiseMax(v);
  }
  mesh.min = lo.cast<double>();
  mesh.max = hi.cast<double>();
}

std::shared_ptr<const MeshData> loadMesh(const std::string& path) {
  // a file's mesh, or why it does not read: a file that took the reader its whole time is not
  // read again for the same answer
  struct Entry {
    std::shared_ptr<const MeshData> mesh;
    std::string refusal;  // the FormatError's reason, without the path
  };
  static std::mutex mutex;
  static std::map<std::pair<std::string, fs::file_time_type>, Entry> cache;
  std::error_code ec;
  const fs::file_time_type modified = fs::last_write_time(path, ec);
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = cache.find({path, modified}); it != cache.end()) {
      if (it->second.mesh) return it->second.mesh;
      throw FormatError(path, it->second.refusal);
    }
  }
  Entry entry;
  try {
    entry.mesh = readMesh(path);  // outside the lock: meshes load in parallel
  } catch (const FormatError& e) {
    if (ec || e.path() != path) throw;  // no such file: it may be there next time
    const std::string what = e.what(), prefix = path + ": ";
    entry.refusal = what.rfind(prefix, 0) == 0 ? what.substr(prefix.size()) : what;
    std::lock_guard<std::mutex> lock(mutex);
    cache.emplace(std::make_pair(path, modified), entry);
    throw;
  }
  std::lock_guard<std::mutex> lock(mutex);
  return cache.emplace(std::make_pair(path, modified), entry).first->second.mesh;
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
