#pragma once
// Structure documents: the Articulate model format with "kind": "structure"
// (docs/model-format.md, "Structures in natural coordinates"). Reading collects every problem
// with its JSON path, as specFromJson does for trees. readDocument and loadDocument
// (document.h) read them with every other kind; readModelDocument, for trees only, refuses them.

#include <string>

#include <nlohmann/json.hpp>

#include "articulate/model/diagnostics.h"
#include "articulate/formulations/natural/structure.h"

namespace art::natural {

/// Whether a parsed JSON document is an Articulate model of kind "structure".
bool isStructureDocument(const nlohmann::json& doc);

/// Reads a structure document, appending every problem to `problems` with its JSON path (the
/// spec is meaningful only when none was added): types, sizes, finiteness, unique names, known
/// body and joint references, positive masses and inertias, and finally that the structure
/// compiles (Structure's own checks, reported at the body, joint or apparatus).
StructureSpec structureFromJson(const nlohmann::json& doc, Diagnostics& problems);

/// The canonical document of a structure (fields in documentation order).
nlohmann::ordered_json structureToJson(const StructureSpec& spec);

/// Loads a structure file. Throws FormatError listing every problem, one per line, each with
/// its JSON path, or when the file is not a structure document.
StructureSpec loadStructure(const std::string& path);

/// Saves a structure in the Articulate format (structureToJson), atomically (see
/// writeFileAtomically). Throws std::runtime_error naming the file when it cannot be written.
void saveStructure(const std::string& path, const StructureSpec& spec);

}  // namespace art::natural
