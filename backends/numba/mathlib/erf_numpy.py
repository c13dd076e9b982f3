"""erf.py's erf as NumPy array code, bit for bit, for tier 0: erf_f32's and erf_f64's IEEE operations in
their order, each `fma` fma_emulation's exact one. Two steps of float64 erf differ in form, not in bits
(each has a Note): the lanes a select drops get operands inside fma_f64's exact range, and the small
branch's last fma takes another route for tiny |x|. No numba import.
"""

from __future__ import annotations

import numpy as np
from arraystack.backends.numba.mathlib import constants as ml
from arraystack.backends.numba.mathlib.exp_log_numpy import _exp_f64
from arraystack.backends.numba.mathlib.fma_emulation import fma_f32, fma_f64
from arraystack.backends.numba.mathlib.trig_numpy import _horner

# below it a * a is 0 (so Q's value is Q(0)); above it fma(a, q, a) is exact in fma_f64
ERF_TINY = 2.0**-600
SCALE_HALF = 2.0**537  # 2**1074 is no float64: scalings by it take two steps, each exact


def _erf_f64(x):
    a = np.abs(x)
    # Note: the kernel runs the small branch on every a; here the lanes the select drops (a >= 1, NaN)
    # and tiny a (redone below) run it on 0, so that every fma_f64 is exact (huge a, inf, NaN are not)
    s = np.where((a >= ERF_TINY) & (a < ml.ERF_SPLIT), a, 0.0)
    q = _horner(ml.ERF_Q, s * s)  # the kernel's q wherever a < 1: a * a is 0 for tiny a too
    small = fma_f64(s, q, s)
    tiny = a < ERF_TINY
    if tiny.any():
        small[tiny] = _fma_tiny(a[tiny], q[tiny])
    # Note: fmax, so that NaN's lanes (dropped) get 1, not NaN
    c = np.fmin(np.fmax(a, ml.ERF_SPLIT), ml.ERF_ONE)
    h = c * c
    low = fma_f64(c, c, -h)
    e = _exp_f64(-h)
    erfc = fma_f64(-e, low, e) * _horner(ml.ERF_R, (c - ml.ERF_CENTER) * ml.ERF_SCALE)
    y = np.where(a < ml.ERF_SPLIT, small, 1.0 - erfc)
    y = np.where(a > ml.ERF_ONE, 1.0, y)
    y = np.copysign(y, x)
    return np.where(np.isnan(x), x, y)


def _fma_tiny(a, q):
    """fma(a, q, a) for 0 <= a < ERF_TINY and 0 <= q < 1 (erf's q is Q(0) there), where fma_f64's
    product a * q may be inexact (below 2**-960). In units of 2**-1074 a is A (exact), and the result is
    A (1 + q) rounded to 53 bits when A (1 + q) >= 2**52 (normal results), else to an integer (subnormal
    ones): there A < 2**52 is an integer (q >= 0), and the addend A + 2**52 (exact) puts the sum in
    [2**52, 2**53), where float64's spacing is 1."""
    big = a * SCALE_HALF * SCALE_HALF
    r = fma_f64(big, q, big)
    r = np.where(r < 2.0**52, fma_f64(big, q, big + 2.0**52) - 2.0**52, r)
    return r / SCALE_HALF / SCALE_HALF


def _horner_f32(c, x):
    p = fma_f32(c[0], x, c[1])
    for i in range(2, len(c)):
        p = fma_f32(p, x, c[i])
    return p


def _erf_f32(x):
    a = np.minimum(np.abs(x), ml.ERF_CLAMP_F)
    small = fma_f32(a, _horner_f32(ml.ERF_SMALL_F, a * a), a)
    large = ml.ONE_F - _horner_f32(ml.ERF_LARGE_F, a - ml.ERF_CENTER_F)
    y = np.where(a < ml.ERF_SPLIT_F, small, large)
    y = np.copysign(y, x)
    return np.where(np.isnan(x), x, y)
