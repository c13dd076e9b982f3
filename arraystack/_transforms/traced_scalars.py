"""NumPy scalars while tracing: which traced 0-d arrays stand for values that NumPy holds as scalars.

Eager arraystack computes with NumPy, so where NumPy gives a scalar (a ufunc of 0-d operands, a full
reduction, an integer index naming every axis, dot of two vectors ...) the eager array holds that NumPy
scalar (a *scalar result*, see arraystack._core.array.wrap). NumPy's scalars are immutable: `s += 1`
rebinds s to a new value, leaving other names of the old one alone and taking the promoted dtype (a bool
scalar += 1 is an int64), a view of a scalar is a new array that writes do not carry back, and
`s[...] = v` raises TypeError. Their arithmetic is NumPy's scalar math, which differs from the 0-d array
loops in one place: a bool scalar ** a Python int is an int64 (a 0-d bool array's is int8).

A traced array holds a Tracer whatever NumPy would hold, and an array on a device holds that device's
0-d array (cupy has no scalars), so the operations that give NumPy scalars mark such 0-d results here
(`mark`), and `holds_scalar` answers for eager, device and traced arrays alike: the in-place operators,
`**`, item assignment and the tracking of views (aliasing.py) consult it.
"""

from __future__ import annotations

import weakref

import numpy as np

from arraystack.ir.core import Tracer, device_namespaces

_marks: dict[int, weakref.ref] = {}  # id(array) -> weak reference to it: the traced scalar results


def _forget(ref, key) -> None:
    if _marks.get(key) is ref:
        del _marks[key]


def mark(x):
    """Record x (an ndarray holding a Tracer or a device's array) as a value NumPy holds as a scalar,
    when it is 0-d and not the trace of a Python scalar (those are weakly typed, see
    operands.is_weak); returns x."""
    value = x._value
    t = type(value)
    if t is Tracer:
        aval = value.var.aval
        scalar = not aval.shape and not aval.weak_type
    else:
        scalar = t in device_namespaces and not value.shape
    if scalar:
        key = id(x)
        _marks[key] = weakref.ref(x, lambda ref, k=key: _forget(ref, k))
    return x


def holds_scalar(x) -> bool:
    """Whether NumPy holds x's value as a scalar: an eager NumPy scalar, or a marked value."""
    value = x._value
    if isinstance(value, np.generic):
        return True
    ref = _marks.get(id(x))
    return ref is not None and ref() is x


def marked_scalar(x) -> bool:
    """Whether x holds a Tracer or a device's array that NumPy would hold as a scalar."""
    ref = _marks.get(id(x))
    return ref is not None and ref() is x
