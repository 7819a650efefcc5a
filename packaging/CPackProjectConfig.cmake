# CPACK_PROJECT_CONFIG_FILE: read by cpack for each generator it runs.
if(CPACK_GENERATOR STREQUAL "DEB" AND CPACK_ARTICULATE_HOST_ARCH_FLAGS)
  message(WARNING "This build tree was configured with ARTICULATE_HOST_ARCH=ON and compiled "
          "with -march=x86-64-v3 (AVX2, FMA): the package will not run on older x86-64 CPUs. "
          "Build packages for distribution with the `package` preset (scripts/package.sh).")
endif()
