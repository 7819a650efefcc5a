"""The joint-space inertia matrix of a URDF robot at a few states.

    PYTHONPATH=build/release/python python3 python/examples/mass_matrix.py [ROBOT.urdf] [--save DIR]

Loads the robot with a fixed base (an arm is bolted down), prints H(q) at its home pose and at
two random poses with its eigenvalues (H is symmetric positive definite: every eigenvalue is a
kinetic energy's worth of inertia, kg m^2), and shows the batched form giving the same matrices.
With --save DIR it also writes the matrices to DIR/mass_matrices.npz.
"""
import argparse
import os

import numpy as np

import articulate

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT = os.path.join(HERE, "..", "..", "models", "robots", "meshed_arm_description", "urdf",
                       "meshed_arm.urdf")

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("robot", nargs="?", default=DEFAULT)
parser.add_argument("--save", metavar="DIR")
args = parser.parse_args()

robot = articulate.load(args.robot, base="fixed")
print(f"{robot.name}: {robot.nv} joints:", ", ".join(j["name"] for j in robot.joints))
rng = np.random.default_rng(0)
states = np.vstack([robot.q0, robot.q0 + rng.uniform(-1, 1, (2, robot.nq))])
np.set_printoptions(precision=4, suppress=True, linewidth=120)
for q in states:
    H = articulate.crba(robot, q)
    print(f"\nq = {q}\nH =\n{H}\neigenvalues: {np.linalg.eigvalsh(H)}")
    assert np.allclose(H, H.T) and np.linalg.eigvalsh(H).min() > 0
batch = articulate.crba_batch(robot, states)
assert np.array_equal(batch[1], articulate.crba(robot, states[1]))
print(f"\ncrba_batch of {len(states)} states gives the same matrices: {batch.shape}")
if args.save:
    np.savez(os.path.join(args.save, "mass_matrices.npz"), q=states, H=batch)
