"""Array comparisons: isclose, allclose, array_equal, array_equiv, written as numpy/_core/numeric.py writes
them. isclose is elementwise and traces; the others return a Python bool, so they need concrete values."""

from __future__ import annotations

import builtins

import numpy as np

import arraystack as anp


def _operand(v):
    return v if isinstance(v, (int, float, complex)) else anp.asarray(v)


def isclose(a, b, rtol=1.0e-5, atol=1.0e-8, equal_nan=False):
    """Mirrors numpy.isclose: |a - b| <= atol + rtol * |b| for finite b, or a == b."""
    x, y, atol, rtol = (_operand(v) for v in (a, b, atol, rtol))
    dtype = getattr(y, "dtype", None)
    if dtype is not None and dtype.kind != "m":
        y = y.astype(np.result_type(dtype, 1.0), copy=False)
    elif isinstance(y, int):
        y = float(y)
    with np.errstate(invalid="ignore"):
        result = (anp.less_equal(anp.abs(x - y), atol + rtol * anp.abs(y)) & anp.isfinite(y)) | (
            x == y
        )
        if equal_nan:
            result = result | (anp.isnan(x) & anp.isnan(y))
    return anp.asarray(result)


def allclose(a, b, rtol=1.0e-5, atol=1.0e-8, equal_nan=False):
    """Mirrors numpy.allclose: a Python bool (so it needs concrete values under jit)."""
    return builtins.bool(anp.all(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)))


def _as_arrays(a1, a2):
    try:
        return anp.asarray(a1), anp.asarray(a2)
    except (TypeError, ValueError):
        return None


def array_equal(a1, a2, equal_nan=False):
    """Mirrors numpy.array_equal: same shape and elements (NaNs equal with equal_nan=True); a Python bool."""
    pair = _as_arrays(a1, a2)
    if pair is None:
        return False
    a1, a2 = pair
    if a1.shape != a2.shape:
        return False
    equal = a1 == a2
    if equal_nan and (a1.dtype.kind in "fc" or a2.dtype.kind in "fc"):
        equal = equal | (anp.isnan(a1) & anp.isnan(a2))
    return builtins.bool(anp.all(equal))


def array_equiv(a1, a2):
    """Mirrors numpy.array_equiv: equal after broadcasting; False when the shapes do not broadcast."""
    pair = _as_arrays(a1, a2)
    if pair is None:
        return False
    a1, a2 = pair
    try:
        np.broadcast_shapes(a1.shape, a2.shape)
    except ValueError:
        return False
    return builtins.bool(anp.all(a1 == a2))


__all__ = ["allclose", "array_equal", "array_equiv", "isclose"]
