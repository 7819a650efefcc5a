// Body-body contact (collision.h and the soft model's contact rows) against closed forms and
// conservation, in process: a frictionless sphere at rest sinks to the depth MuJoCo's model
// gives in closed form, a box resting face-down carries m g / 4 on each corner, a box on a 20
// degree incline slides with mu = 0.3 at Coulomb's acceleration and holds with mu = 0.5, drops
// of mixed primitives stay finite and gain no energy, five stacked boxes stand, a sphere started inside the floor gains
// no more than its contact stores, bad geoms are refused naming the field, the file and the
// line, an explicit pair collides geoms whose bitmasks keep them apart, and geoms go through
// the Articulate format and back. The agreement with MuJoCo
// itself is test_collision_mujoco's.
#include <QtTest>

#include "test_main.h"

#include <cmath>
#include <random>

#include "articulate/dynamics/collision.h"
#include "articulate/dynamics/dynamics.h"
#include "articulate/dynamics/soft_constraints.h"
#include "articulate/formats/articulate.h"
#include "articulate/formats/json.h"
#include "articulate/formats/mjcf.h"
#include "articulate/formulations/tree_simulation.h"

namespace {

art::ModelSpec mjcf(const std::string& xml) { return art::specFromMjcf(xml, "scene.xml"); }

// MuJoCo's impedance d(r) of solimp (dmin, dmax, width, midpoint, power)
double impedance(const std::array<double, 5>& s, double r) {
  const double x = std::abs(r) / s[2];
  if (x >= 1) return s[1];
  const double y = x <= s[3] ? std::pow(x, s[4]) / std::pow(s[3], s[4] - 1)
                             : 1 - std::pow(1 - x, s[4]) / std::pow(1 - s[3], s[4] - 1);
  return s[0] + y * (s[1] - s[0]);
}

// a 1 kg box of 0.2 x 0.2 x 0.1 m resting on a plane turned 20 degrees about y, both of
// friction mu, in the given cone
// (RK4: the slide's acceleration is measured from three positions to 1e-4 of Coulomb's, below
// the 2e-4 to 4e-4 that MuJoCo's Euler at 1 ms leaves in it)
art::ModelSpec incline(double mu, const std::string& cone) {
  return mjcf("<mujoco><option timestep='0.001' integrator='RK4' tolerance='1e-12' cone='" + cone + "'/><worldbody>"
              "<geom type='plane' size='5 5 0.1' euler='0 20 0' friction='" + std::to_string(mu) + "'/>"
              "<body pos='0 0 0.05' euler='0 20 0'><freejoint/><geom type='box' size='0.1 0.1 0.05' "
              "mass='1' friction='" + std::to_string(mu) + "'/></body></worldbody></mujoco>");
}

// simulates `seconds` and returns the simulation
art::Simulation settle(const art::Model& model, const art::ModelSpec& spec, double seconds) {
  art::Simulation sim(model, art::simulationOptions(spec));
  while (sim.time() < seconds - 1e-12)
    if (!sim.step()) break;
  return sim;
}

}  // namespace

class TestCollision : public QObject {
  Q_OBJECT

 private slots:
  // A frictionless contact's one row at rest: H qacc = 0 gives m g = f = aref / R with
  // aref = -k d r and R = (1 - d) / d / m (a free sphere's inverse weight is 1/m), so the
  // depth solves r = -(1 - d(r)) g / (k d(r)^2), k = 1 / (dmax^2 tc^2 dr^2): found here by
  // bisection, and reached by the simulation after the contact's transient has died out
  void restingSphereSinksToTheClosedForm() {
    const art::ModelSpec spec = mjcf(R"(<mujoco><option timestep='0.002' tolerance='1e-12'/><worldbody>
      <geom type='plane' size='1 1 0.1'/>
      <body pos='0 0 0.1'><freejoint/><geom type='sphere' size='0.1' mass='2' condim='1'/></body>
      </worldbody></mujoco>)");
    QCOMPARE(spec.geoms.size(), std::size_t(2));
    const art::Model model = art::compile(spec);
    art::Simulation sim = settle(model, spec, 3.0);
    const art::SoftConstraintData* soft = sim.softConstraints();
    QVERIFY(soft);
    QCOMPARE(soft->contacts.size(), std::size_t(1));
    const double r = soft->contacts[0].dist;
    const art::SoftParams p;  // MuJoCo's defaults
    const double g = 9.81, dmax = p.solimp[1], k = 1 / (dmax * dmax * p.solref[0] * p.solref[0] * p.solref[1] * p.solref[1]);
    double lo = -0.01, hi = 0;  // residual(r) = r + (1 - d) g / (k d^2): increasing in r
    for (int it = 0; it < 200; ++it) {
      const double mid = (lo + hi) / 2, d = impedance(p.solimp, mid);
      (mid + (1 - d) * g / (k * d * d) > 0 ? hi : lo) = mid;
    }
    qInfo().noquote() << QString("depth at rest %1 m, closed form %2 m").arg(r, 0, 'g', 12).arg(lo, 0, 'g', 12);
    QVERIFY(r < 0);
    QVERIFY2(std::abs(r - lo) <= 1e-9 * std::abs(lo), qPrintable(QString::number(r - lo)));
    // and the row's force holds the sphere: m g
    QVERIFY(std::abs(art::contactForce(*soft, 0)(0) - 2 * g) <= 1e-9 * 2 * g);
  }

