// The helpers the robot-description readers share (robot_import.h).
#include "robot_import.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>
#include <sstream>
#include <stdexcept>

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>

#include "articulate/dynamics/collision.h"
#include "articulate/dynamics/contact.h"
#include "articulate/dynamics/dynamics.h"
#include "articulate/formats/json.h"
#include "articulate/model/model.h"
#include "convex_hull.h"

namespace art::robot {

using nlohmann::json;

// the shortest decimal that reads back to exactly v (-0 written as 0)
std::string num(double v) {
  if (v == 0) return "0";
  std::array<char, 32> buf{};
  const auto r = std::to_chars(buf.data(), buf.data() + buf.size(), v);
  return std::string(buf.data(), r.ptr);
}

std::string vecText(const Vec3& v) {
  std::ostringstream s;
  s << "[" << v.x() << " " << v.y() << " " << v.z() << "]";
  return s.str();
}

// several links' mass properties as one (parallel-axis theorem)
Mass combine(const std::vector<Mass>& parts) {
  if (parts.size() == 1) return parts[0];
  Mass out;
  for (const Mass& p : parts) {
    out.m += p.m;
    out.c += p.m * p.c;
  }
  out.c = out.m > 0 ? Vec3(out.c / out.m) : Vec3(Vec3::Zero());
  for (const Mass& p : parts) {
    const Vec3 d = p.c - out.c;
    out.Ic += p.Ic + p.m * (d.squaredNorm() * Mat3::Identity() - d * d.transpose());
  }
  return out;
}

json vec(const Vec3& v) { return json::array({v.x(), v.y(), v.z()}); }

// a box of size d turned by R about its centre p, as vertices and triangles
json boxMesh(const Mat3& R, const Vec3& p, const Vec3& d) {
  json vertices = json::array(), triangles = json::array();
  for (int k = 0; k < 8; ++k) {
    const Vec3 corner((k & 1 ? 0.5 : -0.5) * d.x(), (k & 2 ? 0.5 : -0.5) * d.y(), (k & 4 ? 0.5 : -0.5) * d.z());
    vertices.push_back(vec(R * corner + p));
  }
  for (int axis = 0; axis < 3; ++axis)
    for (int side = 0; side < 2; ++side) {
      // the face's four corners in cyclic order, counter-clockwise seen from outside
      const int bit = 1 << axis, u = 1 << ((axis + 1) % 3), v = 1 << ((axis + 2) % 3);
      const int b = side ? bit : 0;
      std::array<int, 4> q = {b, b | u, b | u | v, b | v};
      if (!side) std::swap(q[1], q[3]);
      triangles.push_back({q[0] + 1, q[1] + 1, q[2] + 1});
      triangles.push_back({q[0] + 1, q[2] + 1, q[3] + 1});
    }
  return json::array({"vertices", vertices, "triangles", triangles});
}

bool signedPermutation(const Mat3& R) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const double a = std::abs(R(i, j));
      if (a > 1e-12 && std::abs(a - 1) > 1e-12) return false;
    }
  return true;
}

// the turn A (x_link = A x_body) making unit axis a the body's coordinate axis k (else z)
Mat3 axisTurn(const Vec3& a, int& k) {
  k = 2;
  Mat3 A = Mat3::Identity();
  int nonzero = 0;
  for (int c = 0; c < 3; ++c) nonzero += a(c) != 0;
  if (nonzero == 1) {
    a.cwiseAbs().maxCoeff(&k);
    if (a(k) < 0) A = Vec3(k == 2 ? 1 : -1, -1, k == 2 ? -1 : 1).asDiagonal();  // half a turn
  } else {
    A = Eigen::Quaterniond::FromTwoVectors(Vec3::UnitZ(), a).toRotationMatrix();
  }
  return A;
}


std::vector<Vec3> meshSupportPoints(const MeshData& mesh, const Vec3& scale) {
  std::vector<int> chosen;
  for (int dx = -1; dx <= 1; ++dx)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dz = -1; dz <= 1; ++dz) {
        if ((dx != 0) + (dy != 0) + (dz != 0) == 2 || (!dx && !dy && !dz)) continue;  // axes and corners: 14
        const Vec3 d(dx, dy, dz);
        int best = -1;
        double most = -std::numeric_limits<double>::infinity();
        for (std::size_t v = 0; v < mesh.vertices.size(); ++v) {
          const double along = d.dot(scale.cwiseProduct(mesh.vertices[v].cast<double>()));
          if (along > most) {
            most = along;
            best = static_cast<int>(v);
          }
        }
        if (best >= 0 && std::find(chosen.begin(), chosen.end(), best) == chosen.end()) chosen.push_back(best);
      }
  std::vector<Vec3> out;
  for (int v : chosen) out.push_back(scale.cwiseProduct(mesh.vertices[static_cast<std::size_t>(v)].cast<double>()));
  return out;
}

