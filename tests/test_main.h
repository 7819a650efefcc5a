#pragma once
// ARTICULATE_TEST_MAIN(Class, ...): a test file's main, which runs its test classes in order and
// returns the first failure's code. Compiled into a test bundle, the engine's (test_engine) or
// the application's (test_app) (ARTICULATE_TEST_BUNDLE, tests/CMakeLists.txt), it registers them
// instead under the file's name (test_spatial for test_spatial.cpp), which the bundle's main
// (test_bundle_main.cpp) runs when named: `test_engine test_spatial [QtTest options]`. The bundle's files are compiled a
// few at a time as one unit (a unity build), so that Qt's, Eigen's and the JSON library's
// headers are parsed and their templates instantiated once per batch, not once per test.
#include <QtTest>

#include <functional>
#include <map>
#include <string>

namespace art::test {

/// Runs a test file's classes: (argc, argv) as QTest::qExec takes them.
using TestRunner = std::function<int(int, char**)>;

/// The bundle's tests by name.
inline std::map<std::string, TestRunner>& bundledTests() {
  static std::map<std::string, TestRunner> tests;
  return tests;
}

/// Runs test class T with QTest::qExec.
template <class T>
int runTestClass(int argc, char** argv) {
  T test;
  return QTest::qExec(&test, argc, argv);
}

/// Runs T... in order (a braced list is evaluated left to right); returns the first nonzero
/// code, else 0.
template <class... T>
int runTestClasses(int argc, char** argv) {
  int rc = 0;
  for (const int r : {runTestClass<T>(argc, argv)...})
    if (rc == 0) rc = r;
  return rc;
}

/// The test's name: its file's base name without the extension.
inline std::string testNameOf(const char* file) {
  std::string name(file);
  name = name.substr(name.find_last_of('/') + 1);
  return name.substr(0, name.find('.'));
}

inline bool registerTest(const char* file, TestRunner run) {
  bundledTests()[testNameOf(file)] = std::move(run);
  return true;
}

}  // namespace art::test

// ARTICULATE_TEST_APPLICATION(app, argc, argv): the application object a test program makes,
// as QTEST_MAIN would: a QApplication at 96 dpi where Qt Widgets is linked (the application's
// tests, whose bundle is test_app), else a QCoreApplication (the engine's, test_engine).
#ifdef QT_WIDGETS_LIB
#include <QApplication>
#define ARTICULATE_TEST_APPLICATION(app, argc, argv) \
  QApplication app(argc, argv);                      \
  app.setAttribute(Qt::AA_Use96Dpi)
#else
#define ARTICULATE_TEST_APPLICATION(app, argc, argv) QCoreApplication app(argc, argv)
#endif

#ifdef ARTICULATE_TEST_BUNDLE
#define ARTICULATE_TEST_JOIN2(a, b) a##b
#define ARTICULATE_TEST_JOIN(a, b) ARTICULATE_TEST_JOIN2(a, b)
#define ARTICULATE_TEST_MAIN(...)                                                          \
  static const bool ARTICULATE_TEST_JOIN(articulateTestRegistered, __LINE__) =            \
      art::test::registerTest(__FILE__, &art::test::runTestClasses<__VA_ARGS__>);
#else
#define ARTICULATE_TEST_MAIN(...)                                      \
  int main(int argc, char** argv) {                                   \
    ARTICULATE_TEST_APPLICATION(app, argc, argv);                     \
    return art::test::runTestClasses<__VA_ARGS__>(argc, argv);        \
  }
#endif
