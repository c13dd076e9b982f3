"""NumPy parity of _indexing/index_expressions.py: s_, index_exp and mask_indices."""

from __future__ import annotations

import numpy
import pytest
from arraystack.ir.core import ShapeDependsOnDataError

import arraystack

SUBSCRIPTS = [
    (lambda e: e[1]),
    (lambda e: e[1:5:2]),
    (lambda e: e[::-1, None]),
    (lambda e: e[..., 0]),
    (lambda e: e[()]),
    (lambda e: e[[0, 2]]),
]


@pytest.mark.parametrize("make", SUBSCRIPTS)
def test_index_expressions_build_numpys_subscripts(make):
    for name in ("s_", "index_exp"):
        assert make(getattr(arraystack, name)) == make(getattr(numpy, name))
        assert type(make(getattr(arraystack, name))) is type(make(getattr(numpy, name)))


@pytest.mark.parametrize("make", SUBSCRIPTS[:4])
def test_index_expressions_index_arrays(parity, make):
    x = numpy.arange(60.0).reshape(6, 10)
    parity(lambda xp, x: x[make(xp.s_)], x)
    parity(lambda xp, x: x[make(xp.index_exp)], x[::-1])
    assert repr(arraystack.s_) == "s_" and repr(arraystack.index_exp) == "index_exp"


@pytest.mark.parametrize("n", [0, 1, 4])
@pytest.mark.parametrize("k", [-2, 0, 1, 5])
@pytest.mark.parametrize("func", ["triu", "tril"])
def test_mask_indices(parity, n, k, func):
    parity(lambda xp: xp.mask_indices(n, getattr(xp, func), k), traced=False)


def test_mask_indices_custom_function(parity):
    parity(lambda xp: xp.mask_indices(3, lambda m, k: m * (m.sum(axis=0) > k), 2), traced=False)
    parity(lambda xp: xp.mask_indices(-1, xp.triu), traced=False)  # ValueError
    with pytest.raises(ShapeDependsOnDataError):
        arraystack.jit(lambda x: arraystack.mask_indices(3, arraystack.triu)[0] + x)(1)
