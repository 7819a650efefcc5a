#pragma once
// Recording: every sample of a simulated or loaded motion (time, q, qd, kinetic and potential
// energy, the energy dissipated and the actuators' work since the start (System::
// energyDissipated and actuatorWork, summed over the states the simulation was set to), the nc constraint forces of a system with constraints and
// its nw auxiliary state variables, System::auxiliaryState: a tree's ground deformation and dent
// under its contact points, and the ns force channels of the soft constraint model, System::
// currentSoftForces), kept for playback and scrubbing, and the logs of the perturbations (the
// mouse's pull), the actuators' controls and the equality switches that acted on it. Samples
// live in fixed-size chunks so that growing a long recording never copies it; memory is 8 (nq +
// nv + nc + nw + ns + 5) bytes per sample for nq positions, nv velocities, nc constraint rows,
// nw auxiliary variables and ns soft force channels (360 bytes for a
// 20-joint tree without contact: one million samples take 360 MB) plus 8 bytes per 4096
// samples.

#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

#include <Eigen/Core>

#include "articulate/dynamics/perturbation.h"

namespace art {

struct Motion;

/// A perturbation set or removed (nullopt) at `time` (s): it acts on the motion from that time
/// until the next change (System::setPerturbation).
struct PerturbationChange {
  double time = 0.0;
  std::optional<Perturbation> perturbation;
};

/// The actuators' controls set at `time` (s): they act on the motion from that time until the
/// next change (System::setControls).
struct ControlChange {
  double time = 0.0;
  Eigen::VectorXd ctrl;
};

/// The equality constraints switched at `time` (s): which act (one per equality, 1 acting, 0
/// off) from that time until the next change (System::setEqualityActive).
struct EqualityChange {
  double time = 0.0;
  std::vector<char> active;
};

class Recording {
 public:
  /// Samples per chunk.
  static constexpr std::size_t kChunk = 4096;

  /// An empty recording of nq positions, nv velocities (nv < 0: nv = nq), nc constraint
  /// forces, nw auxiliary state variables and ns soft force channels. Throws
  /// std::invalid_argument for a negative nq, nc, nw or ns.
  explicit Recording(int nq = 0, int nv = -1, int nc = 0, int nw = 0, int ns = 0);
  /// Bytes one sample takes for nq positions, nv velocities (nv < 0: nv = nq), nc constraint
  /// forces, nw auxiliary variables and ns soft force channels.
  static std::size_t bytesPerSample(int nq, int nv = -1, int nc = 0, int nw = 0, int ns = 0) {
    return sizeof(double) * (std::size_t(nq) + std::size_t(nv < 0 ? nq : nv) + std::size_t(nc) +
                             std::size_t(nw) + std::size_t(ns) + 5);
  }

  int positionSize() const { return m_nq; }
  int velocitySize() const { return m_nv; }
  int constraintSize() const { return m_nc; }
  int auxiliarySize() const { return m_nw; }
  int softForceSize() const { return m_ns; }
  /// Where unit quaternions (w, x, y, z) start inside q: stateAt interpolates them by slerp.
  /// Throws std::invalid_argument for a block that does not fit in q.
  void setQuaternionBlocks(const std::vector<int>& starts);
  const std::vector<int>& quaternionBlocks() const { return m_quaternions; }
  std::size_t size() const { return m_size; }
  bool empty() const { return m_size == 0; }
  /// Appends a sample. Times must not decrease: a sample earlier than the last one throws
  /// std::invalid_argument, as does a size mismatch (q: positionSize(), qd: velocitySize()).
  /// `lambda` holds constraintSize() constraint forces, `w` auxiliarySize() auxiliary
  /// variables and `soft` softForceSize() soft force channels (null: zeros); `dissipated` is
  /// the energy dissipated since the start and `work` the work the actuators did since the
  /// start (J).
  void append(double t, const double* q, const double* qd, double kinetic, double potential,
              const double* lambda = nullptr, const double* w = nullptr, double dissipated = 0.0,
              double work = 0.0, const double* soft = nullptr);
  void append(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double kinetic,
              double potential, double dissipated = 0.0, double work = 0.0);
  /// Removes every sample, perturbation, control change and equality switch.
  void clear();
  /// Keeps the samples, perturbation and control changes and equality switches with time <= t
  /// and drops the later ones
  /// ("resume from here").
  void truncateAfter(double t);

  /// Logs that the perturbation changed at time t (s; changes must not go back in time: an
  /// earlier one throws std::invalid_argument). A change at the time of the last one replaces
  /// it. Throws std::invalid_argument for bad numbers (checkPerturbation).
  void setPerturbation(double t, const std::optional<Perturbation>& perturbation);
  /// The perturbation acting at time t: the last change at or before t (none before the first).
  std::optional<Perturbation> perturbationAt(double t) const;
  /// Every change, in time order.
  const std::vector<PerturbationChange>& perturbations() const { return m_perturbations; }

