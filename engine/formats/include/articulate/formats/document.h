#pragma once
// The one reader of model files: it picks the format of a file (by its extension for URDF, by
// its content for JSON: an Articulate model of any kind, an Articulate recording, spatial_v2)
// and returns what the file holds. Every command of articulate-cli and the application read
// files through loadDocument.

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "articulate/formats/articulate.h"
#include "articulate/formats/json.h"
#include "articulate/formats/mjcf.h"
#include "articulate/formats/urdf.h"
#include "articulate/formulations/natural/structure.h"
#include "articulate/formulations/rigid_body.h"
#include "articulate/model/motion.h"
#include "articulate/model/spec.h"

namespace art {

/// What a model file held, and which format it was in.
struct LoadedModel {
  ModelSpec spec;
  std::string format;  // "articulate-model", "articulate-recording", "spatial_v2", "urdf" or "mjcf"
  std::optional<Motion> motion;  // present when the file carried t and q
  std::vector<std::string> notes;  // what the reader left out or approximated (URDF, MJCF)
  // per body, its joint's name in the file (URDF, MJCF; "" for a URDF floating root); empty where the
  // format names joints by their bodies (Articulate, spatial_v2)
  std::vector<std::string> jointNames;
};

/// A model document of any kind: a kinematic tree (an Articulate document of kind "tree", an
/// Articulate recording, a spatial_v2 model or a URDF robot, with its format and motion), one
/// free rigid body (kind "rigid_body") or a natural-coordinate structure (kind "structure").
/// readModelDocument and loadModel read trees only, so that code written for trees keeps
/// working; readDocument and loadDocument read every kind.
using LoadedDocument = std::variant<LoadedModel, RigidBodySpec, natural::StructureSpec>;

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
/// (loadUrdf, urdf.h; format "urdf", with its notes), one ending in ".xml" or ".mjcf" as MJCF
/// (loadMjcfModel). Throws FormatError listing every problem, one per
/// line, each with its JSON path ("bodies[3].inertia.mass: must be >= 0, got -1"); a
/// "rigid_body" document is refused (use loadDocument).
LoadedModel loadModel(const std::string& path, bool convertFloats = true);

/// Loads a URDF file as loadModel does, with the base and the extra package folders given
/// (urdf.h: UrdfBase, UrdfContact, loadUrdf). Throws FormatError naming the file.
LoadedModel loadUrdfModel(const std::string& path, UrdfBase base,
                          const std::vector<std::string>& packagePaths = {}, UrdfContact contact = UrdfContact::Geoms);

/// Loads an MJCF file (specFromMjcf, mjcf.h; format "mjcf", with its notes and joint names).
/// Throws FormatError naming the file, the line and the element.
LoadedModel loadMjcfModel(const std::string& path);

/// Reads a model document of any kind: "rigid_body" documents with rigidBodyFromJson,
/// "structure" documents with natural::structureFromJson (structure.h), the others as
/// readModelDocument does. Appends every problem found.
std::optional<LoadedDocument> readDocument(const nlohmann::json& doc, Diagnostics& problems);

/// A tree read from `path` (readDocument or readModelDocument, which see no file): its mesh file
/// names made absolute against the file's folder, and one note in lm.notes per mesh that does
/// not load, naming the body and the file (the body still draws the rest). loadModel and
/// loadDocument do this; `articulate-cli validate`, which reads the JSON itself to list every
/// problem, calls it so that it reports the meshes that convert and the app report. Throws
/// FormatError (path() = `path`) when drawing the model takes more than kMaxDrawingTriangles
/// (model/appearance.h), naming the body that asks most.
void resolveMeshes(LoadedModel& lm, const std::string& path);

/// Loads a model file of any kind (".urdf", ".xml" and ".mjcf" files as loadModel does). Throws FormatError listing
/// every problem as loadModel does.
LoadedDocument loadDocument(const std::string& path);

}  // namespace art
