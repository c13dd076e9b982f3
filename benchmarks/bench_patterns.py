"""arraystack.jit against NumPy on common array patterns, one function each, in one run, as ratios.

    python benchmarks/bench_patterns.py [--threads N] [--rounds R] [pattern substrings ...]

bench_jit.py times the issue's workloads against jax; this script looks for the patterns where a
compiled function would be slower than NumPy's own loops: reductions along each axis and several axes,
layouts (transposes, strided slices), integer and boolean work, functions that run NumPy's code
inside the plan (sort, cumsum, argmax, matmul). Each row: NumPy's and the jitted function's median
time (interleaved, after warm-up and compilation), their ratio, whether the values agree with NumPy
(within float32 rounding: the fixed summation order of the kernels is not NumPy's), and a mark where
the jitted function is slower.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import harness


def patterns(np):
    rng = np.random.default_rng(0)
    m = rng.standard_normal((4096, 1024)).astype(np.float32)
    v = rng.standard_normal(4_000_000).astype(np.float32)
    v64 = v.astype(np.float64) * 10
    t3 = rng.standard_normal((64, 256, 256)).astype(np.float32)
    btc = rng.standard_normal((32, 128, 512)).astype(np.float32)
    ints = rng.integers(-100, 100, (4096, 1024)).astype(np.int32)
    small = rng.standard_normal((64, 64)).astype(np.float32)
    return [
        ("relu", lambda xp: lambda x: xp.maximum(x, 0), m),
        ("where leaky", lambda xp: lambda x: xp.where(x > 0, x, 0.1 * x), m),
        ("clip", lambda xp: lambda x: xp.clip(x, -1, 1), m),
        ("sqrt abs", lambda xp: lambda x: xp.sqrt(xp.abs(x)), v),
        ("sin", lambda xp: lambda x: xp.sin(x), v),
        ("sin * 2 + 1", lambda xp: lambda x: xp.sin(x) * 2 + 1, v),
        ("sum cos", lambda xp: lambda x: xp.cos(x).sum(), v),
        ("tan", lambda xp: lambda x: xp.tan(x), v),
        ("sin float64", lambda xp: lambda x: xp.sin(x), v64),
        ("cos * sin float64", lambda xp: lambda x: xp.cos(x) * xp.sin(0.5 * x), v64),
        ("log1p abs", lambda xp: lambda x: xp.log1p(xp.abs(x)), v),
        ("softplus", lambda xp: lambda x: xp.maximum(x, 0) + xp.log1p(xp.exp(-xp.abs(x))), m),
        (
            "gelu tanh (x**3)",
            lambda xp: lambda x: 0.5 * x * (1 + xp.tanh(0.7978845608 * (x + 0.044715 * x**3))),
            m,
        ),
        ("logaddexp", lambda xp: lambda x: xp.logaddexp(x, 0.5 * x), m),
        ("abs ** 2.5", lambda xp: lambda x: xp.abs(x) ** 2.5, v),
        ("sum abs", lambda xp: lambda x: xp.abs(x).sum(), v),
        ("mean", lambda xp: lambda x: xp.mean(x), m),
        ("max", lambda xp: lambda x: xp.max(x), m),
        ("std", lambda xp: lambda x: xp.std(x), m),
        ("any x > 5", lambda xp: lambda x: xp.any(x > 5), m),
        ("row norms", lambda xp: lambda x: xp.sqrt(xp.sum(x * x, axis=1)), m),
        (
            "x / row norms",
            lambda xp: lambda x: x / xp.sqrt(xp.sum(x * x, axis=1, keepdims=True)),
            m,
        ),
        (
            "logsumexp rows",
            lambda xp: lambda x: xp.log(xp.sum(xp.exp(x - xp.max(x, 1, keepdims=True)), 1)),
            m,
        ),
        ("var rows", lambda xp: lambda x: xp.var(x, axis=1), m),
        ("count rows", lambda xp: lambda x: xp.sum(x > 0, axis=1), m),
        ("sum columns", lambda xp: lambda x: xp.sum(x, axis=0), m),
        ("x - column means", lambda xp: lambda x: x - xp.mean(x, axis=0), m),
        (
            "standardize columns",
            lambda xp: lambda x: (x - xp.mean(x, axis=0)) / xp.std(x, axis=0),
            m,
        ),
        (
            "softmax columns",
            lambda xp: (
                lambda x: (
                    xp.exp(x - xp.max(x, axis=0)) / xp.sum(xp.exp(x - xp.max(x, axis=0)), axis=0)
                )
            ),
            m,
        ),
        ("var columns", lambda xp: lambda x: xp.var(x, axis=0), m),
        ("sum x.T rows", lambda xp: lambda x: xp.sum(x.T * 2, axis=1), m),
        ("x.T rows centered", lambda xp: lambda x: x.T - x.T.mean(axis=1, keepdims=True), m),
        ("x.T * 2", lambda xp: lambda x: x.T * 2.0, m),
        ("x.T * 2 + column", lambda xp: lambda x: x.T * 2.0 + x[:1, :].T, m),
        ("x.T returned", lambda xp: lambda x: x.T * 1.0, m),
        ("x[:, 1:] - x[:, :-1]", lambda xp: lambda x: x[:, 1:] - x[:, :-1], m),
        ("x[1:] - x[:-1]", lambda xp: lambda x: x[1:] - x[:-1], m),
        ("x[::2, ::2] * 2", lambda xp: lambda x: x[::2, ::2] * 2, m),
        ("reshape, sum last", lambda xp: lambda x: x.reshape(4096, 32, 32).sum(-1), m),
        ("3-d sum axis 0", lambda xp: lambda x: x.sum(axis=0), t3),
        ("3-d sum axis 1", lambda xp: lambda x: x.sum(axis=1), t3),
        ("3-d sum axes (1, 2)", lambda xp: lambda x: x.sum(axis=(1, 2)), t3),
        ("3-d x - mean (0, 2)", lambda xp: lambda x: x - x.mean(axis=(0, 2), keepdims=True), t3),
        ("(B, T, C) bias grad", lambda xp: lambda x: x.sum(axis=(0, 1)), btc),
        (
            "(B, T, C) layernorm",
            lambda xp: (
                lambda x: (x - x.mean(-1, keepdims=True)) / xp.sqrt(x.var(-1, keepdims=True) + 1e-5)
            ),
            btc,
        ),
        ("int sum rows", lambda xp: lambda x: x.sum(axis=1), ints),
        ("int sum columns", lambda xp: lambda x: x.sum(axis=0), ints),
        ("int x * 3 + 7", lambda xp: lambda x: x * 3 + 7, ints),
        ("astype float64", lambda xp: lambda x: x.astype(xp.float64), m),
        ("astype int32", lambda xp: lambda x: x.astype(xp.int32), m),
        ("concatenate", lambda xp: lambda x: xp.concatenate([x, x * 2], axis=1), m),
        ("stack", lambda xp: lambda x: xp.stack([x, x + 1]), m),
        ("outer product", lambda xp: lambda x: x[:2048, None] * x[None, :2048], v),
        ("take rows", lambda xp: lambda x: x[xp.arange(0, 4096, 3)], m),
        ("argmax rows", lambda xp: lambda x: xp.argmax(x, axis=1), m),
        ("cumsum rows", lambda xp: lambda x: xp.cumsum(x, axis=1), m),
        ("sort rows", lambda xp: lambda x: xp.sort(x, axis=1), m),
        ("matmul (1024, 1024)", lambda xp: lambda x: x[:1024] @ x[:1024], m),
        ("tanh(x @ x) + 1, (64, 64)", lambda xp: lambda x: xp.tanh(x @ x) + 1, small),
    ]


def _batch(call, sample=2e-3):
    """Calls per timed sample: one for calls of `sample` seconds or more, else enough to fill it, so a
    small call is timed in the steady state of a loop, as it is used, not cold after a large pattern."""
    start = time.perf_counter()
    call()
    once = time.perf_counter() - start
    return max(1, min(1000, int(sample / max(once, 1e-7))))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("only", nargs="*", help="run the patterns whose names contain one of these")
    parser.add_argument(
        "--markdown",
        metavar="PATH",
        help="also write the output into this benchmark's section of PATH (docs/benchmarks.md)",
    )
    args = parser.parse_args(argv)
    if args.threads:
        for var in ("NUMBA_NUM_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
            os.environ[var] = str(args.threads)
    with harness.markdown_section(
        args.markdown, "patterns", "Common patterns: arraystack.jit against NumPy", argv, __file__
    ):
        for line in harness.describe_machine():
            print(line)
        import numpy as np
        from arraystack.backends.numba.layouts import wait_layout_kernels

        import arraystack as ast

        ast.config.tiered = False  # steady state: compiled before the first call returns
        warnings.filterwarnings("ignore")
        slower = 0
        for name, make, x in patterns(np):
            if args.only and not any(s in name for s in args.only):
                continue
            numpy_fn, jitted, arg = make(np), ast.jit(make(ast)), ast.asarray(x)
            want, got = numpy_fn(x), np.asarray(jitted(arg))
            wait_layout_kernels()  # kernels for strided or transposed operands build in the background
            agree = want.shape == got.shape and np.allclose(
                want, got, rtol=1e-4, atol=1e-4, equal_nan=True
            )
            calls = {"numpy": lambda: numpy_fn(x), "jit": lambda: jitted(arg)}
            batch = {s: _batch(call) for s, call in calls.items()}
            times = {"numpy": [], "jit": []}
            for r in range(args.rounds):
                for system in ("numpy", "jit") if r % 2 else ("jit", "numpy"):
                    call, n = calls[system], batch[system]
                    start = time.perf_counter()
                    for _ in range(n):
                        call()
                    times[system].append((time.perf_counter() - start) / n)
            t_np, t_jit = (statistics.median(times[s]) for s in ("numpy", "jit"))
            mark = "  <- slower than NumPy" if t_jit > t_np else ""
            slower += t_jit > t_np
            print(
                f"{name:28s} numpy {t_np * 1e3:8.3f} ms | jit {t_jit * 1e3:8.3f} ms | "
                f"numpy/jit {t_np / t_jit:6.2f}x | agrees {agree}{mark}",
                flush=True,
            )
        print(f"{slower} slower than NumPy")
        return 0


if __name__ == "__main__":
    sys.exit(main())
