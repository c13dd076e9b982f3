"""Numerical ranges: arange (and iota) computed the way NumPy computes them; linspace, logspace and
geomspace following numpy/_core/function_base.py.

arange's length and dtype follow NumPy's C implementation (PyArray_ArangeObj): the first two elements are
`start` and `start + step` cast to the dtype, and element i is `start + i*delta` in the dtype, where
delta is their difference.
"""

from __future__ import annotations

import math
import operator
from typing import TYPE_CHECKING

import numpy as np

from arraystack._core.array import _make, ndarray, wrap
from arraystack._core.dtypes import (
    check_array_dtype,
    check_supported,
    fast_dtype,
    host_dtype,
    result_type,
    values_result_type,
)
from arraystack._core import devices as _devices
from arraystack._creation.basic import _placed, asarray, astype
from arraystack._creation.filled import zeros
from arraystack._manipulation.reshaping import expand_dims, moveaxis, reshape
from arraystack._math.elementwise import apply_ufunc
from arraystack._transforms import result_layouts
from arraystack.ir import primitives as p
from arraystack.ir.core import Tracer, active, bind, is_tracing
from arraystack.ir.structural import concatenate_p, full_p, reduce_or_p, slice_p
from arraystack._core.overrides import defers_to_numpy

if TYPE_CHECKING:
    from typing import Any
    from arraystack.typing import ArrayLike, DTypeLike, NDArray, ScalarLike

_INTP_LIMIT = float(2**63)
_INT64 = np.dtype(np.int64)
_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1
_INT_OR_NONE = (int, type(None))
_BOOL_ARANGE = "arange() is only supported for booleans when the result has at most length 2."


def _ufunc(prim, ufunc, *args, dtype=None):
    """The ufunc applied with NumPy's promotion: eagerly straight through bind (the reference rule is the
    ufunc itself), traced through apply_ufunc's strict operands."""
    if dtype is None and not is_tracing():
        return wrap(bind(prim, *[a._value if type(a) is ndarray else a for a in args]))
    return apply_ufunc(prim, ufunc, args, dtype=dtype)


