"""Joining and changing the number of dimensions: concatenate, stack, atleast_nd, vstack, hstack, dstack,
column_stack. Joins are one concatenate (NumPy's own on eager buffers). Splitting lives in
splitting.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from arraystack._math.ufunc import check_options
from arraystack._core.devices import constants_on_operand_device
from arraystack._core.array import _make, eager_buffer, ndarray, raw, wrap
from arraystack._core.dtypes import result_type
from arraystack._core.overrides import defers_to_numpy
from arraystack._core.shapes import normalize_axis
from arraystack._creation.basic import asarray, astype
from arraystack._transforms import result_layouts
from arraystack._transforms.aliasing import view_of
from arraystack._manipulation.reshaping import ravel
from arraystack.ir.core import active, bind, is_tracing
from arraystack.ir.structural import concatenate_p, reshape_p

if TYPE_CHECKING:
    from collections.abc import Sequence

    from arraystack.typing import ArrayLike, DTypeLike, NDArray

_NOT_A_SEQUENCE = 'arrays to stack must be passed as a "sequence" type such as list or tuple.'


def eager_buffers(arrays) -> list | None:
    """The NumPy buffers of a list or tuple of eager arraystack arrays, or None if any is something else."""
    if type(arrays) is not list and type(arrays) is not tuple:
        return None
    values = []
    for a in arrays:
        value = eager_buffer(a)
        if value is None:
            return None
        values.append(value)
    return values


@defers_to_numpy
def concatenate(
    arrays: Sequence[ArrayLike],
    /,
    axis: int | None = 0,
    out: NDArray | None = None,
    *,
    dtype: DTypeLike = None,
    casting: str = "same_kind",
) -> NDArray:
    """Join a sequence of arrays along an existing axis.

    Parameters
    ----------
    arrays : sequence of array_like
        The arrays must have the same shape, except in the dimension corresponding to `axis`.
    axis : int, optional
        The axis along which the arrays will be joined; None flattens them first. Default is 0.
    out : ndarray, optional
        If provided, the destination to place the result; cannot be given with `dtype`.
    dtype : str or dtype
        If provided, the destination array will have this dtype; cannot be given with `out`.
    casting : {'no', 'equiv', 'safe', 'same_kind', 'unsafe'}, optional
        Controls what kind of data casting may occur; 'same_kind' by default.

    Returns
    -------
    res : ndarray
        The concatenated array.

    See Also
    --------
    numpy.concatenate : The NumPy function this mirrors.
    stack, hstack, vstack, dstack, column_stack, split

    Notes
    -----
    `concat` (the Array API's name) is an alias.
    """
    if out is not None and dtype is not None:
        raise TypeError(
            "concatenate() only takes `out` or `dtype` as an argument, but both were provided."
        )
    if not hasattr(arrays, "__getitem__"):
        raise TypeError("The first input argument needs to be a sequence")
    if casting != "same_kind":
        check_options(casting)
    if out is None and dtype is None and (not active.n or not is_tracing()):
        # eager: NumPy's own concatenate (promotion, checks, messages) is the reference rule
        values = eager_buffers(arrays)
        if values:
            return _make(np.concatenate(values, axis))
        raws = [a._value if type(a) is ndarray else raw(a) for a in arrays]
        return wrap(bind(concatenate_p, *raws, dimension=axis))
    arrays = [asarray(a) for a in arrays]
    if not arrays:
        raise ValueError("need at least one array to concatenate")
    if axis is None:
        arrays = [ravel(a) for a in arrays]
        axis = 0
    ndim = arrays[0].ndim
    if ndim == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    axis = normalize_axis(axis, ndim)
    first = arrays[0].shape
    for i, a in enumerate(arrays):
        if a.ndim != ndim:
            raise ValueError(
                "all the input arrays must have same number of dimensions, but the array at index 0 "
                f"has {ndim} dimension(s) and the array at index {i} has {a.ndim} dimension(s)"
            )
        for d in range(ndim):
            if d != axis and a.shape[d] != first[d]:
                raise ValueError(
                    "all the input array dimensions except for the concatenation axis must match "
                    f"exactly, but along dimension {d}, the array at index 0 has size {first[d]} "
                    f"and the array at index {i} has size {a.shape[d]}"
                )
    if out is not None and not isinstance(out, ndarray):
        raise TypeError("'out' must be an array")
    if out is not None:  # NumPy checks the shape before the casting
        joined = first[:axis] + (sum(a.shape[axis] for a in arrays),) + first[axis + 1 :]
        if out.shape != joined:
            raise ValueError("Output array is the wrong shape")
    target = out.dtype if out is not None else result_type(*arrays) if dtype is None else dtype
    target = np.dtype(target)
    if out is not None or dtype is not None:
        for a in arrays:
            if not np.can_cast(a.dtype, target, casting):
                raise TypeError(
                    f"Cannot cast array data from {a.dtype!r} to {target!r} according to the "
                    f"rule {casting!r}"
                )
    raws = [a._value if a.dtype == target else astype(a, target)._value for a in arrays]
    result = wrap(bind(concatenate_p, *raws, dimension=axis))
    if out is None:
        result_layouts.joined(arrays, result)  # in the operands' memory order, as NumPy's
        return result
    if out.shape != result.shape:
        raise ValueError("Output array is the wrong shape")
    out[...] = result
    return out


concat = concatenate  # numpy.concat is numpy.concatenate


@defers_to_numpy
def stack(
    arrays: Sequence[ArrayLike],
    axis: int = 0,
    out: NDArray | None = None,
    *,
    dtype: DTypeLike = None,
    casting: str = "same_kind",
) -> NDArray:
    """Join a sequence of arrays along a new axis.

    Parameters
    ----------
    arrays : sequence of array_like
        Each array must have the same shape.
    axis : int, optional
        The axis in the result array along which the input arrays are stacked.
    out : ndarray, optional
        If provided, the destination to place the result.
    dtype : str or dtype
        If provided, the destination array will have this dtype; cannot be given with `out`.
    casting : {'no', 'equiv', 'safe', 'same_kind', 'unsafe'}, optional
        Controls what kind of data casting may occur; 'same_kind' by default.

    Returns
    -------
    stacked : ndarray
        The stacked array has one more dimension than the input arrays.

    See Also
    --------
    numpy.stack : The NumPy function this mirrors.
    concatenate, unstack, hstack, vstack, dstack
    """
    if not hasattr(arrays, "__getitem__"):
        raise TypeError(
            'arrays to stack must be passed as a "sequence" type such as list or tuple.'
        )
    if casting != "same_kind":
        check_options(casting)
    values = eager_buffers(arrays) if out is None and dtype is None else None
    if values:  # eager: NumPy's own stack, what the reshapes and concatenate below compute
        return _make(np.stack(values, axis))
    arrays = [asarray(a) for a in arrays]
    if not arrays:
        raise ValueError("need at least one array to stack")
    shape = arrays[0].shape
    if any(a.shape != shape for a in arrays):
        raise ValueError("all input arrays must have the same shape")
    axis = normalize_axis(axis, len(shape) + 1)
    new = shape[:axis] + (1,) + shape[axis:]
    expanded = [wrap(bind(reshape_p, a._value, new_sizes=new)) for a in arrays]
    for a, e in zip(arrays, expanded):  # NumPy stacks views of its operands: their layouts
        result_layouts.expanded(a, e, axis)
    return concatenate(expanded, axis=axis, out=out, dtype=dtype, casting=casting)


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
    return view_of(a, reshape_p, new_sizes=shape)  # NumPy's is a view of `a`


@defers_to_numpy
@constants_on_operand_device
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


@defers_to_numpy
@constants_on_operand_device
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


@defers_to_numpy
@constants_on_operand_device
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


@defers_to_numpy
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


@defers_to_numpy
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


@defers_to_numpy
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


@defers_to_numpy
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


__all__ = [
    "atleast_1d",
    "atleast_2d",
    "atleast_3d",
    "column_stack",
    "concat",
    "concatenate",
    "dstack",
    "hstack",
    "stack",
    "vstack",
]
