// The structure checks made before assimp parses a mesh file (mesh_read.h). assimp 5.2 recurses
// once per nesting level of a Collada file's XML and of a glTF's JSON, and follows a Collada
// file's <instance_node> references without looking for cycles: a small file overflows its
// stack. An OBJ's faces are counted before its parser meets a face of a million corners. These
// checks are linear in the file and recurse nowhere.
#include <tinyxml2.h>

#include <cctype>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "articulate/formats/files.h"
#include "articulate/formats/json.h"
#include "mesh_read.h"

namespace art::mesh_read {

namespace {

// JSON text: how deep its arrays and objects nest, strings skipped
void checkJsonNesting(std::string_view text, const std::string& path) {
  int depth = 0;
  bool inString = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (inString) {
      if (c == '\\') ++i;
      else if (c == '"') inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > MeshLimits::nesting)
        throw FormatError(path, "the glTF file nests its JSON arrays and objects deeper than " +
                                    std::to_string(MeshLimits::nesting) + " levels");
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
}

// a binary glTF (GLB): its first chunk is the JSON
void checkGlb(const std::string& bytes, const std::string& path) {
  if (bytes.size() < 20) return;  // assimp says what is wrong with it
  std::uint32_t length = 0;
  std::memcpy(&length, bytes.data() + 12, 4);
  if (std::memcmp(bytes.data() + 16, "JSON", 4) != 0) return;
  checkJsonNesting(std::string_view(bytes).substr(20, length), path);
}

// a Collada file's scene graph: every <node> with its child nodes and the nodes its
// <instance_node> elements name; refused when the references form a cycle, or when expanding
// them gives more than MeshLimits::nodes nodes or nests deeper than MeshLimits::nodeDepth
class ColladaGraph {
 public:
  ColladaGraph(const tinyxml2::XMLDocument& doc, const std::string& path) : m_path(path) {
    // elements in document order, iteratively (the XML depth is bounded by tinyxml2 anyway)
    std::vector<std::pair<const tinyxml2::XMLElement*, int>> stack;  // element, enclosing node
    stack.emplace_back(doc.RootElement(), -1);
    while (!stack.empty()) {
      auto [e, owner] = stack.back();
      stack.pop_back();
      int inside = owner;
      if (std::strcmp(e->Name(), "node") == 0) {
        inside = static_cast<int>(m_children.size());
        m_children.emplace_back();
        m_names.push_back(e->Attribute("id") ? e->Attribute("id") : "");
        if (!m_names.back().empty()) m_byId.emplace(m_names.back(), inside);
        if (owner >= 0) m_children[owner].push_back(inside);
        else m_roots.push_back(inside);
      } else if (std::strcmp(e->Name(), "instance_node") == 0 && owner >= 0 && e->Attribute("url")) {
        m_references.emplace_back(owner, e->Attribute("url"));
      }
      for (const tinyxml2::XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement())
        stack.emplace_back(c, inside);
    }
    for (const auto& [node, url] : m_references) {
      const std::string id = url.rfind('#', 0) == 0 ? url.substr(1) : url;
      if (const auto it = m_byId.find(id); it != m_byId.end()) m_children[node].push_back(it->second);
    }
  }

  // the expansion of every root: a depth-first walk of the reference graph with an explicit
  // stack, counting each node's expanded size once (it is a DAG once no cycle is found)
  void check() const {
    const std::size_t n = m_children.size();
    std::vector<std::uint8_t> state(n, 0);  // 0 new, 1 on the walk's path, 2 done
    std::vector<std::uint64_t> size(n, 0);
    std::vector<int> depth(n, 0);
    for (int root : m_roots) {
      std::vector<std::pair<int, std::size_t>> walk{{root, 0}};  // node, next child
      if (state[root] == 0) state[root] = 1;
      while (!walk.empty()) {
        auto& [v, next] = walk.back();
        if (state[v] == 2) { walk.pop_back(); continue; }
        if (next < m_children[v].size()) {
          const int c = m_children[v][next++];
          if (state[c] == 1)
            throw FormatError(m_path, "the Collada file's <instance_node> references form a cycle through node '" +
                                          m_names[c] + "'");
          if (state[c] == 0) {
            state[c] = 1;
            walk.emplace_back(c, 0);
          }
          continue;
        }
        std::uint64_t s = 1;
        int d = 0;
        for (int c : m_children[v]) {
          s = std::min<std::uint64_t>(s + size[c], MeshLimits::nodes + 1);
          d = std::max(d, depth[c]);
        }
        size[v] = s;
        depth[v] = d + 1;
        state[v] = 2;
        walk.pop_back();
      }
    }
    std::uint64_t total = 0;
    int deepest = 0;
    for (int root : m_roots) {
      total = std::min<std::uint64_t>(total + size[root], MeshLimits::nodes + 1);
      deepest = std::max(deepest, depth[root]);
    }
    if (total > MeshLimits::nodes)
      throw FormatError(m_path, "the Collada file's scene has more than " + std::to_string(MeshLimits::nodes) +
                                    " nodes once its <instance_node> references are expanded");
    if (deepest > MeshLimits::nodeDepth)
      throw FormatError(m_path, "the Collada file's scene nests its nodes deeper than " +
                                    std::to_string(MeshLimits::nodeDepth) + " levels once its <instance_node> references are expanded");
  }