  // An explicit <pair> makes two geoms collide whatever their bitmasks: MuJoCo 3.3.8 opens a
  // pair of geoms with contype and conaffinity 0, which collide only through it (issue 56).
  // Two spheres overlapping by 0.02 m: one contact with the pair, none without it
  void pairOfNonCollidingGeomsCollides() {
    const auto scene = [](bool pair) {
      return std::string(R"(<mujoco><worldbody>
        <body name='a'><joint type='slide' axis='1 0 0'/><geom name='ga' type='sphere' size='0.1' contype='0' conaffinity='0'/></body>
        <body name='b' pos='0.18 0 0'><joint type='slide' axis='1 0 0'/><geom name='gb' type='sphere' size='0.1' contype='0' conaffinity='0'/></body>
        </worldbody>)") + (pair ? "<contact><pair geom1='ga' geom2='gb'/></contact>" : "") + "</mujoco>";
    };
    for (const bool pair : {true, false}) {
      const art::ModelSpec spec = mjcf(scene(pair));
      const art::Model model = art::compile(spec);
      art::Data data(model);
      art::forwardKinematics(model, data, model.q0);
      std::vector<art::Contact> contacts;
      art::collide(model, data, contacts);
      qInfo("with the pair %d: %zu geom(s), %zu contact(s)", pair, spec.geoms.size(), contacts.size());
      QCOMPARE(contacts.size(), std::size_t(pair ? 1 : 0));
      if (pair) QVERIFY(std::abs(contacts[0].dist + 0.02) < 1e-12);
    }
  }

  // A box at rest face-down: four corner contacts, each carrying m g / 4 (symmetry), their
  // sum m g, no friction force, and the box still
  void boxRestsOnFourCornersWithAQuarterEach() {
    const art::ModelSpec spec = mjcf(R"(<mujoco><option timestep='0.002' tolerance='1e-12'/><worldbody>
      <geom type='plane' size='1 1 0.1'/>
      <body pos='0 0 0.05'><freejoint/><geom type='box' size='0.2 0.1 0.05' mass='3'/></body>
      </worldbody></mujoco>)");
    const art::Model model = art::compile(spec);
    art::Simulation sim = settle(model, spec, 2.0);
    const art::SoftConstraintData* soft = sim.softConstraints();
    QCOMPARE(soft->contacts.size(), std::size_t(4));
    const double mg = 3 * 9.81;
    double sum = 0;
    for (int k = 0; k < 4; ++k) {
      const art::Vec6 f = art::contactForce(*soft, k);
      QVERIFY2(std::abs(f(0) - mg / 4) <= 1e-6 * mg, qPrintable(QString::number(f(0))));
      QVERIFY(std::abs(f(1)) <= 1e-6 * mg && std::abs(f(2)) <= 1e-6 * mg);
      sum += f(0);
    }
    QVERIFY(std::abs(sum - mg) <= 1e-9 * mg);
    QVERIFY(sim.qd().norm() < 1e-9);
  }

