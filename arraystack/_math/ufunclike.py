"""Ufunc-like tests of the sign of infinities: isposinf, isneginf (numpy/lib/_ufunclike_impl.py).

Compositions of arraystack.isinf, signbit and logical_and, so they trace.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import arraystack as anp
from arraystack._core.overrides import defers_to_numpy

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, NDArray

__all__ = ["isneginf", "isposinf"]


def _sign_test(x, out, negative):
    is_inf = anp.isinf(x)
    try:
        sign = anp.signbit(x)
    except TypeError as e:
        dtype = anp.asarray(x).dtype
        raise TypeError(
            f"This operation is not supported for {dtype} values because it would be ambiguous."
        ) from e
    return anp.logical_and(is_inf, sign if negative else ~sign, out)


@defers_to_numpy
def isposinf(x: ArrayLike, out: NDArray | None = None) -> NDArray:
    """Test element-wise for positive infinity, return result as bool array.

    Parameters
    ----------
    x : array_like
        The input array.
    out : array_like, optional
        A location into which the result is stored. If provided, it must have a shape that the
        input broadcasts to. If not provided or None, a freshly-allocated boolean array is
        returned.

    Returns
    -------
    out : ndarray
        A boolean array with the same dimensions as the input: True where `x` is positive
        infinity. If `out` is given, it is returned.

    See Also
    --------
    numpy.isposinf : The NumPy function this mirrors.
    isinf, isneginf, isfinite, isnan

    Notes
    -----
    Complex input raises TypeError (the sign of a complex infinity is ambiguous).
    """
    return _sign_test(x, out, negative=False)


@defers_to_numpy
def isneginf(x: ArrayLike, out: NDArray | None = None) -> NDArray:
    """Test element-wise for negative infinity, return result as bool array.

    Parameters
    ----------
    x : array_like
        The input array.
    out : array_like, optional
        A location into which the result is stored. If provided, it must have a shape that the
        input broadcasts to. If not provided or None, a freshly-allocated boolean array is
        returned.

    Returns
    -------
    out : ndarray
        A boolean array with the same dimensions as the input: True where `x` is negative
        infinity. If `out` is given, it is returned.

    See Also
    --------
    numpy.isneginf : The NumPy function this mirrors.
    isinf, isposinf, isfinite, isnan

    Notes
    -----
    Complex input raises TypeError (the sign of a complex infinity is ambiguous).
    """
    return _sign_test(x, out, negative=True)
