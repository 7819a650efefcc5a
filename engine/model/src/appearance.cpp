// Interpreter for spatial_v2 drawing instruction lists (showmotion spec section 2).
#include "articulate/model/appearance.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

namespace art {

namespace {

using nlohmann::json;

const double kDefaultColours[12][3] = {
    {0.8, 0.1, 0.1},  {0.8, 0.4, 0.1}, {0.8, 0.7, 0.1},  {0.25, 0.6, 0},
    {0, 0.38, 0.25},  {0.4, 0.65, 0.8}, {0.1, 0.3, 0.75}, {0.5, 0.1, 0.8},
    {0.8, 0.45, 0.7}, {0.8, 0.1, 0.6}, {0.6, 0.6, 0.55}, {0.4, 0.3, 0.2}};

const std::map<std::string, int> kArity{{"box", 1},      {"cyl", 2},      {"sphere", 2},
                                        {"colour", 1},   {"facets", 1},   {"vertices", 1},
                                        {"line", 1},     {"triangles", 1}, {"tiles", 2},
                                        {"mesh", 1},     {"opacity", 1}};

struct Context {
  Vec3 colour;
  std::optional<Vec3> colour2;
  double opacity = 1.0;
  int facets = 24;
  std::vector<Vec3> vertices;
};

class Interpreter {
 public:
  Interpreter(bool isBase, Diagnostics* problems, const AppearanceLimits& limits)
      : m_isBase(isBase), m_problems(problems), m_limits(limits) {}

  void list(const json& l, Context ctx, const std::string& path, int depth) {
    if (!l.is_array()) {
      fail(path, "expected a list of drawing instructions, got " + std::string(l.type_name()));
      return;
    }
    if (depth > m_limits.maxDepth) {
      fail(path, "sub-lists nested deeper than " + std::to_string(m_limits.maxDepth));
      return;
    }
    for (std::size_t k = 0; k < l.size(); ++k) {
      const std::string at = path + "[" + std::to_string(k) + "]";
      const json& e = l[k];
      if (e.is_array()) {
        list(e, ctx, at, depth + 1);  // changes inside a sub-list stay local
        continue;
      }
      if (!e.is_string()) {
        fail(at, "expected an instruction name or a sub-list, got " + std::string(e.type_name()));
        continue;
      }
      const std::string name = e.get<std::string>();
      const auto arity = kArity.find(name);
      if (arity == kArity.end()) {
        fail(at, "'" + name + "' is not a drawing instruction (box, cyl, sphere, colour, "
                              "facets, vertices, line, triangles, tiles, mesh)");
        return;  // the arguments that follow cannot be told from instructions
      }
      const int n = arity->second;
      if (k + n >= l.size()) {
        fail(at, "'" + name + "' needs " + std::to_string(n) + " argument" + (n > 1 ? "s" : ""));
        return;
      }
      instruction(name, l, k, ctx, at);
      k += n;
    }
  }

  std::vector<Primitive> result;

 private:
  bool m_isBase;
  Diagnostics* m_problems;
  AppearanceLimits m_limits;

  void fail(const std::string& path, const std::string& msg) {
    if (m_problems) m_problems->push_back({path, msg});
  }

  static bool num(const json& j, double& out) {
    if (!j.is_number()) return false;
    out = j.get<double>();
    return std::isfinite(out);
  }

  // an N x cols numeric matrix; a flat row is accepted as one row (MATLAB writes 1xN that way)
  bool rows(const json& j, int cols, std::vector<Eigen::VectorXd>& out, std::size_t maxRows) {
    out.clear();
    if (!j.is_array() || j.empty()) return false;
    if (j[0].is_number()) {
      if (j.size() != static_cast<std::size_t>(cols)) return false;
      Eigen::VectorXd r(cols);
      for (int c = 0; c < cols; ++c)
        if (!num(j[c], r(c))) return false;
      out.push_back(r);
      return true;
    }
    if (j.size() > maxRows) return false;
    for (const json& row : j) {
      if (!row.is_array() || row.size() != static_cast<std::size_t>(cols)) return false;
      Eigen::VectorXd r(cols);
      for (int c = 0; c < cols; ++c)
        if (!num(row[c], r(c))) return false;
      out.push_back(r);
    }
    return true;
  }

