// MuJoCo's constraint model (soft_constraints.h) against MuJoCo 2.2.2's own compiler, mj_forward
// and mj_step (articulate-ref-mujoco, tests/reference/mujoco_dynamics.cpp), on MJCF files written
// here. At seeded random states and controls, `articulate-cli dynamics --json` and mj_forward
// must agree on qacc within 1e-6 relative (both solvers converged to a tolerance of 1e-12), on
// the constraint forces of each kind of row within 1e-5 (relative to the largest, at least 1),
// and on which rows are there (which limits and friction rows, in MuJoCo's order). Newton, PGS
// and CG must agree with each other. Then 1 s of mujoco-euler against mj_step, within 1e-6 in
// qpos, for a pendulum swinging into its limit, a four-bar closed by a connect, a gripper whose
// two fingers a joint equality ties, and a slider with frictionloss coming to rest.
//
// The files exercise every equality (connect, weld with relpose and torquescale and one without,
// a joint coupling of degree 4, a tendon coupling of degree 2), limits on hinges, slides and a
// tendon (one with a margin), frictionloss on hinges, a slide and a tendon, solref in both forms
// and solimp given by element and by default class, and <option> impratio, tolerance,
// iterations and timestep. The bodies carry diagonal inertias on their own axes, which MuJoCo's
// compiler keeps exactly, and their geoms collide with nothing.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>

#include <nlohmann/json.hpp>

#include "articulate/formats/mjcf.h"
#include "articulate/formulations/tree_simulation.h"
#include "reference_run.h"
#include "test_util.h"

using nlohmann::json;

namespace {

using testutil::list;
using testutil::runJson;
using testutil::writeFile;

// a bit of everything, at random states most limits are hit
const char* kMechanism = R"(<mujoco model='mechanism'>
  <compiler autolimits='true' inertiafromgeom='false' angle='radian'/>
  <option timestep='0.002' tolerance='1e-12' iterations='500' impratio='1.5'/>
  <default>
    <geom contype='0' conaffinity='0'/>
    <joint damping='0.05'/>
    <equality solref='0.03 0.9'/>
    <default class='stiff'>
      <joint solreflimit='0.01 0.8' solimplimit='0.8 0.99 0.01 0.3 3'/>
    </default>
  </default>
  <worldbody>
    <body name='crank' pos='0 0 1'>
      <joint name='crank' axis='0 1 0' range='-0.5 0.5' class='stiff' frictionloss='0.2'/>
      <inertial pos='0.15 0 0' mass='1' diaginertia='0.01 0.01 0.002'/>
      <geom type='capsule' fromto='0 0 0 0.3 0 0' size='0.02'/>
      <body name='coupler' pos='0.3 0 0'>
        <joint name='coupler' axis='0 1 0'/>
        <inertial pos='0.2 0 0.1' mass='0.7' diaginertia='0.008 0.008 0.001'/>
      </body>
    </body>
    <body name='rocker' pos='0.5 0 1'>
      <joint name='rocker' axis='0 1 0' range='-0.5 1.5' margin='0.05'/>
      <inertial pos='0 0 0.1' mass='0.5' diaginertia='0.004 0.004 0.001'/>
    </body>
    <body name='slider' pos='0 1 0.5'>
      <joint name='slide' type='slide' axis='1 0 0' range='-0.2 0.3' frictionloss='1.5' solreffriction='-500 -20'/>
      <inertial pos='0 0 0' mass='2' diaginertia='0.02 0.02 0.02'/>
      <body name='arm' pos='0.1 0 0' euler='0.3 0 0.2'>
        <joint name='arm' axis='0 0 1' range='-0.7 0.7' frictionloss='0.05'/>
        <inertial pos='0.1 0 0' mass='0.4' diaginertia='0.002 0.003 0.004'/>
        <body name='hand' pos='0.2 0 0'>
          <joint name='hand' axis='1 0 0' pos='0 0.01 0'/>
          <inertial pos='0.05 0.01 0' mass='0.3' diaginertia='0.001 0.0015 0.002'/>
        </body>
      </body>
    </body>
    <body name='finger1' pos='0 -1 1'>
      <joint name='f1' type='slide' axis='0 1 0' range='0 0.05'/>
      <inertial pos='0 0 0' mass='0.1' diaginertia='0.0001 0.0001 0.0001'/>
    </body>
    <body name='finger2' pos='0 -1.2 1'>
      <joint name='f2' type='slide' axis='0 1 0' range='0 0.05' solimplimit='0.95 0.95 0.001'/>
      <inertial pos='0 0 0' mass='0.1' diaginertia='0.0001 0.0001 0.0001'/>
    </body>
    <body name='block' pos='1 -1 1' euler='0.2 0.1 0'>
      <joint name='bx' type='slide' axis='1 0 0'/>
      <joint name='bz' type='hinge' axis='0 0 1'/>
      <joint name='by' type='hinge' axis='0 1 0'/>
      <inertial pos='0.02 0 0' mass='1.2' diaginertia='0.01 0.02 0.015'/>
    </body>
  </worldbody>
  <tendon>
    <fixed name='sum' limited='true' range='-0.8 0.8' frictionloss='0.3' solreflimit='0.015 1.2' margin='0.02'>
      <joint joint='arm' coef='1'/>
      <joint joint='hand' coef='-0.5'/>
    </fixed>
    <fixed name='t2'><joint joint='crank' coef='0.5'/></fixed>
    <fixed name='t3'><joint joint='rocker' coef='1'/><joint joint='coupler' coef='0.2'/></fixed>
  </tendon>
  <equality>
    <connect name='close' body1='coupler' body2='rocker' anchor='0.3 0 0.2'/>
    <weld name='glue' body1='hand' relpose='0.3 1.1 0.5 0.9 0.1 0.2 0' torquescale='2' solimp='0.95 0.99 0.001 0.5 2'/>
    <weld name='pin' body1='block' body2='finger1' anchor='0.1 0 0' solref='-2000 -50'/>
    <joint name='fingers' joint1='f2' joint2='f1' polycoef='0 1 0.5 -2 3'/>
    <tendon name='tie' tendon1='t2' tendon2='t3' polycoef='0.01 -1 0.3 0 0'/>
  </equality>
  <actuator>
    <motor name='drive' joint='crank' gear='2'/>
    <position name='grip' joint='f1' kp='50'/>
  </actuator>
</mujoco>
)";

