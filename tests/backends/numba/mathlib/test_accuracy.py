"""How close mathlib's compiled functions (and so their twins, test_agreement.py) are to the true values:
within 4 ulp of NumPy's functions (erf: 1 ulp of libm's) on the generated inputs, zeros' signs and
NumPy's NaNs, odd and even bit for bit, exact where the value rounds to x, 1 or -1, and at the hardest
arguments within 1 ulp of the correctly rounded value (mpmath). maximum and minimum are NumPy's.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from arraystack.backends.numba.mathlib import trig_constants as tc
from arraystack.backends.numba.mathlib import twins

from tests.backends.numba.mathlib.implementations import (
    MODULES,
    kernel_function,
    kernel_result,
    numba,
    run_loop,
)
from tests.backends.numba.mathlib.inputs import F32, F64, generate, neighbours, ulp_distance

pytestmark = pytest.mark.numba

CASES = [pytest.param(name, dtype, id=f"{name}-{dtype}") for name, dtype in twins.FUNCTIONS]
_libm_erf = np.frompyfunc(math.erf, 1, 1)


def _logistic_oracle(x):
    """In float64, without overflow, rounded once."""
    x64 = x.astype(np.float64)
    e = np.exp(-np.abs(x64))
    return np.where(x64 >= 0, 1 / (1 + e), e / (1 + e)).astype(x.dtype)


def _erf_oracle(x):
    """NumPy has no erf: libm's float64 erf (math.erf), rounded once to x's dtype."""
    return _libm_erf(x.astype(np.float64)).astype(np.float64).astype(x.dtype)


ORACLES = {"exp": np.exp, "expm1": np.expm1, "log": np.log, "tanh": np.tanh,
           "logistic": _logistic_oracle, "erf": _erf_oracle, "log1p": np.log1p, "sin": np.sin,
           "cos": np.cos, "tan": np.tan}  # fmt: skip
BOUNDS = {"erf": 1}  # ulp; the others 4 (the bound mathlib promises against NumPy)


def _near_a_quadrant_seam(x):
    """|x| >= 1 within 2**-30 of a multiple of pi/2: where NumPy's float64 sin, cos and tan lose bits in
    their reduction (mathlib's keep them: test_hardest_float64_reductions_against_mpmath)."""
    s = run_loop(kernel_function("sin", F64), x)
    c = run_loop(kernel_function("cos", F64), x)
    return (np.abs(x) >= 1) & (np.minimum(np.abs(s), np.abs(c)) < 2.0**-30)


@pytest.mark.parametrize("name,dtype", CASES)
def test_within_bound_of_the_oracle(name, dtype):
    """On every generated input: within 4 ulp of NumPy's function (erf: 1 ulp of libm's), NaN where it
    is NaN, and a zero's sign where its result is zero (ulp_distance counts -0.0 as +0.0)."""
    x = generate(name, dtype)
    got = kernel_result(name, dtype)
    with np.errstate(all="ignore"):
        want = ORACLES[name](x)
    assert got.dtype == want.dtype == dtype
    d = ulp_distance(got, want)
    if dtype == F64 and name in ("sin", "cos", "tan"):
        d[_near_a_quadrant_seam(x)] = 0
    worst = int(np.argmax(d))
    assert d.max() <= BOUNDS.get(name, 4), (
        f"{name}({x[worst]!r}) = {got[worst]!r}, oracle {want[worst]!r}: {d.max()} ulp"
    )
    zero = want == 0
    np.testing.assert_array_equal(np.signbit(got[zero]), np.signbit(want[zero]))


@pytest.mark.parametrize("name,dtype", [c for c in CASES if c.values[0] in ("tanh", "erf", "sin",
                                                                           "cos", "tan")])  # fmt: skip
def test_odd_and_even_bit_for_bit(name, dtype):
    """tanh, erf, sin and tan are odd and cos even, bit for bit (sin(-0.0) is -0.0), on the finite
    inputs (an infinite argument's NaN is negated as any other value)."""
    x = generate(name, dtype)
    x = x[np.isfinite(x)]
    fn = kernel_function(name, dtype)
    uint = np.uint32 if dtype == F32 else np.uint64
    plus, minus = run_loop(fn, x), run_loop(fn, -x)
    minus = minus if name == "cos" else -minus
    np.testing.assert_array_equal(minus.view(uint), plus.view(uint))


@pytest.mark.parametrize("dtype", [F32, F64])
def test_exact_values_and_ranges(dtype):
    """Where the value rounds to x, 1 or -1 the result is exactly that: exp(x) = 1 and tanh(x) = x for
    |x| < 2**-26 (float64: 2**-54), tanh(x) = +-1 from |x| = 9.0117 (float64: 22) on and at +-inf, erf(x)
    = +-1 from 3.9205 (float64: 5.93) on; exp is never negative (but for NaNs, which come back as they are), tanh stays in [-1, 1], logistic in
    [0, 1]."""
    f32 = dtype == F32

    def on(name, mask):
        x = generate(name, dtype)
        return x, kernel_result(name, dtype), mask(x)

    x, y, small = on("exp", lambda x: np.abs(x) < (2.0**-26 if f32 else 2.0**-54))
    assert (y[small] == 1).all() and small.sum() > 1000
    assert not np.signbit(y[~np.isnan(y)]).any()
    x, y, small = on("tanh", lambda x: np.abs(x) < (2.0**-26 if f32 else 2.0**-54))
    np.testing.assert_array_equal(y[small], x[small])
    x, y, large = on("tanh", lambda x: np.abs(x) >= (9.0117 if f32 else 22.0))
    np.testing.assert_array_equal(y[large], np.sign(x[large]))
    assert np.all(np.abs(y[~np.isnan(y)]) <= 1)
    x, y, large = on("erf", lambda x: np.abs(x) >= (3.9205 if f32 else 5.93))
    np.testing.assert_array_equal(y[large], np.sign(x[large]))
    x, y, _ = on("logistic", lambda x: x)
    assert ((y[~np.isnan(y)] >= 0) & (y[~np.isnan(y)] <= 1)).all()


@pytest.mark.parametrize("name,np_fn", [("maximum", np.maximum), ("minimum", np.minimum)])
def test_maximum_minimum_match_numpy_on_nan_and_signed_zero(name, np_fn):
    fn = getattr(MODULES["exp_log"], name)
    values = np.array([0.0, -0.0, 1.0, -1.0, np.nan, np.inf, -np.inf])
    a, b = (v.ravel() for v in np.meshgrid(values, values))

    @numba.njit
    def loop(a, b, out):
        for i in range(a.size):
            out[i] = fn(a[i], b[i])

    out = np.empty_like(a)
    loop(a, b, out)
    want = np_fn(a, b)
    np.testing.assert_array_equal(out, want)
    np.testing.assert_array_equal(np.signbit(out), np.signbit(want))


def test_erf_f64_within_1_ulp_of_mpmath():
    """float64 erf within 1 ulp of the correctly rounded value on a sample of its generated inputs."""
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.dps = 40
    x = generate("erf", F64)
    x = x[np.isfinite(x) & (np.abs(x) < 7)]
    pick = np.random.default_rng(5).choice(x.size, 2000, replace=False)
    got = run_loop(kernel_function("erf", F64), x[pick])
    exact = np.array([float(mpmath.erf(mpmath.mpf(float(v)))) for v in x[pick]])
    assert ulp_distance(got, exact).max() <= 1


def test_hardest_float64_reductions_against_mpmath():
    """Doubles closest to multiples of pi/2 (where x mod pi/2 keeps only its last ~60 bits) and huge ones:
    within 1 ulp of the correctly rounded value (NumPy's own cos misses the first by 8 ulp)."""
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.prec = 2200
    hard = [6381956970095103 * 2.0**797, 5319372648326541 * 2.0**-100 * 2.0**100, 1e300, 1.7e308]
    hard += [2.0**k * 1.5707963267948966 for k in range(0, 1000, 37)]
    hard += list(np.exp(np.random.default_rng(7).uniform(0, 709, 60)))
    x = neighbours(hard, F64, 1)
    x = x[x > 0]
    for name, bound in (("sin", 1), ("cos", 1), ("tan", 2)):  # tan: a quotient of the two
        got = run_loop(kernel_function(name, F64), x)
        want = np.array([float(getattr(mpmath, name)(mpmath.mpf(float(v)))) for v in x])
        d = ulp_distance(got, want)
        worst = int(np.argmax(d))
        assert d.max() <= bound, f"{name}({x[worst]!r}) = {got[worst]!r}, exact {want[worst]!r}"


def test_float32_trig_strided_over_all_bit_patterns():
    """Every 4099th float32 bit pattern (1.05 million, all exponents): within 1 ulp of float64 libm's
    result rounded once (tools/mathlib_exhaustive.py runs all 2**32)."""
    x = np.arange(0, 1 << 32, 4099, dtype=np.uint64).astype(np.uint32).view(np.float32)
    with np.errstate(invalid="ignore"):
        for name in ("sin", "cos", "tan"):
            got = run_loop(kernel_function(name, F32), x)
            want = getattr(np, name)(x.astype(np.float64)).astype(np.float32)
            d = ulp_distance(got, want)
            worst = int(np.argmax(d))
            assert d.max() <= 1, f"{name}({x[worst]!r}) = {got[worst]!r}, libm {want[worst]!r}"


def test_reduction_tables_hold_2_over_pi():
    """Each float64 row sums to (2**(E-1075) * 2/pi) mod 4 within the truncation (2**-185 and below)."""
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.prec = 2600
    two_over_pi = 2 / mpmath.pi
    for e in (1, 500, 1023, 1075, 1500, 2046):
        exact = mpmath.mpf(2) ** (e - 1075) * two_over_pi
        exact -= 4 * mpmath.floor(exact / 4)
        row = sum(mpmath.mpf(float(v)) for v in tc.TRIG_TABLE[e])
        assert 0 <= exact - row < mpmath.mpf(2) ** -185
    assert tc.PIO2_HI == math.pi / 2 and tc.TWO_OVER_PI == 2 / math.pi
    assert tc.PIO2_A + tc.PIO2_B - mpmath.pi / 2 < mpmath.mpf(2) ** -82
