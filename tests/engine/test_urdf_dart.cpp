// URDF dynamics against an independent reference: DART 6.12's own URDF loader
// (articulate-ref-dart, tests/reference/dart_urdf_dynamics.cpp). The same files, written here,
// go through `articulate-cli dynamics --json` and through DART; at random states the joint-space
// inertia H and the bias forces C qd + g must agree to 1e-9 (relative to the largest entry),
// coordinates matched by their URDF joint names. The robots have fixed joints (merged links),
// joint origins and inertial frames at random offsets and rotations, joint axes in random
// directions (not only x, y, z), prismatic, revolute and continuous joints, a branching tree and
// mimic joints; each is read with a fixed and with a floating base.
#include <QtTest>

#include "test_main.h"

#include <cmath>
#include <cstdio>
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

// a random robot: `links` links under the root, each on a random earlier link, joints cycling
// through revolute, continuous, prismatic, fixed and a revolute mimicking an earlier joint
std::string randomRobot(std::uint32_t seed, int links, bool worldRoot) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1), pos(0.2, 1.0);
  auto v3 = [&](double scale) { return num(scale * u(rng)) + " " + num(scale * u(rng)) + " " + num(scale * u(rng)); };
  auto inertial = [&] {
    // a rotated inertia whose principal moments satisfy the triangle inequality
    const Eigen::Matrix3d R = Eigen::Quaterniond(Eigen::Vector4d(u(rng), u(rng), u(rng), u(rng)).normalized()).toRotationMatrix();
    const Eigen::Matrix3d I = R * Eigen::Vector3d(0.5 + 0.5 * pos(rng), 0.5 + 0.5 * pos(rng), 0.5 + 0.5 * pos(rng)).asDiagonal() * R.transpose() * 0.1;
    return "<inertial><origin xyz='" + v3(0.2) + "' rpy='" + v3(3.1) + "'/><mass value='" + num(2 * pos(rng)) +
           "'/><inertia ixx='" + num(I(0, 0)) + "' iyy='" + num(I(1, 1)) + "' izz='" + num(I(2, 2)) + "' ixy='" +
           num(I(0, 1)) + "' ixz='" + num(I(0, 2)) + "' iyz='" + num(I(1, 2)) + "'/></inertial>";
  };
  std::ostringstream x;
  x << "<?xml version='1.0'?>\n<robot name='random" << seed << "'>\n";
  if (worldRoot) x << "<link name='world'/>\n<joint name='anchor' type='fixed'><parent link='world'/><child link='base_link'/><origin xyz='" << v3(0.5) << "' rpy='" << v3(1.0) << "'/></joint>\n";
  x << "<link name='base_link'>" << inertial() << "</link>\n";
  std::vector<std::string> movable;
  for (int k = 1; k <= links; ++k) {
    const std::string name = "l" + std::to_string(k);
    const int parent = static_cast<int>(std::floor((k - 1) * (0.5 + 0.5 * pos(rng)) * 0.999));
    const std::string parentName = parent == 0 ? "base_link" : "l" + std::to_string(parent);
    static const char* kTypes[5] = {"revolute", "continuous", "prismatic", "fixed", "revolute"};
    const std::string type = kTypes[(k - 1) % 5];
    x << "<link name='" << name << "'>" << inertial() << "</link>\n";
    x << "<joint name='j" << k << "' type='" << type << "'><parent link='" << parentName << "'/><child link='" << name
      << "'/><origin xyz='" << v3(0.4) << "' rpy='" << v3(3.1) << "'/>";
    if (type != "fixed") {
      // every third axis a coordinate axis (one of them negative), the others any direction
      const std::string axis = k % 3 == 0 ? (k % 2 ? "0 -1 0" : "1 0 0") : v3(1.0);
      x << "<axis xyz='" << axis << "'/>";
      if (type != "continuous") x << "<limit lower='-2' upper='2' effort='10' velocity='3'/>";
      if ((k - 1) % 5 == 4 && !movable.empty()) x << "<mimic joint='" << movable.front() << "' multiplier='-1.5' offset='0.2'/>";
      movable.push_back("j" + std::to_string(k));
    }
    x << "</joint>\n";
  }
  x << "</robot>\n";
  return x.str();
}

}  // namespace

class TestUrdfDart : public QObject {
  Q_OBJECT

