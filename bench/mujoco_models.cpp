// MuJoCo models written from ModelSpecs (mujoco_models.h), and the sweep comparison.
#include "mujoco_models.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <stdexcept>

#include <benchmark/benchmark.h>

#include "articulate/model/model.h"

namespace bench {

// ---- the mechanism, read from the ModelSpec ----------------------------------------------


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

namespace {

std::string num(double x) {
  std::ostringstream s;
  s.precision(17);
  s << x;
  return s.str();
}

std::string vec(const Eigen::Vector3d& v) {
  return num(v.x()) + " " + num(v.y()) + " " + num(v.z());
}


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

}  // namespace bench
