"""Reductions in generated numba kernels on special values: NaN anywhere, infinities, odd lengths."""

from __future__ import annotations

import numpy as np
import pytest

import arraystack as ast
from tests import oracle

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


@pytest.mark.parametrize("parallel", [False, True])
@pytest.mark.parametrize("shape", [(7, 13), (5, 0), (3, 1031), (2, 9, 17)])
@pytest.mark.parametrize("name", ["any", "all"])
def test_any_and_all_kernels_match_numpy(name, shape, parallel):
    """Rows all true, all false, one true among false (first, last), NaN (true) among zeros; whole arrays."""
    x = np.zeros(shape)
    if x.size:
        rows = x.reshape(-1, shape[-1])
        rows[1::4] = 1.0
        rows[2::4, 0] = np.nan
        rows[3::4, -1] = -2.0
    for axis in (-1, None):
        fn = lambda a, axis=axis: getattr(ast, name)(a, axis=axis)  # noqa: E731
        for b in (x != 0, x == 0):  # a boolean argument: the kernel's own input
            (got,) = _kernel_step_for(fn, b, parallel)(b)
            want = getattr(np, name)(b, axis=axis)
            np.testing.assert_array_equal(np.asarray(got).reshape(np.shape(want)), want)
        np.testing.assert_array_equal(np.asarray(ast.jit(fn)(x)), getattr(np, name)(x, axis=axis))


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


# --- the kernels' float sums and products against their NumPy twin, bit for bit (summation_order.py)


def _kernel_step_for(fn, x, parallel):
    from arraystack.backends.numba import _kernel_step
    from arraystack.ir.control import fusion_p

    regions = [e for e in ast.jit(fn).lower(x).optimized.eqns if e.prim is fusion_p]
    assert len(regions) == 1
    step, _, _ = _kernel_step(
        regions[0], ast.config.cache_dir, threshold=0 if parallel else 1 << 62
    )
    return step


def _mixed(shape, dtype, kind, seed, specials=False):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape) * 10.0 ** rng.integers(-3, 4, shape)
    if kind == "prod":
        x = 1.0 + x * 1e-3
    x = x.astype(dtype)
    if specials and x.size:
        flat = x.reshape(-1)
        flat[rng.integers(0, x.size, 3)] = -0.0
        flat[rng.integers(0, x.size, 2)] = np.inf
        flat[rng.integers(0, x.size, 1)] = -np.inf
        flat[rng.integers(0, x.size, 1)] = np.nan
    return x


# per (rank, reduced axes): the shapes run through one compiled kernel (kernels are shape-generic)
KERNEL_CASES = [
    ((0,), [(0,), (1,), (63,), (64,), (65,), (255,), (257,), (4031,), (4090,), (100_003,)]),
    ((1,), [(3, 1), (7, 64), (5, 1025), (2, 0), (300, 17)]),
    ((0,), [(1, 5), (300, 7), (4097, 3), (0, 2)]),
    ((0, 1), [(1, 1), (7, 300), (70, 65), (100, 1030), (0, 3)]),
]
# reduced axes of a 3-d region: (kept axes between or around reduced ones) and whether it runs parallel
KERNEL_CASES_3D = [((1,), False), ((0, 2), False), ((1, 2), False), ((0, 1, 2), True)]


def _check_kernel_against_twin(kind, dtype, axes, shapes, parallel, specials=True):
    from arraystack.backends.numba.summation_order import kernel_reduce

    reduce = ast.sum if kind == "sum" else ast.prod
    for k, shape in enumerate(shapes):
        x = _mixed(shape, dtype, kind, seed=k + sum(shape), specials=specials and k % 2 == 1)
        step = _kernel_step_for(lambda a: reduce(a, axis=axes), x, parallel)
        with np.errstate(all="ignore"):
            want = kernel_reduce(kind, x, axes)
        oracle.assert_bitwise(step(x)[0], want)


# (kind, dtype, parallel): each order path, both loop forms (sums in float64 parallel: the 3-d test)
FLAVOURS = [
    ("sum", np.float32, True),
    ("sum", np.float64, False),
    ("prod", np.float32, False),
    ("prod", np.float64, True),
]


