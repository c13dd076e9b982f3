"""float16 and complex64 work in compiled numba kernels against NumPy and jax.jit (if installed), in one run.

    python benchmarks/bench_precision.py [--threads N] [--rounds N] [--size N] [--rows R] [--cols C]

Rows: an elementwise chain exp(a * 0.25 - b * b * 0.1) * a + b on `size` float16 and on `size` complex64
values (complex: a * b + a / (b + 1) - conj(a)), and a row sum of (x * 0.5) over (rows, cols) float16 and
complex64. arraystack runs the compiled tier (jit(..., tiered=False)); NumPy computes in float16 (rounding
after every operation) and complex64; jax.jit of the same function. Systems run interleaved round-robin
(bench_jit.interleaved), each round in a shuffled order; the table reports medians in ms.

Measured on a shared 2-core VM, --threads 1 (pinned to one core), two runs (median of 15 rounds each), ms:
float16 chain (2**20): NumPy 38-79, arraystack 1.7-2.0, jax.jit 1.3-1.6; complex64 chain: NumPy 10.5-14,
arraystack 1.0-1.1, jax.jit 1.7; float16 row sum (4096, 1024): NumPy 31-46, arraystack 0.7-0.8, jax.jit
1.7-2.5; complex64 row sum: NumPy 11-14, arraystack 1.2-1.3, jax.jit 30.
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_jit import _set_threads, interleaved

import arraystack as ast


def _chain(xp, a, b):
    return xp.exp(a * 0.25 - b * b * 0.1) * a + b


def _complex_chain(xp, a, b):
    return a * b + a / (b + 1.0) - xp.conj(a)


def _row_sum(xp, x):
    return xp.sum(x * 0.5, axis=1)


def _inputs(args):
    rng = np.random.default_rng(0)
    n, shape = args.size, (args.rows, args.cols)
    real = lambda *s: rng.standard_normal(s).astype(np.float32)
    return {
        "float16 chain": (_chain, [real(n).astype(np.float16), real(n).astype(np.float16)]),
        "complex64 chain": (
            _complex_chain,
            [
                (real(n) + 1j * real(n)).astype(np.complex64),
                (real(n) + 1j * real(n)).astype(np.complex64),
            ],
        ),
        "float16 row sum": (_row_sum, [real(*shape).astype(np.float16)]),
        "complex64 row sum": (_row_sum, [(real(*shape) + 1j * real(*shape)).astype(np.complex64)]),
    }


def _systems(fn, arrays):
    systems = {"numpy": lambda: fn(np, *arrays)}
    ours = ast.jit(lambda *a: fn(ast, *a), tiered=False)
    mine = [ast.asarray(a) for a in arrays]
    plan = ours.lower(*mine).compile().as_text().split("# optimized graph", 1)[0]
    systems["arraystack"] = lambda: ours(*mine)
    try:
        import jax
        import jax.numpy as jnp

        jitted = jax.jit(lambda *a: fn(jnp, *a))
        theirs = [jnp.asarray(a) for a in arrays]
        systems["jax.jit"] = lambda: jitted(*theirs).block_until_ready()
    except ImportError:
        pass
    return systems, plan


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--threads", type=int, default=None, help="pin numba, XLA and BLAS to N threads"
    )
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--size", type=int, default=1 << 20)
    parser.add_argument("--rows", type=int, default=4096)
    parser.add_argument("--cols", type=int, default=1024)
    args = parser.parse_args()
    if args.threads:
        _set_threads(args.threads)  # before numba and jax start their thread pools
    print(f"{'workload':<20} {'numpy ms':>10} {'arraystack ms':>14} {'jax.jit ms':>11}  plan")
    for name, (fn, arrays) in _inputs(args).items():
        systems, plan = _systems(fn, arrays)
        times = interleaved(systems, args.rounds)
        kernels = plan.count("numba kernel")
        ms = {k: f"{v * 1e3:.3f}" for k, v in times.items()}
        print(
            f"{name:<20} {ms['numpy']:>10} {ms['arraystack']:>14} {ms.get('jax.jit', '-'):>11}  "
            f"{kernels} numba kernel(s)"
        )


if __name__ == "__main__":
    main()
