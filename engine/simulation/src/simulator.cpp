// Simulator: a Simulation on its own thread with a command queue and a snapshot channel
// (see simulator.h). Pacing: the thread keeps an anchor (wall time, simulated time) and steps
// until the simulated time reaches anchor + speed * elapsed wall time; it re-anchors on play,
// speed changes and new states, and when it falls too far behind (a model too slow for the
// requested speed runs as fast as it can instead of trying to catch up later).
#include "articulate/simulation/simulator.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

namespace art {

namespace {
using Clock = std::chrono::steady_clock;
constexpr auto kWorkSlice = std::chrono::milliseconds(8);  // steps between command checks
constexpr double kMaxLag = 0.1;  // wall seconds behind schedule before giving up catching up
// The thread's unpublished samples are bounded: past this many doubles (64 MiB) while the
// consumer is not taking them, it stops stepping until it is (it never drops a sample).
constexpr std::size_t kMaxLocalDoubles = std::size_t(8) << 20;
}  // namespace

struct Simulator::Command {
  enum class Type { Load, Play, Pause, Step, Reset, SetState, Speed, Unpaced, StopTime, Perturb, Controls, ControlTable, Equalities, Quit };
  Type type = Type::Play;
  std::unique_ptr<System> system;
  double value = 0.0;
  double dissipated = 0.0, work = 0.0;  // SetState: J dissipated and done by actuators before the state
  long generation = 0;
  Eigen::VectorXd q, qd, w;
  std::optional<Perturbation> perturbation;
  std::shared_ptr<const ControlTable> table;
  std::vector<char> active;  // Equalities
};

Simulator::Simulator() {
  m_stopTime = std::numeric_limits<double>::infinity();
  m_thread = std::thread([this] { run(); });
}

Simulator::~Simulator() {
  {
    std::lock_guard<std::mutex> lock(m_commandMutex);
    m_quit = true;
  }
  m_wake.notify_one();
  m_thread.join();
}

namespace {
template <class Queue, class C>
void push(std::mutex& mutex, std::condition_variable& wake, Queue& queue, C&& command,
          std::atomic<long>& sent) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    queue.push_back(std::forward<C>(command));
    ++sent;  // under the lock: the queue's order and the count agree
  }
  wake.notify_one();
}
}  // namespace

long Simulator::load(std::shared_ptr<const Model> model, const SimulationOptions& options) {
  return load(std::make_unique<TreeSystem>(std::move(model), options));
}

long Simulator::load(std::unique_ptr<System> system) {
  if (!system) throw std::invalid_argument("Simulator::load: no system");
  auto c = std::make_unique<Command>();
  c->type = Command::Type::Load;
  c->system = std::move(system);
  c->generation = ++m_generation;
  const long g = c->generation;
  push(m_commandMutex, m_wake, m_commands, std::move(c), m_sent);
  return g;
}

void Simulator::play() {
  auto c = std::make_unique<Command>();
  c->type = Command::Type::Play;
  push(m_commandMutex, m_wake, m_commands, std::move(c), m_sent);
}

void Simulator::pause() {
  auto c = std::make_unique<Command>();
  c->type = Command::Type::Pause;
  push(m_commandMutex, m_wake, m_commands, std::move(c), m_sent);
}

void Simulator::stepOnce() {
  auto c = std::make_unique<Command>();
  c->type = Command::Type::Step;
  push(m_commandMutex, m_wake, m_commands, std::move(c), m_sent);
}

long Simulator::reset() {
  auto c = std::make_unique<Command>();
  c->type = Command::Type::Reset;
  c->generation = ++m_generation;
  const long g = c->generation;
  push(m_commandMutex, m_wake, m_commands, std::move(c), m_sent);
  return g;
}

long Simulator::setState(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                         const Eigen::VectorXd& w, double dissipated, double work) {
  auto c = std::make_unique<Command>();
  c->type = Command::Type::SetState;
  c->value = t;
  c->dissipated = dissipated;
  c->work = work;
  c->q = q;
  c->qd = qd;
  c->w = w;
  c->generation = ++m_generation;
  const long g = c->generation;
  push(m_commandMutex, m_wake, m_commands, std::move(c), m_sent);
  return g;
}

void Simulator::setSpeed(double speed) {
  auto c = std::make_unique<Command>();
  c->type = Command::Type::Speed;
  c->value = speed;
  push(m_commandMutex, m_wake, m_commands, std::move(c), m_sent);
}

