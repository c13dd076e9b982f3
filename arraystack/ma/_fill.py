"""Fill values: the defaults per dtype kind, the extremes reductions fill with, and their checks.

A fill value is host metadata (a NumPy scalar), never traced: it travels in a MaskedArray's pytree
auxiliary data, so it is part of a jit cache key.
"""

from __future__ import annotations

import numpy as np

# numpy.ma's defaults by dtype kind: what filled() writes where no fill value was set
_DEFAULTS = {
    "b": np.True_,
    "i": np.int64(999999),
    "u": np.uint64(999999),
    "f": np.float64(1.0e20),
    "c": np.complex128(1.0e20 + 0j),
}


def default_fill_value(obj):
    """Return the default fill value for the argument object.

    Parameters
    ----------
    obj : ndarray, dtype or scalar
        The array, dtype or scalar whose default fill value is wanted.

    Returns
    -------
    fill_value : scalar
        True for booleans, 999999 for integers, 1e20 for floats and 1e20+0j for complex numbers.

    See Also
    --------
    numpy.ma.default_fill_value : The NumPy function this mirrors.
    set_fill_value, MaskedArray.fill_value

    Examples
    --------
    >>> import arraystack as np
    >>> np.ma.default_fill_value(np.dtype("float32"))
    1e+20
    """
    dtype = _dtype_of(obj)
    value = _DEFAULTS.get(dtype.kind)
    if value is None:
        return "N/A" if dtype.kind in "SUV" else "?"
    return value.item()


def stored_default(dtype) -> np.generic:
    """The default fill value as a MaskedArray stores it (a NumPy scalar of the widest type)."""
    dtype = np.dtype(dtype)
    return _DEFAULTS.get(dtype.kind, np.float64(1.0e20))


def is_default_fill(fill, dtype) -> bool:
    """Whether `fill` is `dtype`'s default as stored: numpy.ma's unset fill value (its None)."""
    default = stored_default(dtype)
    return type(fill) is type(default) and fill == default


def check_fill_value(fill_value, dtype) -> np.generic:
    """`fill_value` as the NumPy scalar of `dtype` a MaskedArray stores; its default for None."""
    dtype = np.dtype(dtype)
    if fill_value is None:
        return stored_default(dtype)
    if hasattr(fill_value, "_data") and hasattr(fill_value, "_mask"):  # a masked scalar
        fill_value = fill_value.filled()
    value = np.asarray(fill_value)
    if value.dtype.kind in "SUVO" and dtype.kind not in "SUVO":
        raise TypeError(f"Cannot set fill value of string with array of dtype {dtype}")
    try:
        return np.asarray(value, dtype=dtype)[()]
    except (OverflowError, ValueError) as error:
        raise TypeError(f"Cannot convert fill_value {fill_value!r} to dtype {dtype}") from error


def minimum_fill(dtype):
    """What min() and argmin() fill masked entries with: the largest value of `dtype`."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return True
    if dtype.kind in "iu":
        return np.iinfo(dtype).max
    return np.inf


def maximum_fill(dtype):
    """What max() and argmax() fill masked entries with: the smallest value of `dtype`."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return False
    if dtype.kind in "iu":
        return np.iinfo(dtype).min
    return -np.inf


def _dtype_of(obj) -> np.dtype:
    if isinstance(obj, np.dtype):
        return obj
    if isinstance(obj, type) and issubclass(obj, np.generic):
        return np.dtype(obj)
    dtype = getattr(obj, "dtype", None)
    if dtype is not None:
        return np.dtype(dtype)
    return np.asarray(obj).dtype


def maximum_fill_value(obj):
    """Return the minimum value that can be represented by the dtype of an object.

    Parameters
    ----------
    obj : ndarray, dtype or scalar
        An object that can be queried for its numeric type.

    Returns
    -------
    val : scalar
        The smallest value of the dtype (what `max` fills masked entries with); None for
        strings and objects.

    See Also
    --------
    numpy.ma.maximum_fill_value : The NumPy function this mirrors.
    minimum_fill_value
    """
    return _extreme_fill(obj, maximum_fill, -np.inf)


def minimum_fill_value(obj):
    """Return the maximum value that can be represented by the dtype of an object.

    Parameters
    ----------
    obj : ndarray, dtype or scalar
        An object that can be queried for its numeric type.

    Returns
    -------
    val : scalar
        The largest value of the dtype (what `min` fills masked entries with); None for
        strings and objects.

    See Also
    --------
    numpy.ma.minimum_fill_value : The NumPy function this mirrors.
    maximum_fill_value
    """
    return _extreme_fill(obj, minimum_fill, np.inf)


def _extreme_fill(obj, fill, infinity):
    dtype = _dtype_of(obj)
    if dtype.kind == "b":
        return int(fill(dtype))
    if dtype.kind == "c":
        return complex(infinity, infinity)
    if dtype.kind in "mM":
        return int(np.iinfo(np.int64).max if infinity > 0 else np.iinfo(np.int64).min + 1)
    return fill(dtype) if dtype.kind in "iuf" else None


def common_fill_value(a, b):
    """Return the common filling value of two masked arrays, if any.

    Parameters
    ----------
    a, b : array_like
        The masked arrays (or anything else: its dtype's default fill value counts).

    Returns
    -------
    fill_value : scalar or None
        The common fill value, or None.

    See Also
    --------
    numpy.ma.common_fill_value : The NumPy function this mirrors.
    """
    first, second = _fill_of(a), _fill_of(b)
    return first if first == second else None


def _fill_of(a):
    fill = getattr(a, "_fill_value", None)
    if fill is not None and hasattr(a, "_mask"):
        return fill
    return default_fill_value(a)
