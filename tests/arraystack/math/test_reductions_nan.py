"""NumPy parity of the NaN-ignoring reductions and scans (_reductions_nan), eager and traced."""

from __future__ import annotations

import functools

import numpy
import pytest

from tests import oracle

make = functools.partial(oracle.make, scale=3)


# empty slices, NaN and inf inputs warn in NumPy and arraystack alike; the values are compared
pytestmark = pytest.mark.usefixtures("quiet_numerics")


NAN = {
    "nansum": lambda xp, x: xp.nansum(x),
    "nanprod": lambda xp, x: xp.nanprod(x, axis=-1) if x.ndim else xp.nanprod(x),
    "nanmax": lambda xp, x: xp.nanmax(x),
    "nanmin": lambda xp, x: xp.nanmin(x, axis=0) if x.ndim else xp.nanmin(x),
    "nanmean": lambda xp, x: xp.nanmean(x),
    "nanvar": lambda xp, x: xp.nanvar(x, axis=-1) if x.ndim else xp.nanvar(x),
    "nanstd": lambda xp, x: xp.nanstd(x),
    "nanargmax": lambda xp, x: xp.nanargmax(x),
    "nanargmin": lambda xp, x: xp.nanargmin(x, axis=0) if x.ndim else xp.nanargmin(x),
    "nancumsum": lambda xp, x: xp.nancumsum(x),
    "nancumprod": lambda xp, x: xp.nancumprod(x, axis=0) if x.ndim else xp.nancumprod(x),
}


@pytest.mark.parametrize("shape", [(), (0,), (7,), (3, 4), (2, 3, 4)], ids=str)
@pytest.mark.parametrize("dtype", ["int32", "float16", "float32", "float64", "complex128"])
@pytest.mark.parametrize("name", sorted(NAN))
def test_nan_function_dtype_shape(parity, name, dtype, shape):
    if name in ("nanargmax", "nanargmin") and dtype != "int32" and 0 < numpy.prod(shape) < 4:
        shape = (5,)  # an all-NaN slice raises only eagerly; see test_nanarg_all_nan
    parity(NAN[name], make(shape, dtype, nan=True))


SPECIAL = numpy.array(
    [
        [1.0, numpy.nan, -numpy.inf, 2.0],
        [numpy.inf, -0.0, 0.0, 5.0],
        [numpy.nan, numpy.nan, numpy.nan, numpy.nan],
    ]
)


@pytest.mark.parametrize("axis", [None, 0, 1])
@pytest.mark.parametrize(
    "name",
    [
        "sum",
        "prod",
        "max",
        "min",
        "mean",
        "var",
        "std",
        "argmax",
        "argmin",
        "ptp",
        "any",
        "all",
        "count_nonzero",
        "nansum",
        "nanprod",
        "nanmax",
        "nanmin",
        "nanmean",
        "nanvar",
        "nanstd",
    ],
)
@pytest.mark.parametrize("dtype", ["float16", "float64", "complex128"])
def test_nan_inf(parity, name, axis, dtype):
    parity(lambda xp, x: getattr(xp, name)(x, axis=axis), SPECIAL.astype(dtype))


@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
@pytest.mark.parametrize("name", ["nansum", "nanprod", "nanmean", "nanmax", "nanmin", "nanvar"])
def test_nan_free_and_one_nan(parity, name, dtype, keepdims):
    x = make((3, 4), dtype)
    for axis in [None, 1]:
        parity(lambda xp, x, axis=axis: getattr(xp, name)(x, axis=axis, keepdims=keepdims), x)
    x[1, 2] = numpy.nan
    for axis in [None, 0, 1]:
        parity(lambda xp, x, axis=axis: getattr(xp, name)(x, axis=axis, keepdims=keepdims), x)


@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)], ids=str)
@pytest.mark.parametrize("name", ["nanmin", "nanmax"])
def test_complex_all_nan_slice_keeps_first_element(parity, name, axis):
    n = numpy.nan
    x = numpy.array([[complex(n, 1), complex(n, 2)], [complex(3, n), complex(n, n)]])

    def parts(xp, x):
        r = getattr(xp, name)(x, axis=axis)
        return xp.real(r), xp.imag(r)

    parity(parts, x)
    parity(lambda xp, x: parts(xp, xp.transpose(x)), x)


@pytest.mark.parametrize("name", ["cumsum", "cumprod", "nancumsum", "nancumprod"])
def test_nan_inf_scans(parity, name):
    parity(lambda xp, x: getattr(xp, name)(x, axis=1), SPECIAL)


@pytest.mark.parametrize("name", ["nanargmax", "nanargmin"])
def test_nanarg_all_nan(parity, name):
    parity(lambda xp, x: getattr(xp, name)(x[:2], axis=1), SPECIAL)
    # an all-NaN slice is data: only eager arraystack can raise NumPy's ValueError
    parity(lambda xp, x: getattr(xp, name)(x, axis=1), SPECIAL, traced=False)
    parity(lambda xp, x: getattr(xp, name)(x, axis=0), SPECIAL, traced=False)