void Simulator::setUnpaced(bool unpaced) {
  auto c = std::make_unique<Command>();
  c->type = Command::Type::Unpaced;
  c->value = unpaced ? 1.0 : 0.0;
  push(m_commandMutex, m_wake, m_commands, std::move(c), m_sent);
}

void Simulator::setStopTime(double t) {
  auto c = std::make_unique<Command>();
  c->type = Command::Type::StopTime;
  c->value = t;
  push(m_commandMutex, m_wake, m_commands, std::move(c), m_sent);
}

void Simulator::setPerturbation(const std::optional<Perturbation>& perturbation) {
  auto c = std::make_unique<Command>();
  c->type = Command::Type::Perturb;
  c->perturbation = perturbation;
  push(m_commandMutex, m_wake, m_commands, std::move(c), m_sent);
}

void Simulator::setControlTable(std::shared_ptr<const ControlTable> table) {
  auto c = std::make_unique<Command>();
  c->type = Command::Type::ControlTable;
  c->table = std::move(table);
  push(m_commandMutex, m_wake, m_commands, std::move(c), m_sent);
}

void Simulator::setControls(const Eigen::VectorXd& ctrl) {
  auto c = std::make_unique<Command>();
  c->type = Command::Type::Controls;
  c->q = ctrl;
  push(m_commandMutex, m_wake, m_commands, std::move(c), m_sent);
}

void Simulator::setEqualities(const std::vector<char>& active) {
  auto c = std::make_unique<Command>();
  c->type = Command::Type::Equalities;
  c->active = active;
  push(m_commandMutex, m_wake, m_commands, std::move(c), m_sent);
}

bool Simulator::takeSnapshots(SnapshotBatch& into) {
  into.data.clear();
  into.perturbations.clear();
  into.controls.clear();
  into.equalities.clear();
  {
    std::lock_guard<std::mutex> lock(m_channelMutex);
    if (m_sharedTaken) return false;
    std::swap(into, m_shared);
    m_sharedTaken = true;
  }
  return into.size() > 0;
}

SimulatorStatus Simulator::status() const {
  std::lock_guard<std::mutex> lock(m_statusMutex);
  return m_status;
}

void Simulator::setStatus() {
  std::lock_guard<std::mutex> lock(m_statusMutex);
  m_status.generation = m_threadGeneration;
  m_status.loaded = m_sim != nullptr;
  m_status.running = m_running;
  m_status.time = m_sim ? m_sim->time() : 0.0;
  m_status.steps = m_steps;
  m_status.divergence = m_sim ? m_sim->divergence() : std::nullopt;
  m_status.solver = m_sim ? m_sim->solverReport() : std::nullopt;
  m_status.error = m_error;
  m_status.commandsApplied = m_applied;
}

void Simulator::record() {
  // scripted controls change by themselves: each sample logs those acting at its time
  if (m_sim->controlsVary()) m_local.controls.push_back({m_sim->time(), m_sim->controls()});
  const EnergySample e = m_sim->energy();
  const int nq = m_local.nq, nv = m_local.nv;
  const std::size_t at = m_local.data.size();
  m_local.data.resize(at + m_local.stride());
  double* s = m_local.data.data() + at;
  s[0] = m_sim->time();
  Eigen::Map<Eigen::VectorXd>(s + 1, nq) = m_sim->positions();
  Eigen::Map<Eigen::VectorXd>(s + 1 + nq, nv) = m_sim->velocities();
  s[1 + nq + nv] = e.kinetic;
  s[2 + nq + nv] = e.potential;
  s[3 + nq + nv] = m_dissipatedBefore + m_sim->energyDissipated();
  s[4 + nq + nv] = m_workBefore + m_sim->actuatorWork();
  try {
    if (m_local.nc)
      m_sim->currentConstraintForces(Eigen::Map<Eigen::VectorXd>(s + 5 + nq + nv, m_local.nc));
    if (m_local.nw)
      m_sim->auxiliaryState(Eigen::Map<Eigen::VectorXd>(s + 5 + nq + nv + m_local.nc, m_local.nw));
    if (m_local.ns)
      m_sim->currentSoftForces(Eigen::Map<Eigen::VectorXd>(s + 5 + nq + nv + m_local.nc + m_local.nw, m_local.ns));
  } catch (...) {
    m_local.data.resize(at);  // no half-written sample is ever published
    throw;
  }
}

