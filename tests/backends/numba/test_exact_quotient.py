"""exact_quotient against the division it replaces, bit for bit, where its range checks allow it."""

from __future__ import annotations

import numba
import numpy as np
import pytest
from arraystack.backends.numba.intrinsics import (
    dividends_in_range,
    divisor_in_range,
    exact_quotient,
    magnitude_max,
    nonzero_magnitude_min,
    quotient_in_range,
)

pytestmark = pytest.mark.numba


@numba.njit(parallel=True, error_model="numpy")
def _mismatches(dividends, b):
    bad = 0
    for k in numba.prange(dividends.size):
        a = dividends[k]
        q = exact_quotient(a, b)
        t = a / b
        if q != t or np.signbit(q) != np.signbit(t):
            bad += 1
    return bad


@numba.njit(error_model="numpy")
def _checks(a, b):
    return divisor_in_range(b), quotient_in_range(a)


def _float32_significands():
    return (np.arange(1 << 23, dtype=np.uint32) | np.uint32(0x3F800000)).view(np.float32)


def test_every_float32_significand_divides_exactly():
    # the rounding of a / b depends on the significands alone while nothing leaves the normal range, so
    # [1, 2) at the range's edges covers every dividend the range checks admit
    significands = _float32_significands()
    rng = np.random.default_rng(0)
    divisors = [1.0, 3.0, 7.0, 1.5, 2.0**20, 2.0**-20, np.float32(1.9999999), np.float32(1.0000001)]
    divisors += list(np.exp(rng.uniform(np.log(2.0**-20), np.log(2.0**20), 6)))
    for b in np.array(divisors, np.float32):
        for scale in (1.0, -(2.0**-100), 2.0**99):
            assert _mismatches(significands * np.float32(scale), b) == 0, (b, scale)


def test_float64_random_dividends_divide_exactly():
    rng = np.random.default_rng(1)
    a = rng.uniform(1, 2, 1 << 20) * 2.0 ** rng.integers(-800, 800, 1 << 20)
    for b in np.exp(rng.uniform(np.log(2.0**-100), np.log(2.0**100), 16)):
        assert _mismatches(a, b) == 0
        assert _mismatches(-a, -b) == 0


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_zero_dividends_keep_their_sign(dtype):
    zeros = np.array([0.0, -0.0], dtype)
    for b in (3.0, -3.0):
        assert _mismatches(zeros, dtype(b)) == 0


@pytest.mark.parametrize(
    "a, b, expected",
    [
        (1.0, 1.0, (True, True)),
        (0.0, 2.0**20, (True, True)),
        (-(2.0**-100), -(2.0**-20), (True, True)),
        (2.0**100, 1.0, (True, True)),
        (2.0**-101, 2.0**21, (False, False)),
        (2.0**101, 2.0**-21, (False, False)),
        (np.inf, np.inf, (False, False)),
        (np.nan, np.nan, (False, False)),
        (1e-45, 0.0, (False, False)),  # a subnormal dividend; a zero divisor
    ],
)
def test_range_checks_float32(a, b, expected):
    assert _checks(np.float32(a), np.float32(b)) == expected


def test_range_checks_float64():
    assert _checks(2.0**-800, 2.0**100) == (True, True)
    assert _checks(2.0**-801, 2.0**101) == (False, False)
    assert _checks(2.0**800, 2.0**-100) == (True, True)
    assert _checks(2.0**801, 2.0**-101) == (False, False)


def test_outside_the_range_it_would_be_wrong():
    # the checks are needed: near the bottom of the normal range the residual is inexact or the quotient
    # subnormal (thousands of the 2**23 dividends round differently), at the top a * (1 / b) overflows
    a = _float32_significands()
    assert _mismatches(a * np.float32(2.0**-120), np.float32(0.7)) > 0
    assert _mismatches(a * np.float32(2.0**127), np.float32(0.7)) > 0


@numba.njit(error_model="numpy")
def _folded(values, hi, lo):
    for v in values:
        hi = magnitude_max(hi, v)
        lo = nonzero_magnitude_min(lo, v)
    return dividends_in_range(hi, lo)


def _edge_values(dtype):
    """Each range edge and its neighbours, zeros, specials and subnormals, of both signs."""
    bottom, top = (2.0**-100, 2.0**100) if dtype == np.float32 else (2.0**-800, 2.0**800)
    edges = []
    for edge in (bottom, top):
        e = dtype(edge)
        edges += [np.nextafter(e, dtype(0)), e, np.nextafter(e, dtype(np.inf))]
    tiny = np.finfo(dtype).smallest_subnormal
    values = np.array(edges + [0.0, 1.0, tiny, np.finfo(dtype).max, np.inf, np.nan], dtype)
    return np.concatenate([values, -values])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_folded_check_of_many_dividends_is_the_predicate_of_each(dtype):
    # the loop form codegen emits (magnitude_max, nonzero_magnitude_min, dividends_in_range) answers
    # as quotient_in_range does for every value, alone and in every pair
    bits = np.uint32 if dtype == np.float32 else np.uint64
    start = (bits(0), bits(np.iinfo(bits).max))
    values = _edge_values(dtype)
    assert _folded(values[:0], *start)  # no dividends: nothing out of range
    for a in values:
        assert _folded(np.array([a]), *start) == _checks(a, dtype(1.0))[1], a
        for b in values:
            want = _checks(a, dtype(1.0))[1] and _checks(b, dtype(1.0))[1]
            assert _folded(np.array([a, b, dtype(1.0)]), *start) == want, (a, b)
