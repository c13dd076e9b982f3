"""Statistics: mean, var, std, average, written as NumPy writes them (numpy/_core/_methods.py: _mean, _var,
_std; numpy.average), so dtypes, rounding and warnings follow NumPy's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from arraystack._core.array import eager_buffer, wrap, wrap_scalar
from arraystack._core.devices import host_values
from arraystack._core.dtypes import check_supported, result_type
from arraystack._core.operands import broadcast_raw
from arraystack._core.overrides import defers_to_numpy
from arraystack._core.shapes import normalize_axes
from arraystack._manipulation.reshaping import transpose
from arraystack._math.reduce import (
    FLOAT64,
    INT64,
    NoValue,
    as_array,
    as_dtype,
    axes_of,
    binary,
    divide_count,
    is_concrete,
    item_count,
    keepdims_flag,
    kept_shape,
    out_loop,
    reduce_raw,
    reduced_size,
    store,
    ufunc_output_error,
    unpack_out,
    warn,
)
from arraystack._math.reductions import object_result
from arraystack._transforms import reduced_layouts
from arraystack.ir.avals import bfloat16, kind_of
from arraystack.ir.core import active, bind, device_namespaces
from arraystack.ir.primitives import (
    add_p,
    copy_p,
    div_p,
    imag_p,
    max_p,
    mul_p,
    real_p,
    sqrt_p,
    sub_p,
)
from arraystack.ir.reference import host_rules
from arraystack.ir.structural import reduce_sum_p, reshape_p

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, AxisLike, DTypeLike, NDArray

FLOAT16 = np.dtype(np.float16)
BFLOAT16 = bfloat16
FLOAT32 = np.dtype(np.float32)
# dtypes whose true_divide by an int64 count runs in the dtype itself, and those mean() sums in float64
_DIVIDE_IN_PLACE = frozenset({FLOAT64, np.dtype(np.complex128)})
_MEAN_DTYPES = {np.dtype(t): FLOAT64 for t in ("bool", "int8", "int16", "int32", "int64")}
_MEAN_DTYPES.update({np.dtype(t): FLOAT64 for t in ("uint8", "uint16", "uint32", "uint64")})


def _options(keepdims, where):
    return keepdims_flag(keepdims), (True if where is NoValue else where)


def any_true(test, count) -> bool:
    """`test(count)` reduced with any(), for a concrete count; False when the count is traced."""
    if isinstance(count, int):
        return bool(test(count))
    # Note: a count from a traced where= mask is data; NumPy's warnings about it are not emitted.
    return is_concrete(count) and bool(np.any(test(host_values(count))))


def sum_raw(x, axes, keepdims, where):
    if where is True and not keepdims:
        return bind(reduce_sum_p, x, axes=axes)
    return reduce_raw(reduce_sum_p, "add", x, axes, keepdims, NoValue, where, 0, add_p)


def summand(x, dtype, out):
    """Inexact `x` as numpy.sum(x, dtype=dtype, out=out) reads it: in dtype if given, else in the loop
    NumPy resolves from out's dtype."""
    if dtype is not None:
        return as_dtype(x, dtype)
    if out is not None:
        return as_dtype(x, out_loop(np.add, x.dtype, out))
    return x


