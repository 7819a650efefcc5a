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
  H = Eigen::MatrixXd::Zero(nv, nv);
  L = Eigen::MatrixXd::Zero(nv, nv);
}

}  // namespace art
