"""Array creation from data and from a fill value: array, asarray, copy, astype, full, zeros, *_like, ...

Eager conversions of foreign data (lists, NumPy arrays, buffers) are NumPy's own; everything that computes
goes through bind() (full, convert, copy), so the same code traces. Ranges and grids live in
_creation_ranges.py and _creation_grids.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from arraystack._array import _make, eager_buffer, ndarray, wrap
from arraystack._dtypes import check_supported
from arraystack._operands import convert_raw
from arraystack._shapes import format_shape, shape_tuple
from arraystack.ir.core import Tracer, active, bind, is_tracing, user_line
from arraystack.ir.primitives import convert_p, copy_p
from arraystack.ir.structural import full_p, reshape_p, transpose_p

if TYPE_CHECKING:
    from typing import Any

    from arraystack.typing import ArrayLike, DTypeLike, NDArray, ShapeLike

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


def _check_device(device):
    if device is not None and device != "cpu":
        raise ValueError(
            f'Device not understood. Only "cpu" is allowed, but received: {device} '
            f"(at {user_line()}). arraystack arrays live on the CPU unless a GPU backend (CuPy with "
            "a CUDA device) is available; leave device= out, or see `python -m arraystack info`."
        )


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
    from arraystack._manipulation import stack

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
    """Convert the input to an array."""
    if type(a) is ndarray and dtype is None and copy is None and order is None and device is None:
        return a
    _check_device(device)
    _check_order(order)
    if isinstance(a, ndarray):
        return _asarray_ndarray(a, dtype, order, copy)
    if type(a) is Tracer:
        return _asarray_ndarray(wrap(a), dtype, order, copy)
    if active.n and is_tracing() and _contains_traced(a):
        out = _from_traced_sequence(a)
        return astype(out, dtype, copy=False) if dtype is not None else out
    if dtype is not None:
        dtype = check_supported(dtype)
    value = np.asarray(a, dtype=dtype, order=order, copy=copy)
    check_supported(value.dtype)
    return wrap(value)


def _asarray_ndarray(a, dtype, order, copy_flag):
    value = a._value
    same_dtype = dtype is None or check_supported(dtype) == value.dtype
    if type(value) is Tracer:
        # Note: traced values have no memory layout, so `order` is ignored and copy=False only
        # refuses a dtype change.
        if not same_dtype:
            if copy_flag is False:
                raise ValueError(_NO_COPY)
            return astype(a, dtype)
        return _copy_value(a) if copy_flag else a
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
    """Convert the input to an ndarray, but pass ndarray subclasses through."""
    return asarray(a, dtype, order, device=device, copy=copy)


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
    """Create an array."""
    _check_order(order)
    if isinstance(object, ndarray) or (active.n and is_tracing() and _contains_traced(object)):
        out = asarray(object, dtype, None if order in ("K", "A") else order, copy=copy)
    else:
        if dtype is not None:
            dtype = check_supported(dtype)
        value = np.array(object, dtype=dtype, copy=copy, order=order, ndmin=ndmin)
        check_supported(value.dtype)
        return wrap(value)
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
    """Return a contiguous array (ndim >= 1) in memory (C order)."""
    return array(a, dtype, copy=None, order="C", ndmin=1)


def asfortranarray(
    a: ArrayLike,
    dtype: DTypeLike = None,
    *,
    like: ArrayLike | None = None,
) -> NDArray:
    """Return an array (ndim >= 1) laid out in Fortran order in memory."""
    return array(a, dtype, copy=None, order="F", ndmin=1)


def frombuffer(
    buffer: Any,
    dtype: DTypeLike = None,
    count: int = -1,
    offset: int = 0,
    *,
    like: ArrayLike | None = None,
) -> NDArray:
    """Interpret a buffer as a 1-dimensional array."""
    dtype = check_supported(float if dtype is None else dtype)
    return wrap(np.frombuffer(buffer, dtype=dtype, count=count, offset=offset))


def _copy_value(a, order="K"):
    value = a._value
    if type(value) is np.ndarray and order in ("C", "F"):
        # copy_p's rule keeps the layout (order "K"); a requested layout is NumPy's copy in that order.
        # (A reshape to flat and back is no copy where the strides happen to be uniform, e.g. x[::-1, ::-2].)
        return wrap(np.array(value, order=order))
    return wrap(bind(copy_p, value))


def copy(a: ArrayLike, order: str = "K", subok: bool = False) -> NDArray:
    """Return an array copy of the given object."""
    _check_order(order)
    if isinstance(a, ndarray):
        return _copy_value(a, order)
    return array(a, copy=True, order=order)


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
    """Copies an array to a specified data type (the Array API's function form of ndarray.astype)."""
    if type(x) is not ndarray:
        x = asarray(x)
    dtype = _SUPPORTED_DTYPES.get(dtype) or check_supported(dtype)
    value = x._value
    if casting == "unsafe" and order == "K" and not active.n and type(value) is np.ndarray:
        if dtype == value.dtype and not copy:
            return x  # astype(same dtype, copy=False) is the array itself, as in NumPy
        return wrap(value.astype(dtype, copy=copy))  # eager: convert_p's (or copy_p's) reference rule
    if casting != "unsafe" and not np.can_cast(x.dtype, dtype, casting):
        raise TypeError(
            f"Cannot cast array data from {x.dtype!r} to {dtype!r} according to the rule {casting!r}"
        )
    if dtype == x.dtype:
        return _copy_value(x, order) if copy else x
    return wrap(bind(convert_p, x._value, dtype=dtype))


# -- filled arrays --------------------------------------------------------------------------------------------

# dtype arguments seen often, mapped to their supported NumPy dtype (None means float64, as NumPy's default)
_SUPPORTED_DTYPES: dict = {None: np.dtype(np.float64)}
for _t in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
           "float32", "float64", "complex64", "complex128"):
    _SUPPORTED_DTYPES[np.dtype(_t)] = np.dtype(_t)
    _SUPPORTED_DTYPES[np.dtype(_t).type] = np.dtype(_t)
    _SUPPORTED_DTYPES[_t] = np.dtype(_t)