def iota(dtype, shape, dimension=0) -> ndarray:
    """0, 1, 2, ... along `dimension` of `shape`, as NumPy's arange(n, dtype=dtype) gives them."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b" and shape[dimension] > 2:
        raise TypeError(_BOOL_ARANGE)
    if dtype.kind in "iu" and dtype.itemsize < 8 or dtype.kind in "bc":
        # Note: small integer types wrap exactly as NumPy's arange fill does; building them from an
        # int64 (float, for complex) iota keeps the IR's iota to well-defined ranges.
        work = np.dtype(np.int64 if dtype.kind in "iub" else _component(dtype))
        return astype(iota(work, shape, dimension), dtype)
    return wrap(bind(p.iota_p, dtype=dtype, shape=tuple(shape), dimension=dimension))


def _component(dtype):
    return np.dtype(np.float32 if dtype == np.complex64 else np.float64)


# -- arange ---------------------------------------------------------------------------------------------------


def _concrete(x):
    """An arange argument as a NumPy/Python scalar; a traced value raises ConcretizationError."""
    if isinstance(x, ndarray) or type(x) is Tracer:
        return np.asarray(x)
    return x


def _ceil_length(value):
    if math.isnan(value):
        raise ValueError("arange: cannot compute length")
    if not -_INTP_LIMIT <= value <= _INTP_LIMIT:
        raise OverflowError("arange: overflow while computing length")
    return math.ceil(value)


def _arange_length(start, stop, step, is_complex):
    """NumPy's _calc_length: ceil((stop - start) / step), with Python's (or NumPy scalars') arithmetic."""
    try:
        span = stop - start
    except TypeError:
        if isinstance(stop, tuple):
            raise TypeError("arange: scalar arguments expected instead of a tuple.") from None
        raise
    span_nonzero = bool(span != 0)
    val = span / step
    val_is_zero = bool(val == 0)
    if is_complex and isinstance(val, complex):
        return min(_ceil_length(val.real), _ceil_length(val.imag))
    value = float(val)
    if val_is_zero and span_nonzero:  # underflow, or division by inf
        return 0 if math.copysign(1.0, value) < 0 else 1
    return _ceil_length(value)


_PLAIN = (int, float, type(None))  # arange arguments NumPy's own arange reads as the composition does
_NUMBERS = (int, float)


def arange(
    start: ScalarLike | None = None,
    stop: ScalarLike | None = None,
    step: ScalarLike | None = None,
    dtype: DTypeLike = None,
    *,
    device: object | None = None,
    like: ArrayLike | None = None,
) -> NDArray:
    """Return evenly spaced values within a given interval.

    ``arange(stop)``, ``arange(start, stop)`` or ``arange(start, stop, step)``: values in the
    half-open interval ``[start, stop)``.

    Parameters
    ----------
    start : integer or real, optional
        Start of interval; default 0. With a single positional argument, it is `stop`.
    stop : integer or real
        End of interval; the interval does not include this value (except in some floating point
        cases).
    step : integer or real, optional
        Spacing between values; default 1.
    dtype : dtype, optional
        The type of the output array; inferred from the other arguments by default.
    device : str or Device, optional
        The device on which to place the created array (Array API); 'cpu' or None.
    like : array_like, optional
        Accepted for NumPy compatibility (NEP 35) and ignored.

    Returns
    -------
    arange : ndarray
        Array of evenly spaced values; its length is ``ceil((stop - start) / step)``.

    See Also
    --------
    numpy.arange : The NumPy function this mirrors.
    linspace, geomspace, logspace

    Notes
    -----
    ``arange(start=5)`` (a keyword `start` alone) counts as ``arange(5)``; NumPy raises TypeError.
    Small integer dtypes wrap exactly as NumPy's arange fill does. The arguments must be concrete
    (the length depends on them).
    """
    if (
        not active.n
        and type(start) in _PLAIN
        and type(stop) in _PLAIN
        and type(step) in _PLAIN
        and (dtype is None or fast_dtype(dtype) is not None)
        and start is not None
        and device is None
        and not _devices.elsewhere[0]
    ):  # eager, Python numbers: NumPy's own arange, which the composition below reproduces exactly
        return _make(np.arange(start, stop, step, dtype))
    # Note: arange(start=5) (a keyword start alone) counts as arange(5); NumPy raises TypeError.
    if start is None and stop is None:
        raise TypeError("arange() requires stop to be specified.")
    target = _placed(device)
    if target is not None:
        return _devices.create_on(target, arange, start, stop, step, dtype)
    if (
        dtype is None
        and type(start) is int
        and type(stop) in _INT_OR_NONE
        and type(step) in _INT_OR_NONE
    ):
        out = _arange_int(start, stop, step)
        if out is not None:
            return out
    start, stop, step = _concrete(start), _concrete(stop), _concrete(step)
    given = [v for v in (start, stop, step) if v is not None]
    if (dtype is not None and host_dtype(dtype, "arange")) or any(map(_is_host_value, given)):
        out = np.arange(start, stop, step, dtype=dtype)  # datetimes and timedeltas: NumPy's own
        check_array_dtype(out.dtype, "arange")  # inside a trace: a HostDtypeError
        return wrap(out)
    if dtype is None:
        dtype = _arange_dtype(given)
    dtype = check_supported(dtype)
    if stop is None:
        start, stop = 0, start
    elif start is None:
        start = 0
    step = 1 if step is None else step
    try:
        n = max(_arange_length(start, stop, step, dtype.kind == "c"), 0)
    except OverflowError:
        raise ValueError("Maximum allowed size exceeded") from None
    if n == 0:
        return zeros((0,), dtype)
    if dtype.kind == "b" and n > 2:
        raise TypeError(_BOOL_ARANGE)
    head = np.empty(min(n, 2), dtype)
    head[0] = start  # NumPy's setitem: its casting and its OverflowError for out-of-range ints
    if n > 1:
        head[1] = start + step
    if n <= 2:
        return _from_scalars(head)
    return _arange_fill(head, n)


def _is_host_value(value) -> bool:
    """A bound of a datetime or timedelta range: a string, a datetime64/timedelta64 scalar or array."""
    if isinstance(value, (str, bytes)):
        return True
    dtype = getattr(value, "dtype", None)
    return dtype is not None and dtype.kind in "mM"


def _arange_dtype(given):
    """NumPy's arange dtype: at least intp, promoted with each argument's own (array) dtype."""
    if all(type(v) is float or type(v) is int and _INT64_MIN <= v <= _INT64_MAX for v in given):
        return np.dtype(np.float64 if float in map(type, given) else np.int64)
    return np.result_type(np.intp, *(np.asarray(v).dtype for v in given))


def _arange_int(start, stop, step):
    """arange of Python ints (the common case): exact integer length, start + i*step in int64."""
    if stop is None:
        start, stop = 0, start
    step = 1 if step is None else step
    if step == 0:
        raise ZeroDivisionError("division by zero")
    if not (_INT64_MIN <= start <= _INT64_MAX and _INT64_MIN <= stop <= _INT64_MAX):
        return None
    if abs(stop - start) >= 2**53:  # NumPy's float64 length arithmetic would round here
        return None
    n = len(range(start, stop, step))
    out = bind(p.iota_p, dtype=_INT64, shape=(n,), dimension=0)
    if step != 1:
        out = bind(p.mul_p, out, _INT64.type(step))
    if start != 0:
        out = bind(p.add_p, out, _INT64.type(start))
    return wrap(out)


def _from_scalars(values):
    parts = [bind(full_p, v, shape=(1,), dtype=values.dtype) for v in values]
    return wrap(parts[0] if len(parts) == 1 else bind(concatenate_p, *parts, dimension=0))


def _arange_fill(head, n):
    """Elements 2..n-1 as NumPy's `fill` computes them: start + i*delta in the dtype."""
    dtype = head.dtype
    if dtype.kind in "iu":
        work = np.dtype(np.uint64 if dtype == np.uint64 else np.int64)
        delta = (head[1:] - head[:1]).astype(work)[0]  # wraps in the dtype, as C does
        return _affine(iota(work, (n,)), work.type(head[0]), delta, dtype)
    with np.errstate(all="ignore"):
        if dtype.kind == "c":
            comp = _component(dtype)
            start, delta = head[0], head[1] - head[0]
            ramp = iota(comp, (n,))
            re = astype(_affine(ramp, start.real, delta.real, comp, (True, True)), dtype)
            im = astype(_affine(ramp, start.imag, delta.imag, comp, (True, True)), dtype)
            vals = _ufunc(p.add_p, np.add, re, _ufunc(p.mul_p, np.multiply, im, dtype.type(1j)))
            return _fix_head(vals, head, n)
    return _arange_floats(head, n)


def _arange_floats(head, n):
    dtype = head.dtype
    comp = np.dtype(np.float32) if dtype == np.float16 else dtype  # HALF_fill works in float
    if comp == np.float64:  # Python floats are IEEE doubles: the same arithmetic, cheaper
        start = float(head[0])
        delta = float(head[1]) - start
    else:
        start = comp.type(head[0])
        with np.errstate(all="ignore"):
            delta = comp.type(head[1]) - start
    scale, shift = _affine_steps(start, delta)
    out = _affine(iota(comp, (n,)), start, delta, dtype, (scale, shift))
    with np.errstate(all="ignore"):  # the first two values the graph computes, to compare
        candidate = [i * delta if scale else i for i in (0.0, 1.0)]
        candidate = np.array([c + start if shift else c for c in candidate], comp).astype(dtype)
    if candidate.tobytes() != head.tobytes():
        return _fix_head(out, head, n)
    return out


def _affine_steps(start, delta):
    """Whether `* delta` and `+ start` change a ramp 0, 1, 2, ...: skipping them when not is exact
    (adding +0 is skipped only if no -0 can reach it)."""
    scale = bool(delta != 1)
    positive_zero = start == 0 and math.copysign(1.0, start) > 0
    shift = not (positive_zero and (not scale or math.copysign(1.0, delta) > 0))
    return scale, shift


def _affine(ramp, start, delta, dtype, steps=None):
    scale, shift = _affine_steps(start, delta) if steps is None else steps
    out = ramp
    if scale:
        out = wrap(bind(p.mul_p, out._value, delta))
    if shift:
        out = wrap(bind(p.add_p, out._value, start))
    return astype(out, dtype, copy=False)


def _fix_head(vals, head, n):
    """`vals` with its first two elements replaced by `head` (NumPy stores them, it never computes them)."""
    parts = [bind(full_p, v, shape=(1,), dtype=head.dtype) for v in head]
    tail = bind(slice_p, vals._value, start_indices=(2,), limit_indices=(n,), strides=(1,))
    return wrap(bind(concatenate_p, *parts, tail, dimension=0))


# -- sampled spaces: linspace, logspace, geomspace -------------------------------------------------


@defers_to_numpy
@_devices.constants_on_operand_device
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
        and not _devices.elsewhere[0]
    ):  # eager, Python numbers: NumPy's own linspace, which the composition below reproduces
        return _make(np.linspace(start, stop, num, endpoint, dtype=dtype))
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    target = _placed(device)
    if target is not None:
        return _devices.create_on(target, linspace, start, stop, num, endpoint, retstep, dtype, axis)
    div = (num - 1) if endpoint else num
    dt = values_result_type(start, stop)  # Python scalars weak, as in NumPy's _array_converter
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
            result_layouts.elementwise((by_step,), (y,))  # NumPy's y is one of the two
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


@defers_to_numpy
@_devices.constants_on_operand_device
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


@defers_to_numpy
@_devices.constants_on_operand_device
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


__all__ = ["arange", "geomspace", "linspace", "logspace"]
