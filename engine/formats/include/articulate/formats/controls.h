#pragma once
// Control time tables from CSV files: scripted input for a model's actuators
// (`articulate-cli simulate --ctrl FILE`, the app's Simulation > Load Controls).

#include <string>

#include "articulate/dynamics/actuation.h"
#include "articulate/model/spec.h"

namespace art {

/// Reads a control table (actuation.h) for `actuators` (a model's) from CSV text: a header
/// `t,NAME,...` naming one actuator per column (its name; an unnamed one as `actuator K`, K its index), then one row
/// per time, times strictly increasing (s), every number finite. Blank lines and lines starting
/// with `#` are skipped. Throws FormatError naming `source`, the line and the column for an
/// unknown or repeated actuator column, a missing `t` column, a header without actuator columns, a row of the wrong length, a
/// number that does not read, or times that do not increase.
ControlTable readControlTable(const std::string& text, const std::string& source,
                              const std::vector<ActuatorSpec>& actuators);
/// Reads the file at `path` (files.h's limits) with readControlTable.
ControlTable loadControlTable(const std::string& path, const std::vector<ActuatorSpec>& actuators);

}  // namespace art
