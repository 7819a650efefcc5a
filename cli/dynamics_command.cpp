// articulate-cli dynamics (dynamics_command.h): CRBA for H, RNEA with qdd = 0 for the bias,
// ABA (or, with loops and gears, the constrained forward dynamics without stabilisation) for
// qdd. Numbers are printed in full double precision, shortest round trip.
#include "dynamics_command.h"

#include "numbers.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <variant>

#include <nlohmann/json.hpp>

#include "articulate/dynamics/actuation.h"
#include "articulate/dynamics/configuration.h"
#include "articulate/dynamics/constraints.h"
#include "articulate/dynamics/dynamics.h"
#include "articulate/dynamics/soft_constraints.h"
#include "articulate/formats/urdf.h"
#include "articulate/model/model.h"

namespace {

using namespace art;

// "a,b,c" as exactly fallback.size() numbers, or `fallback` when empty
Eigen::VectorXd numbers(const std::string& list, const Eigen::VectorXd& fallback, const std::string& option) {
  if (list.empty()) return fallback;
  const std::vector<double> out = parseNumbers(list, option);
  if (static_cast<Eigen::Index>(out.size()) != fallback.size())
    throw std::invalid_argument(option + ": expected " + std::to_string(fallback.size()) + " numbers, got " +
                                std::to_string(out.size()));
  return Eigen::Map<const Eigen::VectorXd>(out.data(), static_cast<Eigen::Index>(out.size()));
}

std::string text(double x) {
  char buffer[32];
  const auto r = std::to_chars(buffer, buffer + sizeof buffer, x);
  return std::string(buffer, r.ptr);
}

}  // namespace

art::LoadedDocument loadWithBase(const std::string& path, const std::string& base, const std::string& contact) {
  if (base.empty() && contact.empty()) return loadDocument(path);
  UrdfBase b = UrdfBase::Auto;
  if (!base.empty() && !parseUrdfBase(base, b))
    throw std::invalid_argument("--base: expected auto, fixed or floating, got '" + base + "'");
  UrdfContact c = UrdfContact::Geoms;
  if (!contact.empty() && !parseUrdfContact(contact, c))
    throw std::invalid_argument("--urdf-contact: expected geoms or points, got '" + contact + "'");
  if (!isUrdfPath(path))
    throw std::invalid_argument(std::string(base.empty() ? "--urdf-contact" : "--base") + ": for URDF files only (" + path +
                                (base.empty() ? " says its contact model itself)" : " says its base itself: a free joint floats)"));
  return loadUrdfModel(path, b, {}, c);
}

CLI::App* addDynamicsCommand(CLI::App& app, DynamicsArgs& a) {
  auto* cmd = app.add_subcommand("dynamics", "a tree's joint-space inertia H, bias C qd + g and forward dynamics at one state");
  cmd->add_option("MODEL", a.model, "model file (Articulate, spatial_v2 JSON, URDF, MJCF)")->required()->check(CLI::ExistingFile);
  cmd->add_option("--base", a.base, kBaseHelp);
  cmd->add_option("--q", a.q, "joint positions a,b,c in q order (default: the model's initial state)");
  cmd->add_option("--qd", a.qd, "joint velocities (default: the model's initial state)");
  cmd->add_option("--tau", a.tau, "joint forces for qdd (default: zero)");
  cmd->add_option("--ctrl", a.ctrl, "the actuators' controls, one per actuator (default: zero)");
  cmd->add_option("--act", a.act, "the activations of the actuators with dynamics (default: zero)");
  cmd->add_option("--key", a.key, kKeyHelp);
  cmd->add_option("--solver", a.solver, "soft physics: the constraint solver, newton, pgs or cg (default: the model's)");
  cmd->add_option("--iterations", a.iterations, "soft physics: the solver's iterations (default: the model's)");
  cmd->add_option("--tolerance", a.tolerance, "soft physics: the solver's tolerance (default: the model's)");
  cmd->add_option("--eq-active", a.eqActive,
                  "soft physics: which equalities act, 1 or 0 each in the model's order, as MuJoCo's eq_active "
                  "(default: the model's)");
  cmd->add_flag("--json", a.json, "print JSON (default: text)");
  return cmd;
}

