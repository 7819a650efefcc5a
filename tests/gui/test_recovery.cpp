// Autosave and crash recovery: the window writes its recovery file while (and only while) the
// document has unsaved changes, with the save path's own writer; saving, undoing back to clean
// and a clean exit remove it; at startup the documents of dead processes (and of an earlier
// boot) are offered and those of live processes are not; Later keeps, Discard deletes, Recover
// restores the document exactly as an unsaved change of its original file. And the real thing:
// a child process that edits through the Properties panel is SIGKILLed after its autosave, and
// a fresh window restores its edit exactly.
#include <QtTest>
#include <QtWidgets>

#include "articulate/model.h"
#include "articulate/model_format.h"
#include "document.h"
#include "main_window.h"
#include "properties.h"
#include "recovery.h"
#include "gui/gui_test.h"

using namespace art;
using namespace art::gui;
using namespace art::test;

namespace {

const QString kModels = QStringLiteral(ARTICULATE_MODELS_DIR);

std::string localPath(const QString& path) { return QFile::encodeName(path).toStdString(); }

/// Answers the message boxes that show, in turn, by clicking the button labelled with the next
/// of `answers` ("Later" once they run out, so that an unexpected box cannot hang the test);
/// records each box's text in `seen`.
class DialogAnswerer : public QObject {
 public:
  explicit DialogAnswerer(QStringList answers) : m_answers(std::move(answers)) {
    connect(&m_timer, &QTimer::timeout, this, [this] {
      auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
      if (!box || box == m_last) return;
      m_last = box;
      seen << box->text();
      const QString answer = m_answers.isEmpty() ? QString("Later") : m_answers.takeFirst();
      for (QAbstractButton* b : box->buttons())
        if (b->text().remove('&') == answer ||
            (box->standardButton(b) == QMessageBox::Discard && answer == "Discard")) {
          QTimer::singleShot(0, b, &QAbstractButton::click);
          return;
        }
      QTimer::singleShot(0, box, &QMessageBox::reject);
    });
    m_timer.start(10);
  }
  QStringList seen;

 private:
  QStringList m_answers;
  QTimer m_timer;
  QPointer<QMessageBox> m_last;
};

/// The pid of a process that has ended (a finished `true`).
qint64 deadPid() {
  QProcess p;
  p.start("/bin/true", {});
  if (!p.waitForStarted()) return 0;
  const qint64 pid = p.processId();
  p.waitForFinished();  // and reaped: no zombie answers kill(pid, 0)
  return pid;
}

}  // namespace

class TestRecovery : public QObject {
  Q_OBJECT

  QTemporaryDir m_tmp;
  QString m_original;  // a copy of double_pendulum.json, the document's own file
  ModelSpec m_spec;    // its model
  ModelSpec m_edited;  // with link2's mass 3.75 kg

  RecoveryStore store() const { return RecoveryStore(RecoveryStore::defaultDirectory()); }
  bool exists(qint64 pid) const { return store().entry(pid).has_value(); }
  /// Writes a recovery of m_edited for process `pid`.
  void writeRecovery(qint64 pid) const {
    const ModelSpec edited = m_edited;
    store().write(pid, m_original, "articulate-model",
                  [edited](const std::string& path) { saveModel(path, edited); });
  }

