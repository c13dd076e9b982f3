"""argmax/argmin and cumulative equations lowered to CUDA (backends/cupy/cuda_codegen_axis.py): the kernels
compile for sm_80 and sm_90 without spills and, on the CPU harness, equal NumPy: argmax/argmin, integer,
bool, max and min scans bitwise (the first NaN and the first of equal values win, as NumPy's); float sums
and products within the bound of docs/internals/cuda.md (a tiled scan adds in an order of its own; a scan
along an axis that is not the last adds in NumPy's order, to the bit). Each test compiles all its kernels
as one translation unit."""

from __future__ import annotations

import numpy as np
import pytest
from arraystack.backends.cupy import cuda_codegen
from arraystack.backends.cupy.cuda_codegen_axis import ARG_REDUCTIONS, SCANS, TILE
from arraystack.ir.passes.fusion_policy import GENERIC
from arraystack.ir.passes.pipeline import run_pipeline

import arraystack as ast
from tests.backends.cupy.cuda_check import (
    combined,
    compile_for_gpus,
    needs_nvrtc,
    reference,
    run_kernels,
)

pytestmark = needs_nvrtc


def _axis_eqns(fn, x):
    graph = run_pipeline(ast.jit(fn).lower(x).traced, fusion=GENERIC)
    return [e for e in graph.eqns if e.prim in ARG_REDUCTIONS or e.prim in SCANS]


def _as_region(eqn):
    """The equation as a one-equation graph, for cuda_check.reference."""
    from types import SimpleNamespace

    graph = SimpleNamespace(inputs=eqn.inputs, eqns=[eqn], outputs=eqn.outputs)
    return SimpleNamespace(params={"graph": graph})


def _run_all(cases):
    """[(kernel results, NumPy's, the kernel kind)] for each (fn, x, feed) case: every axis equation of
    fn at x, its kernels compiled once for both GPUs (all cases in one source) and run on `feed`."""
    work = []
    for fn, x, feed in cases:
        for eqn in _axis_eqns(fn, x):
            ks = cuda_codegen.lower_region(eqn)
            assert ks is not None, cuda_codegen.why_not(eqn)
            work.append((eqn, ks, feed))
    assert work, "no argmax, argmin or cumulative equation"
    source = combined([ks for _, ks, _ in work])
    compile_for_gpus(source, [name for _, ks, _ in work for name in ks.kernels])
    results = []
    for eqn, ks, feed in work:
        shape = tuple(eqn.inputs[0].aval.shape)
        if feed.shape != shape:  # the operand of a reshape or a slice: feed elements of x
            feed = np.ascontiguousarray(feed).reshape(-1)[: int(np.prod(shape))].reshape(shape)
        feed = feed.astype(eqn.inputs[0].aval.dtype, copy=False)  # the operand of a cast
        got = run_kernels(ks, eqn, [feed], source)
        want = reference(_as_region(eqn), [np.asarray(feed)])
        results.append((got[0], want[0], ks.kind))
    return results


def _cases(fn, *arrays):
    return [(fn, x, x) for x in arrays]


