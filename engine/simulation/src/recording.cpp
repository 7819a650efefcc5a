// Recording: chunked sample storage for playback and scrubbing (see recording.h).
#include "articulate/simulation/recording.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <cstring>
#include <stdexcept>
#include <string>

#include <Eigen/Geometry>

#include "articulate/model/motion.h"

namespace art {

namespace {
// the first change after time t in a log of changes in time order
template <class Change>
auto changeAfter(const std::vector<Change>& log, double t) {
  return std::upper_bound(log.begin(), log.end(), t, [](double time, const Change& c) { return time < c.time; });
}
// appends a change to a log (one at the last one's time replaces it); `what` names the caller
template <class Change>
void logChange(std::vector<Change>& log, Change change, const char* what) {
  if (!std::isfinite(change.time)) throw std::invalid_argument(std::string(what) + ": time is not finite");
  if (!log.empty() && change.time < log.back().time)
    throw std::invalid_argument(std::string(what) + ": time " + std::to_string(change.time) +
                                " s is before the last change's");
  if (!log.empty() && change.time == log.back().time)
    log.back() = std::move(change);
  else
    log.push_back(std::move(change));
}
}  // namespace

Recording::Recording(int nq, int nv, int nc, int nw, int ns)
    : m_nq(nq), m_nv(nv < 0 ? nq : nv), m_nc(nc), m_nw(nw), m_ns(ns) {
  if (nq < 0 || nc < 0 || nw < 0 || ns < 0) throw std::invalid_argument("Recording: negative state size");
  m_stride = static_cast<std::size_t>(m_nq + m_nv + m_nc + m_nw + m_ns) + 5;
}

void Recording::setQuaternionBlocks(const std::vector<int>& starts) {
  for (int s : starts)
    if (s < 0 || s + 4 > m_nq)
      throw std::invalid_argument("Recording: quaternion block at " + std::to_string(s) +
                                  " does not fit in " + std::to_string(m_nq) + " positions");
  m_quaternions = starts;
}

double* Recording::slot(std::size_t k) {
  const std::size_t c = k / kChunk;
  while (m_chunks.size() <= c) m_chunks.emplace_back(new double[kChunk * m_stride]);
  return m_chunks[c].get() + (k % kChunk) * m_stride;
}

void Recording::append(double t, const double* q, const double* qd, double kinetic,
                       double potential, const double* lambda, const double* w, double dissipated,
                       double work, const double* soft) {
  if (m_size && t < endTime())
    throw std::invalid_argument("Recording::append: time " + std::to_string(t) +
                                " s is before the last sample's");
  double* s = slot(m_size);
  s[0] = t;
  std::memcpy(s + 1, q, sizeof(double) * m_nq);
  std::memcpy(s + 1 + m_nq, qd, sizeof(double) * m_nv);
  s[1 + m_nq + m_nv] = kinetic;
  s[2 + m_nq + m_nv] = potential;
  s[3 + m_nq + m_nv] = dissipated;
  s[4 + m_nq + m_nv] = work;
  if (lambda)
    std::memcpy(s + 5 + m_nq + m_nv, lambda, sizeof(double) * m_nc);
  else
    std::fill(s + 5 + m_nq + m_nv, s + 5 + m_nq + m_nv + m_nc, 0.0);
  double* aux = s + 5 + m_nq + m_nv + m_nc;
  if (w)
    std::memcpy(aux, w, sizeof(double) * m_nw);
  else
    std::fill(aux, aux + m_nw, 0.0);
  if (soft)
    std::memcpy(aux + m_nw, soft, sizeof(double) * m_ns);
  else
    std::fill(aux + m_nw, aux + m_nw + m_ns, 0.0);
  ++m_size;
}

void Recording::append(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                       double kinetic, double potential, double dissipated, double work) {
  if (q.size() != m_nq || qd.size() != m_nv)
    throw std::invalid_argument("Recording::append: q needs " + std::to_string(m_nq) +
                                " entries and qd " + std::to_string(m_nv));
  append(t, q.data(), qd.data(), kinetic, potential, nullptr, nullptr, dissipated, work);
}

void Recording::clear() {
  m_chunks.clear();
  m_size = 0;
  m_perturbations.clear();
  m_controls.clear();
  m_equalities.clear();
}

void Recording::setControls(double t, const Eigen::VectorXd& ctrl) {
  logChange(m_controls, ControlChange{t, ctrl}, "Recording::setControls");
}

Eigen::VectorXd Recording::controlsAt(double t) const {
  const auto after = changeAfter(m_controls, t);
  if (after == m_controls.begin()) return Eigen::VectorXd();
  return std::prev(after)->ctrl;
}

void Recording::setEqualities(double t, const std::vector<char>& active) {
  logChange(m_equalities, EqualityChange{t, active}, "Recording::setEqualities");
}

std::vector<char> Recording::equalitiesAt(double t) const {
  const auto after = changeAfter(m_equalities, t);
  if (after == m_equalities.begin()) return {};
  return std::prev(after)->active;
}

void Recording::setPerturbation(double t, const std::optional<Perturbation>& perturbation) {
  if (perturbation) checkPerturbation(*perturbation);
  logChange(m_perturbations, PerturbationChange{t, perturbation}, "Recording::setPerturbation");
}

std::optional<Perturbation> Recording::perturbationAt(double t) const {
  const auto after = changeAfter(m_perturbations, t);
  if (after == m_perturbations.begin()) return std::nullopt;
  return std::prev(after)->perturbation;
}

void Recording::truncateAfter(double t) {
  m_perturbations.erase(changeAfter(m_perturbations, t), m_perturbations.end());
  m_controls.erase(changeAfter(m_controls, t), m_controls.end());
  m_equalities.erase(changeAfter(m_equalities, t), m_equalities.end());
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
  for (int s : m_quaternions) {
    const Eigen::Quaterniond q0(this->q(k)(s), this->q(k)(s + 1), this->q(k)(s + 2), this->q(k)(s + 3));
    const Eigen::Quaterniond q1(this->q(k + 1)(s), this->q(k + 1)(s + 1), this->q(k + 1)(s + 2),
                                this->q(k + 1)(s + 3));
    const Eigen::Quaterniond r = q0.normalized().slerp(a, q1.normalized());  // shortest arc
    q(s) = r.w();
    q(s + 1) = r.x();
    q(s + 2) = r.y();
    q(s + 3) = r.z();
  }
}

Motion Recording::toMotion() const {
  Motion m;
  const Eigen::Index nt = static_cast<Eigen::Index>(m_size);
  m.t.resize(nt);
  m.q.resize(nt, m_nq);
  m.qd.resize(nt, m_nv);
  m.kinetic.resize(nt);
  m.potential.resize(nt);
  bool dissipative = false, actuated = false;
  for (std::size_t k = 0; k < m_size; ++k) {
    m.t(k) = time(k);
    m.q.row(k) = q(k).transpose();
    m.qd.row(k) = qd(k).transpose();
    m.kinetic(k) = kinetic(k);
    m.potential(k) = potential(k);
    dissipative = dissipative || dissipated(k) != 0.0;
    actuated = actuated || work(k) != 0.0;
  }
  if (dissipative) {
    m.dissipated.resize(nt);
    for (std::size_t k = 0; k < m_size; ++k) m.dissipated(k) = dissipated(k);
  }
  if (actuated) {
    m.actuatorWork.resize(nt);
    for (std::size_t k = 0; k < m_size; ++k) m.actuatorWork(k) = work(k);
  }
  return m;
}

Recording Recording::fromMotion(const Motion& motion) {
  const int n = static_cast<int>(motion.q.cols());
  const int nv = motion.qd.size() ? static_cast<int>(motion.qd.cols()) : n;
  Recording r(n, nv);
  const Eigen::Index nt = motion.t.size();
  if (motion.q.rows() != nt || (motion.qd.size() && motion.qd.rows() != nt) ||
      (motion.kinetic.size() && motion.kinetic.size() != nt) ||
      (motion.potential.size() && motion.potential.size() != nt) ||
      (motion.dissipated.size() && motion.dissipated.size() != nt) ||
      (motion.actuatorWork.size() && motion.actuatorWork.size() != nt))
    throw std::invalid_argument("Recording::fromMotion: t, q, qd and energies differ in length");
  Eigen::VectorXd q(n), qd = Eigen::VectorXd::Zero(nv);
  for (Eigen::Index k = 0; k < nt; ++k) {
    q = motion.q.row(k).transpose();
    if (motion.qd.size()) qd = motion.qd.row(k).transpose();
    r.append(motion.t(k), q, qd, motion.kinetic.size() ? motion.kinetic(k) : 0.0,
             motion.potential.size() ? motion.potential(k) : 0.0,
             motion.dissipated.size() ? motion.dissipated(k) : 0.0,
             motion.actuatorWork.size() ? motion.actuatorWork(k) : 0.0);
  }
  return r;
}

}  // namespace art
