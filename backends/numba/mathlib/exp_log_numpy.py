"""exp_log.py's functions as NumPy array code, bit for bit: the same IEEE operations in the same order,
so tier 0 (NumPy) computes exactly what tier 1's kernels compute. Each `_<fn>_<f32|f64>` mirrors the
numba function of that name line by line (tests/backends/numba/mathlib/test_agreement.py compares every result
bitwise). The kernel's `fma` is emulated exactly (fma_emulation.py), except where exp_log.py notes the
product is exact: there the fma is the unfused expression. Constants come from constants.py (no numba
import: tier 0 must not wait for it). Selects evaluate both sides, as the branch-free kernels do; NaN
inputs come back as themselves. Cost (1e6 elements): float32 25-55 ms, float64 0.2 s (each emulated
float64 fma is ~35 NumPy passes), against 1-13 ms for the C twin (_exp_log_twin.h), which twins.py
prefers; this code serves when the extension is not built or is stale.
"""

from __future__ import annotations

import numpy as np
from arraystack.backends.numba.mathlib import constants as ml
from arraystack.backends.numba.mathlib.fma_emulation import fma_f32, fma_f64, split

F = np.float32


# -- float64 ------------------------------------------------------------------------------------------------
def _pow2_f64(k):
    k = k.astype(np.int64)
    k1 = k >> 1
    k2 = k - k1
    return ((k1 + 1023) << 52).view(np.float64), ((k2 + 1023) << 52).view(np.float64)


def _reduce_f64(x):
    xc = np.where(~np.isnan(x), np.minimum(np.maximum(x, -746.0), 710.0), 0.0)
    k = np.floor(fma_f64(xc, ml.LOG2E, 0.5))
    r = xc - k * ml.LN2_HI
    r = fma_f64(-k, ml.LN2_LO, r)
    return k, r


def _horner_f64(coefficients, x, top, bottom):
    """fma(...fma(fma(c[top], x, c[top - 1]), x, ...), x, c[bottom])."""
    parts = split(x)
    p = np.full_like(x, coefficients[top])
    for i in range(top - 1, bottom - 1, -1):
        p = fma_f64(p, x, coefficients[i], parts)
    return p


def _exp_f64(x):
    k, r = _reduce_f64(x)
    p = _horner_f64(ml.EXP_C, r, 13, 0)
    s1, s2 = _pow2_f64(k)
    y = (p * s1) * s2
    y = np.where(x > 709.782712893384, np.inf, y)
    y = np.where(x < -745.1332191019412, 0.0, y)
    return np.where(np.isnan(x), x, y)


def _expm1_f64(x):
    k, r = _reduce_f64(x)
    p = _horner_f64(ml.EXP_C, r, 13, 2)
    em1r = fma_f64(r * r, p, r)
    s1, s2 = _pow2_f64(k)
    t = s1 * s2
    y = np.where(k != 0, t * em1r + (t - 1.0), em1r)
    y = np.where(k > 56, ((em1r + 1.0) * s1) * s2 - 1.0, y)
    y = np.where(x > 709.782712893384, np.inf, y)
    y = np.where(x < -38.0, -1.0, y)
    return np.where(np.isnan(x) | (x == 0.0), x, y)


def _log_f64(x):
    tiny = x < 2.2250738585072014e-308
    xs = np.where(tiny, x * 18014398509481984.0, x)
    bits = xs.view(np.int64)
    e = ((bits >> 52) & 0x7FF) - 1023 - np.where(tiny, 54, 0)
    m = ((bits & 0x000FFFFFFFFFFFFF) | 0x3FF0000000000000).view(np.float64)
    big = m > 1.4142135623730951
    m = np.where(big, m * 0.5, m)
    e = np.where(big, e + 1, e)
    f = m - 1.0
    s = f / (2.0 + f)
    z = s * s
    R = _horner_f64(ml.ATANH_C, z, 10, 0)
    hfsq = 0.5 * f * f
    logm = f - fma_f64(-s, fma_f64(R, z, hfsq), hfsq)
    fe = e.astype(np.float64)
    y = fe * ml.LN2_HI + fma_f64(fe, ml.LN2_LO, logm)
    y = np.where(x == 0.0, -np.inf, y)
    y = np.where(x < 0.0, np.nan, y)
    y = np.where(x == np.inf, x, y)
    return np.where(np.isnan(x), x, y)


def _tanh_f64(x):
    ax = np.abs(x)
    t = _expm1_f64(2.0 * np.minimum(ax, 23.0))
    y = t / (t + 2.0)
    y = np.where(ax > 22.0, 1.0, y)
    y = np.copysign(y, x)
    return np.where(np.isnan(x), x, y)


def _logistic_f64(x):
    e = _exp_f64(-np.abs(x))
    y = np.where(x >= 0.0, 1.0 / (1.0 + e), e / (1.0 + e))
    return np.where(np.isnan(x), x, y)


