"""NumPy parity of the sorting family (_sorting/sorting.py): sort, argsort, lexsort, partition,
argpartition, searchsorted, digitize and the ndarray methods; eager, traced, under jit and vmap."""

from __future__ import annotations

import numpy
import pytest

import arraystack

DTYPES = ["bool", "int8", "uint8", "int32", "int64", "float16", "float32", "float64", "complex128"]
SHAPES = [(0,), (7,), (3, 5), (2, 3, 4)]


def make(shape, dtype, seed=0, nan=True, ties=False):
    """Deterministic data: small ranges for ties; NaNs (also in one complex part) for inexact dtypes."""
    rng = numpy.random.default_rng(seed)
    dtype = numpy.dtype(dtype)
    if dtype.kind == "b":
        return rng.random(shape) > 0.5
    if dtype.kind in "iu":
        return rng.integers(0 if dtype.kind == "u" else -4, 4 if ties else 100, shape).astype(dtype)
    x = rng.integers(-3, 3, shape) if ties else rng.standard_normal(shape)
    if dtype.kind == "c":
        x = x + 1j * (rng.integers(-2, 2, shape) if ties else rng.standard_normal(shape))
    x = numpy.asarray(x).astype(dtype)
    if nan and x.size > 2:
        x.flat[1] = numpy.nan
        x.flat[-1] = complex(1, numpy.nan) if dtype.kind == "c" else numpy.nan
    if dtype.kind == "f" and x.size > 4:
        x.flat[3], x.flat[4] = -0.0, 0.0
    return x


def _axes(shape):
    return [-1, 0, None] if len(shape) > 1 else [-1, None]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", DTYPES)
def test_sort_argsort(parity, dtype, shape):
    x = make(shape, dtype, ties=True)
    for axis in _axes(shape):
        parity(lambda xp, x, axis=axis: xp.sort(x, axis=axis), x, rtol=0)
        parity(lambda xp, x, axis=axis: xp.argsort(x, axis=axis, stable=True), x)
        parity(lambda xp, x, axis=axis: xp.argsort(x, axis=axis, kind="stable"), x)


@pytest.mark.parametrize("kind", [None, "quicksort", "heapsort", "mergesort"])
@pytest.mark.parametrize("dtype", ["int16", "float32", "float64"])
def test_argsort_kinds_give_numpys_order_of_ties(parity, dtype, kind):
    x = make((3, 40), dtype, seed=2, ties=True)  # long rows: introsort and heapsort reorder ties
    parity(lambda xp, x: xp.argsort(x, kind=kind), x)
    parity(lambda xp, x: xp.argsort(x, axis=0, kind=kind), x)
    parity(lambda xp, x: xp.sort(x, kind=kind), x)


def test_sort_edge_cases(parity):
    parity(lambda xp, x: xp.sort(x), numpy.array(3.0))
    parity(lambda xp, x: xp.sort(x, axis=None), numpy.array(3.0))
    parity(lambda xp, x: xp.argsort(x), numpy.array(3.0))
    parity(lambda xp, x: xp.argsort(x, axis=0), numpy.array(3.0))
    parity(lambda xp, x: xp.argsort(x, axis=5), numpy.array(3.0))
    parity(lambda xp, x: xp.sort(x, axis=2), numpy.ones((2, 2)))
    parity(lambda xp, x: xp.sort(x, kind="foo"), numpy.ones(3))
    parity(lambda xp, x: xp.sort(x, kind="stable", stable=True), numpy.ones(3))
    parity(lambda xp, x: xp.sort(x, order="f0"), numpy.ones(3))
    parity(lambda xp, x: xp.sort([3, 1, 2]), numpy.ones(3))
    parity(lambda xp, x: xp.sort(x), numpy.array([numpy.inf, numpy.nan, -numpy.inf, 0.0]))


def test_lexsort(parity):
    a, b = make((12,), "int8", ties=True), make((12,), "float64", seed=1, ties=True)
    parity(lambda xp, a, b: xp.lexsort((a, b)), a, b)
    parity(lambda xp, a, b: xp.lexsort((b, a, b)), a, b)
    parity(lambda xp, a: xp.lexsort(a), make((3, 10), "int32", ties=True))
    parity(lambda xp, a: xp.lexsort((a,), axis=0), make((6, 4), "float32", ties=True))
    parity(lambda xp, a: xp.lexsort((a, a), axis=-1), make((2, 3, 4), "int64", ties=True))
    parity(lambda xp, a: xp.lexsort(a), numpy.array([3, 1, 2]))
    parity(lambda xp, a: xp.lexsort((a,)), numpy.array(2.0), traced=False)
    parity(lambda xp, a, b: xp.lexsort((a, b[:3])), a, b, traced=False)
    parity(lambda xp: xp.lexsort([]))


