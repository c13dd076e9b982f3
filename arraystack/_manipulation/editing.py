"""Editing an array's length along an axis: append, insert, delete, resize, trim_zeros
(numpy/lib/_function_base_impl.py, numpy/_core/fromnumeric.py).

Concrete calls run NumPy's own function on the host buffers (arraystack._core.host_calls). Traced calls need
the positions (`obj`, `new_shape`) concrete: NumPy's index arithmetic runs on them at trace time, and
the array itself moves through take/concatenate/reshape, so the output shape is static. trim_zeros's
output shape depends on the values: it has no traced form (ShapeDependsOnDataError).
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

import arraystack as anp
from arraystack._core.array import ndarray
from arraystack._core.devices import constants_on_operand_device, host_values
from arraystack._core.host_calls import host_arguments, wrap_result
from arraystack._core.overrides import defers_to_numpy
from arraystack._transforms import result_layouts
from arraystack.ir.core import ShapeDependsOnDataError, device_namespaces

if TYPE_CHECKING:
    from typing import Any

    from arraystack.typing import ArrayLike, NDArray, ShapeLike

__all__ = ["append", "delete", "insert", "resize", "trim_zeros"]


def _host_index(obj):
    """`obj` (an index, slice, sequence or array of positions) as NumPy data: positions must be known
    while tracing (a traced one raises ConcretizationError)."""
    if isinstance(obj, ndarray):  # read back from a device: the positions decide the result's shape
        return host_values(obj._scalar("an index of delete or insert"))
    if isinstance(obj, (list, tuple)):
        return type(obj)(_host_index(o) for o in obj)
    return obj


def _editing_axis(arr, axis):
    """NumPy's convention: axis=None edits the flattened array."""
    if axis is None:
        if arr.ndim != 1:
            arr = anp.ravel(arr)
        return arr, arr.ndim - 1
    return arr, normalize_axis_index(axis, arr.ndim)


@defers_to_numpy
@constants_on_operand_device
def append(arr: ArrayLike, values: ArrayLike, axis: int | None = None) -> NDArray:
    """Append values to the end of an array.

    Parameters
    ----------
    arr : array_like
        Values are appended to a copy of this array.
    values : array_like
        These values are appended to a copy of `arr`. It must be of the correct shape (the same
        shape as `arr`, excluding `axis`). If `axis` is not specified, `values` can be any shape
        and will be flattened before use.
    axis : int, optional
        The axis along which `values` are appended. If `axis` is not given, both `arr` and
        `values` are flattened before use.

    Returns
    -------
    append : ndarray
        A copy of `arr` with `values` appended to `axis`; a new array (never a view).

    See Also
    --------
    numpy.append : The NumPy function this mirrors.
    insert, delete, concatenate
    """
    arr = anp.asarray(arr)
    if axis is None:
        if arr.ndim != 1:
            arr = anp.ravel(arr)
        values = anp.ravel(values)
        axis = arr.ndim - 1
    return anp.concatenate((arr, values), axis=axis)


@defers_to_numpy
def delete(arr: ArrayLike, obj: Any, axis: int | None = None) -> NDArray:
    """Return a new array with sub-arrays along an axis deleted.

    Parameters
    ----------
    arr : array_like
        Input array.
    obj : slice, int, array-like of ints or bools
        Indicate indices of sub-arrays to remove along the specified axis; a boolean array marks
        the sub-arrays to remove.
    axis : int, optional
        The axis along which to delete the subarray defined by `obj`. If `axis` is None, `obj` is
        applied to the flattened array.

    Returns
    -------
    out : ndarray
        A copy of `arr` with the elements specified by `obj` removed. If `axis` is None, `out` is
        a flattened array.

    See Also
    --------
    numpy.delete : The NumPy function this mirrors.
    insert, append

    Notes
    -----
    Under `jit` the positions `obj` must be concrete (the output shape depends on them).
    """
    host = host_arguments(arr, obj)
    if host is not None:
        return wrap_result(np.delete(host[0], host[1], axis))
    arr, axis = _editing_axis(anp.asarray(arr), axis)
    n = arr.shape[axis]
    positions = np.arange(n).reshape((1,) * axis + (n,) + (1,) * (arr.ndim - axis - 1))
    obj = _host_index(obj)
    kept = np.delete(positions, obj, axis=axis).ravel()
    if _single_position(obj):  # NumPy copies the parts into an array in arr's order
        return result_layouts.by_source_order(arr, anp.take(arr, kept, axis=axis))
    keep = np.zeros(n, dtype=bool)
    keep[kept] = True
    return arr[(slice(None),) * axis + (keep,)]  # NumPy's own index: its memory order too


