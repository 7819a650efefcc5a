// Actuators, tendons and joint springs against MuJoCo 2.2.2's own compiler and mj_forward
// (articulate-ref-mujoco, tests/reference/mujoco_dynamics.cpp). MJCF files (the shipped
// tests/data/mjcf/actuated_arm.xml, and one written here) go
// through `articulate-cli dynamics --json` and through mj_loadXML at seeded random states,
// controls and activations; actuator lengths, velocities and forces, activation rates, tendon
// lengths and velocities, qfrc_actuator, qfrc_passive and (no constraint being active) qacc
// must agree to 1e-9 relative (of each vector's largest entry, at least 1). The bodies carry
// diagonal inertias on their own axes, which MuJoCo's compiler keeps exactly (its eigensolver
// rebuilds a rotated inertia only to 1e-8, test_mjcf_mujoco.cpp), and their geoms add no mass
// and collide with nothing.
//
// The files exercise every shortcut (motor, position, velocity, intvelocity, damper,
// cylinder, muscle, general with fixed and affine gains, affine bias, integrator and filter
// dynamics) with gear, ctrl, force and activation ranges; every transmission (hinge, slide and
// ball joints, jointinparent, a free joint's 6-vector gear, fixed and spatial tendons,
// slider-crank, site with and without a reference site); spatial tendons through sites, around
// a cylinder and a sphere with side sites (one outside, one inside the shape) and across a
// pulley; tendon springs and dampers; hinge, slide, ball and free joint springs with springref;
// and default classes whose actuator defaults stack in MuJoCo's order (a class's <position>
// leaving its bias on a <general> of that class).
//
// The shipped muscle arm (models/robots/mjcf_muscle_arm) gives its muscles no lengthrange: both
// compilers find them, MuJoCo's by simulating the arm pushed by each muscle, Articulate's by
// pushing the length along its moment arms within the joint limits (actuatorLengthRange).
#include <QtTest>

#include "test_main.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <random>

#include <nlohmann/json.hpp>

#include "reference_run.h"
#include "test_util.h"

using nlohmann::json;

namespace {

using testutil::list;
using testutil::num;
using testutil::runJson;
using testutil::writeFile;

constexpr double kActuationTolerance = 1e-9;

// a floating body: a free joint's 6-vector gear (in world and in body axes), a site's wrench,
// and springs on the free joint and a hinge
const char* kFloating = R"(<mujoco model='floating'>
  <compiler autolimits='true' inertiafromgeom='false'/>
  <default><geom contype='0' conaffinity='0'/></default>
  <worldbody>
    <site name='post' pos='0.5 0 2'/>
    <body name='torso' pos='0.1 0.2 1' euler='10 20 30'>
      <joint name='root' type='free' stiffness='5'/>
      <inertial pos='0 0 0' mass='3' diaginertia='0.05 0.08 0.1'/>
      <site name='thruster' pos='0.2 0 0' euler='0 30 0'/>
      <body name='leg' pos='0 0 -0.1'>
        <joint name='hip' axis='1 0 0' stiffness='3' springref='10'/>
        <inertial pos='0 0 -0.15' mass='0.8' diaginertia='0.006 0.006 0.001'/>
        <site name='foot' pos='0 0 -0.3'/>
      </body>
    </body>
  </worldbody>
  <tendon><spatial name='leash' stiffness='7' damping='0.3'><site site='post'/><site site='foot'/></spatial></tendon>
  <actuator>
    <motor name='push' joint='root' gear='1 -2 0.5 0.3 0.2 -0.1'/>
    <motor name='push_parent' jointinparent='root' gear='0.5 0.5 0 0 0.3 0.3'/>
    <motor name='thrust' site='thruster' gear='0 0 5 0 0 0'/>
    <position name='hip' joint='hip' kp='8'/>
    <motor name='pull' tendon='leash'/>
  </actuator>
</mujoco>
)";

}  // namespace

class TestActuationMujoco : public QObject {
  Q_OBJECT

