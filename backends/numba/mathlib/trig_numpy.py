"""trig.py's sin, cos and tan as NumPy array code, bit for bit, for tier 0 (twins.py's _TWINS
holds them). Each function mirrors the numba function of its name line by line, on 1-D chunks: a table
gather is fancy indexing of the row per exponent, fma_emulation.two_sum is _two_sum operation for
operation, and each `fma` is fma_emulation's exact one, except in _mod4, whose result trig.py
notes is exact (the unfused expression then gives the same bits). Selects evaluate both sides, as the
branch-free kernels do. No numba import: tier 0 must not wait for it.
"""

from __future__ import annotations

import numpy as np
from arraystack.backends.numba.mathlib.fma_emulation import fma_f64, split, two_sum
from arraystack.backends.numba.mathlib.trig_constants import (
    COS_C,
    COS_CF,
    PIO2_A,
    PIO2_B,
    PIO2_HI,
    PIO2_LO,
    SIN_C,
    SIN_CF,
    TRIG_FAST_F,
    TRIG_TABLE,
    TRIG_TABLE_F,
    TRIG_TINY,
    TRIG_TINY_F,
    TWO_OVER_PI,
)

F = np.float32


def _horner(c, x):
    parts = split(x)
    p = np.full_like(x, c[-1])
    for i in range(len(c) - 2, -1, -1):
        p = fma_f64(p, x, c[i], parts)
    return p


def _two_product(a, b):
    p = a * b
    return p, fma_f64(a, b, -p)


def _mod4(v):
    # fma(rint(v / 4), -4, v): the product and the sum are exact, so unfused they round to the same
    # bits (a zero sum's sign too: IEEE gives it from the same operands)
    return np.rint(v * 0.25) * -4.0 + v


# -- float64 ------------------------------------------------------------------------------------------------
def _reduce_f64(ax):
    bits = ax.view(np.int64)
    e = bits >> 52
    m = ((bits & 0x000FFFFFFFFFFFFF) | 0x4330000000000000).view(np.float64)
    t = TRIG_TABLE[e]
    h0, l0 = _two_product(m, t[:, 0])
    a = _mod4(_mod4(h0) + _mod4(l0))
    h1, l1 = _two_product(m, t[:, 1])
    b, eb = two_sum(a, _mod4(h1))
    k = np.rint(b)
    c = b - k
    h2, l2 = _two_product(m, t[:, 2])
    h3 = m * t[:, 3]
    d, e1 = two_sum(c, l1)
    d, e2 = two_sum(d, eb)
    d, e3 = two_sum(d, h2)
    lo = ((e1 + e2) + e3) + (l2 + h3)
    hi = d + lo
    return k, hi, lo - (hi - d)


def _sincos_f64(hi, lo):
    zh = hi * PIO2_HI
    zl = fma_f64(hi, PIO2_HI, -zh) + fma_f64(hi, PIO2_LO, lo * PIO2_HI)
    zz = zh * zh
    zz_lo = fma_f64(zh, zh, -zz)
    s = zh + fma_f64(zh * zz, _horner(SIN_C, zz), zl * (1.0 - 0.5 * zz))
    hz = 0.5 * zz
    w = 1.0 - hz
    tail = (((1.0 - w) - hz) - 0.5 * zz_lo) + fma_f64(zz * zz, _horner(COS_C, zz), -(zh * zl))
    return s, w + tail


def _sin_f64(x):
    ax = np.abs(x)
    k, hi, lo = _reduce_f64(ax)
    s, c = _sincos_f64(hi, lo)
    q = k.astype(np.int64) & 3
    y = np.where(q & 1, c, s)
    y = np.where(q & 2, -y, y)
    y = np.where(x < 0.0, -y, y)
    y = np.where(ax < TRIG_TINY, x, y)
    y = np.where(ax == np.inf, np.nan, y)
    return np.where(np.isnan(x), x, y)


def _cos_f64(x):
    ax = np.abs(x)
    k, hi, lo = _reduce_f64(ax)
    s, c = _sincos_f64(hi, lo)
    q = k.astype(np.int64) & 3
    y = np.where(q & 1, s, c)
    y = np.where((q + 1) & 2, -y, y)
    y = np.where(ax < TRIG_TINY, 1.0, y)
    y = np.where(ax == np.inf, np.nan, y)
    return np.where(np.isnan(x), x, y)


