// libFuzzer harness for mesh files (see README.md in this directory).
//
// The first input byte chooses the file's extension (STL, OBJ, Collada, glTF, GLB, PLY, OFF);
// the rest is the file, written into a folder of its own. The structure checks (mesh_read.h's
// prescan, this project's code, in this process where the fuzzer sees its coverage) may only
// throw FormatError; the reader in its child process (readInChild, as loadMesh reads) may only
// return a mesh or throw FormatError naming the file, whatever assimp does in the child: a
// crash, a hang (past 4 s here) or running out of memory there is a message here. A mesh that comes back has
// triangles, indices inside its vertices, finite vertices and colours in [0, 1] indexed from
// its triangles.
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "articulate/formats/json.h"
#include "fuzz_common.h"
#include "mesh_read.h"

namespace {
using fuzz::finding;
namespace fs = std::filesystem;

// the reader's time here: a file that hangs assimp is a refusal after it, within libFuzzer's
// -timeout (scripts/fuzz.sh: 10 s)
constexpr int kSeconds = 4;

const char* const kExtensions[] = {".stl", ".obj", ".dae", ".gltf", ".glb", ".ply", ".off"};

const fs::path& folder() {
  static const fs::path dir = [] {
    const fs::path d = fs::temp_directory_path() / ("articulate-fuzz-mesh-" + std::to_string(::getpid()));
    fs::create_directories(d);
    return d;
  }();
  return dir;
}

void check(const art::MeshData& m, const std::string& path) {
  if (m.triangles.empty()) finding("a mesh without triangles came back", path);
  if (m.triangleColour.size() != m.triangles.size()) finding("a mesh's colours do not match its triangles", path);
  for (const auto& t : m.triangles)
    for (std::uint32_t i : t)
      if (i >= m.vertices.size()) finding("a triangle's index is outside the vertices", path);
  for (const auto& v : m.vertices)
    if (!v.allFinite()) finding("a vertex is not finite", path);
  for (int c : m.triangleColour)
    if (c < -1 || c >= static_cast<int>(m.colours.size())) finding("a triangle's colour index is out of range", path);
  for (const auto& c : m.colours)
    if (!c.allFinite()) finding("a colour is not finite", path);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::string path = (folder() / (std::string("mesh") + kExtensions[data[0] % 7])).string();
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data + 1), static_cast<std::streamsize>(size - 1));
  }
  try {
    art::mesh_read::prescan(path);
  } catch (const art::FormatError& e) {
    if (e.path() != path) finding("the structure check names another file", e.what());
  }
  try {
    check(art::mesh_read::readInChild(path, kSeconds), path);
  } catch (const art::FormatError& e) {
    if (e.path() != path || std::string(e.what()).size() <= path.size() + 2) finding("a refusal does not name the file and why", e.what());
  }
  return 0;
}
