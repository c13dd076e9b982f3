"""Reductions in generated numba kernels on special values: NaN anywhere, infinities, odd lengths."""

from __future__ import annotations

import numpy as np
import pytest

import arraystack as ast

pytestmark = pytest.mark.numba


def _with_specials(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape).astype(dtype)
    flat = x.reshape(-1)
    for value in (np.nan, np.inf, -np.inf):
        flat[rng.integers(0, flat.size, 3)] = value
    return x


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(7, 13), (33, 1), (3, 1031), (2, 9, 17)])
@pytest.mark.parametrize("name", ["max", "min", "sum", "prod"])
def test_row_and_total_reductions_match_numpy_with_nan_and_inf(name, shape, dtype):
    x = _with_specials(shape, dtype, seed=sum(shape))
    x[0] = np.nan  # an all-NaN row
    x[-1] = -np.inf if name != "min" else np.inf
    with np.errstate(all="ignore"):
        for axis in (-1, None):
            want = getattr(np, name)(x, axis=axis)
            f = ast.jit(lambda a, axis=axis: getattr(ast, name)(a, axis=axis))
            got = np.asarray(f(ast.asarray(x)))
            assert got.dtype == want.dtype
            np.testing.assert_allclose(got, want, rtol=1e-5 if dtype == np.float32 else 1e-12)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_softmax_kernel_propagates_nan_rows_only(dtype):
    x = np.random.default_rng(3).standard_normal((64, 1000)).astype(dtype)
    x[5, 999] = np.nan
    x[9, 0] = np.inf

    def softmax(xp, a):
        e = xp.exp(a - xp.max(a, axis=-1, keepdims=True))
        return e / xp.sum(e, axis=-1, keepdims=True)

    with np.errstate(all="ignore"):
        want = softmax(np, x)
        got = np.asarray(ast.jit(lambda a: softmax(ast, a))(ast.asarray(x)))
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_allclose(got, want, rtol=1e-5 if dtype == np.float32 else 1e-12, atol=1e-30)
