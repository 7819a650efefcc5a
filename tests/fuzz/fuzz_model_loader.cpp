// libFuzzer harness for the Articulate model format (see README.md in this directory).
//
// The input bytes are a JSON text. They go through the same path as a file opened by the
// application: parseJsonText -> readModelDocument (an Articulate model or recording, or a
// spatial_v2 struct, which fuzz_spatial_v2 works on harder) -> compile. A model that loads is
// then run through the algorithms at its initial state (state vectors sized nq and nv, so
// that free joints, whose nq is 7 and nv 6, are exercised too), stepped as the application
// simulates it, and written back: the Articulate document it saves must read back without a
// problem and save to the identical text, and the spatial_v2 document it converts to must read
// back without a problem. A broken round trip calls abort() (a finding). Only the loader's
// documented exceptions (FormatError, ModelError, std::invalid_argument) may leave the loader;
// anything else escaping is a finding too.
#include <cstdint>
#include <memory>
#include <string>

#include "articulate/dynamics/dynamics.h"
#include "articulate/model/model.h"
#include "articulate/formats/document.h"
#include "articulate/formats/spatial_v2.h"
#include "articulate/formats/files.h"
#include "articulate/simulation/recording.h"
#include "articulate/formulations/tree_simulation.h"
#include "fuzz_common.h"

namespace {

using fuzz::finding;
using fuzz::joined;

void exercise(const art::Model& model) {
  art::Data data(model);
  // the state vectors have the model's own sizes: nq positions, nv velocities and forces
  // (not one per body: a free joint has 7 and 6)
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nv());
  art::aba(model, data, model.q0, zero, zero);
  art::aba(model, data, model.q0, model.qd0, zero);
  art::rnea(model, data, model.q0, model.qd0, zero);
  art::crba(model, data, model.q0);
  art::energyMomentum(model, data, model.q0, model.qd0);
  if (model.arithmetic == art::Arithmetic::Spatial)
    art::contactPositionsVelocities(model, data, model.q0, model.qd0);
}

void roundTrip(const art::ModelSpec& spec) {
  // Articulate format: reads back cleanly and saves to the same text
  const std::string first = art::formatJson(art::specToJson(spec));
  const art::LoadedModel back = fuzz::readBack(first, "saved.json", "the saved Articulate document");
  const std::string second = art::formatJson(art::specToJson(back.spec));
  if (second != first)
    finding("saving the re-read Articulate document changes it", first + "----\n" + second);

  // spatial_v2 conversion: the converted document reads back cleanly
  const std::string sv2 = art::formatJson(art::specToSpatialV2(spec));
  fuzz::readBack(sv2, "converted.json", "the converted spatial_v2 document");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(bytes), size);
  try {
    const nlohmann::json doc = art::parseJsonText(text, "input.json");
    art::Diagnostics problems;
    const std::optional<art::LoadedModel> loaded = art::readModelDocument(doc, problems);
    if (loaded && !problems.empty()) finding("a model came with problems", joined(problems));
    if (!loaded) {
      if (problems.empty()) finding("no model and no problem reported", text);
      return 0;
    }
    const auto model = std::make_shared<const art::Model>(art::compile(loaded->spec));
    exercise(*model);
    if (loaded->motion) {
      // a recording poses the model it came with: one row of nq positions per sample
      const art::Recording rec = art::Recording::fromMotion(*loaded->motion);
      if (rec.positionSize() != model->nq())
        finding("a recording does not fit its model",
                std::to_string(rec.positionSize()) + " positions for nq = " + std::to_string(model->nq()));
    }
    art::TreeSystem system(model, art::simulationOptions(loaded->spec));
    fuzz::stepChecked(system, 20);
    roundTrip(loaded->spec);
  } catch (const art::FormatError&) {
  } catch (const art::ModelError&) {
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
