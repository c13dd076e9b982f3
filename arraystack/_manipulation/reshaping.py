"""Changing the shape: reshape, ravel, transpose and axis moves, expand_dims, squeeze, broadcasting.

Each function is one or two shape primitives on its common path. Eager results alias the input exactly
as NumPy's views do, because the reference rules of reshape/transpose/broadcast_in_dim/slice/rev return
NumPy views. Joining, splitting, rearranging and padding live in joining.py, splitting.py,
rearranging.py and padding.py.
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING

import numpy as np

from arraystack._core.array import ndarray, wrap
from arraystack._core.devices import constants_on_operand_device
from arraystack._core.overrides import defers_to_numpy
from arraystack._core.shapes import (  # normalize_axes is imported from here by other families
    format_shape,
    int_tuple,
    normalize_axes,  # noqa: F401
    normalize_axis,
    normalize_axis_tuple,
    resolve_shape,
)
from arraystack._creation.basic import asarray, copy
from arraystack._transforms.aliasing import layout_of, note_layout_read, view_of
from arraystack.ir.core import Tracer, active
from arraystack.ir.structural import (
    broadcast_in_dim_p,
    reshape_p,
    transpose_p,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    from arraystack.typing import ArrayLike, AxisLike, NDArray, ShapeLike


def _layout_order(a, order):
    """'A' (and, for ravel, 'K') resolved against a's layout: an eager buffer's, or a traced value's
    as NumPy would have it (which the result's values then depend on)."""
    layout = a._value
    if type(layout) is Tracer:
        note_layout_read()
        layout = layout_of(a)
    if layout.flags.c_contiguous:
        return "C"
    return "F" if layout.flags.f_contiguous else order


@defers_to_numpy
def reshape(
    a: ArrayLike,
    /,
    shape: AxisLike,
    order: str = "C",
    *,
    copy: bool | None = None,
) -> NDArray:
    """Gives a new shape to an array without changing its data.

    Parameters
    ----------
    a : array_like
        Input array.
    shape : int or tuple of ints
        The new shape, compatible with the original one; one dimension may be -1, inferred from the
        size.
    order : {'C', 'F', 'A'}, optional
        Read and place the elements in this index order; 'C' by default.
    copy : bool, optional
        If True, the data is copied; if False, a needed copy raises ValueError; if None (default), copy
        only when needed.

    Returns
    -------
    reshaped_array : ndarray
        A view of `a` when possible (eagerly), else a copy.

    See Also
    --------
    numpy.reshape : The NumPy function this mirrors.
    ravel, ndarray.reshape, expand_dims, squeeze
    """
    if type(a) is ndarray and order == "C" and copy is None and not active.n:
        value = a._value
        if type(value) is np.ndarray:  # eager: reshape_p's reference rule is exactly this call
            return wrap(value.reshape(shape))
    if type(a) is not ndarray:
        a = asarray(a)
    value = a._value
    new = resolve_shape(shape, value.size)
    if order is None:  # NumPy's order converter reads None as the default
        order = "C"
    if order != "C":
        if order == "A":
            order = "F" if _layout_order(a, "C") == "F" else "C"
        elif order == "K":
            raise ValueError("order 'K' is not permitted for reshaping")
        elif order != "F":
            raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    if order == "F":
        out = transpose(reshape(transpose(a), new[::-1]))
    else:
        out = view_of(a, reshape_p, new_sizes=new)
    if copy is None:
        return out
    if copy:
        return _copy(out)
    if type(value) is not Tracer and value.size and not np.may_share_memory(out._value, value):
        raise ValueError("Unable to avoid creating a copy while reshaping.")
    return out


_copy = copy


@defers_to_numpy
def ravel(a: ArrayLike, order: str = "C") -> NDArray:
    """Return a contiguous flattened array.

    Parameters
    ----------
    a : array_like
        Input array.
    order : {'C', 'F', 'A', 'K'}, optional
        The order in which the elements are read; 'C' (row-major) by default.

    Returns
    -------
    y : ndarray
        A 1-D array of the elements of `a`: a view when possible (eagerly), else a copy.

    See Also
    --------
    numpy.ravel : The NumPy function this mirrors.
    reshape, ndarray.flatten, ndarray.ravel
    """
    if type(a) is not ndarray:
        a = asarray(a)
    value = a._value
    if order == "C" or order is None:  # NumPy's order converter reads None as the default
        return view_of(a, reshape_p, new_sizes=(value.size,))
    if order not in ("F", "A", "K"):
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    if order != "F":
        order = _layout_order(a, order)
    if order == "A":
        order = "C"
    if order == "K":
        strides = layout_of(a).strides
        perm = sorted(range(value.ndim), key=lambda i: -abs(strides[i]))
        a = transpose(a, perm)
    elif order == "F":
        a = transpose(a)
    return view_of(a, reshape_p, new_sizes=(value.size,))


_REVERSED = [tuple(range(n - 1, -1, -1)) for n in range(32)]


@defers_to_numpy
def transpose(a: ArrayLike, axes: Sequence[int] | None = None) -> NDArray:
    """Returns an array with axes transposed.

    Parameters
    ----------
    a : array_like
        Input array.
    axes : tuple or list of ints, optional
        A permutation of ``[0, 1, ..., N-1]``; by default, the axes are reversed.

    Returns
    -------
    p : ndarray
        `a` with its axes permuted.

    See Also
    --------
    numpy.transpose : The NumPy function this mirrors.
    moveaxis, swapaxes, matrix_transpose, ndarray.T, ndarray.transpose

    Notes
    -----
    Eagerly the result is a view of `a` where NumPy's is (writes go through); traced, it is a new value.
    `permute_dims` (the Array API's name) is an alias.
    """
    if type(a) is ndarray and not active.n and type(a._value) is np.ndarray:
        # eager: transpose_p's reference rule is exactly this call (NumPy's own axis errors)
        return wrap(a._value.transpose() if axes is None else a._value.transpose(axes))
    if type(a) is not ndarray:
        a = asarray(a)
    ndim = a._value.ndim
    if axes is None:
        perm = _REVERSED[ndim] if ndim < 32 else tuple(range(ndim - 1, -1, -1))
    else:
        axes = int_tuple(axes)
        if len(axes) != ndim:
            raise ValueError("axes don't match array")
        perm = tuple(normalize_axis(ax, ndim) for ax in axes)
        if len(set(perm)) != ndim:
            raise ValueError("repeated axis in transpose")
    return view_of(a, transpose_p, permutation=perm)


permute_dims = transpose  # numpy.permute_dims is numpy.transpose


@defers_to_numpy
def matrix_transpose(x: ArrayLike, /) -> NDArray:
    """Transposes a matrix (or a stack of matrices): swaps the last two axes.

    Parameters
    ----------
    x : array_like
        Input array with ``x.ndim >= 2``.

    Returns
    -------
    out : ndarray
        An array with the last two axes interchanged.

    See Also
    --------
    numpy.matrix_transpose : The NumPy function this mirrors.
    transpose, swapaxes, ndarray.mT
    """
    x = asarray(x)
    if x.ndim < 2:
        raise ValueError(f"Input array must be at least 2-dimensional, but it is {x.ndim}")
    return swapaxes(x, -1, -2)


@defers_to_numpy
def swapaxes(a: ArrayLike, axis1: int, axis2: int) -> NDArray:
    """Interchange two axes of an array.

    Parameters
    ----------
    a : array_like
        Input array.
    axis1 : int
        First axis.
    axis2 : int
        Second axis.

    Returns
    -------
    a_swapped : ndarray
        `a` with the two axes interchanged.

    See Also
    --------
    numpy.swapaxes : The NumPy function this mirrors.
    transpose, moveaxis, ndarray.swapaxes

    Notes
    -----
    Eagerly the result is a view of `a` where NumPy's is (writes go through); traced, it is a new value.
    """
    a = asarray(a)
    i = normalize_axis(axis1, a.ndim, "axis1")
    j = normalize_axis(axis2, a.ndim, "axis2")
    perm = list(range(a.ndim))
    perm[i], perm[j] = j, i
    return view_of(a, transpose_p, permutation=tuple(perm))


@defers_to_numpy
def moveaxis(
    a: ArrayLike,
    source: int | Sequence[int],
    destination: int | Sequence[int],
) -> NDArray:
    """Move axes of an array to new positions; other axes remain in their original order.

    Parameters
    ----------
    a : array_like
        Input array.
    source : int or sequence of int
        Original positions of the axes to move; these must be unique.
    destination : int or sequence of int
        Destination positions for each of the original axes; these must also be unique.

    Returns
    -------
    result : ndarray
        Array with moved axes.

    See Also
    --------
    numpy.moveaxis : The NumPy function this mirrors.
    transpose, swapaxes

    Notes
    -----
    Eagerly the result is a view of `a` where NumPy's is (writes go through); traced, it is a new value.
    """
    a = asarray(a)
    source = normalize_axis_tuple(source, a.ndim, "source")
    destination = normalize_axis_tuple(destination, a.ndim, "destination")
    if len(source) != len(destination):
        raise ValueError(
            "`source` and `destination` arguments must have the same number of elements"
        )
    order = [n for n in range(a.ndim) if n not in source]
    for dest, src in sorted(zip(destination, source)):
        order.insert(dest, src)
    return view_of(a, transpose_p, permutation=tuple(order))


@defers_to_numpy
def expand_dims(a: ArrayLike, axis: int | Sequence[int]) -> NDArray:
    """Expand the shape of an array: insert new axes of length one.

    Parameters
    ----------
    a : array_like
        Input array.
    axis : int or tuple of ints
        Position(s) in the expanded axes where the new axis (or axes) is placed.

    Returns
    -------
    result : ndarray
        `a` with the number of dimensions increased.

    See Also
    --------
    numpy.expand_dims : The NumPy function this mirrors.
    squeeze, reshape, atleast_1d

    Notes
    -----
    Eagerly the result is a view of `a` where NumPy's is (writes go through); traced, it is a new value.
    """
    a = asarray(a)
    if type(axis) not in (tuple, list):
        axis = (axis,)
    ndim = len(axis) + a.ndim
    axes = normalize_axis_tuple(axis, ndim)
    dims = iter(a.shape)
    shape = tuple(1 if i in axes else next(dims) for i in range(ndim))
    return view_of(a, reshape_p, new_sizes=shape)


@defers_to_numpy
def squeeze(a: ArrayLike, axis: AxisLike = None) -> NDArray:
    """Remove axes of length one from `a`.

    Parameters
    ----------
    a : array_like
        Input array.
    axis : None or int or tuple of ints, optional
        Selects a subset of the length-one axes; selecting an axis of another length raises ValueError.

    Returns
    -------
    squeezed : ndarray
        The input array with the length-one dimensions removed.

    See Also
    --------
    numpy.squeeze : The NumPy function this mirrors.
    expand_dims, reshape

    Notes
    -----
    Eagerly the result is a view of `a` where NumPy's is (writes go through); traced, it is a new value.
    """
    a = asarray(a)
    shape = a.shape
    if axis is None:
        axes = tuple(i for i, d in enumerate(shape) if d == 1)
    elif not shape and isinstance(axis, (int, np.integer)) and axis in (0, -1):
        axes = ()  # NumPy's legacy rule: a 0-d array takes an int axis 0 or -1 (not in a tuple)
    else:
        axis = axis if type(axis) in (tuple, list) else (axis,)
        axes = tuple(normalize_axis(ax, a.ndim) for ax in axis)
        if len(set(axes)) != len(axes):
            raise ValueError("duplicate value in 'axis'")
        if any(shape[ax] != 1 for ax in axes):
            raise ValueError("cannot select an axis to squeeze out which has size not equal to one")
    new = tuple(d for i, d in enumerate(shape) if i not in axes)
    return view_of(a, reshape_p, new_sizes=new)


# -- broadcasting ---------------------------------------------------------------------------------------------


@defers_to_numpy
def broadcast_to(array: ArrayLike, shape: ShapeLike, subok: bool = False) -> NDArray:
    """Broadcast an array to a new shape.

    Parameters
    ----------
    array : array_like
        The array to broadcast.
    shape : tuple or int
        The shape of the desired array; a single integer ``i`` is interpreted as ``(i,)``.
    subok : bool, optional
        Accepted for compatibility; arraystack has no array subclasses.

    Returns
    -------
    broadcast : array
        A read-only view on the original array with the given shape (eagerly); traced, a broadcast
        value.

    See Also
    --------
    numpy.broadcast_to : The NumPy function this mirrors.
    broadcast_arrays, broadcast_shapes
    """
    if type(array) is not ndarray:
        array = asarray(array)
    shape = (
        tuple(operator.index(d) for d in shape) if np.iterable(shape) else (operator.index(shape),)
    )
    if not shape and array.shape:
        raise ValueError("cannot broadcast a non-scalar to a scalar array")
    if any(d < 0 for d in shape):
        raise ValueError("all elements of broadcast shape must be non-negative")
    lead = len(shape) - array.ndim
    if lead < 0:
        raise ValueError("input operand has more dimensions than allowed by the axis remapping")
    for d, target in zip(array.shape, shape[lead:]):
        if d != 1 and d != target:
            raise ValueError(
                "operands could not be broadcast together with remapped shapes [original->remapped]: "
                f"{format_shape(array.shape)}  and requested shape {format_shape(shape)}"
            )
    dims = tuple(range(lead, len(shape)))
    return view_of(array, broadcast_in_dim_p, shape=shape, broadcast_dimensions=dims)


@defers_to_numpy
@constants_on_operand_device
def broadcast_arrays(*args: ArrayLike, subok: bool = False) -> tuple[NDArray, ...]:
    """Broadcast any number of arrays against each other.

    Parameters
    ----------
    *args : array_likes
        The arrays to broadcast.
    subok : bool, optional
        Accepted for compatibility; arraystack has no array subclasses.

    Returns
    -------
    broadcasted : tuple of arrays
        The broadcast arrays; an input that already has the common shape is returned as it is.

    See Also
    --------
    numpy.broadcast_arrays : The NumPy function this mirrors.
    broadcast_to, broadcast_shapes

    Notes
    -----
    Broadcast results are read-only views; NumPy's are writable with a deprecation warning.
    """
    # Note: broadcast results are read-only views; NumPy's are writable with a deprecation warning.
    arrays = [asarray(a) for a in args]
    shape = np.broadcast_shapes(*(a.shape for a in arrays))
    return tuple(a if a.shape == shape else broadcast_to(a, shape) for a in arrays)


def broadcast_shapes(*args: ShapeLike) -> tuple[int, ...]:
    """Broadcast the input shapes into a single shape.

    Parameters
    ----------
    *args : tuples of ints, or ints
        The shapes to be broadcast against each other.

    Returns
    -------
    tuple
        Broadcasted shape.

    See Also
    --------
    numpy.broadcast_shapes : The NumPy function this mirrors.
    broadcast_arrays, broadcast_to
    """
    return np.broadcast_shapes(*args)


__all__ = [
    "broadcast_arrays",
    "broadcast_shapes",
    "broadcast_to",
    "expand_dims",
    "matrix_transpose",
    "moveaxis",
    "permute_dims",
    "ravel",
    "reshape",
    "squeeze",
    "swapaxes",
    "transpose",
]