void Simulator::publish() {
  if (m_local.data.empty()) return;
  // the batch's header is the thread's own: once swapped out under the lock, m_shared belongs
  // to the consumer, whose takeSnapshots may swap it away at any moment, so it is never read
  // here after the lock is released
  const long generation = m_local.generation;
  const int nq = m_local.nq, nv = m_local.nv, nc = m_local.nc, nw = m_local.nw, ns = m_local.ns;
  bool swapped = false;
  {
    std::lock_guard<std::mutex> lock(m_channelMutex);
    if (m_sharedTaken) {
      std::swap(m_local, m_shared);
      m_sharedTaken = false;
      swapped = true;
    }
  }
  if (swapped) {
    // m_local now holds the consumer's old buffer: reuse its capacity
    m_local.data.clear();
    m_local.perturbations.clear();
    m_local.controls.clear();
    m_local.equalities.clear();
    m_local.generation = generation;
    m_local.nq = nq;
    m_local.nv = nv;
    m_local.nc = nc;
    m_local.nw = nw;
    m_local.ns = ns;
  }
}

void Simulator::apply(Command& c) {
  auto newGeneration = [&] {
    m_threadGeneration = c.generation;
    m_local.data.clear();
    m_local.perturbations.clear();
    m_local.controls.clear();
    m_local.equalities.clear();
    m_local.generation = c.generation;
    m_local.nq = m_sim ? m_sim->positionSize() : 0;
    m_local.nv = m_sim ? m_sim->velocitySize() : 0;
    m_local.nc = m_sim ? m_sim->constraintSize() : 0;
    m_local.nw = m_sim ? m_sim->auxiliarySize() : 0;
    m_local.ns = m_sim ? m_sim->softForceSize() : 0;
    m_steps = 0;
    m_error.clear();
  };
  switch (c.type) {
    case Command::Type::Load:
      m_sim = std::move(c.system);
      m_running = false;
      m_dissipatedBefore = m_workBefore = 0.0;
      newGeneration();
      record();
      return;
    case Command::Type::Reset:
      if (!m_sim) return;
      m_running = false;
      m_sim->reset();
      m_dissipatedBefore = m_workBefore = 0.0;
      newGeneration();
      record();
      return;
    case Command::Type::SetState:
      if (!m_sim) return;
      if (c.q.size() != m_sim->positionSize() || c.qd.size() != m_sim->velocitySize() ||
          (c.w.size() != 0 && c.w.size() != m_sim->auxiliarySize()) || !c.q.allFinite() ||
          !c.qd.allFinite() || !c.w.allFinite() || !std::isfinite(c.value)) {
        m_error = "setState: expected " + std::to_string(m_sim->positionSize()) +
                  " finite positions, " + std::to_string(m_sim->velocitySize()) +
                  " velocities and none or " + std::to_string(m_sim->auxiliarySize()) +
                  " auxiliary variables";
        return;
      }
      m_sim->setState(c.value, c.q, c.qd);
      if (c.w.size()) m_sim->setAuxiliaryState(c.w);
      m_dissipatedBefore = std::isfinite(c.dissipated) ? c.dissipated : 0.0;
      m_workBefore = std::isfinite(c.work) ? c.work : 0.0;
      newGeneration();
      record();
      return;
    case Command::Type::Play:
      m_running = m_sim && !m_sim->divergence() && m_sim->time() < m_stopTime;
      return;
    case Command::Type::Pause:
      m_running = false;
      return;
    case Command::Type::Step:
      if (m_sim && !m_running && m_sim->step()) {
        ++m_steps;
        record();
      }
      return;
    case Command::Type::Speed:
      if (c.value > 0 && std::isfinite(c.value)) m_speed = c.value;
      return;
    case Command::Type::Unpaced:
      m_unpaced = c.value != 0.0;
      return;
    case Command::Type::StopTime:
      m_stopTime = c.value;
      return;
    case Command::Type::Perturb:
      if (!m_sim) return;
      try {
        m_sim->setPerturbation(c.perturbation);
        m_local.perturbations.push_back({m_sim->time(), c.perturbation});
      } catch (const std::invalid_argument& e) {
        m_error = e.what();
      }
      return;
    case Command::Type::Controls:
      if (!m_sim) return;
      try {
        m_sim->setControls(c.q);
        m_local.controls.push_back({m_sim->time(), c.q});
      } catch (const std::invalid_argument& e) {
        m_error = e.what();
      }
      return;
    case Command::Type::ControlTable:
      if (!m_sim) return;
      try {
        m_sim->setControlTable(c.table);
        m_local.controls.push_back({m_sim->time(), m_sim->controls()});
      } catch (const std::invalid_argument& e) {
        m_error = e.what();
      }
      return;
    case Command::Type::Equalities:
      if (!m_sim) return;
      try {
        m_sim->setEqualityActive(c.active);
        m_local.equalities.push_back({m_sim->time(), c.active});
      } catch (const std::invalid_argument& e) {
        m_error = e.what();
      }
      return;
    case Command::Type::Quit:
      return;
  }
}

