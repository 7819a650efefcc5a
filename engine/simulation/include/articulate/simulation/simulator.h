#pragma once
// Simulator: runs a Simulation on its own thread, paced to the wall clock times a speed factor
// (or as fast as possible), and publishes every step's state as a snapshot. The GUI (or any
// caller) talks to it only through commands, which are queued and applied between steps, and
// takes the published snapshots in batches; the lock on the snapshot channel guards only a
// buffer swap, so no caller ever waits on a step. Engine only: std::thread, no Qt.

#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <Eigen/Core>

#include "articulate/model/model.h"
#include "articulate/formulations/tree_simulation.h"
#include "articulate/simulation/recording.h"
#include "articulate/simulation/system.h"

namespace art {

/// Published samples in one flat buffer: sample k is data[k * stride ...] = t, q (nq), v (nv),
/// kinetic, potential, the energy dissipated since t = 0 (the `dissipated` of the generation's
/// setState plus System::energyDissipated), the actuators' work since t = 0 (likewise `work`
/// plus System::actuatorWork), constraint forces (nc; System::
/// currentConstraintForces), auxiliary state (nw; System::auxiliaryState), soft constraint
/// forces by channel (ns; System::currentSoftForces). `controls` are the actuators' control
/// changes the thread applied, stamped likewise, and `equalities` its equality switches. `perturbations` are the
/// perturbation changes the thread applied since the previous batch, stamped with the simulation
/// time they took effect at (they act on the steps after it). All samples of a batch belong to one
/// `generation` (see Simulator).
struct SnapshotBatch {
  long generation = 0;
  int nq = 0, nv = 0, nc = 0, nw = 0, ns = 0;  // position, velocity, constraint, auxiliary, soft force sizes
  std::vector<double> data;
  std::vector<PerturbationChange> perturbations;
  std::vector<ControlChange> controls;  // control changes applied since the previous batch
  std::vector<EqualityChange> equalities;  // equality switches applied since the previous batch
  std::size_t stride() const { return static_cast<std::size_t>(nq + nv + nc + nw + ns) + 5; }
  std::size_t size() const { return data.size() / stride(); }
  double time(std::size_t k) const { return data[k * stride()]; }
  const double* q(std::size_t k) const { return data.data() + k * stride() + 1; }
  const double* qd(std::size_t k) const { return q(k) + nq; }
  double kinetic(std::size_t k) const { return data[k * stride() + 1 + nq + nv]; }
  double potential(std::size_t k) const { return data[k * stride() + 2 + nq + nv]; }
  double dissipated(std::size_t k) const { return data[k * stride() + 3 + nq + nv]; }
  double work(std::size_t k) const { return data[k * stride() + 4 + nq + nv]; }
  const double* lambda(std::size_t k) const { return q(k) + nq + nv + 4; }
  const double* auxiliary(std::size_t k) const { return lambda(k) + nc; }
  const double* softForces(std::size_t k) const { return auxiliary(k) + nw; }
};

/// What the simulator is doing, as last reported by its thread.
struct SimulatorStatus {
  long generation = 0;        // of the last load/reset/setState the thread has applied
  bool loaded = false;
  bool running = false;      // stepping (not paused)
  double time = 0.0;         // simulation time of the last step (s)
  long steps = 0;            // steps since the last load/reset/setState
  double realTimeFactor = 0.0;  // simulated seconds per wall second over the last ~0.5 s
  std::optional<Divergence> divergence;  // why it paused itself, if it did
  std::optional<SolverReport> solver;  // the soft constraint solver's last figures (soft physics)
  long commandsApplied = 0;   // commands the thread has applied (see Simulator::commandsSent)
  std::string error;         // a rejected command (e.g. a wrong state size), or the exception
                             // that stopped the simulation ("The simulation stopped: ...")
};

class Simulator {
 public:
  /// Starts the (idle) simulation thread.
  Simulator();
  /// Stops and joins the thread.
  ~Simulator();
  Simulator(const Simulator&) = delete;
  Simulator& operator=(const Simulator&) = delete;

