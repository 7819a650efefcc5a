#!/usr/bin/env python3
"""Writes the fuzz harnesses' seed corpora (scripts/fuzz.sh) under DIR:
  DIR/json        JSON documents: the example models, the test suite's malformed files and fuzz
                  regressions, the reference data's spatial_v2 models, with their motions
                  (showmotion's t and q beside the struct) where the data has trajectories;
  DIR/urdf        URDF robots: the test fixture, and robots written here in the shapes users
                  bring (package:// meshes, mimic joints, limits, fixed joints, every joint type
                  the importer knows and those it refuses, deep but legal nesting);
  DIR/mjcf        MJCF models: the shipped quadruped (its include inlined) and models written here
                  with every joint and geom type, orientation form, default classes, equalities
                  and elements Articulate reports;
  DIR/appearance  drawing-instruction lists of the models, each behind one byte that chooses
                  a body's list (even) or the base's (odd) for fuzz_appearance;
  DIR/sweep       sweep files over the example models (named relative to models/, as
                  fuzz_sweep resolves them): the shipped sweeps, and sweeps written here over
                  every model kind, target, distribution, combination and metric.
  DIR/mesh        mesh files behind one byte that chooses the extension (fuzz_mesh): each format
                  with one box, the project's robot meshes, and the three files that crashed
                  assimp (a Collada <instance_node> cycle, 100,000 nested Collada nodes, a glTF
                  whose extras nest 200,000 arrays);
  DIR/slurm       sweep paths, results folders and partitions (fuzz_slurm): plain, with spaces
                  and quotes, $(...), backticks, and a newline followed by a command;
  DIR/recording   sweep run recordings (.arec): good ones of a few samples, and ones whose times
                  are NaN, go back, or whose header lies about its size;
  DIR/controls    control tables (CSV) for fuzz_controls' actuators: good ones (a ramp, comments
                  and blank lines, an unnamed actuator's column, one row) and ones with an unknown
                  or repeated column, no t, a short row, a NaN, 1e999, or times that go back.
Deterministic: the same tree gives the same seeds."""
import json
import pathlib
import sys

root = pathlib.Path(__file__).resolve().parents[2]
out = pathlib.Path(sys.argv[1])
json_dir, urdf_dir, app_dir, sweep_dir, mjcf_dir = (out / d for d in ("json", "urdf", "appearance", "sweep", "mjcf"))
for d in (json_dir, urdf_dir, app_dir, sweep_dir, mjcf_dir):
    d.mkdir(parents=True, exist_ok=True)

appearances = []

def collect_appearances(doc):
    if not isinstance(doc, dict):
        return
    for body in doc.get("bodies", []) if isinstance(doc.get("bodies"), list) else []:
        if isinstance(body, dict) and isinstance(body.get("appearance"), list):
            appearances.append((0, body["appearance"]))
    app = doc.get("appearance")
    if isinstance(app, dict):
        if isinstance(app.get("base"), list):
            appearances.append((1, app["base"]))
        for lst in app.get("body", []) if isinstance(app.get("body"), list) else []:
            if isinstance(lst, list):
                appearances.append((0, lst))
    if isinstance(doc.get("base_appearance"), list):
        appearances.append((1, doc["base_appearance"]))
    if isinstance(doc.get("model"), dict):
        collect_appearances(doc["model"])

for group in ("models", "tests/data/malformed", "tests/data/fuzz_regressions"):
    for f in sorted((root / group).glob("*.json")):
        data = f.read_bytes()
        (json_dir / f"{group.replace('/', '_')}_{f.name}").write_bytes(data)
        try:
            collect_appearances(json.loads(data))
        except ValueError:
            pass

ref = json.loads((root / "tests/data/spatial_v2_cases.json").read_text())
for k, case in enumerate(ref["cases"]):
    (json_dir / f"sv2_case_{k}.json").write_text(json.dumps(case["model"]))