def _tan_f64(x):
    ax = np.abs(x)
    k, hi, lo = _reduce_f64(ax)
    s, c = _sincos_f64(hi, lo)
    # the quotient a lane's select drops may be 0/0 (tiny x: s and c of its garbage reduction)
    with np.errstate(divide="ignore", invalid="ignore"):
        y = np.where(k.astype(np.int64) & 1, -c / s, s / c)
    y = np.where(x < 0.0, -y, y)
    y = np.where(ax < TRIG_TINY, x, y)
    y = np.where(ax == np.inf, np.nan, y)
    return np.where(np.isnan(x), x, y)


# -- float32 ------------------------------------------------------------------------------------------------
def _reduce_fast_f32(ax):
    xd = ax.astype(np.float64)
    k = np.rint(xd * TWO_OVER_PI)
    return k, fma_f64(-k, PIO2_B, xd - k * PIO2_A)


def _reduce_table_f32(ax):
    bits = ax.view(np.int32)
    e = bits >> 23
    m = ((bits & 0x007FFFFF) | 0x00800000).astype(np.float64)
    t = TRIG_TABLE_F[e]
    a = _mod4(m * t[:, 0])
    p1 = m * t[:, 1]
    k = np.rint(a + p1)
    r = ((a - k) + p1) + m * t[:, 2]
    return k, r * PIO2_HI


def _sincos_f32(z):
    zz = z * z
    return fma_f64(z * zz, _horner(SIN_CF, zz), z), fma_f64(zz, _horner(COS_CF, zz), 1.0)


def _finish_sin_f32(x, k, z):
    """trig._sin_f32 (whose name here is the twin's)."""
    s, c = _sincos_f32(z)
    q = k.astype(np.int64) & 3  # k is finite: inf and NaN take the table's reduction
    y = np.where(q & 1, c, s)
    y = np.where(q & 2, -y, y)
    y = np.where(x < F(0.0), -y, y)
    r = y.astype(F)
    r = np.where(np.abs(x) < F(TRIG_TINY_F), x, r)
    r = np.where(np.abs(x) == F(np.inf), F(np.nan), r)
    return np.where(np.isnan(x), x, r)


def _finish_cos_f32(x, k, z):
    """trig._cos_f32."""
    s, c = _sincos_f32(z)
    q = k.astype(np.int64) & 3
    y = np.where(q & 1, s, c)
    y = np.where((q + 1) & 2, -y, y)
    r = y.astype(F)
    r = np.where(np.abs(x) < F(TRIG_TINY_F), F(1.0), r)
    r = np.where(np.abs(x) == F(np.inf), F(np.nan), r)
    return np.where(np.isnan(x), x, r)


def _finish_tan_f32(x, k, z):
    """trig._tan_f32."""
    s, c = _sincos_f32(z)
    with np.errstate(divide="ignore", invalid="ignore"):
        y = np.where(k.astype(np.int64) & 1, -c / s, s / c)
    y = np.where(x < F(0.0), -y, y)
    r = y.astype(F)
    r = np.where(np.abs(x) < F(TRIG_TINY_F), x, r)
    r = np.where(np.abs(x) == F(np.inf), F(np.nan), r)
    return np.where(np.isnan(x), x, r)


def _reduce_f32(ax):
    k_fast, z_fast = _reduce_fast_f32(ax)
    k_table, z_table = _reduce_table_f32(ax)
    large = ~(ax <= F(TRIG_FAST_F))  # inf and NaN too, as the kernels
    return np.where(large, k_table, k_fast), np.where(large, z_table, z_fast)


def _sin_f32(x):
    k, z = _reduce_f32(np.abs(x))
    return _finish_sin_f32(x, k, z)


def _cos_f32(x):
    k, z = _reduce_f32(np.abs(x))
    return _finish_cos_f32(x, k, z)


def _tan_f32(x):
    k, z = _reduce_f32(np.abs(x))
    return _finish_tan_f32(x, k, z)
