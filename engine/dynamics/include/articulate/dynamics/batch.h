#pragma once
// Forward dynamics and energies of several states of one kinematic tree at once, vectorised
// across the states ("lanes"): every number of the articulated-body algorithm (RBDA Table
// 7.1) is a vector of kLanes doubles, one per state, so that one AVX2 instruction does the
// work of one state's instruction for four states. The per-body constants (tree transforms,
// inertias, motion subspaces) are the same in every lane; only q, qd and what follows from them
// differ. A lane's results depend on its own inputs only: a state gives the same bits in any
// lane, whatever the other lanes hold (NaN included).
//
// Scope: trees whose joints have one degree of freedom (Rx, Ry, Rz, Px, Py, Pz, H; planar r,
// px, py, stepped as their spatial equivalents Rz, Px, Py), without free joints; external forces, contact and loop closures are left to the one-state
// algorithms (dynamics.h). The numbers equal those of aba() and energyMomentum() to rounding,
// not bit for bit (the operations are ordered differently).

#include <string>
#include <vector>

#include "articulate/model/model.h"

namespace art {

/// The number of states the batched passes handle together: one AVX2 register of doubles.
inline constexpr int kLanes = 4;

/// kLanes doubles, one per state (GCC and Clang vector extension: arithmetic acts lane by
/// lane, a double operand is broadcast). One ymm register where the build targets AVX2 (the
/// release build's -march=x86-64-v3), two xmm registers otherwise.
typedef double Lanes __attribute__((vector_size(kLanes * sizeof(double))));
// Built without AVX (the package and comparison builds), GCC notes that a Lanes passed by
// value would be passed differently from an AVX build's (-Wpsabi). Every Lanes that crosses a
// library function here goes by pointer or reference, whose ABI does not change.
#pragma GCC diagnostic ignored "-Wpsabi"

/// Why BatchTree cannot take `model`, in words ("" when it can): a build that does not target
/// AVX2 (there the lanes are slower than one state at a time), a free joint, external forces,
/// contact points or constraints.
std::string batchUnsupported(const Model& model);

/// The batched passes over one model: its per-body constants, gathered once, and the
/// workspace. Not thread-safe; one per thread. Keeps a reference to the model, which must
/// outlive it. After construction nothing allocates.
class BatchTree {
 public:
  /// Throws std::invalid_argument with batchUnsupported's reason.
  explicit BatchTree(const Model& model);
  BatchTree(const BatchTree&) = delete;
  BatchTree& operator=(const BatchTree&) = delete;
  ~BatchTree();

  const Model& model() const { return m_model; }

  /// qdd = FD(q, qd, tau) for kLanes states (the articulated-body algorithm, gravity from the
  /// model): q, qd, tau and qdd hold nv() entries each, entry i lane k being coordinate i of
  /// state k (rad or m; rad/s or m/s; N m or N; rad/s^2 or m/s^2). `tau` may be null (zero).
  /// A joint whose articulated inertia about its axis is zero gives infinite or NaN
  /// accelerations in that lane (no exception).
  void forwardDynamics(const Lanes* q, const Lanes* qd, const Lanes* tau, Lanes* qdd);

  /// Kinetic energy sum(v' I v / 2) and potential energy -m g . c (J, gravity from the model,
  /// zero at the base origin) of kLanes states, as the one-state divergence check computes
  /// them (energy.cpp, detail::kineticPotential).
  void kineticPotential(const Lanes* q, const Lanes* qd, Lanes& kinetic, Lanes& potential);

 private:
  struct Body;
  struct Work;
  void transforms(const Lanes* q);
  const Model& m_model;
  std::vector<Body> m_bodies;
  std::vector<Work> m_work;
  Vec3 m_gravity;  // m/s^2, base coordinates (planar: z zero)
};

}  // namespace art
