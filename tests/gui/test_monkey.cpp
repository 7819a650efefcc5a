// The monkey test (issue 36): every example model is opened and every menu action and shortcut
// of the window is triggered in turn, while paused, while simulating, and with an animation (a
// saved recording) open. Dialogs that open are dismissed as a user would (Cancel, Escape). It
// passes when nothing crashes, nothing asserts and Qt prints no warning: a warning (a bad
// connection, an ambiguous shortcut, a layout fight) fails it with its text.
//
// ARTICULATE_MONKEY_MODELS=a.json,b.json limits it to some of models/ (CI runs one model of
// each kind: see tests/CMakeLists.txt; a run over all of them takes about 8 minutes), and
// ARTICULATE_MONKEY_TIMES=1 prints how long each state and each slow action took.
#include <QtTest>

#include "test_main.h"
#include <QtWidgets>

#include <mutex>

#include "main_window.h"
#include "playback.h"
#include "gui/window_test.h"

using namespace art;
using namespace art::gui;
using namespace art::test;

namespace {


std::mutex g_mutex;
QStringList g_warnings;
QtMessageHandler g_previous = nullptr;

// every warning, critical or fatal message Qt prints, kept for the test to fail with
void collect(QtMsgType type, const QMessageLogContext& context, const QString& message) {
  if (type == QtWarningMsg || type == QtCriticalMsg || type == QtFatalMsg) {
    const std::lock_guard<std::mutex> lock(g_mutex);
    g_warnings << message;
  }
  if (g_previous) g_previous(type, context, message);
}

// the example models: every Articulate file in models/ and the shipped robots
// a copy of models/ in a temporary folder, made once
const QString& modelCopy() {
  static QTemporaryDir dir;
  static const QString root = [] {
    const QString to = dir.filePath("models");
    QDirIterator it(kModels, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
      const QString from = it.next();
      const QString target = to + from.mid(kModels.size());
      QDir().mkpath(QFileInfo(target).absolutePath());
      QFile::copy(from, target);
    }
    return to;
  }();
  return root;
}

QStringList exampleModels() {
  QStringList files;
  const QString only = qEnvironmentVariable("ARTICULATE_MONKEY_MODELS");
  const QString models = modelCopy();
  for (const QFileInfo& f : QDir(models).entryInfoList({"*.json"}, QDir::Files, QDir::Name))
    if (only.isEmpty() || only.split(',').contains(f.fileName())) files << f.absoluteFilePath();
  QDirIterator robots(models + "/robots", {"*.xml", "*.urdf"}, QDir::Files, QDirIterator::Subdirectories);
  while (robots.hasNext()) {
    const QString f = robots.next();
    // a model, not a ROS package's manifest or an MJCF file that others include
    QFile text(f);
    if (!text.open(QIODevice::ReadOnly)) continue;
    const QByteArray content = text.readAll();
    if (!content.contains("<robot") && !content.contains("<worldbody")) continue;
    if (only.isEmpty() || only.split(',').contains(QFileInfo(f).fileName())) files << f;
  }
  files.sort();
  return files;
}

// dismisses whatever modal dialog or popup menu is up, as Escape would
class Dismisser : public QObject {
 public:
  Dismisser() {
    m_timer.setInterval(5);
    connect(&m_timer, &QTimer::timeout, this, [] {
      if (QWidget* popup = QApplication::activePopupWidget()) popup->close();
      if (auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget())) dialog->reject();
    });
    m_timer.start();
  }

 private:
  QTimer m_timer;
};

// every action of the window worth pressing: with a key or in a menu, but not Quit (it would
// end the test) or the recent files (they open other models, which the loop does anyway); New
// last, so that the others act on the model under test
QList<QAction*> pressable(MainWindow& w) {
  QList<QAction*> actions;
  QAction* newModel = nullptr;
  for (QAction* a : w.findChildren<QAction*>()) {
    if (a->isSeparator() || a->menu() || a->shortcut() == QKeySequence::Quit) continue;
    if (a->text().remove('&').startsWith("Quit")) continue;
    bool recent = false;
    for (QObject* widget : a->associatedObjects())
      if (auto* m = qobject_cast<QMenu*>(widget)) recent = recent || m->title().contains("Recent");
    if (recent) continue;
    if (a->shortcut() == QKeySequence::New) newModel = a;
    else actions << a;
  }
  if (newModel) actions << newModel;
  return actions;
}

}  // namespace

class TestMonkey : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
    g_previous = qInstallMessageHandler(collect);
  }

  void cleanupTestCase() {
    qInstallMessageHandler(g_previous);
    QSettings().clear();
  }

  void everyActionOnEveryModel_data() {
    QTest::addColumn<QString>("file");
    for (const QString& f : exampleModels()) QTest::newRow(qPrintable(QFileInfo(f).fileName())) << f;
  }

  void everyActionOnEveryModel() {
    QFETCH(QString, file);
    {
      const std::lock_guard<std::mutex> lock(g_mutex);
      g_warnings.clear();
    }
    Dismisser dismiss;
    QTemporaryDir tmp;
    MainWindow w;
    w.setAsking(false);  // errors to stderr, not message boxes (they would be dismissed anyway)
    // small: software GL renders each action's frame in time proportional to the window's
    // pixels (1280 x 800 took 42% longer), and every dock and menu still fits
    w.resize(800, 560);
    QVERIFY(showActive(w));
    QVERIFY(w.openFile(file));
    Playback* p = w.playback();
    const auto pressAll = [&](const char* state) {
      QElapsedTimer total;
      total.start();
      int pressed = 0;
      for (QAction* a : pressable(w)) {
        if (!a->isEnabled()) continue;
        QElapsedTimer clock;
        clock.start();
        a->trigger();
        if (qEnvironmentVariableIsSet("ARTICULATE_MONKEY_TIMES") && clock.elapsed() > 100)
          qInfo() << state << a->text() << clock.elapsed() << "ms";
        if (++pressed % 8 == 0) QApplication::processEvents();  // what the actions queued
        if (!w.isVisible()) QFAIL(qPrintable(QString("%1 (%2) closed the window").arg(a->text(), state)));
      }
      QTest::qWait(50);
      if (qEnvironmentVariableIsSet("ARTICULATE_MONKEY_TIMES")) qInfo() << state << total.elapsed() << "ms";
    };
    pressAll("paused");
    if (p->live()) {  // simulating
      QVERIFY(w.openFile(file));
      p->play();
      QTest::qWait(100);
      pressAll("simulating");
      p->pause();
      QVERIFY(waitFor([&] { return !p->simulating(); }, 10));
      // an animation: the recording saved and opened again
      if (!p->recording().empty() && p->recording().size() > 1) {
        const QString saved = tmp.filePath("recording.json");
        if (w.saveRecordingTo(saved)) {
          QVERIFY(w.openFile(saved));
          p->play();
          pressAll("animation");
          p->pause();
        }
      }
    }
    QVERIFY(waitFor([&] { return !p->simulating(); }, 10));
    QApplication::processEvents();
    const std::lock_guard<std::mutex> lock(g_mutex);
    QVERIFY2(g_warnings.isEmpty(), qPrintable("Qt printed: " + g_warnings.join(" | ")));
  }
};

ARTICULATE_TEST_MAIN(TestMonkey)
#include "test_monkey.moc"
