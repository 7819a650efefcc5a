#!/usr/bin/env bash
# Builds the Debian package from an already built tree with `cpack -G DEB` (nothing is
# recompiled), unpacks it into a scratch root with `dpkg -x` and checks what it holds: the
# control fields, the binaries, the example models, the desktop entry and the icons, and that
# the unpacked articulate-cli runs.
#
#   check_package.sh BUILD_DIR HAVE_GUI(0|1) VERSION
#
# Exit status: 0 when every check passes, 1 when one fails, 77 (CTest's SKIP_RETURN_CODE)
# when the Debian tools are missing. The last line says "N passed, M failed".
set -uo pipefail

build_dir=${1:?build directory}
have_gui=${2:?1 when the articulate target exists, else 0}
version=${3:?project version}

for tool in cpack dpkg-deb dpkg-shlibdeps file; do
  if ! command -v "$tool" >/dev/null; then
    echo "SKIP: $tool not found (Debian packages cmake, dpkg, dpkg-dev, file)"
    exit 77
  fi
done

passed=0
failed=0
check() {  # check DESCRIPTION COMMAND...
  local what=$1
  shift
  if "$@"; then
    passed=$((passed + 1))
    echo "PASS: $what"
  else
    failed=$((failed + 1))
    echo "FAIL: $what"
  fi
}
finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
  exit
}

scratch=$(mktemp -d "${TMPDIR:-/tmp}/articulate-package.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

# 1. build the package from the current tree into the scratch directory
if ! cpack -G DEB --config "$build_dir/CPackConfig.cmake" -B "$scratch/out" >"$scratch/cpack.log" 2>&1; then
  cat "$scratch/cpack.log"
  check "cpack -G DEB builds the package" false
  finish
fi
shopt -s nullglob
debs=("$scratch"/out/articulate_*.deb)
shopt -u nullglob
check "cpack makes one articulate_*.deb (${debs[*]##*/})" test ${#debs[@]} -eq 1
[ ${#debs[@]} -eq 1 ] || finish
deb=${debs[0]}
echo "package: ${deb##*/}, $(stat -c %s "$deb") bytes"

# 2. control fields
info=$(dpkg-deb -I "$deb")
field() { sed -n "s/^ $1: //p" <<<"$info"; }
depends=$(field Depends)
echo "Depends: $depends"
check "Package: articulate" test "$(field Package)" = articulate
check "Version: $version" test "$(field Version)" = "$version"
check "Architecture: $(dpkg --print-architecture)" test "$(field Architecture)" = "$(dpkg --print-architecture)"
check "Section: science" test "$(field Section)" = science
check "Maintainer is set" grep -q "articulate@invalid.example" <<<"$(field Maintainer)"
check "Depends line is present" test -n "$depends"
check "Depends names the C++ runtime (libstdc++6)" grep -q "libstdc++6" <<<"$depends"
check "Depends names urdfdom (liburdfdom-model*), for URDF" grep -q "liburdfdom-model" <<<"$depends"
if [ "$have_gui" = 1 ]; then
  check "Depends names Qt 6 (libqt6*)" grep -q "libqt6" <<<"$depends"
  check "Depends names VTK (libvtk*)" grep -q "libvtk" <<<"$depends"
fi

# 3. contents, unpacked into a scratch root
root="$scratch/root"
check "dpkg -x unpacks the package" dpkg -x "$deb" "$root"
check "every file lies under /usr" test -z "$(cd "$root" && find . -mindepth 1 -maxdepth 1 ! -name usr)"
check "nothing under /usr/local" test ! -e "$root/usr/local"
check "no headers or static libraries (the engine is linked in)" \
  test -z "$(cd "$root/usr" && find . -name '*.h' -o -name '*.a')"
check "usr/bin/articulate-cli is an executable" test -x "$root/usr/bin/articulate-cli"
models=("$root"/usr/share/articulate/models/*.json)
check "usr/share/articulate/models holds at least 20 models (${#models[@]})" test ${#models[@]} -ge 20
if [ "$have_gui" = 1 ]; then
  check "usr/bin/articulate is an executable" test -x "$root/usr/bin/articulate"
  desktop="$root/usr/share/applications/articulate.desktop"
  check "usr/share/applications/articulate.desktop" test -f "$desktop"
  check "the desktop entry runs articulate %f" grep -qx "Exec=articulate %f" "$desktop"
  check "the desktop entry names the icon articulate" grep -qx "Icon=articulate" "$desktop"
  if command -v desktop-file-validate >/dev/null; then
    check "desktop-file-validate accepts the desktop entry" desktop-file-validate "$desktop"
  fi
  check "usr/share/icons/hicolor/scalable/apps/articulate.svg" \
    grep -q "<svg" "$root/usr/share/icons/hicolor/scalable/apps/articulate.svg"
  png="$root/usr/share/icons/hicolor/256x256/apps/articulate.png"
  check "usr/share/icons/hicolor/256x256/apps/articulate.png is a 256x256 PNG" \
    grep -q "PNG image data, 256 x 256" <<<"$(file "$png" 2>&1)"
else
  check "no desktop entry without the application" \
    test ! -e "$root/usr/share/applications/articulate.desktop"
fi

# 4. the unpacked binaries find their libraries, and articulate-cli runs from the package
for exe in "$root"/usr/bin/*; do
  check "${exe#"$root"/} finds all its shared libraries" \
    test -z "$(ldd "$exe" 2>&1 | grep 'not found')"
done
cli="$root/usr/bin/articulate-cli"
check "the packaged articulate-cli validates the packaged double_pendulum.json" \
  "$cli" validate "$root/usr/share/articulate/models/double_pendulum.json"
check "the packaged articulate-cli validates all ${#models[@]} packaged models" \
  "$cli" validate "${models[@]}"

# 5. the Python module, when this build has it: installed for the system's python3, with its
# stubs, importable from the package and computing with the packaged engine
if ls "$build_dir"/python/articulate/_articulate*.so >/dev/null 2>&1; then
  site="$root/usr/lib/python3/dist-packages/articulate"
  check "usr/lib/python3/dist-packages/articulate holds the module and its stubs" \
    test -f "$site/__init__.py" -a -f "$site/__init__.pyi" -a -f "$site/py.typed"
  check "Depends names python3 and python3-numpy" grep -q "python3-numpy" <<<"$depends"
  check "the packaged module imports and computes H of a packaged model" \
    env PYTHONPATH="$root/usr/lib/python3/dist-packages" /usr/bin/python3 -c \
    "import articulate, sys; m = articulate.load(sys.argv[1]); assert articulate.crba(m, m.q0).shape == (m.nv, m.nv)" \
    "$root/usr/share/articulate/models/arm6.json"
fi

finish
