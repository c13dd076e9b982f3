"""Exactly rounded a * b + c over NumPy arrays: the llvm.fma of exp_log.py's kernels, emulated for
exp_log_numpy.py (NumPy has no fma ufunc). Callers silence floating-point warnings (np.errstate).

float32: the product of two float32 is exact in float64; the float64 sum is rounded once more to float32,
which is the single rounding of the exact value unless the float64 sum lands on a float32 midpoint (or in
float32's subnormal range); those rare elements are redone with a round-to-odd sum.
float64: Dekker's exact product and Knuth's TwoSum, then Boldo and Melquiond's round-to-odd addition
("Emulation of FMA and correctly rounded sums: proved algorithms using rounding to odd", IEEE TC 2008).
"""

from __future__ import annotations

import numpy as np

f32, f64, i64 = np.float32, np.float64, np.int64
SPLITTER = 134217729.0  # 2**27 + 1: Veltkamp's split of a float64 into two 26-bit halves
_LOW29 = (1 << 29) - 1  # the float64 mantissa bits below float32's
_MIDPOINT29 = 1 << 28  # ... of a float64 halfway between two float32
_EXPONENT = 0x7FF0000000000000
_MIN_NORMAL32_BITS = (1023 - 126) << 52  # |s| below 2**-126: float32's spacing is coarser


def two_sum(a, b):
    """(s, e) with s = fl(a + b) and s + e = a + b exactly (Knuth; any finite a, b)."""
    s = a + b
    bb = s - a
    e = (a - (s - bb)) + (b - bb)
    return s, e


def round_to_odd(s, e):
    """The float nearest s + e rounded to odd, where s = fl(s + e) and e is its exact error (finite): s
    itself if exact or odd, else s's neighbour toward e (an odd mantissa marks the sum inexact, so the
    next rounding to fewer bits is right). Integer arithmetic on the bits: np.where and ufuncs with
    `where=` are several times slower on unpredictable masks."""
    itype = i64 if s.dtype == f64 else np.int32
    sign = 8 * s.dtype.itemsize - 1
    bits, ebits = s.view(itype), e.view(itype)
    toward_e = ((bits ^ ebits) >> sign) | 1  # +1 (away from zero) where e and s agree in sign
    inexact = -(ebits & np.iinfo(itype).max) >> sign  # -1 where e != 0, else 0
    even = (bits & 1) - 1  # -1 where s is even, else 0
    return (bits + (toward_e & inexact & even)).view(s.dtype)


def fma_f32(a, b, c):
    """float32 a * b + c rounded once, for any float32 operands (arrays or scalars; float32 values may
    come as float64 arrays, which saves the caller's repeated casts)."""
    p = np.multiply(a, b, dtype=f64)  # exact: 48 significant bits, no under/overflow
    s = np.add(p, c, dtype=f64)
    bits = s.view(i64)
    hard = (bits & _LOW29) == _MIDPOINT29
    # 2**-1022 <= |s| < 2**-126 (a zero or float64-subnormal s rounds to a float32 zero either way)
    hard |= ((bits & _EXPONENT) - 1).view(np.uint64) < _MIN_NORMAL32_BITS - 1
    if hard.any():
        p = np.broadcast_to(p, s.shape)[hard]
        s[hard] = round_to_odd(*two_sum(p, np.broadcast_to(np.asarray(c, f64), s.shape)[hard]))
    return s.astype(f32)


def split(a):
    """Veltkamp: (hi, lo) with hi + lo = a, each fitting in 26 bits (|a| < 2**995)."""
    t = a * SPLITTER
    hi = t - (t - a)
    return hi, a - hi


def fma_f64(a, b, c, b_parts=None):
    """float64 a * b + c rounded once. b_parts = split(b) when the caller reuses b (a Horner variable).

    Exact over the operands mathlib's polynomials reach (tests/backends/numba/mathlib/test_twins.py asserts
    them): |a|, |b| < 2**995, |c| and |a * b| < 2**1000, and either a * b == 0, |a * b| >= 2**-960
    (Dekker's product is then exact), or |a * b| <= 2**-60 |c| (the result is then c, computed so)."""
    ah, al = split(a)
    bh, bl = split(b) if b_parts is None else b_parts
    ph = a * b
    pl = ((ah * bh - ph) + ah * bl + al * bh) + al * bl  # ph + pl = a * b exactly
    th, tl = two_sum(c, ph)
    v = round_to_odd(*two_sum(tl, pl))
    return np.where(v == 0.0, th, th + v)  # th + 0.0 would turn th = -0.0 into +0.0


def in_exact_range_f64(a, b, c):
    """Whether fma_f64's exactness conditions hold, elementwise (for the tests' instrumented runs).
    Conservative: |a * b| lies in [2**(ea + eb - 2), 2**(ea + eb)) for frexp exponents ea, eb."""
    a, b, c = np.broadcast_arrays(np.asarray(a, f64), np.asarray(b, f64), np.asarray(c, f64))
    ea, eb, ec = (np.frexp(v)[1].astype(i64) for v in (a, b, c))
    finite = np.isfinite(a) & np.isfinite(b) & np.isfinite(c)
    bounded = finite & (np.abs(a) < 2.0**995) & (np.abs(b) < 2.0**995) & (ec <= 1000)
    bounded &= ea + eb <= 1000
    zero = (a == 0) | (b == 0)
    negligible = (c != 0) & (ea + eb <= ec - 61)
    return bounded & (zero | (ea + eb - 2 >= -960) | negligible)
