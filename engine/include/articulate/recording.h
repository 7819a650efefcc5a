#pragma once
// Recording: every sample of a simulated or loaded motion (time, q, qd, kinetic and potential
// energy), kept for playback and scrubbing. Samples live in fixed-size chunks so that growing a
// long recording never copies it; memory is 8 (2 n + 3) bytes per sample for n joints (344 bytes
// for 20 joints: one million samples take 344 MB) plus 8 bytes per 4096 samples.

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

  /// An empty recording of a model with n joints (n >= 0).
  explicit Recording(int n = 0);
  /// Bytes one sample takes for n joints.
  static std::size_t bytesPerSample(int n) { return sizeof(double) * (2 * std::size_t(n) + 3); }

  int joints() const { return m_n; }
  std::size_t size() const { return m_size; }
  bool empty() const { return m_size == 0; }
  /// Appends a sample. Times must not decrease: a sample earlier than the last one throws
  /// std::invalid_argument, as does a size mismatch (q, qd need joints() entries).
  void append(double t, const double* q, const double* qd, double kinetic, double potential);
  void append(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double kinetic,
              double potential);
  /// Removes every sample.
  void clear();
  /// Keeps the samples with time <= t and drops the later ones ("resume from here").
  void truncateAfter(double t);

  /// Sample k (k < size()): time (s), positions, velocities, energies (J).
  double time(std::size_t k) const { return at(k)[0]; }
  Eigen::Map<const Eigen::VectorXd> q(std::size_t k) const { return {at(k) + 1, m_n}; }
  Eigen::Map<const Eigen::VectorXd> qd(std::size_t k) const { return {at(k) + 1 + m_n, m_n}; }
  double kinetic(std::size_t k) const { return at(k)[1 + 2 * m_n]; }
  double potential(std::size_t k) const { return at(k)[2 + 2 * m_n]; }
  /// First and last sample time (0 when empty).
  double startTime() const { return m_size ? time(0) : 0.0; }
  double endTime() const { return m_size ? time(m_size - 1) : 0.0; }

  /// Index of the last sample with time <= t (0 when t is before the first). O(log size).
  /// Throws std::out_of_range when empty.
  std::size_t indexAt(double t) const;
  /// The state at time t: linear interpolation between the samples around t, clamped to the
  /// first and last sample outside the range, the later sample at a repeated time. Writes
  /// q and qd (resized to joints()). Throws std::out_of_range when empty.
  void stateAt(double t, Eigen::VectorXd& q, Eigen::VectorXd& qd) const;

  /// The samples as a Motion (t, q and the optional qd and energies), e.g. for saving.
  Motion toMotion() const;
  /// A recording of a motion; qd and energies are zero where the motion lacks them.
  static Recording fromMotion(const Motion& motion);

 private:
  int m_n = 0;
  std::size_t m_stride = 3, m_size = 0;
  std::vector<std::unique_ptr<double[]>> m_chunks;

  const double* at(std::size_t k) const { return m_chunks[k / kChunk].get() + (k % kChunk) * m_stride; }
  double* slot(std::size_t k);
};

}  // namespace art
