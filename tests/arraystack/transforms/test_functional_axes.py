"""NumPy parity of _transforms/functional_axes.py: apply_over_axes."""

from __future__ import annotations

import numpy
import pytest

DTYPES = ["bool", "int8", "float32", "complex128"]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("axes", [0, -1, [0, 2], (2, 0), [], numpy.array([1, 2]), [0, 0]])
@pytest.mark.parametrize("func", ["sum", "max", "mean", "cumsum"])
def test_apply_over_axes(parity, dtype, axes, func):
    x = (numpy.arange(24) % 7).astype(dtype).reshape(2, 3, 4)
    for arg in (x, x.transpose(2, 0, 1), x[::-1, :, ::2]):
        parity(lambda xp, x: xp.apply_over_axes(getattr(xp, func), x, axes), arg)


def test_apply_over_axes_errors(parity):
    x = numpy.arange(6.0).reshape(2, 3)
    parity(lambda xp, x: xp.apply_over_axes(lambda a, axis: a.ravel()[0], x, 0), x)  # ValueError
    parity(lambda xp, x: xp.apply_over_axes(xp.sum, x, 3), x)  # AxisError
    parity(lambda xp: xp.apply_over_axes(xp.sum, [[1, 2]], 0))  # AttributeError: no ndim
