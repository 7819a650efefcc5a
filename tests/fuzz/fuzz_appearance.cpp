// libFuzzer harness for the drawing-instruction interpreter (spatial_v2's appearance lists;
// see README.md in this directory).
//
// The input bytes are a JSON text; its first byte also chooses whether the list is a body's or
// the base's (only the base may have tiles). interpretAppearance must never throw, must report
// every instruction it skips with a path inside the list, and must return primitives that the
// viewport can draw: finite numbers, colours in [0, 1], non-negative sizes, and no more
// vertices or tiles than its limits allow.
#include <cmath>
#include <cstdint>
#include <string>

#include "articulate/model/appearance.h"
#include "articulate/formats/files.h"
#include "fuzz_common.h"

namespace {
using fuzz::finding;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
  if (size == 0) return 0;
  const bool isBase = bytes[0] & 1;
  const std::string text(reinterpret_cast<const char*>(bytes + 1), size - 1);
  nlohmann::json list;
  try {
    list = art::parseJsonText(text, "input.json");
  } catch (const art::FormatError&) {
    return 0;
  }
  art::Diagnostics problems;
  const art::AppearanceLimits limits;
  std::vector<art::Primitive> prims;
  try {
    prims = art::interpretAppearance(list, art::defaultBodyColour(1), isBase, "appearance", &problems, limits);
  } catch (const std::exception& e) {
    finding("interpretAppearance threw", e.what());
  }
  for (const art::Diagnostic& p : problems)
    if (p.path.rfind("appearance", 0) != 0) finding("a problem outside the list", p.text());
  const auto colourOk = [](const art::Vec3& c) { return c.allFinite() && c.minCoeff() >= 0 && c.maxCoeff() <= 1; };
  for (const art::Primitive& p : prims) {
    if (p.path.rfind("appearance", 0) != 0) finding("a primitive with a path outside the list", p.path);
    if (!colourOk(p.colour) || (p.colour2 && !colourOk(*p.colour2)))
      finding("a primitive with a colour outside [0, 1]", p.path);
    if (p.facets < 1 || p.facets > limits.maxFacets) finding("a primitive past the facet limit", p.path);
    if (!std::isfinite(p.radius) || p.radius < 0 || !std::isfinite(p.size) || p.size < 0)
      finding("a primitive with a bad size", p.path);
    if (!p.range.allFinite()) finding("a primitive with a non-finite range", p.path);
    if (p.points.size() > limits.maxVertices) finding("a primitive past the vertex limit", p.path);
    for (const art::Vec3& v : p.points)
      if (!v.allFinite()) finding("a primitive with a non-finite point", p.path);
    for (const auto& t : p.triangles)
      for (int i : t)
        if (i < 0 || static_cast<std::size_t>(i) >= p.points.size())
          finding("a triangle indexes past its points", p.path);
    if (p.kind == art::Primitive::Kind::Tiles) {
      if (!isBase) finding("tiles on a body (only the base may have them)", p.path);
      if (!(p.size > 0)) finding("tiles of size zero", p.path);
    }
  }
  return 0;
}
