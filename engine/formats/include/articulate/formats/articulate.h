#pragma once
// The Articulate model format (docs/model-format.md, schema docs/model-format.schema.json):
// a versioned, human-writable JSON document. Reading collects every problem with its JSON
// path; writing produces one canonical form that reads back to the identical ModelSpec.

#include <optional>
#include <string>
#include <variant>

#include <nlohmann/json.hpp>

#include "articulate/model/diagnostics.h"
#include "articulate/model/motion.h"
#include "articulate/model/spec.h"
#include "articulate/formulations/rigid_body.h"

namespace art {

inline constexpr const char* kModelFormatName = "articulate-model";
inline constexpr int kModelFormatVersion = 1;
inline constexpr const char* kRecordingFormatName = "articulate-recording";
inline constexpr int kRecordingFormatVersion = 1;

/// What a model file held, and which format it was in.
struct LoadedModel {
  ModelSpec spec;
  std::string format;  // "articulate-model", "articulate-recording", "spatial_v2" or "urdf"
  std::optional<Motion> motion;  // present when the file carried t and q
  std::vector<std::string> notes;  // what the reader left out (URDF: limits, meshes, ...)
};

/// A model document of any kind: a kinematic tree (an Articulate document of kind "tree" or a
/// spatial_v2 model, with its format and motion) or one free rigid body (kind "rigid_body").
/// readModelDocument and loadModel read trees only, so that code written for trees keeps
/// working; readDocument and loadDocument read every kind.
using LoadedDocument = std::variant<LoadedModel, RigidBodySpec>;

/// The canonical Articulate document for a spec (fields in documentation order).
nlohmann::ordered_json specToJson(const ModelSpec& spec);

/// Reads an Articulate document into `out`, appending every problem to `problems` (the spec is
/// meaningful only when no problem was added). Checks types, sizes, finiteness, names and
/// parents (unknown, duplicate, cycles), placements, inertias, drawing instructions, camera,
/// contacts and constraints, then compiles the tree.
void specFromJson(const nlohmann::json& doc, ModelSpec& out, Diagnostics& problems);

/// Reads a kinematic-tree document of any format: an Articulate model, an Articulate recording
/// (model plus samples; its motion holds them) or spatial_v2 (detected by its NB/parent/jtype/
/// Xtree fields), with optional motion t/q beside a spatial_v2 model. Appends every problem
/// found; a "rigid_body" document is reported at "kind" (use readDocument). With
/// `convertFloats` (the default) six-joint floating bases (spatial_v2 floatbase) become free
/// joints, with any motion mapped to them (convertFloatingBases, floating_base.h).
std::optional<LoadedModel> readModelDocument(const nlohmann::json& doc, Diagnostics& problems,
                                             bool convertFloats = true);

/// readModelDocument without the floating-base conversion: the model exactly as the file has it.
std::optional<LoadedModel> readModelDocumentAsIs(const nlohmann::json& doc, Diagnostics& problems);

/// Loads a kinematic-tree file of any format (converting six-joint floating bases to free
/// joints unless `convertFloats` is false). A path ending in ".urdf" is read as URDF
/// (loadUrdf, urdf.h; format "urdf", with its notes). Throws FormatError listing every problem, one per
/// line, each with its JSON path ("bodies[3].inertia.mass: must be >= 0, got -1"); a
/// "rigid_body" document is refused (use loadDocument).
LoadedModel loadModel(const std::string& path, bool convertFloats = true);

/// The Articulate recording document for a model and its samples (docs/model-format.md).
nlohmann::ordered_json recordingToJson(const ModelSpec& spec, const Motion& motion);

/// Saves a recording (model and samples) atomically (AtomicFile), streamed: the bytes of
/// formatJson(recordingToJson(spec, motion)) without building that document, so that saving
/// needs little memory beyond the motion itself. Throws std::runtime_error naming the file when
/// it cannot be written.
void saveRecording(const std::string& path, const ModelSpec& spec, const Motion& motion);

/// The canonical Articulate document of a rigid body (kind "rigid_body"; fields in
/// documentation order, defaults omitted).
nlohmann::ordered_json rigidBodyToJson(const RigidBodySpec& spec);

/// Reads an Articulate document of kind "rigid_body" into `out`, appending every problem to
/// `problems` with its JSON path (the spec is meaningful only when no problem was added).
/// Checks types, sizes, finiteness, the shape's dimensions, mass or density, the rotation, the
/// floor's normal, restitution and friction, and the drawing instructions.
void rigidBodyFromJson(const nlohmann::json& doc, RigidBodySpec& out, Diagnostics& problems);

/// Reads a model document of any kind: "rigid_body" documents with rigidBodyFromJson, the
/// others as readModelDocument does. Appends every problem found.
std::optional<LoadedDocument> readDocument(const nlohmann::json& doc, Diagnostics& problems);

/// Loads a model file of any kind (".urdf" files as loadModel does). Throws FormatError listing
/// every problem as loadModel does.
LoadedDocument loadDocument(const std::string& path);

/// Saves a rigid body in the Articulate format, atomically (see writeFileAtomically).
void saveRigidBody(const std::string& path, const RigidBodySpec& spec);

/// Saves a spec in the Articulate format, atomically (see writeFileAtomically).
void saveModel(const std::string& path, const ModelSpec& spec);

/// Saves a spec as a spatial_v2 model struct in JSON, atomically.
void saveSpatialV2(const std::string& path, const ModelSpec& spec);

}  // namespace art
