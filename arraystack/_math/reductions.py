"""Reductions: sum, prod, max, min, any, all, argmax, argmin, ptp, count_nonzero.

Each is NumPy's `ufunc.reduce` (see reduce.py) around one reduce primitive. The statistics are in
_statistics/averages.py, the scans in cumulative.py and the NaN-ignoring variants in
reductions_nan.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from arraystack._core.array import eager_buffer, ndarray, wrap, wrap_scalar
from arraystack._core.dtypes import holds_host
from arraystack._core.interop import call_host
from arraystack._core.overrides import defers_to, defers_to_numpy, undeferred
from arraystack._creation.basic import asarray
from arraystack._math.reduce import (
    BOOL,
    INT64,
    NoValue,
    accumulating_reduce,
    arg_reduce,
    as_array,
    as_dtype,
    axes_of,
    binary,
    extreme_reduce,
    keepdims_flag,
    kept_shape,
    reduce_raw,
    store,
    ufunc_output_error,
    unpack_out,
)
from arraystack._transforms import reduced_layouts
from arraystack.ir.core import bind
from arraystack.ir.primitives import add_p, max_p, min_p, mul_p, sub_p
from arraystack.ir.structural import (
    argmax_p,
    argmin_p,
    reduce_and_p,
    reduce_max_p,
    reduce_min_p,
    reduce_or_p,
    reduce_prod_p,
    reduce_sum_p,
    reshape_p,
)

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, AxisLike, DTypeLike, NDArray, ScalarLike


def _numpy_reduction(fn, value, axis, keepdims):
    """NumPy's own reduction of an eager buffer: what the reduction primitive's reference rule
    computes, in one call (keepdims passed only when set: NumPy parses keywords slowly). The
    reduction of an object array to one element is that Python object itself, as NumPy's."""
    result = fn(value, axis, keepdims=True) if keepdims_flag(keepdims) else fn(value, axis)
    return object_result(result, value)


def object_result(result, value):
    """`result` (NumPy's, of the eager buffer `value`) wrapped, unless it is a Python object an object
    array reduced to (NumPy returns it as it is: sum of Fractions is a Fraction)."""
    if value.dtype.kind == "O" and not isinstance(result, (np.ndarray, np.generic)):
        return result
    return wrap(result)


@defers_to_numpy
@reduced_layouts.keeps_operand_order()
def sum(
    a: ArrayLike,
    axis: AxisLike = None,
    dtype: DTypeLike = None,
    out: NDArray | None = None,
    keepdims: bool = False,
    initial: ScalarLike = NoValue,
    where: ArrayLike = True,
) -> NDArray:
    """Sum of array elements over a given axis.

    Parameters
    ----------
    a : array_like
        Input array.
    axis : int or tuple of ints, optional
        Axis or axes along which to operate. By default (None) the flattened array is used.
    dtype : dtype, optional
        The type of the returned array and of the accumulator; by default that of `a`, with small
        integers promoted to the platform integer, as in NumPy.
    out : ndarray, optional
        Alternative output array in which to place the result; it must have the expected shape. Eagerly
        it is written in place; traced, the update is functionalized.
    keepdims : bool, optional
        If True, the reduced axes are left in the result as dimensions with size one, so the result
        broadcasts against the input.
    initial : scalar, optional
        Starting value for the sum.
    where : array_like of bool, optional
        Elements to include in the sum.

    Returns
    -------
    sum_along_axis : ndarray
        The sum, with the reduced axes removed (or `out`).

    See Also
    --------
    numpy.sum : The NumPy function this mirrors.
    prod, mean, cumsum, nansum, ndarray.sum
    """
    value = eager_buffer(a)
    if value is not None and dtype is None and out is None and initial is NoValue and where is True:
        return _numpy_reduction(np.sum, value, axis, keepdims)
    return accumulating_reduce(
        reduce_sum_p, "add", 0, add_p, a, axis, dtype, out, keepdims, initial, where
    )