// the trajectories: one file each, 1 s of steps
const char* kPendulum = R"(<mujoco model='pendulum'>
  <compiler inertiafromgeom='false' angle='degree' autolimits='true'/>
  <option timestep='0.002' integrator='Euler' tolerance='1e-12'/>
  <worldbody>
    <body name='bob' pos='0 0 1'>
      <joint name='swing' axis='0 1 0' range='-30 60' damping='0.02'/>
      <inertial pos='0 0 -0.4' mass='1' diaginertia='0.01 0.01 0.001'/>
    </body>
  </worldbody>
</mujoco>
)";

const char* kFourBar = R"(<mujoco model='fourbar'>
  <compiler inertiafromgeom='false' angle='radian'/>
  <option timestep='0.002' integrator='Euler' tolerance='1e-12' iterations='200'/>
  <worldbody>
    <body name='crank' pos='0 0 1'>
      <joint name='crank' axis='0 1 0' damping='0.01'/>
      <inertial pos='0.1 0 0' mass='0.5' diaginertia='0.002 0.002 0.0005'/>
      <body name='coupler' pos='0.2 0 0'>
        <joint name='coupler' axis='0 1 0'/>
        <inertial pos='0.25 0 0' mass='0.6' diaginertia='0.004 0.004 0.0005'/>
      </body>
    </body>
    <body name='rocker' pos='0.6 0 1'>
      <joint name='rocker' axis='0 1 0'/>
      <inertial pos='-0.05 0 0.15' mass='0.4' diaginertia='0.003 0.003 0.0004'/>
    </body>
  </worldbody>
  <equality><connect name='close' body1='coupler' body2='rocker' anchor='0.5 0 0'/></equality>
</mujoco>
)";

