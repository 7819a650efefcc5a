#pragma once
// What the tests that hold Articulate against another engine share: running a command (the CLI
// or a reference program) for its JSON output, numbers written exactly, and writing a file.
#include <QtTest>

#include <algorithm>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_util.h"

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

/// A random state of the tree whose `coordinates` are `articulate-cli dynamics --json`'s: q
/// uniform in [-1.5, 1.5] with each free or ball joint's quaternion normalised, then qd uniform
/// in [-2, 2], both drawn from `rng` in that order.
inline void randomJointState(const nlohmann::json& coordinates, std::mt19937& rng, std::vector<double>& q,
                             std::vector<double>& qd) {
  int nq = 0, nv = 0;
  std::vector<std::size_t> quatAt;  // q index of each free or ball joint's quaternion
  for (const nlohmann::json& c : coordinates) {
    if (c["type"] == "free") quatAt.push_back(static_cast<std::size_t>(nq + 3));
    if (c["type"] == "ball") quatAt.push_back(static_cast<std::size_t>(nq));
    nq += c["size"].get<int>();
    nv += c["velocity_size"].get<int>();
  }
  const Eigen::VectorXd qv = randomVector(nq, rng, -1.5, 1.5);
  q.assign(qv.data(), qv.data() + qv.size());
  for (std::size_t k : quatAt) {
    const Eigen::Vector4d w = Eigen::Vector4d(q[k], q[k + 1], q[k + 2], q[k + 3]).normalized();
    for (std::size_t i = 0; i < 4; ++i) q[k + i] = w(static_cast<Eigen::Index>(i));
  }
  const Eigen::VectorXd qdv = randomVector(nv, rng, -2, 2);
  qd.assign(qdv.data(), qdv.data() + qdv.size());
}

/// How far a reference program's H and bias (`ref`: "coordinates" {"joint", "index"} per
/// degree of freedom, "H", "bias") lie from `articulate-cli dynamics --json`'s (`art`), its
/// coordinates matched to Articulate's by joint name: H relative to its largest entry, bias to
/// max(1, its largest). False, saying why, when the coordinates do not match.
inline bool inertiaBiasGaps(const nlohmann::json& art, const nlohmann::json& ref, double& gapH, double& gapBias,
                            std::string& why) {
  const int nv = art["nv"];
  if (static_cast<int>(ref["coordinates"].size()) != nv) {
    why = "the reference has " + std::to_string(ref["coordinates"].size()) + " coordinates for " + std::to_string(nv);
    return false;
  }
  std::map<std::string, int> offset;
  int at = 0;
  for (const nlohmann::json& c : art["coordinates"]) {
    offset[c["joint"].get<std::string>()] = at;
    at += c["velocity_size"].get<int>();
  }
  std::vector<int> index;  // the reference's dof k -> Articulate's velocity index
  for (const nlohmann::json& c : ref["coordinates"]) {
    const auto o = offset.find(c["joint"].get<std::string>());
    if (o == offset.end()) {
      why = "no joint of Articulate's is " + c.dump();
      return false;
    }
    index.push_back(o->second + c["index"].get<int>());
  }
  Eigen::MatrixXd Ha(nv, nv), Hm(nv, nv);
  Eigen::VectorXd ba(nv), bm(nv);
  for (int r = 0; r < nv; ++r) {
    const auto R = static_cast<std::size_t>(r);
    ba(r) = art["bias"][R];
    bm(index[R]) = ref["bias"][R];
    for (int c = 0; c < nv; ++c) {
      const auto C = static_cast<std::size_t>(c);
      Ha(r, c) = art["H"][R][C];
      Hm(index[R], index[C]) = ref["H"][R][C];
    }
  }
  gapH = (Hm - Ha).cwiseAbs().maxCoeff() / Ha.cwiseAbs().maxCoeff();
  gapBias = (bm - ba).cwiseAbs().maxCoeff() / std::max(1.0, ba.cwiseAbs().maxCoeff());
  return true;
}

}  // namespace testutil
