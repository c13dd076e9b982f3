"""Special functions NumPy writes in Python: sinc and the modified Bessel function i0, composed of ufuncs
exactly as numpy/lib/_function_base_impl.py writes them (i0's Chebyshev series from Cephes)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
from numpy.lib._function_base_impl import _i0A, _i0B

import arraystack as anp
from arraystack._core.overrides import defers_to_numpy

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, NDArray


@defers_to_numpy
def sinc(x: ArrayLike) -> NDArray:
    """Return the normalized sinc function, ``sin(pi x) / (pi x)``, with 1 at 0.

    Parameters
    ----------
    x : array_like
        Array (possibly multi-dimensional) of values.

    Returns
    -------
    out : ndarray
        ``sinc(x)``, the same shape as `x`.

    See Also
    --------
    numpy.sinc : The NumPy function this mirrors.
    sin
    """
    x = anp.asarray(x)
    x = math.pi * x
    eps = np.finfo(x.dtype).eps if x.dtype.kind == "f" else 1e-20
    y = anp.where(x != 0, x, eps)
    return anp.sin(y) / y


def _chbevl(x, vals):
    b0 = vals[0]
    b1 = 0.0
    b2 = 0.0
    for value in vals[1:]:
        b2 = b1
        b1 = b0
        b0 = x * b1 - b2 + value
    return 0.5 * (b0 - b2)


@defers_to_numpy
def i0(x: ArrayLike) -> NDArray:
    """Modified Bessel function of the first kind, order 0.

    Parameters
    ----------
    x : array_like of float
        Argument of the Bessel function.

    Returns
    -------
    out : ndarray
        The modified Bessel function evaluated at each element of `x`.

    See Also
    --------
    numpy.i0 : The NumPy function this mirrors.
    sinc

    Notes
    -----
    Real input only: complex input raises TypeError, as in NumPy.
    """
    x = anp.asarray(x)
    if x.dtype.kind == "c":
        raise TypeError("i0 not supported for complex values")
    if x.dtype.kind != "f":
        x = x.astype(float)
    x = anp.abs(x)
    small = x <= 8.0
    # each branch sees only its own arguments (as numpy.piecewise), so no spurious warnings or NaN gradients
    xs = anp.where(small, x, 0.0)
    xl = anp.where(small, 9.0, x)
    low = anp.exp(xs) * _chbevl(xs / 2.0 - 2, _i0A)
    high = anp.exp(xl) * _chbevl(32.0 / xl - 2.0, _i0B) / anp.sqrt(xl)
    return anp.where(small, low, high).astype(x.dtype, copy=False)


__all__ = ["i0", "sinc"]
