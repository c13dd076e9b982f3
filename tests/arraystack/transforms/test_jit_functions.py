"""Every public function usable under jit: jit(f)(x) (numba backend) equals NumPy, across dtypes and
shapes including 0-d and empty. The eager and traced-graph paths are covered by the family tests."""

from __future__ import annotations

import numpy as np
import pytest

import arraystack as ast

UNARY = """abs absolute arccos arccosh arcsin arcsinh arctan arctanh cbrt ceil conj conjugate cos cosh deg2rad
degrees exp exp2 expm1 fabs fix floor isfinite isinf isnan log log10 log1p log2 logical_not negative positive
rad2deg radians reciprocal rint sign signbit sin sinh sqrt square tan tanh trunc""".split()
BINARY = """add arctan2 copysign divide equal float_power floor_divide fmax fmin fmod greater greater_equal
heaviside hypot less less_equal logaddexp logaddexp2 logical_and logical_or logical_xor maximum minimum
multiply nextafter not_equal power remainder subtract true_divide""".split()
INT_BINARY = "bitwise_and bitwise_or bitwise_xor left_shift right_shift gcd lcm".split()
REDUCTIONS = "sum prod mean var std max min argmax argmin any all ptp cumsum cumprod nansum nanmax".split()

SHAPES = [(), (0,), (7,), (3, 4)]


def data(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "b":
        return rng.integers(0, 2, shape).astype(dtype)
    if np.dtype(dtype).kind in "iu":
        return rng.integers(1, 6, shape).astype(dtype)
    x = rng.uniform(0.1, 0.9, shape) * 1.5
    return x.astype(dtype)


def check(fn, *args, rtol=None):
    with np.errstate(all="ignore"):
        expected = fn(np, *args)
    got = ast.jit(lambda *xs: fn(ast, *xs))(*[ast.asarray(a) for a in args])
    expected = expected if isinstance(expected, tuple) else (expected,)
    got = got if isinstance(got, tuple) else (got,)
    for e, g in zip(expected, got):
        e, g = np.asarray(e), np.asarray(g)
        assert g.dtype == e.dtype and g.shape == e.shape
        if e.dtype.kind in "fc":
            tol = rtol or (2e-6 if e.dtype in (np.float32, np.complex64) else 1e-12)
            np.testing.assert_allclose(g, e, rtol=tol, atol=1e-7, equal_nan=True)
        else:
            np.testing.assert_array_equal(g, e)


@pytest.mark.parametrize("name", UNARY)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_unary(name, dtype, shape):
    check(lambda xp, x: getattr(xp, name)(x), data(shape, dtype))


@pytest.mark.parametrize("name", BINARY)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_binary(name, dtype):
    if dtype == np.int32 and name in ("power",):
        pytest.skip("integer power checks exponents eagerly")
    check(lambda xp, x, y: getattr(xp, name)(x, y), data((3, 4), dtype), data((4,), dtype, seed=1))


@pytest.mark.parametrize("name", INT_BINARY)
@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int64])
def test_integer_binary(name, dtype):
    check(lambda xp, x, y: getattr(xp, name)(x, y), data((5,), dtype), data((5,), dtype, seed=3))


@pytest.mark.parametrize("name", REDUCTIONS)
@pytest.mark.parametrize("axis", [None, 0, -1])
@pytest.mark.parametrize("dtype", [np.float32, np.int16, np.bool_])
def test_reductions(name, axis, dtype):
    if dtype == np.bool_ and name in ("var", "std", "ptp", "cumprod", "prod", "nanmax", "mean", "nansum"):
        pytest.skip("not a NumPy operation on bool")
    check(lambda xp, x: getattr(xp, name)(x, axis=axis), data((3, 4), dtype))


MANIPULATION = [
    lambda xp, x: xp.reshape(x, (4, 3)),
    lambda xp, x: xp.transpose(x),
    lambda xp, x: xp.concatenate([x, x * 2], axis=1),
    lambda xp, x: xp.stack([x, x], axis=0),
    lambda xp, x: xp.flip(x, 1),
    lambda xp, x: xp.roll(x, 2, axis=1),
    lambda xp, x: xp.pad(x, ((1, 0), (2, 1)), mode="reflect"),
    lambda xp, x: xp.tile(x, (2, 1)),
    lambda xp, x: xp.repeat(x, 2, axis=0),
    lambda xp, x: xp.tril(x) + xp.triu(x, 1),
    lambda xp, x: xp.where(x > 0.5, x, -x),
    lambda xp, x: xp.clip(x, 0.3, 0.7),
    lambda xp, x: x[1:, ::-2],
    lambda xp, x: x[[0, 2], 1:],
    lambda xp, x: xp.matmul(x, x.T),
    lambda xp, x: xp.split(x, 2, axis=1),
    lambda xp, x: xp.moveaxis(xp.expand_dims(x, 0), 0, -1),
]


@pytest.mark.parametrize("k", range(len(MANIPULATION)))
def test_manipulation_indexing_linalg(k):
    check(MANIPULATION[k], data((3, 4), np.float64))


def test_in_place_updates_are_functionalized():
    def f(xp, x):
        y = x * 1.0
        y[0] = 7.0
        y += 1
        y[:, 1] *= 2
        return y

    check(f, data((3, 4), np.float64))


def test_numpy_functions_on_traced_values_are_recorded():
    f = ast.jit(lambda x: np.sum(np.sin(x), axis=0))
    x = data((3, 4), np.float64)
    np.testing.assert_allclose(np.asarray(f(ast.asarray(x))), np.sum(np.sin(x), axis=0))
    assert f.stats()["traces"] == 1
