"""The Python module against the C++ engine's own results and independent references.

CTest runs this file with PYTHONPATH set to the build tree's python folder and ARTICULATE_CLI
set to that build's articulate-cli (tests/CMakeLists.txt). References:
- the CLI (`articulate-cli dynamics --json`, `simulate`, `sweep`), which calls the same engine
  functions: equal to the last bit where the computation is the same;
- spatial_v2's own numbers (tests/data/spatial_v2_cases.json);
- closed forms: a point's velocity by central differences of forward kinematics, an inertia
  matrix scaling with the masses.
"""

import csv
import json
import os
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import articulate

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
MODELS = os.path.join(ROOT, "models")
CLI = os.environ.get("ARTICULATE_CLI", "articulate-cli")
URDF = os.path.join(MODELS, "robots", "meshed_arm_description", "urdf", "meshed_arm.urdf")
MJCF = os.path.join(MODELS, "robots", "mjcf_quadruped", "quadruped.xml")

# trees without loop or gear constraints, whose forward dynamics the CLI computes with aba
TREES = ["arm6.json", "double_pendulum.json", "ball_chain.json", "floatbase_tree.json",
         "planar5.json", "autotree_tree15.json", "helical_screw.json", "quadruped.json"]


def model_path(name):
    return name if os.path.isabs(name) else os.path.join(MODELS, name)


