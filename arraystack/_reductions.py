"""Reductions: sum, prod, max, min, any, all, argmax, argmin, ptp, count_nonzero; the family's contents.

Each is NumPy's `ufunc.reduce` (see _reduce.py) around one reduce primitive. This module also re-exports
the statistics (_statistics.py), the scans (_cumulative.py) and the NaN-ignoring variants
(_reductions_nan.py), so `ndarray` methods and the public namespace find the whole family here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from arraystack._array import eager_buffer, ndarray, wrap
from arraystack._creation import asarray
from arraystack._cumulative import cumprod, cumsum, cumulative_prod, cumulative_sum
from arraystack._reduce import (
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
    kept_shape,
    reduce_raw,
    store,
    ufunc_output_error,
    unpack_out,
)
from arraystack._reductions_nan import (
    nanargmax,
    nanargmin,
    nancumprod,
    nancumsum,
    nanmax,
    nanmean,
    nanmin,
    nanprod,
    nanstd,
    nansum,
    nanvar,
)
from arraystack._statistics import average, mean, std, var
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
    computes, in one call (keepdims passed only when set: NumPy parses keywords slowly)."""
    return wrap(fn(value, axis, keepdims=True) if keepdims else fn(value, axis))


def sum(
    a: ArrayLike,
    axis: AxisLike = None,
    dtype: DTypeLike = None,
    out: NDArray | None = None,
    keepdims: bool = False,
    initial: ScalarLike = NoValue,
    where: ArrayLike = True,
) -> NDArray:
    """Sum of array elements over a given axis."""
    value = eager_buffer(a)
    if value is not None and dtype is None and out is None and initial is NoValue and where is True:
        return _numpy_reduction(np.sum, value, axis, keepdims)
    return accumulating_reduce(
        reduce_sum_p, "add", 0, add_p, a, axis, dtype, out, keepdims, initial, where
    )


def prod(
    a: ArrayLike,
    axis: AxisLike = None,
    dtype: DTypeLike = None,
    out: NDArray | None = None,
    keepdims: bool = False,
    initial: ScalarLike = NoValue,
    where: ArrayLike = True,
) -> NDArray:
    """Return the product of array elements over a given axis."""
    return accumulating_reduce(
        reduce_prod_p, "multiply", 1, mul_p, a, axis, dtype, out, keepdims, initial, where
    )


def max(
    a: ArrayLike,
    axis: AxisLike = None,
    out: NDArray | None = None,
    keepdims: bool = False,
    initial: ScalarLike = NoValue,
    where: ArrayLike = True,
) -> NDArray:
    """Return the maximum of an array or maximum along an axis."""
    value = eager_buffer(a)
    if value is not None and out is None and initial is NoValue and where is True:
        return _numpy_reduction(np.max, value, axis, keepdims)
    return extreme_reduce(reduce_max_p, "maximum", max_p, a, axis, out, keepdims, initial, where)


def min(
    a: ArrayLike,
    axis: AxisLike = None,
    out: NDArray | None = None,
    keepdims: bool = False,
    initial: ScalarLike = NoValue,
    where: ArrayLike = True,
) -> NDArray:
    """Return the minimum of an array or minimum along an axis."""
    value = eager_buffer(a)
    if value is not None and out is None and initial is NoValue and where is True:
        return _numpy_reduction(np.min, value, axis, keepdims)
    return extreme_reduce(reduce_min_p, "minimum", min_p, a, axis, out, keepdims, initial, where)


amax = max
amin = min


def _logical(prim, name, identity, a, axis, out, keepdims, where):
    if type(a) is not ndarray:
        a = asarray(a)
    x = as_dtype(a._value, BOOL)
    axes = tuple(range(x.ndim)) if axis is None else axes_of(axis, x.ndim)
    if where is True and keepdims is False and out is None:
        return wrap(bind(prim, x, axes=axes))
    keepdims = keepdims is not NoValue and bool(keepdims)
    where = True if where is NoValue else where
    return store(
        reduce_raw(prim, name, x, axes, keepdims, NoValue, where, identity, None), out, name
    )


def any(
    a: ArrayLike,
    axis: AxisLike = None,
    out: NDArray | None = None,
    keepdims: bool = False,
    *,
    where: ArrayLike = True,
) -> NDArray:
    """Test whether any array element along a given axis evaluates to True."""
    value = eager_buffer(a)
    if value is not None and out is None and where is True:
        return _numpy_reduction(np.any, value, axis, keepdims)
    return _logical(reduce_or_p, "logical_or", False, a, axis, out, keepdims, where)


def all(
    a: ArrayLike,
    axis: AxisLike = None,
    out: NDArray | None = None,
    keepdims: bool = False,
    *,
    where: ArrayLike = True,
) -> NDArray:
    """Test whether all array elements along a given axis evaluate to True."""
    value = eager_buffer(a)
    if value is not None and out is None and where is True:
        return _numpy_reduction(np.all, value, axis, keepdims)
    return _logical(reduce_and_p, "logical_and", True, a, axis, out, keepdims, where)


def argmax(
    a: ArrayLike,
    axis: int | None = None,
    out: NDArray | None = None,
    *,
    keepdims: bool = False,
) -> NDArray:
    """Returns the indices of the maximum values along an axis."""
    value = eager_buffer(a)
    if value is not None and out is None:
        return _numpy_reduction(np.argmax, value, axis, keepdims)
    return arg_reduce(argmax_p, "argmax", a, axis, out, keepdims)


def argmin(
    a: ArrayLike,
    axis: int | None = None,
    out: NDArray | None = None,
    *,
    keepdims: bool = False,
) -> NDArray:
    """Returns the indices of the minimum values along an axis."""
    value = eager_buffer(a)
    if value is not None and out is None:
        return _numpy_reduction(np.argmin, value, axis, keepdims)
    return arg_reduce(argmin_p, "argmin", a, axis, out, keepdims)


def ptp(
    a: ArrayLike,
    axis: AxisLike = None,
    out: NDArray | None = None,
    keepdims: bool = False,
) -> NDArray:
    """Range of values (maximum - minimum) along an axis."""
    a = as_array(a)
    x = a._value
    axes = axes_of(axis, x.ndim)
    keepdims = keepdims is not NoValue and bool(keepdims)
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


def count_nonzero(a: ArrayLike, axis: AxisLike = None, *, keepdims: bool = False) -> NDArray:
    """Counts the number of non-zero values in the array a."""
    a = as_array(a)
    x = as_dtype(as_dtype(a._value, BOOL), INT64)
    axes = axes_of(axis, x.ndim)
    r = bind(reduce_sum_p, x, axes=axes)
    if keepdims:
        r = bind(reshape_p, r, new_sizes=kept_shape(x.shape, axes))
    return wrap(r)


__all__ = [
    "all",
    "amax",
    "amin",
    "any",
    "argmax",
    "argmin",
    "average",
    "count_nonzero",
    "cumprod",
    "cumsum",
    "cumulative_prod",
    "cumulative_sum",
    "max",
    "mean",
    "min",
    "nanargmax",
    "nanargmin",
    "nancumprod",
    "nancumsum",
    "nanmax",
    "nanmean",
    "nanmin",
    "nanprod",
    "nanstd",
    "nansum",
    "nanvar",
    "prod",
    "ptp",
    "std",
    "sum",
    "var",
]


from arraystack._reductions_docs import DOCS  # the docstrings, kept apart (line budget)

for _function in (all, any, argmax, argmin, count_nonzero, max, min, prod, ptp, sum):
    _function.__doc__ = DOCS[_function.__name__]
