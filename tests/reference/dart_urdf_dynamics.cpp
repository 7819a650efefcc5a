// articulate-ref-dart: DART 6.12's own URDF loader (dart::utils::DartLoader) as an independent
// reference for the URDF tests. It loads a URDF, sets a state given per URDF joint, and prints
// DART's joint-space inertia and bias forces as JSON, in DART's coordinate order, each
// coordinate named by its joint. It links DART only (no Articulate code): DART's Debian build
// passes Eigen objects with the generic CPU's alignment, so this program is built for the
// generic CPU whatever the rest of the build targets.
//
//   articulate-ref-dart FILE.urdf fixed|floating STATE.json
//
// STATE.json: {"joints": [{"joint": NAME, "q": [...], "qd": [...]}, ...]}; a joint not listed
// keeps zero. The floating root is named "" and takes Articulate's free-joint layout: q = x y z
// qw qx qy qz (position and orientation of the root link in the world), qd = its spatial
// velocity in its own coordinates, angular first, which is DART's FreeJoint velocity.
// Output: {"coordinates": [{"joint": NAME, "index": K}], "H": [[...]], "bias": [...],
// "gravity": [gx, gy, gz]} with bias = C(q, qd) qd + g(q) (getCoriolisAndGravityForces).
// Exit 1 with a message on stderr when the file does not load.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

#include <dart/dynamics/FreeJoint.hpp>
#include <dart/dynamics/Joint.hpp>
#include <dart/dynamics/Skeleton.hpp>
#include <dart/utils/urdf/DartLoader.hpp>
#include <nlohmann/json.hpp>

using nlohmann::json;

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: articulate-ref-dart FILE.urdf fixed|floating STATE.json\n";
    return 2;
  }
  const std::string path = argv[1], base = argv[2];
  dart::utils::DartLoader::Options options;
  options.mDefaultRootJointType = base == "fixed" ? dart::utils::DartLoader::RootJointType::FIXED
                                                  : dart::utils::DartLoader::RootJointType::FLOATING;
  dart::utils::DartLoader loader(options);
  const dart::dynamics::SkeletonPtr skel = loader.parseSkeleton(dart::common::Uri::createFromPath(path));
  if (!skel) {
    std::cerr << "articulate-ref-dart: DART did not load " << path << "\n";
    return 1;
  }
  skel->setGravity(Eigen::Vector3d(0, 0, -9.81));
  json state;
  std::ifstream(argv[3]) >> state;
  Eigen::VectorXd q = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(skel->getNumDofs()));
  Eigen::VectorXd qd = q;
  for (const json& j : state.at("joints")) {
    const std::string name = j.at("joint").get<std::string>();
    dart::dynamics::Joint* joint = name.empty() ? skel->getRootJoint() : skel->getJoint(name);
    if (!joint) {
      std::cerr << "articulate-ref-dart: no joint '" << name << "' in DART's skeleton\n";
      return 1;
    }
    const std::vector<double> jq = j.at("q").get<std::vector<double>>(), jqd = j.at("qd").get<std::vector<double>>();
    Eigen::VectorXd positions;
    if (auto* free = dynamic_cast<dart::dynamics::FreeJoint*>(joint)) {
      Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
      T.translation() = Eigen::Vector3d(jq.at(0), jq.at(1), jq.at(2));
      T.linear() = Eigen::Quaterniond(jq.at(3), jq.at(4), jq.at(5), jq.at(6)).normalized().toRotationMatrix();
      positions = dart::dynamics::FreeJoint::convertToPositions(T);
    } else {
      positions = Eigen::Map<const Eigen::VectorXd>(jq.data(), static_cast<Eigen::Index>(jq.size()));
    }
    if (positions.size() != static_cast<Eigen::Index>(joint->getNumDofs()) ||
        jqd.size() != joint->getNumDofs()) {
      std::cerr << "articulate-ref-dart: joint '" << name << "' has " << joint->getNumDofs() << " degrees of freedom\n";
      return 1;
    }
    for (std::size_t k = 0; k < joint->getNumDofs(); ++k) {
      const auto i = static_cast<Eigen::Index>(joint->getIndexInSkeleton(k));
      q(i) = positions(static_cast<Eigen::Index>(k));
      qd(i) = jqd[k];
    }
  }
  skel->setPositions(q);
  skel->setVelocities(qd);
  json out;
  out["coordinates"] = json::array();
  for (std::size_t i = 0; i < skel->getNumDofs(); ++i) {
    const dart::dynamics::DegreeOfFreedom* dof = skel->getDof(i);
    const dart::dynamics::Joint* joint = dof->getJoint();
    // the floating root's free joint is the loader's, not the file's: named "" as Articulate does
    const bool floatingRoot = joint == skel->getRootJoint() && dynamic_cast<const dart::dynamics::FreeJoint*>(joint);
    out["coordinates"].push_back({{"joint", floatingRoot ? "" : joint->getName()},
                                  {"index", dof->getIndexInJoint()}});
  }
  const Eigen::MatrixXd& H = skel->getMassMatrix();
  const Eigen::VectorXd& bias = skel->getCoriolisAndGravityForces();
  out["H"] = json::array();
  for (Eigen::Index r = 0; r < H.rows(); ++r) {
    json row = json::array();
    for (Eigen::Index c = 0; c < H.cols(); ++c) row.push_back(H(r, c));
    out["H"].push_back(row);
  }
  out["bias"] = std::vector<double>(bias.data(), bias.data() + bias.size());
  const Eigen::Vector3d g = skel->getGravity();
  out["gravity"] = {g.x(), g.y(), g.z()};
  std::cout << out.dump() << "\n";
  return 0;
}
