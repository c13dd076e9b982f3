"""Questions about types rather than values: isscalar, common_type, mintypecode, min_scalar_type,
typename (numpy/lib/_type_check_impl.py, numpy/_core/numeric.py), and the constants little_endian,
True_, False_, ScalarType and typecodes (NumPy's own objects: they describe types, not arrays).

They read dtypes, which traced arrays have too; only min_scalar_type of a 0-d array reads a value
(NumPy picks the smallest type holding it), so a traced 0-d array raises ConcretizationError there.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import numpy as np

import arraystack as anp
from arraystack._core.array import ndarray
from arraystack._core.overrides import defers_to_numpy

if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

    from arraystack.typing import ArrayLike

__all__ = [
    "False_",
    "ScalarType",
    "True_",
    "common_type",
    "isscalar",
    "little_endian",
    "min_scalar_type",
    "mintypecode",
    "typecodes",
    "typename",
]

little_endian = sys.byteorder == "little"
True_ = np.True_
False_ = np.False_
ScalarType = np.ScalarType  # the scalar types, Python's and NumPy's
typecodes = np.typecodes  # the type characters by kind ('AllFloat', 'Integer', ...)

# numpy/lib/_type_check_impl.py: precision ranks and the float/complex type of each rank
_PRECISION = {
    np.half: 0,
    np.single: 1,
    np.double: 2,
    np.longdouble: 3,
    np.csingle: 1,
    np.cdouble: 2,
    np.clongdouble: 3,
}
_ARRAY_TYPE = [
    [np.half, np.single, np.double, np.longdouble],
    [None, np.csingle, np.cdouble, np.clongdouble],
]
_TYPECODES_BY_ELSIZE = "GDFgdfQqLlIiHhBb?"


def isscalar(element: Any) -> bool:
    """Returns True if the type of `element` is a scalar type.

    Parameters
    ----------
    element : any
        Input argument, can be of any type and shape.

    Returns
    -------
    val : bool
        True if `element` is a scalar type (Python number, NumPy scalar, str, bytes...) or a
        scalar result (``x.sum()``, ``x[0]``: it holds NumPy's scalar, which NumPy returns there);
        False otherwise: arrays, including explicit 0-d arrays, are not scalars.

    See Also
    --------
    numpy.isscalar : The NumPy function this mirrors.
    ndim
    """
    if isinstance(element, ndarray):
        return isinstance(element._value, np.generic)
    return np.isscalar(element)


@defers_to_numpy
def common_type(*arrays: Any) -> type:
    """Return a scalar type which is common to the input arrays.

    The return type will always be an inexact (i.e. floating point) scalar type, even if all the
    arrays are integer arrays. If one of the inputs is an integer array, the minimum precision type
    that is returned is a 64-bit floating point dtype.

    Parameters
    ----------
    *arrays : array_like
        Input arrays (objects with a ``dtype``).

    Returns
    -------
    out : data type code
        Data type code.

    See Also
    --------
    numpy.common_type : The NumPy function this mirrors.
    result_type, promote_types, mintypecode
    """
    is_complex = False
    precision = 0
    for a in arrays:
        t = a.dtype.type
        if anp.iscomplexobj(a):
            is_complex = True
        if issubclass(t, np.integer):
            p = 2
        else:
            p = _PRECISION.get(t)
            if p is None:
                raise TypeError("can't get common type for non-numeric array")
        precision = max(precision, p)
    return _ARRAY_TYPE[1 if is_complex else 0][precision]


def mintypecode(typechars: Iterable[Any], typeset: str = "GDFgdf", default: str = "d") -> str:
    """Return the character for the minimum-size type to which given types can be safely cast.

    Parameters
    ----------
    typechars : list of str or array_like
        If a list of strings, each string should represent a dtype. If array_like, the character
        representation of the array dtype is used.
    typeset : str or list of str, optional
        The set of characters that the returned character is chosen from.
    default : str, optional
        The default character, returned if none of the characters in `typechars` matches a
        character in `typeset`.

    Returns
    -------
    typechar : str
        The character representing the minimum-size type that was found.

    See Also
    --------
    numpy.mintypecode : The NumPy function this mirrors.
    common_type, dtype
    """
    codes = (
        (isinstance(t, str) and t)
        or (t.dtype if isinstance(t, ndarray) else np.asarray(t).dtype).char
        for t in typechars
    )
    intersection = {t for t in codes if t in typeset}
    if not intersection:
        return default
    if "F" in intersection and "d" in intersection:
        return "D"
    return min(intersection, key=_TYPECODES_BY_ELSIZE.index)


@defers_to_numpy
def min_scalar_type(a: ArrayLike, /) -> np.dtype:
    """For scalar ``a``, returns the data type with the smallest size and smallest scalar kind
    which can hold its value. For non-scalar array ``a``, returns the vector's dtype unmodified.

    Parameters
    ----------
    a : scalar or array_like
        The value whose minimal data type is to be found.

    Returns
    -------
    out : dtype
        The minimal data type.

    See Also
    --------
    numpy.min_scalar_type : The NumPy function this mirrors.
    result_type, promote_types, can_cast

    Notes
    -----
    A traced 0-d array raises ConcretizationError: the answer depends on its value.
    """
    if isinstance(a, ndarray):
        if a.ndim:
            return a.dtype
        return np.min_scalar_type(a._scalar("min_scalar_type()"))
    return np.min_scalar_type(a)


def typename(char: str) -> str:
    """Return a description for the given data type code.

    Parameters
    ----------
    char : str
        Data type code.

    Returns
    -------
    out : str
        Description of the input data type code.

    See Also
    --------
    numpy.typename : The NumPy function this mirrors.
    dtype, numpy.typecodes
    """
    return np.typename(char)
