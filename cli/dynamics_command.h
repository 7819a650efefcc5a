#pragma once
// articulate-cli dynamics: a model's joint-space dynamics at one state, as numbers another
// engine can be held against (docs/cli.md). Also the loader the commands share for `--base`.

#include <string>

#include <CLI/CLI.hpp>

#include "articulate/formats/document.h"

struct DynamicsArgs {
  std::string model, base, q, qd, tau, ctrl, act;  // empty: the model's (base: URDF's auto rule), zero
  std::string key;                                 // a keyframe's name or index (empty: none)
  bool json = false;
  std::string solver;       // soft physics: "newton", "pgs" or "cg" (empty: the model's)
  int iterations = 0;       // soft physics: > 0 overrides the model's
  double tolerance = -1.0;  // soft physics: >= 0 overrides the model's
  std::string eqActive;     // soft physics: "1,0,..." one switch per equality (empty: the model's)
};

/// Loads a model file as loadDocument does, a URDF with the base `base` ("auto", "fixed" or
/// "floating"; empty: auto) and its collision geometry as `contact` says ("geoms" or "points";
/// empty: geoms; urdf.h: UrdfContact). Throws std::invalid_argument for another text, or either
/// given for a format that is not URDF; FormatError as loadDocument.
art::LoadedDocument loadWithBase(const std::string& path, const std::string& base, const std::string& contact = "");

/// The keyframe `key` of `document` (a tree's): by name, else by index from 0, as MuJoCo's
/// mj_resetDataKeyframe takes its index. Throws std::invalid_argument naming the keys there are
/// when none is called so, or the document is not a tree.
const art::KeyframeSpec& findKeyframe(const art::LoadedDocument& document, const std::string& key);

/// The help of every command's --key option.
inline constexpr const char* kKeyHelp =
    "start from a keyframe, by name or index from 0 (MJCF <key>, the app's Keyframes): its q, qd, "
    "controls and activations, as MuJoCo's mj_resetDataKeyframe";

/// The help of every command's --base option.
inline constexpr const char* kBaseHelp =
    "URDF: auto (floating when collision geometry reaches below the root link in two or more of its "
    "branches, its legs; fixed otherwise, and for a root link named 'world'), fixed or floating";

/// Adds the `dynamics` subcommand with its options to `app`.
CLI::App* addDynamicsCommand(CLI::App& app, DynamicsArgs& args);

/// Runs it: prints the coordinates, H(q), bias(q, qd), the actuators' and tendons' quantities
/// at ctrl and act, the passive forces, and qdd(q, qd, tau + actuator + passive forces); 0 done,
/// 2 bad input
/// (thrown as exceptions to main).
int runDynamicsCommand(const DynamicsArgs& args);
