"""Order statistics: median, percentile, quantile and their NaN-ignoring forms, written as NumPy writes them
(numpy/lib/_function_base_impl.py: _quantile, _get_indexes, _lerp; _nanfunctions_impl.py) over a sort
along the reduced axis, so they trace, differentiate (through the sort's gather) and vmap.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
from numpy.lib.array_utils import normalize_axis_tuple

import arraystack as anp
from arraystack._core.array import ndarray, scalar_result
from arraystack._core.devices import constants_on_operand_device, host_values
from arraystack._core.dtypes import holds_host
from arraystack._core.interop import call_host
from arraystack._core.overrides import defers_to_numpy
from arraystack._transforms import reduced_layouts, result_layouts
from arraystack.ir.core import Tracer

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, AxisLike, NDArray

INTP = np.dtype(np.intp)


def _gamma_mask(xp, shape, default_value, conditioned_value, where):
    return xp.where(where, conditioned_value, xp.broadcast_to(default_value, shape))


def _boundaries(xp, index, condition):
    previous = xp.floor(index)
    gamma = index - previous
    res = _gamma_mask(xp, index.shape, previous + 1, previous, condition(gamma, index)).astype(INTP)
    return xp.maximum(res, 0)


def _virtual_index(xp, n, q, alpha, beta):
    return n * q + (alpha + q * (1 - alpha - beta)) - 1


# method -> (virtual index of n values at quantiles q, gamma fix-up or None for methods without one)
_METHODS = {
    "inverted_cdf": (lambda xp, n, q: _boundaries(xp, n * q - 1, lambda g, _: g == 0), None),
    "averaged_inverted_cdf": (
        lambda xp, n, q: n * q - 1,
        lambda xp, g, _: _gamma_mask(xp, g.shape, 1.0, 0.5, g == 0),
    ),
    "closest_observation": (
        lambda xp, n, q: _boundaries(
            xp, n * q - 1 - 0.5, lambda g, i: (g == 0) & (xp.floor(i) % 2 == 1)
        ),
        None,
    ),
    "interpolated_inverted_cdf": (lambda xp, n, q: _virtual_index(xp, n, q, 0, 1), True),
    "hazen": (lambda xp, n, q: _virtual_index(xp, n, q, 0.5, 0.5), True),
    "weibull": (lambda xp, n, q: _virtual_index(xp, n, q, 0, 0), True),
    "linear": (lambda xp, n, q: (n - 1) * q, True),
    "median_unbiased": (lambda xp, n, q: _virtual_index(xp, n, q, 1 / 3.0, 1 / 3.0), True),
    "normal_unbiased": (lambda xp, n, q: _virtual_index(xp, n, q, 3 / 8.0, 3 / 8.0), True),
    "lower": (lambda xp, n, q: xp.floor((n - 1) * q).astype(INTP), None),
    "higher": (lambda xp, n, q: xp.ceil((n - 1) * q).astype(INTP), None),
    "midpoint": (
        lambda xp, n, q: 0.5 * (xp.floor((n - 1) * q) + xp.ceil((n - 1) * q)),
        lambda xp, g, i: _gamma_mask(xp, g.shape, 0.5, 0.0, i % 1 == 0),
    ),
    "nearest": (lambda xp, n, q: xp.around((n - 1) * q).astype(INTP), None),
}


def _is_concrete(x) -> bool:
    return not isinstance(x._value if isinstance(x, ndarray) else x, Tracer)


def _sorted_first(arr):
    """`arr` sorted along axis 0, NaNs last (numpy.sort's order)."""
    return anp.sort(arr, axis=0)


def _take_first(arr, index):
    """arr[index[..., j], j] for every column j of the trailing axes (index: q.shape + arr.shape[1:])."""
    n = arr.shape[0]
    cols = math.prod(arr.shape[1:])
    rest = arr.shape[1:]
    column = anp.reshape(anp.arange(cols, dtype=INTP), rest)
    flat = anp.reshape(anp.moveaxis(anp.reshape(arr, (n, cols)), 0, -1), (-1,))
    return flat[index.astype(INTP) + column * n]


def _merge_axes(a, axis):
    """a with the reduced axes merged into axis 0, and the keepdims shape of the reduction."""
    if axis is None:
        return anp.reshape(a, (-1,)), (1,) * a.ndim
    axes = normalize_axis_tuple(axis, a.ndim)
    rest = tuple(d for d in range(a.ndim) if d not in axes)
    moved = anp.transpose(a, axes + rest)
    merged = anp.reshape(moved, (math.prod(a.shape[d] for d in axes),) + moved.shape[len(axes) :])
    return merged, tuple(1 if d in axes else a.shape[d] for d in range(a.ndim))


def _median_out(out, result, keepdims, kept):
    """`out` for a median: of the result's number of dimensions (NumPy's median writes it through a
    mean's reduction, which refuses another), then of a shape it broadcasts to."""
    if out is None:
        return out
    if not hasattr(out, "ndim"):
        raise TypeError("return arrays must be of ArrayType")
    ndim = len(kept) if keepdims else anp.ndim(result)
    if out.ndim != ndim:
        raise ValueError(
            "output parameter for reduction operation add has the wrong number of dimensions: "
            f"Found {out.ndim} but expected {ndim}"
        )
    return out


def _finish(result, qshape, kept, keepdims, out, scalar=True):
    if keepdims:
        result = anp.reshape(result, tuple(qshape) + kept)
    if out is not None:
        out[...] = result
        return out
    # NumPy's 0-d results are scalars (np.median(a) is a float64), but for weights, a 0-d array
    return scalar_result(result) if scalar else result


def _lerp(a, b, t, dtype=None):
    """NumPy's _lerp; `dtype` rounds t and 1 - t (from a wider t) as a weak Python float t would be."""
    diff = b - a
    low = a + diff * (t if dtype is None else t.astype(dtype))
    high = b - diff * ((1 - t) if dtype is None else (1 - t).astype(dtype))
    if isinstance(t, float):
        return (high if t >= 0.5 else low).astype(low.dtype, copy=False)
    return anp.where(t >= 0.5, high, low).astype(low.dtype, copy=False)


def _indexes(xp, arr, virtual, last):
    """NumPy's _get_indexes, with `last` (n - 1, per column for the NaN-ignoring forms) for index -1."""
    floor = xp.floor(virtual)
    below = virtual < 0
    above = (virtual >= last) | xp.isnan(virtual)
    top = -1 if xp is np else last
    # below wins over above, as in NumPy (it assigns index 0 after index -1)
    previous = xp.where(below, 0, xp.where(above, top, floor))
    nxt = xp.where(below, 0, xp.where(above, top, floor + 1))
    return previous.astype(INTP), nxt.astype(INTP)


def _quantile(arr, q, method, weak_q, counts=None):
    """Quantiles along axis 0 of `arr`; `counts` (per column) ignores the NaNs sorted to the end."""
    try:
        virtual_fn, fix_gamma = _METHODS[method]
    except KeyError:
        raise ValueError(
            f"{method!r} is not a valid method. Use one of: {_METHODS.keys()}"
        ) from None
    n = arr.shape[0]
    if n == 0 and counts is None:
        raise IndexError("index -1 is out of bounds for axis 0 with size 0")
    srt = _sorted_first(arr)
    qshape = q.shape
    if counts is None and _is_concrete(q):
        xp, qv, size = np, host_values(q._value if isinstance(q, ndarray) else q), n
    else:
        xp, qv = anp, anp.asarray(q)
        size = n if counts is None else counts.astype(qv.dtype if qv.dtype.kind == "f" else INTP)
        if counts is not None:
            qv = anp.reshape(qv, qshape + (1,) * (arr.ndim - 1))
    virtual = xp.asarray(virtual_fn(xp, size, qv))
    integral = fix_gamma is None or (method == "linear" and virtual.dtype.kind in "iu")
    last = size - 1
    if integral:
        if counts is not None:
            virtual = anp.where(virtual > last, last, virtual)
        result = _gather(srt, virtual, counts)
    else:
        previous, nxt = _indexes(xp, arr, virtual, last)
        gamma = virtual - previous
        if fix_gamma is not True:
            gamma = fix_gamma(xp, gamma, virtual)
        gamma = gamma.astype(virtual.dtype)
        weak = None
        if weak_q and xp is np:
            gamma = float(gamma)
        else:
            if weak_q:  # per-column gammas of a weak q: rounded to the data's precision at use
                weak = np.result_type(arr.dtype, 1.0)
            if counts is None:
                gamma = gamma.reshape(virtual.shape + (1,) * (arr.ndim - 1))
        result = _lerp(_gather(srt, previous, counts), _gather(srt, nxt, counts), gamma, weak)
    if arr.dtype.kind in "fcmM" and n:
        tail = srt[-1]
        if counts is None:
            result = anp.where(anp.isnan(tail), tail, result)
        else:
            result = anp.where(counts == 0, np.nan, result)
    return result


def _gather(srt, index, counts):
    if counts is None and isinstance(index, np.ndarray):
        return srt[index]
    if counts is None:
        return srt[anp.asarray(index)]
    return _take_first(srt, index)


def _is_traced_python_number(q) -> bool:
    """q is the trace of a Python int or float (a weakly typed real value)."""
    value = q._value if type(q) is ndarray else q
    return type(value) is Tracer and value.aval.weak_type and value.aval.dtype.kind in "iuf"


def _prepare(a, q, axis, weights, method, scale):
    a = anp.asarray(a)
    if a.dtype.kind == "c":
        raise TypeError("a must be an array of real numbers")
    weak_q = type(q) in (int, float) or _is_traced_python_number(q)
    q = q if isinstance(q, ndarray) else np.asanyarray(q)
    if scale is not None:
        q = q / scale if isinstance(q, ndarray) else np.true_divide(q, scale)
    if _is_concrete(q):
        qc = host_values(q._value if isinstance(q, ndarray) else q)
        if not (qc.size == 0 or (qc.min() >= 0 and qc.max() <= 1)):
            rng = "Quantiles must be in the range [0, 1]"
            raise ValueError(rng if scale is None else "Percentiles must be in the range [0, 100]")
    if q.ndim > 2:
        raise ValueError("q must be a scalar or 1d")
    if weights is not None:
        if method != "inverted_cdf":
            raise ValueError(f"Only method 'inverted_cdf' supports weights. Got: {method}.")
        weights = _valid_weights(weights, a, axis)
    return a, q, weak_q, weights


def _valid_weights(weights, a, axis):
    w = anp.asarray(weights)
    if w.shape != a.shape:
        if axis is None:
            raise TypeError("Axis must be specified when shapes of a and weights differ.")
        axes = normalize_axis_tuple(axis, a.ndim, argname="axis")
        if w.shape != tuple(a.shape[ax] for ax in axes):
            raise ValueError(
                "Shape of weights must be consistent with shape of a along specified axis."
            )
        w = anp.transpose(w, tuple(np.argsort(axes)))
        w = anp.reshape(w, tuple(s if ax in axes else 1 for ax, s in enumerate(a.shape)))
    if _is_concrete(w) and np.any(host_values(w._value) < 0):
        raise ValueError("Weights must be non-negative.")
    return anp.broadcast_to(w, a.shape)


def _weighted(arr, w, q):
    """method='inverted_cdf' with weights: the first value whose normalized cumulative weight >= q."""
    order = anp.argsort(arr, axis=0)
    srt = _take_first(arr, order) if arr.ndim > 1 else arr[order]
    w = _take_first(w, order) if arr.ndim > 1 else w[order]
    cdf = anp.cumsum(w, axis=0, dtype=np.float64)
    cdf = cdf / cdf[-1]
    if _is_concrete(cdf) and np.isnan(host_values(cdf._value)[-1]).any():
        raise ValueError("Weights included NaN, inf or were all zero.")
    q = anp.asarray(q)
    if q.dtype.kind == "f":
        cdf = cdf.astype(q.dtype)
    cdf = anp.where(anp.any(cdf[0] == 0), anp.where(cdf == 0, -1, cdf), cdf)
    qb = anp.reshape(q, q.shape + (1,) * arr.ndim)
    index = anp.minimum(anp.sum(cdf < qb, axis=q.ndim), arr.shape[0] - 1)
    result = _take_first(srt, index) if arr.ndim > 1 else srt[index]
    if arr.dtype.kind in "fmM":
        result = anp.where(anp.isnan(srt[-1]), srt[-1], result)
    return result


_NUMPY_QUANTILES = {
    (None, False): np.quantile, (100, False): np.percentile,
    (None, True): np.nanquantile, (100, True): np.nanpercentile,
}  # fmt: skip


def _quantile_api(a, q, axis, out, method, keepdims, weights, scale, nan):
    a = anp.asarray(a)
    if holds_host(a):  # object arrays (Python numbers): NumPy's
        options = {"method": method, "keepdims": keepdims, "weights": weights}
        return call_host(_NUMPY_QUANTILES[scale, nan], (a, q, axis, out), options)
    a, q, weak_q, weights = _prepare(a, q, axis, weights, method, scale)
    arr, kept = _merge_axes(a, axis)
    if weights is not None:
        w, _ = _merge_axes(weights, axis)
        return _finish(_weighted(arr, w, q), q.shape, kept, keepdims, out, scalar=False)
    counts = None
    if nan and arr.dtype.kind == "f":
        if arr.size == 0:
            return _finish(
                anp.nanmean(arr, axis=0) + anp.zeros(q.shape + arr.shape[1:]),
                q.shape,
                kept,
                keepdims,
                out,
            )
        counts = anp.sum(~anp.isnan(arr), axis=0)
        if _is_concrete(counts) and np.any(host_values(counts._value) == 0):
            import warnings

            warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=3)
    return _finish(_quantile(arr, q, method, weak_q, counts), q.shape, kept, keepdims, out)