  // --- commands: thread-safe, never block on a step, applied in order between steps ---
  /// Replaces the system (paused, at its current state: a new system's initial state). The
  /// simulator owns it from now on and only its thread touches it. Returns the new
  /// generation: snapshots of earlier generations are stale.
  long load(std::unique_ptr<System> system);
  /// load() of a kinematic tree (TreeSystem).
  long load(std::shared_ptr<const Model> model, const SimulationOptions& options);
  /// Starts or resumes stepping, paced to the wall clock times the speed factor.
  void play();
  void pause();
  /// One step (while paused), published like any other.
  void stepOnce();
  /// Back to the system's initial state at t = 0 (paused). Returns the new generation.
  long reset();
  /// Sets the state (e.g. "resume from here"), with the auxiliary state `w` when given (a
  /// recorded sample's: System::setAuxiliaryState; empty: the system's reset value), the
  /// energy dissipated and the actuators' work before t (J: the recorded sample's, so that the
  /// published samples go on counting from them); keeps playing or pausing. Returns the new generation. A size mismatch
  /// is reported in status().error and changes nothing.
  long setState(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                const Eigen::VectorXd& w = {}, double dissipated = 0.0, double work = 0.0);
  /// Simulated seconds per wall second (> 0); ignored while running as fast as possible.
  void setSpeed(double speed);
  /// Run as fast as possible (true) or paced to the wall clock (false, the default).
  void setUnpaced(bool unpaced);
  /// Stops stepping at this simulated time (s) and pauses; infinity (the default) runs on.
  void setStopTime(double t);
  /// Sets or (nullopt) removes the system's perturbation (System::setPerturbation: the
  /// viewport's mouse pull), felt from the next step on; playing or paused as before. A load
  /// starts without one. A refusal (a body out of range, bad numbers) is reported in
  /// status().error and changes nothing.
  void setPerturbation(const std::optional<Perturbation>& perturbation);
  /// Sets the actuators' controls (System::setControls; actuatorSize entries), felt from the
  /// next step on and published as a ControlChange at the time they took effect. A load starts
  /// with zero controls. A size mismatch is reported in status().error and changes nothing.
  void setControls(const Eigen::VectorXd& ctrl);
  /// Drives the actuators by a control table (System::setControlTable; null removes it),
  /// from the next step on; each published sample then logs the controls acting at its time.
  /// A refusal is reported in status().error.
  void setControlTable(std::shared_ptr<const ControlTable> table);
  /// Switches the system's equality constraints (System::setEqualityActive; equalitySize
  /// entries, 1 acting), felt from the next step on and published as an EqualityChange at the
  /// time they took effect. A size mismatch is reported in status().error and changes nothing.
  void setEqualities(const std::vector<char>& active);

  // --- results ---
  /// Takes every snapshot published since the last call (swapping buffers under the lock;
  /// `into` is cleared first and its capacity reused). Returns false when there was none.
  bool takeSnapshots(SnapshotBatch& into);
  /// The thread's latest status (a copy).
  SimulatorStatus status() const;
  /// The generation of the most recent load/reset/setState command.
  long generation() const { return m_generation.load(); }
  /// How many commands have been sent so far. Commands are applied in order, so once
  /// status().commandsApplied reaches this count every command sent before has taken effect
  /// (a test or a caller waits for a state this way instead of for a time).
  long commandsSent() const { return m_sent.load(); }

 private:
  struct Command;
  void run();
  void runLoop();
  void fault(const std::string& what);  // stops stepping after an exception, reported in status
  void apply(Command& c);
  void publish();  // hands the local batch to the consumer when it took the last one
  void record();
  void setStatus();

  // command queue
  std::mutex m_commandMutex;
  std::condition_variable m_wake;
  std::deque<std::unique_ptr<Command>> m_commands;
  bool m_quit = false;
  std::atomic<long> m_generation{0};
  std::atomic<long> m_sent{0};

  // snapshot channel: the thread fills m_local and swaps it into m_shared when that was taken
  std::mutex m_channelMutex;
  SnapshotBatch m_shared;
  bool m_sharedTaken = true;
  SnapshotBatch m_local;

  mutable std::mutex m_statusMutex;
  SimulatorStatus m_status;

  // owned by the thread
  std::unique_ptr<System> m_sim;
  bool m_running = false, m_unpaced = false;
  double m_speed = 1.0, m_stopTime = 0.0;
  double m_dissipatedBefore = 0.0;  // J dissipated before the system's state was last set
  double m_workBefore = 0.0;        // J the actuators did before it
  long m_steps = 0, m_threadGeneration = 0, m_applied = 0;
  std::string m_error;

  std::thread m_thread;  // last: started after everything above exists
};

}  // namespace art
