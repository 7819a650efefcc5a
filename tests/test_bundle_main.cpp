// A test bundle's main (tests/CMakeLists.txt, test_main.h), the engine's (test_engine) and the
// application's (test_app): `test_engine NAME [QtTest options]` runs the test file NAME
// (test_spatial, ...), as its own program would; without a known name it lists the names and
// exits 2.
#include <cstdio>

#include "test_main.h"

int main(int argc, char** argv) {
  ARTICULATE_TEST_APPLICATION(app, argc, argv);
  const auto& tests = art::test::bundledTests();
  const auto it = argc > 1 ? tests.find(argv[1]) : tests.end();
  if (it == tests.end()) {
    std::fprintf(stderr, "usage: %s TEST [QtTest options]; the tests:\n", argv[0]);
    for (const auto& [name, run] : tests) std::fprintf(stderr, "  %s\n", name.c_str());
    return 2;
  }
  argv[1] = argv[0];  // the test sees its own name as the program's
  return it->second(argc - 1, argv + 1);
}
