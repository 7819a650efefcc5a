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
for option in "$@"; do
  case "$option" in
    --fuzz) packages+=(clang libclang-rt-14-dev llvm-14) ;;  # llvm-14: ASan's llvm-symbolizer
    --tests) packages+=(munge slurmctld slurmd slurm-client libdart-utils-urdf-dev libmujoco-dev
                        python3-matplotlib) ;;
    *) echo "setup-deps: unknown option $option" >&2; exit 2 ;;
  esac
done

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup-deps: all ${#packages[@]} Debian packages are installed"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "setup-deps: installing ${missing[*]}"
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
