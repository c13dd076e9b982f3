"""One-dimensional transforms of arraystack.fft: fft, ifft, rfft, irfft, hfft, ihfft."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from arraystack._core.overrides import defers_to
from arraystack._creation.basic import asarray
from arraystack._math.elementwise import conjugate
from arraystack.fft._transform import _check_swap, _one, _store

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, NDArray


@defers_to(np.fft.fft)
def fft(
    a: ArrayLike,
    n: int | None = None,
    axis: int = -1,
    norm: str | None = None,
    out: NDArray | None = None,
) -> NDArray:
    """Compute the one-dimensional discrete Fourier transform.

    Parameters
    ----------
    a : array_like
        Input array; real input is converted to complex128 (complex64 for float16 and float32).
    n : int, optional
        Length of the transformed axis of the input: cropped or zero-padded to it
        (default: the input's length).
    axis : int, optional
        Axis over which to transform (default: the last).
    norm : {"backward", "ortho", "forward"}, optional
        Normalization mode (default "backward"), as in NumPy.
    out : ndarray, optional
        Array of the result's shape and exact dtype to write the result into.

    Returns
    -------
    out : complex ndarray
        The transform along `axis`.

    See Also
    --------
    numpy.fft.fft : the function mirrored.
    arraystack.fft.ifft, arraystack.fft.rfft, arraystack.fft.fftn

    Notes
    -----
    One `fft` primitive: the result is NumPy's, eagerly and under `jit`; `grad` and `vmap` apply.

    Examples
    --------
    >>> import arraystack as np
    >>> np.fft.fft(np.asarray([1.0, 0.0, 0.0, 0.0]))
    array([1.+0.j, 1.+0.j, 1.+0.j, 1.+0.j])
    """
    return _one(a, n, axis, norm, out, "fft")


@defers_to(np.fft.ifft)
def ifft(
    a: ArrayLike,
    n: int | None = None,
    axis: int = -1,
    norm: str | None = None,
    out: NDArray | None = None,
) -> NDArray:
    """Compute the one-dimensional inverse discrete Fourier transform.

    Parameters
    ----------
    a : array_like
        Input array; real input is converted to complex128 (complex64 for float16 and float32).
    n : int, optional
        Length of the transformed axis of the input: cropped or zero-padded to it
        (default: the input's length).
    axis : int, optional
        Axis over which to transform (default: the last).
    norm : {"backward", "ortho", "forward"}, optional
        Normalization mode (default "backward"), as in NumPy.
    out : ndarray, optional
        Array of the result's shape and exact dtype to write the result into.

    Returns
    -------
    out : complex ndarray
        The transform along `axis`.

    See Also
    --------
    numpy.fft.ifft : the function mirrored.
    arraystack.fft.fft, arraystack.fft.irfft, arraystack.fft.ifftn

    Notes
    -----
    One `fft` primitive: the result is NumPy's, eagerly and under `jit`; `grad` and `vmap` apply.
    """
    return _one(a, n, axis, norm, out, "ifft")


@defers_to(np.fft.rfft)
def rfft(
    a: ArrayLike,
    n: int | None = None,
    axis: int = -1,
    norm: str | None = None,
    out: NDArray | None = None,
) -> NDArray:
    """Compute the one-dimensional discrete Fourier transform of a real input.

    Parameters
    ----------
    a : array_like
        Real input array (float16/float32 are computed in float32, other reals in float64).
    n : int, optional
        Length of the transformed axis of the input: cropped or zero-padded to it
        (default: the input's length).
    axis : int, optional
        Axis over which to transform (default: the last).
    norm : {"backward", "ortho", "forward"}, optional
        Normalization mode (default "backward"), as in NumPy.
    out : ndarray, optional
        Array of the result's shape and exact dtype to write the result into.

    Returns
    -------
    out : complex ndarray, of length ``n // 2 + 1`` along `axis`
        The transform along `axis`.

    See Also
    --------
    numpy.fft.rfft : the function mirrored.
    arraystack.fft.irfft, arraystack.fft.fft, arraystack.fft.rfftn

    Notes
    -----
    One `fft` primitive: the result is NumPy's, eagerly and under `jit`; `grad` and `vmap` apply.

    Examples
    --------
    >>> import arraystack as np
    >>> np.fft.rfft(np.asarray([1.0, 2.0, 3.0, 4.0]))
    array([10.+0.j, -2.+2.j, -2.+0.j])
    """
    return _one(a, n, axis, norm, out, "rfft")


@defers_to(np.fft.irfft)
def irfft(
    a: ArrayLike,
    n: int | None = None,
    axis: int = -1,
    norm: str | None = None,
    out: NDArray | None = None,
) -> NDArray:
    """Compute the inverse of `rfft`: a real signal from its half spectrum.

    Parameters
    ----------
    a : array_like
        Input array: the half spectrum of a Hermitian-symmetric signal.
    n : int, optional
        Length of the transformed axis of the output: the input is cropped or zero-padded
        to ``n // 2 + 1`` (default: ``2 * (m - 1)`` for an input of length m).
    axis : int, optional
        Axis over which to transform (default: the last).
    norm : {"backward", "ortho", "forward"}, optional
        Normalization mode (default "backward"), as in NumPy.
    out : ndarray, optional
        Array of the result's shape and exact dtype to write the result into.

    Returns
    -------
    out : real ndarray, of length `n` along `axis`
        The transform along `axis`.

    See Also
    --------
    numpy.fft.irfft : the function mirrored.
    arraystack.fft.rfft, arraystack.fft.ifft, arraystack.fft.irfftn

    Notes
    -----
    One `fft` primitive: the result is NumPy's, eagerly and under `jit`; `grad` and `vmap` apply.
    """
    return _one(a, n, axis, norm, out, "irfft")


@defers_to(np.fft.hfft)
def hfft(
    a: ArrayLike,
    n: int | None = None,
    axis: int = -1,
    norm: str | None = None,
    out: NDArray | None = None,
) -> NDArray:
    """Compute the FFT of a signal with Hermitian symmetry (a real spectrum).

    Parameters
    ----------
    a : array_like
        Input array: the half spectrum of a Hermitian-symmetric signal.
    n : int, optional
        Length of the transformed axis of the output: the input is cropped or zero-padded
        to ``n // 2 + 1`` (default: ``2 * (m - 1)`` for an input of length m).
    axis : int, optional
        Axis over which to transform (default: the last).
    norm : {"backward", "ortho", "forward"}, optional
        Normalization mode (default "backward"), as in NumPy.
    out : ndarray, optional
        Array of the result's shape and exact dtype to write the result into.

    Returns
    -------
    out : real ndarray, of length `n` along `axis`
        The transform along `axis`.

    See Also
    --------
    numpy.fft.hfft : the function mirrored.
    arraystack.fft.ihfft, arraystack.fft.irfft

    Notes
    -----
    One `fft` primitive: the result is NumPy's, eagerly and under `jit`; `grad` and `vmap` apply.
    """
    a = asarray(a)
    if n is None:
        n = (a.shape[axis] - 1) * 2
    return irfft(conjugate(a), n, axis, norm=_check_swap(norm), out=out)


@defers_to(np.fft.ihfft)
def ihfft(
    a: ArrayLike,
    n: int | None = None,
    axis: int = -1,
    norm: str | None = None,
    out: NDArray | None = None,
) -> NDArray:
    """Compute the inverse FFT of a signal with Hermitian symmetry.

    Parameters
    ----------
    a : array_like
        Real input array (float16/float32 are computed in float32, other reals in float64).
    n : int, optional
        Length of the transformed axis of the input: cropped or zero-padded to it
        (default: the input's length).
    axis : int, optional
        Axis over which to transform (default: the last).
    norm : {"backward", "ortho", "forward"}, optional
        Normalization mode (default "backward"), as in NumPy.
    out : ndarray, optional
        Array of the result's shape and exact dtype to write the result into.

    Returns
    -------
    out : complex ndarray, of length ``n // 2 + 1`` along `axis`
        The transform along `axis`.

    See Also
    --------
    numpy.fft.ihfft : the function mirrored.
    arraystack.fft.hfft, arraystack.fft.rfft

    Notes
    -----
    One `fft` primitive: the result is NumPy's, eagerly and under `jit`; `grad` and `vmap` apply.
    """
    a = asarray(a)
    if n is None:
        n = a.shape[axis]
    return _store(conjugate(rfft(a, n, axis, norm=_check_swap(norm))), out)
