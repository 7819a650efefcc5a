#!/usr/bin/env python3
"""Checks docs/sweep.schema.json: it is a valid JSON Schema, every sweep file given (or found in
a given directory) validates against it, and sweeps that break its rules are rejected (so the
check can fail). Usage: check_sweep_schema.py SCHEMA (SWEEP.json | DIR)..."""
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
    paths = []
    for arg in sys.argv[2:]:
        paths += sorted(glob.glob(os.path.join(arg, "*.json"))) if os.path.isdir(arg) else [arg]
    failures = 0
    sample = None
    for path in paths:
        doc = json.load(open(path))
        sample = sample or doc
        for e in sorted(validator.iter_errors(doc), key=str):
            failures += 1
            print(f"FAIL {path}: {'/'.join(map(str, e.absolute_path))}: {e.message}")
    if sample is None or not sample.get("parameters"):
        print("FAIL no sweep with parameters was given")
        return 1
    p0 = lambda d: d["parameters"][0]
    broken = [
        ("unknown field", lambda d: d.update({"paramters": []})),
        ("wrong format", lambda d: d.update({"format": "articulate-model"})),
        ("no duration", lambda d: d.pop("duration")),
        ("zero duration", lambda d: d.update({"duration": 0})),
        ("unknown combine", lambda d: d.update({"combine": "product"})),
        ("two targets", lambda d: p0(d).update({"pointer": "/name", "initial_q": 0})),
        ("no target", lambda d: [p0(d).pop(k, None) for k in ("pointer", "initial_q", "initial_qd")]),
        ("two value kinds", lambda d: p0(d).update({"values": [1], "random": {"uniform": [0, 1], "count": 2}})),
        ("empty values", lambda d: (p0(d).clear(), p0(d).update({"initial_q": 0, "values": []}))),
        ("range with count and step", lambda d: (p0(d).clear(), p0(d).update(
            {"initial_q": 0, "range": {"from": 0, "to": 1, "count": 2, "step": 0.5}}))),
        ("random without count", lambda d: (p0(d).clear(), p0(d).update(
            {"initial_q": 0, "random": {"uniform": [0, 1]}}))),
        ("negative standard deviation", lambda d: (p0(d).clear(), p0(d).update(
            {"initial_q": 0, "random": {"normal": [0, -1], "count": 3}}))),
        ("unknown metric", lambda d: d.update({"metrics": ["energy"]})),
        ("metric with two series", lambda d: d.update({"metrics": [{"max": "q0", "min": "q1"}]})),
        ("every 0", lambda d: d.update({"every": 0})),
    ]
    for label, breaker in broken:
        doc = copy.deepcopy(sample)
        breaker(doc)
        if validator.is_valid(doc):
            failures += 1
            print(f"FAIL the schema accepts a sweep with: {label}")
    print(f"{len(paths)} sweeps checked against the schema, {len(broken)} broken sweeps; {failures} failures")
    print(f"{len(paths) + len(broken) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
