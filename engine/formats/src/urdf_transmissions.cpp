// URDF transmissions as actuators (urdf_transmissions.h).
#include "urdf_transmissions.h"

#include <map>

#include <tinyxml.h>

#include "articulate/dynamics/servos.h"
#include "articulate/model/model.h"
#include "robot_import.h"

namespace art::urdf_io {

namespace {

enum class Interface { Effort, Position, Velocity, Unknown };

Interface interfaceOf(const std::string& text) {
  // "hardware_interface/EffortJointInterface", or the bare name
  if (text.find("EffortJointInterface") != std::string::npos) return Interface::Effort;
  if (text.find("PositionJointInterface") != std::string::npos) return Interface::Position;
  if (text.find("VelocityJointInterface") != std::string::npos) return Interface::Velocity;
  return Interface::Unknown;
}

std::string textOf(const TiXmlElement* e) { return e && e->GetText() ? std::string(e->GetText()) : std::string(); }

std::string trimmed(std::string s) {
  const auto a = s.find_first_not_of(" \t\r\n"), b = s.find_last_not_of(" \t\r\n");
  return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

}  // namespace

void readTransmissions(const std::string& xml, const std::vector<std::string>& jointNames, ModelSpec& spec,
                       std::vector<std::string>& notes) {
  TiXmlDocument doc;
  doc.Parse(xml.c_str());
  const TiXmlElement* robot = doc.FirstChildElement("robot");
  if (!robot) return;
  std::map<std::string, int> bodyOf;
  for (std::size_t i = 0; i < jointNames.size() && i < spec.bodies.size(); ++i)
    if (!jointNames[i].empty()) bodyOf[jointNames[i]] = static_cast<int>(i);
  std::vector<std::string> left;
  // the servos are tuned at the initial pose, after every transmission is known
  struct Servo {
    int body;
    double gear;
    bool velocity;
  };
  std::vector<Servo> servos;
  for (const TiXmlElement* t = robot->FirstChildElement("transmission"); t; t = t->NextSiblingElement("transmission")) {
    const std::string name = t->Attribute("name") ? t->Attribute("name") : "";
    const std::string label = "transmission '" + robot::printable(name) + "'";
    std::string type = trimmed(textOf(t->FirstChildElement("type")));
    if (type.empty() && t->Attribute("type")) type = t->Attribute("type");
    if (type.find("SimpleTransmission") == std::string::npos) {
      left.push_back(label + " (type '" + robot::printable(type) + "': only SimpleTransmission is read)");
      continue;
    }
    const TiXmlElement* joint = t->FirstChildElement("joint");
    if (!joint || joint->NextSiblingElement("joint")) {
      left.push_back(label + " (a SimpleTransmission drives one joint)");
      continue;
    }
    const std::string jointName = joint->Attribute("name") ? joint->Attribute("name") : "";
    const auto body = bodyOf.find(jointName);
    if (body == bodyOf.end() || hasQuaternion(spec.bodies[static_cast<std::size_t>(body->second)].joint.type)) {
      left.push_back(label + " (joint '" + robot::printable(jointName) + "' is not a moving hinge or slide of the model)");
      continue;
    }
    // the interface: the joint's (ros_control), else the actuator's (older files)
    const TiXmlElement* actuator = t->FirstChildElement("actuator");
    std::string iface = textOf(joint->FirstChildElement("hardwareInterface"));
    if (iface.empty() && actuator) iface = textOf(actuator->FirstChildElement("hardwareInterface"));
    if (iface.empty()) iface = "EffortJointInterface";  // pr2-era files name none: an effort drive
    const Interface kind = interfaceOf(iface);
    if (kind == Interface::Unknown) {
      left.push_back(label + " (hardware interface '" + robot::printable(trimmed(iface)) + "' is not read)");
      continue;
    }
    double gear = 1.0;
    std::string reduction = actuator ? trimmed(textOf(actuator->FirstChildElement("mechanicalReduction"))) : "";
    if (reduction.empty()) reduction = trimmed(textOf(t->FirstChildElement("mechanicalReduction")));
    if (!reduction.empty()) {
      try {
        std::size_t used = 0;
        gear = std::stod(reduction, &used);
        if (used != reduction.size() || !std::isfinite(gear) || gear == 0) throw std::invalid_argument(reduction);
      } catch (const std::exception&) {
        left.push_back(label + " (mechanicalReduction '" + robot::printable(reduction) + "' is not a nonzero number)");
        continue;
      }
    }
    const int b = body->second;
    if (kind == Interface::Effort) {
      ActuatorSpec a;
      a.name = name.empty() ? jointName + " motor" : name;
      a.shortcut = "motor";
      a.transmission = ActuatorSpec::Transmission::Joint;
      a.target = b;
      a.gear[0] = gear;
      if (const auto& e = spec.bodies[static_cast<std::size_t>(b)].limits.effort)
        a.ctrlRange = a.forceRange = std::array<double, 2>{-*e / std::abs(gear), *e / std::abs(gear)};
      spec.actuators.push_back(a);
    } else {
      servos.push_back({b, gear, kind == Interface::Velocity});
    }
  }
  if (!servos.empty()) {
    const Eigen::VectorXd q0 = compile(spec).q0;
    for (const Servo& s : servos) {
      ServoOptions o;
      o.bodies = {s.body};
      o.gear = s.gear;
      o.velocity = s.velocity;
      addServos(spec, q0, o);
    }
  }
  if (!left.empty()) {
    std::string list;
    for (std::size_t k = 0; k < left.size() && k < 5; ++k) list += (k ? "; " : "") + left[k];
    if (left.size() > 5) list += "; and " + std::to_string(left.size() - 5) + " more";
    notes.push_back(std::to_string(left.size()) + " transmission(s) not read: " + list);
  }
}

void writeTransmissions(TiXmlElement* robot, const ModelSpec& spec, const std::vector<std::string>& jointName,
                        std::vector<std::string>& notes) {
  int skipped = 0;
  for (const ActuatorSpec& a : spec.actuators) {
    const bool joint = a.transmission == ActuatorSpec::Transmission::Joint && a.target >= 0 &&
                       a.target < static_cast<int>(jointName.size()) && !jointName[static_cast<std::size_t>(a.target)].empty();
    const char* iface = a.shortcut == "motor" ? "EffortJointInterface"
                        : a.shortcut == "position" ? "PositionJointInterface"
                        : a.shortcut == "velocity" ? "VelocityJointInterface"
                                                   : nullptr;
    if (!joint || !iface) {
      ++skipped;
      continue;
    }
    const std::string j = jointName[static_cast<std::size_t>(a.target)];
    auto* t = new TiXmlElement("transmission");
    t->SetAttribute("name", j + "_transmission");
    auto* type = new TiXmlElement("type");
    type->LinkEndChild(new TiXmlText("transmission_interface/SimpleTransmission"));
    t->LinkEndChild(type);
    auto* je = new TiXmlElement("joint");
    je->SetAttribute("name", j);
    auto* hw = new TiXmlElement("hardwareInterface");
    hw->LinkEndChild(new TiXmlText(std::string("hardware_interface/") + iface));
    je->LinkEndChild(hw);
    t->LinkEndChild(je);
    auto* ae = new TiXmlElement("actuator");
    ae->SetAttribute("name", a.name.empty() ? j + "_actuator" : a.name);
    auto* reduction = new TiXmlElement("mechanicalReduction");
    reduction->LinkEndChild(new TiXmlText(robot::num(a.gear[0])));
    ae->LinkEndChild(reduction);
    t->LinkEndChild(ae);
    robot->LinkEndChild(t);
  }
  if (skipped) notes.push_back(std::to_string(skipped) + " actuator(s) other than joint motors, position and velocity servos are not stored (URDF's SimpleTransmission has no form for them)");
  if (!spec.tendons.empty()) notes.push_back(std::to_string(spec.tendons.size()) + " tendon(s) are not stored (URDF has none)");
  int servos = 0;
  for (const ActuatorSpec& a : spec.actuators)
    servos += (a.shortcut == "position" || a.shortcut == "velocity") && a.transmission == ActuatorSpec::Transmission::Joint;
  if (servos) notes.push_back("the gains of " + std::to_string(servos) + " servo(s) are not stored: a URDF transmission names the interface, and reading it back tunes them again");
}

}  // namespace art::urdf_io