@pytest.mark.parametrize("kind, dtype, parallel", FLAVOURS)
@pytest.mark.parametrize("axes, shapes", KERNEL_CASES)
def test_kernel_sums_and_products_equal_their_numpy_twin_bit_for_bit(
    axes, shapes, kind, dtype, parallel
):
    _check_kernel_against_twin(kind, dtype, axes, shapes, parallel)


@pytest.mark.parametrize("axes, parallel", KERNEL_CASES_3D)
def test_3d_kernel_sums_equal_their_twin(axes, parallel):
    shapes = [(3, 70, 130), (5, 1, 7), (66, 2, 3), (2, 3, 1100)]
    _check_kernel_against_twin("sum", np.float32, axes, shapes, parallel)


def test_kernels_see_non_contiguous_inputs_as_the_twin_does():
    from arraystack.backends.numba.summation_order import kernel_reduce

    base = _mixed((40, 600), np.float32, "sum", seed=9)
    for x, axes in [(base[:, ::3], (1,)), (base.T, (0,)), (base[::2, 1:], (0, 1))]:
        step = _kernel_step_for(lambda a, axes=axes: ast.sum(a, axis=axes), x, parallel=True)
        oracle.assert_bitwise(step(x)[0], kernel_reduce("sum", x, axes))


def test_kernel_sum_does_not_depend_on_the_thread_count():
    import numba
    from arraystack.backends.numba.summation_order import kernel_reduce

    x = _mixed((1_000_003,), np.float32, "sum", seed=4)
    step = _kernel_step_for(lambda a: ast.sum(a * a), x, parallel=True)
    want = kernel_reduce("sum", x * x, (0,))
    before = numba.get_num_threads()
    try:
        for threads in sorted({1, before}):
            numba.set_num_threads(threads)
            oracle.assert_bitwise(step(x)[0], want)
    finally:
        numba.set_num_threads(before)


@pytest.mark.parametrize("dtype, parallel", [(np.float32, True), (np.float64, False)])
def test_reduced_expressions_equal_their_twin(dtype, parallel):
    """sum of squares, softmax's sum of exp, layernorm's mean and variance: the whole outputs match a
    NumPy computation that reduces through the twin (elementwise steps round alike in both)."""
    import numba
    from arraystack.backends.numba.mathlib.exp_log import exp_f32, exp_f64
    from arraystack.backends.numba.summation_order import kernel_reduce

    exp = exp_f32 if dtype == np.float32 else exp_f64

    @numba.njit
    def exp_shifted(x, m):  # the kernel's exp, elementwise
        out = np.empty_like(x)
        for i in range(x.shape[0]):
            for j in range(x.shape[1]):
                out[i, j] = exp(x[i, j] - m[i])
        return out

    x = _mixed((300, 1024), dtype, "sum", seed=5)  # 1/1024 is exact: mean's * (1/n) == / n
    x[7, 3] = np.nan
    x[8, 4] = -np.inf
    sq = _kernel_step_for(lambda a: ast.sum(a * a, axis=1), x, parallel)
    oracle.assert_bitwise(sq(x)[0], kernel_reduce("sum", x * x, (1,)))

    def softmax(a):
        e = ast.exp(a - ast.max(a, axis=-1, keepdims=True))
        return e / ast.sum(e, axis=-1, keepdims=True)

    with np.errstate(all="ignore"):
        e = exp_shifted(x, np.max(x, axis=1))
        want = e / kernel_reduce("sum", e, (1,))[:, None]
    oracle.assert_bitwise(_kernel_step_for(softmax, x, parallel)(x)[0], want)

    def layernorm(a):
        mu = ast.mean(a, axis=-1, keepdims=True)
        d = a - mu
        var = ast.mean(d * d, axis=-1, keepdims=True)
        return d / ast.sqrt(var + 1e-5)

    n = x.shape[1]
    with np.errstate(all="ignore"):
        mu = kernel_reduce("sum", x, (1,)) / dtype(n)
        d = x - mu[:, None]
        var = kernel_reduce("sum", d * d, (1,)) / dtype(n)
        want = d / np.sqrt(var + dtype(1e-5))[:, None]
    oracle.assert_bitwise(_kernel_step_for(layernorm, x, parallel)(x)[0], want)
