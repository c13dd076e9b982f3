"""NumPy parity of _math/ufunclike.py: isposinf and isneginf."""

from __future__ import annotations

import numpy
import pytest

SPECIAL = [0.0, -0.0, 1.5, -2.0, numpy.inf, -numpy.inf, numpy.nan, -numpy.nan]


@pytest.mark.parametrize("name", ["isposinf", "isneginf"])
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_floats(parity, name, dtype):
    x = numpy.array(SPECIAL, dtype)
    grid = numpy.array(SPECIAL * 3, dtype).reshape(4, 6)
    for arg in (x, x[::-1], x[::3], grid.T, grid[:, ::-2], x[:0], x[4]):
        parity(lambda xp, x: getattr(xp, name)(x), arg)


@pytest.mark.parametrize("name", ["isposinf", "isneginf"])
def test_other_dtypes_and_out(parity, name):
    parity(lambda xp, x: getattr(xp, name)(x), numpy.array([-3, 0, 4], "int8"))
    parity(lambda xp, x: getattr(xp, name)(x), numpy.array([True, False]))
    parity(lambda xp, x: getattr(xp, name)(x), numpy.array([1j, numpy.inf]))  # TypeError
    parity(lambda xp: getattr(xp, name)(-numpy.inf))
    parity(lambda xp: getattr(xp, name)([numpy.inf, -numpy.inf]))
    x = numpy.array([[numpy.inf, -numpy.inf, 0.0]] * 2)

    def into_out(xp, x, out):
        result = getattr(xp, name)(x, out)
        return result, out

    parity(into_out, x, numpy.zeros((2, 3), bool), traced=False)
    parity(into_out, x[0], numpy.zeros((2, 3), bool), traced=False)  # broadcast into out
    parity(into_out, x, numpy.zeros((3,), bool), traced=False)  # ValueError
