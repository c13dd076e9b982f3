"""What arraystack.profile costs: per step while recording, and a cached call's dispatch while not.

    python benchmarks/bench_profile.py [--steps 40] [--rounds 30]
    python benchmarks/bench_profile.py --trees BEFORE AFTER [--rounds 10]

The first form times a jitted function of `--steps` steps (sorts of (8,) float32: each a reference step
of a few microseconds) with recording off and on, interleaved, and reports the difference per step; and
times bench_jit.py's (d) case (x*2+1 on (8,) float32, cached calls in batches of 200) with recording off.
The second form runs the (d) case in fresh processes alternating between two package trees (each a folder
holding `arraystack` with `ir` and `backends` inside, as installed: e.g. the commit before the profiler
and the current one), so the cost of the off check shows against the code without it.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

BATCH = 200


def dispatch_seconds(rounds: int) -> float:
    """Median seconds per cached call of (d), x*2+1 on (8,) float32, in batches of BATCH calls."""
    import numpy as np

    import arraystack as ast

    f = ast.jit(lambda x: x * 2 + 1, tiered=False)
    x = ast.asarray(np.arange(8, dtype=np.float32))
    for _ in range(3):
        f(x)
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(BATCH):
            f(x)
        times.append((time.perf_counter() - start) / BATCH)
    return statistics.median(times)


def step_overhead(steps: int, rounds: int) -> dict:
    """Median seconds per call of a `steps`-step plan with recording off and on, interleaved."""
    import numpy as np

    import arraystack as ast

    def chain(x):
        for _ in range(steps):
            x = ast.sort(x)  # numba compiles no sort: one reference step each, nothing fuses
        return x

    f = ast.jit(chain, tiered=False)
    x = ast.asarray(np.arange(8, dtype=np.float32)[::-1].copy())
    f(x)
    (entry,) = f._cache.values()
    assert len(entry.executable.steps) == steps, entry.executable.steps
    calls = 50
    off, on = [], []
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(calls):
            f(x)
        off.append((time.perf_counter() - start) / calls)
        with ast.profile() as prof:
            start = time.perf_counter()
            for _ in range(calls):
                f(x)
            on.append((time.perf_counter() - start) / calls)
        assert len(prof.events) == steps * calls
    off_s, on_s = statistics.median(off), statistics.median(on)
    return {
        "steps": steps,
        "call_off_us": off_s * 1e6,
        "call_on_us": on_s * 1e6,
        "per_step_overhead_us": (on_s - off_s) / steps * 1e6,
    }


def compare_trees(trees, rounds: int) -> dict:
    """(d)'s dispatch in fresh processes, alternating between the package trees."""
    found = {t: [] for t in trees}
    for r in range(rounds):
        for tree in trees if r % 2 == 0 else trees[::-1]:
            env = dict(os.environ, PYTHONPATH=tree)
            out = subprocess.run(
                [sys.executable, __file__, "--dispatch-only", "--rounds", "30"],
                env=env,
                capture_output=True,
                text=True,
                check=True,
            )
            found[tree].append(float(out.stdout.split()[-1]))
    return {
        t: {"median_us": statistics.median(v) * 1e6, "runs_us": [x * 1e6 for x in v]}
        for t, v in found.items()
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--trees", nargs=2, metavar=("BEFORE", "AFTER"))
    parser.add_argument("--dispatch-only", action="store_true")
    parser.add_argument("--json")
    args = parser.parse_args(argv)
    if args.dispatch_only:
        print(dispatch_seconds(args.rounds))
        return
    if args.trees:
        result = {"dispatch_d": compare_trees(args.trees, args.rounds)}
        for tree, row in result["dispatch_d"].items():
            print(
                f"(d) dispatch x*2+1 (8,) with {tree}: {row['median_us']:.3f} us a call (median of runs)"
            )
    else:
        result = step_overhead(args.steps, args.rounds)
        result["dispatch_d_off_us"] = dispatch_seconds(args.rounds) * 1e6
        print(
            f"{args.steps}-step plan: {result['call_off_us']:.2f} us a call off, "
            f"{result['call_on_us']:.2f} us on: {result['per_step_overhead_us']:.3f} us a step recording"
        )
        print(
            f"(d) dispatch x*2+1 (8,), recording off: {result['dispatch_d_off_us']:.3f} us a call"
        )
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=2)


if __name__ == "__main__":
    main()
