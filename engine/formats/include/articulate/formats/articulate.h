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

struct LoadedModel;  // document.h

inline constexpr const char* kModelFormatName = "articulate-model";
inline constexpr int kModelFormatVersion = 1;
inline constexpr const char* kRecordingFormatName = "articulate-recording";
/// Version 2 added the energy dissipated per sample, version 3 the actuators' work; a recording
/// is written in the lowest version that holds it.
inline constexpr int kRecordingFormatVersion = 3;

/// The canonical Articulate document for a spec (fields in documentation order).
nlohmann::ordered_json specToJson(const ModelSpec& spec);

/// Reads an Articulate document into `out`, appending every problem to `problems` (the spec is
/// meaningful only when no problem was added). Checks types, sizes, finiteness, names and
/// parents (unknown, duplicate, cycles), placements, inertias, drawing instructions, camera,
/// contacts and constraints, then compiles the tree.
void specFromJson(const nlohmann::json& doc, ModelSpec& out, Diagnostics& problems);

/// Reads an Articulate recording document ("format": "articulate-recording": a model and its
/// samples) into `out` (format, spec and motion). Appends every problem found, with its JSON
/// path; `out` is meaningful only when it returns true.
bool readRecordingDocument(const nlohmann::json& doc, LoadedModel& out, Diagnostics& problems);

/// The version a recording of `motion` is written in: 1 (the version every reader takes) unless
/// it has the energy dissipated, which version 2 added, or the actuators' work (version 3).
int recordingVersion(const Motion& motion);
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

/// Saves a rigid body in the Articulate format, atomically (see writeFileAtomically).
void saveRigidBody(const std::string& path, const RigidBodySpec& spec);

/// Saves a spec in the Articulate format, atomically (see writeFileAtomically).
void saveModel(const std::string& path, const ModelSpec& spec);

}  // namespace art
