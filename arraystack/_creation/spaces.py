"""Sampled spaces: linspace, logspace, geomspace, following numpy/_core/function_base.py on the iota ramp
and NumPy-promoting ufunc applications of _creation_ranges.
"""

from __future__ import annotations

import math
import operator
from typing import TYPE_CHECKING

import numpy as np

from arraystack._core.array import _make, wrap
from arraystack._creation.from_data import _check_device, asarray, astype
from arraystack._creation.ranges import _NUMBERS, _ufunc, iota
from arraystack._core.dtypes import check_supported, fast_dtype, result_type
from arraystack._manipulation.reshaping import expand_dims, moveaxis, reshape
from arraystack.ir import primitives as p
from arraystack.ir.core import Tracer, active, bind
from arraystack.ir.structural import reduce_or_p

if TYPE_CHECKING:
    from typing import Any

    from arraystack.typing import ArrayLike, DTypeLike, NDArray


def linspace(
    start: ArrayLike,
    stop: ArrayLike,
    num: int = 50,
    endpoint: bool = True,
    retstep: bool = False,
    dtype: DTypeLike = None,
    axis: int = 0,
    *,
    device: object | None = None,
) -> NDArray | tuple[NDArray, Any]:
    """Return evenly spaced numbers over a specified interval.

    Parameters
    ----------
    start : array_like
        The starting value of the sequence.
    stop : array_like
        The end value of the sequence, unless `endpoint` is False.
    num : int, optional
        Number of samples to generate; default 50. Must be non-negative.
    endpoint : bool, optional
        If True, `stop` is the last sample; otherwise it is not included.
    retstep : bool, optional
        If True, return ``(samples, step)``.
    dtype : dtype, optional
        The type of the output array; inferred from `start` and `stop` by default.
    axis : int, optional
        The axis in the result to store the samples; relevant only if start or stop are array-like.
        By default (0) the samples are along a new axis inserted at the beginning.
    device : str or Device, optional
        The device on which to place the created array (Array API); 'cpu' or None.

    Returns
    -------
    samples : ndarray
        `num` equally spaced samples in the closed interval ``[start, stop]`` or the half-open
        ``[start, stop)``.
    step : float, optional
        Only returned if `retstep` is True: the spacing between samples.

    See Also
    --------
    numpy.linspace : The NumPy function this mirrors.
    arange, logspace, geomspace
    """
    if (
        not active.n
        and type(start) in _NUMBERS
        and type(stop) in _NUMBERS
        and type(num) is int
        and not retstep
        and axis == 0
        and (dtype is None or fast_dtype(dtype) is not None)
        and device is None
    ):  # eager, Python numbers: NumPy's own linspace, which the composition below reproduces
        return _make(np.linspace(start, stop, num, endpoint, dtype=dtype))
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    _check_device(device)
    div = (num - 1) if endpoint else num
    dt = result_type(start, stop)  # Python scalars are weak, as in NumPy's _array_converter
    if dt.kind not in "fc":
        dt = np.result_type(dt, 0.0)
    integer_dtype = dtype is not None and np.issubdtype(dtype, np.integer)
    dtype = dt if dtype is None else check_supported(dtype)
    start = astype(asarray(start), dt, copy=False)
    stop = astype(asarray(stop), dt, copy=False)
    delta = _ufunc(p.sub_p, np.subtract, stop, start)
    y = iota(dt, (num,) + (1,) * delta.ndim)
    if div > 0:
        step = _ufunc(p.div_p, np.true_divide, delta, div)
        step_zero = _ufunc(p.eq_p, np.equal, step, 0)
        if step_zero.ndim:
            step_zero = wrap(bind(reduce_or_p, step_zero._value, axes=tuple(range(step_zero.ndim))))
        # when delta/div underflows to 0 (denormal deltas), NumPy scales y by 1/div first
        traced = type(step_zero._value) is Tracer
        if traced or bool(step_zero):
            by_div = _ufunc(p.mul_p, np.multiply, _ufunc(p.div_p, np.true_divide, y, div), delta)
        if traced or not bool(step_zero):
            by_step = _ufunc(p.mul_p, np.multiply, y, step)
        if traced:
            y = wrap(bind(p.select_p, step_zero._value, by_div._value, by_step._value))
        else:
            y = by_div if bool(step_zero) else by_step
    else:
        step = float("nan")
        y = _ufunc(p.mul_p, np.multiply, y, delta)
    if not _adds_nothing(start, delta):
        y = _ufunc(p.add_p, np.add, y, start)
    if endpoint and num > 1:
        y[-1, ...] = stop  # y is a fresh buffer: eager writes it, traced records the update
    if axis != 0:
        y = moveaxis(y, 0, axis)
    if integer_dtype:
        y = _ufunc(p.floor_p, np.floor, y)
    y = astype(y, dtype, copy=False)
    return (y, step) if retstep else y


