// MJCF dynamics against an independent reference: MuJoCo 2.2.2's own compiler
// (articulate-ref-mujoco, tests/reference/mujoco_dynamics.cpp). The same files, written here, go
// through `articulate-cli dynamics --json` and through mj_loadXML; at random states the
// joint-space inertia H and the bias forces C qd + g must agree to 1e-7 (relative to the largest
// entry), coordinates matched by their MJCF joint names. Why 1e-7 and not DART's 1e-9: MuJoCo's
// compiler diagonalises every body inertia that is not already diagonal (mju_eig3, an iterative
// eigensolver) and keeps the principal moments and axes, which rebuild the inertia only to a few
// 1e-8; inertiaIsExact shows it on one body, where Articulate's H is the analytic value to
// round-off and MuJoCo's is 4e-8 off. The random robots use default classes
// (nested, `class` and `childclass`), every orientation form (quat, axisangle, euler with
// several sequences, xyaxes, zaxis) for bodies, inertials and geoms, degrees and radians, bodies
// with no joint (welded) and with two joints, hinge and slide joints with offsets, rotated axes
// and reference positions, ball joints (quaternions) with offsets anywhere in the tree, armature
// (which mj_fullM includes), explicit inertials (diagonal and full) and inertia from geoms
// (spheres, capsules and cylinders by fromto, boxes, ellipsoids; density and mass), a floating
// body on a free joint, and <include>. A mesh file's inertia (a closed STL written here) is
// checked the same way.
#include <QtTest>

#include <cmath>
#include <cstdio>
#include <functional>
#include <random>
#include <sstream>

#include <Eigen/Geometry>
#include <nlohmann/json.hpp>

#include "reference_run.h"
#include "test_util.h"

using nlohmann::json;

