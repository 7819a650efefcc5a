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

// ---- the mechanism, read from the ModelSpec ----------------------------------------------

struct BodyInertia {
  double mass = 0.0;
  Eigen::Vector3d com = Eigen::Vector3d::Zero();       // body coordinates
  Eigen::Matrix3d aboutCom = Eigen::Matrix3d::Zero();  // rotational inertia about the COM
};

// Splits spatial_v2's mcI = [Ic + m C C^T, m C; m C^T, m 1] (C = skew(com)) into m, com, Ic,
// which covers both the mass/com/aboutCom and the raw-matrix forms of InertiaSpec.
BodyInertia splitInertia(const art::Mat6& I) {
  BodyInertia b;
  b.mass = I(5, 5);
  if (b.mass <= 0.0) throw std::invalid_argument("compare: a body has no mass");
  const Eigen::Matrix3d mC = I.topRightCorner<3, 3>();
  b.com = Eigen::Vector3d(mC(2, 1), mC(0, 2), mC(1, 0)) / b.mass;
  const Eigen::Matrix3d C = art::skew(b.com);
  b.aboutCom = I.topLeftCorner<3, 3>() - b.mass * C * C.transpose();
  return b;
}

Eigen::Vector3d hingeAxis(const art::Joint& j) {
  switch (j.type) {
    case art::JointType::Rx: return Eigen::Vector3d::UnitX();
    case art::JointType::Ry: return Eigen::Vector3d::UnitY();
    case art::JointType::Rz: return Eigen::Vector3d::UnitZ();
    default: throw std::invalid_argument("compare: only Rx/Ry/Rz joints are supported");
  }
}

void checkSpec(const art::ModelSpec& spec) {
  if (spec.arithmetic != art::Arithmetic::Spatial)
    throw std::invalid_argument("compare: only spatial models are supported");
  for (std::size_t i = 0; i < spec.bodies.size(); ++i) {
    const int p = spec.bodies[i].parent;
    if (p >= static_cast<int>(i)) throw std::invalid_argument("compare: parent after child");
    hingeAxis(spec.bodies[i].joint);
  }
}

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

// ---- MuJoCo ----------------------------------------------------------------------------------

struct MjModelDeleter {
  void operator()(mjModel* m) const { mj_deleteModel(m); }
};
struct MjDataDeleter {
  void operator()(mjData* d) const { mj_deleteData(d); }
};
using MjDataPtr = std::unique_ptr<mjData, MjDataDeleter>;

struct MujocoModel {
  std::shared_ptr<const mjModel> model;
  std::vector<int> dof;   // Articulate body i -> MuJoCo dof (qvel, qacc, qfrc, M index)
  std::vector<int> qpos;  // Articulate body i -> MuJoCo qpos index
};

std::string num(double x) {
  std::ostringstream s;
  s.precision(17);
  s << x;
  return s.str();
}

std::string vec(const Eigen::Vector3d& v) {
  return num(v.x()) + " " + num(v.y()) + " " + num(v.z());
}

using XmlFiles = std::vector<std::pair<std::string, std::string>>;  // name, content

// MuJoCo's XML parser (tinyxml2) rejects elements nested more than ~100 deep, which a chain of
// 200 bodies needs; so every kBodiesPerFile levels the subtree continues in another file,
// spliced in by <include> (MJCF allows nested includes wherever an element may appear).
constexpr int kBodiesPerFile = 40;

