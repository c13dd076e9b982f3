"""Column regions of several passes and with full-size outputs (codegen_columns.py): x - x.mean(axis=0), a
standardization, a column softmax. Each column adds in the order a row adds in, so a column region's bits
are those of the same function along rows of the transposed input (the staged loops); the block width,
a run-time argument, changes no result; tier 0's twin agrees; NumPy agrees within rounding."""

from __future__ import annotations

import tempfile

import numpy as np
import pytest
from arraystack.backends.numba.kernels import load_kernel
from arraystack.backends.numba.summation_order import kernel_reduce

import arraystack as ast
from tests import oracle

pytestmark = pytest.mark.numba

# short columns, one group, a flush with a partial group, several blocks (of 128 or more) and a partial one
SHAPES = [(1, 5), (63, 130), (65, 129), (1025, 255), (3, 1100)]


def _data(shape, dtype, seed):
    x = np.random.default_rng(seed).standard_normal(shape).astype(dtype) * 3
    if shape[0] > 2:
        x[1, :] *= 1e3  # large values: the order of the sums shows in the bits
    return x


# each along `axis` (0: the column path; 1: rows, the staged loops), written once for both
def center(xp, x, axis):
    return x - xp.mean(x, axis=axis, keepdims=True)


def standardize(xp, x, axis):
    m = xp.mean(x, axis=axis, keepdims=True)
    d = x - m
    return d / xp.sqrt(xp.mean(d * d, axis=axis, keepdims=True) + 1e-5), m


def softmax(xp, x, axis):
    e = xp.exp(x - xp.max(x, axis=axis, keepdims=True))
    return e / xp.sum(e, axis=axis, keepdims=True)


def scaled_and_summed(xp, x, axis):  # a full output and a reduction in one pass
    y = x * 2.0 + 1.0
    return y, xp.sum(y, axis=axis)


FUNCTIONS = [center, standardize, softmax, scaled_and_summed]


def _compiled(fn, axis):
    return ast.jit(lambda a: fn(ast, a, axis), tiered=False)


def _source(fn, x):
    return ast.jit(lambda a: fn(ast, a, 0)).lower(ast.asarray(x)).compile().source


def _transposed(results):
    if not isinstance(results, tuple):
        results = (results,)
    return [np.asarray(r).T for r in results]


# (1025, 257) reaches PARALLEL_THRESHOLD (2**18 elements): the kernels' parallel variant, for one function
# (a parallel compile takes about three times as long)
@pytest.mark.parametrize(
    "fn, n0, n1", [(f, *s) for s in SHAPES for f in FUNCTIONS] + [(standardize, 1025, 257)]
)
def test_columns_have_the_bits_of_rows_of_the_transpose(fn, n0, n1):
    x = _data((n0, n1), np.float32, n0 * 3 + n1)
    assert "for cb in" in _source(fn, x)
    got = _compiled(fn, 0)(ast.asarray(x))
    rows = _compiled(fn, 1)(ast.asarray(np.ascontiguousarray(x.T)))
    for g, r in zip(_transposed(got), _transposed(rows)):
        oracle.assert_same_bits(r, g.T)
    with np.errstate(over="ignore"):
        want = fn(np, x.astype(np.float64), 0)
    for g, w in zip(
        got if isinstance(got, tuple) else (got,), want if isinstance(want, tuple) else (want,)
    ):
        np.testing.assert_allclose(np.asarray(g), w, rtol=2e-4, atol=2e-4)


@pytest.mark.parametrize("fn", FUNCTIONS, ids=lambda f: f.__name__)
def test_float64_strided_and_fortran_inputs(fn):
    base = _data((300, 2 * 140), np.float64, 7)
    for x in (base[:, ::2], np.asfortranarray(base[:, :140])):
        got = _compiled(fn, 0)(ast.asarray(x))
        rows = _compiled(fn, 1)(ast.asarray(np.ascontiguousarray(x.T)))
        for g, r in zip(_transposed(got), _transposed(rows)):
            oracle.assert_same_bits(r, g.T)


