#include "articulate/generators.h"

#include <cmath>
#include <random>
#include <sstream>
#include <stdexcept>

#include <Eigen/Eigenvalues>

namespace art {

ModelSpec autoTree(const AutoTreeOptions& o) {
  if (o.bodies < 0) throw std::invalid_argument("autoTree: bodies must be >= 0");
  if (!(o.branching >= 1)) throw std::invalid_argument("autoTree: branching must be >= 1");
  if (!(o.taper > 0)) throw std::invalid_argument("autoTree: taper must be > 0");
  if (!std::isfinite(o.skew)) throw std::invalid_argument("autoTree: skew must be finite");
  if (o.axes.empty()) throw std::invalid_argument("autoTree: axes must not be empty");
  for (JointType t : o.axes)
    if (isPlanar(t)) throw std::invalid_argument("autoTree: axes must be spatial joint types");
  ModelSpec spec;
  spec.name = "autoTree";
  std::ostringstream d;
  d << "spatial_v2 autoTree(" << o.bodies << ", " << o.branching << ", " << o.skew << ", "
    << o.taper << ")";
  spec.description = d.str();
  std::vector<double> len(o.bodies);
  for (int i = 1; i <= o.bodies; ++i) {
    BodySpec b;
    b.name = "link" + std::to_string(i);
    const int p = static_cast<int>(std::floor((i - 2 + std::ceil(o.branching)) / o.branching));
    b.parent = p - 1;
    b.joint.type = o.axes[(i - 1) % o.axes.size()];
    b.rotation = p == 0 ? Mat3::Identity() : rotxE(o.skew);  // as spatial_v2: no skew at the root
    b.translation = Vec3(p == 0 ? 0.0 : len[p - 1], 0, 0);
    const double l = std::pow(o.taper, i - 1);
    len[i - 1] = l;
    const double mass = std::pow(o.taper, 3 * (i - 1));
    const Vec3 com(0.5 * l, 0, 0);
    const Mat3 Icm = mass * l * l * Vec3(0.0025, 1.015 / 12, 1.015 / 12).asDiagonal();
    b.inertia = InertiaSpec::fromMassComInertia(mass, com, Icm);
    b.appearance = nlohmann::json::array({"cyl", {{0, 0, 0}, {l, 0, 0}}, l / 20});
    spec.bodies.push_back(std::move(b));
  }
  return spec;
}

ModelSpec planarChain(int n) {
  if (n < 0) throw std::invalid_argument("planarChain: n must be >= 0");
  ModelSpec spec;
  spec.name = "planar";
  spec.description = "spatial_v2 planar(" + std::to_string(n) + "): planar chain of unit links";
  spec.arithmetic = Arithmetic::Planar;
  for (int i = 0; i < n; ++i) {
    BodySpec b;
    b.name = "link" + std::to_string(i + 1);
    b.parent = i - 1;
    b.joint.type = JointType::PlanarR;
    b.translation = Vec3(i == 0 ? 0.0 : 1.0, 0, 0);
    b.inertia = InertiaSpec::fromMassComInertia(1.0, Vec3(0.5, 0, 0),
                                                Vec3(1.0 / 12, 1.0 / 12, 1.0 / 12).asDiagonal());
    b.appearance = nlohmann::json::array({"box", {{0, -0.07, -0.04}, {1, 0.07, 0.04}}});
    spec.bodies.push_back(std::move(b));
  }
  return spec;
}

ModelSpec randomTree(int nb, std::uint32_t seed, const std::vector<JointType>& types) {
  if (nb < 0 || types.empty()) throw std::invalid_argument("randomTree: bad arguments");
  const bool planar = isPlanar(types.front());
  for (JointType t : types)
    if (isPlanar(t) != planar)
      throw std::invalid_argument("randomTree: mixes planar and spatial joint types");
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  auto u = [&](double lo, double hi) { return lo + (hi - lo) * 0.5 * (uni(rng) + 1.0); };
  ModelSpec spec;
  spec.name = "random";
  spec.arithmetic = planar ? Arithmetic::Planar : Arithmetic::Spatial;
  for (int i = 0; i < nb; ++i) {
    BodySpec b;
    b.name = "b" + std::to_string(i + 1);
    b.parent = i == 0 ? -1 : static_cast<int>(std::floor(u(-1, i - 1e-9)));
    b.joint.type = types[static_cast<std::size_t>(u(0, types.size() - 1e-9))];
    if (b.joint.type == JointType::H) b.joint.pitch = u(-0.5, 0.5);
    if (planar) {
      b.rotation = rotzE(u(-M_PI, M_PI));
      b.translation = Vec3(u(-0.6, 0.6), u(-0.6, 0.6), 0);
    } else {
      b.rotation = rotxE(u(-M_PI, M_PI)) * rotyE(u(-M_PI, M_PI)) * rotzE(u(-M_PI, M_PI));
      b.translation = Vec3(u(-0.6, 0.6), u(-0.6, 0.6), u(-0.6, 0.6));
    }
    Mat3 A;
    for (int k = 0; k < 9; ++k) A(k / 3, k % 3) = u(-1, 1);
    Mat3 Ic = A * A.transpose() + 0.1 * Mat3::Identity();
    // keep the triangle inequality: a random SPD matrix need not satisfy it
    Eigen::SelfAdjointEigenSolver<Mat3> es(Ic);
    Vec3 p = es.eigenvalues();
    p(2) = std::min(p(2), p(0) + p(1));
    Ic = es.eigenvectors() * p.asDiagonal() * es.eigenvectors().transpose();
    Ic = 0.5 * (Ic + Ic.transpose()).eval();
    const Vec3 com = planar ? Vec3(u(-0.3, 0.3), u(-0.3, 0.3), 0)
                            : Vec3(u(-0.3, 0.3), u(-0.3, 0.3), u(-0.3, 0.3));
    b.inertia = InertiaSpec::fromMassComInertia(u(0.5, 2.0), com, Ic);
    spec.bodies.push_back(std::move(b));
  }
  return spec;
}

}  // namespace art