namespace {

using testutil::list;
using testutil::num;
using testutil::runJson;
using testutil::writeFile;

constexpr double kTolerance = 1e-7;  // MuJoCo's inertia diagonalisation (see the header)

// a random robot as MJCF: `bodies` bodies, each under a random earlier one (or the world)
std::string randomMjcf(std::uint32_t seed, int bodies, bool floating, bool degrees) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1), pos(0.2, 1.0);
  const double toUnit = degrees ? 180 / 3.14159265358979323846 : 1.0;
  auto v3 = [&](double scale) { return num(scale * u(rng)) + " " + num(scale * u(rng)) + " " + num(scale * u(rng)); };
  int form = static_cast<int>(seed);
  auto orientation = [&] {
    switch (form++ % 6) {
      case 0: return "quat='" + num(u(rng)) + " " + v3(1) + "'";
      case 1: return "axisangle='" + v3(1) + " " + num(toUnit * 2 * u(rng)) + "'";
      case 2: return "euler='" + num(toUnit * u(rng)) + " " + num(toUnit * u(rng)) + " " + num(toUnit * u(rng)) + "'";
      case 3: return "xyaxes='" + v3(1) + " " + v3(1) + "'";
      case 4: return "zaxis='" + v3(1) + "'";
      default: return std::string();
    }
  };
  auto inertial = [&](int k) {
    const Eigen::Matrix3d R = Eigen::Quaterniond(Eigen::Vector4d(u(rng), u(rng), u(rng), u(rng)).normalized()).toRotationMatrix();
    const Eigen::Vector3d d(0.5 + 0.5 * pos(rng), 0.5 + 0.5 * pos(rng), 0.5 + 0.5 * pos(rng));
    if (k % 2)
      return "<inertial pos='" + v3(0.2) + "' " + orientation() + " mass='" + num(2 * pos(rng)) + "' diaginertia='" +
             num(0.1 * d.x()) + " " + num(0.1 * d.y()) + " " + num(0.1 * d.z()) + "'/>";
    const Eigen::Matrix3d I = R * d.asDiagonal() * R.transpose() * 0.1;
    return "<inertial pos='" + v3(0.2) + "' mass='" + num(2 * pos(rng)) + "' fullinertia='" + num(I(0, 0)) + " " +
           num(I(1, 1)) + " " + num(I(2, 2)) + " " + num(I(0, 1)) + " " + num(I(0, 2)) + " " + num(I(1, 2)) + "'/>";
  };
  auto geoms = [&](int k) {
    std::string g;
    switch (k % 5) {
      case 0: g += "<geom type='sphere' size='" + num(0.05 + 0.1 * pos(rng)) + "' pos='" + v3(0.2) + "'/>"; break;
      case 1: g += "<geom class='limb' fromto='" + v3(0.3) + " " + v3(0.3) + "'/>"; break;  // a capsule by class
      case 2: g += "<geom type='box' size='" + num(0.1 * pos(rng)) + " " + num(0.1 * pos(rng)) + " " + num(0.1 * pos(rng)) +
                   "' pos='" + v3(0.2) + "' " + orientation() + " mass='" + num(pos(rng)) + "'/>"; break;
      case 3: g += "<geom type='cylinder' size='" + num(0.05 * pos(rng)) + "' fromto='" + v3(0.3) + " " + v3(0.3) + "' density='700'/>"; break;
      default: g += "<geom type='ellipsoid' size='" + num(0.1 * pos(rng)) + " " + num(0.05 * pos(rng)) + " " + num(0.08 * pos(rng)) +
                    "' pos='" + v3(0.2) + "' " + orientation() + "/>"; break;
    }
    g += "<geom class='light' type='sphere' size='" + num(0.03 + 0.05 * pos(rng)) + "' pos='" + v3(0.3) + "'/>";
    return g;
  };
  std::vector<int> parent(static_cast<std::size_t>(bodies + 1), -1);
  for (int k = 2; k <= bodies; ++k) parent[static_cast<std::size_t>(k)] = std::max(1, static_cast<int>(std::floor((k - 1) * (0.5 + 0.5 * pos(rng)))));
  int joint = 0;
  std::function<std::string(int)> body = [&](int k) {
    std::ostringstream x;
    x << "<body name='b" << k << "' pos='" << v3(0.4) << "' " << orientation() << (k % 4 == 3 ? " childclass='arm'" : "") << ">";
    if (k == 1 && floating) {
      x << "<freejoint name='root'/>";
    } else if (k % 6 != 5) {  // every sixth body welded to its parent
      const int n = k % 3 == 0 ? 2 : 1;
      for (int j = 0; j < n; ++j) {
        ++joint;
        if (n == 1 && k % 4 == 0) {  // a ball joint (no range: MuJoCo's is a cone, not read)
          x << "<joint name='j" << joint << "' type='ball' pos='" << v3(0.2) << "'"
            << (joint % 2 ? " armature='" + num(0.05 * pos(rng)) + "'" : std::string()) << "/>";
          continue;
        }
        const bool slide = joint % 4 == 2;
        const std::string axis = joint % 3 == 0 ? (joint % 2 ? "0 -1 0" : "1 0 0") : v3(1.0);
        x << "<joint name='j" << joint << "' type='" << (slide ? "slide" : "hinge") << "' axis='" << axis << "' pos='" << v3(0.2)
          << "' ref='" << num((slide ? 1 : toUnit) * 0.5 * u(rng)) << "' range='" << num(-toUnit) << " " << num(toUnit) << "'"
          << (joint % 3 == 1 ? " armature='" + num(0.05 * pos(rng)) + "'" : std::string()) << "/>";
      }
    }
    x << (k % 3 == 1 ? geoms(k) : inertial(k));
    for (int c = k + 1; c <= bodies; ++c)
      if (parent[static_cast<std::size_t>(c)] == k) x << body(c);
    x << "</body>";
    return x.str();
  };
  std::ostringstream x;
  x << "<mujoco model='random" << seed << "'>\n<compiler angle='" << (degrees ? "degree" : "radian") << "' eulerseq='"
    << (seed % 2 ? "xyz" : "ZYX") << "' autolimits='true'/>\n<option gravity='0.3 -0.2 -9.7' timestep='0.001'/>\n"
    << "<default><joint damping='0.1'/><geom density='800' rgba='.8 .5 .3 1'/>"
    << "<default class='limb'><geom type='capsule' size='0.04'/><default class='light'><geom density='300'/></default></default>"
    << "<default class='arm'><joint axis='0 1 0'/></default></default>\n<worldbody>\n";
  if (floating) x << "<geom name='floor' type='plane' size='5 5 0.1'/>\n";
  x << body(1) << "\n</worldbody>\n</mujoco>\n";
  return x.str();
}

