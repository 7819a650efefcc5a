#!/usr/bin/env bash
# Builds the Debian package: installs the Debian packages needed (scripts/setup-deps.sh, then
# the packaging tools), configures and builds the `package` preset (Release, portable x86-64:
# ARTICULATE_HOST_ARCH off, no tests or benchmarks) and runs `cpack -G DEB` in build/package.
# Prints the path of the .deb; install it with `sudo apt install ./build/package/articulate_*.deb`.
# Extra arguments go to the CMake configure step (for example -DARTICULATE_BUILD_GUI=OFF for
# a command-line-only package). JOBS sets the build's parallelism (default: nproc).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-deps.sh

# dpkg-shlibdeps (dpkg-dev) computes the Depends line; CPack finds the binaries to give it
# with file and readelf (binutils).
tools=(dpkg-dev file binutils)
missing=()
for p in "${tools[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  echo "package: installing ${missing[*]}"
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi

cmake --preset package "$@" >/dev/null
cmake --build --preset package -j "${JOBS:-$(nproc)}"
rm -f build/package/articulate_*.deb
(cd build/package && cpack -G DEB)
deb=$(ls build/package/articulate_*.deb)
echo "package: $(pwd)/$deb"