@defers_to_numpy
@constants_on_operand_device
@result_layouts.allocates_c_order
def quantile(
    a: ArrayLike,
    q: ArrayLike,
    axis: AxisLike = None,
    out: NDArray | None = None,
    overwrite_input: bool = False,
    method: str = "linear",
    keepdims: bool = False,
    *,
    weights: ArrayLike | None = None,
) -> NDArray:
    """Compute the q-th quantile of the data along the specified axis.

    Parameters
    ----------
    a : array_like
        Input array.
    q : array_like of float
        Probability or sequence of probabilities, in [0, 1].
    axis : {int, tuple of int, None}, optional
        Axis or axes along which the quantiles are computed; by default the flattened array.
    out : ndarray, optional
        Alternative output array in which to place the result; it must have the expected shape. Eagerly
        it is written in place; traced, the update is functionalized.
    overwrite_input : bool, optional
        Accepted for compatibility: arraystack never modifies the input.
    method : str, optional
        The estimation method: one of NumPy's 13 ('linear' by default, 'inverted_cdf',
        'averaged_inverted_cdf', 'closest_observation', 'interpolated_inverted_cdf', 'hazen', 'weibull',
        'median_unbiased', 'normal_unbiased', 'lower', 'higher', 'midpoint', 'nearest').
    keepdims : bool, optional
        If True, the reduced axes are left in the result as dimensions with size one, so the result
        broadcasts against the input.
    weights : array_like, optional
        Weights for the values of `a`; only with ``method='inverted_cdf'``.

    Returns
    -------
    quantile : ndarray
        The quantiles; the axes of `q` come first.

    See Also
    --------
    numpy.quantile : The NumPy function this mirrors.
    percentile, median, nanquantile

    Notes
    -----
    All 13 of NumPy's methods are supported; `weights` only with ``method='inverted_cdf'``, as in NumPy.
    """
    return _quantile_api(a, q, axis, out, method, keepdims, weights, None, False)


