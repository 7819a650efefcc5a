// The mesh reader in a process of its own (mesh_read.h). assimp parses formats nobody here
// controls, and a file can crash it, hang it or make it allocate without end; in a forked child
// with an address-space and a time limit, any of those is a message about the file instead of
// the end of the application. The child writes the mesh, or its error, into a pipe.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <new>
#include <string>

#include "articulate/formats/json.h"
#include "mesh_read.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define ARTICULATE_MESH_NO_RLIMIT_AS 1  // the sanitizers reserve terabytes of address space
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define ARTICULATE_MESH_NO_RLIMIT_AS 1
#endif
#endif

namespace art::mesh_read {

namespace {

constexpr const char* kOutOfMemory = "the mesh file needs more than the reader's 3 GiB of memory";
static_assert(MeshLimits::memory == 3ull << 30, "kOutOfMemory names the limit");

// the child's reply: 'M', then the counts and arrays of MeshData; or 'E' and a message
template <class T>
void append(std::string& out, const T* data, std::size_t count) {
  out.append(reinterpret_cast<const char*>(data), count * sizeof(T));
}

std::string encode(const MeshData& mesh) {
  std::string out = "M";
  const std::uint64_t counts[3] = {mesh.vertices.size(), mesh.triangles.size(), mesh.colours.size()};
  append(out, counts, 3);
  for (const Eigen::Vector3f& v : mesh.vertices) append(out, v.data(), 3);
  append(out, mesh.triangles.data(), mesh.triangles.size());
  append(out, mesh.triangleColour.data(), mesh.triangleColour.size());
  for (const Vec3& c : mesh.colours) append(out, c.data(), 3);
  for (const std::vector<std::string>* list : {&mesh.textures, &mesh.notes}) {
    const std::uint64_t n = list->size();
    append(out, &n, 1);
    for (const std::string& s : *list) {
      const std::uint64_t length = s.size();
      append(out, &length, 1);
      out += s;
    }
  }
  return out;
}

class Reply {
 public:
  Reply(const std::string& bytes, const std::string& path) : m_bytes(bytes), m_path(path) {}
  template <class T>
  void read(T* data, std::size_t count) {
    const std::size_t n = count * sizeof(T);
    if (count > m_bytes.size() || m_bytes.size() - m_at < n) bad();
    std::memcpy(static_cast<void*>(data), m_bytes.data() + m_at, n);
    m_at += n;
  }
  bool done() const { return m_at == m_bytes.size(); }
  // a count-prefixed list of length-prefixed strings
  void read(std::vector<std::string>& list) {
    std::uint64_t n = 0;
    read(&n, 1);
    if (n > (m_bytes.size() - m_at) / sizeof(std::uint64_t)) bad();  // each string has its length
    list.resize(n);
    for (std::string& s : list) {
      std::uint64_t length = 0;
      read(&length, 1);
      if (length > m_bytes.size() - m_at) bad();
      s.assign(m_bytes, m_at, length);
      m_at += length;
    }
  }
  [[noreturn]] void bad() const { throw FormatError(m_path, "the mesh reader's reply is damaged"); }

