"""gammaln, digamma and betaln (arraystack/scipy/_gamma.py) against exact values (mpmath, 40 digits) on
dense grids, SciPy's special values and dtypes, and the three under jit, grad and vmap."""

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


POSITIVE = np.concatenate(
    [
        np.geomspace(1e-300, 0.7, 60),
        np.linspace(0.7, 2.6, 191),  # the zeros of gammaln at 1 and 2, digamma's at 1.4616...
        np.linspace(2.6, 12.0, 95),
        np.geomspace(12.0, 1e300, 60),
    ]
)
NEGATIVE = -np.concatenate([np.linspace(0.01, 7.99, 400), np.geomspace(8.0, 1e15, 40) + 0.5])
NEGATIVE = NEGATIVE[np.abs(NEGATIVE - np.round(NEGATIVE)) > 1e-6]


def log_abs_gamma(x):
    return mpmath.log(abs(mpmath.gamma(x)))


def test_gammaln_within_8_ulp_of_exact_for_positive_x():
    # SciPy's own is off by up to ~400 ulp near 1 and 2, where it loses to cancellation
    assert ulps(S.gammaln(POSITIVE), exact(log_abs_gamma, POSITIVE)).max() <= 8


def test_digamma_within_8_ulp_of_exact_for_positive_x():
    assert ulps(S.digamma(POSITIVE), exact(mpmath.digamma, POSITIVE)).max() <= 8


def test_the_reflection_for_negative_x_loses_only_what_its_terms_cancel():
    """For x < 0 both are a difference of two terms (log(pi/|sin(pi x)|) and gammaln(1 - x);
    digamma(1 - x) and pi/tan(pi x)): within 8 ulp of the larger term, as SciPy's."""
    x = NEGATIVE
    with np.errstate(all="ignore"):
        reflection = np.abs(np.log(np.pi / np.abs(np.sin(np.pi * x))))
        gl = exact(log_abs_gamma, x)
        scale = np.maximum(np.abs(ss.gammaln(1 - x)), reflection)
        assert (
            np.abs(np.asarray(S.gammaln(x)) - gl) <= 8 * EPS * np.maximum(scale, np.abs(gl))
        ).all()
        dg = exact(mpmath.digamma, x)
        scale = np.maximum(np.abs(ss.psi(1 - x)), np.abs(np.pi / np.tan(np.pi * x)))
        assert (
            np.abs(np.asarray(S.digamma(x)) - dg) <= 8 * EPS * np.maximum(scale, np.abs(dg))
        ).all()


def test_digamma_keeps_relative_accuracy_at_its_positive_root():
    root = 1.4616321449683622
    near = root + np.array([-0.2, -1e-3, -1e-9, 0.0, 1e-12, 1e-6, 0.24])
    assert ulps(S.digamma(near), exact(mpmath.digamma, near)).max() <= 4
    assert float(S.digamma(root)) == pytest.approx(-9.2412655217294e-17, rel=1e-12)


def test_betaln_against_exact_values():
    rng = np.random.default_rng(0)
    a = np.concatenate([rng.uniform(0.05, 20, 150), np.exp(rng.uniform(-3, 35, 150))])
    b = np.concatenate([rng.uniform(0.05, 20, 150), np.exp(rng.uniform(-3, 35, 150))])
    b[-20:] = 1.0  # small beside huge: log B = -log(a) where the sum of three gammaln loses it all
    with mpmath.workdps(40):
        want = np.array([float(mpmath.log(mpmath.beta(u, v))) for u, v in zip(a, b)])
    got = np.asarray(S.betaln(a, b))
    # the result is a sum of terms of the size of gammaln(min(a, b)); it cancels where log B is near 0
    scale = np.maximum(np.abs(want), np.abs(ss.gammaln(np.minimum(a, b))))
    assert (np.abs(got - want) <= 16 * EPS * scale).all()
    assert float(S.betaln(1.0, 1e15)) == pytest.approx(-np.log(1e15), rel=4 * EPS)


EDGES = np.array(
    [-np.inf, -1e300, -8.5e15, -800.0, -3.0, -2.5, -1e-300, -0.0, 0.0, 1e-300, 0.5, 1.0, 2.0, 30.0,
     1e17, 1e300, np.inf, np.nan]
)  # fmt: skip


@pytest.mark.parametrize("name", ["gammaln", "digamma", "psi"])
def test_special_values_are_scipys(name):
    with np.errstate(all="ignore"):
        want = getattr(ss, name)(EDGES)
    got = np.asarray(getattr(S, name)(EDGES))
    # atol: gammaln(-2.5) is a difference of terms near 1.2 (see the reflection test)
    np.testing.assert_allclose(got, want, rtol=8 * EPS, atol=4 * EPS, equal_nan=True)
    assert (np.signbit(got[want == 0]) == np.signbit(want[want == 0])).all()
    assert (np.signbit(got[np.isinf(want)]) == np.signbit(want[np.isinf(want)])).all()