// Body i: <body pos=translation quat=(rotation^T)> with a hinge at the body origin and an
// <inertial> with the same mass, COM and full inertia about the COM. No geoms, so no collision.
// `extras` (optional): per body, more XML inside it (the sweep comparison's foot geoms), and
// the hinges' damping (its PD controllers' kd).
struct BodyExtras {
  std::vector<std::string> xml;
  std::vector<double> damping;
};
void writeBody(const art::ModelSpec& spec, const std::vector<std::vector<int>>& children, int i,
               int depth, std::ostringstream& xml, XmlFiles& files, const BodyExtras* extras = nullptr) {
  const std::string pad(static_cast<std::size_t>(2 * depth + 4), ' ');
  if (depth >= kBodiesPerFile) {
    const std::string name = "articulate_compare_" + std::to_string(i) + ".xml";
    std::ostringstream sub;
    sub << "<mujoco>\n";
    writeBody(spec, children, i, 0, sub, files, extras);
    sub << "</mujoco>\n";
    files.emplace_back(name, sub.str());
    xml << pad << "<include file=\"" << name << "\"/>\n";
    return;
  }
  const art::BodySpec& b = spec.bodies[static_cast<std::size_t>(i)];
  const Eigen::Quaterniond quat(Eigen::Matrix3d(b.rotation.transpose()));
  const BodyInertia in = splitInertia(b.inertia.spatial());
  const Eigen::Matrix3d& I = in.aboutCom;
  xml << pad << "<body name=\"b" << i << "\" pos=\"" << vec(b.translation) << "\" quat=\""
      << num(quat.w()) << " " << num(quat.x()) << " " << num(quat.y()) << " " << num(quat.z())
      << "\">\n"
      << pad << "  <joint name=\"j" << i << "\" type=\"hinge\" pos=\"0 0 0\" axis=\""
      << vec(hingeAxis(b.joint)) << "\" limited=\"false\" damping=\""
      << num(extras ? extras->damping[static_cast<std::size_t>(i)] : 0.0) << "\" armature=\"0\"/>\n"
      << pad << "  <inertial pos=\"" << vec(in.com) << "\" mass=\"" << num(in.mass)
      << "\" fullinertia=\"" << num(I(0, 0)) << " " << num(I(1, 1)) << " " << num(I(2, 2)) << " "
      << num(I(0, 1)) << " " << num(I(0, 2)) << " " << num(I(1, 2)) << "\"/>\n";
  if (extras) xml << extras->xml[static_cast<std::size_t>(i)];
  for (int c : children[static_cast<std::size_t>(i)])
    writeBody(spec, children, c, depth + 1, xml, files, extras);
  xml << pad << "</body>\n";
}

// The MJCF files of the model, the main file first.
XmlFiles mjcf(const art::ModelSpec& spec) {
  std::vector<std::vector<int>> children(spec.bodies.size());
  std::vector<int> roots;
  for (std::size_t i = 0; i < spec.bodies.size(); ++i) {
    const int p = spec.bodies[i].parent;
    (p < 0 ? roots : children[static_cast<std::size_t>(p)]).push_back(static_cast<int>(i));
  }
  XmlFiles files(1);
  std::ostringstream xml;
  xml << "<mujoco model=\"articulate\">\n"
      << "  <compiler angle=\"radian\" inertiafromgeom=\"false\"/>\n"
      << "  <option gravity=\"" << vec(spec.effectiveGravity()) << "\" integrator=\"Euler\">\n"
      << "    <flag constraint=\"disable\" contact=\"disable\" equality=\"disable\""
         " frictionloss=\"disable\" limit=\"disable\" passive=\"disable\" actuation=\"disable\""
         " sensor=\"disable\"/>\n"
      << "  </option>\n"
      << "  <worldbody>\n";
  for (int r : roots) writeBody(spec, children, r, 0, xml, files);
  xml << "  </worldbody>\n</mujoco>\n";
  files[0] = {"articulate_compare.xml", xml.str()};
  return files;
}

mjModel* loadMujoco(const XmlFiles& files) {
  // mj_loadXML reads files only; 2.2.2's virtual file system serves the XML from memory
  // (mjVFS holds ~2 MB of fixed-size name buffers, hence the heap).
  auto vfs = std::make_unique<mjVFS>();
  mj_defaultVFS(vfs.get());
  for (const auto& [fname, text] : files) {
    if (mj_makeEmptyFileVFS(vfs.get(), fname.c_str(), static_cast<int>(text.size())) != 0)
      throw std::runtime_error("compare: mj_makeEmptyFileVFS failed");
    const int idx = mj_findFileVFS(vfs.get(), fname.c_str());
    std::memcpy(vfs->filedata[idx], text.data(), text.size());
  }
  char error[1000] = "";
  mjModel* m = mj_loadXML(files[0].first.c_str(), vfs.get(), error, sizeof error);
  mj_deleteVFS(vfs.get());
  if (!m) throw std::runtime_error(std::string("compare: MuJoCo rejected the model: ") + error);
  return m;
}

