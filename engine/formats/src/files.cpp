#include "articulate/formats/files.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <fstream>
#include <new>
#include <sstream>
#include <system_error>

#include <optional>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

namespace art {

using nlohmann::json;

namespace {
constexpr int kMaxDepth = 256;
struct TooDeep {};

// nlohmann's "number overflow parsing '<the number>'" with the number shortened (messageValue):
// a 5 MB number was echoed whole
std::string shortenQuoted(const std::string& what) {
  const std::size_t open = what.find('\''), close = what.rfind('\'');
  if (open == std::string::npos || close <= open) return messageValue(what, 200);
  return what.substr(0, open + 1) + messageValue(what.substr(open + 1, close - open - 1)) + what.substr(close);
}

// Parses JSON from text or a stream with the depth limit; a syntax error is described by
// `syntax(error)`, the reason after the file's name.
template <class Input, class Syntax>
json parseLimited(Input&& input, const std::string& name, Syntax&& syntax) {
  try {
    // the callback sees every value with its depth; refusing deep documents keeps every later
    // recursive walk (and its stack) bounded
    return json::parse(std::forward<Input>(input), [](int depth, json::parse_event_t, json&) {
      if (depth > kMaxDepth) throw TooDeep{};
      return true;
    });
  } catch (const TooDeep&) {
    throw FormatError(name, "is nested deeper than " + std::to_string(kMaxDepth) + " levels");
  } catch (const json::out_of_range& e) {
    // nlohmann reports numbers beyond the range of a double this way ("number overflow ...")
    const std::string what = e.what();
    throw FormatError(name, "is not valid JSON: " + shortenQuoted(what.substr(what.find(' ') + 1)));
  } catch (const json::parse_error& e) {
    throw FormatError(name, syntax(e));
  }
}
}  // namespace

json parseJsonText(const std::string& text, const std::string& name) {
  return parseLimited(text, name, [&](const json::parse_error& e) -> std::string {
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) return "is empty";
    // report the line and column of the byte where parsing stopped
    std::size_t line = 1, col = 1;
    for (std::size_t k = 0; k + 1 < e.byte && k < text.size(); ++k) {
      if (text[k] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    std::ostringstream s;
    s << "is not valid JSON (line " << line << ", column " << col << ")";
    if (e.byte >= text.size()) s << ": it ends too early";
    return s.str();
  });
}

std::uintmax_t regularFileSize(const std::string& path, const std::string& what) {
  // O_NONBLOCK: opening a FIFO for reading returns at once instead of waiting for a writer
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    const int error = errno;
    if (error == ENOENT || error == ENOTDIR) throw FormatError(path, "no such " + what);
    throw FormatError(path, std::string("cannot open: ") + std::strerror(error));
  }
  struct stat st {};
  const int status = ::fstat(fd, &st);
  ::close(fd);
  if (status != 0) throw FormatError(path, std::string("cannot read: ") + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) throw FormatError(path, "is a folder, not a " + what);
  if (!S_ISREG(st.st_mode)) throw FormatError(path, "is not a regular file (a device, FIFO or socket)");
  return static_cast<std::uintmax_t>(st.st_size);
}

std::string readTextFile(const std::string& path) {
  const std::uintmax_t bytes = regularFileSize(path);
  if (bytes > (std::uintmax_t{256} << 20))
    throw FormatError(path, "is larger than 256 MiB (" + std::to_string(bytes >> 20) + " MiB)");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw FormatError(path, std::string("cannot open: ") + std::strerror(errno));
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size < 0) throw FormatError(path, "cannot read (not a regular file?)");
  if (size > (std::streamoff{256} << 20)) throw FormatError(path, "is larger than 256 MiB");
  in.seekg(0);
  std::string text(static_cast<std::size_t>(size), '\0');
  in.read(text.data(), size);
  return text;
}

