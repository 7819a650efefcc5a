#pragma once
// The JSON primitives every format shares: FormatError, the error-collecting JsonReader that
// reports each problem by its JSON path, and the writer that formats JSON for people.

#include <initializer_list>
#include <stdexcept>
#include <string>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include "articulate/model/diagnostics.h"

namespace art {

/// A file that cannot be read as a model. The message starts with the JSON path of the
/// offending value, e.g. "Xtree[2]: expected a 6x6 matrix".
class FormatError : public std::runtime_error {
 public:
  FormatError(const std::string& path, const std::string& reason)
      : std::runtime_error((path.empty() ? std::string("(document)") : path) + ": " + reason),
        m_path(path) {}
  const std::string& path() const { return m_path; }

 private:
  std::string m_path;
};

/// "N problems:" and one Diagnostic::text() per line: the message of a FormatError for a
/// document with problems.
std::string problemList(const Diagnostics& problems);

/// JSON paths as messages write them: "bodies[3]" and "bodies[3].inertia" ("inertia" at the
/// top level).
inline std::string jsonIndex(const std::string& path, std::size_t i) {
  return path + "[" + std::to_string(i) + "]";
}
inline std::string jsonField(const std::string& path, const std::string& field) {
  return path.empty() ? field : path + "." + field;
}

/// Reads JSON values into C++ ones, appending a Diagnostic (the value's JSON path and the
/// reason) and returning false for anything malformed, so that a reader reports every problem
/// of a document at once. Numbers must be finite.
class JsonReader {
 public:
  /// Detailed messages name what was found ("expected a number, got string") and, for an
  /// unknown field, the fields expected; Terse ones do not (the structure format's messages).
  enum class Messages { Detailed, Terse };
  explicit JsonReader(Diagnostics& problems, Messages messages = Messages::Detailed)
      : m_d(problems), m_messages(messages) {}

  /// Records a problem at `path`.
  void fail(const std::string& path, const std::string& message) { m_d.push_back({path, message}); }

  bool number(const nlohmann::json& j, const std::string& path, double& out);
  /// A number >= 0, or > 0 when `strict`.
  bool nonNegative(const nlohmann::json& j, const std::string& path, double& out, bool strict);
  bool boolean(const nlohmann::json& j, const std::string& path, bool& out);
  bool string(const nlohmann::json& j, const std::string& path, std::string& out);
  /// An array of exactly n numbers; into a Vector3d, the first n of its entries.
  bool vector(const nlohmann::json& j, int n, const std::string& path, Eigen::VectorXd& out);
  bool vector(const nlohmann::json& j, int n, const std::string& path, Eigen::Vector3d& out);
  bool vec3(const nlohmann::json& j, const std::string& path, Eigen::Vector3d& out);
  /// An r x c matrix as an array of r rows of c numbers.
  bool matrix(const nlohmann::json& j, int r, int c, const std::string& path, Eigen::MatrixXd& out);
  bool matrix3(const nlohmann::json& j, const std::string& path, Eigen::Matrix3d& out);
  /// An object; each field not in `known` is a problem (the object is still read).
  bool object(const nlohmann::json& j, const std::string& path, std::initializer_list<const char*> known);

  /// "null" or nlohmann's name of the value's type.
  static const char* typeName(const nlohmann::json& j);

 private:
  bool detailed() const { return m_messages == Messages::Detailed; }
  Diagnostics& m_d;
  Messages m_messages;
};

/// Formats JSON for people: objects one field per line (in insertion order for ordered_json),
/// arrays of numbers or of short number rows on one line, other arrays one item per line when
/// they do not fit in 100 columns. Numbers keep the shortest exact form; -0 is written as 0.
std::string formatJson(const nlohmann::ordered_json& value);

/// formatJson's pieces, for writers that stream a document too large to build as JSON: `value`
/// formatted as formatJson does at `indent` spaces, starting at output column `column`,
/// appended to `out`; and one number exactly as formatJson writes it.
void formatJsonInto(const nlohmann::ordered_json& value, int indent, std::size_t column, std::string& out);
std::string formatJsonNumber(double value);

}  // namespace art
