#pragma once
// Reading and writing model files.

#include <string>

#include <nlohmann/json.hpp>

#include "articulate/model_spec.h"
#include "articulate/spatial_v2_json.h"

namespace art {

/// Reads a JSON file; throws FormatError with the file name, line and column on a syntax
/// error or a truncated file, and on files over 256 MiB.
nlohmann::json readJsonFile(const std::string& path);

/// Loads a model file. spatial_v2 model structs (MATLAB/Octave jsonencode) are detected
/// automatically. Throws FormatError naming the JSON path and the reason.
ModelSpec loadModelFile(const std::string& path);

/// A spatial_v2 model struct as JSON (NB, parent, jtype, Xtree, I, gravity, gc, appearance,
/// camera), which MATLAB/Octave's jsondecode turns back into a model for spatial_v2.
nlohmann::json specToSpatialV2(const ModelSpec& spec);

/// Writes text to a file atomically: a temporary file beside it is written, flushed and renamed
/// over the target, so a failure never leaves a half-written or damaged file. Throws
/// std::runtime_error naming the file and the system error.
void writeFileAtomically(const std::string& path, const std::string& text);

}  // namespace art
