#pragma once
// Whether an X display can be opened: the offscreen view renders through Debian VTK's X window,
// which aborts the process without one. Kept apart from the VTK and Eigen code: Xlib.h defines
// macros (Success, None, Status) that clash with them.

namespace art::gui {

/// Opens and closes the X display named by DISPLAY; throws std::runtime_error with a one-line
/// message (what is missing and how to run under Xvfb) when it cannot be opened.
void requireXDisplay();

}  // namespace art::gui
