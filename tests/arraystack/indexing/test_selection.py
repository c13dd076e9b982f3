"""NumPy parity of _indexing/selection.py: take, take_along_axis, put, put_along_axis, place,
putmask, choose, compress, extract, select, piecewise, diagonal, trace and their ndarray methods."""

from __future__ import annotations

import functools

import numpy
import pytest
from arraystack.ir.core import ShapeDependsOnDataError

import arraystack
from tests import oracle

DTYPES = ["bool", "int8", "uint16", "int64", "float32", "float64", "complex128"]


make = functools.partial(oracle.make, ints=(0, 50))


@pytest.mark.parametrize("dtype", DTYPES)
def test_take(parity, dtype):
    x = make((3, 4), dtype)
    parity(lambda xp, x: xp.take(x, [[0, 2], [1, -1]], axis=1), x)
    parity(lambda xp, x: xp.take(x, numpy.array([5, 0, -12])), x)
    parity(lambda xp, x: xp.take(x, 2, axis=0), x)
    parity(lambda xp, x: xp.take(x, [7, -5], axis=1, mode="wrap"), x)
    parity(lambda xp, x: xp.take(x, [7, -5], axis=0, mode="clip"), x)
    parity(lambda xp, x: x.take([1, 3]), x)
    parity(lambda xp, x: xp.take(x, numpy.zeros(0, numpy.int64), axis=0), x)


def test_take_errors_and_out(parity):
    x = make((3, 4), "float64")
    parity(lambda xp, x: xp.take(x, [12]), x)
    parity(lambda xp, x: xp.take(x, [1], axis=2), x)
    parity(lambda xp, x: xp.take(x, [1], mode="foo"), x)
    parity(lambda xp, x: xp.take(x, numpy.array([1.0])), x)
    parity(lambda xp, x: xp.take(x, [1.7]), x)
    parity(lambda xp, x: xp.take(x, [True, False]), x)

    def with_out(xp, x):
        out = xp.zeros((2, 4))
        r = xp.take(x, [2, 0], axis=0, out=out)
        return r, out

    parity(with_out, x, traced=False)


@pytest.mark.parametrize("axis", [0, 1, -1, None])
def test_take_along_axis(parity, axis):
    x = make((3, 4), "float32")
    idx = numpy.argsort(x, axis=axis) if axis is not None else numpy.argsort(x, axis=None)
    parity(lambda xp, x, i: xp.take_along_axis(x, i, axis=axis), x, idx)
    if axis is not None:
        parity(
            lambda xp, x: xp.take_along_axis(
                x, numpy.array([[1], [0], [-1]])[: x.shape[0]], axis=-1
            ),
            x,
        )
    parity(lambda xp, x: xp.take_along_axis(x, numpy.array([1, 0]), axis=1), x)
    parity(lambda xp, x: xp.take_along_axis(x, numpy.array([[1.0]]), axis=1), x)


def _inplace(name, *args, **kwargs):
    def fn(xp, x):
        getattr(xp, name)(x, *args, **kwargs)
        return x

    return fn


@pytest.mark.parametrize("dtype", ["int8", "float64", "complex128"])
def test_in_place_writers(parity, dtype):
    x = make((3, 4), dtype)
    parity(_inplace("put", [0, 5, 5, -1], [7, 8]), x)
    parity(_inplace("put", [1, 30], [9], mode="clip"), x)
    parity(_inplace("put", [1, 30], [9], mode="wrap"), x)
    parity(_inplace("put", [], [9]), x)
    parity(_inplace("put", [30], [9]), x, traced=False)
    mask = make((3, 4), "bool", seed=1)
    parity(_inplace("putmask", mask, [1, 2, 3]), x)
    parity(_inplace("putmask", mask, []), x)
    parity(_inplace("putmask", mask[0], [1]), x)
    parity(_inplace("place", mask, [1, 2, 3]), x)
    parity(_inplace("place", mask, []), x)
    parity(_inplace("place", numpy.zeros((3, 4), bool), []), x, traced=False)
    parity(_inplace("place", mask[0], [1]), x)
    parity(_inplace("put_along_axis", numpy.array([[0], [2], [1]]), 99, axis=1), x)
    parity(_inplace("put_along_axis", numpy.array([3, 11]), numpy.array([5, 6]), axis=None), x)
    parity(lambda xp, x: (x.put([0, 2], [4, 4]), x)[1], x)


