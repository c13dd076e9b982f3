"""Arrays from a fill value: full, zeros, ones, empty and their *_like forms, each one `full` bound (a
transpose of it for order="F"), so the same code traces.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from arraystack._core.array import _make, eager_buffer, ndarray, wrap
from arraystack._creation.from_data import (
    _FLOAT64,
    _SCALAR_DTYPES,
    _SUPPORTED_DTYPES,
    _check_device,
    _check_order,
    asarray,
    astype,
    copy,
)
from arraystack._core.dtypes import check_supported
from arraystack._core.operands import convert_raw
from arraystack._core.shapes import format_shape, shape_tuple
from arraystack.ir.core import Tracer, active, bind, is_tracing
from arraystack.ir.structural import full_p, transpose_p

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, DTypeLike, NDArray, ShapeLike


def _fill_dtype(value):
    dtype = _SCALAR_DTYPES.get(type(value))
    if dtype is not None:
        return dtype
    if hasattr(value, "dtype"):
        return np.dtype(value.dtype)
    return np.asarray(value).dtype


def _filled(shape, value, dtype, order):
    """An array of `shape` filled with the scalar `value` (one `full`), laid out in `order`."""
    if order == "F" and len(shape) > 1:
        out = _filled(shape[::-1], value, dtype, "C")
        return wrap(bind(transpose_p, out._value, permutation=tuple(range(len(shape)))[::-1]))
    if active.n and is_tracing():
        value = convert_raw(value, dtype)  # a typed literal; out-of-range ints raise as NumPy does
    return wrap(bind(full_p, value, shape=shape, dtype=dtype))


def full(
    shape: ShapeLike,
    fill_value: ArrayLike,
    dtype: DTypeLike = None,
    order: str = "C",
    *,
    device: object | None = None,
    like: ArrayLike | None = None,
) -> NDArray:
    """Return a new array of given shape and type, filled with `fill_value`.

    Parameters
    ----------
    shape : int or sequence of ints
        Shape of the new array, e.g. ``(2, 3)`` or ``2``.
    fill_value : scalar or array_like
        Fill value.
    dtype : data-type, optional
        The desired data-type for the array; by default that of `fill_value`, as in NumPy.
    order : {'C', 'F'}, optional
        Whether to store multi-dimensional data in row-major (C-style) or column-major (Fortran-style)
        order in memory.
    device : str or Device, optional
        The device on which to place the created array (Array API); 'cpu' or None.
    like : array_like, optional
        Accepted for NumPy compatibility (NEP 35); arraystack always creates an arraystack array.

    Returns
    -------
    out : ndarray
        Array of `fill_value` with the given shape, dtype, and order.

    See Also
    --------
    numpy.full : The NumPy function this mirrors.
    full_like, zeros, ones, empty
    """
    shape = shape_tuple(shape)
    if device is not None:
        _check_device(device)
    if order != "C":
        _check_order(order)
    value = fill_value._value if isinstance(fill_value, ndarray) else fill_value
    dtype = _fill_dtype(value) if dtype is None else dtype
    dtype = check_supported(dtype)
    if hasattr(value, "shape") and value.shape != ():
        from arraystack._manipulation.reshaping import broadcast_to

        value = asarray(value)
        lead = len(shape) - value.ndim
        if lead < 0 or any(d not in (1, t) for d, t in zip(value.shape, shape[lead:])):
            raise ValueError(
                f"could not broadcast input array from shape {format_shape(value.shape)} into shape "
                f"{format_shape(shape)}"
            )
        return copy(broadcast_to(astype(value, dtype, copy=False), shape), order)
    if isinstance(value, (list, tuple)):
        return full(shape, asarray(value), dtype, order)
    return _filled(shape, value, dtype, order)


def zeros(
    shape: ShapeLike,
    dtype: DTypeLike = None,
    order: str = "C",
    *,
    device: object | None = None,
    like: ArrayLike | None = None,
) -> NDArray:
    """Return a new array of given shape and type, filled with zeros.

    Parameters
    ----------
    shape : int or sequence of ints
        Shape of the new array, e.g. ``(2, 3)`` or ``2``.
    dtype : data-type, optional
        The desired data-type for the array; default float64.
    order : {'C', 'F'}, optional
        Whether to store multi-dimensional data in row-major (C-style) or column-major (Fortran-style)
        order in memory.
    device : str or Device, optional
        The device on which to place the created array (Array API); 'cpu' or None.
    like : array_like, optional
        Accepted for NumPy compatibility (NEP 35); arraystack always creates an arraystack array.

    Returns
    -------
    out : ndarray
        Array of zeros with the given shape, dtype, and order.

    See Also
    --------
    numpy.zeros : The NumPy function this mirrors.
    zeros_like, ones, full, empty
    """
    if not active.n and order == "C" and device is None:
        d = _SUPPORTED_DTYPES.get(dtype)
        if d is not None and type(shape) in (int, tuple):  # eager: full_p's reference rule for 0
            return _make(np.zeros(shape, d))
    if device is not None:
        _check_device(device)
    if order != "C":
        _check_order(order)
    dtype = _FLOAT64 if dtype is None else check_supported(dtype)
    return _filled(shape_tuple(shape), 0, dtype, order)


def ones(
    shape: ShapeLike,
    dtype: DTypeLike = None,
    order: str = "C",
    *,
    device: object | None = None,
    like: ArrayLike | None = None,
) -> NDArray:
    """Return a new array of given shape and type, filled with ones.

    Parameters
    ----------
    shape : int or sequence of ints
        Shape of the new array, e.g. ``(2, 3)`` or ``2``.
    dtype : data-type, optional
        The desired data-type for the array; default float64.
    order : {'C', 'F'}, optional
        Whether to store multi-dimensional data in row-major (C-style) or column-major (Fortran-style)
        order in memory.
    device : str or Device, optional
        The device on which to place the created array (Array API); 'cpu' or None.
    like : array_like, optional
        Accepted for NumPy compatibility (NEP 35); arraystack always creates an arraystack array.

    Returns
    -------
    out : ndarray
        Array of ones with the given shape, dtype, and order.

    See Also
    --------
    numpy.ones : The NumPy function this mirrors.
    ones_like, zeros, full, empty
    """
    if device is not None:
        _check_device(device)
    if order != "C":
        _check_order(order)
    dtype = _FLOAT64 if dtype is None else check_supported(dtype)
    return _filled(shape_tuple(shape), 1, dtype, order)


def empty(
    shape: ShapeLike,
    dtype: DTypeLike = None,
    order: str = "C",
    *,
    device: object | None = None,
    like: ArrayLike | None = None,
) -> NDArray:
    """Return a new array of given shape and type (zero-filled in arraystack).

    Parameters
    ----------
    shape : int or sequence of ints
        Shape of the new array, e.g. ``(2, 3)`` or ``2``.
    dtype : data-type, optional
        The desired data-type of the result. By default it is inferred from the input, as in NumPy.
    order : {'C', 'F'}, optional
        Whether to store multi-dimensional data in row-major (C-style) or column-major (Fortran-style)
        order in memory.
    device : str or Device, optional
        The device on which to place the created array (Array API); 'cpu' or None.
    like : array_like, optional
        Accepted for NumPy compatibility (NEP 35); arraystack always creates an arraystack array.

    Returns
    -------
    out : ndarray
        Array of zeros with the given shape, dtype, and order.

    See Also
    --------
    numpy.empty : The NumPy function this mirrors.
    empty_like, zeros, ones, full

    Notes
    -----
    arraystack zero-fills, so the contents are deterministic (NumPy leaves them uninitialized).
    """
    # Note: arraystack zero-fills, so the contents are deterministic (NumPy leaves them uninitialized).
    return zeros(shape, dtype, order, device=device)


def _like(a, dtype, order, shape):
    """dtype, shape and memory order of a *_like result."""
    _check_order(order)
    if not isinstance(a, ndarray):
        a = asarray(a)
    dtype = a.dtype if dtype is None else check_supported(dtype)
    shape = a.shape if shape is None else shape_tuple(shape)
    value = a._value
    if order in ("K", "A") and type(value) is not Tracer:
        order = "F" if value.flags.f_contiguous and not value.flags.c_contiguous else "C"
    return dtype, shape, "F" if order == "F" else "C"


def full_like(
    a: ArrayLike,
    fill_value: ArrayLike,
    dtype: DTypeLike = None,
    order: str = "K",
    subok: bool = True,
    shape: ShapeLike | None = None,
    *,
    device: object | None = None,
) -> NDArray:
    """Return a full array with the same shape and type as a given array.

    Parameters
    ----------
    a : array_like
        The shape and data-type of `a` define these same attributes of the returned array.
    fill_value : array_like
        Fill value, cast to the result dtype (unsafe casting, as in NumPy).
    dtype : data-type, optional
        Overrides the data type of the result.
    order : {'C', 'F', 'A', 'K'}, optional
        Overrides the memory layout of the result; 'K' matches `a`'s layout as closely as possible.
    subok : bool, optional
        Accepted for compatibility; arraystack has no array subclasses.
    shape : int or sequence of ints, optional
        Overrides the shape of the result.
    device : str or Device, optional
        The device on which to place the created array (Array API); 'cpu' or None.

    Returns
    -------
    out : ndarray
        Array of `fill_value` with the same shape and type as `a`.

    See Also
    --------
    numpy.full_like : The NumPy function this mirrors.
    full, zeros_like, ones_like, empty_like
    """
    _check_device(device)
    dtype, shape, order = _like(a, dtype, order, shape)
    return full(shape, fill_value, dtype, order)


def zeros_like(
    a: ArrayLike,
    dtype: DTypeLike = None,
    order: str = "K",
    subok: bool = True,
    shape: ShapeLike | None = None,
    *,
    device: object | None = None,
) -> NDArray:
    """Return an array of zeros with the same shape and type as a given array.

    Parameters
    ----------
    a : array_like
        The shape and data-type of `a` define these same attributes of the returned array.
    dtype : data-type, optional
        Overrides the data type of the result.
    order : {'C', 'F', 'A', 'K'}, optional
        Overrides the memory layout of the result; 'K' matches `a`'s layout as closely as possible.
    subok : bool, optional
        Accepted for compatibility; arraystack has no array subclasses.
    shape : int or sequence of ints, optional
        Overrides the shape of the result.
    device : str or Device, optional
        The device on which to place the created array (Array API); 'cpu' or None.

    Returns
    -------
    out : ndarray
        Array of zeros with the same shape and type as `a`.

    See Also
    --------
    numpy.zeros_like : The NumPy function this mirrors.
    zeros, ones_like, full_like, empty_like
    """
    _check_device(device)
    dtype, shape, order = _like(a, dtype, order, shape)
    return _filled(shape, 0, dtype, order)


def ones_like(
    a: ArrayLike,
    dtype: DTypeLike = None,
    order: str = "K",
    subok: bool = True,
    shape: ShapeLike | None = None,
    *,
    device: object | None = None,
) -> NDArray:
    """Return an array of ones with the same shape and type as a given array.

    Parameters
    ----------
    a : array_like
        The shape and data-type of `a` define these same attributes of the returned array.
    dtype : data-type, optional
        Overrides the data type of the result.
    order : {'C', 'F', 'A', 'K'}, optional
        Overrides the memory layout of the result; 'K' matches `a`'s layout as closely as possible.
    subok : bool, optional
        Accepted for compatibility; arraystack has no array subclasses.
    shape : int or sequence of ints, optional
        Overrides the shape of the result.
    device : str or Device, optional
        The device on which to place the created array (Array API); 'cpu' or None.

    Returns
    -------
    out : ndarray
        Array of ones with the same shape and type as `a`.

    See Also
    --------
    numpy.ones_like : The NumPy function this mirrors.
    ones, zeros_like, full_like, empty_like
    """
    value = eager_buffer(a)
    if value is not None and dtype is None and order == "K" and shape is None and device is None:
        return _make(np.ones_like(value))  # eager: NumPy's own, which the composition below reproduces
    _check_device(device)
    dtype, shape, order = _like(a, dtype, order, shape)
    return _filled(shape, 1, dtype, order)


def empty_like(
    prototype: ArrayLike,
    /,
    dtype: DTypeLike = None,
    order: str = "K",
    subok: bool = True,
    shape: ShapeLike | None = None,
    *,
    device: object | None = None,
) -> NDArray:
    """Return a new array with the same shape and type as a given array (zero-filled in arraystack).

    Parameters
    ----------
    prototype : array_like
        The shape and data-type of `prototype` define these same attributes of the returned array.
    dtype : data-type, optional
        Overrides the data type of the result.
    order : {'C', 'F', 'A', 'K'}, optional
        Overrides the memory layout of the result; 'K' matches `a`'s layout as closely as possible.
    subok : bool, optional
        Accepted for compatibility; arraystack has no array subclasses.
    shape : int or sequence of ints, optional
        Overrides the shape of the result.
    device : str or Device, optional
        The device on which to place the created array (Array API); 'cpu' or None.

    Returns
    -------
    out : ndarray
        Array of zeros with the same shape and type as `prototype`.

    See Also
    --------
    numpy.empty_like : The NumPy function this mirrors.
    empty, zeros_like, ones_like, full_like

    Notes
    -----
    arraystack zero-fills, so the contents are deterministic (NumPy leaves them uninitialized).
    """
    # Note: zero-filled, like arraystack.empty.
    return zeros_like(prototype, dtype, order, subok, shape, device=device)


__all__ = [
    "empty",
    "empty_like",
    "full",
    "full_like",
    "ones",
    "ones_like",
    "zeros",
    "zeros_like",
]
