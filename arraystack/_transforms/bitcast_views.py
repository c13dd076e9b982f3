"""`x.view(dtype)` of a traced array: its bits read as another dtype (the bitcast primitive), as a view that
writes through to x as NumPy's does.

NumPy's view keeps the shape for a dtype of the same size; for another size it regroups the last axis
(n elements become n * r narrower ones, or n / r wider ones), which must then be contiguous in memory,
and a 0-d array refuses. The traced value's memory order is NumPy's (aliasing.layout_of), so NumPy's own
view of that layout gives the checks, their errors and the view's layout. The last axis is contiguous
there, so regrouping the traced value's last axis regroups the same bytes.
"""

from __future__ import annotations

import numpy as np

from arraystack._transforms import aliasing
from arraystack._transforms.traced_scalars import mark, marked_scalar
from arraystack.ir.core import active, bind, current_trace
from arraystack.ir.primitives import copy_p
from arraystack.ir.structural import bitcast_p, reshape_p


def _reinterpret(raw, source, target):
    """raw (of dtype `source`, any shape NumPy's view accepts) as `target`, regrouped as NumPy does."""
    shape = tuple(raw.shape)
    have, want = source.itemsize, target.itemsize
    if have == want:
        return bind(bitcast_p, raw, dtype=target)
    if have > want:  # (..., n) -> (..., n, r) -> (..., n * r)
        out = bind(bitcast_p, raw, dtype=target)
        return bind(reshape_p, out, new_sizes=shape[:-1] + (shape[-1] * (have // want),))
    r = want // have  # (..., n) -> (..., n / r, r) -> (..., n / r)
    grouped = bind(reshape_p, raw, new_sizes=shape[:-1] + (shape[-1] // r, r))
    return bind(bitcast_p, grouped, dtype=target)


def traced_view(x, dtype):
    """x.view(dtype) for an ndarray `x` holding a Tracer: the reinterpreted value, linked to x as a view
    (a write through either reaches the other)."""
    from arraystack._core.array import wrap

    value = x._value
    source, target = np.dtype(value.dtype), np.dtype(dtype)
    layout = aliasing.layout_of(x)
    new_layout = layout.view(target)  # NumPy's checks and errors (0-d, a last axis not contiguous ...)
    out = wrap(_reinterpret(value, source, target))
    if marked_scalar(x):  # NumPy's scalars have no views: a new value
        return mark(wrap(bind(copy_p, out._value)))
    if active.n and current_trace() is not None:
        aliasing.link(
            out,
            x,
            lambda b: _reinterpret(b, source, target),
            lambda b, v: _reinterpret(v, target, source),
            new_layout,
        )
    return out