def test_in_place_writers_reach_views():
    for xp in (numpy, arraystack):
        x = xp.asarray(numpy.arange(12.0).reshape(3, 4))
        view = x[1:]
        xp.put(x, [5, 6], [-1.0, -2.0])
        xp.putmask(x, x > 9, 0.0)
        xp.place(x, x == 1.0, [7.0])
        got = numpy.asarray(view).copy()
        if xp is numpy:
            expected = got
    numpy.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_choose(parity, mode):
    choices = [make((3, 4), "int8", s) for s in range(3)]
    idx = numpy.array([[0, 1, 2, 1], [2, 2, 0, 0], [1, 0, 1, 2]])
    parity(lambda xp, i, a, b, c: xp.choose(i, [a, b, c], mode=mode), idx, *choices)
    parity(lambda xp, i, a: xp.choose(i, [a[0], 1000.5, a], mode=mode), idx, choices[0])
    parity(lambda xp, i, a, b: i.choose([a, b], mode=mode), idx % 2, *choices[:2])
    parity(
        lambda xp, i, a, b: xp.choose(i + 2, [a, b], mode=mode),
        idx,
        *choices[:2],
        traced=mode != "raise",
    )
    # choices as nested lists (each converted; Python scalars stay weak)
    parity(
        lambda xp, i: xp.choose(i % 2, [[1, 2, 3, 4], [[5], [6], [7]]], mode=mode),
        idx,
        traced=False,
    )
    parity(lambda xp, i, a: xp.choose(i % 2, [a, 5], mode=mode), idx, choices[0], traced=False)


def test_compress_extract(parity):
    x = make((4, 3), "float64")
    for cond, axis in (
        ([True, False, True, True], 0),
        ([False, True], 1),
        ([True] * 5, None),
        ([], 0),
    ):
        parity(lambda xp, x, cond=cond, axis=axis: xp.compress(cond, x, axis=axis), x, traced=False)
    parity(lambda xp, x: xp.compress([True, False, False, False, True], x, axis=0), x, traced=False)
    parity(lambda xp, x: x.compress([1, 0, 1], axis=1), x, traced=False)
    parity(lambda xp, x: xp.extract(x > 0, x), x, traced=False)
    parity(lambda xp, x: xp.extract(x.ravel()[:5] > 0, x), x, traced=False)
    f = arraystack.jit(lambda c, x: arraystack.compress(c, x, axis=0, size=3, fill_value=-1.0))
    got = f(arraystack.asarray([False, True, False, True]), arraystack.asarray(x))
    numpy.testing.assert_array_equal(
        numpy.asarray(got), numpy.concatenate([x[[1, 3]], -numpy.ones((1, 3))])
    )
    got = arraystack.jit(lambda x: arraystack.extract(x > 0, x, size=2))(arraystack.asarray(x))
    numpy.testing.assert_array_equal(numpy.asarray(got), numpy.extract(x > 0, x)[:2])
    got = arraystack.compress([True, False, True], arraystack.asarray(x), axis=1, size=1)
    numpy.testing.assert_array_equal(numpy.asarray(got), x[:, :1])
    with pytest.raises(ShapeDependsOnDataError, match="compress"):
        arraystack.jit(lambda x: arraystack.compress(x > 0, x))(arraystack.asarray(x[0]))
    with pytest.raises(ShapeDependsOnDataError, match="extract"):
        arraystack.jit(lambda x: arraystack.extract(x > 0, x))(arraystack.asarray(x))


