"""Determinants: det and slogdet, each one primitive (LU-based, as numpy.linalg's LAPACK calls)."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from arraystack._core.array import ndarray, scalar_result, wrap
from arraystack._core.overrides import defers_to
from arraystack.ir.core import bind
from arraystack.ir.linalg import det_p, slogdet_p
from arraystack.linalg._operands import assert_stacked_square, prepare

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, NDArray


class SlogdetResult(NamedTuple):
    """Named tuple returned by `arraystack.linalg.slogdet`: sign, logabsdet.

    Attributes
    ----------
    sign : ndarray
        Sign (or unit-modulus phase) of the determinant.
    logabsdet : ndarray
        Natural log of its absolute value.

    See Also
    --------
    numpy.linalg.slogdet : returns NumPy's SlogdetResult, mirrored.
    arraystack.linalg.slogdet
    """

    sign: ndarray
    logabsdet: ndarray


@defers_to(np.linalg.det)
def det(a: ArrayLike) -> NDArray:
    """Compute the determinant of a square matrix (or a stack of them).

    Parameters
    ----------
    a : (..., M, M) array_like
        Square matrix or stack of square matrices.

    Returns
    -------
    ndarray
        The determinants, of shape (...); 0 for a singular matrix (LU-based, as NumPy).

    See Also
    --------
    numpy.linalg.det : the function mirrored.
    arraystack.linalg.slogdet

    Examples
    --------
    >>> import arraystack as np
    >>> np.linalg.det(np.asarray([[1.0, 2.0], [3.0, 4.0]]))
    np.float64(-2.0000000000000004)
    """
    (a,) = prepare(a)
    assert_stacked_square(a)
    return scalar_result(wrap(bind(det_p, a._value)))


@defers_to(np.linalg.slogdet)
def slogdet(a: ArrayLike) -> SlogdetResult:
    """Compute the sign and the log of the absolute value of the determinant.

    Parameters
    ----------
    a : (..., M, M) array_like
        Square matrix or stack of square matrices.

    Returns
    -------
    SlogdetResult
        ``(sign, logabsdet)``: ``det(a) == sign * exp(logabsdet)``, without overflow.

    See Also
    --------
    numpy.linalg.slogdet : the function mirrored.
    arraystack.linalg.det
    """
    (a,) = prepare(a)
    assert_stacked_square(a)
    sign, logabsdet = bind(slogdet_p, a._value)
    return SlogdetResult(scalar_result(wrap(sign)), scalar_result(wrap(logabsdet)))


__all__ = ["SlogdetResult", "det", "slogdet"]
