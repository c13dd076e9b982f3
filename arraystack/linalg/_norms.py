"""Norms and matrix properties: norm, vector_norm, matrix_norm, cond, matrix_rank.

Compositions of arraystack reductions and elementwise functions (and svdvals/inv for the spectral and
condition numbers), in the order numpy.linalg computes them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from arraystack._core.array import scalar_result, wrap
from arraystack._core.devices import constants_on_operand_device
from arraystack._core.overrides import defers_to
from arraystack._core.shapes import normalize_axis, normalize_axis_tuple
from arraystack._creation.basic import asarray
from arraystack._manipulation.reshaping import moveaxis, reshape, transpose
from arraystack._math.elementwise import absolute, conjugate, multiply, not_equal, power, sqrt
from arraystack._math.elementwise_functions import real
from arraystack._math.reductions import count_nonzero
from arraystack._math.reductions import max as _max
from arraystack._math.reductions import min as _min
from arraystack._math.reductions import sum as _sum
from arraystack._transforms import reduced_layouts
from arraystack.linalg._factorizations import svd
from arraystack.linalg._matmul import dot
from arraystack.linalg._operands import (
    LinAlgError,
    assert_stacked_square,
    concrete,
    real_dtype,
    result_dtype,
)
from arraystack.linalg._solvers import inv

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, AxisLike, NDArray


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


@defers_to(np.linalg.norm)
@reduced_layouts.keeps_operand_order(axis_at=2)
def norm(
    x: ArrayLike, ord: float | str | None = None, axis: AxisLike = None, keepdims: bool = False
) -> NDArray:
    """Compute a vector or matrix norm.

    Parameters
    ----------
    x : array_like
        Input array.
    ord : {non-zero int, inf, -inf, 'fro', 'nuc'}, optional
        Vector norms over one axis (inf, -inf, 0, 1, 2, any p); matrix norms over two ('fro',
        'nuc', inf, -inf, 1, -1, 2, -2).
    axis : int or 2-tuple of int, optional
        Axis (vector norm) or axes (matrix norm); None: the 2-norm of the flattened array, or
        NumPy's default for `ord`.
    keepdims : bool, optional
        Keep the reduced axes with size one.

    Returns
    -------
    ndarray
        The norm(s), real-valued.

    See Also
    --------
    numpy.linalg.norm : the function mirrored.
    arraystack.linalg.vector_norm, arraystack.linalg.matrix_norm

    Examples
    --------
    >>> import arraystack as np
    >>> np.linalg.norm(np.asarray([3.0, 4.0]))
    np.float64(5.0)
    """
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


@defers_to(np.linalg.vector_norm)
def vector_norm(
    x: ArrayLike, /, *, axis: AxisLike = None, keepdims: bool = False, ord: float = 2
) -> NDArray:
    """Compute a vector norm over any number of axes (flattened together).

    Parameters
    ----------
    x : array_like
        Input array.
    axis : int or tuple of int, optional
        Axes reduced together (default: all).
    keepdims : bool, optional
        Keep the reduced axes with size one.
    ord : float, optional
        The p of the p-norm (inf, -inf and 0 included).

    Returns
    -------
    ndarray
        The norm(s), real-valued.

    See Also
    --------
    numpy.linalg.vector_norm : the function mirrored.
    arraystack.linalg.norm, arraystack.linalg.matrix_norm
    """
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


@defers_to(np.linalg.matrix_norm)
def matrix_norm(x: ArrayLike, /, *, keepdims: bool = False, ord: float | str = "fro") -> NDArray:
    """Compute a matrix norm over the last two axes.

    Parameters
    ----------
    x : (..., M, N) array_like
        Matrix or stack of matrices.
    keepdims : bool, optional
        Keep the reduced axes with size one.
    ord : {'fro', 'nuc', inf, -inf, 1, -1, 2, -2}, optional
        Which matrix norm.

    Returns
    -------
    ndarray
        The norm(s), of shape (...).

    See Also
    --------
    numpy.linalg.matrix_norm : the function mirrored.
    arraystack.linalg.norm, arraystack.linalg.vector_norm
    """
    return norm(asarray(x), axis=(-2, -1), keepdims=keepdims, ord=ord)


@defers_to(np.linalg.cond)
@constants_on_operand_device
def cond(x: ArrayLike, p: float | str | None = None) -> NDArray:
    """Compute the condition number of a matrix.

    Parameters
    ----------
    x : (..., M, N) array_like
        Matrix or stack of matrices.
    p : {None, 1, -1, 2, -2, inf, -inf, 'fro'}, optional
        Norm: None, 2 and -2 use the ratio of extreme singular values, others ``norm(x, p) *
        norm(inv(x), p)``.

    Returns
    -------
    ndarray
        The condition number(s); inf for a singular matrix.

    See Also
    --------
    numpy.linalg.cond : the function mirrored.
    arraystack.linalg.norm, arraystack.linalg.svd

    Notes
    -----
    Under a trace, a singular matrix with `p` not in (None, 2, -2) raises LinAlgError where
    NumPy returns inf.
    """
    x = asarray(x)
    if x.size == 0 and np.prod(x.shape[-2:]) == 0:
        raise LinAlgError("cond is not defined on empty arrays")
    value = concrete(x)
    # eager: NumPy's own inverse, which gives NaN (then inf) for singular stacks
    if value is not None:
        return wrap(np.linalg.cond(value, p))  # NumPy's scalar for one matrix
    if p is None or p in (2, -2):
        s = svd(x, compute_uv=False)
        return s[..., -1] / s[..., 0] if p == -2 else s[..., 0] / s[..., -1]
    assert_stacked_square(x)
    r = norm(x, p, axis=(-2, -1)) * norm(inv(x), p, axis=(-2, -1))
    return r.astype(real_dtype(result_dtype(x)))


@defers_to(np.linalg.matrix_rank)
def matrix_rank(
    A: ArrayLike,
    tol: ArrayLike | None = None,
    hermitian: bool = False,
    *,
    rtol: ArrayLike | None = None,
) -> NDArray:
    """Return the rank of a matrix: the number of singular values above a tolerance.

    Parameters
    ----------
    A : array_like
        Matrix or stack of matrices (a vector has rank 1 unless it is zero).
    tol : array_like, optional
        Absolute threshold; default ``max(s) * max(M, N) * eps``.
    hermitian : bool, optional
        `A` is Hermitian: eigenvalues replace singular values.
    rtol : array_like, optional
        Relative threshold (the Array API's), instead of `tol`.

    Returns
    -------
    ndarray
        The rank(s), integer.

    See Also
    --------
    numpy.linalg.matrix_rank : the function mirrored.
    arraystack.linalg.svd, arraystack.linalg.svdvals
    """
    from arraystack._math.elementwise import equal, greater
    from arraystack._math.reductions import all as _all

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
    return scalar_result(count_nonzero(greater(S, tol), axis=-1))


__all__ = ["cond", "matrix_norm", "matrix_rank", "norm", "vector_norm"]
