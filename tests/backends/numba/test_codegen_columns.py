"""Column reductions (codegen_columns.py): blocks of columns read along their rows, float sums and products
in summation_order.py's order, so the kernel's bits are those of kernel_reduce (and of tier 0) on every
shape, layout and special value; max/min, integer and boolean reductions equal NumPy's."""

from __future__ import annotations

import numpy as np
import pytest
from arraystack.backends.numba.summation_order import kernel_reduce

import arraystack as ast
from tests import oracle

pytestmark = pytest.mark.numba

# short columns, one group, a group and one, 16 groups (a flush) with and without a partial group, a
# partial group that is the 16th, several blocks of columns (128 each) and a partial block
SHAPES = [(1, 5), (63, 130), (64, 1), (65, 129), (96, 17), (127, 200), (128, 5), (1024, 3), (1025, 255),
          (1023, 2), (1093, 131)]  # fmt: skip
# 1025 x 257 reaches PARALLEL_THRESHOLD (2**18 elements): the kernel's parallel variant (the same body;
# a parallel compile takes about three times as long, so one test of each kind runs it)
PARALLEL = (1025, 257)


def _compiled(fn):
    return ast.jit(fn, tiered=False)


def _source(fn, *args):
    return ast.jit(fn).lower(*[ast.asarray(a) for a in args]).compile().source


def _data(shape, dtype, seed):
    x = np.random.default_rng(seed).standard_normal(shape).astype(dtype) * 100
    x[0, 0] = -0.0
    if shape[0] > 2:
        x[1, :] *= 1e30 if dtype == np.float64 else 1e6  # large values: the order shows in the bits
    return x


@pytest.mark.parametrize(
    "n0, n1, dtype",
    [(*s, d) for s in SHAPES for d in (np.float32, np.float64)] + [(*PARALLEL, np.float32)],
)
def test_column_sums_add_in_the_kernel_order(n0, n1, dtype):
    x = _data((n0, n1), dtype, n0 * 7 + n1)
    got = _compiled(lambda a: ast.sum(a, axis=0))(ast.asarray(x))
    oracle.assert_same_bits(kernel_reduce("sum", x, (0,)), got)
    np.testing.assert_allclose(
        np.asarray(got), x.astype(np.float64).sum(axis=0), rtol=1e-5, atol=1e-3
    )


@pytest.mark.parametrize("n0, n1", [(65, 129), PARALLEL])
def test_several_sums_of_computed_values_with_outer_operands_and_strides(n0, n1):
    x = _data((n0, 2 * n1), np.float32, 3)[:, ::2]  # strided
    y = np.asfortranarray(_data((n0, n1), np.float32, 4))  # F order
    b = np.linspace(-1, 1, n1).astype(np.float32)

    def f(x, y, b):
        return ast.sum(x * y + b, axis=0), ast.mean(x, axis=0) * 2.0

    s, m = _compiled(f)(ast.asarray(x), ast.asarray(y), ast.asarray(b))
    oracle.assert_same_bits(kernel_reduce("sum", x * y + b, (0,)), s)
    want_mean = (kernel_reduce("sum", x, (0,)).astype(np.float64) / n0).astype(np.float32) * 2
    np.testing.assert_allclose(np.asarray(m), want_mean, rtol=2e-7)
    assert "for cb in" in _source(lambda x, y, b: ast.sum(x * y + b, axis=0), x, y, b)


def test_special_values_and_empty_inputs():
    x = _data((200, 9), np.float32, 5)
    x[3, 0], x[5, 1], x[7, 2], x[9, 2] = np.nan, np.inf, np.inf, -np.inf
    got = np.asarray(_compiled(lambda a: ast.sum(a, axis=0))(ast.asarray(x)))
    want = kernel_reduce("sum", x, (0,))
    assert np.isnan(got[0]) and got[1] == np.inf and np.isnan(got[2])
    oracle.assert_same_bits(want[3:], got[3:])
    for shape in ((0, 4), (5, 0)):
        e = np.zeros(shape, np.float32)
        np.testing.assert_array_equal(
            np.asarray(_compiled(lambda a: ast.sum(a, axis=0))(e)), e.sum(0)
        )


