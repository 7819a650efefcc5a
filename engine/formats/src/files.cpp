#include "articulate/formats/files.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <new>
#include <sstream>
#include <system_error>

#include <optional>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "articulate/formats/floating_base.h"

namespace art {

using nlohmann::json;

namespace {
constexpr int kMaxDepth = 256;
struct TooDeep {};

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
    throw FormatError(name, "is not valid JSON: " + what.substr(what.find(' ') + 1));
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

std::string readTextFile(const std::string& path) {
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

using ojson = nlohmann::ordered_json;

std::string scalar(const ojson& v) {
  if (v.is_number_float() && v.get<double>() == 0.0) return "0";
  return v.dump();
}

// one line if it fits, else nullopt
std::optional<std::string> inlineForm(const ojson& v, std::size_t budget) {
  if (!v.is_structured()) return scalar(v);
  std::string out = v.is_array() ? "[" : "{";
  bool first = true;
  for (auto it = v.begin(); it != v.end(); ++it) {
    if (!first) out += ", ";
    first = false;
    if (v.is_object()) out += ojson(it.key()).dump() + ": ";
    const auto inner = inlineForm(*it, budget);
    if (!inner) return std::nullopt;
    out += *inner;
    if (out.size() > budget) return std::nullopt;
  }
  out += v.is_array() ? "]" : "}";
  return out;
}

bool numericMatrix(const ojson& v) {
  if (!v.is_array()) return false;
  for (const auto& e : v) {
    if (e.is_number()) continue;
    if (!e.is_array()) return false;
    for (const auto& x : e)
      if (!x.is_number()) return false;
  }
  return true;
}

void format(const ojson& v, int indent, std::size_t column, std::string& out) {
  const std::string pad(indent + 2, ' ');
  if (!v.is_structured() || v.empty()) {
    out += v.is_structured() ? (v.is_array() ? "[]" : "{}") : scalar(v);
    return;
  }
  if (v.is_array()) {
    // numbers and matrices always on one line; other arrays when they fit
    const std::size_t budget = numericMatrix(v) ? std::string::npos : (column < 100 ? 100 - column : 0);
    if (auto line = inlineForm(v, budget)) {
      out += *line;
      return;
    }
    out += "[\n";
    for (std::size_t k = 0; k < v.size(); ++k) {
      out += pad;
      format(v[k], indent + 2, pad.size(), out);
      out += k + 1 < v.size() ? ",\n" : "\n";
    }
    out += std::string(indent, ' ') + "]";
    return;
  }
  if (auto line = inlineForm(v, column < 100 ? 100 - column : 0); line && v.size() <= 4) {
    out += *line;
    return;
  }
  out += "{\n";
  std::size_t k = 0;
  for (auto it = v.begin(); it != v.end(); ++it, ++k) {
    const std::string key = ojson(it.key()).dump() + ": ";
    out += pad + key;
    format(*it, indent + 2, pad.size() + key.size(), out);
    out += k + 1 < v.size() ? ",\n" : "\n";
  }
  out += std::string(indent, ' ') + "}";
}

}  // namespace

std::string formatJson(const ojson& value) {
  std::string out;
  format(value, 0, 0, out);
  return out + "\n";
}

void formatJsonInto(const ojson& value, int indent, std::size_t column, std::string& out) {
  format(value, indent, column, out);
}

std::string formatJsonNumber(double value) { return scalar(ojson(value)); }

ojson specToSpatialV2(const ModelSpec& original) {
  // spatial_v2 has no free joint: free bodies become its six-joint floatbase emulation
  const ModelSpec spec = expandFreeJoints(original);
  const bool planar = spec.arithmetic == Arithmetic::Planar;
  auto matrixJson = [](const Eigen::MatrixXd& M) {
    ojson rows = ojson::array();
    for (Eigen::Index r = 0; r < M.rows(); ++r) {
      ojson row = ojson::array();
      for (Eigen::Index c = 0; c < M.cols(); ++c) row.push_back(M(r, c));
      rows.push_back(row);
    }
    return rows;
  };
  ojson out;
  if (!spec.name.empty()) out["name"] = spec.name;
  if (!spec.description.empty()) out["description"] = spec.description;
  out["NB"] = spec.bodies.size();
  out["arith"] = planar ? "planar" : "spatial";
  ojson parent = ojson::array(), jtype = ojson::array(), xtree = ojson::array(),
        inert = ojson::array(), bodyApp = ojson::array();
  for (const BodySpec& b : spec.bodies) {
    parent.push_back(b.parent + 1);
    ojson jt = {{"code", std::string(jointCode(b.joint.type))}};
    if (b.joint.type == JointType::H) jt["pars"] = {{"pitch", b.joint.pitch}};
    jtype.push_back(jt);
    const Mat6 I = b.inertia.spatial();
    if (planar) {
      const PlanarTransform X{b.rotation(0, 0), b.rotation(0, 1), b.translation.head<2>()};
      xtree.push_back(matrixJson(X.matrix()));
      const int idx[3] = {2, 3, 4};
      Mat3 P;
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) P(r, c) = I(idx[r], idx[c]);
      inert.push_back(matrixJson(P));
    } else {
      xtree.push_back(matrixJson(SpatialTransform{b.rotation, b.translation}.matrix()));
      inert.push_back(matrixJson(I));
    }
    bodyApp.push_back(ojson(b.appearance));
  }
  out["parent"] = parent;
  out["jtype"] = jtype;
  out["Xtree"] = xtree;
  out["I"] = inert;
  const Vec3 g = spec.effectiveGravity();
  out["gravity"] = planar ? ojson::array({g.x(), g.y()}) : ojson::array({g.x(), g.y(), g.z()});
  if (!spec.contacts.empty()) {
    ojson body = ojson::array(), point = ojson::array();
    for (const auto& c : spec.contacts) {
      body.push_back(c.body + 1);
      point.push_back({c.point.x(), c.point.y(), c.point.z()});
    }
    out["gc"] = {{"body", body}, {"point", point}};
  }
  out["appearance"] = {{"base", ojson(spec.baseAppearance)}, {"body", bodyApp}};
  if (!spec.camera.empty()) {
    const CameraSpec& c = spec.camera;
    ojson cam = ojson::object();
    auto v3 = [](const Vec3& v) { return ojson::array({v.x(), v.y(), v.z()}); };
    cam["body"] = c.body + 1;
    if (c.trackpoint) cam["trackpoint"] = v3(*c.trackpoint);
    if (c.direction) cam["direction"] = v3(*c.direction);
    if (c.up) cam["up"] = v3(*c.up);
    if (c.zoom) cam["zoom"] = *c.zoom;
    if (c.locus) cam["locus"] = {c.locus->x(), c.locus->y()};
    out["camera"] = cam;
  }
  return out;
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

AtomicFile::AtomicFile(const std::string& path) : m_path(path), m_target(resolveLinks(path)) {
  // a unique name per writer (several threads may save beside one another)
  static std::atomic<unsigned long> counter{0};
  m_tmp = m_target + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(++counter);
  m_fd = ::open(m_tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (m_fd < 0) fail("creating a temporary file");
}

AtomicFile::~AtomicFile() {
  if (m_fd >= 0) ::close(m_fd);
  if (!m_tmp.empty()) ::unlink(m_tmp.c_str());
}

void AtomicFile::fail(const char* what) {
  const int err = errno;
  if (m_fd >= 0) ::close(m_fd);
  m_fd = -1;
  if (!m_tmp.empty()) ::unlink(m_tmp.c_str());
  m_tmp.clear();
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