for k, traj in enumerate(ref["trajectories"]):
    model = dict(traj["model"])
    step = max(1, len(traj["t"]) // 20)  # a short motion: 20 samples
    model["t"] = traj["t"][::step]
    model["q"] = traj["q"][::step]
    (json_dir / f"sv2_motion_{k}.json").write_text(json.dumps(model))

for f in sorted((root / "tests/data/urdf").glob("*.urdf")):
    (urdf_dir / f.name).write_bytes(f.read_bytes())

INERTIAL = ("<inertial><origin xyz='0 0 {z}' rpy='0.1 0 0.2'/><mass value='{m}'/><inertia ixx='{i}' "
            "ixy='0' ixz='0' iyy='{i}' iyz='0' izz='{i}'/></inertial>")

def link(name, m=1.0, z=0.1, visual=""):
    return f"<link name='{name}'>{INERTIAL.format(z=z, m=m, i=0.01 * m)}{visual}</link>"

def joint(name, kind, parent, child, axis="0 0 1", extra=""):
    return (f"<joint name='{name}' type='{kind}'><parent link='{parent}'/><child link='{child}'/>"
            f"<origin xyz='0 0 0.2' rpy='0 0.3 0'/><axis xyz='{axis}'/>{extra}</joint>")

LIMIT = "<limit lower='-2.8' upper='2.8' effort='87' velocity='2.1'/><dynamics damping='0.1' friction='0.2'/>"
mesh = ("<visual><geometry><mesh filename='package://robot_description/meshes/link.dae' scale='1 1 1'/>"
        "</geometry></visual><collision><geometry><mesh filename='package://robot_description/meshes/"
        "link.stl'/></geometry></collision>")
shapes = ("<visual><origin xyz='0 0 0.1'/><geometry><box size='0.1 0.2 0.3'/></geometry><material name='red'>"
          "<color rgba='1 0 0 1'/></material></visual><visual><geometry><cylinder radius='0.05' length='0.4'/>"
          "</geometry></visual><visual><geometry><sphere radius='0.07'/></geometry></visual>")
robots = {
    "arm_meshes.urdf": "".join([
        "<?xml version='1.0'?><robot name='arm'>", link("base_link", 4, visual=mesh)]
        + [link(f"link{k}", 2 - 0.2 * k, visual=mesh if k % 2 else shapes) for k in range(1, 7)]
        + [joint(f"joint{k}", "revolute", f"link{k - 1}" if k > 1 else "base_link", f"link{k}",
                 ["0 0 1", "0 1 0", "1 0 0", "0 -1 0", "0.6 0 0.8", "0 0 -1"][k - 1], LIMIT) for k in range(1, 7)]
        + [link("tool"), joint("tool_joint", "fixed", "link6", "tool")]
        + [link("finger1", 0.1), link("finger2", 0.1),
           joint("finger1_joint", "prismatic", "tool", "finger1", "0 1 0", LIMIT),
           joint("finger2_joint", "prismatic", "tool", "finger2", "0 -1 0",
                 LIMIT + "<mimic joint='finger1_joint' multiplier='1' offset='0'/>")]
        + ["</robot>"]),
    "floating_quadruped.urdf": "".join(
        ["<robot name='quadruped'>", link("base", 12, visual=shapes)]
        + [link(f"{leg}_{part}", 1) + joint(f"{leg}_{part}_joint", "continuous",
                                             "base" if part == "hip" else f"{leg}_{'hip' if part == 'thigh' else 'thigh'}",
                                             f"{leg}_{part}", "1 0 0" if part == "hip" else "0 1 0")
           for leg in ("lf", "rf", "lh", "rh") for part in ("hip", "thigh", "shank")]
        + ["</robot>"]),
    "world_fixed.urdf": "<robot name='w'><link name='world'/>" + link("a", visual=shapes)
        + joint("world_joint", "fixed", "world", "a") + link("b") + joint("ab", "revolute", "a", "b", "0 1 0", LIMIT)
        + "</robot>",
    "refused_floating.urdf": "<robot name='f'>" + link("a") + link("b") + joint("ab", "floating", "a", "b") + "</robot>",
    "refused_planar.urdf": "<robot name='p'>" + link("a") + link("b") + joint("ab", "planar", "a", "b") + "</robot>",
    "nested_near_limit.urdf": "<robot name='n'>" + link("a") + "<x>" * 250 + "</x>" * 250 + "</robot>",
    "comments_cdata.urdf": "<?xml version='1.0'?><!DOCTYPE robot><robot name='c'><!-- <link name='ghost'> -->"
        + link("a") + "<![CDATA[<<<]]>" + link("b") + joint("ab", "prismatic", "a", "b", "1 1 0", LIMIT) + "</robot>",
}
for name, text in robots.items():
    (urdf_dir / name).write_text(text)

quad = root / "models/robots/mjcf_quadruped"
(mjcf_dir / "quadruped.xml").write_text((quad / "quadruped.xml").read_text().replace(
    '<include file="defaults.xml"/>', (quad / "defaults.xml").read_text().replace("<mujoco>", "").replace("</mujoco>", "")))
mjcf = {
    "forms.xml": "<mujoco><compiler angle='radian' eulerseq='ZYX'/><option timestep='0.005' gravity='0 0 -3'/>"
        "<default><joint damping='0.1'/><default class='a'><geom type='capsule' size='0.05'/></default></default>"
        "<worldbody><geom type='plane' size='2 2 0.1'/><body name='f' pos='0 0 1' quat='0.9 0.1 0 0'><freejoint/>"
        "<geom type='box' size='0.1 0.2 0.05' euler='0.1 0.2 0.3'/><frame pos='0 0 0.1' euler='0 0 0.3'><geom size='0.05'/></frame>"
        "<body pos='0.2 0 0' axisangle='0 1 0 0.5' childclass='a'>"
        "<joint name='h' axis='1 1 0' pos='0 0 0.1' range='-1 1' ref='0.2'/><joint name='s' type='slide' axis='0 0 1'/>"
        "<geom fromto='0 0 0 0 0 -0.3'/><body xyaxes='0 1 0 -1 0 0'><joint name='b' type='ball'/>"
        "<geom type='ellipsoid' size='0.1 0.05 0.08' zaxis='1 0 0'/><geom type='cylinder' size='0.03 0.1' mass='0.2'/>"
        "</body></body></body></worldbody><equality><joint joint1='s' joint2='h' polycoef='0 0.5 0 0 0'/></equality>"
        "<actuator><motor joint='h'/></actuator><keyframe><key name='k' time='0.5' qpos='0 0 1 1 0 0 0 0.3 0.1 1 0 0 0'"
        " qvel='1 0 0 0 0.5 0 0.2 0 0 0 1' ctrl='1'/><key/></keyframe></mujoco>",
    "inertial.xml": "<mujoco><compiler inertiafromgeom='false'/><worldbody><body><joint/><inertial pos='0 0 -0.5' "
        "mass='1' fullinertia='0.1 0.1 0.1 0.01 0 0'/><body pos='0 0 -1'><joint axis='0 1 0'/><inertial pos='0 0 0' "
        "mass='0.5' diaginertia='0.01 0.02 0.03' quat='1 0 1 0'/></body></body></worldbody></mujoco>",
    "refused_joint.xml": "<mujoco><worldbody><body><joint type='spherical'/><geom size='1'/></body></worldbody></mujoco>",
    "sites.xml": "<mujoco><default><site size='0.02'/><default class='t'><site rgba='0 1 0 0.5'/></default></default>"
        "<asset><material name='m' rgba='0 0 1 1'/></asset><worldbody><site name='w' pos='1 2 3'/><body name='a'><joint/>"
        "<geom size='0.1' rgba='1 0 0 0.4'/><site class='t' pos='0.5 0 0'/><body pos='0 0 1'><site fromto='0 0 0 0 0 1' "
        "material='m' size='0.01 0.2'/><geom size='0.1'/></body></body></worldbody></mujoco>",
    "nested_near_limit.xml": "<mujoco>" + "<x>" * 250 + "</x>" * 250 + "<worldbody><body><joint/><geom size='1'/></body></worldbody></mujoco>",
}
mjcf["actuated_arm.xml"] = (root / "tests/data/mjcf/actuated_arm.xml").read_text()
mjcf["muscle_arm.xml"] = (root / "models/robots/mjcf_muscle_arm/muscle_arm.xml").read_text()
mjcf["slider_crank.xml"] = (root / "models/robots/mjcf_slider_crank/slider_crank.xml").read_text()
for name, text in mjcf.items():
    (mjcf_dir / name).write_text(text)

seen = set()
for k, (is_base, lst) in enumerate(appearances):
    text = json.dumps(lst)
    if (is_base, text) in seen:
        continue
    seen.add((is_base, text))
    (app_dir / f"list_{k}.json").write_bytes(bytes([is_base]) + text.encode())

for f in sorted((root / "models/sweeps").glob("*.json")):
    doc = json.loads(f.read_text())
    doc["model"] = pathlib.PurePosixPath(doc["model"]).name
    (sweep_dir / f.name).write_text(json.dumps(doc))
def sweep(model, parameters, **rest):
    return dict({"format": "articulate-sweep", "model": model, "parameters": parameters, "duration": 0.05}, **rest)
sweeps = {
    "rigid_body.json": sweep("bouncing_cylinder.json", [
        {"name": "mass", "pointer": "/mass", "values": [1, 2.5, -1]},
        {"name": "z", "initial_q": 2, "random": {"uniform": [0.05, 0.2], "count": 2}}],
        metrics=["first_contact", {"max": "z"}, "energy_drift"], seed=3),
    "structure.json": sweep("natural_pendulum.json", [
        {"initial_q": 0, "range": {"from": -0.1, "to": 0.1, "step": 0.05}}],
        metrics=[{"period": "q1"}, {"mean": "total"}]),
    "quadruped_zip.json": sweep("quadruped.json", [
        {"name": "h", "initial_qd": 0, "random": {"normal": [0, 0.1], "count": 3}},
        {"name": "g", "pointer": "/gravity/2", "values": [-9.81, -1.6, 0]}],
        combine="zip", metrics=["first_contact", {"final": "q0"}], integrator="euler", dt=0.002, every=5),
    "fourbar_strings.json": sweep("fourbar.json", [
        {"name": "body", "pointer": "/bodies/1/name", "values": ["crank", "other"]}],
        integrator="dopri5", rtol=1e-6, atol=1e-8),
}
for name, doc in sweeps.items():
    (sweep_dir / name).write_text(json.dumps(doc))

# meshes: the first byte picks the extension, as fuzz_mesh reads it
import base64, struct
mesh_dir, slurm_dir, rec_dir = (out / d for d in ("mesh", "slurm", "recording"))
for d in (mesh_dir, slurm_dir, rec_dir):
    d.mkdir(parents=True, exist_ok=True)
EXT = [".stl", ".obj", ".dae", ".gltf", ".glb", ".ply", ".off"]
def mesh_seed(name, ext, data):
    (mesh_dir / name).write_bytes(bytes([EXT.index(ext)]) + (data.encode() if isinstance(data, str) else data))
V = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0), (0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1)]
F = [(0, 2, 1), (0, 3, 2), (4, 5, 6), (4, 6, 7), (0, 1, 5), (0, 5, 4), (1, 2, 6), (1, 6, 5), (2, 3, 7), (2, 7, 6), (3, 0, 4), (3, 4, 7)]
stl = "solid b\n" + "".join("facet normal 0 0 0\nouter loop\n" + "".join("vertex %g %g %g\n" % V[i] for i in f) + "endloop\nendfacet\n" for f in F) + "endsolid b\n"
mesh_seed("box_ascii.stl", ".stl", stl)
mesh_seed("box_binary.stl", ".stl", b" " * 80 + struct.pack("<I", len(F)) + b"".join(struct.pack("<12f", 0, 0, 0, *V[f[0]], *V[f[1]], *V[f[2]]) + b"\0\0" for f in F))
mesh_seed("box.obj", ".obj", "".join("v %g %g %g\n" % v for v in V) + "f 1 2 3 4\nf 5 6 7 8\n" + "".join("f %d %d %d\n" % tuple(i + 1 for i in f) for f in F[4:]))
mesh_seed("box.ply", ".ply", "ply\nformat ascii 1.0\nelement vertex 8\nproperty float x\nproperty float y\nproperty float z\nelement face 12\nproperty list uchar int vertex_indices\nend_header\n" + "".join("%g %g %g\n" % v for v in V) + "".join("3 %d %d %d\n" % f for f in F))
mesh_seed("box.off", ".off", "OFF\n8 12 0\n" + "".join("%g %g %g\n" % v for v in V) + "".join("3 %d %d %d\n" % f for f in F))
GEOM = ('<library_geometries><geometry id="g"><mesh><source id="p"><float_array id="pa" count="9">0 0 0 1 0 0 0 1 0</float_array><technique_common>'
        '<accessor source="#pa" count="3" stride="3"><param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/></accessor>'
        '</technique_common></source><vertices id="v"><input semantic="POSITION" source="#p"/></vertices><triangles count="1"><input semantic="VERTEX" '
        'source="#v" offset="0"/><p>0 1 2</p></triangles></mesh></geometry></library_geometries>')