def test_select(parity):
    x = make((3, 4), "float32")
    parity(lambda xp, x: xp.select([x > 0.5, x < -0.5], [x, x * 2], default=7), x)
    parity(lambda xp, x: xp.select([x > 0.5, x[0] < 0], [x, 3], default=x[:, :1]), x)
    parity(lambda xp, x: xp.select([x > 0], [x.astype(numpy.int8)], 300), x)
    parity(lambda xp, x: xp.select([x > 0], [x, x]), x)
    parity(lambda xp, x: xp.select([], []), x)
    parity(lambda xp, x: xp.select([x], [x]), x)


def test_piecewise(parity):
    x = make((3, 4), "float64")
    funcs = [lambda v: v * 2, lambda v: -v, 7.0]
    parity(lambda xp, x: xp.piecewise(x, [x < -0.5, x > 0.5], funcs), x)
    parity(lambda xp, x: xp.piecewise(x, [x < 0], [lambda v, k: v * k, 1.0], 3), x)
    parity(lambda xp, x: xp.piecewise(x, x < 0, [-1, 1]), x)
    parity(lambda xp, x: xp.piecewise(x[0, 0], [True, False], [1, 2]), x)
    parity(lambda xp, x: xp.piecewise(x, [x < 0, x > 1], [1]), x)
    parity(lambda xp, x: xp.piecewise(x.astype(numpy.int64), [x < 0], [lambda v: v + 0.7, 5]), x)


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
@pytest.mark.parametrize("dtype", ["bool", "int32", "float64", "complex128"])
def test_diagonal_trace(parity, dtype):
    x = make((3, 4, 5), dtype)
    for offset in (0, 1, -2, 7, -9):
        parity(lambda xp, x, offset=offset: xp.diagonal(x, offset), x)
        parity(lambda xp, x, offset=offset: xp.diagonal(x, offset, axis1=2, axis2=0), x)
        parity(lambda xp, x, offset=offset: x.diagonal(offset, -1, -2), x)
        parity(lambda xp, x, offset=offset: xp.trace(x[0], offset), x)
        parity(lambda xp, x, offset=offset: x.trace(offset, 1, 2), x)
    parity(lambda xp, x: xp.trace(x, dtype=numpy.float32), x)
    parity(lambda xp, x: xp.diagonal(x[0, 0]), x)
    parity(lambda xp, x: xp.diagonal(x, 0, 1, 1), x)


def test_nonzero_family_and_where(parity):
    # these live in _indexing/subscripts.py / _math/elementwise_functions.py; checked here with the
    # selection family
    x = numpy.array([[0.0, 1.5, 0.0], [numpy.nan, 0.0, -2.0]])
    for fn in (
        lambda xp, x: xp.nonzero(x),
        lambda xp, x: x.nonzero(),
        lambda xp, x: xp.argwhere(x),
        lambda xp, x: xp.argwhere(x[0, 1]),
        lambda xp, x: xp.flatnonzero(x),
        lambda xp, x: xp.where(x),
        lambda xp, x: xp.where(x[0]),
        lambda xp, x: xp.nonzero(x[0, 0]),
    ):
        parity(fn, x, traced=False)
    parity(lambda xp, x: xp.where(x > 0, x, -1), x)
    parity(lambda xp, x: xp.where(x > 0, 1, x[0].astype(numpy.float32)), x)
    parity(lambda xp, x: xp.where(x > 0, x), x)
    got = arraystack.jit(lambda x: arraystack.nonzero(x, size=4, fill_value=-1))(
        arraystack.asarray(x)
    )
    numpy.testing.assert_array_equal(numpy.asarray(got), [[0, 1, 1, -1], [1, 0, 2, -1]])
    flat = arraystack.jit(lambda x: arraystack.flatnonzero(x, size=2))(arraystack.asarray(x))
    numpy.testing.assert_array_equal(numpy.asarray(flat), [1, 3])
    with pytest.raises(ShapeDependsOnDataError):
        arraystack.jit(arraystack.argwhere)(arraystack.asarray(x))
