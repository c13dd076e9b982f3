"""Printing arrays (mirrors NumPy's array2string/array_repr/array_str and its print options).

ndarray.__repr__ and __str__ print through numpy.array_repr/array_str, so NumPy's print options are the
options: set_printoptions, get_printoptions and printoptions are NumPy's own, re-exported. A traced value
has no digits to print: it prints as its type, `traced f64[3]`, the way ndarray.__str__ shows it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from arraystack._core.array import ndarray
from arraystack._core.overrides import defers_to_numpy
from arraystack.ir.core import Tracer

if TYPE_CHECKING:
    from typing import Any

    from arraystack.typing import ArrayLike, NDArray, ScalarLike

set_printoptions = np.set_printoptions
get_printoptions = np.get_printoptions
printoptions = np.printoptions


def _traced(a):
    return isinstance(a, ndarray) and type(a._value) is Tracer


def _host(a):
    return a._value if isinstance(a, ndarray) else a


@defers_to_numpy
def array2string(a: ArrayLike, *args: Any, **kwargs: Any) -> str:
    """Return a string representation of an array.

    Parameters
    ----------
    a : ndarray
        Input array.
    *args
        NumPy's positional arguments (max_line_width, precision, suppress_small, separator, prefix,
        ...).
    **kwargs
        NumPy's keyword arguments (formatter, threshold, edgeitems, sign, floatmode, legacy, ...).

    Returns
    -------
    array_str : str
        String representation of the array.

    See Also
    --------
    numpy.array2string : The NumPy function this mirrors.
    array_str, array_repr, set_printoptions

    Notes
    -----
    A traced array prints as its abstract value (``traced f32[3]``), as `str` does.
    """
    if _traced(a):
        return str(a)
    return np.array2string(_host(a), *args, **kwargs)


@defers_to_numpy
def array_repr(
    arr: ArrayLike,
    max_line_width: int | None = None,
    precision: int | None = None,
    suppress_small: bool | None = None,
) -> str:
    """Return the string representation of an array.

    Parameters
    ----------
    arr : ndarray
        Input array.
    max_line_width : int, optional
        Inserts newlines if text is longer than this; defaults to the print options' linewidth.
    precision : int, optional
        Floating point precision; defaults to the print options' precision.
    suppress_small : bool, optional
        Represent numbers very close to zero as zero; defaults to the print options' suppress.

    Returns
    -------
    string : str
        The string representation of an array.

    See Also
    --------
    numpy.array_repr : The NumPy function this mirrors.
    array_str, array2string

    Notes
    -----
    A traced array prints as its abstract value (``traced f32[3]``), as `str` does.
    """
    if _traced(arr):
        return repr(arr)
    return np.array_repr(_host(arr), max_line_width, precision, suppress_small)


@defers_to_numpy
def array_str(
    a: ArrayLike,
    max_line_width: int | None = None,
    precision: int | None = None,
    suppress_small: bool | None = None,
) -> str:
    """Return a string representation of the data in an array.

    Parameters
    ----------
    a : ndarray
        Input array.
    max_line_width : int, optional
        Inserts newlines if text is longer than this; defaults to the print options' linewidth.
    precision : int, optional
        Floating point precision; defaults to the print options' precision.
    suppress_small : bool, optional
        Represent numbers very close to zero as zero; defaults to the print options' suppress.

    Returns
    -------
    str : str
        The data of the array, printed as NumPy prints it.

    See Also
    --------
    numpy.array_str : The NumPy function this mirrors.
    array_repr, array2string

    Notes
    -----
    A traced array prints as its abstract value (``traced f32[3]``), as `str` does.
    """
    if _traced(a):
        return str(a)
    return np.array_str(_host(a), max_line_width, precision, suppress_small)


def format_float_positional(x: ScalarLike | NDArray, *args: Any, **kwargs: Any) -> str:
    """Format a floating-point scalar as a decimal string in positional notation.

    Parameters
    ----------
    x : python float or numpy floating scalar
        Value to format; a 0-d concrete arraystack array is accepted too.
    *args
        NumPy's arguments (precision, unique, fractional, trim, sign, pad_left, pad_right,
        min_digits).
    **kwargs
        NumPy's keyword arguments, as above.

    Returns
    -------
    rep : str
        The string representation of the floating point value.

    See Also
    --------
    numpy.format_float_positional : The NumPy function this mirrors.
    format_float_scientific
    """
    return np.format_float_positional(_scalar(x), *args, **kwargs)


def format_float_scientific(x: ScalarLike | NDArray, *args: Any, **kwargs: Any) -> str:
    """Format a floating-point scalar as a decimal string in scientific notation.

    Parameters
    ----------
    x : python float or numpy floating scalar
        Value to format; a 0-d concrete arraystack array is accepted too.
    *args
        NumPy's arguments (precision, unique, trim, sign, pad_left, exp_digits, min_digits).
    **kwargs
        NumPy's keyword arguments, as above.

    Returns
    -------
    rep : str
        The string representation of the floating point value.

    See Also
    --------
    numpy.format_float_scientific : The NumPy function this mirrors.
    format_float_positional
    """
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
