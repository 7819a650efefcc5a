#pragma once
// The two arithmetics of spatial_v2: 6D spatial vectors for 3D models and 3D planar vectors for
// planar models. The tree algorithms are written once, as templates over these traits.

#include "articulate/spatial/joint.h"

namespace art {

/// Which vector arithmetic a model uses.
enum class Arithmetic { Spatial, Planar };

struct SpatialArith {
  static constexpr int dim = 6;
  using Vec = Vec6;
  using Mat = Mat6;
  using Xform = SpatialTransform;
  static Vec subspace(const Joint& j) { return j.subspace(); }
  static Xform jointTimesTree(const Joint& j, double q, const Xform& Xtree) {
    return j.transformTimes(q, Xtree);
  }
};

struct PlanarArith {
  static constexpr int dim = 3;
  using Vec = Vec3;
  using Mat = Mat3;
  using Xform = PlanarTransform;
  static Vec subspace(const Joint& j) { return j.planarSubspace(); }
  static Xform jointTimesTree(const Joint& j, double q, const Xform& Xtree) {
    return j.planarTransform(q) * Xtree;
  }
};

}  // namespace art
