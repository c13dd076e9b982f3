"""The inputs every copy of mathlib is run on, generated per function from its split points.

For each function of twins.FAMILY and each dtype, `generate` returns one array holding: the special values
(+-0, +-inf, NaNs with payloads, the smallest and largest subnormals, the smallest normal, the largest
finite values), every split point of the function's selects and clamps with its neighbours (nextafter
both ways, many steps), a dense sweep of its reduction range, every exponent field with random
mantissas (so every row of trig's reduction tables, and every binade), and seeded random bit patterns.
SPLITS holds the split points, read from the sources (constants.py, trig_constants.py and the
functions' own literals); test_agreement.py checks that they reach every select both ways. Also the two
comparisons the tests make of results: ulp_distance and assert_bitwise_equal.
"""

from __future__ import annotations

import functools
import math
import zlib

import numpy as np
from arraystack.backends.numba.mathlib import constants as ml
from arraystack.backends.numba.mathlib import erf_numpy
from arraystack.backends.numba.mathlib import trig_constants as tc

F32, F64 = np.dtype(np.float32), np.dtype(np.float64)
LN2 = math.log(2.0)
SQRT2 = math.sqrt(2.0)
HARD_F64 = 6381956970095103 * 2.0**797  # the double nearest a multiple of pi/2 (trig_constants.py)


def int_type(dtype):
    return np.int32 if np.dtype(dtype) == F32 else np.int64


def uint_type(dtype):
    return np.uint32 if np.dtype(dtype) == F32 else np.uint64


def specials(dtype):
    """+-0, +-inf, NaNs (quiet and signalling, both signs, payloads), the extremes of each range."""
    fi = np.finfo(dtype)
    largest_subnormal = fi.tiny - fi.smallest_subnormal
    values = [0.0, np.inf, np.nan, fi.tiny, fi.smallest_subnormal, largest_subnormal, fi.max,
              fi.eps, 1.0, 0.5, 2.0, LN2 / 2]  # fmt: skip
    values = np.array(values, dtype)
    if np.dtype(dtype) == F32:
        nans = [0x7FC00001, 0xFFC12345, 0x7F800001, 0xFF800003]
    else:
        nans = [0x7FF8000000000001, 0xFFF8000000012345, 0x7FF0000000000001, 0xFFF0000000000003]
    return np.concatenate([values, -values, np.array(nans, uint_type(dtype)).view(dtype)])


def neighbours(values, dtype, count):
    """Each |value| (rounded to dtype) and `count` floats on either side of it, with both signs."""
    itype = int_type(dtype)
    top = np.array(np.inf, dtype).view(itype)
    bits = np.abs(np.asarray(values, np.float64).astype(dtype)).view(itype)
    steps = np.arange(-count, count + 1, dtype=itype)
    x = np.clip(bits[:, None] + steps[None, :], 0, top).ravel().view(dtype)
    return np.concatenate([x, -x])


def binades(dtype, per, rng):
    """`per` random mantissas in every exponent field (both signs): every binade, every table row."""
    info = np.finfo(dtype)
    mantissa_bits, exponents = info.nmant, 2 ** (8 * np.dtype(dtype).itemsize - 1 - info.nmant)
    fields = np.repeat(np.arange(exponents, dtype=np.uint64), per)
    mantissas = rng.integers(0, 2**mantissa_bits, fields.size, dtype=np.uint64)
    bits = (fields << np.uint64(mantissa_bits)) | mantissas
    x = bits.astype(uint_type(dtype)).view(dtype)
    return np.concatenate([x, -x])


def random_bits(dtype, count, rng):
    """`count` uniformly random bit patterns: every sign, exponent and NaN payload alike."""
    bits = rng.integers(0, 2 ** (8 * np.dtype(dtype).itemsize), count, dtype=np.uint64)
    return bits.astype(uint_type(dtype)).view(dtype)


def pi_over_2_multiples(dtype, ks, count):
    """k pi/2 rounded to dtype and `count` neighbours each way, both signs: trig's quadrant seams."""
    return neighbours(np.asarray(ks, np.float64) * (np.pi / 2), dtype, count)


