#pragma once
// Playback of a model's timeline, as showmotion (../shared/spec/showmotion.md section 4) plus a
// live simulation: `Playback` holds the recording and the playhead and drives the Simulator;
// `PlaybackBar` is its row of buttons and sliders. Two kinds of timeline:
//  - an animation: a fixed recording (a motion file, or a simulation recording opened again);
//  - a live simulation: a Simulator thread appends to the recording while it runs; the playhead
//    follows the newest sample unless the user scrubs back, and "resume from here" restarts the
//    simulation from the scrubbed state, discarding the later samples.

#include <memory>
#include <optional>

#include <QByteArray>
#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QWidget>

#include "articulate/simulation/recording.h"
#include "articulate/simulation/simulator.h"

class QAction;
class QLabel;
class QSlider;
class QTimer;
class QToolButton;

namespace art::gui {

/// The speed scale, logarithmic as showmotion's: positions 0..kSpeedSteps-1 run through round
/// speeds, six per decade (1, 1.5, 2, 3, 5, 7 times a power of ten), from 0.001 to 20; 1.0 at
/// kSpeedOne, eight presses of '.' from it to 20.
inline constexpr int kSpeedSteps = 27;
inline constexpr int kSpeedOne = 18;
double speedAt(int index);
/// The position whose speed is nearest (in log) to `speed`.
int speedIndex(double speed);
/// Decimals of the time readout at a speed: more when slower (2 at speed 1 and above), and at
/// least enough to tell samples `spacing` s apart (0: no samples).
int timeDecimals(double speed, double spacing = 0);
/// Steps of the fine slider over the whole range, and of the coarse one.
inline constexpr int kFineSteps = 10000;
inline constexpr int kCoarseSteps = 100;
/// A live recording pauses the simulation when it would pass recordingLimitBytes(): at most
/// this many bytes (4 GiB) ...
inline constexpr double kRecordingLimitBytes = 4.0 * 1024 * 1024 * 1024;
/// ... and at most half the memory available when the recording starts (MemAvailable in
/// /proc/meminfo, which counts free memory and what the kernel can reclaim), so that a long
/// recording pauses the simulation instead of driving the machine into swap or the OOM killer.
/// `meminfo` is the text of /proc/meminfo (empty: read it; without a MemAvailable line the 4 GiB
/// cap alone applies).
double recordingLimitBytes(const QByteArray& meminfo = {});

class Playback : public QObject {
  Q_OBJECT
 public:
  explicit Playback(QObject* parent = nullptr);
  ~Playback() override;

  /// Shows a fixed recording (an animation). Stops any simulation.
  void setAnimation(Recording recording);
  /// Starts a live timeline: hands the system to the simulator (paused at its current state).
  void setSimulation(std::unique_ptr<System> system);
  /// Nothing to play.
  void clear();

