// articulate-ref-mujoco: the joint-space inertia and bias forces of an MJCF file as MuJoCo
// 2.2.2's own compiler and algorithms give them (mj_loadXML, mj_forward, mj_fullM,
// qfrc_bias), for test_mjcf_mujoco. Links MuJoCo alone, none of Articulate.
//
//   articulate-ref-mujoco MODEL.xml STATE.json
//
// STATE.json: {"joints": [{"joint": NAME, "q": [...], "qd": [...]}]} in Articulate's coordinates
// (a hinge or slide: qpos and qvel; a ball joint: quaternion w x y z and body-coordinate angular
// velocity, also MuJoCo's qpos and qvel; a free joint: position and quaternion w x y z, then the
// body-coordinate [angular; linear] velocity). Joints not listed keep qpos0 and zero velocity.
// STATE.json may also give "ctrl" (nu) and "act" (na), the actuators' controls and activations,
// and "eq_active" (neq), which equality constraints act (2.2.2 keeps the switch in mjModel).
// Prints {"coordinates": [{"joint", "index"}] per degree of freedom in MuJoCo's order, "H",
// "bias", "gravity", "armature", the actuators' and tendons' names and quantities (lengths,
// velocities, forces, act_dot; actuator_lengthrange, the compiler's, min and max per actuator in
// one flat list), qfrc_actuator and qfrc_passive, qacc (MuJoCo's own), and the
// number of active constraint rows and contacts (nefc, ncon), the contacts}, H, bias and the joint forces in
// Articulate's velocity coordinates: for a free
// joint qvel = [R v; w] = T qd, so H = T' M T and bias = T' (qfrc_bias + M dT/dt qd), with
// dT/dt qd = [R (w x v); 0].
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <mujoco/mujoco.h>
#include <nlohmann/json.hpp>

