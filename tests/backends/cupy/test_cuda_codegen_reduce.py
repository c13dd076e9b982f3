"""Reducing fusion regions lowered to CUDA (backends/cupy/cuda_codegen_reduce.py): rows, columns and
whole-array kernels compile for sm_80 and sm_90 without spills and, on the CPU harness, equal NumPy:
bitwise for integer, bool, max and min; float sums within the summation error bound (the kernels add in
a fixed order of their own, NumPy pairwise)."""

from __future__ import annotations

import numpy as np
import pytest
from arraystack.backends.cupy import cuda_codegen

import arraystack as ast
from tests.backends.cupy.cuda_check import (
    combined,
    compile_for_gpus,
    fusion_eqns,
    load,
    needs_nvrtc,
    reference,
    run_kernels,
)

pytestmark = needs_nvrtc


def _run(fn, *arrays, kind=None, inputs=None):
    """(kernel results, reference results) of the single region of fn; its kernels compiled for both
    GPUs first."""
    (eqn,) = fusion_eqns(fn, *arrays)
    ks = cuda_codegen.lower_region(eqn)
    assert ks is not None, cuda_codegen.why_not(eqn)
    if kind is not None:
        assert ks.kind == kind
    source = combined([ks])
    compile_for_gpus(source, ks.kernels)
    feed = list(inputs or arrays)
    return run_kernels(ks, eqn, feed, source), reference(eqn, feed)


def _same(got, want):
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w, strict=True)


def _same_on_a_view(fn, view, kind="columns"):
    """The kernel reads the strided view itself (traced at a contiguous copy of it): NumPy's bits."""
    _same(*_run(fn, np.ascontiguousarray(view), kind=kind, inputs=[view]))


def _within_sum_bound(got, want, x, axis):
    """|got - want| <= 2 n eps sum|x| (both orders are within n eps sum|x| of the exact sum)."""
    eps = np.finfo(x.dtype).eps
    n = x.size if axis is None else np.prod([x.shape[a] for a in np.atleast_1d(axis)])
    bound = 2 * n * eps * np.sum(np.abs(x.astype(np.float64)), axis=axis) + np.finfo(x.dtype).tiny
    assert got.dtype == want.dtype and got.shape == want.shape
    assert np.all(np.abs(got.astype(np.float64) - want.astype(np.float64)) <= bound)


@pytest.mark.parametrize("axis", [0, 1, 2, (0, 2), None])
def test_integer_and_bool_reductions_along_each_axis_are_bitwise(axis):
    rng = np.random.default_rng(0)
    x = rng.integers(-120, 120, (5, 7, 33)).astype(np.int32)
    x[0, 0, 0] = np.iinfo(np.int32).max  # sums wrap
    got, want = _run(lambda a: ast.sum(a * a, axis=axis, dtype=np.int32) + 1, x)
    _same(got, want)
    got, want = _run(lambda a, axis=axis: ast.max(a, axis=axis) - ast.min(a, axis=axis), x)
    _same(got, want)
    got, want = _run(lambda a: ast.any(a > 100, axis=axis) & ast.all(a > -119, axis=axis), x)
    _same(got, want)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_float_max_and_min_propagate_nan_and_sums_stay_in_the_bound(dtype):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((6, 37)).astype(dtype)
    x[2, 5] = np.nan
    x[3, :] = -np.inf
    x[4, 7] = 1e-40 if dtype != "float16" else 1e-7  # a denormal
    for axis in (0, 1):
        got, want = _run(
            lambda a, axis=axis: ast.max(a, axis=axis), x, kind="columns" if axis == 0 else "rows"
        )
        _same(got, want)
        got, want = _run(lambda a, axis=axis: ast.min(a, axis=axis), x)
        _same(got, want)
    y = np.nan_to_num(x, neginf=0.0)
    for axis in (0, 1, None):
        (got,), (want,) = _run(lambda a, axis=axis: ast.sum(a, axis=axis), y)
        _within_sum_bound(got, want, y, axis)