def cli(*args):
    done = subprocess.run([CLI, *args], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


def numbers(v):
    # repr of a float round-trips exactly
    return ",".join(repr(float(x)) for x in v)


def random_state(model, rng):
    q = model.q0 + rng.uniform(-0.7, 0.7, model.nq)
    for j in model.joints:  # quaternions of free and ball joints stay unit
        if j["type"] in ("free", "ball"):
            s = j["q_index"] + (3 if j["type"] == "free" else 0)
            q[s:s + 4] /= np.linalg.norm(q[s:s + 4])
    return q, rng.uniform(-1.5, 1.5, model.nv), rng.uniform(-2, 2, model.nv)


# ------------------------------------------------------------------ loading and model facts

def test_loads_every_kind_the_app_opens():
    kinds = {}
    for name in sorted(os.listdir(MODELS)):
        if name.endswith(".json"):
            m = articulate.load(os.path.join(MODELS, name))
            kinds.setdefault(m.kind, []).append(name)
            assert m.nq >= 1 and m.nv >= 1 and m.nu == 0
            assert m.q0.shape == (m.nq,) and m.qd0.shape == (m.nv,)
    assert set(kinds) == {"tree", "rigid_body", "structure"}
    assert "bouncing_cylinder.json" in kinds["rigid_body"]
    assert "tensegrity_prism.json" in kinds["structure"]
    urdf = articulate.load(URDF, base="fixed")
    assert urdf.format == "urdf" and urdf.kind == "tree"
    assert articulate.load(URDF, base="floating").nq == urdf.nq + 7
    mjcf = articulate.load(MJCF)
    assert mjcf.format == "mjcf"


def test_model_facts_match_the_cli():
    for path, base in [(model_path("arm6.json"), None), (URDF, "fixed"), (MJCF, None),
                       (model_path("ball_chain.json"), None)]:
        m = articulate.load(path, base=base)
        args = ["dynamics", path, "--json"] + (["--base", base] if base else [])
        ref = json.loads(cli(*args))
        assert (m.nq, m.nv) == (ref["nq"], ref["nv"])
        assert [j["name"] for j in m.joints] == [c["joint"] for c in ref["coordinates"]]
        assert [j["body"] for j in m.joints] == [c["body"] for c in ref["coordinates"]]
        assert [j["type"] for j in m.joints] == [c["type"] for c in ref["coordinates"]]
        assert [j["nq"] for j in m.joints] == [c["size"] for c in ref["coordinates"]]
        assert np.array_equal(m.q0, ref["q"]) and np.array_equal(m.qd0, ref["qd"])
        assert m.joints[0]["parent"] is None
        assert m.bodies == [j["body"] for j in m.joints]
        assert m.body_index(m.bodies[-1]) == m.nb - 1
    urdf = articulate.load(URDF, base="fixed")
    assert [j["name"] for j in urdf.joints][0] != urdf.bodies[0]  # the file's joint names


def test_gravity_keyframes_and_motion():
    m = articulate.load(model_path("arm6.json"))
    assert np.array_equal(m.gravity, [0, 0, -9.81])
    doc = m.to_json()
    doc["gravity"] = [0.0, 1.0, -3.0]
    doc["keyframes"] = [{"name": "up", "time": 0.5, "q": [0.1] * m.nq, "qd": [0.0] * m.nv}]
    edited = articulate.from_json(doc)
    assert np.array_equal(edited.gravity, [0, 1, -3])
    t, q, qd = edited.keyframes["up"]
    assert t == 0.5 and np.array_equal(q, [0.1] * m.nq) and not qd.any()
    assert m.motion is None


# ------------------------------------------------------------------ dynamics against the engine's CLI

@pytest.mark.parametrize("name", TREES + ["urdf", "mjcf"])
def test_dynamics_equal_the_cli_to_the_last_bit(name):
    path, base = {"urdf": (URDF, "fixed"), "mjcf": (MJCF, None)}.get(name, (model_path(name), None))
    m = articulate.load(path, base=base)
    rng = np.random.default_rng(len(name))
    q, qd, tau = random_state(m, rng)
    args = ["dynamics", path, "--json", "--q", numbers(q), "--qd", numbers(qd), "--tau", numbers(tau)]
    ref = json.loads(cli(*(args + (["--base", base] if base else []))))
    # the state the CLI used (it normalises quaternions as it reads them)
    assert np.allclose(ref["q"], q, rtol=0, atol=1e-15)
    q = np.array(ref["q"])
    assert np.array_equal(articulate.crba(m, q), np.array(ref["H"]))
    assert np.array_equal(articulate.rnea(m, q, qd, np.zeros(m.nv)), ref["bias"])
    if not m.constraints:  # the CLI's qdd is then the constrained dynamics
        # with the actuators' (zero controls) and the passive joint forces (springs, damping)
        # the CLI adds to tau, as MuJoCo's qacc has them
        forces = tau + np.array(ref["qfrc_actuator"]) + np.array(ref["qfrc_passive"])
        assert np.array_equal(articulate.aba(m, q, qd, forces), ref["qdd"])
    # bias() is the same quantity by the engine's own bias function
    assert np.allclose(articulate.bias(m, q, qd), ref["bias"], rtol=1e-12, atol=1e-12)
    # tau = H qdd + C closes the loop
    qdd = articulate.aba(m, q, qd, tau)
    assert np.allclose(articulate.crba(m, q) @ qdd + articulate.bias(m, q, qd), tau, rtol=1e-9, atol=1e-9)


def spatial_v2_cases():
    data = json.load(open(os.path.join(ROOT, "tests", "data", "spatial_v2_cases.json")))
    # the floating bases (spatial_v2's six joints, read as a free joint) are test_conformance's
    return [c for c in data["cases"] if not c["name"].startswith(("floatbase", "rollingdisc"))]


@pytest.mark.parametrize("case", spatial_v2_cases(), ids=lambda c: c["name"])
def test_dynamics_match_spatial_v2(case):
    m = articulate.from_json(case["model"])
    i, o = case["inputs"], case["outputs"]
    q, qd = np.array(i["q"]), np.array(i["qd"])
    fext = None if i["f_ext"] is None else np.array(i["f_ext"])

    def close(got, want, what):
        want = np.array(want)
        err = np.linalg.norm(got - want) / max(1.0, np.linalg.norm(want))
        assert err < 1e-9, f"{what}: relative error {err}"

    close(articulate.rnea(m, q, qd, i["qdd"], fext=fext), o["ID_tau"], "ID")
    close(articulate.aba(m, q, qd, i["tau"], fext=fext), o["FDab_qdd"], "FDab")
    close(articulate.crba(m, q), o["H"], "H")
    close(articulate.bias(m, q, qd, fext=fext), o["C"], "C")
    kinetic, potential = articulate.energy(m, q, qd)
    close(np.array([kinetic, potential]), [o["EnerMo"]["KE"], o["EnerMo"]["PE"]], "EnerMo")
    # X0 maps base to body coordinates: the pose's rotation is its E transposed, and its
    # position r is in X0's lower-left block (-E rx spatial; [s -c; c s] r planar)
    poses = articulate.forward_kinematics(m, q)
    for b, X0 in enumerate(o["X0"]):
        X0 = np.array(X0)
        if X0.shape == (6, 6):
            E = X0[:3, :3]
            rx = -E.T @ X0[3:, :3]
            r = np.array([rx[2, 1], rx[0, 2], rx[1, 0]])
            close(poses[b, :3, :3], E.T, f"X0[{b}] rotation")
        else:
            c, s = X0[1, 1], X0[1, 2]
            r = np.linalg.solve(np.array([[s, -c], [c, s]]), X0[1:, 0])
            r = np.array([r[0], r[1], 0.0])
            close(poses[b, :2, :2], np.array([[c, s], [-s, c]]).T, f"X0[{b}] rotation")
        close(poses[b, :3, 3], r, f"X0[{b}] position")
    assert np.array_equal(poses[:, 3, :], np.tile([0, 0, 0, 1.0], (m.nb, 1)))


def test_point_jacobian_is_the_velocity_of_the_point():
    for name in ["arm6.json", "planar5.json", "helical_screw.json"]:
        m = articulate.load(model_path(name))
        rng = np.random.default_rng(3)
        q, qd, _ = random_state(m, rng)
        point = np.array([0.1, -0.2, 0.05])
        h = 1e-6

        def position(qq, body):
            T = articulate.forward_kinematics(m, qq)[body]
            return T[:3, :3] @ point + T[:3, 3]

        for body in range(m.nb):
            J = articulate.point_jacobian(m, q, body, point)
            fd = (position(q + h * qd, body) - position(q - h * qd, body)) / (2 * h)
            assert np.allclose(J @ qd, fd, atol=1e-7), (name, body)
        assert np.array_equal(articulate.point_jacobian(m, q, m.bodies[-1], point),
                              articulate.point_jacobian(m, q, m.nb - 1, point))


def test_editing_a_model_as_data():
    m = articulate.load(model_path("double_pendulum.json"))
    doc = m.to_json()
    for body in doc["bodies"]:  # twice the mass and inertia of every body: H doubles exactly
        inertia = body["inertia"]
        inertia["mass"] *= 2
        about = inertia["about_com"]  # a number (planar) or a 3x3 matrix
        inertia["about_com"] = 2 * about if isinstance(about, float) else [[2 * x for x in r] for r in about]
    heavy = articulate.from_json(json.dumps(doc))
    q = np.array([0.3, -0.8])
    assert np.array_equal(articulate.crba(heavy, q), 2 * articulate.crba(m, q))
    # a body added as data compiles with one more joint
    extra = dict(doc["bodies"][-1], name="third", parent=doc["bodies"][-1]["name"])
    doc["bodies"].append(extra)
    assert articulate.from_json(doc).nq == m.nq + 1


# ------------------------------------------------------------------ batches, out= and the GIL

@pytest.mark.parametrize("name", ["autotree_chain7.json", "floatbase_tree.json", "ball_chain.json"])
def test_batches_equal_single_calls(name):
    m = articulate.load(model_path(name))
    rng = np.random.default_rng(5)
    states = [random_state(m, rng) for _ in range(37)]  # not a multiple of the lanes
    Q, QD, TAU = (np.array([s[k] for s in states]) for k in range(3))
    QDD = rng.uniform(-1, 1, (len(states), m.nv))
    single = np.array([articulate.aba(m, *s) for s in states])
    for threads in (1, 3):
        batch = articulate.aba_batch(m, Q, QD, TAU, threads=threads)
        # the lanes order operations differently: equal to rounding; one state at a time: bits
        assert np.allclose(batch, single, rtol=1e-11, atol=1e-11)
        assert np.array_equal(articulate.rnea_batch(m, Q, QD, QDD, threads=threads),
                              [articulate.rnea(m, q, qd, a) for (q, qd, _), a in zip(states, QDD)])
        assert np.array_equal(articulate.bias_batch(m, Q, QD, threads=threads),
                              [articulate.rnea(m, q, qd, np.zeros(m.nv)) for q, qd, _ in states])
        assert np.array_equal(articulate.crba_batch(m, Q, threads=threads),
                              [articulate.crba(m, q) for q, _, _ in states])
        assert np.array_equal(articulate.energy_batch(m, Q, QD, threads=threads),
                              [articulate.energy(m, q, qd) for q, qd, _ in states])
    # the lanes give a state the same bits whatever the other states
    assert np.array_equal(articulate.aba_batch(m, Q[:5], QD[:5], TAU[:5])[3],
                          articulate.aba_batch(m, Q[3:4], QD[3:4], TAU[3:4])[0])


def test_out_buffers_are_reused():
    m = articulate.load(model_path("autotree_chain7.json"))
    q, qd, tau = random_state(m, np.random.default_rng(1))
    out = np.empty(m.nv)
    address = out.ctypes.data
    for _ in range(3):
        got = articulate.aba(m, q, qd, tau, out=out)
        assert got is out and out.ctypes.data == address
    assert np.array_equal(out, articulate.aba(m, q, qd, tau))
    H = np.empty((m.nv, m.nv))
    assert articulate.crba(m, q, out=H) is H
    poses = np.empty((m.nb, 4, 4))
    assert articulate.forward_kinematics(m, q, out=poses) is poses
    J = np.empty((3, m.nv))
    assert articulate.point_jacobian(m, q, 0, out=J) is J
    Q = np.tile(q, (10, 1))
    batch = np.empty((10, m.nv))
    assert articulate.aba_batch(m, Q, np.tile(qd, (10, 1)), out=batch) is batch
    # allocation: a loop with out= creates no new arrays (tracemalloc counts numpy's buffers)
    import tracemalloc
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    for _ in range(2000):
        articulate.aba(m, q, qd, tau, out=out)
    grown = sum(s.size_diff for s in tracemalloc.take_snapshot().compare_to(before, "filename")
                if s.size_diff > 0 and "tracemalloc" not in str(s.traceback))
    tracemalloc.stop()
    assert grown < 20000, f"{grown} bytes kept by 2000 calls"


def test_batched_calls_release_the_gil():
    m = articulate.load(model_path("autotree_tree15.json"))
    rng = np.random.default_rng(2)
    Q = rng.uniform(-1, 1, (200000, m.nq))
    QD = rng.uniform(-1, 1, (200000, m.nv))
    ticks = []
    done = threading.Event()

    def count():
        while not done.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    counter = threading.Thread(target=count)
    counter.start()
    time.sleep(0.02)
    start = time.perf_counter()
    articulate.aba_batch(m, Q, QD, threads=1)
    end = time.perf_counter()
    done.set()
    counter.join()
    during = [t for t in ticks if start < t < end]
    assert end - start > 0.05, "the batch was too short to tell"
    # a thread blocked by the GIL ticks at most once or twice during the call
    assert len(during) > 0.25 * (end - start) / 0.001, (len(during), end - start)


# ------------------------------------------------------------------ simulation and sweeps

@pytest.mark.parametrize("name", ["double_pendulum.json", "fourbar.json", "bouncing_cylinder.json",
                                  "natural_pendulum.json"])
def test_simulate_equals_the_cli(tmp_path, name):
    m = articulate.load(model_path(name))
    trajectory = m.simulate(0.5, every=5)
    out = tmp_path / "run.csv"
    cli("simulate", model_path(name), "--duration", "0.5", "--every", "5", "-o", str(out))
    rows = list(csv.reader(open(out)))
    table = np.array(rows[1:], dtype=float)
    n = len(trajectory)
    assert table.shape[0] == n and trajectory.divergence is None
    assert np.array_equal(trajectory.t, table[:, 0])
    assert np.array_equal(trajectory.q, table[:, 1:1 + m.nq])
    assert np.array_equal(trajectory.qd, table[:, 1 + m.nq:1 + m.nq + m.nv])
    assert np.array_equal(trajectory.kinetic, table[:, -3])
    assert np.array_equal(trajectory.potential, table[:, -2])
    assert trajectory.constraint_forces.shape[0] == n


ARM = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "mjcf", "actuated_arm.xml")