  bool live() const { return m_live; }
  bool hasTimeline() const { return !m_recording.empty(); }
  const Recording& recording() const { return m_recording; }
  double time() const { return m_time; }
  double startTime() const { return m_recording.startTime(); }
  double endTime() const { return m_recording.endTime(); }
  bool playing() const { return m_playing; }
  /// Whether the simulation thread is stepping (live timelines).
  bool simulating() const { return m_live && m_simStatus.running; }
  /// Whether the playhead follows the newest sample of a live recording.
  bool following() const { return m_follow; }
  int speedIndex() const { return m_speedIndex; }
  double speed() const { return speedAt(m_speedIndex); }
  bool reversed() const { return m_reverse; }
  bool repeating() const { return m_repeat; }
  bool unpaced() const { return m_unpaced; }
  /// The simulator's last status (live timelines).
  const SimulatorStatus& simulatorStatus() const { return m_simStatus; }
  /// The state shown now (interpolated at time()).
  const Eigen::VectorXd& q() const { return m_q; }
  const Eigen::VectorXd& qd() const { return m_qd; }
  /// Live: takes `history` (of this timeline's sizes) as the recording up to time t, and the
  /// simulation goes on from (q, qd) at t (after a value edit of the model: what was recorded
  /// before stays); playing or paused as before.
  void continueFrom(Recording history, double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd);
  /// Live: takes `recording` (of this timeline's sizes) back whole, with the simulation paused
  /// at its last state and the playhead at `playhead` (undoing an edit that set it aside).
  void restoreRecording(Recording recording, double playhead);
  /// Hands the recording over (moved, not copied) and leaves an empty one: the caller then
  /// starts another timeline.
  Recording releaseRecording();
  /// Live: sets or (nullopt) removes the simulation's perturbation (the viewport's mouse pull;
  /// Simulator::setPerturbation), felt from the next step on. Does nothing on an animation; a
  /// new timeline starts without one.
  void setPerturbation(const std::optional<Perturbation>& perturbation);
  /// The perturbation set last (live timelines), if any.
  const std::optional<Perturbation>& perturbation() const { return m_perturbation; }
  /// Live: sets the actuators' controls (one per actuator; Simulator::setControls), felt from
  /// the next step on and recorded with the time they took effect. Does nothing on an
  /// animation or for another size; a new timeline starts with the model's initial controls.
  void setControls(const Eigen::VectorXd& ctrl);
  /// Live: drives the actuators by a control table (Simulator::setControlTable; null removes
  /// it) from the next step on; the recording then logs the controls of every sample.
  void setControlTable(std::shared_ptr<const ControlTable> table);
  /// The controls set last (live timelines; one per actuator, else empty).
  const Eigen::VectorXd& controls() const { return m_controls; }
  /// The controls in force at time t: the recording's (Recording::controlsAt), else those set
  /// last (live), else empty.
  Eigen::VectorXd controlsAt(double t) const;
  /// Live: switches the equality constraints (one per System::equalitySize, 1 acting;
  /// Simulator::setEqualities), felt from the next step on and recorded with the time they took
  /// effect. Does nothing on an animation or for another size; a new timeline starts with the
  /// model's own (EqualitySpec::active), going on from an earlier time (resume from here, a
  /// pose set there) brings back the switches in force then, and Restart keeps those set last
  /// (as it keeps the controls).
  void setEqualities(const std::vector<char>& active);
  /// The switches set last (live timelines; one per equality, else empty).
  const std::vector<char>& equalities() const { return m_equalities; }
  /// The switches in force at time t: the recording's (Recording::equalitiesAt), else those
  /// the timeline started with (the model's). Restart keeps those set last.
  std::vector<char> equalitiesAt(double t) const;

 public slots:
  /// Plays: a live timeline runs the simulation too; at the end of an animation it rewinds
  /// first (showmotion).
  void play();
  /// Pauses playback and the simulation.
  void pause();
  void togglePlay();
  /// Pauses and rewinds: to the start, or to the end when already at the start.
  void stopRewind();
  /// Moves the playhead (scrubbing); a live simulation keeps running. Clamped to the range.
  void setTime(double t);
  /// Moves the playhead by `steps` recorded samples (one step of the simulation or one frame of
  /// a motion; from between two samples, the first step lands on the next one) and pauses
  /// playback (showmotion's jog). Clamped to the recording.
  void jog(int steps);
  void setSpeedIndex(int index);
  void slower() { setSpeedIndex(m_speedIndex - 1); }
  void faster() { setSpeedIndex(m_speedIndex + 1); }
  void setSpeedOne() { setSpeedIndex(kSpeedOne); }
  void setReversed(bool reversed);
  void toggleReversed() { setReversed(!m_reverse); }
  void setRepeating(bool repeating);
  void toggleRepeating() { setRepeating(!m_repeat); }
  /// Live: simulate as fast as possible instead of at the playback speed.
  void setUnpaced(bool unpaced);
  /// Live: restarts the simulation from the playhead's state, discarding later samples, and
  /// plays. Does nothing on an animation.
  void resumeFromHere();
  /// Live: back to the model's initial state with an empty recording (paused).
  void restart();
  /// Live: a new recording that starts from this state at time t (after the model changed
  /// under the simulation); playing or paused as before.
  void restartFrom(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd);
  /// Live: pauses and makes (q, qd) the simulation's state at the playhead (posing with the
  /// joint sliders), discarding the samples from the playhead on; Play continues from it.
  /// Shows the state at once (frameChanged). `w` is its auxiliary state (System::
  /// auxiliaryState: contact state and activations; empty: the system's reset value). Does
  /// nothing on an animation.
  void setStateHere(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, const Eigen::VectorXd& w = {});
  /// One frame of work: takes the simulator's snapshots into the recording, advances the
  /// playhead by the wall time since the last tick times the speed, and emits frameChanged.
  /// A 16 ms timer calls it; tests may call it directly.
  void tick();

