"""Strided operands and operands in Fortran order (transposes). An elementwise kernel whose operands are all
in Fortran order runs over memory order and gives results in that order, as NumPy's ufuncs do; strided
ones are read in place (one loop per axis); a result that is a view of an argument is copied in memory
order. Values always equal NumPy's, whatever the layouts."""

from __future__ import annotations

import numpy as np
import pytest

import arraystack as ast
from arraystack.backends.numba.layouts import wait_layout_kernels

pytestmark = pytest.mark.numba


def _jit(fn):
    return ast.jit(fn, tiered=False)


def _both_calls(compiled, *args):
    """The first call (a strided or transposed layout's own kernel still building: the plain loops) and a
    call once it is built."""
    first = compiled(*args)
    wait_layout_kernels()
    return first, compiled(*args)


@pytest.mark.parametrize("shape", [(300, 200), (7, 5, 400), (1, 300), (300, 1)])
@pytest.mark.parametrize("dtype", [np.float32, np.int64])
def test_elementwise_on_transposes_takes_their_order(shape, dtype):
    rng = np.random.default_rng(len(shape))
    x = (rng.standard_normal(shape) * 100).astype(dtype)
    y = (rng.standard_normal(shape) * 100).astype(dtype)

    def f(xp, a, b):
        return a.T * 3 + b.T - 1, a.T - b.T

    got = _jit(lambda a, b: f(ast, a, b))(ast.asarray(x), ast.asarray(y))
    want = f(np, x, y)
    for g, w in zip(got, want):
        g = np.asarray(g)
        np.testing.assert_array_equal(g, w)
        assert g.flags.f_contiguous == w.flags.f_contiguous


def test_mixed_orders_and_fortran_arguments():
    x = np.asfortranarray(np.arange(60000, dtype=np.float64).reshape(200, 300))
    y = np.arange(60000, dtype=np.float64).reshape(200, 300)
    f = _jit(lambda a, b: (a * 2 + b, a * a, a.T * b.T))
    s, sq, mixed = f(ast.asarray(x), ast.asarray(y))
    np.testing.assert_array_equal(np.asarray(s), x * 2 + y)
    np.testing.assert_array_equal(np.asarray(mixed), x.T * y.T)
    np.testing.assert_array_equal(np.asarray(sq), x * x)
    assert np.asarray(sq).flags.f_contiguous  # Fortran in, Fortran out, as NumPy


def test_a_returned_transpose_is_a_copy_in_memory_order():
    x = np.arange(60000, dtype=np.float32).reshape(200, 300)
    a = ast.asarray(x)
    t = np.asarray(_jit(lambda v: v.T)(a))
    np.testing.assert_array_equal(t, x.T)
    assert t.flags.f_contiguous and not np.shares_memory(t, x)
    x[0, 0] = -1  # the argument changes; the result does not
    assert t[0, 0] == 0


@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.bool_])
def test_strided_operands_are_read_in_place(dtype):
    rng = np.random.default_rng(5)
    x = (rng.standard_normal((300, 257)) * 100).astype(dtype)
    v = (rng.standard_normal(5001) * 100).astype(dtype)

    def f(xp, a, b, s):
        return a[:, 1:] != a[:, :-1], b[::3] * s, a[::2, ::-2] * 2

    args = (x, v, dtype(3) if dtype is not np.bool_ else np.bool_(True))
    compiled = _jit(lambda a, b, s: f(ast, a, b, s))
    for got in _both_calls(compiled, *[ast.asarray(a) for a in args]):
        for g, w in zip(got, f(np, *args)):
            np.testing.assert_array_equal(np.asarray(g), w)
            assert np.asarray(g).dtype == w.dtype


def _rows_functions(xp):
    def center(a, col):  # a row reduction with a broadcast operand
        return a - xp.mean(a, axis=1, keepdims=True) * col

    def softmax(a, col):
        e = xp.exp(a - xp.max(a, axis=1, keepdims=True))
        return e / xp.sum(e, axis=1, keepdims=True)

    def with_outer_outputs(a, col):
        m = xp.mean(a, axis=1, keepdims=True)
        return a * 2 + col, m, xp.sum(a, axis=1)

    def elementwise(a, col):
        return a * 2 + col

    return [center, softmax, with_outer_outputs, elementwise]


@pytest.mark.parametrize("which", range(4))
@pytest.mark.parametrize("shape", [(300, 130), (70, 1), (2, 1030)])
def test_regions_over_transposes_give_the_bits_of_c_order(which, shape):
    rng = np.random.default_rng(which)
    x = rng.standard_normal(shape).astype(np.float32) * 10
    col = rng.standard_normal((shape[0], 1)).astype(np.float32)  # col.T: along a.T's rows
    fn = _rows_functions(ast)[which]
    compiled = _jit(lambda a, c: fn(a.T, c.T))  # a.T and c.T: operands in Fortran order
    first, got = _both_calls(compiled, ast.asarray(x), ast.asarray(col))
    c_order = _jit(fn)(
        ast.asarray(np.ascontiguousarray(x.T)), ast.asarray(np.ascontiguousarray(col.T))
    )
    first, got, c_order = (r if isinstance(r, tuple) else (r,) for r in (first, got, c_order))
    with np.errstate(over="ignore"):
        want = _rows_functions(np)[which](x.T.astype(np.float64), col.T)
    want = want if isinstance(want, tuple) else (want,)
    for f, g, c, w in zip(first, got, c_order, want):
        f, g, c = np.asarray(f), np.asarray(g), np.asarray(c)
        np.testing.assert_array_equal(f.view(np.uint32), c.view(np.uint32))
        assert g.shape == c.shape == w.shape and g.dtype == c.dtype
        np.testing.assert_array_equal(g.view(np.uint32), c.view(np.uint32))
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-4)
        if g.ndim == 2 and min(g.shape) > 1:  # full results in the operands' order, as NumPy's
            assert g.flags.f_contiguous


def test_regions_that_reversing_would_change_keep_their_loops():
    from arraystack.backends.numba.layouts import reversed_region

    x = np.random.default_rng(3).standard_normal((6, 70, 5)).astype(np.float32)

    def two_axes(a):  # reversed, the order of the two axes' sums would change
        t = ast.transpose(a, (2, 1, 0))
        return ast.sum(t * 2.0, axis=(1, 2))

    got = _jit(two_axes)(ast.asarray(x))
    np.testing.assert_allclose(np.asarray(got), (x * 2).sum(axis=(0, 1)), rtol=1e-5)
    graph = ast.jit(two_axes).lower(ast.asarray(x)).optimized
    (fusion,) = [
        e
        for e in graph.eqns
        if e.prim.name == "fusion" and any("reduce" in q.prim.name for q in e.params["graph"].eqns)
    ]
    assert reversed_region(fusion.params["graph"]) is None
