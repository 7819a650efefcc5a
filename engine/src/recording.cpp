// Recording: chunked sample storage for playback and scrubbing (see recording.h).
#include "articulate/recording.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "articulate/model_format.h"

namespace art {

Recording::Recording(int n) : m_n(n), m_stride(2 * static_cast<std::size_t>(n) + 3) {
  if (n < 0) throw std::invalid_argument("Recording: negative number of joints");
}

double* Recording::slot(std::size_t k) {
  const std::size_t c = k / kChunk;
  while (m_chunks.size() <= c) m_chunks.emplace_back(new double[kChunk * m_stride]);
  return m_chunks[c].get() + (k % kChunk) * m_stride;
}

void Recording::append(double t, const double* q, const double* qd, double kinetic,
                       double potential) {
  if (m_size && t < endTime())
    throw std::invalid_argument("Recording::append: time " + std::to_string(t) +
                                " s is before the last sample's");
  double* s = slot(m_size);
  s[0] = t;
  std::memcpy(s + 1, q, sizeof(double) * m_n);
  std::memcpy(s + 1 + m_n, qd, sizeof(double) * m_n);
  s[1 + 2 * m_n] = kinetic;
  s[2 + 2 * m_n] = potential;
  ++m_size;
}

void Recording::append(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                       double kinetic, double potential) {
  if (q.size() != m_n || qd.size() != m_n)
    throw std::invalid_argument("Recording::append: q and qd need " + std::to_string(m_n) +
                                " entries");
  append(t, q.data(), qd.data(), kinetic, potential);
}

void Recording::clear() {
  m_chunks.clear();
  m_size = 0;
}

void Recording::truncateAfter(double t) {
  if (!m_size) return;
  if (t < startTime()) {
    clear();
    return;
  }
  m_size = indexAt(t) + 1;
  m_chunks.resize((m_size + kChunk - 1) / kChunk);
}

std::size_t Recording::indexAt(double t) const {
  if (!m_size) throw std::out_of_range("Recording: no samples");
  // first sample with time > t, minus one
  std::size_t lo = 0, hi = m_size;
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (time(mid) > t) hi = mid;
    else lo = mid + 1;
  }
  return lo ? lo - 1 : 0;
}

void Recording::stateAt(double t, Eigen::VectorXd& q, Eigen::VectorXd& qd) const {
  const std::size_t k = indexAt(t);
  if (k + 1 >= m_size || !(t > time(k))) {
    q = this->q(k);
    qd = this->qd(k);
    return;
  }
  const double span = time(k + 1) - time(k);
  const double a = span > 0 ? (t - time(k)) / span : 1.0;
  q = (1 - a) * this->q(k) + a * this->q(k + 1);
  qd = (1 - a) * this->qd(k) + a * this->qd(k + 1);
}

Motion Recording::toMotion() const {
  Motion m;
  const Eigen::Index nt = static_cast<Eigen::Index>(m_size);
  m.t.resize(nt);
  m.q.resize(nt, m_n);
  m.qd.resize(nt, m_n);
  m.kinetic.resize(nt);
  m.potential.resize(nt);
  for (std::size_t k = 0; k < m_size; ++k) {
    m.t(k) = time(k);
    m.q.row(k) = q(k).transpose();
    m.qd.row(k) = qd(k).transpose();
    m.kinetic(k) = kinetic(k);
    m.potential(k) = potential(k);
  }
  return m;
}

Recording Recording::fromMotion(const Motion& motion) {
  const int n = static_cast<int>(motion.q.cols());
  Recording r(n);
  const Eigen::Index nt = motion.t.size();
  if (motion.q.rows() != nt || (motion.qd.size() && motion.qd.rows() != nt) ||
      (motion.kinetic.size() && motion.kinetic.size() != nt) ||
      (motion.potential.size() && motion.potential.size() != nt))
    throw std::invalid_argument("Recording::fromMotion: t, q, qd and energies differ in length");
  Eigen::VectorXd q(n), qd = Eigen::VectorXd::Zero(n);
  for (Eigen::Index k = 0; k < nt; ++k) {
    q = motion.q.row(k).transpose();
    if (motion.qd.size()) qd = motion.qd.row(k).transpose();
    r.append(motion.t(k), q, qd, motion.kinetic.size() ? motion.kinetic(k) : 0.0,
             motion.potential.size() ? motion.potential(k) : 0.0);
  }
  return r;
}

}  // namespace art
