"""Vectorizable erf for generated numba kernels, float32 and float64.

float64: a = |x|; erf = a + a Q(a**2) below 1, 1 - exp(-a**2) R((a - 3.5) / 2.5) from 1 to 6, 1 beyond,
sign restored; both polynomials and the exp run for every element and a select picks (constants.py has
Q, R and the error budget). Bound: within 1 ulp of libm's erf (tests/backends/numba/mathlib/test_accuracy.py, against
mpmath too). libm's erf, which this replaces, is a scalar call that kept loops from vectorizing.
float32: two float32 polynomials, one on each side of 1 (erf_f32 says how).
Bit for bit as erf_numpy.py's and _erf_twin.h's: edit the three together.
"""

from __future__ import annotations

import numpy as np
from arraystack.backends.numba.mathlib.checked_jit import njit_checked
from arraystack.backends.numba.mathlib.constants import (
    ERF_CENTER,
    ERF_CENTER_F,
    ERF_CLAMP_F,
    ERF_LARGE_F,
    ERF_ONE,
    ERF_Q,
    ERF_R,
    ERF_SCALE,
    ERF_SMALL_F,
    ERF_SPLIT,
    ERF_SPLIT_F,
    ONE_F,
)
from arraystack.backends.numba.mathlib.exp_log import exp_f64, fma
from arraystack.backends.numba.mathlib.trig import _horner, always_inline

# R's 31 coefficients in two tuples: numba indexes a long tuple in a loop through a switch that LLVM
# does not unroll (erf ran 20 times slower than NumPy's); each half of 16 or fewer unrolls into fmas.
# The same fmas in the same order as one Horner's rule, so the results are bit for bit erf_numpy.py's.
_R_HIGH, _R_LOW = ERF_R[15:], ERF_R[:15]


@njit_checked
def _horner_onto(p, c, x):
    """Horner's rule continued from p: fma(...fma(fma(p, x, c[-1]), x, c[-2])..., x, c[0])."""
    always_inline()
    for i in range(len(c) - 1, -1, -1):
        p = fma(p, x, c[i])
    return p


@njit_checked
def erf_f64(x):
    always_inline()
    a = abs(x)
    small = fma(a, _horner(ERF_Q, a * a), a)
    c = min(max(a, ERF_SPLIT), ERF_ONE)
    h = c * c
    low = fma(c, c, -h)  # c**2 = h + low exactly
    e = exp_f64(-h)
    v = (c - ERF_CENTER) * ERF_SCALE
    erfc = fma(-e, low, e) * _horner_onto(_horner(_R_HIGH, v), _R_LOW, v)
    y = small if a < ERF_SPLIT else 1.0 - erfc
    y = 1.0 if a > ERF_ONE else y
    y = np.copysign(y, x)
    return x if x != x else y


@njit_checked
def _horner_f32(c, x):
    """fma(...fma(fma(c[0], x, c[1]), x, c[2])..., x, c[-1]): Horner's rule, highest coefficient first."""
    p = fma(c[0], x, c[1])
    for i in range(2, len(c)):
        p = fma(p, x, c[i])
    return p


@njit_checked
def erf_f32(x):
    """a + a A(a**2) below 1, 1 - E(a - 2.5) from 1 on, a = min(|x|, 4), sign restored
    (constants.py has A, E and the bound)."""
    a = min(abs(x), ERF_CLAMP_F)
    small = fma(a, _horner_f32(ERF_SMALL_F, a * a), a)
    large = ONE_F - _horner_f32(ERF_LARGE_F, a - ERF_CENTER_F)  # a - 2.5 is exact
    y = small if a < ERF_SPLIT_F else large
    y = np.copysign(y, x)
    return x if x != x else y
