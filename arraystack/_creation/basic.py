"""Array creation from existing data (array, asarray, asanyarray, ascontiguousarray, asfortranarray,
frombuffer, copy, astype). Creation from a shape and a fill value (full, zeros, ones, empty and their
*_like forms) lives in filled.py.

Eager conversions of foreign data (lists, NumPy arrays, buffers) are NumPy's own; everything that computes
goes through bind() (convert, copy, full), so the same code traces. Ranges and grids live in
ranges.py, matrices.py and coordinates.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from arraystack._core import devices as _devices
from arraystack._core.array import ndarray, wrap
from arraystack._core.dtypes import (
    check_array_dtype,
    check_supported,
    native_order,
    other_byte_order,
    read_dtype,
)
from arraystack._core.overrides import defers_to_numpy, numpy_subclass
from arraystack._transforms import result_layouts
from arraystack._transforms.aliasing import layout_of, note_layout_decision
from arraystack.ir.core import Tracer, active, bind, device_namespaces, is_tracing, user_line
from arraystack.ir.primitives import convert_p, copy_p
from arraystack.ir.structural import reshape_p
from arraystack.ir.trace import note_weak_int_cast

if TYPE_CHECKING:
    from typing import Any

    from arraystack.typing import ArrayLike, DTypeLike, NDArray

_NO_COPY = (
    "Unable to avoid copy while creating an array as requested.\n"
    "If using `np.array(obj, copy=False)` replace it with `np.asarray(obj)` to allow a copy when "
    "needed (no behavior change in NumPy 1.x).\n"
    "For more details, see https://numpy.org/devdocs/numpy_2_0_migration_guide.html"
    "#adapting-to-changes-in-the-copy-keyword."
)
_SCALAR_DTYPES = {
    float: np.dtype(np.float64),
    bool: np.dtype(bool),
    complex: np.dtype(np.complex128),
}
_FLOAT64 = np.dtype(np.float64)
_ORDERS = ("C", "F", "A", "K")

# dtype arguments seen often, mapped to their supported NumPy dtype (None means float64, as NumPy's default)
_SUPPORTED_DTYPES: dict = {None: np.dtype(np.float64)}
# fmt: off
for _t in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
           "float32", "float64", "complex64", "complex128"):
    _SUPPORTED_DTYPES[np.dtype(_t)] = np.dtype(_t)
    _SUPPORTED_DTYPES[np.dtype(_t).type] = np.dtype(_t)
    _SUPPORTED_DTYPES[_t] = np.dtype(_t)
_SUPPORTED_DTYPES.update({float: np.dtype(np.float64), int: np.dtype(np.int64), bool: np.dtype(np.bool_),
                          complex: np.dtype(np.complex128)})
# fmt: on


def _supported_fast(dtype):
    """The numeric dtype `dtype` names, by one lookup; None for anything else (a structured dtype's
    list or dict of fields, which cannot be a key, included)."""
    if type(dtype) in (list, dict) or type(dtype) is ndarray:  # an array: check_supported refuses it
        return None
    return _SUPPORTED_DTYPES.get(dtype)


def _check_device(device):
    if device is not None and device != "cpu":
        raise ValueError(
            f'Device not understood. Only "cpu" is allowed, but received: {device} '
            f"(at {user_line()}). arraystack arrays live on the CPU unless a GPU backend (CuPy with "
            "a CUDA device) is available; leave device= out, or see `python -m arraystack info`."
        )


def _placed(device, like=None):
    """The device a creation function places its result on when that takes more than the host path (an
    explicit device, `like`'s device buffer, a default device other than the CPU), else None; checks
    `device` (devices.creation_device)."""
    if device is None and like is None and not _devices.elsewhere[0]:
        return None
    return _devices.creation_device(device, like)


def _device_buffer(a):
    """`a`'s buffer when it lives on a device of its own (a cuda array), else None: *_like and asarray
    of such an array create on its device."""
    value = a._value if isinstance(a, ndarray) else a
    return value if type(value) in device_namespaces else None


def _check_order(order):
    if order is not None and order not in _ORDERS:
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")


def _contains_traced(obj) -> bool:
    if isinstance(obj, ndarray):
        return type(obj._value) is Tracer
    if type(obj) is Tracer:
        return True
    if isinstance(obj, (list, tuple)):
        return any(_contains_traced(o) for o in obj)
    return False


def _from_traced_sequence(seq):
    """A nested list holding traced arrays: stacked item by item, with NumPy's list promotion
    (Python scalars inside a list count as float64/int64 arrays, not as weak scalars)."""
    from arraystack._manipulation.joining import stack

    return stack([asarray(item) for item in seq])


def asarray(
    a: ArrayLike,
    dtype: DTypeLike = None,
    order: str | None = None,
    *,
    device: object | None = None,
    copy: bool | None = None,
    like: ArrayLike | None = None,
) -> NDArray:
    """Convert the input to an array.

    Parameters
    ----------
    a : array_like
        Input data, in any form that can be converted to an array: lists, tuples, NumPy arrays, scalars,
        objects with ``__array__`` or ``__dlpack__``.
    dtype : data-type, optional
        The desired data-type of the result. By default it is inferred from the input, as in NumPy.
    order : {'C', 'F', 'A', 'K'}, optional
        Memory layout; 'K' (default) keeps the input's.
    device : str or Device, optional
        The device on which to place the created array (Array API); 'cpu' or None.
    copy : bool, optional
        If True, always copy; if False, never copy (raise if a copy is needed); if None, copy only when
        needed.
    like : array_like, optional
        Accepted for NumPy compatibility (NEP 35); arraystack always creates an arraystack array.

    Returns
    -------
    out : ndarray
        Array interpretation of `a`. No copy is made if the input is already an arraystack array with
        matching dtype and order.

    See Also
    --------
    numpy.asarray : The NumPy function this mirrors.
    array, asanyarray, ascontiguousarray, from_dlpack, frombuffer

    Notes
    -----
    Traced values have no memory layout, so `order` is ignored for them and ``copy=False`` only refuses
    a dtype change.
    """
    if type(a) is ndarray and dtype is None and copy is None and order is None and device is None:
        value = a._value
        if type(value) is Tracer and value.var.aval.weak_type:
            return wrap(_strong(value))
        return a
    swapped = None if dtype is None or type(dtype) is type else other_byte_order(dtype)
    if swapped is not None:  # NumPy's buffer in the other byte order (see astype)
        out = asarray(a, swapped.newbyteorder("="), order, device=device, copy=copy)
        return _in_byte_order(out, swapped, "asarray")
    if not isinstance(a, (ndarray, np.ndarray, list, tuple, int, float, bool, complex, np.generic)):
        buffer = _devices.adopt(a)  # a device library's array (cupy's): shared, on its device
        if buffer is not None:
            a = wrap(buffer)
    target = _placed(device, _device_buffer(a))
    if target is not None:
        return _devices.create_on(target, asarray, a, dtype, order, copy=copy)
    _check_order(order)
    if isinstance(a, ndarray):
        return _asarray_ndarray(a, dtype, order, copy)
    if type(a) is Tracer:
        return _asarray_ndarray(wrap(a), dtype, order, copy)
    if active.n and is_tracing() and _contains_traced(a):
        out = _from_traced_sequence(a)
        return astype(out, dtype, copy=False) if dtype is not None else out
    if dtype is not None:
        dtype = check_array_dtype(dtype, "asarray")
    value = native_order(np.asarray(a, dtype=dtype, order=order, copy=copy))
    check_array_dtype(value.dtype, "asarray")
    return wrap(value)


def _asarray_ndarray(a, dtype, order, copy_flag):
    value = a._value
    same_dtype = dtype is None or check_array_dtype(dtype, "asarray") == value.dtype
    if type(value) is Tracer:
        # A traced value's memory order is the one NumPy would give it (aliasing.layout_of).
        if not same_dtype:
            if copy_flag is False:
                raise ValueError(_NO_COPY)
            note_weak_int_cast(value, dtype)  # a traced Python int: NumPy checks its range here
            return astype(a, dtype, order=order or "K")
        if value.var.aval.weak_type:
            return wrap(_strong(value))  # a fresh value: a copy too
        if order in ("C", "F"):
            note_layout_decision()
        if order in ("C", "F") and not layout_of(a).flags[order + "_CONTIGUOUS"]:
            if copy_flag is False:
                raise ValueError(_NO_COPY)
            return _copy_value(a, order)  # NumPy copies into the order asked for
        return _copy_value(a, order or "K") if copy_flag else a
    if same_dtype and (order in (None, "K", "A") or value.flags[order + "_CONTIGUOUS"]):
        return _copy_value(a, order or "K") if copy_flag else a
    if copy_flag is False:
        raise ValueError(_NO_COPY)
    out = a if same_dtype else astype(a, dtype)
    if order in ("C", "F") and not out._value.flags[order + "_CONTIGUOUS"]:
        out = _copy_value(out, order)
    return out


def asanyarray(
    a: ArrayLike,
    dtype: DTypeLike = None,
    order: str | None = None,
    *,
    device: object | None = None,
    copy: bool | None = None,
    like: ArrayLike | None = None,
) -> NDArray:
    """Convert the input to an ndarray, but pass ndarray subclasses through.

    Parameters
    ----------
    a : array_like
        Input data, in any form that can be converted to an array.
    dtype : data-type, optional
        The desired data-type of the result. By default it is inferred from the input, as in NumPy.
    order : {'C', 'F', 'A', 'K'}, optional
        Memory layout; 'K' (default) keeps the input's.
    device : str or Device, optional
        The device on which to place the created array (Array API); 'cpu' or None.
    copy : bool, optional
        If True, always copy; if False, never copy (raise if a copy is needed); if None, copy only when
        needed.
    like : array_like, optional
        Accepted for NumPy compatibility (NEP 35); arraystack always creates an arraystack array.

    Returns
    -------
    out : ndarray
        Array interpretation of `a`; `a` itself if it is already an arraystack array of the right dtype.

    See Also
    --------
    numpy.asanyarray : The NumPy function this mirrors.
    asarray, array

    Notes
    -----
    Passed through (converted only by `dtype`, copied by `copy=True`): arraystack's masked arrays and
    memmaps, and NumPy's subclasses with behaviour of their own (numpy.matrix, numpy.ma's masked
    arrays: NumPy's `asanyarray` of them). Anything else is `asarray`.
    """
    if numpy_subclass(a):
        return np.asanyarray(a, dtype=dtype, order=order, copy=copy)
    masked = _masked_array_type()
    if isinstance(a, masked):
        out = a if dtype is None or np.dtype(dtype) == a.dtype else a.astype(dtype)
        if out is a and copy:
            return a.copy()
        if out is not a and copy is False:
            raise ValueError(_NO_COPY)
        return out
    return asarray(a, dtype, order, device=device, copy=copy)


def _masked_array_type():
    from arraystack.ma import MaskedArray  # the package imports this module

    return MaskedArray


def array(
    object: Any,
    dtype: DTypeLike = None,
    *,
    copy: bool | None = True,
    order: str = "K",
    subok: bool = False,
    ndmin: int = 0,
    like: ArrayLike | None = None,
) -> NDArray:
    """Create an array.

    Parameters
    ----------
    object : array_like
        An array, any object exposing the array interface, an object whose ``__array__`` method returns
        an array, or any (nested) sequence; a scalar gives a 0-d array.
    dtype : data-type, optional
        The desired data-type for the array; by default, the smallest type that can hold the values, as
        in NumPy.
    copy : bool, optional
        If True (default), the array is copied; if None, a copy is made only when needed; if False, a
        needed copy raises ValueError.
    order : {'K', 'A', 'C', 'F'}, optional
        Specify the memory layout of the array.
    subok : bool, optional
        Accepted for compatibility; arraystack has no array subclasses.
    ndmin : int, optional
        The minimum number of dimensions; ones are prepended to the shape as needed.
    like : array_like, optional
        Accepted for NumPy compatibility (NEP 35); arraystack always creates an arraystack array.

    Returns
    -------
    out : ndarray
        An array object satisfying the specified requirements.

    See Also
    --------
    numpy.array : The NumPy function this mirrors.
    asarray, asanyarray, copy, empty_like, zeros_like, ones_like, full_like

    Notes
    -----
    Traced values have no memory layout: `order` is ignored for them.
    """
    _check_order(order)
    swapped = None if dtype is None or type(dtype) is type else other_byte_order(dtype)
    if swapped is not None:  # NumPy's buffer in the other byte order (see astype)
        out = array(object, swapped.newbyteorder("="), copy=copy, order=order, ndmin=ndmin)
        return _in_byte_order(out, swapped, "array")
    if (
        isinstance(object, ndarray)
        or hasattr(type(object), "__cuda_array_interface__")  # a device array (cupy's): stays there
        or (active.n and is_tracing() and _contains_traced(object))
    ):
        out = asarray(object, dtype, None if order in ("K", "A") else order, copy=copy)
    else:
        if dtype is not None:
            dtype = check_array_dtype(dtype, "array")
        value = native_order(np.array(object, dtype=dtype, copy=copy, order=order, ndmin=ndmin))
        check_array_dtype(value.dtype, "array")
        target = _placed(None)  # host data goes to the default device, as asarray's does
        return wrap(value) if target is None else _devices.create_on(target, wrap, value)
    if ndmin > out.ndim:
        shape = (1,) * (ndmin - out.ndim) + out.shape
        out = wrap(bind(reshape_p, out._value, new_sizes=shape))
    return out


def ascontiguousarray(
    a: ArrayLike,
    dtype: DTypeLike = None,
    *,
    like: ArrayLike | None = None,
) -> NDArray:
    """Return a contiguous array (ndim >= 1) in memory (C order).

    Parameters
    ----------
    a : array_like
        Input array.
    dtype : str or dtype object, optional
        Data-type of returned array.
    like : array_like, optional
        Accepted for NumPy compatibility (NEP 35); arraystack always creates an arraystack array.

    Returns
    -------
    out : ndarray
        Contiguous array of the same shape and content as `a`, with dtype `dtype` if specified.

    See Also
    --------
    numpy.ascontiguousarray : The NumPy function this mirrors.
    asfortranarray, asarray

    Notes
    -----
    As in NumPy, the result has at least one dimension.
    """
    return array(a, dtype, copy=None, order="C", ndmin=1)


def asfortranarray(
    a: ArrayLike,
    dtype: DTypeLike = None,
    *,
    like: ArrayLike | None = None,
) -> NDArray:
    """Return an array (ndim >= 1) laid out in Fortran order in memory.

    Parameters
    ----------
    a : array_like
        Input array.
    dtype : str or dtype object, optional
        By default, the data-type is inferred from the input data.
    like : array_like, optional
        Accepted for NumPy compatibility (NEP 35); arraystack always creates an arraystack array.

    Returns
    -------
    out : ndarray
        The input `a` in Fortran, or column-major, order.

    See Also
    --------
    numpy.asfortranarray : The NumPy function this mirrors.
    ascontiguousarray, asarray

    Notes
    -----
    As in NumPy, the result has at least one dimension.
    """
    return array(a, dtype, copy=None, order="F", ndmin=1)


def frombuffer(
    buffer: Any,
    dtype: DTypeLike = None,
    count: int = -1,
    offset: int = 0,
    *,
    like: ArrayLike | None = None,
) -> NDArray:
    """Interpret a buffer as a 1-dimensional array.

    Parameters
    ----------
    buffer : buffer_like
        An object that exposes the buffer interface.
    dtype : data-type, optional
        Data-type of the returned array; default: float.
    count : int, optional
        Number of items to read; -1 means all data in the buffer.
    offset : int, optional
        Start reading the buffer from this offset (in bytes); default: 0.
    like : array_like, optional
        Accepted for NumPy compatibility (NEP 35); arraystack always creates an arraystack array.

    Returns
    -------
    out : ndarray
        A view of the buffer (read-only for immutable buffers such as bytes); under a default device
        other than the CPU (`default_device`), a copy on that device.

    See Also
    --------
    numpy.frombuffer : The NumPy function this mirrors.
    fromstring, fromfile, asarray
    """
    dtype = read_dtype(float if dtype is None else dtype)
    out = wrap(native_order(np.frombuffer(buffer, dtype=dtype, count=count, offset=offset)))
    return _devices.read_on_default(out)


def _in_byte_order(x, dtype, operation):
    """Host array `x` as NumPy's buffer in `dtype`, a dtype in the other byte order (what tobytes and
    tofile write; computations read it back in the machine's order, as `view` of that dtype does)."""
    value = x._value
    if type(value) is not np.ndarray:
        raise TypeError(
            f"{operation} to {dtype.str!r} (the other byte order) is a host array's: NumPy's buffer in "
            f"that order; this array is {'traced' if type(value) is Tracer else 'on a device'}"
        )
    return wrap(value.astype(dtype))


def _is_weak_trace(value) -> bool:
    return type(value) is Tracer and value.var.aval.weak_type


def _strong(value):
    """A weakly typed traced value (the trace of a Python scalar) as a strongly typed array of its
    dtype: NumPy's functions make a Python scalar an array (np.asarray(5) is an int64 array, which
    `int8_array + np.asarray(5)` promotes to int64), where Python's operators keep it a scalar."""
    return bind(convert_p, value, dtype=value.var.aval.dtype)


def _copy_value(a, order="K"):
    value = a._value
    if type(value) is Tracer and value.var.aval.weak_type:
        return wrap(_strong(value))  # a traced copy is a fresh value, here also strongly typed
    if type(value) is np.ndarray and order in ("C", "F", "A"):
        # copy_p's rule keeps the layout (order "K"); a requested layout is NumPy's copy in that order.
        # (A reshape to flat and back is no copy where the strides happen to be uniform, e.g. x[::-1, ::-2].)
        return wrap(np.array(value, order=order))
    xp = device_namespaces.get(type(value))
    if xp is not None and order in ("C", "F", "A"):  # a device array: its library's copy in that order
        with value.device:
            return wrap(xp.array(value, order=order, copy=True))
    result = wrap(bind(copy_p, value))
    if type(value) is Tracer:  # NumPy's memory order of the copy, for its reshapes
        result_layouts.copied(a, result, order)
    return result


@defers_to_numpy
def copy(a: ArrayLike, order: str = "K", subok: bool = False) -> NDArray:
    """Return an array copy of the given object.

    Parameters
    ----------
    a : array_like
        Input data.
    order : {'C', 'F', 'A', 'K'}, optional
        Controls the memory layout of the copy; 'K' matches `a` as closely as possible.
    subok : bool, optional
        Accepted for compatibility; arraystack has no array subclasses.

    Returns
    -------
    arr : ndarray
        Array interpretation of `a`.

    See Also
    --------
    numpy.copy : The NumPy function this mirrors.
    array, ndarray.copy
    """
    _check_order(order)
    if isinstance(a, ndarray):
        return _copy_value(a, order)
    return array(a, copy=True, order=order)


@defers_to_numpy
def astype(
    x: NDArray,
    dtype: DTypeLike,
    /,
    *,
    order: str = "K",
    casting: str = "unsafe",
    copy: bool = True,
    device: object | None = None,
) -> NDArray:
    """Copies an array to a specified data type (the Array API's function form of ndarray.astype).

    Parameters
    ----------
    x : ndarray
        Input array to cast.
    dtype : dtype
        Data type of the result.
    order : {'C', 'F', 'A', 'K'}, optional
        Memory layout of the result.
    casting : {'no', 'equiv', 'safe', 'same_kind', 'unsafe'}, optional
        Controls what kind of data casting may occur; 'unsafe' by default.
    copy : bool, optional
        If False and the dtype already matches, the input is returned without a copy.
    device : str or Device, optional
        The device on which to place the created array (Array API); 'cpu' or None.

    Returns
    -------
    out : ndarray
        An array having the specified data type.

    See Also
    --------
    numpy.astype : The NumPy function this mirrors.
    ndarray.astype, can_cast, result_type
    """
    if type(x) is not ndarray:
        x = asarray(x)
    if type(dtype) is not type:  # not a scalar type (float32, ...): it may name a byte order
        swapped = other_byte_order(dtype)
        if swapped is not None:
            native = astype(x, swapped.newbyteorder("="), order=order, casting=casting, device=device)
            return _in_byte_order(native, swapped, "astype")
    dtype = _supported_fast(dtype) or check_array_dtype(dtype, "astype")
    value = x._value
    if casting == "unsafe" and order == "K" and not active.n and type(value) is np.ndarray:
        if dtype == value.dtype and not copy:
            return x  # astype(same dtype, copy=False) is the array itself, as in NumPy
        # eager: convert_p's (or copy_p's) reference rule
        return wrap(value.astype(dtype, copy=copy))
    if casting != "unsafe" and not np.can_cast(x.dtype, dtype, casting):
        raise TypeError(
            f"Cannot cast array data from {x.dtype!r} to {dtype!r} according to the rule {casting!r}"
        )
    if dtype == x.dtype:
        return _copy_value(x, order) if copy or _is_weak_trace(value) else x
    result = wrap(bind(convert_p, value, dtype=dtype))
    if type(value) is Tracer:  # NumPy's memory order of the cast, for its reshapes
        result_layouts.copied(x, result, order)
    return result


__all__ = [
    "array",
    "asanyarray",
    "asarray",
    "ascontiguousarray",
    "asfortranarray",
    "astype",
    "copy",
    "frombuffer",
]
