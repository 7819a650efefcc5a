// libFuzzer harness for URDF import and export (see README.md in this directory).
//
// The input bytes are a URDF text (XML). specFromUrdf reads it as File > Open does (urdfdom's
// parser behind a nesting-depth check, so deep nesting is refused before it can overflow the
// parser's recursion). A robot that loads must:
//   - compile and run through the algorithms at its initial state;
//   - save in the Articulate format and read back with no problem;
//   - export to URDF (an imported robot has only what URDF holds: revolute and prismatic
//     joints, mimic couplings, boxes, cylinders and spheres), and import again with the same
//     bodies and the same joint-space inertia at q = 0, to round-off.
// Only FormatError, ModelError and std::invalid_argument may leave the importer.
#include <cstdint>
#include <string>

#include "articulate/dynamics/dynamics.h"
#include "articulate/model/model.h"
#include "articulate/formats/document.h"
#include "articulate/formats/files.h"
#include "articulate/formats/spatial_v2.h"
#include "articulate/formats/urdf.h"
#include "fuzz_common.h"

namespace {
using fuzz::finding;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
  const std::string xml(reinterpret_cast<const char*>(bytes), size);
  art::ModelSpec spec;
  try {
    spec = art::specFromUrdf(xml, "input.urdf");
  } catch (const art::FormatError&) {
    return 0;
  }
  try {
    const art::Model model = art::compile(spec);
    art::Data data(model);
    const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nv());
    art::aba(model, data, model.q0, zero, zero);
    // at q0: zero joint angles, and a floating root's unit quaternion (a zero q has none)
    const Eigen::MatrixXd H = art::crba(model, data, model.q0);

    // the robot saves in the Articulate format (JSON: names must be UTF-8) and reads back
    fuzz::readBack(art::formatJson(art::specToJson(spec)), "saved.json", "an imported robot's Articulate document");

    art::UrdfText out;
    try {
      out = art::specToUrdf(spec);
    } catch (const art::UrdfError& e) {
      finding("an imported robot does not export to URDF", e.what());
    }
    art::ModelSpec back;
    try {
      back = art::specFromUrdf(out.xml, "exported.urdf");
    } catch (const art::FormatError& e) {
      finding("the exported URDF does not import", std::string(e.what()) + "\n" + out.xml);
    }
    if (back.bodies.size() != spec.bodies.size())
      finding("the exported URDF has another number of bodies", out.xml);
    const art::Model again = art::compile(back);
    art::Data dataAgain(again);
    const Eigen::MatrixXd H2 = art::crba(again, dataAgain, again.q0);
    if (H2.rows() != H.rows() || !H2.allFinite() || (H2 - H).norm() > 1e-9 * (1.0 + H.norm()))
      finding("the exported URDF has other dynamics", out.xml);
  } catch (const art::ModelError& e) {
    finding("an imported robot does not compile", e.what());
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