MeshMoments meshMoments(const MeshData& mesh, const Vec3& scale) {
  double V = 0;
  Vec3 first = Vec3::Zero();
  Mat3 second = Mat3::Zero();  // integral of x x^T
  for (const auto& t : mesh.triangles) {
    const Vec3 a = scale.cwiseProduct(mesh.vertices[t[0]].cast<double>());
    const Vec3 b = scale.cwiseProduct(mesh.vertices[t[1]].cast<double>());
    const Vec3 c = scale.cwiseProduct(mesh.vertices[t[2]].cast<double>());
    const double v = a.dot(b.cross(c)) / 6;
    V += v;
    first += v * (a + b + c) / 4;
    const Vec3 sum = a + b + c;
    second += v / 20 * (a * a.transpose() + b * b.transpose() + c * c.transpose() + sum * sum.transpose());
  }
  MeshMoments u;
  if (!(std::abs(V) > 1e-18)) return u;
  if (V < 0) {  // wound inside out
    V = -V;
    first = -first;
    second = -second;
  }
  u.volume = V;
  u.centre = first / V;
  const Mat3 C = second / V - u.centre * u.centre.transpose();  // about the centre, per unit mass
  u.inertia = C.trace() * Mat3::Identity() - C;
  return u;
}

void setHullGeom(const MeshData& mesh, const Vec3& scale, GeomSpec& k) {
  std::vector<Vec3> points;
  points.reserve(mesh.vertices.size());
  for (const Eigen::Vector3f& v : mesh.vertices) points.push_back(scale.cwiseProduct(v.cast<double>()));
  const MeshData hull = convexHull(points);  // throws for a flat or degenerate set
  const MeshMoments u = meshMoments(hull, Vec3::Ones());
  if (u.volume == 0) throw std::invalid_argument("its vertices span no volume");
  Mat3 E = Eigen::SelfAdjointEigenSolver<Mat3>(u.inertia).eigenvectors();
  if (E.determinant() < 0) E.col(2) = -E.col(2);
  k.type = GeomSpec::Type::Mesh;
  k.vertices.clear();
  k.faces.clear();
  for (const Eigen::Vector3f& v : hull.vertices) k.vertices.push_back(E.transpose() * (v.cast<double>() - u.centre));
  for (const auto& t : hull.triangles) k.faces.push_back({static_cast<int>(t[0]), static_cast<int>(t[1]), static_cast<int>(t[2])});
  k.position = k.rotation * u.centre + k.position;
  k.rotation = k.rotation * E;
}

std::vector<std::pair<int, int>> overlappingBodies(const ModelSpec& spec, double depth) {
  std::vector<std::pair<int, int>> pairs;
  if (spec.geoms.empty()) return pairs;
  const Model model = compile(spec);
  Data data(model);
  forwardKinematics(model, data, model.q0);
  std::vector<Contact> contacts;
  collide(model, data, contacts);
  for (const Contact& c : contacts) {
    if (!(c.dist < -depth)) continue;
    const int a = model.geoms[static_cast<std::size_t>(c.geom1)].body, b = model.geoms[static_cast<std::size_t>(c.geom2)].body;
    const std::pair<int, int> p(std::min(a, b), std::max(a, b));
    if (std::find(pairs.begin(), pairs.end(), p) == pairs.end()) pairs.push_back(p);
  }
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

// Whether text is well-formed UTF-8 (no overlong forms, surrogates or code points past
// U+10FFFF) with no control characters but tab, newline and carriage return.
bool validUtf8(const std::string& text) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const auto* end = p + text.size();
  while (p < end) {
    const unsigned c = *p;
    if (c < 0x80) {
      if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') return false;
      ++p;
      continue;
    }
    const int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC2 ? 1 : -1;
    if (extra < 0 || c > 0xF4 || end - p <= extra) return false;
    unsigned code = c & (0x3F >> extra);
    for (int k = 1; k <= extra; ++k) {
      if ((p[k] & 0xC0) != 0x80) return false;
      code = (code << 6) | (p[k] & 0x3F);
    }
    if ((extra == 2 && (code < 0x800 || (code >= 0xD800 && code <= 0xDFFF))) ||
        (extra == 3 && (code < 0x10000 || code > 0x10FFFF)))
      return false;
    p += extra + 1;
  }
  return true;
}