  // A box on a plane turned 20 degrees about y. With mu = 0.3 < tan 20 it slides at Coulomb's
  // a = g (sin - mu cos): MuJoCo's pyramidal cone, its edges J_n +- mu J_t, gives that friction
  // once the sliding velocity keeps the edges along the motion inactive (measured within 5e-6
  // relative here, from the motion over 0.3..1.3 s). With mu = 0.5 it holds, up to the creep
  // of MuJoCo's soft friction, whose closed form is below. The motion itself is held against mj_step in test_collision_mujoco
  void boxOnAnInclineSlidesOrHolds() {
    const double theta = 20 * M_PI / 180, g = 9.81;
    for (double mu : {0.3, 0.5}) {
      const art::ModelSpec spec = incline(mu, "pyramidal");
      const art::Model model = art::compile(spec);
      art::Simulation sim(model, art::simulationOptions(spec));
      // the origin's distance down the slope: the plane's x axis is (cos, 0, -sin)
      const auto down = [&]() { return std::cos(theta) * sim.q()(0) - std::sin(theta) * sim.q()(2); };
      std::array<double, 3> s{};
      for (int k = 0; k < 3; ++k) {
        while (sim.time() < 0.3 + 0.5 * k - 1e-9) QVERIFY(sim.step());
        s[static_cast<std::size_t>(k)] = down();
      }
      const double a = (s[2] - 2 * s[1] + s[0]) / 0.25;  // s(t) quadratic over t = 0.3, 0.8, 1.3
      const double coulomb = g * (std::sin(theta) - mu * std::cos(theta));
      qInfo().noquote() << QString("mu %1: %2 m/s^2 down the slope (Coulomb %3, %4 m in 1 s)")
                               .arg(mu).arg(a).arg(coulomb).arg(s[2] - s[0]);
      if (mu < std::tan(theta)) {
        QVERIFY2(std::abs(a - coulomb) <= 1e-4 * coulomb, qPrintable(QString::number(a)));
      } else {
        // held, but soft: MuJoCo's creep. Creeping at v down the slope, corner c's edges have
        // the forces (-b vel - k d_c r_c) / R_c (vel = +-mu v along the slope, 0 across, r_c its
        // depth, d_c the impedance there, b = 2 / (dmax tc), R_c = 2 mu^2 (1 - d_c) / d_c (1 +
        // mu^2) / m): the edge along the motion carries none, the one against it b mu v / R_c +
        // x_c, the two across x_c = k d_c |r_c| / R_c each. Friction mu sum f- = m g sin and the
        // normal sum (2 x_c + f-_c) = m g cos give v = m g (3 sin / mu - cos) / (2 b mu sum 1/R_c)
        const art::SoftConstraintData* soft = sim.softConstraints();
        QCOMPARE(soft->contacts.size(), std::size_t(4));
        const art::SoftParams p;
        const double b = 2 / (p.solimp[1] * p.solref[0]);
        double inverseR = 0;
        for (const art::Contact& c : soft->contacts) {
          const double d = impedance(p.solimp, c.dist);
          inverseR += 1 / (2 * mu * mu * (1 - d) / d * (1 + mu * mu) / 1.0);
        }
        const double creep = g * (3 * std::sin(theta) / mu - std::cos(theta)) / (2 * b * mu * inverseR);
        const double v = (s[2] - s[1]) / 0.5;
        qInfo().noquote() << QString("  held: creeps at %1 m/s, closed form %2 m/s").arg(v).arg(creep);
        QVERIFY2(std::abs(a) < 1e-6, qPrintable(QString::number(a)));  // creeping steadily, not sliding
        QVERIFY2(std::abs(v - creep) <= 1e-4 * creep, qPrintable(QString::number(v)));
      }
    }
  }

