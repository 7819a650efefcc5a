#pragma once
// Private helpers shared by the algorithm files.

#include <sstream>
#include <stdexcept>

#include "articulate/dynamics.h"

namespace art::detail {

inline void checkSize(const char* fn, const char* arg, Eigen::Index got, Eigen::Index want) {
  if (got != want) {
    std::ostringstream s;
    s << fn << ": " << arg << " has size " << got << ", the model needs " << want;
    throw std::invalid_argument(s.str());
  }
}

inline void checkFext(const char* fn, const Model& m, const ExternalForces* fext) {
  if (!fext) return;
  const int dim = m.arithmetic == Arithmetic::Spatial ? 6 : 3;
  if (fext->rows() != dim || fext->cols() != m.nb) {
    std::ostringstream s;
    s << fn << ": fext is " << fext->rows() << "x" << fext->cols() << ", the model needs " << dim
      << "x" << m.nb << " (one column per body, base coordinates)";
    throw std::invalid_argument(s.str());
  }
}

/// Calls f(SpatialArith{}) or f(PlanarArith{}) for the model's arithmetic.
template <class F>
decltype(auto) dispatch(const Model& m, F&& f) {
  if (m.arithmetic == Arithmetic::Spatial) return f(SpatialArith{});
  return f(PlanarArith{});
}

/// Xup[i] = XJ(q_i) * Xtree[i]; also X0 when `withX0`.
template <class A>
inline void updateXup(const Model& m, Workspace<A>& w, int i, double q, bool withX0) {
  const auto& t = m.arrays<A>();
  w.Xup[i] = A::jointTimesTree(m.joints[i], q, t.Xtree[i]);
  if (withX0) w.X0[i] = m.parent[i] < 0 ? w.Xup[i] : w.Xup[i] * w.X0[m.parent[i]];
}

/// The external force on body i in body coordinates (requires X0[i]).
template <class A>
inline typename A::Vec bodyExternalForce(const Workspace<A>& w, const ExternalForces& fext, int i) {
  return w.X0[i].applyForce(fext.col(i).template head<A::dim>());
}

}  // namespace art::detail
