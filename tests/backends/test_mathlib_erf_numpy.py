"""mathlib_erf's float64 erf has twins that give the compiled kernel's bits: the NumPy code
(mathlib_erf_numpy.py) and each loop of the C extension (_mathlib_twin.h), on a sample reaching both
polynomials, their seams and the tiny arguments whose fma the NumPy code takes another route for. The C
twin's constants are mathlib_constants' values, and its libm loop (eager erf) stays libm's."""

import math
from fractions import Fraction

import numpy as np
import pytest

pytestmark = pytest.mark.numba

numba = pytest.importorskip("numba")
mathlib_erf = pytest.importorskip("arraystack.backends.numba.mathlib.erf")
from arraystack.backends.numba.mathlib import erf_numpy as mathlib_erf_numpy, fma_emulation, twins as mathlib_numpy
from arraystack.backends.numba.mathlib import constants as constants

from tests.backends.test_mathlib_numpy import IMPLEMENTATIONS, specials, twin
from tests.backends.test_mathlib_trig_numpy import assert_bitwise_equal

C_TWIN = mathlib_numpy.C_TWIN
needs_c_twin = pytest.mark.skipif(C_TWIN is None, reason="the C twin is not built (or stale)")
# the small polynomial's switch to erfc's (1), erfc's center (3.5), where 1 - erfc rounds to 1 (5.92),
# the clamp (6), a tiny argument (1e-300), and the tiny route's edges: its threshold, where its results
# turn normal (2**-1022 / (1 + Q(0))) and where fma_f64's product stops being exact (2**-957)
CENTERS = (1.0, 3.5, 5.92, 6.0, 1e-300, mathlib_erf_numpy.ERF_TINY, 2.0**-1022 / 1.1283791670955126,
           2.0**-1022, 2.0**-957)  # fmt: skip
_kernel_results = {}


@numba.njit(error_model="numpy")  # the flags of generated elementwise kernels
def _kernel_loop(x, out):
    for i in range(x.size):
        out[i] = mathlib_erf.erf_f64(x[i])


def kernel(x):
    """The kernel's bits for a module fixture x (computed once)."""
    if id(x) not in _kernel_results:
        out = np.empty_like(x)
        _kernel_loop(x, out)
        _kernel_results[id(x)] = (x, out)
    return _kernel_results[id(x)][1]


def neighbours(center, count):
    """`count` consecutive float64 on each side of |center| (every one of them), both signs."""
    mid = int(np.array(abs(center)).view(np.int64))
    x = np.arange(max(mid - count, 0), mid + count, dtype=np.int64).view(np.float64)
    return np.concatenate([x, -x])


@pytest.fixture(scope="module")
def sample():
    rng = np.random.default_rng(20260301)
    n = 200_000
    parts = [
        rng.standard_normal(n) * 2,
        rng.uniform(-7, 7, n),
        rng.choice([-1.0, 1.0], n) * np.exp2(rng.uniform(-1074, 1024, n)),  # |x|: the whole range
        rng.integers(0, 2**52, 20_000, dtype=np.int64).view(np.float64),  # denormals
        specials(np.float64),  # +-0, +-inf, NaNs with payloads, ...
        *(neighbours(c, 5000) for c in CENTERS),
    ]
    return np.concatenate(parts)


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_twin_matches_kernel_bitwise(implementation, sample):
    got = twin("erf", np.float64, implementation)(sample)
    assert_bitwise_equal(got, kernel(sample), sample, f"erf ({implementation} twin)")


def test_sample_reaches_every_route(sample):
    """Both polynomials, the 1 beyond 6, the tiny route with normal and subnormal results, and an
    argument where the plain fma_f64 would have been wrong (so the tiny route is needed)."""
    a = np.abs(sample)
    assert ((a > 0) & (a < 1)).any() and ((a >= 1) & (a <= 6)).any() and (a > 6).any()
    tiny = sample[(a > 0) & (a < mathlib_erf_numpy.ERF_TINY)]
    assert (np.abs(kernel(sample)[(a > 0) & (a < 2.0**-1022)]) >= 2.0**-1022).any()
    q = constants.ERF_Q[0]  # Q's value at a * a = 0
    with np.errstate(all="ignore"):
        plain = fma_emulation.fma_f64(np.abs(tiny), q, np.abs(tiny))
    assert (plain != mathlib_erf_numpy._fma_tiny(np.abs(tiny), np.full_like(tiny, q))).any()


def test_fma_tiny_against_rationals():
    """The tiny route is the correctly rounded a q + a, for normal and subnormal results and the q it
    takes (0 <= q < 1)."""
    rng = np.random.default_rng(12)
    n = 3000
    a = np.concatenate(
        [
            np.exp2(rng.uniform(-1074, -600, n)),
            rng.integers(0, 2**52, n, dtype=np.int64).view(np.float64),  # denormals
            neighbours(2.0**-1022 / (1 + constants.ERF_Q[0]), 200)[:400],
            [0.0, 5e-324, 2.0**-1022, np.nextafter(2.0**-600, 0)],
        ]
    )
    a = a[a < mathlib_erf_numpy.ERF_TINY]
    q = np.where(rng.random(a.size) < 0.5, constants.ERF_Q[0], rng.uniform(0, 0.999, a.size))
    got = mathlib_erf_numpy._fma_tiny(a, q)
    want = np.array([float(Fraction(x) * Fraction(y) + Fraction(x)) for x, y in zip(a, q)])
    assert_bitwise_equal(got, want, a, "fma_tiny")


@needs_c_twin
def test_c_twin_constants_are_mathlib_constants():
    """_mathlib_twin.h's hex literals for erf_f64, as compiled, are mathlib_constants' values, bit for
    bit."""
    names = ("ERF_Q", "ERF_R", "ERF_SPLIT", "ERF_ONE", "ERF_CENTER", "ERF_SCALE")
    assert sorted(C_TWIN.ERF_CONSTANTS) == sorted(names)
    for name in names:
        got, want = C_TWIN.ERF_CONSTANTS[name], getattr(constants, name)
        assert np.shape(got) == np.shape(want), name
        assert np.array(got).tobytes() == np.array(want, np.float64).tobytes(), name


@needs_c_twin
def test_c_twins_libm_loop_is_libms_erf(sample):
    """libm_erf_f64 (eager erf's reference rule) gives math.erf's bits in every variant; erf_f64 is the
    kernel's, another function."""
    x = np.ascontiguousarray(sample[::50])
    want = np.array([math.erf(v) for v in x])
    for variant in range(len(C_TWIN.VARIANTS)):
        got = np.empty_like(x)
        C_TWIN.libm_erf_f64(x, got, variant)
        assert_bitwise_equal(got, want, x, f"libm_erf_f64 ({C_TWIN.VARIANTS[variant]})")
    assert (twin("erf", np.float64, "c:portable")(x) != want).any()
