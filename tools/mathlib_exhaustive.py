"""Exhaustive check of mathlib's float32 functions (backends/numba/mathlib/: exp_log.py, trig.py, ...), outside
the test suite.

For each function, over all 2**32 float32 bit patterns: the ulp distance of the compiled kernel from its
oracle (NumPy's function; logistic: computed in float64 and rounded; erf: libm's float64 erf, rounded), where NaN matches NaN and a
zero's sign must match; tanh and logistic results stay in range; and the twins tier 0 runs (the C
extension in every loop variant, and with --numpy-twin the NumPy emulation, ~10 min per function) equal the
kernel bit for bit. The suite checks samples of the same properties (tests/backends/numba/mathlib/).

    python tools/mathlib_exhaustive.py [exp expm1 log tanh logistic erf sin cos tan log1p] [--numpy-twin]

Prints a histogram of ulp distances per function and PASS (every distance <= 4, no twin mismatch) or FAIL.
Takes 2-3 minutes per function on a 2-core machine without --numpy-twin.
"""

from __future__ import annotations

import importlib
import math
import sys
import time

import numba
import numpy as np
from arraystack.backends.numba.mathlib import exp_log, twins
from arraystack.backends.numba.intrinsics import prefer_wide_vectors

FUNCTIONS = ("exp", "expm1", "log", "tanh", "logistic", "erf", "sin", "cos", "tan", "log1p")
BOUND = 4  # ulp, the bound mathlib promises
BINS = 8  # the last bin: BINS - 1 ulp or more, a NaN or zero-sign mismatch, or a result out of range


def _logistic(x):  # as tests/backends/numba/mathlib/test_accuracy.py: in float64, without overflow, rounded once
    x64 = x.astype(np.float64)
    e = np.exp(-np.abs(x64))
    return np.where(x64 >= 0, 1 / (1 + e), e / (1 + e)).astype(np.float32)


@numba.njit(nogil=True)
def _libm_erf_into(x, out):
    for i in range(x.size):
        out[i] = np.float32(math.erf(np.float64(x[i])))  # numba's math.erf is libm's, as CPython's


def _erf(x):  # NumPy has no erf: libm's float64 erf (math.erf), rounded once
    out = np.empty_like(x)
    _libm_erf_into(x, out)
    return out


ORACLES = {
    "exp": np.exp,
    "expm1": np.expm1,
    "log": np.log,
    "tanh": np.tanh,
    "logistic": _logistic,
    "erf": _erf,
    "sin": np.sin,
    "cos": np.cos,
    "tan": np.tan,
    "log1p": np.log1p,
}
RANGES = {
    "tanh": (-1.0, 1.0),
    "logistic": (0.0, 1.0),
    "erf": (-1.0, 1.0),
    "sin": (-1.0, 1.0),
    "cos": (-1.0, 1.0),
}


def _kernel(fn):
    @numba.njit(error_model="numpy")
    def run(x, out):
        for i in range(x.size):
            prefer_wide_vectors()
            out[i] = fn(x[i])

    return run


@numba.njit
def _tally(got, want, lo, hi, hist, worst, x):
    top = hist.size - 1
    for i in range(got.size):
        a, b = got[i], want[i]
        if np.isnan(a) or np.isnan(b):
            d = 0 if (np.isnan(a) and np.isnan(b)) else top
        else:
            ia = np.int64(exp_log.f32_bits(a))
            ib = np.int64(exp_log.f32_bits(b))
            ia = -2147483648 - ia if ia < 0 else ia  # a monotonic integer line through -0.0 and +0.0
            ib = -2147483648 - ib if ib < 0 else ib
            d = min(abs(ia - ib), top)
            if (a == 0 and b == 0 and ia != ib) or a < lo or a > hi:
                d = top
        hist[d] += 1
        if d > worst[0]:
            worst[0] = d
            worst[1] = np.int64(exp_log.f32_bits(x[i]))


def check(name: str, numpy_twin: bool) -> bool:
    module = importlib.import_module(f"arraystack.backends.numba.mathlib.{twins.FAMILY[name]}")
    kernel = _kernel(getattr(module, f"{name}_f32"))
    oracle = ORACLES[name]
    lo, hi = RANGES.get(name, (-np.inf, np.inf))
    c_twin = twins.C_TWIN
    emulation = twins.numpy_twin(name, np.float32, "numpy") if numpy_twin else None
    hist = np.zeros(BINS, np.int64)
    worst = np.zeros(2, np.int64)
    c_mismatches = dict.fromkeys(c_twin.VARIANTS if c_twin is not None else (), 0)
    numpy_mismatches = 0
    step = 1 << 24
    start = time.time()
    with np.errstate(all="ignore"):
        for first in range(0, 1 << 32, step):
            x = np.arange(first, first + step, dtype=np.uint64).astype(np.uint32).view(np.float32)
            got = np.empty_like(x)
            kernel(x, got)
            _tally(got, oracle(x), np.float32(lo), np.float32(hi), hist, worst, x)
            bits = got.view(np.uint32)
            for v, variant in enumerate(c_mismatches):
                twin = np.empty_like(x)
                getattr(c_twin, f"{name}_f32")(x, twin, v)
                c_mismatches[variant] += int(np.count_nonzero(twin.view(np.uint32) != bits))
            if emulation is not None:
                numpy_mismatches += int(np.count_nonzero(emulation(x).view(np.uint32) != bits))
    at = float(np.array(worst[1], np.uint32).view(np.float32))
    print(f"{name}: all 2**32 float32 in {time.time() - start:.0f} s; max {worst[0]} ulp at x = {at!r}")
    print(f"  histogram (0, 1, ... ulp; last: >= {BINS - 1} or NaN/sign/range mismatch): {hist.tolist()}")
    print(f"  C twin bit mismatches per variant: {c_mismatches or 'C twin not built'}")
    if numpy_twin:
        print(f"  NumPy twin bit mismatches: {numpy_mismatches}")
    ok = worst[0] <= BOUND and not any(c_mismatches.values()) and numpy_mismatches == 0
    print(f"  {'PASS' if ok else 'FAIL'}")
    return ok


def main(argv) -> int:
    names = [a for a in argv if not a.startswith("--")] or list(FUNCTIONS)
    unknown = sorted(set(names) - set(FUNCTIONS))
    if unknown:
        print(f"unknown functions {unknown}; choose from {FUNCTIONS}", file=sys.stderr)
        return 2
    results = [check(name, "--numpy-twin" in argv) for name in names]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
