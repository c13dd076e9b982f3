"""Norms and matrix properties: norm, vector_norm, matrix_norm, cond, matrix_rank.

Compositions of arraystack reductions and elementwise functions (and svdvals/inv for the spectral and
condition numbers), in the order numpy.linalg computes them.
"""

from __future__ import annotations

import numpy as np

from arraystack._array import wrap
from arraystack._creation import asarray
from arraystack._elementwise import absolute, conjugate, multiply, not_equal, power, sqrt
from arraystack._elementwise_functions import real
from arraystack._linalg import dot
from arraystack._manipulation import moveaxis, reshape, transpose
from arraystack._reductions import count_nonzero
from arraystack._reductions import max as _max
from arraystack._reductions import min as _min
from arraystack._reductions import sum as _sum
from arraystack._shapes import normalize_axis, normalize_axis_tuple
from arraystack.linalg._factorizations import svd
from arraystack.linalg._operands import (
    LinAlgError,
    assert_stacked_square,
    concrete,
    real_dtype,
    result_dtype,
)
from arraystack.linalg._solvers import inv


def _svd_norm(x, row_axis, col_axis, op, **kwargs):
    y = moveaxis(x, (row_axis, col_axis), (-2, -1))
    return op(svd(y, compute_uv=False), axis=-1, **kwargs)


def _vector(x, ord, axis, keepdims):
    if ord == np.inf:
        return _max(absolute(x), axis=axis, keepdims=keepdims, initial=0)
    if ord == -np.inf:
        return _min(absolute(x), axis=axis, keepdims=keepdims)
    if ord == 0:
        return _sum(not_equal(x, 0).astype(real(x).dtype), axis=axis, keepdims=keepdims)
    if ord == 1:
        return _sum(absolute(x), axis=axis, keepdims=keepdims)
    if ord is None or ord == 2:
        return sqrt(_sum(real(multiply(conjugate(x), x)), axis=axis, keepdims=keepdims))
    if isinstance(ord, str):
        raise ValueError(f"Invalid norm order '{ord}' for vectors")  # noqa: TRY004  (NumPy's type)
    ret = _sum(power(absolute(x), ord), axis=axis, keepdims=keepdims)
    return power(ret, np.reciprocal(ord, dtype=ret.dtype))


def _matrix(x, ord, axis, keepdims):
    nd = x.ndim
    row_axis, col_axis = (normalize_axis(a, nd) for a in axis)
    if row_axis == col_axis:
        raise ValueError("Duplicate axes given.")
    if ord == 2:
        ret = _svd_norm(x, row_axis, col_axis, _max, initial=0)
    elif ord == -2:
        ret = _svd_norm(x, row_axis, col_axis, _min)
    elif ord in (1, -1):
        col = col_axis - 1 if col_axis > row_axis else col_axis
        reduce, extra = (_max, {"initial": 0}) if ord == 1 else (_min, {})
        ret = reduce(_sum(absolute(x), axis=row_axis), axis=col, **extra)
    elif ord in (np.inf, -np.inf):
        row = row_axis - 1 if row_axis > col_axis else row_axis
        reduce, extra = (_max, {"initial": 0}) if ord == np.inf else (_min, {})
        ret = reduce(_sum(absolute(x), axis=col_axis), axis=row, **extra)
    elif ord in (None, "fro", "f"):
        ret = sqrt(_sum(real(multiply(conjugate(x), x)), axis=axis))
    elif ord == "nuc":
        ret = _svd_norm(x, row_axis, col_axis, _sum, initial=0)
    else:
        raise ValueError("Invalid norm order for matrices.")
    if keepdims:
        shape = list(x.shape)
        shape[axis[0]] = 1
        shape[axis[1]] = 1
        ret = reshape(ret, tuple(shape))
    return ret