  // the worst relative gap of each compared quantity over `trials` random states
  std::map<std::string, double> compare(const QString& file, int trials, bool qacc) {
    std::map<std::string, double> worst;
    QTemporaryDir tmp;
    const json initial = runJson(ARTICULATE_CLI, {"dynamics", file, "--json"});
    if (!initial.is_object()) return worst;
    const int nq = initial["nq"], nv = initial["nv"];
    const int nu = static_cast<int>(initial["actuators"].size()), na = static_cast<int>(initial["act"].size());
    std::map<std::string, int> offset;
    std::vector<int> quatAt;
    int at = 0, qat = 0;
    for (const json& c : initial["coordinates"]) {
      offset[c["joint"].get<std::string>()] = at;
      if (c["type"] == "free") quatAt.push_back(qat + 3);
      if (c["type"] == "ball") quatAt.push_back(qat);
      at += c["velocity_size"].get<int>();
      qat += c["size"].get<int>();
    }
    std::mt19937 rng(17);
    for (int trial = 0; trial < trials; ++trial) {
      const Eigen::VectorXd qv = testutil::randomVector(nq, rng, -1.2, 1.2);
      std::vector<double> q(qv.data(), qv.data() + qv.size());
      for (int k : quatAt) {
        Eigen::Vector4d w(q[static_cast<std::size_t>(k)], q[static_cast<std::size_t>(k + 1)], q[static_cast<std::size_t>(k + 2)],
                          q[static_cast<std::size_t>(k + 3)]);
        w.normalize();
        for (int i = 0; i < 4; ++i) q[static_cast<std::size_t>(k + i)] = w(i);
      }
      const Eigen::VectorXd qdv = testutil::randomVector(nv, rng, -2, 2);
      const Eigen::VectorXd cv = testutil::randomVector(nu, rng, -1.5, 1.5), av = testutil::randomVector(na, rng, -0.5, 1.2);
      const std::vector<double> qd(qdv.data(), qdv.data() + nv), ctrl(cv.data(), cv.data() + nu), act(av.data(), av.data() + na);
      QStringList args = {"dynamics", file, "--q", list(q), "--qd", list(qd), "--json"};
      if (nu) args << "--ctrl" << list(ctrl);
      if (na) args << "--act" << list(act);
      const json art = runJson(ARTICULATE_CLI, args);
      if (!art.is_object()) return {};
      json state = testutil::jointStates(art["coordinates"], q, qd);
      state["ctrl"] = ctrl;
      state["act"] = act;
      const QString statePath = tmp.filePath("state.json");
      if (!writeFile(statePath, state.dump())) return {};
      const json mj = runJson(ARTICULATE_REF_MUJOCO, {file, statePath});
      if (!mj.is_object()) return {};
      if (mj["actuators"] != art["actuators"] || mj["tendons"] != art["tendons"]) {
        qWarning() << "actuators or tendons differ";
        return {};
      }
      std::vector<int> index;  // MuJoCo dof k -> Articulate velocity index
      for (const json& c : mj["coordinates"]) index.push_back(offset.at(c["joint"].get<std::string>()) + c["index"].get<int>());
      const auto gap = [&](const std::string& key, bool dofs) {
        const std::vector<double> a = art[key], m = mj[key];
        if (a.size() != m.size()) return 1e300;
        Eigen::VectorXd x = Eigen::Map<const Eigen::VectorXd>(a.data(), static_cast<Eigen::Index>(a.size()));
        Eigen::VectorXd y(x.size());
        for (std::size_t k = 0; k < m.size(); ++k) y(dofs ? index[k] : static_cast<int>(k)) = m[k];
        return testutil::relErr(x, y);
      };
      for (const char* key : {"actuator_length", "actuator_velocity", "actuator_force", "act_dot", "ten_length", "ten_velocity"})
        worst[key] = std::max(worst[key], gap(key, false));
      for (const char* key : {"qfrc_actuator", "qfrc_passive"}) worst[key] = std::max(worst[key], gap(key, true));
      if (qacc) {
        if (mj["nefc"] != 0) qWarning() << "MuJoCo has constraint rows at this state";
        std::vector<double> a = art["qdd"], m = mj["qacc"];
        Eigen::VectorXd x = Eigen::Map<const Eigen::VectorXd>(a.data(), nv), y(nv);
        for (int k = 0; k < nv; ++k) y(index[static_cast<std::size_t>(k)]) = m[static_cast<std::size_t>(k)];
        worst["qacc"] = std::max(worst["qacc"], testutil::relErr(x, y));
      }
    }
    return worst;
  }