MujocoModel buildMujoco(const art::ModelSpec& spec) {
  mjModel* m = loadMujoco(mjcf(spec));
  MujocoModel out;
  out.model = std::shared_ptr<const mjModel>(m, MjModelDeleter{});
  for (std::size_t i = 0; i < spec.bodies.size(); ++i) {
    const int j = mj_name2id(m, mjOBJ_JOINT, ("j" + std::to_string(i)).c_str());
    if (j < 0) throw std::runtime_error("compare: joint missing in the MuJoCo model");
    out.dof.push_back(m->jnt_dofadr[j]);
    out.qpos.push_back(m->jnt_qposadr[j]);
  }
  if (m->nv != static_cast<int>(spec.bodies.size()) || m->nq != m->nv)
    throw std::runtime_error("compare: unexpected MuJoCo model size");
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

// ---- sweep throughput (bench_sweep.cpp) -------------------------------------------------------

// The chain as mjcf() writes it, with gravity on; or the quadruped: its free-joint trunk at its
// initial position, the legs' hinges as mjcf() writes them with the PD controllers' kd as joint
// damping and kp as position actuators (their targets as the controls), a 15 mm sphere at each contact point (only
// they and the floor collide) and a floor plane. MuJoCo's soft contacts are not Articulate's
// compliant ground: the same mechanism and load, not the same trajectory.
XmlFiles sweepMjcf(const art::ModelSpec& spec, const char* integrator) {
  const bool floating = !spec.bodies.empty() && spec.bodies[0].joint.type == art::JointType::Free;
  std::vector<std::vector<int>> children(spec.bodies.size());
  for (std::size_t i = 0; i < spec.bodies.size(); ++i)
    if (spec.bodies[i].parent >= 0) children[static_cast<std::size_t>(spec.bodies[i].parent)].push_back(static_cast<int>(i));
  BodyExtras extras;
  extras.xml.assign(spec.bodies.size(), "");
  extras.damping.assign(spec.bodies.size(), 0.0);
  std::ostringstream actuators;
  for (std::size_t i = 0; i < spec.bodies.size(); ++i) {
    const art::ControlSpec& c = spec.bodies[i].control;
    if (c.type == art::ControlSpec::Type::PD) {
      extras.damping[i] = c.kd;
      actuators << "    <position joint=\"j" << i << "\" kp=\"" << num(c.kp) << "\"/>\n";
    }
  }
  for (const art::ContactPointSpec& p : spec.contacts)
    extras.xml[static_cast<std::size_t>(p.body)] += "      <geom type=\"sphere\" size=\"0.015\" pos=\"" + vec(p.point) +
                                                    "\" contype=\"1\" conaffinity=\"1\"/>\n";
  XmlFiles files(1);
  std::ostringstream xml;
  xml << "<mujoco model=\"articulate_sweep\">\n"
      << "  <compiler angle=\"radian\" inertiafromgeom=\"false\"/>\n"
      << "  <option gravity=\"" << vec(spec.effectiveGravity()) << "\" timestep=\"0.001\" integrator=\"" << integrator
      << "\"/>\n"
      << "  <default><geom contype=\"0\" conaffinity=\"0\"/></default>\n"
      << "  <worldbody>\n"
      << "    <geom name=\"floor\" type=\"plane\" size=\"0 0 1\" contype=\"1\" conaffinity=\"1\"/>\n";
  if (floating) {
    const art::BodySpec& t = spec.bodies[0];
    const BodyInertia in = splitInertia(t.inertia.spatial());
    const Eigen::Matrix3d& I = in.aboutCom;
    const Eigen::Vector4d& o = t.freeOrientation;
    xml << "    <body name=\"b0\" pos=\"" << vec(t.translation + t.freePosition) << "\" quat=\"" << num(o(0)) << " "
        << num(o(1)) << " " << num(o(2)) << " " << num(o(3)) << "\">\n"
        << "      <freejoint name=\"j0\"/>\n"
        << "      <inertial pos=\"" << vec(in.com) << "\" mass=\"" << num(in.mass) << "\" fullinertia=\""
        << num(I(0, 0)) << " " << num(I(1, 1)) << " " << num(I(2, 2)) << " " << num(I(0, 1)) << " " << num(I(0, 2))
        << " " << num(I(1, 2)) << "\"/>\n";
    for (int c : children[0]) writeBody(spec, children, c, 1, xml, files, &extras);
    xml << "    </body>\n";
  } else {
    for (std::size_t i = 0; i < spec.bodies.size(); ++i)
      if (spec.bodies[i].parent < 0) writeBody(spec, children, static_cast<int>(i), 0, xml, files, &extras);
  }
  xml << "  </worldbody>\n";
  if (!actuators.str().empty()) xml << "  <actuator>\n" << actuators.str() << "  </actuator>\n";
  xml << "</mujoco>\n";
  files[0] = {"articulate_sweep.xml", xml.str()};
  return files;
}

}  // namespace

