#!/usr/bin/env bash
# The README's run command: installs the Debian packages, builds, and runs Articulate on a
# bundled example model. Extra arguments replace the default model.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-deps.sh
scripts/build.sh release
model="${1:-models/double_pendulum.json}"
exec build/release/cli/articulate-cli info "$model"
