// Autosave and crash recovery: the window writes its recovery file while (and only while) the
// document has unsaved changes, with the save path's own writer; saving, undoing back to clean
// and a clean exit remove it; at startup the documents of dead processes (and of an earlier
// boot) are offered and those of live processes are not; Later keeps, Discard deletes, Recover
// restores the document exactly as an unsaved change of its original file. And the real thing:
// a child process that edits through the Properties panel is SIGKILLed after its autosave, and
// a fresh window restores its edit exactly.
#include <QtTest>

#include "test_main.h"

#include <algorithm>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <QtWidgets>

#include "articulate/model/model.h"
#include "articulate/formats/document.h"
#include "document.h"
#include "main_window.h"
#include "properties.h"
#include "recovery.h"
#include "gui/gui_test.h"

using namespace art;
using namespace art::gui;
using namespace art::test;

namespace {


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

/// A process that has ended (a `sleep`, killed and reaped: no zombie answers kill(pid, 0)),
/// as the writer of a recovery: its pid, start time and boot.
RecoveryOwner deadOwner() {
  QProcess p;
  p.start("/bin/sleep", {"60"});
  if (!p.waitForStarted()) return {};
  const RecoveryOwner owner = RecoveryOwner::ofProcess(p.processId());
  p.kill();
  p.waitForFinished();
  return owner;
}

}  // namespace

class TestRecovery : public QObject {
  Q_OBJECT

  QTemporaryDir m_tmp;
  QString m_original;  // a copy of double_pendulum.json, the document's own file
  ModelSpec m_spec;    // its model
  ModelSpec m_edited;  // with link2's mass 3.75 kg

