"""Articulate from Python: load a model, compute its dynamics on numpy arrays, simulate,
sweep, and watch any motion in the Articulate application.

    import articulate
    panda = articulate.load("panda.urdf", base="fixed")
    H = articulate.crba(panda, panda.q0)
    traj = panda.simulate(2.0)
    articulate.show(panda, traj.t, traj.q)

Units are SI (m, rad, kg, s, N, N m, J); frames are the model's base coordinates unless a
function says otherwise. The reference is docs/python.md.
"""

import os
import shutil
import subprocess
import tempfile

from ._articulate import (  # noqa: F401  (the engine's functions, re-exported)
    LANES,
    FormatError,
    Model,
    Trajectory,
    aba,
    aba_batch,
    bias,
    bias_batch,
    crba,
    crba_batch,
    energy,
    energy_batch,
    forward_kinematics,
    from_json,
    load,
    point_jacobian,
    rnea,
    rnea_batch,
)
from . import _articulate

__all__ = [
    "FormatError", "Model", "Trajectory", "LANES", "load", "from_json",
    "forward_kinematics", "point_jacobian", "rnea", "bias", "aba", "crba", "energy",
    "aba_batch", "rnea_batch", "bias_batch", "crba_batch", "energy_batch",
    "sweep", "save_motion", "show", "render", "application",
]


def _as_model(model_or_path, base=None):
    if isinstance(model_or_path, Model):
        return model_or_path
    return load(os.fspath(model_or_path), base=base)


def sweep(spec, jobs=None, results=None):
    """Runs a parameter sweep as `articulate-cli sweep` does (docs/sweeps.md) and returns its
    results table as a dict of columns: numpy arrays of numbers (run and steps as integers,
    empty cells NaN) and object arrays of text (status, reason).

    spec: a sweep file's path, or the sweep document as a dict (a relative model path is then
    resolved against the current folder). jobs: threads (default: every core). results: the
    results folder to keep (it can be resumed and opened in the app); default: a temporary
    one, removed afterwards. Ctrl+C stops it between samples (KeyboardInterrupt). Raises
    FormatError for a sweep file the CLI would refuse, with the same message."""
    if not isinstance(spec, dict):
        spec = os.fspath(spec)
    if results is not None:
        return _articulate._sweep(spec, os.fspath(results), jobs)
    with tempfile.TemporaryDirectory(prefix="articulate-sweep-") as folder:
        return _articulate._sweep(spec, os.path.join(folder, "results"), jobs)


def save_motion(path, model, t, q, qd=None):
    """Writes the motion (t: (T,) s, non-decreasing; q: (T, nq); qd: (T, nv), optional) of a
    tree model as an Articulate recording that the application opens and plays back, as
    spatial_v2's showmotion does. With qd, the file also carries the kinetic and potential
    energy of every sample for the plots. The file is written atomically. Returns the path."""
    path = os.fspath(path)
    _articulate._save_motion(path, _as_model(model), t, q, qd)
    return path


def application():
    """The Articulate application's executable: $ARTICULATE_APP, else the one of the build
    tree this module was built in, else `articulate` on PATH. Raises FileNotFoundError naming
    where it looked."""
    candidates = [os.environ.get("ARTICULATE_APP", ""), _articulate._build_app,
                  shutil.which("articulate") or ""]
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    raise FileNotFoundError(
        "the Articulate application was not found: set ARTICULATE_APP, build it "
        "(scripts/build.sh) or install the articulate package")


def _has_display():
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def show(model_or_path, t, q, qd=None, path=None, wait=False):
    """Opens the application on a motion, as spatial_v2's showmotion(model, t, q) does: play,
    scrub, plot and export it there. The motion is saved first (save_motion) to `path`, or to
    a new file in the temporary folder, named in the returned process's `motion_path`.

    Works from a script (the window outlives the script unless wait=True) and from a
    notebook. Returns the subprocess.Popen of the application. Raises RuntimeError when there
    is no display (save_motion writes the file to open later)."""
    model = _as_model(model_or_path)
    if not _has_display():
        raise RuntimeError("show() needs a display (DISPLAY is not set): use save_motion(path, "
                           "model, t, q) and open the file in Articulate, or run under xvfb-run")
    app = application()
    if path is None:
        handle, path = tempfile.mkstemp(prefix="articulate-motion-", suffix=".json")
        os.close(handle)
    save_motion(path, model, t, q, qd)
    # an argument list: no file name ever reaches a shell
    process = subprocess.Popen([app, os.fspath(path)], stdin=subprocess.DEVNULL)
    process.motion_path = path
    if wait:
        process.wait()
    return process


def render(model, q, path, size=(1280, 720), timeout=120):
    """Writes a PNG of a tree model at positions q (nq) without a window, through the
    application's screenshot path (`articulate --screenshot`). size: (width, height) pixels.
    It needs an X display, or xvfb-run to make one; without either it raises RuntimeError
    saying so. Raises RuntimeError with the application's message when it fails. Returns the
    path."""
    model = _as_model(model)
    path = os.fspath(path)
    width, height = (int(v) for v in size)
    if width < 1 or height < 1:
        raise ValueError(f"size: expected positive (width, height), got {size!r}")
    command = [application(), "--screenshot", path, "--size", f"{width}x{height}"]
    if not _has_display():
        xvfb = shutil.which("xvfb-run")
        if not xvfb:
            raise RuntimeError("render() needs an X display: set DISPLAY, or install xvfb "
                               "(Debian: xvfb) so that it can run under xvfb-run")
        command = [xvfb, "-a", "-s", f"-screen 0 {max(width, 640)}x{max(height, 480)}x24"] + command
    with tempfile.TemporaryDirectory(prefix="articulate-render-") as folder:
        pose = os.path.join(folder, "pose.json")
        import numpy
        q = numpy.asarray(q, dtype=float)
        save_motion(pose, model, [0.0], q.reshape(1, -1) if q.ndim == 1 else q)
        done = subprocess.run(command + [pose], capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        message = (done.stderr or done.stdout).strip() or f"exit status {done.returncode}"
        raise RuntimeError(f"render: the application failed: {message}")
    return path