def test_whole_array_sum_of_squares_two_passes_and_odd_sizes():
    rng = np.random.default_rng(2)
    for n in (1, 255, 257, 70001):
        x = rng.standard_normal(n).astype(np.float32)
        (got,), (want,) = _run(lambda a: ast.sum(a * a), x, kind="whole")
        _within_sum_bound(got, want, x * x, None)
    x = rng.integers(0, 3, (3, 1001)).astype(np.int64)
    _same(*_run(lambda a: ast.sum(a * 3), x, kind="whole"))
    _same(*_run(lambda a: ast.prod(a[:1, :30] + 1), x))


def test_softmax_and_layernorm_rows():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((9, 301)).astype(np.float32)
    x[1] *= 200
    x[2, 3] = np.inf

    def softmax(a):
        e = ast.exp(a - ast.max(a, axis=-1, keepdims=True))
        return e / ast.sum(e, axis=-1, keepdims=True)

    def layernorm(a):
        mu = ast.mean(a, axis=-1, keepdims=True)
        d = a - mu
        return d / ast.sqrt(ast.mean(d * d, axis=-1, keepdims=True) + 1e-5)

    for fn, tol in ((softmax, 1e-6), (layernorm, 2e-5)):
        (got,), (want,) = _run(fn, x[3:] if fn is layernorm else x, kind="rows")
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol)
        assert np.array_equal(np.isnan(got), np.isnan(want))


def test_column_reductions_of_strided_inputs_and_zero_sizes():
    rng = np.random.default_rng(4)
    base = rng.integers(-50, 50, (10, 16)).astype(np.int16)
    _same_on_a_view(lambda a: ast.sum(a, axis=0, dtype=np.int16) * 2, base[::-3, ::2])
    empty = np.zeros((0, 5), np.float32)
    _same(*_run(lambda a: ast.sum(a, axis=0) + 1.0, empty))  # sums of nothing: 0
    _same(*_run(lambda a: ast.prod(a, axis=1), np.zeros((4, 0), np.float64)))
    one = np.full((1, 1), 3.5, np.float32)
    _same(*_run(lambda a: ast.max(a, axis=1), one))


def test_max_of_an_empty_axis_raises_numpys_error():
    (eqn,) = fusion_eqns(lambda a: ast.max(a * 2.0, axis=1), np.ones((3, 4), np.float32))
    ks = cuda_codegen.lower_region(eqn)
    with pytest.raises(ValueError, match="zero-size array to reduction operation maximum"):
        ks.launches([np.ones((3, 0), np.float32)], [np.empty(3, np.float32)])


def test_reductions_give_the_same_bits_on_every_run():
    x = np.random.default_rng(5).standard_normal(5000).astype(np.float32)
    first, _ = _run(lambda a: ast.sum(ast.exp(a)), x)
    again, _ = _run(lambda a: ast.sum(ast.exp(a)), x)
    assert first[0].tobytes() == again[0].tobytes()


