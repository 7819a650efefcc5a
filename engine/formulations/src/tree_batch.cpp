// BatchSimulation (tree_batch.h): Simulation's fixed-step integrators and checks over Lanes.
// Without free joints q and qd have the same size and dq/dt = qd.
#include "articulate/formulations/tree_batch.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace art {

std::string BatchSimulation::unsupported(const Model& model, const SimulationOptions& options) {
  const std::string why = batchUnsupported(model);
  if (!why.empty()) return why;
  if (model.controlled) return "joint controllers and damping take the one-state algorithms";
  if (model.stops) return "joint limits and friction take the one-state algorithms";
  if (options.integrator == Integrator::DormandPrince45) return "dopri5 adapts its steps to each state";
  if (options.integrator == Integrator::MujocoEuler) return "mujoco-euler takes the one-state algorithms";
  if (options.integrator == Integrator::MujocoImplicitFast) return "mujoco-implicitfast takes the one-state algorithms";
  return "";
}

BatchSimulation::BatchSimulation(const Model& model, const SimulationOptions& options)
    : m_model(model), m_opt(options), m_tree(model) {
  const std::string why = unsupported(model, options);
  if (!why.empty()) throw std::invalid_argument("BatchSimulation: " + why);
  if (!(options.dt > 0) || !std::isfinite(options.dt)) throw std::invalid_argument("BatchSimulation: dt must be > 0");
  // as Simulation::energyProjectionActive for a passive model without joint forces
  m_project = options.energyProjection && options.integrator != Integrator::SemiImplicitEuler;
  const std::size_t n = static_cast<std::size_t>(model.nv());
  for (auto* v : {&m_q, &m_qd, &m_q1, &m_qd1}) v->assign(n, Lanes{});
  for (int k = 0; k < 4; ++k) {
    m_kq[k].assign(n, Lanes{});
    m_kv[k].assign(n, Lanes{});
  }
  m_laneTime.assign(kLanes, 0.0);
  m_steps.assign(kLanes, 0);
  m_divergence.assign(kLanes, std::nullopt);
  Data data(model);
  m_energyScale = undrivenEnergyScale(model, energyMomentum(model, data, model.q0, model.qd0).mass);
  reset(0.0);
}

void BatchSimulation::reset(double t) {
  m_t = t;
  for (int l = 0; l < kLanes; ++l) {
    m_laneTime[static_cast<std::size_t>(l)] = t;
    m_steps[static_cast<std::size_t>(l)] = 0;
    m_divergence[static_cast<std::size_t>(l)].reset();
  }
  for (int i = 0; i < m_model.nv(); ++i) {
    m_q[static_cast<std::size_t>(i)] = Lanes{} + m_model.q0(i);
    m_qd[static_cast<std::size_t>(i)] = Lanes{} + m_model.qd0(i);
  }
  m_tree.kineticPotential(m_q.data(), m_qd.data(), m_kinetic, m_potential);
  m_e0 = m_kinetic + m_potential;
  m_target = m_e0;
}

void BatchSimulation::setState(int lane, const Eigen::VectorXd& q, const Eigen::VectorXd& qd) {
  if (lane < 0 || lane >= kLanes)
    throw std::invalid_argument("BatchSimulation::setState: lane " + std::to_string(lane) + " is not in [0, " +
                                std::to_string(kLanes) + ")");
  if (q.size() != m_model.nq() || qd.size() != m_model.nv())
    throw std::invalid_argument("BatchSimulation::setState: q needs " + std::to_string(m_model.nq()) +
                                " entries and qd " + std::to_string(m_model.nv()));
  for (int i = 0; i < m_model.nv(); ++i) {
    m_q[static_cast<std::size_t>(i)][lane] = q(i);
    m_qd[static_cast<std::size_t>(i)][lane] = qd(i);
  }
  m_laneTime[static_cast<std::size_t>(lane)] = m_t;
  m_steps[static_cast<std::size_t>(lane)] = 0;
  m_divergence[static_cast<std::size_t>(lane)].reset();
  // the energies of every lane again: lane by lane, the others' do not change
  m_tree.kineticPotential(m_q.data(), m_qd.data(), m_kinetic, m_potential);
  m_e0[lane] = m_kinetic[lane] + m_potential[lane];
  m_target[lane] = m_e0[lane];
}

void BatchSimulation::state(int lane, Eigen::VectorXd& q, Eigen::VectorXd& qd) const {
  q.resize(m_model.nq());
  qd.resize(m_model.nv());
  for (int i = 0; i < m_model.nv(); ++i) {
    q(i) = m_q[static_cast<std::size_t>(i)][lane];
    qd(i) = m_qd[static_cast<std::size_t>(i)][lane];
  }
}

void BatchSimulation::accel(const std::vector<Lanes>& q, const std::vector<Lanes>& qd, std::vector<Lanes>& qdd) {
  m_tree.forwardDynamics(q.data(), qd.data(), nullptr, qdd.data());
}