const art::KeyframeSpec& findKeyframe(const LoadedDocument& document, const std::string& key) {
  const auto* lm = std::get_if<LoadedModel>(&document);
  if (!lm) throw std::invalid_argument("--key: only kinematic trees have keyframes");
  const std::vector<KeyframeSpec>& keys = lm->spec.keyframes;
  for (const KeyframeSpec& k : keys)
    if (k.name == key) return k;
  if (!key.empty() && key.size() < 10 && std::all_of(key.begin(), key.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    const std::size_t i = std::stoul(key);
    if (i < keys.size()) return keys[i];
  }
  std::string names;
  for (std::size_t i = 0; i < keys.size() && i < 20; ++i) names += (i ? ", " : "") + std::to_string(i) + " '" + keys[i].name + "'";
  throw std::invalid_argument("--key: no keyframe '" + key + "'" +
                              (keys.empty() ? std::string(": the model has none") : "; its keyframes: " + names));
}

int runDynamicsCommand(const DynamicsArgs& a) {
  const LoadedDocument document = loadWithBase(a.model, a.base);
  const auto* lm = std::get_if<LoadedModel>(&document);
  if (!lm) throw std::invalid_argument(a.model + ": dynamics is for kinematic trees (this is a rigid body or a structure)");
  const Model model = compile(lm->spec);
  Data data(model);
  const KeyframeSpec* key = a.key.empty() ? nullptr : &findKeyframe(document, a.key);
  if (key && (!a.q.empty() || !a.qd.empty() || !a.ctrl.empty() || !a.act.empty()))
    throw std::invalid_argument("--key gives the state, the controls and the activations: leave out --q, --qd, --ctrl and --act");
  const auto orZero = [](const Eigen::VectorXd& v, Eigen::Index n) { return v.size() ? v : Eigen::VectorXd::Zero(n).eval(); };
  Eigen::VectorXd q = key ? key->q : numbers(a.q, model.q0, "--q");
  const Eigen::VectorXd qd = key ? key->qd : numbers(a.qd, model.qd0, "--qd");
  const Eigen::VectorXd tau = numbers(a.tau, Eigen::VectorXd::Zero(model.nv()), "--tau");
  const Eigen::VectorXd ctrl = key ? orZero(key->ctrl, model.nu()) : numbers(a.ctrl, Eigen::VectorXd::Zero(model.nu()), "--ctrl");
  const Eigen::VectorXd act = key ? orZero(key->act, model.na) : numbers(a.act, Eigen::VectorXd::Zero(model.na), "--act");
  for (int i = 0; i < model.nb; ++i) {
    if (!hasQuaternion(model.joints[i].type)) continue;
    const int k = model.qIndex[i] + quaternionOffset(model.joints[i].type);
    const double n = Eigen::Vector4d(q.segment<4>(k)).stableNorm();
    if (!(n > 0))
      throw std::invalid_argument(a.q.empty() ? a.model + ": the initial orientation of body '" + model.names[i] +
                                                    "' is a zero quaternion; give the state with --q"
                                              : "--q: the quaternion of body '" + model.names[i] + "' is zero");
    // a quaternion whose plain norm overflows or underflows (entries of 1e200) is scaled by its
    // stableNorm first; any other is left to normalizeConfiguration, bit for bit as before
    const double plain = Eigen::Vector4d(q.segment<4>(k)).norm();
    if (!(plain > 0) || !std::isfinite(plain)) q.segment<4>(k) /= n;
  }
  normalizeConfiguration(model, q);
  const Eigen::MatrixXd H = crba(model, data, q);
  const Eigen::VectorXd bias = rnea(model, data, q, qd, Eigen::VectorXd::Zero(model.nv()));
  // the actuators' and the passive joint forces (springs, tendons, and joint damping, as
  // MuJoCo's qfrc_passive)
  actuation(model, data, q, qd, ctrl, act);
  Eigen::VectorXd passive = data.qfrcPassive;
  for (int i = 0; i < model.nb; ++i)
    for (int k = 0; k < model.jointNv(i); ++k) passive(model.vIndex[i] + k) -= model.damping[i] * qd(model.vIndex[i] + k);
  const Eigen::VectorXd actuator = data.qfrcActuator;
  const Eigen::VectorXd total = tau + actuator + passive;
  Eigen::VectorXd qdd;
  if (model.constraints.empty()) {
    qdd = aba(model, data, q, qd, total);
  } else {
    ConstraintData cdata(model);
    qdd = constrainedForwardDynamics(model, data, cdata, q, qd, total, nullptr, BaumgarteGains{0.0, 0.0});
  }
  // the soft constraint model (soft physics): qacc and its rows; otherwise qacc is qdd
  Eigen::VectorXd qacc = qdd;
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  nlohmann::ordered_json solverInfo, contacts = nlohmann::ordered_json::array();
  if (!a.eqActive.empty() && !model.soft)
    throw std::invalid_argument("--eq-active: " + a.model + " has no equality constraints (they need soft physics)");
  if (model.soft) {
    SoftConstraintData soft(model);
    soft.timestep = lm->spec.simulation.dt;
    PhysicsSpec::Solver solver = model.physics.solver;
    if (!a.solver.empty() && !parseSolver(a.solver, solver))
      throw std::invalid_argument("--solver must be newton, pgs or cg, got '" + a.solver + "'");
    if (!a.eqActive.empty()) {
      Eigen::VectorXd given(static_cast<Eigen::Index>(model.equalities.size()));
      for (std::size_t k = 0; k < model.equalities.size(); ++k) given(static_cast<Eigen::Index>(k)) = model.equalities[k].active;
      given = numbers(a.eqActive, given, "--eq-active");
      for (Eigen::Index k = 0; k < given.size(); ++k) {
        if (given(k) != 0 && given(k) != 1)
          throw std::invalid_argument("--eq-active: each switch is 1 (acts) or 0 (off), got " + text(given(k)));
        soft.equalityActive[static_cast<std::size_t>(k)] = given(k) != 0;
      }
    }
    softConstraintRows(model, data, soft, q, qd);
    biasForces(model, data, q, qd);
    crba(model, data, q);
    factorizeMassMatrix(model, data);
    soft.qacc0 = total - data.C;
    solveMassMatrix(model, data, soft.qacc0);
    solveSoftConstraints(model, data, soft, solver, a.iterations > 0 ? a.iterations : model.physics.iterations,
                         a.tolerance >= 0 ? a.tolerance : model.physics.tolerance);
    qacc = soft.qacc;
    static const char* kStates[] = {"satisfied", "quadratic", "linear_negative", "linear_positive", "cone"};
    for (int r = 0; r < soft.nefc; ++r) {
      // a joint's row by the joint's name in the file (an MJCF body's joints are several bodies here)
      std::string name = softRowName(model, soft, r);
      const SoftRowType type = soft.type[static_cast<std::size_t>(r)];
      const int id = soft.id[static_cast<std::size_t>(r)];
      const int body = type == SoftRowType::FrictionDof ? model.dofBody[static_cast<std::size_t>(id)]
                       : type == SoftRowType::LimitJoint ? id : -1;
      if (body >= 0 && static_cast<std::size_t>(body) < lm->jointNames.size() && !lm->jointNames[static_cast<std::size_t>(body)].empty())
        name = lm->jointNames[static_cast<std::size_t>(body)];
      rows.push_back({{"type", softRowKind(type)},
                      {"name", name},
                      {"residual", soft.pos(r)},
                      {"force", soft.force(r)},
                      {"state", kStates[static_cast<int>(soft.state[static_cast<std::size_t>(r)])]},
                      {"R", soft.R(r)}});
    }
    // the contacts (collision.h): geoms and bodies by their names in the file, distance, midpoint,
    // frame (normal first) and the force on geom2 in that frame (mj_contactForce)
    for (std::size_t k = 0; k < soft.contacts.size(); ++k) {
      const Contact& c = soft.contacts[k];
      const auto bodyOf = [&](int g) {
        const int b = model.geoms[static_cast<std::size_t>(g)].body;
        return b < 0 ? std::string("world") : model.names[static_cast<std::size_t>(b)];
      };
      const Mat3 byRows = c.frame.transpose();  // column-major storage: the rows one after another
      const std::vector<double> frame(byRows.data(), byRows.data() + 9);
      const Vec6 f = contactForce(soft, static_cast<int>(k));
      contacts.push_back({{"geom1", geomName(model, c.geom1)},
                          {"geom2", geomName(model, c.geom2)},
                          {"body1", bodyOf(c.geom1)},
                          {"body2", bodyOf(c.geom2)},
                          {"dist", c.dist},
                          {"pos", {c.pos.x(), c.pos.y(), c.pos.z()}},
                          {"frame", frame},
                          {"condim", c.dim},
                          {"active", !c.exclude},
                          {"force", std::vector<double>(f.data(), f.data() + c.dim)}});
    }
    solverInfo = {{"eq_active", std::vector<int>(soft.equalityActive.begin(), soft.equalityActive.end())},
                  {"solver", solverName(solver)},
                  {"iterations", soft.iterations},
                  {"gradient", soft.gradient},
                  {"improvement", soft.improvement}};
  }
  nlohmann::ordered_json out;
  out["model"] = a.model;
  out["format"] = lm->format;
  out["nq"] = model.nq();
  out["nv"] = model.nv();
  out["coordinates"] = nlohmann::ordered_json::array();
  for (int i = 0; i < model.nb; ++i) {
    const std::string joint = static_cast<std::size_t>(i) < lm->jointNames.size() ? lm->jointNames[i] : model.names[i];
    out["coordinates"].push_back({{"body", model.names[i]},
                                  {"joint", joint},
                                  {"type", std::string(jointCode(model.joints[i].type))},
                                  {"size", model.jointNq(i)},
                                  {"velocity_size", model.jointNv(i)}});
  }
  auto vector = [](const Eigen::VectorXd& v) { return std::vector<double>(v.data(), v.data() + v.size()); };
  out["q"] = vector(q);
  out["qd"] = vector(qd);
  out["tau"] = vector(tau);
  out["H"] = nlohmann::ordered_json::array();
  for (Eigen::Index r = 0; r < H.rows(); ++r) out["H"].push_back(vector(H.row(r).transpose()));
  out["bias"] = vector(bias);
  out["ctrl"] = vector(ctrl);
  out["act"] = vector(act);
  out["actuators"] = nlohmann::ordered_json::array();
  for (const ActuatorSpec& u : model.actuators) out["actuators"].push_back(u.name);
  out["tendons"] = nlohmann::ordered_json::array();
  for (const TendonSpec& t : model.tendons) out["tendons"].push_back(t.name);
  out["actuator_length"] = vector(data.actuatorLength);
  out["actuator_velocity"] = vector(data.actuatorVelocity);
  out["actuator_force"] = vector(data.actuatorForce);
  out["act_dot"] = vector(data.actDot);
  // each actuator's length range (min, max; MuJoCo's actuator_lengthrange, flat; 0 0 where none)
  out["actuator_lengthrange"] = nlohmann::ordered_json::array();
  for (const ActuatorSpec& u : model.actuators)
    for (double x : u.lengthRange.value_or(std::array<double, 2>{0.0, 0.0})) out["actuator_lengthrange"].push_back(x);
  out["ten_length"] = vector(data.tendonLength);
  out["ten_velocity"] = vector(data.tendonVelocity);
  out["qfrc_actuator"] = vector(actuator);
  out["qfrc_passive"] = vector(passive);
  out["qdd"] = vector(qdd);
  out["qacc"] = vector(qacc);
  out["constraints"] = rows;
  if (!model.geoms.empty()) out["contacts"] = contacts;
  if (model.soft) out["solver"] = solverInfo;
  if (a.json) {
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  std::cout << "model: " << a.model << " (" << lm->format << "), nq " << model.nq() << ", nv " << model.nv() << "\n"
            << "coordinates (q order):\n";
  for (const auto& c : out["coordinates"])
    std::cout << "  " << c["body"].get<std::string>() << ": joint '" << c["joint"].get<std::string>() << "', "
              << c["type"].get<std::string>() << ", " << c["size"].get<int>() << " position(s)\n";
  auto line = [](const char* name, const Eigen::VectorXd& v) {
    std::cout << name << ":";
    for (Eigen::Index k = 0; k < v.size(); ++k) std::cout << " " << text(v(k));
    std::cout << "\n";
  };
  line("q", q);
  line("qd", qd);
  line("tau", tau);
  std::cout << "H:\n";
  for (Eigen::Index r = 0; r < H.rows(); ++r) line(" ", H.row(r).transpose());
  line("bias", bias);
  if (model.nu()) {
    line("ctrl", ctrl);
    line("actuator_length", data.actuatorLength);
    line("actuator_velocity", data.actuatorVelocity);
    line("actuator_force", data.actuatorForce);
    if (model.na) line("act_dot", data.actDot);
    line("qfrc_actuator", actuator);
  }
  if (!model.tendons.empty()) {
    line("ten_length", data.tendonLength);
    line("ten_velocity", data.tendonVelocity);
  }
  line("qfrc_passive", passive);
  line("qdd", qdd);
  line("qacc", qacc);
  if (model.soft) {
    std::cout << "constraints (" << rows.size() << " active rows; " << solverInfo["solver"].get<std::string>() << ", "
              << solverInfo["iterations"].get<int>() << " iterations, scaled gradient "
              << text(solverInfo["gradient"].get<double>()) << "):\n";
    for (const auto& r : rows)
      std::cout << "  " << r["type"].get<std::string>() << " '" << r["name"].get<std::string>() << "': residual "
                << text(r["residual"].get<double>()) << ", force " << text(r["force"].get<double>()) << " ("
                << r["state"].get<std::string>() << ")\n";
  }
  if (!model.geoms.empty()) {
    std::cout << "contacts (" << contacts.size() << "):\n";
    for (const auto& c : contacts) {
      const auto& n = c["frame"];
      std::cout << "  " << c["geom1"].get<std::string>() << " (" << c["body1"].get<std::string>() << ") - "
                << c["geom2"].get<std::string>() << " (" << c["body2"].get<std::string>() << "): dist "
                << text(c["dist"].get<double>()) << ", normal " << text(n[0].get<double>()) << " " << text(n[1].get<double>())
                << " " << text(n[2].get<double>()) << ", normal force " << text(c["force"][0].get<double>())
                << (c["active"].get<bool>() ? "" : " (within the margin, outside margin - gap: no force)") << "\n";
    }
  }
  return 0;
}