def test_few_long_columns_are_split_over_a_block_and_stay_within_numpys_bounds():
    from arraystack.backends.cupy.cuda_codegen_reduce import (
        SPLIT_BLOCKS,
        SPLIT_MIN_ELEMENTS,
        split_columns,
    )

    rng = np.random.default_rng(5)
    n = SPLIT_MIN_ELEMENTS + 773  # an odd number of elements per column, 7, 40 and 128 columns
    x = rng.standard_normal((n, 7)).astype(np.float32)
    x[100, 2], x[n - 1, 3] = np.nan, np.inf
    wide = rng.integers(-1000, 1000, (n, 40)).astype(np.int32)
    (eqn,) = fusion_eqns(lambda a: ast.sum(a, axis=0), x)
    ks = cuda_codegen.lower_region(eqn)
    (launch,) = ks.launches([x], [np.empty(7, np.float32)])
    # 4 columns per block, 64 threads each: two blocks, the second's last column computed and not stored
    assert ks.kind == "columns" and launch.block == (4, 64) and launch.grid == (2,)
    assert [split_columns(c) for c in (7, 128, 4 * SPLIT_BLOCKS, 16 * SPLIT_BLOCKS, 10**5)] == [
        4, 4, 4, 16, 32
    ]  # fmt: skip
    bias = rng.standard_normal((n, 128)).astype(np.float32)
    (got,), (want,) = _run(lambda a: ast.sum(a, axis=0), bias, kind="columns")
    _within_sum_bound(got, want, bias, 0)
    _same(*_run(lambda a: ast.sum(a, axis=0), np.round(bias * 100).astype(np.int32), kind="columns"))
    # float sums and a full output beside them (x - mean): within the bound; NaN, inf where NumPy has
    # them; max and min of floats, integer sums and bool reductions: NumPy's bits
    (total,), (want_total,) = _run(lambda a: ast.sum(a, axis=0), x, kind="columns")
    (centered,), (want_centered,) = _run(lambda a: a - ast.mean(a, axis=0), x, kind="columns")
    finite = np.isfinite(want_total)
    _within_sum_bound(total[finite], want_total[finite], x[:, finite], 0)
    np.testing.assert_array_equal(np.isnan(total), np.isnan(want_total))
    np.testing.assert_allclose(centered[:, finite], want_centered[:, finite], rtol=1e-4, atol=1e-4)
    _same(*_run(lambda a: ast.max(a, axis=0) - ast.min(a, axis=0), x, kind="columns"))
    _same(*_run(lambda a: ast.sum(a, axis=0), wide, kind="columns"))
    _same(*_run(lambda a: ast.any(a > 990, axis=0), wide, kind="columns"))
    # complex max: NumPy's element (the first NaN of a column, else the first of equal maxima)
    z = (x[:, :3] + 1j * np.round(x[:, 3:6])).astype(np.complex64)
    z[900, 0], z[50, 0] = complex(np.nan, 1), complex(1, np.nan)
    z[7, 1] = z[1500, 1] = 99 + 2j
    _same(*_run(lambda a: ast.max(a, axis=0), z, kind="columns"))
    # a strided operand: every other row of a (2n, 40) array, columns reversed
    base = rng.integers(-9, 9, (2 * n, 40)).astype(np.int16)
    _same_on_a_view(lambda a: ast.sum(a, axis=0, dtype=np.int64) * 3, base[::2, ::-1])


def test_a_small_whole_reduction_is_one_launch_with_the_bits_of_two():
    """Up to ONE_BLOCK elements the partial kernel's one block writes the outputs; the final kernel,
    run after it on its partial result, writes the same bits."""
    from arraystack.backends.cupy.cuda_codegen_reduce import BLOCK, ONE_BLOCK

    rng = np.random.default_rng(6)
    x = rng.standard_normal(ONE_BLOCK).astype(np.float32)
    x[17] = -0.0
    z = (1 + rng.standard_normal(300) / 9 + 1j * rng.standard_normal(300) / 9).astype(np.complex64)
    cases = [
        (lambda a: ast.mean(a) * 2.0 + 1.0, x),
        (lambda a: ast.max(a * a), x),
        (lambda a: ast.sum(a.astype(np.float16) * 2), x[:1000]),
        (lambda a: ast.prod(a), z),
        (lambda a: ast.max(a), np.array([-0.0, 0.0, -0.0], np.float32)),
        (lambda a: ast.sum(a), np.zeros(0, np.float64)),
    ]
    for fn, a in cases:
        (eqn,) = fusion_eqns(fn, a)
        ks = cuda_codegen.lower_region(eqn)
        assert ks.kind == "whole"
        source = combined([ks])
        compile_for_gpus(source, ks.kernels)
        scratch = [np.empty(shape, dtype) for shape, dtype in ks.scratch([a])]
        outs = [np.empty(v.aval.shape, v.aval.dtype) for v in eqn.outputs]
        (launch,) = ks.launches([a], outs, scratch)
        assert launch.grid == (1,) and launch.kernel == ks.kernels[0]
        load(source, launch)(launch.grid, launch.block, launch.args, 0)
        again = [np.empty_like(o) for o in outs]
        (twin,) = ks.launches([a], again, scratch)
        load(source, twin._replace(kernel=ks.kernels[1]))((1,), (BLOCK,), twin.args, 0)
        for o, g, w in zip(outs, again, reference(eqn, [a])):
            assert o.tobytes() == g.tobytes()
            np.testing.assert_allclose(o, w, rtol=2e-3 if o.dtype == np.float16 else 1e-5)
    big = np.ones(ONE_BLOCK + 1, np.float32)
    (eqn,) = fusion_eqns(lambda a: ast.sum(a), big)
    ks = cuda_codegen.lower_region(eqn)
    scratch = [np.empty(shape, dtype) for shape, dtype in ks.scratch([big])]
    assert len(ks.launches([big], [np.empty((), np.float32)], scratch)) == 2