  bool points(const json& j, std::size_t n, std::vector<Vec3>& out, std::size_t maxRows) {
    std::vector<Eigen::VectorXd> r;
    if (!rows(j, 3, r, maxRows)) return false;
    if (n && r.size() != n) return false;
    out.clear();
    for (const auto& v : r) out.push_back(v);
    return true;
  }

  Primitive make(Primitive::Kind kind, const Context& ctx, const std::string& path) {
    Primitive p;
    p.kind = kind;
    p.colour = ctx.colour;
    p.colour2 = ctx.colour2;
    p.opacity = ctx.opacity;
    p.facets = ctx.facets;
    p.path = path;
    return p;
  }

  // 1-based vertex indices into the current vertex list
  bool indices(const json& j, const Context& ctx, std::vector<int>& out, const std::string& at) {
    out.clear();
    for (const json& v : j) {
      double d;
      if (!num(v, d) || d != std::floor(d)) {
        fail(at, "vertex indices must be integers");
        return false;
      }
      if (d < 1 || d > static_cast<double>(ctx.vertices.size())) {
        std::ostringstream s;
        s.precision(17);
        s << "vertex index " << d << " is outside 1.." << ctx.vertices.size()
          << " (the current vertex list)";
        fail(at, s.str());
        return false;
      }
      out.push_back(static_cast<int>(d) - 1);
    }
    return true;
  }

  // "mesh", {"file": F, "scale": s | [sx, sy, sz], "position": [x, y, z], "rotation": 3 rows,
  // "colour": "file" | "context"}
  void mesh(const json& a, const Context& ctx, const std::string& at) {
    if (!a.is_object()) return fail(at, "'mesh' needs {\"file\": ..., \"scale\": ..., \"position\": ..., \"rotation\": ...}");
    for (const auto& [key, value] : a.items())
      if (key != "file" && key != "scale" && key != "position" && key != "rotation" && key != "colour")
        return fail(at + "." + key, "is not a field of 'mesh' (file, scale, position, rotation, colour)");
    Primitive p = make(Primitive::Kind::Mesh, ctx, at);
    if (!a.contains("file") || !a["file"].is_string() || a["file"].get<std::string>().empty())
      return fail(at + ".file", "'mesh' needs a file name (a path relative to the model file, or absolute)");
    p.file = a["file"].get<std::string>();
    if (a.contains("scale")) {
      double s = 0;
      std::vector<Vec3> v;
      if (num(a["scale"], s)) {
        p.scale = Vec3::Constant(s);
      } else if (points(json::array({a["scale"]}), 1, v, 1)) {
        p.scale = v[0];
      } else {
        return fail(at + ".scale", "expected a number or [sx, sy, sz]");
      }
      if (!(p.scale.array() != 0).all()) return fail(at + ".scale", "must not be zero along an axis");
    }
    p.points = {Vec3::Zero()};
    if (a.contains("position") && !points(json::array({a["position"]}), 1, p.points, 1))
      return fail(at + ".position", "expected [x, y, z]");
    if (a.contains("rotation")) {
      std::vector<Eigen::VectorXd> r;
      if (!rows(a["rotation"], 3, r, 3) || r.size() != 3) return fail(at + ".rotation", "expected 3 rows of 3 numbers");
      for (int i = 0; i < 3; ++i) p.rotation.row(i) = r[static_cast<std::size_t>(i)].transpose();
      if ((p.rotation * p.rotation.transpose() - Mat3::Identity()).cwiseAbs().maxCoeff() > 1e-6 || p.rotation.determinant() < 0)
        return fail(at + ".rotation", "is not a rotation matrix");
    }
    if (a.contains("colour")) {
      if (a["colour"] != "file" && a["colour"] != "context")
        return fail(at + ".colour", "expected \"file\" (the file's materials) or \"context\" (the current colour)");
      p.fileColours = a["colour"] == "file";
    }
    result.push_back(std::move(p));
  }

