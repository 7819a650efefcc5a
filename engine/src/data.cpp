#include "articulate/data.h"

namespace art {

Data::Data(const Model& model) : nb(model.nb) {
  if (model.arithmetic == Arithmetic::Spatial)
    spatial.resize(nb);
  else
    planar.resize(nb);
  tau = Eigen::VectorXd::Zero(nb);
  qdd = Eigen::VectorXd::Zero(nb);
  C = Eigen::VectorXd::Zero(nb);
  tmp = Eigen::VectorXd::Zero(nb);
  H = Eigen::MatrixXd::Zero(nb, nb);
  L = Eigen::MatrixXd::Zero(nb, nb);
}

}  // namespace art
