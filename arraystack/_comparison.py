"""Array comparisons: isclose, allclose, array_equal, array_equiv, written as numpy/_core/numeric.py writes
them. isclose is elementwise and traces; the others return a Python bool, so they need concrete values."""

from __future__ import annotations

import builtins
from typing import TYPE_CHECKING

import numpy as np

import arraystack as anp

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, NDArray


def _operand(v):
    return v if isinstance(v, (int, float, complex)) else anp.asarray(v)


def isclose(
    a: ArrayLike,
    b: ArrayLike,
    rtol: float = 1.0e-5,
    atol: float = 1.0e-8,
    equal_nan: bool = False,
) -> NDArray:
    """Returns a boolean array where two arrays are element-wise equal within a tolerance.

    For finite values, ``absolute(a - b) <= atol + rtol * absolute(b)``; infinities must be equal.

    Parameters
    ----------
    a : array_like
        First input array.
    b : array_like
        Second input array.
    rtol : float, optional
        The relative tolerance.
    atol : float, optional
        The absolute tolerance.
    equal_nan : bool, optional
        Whether to compare NaNs as equal.

    Returns
    -------
    y : ndarray
        Boolean array of where `a` and `b` are equal within the tolerance.

    See Also
    --------
    numpy.isclose : The NumPy function this mirrors.
    allclose, equal
    """
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


def allclose(
    a: ArrayLike,
    b: ArrayLike,
    rtol: float = 1.0e-5,
    atol: float = 1.0e-8,
    equal_nan: bool = False,
) -> bool:
    """Returns True if two arrays are element-wise equal within a tolerance.

    The test is ``all(isclose(a, b, rtol, atol, equal_nan))``.

    Parameters
    ----------
    a : array_like
        First input array.
    b : array_like
        Second input array.
    rtol : float, optional
        The relative tolerance.
    atol : float, optional
        The absolute tolerance.
    equal_nan : bool, optional
        Whether to compare NaNs as equal.

    Returns
    -------
    allclose : bool
        True if the arrays are equal within the tolerance.

    See Also
    --------
    numpy.allclose : The NumPy function this mirrors.
    isclose, array_equal

    Notes
    -----
    The result is a Python bool, so under `jit` it needs concrete values (a traced input raises
    ConcretizationError).
    """
    return builtins.bool(anp.all(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)))


def _as_arrays(a1, a2):
    try:
        return anp.asarray(a1), anp.asarray(a2)
    except (TypeError, ValueError):
        return None


def array_equal(a1: ArrayLike, a2: ArrayLike, equal_nan: bool = False) -> bool:
    """True if two arrays have the same shape and elements, False otherwise.

    Parameters
    ----------
    a1 : array_like
        First input array.
    a2 : array_like
        Second input array.
    equal_nan : bool, optional
        Whether to compare NaNs as equal.

    Returns
    -------
    b : bool
        True if the arrays are equal.

    See Also
    --------
    numpy.array_equal : The NumPy function this mirrors.
    array_equiv, allclose, equal

    Notes
    -----
    The result is a Python bool, so under `jit` it needs concrete values.
    """
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


def array_equiv(a1: ArrayLike, a2: ArrayLike) -> bool:
    """Returns True if input arrays are shape consistent and all elements equal.

    Shape consistent means one can be broadcast to the other; shapes that do not broadcast give
    False.

    Parameters
    ----------
    a1 : array_like
        First input array.
    a2 : array_like
        Second input array.

    Returns
    -------
    out : bool
        True if the arrays are equivalent.

    See Also
    --------
    numpy.array_equiv : The NumPy function this mirrors.
    array_equal

    Notes
    -----
    The result is a Python bool, so under `jit` it needs concrete values.
    """
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
