#!/usr/bin/env python3
"""Checks docs/model-format.schema.json: it is a valid JSON Schema, every Articulate-format file
given (or found in a given directory) validates against it, and documents that break its rules
are rejected (so the check can fail). Usage: check_schema.py SCHEMA (MODEL.json | DIR)..."""
import copy
import glob
import json
import os
import sys

import jsonschema


def main():
    schema = json.load(open(sys.argv[1]))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    checked = 0
    failures = 0
    sample = None
    rigid = None  # a "rigid_body" document, if one was given
    paths = []
    for arg in sys.argv[2:]:
        paths += sorted(glob.glob(os.path.join(arg, "*.json"))) if os.path.isdir(arg) else [arg]
    for path in paths:
        doc = json.load(open(path))
        if doc.get("format") != "articulate-model":
            continue  # spatial_v2 files are not described by this schema
        errors = sorted(validator.iter_errors(doc), key=str)
        checked += 1
        if doc.get("kind") == "rigid_body":
            rigid = rigid or doc
        else:
            sample = sample or doc
        for e in errors:
            failures += 1
            print(f"FAIL {path}: {'/'.join(map(str, e.absolute_path))}: {e.message}")
    if checked == 0:
        print("FAIL no Articulate-format model was given")
        return 1
    # the schema must reject broken documents
    broken = [
        ("unknown field", lambda d: d.update({"gravty": [0, 0, -9.81]})),
        ("wrong format", lambda d: d.update({"format": "urdf"})),
        ("body without joint", lambda d: d["bodies"][0].pop("joint")),
        ("negative mass", lambda d: d["bodies"][0].update({"inertia": {"mass": -1}})),
        ("unknown joint", lambda d: d["bodies"][0].update({"joint": "Rq"})),
    ]
    for label, breaker in broken:
        doc = copy.deepcopy(sample)
        if not doc.get("bodies"):
            doc["bodies"] = [{"name": "a", "parent": "base", "joint": "Rz", "inertia": {"mass": 1}}]
        breaker(doc)
        if validator.is_valid(doc):
            failures += 1
            print(f"FAIL the schema accepts a document with: {label}")
    # and broken rigid bodies, when one was given
    broken_rigid = [
        ("rigid body: tree field", lambda d: d.update({"bodies": []})),
        ("rigid body: unknown shape", lambda d: d.update({"shape": {"type": "cone", "radius": 1}})),
        ("rigid body: negative radius", lambda d: d.update({"shape": {"type": "sphere", "radius": -1}})),
        ("rigid body: mass and density", lambda d: d.update({"mass": 1, "density": 1000})),
        ("rigid body: no mass", lambda d: (d.pop("mass", None), d.pop("density", None))),
        ("rigid body: restitution above 1", lambda d: d.update(
            {"floor": {"restitution": 1.5, "friction": 0.1}})),
    ] if rigid else []
    for label, breaker in broken_rigid:
        doc = copy.deepcopy(rigid)
        breaker(doc)
        if validator.is_valid(doc):
            failures += 1
            print(f"FAIL the schema accepts a document with: {label}")
    broken += broken_rigid
    print(f"{checked} models checked against the schema, {len(broken)} broken documents; "
          f"{failures} failures")
    print(f"{checked + len(broken) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
