"""NumPy parity of _math/bit_packing.py: packbits and unpackbits."""

from __future__ import annotations

import numpy
import pytest

import arraystack


def make(shape, dtype, seed=0):
    rng = numpy.random.default_rng(seed)
    if numpy.dtype(dtype).kind == "b":
        return rng.random(shape) > 0.5
    if numpy.dtype(dtype).kind == "f":
        return rng.integers(0, 2, shape).astype(dtype)
    return rng.integers(0, 3, shape).astype(dtype) * (rng.random(shape) > 0.5)


LAYOUTS = {
    "contiguous": lambda x: x,
    "transposed": lambda x: x.T,
    "strided": lambda x: x[::2, 1:],
    "reversed": lambda x: x[::-1, ::-3],
    "zero_d": lambda x: x[0, 0, ...],
    "empty": lambda x: x[:0],
}


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int64", "float64"])
@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("bitorder", ["big", "little", "l", "B", "x"])
def test_packbits(parity, dtype, layout, bitorder):
    x = LAYOUTS[layout](make((5, 11), dtype))
    for axis in (None, 0, 1, -1, 2):
        parity(lambda xp, x, axis=axis: xp.packbits(x, axis=axis, bitorder=bitorder), x)


def test_packbits_inputs(parity):
    parity(lambda xp: xp.packbits([1, 0, 1, 1]))
    parity(lambda xp: xp.packbits([1.0, 0.0]))  # TypeError
    parity(lambda xp, x: xp.packbits(x), numpy.array([-1, 256, 0, 2], "int64"))


@pytest.mark.parametrize("dtype", ["uint8", "int8", "bool"])
@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("bitorder", ["big", "little", "q"])
def test_unpackbits(parity, dtype, layout, bitorder):
    x = LAYOUTS[layout](numpy.random.default_rng(1).integers(0, 256, (5, 3)).astype(dtype))
    for axis in (None, 0, 1, -1, 2):
        for count in (None, 0, 5, 8, 30, -3, -16, -100):
            if layout == "empty" and count and count > 0:
                continue  # NumPy pads with uninitialized memory: test_unpackbits_pads_with_zeros
            parity(
                lambda xp, x, a=axis, c=count: xp.unpackbits(x, axis=a, count=c, bitorder=bitorder),
                x,
            )


def test_unpackbits_pads_with_zeros():
    empty = arraystack.asarray(numpy.zeros((0, 3), numpy.uint8))
    for axis, shape in ((None, (5,)), (0, (5, 3)), (1, (0, 5))):
        out = arraystack.unpackbits(empty, axis=axis, count=5)
        numpy.testing.assert_array_equal(numpy.asarray(out), numpy.zeros(shape, numpy.uint8))
        assert out.dtype == numpy.uint8


def test_round_trip():
    x = arraystack.asarray(make((3, 13), "bool"))
    packed = arraystack.packbits(x, axis=1)
    back = arraystack.unpackbits(packed, axis=1, count=13).astype(bool)
    numpy.testing.assert_array_equal(numpy.asarray(back), numpy.asarray(x))
