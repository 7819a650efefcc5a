// Comparison benchmarks: the workloads of workloads.h built in DART 6.12 and MuJoCo 2.2.2 from
// the same ModelSpec, registered as BM_<dart|mujoco>_<aba|rnea|crba>/<chain|tree>/<N>.
//
// Fairness: DART caches kinematics, articulated inertias and the mass matrix behind dirty flags
// that only a state change clears (its setters ignore an unchanged value), so every timed
// iteration of DART and MuJoCo sets a state that differs from the previous iteration's (see
// States): DART calls setPositions/setVelocities/setForces (or setAccelerations), MuJoCo copies
// qpos/qvel/qfrc_applied (or qacc) into mjData. Articulate's loops (bench_dynamics.cpp) pass
// the fixed q, qd, tau by reference: its algorithms keep no cache and recompute every call.
// The models, mjData and the permuted state vectors are set up outside the timed loops.
#include "compare.h"

#include "mujoco_models.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <benchmark/benchmark.h>
#include <dart/dynamics/BodyNode.hpp>
#include <dart/dynamics/Inertia.hpp>
#include <dart/dynamics/RevoluteJoint.hpp>
#include <dart/dynamics/Skeleton.hpp>
#include <mujoco/mujoco.h>

#include "articulate/dynamics/dynamics.h"
#include "articulate/model/model.h"

