"""Frequencies and shifts of arraystack.fft (compositions, no primitive of their own)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from arraystack._core import devices as _devices
from arraystack._core.overrides import defers_to
from arraystack._creation.basic import _placed, asarray
from arraystack._creation.ranges import arange
from arraystack._manipulation.joining import concatenate as _concatenate
from arraystack._manipulation.rearranging import roll

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, AxisLike, DTypeLike, NDArray


def fftfreq(
    n: int, d: float = 1.0, device: object = None, *, dtype: DTypeLike | None = None
) -> NDArray:
    """Return the sample frequencies of an `fft` of length `n` with sample spacing `d`.

    Parameters
    ----------
    n : int
        Window length.
    d : float, optional
        Sample spacing (the inverse of the sampling rate).
    device : str or Device, optional
        The device on which to place the result (Array API); the default device when None.
    dtype : dtype, optional
        A real floating dtype for the result (the Array API's addition); default NumPy's (float64).

    Returns
    -------
    ndarray
        ``[0, 1, ..., n//2 - 1 (or (n-1)//2), -n//2, ..., -1] / (d * n)``.

    See Also
    --------
    numpy.fft.fftfreq : the function mirrored.
    arraystack.fft.rfftfreq, arraystack.fft.fftshift

    Examples
    --------
    >>> import arraystack as np
    >>> np.fft.fftfreq(4, d=0.5)
    array([ 0. ,  0.5, -1. , -0.5])
    """
    target = _placed(device)
    if target is not None:  # a cuda device, given or the default
        return _devices.create_on(target, fftfreq, n, d, dtype=dtype)
    val = 1.0 / (n * d)
    positive = arange(0, (n - 1) // 2 + 1, dtype=int)
    negative = arange(-(n // 2), 0, dtype=int)
    result = _concatenate((positive, negative)) * val
    return result if dtype is None else result.astype(dtype)


def rfftfreq(
    n: int, d: float = 1.0, device: object = None, *, dtype: DTypeLike | None = None
) -> NDArray:
    """Return the sample frequencies of an `rfft` of length `n` with sample spacing `d`.

    Parameters
    ----------
    n : int
        Window length.
    d : float, optional
        Sample spacing (the inverse of the sampling rate).
    device : str or Device, optional
        The device on which to place the result (Array API); the default device when None.
    dtype : dtype, optional
        A real floating dtype for the result (the Array API's addition); default NumPy's (float64).

    Returns
    -------
    ndarray
        ``[0, 1, ..., n // 2] / (d * n)``, of length ``n // 2 + 1``.

    See Also
    --------
    numpy.fft.rfftfreq : the function mirrored.
    arraystack.fft.fftfreq, arraystack.fft.rfft
    """
    target = _placed(device)
    if target is not None:  # a cuda device, given or the default
        return _devices.create_on(target, rfftfreq, n, d, dtype=dtype)
    val = 1.0 / (n * d)
    result = arange(0, n // 2 + 1, dtype=int) * val
    return result if dtype is None else result.astype(dtype)


def _shifts(x, axes, sign):
    if axes is None:
        axes = tuple(range(x.ndim))
        shift = [sign * (dim // 2) for dim in x.shape]
    elif isinstance(axes, (int, np.integer)):
        shift = sign * (x.shape[axes] // 2)
    else:
        shift = [sign * (x.shape[ax] // 2) for ax in axes]
    return roll(x, shift, axes)


@defers_to(np.fft.fftshift)
def fftshift(x: ArrayLike, axes: AxisLike = None) -> NDArray:
    """Shift the zero-frequency component to the centre of the spectrum.

    Parameters
    ----------
    x : array_like
        Input array.
    axes : int or sequence of int, optional
        Axes to shift (default: all).

    Returns
    -------
    ndarray
        `x` rolled by half its length along each axis in `axes`.

    See Also
    --------
    numpy.fft.fftshift : the function mirrored.
    arraystack.fft.ifftshift, arraystack.roll

    Examples
    --------
    >>> import arraystack as np
    >>> np.fft.fftshift(np.fft.fftfreq(4))
    array([-0.5 , -0.25,  0.  ,  0.25])
    """
    return _shifts(asarray(x), axes, 1)


@defers_to(np.fft.ifftshift)
def ifftshift(x: ArrayLike, axes: AxisLike = None) -> NDArray:
    """Undo `fftshift`: move the centre of the spectrum back to index 0.

    Parameters
    ----------
    x : array_like
        Input array.
    axes : int or sequence of int, optional
        Axes to shift (default: all).

    Returns
    -------
    ndarray
        `x` rolled by minus half its length along each axis in `axes`.

    See Also
    --------
    numpy.fft.ifftshift : the function mirrored.
    arraystack.fft.fftshift
    """
    return _shifts(asarray(x), axes, -1)
