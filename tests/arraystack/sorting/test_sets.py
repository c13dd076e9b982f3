"""NumPy parity of _sorting/sets.py: unique (all options, axis, equal_nan, size=), the Array API
unique_* functions,
intersect1d, union1d, setdiff1d, setxor1d, isin; ShapeDependsOnDataError under jit without size=."""

from __future__ import annotations

import numpy
import pytest
from arraystack.ir.core import ShapeDependsOnDataError

import arraystack

DTYPES = ["bool", "int8", "uint8", "int64", "float16", "float32", "float64", "complex128"]


def make(shape, dtype, seed=0, nan=True):
    rng = numpy.random.default_rng(seed)
    dtype = numpy.dtype(dtype)
    if dtype.kind == "b":
        return rng.random(shape) > 0.5
    x = rng.integers(0 if dtype.kind == "u" else -3, 4, shape)
    if dtype.kind == "c":
        x = x + 1j * rng.integers(-1, 2, shape)
    x = numpy.asarray(x).astype(dtype)
    if nan and dtype.kind in "fc" and x.size > 3:
        x.flat[0] = x.flat[2] = numpy.nan
        x.flat[-1] = complex(numpy.nan, 1) if dtype.kind == "c" else numpy.nan
        if dtype.kind == "c":
            x.flat[1] = complex(2, numpy.nan)
    return x


def _all(xp, x, **kw):
    return xp.unique(x, return_index=True, return_inverse=True, return_counts=True, **kw)


@pytest.mark.parametrize("shape", [(0,), (1,), (13,), (3, 4)], ids=str)
@pytest.mark.parametrize("dtype", DTYPES)
def test_unique(parity, dtype, shape):
    x = make(shape, dtype)
    parity(lambda xp, x: xp.unique(x), x, traced=False)
    parity(lambda xp, x: _all(xp, x), x, traced=False)
    parity(lambda xp, x: _all(xp, x, equal_nan=False), x, traced=False)
    parity(lambda xp, x: xp.unique(x, return_inverse=True), x, traced=False)


@pytest.mark.parametrize("dtype", ["int8", "float64", "complex128"])
def test_unique_axis(parity, dtype):
    x = make((6, 3), dtype, nan=False)
    x[3] = x[1]
    x[5] = x[0]
    for axis in (0, 1, -1):
        parity(lambda xp, x, axis=axis: _all(xp, x, axis=axis), x, traced=False)
    parity(lambda xp, x: _all(xp, x.reshape(2, 3, 3), axis=1), x, traced=False)
    parity(lambda xp, x: _all(xp, x[:, :0], axis=0), x, traced=False)
    parity(lambda xp, x: _all(xp, x, axis=2), x, traced=False)
    parity(
        lambda xp: _all(xp, numpy.array([[numpy.nan, 1.0], [numpy.nan, 1.0]]), axis=0), traced=False
    )


def test_unique_edge_cases(parity):
    parity(lambda xp: xp.unique(numpy.array(3)), traced=False)
    parity(lambda xp: _all(xp, numpy.array(3.0)), traced=False)
    parity(lambda xp: xp.unique([3, 1, 3]), traced=False)
    x = numpy.array([0.0, -0.0, 2.0, 0.0])
    parity(lambda xp, x: _all(xp, x), x, traced=False)


@pytest.mark.parametrize("dtype", ["int8", "float32", "complex128"])
def test_array_api_variants(parity, dtype):
    x = make((3, 5), dtype)
    parity(lambda xp, x: tuple(xp.unique_all(x)), x, traced=False)
    parity(lambda xp, x: tuple(xp.unique_counts(x)), x, traced=False)
    parity(lambda xp, x: tuple(xp.unique_inverse(x)), x, traced=False)
    parity(lambda xp, x: xp.unique_values(x), x, traced=False)
    parity(lambda xp, x: xp.unique(x, sorted=False), x, traced=False)
    result = arraystack.unique_all(arraystack.asarray(x))
    assert type(result).__name__ == "UniqueAllResult"
    assert result.counts is result[3]
    assert arraystack.unique_counts(x)._fields == numpy.unique_counts(x)._fields
    assert arraystack.unique_inverse(x)._fields == numpy.unique_inverse(x)._fields


