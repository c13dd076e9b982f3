"""Printing arrays (mirrors NumPy's array2string/array_repr/array_str and its print options).

ndarray.__repr__ and __str__ print through numpy.array_repr/array_str, so NumPy's print options are the
options: set_printoptions, get_printoptions and printoptions are NumPy's own, re-exported. A traced value
has no digits to print: it prints as its type, `traced f64[3]`, the way ndarray.__str__ shows it.
"""

from __future__ import annotations

import numpy as np

from arraystack._array import ndarray
from arraystack.ir.core import Tracer

set_printoptions = np.set_printoptions
get_printoptions = np.get_printoptions
printoptions = np.printoptions


def _traced(a):
    return isinstance(a, ndarray) and type(a._value) is Tracer


def _host(a):
    return a._value if isinstance(a, ndarray) else a


def array2string(a, *args, **kwargs):
    """Mirrors numpy.array2string (same arguments)."""
    if _traced(a):
        return str(a)
    return np.array2string(_host(a), *args, **kwargs)


def array_repr(arr, max_line_width=None, precision=None, suppress_small=None):
    """Mirrors numpy.array_repr."""
    if _traced(arr):
        return repr(arr)
    return np.array_repr(_host(arr), max_line_width, precision, suppress_small)


def array_str(a, max_line_width=None, precision=None, suppress_small=None):
    """Mirrors numpy.array_str."""
    if _traced(a):
        return str(a)
    return np.array_str(_host(a), max_line_width, precision, suppress_small)


def format_float_positional(x, *args, **kwargs):
    """Mirrors numpy.format_float_positional (a Python or NumPy scalar, or a 0-d concrete array)."""
    return np.format_float_positional(_scalar(x), *args, **kwargs)


def format_float_scientific(x, *args, **kwargs):
    """Mirrors numpy.format_float_scientific."""
    return np.format_float_scientific(_scalar(x), *args, **kwargs)


def _scalar(x):
    if isinstance(x, ndarray):
        return x._scalar("formatting a float")[()]
    return x


__all__ = [
    "array2string",
    "array_repr",
    "array_str",
    "format_float_positional",
    "format_float_scientific",
    "get_printoptions",
    "printoptions",
    "set_printoptions",
]
