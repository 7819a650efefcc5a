#include "viewport/x_display.h"

#include <cstdlib>
#include <stdexcept>
#include <string>

#include <X11/Xlib.h>

namespace art::gui {

void requireXDisplay() {
  Display* display = XOpenDisplay(nullptr);
  if (display) {
    XCloseDisplay(display);
    return;
  }
  const char* name = std::getenv("DISPLAY");
  throw std::runtime_error(std::string("rendering an image needs an X display, and ") +
                           (name && *name ? "DISPLAY '" + std::string(name) + "' cannot be opened"
                                          : std::string("DISPLAY is not set")) +
                           ": run it under Xvfb, e.g. xvfb-run -a articulate --screenshot OUT.png MODEL");
}

}  // namespace art::gui
