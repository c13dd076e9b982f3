"""Arrays built from points or roots: vander (numpy/lib/_twodim_base_impl.py) and poly
(numpy/lib/_polynomial_impl.py).

Concrete calls run NumPy's own function on the host buffers. Traced calls are compositions:
vander is a cumulative product of columns, poly a chain of convolutions with (1, -root). poly of
complex roots picks a real result when the roots come in conjugate pairs, so a traced complex input
raises ConcretizationError.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

import arraystack as anp
from arraystack._core.devices import constants_on_operand_device
from arraystack._core.host_calls import host_arguments, wrap_result
from arraystack._core.overrides import defers_to_numpy
from arraystack._transforms import result_layouts

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, NDArray

__all__ = ["poly", "vander"]


@defers_to_numpy
@constants_on_operand_device
def vander(x: ArrayLike, N: int | None = None, increasing: bool = False) -> NDArray:
    """Generate a Vandermonde matrix.

    The columns of the output matrix are powers of the input vector. The order of the powers is
    determined by the `increasing` boolean argument.

    Parameters
    ----------
    x : array_like
        1-D input array.
    N : int, optional
        Number of columns in the output. If `N` is not specified, a square array is returned
        (``N = len(x)``).
    increasing : bool, optional
        Order of the powers of the columns. If True, the powers increase from left to right, if
        False (the default) they are reversed.

    Returns
    -------
    out : ndarray
        Vandermonde matrix, of the dtype of `x` promoted with the default integer.

    See Also
    --------
    numpy.vander : The NumPy function this mirrors.
    poly, numpy.polynomial.polynomial.polyvander
    """
    host = host_arguments(x)
    if host is not None:
        return wrap_result(np.vander(host[0], N, increasing))
    x = anp.asarray(x)
    if x.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    if N is None:
        N = len(x)
    n = len(x)
    dtype = np.promote_types(x.dtype, int)
    np.empty((0, N), dtype)  # NumPy's checks of N (integer, non-negative)
    columns = [anp.ones((n, min(N, 1)), dtype)]
    if N > 1:
        repeated = anp.broadcast_to(anp.reshape(x.astype(dtype), (n, 1)), (n, N - 1))
        columns.append(anp.cumprod(repeated, axis=1))
    v = anp.concatenate(columns, axis=1)
    return v if increasing else result_layouts.c_ordered(v[:, ::-1])  # NumPy fills a C array


@defers_to_numpy
@constants_on_operand_device
def poly(seq_of_zeros: ArrayLike) -> NDArray | float:
    """Find the coefficients of a polynomial with the given sequence of roots.

    Returns the coefficients of the polynomial whose leading coefficient is one for the given
    sequence of zeros (multiple roots must be included in the sequence as many times as their
    multiplicity). If the input is a square matrix, the coefficients of its characteristic
    polynomial are returned.

    Parameters
    ----------
    seq_of_zeros : array_like, shape (N,) or (N, N)
        A sequence of polynomial roots, or a square array or matrix object.

    Returns
    -------
    c : ndarray
        1D array of polynomial coefficients from highest to lowest degree:
        ``c[0] * x**(N) + c[1] * x**(N-1) + ... + c[N-1] * x + c[N]``; the float 1.0 for no roots.

    See Also
    --------
    numpy.poly : The NumPy function this mirrors.
    polyval, roots, polyfit, linalg.eigvals
    """
    host = host_arguments(seq_of_zeros)
    if host is not None:
        return wrap_result(np.poly(host[0]))
    zeros = anp.atleast_1d(seq_of_zeros)
    sh = zeros.shape
    if len(sh) == 2 and sh[0] == sh[1] and sh[0] != 0:
        zeros = anp.linalg.eigvals(zeros)
    elif len(sh) == 1:
        zeros = zeros.astype(np.mintypecode(zeros.dtype.char))
    else:
        raise ValueError("input must be 1d or non-empty square 2d array.")
    if len(zeros) == 0:
        return 1.0
    dt = zeros.dtype
    a = anp.ones((1,), dtype=dt)
    one = anp.ones((1,), dtype=dt)
    for i in range(len(zeros)):
        a = anp.convolve(a, anp.concatenate((one, -zeros[i : i + 1])), mode="full")
    if issubclass(a.dtype.type, np.complexfloating):
        roots = anp.asarray(zeros, complex)
        if anp.all(anp.sort(roots) == anp.sort(roots.conjugate())):
            a = a.real.copy()
    return a
