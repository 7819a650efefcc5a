// Autosave and the recovery folder (see recovery.h).
#include "recovery.h"

#include <algorithm>
#include <cerrno>
#include <signal.h>
#include <sys/types.h>
#include <stdexcept>

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTimer>

#include "articulate/formats/files.h"

namespace art::gui {

namespace {

const char* const kOwnerSuffix = ".owner.json";
const char* const kOwnerFormat = "articulate-recovery-owner";

std::string localPath(const QString& path) { return QFile::encodeName(path).toStdString(); }

}  // namespace

namespace {
// What /proc/PID/stat tells of process `pid`: its state letter (field 3; 0 when unreadable) and
// its start time after boot in clock ticks (field 22; 0 when unreadable).
struct ProcStat {
  char state = 0;
  qint64 startTicks = 0;
};
ProcStat procStat(qint64 pid) {
  QFile f(QString("/proc/%1/stat").arg(pid));
  if (!f.open(QIODevice::ReadOnly)) return {};
  const QByteArray stat = f.readAll();
  // the command name (field 2) is in parentheses and may hold spaces: count from its end
  const int close = stat.lastIndexOf(')');
  if (close < 0) return {};
  const QList<QByteArray> fields = stat.mid(close + 2).split(' ');
  constexpr int kState = 3 - 3, kStartTime = 22 - 3;  // fields after the name start at field 3
  ProcStat out;
  if (fields.size() > kState && !fields[kState].isEmpty()) out.state = fields[kState][0];
  bool ok = false;
  if (fields.size() > kStartTime) out.startTicks = fields[kStartTime].toLongLong(&ok);
  if (!ok) out.startTicks = 0;
  return out;
}
qint64 startTicksOf(qint64 pid) { return procStat(pid).startTicks; }
}  // namespace

QString RecoveryOwner::key() const {
  return startTicks > 0 ? QString("%1-%2").arg(pid).arg(startTicks) : QString::number(pid);
}

RecoveryOwner RecoveryOwner::current() {
  static const RecoveryOwner self = ofProcess(QCoreApplication::applicationPid());
  return self;
}

RecoveryOwner RecoveryOwner::ofProcess(qint64 pid) {
  return {pid, startTicksOf(pid), RecoveryStore::currentBootId()};
}

bool RecoveryOwner::isAlive() const {
  if (!RecoveryStore::isAlive(pid, bootId)) return false;
  const ProcStat now = procStat(pid);
  // a zombie (killed, not yet reaped by its parent) answers kill(pid, 0) but saves nothing more
  if (now.state == 'Z' || now.state == 'X') return false;
  if (startTicks <= 0) return true;  // written without a start time: the pid is all we know
  // unreadable (hidepid): assume it is the same process
  return now.startTicks == 0 || now.startTicks == startTicks;
}

RecoveryStore::RecoveryStore(QString directory) : m_dir(std::move(directory)) {}

QString RecoveryStore::defaultDirectory() {
  return QDir(QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation))
      .filePath("recovery");
}

QString RecoveryStore::currentBootId() {
  QFile f("/proc/sys/kernel/random/boot_id");
  if (!f.open(QIODevice::ReadOnly)) return {};
  return QString::fromLatin1(f.readAll()).trimmed();
}

bool RecoveryStore::isAlive(qint64 pid, const QString& bootId) {
  if (pid <= 0) return false;
  if (!bootId.isEmpty() && bootId != currentBootId()) return false;
  return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
}

void RecoveryStore::write(const RecoveryOwner& who, const QString& original, const QString& format,
                          const Writer& write) const {
  if (!QDir().mkpath(m_dir))
    throw std::runtime_error("cannot create the recovery folder " + localPath(m_dir));
  const QDir dir(m_dir);
  QJsonObject owner;
  owner["format"] = kOwnerFormat;
  owner["pid"] = who.pid;
  owner["start_ticks"] = who.startTicks;
  owner["boot_id"] = who.bootId;
  owner["original"] = original;
  owner["original_format"] = format;
  owner["written"] = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
  writeFileAtomically(localPath(dir.filePath(who.key() + kOwnerSuffix)),
                      QJsonDocument(owner).toJson().toStdString());
  write(localPath(dir.filePath(who.key() + ".json")));
}

