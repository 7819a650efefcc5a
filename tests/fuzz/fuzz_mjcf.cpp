// libFuzzer harness for MJCF import (see README.md in this directory).
//
// The input bytes are an MJCF text (XML). specFromMjcf reads it as File > Open does (tinyxml2
// behind a nesting-depth check; includes and meshes relative to the working folder). A model
// that loads must:
//   - compile and run through the algorithms at its initial state, with a finite joint-space
//     inertia;
//   - save in the Articulate format and read back with no problem and the same joint-space
//     inertia at its initial state, to round-off.
// Only FormatError, ModelError and std::invalid_argument may leave the importer.
#include <cstdint>
#include <string>

#include "articulate/dynamics/dynamics.h"
#include "articulate/formats/document.h"
#include "articulate/formats/files.h"
#include "articulate/formats/mjcf.h"
#include "articulate/model/model.h"
#include "fuzz_common.h"

namespace {
using fuzz::finding;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
  const std::string xml(reinterpret_cast<const char*>(bytes), size);
  art::ModelSpec spec;
  try {
    spec = art::specFromMjcf(xml, "input.xml");
  } catch (const art::FormatError&) {
    return 0;
  }
  try {
    const art::Model model = art::compile(spec);
    art::Data data(model);
    const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nv());
    art::aba(model, data, model.q0, zero, zero);
    const Eigen::MatrixXd H = art::crba(model, data, model.q0);
    if (!H.allFinite()) finding("an imported model's joint-space inertia is not finite", xml);

    const std::string saved = art::formatJson(art::specToJson(spec));
    const art::LoadedModel back = fuzz::readBack(saved, "saved.json", "an imported model's Articulate document");
    const art::Model again = art::compile(back.spec);
    art::Data dataAgain(again);
    const Eigen::MatrixXd H2 = art::crba(again, dataAgain, again.q0);
    if (H2.rows() != H.rows() || !H2.allFinite() || (H2 - H).norm() > 1e-9 * (1.0 + H.norm()))
      finding("the saved model has other dynamics", saved);
  } catch (const art::ModelError& e) {
    finding("an imported model does not compile", e.what());
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
