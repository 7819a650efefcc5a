#pragma once
// Pieces of the Articulate format's reader and writer shared by its files (articulate.cpp, and
// articulate_actuation.cpp for tendons and actuators).

#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "articulate/formats/json.h"
#include "articulate/model/spec.h"

namespace art::detail {

/// The body index a JSON body name gives (-1 for "base" where baseAllowed), else -2 with the
/// problem recorded in rd.
int resolveBody(JsonReader& rd, const nlohmann::json& j, const std::map<std::string, int>& names,
                const std::string& path, bool baseAllowed);
/// A vector or matrix (row by row) as JSON numbers.
nlohmann::ordered_json vecJson(const Eigen::VectorXd& v);
nlohmann::ordered_json matJson(const Eigen::MatrixXd& M);
/// A body's name in files ("base" for -1).
std::string bodyName(const ModelSpec& s, int b);

/// "tendons" and "actuators" of a model as the writer puts them (empty arrays when none).
nlohmann::ordered_json tendonsJson(const ModelSpec& s);
nlohmann::ordered_json actuatorsJson(const ModelSpec& s);
/// Reads "tendons" and "actuators" into out (after its bodies and sites), every problem into rd.
void readTendons(JsonReader& rd, const nlohmann::json& j, const std::map<std::string, int>& bodies, ModelSpec& out);
void readActuators(JsonReader& rd, const nlohmann::json& j, const std::map<std::string, int>& bodies, ModelSpec& out);

}  // namespace art::detail
