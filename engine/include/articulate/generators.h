#pragma once
// Reproducible model generators: spatial_v2's autoTree and planar, and seeded random trees for
// tests. Generated models are ModelSpecs, so they can be saved, edited and compiled.

#include <cstdint>
#include <vector>

#include "articulate/model_spec.h"

namespace art {

/// Options of spatial_v2's autoTree(nb, bf, skew, taper).
struct AutoTreeOptions {
  int bodies = 7;         // number of bodies (>= 0)
  double branching = 1;   // branching factor bf (>= 1); 1 gives an unbranched chain
  double skew = 0;        // rotation about x of each joint axis relative to its parent (rad)
  double taper = 1;       // length ratio of successive links (> 0)
  // joint types used in turn along body numbers (default: all Rz as spatial_v2); the
  // benchmarks use {Rz, Ry} to make chains truly 3D
  std::vector<JointType> axes{JointType::Rz};
};

/// spatial_v2 autoTree: breadth-first revolute tree, parent(i) = floor((i-2+ceil(bf))/bf)
/// (1-based); link i is a tube of length taper^(i-1) (m), mass taper^(3(i-1)) (kg), COM at
/// half length on x, inertia about the COM m l^2 diag(0.0025, 1.015/12, 1.015/12);
/// Xtree = rotx(skew) * xlt([l_parent 0 0]) (identity for children of the base). Each body gets a cylinder appearance.
/// Throws std::invalid_argument for out-of-range options.
ModelSpec autoTree(const AutoTreeOptions& options);

/// spatial_v2 planar(n): an n-link planar chain of `r` joints, unit links of mass 1 with the
/// COM at the middle and inertia 1/12 about it, zero gravity (as spatial_v2).
ModelSpec planarChain(int n);

/// A random tree with `nb` bodies, seeded: random parents (each body's parent precedes it),
/// joint types drawn from `types`, placements rotx*roty*rotz*xlt with angles in [-pi, pi] and
/// offsets in [-0.6, 0.6]^3, masses in [0.5, 2], COM in [-0.3, 0.3]^3 and inertia about the COM
/// A A^T + 0.1 I. `types` must be all spatial or all planar joint types.
ModelSpec randomTree(int nb, std::uint32_t seed, const std::vector<JointType>& types);

}  // namespace art
