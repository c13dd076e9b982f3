"""gamma, gammasgn, beta, factorial, multigammaln (arraystack/scipy/_gamma_function.py), i0, i0e, i1,
i1e (_bessel.py) and kl_div against exact values (mpmath, 40 digits) and SciPy's special values and
dtypes, and under jit, grad and vmap."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.special as ss

import arraystack as ast

mpmath = pytest.importorskip("mpmath")
S = ast.scipy.special
EPS = np.finfo(np.float64).eps


def exact(function, xs, dps=40):
    with mpmath.workdps(dps):
        return np.array([float(function(mpmath.mpf(float(x)))) for x in xs])


def ulps(got, want):
    return np.abs(np.asarray(got) - want) / np.spacing(np.abs(want))


def test_gamma_within_8_ulp_of_exact_for_positive_x():
    x = np.concatenate(
        [np.geomspace(1e-300, 1.0, 120), np.linspace(1.0, 12.0, 700), np.linspace(12, 171.6, 300)]
    )
    assert ulps(S.gamma(x), exact(mpmath.gamma, x)).max() <= 8


def test_gamma_within_8_ulp_of_exact_for_negative_x():
    # the reflection uses gamma(-x), which is exact to form; gamma(1 - x) would cost up to 300 ulp
    x = -np.linspace(0.01, 170.4, 1500)
    x = x[np.abs(x - np.round(x)) > 1e-6]
    assert ulps(S.gamma(x), exact(mpmath.gamma, x)).max() <= 8


EDGES = np.array(
    [-np.inf, -1e300, -180.3, -171.5, -170.5, -3.0, -2.5, -1.0, -0.5, -1e-310, -0.0, 0.0, 5e-324,
     1e-310, 0.5, 1.0, 2.0, 30.0, 171.6, 171.7, 1e300, np.inf, np.nan]
)  # fmt: skip


@pytest.mark.parametrize("name", ["gamma", "gammasgn", "factorial", "i0e", "i1e"])
def test_special_values_are_scipys(name):
    with np.errstate(all="ignore"):
        want = getattr(ss, name)(EDGES)
    got = np.asarray(getattr(S, name)(EDGES))
    if name == "i1e":
        # Note: i1e(5e-324) is just under half the least subnormal, so 0 is its rounding; SciPy's
        # gives 5e-324. i1e(-0.0) is -0.0 here (odd), 0.0 in SciPy's.
        want[EDGES == 5e-324] = 0.0
        want[(EDGES == 0) & np.signbit(EDGES)] = -0.0
    np.testing.assert_allclose(got, want, rtol=8 * EPS, equal_nan=True)
    assert (np.signbit(got[want == 0]) == np.signbit(want[want == 0])).all()
    assert (np.signbit(got[np.isinf(want)]) == np.signbit(want[np.isinf(want)])).all()


@pytest.mark.parametrize("name", ["i0", "i1"])
def test_unscaled_bessel_is_finite_as_far_as_the_function_is(name):
    x = np.array([-713.9, -700.0, 0.0, 3.0, 709.9, 713.9, 714.0, -np.inf, np.inf])
    with mpmath.workdps(40):
        nu = int(name[1])
        want = np.array([float(mpmath.besseli(nu, mpmath.mpf(float(v)))) for v in x[:-2]])
    got = np.asarray(getattr(S, name)(x))
    np.testing.assert_allclose(got[:-2], want, rtol=8 * EPS)
    # Note: SciPy's gives inf from 709.8 (exp overflows first) and nan at +-inf
    sign = -1.0 if name == "i1" else 1.0
    assert got[-2] == sign * np.inf and got[-1] == np.inf


BESSEL_X = np.concatenate(
    [-np.geomspace(1e-300, 700, 200), np.linspace(0, 30, 1501), np.geomspace(30, 1e300, 200)]
)


@pytest.mark.parametrize("name", ["i0", "i0e", "i1", "i1e"])
def test_bessel_within_8_ulp_of_exact(name):
    nu, scaled = int(name[1]), name.endswith("e")

    def function(x):
        value = mpmath.besseli(nu, x)
        return value * mpmath.exp(-abs(x)) if scaled else value

    x = BESSEL_X if scaled else BESSEL_X[np.abs(BESSEL_X) < 700]
    want = exact(function, x)
    keep = want != 0
    assert ulps(np.asarray(getattr(S, name)(x))[keep], want[keep]).max() <= 8


def test_beta_against_exact_values_and_scipys_poles():
    rng = np.random.default_rng(0)
    a, b = rng.uniform(0.01, 30, 400), rng.uniform(0.01, 30, 400)
    a[:50], b[:50] = -rng.uniform(0.1, 6, 50), rng.uniform(0.1, 6, 50)
    with mpmath.workdps(40):
        want = np.array([float(mpmath.beta(u, v)) for u, v in zip(a, b)])
    error = ulps(S.beta(a, b), want)
    assert error[50:].max() <= 16  # SciPy's: 120
    # a < 0: a + b rounds, and gamma(a + b) near its poles magnifies that, for SciPy's as for this one
    assert (error[:50] <= np.maximum(24, 2 * ulps(ss.beta(a[:50], b[:50]), want[:50]))).all()
    # poles: inf, except B(-n, k) for integers 0 < k <= n; 0 where a + b is a pole
    u = np.array([1, -1, -1.5, -2, 0, 2, -0.5, -3, -5, 3, -4, np.nan, -200.5])
    v = np.array([2, 2, 2, 3, 0, -0.5, -0.5, 2, 3, -1, -4, 1, 0.5])
    np.testing.assert_allclose(
        np.asarray(S.beta(u, v)), ss.beta(u, v), rtol=16 * EPS, equal_nan=True
    )
    # beyond gamma's range, exp(betaln): its error grows with |log B| (337 here), as SciPy's does
    with mpmath.workdps(40):
        want = float(mpmath.beta(200, 300))
    assert float(S.beta(200.0, 300.0)) == pytest.approx(want, rel=337 * 2 * EPS)


def test_factorial_multigammaln_and_their_errors():
    n = np.array([-2.0, 0.0, 1.0, 5.0, 5.5, 20.0, 170.0, 171.0])
    np.testing.assert_allclose(np.asarray(S.factorial(n)), ss.factorial(n), rtol=8 * EPS)
    assert np.asarray(S.factorial(np.float32(4))).dtype == ss.factorial(np.float32(4)).dtype
    with pytest.raises(NotImplementedError, match="math.factorial"):
        S.factorial(5, exact=True)
    a = np.array([1.6, 3.0, 10.5, 200.0])
    for d in (1, 2, 3):
        np.testing.assert_allclose(
            np.asarray(S.multigammaln(a, d)), ss.multigammaln(a, d), rtol=8 * EPS
        )
    with pytest.raises(ValueError, match="not met"):
        S.multigammaln(np.array([0.9, 2.0]), 3)
    with pytest.raises(ValueError, match="positive integer"):
        S.multigammaln(2.0, 0)


def test_kl_div_is_scipys():
    x = np.array([1.0, 0.0, 1.0, -1.0, 2.0, 0.0, np.nan, 1e-300, 0.5, 3.0, 1e300])
    y = np.array([2.0, 1.0, 0.0, 1.0, np.inf, -1.0, 1.0, 1e-300, 0.50001, 1e-300, 1e-10])
    with np.errstate(all="ignore"):
        want = ss.kl_div(x, y)
    # Note: SciPy's overflows in x / y where x log(x / y) is finite: rel_entr's difference of logs
    want[-1] = 1e300 * (np.log(1e300) - np.log(1e-10)) - 1e300
    np.testing.assert_allclose(np.asarray(S.kl_div(x, y)), want, rtol=4 * EPS, equal_nan=True)
    for u, v in [(np.float32(1), np.float32(2)), (np.int8(1), np.float32(2)), (1.0, 2.0)]:
        assert np.asarray(S.kl_div(u, v)).dtype == ss.kl_div(u, v).dtype


@pytest.mark.parametrize("name", ["gamma", "gammasgn", "i0", "i0e", "i1", "i1e"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int16"])
def test_dtypes_are_scipys_and_float32_rounds_the_float64_value(name, dtype):
    x = np.array([0.5, 1.0, 3.0, 7.25, 40.0]).astype(dtype)
    want = getattr(ss, name)(x)
    got = np.asarray(getattr(S, name)(x))
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(
        got, np.asarray(getattr(S, name)(x.astype(np.float64))).astype(want.dtype)
    )


def test_under_jit_equal_eager_and_raise_no_floating_point_warning():
    # gamma and i1e carry every construction of the two modules (beta and factorial are gammas; numba
    # takes minutes to compile them all into one kernel)
    def f(x):
        return S.gamma(x), S.gammasgn(x), S.i1e(x)

    compiled = ast.jit(f)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for _ in range(2):  # the first tier and the compiled one
            got = compiled(EDGES)
            compiled.wait_compiled()
    for g, w in zip(got, f(EDGES)):
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=4 * EPS, equal_nan=True)


def test_gradients_match_the_analytic_derivatives():
    x = np.array([-3.7, -0.4, 1e-3, 0.8, 1.0, 2.0, 5.5, 9.0, 11.0, 150.0])
    grad = np.asarray(ast.grad(lambda v: ast.sum(S.gamma(v)))(x))
    np.testing.assert_allclose(grad, ss.gamma(x) * ss.psi(x), rtol=1e-8)
    z = np.array([-25.0, -3.0, -0.2, 0.0, 0.3, 4.0, 19.9, 20.1, 60.0])
    d0 = np.asarray(ast.grad(lambda v: ast.sum(S.i0e(v)))(z))
    np.testing.assert_allclose(d0, ss.i1e(z) - np.sign(z) * ss.i0e(z), rtol=1e-8, atol=1e-15)
    d1 = np.asarray(ast.grad(lambda v: ast.sum(S.i1(v)))(z[np.abs(z) < 50]))
    zs = z[np.abs(z) < 50]
    np.testing.assert_allclose(
        d1, ss.i0(zs) - np.where(zs == 0, 0.5, ss.i1(zs) / np.where(zs == 0, 1, zs)), rtol=1e-8
    )
    a, b = np.array([0.3, 2.0, 50.0, -1.5]), np.array([4.0, 0.7, 60.0, 2.2])
    da, db = ast.grad(lambda u, v: ast.sum(S.beta(u, v)), argnums=(0, 1))(a, b)
    np.testing.assert_allclose(
        np.asarray(da), ss.beta(a, b) * (ss.psi(a) - ss.psi(a + b)), rtol=1e-8
    )
    np.testing.assert_allclose(
        np.asarray(db), ss.beta(a, b) * (ss.psi(b) - ss.psi(a + b)), rtol=1e-8
    )


def test_vmap_equals_a_loop():
    x = np.array([-2.5, 0.3, 4.0, 25.0])
    for f in (S.gamma, S.i0e, S.i1):
        np.testing.assert_array_equal(np.asarray(ast.vmap(f)(x)), [float(f(v)) for v in x])


def test_compiled_for_a_cuda_device_as_on_the_cpu(standin):
    """The compositions become CUDA kernels (run here through the stand-in's CPU harness)."""
    from tests.fuzz.tiers import CUDA_TIERS, TIERS, check_program

    check_program(S.gamma, lambda: [EDGES.copy()], tiers=(*TIERS, *CUDA_TIERS), ulps=[4])
    check_program(S.i1e, lambda: [EDGES.copy()], tiers=(*TIERS, *CUDA_TIERS), ulps=[4])


def test_kl_div_is_inf_off_its_domain_and_bessel_at_the_top_of_the_range():
    x, y = np.array([1.0, np.inf, 0.0]), np.array([-np.inf, 0.0, -np.inf])
    np.testing.assert_array_equal(np.asarray(S.kl_div(x, y)), ss.kl_div(x, y))
    assert float(S.i0(1e308)) == np.inf and float(S.i1(-1e308)) == -np.inf
    assert float(S.i0e(1e308)) == pytest.approx(ss.i0e(1e308), rel=8 * EPS)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # float32 rounds what it cannot hold to inf, silently
        assert np.isinf(np.asarray(S.gamma(np.float32(40.0))))
        assert np.isinf(np.asarray(S.i0(np.float32(100.0))))