def test_special_values_reach_only_their_columns():
    x = _data((200, 140), np.float32, 8)
    x[5, 0], x[6, 1], x[7, 2], x[8, 2] = np.nan, np.inf, np.inf, -np.inf
    got = np.asarray(_compiled(center, 0)(ast.asarray(x)))
    with np.errstate(invalid="ignore"):
        want = x - x.astype(np.float64).mean(axis=0)
    assert np.isnan(got[:, 0]).all() and np.isnan(got[:, 2]).all()
    assert np.isnan(got[6, 1]) and np.isneginf(np.delete(got[:, 1], 6)).all()  # x - inf; inf - inf
    np.testing.assert_allclose(got[:, 3:], want[:, 3:], rtol=1e-4, atol=1e-4)
    sm = np.asarray(_compiled(softmax, 0)(ast.asarray(x)))
    assert np.isnan(sm[:, 0]).all()
    np.testing.assert_allclose(sm[:, 3:].sum(axis=0), 1.0, rtol=1e-5)


@pytest.mark.parametrize("fn", [center, softmax], ids=lambda f: f.__name__)
def test_the_block_width_changes_no_result(fn):
    x = _data((130, 300), np.float32, 9)
    kernel = load_kernel(_source(fn, x), cache_dir=tempfile.mkdtemp())[0]
    results = []
    for bw in (16, 128, 160, 1024):  # the kernel's arguments: sizes, block width, input, output
        out = np.empty_like(x)
        kernel(*x.shape, bw, x, out)
        results.append(out)
    for out in results[1:]:
        oracle.assert_same_bits(results[0], out)
    oracle.assert_same_bits(results[0], _compiled(fn, 0)(ast.asarray(x)))


def test_tiers_agree_on_a_standardization():
    x = _data((300, 70), np.float32, 10)
    f = ast.jit(lambda a: standardize(ast, a, 0), tiered=True)
    first = [np.asarray(r) for r in f(ast.asarray(x))]
    assert f.wait_compiled(timeout=300)
    for g, w in zip(f(ast.asarray(x)), first):
        oracle.assert_same_bits(w, g)


@pytest.mark.filterwarnings("ignore:Mean of empty slice")
def test_empty_inputs():
    for shape in ((0, 4), (5, 0)):
        e = np.zeros(shape, np.float32)
        with np.errstate(invalid="ignore"):
            want = e - e.mean(axis=0)
        np.testing.assert_array_equal(np.asarray(_compiled(center, 0)(e)), want)


# ranks 3 and 4, adjacent axes reduced and the last kept: rows of rows (a partial group per row, flushes
# across rows, short rows), kept axes before and after the reduced ones
SHAPES3 = [
    ((3, 70, 33), (0, 1)),
    ((20, 64, 5), (0, 1)),
    ((2, 10, 140), (0, 1)),
    ((65, 3, 130), (0,)),
    ((5, 70, 33), (1,)),
    ((3, 65, 4, 130), (1, 2)),
]


@pytest.mark.parametrize("shape, axes", SHAPES3)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_leading_axes_of_rank_3_add_in_the_kernel_order(shape, axes, dtype):
    x = np.random.default_rng(sum(shape)).standard_normal(shape).astype(dtype) * 100
    x[0, 1] *= 1e6
    axes = tuple(axes)
    got = ast.jit(lambda a: ast.sum(a, axis=axes), tiered=False)(ast.asarray(x))
    oracle.assert_same_bits(kernel_reduce("sum", x, axes), got)
    src = ast.jit(lambda a: ast.sum(a, axis=axes)).lower(ast.asarray(x)).compile().source
    assert "for cb in" in src


