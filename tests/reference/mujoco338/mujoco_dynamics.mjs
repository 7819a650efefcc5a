// articulate-ref-mujoco338: what MuJoCo 3.3.8 computes for an MJCF file, through MuJoCo's
// official WebAssembly build (the npm package mujoco-js@0.0.7, pinned by package-lock.json
// beside this file; scripts/setup-deps.sh --tests installs it). The same program as
// ../mujoco_dynamics.cpp (MuJoCo 2.2.2, linked natively), with the same arguments and output,
// so that a test can hold Articulate against either. Uses MuJoCo alone, none of Articulate.
//
//   node mujoco_dynamics.mjs MODEL.xml [STATE.json]
//
// The model's folder (with its meshes, textures and included files) is copied into MuJoCo's
// in-memory file system at the same absolute path, then loaded with mj_loadXML.
//
// STATE.json: {"joints": [{"joint": NAME, "q": [...], "qd": [...]}]} in Articulate's coordinates
// (a hinge or slide: qpos and qvel; a ball joint: quaternion w x y z and body-coordinate angular
// velocity, also MuJoCo's qpos and qvel; a free joint: position and quaternion w x y z, then the
// body-coordinate [angular; linear] velocity). Joints not listed keep qpos0 and zero velocity.
// Or {"key": K}: the state of keyframe K (mj_resetDataKeyframe), in MuJoCo's own coordinates.
// It may also give "ctrl" (nu), "act" (na), "eq_active" (neq) and "steps": N steps of mj_step
// whose qpos after each are printed as "trajectory". Without STATE.json: qpos0, at rest.
//
// Prints one JSON object: "version" (MuJoCo's), "coordinates" ({"joint", "index"} per degree of
// freedom in MuJoCo's order; an unnamed joint named as Articulate names it, BODY_joint), "H",
// "bias" (in Articulate's velocity coordinates: for a free joint qvel = [R v; w] = T qd, so
// H = T' M T and bias = T' (qfrc_bias + M dT/dt qd) with dT/dt qd = [R (w x v); 0]), "gravity", "armature", "nbody", "actuators", "tendons", the
// actuators' and tendons' quantities, "qfrc_actuator" and "qfrc_passive" (Articulate's
// coordinates), "qacc" (MuJoCo's own), "nefc", "ncon", "constraints" (the efc rows), "contacts"
// (geom and body names, dist, pos, frame, condim, active, force by mj_contactForce),
// "solver_iterations", "trajectory", "qpos", "qvel", and "body_mass" and "body_inertia".
import fs from 'node:fs';
import path from 'node:path';
import loadMujoco from 'mujoco-js';

const [modelPath, statePath] = process.argv.slice(2);
if (!modelPath) {
  process.stderr.write('usage: node mujoco_dynamics.mjs MODEL.xml [STATE.json]\n');
  process.exit(2);
}
const mj = await loadMujoco({print: () => {}, printErr: (t) => process.stderr.write(t + '\n')});

// the model's folder, copied file by file (regular files under 256 MiB, no links followed)
function mkdirs(dir) {
  let at = '';
  for (const part of dir.split('/').filter(Boolean)) {
    at += '/' + part;
    try { mj.FS.mkdir(at); } catch (e) { /* exists */ }
  }
}
function copyTree(dir, depth) {
  mkdirs(dir);
  for (const entry of fs.readdirSync(dir, {withFileTypes: true})) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && depth < 8) copyTree(full, depth + 1);
    else if (entry.isFile() && fs.statSync(full).size < 256 * 1024 * 1024) mj.FS.writeFile(full, fs.readFileSync(full));
  }
}
const absolute = path.resolve(modelPath);
copyTree(path.dirname(absolute), 0);

let m;
try {
  m = mj.MjModel.loadFromXML(absolute);
} catch (e) {
  process.stderr.write('mj_loadXML: ' + (e.message || e) + '\n');
  process.exit(1);
}
if (!m) {
  process.stderr.write('mj_loadXML failed\n');
  process.exit(1);
}
const d = new mj.MjData(m);
const state = statePath ? JSON.parse(fs.readFileSync(statePath, 'utf8')) : {};
const nv = m.nv;
const OBJ = mj.mjtObj, JNT = mj.mjtJoint, CNSTR = mj.mjtConstraint;
// an element's name, "" when it has none (the binding returns a stray string for a null name,
// so a name counts only where it names the element back)
const name = (type, id) => {
  const n = mj.mj_id2name(m, type.value, id);
  return n && mj.mj_name2id(m, type.value, n) === id ? n : '';
};
// a joint's name as Articulate's MJCF reader gives it: its own, or for an unnamed joint its
// body's name and "_joint" (the body's second unnamed joint "_joint2", and so on)
const jointNames = [];
for (let j = 0; j < m.njnt; ++j) {
  let n = name(OBJ.mjOBJ_JOINT, j);
  if (!n) {
    const b = m.jnt_bodyid[j];
    let unnamed = 0;
    for (let i = m.body_jntadr[b]; i < j; ++i) if (!name(OBJ.mjOBJ_JOINT, i)) ++unnamed;
    n = name(OBJ.mjOBJ_BODY, b) + '_joint' + (unnamed ? String(unnamed + 1) : '');
  }
  jointNames.push(n);
}