@defers_to_numpy
@constants_on_operand_device
@result_layouts.allocates_c_order
def percentile(
    a: ArrayLike,
    q: ArrayLike,
    axis: AxisLike = None,
    out: NDArray | None = None,
    overwrite_input: bool = False,
    method: str = "linear",
    keepdims: bool = False,
    *,
    weights: ArrayLike | None = None,
) -> NDArray:
    """Compute the q-th percentile of the data along the specified axis.

    Parameters
    ----------
    a : array_like
        Input array.
    q : array_like of float
        Percentage or sequence of percentages, in [0, 100].
    axis : {int, tuple of int, None}, optional
        Axis or axes along which the quantiles are computed; by default the flattened array.
    out : ndarray, optional
        Alternative output array in which to place the result; it must have the expected shape. Eagerly
        it is written in place; traced, the update is functionalized.
    overwrite_input : bool, optional
        Accepted for compatibility: arraystack never modifies the input.
    method : str, optional
        The estimation method: one of NumPy's 13 ('linear' by default, 'inverted_cdf',
        'averaged_inverted_cdf', 'closest_observation', 'interpolated_inverted_cdf', 'hazen', 'weibull',
        'median_unbiased', 'normal_unbiased', 'lower', 'higher', 'midpoint', 'nearest').
    keepdims : bool, optional
        If True, the reduced axes are left in the result as dimensions with size one, so the result
        broadcasts against the input.
    weights : array_like, optional
        Weights for the values of `a`; only with ``method='inverted_cdf'``.

    Returns
    -------
    percentile : ndarray
        The percentiles; the axes of `q` come first.

    See Also
    --------
    numpy.percentile : The NumPy function this mirrors.
    quantile, median, nanpercentile

    Notes
    -----
    All 13 of NumPy's methods are supported; `weights` only with ``method='inverted_cdf'``, as in NumPy.
    """
    return _quantile_api(a, q, axis, out, method, keepdims, weights, 100, False)


