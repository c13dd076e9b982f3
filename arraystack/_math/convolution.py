"""Discrete linear convolution and cross-correlation of 1-d sequences: correlate, convolve, as
numpy/_core/numeric.py writes them. Re-exported by _calculus.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

import arraystack as anp

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, NDArray


_MODES = {"valid": 0, "same": 1, "full": 2, 0: 0, 1: 1, 2: 2}


def _correlate(a, v, mode):
    """numpy.correlate's kernel: r[k] = sum_j a[k + j - left] * v[j], the shorter operand sliding."""
    try:
        mode = _MODES[mode]
    except (KeyError, TypeError):
        raise ValueError(
            "Use one of 'valid', 'same', or 'full' for convolve/correlate mode"
        ) from None
    inverted = a.shape[0] < v.shape[0]
    if inverted:
        a, v = v, a
    n, m = a.shape[0], v.shape[0]
    left = (0, m // 2, m - 1)[mode]
    right = (0, m - m // 2 - 1, m - 1)[mode]
    dtype = np.result_type(a.dtype, v.dtype)
    work = np.dtype(np.int64) if dtype == np.bool_ else dtype
    a, v = a.astype(work), v.astype(work)
    padded = anp.concatenate([anp.zeros(left, work), a, anp.zeros(right, work)])
    length = n + left + right - m + 1
    result = padded[0:length] * v[0]
    for j in range(1, m):
        result = result + padded[j : j + length] * v[j]
    result = (result != 0) if dtype == np.bool_ else result.astype(dtype)
    return result[::-1] if inverted else result


def _operands(a, v):
    a, v = anp.atleast_1d(anp.asarray(a)), anp.atleast_1d(anp.asarray(v))
    if a.ndim != 1 or v.ndim != 1:
        raise ValueError("object too deep for desired array")
    return a, v


def correlate(a: ArrayLike, v: ArrayLike, mode: str = "valid") -> NDArray:
    """Cross-correlation of two one-dimensional sequences.

    Computes ``c[k] = sum_n a[n + k] * conj(v[n])``.

    Parameters
    ----------
    a : array_like
        First one-dimensional input sequence.
    v : array_like
        Second one-dimensional input sequence.
    mode : {'valid', 'same', 'full'}, optional
        As in `convolve`; the default is 'valid'.

    Returns
    -------
    out : ndarray
        Discrete cross-correlation of `a` and `v`.

    See Also
    --------
    numpy.correlate : The NumPy function this mirrors.
    convolve
    """
    a, v = _operands(a, v)
    if a.shape[0] == 0 or v.shape[0] == 0:
        raise ValueError(f"{'a' if a.shape[0] == 0 else 'v'} cannot be empty")
    if v.dtype.kind == "c":
        v = anp.conjugate(v)
    return _correlate(a, v, mode)


def convolve(a: ArrayLike, v: ArrayLike, mode: str = "full") -> NDArray:
    """Return the discrete, linear convolution of two one-dimensional sequences.

    Parameters
    ----------
    a : array_like
        First one-dimensional input array.
    v : array_like
        Second one-dimensional input array.
    mode : {'full', 'valid', 'same'}, optional
        'full' (default) gives every overlap, length ``N + M - 1``; 'same' the length ``max(M, N)``;
        'valid' only the full overlaps, length ``max(M, N) - min(M, N) + 1``.

    Returns
    -------
    out : ndarray
        Discrete, linear convolution of `a` and `v`.

    See Also
    --------
    numpy.convolve : The NumPy function this mirrors.
    correlate, polymul
    """
    a, v = _operands(a, v)
    if v.shape[0] > a.shape[0]:
        a, v = v, a
    if a.shape[0] == 0:
        raise ValueError("a cannot be empty")
    if v.shape[0] == 0:
        raise ValueError("v cannot be empty")
    return _correlate(a, v[::-1], mode)


__all__ = ["convolve", "correlate"]