 private:
  std::string m_path;
  std::vector<std::vector<int>> m_children;
  std::vector<std::string> m_names;
  std::vector<int> m_roots;  // nodes not inside another node (scenes' and libraries' nodes)
  std::unordered_map<std::string, int> m_byId;
  std::vector<std::pair<int, std::string>> m_references;
};

void checkCollada(const std::string& text, const std::string& path) {
  tinyxml2::XMLDocument doc;
  const tinyxml2::XMLError error = doc.Parse(text.data(), text.size());
  if (error == tinyxml2::XML_ELEMENT_DEPTH_EXCEEDED)
    throw FormatError(path, "the Collada file nests its XML elements deeper than " +
                                std::to_string(TINYXML2_MAX_ELEMENT_DEPTH) + " levels");
  // XML that tinyxml2 does not take is assimp's to judge (its parser is another): the reader's
  // own process is what keeps a cycle in such a file from harm
  if (error != tinyxml2::XML_SUCCESS || !doc.RootElement()) return;
  ColladaGraph(doc, path).check();
}

// an OBJ's faces: their corners counted, line by line, against MeshLimits' polygon limits before
// assimp parses them (its parser reads each index in place, and a sanitizer build's string
// checks make that quadratic in the size of a large face's line)
void checkObjFaces(const std::string& text, const std::string& path) {
  std::size_t all = 0;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    const std::size_t k = text.find_first_not_of(" \t", at);
    // (npos where only blanks are left: k + 1 would wrap to 0; fuzz_mesh)
    if (k != std::string::npos && k + 1 < end && text[k] == 'f' && (text[k + 1] == ' ' || text[k + 1] == '\t')) {
      std::size_t corners = 0;
      bool inIndex = false;
      for (std::size_t i = k + 1; i < end; ++i) {
        const bool space = text[i] == ' ' || text[i] == '\t' || text[i] == '\r';
        corners += !space && !inIndex;
        inIndex = !space;
      }
      if (corners > MeshLimits::polygonCorners)
        throw FormatError(path, "the mesh file has a polygon of " + std::to_string(corners) + " corners (at most " +
                                    std::to_string(MeshLimits::polygonCorners) + ")");
      if (corners > 4 && (all += corners) > MeshLimits::allPolygonCorners)
        throw FormatError(path, "the mesh file's polygons have more than " + std::to_string(MeshLimits::allPolygonCorners) +
                                    " corners in all (polygons are faces of more than four corners)");
    }
    at = end + 1;
  }
}

bool endsWith(const std::string& path, const char* extension) {
  const std::size_t n = std::strlen(extension);
  if (path.size() < n) return false;
  for (std::size_t i = 0; i < n; ++i)
    if (std::tolower(static_cast<unsigned char>(path[path.size() - n + i])) != extension[i]) return false;
  return true;
}

}  // namespace

void prescan(const std::string& path) {
  const std::string bytes = readTextFile(path);  // a regular file of at most 256 MiB (files.h)
  if (endsWith(path, ".obj")) return checkObjFaces(bytes, path);
  if (bytes.size() >= 12 && std::memcmp(bytes.data(), "glTF", 4) == 0) return checkGlb(bytes, path);
  const std::size_t first = bytes.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
  if (first == std::string::npos) return;
  if (bytes[first] == '{') return checkJsonNesting(bytes, path);
  // XML whose first element within a few KiB is COLLADA (after the declaration and comments)
  if (bytes[first] == '<' && bytes.substr(0, 4096).find("<COLLADA") != std::string::npos) checkCollada(bytes, path);
}

}  // namespace art::mesh_read