void Simulator::run() {
  // an exception from a system (a step, a constraint solve, a load) must not end the process
  // through std::terminate: it stops stepping and is reported in the status, and the thread
  // goes on serving commands (a load or a new state starts afresh)
  for (;;) {
    try {
      runLoop();
      return;
    } catch (const std::exception& e) {
      fault(e.what());
    } catch (...) {
      fault("an unknown error");
    }
  }
}

void Simulator::fault(const std::string& what) {
  m_running = false;
  m_error = "The simulation stopped: " + what;
  publish();
  setStatus();
}

void Simulator::runLoop() {
  Clock::time_point anchorWall = Clock::now(), rateWall = anchorWall;
  double anchorSim = 0.0, rateSim = 0.0;
  bool wasRunning = false;
  for (;;) {
    std::deque<std::unique_ptr<Command>> commands;
    {
      std::unique_lock<std::mutex> lock(m_commandMutex);
      auto woken = [&] { return m_quit || !m_commands.empty(); };
      const bool full = m_local.data.size() >= kMaxLocalDoubles;
      if (!m_running || full) {
        // idle (or the consumer is behind): wait for a command; poll only while unpublished
        // samples wait for the consumer
        if (m_local.data.empty()) m_wake.wait(lock, woken);
        else m_wake.wait_for(lock, std::chrono::milliseconds(4), woken);
      }
      if (m_quit) return;
      commands.swap(m_commands);
    }
    for (auto& c : commands) {
      ++m_applied;  // counted first: a command that throws has still been dealt with
      apply(*c);
    }
    // any command (play, speed, a new state) restarts the pacing from now
    if (m_running && (!commands.empty() || !wasRunning) && m_sim) {
      anchorWall = rateWall = Clock::now();
      anchorSim = rateSim = m_sim->time();
    }
    wasRunning = m_running;
    if (!m_running || !m_sim || m_local.data.size() >= kMaxLocalDoubles) {
      publish();
      setStatus();
      continue;
    }
    const Clock::time_point start = Clock::now();
    const double target =
        m_unpaced ? std::numeric_limits<double>::infinity()
                  : anchorSim + m_speed * std::chrono::duration<double>(start - anchorWall).count();
    const double stop = std::min(target, m_stopTime);
    int k = 0;
    while (m_sim->time() < stop) {
      if (!m_sim->step()) {
        m_running = false;  // diverged: the status carries the message
        break;
      }
      ++m_steps;
      record();
      if ((++k & 15) == 0 && (Clock::now() - start > kWorkSlice || m_local.data.size() >= kMaxLocalDoubles))
        break;
    }
    const Clock::time_point now = Clock::now();
    if (m_sim->time() >= m_stopTime) m_running = false;
    // too far behind schedule: run at the speed the machine allows
    if (!m_unpaced && (target - m_sim->time()) / m_speed > kMaxLag) {
      anchorWall = now;
      anchorSim = m_sim->time();
    }
    const double wall = std::chrono::duration<double>(now - rateWall).count();
    if (wall > 0.5) {
      std::lock_guard<std::mutex> lock(m_statusMutex);
      m_status.realTimeFactor = (m_sim->time() - rateSim) / wall;
      rateWall = now;
      rateSim = m_sim->time();
    }
    publish();
    setStatus();
    if (m_running && !m_unpaced && m_sim->time() >= target) {
      // ahead of the wall clock: sleep until the next step is due (or a command arrives)
      const double ahead = (m_sim->time() - target) / m_speed;
      const auto sleep = std::chrono::duration<double>(std::clamp(ahead, 5e-4, 0.02));
      std::unique_lock<std::mutex> lock(m_commandMutex);
      m_wake.wait_for(lock, sleep, [&] { return m_quit || !m_commands.empty(); });
    }
  }
}

}  // namespace art
