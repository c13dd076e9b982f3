"""Peak memory of arraystack.jit against NumPy eager on elementwise chains (issue 6, memory planning).

    python benchmarks/bench_memory.py [--n 10000000] [--json out.json]

Workloads: (a) a 20-op elementwise chain on two float32 vectors of n elements, which fusion makes one loop;
(b) the same chain cut by a cumsum after every 5 ops (no numba lowering: 4 kernels and 4 reference steps),
which leans on the plan's buffer lifetimes (each value dropped after its last use) and on kernels writing
into a dying input. Peak = the inputs + the most bytes allocated at once during the call (tracemalloc sees
NumPy's allocations), with the buffer pool emptied before the call so each buffer the plan needs is a fresh
allocation. The target: inputs + outputs + at most one temporary. "pool keeps" is what the buffer pool holds
after the call for reuse by the next one (the output among it).
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import tracemalloc

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import harness
from harness import format_table, machine_info, write_json

ROUNDS = 4  # 5 elementwise ops per round: 20 in all


def chain(xp, x, y, cut=False):
    a = x
    for _ in range(ROUNDS):
        # mul, add, tanh, mul, sub. (Note: `- x * 0.1` here would make CSE share one x * 0.1 between the
        # rounds, and the cut chain would keep it materialized across all regions: one more array.)
        a = xp.tanh(a * 0.9 + y) * 0.5 - x
        if cut:
            a = xp.cumsum(a) * (1.0 / a.shape[0])  # the cumulative sum ends the fused region
    return a


def peak_bytes(fn, *args) -> int:
    from arraystack.backends.numba.host_pool import host_pool

    host_pool.clear()
    gc.collect()
    tracemalloc.start()
    try:
        out = fn(*args)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    del out
    return peak


def measure(n: int, cut: bool) -> dict:
    import numpy
    from arraystack.backends.numba.host_pool import host_pool

    import arraystack as ast

    rng = numpy.random.default_rng(0)
    x = rng.random(n, dtype=numpy.float32)
    y = rng.random(n, dtype=numpy.float32)
    array = x.nbytes
    inputs = 2 * array
    jitted = ast.jit(lambda a, b: chain(ast, a, b, cut), tiered=False)
    xa, ya = ast.asarray(x), ast.asarray(y)
    numpy.testing.assert_allclose(
        numpy.asarray(jitted(xa, ya)), chain(numpy, x, y, cut), rtol=1e-4, atol=1e-5
    )
    eager = inputs + peak_bytes(chain, numpy, x, y, cut)
    compiled = inputs + peak_bytes(jitted, xa, ya)
    out = jitted(xa, ya)  # what the pool keeps while the caller holds the result
    kept = host_pool.held_bytes()
    del out
    target = inputs + array + array  # inputs + the output + one temporary
    return {
        "workload": f"20-op chain{' cut by 4 cumsums' if cut else ''}",
        "n": n,
        "array_mb": array / 1e6,
        "numpy_peak_mb": eager / 1e6,
        "jit_peak_mb": compiled / 1e6,
        "numpy_arrays": eager / array,
        "jit_arrays": compiled / array,
        "ratio": eager / compiled,
        "target_mb": target / 1e6,
        "meets_target": compiled <= target + (1 << 20),
        "pool_keeps_mb": kept / 1e6,
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10_000_000)
    parser.add_argument("--json", default=None)
    parser.add_argument(
        "--markdown",
        metavar="PATH",
        help="also write the output into this benchmark's section of PATH (docs/benchmarks.md)",
    )
    args = parser.parse_args(argv)
    with harness.markdown_section(
        args.markdown, "memory", "Peak memory of a fused chain", argv, __file__
    ):
        for line in harness.describe_machine():
            print(line)
        rows = [measure(args.n, cut) for cut in (False, True)]
        columns = [
            ("workload", "workload", "s"),
            ("numpy_peak_mb", "NumPy peak MB", ".1f"),
            ("jit_peak_mb", "jit peak MB", ".1f"),
            ("numpy_arrays", "NumPy (arrays)", ".2f"),
            ("jit_arrays", "jit (arrays)", ".2f"),
            ("ratio", "NumPy/jit", ".2f"),
            ("target_mb", "target MB", ".1f"),
            ("meets_target", "target met", "s"),
            ("pool_keeps_mb", "pool keeps MB", ".1f"),
        ]
        array_mb = rows[0]["array_mb"]
        print(f"peak memory, float32 n={args.n} (one array = {array_mb:.1f} MB; 2 inputs, 1 output)")
        print(format_table([{**r, "meets_target": str(r["meets_target"])} for r in rows], columns))
        if args.json:
            write_json(args.json, {"machine": machine_info(), "results": rows})
        return rows


if __name__ == "__main__":
    main()
