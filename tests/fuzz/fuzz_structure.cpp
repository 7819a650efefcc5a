// libFuzzer harness for structure documents (kind "structure", natural coordinates; see
// README.md in this directory).
//
// The input bytes are a JSON text read as File > Open reads it (parseJsonText,
// structureFromJson). A structure that loads must build a StructureSystem with its own
// integrator settings (the reader checked that it compiles), step with a finite state or stop
// with a divergence that says why, and save to a document that reads back with no problem and
// saves to the identical text. Only FormatError, ModelError and std::invalid_argument may leave
// the reader.
#include <cstdint>
#include <string>

#include "articulate/model/model.h"
#include "articulate/formats/files.h"
#include "articulate/formats/structure.h"
#include "articulate/simulation/structure_system.h"
#include "fuzz_common.h"

namespace {
using fuzz::finding;
using fuzz::joined;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(bytes), size);
  art::natural::StructureSpec spec;
  try {
    const nlohmann::json doc = art::parseJsonText(text, "input.json");
    if (!art::natural::isStructureDocument(doc)) return 0;
    art::Diagnostics problems;
    spec = art::natural::structureFromJson(doc, problems);
    if (!problems.empty()) return 0;
  } catch (const art::FormatError&) {
    return 0;
  }
  try {
    art::StructureSystem system(spec);
    fuzz::stepChecked(system, 20);
  } catch (const std::invalid_argument& e) {
    finding("a structure the reader accepted does not build", e.what());
  }
  const std::string first = art::formatJson(art::natural::structureToJson(spec));
  art::Diagnostics problems;
  art::natural::StructureSpec back;
  try {
    back = art::natural::structureFromJson(art::parseJsonText(first, "saved.json"), problems);
  } catch (const art::FormatError& e) {
    finding("the saved structure document does not parse", std::string(e.what()) + "\n" + first);
  }
  if (!problems.empty()) finding("the saved structure document does not read back", joined(problems) + first);
  const std::string second = art::formatJson(art::natural::structureToJson(back));
  if (second != first) finding("saving the re-read structure document changes it", first + "----\n" + second);
  return 0;
}
