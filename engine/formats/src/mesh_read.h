#pragma once
// The mesh reader's parts (mesh.h): the structure checks made before assimp sees a file, the
// assimp import itself, and the child process it runs in. Internal to the formats layer.

#include <string>

#include "articulate/formats/mesh.h"

namespace art::mesh_read {

/// Checks a Collada or glTF file's structure against MeshLimits before assimp parses it (the
/// nesting of its elements, a Collada file's <instance_node> cycles and expansion); other
/// formats pass. Throws FormatError naming the file and the limit. mesh_prescan.cpp.
void prescan(const std::string& path);

/// Reads a mesh file through assimp in this process, with prescan first, side files confined
/// and every limit of MeshLimits checked. Throws FormatError. mesh_assimp.cpp.
MeshData readWithAssimp(const std::string& path);

/// readWithAssimp in a child process with MeshLimits::memory and `seconds` (a harness that
/// must see every input end sooner may give less); the mesh comes back through a pipe. A
/// crash, an exhausted memory or time in the child is a FormatError naming the file.
/// mesh_child.cpp.
MeshData readInChild(const std::string& path, int seconds = MeshLimits::seconds);

}  // namespace art::mesh_read