@defers_to_numpy
@reduced_layouts.keeps_operand_order()
def prod(
    a: ArrayLike,
    axis: AxisLike = None,
    dtype: DTypeLike = None,
    out: NDArray | None = None,
    keepdims: bool = False,
    initial: ScalarLike = NoValue,
    where: ArrayLike = True,
) -> NDArray:
    """Return the product of array elements over a given axis.

    Parameters
    ----------
    a : array_like
        Input array.
    axis : int or tuple of ints, optional
        Axis or axes along which to operate. By default (None) the flattened array is used.
    dtype : dtype, optional
        The type of the returned array and of the accumulator; by default that of `a`, with small
        integers promoted to the platform integer, as in NumPy.
    out : ndarray, optional
        Alternative output array in which to place the result; it must have the expected shape. Eagerly
        it is written in place; traced, the update is functionalized.
    keepdims : bool, optional
        If True, the reduced axes are left in the result as dimensions with size one, so the result
        broadcasts against the input.
    initial : scalar, optional
        The starting value for this product.
    where : array_like of bool, optional
        Elements to include in the product.

    Returns
    -------
    product_along_axis : ndarray
        The product, with the reduced axes removed (or `out`).

    See Also
    --------
    numpy.prod : The NumPy function this mirrors.
    sum, cumprod, nanprod, ndarray.prod
    """
    value = eager_buffer(a)
    if value is not None and dtype is None and out is None and initial is NoValue and where is True:
        return _numpy_reduction(np.prod, value, axis, keepdims)
    return accumulating_reduce(
        reduce_prod_p, "multiply", 1, mul_p, a, axis, dtype, out, keepdims, initial, where
    )


@defers_to_numpy
@reduced_layouts.keeps_operand_order()
def max(
    a: ArrayLike,
    axis: AxisLike = None,
    out: NDArray | None = None,
    keepdims: bool = False,
    initial: ScalarLike = NoValue,
    where: ArrayLike = True,
) -> NDArray:
    """Return the maximum of an array or maximum along an axis.

    Parameters
    ----------
    a : array_like
        Input array.
    axis : int or tuple of ints, optional
        Axis or axes along which to operate. By default (None) the flattened array is used.
    out : ndarray, optional
        Alternative output array in which to place the result; it must have the expected shape. Eagerly
        it is written in place; traced, the update is functionalized.
    keepdims : bool, optional
        If True, the reduced axes are left in the result as dimensions with size one, so the result
        broadcasts against the input.
    initial : scalar, optional
        The minimum value of an output element; needed for an empty reduction.
    where : array_like of bool, optional
        Elements to compare for the maximum; needs `initial`.

    Returns
    -------
    max : ndarray
        Maximum of `a`, with the reduced axes removed.

    See Also
    --------
    numpy.max : The NumPy function this mirrors.
    min, maximum, fmax, nanmax, argmax, ndarray.max

    Notes
    -----
    NaN propagates, as in NumPy. `amax` is an alias.
    """
    value = eager_buffer(a)
    if value is not None and out is None and initial is NoValue and where is True:
        return _numpy_reduction(np.max, value, axis, keepdims)
    return extreme_reduce(reduce_max_p, "maximum", max_p, a, axis, out, keepdims, initial, where)


@defers_to_numpy
@reduced_layouts.keeps_operand_order()
def min(
    a: ArrayLike,
    axis: AxisLike = None,
    out: NDArray | None = None,
    keepdims: bool = False,
    initial: ScalarLike = NoValue,
    where: ArrayLike = True,
) -> NDArray:
    """Return the minimum of an array or minimum along an axis.

    Parameters
    ----------
    a : array_like
        Input array.
    axis : int or tuple of ints, optional
        Axis or axes along which to operate. By default (None) the flattened array is used.
    out : ndarray, optional
        Alternative output array in which to place the result; it must have the expected shape. Eagerly
        it is written in place; traced, the update is functionalized.
    keepdims : bool, optional
        If True, the reduced axes are left in the result as dimensions with size one, so the result
        broadcasts against the input.
    initial : scalar, optional
        The maximum value of an output element; needed for an empty reduction.
    where : array_like of bool, optional
        Elements to compare for the minimum; needs `initial`.

    Returns
    -------
    min : ndarray
        Minimum of `a`, with the reduced axes removed.

    See Also
    --------
    numpy.min : The NumPy function this mirrors.
    max, minimum, fmin, nanmin, argmin, ndarray.min

    Notes
    -----
    NaN propagates, as in NumPy. `amin` is an alias.
    """
    value = eager_buffer(a)
    if value is not None and out is None and initial is NoValue and where is True:
        return _numpy_reduction(np.min, value, axis, keepdims)
    return extreme_reduce(reduce_min_p, "minimum", min_p, a, axis, out, keepdims, initial, where)


amax = defers_to(np.amax)(undeferred(max))  # numpy.amax is a function of its own
amin = defers_to(np.amin)(undeferred(min))


