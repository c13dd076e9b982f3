"""The memory order NumPy gives the result of an iteration over some of its operands' axes: a reduction
keeps the order its kept axes have in the operand, a generalized ufunc orders its loop axes by the
operands' strides and keeps its core axes innermost (nditer's order 'K' over those axes: result_layouts.py
has the rule, `k_order_strides`). Eagerly a result is put in a buffer of that order, while tracing the
order is recorded.
"""

from __future__ import annotations

import functools

import numpy as np

from arraystack._transforms.aliasing import layout_of, view_writeable
from arraystack._transforms.result_layouts import (
    contiguous_strides,
    in_strides,
    k_order_strides,
    operand_layout,
)
from arraystack.ir.core import Tracer, active


def reduced(a, axis, result):
    """`result`, a reduction of `a` over `axis` (None: all axes), with or without the reduced axes
    kept, in NumPy's memory order: NumPy's iterator allocates it in order 'K', so its axes keep
    their order in `a`. Eagerly in a buffer of that order, while tracing recorded."""
    from numpy.lib.array_utils import normalize_axis_tuple

    value = getattr(result, "_value", None)
    layout = operand_layout(a)
    if (
        type(value) not in (Tracer, np.ndarray)
        or len(value.shape) < 2
        or 0 in value.shape
        or layout is None
        or layout.flags.c_contiguous
        or (type(value) is Tracer and view_writeable(result) is not None)
    ):
        return result
    ndim, shape = layout.ndim, tuple(value.shape)
    if len(shape) == ndim:  # the reduced axes kept, of length 1
        kept = list(range(ndim))
    else:
        try:
            axes = range(ndim) if axis is None else normalize_axis_tuple(axis, ndim)
        except (TypeError, ValueError):
            return result
        kept = [k for k in range(ndim) if k not in axes]
    if len(kept) != len(shape):
        return result
    itemsize = np.dtype(value.dtype).itemsize
    full = k_order_strides([(layout.shape, layout.strides)], layout.shape, itemsize)
    order = sorted(range(len(kept)), key=lambda i: full[kept[i]])  # the fastest axis first
    strides = contiguous_strides(order, shape, itemsize)
    return in_strides(result, shape, strides)


def keeps_operand_order(axis_at: int = 1, eager: bool = False):
    """Decorate a reduction `f(a, ..., axis, ...)` (`axis` the positional argument at `axis_at`)
    so that its result made while tracing has NumPy's memory order (`reduced`); `eager`: also an
    eager result (where the function does not compute it with NumPy's own reduction)."""

    def decorate(function):
        @functools.wraps(function)
        def reduction(*args, **kwargs):
            if not active.n and not eager:
                return function(*args, **kwargs)
            result = function(*args, **kwargs)
            value = getattr(result, "_value", None)
            if not active.n and (type(value) is not np.ndarray or value.ndim < 2):
                return result
            if kwargs.get("out") is not None or any(result is v for v in args):
                return result  # written into an array given
            a = args[0] if args else kwargs.get("a", kwargs.get("x"))
            axis = args[axis_at] if len(args) > axis_at else kwargs.get("axis")
            return reduced(a, axis, result)

        return reduction

    return decorate


def looped(operands, result, cores=(1, 1), out_core: int = 0):
    """`result` of a generalized ufunc in NumPy's memory order (vecdot "(n),(n)->()", matvec
    "(m,n),(n)->(m)"): operand i's last `cores[i]` axes are its core, the result's last `out_core`.
    NumPy's iterator orders the loop axes by the operands' strides (nditer's rule) and keeps the
    result's core axes innermost, in C's order. Eagerly in a buffer of that order, while tracing
    recorded."""
    value = result._value
    shape = tuple(getattr(value, "shape", ()))
    if len(shape) < 2 or 0 in shape:
        return result
    loop, core = shape[: len(shape) - out_core], shape[len(shape) - out_core :]
    pairs = []
    for a, c in zip(operands, cores):
        if a.ndim - c >= 2:
            layout = layout_of(a)
            pairs.append((layout.shape[: a.ndim - c], layout.strides[: a.ndim - c]))
    itemsize = np.dtype(value.dtype).itemsize
    inner = contiguous_strides(range(len(core) - 1, -1, -1), core, itemsize)
    strides = k_order_strides(pairs, loop, itemsize * int(np.prod(core))) + inner
    return in_strides(result, shape, strides)