void registerSweepComparisons(const art::ModelSpec& chain, const art::ModelSpec& quadruped) {
  for (const auto& [name, spec] : {std::pair<const char*, const art::ModelSpec*>{"chain20", &chain}, {"quadruped", &quadruped}}) {
    for (const char* integrator : {"Euler", "RK4"}) {
      std::shared_ptr<const mjModel> model;
      std::vector<double> qpos0, ctrl;  // the initial state; the PD targets, actuator order
      try {
        model = std::shared_ptr<const mjModel>(loadMujoco(sweepMjcf(*spec, integrator)), MjModelDeleter{});
        // the initial state: Articulate's q0 (hinges; a free joint's position and quaternion
        // are the body's pos and quat above, which are MuJoCo's qpos0 already)
        qpos0.assign(model->qpos0, model->qpos0 + model->nq);
        for (std::size_t i = 0; i < spec->bodies.size(); ++i)
          if (spec->bodies[i].joint.type != art::JointType::Free) {
            const int j = mj_name2id(model.get(), mjOBJ_JOINT, ("j" + std::to_string(i)).c_str());
            qpos0[static_cast<std::size_t>(model->jnt_qposadr[j])] = spec->bodies[i].q0;
            if (spec->bodies[i].control.type == art::ControlSpec::Type::PD) ctrl.push_back(spec->bodies[i].control.target);
          }
        if (static_cast<int>(ctrl.size()) != model->nu) throw std::runtime_error("an actuator per PD controller expected");
        // untimed: one second runs and stays finite (and the quadruped stays up)
        MjDataPtr d(mj_makeData(model.get()));
        mju_copy(d->qpos, qpos0.data(), model->nq);
        if (model->nu) mju_copy(d->ctrl, ctrl.data(), model->nu);
        for (int k = 0; k < 1000; ++k) mj_step(model.get(), d.get());
        for (int k = 0; k < model->nq; ++k)
          if (!std::isfinite(d->qpos[k])) throw std::runtime_error("MuJoCo's run is not finite after 1 s");
        if (spec == &quadruped)
          std::fprintf(stderr, "compare: MuJoCo %s quadruped trunk height after 1 s: %.3f m (from %.3f m)\n", integrator,
                       d->qpos[2], qpos0[2]);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "compare: sweep %s/%s: %s; aborting.\n", name, integrator, e.what());
        std::abort();
      }
      const std::string label = std::string("BM_sweep/mujoco_") + (integrator[0] == 'E' ? "euler" : "rk4") + "/" + name;
      benchmark::RegisterBenchmark(label.c_str(), [model, qpos0, ctrl](benchmark::State& state) {
        MjDataPtr d(mj_makeData(model.get()));  // one per thread
        for (auto _ : state) {
          mj_resetData(model.get(), d.get());
          mju_copy(d->qpos, qpos0.data(), model->nq);
          if (model->nu) mju_copy(d->ctrl, ctrl.data(), model->nu);
          for (int k = 0; k < 1000; ++k) mj_step(model.get(), d.get());
          benchmark::DoNotOptimize(d->qpos);
        }
        state.counters["sim_s_per_s"] = benchmark::Counter(static_cast<double>(state.iterations()),
                                                           benchmark::Counter::kIsRate | benchmark::Counter::kAvgThreads);
      })->Threads(1)->Threads(2)->UseRealTime()->Unit(benchmark::kMillisecond);
    }
  }
}

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