namespace {
constexpr std::streamoff kMaxModelBytes = std::streamoff{256} << 20;
constexpr std::streamoff kMaxRecordingBytes = std::streamoff{16} << 30;

// Whether a file's first bytes declare an Articulate recording (its "format" field leads the
// document, as saveRecording writes it).
bool declaresRecording(std::istream& in) {
  std::string head(4096, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  in.clear();
  in.seekg(0);
  const std::size_t open = head.find_first_not_of(" \t\r\n");
  if (open == std::string::npos || head[open] != '{') return false;
  const std::size_t key = head.find_first_not_of(" \t\r\n", open + 1);
  static const std::string field = "\"format\"";
  if (key == std::string::npos || head.compare(key, field.size(), field) != 0) return false;
  const std::size_t colon = head.find_first_not_of(" \t\r\n", key + field.size());
  if (colon == std::string::npos || head[colon] != ':') return false;
  const std::size_t value = head.find_first_not_of(" \t\r\n", colon + 1);
  static const std::string recording = "\"articulate-recording\"";
  return value != std::string::npos && head.compare(value, recording.size(), recording) == 0;
}
}  // namespace

json readJsonFile(const std::string& path) {
  regularFileSize(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw FormatError(path, std::string("cannot open: ") + std::strerror(errno));
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size < 0) throw FormatError(path, "cannot read (not a regular file?)");
  in.seekg(0);
  if (size <= kMaxModelBytes) {
    std::string text(static_cast<std::size_t>(size), '\0');
    in.read(text.data(), size);
    return parseJsonText(text, path);
  }
  // Past a model's limit only a recording, whose samples legitimately fill gigabytes: parsed
  // from the stream, so the text is never held whole (the document takes about the file's size)
  if (!declaresRecording(in)) throw FormatError(path, "is larger than 256 MiB");
  if (size > kMaxRecordingBytes) throw FormatError(path, "is a recording larger than 16 GiB");
  try {
    return parseLimited(in, path, [&](const json::parse_error& e) {
      return "is not valid JSON (at byte " + std::to_string(e.byte) + ")" +
             (static_cast<std::streamoff>(e.byte) >= size ? ": it ends too early" : "");
    });
  } catch (const std::bad_alloc&) {
    throw FormatError(path, "is a recording too large for the memory available (" +
                                std::to_string(size >> 20) + " MiB)");
  }
}

namespace {
/// The file a path names: symbolic links followed (up to 40, as the kernel does), each
/// relative link target taken from its link's directory. A path that does not exist yet is
/// its own target.
std::string resolveLinks(std::string path) {
  for (int hops = 0; hops < 40; ++hops) {
    struct stat st;
    if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
    std::string link(static_cast<std::size_t>(st.st_size > 0 ? st.st_size : 4096), '\0');
    const ssize_t n = ::readlink(path.c_str(), link.data(), link.size());
    if (n < 0) return path;
    link.resize(static_cast<std::size_t>(n));
    if (link.empty() || link[0] == '/') {
      path = link;
    } else {
      const std::size_t slash = path.rfind('/');
      path = (slash == std::string::npos ? std::string() : path.substr(0, slash + 1)) + link;
    }
  }
  return path;
}

std::string directoryOf(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}
}  // namespace

namespace {

// The temporary files being written now, for the handler of SIGINT, SIGTERM and SIGHUP, which
// removes them before the process ends: fixed slots, so that the handler only reads memory and
// calls unlink (both async-signal-safe). A path too long for a slot is simply not removed.
constexpr int kSlots = 64;
constexpr std::size_t kSlotBytes = 4096;
char g_pending[kSlots][kSlotBytes];
std::atomic<bool> g_used[kSlots];
std::mutex g_slots;

extern "C" void removePendingAndEnd(int sig) {
  for (int k = 0; k < kSlots; ++k)
    if (g_used[k].load(std::memory_order_acquire)) ::unlink(g_pending[k]);
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

// installs the handler once, for the signals whose disposition is still the default (a
// program's own handler, such as the sweep command's graceful Ctrl+C, stays; its writes end
// through the destructors)
void installSignalCleanup() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
      struct sigaction current {};
      if (::sigaction(sig, nullptr, &current) != 0 || (current.sa_flags & SA_SIGINFO) || current.sa_handler != SIG_DFL)
        continue;
      struct sigaction mine {};
      mine.sa_handler = removePendingAndEnd;
      sigemptyset(&mine.sa_mask);
      ::sigaction(sig, &mine, nullptr);
    }
  });
}

int claimSlot(const std::string& tmp) {
  if (tmp.size() >= kSlotBytes) return -1;
  const std::lock_guard<std::mutex> lock(g_slots);
  for (int k = 0; k < kSlots; ++k) {
    if (g_used[k].load(std::memory_order_relaxed)) continue;
    std::memcpy(g_pending[k], tmp.c_str(), tmp.size() + 1);
    g_used[k].store(true, std::memory_order_release);
    return k;
  }
  return -1;
}