@defers_to_numpy
@constants_on_operand_device
def nanquantile(
    a: ArrayLike,
    q: ArrayLike,
    axis: AxisLike = None,
    out: NDArray | None = None,
    overwrite_input: bool = False,
    method: str = "linear",
    keepdims: bool = False,
    *,
    weights: ArrayLike | None = None,
) -> NDArray:
    """Compute the qth quantile of the data along the specified axis, while ignoring nan values.

    Parameters
    ----------
    a : array_like
        Input array.
    q : array_like of float
        Probability or sequence of probabilities, in [0, 1].
    axis : {int, tuple of int, None}, optional
        Axis or axes along which the quantiles are computed; by default the flattened array.
    out : ndarray, optional
        Alternative output array in which to place the result; it must have the expected shape. Eagerly
        it is written in place; traced, the update is functionalized.
    overwrite_input : bool, optional
        Accepted for compatibility: arraystack never modifies the input.
    method : str, optional
        The estimation method: one of NumPy's 13 ('linear' by default, 'inverted_cdf',
        'averaged_inverted_cdf', 'closest_observation', 'interpolated_inverted_cdf', 'hazen', 'weibull',
        'median_unbiased', 'normal_unbiased', 'lower', 'higher', 'midpoint', 'nearest').
    keepdims : bool, optional
        If True, the reduced axes are left in the result as dimensions with size one, so the result
        broadcasts against the input.
    weights : array_like, optional
        Weights for the values of `a`; only with ``method='inverted_cdf'``.

    Returns
    -------
    quantile : ndarray
        The quantiles; the axes of `q` come first.

    See Also
    --------
    numpy.nanquantile : The NumPy function this mirrors.
    quantile, nanpercentile, nanmedian

    Notes
    -----
    An all-NaN slice gives NaN and a RuntimeWarning.
    """
    return _quantile_api(a, q, axis, out, method, keepdims, weights, None, True)