def test_betaln_special_values_are_scipys_where_it_takes_a_limit():
    a, b = np.meshgrid(EDGES, EDGES)
    with np.errstate(all="ignore"):
        want = ss.betaln(a, b)
    got = np.asarray(S.betaln(a, b))
    # Note: SciPy gives inf for nan beside a pole, where these give nan, and nan for B(inf, x >= 1e300),
    # where these give its limit -inf; at (1e300, 1e300) SciPy's is 170 ulp off
    differs = ((np.isnan(a) | np.isnan(b)) & np.isinf(want)) | (np.isnan(want) & (got == -np.inf))
    differs |= (a == 1e300) & (b == 1e300)
    assert (~differs).sum() > 300
    np.testing.assert_allclose(got[~differs], want[~differs], rtol=16 * EPS, equal_nan=True)
    assert float(S.betaln(1e300, 1e300)) == pytest.approx(-2e300 * np.log(2), rel=4 * EPS)


def test_gammaln_of_a_subnormal_is_finite():
    # Note: SciPy's gammaln gives inf below 2**-1022; -log(x) is finite there
    assert float(S.gammaln(1e-310)) == pytest.approx(-np.log(1e-310), rel=EPS)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int8", "int32", "bool"])
@pytest.mark.parametrize("name", ["gammaln", "digamma"])
def test_dtypes_are_scipys_and_float32_rounds_the_float64_value(name, dtype):
    x = np.array([0.5, 1.0, 3.0, 7.25, 40.0]).astype(dtype)
    want = getattr(ss, name)(x)
    got = np.asarray(getattr(S, name)(x))
    assert got.dtype == want.dtype
    exact64 = getattr(S, name)(x.astype(np.float64))
    np.testing.assert_array_equal(got, np.asarray(exact64).astype(want.dtype))


def test_betaln_dtypes_are_scipys():
    for a, b in [(np.float32(2), np.float32(3)), (np.float32(2), 3.0), (np.int8(2), np.float32(3))]:
        assert np.asarray(S.betaln(a, b)).dtype == ss.betaln(a, b).dtype


def test_complex_input_raises_type_error():
    with pytest.raises(TypeError, match="gammaln takes real input"):
        S.gammaln(np.array([1 + 1j]))


@pytest.mark.parametrize("name", ["gammaln", "digamma"])
def test_under_jit_equal_eager_and_raise_no_floating_point_warning(name):
    f = getattr(S, name)
    compiled = ast.jit(f)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for _ in range(2):  # the first tier and the compiled one
            got = np.asarray(compiled(EDGES))
            compiled.wait_compiled()
    np.testing.assert_allclose(got, np.asarray(f(EDGES)), rtol=4 * EPS, equal_nan=True)


def test_betaln_under_jit_raises_no_floating_point_warning():
    a, b = np.meshgrid(EDGES, EDGES)
    compiled = ast.jit(S.betaln)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for _ in range(2):
            got = np.asarray(compiled(a, b))
            compiled.wait_compiled()
    np.testing.assert_allclose(got, np.asarray(S.betaln(a, b)), rtol=4 * EPS, equal_nan=True)


@pytest.mark.parametrize("name", ["gammaln", "digamma"])
def test_gradients_match_finite_differences(name):
    f = getattr(S, name)
    x = np.array([-3.7, -0.4, 1e-3, 0.8, 1.0, 1.46, 2.0, 5.5, 9.0, 150.0])
    grad = np.asarray(ast.grad(lambda v: ast.sum(f(v)))(ast.asarray(x)))
    h = 1e-6 * np.maximum(np.abs(x), 1e-3)
    fd = (np.asarray(f(x + h)) - np.asarray(f(x - h))) / (2 * h)
    np.testing.assert_allclose(grad, fd, rtol=1e-6)
    derivative = ss.psi(x) if name == "gammaln" else ss.polygamma(1, x)
    np.testing.assert_allclose(grad, derivative, rtol=1e-8)


def test_betaln_gradient_and_vmap():
    a, b = np.array([0.3, 2.0, 50.0, 1e6]), np.array([4.0, 0.7, 60.0, 2.0])
    da, db = ast.grad(lambda u, v: ast.sum(S.betaln(u, v)), argnums=(0, 1))(a, b)
    np.testing.assert_allclose(np.asarray(da), ss.psi(a) - ss.psi(a + b), rtol=1e-8)
    np.testing.assert_allclose(np.asarray(db), ss.psi(b) - ss.psi(a + b), rtol=1e-8)
    batched = ast.vmap(S.betaln)(a, b)
    np.testing.assert_array_equal(
        np.asarray(batched), [float(S.betaln(u, v)) for u, v in zip(a, b)]
    )


def test_compiled_for_a_cuda_device_as_on_the_cpu(standin):
    """The compositions become CUDA kernels (run here through the stand-in's CPU harness)."""
    from tests.fuzz.tiers import CUDA_TIERS, TIERS, check_program

    check_program(S.gammaln, lambda: [EDGES.copy()], tiers=(*TIERS, *CUDA_TIERS), ulps=[4])
    check_program(S.digamma, lambda: [EDGES.copy()], tiers=(*TIERS, *CUDA_TIERS), ulps=[4])
