"""arraystack.scipy.special against scipy.special: values within the stated ulp bounds on special values and
every dtype SciPy's loops take, SciPy's result dtypes, and the functions under jit, grad and vmap."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special as ss

import arraystack as ast

S = ast.scipy.special
EDGES = np.array(
    [-np.inf, -800.0, -30.0, -1.5, -1e-300, -0.0, 0.0, 1e-300, 1e-8, 0.3, 0.5, 1.0, 2.0, 20.0, 800.0,
     np.inf, np.nan]
)  # fmt: skip
PROBABILITIES = np.array(
    [-1.0, -0.0, 0.0, 1e-300, 1e-8, 0.25, 0.5, 0.75, 1 - 1e-8, 1.0, 2.0, np.nan]
)
DTYPES = ["float16", "float32", "float64", "int8", "uint16", "int32", "bool"]
# ulp bound per function (see each docstring)
UNARY = {"erf": 2, "expit": 2, "log_expit": 4, "logit": 2, "entr": 1}
BINARY = {"xlogy": 1, "xlog1py": 2, "rel_entr": 2}


def same(expected, got, ulps):
    got = np.asarray(got)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    assert got.shape == expected.shape
    eps = np.finfo(expected.dtype).eps if expected.dtype.kind in "fc" else 0
    np.testing.assert_allclose(got, expected, rtol=ulps * eps, atol=0, equal_nan=True)
    finite = np.isfinite(expected)
    assert (
        np.signbit(got[~finite & ~np.isnan(expected)])
        == np.signbit(expected[~finite & ~np.isnan(expected)])
    ).all()


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_functions_match_scipy(name, dtype):
    values = PROBABILITIES if name == "logit" else EDGES
    with np.errstate(all="ignore"):
        x = values.astype(dtype)
        expected = getattr(ss, name)(x)
        got = getattr(S, name)(ast.asarray(x))
    same(expected, got, UNARY[name])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_functions_match_scipy_on_every_pair_of_edges(name, dtype):
    x = PROBABILITIES.astype(dtype)[:, None]
    y = np.concatenate([PROBABILITIES, [np.inf, -np.inf]]).astype(dtype)[None, :]
    with np.errstate(all="ignore"):
        expected = getattr(ss, name)(x, y)
        got = getattr(S, name)(ast.asarray(x), ast.asarray(y))
    same(expected, got, BINARY[name])


@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
def test_logsumexp_softmax_and_log_softmax_match_scipy(axis):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((3, 5)) * 40
    a[0, 0] = -np.inf
    b = np.sign(rng.standard_normal((3, 5)))
    np.testing.assert_allclose(S.logsumexp(a, axis=axis), ss.logsumexp(a, axis=axis), rtol=1e-14)
    for keepdims in (False, True):
        got = S.logsumexp(a, axis=axis, b=b, keepdims=keepdims, return_sign=True)
        want = ss.logsumexp(a, axis=axis, b=b, keepdims=keepdims, return_sign=True)
        for g, w in zip(got, want):
            assert np.shape(g) == np.shape(w)
            np.testing.assert_allclose(np.asarray(g), w, rtol=1e-12, equal_nan=True)
    np.testing.assert_allclose(
        S.softmax(a, axis=axis), ss.softmax(a, axis=axis), rtol=1e-13, atol=1e-300
    )
    np.testing.assert_allclose(
        S.log_softmax(a, axis=axis), ss.log_softmax(a, axis=axis), rtol=1e-13
    )


def test_logsumexp_edges():
    for a in ([-np.inf, -np.inf], [np.inf, 1.0], [np.nan, 1.0], [], [1e308, 1e308]):
        a = np.asarray(a, dtype=float)
        with np.errstate(all="ignore"):
            np.testing.assert_array_equal(np.asarray(S.logsumexp(a)), ss.logsumexp(a))
    with pytest.raises(np.exceptions.AxisError):
        S.logsumexp(np.ones((2, 2)), axis=2)


def test_the_functions_trace_compile_and_differentiate(check_grads):
    x = np.linspace(-3, 3, 11)
    p = np.linspace(0.05, 0.95, 11)

    def f(x, p):
        return (
            S.erf(x) + S.expit(x) * S.logit(p) + S.xlogy(p, p + 1) + S.entr(p) + S.log_expit(x)
            + S.softmax(x) + S.log_softmax(x) - S.logsumexp(x) + S.rel_entr(p, 1 - p)
        )  # fmt: skip

    with np.errstate(all="ignore"):
        eager = np.asarray(f(ast.asarray(x), ast.asarray(p)))
    compiled = np.asarray(ast.jit(f)(x, p))
    np.testing.assert_allclose(compiled, eager, rtol=1e-13)
    check_grads(lambda x, p: ast.sum(f(x, p)), (x, p))
    batched = ast.vmap(lambda r: S.logsumexp(r))(np.stack([x, -x, 2 * x]))
    np.testing.assert_allclose(batched, [ss.logsumexp(r) for r in (x, -x, 2 * x)], rtol=1e-14)


def test_complex_erf_says_it_is_not_implemented():
    with pytest.raises(TypeError, match="complex erf"):
        S.erf(np.array([1j]))