@pytest.mark.parametrize("dtype", ["int8", "uint8", "float32", "float64", "complex128"])
def test_partition_argpartition(parity, dtype):
    x = make((4, 9), dtype, ties=True)
    for kth, axis in ((3, -1), ((1, 5), -1), (-2, -1), (2, 0), (4, None)):
        parity(lambda xp, x, kth=kth, axis=axis: xp.partition(x, kth, axis=axis), x, rtol=0)
        parity(lambda xp, x, kth=kth, axis=axis: xp.argpartition(x, kth, axis=axis), x)


def test_partition_errors(parity):
    x = numpy.arange(5.0)
    parity(lambda xp, x: xp.partition(x, 5), x)
    parity(lambda xp, x: xp.partition(x, -6), x)
    parity(lambda xp, x: xp.partition(x, 1, kind="quick"), x)
    parity(lambda xp, x: xp.partition(x, 0), numpy.array(1.0))
    parity(lambda xp, x: xp.argpartition(x, 0, axis=None), numpy.array(1.0))
    parity(lambda xp, x: xp.argpartition(x, 0), numpy.array(1.0))
    parity(lambda xp, x: xp.argpartition(x, 0, axis=3), numpy.array(1.0))
    parity(lambda xp, x: xp.argpartition(x, 1), numpy.array(1.0))


@pytest.mark.parametrize("side", ["left", "right"])
@pytest.mark.parametrize("dtype", ["int8", "uint8", "float32", "float64", "complex128"])
def test_searchsorted(parity, dtype, side):
    a = numpy.sort(make((9,), dtype, ties=True))
    v = make((3, 4), dtype, seed=3, ties=True)
    parity(lambda xp, a, v: xp.searchsorted(a, v, side=side), a, v)
    parity(lambda xp, a, v: xp.searchsorted(a, v[0, 0], side=side), a, v)
    order = numpy.argsort(a[::-1], kind="stable")
    parity(lambda xp, a, v, s: xp.searchsorted(a, v, side, sorter=s), a[::-1].copy(), v, order)
    parity(lambda xp, a, v: a.searchsorted(v, side=side), a, v)


def test_searchsorted_promotion_and_errors(parity):
    a = numpy.array([1, 2, 3], dtype=numpy.int8)
    parity(lambda xp, a: xp.searchsorted(a, 1000), a)
    parity(lambda xp, a: xp.searchsorted(a, 2.5), a)
    parity(lambda xp, a: xp.searchsorted(a, [-1000, 2]), a)
    parity(lambda xp, a: xp.searchsorted(a, 2, side="R"), a)
    parity(lambda xp, a: xp.searchsorted(a, 2, side="middle"), a)
    parity(lambda xp, a: xp.searchsorted(a[0], 2), a)
    parity(lambda xp, a: xp.searchsorted(a.reshape(3, 1), 2), a)
    parity(lambda xp, a: xp.searchsorted(a, 2, sorter=[0, 1]), a)


@pytest.mark.parametrize("right", [False, True])
def test_digitize(parity, right):
    x = numpy.array([-1.0, 0.0, 0.5, 1.0, 2.5, numpy.nan, 7.0])
    for bins in ([0.0, 1.0, 2.5], [2.5, 1.0, 0.0], [1.0, 1.0, 2.0], [3.0, 3.0, 1.0], [1.0], []):
        parity(lambda xp, x, b: xp.digitize(x, b, right=right), x, numpy.array(bins))
    parity(lambda xp, x: xp.digitize(x, numpy.array([0.0, 2.0, 1.0])), x)
    parity(lambda xp, x: xp.digitize(x, numpy.array([[0.0, 2.0]])), x)
    parity(lambda xp, x: xp.digitize(x + 1j, numpy.array([0.0, 2.0])), x)
    parity(lambda xp, x: xp.digitize(1.5, x[:2]), x)
    parity(lambda xp: xp.digitize(numpy.array([1, 5, 9]), numpy.array([0, 4, 8])))