const char* kGripper = R"(<mujoco model='gripper'>
  <compiler inertiafromgeom='false' autolimits='true'/>
  <option timestep='0.002' integrator='Euler' tolerance='1e-12'/>
  <worldbody>
    <body name='palm' pos='0 0 1'>
      <joint name='lift' type='slide' axis='0 0 1' damping='5'/>
      <inertial pos='0 0 0' mass='1' diaginertia='0.01 0.01 0.01'/>
      <body name='left' pos='0 0.05 -0.05'>
        <joint name='left' type='slide' axis='0 1 0' range='0 0.04' damping='0.5'/>
        <inertial pos='0 0 -0.03' mass='0.1' diaginertia='0.0001 0.0001 0.0001'/>
      </body>
      <body name='right' pos='0 -0.05 -0.05'>
        <joint name='right' type='slide' axis='0 -1 0' range='0 0.04' damping='0.5'/>
        <inertial pos='0 0 -0.03' mass='0.1' diaginertia='0.0001 0.0001 0.0001'/>
      </body>
    </body>
  </worldbody>
  <equality><joint name='mirror' joint1='right' joint2='left' polycoef='0 1 0 0 0'/></equality>
  <actuator>
    <position name='open' joint='left' kp='20' ctrlrange='0 0.04'/>
    <motor name='hoist' joint='lift' gear='1'/>
  </actuator>
</mujoco>
)";

const char* kSlider = R"(<mujoco model='slider'>
  <compiler inertiafromgeom='false'/>
  <option timestep='0.002' integrator='Euler' tolerance='1e-12' gravity='0 0 0'/>
  <worldbody>
    <body name='puck' pos='0 0 0.1'>
      <joint name='x' type='slide' axis='1 0 0' frictionloss='2'/>
      <inertial pos='0 0 0' mass='1.5' diaginertia='0.01 0.01 0.01'/>
    </body>
  </worldbody>
</mujoco>
)";

double relErr(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return 1e300;
  double scale = 1, worst = 0;
  for (std::size_t k = 0; k < a.size(); ++k) scale = std::max(scale, std::abs(b[k]));
  for (std::size_t k = 0; k < a.size(); ++k) worst = std::max(worst, std::abs(a[k] - b[k]));
  return worst / scale;
}

}  // namespace

class TestSoftMujoco : public QObject {
  Q_OBJECT
  QTemporaryDir m_tmp;

  QString file(const char* name, const char* text) {
    const QString path = m_tmp.filePath(name);
    if (!writeFile(path, text)) return {};
    return path;
  }

  // Articulate's and MuJoCo's results at one state (q, qd in Articulate's order)
  std::pair<json, json> evaluate(const QString& path, const std::vector<double>& q, const std::vector<double>& qd,
                                 const std::vector<double>& ctrl, const QString& solver = "") {
    QStringList args = {"dynamics", path, "--q", list(q), "--qd", list(qd), "--json"};
    if (!ctrl.empty()) args << "--ctrl" << list(ctrl);
    if (!solver.isEmpty()) args << "--solver" << solver << "--iterations" << "20000" << "--tolerance" << "1e-15";
    const json art = runJson(ARTICULATE_CLI, args);
    if (!art.is_object()) return {};
    json state = testutil::jointStates(art["coordinates"], q, qd);
    state["ctrl"] = ctrl;
    const QString statePath = m_tmp.filePath("state.json");
    if (!writeFile(statePath, state.dump())) return {};
    return {art, runJson(ARTICULATE_REF_MUJOCO, {path, statePath})};
  }

 private slots:
  void initTestCase() { QVERIFY(m_tmp.isValid()); }

