"""NumPy parity of _polynomial/construction.py: vander and poly."""

from __future__ import annotations

import functools

import numpy
import pytest
from arraystack.ir.core import ConcretizationError

import arraystack
from tests import oracle

DTYPES = oracle.DTYPES


make = functools.partial(oracle.make, ints=(0, 9))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("increasing", [False, True])
def test_vander(parity, dtype, increasing):
    x = make(12, dtype)
    for arg in (x[:5], x[::-3], x[:0], x[:1]):
        for n in (None, 0, 1, 2, 4, 7):
            parity(lambda xp, x, n=n: xp.vander(x, n, increasing), arg)
    parity(lambda xp, x: xp.vander(x, -1), x)  # ValueError
    parity(lambda xp, x: xp.vander(x, 2.5), x)  # TypeError
    parity(lambda xp, x: xp.vander(x), x.reshape(3, 4))  # ValueError: not 1-d
    parity(lambda xp, x: xp.vander(x), x[0])  # ValueError: 0-d


def test_vander_wraps_integers(parity):
    parity(lambda xp, x: xp.vander(x, 12), numpy.array([3, 250, 2**40], "int64"))
    parity(lambda xp: xp.vander([1, 2, 3]))


@pytest.mark.parametrize("dtype", ["int8", "int64", "float32", "float64", "bool"])
def test_poly_real_roots(parity, dtype):
    roots = make(6, dtype)
    for arg in (roots, roots[::-2], roots[:1], roots[:0]):
        parity(lambda xp, r: xp.poly(r), arg)
    parity(lambda xp, r: xp.poly(r), roots[0])  # 0-d: one root
    parity(lambda xp, r: xp.poly(r), roots.reshape(2, 3))  # ValueError
    parity(lambda xp, r: xp.poly(r), roots.reshape(1, 2, 3))  # ValueError


def test_poly_complex_and_matrices(parity):
    pairs = numpy.array([1 + 2j, 1 - 2j, 3.0])
    parity(lambda xp, r: xp.poly(r), pairs, traced=False)  # conjugate pairs: real result
    parity(lambda xp, r: xp.poly(r), numpy.array([1 + 2j, 3.0]), traced=False)
    parity(lambda xp, r: xp.poly(r), pairs.astype("complex64"), traced=False)
    parity(lambda xp, m: xp.poly(m), numpy.array([[1.0, 2.0], [3.0, 4.0]]), traced=False)
    parity(lambda xp, m: xp.poly(m), numpy.array([[0.0, -1.0], [1.0, 0.0]]), traced=False)
    assert arraystack.poly([]) == numpy.poly([]) == 1.0
    with pytest.raises(ConcretizationError):
        arraystack.jit(arraystack.poly)(pairs)