  // The same incline in elliptic cones (<option cone='elliptic'>). Sliding (mu = 0.3), each
  // contact's force lies on the cone's surface, |f_t| = mu f_n to round-off, so the box slides
  // at Coulomb's a = g (sin - mu cos) once the transient is gone (its motion agrees with
  // mj_step's to 1e-14 over these 1.3 s, checked by hand). Held (mu = 0.5), every
  // contact's rows are in the bottom zone, each its own quadratic: the friction rows have no
  // stiffness (K = 0), so corner c's friction is b v / R_t,c, R_t,c = (1 - d_c) / d_c / m
  // (impratio 1), and m g sin = sum b v / R_t,c gives the creep v = g sin / (b sum d_c / (1 - d_c))
  void ellipticConeSlidesOnItsSurfaceOrHolds() {
    const double theta = 20 * M_PI / 180, g = 9.81;
    for (double mu : {0.3, 0.5}) {
      const art::ModelSpec spec = incline(mu, "elliptic");
      QCOMPARE(spec.geoms.size(), std::size_t(2));
      const art::Model model = art::compile(spec);
      art::Simulation sim(model, art::simulationOptions(spec));
      const auto down = [&]() { return std::cos(theta) * sim.q()(0) - std::sin(theta) * sim.q()(2); };
      // after the start's transient: the contacts' forces against the cone at every step (the
      // sliding box rocks on its leading edge, as in mj_step, so its contacts come and go)
      std::array<double, 3> s{};
      double worstCone = 0;  // | |f_t| / f_n - mu | over the contacts carrying a force
      int carrying = 0, onSurface = 0;
      const art::SoftConstraintData* soft = sim.softConstraints();
      for (int k = 0; k < 3; ++k) {
        while (sim.time() < 0.3 + 0.5 * k - 1e-9) {
          QVERIFY(sim.step());
          if (sim.time() < 0.3) continue;
          for (int c = 0; c < static_cast<int>(soft->contacts.size()); ++c) {
            const art::Vec6 f = art::contactForce(*soft, c);
            if (!(f(0) > 0)) continue;
            ++carrying;
            worstCone = std::max(worstCone, std::abs(std::hypot(f(1), f(2)) / f(0) - mu));
            onSurface += soft->state[static_cast<std::size_t>(soft->contacts[static_cast<std::size_t>(c)].row)] ==
                         art::SoftRowState::Cone;
          }
        }
        s[static_cast<std::size_t>(k)] = down();
      }
      const double a = (s[2] - 2 * s[1] + s[0]) / 0.25;
      const double coulomb = g * (std::sin(theta) - mu * std::cos(theta));
      qInfo().noquote() << QString("elliptic, mu %1: %2 m/s^2 down the slope (Coulomb %3); %4 of %5 contact forces on the "
                                   "cone's surface over 1 s, |f_t| / f_n within %6 of mu")
                               .arg(mu).arg(a).arg(coulomb).arg(onSurface).arg(carrying).arg(worstCone);
      QVERIFY(carrying > 1000);
      if (mu < std::tan(theta)) {
        QCOMPARE(onSurface, carrying);
        QVERIFY2(worstCone <= 1e-9, qPrintable(QString::number(worstCone)));
        QVERIFY2(std::abs(a - coulomb) <= 1e-4 * coulomb, qPrintable(QString::number(a)));
      } else {
        QCOMPARE(soft->contacts.size(), std::size_t(4));
        QCOMPARE(onSurface, 0);
        const art::SoftParams p;
        const double b = 2 / (p.solimp[1] * p.solref[0]);
        double sum = 0;
        for (const art::Contact& c : soft->contacts) {
          const double d = impedance(p.solimp, c.dist);
          sum += d / (1 - d);
        }
        const double creep = g * std::sin(theta) / (b * sum), v = (s[2] - s[1]) / 0.5;
        qInfo().noquote() << QString("  held: creeps at %1 m/s, closed form %2 m/s").arg(v).arg(creep);
        QVERIFY2(std::abs(a) < 1e-6, qPrintable(QString::number(a)));
        QVERIFY2(std::abs(v - creep) <= 1e-4 * creep, qPrintable(QString::number(v)));
      }
    }
  }