 private slots:
  void initTestCase() {
    QVERIFY(m_tmp.isValid());
    // the application's names, as the child process has them, in a private home
    qputenv("XDG_DATA_HOME", QFile::encodeName(m_tmp.filePath("data")));
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(m_tmp.filePath("config")));
    qputenv("XDG_CACHE_HOME", QFile::encodeName(m_tmp.filePath("cache")));
    qunsetenv("ARTICULATE_AUTOSAVE_SECONDS");
    QCoreApplication::setOrganizationName("Articulate");
    QCoreApplication::setApplicationName("articulate");
    QVERIFY2(RecoveryStore::defaultDirectory().startsWith(m_tmp.path()),
             qPrintable(RecoveryStore::defaultDirectory()));
    QCOMPARE(Autosaver::defaultIntervalMs(), 60000);
    m_original = m_tmp.filePath("pendulum.json");
    QVERIFY(QFile::copy(kModels + "/double_pendulum.json", m_original));
    m_spec = loadModel(localPath(m_original)).spec;
    m_edited = m_spec;
    m_edited.bodies[1].inertia.mass = 3.75;
  }

  void cleanup() { QDir(RecoveryStore::defaultDirectory()).removeRecursively(); }

  void autosavesOnlyWhileModified() {
    MainWindow w;
    w.show();
    w.autosaver()->setInterval(50);
    QVERIFY(w.openFile(m_original));
    const qint64 self = QCoreApplication::applicationPid();
    QTest::qWait(200);
    QVERIFY(!exists(self));  // nothing to save

    // an edit in the Properties panel: the recovery file follows within an interval
    w.properties()->setBody(1);
    auto* mass = w.properties()->findChild<QDoubleSpinBox*>("massSpin");
    mass->setValue(3.75);  // then 4.5: one merged command
    QVERIFY(w.isWindowModified());
    QCOMPARE(w.windowTitle(), QString::fromUtf8("Articulate — double_pendulum[*]"));
    QTRY_VERIFY(exists(self));
    std::optional<RecoveryEntry> e = store().entry(self);
    QCOMPARE(e->original, m_original);
    QCOMPARE(e->format, QString("articulate-model"));
    QCOMPARE(e->pid, self);
    QCOMPARE(text(loadModel(localPath(e->documentPath)).spec), text(m_edited));
    // a second edit is written at the next tick
    mass->setValue(4.5);
    QTRY_COMPARE(loadModel(localPath(e->documentPath)).spec.bodies[1].inertia.mass, 4.5);
    // undoing back to the saved state removes the file; redoing brings it back
    QCOMPARE(w.document()->undoStack()->count(), 1);
    w.document()->undoStack()->undo();
    QVERIFY(!w.isWindowModified());
    QVERIFY(!exists(self));
    QVERIFY(!QFileInfo::exists(e->documentPath));
    w.document()->undoStack()->redo();
    QTRY_VERIFY(exists(self));
    // saving removes it
    QVERIFY(w.save());
    QVERIFY(!exists(self));
    QVERIFY(!QFileInfo::exists(e->ownerPath));
    QCOMPARE(text(loadModel(localPath(m_original)).spec), text(w.document()->spec()));
    QFile::remove(m_original);
    QVERIFY(QFile::copy(kModels + "/double_pendulum.json", m_original));
    // a clean exit (the close prompt, answered Discard) removes it
    mass->setValue(5.0);
    QTRY_VERIFY(exists(self));
    DialogAnswerer answer({"Discard"});
    QVERIFY(w.close());
    QCOMPARE(answer.seen.size(), 1);
    QVERIFY(answer.seen[0].contains("unsaved changes"));
    QVERIFY(!exists(self));
    QCOMPARE(text(loadModel(localPath(m_original)).spec), text(m_spec));  // not saved
  }

  void offersOnlyDeadOwners() {
    const qint64 dead = deadPid();
    QVERIFY(dead > 0);
    QVERIFY(!RecoveryStore::isAlive(dead, RecoveryStore::currentBootId()));
    writeRecovery(dead);
    QProcess sleeper;
    sleeper.start("/bin/sleep", {"60"});
    QVERIFY(sleeper.waitForStarted());
    const qint64 live = sleeper.processId();
    QVERIFY(RecoveryStore::isAlive(live, RecoveryStore::currentBootId()));
    writeRecovery(live);
    const QList<RecoveryEntry> orphans = store().orphans();
    QCOMPARE(orphans.size(), 1);
    QCOMPARE(orphans[0].pid, dead);
    // a live pid of an earlier boot is not that process: offered
    if (!RecoveryStore::currentBootId().isEmpty()) {
      QVERIFY(!RecoveryStore::isAlive(live, "another-boot"));
      QFile owner(store().entry(live)->ownerPath);
      QVERIFY(owner.open(QIODevice::ReadOnly));
      QByteArray json = owner.readAll();
      owner.close();
      json.replace(RecoveryStore::currentBootId().toLatin1(), "another-boot");
      QVERIFY(owner.open(QIODevice::WriteOnly | QIODevice::Truncate));
      owner.write(json);
      owner.close();
      QCOMPARE(store().orphans().size(), 2);
      store().remove(live);
      writeRecovery(live);
    }

    MainWindow w;
    w.show();
    DialogAnswerer answer({"Discard"});
    QVERIFY(!w.offerRecovery());
    QCOMPARE(answer.seen.size(), 1);  // only the dead process's
    QVERIFY(answer.seen[0].contains("pendulum.json"));
    QVERIFY(!exists(dead));           // discarded for good
    QVERIFY(exists(live));            // its owner still runs
    QVERIFY(!w.model());
    sleeper.kill();
    sleeper.waitForFinished();
  }

  void laterKeepsRecoverRestores() {
    const qint64 dead = deadPid();
    QVERIFY(dead > 0);
    writeRecovery(dead);
    const qint64 self = QCoreApplication::applicationPid();
    {
      MainWindow w;
      w.show();
      DialogAnswerer answer({"Later"});
      QVERIFY(!w.offerRecovery());
      QCOMPARE(answer.seen.size(), 1);
      QVERIFY(exists(dead));
      QVERIFY(!w.model());
    }
    MainWindow w;
    w.show();
    DialogAnswerer answer({"Recover"});
    QVERIFY(w.offerRecovery());
    QCOMPARE(answer.seen.size(), 1);
    // the edited model, as unsaved changes of the original file
    QVERIFY(w.model());
    QCOMPARE(text(w.document()->spec()), text(m_edited));
    QCOMPARE(w.filePath(), m_original);
    QVERIFY(w.isWindowModified());
    QVERIFY(w.document()->isModified());
    QCOMPARE(w.windowTitle(), QString::fromUtf8("Articulate — double_pendulum[*]"));
    QVERIFY(!w.recentFiles().contains(store().entry(self)->documentPath));
    // this process owns the changes now
    QVERIFY(!exists(dead));
    QVERIFY(exists(self));
    QCOMPARE(text(loadModel(localPath(store().entry(self)->documentPath)).spec), text(m_edited));
    // saving writes the original file
    QVERIFY(w.save());
    QCOMPARE(text(loadModel(localPath(m_original)).spec), text(m_edited));
    QVERIFY(!exists(self));
    QFile::remove(m_original);
    QVERIFY(QFile::copy(kModels + "/double_pendulum.json", m_original));
  }

  void killedProcessIsRecovered() {
    QProcess child;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("ARTICULATE_AUTOSAVE_SECONDS", "0.1");
    child.setProcessEnvironment(env);
    child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    child.start(ARTICULATE_AUTOSAVE_CHILD, {m_original, "3.75"});
    QVERIFY(child.waitForStarted());
    const qint64 pid = child.processId();
    QByteArray out;
    QElapsedTimer clock;
    clock.start();
    while (!out.contains("autosaved") && child.state() == QProcess::Running &&
           clock.elapsed() < 120000) {
      child.waitForReadyRead(1000);
      out += child.readAllStandardOutput();
    }
    QVERIFY2(out.contains("autosaved"), out.constData());
    QVERIFY(exists(pid));
    // the crash: SIGKILL, no chance to clean up
    child.kill();
    QVERIFY(child.waitForFinished());
    QCOMPARE(child.exitStatus(), QProcess::CrashExit);
    QVERIFY(exists(pid));
    QCOMPARE(store().orphans().size(), 1);

    MainWindow w;
    w.show();
    DialogAnswerer answer({"Recover"});
    QVERIFY(w.offerRecovery());
    QCOMPARE(answer.seen.size(), 1);
    QCOMPARE(text(w.document()->spec()), text(m_edited));
    QCOMPARE(w.filePath(), m_original);
    QVERIFY(w.isWindowModified());
    QVERIFY(!exists(pid));
    QCOMPARE(text(loadModel(localPath(m_original)).spec), text(m_spec));  // not saved yet
  }
};

QTEST_MAIN(TestRecovery)
#include "test_recovery.moc"
