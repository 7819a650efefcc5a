#pragma once
// Problems found while reading a file: a JSON path and a reason each.

#include <cstdio>
#include <string>
#include <vector>

namespace art {

struct Diagnostic {
  std::string path;     // JSON path, e.g. "bodies[3].inertia.mass"
  std::string message;  // reason, e.g. "must be >= 0, got -1"
  std::string text() const { return (path.empty() ? std::string("(document)") : path) + ": " + message; }
};
using Diagnostics = std::vector<Diagnostic>;

/// A number as messages write it: printf's %g (6 significant digits, an exponent when large or
/// small), so that -DBL_MAX reads "-1.79769e+308", not 309 digits.
inline std::string messageNumber(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

/// A value echoed in a message (a number's text, a JSON value, a name): as it is up to `most`
/// characters, else its first ones, "..." and how long it was, so that a 5 MB number does not
/// become a 5 MB message.
inline std::string messageValue(const std::string& text, std::size_t most = 60) {
  if (text.size() <= most) return text;
  return text.substr(0, most - 3) + "... (" + std::to_string(text.size()) + " characters)";
}

}  // namespace art