  void agrees(const QString& path, const char* name, std::size_t quantities, bool qacc) {
    const std::map<std::string, double> worst = compare(path, 6, qacc);
    QCOMPARE(worst.size(), quantities);
    for (const auto& [key, value] : worst) {
      qInfo().noquote() << QString("%1: %2 within %3 of MuJoCo's").arg(name).arg(QString::fromStdString(key)).arg(value);
      QVERIFY2(value <= kActuationTolerance, qPrintable(QString::fromStdString(key) + " " + QString::number(value)));
    }
  }

 private slots:
  // tests/data/mjcf/actuated_arm.xml: a fixed base, so qacc compares too
  void armAgreesWithMujoco() { agrees(ARTICULATE_TEST_DATA_DIR "/mjcf/actuated_arm.xml", "arm", 9, true); }
  // the muscle arm's computed length ranges: MuJoCo's soft joint limits let its simulation
  // overshoot the limits a little, so its ranges hold Articulate's (which stop at the limits)
  // and are wider by under 1e-3 of the range; given MuJoCo's ranges, every quantity agrees
  void muscleArmAgreesWithMujoco() {
    const QString file = ARTICULATE_MODELS_DIR "/robots/mjcf_muscle_arm/muscle_arm.xml";
    QTemporaryDir tmp;
    const QString statePath = tmp.filePath("state.json");
    QVERIFY(writeFile(statePath, R"({"joints": []})"));
    const json art = runJson(ARTICULATE_CLI, {"dynamics", file, "--json"});
    const json mj = runJson(ARTICULATE_REF_MUJOCO, {file, statePath});
    QVERIFY(art.is_object() && mj.is_object());
    const std::vector<double> a = art["actuator_lengthrange"], m = mj["actuator_lengthrange"];
    const std::vector<std::string> names = art["actuators"];
    QCOMPARE(names.size(), std::size_t(6));
    QCOMPARE(a.size(), std::size_t(12));
    QCOMPARE(m.size(), a.size());
    QFile in(file);
    QVERIFY(in.open(QIODevice::ReadOnly));
    QString given = QString::fromUtf8(in.readAll());
    double worst = 0;
    for (std::size_t k = 0; k < names.size(); ++k) {
      const double range = m[2 * k + 1] - m[2 * k], below = a[2 * k] - m[2 * k], above = m[2 * k + 1] - a[2 * k + 1];
      QVERIFY2(range > 0.05 && below >= 0 && above >= 0, qPrintable(QString::fromStdString(names[k])));
      worst = std::max(worst, (below + above) / range);
      const QString muscle = QString("<muscle name='%1' tendon='%1'").arg(QString::fromStdString(names[k]));
      QVERIFY(given.contains(muscle));
      given.replace(muscle, muscle + QString(" lengthrange='%1 %2'").arg(m[2 * k], 0, 'g', 17).arg(m[2 * k + 1], 0, 'g', 17));
    }
    qInfo().noquote() << QString("muscle arm: computed length ranges within %1 of the range of MuJoCo's").arg(worst);
    QVERIFY2(worst < 1e-3, qPrintable(QString::number(worst)));
    const QString withRanges = tmp.filePath("muscle_arm.xml");
    QVERIFY(writeFile(withRanges, given.toStdString()));
    agrees(withRanges, "muscle arm", 8, false);
  }

  // the shipped humanoid: 21 geared motors, two fixed tendons with springs, joint springs (its
  // feet touch a floor, so qacc is not compared: MuJoCo has contact rows there)
  void humanoidAgreesWithMujoco() {
    agrees(ARTICULATE_MODELS_DIR "/robots/mjcf_humanoid/humanoid.xml", "humanoid", 8, false);
  }

  void floatingAgreesWithMujoco() {
    QTemporaryDir tmp;
    const QString path = tmp.filePath("floating.xml");
    QVERIFY(writeFile(path, kFloating));
    agrees(path, "floating", 8, false);
  }
};

ARTICULATE_TEST_MAIN(TestActuationMujoco)
#include "test_actuation_mujoco.moc"
