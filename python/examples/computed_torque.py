"""Computed-torque control of a six-joint arm, watched in Articulate.

    PYTHONPATH=build/release/python python3 python/examples/computed_torque.py [--save DIR]

The arm (models/arm6.json) follows q_d(t) = q0 + 0.6 sin(t) on every joint. The control law is
tau = H(q) (qdd_d + Kp e + Kd de) + C(q, qd) with e = q_d - q: crba gives H, bias gives C, and
aba integrates the arm's response (semi-implicit Euler, 1 ms). The tracking error decays like a
critically damped spring (Kp = 100, Kd = 20). The motion then opens in the app with show(), as
spatial_v2's showmotion does; with --save DIR it is written to DIR/computed_torque.json instead.
"""
import argparse
import os

import numpy as np

import articulate

HERE = os.path.dirname(os.path.abspath(__file__))
parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--save", metavar="DIR", help="write the motion here instead of showing it")
args = parser.parse_args()

arm = articulate.load(os.path.join(HERE, "..", "..", "models", "arm6.json"))
dt, duration, kp, kd = 1e-3, 4.0, 100.0, 20.0
steps = int(round(duration / dt))
q, qd = arm.q0 + 0.3, np.zeros(arm.nv)  # starts off the path
t = np.arange(steps + 1) * dt
Q, QD = np.empty((steps + 1, arm.nq)), np.empty((steps + 1, arm.nv))
H, C, qdd = np.empty((arm.nv, arm.nv)), np.empty(arm.nv), np.empty(arm.nv)
for k in range(steps + 1):
    Q[k], QD[k] = q, qd
    s, c = np.sin(t[k]), np.cos(t[k])
    q_d, qd_d, qdd_d = arm.q0 + 0.6 * s, np.full(arm.nv, 0.6 * c), np.full(arm.nv, -0.6 * s)
    articulate.crba(arm, q, out=H)          # out=: the loop allocates no arrays of its own
    articulate.bias(arm, q, qd, out=C)
    tau = H @ (qdd_d + kp * (q_d - q) + kd * (qd_d - qd)) + C
    articulate.aba(arm, q, qd, tau, out=qdd)
    qd = qd + dt * qdd
    q = q + dt * qd
error = np.abs(Q - (arm.q0 + 0.6 * np.sin(t)[:, None])).max(axis=1)
print(f"tracking error: {error[0]:.3f} rad at t = 0, {error[steps // 2]:.2e} rad at t = "
      f"{t[steps // 2]:.1f} s, {error[-1]:.2e} rad at t = {t[-1]:.1f} s")
assert error[-1] < 1e-2 * error[0]
if args.save:
    print("wrote", articulate.save_motion(os.path.join(args.save, "computed_torque.json"), arm,
                                          t[::10], Q[::10], QD[::10]))
else:
    articulate.show(arm, t[::10], Q[::10], QD[::10])
