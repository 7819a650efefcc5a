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
  // and is the application of that name, as its own program was: its settings and data
  // (QSettings, QStandardPaths) are its own, not shared with the bundle's other tests, which
  // may run at the same time (a test that sets its own names still does)
  QCoreApplication::setApplicationName(QString::fromStdString(it->first));
  return it->second(argc - 1, argv + 1);
}
