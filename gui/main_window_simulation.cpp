// The main window's simulation wiring: the timeline, the shown state, integrator settings.
#include "main_window.h"
#include "physics_dialog.h"

#include <QAction>
#include <QFileInfo>
#include <QInputDialog>
#include <QMenu>
#include <QStatusBar>

#include "articulate/dynamics/actuation.h"
#include "articulate/dynamics/servos.h"
#include "articulate/formats/controls.h"
#include "articulate/simulation/recording.h"
#include "controls.h"
#include "equalities.h"
#include "frame.h"
#include "joint_sliders.h"
#include "playback.h"
#include "plots.h"
#include "viewport/viewport.h"

namespace art::gui {

std::unique_ptr<System> MainWindow::makeSystem() const {
  return gui::makeSystem(m_model->spec, m_rigid, m_structure);
}

void MainWindow::startTimeline() {
  // one system simulates on the simulator's thread; this one only names and poses for the GUI,
  // and m_probe evaluates the shown state's forces for the overlays (computeFrame)
  m_display = makeSystem();
  m_probe = makeSystem();
  std::vector<std::string> positions, velocities, constraints;
  for (int i = 0; i < m_display->positionSize(); ++i) positions.push_back(m_display->positionName(i));
  for (int i = 0; i < m_display->velocitySize(); ++i) velocities.push_back(m_display->velocityName(i));
  for (int i = 0; i < m_display->constraintSize(); ++i)
    constraints.push_back("lambda[" + std::to_string(i) + "] " + m_display->constraintName(i));
  // the soft model's forces follow, one per row the model can have (System::softForceName)
  for (int i = 0; i < m_display->softForceSize(); ++i)
    constraints.push_back("lambda[" + std::to_string(constraints.size()) + "] " + m_display->softForceName(i));
  // a tree whose joints dissipate (damping, stops, friction), or a recording of one, plots the
  // energy dissipated and the total plus it beside the energies
  bool dissipative = m_model->motion && m_model->motion->dissipated.size();
  for (const BodySpec& b : m_model->spec.bodies)
    dissipative =
        dissipative || b.damping > 0 || b.friction > 0 || b.limits.lower || b.limits.upper;
  // an actuated tree, or a recording whose actuators did work, also plots their work
  const bool actuated = (m_model->motion && m_model->motion->actuatorWork.size()) ||
                        (m_display && m_display->actuatorSize() > 0);
  m_plots->setQuantities(positions, velocities, constraints,
                         dissipative && !m_rigid && !m_structure, actuated && !m_rigid && !m_structure);
  setActuationPlots();
  if (m_model->motion) {
    Recording r = Recording::fromMotion(*m_model->motion);
    r.setQuaternionBlocks(m_display->quaternionBlocks());
    m_playback->setAnimation(std::move(r));
  } else {
    m_playback->setSimulation(makeSystem());
  }
  m_plots->setRecording(&m_playback->recording());
  m_controlsPanel->setModel(simulatesTree() || (m_model->motion && !m_rigid && !m_structure) ? m_model->spec : ModelSpec{});
  m_equalityPanel->setModel(simulatesTree() ? m_model->spec : ModelSpec{});
  updateIntegratorMenu();
}

void MainWindow::setActuationPlots() {
  const auto* tree = dynamic_cast<const TreeSystem*>(m_display.get());
  if (!tree || (tree->model().actuators.empty() && tree->model().tendons.empty())) return;
  // per actuator: its control (the recording's log), force (evaluated at the sample) and
  // activation (the sample's auxiliary state); per tendon its length
  auto model = std::make_shared<const Model>(tree->model());
  auto workspace = std::make_shared<Data>(*model);
  const int nu = model->nu(), na = model->na, nt = static_cast<int>(model->tendons.size());
  const int contact = contactStateSize(*model);
  std::vector<std::string> names;
  std::vector<int> actOf;  // per activation series, its actuator
  for (int i = 0; i < nu; ++i) names.push_back("ctrl[" + std::to_string(i) + "] " + m_display->actuatorName(i));
  for (int i = 0; i < nu; ++i) names.push_back("force[" + std::to_string(i) + "] " + m_display->actuatorName(i));
  for (int i = 0; i < nu; ++i)
    if (model->actIndex[static_cast<std::size_t>(i)] >= 0) {
      names.push_back("act[" + std::to_string(i) + "] " + m_display->actuatorName(i));
      actOf.push_back(i);
    }
  for (int k = 0; k < nt; ++k)
    names.push_back("length[" + std::to_string(k) + "] " +
                    (model->tendons[static_cast<std::size_t>(k)].name.empty() ? "tendon " + std::to_string(k)
                                                                              : model->tendons[static_cast<std::size_t>(k)].name));
  const int firstAct = 2 * nu, firstLength = 2 * nu + static_cast<int>(actOf.size());
  auto controls = [model, nu](const Recording& r, std::size_t s) {
    Eigen::VectorXd c = r.controlsAt(r.time(s));
    if (c.size() != nu) {
      c = Eigen::VectorXd::Zero(nu);
      for (int i = 0; i < nu; ++i) c(i) = model->actuators[static_cast<std::size_t>(i)].ctrl0;
    }
    return c;
  };
  auto activations = [na, contact](const Recording& r, std::size_t s) {
    return r.auxiliarySize() == contact + na ? Eigen::VectorXd(r.auxiliary(s).tail(na)) : Eigen::VectorXd::Zero(na);
  };
  m_plots->setDerived(names, [=](const Recording& r, int k, std::size_t s) -> double {
    if (r.positionSize() != model->nq() || r.velocitySize() != model->nv()) return std::nan("");
    if (k < nu) return controls(r, s)(k);
    if (k >= firstAct && k < firstLength) return activations(r, s)(model->actIndex[static_cast<std::size_t>(actOf[static_cast<std::size_t>(k - firstAct)])]);
    actuation(*model, *workspace, r.q(s), r.qd(s), controls(r, s), activations(r, s));
    if (k < 2 * nu) return workspace->actuatorForce(k - nu);
    return workspace->tendonLength(k - firstLength);
  });
}

QString MainWindow::loadControls(const QString& path) {
  if (!simulatesTree() || m_model->spec.actuators.empty()) {
    const QString why = tr("This model has no actuators to drive");
    statusBar()->showMessage(why);
    return why;
  }
  try {
    auto table = std::make_shared<const ControlTable>(loadControlTable(path.toStdString(), m_model->spec.actuators));
    const double from = table->times.front(), to = table->times.back();
    m_playback->setControlTable(std::move(table));
    statusBar()->showMessage(tr("Controls from %1 drive the simulation (t = %2 to %3 s, held after)")
                                 .arg(QFileInfo(path).fileName())
                                 .arg(from)
                                 .arg(to));
    return {};
  } catch (const std::exception& e) {
    showError(tr("Could not load the controls."), QString::fromStdString(e.what()));
    return QString::fromStdString(e.what());
  }
}

int MainWindow::addServos() {
  if (!simulatesTree()) {
    statusBar()->showMessage(tr("Add Servos drives the joints of a kinematic tree that simulates"));
    return 0;
  }
  const Eigen::VectorXd pose = m_playback->q();
  int added = 0;
  ServoOptions o;
  o.frequency = kServoFrequency;
  ModelSpec trial = m_model->spec;
  try {
    added = art::addServos(trial, pose, o);
  } catch (const std::exception& e) {
    showError(tr("Could not add servos."), QString::fromStdString(e.what()));
    return 0;
  }
  if (added == 0) {
    statusBar()->showMessage(tr("Every joint already has a drive: no servo added"));
    return 0;
  }
  const QString error = m_document->edit(tr("Add %n servo(s)", nullptr, added), [&trial](ModelSpec& s) { s.actuators = trial.actuators; });
  if (!error.isEmpty()) {
    showError(tr("Could not add servos."), error);
    return 0;
  }
  statusBar()->showMessage(tr("Added %n servo(s) at %1 Hz holding the pose of t = %2 s (Edit > Undo removes them)", nullptr, added)
                               .arg(kServoFrequency)
                               .arg(m_playback->time(), 0, 'f', 3));
  return added;
}

void MainWindow::showControls() {
  if (!m_probe || m_probe->actuatorSize() == 0 || m_controlsPanel->rowCount() != m_probe->actuatorSize()) return;
  const double t = m_playback->time();
  // at the live end the controls set last (the simulation's), elsewhere those then in force
  const bool atLiveEnd = m_playback->live() && (m_playback->following() || t >= m_playback->endTime());
  Eigen::VectorXd ctrl = atLiveEnd ? m_playback->controls() : m_playback->controlsAt(t);
  if (ctrl.size() != m_probe->actuatorSize()) ctrl = Eigen::VectorXd::Zero(m_probe->actuatorSize());
  Eigen::VectorXd force;
  try {  // the actuators' forces at the shown state, with the activations recorded there
    const Recording& r = m_playback->recording();
    m_probe->setState(t, m_playback->q(), m_playback->qd());
    if (!r.empty() && r.auxiliarySize() == m_probe->auxiliarySize()) m_probe->setAuxiliaryState(r.auxiliary(r.indexAt(t)));
    m_probe->setControls(ctrl);
    force = m_probe->actuatorForces();
  } catch (const std::exception&) {
    force.resize(0);  // a state the probe cannot take: no forces shown
  }
  m_controlsPanel->setShown(ctrl, force);
}

void MainWindow::showEqualities() {
  if (!m_probe || m_probe->equalitySize() == 0 || m_equalityPanel->rowCount() != m_probe->equalitySize()) return;
  const double t = m_playback->time();
  // at the live end the switches set last (the simulation's), elsewhere those then in force
  const bool atLiveEnd = m_playback->live() && (m_playback->following() || t >= m_playback->endTime());
  m_equalityPanel->setShown(atLiveEnd ? m_playback->equalities() : m_playback->equalitiesAt(t));
  // the probe draws and reports what simulated then
  m_probe->setEqualityActive(m_equalityPanel->active());
}

void MainWindow::computeState(const Eigen::VectorXd& q, const Eigen::VectorXd& qd) {
  // playback and scrubbing too: everything comes from the shown state, not the simulation's,
  // and the mouse's pull from the recording (live: the pull the mouse makes now)
  const Recording& r = m_playback->recording();
  const std::optional<Perturbation> pull =
      m_playback->live() && m_playback->following() ? m_playback->perturbation()
                                                     : r.perturbationAt(m_playback->time());
  FrameContent frame;
  frame.poses = std::move(m_poses);
  frame.segments = std::move(m_segments);
  computeFrame(*m_probe, m_model->spec, &r, m_playback->time(), q, qd, pull,
               m_viewport->overlays(), frame);
  m_poses = std::move(frame.poses);
  m_segments = std::move(frame.segments);
  m_annotations = std::move(frame.annotations);
}

void MainWindow::perturb(int body, const Vec3& point, const Vec3& target, bool torque,
                         bool finished) {
  if (!m_playback->live() || !m_display || body < 0 || body >= m_display->bodies()) return;
  if (finished) {
    m_playback->setPerturbation(std::nullopt);
    statusBar()->clearMessage();
    showFrame();
    return;
  }
  Perturbation p;
  p.body = body;
  p.point = point;
  p.target = target;
  p.torque = torque;
  // scaled to the mass the body carries, so that a finger and a base follow alike (a massless
  // body moves what it carries; at least 1 g, so that the spring pulls something)
  const double w = kPerturbationFrequency, m = std::max(m_display->carriedMass(body), 1e-3);
  p.stiffness = m * w * w;
  p.damping = 2.0 * m * w;
  m_playback->setPerturbation(p);
  showFrame();
  const BodyPose& pose = m_poses[static_cast<std::size_t>(body)];
  const Vec3 pull = p.stiffness * (target - (pose.position + pose.rotation * point));
  const QString name = m_model && body < static_cast<int>(m_model->spec.bodies.size())
                           ? QString::fromStdString(m_model->spec.bodies[static_cast<std::size_t>(body)].name)
                           : QString::number(body);
  statusBar()->showMessage(
      torque ? tr("Turning '%1': %2 N m").arg(name).arg(
                   (pose.rotation * point).cross(pull).norm(), 0, 'f', 2)
             : tr("Pulling '%1': %2 N").arg(name).arg(pull.norm(), 0, 'f', 2));
}

void MainWindow::showState(const Eigen::VectorXd& q, const Eigen::VectorXd& qd) {
  computeState(q, qd);
  m_viewport->setSegments(m_segments);
  m_viewport->setAnnotations(m_annotations);
  m_viewport->setBodyPoses(m_poses);
}

QString MainWindow::statusOverlayText() {
  // frames per second: the frames shown in the last second of wall time
  const qint64 now = QDateTime::currentMSecsSinceEpoch();
  m_frameTimes.push_back(now);
  while (!m_frameTimes.empty() && m_frameTimes.front() < now - 1000) m_frameTimes.pop_front();
  const Recording& r = m_playback->recording();
  QStringList lines;
  lines << tr("t = %1 s").arg(m_playback->time(), 0, 'f', 3);
  if (m_playback->live()) {
    const SimulatorStatus& st = m_playback->simulatorStatus();
    lines << (st.running ? tr("real time x%1").arg(st.realTimeFactor, 0, 'f', 2) : tr("paused"));
    // the soft constraint solver (soft physics): its effort and how well the rows hold
    if (st.solver)
      lines << tr("%1: %2 iterations, %3 of %4 rows active")
                   .arg(QString::fromStdString(st.solver->solver))
                   .arg(st.solver->iterations)
                   .arg(st.solver->active)
                   .arg(st.solver->rows)
            << tr("residual %1, equality error %2").arg(st.solver->gradient, 0, 'g', 2).arg(st.solver->violation, 0, 'g', 2);
    if (st.solver && !m_model->spec.geoms.empty()) lines << tr("%n body contact(s)", "", st.solver->contacts);
    // equalities switched off in the Equality dock
    QStringList off;
    const std::vector<char>& active = m_equalityPanel->active();
    for (std::size_t k = 0; k < active.size() && k < m_model->spec.equalities.size(); ++k)
      if (!active[k])
        off << (m_model->spec.equalities[k].name.empty() ? tr("equality %1").arg(k)
                                                          : QString::fromStdString(m_model->spec.equalities[k].name));
    if (!off.isEmpty()) lines << tr("switched off: %1").arg(off.join(", "));
  } else if (m_playback->hasTimeline()) {
    lines << tr("recorded, speed x%1").arg(m_playback->speed(), 0, 'g', 3);
  }
  if (r.size() >= 2) {
    const double step = r.time(r.size() - 1) - r.time(r.size() - 2);
    lines << tr("step %1 ms").arg(1e3 * step, 0, 'g', 3);
  }
  lines << tr("%1 fps").arg(m_frameTimes.size());
  if (!r.empty()) {
    const std::size_t k = r.indexAt(m_playback->time());
    const double T = r.kinetic(k), V = r.potential(k);
    lines << tr("E %1 J (T %2, V %3)").arg(T + V, 0, 'f', 4).arg(T, 0, 'f', 4).arg(V, 0, 'f', 4);
    // what damping, friction and stops took out: E + dissipated stays the initial energy
    if (const double D = r.dissipated(k), W = r.work(k); W != 0)
      lines << tr("dissipated %1 J, actuator work %2 J (E + dissipated - work %3 J)")
                   .arg(D, 0, 'f', 4)
                   .arg(W, 0, 'f', 4)
                   .arg(T + V + D - W, 0, 'f', 4);
    else if (D != 0)
      lines << tr("dissipated %1 J (E + dissipated %2 J)").arg(D, 0, 'f', 4).arg(T + V + D, 0, 'f', 4);
  }
  return lines.join('\n');
}

void MainWindow::showFrame() {
  if (m_statusOverlayAction && m_statusOverlayAction->isChecked())
    m_viewport->setInfoText(statusOverlayText());
  if (syncGhosts()) {  // a sweep's other runs, at the same time (each held at its end)
    Eigen::VectorXd q, qd;
    for (std::size_t g = 0; g < m_ghosts.size(); ++g) {
      m_ghosts[g].recording.stateAt(m_playback->time(), q, qd);
      m_viewport->setGhostPose(static_cast<int>(g), q);
    }
  }
  showControls();  // first: it sets the probe's controls and activations, which the tendons show
  showEqualities();  // and the equality switches, which the anchors' drawing shows
  showState(m_playback->q(), m_playback->qd());
  m_plots->setCursor(m_playback->time());
  if (m_playback->simulating()) m_plots->setRecording(&m_playback->recording());  // it grew (redraws at most 5 times a second)
  if (!m_rigid && !m_structure) m_joints->setPose(m_playback->q(), m_playback->qd());
}

void MainWindow::simulationProblem(const QString& message) {
  m_lastError = message;
  statusBar()->showMessage(message);
}

void MainWindow::updateIntegratorMenu() {
  if (!m_integratorMenu) return;
  const QString current = m_model ? integratorName(m_model->spec.simulation.integrator) : "";
  const bool tree = simulatesTree();
  for (QAction* a : m_integratorMenu->actions()) {
    if (a == m_energyProjection) continue;
    a->setChecked(a->data().toString() == current);
    a->setEnabled(tree);
  }
  m_energyProjection->setChecked(m_model && m_model->spec.simulation.energyProjection);
  m_energyProjection->setEnabled(tree);
}

bool MainWindow::simulatesTree() const {
  return m_model && !m_model->motion && !m_rigid && !m_structure;
}

void MainWindow::setEnergyProjection(bool on) {
  if (!simulatesTree()) return;
  if (m_model->spec.simulation.energyProjection == on) return;
  const QString error = m_document->edit(
      on ? tr("Turn energy projection on") : tr("Turn energy projection off"),
      [on](ModelSpec& s) { s.simulation.energyProjection = on; });
  if (!error.isEmpty()) showError(tr("Could not change the energy projection."), error);
}

void MainWindow::chooseIntegrator(const QString& name) {
  if (!simulatesTree()) return;
  Integrator chosen = Integrator::RK4;
  if (!parseIntegrator(name.toStdString(), chosen)) return;
  if (m_model->spec.simulation.integrator == chosen) return;
  const QString error = m_document->edit(tr("Set integrator to %1").arg(name),
                                         [chosen](ModelSpec& s) { s.simulation.integrator = chosen; });
  if (!error.isEmpty()) showError(tr("Could not change the integrator."), error);
}

void MainWindow::choosePhysics() {
  if (!simulatesTree()) return;
  PhysicsDialog dialog(m_model->spec.physics, this);
  if (dialog.exec() != QDialog::Accepted) return;
  const PhysicsSpec chosen = dialog.physics();
  if (chosen == m_model->spec.physics) return;
  const QString error =
      m_document->edit(tr("Change physics settings"), [chosen](ModelSpec& s) { s.physics = chosen; });
  if (!error.isEmpty()) showError(tr("Could not change the physics settings."), error);
}

void MainWindow::chooseStep() {
  if (!simulatesTree()) return;
  bool ok = false;
  const double dt = QInputDialog::getDouble(this, tr("Time Step"), tr("Step (s):"),
                                            m_model->spec.simulation.dt, 1e-7, 1.0, 7, &ok, {},
                                            1e-4);
  if (!ok) return;
  const QString error = m_document->edit(tr("Set time step to %1 s").arg(dt),
                                         [dt](ModelSpec& s) { s.simulation.dt = dt; });
  if (!error.isEmpty()) showError(tr("Could not change the time step."), error);
}

}  // namespace art::gui
