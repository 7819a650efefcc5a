#pragma once
// Reading spatial_v2 models written as JSON (MATLAB/Octave jsonencode of a model struct, or the
// "model" objects of the spatial_v2 reference data).

#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "articulate/model/spec.h"

namespace art {

/// A file that cannot be read as a model. The message starts with the JSON path of the
/// offending value, e.g. "Xtree[2]: expected a 6x6 matrix".
class FormatError : public std::runtime_error {
 public:
  FormatError(const std::string& path, const std::string& reason)
      : std::runtime_error((path.empty() ? std::string("(document)") : path) + ": " + reason),
        m_path(path) {}
  const std::string& path() const { return m_path; }

 private:
  std::string m_path;
};

/// Converts a spatial_v2 model object to a ModelSpec. Fields: NB, parent (1-based, 0 = base),
/// jtype (codes, or objects with "code" and "pitch" or "pars": {"pitch"}), Xtree and I (6x6 or
/// 3x3 row-major nested arrays; the arithmetic follows their size), optional gravity, gc
/// ({"body": [...], "point": [npt][3] or [3][npt]}), appearance and camera (kept as given).
/// Bodies are named "body1".."bodyNB". `path` prefixes error paths.
/// Throws FormatError naming the JSON path for any missing, mistyped or inconsistent field,
/// and where spatial_v2 itself fails: a helical joint without a pitch, an appearance.body list
/// shorter than NB. What spatial_v2 accepts but does not use (appearance.body entries past NB)
/// is left out with a note appended to `notes` when given.
ModelSpec specFromSpatialV2(const nlohmann::json& model, const std::string& path = "",
                            std::vector<std::string>* notes = nullptr);

/// Whether a JSON document is meant as a spatial_v2 model struct: it has NB and no "format".
bool looksLikeSpatialV2(const nlohmann::json& doc);

}  // namespace art
