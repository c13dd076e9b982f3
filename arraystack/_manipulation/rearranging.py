"""Rearranging and tiling: flip, fliplr, flipud, roll, rot90, tile, repeat.

flip and rot90 are rev/transpose (views in eager mode); roll is two slices and a concatenate per rolled
axis; tile and repeat are one broadcast_in_dim and one reshape (repeat with per-element counts is a
gather).
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING

import numpy as np

from arraystack._core.array import ndarray, wrap
from arraystack._core.devices import host_values
from arraystack._core.overrides import defers_to_numpy
from arraystack._core.shapes import normalize_axis, normalize_axis_tuple
from arraystack._creation.basic import asarray, copy
from arraystack._manipulation.reshaping import moveaxis, ravel, reshape, transpose
from arraystack._transforms import result_layouts
from arraystack._transforms.aliasing import view_of
from arraystack.ir.core import ShapeDependsOnDataError, Tracer, bind
from arraystack.ir.structural import (
    broadcast_in_dim_p,
    concatenate_p,
    gather_p,
    reshape_p,
    rev_p,
    slice_p,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    from arraystack.typing import ArrayLike, AxisLike, NDArray


@defers_to_numpy
def flip(m: ArrayLike, axis: AxisLike = None) -> NDArray:
    """Reverse the order of elements in an array along the given axis.

    Parameters
    ----------
    m : array_like
        Input array.
    axis : None or int or tuple of ints, optional
        Axis or axes along which to flip; by default, all of them.

    Returns
    -------
    out : array_like
        A view of `m` with the entries of `axis` reversed (eagerly); a new value when traced.

    See Also
    --------
    numpy.flip : The NumPy function this mirrors.
    flipud, fliplr, rot90
    """
    m = asarray(m)
    axes = tuple(range(m.ndim)) if axis is None else normalize_axis_tuple(axis, m.ndim)
    return view_of(m, rev_p, dimensions=axes)


@defers_to_numpy
def fliplr(m: ArrayLike) -> NDArray:
    """Reverse the order of elements along axis 1 (left/right).

    Parameters
    ----------
    m : array_like
        Input array, must be at least 2-D.

    Returns
    -------
    f : ndarray
        A view of `m` with the columns reversed.

    See Also
    --------
    numpy.fliplr : The NumPy function this mirrors.
    flipud, flip, rot90
    """
    m = asarray(m)
    if m.ndim < 2:
        raise ValueError("Input must be >= 2-d.")
    return flip(m, 1)


@defers_to_numpy
def flipud(m: ArrayLike) -> NDArray:
    """Reverse the order of elements along axis 0 (up/down).

    Parameters
    ----------
    m : array_like
        Input array.

    Returns
    -------
    out : array_like
        A view of `m` with the rows reversed.

    See Also
    --------
    numpy.flipud : The NumPy function this mirrors.
    fliplr, flip, rot90
    """
    m = asarray(m)
    if m.ndim < 1:
        raise ValueError("Input must be >= 1-d.")
    return flip(m, 0)


def _axis_slice(x, axis, start, stop):
    starts = tuple(start if i == axis else 0 for i in range(len(x.shape)))
    limits = tuple(stop if i == axis else d for i, d in enumerate(x.shape))
    return bind(slice_p, x, start_indices=starts, limit_indices=limits, strides=(1,) * len(x.shape))


@defers_to_numpy
def roll(a: ArrayLike, shift: int | Sequence[int], axis: AxisLike = None) -> NDArray:
    """Roll array elements along a given axis; elements that roll beyond the last position re-enter at
    the first.

    Parameters
    ----------
    a : array_like
        Input array.
    shift : int or tuple of ints
        The number of places by which elements are shifted; a tuple pairs with a tuple `axis`.
    axis : int or tuple of ints, optional
        Axis or axes along which elements are shifted; by default the flattened array is shifted and
        the shape restored.

    Returns
    -------
    res : ndarray
        Output array, with the same shape as `a`.

    See Also
    --------
    numpy.roll : The NumPy function this mirrors.
    rot90, moveaxis
    """
    a = asarray(a)
    if axis is None:
        return reshape(roll(ravel(a), shift, 0), a.shape)
    axis = normalize_axis_tuple(axis, a.ndim, allow_duplicate=True)
    if isinstance(shift, ndarray):  # the shifts decide the layout: read back from a device
        shift = host_values(shift._scalar("the shift of roll"))
    pairs = np.broadcast(shift, axis)
    if pairs.ndim > 1:
        raise ValueError("'shift' and 'axis' should be scalars or 1D sequences")
    shifts = dict.fromkeys(range(a.ndim), 0)
    for sh, ax in pairs:
        shifts[ax] += int(sh)
    out = a._value
    for ax, offset in shifts.items():
        n = a.shape[ax]
        offset %= n or 1
        if offset:
            tail = _axis_slice(out, ax, n - offset, n)
            head = _axis_slice(out, ax, 0, n - offset)
            out = bind(concatenate_p, tail, head, dimension=ax)
    if out is a._value:
        return copy(a)
    # NumPy's roll fills empty_like(a): a's memory order
    return result_layouts.like(a, wrap(out))


@defers_to_numpy
def rot90(m: ArrayLike, k: int = 1, axes: Sequence[int] = (0, 1)) -> NDArray:
    """Rotate an array by 90 degrees in the plane specified by axes.

    Parameters
    ----------
    m : array_like
        Array of two or more dimensions.
    k : int, optional
        Number of times the array is rotated by 90 degrees (counterclockwise).
    axes : (2,) array_like
        The array is rotated in the plane defined by the axes; they must be different.

    Returns
    -------
    y : ndarray
        A rotated view of `m`.

    See Also
    --------
    numpy.rot90 : The NumPy function this mirrors.
    flip, fliplr, flipud
    """
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    m = asarray(m)
    if axes[0] == axes[1] or abs(axes[0] - axes[1]) == m.ndim:
        raise ValueError("Axes must be different.")
    if not (-m.ndim <= axes[0] < m.ndim and -m.ndim <= axes[1] < m.ndim):
        raise ValueError(f"Axes={axes} out of range for array of dimension {m.ndim}.")
    k %= 4
    if k == 0:
        return transpose(m, tuple(range(m.ndim)))  # a view, as NumPy's m[:]
    if k == 2:
        return flip(flip(m, axes[0]), axes[1])
    perm = list(range(m.ndim))
    perm[axes[0]], perm[axes[1]] = perm[axes[1]], perm[axes[0]]
    if k == 1:
        return transpose(flip(m, axes[1]), perm)
    return flip(transpose(m, perm), axes[1])


@defers_to_numpy
def tile(A: ArrayLike, reps: int | Sequence[int]) -> NDArray:
    """Construct an array by repeating A the number of times given by reps.

    Parameters
    ----------
    A : array_like
        The input array.
    reps : array_like
        The number of repetitions of `A` along each axis.

    Returns
    -------
    c : ndarray
        The tiled output array.

    See Also
    --------
    numpy.tile : The NumPy function this mirrors.
    repeat, broadcast_to
    """
    try:
        tup = tuple(reps)
    except TypeError:
        tup = (reps,)
    tup = tuple(operator.index(t) for t in tup)
    d = len(tup)
    c = asarray(A)
    if c.ndim < d:
        c = wrap(bind(reshape_p, c._value, new_sizes=(1,) * (d - c.ndim) + c.shape))
    tup = (1,) * (c.ndim - d) + tup
    if any(t < 0 for t in tup):
        raise ValueError("negative dimensions are not allowed")
    if all(t == 1 for t in tup):
        return copy(c)
    spread = tuple(n for pair in zip(tup, c.shape) for n in pair)
    dims = tuple(range(1, 2 * c.ndim, 2))
    out = bind(broadcast_in_dim_p, c._value, shape=spread, broadcast_dimensions=dims)
    shape_out = tuple(s * t for s, t in zip(c.shape, tup))
    return _detached(wrap(bind(reshape_p, out, new_sizes=shape_out)), c)


# -- repeat ---------------------------------------------------------------------------------------------------


def _repeat_counts(repeats):
    if isinstance(repeats, ndarray) and type(repeats._value) is Tracer or type(repeats) is Tracer:
        raise ShapeDependsOnDataError(
            "repeat() needs concrete repeats: the output shape depends on them. Pass a Python int, "
            "a list or a NumPy array, or mark the argument static (static_argnums)."
        )
    counts = np.asarray(repeats)
    if isinstance(repeats, (np.ndarray, ndarray)) and not np.can_cast(counts.dtype, np.intp, "safe"):
        what = "scalar" if counts.ndim == 0 else "array data"  # NumPy casts arrays safely
        raise TypeError(
            f"Cannot cast {what} from {counts.dtype!r} to {np.dtype(np.intp)!r} according to the "
            "rule 'safe'"
        )
    if counts.ndim > 1:
        raise ValueError(
            "setting an array element with a sequence. The requested array would exceed the maximum "
            "number of dimension of 1."
        )
    return counts.astype(np.intp)


@defers_to_numpy
def repeat(a: ArrayLike, repeats: ArrayLike, axis: int | None = None) -> NDArray:
    """Repeat each element of an array after themselves.

    Parameters
    ----------
    a : array_like
        Input array.
    repeats : int or array of ints
        The number of repetitions for each element, broadcast to the size of the axis.
    axis : int, optional
        The axis along which to repeat values; by default, the flattened input.

    Returns
    -------
    repeated_array : ndarray
        Output array with the shape of `a`, except along the given axis.

    See Also
    --------
    numpy.repeat : The NumPy function this mirrors.
    tile, ndarray.repeat

    Notes
    -----
    The output shape depends on the values of `repeats`, so under `jit` they must be concrete.
    """
    a = asarray(a)
    if axis is None:
        a = ravel(a)
        axis = 0
    else:
        axis = normalize_axis(axis, a.ndim)
    counts = _repeat_counts(repeats)
    shape = a.shape
    n = shape[axis]
    if counts.size == 1:
        r = int(counts.reshape(()))
        if r < 0:
            raise ValueError("negative dimensions are not allowed")
        spread = shape[: axis + 1] + (r,) + shape[axis + 1 :]
        dims = tuple(i if i <= axis else i + 1 for i in range(a.ndim))
        out = bind(broadcast_in_dim_p, a._value, shape=spread, broadcast_dimensions=dims)
        out = wrap(bind(reshape_p, out, new_sizes=shape[:axis] + (n * r,) + shape[axis + 1 :]))
        out = _detached(out, a)
        value = out._value  # NumPy's repeat makes a new C-ordered array
        if type(value) is np.ndarray and not value.flags.c_contiguous:
            out = wrap(np.ascontiguousarray(value))
        return out
    if counts.shape[0] != n:
        raise ValueError(
            f"operands could not be broadcast together with shape ({n},) ({counts.shape[0]},)"
        )
    if (counts < 0).any():
        raise ValueError("repeats may not contain negative values.")
    index = np.repeat(np.arange(n), counts)
    front = moveaxis(a, axis, 0)
    gathered = wrap(bind(gather_p, front._value, index, mode="clip"))
    return moveaxis(gathered, 0, axis)


def _detached(out, source):
    """`out`, copied if in eager mode it is a view of `source` or read-only (a broadcast): NumPy builds
    these results in fresh memory."""
    value = out._value
    if type(value) is Tracer:
        return out
    src = source._value
    if type(value) is not np.ndarray:  # a device array (cupy's are never read-only)
        return copy(out) if value.size and _device_bounds_overlap(value, src) else out
    if value.flags.writeable and not (value.size and np.may_share_memory(value, src)):
        return out
    return copy(out)


def _device_bounds_overlap(a, b) -> bool:
    """Whether the memory spans of two device arrays overlap (their __cuda_array_interface__)."""
    spans = []
    for x in (a, b):
        iface = x.__cuda_array_interface__
        start = end = int(iface["data"][0])
        strides = iface.get("strides") or np.cumprod((1, *x.shape[:0:-1]))[::-1] * x.itemsize
        for n, stride in zip(x.shape, strides):
            if stride < 0:
                start += (n - 1) * int(stride)
            else:
                end += (n - 1) * int(stride)
        spans.append((start, end + x.itemsize))
    (s0, e0), (s1, e1) = spans
    return s0 < e1 and s1 < e0


__all__ = ["flip", "fliplr", "flipud", "repeat", "roll", "rot90", "tile"]
