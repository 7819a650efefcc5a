// articulate's dynamics functions on numpy arrays: one state (the GIL held, the model's own
// workspace, nothing allocated when `out` is given) and batches of N states (the GIL released,
// the work split over threads, each with its own workspace; aba_batch and energy_batch step
// kLanes states per instruction where the engine's lanes take the model, dynamics/batch.h).
#include <atomic>
#include <exception>
#include <thread>

#include <pybind11/stl.h>

#include "articulate/dynamics/batch.h"
#include "module.h"

namespace artpy {

namespace {

using Vec = Eigen::Map<const Eigen::VectorXd>;
using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using py::ssize_t;

Vec vec(const Array& a, Eigen::Index n, Eigen::Index row = 0) { return Vec(a.data() + row * n, n); }

void copyOut(py::array_t<double>& out, const Eigen::VectorXd& v) {
  std::copy(v.data(), v.data() + v.size(), out.mutable_data());
}

// fext as the engine takes it: one row per body in Python (nb x dim), one column in the engine
const art::ExternalForces* externalForces(PyModel& pm, const py::object& fext) {
  if (fext.is_none()) return nullptr;
  const art::Model& m = *pm.model;
  const Array f = input(fext, "fext", {m.nb, pm.fext.rows()});
  pm.fext = Eigen::Map<const Eigen::MatrixXd>(f.data(), pm.fext.rows(), m.nb);
  return &pm.fext;
}

py::array_t<double> forwardKinematics(PyModel& pm, const py::object& q, const py::object& out) {
  const art::Model& m = pm.tree("forward_kinematics");
  const Array qa = input(q, "q", {m.nq()});
  py::array_t<double> result = output(out, {m.nb, 4, 4});
  art::forwardKinematics(m, *pm.data, vec(qa, m.nq()));
  double* o = result.mutable_data();
  for (int i = 0; i < m.nb; ++i, o += 16) {
    const art::BodyPose p = art::bodyPose(m, *pm.data, i);
    Eigen::Map<Eigen::Matrix<double, 4, 4, Eigen::RowMajor>> T(o);
    T.setIdentity();
    T.topLeftCorner<3, 3>() = p.rotation;
    T.topRightCorner<3, 1>() = p.position;
  }
  return result;
}

py::array_t<double> pointJacobian(PyModel& pm, const py::object& q, const py::object& body,
                                  const py::object& point, const py::object& out) {
  const art::Model& m = pm.tree("point_jacobian");
  const Array qa = input(q, "q", {m.nq()});
  const int b = bodyIndex(m, body);
  art::Vec3 p = art::Vec3::Zero();
  if (!point.is_none()) p = Vec(input(point, "point", {3}).data(), 3);
  py::array_t<double> result = output(out, {3, m.nv()});
  Eigen::Matrix<double, 3, Eigen::Dynamic> J(3, m.nv());
  art::pointJacobian(m, *pm.data, vec(qa, m.nq()), b, p, J);
  Eigen::Map<Eigen::Matrix<double, 3, Eigen::Dynamic, Eigen::RowMajor>>(result.mutable_data(), 3, m.nv()) = J;
  return result;
}

py::array_t<double> rnea(PyModel& pm, const py::object& q, const py::object& qd, const py::object& qdd,
                         const py::object& fext, const py::object& out) {
  const art::Model& m = pm.tree("rnea");
  const Array qa = input(q, "q", {m.nq()}), va = input(qd, "qd", {m.nv()}), aa = input(qdd, "qdd", {m.nv()});
  py::array_t<double> result = output(out, {m.nv()});
  copyOut(result, art::rnea(m, *pm.data, vec(qa, m.nq()), vec(va, m.nv()), vec(aa, m.nv()),
                            externalForces(pm, fext)));
  return result;
}

py::array_t<double> bias(PyModel& pm, const py::object& q, const py::object& qd, const py::object& fext,
                         const py::object& out) {
  const art::Model& m = pm.tree("bias");
  const Array qa = input(q, "q", {m.nq()}), va = input(qd, "qd", {m.nv()});
  py::array_t<double> result = output(out, {m.nv()});
  copyOut(result, art::biasForces(m, *pm.data, vec(qa, m.nq()), vec(va, m.nv()), externalForces(pm, fext)));
  return result;
}

py::array_t<double> aba(PyModel& pm, const py::object& q, const py::object& qd, const py::object& tau,
                        const py::object& fext, const py::object& out) {
  const art::Model& m = pm.tree("aba");
  const Array qa = input(q, "q", {m.nq()}), va = input(qd, "qd", {m.nv()});
  py::array_t<double> result = output(out, {m.nv()});
  if (tau.is_none()) {
    copyOut(result, art::aba(m, *pm.data, vec(qa, m.nq()), vec(va, m.nv()), pm.zeros, externalForces(pm, fext)));
  } else {
    const Array ta = input(tau, "tau", {m.nv()});
    copyOut(result, art::aba(m, *pm.data, vec(qa, m.nq()), vec(va, m.nv()), vec(ta, m.nv()),
                             externalForces(pm, fext)));
  }
  return result;
}

py::array_t<double> crba(PyModel& pm, const py::object& q, const py::object& out) {
  const art::Model& m = pm.tree("crba");
  const Array qa = input(q, "q", {m.nq()});
  py::array_t<double> result = output(out, {m.nv(), m.nv()});
  Eigen::Map<RowMajor>(result.mutable_data(), m.nv(), m.nv()) = art::crba(m, *pm.data, vec(qa, m.nq()));
  return result;
}

py::tuple energy(PyModel& pm, const py::object& q, const py::object& qd) {
  const art::Model& m = pm.tree("energy");
  const Array qa = input(q, "q", {m.nq()}), va = input(qd, "qd", {m.nv()});
  const art::EnergyMomentum e = art::energyMomentum(m, *pm.data, vec(qa, m.nq()), vec(va, m.nv()));
  return py::make_tuple(e.kinetic, e.potential);
}

// ------------------------------------------------------------------------------ batches

// N, the number of states in a batch argument (its rows): read from its shape, as an array of
// any type (an ndarray as it is, without the float64 copy input() may make)
ssize_t batchSize(const py::object& q, int width) {
  const py::array a = py::array::ensure(q);
  if (!a) {
    PyErr_Clear();
    return 0;  // input() names what it is
  }
  if (a.ndim() != 2)
    throw py::value_error("q: expected an (N, " + std::to_string(width) + ") array, one state per row, got shape " +
                          shapeText(std::vector<ssize_t>(a.shape(), a.shape() + a.ndim())));
  return a.shape(0);
}

// f(data, begin, end) over [0, n) in `threads` contiguous slices, the GIL released; an
// exception of any slice is rethrown after all have finished
template <class F>
void parallel(const art::Model& m, long n, int threads, F&& f) {
  py::gil_scoped_release release;
  if (threads <= 1) {
    art::Data d(m);
    f(d, 0L, n);
    return;
  }
  std::vector<std::thread> pool;
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(threads));
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      try {
        art::Data d(m);
        f(d, n * t / threads, n * (t + 1) / threads);
      } catch (...) {
        errors[static_cast<std::size_t>(t)] = std::current_exception();
      }
    });
  for (std::thread& th : pool) th.join();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
}

