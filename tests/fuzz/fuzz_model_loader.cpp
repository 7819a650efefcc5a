// libFuzzer harness for the model loader (see README.md in this directory).
//
// The input bytes are a JSON text. They go through the same path as a file opened by the
// application: parseJsonText -> readModelDocument (either format) -> compile. A model that
// loads is then run through a few algorithms and written back: the Articulate document it
// saves must read back without a problem and save to the identical text, and the spatial_v2
// document it converts to must read back without a problem. A broken round trip calls abort()
// (a finding). Only the loader's documented exceptions (FormatError, ModelError,
// std::invalid_argument) may leave the loader; anything else escaping is a finding too.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "articulate/dynamics.h"
#include "articulate/model.h"
#include "articulate/model_format.h"
#include "articulate/model_io.h"

namespace {

[[noreturn]] void finding(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz_model_loader: %s\n%s\n", what, detail.c_str());
  std::abort();
}

std::string joined(const art::Diagnostics& problems) {
  std::string text;
  for (const auto& p : problems) text += p.text() + "\n";
  return text;
}

void exercise(const art::Model& model) {
  art::Data data(model);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nb);
  art::aba(model, data, zero, zero, zero);
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
  art::Diagnostics problems;
  std::optional<art::LoadedModel> back;
  try {
    back = art::readModelDocument(art::parseJsonText(first, "saved.json"), problems);
  } catch (const art::FormatError& e) {
    finding("the saved Articulate document does not parse", std::string(e.what()) + "\n" + first);
  }
  if (!back || !problems.empty())
    finding("the saved Articulate document does not read back", joined(problems) + first);
  const std::string second = art::formatJson(art::specToJson(back->spec));
  if (second != first)
    finding("saving the re-read Articulate document changes it", first + "----\n" + second);

  // spatial_v2 conversion: the converted document reads back cleanly
  const std::string sv2 = art::formatJson(art::specToSpatialV2(spec));
  problems.clear();
  std::optional<art::LoadedModel> converted;
  try {
    converted = art::readModelDocument(art::parseJsonText(sv2, "converted.json"), problems);
  } catch (const art::FormatError& e) {
    finding("the converted spatial_v2 document does not parse", std::string(e.what()) + "\n" + sv2);
  }
  if (!converted || !problems.empty())
    finding("the converted spatial_v2 document does not read back", joined(problems) + sv2);
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
    const art::Model model = art::compile(loaded->spec);
    exercise(model);
    roundTrip(loaded->spec);
  } catch (const art::FormatError&) {
  } catch (const art::ModelError&) {
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
