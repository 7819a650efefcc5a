#pragma once
// Autosave and crash recovery. While the document has unsaved changes an Autosaver writes it
// every minute (the environment variable ARTICULATE_AUTOSAVE_SECONDS or setInterval change
// that) into the recovery folder, RecoveryStore::defaultDirectory() (under
// QStandardPaths::AppLocalDataLocation), as two files named after the process id:
//   <pid>.json        the document exactly as File > Save writes it (the writer is the save
//                     path's own), so that it opens like any model file;
//   <pid>.owner.json  who wrote it and from what: the process id, the boot it ran in, the
//                     original file and its format, and the time (UTC).
// Both are written atomically (writeFileAtomically), the owner first. A clean save and a clean
// exit remove them; a crash leaves them, and the next start offers those whose process is gone
// (RecoveryStore::orphans, MainWindow::offerRecovery). The files are per process: the
// application has one main window per process.

#include <functional>
#include <optional>
#include <string>

#include <QDateTime>
#include <QList>
#include <QObject>
#include <QString>

class QTimer;

namespace art::gui {

/// One process's recovery files and what they hold.
struct RecoveryEntry {
  qint64 pid = 0;         // the process that wrote them
  QString bootId;         // Linux's boot id when it wrote them (empty where unknown)
  QString original;       // the document's own file (absolute), or empty for a new model
  QString format;         // the original's format ("articulate-model", "spatial_v2", ...)
  QDateTime written;      // UTC
  QString documentPath;   // <dir>/<pid>.json
  QString ownerPath;      // <dir>/<pid>.owner.json
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

  /// Writes the recovery of process `pid` (owner file, then the document through `write`),
  /// creating the folder. Throws std::runtime_error naming the file on failure.
  void write(qint64 pid, const QString& original, const QString& format, const Writer& write) const;
  /// The entry of process `pid` when both of its files exist.
  std::optional<RecoveryEntry> entry(qint64 pid) const;
  /// The entries whose process has ended (or ran in an earlier boot) and whose document file
  /// exists, newest first; never this process's own.
  QList<RecoveryEntry> orphans() const;
  /// Removes the files of process `pid` (those that exist).
  void remove(qint64 pid) const;

  /// Whether process `pid` of boot `bootId` runs now: a different boot means no; else kill(pid,
  /// 0) decides (a process of another user counts as alive).
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
  /// Removes this process's recovery files and stops the timer.
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
