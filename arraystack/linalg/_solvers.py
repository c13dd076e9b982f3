"""Linear systems, inverses and determinants: solve, inv, lstsq, pinv, det, slogdet, matrix_power,
tensorsolve, tensorinv, multi_dot. Factorizations are primitives; the rest follows numpy.linalg's own
compositions step by step, so results agree with NumPy's to the last bits.
"""

from __future__ import annotations

import operator
from typing import NamedTuple

import numpy as np

from arraystack._array import ndarray, wrap
from arraystack._creation import asarray
from arraystack._linalg import dot, matmul
from arraystack._manipulation import broadcast_shapes, broadcast_to, matrix_transpose, reshape
from arraystack.ir.core import bind
from arraystack.ir.linalg import det_p, lstsq_p, slogdet_p, solve_p
from arraystack.linalg._factorizations import svd
from arraystack.linalg._operands import (
    LinAlgError,
    assert_2d,
    assert_stacked_square,
    concrete,
    data_dependent,
    prepare,
    real_dtype,
)


class SlogdetResult(NamedTuple):
    sign: ndarray
    logabsdet: ndarray


def solve(a, b):
    """Mirrors numpy.linalg.solve: b is a vector only when it is 1-d; leading axes broadcast;
    LinAlgError for a singular matrix."""
    a, b = prepare(a, b)
    assert_stacked_square(a)
    n = a.shape[-1]
    if b.ndim == 0:
        raise ValueError("solve: Input operand 1 does not have enough dimensions")
    vector = b.ndim == 1
    rows = b.shape[-1] if vector else b.shape[-2]
    if rows != n:
        sig = "(m,m),(m)->(m)" if vector else "(m,m),(m,n)->(m,n)"
        name = "solve1" if vector else "solve"
        raise ValueError(
            f"{name}: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature {sig} "
            f"(size {rows} is different from {n})"
        )
    if vector:
        b = reshape(b, (n, 1))
    batch = broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a = broadcast_to(a, batch + a.shape[-2:])
    b = broadcast_to(b, batch + b.shape[-2:])
    x = wrap(bind(solve_p, a._value, b._value))
    return reshape(x, x.shape[:-1]) if vector else x


def inv(a):
    """Mirrors numpy.linalg.inv (solve against the identity, as NumPy's LAPACK call does)."""
    (a,) = prepare(a)
    assert_stacked_square(a)
    eye = np.broadcast_to(np.eye(a.shape[-1], dtype=a.dtype), a.shape)
    return wrap(bind(solve_p, a._value, eye))


def det(a):
    """Mirrors numpy.linalg.det (LU-based, 0 for a singular matrix)."""
    (a,) = prepare(a)
    assert_stacked_square(a)
    return wrap(bind(det_p, a._value))


def slogdet(a):
    """Mirrors numpy.linalg.slogdet: (sign, log|det|)."""
    (a,) = prepare(a)
    assert_stacked_square(a)
    sign, logabsdet = bind(slogdet_p, a._value)
    return SlogdetResult(wrap(sign), wrap(logabsdet))


def lstsq(a, b, rcond=None):
    """Mirrors numpy.linalg.lstsq: (x, residuals, rank, s). Under a trace, residuals of an
    overdetermined system (m > n) are empty or not depending on the rank, which raises a TracerError."""
    a, b = prepare(a, b)
    is_1d = b.ndim == 1
    if is_1d:
        b = reshape(b, (b.shape[0], 1))
    assert_2d(a, b)
    m, n = a.shape
    if m != b.shape[0]:
        raise LinAlgError("Incompatible dimensions")
    if rcond is None:
        rcond = np.finfo(np.float64).eps * max(n, m)
    x, resids, rank, s = bind(lstsq_p, a._value, b._value, rcond=float(rcond))
    x = wrap(x)
    if is_1d:
        x = reshape(x, (n,))
    empty = wrap(np.zeros((0,), real_dtype(a.dtype)))
    if m <= n:
        resids = empty
    else:
        r = concrete(wrap(rank))
        if r is None:
            raise data_dependent(
                "The shape of lstsq's residuals (empty when the rank is below n)",
                "Compute the residuals from x instead: sum(abs(b - a @ x)**2, axis=0).",
            )
        resids = wrap(resids) if r == n else empty
    return x, resids, wrap(rank), wrap(s)


_NoValue = np._NoValue


def pinv(a, rcond=None, hermitian=False, *, rtol=_NoValue):
    """Mirrors numpy.linalg.pinv: through the SVD, singular values at most rcond * max(s) dropped."""
    from arraystack._elementwise import conjugate, divide, greater, multiply
    from arraystack._elementwise_functions import where
    from arraystack._reductions import amax

    a = asarray(a)
    if rcond is None:
        if rtol is _NoValue:
            rcond = 1e-15
        elif rtol is None:
            rcond = max(a.shape[-2:]) * np.finfo(a.dtype).eps
        else:
            rcond = rtol
    elif rtol is not _NoValue:
        raise ValueError("`rtol` and `rcond` can't be both set.")
    rcond = asarray(rcond)
    if a.size == 0 and np.prod(a.shape[-2:]) == 0:
        m, n = a.shape[-2:]
        return wrap(np.empty(a.shape[:-2] + (n, m), dtype=a.dtype))
    u, s, vt = svd(conjugate(a), full_matrices=False, hermitian=hermitian)
    cutoff = multiply(reshape(rcond, rcond.shape + (1,)), amax(s, axis=-1, keepdims=True))
    large = greater(s, cutoff)
    s = where(large, divide(1, where(large, s, 1)), 0).astype(s.dtype)
    return matmul(matrix_transpose(vt), multiply(reshape(s, s.shape + (1,)), matrix_transpose(u)))


def matrix_power(a, n):
    """Mirrors numpy.linalg.matrix_power: repeated squaring; inv first for n < 0."""
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


def tensorinv(a, ind=2):
    """Mirrors numpy.linalg.tensorinv."""
    a = asarray(a)
    oldshape = a.shape
    if ind <= 0:
        raise ValueError("Invalid ind argument.")
    invshape = oldshape[ind:] + oldshape[:ind]
    prod = int(np.prod(oldshape[ind:], dtype=np.int64))
    return reshape(inv(reshape(a, (prod, -1))), invshape)


def tensorsolve(a, b, axes=None):
    """Mirrors numpy.linalg.tensorsolve."""
    from arraystack._manipulation import transpose

    a, b = asarray(a), asarray(b)
    an = a.ndim
    if axes is not None:
        allaxes = list(range(an))
        for k in axes:
            allaxes.remove(k)
            allaxes.insert(an, k)
        a = transpose(a, allaxes)
    oldshape = a.shape[-(an - b.ndim) :]
    prod = int(np.prod(oldshape, dtype=np.int64))
    if a.size != prod**2:
        raise LinAlgError(
            "Input arrays must satisfy the requirement prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim])"
        )
    res = solve(reshape(a, (prod, prod)), reshape(b, (b.size,)))
    return reshape(res, oldshape)


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


def multi_dot(arrays, *, out=None):
    """Mirrors numpy.linalg.multi_dot: the cheapest parenthesization of a chain of dot products."""
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
    from arraystack._linalg import _dot_out

    return _dot_out(result, out)


__all__ = [
    "SlogdetResult",
    "det",
    "inv",
    "lstsq",
    "matrix_power",
    "multi_dot",
    "pinv",
    "slogdet",
    "solve",
    "tensorinv",
    "tensorsolve",
]