void BatchSimulation::step(double h) {
  const std::size_t n = m_q.size();
  if (m_opt.integrator == Integrator::SemiImplicitEuler) {
    accel(m_q, m_qd, m_kv[0]);
    for (std::size_t i = 0; i < n; ++i) {
      m_qd1[i] = m_qd[i] + h * m_kv[0][i];
      m_q1[i] = m_q[i] + h * m_qd1[i];
    }
  } else {  // RK4
    accel(m_q, m_qd, m_kv[0]);
    m_kq[0] = m_qd;
    for (int k = 1; k < 4; ++k) {
      const double c = k == 3 ? h : 0.5 * h;
      for (std::size_t i = 0; i < n; ++i) {
        m_q1[i] = m_q[i] + c * m_kq[k - 1][i];
        m_qd1[i] = m_qd[i] + c * m_kv[k - 1][i];
      }
      accel(m_q1, m_qd1, m_kv[k]);
      m_kq[k] = m_qd1;
    }
    const double h6 = h / 6;
    for (std::size_t i = 0; i < n; ++i) {
      m_q1[i] = m_q[i] + h6 * (m_kq[0][i] + 2 * m_kq[1][i] + 2 * m_kq[2][i] + m_kq[3][i]);
      m_qd1[i] = m_qd[i] + h6 * (m_kv[0][i] + 2 * m_kv[1][i] + 2 * m_kv[2][i] + m_kv[3][i]);
    }
  }
  commit(h);
}

void BatchSimulation::commit(double h) {
  const std::size_t n = m_q.size();
  m_t += h;
  // x * 0 is NaN exactly where x is not finite: one sum finds the lanes to look at
  Lanes bad{};
  for (std::size_t i = 0; i < n; ++i) bad += m_q1[i] * 0.0 + m_qd1[i] * 0.0;
  Lanes kinetic{}, potential{};
  m_tree.kineticPotential(m_q1.data(), m_qd1.data(), kinetic, potential);
  bool keep[kLanes];
  bool all = true, projected = false;
  for (int l = 0; l < kLanes; ++l) {
    std::optional<Divergence>& div = m_divergence[static_cast<std::size_t>(l)];
    keep[l] = false;
    if (div) {
      all = false;
      continue;
    }
    // as Simulation::check, at the time the step would have reached
    auto diverge = [&](const std::string& quantity, double value) {
      std::ostringstream s;
      s << "the simulation diverged at t = " << m_t << " s: " << quantity << " = " << value;
      div = Divergence{m_t, quantity, s.str()};
      all = false;
    };
    if (std::isnan(bad[l])) {  // as Simulation::check: the first entry, q before qd
      for (std::size_t i = 0; i < n && !div; ++i) {
        if (!std::isfinite(m_q1[i][l])) diverge("q[" + std::to_string(i) + "]", m_q1[i][l]);
        else if (!std::isfinite(m_qd1[i][l])) diverge("qd[" + std::to_string(i) + "]", m_qd1[i][l]);
      }
      continue;
    }
    const double total = kinetic[l] + potential[l];
    if (!std::isfinite(total) || std::abs(total - m_e0[l]) > m_opt.energyGrowthLimit * (std::abs(m_e0[l]) + 1.0)) {
      diverge("total energy", total);
      continue;
    }
    // nothing drives a batch (Simulation::check's undriven limit)
    if (const auto grew = undrivenEnergyGrowth(m_opt, total, m_target[l], m_energyScale)) {
      diverge("total energy", total);
      div->message += *grew;
      continue;
    }
    keep[l] = true;
    if (m_project) {  // Simulation::projectEnergy
      const double target = m_target[l] - potential[l];
      const double k = kinetic[l];
      if (k > 0 && target > 0 && std::abs(target - k) <= kMaxEnergyCorrection * k) {
        const double f = std::sqrt(target / k);
        for (std::size_t i = 0; i < n; ++i) m_qd1[i][l] *= f;
        projected = true;
      }
    }
    m_laneTime[static_cast<std::size_t>(l)] = m_t;
    ++m_steps[static_cast<std::size_t>(l)];
  }
  // the projected states' own energies (what samples report), not the target
  if (projected) m_tree.kineticPotential(m_q1.data(), m_qd1.data(), kinetic, potential);
  if (all) {
    m_q.swap(m_q1);
    m_qd.swap(m_qd1);
    m_kinetic = kinetic;
    m_potential = potential;
    return;
  }
  for (int l = 0; l < kLanes; ++l) {
    if (!keep[l]) continue;
    for (std::size_t i = 0; i < n; ++i) {
      m_q[i][l] = m_q1[i][l];
      m_qd[i][l] = m_qd1[i][l];
    }
    m_kinetic[l] = kinetic[l];
    m_potential[l] = potential[l];
  }
}

bool BatchSimulation::advanceTo(double t) {
  auto anyActive = [&] {
    return std::any_of(m_divergence.begin(), m_divergence.end(), [](const auto& d) { return !d; });
  };
  if (!anyActive()) return false;
  const double eps = 1e-12 * std::max(1.0, std::abs(t));
  while (t - m_t > eps) {
    step(std::min(m_opt.dt, t - m_t));
    if (!anyActive()) return false;
    // a last step of dt that overshoots by rounding lands exactly on t
    if (std::abs(t - m_t) <= eps) m_t = t;
  }
  m_t = std::max(m_t, t);
  for (int l = 0; l < kLanes; ++l)
    if (!m_divergence[static_cast<std::size_t>(l)]) m_laneTime[static_cast<std::size_t>(l)] = m_t;
  return true;
}

}  // namespace art