void releaseSlot(int& k) {
  if (k < 0) return;
  g_used[k].store(false, std::memory_order_release);
  k = -1;
}

// Temporary files of `target` left by a writer of this machine that no longer runs (killed
// with SIGKILL, or a power cut): TARGET.tmp-PID-N@HOST with HOST this machine's name and no
// process PID. A file of another machine (a shared folder) or of a live process is kept.
void removeStaleTemporaries(const std::string& target, const std::string& host) {
  const std::string dir = directoryOf(target);
  const std::size_t slash = target.rfind('/');
  const std::string prefix = (slash == std::string::npos ? target : target.substr(slash + 1)) + ".tmp-";
  DIR* d = ::opendir(dir.c_str());
  if (!d) return;
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    const std::size_t at = name.rfind('@');
    if (at == std::string::npos || name.compare(at + 1, std::string::npos, host) != 0) continue;
    char* end = nullptr;
    const long pid = std::strtol(name.c_str() + prefix.size(), &end, 10);
    if (pid <= 0 || !end || *end != '-') continue;
    if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;
    ::unlink((dir + "/" + name).c_str());
  }
  ::closedir(d);
}

std::string hostName() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0 || !name[0]) return "localhost";
  std::string out(name);
  for (char& c : out)
    if (c == '/' || c == '@') c = '_';
  return out;
}

}  // namespace

AtomicFile::AtomicFile(const std::string& path) : m_path(path), m_target(resolveLinks(path)) {
  static const std::string host = hostName();
  installSignalCleanup();
  removeStaleTemporaries(m_target, host);
  // a unique name per writer (several threads may save beside one another), naming its process
  // and machine so that a later writer can tell a stale one
  static std::atomic<unsigned long> counter{0};
  m_tmp = m_target + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(++counter) + "@" + host;
  m_fd = ::open(m_tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (m_fd < 0) fail("creating a temporary file");
  m_slot = claimSlot(m_tmp);
}

AtomicFile::~AtomicFile() {
  if (m_fd >= 0) ::close(m_fd);
  if (!m_tmp.empty()) ::unlink(m_tmp.c_str());
  releaseSlot(m_slot);
}

void AtomicFile::fail(const char* what) {
  const int err = errno;
  if (m_fd >= 0) ::close(m_fd);
  m_fd = -1;
  if (!m_tmp.empty()) ::unlink(m_tmp.c_str());
  m_tmp.clear();
  releaseSlot(m_slot);
  throw std::runtime_error("cannot save '" + m_path + "': " + what + ": " + std::strerror(err));
}

void AtomicFile::write(const char* data, std::size_t size) {
  if (m_fd < 0) throw std::logic_error("AtomicFile::write after commit or failure");
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::write(m_fd, data + done, size - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("writing");
    }
    done += static_cast<std::size_t>(n);
  }
}

void AtomicFile::commit() {
  if (m_fd < 0) throw std::logic_error("AtomicFile::commit twice or after a failure");
  // an existing file keeps its permissions (and, where we may, its owner)
  struct stat st;
  if (::stat(m_target.c_str(), &st) == 0) {
    if (::fchmod(m_fd, st.st_mode & 07777) != 0) fail("keeping the file's permissions");
    if (::fchown(m_fd, st.st_uid, st.st_gid) != 0 && errno != EPERM) fail("keeping the file's owner");
  }
  if (::fsync(m_fd) != 0) fail("flushing");
  const int fd = m_fd;
  m_fd = -1;
  if (::close(fd) != 0) fail("closing");
  if (::rename(m_tmp.c_str(), m_target.c_str()) != 0) fail("renaming over the target");
  m_tmp.clear();
  releaseSlot(m_slot);
  // the rename itself is durable only once the directory is flushed
  const int dir = ::open(directoryOf(m_target).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    const int rc = ::fsync(dir);
    const int err = errno;
    ::close(dir);
    // some file systems cannot flush a directory (EINVAL); the rename has happened either way
    if (rc != 0 && err != EINVAL) {
      errno = err;
      fail("flushing the directory");
    }
  }
}

void writeFileAtomically(const std::string& path, const std::string& text) {
  AtomicFile file(path);
  file.write(text);
  file.commit();
}

}  // namespace art