@defers_to_numpy
@constants_on_operand_device
def nanpercentile(
    a: ArrayLike,
    q: ArrayLike,
    axis: AxisLike = None,
    out: NDArray | None = None,
    overwrite_input: bool = False,
    method: str = "linear",
    keepdims: bool = False,
    *,
    weights: ArrayLike | None = None,
) -> NDArray:
    """Compute the qth percentile of the data along the specified axis, while ignoring nan values.

    Parameters
    ----------
    a : array_like
        Input array.
    q : array_like of float
        Percentage or sequence of percentages, in [0, 100].
    axis : {int, tuple of int, None}, optional
        Axis or axes along which the quantiles are computed; by default the flattened array.
    out : ndarray, optional
        Alternative output array in which to place the result; it must have the expected shape. Eagerly
        it is written in place; traced, the update is functionalized.
    overwrite_input : bool, optional
        Accepted for compatibility: arraystack never modifies the input.
    method : str, optional
        The estimation method: one of NumPy's 13 ('linear' by default, 'inverted_cdf',
        'averaged_inverted_cdf', 'closest_observation', 'interpolated_inverted_cdf', 'hazen', 'weibull',
        'median_unbiased', 'normal_unbiased', 'lower', 'higher', 'midpoint', 'nearest').
    keepdims : bool, optional
        If True, the reduced axes are left in the result as dimensions with size one, so the result
        broadcasts against the input.
    weights : array_like, optional
        Weights for the values of `a`; only with ``method='inverted_cdf'``.

    Returns
    -------
    percentile : ndarray
        The percentiles; the axes of `q` come first.

    See Also
    --------
    numpy.nanpercentile : The NumPy function this mirrors.
    percentile, nanquantile, nanmedian

    Notes
    -----
    An all-NaN slice gives NaN and a RuntimeWarning.
    """
    return _quantile_api(a, q, axis, out, method, keepdims, weights, 100, True)