_SUPPORTED_DTYPES.update({float: np.dtype(np.float64), int: np.dtype(np.int64), bool: np.dtype(np.bool_),
                          complex: np.dtype(np.complex128)})


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
    """Return a new array of given shape and type, filled with `fill_value`."""
    shape = shape_tuple(shape)
    if device is not None:
        _check_device(device)
    if order != "C":
        _check_order(order)
    value = fill_value._value if isinstance(fill_value, ndarray) else fill_value
    dtype = _fill_dtype(value) if dtype is None else dtype
    dtype = check_supported(dtype)
    if hasattr(value, "shape") and value.shape != ():
        from arraystack._manipulation import broadcast_to

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
    """Return a new array of given shape and type, filled with zeros."""
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
    """Return a new array of given shape and type, filled with ones."""
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
    """Return a new array of given shape and type (zero-filled in arraystack)."""
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
    """Return a full array with the same shape and type as a given array."""
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
    """Return an array of zeros with the same shape and type as a given array."""
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
    """Return an array of ones with the same shape and type as a given array."""
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
    """Return a new array with the same shape and type as a given array (zero-filled in arraystack)."""
    # Note: zero-filled, like arraystack.empty.
    return zeros_like(prototype, dtype, order, subok, shape, device=device)


from arraystack._creation_grids import (
    diag,
    diagflat,
    eye,
    fromfunction,
    identity,
    indices,
    meshgrid,
    tri,
    tril,
    triu,
)
from arraystack._creation_ranges import arange, geomspace, linspace, logspace

__all__ = [
    "arange",
    "array",
    "asanyarray",
    "asarray",
    "ascontiguousarray",
    "asfortranarray",
    "astype",
    "copy",
    "diag",
    "diagflat",
    "empty",
    "empty_like",
    "eye",
    "frombuffer",
    "fromfunction",
    "full",
    "full_like",
    "geomspace",
    "identity",
    "indices",
    "linspace",
    "logspace",
    "meshgrid",
    "ones",
    "ones_like",
    "tri",
    "tril",
    "triu",
    "zeros",
    "zeros_like",
]


from arraystack._creation_docs import DOCS  # the docstrings, kept apart (line budget)

for _function in (
    array,
    asanyarray,
    asarray,
    ascontiguousarray,
    asfortranarray,
    astype,
    copy,
    empty,
    empty_like,
    frombuffer,
    full,
    full_like,
    ones,
    ones_like,
    zeros,
    zeros_like,
):
    _function.__doc__ = DOCS[_function.__name__]
