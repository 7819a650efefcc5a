#pragma once
// Helpers the GUI tests share: waiting on the event loop for a condition, and a model's
// canonical JSON text for exact comparisons.
#include <QElapsedTimer>
#include <QtTest>
#include <string>

#include "articulate/formats/articulate.h"

namespace art::test {

/// Waits (processing events) until `done` or `seconds` pass; returns done().
template <class F>
bool waitFor(F done, double seconds) {
  QElapsedTimer clock;
  clock.start();
  while (!done() && clock.elapsed() < seconds * 1000) QTest::qWait(10);
  return done();
}

/// The model's canonical JSON, for comparing models exactly.
inline std::string text(const ModelSpec& s) { return specToJson(s).dump(); }

}  // namespace art::test
