"""Discrete calculus: diff, ediff1d, gradient, trapezoid, interp, correlate, convolve, cross, unwrap,
composed of slices, ufuncs and reductions as numpy/lib/_function_base_impl.py and numpy/_core/numeric.py
write them, so they trace, differentiate and vmap (interp's search goes through arraystack.searchsorted).
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

import numpy as np
from numpy.lib.array_utils import normalize_axis_index, normalize_axis_tuple

import arraystack as anp
from arraystack._core.array import scalar_result, wrap
from arraystack._core.devices import constants_on_operand_device, host_values
from arraystack._core.interop import call_host
from arraystack._core.overrides import defers_to_numpy
from arraystack._transforms import result_layouts
from arraystack.ir.core import Tracer, bind
from arraystack.ir.primitives import complex_p

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, AxisLike, NDArray, ScalarLike

_NoValue = np._NoValue
_SELF = object()  # marks where the array itself goes between prepend and append


def _along(nd, axis, index):
    key = [slice(None)] * nd
    key[axis] = index
    return tuple(key)


@defers_to_numpy
def diff(
    a: ArrayLike,
    n: int = 1,
    axis: int = -1,
    prepend: ArrayLike = _NoValue,
    append: ArrayLike = _NoValue,
) -> NDArray:
    """Calculate the n-th discrete difference along the given axis.

    Parameters
    ----------
    a : array_like
        Input array.
    n : int, optional
        The number of times values are differenced; 0 returns the input.
    axis : int, optional
        The axis along which the difference is taken; the last by default.
    prepend : array_like, optional
        Values to prepend along `axis` before differencing.
    append : array_like, optional
        Values to append along `axis` before differencing.

    Returns
    -------
    out : ndarray
        The n-th differences; the shape is that of `a` with `axis` shorter by `n`.

    See Also
    --------
    numpy.diff : The NumPy function this mirrors.
    gradient, ediff1d, cumsum

    Notes
    -----
    Boolean input is differenced with `not_equal`, as in NumPy.
    """
    if n == 0:
        return a
    if n < 0:
        raise ValueError("order must be non-negative but got " + repr(n))
    a = anp.asarray(a)
    nd = a.ndim
    if nd == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    axis = normalize_axis_index(axis, nd)
    combined = []
    for extra in (prepend, _SELF, append):
        if extra is _SELF:
            combined.append(a)
        elif extra is not _NoValue:
            extra = anp.asarray(extra)
            if extra.ndim == 0:
                shape = list(a.shape)
                shape[axis] = 1
                extra = anp.broadcast_to(extra, tuple(shape))
            combined.append(extra)
    if len(combined) > 1:
        a = anp.concatenate(combined, axis)
    op = anp.not_equal if a.dtype == np.bool_ else anp.subtract
    upper, lower = _along(nd, axis, slice(1, None)), _along(nd, axis, slice(None, -1))
    for _ in range(n):
        a = op(a[upper], a[lower])
    return a


@defers_to_numpy
@constants_on_operand_device
def ediff1d(
    ary: ArrayLike,
    to_end: ArrayLike | None = None,
    to_begin: ArrayLike | None = None,
) -> NDArray:
    """The differences between consecutive elements of an array.

    Parameters
    ----------
    ary : array_like
        Input array; it is flattened.
    to_end : array_like, optional
        Number(s) to append at the end of the differences.
    to_begin : array_like, optional
        Number(s) to prepend at the beginning of the differences.

    Returns
    -------
    out : ndarray
        The differences of the flattened input, with the optional ends.

    See Also
    --------
    numpy.ediff1d : The NumPy function this mirrors.
    diff, gradient
    """
    ary = anp.ravel(anp.asarray(ary))
    dtype = ary.dtype
    if to_begin is None and to_end is None:
        return ary[1:] - ary[:-1]
    parts = []
    for name, extra in (("to_begin", to_begin), ("to_end", to_end)):
        if extra is None:
            parts.append(None)
            continue
        extra = anp.asarray(extra)
        if not np.can_cast(extra.dtype, dtype, casting="same_kind"):
            raise TypeError(
                f"dtype of `{name}` must be compatible with input `ary` under the `same_kind` rule."
            )
        parts.append(anp.ravel(extra).astype(dtype))
    if dtype == np.bool_:
        raise TypeError("numpy boolean subtract, the `-` operator, is not supported")
    middle = (ary[1:] - ary[:-1]).astype(dtype)
    pieces = [p for p in (parts[0], middle, parts[1]) if p is not None]
    return anp.concatenate(pieces)


def _spacing(distances, size):
    distances = anp.asarray(distances)
    if distances.ndim == 0:
        return distances
    if distances.ndim != 1:
        raise ValueError("distances must be either scalars or 1d")
    if len(distances) != size:
        raise ValueError("when 1d, distances must match the length of the corresponding dimension")
    if distances.dtype.kind in "iub":
        distances = distances.astype(np.float64)
    if isinstance(distances._value, Tracer):
        # Note: NumPy collapses equal spacings to a scalar; traced spacings keep the general formula
        return diff(distances)
    diffx = np.diff(host_values(distances._value))
    return wrap(diffx[0]) if (diffx == diffx[0]).all() else wrap(diffx)


@defers_to_numpy
@constants_on_operand_device
def gradient(
    f: ArrayLike,
    *varargs: ArrayLike,
    axis: AxisLike = None,
    edge_order: int = 1,
) -> NDArray | tuple[NDArray, ...]:
    """Return the gradient of an N-dimensional array.

    Second-order accurate central differences in the interior and first- or second-order one-sided
    differences at the boundaries.

    Parameters
    ----------
    f : array_like
        An N-dimensional array of samples of a function.
    *varargs : list of scalar or array, optional
        Spacing between `f` values: one scalar for all axes, one scalar per axis, or one array of
        coordinates per axis.
    axis : None or int or tuple of ints, optional
        The axis or axes along which the gradient is computed; all by default.
    edge_order : {1, 2}, optional
        Accuracy order of the differences at the boundaries.

    Returns
    -------
    gradient : ndarray or tuple of ndarray
        One array per differentiated axis (a single array for one axis).

    See Also
    --------
    numpy.gradient : The NumPy function this mirrors.
    diff
    """
    f = anp.asarray(f)
    if f.dtype.kind in "mM":  # datetimes: NumPy's own (timedelta differences, NaT kept)
        return call_host(np.gradient, (f, *varargs), {"axis": axis, "edge_order": edge_order})
    nd = f.ndim
    axes = tuple(range(nd)) if axis is None else normalize_axis_tuple(axis, nd)
    n = len(varargs)
    if n == 0:
        dx = [1.0] * len(axes)
    elif n == 1 and np.ndim(varargs[0]) == 0:
        dx = list(varargs) * len(axes)
    elif n == len(axes):
        dx = [_spacing(d, f.shape[ax]) for d, ax in zip(varargs, axes)]
    else:
        raise TypeError("invalid number of arguments")
    if edge_order > 2:
        raise ValueError("'edge_order' greater than 2 not supported")
    otype = f.dtype
    if otype.kind not in "fc":
        if otype.kind in "iu":
            f = f.astype(np.float64)
        otype = np.dtype(np.float64)
    outvals = [_gradient_axis(f, ax, d, edge_order, otype) for ax, d in zip(axes, dx)]
    # NumPy fills empty_like(f): each result in f's memory order
    outvals = [result_layouts.like(f, out) for out in outvals]
    return outvals[0] if len(axes) == 1 else tuple(outvals)


def _gradient_axis(f, axis, ax_dx, edge_order, otype):
    if f.shape[axis] < edge_order + 1:
        raise ValueError(
            "Shape of array too small to calculate a numerical gradient, "
            "at least (edge_order + 1) elements are required."
        )
    nd = f.ndim

    def at(index):
        return f[_along(nd, axis, index)]

    uniform = np.ndim(ax_dx) == 0
    if uniform:
        inner = (at(slice(2, None)) - at(slice(None, -2))) / (2.0 * ax_dx)
    else:
        dx1, dx2 = ax_dx[0:-1], ax_dx[1:]
        shape = [1] * nd
        shape[axis] = -1
        a = anp.reshape(-dx2 / (dx1 * (dx1 + dx2)), shape)
        b = anp.reshape((dx2 - dx1) / (dx1 * dx2), shape)
        c = anp.reshape(dx1 / (dx2 * (dx1 + dx2)), shape)
        inner = a * at(slice(None, -2)) + b * at(slice(1, -1)) + c * at(slice(2, None))
    if edge_order == 1:
        first = (at(slice(1, 2)) - at(slice(0, 1))) / (ax_dx if uniform else ax_dx[0])
        last = (at(slice(-1, None)) - at(slice(-2, -1))) / (ax_dx if uniform else ax_dx[-1])
    else:
        if uniform:
            a, b, c = -1.5 / ax_dx, 2.0 / ax_dx, -0.5 / ax_dx
        else:
            dx1, dx2 = ax_dx[0], ax_dx[1]
            a = -(2.0 * dx1 + dx2) / (dx1 * (dx1 + dx2))
            b = (dx1 + dx2) / (dx1 * dx2)
            c = -dx1 / (dx2 * (dx1 + dx2))
        first = a * at(slice(0, 1)) + b * at(slice(1, 2)) + c * at(slice(2, 3))
        if uniform:
            a, b, c = 0.5 / ax_dx, -2.0 / ax_dx, 1.5 / ax_dx
        else:
            dx1, dx2 = ax_dx[-2], ax_dx[-1]
            a = dx2 / (dx1 * (dx1 + dx2))
            b = -(dx2 + dx1) / (dx1 * dx2)
            c = (2.0 * dx2 + dx1) / (dx2 * (dx1 + dx2))
        last = a * at(slice(-3, -2)) + b * at(slice(-2, -1)) + c * at(slice(-1, None))
    pieces = [first, inner, last] if f.shape[axis] > 2 else [first, last]
    return anp.concatenate([p.astype(otype) for p in pieces], axis=axis)


@defers_to_numpy
@constants_on_operand_device
def trapezoid(y: ArrayLike, x: ArrayLike | None = None, dx: float = 1.0, axis: int = -1) -> NDArray:
    """Integrate along the given axis using the composite trapezoidal rule.

    Parameters
    ----------
    y : array_like
        Input array to integrate.
    x : array_like, optional
        The sample points corresponding to the `y` values; if None, they are evenly spaced `dx` apart.
    dx : scalar, optional
        The spacing between sample points when `x` is None.
    axis : int, optional
        The axis along which to integrate.

    Returns
    -------
    trapezoid : ndarray
        Definite integral of `y` approximated by the trapezoidal rule.

    See Also
    --------
    numpy.trapezoid : The NumPy function this mirrors.
    cumsum, diff
    """
    y = anp.asarray(y)
    if x is None:
        d = dx
    else:
        x = anp.asarray(x)
        if x.ndim == 1:
            d = diff(x)
            shape = [1] * y.ndim
            shape[axis] = d.shape[0]
            d = anp.reshape(d, shape)
        else:
            d = diff(x, axis=axis)
    nd = y.ndim
    upper, lower = _along(nd, axis, slice(1, None)), _along(nd, axis, slice(None, -1))
    return anp.sum(d * (y[upper] + y[lower]) / 2.0, axis)


def _interp_real(x, xp, fp, left, right):
    n = xp.shape[0]
    j = anp.searchsorted(xp, x, side="right") - 1
    left = fp[0] if left is None else left
    right = fp[-1] if right is None else right
    if n == 1:  # NumPy's single-point rule: a NaN x gives fp[0]
        return anp.where(x < xp[0], left, anp.where(x > xp[0], right, fp[0])).astype(np.float64)
    jc = anp.clip(j, 0, n - 2)
    x0, x1, f0, f1 = xp[jc], xp[jc + 1], fp[jc], fp[jc + 1]
    slope = (f1 - f0) / (x1 - x0)
    inside = slope * (x - x0) + f0
    retry = slope * (x - x1) + f1  # NumPy retries from the right end when the left gives NaN
    retry = anp.where(anp.isnan(retry) & (f0 == f1), f0, retry)
    inside = anp.where(anp.isnan(inside), retry, inside)
    inside = anp.where((j == n - 1) | (x0 == x), fp[anp.clip(j, 0, n - 1)], inside)
    result = anp.where(j < 0, left, anp.where(x > xp[-1], right, inside))
    result = anp.where(x == xp[-1], fp[-1], result)
    return anp.where(anp.isnan(x), x, result).astype(np.float64)


@defers_to_numpy
def interp(
    x: ArrayLike,
    xp: ArrayLike,
    fp: ArrayLike,
    left: ScalarLike | None = None,
    right: ScalarLike | None = None,
    period: float | None = None,
) -> NDArray:
    """One-dimensional linear interpolation for monotonically increasing sample points.

    Parameters
    ----------
    x : array_like
        The x-coordinates at which to evaluate the interpolated values.
    xp : 1-D sequence of floats
        The x-coordinates of the data points, increasing unless `period` is given.
    fp : 1-D sequence of float or complex
        The y-coordinates of the data points, same length as `xp`.
    left : float or complex, optional
        Value to return for ``x < xp[0]``; default ``fp[0]``.
    right : float or complex, optional
        Value to return for ``x > xp[-1]``; default ``fp[-1]``.
    period : float, optional
        A period for the x-coordinates; `left` and `right` are then ignored.

    Returns
    -------
    out : ndarray
        The interpolated values, float64 (complex128 for complex `fp`), same shape as `x`.

    See Also
    --------
    numpy.interp : The NumPy function this mirrors.
    polyval
    """
    fp = anp.asarray(fp)
    dtype = np.complex128 if fp.dtype.kind == "c" else np.float64
    x = anp.asarray(x).astype(np.float64)
    xp = anp.asarray(xp).astype(np.float64)
    fp = fp.astype(dtype)
    if xp.ndim != 1 or fp.ndim != 1:
        raise ValueError("Data points must be 1-D sequences")
    if xp.shape[0] != fp.shape[0]:
        raise ValueError("fp and xp are not of the same length.")
    if xp.shape[0] == 0:
        raise ValueError("array of sample points is empty")
    if period is not None:
        if period == 0:
            raise ValueError("period must be a non-zero value")
        period = abs(period)
        left = right = None
        x = x % period
        xp = xp % period
        order = anp.argsort(xp)
        xp, fp = xp[order], fp[order]
        xp = anp.concatenate((xp[-1:] - period, xp, xp[0:1] + period))
        fp = anp.concatenate((fp[-1:], fp, fp[0:1]))
    if dtype is np.float64:  # a scalar x gives NumPy's scalar
        return scalar_result(_interp_real(x, xp, fp, left, right))
    lefts = (None, None) if left is None else (np.real(left), np.imag(left))
    rights = (None, None) if right is None else (np.real(right), np.imag(right))
    re = _interp_real(x, xp, anp.real(fp), lefts[0], rights[0])
    im = _interp_real(x, xp, anp.imag(fp), lefts[1], rights[1])
    return scalar_result(wrap(bind(complex_p, re._value, im._value)))


@defers_to_numpy
@constants_on_operand_device
def cross(
    a: ArrayLike,
    b: ArrayLike,
    axisa: int = -1,
    axisb: int = -1,
    axisc: int = -1,
    axis: int | None = None,
) -> NDArray:
    """Return the cross product of two (arrays of) vectors.

    Parameters
    ----------
    a : array_like
        Components of the first vector(s).
    b : array_like
        Components of the second vector(s).
    axisa : int, optional
        Axis of `a` that defines the vector(s). By default, the last axis.
    axisb : int, optional
        Axis of `b` that defines the vector(s). By default, the last axis.
    axisc : int, optional
        Axis of the result containing the cross product vector(s); ignored for 2-element vectors.
    axis : int, optional
        If defined, the axis of `a`, `b` and the result, overriding `axisa`, `axisb` and `axisc`.

    Returns
    -------
    out : ndarray
        Vector cross product(s).

    See Also
    --------
    numpy.cross : The NumPy function this mirrors.
    inner, outer

    Notes
    -----
    As in NumPy 2, 2-element vectors emit a DeprecationWarning.
    """
    if axis is not None:
        axisa, axisb, axisc = (axis,) * 3
    a, b = anp.asarray(a), anp.asarray(b)
    if a.ndim < 1 or b.ndim < 1:
        raise ValueError("At least one array has zero dimension")
    a = anp.moveaxis(a, normalize_axis_index(axisa, a.ndim, msg_prefix="axisa"), -1)
    b = anp.moveaxis(b, normalize_axis_index(axisb, b.ndim, msg_prefix="axisb"), -1)
    na, nb = a.shape[-1], b.shape[-1]
    if na not in (2, 3) or nb not in (2, 3):
        raise ValueError("incompatible dimensions for cross product\n(dimension must be 2 or 3)")
    if na == 2 or nb == 2:
        warnings.warn(
            "Arrays of 2-dimensional vectors are deprecated. Use arrays of "
            "3-dimensional vectors instead. (deprecated in NumPy 2.0)",
            DeprecationWarning,
            stacklevel=2,
        )
    shape = np.broadcast_shapes(a.shape[:-1], b.shape[:-1])
    if na == 3 or nb == 3:
        axisc = normalize_axis_index(axisc, len(shape) + 1, msg_prefix="axisc")
    dtype = np.promote_types(a.dtype, b.dtype)
    if dtype == np.bool_:
        raise TypeError("numpy boolean subtract, the `-` operator, is not supported")
    a, b = a.astype(dtype), b.astype(dtype)
    a0, a1, b0, b1 = a[..., 0], a[..., 1], b[..., 0], b[..., 1]
    a2 = a[..., 2] if na == 3 else None
    b2 = b[..., 2] if nb == 3 else None
    if na == 2 and nb == 2:
        return result_layouts.c_ordered(anp.broadcast_to(a0 * b1 - a1 * b0, shape).astype(dtype))
    if na == 2:
        parts = (a1 * b2, 0 - a0 * b2, a0 * b1 - a1 * b0)
    elif nb == 3:
        parts = (a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0)
    else:
        parts = (0 - a2 * b1, a2 * b0, a0 * b1 - a1 * b0)
    cp = anp.stack([anp.broadcast_to(p, shape).astype(dtype) for p in parts], axis=-1)
    return anp.moveaxis(result_layouts.c_ordered(cp), -1, axisc)  # NumPy fills a C array


@defers_to_numpy
def unwrap(
    p: ArrayLike,
    discont: float | None = None,
    axis: int = -1,
    *,
    period: float = 2 * np.pi,
) -> NDArray:
    """Unwrap by taking the complement of large deltas with respect to the period.

    Adds multiples of `period` so that consecutive differences are at most ``max(discont, period / 2)``.

    Parameters
    ----------
    p : array_like
        Input array.
    discont : float, optional
        Maximum discontinuity between values; default ``period / 2``.
    axis : int, optional
        Axis along which to unwrap; the last by default.
    period : float, optional
        Size of the range over which the input wraps; default ``2 pi``.

    Returns
    -------
    out : ndarray
        Output array.

    See Also
    --------
    numpy.unwrap : The NumPy function this mirrors.
    diff
    """
    p = anp.asarray(p)
    nd = p.ndim
    dd = diff(p, axis=axis)
    if discont is None:
        discont = period / 2
    dtype = np.result_type(dd.dtype, period)
    if dtype.kind in "iu":
        interval_high, rem = divmod(period, 2)
        boundary_ambiguous = rem == 0
    else:
        interval_high = period / 2
        boundary_ambiguous = True
    interval_low = -interval_high
    ddmod = anp.mod(dd - interval_low, period) + interval_low
    if boundary_ambiguous:
        ddmod = anp.where((ddmod == interval_low) & (dd > 0), interval_high, ddmod).astype(
            ddmod.dtype
        )
    ph_correct = ddmod - dd
    ph_correct = anp.where(anp.abs(dd) < discont, 0, ph_correct).astype(ph_correct.dtype)
    head = p[_along(nd, axis, slice(0, 1))].astype(dtype)
    tail = (p[_along(nd, axis, slice(1, None))] + anp.cumsum(ph_correct, axis)).astype(dtype)
    return anp.concatenate([head, tail], axis=axis)


# -- convolution and cross-correlation of 1-d sequences --------------------------------------------


_MODES = {"valid": 0, "same": 1, "full": 2, 0: 0, 1: 1, 2: 2}


def _correlate(a, v, mode):
    """numpy.correlate's kernel: r[k] = sum_j a[k + j - left] * v[j], the shorter operand sliding."""
    try:
        mode = _MODES[mode]
    except (KeyError, TypeError):
        raise ValueError(
            "Use one of 'valid', 'same', or 'full' for convolve/correlate mode"
        ) from None
    inverted = a.shape[0] < v.shape[0]
    if inverted:
        a, v = v, a
    n, m = a.shape[0], v.shape[0]
    left = (0, m // 2, m - 1)[mode]
    right = (0, m - m // 2 - 1, m - 1)[mode]
    dtype = np.result_type(a.dtype, v.dtype)
    work = np.dtype(np.int64) if dtype == np.bool_ else dtype
    a, v = a.astype(work), v.astype(work)
    length = n + left + right - m + 1
    # As NumPy's kernel, each output sums (from +0) the products of the entries that overlap, never a
    # product with the zeros outside `a` (0 * inf would be nan): term j adds a[k + j - left] * v[j]
    # to the outputs k where that index lies in a.
    result = anp.zeros(length, work)
    with anp.errstate(all="ignore"):  # NumPy's dot loop raises no floating-point warnings
        for j in range(m):
            first, stop = max(0, left - j), min(length, left + n - j)
            if first >= stop:
                continue
            term = a[first + j - left : stop + j - left] * v[j]
            parts = [anp.zeros(first, work), term, anp.zeros(length - stop, work)]
            result = result + anp.concatenate([x for x in parts if x.shape[0]])
    result = (result != 0) if dtype == np.bool_ else result.astype(dtype)
    return result[::-1] if inverted else result


def _operands(a, v):
    a, v = anp.atleast_1d(anp.asarray(a)), anp.atleast_1d(anp.asarray(v))
    if a.ndim != 1 or v.ndim != 1:
        raise ValueError("object too deep for desired array")
    return a, v


@defers_to_numpy
@constants_on_operand_device
def correlate(a: ArrayLike, v: ArrayLike, mode: str = "valid") -> NDArray:
    """Cross-correlation of two one-dimensional sequences.

    Computes ``c[k] = sum_n a[n + k] * conj(v[n])``.

    Parameters
    ----------
    a : array_like
        First one-dimensional input sequence.
    v : array_like
        Second one-dimensional input sequence.
    mode : {'valid', 'same', 'full'}, optional
        As in `convolve`; the default is 'valid'.

    Returns
    -------
    out : ndarray
        Discrete cross-correlation of `a` and `v`.

    See Also
    --------
    numpy.correlate : The NumPy function this mirrors.
    convolve
    """
    a, v = _operands(a, v)
    if a.shape[0] == 0 or v.shape[0] == 0:
        raise ValueError(f"{'a' if a.shape[0] == 0 else 'v'} cannot be empty")
    if v.dtype.kind == "c":
        v = anp.conjugate(v)
    return _correlate(a, v, mode)


@defers_to_numpy
@constants_on_operand_device
def convolve(a: ArrayLike, v: ArrayLike, mode: str = "full") -> NDArray:
    """Return the discrete, linear convolution of two one-dimensional sequences.

    Parameters
    ----------
    a : array_like
        First one-dimensional input array.
    v : array_like
        Second one-dimensional input array.
    mode : {'full', 'valid', 'same'}, optional
        'full' (default) gives every overlap, length ``N + M - 1``; 'same' the length ``max(M, N)``;
        'valid' only the full overlaps, length ``max(M, N) - min(M, N) + 1``.

    Returns
    -------
    out : ndarray
        Discrete, linear convolution of `a` and `v`.

    See Also
    --------
    numpy.convolve : The NumPy function this mirrors.
    correlate, polymul
    """
    a, v = _operands(a, v)
    if v.shape[0] > a.shape[0]:
        a, v = v, a
    if a.shape[0] == 0:
        raise ValueError("a cannot be empty")
    if v.shape[0] == 0:
        raise ValueError("v cannot be empty")
    return _correlate(a, v[::-1], mode)


__all__ = ["convolve", "correlate", "cross", "diff", "ediff1d", "gradient", "interp", "trapezoid", "unwrap"]