def _floats(dtype, shape, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.integers(-3, 4, shape).astype(dtype)  # many ties
    flat = x.reshape(-1)
    flat[5::97] = np.nan
    flat[7::31] = np.inf
    flat[3::53] = -np.inf
    flat[11::41] = -0.0
    return x


def test_argmax_and_argmin_along_each_axis_and_whole_follow_numpy():
    cases = []
    for dtype in ("float16", "float32", "float64"):
        x = _floats(dtype, (5, 7, 33))
        y = np.abs(_floats(dtype, (6, 300), seed=1))  # NaN free rows too
        y[2] = np.nan_to_num(y[2], nan=1.0)
        for axis in (0, 1, 2, -1):
            cases += _cases(lambda a, axis=axis: (ast.argmax(a, axis), ast.argmin(a, axis)), x)
        cases += _cases(lambda a: (ast.argmax(a, 1), ast.argmin(a, 0)), y)
    rng = np.random.default_rng(2)
    for dtype in ("int8", "uint16", "int32", "int64", "uint64"):
        x = rng.integers(0, 9, (4, 9, 40)).astype(dtype)
        for axis in (0, 2):
            cases += _cases(lambda a, axis=axis: (ast.argmax(a, axis), ast.argmin(a, axis)), x)
    b = rng.random((7, 45)) > 0.7
    cases += _cases(lambda a: (ast.argmax(a, 1), ast.argmin(a, 0), ast.argmax(a)), b)
    for n in (1, 255, 70001):  # whole arrays: one block, several, many partials
        z = rng.standard_normal(n).astype(np.float32)
        z[n // 3 :: 1000] = z.max(initial=0) + 1  # ties at the maximum: the first wins
        cases += _cases(lambda a: (ast.argmax(a), ast.argmin(a)), z)
    z = rng.standard_normal(3000).astype(np.float64)
    z[[2100, 1500, 2500]] = np.nan  # the first NaN wins over a later one and over everything
    cases += _cases(lambda a: (ast.argmax(a), ast.argmin(a)), z)
    kinds = set()
    for got, want, kind in _run_all(cases):
        kinds.add(kind)
        np.testing.assert_array_equal(got, want, strict=True)
    assert kinds == {"whole", "rows", "columns"}


def test_argmax_of_strided_views_and_an_empty_axis():
    x = np.arange(120, dtype=np.float32).reshape(10, 12) % 7
    view = x[::-2, 1::3]
    ((got, want, _),) = _run_all([(lambda a: ast.argmax(a, 0), np.ascontiguousarray(view), view)])
    np.testing.assert_array_equal(got, want, strict=True)
    (eqn,) = _axis_eqns(lambda a: ast.argmax(a, 1), np.ones((3, 4), np.float32))
    ks = cuda_codegen.lower_region(eqn)
    with pytest.raises(ValueError, match="attempt to get argmax of an empty sequence"):
        ks.launches([np.ones((3, 0), np.float32)], [np.empty(3, np.int64)])


def _within_scan_bound(got, want, x, axis, product=False):
    """Each prefix within 2 k eps sum|x| of NumPy's (a product: of |want|), k its length: both orders
    are within (k - 1) eps of the exact value."""
    x64 = np.abs(x.astype(np.float64))
    k = np.cumsum(np.ones_like(x64), axis=axis)
    scale = np.abs(want.astype(np.float64)) if product else np.cumsum(x64, axis=axis)
    bound = 2 * k * np.finfo(x.dtype).eps * scale + np.finfo(x.dtype).tiny
    assert got.dtype == want.dtype and got.shape == want.shape
    assert np.all(np.abs(got.astype(np.float64) - want.astype(np.float64)) <= bound)


def test_integer_bool_max_and_min_scans_are_bitwise_along_each_axis():
    rng = np.random.default_rng(3)
    cases = []
    x = rng.integers(-100, 100, (5, 6, 37)).astype(np.int32)
    x[0, 0, 0] = np.iinfo(np.int32).max  # sums wrap
    long = rng.integers(-3, 4, 3 * TILE + 17).astype(np.int64)  # four tiles: totals, offsets, scan
    for axis in (0, 1, 2):
        cases += _cases(
            lambda a, axis=axis: (
                ast.cumsum(a, axis=axis, dtype=np.int32),
                ast.cumprod(a, axis=axis, dtype=np.int32),
                ast.maximum.accumulate(a, axis=axis),
                ast.minimum.accumulate(a, axis=axis),
            ),
            x,
        )
    cases += _cases(lambda a: (ast.cumsum(a), ast.cumprod(a[:60] % 3 + 1)), long)
    cases += _cases(lambda a: ast.cumsum(a[::-1], axis=1)[::-1], x.astype(np.int8))
    f = _floats("float32", (4, 3 * TILE + 5), seed=4)
    cases += _cases(lambda a: (ast.maximum.accumulate(a, 1), ast.minimum.accumulate(a, 0)), f)
    h = _floats("float16", (3, 50), seed=5)
    cases += _cases(lambda a: (ast.maximum.accumulate(a, 1), ast.minimum.accumulate(a, 1)), h)
    b = rng.random((4, 70)) > 0.8
    cases += _cases(
        lambda a: (ast.logical_or.accumulate(a, 1), ast.logical_and.accumulate(a, 0)), b
    )
    kinds = set()
    for got, want, kind in _run_all(cases):
        kinds.add(kind)
        np.testing.assert_array_equal(got, want, strict=True)
        both_zero = (got == 0) & (want == 0)
        np.testing.assert_array_equal(np.signbit(got[both_zero]), np.signbit(want[both_zero]))
    assert kinds == {"whole", "rows", "columns"}


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_float_sums_and_products_scan_within_the_bound(dtype):
    rng = np.random.default_rng(6)
    x = rng.standard_normal((3, 2 * TILE + 3)).astype(dtype)
    x[1, 7] = -0.0
    near_one = (1 + rng.standard_normal((5, 700)) / 50).astype(dtype)
    results = _run_all(
        [
            (lambda a: ast.cumsum(a, axis=1), x, x),
            (lambda a: ast.cumprod(a, axis=1), near_one, near_one),
            (lambda a: ast.cumsum(a, axis=0), x, x),
            (lambda a: ast.cumsum(a.reshape(-1)), x, x),
        ]
    )
    (rows, rw, _), (prod, pw, _), (cols, cw, kind), (whole, ww, _) = results
    _within_scan_bound(rows, rw, x, 1)
    _within_scan_bound(prod, pw, near_one, 1, product=True)
    assert kind == "columns"  # NumPy's order: the same bits
    np.testing.assert_array_equal(cols, cw, strict=True)
    _within_scan_bound(whole, ww, x.reshape(-1), 0)


def test_scans_give_the_same_bits_on_every_run():
    x = np.random.default_rng(7).standard_normal(5 * TILE).astype(np.float32)
    (first, _, _), (again, _, _) = _run_all(
        [(lambda a: ast.cumsum(a), x, x), (lambda a: ast.cumsum(a), x, x)]
    )
    assert first.tobytes() == again.tobytes()
