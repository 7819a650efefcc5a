#pragma once
// Pieces of the Articulate format's reader and writer shared by its files (articulate.cpp, and
// articulate_actuation.cpp for tendons and actuators).

#include <map>
#include <optional>
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

/// The soft constraint model's parameters in files (docs/model-format.md, "Physics"): the fields
/// "solref" ([2]) and "solimp" ([5]) of the object `j`, either may be absent and then takes
/// `defaults`' half. With neither, `out` is left as it is; returns false after a problem.
bool readSoftFields(JsonReader& rd, const nlohmann::json& j, const std::string& path, const SoftParams& defaults,
                    std::optional<SoftParams>& out);
/// The fields "solref" and "solimp" of p into j.
void softFieldsJson(const SoftParams& p, nlohmann::ordered_json& j);
/// A body's or tendon's "limit_soft" and "friction_soft" ({"solref", "solimp"}, each optional)
/// and "margin" (>= 0), read from its object `j` at `path` / written into `j` where set.
bool readSoftRows(JsonReader& rd, const nlohmann::json& j, const std::string& path, const SoftParams& defaults,
                  std::optional<SoftParams>& limitSoft, std::optional<SoftParams>& frictionSoft, double& margin);
void softRowsJson(const std::optional<SoftParams>& limitSoft, const std::optional<SoftParams>& frictionSoft, double margin,
                  nlohmann::ordered_json& j);

/// A tendon in files: its name, or its index in "tendons" when it has none.
nlohmann::ordered_json tendonRef(const ModelSpec& s, int tendon);
/// The index of the tendon of out.tendons that j names (a name, or an index), else -2 with the
/// problem recorded in rd.
int resolveTendon(JsonReader& rd, const nlohmann::json& j, const ModelSpec& out, const std::string& path);

/// "tendons" and "actuators" of a model as the writer puts them (empty arrays when none).
nlohmann::ordered_json tendonsJson(const ModelSpec& s);
nlohmann::ordered_json actuatorsJson(const ModelSpec& s);
/// Reads "tendons" and "actuators" into out (after its bodies and sites), every problem into rd.
void readTendons(JsonReader& rd, const nlohmann::json& j, const std::map<std::string, int>& bodies, ModelSpec& out);
void readActuators(JsonReader& rd, const nlohmann::json& j, const std::map<std::string, int>& bodies, ModelSpec& out);

/// Reads "geoms", "contact_pairs" and "contact_excludes" of `doc` into out (after its bodies;
/// articulate_geoms.cpp), every problem into rd.
void readGeoms(JsonReader& rd, const nlohmann::json& doc, const std::map<std::string, int>& bodies, ModelSpec& out);
/// Writes the model's geoms, contact pairs and excludes into `doc` (nothing when there are none).
void geomsJson(const ModelSpec& s, nlohmann::ordered_json& doc);

}  // namespace art::detail
