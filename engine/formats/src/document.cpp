// The one reader of model files: which format a file is in, and what it holds.
#include "articulate/formats/document.h"

#include <filesystem>

#include <utility>

#include "articulate/formats/files.h"
#include "articulate/formats/floating_base.h"
#include "articulate/formats/spatial_v2.h"
#include "articulate/formats/structure.h"
#include "articulate/formats/mesh.h"
#include "articulate/formats/mjcf.h"
#include "articulate/formats/urdf.h"
#include "articulate/model/appearance.h"

namespace art {

using nlohmann::json;

namespace {

// replaces the six-joint floating bases of a loaded model by free joints, with its motion
void convertLoadedFloatingBases(LoadedModel& lm) {
  if (!hasFloatingBases(lm.spec)) return;
  if (lm.motion) {
    Motion& mo = *lm.motion;
    const Eigen::MatrixXd qd = mo.qd.rows()
                                   ? mo.qd
                                   : Eigen::MatrixXd(Eigen::MatrixXd::Zero(mo.q.rows(), mo.q.cols()));
    Eigen::MatrixXd qOut, qdOut;
    convertFloatingBaseMotion(lm.spec, mo.q, qd, qOut, qdOut);
    mo.q = qOut;
    if (mo.qd.rows()) mo.qd = qdOut;
  }
  lm.spec = convertFloatingBases(lm.spec);
}

}  // namespace

std::optional<LoadedModel> readModelDocument(const json& doc, Diagnostics& problems,
                                             bool convertFloats) {
  std::optional<LoadedModel> lm = readModelDocumentAsIs(doc, problems);
  if (lm && convertFloats) convertLoadedFloatingBases(*lm);
  return lm;
}


std::optional<LoadedModel> readModelDocumentAsIs(const json& doc, Diagnostics& problems) {
  const std::size_t before = problems.size();
  LoadedModel lm;
  if (doc.is_object() && doc.contains("format") && doc["format"] == kRecordingFormatName) {
    readRecordingDocument(doc, lm, problems);
  } else if (looksLikeSpatialV2(doc)) {
    readSpatialV2Document(doc, lm, problems);
  } else {
    lm.format = kModelFormatName;
    specFromJson(doc, lm.spec, problems);
  }
  if (problems.size() != before) return std::nullopt;
  return lm;
}

void resolveMeshes(LoadedModel& lm, const std::string& path) {
  const std::string folder = std::filesystem::absolute(path).parent_path().string();
  auto check = [&](nlohmann::json& appearance, const std::string& owner) {
    absoluteMeshPaths(appearance, folder);
    for (const std::string& file : meshFiles(appearance)) {
      try {
        for (const std::string& note : loadMesh(file)->notes) lm.notes.push_back(owner + ": mesh '" + file + "': " + note);
      } catch (const FormatError& e) {
        lm.notes.push_back(owner + ": a mesh is not drawn: " + e.what());
      }
    }
  };
  check(lm.spec.baseAppearance, "the base");
  for (BodySpec& b : lm.spec.bodies) check(b.appearance, "body '" + b.name + "'");
  // the whole drawing within kMaxDrawingTriangles, the body asking most named
  std::size_t total = 0, most = 0;
  std::string biggest;
  auto count = [&](const nlohmann::json& appearance, const std::string& owner) {
    std::size_t n = 0;
    for (const Primitive& p : interpretAppearance(appearance, Vec3::Zero(), true, "", nullptr)) {
      if (p.kind != Primitive::Kind::Mesh) {
        n += drawingTriangles(p);
        continue;
      }
      try {
        n += loadMesh(p.file)->triangles.size();
      } catch (const FormatError&) {
        // not drawn: noted above
      }
    }
    total += n;
    if (n > most) most = n, biggest = owner;
  };
  count(lm.spec.baseAppearance, "the base");
  for (const BodySpec& b : lm.spec.bodies) count(b.appearance, "body '" + b.name + "'");
  if (total > kMaxDrawingTriangles)
    throw FormatError(path, "drawing the model takes " + std::to_string(total) + " triangles, more than the limit of " +
                                std::to_string(kMaxDrawingTriangles) + " (" + biggest + " asks for " + std::to_string(most) +
                                "; fewer facets on round shapes, or smaller meshes, bring it down)");
}

namespace {

// a URDF or MJCF file: the format decided by the file name (isUrdfPath, urdf.h; isMjcfPath, mjcf.h)
std::optional<LoadedModel> loadIfRobot(const std::string& path) {
  if (isMjcfPath(path)) return loadMjcfModel(path);
  if (!isUrdfPath(path)) return std::nullopt;
  return loadUrdfModel(path, UrdfBase::Auto);
}

}  // namespace

LoadedModel loadUrdfModel(const std::string& path, UrdfBase base, const std::vector<std::string>& packagePaths,
                          UrdfContact contact) {
  LoadedModel lm;
  lm.format = "urdf";
  UrdfImport report;
  lm.spec = loadUrdf(path, &report, base, packagePaths, contact);
  lm.notes = std::move(report.notes);
  lm.jointNames = std::move(report.jointNames);
  return lm;
}

LoadedModel loadMjcfModel(const std::string& path) {
  LoadedModel lm;
  lm.format = "mjcf";
  MjcfImport report;
  lm.spec = loadMjcf(path, &report);
  lm.notes = std::move(report.notes);
  lm.jointNames = std::move(report.jointNames);
  return lm;
}

LoadedModel loadModel(const std::string& path, bool convertFloats) {
  if (std::optional<LoadedModel> urdf = loadIfRobot(path)) return std::move(*urdf);
  const json doc = readJsonFile(path);
  Diagnostics problems;
  std::optional<LoadedModel> lm = readModelDocument(doc, problems, convertFloats);
  if (!lm) throw FormatError(path, problemList(problems));
  resolveMeshes(*lm, path);
  return *lm;
}

std::optional<LoadedDocument> readDocument(const json& doc, Diagnostics& problems) {
  const std::size_t before = problems.size();
  if (natural::isStructureDocument(doc)) {
    natural::StructureSpec spec = natural::structureFromJson(doc, problems);
    if (problems.size() != before) return std::nullopt;
    return LoadedDocument(std::move(spec));
  }
  if (doc.is_object() && !looksLikeSpatialV2(doc) && doc.contains("kind") &&
      doc["kind"] == "rigid_body") {
    RigidBodySpec spec;
    rigidBodyFromJson(doc, spec, problems);
    if (problems.size() != before) return std::nullopt;
    return LoadedDocument(std::move(spec));
  }
  std::optional<LoadedModel> lm = readModelDocument(doc, problems);
  if (!lm) return std::nullopt;
  return LoadedDocument(std::move(*lm));
}

LoadedDocument loadDocument(const std::string& path) {
  if (std::optional<LoadedModel> urdf = loadIfRobot(path)) return LoadedDocument(std::move(*urdf));
  const json doc = readJsonFile(path);
  Diagnostics problems;
  std::optional<LoadedDocument> d = readDocument(doc, problems);
  if (!d) throw FormatError(path, problemList(problems));
  if (auto* lm = std::get_if<LoadedModel>(&*d)) resolveMeshes(*lm, path);
  return std::move(*d);
}

}  // namespace art
