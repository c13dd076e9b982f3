"""Shape manipulation: reshape, transpose, broadcast, concatenate, stack, squeeze, repeat, atleast_nd.

Each function is one or two shape primitives on its common path. Eager results alias the input exactly
as NumPy's views do, because the reference rules of reshape/transpose/broadcast_in_dim/slice/rev return
NumPy views. Joining, splitting, rearranging and padding live in _joining.py, _splitting.py,
_rearranging.py and _pad.py.
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING

import numpy as np

from arraystack._aliasing import view_of
from arraystack._array import ndarray, wrap
from arraystack._creation import asarray, copy
from arraystack._shapes import (  # normalize_axes is imported from here by other families
    format_shape,
    int_tuple,
    normalize_axes,  # noqa: F401
    normalize_axis,
    normalize_axis_tuple,
    resolve_shape,
)
from arraystack.ir.core import Tracer, active, bind
from arraystack.ir.structural import (
    broadcast_in_dim_p,
    reshape_p,
    transpose_p,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    from arraystack.typing import ArrayLike, AxisLike, NDArray, ShapeLike


def _eager_order(value, order):
    """'A' (and, for ravel, 'K') resolved against an eager buffer's layout; traced values read as C."""
    if type(value) is Tracer or value.flags.c_contiguous:
        return "C"
    return "F" if value.flags.f_contiguous else order


def reshape(
    a: ArrayLike,
    /,
    shape: AxisLike,
    order: str = "C",
    *,
    copy: bool | None = None,
) -> NDArray:
    """Gives a new shape to an array without changing its data."""
    if type(a) is ndarray and order == "C" and copy is None and not active.n:
        value = a._value
        if type(value) is np.ndarray:  # eager: reshape_p's reference rule is exactly this call
            return wrap(value.reshape(shape))
    if type(a) is not ndarray:
        a = asarray(a)
    value = a._value
    new = resolve_shape(shape, value.size)
    if order != "C":
        if order == "A":
            order = "F" if _eager_order(value, "C") == "F" else "C"
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


def ravel(a: ArrayLike, order: str = "C") -> NDArray:
    """Return a contiguous flattened array."""
    if type(a) is not ndarray:
        a = asarray(a)
    value = a._value
    if order == "C":
        return view_of(a, reshape_p, new_sizes=(value.size,))
    if order not in ("F", "A", "K"):
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    if order != "F":
        order = _eager_order(value, order)
    if order == "A":
        order = "C"
    if order == "K":
        strides = value.strides
        perm = sorted(range(value.ndim), key=lambda i: -abs(strides[i]))
        a = transpose(a, perm)
    elif order == "F":
        a = transpose(a)
    return view_of(a, reshape_p, new_sizes=(value.size,))


_REVERSED = [tuple(range(n - 1, -1, -1)) for n in range(32)]


def transpose(a: ArrayLike, axes: Sequence[int] | None = None) -> NDArray:
    """Returns an array with axes transposed."""
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


def matrix_transpose(x: ArrayLike, /) -> NDArray:
    """Transposes a matrix (or a stack of matrices): swaps the last two axes."""
    x = asarray(x)
    if x.ndim < 2:
        raise ValueError(f"Input array must be at least 2-dimensional, but it is {x.ndim}")
    return swapaxes(x, -1, -2)


def swapaxes(a: ArrayLike, axis1: int, axis2: int) -> NDArray:
    """Interchange two axes of an array."""
    a = asarray(a)
    i = normalize_axis(axis1, a.ndim, "axis1")
    j = normalize_axis(axis2, a.ndim, "axis2")
    perm = list(range(a.ndim))
    perm[i], perm[j] = j, i
    return view_of(a, transpose_p, permutation=tuple(perm))


def moveaxis(
    a: ArrayLike,
    source: int | Sequence[int],
    destination: int | Sequence[int],
) -> NDArray:
    """Move axes of an array to new positions; other axes remain in their original order."""
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


def expand_dims(a: ArrayLike, axis: int | Sequence[int]) -> NDArray:
    """Expand the shape of an array: insert new axes of length one."""
    a = asarray(a)
    if type(axis) not in (tuple, list):
        axis = (axis,)
    ndim = len(axis) + a.ndim
    axes = normalize_axis_tuple(axis, ndim)
    dims = iter(a.shape)
    shape = tuple(1 if i in axes else next(dims) for i in range(ndim))
    return view_of(a, reshape_p, new_sizes=shape)


def squeeze(a: ArrayLike, axis: AxisLike = None) -> NDArray:
    """Remove axes of length one from `a`."""
    a = asarray(a)
    shape = a.shape
    if axis is None:
        axes = tuple(i for i, d in enumerate(shape) if d == 1)
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


def broadcast_to(array: ArrayLike, shape: ShapeLike, subok: bool = False) -> NDArray:
    """Broadcast an array to a new shape."""
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


def broadcast_arrays(*args: ArrayLike, subok: bool = False) -> tuple[NDArray, ...]:
    """Broadcast any number of arrays against each other."""
    # Note: broadcast results are read-only views; NumPy's are writable with a deprecation warning.
    arrays = [asarray(a) for a in args]
    shape = np.broadcast_shapes(*(a.shape for a in arrays))
    return tuple(a if a.shape == shape else broadcast_to(a, shape) for a in arrays)


def broadcast_shapes(*args: ShapeLike) -> tuple[int, ...]:
    """Broadcast the input shapes into a single shape."""
    return np.broadcast_shapes(*args)


from arraystack._joining import (
    atleast_1d,
    atleast_2d,
    atleast_3d,
    column_stack,
    concat,
    concatenate,
    dstack,
    hstack,
    stack,
    vstack,
)
from arraystack._pad import pad
from arraystack._rearranging import flip, fliplr, flipud, repeat, roll, rot90, tile
from arraystack._splitting import array_split, dsplit, hsplit, split, unstack, vsplit

__all__ = [
    "array_split",
    "atleast_1d",
    "atleast_2d",
    "atleast_3d",
    "broadcast_arrays",
    "broadcast_shapes",
    "broadcast_to",
    "column_stack",
    "concat",
    "concatenate",
    "dsplit",
    "dstack",
    "expand_dims",
    "flip",
    "fliplr",
    "flipud",
    "hsplit",
    "hstack",
    "matrix_transpose",
    "moveaxis",
    "pad",
    "permute_dims",
    "ravel",
    "repeat",
    "reshape",
    "roll",
    "rot90",
    "split",
    "squeeze",
    "stack",
    "swapaxes",
    "tile",
    "transpose",
    "unstack",
    "vsplit",
    "vstack",
]


from arraystack._manipulation_docs import DOCS  # the docstrings, kept apart (line budget)

for _function in (
    broadcast_arrays,
    broadcast_shapes,
    broadcast_to,
    concatenate,
    expand_dims,
    matrix_transpose,
    moveaxis,
    ravel,
    reshape,
    squeeze,
    stack,
    swapaxes,
    transpose,
):
    _function.__doc__ = DOCS[_function.__name__]
