"""NumPy parity of _creation/checked_conversions.py: asarray_chkfinite, real_if_close,
sort_complex."""

from __future__ import annotations

import functools

import numpy
import pytest
from arraystack.ir.core import ConcretizationError

import arraystack
from tests import oracle

DTYPES = oracle.DTYPES


# integer-valued floats: ties exercise the imaginary sort key
make = functools.partial(oracle.make, ints=(0, 50), ties=True)


@pytest.mark.parametrize("dtype", DTYPES)
def test_asarray_chkfinite(parity, dtype):
    x = make((3, 4), dtype)
    for arg in (x, x.T, x[::-1, ::2], x[:0], x[0, 0]):
        parity(lambda xp, x: xp.asarray_chkfinite(x), arg, traced=False)
    parity(lambda xp, x: xp.asarray_chkfinite(x, dtype="float32"), x, traced=False)
    parity(lambda xp, x: xp.asarray_chkfinite(x, order="F"), x, traced=False)
    if numpy.dtype(dtype).kind in "fc":
        for bad in (numpy.nan, numpy.inf, -numpy.inf):
            y = x.copy()
            y[1, 2] = bad
            parity(lambda xp, y: xp.asarray_chkfinite(y), y, traced=False)  # ValueError


def test_asarray_chkfinite_inputs():
    assert arraystack.asarray_chkfinite([1, 2]).dtype == numpy.asarray_chkfinite([1, 2]).dtype
    with pytest.raises(ValueError):
        arraystack.asarray_chkfinite([1.0, numpy.nan])
    x = arraystack.asarray([1.0, 2.0])
    assert arraystack.asarray_chkfinite(x) is x
    with pytest.raises(ConcretizationError):
        arraystack.jit(arraystack.asarray_chkfinite)(numpy.ones(2))


@pytest.mark.parametrize("dtype", ["float32", "complex64", "complex128", "int8"])
@pytest.mark.parametrize("tol", [100, 1000, 1e-3, 1])
def test_real_if_close(parity, dtype, tol):
    eps = numpy.finfo(numpy.dtype(dtype)).eps if numpy.dtype(dtype).kind in "fc" else 0
    base = make((3, 4), dtype)
    for imag in (0.0, 50 * eps, 500 * eps, 1e-4, 1.0):
        x = base + numpy.asarray(imag * 1j).astype(dtype) if base.dtype.kind == "c" else base
        for arg in (x, x.T, x[::-1], x[:0], x[0, 0]):
            parity(lambda xp, x: xp.real_if_close(x, tol=tol), arg, traced=False)


def test_real_if_close_identity_and_view():
    x = arraystack.asarray([1.0, 2.0])
    assert arraystack.real_if_close(x) is x
    z = arraystack.asarray(numpy.array([1.0, 2.0], complex))
    out = arraystack.real_if_close(z)
    assert out.dtype == numpy.float64
    out[0] = 7.0
    assert complex(z[0]) == 7.0
    with pytest.raises(ConcretizationError):
        arraystack.jit(arraystack.real_if_close)(numpy.ones(2, complex))
    real = arraystack.jit(arraystack.real_if_close)(numpy.ones(2))  # real input: no value needed
    numpy.testing.assert_array_equal(numpy.asarray(real), numpy.ones(2))


@pytest.mark.parametrize("dtype", DTYPES)
def test_sort_complex(parity, dtype):
    x = make((3, 5), dtype)
    for arg in (x, x.T, x[::-1, ::-2], x[:0], x[0]):
        parity(lambda xp, x: xp.sort_complex(x), arg)
    parity(lambda xp: xp.sort_complex([3, 1j, 1 - 1j, 1, 0]))
    nan = numpy.array([complex(numpy.nan, 1), 1 + 2j, complex(1, numpy.nan), -numpy.inf, 0j])
    parity(lambda xp, x: xp.sort_complex(x), nan)
    parity(lambda xp, x: xp.sort_complex(x), numpy.array(2.0))  # 0-d: AxisError


def test_sort_complex_copies():
    x = arraystack.asarray(numpy.array([3.0 + 0j, 1.0]))
    out = arraystack.sort_complex(x)
    out[0] = 9.0
    numpy.testing.assert_array_equal(numpy.asarray(x), [3.0, 1.0])
