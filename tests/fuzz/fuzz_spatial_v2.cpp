// libFuzzer harness for spatial_v2 model structs with a motion beside them (showmotion's t and
// q), see README.md in this directory.
//
// The input bytes are a JSON text read as the application reads a spatial_v2 file: only a
// document that looks like a spatial_v2 struct (NB and no "format") is taken further, through
// readModelDocument (floating bases converted to free joints, as File > Open does) and
// compile. A model that loads must:
//   - run through the algorithms at its initial state;
//   - pose every sample of its motion: each row has nq positions, the times do not decrease,
//     and the interpolated state between samples is finite;
//   - convert back to spatial_v2 and read again with no problem, converting to the same
//     document the second time (a fixed point after one pass, but for the reader's own 1e-9
//     acceptance of nearly orthonormal rotations and round-off in the computed numbers).
// Only FormatError, ModelError and std::invalid_argument may leave the loader.
#include <cstdint>
#include <string>

#include "articulate/dynamics/dynamics.h"
#include "articulate/model/model.h"
#include "articulate/formats/document.h"
#include "articulate/formats/files.h"
#include "articulate/simulation/recording.h"
#include "articulate/formats/spatial_v2.h"
#include "fuzz_common.h"

namespace {

using fuzz::finding;

void checkMotion(const art::Motion& motion, const art::Model& model) {
  const art::Recording rec = art::Recording::fromMotion(motion);
  if (rec.positionSize() != model.nq())
    finding("a motion does not fit its model",
            std::to_string(rec.positionSize()) + " positions for nq = " + std::to_string(model.nq()));
  if (rec.size() < 2) finding("a motion with fewer than two samples was accepted", "");
  Eigen::VectorXd q, qd;
  for (std::size_t k = 0; k + 1 < rec.size(); ++k) {
    if (rec.time(k + 1) < rec.time(k)) finding("a motion's times decrease", std::to_string(k));
    rec.stateAt(0.5 * (rec.time(k) + rec.time(k + 1)), q, qd);
    if (!q.allFinite()) finding("an interpolated motion state is not finite", std::to_string(k));
  }
}

std::string convertedText(const art::ModelSpec& spec) {
  return art::formatJson(art::specToSpatialV2(spec));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(bytes), size);
  try {
    const nlohmann::json doc = art::parseJsonText(text, "input.json");
    if (!art::looksLikeSpatialV2(doc)) return 0;  // the Articulate format has its own harness
    art::Diagnostics problems;
    const std::optional<art::LoadedModel> loaded = art::readModelDocument(doc, problems);
    fuzz::checkVerdict(loaded.has_value(), problems, text);
    if (!loaded) return 0;
    const art::Model model = art::compile(loaded->spec);
    art::Data data(model);
    const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nv());
    art::aba(model, data, model.q0, zero, zero);
    art::rnea(model, data, model.q0, zero, zero);
    art::crba(model, data, model.q0);
    if (loaded->motion) checkMotion(*loaded->motion, model);

    const std::string first = convertedText(loaded->spec);
    const art::LoadedModel back = fuzz::readBack(first, "converted.json", "the converted spatial_v2 document");
    const std::string second = convertedText(back.spec);
    // The conversion computes numbers: a transform's translation is recovered from its matrix,
    // and the reader takes a rotation or Plücker block that is off by up to 1e-9 (relative) as
    // it is (spatial_v2 files are often printed with fewer digits; placementFromSpatial and
    // placementFromPlanar), so the second pass may move numbers by that much, never more.
    if (second != first &&
        !fuzz::sameButRoundOff(nlohmann::json::parse(first), nlohmann::json::parse(second), 1e-8))
      finding("converting the re-read document changes it", first + "----\n" + second);
  } catch (const art::FormatError&) {
  } catch (const art::ModelError&) {
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
