"""Vectorizable float64 erf for generated numba kernels (float32 erf is exp_log.erf_f32).

a = |x|; erf = a + a Q(a**2) below 1, 1 - exp(-a**2) R((a - 3.5) / 2.5) from 1 to 6, 1 beyond, sign
restored; both polynomials and the exp run for every element and a select picks (constants.py
has Q, R and the error budget). Bound: within 1 ulp of libm's erf (tests/backends/test_mathlib.py,
against mpmath too). libm's erf, which this replaces, is a scalar call that kept loops from vectorizing.
Bit for bit as exp_log_numpy.py's and _exp_log_twin.h's erf_f64: edit the three together.
"""

from __future__ import annotations

import numpy as np
from arraystack.backends.numba.mathlib.exp_log import exp_f64, fma
from arraystack.backends.numba.mathlib.constants import (
    ERF_CENTER,
    ERF_ONE,
    ERF_Q,
    ERF_R,
    ERF_SCALE,
    ERF_SPLIT,
)
from arraystack.backends.numba.mathlib.trig import _horner, always_inline
from numba import njit


@njit(error_model="numpy", cache=True)
def erf_f64(x):
    always_inline()
    a = abs(x)
    small = fma(a, _horner(ERF_Q, a * a), a)
    c = min(max(a, ERF_SPLIT), ERF_ONE)
    h = c * c
    low = fma(c, c, -h)  # c**2 = h + low exactly
    e = exp_f64(-h)
    erfc = fma(-e, low, e) * _horner(ERF_R, (c - ERF_CENTER) * ERF_SCALE)
    y = small if a < ERF_SPLIT else 1.0 - erfc
    y = 1.0 if a > ERF_ONE else y
    y = np.copysign(y, x)
    return x if x != x else y
