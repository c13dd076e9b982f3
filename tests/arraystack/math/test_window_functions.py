"""NumPy parity of _math/window_functions.py: bartlett, blackman, hamming, hanning, kaiser."""

from __future__ import annotations

import numpy
import pytest
from arraystack.ir.core import ConcretizationError

import arraystack

LENGTHS = [-3, 0, 1, 2, 5, 12, 2.5, numpy.int8(4), numpy.float32(6), True]


@pytest.mark.parametrize("name", ["bartlett", "blackman", "hamming", "hanning"])
def test_cosine_windows(parity, name):
    for m in LENGTHS:
        parity(lambda xp, m=m: getattr(xp, name)(m))
    parity(lambda xp: getattr(xp, name)(arraystack.asarray(7) if xp is arraystack else 7))
    parity(lambda xp: getattr(xp, name)("4"))  # TypeError
    parity(lambda xp: getattr(xp, name)([3, 4]))  # ValueError
    with pytest.raises(ConcretizationError):
        arraystack.jit(getattr(arraystack, name))(numpy.array(5))


@pytest.mark.parametrize("beta", [0, 0.5, 5.0, 14, -2.0, numpy.float32(3.0)])
def test_kaiser(parity, beta):
    for m in LENGTHS:
        parity(lambda xp, m=m: xp.kaiser(m, beta))
    # a traced beta: the window is traced too
    for m in (0, 1, 2, 7, 8.0):
        parity(lambda xp, b, m=m: xp.kaiser(m, b), numpy.array(beta, numpy.float64))
        parity(lambda xp, b, m=m: xp.kaiser(m, b), numpy.array(beta, numpy.float32))


def test_kaiser_errors(parity):
    parity(lambda xp, b: xp.kaiser(5, b), numpy.array([1.0, 2.0]))  # ValueError, also traced
    parity(lambda xp: xp.kaiser(5, 1j))  # TypeError: i0 of complex
    with pytest.raises(ConcretizationError):
        arraystack.jit(lambda m: arraystack.kaiser(m, 2.0))(numpy.array(5))
