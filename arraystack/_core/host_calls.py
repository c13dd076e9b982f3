"""Concrete calls of NumPy's own implementation, shared by the families added for NumPy breadth
(_manipulation/editing.py, _creation/assembly.py, _manipulation/writes.py, _math/bit_packing.py,
...).

When no argument holds a traced value or a device buffer, those functions hand NumPy the host buffers,
so values, dtypes, views, warnings and error messages are NumPy's by construction; otherwise they run
their composition of arraystack functions, which traces (and which the tests check against NumPy).
"""

from __future__ import annotations

import numpy as np

from arraystack._core.array import ndarray, wrap
from arraystack.ir.core import Tracer, active

_SEQUENCES = (list, tuple)


class _Traced(Exception):
    """An argument holds a traced value or a device buffer (internal signal, never escapes)."""


def _host(x):
    if isinstance(x, ndarray):
        value = x._value
        if type(value) is not np.ndarray and not isinstance(value, np.generic):
            raise _Traced
        return value
    if type(x) is Tracer:
        raise _Traced
    if type(x) in _SEQUENCES:
        return type(x)(_host(item) for item in x)
    return x


def host_arguments(*args, in_trace=False):
    """`args` with every arraystack array (also inside lists and tuples) replaced by its NumPy buffer,
    or None when one holds a traced value or a device buffer, or (unless `in_trace`) a trace is active.

    `in_trace=True` is for functions with no traced form (data-dependent results): concrete
    arguments inside a trace are still computed, as constants."""
    if active.n and not in_trace:
        return None
    try:
        return [_host(a) for a in args]
    except _Traced:
        return None


def wrap_result(value):
    """NumPy results as arraystack values: arrays and NumPy scalars become arrays (a view stays a view
    of the same buffer); tuples and lists are mapped; other objects pass through."""
    if isinstance(value, (np.ndarray, np.generic)):
        return wrap(value)
    if type(value) in _SEQUENCES:
        return type(value)(wrap_result(v) for v in value)
    return value
