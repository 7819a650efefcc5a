// articulate's simulation, sweeps and motion files: Model.simulate (any kind, through the one
// System a command builds, batch/system_factory.h), sweep (batch/sweep.h, as the CLI runs it)
// and save_motion (an Articulate recording the app opens, formats/articulate.h). The GIL is
// released while they run.
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <thread>

#include <pybind11/stl.h>

#include "articulate/batch/sweep.h"
#include "articulate/batch/system_factory.h"
#include "articulate/formats/articulate.h"
#include "articulate/formats/files.h"
#include "articulate/formats/json.h"
#include "module.h"

namespace artpy {

namespace {

using py::ssize_t;
using namespace pybind11::literals;

/// What Model.simulate returns (articulate.Trajectory).
struct Trajectory {
  py::array_t<double> t, q, qd, kinetic, potential, dissipated, actuator_work, constraint_forces;
  std::vector<std::string> position_names, velocity_names, constraint_names;
  std::string integrator;
  double dt = 0;
  long steps = 0;
  std::optional<std::string> divergence;
};

py::array_t<double> table(const std::vector<double>& v, ssize_t rows, ssize_t cols) {
  py::array_t<double> a(cols < 0 ? std::vector<ssize_t>{rows} : std::vector<ssize_t>{rows, cols});
  std::copy(v.begin(), v.end(), a.mutable_data());
  return a;
}

double positive(const py::object& value, const char* name) {
  const double x = value.cast<double>();
  if (!std::isfinite(x) || x <= 0)
    throw py::value_error(std::string(name) + ": must be a finite number > 0, got " + std::string(py::repr(value)));
  return x;
}

// ctrl: a constant (nu,) vector, or (times (K,), values (K, nu)) interpolated linearly in time
// and held beyond its ends, as a control table (CSV) drives articulate-cli simulate --ctrl
void applyControls(art::System& sys, const py::object& ctrl) {
  const int nu = sys.actuatorSize();
  if (nu == 0) {
    if (Array::ensure(ctrl).size() > 0)
      throw py::value_error("ctrl: this model has no actuators (nu = 0): there is nothing to drive");
    return;
  }
  if (!py::isinstance<py::tuple>(ctrl)) {
    const Array c = input(ctrl, "ctrl", {nu});
    sys.setControls(Eigen::Map<const Eigen::VectorXd>(c.data(), nu));
    return;
  }
  const auto pair = ctrl.cast<py::tuple>();
  if (pair.size() != 2)
    throw py::value_error("ctrl: expected a (nu,) vector or a pair (times (K,), values (K, nu)), got a tuple of " +
                          std::to_string(pair.size()));
  const Array times = Array::ensure(pair[0]);
  if (!times || times.ndim() != 1 || times.size() < 1)
    throw py::value_error("ctrl[0]: expected the times, a (K,) array with K >= 1");
  const auto k = static_cast<py::ssize_t>(times.size());
  const Array values = input(pair[1], "ctrl[1]", {k, nu});
  auto table = std::make_shared<art::ControlTable>();
  for (py::ssize_t i = 0; i < k; ++i) {
    const double t = times.data()[i];
    if (!std::isfinite(t) || (i > 0 && t <= table->times.back()))
      throw py::value_error("ctrl[0][" + std::to_string(i) + "]: times must be finite and strictly increasing");
    table->times.push_back(t);
  }
  for (int j = 0; j < nu; ++j) table->columns.push_back(j);
  table->values = Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(values.data(), k, nu);
  sys.setControlTable(std::move(table));
}

Trajectory simulate(PyModel& pm, const py::object& duration, const py::object& dt,
                    const std::optional<std::string>& integrator, const py::object& q0, const py::object& qd0,
                    const py::object& ctrl, long every, bool energyProjection) {
  const double T = positive(duration, "duration");
  if (every < 1) throw py::value_error("every: must be at least 1, got " + std::to_string(every));
  art::SimulationOverrides o;
  o.integrator = integrator.value_or("");
  o.dt = dt.is_none() ? 0.0 : positive(dt, "dt");
  o.energyProjection = energyProjection;
  o.every = static_cast<int>(every);
  art::BuiltSystem s = art::buildSystem(pm.document, o);
  art::System& sys = *s.system;
  const int nq = sys.positionSize(), nv = sys.velocitySize(), nc = sys.constraintSize();
  if (!ctrl.is_none()) applyControls(sys, ctrl);
  if (!q0.is_none() || !qd0.is_none()) {
    if (!pm.model && std::holds_alternative<art::RigidBodySpec>(pm.document))
      throw py::value_error("q0/qd0: a rigid_body model has no joints (its initial state is the file's 'initial')");
    const Eigen::VectorXd q = q0.is_none() ? s.q0 : Eigen::VectorXd(Eigen::Map<const Eigen::VectorXd>(input(q0, "q0", {nq}).data(), nq));
    const Eigen::VectorXd v = qd0.is_none() ? s.v0 : Eigen::VectorXd(Eigen::Map<const Eigen::VectorXd>(input(qd0, "qd0", {nv}).data(), nv));
    sys.setState(0.0, q, v);
  }
  const double interval = s.dt * static_cast<double>(every);
  const double samples = std::floor(T / interval + 1e-9) + 1;
  const double bytes = samples * 8.0 * (nq + nv + nc + 5);
  if (bytes > 8e9)
    throw py::value_error("duration: " + std::to_string(static_cast<long long>(samples)) + " samples of " +
                          std::to_string(nq + nv + nc + 5) + " numbers would take " +
                          std::to_string(static_cast<long long>(bytes / 1e9)) + " GB; sample less often (every) or simulate less");
  Trajectory tr;
  std::vector<double> t, q, v, ke, pe, diss, work, lam;
  {
    py::gil_scoped_release release;
    Eigen::VectorXd lambda(nc);
    const auto row = [&] {
      const art::EnergySample e = sys.energy();
      t.push_back(sys.time());
      q.insert(q.end(), sys.positions().data(), sys.positions().data() + nq);
      v.insert(v.end(), sys.velocities().data(), sys.velocities().data() + nv);
      ke.push_back(e.kinetic);
      pe.push_back(e.potential);
      diss.push_back(sys.energyDissipated());
      work.push_back(sys.actuatorWork());
      if (nc) {
        sys.currentConstraintForces(lambda);
        lam.insert(lam.end(), lambda.data(), lambda.data() + nc);
      }
    };
    row();
    for (long k = 1; k < static_cast<long>(samples); ++k) {
      if (!sys.advanceTo(static_cast<double>(k) * interval)) break;
      row();
    }
  }
  const auto n = static_cast<ssize_t>(t.size());
  tr.t = table(t, n, -1);
  tr.q = table(q, n, nq);
  tr.qd = table(v, n, nv);
  tr.kinetic = table(ke, n, -1);
  tr.potential = table(pe, n, -1);
  tr.dissipated = table(diss, n, -1);
  tr.actuator_work = table(work, n, -1);
  tr.constraint_forces = table(lam, n, nc);
  for (int i = 0; i < nq; ++i) tr.position_names.push_back(sys.positionName(i));
  for (int i = 0; i < nv; ++i) tr.velocity_names.push_back(sys.velocityName(i));
  for (int i = 0; i < nc; ++i) tr.constraint_names.push_back(sys.constraintName(i));
  tr.integrator = sys.integratorName();
  tr.dt = s.dt;
  tr.steps = sys.stepsTaken();
  if (sys.divergence()) {
    tr.divergence = sys.divergence()->message;
    if (PyErr_WarnEx(PyExc_RuntimeWarning, ("simulate: " + *tr.divergence + "; the trajectory stops there").c_str(), 1) < 0)
      throw py::error_already_set();
  }
  return tr;
}

// a results table's column as numbers (empty cells NaN; run and steps as integers), or as text
py::object column(const std::string& name, const std::vector<std::vector<std::string>>& rows, std::size_t c) {
  py::module_ np = py::module_::import("numpy");
  py::list text;
  std::vector<double> numbers;
  bool numeric = name != "status" && name != "reason";
  for (const auto& row : rows) {
    const std::string& cell = c < row.size() ? row[c] : std::string();
    text.append(cell);
    if (!numeric) continue;
    if (cell.empty()) {
      numbers.push_back(std::nan(""));
      continue;
    }
    try {
      std::size_t used = 0;
      numbers.push_back(std::stod(cell, &used));
      numeric = used == cell.size();
    } catch (const std::exception&) {
      numeric = false;
    }
  }
  if (!numeric) return np.attr("array")(text, "dtype"_a = "object");
  py::array_t<double> a(static_cast<ssize_t>(numbers.size()), numbers.data());
  if (name == "run" || name == "steps") return a.attr("astype")("int64");
  return std::move(a);
}

py::dict sweep(const py::object& spec, const std::string& results, const py::object& jobs) {
  art::sweep::SweepSpec s;
  if (py::isinstance<py::dict>(spec)) {
    const std::string text = py::module_::import("json").attr("dumps")(spec).cast<std::string>();
    s = art::sweep::readSweep(art::parseJsonText(text, "sweep"), "sweep (dict)");
  } else {
    s = art::sweep::readSweep(py::str(spec).cast<std::string>());
  }
  const int threads = batchThreads(jobs, 1L << 30);
  std::atomic<bool> stop{false}, done{false};
  std::exception_ptr error;
  std::thread worker([&] {
    try {
      art::sweep::run(s, results, art::sweep::Slice{}, threads, &stop);
      art::sweep::collect(results);
    } catch (...) {
      error = std::current_exception();
    }
    done = true;
  });
  // wait, letting Ctrl+C (KeyboardInterrupt) stop the runs between samples
  while (!done) {
    {
      py::gil_scoped_release release;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (PyErr_CheckSignals() != 0) {
      stop = true;
      {
        py::gil_scoped_release release;
        worker.join();
      }
      throw py::error_already_set();
    }
  }
  worker.join();
  if (error) std::rethrow_exception(error);
  const art::sweep::Results r = art::sweep::readResults(results);
  py::dict out;
  for (std::size_t c = 0; c < r.columns.size(); ++c) out[py::str(r.columns[c])] = column(r.columns[c], r.rows, c);
  return out;
}

void saveMotion(const std::string& path, PyModel& pm, const py::object& t, const py::object& q, const py::object& qd) {
  const art::Model& m = pm.tree("save_motion");
  const Array ta = Array::ensure(t);
  const ssize_t n = ta && ta.ndim() == 1 ? ta.shape(0) : -1;
  if (n < 1) throw py::value_error("t: expected a 1-D array of at least one sample time (s)");
  const Array T = input(t, "t", {n}), Q = input(q, "q", {n, m.nq()});
  art::Motion motion;
  motion.t = Eigen::Map<const Eigen::VectorXd>(T.data(), n);
  for (ssize_t k = 1; k < n; ++k)
    if (motion.t(k) < motion.t(k - 1))
      throw py::value_error("t: sample times must not decrease (t[" + std::to_string(k) + "] = " +
                            std::to_string(motion.t(k)) + " < t[" + std::to_string(k - 1) + "])");
  using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  motion.q = Eigen::Map<const RowMajor>(Q.data(), n, m.nq());
  if (!qd.is_none()) {
    const Array V = input(qd, "qd", {n, m.nv()});
    motion.qd = Eigen::Map<const RowMajor>(V.data(), n, m.nv());
    motion.kinetic.resize(n);
    motion.potential.resize(n);
    for (ssize_t k = 0; k < n; ++k) {
      const art::EnergyMomentum e = art::energyMomentum(m, *pm.data, motion.q.row(k).transpose(), motion.qd.row(k).transpose());
      motion.kinetic(k) = e.kinetic;
      motion.potential(k) = e.potential;
    }
  }
  py::gil_scoped_release release;
  art::saveRecording(path, pm.loaded()->spec, motion);
}

}  // namespace

void bindSimulation(py::module_& mod, ModelClass& model) {
  py::class_<Trajectory>(mod, "Trajectory", "A simulated motion: one row per sample (every `every` steps of dt).")
      .def_readonly("t", &Trajectory::t, "Sample times (s), (T,).")
      .def_readonly("q", &Trajectory::q, "Positions, (T, nq).")
      .def_readonly("qd", &Trajectory::qd, "Velocities, (T, nv).")
      .def_readonly("kinetic", &Trajectory::kinetic, "Kinetic energy (J), (T,).")
      .def_readonly("potential", &Trajectory::potential, "Potential energy (J), (T,).")
      .def_readonly("dissipated", &Trajectory::dissipated, "Energy the joints' damping, stops and friction took out since the start (J), (T,).")
      .def_readonly("actuator_work", &Trajectory::actuator_work, "Work the actuators did since the start (J), (T,): total + dissipated - actuator_work stays constant up to the integrator's error.")
      .def_readonly("constraint_forces", &Trajectory::constraint_forces, "Constraint forces lambda, (T, nc) (N, N m: the units of each row).")
      .def_readonly("position_names", &Trajectory::position_names)
      .def_readonly("velocity_names", &Trajectory::velocity_names)
      .def_readonly("constraint_names", &Trajectory::constraint_names)
      .def_readonly("integrator", &Trajectory::integrator)
      .def_readonly("dt", &Trajectory::dt, "The step (s; dopri5: the largest).")
      .def_readonly("steps", &Trajectory::steps, "Integrator steps taken.")
      .def_readonly("divergence", &Trajectory::divergence, "Why the simulation stopped early (None: it ran to the end).")
      .def_property_readonly("total", [](const Trajectory& tr) { return py::array_t<double>(tr.kinetic.attr("__add__")(tr.potential)); }, "kinetic + potential (J).")
      .def("__len__", [](const Trajectory& tr) { return tr.t.shape(0); })
      .def("__repr__", [](const Trajectory& tr) {
        return "<articulate.Trajectory " + std::to_string(tr.t.shape(0)) + " samples, " + tr.integrator +
               (tr.divergence ? ", diverged>" : ">");
      });
  model.def("simulate", &simulate, py::arg("duration"), py::arg("dt") = py::none(), py::arg("integrator") = py::none(),
            py::arg("q0") = py::none(), py::arg("qd0") = py::none(), py::arg("ctrl") = py::none(), py::arg("every") = 1,
            py::arg("energy_projection") = false,
            R"(Integrates the model for `duration` seconds from its initial state (or q0, qd0) with the model's
integrator and step unless given (trees: 'rk4', 'euler', 'dopri5'; structures: 'zhong06', 'rk4';
rigid bodies: 'rk4'), keeping every `every`-th step. Releases the GIL. A divergence stops it with
a RuntimeWarning; the samples before it are kept (Trajectory.divergence says why).)");
  mod.def("_sweep", &sweep, py::arg("spec"), py::arg("results"), py::arg("jobs") = py::none());
  mod.def("_save_motion", &saveMotion, py::arg("path"), py::arg("model"), py::arg("t"), py::arg("q"),
          py::arg("qd") = py::none());
}

}  // namespace artpy
