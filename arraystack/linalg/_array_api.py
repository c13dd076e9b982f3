"""The array-API names numpy.linalg re-exports: matmul, tensordot, vecdot, matrix_transpose, outer (1-d
only), cross (3-vectors only), and diagonal/trace of the last two axes (a copy, where NumPy gives a read-only view)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from arraystack._math.calculus import cross as _cross
from arraystack.linalg._contractions import outer as _outer
from arraystack.linalg._contractions import tensordot as _tensordot
from arraystack.linalg._contractions import vecdot as _vecdot
from arraystack._creation.basic import asarray
from arraystack.linalg._matmul import matmul as _matmul
from arraystack._manipulation.reshaping import matrix_transpose as _matrix_transpose
from arraystack._indexing.index_tricks import diagonal as _diagonal
from arraystack._indexing.index_tricks import trace as _trace
from arraystack._core.devices import constants_on_operand_device
from arraystack._core.overrides import defers_to, undeferred

if TYPE_CHECKING:
    from collections.abc import Sequence

    from arraystack.typing import ArrayLike, DTypeLike, NDArray


@defers_to(np.linalg.matmul)
def matmul(x1: ArrayLike, x2: ArrayLike, /) -> NDArray:
    """Matrix product of two arrays (the Array API's name in numpy.linalg).

    Parameters
    ----------
    x1 : array_like
        First operand (not a scalar).
    x2 : array_like
        Second operand (not a scalar).

    Returns
    -------
    ndarray
        ``x1 @ x2``, with leading axes broadcast.

    See Also
    --------
    numpy.linalg.matmul : the function mirrored.
    arraystack.matmul, arraystack.linalg.tensordot
    """
    return _matmul(x1, x2)


@defers_to(np.linalg.tensordot)
def tensordot(
    x1: ArrayLike, x2: ArrayLike, /, *, axes: int | Sequence[Sequence[int]] = 2
) -> NDArray:
    """Tensor dot product over the given axes.

    Parameters
    ----------
    x1 : array_like
        First operand.
    x2 : array_like
        Second operand.
    axes : int or (sequence, sequence), optional
        Number of trailing/leading axes to contract, or the two lists of axes.

    Returns
    -------
    ndarray
        The contraction.

    See Also
    --------
    numpy.linalg.tensordot : the function mirrored.
    arraystack.tensordot, arraystack.einsum
    """
    return _tensordot(x1, x2, axes=axes)


@defers_to(np.linalg.vecdot)
def vecdot(x1: ArrayLike, x2: ArrayLike, /, *, axis: int = -1) -> NDArray:
    """Vector dot product along an axis (the first operand conjugated).

    Parameters
    ----------
    x1 : array_like
        First operand.
    x2 : array_like
        Second operand, broadcast against `x1`.
    axis : int, optional
        The contracted axis.

    Returns
    -------
    ndarray
        ``sum(conj(x1) * x2, axis)``.

    See Also
    --------
    numpy.linalg.vecdot : the function mirrored.
    arraystack.vecdot, arraystack.linalg.matmul
    """
    return _vecdot(x1, x2, axis=axis)


@defers_to(np.linalg.outer)
@constants_on_operand_device
def outer(x1: ArrayLike, x2: ArrayLike, /) -> NDArray:
    """Outer product of two vectors.

    Parameters
    ----------
    x1 : (M,) array_like
        First vector (1-d only, as numpy.linalg.outer).
    x2 : (N,) array_like
        Second vector (1-d only).

    Returns
    -------
    ndarray
        Of shape (M, N): ``x1[:, None] * x2[None, :]``.

    See Also
    --------
    numpy.linalg.outer : the function mirrored.
    arraystack.outer : accepts any shape, flattened.
    """
    x1, x2 = asarray(x1), asarray(x2)
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError(
            f"Input arrays must be one-dimensional, but they are x1.ndim={x1.ndim} and x2.ndim={x2.ndim}."
        )
    return _outer(x1, x2)


@defers_to(np.linalg.cross)
def cross(x1: ArrayLike, x2: ArrayLike, /, *, axis: int = -1) -> NDArray:
    """Cross product of 3-element vectors.

    Parameters
    ----------
    x1 : array_like
        First operand, of size 3 along `axis`.
    x2 : array_like
        Second operand, of size 3 along `axis`.
    axis : int, optional
        The axis holding the vectors.

    Returns
    -------
    ndarray
        The cross products.

    See Also
    --------
    numpy.linalg.cross : the function mirrored.
    arraystack.cross : also accepts 2-element vectors.
    """
    x1, x2 = asarray(x1), asarray(x2)
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        raise ValueError(
            "Both input arrays must be (arrays of) 3-dimensional vectors, but they are "
            f"{x1.shape[axis]} and {x2.shape[axis]} dimensional instead."
        )
    return _cross(x1, x2, axis=axis)


@defers_to(np.linalg.diagonal)
def diagonal(x: ArrayLike, /, *, offset: int = 0) -> NDArray:
    """Return the diagonals of the last two axes.

    Parameters
    ----------
    x : (..., M, N) array_like
        Matrix or stack of matrices.
    offset : int, optional
        Offset from the main diagonal (positive: above).

    Returns
    -------
    ndarray
        The diagonals, of shape (..., K).

    See Also
    --------
    numpy.linalg.diagonal : the function mirrored.
    arraystack.diagonal, arraystack.linalg.trace

    Notes
    -----
    Returns a copy, where NumPy returns a read-only view.
    """
    return _diagonal(x, offset, -2, -1)


@defers_to(np.linalg.trace)
def trace(x: ArrayLike, /, *, offset: int = 0, dtype: DTypeLike | None = None) -> NDArray:
    """Return the sums of the diagonals of the last two axes.

    Parameters
    ----------
    x : (..., M, N) array_like
        Matrix or stack of matrices.
    offset : int, optional
        Offset from the main diagonal.
    dtype : dtype, optional
        Accumulator and result dtype.

    Returns
    -------
    ndarray
        The traces, of shape (...).

    See Also
    --------
    numpy.linalg.trace : the function mirrored.
    arraystack.trace, arraystack.linalg.diagonal
    """
    return _trace(x, offset, -2, -1, dtype=dtype)


# numpy.linalg.matrix_transpose is a function of its own (numpy.matrix_transpose's twin)
matrix_transpose = defers_to(np.linalg.matrix_transpose)(undeferred(_matrix_transpose))


__all__ = [
    "cross",
    "diagonal",
    "matmul",
    "matrix_transpose",
    "outer",
    "tensordot",
    "trace",
    "vecdot",
]
