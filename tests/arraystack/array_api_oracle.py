"""array-api-strict as an oracle for the Array API tests: `strict_parity(fn, *args)`.

fn(xp, *args) runs under array_api_strict (the standard's executable reference) and under arraystack. Where
the reference accepts the call, arraystack must give the same values (signed zeros and NaNs included),
dtype and shape. Where it refuses (an error, or behaviour the standard leaves unspecified), arraystack must
behave as NumPy does (the `check_parity` oracle): the same result or exception type.
"""

from __future__ import annotations

import contextlib

import numpy
import pytest

import arraystack
from tests.conftest import assert_same, check_parity, run_traced

xps = pytest.importorskip("array_api_strict")

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
DTYPES += ["float32", "float64", "complex64", "complex128"]
_NUMPY_DTYPES = {getattr(xps, name): numpy.dtype(name) for name in DTYPES}


@contextlib.contextmanager
def strict_version(version="2024.12"):
    """array_api_strict set to one version of the standard for the duration."""
    previous = xps.get_array_api_strict_flags()["api_version"]
    xps.set_array_api_strict_flags(api_version=version)
    try:
        yield
    finally:
        xps.set_array_api_strict_flags(api_version=previous)


def _to_numpy(value):
    """A reference result as NumPy values (arrays via DLPack, dtypes as NumPy dtypes)."""
    if isinstance(value, (tuple, list)):
        return [_to_numpy(v) for v in value]
    if hasattr(value, "__array_namespace__"):
        return numpy.from_dlpack(value)
    if isinstance(value, type(xps.int8)):
        return _NUMPY_DTYPES[value]
    return value


def _with(xp, args):
    asarray = xps.asarray if xp is xps else arraystack.asarray
    return [asarray(a.copy()) if isinstance(a, numpy.ndarray) else a for a in args]


def _same_signed_zeros(expected, actual):
    e, a = numpy.asarray(expected), numpy.asarray(actual)
    if e.dtype.kind == "f" and e.shape == a.shape:
        zeros = e == 0
        numpy.testing.assert_array_equal(numpy.signbit(e[zeros]), numpy.signbit(a[zeros]))


def strict_parity(fn, *args, traced=False, rtol=None):
    """fn(xp, *args) under array_api_strict and arraystack (NumPy array args converted to each); with
    traced=True arraystack's result is also computed from a traced graph (see conftest.run_traced).
    rtol: for floats, as in conftest.assert_same (default: a few ulps)."""
    try:
        expected = fn(xps, *_with(xps, args))
    except Exception:  # noqa: BLE001  (any refusal of the reference hands over to NumPy)
        # The standard refuses or leaves it unspecified: arraystack follows NumPy.
        check_parity(fn, *args, traced=False, rtol=rtol)
        return
    expected = _to_numpy(expected)
    _check(expected, fn(arraystack, *_with(arraystack, args)), rtol)
    if traced:
        _check(expected, run_traced(fn, *args), rtol)


def _check(expected, actual, rtol):
    if isinstance(expected, list):
        assert isinstance(actual, (tuple, list)), (
            f"expected a sequence, got {type(actual).__name__}"
        )
        actual = list(actual)
    elif isinstance(expected, numpy.ndarray):
        assert isinstance(actual, arraystack.ndarray), f"got a {type(actual).__name__}"
    assert_same(expected, actual, rtol=rtol)
    for e, a in zip(expected, actual) if isinstance(expected, list) else [(expected, actual)]:
        if isinstance(e, numpy.ndarray):
            _same_signed_zeros(e, a)
