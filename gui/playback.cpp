// Playback of a recording or a live simulation, and the playback bar (see playback.h).
#include "playback.h"

#include <algorithm>

#include <QFile>
#include <cmath>

#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QStyle>
#include <QTimer>
#include <QToolButton>

namespace art::gui {

double speedAt(int index) {
  static constexpr double kMantissa[6] = {1, 1.5, 2, 3, 5, 7};
  index = std::clamp(index, 0, kSpeedSteps - 1);
  return kMantissa[index % 6] * std::pow(10.0, index / 6 - 3);
}

int speedIndex(double speed) {
  int best = 0;
  for (int i = 1; i < kSpeedSteps; ++i)
    if (std::abs(std::log(speedAt(i) / speed)) < std::abs(std::log(speedAt(best) / speed)))
      best = i;
  return best;
}

int timeDecimals(double speed, double spacing) {
  int decimals = 2 + static_cast<int>(std::ceil(-std::log10(speed) - 1e-9));
  if (spacing > 0) decimals = std::max(decimals, static_cast<int>(std::ceil(-std::log10(spacing) - 1e-9)));
  return std::clamp(decimals, 2, 6);
}

Playback::Playback(QObject* parent) : QObject(parent) {
  m_timer = new QTimer(this);
  m_timer->setInterval(16);
  connect(m_timer, &QTimer::timeout, this, &Playback::tick);
  m_timer->start();
}

Playback::~Playback() = default;

Simulator* Playback::simulator() {
  if (!m_simulator) m_simulator = std::make_unique<Simulator>();
  return m_simulator.get();
}

void Playback::setAnimation(Recording recording) {
  if (m_simulator) m_simulator->pause();
  m_live = false;
  m_perturbation.reset();
  m_recording = std::move(recording);
  m_playing = m_follow = false;
  m_time = m_recording.startTime();
  showFrame(true);
  emit stateChanged();
}

double recordingLimitBytes(const QByteArray& meminfo) {
  QByteArray text = meminfo;
  if (text.isEmpty()) {
    QFile f("/proc/meminfo");
    if (f.open(QIODevice::ReadOnly)) text = f.readAll();
  }
  for (const QByteArray& line : text.split('\n')) {
    if (!line.startsWith("MemAvailable:")) continue;
    bool ok = false;
    const double kib = line.mid(13).trimmed().split(' ').value(0).toDouble(&ok);
    if (ok && kib > 0) return std::min(kRecordingLimitBytes, 0.5 * kib * 1024);
  }
  return kRecordingLimitBytes;
}

void Playback::setSimulation(std::unique_ptr<System> system) {
  Simulator* sim = simulator();
  m_limitBytes = recordingLimitBytes();
  m_live = true;
  m_recording =
      Recording(system->positionSize(), system->velocitySize(), system->constraintSize(),
                system->auxiliarySize(), system->softForceSize());
  m_recording.setQuaternionBlocks(system->quaternionBlocks());
  m_q = system->positions();
  m_qd = system->velocities();
  m_perturbation.reset();  // a loaded system starts without one
  m_controls = system->controls();  // and with the model's initial controls
  m_equalities = m_initialEqualities = system->equalityActive();  // and the model's equalities
  m_generation = sim->load(std::move(system));
  sim->setSpeed(speed());
  sim->setUnpaced(m_unpaced);
  m_simStatus = SimulatorStatus{};
  m_reportedProblem = false;
  m_playing = false;
  m_follow = true;
  m_time = 0.0;
  m_shownTime = -1;
  emit stateChanged();
}

void Playback::clear() {
  if (m_simulator) m_simulator->pause();
  m_live = m_playing = m_follow = false;
  m_perturbation.reset();
  m_recording = Recording();
  m_time = 0.0;
  emit stateChanged();
}

void Playback::setPerturbation(const std::optional<Perturbation>& perturbation) {
  if (!m_live) return;
  m_perturbation = perturbation;
  simulator()->setPerturbation(perturbation);
}

void Playback::play() {
  if (m_live) {
    if (m_simStatus.generation == m_generation && m_simStatus.divergence) {
      emit problem(QString::fromStdString(m_simStatus.divergence->message) +
                   tr(". Scrub back and resume from an earlier time, or restart."));
      return;
    }
    m_simulator->play();
    m_follow = m_follow || m_time >= endTime();
  } else {
    if (m_recording.empty()) return;
    // showmotion: play at the end (start, in reverse) rewinds first
    if (!m_reverse && m_time >= endTime()) m_time = startTime();
    if (m_reverse && m_time <= startTime()) m_time = endTime();
  }
  m_playing = true;
  m_clock.restart();
  showFrame(false);
  emit stateChanged();
}

void Playback::pause() {
  if (m_live && m_simulator) m_simulator->pause();
  m_playing = false;
  emit stateChanged();
}

void Playback::togglePlay() {
  if (m_playing) pause();
  else play();
}

void Playback::stopRewind() {
  pause();
  m_follow = false;
  m_time = m_time <= startTime() ? endTime() : startTime();
  showFrame(false);
  emit stateChanged();
}

void Playback::setTime(double t) {
  if (m_recording.empty()) return;
  m_time = std::clamp(t, startTime(), endTime());
  // dragging to the newest sample of a running simulation follows it again
  m_follow = m_live && m_time >= endTime() && simulating();
  showFrame(false);
  emit stateChanged();
}

void Playback::jog(int steps) {
  if (m_playing) pause();
  if (m_recording.empty() || steps == 0) return;
  const auto n = static_cast<long>(m_recording.size());
  long k = static_cast<long>(m_recording.indexAt(m_time));
  if (steps < 0 && m_time > m_recording.time(static_cast<std::size_t>(k))) ++k;  // between two: back to k
  setTime(m_recording.time(static_cast<std::size_t>(std::clamp(k + steps, 0L, n - 1))));
}

void Playback::setSpeedIndex(int index) {
  m_speedIndex = std::clamp(index, 0, kSpeedSteps - 1);
  if (m_simulator) m_simulator->setSpeed(speed());
  emit stateChanged();
}

void Playback::setReversed(bool reversed) {
  m_reverse = reversed;
  if (m_reverse) m_follow = false;
  emit stateChanged();
}

void Playback::setRepeating(bool repeating) {
  m_repeat = repeating;
  emit stateChanged();
}

void Playback::setUnpaced(bool unpaced) {
  m_unpaced = unpaced;
  if (m_simulator) m_simulator->setUnpaced(unpaced);
  emit stateChanged();
}

void Playback::resumeFromHere() {
  if (!m_live || m_recording.empty()) return;
  // from the simulated sample at (or just before) the playhead: an exact state, not an
  // interpolated one
  const std::size_t k = m_recording.indexAt(m_time);
  const double t = m_recording.time(k);
  const Eigen::VectorXd q = m_recording.q(k), qd = m_recording.qd(k), w = m_recording.auxiliary(k);
  const double dissipated = m_recording.dissipated(k), work = m_recording.work(k);
  m_recording.truncateAfter(t);
  m_recording.truncateAfter(std::nextafter(t, -1e300));  // the sample itself comes back
  // the ground's deformation too, and the energy dissipated and work done so far go on counting
  m_generation = m_simulator->setState(t, q, qd, w, dissipated, work);
  logPerturbation(t);
  resumeControls(t);
  resumeEqualities(t);
  m_reportedProblem = false;
  m_time = t;
  m_follow = true;
  m_reverse = false;
  play();
}

void Playback::restart() {
  if (!m_live) return;
  m_generation = m_simulator->reset();
  m_recording.clear();
  resumeControls(0.0);  // the controls set last act from the start again
  resumeEqualities(0.0);  // and the equalities as switched last
  m_reportedProblem = false;
  m_playing = false;
  m_follow = true;
  m_time = 0.0;
  emit stateChanged();
}

void Playback::restartFrom(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd) {
  if (!m_live) return;
  m_recording.clear();
  sendState(t, q, qd, {});  // a new recording: nothing dissipated or done yet
  m_follow = true;
  emit stateChanged();
}

void Playback::continueFrom(Recording history, double t, const Eigen::VectorXd& q,
                            const Eigen::VectorXd& qd) {
  if (!m_live) return;
  m_recording = std::move(history);
  const Account before = accountAt(t);
  m_recording.truncateAfter(std::nextafter(t, -1e300));  // the simulator sends the sample at t
  sendState(t, q, qd, before);
  m_follow = true;
  emit stateChanged();
}

void Playback::restoreRecording(Recording recording, double playhead) {
  if (!m_live || !m_simulator || recording.empty()) return;
  if (m_playing) pause();
  m_recording = std::move(recording);
  const double end = m_recording.endTime();
  const double shown = std::clamp(playhead, m_recording.startTime(), end);
  Eigen::VectorXd q, qd, shownQ, shownQd;
  m_recording.stateAt(end, q, qd);
  m_recording.stateAt(shown, shownQ, shownQd);
  const Account before = accountAt(end);
  m_recording.truncateAfter(std::nextafter(end, -1e300));  // the simulator sends the sample at end
  sendState(end, q, qd, before);
  // the playhead stays where it was (as in setStateHere, it does not follow meanwhile)
  m_follow = false;
  m_time = shown;
  m_q = shownQ;
  m_qd = shownQd;
  m_shownTime = m_time;
  m_shownSize = m_recording.size();
  emit frameChanged(m_time);
  emit stateChanged();
}

Recording Playback::releaseRecording() {
  Recording taken = std::move(m_recording);
  m_recording = Recording();
  return taken;
}

void Playback::setStateHere(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, const Eigen::VectorXd& w) {
  if (!m_live || !m_simulator) return;
  if (m_playing) pause();
  const Account before = accountAt(m_time);
  m_recording.truncateAfter(std::nextafter(m_time, -1e300));  // the simulator sends the sample at t
  sendState(m_time, q, qd, before, w);
  // the playhead stays at t until that sample arrives (showFrame then shows it); following the
  // shorter recording meanwhile would show the old state for a frame
  m_follow = false;
  m_shownTime = m_time;
  m_shownSize = m_recording.size();
  emit frameChanged(m_time);
  emit stateChanged();
}

Playback::Account Playback::accountAt(double t) const {
  if (m_recording.empty()) return {};
  const std::size_t k = m_recording.indexAt(t);
  return {m_recording.dissipated(k), m_recording.work(k)};
}

void Playback::sendState(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                         Account before, const Eigen::VectorXd& w) {
  m_generation = m_simulator->setState(t, q, qd, w, before.dissipated, before.work);
  logPerturbation(t);
  resumeControls(t);
  resumeEqualities(t);
  m_reportedProblem = false;
  m_time = t;
  m_q = q;
  m_qd = qd;
}

void Playback::logPerturbation(double t) {
  // the simulation goes on from t with the perturbation acting now (none unless the mouse is
  // pulling), whatever the discarded part of the recording had
  const auto& log = m_recording.perturbations();
  if ((m_perturbation || m_recording.perturbationAt(t)) && (log.empty() || t >= log.back().time))
    m_recording.setPerturbation(t, m_perturbation);
}

void Playback::setControls(const Eigen::VectorXd& ctrl) {
  if (!m_live || ctrl.size() != m_controls.size()) return;
  m_controls = ctrl;
  m_controlsSetPaused = !m_playing;
  simulator()->setControls(ctrl);
}

void Playback::setControlTable(std::shared_ptr<const ControlTable> table) {
  if (!m_live) return;
  simulator()->setControlTable(std::move(table));
}

Eigen::VectorXd Playback::controlsAt(double t) const {
  const Eigen::VectorXd c = m_recording.controlsAt(t);
  if (c.size()) return c;
  return m_live ? m_controls : Eigen::VectorXd();
}

void Playback::resumeControls(double t) {
  if (!m_controls.size()) return;
  // the recorded controls at t, unless the user set others while paused: those are what the
  // Controls panel shows and what goes on from here
  const Eigen::VectorXd c = m_recording.controlsAt(t);
  if (c.size() == m_controls.size() && !m_controlsSetPaused) m_controls = c;
  m_controlsSetPaused = false;
  m_simulator->setControls(m_controls);
  if (m_recording.controls().empty() || t >= m_recording.controls().back().time) m_recording.setControls(t, m_controls);
}

void Playback::setEqualities(const std::vector<char>& active) {
  if (!m_live || active.size() != m_equalities.size()) return;
  m_equalities = active;
  simulator()->setEqualities(active);
}

std::vector<char> Playback::equalitiesAt(double t) const {
  std::vector<char> e = m_recording.equalitiesAt(t);
  if (e.size() == m_initialEqualities.size()) return e;
  return m_initialEqualities;  // none logged yet: the timeline's first
}

void Playback::resumeEqualities(double t) {
  if (m_equalities.empty()) return;
  // those in force at t; a timeline started afresh (restart) keeps those set last
  if (!m_recording.empty()) m_equalities = equalitiesAt(t);
  m_simulator->setEqualities(m_equalities);
  if (m_recording.equalities().empty() || t >= m_recording.equalities().back().time)
    m_recording.setEqualities(t, m_equalities);
}

void Playback::takeSnapshots() {
  while (m_simulator->takeSnapshots(m_batch)) {
    if (m_batch.generation != m_generation || m_batch.nq != m_recording.positionSize() ||
        m_batch.nv != m_recording.velocitySize() || m_batch.nc != m_recording.constraintSize() ||
        m_batch.nw != m_recording.auxiliarySize() || m_batch.ns != m_recording.softForceSize())
      continue;
    const double limit = m_limitBytes / double(Recording::bytesPerSample(
                                            m_batch.nq, m_batch.nv, m_batch.nc, m_batch.nw, m_batch.ns));
    if (double(m_recording.size() + m_batch.size()) > limit) {
      m_simulator->pause();
      m_playing = false;
      emit problem(tr("The recording is full (%1 samples, %2 GB): the simulation paused. Scrub "
                      "back and resume, or restart.")
                       .arg(m_recording.size())
                       .arg(m_limitBytes / 1e9, 0, 'f', 1));
      return;
    }
    for (std::size_t k = 0; k < m_batch.size(); ++k)
      if (m_recording.empty() || m_batch.time(k) >= m_recording.endTime())
        m_recording.append(m_batch.time(k), m_batch.q(k), m_batch.qd(k), m_batch.kinetic(k),
                           m_batch.potential(k), m_batch.lambda(k), m_batch.auxiliary(k),
                           m_batch.dissipated(k), m_batch.work(k), m_batch.softForces(k));
    // the mouse's pull, as the thread applied it: part of the recorded motion
    for (const PerturbationChange& c : m_batch.perturbations)
      if (m_recording.perturbations().empty() || c.time >= m_recording.perturbations().back().time)
        m_recording.setPerturbation(c.time, c.perturbation);
    // the controls, as the thread applied them
    for (const ControlChange& c : m_batch.controls)
      if (m_recording.controls().empty() || c.time >= m_recording.controls().back().time)
        m_recording.setControls(c.time, c.ctrl);
    // and the equality switches
    for (const EqualityChange& c : m_batch.equalities)
      if (m_recording.equalities().empty() || c.time >= m_recording.equalities().back().time)
        m_recording.setEqualities(c.time, c.active);
  }
}

void Playback::checkStatus() {
  m_simStatus = m_simulator->status();
  if (m_simStatus.generation != m_generation || m_reportedProblem) return;
  // the thread hands its last samples over after it stopped: the problem is told once they are
  // here, so that the recording the message speaks of ends where the simulation stopped
  if ((m_simStatus.divergence || !m_simStatus.error.empty()) && m_simStatus.loaded &&
      (m_recording.empty() || m_recording.endTime() < m_simStatus.time))
    return;
  if (m_simStatus.divergence) {
    m_reportedProblem = true;
    m_playing = false;
    emit problem(QString::fromStdString(m_simStatus.divergence->message) +
                 tr(". The simulation paused; the recording up to then is kept."));
  } else if (!m_simStatus.error.empty()) {
    m_reportedProblem = true;
    emit problem(QString::fromStdString(m_simStatus.error));
  }
}

void Playback::tick() {
  const double wall = m_clock.isValid() ? std::min(0.1, m_clock.restart() * 1e-3) : 0.0;
  if (!m_clock.isValid()) m_clock.start();
  const std::size_t before = m_recording.size();
  const bool wasSimulating = simulating();
  if (m_live && m_simulator) {
    takeSnapshots();
    checkStatus();
  }
  if (m_recording.empty()) return;
  if (!m_playing && m_live && m_follow) {
    m_time = endTime();  // samples stepped before the pause reached the thread
  } else if (m_playing) {
    if (m_live && m_follow) {
      m_time = endTime();
      // the simulation stopped on its own (a stop time, a divergence): so does playback
      if (!simulating() && wasSimulating && m_simStatus.generation == m_generation) m_playing = false;
    } else {
      double t = m_time + (m_reverse ? -1 : 1) * speed() * wall;
      const double span = endTime() - startTime();
      if (t >= endTime()) {
        if (m_live && simulating()) {
          t = endTime();
          m_follow = true;
        } else if (m_repeat && span > 0) {
          t = startTime() + std::fmod(t - endTime(), span);
        } else {
          t = endTime();
          m_playing = false;
        }
      } else if (t <= startTime()) {
        if (m_repeat && span > 0) {
          t = endTime() - std::fmod(startTime() - t, span);
        } else {
          t = startTime();
          m_playing = false;
        }
      }
      m_time = t;
    }
  }
  showFrame(false);
  if (m_recording.size() != before || wasSimulating != simulating()) emit stateChanged();
}

void Playback::showFrame(bool force) {
  if (m_recording.empty()) return;
  if (!force && m_time == m_shownTime && m_recording.size() == m_shownSize) return;
  const std::size_t k = m_recording.indexAt(m_time);
  // a new sample changes nothing under a playhead in the past
  const bool changed = force || m_time != m_shownTime || k + 1 >= m_recording.size();
  m_shownSize = m_recording.size();
  if (!changed) return;
  m_shownTime = m_time;
  m_recording.stateAt(m_time, m_q, m_qd);
  emit frameChanged(m_time);
}

// ---------------------------------------------------------------------------------------------

namespace {
QToolButton* toolButton(QWidget* parent, const QString& name, const QIcon& icon,
                        const QString& tip, bool checkable = false) {
  auto* b = new QToolButton(parent);
  b->setObjectName(name);
  b->setIcon(icon);
  b->setToolTip(tip);
  b->setCheckable(checkable);
  b->setAutoRaise(true);
  b->setFocusPolicy(Qt::NoFocus);  // keys go to the viewport and the window's shortcuts
  return b;
}
QSlider* slider(QWidget* parent, const QString& name, int max, const QString& tip) {
  auto* s = new QSlider(Qt::Horizontal, parent);
  s->setObjectName(name);
  s->setRange(0, max);
  s->setToolTip(tip);
  s->setFocusPolicy(Qt::NoFocus);
  return s;
}
}  // namespace

PlaybackBar::PlaybackBar(Playback* playback, QWidget* parent)
    : QWidget(parent), m_playback(playback) {
  setObjectName("playbackBarWidget");
  QStyle* st = style();
  m_play = toolButton(this, "playButton", st->standardIcon(QStyle::SP_MediaPlay),
                      tr("Play / pause (Space)"));
  m_stop = toolButton(this, "stopButton", st->standardIcon(QStyle::SP_MediaSkipBackward),
                      tr("Stop and rewind: to the start, or to the end from the start (0)"));
  m_reverse = toolButton(this, "reverseButton", st->standardIcon(QStyle::SP_MediaSeekBackward),
                         tr("Play in reverse (/)"), true);
  m_repeat = toolButton(this, "repeatButton", st->standardIcon(QStyle::SP_BrowserReload),
                        tr("Auto-repeat (R)"), true);
  m_coarse = slider(this, "coarseSlider", kCoarseSteps, tr("Time (coarse)"));
  m_fine = slider(this, "fineSlider", kFineSteps / kCoarseSteps - 1,
                  tr("Time (fine: %1 steps over the whole range; jog with n m, N M, Alt+N Alt+M)")
                      .arg(kFineSteps));
  m_fine->setMaximumWidth(140);
  m_time = new QLabel(this);
  m_time->setObjectName("timeLabel");
  m_time->setMinimumWidth(150);
  m_time->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_speed = slider(this, "speedSlider", kSpeedSteps - 1, tr("Speed, 0.001 to 20 (, slower  . faster  1 normal)"));
  m_speed->setMaximumWidth(120);
  m_speedLabel = new QLabel(this);
  m_speedLabel->setObjectName("speedLabel");
  m_speedLabel->setMinimumWidth(56);
  m_liveLabel = new QLabel(this);
  m_liveLabel->setObjectName("liveLabel");
  m_resume = toolButton(this, "resumeButton", st->standardIcon(QStyle::SP_MediaSeekForward),
                        tr("Resume the simulation from here, discarding what follows"));
  m_restart = toolButton(this, "restartButton", st->standardIcon(QStyle::SP_MediaStop),
                         tr("Restart the simulation from the initial state"));

  auto* row = new QHBoxLayout(this);
  row->setContentsMargins(4, 2, 4, 2);
  for (QWidget* w : {static_cast<QWidget*>(m_play), static_cast<QWidget*>(m_stop),
                     static_cast<QWidget*>(m_reverse), static_cast<QWidget*>(m_repeat)})
    row->addWidget(w);
  row->addWidget(m_coarse, 1);
  row->addWidget(m_fine);
  row->addWidget(m_time);
  row->addWidget(m_speed);
  row->addWidget(m_speedLabel);
  row->addWidget(m_liveLabel);
  row->addWidget(m_resume);
  row->addWidget(m_restart);

  connect(m_play, &QToolButton::clicked, playback, &Playback::togglePlay);
  connect(m_stop, &QToolButton::clicked, playback, &Playback::stopRewind);
  connect(m_reverse, &QToolButton::clicked, playback, &Playback::setReversed);
  connect(m_repeat, &QToolButton::clicked, playback, &Playback::setRepeating);
  connect(m_resume, &QToolButton::clicked, playback, &Playback::resumeFromHere);
  connect(m_restart, &QToolButton::clicked, playback, &Playback::restart);
  connect(m_coarse, &QSlider::valueChanged, this, &PlaybackBar::sliderMoved);
  connect(m_fine, &QSlider::valueChanged, this, &PlaybackBar::sliderMoved);
  connect(m_speed, &QSlider::valueChanged, this, [this](int v) {
    if (!m_updating) m_playback->setSpeedIndex(v);
  });
  connect(playback, &Playback::stateChanged, this, &PlaybackBar::refresh);
  connect(playback, &Playback::frameChanged, this, &PlaybackBar::refresh);
  refresh();
}

QString PlaybackBar::timeText() const { return m_time->text(); }

void PlaybackBar::sliderMoved() {
  if (m_updating) return;
  const int pos = std::min(kFineSteps, m_coarse->value() * (kFineSteps / kCoarseSteps) + m_fine->value());
  const double span = m_playback->endTime() - m_playback->startTime();
  m_playback->setTime(m_playback->startTime() + span * pos / kFineSteps);
}

void PlaybackBar::refresh() {
  m_updating = true;
  const Playback& p = *m_playback;
  const bool any = p.hasTimeline();
  m_play->setIcon(style()->standardIcon(p.playing() ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
  m_play->setToolTip(p.playing() ? tr("Pause (Space)") : tr("Play (Space)"));
  m_play->setEnabled(any || p.live());
  for (QWidget* w : {static_cast<QWidget*>(m_stop), static_cast<QWidget*>(m_coarse),
                     static_cast<QWidget*>(m_fine)})
    w->setEnabled(any);
  m_reverse->setChecked(p.reversed());
  m_repeat->setChecked(p.repeating());
  m_resume->setVisible(p.live());
  m_restart->setVisible(p.live());
  m_resume->setEnabled(p.live() && any && p.time() < p.endTime());
  const double span = p.endTime() - p.startTime();
  const int pos = span > 0 ? static_cast<int>(std::lround((p.time() - p.startTime()) / span * kFineSteps)) : 0;
  m_coarse->setValue(pos / (kFineSteps / kCoarseSteps));
  m_fine->setValue(pos % (kFineSteps / kCoarseSteps));
  m_speed->setValue(p.speedIndex());
  const Recording& r = p.recording();
  const double spacing = r.size() > 1 ? (r.endTime() - r.startTime()) / double(r.size() - 1) : 0.0;
  const int dec = timeDecimals(p.speed(), spacing);
  m_speedLabel->setText(QString::fromUtf8("\u00d7%1").arg(p.speed(), 0, 'g', 3));
  m_time->setText(tr("t = %1 s / %2 s").arg(p.time(), 0, 'f', dec).arg(p.endTime(), 0, 'f', dec));
  QString live;
  if (p.live()) {
    const SimulatorStatus& st = p.simulatorStatus();
    if (st.divergence) live = tr("diverged");
    else if (p.simulating())
      live = p.unpaced() ? tr("simulating \u00d7%1").arg(st.realTimeFactor, 0, 'g', 3)
                         : tr("simulating");
    else live = tr("paused");
  }
  m_liveLabel->setText(live);
  m_updating = false;
}

}  // namespace art::gui