  // qacc, the forces by kind of row and the rows themselves, at random states and controls
  void mechanismAgreesWithMujoco() {
    const QString path = file("mechanism.xml", kMechanism);
    const json first = runJson(ARTICULATE_CLI, {"dynamics", path, "--json"});
    QVERIFY(first.is_object());
    const int nq = first["nq"], nv = first["nv"], nu = static_cast<int>(first["actuators"].size());
    QCOMPARE(nq, 11);
    std::mt19937 rng(34);
    double worstQacc = 0, worstForce = 0;
    std::map<std::string, int> rowsSeen;
    int states = 0;
    for (int trial = 0; trial < 12; ++trial) {
      const Eigen::VectorXd qv = testutil::randomVector(nq, rng, -1.0, 1.0), qdv = testutil::randomVector(nv, rng, -2, 2);
      const Eigen::VectorXd cv = testutil::randomVector(nu, rng, -1, 1);
      const std::vector<double> q(qv.data(), qv.data() + nq), qd(qdv.data(), qdv.data() + nv), ctrl(cv.data(), cv.data() + nu);
      const auto [art, mj] = evaluate(path, q, qd, ctrl);
      QVERIFY(art.is_object() && mj.is_object());
      // MuJoCo's dofs are in Articulate's order here (hinges and slides only)
      const double gap = relErr(art["qacc"], mj["qacc"]);
      worstQacc = std::max(worstQacc, gap);
      QVERIFY2(gap <= 1e-6, qPrintable(QString("qacc differs by %1 at trial %2").arg(gap).arg(trial)));
      const json& a = art["constraints"];
      const json& m = mj["constraints"];
      QCOMPARE(a.size(), m.size());
      std::map<std::string, std::pair<std::vector<double>, std::vector<double>>> byKind;
      for (std::size_t r = 0; r < a.size(); ++r) {
        QCOMPARE(a[r]["type"].get<std::string>(), m[r]["type"].get<std::string>());
        QCOMPARE(a[r]["name"].get<std::string>(), m[r]["name"].get<std::string>());
        byKind[a[r]["type"]].first.push_back(a[r]["force"]);
        byKind[a[r]["type"]].second.push_back(m[r]["force"]);
        QVERIFY(std::abs(a[r]["residual"].get<double>() - m[r]["residual"].get<double>()) <=
                1e-9 * (1 + std::abs(m[r]["residual"].get<double>())));
        ++rowsSeen[a[r]["type"].get<std::string>() + " " + a[r]["name"].get<std::string>()];
      }
      for (const auto& [kind, forces] : byKind) {
        const double f = relErr(forces.first, forces.second);
        worstForce = std::max(worstForce, f);
        QVERIFY2(f <= 1e-5, qPrintable(QString("%1 forces differ by %2").arg(kind.c_str()).arg(f)));
      }
      ++states;
    }
    qInfo().noquote() << QString("mechanism: %1 states, qacc within %2, row forces within %3 of MuJoCo's; rows seen: %4")
                             .arg(states).arg(worstQacc).arg(worstForce).arg(rowsSeen.size());
    // every equality, each friction row and both sides of limits came up
    for (const char* row : {"equality close", "equality glue", "equality pin", "equality fingers", "equality tie",
                            "friction crank", "friction slide", "friction arm", "friction sum", "limit crank",
                            "limit rocker", "limit slide", "limit arm", "limit f1", "limit f2", "limit sum"})
      QVERIFY2(rowsSeen.count(row), row);
  }

