// Shared by the libFuzzer harnesses (see README.md in this directory): how a harness reports a
// finding, and the checks every loaded system must pass.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "articulate/formats/document.h"
#include "articulate/formats/files.h"
#include "articulate/model/diagnostics.h"
#include "articulate/simulation/system.h"

namespace fuzz {

/// A finding: prints what broke and the input's detail, then aborts (libFuzzer saves the input).
[[noreturn]] inline void finding(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz finding: %s\n%s\n", what, detail.c_str());
  std::abort();
}

inline std::string joined(const art::Diagnostics& problems) {
  std::string text;
  for (const auto& p : problems) text += p.text() + "\n";
  return text;
}

/// A reader's contract: a document either loads with no problem, or does not load and says why.
// Reads back, as File > Open would, a tree document the harness wrote (`name` labels the
// parse error); a parse error or a problem is a finding about `what`, e.g. "the converted
// spatial_v2 document".
inline art::LoadedModel readBack(const std::string& text, const char* name, const std::string& what) {
  art::Diagnostics problems;
  std::optional<art::LoadedModel> back;
  try {
    back = art::readModelDocument(art::parseJsonText(text, name), problems);
  } catch (const art::FormatError& e) {
    finding((what + " does not parse").c_str(), std::string(e.what()) + "\n" + text);
  }
  if (!back || !problems.empty()) finding((what + " does not read back").c_str(), joined(problems) + text);
  return std::move(*back);
}

inline void checkVerdict(bool loaded, const art::Diagnostics& problems, const std::string& input) {
  if (loaded && !problems.empty()) finding("a document loaded with problems", joined(problems));
  if (!loaded && problems.empty()) finding("no document and no problem reported", input);
}

/// Whether two JSON documents are the same but for round-off in their numbers (each within
/// `tol` relative to its size): for conversions that compute numbers (a planar transform's
/// translation recovered from its matrix), where the last digit may move.
inline bool sameButRoundOff(const nlohmann::json& a, const nlohmann::json& b, double tol = 1e-12) {
  if (a.is_number() && b.is_number()) {
    const double x = a.get<double>(), y = b.get<double>();
    return x == y || std::abs(x - y) <= tol * std::max({1.0, std::abs(x), std::abs(y)});
  }
  if (a.type() != b.type() || a.size() != b.size()) return false;
  if (a.is_array()) {
    for (std::size_t k = 0; k < a.size(); ++k)
      if (!sameButRoundOff(a[k], b[k], tol)) return false;
    return true;
  }
  if (a.is_object()) {
    for (auto it = a.begin(); it != a.end(); ++it)
      if (!b.contains(it.key()) || !sameButRoundOff(it.value(), b[it.key()], tol)) return false;
    return true;
  }
  return a == b;
}

/// Steps a system that loaded: every step either keeps the state finite or stops with a
/// divergence that says why (never NaN in the state without a word), and the body poses of a
/// finite state are finite. At most `steps` steps.
inline void stepChecked(art::System& system, int steps) {
  std::vector<art::BodyPose> poses;
  for (int k = 0; k < steps; ++k) {
    if (!system.step()) {
      if (!system.divergence()) finding("a step failed without a divergence", "");
      return;
    }
    if (!system.positions().allFinite() || !system.velocities().allFinite())
      finding("a step left a non-finite state without a divergence",
              "after step " + std::to_string(k + 1));
  }
  system.bodyPoses(system.positions(), poses);
  for (const art::BodyPose& p : poses)
    if (!p.position.allFinite() || !p.rotation.allFinite())
      finding("a finite state has a non-finite body pose", "");
}

}  // namespace fuzz