def _logical(prim, name, identity, a, axis, out, keepdims, where):
    if type(a) is not ndarray:
        a = asarray(a)
    x = as_dtype(a._value, BOOL)
    axes = tuple(range(x.ndim)) if axis is None else axes_of(axis, x.ndim)
    if where is True and keepdims is False and out is None:
        return wrap_scalar(bind(prim, x, axes=axes))
    keepdims = keepdims_flag(keepdims)
    where = True if where is NoValue else where
    return store(
        reduce_raw(prim, name, x, axes, keepdims, NoValue, where, identity, None), out, name
    )


@defers_to_numpy
@reduced_layouts.keeps_operand_order()
def any(
    a: ArrayLike,
    axis: AxisLike = None,
    out: NDArray | None = None,
    keepdims: bool = False,
    *,
    where: ArrayLike = True,
) -> NDArray:
    """Test whether any array element along a given axis evaluates to True.

    Parameters
    ----------
    a : array_like
        Input array.
    axis : int or tuple of ints, optional
        Axis or axes along which to operate. By default (None) the flattened array is used.
    out : ndarray, optional
        Alternative output array in which to place the result; it must have the expected shape. Eagerly
        it is written in place; traced, the update is functionalized.
    keepdims : bool, optional
        If True, the reduced axes are left in the result as dimensions with size one, so the result
        broadcasts against the input.
    where : array_like of bool, optional
        Elements to include in the reduction.

    Returns
    -------
    any : ndarray, bool
        A new boolean array (or `out`) with the reduced axes removed.

    See Also
    --------
    numpy.any : The NumPy function this mirrors.
    all, ndarray.any
    """
    value = eager_buffer(a)
    if value is not None and out is None and where is True:
        return _numpy_reduction(np.any, value, axis, keepdims)
    return _logical(reduce_or_p, "logical_or", False, a, axis, out, keepdims, where)


@defers_to_numpy
@reduced_layouts.keeps_operand_order()
def all(
    a: ArrayLike,
    axis: AxisLike = None,
    out: NDArray | None = None,
    keepdims: bool = False,
    *,
    where: ArrayLike = True,
) -> NDArray:
    """Test whether all array elements along a given axis evaluate to True.

    Parameters
    ----------
    a : array_like
        Input array.
    axis : int or tuple of ints, optional
        Axis or axes along which to operate. By default (None) the flattened array is used.
    out : ndarray, optional
        Alternative output array in which to place the result; it must have the expected shape. Eagerly
        it is written in place; traced, the update is functionalized.
    keepdims : bool, optional
        If True, the reduced axes are left in the result as dimensions with size one, so the result
        broadcasts against the input.
    where : array_like of bool, optional
        Elements to include in the reduction.

    Returns
    -------
    all : ndarray, bool
        A new boolean array (or `out`) with the reduced axes removed.

    See Also
    --------
    numpy.all : The NumPy function this mirrors.
    any, ndarray.all
    """
    value = eager_buffer(a)
    if value is not None and out is None and where is True:
        return _numpy_reduction(np.all, value, axis, keepdims)
    return _logical(reduce_and_p, "logical_and", True, a, axis, out, keepdims, where)


@defers_to_numpy
def argmax(
    a: ArrayLike,
    axis: int | None = None,
    out: NDArray | None = None,
    *,
    keepdims: bool = False,
) -> NDArray:
    """Returns the indices of the maximum values along an axis.

    Parameters
    ----------
    a : array_like
        Input array.
    axis : int, optional
        By default, the index is into the flattened array, otherwise along the specified axis.
    out : array, optional
        If provided, the result will be inserted into this array; it should be of the appropriate shape
        and dtype.
    keepdims : bool, optional
        If True, the reduced axis is left in the result as a dimension of size one.

    Returns
    -------
    index_array : ndarray of ints
        Array of indices into the array, with the shape of `a` without `axis`.

    See Also
    --------
    numpy.argmax : The NumPy function this mirrors.
    argmin, amax, nanargmax, take_along_axis, ndarray.argmax

    Notes
    -----
    The first maximum wins; a NaN counts as the maximum, as in NumPy.
    """
    value = eager_buffer(a)
    if value is not None and out is None:
        kept = keepdims is not NoValue and bool(keepdims)  # a truth value there, as NumPy's
        return _numpy_reduction(np.argmax, value, axis, kept)
    return arg_reduce(argmax_p, "argmax", a, axis, out, keepdims)