// T (nv x nv, row-major) maps Articulate's velocity to MuJoCo's qvel; Tdot_qd its rate times qd
const T = new Float64Array(nv * nv);
for (let k = 0; k < nv; ++k) T[k * nv + k] = 1;
const TdotQd = new Float64Array(nv);
if (state.key !== undefined) {
  mj.mj_resetDataKeyframe(m, d, state.key);
} else {
  for (const j of state.joints || []) {
    const id = jointNames.indexOf(j.joint);
    if (id < 0) {
      process.stderr.write(`no joint '${j.joint}' in MuJoCo's model\n`);
      process.exit(1);
    }
    const qa = m.jnt_qposadr[id], va = m.jnt_dofadr[id], type = m.jnt_type[id];
    if (type === JNT.mjJNT_BALL.value) {
      for (let k = 0; k < 4; ++k) d.qpos[qa + k] = j.q[k];
      for (let k = 0; k < 3; ++k) d.qvel[va + k] = j.qd[k];
    } else if (type === JNT.mjJNT_FREE.value) {
      for (let k = 0; k < 7; ++k) d.qpos[qa + k] = j.q[k];
      const n = Math.hypot(j.q[3], j.q[4], j.q[5], j.q[6]);
      const [w0, x, y, z] = [j.q[3] / n, j.q[4] / n, j.q[5] / n, j.q[6] / n];
      const R = [1 - 2 * (y * y + z * z), 2 * (x * y - w0 * z), 2 * (x * z + w0 * y),
                 2 * (x * y + w0 * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w0 * x),
                 2 * (x * z - w0 * y), 2 * (y * z + w0 * x), 1 - 2 * (x * x + y * y)];
      const w = j.qd.slice(0, 3), v = j.qd.slice(3, 6);
      const wxv = [w[1] * v[2] - w[2] * v[1], w[2] * v[0] - w[0] * v[2], w[0] * v[1] - w[1] * v[0]];
      for (let r = 0; r < 3; ++r) {
        d.qvel[va + r] = R[3 * r] * v[0] + R[3 * r + 1] * v[1] + R[3 * r + 2] * v[2];
        d.qvel[va + 3 + r] = w[r];
        TdotQd[va + r] = R[3 * r] * wxv[0] + R[3 * r + 1] * wxv[1] + R[3 * r + 2] * wxv[2];
      }
      for (let r = 0; r < 6; ++r) for (let c = 0; c < 6; ++c) T[(va + r) * nv + va + c] = 0;
      for (let r = 0; r < 3; ++r) {
        for (let c = 0; c < 3; ++c) T[(va + r) * nv + va + 3 + c] = R[3 * r + c];
        T[(va + 3 + r) * nv + va + r] = 1;
      }
    } else {
      d.qpos[qa] = j.q[0];
      d.qvel[va] = j.qd[0];
    }
  }
}
for (const [field, count] of [['ctrl', m.nu], ['act', m.na], ['eq_active', m.neq]])
  if (state[field]) for (let k = 0; k < count && k < state[field].length; ++k) d[field][k] = Number(state[field][k]);

const trajectory = [];
for (let k = 0; k < (state.steps || 0); ++k) {
  mj.mj_step(m, d);
  trajectory.push(Array.from(d.qpos));
}
mj.mj_forward(m, d);

const rows = [];
for (let i = 0; i < d.nefc; ++i) {
  const id = d.efc_id[i], t = d.efc_type[i];
  let kind = 'contact', n = '';
  if (t === CNSTR.mjCNSTR_EQUALITY.value) { kind = 'equality'; n = name(OBJ.mjOBJ_EQUALITY, id); }
  else if (t === CNSTR.mjCNSTR_FRICTION_DOF.value) { kind = 'friction'; n = jointNames[m.dof_jntid[id]]; }
  else if (t === CNSTR.mjCNSTR_FRICTION_TENDON.value) { kind = 'friction'; n = name(OBJ.mjOBJ_TENDON, id); }
  else if (t === CNSTR.mjCNSTR_LIMIT_JOINT.value) { kind = 'limit'; n = jointNames[id]; }
  else if (t === CNSTR.mjCNSTR_LIMIT_TENDON.value) { kind = 'limit'; n = name(OBJ.mjOBJ_TENDON, id); }
  rows.push({type: kind, name: n, residual: d.efc_pos[i], force: d.efc_force[i], state: d.efc_state[i], R: d.efc_R[i]});
}

