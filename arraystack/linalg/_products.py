"""Matrix products: matrix_power (repeated squaring, as numpy.linalg) and multi_dot (the cheapest
parenthesization of a chain, by numpy.linalg's dynamic programme)."""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING

import numpy as np

from arraystack._core.array import wrap
from arraystack._creation.basic import asarray
from arraystack.linalg._matmul import dot, matmul
from arraystack._manipulation.reshaping import reshape
from arraystack.linalg._operands import assert_2d, assert_stacked_square
from arraystack.linalg._solvers import inv
from arraystack._core.overrides import defers_to

if TYPE_CHECKING:
    from collections.abc import Sequence

    from arraystack.typing import ArrayLike, NDArray


@defers_to(np.linalg.matrix_power)
def matrix_power(a: ArrayLike, n: int) -> NDArray:
    """Raise a square matrix to the integer power `n`.

    Parameters
    ----------
    a : (..., M, M) array_like
        Square matrix or stack of square matrices.
    n : int
        The exponent; 0 gives the identity, negative powers invert `a` first.

    Returns
    -------
    ndarray
        ``a @ a @ ... @ a`` (n factors), computed by repeated squaring.

    See Also
    --------
    numpy.linalg.matrix_power : the function mirrored.
    arraystack.linalg.inv, arraystack.linalg.multi_dot
    """
    a = asarray(a)
    assert_stacked_square(a)
    try:
        n = operator.index(n)
    except TypeError as e:
        raise TypeError("exponent must be an integer") from e
    if n == 0:
        return wrap(np.broadcast_to(np.eye(a.shape[-2], dtype=a.dtype), a.shape).copy())
    if n < 0:
        a = inv(a)
        n = abs(n)
    if n == 1:
        return a
    if n == 2:
        return matmul(a, a)
    if n == 3:
        return matmul(matmul(a, a), a)
    z = result = None
    while n > 0:
        z = a if z is None else matmul(z, z)
        n, bit = divmod(n, 2)
        if bit:
            result = z if result is None else matmul(result, z)
    return result


def _chain_order(arrays):
    n = len(arrays)
    p = [a.shape[0] for a in arrays] + [arrays[-1].shape[1]]
    m = np.zeros((n, n))
    s = np.empty((n, n), dtype=np.intp)
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            m[i, j] = np.inf
            for k in range(i, j):
                q = m[i, k] + m[k + 1, j] + p[i] * p[k + 1] * p[j + 1]
                if q < m[i, j]:
                    m[i, j] = q
                    s[i, j] = k
    return s


def _chain(arrays, order, i, j):
    if i == j:
        return arrays[i]
    return dot(_chain(arrays, order, i, order[i, j]), _chain(arrays, order, order[i, j] + 1, j))


@defers_to(np.linalg.multi_dot)
def multi_dot(arrays: Sequence[ArrayLike], *, out: NDArray | None = None) -> NDArray:
    """Compute the dot product of two or more arrays, in the cheapest order of multiplication.

    Parameters
    ----------
    arrays : sequence of array_like
        The chain; the first may be 1-d (a row vector), the last 1-d (a column vector), the
        others 2-d.
    out : ndarray, optional
        Array of the result's shape and dtype to write into.

    Returns
    -------
    ndarray
        The product, with the parenthesization chosen by NumPy's dynamic programme.

    See Also
    --------
    numpy.linalg.multi_dot : the function mirrored.
    arraystack.linalg.matmul, arraystack.dot
    """
    n = len(arrays)
    if n < 2:
        raise ValueError("Expecting at least two arrays.")
    if n == 2:
        return dot(arrays[0], arrays[1], out=out)
    arrays = [asarray(a) for a in arrays]
    ndim_first, ndim_last = arrays[0].ndim, arrays[-1].ndim
    if ndim_first == 1:
        arrays[0] = reshape(arrays[0], (1, -1))
    if ndim_last == 1:
        arrays[-1] = reshape(arrays[-1], (-1, 1))
    assert_2d(*arrays)
    if n == 3:
        a, b, c = arrays
        cost1 = a.shape[0] * c.shape[0] * (a.shape[1] + c.shape[1])
        cost2 = a.shape[1] * c.shape[1] * (a.shape[0] + c.shape[0])
        result = dot(dot(a, b), c) if cost1 < cost2 else dot(a, dot(b, c))
    else:
        result = _chain(arrays, _chain_order(arrays), 0, n - 1)
    if ndim_first == 1 and ndim_last == 1:
        result = result[0, 0]
    elif ndim_first == 1 or ndim_last == 1:
        result = reshape(result, (result.size,))
    if out is None:
        return result
    from arraystack.linalg._matmul import _dot_out

    return _dot_out(result, out)


__all__ = ["matrix_power", "multi_dot"]