def test_unique_with_size_traces():
    x = numpy.array([3.0, 1.0, numpy.nan, 3.0, 2.0, numpy.nan, 1.0])
    values, index, inverse, counts = numpy.unique(
        x, return_index=True, return_inverse=True, return_counts=True
    )
    f = arraystack.jit(
        lambda x, n: arraystack.unique(
            x, return_index=True, return_inverse=True, return_counts=True, size=n, fill_value=-1.0
        ),
        static_argnums=1,
    )
    v, i, inv, c = (numpy.asarray(r) for r in f(arraystack.asarray(x), 6))
    numpy.testing.assert_array_equal(v, numpy.concatenate([values, [-1.0, -1.0]]))
    numpy.testing.assert_array_equal(i, numpy.concatenate([index, [0, 0]]))
    numpy.testing.assert_array_equal(c, numpy.concatenate([counts, [0, 0]]))
    numpy.testing.assert_array_equal(inv, inverse)
    v, c = (numpy.asarray(r) for r in arraystack.unique(x, return_counts=True, size=2))
    numpy.testing.assert_array_equal(v, values[:2])
    numpy.testing.assert_array_equal(c, counts[:2])
    v = arraystack.jit(lambda x: arraystack.unique_values(x, size=7))(arraystack.asarray(x))
    numpy.testing.assert_array_equal(numpy.asarray(v)[:4], [1.0, 2.0, 3.0, numpy.nan])
    numpy.testing.assert_array_equal(numpy.asarray(v)[4:], [numpy.nan, 1.0, 1.0])


def test_data_dependent_shapes_raise_under_jit():
    x = arraystack.asarray(numpy.array([3, 1, 3]))
    for fn in (
        arraystack.unique,
        arraystack.unique_counts,
        lambda x: arraystack.intersect1d(x, x),
        lambda x: arraystack.union1d(x, x),
        lambda x: arraystack.setdiff1d(x, x),
        lambda x: arraystack.setxor1d(x, x),
    ):
        with pytest.raises(ShapeDependsOnDataError, match="size="):
            arraystack.jit(fn)(x)


PAIRS = [
    (numpy.array([1, 3, 4, 3, 5]), numpy.array([3, 1, 2, 1])),
    (numpy.array([1.0, numpy.nan, 2.0, 0.0]), numpy.array([numpy.nan, -0.0, 2.0])),
    (numpy.array([], dtype=numpy.int64), numpy.array([1, 2])),
    (numpy.array([[1, 2], [2, 7]], dtype=numpy.int8), numpy.array([7, 300], dtype=numpy.int16)),
]


@pytest.mark.parametrize("pair", range(len(PAIRS)))
def test_set_operations(parity, pair):
    a, b = PAIRS[pair]
    parity(lambda xp, a, b: xp.intersect1d(a, b), a, b, traced=False)
    parity(lambda xp, a, b: xp.intersect1d(a, b, return_indices=True), a, b, traced=False)
    parity(lambda xp, a, b: xp.union1d(a, b), a, b, traced=False)
    parity(lambda xp, a, b: xp.setdiff1d(a, b), a, b, traced=False)
    parity(lambda xp, a, b: xp.setxor1d(a, b), a, b, traced=False)
    ua, ub = numpy.unique(a), numpy.unique(b)
    parity(
        lambda xp, a, b: xp.intersect1d(a, b, assume_unique=True, return_indices=True),
        ua,
        ub,
        traced=False,
    )
    parity(lambda xp, a, b: xp.setdiff1d(a, b, assume_unique=True), ua, ub, traced=False)
    parity(lambda xp, a, b: xp.setxor1d(a, b, assume_unique=True), ua, ub, traced=False)
    for kw in ({}, {"invert": True}, {"kind": "sort"}, {"assume_unique": True}):
        parity(lambda xp, a, b, kw=kw: xp.isin(a, b, **kw), a, b)
        parity(lambda xp, a, b, kw=kw: xp.isin(b, a, **kw), a, b)


def test_isin_kinds_and_shapes(parity):
    a = numpy.arange(12).reshape(3, 4)
    parity(lambda xp, a: xp.isin(a, [[1, 5], [11, 40]], kind="table"), a)
    parity(lambda xp, a: xp.isin(a * 1.5, [3.0], kind="table"), a)
    parity(lambda xp, a: xp.isin(a, [1], kind="hash"), a)
    parity(lambda xp, a: xp.isin(a[0, 0], [0, 1]), a)
    parity(lambda xp, a: xp.isin(a > 5, [True]), a)
    parity(lambda xp, a: xp.isin(a + 1j, [1 + 1j, 3]), a)
    got = arraystack.vmap(lambda r: arraystack.isin(r, arraystack.asarray([1, 6, 11])))(
        arraystack.asarray(a)
    )
    numpy.testing.assert_array_equal(numpy.asarray(got), numpy.isin(a, [1, 6, 11]))


def test_in1d_is_absent_as_in_numpy():
    assert hasattr(numpy, "in1d") == hasattr(arraystack, "in1d")


@pytest.mark.parametrize("number", [3, 2.5, 1 + 2j])
@pytest.mark.parametrize("dtype", ["int8", "float32", "complex64"])
def test_union1d_with_a_python_number_promotes_weakly(parity, dtype, number):
    """NumPy concatenates the number as it is (NEP 50): an int8 array's union with 3 is int8."""
    a = numpy.arange(3).astype(dtype)
    parity(lambda xp, a: xp.union1d(a, number), a, traced=False)