def test_simulate_with_controls_equals_the_cli(tmp_path):
    # a control table drives the simulation as the CLI's --ctrl CSV does, to the last bit
    m = articulate.load(ARM)
    assert m.nu == len(m.actuators) > 5 and m.actuators[0]
    times = np.array([0.0, 0.2, 0.5])
    rng = np.random.default_rng(4)
    values = rng.uniform(-0.8, 0.8, (3, m.nu))
    tr = m.simulate(0.5, ctrl=(times, values), every=10)
    table = tmp_path / "ctrl.csv"
    with open(table, "w") as f:
        f.write(",".join(["t"] + m.actuators) + "\n")
        for t, row in zip(times, values):
            f.write(numbers([t, *row]) + "\n")
    out = tmp_path / "run.csv"
    text = cli("simulate", ARM, "--duration", "0.5", "--every", "10", "--ctrl", str(table), "-o", str(out))
    assert "actuators did" in text
    cli_rows = np.array(list(csv.reader(open(out)))[1:], dtype=float)
    assert cli_rows.shape[0] == len(tr) and tr.divergence is None
    assert np.array_equal(tr.q, cli_rows[:, 1:1 + m.nq])
    assert np.array_equal(tr.kinetic, cli_rows[:, -3])
    # the energy account: total + dissipated - work stays put while the actuators do work
    assert abs(tr.actuator_work[-1]) > 0.05
    balance = tr.total + tr.dissipated - tr.actuator_work
    assert np.max(np.abs(balance - balance[0])) < 1e-3 * np.max(np.abs(tr.actuator_work))
    # a constant vector holds; a table of one row is the same constant
    held = m.simulate(0.2, ctrl=values[1], every=10)
    same = m.simulate(0.2, ctrl=(np.array([0.0]), values[1:2]), every=10)
    assert np.array_equal(held.q, same.q) and not np.array_equal(held.q, tr.q[:len(held)])
    with pytest.raises(ValueError, match=f"ctrl: expected shape \\({m.nu},\\)"):
        m.simulate(0.1, ctrl=[1.0])
    with pytest.raises(ValueError, match="strictly increasing"):
        m.simulate(0.1, ctrl=(np.array([0.0, 0.0]), values[:2]))


