"""NumPy parity of _manipulation/editing.py: append, insert, delete, resize, trim_zeros."""

from __future__ import annotations

import functools

import numpy
import pytest
from arraystack.ir.core import ConcretizationError, ShapeDependsOnDataError

import arraystack
from tests import oracle

DTYPES = ["bool", "int8", "uint16", "int64", "float32", "float64", "complex128"]


make = functools.partial(oracle.make, ints=(0, 50))


# layouts of a (3, 4) array: contiguous, transposed, strided slice, negative strides
LAYOUTS = {
    "contiguous": lambda x: x,
    "transposed": lambda x: x.T,
    "strided": lambda x: x[::2, 1:],
    "reversed": lambda x: x[::-1, ::-2],
}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_append(parity, dtype, layout):
    x = LAYOUTS[layout](make((3, 4), dtype))
    parity(lambda xp, x: xp.append(x, x), x)
    parity(lambda xp, x: xp.append(x, [1, 2]), x)
    parity(lambda xp, x: xp.append(x, x[:1], axis=0), x)
    parity(lambda xp, x: xp.append(x, x[:, :1], axis=-1), x)
    parity(lambda xp, x: xp.append(x, 2.5), x)
    parity(lambda xp, x: xp.append(x, x[:1, :1], axis=0), x)  # shape mismatch: ValueError
    parity(lambda xp, x: xp.append(x, x, axis=2), x)  # AxisError


def test_append_scalars_and_empty(parity):
    parity(lambda xp, x: xp.append(x, 3), numpy.array(5.0))
    parity(lambda xp, x: xp.append(x, x), numpy.zeros((0, 3), "int16"))
    parity(lambda xp, x: xp.append(x, x, axis=0), numpy.zeros((0, 3), "int16"))
    parity(lambda xp: xp.append([1, 2], [[3.5]]))
    parity(lambda xp, x: xp.append(x, 7, axis=0), numpy.array(5.0))  # 0-d with axis: ValueError


DELETE_OBJS = [
    1,
    -1,
    numpy.int8(0),
    [0, 2],
    [2, 0, 2],
    [],
    slice(None, None, 2),
    slice(None, None, -2),
    slice(5, 1),
    numpy.array([True, False, True]),
    numpy.array([1]),
    numpy.array([], dtype=float),
    [1.0],  # float indices: IndexError
    3,  # out of bounds: IndexError
    -4,
    numpy.array([True, False]),  # boolean mask of the wrong length: ValueError
]


@pytest.mark.parametrize("dtype", ["bool", "int8", "float64", "complex128"])
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "reversed"])
def test_delete(parity, dtype, axis, layout):
    x = LAYOUTS[layout](make((3, 4), dtype))[:3, :3]
    for obj in DELETE_OBJS:
        parity(lambda xp, x, obj=obj: xp.delete(x, obj, axis=axis), x)


def test_delete_edges(parity):
    parity(lambda xp, x: xp.delete(x, 0), numpy.array(4.0))
    parity(lambda xp, x: xp.delete(x, 0, axis=0), numpy.array(4.0))  # AxisError
    parity(lambda xp, x: xp.delete(x, [], axis=1), numpy.zeros((2, 0)))
    parity(lambda xp, x: xp.delete(x, 0, axis=1), numpy.zeros((2, 0)))  # IndexError
    parity(lambda xp, x: xp.delete(x, 1, axis=2), numpy.zeros((2, 3)))  # AxisError
    parity(lambda xp: xp.delete([[1, 2], [3, 4]], 0, axis=1))


INSERT_CASES = [
    (1, 9),
    (-1, [7, 8, 9]),
    (0, 2.75),
    (3, [[1], [2], [3]]),
    ([1], [[1], [2], [3]]),
    ([0, 2], 5),
    ([2, 0, 2], [4, 5, 6]),
    (numpy.array([1, -1]), 1),
    (slice(None, None, 2), 6),
    ([], 1),
    (numpy.array([True, False, True]), 4),
    (4, 1),  # out of bounds: IndexError
    ([4], 1),  # out of bounds: IndexError
    ([[0, 1]], 1),  # 2-d positions: ValueError
    ([1], numpy.ones((2, 2))),  # cannot broadcast: ValueError
]


@pytest.mark.parametrize("dtype", ["bool", "uint16", "float32", "complex128"])
@pytest.mark.parametrize("axis", [None, 0, 1])
@pytest.mark.parametrize("layout", ["contiguous", "reversed"])
def test_insert(parity, dtype, axis, layout):
    x = LAYOUTS[layout](make((3, 4), dtype))[:3, :3]
    for obj, values in INSERT_CASES:
        parity(lambda xp, x, obj=obj, values=values: xp.insert(x, obj, values, axis=axis), x)
    parity(lambda xp, x: xp.insert(x, 1, x[0], axis=axis), x)
    parity(lambda xp, x: xp.insert(x, [0, 1], x[:2], axis=axis), x)