// states [begin, end) through the engine's lanes, kLanes at a time (the last group padded with
// copies of its last state, whose results are dropped): use(tree, first state, states in the
// group, lanes q, qd, tau) with entry i lane k of the lanes arrays coordinate i of state k.
// The lanes are filled through their doubles (GCC's vector types alias their element type).
// Returns whether every input it read was finite.
template <class F>
bool lanes(const art::Model& m, long begin, long end, const double* q, const double* qd,
           const double* tau, F&& use) {
  const int nv = m.nv();
  constexpr int L = art::kLanes;
  art::BatchTree tree(m);
  std::vector<art::Lanes> lq(static_cast<std::size_t>(nv)), lqd(lq), ltau(lq);
  double* dq = reinterpret_cast<double*>(lq.data());
  double* dqd = reinterpret_cast<double*>(lqd.data());
  double* dtau = reinterpret_cast<double*>(ltau.data());
  bool finite = true;
  for (long k = begin; k < end; k += L) {
    for (int lane = 0; lane < L; ++lane) {
      const long s = std::min(k + lane, end - 1);
      const double *qs = q + s * nv, *vs = qd + s * nv, *ts = tau ? tau + s * nv : nullptr;
      for (int i = 0; i < nv; ++i) {
        dq[i * L + lane] = qs[i];
        dqd[i * L + lane] = vs[i];
        dtau[i * L + lane] = ts ? ts[i] : 0.0;
      }
    }
    use(tree, k, std::min<long>(L, end - k), lq.data(), lqd.data(), ltau.data());
    finite = finite && allFinite(dq, nv * L) && allFinite(dqd, nv * L) && allFinite(dtau, nv * L);
  }
  return finite;
}

