"""zeta (Riemann and Hurwitz) and polygamma (arraystack/scipy/_zeta.py) against exact values (mpmath),
SciPy's special values and dtypes, and under jit, grad and vmap."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.special as ss

import arraystack as ast

mpmath = pytest.importorskip("mpmath")
S = ast.scipy.special


def ulps(got, want):
    return np.abs(np.asarray(got) - want) / np.spacing(np.abs(want))


def exact_hurwitz(s, q):
    """Euler-Maclaurin at 60 digits, 2000 terms summed directly (mpmath.zeta(s, q) loses digits for
    large s and q: 3e-11 at s = 49, q = 601)."""
    with mpmath.workdps(60):
        s, q = mpmath.mpf(float(s)), mpmath.mpf(float(q))
        a = q + 2000
        total = mpmath.fsum((q + k) ** -s for k in range(2000))
        total += a ** (1 - s) / (s - 1) + a**-s / 2
        for j in range(1, 12):
            term = mpmath.bernoulli(2 * j) / mpmath.factorial(2 * j) * mpmath.rf(s, 2 * j - 1)
            total += term * a ** (-s - 2 * j + 1)
        return float(total)


def test_hurwitz_zeta_within_8_ulp_of_exact():
    rng = np.random.default_rng(0)
    s = np.concatenate([rng.uniform(1.001, 3, 40), rng.uniform(3, 60, 40)])
    q = np.exp(rng.uniform(-5, 8, 80))
    want = np.array([exact_hurwitz(a, b) for a, b in zip(s, q)])
    assert ulps(S.zeta(s, q), want).max() <= 8


def test_riemann_zeta_against_exact_values():
    x = np.concatenate([np.linspace(-0.5, 0.99, 120), np.linspace(1.01, 30, 120)])
    negative = -np.linspace(0.51, 170, 300)
    negative = negative[np.abs(negative / 2 - np.round(negative / 2)) > 1e-9]  # off the zeros
    with mpmath.workdps(60):
        want = np.array([float(mpmath.zeta(mpmath.mpf(float(v)))) for v in x])
        far = np.array([float(mpmath.zeta(mpmath.mpf(float(v)))) for v in negative])
    assert ulps(S.zeta(x), want).max() <= 8
    # the functional equation's factors: 16 ulp to -20, up to 60 at -170 (SciPy's: 650)
    error = ulps(S.zeta(negative), far)
    assert error[negative > -20].max() <= 16 and error.max() <= 64


def test_special_values_are_scipys():
    x = np.array(
        [2, 1, 0.5, 0, -0.0, -0.5, -1, -2, -3, -20.5, -200, -300, -341.5, 1e-20, -1e-20, np.inf,
         -np.inf, np.nan, 1 + 1e-10]
    )  # fmt: skip
    np.testing.assert_allclose(np.asarray(S.zeta(x)), ss.zeta(x), rtol=1e-14, equal_nan=True)
    s = np.array([2, 2, 2, 2, 1, 0.5, 3, 2.5, 3, 3, 4, np.nan, 2])
    q = np.array([1, 0.5, -0.5, -1, 1, 1, 0, -0.5, np.inf, 1e-300, -7.25, 1, np.nan])
    np.testing.assert_allclose(np.asarray(S.zeta(s, q)), ss.zeta(s, q), rtol=1e-13, equal_nan=True)
    n = np.array([0, 1, 2, 3, 1, 1, 2, 1, 3, 1, 2, 1.5, -1, 4])
    x = np.array([1.5, 1.5, 1.5, 1.5, -0.5, 0, -1, -2.7, -5.3, np.inf, np.inf, 2, 2, np.nan])
    with np.errstate(all="ignore"):
        want = ss.polygamma(n, x)
    got = np.asarray(S.polygamma(n, x))
    np.testing.assert_allclose(got, want, rtol=1e-13, equal_nan=True)
    assert (np.signbit(got[want == 0]) == np.signbit(want[want == 0])).all()


@pytest.mark.parametrize("n", [1, 2, 3, 5])
def test_polygamma_against_exact_values(n):
    x = np.concatenate([np.linspace(0.01, 20, 150), -np.linspace(0.01, 20, 150)])
    x = x[np.abs(x - np.round(x)) > 1e-3]
    with mpmath.workdps(40):
        want = np.array([float(mpmath.polygamma(n, mpmath.mpf(float(v)))) for v in x])
    got = np.asarray(S.polygamma(n, x))
    assert ulps(got[x > 0], want[x > 0]).max() <= 8
    # x < 0: the reflection, a sum of two terms (SciPy's: up to 31 ulp on this grid)
    assert ulps(got[x < 0], want[x < 0]).max() <= 16


def test_polygamma_of_a_traced_order_is_nan_for_negative_x():
    # vmap traces the order; a Python order is known (test_under_jit_... computes negative x under jit)
    got = np.asarray(ast.vmap(S.polygamma)(np.array([1.0, 1.0]), np.array([2.0, -0.5])))
    assert got[0] == pytest.approx(ss.polygamma(1, 2.0), rel=1e-14) and np.isnan(got[1])
    assert float(S.polygamma(1, -0.5)) == pytest.approx(ss.polygamma(1, -0.5), rel=1e-14)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int16"])
def test_dtypes_are_scipys(dtype):
    x = np.array([1.5, 2.0, 3.0, 7.25]).astype(dtype)
    assert np.asarray(S.zeta(x)).dtype == ss.zeta(x).dtype
    assert np.asarray(S.zeta(x, x)).dtype == ss.zeta(x, x).dtype
    one = np.asarray(1).astype(dtype)
    assert np.asarray(S.polygamma(one, x)).dtype == ss.polygamma(one, x).dtype


def test_under_jit_equal_eager_without_floating_point_warnings():
    # Hurwitz's zeta and polygamma's reflection (Riemann's adds the gamma factors that
    # test_special_gamma_bessel compiles; numba takes minutes over all of them in one kernel)
    def f(x, q):
        return S.zeta(x, q), S.polygamma(2, q)

    x = np.array([-np.inf, -300.0, -20.5, -2.0, -0.5, 0.0, 0.5, 1.0, 2.5, 40.0, np.inf, np.nan])
    q = np.array([-3.0, -2.5, -0.5, 0.0, 1e-300, 0.3, 1.0, 2.0, 9.5, 1e10, np.inf, np.nan])
    compiled = ast.jit(f)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for _ in range(2):  # the first tier and the compiled one
            got = compiled(x, q)
            compiled.wait_compiled()
    for g, w in zip(got, f(x, q)):
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=1e-15, equal_nan=True)


def test_gradients_are_the_next_functions():
    q = np.array([0.3, 1.0, 2.5, 12.0])
    dq = np.asarray(ast.grad(lambda v: ast.sum(S.zeta(3.0, v)))(q))
    np.testing.assert_allclose(dq, -3.0 * ss.zeta(4.0, q), rtol=1e-12)
    x = np.array([-2.5, -0.3, 0.7, 4.0])
    dx = np.asarray(ast.grad(lambda v: ast.sum(S.polygamma(1, v)))(x))
    np.testing.assert_allclose(dx, ss.polygamma(2, x), rtol=1e-10)
    s = np.array([1.5, 2.0, 4.0])
    ds = np.asarray(ast.grad(lambda v: ast.sum(S.zeta(v)))(s))
    with mpmath.workdps(30):
        want = [float(mpmath.diff(mpmath.zeta, float(v))) for v in s]
    np.testing.assert_allclose(ds, want, rtol=1e-10)


def test_vmap_equals_a_loop():
    x = np.array([-3.5, 0.2, 2.0, 25.0])
    np.testing.assert_array_equal(np.asarray(ast.vmap(S.zeta)(x)), [float(S.zeta(v)) for v in x])


def test_compiled_for_a_cuda_device_as_on_the_cpu(standin):
    from tests.fuzz.tiers import CUDA_TIERS, TIERS, check_program

    x = np.array([-20.5, -2.0, -0.5, 0.0, 0.5, 1.0, 2.5, 40.0, np.inf, np.nan])
    q = np.array([-2.5, 0.5, 1.0, 3.0, 1e-300, 2.0, 0.25, 7.0, 1.0, 2.0])
    check_program(S.zeta, lambda: [x.copy(), q.copy()], tiers=(*TIERS, *CUDA_TIERS), ulps=[4])


def test_extreme_orders_and_arguments_are_scipys():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for f, args in [
            (S.zeta, (170.0, 2.0)),
            (S.zeta, (1e6, 2.0)),
            (S.zeta, (1e15, 1.0)),
            (S.zeta, (2.5e14,)),
            (S.zeta, (np.inf, 1.0)),
            (S.zeta, (1e-310,)),
            (S.zeta, (5e-324,)),
            (S.polygamma, (170, 2.0)),
        ]:
            want = getattr(ss, f.__name__)(*args)
            assert float(f(*args)) == pytest.approx(want, rel=1e-14, abs=0), (f.__name__, args)
        assert np.isnan(float(S.polygamma(1e20, 2.0)))


def test_gradients_through_the_special_points():
    # digamma's order (n = 0) and zeta's trivial zeros and 0 keep their derivatives
    assert float(ast.grad(lambda x: S.polygamma(0, x))(1.0)) == pytest.approx(
        np.pi**2 / 6, rel=1e-13
    )
    with mpmath.workdps(30):
        for s in (-2.0, -4.0, 0.0):
            want = float(mpmath.diff(mpmath.zeta, s))
            assert float(ast.grad(S.zeta)(s)) == pytest.approx(want, rel=1e-8), s
