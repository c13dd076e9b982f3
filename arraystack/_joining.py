"""Changing the number of dimensions, joining and splitting: atleast_nd, vstack, hstack, dstack, column_stack, split, array_split,
hsplit, vsplit, dsplit, unstack. Joins are one concatenate; splits are slices (views in eager mode).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from arraystack._array import ndarray, wrap
from arraystack._creation import asarray
from arraystack._manipulation import concatenate, moveaxis, normalize_axis
from arraystack.ir.core import bind
from arraystack.ir.structural import reshape_p, slice_p

if TYPE_CHECKING:
    from collections.abc import Sequence

    from arraystack.typing import ArrayLike, DTypeLike, NDArray

_NOT_A_SEQUENCE = 'arrays to stack must be passed as a "sequence" type such as list or tuple.'


def _atleast(a, n):
    a = asarray(a)
    nd = a.ndim
    if nd >= n:
        return a
    if n == 3 and nd == 1:
        shape = (1,) + a.shape + (1,)
    elif n == 3 and nd == 2:
        shape = a.shape + (1,)
    else:
        shape = (1,) * (n - nd) + a.shape
    return wrap(bind(reshape_p, a._value, new_sizes=shape))


def atleast_1d(*arys: ArrayLike) -> NDArray | tuple[NDArray, ...]:
    """Convert inputs to arrays with at least one dimension.

    Parameters
    ----------
    *arys : array_like
        One or more input arrays.

    Returns
    -------
    ret : ndarray
        An array, or a tuple of arrays, each with ``a.ndim >= 1``.

    See Also
    --------
    numpy.atleast_1d : The NumPy function this mirrors.
    atleast_2d, atleast_3d
    """
    if len(arys) == 1:
        return _atleast(arys[0], 1)
    return tuple(_atleast(a, 1) for a in arys)


def atleast_2d(*arys: ArrayLike) -> NDArray | tuple[NDArray, ...]:
    """View inputs as arrays with at least two dimensions.

    Parameters
    ----------
    *arys : array_like
        One or more input arrays.

    Returns
    -------
    res, res2, ... : ndarray
        An array, or a tuple of arrays, each with ``a.ndim >= 2``.

    See Also
    --------
    numpy.atleast_2d : The NumPy function this mirrors.
    atleast_1d, atleast_3d
    """
    if len(arys) == 1:
        return _atleast(arys[0], 2)
    return tuple(_atleast(a, 2) for a in arys)


def atleast_3d(*arys: ArrayLike) -> NDArray | tuple[NDArray, ...]:
    """View inputs as arrays with at least three dimensions.

    Parameters
    ----------
    *arys : array_like
        One or more input arrays.

    Returns
    -------
    res1, res2, ... : ndarray
        An array, or a tuple of arrays, each with ``a.ndim >= 3`` (a 1-D input of shape (N,) becomes
        (1, N, 1), a 2-D (M, N) becomes (M, N, 1)).

    See Also
    --------
    numpy.atleast_3d : The NumPy function this mirrors.
    atleast_1d, atleast_2d
    """
    if len(arys) == 1:
        return _atleast(arys[0], 3)
    return tuple(_atleast(a, 3) for a in arys)


def _as_tuple(arrs):
    return arrs if isinstance(arrs, tuple) else (arrs,)


def vstack(
    tup: Sequence[ArrayLike],
    *,
    dtype: DTypeLike = None,
    casting: str = "same_kind",
) -> NDArray:
    """Stack arrays in sequence vertically (row wise).

    Parameters
    ----------
    tup : sequence of ndarrays
        The arrays to join.
    dtype : str or dtype
        If provided, the destination array will have this dtype.
    casting : {'no', 'equiv', 'safe', 'same_kind', 'unsafe'}, optional
        Controls what kind of data casting may occur; 'same_kind' by default.

    Returns
    -------
    stacked : ndarray
        The array formed by stacking the given arrays, at least 2-D.

    See Also
    --------
    numpy.vstack : The NumPy function this mirrors.
    stack, hstack, dstack, concatenate, vsplit
    """
    if not hasattr(tup, "__getitem__"):
        raise TypeError(_NOT_A_SEQUENCE)
    return concatenate(_as_tuple(atleast_2d(*tup)), 0, dtype=dtype, casting=casting)


def hstack(
    tup: Sequence[ArrayLike],
    *,
    dtype: DTypeLike = None,
    casting: str = "same_kind",
) -> NDArray:
    """Stack arrays in sequence horizontally (column wise).

    Parameters
    ----------
    tup : sequence of ndarrays
        The arrays to join.
    dtype : str or dtype
        If provided, the destination array will have this dtype.
    casting : {'no', 'equiv', 'safe', 'same_kind', 'unsafe'}, optional
        Controls what kind of data casting may occur; 'same_kind' by default.

    Returns
    -------
    stacked : ndarray
        The array formed by stacking the given arrays.

    See Also
    --------
    numpy.hstack : The NumPy function this mirrors.
    stack, vstack, dstack, concatenate, hsplit
    """
    if not hasattr(tup, "__getitem__"):
        raise TypeError(_NOT_A_SEQUENCE)
    arrs = _as_tuple(atleast_1d(*tup))
    axis = 0 if arrs and arrs[0].ndim == 1 else 1
    return concatenate(arrs, axis, dtype=dtype, casting=casting)


def dstack(tup: Sequence[ArrayLike]) -> NDArray:
    """Stack arrays in sequence depth wise (along third axis).

    Parameters
    ----------
    tup : sequence of ndarrays
        The arrays to join.

    Returns
    -------
    stacked : ndarray
        The array formed by stacking the given arrays, at least 3-D.

    See Also
    --------
    numpy.dstack : The NumPy function this mirrors.
    stack, vstack, hstack, concatenate, dsplit
    """
    if not hasattr(tup, "__getitem__"):
        raise TypeError(_NOT_A_SEQUENCE)
    return concatenate(_as_tuple(atleast_3d(*tup)), 2)


def column_stack(tup: Sequence[ArrayLike]) -> NDArray:
    """Stack 1-D arrays as columns into a 2-D array.

    Parameters
    ----------
    tup : sequence of 1-D or 2-D arrays
        Arrays to stack; all must have the same first dimension.

    Returns
    -------
    stacked : 2-D array
        The array formed by stacking the given arrays.

    See Also
    --------
    numpy.column_stack : The NumPy function this mirrors.
    stack, hstack, vstack, concatenate
    """
    if not hasattr(tup, "__getitem__"):
        raise TypeError(_NOT_A_SEQUENCE)
    arrays = []
    for v in tup:
        arr = asarray(v)
        if arr.ndim < 2:
            arr = wrap(bind(reshape_p, arr._value, new_sizes=(arr.size, 1)))
        arrays.append(arr)
    return concatenate(arrays, 1)


def _slice_axis(ary, axis, start, stop):
    """ary[..., start:stop, ...] along `axis`, with Python's slice semantics."""
    n = ary.shape[axis]
    start, stop, _ = slice(start, stop).indices(n)
    stop = max(stop, start)
    starts = tuple(start if i == axis else 0 for i in range(ary.ndim))
    limits = tuple(stop if i == axis else d for i, d in enumerate(ary.shape))
    return wrap(
        bind(
            slice_p, ary._value, start_indices=starts, limit_indices=limits, strides=(1,) * ary.ndim
        )
    )


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
    rest = x.shape[1:]
    return tuple(
        wrap(bind(reshape_p, _slice_axis(x, 0, i, i + 1)._value, new_sizes=rest))
        for i in range(x.shape[0])
    )


__all__ = [
    "array_split",
    "atleast_1d",
    "atleast_2d",
    "atleast_3d",
    "column_stack",
    "dsplit",
    "dstack",
    "hsplit",
    "hstack",
    "split",
    "unstack",
    "vsplit",
    "vstack",
]