def test_simulate_options_and_energy():
    m = articulate.load(model_path("double_pendulum.json"))
    q0 = np.array([1.0, -0.5])
    tr = m.simulate(2.0, dt=0.0005, integrator="dopri5", q0=q0, every=4)
    assert tr.integrator == "dopri5" and tr.t[0] == 0 and abs(tr.t[-1] - 2.0) < 1e-12
    assert np.array_equal(tr.q[0], q0)
    assert abs(tr.total[-1] - tr.total[0]) < 1e-6 * abs(tr.total[0]) + 1e-9  # a passive model
    with pytest.raises(ValueError, match="ctrl: this model has no actuators"):
        m.simulate(1.0, ctrl=[1.0])
    with pytest.raises(ValueError, match="duration"):
        m.simulate(float("nan"))
    with pytest.raises(ValueError, match="q0: expected shape \\(2,\\)"):
        m.simulate(1.0, q0=[1.0])


def test_sweep_equals_the_cli(tmp_path):
    spec = {"format": "articulate-sweep", "version": 1,
            "model": model_path("tree_double_pendulum.json"),
            "parameters": [{"name": "theta1", "initial_q": 0, "values": [0.2, 0.6, 1.0]},
                           {"name": "theta2", "initial_q": 1, "values": [0.0, 0.5]}],
            "duration": 0.5, "dt": 0.001, "every": 10,
            "metrics": [{"max": "q1"}, "energy_drift"]}
    table = articulate.sweep(spec, jobs=2)
    path = tmp_path / "sweep.json"
    path.write_text(json.dumps(spec))
    cli("sweep", str(path), "-o", str(tmp_path / "results"), "-j", "1")
    rows = list(csv.DictReader(open(tmp_path / "results" / "results.csv")))
    assert list(table) == list(rows[0])
    assert table["run"].dtype == np.int64 and list(table["run"]) == list(range(6))
    assert list(table["status"]) == ["ok"] * 6
    for column in ("theta1", "theta2", "max(q1)", "energy_drift", "end_time"):
        assert np.array_equal(table[column], [float(r[column]) for r in rows]), column
    # the same from the file, kept in a results folder
    kept = articulate.sweep(path, results=tmp_path / "kept")
    assert np.array_equal(kept["max(q1)"], table["max(q1)"])
    assert (tmp_path / "kept" / "results.csv").exists()


