#!/usr/bin/env bash
# The README's run command: installs the Debian packages, builds, and opens Articulate on a
# bundled example model (or on the model given as the first argument). Without a display it
# renders the model to build/screenshot.png instead and prints the model's summary.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-deps.sh
scripts/build.sh release
model="${1:-models/arm6.json}"
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  echo "run.sh: no display; rendering $model to build/screenshot.png (open a desktop session to interact)"
  xvfb-run -a -s "-screen 0 1920x1080x24" build/release/gui/articulate --screenshot build/screenshot.png "$model"
  exec build/release/cli/articulate-cli info "$model"
fi
exec build/release/gui/articulate "$model"
