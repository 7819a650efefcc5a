#pragma once
// Reading and writing model files.

#include <string>

#include <nlohmann/json.hpp>

#include "articulate/model_spec.h"
#include "articulate/spatial_v2_json.h"

namespace art {

/// Reads a whole file as bytes; throws FormatError (its path() is the file) when it cannot be
/// opened or read, or is over 256 MiB.
std::string readTextFile(const std::string& path);

/// Reads a JSON file; throws FormatError (its path() is the file) with the line and column on
/// a syntax error or a truncated file, and on files over 256 MiB or nested deeper than 256.
nlohmann::json readJsonFile(const std::string& path);

/// Parses JSON text with the same limits; `name` labels messages.
nlohmann::json parseJsonText(const std::string& text, const std::string& name);

/// A spatial_v2 model struct as JSON (NB, parent, jtype, Xtree, I, gravity, gc, appearance,
/// camera), which MATLAB/Octave's jsondecode turns back into a model for spatial_v2. Free
/// joints, which spatial_v2 lacks, are written as its six-joint floatbase emulation
/// (expandFreeJoints, floating_base.h); loading the result converts them back.
nlohmann::ordered_json specToSpatialV2(const ModelSpec& spec);

/// Formats JSON for people: objects one field per line (in insertion order for ordered_json),
/// arrays of numbers or of short number rows on one line, other arrays one item per line when
/// they do not fit in 100 columns. Numbers keep the shortest exact form; -0 is written as 0.
std::string formatJson(const nlohmann::ordered_json& value);

/// Writes text to a file atomically: a temporary file beside it is written, flushed and renamed
/// over the target, so a failure never leaves a half-written or damaged file. Throws
/// std::runtime_error naming the file and the system error.
void writeFileAtomically(const std::string& path, const std::string& text);

}  // namespace art