 private:
  const std::string& m_bytes;
  const std::string& m_path;
  std::size_t m_at = 1;
};

MeshData decode(const std::string& bytes, const std::string& path) {
  Reply in(bytes, path);
  std::uint64_t counts[3];
  in.read(counts, 3);
  MeshData mesh;
  if (counts[0] > bytes.size() || counts[1] > bytes.size() || counts[2] > bytes.size()) in.bad();
  mesh.vertices.resize(counts[0]);
  for (Eigen::Vector3f& v : mesh.vertices) in.read(v.data(), 3);
  mesh.triangles.resize(counts[1]);
  in.read(mesh.triangles.data(), mesh.triangles.size());
  mesh.triangleColour.resize(counts[1]);
  in.read(mesh.triangleColour.data(), mesh.triangleColour.size());
  mesh.colours.resize(counts[2]);
  for (Vec3& c : mesh.colours) in.read(c.data(), 3);
  in.read(mesh.textures);
  in.read(mesh.notes);
  if (!in.done() || mesh.textures.size() != mesh.colours.size()) in.bad();
  // the reader process only names files in the mesh file's folder or below (textureOf)
  const std::string folder = std::filesystem::absolute(path).lexically_normal().parent_path().string() + "/";
  for (const std::string& t : mesh.textures)
    if (!t.empty() && (t.rfind(folder, 0) != 0 || t.find("/../") != std::string::npos)) in.bad();
  for (const auto& t : mesh.triangles)
    for (std::uint32_t i : t)
      if (i >= mesh.vertices.size()) in.bad();
  for (int c : mesh.triangleColour)
    if (c < -1 || c >= static_cast<int>(mesh.colours.size())) in.bad();
  return mesh;
}

bool writeAll(int fd, const std::string& bytes) {
  for (std::size_t at = 0; at < bytes.size();) {
    const ssize_t n = ::write(fd, bytes.data() + at, bytes.size() - at);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    at += static_cast<std::size_t>(n);
  }
  return true;
}

// the address space (/proc/PID/statm's first field) or the resident memory (its second) of a
// process, in bytes; 0 when it cannot be read
std::uintmax_t statmBytes(const std::string& pid, int field) {
  std::ifstream statm("/proc/" + pid + "/statm");
  std::uintmax_t pages[2] = {0, 0};
  statm >> pages[0] >> pages[1];
  return pages[field] * static_cast<std::uintmax_t>(::sysconf(_SC_PAGESIZE));
}

[[noreturn]] void child(int out, const std::string& path, int seconds) {
  // the signals the parent handles are the parent's business (AtomicFile's cleanup; a crash
  // handler such as a test framework's, which would print the child's stack or start a
  // debugger): a crash here ends this process, which the parent reports
  for (int s : {SIGINT, SIGTERM, SIGHUP, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) ::signal(s, SIG_DFL);
  ::signal(SIGPIPE, SIG_IGN);
#ifndef ARTICULATE_MESH_NO_RLIMIT_AS
  const rlim_t mapped = statmBytes("self", 0) + MeshLimits::memory;  // what it maps now, and the limit
  const rlimit memory{mapped, mapped};
  ::setrlimit(RLIMIT_AS, &memory);
#endif
  const rlimit cpu{static_cast<rlim_t>(seconds) + 1, static_cast<rlim_t>(seconds) + 2};
  ::setrlimit(RLIMIT_CPU, &cpu);
  std::string reply;
  try {
    reply = encode(readWithAssimp(path));
  } catch (const FormatError& e) {
    const std::string prefix = path + ": ";
    const std::string what = e.what();
    reply = "E" + (what.rfind(prefix, 0) == 0 ? what.substr(prefix.size()) : what);
  } catch (const std::bad_alloc&) {
    reply = std::string("E") + kOutOfMemory;
  } catch (const std::exception& e) {
    reply = std::string("Ethe mesh file does not read: ") + e.what();
  }
  _exit(writeAll(out, reply) ? 0 : 1);
}

std::string signalName(int s) {
  const char* d = ::sigdescr_np(s);
  return "signal " + std::to_string(s) + (d ? std::string(", ") + d : std::string());
}

}  // namespace

MeshData readInChild(const std::string& path, int seconds) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw FormatError(path, "cannot start the mesh reader: " + std::string(std::strerror(errno)));
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int e = errno;
    ::close(fds[0]);
    ::close(fds[1]);
    throw FormatError(path, "cannot start the mesh reader: " + std::string(std::strerror(e)));
  }
  if (pid == 0) {
    ::close(fds[0]);
    child(fds[1], path, seconds);
  }
  ::close(fds[1]);
  // the reply, until the child closes its end; the child is stopped when its time is up, or
  // when its resident memory grows MeshLimits::memory past what it shares with this process
  // (a watch every 50 ms, for the builds where RLIMIT_AS cannot be set, and for memory the
  // limit does not see)
  const std::string child = std::to_string(pid);
  const std::uintmax_t memoryLimit = statmBytes("self", 1) + MeshLimits::memory;
  std::string bytes;
  bool timedOut = false, outOfMemory = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  char buffer[1 << 16];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) {
      timedOut = true;
      break;
    }
    if (statmBytes(child, 1) > memoryLimit) {
      outOfMemory = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(std::min<long long>(left, 50)));
    if (ready <= 0) continue;  // EINTR or the watch's turn
    const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    bytes.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(fds[0]);
  if (timedOut || outOfMemory) ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (timedOut)
    throw FormatError(path, "reading the mesh file took longer than " + std::to_string(seconds) + " s");
  if (outOfMemory) throw FormatError(path, kOutOfMemory);
  if (WIFSIGNALED(status)) {
    const int s = WTERMSIG(status);
    throw FormatError(path, s == SIGXCPU ? "reading the mesh file took longer than " + std::to_string(seconds) + " s of processor time"
                                        : "the mesh reader (assimp) crashed on this file (" + signalName(s) + ")");
  }
  if (bytes.empty() || (bytes[0] != 'M' && bytes[0] != 'E') || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw FormatError(path, "the mesh reader (assimp) failed on this file (exit status " +
                                std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")");
  if (bytes[0] == 'E') throw FormatError(path, bytes.substr(1));
  return decode(bytes, path);
}

}  // namespace art::mesh_read