def _single_position(obj) -> bool:
    """Whether NumPy's delete takes `obj` as a slice or one position (its copy by parts)."""
    if isinstance(obj, slice):
        return True
    if isinstance(obj, (int, np.integer)) and not isinstance(obj, (bool, np.bool_)):
        return True
    positions = np.asarray(obj)
    return positions.size == 1 and positions.dtype.kind in "ui"


@defers_to_numpy
@constants_on_operand_device
def insert(arr: ArrayLike, obj: Any, values: ArrayLike, axis: int | None = None) -> NDArray:
    """Insert values along the given axis before the given indices.

    Parameters
    ----------
    arr : array_like
        Input array.
    obj : slice, int, array-like of ints or bools
        Object that defines the index or indices before which `values` is inserted. Multiple
        insertions are possible when `obj` is a single scalar or a sequence with one element
        (like slicing multiple sub-arrays at once).
    values : array_like
        Values to insert into `arr`; cast to the type of `arr`. Its shape must broadcast to the
        inserted block (``arr[..., obj, ...] = values`` rules).
    axis : int, optional
        Axis along which to insert `values`. If `axis` is None then `arr` is flattened first.

    Returns
    -------
    out : ndarray
        A copy of `arr` with `values` inserted. If `axis` is None, `out` is a flattened array.

    See Also
    --------
    numpy.insert : The NumPy function this mirrors.
    append, delete, concatenate

    Notes
    -----
    Under `jit` the positions `obj` must be concrete (the output shape depends on them).
    """
    host = host_arguments(arr, obj, values)
    if host is not None:
        return wrap_result(np.insert(host[0], host[1], host[2], axis))
    arr, axis = _editing_axis(anp.asarray(arr), axis)
    n = arr.shape[axis]
    obj = _host_index(obj)
    if isinstance(obj, slice):
        indices = np.arange(*obj.indices(n), dtype=np.intp)
    else:
        indices = np.array(obj)
        if indices.dtype == bool:
            if indices.ndim != 1:
                raise ValueError("boolean array argument obj to insert must be one dimensional")
            indices = np.flatnonzero(indices)
        elif indices.ndim > 1:
            raise ValueError("index array argument obj to insert must be one dimensional or scalar")
    if indices.size == 1:
        return _insert_block(arr, obj, indices, values, axis)
    if indices.size == 0 and not isinstance(obj, np.ndarray):
        indices = indices.astype(np.intp)
    indices[indices < 0] += n
    numnew = len(indices)
    order = indices.argsort(kind="mergesort")
    indices[order] += np.arange(numnew)
    old_mask = np.ones(n + numnew, dtype=bool)
    old_mask[indices] = False  # NumPy's IndexError for positions out of bounds
    block = list(arr.shape)
    block[axis] = numnew
    values = _assigned(anp.asarray(values, dtype=arr.dtype), tuple(block))
    source = np.empty(n + numnew, dtype=np.intp)  # output position -> position in arr ++ values
    source[old_mask] = np.arange(n)
    source[indices] = n + np.arange(numnew)
    inserted = anp.take(anp.concatenate((arr, values), axis=axis), source, axis=axis)
    return result_layouts.by_source_order(arr, inserted)


def _insert_block(arr, obj, indices, values, axis):
    """One insertion position: `values` (cast, at least arr.ndim dimensions) is placed as a block."""
    n = arr.shape[axis]
    index = indices.item()
    if index < -n or index > n:
        raise IndexError(f"index {obj} is out of bounds for axis {axis} with size {n}")
    if index < 0:
        index += n
    values = anp.array(values, copy=None, ndmin=arr.ndim, dtype=arr.dtype)
    if indices.ndim == 0:
        values = anp.moveaxis(values, 0, axis)
    block = list(arr.shape)
    block[axis] = values.shape[axis]
    values = _assigned(values, tuple(block))
    before = [slice(None)] * arr.ndim
    after = [slice(None)] * arr.ndim
    before[axis] = slice(None, index)
    after[axis] = slice(index, None)
    joined = anp.concatenate((arr[tuple(before)], values, arr[tuple(after)]), axis=axis)
    return result_layouts.by_source_order(arr, joined)  # NumPy's insert: in arr's order


