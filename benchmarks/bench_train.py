"""Training-step benchmark (issue 5): arraystack jit(value_and_grad) vs jax.jit, torch eager autograd and
NumPy with a hand-written backward, timed interleaved in one run; prints medians and ratios.

(a) MLP 784 -> 512 -> 10, batch 256, float32, ReLU, softmax cross-entropy, SGD update inside the step.
(b) small CNN: conv 3x3 (8 channels, SAME) - ReLU - 2x2 max pool - dense, on 28x28 single-channel images,
    batch 128.
(c) first call of (a) in a fresh process, cold and with a warm disk cache.

    python benchmarks/bench_train.py [--threads 1] [--quick] [--json out.json]

jax and torch are optional (pip install jax jaxlib; pip install torch==2.13.0); missing peers are skipped.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_jit import _set_threads, interleaved  # noqa: E402
from train_models import cnn_systems, mlp_systems  # noqa: E402

FIRST_CALL = """
import time
t0 = time.perf_counter()
import numpy as np
import arraystack as ast
import sys
sys.path.insert(0, {here!r})
from train_models import mlp_arraystack
step, args = mlp_arraystack(np.random.default_rng(0), 256)
t1 = time.perf_counter()
out = step(*args)
np.asarray(out[0])
t2 = time.perf_counter()
step.wait_compiled()  # tiered compilation: numba compiled in the background meanwhile
t3 = time.perf_counter()
print(t1 - t0, t2 - t1, t3 - t1)
"""


def first_call():
    code = FIRST_CALL.format(here=os.path.dirname(os.path.abspath(__file__)))
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, ARRAYSTACK_CACHE_DIR=cache)
        runs = []
        for _ in range(2):
            out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
            if out.returncode:
                return None, None, out.stderr[-800:]
            fields = out.stdout.split()
            runs.append((float(fields[1]), float(fields[2]), float(fields[0])))
        return runs[0], runs[1], None


def report(name, times, results):
    base = times["arraystack.jit"]
    parts = [f"{k} {v * 1e3:7.2f} ms" for k, v in times.items()]
    ratios = [f"{k}/ours {v / base:4.2f}x" for k, v in times.items() if k != "arraystack.jit"]
    print(f"{name:10s} " + " | ".join(parts) + " || " + ", ".join(ratios))
    results["rows"].append({"workload": name, **times})


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", default=None)
    parser.add_argument("--skip-first-call", action="store_true")
    args = parser.parse_args(argv)
    if args.threads:
        _set_threads(args.threads)
    import numpy as np

    import arraystack

    arraystack.config.tiered = False  # steady-state timing: compile before the first call returns
    rounds = 5 if args.quick else 15
    results = {"threads": args.threads or os.cpu_count(), "rows": []}
    rng = np.random.default_rng(0)
    systems = mlp_systems(rng, 256)
    report("(a) MLP", interleaved(systems, rounds), results)
    systems = cnn_systems(rng, 128)
    if systems:
        report("(b) CNN", interleaved(systems, rounds), results)
    if not args.skip_first_call:
        cold, warm, err = first_call()
        if err:
            print(f"(c) first call: failed: {err}")
        else:
            print(
                f"(c) first call of (a), fresh process: cold cache {cold[0]:.3f} s, warm disk cache "
                f"{warm[0]:.3f} s (compiled speed after {cold[1]:.2f} / {warm[1]:.2f} s; "
                f"import arraystack + model setup before it: {cold[2]:.2f} / {warm[2]:.2f} s)"
            )
            results["rows"].append({"workload": "(c) first call", "cold_s": cold, "warm_s": warm})
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
