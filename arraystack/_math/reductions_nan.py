"""NaN-ignoring reductions and scans, written as numpy/lib/_nanfunctions_impl.py writes them: NaNs are
replaced (select on an isnan mask) by a value the plain reduction ignores, and counts exclude them.

Integer and bool arrays hold no NaN, so the nan* functions fall through to the plain ones, as in NumPy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from arraystack._core.array import wrap
from arraystack._core.devices import host_values
from arraystack._core.interop import call_host
from arraystack._core.overrides import defers_to_numpy
from arraystack._math.cumulative import cumprod, cumsum
from arraystack._math.reduce import (
    NoValue,
    accumulating_reduce,
    arg_reduce,
    as_array,
    axes_of,
    binary,
    extreme_reduce,
    is_concrete,
    keepdims_flag,
    kept_shape,
    reduced_shape,
    reduced_size,
    scalar,
    select,
    store,
    tracing,
    warn,
    where_mask,
)
from arraystack._transforms import reduced_layouts, result_layouts
from arraystack.ir.core import bind
from arraystack.ir.primitives import (
    add_p,
    isnan_p,
    max_p,
    min_p,
    mul_p,
)
from arraystack.ir.structural import (
    argmax_p,
    argmin_p,
    full_p,
    reduce_and_p,
    reduce_max_p,
    reduce_min_p,
    reduce_prod_p,
    reduce_sum_p,
    reshape_p,
    slice_p,
)

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, AxisLike, DTypeLike, NDArray, ScalarLike

_INEXACT = "fc"
FLOAT16 = np.dtype(np.float16)


def replace_nan(x, value):
    """numpy's _replace_nan: (x with NaNs replaced by `value`, the NaN mask); (x, None) if x holds no NaN."""
    if x.dtype.kind not in _INEXACT:
        return x, None
    mask = bind(isnan_p, x)
    return select(mask, scalar(value, x.dtype), x), mask


def _plain_first(a, dtype, out, where) -> bool:
    """Eagerly, try the plain reduction first: a NaN input makes its slice NaN, so a result without NaN
    is already the nan* result (and costs one pass instead of a masked copy)."""
    return (
        dtype is None
        and out is None
        and where is True
        and a.dtype.kind in _INEXACT
        and a.dtype != FLOAT16
        and not tracing()
    )


@defers_to_numpy
@reduced_layouts.keeps_operand_order()
def nansum(
    a: ArrayLike,
    axis: AxisLike = None,
    dtype: DTypeLike = None,
    out: NDArray | None = None,
    keepdims: bool = False,
    initial: ScalarLike | None = NoValue,
    where: ArrayLike = True,
) -> NDArray:
    """Return the sum of array elements over a given axis treating NaNs as zero.

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
    initial : scalar, optional
        The starting value of the reduction.
    where : array_like of bool, optional
        Elements to include in the operation.

    Returns
    -------
    nansum : ndarray
        The sum.

    See Also
    --------
    numpy.nansum : The NumPy function this mirrors.
    sum, nancumsum
    """
    a = as_array(a)
    if _plain_first(a, dtype, out, where):
        r = accumulating_reduce(
            reduce_sum_p, "add", 0, add_p, a, axis, None, None, keepdims, initial, True
        )
        if not np.isnan(host_values(r._value)).any():
            return r
    x, _ = replace_nan(a._value, 0)
    return accumulating_reduce(
        reduce_sum_p, "add", 0, add_p, wrap(x), axis, dtype, out, keepdims, initial, where
    )


@defers_to_numpy
@reduced_layouts.keeps_operand_order()
def nanprod(
    a: ArrayLike,
    axis: AxisLike = None,
    dtype: DTypeLike = None,
    out: NDArray | None = None,
    keepdims: bool = False,
    initial: ScalarLike | None = NoValue,
    where: ArrayLike = True,
) -> NDArray:
    """Return the product of array elements over a given axis treating NaNs as ones.

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
    initial : scalar, optional
        The starting value of the reduction.
    where : array_like of bool, optional
        Elements to include in the operation.

    Returns
    -------
    nanprod : ndarray
        The product.

    See Also
    --------
    numpy.nanprod : The NumPy function this mirrors.
    prod, nancumprod
    """
    a = as_array(a)
    if _plain_first(a, dtype, out, where):
        r = accumulating_reduce(
            reduce_prod_p, "multiply", 1, mul_p, a, axis, None, None, keepdims, initial, True
        )
        if not np.isnan(host_values(r._value)).any():
            return r
    x, _ = replace_nan(a._value, 1)
    return accumulating_reduce(
        reduce_prod_p, "multiply", 1, mul_p, wrap(x), axis, dtype, out, keepdims, initial, where
    )


