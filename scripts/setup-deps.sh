#!/usr/bin/env bash
# Installs the Debian 12 packages Articulate needs to build, test and run.
# Runs apt-get through sudo when not root. Safe to run again: apt-get skips what is installed.
#   scripts/setup-deps.sh          what configure, build, tests, run.sh and package.sh need
#   scripts/setup-deps.sh --fuzz   also clang and libFuzzer's runtime (scripts/fuzz.sh)
#   scripts/setup-deps.sh --tests  also what only the test suite needs: a single-node Slurm
#                                  (munge, slurmctld, slurmd, slurm-client) for the sweep test
#                                  (tests/cluster), which starts and stops its own daemons; and
#                                  DART's URDF loader (libdart-utils-urdf-dev), the reference
#                                  of tests/engine/test_urdf_dart.cpp; and MuJoCo 2.2.2's compiler
#                                  (libmujoco-dev), the reference of tests/engine/test_mjcf_mujoco.cpp;
#                                  MuJoCo's sample models (libmujoco-samples, /usr/share/mujoco/model);
#                                  Node and npm, and with them MuJoCo 3.3.8's official WebAssembly
#                                  build (npm ci of mujoco-js@0.0.7, pinned by the lock file in
#                                  tests/reference/mujoco338), the reference of test_mjcf_corpus;
#                                  and matplotlib, which python/examples/sweep_plot.py plots with
# The base list includes what the Python module (python/) builds and tests with: pybind11,
# Python's headers, numpy and pytest.
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config
  libeigen3-dev nlohmann-json3-dev libcli11-dev libbenchmark-dev
  liburdfdom-dev liburdfdom-headers-dev libassimp-dev libtinyxml2-dev libqhull-dev libccd-dev
  qt6-base-dev libqt6opengl6-dev qt6-charts-dev libvtk9-dev libgl1-mesa-dri
  xvfb xauth xdotool ffmpeg
  dpkg-dev file binutils desktop-file-utils
  python3 python3-jsonschema
  pybind11-dev python3-dev python3-numpy python3-pytest
)
mujoco338=0
for option in "$@"; do
  case "$option" in
    --fuzz) packages+=(clang libclang-rt-14-dev llvm-14) ;;  # llvm-14: ASan's llvm-symbolizer
    --tests) packages+=(munge slurmctld slurmd slurm-client libdart-utils-urdf-dev libmujoco-dev
                        libmujoco-samples nodejs python3-matplotlib)
             mujoco338=1 ;;
    *) echo "setup-deps: unknown option $option" >&2; exit 2 ;;
  esac
done

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# npm: Debian's package, unless a Node that brings its own (NodeSource's, which conflicts with it)
if [ "$mujoco338" = 1 ] && ! command -v npm >/dev/null; then missing+=(npm); fi
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup-deps: all ${#packages[@]} Debian packages are installed"
else
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  echo "setup-deps: installing ${missing[*]}"
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi

# MuJoCo 3.3.8 as WebAssembly, from the npm registry, exactly as the lock file pins it (its
# integrity hash included); again only when the lock file is newer than what is installed
if [ "$mujoco338" = 1 ]; then
  ref="$(dirname "$0")/../tests/reference/mujoco338"
  if [ ! -f "$ref/node_modules/.package-lock.json" ] || [ "$ref/package-lock.json" -nt "$ref/node_modules/.package-lock.json" ]; then
    echo "setup-deps: installing mujoco-js (MuJoCo 3.3.8, WebAssembly) with npm ci"
    (cd "$ref" && npm ci --no-audit --no-fund --loglevel=error)
  fi
  node -e "import('$(cd "$ref" && pwd)/node_modules/mujoco-js/dist/mujoco_wasm.js').then(async (m) => {
    const mj = await m.default(); if (mj.mj_versionString() !== '3.3.8') throw new Error('not 3.3.8'); })" \
    || { echo "setup-deps: MuJoCo 3.3.8 (mujoco-js) does not run under this Node" >&2; exit 1; }
fi
