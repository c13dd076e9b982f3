"""Conversions that look at the values: asarray_chkfinite, real_if_close (numpy/lib/
_function_base_impl.py, _type_check_impl.py) and sort_complex, which sorts into a complex array.

asarray_chkfinite raises and real_if_close picks its dtype from the values, so a traced input raises
ConcretizationError in both; sort_complex is a composition of sort and astype and traces.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

import arraystack as anp
from arraystack._core.overrides import defers_to_numpy

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, DTypeLike, NDArray

__all__ = ["asarray_chkfinite", "real_if_close", "sort_complex"]


def asarray_chkfinite(a: ArrayLike, dtype: DTypeLike = None, order: str | None = None) -> NDArray:
    """Convert the input to an array, checking for NaNs or Infs.

    Parameters
    ----------
    a : array_like
        Input data, in any form that can be converted to an array.
    dtype : data-type, optional
        By default, the data-type is inferred from the input data.
    order : {'C', 'F', 'A', 'K'}, optional
        Memory layout. 'A' and 'K' depend on the order of input array a.

    Returns
    -------
    out : ndarray
        Array interpretation of `a`; `a` itself when it is already an arraystack array of the
        requested dtype and order.

    Raises
    ------
    ValueError
        Raises ValueError if `a` contains NaN (Not a Number) or Inf (Infinity).

    See Also
    --------
    numpy.asarray_chkfinite : The NumPy function this mirrors.
    asarray, isfinite

    Notes
    -----
    Under `jit` the check needs the values: a traced input raises ConcretizationError.
    """
    a = anp.asarray(a, dtype=dtype, order=order)
    if a.dtype.char in np.typecodes["AllFloat"] and not anp.isfinite(a).all():
        raise ValueError("array must not contain infs or NaNs")
    return a


@defers_to_numpy
def real_if_close(a: ArrayLike, tol: float = 100) -> NDArray:
    """If input is complex with all imaginary parts close to zero, return real parts.

    "Close to zero" is defined as `tol` * (machine epsilon of the type for `a`).

    Parameters
    ----------
    a : array_like
        Input array.
    tol : float
        Tolerance in machine epsilons for the complex part of the elements in the array. If the
        tolerance is <=1, then the absolute tolerance is used.

    Returns
    -------
    out : ndarray
        If `a` is real, the type of `a` is used for the output (`a` itself for an arraystack
        array). If `a` has complex elements, the returned type is float (a view of the real parts)
        when all imaginary parts are close to zero.

    See Also
    --------
    numpy.real_if_close : The NumPy function this mirrors.
    real, imag, angle

    Notes
    -----
    The output dtype depends on the values: a traced complex input raises ConcretizationError.
    """
    a = anp.asarray(a)
    type_ = a.dtype.type
    if not issubclass(type_, np.complexfloating):
        return a
    if tol > 1:
        tol = np.finfo(type_).eps * tol
    if anp.all(anp.absolute(a.imag) < tol):
        a = a.real
    return a


@defers_to_numpy
def sort_complex(a: ArrayLike) -> NDArray:
    """Sort a complex array using the real part first, then the imaginary part.

    Parameters
    ----------
    a : array_like
        Input array.

    Returns
    -------
    out : complex ndarray
        Always returns a sorted complex array (complex64 for 8- and 16-bit integers, complex128
        otherwise, or the input's complex type), sorted along the last axis.

    See Also
    --------
    numpy.sort_complex : The NumPy function this mirrors.
    sort, argsort, lexsort
    """
    b = anp.sort(anp.array(a, copy=True))
    if issubclass(b.dtype.type, np.complexfloating):
        return b
    return b.astype("F" if b.dtype.char in "bhBH" else "D")
