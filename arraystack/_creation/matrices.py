"""Matrices: eye, identity, tri/tril/triu, diag, diagflat (the coordinate grids indices, meshgrid and
fromfunction live in coordinates.py).

Triangles and identities are iota comparisons (then convert or select); a diagonal matrix is built by
padding a column and re-reading it with a longer row, so no scatter is needed.
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING

import numpy as np

from arraystack._core.devices import constants_on_operand_device
from arraystack._core.array import wrap
from arraystack._core import devices as _devices
from arraystack._creation.basic import _check_order, _placed, asarray, astype
from arraystack._core.dtypes import check_supported, holds_host
from arraystack._core.interop import call_host
from arraystack._manipulation.reshaping import ravel, transpose
from arraystack._core.operands import broadcast_raw
from arraystack.ir import primitives as p
from arraystack.ir.core import bind, is_tracing
from arraystack.ir.structural import pad_p, reshape_p, slice_p
from arraystack._core.overrides import defers_to_numpy
from arraystack._transforms import result_layouts

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, DTypeLike, NDArray


def _diagonals(n, m, k):
    """(column - row) of each element of an (n, m) grid, and k as an int64 literal to compare it with
    (clamped: the differences lie well inside int64)."""
    i64 = np.dtype(np.int64)
    if is_tracing():
        rows = bind(p.iota_p, dtype=i64, shape=(n, m), dimension=0)
        cols = bind(p.iota_p, dtype=i64, shape=(n, m), dimension=1)
    else:  # eager: NumPy broadcasts a column of row numbers against a row of column numbers
        rows = bind(reshape_p, bind(p.iota_p, dtype=i64, shape=(n,), dimension=0), new_sizes=(n, 1))
        cols = bind(p.iota_p, dtype=i64, shape=(m,), dimension=0)
    return bind(p.sub_p, cols, rows), np.int64(max(min(k, 2**62), -(2**62)))


def eye(
    N: int,
    M: int | None = None,
    k: int = 0,
    dtype: DTypeLike = float,
    order: str = "C",
    *,
    device: object | None = None,
    like: ArrayLike | None = None,
) -> NDArray:
    """Return a 2-D array with ones on the diagonal and zeros elsewhere.

    Parameters
    ----------
    N : int
        Number of rows in the output.
    M : int, optional
        Number of columns in the output; by default equal to `N`.
    k : int, optional
        Index of the diagonal: 0 (the default) refers to the main diagonal.
    dtype : data-type, optional
        Data-type of the returned array; default float64.
    order : {'C', 'F'}, optional
        Whether the output should be stored in row-major (C-style) or column-major (Fortran-style)
        order in memory.
    device : str or Device, optional
        The device on which to place the created array (Array API); 'cpu' or None.
    like : array_like, optional
        Accepted for NumPy compatibility (NEP 35) and ignored.

    Returns
    -------
    I : ndarray of shape (N,M)
        An array where all elements are equal to zero, except for the k-th diagonal, whose values
        are equal to one.

    See Also
    --------
    numpy.eye : The NumPy function this mirrors.
    identity, diag, tri
    """
    target = _placed(device)
    if target is not None:
        return _devices.create_on(target, eye, N, M, k, dtype, order)
    _check_order(order)
    N = operator.index(N)
    M = N if M is None else operator.index(M)
    k = operator.index(k)
    dtype = check_supported(dtype)
    if N < 0 or M < 0:
        raise ValueError("negative dimensions are not allowed")
    if order == "F" and N > 1 and M > 1:
        return transpose(eye(M, N, -k, dtype))
    diff, kk = _diagonals(N, M, k)
    return astype(wrap(bind(p.eq_p, diff, kk)), dtype, copy=False)


def identity(n: int, dtype: DTypeLike = None, *, like: ArrayLike | None = None) -> NDArray:
    """Return the identity array: a square array with ones on the main diagonal.

    Parameters
    ----------
    n : int
        Number of rows (and columns) in the n x n output.
    dtype : data-type, optional
        Data-type of the output; defaults to float64.
    like : array_like, optional
        Accepted for NumPy compatibility (NEP 35) and ignored.

    Returns
    -------
    out : ndarray
        n x n array with its main diagonal set to one, and all other elements 0.

    See Also
    --------
    numpy.identity : The NumPy function this mirrors.
    eye, diag
    """
    return eye(n, dtype=float if dtype is None else dtype)


def tri(
    N: int,
    M: int | None = None,
    k: int = 0,
    dtype: DTypeLike = float,
    *,
    like: ArrayLike | None = None,
) -> NDArray:
    """An array with ones at and below the given diagonal and zeros elsewhere.

    Parameters
    ----------
    N : int
        Number of rows in the array.
    M : int, optional
        Number of columns in the output; by default equal to `N`.
    k : int, optional
        The sub-diagonal at and below which the array is filled: 0 is the main diagonal, k < 0 below
        it, k > 0 above.
    dtype : dtype, optional
        Data type of the returned array; default float.
    like : array_like, optional
        Accepted for NumPy compatibility (NEP 35) and ignored.

    Returns
    -------
    tri : ndarray of shape (N, M)
        Array with its lower triangle filled with ones and zero elsewhere.

    See Also
    --------
    numpy.tri : The NumPy function this mirrors.
    tril, triu, eye
    """
    N = operator.index(N)
    M = N if M is None else operator.index(M)
    dtype = check_supported(dtype)
    if isinstance(k, (float, np.floating)):  # NumPy takes it through an integer arange: its mask
        return asarray(np.tri(N, M, k, dtype=dtype))
    k = operator.index(k)
    diff, kk = _diagonals(max(N, 0), max(M, 0), k)  # NumPy's outer product of two aranges
    return astype(wrap(bind(p.le_p, diff, kk)), dtype, copy=False)


def _masked(m, mask, keep_where_true):
    """where(mask, m, 0) (or where(mask, 0, m)), with mask broadcast against m."""
    shape = np.broadcast_shapes(mask.shape, m.shape)
    pred = broadcast_raw(mask._value, shape)
    value = broadcast_raw(m._value, shape)
    zero = m.dtype.type(0)
    if keep_where_true:
        result = wrap(bind(p.select_p, pred, value, zero))
    else:
        result = wrap(bind(p.select_p, pred, zero, value))
    result_layouts.elementwise((mask, m), (result,))  # NumPy's where: its operands' order
    return result


@defers_to_numpy
@constants_on_operand_device
def tril(m: ArrayLike, k: int = 0) -> NDArray:
    """Lower triangle of an array: a copy with the elements above the k-th diagonal zeroed.

    Parameters
    ----------
    m : array_like, shape (..., M, N)
        Input array; for ndim > 2 the last two axes are used.
    k : int, optional
        Diagonal above which to zero elements: 0 (default) the main diagonal, k < 0 below it, k > 0
        above.

    Returns
    -------
    tril : ndarray, shape (..., M, N)
        Lower triangle of `m`, of same shape and data-type as `m`.

    See Also
    --------
    numpy.tril : The NumPy function this mirrors.
    triu, tri, tril_indices
    """
    m = asarray(m)
    if holds_host(m):  # object, structured, datetime, strings: NumPy's
        return call_host(np.tril, (m, k), {})
    mask = tri(*m.shape[-2:], k=k, dtype=bool)
    return _masked(m, mask, True)


@defers_to_numpy
@constants_on_operand_device
def triu(m: ArrayLike, k: int = 0) -> NDArray:
    """Upper triangle of an array: a copy with the elements below the k-th diagonal zeroed.

    Parameters
    ----------
    m : array_like, shape (..., M, N)
        Input array; for ndim > 2 the last two axes are used.
    k : int, optional
        Diagonal below which to zero elements: 0 (default) the main diagonal, k < 0 below it, k > 0
        above.

    Returns
    -------
    triu : ndarray, shape (..., M, N)
        Upper triangle of `m`, of same shape and data-type as `m`.

    See Also
    --------
    numpy.triu : The NumPy function this mirrors.
    tril, tri, triu_indices
    """
    m = asarray(m)
    if holds_host(m):
        return call_host(np.triu, (m, k), {})
    mask = tri(*m.shape[-2:], k=k - 1, dtype=bool)
    return _masked(m, mask, False)


def _diagonal_matrix(v, k):
    """A 2-D array with v on diagonal k: v as a column, padded with n zeros per row, read back with
    rows of n so that each value lands one step further right."""
    n = v.shape[0]
    zero = v.dtype.type(0)
    column = bind(reshape_p, v._value, new_sizes=(n, 1))
    rows = bind(pad_p, column, zero, padding_config=((0, 0, 0), (0, n, 0)))
    flat = bind(reshape_p, rows, new_sizes=(n * (n + 1),))
    square = bind(slice_p, flat, start_indices=(0,), limit_indices=(n * n,), strides=(1,))
    out = bind(reshape_p, square, new_sizes=(n, n))
    if k:
        a = abs(k)
        config = ((0, a, 0), (a, 0, 0)) if k > 0 else ((a, 0, 0), (0, a, 0))
        out = bind(pad_p, out, zero, padding_config=config)
    return wrap(out)


def _diagonal_of(v, k):
    """Diagonal k of a 2-D array: a strided slice of its flattened form."""
    n, m = v.shape
    if k >= 0:
        length, start = max(0, min(n, m - k)), k
    else:
        length, start = max(0, min(n + k, m)), -k * m
    flat = ravel(v)
    if length == 0:
        return wrap(
            bind(slice_p, flat._value, start_indices=(0,), limit_indices=(0,), strides=(1,))
        )
    limit = start + (length - 1) * (m + 1) + 1
    return wrap(
        bind(slice_p, flat._value, start_indices=(start,), limit_indices=(limit,), strides=(m + 1,))
    )


@defers_to_numpy
def diag(v: ArrayLike, k: int = 0) -> NDArray:
    """Extract a diagonal or construct a diagonal array.

    Parameters
    ----------
    v : array_like
        If 2-D, its k-th diagonal is returned; if 1-D, a 2-D array with `v` on the k-th diagonal.
    k : int, optional
        Diagonal in question: 0 (default) the main diagonal, k > 0 above it, k < 0 below.

    Returns
    -------
    out : ndarray
        The extracted diagonal or constructed diagonal array.

    See Also
    --------
    numpy.diag : The NumPy function this mirrors.
    diagonal, diagflat, trace, tril, triu

    Notes
    -----
    For a 2-D input NumPy returns a read-only view; arraystack returns a view of the flattened input
    (writable, and a copy when the input is not C-contiguous).
    """
    # Note: for a 2-D input NumPy returns a read-only view; here it is a view of the flattened input
    # (writable, and a copy when the input is not C-contiguous).
    v = asarray(v)
    if holds_host(v):
        return call_host(np.diag, (v, k), {})
    k = operator.index(k)
    if v.ndim == 1:
        return _diagonal_matrix(v, k)
    if v.ndim == 2:
        return _diagonal_of(v, k)
    raise ValueError("Input must be 1- or 2-d.")


@defers_to_numpy
def diagflat(v: ArrayLike, k: int = 0) -> NDArray:
    """Create a two-dimensional array with the flattened input as a diagonal.

    Parameters
    ----------
    v : array_like
        Input data, which is flattened and set as the k-th diagonal of the output.
    k : int, optional
        Diagonal to set; 0, the default, is the main diagonal.

    Returns
    -------
    out : ndarray
        The 2-D output array.

    See Also
    --------
    numpy.diagflat : The NumPy function this mirrors.
    diag, diagonal
    """
    v = asarray(v)
    if holds_host(v):
        return call_host(np.diagflat, (v, k), {})
    return _diagonal_matrix(ravel(v), operator.index(k))


__all__ = [
    "diag",
    "diagflat",
    "eye",
    "identity",
    "tri",
    "tril",
    "triu",
]