  // A thousand drops of a sphere, a capsule and a box from random poses and velocities onto a
  // floor and each other: every state stays finite, and E = kinetic + potential never rises
  // above its start by more than the integrator's error (no force does work but the contacts,
  // which store a little energy in their penetration and return less)
  void randomDropsStayFiniteAndGainNoEnergy() {
    const art::ModelSpec spec = mjcf(R"(<mujoco><option timestep='0.002'/><worldbody>
      <geom type='plane' size='2 2 0.1' contype='1' conaffinity='255'/>
      <body name='ball' pos='0 0 0.3'><freejoint/><geom type='sphere' size='0.05' mass='0.5' contype='2' conaffinity='10'/></body>
      <body name='rod' pos='0 0 0.5'><freejoint/><geom type='capsule' size='0.03 0.1' mass='0.4' contype='16' conaffinity='26'/></body>
      <body name='crate' pos='0 0 0.7'><freejoint/><geom type='box' size='0.06 0.05 0.04' mass='0.8' contype='8' conaffinity='0'/></body>
      </worldbody></mujoco>)");
    const art::Model model = art::compile(spec);
    art::Simulation sim(model, art::simulationOptions(spec));
    std::mt19937 rng(1000);
    std::uniform_real_distribution<double> u(-1, 1);
    double worstGain = 0;
    int contactsSeen = 0;
    int redrawn = 0;
#ifdef ARTICULATE_SANITIZED
    const int drops = 100;  // the sanitizers check the same code on a tenth of the drops
#else
    const int drops = 1000;
#endif
    for (int drop = 0; drop < drops; ++drop) {
      // each in its own layer, within reach of the others sideways, apart at the start (a pose
      // whose geoms touch is drawn again: bodies started inside each other are pushed apart with
      // the energy their overlap stores, which is not a gain)
      for (;;) {
        Eigen::VectorXd q = model.q0, qd = Eigen::VectorXd::Zero(model.nv());
        for (int b = 0; b < 3; ++b) {
          const int qi = model.qIndex[static_cast<std::size_t>(b)], vi = model.vIndex[static_cast<std::size_t>(b)];
          q.segment<3>(qi) = art::Vec3(0.08 * u(rng), 0.08 * u(rng), 0.12 + 0.15 * b + 0.03 * u(rng));
          Eigen::Quaterniond Q(u(rng), u(rng), u(rng), u(rng));
          Q.normalize();
          q.segment<4>(qi + 3) = Eigen::Vector4d(Q.w(), Q.x(), Q.y(), Q.z());
          for (int k = 0; k < 6; ++k) qd(vi + k) = 2 * u(rng);
        }
        sim.setState(0, q, qd);
        if (sim.softConstraints()->contacts.empty()) break;
        ++redrawn;
      }
      const art::EnergyMomentum e0 = sim.energy();
      const double start = e0.kinetic + e0.potential;
      for (int k = 0; k < 150; ++k) {
        QVERIFY2(sim.step(), qPrintable(QString("drop %1, step %2").arg(drop).arg(k)));
        QVERIFY(sim.q().allFinite() && sim.qd().allFinite());
        const art::EnergyMomentum e = sim.energy();
        worstGain = std::max(worstGain, e.kinetic + e.potential - start);
        if (k == 149) contactsSeen += static_cast<int>(sim.softConstraints()->contacts.size());
      }
    }
    qInfo().noquote() << QString("%1 drops, 150 steps each: largest energy gain %2 J (%3 contacts at the ends, %4 "
                                 "poses drawn again)").arg(drops).arg(worstGain).arg(contactsSeen).arg(redrawn);
    QVERIFY(contactsSeen > drops);
    QVERIFY2(worstGain <= 1e-8, qPrintable(QString::number(worstGain)));
  }

  // A frictionless sphere started 2 cm inside the floor, at rest, is pushed out. Its one row's
  // force is m d (g - k d r - b v) (a1 = (1 - d) a0 + d aref with a0 = -g), so the energy it can
  // give the sphere is at most the work of its position part from r0 to 0, W = m int d(r) (g -
  // k d(r) r) dr (the damping part only takes energy out): E may rise by no more than W
  void interpenetratingStartGainsNoMoreThanTheContactStores() {
    const art::ModelSpec spec = mjcf(R"(<mujoco><option timestep='0.001' tolerance='1e-12'/><worldbody>
      <geom type='plane' size='1 1 0.1'/>
      <body pos='0 0 0.08'><freejoint/><geom type='sphere' size='0.1' mass='2' condim='1'/></body>
      </worldbody></mujoco>)");
    const art::Model model = art::compile(spec);
    art::Simulation sim(model, art::simulationOptions(spec));
    const art::EnergyMomentum e0 = sim.energy();
    double gain = 0, highest = 0;
    while (sim.time() < 0.5) {
      QVERIFY(sim.step());
      const art::EnergyMomentum e = sim.energy();
      gain = std::max(gain, e.kinetic + e.potential - e0.kinetic - e0.potential);
      highest = std::max(highest, sim.q()(2));
    }
    const art::SoftParams p;
    const double m = 2, g = 9.81, r0 = -0.02, dmax = p.solimp[1];
    const double k = 1 / (dmax * dmax * p.solref[0] * p.solref[0] * p.solref[1] * p.solref[1]);
    double W = 0;
    const int n = 200000;
    for (int i = 0; i < n; ++i) {  // the midpoint rule, r from r0 to 0
      const double r = r0 * (1 - (i + 0.5) / n), d = impedance(p.solimp, r);
      W += m * d * (g - k * d * r) * (-r0 / n);
    }
    qInfo().noquote() << QString("pushed out from 2 cm deep: E rose by %1 J, the contact stores %2 J; highest %3 m")
                             .arg(gain).arg(W).arg(highest);
    QVERIFY2(gain > 0, "the sphere was not pushed out");
    QVERIFY2(gain <= W, qPrintable(QString::number(gain)));
  }