namespace bench {

namespace {

constexpr double kTolerance = 1e-6;

// ---- DART ------------------------------------------------------------------------------------

struct DartModel {
  dart::dynamics::SkeletonPtr skel;
  std::vector<Eigen::Index> dof;  // Articulate body i -> DART generalized coordinate
};

// Body i: RevoluteJoint whose frame sits at Xtree's pose in the parent body (origin
// `translation`, axes rotation^T, since `rotation` maps parent to joint coordinates), the child
// body frame coinciding with the joint frame; rotating by +q about the axis matches jcalc's
// rotz(q) coordinate transform (checked numerically below).
DartModel buildDart(const art::ModelSpec& spec) {
  using dart::dynamics::BodyNode;
  using dart::dynamics::RevoluteJoint;
  DartModel out;
  out.skel = dart::dynamics::Skeleton::create(spec.name.empty() ? "articulate" : spec.name);
  out.skel->setGravity(spec.effectiveGravity());
  std::vector<BodyNode*> nodes(spec.bodies.size(), nullptr);
  out.dof.resize(spec.bodies.size());
  for (std::size_t i = 0; i < spec.bodies.size(); ++i) {
    const art::BodySpec& b = spec.bodies[i];
    RevoluteJoint::Properties jp;
    jp.mName = "j" + std::to_string(i);
    jp.mAxis = hingeAxis(b.joint);
    Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
    T.linear() = b.rotation.transpose();
    T.translation() = b.translation;
    jp.mT_ParentBodyToJoint = T;
    BodyNode* parent = b.parent < 0 ? nullptr : nodes[static_cast<std::size_t>(b.parent)];
    auto pair = out.skel->createJointAndBodyNodePair<RevoluteJoint>(parent, jp);
    const BodyInertia in = splitInertia(b.inertia.spatial());
    pair.second->setName("b" + std::to_string(i));
    pair.second->setInertia(dart::dynamics::Inertia(in.mass, in.com, in.aboutCom));
    nodes[i] = pair.second;
    out.dof[i] = static_cast<Eigen::Index>(pair.first->getIndexInSkeleton(0));
  }
  return out;
}

// MuJoCo has no ABA. Timed forward dynamics = the stages of mj_forward that qacc depends on for
// a tree with no constraints, tendons, actuators, passive forces or sensors:
//   mj_kinematics (body poses), mj_comPos (com-based inertias and dof axes), mj_crb (M, sparse),
//   mj_factorM (sparse L'DL of M), mj_comVel (velocities, cdof_dot),
//   mj_rne(flg_acc=0) -> qfrc_bias = C(q, qd) with gravity,
//   qfrc_smooth = qfrc_applied - qfrc_bias, mj_solveM -> qacc.
// i.e. O(n) kinematics + CRBA + sparse factorisation + RNE + solve. The check below shows the
// result equals mj_forward's qacc with contacts and constraints disabled (mj_forward also runs
// camlight, tendon, transmission, collision, passive, actuation, sensors, energy and the
// constraint bookkeeping, which this sequence skips).
void mujocoForward(const mjModel* m, mjData* d) {
  mj_kinematics(m, d);
  mj_comPos(m, d);
  mj_crb(m, d);
  mj_factorM(m, d);
  mj_comVel(m, d);
  mj_rne(m, d, 0, d->qfrc_bias);
  mju_sub(d->qfrc_smooth, d->qfrc_applied, d->qfrc_bias, m->nv);
  mj_solveM(m, d, d->qacc, d->qfrc_smooth, 1);
}

// Timed inverse dynamics: kinematics, com-based quantities, velocities, then RNE with the
// acceleration term: qfrc_inverse = M(q) qacc + C(q, qd) (gravity included). mj_inverse would
// also run the position stage's CRB + factorisation and the constraint bookkeeping.
void mujocoInverse(const mjModel* m, mjData* d) {
  mj_kinematics(m, d);
  mj_comPos(m, d);
  mj_comVel(m, d);
  mj_rne(m, d, 1, d->qfrc_inverse);
}

// Timed mass matrix: what M needs, kinematics + com-based inertias + CRB, leaving M in MuJoCo's
// native sparse form d->qM (no mj_fullM expansion to a dense matrix, which Articulate and DART
// produce; the correctness check expands it).
void mujocoMass(const mjModel* m, mjData* d) {
  mj_kinematics(m, d);
  mj_comPos(m, d);
  mj_crb(m, d);
}

// ---- helpers ---------------------------------------------------------------------------------

Eigen::VectorXd permute(const Eigen::VectorXd& v, const std::vector<Eigen::Index>& index) {
  Eigen::VectorXd out(v.size());
  for (Eigen::Index i = 0; i < v.size(); ++i) out(index[static_cast<std::size_t>(i)]) = v(i);
  return out;
}

Eigen::VectorXd permute(const Eigen::VectorXd& v, const std::vector<int>& index) {
  return permute(v, std::vector<Eigen::Index>(index.begin(), index.end()));
}

double maxAbsDiff(const Eigen::VectorXd& art, const Eigen::VectorXd& other,
                  const std::vector<Eigen::Index>& index) {
  double e = 0.0;
  for (Eigen::Index i = 0; i < art.size(); ++i)
    e = std::max(e, std::abs(art(i) - other(index[static_cast<std::size_t>(i)])));
  return e;
}

double maxAbsDiff(const Eigen::MatrixXd& art, const Eigen::MatrixXd& other,
                  const std::vector<Eigen::Index>& index) {
  double e = 0.0;
  for (Eigen::Index i = 0; i < art.rows(); ++i)
    for (Eigen::Index j = 0; j < art.cols(); ++j)
      e = std::max(e, std::abs(art(i, j) - other(index[static_cast<std::size_t>(i)],
                                                 index[static_cast<std::size_t>(j)])));
  return e;
}

Eigen::VectorXd fromMj(const mjtNum* v, int n) {
  return Eigen::Map<const Eigen::VectorXd>(v, n);
}

// ---- the correctness check (untimed) ---------------------------------------------------------

void check(const Workload& w, DartModel& dm, const MujocoModel& mm) {
  const std::string name = w.kind + "/" + std::to_string(w.bodies);
  const art::Model model = art::compile(w.spec);
  art::Data data(model);
  const Eigen::VectorXd qddArt = art::aba(model, data, w.q, w.qd, w.tau);
  const Eigen::VectorXd tauArt = art::rnea(model, data, w.q, w.qd, w.qdd);
  const Eigen::MatrixXd HArt = art::crba(model, data, w.q);
  const std::vector<Eigen::Index> mjIndex(mm.dof.begin(), mm.dof.end());

  // DART
  auto& skel = *dm.skel;
  skel.setPositions(permute(w.q, dm.dof));
  skel.setVelocities(permute(w.qd, dm.dof));
  skel.setForces(permute(w.tau, dm.dof));
  skel.computeForwardDynamics();
  const double dQdd = maxAbsDiff(qddArt, skel.getAccelerations(), dm.dof);
  skel.setAccelerations(permute(w.qdd, dm.dof));
  skel.computeInverseDynamics();
  const double dTau = maxAbsDiff(tauArt, skel.getForces(), dm.dof);
  const double dH = maxAbsDiff(HArt, skel.getMassMatrix(), dm.dof);

  // MuJoCo: the timed sequences, and mj_forward / mj_inverse on a second mjData
  const mjModel* m = mm.model.get();
  const int n = m->nv;
  MjDataPtr d(mj_makeData(m)), ref(mj_makeData(m));
  const Eigen::VectorXd q = permute(w.q, mm.qpos), qd = permute(w.qd, mm.dof),
                        tau = permute(w.tau, mm.dof), qdd = permute(w.qdd, mm.dof);
  for (mjData* x : {d.get(), ref.get()}) {
    mju_copy(x->qpos, q.data(), m->nq);
    mju_copy(x->qvel, qd.data(), n);
    mju_copy(x->qfrc_applied, tau.data(), n);
  }
  mujocoForward(m, d.get());
  const Eigen::VectorXd mjQdd = fromMj(d->qacc, n);
  mj_forward(m, ref.get());
  const double mQddFwd = (mjQdd - fromMj(ref->qacc, n)).cwiseAbs().maxCoeff();
  mujocoMass(m, d.get());
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> M(n, n);
  mj_fullM(m, M.data(), d->qM);
  mju_copy(d->qacc, qdd.data(), n);
  mju_copy(ref->qacc, qdd.data(), n);
  mujocoInverse(m, d.get());
  const Eigen::VectorXd mjTau = fromMj(d->qfrc_inverse, n);
  mj_inverse(m, ref.get());
  const double mTauInv = (mjTau - fromMj(ref->qfrc_inverse, n)).cwiseAbs().maxCoeff();
  const double mQdd = maxAbsDiff(qddArt, mjQdd, mjIndex);
  const double mTau = maxAbsDiff(tauArt, mjTau, mjIndex);
  const double mH = maxAbsDiff(HArt, Eigen::MatrixXd(M), mjIndex);

  std::fprintf(stderr,
               "compare %-9s max|diff| vs Articulate: DART qdd %.1e tau %.1e H %.1e | MuJoCo qdd "
               "%.1e tau %.1e H %.1e | MuJoCo timed vs mj_forward qacc %.1e, vs mj_inverse "
               "%.1e | max|qdd| %.1e max|H| %.1e\n",
               name.c_str(), dQdd, dTau, dH, mQdd, mTau, mH, mQddFwd, mTauInv,
               qddArt.cwiseAbs().maxCoeff(), HArt.cwiseAbs().maxCoeff());
  for (double e : {dQdd, dTau, dH, mQdd, mTau, mH, mQddFwd, mTauInv}) {
    if (!(e <= kTolerance)) {
      std::fprintf(stderr,
                   "compare: %s: DART/MuJoCo disagree with Articulate by more than %g: the "
                   "comparison models are not the same mechanism; aborting.\n",
                   name.c_str(), kTolerance);
      std::abort();
    }
  }
}

std::string label(const char* engine, const char* algorithm, const Workload& w) {
  return std::string("BM_") + engine + "_" + algorithm + "/" + w.kind + "/" +
         std::to_string(w.bodies);
}

// ---- benchmark registration ------------------------------------------------------------------

// Two states per engine, w's and its negation (q, qd, qdd, tau all negated), alternated by
// every timed loop: DART's setters return early when a value is unchanged, so re-setting the
// same state would leave its caches valid and time nothing. MuJoCo keeps no caches but
// alternates the same way so that both loops do identical work around the call.
struct States {
  Eigen::VectorXd q[2], qd[2], qdd[2], tau[2];
};

template <class Index>
States states(const Workload& w, const std::vector<Index>& pos, const std::vector<Index>& dof) {
  States s;
  s.q[0] = permute(w.q, pos);
  s.qd[0] = permute(w.qd, dof);
  s.qdd[0] = permute(w.qdd, dof);
  s.tau[0] = permute(w.tau, dof);
  s.q[1] = -s.q[0];
  s.qd[1] = -s.qd[0];
  s.qdd[1] = -s.qdd[0];
  s.tau[1] = -s.tau[0];
  return s;
}

// One comparison benchmark: makeStep(), called once per run outside the timing, returns a
// step(k) that sets state k (0 or 1, alternating so that no library cache can hold a result)
// and computes; setting the state is timed, for both libraries alike.
template <class MakeStep>
void registerAlternating(const std::string& name, MakeStep makeStep) {
  benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& state) {
    auto step = makeStep();
    int k = 0;
    for (auto _ : state) {
      step(k);
      k ^= 1;
    }
    state.SetItemsProcessed(state.iterations());
  });
}