std::optional<RecoveryEntry> RecoveryStore::readOwner(const QString& ownerPath) const {
  QFile f(ownerPath);
  if (!f.open(QIODevice::ReadOnly)) return std::nullopt;
  const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
  if (o.value("format").toString() != kOwnerFormat || !o.value("pid").isDouble())
    return std::nullopt;
  RecoveryEntry e;
  e.owner.pid = static_cast<qint64>(o.value("pid").toDouble());
  e.owner.startTicks = static_cast<qint64>(o.value("start_ticks").toDouble(0));
  e.owner.bootId = o.value("boot_id").toString();
  e.pid = e.owner.pid;
  e.bootId = e.owner.bootId;
  e.original = o.value("original").toString();
  e.format = o.value("original_format").toString();
  e.written = QDateTime::fromString(o.value("written").toString(), Qt::ISODateWithMs);
  e.ownerPath = ownerPath;
  e.documentPath = QDir(m_dir).filePath(e.owner.key() + ".json");
  // the owner file names its own process: a renamed or copied file is not trusted
  if (QFileInfo(ownerPath).fileName() != e.owner.key() + kOwnerSuffix) return std::nullopt;
  if (!QFileInfo(e.documentPath).isFile()) return std::nullopt;
  return e;
}

std::optional<RecoveryEntry> RecoveryStore::entry(const RecoveryOwner& owner) const {
  return readOwner(QDir(m_dir).filePath(owner.key() + kOwnerSuffix));
}

QList<RecoveryEntry> RecoveryStore::orphans() const {
  QList<RecoveryEntry> found;
  const QString self = RecoveryOwner::current().key();
  const QStringList owners =
      QDir(m_dir).entryList({QString("*") + kOwnerSuffix}, QDir::Files, QDir::Name);
  for (const QString& name : owners) {
    const std::optional<RecoveryEntry> e = readOwner(QDir(m_dir).filePath(name));
    if (e && e->owner.key() != self && !e->owner.isAlive()) found.append(*e);
  }
  std::sort(found.begin(), found.end(),
            [](const RecoveryEntry& a, const RecoveryEntry& b) { return a.written > b.written; });
  return found;
}

void RecoveryStore::remove(const RecoveryOwner& owner) const {
  const QDir dir(m_dir);
  QFile::remove(dir.filePath(owner.key() + kOwnerSuffix));
  QFile::remove(dir.filePath(owner.key() + ".json"));
}

Autosaver::Autosaver(std::function<Source()> source, QObject* parent)
    : QObject(parent), m_source(std::move(source)), m_timer(new QTimer(this)) {
  m_timer->setInterval(defaultIntervalMs());
  connect(m_timer, &QTimer::timeout, this, [this] {
    if (m_modified && m_pending) saveNow();
  });
}

Autosaver::~Autosaver() = default;

int Autosaver::defaultIntervalMs() {
  bool ok = false;
  const double seconds = qEnvironmentVariable("ARTICULATE_AUTOSAVE_SECONDS").toDouble(&ok);
  if (!ok || !(seconds > 0) || seconds > 24 * 3600) return kDefaultIntervalMs;
  return std::max(10, static_cast<int>(seconds * 1000));
}

void Autosaver::setInterval(int ms) { m_timer->setInterval(std::max(1, ms)); }

int Autosaver::interval() const { return m_timer->interval(); }

void Autosaver::setModified(bool modified) {
  if (modified == m_modified) return;
  m_modified = modified;
  if (modified) {
    m_pending = true;
    m_timer->start();
  } else {
    discard();
  }
}

bool Autosaver::saveNow() {
  const Source source = m_source();
  if (!source.write) return false;
  try {
    m_store.write(RecoveryOwner::current(), source.original, source.format, source.write);
  } catch (const std::exception& e) {
    emit failed(tr("Autosave failed: %1").arg(QString::fromStdString(e.what())));
    return false;
  }
  m_pending = false;
  emit saved(documentPath());
  return true;
}

void Autosaver::discard() {
  m_timer->stop();
  m_pending = false;
  m_store.remove(RecoveryOwner::current());
}

QString Autosaver::documentPath() const {
  return QDir(m_store.directory()).filePath(RecoveryOwner::current().key() + ".json");
}

}  // namespace art::gui