def dae(library, scene):
    return ('<?xml version="1.0"?><COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1"><asset><unit meter="0.001"/><up_axis>Z_UP</up_axis></asset>' + GEOM +
            '<library_nodes>' + library + '</library_nodes><library_visual_scenes><visual_scene id="s">' + scene +
            '</visual_scene></library_visual_scenes><scene><instance_visual_scene url="#s"/></scene></COLLADA>')
# a textured Collada file (its texture is not beside the seed: the note for a missing one)
mesh_seed("textured.dae", ".dae", (root / "tests/data/textured/meshes/body.dae").read_text())
mesh_seed("tri.dae", ".dae", dae('<node id="A"><instance_geometry url="#g"/></node>', '<node id="r"><matrix>1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1</matrix><instance_node url="#A"/><instance_node url="#A"/></node>'))
mesh_seed("crash_cycle.dae", ".dae", dae('<node id="A"><instance_node url="#B"/></node><node id="B"><instance_node url="#A"/></node>', '<node id="r"><instance_geometry url="#g"/><instance_node url="#A"/></node>'))
mesh_seed("crash_deep.dae", ".dae", dae("", '<node><instance_geometry url="#g"/>' + "<node>" * 100000 + "</node>" * 100000 + "</node>"))
xyz = struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0)
def gltf(extra=""):
    return ('{"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}], "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}], '
            '"accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]}], '
            '"bufferViews": [{"buffer": 0, "byteLength": 36}], "buffers": [{"byteLength": 36, "uri": "data:application/octet-stream;base64,' +
            base64.b64encode(xyz).decode() + '"}]' + extra + '}')
