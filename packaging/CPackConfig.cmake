# The Debian package: `cpack -G DEB` in a build tree (scripts/package.sh builds the `package`
# preset and runs it). Included at the end of the top-level CMakeLists.txt, after every
# target's install() rules, so that it can see which targets exist.
#
# The package holds what `cmake --install` installs, under /usr:
#   bin/articulate, bin/articulate-cli, share/articulate/models/*.json,
#   share/applications/articulate.desktop, share/icons/hicolor/{scalable,256x256}/apps/.
# Its Depends line is computed by dpkg-shlibdeps (Debian package dpkg-dev) from the binaries.

# The desktop entry and the icons belong to the application: a build without it (for example
# -DARTICULATE_BUILD_GUI=OFF) makes a command-line-only package.
if(TARGET articulate)
  install(FILES ${PROJECT_SOURCE_DIR}/resources/articulate.desktop
          DESTINATION share/applications)
  install(FILES ${PROJECT_SOURCE_DIR}/resources/articulate.svg
          DESTINATION share/icons/hicolor/scalable/apps)
  install(FILES ${PROJECT_SOURCE_DIR}/resources/icons/articulate.png
          DESTINATION share/icons/hicolor/256x256/apps)
endif()

set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGE_NAME "articulate")
set(CPACK_PACKAGE_VENDOR "Articulate developers")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_CONTACT "Articulate developers <articulate@invalid.example>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "build, simulate and play back articulated mechanisms")
# CPack indents these lines and turns the empty line into " ." for debian/control.
set(CPACK_PACKAGE_DESCRIPTION [=[
Articulate is a desktop tool for building, simulating and playing back
articulated mechanisms: robot arms, legged robots, linkages, anything made of
rigid bodies and joints. Its engine implements Roy Featherstone's spatial_v2
semantics (every spatial_v2 joint type, the recursive Newton-Euler,
articulated-body and composite-rigid-body algorithms) and is checked against
spatial_v2's own numbers.
]=])
if(TARGET articulate)
  string(APPEND CPACK_PACKAGE_DESCRIPTION "
The package contains the Qt/VTK application articulate, the engine-only
command-line tool articulate-cli (info, validate, convert, simulate,
generate, conformance) and example models in /usr/share/articulate/models.")
else()
  string(APPEND CPACK_PACKAGE_DESCRIPTION "
This build of the package contains only the engine-only command-line tool
articulate-cli (info, validate, convert, simulate, generate, conformance)
and example models in /usr/share/articulate/models.")
endif()
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_STRIP_FILES ON)

set(CPACK_DEBIAN_PACKAGE_NAME "articulate")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # articulate_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "Articulate developers <articulate@invalid.example>")
set(CPACK_DEBIAN_PACKAGE_SECTION "science")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)  # Depends: from the Qt6, VTK and C++ runtime libraries
# the Python module (python/) is built for this Python's ABI and returns numpy arrays; the
# shared-library dependencies above are added to these
if(ARTICULATE_PYTHON_MODULE)
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "${ARTICULATE_PYTHON_DEPENDS}")
endif()
set(CPACK_DEBIAN_COMPRESSION_TYPE "xz")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)

# Read by cpack itself: warns when the binaries were built for this machine's CPU only.
set(CPACK_ARTICULATE_HOST_ARCH_FLAGS OFF)
if(ARTICULATE_HOST_ARCH AND ARTICULATE_HOST_HAS_AVX2_FMA)
  set(CPACK_ARTICULATE_HOST_ARCH_FLAGS ON)
endif()
set(CPACK_PROJECT_CONFIG_FILE ${CMAKE_CURRENT_LIST_DIR}/CPackProjectConfig.cmake)

# `cpack --config CPackSourceConfig.cmake`: a source tarball without build trees and VCS files.
set(CPACK_SOURCE_GENERATOR "TGZ")
set(CPACK_SOURCE_IGNORE_FILES "/\\\\.git/" "/build/" "/\\\\.cache/" "\\\\.swp$")

include(CPack)
