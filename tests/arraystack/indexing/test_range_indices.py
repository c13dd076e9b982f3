"""Ranges as indices against NumPy: a range is an integer index array wherever NumPy takes an integer
sequence (x[range], x[ind, range(n)], assignment, take), eagerly and traced."""

from __future__ import annotations

import numpy
import pytest

import arraystack
from tests.conftest import assert_same, run_traced

X = numpy.arange(24.0).reshape(4, 6)

KEYS = {
    "range": range(3),
    "reversed": range(3, -1, -1),
    "stepped": (slice(None), range(0, 6, 2)),
    "empty": range(0),
    "pairs": (range(4), range(4)),
    "with_array": (numpy.array([3, 1, 0, 2]), range(4)),
    "with_list": ([0, 2], range(1, 3)),
    "in_tuple": (range(2),),
    "negative": range(-1, -4, -1),
    "after_ellipsis": (Ellipsis, range(2)),
}


@pytest.mark.parametrize("key", KEYS.values(), ids=KEYS.keys())
def test_range_key_reads_as_numpy(key):
    assert_same(X[key], arraystack.asarray(X)[key])


@pytest.mark.parametrize("key", KEYS.values(), ids=KEYS.keys())
def test_range_key_traced(key):
    assert_same(X[key], run_traced(lambda xp, x: x[key], X))


def test_issue_reproducer_argmax_pick():
    # x[ind, range(n)]: one element per column, as in the issue
    x = numpy.random.default_rng(0).normal(size=(5, 7))
    ind = x.argmax(axis=0)
    a = arraystack.asarray(x)
    assert_same(x[ind, range(7)], a[arraystack.argmax(a, axis=0), range(7)])


def test_range_out_of_bounds_raises_indexerror():
    a = arraystack.asarray(X)
    with pytest.raises(IndexError, match="out of bounds"):
        a[range(5)]
    with pytest.raises(IndexError):
        X[range(5)]


@pytest.mark.parametrize("key", [range(2), (range(3), range(1, 4))], ids=["rows", "pairs"])
def test_range_key_assignment(key):
    expected = X.copy()
    expected[key] = -1.0
    a = arraystack.asarray(X.copy())
    a[key] = -1.0
    assert_same(expected, a)

    def update(xp, x):
        x[key] = -1.0
        return x

    assert_same(expected, run_traced(update, X.copy()))


def test_range_under_jit():
    f = arraystack.jit(lambda x: x[range(1, 3), range(2)])
    assert_same(X[range(1, 3), range(2)], f(arraystack.asarray(X)))


def test_range_in_take_and_ix():
    a = arraystack.asarray(X)
    assert_same(numpy.take(X, range(2), axis=1), arraystack.take(a, range(2), axis=1))
    assert_same(X[numpy.ix_(range(2), range(1, 4))], a[arraystack.ix_(range(2), range(1, 4))])