@defers_to_numpy
def nancumsum(
    a: ArrayLike,
    axis: int | None = None,
    dtype: DTypeLike = None,
    out: NDArray | None = None,
) -> NDArray:
    """Return the cumulative sum of array elements over a given axis treating NaNs as zero.

    Parameters
    ----------
    a : array_like
        Input array.
    axis : int, optional
        Axis along which the cumulation is computed; by default the flattened array.
    dtype : data-type, optional
        The desired data-type of the result. By default it is inferred from the input, as in NumPy.
    out : ndarray, optional
        Alternative output array in which to place the result; it must have the expected shape. Eagerly
        it is written in place; traced, the update is functionalized.

    Returns
    -------
    nancumsum : ndarray
        The cumulative sums.

    See Also
    --------
    numpy.nancumsum : The NumPy function this mirrors.
    cumsum, nansum
    """
    a = as_array(a)
    x, _ = replace_nan(a._value, 0)
    return cumsum(result_layouts.like(a, wrap(x)), axis, dtype, out)


@defers_to_numpy
def nancumprod(
    a: ArrayLike,
    axis: int | None = None,
    dtype: DTypeLike = None,
    out: NDArray | None = None,
) -> NDArray:
    """Return the cumulative product of array elements over a given axis treating NaNs as one.

    Parameters
    ----------
    a : array_like
        Input array.
    axis : int, optional
        Axis along which the cumulation is computed; by default the flattened array.
    dtype : data-type, optional
        The desired data-type of the result. By default it is inferred from the input, as in NumPy.
    out : ndarray, optional
        Alternative output array in which to place the result; it must have the expected shape. Eagerly
        it is written in place; traced, the update is functionalized.

    Returns
    -------
    nancumprod : ndarray
        The cumulative products.

    See Also
    --------
    numpy.nancumprod : The NumPy function this mirrors.
    cumprod, nanprod
    """
    a = as_array(a)
    x, _ = replace_nan(a._value, 1)
    return cumprod(result_layouts.like(a, wrap(x)), axis, dtype, out)


def first_of(x, axes):
    """The first element of every slice along `axes` (non-empty), in the reduced shape."""
    shape = x.shape
    limits = tuple(1 if i in axes else d for i, d in enumerate(shape))
    first = bind(
        slice_p, x, start_indices=(0,) * len(shape), limit_indices=limits, strides=(1,) * len(shape)
    )
    return bind(reshape_p, first, new_sizes=reduced_shape(shape, axes))


def _nan_extreme(prim, name, combine, sign, a, axis, out, keepdims, initial, where):
    """numpy's fmin.reduce/fmax.reduce: NaNs are skipped; a slice with nothing else gives NaN."""
    a = as_array(a)
    x = a._value
    if x.dtype.kind in "mM":  # NaT is the NaN of datetimes: NumPy's own skips it
        options = {"axis": axis, "out": out, "keepdims": keepdims, "initial": initial, "where": where}
        return call_host(np.nanmin if name == "fmin" else np.nanmax, (a,), options)
    if x.dtype.kind not in _INEXACT:
        return extreme_reduce(prim, name, combine, a, axis, out, keepdims, initial, where)
    shape = x.shape
    axes = axes_of(axis, x.ndim)
    keepdims = keepdims_flag(keepdims)
    where = True if where is NoValue else where
    empty = reduced_size(shape, axes) == 0
    if initial is NoValue and where is not True:
        raise ValueError(
            f"reduction operation '{name}' does not have an identity, so to use a where mask one "
            "has to specify 'initial'"
        )
    if initial is NoValue and empty:
        raise ValueError(f"zero-size array to reduction operation {name} which has no identity")
    # a fill no other value passes: +inf for fmin (inf+infj for complex, compared lexicographically)
    fill = scalar(
        complex(sign * np.inf, sign * np.inf) if x.dtype.kind == "c" else sign * np.inf, x.dtype
    )
    if initial is NoValue and where is True and not tracing():
        r = bind(prim, x, axes=axes)  # eager and NaN-free: the plain reduction is the answer
        if not np.isnan(r).any():
            if keepdims:
                r = bind(reshape_p, r, new_sizes=kept_shape(shape, axes))
            return store(r, out, name)
    nan = bind(isnan_p, x)
    kept = select(nan, fill, x)
    missing = nan
    if where is not True:
        mask = where_mask(where, shape)
        kept = select(mask, kept, fill)
        missing = select(mask, nan, True)
    if empty:
        r = bind(full_p, scalar(initial, x.dtype), shape=reduced_shape(shape, axes), dtype=x.dtype)
    else:
        r = bind(prim, kept, axes=axes)
        # an all-NaN slice gives its first element, as fmin.reduce does (NaN payloads of complex kept)
        nothing = scalar(np.nan, x.dtype) if where is not True else first_of(x, axes)
        r = select(bind(reduce_and_p, missing, axes=axes), nothing, r)
        if initial is not NoValue:  # fmin(r, initial): a NaN on either side yields the other
            init = scalar(initial, x.dtype)
            both = select(bind(isnan_p, init), r, binary(combine, r, init, x.dtype))
            r = select(bind(isnan_p, r), init, both)
    if keepdims:
        r = bind(reshape_p, r, new_sizes=kept_shape(shape, axes))
    # Note: traced, which slices are all-NaN is data, so NumPy's RuntimeWarning is not emitted.
    if is_concrete(r) and np.isnan(r).any():
        warn("All-NaN slice encountered")
    return store(r, out, name)


