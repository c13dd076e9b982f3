"""Splitting: array_split, split, hsplit, vsplit, dsplit, unstack. Each piece is a slice along the axis (a
view in eager mode).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from arraystack._transforms.aliasing import view_of
from arraystack._core.array import ndarray
from arraystack._creation.basic import asarray
from arraystack._manipulation.reshaping import moveaxis
from arraystack._core.shapes import normalize_axis
from arraystack.ir.structural import slice_p
from arraystack._core.overrides import defers_to_numpy

if TYPE_CHECKING:
    from collections.abc import Sequence

    from arraystack.typing import ArrayLike, NDArray


def _slice_axis(ary, axis, start, stop):
    """ary[..., start:stop, ...] along `axis`, with Python's slice semantics."""
    n = ary.shape[axis]
    start, stop, _ = slice(start, stop).indices(n)
    stop = max(stop, start)
    starts = tuple(start if i == axis else 0 for i in range(ary.ndim))
    limits = tuple(stop if i == axis else d for i, d in enumerate(ary.shape))
    return view_of(ary, slice_p, start_indices=starts, limit_indices=limits, strides=(1,) * ary.ndim)


@defers_to_numpy
def array_split(
    ary: ArrayLike,
    indices_or_sections: int | Sequence[int] | ArrayLike,
    axis: int = 0,
) -> list[NDArray]:
    """Split an array into multiple sub-arrays, allowing unequal division.

    Parameters
    ----------
    ary : ndarray
        Array to be divided into sub-arrays.
    indices_or_sections : int or 1-D array
        An integer N gives N parts, the first ``l % N`` of them one element larger; a sorted 1-D
        array gives the split points.
    axis : int, optional
        The axis along which to split, default is 0.

    Returns
    -------
    sub-arrays : list of ndarrays
        A list of sub-arrays, views into `ary` (eagerly).

    See Also
    --------
    numpy.array_split : The NumPy function this mirrors.
    split, hsplit, vsplit, dsplit
    """
    ary = asarray(ary)
    total = ary.shape[axis]
    try:
        n_sections = len(indices_or_sections) + 1
        div_points = [0] + [int(i) for i in indices_or_sections] + [total]
    except TypeError:
        n_sections = int(indices_or_sections)
        if n_sections <= 0:
            raise ValueError("number sections must be larger than 0.") from None
        each, extras = divmod(total, n_sections)
        sizes = [0] + extras * [each + 1] + (n_sections - extras) * [each]
        div_points = [int(d) for d in np.cumsum(sizes)]
    axis = normalize_axis(axis, ary.ndim)
    return [_slice_axis(ary, axis, div_points[i], div_points[i + 1]) for i in range(n_sections)]


@defers_to_numpy
def split(
    ary: ArrayLike,
    indices_or_sections: int | Sequence[int] | ArrayLike,
    axis: int = 0,
) -> list[NDArray]:
    """Split an array into multiple sub-arrays as views into ary.

    Parameters
    ----------
    ary : ndarray
        Array to be divided into sub-arrays.
    indices_or_sections : int or 1-D array
        An integer N splits into N equal parts (or raises if the axis does not divide); a sorted 1-D
        array of integers gives the split points.
    axis : int, optional
        The axis along which to split, default is 0.

    Returns
    -------
    sub-arrays : list of ndarrays
        A list of sub-arrays, views into `ary` (eagerly).

    See Also
    --------
    numpy.split : The NumPy function this mirrors.
    array_split, hsplit, vsplit, dsplit, unstack, concatenate
    """
    ary = asarray(ary)
    try:
        len(indices_or_sections)
    except TypeError:
        if isinstance(indices_or_sections, ndarray):
            indices_or_sections = indices_or_sections.item()
        if ary.shape[axis] % indices_or_sections:
            raise ValueError("array split does not result in an equal division") from None
    return array_split(ary, indices_or_sections, axis)


@defers_to_numpy
def hsplit(ary: ArrayLike, indices_or_sections: int | Sequence[int] | ArrayLike) -> list[NDArray]:
    """Split an array into multiple sub-arrays horizontally (column-wise).

    Parameters
    ----------
    ary : ndarray
        Array to be divided.
    indices_or_sections : int or 1-D array
        An integer N splits into N equal parts (or raises if the axis does not divide); a sorted 1-D
        array of integers gives the split points.

    Returns
    -------
    sub-arrays : list of ndarrays
        A list of sub-arrays, views into `ary` (eagerly).

    See Also
    --------
    numpy.hsplit : The NumPy function this mirrors.
    split, hstack
    """
    ary = asarray(ary)
    if ary.ndim == 0:
        raise ValueError("hsplit only works on arrays of 1 or more dimensions")
    return split(ary, indices_or_sections, 1 if ary.ndim > 1 else 0)


@defers_to_numpy
def vsplit(ary: ArrayLike, indices_or_sections: int | Sequence[int] | ArrayLike) -> list[NDArray]:
    """Split an array into multiple sub-arrays vertically (row-wise).

    Parameters
    ----------
    ary : ndarray
        Array, at least 2-D, to be divided.
    indices_or_sections : int or 1-D array
        An integer N splits into N equal parts (or raises if the axis does not divide); a sorted 1-D
        array of integers gives the split points.

    Returns
    -------
    sub-arrays : list of ndarrays
        A list of sub-arrays, views into `ary` (eagerly).

    See Also
    --------
    numpy.vsplit : The NumPy function this mirrors.
    split, vstack
    """
    ary = asarray(ary)
    if ary.ndim < 2:
        raise ValueError("vsplit only works on arrays of 2 or more dimensions")
    return split(ary, indices_or_sections, 0)


@defers_to_numpy
def dsplit(ary: ArrayLike, indices_or_sections: int | Sequence[int] | ArrayLike) -> list[NDArray]:
    """Split array into multiple sub-arrays along the 3rd axis (depth).

    Parameters
    ----------
    ary : ndarray
        Array, at least 3-D, to be divided.
    indices_or_sections : int or 1-D array
        An integer N splits into N equal parts (or raises if the axis does not divide); a sorted 1-D
        array of integers gives the split points.

    Returns
    -------
    sub-arrays : list of ndarrays
        A list of sub-arrays, views into `ary` (eagerly).

    See Also
    --------
    numpy.dsplit : The NumPy function this mirrors.
    split, dstack
    """
    ary = asarray(ary)
    if ary.ndim < 3:
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    return split(ary, indices_or_sections, 2)


@defers_to_numpy
def unstack(x: ArrayLike, /, *, axis: int = 0) -> tuple[NDArray, ...]:
    """Split an array into a sequence of arrays along the given axis.

    Parameters
    ----------
    x : ndarray
        The array to be unstacked.
    axis : int, optional
        Axis along which the array will be split; default 0.

    Returns
    -------
    unstacked : tuple of ndarrays
        The unstacked arrays, each without `axis`.

    See Also
    --------
    numpy.unstack : The NumPy function this mirrors.
    stack, split
    """
    x = asarray(x)
    if x.ndim == 0:
        raise ValueError("Input array must be at least 1-d.")
    x = moveaxis(x, axis, 0)
    # x[i]: views of x (under jit too), and NumPy's scalars for the elements of a 1-d array, as
    # NumPy's unstack gives them
    return tuple(x[i] for i in range(x.shape[0]))


__all__ = [
    "array_split",
    "dsplit",
    "hsplit",
    "split",
    "unstack",
    "vsplit",
]
