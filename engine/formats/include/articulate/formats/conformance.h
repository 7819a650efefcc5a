#pragma once
// Conformance against spatial_v2 reference data (schema "spatial_v2-reference-1", see
// tests/data/README.md): every output of every case is recomputed and compared.

#include <map>
#include <string>

#include <nlohmann/json.hpp>

namespace art {

/// Worst normwise-relative error of one quantity over all cases:
/// max|x - ref| / max(floor, max|ref|), with floor = 1 as the reference recommends.
struct ConformanceEntry {
  double worst = 0.0;
  std::string worstCase;  // name of the case where the worst error occurred
  int compared = 0;       // number of arrays compared
};

struct ConformanceReport {
  std::map<std::string, ConformanceEntry> quantities;  // keyed by output name (ID_tau, H, ...)
  int cases = 0;
  int trajectories = 0;
  double tolerance = 1e-9;
  /// True when every quantity's worst error is within the tolerance and something was compared.
  bool passed() const;
};

/// Runs every case and trajectory of a reference document. Throws FormatError (naming the JSON
/// path) when the document does not follow the schema (a document whose "format" is not
/// "spatial_v2-reference-1", or with neither "cases" nor "trajectories", such as a model file,
/// is not a reference document), ModelError for an invalid model.
ConformanceReport runConformance(const nlohmann::json& doc, double tolerance = 1e-9);

}  // namespace art