# sequential, one group (and a partial one), lanes
@pytest.mark.parametrize("n0", [40, 64, 100, 127, 300])
def test_signed_zeros_and_specials_in_columns_of_every_length(n0):
    x = _data((n0, 6), np.float32, n0)
    x[:, 0] = -0.0  # NumPy: -0.0; the kernel order starts from +0.0, as its twin does
    x[n0 // 2, 1], x[n0 - 1, 2], x[0, 3], x[1, 3] = np.nan, np.inf, np.inf, -np.inf
    got = np.asarray(_compiled(lambda a: ast.sum(a, axis=0))(ast.asarray(x)))
    oracle.assert_same_bits(kernel_reduce("sum", x, (0,)), got)
    assert np.isnan(got[1]) and got[2] == np.inf and np.isnan(got[3])


def test_tiers_agree_on_a_bias_gradient():
    x = _data((300, 70), np.float32, 6)
    f = ast.jit(lambda a: ast.sum(a * 2.0, axis=0), tiered=True)
    first = np.asarray(f(ast.asarray(x)))
    assert f.wait_compiled(timeout=300)
    oracle.assert_same_bits(first, np.asarray(f(ast.asarray(x))))


@pytest.mark.parametrize("n0, n1", [(1, 5), (65, 129), (1025, 255)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_column_products_multiply_in_the_kernel_order(n0, n1, dtype):
    x = (1 + np.random.default_rng(n0 + n1).standard_normal((n0, n1)) / 50).astype(dtype)
    got = _compiled(lambda a: ast.prod(a, axis=0))(ast.asarray(x))
    oracle.assert_same_bits(kernel_reduce("prod", x, (0,)), got)


@pytest.mark.parametrize("n0, n1", [(1, 5), (63, 130), (1025, 255)])
def test_column_max_min_integer_and_boolean_reductions_equal_numpy(n0, n1):
    x = _data((n0, n1), np.float32, n0 + 2 * n1)
    x[n0 // 2, 0], x[-1, 1] = np.nan, np.inf
    k = np.random.default_rng(n1).integers(-1000, 1000, (n0, n1)).astype(np.int32)

    def f(x, k):
        return (
            ast.max(x, axis=0),
            ast.min(x, axis=0),
            ast.sum(k, axis=0),
            ast.max(k, axis=0),
            ast.sum(x > 0, axis=0),
            ast.all(x > -300, axis=0),
            ast.any(k > 990, axis=0),
        )

    got = _compiled(f)(ast.asarray(x), ast.asarray(k))
    with np.errstate(invalid="ignore"):
        want = (
            x.max(0),
            x.min(0),
            k.sum(0),
            k.max(0),
            (x > 0).sum(0),
            (x > -300).all(0),
            (k > 990).any(0),
        )
    for g, w in zip(got, want):
        g = np.asarray(g)
        assert g.dtype == w.dtype
        np.testing.assert_array_equal(g, w)
    assert "for cb in" in _source(lambda a: ast.max(a, axis=0), x)


def test_row_reductions_keep_the_staged_loops():
    x = np.ones((70, 9), np.float32)
    assert "for cb in" not in _source(lambda a: ast.sum(a, axis=1), x)
    assert "for cb in" not in _source(lambda a: a - ast.mean(a, axis=1, keepdims=True), x)


def test_one_group_sums_make_three_fold_levels_with_their_lanes():
    # 64-127 rows: the lanes of j, j + 8, ..., j + 56 fold as they are made (8 lanes kept, not 64)
    x = np.ones((96, 17), np.float32)
    src = _source(lambda a: ast.sum(a, axis=0), x)
    assert "two7 = k7 + np.uint64(64) < np.uint64(n0)" in src
    assert "acc_v1_w[j, c] = (((acc_v1_t0 + acc_v1_t4) + (acc_v1_t2 + acc_v1_t6))" in src

    def column_softmax(a):  # its sum's pass also stashes the exps: rows are read once, as before
        e = ast.exp(a - ast.max(a, axis=0))
        return e / ast.sum(e, axis=0)

    assert "two0" not in _source(column_softmax, x)
