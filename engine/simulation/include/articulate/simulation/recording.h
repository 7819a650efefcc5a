#pragma once
// Recording: every sample of a simulated or loaded motion (time, q, qd, kinetic and potential
// energy, and the nc constraint forces of a system with constraints), kept for playback and
// scrubbing. Samples live in fixed-size chunks so that growing a long recording never copies
// it; memory is 8 (nq + nv + nc + 3) bytes per sample for nq positions, nv velocities and nc
// constraint rows (344 bytes for a 20-joint tree: one million samples take 344 MB) plus 8
// bytes per 4096 samples.

#include <cstddef>
#include <memory>
#include <vector>

#include <Eigen/Core>

namespace art {

struct Motion;

class Recording {
 public:
  /// Samples per chunk.
  static constexpr std::size_t kChunk = 4096;

  /// An empty recording of nq positions, nv velocities (nv < 0: nv = nq) and nc constraint
  /// forces. Throws std::invalid_argument for a negative nq or nc.
  explicit Recording(int nq = 0, int nv = -1, int nc = 0);
  /// Bytes one sample takes for nq positions, nv velocities (nv < 0: nv = nq) and nc
  /// constraint forces.
  static std::size_t bytesPerSample(int nq, int nv = -1, int nc = 0) {
    return sizeof(double) * (std::size_t(nq) + std::size_t(nv < 0 ? nq : nv) + std::size_t(nc) + 3);
  }

  int positionSize() const { return m_nq; }
  int velocitySize() const { return m_nv; }
  int constraintSize() const { return m_nc; }
  /// Where unit quaternions (w, x, y, z) start inside q: stateAt interpolates them by slerp.
  /// Throws std::invalid_argument for a block that does not fit in q.
  void setQuaternionBlocks(const std::vector<int>& starts);
  const std::vector<int>& quaternionBlocks() const { return m_quaternions; }
  std::size_t size() const { return m_size; }
  bool empty() const { return m_size == 0; }
  /// Appends a sample. Times must not decrease: a sample earlier than the last one throws
  /// std::invalid_argument, as does a size mismatch (q: positionSize(), qd: velocitySize()).
  /// `lambda` holds constraintSize() constraint forces (null: zeros).
  void append(double t, const double* q, const double* qd, double kinetic, double potential,
              const double* lambda = nullptr);
  void append(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double kinetic,
              double potential);
  /// Removes every sample.
  void clear();
  /// Keeps the samples with time <= t and drops the later ones ("resume from here").
  void truncateAfter(double t);

  /// Sample k (k < size()): time (s), positions, velocities, energies (J).
  double time(std::size_t k) const { return at(k)[0]; }
  Eigen::Map<const Eigen::VectorXd> q(std::size_t k) const { return {at(k) + 1, m_nq}; }
  Eigen::Map<const Eigen::VectorXd> qd(std::size_t k) const { return {at(k) + 1 + m_nq, m_nv}; }
  double kinetic(std::size_t k) const { return at(k)[1 + m_nq + m_nv]; }
  double potential(std::size_t k) const { return at(k)[2 + m_nq + m_nv]; }
  /// Constraint forces of sample k (constraintSize(); System::constraintForces for units).
  Eigen::Map<const Eigen::VectorXd> lambda(std::size_t k) const {
    return {at(k) + 3 + m_nq + m_nv, m_nc};
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

  /// The samples as a Motion (t, q and the optional qd and energies), e.g. for saving.
  Motion toMotion() const;
  /// A recording of a motion; qd and energies are zero where the motion lacks them.
  static Recording fromMotion(const Motion& motion);

 private:
  int m_nq = 0, m_nv = 0, m_nc = 0;
  std::size_t m_stride = 3, m_size = 0;
  std::vector<int> m_quaternions;
  std::vector<std::unique_ptr<double[]>> m_chunks;

  const double* at(std::size_t k) const { return m_chunks[k / kChunk].get() + (k % kChunk) * m_stride; }
  double* slot(std::size_t k);
};

}  // namespace art