@pytest.mark.parametrize("shape, axes", SHAPES3)
def test_rank_3_passes_have_the_bits_of_rows_of_the_transpose(shape, axes):
    x = _data(shape, np.float32, sum(shape))
    r = len(shape)
    back = tuple(d for d in range(r) if d not in axes) + axes  # the reduced axes end the shape
    moved = np.ascontiguousarray(x.transpose(back))
    rows = tuple(range(r - len(axes), r))

    def f(a, axes):
        m = ast.mean(a, axis=axes, keepdims=True)
        return (a - m) / ast.sqrt(ast.mean((a - m) * (a - m), axis=axes, keepdims=True) + 1e-5)

    got = ast.jit(lambda a: f(a, axes), tiered=False)(ast.asarray(x))
    want = ast.jit(lambda a: f(a, rows), tiered=False)(ast.asarray(moved))
    oracle.assert_same_bits(want, np.asarray(got).transpose(back))
    with np.errstate(all="ignore"):
        m = x.astype(np.float64).mean(axis=axes, keepdims=True)
        ref = (x - m) / np.sqrt(((x - m) ** 2).mean(axis=axes, keepdims=True) + 1e-5)
    np.testing.assert_allclose(np.asarray(got), ref, rtol=1e-3, atol=1e-3)


def test_rank_3_max_integer_and_outer_operands():
    x = _data((5, 70, 130), np.float32, 11)
    x[2, 3, 0], x[4, 69, 129] = np.nan, np.inf
    k = np.random.default_rng(12).integers(-9, 9, (5, 70, 130)).astype(np.int64)
    b = np.linspace(-1, 1, 130).astype(np.float32)

    def f(xp, x, k, b):
        return (
            xp.max(x, axis=(0, 1)),
            xp.sum(k, axis=(0, 1)),
            xp.min(x * b, axis=0),
            x - xp.max(x, axis=0),
        )

    got = ast.jit(lambda x, k, b: f(ast, x, k, b), tiered=False)(
        *[ast.asarray(a) for a in (x, k, b)]
    )
    with np.errstate(invalid="ignore"):
        want = f(np, x, k, b)
    for g, w in zip(got, want):
        assert np.asarray(g).dtype == w.dtype
        np.testing.assert_array_equal(np.asarray(g), w)


def test_trailing_kept_axes_merge_into_one_column_axis():
    from arraystack.backends.numba.layouts import collapsed_region

    x = _data((130, 6, 8), np.float32, 13)
    w = np.linspace(-1, 1, 8).astype(np.float32)

    def merged(a):  # every value has both kept axes: they merge
        return a - ast.mean(a, axis=0), ast.sum(a * 2.0, axis=0)

    def per_channel(a, w):  # w has only the last: no merge
        return ast.sum(a * w, axis=0)

    for fn, args in ((merged, (x,)), (per_channel, (x, w))):
        graph = ast.jit(fn).lower(*[ast.asarray(a) for a in args]).optimized
        for fusion in [e for e in graph.eqns if e.prim.name == "fusion"]:
            assert (collapsed_region(fusion.params["graph"]) is None) == (fn is per_channel)
    got = _compiled_plain(merged)(ast.asarray(x))
    oracle.assert_same_bits(kernel_reduce("sum", x * 2, (0,)), got[1])
    with np.errstate(all="ignore"):
        np.testing.assert_allclose(np.asarray(got[0]), x - x.astype(np.float64).mean(0), atol=1e-3)
    strided = _data((130, 12, 8), np.float32, 14)[:, ::2]  # not C order: the merge copies
    got = _compiled_plain(merged)(ast.asarray(strided))
    oracle.assert_same_bits(kernel_reduce("sum", strided * 2, (0,)), got[1])
    got = _compiled_plain(per_channel)(ast.asarray(x), ast.asarray(w))
    oracle.assert_same_bits(kernel_reduce("sum", x * w, (0,)), got)


def _compiled_plain(fn):
    return ast.jit(fn, tiered=False)