// a closed box mesh (binary STL, which MuJoCo 2.2.2 reads; outward windings) of size d with its
// lower corner at c
std::string boxStl(const Eigen::Vector3d& c, const Eigen::Vector3d& d) {
  std::string s(80, ' ');
  const auto put = [&](const void* p, std::size_t n) { s.append(static_cast<const char*>(p), n); };
  const std::uint32_t count = 12;
  put(&count, 4);
  const auto corner = [&](int k) {
    return Eigen::Vector3f(float(c.x() + (k & 1 ? d.x() : 0)), float(c.y() + (k & 2 ? d.y() : 0)), float(c.z() + (k & 4 ? d.z() : 0)));
  };
  for (int axis = 0; axis < 3; ++axis)
    for (int side = 0; side < 2; ++side) {
      const int bit = 1 << axis, a = 1 << ((axis + 1) % 3), b = 1 << ((axis + 2) % 3);
      const int base = side ? bit : 0;
      int quad[4] = {base, base | a, base | a | b, base | b};
      if (!side) std::swap(quad[1], quad[3]);
      for (const auto& tri : {std::array<int, 3>{quad[0], quad[1], quad[2]}, std::array<int, 3>{quad[0], quad[2], quad[3]}}) {
        const float normal[3] = {0, 0, 0};
        put(normal, 12);
        for (int v : tri) {
          const Eigen::Vector3f p = corner(v);
          put(p.data(), 12);
        }
        const std::uint16_t attribute = 0;
        put(&attribute, 2);
      }
    }
  return s;
}

}  // namespace

class TestMjcfMujoco : public QObject {
  Q_OBJECT

 private:
  // H and bias of `file` from Articulate and MuJoCo at 3 random states: the worst relative gaps
  void compare(const QString& file, int seed, double& worstH, double& worstBias, int& nvOut) {
    QTemporaryDir tmp;
    const json initial = runJson(ARTICULATE_CLI, {"dynamics", file, "--json"});
    QVERIFY(initial.is_object());
    const int nq = initial["nq"], nv = initial["nv"];
    nvOut = nv;
    std::map<std::string, int> offset;
    std::vector<int> quatAt;  // q index of each free or ball joint's quaternion
    int at = 0, qat = 0;
    for (const json& c : initial["coordinates"]) {
      offset[c["joint"].get<std::string>()] = at;
      if (c["type"] == "free") quatAt.push_back(qat + 3);
      if (c["type"] == "ball") quatAt.push_back(qat);
      at += c["velocity_size"].get<int>();
      qat += c["size"].get<int>();
    }
    QCOMPARE(at, nv);
    std::mt19937 rng(static_cast<unsigned>(seed) * 7u);
    worstH = worstBias = 0;
    for (int trial = 0; trial < 3; ++trial) {
      const Eigen::VectorXd qv = testutil::randomVector(nq, rng, -1.5, 1.5);
      std::vector<double> q(qv.data(), qv.data() + qv.size());
      for (int k : quatAt) {
        Eigen::Vector4d w(q[static_cast<std::size_t>(k)], q[static_cast<std::size_t>(k + 1)], q[static_cast<std::size_t>(k + 2)], q[static_cast<std::size_t>(k + 3)]);
        w.normalize();
        for (int i = 0; i < 4; ++i) q[static_cast<std::size_t>(k + i)] = w(i);
      }
      const Eigen::VectorXd qdv = testutil::randomVector(nv, rng, -2, 2);
      const std::vector<double> qd(qdv.data(), qdv.data() + qdv.size());
      const json art = runJson(ARTICULATE_CLI, {"dynamics", file, "--q", list(q), "--qd", list(qd), "--json"});
      QVERIFY(art.is_object());
      const json state = testutil::jointStates(art["coordinates"], q, qd);
      const QString statePath = tmp.filePath("state.json");
      QVERIFY(writeFile(statePath, state.dump()));
      const json mj = runJson(ARTICULATE_REF_MUJOCO, {file, statePath});
      QVERIFY(mj.is_object());
      QCOMPARE(static_cast<int>(mj["coordinates"].size()), nv);
      std::vector<int> index;  // MuJoCo dof k -> Articulate velocity index
      for (const json& c : mj["coordinates"]) {
        const auto o = offset.find(c["joint"].get<std::string>());
        QVERIFY2(o != offset.end(), c.dump().c_str());
        index.push_back(o->second + c["index"].get<int>());
      }
      Eigen::MatrixXd Ha(nv, nv), Hm(nv, nv);
      Eigen::VectorXd ba(nv), bm(nv);
      for (int r = 0; r < nv; ++r) {
        const auto R = static_cast<std::size_t>(r);
        ba(r) = art["bias"][R];
        bm(index[R]) = mj["bias"][R];
        for (int c = 0; c < nv; ++c) {
          const auto C = static_cast<std::size_t>(c);
          Ha(r, c) = art["H"][R][C];
          Hm(index[R], index[C]) = mj["H"][R][C];
        }
      }
      worstH = std::max(worstH, (Hm - Ha).cwiseAbs().maxCoeff() / Ha.cwiseAbs().maxCoeff());
      worstBias = std::max(worstBias, (bm - ba).cwiseAbs().maxCoeff() / std::max(1.0, ba.cwiseAbs().maxCoeff()));
    }
  }