def test_insert_edges(parity):
    parity(lambda xp, x: xp.insert(x, 0, 1.5), numpy.array(4))
    parity(lambda xp, x: xp.insert(x, 0, [1, 2], axis=0), numpy.zeros((0, 2), "int32"))
    parity(
        lambda xp, x: xp.insert(x, 0, 300), numpy.zeros(2, "int8"), traced=False
    )  # OverflowError
    parity(lambda xp, x: xp.insert(x, 0, 1j), numpy.zeros(2), traced=False)  # TypeError
    parity(lambda xp, x: xp.insert(x, 1, 2, axis=3), numpy.zeros((2, 2)))  # AxisError
    parity(lambda xp, x: xp.insert(x, numpy.ones((2, 2), bool), 2), numpy.zeros(2))  # ValueError


def test_results_are_copies_and_inputs_unchanged():
    x = arraystack.asarray(numpy.arange(6.0).reshape(2, 3))
    before = numpy.asarray(x).copy()
    for out in (
        arraystack.append(x, []),
        arraystack.delete(x, [], axis=0),
        arraystack.insert(x, [], 0, axis=0),
        arraystack.resize(x, (2, 3)),
    ):
        out[...] = -1
    numpy.testing.assert_array_equal(numpy.asarray(x), before)
    for bad in (
        lambda: arraystack.delete(x, 5, axis=0),
        lambda: arraystack.insert(x, 9, 1, axis=1),
        lambda: arraystack.append(x, x, axis=3),
    ):
        with pytest.raises((IndexError, ValueError)):
            bad()
        numpy.testing.assert_array_equal(numpy.asarray(x), before)


@pytest.mark.parametrize("dtype", ["bool", "int8", "float64", "complex128"])
@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_resize(parity, dtype, layout):
    x = LAYOUTS[layout](make((3, 4), dtype))
    for shape in [(2, 3), 7, (5, 5), (0,), (2, 0, 3), (), (1, 1, 1), numpy.int64(3)]:
        parity(lambda xp, x, shape=shape: xp.resize(x, shape), x)
    parity(lambda xp, x: xp.resize(x, (2, -1)), x)  # ValueError
    parity(lambda xp, x: xp.resize(x, (2, 3)), x[:0])  # zero fill of an empty input
    parity(lambda xp, x: xp.resize(x, 4), x[0, 0])


@pytest.mark.parametrize("trim", ["fb", "f", "b", "BF", "x"])
def test_trim_zeros(parity, trim):
    one_dim = numpy.array([0, 0, 1, 0, 2, 0, 0], "int16")
    two_dim = numpy.zeros((4, 5))
    two_dim[1:3, 2] = 1.5
    for filt in (one_dim, one_dim[::-1], one_dim[::2].astype(bool), numpy.zeros(3), one_dim[:0]):
        parity(lambda xp, x: xp.trim_zeros(x, trim), filt, traced=False)
    for axis in (None, 0, 1, -1, (0, 1), 2):
        parity(lambda xp, x, axis=axis: xp.trim_zeros(x, trim, axis=axis), two_dim, traced=False)
        parity(
            lambda xp, x, axis=axis: xp.trim_zeros(x, trim, axis=axis),
            two_dim.T[::-1],
            traced=False,
        )
    if trim != "x":  # list in, list out
        assert arraystack.trim_zeros([0, 1, 0], trim) == numpy.trim_zeros([0, 1, 0], trim)


def test_trim_zeros_returns_a_view():
    x = arraystack.asarray([0.0, 1.0, 2.0, 0.0])
    out = arraystack.trim_zeros(x)
    out[0] = 5.0
    assert float(x[1]) == 5.0


def test_data_dependent_forms_raise_under_jit():
    x = numpy.arange(5.0)
    with pytest.raises(ShapeDependsOnDataError):
        arraystack.jit(arraystack.trim_zeros)(x)
    with pytest.raises(ConcretizationError):
        arraystack.jit(lambda x, i: arraystack.delete(x, i))(x, numpy.array([1]))
    with pytest.raises(ConcretizationError):
        arraystack.jit(lambda x, i: arraystack.insert(x, i, 0.0))(x, numpy.array([1, 2]))
    kept = arraystack.jit(lambda x: arraystack.delete(x, [0, 3]))(x)
    numpy.testing.assert_array_equal(numpy.asarray(kept), numpy.delete(x, [0, 3]))
