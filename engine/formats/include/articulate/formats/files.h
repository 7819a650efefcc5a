#pragma once
// Reading and writing files: JSON with limits on size and depth, and atomic writes.

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "articulate/formats/json.h"

namespace art {

/// The size in bytes of the regular file at `path` (links followed). It looks without reading
/// and without blocking (a FIFO is opened non-blocking), so that a folder, a device such as
/// /dev/zero, a FIFO or a socket is refused at once instead of read forever. Throws FormatError
/// naming the file: "no such <what>", "is a folder, not a <what>", "is not a regular file (a
/// device, FIFO or socket)", or "cannot open: <the system's reason>".
std::uintmax_t regularFileSize(const std::string& path, const std::string& what = "file");

/// Reads a whole file as bytes; throws FormatError (its path() is the file) when it is not a
/// regular file (regularFileSize), cannot be opened or read, or is over 256 MiB.
std::string readTextFile(const std::string& path);

/// Reads a JSON file; throws FormatError (its path() is the file) with the line and column on
/// a syntax error or a truncated file, and on files nested deeper than 256 or over 256 MiB,
/// except an Articulate recording (its first field "format": "articulate-recording", as
/// saveRecording writes it), which may be up to 16 GiB: such a file is parsed from the stream,
/// never held whole as text, and a syntax error names its byte offset instead.
nlohmann::json readJsonFile(const std::string& path);

/// Parses JSON text with the same limits; `name` labels messages.
nlohmann::json parseJsonText(const std::string& text, const std::string& name);

/// A file written atomically, in pieces: the bytes go to a temporary file beside the target
/// (beside the file a symbolic link points to, so the link stays a link), and commit() flushes
/// it, gives it the target's permissions (or 0666 less the umask for a new file), renames it
/// over the target and flushes the directory, so that after a crash or a failure the target is
/// either the old file or the new one, never torn. Destroyed without commit(), the temporary
/// file is removed and the target is untouched. Every failure throws std::runtime_error naming
/// the file and the system error.
/// The temporary file is TARGET.tmp-PID-N@HOST. It is also removed when the process ends on
/// SIGINT, SIGTERM or SIGHUP (a handler installed for those still at their default); one left
/// by a writer of this machine that no longer runs (SIGKILL, a crash) is removed by the next
/// AtomicFile of the same target.
class AtomicFile {
 public:
  explicit AtomicFile(const std::string& path);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  /// Appends bytes to the temporary file.
  void write(const char* data, std::size_t size);
  void write(const std::string& text) { write(text.data(), text.size()); }
  /// Flushes, renames over the target and flushes the directory (see the class comment).
  void commit();
  /// The file the bytes end up in (a symbolic link's target, resolved).
  const std::string& target() const { return m_target; }

 private:
  [[noreturn]] void fail(const char* what);
  std::string m_path, m_target, m_tmp;
  int m_fd = -1;
  int m_slot = -1;  // its place in the list the signal handler removes
};

/// Writes text to a file atomically (AtomicFile): a failure never leaves a half-written or
/// damaged file. Throws std::runtime_error naming the file and the system error.
void writeFileAtomically(const std::string& path, const std::string& text);

}  // namespace art
