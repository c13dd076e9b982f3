"""Scans: cumsum, cumprod and the Array API's cumulative_sum/cumulative_prod, on the cumulative primitives.

NumPy's `ufunc.accumulate` promotes small integers and bool like the reductions do (see SUM_DTYPES).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from arraystack._core.array import eager_buffer, wrap
from arraystack._core.overrides import defers_to_numpy
from arraystack._core.shapes import normalize_axis
from arraystack._math.reduce import (
    SUM_DTYPES,
    arg_axis,
    as_array,
    as_dtype,
    result_dtype,
    scalar,
    unpack_out,
)
from arraystack._math.reduce import write as write_out
from arraystack._transforms import result_layouts
from arraystack.ir.core import Tracer, bind
from arraystack.ir.structural import concatenate_p, cumprod_p, cumsum_p, full_p, reshape_p

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, DTypeLike, NDArray


def accumulate_raw(prim, a, axis, dtype):
    """The raw scan of `a` along `axis` (the flattened array if None) in the accumulation dtype."""
    a = as_array(a)
    x = a._value
    if axis is None:
        if x.ndim != 1:
            x = bind(reshape_p, x, new_sizes=(a.size,))
        ax = 0
    else:
        ax = arg_axis(axis, x.ndim)
        if x.ndim == 0:
            x = bind(reshape_p, x, new_sizes=(1,))
    x = as_dtype(x, result_dtype(dtype, SUM_DTYPES.get(x.dtype, x.dtype)))
    return bind(prim, x, axis=ax), ax


def store_scan(r, out, source=None):
    """r as the result (into `out`); without out, in the memory order of `source` (the operand,
    where the scan keeps its shape), as NumPy allocates it."""
    if out is None:
        result = wrap(r)
        if source is not None and type(r) is Tracer:  # NumPy's accumulate: its operand's order
            result_layouts.elementwise((source,), (result,))
        return result
    out = unpack_out(out)
    if tuple(out.shape) != tuple(r.shape):
        raise ValueError("provided out is the wrong size for the accumulation.")
    return write_out(out, r)


@defers_to_numpy
def cumsum(
    a: ArrayLike,
    axis: int | None = None,
    dtype: DTypeLike = None,
    out: NDArray | None = None,
) -> NDArray:
    """Return the cumulative sum of the elements along a given axis.

    Parameters
    ----------
    a : array_like
        Input array.
    axis : int, optional
        Axis along which the sum is computed; by default the input is flattened.
    dtype : data-type, optional
        The desired data-type of the result. By default it is inferred from the input, as in NumPy.
    out : ndarray, optional
        Alternative output array in which to place the result; it must have the expected shape.
        Eagerly it is written in place; traced, the update is functionalized.

    Returns
    -------
    out : ndarray
        The cumulative sums, the same shape as `a` (1-d when `axis` is None).

    See Also
    --------
    numpy.cumsum : The NumPy function this mirrors.
    cumulative_sum, sum, nancumsum, cumprod, diff
    """
    value = eager_buffer(a)
    if value is not None and dtype is None and out is None:
        return wrap(np.cumsum(value, axis))  # eager: cumsum_p's reference rule, in one call
    r, _ = accumulate_raw(cumsum_p, a, axis, dtype)
    return store_scan(r, out, a)


@defers_to_numpy
def cumprod(
    a: ArrayLike,
    axis: int | None = None,
    dtype: DTypeLike = None,
    out: NDArray | None = None,
) -> NDArray:
    """Return the cumulative product of elements along a given axis.

    Parameters
    ----------
    a : array_like
        Input array.
    axis : int, optional
        Axis along which the product is computed; by default the input is flattened.
    dtype : data-type, optional
        The desired data-type of the result. By default it is inferred from the input, as in NumPy.
    out : ndarray, optional
        Alternative output array in which to place the result; it must have the expected shape.
        Eagerly it is written in place; traced, the update is functionalized.

    Returns
    -------
    out : ndarray
        The cumulative products, the same shape as `a` (1-d when `axis` is None).

    See Also
    --------
    numpy.cumprod : The NumPy function this mirrors.
    cumulative_prod, prod, nancumprod, cumsum
    """
    r, _ = accumulate_raw(cumprod_p, a, axis, dtype)
    return store_scan(r, out, a)


def _cumulative(prim, identity, x, axis, dtype, out, include_initial):
    x = as_array(x)
    if axis is None:
        if x.ndim >= 2:
            raise ValueError(
                "For arrays which have more than one dimension ``axis`` argument is required."
            )
        axis = 0
    elif isinstance(axis, tuple):  # ufunc.accumulate takes a 1-tuple
        axes = tuple(normalize_axis(ax, x.ndim if x.ndim else 1) for ax in axis)
        if len(axes) != 1:
            raise ValueError("accumulate does not allow multiple axes")
        axis = axes[0]
    r, ax = accumulate_raw(prim, x, axis, dtype)
    if include_initial:
        shape = list(r.shape)
        shape[ax] = 1
        first = bind(full_p, scalar(identity, r.dtype), shape=tuple(shape), dtype=r.dtype)
        r = bind(concatenate_p, first, r, dimension=ax)
    return store_scan(r, out, x)  # NumPy's accumulate (with the initial value joined): x's order


@defers_to_numpy
def cumulative_sum(
    x: ArrayLike,
    /,
    *,
    axis: int | None = None,
    dtype: DTypeLike = None,
    out: NDArray | None = None,
    include_initial: bool = False,
) -> NDArray:
    """Return the cumulative sum of the elements along a given axis (Array API).

    Parameters
    ----------
    x : array_like
        Input array.
    axis : int, optional
        Axis along which the sum is computed; required for arrays of more than one dimension.
    dtype : data-type, optional
        The desired data-type of the result. By default it is inferred from the input, as in NumPy.
    out : ndarray, optional
        Alternative output array in which to place the result; it must have the expected shape.
        Eagerly it is written in place; traced, the update is functionalized.
    include_initial : bool, optional
        Whether to include the initial value (the identity) as the first element, so the axis grows
        by one.

    Returns
    -------
    out : ndarray
        The cumulative sums.

    See Also
    --------
    numpy.cumulative_sum : The NumPy function this mirrors.
    cumsum, sum
    """
    return _cumulative(cumsum_p, 0, x, axis, dtype, out, include_initial)


@defers_to_numpy
def cumulative_prod(
    x: ArrayLike,
    /,
    *,
    axis: int | None = None,
    dtype: DTypeLike = None,
    out: NDArray | None = None,
    include_initial: bool = False,
) -> NDArray:
    """Return the cumulative product of elements along a given axis (Array API).

    Parameters
    ----------
    x : array_like
        Input array.
    axis : int, optional
        Axis along which the product is computed; required for arrays of more than one dimension.
    dtype : data-type, optional
        The desired data-type of the result. By default it is inferred from the input, as in NumPy.
    out : ndarray, optional
        Alternative output array in which to place the result; it must have the expected shape.
        Eagerly it is written in place; traced, the update is functionalized.
    include_initial : bool, optional
        Whether to include the initial value (the identity) as the first element, so the axis grows
        by one.

    Returns
    -------
    out : ndarray
        The cumulative products.

    See Also
    --------
    numpy.cumulative_prod : The NumPy function this mirrors.
    cumprod, prod
    """
    return _cumulative(cumprod_p, 1, x, axis, dtype, out, include_initial)


__all__ = ["cumprod", "cumsum", "cumulative_prod", "cumulative_sum"]