@defers_to_numpy
def argmin(
    a: ArrayLike,
    axis: int | None = None,
    out: NDArray | None = None,
    *,
    keepdims: bool = False,
) -> NDArray:
    """Returns the indices of the minimum values along an axis.

    Parameters
    ----------
    a : array_like
        Input array.
    axis : int, optional
        By default, the index is into the flattened array, otherwise along the specified axis.
    out : array, optional
        If provided, the result will be inserted into this array; it should be of the appropriate shape
        and dtype.
    keepdims : bool, optional
        If True, the reduced axis is left in the result as a dimension of size one.

    Returns
    -------
    index_array : ndarray of ints
        Array of indices into the array, with the shape of `a` without `axis`.

    See Also
    --------
    numpy.argmin : The NumPy function this mirrors.
    argmax, amin, nanargmin, take_along_axis, ndarray.argmin

    Notes
    -----
    The first minimum wins; a NaN counts as the minimum, as in NumPy.
    """
    value = eager_buffer(a)
    if value is not None and out is None:
        kept = keepdims is not NoValue and bool(keepdims)
        return _numpy_reduction(np.argmin, value, axis, kept)
    return arg_reduce(argmin_p, "argmin", a, axis, out, keepdims)


@defers_to_numpy
@reduced_layouts.keeps_operand_order()
def ptp(
    a: ArrayLike,
    axis: AxisLike = None,
    out: NDArray | None = None,
    keepdims: bool = False,
) -> NDArray:
    """Range of values (maximum - minimum) along an axis.

    Parameters
    ----------
    a : array_like
        Input array.
    axis : None or int or tuple of ints, optional
        Axis along which to find the peaks; by default the flattened array.
    out : ndarray, optional
        Alternative output array in which to place the result; it must have the expected shape. Eagerly
        it is written in place; traced, the update is functionalized.
    keepdims : bool, optional
        If True, the reduced axes are left in the result as dimensions with size one, so the result
        broadcasts against the input.

    Returns
    -------
    ptp : ndarray
        The range of `a` along the given axis.

    See Also
    --------
    numpy.ptp : The NumPy function this mirrors.
    max, min

    Notes
    -----
    Computed in the array's dtype, so signed integers wrap around, as in NumPy.
    """
    a = as_array(a)
    if holds_host(a) and a.dtype.kind not in "mM":  # objects: NumPy's (datetimes: below, in unit)
        return call_host(np.ptp, (a, axis, out), {} if keepdims is NoValue else {"keepdims": keepdims})
    x = a._value
    axes = axes_of(axis, x.ndim)
    keepdims = keepdims_flag(keepdims)
    hi = reduce_raw(reduce_max_p, "maximum", x, axes, keepdims, NoValue, True, None, max_p)
    lo = reduce_raw(reduce_min_p, "minimum", x, axes, keepdims, NoValue, True, None, min_p)
    out = unpack_out(out)
    if out is not None:
        hi = as_dtype(hi, out.dtype)  # NumPy writes the maximum into out, then subtracts in place
    dtype = np.result_type(hi.dtype, lo.dtype)
    if dtype == BOOL:
        raise TypeError(
            "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` "
            "operator, or the logical_xor function instead."
        )
    if out is not None and not np.can_cast(dtype, out.dtype, "same_kind"):
        raise ufunc_output_error(np.subtract, dtype, out.dtype)
    return store(binary(sub_p, hi, lo, dtype), out, "subtract")


@defers_to_numpy
@reduced_layouts.keeps_operand_order()
def count_nonzero(a: ArrayLike, axis: AxisLike = None, *, keepdims: bool = False) -> NDArray:
    """Counts the number of non-zero values in the array a.

    Parameters
    ----------
    a : array_like
        Input array.
    axis : int or tuple, optional
        Axis or tuple of axes along which to count non-zeros; by default all of them.
    keepdims : bool, optional
        If True, the reduced axes are left in the result as dimensions with size one, so the result
        broadcasts against the input.

    Returns
    -------
    count : ndarray of int
        Number of non-zero values in the array along the given axis (a 0-d array without `axis`).

    See Also
    --------
    numpy.count_nonzero : The NumPy function this mirrors.
    nonzero, sum
    """
    a = as_array(a)
    if holds_host(a):  # NumPy's truth of objects, strings and records
        return call_host(np.count_nonzero, (a, axis), {"keepdims": keepdims})
    x = as_dtype(as_dtype(a._value, BOOL), INT64)
    axes = axes_of(axis, x.ndim)
    r = bind(reduce_sum_p, x, axes=axes)
    if keepdims_flag(keepdims):
        r = bind(reshape_p, r, new_sizes=kept_shape(x.shape, axes))
    return wrap(r)


__all__ = [
    "all",
    "amax",
    "amin",
    "any",
    "argmax",
    "argmin",
    "count_nonzero",
    "max",
    "min",
    "prod",
    "ptp",
    "sum",
]
