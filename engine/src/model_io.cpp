#include "articulate/model_io.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <system_error>

#include <optional>

#include <fcntl.h>
#include <unistd.h>

#include "articulate/floating_base.h"

namespace art {

using nlohmann::json;

namespace {
constexpr int kMaxDepth = 256;
struct TooDeep {};
}  // namespace

json parseJsonText(const std::string& text, const std::string& name) {
  try {
    // the callback sees every value with its depth; refusing deep documents keeps every later
    // recursive walk (and its stack) bounded
    return json::parse(text, [](int depth, json::parse_event_t, json&) {
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
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) throw FormatError(name, "is empty");
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
    throw FormatError(name, s.str());
  }
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

json readJsonFile(const std::string& path) { return parseJsonText(readTextFile(path), path); }

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

void writeFileAtomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp-" + std::to_string(::getpid());
  auto fail = [&](const char* what) {
    const int err = errno;
    ::unlink(tmp.c_str());
    throw std::runtime_error("cannot save '" + path + "': " + what + ": " + std::strerror(err));
  };
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) fail("creating a temporary file");
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      ::close(fd);
      fail("writing");
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) {
    ::close(fd);
    fail("flushing");
  }
  if (::close(fd) != 0) fail("closing");
  if (::rename(tmp.c_str(), path.c_str()) != 0) fail("renaming over the target");
}

}  // namespace art
