#!/usr/bin/env python3
"""Writes the fuzz harnesses' seed corpora (scripts/fuzz.sh) under DIR:
  DIR/json        JSON documents: the example models, the test suite's malformed files and fuzz
                  regressions, the reference data's spatial_v2 models, with their motions
                  (showmotion's t and q beside the struct) where the data has trajectories;
  DIR/urdf        URDF robots: the test fixture, and robots written here in the shapes users
                  bring (package:// meshes, mimic joints, limits, fixed joints, every joint type
                  the importer knows and those it refuses, deep but legal nesting);
  DIR/appearance  drawing-instruction lists of the models, each behind one byte that chooses
                  a body's list (even) or the base's (odd) for fuzz_appearance.
Deterministic: the same tree gives the same seeds."""
import json
import pathlib
import sys

root = pathlib.Path(__file__).resolve().parents[2]
out = pathlib.Path(sys.argv[1])
json_dir, urdf_dir, app_dir = (out / d for d in ("json", "urdf", "appearance"))
for d in (json_dir, urdf_dir, app_dir):
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

seen = set()
for k, (is_base, lst) in enumerate(appearances):
    text = json.dumps(lst)
    if (is_base, text) in seen:
        continue
    seen.add((is_base, text))
    (app_dir / f"list_{k}.json").write_bytes(bytes([is_base]) + text.encode())

print(f"make_seeds: {len(list(json_dir.iterdir()))} JSON, {len(list(urdf_dir.iterdir()))} URDF, "
      f"{len(list(app_dir.iterdir()))} drawing-list seeds in {out}")
