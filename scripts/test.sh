#!/usr/bin/env bash
# The README's test command: installs the Debian packages, builds, and runs the whole test
# suite with CTest (under a virtual X server, for the GUI and rendering tests).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-deps.sh --tests
scripts/build.sh release
cd build/release
if command -v xvfb-run >/dev/null; then
  exec xvfb-run -a -s "-screen 0 1920x1080x24" ctest --output-on-failure -j "$(nproc)"
fi
exec ctest --output-on-failure -j "$(nproc)"
