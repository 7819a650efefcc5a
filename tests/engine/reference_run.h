#pragma once
// What the tests that hold Articulate against another engine share: running a command (the CLI
// or a reference program) for its JSON output, numbers written exactly, and writing a file.
#include <QtTest>

#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace testutil {

/// x with 17 significant digits: read back, the same double.
inline std::string num(double x) {
  char b[40];
  std::snprintf(b, sizeof b, "%.17g", x);
  return b;
}

/// Runs `program` with `args` and parses its standard output as JSON; on failure (a crash, an
/// exit status other than 0, a minute passing) warns with its standard error and returns null.
inline nlohmann::json runJson(const QString& program, const QStringList& args) {
  QProcess p;
  p.start(program, args);
  if (!p.waitForFinished(60000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
    qWarning().noquote() << program << args.join(' ') << "failed:" << p.readAllStandardError();
    return nlohmann::json();
  }
  return nlohmann::json::parse(p.readAllStandardOutput().toStdString(), nullptr, false);
}

/// "a,b,c": the numbers as the CLI's list options take them.
inline QString list(const std::vector<double>& v) {
  QStringList out;
  for (double x : v) out << QString::fromStdString(num(x));
  return out.join(',');
}

/// Writes `text` to `path`; false when it cannot.
inline bool writeFile(const QString& path, const std::string& text) {
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly)) return false;
  f.write(text.c_str(), static_cast<qint64>(text.size()));
  return true;
}

/// The reference programs' state file: {"joints": [{"joint", "q", "qd"}]}, each joint of
/// `coordinates` (`articulate-cli dynamics --json`'s, in q order) with its slice of q and qd.
inline nlohmann::json jointStates(const nlohmann::json& coordinates, const std::vector<double>& q,
                                  const std::vector<double>& qd) {
  nlohmann::json state = {{"joints", nlohmann::json::array()}};
  std::size_t qi = 0, vi = 0;
  for (const nlohmann::json& c : coordinates) {
    const std::size_t n = c["size"], m = c["velocity_size"];
    state["joints"].push_back({{"joint", c["joint"]},
                               {"q", std::vector<double>(q.begin() + static_cast<std::ptrdiff_t>(qi),
                                                         q.begin() + static_cast<std::ptrdiff_t>(qi + n))},
                               {"qd", std::vector<double>(qd.begin() + static_cast<std::ptrdiff_t>(vi),
                                                          qd.begin() + static_cast<std::ptrdiff_t>(vi + m))}});
    qi += n;
    vi += m;
  }
  return state;
}

}  // namespace testutil
