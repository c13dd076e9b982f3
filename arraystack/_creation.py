"""Array creation from data and from a fill value: array, asarray, copy, astype, full, zeros, *_like, ...

Eager conversions of foreign data (lists, NumPy arrays, buffers) are NumPy's own; everything that computes
goes through bind() (full, convert, copy), so the same code traces. Filled arrays, ranges and grids live
in _creation_filled.py, _creation_ranges.py, _creation_grids.py and _creation_coordinates.py and are
re-exported here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from arraystack._array import ndarray, wrap
from arraystack._dtypes import check_supported, native_order
from arraystack.ir.core import Tracer, active, bind, is_tracing, user_line
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
for _t in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
           "float32", "float64", "complex64", "complex128"):
    _SUPPORTED_DTYPES[np.dtype(_t)] = np.dtype(_t)
    _SUPPORTED_DTYPES[np.dtype(_t).type] = np.dtype(_t)
    _SUPPORTED_DTYPES[_t] = np.dtype(_t)
_SUPPORTED_DTYPES.update({float: np.dtype(np.float64), int: np.dtype(np.int64), bool: np.dtype(np.bool_),
                          complex: np.dtype(np.complex128)})


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
        value = a._value
        if type(value) is Tracer and value.var.aval.weak_type:
            return wrap(_strong(value))
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
    value = native_order(np.asarray(a, dtype=dtype, order=order, copy=copy))
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
            note_weak_int_cast(value, dtype)  # a traced Python int: NumPy checks its range here
            return astype(a, dtype)
        if value.var.aval.weak_type:
            return wrap(_strong(value))  # a fresh value: a copy too
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
        value = native_order(np.array(object, dtype=dtype, copy=copy, order=order, ndmin=ndmin))
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
        return _copy_value(x, order) if copy or _is_weak_trace(value) else x
    return wrap(bind(convert_p, value, dtype=dtype))



from arraystack._creation_filled import (
    empty,
    empty_like,
    full,
    full_like,
    ones,
    ones_like,
    zeros,
    zeros_like,
)

# isort: split
# the families above first: the ones below import modules that import the filled arrays from here
from arraystack._creation_coordinates import fromfunction, indices, meshgrid
from arraystack._creation_grids import diag, diagflat, eye, identity, tri, tril, triu
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
    frombuffer,
):
    _function.__doc__ = DOCS[_function.__name__]