@defers_to_numpy
@reduced_layouts.keeps_operand_order()
def median(
    a: ArrayLike,
    axis: AxisLike = None,
    out: NDArray | None = None,
    overwrite_input: bool = False,
    keepdims: bool = False,
) -> NDArray:
    """Compute the median along the specified axis.

    Parameters
    ----------
    a : array_like
        Input array.
    axis : {int, sequence of int, None}, optional
        Axis or axes along which the medians are computed; by default the flattened array.
    out : ndarray, optional
        Alternative output array in which to place the result; it must have the expected shape. Eagerly
        it is written in place; traced, the update is functionalized.
    overwrite_input : bool, optional
        Accepted for compatibility: arraystack never modifies the input.
    keepdims : bool, optional
        If True, the reduced axes are left in the result as dimensions with size one, so the result
        broadcasts against the input.

    Returns
    -------
    median : ndarray
        The mean of the one or two middle values; NaN if the slice holds a NaN.

    See Also
    --------
    numpy.median : The NumPy function this mirrors.
    mean, percentile, quantile, nanmedian
    """
    a = anp.asarray(a)
    arr, kept = _merge_axes(a, axis)
    n = arr.shape[0]
    srt = _sorted_first(arr) if n else arr
    half = n // 2
    middle = srt[half : half + 1] if n % 2 else srt[max(half - 1, 0) : half + 1]
    result = anp.mean(middle, axis=0)
    if arr.dtype.kind in "fc" and n:
        tail = srt[-1]
        result = anp.where(anp.isnan(tail), tail.astype(result.dtype), result)
    return _finish(result, (), kept, keepdims, _median_out(out, result, keepdims, kept))


@defers_to_numpy
@constants_on_operand_device
@reduced_layouts.keeps_operand_order(eager=True)
def nanmedian(
    a: ArrayLike,
    axis: AxisLike = None,
    out: NDArray | None = None,
    overwrite_input: bool = False,
    keepdims: bool = False,
) -> NDArray:
    """Compute the median along the specified axis, while ignoring NaNs.

    Parameters
    ----------
    a : array_like
        Input array.
    axis : {int, sequence of int, None}, optional
        Axis or axes along which the medians are computed; by default the flattened array.
    out : ndarray, optional
        Alternative output array in which to place the result; it must have the expected shape. Eagerly
        it is written in place; traced, the update is functionalized.
    overwrite_input : bool, optional
        Accepted for compatibility: arraystack never modifies the input.
    keepdims : bool, optional
        If True, the reduced axes are left in the result as dimensions with size one, so the result
        broadcasts against the input.

    Returns
    -------
    median : ndarray
        ``(low + high) / 2`` of the non-NaN middle values, as NumPy's masked path computes it.

    See Also
    --------
    numpy.nanmedian : The NumPy function this mirrors.
    median, nanmean, nanpercentile

    Notes
    -----
    An all-NaN slice gives NaN and a RuntimeWarning.
    """
    a = anp.asarray(a)
    if a.dtype.kind not in "fc":
        return median(a, axis, out, overwrite_input, keepdims)
    arr, kept = _merge_axes(a, axis)
    if arr.shape[0] == 0:
        return _finish(anp.nanmean(arr, axis=0), (), kept, keepdims, out)
    counts = anp.sum(~anp.isnan(arr), axis=0)
    if _is_concrete(counts) and np.any(host_values(counts._value) == 0):
        import warnings

        warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=2)
    srt = _sorted_first(arr)
    high = anp.maximum(counts // 2, 0)
    low = anp.where(counts % 2 == 1, high, anp.maximum(high - 1, 0))
    result = (_take_first(srt, low) + _take_first(srt, high)) / arr.dtype.type(2)
    result = anp.where(counts == 0, np.nan, result).astype(arr.dtype)
    return _finish(result, (), kept, keepdims, out)


__all__ = [
    "median",
    "nanmedian",
    "nanpercentile",
    "nanquantile",
    "percentile",
    "quantile",
]
