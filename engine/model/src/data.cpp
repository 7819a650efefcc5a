#include "articulate/model/data.h"

namespace art {

Data::Data(const Model& model) : nb(model.nb) {
  if (model.arithmetic == Arithmetic::Spatial) {
    spatial.resize(nb);
    for (const Joint& j : model.joints)
      if (j.type == JointType::Ball) {
        spatial.resizeBall(nb);
        break;
      }
  } else
    planar.resize(nb);
  const int nv = model.nv();
  tau = Eigen::VectorXd::Zero(nv);
  qdd = Eigen::VectorXd::Zero(nv);
  C = Eigen::VectorXd::Zero(nv);
  tmp = Eigen::VectorXd::Zero(nv);
  ancestors.assign(static_cast<std::size_t>(nv), -1);
  H = Eigen::MatrixXd::Zero(nv, nv);
  L = Eigen::MatrixXd::Zero(nv, nv);
  const auto nt = static_cast<Eigen::Index>(model.tendons.size());
  const Eigen::Index nu = model.nu();
  tendonLength = tendonVelocity = tendonSpringLength = Eigen::VectorXd::Zero(nt);
  tendonMoment = Eigen::MatrixXd::Zero(nt, nv);
  actuatorLength = actuatorVelocity = actuatorForce = ctrl = actuatorAcc0 = Eigen::VectorXd::Zero(nu);
  actuatorMoment = Eigen::MatrixXd::Zero(nu, nv);
  lengthRange = Eigen::Matrix2Xd::Zero(2, nu);
  qfrcActuator = qfrcPassive = Eigen::VectorXd::Zero(nv);
  actDot = Eigen::VectorXd::Zero(model.na);
  // a spatial tendon's path: its sites, and two more points per wrap
  Eigen::Index points = 0;
  for (const TendonSpec& t : model.tendons)
    for (const TendonSpec::Element& e : t.path)
      points += e.kind == TendonSpec::Element::Kind::Site ? 1 : e.kind == TendonSpec::Element::Kind::Joint ? 0 : 2;
  tendonPath = Eigen::Matrix3Xd::Zero(3, points);
  tendonPathBranch.assign(static_cast<std::size_t>(points), 0);
  tendonPathStart.assign(static_cast<std::size_t>(nt) + 1, 0);
  jacA = jacB = jacR = Eigen::MatrixXd::Zero(3, nv);
}

}  // namespace art