  /// Logs that the actuators' controls became `ctrl` at time t (s), as setPerturbation logs the
  /// perturbation: changes must not go back in time (an earlier one throws
  /// std::invalid_argument), one at the time of the last replaces it.
  void setControls(double t, const Eigen::VectorXd& ctrl);
  /// The controls in force at time t: the last change at or before t (empty before the first:
  /// the simulation's initial controls, zero).
  Eigen::VectorXd controlsAt(double t) const;
  /// Every control change, in time order.
  const std::vector<ControlChange>& controls() const { return m_controls; }

  /// Logs that the equalities' switches became `active` at time t (s), as setControls logs the
  /// controls (an earlier time throws std::invalid_argument, one at the last change's replaces
  /// it).
  void setEqualities(double t, const std::vector<char>& active);
  /// The switches in force at time t: the last change at or before t (empty before the first:
  /// the model's own, EqualitySpec::active).
  std::vector<char> equalitiesAt(double t) const;
  /// Every switch change, in time order.
  const std::vector<EqualityChange>& equalities() const { return m_equalities; }

  /// Sample k (k < size()): time (s), positions, velocities, energies (J).
  double time(std::size_t k) const { return at(k)[0]; }
  Eigen::Map<const Eigen::VectorXd> q(std::size_t k) const { return {at(k) + 1, m_nq}; }
  Eigen::Map<const Eigen::VectorXd> qd(std::size_t k) const { return {at(k) + 1 + m_nq, m_nv}; }
  double kinetic(std::size_t k) const { return at(k)[1 + m_nq + m_nv]; }
  double potential(std::size_t k) const { return at(k)[2 + m_nq + m_nv]; }
  /// The energy dissipated from the start to sample k (J; 0 for motions that do not say).
  double dissipated(std::size_t k) const { return at(k)[3 + m_nq + m_nv]; }
  /// The work the actuators did from the start to sample k (J; 0 for motions that do not say).
  double work(std::size_t k) const { return at(k)[4 + m_nq + m_nv]; }
  /// Constraint forces of sample k (constraintSize(); System::constraintForces for units).
  Eigen::Map<const Eigen::VectorXd> lambda(std::size_t k) const {
    return {at(k) + 5 + m_nq + m_nv, m_nc};
  }
  /// Auxiliary state of sample k (auxiliarySize(); System::auxiliaryState).
  Eigen::Map<const Eigen::VectorXd> auxiliary(std::size_t k) const {
    return {at(k) + 5 + m_nq + m_nv + m_nc, m_nw};
  }
  /// Soft constraint forces of sample k by channel (softForceSize(); System::currentSoftForces).
  Eigen::Map<const Eigen::VectorXd> softForces(std::size_t k) const {
    return {at(k) + 5 + m_nq + m_nv + m_nc + m_nw, m_ns};
  }
  /// First and last sample time (0 when empty).
  double startTime() const { return m_size ? time(0) : 0.0; }
  double endTime() const { return m_size ? time(m_size - 1) : 0.0; }

  /// Index of the last sample with time <= t (0 when t is before the first). O(log size).
  /// Throws std::out_of_range when empty.
  std::size_t indexAt(double t) const;
  /// The state at time t: linear interpolation between the samples around t (slerp for the
  /// quaternion blocks), clamped to the first and last sample outside the range, the later
  /// sample at a repeated time. Writes q and qd (resized). Throws std::out_of_range when empty.
  void stateAt(double t, Eigen::VectorXd& q, Eigen::VectorXd& qd) const;

  /// The samples as a Motion (t, q and the optional qd and energies), e.g. for saving; its
  /// `dissipated` (`actuatorWork`) is empty when every sample's is 0.
  Motion toMotion() const;
  /// A recording of a motion; qd, energies and the energy dissipated are zero where the motion
  /// lacks them.
  static Recording fromMotion(const Motion& motion);

 private:
  int m_nq = 0, m_nv = 0, m_nc = 0, m_nw = 0, m_ns = 0;
  std::size_t m_stride = 5, m_size = 0;
  std::vector<int> m_quaternions;
  std::vector<PerturbationChange> m_perturbations;
  std::vector<ControlChange> m_controls;
  std::vector<EqualityChange> m_equalities;
  std::vector<std::unique_ptr<double[]>> m_chunks;

  const double* at(std::size_t k) const { return m_chunks[k / kChunk].get() + (k % kChunk) * m_stride; }
  double* slot(std::size_t k);
};

}  // namespace art
