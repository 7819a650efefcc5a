"""The Python module's cost over the C++ engine, measured in one run.

    PYTHONPATH=build/release/python python3 python/bench/bench_aba.py [--bench build/release/bench/articulate-bench]

1. The call overhead of articulate.aba on a 7-link chain (models/autotree_chain7.json, the
   autoTree chain of BM_aba/chain/7), with out= and without, against BM_aba/chain/7 of
   articulate-bench run in the same process tree right after. Target: within 1 us per call.
2. aba_batch over 100,000 states on one thread against BM_aba_lanes/chain/7/100000 (the
   engine's lanes with the states packed beforehand). Target: within 10%.
The machine is shared and noisy: each figure is the best of several repeats, and only the
ratios within one run mean anything.
"""
import argparse
import json
import os
import subprocess
import time

import numpy as np

import articulate

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--bench", default=os.path.join(ROOT, "build", "release", "bench", "articulate-bench"))
parser.add_argument("--repeats", type=int, default=7)
args = parser.parse_args()


def best(f, n, repeats=args.repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        f(n)
        times.append((time.perf_counter() - start) / n)
    return min(times)


chain = articulate.load(os.path.join(ROOT, "models", "autotree_chain7.json"))
rng = np.random.default_rng(0)
q, qd, tau = (rng.uniform(-1, 1, chain.nv) for _ in range(3))
out = np.empty(chain.nv)


def calls_out(n):
    aba = articulate.aba
    for _ in range(n):
        aba(chain, q, qd, tau, out=out)


def calls_new(n):
    aba = articulate.aba
    for _ in range(n):
        aba(chain, q, qd, tau)


N = 100000
Q, QD, TAU = (rng.uniform(-1, 1, (N, chain.nv)) for _ in range(3))
batch_out = np.empty((N, chain.nv))
per_call_out = best(calls_out, 20000)
per_call_new = best(calls_new, 20000)
per_batch = best(lambda n: articulate.aba_batch(chain, Q, QD, TAU, out=batch_out, threads=1), 1)

cpp = json.loads(subprocess.run(
    [args.bench, "--benchmark_filter=^BM_aba(_lanes)?/chain/7(/100000)?$", "--benchmark_format=json",
     f"--benchmark_repetitions={args.repeats}", "--benchmark_report_aggregates_only=false"],
    capture_output=True, text=True, check=True).stdout)
runs = [b for b in cpp["benchmarks"] if b.get("run_type") == "iteration"]
cpp_call = min(b["real_time"] for b in runs if b["name"].startswith("BM_aba/chain/7")) * 1e-9
cpp_batch = min(b["real_time"] for b in runs if b["name"].startswith("BM_aba_lanes")) * 1e-9

print(f"aba, 7-link chain, one call:   C++ {cpp_call * 1e6:.3f} us")
print(f"  Python, out= given:          {per_call_out * 1e6:.3f} us  (+{(per_call_out - cpp_call) * 1e6:.3f} us)")
print(f"  Python, new array:           {per_call_new * 1e6:.3f} us  (+{(per_call_new - cpp_call) * 1e6:.3f} us)")
print(f"aba of 100,000 states, one thread: C++ lanes {cpp_batch * 1e3:.2f} ms "
      f"({N / cpp_batch / 1e6:.2f} M states/s)")
print(f"  Python aba_batch:            {per_batch * 1e3:.2f} ms  ({per_batch / cpp_batch:.3f} x C++)")
