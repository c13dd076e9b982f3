"""Vectorizable sin, cos and tan for generated numba kernels (float64, and float32 computed in float64).

Branch-free over the whole input range: the argument reduction reads its bits of 2/pi from a table row per
exponent (a gather per piece; trig_constants.py builds the tables), adds the products with
error-free transformations, and both polynomials run for every element, a select picking by quadrant.
Bound (tests/backends/numba/mathlib/test_accuracy.py): sin and cos within 1 ulp of the correctly rounded result,
tan (their quotient) within 2; so within 4 ulp of NumPy's wherever NumPy is within 3 (not at the worst
cases of the reduction, which NumPy's cos misses by 8 ulp; these functions get them right).
float32 has a cheaper variant, `<fn>_f32_fast`, for |x| <= TRIG_FAST_F (2**20): a two-constant reduction
without the gathers (0.6 against 1.5 ns an element). The full function selects exactly that result
there, so a kernel may call the fast one for a block it has checked (codegen.py does): the same bits.
Every result is specified bit for bit (IEEE operations and explicit fmas): trig_numpy.py and
_trig_twin.h compute the same bits. Edit the three together.
"""

from __future__ import annotations

import numpy as np
from arraystack.backends.numba.mathlib.checked_jit import njit_checked
from arraystack.backends.numba.mathlib.exp_log import bits_f64, f32_bits, f64_bits, fma
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
from numba import types
from numba.extending import intrinsic


@intrinsic
def always_inline(typingctx):
    """Marks the function this call is compiled into "alwaysinline" (no code). LLVM's inliner leaves a
    function of sin's size out of line, and a loop calling it does not vectorize."""

    def codegen(context, builder, signature, args):
        builder.function.attributes.add("alwaysinline")
        return context.get_dummy_value()

    return types.none(), codegen



@njit_checked
def _horner(c, x):
    """c[0] + x (c[1] + x (... + x c[-1])) by fmas, c[-1] innermost."""
    always_inline()
    p = c[-1]
    for i in range(len(c) - 2, -1, -1):
        p = fma(p, x, c[i])
    return p


@njit_checked
def _two_product(a, b):
    always_inline()
    p = a * b
    return p, fma(a, b, -p)


@njit_checked
def _two_sum(a, b):
    always_inline()
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


@njit_checked
def _mod4(v):
    """v - 4 round(v / 4): exact (|result| <= 2)."""
    always_inline()
    return fma(np.rint(v * 0.25), -4.0, v)


@njit_checked
def _reduce_f64(ax):
    """(k, hi, lo): ax * 2/pi = k + hi + lo (mod 4), k an integer, |hi| <= 1/2 + 2**-26, hi + lo within
    2**-131 of the exact fraction. m * T0 and m * T1 are exact as two doubles each, all multiples of their
    piece's last bit (2**-26, 2**-79), so the mods and a's sum are exact; b's error eb, l1 and the partial
    sums below stay on the 2**-79 grid, where sums below 2**-26 are exact. What cancels is therefore
    computed exactly, and only terms below 2**-78 are added with rounding."""
    always_inline()
    bits = f64_bits(ax)
    e = bits >> 52
    # 2**52 + the mantissa: the integer m
    m = bits_f64((bits & 0x000FFFFFFFFFFFFF) | 0x4330000000000000)
    t = TRIG_TABLE
    h0, l0 = _two_product(m, t[e, 0])
    a = _mod4(_mod4(h0) + _mod4(l0))
    h1, l1 = _two_product(m, t[e, 1])
    b, eb = _two_sum(a, _mod4(h1))
    k = np.rint(b)
    c = b - k
    h2, l2 = _two_product(m, t[e, 2])
    h3 = m * t[e, 3]
    d, e1 = _two_sum(c, l1)
    d, e2 = _two_sum(d, eb)
    d, e3 = _two_sum(d, h2)
    lo = ((e1 + e2) + e3) + (l2 + h3)
    hi = d + lo
    return k, hi, lo - (hi - d)


@njit_checked
def _sincos_f64(hi, lo):
    """sin and cos of (hi + lo) pi/2, |hi + lo| <= 1/2 + 2**-26, from z = zh + zl = (hi + lo) pi/2."""
    always_inline()
    zh = hi * PIO2_HI
    zl = fma(hi, PIO2_HI, -zh) + fma(hi, PIO2_LO, lo * PIO2_HI)
    zz = zh * zh
    zz_lo = fma(zh, zh, -zz)
    s = zh + fma(zh * zz, _horner(SIN_C, zz), zl * (1.0 - 0.5 * zz))
    hz = 0.5 * zz
    w = 1.0 - hz
    tail = (((1.0 - w) - hz) - 0.5 * zz_lo) + fma(zz * zz, _horner(COS_C, zz), -(zh * zl))
    return s, w + tail


@njit_checked
def sin_f64(x):
    always_inline()
    ax = abs(x)
    k, hi, lo = _reduce_f64(ax)
    s, c = _sincos_f64(hi, lo)
    q = np.int64(k) & 3
    y = c if q & 1 else s
    y = -y if q & 2 else y
    y = -y if x < 0.0 else y
    y = x if ax < TRIG_TINY else y
    y = np.nan if ax == np.inf else y
    return x if x != x else y