  RecoveryStore store() const { return RecoveryStore(RecoveryStore::defaultDirectory()); }
  bool exists(const RecoveryOwner& owner) const { return store().entry(owner).has_value(); }
  /// Writes a recovery of m_edited for `owner`.
  void writeRecovery(const RecoveryOwner& owner) const {
    const ModelSpec edited = m_edited;
    store().write(owner, m_original, "articulate-model",
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
    const RecoveryOwner self = RecoveryOwner::current();
    QTest::qWait(200);
    QVERIFY(!exists(self));  // nothing to save

    // an edit in the Properties panel: the recovery file follows within an interval
    w.properties()->setBody(1);
    auto* mass = w.properties()->findChild<QDoubleSpinBox*>("massSpin");
    mass->setValue(3.75);  // then 4.5: one merged command
    QVERIFY(w.isWindowModified());
    QCOMPARE(w.windowTitle(), QString::fromUtf8("Articulate — pendulum.json[*]"));
    QTRY_VERIFY(exists(self));
    std::optional<RecoveryEntry> e = store().entry(self);
    QCOMPARE(e->original, m_original);
    QCOMPARE(e->format, QString("articulate-model"));
    QCOMPARE(e->pid, self.pid);
    QVERIFY(self.startTicks > 0);
    QCOMPARE(e->owner.startTicks, self.startTicks);
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
    // the window sees the file change on disk and, unmodified, reloads it without asking; an
    // edit made before that (200 ms later) would make the reload ask whether to discard it,
    // which under load came while the next check waited, and nothing answered
    QTRY_COMPARE(text(w.document()->spec()), text(m_spec));
    QVERIFY(!w.isWindowModified());
    // a clean exit (the close prompt, answered Discard) removes it
    w.properties()->setBody(1);
    mass = w.properties()->findChild<QDoubleSpinBox*>("massSpin");
    mass->setValue(5.0);
    QTRY_VERIFY(exists(self));
    DialogAnswerer answer({"Discard"});
    QVERIFY(w.close());
    QCOMPARE(answer.seen.size(), 1);
    QVERIFY(answer.seen[0].contains("unsaved changes"));
    QVERIFY(!exists(self));
    QCOMPARE(text(loadModel(localPath(m_original)).spec), text(m_spec));  // not saved
  }

  // A process killed but not yet reaped by its parent (a zombie) still answers kill(pid, 0):
  // it was taken for alive, and its recovery was never offered while its parent lived on (the
  // real program's crash test, started from a shell that had not waited, found this).
  void aZombieIsNotAlive() {
    const pid_t child = ::fork();
    QVERIFY(child >= 0);
    if (child == 0) ::_exit(0);
    const RecoveryOwner zombie = RecoveryOwner::ofProcess(child);
    QTRY_VERIFY(!zombie.isAlive());  // once it has exited; its parent (this test) has not reaped it
    QCOMPARE(::kill(child, 0), 0);   // kill(pid, 0) alone cannot tell
    writeRecovery(zombie);
    const QList<RecoveryEntry> orphans = store().orphans();
    QVERIFY(std::any_of(orphans.begin(), orphans.end(),
                        [&](const RecoveryEntry& e) { return e.owner.key() == zombie.key(); }));
    int status = 0;
    QCOMPARE(::waitpid(child, &status, 0), child);
  }

  void offersOnlyDeadOwners() {
    const RecoveryOwner dead = deadOwner();
    QVERIFY(dead.pid > 0 && dead.startTicks > 0);
    QVERIFY(!dead.isAlive());
    writeRecovery(dead);
    QProcess sleeper;
    sleeper.start("/bin/sleep", {"60"});
    QVERIFY(sleeper.waitForStarted());
    const RecoveryOwner live = RecoveryOwner::ofProcess(sleeper.processId());
    QVERIFY(live.isAlive());
    writeRecovery(live);
    const QList<RecoveryEntry> orphans = store().orphans();
    QCOMPARE(orphans.size(), 1);
    QCOMPARE(orphans[0].pid, dead.pid);
    // a live pid of an earlier boot is not that process: offered
    if (!RecoveryStore::currentBootId().isEmpty()) {
      QVERIFY(!RecoveryStore::isAlive(live.pid, "another-boot"));
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
    const RecoveryOwner dead = deadOwner();
    QVERIFY(dead.pid > 0);
    writeRecovery(dead);
    const RecoveryOwner self = RecoveryOwner::current();
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
    QCOMPARE(w.windowTitle(), QString::fromUtf8("Articulate — pendulum.json[*]"));
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
    const RecoveryOwner pid = RecoveryOwner::ofProcess(child.processId());
    QVERIFY(pid.startTicks > 0);
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

  void aReusedPidNeitherHidesNorDeletesARecovery() {
    // A crashed process that had this very pid, in an earlier boot or pid namespace: before, a
    // recovery was named and judged by pid alone, so orphans() skipped it as this process's own
    // and this process's discard() deleted it.
    RecoveryOwner earlier = RecoveryOwner::current();
    QVERIFY(earlier.startTicks > 1);
    earlier.startTicks -= 1;  // the same pid, started at another time
    writeRecovery(earlier);
    QList<RecoveryEntry> orphans = store().orphans();
    QCOMPARE(orphans.size(), 1);
    QCOMPARE(orphans[0].owner.key(), earlier.key());
    Autosaver own([] { return Autosaver::Source{}; });
    own.discard();
    QVERIFY(exists(earlier));
    // a running process whose pid is the writer's but that started at another time is not it
    QProcess sleeper;
    sleeper.start("/bin/sleep", {"60"});
    QVERIFY(sleeper.waitForStarted());
    RecoveryOwner reused = RecoveryOwner::ofProcess(sleeper.processId());
    QVERIFY(reused.isAlive());
    reused.startTicks += 7;
    QVERIFY(!reused.isAlive());
    writeRecovery(reused);
    QCOMPARE(store().orphans().size(), 2);
    sleeper.kill();
    sleeper.waitForFinished();
  }

  void autosaveFailureIsShownInADialog() {
    // before, a failing autosave showed only in the status bar, where it is easily missed
    MainWindow w;
    w.show();
    QTemporaryDir dir;
    const QString notAFolder = dir.filePath("recovery");
    {
      QFile f(notAFolder);  // a file where the folder should be: mkpath fails, even for root
      QVERIFY(f.open(QIODevice::WriteOnly));
    }
    w.autosaver()->setStore(RecoveryStore(notAFolder));
    w.autosaver()->setInterval(50);
    QVERIFY(w.openFile(m_original));
    w.properties()->setBody(1);
    auto* mass = w.properties()->findChild<QDoubleSpinBox*>("massSpin");
    mass->setValue(3.75);
    QMessageBox* box = nullptr;
    QTRY_VERIFY((box = w.findChild<QMessageBox*>("autosaveFailedBox")) && box->isVisible());
    QVERIFY2(box->text().contains("could not be autosaved"), qPrintable(box->text()));
    QVERIFY(box->informativeText().contains("cannot create the recovery folder"));
    QVERIFY(w.statusText().contains("Autosave failed"));
    // one dialog per failure streak, not one a minute
    QTest::qWait(300);
    QCOMPARE(w.findChildren<QMessageBox*>("autosaveFailedBox").size(), 1);
    box->close();
    w.autosaver()->discard();
    w.document()->undoStack()->setClean();
  }
};

ARTICULATE_TEST_MAIN(TestRecovery)
#include "test_recovery.moc"
