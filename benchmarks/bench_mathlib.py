"""The three copies of the numba backend's mathlib against NumPy's own functions, on 1e6 elements.

    python benchmarks/bench_mathlib.py [exp tanh sin ...] [--size N] [--repeats R] [--json out.json]

For each function (default: exp) and dtype: NumPy's own ufunc where NumPy has one (np.exp; erf and
logistic have none), the NumPy twin (mathlib/<family>_numpy.py: a composition of NumPy primitives with
an emulated fma, what tier 0 runs without the C extension), the same with each fma as a * b + c (not
the same bits: the cost of the composition alone), the C twin in its portable loop and in the
best loop this CPU runs (what tier 0 runs), and the compiled numba function in a kernel's vectorized loop
(tier 1, one thread). One thread throughout; the median of the repeats, in milliseconds per call.
docs/internals/mathlib.md quotes the figures.
"""

from __future__ import annotations

import argparse
import os
import sys
import timeit

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import harness

harness.limit_threads(1)

import numpy as np
from arraystack.backends.numba.mathlib import twins

NUMPY_OWN = {"exp": np.exp, "expm1": np.expm1, "log": np.log, "tanh": np.tanh, "log1p": np.log1p,
             "sin": np.sin, "cos": np.cos, "tan": np.tan}  # fmt: skip


def _kernel_loop(name, dtype):
    """The kernels' compiled function in a loop compiled as generated elementwise kernels are."""
    import importlib

    import numba
    from arraystack.backends.numba.intrinsics import prefer_wide_vectors

    module = importlib.import_module(f"arraystack.backends.numba.mathlib.{twins.FAMILY[name]}")
    function = getattr(module, f"{name}_{'f32' if dtype == np.float32 else 'f64'}")

    @numba.njit(error_model="numpy")
    def loop(x, out):
        prefer_wide_vectors()
        for i in range(x.size):
            out[i] = function(x[i])

    return loop


def _unfused(numpy_twin, x):
    """The NumPy twin with each emulated fma replaced by a * b + c (two NumPy passes): wrong bits, but
    the least a composition of NumPy primitives can cost, were NumPy to gain an fma ufunc."""
    import importlib

    modules = [importlib.import_module(f"arraystack.backends.numba.mathlib.{family}_numpy")
               for family in set(twins.FAMILY.values())]  # fmt: skip
    saved = [
        (m, n, getattr(m, n)) for m in modules for n in ("fma_f32", "fma_f64") if hasattr(m, n)
    ]
    for module, name, _ in saved:
        setattr(module, name, lambda a, b, c, parts=None: a * b + c)
    try:
        return numpy_twin(x)
    finally:
        for module, name, fma in saved:
            setattr(module, name, fma)


def _c_loop(name, dtype, variant):
    kernel = getattr(twins.C_TWIN, f"{name}_{'f32' if dtype == np.float32 else 'f64'}")
    return lambda x, out: kernel(x, out, variant)


def _candidates(name, dtype):
    """(label, function of (x, out)) for each way of computing name on dtype."""
    found = []
    if name in NUMPY_OWN:
        found.append((f"np.{name}", lambda x, out, f=NUMPY_OWN[name]: f(x, out=out)))
    numpy_twin = twins.numpy_twin(name, dtype, "numpy")
    found.append(("NumPy twin", lambda x, out: numpy_twin(x)))
    found.append(("NumPy twin, fma unfused", lambda x, out: _unfused(numpy_twin, x)))
    if twins.C_TWIN is not None:
        best = twins.C_TWIN.BEST_VARIANT
        found.append(("C twin, portable", _c_loop(name, dtype, 0)))
        found.append((f"C twin, {twins.C_TWIN.VARIANTS[best]}", _c_loop(name, dtype, best)))
    found.append(("compiled kernel loop", _kernel_loop(name, dtype)))
    return found


def measure(name, dtype, size, repeats):
    rng = np.random.default_rng(0)
    x = (rng.standard_normal(size) * 3).astype(dtype)
    if name in ("log", "log1p"):
        x = np.abs(x)
    out = np.empty_like(x)
    rows = []
    with np.errstate(all="ignore"):
        for label, run in _candidates(name, dtype):
            run(x, out)  # compiles, warms the cache
            times = timeit.repeat(lambda run=run: run(x, out), number=1, repeat=repeats)
            rows.append({"function": name, "dtype": np.dtype(dtype).name, "copy": label,
                         "ms": 1e3 * sorted(times)[len(times) // 2]})  # fmt: skip
    base = next((r["ms"] for r in rows if r["copy"].startswith("np.")), None)
    for row in rows:
        row["ratio"] = row["ms"] / base if base else None
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("functions", nargs="*", default=["exp"], choices=sorted(twins.FAMILY))
    parser.add_argument("--size", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--json")
    args = parser.parse_args(argv)
    info = harness.machine_info()
    for line in harness.describe_machine(info):
        print(line)
    print(f"{args.size} elements, one thread, median of {args.repeats} calls")
    rows = []
    for name in args.functions:
        for dtype in (np.float64, np.float32):
            rows += measure(name, dtype, args.size, args.repeats)
    columns = [("function", "function", ""), ("dtype", "dtype", ""), ("copy", "copy", ""),
               ("ms", "ms / call", ".2f"), ("ratio", "x np's", ".1f")]  # fmt: skip
    print(harness.format_table(rows, columns))
    if args.json:
        harness.write_json(args.json, {"machine": info, "size": args.size, "rows": rows})


if __name__ == "__main__":
    main()