 private slots:
  // compare() at one file, with the figures printed, held to kTolerance, and nv as expected
  void agreesWithMujoco(const QString& path, int seed, int expectedNv, const QString& what) {
    double worstH = 1, worstBias = 1;
    int nv = 0;
    compare(path, seed, worstH, worstBias, nv);
    qInfo().noquote() << QString("%1: H within %2, bias within %3 of MuJoCo's").arg(what).arg(worstH).arg(worstBias);
    QCOMPARE(nv, expectedNv);
    QVERIFY2(worstH <= kTolerance, qPrintable(QString::number(worstH)));
    QVERIFY2(worstBias <= kTolerance, qPrintable(QString::number(worstBias)));
  }

  void matchesMujoco_data() {
    QTest::addColumn<int>("seed");
    QTest::addColumn<bool>("floating");
    QTest::addColumn<bool>("degrees");
    for (int seed : {1, 2, 3, 4})
      QTest::newRow(qPrintable(QString("random robot %1, %2, %3").arg(seed).arg(seed % 2 ? "fixed" : "floating").arg(seed < 3 ? "degrees" : "radians")))
          << seed << (seed % 2 == 0) << (seed < 3);
  }
  void matchesMujoco() {
    QFETCH(int, seed);
    QFETCH(bool, floating);
    QFETCH(bool, degrees);
    QTemporaryDir tmp;
    const QString path = tmp.filePath("robot.xml");
    QVERIFY(writeFile(path, randomMjcf(static_cast<std::uint32_t>(seed), 12, floating, degrees)));
    double worstH = 1, worstBias = 1;
    int nv = 0;
    compare(path, seed, worstH, worstBias, nv);
    qInfo().noquote() << QString("nv %1: H within %2, bias within %3 of MuJoCo's").arg(nv).arg(worstH).arg(worstBias);
    QVERIFY(nv >= 10);
    QVERIFY2(worstH <= kTolerance, qPrintable(QString::number(worstH)));
    QVERIFY2(worstBias <= kTolerance, qPrintable(QString::number(worstBias)));
  }

  // one body with a full inertia on a hinge through the origin: H = a' (Ic + m (|c|^2 1 - c c')) a
  void inertiaIsExact() {
    QTemporaryDir tmp;
    const QString path = tmp.filePath("one.xml");
    QVERIFY(writeFile(path, "<mujoco><worldbody><body name='b'><joint name='j' axis='0.3 0.5 0.7'/>"
                            "<inertial pos='0.1 0.2 0.3' mass='1.3' fullinertia='0.1 0.12 0.13 0.01 0.02 -0.015'/>"
                            "</body></worldbody></mujoco>"));
    const Eigen::Vector3d a = Eigen::Vector3d(0.3, 0.5, 0.7).normalized(), c(0.1, 0.2, 0.3);
    Eigen::Matrix3d Ic;
    Ic << 0.1, 0.01, 0.02, 0.01, 0.12, -0.015, 0.02, -0.015, 0.13;
    const double exact = a.dot((Ic + 1.3 * (c.squaredNorm() * Eigen::Matrix3d::Identity() - c * c.transpose())) * a);
    const json art = runJson(ARTICULATE_CLI, {"dynamics", path, "--q", "0.3", "--json"});
    QVERIFY(art.is_object());
    const double h = art["H"][0][0];
    QVERIFY2(std::abs(h - exact) <= 1e-15 * exact, qPrintable(QString::number(h - exact)));
    const QString statePath = tmp.filePath("state.json");
    QVERIFY(writeFile(statePath, json{{"joints", {{{"joint", "j"}, {"q", {0.3}}, {"qd", {0.0}}}}}}.dump()));
    const json mj = runJson(ARTICULATE_REF_MUJOCO, {path, statePath});
    QVERIFY(mj.is_object());
    const double gap = std::abs(mj["H"][0][0].get<double>() - exact) / exact;
    qInfo().noquote() << QString("one body: Articulate's H is the analytic value; MuJoCo's is %1 off (its eigensolver)").arg(gap);
    QVERIFY(gap <= kTolerance);
  }