def norm(x, ord=None, axis=None, keepdims=False):
    """Mirrors numpy.linalg.norm: vector norms (ord inf, -inf, 0, 1, 2, p) over one axis, matrix norms
    ('fro', 'nuc', inf, -inf, 1, -1, 2, -2) over two, NumPy's defaults when axis is None."""
    x = asarray(x)
    if x.dtype.kind not in "fc":
        x = x.astype(float)
    if axis is None:
        ndim = x.ndim
        if ord is None or (ord in ("f", "fro") and ndim == 2) or (ord == 2 and ndim == 1):
            flat = reshape(x, (x.size,))
            if x.dtype.kind == "c":
                re, im = real(flat), flat.imag
                sqnorm = dot(re, re) + dot(im, im)
            else:
                sqnorm = dot(flat, flat)
            ret = sqrt(sqnorm)
            return reshape(ret, (1,) * ndim) if keepdims else ret
        axis = tuple(range(ndim))
    elif not isinstance(axis, tuple):
        try:
            axis = int(axis)
        except Exception as e:
            raise TypeError("'axis' must be None, an integer or a tuple of integers") from e
        axis = (axis,)
    if len(axis) == 1:
        return _vector(x, ord, axis, keepdims)
    if len(axis) == 2:
        return _matrix(x, ord, axis, keepdims)
    raise ValueError("Improper number of dimensions to norm.")


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    """Mirrors numpy.linalg.vector_norm: any number of axes, flattened together."""
    x = asarray(x)
    shape = list(x.shape)
    if axis is None:
        x = reshape(x, (x.size,))
        _axis = 0
    elif isinstance(axis, tuple):
        normalized = normalize_axis_tuple(axis, x.ndim)
        rest = tuple(i for i in range(x.ndim) if i not in normalized)
        x = transpose(x, axis + rest)
        x = reshape(
            x, (int(np.prod([shape[i] for i in axis], dtype=int)), *[shape[i] for i in rest])
        )
        _axis = 0
    else:
        _axis = axis
    res = norm(x, axis=_axis, ord=ord)
    if keepdims:
        for i in normalize_axis_tuple(range(len(shape)) if axis is None else axis, len(shape)):
            shape[i] = 1
        res = reshape(res, tuple(shape))
    return res


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    """Mirrors numpy.linalg.matrix_norm: norm over the last two axes."""
    return norm(asarray(x), axis=(-2, -1), keepdims=keepdims, ord=ord)


def cond(x, p=None):
    """Mirrors numpy.linalg.cond: ratio of extreme singular values (p None, 2, -2), else
    norm(x, p) * norm(inv(x), p); inf for a singular matrix. Note: under a trace, a singular matrix
    with p not in (None, 2, -2) raises LinAlgError where NumPy returns inf."""
    x = asarray(x)
    if x.size == 0 and np.prod(x.shape[-2:]) == 0:
        raise LinAlgError("cond is not defined on empty arrays")
    value = concrete(x)
    # eager: NumPy's own inverse, which gives NaN (then inf) for singular stacks
    if value is not None:
        return wrap(np.asarray(np.linalg.cond(value, p)))
    if p is None or p in (2, -2):
        s = svd(x, compute_uv=False)
        return s[..., -1] / s[..., 0] if p == -2 else s[..., 0] / s[..., -1]
    assert_stacked_square(x)
    r = norm(x, p, axis=(-2, -1)) * norm(inv(x), p, axis=(-2, -1))
    return r.astype(real_dtype(result_dtype(x)))


def matrix_rank(A, tol=None, hermitian=False, *, rtol=None):
    """Mirrors numpy.linalg.matrix_rank: singular values above tol (default max(s) * max(M, N) * eps)."""
    from arraystack._elementwise import equal, greater
    from arraystack._reductions import all as _all

    if rtol is not None and tol is not None:
        raise ValueError("`tol` and `rtol` can't be both set.")
    A = asarray(A)
    if A.ndim < 2:
        return int(not bool(_all(equal(A, 0))))
    S = svd(A, compute_uv=False, hermitian=hermitian)
    if tol is None:
        if rtol is None:
            rtol = max(A.shape[-2:]) * np.finfo(S.dtype).eps
        else:
            rtol = asarray(rtol)
            rtol = reshape(rtol, rtol.shape + (1,))
        tol = multiply(_max(S, axis=-1, keepdims=True, initial=0), rtol)
    else:
        tol = asarray(tol)
        tol = reshape(tol, tol.shape + (1,))
    return count_nonzero(greater(S, tol), axis=-1)


__all__ = ["cond", "matrix_norm", "matrix_rank", "norm", "vector_norm"]
