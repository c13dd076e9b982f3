"""NumPy parity of _manipulation/axis_order.py: rollaxis (results are views of concrete inputs)."""

from __future__ import annotations

import numpy
import pytest

import arraystack


@pytest.mark.parametrize("dtype", ["bool", "int8", "float32", "complex128"])
@pytest.mark.parametrize("shape", [(), (4,), (2, 3), (2, 3, 4), (1, 0, 2, 3)])
def test_rollaxis(parity, dtype, shape):
    x = (numpy.arange(numpy.prod(shape)) % 5).astype(dtype).reshape(shape)
    n = len(shape)
    for axis in range(-n - 1, n + 1):
        for start in range(-n - 2, n + 2):
            parity(lambda xp, x, a=axis, s=start: xp.rollaxis(x, a, s), x)
    if n >= 2:
        parity(lambda xp, x: xp.rollaxis(x, 1), x.T)
        parity(lambda xp, x: xp.rollaxis(x, -1, 1), x[::-1])


def test_rollaxis_returns_a_view():
    x = arraystack.asarray(numpy.zeros((2, 3, 4)))
    out = arraystack.rollaxis(x, 2)
    out[1, 0, 0] = 5.0
    assert float(x[0, 0, 1]) == 5.0
    same = arraystack.rollaxis(x, 1, 2)
    same[0, 0, 0] = 6.0
    assert float(x[0, 0, 0]) == 6.0
