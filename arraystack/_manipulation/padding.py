"""numpy.pad: constant padding is the `pad` primitive; the other modes are slices, rev and concatenate,
axis by axis in NumPy's order (so corners come out as NumPy's, and reflections wider than the array
repeat the way NumPy's iterative padding does). Mirrors numpy/lib/_arraypad_impl.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from arraystack._core.array import ndarray, wrap
from arraystack._core.operands import convert_raw
from arraystack._core.overrides import defers_to_numpy
from arraystack._creation.basic import asarray, astype, copy
from arraystack._creation.filled import zeros
from arraystack._manipulation.reshaping import moveaxis, squeeze
from arraystack._math.elementwise import apply_ufunc
from arraystack._transforms import result_layouts
from arraystack.ir import primitives as p
from arraystack.ir.core import ConcretizationError, Tracer, bind, concretization_message
from arraystack.ir.structural import broadcast_in_dim_p, concatenate_p, pad_p, rev_p, slice_p

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from arraystack.typing import ArrayLike, NDArray

_ALLOWED_KWARGS = {
    "empty": [],
    "edge": [],
    "wrap": [],
    "constant": ["constant_values"],
    "linear_ramp": ["end_values"],
    "maximum": ["stat_length"],
    "mean": ["stat_length"],
    "median": ["stat_length"],
    "minimum": ["stat_length"],
    "reflect": ["reflect_type"],
    "symmetric": ["reflect_type"],
}
_STATISTICS = {"maximum": "max", "minimum": "min", "mean": "mean", "median": "median"}


def _as_pairs(x, ndim, as_index=False):
    """Broadcast `x` to ((before, after),) * ndim, exactly as NumPy's _as_pairs (scalars stay NumPy
    scalars for one or two values, and become Python numbers otherwise: that decides casting)."""
    if x is None:
        return ((None, None),) * ndim
    x = np.array(x)
    if as_index:
        x = np.round(x).astype(np.intp, copy=False)
    if x.ndim < 3:
        if x.size == 1:
            x = x.ravel()
            if as_index and x < 0:
                raise ValueError("index can't contain negative values")
            return ((x[0], x[0]),) * ndim
        if x.size == 2 and x.shape != (2, 1):
            x = x.ravel()
            if as_index and (x[0] < 0 or x[1] < 0):
                raise ValueError("index can't contain negative values")
            return ((x[0], x[1]),) * ndim
    if as_index and x.min() < 0:
        raise ValueError("index can't contain negative values")
    return np.broadcast_to(x, (ndim, 2)).tolist()


def _normalize_widths(pad_width, ndim):
    if isinstance(pad_width, dict):
        seq = [(0, 0)] * ndim
        for axis, width in pad_width.items():
            if isinstance(width, int):
                seq[axis] = (width, width)
            elif (
                isinstance(width, tuple)
                and len(width) == 2
                and all(isinstance(w, int) for w in width)
            ):
                seq[axis] = width
            else:
                raise AssertionError(f"Expected code to be unreachable, but got: {width!r}")
        pad_width = seq
    widths = np.asarray(pad_width)
    if widths.dtype.kind != "i":
        raise TypeError("`pad_width` must be of integral type.")
    return [(int(lo), int(hi)) for lo, hi in _as_pairs(widths, ndim, as_index=True)]


def _cast(value, dtype):
    """`value` as NumPy's `padded[area] = value` stores it (setitem casting and errors)."""
    cell = np.empty((), dtype)
    cell[()] = value
    return cell[()]


def _axis_slice(x, axis, start, stop):
    shape = x.shape
    starts = tuple(start if i == axis else 0 for i in range(len(shape)))
    limits = tuple(stop if i == axis else d for i, d in enumerate(shape))
    return bind(slice_p, x, start_indices=starts, limit_indices=limits, strides=(1,) * len(shape))


def _stretch(x, axis, width):
    """A size-1 slice along `axis` repeated `width` times."""
    shape = tuple(width if i == axis else d for i, d in enumerate(x.shape))
    return bind(broadcast_in_dim_p, x, shape=shape, broadcast_dimensions=tuple(range(len(shape))))


def _join(axis, left, middle, right):
    parts = [x for x in (left, middle, right) if x is not None]
    return parts[0] if len(parts) == 1 else bind(concatenate_p, *parts, dimension=axis)


# NumPy's pad allocates in Fortran's order for a Fortran-ordered array (not C's too), else in C's
_in_pad_order = result_layouts.by_source_order


