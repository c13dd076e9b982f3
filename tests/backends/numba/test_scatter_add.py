"""The numba scatter-add kernel (backends/numba/scatter.py) against numpy.add.at: the same bits."""

from __future__ import annotations

import numpy as np
import pytest

import arraystack as ast


def _plan(f, *args):
    return f.lower(*args).compile().as_text()


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int8, np.int64, np.uint16])
def test_rows_added_at_indices_equal_numpy_add_at(dtype):
    rng = np.random.default_rng(0)
    x = (rng.standard_normal((7, 3, 4)) * 50).astype(dtype)
    ids = rng.integers(-7, 7, (5, 9))  # duplicates and negative indices
    g = (rng.standard_normal((5, 9, 3, 4)) * 50).astype(dtype)

    def f(x, ids, g):
        out = x.copy()
        ast.add.at(out, ids, g)
        return out

    jf = ast.jit(f, tiered=False)
    assert "numba scatter-add kernel" in _plan(jf, x, ids, g)
    want = x.copy()
    with np.errstate(over="ignore"):
        np.add.at(want, ids, g)
    got = np.asarray(jf(x, ids, g))
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.asarray(ast.jit(f, tiered=True)(x, ids, g)), want)  # tier 0 too


def test_an_embeddings_gradient_runs_the_kernel():
    from arraystack import nn, prng

    emb = nn.Embedding(11, 6, key=prng.key(0))
    ids = np.random.default_rng(1).integers(0, 11, (4, 8))
    grad = ast.jit(ast.grad(lambda m, ids: ast.sum(ast.sin(m(ids)))), tiered=False)
    assert "numba scatter-add kernel" in _plan(grad, emb, ids)
    w = np.asarray(emb.weight)
    want = np.zeros_like(w)
    np.add.at(want, ids, np.cos(w[ids]))
    np.testing.assert_allclose(np.asarray(grad(emb, ids).weight), want, rtol=1e-6)


def test_an_index_out_of_range_raises_numpys_error_and_leaves_x_alone():
    x, g = np.zeros((4, 2)), np.ones((3, 2))

    def f(x, ids, g):
        out = x.copy()
        ast.add.at(out, ids, g)
        return out

    jf = ast.jit(f, tiered=False)
    np.testing.assert_array_equal(np.asarray(jf(x, np.array([0, 3, -4]), g)), [[2, 2], [0, 0], [0, 0], [1, 1]])
    with pytest.raises(IndexError, match="index 4 is out of bounds for axis 0 with size 4"):
        jf(x, np.array([0, 4, 1]), g)
    np.testing.assert_array_equal(x, 0)