def near_quadrants(dtype, count, seed):
    """Floats |x| >= 1 whose x 2/pi is within ~2**-50 (float32: ~2**-21) of an integer, where the
    reductions cancel the most bits: for random exponents E, x = m 2**(E - bias) with m a multiple of
    the largest continued-fraction denominator of 2**(E - bias) 2/pi that fits the mantissa."""
    info = np.finfo(dtype)
    digits = info.nmant + 1
    bias = info.maxexp - 2 + digits  # x = m 2**(E - bias), m an integer of `digits` bits
    precision = 1400
    two_over_pi = tc.two_over_pi_fixed(precision)
    rng = np.random.default_rng(seed)
    found = []
    for e in rng.integers(bias - digits + 1, 2 * info.maxexp - 1, count):
        a, b = two_over_pi, 1 << (precision - (int(e) - bias))  # a / b = 2**(E - bias) 2/pi
        previous, q, best = 1, 0, 1
        while b:
            a, b, t = b, a % b, a // b
            previous, q = q, t * q + previous
            if q >> digits:
                break
            best = q
        m = best * -(-(1 << (digits - 1)) // best)  # the first multiple with `digits` bits
        if not m >> digits:
            found.append(math.ldexp(m, int(e) - bias))
    x = np.array(found, dtype)
    return np.concatenate([x, -x])


def _k_steps(lo, hi, step):
    """Where round(x / step) changes (x = (k + 1/2) step) for every k from lo to hi."""
    return [(k + 0.5) * step for k in range(lo, hi + 1)]


# the split points of each function per dtype: every literal a select or clamp compares with, and where a
# result turns subnormal, 0, inf or 1; then the points where a reduction's k steps (fewer neighbours each);
# then (lo, hi), the range swept densely (the reduction's range, a little beyond)
_EXP_F64 = [-746.0, 710.0, 709.782712893384, -745.1332191019412, -708.3964185322641, 0.0]
_EXP_F32 = [-105.0, 90.0, 88.72283935546875, 88.7228, -87.3365, -103.972, 0.0, 2.0**-25]
_TRIG_F64 = [tc.TRIG_TINY, 2.0**20, 1.0, HARD_F64, 1e22, 1e300]
_TRIG_F32 = [tc.TRIG_FAST_F, tc.TRIG_TINY_F, 1.0, 1e22, 3e30]
_ERF_TINY_EDGES = [
    erf_numpy.ERF_TINY,
    2.0**-1022 / (1 + ml.ERF_Q[0]),
    2.0**-1022,
    2.0**-957,
    1e-300,
]
SPLITS = {
    ("exp", F64): (_EXP_F64, _k_steps(-1077, 1024, LN2), (-750.0, 715.0)),
    ("expm1", F64): (_EXP_F64 + [-38.0, 56.5 * LN2], _k_steps(-60, 60, LN2), (-750.0, 715.0)),
    ("log", F64): ([1.0, 0.0, 2.2250738585072014e-308, 2.0, SQRT2],
                   [SQRT2 * 2.0**e for e in range(-1074, 1024)], (0.0, 4.0)),
    ("tanh", F64): ([22.0, 23.0, 0.0, 2.0**-27, 56.5 * LN2 / 2], _k_steps(-1, 40, LN2 / 2),
                    (-25.0, 25.0)),
    ("logistic", F64): ([-x for x in _EXP_F64], _k_steps(0, 1077, LN2), (-750.0, 750.0)),
    ("erf", F64): ([ml.ERF_SPLIT, ml.ERF_CENTER, 5.921587, ml.ERF_ONE, 0.0] + _ERF_TINY_EDGES, [],
                   (-7.0, 7.0)),
    ("log1p", F64): ([-1.0, 0.0, 2.0**-53, 2.0**-54, SQRT2 - 1, SQRT2 / 2 - 1, 1.0, 2.0**-1022], [],
                     (-1.0, 3.0)),
    ("exp", F32): (_EXP_F32, _k_steps(-152, 130, LN2), (-110.0, 95.0)),
    ("expm1", F32): (_EXP_F32 + [-17.5, 25.5 * LN2], _k_steps(-30, 30, LN2), (-110.0, 95.0)),
    ("log", F32): ([1.0, 0.0, 1.1754943508222875e-38, 1.4142135, 2.0],
                   [1.4142135 * 2.0**e for e in range(-149, 128)], (0.0, 4.0)),
    ("tanh", F32): ([10.0, 13 * LN2, 2.0**-26, 2.0**-12, 0.0], _k_steps(-1, 29, LN2 / 2),
                    (-11.0, 11.0)),
    ("logistic", F32): ([-x for x in _EXP_F32], _k_steps(0, 152, LN2), (-110.0, 110.0)),
    ("erf", F32): ([1.0, 2.5, 3.9192059, 3.9205, 4.0, 0.0, 2.0**-12], [], (-4.5, 4.5)),
    ("log1p", F32): ([-1.0, 0.0, 2.0**-24, 2.0**-25, 1.4142135 - 1, 0.70710677 - 1, 1.0, 2.0**-126],
                     [], (-1.0, 3.0)),
}  # fmt: skip
for _name in ("sin", "cos", "tan"):
    SPLITS[_name, F64] = (_TRIG_F64, [], (-1e4, 1e4))
    SPLITS[_name, F32] = (_TRIG_F32, [], (-1.1 * tc.TRIG_FAST_F, 1.1 * tc.TRIG_FAST_F))


def strided(lo, hi, count, dtype):
    """About `count` floats evenly spaced in bit pattern (so in every binade) with |x| up to
    max(|lo|, |hi|), of the signs [lo, hi] holds."""
    itype = int_type(dtype)
    top = int(np.array(max(abs(lo), abs(hi)), dtype).view(itype))
    x = np.arange(0, top, max(top // count, 1), dtype=np.int64).astype(itype).view(dtype)
    return np.concatenate([x] * (hi > 0) + [-x] * (lo < 0))


def _trig_extras(dtype, rng):
    """Quadrant seams (k pi/2 and neighbours, past float32's fast bound too) and the arguments nearest
    multiples of pi/2, which a sweep and random bits would not reach."""
    if dtype == F64:
        seams = [np.arange(1, 2000), rng.integers(2000, 2**40, 5000)]
        return [pi_over_2_multiples(dtype, ks, 3) for ks in seams] + [
            near_quadrants(dtype, 3000, 1), neighbours([HARD_F64], dtype, 100)]  # fmt: skip
    seams = [np.arange(1, 5000), rng.integers(5000, 2**22, 20000)]
    return [pi_over_2_multiples(dtype, ks, 3) for ks in seams] + [near_quadrants(dtype, 3000, 2)]


@functools.cache
def generate(name, dtype):
    """The inputs for mathlib's `name` on dtype (a cached, read-only array: tests share it)."""
    dtype = np.dtype(dtype)
    f32 = dtype == F32
    rng = np.random.default_rng([zlib.crc32(f"{name} {dtype}".encode()), 20261129])
    points, steps, (lo, hi) = SPLITS[name, dtype]
    with np.errstate(over="ignore"):
        parts = [
            specials(dtype),
            neighbours(points, dtype, 1 << 12),
            neighbours(steps, dtype, 1 << 6 if f32 else 1 << 3),
            np.linspace(lo, hi, 1 << 20 if f32 else 1 << 19).astype(dtype),
            strided(lo, hi, 1 << 19 if f32 else 1 << 17, dtype),
            binades(dtype, 16, rng),
            random_bits(dtype, 1 << 21 if f32 else 1 << 19, rng),
        ]
    if name in ("sin", "cos", "tan"):
        parts += _trig_extras(dtype, rng)
    x = np.concatenate([np.asarray(part, dtype) for part in parts])
    x.setflags(write=False)
    return x


def ulp_distance(a, b):
    """Units in the last place between same-dtype float arrays (nan == nan, inf == inf)."""
    itype = int_type(a.dtype)
    ia = a.view(itype).astype(np.int64)
    ib = b.view(itype).astype(np.int64)
    low = np.iinfo(itype).min
    ia = np.where(ia < 0, low - ia, ia)
    ib = np.where(ib < 0, low - ib, ib)
    d = np.abs(ia - ib)
    d[(np.isnan(a) & np.isnan(b)) | (a == b)] = 0
    d[np.isnan(a) != np.isnan(b)] = np.iinfo(np.int64).max
    return d


def assert_bitwise_equal(got, want, x, what):
    """got and want (same dtype) hold the same bits; x: the arguments, for the message."""
    uint = np.dtype(f"u{got.itemsize}")
    bad = np.flatnonzero(got.view(uint) != want.view(uint))
    if bad.size:
        i = bad[0]
        bits = [f"{a[i : i + 1].view(f'u{a.itemsize}')[0]:#x}" for a in (x, got, want)]
        raise AssertionError(
            f"{what}({x[i]!r}) [{bits[0]}]: {got[i]!r} [{bits[1]}], expected {want[i]!r} "
            f"[{bits[2]}]; {bad.size} of {x.size} differ"
        )