// an unnamed geom as BODY#K (its body's name, or "world", and its place among the body's
// colliding geoms from 1), as Articulate names it
function geomName(g) {
  const n = name(OBJ.mjOBJ_GEOM, g);
  if (n) return n;
  const b = m.geom_bodyid[g];
  let k = 0;
  for (let h = m.body_geomadr[b]; h <= g; ++h) k += (m.geom_contype[h] || m.geom_conaffinity[h]) ? 1 : 0;
  return (b === 0 ? 'world' : name(OBJ.mjOBJ_BODY, b)) + '#' + k;
}
const contacts = [];
const force = new mj.DoubleBuffer(6);
for (let i = 0; i < d.ncon; ++i) {
  const c = d.contact.get(i);
  mj.mj_contactForce(m, d, i, force);
  const b1 = m.geom_bodyid[c.geom1], b2 = m.geom_bodyid[c.geom2];
  contacts.push({geom1: geomName(c.geom1), geom2: geomName(c.geom2),
                 body1: b1 === 0 ? 'world' : name(OBJ.mjOBJ_BODY, b1), body2: b2 === 0 ? 'world' : name(OBJ.mjOBJ_BODY, b2),
                 dist: c.dist, pos: Array.from(c.pos), frame: Array.from(c.frame), condim: c.dim,
                 active: c.efc_address >= 0, force: Array.from(force.GetView().slice(0, c.dim))});
  c.delete();
}
force.delete();

const full = new mj.DoubleBuffer(nv * nv);
mj.mj_fullM(m, full, d.qM);
const M = full.GetView().slice();
full.delete();
const H = [], bias = [], coordinates = [], armature = [];
for (let r = 0; r < nv; ++r) {
  const row = [];
  for (let c = 0; c < nv; ++c) {
    let s = 0;
    for (let a = 0; a < nv; ++a) {
      if (T[a * nv + r] === 0) continue;
      for (let b = 0; b < nv; ++b) s += T[a * nv + r] * M[a * nv + b] * T[b * nv + c];
    }
    row.push(s);
  }
  H.push(row);
  let b = 0;
  for (let a = 0; a < nv; ++a) {
    if (T[a * nv + r] === 0) continue;
    let f = d.qfrc_bias[a];
    for (let c = 0; c < nv; ++c) f += M[a * nv + c] * TdotQd[c];
    b += T[a * nv + r] * f;
  }
  bias.push(b);
  const j = m.dof_jntid[r];
  coordinates.push({joint: jointNames[j], index: r - m.jnt_dofadr[j]});
  armature.push(m.dof_armature[r]);
}
const toArticulate = (f) => {
  const out = [];
  for (let r = 0; r < nv; ++r) {
    let x = 0;
    for (let a = 0; a < nv; ++a) x += T[a * nv + r] * f[a];
    out.push(x);
  }
  return out;
};
const list = (v, n) => Array.from(v.slice(0, n));
const names = (type, n) => Array.from({length: n}, (_, k) => name(type, k));
const out = {
  version: mj.mj_versionString(),
  coordinates, H, bias, gravity: list(m.opt.gravity, 3), armature, nbody: m.nbody,
  actuators: names(OBJ.mjOBJ_ACTUATOR, m.nu), tendons: names(OBJ.mjOBJ_TENDON, m.ntendon),
  actuator_length: list(d.actuator_length, m.nu), actuator_velocity: list(d.actuator_velocity, m.nu),
  actuator_force: list(d.actuator_force, m.nu), actuator_lengthrange: list(m.actuator_lengthrange, 2 * m.nu),
  act_dot: list(d.act_dot, m.na), ten_length: list(d.ten_length, m.ntendon), ten_velocity: list(d.ten_velocity, m.ntendon),
  qfrc_actuator: toArticulate(d.qfrc_actuator), qfrc_passive: toArticulate(d.qfrc_passive),
  qacc: list(d.qacc, nv), nefc: d.nefc, ncon: d.ncon, constraints: rows, contacts,
  solver_iterations: d.solver_niter[0], trajectory, qpos: list(d.qpos, m.nq), qvel: list(d.qvel, nv),
  body_mass: list(m.body_mass, m.nbody), body_inertia: list(m.body_inertia, 3 * m.nbody),
};
process.stdout.write(JSON.stringify(out) + '\n');
d.delete();
m.delete();
