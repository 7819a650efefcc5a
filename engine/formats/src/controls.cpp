// Control time tables from CSV (controls.h).
#include "articulate/formats/controls.h"

#include <charconv>
#include <cmath>
#include <map>
#include <sstream>

#include "articulate/formats/files.h"
#include "articulate/formats/json.h"
#include "robot_import.h"

namespace art {

namespace {

std::vector<std::string> cells(const std::string& line) {
  std::vector<std::string> out;
  std::string cell;
  std::istringstream in(line);
  while (std::getline(in, cell, ',')) {
    const auto a = cell.find_first_not_of(" \t\r"), b = cell.find_last_not_of(" \t\r");
    out.push_back(a == std::string::npos ? std::string() : cell.substr(a, b - a + 1));
  }
  if (!line.empty() && line.back() == ',') out.emplace_back();
  return out;
}

}  // namespace

ControlTable readControlTable(const std::string& text, const std::string& source,
                              const std::vector<ActuatorSpec>& actuators) {
  std::map<std::string, int> byName;
  for (std::size_t k = 0; k < actuators.size(); ++k) {
    const std::string& n = actuators[k].name;
    byName[n.empty() ? "actuator " + std::to_string(k) : n] = static_cast<int>(k);
  }
  const auto known = [&] {
    std::string list;
    for (const auto& [name, k] : byName) list += (list.empty() ? "" : ", ") + robot::printable(name);
    return list.empty() ? std::string("none") : list;
  };
  ControlTable table;
  std::istringstream in(text);
  std::string line;
  int lineNo = 0;
  bool header = false;
  std::vector<std::vector<double>> rows;
  while (std::getline(in, line)) {
    ++lineNo;
    if (line.find_first_not_of(" \t\r") == std::string::npos || line[line.find_first_not_of(" \t\r")] == '#') continue;
    const std::vector<std::string> c = cells(line);
    const std::string where = "line " + std::to_string(lineNo);
    if (!header) {
      if (c.empty() || c[0] != "t") throw FormatError(source, where + ": the first column must be 't' (s)");
      if (c.size() < 2)  // a table of times alone drives nothing: surely not what was meant
        throw FormatError(source, where + ": no actuator column after 't' (its actuators: " + known() + ")");
      std::map<int, std::size_t> seen;
      for (std::size_t j = 1; j < c.size(); ++j) {
        const auto it = byName.find(c[j]);
        if (it == byName.end())
          throw FormatError(source, where + ", column " + std::to_string(j + 1) + ": '" + robot::printable(c[j]) +
                                        "' is not an actuator of the model (its actuators: " + known() + ")");
        if (seen.count(it->second))
          throw FormatError(source, where + ", column " + std::to_string(j + 1) + ": actuator '" + robot::printable(c[j]) +
                                        "' has a column already");
        seen[it->second] = j;
        table.columns.push_back(it->second);
      }
      header = true;
      continue;
    }
    if (c.size() != table.columns.size() + 1)
      throw FormatError(source, where + ": " + std::to_string(c.size()) + " values, the header has " +
                                    std::to_string(table.columns.size() + 1));
    std::vector<double> row;
    for (std::size_t j = 0; j < c.size(); ++j) {
      double v = 0;
      const auto r = std::from_chars(c[j].data(), c[j].data() + c[j].size(), v);
      if (c[j].empty() || r.ec != std::errc() || r.ptr != c[j].data() + c[j].size() || !std::isfinite(v))
        throw FormatError(source, where + ", column " + std::to_string(j + 1) + ": '" + robot::printable(c[j]) +
                                      "' is not a finite number");
      row.push_back(v);
    }
    if (!table.times.empty() && !(row[0] > table.times.back()))
      throw FormatError(source, where + ": time " + robot::num(row[0]) + " s does not come after " +
                                    robot::num(table.times.back()) + " s");
    table.times.push_back(row[0]);
    rows.push_back(std::move(row));
  }
  if (!header) throw FormatError(source, "no header line 't,ACTUATOR,...'");
  if (rows.empty()) throw FormatError(source, "no rows of controls after the header");
  table.values.resize(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(table.columns.size()));
  for (std::size_t r = 0; r < rows.size(); ++r)
    for (std::size_t j = 0; j < table.columns.size(); ++j)
      table.values(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(j)) = rows[r][j + 1];
  return table;
}

ControlTable loadControlTable(const std::string& path, const std::vector<ActuatorSpec>& actuators) {
  return readControlTable(readTextFile(path), path, actuators);
}

}  // namespace art
