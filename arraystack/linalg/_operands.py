"""Operands of numpy.linalg functions: NumPy's dtype rule (_commonType) and its shape checks.

NumPy computes in double precision and returns float32/complex64 for single-precision input, float64 for
integers and bools, and rejects float16 and longdouble. The reference rules call numpy.linalg on operands
already converted to the result dtype, which makes NumPy do the same rounding.
"""

from __future__ import annotations

import numpy as np

from arraystack._core.devices import host_values
from arraystack._core.array import wrap
from arraystack._creation.basic import asarray
from arraystack._core.operands import convert_raw
from arraystack.ir.core import ShapeDependsOnDataError, Tracer

LinAlgError = np.linalg.LinAlgError
_SUPPORTED = {np.dtype(d) for d in ("f4", "f8", "c8", "c16")}


def result_dtype(*arrays) -> np.dtype:
    """numpy.linalg's result dtype for `arrays` (arraystack arrays)."""
    single, is_complex = True, False
    for a in arrays:
        dt = a.dtype
        if dt.kind in "fc":
            if dt not in _SUPPORTED:
                raise TypeError(f"array type {dt.name} is unsupported in linalg")
            is_complex |= dt.kind == "c"
            single &= dt in (np.float32, np.complex64)
        else:
            single = False
    if is_complex:
        return np.dtype(np.complex64 if single else np.complex128)
    return np.dtype(np.float32 if single else np.float64)


def prepare(*arrays):
    """The operands as arraystack arrays of their linalg result dtype."""
    arrays = [asarray(a) for a in arrays]
    dt = result_dtype(*arrays)
    return [wrap(convert_raw(a._value, dt)) for a in arrays]


def real_dtype(dtype) -> np.dtype:
    return np.dtype(np.float32) if dtype in (np.float32, np.complex64) else np.dtype(np.float64)


def assert_2d(*arrays):
    for a in arrays:
        if a.ndim != 2:
            raise LinAlgError(f"{a.ndim}-dimensional array given. Array must be two-dimensional")


def assert_stacked_2d(*arrays):
    for a in arrays:
        if a.ndim < 2:
            raise LinAlgError(
                f"{a.ndim}-dimensional array given. Array must be at least two-dimensional"
            )


def assert_stacked_square(*arrays):
    assert_stacked_2d(*arrays)
    for a in arrays:
        if a.shape[-1] != a.shape[-2]:
            raise LinAlgError("Last 2 dimensions of the array must be square")


def concrete(x):
    """x's NumPy value (read back from a device), or None while it is traced."""
    value = x._value
    return None if type(value) is Tracer else host_values(value)


def data_dependent(what, fix):
    return ShapeDependsOnDataError(f"{what} depends on the values of a traced array. {fix}")