  // Five boxes stacked as a user stacks them (aligned, each touching the one below) settle
  // onto their soft contacts and then stand: over the next 10 s no box moves more than 1 mm or
  // turns, nothing gathers speed (the kinetic energy stays under 1 uJ) and every face below
  // carries the weight above it (the normal forces of the contacts under box k sum to
  // (6 - k) m g). The perfectly symmetric stack is not perfectly still: round-off seeds a
  // rocking about its diagonal of about a micrometre, bounded, which MuJoCo 2.2.2's own stack
  // shows too (test_collision_mujoco); its energy comes and goes with it, tens of uJ of the
  // stack's 6 J, so the energy is held to 1e-4 J of where it settled. RK4: under MuJoCo's Euler
  // the rocking still loads a face 6e-5 off its weight 2 s after settling (the sanitizers' run),
  // and has died out by 10 s
  void fiveBoxStackStands() {
    std::string xml = "<mujoco><option timestep='0.002' integrator='RK4'/><worldbody><geom type='plane' size='2 2 0.1'/>";
    for (int k = 0; k < 5; ++k)
      xml += "<body name='box" + std::to_string(k + 1) + "' pos='0 0 " + std::to_string(0.05 + 0.1 * k) +
             "'><freejoint/><geom type='box' size='0.05 0.05 0.05' mass='0.5'/></body>";
    const art::ModelSpec spec = mjcf(xml + "</worldbody></mujoco>");
    const art::Model model = art::compile(spec);
    const double kSettle = 2.0;
    art::Simulation sim = settle(model, spec, kSettle);
    const Eigen::VectorXd settled = sim.q();
    const art::EnergyMomentum e0 = sim.energy();
    double drift = 0, turn = 0, gain = 0, fastest = 0;
#ifdef ARTICULATE_SANITIZED
    const double seconds = 2;  // the sanitizers check the same code for a fifth of the time
#else
    const double seconds = 10;
#endif
    while (sim.time() < kSettle + seconds - 1e-9) {
      QVERIFY(sim.step());
      const art::EnergyMomentum e = sim.energy();
      gain = std::max(gain, e.kinetic + e.potential - e0.kinetic - e0.potential);
      fastest = std::max(fastest, e.kinetic);
      for (int b = 0; b < 5; ++b) {
        const int qi = model.qIndex[static_cast<std::size_t>(b)];
        drift = std::max(drift, (sim.q().segment<3>(qi) - settled.segment<3>(qi)).norm());
        turn = std::max(turn, (sim.q().segment<4>(qi + 3) - settled.segment<4>(qi + 3)).norm());
      }
    }
    const art::SoftConstraintData* soft = sim.softConstraints();
    const double mg = 0.5 * 9.81;
    double worstLoad = 0;
    for (int b = 0; b < 5; ++b) {  // the contacts under box b (its geom is geom b + 1, the floor geom 0)
      double load = 0;
      for (int c = 0; c < static_cast<int>(soft->contacts.size()); ++c)
        if (soft->contacts[static_cast<std::size_t>(c)].geom2 == b + 1) load += art::contactForce(*soft, c)(0);
      worstLoad = std::max(worstLoad, std::abs(load - (5 - b) * mg) / ((5 - b) * mg));
    }
    qInfo().noquote() << QString("five boxes, %1 s after settling: drift %2 m, turn %3, largest kinetic energy %4 J, "
                                 "energy gain %5 J; %6 contacts, loads within %7 relative; the top box sank %8 m in all")
                             .arg(seconds).arg(drift).arg(turn).arg(fastest).arg(gain).arg(soft->contacts.size())
                             .arg(worstLoad).arg(0.45 - sim.q()(model.qIndex[4] + 2));
    QVERIFY2(drift <= 1e-3, qPrintable(QString::number(drift)));
    QVERIFY2(turn <= 1e-3, qPrintable(QString::number(turn)));
    QVERIFY2(fastest <= 1e-6, qPrintable(QString::number(fastest)));
    QVERIFY2(gain <= 1e-4, qPrintable(QString::number(gain)));
    QVERIFY2(worstLoad <= 1e-5, qPrintable(QString::number(worstLoad)));  // the rocking's accelerations
  }