def test_methods_sort_in_place_through_views():
    for xp in (numpy, arraystack):
        x = xp.asarray(make((3, 5), "float64"))
        view = x[1]
        x.sort(axis=1)
        y = xp.asarray(make((8,), "int32", ties=True))
        y.partition(3)
        yield_ = (numpy.asarray(x), numpy.asarray(view), numpy.asarray(y))
        if xp is numpy:
            expected = yield_
    for e, g in zip(expected, yield_):
        numpy.testing.assert_array_equal(e, g)


def test_methods(parity):
    x = make((3, 6), "float32", ties=True)
    parity(lambda xp, x: x.argsort(axis=0, kind="stable"), x)
    parity(lambda xp, x: x.argpartition(2), x)

    def sort_then_read(xp, x):
        x.sort(axis=0)
        return x

    parity(sort_then_read, x)


def test_under_jit_and_vmap():
    x = make((4, 7), "float64")
    f = arraystack.jit(lambda x: (arraystack.sort(x), arraystack.argsort(x, axis=0, stable=True)))
    s, i = f(arraystack.asarray(x))
    numpy.testing.assert_array_equal(numpy.asarray(s), numpy.sort(x))
    numpy.testing.assert_array_equal(numpy.asarray(i), numpy.argsort(x, axis=0, stable=True))
    rows = arraystack.vmap(lambda r: arraystack.argsort(r, stable=True))(arraystack.asarray(x))
    numpy.testing.assert_array_equal(numpy.asarray(rows), numpy.argsort(x, axis=1, stable=True))
    parts = arraystack.vmap(lambda r: arraystack.partition(r, 3))(arraystack.asarray(x))
    numpy.testing.assert_array_equal(numpy.asarray(parts), numpy.partition(x, 3, axis=1))
    a = numpy.sort(make((3, 5), "float32", nan=False), axis=1)
    v = make((3, 4), "float32", seed=1, nan=False)
    found = arraystack.vmap(arraystack.searchsorted)(arraystack.asarray(a), arraystack.asarray(v))
    numpy.testing.assert_array_equal(
        numpy.asarray(found), [numpy.searchsorted(r, w) for r, w in zip(a, v)]
    )
    one = arraystack.vmap(lambda w: arraystack.searchsorted(arraystack.asarray(a[0]), w))(v)
    numpy.testing.assert_array_equal(numpy.asarray(one), numpy.searchsorted(a[0], v))
    keys = arraystack.vmap(lambda a, b: arraystack.lexsort((a, b)))(
        arraystack.asarray(make((2, 9), "int8", ties=True)),
        arraystack.asarray(make((2, 9), "int8", 1, ties=True)),
    )
    expect = [
        numpy.lexsort((p, q))
        for p, q in zip(make((2, 9), "int8", ties=True), make((2, 9), "int8", 1, ties=True))
    ]
    numpy.testing.assert_array_equal(numpy.asarray(keys), expect)


def test_digitize_with_traced_bins():
    z = numpy.array([-1.0, 0.0, 0.5, 1.0, 3.0])
    f = arraystack.jit(lambda b, z: arraystack.digitize(z, b, right=True))
    for bins in ([0.0, 1.0, 2.0], [2.0, 1.0, 0.0], [1.0, 1.0, 1.0]):
        got = f(arraystack.asarray(bins), arraystack.asarray(z))
        numpy.testing.assert_array_equal(numpy.asarray(got), numpy.digitize(z, bins, right=True))


@pytest.mark.parametrize("stable", [True, False])
def test_descending_is_array_api_strict(stable):
    # array-api-strict: flip, sort ascending, flip (argsort: n - 1 - flipped indices)
    x = make((3, 12), "float64", ties=True)
    for axis in (-1, 0):
        kind = "stable" if stable else None
        expect = numpy.flip(numpy.sort(numpy.flip(x, axis), axis, kind=kind), axis)
        got = arraystack.sort(arraystack.asarray(x), axis=axis, stable=stable, descending=True)
        numpy.testing.assert_array_equal(numpy.asarray(got), expect)
        index = numpy.flip(numpy.argsort(numpy.flip(x, axis), axis, kind=kind), axis)
        expect = x.shape[axis] - 1 - index
        got = arraystack.argsort(arraystack.asarray(x), axis=axis, stable=stable, descending=True)
        numpy.testing.assert_array_equal(numpy.asarray(got), expect)
    traced = arraystack.jit(lambda x: arraystack.argsort(x, descending=True, stable=True))
    numpy.testing.assert_array_equal(
        numpy.asarray(traced(arraystack.asarray(x))),
        x.shape[1] - 1 - numpy.flip(numpy.argsort(numpy.flip(x, 1), 1, kind="stable"), 1),
    )