  // Newton, PGS and CG converge on the same qacc (the problem is strictly convex), on every file
  // here but for the mechanism's 'glue': a weld of six rows on a chain of three joints, far from
  // its pose, which PGS's sweeps take some 10^5 iterations to settle (Newton: 3)
  void solversAgree_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("text");
    QString mechanism = kMechanism;
    mechanism.remove(QRegularExpression("<weld name='glue'[^>]*>"));
    QTest::newRow("mechanism without its glue weld") << "mechanism_noglue" << mechanism;
    QTest::newRow("pendulum") << "pendulum" << QString(kPendulum);
    QTest::newRow("four-bar") << "fourbar" << QString(kFourBar);
    QTest::newRow("gripper") << "gripper" << QString(kGripper);
    QTest::newRow("slider") << "slider" << QString(kSlider);
  }
  void solversAgree() {
    QFETCH(QString, name);
    QFETCH(QString, text);
    const QString path = file(qPrintable(name + ".xml"), qPrintable(text));
    const json first = runJson(ARTICULATE_CLI, {"dynamics", path, "--json"});
    QVERIFY(first.is_object());
    const int nq = first["nq"], nv = first["nv"];
    std::mt19937 rng(35);
    int solved = 0;
    for (int trial = 0; trial < 8; ++trial) {
      const Eigen::VectorXd qv = testutil::randomVector(nq, rng, -2.5, 2.5), qdv = testutil::randomVector(nv, rng, -2, 2);
      const std::vector<double> q(qv.data(), qv.data() + nq), qd(qdv.data(), qdv.data() + nv);
      const json newton = evaluate(path, q, qd, {}, "newton").first;
      const json pgs = evaluate(path, q, qd, {}, "pgs").first, cg = evaluate(path, q, qd, {}, "cg").first;
      QVERIFY(newton.is_object() && pgs.is_object() && cg.is_object());
      if (newton["constraints"].empty()) continue;  // inside every limit: nothing to solve
      ++solved;
      const double p = relErr(pgs["qacc"], newton["qacc"]), c = relErr(cg["qacc"], newton["qacc"]);
      qInfo().noquote() << QString("%1 trial %2: %3 rows; PGS within %4 (%5 iterations), CG within %6 (%7 iterations) of Newton (%8)")
                               .arg(name).arg(trial).arg(newton["constraints"].size()).arg(p)
                               .arg(pgs["solver"]["iterations"].get<int>()).arg(c)
                               .arg(cg["solver"]["iterations"].get<int>()).arg(newton["solver"]["iterations"].get<int>());
      QVERIFY2(p <= 1e-6 && c <= 1e-6, qPrintable(QString("pgs %1, cg %2").arg(p).arg(c)));
    }
    QVERIFY(solved >= 2);
  }

  // 1 s of mujoco-euler against mj_step, from a state that swings, closes, grips and slides
  void trajectoriesMatchMjStep_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("q");
    QTest::addColumn<QString>("qd");
    QTest::addColumn<QString>("ctrl");
    QTest::newRow("pendulum into its limit") << "pendulum" << kPendulum << "0.5" << "3" << "";
    QTest::newRow("four-bar closed by a connect") << "fourbar" << kFourBar << "0,0,0" << "2,0,0" << "";
    QTest::newRow("gripper tied by a joint equality") << "gripper" << kGripper << "0,0.01,0.01" << "0,0,0" << "0.035,3";
    QTest::newRow("slider with frictionloss") << "slider" << kSlider << "0" << "1.2" << "";
  }
  void trajectoriesMatchMjStep() {
    QFETCH(QString, name);
    QFETCH(QString, text);
    QFETCH(QString, q);
    QFETCH(QString, qd);
    QFETCH(QString, ctrl);
    const QString path = file(qPrintable(name + ".xml"), qPrintable(text));
    const art::ModelSpec spec = art::loadMjcf(path.toStdString());
    QCOMPARE(art::integratorName(spec.simulation.integrator), "mujoco-euler");
    const art::Model model = art::compile(spec);
    art::Simulation sim(model, art::simulationOptions(spec));
    const auto parse = [](const QString& s) {
      std::vector<double> v;
      for (const QString& x : s.split(',', Qt::SkipEmptyParts)) v.push_back(x.toDouble());
      return v;
    };
    const std::vector<double> q0 = parse(q), qd0 = parse(qd), u = parse(ctrl);
    sim.setState(0, Eigen::Map<const Eigen::VectorXd>(q0.data(), model.nq()),
                 Eigen::Map<const Eigen::VectorXd>(qd0.data(), model.nv()));
    if (!u.empty()) sim.setControls(Eigen::Map<const Eigen::VectorXd>(u.data(), model.nu()));
    const int steps = 500;
    std::vector<std::vector<double>> ours;
    for (int k = 0; k < steps; ++k) {
      QVERIFY(sim.step());
      ours.emplace_back(sim.q().data(), sim.q().data() + model.nq());
    }
    const json first = runJson(ARTICULATE_CLI, {"dynamics", path, "--json"});
    json state = testutil::jointStates(first["coordinates"], q0, qd0);
    state["ctrl"] = u;
    state["steps"] = steps;
    const QString statePath = m_tmp.filePath("steps.json");
    QVERIFY(writeFile(statePath, state.dump()));
    const json mj = runJson(ARTICULATE_REF_MUJOCO, {path, statePath});
    QVERIFY(mj.is_object());
    const json& theirs = mj["trajectory"];
    QCOMPARE(theirs.size(), std::size_t(steps));
    double worst = 0, moved = 0;
    for (int k = 0; k < steps; ++k) {
      const std::vector<double> m = theirs[static_cast<std::size_t>(k)];
      for (std::size_t i = 0; i < m.size(); ++i) {
        worst = std::max(worst, std::abs(ours[static_cast<std::size_t>(k)][i] - m[i]));
        moved = std::max(moved, std::abs(m[i] - q0[i]));
      }
    }
    qInfo().noquote() << QString("%1: 1 s of mujoco-euler within %2 of mj_step in qpos (it moved %3)").arg(name).arg(worst).arg(moved);
    QVERIFY2(moved > 0.01, "the motion is too small to tell anything");
    QVERIFY2(worst <= 1e-6, qPrintable(QString::number(worst)));
  }
};

QTEST_GUILESS_MAIN(TestSoftMujoco)
#include "test_soft_mujoco.moc"
