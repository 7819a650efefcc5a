// The JSON primitives every format shares: the error-collecting reader and the writer.
#include "articulate/formats/json.h"

#include <cmath>
#include <optional>
#include <sstream>

namespace art {

using nlohmann::json;
using ojson = nlohmann::ordered_json;

std::string problemList(const Diagnostics& problems) {
  std::string text;
  for (std::size_t k = 0; k < problems.size(); ++k) text += (k ? "\n" : "") + problems[k].text();
  return std::to_string(problems.size()) + " problem" + (problems.size() > 1 ? "s" : "") + ":\n" +
         text;
}

const char* JsonReader::typeName(const json& j) { return j.is_null() ? "null" : j.type_name(); }

bool JsonReader::number(const json& j, const std::string& path, double& out) {
  if (!j.is_number()) {
    fail(path, detailed() ? std::string("expected a number, got ") + typeName(j) : "expected a number");
    return false;
  }
  out = j.get<double>();
  if (!std::isfinite(out)) {
    fail(path, "must be finite");
    return false;
  }
  return true;
}

bool JsonReader::nonNegative(const json& j, const std::string& path, double& out, bool strict) {
  if (!number(j, path, out)) return false;
  if (strict ? !(out > 0) : out < 0) {
    fail(path, strict ? "must be > 0" : "must be >= 0");
    return false;
  }
  return true;
}

bool JsonReader::boolean(const json& j, const std::string& path, bool& out) {
  if (!j.is_boolean()) {
    fail(path, std::string("expected true or false, got ") + typeName(j));
    return false;
  }
  out = j.get<bool>();
  return true;
}

bool JsonReader::string(const json& j, const std::string& path, std::string& out) {
  if (!j.is_string()) {
    fail(path, detailed() ? std::string("expected a string, got ") + typeName(j) : "expected a string");
    return false;
  }
  out = j.get<std::string>();
  return true;
}

bool JsonReader::vector(const json& j, int n, const std::string& path, Eigen::VectorXd& out) {
  if (!j.is_array() || j.size() != static_cast<std::size_t>(n)) {
    fail(path, "expected " + std::to_string(n) + " numbers");
    return false;
  }
  out.resize(n);
  bool ok = true;
  for (int i = 0; i < n; ++i) ok = number(j[static_cast<std::size_t>(i)], jsonIndex(path, static_cast<std::size_t>(i)), out(i)) && ok;
  return ok;
}

bool JsonReader::vector(const json& j, int n, const std::string& path, Eigen::Vector3d& out) {
  Eigen::VectorXd v;
  if (!vector(j, n, path, v)) return false;
  out.head(n) = v;
  return true;
}

bool JsonReader::vec3(const json& j, const std::string& path, Eigen::Vector3d& out) {
  return vector(j, 3, path, out);
}

bool JsonReader::matrix(const json& j, int r, int c, const std::string& path, Eigen::MatrixXd& out) {
  const std::string shape = std::to_string(r) + "x" + std::to_string(c);
  if (!j.is_array() || j.size() != static_cast<std::size_t>(r)) {
    fail(path, "expected a " + shape + " matrix (" + std::to_string(r) + " rows)");
    return false;
  }
  out.resize(r, c);
  bool ok = true;
  for (int i = 0; i < r; ++i) {
    Eigen::VectorXd row;
    if (!vector(j[static_cast<std::size_t>(i)], c, jsonIndex(path, static_cast<std::size_t>(i)), row)) {
      ok = false;
      continue;
    }
    out.row(i) = row.transpose();
  }
  return ok;
}

bool JsonReader::matrix3(const json& j, const std::string& path, Eigen::Matrix3d& out) {
  Eigen::MatrixXd m;
  if (!matrix(j, 3, 3, path, m)) return false;
  out = m;
  return true;
}

bool JsonReader::object(const json& j, const std::string& path, std::initializer_list<const char*> known) {
  if (!j.is_object()) {
    fail(path, detailed() ? std::string("expected an object, got ") + typeName(j) : "expected an object");
    return false;
  }
  for (auto it = j.begin(); it != j.end(); ++it) {
    bool found = false;
    for (const char* k : known) found = found || it.key() == k;
    if (found) continue;
    if (!detailed()) {
      fail(jsonField(path, it.key()), "unknown field");
      continue;
    }
    std::string list;
    for (const char* k : known) list += (list.empty() ? "" : ", ") + std::string(k);
    fail(jsonField(path, it.key()), "unknown field (expected one of: " + list + ")");
  }
  return true;
}

namespace {

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

}  // namespace art