@defers_to_numpy
def pad(
    array: ArrayLike,
    pad_width: Any,
    mode: str | Callable[..., Any] = "constant",
    **kwargs: Any,
) -> NDArray:
    """Pad an array.

    Parameters
    ----------
    array : array_like of rank N
        The array to pad.
    pad_width : {sequence, array_like, int, dict}
        Number of values padded to the edges of each axis: ``((before_1, after_1), ... (before_N,
        after_N))``, one pair for all axes, one int for all, or a dict from axis to width.
    mode : str or function, optional
        One of 'constant' (default), 'edge', 'linear_ramp', 'maximum', 'mean', 'median', 'minimum',
        'reflect', 'symmetric', 'wrap', 'empty', or a function ``padding_func(vector,
        iaxis_pad_width, iaxis, kwargs)``.
    **kwargs
        The mode's keywords: `constant_values` ('constant'), `end_values` ('linear_ramp'),
        `stat_length` ('maximum', 'mean', 'median', 'minimum') and `reflect_type` ('reflect',
        'symmetric'). Others raise ValueError.

    Returns
    -------
    pad : ndarray
        Padded array of rank equal to `array` with shape increased according to `pad_width`.

    See Also
    --------
    numpy.pad : The NumPy function this mirrors.
    concatenate

    Notes
    -----
    Mode 'empty' pads with zeros (NumPy leaves the pad area uninitialized).
    """
    array = asarray(array)
    widths = _normalize_widths(pad_width, array.ndim)
    if callable(mode):
        return _in_pad_order(array, _pad_with_function(array, widths, mode, kwargs))
    try:
        unsupported = set(kwargs) - set(_ALLOWED_KWARGS[mode])
    except (KeyError, TypeError):
        raise ValueError(f"mode '{mode}' is not supported") from None
    if unsupported:
        raise ValueError(f"unsupported keyword arguments for mode '{mode}': {unsupported}")
    if mode in ("constant", "empty"):
        # Note: mode 'empty' pads with zeros (NumPy leaves the pad area uninitialized).
        return _in_pad_order(array, _pad_constant(array, widths, kwargs.get("constant_values", 0)))
    if array.size == 0:
        for axis, pair in enumerate(widths):
            if array.shape[axis] == 0 and any(pair):
                raise ValueError(
                    f"can't extend empty axis {axis} using modes other than 'constant' or 'empty'"
                )
        padded = tuple(d + lo + hi for d, (lo, hi) in zip(array.shape, widths))
        return _in_pad_order(array, zeros(padded, array.dtype))
    out = array._value
    if mode == "edge":
        for axis, (lo, hi) in enumerate(widths):
            out = _pad_edge(out, axis, lo, hi)
    elif mode in ("reflect", "symmetric"):
        odd = kwargs.get("reflect_type", "even") == "odd"
        for axis, (lo, hi) in enumerate(widths):
            period = array.shape[axis]
            if period == 1:  # NumPy's legacy behaviour: a singleton axis is extended by its edge
                out = _pad_edge(out, axis, lo, hi)
                continue
            while lo > 0 or hi > 0:
                out, lo, hi = _reflect_step(out, axis, lo, hi, odd, period, mode == "symmetric")
    elif mode == "wrap":
        for axis, (lo, hi) in enumerate(widths):
            period = array.shape[axis]
            while lo > 0 or hi > 0:
                out, lo, hi = _wrap_step(out, axis, lo, hi, period)
    elif mode == "linear_ramp":
        ends = _as_pairs(kwargs.get("end_values", 0), array.ndim)
        for axis, (lo, hi) in enumerate(widths):
            out = _pad_ramp(out, axis, lo, hi, ends[axis], array.dtype)
    else:
        lengths = _as_pairs(kwargs.get("stat_length"), array.ndim, as_index=True)
        for axis, (lo, hi) in enumerate(widths):
            out = _pad_stat(out, axis, lo, hi, lengths[axis], mode, array.dtype)
    return _in_pad_order(array, copy(array) if out is array._value else wrap(out))



def _pad_constant(array, widths, constant_values):
    dtype = array.dtype
    config = tuple((lo, hi, 0) for lo, hi in widths)
    if isinstance(constant_values, ndarray) and type(constant_values._value) is Tracer:
        if constant_values.ndim:
            raise ConcretizationError(
                concretization_message(
                    "pad(constant_values=...) got",
                    constant_values._value.aval,
                    "Per-axis constant values must be concrete; a traced scalar is accepted.",
                )
            )
        value = convert_raw(constant_values._value, dtype)
        return wrap(bind(pad_p, array._value, value, padding_config=config))
    values = [
        (_cast(lo, dtype), _cast(hi, dtype)) for lo, hi in _as_pairs(constant_values, array.ndim)
    ]
    flat = {v.tobytes() for pair in values for v in pair}
    if len(flat) <= 1:
        value = values[0][0] if values else _cast(0, dtype)
        return wrap(bind(pad_p, array._value, value, padding_config=config))
    out = array._value
    for axis, ((lo, hi), (before, after)) in enumerate(zip(widths, values)):
        for width_config, value in (((lo, 0, 0), before), ((0, hi, 0), after)):
            if width_config[0] or width_config[1]:
                axis_config = tuple(
                    width_config if i == axis else (0, 0, 0) for i in range(len(widths))
                )
                out = bind(pad_p, out, value, padding_config=axis_config)
    return copy(array) if out is array._value else wrap(out)


def _pad_edge(x, axis, lo, hi):
    if not (lo or hi):
        return x
    n = x.shape[axis]
    left = _stretch(_axis_slice(x, axis, 0, 1), axis, lo) if lo else None
    right = _stretch(_axis_slice(x, axis, n - 1, n), axis, hi) if hi else None
    return _join(axis, left, x, right)


