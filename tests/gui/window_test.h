#pragma once
// Helpers of the GUI tests that drive the main window: key presses as the window system
// delivers them, an active window, and a live simulation run up to a time.
#include <QtTest>

#include "gui/gui_test.h"
#include "main_window.h"
#include "playback.h"

namespace art::test {

/// A key press as the window system delivers it, so that the window's shortcuts see it.
inline void key(gui::MainWindow& w, Qt::Key k, Qt::KeyboardModifiers mods = Qt::NoModifier) {
  QTest::keyClick(w.windowHandle(), k, mods);
}

/// Shows the window and makes it active (window shortcuts need an active window).
inline bool showActive(gui::MainWindow& w) {
  w.show();
  w.activateWindow();
  return QTest::qWaitForWindowActive(&w);
}

/// Resizes the window, shows it active and opens `file` in it.
inline bool openShown(gui::MainWindow& w, const QString& file, QSize size = QSize(1200, 800)) {
  w.resize(size);
  return showActive(w) && w.openFile(file);
}

/// Simulates as fast as possible until the recording reaches `t` (s), waiting at most
/// `seconds`, then pauses and waits for the simulation thread to stop.
inline bool simulateUntil(gui::Playback* p, double t, double seconds = 20) {
  p->setUnpaced(true);
  p->play();
  if (!waitFor([&] { return p->endTime() > t; }, seconds)) return false;
  p->pause();
  return waitFor([&] { return !p->simulating(); }, 5);
}

}  // namespace art::test
