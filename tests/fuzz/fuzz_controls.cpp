// libFuzzer harness for control tables (CSV: scripted actuator input; see README.md in this
// directory).
//
// The input bytes are a control table's text, read by readControlTable for a model of three
// actuators ('servo', 'push' and an unnamed one, 'actuator 2'), as `articulate-cli simulate
// --ctrl` and the app's Simulation > Load Controls read it. Only FormatError naming the file may
// leave the reader. A table that reads has strictly increasing finite times, one row of finite
// values per time, distinct columns that name actuators, and applied at any time (before,
// between and after its rows) it writes finite controls into its own columns only.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "articulate/formats/controls.h"
#include "articulate/model/diagnostics.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using fuzz::finding;
  static const std::vector<art::ActuatorSpec> actuators = [] {
    std::vector<art::ActuatorSpec> a(3);
    a[0].name = "servo";
    a[1].name = "push";
    return a;
  }();
  const std::string text(reinterpret_cast<const char*>(data), size);
  art::ControlTable table;
  try {
    table = art::readControlTable(text, "ctrl.csv", actuators);
  } catch (const art::FormatError& e) {
    if (std::string(e.what()).rfind("ctrl.csv: ", 0) != 0) finding("a refusal does not name the file", e.what());
    return 0;
  }
  const std::size_t n = table.times.size(), m = table.columns.size();
  if (n == 0 || m == 0 || static_cast<std::size_t>(table.values.rows()) != n ||
      static_cast<std::size_t>(table.values.cols()) != m)
    finding("a table's values do not match its times and columns", std::to_string(n) + " x " + std::to_string(m));
  for (std::size_t k = 0; k < n; ++k)
    if (!std::isfinite(table.times[k]) || (k > 0 && !(table.times[k] > table.times[k - 1])))
      finding("a time is not finite or does not increase", std::to_string(k));
  if (!table.values.allFinite()) finding("a control is not finite", text);
  std::vector<bool> seen(actuators.size(), false);
  for (int c : table.columns) {
    if (c < 0 || c >= static_cast<int>(actuators.size()) || seen[static_cast<std::size_t>(c)])
      finding("a column names no actuator, or one twice", std::to_string(c));
    seen[static_cast<std::size_t>(c)] = true;
  }
  std::vector<double> at = {table.times.front() - 1, table.times.back() + 1};
  for (std::size_t k = 0; k < n; ++k) {
    at.push_back(table.times[k]);
    if (k + 1 < n) at.push_back(0.5 * (table.times[k] + table.times[k + 1]));
  }
  for (double t : at) {
    Eigen::VectorXd ctrl = Eigen::VectorXd::Constant(static_cast<Eigen::Index>(actuators.size()), 7.0);
    table.apply(t, ctrl);
    for (std::size_t a = 0; a < actuators.size(); ++a) {
      const double v = ctrl(static_cast<Eigen::Index>(a));
      if (!seen[a] && v != 7.0) finding("applying wrote an actuator the table has no column for", std::to_string(a));
      if (seen[a] && !std::isfinite(v)) finding("an applied control is not finite", std::to_string(t));
    }
  }
  return 0;
}
