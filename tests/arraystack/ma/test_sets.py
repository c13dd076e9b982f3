"""arraystack.ma's set routines (_sets.py) against numpy.ma: masked entries count as one value."""

import numpy
import pytest

from arraystack import ma
from tests.arraystack.ma.test_ma import same

X = ([3, 1, 2, 1, 3, 5], [0, 0, 1, 0, 1, 0])
Y = ([1, 5, 9, 7], [0, 0, 1, 0])
INPUTS = {
    "masked": lambda m: (m.array(X[0], mask=X[1], fill_value=-5), m.array(Y[0], mask=Y[1])),
    "nomask": lambda m: (m.array(X[0]), m.array(Y[0])),
    "one_masked": lambda m: (m.array(X[0], mask=X[1]), Y[0]),
    "lists": lambda m: (X[0], [1, 5]),
    "floats_nan": lambda m: (m.array([2.0, numpy.nan, 1.0, numpy.nan]), [1.0, numpy.nan]),
    "two_d": lambda m: (m.array([[3, 1], [1, 2]], mask=[[0, 0], [1, 0]]), [[1, 4]]),
}

CALLS = {
    "unique": lambda m, a, b: m.unique(a),
    "unique_index": lambda m, a, b: m.unique(a, return_index=True)[1],
    "unique_inverse": lambda m, a, b: m.unique(a, return_inverse=True)[1],
    "union1d": lambda m, a, b: m.union1d(a, b),
    "intersect1d": lambda m, a, b: m.intersect1d(a, b),
    "setdiff1d": lambda m, a, b: m.setdiff1d(a, b),
    "setxor1d": lambda m, a, b: m.setxor1d(a, b),
    "isin": lambda m, a, b: m.isin(a, b),
    "isin_invert": lambda m, a, b: m.isin(a, b, invert=True),
    "in1d": lambda m, a, b: m.in1d(a, b),
    "ediff1d": lambda m, a, b: m.ediff1d(a),
    "ediff1d_ends": lambda m, a, b: m.ediff1d(a, to_end=9, to_begin=[0, 0]),
}


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize("kind", sorted(INPUTS))
@pytest.mark.parametrize("name", sorted(CALLS))
def test_matches_numpy_ma(name, kind):
    expected = CALLS[name](numpy.ma, *INPUTS[kind](numpy.ma))
    got = CALLS[name](ma, *INPUTS[kind](ma))
    same(expected, got)


def test_assume_unique():
    a, b = [1, 2, 3], [2, 3, 4]
    for name in ("intersect1d", "setxor1d", "setdiff1d"):
        expected = getattr(numpy.ma, name)(a, b, assume_unique=True)
        same(expected, getattr(ma, name)(a, b, assume_unique=True))
