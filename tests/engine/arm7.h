#pragma once
// A seven-joint arm (Rz Ry Rz Ry Rz Ry Rz, 0.3 m links of 2 kg down to 0.8 kg, joint damping
// 0.1 N m s/rad, effort limits 300 N m, drawn as cylinders) posed away from hanging, for the
// tests of Add Servos (test_actuation, test_controls): undriven, it falls.

#include <string>

#include <nlohmann/json.hpp>

#include "articulate/model/spec.h"

namespace art::test {

inline ModelSpec sevenJointArm() {
  ModelSpec spec;
  spec.name = "arm7";
  const JointType axes[7] = {JointType::Rz, JointType::Ry, JointType::Rz, JointType::Ry, JointType::Rz, JointType::Ry, JointType::Rz};
  const double pose[7] = {0.3, 0.8, -0.2, -1.0, 0.4, 0.6, 0.1};
  for (int i = 0; i < 7; ++i) {
    BodySpec b;
    b.name = "link" + std::to_string(i + 1);
    b.parent = i - 1;
    b.joint.type = axes[i];
    b.translation = i ? Vec3(0, 0, 0.3) : Vec3::Zero();
    b.inertia = InertiaSpec::fromMassComInertia(2.0 - 0.2 * i, Vec3(0, 0, 0.15), Vec3(0.02, 0.02, 0.004).asDiagonal());
    b.appearance = nlohmann::json::parse("[[\"cyl\", [[0, 0, 0], [0, 0, 0.3]], 0.04]]");
    b.q0 = pose[i];
    b.damping = 0.1;
    b.limits.effort = 300;
    spec.bodies.push_back(b);
  }
  return spec;
}

}  // namespace art::test
