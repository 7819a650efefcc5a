#pragma once
// Problems found while reading a file: a JSON path and a reason each.

#include <string>
#include <vector>

namespace art {

struct Diagnostic {
  std::string path;     // JSON path, e.g. "bodies[3].inertia.mass"
  std::string message;  // reason, e.g. "must be >= 0, got -1"
  std::string text() const { return (path.empty() ? std::string("(document)") : path) + ": " + message; }
};
using Diagnostics = std::vector<Diagnostic>;

}  // namespace art
