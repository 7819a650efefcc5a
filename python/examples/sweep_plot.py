"""A sweep over a double pendulum's initial angles, plotted with matplotlib.

    PYTHONPATH=build/release/python python3 python/examples/sweep_plot.py [--save DIR]

Runs 7 x 7 simulations of 5 s (the first joint's angle from -1.5 to 1.5 rad, the second's from 0
to 3 rad) as `articulate-cli sweep` would, on every core, and plots two of the results table's
columns as maps: the largest angle the second link reaches (where it flips over), and RK4's
energy drift. Shown in a window, or with --save DIR written to DIR/sweep.png.
"""
import argparse
import os

import numpy as np

import articulate

HERE = os.path.dirname(os.path.abspath(__file__))
parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--save", metavar="DIR", help="write the plot here instead of showing it")
args = parser.parse_args()
if args.save:
    import matplotlib
    matplotlib.use("Agg")
import matplotlib.pyplot as plt

n = 7
table = articulate.sweep({
    "format": "articulate-sweep", "version": 1,
    "model": os.path.join(HERE, "..", "..", "models", "tree_double_pendulum.json"),
    "parameters": [{"name": "theta1", "initial_q": 0, "range": {"from": -1.5, "to": 1.5, "count": n}},
                   {"name": "theta2", "initial_q": 1, "range": {"from": 0, "to": 3, "count": n}}],
    "duration": 5, "integrator": "rk4", "dt": 0.001, "every": 10,
    "metrics": [{"max": "q1"}, "energy_drift"]})
print(f"{len(table['run'])} runs:", dict(zip(*np.unique(table["status"], return_counts=True))))
# grid order: the first parameter varies slowest
extent = [table["theta2"].min(), table["theta2"].max(), table["theta1"].min(), table["theta1"].max()]
figure, axes = plt.subplots(1, 2, figsize=(10, 4), constrained_layout=True)
for ax, column, label in [(axes[0], "max(q1)", "largest q1 (rad)"),
                          (axes[1], "energy_drift", "energy drift (J)")]:
    image = ax.imshow(table[column].reshape(n, n), origin="lower", extent=extent, aspect="auto")
    ax.set_xlabel("initial q1 (rad)")
    ax.set_ylabel("initial q0 (rad)")
    ax.set_title(label)
    figure.colorbar(image, ax=ax)
if args.save:
    figure.savefig(os.path.join(args.save, "sweep.png"), dpi=80)
    print("wrote", os.path.join(args.save, "sweep.png"))
else:
    plt.show()