# -- float32 ------------------------------------------------------------------------------------------------
def _pow2_f32(k):
    k1 = np.floor(k * ml.HALF_F)
    k2 = k - k1
    s1 = ((k1 + F(127.0)) * F(8388608.0)).astype(np.int32).view(F)
    return s1, ((k2 + F(127.0)) * F(8388608.0)).astype(np.int32).view(F)


def _exp_scales_f32(shifted, x):
    negative = x < ml.ZERO_F
    d = ml.EXP_SPLIT
    bias = np.where(negative, np.uint32((127 + d) << 23), np.uint32((127 - d) << 23))
    s1 = ((shifted.view(np.uint32) << np.uint32(23)) + bias).view(F)  # uint32 wraps like int32
    return s1, np.where(negative, F(2.0**-d), F(2.0**d))


def _reduce_f32(x):
    xc = np.minimum(np.maximum(x, F(-105.0)), F(90.0))
    shifted = fma_f32(xc, ml.LOG2E_F, ml.SHIFTER_F)
    k = shifted - ml.SHIFTER_F
    r = xc - k * ml.LN2_HI_F
    r = fma_f32(-k, ml.LN2_LO_F, r)
    return k, r, shifted


def _exp_f32(x):
    _, r, shifted = _reduce_f32(x)
    c = ml.EXP_QF
    q = fma_f32(c[0], r, c[1])
    for i in range(2, len(c)):
        q = fma_f32(q, r, c[i])
    em1 = fma_f32(q, r * r, r)
    s1, s2 = _exp_scales_f32(shifted, x)
    y = fma_f32(em1, s1, s1) * s2
    return np.where(np.isnan(x), x, y)


def _expm1_f32(x):
    k, r, _ = _reduce_f32(x)
    c = ml.EXP_CF
    p = np.full_like(r, c[9])
    for i in range(8, 1, -1):
        p = fma_f32(p, r, c[i])
    em1r = fma_f32(r * r, p, r)
    s1, s2 = _pow2_f32(k)
    t = s1 * s2
    y = np.where(k != ml.ZERO_F, t * em1r + (t - ml.ONE_F), em1r)
    y = np.where(k > F(25.0), ((em1r + ml.ONE_F) * s1) * s2 - ml.ONE_F, y)
    y = np.where(x > F(88.72283935546875), ml.INF_F, y)
    y = np.where(x < F(-17.5), -ml.ONE_F, y)
    return np.where(np.isnan(x) | (x == ml.ZERO_F), x, y)


def _log_f32(x):
    tiny = x < F(1.1754943508222875e-38)
    xs = np.where(tiny, x * F(33554432.0), x)
    bits = xs.view(np.int32)
    e = ((bits >> 23) & 0xFF) - 127 - np.where(tiny, 25, 0).astype(np.int32)
    m = ((bits & 0x007FFFFF) | 0x3F800000).view(F)
    big = m > F(1.4142135)
    m = np.where(big, m * ml.HALF_F, m)
    e = np.where(big, e + 1, e)
    f = m - ml.ONE_F
    s = f / (ml.TWO_F + f)
    z = s * s
    c = ml.ATANH_CF
    R = np.full_like(z, c[5])
    for i in range(4, -1, -1):
        R = fma_f32(R, z, c[i])
    hfsq = ml.HALF_F * f * f
    logm = f - fma_f32(-s, fma_f32(R, z, hfsq), hfsq)
    fe = e.astype(F)
    y = fe * ml.LN2_HI_F + fma_f32(fe, ml.LN2_LO_F, logm)
    y = np.where(x == ml.ZERO_F, -ml.INF_F, y)
    y = np.where(x < ml.ZERO_F, F(np.nan), y)
    y = np.where(x == ml.INF_F, x, y)
    return np.where(np.isnan(x), x, y)


def _pow2_shifted_f32(shifted):
    # uint32 arithmetic wraps like the kernel's int32 arithmetic
    biased = shifted.view(np.uint32) - np.uint32(0x4B400000 - 127)
    return (biased << np.uint32(23)).view(F)


def _tanh_f32(x):
    m = np.minimum(np.abs(x), ml.TANH_CLAMP_F)
    shifted = fma_f32(m, ml.TWO_LOG2E_F, ml.SHIFTER_F)
    k = shifted - ml.SHIFTER_F
    r = fma_f32(-k, ml.LN2_HALF_F, m)
    c = ml.TANH_HF
    p = fma_f32(c[0], r, c[1])
    for i in range(2, 5):
        p = fma_f32(p, r, c[i])
    h = fma_f32(p, r * r, r)
    t = _pow2_shifted_f32(shifted)
    e = t * h + (t * ml.HALF_F - ml.HALF_F)
    y = e / (e + ml.ONE_F)
    y = np.copysign(y, x)
    return np.where(np.isnan(x), x, y)


def _logistic_f32(x):
    e = _exp_f32(-np.abs(x))
    y = np.where(x >= ml.ZERO_F, ml.ONE_F / (ml.ONE_F + e), e / (ml.ONE_F + e))
    return np.where(np.isnan(x), x, y)