using nlohmann::json;

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: articulate-ref-mujoco MODEL.xml STATE.json\n";
    return 2;
  }
  char error[1000] = "";
  mjModel* m = mj_loadXML(argv[1], nullptr, error, sizeof error);
  if (!m) {
    std::cerr << "mj_loadXML: " << error << "\n";
    return 1;
  }
  mjData* d = mj_makeData(m);
  std::ifstream in(argv[2]);
  const json state = json::parse(in);
  const int nv = m->nv;
  std::vector<std::vector<double>> T(static_cast<std::size_t>(nv), std::vector<double>(static_cast<std::size_t>(nv), 0.0));
  for (int k = 0; k < nv; ++k) T[static_cast<std::size_t>(k)][static_cast<std::size_t>(k)] = 1;
  std::vector<double> Tdot_qd(static_cast<std::size_t>(nv), 0.0);
  for (const json& j : state["joints"]) {
    const std::string name = j["joint"];
    const int id = mj_name2id(m, mjOBJ_JOINT, name.c_str());
    if (id < 0) {
      std::cerr << "no joint '" << name << "' in MuJoCo's model\n";
      return 1;
    }
    const std::vector<double> q = j["q"], qd = j["qd"];
    const int qa = m->jnt_qposadr[id], va = m->jnt_dofadr[id];
    const int type = m->jnt_type[id];
    if (type == mjJNT_BALL) {  // Articulate's ball joint: MuJoCo's qpos and qvel themselves
      for (int k = 0; k < 4; ++k) d->qpos[qa + k] = q[static_cast<std::size_t>(k)];
      for (int k = 0; k < 3; ++k) d->qvel[va + k] = qd[static_cast<std::size_t>(k)];
      continue;
    }
    if (type == mjJNT_FREE) {
      for (int k = 0; k < 7; ++k) d->qpos[qa + k] = q[static_cast<std::size_t>(k)];
      mjtNum quat[4] = {q[3], q[4], q[5], q[6]}, R[9];
      mju_normalize4(quat);
      mju_quat2Mat(R, quat);
      const double w[3] = {qd[0], qd[1], qd[2]}, v[3] = {qd[3], qd[4], qd[5]};
      double wxv[3];
      mju_cross(wxv, w, v);
      for (int r = 0; r < 3; ++r) {
        d->qvel[va + r] = R[3 * r] * v[0] + R[3 * r + 1] * v[1] + R[3 * r + 2] * v[2];
        d->qvel[va + 3 + r] = w[r];
        Tdot_qd[static_cast<std::size_t>(va + r)] = R[3 * r] * wxv[0] + R[3 * r + 1] * wxv[1] + R[3 * r + 2] * wxv[2];
      }
      for (int r = 0; r < 6; ++r)
        for (int c = 0; c < 6; ++c) T[static_cast<std::size_t>(va + r)][static_cast<std::size_t>(va + c)] = 0;
      for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c) T[static_cast<std::size_t>(va + r)][static_cast<std::size_t>(va + 3 + c)] = R[3 * r + c];
        T[static_cast<std::size_t>(va + 3 + r)][static_cast<std::size_t>(va + r)] = 1;
      }
    } else {
      d->qpos[qa] = q[0];
      d->qvel[va] = qd[0];
    }
  }
  // the actuators' controls and activations (MuJoCo's order: act for the last na actuators)
  if (state.contains("ctrl")) {
    const std::vector<double> ctrl = state["ctrl"];
    for (int k = 0; k < m->nu && k < static_cast<int>(ctrl.size()); ++k) d->ctrl[k] = ctrl[static_cast<std::size_t>(k)];
  }
  if (state.contains("act")) {
    const std::vector<double> act = state["act"];
    for (int k = 0; k < m->na && k < static_cast<int>(act.size()); ++k) d->act[k] = act[static_cast<std::size_t>(k)];
  }
  if (state.contains("eq_active")) {
    const std::vector<int> active = state["eq_active"];
    for (int k = 0; k < m->neq && k < static_cast<int>(active.size()); ++k)
      m->eq_active[k] = static_cast<mjtByte>(active[static_cast<std::size_t>(k)] != 0);
  }
  // "steps": N steps of mj_step from the state; the positions after each are printed
  json trajectory = json::array();
  if (state.contains("steps")) {
    const int steps = state["steps"];
    for (int k = 0; k < steps; ++k) {
      mj_step(m, d);
      trajectory.push_back(std::vector<double>(d->qpos, d->qpos + m->nq));
    }
  }
  mj_forward(m, d);
  // the constraint rows (efc): kind, the element's name, residual, force, state
  json rows = json::array();
  for (int i = 0; i < d->nefc; ++i) {
    const int id = d->efc_id[i];
    std::string kind = "contact", name;
    const char* n = nullptr;
    switch (d->efc_type[i]) {
      case mjCNSTR_EQUALITY: kind = "equality"; n = mj_id2name(m, mjOBJ_EQUALITY, id); break;
      case mjCNSTR_FRICTION_DOF: kind = "friction"; n = mj_id2name(m, mjOBJ_JOINT, m->dof_jntid[id]); break;
      case mjCNSTR_FRICTION_TENDON: kind = "friction"; n = mj_id2name(m, mjOBJ_TENDON, id); break;
      case mjCNSTR_LIMIT_JOINT: kind = "limit"; n = mj_id2name(m, mjOBJ_JOINT, id); break;
      case mjCNSTR_LIMIT_TENDON: kind = "limit"; n = mj_id2name(m, mjOBJ_TENDON, id); break;
      default: break;
    }
    name = n ? n : "";
    rows.push_back({{"type", kind}, {"name", name}, {"residual", d->efc_pos[i]}, {"force", d->efc_force[i]},
                    {"state", d->efc_state[i]}, {"R", d->efc_R[i]}});
  }
  // the contacts (mj_collision's d->contact): geoms and bodies by name (an unnamed geom as
  // BODY#K, its body's name, or "world", and its place among the body's colliding geoms from 1,
  // as Articulate names it), dist, pos, frame (normal first), condim, whether it has rows, and
  // its force in the contact frame (mj_contactForce)
  json contacts = json::array();
  auto geomName = [&](int g) {
    if (const char* n = mj_id2name(m, mjOBJ_GEOM, g)) return std::string(n);
    const int b = m->geom_bodyid[g];
    const char* bn = mj_id2name(m, mjOBJ_BODY, b);
    int k = 0;  // its place among the body's geoms that collide
    for (int h = m->body_geomadr[b]; h <= g; ++h) k += (m->geom_contype[h] || m->geom_conaffinity[h]) ? 1 : 0;
    return std::string(b == 0 ? "world" : bn ? bn : "") + "#" + std::to_string(k);
  };
  for (int i = 0; i < d->ncon; ++i) {
    const mjContact& c = d->contact[i];
    mjtNum f[6];
    mj_contactForce(m, d, i, f);
    const int b1 = m->geom_bodyid[c.geom1], b2 = m->geom_bodyid[c.geom2];
    const char* n1 = mj_id2name(m, mjOBJ_BODY, b1);
    const char* n2 = mj_id2name(m, mjOBJ_BODY, b2);
    contacts.push_back({{"geom1", geomName(c.geom1)}, {"geom2", geomName(c.geom2)},
                        {"body1", b1 == 0 ? "world" : n1 ? n1 : ""}, {"body2", b2 == 0 ? "world" : n2 ? n2 : ""},
                        {"dist", c.dist}, {"pos", {c.pos[0], c.pos[1], c.pos[2]}},
                        {"frame", std::vector<double>(c.frame, c.frame + 9)}, {"condim", c.dim},
                        {"active", c.efc_address >= 0}, {"force", std::vector<double>(f, f + c.dim)}});
  }
  std::vector<mjtNum> M(static_cast<std::size_t>(nv * nv));
  mj_fullM(m, M.data(), d->qM);
  json H = json::array(), bias = json::array(), coordinates = json::array(), armature = json::array();
  for (int r = 0; r < nv; ++r) {
    json row = json::array();
    for (int c = 0; c < nv; ++c) {
      double s = 0;
      for (int a = 0; a < nv; ++a)
        for (int b = 0; b < nv; ++b)
          s += T[static_cast<std::size_t>(a)][static_cast<std::size_t>(r)] * M[static_cast<std::size_t>(a * nv + b)] *
               T[static_cast<std::size_t>(b)][static_cast<std::size_t>(c)];
      row.push_back(s);
    }
    H.push_back(row);
    double b = 0;
    for (int a = 0; a < nv; ++a) {
      double f = d->qfrc_bias[a];
      for (int c = 0; c < nv; ++c) f += M[static_cast<std::size_t>(a * nv + c)] * Tdot_qd[static_cast<std::size_t>(c)];
      b += T[static_cast<std::size_t>(a)][static_cast<std::size_t>(r)] * f;
    }
    bias.push_back(b);
    const int j = m->dof_jntid[r];
    const char* name = mj_id2name(m, mjOBJ_JOINT, j);
    coordinates.push_back({{"joint", name ? name : ""}, {"index", r - m->jnt_dofadr[j]}});
    armature.push_back(m->dof_armature[r]);
  }
  // joint forces in Articulate's velocity coordinates: T' f
  auto toArticulate = [&](const mjtNum* f) {
    json out = json::array();
    for (int r = 0; r < nv; ++r) {
      double x = 0;
      for (int a = 0; a < nv; ++a) x += T[static_cast<std::size_t>(a)][static_cast<std::size_t>(r)] * f[a];
      out.push_back(x);
    }
    return out;
  };
  auto list = [](const mjtNum* v, int n) {
    json out = json::array();
    for (int k = 0; k < n; ++k) out.push_back(v[k]);
    return out;
  };
  json actuators = json::array(), tendons = json::array();
  for (int k = 0; k < m->nu; ++k) {
    const char* name = mj_id2name(m, mjOBJ_ACTUATOR, k);
    actuators.push_back(name ? name : "");
  }
  for (int k = 0; k < m->ntendon; ++k) {
    const char* name = mj_id2name(m, mjOBJ_TENDON, k);
    tendons.push_back(name ? name : "");
  }
  // qacc in Articulate's coordinates where no free joint turns them (T = I); with free joints
  // qdd = T^-1 (qacc - dT/dt qd), left to the reader (qacc is printed as MuJoCo's)
  const json out = {{"coordinates", coordinates}, {"H", H}, {"bias", bias},
                    {"gravity", {m->opt.gravity[0], m->opt.gravity[1], m->opt.gravity[2]}},
                    {"armature", armature}, {"nbody", m->nbody},
                    {"actuators", actuators}, {"tendons", tendons},
                    {"actuator_length", list(d->actuator_length, m->nu)},
                    {"actuator_velocity", list(d->actuator_velocity, m->nu)},
                    {"actuator_force", list(d->actuator_force, m->nu)},
                    {"actuator_lengthrange", list(m->actuator_lengthrange, 2 * m->nu)},
                    {"act_dot", list(d->act_dot, m->na)},
                    {"ten_length", list(d->ten_length, m->ntendon)},
                    {"ten_velocity", list(d->ten_velocity, m->ntendon)},
                    {"qfrc_actuator", toArticulate(d->qfrc_actuator)},
                    {"qfrc_passive", toArticulate(d->qfrc_passive)},
                    {"qacc", list(d->qacc, nv)},
                    {"nefc", d->nefc}, {"ncon", d->ncon}, {"constraints", rows}, {"contacts", contacts},
                    {"solver_iterations", d->solver_iter}, {"trajectory", trajectory},
                    {"qpos", std::vector<double>(d->qpos, d->qpos + m->nq)}};
  std::cout << out.dump() << "\n";
  mj_deleteData(d);
  mj_deleteModel(m);
  return 0;
}
