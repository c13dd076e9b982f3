"""NumPy parity of _core/memory_layout.py: require, isfortran, shares_memory, may_share_memory."""

from __future__ import annotations

import numpy
import pytest
from arraystack.ir.core import ConcretizationError

import arraystack

LAYOUTS = {
    "contiguous": lambda x: x,
    "fortran": lambda x: numpy.asfortranarray(x),
    "transposed": lambda x: x.T,
    "strided": lambda x: x[::2, 1:],
    "reversed": lambda x: x[::-1, ::-2],
    "row": lambda x: x[:1],
    "zero_d": lambda x: x[0, 0, ...],
    "empty": lambda x: x[:0],
    "broadcast": lambda x: numpy.broadcast_to(x[0], (3, 4)),  # read-only
}

REQUIREMENTS = [
    None,
    [],
    "C",
    "F",
    "A",
    "W",
    "O",
    "E",
    ["C", "A"],
    ["F", "O"],
    "CW",
    ["c_contiguous", "OWNDATA"],
    ["ENSUREARRAY", "WRITEABLE"],
    "CF",
    ["X"],
]


def _flags(x):
    flags = x.flags
    return (flags.c_contiguous, flags.f_contiguous, flags.writeable, flags.owndata)


@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("dtype", [None, "float32", "float64"])
def test_require(layout, dtype):
    base = numpy.arange(12.0).reshape(3, 4)
    for requirements in REQUIREMENTS:
        x = LAYOUTS[layout](base)
        try:
            expected = numpy.require(x, dtype, requirements)
        except (ValueError, KeyError) as e:  # "CF", unknown flags
            with pytest.raises(type(e)):
                arraystack.require(arraystack.asarray(x), dtype, requirements)
            continue
        a = arraystack.asarray(x)
        out = arraystack.require(a, dtype, requirements)
        numpy.testing.assert_array_equal(numpy.asarray(out), expected)
        assert out.dtype == expected.dtype
        assert _flags(out)[:3] == _flags(expected)[:3]
        # a copy exactly when NumPy copies
        assert numpy.shares_memory(numpy.asarray(out), numpy.asarray(a)) == (
            numpy.shares_memory(expected, x)
        )


def test_require_traced(parity):
    x = numpy.arange(6.0).reshape(2, 3)
    parity(lambda xp, x: xp.require(x, "float32", "C"), x)
    parity(lambda xp, x: xp.require(x, None, ["F", "O", "W"]), x.T)
    parity(lambda xp, x: xp.require(x, None, "CF"), x)  # ValueError
    parity(lambda xp, x: xp.require(x, None, "Z"), x)  # KeyError
    assert arraystack.require([1, 2], requirements="O").dtype == numpy.require([1, 2]).dtype


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_isfortran(layout):
    x = LAYOUTS[layout](numpy.arange(12.0).reshape(3, 4))
    assert arraystack.isfortran(arraystack.asarray(x)) is numpy.isfortran(x)
    with pytest.raises(AttributeError):
        arraystack.isfortran([[1.0]])
    # traced: the argument's layout (the jitted function is keyed by it)
    assert bool(arraystack.jit(arraystack.isfortran)(x)) is numpy.isfortran(x)


PAIRS = {
    "same": lambda x: (x, x),
    "view": lambda x: (x, x[1:]),
    "disjoint_views": lambda x: (x[0], x[1]),
    "interleaved": lambda x: (x[:, ::2], x[:, 1::2]),  # bounds overlap, no shared element
    "transposed": lambda x: (x, x.T),
    "copy": lambda x: (x, x.copy()),
    "empty": lambda x: (x[:0], x),
}


@pytest.mark.parametrize("pair", list(PAIRS))
@pytest.mark.parametrize("max_work", [None, -1, 0, 1])
def test_shares_memory(pair, max_work):
    base = numpy.arange(12.0).reshape(3, 4)
    a, b = PAIRS[pair](base)
    # the same pair made of arraystack arrays: views of one arraystack array
    root = arraystack.asarray(base)
    as_a, as_b = PAIRS[pair](root)
    kwargs = {} if max_work is None else {"max_work": max_work}
    for name in ("shares_memory", "may_share_memory"):
        try:
            expected = getattr(numpy, name)(a, b, **kwargs)
        except numpy.exceptions.TooHardError as e:  # max_work too small
            with pytest.raises(type(e)):
                getattr(arraystack, name)(as_a, as_b, **kwargs)
            continue
        assert getattr(arraystack, name)(as_a, as_b, **kwargs) is expected


def test_shares_memory_inputs():
    x = arraystack.asarray([1.0, 2.0])
    assert arraystack.shares_memory(x, [1.0, 2.0]) is False
    assert arraystack.may_share_memory(1.0, x) is False
    with pytest.raises(ConcretizationError):
        arraystack.jit(lambda x: arraystack.shares_memory(x, x))(numpy.ones(2))
    with pytest.raises(ConcretizationError):
        arraystack.jit(lambda x: arraystack.may_share_memory(x, x))(numpy.ones(2))
