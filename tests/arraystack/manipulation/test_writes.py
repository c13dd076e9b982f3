"""NumPy parity of _manipulation/writes.py: copyto and fill_diagonal (in place, also through
views)."""

from __future__ import annotations

import functools

import numpy
import pytest

import arraystack
from tests import oracle

DTYPES = ["bool", "int8", "uint16", "int64", "float32", "float64", "complex128"]


make = functools.partial(oracle.make, ints=(0, 50))


def _copyto(*args, **kwargs):
    def fn(xp, dst, src):
        xp.copyto(dst, src, *args, **kwargs)
        return dst

    return fn


CASTINGS = ["no", "equiv", "safe", "same_kind", "unsafe"]


@pytest.mark.parametrize("dst_dtype", ["bool", "int8", "int64", "float32", "complex128"])
@pytest.mark.parametrize("src_dtype", ["bool", "uint16", "float64", "complex128"])
@pytest.mark.parametrize("casting", CASTINGS)
def test_copyto_casting(parity, dst_dtype, src_dtype, casting):
    dst = make((3, 4), dst_dtype)
    src = make((3, 4), src_dtype, 1)
    parity(_copyto(casting=casting), dst, src)
    parity(_copyto(casting=casting), dst.T[::-1], src[:, ::-1].T)
    parity(_copyto(casting=casting), dst, src[1])  # broadcast


@pytest.mark.parametrize("dtype", ["int8", "float32", "complex128"])
def test_copyto_where_and_scalars(parity, dtype):
    dst = make((3, 4), dtype)
    mask = make((3, 4), "bool", 2)
    parity(lambda xp, d, s, m: (xp.copyto(d, s, where=m), d)[1], dst, make((3, 4), dtype, 1), mask)
    parity(lambda xp, d, m: (xp.copyto(d, 7, where=m[0]), d)[1], dst, mask)
    parity(lambda xp, d: (xp.copyto(d, 2.5), d)[1], dst)
    parity(lambda xp, d: (xp.copyto(d, 2.5, casting="unsafe"), d)[1], dst)
    parity(lambda xp, d: (xp.copyto(d, 300), d)[1], dst)  # OverflowError for int8
    parity(lambda xp, d: (xp.copyto(d, 1j), d)[1], dst)
    parity(lambda xp, d: (xp.copyto(d, [1, 2]), d)[1], dst)  # ValueError: cannot broadcast
    parity(lambda xp, d: (xp.copyto(d, 1, where=[1, 0, 1, 0]), d)[1], dst)  # TypeError: where
    parity(lambda xp, d: (xp.copyto(d, 1, casting="bogus"), d)[1], dst)  # ValueError
    parity(lambda xp, d, s: (xp.copyto(d, s), d)[1], dst[:0], dst[:0])
    parity(lambda xp, d, s: (xp.copyto(d, s), d)[1], numpy.array(1, dtype), numpy.array(4, dtype))


def test_copyto_errors_leave_the_destination_unchanged():
    dst = arraystack.asarray(numpy.arange(6).reshape(2, 3))
    for bad in (
        lambda: arraystack.copyto(dst, numpy.ones(2)),
        lambda: arraystack.copyto(dst, 1.5),
        lambda: arraystack.copyto(dst, numpy.ones((2, 3)), casting="no"),
    ):
        with pytest.raises((TypeError, ValueError)):
            bad()
        numpy.testing.assert_array_equal(numpy.asarray(dst), numpy.arange(6).reshape(2, 3))
    with pytest.raises(TypeError):
        arraystack.copyto([1, 2], [3, 4])


def test_copyto_writes_reach_views():
    dst = arraystack.asarray(numpy.zeros((3, 4)))
    view = dst[1]
    arraystack.copyto(dst.T, numpy.arange(3.0))
    numpy.testing.assert_array_equal(numpy.asarray(view), [1.0] * 4)


def _fill(val, wrap=False):
    def fn(xp, a):
        xp.fill_diagonal(a, val, wrap=wrap)
        return a

    return fn


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("wrap", [False, True])
def test_fill_diagonal(parity, dtype, wrap):
    for shape in [(3, 3), (7, 3), (3, 5), (0, 0), (3, 3, 3), (2, 2, 2, 2)]:
        a = make(shape, dtype)
        for val in (5, [1, 2], [1.75, 2, 3, 4, 5, 6, 7, 8], []):
            parity(_fill(val, wrap), a)
    parity(_fill(9, wrap), make((5, 4), dtype).T)  # non-contiguous
    parity(_fill(9, wrap), make((5, 5), dtype)[::-1, ::2])  # negative strides
    parity(_fill(1, wrap), make(3, dtype))  # ValueError: 1-d
    parity(_fill(1, wrap), make((3, 3, 2), dtype))  # ValueError: unequal lengths


def test_fill_diagonal_conversions(parity):
    parity(_fill(300), make((3, 3), "int8"))  # OverflowError
    parity(_fill(1j), make((3, 3), "float64"))  # TypeError
    parity(_fill(numpy.array([1, 2], "int64")), make((3, 3), "int8"))
    a = arraystack.asarray(numpy.zeros((3, 3), "int8"))
    with pytest.raises(OverflowError):
        arraystack.fill_diagonal(a, 300)
    numpy.testing.assert_array_equal(numpy.asarray(a), numpy.zeros((3, 3)))
    with pytest.raises(TypeError):
        arraystack.fill_diagonal([[1, 2], [3, 4]], 0)


def test_fill_diagonal_under_jit():
    f = arraystack.jit(lambda a: (arraystack.fill_diagonal(a, [7.0, 8.0]), a * 1)[1])
    expected = numpy.ones((4, 4))
    numpy.fill_diagonal(expected, [7.0, 8.0])
    numpy.testing.assert_array_equal(numpy.asarray(f(numpy.ones((4, 4)))), expected)