def _odd(chunk, edge, dtype):
    """NumPy's odd reflection 2*edge - chunk, stored back in the array's dtype."""
    twice = apply_ufunc(p.mul_p, np.multiply, (2, wrap(edge)))
    return astype(apply_ufunc(p.sub_p, np.subtract, (twice, wrap(chunk))), dtype, copy=False)._value


def _reflect_step(x, axis, lo, hi, odd, period, include_edge):
    """One round of NumPy's _set_reflect_both on the filled region `x` (pad areas lo and hi still empty)."""
    n = x.shape[axis]
    if include_edge:
        old_length = n // period * period
        edge_offset = 1
    else:
        old_length = (n - 1) // (period - 1) * (period - 1)
        edge_offset = 0
    left = right = None
    if lo > 0:
        chunk = min(old_length, lo)
        left = bind(
            rev_p,
            _axis_slice(x, axis, 1 - edge_offset, chunk + 1 - edge_offset),
            dimensions=(axis,),
        )
        if odd:
            left = _odd(left, _axis_slice(x, axis, 0, 1), x.dtype)
        lo -= chunk
    if hi > 0:
        chunk = min(old_length, hi)
        stop = n - 1 + edge_offset
        right = bind(rev_p, _axis_slice(x, axis, stop - chunk, stop), dimensions=(axis,))
        if odd:
            right = _odd(right, _axis_slice(x, axis, n - 1, n), x.dtype)
        hi -= chunk
    return _join(axis, left, x, right), lo, hi


def _wrap_step(x, axis, lo, hi, original_period):
    """One round of NumPy's _set_wrap_both on the filled region `x`."""
    n = x.shape[axis]
    period = n // original_period * original_period
    left = right = None
    new_lo = new_hi = 0
    if lo > 0:
        left = _axis_slice(x, axis, period - min(period, lo), period)
        new_lo = max(lo - period, 0)
    if hi > 0:
        right = _axis_slice(x, axis, n - period, n - period + min(period, hi))
        new_hi = max(hi - period, 0)
    return _join(axis, left, x, right), new_lo, new_hi


def _pad_ramp(x, axis, lo, hi, ends, dtype):
    from arraystack._creation.ranges import linspace
    from arraystack._manipulation.rearranging import flip

    if not (lo or hi):
        return x
    n = x.shape[axis]
    left = right = None
    if lo:
        edge = squeeze(wrap(_axis_slice(x, axis, 0, 1)), axis)
        left = linspace(ends[0], edge, num=lo, endpoint=False, dtype=dtype, axis=axis)._value
    if hi:
        edge = squeeze(wrap(_axis_slice(x, axis, n - 1, n)), axis)
        ramp = linspace(ends[1], edge, num=hi, endpoint=False, dtype=dtype, axis=axis)
        right = flip(ramp, axis)._value
    return _join(axis, left, x, right)


def _statistic(mode, chunk, axis, dtype):
    import arraystack

    fn = getattr(arraystack, _STATISTICS[mode], None)
    if fn is None:
        raise NotImplementedError(f"pad mode '{mode}' needs arraystack.{_STATISTICS[mode]}")
    stat = fn(wrap(chunk), axis=axis, keepdims=True)
    if dtype.kind in "iu" and stat.dtype.kind == "f":
        stat = wrap(bind(p.rint_p, stat._value))  # NumPy's _round_if_needed
    return astype(stat, dtype, copy=False)._value


def _pad_stat(x, axis, lo, hi, lengths, mode, dtype):
    n = x.shape[axis]
    left_length, right_length = lengths
    left_length = n if left_length is None or n < left_length else int(left_length)
    right_length = n if right_length is None or n < right_length else int(right_length)
    if (left_length == 0 or right_length == 0) and mode in ("maximum", "minimum"):
        raise ValueError("stat_length of 0 yields no value for padding")
    if not (lo or hi):
        return x
    left_stat = _statistic(mode, _axis_slice(x, axis, 0, left_length), axis, dtype)
    if left_length == right_length == n:
        right_stat = left_stat
    else:
        right_stat = _statistic(mode, _axis_slice(x, axis, n - right_length, n), axis, dtype)
    left = _stretch(left_stat, axis, lo) if lo else None
    right = _stretch(right_stat, axis, hi) if hi else None
    return _join(axis, left, x, right)


def _pad_with_function(array, widths, function, kwargs):
    """NumPy's callable mode: `function(vector, (before, after), axis, kwargs)` fills each 1-D vector of
    a zero-padded array in place. Eager only: it writes the buffer."""
    padded = _pad_constant(array, widths, 0)
    value = padded._value
    if type(value) is Tracer:
        raise ConcretizationError(
            concretization_message(
                "pad with a callable mode was called on",
                value.aval,
                "The function writes the padded array in place, which needs concrete data.",
            )
        )
    for axis in range(value.ndim):
        view = moveaxis(padded, axis, -1)._value
        for index in np.ndindex(view.shape[:-1]):
            function(wrap(view[index + (Ellipsis,)]), widths[axis], axis, kwargs)
    return padded


__all__ = ["pad"]
