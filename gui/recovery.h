#pragma once
// Autosave and crash recovery. While the document has unsaved changes an Autosaver writes it
// every minute (the environment variable ARTICULATE_AUTOSAVE_SECONDS or setInterval change
// that) into the recovery folder, RecoveryStore::defaultDirectory() (under
// QStandardPaths::AppLocalDataLocation), as two files named after the writing process, by its
// RecoveryOwner::key() "<pid>-<start time>":
//   <key>.json        the document exactly as File > Save writes it (the writer is the save
//                     path's own), so that it opens like any model file;
//   <key>.owner.json  who wrote it and from what: the process id, its start time, the boot it
//                     ran in, the original file and its format, and the time (UTC).
// Both are written atomically (writeFileAtomically), the owner first. A clean save and a clean
// exit remove them; a crash leaves them, and the next start offers those whose process is gone
// (RecoveryStore::orphans, MainWindow::offerRecovery). A process id alone does not name a
// process: after a reboot, or in another pid namespace, a new process may get a crashed one's
// pid, so the start time (and the boot) tell them apart; a process never takes, or deletes,
// another's files. The application has one main window per process.
#include <functional>
#include <optional>
#include <string>

#include <QDateTime>
#include <QList>
#include <QObject>
#include <QString>

class QTimer;

namespace art::gui {

/// The process that wrote a recovery: its pid, told apart from a later process with the same
/// pid by its start time and its boot.
struct RecoveryOwner {
  qint64 pid = 0;
  qint64 startTicks = 0;  // start after boot in clock ticks (/proc/PID/stat field 22); 0: unknown
  QString bootId;         // Linux's boot id (empty where unknown)
  /// The files' name: "<pid>-<startTicks>" ("<pid>" when the start time is unknown, as files of
  /// earlier versions are named).
  QString key() const;
  /// This process.
  static RecoveryOwner current();
  /// A running process of this boot (startTicks 0 when /proc does not tell).
  static RecoveryOwner ofProcess(qint64 pid);
  /// Whether this very process runs now: not when the boot differs, or no process has the pid,
  /// or the process with the pid started at another time (the pid was reused), or it is a
  /// zombie (killed, not yet reaped by its parent: it writes nothing more).
  bool isAlive() const;
};

/// One process's recovery files and what they hold.
struct RecoveryEntry {
  RecoveryOwner owner;    // the process that wrote them
  qint64 pid = 0;         // owner.pid
  QString bootId;         // owner.bootId
  QString original;       // the document's own file (absolute), or empty for a new model
  QString format;         // the original's format ("articulate-model", "spatial_v2", ...)
  QDateTime written;      // UTC
  QString documentPath;   // <dir>/<key>.json
  QString ownerPath;      // <dir>/<key>.owner.json
};

/// The recovery folder.
class RecoveryStore {
 public:
  /// Writes the document to a path (absolute, local encoding) as File > Save does; throws on
  /// failure.
  using Writer = std::function<void(const std::string& path)>;

  explicit RecoveryStore(QString directory = defaultDirectory());
  /// QStandardPaths::AppLocalDataLocation + "/recovery".
  static QString defaultDirectory();
  QString directory() const { return m_dir; }

  /// Writes the recovery of `owner` (owner file, then the document through `write`), creating
  /// the folder. Throws std::runtime_error naming the file on failure.
  void write(const RecoveryOwner& owner, const QString& original, const QString& format,
             const Writer& write) const;
  /// The entry of `owner` when both of its files exist.
  std::optional<RecoveryEntry> entry(const RecoveryOwner& owner) const;
  /// The entries whose process has ended (or ran in an earlier boot, or whose pid now belongs
  /// to another process) and whose document file exists, newest first; never this process's
  /// own.
  QList<RecoveryEntry> orphans() const;
  /// Removes the files of `owner` (those that exist).
  void remove(const RecoveryOwner& owner) const;
  /// Whether process `pid` of boot `bootId` runs now (start time unknown: see
  /// RecoveryOwner::isAlive; a process of another user counts as alive).
  static bool isAlive(qint64 pid, const QString& bootId);
  /// This boot's id (/proc/sys/kernel/random/boot_id), or empty where there is none.
  static QString currentBootId();

 private:
  std::optional<RecoveryEntry> readOwner(const QString& ownerPath) const;
  QString m_dir;
};

/// Writes this process's recovery file while the document is modified: the first time one
/// interval after the document became modified, then every interval when it changed since the
/// last write. Not modified (a save, a clean undo, a new file) removes the files.
class Autosaver : public QObject {
  Q_OBJECT
 public:
  /// What to write: the document's file and format, and the save path's writer.
  struct Source {
    QString original, format;
    RecoveryStore::Writer write;
  };
  static constexpr int kDefaultIntervalMs = 60 * 1000;

  explicit Autosaver(std::function<Source()> source, QObject* parent = nullptr);
  ~Autosaver() override;
  /// kDefaultIntervalMs, or ARTICULATE_AUTOSAVE_SECONDS (> 0, at least 10 ms) when set.
  static int defaultIntervalMs();
  void setInterval(int ms);
  int interval() const;
  void setStore(const RecoveryStore& store) { m_store = store; }
  const RecoveryStore& store() const { return m_store; }

  /// The document's modified flag changed: true starts the timer, false stops it and removes
  /// the recovery files.
  void setModified(bool modified);
  /// The document changed (an edit, undo or redo): the next tick writes it.
  void noteChange() { m_pending = true; }
  /// Writes the recovery now; returns whether it was written (else `failed` was emitted).
  bool saveNow();
  /// Removes this process's recovery files (RecoveryOwner::current(), never another's that has
  /// the same pid) and stops the timer.
  void discard();
  /// The document file of this process (it may not exist).
  QString documentPath() const;

 signals:
  void saved(const QString& documentPath);
  void failed(const QString& message);

 private:
  std::function<Source()> m_source;
  RecoveryStore m_store;
  QTimer* m_timer;
  bool m_modified = false, m_pending = false;
};

}  // namespace art::gui
