"""erfc, erfcx, erfinv, erfcinv, ndtr, ndtri and log_ndtr (arraystack/scipy/_normal.py) against exact values
(mpmath) on dense grids and in both tails, SciPy's special values and dtypes, and under jit, grad and vmap."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.special as ss

import arraystack as ast

mpmath = pytest.importorskip("mpmath")
S = ast.scipy.special
EPS = np.finfo(np.float64).eps
X = np.concatenate(
    [-np.geomspace(1e-300, 40.0, 120), np.linspace(-6, 6, 241), np.linspace(6, 27, 85)]
)


def exact(function, xs, dps=40):
    with mpmath.workdps(dps):
        return np.array([float(function(mpmath.mpf(float(x)))) for x in xs])


def ulps(got, want):
    got = np.asarray(got)
    same = (got == want) | (np.isnan(got) & np.isnan(want))
    with np.errstate(all="ignore"):
        return np.where(same, 0.0, np.abs(got - want) / np.spacing(np.abs(want)))


def erfcx(x):
    return mpmath.erfc(x) * mpmath.exp(x * x)


def log_ndtr(x):
    with mpmath.workdps(400):  # log(1 - tiny) needs the digits
        return mpmath.log(mpmath.ncdf(x))


@pytest.mark.parametrize(
    "name, function, bound",
    [
        ("erfc", mpmath.erfc, 4),
        ("erfcx", erfcx, 8),
        ("ndtr", mpmath.ncdf, 4),
        ("log_ndtr", log_ndtr, 8),
    ],
)
def test_within_the_stated_ulp_of_exact_values(name, function, bound):
    """SciPy's own ndtr is off by up to ~900 ulp in the left tail (the rounding of x / sqrt(2) goes
    through exp) and its erfc underflows to 0 from 26.55, short of the subnormals."""
    want = exact(function, X)
    normal = np.abs(want) >= np.finfo(np.float64).tiny
    assert ulps(getattr(S, name)(X), want)[normal].max() <= bound


def test_erfcinv_and_ndtri_keep_relative_accuracy_for_tiny_arguments():
    q = np.concatenate(
        [np.geomspace(1e-300, 1e-20, 12), np.geomspace(1e-20, 0.5, 40), [0.7, 0.999]]
    )
    with mpmath.workdps(320):  # 1 - q to the last digit of q
        tail = [mpmath.erfinv(1 - mpmath.mpf(float(v))) for v in q]
        quantiles = np.array([float(-mpmath.sqrt(2) * t) for t in tail])  # ndtri(q / 2)
        tail = np.array([float(t) for t in tail])
    assert ulps(S.erfcinv(q), tail).max() <= 4
    assert ulps(S.ndtri(q / 2), quantiles).max() <= 4


def test_erfinv_within_4_ulp_of_exact():
    y = np.concatenate(
        [np.linspace(-0.999, 0.999, 301), 1 - np.geomspace(1e-16, 0.5, 60), [1e-300, 1e-10]]
    )
    with mpmath.workdps(60):
        want = np.array([float(mpmath.erfinv(mpmath.mpf(float(v)))) for v in y])
    assert ulps(S.erfinv(y), want).max() <= 4


def test_the_inverses_invert():
    # where the forward function is well conditioned: erf below 3, ndtr's left side
    x = np.linspace(-3, 3, 121)
    np.testing.assert_allclose(np.asarray(S.erfinv(ss.erf(x))), x, rtol=1e-12, atol=1e-15)
    x = np.linspace(-30, 1, 125)
    np.testing.assert_allclose(np.asarray(S.ndtri(ss.ndtr(x))), x, rtol=1e-12, atol=1e-15)


EDGES = np.array(
    [-np.inf, -1e300, -40.0, -30.0, -1e-300, -0.0, 0.0, 1e-320, 1e-300, 0.5, 1.0, 2.0, 26.0, 27.3, 30.0,
     1e200, np.inf, np.nan]
)  # fmt: skip
UNIT = np.array([-1.0, -0.0, 0.0, 1e-300, 0.25, 0.5, 1 - 1e-16, 1.0, 2.0, np.inf, np.nan])


@pytest.mark.parametrize(
    "name, values", [("erfc", EDGES), ("erfcx", EDGES), ("ndtr", EDGES), ("log_ndtr", EDGES), ("erfinv", UNIT),
                     ("erfcinv", UNIT), ("ndtri", UNIT)],
)  # fmt: skip
def test_special_values_are_scipys(name, values):
    with np.errstate(all="ignore"):
        want = getattr(ss, name)(values)
    got = np.asarray(getattr(S, name)(values))
    # Note: where SciPy's is short of the exact value these keep it (the accuracy tests check them):
    # its erfc underflows from 26.55, and its ndtr carries the rounding of x / sqrt(2) far out
    kept = (np.abs(values) >= 26) & (name in ("erfc", "ndtr", "log_ndtr"))
    np.testing.assert_allclose(got[~kept], want[~kept], rtol=8 * EPS, equal_nan=True)
    assert (np.signbit(got[~np.isnan(want)]) == np.signbit(want[~np.isnan(want)])).all()


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int8", "int32", "bool"])
@pytest.mark.parametrize(
    "name", ["erfc", "erfcx", "ndtr", "log_ndtr", "erfinv", "erfcinv", "ndtri"]
)
def test_dtypes_are_scipys_and_narrow_results_round_the_float64_value(name, dtype):
    inverse = name in ("erfinv", "erfcinv", "ndtri")
    x = (
        np.array([0.0, 0.125, 0.25, 0.5, 1.0])
        if inverse
        else np.array([-3.0, -1.0, 0.0, 0.5, 2.0, 6.0])
    )
    x = x.astype(dtype)
    want = getattr(ss, name)(x)
    got = np.asarray(getattr(S, name)(x))
    assert got.dtype == want.dtype
    wide = np.asarray(getattr(S, name)(x.astype(np.float64)))
    np.testing.assert_array_equal(got, wide.astype(want.dtype))


def test_complex_input_raises_type_error():
    with pytest.raises(TypeError, match="erfc takes real input"):
        S.erfc(np.array([1j]))


@pytest.mark.parametrize(
    "name", ["erfc", "erfcx", "ndtr", "log_ndtr", "erfinv", "erfcinv", "ndtri"]
)
def test_under_jit_equal_eager_and_raise_no_floating_point_warning(name):
    f = getattr(S, name)
    values = UNIT if name in ("erfinv", "erfcinv", "ndtri") else EDGES
    compiled = ast.jit(f)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for _ in range(2):  # the first tier and the compiled one
            got = np.asarray(compiled(values))
            compiled.wait_compiled()
    np.testing.assert_allclose(got, np.asarray(f(values)), rtol=4 * EPS, equal_nan=True)


DERIVATIVES = {
    "erfc": lambda x: -2 / np.sqrt(np.pi) * np.exp(-x * x),
    "erfcx": lambda x: 2 * x * ss.erfcx(x) - 2 / np.sqrt(np.pi),
    "ndtr": lambda x: np.exp(-x * x / 2) / np.sqrt(2 * np.pi),
    "log_ndtr": lambda x: np.exp(-x * x / 2) / np.sqrt(2 * np.pi) / ss.ndtr(x),
    "erfinv": lambda y: np.sqrt(np.pi) / 2 * np.exp(ss.erfinv(y) ** 2),
    "erfcinv": lambda y: -np.sqrt(np.pi) / 2 * np.exp(ss.erfcinv(y) ** 2),
    "ndtri": lambda p: np.sqrt(2 * np.pi) * np.exp(ss.ndtri(p) ** 2 / 2),
}


@pytest.mark.parametrize("name", sorted(DERIVATIVES))
def test_gradients_match_the_derivative_and_finite_differences(name):
    f = getattr(S, name)
    x = {
        "erfinv": np.array([-0.99, -0.3, 0.0, 0.2, 0.6, 0.9999]),
        "erfcinv": np.array([1e-30, 0.01, 0.4, 1.0, 1.3, 1.99]),
        "ndtri": np.array([1e-30, 0.01, 0.3, 0.5, 0.8, 0.999]),
    }.get(name, np.array([-25.0, -3.0, -0.5, 0.0, 0.7, 1.5, 4.0, 9.0]))
    grad = np.asarray(ast.grad(lambda v: ast.sum(f(v)))(ast.asarray(x)))
    np.testing.assert_allclose(grad, DERIVATIVES[name](x), rtol=1e-8)
    middle = (
        np.abs(x) < 5 if name in ("erfc", "erfcx", "ndtr", "log_ndtr") else (x > 0.01) & (x < 1.9)
    )
    h = 1e-7 * np.maximum(np.abs(x[middle]), 1e-2)
    fd = (np.asarray(f(x[middle] + h)) - np.asarray(f(x[middle] - h))) / (2 * h)
    np.testing.assert_allclose(grad[middle], fd, rtol=1e-5)


def test_vmap_matches_a_loop():
    x = np.array([[-2.0, 0.1], [3.0, 30.0]])
    batched = np.asarray(ast.vmap(S.log_ndtr)(x))
    np.testing.assert_array_equal(batched, np.stack([np.asarray(S.log_ndtr(row)) for row in x]))


@pytest.mark.parametrize("name", ["erfc", "ndtri", "log_ndtr"])
def test_compiled_for_a_cuda_device_as_on_the_cpu(standin, name):
    """The compositions become CUDA kernels (run here through the stand-in's CPU harness)."""
    from tests.fuzz.tiers import CUDA_TIERS, TIERS, check_program

    values = UNIT if name == "ndtri" else EDGES
    # erf and exp of the compiled kernels are within 1 ulp of NumPy's, CUDA's within their stated bounds
    check_program(getattr(S, name), lambda: [values.copy()], tiers=(*TIERS, *CUDA_TIERS), ulps=[4])