@defers_to_numpy
@reduced_layouts.keeps_operand_order()
def nanmin(
    a: ArrayLike,
    axis: AxisLike = None,
    out: NDArray | None = None,
    keepdims: bool = False,
    initial: ScalarLike = NoValue,
    where: ArrayLike = True,
) -> NDArray:
    """Return minimum of an array or minimum along an axis, ignoring any NaNs.

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
        The maximum value of an output element; needed for empty slices.
    where : array_like of bool, optional
        Elements to include in the operation.

    Returns
    -------
    nanmin : ndarray
        The minimum, with the specified axes removed.

    See Also
    --------
    numpy.nanmin : The NumPy function this mirrors.
    nanmax, amin, fmin

    Notes
    -----
    An all-NaN slice gives NaN with a RuntimeWarning, as in NumPy.
    """
    return _nan_extreme(reduce_min_p, "fmin", min_p, 1, a, axis, out, keepdims, initial, where)


@defers_to_numpy
@reduced_layouts.keeps_operand_order()
def nanmax(
    a: ArrayLike,
    axis: AxisLike = None,
    out: NDArray | None = None,
    keepdims: bool = False,
    initial: ScalarLike = NoValue,
    where: ArrayLike = True,
) -> NDArray:
    """Return the maximum of an array or maximum along an axis, ignoring any NaNs.

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
        The minimum value of an output element; needed for empty slices.
    where : array_like of bool, optional
        Elements to include in the operation.

    Returns
    -------
    nanmax : ndarray
        The maximum, with the specified axes removed.

    See Also
    --------
    numpy.nanmax : The NumPy function this mirrors.
    nanmin, amax, fmax

    Notes
    -----
    An all-NaN slice gives NaN with a RuntimeWarning, as in NumPy.
    """
    return _nan_extreme(reduce_max_p, "fmax", max_p, -1, a, axis, out, keepdims, initial, where)


def _nan_arg(prim, name, fill, a, axis, out, keepdims):
    a = as_array(a)
    x, mask = replace_nan(a._value, fill)
    if mask is not None and a.size:
        all_nan = bind(reduce_and_p, mask, axes=axes_of(axis, a.ndim))
        # Note: traced, an all-NaN slice cannot raise (the trace does not see data); its index is 0.
        if is_concrete(all_nan) and np.any(host_values(all_nan)):
            raise ValueError("All-NaN slice encountered")
    return arg_reduce(prim, name, wrap(x), axis, out, keepdims)


@defers_to_numpy
def nanargmin(
    a: ArrayLike,
    axis: int | None = None,
    out: NDArray | None = None,
    *,
    keepdims: bool = False,
) -> NDArray:
    """Return the indices of the minimum values in the specified axis ignoring NaNs.

    Parameters
    ----------
    a : array_like
        Input array.
    axis : int, optional
        Axis along which to operate; by default the flattened input.
    out : array, optional
        If provided, the result is written into it.
    keepdims : bool, optional
        If True, the reduced axes are left in the result as dimensions with size one, so the result
        broadcasts against the input.

    Returns
    -------
    index_array : ndarray
        An array of indices.

    See Also
    --------
    numpy.nanargmin : The NumPy function this mirrors.
    argmin, nanargmax, nanmin

    Notes
    -----
    An all-NaN slice raises ValueError, as in NumPy; traced, it cannot raise (the trace does not see
    data) and its index is 0.
    """
    return _nan_arg(argmin_p, "argmin", np.inf, a, axis, out, keepdims)


@defers_to_numpy
def nanargmax(
    a: ArrayLike,
    axis: int | None = None,
    out: NDArray | None = None,
    *,
    keepdims: bool = False,
) -> NDArray:
    """Return the indices of the maximum values in the specified axis ignoring NaNs.

    Parameters
    ----------
    a : array_like
        Input array.
    axis : int, optional
        Axis along which to operate; by default the flattened input.
    out : array, optional
        If provided, the result is written into it.
    keepdims : bool, optional
        If True, the reduced axes are left in the result as dimensions with size one, so the result
        broadcasts against the input.

    Returns
    -------
    index_array : ndarray
        An array of indices.

    See Also
    --------
    numpy.nanargmax : The NumPy function this mirrors.
    argmax, nanargmin, nanmax

    Notes
    -----
    An all-NaN slice raises ValueError, as in NumPy; traced, it cannot raise (the trace does not see
    data) and its index is 0.
    """
    return _nan_arg(argmax_p, "argmax", -np.inf, a, axis, out, keepdims)


__all__ = [
    "nanargmax",
    "nanargmin",
    "nancumprod",
    "nancumsum",
    "nanmax",
    "nanmin",
    "nanprod",
    "nansum",
]