mesh_seed("tri.gltf", ".gltf", gltf())
mesh_seed("crash_extras.gltf", ".gltf", gltf(', "extras": ' + "[" * 200000 + "]" * 200000))
js = gltf().replace('"uri": "data:application/octet-stream;base64,' + base64.b64encode(xyz).decode() + '"', "").encode()
js += b" " * (-len(js) % 4)
glb = b"glTF" + struct.pack("<II", 2, 12 + 8 + len(js) + 8 + 36) + struct.pack("<I", len(js)) + b"JSON" + js + struct.pack("<I", 36) + b"BIN\0" + xyz
mesh_seed("tri.glb", ".glb", glb)
for f in sorted((root / "models/robots").rglob("*")):
    if f.suffix.lower() in (".stl", ".dae", ".obj") and f.stat().st_size < 65536:
        mesh_seed("robot_" + f.name, f.suffix.lower(), f.read_bytes())

# Slurm: sweep path, results folder and partition, NUL-separated, then the task and core bytes
def slurm_seed(name, spec, results, partition, tasks=3, cpus=2):
    (slurm_dir / name).write_bytes(spec.encode() + b"\0" + results.encode() + b"\0" + partition.encode() + bytes([tasks, cpus]))
slurm_seed("plain", "sweeps/mass.json", "results", "")
slurm_seed("spaces", "my sweeps/it's \"here\".json", "out dir/r", "gpu,cpu")
slurm_seed("subst", "$(touch PWNED).json", "`touch PWNED`", "debug")
slurm_seed("newline", "a\ntouch PWNED\n.json", "r", "x")
slurm_seed("partition", "s.json", "r", "p\n#SBATCH --wrap=touch PWNED")
slurm_seed("glob", "*; rm -rf ~ ?.json", "~/r/${HOME}", "a.b-c_d")