def _assigned(values, shape):
    """`values` as an assignment ``out[...] = values`` into `shape` broadcasts it (leading unit
    dimensions beyond the target's rank are dropped)."""
    while values.ndim > len(shape) and values.shape[0] == 1:
        values = values[0]
    try:
        return anp.broadcast_to(values, shape)
    except ValueError:
        raise ValueError(
            f"could not broadcast input array from shape {values.shape} into shape {shape}"
        ) from None


@defers_to_numpy
@constants_on_operand_device
def resize(a: ArrayLike, new_shape: ShapeLike) -> NDArray:
    """Return a new array with the specified shape.

    If the new array is larger than the original array, then the new array is filled with repeated
    copies of `a`.

    Parameters
    ----------
    a : array_like
        Array to be resized.
    new_shape : int or tuple of int
        Shape of resized array.

    Returns
    -------
    reshaped_array : ndarray
        The new array is formed from the data in the old array, repeated if necessary to fill out
        the required number of elements, in C order; zeros if `a` is empty.

    See Also
    --------
    numpy.resize : The NumPy function this mirrors.
    reshape
    """
    if isinstance(new_shape, (int, np.integer)):
        new_shape = (new_shape,)
    elif isinstance(new_shape, ndarray):  # sizes as an array (on a device: read back)
        new_shape = tuple(host_values(new_shape._scalar("the shape of resize")).tolist())
    a = anp.ravel(a)
    new_size = 1
    for dim_length in new_shape:
        new_size *= dim_length
        if dim_length < 0:
            raise ValueError("all elements of `new_shape` must be non-negative")
    if a.size == 0 or new_size == 0:
        return anp.zeros_like(a, shape=new_shape)
    repeats = (new_size + a.size - 1) // a.size
    a = anp.concatenate((a,) * repeats)[: operator.index(new_size)]
    return anp.reshape(a, new_shape)


@defers_to_numpy
def trim_zeros(
    filt: ArrayLike, trim: str = "fb", axis: int | tuple[int, ...] | None = None
) -> NDArray | Any:
    """Remove values along a dimension which are zero along all other.

    Parameters
    ----------
    filt : array_like
        Input array.
    trim : {"fb", "f", "b"}, optional
        A string with 'f' representing trim from front and 'b' to trim from back. By default, zeros
        are trimmed on both sides.
    axis : int or sequence, optional
        If None, `filt` is cropped such that the smallest bounding box is returned that still
        contains all values which are not zero. If an axis is specified, `filt` will be sliced in
        that dimension only on the sides specified by `trim`.

    Returns
    -------
    trimmed : ndarray or sequence
        The result of trimming the input: a view of an array input (a slice of a list input).

    See Also
    --------
    numpy.trim_zeros : The NumPy function this mirrors.

    Notes
    -----
    The output shape depends on the values, so a traced `filt` raises ShapeDependsOnDataError.
    """
    value = getattr(filt, "_value", None)
    if value is not None and type(value) in device_namespaces:  # the bounds read back, the device sliced
        values = np.ascontiguousarray(host_values(value))
        kept = np.trim_zeros(values, trim, axis)
        start = (0,) * values.ndim
        if kept.size:
            offset = (kept.ctypes.data - values.ctypes.data) // values.itemsize
            start = np.unravel_index(offset, values.shape)
        return filt[tuple(slice(int(s), int(s) + n) for s, n in zip(start, kept.shape))]
    host = host_arguments(filt, in_trace=True)
    if host is None:
        raise ShapeDependsOnDataError(
            "trim_zeros: the output shape depends on the values of a traced array; trim the "
            "zeros outside jit, or keep the shape and mask them with arraystack.where."
        )
    out = np.trim_zeros(host[0], trim, axis)
    return wrap_result(out) if isinstance(filt, (ndarray, np.ndarray)) else out
