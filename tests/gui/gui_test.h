#pragma once
// Helpers the GUI tests share: waiting on the event loop for a condition, and a model's
// canonical JSON text for exact comparisons.
#include <QAbstractButton>
#include <QApplication>
#include <QElapsedTimer>
#include <QGraphicsScene>
#include <QMessageBox>
#include <QPointer>
#include <QTextDocumentFragment>
#include <QTimer>
#include <QtTest>
#include <memory>
#include <string>
#include <vector>

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

/// Waits (processing events) until `scene` has gone `quietMs` without a change, at most
/// `seconds`; returns whether it did. A chart lays itself out in the event loop in several
/// passes (a range change posts a layout request, the layout moves and re-elides the labels),
/// and a fixed wait can end between two of them on a loaded machine.
inline bool waitUntilQuiet(QGraphicsScene* scene, int quietMs = 300, double seconds = 10) {
  QElapsedTimer quiet, clock;
  quiet.start();
  clock.start();
  const QMetaObject::Connection c = QObject::connect(scene, &QGraphicsScene::changed, scene, [&] { quiet.restart(); });
  while (quiet.elapsed() < quietMs && clock.elapsed() < seconds * 1000) QTest::qWait(10);
  QObject::disconnect(c);
  return quiet.elapsed() >= quietMs;
}

/// The model's canonical JSON, for comparing models exactly.
inline std::string text(const ModelSpec& s) { return specToJson(s).dump(); }

}  // namespace art::test

/// Closes the next modal message box once it shows, clicking `button` when it has one (else
/// rejecting it), and records its text and informative text (as plain text) in `text`.
/// The timers of closeNextDialog calls whose dialog has not shown yet.
inline std::vector<QPointer<QTimer>>& pendingDialogTimers() {
  static std::vector<QPointer<QTimer>> timers;
  return timers;
}

/// Stops waiting for the dialogs closeNextDialog expected and that never showed (a test that
/// checks no dialog shows ends with this, so that its wait cannot close the next test's dialog).
inline void forgetPendingDialogs() {
  for (const QPointer<QTimer>& t : pendingDialogTimers())
    if (t) {
      t->stop();
      t->deleteLater();
    }
  pendingDialogTimers().clear();
}

inline void closeNextDialog(QString* text, QMessageBox::StandardButton button = QMessageBox::Ok) {
  auto* timer = new QTimer(qApp);
  pendingDialogTimers().emplace_back(timer);
  auto ticks = std::make_shared<int>(0);
  QObject::connect(timer, &QTimer::timeout, [timer, text, button, ticks] {
    auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
    if (!box && ++*ticks < 500) return;
    timer->stop();
    timer->deleteLater();
    if (!box) return;
    if (text)
      *text = box->text() + "\n" +
              QTextDocumentFragment::fromHtml(box->informativeText()).toPlainText();
    if (QAbstractButton* b = box->button(button))
      b->click();
    else
      box->reject();
  });
  timer->start(10);
}

/// The example models' folder (models/).
inline const QString kModels = QStringLiteral(ARTICULATE_MODELS_DIR);