# ------------------------------------------------------------------ motions, show and render

def test_save_motion_writes_what_the_app_opens(tmp_path):
    m = articulate.load(model_path("arm6.json"))
    tr = m.simulate(0.3, every=10)
    path = articulate.save_motion(tmp_path / "motion.json", m, tr.t, tr.q, tr.qd)
    again = articulate.load(path)
    assert again.format == "articulate-recording"
    t, q = again.motion
    assert np.array_equal(t, tr.t) and np.array_equal(q, tr.q)
    with pytest.raises(ValueError, match="must not decrease"):
        articulate.save_motion(tmp_path / "bad.json", m, tr.t[::-1], tr.q)
    with pytest.raises(ValueError, match=r"q: expected shape \(%d, %d\)" % (len(tr.t), m.nq)):
        articulate.save_motion(tmp_path / "bad.json", m, tr.t, tr.q[:, :2])
    assert not (tmp_path / "bad.json").exists()


def needs_app(test):
    # CTest runs these apart (test_python_app), under the X lock the GUI tests share
    skip = pytest.mark.skipif(not os.environ.get("DISPLAY") or not os.environ.get("ARTICULATE_APP"),
                              reason="needs the application and a display (CTest runs it under Xvfb)")
    return pytest.mark.app(skip(test))