 private slots:
  void matchesDart_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("base");
    QTest::addColumn<int>("seed");
    QTest::newRow("arm fixture (world root)") << ARTICULATE_TEST_DATA_DIR "/urdf/arm_fixture.urdf" << "auto" << 1;
    for (int seed : {1, 2, 3})
      for (const char* base : {"fixed", "floating"})
        QTest::newRow(qPrintable(QString("random robot %1, %2 base").arg(seed).arg(base))) << QString() << base << seed;
    QTest::newRow("random robot under 'world', auto base") << "world" << "auto" << 4;
  }
  void matchesDart() {
    QFETCH(QString, file);
    QFETCH(QString, base);
    QFETCH(int, seed);
    QTemporaryDir tmp;
    if (file.isEmpty() || file == "world") {
      const QString path = tmp.filePath("robot.urdf");
      QFile f(path);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(randomRobot(static_cast<std::uint32_t>(seed), 14, file == "world").c_str());
      f.close();
      file = path;
    }
    const json initial = runJson(ARTICULATE_CLI, {"dynamics", file, "--base", base, "--json"});
    QVERIFY(initial.is_object());
    const int nq = initial["nq"], nv = initial["nv"];
    const bool floating = initial["coordinates"][0]["type"] == "free";
    QCOMPARE(floating, base == "floating");
    // each joint's first velocity index
    std::map<std::string, int> offset;
    int at = 0;
    for (const json& c : initial["coordinates"]) {
      offset[c["joint"].get<std::string>()] = at;
      at += c["velocity_size"].get<int>();
    }
    QCOMPARE(at, nv);
    std::mt19937 rng(static_cast<unsigned>(seed) * 7u);
    double worstH = 0, worstBias = 0;
    for (int trial = 0; trial < 3; ++trial) {
      std::vector<double> q = [&] {
        const Eigen::VectorXd r = testutil::randomVector(nq, rng, -1.5, 1.5);
        return std::vector<double>(r.data(), r.data() + r.size());
      }();
      const Eigen::VectorXd qdv = testutil::randomVector(nv, rng, -2, 2);
      const std::vector<double> qd(qdv.data(), qdv.data() + qdv.size());
      if (floating) {  // a unit quaternion
        Eigen::Vector4d w(q[3], q[4], q[5], q[6]);
        w.normalize();
        for (int k = 0; k < 4; ++k) q[static_cast<std::size_t>(3 + k)] = w(k);
      }
      const json art = runJson(ARTICULATE_CLI, {"dynamics", file, "--base", base, "--q", list(q), "--qd", list(qd), "--json"});
      QVERIFY(art.is_object());
      // DART's state, joint by joint
      const json state = testutil::jointStates(art["coordinates"], q, qd);
      const QString statePath = tmp.filePath("state.json");
      QFile sf(statePath);
      QVERIFY(sf.open(QIODevice::WriteOnly));
      sf.write(state.dump().c_str());
      sf.close();
      const json dart = runJson(ARTICULATE_REF_DART, {file, base == "auto" ? "floating" : base, statePath});
      QVERIFY(dart.is_object());
      QCOMPARE(dart["gravity"].get<std::vector<double>>(), (std::vector<double>{0, 0, -9.81}));
      QCOMPARE(static_cast<int>(dart["coordinates"].size()), nv);
      std::vector<int> index;  // DART dof k -> Articulate velocity index
      for (const json& c : dart["coordinates"]) {
        const auto o = offset.find(c["joint"].get<std::string>());
        QVERIFY2(o != offset.end(), c.dump().c_str());
        index.push_back(o->second + c["index"].get<int>());
      }
      Eigen::MatrixXd Ha(nv, nv), Hd(nv, nv);
      Eigen::VectorXd ba(nv), bd(nv);
      for (int r = 0; r < nv; ++r) {
        ba(r) = art["bias"][static_cast<std::size_t>(r)];
        bd(r) = dart["bias"][static_cast<std::size_t>(r)];
        for (int c = 0; c < nv; ++c) {
          Ha(r, c) = art["H"][static_cast<std::size_t>(r)][static_cast<std::size_t>(c)];
          Hd(r, c) = dart["H"][static_cast<std::size_t>(r)][static_cast<std::size_t>(c)];
        }
      }
      Eigen::MatrixXd HdArt(nv, nv);
      Eigen::VectorXd bdArt(nv);
      for (int r = 0; r < nv; ++r) {
        bdArt(index[static_cast<std::size_t>(r)]) = bd(r);
        for (int c = 0; c < nv; ++c) HdArt(index[static_cast<std::size_t>(r)], index[static_cast<std::size_t>(c)]) = Hd(r, c);
      }
      worstH = std::max(worstH, (HdArt - Ha).cwiseAbs().maxCoeff() / Ha.cwiseAbs().maxCoeff());
      worstBias = std::max(worstBias, (bdArt - ba).cwiseAbs().maxCoeff() / std::max(1.0, ba.cwiseAbs().maxCoeff()));
    }
    qInfo().noquote() << QString("nv %1: H within %2, bias within %3 of DART's").arg(nv).arg(worstH).arg(worstBias);
    QVERIFY2(worstH <= 1e-9, qPrintable(QString::number(worstH)));
    QVERIFY2(worstBias <= 1e-9, qPrintable(QString::number(worstBias)));
  }
};

ARTICULATE_TEST_MAIN(TestUrdfDart)
#include "test_urdf_dart.moc"
