"""NumPy parity of _manipulation/broadcast_object.py: the broadcast class (shape, nd, ndim, size,
numiter, iters, index, reset and joint iteration)."""

from __future__ import annotations

import numpy
import pytest

import arraystack
from tests.conftest import assert_same

ARGS = {
    "column_row": lambda: (numpy.arange(3).reshape(3, 1), numpy.arange(4.0)),
    "scalar": lambda: (numpy.arange(4).reshape(2, 2), 7),
    "three": lambda: (numpy.ones((2, 1, 3), "float32"), numpy.arange(4).reshape(4, 1), True),
    "single": lambda: (numpy.arange(5)[::-1],),
    "none": lambda: (),
    "empty": lambda: (numpy.zeros((0, 3)), numpy.arange(3)),
    "zero_d": lambda: (numpy.array(3.5), numpy.array(2)),
    "transposed": lambda: (numpy.arange(6).reshape(2, 3).T, numpy.arange(2)),
}


def _both(case):
    args = ARGS[case]()
    return numpy.broadcast(*args), arraystack.broadcast(
        *[arraystack.asarray(a) if isinstance(a, numpy.ndarray) else a for a in args]
    )


def _attributes(b):
    return (b.shape, b.nd, b.ndim, b.size, b.numiter, b.index)


@pytest.mark.parametrize("case", list(ARGS))
def test_attributes_and_iteration(case):
    expected, actual = _both(case)
    assert _attributes(actual) == _attributes(expected)
    assert len(actual.iters) == len(expected.iters)
    assert_same([tuple(v) for v in expected], [tuple(v) for v in actual])
    assert actual.index == expected.index
    with pytest.raises(StopIteration):
        next(actual)
    actual.reset()
    expected.reset()
    assert actual.index == expected.index == 0
    for got, want in zip(actual.iters, expected.iters):
        assert_same(list(want), list(got))


def test_iterators_move_together():
    expected, actual = _both("column_row")
    for b in (expected, actual):
        next(b.iters[0])
        next(b.iters[0])
    assert_same(next(expected), next(actual))
    assert actual.index == expected.index == 1
    assert actual.iters[1].index == expected.iters[1].index
    assert_same(list(expected.iters[1]), list(actual.iters[1]))
    assert_same(next(expected), next(actual))  # an exhausted iterator reads from the start


def test_nested_broadcast_objects():
    x = numpy.arange(3).reshape(3, 1)
    expected = numpy.broadcast(numpy.broadcast(x, numpy.arange(2)), x)
    actual = arraystack.broadcast(arraystack.broadcast(x, numpy.arange(2)), x)
    assert _attributes(actual) == _attributes(expected)
    assert_same([tuple(v) for v in expected], [tuple(v) for v in actual])


def test_errors():
    for args in ((numpy.ones(2), numpy.ones(3)), (1,) * 65):
        with pytest.raises(ValueError) as want:
            numpy.broadcast(*args)
        with pytest.raises(ValueError) as got:
            arraystack.broadcast(*args)
        assert str(got.value) == str(want.value)


def test_traced_arguments_iterate_traced_values(parity):
    def body(xp, x, y):
        return [xp.asarray(a) * b for a, b in xp.broadcast(x, y)]

    parity(body, numpy.arange(3.0).reshape(3, 1), numpy.arange(2, dtype="int8"))