@needs_app
def test_render_writes_the_pose(tmp_path, monkeypatch):
    for variable in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
        monkeypatch.setenv(variable, str(tmp_path / variable))
    m = articulate.load(model_path("arm6.json"))
    png = articulate.render(m, m.q0, tmp_path / "arm.png", size=(320, 240))
    data = open(png, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (width, height) == (320, 240)
    with pytest.raises(ValueError, match="q: expected shape"):
        articulate.render(m, [0.0], tmp_path / "bad.png")


@needs_app
def test_show_opens_the_app_on_the_motion(tmp_path, monkeypatch):
    for variable in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):  # the app's settings
        monkeypatch.setenv(variable, str(tmp_path / variable))
    m = articulate.load(model_path("double_pendulum.json"))
    tr = m.simulate(1.0, every=10)
    process = articulate.show(m, tr.t, tr.q, path=tmp_path / "shown.json")
    try:
        time.sleep(3)
        assert process.poll() is None, "the application exited instead of showing the motion"
    finally:
        process.terminate()
        process.wait(10)
    t, q = articulate.load(process.motion_path).motion
    assert np.array_equal(q, tr.q)


def test_without_a_display_show_and_render_say_what_they_need(tmp_path, monkeypatch):
    m = articulate.load(model_path("arm6.json"))
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    with pytest.raises(RuntimeError, match="show\\(\\) needs a display"):
        articulate.show(m, [0.0], [m.q0])
    monkeypatch.setenv("ARTICULATE_APP", os.environ.get("ARTICULATE_APP") or sys.executable)
    monkeypatch.setattr(articulate.shutil, "which", lambda name: None)  # no xvfb-run either
    with pytest.raises(RuntimeError, match="render\\(\\) needs an X display: set DISPLAY, or install xvfb"):
        articulate.render(m, m.q0, tmp_path / "x.png")
    assert not (tmp_path / "x.png").exists()


# ------------------------------------------------------------------ bad input