py::array_t<double> abaBatch(PyModel& pm, const py::object& q, const py::object& qd, const py::object& tau,
                             const py::object& out, const py::object& threads) {
  const art::Model& m = pm.tree("aba_batch");
  const ssize_t n = batchSize(q, m.nq());
  // the entries are checked where they are read (in cache), and named below if one is not finite
  const Array Q = input(q, "q", {n, m.nq()}, false), V = input(qd, "qd", {n, m.nv()}, false);
  const Array T = tau.is_none() ? Array() : input(tau, "tau", {n, m.nv()}, false);
  const double* tp = tau.is_none() ? nullptr : T.data();
  py::array_t<double> result = output(out, {n, m.nv()});
  double* o = result.mutable_data();
  const int nq = m.nq(), nv = m.nv();
  const bool useLanes = art::batchUnsupported(m).empty();
  std::atomic<bool> finite{true};
  parallel(m, n, batchThreads(threads, n), [&](art::Data& d, long begin, long end) {
    if (useLanes) {
      std::vector<art::Lanes> lqdd(static_cast<std::size_t>(nv));
      const double* dqdd = reinterpret_cast<const double*>(lqdd.data());
      if (!lanes(m, begin, end, Q.data(), V.data(), tp,
                 [&](art::BatchTree& tree, long k, long count, const art::Lanes* lq, const art::Lanes* lqd,
                     const art::Lanes* ltau) {
                   tree.forwardDynamics(lq, lqd, ltau, lqdd.data());
                   for (long lane = 0; lane < count; ++lane)
                     for (int i = 0; i < nv; ++i) o[(k + lane) * nv + i] = dqdd[i * art::kLanes + lane];
                 }))
        finite = false;
      return;
    }
    const Eigen::VectorXd zeros = Eigen::VectorXd::Zero(nv);
    for (long k = begin; k < end; ++k) {
      if (!allFinite(Q.data() + k * nq, nq) || !allFinite(V.data() + k * nv, nv) ||
          (tp && !allFinite(tp + k * nv, nv))) {
        finite = false;
        return;
      }
      const Eigen::VectorXd& qdd = art::aba(m, d, Vec(Q.data() + k * nq, nq), Vec(V.data() + k * nv, nv),
                                            tp ? Vec(tp + k * nv, nv) : Vec(zeros.data(), nv));
      std::copy(qdd.data(), qdd.data() + nv, o + k * nv);
    }
  });
  if (!finite) {  // name the first entry that is not finite
    input(q, "q", {n, m.nq()});
    input(qd, "qd", {n, m.nv()});
    if (!tau.is_none()) input(tau, "tau", {n, m.nv()});
  }
  return result;
}

py::array_t<double> energyBatch(PyModel& pm, const py::object& q, const py::object& qd, const py::object& out,
                                const py::object& threads) {
  const art::Model& m = pm.tree("energy_batch");
  const ssize_t n = batchSize(q, m.nq());
  const Array Q = input(q, "q", {n, m.nq()}), V = input(qd, "qd", {n, m.nv()});
  py::array_t<double> result = output(out, {n, 2});
  double* o = result.mutable_data();
  const int nq = m.nq(), nv = m.nv();
  parallel(m, n, batchThreads(threads, n), [&](art::Data& d, long begin, long end) {
    for (long k = begin; k < end; ++k) {
      const art::EnergyMomentum e = art::energyMomentum(m, d, Vec(Q.data() + k * nq, nq), Vec(V.data() + k * nv, nv));
      o[2 * k] = e.kinetic;
      o[2 * k + 1] = e.potential;
    }
  });
  return result;
}

// rnea_batch, bias_batch and crba_batch: one engine call per state
py::array_t<double> rneaBatch(PyModel& pm, const char* fn, const py::object& q, const py::object& qd,
                              const py::object& qdd, const py::object& out, const py::object& threads) {
  const art::Model& m = pm.tree(fn);
  const ssize_t n = batchSize(q, m.nq());
  const Array Q = input(q, "q", {n, m.nq()}), V = input(qd, "qd", {n, m.nv()});
  const Array A = qdd.is_none() ? Array() : input(qdd, "qdd", {n, m.nv()});
  py::array_t<double> result = output(out, {n, m.nv()});
  double* o = result.mutable_data();
  const int nq = m.nq(), nv = m.nv();
  const double* ap = qdd.is_none() ? nullptr : A.data();
  parallel(m, n, batchThreads(threads, n), [&](art::Data& d, long begin, long end) {
    for (long k = begin; k < end; ++k) {
      const Eigen::VectorXd& tau =
          ap ? art::rnea(m, d, Vec(Q.data() + k * nq, nq), Vec(V.data() + k * nv, nv), Vec(ap + k * nv, nv))
             : art::biasForces(m, d, Vec(Q.data() + k * nq, nq), Vec(V.data() + k * nv, nv));
      std::copy(tau.data(), tau.data() + nv, o + k * nv);
    }
  });
  return result;
}