void registerDart(const Workload& w, const DartModel& dm) {
  const auto skel = dm.skel;
  const States s = states(w, dm.dof, dm.dof);
  const std::size_t last = static_cast<std::size_t>(w.q.size() - 1);
  // ABA: Skeleton::computeForwardDynamics (DART's articulated-body algorithm), result in the
  // dofs' accelerations.
  registerAlternating(label("dart", "aba", w), [=] {
    return [=](int k) {
      skel->setPositions(s.q[k]);
      skel->setVelocities(s.qd[k]);
      skel->setForces(s.tau[k]);
      skel->computeForwardDynamics();
      benchmark::DoNotOptimize(skel->getAcceleration(last));
    };
  });
  // RNEA: Skeleton::computeInverseDynamics (no external, damping or spring forces), result in
  // the dofs' forces.
  registerAlternating(label("dart", "rnea", w), [=] {
    return [=](int k) {
      skel->setPositions(s.q[k]);
      skel->setVelocities(s.qd[k]);
      skel->setAccelerations(s.qdd[k]);
      skel->computeInverseDynamics();
      benchmark::DoNotOptimize(skel->getForce(last));
    };
  });
  // CRBA: Skeleton::getMassMatrix, recomputed because setPositions changed q and dirtied it.
  registerAlternating(label("dart", "crba", w), [=] {
    return [=](int k) {
      skel->setPositions(s.q[k]);
      benchmark::DoNotOptimize(skel->getMassMatrix().data());
    };
  });
}

