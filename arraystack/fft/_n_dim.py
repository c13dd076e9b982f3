"""N-dimensional transforms of arraystack.fft: fftn, fft2 and their inverse and real variants."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from arraystack._core.overrides import defers_to
from arraystack.fft._transform import _nd

if TYPE_CHECKING:
    from collections.abc import Sequence

    from arraystack.typing import ArrayLike, NDArray


@defers_to(np.fft.fftn)
def fftn(
    a: ArrayLike,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: str | None = None,
    out: NDArray | None = None,
) -> NDArray:
    """Compute the n-dimensional discrete Fourier transform.

    Parameters
    ----------
    a : array_like
        Input array; real input is converted to complex128 (complex64 for float16 and float32).
    s : sequence of int, optional
        Length of each transformed axis of the input: cropped or zero-padded to it
        (default: the input's lengths).
    axes : sequence of int, optional
        Axes over which to transform (all axes, or the last ``len(s)``);
        repeated axes transform repeatedly, as in NumPy.
    norm : {"backward", "ortho", "forward"}, optional
        Normalization mode (default "backward"), as in NumPy.
    out : ndarray, optional
        Array of the result's shape and exact dtype to write the result into.

    Returns
    -------
    out : complex ndarray
        The transform over `axes`.

    See Also
    --------
    numpy.fft.fftn : the function mirrored.
    arraystack.fft.ifftn, arraystack.fft.fft2, arraystack.fft.rfftn

    Notes
    -----
    One `fft` primitive: the result is NumPy's, eagerly and under `jit`; `grad` and `vmap` apply.
    """
    return _nd(a, s, axes, norm, out, "fft")


@defers_to(np.fft.ifftn)
def ifftn(
    a: ArrayLike,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: str | None = None,
    out: NDArray | None = None,
) -> NDArray:
    """Compute the n-dimensional inverse discrete Fourier transform.

    Parameters
    ----------
    a : array_like
        Input array; real input is converted to complex128 (complex64 for float16 and float32).
    s : sequence of int, optional
        Length of each transformed axis of the input: cropped or zero-padded to it
        (default: the input's lengths).
    axes : sequence of int, optional
        Axes over which to transform (all axes, or the last ``len(s)``);
        repeated axes transform repeatedly, as in NumPy.
    norm : {"backward", "ortho", "forward"}, optional
        Normalization mode (default "backward"), as in NumPy.
    out : ndarray, optional
        Array of the result's shape and exact dtype to write the result into.

    Returns
    -------
    out : complex ndarray
        The transform over `axes`.

    See Also
    --------
    numpy.fft.ifftn : the function mirrored.
    arraystack.fft.fftn, arraystack.fft.ifft2

    Notes
    -----
    One `fft` primitive: the result is NumPy's, eagerly and under `jit`; `grad` and `vmap` apply.
    """
    return _nd(a, s, axes, norm, out, "ifft")


@defers_to(np.fft.rfftn)
def rfftn(
    a: ArrayLike,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: str | None = None,
    out: NDArray | None = None,
) -> NDArray:
    """Compute the n-dimensional discrete Fourier transform of a real input.

    Parameters
    ----------
    a : array_like
        Real input array (float16/float32 are computed in float32, other reals in float64).
    s : sequence of int, optional
        Length of each transformed axis of the input: cropped or zero-padded to it
        (default: the input's lengths).
    axes : sequence of int, optional
        Axes over which to transform (all axes, or the last ``len(s)``);
        repeated axes transform repeatedly, as in NumPy.
    norm : {"backward", "ortho", "forward"}, optional
        Normalization mode (default "backward"), as in NumPy.
    out : ndarray, optional
        Array of the result's shape and exact dtype to write the result into.

    Returns
    -------
    out : complex ndarray; the last axis has length ``s[-1] // 2 + 1``
        The transform over `axes`.

    See Also
    --------
    numpy.fft.rfftn : the function mirrored.
    arraystack.fft.irfftn, arraystack.fft.fftn

    Notes
    -----
    One `fft` primitive: the result is NumPy's, eagerly and under `jit`; `grad` and `vmap` apply.
    """
    return _nd(a, s, axes, norm, out, "rfft")


@defers_to(np.fft.irfftn)
def irfftn(
    a: ArrayLike,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: str | None = None,
    out: NDArray | None = None,
) -> NDArray:
    """Compute the inverse of `rfftn`: a real n-dimensional signal from its half spectrum.

    Parameters
    ----------
    a : array_like
        Input array: the half spectrum of a Hermitian-symmetric signal.
    s : sequence of int, optional
        Length of each transformed axis of the output (default: the input's lengths, the
        last one ``2 * (m - 1)``).
    axes : sequence of int, optional
        Axes over which to transform (all axes, or the last ``len(s)``);
        repeated axes transform repeatedly, as in NumPy.
    norm : {"backward", "ortho", "forward"}, optional
        Normalization mode (default "backward"), as in NumPy.
    out : ndarray, optional
        Array of the result's shape and exact dtype to write the result into.

    Returns
    -------
    out : real ndarray
        The transform over `axes`.

    See Also
    --------
    numpy.fft.irfftn : the function mirrored.
    arraystack.fft.rfftn, arraystack.fft.ifftn

    Notes
    -----
    One `fft` primitive: the result is NumPy's, eagerly and under `jit`; `grad` and `vmap` apply.
    """
    return _nd(a, s, axes, norm, out, "irfft")


@defers_to(np.fft.fft2)
def fft2(
    a: ArrayLike,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = (-2, -1),
    norm: str | None = None,
    out: NDArray | None = None,
) -> NDArray:
    """Compute the two-dimensional discrete Fourier transform.

    Parameters
    ----------
    a : array_like
        Input array; real input is converted to complex128 (complex64 for float16 and float32).
    s : sequence of int, optional
        Length of each transformed axis of the input: cropped or zero-padded to it
        (default: the input's lengths).
    axes : sequence of int, optional
        Axes over which to transform (default: the last two);
        repeated axes transform repeatedly, as in NumPy.
    norm : {"backward", "ortho", "forward"}, optional
        Normalization mode (default "backward"), as in NumPy.
    out : ndarray, optional
        Array of the result's shape and exact dtype to write the result into.

    Returns
    -------
    out : complex ndarray
        The transform over `axes`.

    See Also
    --------
    numpy.fft.fft2 : the function mirrored.
    arraystack.fft.ifft2, arraystack.fft.fftn

    Notes
    -----
    One `fft` primitive: the result is NumPy's, eagerly and under `jit`; `grad` and `vmap` apply.

    Examples
    --------
    >>> import arraystack as np
    >>> np.fft.fft2(np.ones((2, 2)))
    array([[4.+0.j, 0.+0.j],
           [0.+0.j, 0.+0.j]])
    """
    return _nd(a, s, axes, norm, out, "fft")


@defers_to(np.fft.ifft2)
def ifft2(
    a: ArrayLike,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = (-2, -1),
    norm: str | None = None,
    out: NDArray | None = None,
) -> NDArray:
    """Compute the two-dimensional inverse discrete Fourier transform.

    Parameters
    ----------
    a : array_like
        Input array; real input is converted to complex128 (complex64 for float16 and float32).
    s : sequence of int, optional
        Length of each transformed axis of the input: cropped or zero-padded to it
        (default: the input's lengths).
    axes : sequence of int, optional
        Axes over which to transform (default: the last two);
        repeated axes transform repeatedly, as in NumPy.
    norm : {"backward", "ortho", "forward"}, optional
        Normalization mode (default "backward"), as in NumPy.
    out : ndarray, optional
        Array of the result's shape and exact dtype to write the result into.

    Returns
    -------
    out : complex ndarray
        The transform over `axes`.

    See Also
    --------
    numpy.fft.ifft2 : the function mirrored.
    arraystack.fft.fft2, arraystack.fft.ifftn

    Notes
    -----
    One `fft` primitive: the result is NumPy's, eagerly and under `jit`; `grad` and `vmap` apply.
    """
    return _nd(a, s, axes, norm, out, "ifft")


@defers_to(np.fft.rfft2)
def rfft2(
    a: ArrayLike,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = (-2, -1),
    norm: str | None = None,
    out: NDArray | None = None,
) -> NDArray:
    """Compute the two-dimensional discrete Fourier transform of a real input.

    Parameters
    ----------
    a : array_like
        Real input array (float16/float32 are computed in float32, other reals in float64).
    s : sequence of int, optional
        Length of each transformed axis of the input: cropped or zero-padded to it
        (default: the input's lengths).
    axes : sequence of int, optional
        Axes over which to transform (default: the last two);
        repeated axes transform repeatedly, as in NumPy.
    norm : {"backward", "ortho", "forward"}, optional
        Normalization mode (default "backward"), as in NumPy.
    out : ndarray, optional
        Array of the result's shape and exact dtype to write the result into.

    Returns
    -------
    out : complex ndarray; the last axis has length ``s[-1] // 2 + 1``
        The transform over `axes`.

    See Also
    --------
    numpy.fft.rfft2 : the function mirrored.
    arraystack.fft.irfft2, arraystack.fft.rfftn

    Notes
    -----
    One `fft` primitive: the result is NumPy's, eagerly and under `jit`; `grad` and `vmap` apply.
    """
    return _nd(a, s, axes, norm, out, "rfft")


@defers_to(np.fft.irfft2)
def irfft2(
    a: ArrayLike,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = (-2, -1),
    norm: str | None = None,
    out: NDArray | None = None,
) -> NDArray:
    """Compute the inverse of `rfft2`.

    Parameters
    ----------
    a : array_like
        Input array: the half spectrum of a Hermitian-symmetric signal.
    s : sequence of int, optional
        Length of each transformed axis of the output (default: the input's lengths, the
        last one ``2 * (m - 1)``).
    axes : sequence of int, optional
        Axes over which to transform (default: the last two);
        repeated axes transform repeatedly, as in NumPy.
    norm : {"backward", "ortho", "forward"}, optional
        Normalization mode (default "backward"), as in NumPy.
    out : ndarray, optional
        Array of the result's shape and exact dtype to write the result into.

    Returns
    -------
    out : real ndarray
        The transform over `axes`.

    See Also
    --------
    numpy.fft.irfft2 : the function mirrored.
    arraystack.fft.rfft2, arraystack.fft.irfftn

    Notes
    -----
    One `fft` primitive: the result is NumPy's, eagerly and under `jit`; `grad` and `vmap` apply.
    """
    return _nd(a, s, axes, norm, out, "irfft")
