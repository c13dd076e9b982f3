"""What each optimizer pass is worth: every workload timed with the full pipeline and with one pass left out,
interleaved in one run; prints the slowdown of leaving each pass out (> 1: the pass pays).

    python benchmarks/bench_passes.py [--threads 1] [--quick]
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import harness
from bench_jit import _set_threads, interleaved


def workloads(quick):
    import numpy as np

    import arraystack as ast

    rng = np.random.default_rng(0)
    n = 1_000_000 if quick else 4_000_000
    a, b, c = (ast.asarray(rng.standard_normal(n).astype(np.float32)) for _ in range(3))
    x = ast.asarray(rng.standard_normal((1024 if quick else 4096, 1024)).astype(np.float32))
    w = ast.asarray((rng.standard_normal((1024, 256)) * 0.05).astype(np.float32))

    def chain(a, b, c):
        return ast.tanh(a * b + c) * 0.5 + ast.exp(-a * a)

    def softmax(x):
        e = ast.exp(x - ast.max(x, axis=-1, keepdims=True))
        return e / ast.sum(e, axis=-1, keepdims=True)

    def mlp_grad(w, x):
        return ast.grad(lambda w: ast.mean(ast.maximum(x @ w, 0.0) ** 2))(w)

    return {"chain": (chain, (a, b, c)), "softmax": (softmax, (x,)), "grad of a layer": (mlp_grad, (w, x))}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument(
        "--markdown",
        metavar="PATH",
        help="also write the output into this benchmark's section of PATH (docs/benchmarks.md)",
    )
    args = parser.parse_args(argv)
    if args.threads:
        _set_threads(args.threads)
    with harness.markdown_section(
        args.markdown, "passes", "What each optimizer pass is worth", argv, __file__
    ):
        for line in harness.describe_machine():
            print(line)
        from arraystack.ir import passes

        import arraystack as ast

        ast.config.tiered = False
        names = passes.passes()
        rounds = 5 if args.quick else 11
        print(f"{'workload':18s} {'all passes':>11s}  " + "  ".join(f"-{n[:14]:>14s}" for n in names))
        for label, (fn, data) in workloads(args.quick).items():
            systems = {}
            for left_out in [None] + names:
                pipeline = [n for n in names if n != left_out]
                f = ast.jit(fn, passes=pipeline)
                f(*data)  # compile before timing
                systems[left_out or "all"] = (lambda f=f: f(*data))
            t = interleaved(systems, rounds)
            base = t["all"]
            cells = "  ".join(f"{t[n] / base:14.2f}x" for n in names)
            print(f"{label:18s} {base * 1e3:8.2f} ms  {cells}")
        print("(each column: time without that pass / time with every pass)")


if __name__ == "__main__":
    main()
