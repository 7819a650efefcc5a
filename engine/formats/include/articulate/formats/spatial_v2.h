#pragma once
// Reading spatial_v2 models written as JSON (MATLAB/Octave jsonencode of a model struct, or the
// "model" objects of the spatial_v2 reference data).

#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "articulate/formats/json.h"
#include "articulate/model/spec.h"

namespace art {

struct LoadedModel;  // document.h

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

/// A spatial_v2 model struct as JSON (NB, parent, jtype, Xtree, I, gravity, gc, appearance,
/// camera), which MATLAB/Octave's jsondecode turns back into a model for spatial_v2. Free
/// joints, which spatial_v2 lacks, are written as its six-joint floatbase emulation
/// (expandFreeJoints, floating_base.h); loading the result converts them back. spatial_v2 has
/// no meshes: `mesh` drawing instructions are left out, with a note appended to `notes`. Throws
/// FormatError (json.h) naming the body for a ball joint, which has no spatial_v2 form.
nlohmann::ordered_json specToSpatialV2(const ModelSpec& spec, std::vector<std::string>* notes = nullptr);

/// Writes specToSpatialV2(spec) to a file atomically; returns its notes. Throws
/// std::runtime_error naming the file when it cannot be written.
std::vector<std::string> saveSpatialV2(const std::string& path, const ModelSpec& spec);

/// Reads a spatial_v2 model document (looksLikeSpatialV2) into `out`: the model, its name and
/// description when given, its drawing instructions checked, and showmotion's motion beside it
/// (t, and q as NB x nt or nt x NB) when present. Appends every problem found (a malformed
/// model field stops at the first, as specFromSpatialV2 throws); `out` is meaningful only when
/// it returns true. Six-joint floating bases are kept as the file has them.
bool readSpatialV2Document(const nlohmann::json& doc, LoadedModel& out, Diagnostics& problems);

}  // namespace art