  // geoms that cannot be: the MJCF reader names the file and the line, compile() the field
  void badGeomsAreRefused() {
    const auto refusedMjcf = [](const std::string& geom, const std::string& part) {
      try {
        mjcf("<mujoco><worldbody><geom type='plane' size='1 1 0.1'/>\n<body><freejoint/>\n" + geom +
             "</body></worldbody></mujoco>");
      } catch (const art::FormatError& e) {
        const std::string what = e.what();
        return what.find("scene.xml:3") != std::string::npos && what.find(part) != std::string::npos;
      }
      return false;
    };
    QVERIFY(refusedMjcf("<geom type='sphere' size='0'/>", "positive size"));
    QVERIFY(refusedMjcf("<geom type='sphere' size='0.1' condim='2'/>", "condim must be 1, 3, 4 or 6, got 2"));
    QVERIFY(refusedMjcf("<geom type='sphere' size='0.1' condim='5'/>", "condim must be 1, 3, 4 or 6, got 5"));
    QVERIFY(refusedMjcf("<geom type='sphere' size='0.1' margin='-0.01'/>", "margin must be >= 0"));
    QVERIFY(refusedMjcf("<geom type='sphere' size='0.1' friction='-1'/>", "friction must be >= 0"));
    try {  // a mesh whose vertices lie on one plane has no hull to collide with
      mjcf("<mujoco><asset><mesh name='flat' vertex='0 0 0  1 0 0  0 1 0  1 1 0'/></asset>\n<worldbody>"
           "<body name='a'><freejoint/>\n<geom type='mesh' mesh='flat' mass='1'/></body></worldbody></mujoco>");
      QFAIL("a flat mesh was read");
    } catch (const art::FormatError& e) {
      QVERIFY2(std::string(e.what()).find("scene.xml:3") != std::string::npos &&
                   std::string(e.what()).find("mesh 'flat'") != std::string::npos,
               e.what());
    }
    try {
      mjcf("<mujoco><worldbody><body name='a'><freejoint/><geom size='0.1'/></body></worldbody>\n"
           "<contact><exclude body1='a' body2='nobody'/></contact></mujoco>");
      QFAIL("an exclude naming no body was read");
    } catch (const art::FormatError& e) {
      QVERIFY2(std::string(e.what()).find("scene.xml:2") != std::string::npos &&
                   std::string(e.what()).find("body2 'nobody' names no body") != std::string::npos,
               e.what());
    }
    // the spec: a zero size, condim 5, negative friction, bad hulls
    art::ModelSpec spec = mjcf(R"(<mujoco><worldbody><geom type='plane' size='1 1 0.1'/>
      <body name='a' pos='0 0 1'><freejoint/><geom name='ball' size='0.1'/></body></worldbody></mujoco>)");
    QVERIFY_THROWS_NO_EXCEPTION(art::compile(spec));
    const auto refused = [](art::ModelSpec s, const std::string& field, const std::string& why) {
      try {
        art::compile(s);
      } catch (const art::ModelError& e) {
        return e.field().find(field) != std::string::npos && e.reason().find(why) != std::string::npos;
      }
      return false;
    };
    art::ModelSpec bad = spec;
    bad.geoms[1].size(0) = 0;
    QVERIFY(refused(bad, "geoms[1] (geom 'ball').size", "must be a number > 0"));
    bad = spec;
    bad.geoms[1].condim = 5;
    QVERIFY(refused(bad, "geoms[1] (geom 'ball').condim", "got 5"));
    bad = spec;
    bad.geoms[1].friction[0] = -0.5;
    QVERIFY(refused(bad, "geoms[1] (geom 'ball').friction", ">= 0"));
    // a mesh: its hull flat, open, not convex, not around its origin; vertices on a sphere
    bad = spec;
    bad.geoms[1].type = art::GeomSpec::Type::Mesh;
    bad.geoms[1].vertices = {{0.1, 0, 0}, {0, 0.1, 0}, {-0.1, -0.1, 0}, {0, 0, 0.1}};
    bad.geoms[1].faces = {{{0, 2, 1}}, {{0, 1, 3}}, {{1, 2, 3}}, {{2, 0, 3}}};
    QVERIFY(refused(bad, "geoms[1] (geom 'ball').vertices", "lie inside its hull"));  // the origin on a face
    bad.geoms[1].position.z() += 0.02;
    for (art::Vec3& v : bad.geoms[1].vertices) v.z() -= 0.02;
    QVERIFY_THROWS_NO_EXCEPTION(art::compile(bad));
    art::ModelSpec flat = bad;
    flat.geoms[1].vertices[3].z() = -0.02;
    QVERIFY(refused(flat, "geoms[1] (geom 'ball').vertices", "flat or degenerate"));
    art::ModelSpec open = bad;
    open.geoms[1].faces.pop_back();
    QVERIFY(refused(open, "geoms[1] (geom 'ball').faces", "close the hull"));
    art::ModelSpec dent = bad;
    dent.geoms[1].vertices.push_back({0.01, 0.01, 0});  // inside, but made a face's corner
    dent.geoms[1].faces = {{{0, 2, 1}}, {{0, 1, 4}}, {{1, 3, 4}}, {{4, 3, 0}}, {{1, 2, 3}}, {{2, 0, 3}}};
    QVERIFY(refused(dent, "geoms[1] (geom 'ball').faces", "not a convex hull"));
    bad = spec;
    bad.geoms[1].vertices = {{0.1, 0, 0}};
    QVERIFY(refused(bad, "geoms[1] (geom 'ball').vertices", "only a mesh"));
    bad = spec;
    bad.contactExcludes.push_back({"", 0, 7});
    QVERIFY(refused(bad, "contact_excludes[0].body2", "names no body"));
    bad = spec;
    bad.contacts.push_back({0, art::Vec3::Zero(), 0.1});
    QVERIFY(refused(bad, "geoms", "one contact model"));
  }