@defers_to_numpy
@reduced_layouts.keeps_operand_order()
def mean(
    a: ArrayLike,
    axis: AxisLike = None,
    dtype: DTypeLike = None,
    out: NDArray | None = None,
    keepdims: bool = False,
    *,
    where: ArrayLike = True,
) -> NDArray:
    """Compute the arithmetic mean along the specified axis.

    Parameters
    ----------
    a : array_like
        Input array.
    axis : int or tuple of ints, optional
        Axis or axes along which to operate. By default (None) the flattened array is used.
    dtype : data-type, optional
        Type to use in computing the mean: float64 for integer inputs by default; for floating
        inputs, the input's dtype.
    out : ndarray, optional
        Alternative output array in which to place the result; it must have the expected shape.
        Eagerly it is written in place; traced, the update is functionalized.
    keepdims : bool, optional
        If True, the reduced axes are left in the result as dimensions with size one, so the result
        broadcasts against the input.
    where : array_like of bool, optional
        Elements to include in the mean.

    Returns
    -------
    m : ndarray
        The mean, with the reduced axes removed (or `out`).

    See Also
    --------
    numpy.mean : The NumPy function this mirrors.
    average, median, var, std, nanmean, ndarray.mean

    Notes
    -----
    Integers average in float64 and float16 accumulates in float32, as in NumPy. A count from a
    traced `where` mask is data, so NumPy's warnings about empty slices are not emitted for it.
    """
    value = eager_buffer(a)
    if value is not None and dtype is None and out is None and where is True:
        # eager: NumPy's own, in one call
        kept = keepdims_flag(keepdims)
        return object_result(np.mean(value, axis, keepdims=True) if kept else np.mean(value, axis), value)
    a = as_array(a)
    x = a._value
    if dtype is None and out is None and where is True and keepdims is False:
        fast = x.dtype if x.dtype in _DIVIDE_IN_PLACE else _MEAN_DTYPES.get(x.dtype)
        axes = tuple(range(x.ndim)) if axis is None else axes_of(axis, x.ndim)
        n = reduced_size(x.shape, axes)
        if fast is not None and n:  # the common case: one sum, one division by a literal count
            total = bind(reduce_sum_p, as_dtype(x, fast), axes=axes)
            return wrap_scalar(bind(div_p, total, fast.type(n)))
    axes = axes_of(axis, x.ndim)
    keepdims, where = _options(keepdims, where)
    count = item_count(x.shape, axes, where, keepdims)
    if any_true(lambda n: n == 0, count):
        warn("Mean of empty slice", stacklevel=3)
    sum_dtype = None if dtype is None else check_supported(dtype)
    half_result = False
    if sum_dtype is None and x.dtype.kind in "biu":
        sum_dtype = FLOAT64
    elif sum_dtype is None and (x.dtype == FLOAT16 or x.dtype == BFLOAT16):
        sum_dtype = FLOAT32  # summed and divided in float32, rounded once (JAX's bfloat16 mean too)
        half_result = True
    out = unpack_out(out)
    if sum_dtype is None and out is not None:
        sum_dtype = out_loop(np.add, x.dtype, out)
    if sum_dtype is not None:
        x = as_dtype(x, sum_dtype)
    r = sum_raw(x, axes, keepdims, where)
    if out is not None:
        r = as_dtype(r, out.dtype)  # NumPy sums into out, then divides in place
    r = divide_count(r, count)
    if half_result and out is None:
        r = as_dtype(r, a.dtype)
    return store(r, out)


def var_raw(a, axis, dtype, out, ddof, keepdims, where, mean):
    """numpy's _var: mean(|x - x.mean()|**2) with ddof, as a raw value (cast to out's dtype if given)."""
    a = as_array(a)
    x = a._value
    shape = x.shape
    axes = axes_of(axis, x.ndim)
    keepdims, where = _options(keepdims, where)
    count = item_count(shape, axes, where, keepdims)
    if any_true(lambda n: ddof >= n, count):
        warn("Degrees of freedom <= 0 for slice", stacklevel=4)
    if dtype is None and x.dtype.kind in "biu":
        dtype = FLOAT64
    elif dtype is not None:
        dtype = check_supported(dtype)
    if mean is not NoValue:
        center = mean if isinstance(mean, (int, float, complex)) else as_array(mean)._value
    else:
        total = sum_raw(x if dtype is None else as_dtype(x, dtype), axes, True, where)
        div = count
        if not isinstance(count, int) and not keepdims:
            div = bind(reshape_p, count, new_sizes=kept_shape(shape, axes))
        center = divide_count(total, div)
    deviation_dtype = (
        result_type(x, center) if np.isscalar(center) else np.promote_types(x.dtype, center.dtype)
    )
    d = binary(sub_p, x, center, deviation_dtype)
    if x.dtype.kind == "c" and d.dtype.kind == "c":
        re = bind(real_p, d)
        im = bind(imag_p, d)
        sq = binary(
            add_p, binary(mul_p, re, re, re.dtype), binary(mul_p, im, im, im.dtype), re.dtype
        )
    elif type(d) is np.ndarray and d.base is None and not active.n and not device_namespaces:
        # eager: d is ours and fresh; square in place, as NumPy's _var
        sq = host_rules[mul_p](d, d, out=d)
    else:
        sq = binary(mul_p, d, d, d.dtype)
    out = unpack_out(out)
    r = sum_raw(summand(sq, dtype, out), axes, keepdims, where)
    if out is not None:
        r = as_dtype(r, out.dtype)
    if isinstance(count, int):
        dof = np.result_type(INT64, ddof).type(max(count - ddof, 0))
    else:
        dof_dtype = np.result_type(INT64, ddof)
        dof = binary(max_p, binary(sub_p, count, ddof, dof_dtype), 0, dof_dtype)
    return divide_count(r, dof)