 signals:
  /// The playhead moved or the state under it changed.
  void frameChanged(double t);
  /// Anything the bar shows changed (range, playing, speed, flags).
  void stateChanged();
  /// The simulation stopped itself (divergence, a full recording) or refused a command.
  void problem(const QString& message);

 private:
  void showFrame(bool force);
  void takeSnapshots();
  void checkStatus();
  /// The energy dissipated and the actuators' work up to a time (J).
  struct Account {
    double dissipated = 0.0, work = 0.0;
  };
  /// Live: the simulator's new state at time t, shown as the current one, with the energy
  /// account before it (the recording's samples go on counting from it).
  void sendState(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd, Account before,
                 const Eigen::VectorXd& w = {});
  /// The energy account up to the sample at or before t (zero without samples).
  Account accountAt(double t) const;
  /// Logs the perturbation acting now into the recording at time t (a new state at t).
  void logPerturbation(double t);
  /// Going on from time t: the controls in force there act again (and are logged at t).
  void resumeControls(double t);
  /// Likewise the equality switches.
  void resumeEqualities(double t);

  Simulator* simulator();
  std::unique_ptr<Simulator> m_simulator;  // created on the first live timeline
  long m_generation = 0;
  SnapshotBatch m_batch;
  SimulatorStatus m_simStatus;
  bool m_reportedProblem = false;
  double m_limitBytes = kRecordingLimitBytes;  // recordingLimitBytes() when the timeline started

  std::optional<Perturbation> m_perturbation;
  Eigen::VectorXd m_controls;  // live: the actuators' controls set last (one per actuator)
  bool m_controlsSetPaused = false;  // set while paused: they, not the recorded ones, resume
  std::vector<char> m_equalities;  // live: the equality switches set last (one per equality)
  std::vector<char> m_initialEqualities;  // and those the timeline started with
  Recording m_recording;
  bool m_live = false, m_playing = false, m_follow = false;
  bool m_reverse = false, m_repeat = false, m_unpaced = false;
  int m_speedIndex = kSpeedOne;
  double m_time = 0.0, m_shownTime = -1.0;
  std::size_t m_shownSize = 0;
  Eigen::VectorXd m_q, m_qd;
  QTimer* m_timer = nullptr;
  QElapsedTimer m_clock;
};

/// The playback bar: play/pause, stop/rewind, repeat, reverse, speed, coarse and fine time
/// sliders, the time readout, and for live timelines "resume from here" and "restart".
class PlaybackBar : public QWidget {
  Q_OBJECT
 public:
  explicit PlaybackBar(Playback* playback, QWidget* parent = nullptr);
  /// The readout's text, e.g. "t = 1.25 s / 3.00 s".
  QString timeText() const;

 private:
  void refresh();
  void sliderMoved();
  Playback* m_playback;
  QToolButton *m_play, *m_stop, *m_repeat, *m_reverse, *m_resume, *m_restart;
  QSlider *m_coarse, *m_fine, *m_speed;
  QLabel *m_time, *m_speedLabel, *m_liveLabel;
  bool m_updating = false;
};

}  // namespace art::gui