py::array_t<double> crbaBatch(PyModel& pm, const py::object& q, const py::object& out, const py::object& threads) {
  const art::Model& m = pm.tree("crba_batch");
  const ssize_t n = batchSize(q, m.nq());
  const Array Q = input(q, "q", {n, m.nq()});
  py::array_t<double> result = output(out, {n, m.nv(), m.nv()});
  double* o = result.mutable_data();
  const int nq = m.nq(), nv = m.nv();
  parallel(m, n, batchThreads(threads, n), [&](art::Data& d, long begin, long end) {
    for (long k = begin; k < end; ++k)
      Eigen::Map<RowMajor>(o + k * nv * nv, nv, nv) = art::crba(m, d, Vec(Q.data() + k * nq, nq));
  });
  return result;
}

}  // namespace

void bindDynamics(py::module_& mod) {
  const auto none = py::none();
  mod.def("forward_kinematics", &forwardKinematics, py::arg("model"), py::arg("q"), py::arg("out") = none,
          "Body poses at q: an (nb, 4, 4) array of homogeneous transforms, body coordinates to base "
          "coordinates (positions in m).");
  mod.def("point_jacobian", &pointJacobian, py::arg("model"), py::arg("q"), py::arg("body"),
          py::arg("point") = none, py::arg("out") = none,
          "The (3, nv) Jacobian of the base-coordinate velocity (m/s) of a point fixed in `body` (a "
          "name or index; `point` in body coordinates, m, default the body's origin): J @ qd is the "
          "point's velocity.");
  mod.def("rnea", &rnea, py::arg("model"), py::arg("q"), py::arg("qd"), py::arg("qdd"),
          py::arg("fext") = none, py::arg("out") = none,
          "Inverse dynamics (recursive Newton-Euler, spatial_v2 ID): the joint forces tau (N m or N, "
          "nv) giving qdd at (q, qd). fext: (nb, 6) body forces [moment; force] in base coordinates "
          "(planar: (nb, 3)).");
  mod.def("bias", &bias, py::arg("model"), py::arg("q"), py::arg("qd"), py::arg("fext") = none,
          py::arg("out") = none, "Bias forces C(q, qd) = rnea(q, qd, 0): tau = H qdd + C (nv).");
  mod.def("aba", &aba, py::arg("model"), py::arg("q"), py::arg("qd"), py::arg("tau") = none,
          py::arg("fext") = none, py::arg("out") = none,
          "Forward dynamics (articulated-body algorithm, spatial_v2 FDab): qdd (rad/s^2 or m/s^2, "
          "nv) under tau (default zero), gravity and fext.");
  mod.def("crba", &crba, py::arg("model"), py::arg("q"), py::arg("out") = none,
          "The joint-space inertia matrix H(q) (nv, nv), composite-rigid-body algorithm, armature "
          "on its diagonal (kg m^2 or kg).");
  mod.def("energy", &energy, py::arg("model"), py::arg("q"), py::arg("qd"),
          "(kinetic, potential) energy in J at (q, qd); potential is -m g . c, zero at the base origin.");
  mod.def("aba_batch", &abaBatch, py::arg("model"), py::arg("q"), py::arg("qd"), py::arg("tau") = none,
          py::arg("out") = none, py::arg("threads") = none,
          "aba of N states: q (N, nq), qd and tau (N, nv) -> (N, nv). Releases the GIL and runs on "
          "`threads` threads (default: every core), kLanes states per instruction where the engine's "
          "lanes take the model (equal to aba to rounding).");
  mod.def("rnea_batch",
          [](PyModel& pm, const py::object& q, const py::object& qd, const py::object& qdd, const py::object& out,
             const py::object& threads) {
            if (qdd.is_none()) throw py::type_error("rnea_batch: qdd: expected an (N, nv) array, got None");
            return rneaBatch(pm, "rnea_batch", q, qd, qdd, out, threads);
          },
          py::arg("model"), py::arg("q"), py::arg("qd"), py::arg("qdd"),
          py::arg("out") = none, py::arg("threads") = none, "rnea of N states -> (N, nv).");
  mod.def("bias_batch",
          [](PyModel& pm, const py::object& q, const py::object& qd, const py::object& out, const py::object& threads) {
            return rneaBatch(pm, "bias_batch", q, qd, py::none(), out, threads);
          },
          py::arg("model"), py::arg("q"), py::arg("qd"), py::arg("out") = none, py::arg("threads") = none,
          "bias of N states -> (N, nv).");
  mod.def("crba_batch", &crbaBatch, py::arg("model"), py::arg("q"), py::arg("out") = none,
          py::arg("threads") = none, "crba of N states -> (N, nv, nv).");
  mod.def("energy_batch", &energyBatch, py::arg("model"), py::arg("q"), py::arg("qd"), py::arg("out") = none,
          py::arg("threads") = none, "energy of N states -> (N, 2): kinetic and potential (J).");
  mod.attr("LANES") = art::kLanes;
}

}  // namespace artpy