def ddof_of(ddof, correction):
    if correction is NoValue:
        return ddof
    if ddof != 0:
        raise ValueError("ddof and correction can't be provided simultaneously.")
    return correction


@defers_to_numpy
@reduced_layouts.keeps_operand_order()
def var(
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
    """Compute the variance along the specified axis.

    Parameters
    ----------
    a : array_like
        Input array.
    axis : int or tuple of ints, optional
        Axis or axes along which to operate. By default (None) the flattened array is used.
    dtype : data-type, optional
        Type to use in computing the variance; float64 for integer inputs by default.
    out : ndarray, optional
        Alternative output array in which to place the result; it must have the expected shape.
        Eagerly it is written in place; traced, the update is functionalized.
    ddof : {int, float}, optional
        Delta degrees of freedom: the divisor used in the calculation is ``N - ddof``; default 0.
    keepdims : bool, optional
        If True, the reduced axes are left in the result as dimensions with size one, so the result
        broadcasts against the input.
    where : array_like of bool, optional
        Elements to include.
    mean : array_like, optional
        The mean of `a` along `axis` (with ``keepdims=True`` shape), to avoid computing it again.
    correction : {int, float}, optional
        The Array API's name for `ddof`; only one of them may be given.

    Returns
    -------
    variance : ndarray
        The variance, with the reduced axes removed (or `out`).

    See Also
    --------
    numpy.var : The NumPy function this mirrors.
    std, mean, nanvar, ndarray.var

    Notes
    -----
    Complex input gives a real variance, as in NumPy.
    """
    value = eager_buffer(a)
    if value is not None and dtype is None and out is None and where is True and mean is NoValue:
        if correction is NoValue:  # eager: NumPy's own, in one call
            return object_result(np.var(value, axis, ddof=ddof, keepdims=keepdims), value)
    ddof = ddof_of(ddof, correction)
    return store(var_raw(a, axis, dtype, out, ddof, keepdims, where, mean), unpack_out(out))


def sqrt_result(r, out):
    """numpy's _std: sqrt in place of an inexact result; an integer result (dtype=/out= of an integer
    type) only converts back when NumPy holds it as a scalar."""
    if kind_of(r.dtype) in "fc":
        return bind(sqrt_p, r)
    loop = np.sqrt.resolve_dtypes((r.dtype, None))[0]
    if out is None and r.shape == ():
        return as_dtype(bind(sqrt_p, as_dtype(r, loop)), r.dtype)
    raise ufunc_output_error(np.sqrt, loop, r.dtype)


@defers_to_numpy
@reduced_layouts.keeps_operand_order()
def std(
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
    """Compute the standard deviation along the specified axis.

    Parameters
    ----------
    a : array_like
        Input array.
    axis : int or tuple of ints, optional
        Axis or axes along which to operate. By default (None) the flattened array is used.
    dtype : dtype, optional
        Type to use in computing the standard deviation; float64 for integer inputs by default.
    out : ndarray, optional
        Alternative output array in which to place the result; it must have the expected shape.
        Eagerly it is written in place; traced, the update is functionalized.
    ddof : {int, float}, optional
        Delta degrees of freedom: the divisor used in the calculation is ``N - ddof``; default 0.
    keepdims : bool, optional
        If True, the reduced axes are left in the result as dimensions with size one, so the result
        broadcasts against the input.
    where : array_like of bool, optional
        Elements to include.
    mean : array_like, optional
        The mean of `a` along `axis` (with ``keepdims=True`` shape), to avoid computing it again.
    correction : {int, float}, optional
        The Array API's name for `ddof`; only one of them may be given.

    Returns
    -------
    standard_deviation : ndarray
        The standard deviation, with the reduced axes removed (or `out`).

    See Also
    --------
    numpy.std : The NumPy function this mirrors.
    var, mean, nanstd, ndarray.std
    """
    value = eager_buffer(a)
    if value is not None and dtype is None and out is None and where is True and mean is NoValue:
        if correction is NoValue:  # eager: NumPy's own, in one call
            return object_result(np.std(value, axis, ddof=ddof, keepdims=keepdims), value)
    ddof = ddof_of(ddof, correction)
    out = unpack_out(out)
    r = var_raw(a, axis, dtype, out, ddof, keepdims, where, mean)
    return store(sqrt_result(r, out), out)


# -- weighted averages -----------------------------------------------------------------------------


def _weights(weights, a, axis):
    """numpy's _weights_are_valid: the weights shaped to broadcast against `a`."""
    wgt = as_array(weights)
    if a.shape != wgt.shape:
        if axis is None:
            raise TypeError("Axis must be specified when shapes of a and weights differ.")
        if wgt.shape != tuple(a.shape[ax] for ax in axis):
            raise ValueError(
                "Shape of weights must be consistent with shape of a along specified axis."
            )
        wgt = transpose(wgt, tuple(int(i) for i in np.argsort(axis)))
        shape = tuple(d if ax in axis else 1 for ax, d in enumerate(a.shape))
        wgt = wrap(bind(reshape_p, wgt._value, new_sizes=shape))
    return wgt


@defers_to_numpy
@reduced_layouts.keeps_operand_order()
def average(
    a: ArrayLike,
    axis: AxisLike = None,
    weights: ArrayLike | None = None,
    returned: bool = False,
    *,
    keepdims: bool = False,
) -> NDArray | tuple[NDArray, NDArray]:
    """Compute the weighted average along the specified axis.

    Parameters
    ----------
    a : array_like
        Array containing data to be averaged.
    axis : None or int or tuple of ints, optional
        Axis or axes along which to average `a`; by default all elements.
    weights : array_like, optional
        Weights associated with the values in `a`, of the shape of `a` or 1-D along a single `axis`;
        by default all equal to one.
    returned : bool, optional
        If True, return ``(average, sum_of_weights)``.
    keepdims : bool, optional
        If True, the reduced axes are left in the result as dimensions with size one, so the result
        broadcasts against the input.

    Returns
    -------
    retval, [sum_of_weights] : ndarray
        The average along the specified axis; with `returned`, also the sum of the weights,
        broadcast to the average's shape.

    See Also
    --------
    numpy.average : The NumPy function this mirrors.
    mean

    Notes
    -----
    A zero sum of weights raises ZeroDivisionError eagerly; traced, it is data the trace cannot see
    and gives inf/nan, no error.
    """
    a = as_array(a)
    if axis is not None:
        axis = normalize_axes(axis, a.ndim)
    keepdims = keepdims_flag(keepdims)
    if weights is None:
        avg = mean(a, axis, keepdims=keepdims)
        scl = avg.dtype.type(a.size / avg.size)
        scl = wrap(np.asarray(scl))
    else:
        wgt = _weights(weights, a, axis)
        if a.dtype.kind in "biu":
            dtype = np.result_type(a.dtype, wgt.dtype, "f8")
        else:
            dtype = np.result_type(a.dtype, wgt.dtype)
        axes = axes_of(axis, a.ndim)
        scl = sum_raw(as_dtype(wgt._value, dtype), axes, keepdims, True)
        if is_concrete(scl) and np.any(host_values(scl) == 0.0):
            raise ZeroDivisionError("Weights sum to zero, can't be normalized")
        # Note: traced, a zero sum of weights is data the trace cannot see; it gives inf/nan, no error.
        total = sum_raw(binary(mul_p, a._value, wgt._value, dtype), axes, keepdims, True)
        avg = wrap_scalar(binary(div_p, total, scl, dtype))
        scl = wrap(scl)
    if returned:
        if scl.shape != avg.shape:
            scl = wrap(bind(copy_p, broadcast_raw(scl._value, avg.shape)))
        return avg, scl
    return avg


__all__ = ["average", "mean", "std", "var"]
