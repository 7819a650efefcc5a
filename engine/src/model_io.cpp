#include "articulate/model_io.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <system_error>

#include <fcntl.h>
#include <unistd.h>

namespace art {

using nlohmann::json;

json readJsonFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw FormatError("", "cannot open '" + path + "': " + std::strerror(errno));
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size > (std::streamoff{256} << 20))
    throw FormatError("", "'" + path + "' is larger than 256 MiB");
  in.seekg(0);
  std::string text(static_cast<std::size_t>(size), '\0');
  in.read(text.data(), size);
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
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
    s << "'" << path << "' is not valid JSON (line " << line << ", column " << col << ")";
    throw FormatError("", s.str());
  }
}

ModelSpec loadModelFile(const std::string& path) {
  const json doc = readJsonFile(path);
  if (looksLikeSpatialV2(doc)) {
    ModelSpec spec = specFromSpatialV2(doc);
    if (doc.contains("name") && doc["name"].is_string()) spec.name = doc["name"];
    if (doc.contains("description") && doc["description"].is_string())
      spec.description = doc["description"];
    return spec;
  }
  throw FormatError("", "'" + path + "' is not a known model format (a spatial_v2 model needs "
                        "NB, parent, jtype and Xtree)");
}

json specToSpatialV2(const ModelSpec& spec) {
  const bool planar = spec.arithmetic == Arithmetic::Planar;
  auto matrixJson = [](const Eigen::MatrixXd& M) {
    json rows = json::array();
    for (Eigen::Index r = 0; r < M.rows(); ++r) {
      json row = json::array();
      for (Eigen::Index c = 0; c < M.cols(); ++c) row.push_back(M(r, c));
      rows.push_back(row);
    }
    return rows;
  };
  json out;
  out["NB"] = spec.bodies.size();
  json parent = json::array(), jtype = json::array(), xtree = json::array(), inert = json::array(),
       bodyApp = json::array();
  for (const BodySpec& b : spec.bodies) {
    parent.push_back(b.parent + 1);
    json jt = {{"code", std::string(jointCode(b.joint.type))}};
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
    bodyApp.push_back(b.appearance);
  }
  out["parent"] = parent;
  out["jtype"] = jtype;
  out["Xtree"] = xtree;
  out["I"] = inert;
  const Vec3 g = spec.effectiveGravity();
  out["gravity"] = planar ? json::array({g.x(), g.y()}) : json::array({g.x(), g.y(), g.z()});
  if (!spec.contacts.empty()) {
    json body = json::array(), point = json::array();
    for (const auto& c : spec.contacts) {
      body.push_back(c.body + 1);
      point.push_back({c.point.x(), c.point.y(), c.point.z()});
    }
    out["gc"] = {{"body", body}, {"point", point}};
  }
  out["appearance"] = {{"base", spec.baseAppearance}, {"body", bodyApp}};
  if (!spec.camera.empty()) out["camera"] = spec.camera;
  if (!spec.name.empty()) out["name"] = spec.name;
  if (!spec.description.empty()) out["description"] = spec.description;
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
