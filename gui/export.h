#pragma once
// Exporting what the viewport shows: one PNG, a PNG image sequence, or a video (through the
// `ffmpeg` program when it is installed, else VTK's Ogg Theora writer), rendered offscreen at
// any size with the viewport's camera and lights.

#include <functional>

#include <QString>

#include "articulate/model/spec.h"
#include "articulate/simulation/recording.h"
#include "articulate/simulation/system.h"
#include "viewport/viewport.h"

namespace art::gui {

struct ExportOptions {
  enum class Kind { Images, Video };
  Kind kind = Kind::Video;
  /// Video: the file (.ogv: Ogg Theora; any other suffix, e.g. .mp4: ffmpeg). Images: the
  /// first file's name, e.g. "frames/pendulum.png"; frames are written as pendulum_00000.png...
  QString path;
  int width = 1280, height = 720;  // pixels (videos: even numbers)
  double fps = 30;                 // frames per second of the output
  double speed = 1.0;              // simulated seconds per second of output
  double start = 0.0, end = 0.0;   // time range (s) of the recording to export
  Overlays overlays;               // what to draw besides the bodies (the viewport's)
  /// Other models drawn translucent beside it, each posed from its recording at every frame's
  /// time (a sweep's runs played together; Viewport::setGhosts). The recordings must outlive
  /// the export.
  struct Ghost {
    ModelSpec spec;
    const Recording* recording = nullptr;
  };
  std::vector<Ghost> ghosts;
};

/// The ffmpeg program on PATH, or empty.
QString ffmpegProgram();

/// Number of frames an export writes: floor((end - start) fps / speed) + 1.
int exportFrameCount(const ExportOptions& options);

/// Renders the recording's frames from options.start to options.end and writes them (`poses`
/// turns the recorded states into body poses, segments and the overlays' annotations with
/// computeFrame, the recorded perturbation included; `spec` gives the drawing). Calls
/// `progress(done, total)` after each frame; returning false cancels. Every file is written
/// atomically: each image through a temporary file renamed over it, a video under a temporary
/// name beside the target that replaces it only once complete, so that cancelling or failing
/// leaves an existing file of that name as it was (images already written stay). Returns an
/// empty string on success, else the reason (also "cancelled").
QString exportFrames(const ModelSpec& spec, const Recording& recording, System& poses,
                     const ViewState& view,
                     const ExportOptions& options,
                     const std::function<bool(int done, int total)>& progress);

}  // namespace art::gui
