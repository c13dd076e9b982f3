"""NumPy parity of cumsum, cumprod, cumulative_sum and cumulative_prod (_cumulative)."""

from __future__ import annotations

import functools

import numpy
import pytest

from tests import oracle

make = functools.partial(oracle.make, scale=3)


# empty slices, NaN and inf inputs warn in NumPy and arraystack alike; the values are compared
pytestmark = pytest.mark.usefixtures("quiet_numerics")


@pytest.mark.parametrize("include_initial", [False, True])
@pytest.mark.parametrize("axis", [None, 0, -1])
@pytest.mark.parametrize("dtype", ["bool", "int8", "float32", "complex128"])
@pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod"])
def test_cumulative(parity, name, dtype, axis, include_initial):
    for shape in [(5,), (0,), ()]:
        parity(
            lambda xp, x: getattr(xp, name)(x, axis=axis, include_initial=include_initial),
            make(shape, dtype),
        )
    parity(
        lambda xp, x: getattr(xp, name)(
            x, axis=axis, include_initial=include_initial, dtype="float64"
        ),
        make((3, 4), dtype),
    )


@pytest.mark.parametrize("axis", [None, 0, 1, -1, (1,), (0, 1), 2], ids=str)
@pytest.mark.parametrize("dtype", ["bool", "uint8", "int32", "float16", "complex128"])
@pytest.mark.parametrize("name", ["cumsum", "cumprod", "cumulative_sum", "cumulative_prod"])
def test_scan_axes_and_dtypes(parity, name, dtype, axis):
    parity(lambda xp, x: getattr(xp, name)(x, axis=axis), make((3, 4), dtype))
    parity(lambda xp, x: getattr(xp, name)(xp.transpose(x)[::-1], axis=axis), make((3, 4), dtype))


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int64", "float32"])
@pytest.mark.parametrize("name", ["cumsum", "cumprod", "cumulative_sum"])
def test_scan_dtype_argument_wraps(parity, name, dtype):
    x = numpy.array([100, 100, 100, 27, -5], numpy.int64)
    parity(lambda xp, x: getattr(xp, name)(x, dtype=dtype), x)
