#pragma once
// The MJCF reader's tendons and actuators (mjcf_actuation.cpp), read after the world's bodies,
// sites and geoms from what mjcf.cpp learnt of them.

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <tinyxml2.h>

#include "articulate/formats/json.h"
#include "articulate/model/spec.h"

namespace art::mjcf {

using Attrs = std::map<std::string, std::string>;

/// A named geom that a spatial tendon may wrap around: its owner body (-1: the base), placement
/// in the owner's coordinates, type and first size.
struct NamedGeom {
  int owner = -1;
  Mat3 R = Mat3::Identity();
  Vec3 p = Vec3::Zero();
  std::string type;
  double radius = 0.0;
};

/// What the tendon and actuator readers need from the rest of the MJCF reader.
using Fail = std::function<FormatError(const tinyxml2::XMLElement*, const std::string&)>;
using Numbers = std::function<std::vector<double>(const tinyxml2::XMLElement*, const std::string&, const std::string&,
                                                  std::size_t, std::size_t)>;

/// "FILE:LINE: <tag name='x'>": where an element is, for notes.
using Where = std::function<std::string(const tinyxml2::XMLElement*)>;

/// Values that MuJoCo clamps or replaces when it uses them, by cause: one note per cause, with
/// how many elements gave such a value and where the first one is.
struct Clamps {
  std::map<std::string, std::pair<int, std::string>> byCause;  // cause -> (count, first where)
  void add(const std::string& cause, const std::string& where);
  /// "N element(s) ...: cause (the first: FILE:LINE: <tag>)", one per cause.
  void appendNotes(std::vector<std::string>& notes) const;
};

/// An element's soft-constraint parameters from its attributes `ref` and `imp` (its own or its
/// class's; spec.h SoftParams), unset when it gives neither. solref takes 1 or 2 numbers, solimp
/// 1 to 5 (older files give dmin dmax width); missing ones keep MuJoCo's defaults. As MuJoCo
/// 3.3.8 (getsolparam): a solref whose two numbers mix the standard form (> 0) and the direct
/// form (<= 0) is replaced by the default 0.02 1, and a solimp outside its ranges is kept as
/// written and clamped where it is used (dmin, dmax and midpoint into [0.0001, 0.9999], width
/// to >= 0, power to >= 1: soft_rows.cpp); both are noted in `clamps`. Throws (through numbers,
/// naming the element) only for text that is not 1 or 2 (1 to 5) finite numbers.
std::optional<SoftParams> softParams(const Numbers& numbers, const Where& where, Clamps& clamps,
                                     const tinyxml2::XMLElement* e, const Attrs& a, const char* ref, const char* imp);

struct Context {
  // "FILE:LINE: <tag name='x'>: reason" as a FormatError
  std::function<FormatError(const tinyxml2::XMLElement*, const std::string&)> fail;
  // an attribute's numbers (least to most of them), or fail
  std::function<std::vector<double>(const tinyxml2::XMLElement*, const std::string&, const std::string&, std::size_t,
                                    std::size_t)>
      numbers;
  bool degrees = true, autolimits = true;
  bool lengthRangeUseLimit = false;  // <compiler><lengthrange uselimit='true'>
  std::map<std::string, int> joints, sites, tendons;  // MJCF name -> index (a joint: its body)
  std::map<std::string, NamedGeom> geoms;
  std::set<std::string> classes;  // the default classes' names
  // per default class: its actuator defaults in the order MuJoCo applies them (the class's
  // parents' first), and its <tendon> defaults
  std::map<std::string, std::vector<std::pair<std::string, Attrs>>> actuatorDefaults;
  std::map<std::string, Attrs> tendonDefaults;
  // the muscles whose length range the reader computes once the model is complete (index in
  // spec.actuators, element): no lengthrange given, none from a limited joint or tendon
  std::vector<std::pair<int, const tinyxml2::XMLElement*>> lengthRanges;
  std::map<std::string, int>* notModelled = nullptr;              // element -> count
  std::map<std::string, std::set<std::string>>* skipped = nullptr;  // element -> attributes
  std::vector<std::string>* notes = nullptr;
  Where where;
  Clamps* clamps = nullptr;
};

/// Whether `tag` is one of MJCF's actuator elements (general, motor, position, ...).
bool isActuatorTag(const std::string& tag);

/// Reads a <tendon> section's <fixed> and <spatial> tendons into spec.tendons (and their names
/// into c.tendons). Throws FormatError naming the file, line and element.
void readTendons(Context& c, const tinyxml2::XMLElement* section, ModelSpec& spec);

/// Reads an <actuator> section into spec.actuators with MuJoCo 2.2.2's shortcut semantics and
/// default classes. Throws FormatError naming the file, line and element.
void readActuators(Context& c, const tinyxml2::XMLElement* section, ModelSpec& spec);

}  // namespace art::mjcf