def _adds_nothing(start, delta):
    """Whether adding `start` to the scaled ramp is exact to skip: an eager scalar +0.0 start with a
    positive delta (so no -0.0 in the ramp that the addition would turn into +0.0)."""
    s, d = start._value, delta._value
    if type(s) is Tracer or type(d) is Tracer or s.ndim or d.ndim or s.dtype.kind != "f":
        return False
    s, d = float(s), float(d)
    return s == 0 and math.copysign(1.0, s) > 0 and math.copysign(1.0, d) > 0


def _shape_of(x):
    return tuple(x.shape) if hasattr(x, "shape") else np.shape(x)


def logspace(
    start: ArrayLike,
    stop: ArrayLike,
    num: int = 50,
    endpoint: bool = True,
    base: ArrayLike = 10.0,
    dtype: DTypeLike = None,
    axis: int = 0,
) -> NDArray:
    """Return numbers spaced evenly on a log scale.

    Parameters
    ----------
    start : array_like
        ``base ** start`` is the starting value of the sequence.
    stop : array_like
        ``base ** stop`` is the final value of the sequence, unless `endpoint` is False.
    num : integer, optional
        Number of samples to generate; default 50.
    endpoint : bool, optional
        If True, `stop` is the last sample; otherwise it is not included.
    base : array_like, optional
        The base of the log space; default 10.0.
    dtype : dtype
        The type of the output array; inferred by default.
    axis : int, optional
        The axis in the result to store the samples; relevant only if start or stop are array-like.
        By default (0) the samples are along a new axis inserted at the beginning.

    Returns
    -------
    samples : ndarray
        `num` samples, equally spaced on a log scale.

    See Also
    --------
    numpy.logspace : The NumPy function this mirrors.
    linspace, geomspace, arange
    """
    if not isinstance(base, (float, int)) and len(_shape_of(base)):
        ndmax = len(np.broadcast_shapes(_shape_of(start), _shape_of(stop), _shape_of(base)))
        start, stop, base = (_ndmin(asarray(a), ndmax) for a in (start, stop, base))
        base = expand_dims(base, axis)
    y = linspace(start, stop, num=num, endpoint=endpoint, axis=axis)
    out = _ufunc(p.pow_p, np.power, base, y)
    return out if dtype is None else astype(out, dtype, copy=False)


def _ndmin(a, ndmin):
    return reshape(a, (1,) * (ndmin - a.ndim) + a.shape) if a.ndim < ndmin else a


def geomspace(
    start: ArrayLike,
    stop: ArrayLike,
    num: int = 50,
    endpoint: bool = True,
    dtype: DTypeLike = None,
    axis: int = 0,
) -> NDArray:
    """Return numbers spaced evenly on a log scale (a geometric progression).

    Parameters
    ----------
    start : array_like
        The starting value of the sequence.
    stop : array_like
        The final value of the sequence, unless `endpoint` is False.
    num : integer, optional
        Number of samples to generate; default 50.
    endpoint : bool, optional
        If True, `stop` is the last sample; otherwise it is not included.
    dtype : dtype
        The type of the output array; inferred from `start` and `stop` by default.
    axis : int, optional
        The axis in the result to store the samples; relevant only if start or stop are array-like.
        By default (0) the samples are along a new axis inserted at the beginning.

    Returns
    -------
    samples : ndarray
        `num` samples, equally spaced on a log scale.

    See Also
    --------
    numpy.geomspace : The NumPy function this mirrors.
    logspace, linspace, arange

    Notes
    -----
    The check that neither end is zero needs data; it is skipped for traced `start`/`stop`.
    """
    start = asarray(start)
    stop = asarray(stop)
    for x in (start, stop):
        # Note: the zero check needs data; it is skipped for traced start/stop.
        if type(x._value) is not Tracer and np.any(x._value == 0):
            raise ValueError("Geometric sequence cannot include zero")
    dt = result_type(start, stop, float(num), np.zeros((), dtype))
    dtype = dt if dtype is None else check_supported(dtype)
    start = astype(start, dt, copy=False)
    stop = astype(stop, dt, copy=False)
    out_sign = _ufunc(p.sign_p, np.sign, start)
    start = _ufunc(p.div_p, np.true_divide, start, out_sign)
    stop = _ufunc(p.div_p, np.true_divide, stop, out_sign)
    log_start = _ufunc(p.log10_p, np.log10, start)
    log_stop = _ufunc(p.log10_p, np.log10, stop)
    result = logspace(log_start, log_stop, num=num, endpoint=endpoint, base=10.0, dtype=dt)
    if num > 0:  # result is a fresh buffer: eager writes it, traced records the updates
        result[0] = start
        if num > 1 and endpoint:
            result[-1] = stop
    result = _ufunc(p.mul_p, np.multiply, result, out_sign)
    if axis != 0:
        result = moveaxis(result, 0, axis)
    return astype(result, dtype, copy=False)


__all__ = ["geomspace", "linspace", "logspace"]
