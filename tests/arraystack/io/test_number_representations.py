"""NumPy parity of _io/number_representations.py: binary_repr and base_repr."""

from __future__ import annotations

import numpy
import pytest
from arraystack.ir.core import ConcretizationError

import arraystack

NUMBERS = [
    0,
    1,
    5,
    8,
    255,
    256,
    -1,
    -5,
    -8,
    -128,
    -129,
    2**70,
    -(2**70),
    numpy.int8(-3),
    numpy.uint64(2**63),
]


def _same(fn):
    try:
        expected = fn(numpy)
    except (ValueError, TypeError) as e:
        with pytest.raises(type(e)):
            fn(arraystack)
        return
    assert fn(arraystack) == expected


@pytest.mark.parametrize("num", NUMBERS)
@pytest.mark.parametrize("width", [None, 0, 1, 3, 8, 12, 80])
def test_binary_repr(num, width):
    _same(lambda xp: xp.binary_repr(num, width))
    _same(lambda xp: xp.binary_repr(xp.asarray(num), width))


@pytest.mark.parametrize("num", NUMBERS + [3.7, -2.5])
@pytest.mark.parametrize("base", [1, 2, 3, 10, 16, 36, 37])
@pytest.mark.parametrize("padding", [0, 3])
def test_base_repr(num, base, padding):
    _same(lambda xp: xp.base_repr(num, base, padding))


def test_binary_repr_rejects_floats_and_traced_values():
    _same(lambda xp: xp.binary_repr(2.0))
    _same(lambda xp: xp.binary_repr(xp.asarray(2.0)))
    with pytest.raises(ConcretizationError):
        arraystack.jit(lambda n: arraystack.zeros(len(arraystack.binary_repr(n))))(numpy.array(5))
