"""arraystack.ma's products (_products.py) and covariance functions (_covariance.py) against numpy.ma."""

import numpy
import pytest

from arraystack import ma
from tests.arraystack.ma.test_ma import same

D = [[1.0, 2.0, 4.0, 7.0], [2.0, 1.0, 0.0, -1.0], [3.0, 5.0, 5.0, 9.0]]
M = [[0, 1, 0, 0], [0, 0, 0, 1], [0, 0, 0, 0]]
V = ([1.0, 2.0, 3.0, 5.0], [0, 1, 0, 0])
INPUTS = {
    "masked": lambda m: (m.array(D, mask=M), m.array(V[0], mask=V[1])),
    "nomask": lambda m: (m.array(D), m.array(V[0])),
    "lists": lambda m: (D, V[0]),
}

CALLS = {
    "cov": lambda m, x, v: m.cov(x),
    "cov_cols": lambda m, x, v: m.cov(x, rowvar=False),
    "cov_bias": lambda m, x, v: m.cov(x, bias=True),
    "cov_ddof": lambda m, x, v: m.cov(x, ddof=3),
    "cov_y": lambda m, x, v: m.cov(m.array(x)[0], m.array(x)[1]),
    "cov_y_rows": lambda m, x, v: m.cov(x, x),
    "corrcoef": lambda m, x, v: m.corrcoef(x),
    "corrcoef_cols": lambda m, x, v: m.corrcoef(x, rowvar=False),
    "polyfit": lambda m, x, v: m.polyfit([0.0, 1.0, 2.0, 3.0], v, 1),
    "polyfit_2d": lambda m, x, v: m.polyfit([0.0, 1.0, 2.0, 3.0], m.array(x).T, 2),
    "polyfit_w": lambda m, x, v: m.polyfit([0.0, 1.0, 2.0, 3.0], v, 1, w=[1.0, 2.0, 1.0, 1.0]),
    "vander": lambda m, x, v: m.vander(v),
    "vander_n": lambda m, x, v: m.vander(v, 2),
    "inner": lambda m, x, v: m.inner(x, x),
    "inner_1d": lambda m, x, v: m.inner(v, v),
    "innerproduct": lambda m, x, v: m.innerproduct(m.array(v)[0], 2.0),
    "outer": lambda m, x, v: m.outer(v, [1.0, 2.0]),
    "outerproduct": lambda m, x, v: m.outerproduct(x, v),
    "convolve": lambda m, x, v: m.convolve(v, [1.0, 1.0]),
    "convolve_same": lambda m, x, v: m.convolve(v, [1.0, 2.0, 1.0], mode="same"),
    "convolve_valid_keep": lambda m, x, v: m.convolve(
        v, [1.0, 1.0], mode="valid", propagate_mask=False
    ),
    "correlate": lambda m, x, v: m.correlate(v, [1.0, 0.5]),
    "correlate_full_keep": lambda m, x, v: m.correlate(
        v, [1.0, 0.5], mode="full", propagate_mask=False
    ),
}


@pytest.mark.parametrize("kind", sorted(INPUTS))
@pytest.mark.parametrize("name", sorted(CALLS))
def test_matches_numpy_ma(name, kind):
    expected = CALLS[name](numpy.ma, *INPUTS[kind](numpy.ma))
    got = CALLS[name](ma, *INPUTS[kind](ma))
    same(expected, got)


def test_errors_are_numpys():
    x = ma.array(D, mask=M)
    with pytest.raises(ValueError):
        ma.cov(x, allow_masked=False)
    with pytest.raises(ValueError):
        ma.cov(x, ddof=1.5)
    with pytest.raises(ValueError):
        ma.inner([1.0, 2.0], 2.0)
    with pytest.raises(TypeError):
        ma.polyfit([0.0, 1.0], ma.ones((2, 2, 2)), 1)
    with pytest.raises(TypeError):
        ma.polyfit([0.0, 1.0], [1.0, 2.0], 1, w=[[1.0, 1.0]])


def test_corrcoef_of_one_variable_is_masked():
    assert numpy.ma.corrcoef([1.0, 2.0, 3.0]) is numpy.ma.masked
    assert ma.corrcoef([1.0, 2.0, 3.0]) is ma.masked