  // the shipped example: models/robots/mjcf_quadruped (an included defaults file, visual and
  // collision classes, meshes that add no mass, a free joint)
  void shippedQuadruped() {
    agreesWithMujoco(ARTICULATE_MODELS_DIR "/robots/mjcf_quadruped/quadruped.xml", 6, 18, "mjcf_quadruped");
  }

  // the shipped humanoid (models/robots/mjcf_humanoid): inertias from capsules along every
  // direction, a default class, a floor plane, 21 hinges under a free joint
  void shippedHumanoid() {
    agreesWithMujoco(ARTICULATE_MODELS_DIR "/robots/mjcf_humanoid/humanoid.xml", 7, 27, "mjcf_humanoid");
  }

  // <include> of defaults and of bodies, meshdir, and a mesh geom whose inertia comes from its
  // closed surface
  void includesAndMeshInertia() {
    QTemporaryDir tmp;
    QVERIFY(QDir(tmp.path()).mkpath("parts/meshes"));
    QVERIFY(writeFile(tmp.filePath("parts/meshes/block.stl"), boxStl({0.05, -0.02, 0.1}, {0.3, 0.1, 0.2})));
    QVERIFY(writeFile(tmp.filePath("parts/defaults.xml"),
                      "<mujoco><default><joint axis='1 0 0'/><default class='heavy'><geom density='2500'/></default></default></mujoco>"));
    QVERIFY(writeFile(tmp.filePath("parts/arm.xml"),
                      "<mujoco><body name='upper' pos='0 0 0.5' euler='10 20 30'><joint name='shoulder'/>"
                      "<geom class='heavy' type='mesh' mesh='block' pos='0.01 0.02 0.03' quat='0.9 0.1 0.2 0.3'/>"
                      "<body name='lower' pos='0.4 0 0'><joint name='elbow' axis='0 1 1'/><geom type='capsule' fromto='0 0 0 0.3 0 0' size='0.03'/></body>"
                      "</body></mujoco>"));
    const QString path = tmp.filePath("robot.xml");
    QVERIFY(writeFile(path, "<mujoco model='included'><compiler meshdir='parts/meshes'/><include file='parts/defaults.xml'/>"
                            "<asset><mesh name='block' file='block.stl' scale='1 1.5 1'/></asset>"
                            "<worldbody><include file='parts/arm.xml'/></worldbody></mujoco>"));
    agreesWithMujoco(path, 5, 2, "included mesh robot");
  }

  // meshes given in the XML, as MuJoCo's car.xml has its chassis: a vertex list without faces
  // (MuJoCo and Articulate take its convex hull: an irregular hexahedron with points inside),
  // and one with its faces (a tetrahedron); their inertia as MuJoCo 2.2.2's compiler makes it
  void xmlMeshInertia() {
    QTemporaryDir tmp;
    const QString path = tmp.filePath("car.xml");
    QVERIFY(writeFile(path, "<mujoco model='car'><asset>"
                            "<mesh name='chasis' scale='.5 .3 .15' vertex='9 2 0 -10 10 10 9 -2 0 10 3 -10 10 -3 -10 -8 10 -10 -10 -10 10 -8 -10 -10 -5 0 20 1 1 1 -2 0.5 -3'/>"
                            "<mesh name='tet' vertex='0 0 0 0.3 0 0 0 0.2 0 0 0 0.4' face='0 2 1 0 1 3 0 3 2 1 2 3'/></asset>"
                            "<worldbody><body name='car' pos='0 0 0.3'><joint name='roll' axis='1 0.2 0'/>"
                            "<geom type='mesh' mesh='chasis' pos='0.1 0 0' euler='0 10 20'/>"
                            "<body name='arm' pos='0.5 0 0'><joint name='lift' axis='0 1 0'/><geom type='mesh' mesh='tet' density='700'/></body>"
                            "</body></worldbody></mujoco>"));
    agreesWithMujoco(path, 7, 2, "vertex-list meshes");
  }
};

QTEST_GUILESS_MAIN(TestMjcfMujoco)
#include "test_mjcf_mujoco.moc"