# run recordings (.arec): ARTREC1\0, nq, nv, count, then count rows of t, q, v, kinetic, potential
def arec(name, rows, nq=1, nv=1, count=None):
    body = b"".join(struct.pack("<%dd" % len(r), *r) for r in rows)
    (rec_dir / name).write_bytes(b"ARTREC1\0" + struct.pack("<IIQ", nq, nv, len(rows) if count is None else count) + body)
arec("good.arec", [(0.01 * k, 0.1 * k, 0.2, 0.5, -1.0) for k in range(8)])
arec("wide.arec", [(0.01 * k, 1, 0, 0, 1, 0.1, 0, 0, 0.2, 0.3, -0.4) for k in range(4)], nq=4, nv=3)
arec("nan_time.arec", [(0.0, 0, 0, 0, 0), (float("nan"), 0, 0, 0, 0)])
arec("backwards.arec", [(0.5, 0, 0, 0, 0), (0.1, 0, 0, 0, 0)])
arec("lying.arec", [(0.0, 0, 0, 0, 0)], count=1000)
arec("inf_state.arec", [(0.0, float("inf"), 0, 0, 0)])

# control tables (CSV) for fuzz_controls' actuators 'servo', 'push' and an unnamed 'actuator 2'
ctrl_dir = out / "controls"
ctrl_dir.mkdir(parents=True, exist_ok=True)
for name, text in {
    "ramp.csv": "t,servo,push\n0,0,0\n1,1,0.2\n2,-0.5,0\n",
    "comments.csv": "# scripted\nt,push\n\n0,1\n# held\n0.5,2.5e-1\n",
    "unnamed.csv": "t,actuator 2,servo\n0,1,2\n",
    "one_row.csv": "t,servo\n3,1\n",
    "unknown.csv": "t,elbow\n0,1\n",
    "repeated.csv": "t,servo,servo\n0,1,2\n",
    "no_t.csv": "servo,push\n0,1\n",
    "short_row.csv": "t,servo,push\n0,1\n",
    "nan.csv": "t,servo\n0,nan\n",
    "overflow.csv": "t,servo\n0,1e999\n",
    "backwards.csv": "t,servo\n1,0\n0.5,1\n",
}.items():
    (ctrl_dir / name).write_text(text)

print(f"make_seeds: {len(list(json_dir.iterdir()))} JSON, {len(list(urdf_dir.iterdir()))} URDF, "
      f"{len(list(app_dir.iterdir()))} drawing-list, {len(list(sweep_dir.iterdir()))} sweep seeds in {out}")