@njit_checked
def cos_f64(x):
    always_inline()
    ax = abs(x)
    k, hi, lo = _reduce_f64(ax)
    s, c = _sincos_f64(hi, lo)
    q = np.int64(k) & 3
    y = s if q & 1 else c
    y = -y if (q + 1) & 2 else y
    y = 1.0 if ax < TRIG_TINY else y
    y = np.nan if ax == np.inf else y
    return x if x != x else y


@njit_checked
def tan_f64(x):
    """s / c, or -c / s in odd quadrants (c >= 0.707 and s >= 0.707 there: neither divides by a small
    value); each within ~0.6 ulp, the quotient within 2 ulp."""
    always_inline()
    ax = abs(x)
    k, hi, lo = _reduce_f64(ax)
    s, c = _sincos_f64(hi, lo)
    y = -c / s if np.int64(k) & 1 else s / c
    y = -y if x < 0.0 else y
    y = x if ax < TRIG_TINY else y  # tan(x) = x + x**3/3: x rounded, as sin
    y = np.nan if ax == np.inf else y
    return x if x != x else y


# -- float32 ------------------------------------------------------------------------------------------------


@njit_checked
def _reduce_fast_f32(ax):
    """(k, z): float64(ax) = k pi/2 + z, for ax <= TRIG_FAST_F."""
    always_inline()
    xd = np.float64(ax)
    k = np.rint(xd * TWO_OVER_PI)
    return k, fma(-k, PIO2_B, xd - k * PIO2_A)  # exact product and difference


@njit_checked
def _reduce_table_f32(ax):
    """(k, z): ax = k pi/2 + z (mod 2 pi), any finite ax. m * T0, m * T1, m * T2 are exact; a and a - k
    are exact (2**-27 grid), the two additions after them round relative to their results."""
    always_inline()
    bits = f32_bits(ax)
    e = bits >> 23
    m = np.float64((bits & 0x007FFFFF) | 0x00800000)
    t = TRIG_TABLE_F
    a = _mod4(m * t[e, 0])
    p1 = m * t[e, 1]
    k = np.rint(a + p1)
    r = ((a - k) + p1) + m * t[e, 2]
    return k, r * PIO2_HI


@njit_checked
def _sincos_f32(z):
    always_inline()
    zz = z * z
    return fma(z * zz, _horner(SIN_CF, zz), z), fma(zz, _horner(COS_CF, zz), 1.0)


@njit_checked
def _sin_f32(x, k, z):
    always_inline()
    s, c = _sincos_f32(z)
    q = np.int64(k) & 3
    y = c if q & 1 else s
    y = -y if q & 2 else y
    y = -y if x < np.float32(0.0) else y
    r = np.float32(y)
    r = x if abs(x) < np.float32(TRIG_TINY_F) else r
    r = np.float32(np.nan) if abs(x) == np.float32(np.inf) else r
    return x if x != x else r


@njit_checked
def _cos_f32(x, k, z):
    always_inline()
    s, c = _sincos_f32(z)
    q = np.int64(k) & 3
    y = s if q & 1 else c
    y = -y if (q + 1) & 2 else y
    r = np.float32(y)
    r = np.float32(1.0) if abs(x) < np.float32(TRIG_TINY_F) else r
    r = np.float32(np.nan) if abs(x) == np.float32(np.inf) else r
    return x if x != x else r


@njit_checked
def _tan_f32(x, k, z):
    always_inline()
    s, c = _sincos_f32(z)
    y = -c / s if np.int64(k) & 1 else s / c
    y = -y if x < np.float32(0.0) else y
    r = np.float32(y)
    r = x if abs(x) < np.float32(TRIG_TINY_F) else r
    r = np.float32(np.nan) if abs(x) == np.float32(np.inf) else r
    return x if x != x else r


@njit_checked
def _reduce_f32(ax):
    always_inline()
    k_fast, z_fast = _reduce_fast_f32(ax)
    k_table, z_table = _reduce_table_f32(ax)
    large = not (ax <= np.float32(TRIG_FAST_F))  # inf and NaN too: the fast k would be no integer
    return (k_table if large else k_fast), (z_table if large else z_fast)


@njit_checked
def sin_f32(x):
    always_inline()
    k, z = _reduce_f32(abs(x))
    return _sin_f32(x, k, z)


@njit_checked
def cos_f32(x):
    always_inline()
    k, z = _reduce_f32(abs(x))
    return _cos_f32(x, k, z)


@njit_checked
def sin_f32_fast(x):
    """sin_f32(x) for |x| <= TRIG_FAST_F, the same bits; undefined for larger |x|, inf and NaN (k would not
    be an integer): callers check first."""
    always_inline()
    k, z = _reduce_fast_f32(abs(x))
    return _sin_f32(x, k, z)


@njit_checked
def cos_f32_fast(x):
    """cos_f32(x) for |x| <= TRIG_FAST_F, the same bits; undefined beyond (see sin_f32_fast)."""
    always_inline()
    k, z = _reduce_fast_f32(abs(x))
    return _cos_f32(x, k, z)


@njit_checked
def tan_f32(x):
    always_inline()
    k, z = _reduce_f32(abs(x))
    return _tan_f32(x, k, z)


@njit_checked
def tan_f32_fast(x):
    """tan_f32(x) for |x| <= TRIG_FAST_F, the same bits; undefined beyond (see sin_f32_fast)."""
    always_inline()
    k, z = _reduce_fast_f32(abs(x))
    return _tan_f32(x, k, z)
