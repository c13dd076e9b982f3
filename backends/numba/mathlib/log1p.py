"""Vectorizable log1p for generated numba kernels (float32 and float64), from mathlib's log.

log1p(x) = log(u) * (x / (u - 1)) with u = fl(1 + x), and x itself where u is 1 (Goldberg, "What every
computer scientist should know about floating-point arithmetic", theorem 4): u - 1 is exact, and the
quotient x / (u - 1) corrects log(u) for the rounding of 1 + x. The quotient (not the product x * log(u),
which overflows for x near the largest float) keeps every finite x finite. Branch-free; x = -1 gives
log(0) = -inf, x < -1 NaN (NumPy's np.nan), +inf +inf. Bound: <= 4 ulp from NumPy's log1p (tests/backends/numba/mathlib/test_accuracy.py;
float32 over all 2**32 inputs by tools/mathlib_exhaustive.py). softplus and logaddexp call it: without it
their loops split around a NumPy step. Bit for bit as log1p_numpy.py and _log1p_twin.h.
"""

from __future__ import annotations

import numpy as np
from arraystack.backends.numba.mathlib.checked_jit import njit_checked
from arraystack.backends.numba.mathlib.exp_log import log_f32, log_f64
from arraystack.backends.numba.mathlib.trig import always_inline


@njit_checked
def log1p_f64(x):
    always_inline()
    u = x + 1.0
    y = log_f64(u) * (x / (u - 1.0))
    y = x if u == 1.0 else y
    y = u if u == np.inf else y
    y = np.nan if x < -1.0 else y  # one NaN: a NaN times a NaN has no specified sign
    return x if x != x else y


@njit_checked
def log1p_f32(x):
    always_inline()
    u = x + np.float32(1.0)
    y = log_f32(u) * (x / (u - np.float32(1.0)))
    y = x if u == np.float32(1.0) else y
    y = u if u == np.float32(np.inf) else y
    y = np.float32(np.nan) if x < np.float32(-1.0) else y
    return x if x != x else y
