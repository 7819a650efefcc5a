// Energy and momentum of a kinematic tree (spatial_v2 EnerMo): kinetic energy sum(v' I v / 2),
// composite inertia and momentum accumulated to the base, then mass and centre of mass by
// inverting mcI.
#include "articulate/dynamics/actuation.h"
#include "detail.h"

namespace art {

namespace {

// Xup[i] (and X0[i] when withX0) and the velocity v[i] of body i, its parent's done
template <class A, bool Free>
void bodyVelocity(const Model& m, Workspace<A>& w, int i, const VecRef& q, const VecRef& qd,
                  bool withX0, detail::SinCosBlocks* angles = nullptr) {
  detail::updateXup<A, Free>(m, w, i, q, withX0, angles);
  const int p = m.parent[i];
  const typename A::Vec vJ = detail::jointVelocity<A, Free>(m, i, qd);
  if (p < 0)
    w.v[i] = vJ;
  else
    detail::withXup(m, w, i, [&](const auto& X) { w.v[i] = detail::sum(X.apply(w.v[p]), vJ); });
}

template <class A, bool Free>
void energyPasses(const Model& m, Data& d, const VecRef& q, const VecRef& qd, EnergyMomentum& e) {
  using Vec = typename A::Vec;
  using Mat = typename A::Mat;
  auto& w = d.ws<A>();
  const auto& t = m.arrays<A>();
  for (int i = 0; i < m.nb; ++i) {
    bodyVelocity<A, Free>(m, w, i, q, qd, false);
    w.IA[i] = t.I[i];
    w.f[i] = t.I[i] * w.v[i];  // momentum of body i
    e.kinetic += 0.5 * w.v[i].dot(w.f[i]);
  }
  Mat Itot = Mat::Zero();
  Vec htot = Vec::Zero();
  for (int i = m.nb - 1; i >= 0; --i) {
    const int p = m.parent[i];
    Mat& Ip = p >= 0 ? w.IA[p] : Itot;
    Vec& hp = p >= 0 ? w.f[p] : htot;
    detail::withXup(m, w, i, [&](const auto& X) {
      X.addTransposeTransformInertia(w.IA[i], Ip);
      hp += X.applyTransposeForce(w.f[i]);
    });
  }
  e.Itot.template topLeftCorner<A::dim, A::dim>() = Itot;
  e.htot.template head<A::dim>() = htot;
  if constexpr (A::dim == 6) {
    e.mass = Itot(5, 5);
    if (e.mass > 0) {
      const Mat3 mC = Itot.template topRightCorner<3, 3>();
      e.cm = Vec3(mC(2, 1), mC(0, 2), mC(1, 0)) / e.mass;
      e.vcm = htot.template tail<3>() / e.mass;
    }
  } else {
    e.mass = Itot(2, 2);
    if (e.mass > 0) {
      e.cm = Vec3(Itot(0, 2), -Itot(0, 1), 0.0) / e.mass;
      e.vcm = Vec3(htot(1), htot(2), 0.0) / e.mass;
    }
  }
  e.potential = -e.mass * e.cm.dot(m.gravity);
}

// Kinetic and potential energy only: the outward pass for the velocities, then an inward pass
// accumulating each subtree's mass and first moment sum(m c) into its parent's coordinates
// (E' h + M r through Xup: no X0, whose 3x3 products cost more), with each body's mass and m c
// from its spatial inertia (spatial: I(5, 5) and the top-right block; planar: I(2, 2) and
// (I(0, 2), -I(0, 1))). w.f holds (m c, M) per body as scratch.
template <class A, bool Free>
void energyOnlyPass(const Model& m, Data& d, const VecRef& q, const VecRef& qd, double& kinetic,
                    double& potential) {
  auto& w = d.ws<A>();
  const auto& t = m.arrays<A>();
  double ke = 0.0;
  detail::SinCosBlocks angles(q);
  for (int i = 0; i < m.nb; ++i) {
    bodyVelocity<A, Free>(m, w, i, q, qd, false, &angles);
    const auto& I = t.I[i];
    ke += 0.5 * w.v[i].dot(I * w.v[i]);
    if constexpr (A::dim == 6)
      w.f[i] << I(2, 4), I(0, 5), I(1, 3), I(5, 5), 0.0, 0.0;
    else
      w.f[i] << I(0, 2), -I(0, 1), I(2, 2);
  }
  Vec3 mc = Vec3::Zero();  // sum of mass times centre of mass, base coordinates
  for (int i = m.nb - 1; i >= 0; --i) {
    const auto& X = w.Xup[i];
    const int p = m.parent[i];
    if constexpr (A::dim == 6) {
      const Vec3 h = X.E.transpose() * w.f[i].template head<3>() + w.f[i](3) * X.r;
      if (p < 0) {
        mc += h;
      } else {
        w.f[p].template head<3>() += h;
        w.f[p](3) += w.f[i](3);
      }
    } else {
      const Vec2 h = X.E().transpose() * w.f[i].template head<2>() + w.f[i](2) * X.r;
      if (p < 0) {
        mc.head<2>() += h;
      } else {
        w.f[p].template head<2>() += h;
        w.f[p](2) += w.f[i](2);
      }
    }
  }
  kinetic = ke;
  potential = -mc.dot(m.gravity);
}

}  // namespace

void detail::kineticPotential(const Model& m, Data& d, const VecRef& q, const VecRef& qd,
                              double& kinetic, double& potential) {
  detail::dispatchTree(m, [&](auto arith, auto free) {
    energyOnlyPass<decltype(arith), decltype(free)::value>(m, d, q, qd, kinetic, potential);
  });
  if (m.hasArmature) kinetic += 0.5 * m.armature.dot(qd.cwiseProduct(qd));
  if (m.springs) potential += springEnergy(m, d, q);
}

EnergyMomentum energyMomentum(const Model& m, Data& d, const VecRef& q, const VecRef& qd) {
  detail::checkSize("energyMomentum", "q", q.size(), m.nq());
  detail::checkSize("energyMomentum", "qd", qd.size(), m.nv());
  EnergyMomentum e;
  detail::dispatchTree(m, [&](auto arith, auto free) {
    energyPasses<decltype(arith), decltype(free)::value>(m, d, q, qd, e);
  });
  if (m.hasArmature) {
    const double rotors = 0.5 * m.armature.dot(qd.cwiseProduct(qd));
    e.kinetic += rotors;
  }
  if (m.springs) e.potential += springEnergy(m, d, q);
  return e;
}

}  // namespace art