  // geoms, pairs and excludes through the Articulate format and back, and the same contacts
  void geomsRoundTripThroughTheArticulateFormat() {
    const art::ModelSpec spec = mjcf(R"(<mujoco><option><flag filterparent='disable'/></option>
      <asset><mesh name='rock' vertex='0.05 0.01 0  -0.04 0.03 0.01  0.01 -0.05 0.02  0 0.01 0.045  -0.01 -0.02 -0.04  0.03 0.04 -0.02'/></asset><worldbody>
      <geom name='floor' type='plane' size='1 1 0.1' friction='0.6'/>
      <body name='a' pos='0 0 0.09' euler='10 20 30'><freejoint/><geom name='ball' size='0.1' condim='4' priority='2' solmix='0.5' margin='0.01' gap='0.002'/>
        <geom type='box' size='0.05 0.04 0.03' pos='0.1 0 0' contype='2' conaffinity='0' solref='-1000 -30' solimp='0.8 0.9 0.01 0.4 3'/></body>
      <body name='b' pos='0.3 0 0.05'><freejoint/><geom type='capsule' size='0.04 0.1' euler='0 90 0'/></body>
      <body name='c' pos='-0.3 0 0.03'><freejoint/><geom type='mesh' mesh='rock' euler='5 10 0'/></body>
      </worldbody><contact><pair geom1='ball' geom2='floor' condim='6' friction='0.5 0.4 0.01 0.001 0.002'/><exclude body1='a' body2='b'/></contact></mujoco>)");
    QCOMPARE(spec.geoms.size(), std::size_t(5));
    QVERIFY(spec.geoms[4].type == art::GeomSpec::Type::Mesh && spec.geoms[4].vertices.size() == 6);
    art::Diagnostics problems;
    art::ModelSpec back;
    art::specFromJson(nlohmann::json::parse(art::specToJson(spec).dump()), back, problems);
    QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().message.c_str());
    QVERIFY(back.geoms == spec.geoms);
    QVERIFY(back.contactPairs == spec.contactPairs);
    QVERIFY(back.contactExcludes == spec.contactExcludes);
    QVERIFY(back.physics == spec.physics);
    // the same contacts, named alike ("a#2": the box, the second geom of body a)
    const art::Model m1 = art::compile(spec), m2 = art::compile(back);
    art::Data d1(m1), d2(m2);
    art::SoftConstraintData s1(m1), s2(m2);
    art::softConstraintRows(m1, d1, s1, m1.q0, m1.qd0);
    art::softConstraintRows(m2, d2, s2, m2.q0, m2.qd0);
    QVERIFY(!s1.contacts.empty());
    QCOMPARE(s1.contacts.size(), s2.contacts.size());
    for (std::size_t k = 0; k < s1.contacts.size(); ++k) {
      QCOMPARE(s1.contacts[k].dist, s2.contacts[k].dist);
      QCOMPARE(art::geomName(m1, s1.contacts[k].geom2), art::geomName(m2, s2.contacts[k].geom2));
    }
    QCOMPARE(art::geomName(m1, 2), std::string("a#2"));
    // a mesh written by hand as its vertices alone takes their hull (qhull)
    nlohmann::json doc = nlohmann::json::parse(art::specToJson(spec).dump());
    doc["geoms"][4].erase("faces");
    art::ModelSpec hand;
    art::specFromJson(doc, hand, problems);
    QVERIFY(problems.empty());
    QCOMPARE(hand.geoms[4].faces.size(), spec.geoms[4].faces.size());
    QVERIFY_THROWS_NO_EXCEPTION(art::compile(hand));
  }
};

ARTICULATE_TEST_MAIN(TestCollision)
#include "test_collision.moc"
