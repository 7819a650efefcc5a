// The MJCF reader (formats/mjcf.h) on files written here: what each part becomes (joints,
// limits, damping, friction, options, several joints on a body, ball joints, joint equalities,
// geoms as drawings and ground contact, meshes), the import report (newer MuJoCo attributes and
// elements Articulate does not model, named), bad input (each message names the file, the line
// and the element), and a floating MJCF body that lands on the world's plane and rests there.
// Its dynamics against MuJoCo's own compiler are test_mjcf_mujoco's.
#include <QtTest>

#include "test_main.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "articulate/dynamics/contact.h"
#include "articulate/dynamics/dynamics.h"
#include "articulate/formats/document.h"
#include "articulate/formats/files.h"
#include "articulate/formats/json.h"
#include "articulate/formats/articulate.h"
#include "articulate/formats/mjcf.h"
#include "articulate/formats/spatial_v2.h"
#include "articulate/formulations/tree_simulation.h"
#include "articulate/model/appearance.h"
#include "articulate/model/model.h"

using namespace art;

namespace {

void writeText(const QString& path, const std::string& text) {
  std::ofstream(path.toStdString(), std::ios::binary) << text;
}

std::string allNotes(const MjcfImport& r) {
  std::string out;
  for (const std::string& n : r.notes) out += n + "\n";
  return out;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

class TestMjcf : public QObject {
  Q_OBJECT

 private slots:
  void jointsOptionsAndLimits() {
    MjcfImport r;
    const ModelSpec spec = specFromMjcf(
        "<mujoco model='arm'><option timestep='0.005' gravity='0 0 -3' integrator='Euler'/>"
        "<default><joint damping='0.5'/></default><worldbody>"
        "<body name='upper' pos='0 0 1'><joint name='shoulder' axis='0 1 0' range='-90 45' ref='30' frictionloss='0.2' armature='0.02'/>"
        "<geom type='sphere' size='0.1'/>"
        "<body name='slider' pos='0.5 0 0'><joint name='rail' type='slide' axis='1 0 0' range='-0.1 0.2' limited='false'/>"
        "<inertial pos='0 0 0' mass='2' diaginertia='0.1 0.1 0.1'/></body></body></worldbody></mujoco>",
        "arm.xml", &r);
    QCOMPARE(spec.name, std::string("arm"));
    QCOMPARE(spec.simulation.dt, 0.005);
    QVERIFY(spec.simulation.integrator == Integrator::MujocoEuler);
    // a file whose <option> names neither means MuJoCo's defaults: Euler at 2 ms (not the
    // Articulate format's rk4 at 1 ms)
    const ModelSpec plain = specFromMjcf("<mujoco><option gravity='0 0 -3'/><worldbody><body><joint/><geom size='0.1'/></body></worldbody></mujoco>", "plain.xml");
    QCOMPARE(plain.simulation.dt, 0.002);
    QVERIFY(plain.simulation.integrator == Integrator::MujocoEuler);
    QVERIFY(spec.physics.constraints == PhysicsSpec::Constraints::Soft);
    QVERIFY(spec.gravity && *spec.gravity == Vec3(0, 0, -3));
    QCOMPARE(spec.bodies.size(), std::size_t{2});
    const BodySpec& upper = spec.bodies[0];
    QVERIFY(upper.joint.type == JointType::Ry);
    QCOMPARE(upper.damping, 0.5);
    QCOMPARE(upper.friction, 0.2);
    QCOMPARE(upper.armature, 0.02);
    QVERIFY(upper.limits.lower && std::abs(*upper.limits.lower + M_PI / 2) < 1e-15);
    QVERIFY(upper.limits.upper && std::abs(*upper.limits.upper - M_PI / 4) < 1e-15);
    QVERIFY(std::abs(upper.q0 - M_PI / 6) < 1e-15);  // qpos0 is ref
    // the sphere's mass: 1000 kg/m^3 times its volume
    QVERIFY(std::abs(upper.inertia.mass - 1000 * 4 * M_PI * 0.001 / 3) < 1e-12);
    const BodySpec& slider = spec.bodies[1];
    QVERIFY(slider.joint.type == JointType::Px);
    QVERIFY(!slider.limits.lower && !slider.limits.upper);  // limited='false'
    QCOMPARE(slider.inertia.mass, 2.0);
    QCOMPARE(r.jointNames, (std::vector<std::string>{"shoulder", "rail"}));
    // at q = ref the body is where the file puts it: the slider's origin at (0.5, 0, 1)
    const Model m = compile(spec);
    Data d(m);
    const BodyPointMotion p = bodyPointMotion(m, d, 1, Vec3::Zero(), m.q0, Eigen::VectorXd::Zero(m.nv()));
    QVERIFY2((p.position - Vec3(0.5, 0, 1)).norm() < 1e-14, qPrintable(QString::number((p.position - Vec3(0.5, 0, 1)).norm())));
  }

  void severalJointsBallsAndEqualities() {
    MjcfImport r;
    const ModelSpec spec = specFromMjcf(
        "<mujoco><compiler autolimits='true'/><worldbody><body name='hip'><joint name='a' axis='1 0 0'/><joint name='b' axis='0 1 0' range='-1 1'/>"
        "<geom type='box' size='0.1 0.1 0.1'/><body name='knee' pos='0 0 -0.5'>"
        "<joint name='c' type='ball' pos='0.01 0.02 0.03' range='0 60' damping='0.4' armature='0.05' frictionloss='0.2'/>"
        "<geom type='capsule' fromto='0 0 0 0 0 -0.4' size='0.05'/></body></body></worldbody>"
        "<equality><joint joint1='b' joint2='a' polycoef='0.1 2 0 0 0'/></equality></mujoco>",
        "legs.xml", &r);
    // hip: two bodies, the first without mass; knee: one ball joint
    QCOMPARE(spec.bodies.size(), std::size_t{3});
    QCOMPARE(spec.bodies[0].name, std::string("hip_a"));
    QCOMPARE(spec.bodies[0].inertia.mass, 0.0);
    QCOMPARE(spec.bodies[1].name, std::string("hip"));
    QVERIFY(spec.bodies[1].inertia.mass > 0);
    QCOMPARE(r.jointNames, (std::vector<std::string>{"a", "b", "c"}));
    const BodySpec& knee = spec.bodies[2];
    QCOMPARE(knee.name, std::string("knee"));
    QVERIFY(knee.joint.type == JointType::Ball);
    QCOMPARE(knee.damping, 0.4);
    QCOMPARE(knee.armature, 0.05);
    QCOMPARE(knee.friction, 0.0);  // not on a ball joint: noted
    QVERIFY(knee.limits.empty());
    // the joint turns the body about its pos: the body's origin (MuJoCo's), at -pos from the
    // joint's centre, goes round it, and the centre stays
    const Model m = compile(spec);
    QCOMPARE(m.nq(), 6);
    QCOMPARE(m.nv(), 5);
    Data d(m);
    Eigen::VectorXd q = m.q0;
    const Eigen::Quaterniond turn(Eigen::AngleAxisd(0.7, Vec3(0.2, -0.5, 0.4).normalized()));
    q.segment<4>(2) << turn.w(), turn.x(), turn.y(), turn.z();
    const Vec3 pos(0.01, 0.02, 0.03), centre = Vec3(0, 0, -0.5) + pos;
    const Eigen::VectorXd qd = Eigen::VectorXd::Zero(m.nv());
    const BodyPointMotion origin = bodyPointMotion(m, d, 2, -pos, q, qd);
    QVERIFY2((origin.position - (centre - turn * pos)).norm() < 1e-15, qPrintable(QString::number((origin.position - (centre - turn * pos)).norm())));
    QVERIFY((bodyPointMotion(m, d, 2, Vec3::Zero(), q, qd).position - centre).norm() < 1e-15);
    // the joint equality: q_b - ref_b = 0.1 + 2 (q_a - ref_a), a soft row (test_mjcf_mujoco.cpp)
    QVERIFY(spec.constraints.empty());
    QCOMPARE(spec.equalities.size(), std::size_t{1});
    const EqualitySpec& c = spec.equalities[0];
    QVERIFY(c.type == EqualitySpec::Type::Joint && c.obj1 == 1 && c.obj2 == 0 && c.poly[0] == 0.1 && c.poly[1] == 2 &&
            c.poly[2] == 0 && c.ref1 == spec.bodies[1].q0 && c.ref2 == spec.bodies[0].q0);
    // the joint equality couples b to a and leaves b's range (issue 32)
    QCOMPARE(spec.bodies[1].limits.lower.value_or(0), -M_PI / 180);  // degrees
    QCOMPARE(spec.bodies[1].limits.upper.value_or(0), M_PI / 180);
    const std::string notes = allNotes(r);
    QVERIFY2(has(notes, "the range of 1 ball joint(s) is not used"), notes.c_str());
    QVERIFY2(has(notes, "the frictionloss of 1 ball joint(s) is not used"), notes.c_str());
    QVERIFY2(!has(notes, "the ranges and frictionloss of"), notes.c_str());
    QVERIFY2(has(notes, "1 body(ies) without joints") == false, notes.c_str());
  }

  // a <frame> (newer MuJoCo) places what it holds: the same robot with the frame's pose
  // applied by hand to its geom and child body has the same bodies and joint-space inertia
  void framesPlaceTheirContents() {
    MjcfImport r;
    const ModelSpec framed = specFromMjcf(
        "<mujoco><default><default class='big'><geom size='0.2'/></default></default><worldbody><body name='a'>"
        "<joint axis='0 1 0'/><geom size='0.1'/>"
        "<frame pos='0.5 0 0' euler='0 0 90' childclass='big'><geom type='box' size='0.1 0.2 0.05' pos='0.1 0 0'/>"
        "<body name='b' pos='0.3 0 0'><joint axis='1 0 0'/><geom/><joint name='second'/></body>"
        "<frame pos='0 0 0.1'><geom pos='0.2 0 0'/></frame></frame></body></worldbody></mujoco>",
        "framed.xml", &r);
    const ModelSpec byHand = specFromMjcf(
        "<mujoco><worldbody><body name='a'><joint axis='0 1 0'/><geom size='0.1'/>"
        "<geom type='box' size='0.1 0.2 0.05' pos='0.5 0.1 0' euler='0 0 90'/>"
        "<body name='b' pos='0.5 0.3 0' euler='0 0 90'><joint axis='1 0 0'/><geom size='0.2'/><joint name='second'/></body>"
        "<geom size='0.2' pos='0.5 0.2 0.1'/></body></worldbody></mujoco>",
        "by_hand.xml");
    QCOMPARE(framed.bodies.size(), byHand.bodies.size());
    const Model mf = compile(framed), mh = compile(byHand);
    Data df(mf), dh(mh);
    const Eigen::VectorXd q = Eigen::VectorXd::LinSpaced(mf.nq(), 0.3, -0.7);
    const Eigen::MatrixXd Hf = crba(mf, df, q), Hh = crba(mh, dh, q);
    QVERIFY2((Hf - Hh).cwiseAbs().maxCoeff() < 1e-14, qPrintable(QString::number((Hf - Hh).cwiseAbs().maxCoeff())));
    QVERIFY(Hf(0, 0) > 0.1);
    const std::string notes = allNotes(r);
    QVERIFY2(!has(notes, "frame"), notes.c_str());
    // a joint directly inside a frame is not a body's joint: named, not silently dropped
    MjcfImport lost;
    specFromMjcf("<mujoco><worldbody><body><joint/><frame><joint name='x'/></frame><geom size='0.1'/></body></worldbody></mujoco>", "lost.xml", &lost);
    QVERIFY2(has(allNotes(lost), "1 <joint> element(s) inside a <frame>"), allNotes(lost).c_str());
  }

  // <keyframe><key>: Articulate keyframes with q = qpos, and MuJoCo's free-joint velocity (world
  // linear, local angular) turned into the body-coordinate [w; v]: the body then moves as the
  // key says (its origin's world velocity is the key's, its angular velocity the key's local one)
  void keyframesBecomeKeyframes() {
    MjcfImport r;
    const ModelSpec spec = specFromMjcf(
        "<mujoco><worldbody><body name='torso' pos='0 0 1'><freejoint/><geom size='0.1'/>"
        "<body name='arm' pos='0.2 0 0'><joint name='elbow' axis='0 1 0' ref='0.3'/><geom size='0.05'/>"
        "<body name='hand' pos='0.2 0 0'><joint type='ball'/><geom size='0.03'/></body></body></body></worldbody>"
        "<actuator><motor joint='elbow'/><cylinder joint='elbow'/></actuator>"
        "<keyframe><key name='wave' time='1.5' qpos='0.1 0.2 0.9 0.9 0.1 0.3 0.2 -0.4 0.8 0.6 0 0'"
        " qvel='1 2 3 0.4 -0.5 0.6 0.7 0.1 0.2 0.3' ctrl='1 -2' act='0.5'/><key/><key name='wave'/></keyframe></mujoco>",
        "keys.xml", &r);
    QCOMPARE(spec.keyframes.size(), std::size_t{3});
    const KeyframeSpec& wave = spec.keyframes[0];
    QCOMPARE(wave.name, std::string("wave"));
    QCOMPARE(wave.time, 1.5);
    QCOMPARE(spec.keyframes[1].name, std::string("key2"));
    QCOMPARE(spec.keyframes[2].name, std::string("wave_2"));
    const Model m = compile(spec);
    QCOMPARE(wave.q.size(), Eigen::Index(m.nq()));
    QCOMPARE(wave.q(7), -0.4);  // the elbow's qpos
    // a key without qpos is the model's initial state (qpos0: the ref, the file's pose)
    QVERIFY(spec.keyframes[1].q == m.q0);
    QVERIFY(spec.keyframes[1].qd.isZero(0));
    Data d(m);
    const BodyPointMotion torso = bodyPointMotion(m, d, 0, Vec3::Zero(), wave.q, wave.qd);
    QVERIFY2((torso.velocity - Vec3(1, 2, 3)).norm() < 1e-14, qPrintable(QString::number((torso.velocity - Vec3(1, 2, 3)).norm())));
    QVERIFY((wave.qd.segment<3>(0) - Vec3(0.4, -0.5, 0.6)).norm() == 0);  // angular, local as MuJoCo's
    QCOMPARE(wave.qd(6), 0.7);  // the elbow's qvel
    QVERIFY((wave.qd.segment<3>(7) - Vec3(0.1, 0.2, 0.3)).norm() == 0);  // the ball's, as MuJoCo's
    // a key's controls and activations (one per actuator with dynamics); none: zero
    QVERIFY(wave.ctrl == Eigen::Vector2d(1, -2));
    QVERIFY(wave.act == Eigen::VectorXd::Constant(1, 0.5));
    QCOMPARE(spec.keyframes[1].ctrl.size(), Eigen::Index(0));
    // a qpos of the wrong size is refused with the file, line and element
    try {
      specFromMjcf("<mujoco><worldbody><body><joint/><geom size='0.1'/></body></worldbody>\n<keyframe><key qpos='1 2'/></keyframe></mujoco>", "bad.xml");
      QFAIL("a qpos of 2 numbers for 1 joint was accepted");
    } catch (const FormatError& e) {
      QVERIFY2(has(e.what(), "bad.xml:2") && has(e.what(), "<key") && has(e.what(), "qpos"), e.what());
    }
  }

  // a joint whose start (ref) or a keyframe's qpos lies past its range starts there, as in
  // MuJoCo: its soft limit pushes it back over the first steps (exact stops, which would snap it
  // in the first step and add energy, clamp such starts: URDF's, test_urdf.cpp)
  void startsOutsideTheRangeAreKept() {
    MjcfImport r;
    const ModelSpec spec = specFromMjcf(
        "<mujoco><compiler angle='radian'/><worldbody><body><joint name='elbow' range='0.5 1'/><geom size='0.1' pos='0.2 0 0'/>"
        "<body><joint name='wrist' range='-1 1' ref='0.2'/><geom size='0.1'/></body></body></worldbody>"
        "<keyframe><key name='high' qpos='2 0.5'/><key qpos='0.7 -3'/></keyframe></mujoco>",
        "arm.xml", &r);
    QCOMPARE(spec.bodies[0].q0, 0.0);
    QCOMPARE(spec.bodies[1].q0, 0.2);
    QCOMPARE(spec.keyframes[0].q(0), 2.0);
    QCOMPARE(spec.keyframes[1].q(1), -3.0);
    QVERIFY2(!has(allNotes(r), "outside its limits"), allNotes(r).c_str());
    const Model m = compile(spec);
    Simulation sim(m, simulationOptions(spec));
    for (int k = 0; k < 1000; ++k) QVERIFY(sim.step());
    QVERIFY2(sim.q()(0) > 0.5 - 0.01, qPrintable(QString::number(sim.q()(0))));  // pushed back to its range
  }

  void reportNamesWhatIsSkipped() {
    MjcfImport r;
    specFromMjcf("<mujoco><size memory='10M'/><option sleep_tolerance='1e-3'/><visual><global realtime='1'/></visual>"
                 "<worldbody><body><joint actuatorfrcrange='-1 1' armature='0.1' stiffness='3'/><geom size='0.1'/></body></worldbody>"
                 "<actuator><adhesion body='b' ctrlrange='0 1'/></actuator>"
                 "<sensor><jointpos joint='x'/></sensor></mujoco>",
                 "new.xml", &r);
    const std::string notes = allNotes(r);
    for (const char* part : {"skipped on <joint>: actuatorfrcrange", "skipped on <option>: sleep_tolerance", "<size>", "<visual>",
                             "1 <adhesion> actuator(s) (they act through contacts) not modelled", "1 <sensor> element(s) not modelled"})
      QVERIFY2(has(notes, part), (std::string(part) + " is not in:\n" + notes).c_str());
  }

  // (a height field keeps a file on Articulate's ground-contact points, whose conversion this
  // checks: body-body contact has no height field)
  void geomsDrawAndTouchTheGround() {
    QTemporaryDir tmp;
    // a small closed OBJ mesh: a tetrahedron
    writeText(tmp.filePath("tet.obj"), "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n");
    const QString path = tmp.filePath("drop.xml");
    writeText(path,
          "<mujoco><asset><mesh name='tet' file='tet.obj' scale='0.1 0.1 0.1'/><material name='red' rgba='1 0 0 1'/>"
          "<hfield name='hills' nrow='2' ncol='2' size='1 1 0.1 0.1'/></asset>"
          "<worldbody><geom name='floor' type='plane' size='3 3 0.1' friction='0.8'/><geom type='hfield' hfield='hills' pos='9 9 0'/>"
          "<body name='thing' pos='0 0 1'><freejoint/><geom type='sphere' size='0.05' material='red'/>"
          "<geom type='capsule' fromto='0 0 0 0.2 0 0' size='0.02'/><geom type='box' size='0.1 0.05 0.02' pos='0 0 -0.1'/>"
          "<geom type='mesh' mesh='tet'/><geom type='box' size='0.3 0.3 0.3' group='3' contype='0' conaffinity='0' mass='0'/>"
          "</body></worldbody></mujoco>");
    MjcfImport r;
    const ModelSpec spec = loadMjcf(path.toStdString(), &r);
    QVERIFY(r.floating);
    QCOMPARE(spec.ground.friction, 0.8);
    // the floor plane is drawn as a chequered floor over its extent (3 m each way)
    QCOMPARE(spec.baseAppearance, nlohmann::json::parse("[\"tiles\", [[-3, 3], [-3, 3], [0, 0]], 0.3]"));
    // 1 sphere + 2 capsule ends + 8 box corners + the tetrahedron's 4 vertices; the group-3 box
    // does not collide (contype 0)
    QCOMPARE(spec.contacts.size(), std::size_t{1 + 2 + 8 + 4});
    QCOMPARE(spec.contacts[0].radius, 0.05);
    QCOMPARE(spec.contacts[1].radius, 0.02);
    // the capsule's ends along its z, which MuJoCo turns from `to` to `from`: the 0.2 end first
    QVERIFY2((spec.contacts[1].point - Vec3(0.2, 0, 0)).norm() < 1e-15 && spec.contacts[2].point.norm() < 1e-15,
             qPrintable(QString("%1 %2").arg(spec.contacts[1].point.x()).arg(spec.contacts[2].point.x())));
    // drawn: sphere (red), capsule, box, mesh; not the group-3 box
    const nlohmann::json& a = spec.bodies[0].appearance;
    QCOMPARE(a.size(), std::size_t{4});
    QCOMPARE(a[0][1], nlohmann::json({1.0, 0.0, 0.0}));
    QCOMPARE(a[3][2], nlohmann::json("mesh"));
    QCOMPARE(a[3][3]["file"].get<std::string>(), QDir(tmp.path()).absoluteFilePath("tet.obj").toStdString());
    QVERIFY2(has(allNotes(r), "15 ground-contact point(s)"), allNotes(r).c_str());
    // dropped, it lands and rests on its box, sphere and capsule, the ground carrying its weight
    const Model m = compile(spec);
    Simulation sim(m, SimulationOptions{});
    QVERIFY2(sim.advanceTo(2.0), sim.divergence() ? sim.divergence()->message.c_str() : "");
    const Eigen::Matrix3Xd& f = sim.contactForces();
    const double weight = spec.bodies[0].inertia.mass * 9.81;
    QVERIFY2(std::abs(f.row(2).sum() - weight) < 1e-3 * weight, qPrintable(QString::number(f.row(2).sum())));
    QVERIFY(sim.energy().kinetic < 1e-6);
    QVERIFY(sim.q()(2) > 0.11 && sim.q()(2) < 0.13);  // the box's bottom (0.12 below the origin) on the ground
  }

  // fuzz_mjcf: a muscle without a length range is found on the compiled model while reading;
  // a name that cannot compile (a line break, a control character) escaped the reader as a ModelError,
  // not the file's error
  void lengthRangeOfAModelThatDoesNotCompile() {
    std::ifstream in(ARTICULATE_MODELS_DIR "/robots/mjcf_muscle_arm/muscle_arm.xml");
    std::stringstream text;
    text << in.rdbuf();
    std::string xml = text.str();
    const std::string name = "<muscle name='SF'";
    QVERIFY(xml.find(name) != std::string::npos);
    xml.replace(xml.find(name), name.size(), "<muscle name='S\nF'");  // a name across two lines
    try {
      specFromMjcf(xml, "arm.xml");
      QFAIL("a control character in a name was read");
    } catch (const FormatError& e) {
      QVERIFY2(std::string(e.what()).find("arm.xml") != std::string::npos, e.what());
    }
  }

  // fuzz_mjcf: MuJoCo takes an rgba past 1 (OpenGL draws it clamped), which became a drawing
  // colour the Articulate format refuses, so the imported model did not save and read back
  void rgbaOutsideTheUnitRangeIsClamped() {
    MjcfImport r;
    const ModelSpec spec = specFromMjcf(
        "<mujoco><asset><material name='m' rgba='-1 0.5 0.5 1'/></asset><worldbody>\n<geom type='sphere' size='1' rgba='0.6 0.6 2.6 1'/>"
        "<body><joint/><geom size='0.1' material='m'/></body></worldbody></mujoco>", "bright.xml", &r);
    const std::string notes = allNotes(r);
    QVERIFY2(has(notes, "bright.xml:2: <geom>: rgba '0.6 0.6 2.6 1' is outside [0, 1]: drawn clamped to it"), notes.c_str());
    QVERIFY2(has(notes, "rgba '-1 0.5 0.5 1' is outside [0, 1]"), notes.c_str());
    Diagnostics problems;
    const std::optional<LoadedModel> back = readModelDocument(parseJsonText(formatJson(specToJson(spec)), "saved.json"), problems);
    QVERIFY(back);
    QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().text().c_str());
    for (const Primitive& p : interpretAppearance(spec.baseAppearance, Vec3::Ones(), true, "", nullptr))
      QCOMPARE(p.colour, Vec3(0.6, 0.6, 1.0));
    for (const Primitive& p : interpretAppearance(spec.bodies[0].appearance, Vec3::Ones(), false, "", nullptr))
      QCOMPARE(p.colour, Vec3(0.0, 0.5, 0.5));
  }

  // <site> elements are sites of their body (issue 32: drawn small, with a toggle): the
  // position in the owner's frame (through merged and rotated frames), the first size, the
  // colour and alpha, defaults from classes and materials, world sites on the base; they
  // round-trip through the Articulate format
  void sitesAreRead() {
    const ModelSpec spec = specFromMjcf(
        "<mujoco><default><site size='0.02'/><default class='tip'><site size='0.03' rgba='0 1 0 1'/></default></default>"
        "<asset><material name='m' rgba='0 0 1 0.5'/></asset><worldbody><site name='anchor' pos='1 2 3'/>"
        "<body name='arm' pos='0 0 1' euler='0 0 90'><joint/><geom size='0.1'/><site name='elbow' pos='0.5 0 0' class='tip'/>"
        "<body name='cap' pos='0 0 0.2'><site name='top' fromto='0 0 0 0 0 0.4' material='m' size='0.01 0.2'/><geom size='0.05'/></body>"
        "</body></worldbody></mujoco>", "sites.xml", nullptr);
    QCOMPARE(spec.sites.size(), std::size_t{3});
    const SiteSpec& anchor = spec.sites[0];
    QVERIFY(anchor.name == "anchor" && anchor.body == -1 && anchor.position == Vec3(1, 2, 3));
    QVERIFY(anchor.size == 0.02 && anchor.colour == Vec3(0.5, 0.5, 0.5) && anchor.opacity == 1);
    const SiteSpec& elbow = spec.sites[1];
    QVERIFY(elbow.name == "elbow" && elbow.body == spec.findBody("arm") && elbow.size == 0.03);
    QCOMPARE(elbow.colour, Vec3(0, 1, 0));
    QVERIFY((elbow.position - Vec3(0.5, 0, 0)).norm() < 1e-15);  // in arm's own frame
    const SiteSpec& top = spec.sites[2];
    QCOMPARE(spec.findBody("cap"), -1);  // no joint of its own: merged into arm, with its site
    QCOMPARE(top.body, spec.findBody("arm"));
    QVERIFY(top.size == 0.01 && top.colour == Vec3(0, 0, 1) && top.opacity == 0.5);
    // the same point in the world, wherever the body went
    const Model m = compile(spec);
    Data d(m);
    const Vec3 world = bodyPointMotion(m, d, top.body, top.position, m.q0, Eigen::VectorXd::Zero(m.nv())).position;
    QVERIFY2((world - Vec3(0, 0, 1.4)).norm() < 1e-12, qPrintable(QString::number((world - Vec3(0, 0, 1.4)).norm())));
    Diagnostics problems;
    const std::optional<LoadedModel> back = readModelDocument(parseJsonText(formatJson(specToJson(spec)), "saved.json"), problems);
    QVERIFY(back && problems.empty());
    QVERIFY(back->spec.sites == spec.sites);
    // checked by path
    nlohmann::json doc = nlohmann::json::parse(formatJson(specToJson(spec)));
    doc["sites"][1]["size"] = -1;
    problems.clear();
    QVERIFY(!readModelDocument(doc, problems));
    QCOMPARE(QString::fromStdString(problems.front().text()), QString("sites[1].size: must be > 0"));
  }

  // an rgba alpha below 1 draws see-through: an "opacity" instruction scoped to its geom,
  // checked like every instruction, and left out of a spatial_v2 export with a note
  void rgbaAlphaIsOpacity() {
    const ModelSpec spec = specFromMjcf("<mujoco><worldbody><body><joint/><geom size='0.1' rgba='1 0 0 0.3'/>"
                                        "<geom size='0.1' pos='1 0 0'/></body></worldbody></mujoco>", "glass.xml", nullptr);
    const std::vector<Primitive> shapes = interpretAppearance(spec.bodies[0].appearance, Vec3::Ones(), false, "", nullptr);
    QCOMPARE(shapes.size(), std::size_t{2});
    QCOMPARE(shapes[0].opacity, 0.3);
    QCOMPARE(shapes[1].opacity, 1.0);
    Diagnostics problems;
    interpretAppearance(nlohmann::json::parse(R"(["opacity", 1.5, "sphere", [0, 0, 0], 1])"), Vec3::Ones(), false,
                        "bodies[0].appearance", &problems);
    QVERIFY(!problems.empty());
    QCOMPARE(QString::fromStdString(problems.front().text()),
             QString("bodies[0].appearance[0]: 'opacity' must be a number in [0, 1]"));
    std::vector<std::string> notes;
    const auto sv2 = specToSpatialV2(spec, &notes);
    QVERIFY(sv2.dump().find("opacity") == std::string::npos);
    QVERIFY(std::any_of(notes.begin(), notes.end(), [](const std::string& n) {
      return n == "1 opacity instruction(s) are not stored: showmotion draws every shape opaque";
    }));
  }

  void missingMeshIsNotedAndTheBodyStays() {
    MjcfImport r;
    const ModelSpec spec = specFromMjcf("<mujoco><asset><mesh file='nowhere.stl'/></asset><worldbody><body name='b'><joint/>"
                                        "<geom type='mesh' mesh='nowhere'/><geom size='0.1'/></body></worldbody></mujoco>",
                                        "m.xml", &r);
    QCOMPARE(spec.bodies.size(), std::size_t{1});
    const std::string notes = allNotes(r);
    QVERIFY2(has(notes, "m.xml:1: <mesh>: mesh 'nowhere.stl' is not used") && has(notes, "nowhere.stl"), notes.c_str());
  }

  // a mesh given in the XML (MuJoCo's car.xml): without faces, its vertices' convex hull (a
  // cube's 8 corners and a point inside: 12 triangles, the point dropped), with faces, those
  // faces (an octahedron); each drawn, touching the ground, and weighing as MuJoCo 2.2.2 weighs
  // a mesh at its density of 1000 kg/m^3 (its volume with exactmeshinertia, else its
  // equivalent inertia box's). A list of the wrong length or a face out of range is refused naming
  // the line and the element; a flat hull is a note, and its geom adds no mass
  void xmlMeshesAreBuilt() {
    MjcfImport r;
    const ModelSpec spec = specFromMjcf(
        "<mujoco><asset>\n"
        "<mesh name='box' scale='2 1 1' vertex='0 0 0  1 0 0  0 1 0  1 1 0  0 0 1  1 0 1  0 1 1  1 1 1  0.5 0.5 0.5'/>\n"
        "<mesh name='octa' vertex='1 0 0  -1 0 0  0 1 0  0 -1 0  0 0 1  0 0 -1'\n"
        "      face='0 2 4  2 1 4  1 3 4  3 0 4  2 0 5  1 2 5  3 1 5  0 3 5'/>\n"
        "<mesh name='flat' vertex='0 0 0  1 0 0  0 1 0  1 1 0'/>\n"
        "</asset><worldbody><geom type='plane' size='5 5 0.1'/>\n"
        "<body name='chassis' pos='0 0 1'><freejoint/><geom type='mesh' mesh='box'/></body>\n"
        "<body name='gem' pos='3 0 1'><freejoint/><geom type='mesh' mesh='octa'/><geom type='mesh' mesh='flat' contype='0' conaffinity='0'/></body>\n"
        "</worldbody></mujoco>",
        "car.xml", &r);
    QCOMPARE(spec.bodies.size(), std::size_t{2});
    QVERIFY(std::abs(spec.bodies[0].inertia.mass - 2000) < 1e-9 * 2000);          // 2 x 1 x 1 m
    // MuJoCo 3.3.8 weighs a mesh by its volume (by default, "legacy": each triangle's pyramid to
    // the faces' centroid counted unsigned, here the true volume): the octahedron
    // |x|+|y|+|z| <= 1 holds 4/3 m^3 (2.2.2 weighed its equivalent inertia box, 1314.5 kg)
    QVERIFY(std::abs(spec.bodies[1].inertia.mass - 1000 * 4.0 / 3) < 1e-9 * 2000);
    const std::string text = "<mujoco><compiler exactmeshinertia='true'/><asset><mesh name='octa' vertex='1 0 0  -1 0 0  0 1 0  0 -1 0  0 0 1  0 0 -1'/>"
                             "</asset><worldbody><body><freejoint/><geom type='mesh' mesh='octa'/></body></worldbody></mujoco>";
    QVERIFY(std::abs(specFromMjcf(text, "exact.xml").bodies[0].inertia.mass - 4000.0 / 3) < 1e-9 * 2000);  // 4/3 m^3
    const auto triangles = [&](int body) {
      std::size_t n = 0;
      for (const Primitive& p : interpretAppearance(spec.bodies[static_cast<std::size_t>(body)].appearance, Vec3::Ones(), false, "", nullptr))
        if (p.kind == Primitive::Kind::Triangles) n += p.triangles.size();
      return n;
    };
    QCOMPARE(triangles(0), std::size_t{12});
    QCOMPARE(triangles(1), std::size_t{8});
    // the chassis collides as its hull (body-body contact): the box's 8 corners, the inner
    // point not among them, 12 triangles
    std::size_t onChassis = 0;
    for (const GeomSpec& g : spec.geoms)
      if (g.body == 0 && g.type == GeomSpec::Type::Mesh) onChassis += g.vertices.size() + 100 * g.faces.size();
    QCOMPARE(onChassis, std::size_t{8 + 100 * 12});
    const std::string notes = allNotes(r);
    QVERIFY2(has(notes, "car.xml:5: <mesh name='flat'>: mesh 'flat' is not used: its vertices span no volume"), notes.c_str());
    QVERIFY2(has(notes, "1 mesh geom(s) add no mass"), notes.c_str());
    for (const auto& [xml, message] : std::vector<std::pair<std::string, std::string>>{
             {"<mesh name='m' vertex='0 0 0  1 0 0  0 1'/>", "bad.xml:2: <mesh name='m'>: vertex needs 3 numbers per vertex, got 8 numbers"},
             {"<mesh name='m' vertex='0 0 0  1 0 0  0 1 0' face='0 1 3'/>", "bad.xml:2: <mesh name='m'>: face: '3' is not the index of one of its 3 vertices"},
             {"<mesh name='m' vertex='0 0 0  1 0 0  0 1 0' face='0 1'/>", "face needs 3 vertex indices per face, got 2 numbers"},
             {"<mesh vertex='0 0 0  1 0 0  0 1 0  0 0 1'/>", "a mesh given by its vertex list needs a name"},
             {"<mesh name='m' vertex='0 0 0  1 0 0  0 1 0  0 0 nan'/>", "vertex must be numbers"}}) {
      try {
        specFromMjcf("<mujoco><asset>\n" + xml + "</asset><worldbody><body><joint/><geom size='0.1'/></body></worldbody></mujoco>", "bad.xml");
        QFAIL(qPrintable(QString::fromStdString("accepted: " + xml)));
      } catch (const FormatError& e) {
        QVERIFY2(has(e.what(), message), e.what());
      }
    }
  }

  void loadDocumentReadsXml() {
    QTemporaryDir tmp;
    const QString path = tmp.filePath("pendulum.xml");
    writeText(path, "<mujoco><worldbody><body name='bob'><joint name='pivot'/><geom size='0.1' pos='0 0 -1'/></body></worldbody></mujoco>");
    const LoadedDocument doc = loadDocument(path.toStdString());
    const auto* lm = std::get_if<LoadedModel>(&doc);
    QVERIFY(lm);
    QCOMPARE(lm->format, std::string("mjcf"));
    QCOMPARE(lm->jointNames, std::vector<std::string>{"pivot"});
  }

  void badInputNamesTheElement_data() {
    QTest::addColumn<QString>("main");
    QTest::addColumn<QString>("other");  // written as other.xml beside it
    QTest::addColumn<QString>("expected");
    const QString body = "<worldbody><body name='b'><joint name='j'/><geom size='0.1'/></body></worldbody>";
    QTest::newRow("not xml") << "<mujoco><worldbody>" << "" << "not well-formed XML";
    QTest::newRow("not mujoco") << "<robot name='r'/>" << "" << "root element is <mujoco>, got <robot>";
    QTest::newRow("missing include") << "<mujoco><include file='gone.xml'/>" + body + "</mujoco>" << ""
                                     << "main.xml:1: <include>: cannot include 'gone.xml'";
    QTest::newRow("include cycle") << "<mujoco><include file='other.xml'/>" + body + "</mujoco>"
                                   << "<mujoco><include file='other.xml'/></mujoco>" << "other.xml:1: <include>: includes 'other.xml', which is already being included";
    QTest::newRow("include of a robot") << "<mujoco><include file='other.xml'/>" + body + "</mujoco>" << "<robot/>"
                                        << "included file '.*other.xml' holds <robot>, not <mujoco>";
    QTest::newRow("unknown joint type") << "<mujoco><worldbody><body>\n<joint name='j' type='spherical'/><geom size='1'/></body></worldbody></mujoco>"
                                        << "" << "main.xml:2: <joint name='j'>: unknown joint type 'spherical'";
    QTest::newRow("unknown geom type") << "<mujoco><worldbody><body><joint/><geom type='cone'/></body></worldbody></mujoco>" << ""
                                       << "<geom>: unknown geom type 'cone'";
    QTest::newRow("bad number") << "<mujoco><worldbody><body pos='0 zero 0'><joint/><geom size='1'/></body></worldbody></mujoco>" << ""
                                << "<body>: pos must be numbers, got '0 zero 0'";
    QTest::newRow("short quat") << "<mujoco><worldbody><body quat='1 0 0'><joint/><geom size='1'/></body></worldbody></mujoco>" << ""
                                << "<body>: quat needs 4 number\\(s\\), got 3";
    QTest::newRow("nested free joint") << "<mujoco><worldbody><body><joint/><geom size='1'/><body><freejoint/><geom size='1'/></body></body></worldbody></mujoco>"
                                       << "" << "<freejoint>: a free joint is allowed on a body of the world only";
    QTest::newRow("unknown class") << "<mujoco><worldbody><body><joint class='nope'/><geom size='1'/></body></worldbody></mujoco>" << ""
                                   << "<joint>: class 'nope' is not a <default> class";
    QTest::newRow("unknown mesh") << "<mujoco><worldbody><body><joint/><geom type='mesh' mesh='m'/></body></worldbody></mujoco>" << ""
                                  << "<geom>: mesh 'm' is not an <asset> mesh";
    QTest::newRow("zero sphere") << "<mujoco><worldbody><body><joint/><geom type='sphere'/></body></worldbody></mujoco>" << ""
                                 << "<geom>: a sphere needs 1 positive size number";
    QTest::newRow("global coordinates") << "<mujoco><compiler coordinate='global'/>" + body + "</mujoco>" << ""
                                        << "<compiler>: coordinate='global' is not supported";
    QTest::newRow("nothing moves") << "<mujoco><worldbody><geom type='plane' size='1 1 1'/></worldbody></mujoco>" << ""
                                   << "the worldbody has no body that moves";
    QTest::newRow("not utf-8") << "<mujoco><worldbody><body name='b@BAD@'><joint/><geom size='1'/></body></worldbody></mujoco>" << ""
                               << "is not UTF-8 text";
    // issue 31: ref=1e308 was blamed on the body's centre of mass (inertia.com)
    QTest::newRow("huge slide ref") << "<mujoco><worldbody><body name='a'><joint name='j' type='slide' ref='1e308'/><geom size='0.1'/></body></worldbody></mujoco>"
                                    << "" << "main.xml:1: <joint name='j'>: ref \\(1e\\+308\\) must be at most 1e\\+06 m in magnitude";
    QTest::newRow("huge hinge ref") << "<mujoco><worldbody><body name='a'><joint name='j' ref='1e308'/><geom size='0.1'/></body></worldbody></mujoco>"
                                    << "" << "<joint name='j'>: ref \\(1e\\+308\\) must be at most 1e\\+06 rad";
    QTest::newRow("negative mass") << "<mujoco><worldbody><body><joint/><inertial pos='0 0 0' mass='-1' diaginertia='1 1 1'/></body></worldbody></mujoco>"
                                   << "" << "<inertial>: an inertial needs a mass >= 0";
  }
  // issue 31: an include "diamond" (each file including the next twice) expands to 2^n files:
  // bounded by the number of inclusions, refused naming the file, the element and the limit
  void includeExpansionIsBounded() {
    QTemporaryDir tmp;
    const int levels = 11;  // 2^11 = 2048 inclusions of a few bytes each
    for (int k = 0; k < levels; ++k)
      writeText(tmp.filePath(QString("d%1.xml").arg(k)),
            "<mujoco><include file='d" + std::to_string(k + 1) + ".xml'/><include file='d" + std::to_string(k + 1) + ".xml'/></mujoco>");
    writeText(tmp.filePath(QString("d%1.xml").arg(levels)), "<mujoco><option timestep='0.002'/></mujoco>");
    const QString path = tmp.filePath("main.xml");
    writeText(path, "<mujoco><include file='d0.xml'/><worldbody><body name='b'><joint/><geom size='0.1'/></body></worldbody></mujoco>");
    try {
      loadMjcf(path.toStdString());
      QFAIL("no error");
    } catch (const FormatError& e) {
      const QString what = e.what();
      QVERIFY2(what.startsWith(path + ": d") && what.contains(".xml:1: <include>: includes more than 1000 files in all"), qPrintable(what));
    }
    // a handful of inclusions, the same file twice among them, still reads
    writeText(tmp.filePath("twice.xml"), "<mujoco><include file='d10.xml'/><include file='d10.xml'/><include file='d11.xml'/>"
                                     "<worldbody><body name='b'><joint/><geom size='0.1'/></body></worldbody></mujoco>");
    QCOMPARE(loadMjcf(tmp.filePath("twice.xml").toStdString()).bodies.size(), std::size_t{1});
  }

  // issue 31: a body name used twice is renamed (MuJoCo refuses it; Articulate's names are
  // unique), and the import report says so
  void duplicateBodyNamesAreNoted() {
    MjcfImport r;
    const ModelSpec spec = specFromMjcf("<mujoco><worldbody><body name='a'><joint/><geom size='0.1'/></body>\n"
                                        "<body name='a'><joint/><geom size='0.1'/></body></worldbody></mujoco>",
                                        "dup.xml", &r);
    QCOMPARE(spec.bodies.size(), std::size_t{2});
    QCOMPARE(spec.bodies[1].name, std::string("a_2"));
    QVERIFY2(has(allNotes(r), "1 body name(s) already taken were renamed: 'a' (dup.xml:2: <body name='a'>) is 'a_2'"),
             allNotes(r).c_str());
  }

  void badInputNamesTheElement() {
    QFETCH(QString, main);
    QFETCH(QString, other);
    QFETCH(QString, expected);
    QTemporaryDir tmp;
    const QString path = tmp.filePath("main.xml");
    std::string text = main.toStdString();
    if (const auto at = text.find("@BAD@"); at != std::string::npos) text.replace(at, 5, "\xb4");  // a byte no UTF-8 has there
    writeText(path, text);
    if (!other.isEmpty()) writeText(tmp.filePath("other.xml"), other.toStdString());
    try {
      loadMjcf(path.toStdString());
      QFAIL("no error");
    } catch (const FormatError& e) {
      const QString what = e.what();
      QVERIFY2(what.startsWith(path), qPrintable(what));
      QVERIFY2(QRegularExpression(expected).match(what).hasMatch(), qPrintable(what));
    }
  }
};

ARTICULATE_TEST_MAIN(TestMjcf)
#include "test_mjcf.moc"
