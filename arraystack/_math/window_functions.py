"""Window functions for signal processing: bartlett, blackman, hamming, hanning, kaiser
(numpy/lib/_function_base_impl.py).

The window length `M` fixes the output shape, so it must be concrete: a window of a concrete length is
NumPy's own array (a constant inside a trace). kaiser's `beta` may be traced: its window is then the
composition of arraystack.i0 over the host-computed positions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

import arraystack as anp
from arraystack._core.array import ndarray, wrap
from arraystack.ir.core import Tracer

if TYPE_CHECKING:
    from arraystack.typing import NDArray, ScalarLike

__all__ = ["bartlett", "blackman", "hamming", "hanning", "kaiser"]


def _length(M):
    """A window length as NumPy data (a traced one raises ConcretizationError)."""
    return np.asarray(M) if isinstance(M, ndarray) else M


def bartlett(M: int) -> NDArray:
    """Return the Bartlett window.

    The Bartlett window is very similar to a triangular window, except that the end points are at
    zero.

    Parameters
    ----------
    M : int
        Number of points in the output window. If zero or less, an empty array is returned.

    Returns
    -------
    out : array
        The triangular window, with the maximum value normalized to one (the value one appears only
        if the number of samples is odd), with the first and last samples equal to zero.

    See Also
    --------
    numpy.bartlett : The NumPy function this mirrors.
    blackman, hamming, hanning, kaiser
    """
    return wrap(np.bartlett(_length(M)))


def blackman(M: int) -> NDArray:
    """Return the Blackman window.

    The Blackman window is a taper formed by using the first three terms of a summation of cosines.

    Parameters
    ----------
    M : int
        Number of points in the output window. If zero or less, an empty array is returned.

    Returns
    -------
    out : ndarray
        The window, with the maximum value normalized to one (the value one appears only if the
        number of samples is odd).

    See Also
    --------
    numpy.blackman : The NumPy function this mirrors.
    bartlett, hamming, hanning, kaiser
    """
    return wrap(np.blackman(_length(M)))


def hamming(M: int) -> NDArray:
    """Return the Hamming window.

    The Hamming window is a taper formed by using a weighted cosine.

    Parameters
    ----------
    M : int
        Number of points in the output window. If zero or less, an empty array is returned.

    Returns
    -------
    out : ndarray
        The window, with the maximum value normalized to one (the value one appears only if the
        number of samples is odd).

    See Also
    --------
    numpy.hamming : The NumPy function this mirrors.
    bartlett, blackman, hanning, kaiser
    """
    return wrap(np.hamming(_length(M)))


def hanning(M: int) -> NDArray:
    """Return the Hanning window.

    The Hanning window is a taper formed by using a weighted cosine.

    Parameters
    ----------
    M : int
        Number of points in the output window. If zero or less, an empty array is returned.

    Returns
    -------
    out : ndarray
        The window, with the maximum value normalized to one (the value one appears only if `M` is
        odd).

    See Also
    --------
    numpy.hanning : The NumPy function this mirrors.
    bartlett, blackman, hamming, kaiser
    """
    return wrap(np.hanning(_length(M)))


def kaiser(M: int, beta: ScalarLike | NDArray) -> NDArray:
    """Return the Kaiser window.

    The Kaiser window is a taper formed by using a Bessel function.

    Parameters
    ----------
    M : int
        Number of points in the output window. If zero or less, an empty array is returned.
    beta : float
        Shape parameter for window (may be a traced 0-d array).

    Returns
    -------
    out : array
        The window, with the maximum value normalized to one (the value one appears only if the
        number of samples is odd).

    See Also
    --------
    numpy.kaiser : The NumPy function this mirrors.
    bartlett, blackman, hamming, hanning, i0
    """
    M = _length(M)
    if not (isinstance(beta, ndarray) and type(beta._value) is Tracer):
        return wrap(np.kaiser(M, np.asarray(beta) if isinstance(beta, ndarray) else beta))
    if beta.ndim:
        raise ValueError(
            "setting an array element with a sequence. The requested array has an inhomogeneous "
            "shape after 1 dimensions. The detected shape was (3,) + inhomogeneous part."
        )
    # np.array([0.0, M, beta]): float64 at least, complex if M or beta is
    values = np.array([0.0, M, np.zeros((), beta.dtype)])
    dtype = values.dtype
    M = values[1]
    if M == 1:
        return anp.ones(1, dtype=dtype)
    n = np.arange(0, M)
    alpha = (M - 1) / 2.0
    beta = beta.astype(dtype)
    return anp.i0(beta * np.sqrt(1 - ((n - alpha) / alpha) ** 2.0)) / anp.i0(beta)