  void instruction(const std::string& name, const json& l, std::size_t k, Context& ctx,
                   const std::string& at) {
    const json& a1 = l[k + 1];
    const json* a2 = kArity.at(name) > 1 ? &l[k + 2] : nullptr;
    double r = 0;
    if (name == "box") {
      Primitive p = make(Primitive::Kind::Box, ctx, at);
      if (!points(a1, 2, p.points, 2)) return fail(at, "'box' needs [[x1, y1, z1], [x2, y2, z2]]");
      if (((p.points[1] - p.points[0]).array() == 0).any())
        return fail(at, "'box' has zero extent along an axis");
      result.push_back(std::move(p));
    } else if (name == "cyl") {
      Primitive p = make(Primitive::Kind::Cylinder, ctx, at);
      if (!points(a1, 2, p.points, 2))
        return fail(at, "'cyl' needs [[x1, y1, z1], [x2, y2, z2]] (end-face centres)");
      if (!num(*a2, r) || r <= 0) return fail(at, "'cyl' radius must be a number > 0");
      if (p.points[0] == p.points[1]) return fail(at, "'cyl' end-face centres coincide");
      p.radius = r;
      result.push_back(std::move(p));
    } else if (name == "sphere") {
      Primitive p = make(Primitive::Kind::Sphere, ctx, at);
      if (!points(a1, 1, p.points, 1)) return fail(at, "'sphere' needs a centre [x, y, z]");
      if (!num(*a2, r) || r <= 0) return fail(at, "'sphere' radius must be a number > 0");
      p.radius = r;
      result.push_back(std::move(p));
    } else if (name == "colour") {
      std::vector<Vec3> c;
      if (!points(a1, 0, c, 2))
        return fail(at, "'colour' needs [r, g, b] or [[r, g, b], [r, g, b]]");
      for (const Vec3& row : c)
        if ((row.array() < 0).any() || (row.array() > 1).any())
          return fail(at, "'colour' components must be in [0, 1]");
      ctx.colour = c[0];
      ctx.colour2 = c.size() > 1 ? std::optional<Vec3>(c[1]) : std::nullopt;
    } else if (name == "opacity") {
      if (!num(a1, r) || !(r >= 0 && r <= 1)) return fail(at, "'opacity' must be a number in [0, 1]");
      ctx.opacity = r;
    } else if (name == "facets") {
      if (!num(a1, r) || r != std::floor(r) || r < 3 || r > m_limits.maxFacets)
        return fail(at, "'facets' must be an integer from 3 to " + std::to_string(m_limits.maxFacets));
      ctx.facets = static_cast<int>(r);
    } else if (name == "vertices") {
      std::vector<Vec3> v;
      if (!points(a1, 0, v, m_limits.maxVertices) || v.size() < 2)
        return fail(at, "'vertices' needs N >= 2 points [[x, y, z], ...] (at most " +
                            std::to_string(m_limits.maxVertices) + ")");
      ctx.vertices = std::move(v);
    } else if (name == "line") {
      Primitive p = make(Primitive::Kind::Line, ctx, at);
      if (a1.is_array() && !a1.empty() && a1[0].is_array()) {
        if (!points(a1, 0, p.points, m_limits.maxVertices) || p.points.size() < 2)
          return fail(at, "'line' needs N >= 2 points [[x, y, z], ...]");
      } else {
        std::vector<int> idx;
        if (!a1.is_array() || a1.size() < 2)
          return fail(at, "'line' needs N >= 2 points or >= 2 vertex indices");
        if (a1.size() > m_limits.maxVertices) return fail(at, "'line' has too many indices");
        if (!indices(a1, ctx, idx, at)) return;
        for (int i : idx) p.points.push_back(ctx.vertices[i]);
      }
      result.push_back(std::move(p));
    } else if (name == "triangles") {
      Primitive p = make(Primitive::Kind::Triangles, ctx, at);
      std::vector<Eigen::VectorXd> t;
      if (!rows(a1, 3, t, m_limits.maxVertices))
        return fail(at, "'triangles' needs M x 3 vertex indices [[i, j, k], ...]");
      p.points = ctx.vertices;
      for (const auto& tri : t) {
        json row = {tri(0), tri(1), tri(2)};
        std::vector<int> idx;
        if (!indices(row, ctx, idx, at)) return;
        const Vec3 n = (ctx.vertices[idx[1]] - ctx.vertices[idx[0]])
                           .cross(ctx.vertices[idx[2]] - ctx.vertices[idx[0]]);
        if (idx[0] == idx[1] || idx[1] == idx[2] || idx[0] == idx[2] || n.norm() == 0.0)
          return fail(at, "'triangles' has a degenerate triangle");
        p.triangles.push_back({idx[0], idx[1], idx[2]});
      }
      result.push_back(std::move(p));
    } else if (name == "mesh") {
      mesh(a1, ctx, at);
    } else if (name == "tiles") {
      if (!m_isBase) return fail(at, "'tiles' is only allowed in the base's appearance");
      Primitive p = make(Primitive::Kind::Tiles, ctx, at);
      std::vector<Eigen::VectorXd> rg;
      if (!rows(a1, 2, rg, 3) || rg.size() != 3)
        return fail(at, "'tiles' needs [[x0, x1], [y0, y1], [z0, z1]]");
      if (!num(*a2, r) || r <= 0) return fail(at, "'tiles' size must be a number > 0");
      int flat = 0;
      double count = 1;
      for (int i = 0; i < 3; ++i) {
        p.range.row(i) = rg[i].transpose();
        if (rg[i](1) <= rg[i](0))
          ++flat;
        else
          count *= std::max(1.0, (rg[i](1) - rg[i](0)) / r);
      }
      if (flat != 1)
        return fail(at, "'tiles' needs exactly one range with x1 <= x0 (the floor's normal)");
      if (count > m_limits.maxTiles)
        return fail(at, "'tiles' would draw more than " + std::to_string(static_cast<long>(m_limits.maxTiles)) +
                            " tiles");
      p.size = r;
      result.push_back(std::move(p));
    }
  }
};

}  // namespace

Vec3 defaultBodyColour(int bodyNumber) {
  const int row = bodyNumber <= 0 ? 11 : (bodyNumber - 1) % 12;
  return Vec3(kDefaultColours[row][0], kDefaultColours[row][1], kDefaultColours[row][2]);
}

std::vector<Primitive> interpretAppearance(const json& list, const Vec3& defaultColour,
                                           bool isBase, const std::string& path,
                                           Diagnostics* problems, const AppearanceLimits& limits) {
  Interpreter in(isBase, problems, limits);
  Context ctx;
  ctx.colour = defaultColour;
  in.list(list, ctx, path, 0);
  return std::move(in.result);
}

int instructionArity(const std::string& name) {
  const auto it = kArity.find(name);
  return it == kArity.end() ? -1 : it->second;
}

std::size_t drawingTriangles(const Primitive& p) {
  const auto f = static_cast<std::size_t>(std::max(p.facets, 4) + 3) / 4 * 4;  // as the viewport rounds
  switch (p.kind) {
    case Primitive::Kind::Box: return 12;
    case Primitive::Kind::Cylinder: return 4 * f;
    case Primitive::Kind::Sphere: return f * f;
    case Primitive::Kind::Triangles: return 2 * p.triangles.size();
    case Primitive::Kind::Tiles: {
      double tiles = 1;
      for (int i = 0; i < 3; ++i)
        if (p.range(i, 1) > p.range(i, 0)) tiles *= std::max(1.0, std::ceil((p.range(i, 1) - p.range(i, 0)) / p.size));
      return static_cast<std::size_t>(std::min(2 * tiles, 1e18));
    }
    case Primitive::Kind::Line:
    case Primitive::Kind::Mesh: return 0;
  }
  return 0;
}

}  // namespace art
