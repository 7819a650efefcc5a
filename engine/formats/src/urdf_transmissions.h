#pragma once
// A URDF's <transmission> elements (ros_control's SimpleTransmission) as actuators, and back
// (urdf_transmissions.cpp).

#include <string>
#include <vector>

#include "articulate/model/spec.h"

class TiXmlElement;

namespace art::urdf_io {

/// Reads the <transmission> elements of the URDF text `xml` into spec.actuators: a
/// SimpleTransmission (ros_control's `<type>` element or the older `type` attribute) on one
/// joint with a mechanicalReduction (default 1) becomes an actuator on that joint with it as
/// gear: an EffortJointInterface a motor (control: the actuator's torque or force, ±effort /
/// reduction when the joint has an effort limit), a PositionJointInterface a position servo, a
/// VelocityJointInterface a velocity servo, both tuned as Add Servos tunes them (servos.h) at
/// the model's initial pose. `jointNames` holds each body's URDF joint name. Anything else
/// (other transmission types, several joints, an unknown interface, a joint that was merged
/// or is not a hinge or slide) is left out with a note in `notes`.
void readTransmissions(const std::string& xml, const std::vector<std::string>& jointNames, ModelSpec& spec,
                       std::vector<std::string>& notes);

/// Writes the spec's joint actuators of the three kinds above into `robot` as SimpleTransmission
/// elements named "<joint>_transmission" (the joint's URDF name from `jointName`); other
/// actuators and tendons are left out with a note.
void writeTransmissions(TiXmlElement* robot, const ModelSpec& spec, const std::vector<std::string>& jointName,
                        std::vector<std::string>& notes);

}  // namespace art::urdf_io
