"""NaN-ignoring statistics: nanmean, nanvar, nanstd, written as numpy/lib/_nanfunctions_impl.py writes them
(NaNs replaced by zero, counts excluding them), on the helpers of _reductions_nan.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from arraystack._core.array import scalar_result
from arraystack._core.devices import host_values
from arraystack._core.dtypes import check_supported, result_type
from arraystack._core.overrides import defers_to_numpy
from arraystack._math.reduce import (
    INT64,
    NoValue,
    as_array,
    as_dtype,
    axes_of,
    binary,
    divide_count,
    is_concrete,
    keepdims_flag,
    reduced_shape,
    reduced_size,
    scalar,
    select,
    store,
    unpack_out,
    warn,
)
from arraystack._math.reductions_nan import _INEXACT, _plain_first, replace_nan
from arraystack._statistics.averages import ddof_of, mean, sqrt_result, std, sum_raw, summand, var
from arraystack._transforms import reduced_layouts
from arraystack.ir.core import bind
from arraystack.ir.primitives import conj_p, le_p, mul_p, not_p, real_p, sub_p
from arraystack.ir.structural import reshape_p

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, AxisLike, DTypeLike, NDArray


def _check_inexact(dtype, out):
    if dtype is not None and np.dtype(dtype).kind not in _INEXACT:
        raise TypeError("If a is inexact, then dtype must be inexact")
    if out is not None and out.dtype.kind not in _INEXACT:
        raise TypeError("If a is inexact, then out must be inexact")
    return None if dtype is None else check_supported(dtype)


def _counts(mask, axes, keepdims, where):
    return sum_raw(as_dtype(bind(not_p, mask), INT64), axes, keepdims, where)


@defers_to_numpy
@reduced_layouts.keeps_operand_order()
def nanmean(
    a: ArrayLike,
    axis: AxisLike = None,
    dtype: DTypeLike = None,
    out: NDArray | None = None,
    keepdims: bool = False,
    *,
    where: ArrayLike = True,
) -> NDArray:
    """Compute the arithmetic mean along the specified axis, ignoring NaNs.

    Parameters
    ----------
    a : array_like
        Input array.
    axis : int or tuple of ints, optional
        Axis or axes along which to operate. By default (None) the flattened array is used.
    dtype : data-type, optional
        The desired data-type of the result. By default it is inferred from the input, as in NumPy.
    out : ndarray, optional
        Alternative output array in which to place the result; it must have the expected shape. Eagerly
        it is written in place; traced, the update is functionalized.
    keepdims : bool, optional
        If True, the reduced axes are left in the result as dimensions with size one, so the result
        broadcasts against the input.
    where : array_like of bool, optional
        Elements to include in the operation.

    Returns
    -------
    m : ndarray
        The mean of the non-NaN elements.

    See Also
    --------
    numpy.nanmean : The NumPy function this mirrors.
    mean, nanvar, nanstd

    Notes
    -----
    An all-NaN slice gives NaN with a RuntimeWarning, as in NumPy.
    """
    a = as_array(a)
    if _plain_first(a, dtype, out, where) and reduced_size(a.shape, axes_of(axis, a.ndim)):
        r = mean(a, axis, None, None, keepdims)
        if not np.isnan(host_values(r._value)).any():
            return r
    arr, mask = replace_nan(a._value, 0)
    if mask is None:
        return mean(a, axis, dtype, out, keepdims, where=where)
    out = unpack_out(out)
    dtype = _check_inexact(dtype, out)
    axes = axes_of(axis, arr.ndim)
    keepdims = keepdims_flag(keepdims)
    where = True if where is NoValue else where
    count = _counts(mask, axes, keepdims, where)
    total = sum_raw(summand(arr, dtype, out), axes, keepdims, where)
    if out is not None:
        total = as_dtype(total, out.dtype)
    with np.errstate(invalid="ignore", divide="ignore"):
        avg = divide_count(total, count)
    if is_concrete(count) and np.any(host_values(count) == 0):  # Note: eager only (data when traced)
        warn("Mean of empty slice", stacklevel=3)
    return store(avg, out)


def _nanvar_raw(a, axis, dtype, out, ddof, keepdims, where, mean):
    """numpy's nanvar as a raw value, or None when `a` holds no NaN (then it is numpy.var)."""
    arr, mask = replace_nan(a._value, 0)
    if mask is None:
        return None
    dtype = _check_inexact(dtype, out)
    shape = arr.shape
    axes = axes_of(axis, arr.ndim)
    keepdims = keepdims_flag(keepdims)
    where = True if where is NoValue else where
    count = _counts(mask, axes, True, where)
    if mean is not NoValue:
        avg = mean if isinstance(mean, (int, float, complex)) else as_array(mean)._value
    else:
        total = sum_raw(arr if dtype is None else as_dtype(arr, dtype), axes, True, where)
        with np.errstate(invalid="ignore", divide="ignore"):
            avg = divide_count(total, count)
    # NumPy subtracts into arr itself (casting='unsafe'), then zeroes the NaN positions
    d = as_dtype(binary(sub_p, arr, avg, result_type(arr, avg)), arr.dtype)
    d = select(mask, 0, d)
    if d.dtype.kind == "c":
        sq = bind(real_p, binary(mul_p, d, bind(conj_p, d), d.dtype))
    else:
        sq = binary(mul_p, d, d, d.dtype)
    r = sum_raw(summand(sq, dtype, out), axes, keepdims, where)
    if out is not None:
        r = as_dtype(r, out.dtype)
    if not keepdims:
        count = bind(reshape_p, count, new_sizes=reduced_shape(shape, axes))
    dof_dtype = np.result_type(INT64, ddof)
    dof = binary(sub_p, count, ddof, dof_dtype)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = divide_count(r, dof)
    bad = binary(le_p, dof, 0, dof_dtype)
    if is_concrete(bad) and np.any(bad):  # Note: eager only (data when traced)
        warn("Degrees of freedom <= 0 for slice.", stacklevel=4)
    return select(bad, scalar(np.nan, r.dtype), r)


