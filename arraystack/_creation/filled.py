"""Array creation from a shape and a fill value: full, zeros, ones, empty and their *_like forms.

Eagerly each is NumPy's own where that is exactly the composition (a `full` of the dtype); everything
else binds `full` (and a transpose for Fortran order), so the same code traces. Host dtypes (datetimes,
strings, objects, records) are NumPy's own arrays, whose zero and one are not the numbers'.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from arraystack._core import devices as _devices
from arraystack._core.array import _make, eager_buffer, ndarray, wrap
from arraystack._core.dtypes import check_array_dtype, is_host
from arraystack._core.operands import convert_raw
from arraystack._core.overrides import defers_to_numpy
from arraystack._core.shapes import format_shape, shape_tuple
from arraystack._transforms import result_layouts
from arraystack._transforms.aliasing import layout_of, note_layout_decision
from arraystack._creation.basic import (
    _FLOAT64,
    _SCALAR_DTYPES,
    _check_order,
    _device_buffer,
    _placed,
    _supported_fast,
    asarray,
    astype,
    copy,
)
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


def _host_filled(name, shape, dtype, order, fill_value=None):
    """zeros, ones or full of a host dtype (datetime64, timedelta64, str_, bytes_): NumPy's own, whose
    zero and one of these dtypes are not the numbers' (NumPy's ones of str_ is '1')."""
    if name == "full":
        fill = fill_value._value if isinstance(fill_value, ndarray) else fill_value
        return wrap(np.full(shape, fill, dtype, order))
    return wrap(getattr(np, name)(shape, dtype, order))


def _is_object(dtype) -> bool:
    return dtype is object or (dtype is not None and type(dtype) not in (list, dict) and
                               isinstance(dtype, (np.dtype, str, type)) and np.dtype(dtype).kind == "O")


def _filled(shape, value, dtype, order):
    """An array of `shape` filled with the scalar `value` (one `full`), laid out in `order`."""
    if order == "F" and len(shape) > 1:
        out = _filled(shape[::-1], value, dtype, "C")
        out = wrap(bind(transpose_p, out._value, permutation=tuple(range(len(shape)))[::-1]))
        result_layouts.fortran(out)  # while tracing: Fortran's order, for its reshapes
        return out
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
    target = _placed(device)
    if target is not None:
        return _devices.create_on(target, full, shape, fill_value, dtype, order)
    shape = shape_tuple(shape)
    if order != "C":
        _check_order(order)
    value = fill_value._value if isinstance(fill_value, ndarray) else fill_value
    dtype = _fill_dtype(value) if dtype is None else dtype
    dtype = check_array_dtype(dtype, "full")
    if is_host(dtype):
        return _host_filled("full", shape, dtype, order, value)
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
    if not active.n and order == "C" and device is None and not _devices.elsewhere[0]:
        d = _supported_fast(dtype)
        if d is not None and type(shape) in (int, tuple):  # eager: full_p's reference rule for 0
            return _make(np.zeros(shape, d))
    target = _placed(device)
    if target is not None:
        return _devices.create_on(target, zeros, shape, dtype, order)
    if order != "C":
        _check_order(order)
    dtype = _FLOAT64 if dtype is None else check_array_dtype(dtype, "zeros")
    if is_host(dtype):
        return _host_filled("zeros", shape_tuple(shape), dtype, order)
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
    target = _placed(device)
    if target is not None:
        return _devices.create_on(target, ones, shape, dtype, order)
    if order != "C":
        _check_order(order)
    dtype = _FLOAT64 if dtype is None else check_array_dtype(dtype, "ones")
    if is_host(dtype):
        return _host_filled("ones", shape_tuple(shape), dtype, order)
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
    arraystack zero-fills, so the contents are deterministic (NumPy leaves them uninitialized); an
    object array holds None, as NumPy's does.
    """
    if _is_object(dtype):
        return _host_filled("empty", shape_tuple(shape), np.dtype(object), order)
    return zeros(shape, dtype, order, device=device)


def _in_order_of(a, out, order):
    """out, a *_like result of `a`, in NumPy's memory order for it (result_layouts.like): a's order
    where out has as many axes (NumPy keeps it for a `shape=` of the same length)."""
    if isinstance(a, ndarray) and out.ndim == a.ndim:
        return result_layouts.like(a, out, order)
    return out


def _like(a, dtype, order, shape):
    """dtype, shape and memory order of a *_like result."""
    _check_order(order)
    if not isinstance(a, ndarray):
        a = asarray(a)
    dtype = check_array_dtype(a.dtype if dtype is None else dtype, "a *_like function")
    shape = a.shape if shape is None else shape_tuple(shape)
    if order in ("K", "A"):  # a traced value's layout: the one NumPy would give it
        if type(a._value) is Tracer:
            note_layout_decision()
        layout = layout_of(a) if type(a._value) is Tracer else a._value
        order = "F" if layout.flags.f_contiguous and not layout.flags.c_contiguous else "C"
    return dtype, shape, "F" if order == "F" else "C"


@defers_to_numpy
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
    target = _placed(device, _device_buffer(a))
    if target is not None:
        return _devices.create_on(target, full_like, a, fill_value, dtype, order, subok, shape)
    given = order
    dtype, shape, order = _like(a, dtype, order, shape)
    if is_host(dtype):
        return _host_filled("full", shape, dtype, order, fill_value)
    return _in_order_of(a, full(shape, fill_value, dtype, order), given)


@defers_to_numpy
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
    target = _placed(device, _device_buffer(a))
    if target is not None:
        return _devices.create_on(target, zeros_like, a, dtype, order, subok, shape)
    given = order
    dtype, shape, order = _like(a, dtype, order, shape)
    if is_host(dtype):
        return _host_filled("zeros", shape, dtype, order)
    return _in_order_of(a, _filled(shape, 0, dtype, order), given)


@defers_to_numpy
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
    target = _placed(device, _device_buffer(a))
    if target is not None:
        return _devices.create_on(target, ones_like, a, dtype, order, subok, shape)
    given = order
    dtype, shape, order = _like(a, dtype, order, shape)
    if is_host(dtype):
        return _host_filled("ones", shape, dtype, order)
    return _in_order_of(a, _filled(shape, 1, dtype, order), given)


@defers_to_numpy
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
    arraystack zero-fills, so the contents are deterministic (NumPy leaves them uninitialized); an
    object array holds None, as NumPy's does.
    """
    kind = getattr(prototype, "dtype", None) if dtype is None else np.dtype(dtype)
    if _is_object(kind):
        raw = prototype._value if isinstance(prototype, ndarray) else prototype
        return wrap(np.empty_like(raw, kind, order, shape=shape))
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
