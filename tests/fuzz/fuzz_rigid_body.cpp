// libFuzzer harness for rigid-body documents (kind "rigid_body"; see README.md in this
// directory).
//
// The input bytes are a JSON text read as File > Open reads it (parseJsonText, readDocument).
// A rigid body that loads must build a RigidBodySystem (the reader checked everything the
// body needs), step through impacts and contact with a finite state or stop with a divergence
// that says why, and save to a document that reads back with no problem and saves to the
// identical text. Only FormatError, ModelError and std::invalid_argument may leave the reader.
#include <cstdint>
#include <string>
#include <variant>

#include "articulate/model/model.h"
#include "articulate/formats/document.h"
#include "articulate/formats/files.h"
#include "articulate/simulation/system.h"
#include "fuzz_common.h"

namespace {
using fuzz::finding;
using fuzz::joined;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(bytes), size);
  art::RigidBodySpec spec;
  try {
    const nlohmann::json doc = art::parseJsonText(text, "input.json");
    if (!doc.is_object() || !doc.contains("kind") || doc["kind"] != "rigid_body") return 0;
    art::Diagnostics problems;
    const std::optional<art::LoadedDocument> loaded = art::readDocument(doc, problems);
    fuzz::checkVerdict(loaded.has_value(), problems, text);
    if (!loaded) return 0;
    if (!std::holds_alternative<art::RigidBodySpec>(*loaded))
      finding("a rigid_body document did not read as a rigid body", text);
    spec = std::get<art::RigidBodySpec>(*loaded);
  } catch (const art::FormatError&) {
    return 0;
  }
  try {
    art::RigidBodySystem system(spec, 1e-4, 1e-3);
    fuzz::stepChecked(system, 20);
  } catch (const art::ModelError& e) {
    finding("a rigid body the reader accepted does not build", e.what());
  }
  const std::string first = art::formatJson(art::rigidBodyToJson(spec));
  art::Diagnostics problems;
  art::RigidBodySpec back;
  try {
    art::rigidBodyFromJson(art::parseJsonText(first, "saved.json"), back, problems);
  } catch (const art::FormatError& e) {
    finding("the saved rigid-body document does not parse", std::string(e.what()) + "\n" + first);
  }
  if (!problems.empty()) finding("the saved rigid-body document does not read back", joined(problems) + first);
  const std::string second = art::formatJson(art::rigidBodyToJson(back));
  if (second != first) finding("saving the re-read rigid-body document changes it", first + "----\n" + second);
  return 0;
}