def test_bad_input_raises_clear_errors(tmp_path):
    m = articulate.load(model_path("arm6.json"))
    q = m.q0
    with pytest.raises(ValueError, match=r"q: expected shape \(6,\), got \(3,\)"):
        articulate.aba(m, q[:3], q)
    with pytest.raises(ValueError, match=r"qd\[2\] is nan"):
        articulate.aba(m, q, [0, 0, float("nan"), 0, 0, 0])
    with pytest.raises(ValueError, match=r"q\[1, 0\] is inf"):
        articulate.aba_batch(m, [q, [np.inf] + [0] * 5], [q, q])
    with pytest.raises(TypeError, match="q: expected an array of numbers"):
        articulate.crba(m, "not numbers")
    with pytest.raises(ValueError, match=r"q: expected an \(N, 6\) array"):
        articulate.aba_batch(m, q, q)
    # other dtypes and layouts are converted once
    assert np.array_equal(articulate.crba(m, [0, 0, 0, 0, 0, 0]), articulate.crba(m, np.zeros(6)))
    strided = np.zeros(12)[::2]
    assert np.array_equal(articulate.crba(m, strided), articulate.crba(m, np.zeros(6)))
    with pytest.raises(ValueError, match="out: .*got dtype float32"):
        articulate.aba(m, q, q, out=np.empty(6, dtype=np.float32))
    with pytest.raises(ValueError, match="out: .*not C-contiguous"):
        articulate.crba(m, q, out=np.empty((6, 12))[:, ::2])
    with pytest.raises(ValueError, match="body: the model has no body named 'nope'"):
        articulate.point_jacobian(m, q, "nope")
    with pytest.raises(FileNotFoundError, match="no_such_model.json: no such file"):
        articulate.load(tmp_path / "no_such_model.json")
    with pytest.raises(articulate.FormatError, match=r"bodies\[0\]"):
        articulate.from_json({"format": "articulate-model", "version": 1, "bodies": [{"name": 3}]})
    with pytest.raises(articulate.FormatError):
        articulate.from_json({"hello": "world"})
    with pytest.raises(TypeError, match="from_json: expected a dict or a JSON string"):
        articulate.from_json(42)
    bad = tmp_path / "bad.urdf"
    bad.write_text("<robot name='r'><link name='a'><inertial><mass value='1'/></inertial></link>")
    with pytest.raises(articulate.FormatError) as error:
        articulate.load(bad)
    assert "bad.urdf" in str(error.value)
    # the same message as the CLI's
    done = subprocess.run([CLI, "info", str(bad)], capture_output=True, text=True)
    assert str(error.value) in done.stderr
    with pytest.raises(ValueError, match="base: for URDF files only"):
        articulate.load(model_path("arm6.json"), base="fixed")
    with pytest.raises(ValueError, match="base: expected 'auto', 'fixed' or 'floating'"):
        articulate.load(URDF, base="welded")
    cylinder = articulate.load(model_path("bouncing_cylinder.json"))
    with pytest.raises(TypeError, match="aba: takes a kinematic tree; this model is a rigid_body"):
        articulate.aba(cylinder, [0], [0])


# ------------------------------------------------------------------ stubs and examples

def test_stubs_name_what_the_module_has():
    import ast
    stub = ast.parse(open(os.path.join(os.path.dirname(articulate.__file__), "__init__.pyi")).read())
    names = {n.name for n in stub.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    names |= {n.target.id for n in stub.body if isinstance(n, ast.AnnAssign)}
    assert set(articulate.__all__) <= names
    model = next(n for n in stub.body if isinstance(n, ast.ClassDef) and n.name == "Model")
    members = {n.name for n in model.body if isinstance(n, ast.FunctionDef)}
    public = {a for a in dir(articulate.Model) if not a.startswith("_")}
    assert public == members, public ^ members


EXAMPLES = os.path.join(ROOT, "python", "examples")


@pytest.mark.parametrize("script", sorted(f for f in os.listdir(EXAMPLES) if f.endswith(".py")))
def test_examples_run(tmp_path, script):
    env = dict(os.environ, MPLBACKEND="Agg")
    done = subprocess.run([sys.executable, os.path.join(EXAMPLES, script), "--save", str(tmp_path)],
                          capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert os.listdir(tmp_path), "the example wrote nothing"