@defers_to_numpy
@reduced_layouts.keeps_operand_order()
def nanvar(
    a: ArrayLike,
    axis: AxisLike = None,
    dtype: DTypeLike = None,
    out: NDArray | None = None,
    ddof: float = 0,
    keepdims: bool = False,
    *,
    where: ArrayLike = True,
    mean: ArrayLike = NoValue,
    correction: float = NoValue,
) -> NDArray:
    """Compute the variance along the specified axis, while ignoring NaNs.

    Parameters
    ----------
    a : array_like
        Input array.
    axis : int or tuple of ints, optional
        Axis or axes along which to operate. By default (None) the flattened array is used.
    dtype : data-type, optional
        The desired data-type of the result. By default it is inferred from the input, as in NumPy.
    out : ndarray, optional
        Alternative output array in which to place the result; it must have the expected shape. Eagerly
        it is written in place; traced, the update is functionalized.
    ddof : {int, float}, optional
        Delta degrees of freedom: the divisor is ``N - ddof``, N the number of non-NaN elements.
    keepdims : bool, optional
        If True, the reduced axes are left in the result as dimensions with size one, so the result
        broadcasts against the input.
    where : array_like of bool, optional
        Elements to include in the operation.
    mean : array_like, optional
        A precomputed mean (with ``keepdims=True`` shape) to use instead of computing it.
    correction : {int, float}, optional
        Array API name for `ddof`; only one of them may be given.

    Returns
    -------
    variance : ndarray
        The variance of the non-NaN elements.

    See Also
    --------
    numpy.nanvar : The NumPy function this mirrors.
    var, nanstd, nanmean

    Notes
    -----
    An all-NaN slice gives NaN with a RuntimeWarning, as in NumPy.
    """
    a = as_array(a)
    out = unpack_out(out)
    r = _nanvar_raw(a, axis, dtype, out, ddof_of(ddof, correction), keepdims, where, mean)
    if r is None:
        return var(
            a, axis, dtype, out, ddof, keepdims, where=where, mean=mean, correction=correction
        )
    return store(r, out) if out is not None else scalar_result(store(r, out))  # NumPy's scalar


@defers_to_numpy
@reduced_layouts.keeps_operand_order()
def nanstd(
    a: ArrayLike,
    axis: AxisLike = None,
    dtype: DTypeLike = None,
    out: NDArray | None = None,
    ddof: float = 0,
    keepdims: bool = False,
    *,
    where: ArrayLike = True,
    mean: ArrayLike = NoValue,
    correction: float = NoValue,
) -> NDArray:
    """Compute the standard deviation along the specified axis, while ignoring NaNs.

    Parameters
    ----------
    a : array_like
        Input array.
    axis : int or tuple of ints, optional
        Axis or axes along which to operate. By default (None) the flattened array is used.
    dtype : data-type, optional
        The desired data-type of the result. By default it is inferred from the input, as in NumPy.
    out : ndarray, optional
        Alternative output array in which to place the result; it must have the expected shape. Eagerly
        it is written in place; traced, the update is functionalized.
    ddof : {int, float}, optional
        Delta degrees of freedom: the divisor is ``N - ddof``, N the number of non-NaN elements.
    keepdims : bool, optional
        If True, the reduced axes are left in the result as dimensions with size one, so the result
        broadcasts against the input.
    where : array_like of bool, optional
        Elements to include in the operation.
    mean : array_like, optional
        A precomputed mean (with ``keepdims=True`` shape) to use instead of computing it.
    correction : {int, float}, optional
        Array API name for `ddof`; only one of them may be given.

    Returns
    -------
    standard_deviation : ndarray
        The standard deviation of the non-NaN elements.

    See Also
    --------
    numpy.nanstd : The NumPy function this mirrors.
    std, nanvar, nanmean

    Notes
    -----
    An all-NaN slice gives NaN with a RuntimeWarning, as in NumPy.
    """
    a = as_array(a)
    out = unpack_out(out)
    r = _nanvar_raw(a, axis, dtype, out, ddof_of(ddof, correction), keepdims, where, mean)
    if r is None:
        return std(
            a, axis, dtype, out, ddof, keepdims, where=where, mean=mean, correction=correction
        )
    return store(sqrt_result(r, out), out)


__all__ = ["nanmean", "nanstd", "nanvar"]