// A name for a message: bytes outside printable ASCII as \xHH.
std::string printable(const std::string& name) {
  std::string out;
  for (const unsigned char c : name) {
    if (c >= 0x20 && c < 0x7F) {
      out += static_cast<char>(c);
    } else {
      static const char* hex = "0123456789ABCDEF";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

// The deepest element nesting of an XML text, by a scan of its markup (comments, CDATA,
// processing instructions and declarations skipped; quoted attribute values may hold '>').
// TinyXML, which urdfdom parses with, builds and frees its element tree recursively, so a deep
// enough document overflows the stack: it is measured first, without recursion.
std::size_t xmlNestingDepth(const std::string& xml) {
  std::size_t depth = 0, deepest = 0, k = 0;
  const auto skipPast = [&](const char* end) {
    const std::size_t at = xml.find(end, k);
    k = at == std::string::npos ? xml.size() : at + std::strlen(end);
  };
  while ((k = xml.find('<', k)) != std::string::npos) {
    if (xml.compare(k, 4, "<!--") == 0) {
      skipPast("-->");
    } else if (xml.compare(k, 9, "<![CDATA[") == 0) {
      skipPast("]]>");
    } else if (xml.compare(k, 2, "<?") == 0) {
      skipPast("?>");
    } else if (xml.compare(k, 2, "<!") == 0) {
      skipPast(">");
    } else if (xml.compare(k, 2, "</") == 0) {
      if (depth > 0) --depth;
      skipPast(">");
    } else {
      // a start tag: to its '>' outside quotes; "/>" closes it at once
      char quote = 0, last = 0;
      for (++k; k < xml.size(); ++k) {
        const char c = xml[k];
        if (quote) {
          if (c == quote) quote = 0;
        } else if (c == '"' || c == '\'') {
          quote = c;
        } else if (c == '>') {
          break;
        }
        if (!std::isspace(static_cast<unsigned char>(c))) last = c;
      }
      ++k;
      if (last != '/') deepest = std::max(deepest, ++depth);
    }
  }
  return deepest;
}

void setInertias(ModelSpec& spec, const std::vector<std::vector<Mass>>& masses) {
  for (std::size_t i = 0; i < spec.bodies.size(); ++i)
    if (!masses[i].empty()) {
      const Mass total = combine(masses[i]);
      spec.bodies[i].inertia = InertiaSpec::fromMassComInertia(total.m, total.c, total.Ic);
    }
}

void checkCompiles(const ModelSpec& spec, const std::string& source, const char* what) {
  Model model;
  try {
    model = compile(spec);
  } catch (const ModelError& e) {
    const std::string who = e.bodyIndex() >= 0 ? std::string(what) + " '" + printable(spec.bodies[e.bodyIndex()].name) + "': " : "";
    throw FormatError(source, who + (e.field().empty() ? "" : e.field() + ": ") + e.reason());
  }
  // entry by entry, not crba's dense nv x nv matrix: a robot of 8,000 joints took 1 GB here
  if (!massMatrixFinite(model, model.q0))
    throw FormatError(source, "the joint-space inertia at the initial state is not finite: a mass, a centre of "
                              "mass or a joint origin is too large");
}

std::string renameBase(ModelSpec& spec) {
  std::string renamed;
  for (BodySpec& b : spec.bodies) {
    if (b.name != "base") continue;
    std::set<std::string> taken;
    for (const BodySpec& other : spec.bodies) taken.insert(other.name);
    for (const char* candidate : {"base_link", "base_body", "urdf_base"})
      if (!taken.count(candidate)) {
        b.name = candidate;
        break;
      }
    renamed = b.name;
  }
  return renamed;
}

namespace {

// the lowest point (m, along z) of a geom at the kinematics in `data`
double geomLowest(const Model& model, const Data& data, int g) {
  const GeomSpec& k = model.geoms[static_cast<std::size_t>(g)];
  Mat3 R;
  Vec3 p;
  geomPose(model, data, g, R, p);
  const auto z = R.row(2);  // the world's z in geom coordinates
  const Vec3& s = k.size;
  switch (k.type) {
    case GeomSpec::Type::Plane: break;
    case GeomSpec::Type::Sphere: return p.z() - s(0);
    case GeomSpec::Type::Capsule: return p.z() - std::abs(z(2)) * s(1) - s(0);
    case GeomSpec::Type::Cylinder: return p.z() - std::abs(z(2)) * s(1) - s(0) * std::sqrt(std::max(0.0, 1 - z(2) * z(2)));
    case GeomSpec::Type::Ellipsoid: return p.z() - z.transpose().cwiseProduct(s).norm();
    case GeomSpec::Type::Box: return p.z() - z.cwiseAbs().dot(s.transpose());
    case GeomSpec::Type::Mesh: {
      double low = std::numeric_limits<double>::infinity();
      for (const Vec3& v : k.vertices) low = std::min(low, z.dot(v.transpose()) + p.z());
      return low;
    }
  }
  return std::numeric_limits<double>::infinity();
}

// each ground-contact point's and moving geom's body and lowest height (m) at the initial state
std::vector<std::pair<int, double>> lowestParts(const Model& model) {
  Data data(model);
  std::vector<std::pair<int, double>> parts;
  const std::vector<double> heights = groundHeights(model, data, model.q0);
  for (std::size_t k = 0; k < heights.size(); ++k) parts.emplace_back(model.contacts[k].body, heights[k]);
  forwardKinematics(model, data, model.q0);
  for (std::size_t g = 0; g < model.geoms.size(); ++g)
    if (model.geoms[g].body >= 0 && model.geoms[g].type != GeomSpec::Type::Plane)
      parts.emplace_back(model.geoms[g].body, geomLowest(model, data, static_cast<int>(g)));
  return parts;
}

}  // namespace

double lowestPoint(const ModelSpec& spec) {
  double lowest = std::numeric_limits<double>::infinity();
  if (spec.contacts.empty() && spec.geoms.empty()) return lowest;
  for (const auto& [body, height] : lowestParts(compile(spec))) lowest = std::min(lowest, height);
  return lowest;
}

double placeOnGround(ModelSpec& spec) {
  if ((spec.contacts.empty() && spec.geoms.empty()) || spec.bodies.empty() || spec.bodies[0].parent != -1 ||
      spec.bodies[0].joint.type != JointType::Free)
    return 0.0;
  const double lowest = lowestPoint(spec);
  if (!std::isfinite(lowest)) return 0.0;
  const double move = -lowest;
  // the free joint's position is in its joint frame, whose axes are the base's turned by
  // `rotation` (parent -> joint frame)
  BodySpec& root = spec.bodies[0];
  root.freePosition += root.rotation * Vec3(0, 0, move);
  return move;
}

int branchesBelowRoot(const ModelSpec& spec) {
  if ((spec.contacts.empty() && spec.geoms.empty()) || spec.bodies.empty()) return 0;
  const Model model = compile(spec);
  const std::vector<std::pair<int, double>> parts = lowestParts(model);
  Data data(model);
  forwardKinematics(model, data, model.q0);
  const double root = bodyPose(model, data, 0).position.z();
  std::set<int> branches;
  for (auto [b, height] : parts) {
    if (b <= 0 || !(height < root - 1e-9)) continue;
    while (spec.bodies[static_cast<std::size_t>(b)].parent > 0) b = spec.bodies[static_cast<std::size_t>(b)].parent;
    if (spec.bodies[static_cast<std::size_t>(b)].parent == 0) branches.insert(b);
  }
  return static_cast<int>(branches.size());
}

void clampToLimits(ModelSpec& spec, const std::vector<std::string>& names, std::vector<std::string>& notes) {
  const auto nameOf = [&](std::size_t i) {
    return printable(i < names.size() && !names[i].empty() ? names[i] : spec.bodies[i].name);
  };
  // q's index of body i's joint (bodies are in q order, parents first)
  std::vector<int> qIndex;
  int nq = 0;
  for (const BodySpec& b : spec.bodies) {
    qIndex.push_back(nq);
    nq += jointNq(b.joint.type);
  }
  const auto clamp = [&](double& q, const JointLimits& l, std::size_t i, const std::string& where) {
    const bool low = l.lower && q < *l.lower, high = l.upper && q > *l.upper;
    if (!low && !high) return;
    const char* side = low ? "lower" : "upper";
    const double to = low ? *l.lower : *l.upper;
    notes.push_back(where + "joint '" + nameOf(i) + "' starts at " + num(q) + ", outside its limits: moved to its " +
                    side + " limit " + num(to) + " (its stop would do it in the first step, adding energy)");
    q = to;
  };
  for (std::size_t i = 0; i < spec.bodies.size(); ++i) {
    BodySpec& b = spec.bodies[i];
    if (hasQuaternion(b.joint.type)) continue;
    clamp(b.q0, b.limits, i, "");
    for (KeyframeSpec& key : spec.keyframes)
      if (key.q.size() == nq) clamp(key.q(qIndex[i]), b.limits, i, "keyframe '" + printable(key.name) + "': ");
  }
}

}  // namespace art::robot