void registerMujoco(const Workload& w, const MujocoModel& mm) {
  const auto model = mm.model;
  const States s = states(w, mm.qpos, mm.dof);
  // each run gets its own mjData; the step owns it
  auto withData = [model](auto body) {
    return [model, body] {
      return [m = model.get(), d = std::shared_ptr<mjData>(mj_makeData(model.get()), MjDataDeleter{}),
              body](int k) { body(m, d.get(), k); };
    };
  };
  registerAlternating(label("mujoco", "aba", w), withData([s](const mjModel* m, mjData* d, int k) {
    mju_copy(d->qpos, s.q[k].data(), m->nq);
    mju_copy(d->qvel, s.qd[k].data(), m->nv);
    mju_copy(d->qfrc_applied, s.tau[k].data(), m->nv);
    mujocoForward(m, d);
    benchmark::DoNotOptimize(d->qacc);
  }));
  registerAlternating(label("mujoco", "rnea", w), withData([s](const mjModel* m, mjData* d, int k) {
    mju_copy(d->qpos, s.q[k].data(), m->nq);
    mju_copy(d->qvel, s.qd[k].data(), m->nv);
    mju_copy(d->qacc, s.qdd[k].data(), m->nv);
    mujocoInverse(m, d);
    benchmark::DoNotOptimize(d->qfrc_inverse);
  }));
  registerAlternating(label("mujoco", "crba", w), withData([s](const mjModel* m, mjData* d, int k) {
    mju_copy(d->qpos, s.q[k].data(), m->nq);
    mujocoMass(m, d);
    benchmark::DoNotOptimize(d->qM);
  }));
}

}  // namespace

void registerComparisons(const Workload& w) {
  try {
    checkSpec(w.spec);
    DartModel dm = buildDart(w.spec);
    const MujocoModel mm = buildMujoco(w.spec);
    check(w, dm, mm);
    registerDart(w, dm);
    registerMujoco(w, mm);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "compare: %s/%d: %s; aborting.\n", w.kind.c_str(), w.bodies, e.what());
    std::abort();
  }
}

}  // namespace bench
