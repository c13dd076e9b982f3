"""Products other than matmul/dot: vdot, inner, outer, tensordot, kron, vecdot, matvec, vecmat.

Each is one dot_general (or a broadcast multiply) after NumPy's dtype promotion and shape checks, so it
traces and differentiates through the core primitives.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from arraystack._core.array import ndarray, scalar_result, wrap
from arraystack._core.devices import constants_on_operand_device
from arraystack._core.dtypes import holds_host, result_type
from arraystack._core.interop import call_host
from arraystack._core.operands import convert_raw
from arraystack._core.overrides import defers_to_numpy, kind
from arraystack._core.shapes import normalize_axis
from arraystack._creation.basic import asarray
from arraystack._manipulation.reshaping import (
    broadcast_shapes,
    broadcast_to,
    expand_dims,
    moveaxis,
    reshape,
)
from arraystack._math.elementwise import conjugate, multiply
from arraystack._transforms import reduced_layouts, result_layouts
from arraystack.ir.core import bind
from arraystack.ir.structural import dot_general_p
from arraystack.linalg._gufuncs import as_gufunc

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from arraystack.typing import ArrayLike, NDArray


def _promoted(a, b):
    """Both operands as arraystack arrays of their common dtype."""
    a, b = asarray(a), asarray(b)
    dt = result_type(a, b)
    return _cast(a, dt), _cast(b, dt)


def _cast(x, dtype):
    """x as `dtype`: x itself where it already is, else a cast in x's memory order (order 'K')."""
    if x.dtype == dtype:
        return x
    out = wrap(convert_raw(x._value, dtype))
    result_layouts.copied(x, out)
    return out


def _conj(x):
    return conjugate(x) if x.dtype.kind == "c" else x


def _dot_general(a, b, contract, batch=((), ()), scalar=True):
    """The contraction; a 0-d eager result is NumPy's scalar (`scalar`: tensordot, which reshapes, gives
    an array)."""
    out = wrap(bind(dot_general_p, a._value, b._value, dimension_numbers=(contract, batch)))
    return scalar_result(out) if scalar else out


@defers_to_numpy
@constants_on_operand_device
def vdot(a: ArrayLike, b: ArrayLike, /) -> NDArray:
    """Return the dot product of two vectors, the first complex-conjugated.

    Parameters
    ----------
    a : array_like
        First argument; flattened, and conjugated if complex.
    b : array_like
        Second argument; flattened.

    Returns
    -------
    out : ndarray
        The dot product, a 0-d array.

    See Also
    --------
    numpy.vdot : The NumPy function this mirrors.
    dot, inner, vecdot
    """
    a, b = asarray(a), asarray(b)
    if holds_host(a) or holds_host(b):  # object arrays' Python numbers; NumPy's errors for the rest
        return call_host(np.vdot, (a, b), {})
    a, b = _promoted(a, b)
    if a.size != b.size:
        raise ValueError("cannot reshape array: vdot needs operands of the same size")
    a, b = reshape(_conj(a), (a.size,)), reshape(b, (b.size,))
    return _dot_general(a, b, ((0,), (0,)))


@defers_to_numpy
def inner(a: ArrayLike, b: ArrayLike, /) -> NDArray:
    """Inner product of two arrays: a sum product over the last axes.

    Parameters
    ----------
    a : array_like
        First input; its last dimension must match that of `b`.
    b : array_like
        Second input.

    Returns
    -------
    out : ndarray
        The inner product, of shape ``a.shape[:-1] + b.shape[:-1]``.

    See Also
    --------
    numpy.inner : The NumPy function this mirrors.
    tensordot, dot, vdot, outer
    """
    a, b = asarray(a), asarray(b)
    if holds_host(a) or holds_host(b):
        return call_host(np.inner, (a, b), {})
    a, b = _promoted(a, b)
    if a.ndim == 0 or b.ndim == 0:
        return multiply(a, b)
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(
            f"shapes {a.shape} and {b.shape} not aligned: {a.shape[-1]} (dim {a.ndim - 1}) != "
            f"{b.shape[-1]} (dim {b.ndim - 1})"
        )
    return _dot_general(a, b, ((a.ndim - 1,), (b.ndim - 1,)))


@defers_to_numpy
@constants_on_operand_device
def outer(a: ArrayLike, b: ArrayLike, out: NDArray | None = None) -> NDArray:
    """Compute the outer product of two vectors.

    Parameters
    ----------
    a : array_like
        First input; flattened if not 1-d.
    b : array_like
        Second input; flattened if not 1-d.
    out : ndarray, optional
        Alternative output array in which to place the result; it must have the expected shape.
        Eagerly it is written in place; traced, the update is functionalized.

    Returns
    -------
    out : ndarray
        ``out[i, j] = a[i] * b[j]``, of shape ``(a.size, b.size)``.

    See Also
    --------
    numpy.outer : The NumPy function this mirrors.
    inner, kron, multiply
    """
    a, b = asarray(a), asarray(b)
    return multiply(reshape(a, (a.size, 1)), reshape(b, (1, b.size)), out=out)


def _tensordot_axes(a, b, axes):
    try:
        n = int(axes)
    except TypeError:
        axes_a, axes_b = axes
        axes_a = [axes_a] if np.ndim(axes_a) == 0 else list(axes_a)
        axes_b = [axes_b] if np.ndim(axes_b) == 0 else list(axes_b)
    else:
        if n < 0:
            raise ValueError("negative dimensions are not allowed")
        if n > a.ndim or n > b.ndim:
            raise ValueError("shape-mismatch for sum")
        axes_a, axes_b = list(range(a.ndim - n, a.ndim)), list(range(n))
    if len(axes_a) != len(axes_b):
        raise ValueError("shape-mismatch for sum")
    axes_a = [normalize_axis(x, a.ndim) for x in axes_a]
    axes_b = [normalize_axis(x, b.ndim) for x in axes_b]
    if any(a.shape[i] != b.shape[j] for i, j in zip(axes_a, axes_b)):
        raise ValueError("shape-mismatch for sum")
    return tuple(axes_a), tuple(axes_b)


@defers_to_numpy
@constants_on_operand_device
def tensordot(a: ArrayLike, b: ArrayLike, axes: int | Sequence[Any] = 2) -> NDArray:
    """Compute the tensor dot product along specified axes.

    Parameters
    ----------
    a : array_like
        First tensor.
    b : array_like
        Second tensor.
    axes : int or (2,) array_like
        An integer N sums over the last N axes of `a` and the first N of `b`; a pair of sequences
        names the axes of `a` and `b` to sum over.

    Returns
    -------
    out : ndarray
        The tensor dot product: the free axes of `a` followed by those of `b`.

    See Also
    --------
    numpy.tensordot : The NumPy function this mirrors.
    dot, einsum
    """
    a, b = _promoted(a, b)
    axes_a, axes_b = _tensordot_axes(a, b, axes)
    if len(set(axes_a)) != len(axes_a) or len(set(axes_b)) != len(axes_b):
        raise ValueError("repeated axis in tensordot")
    return _dot_general(a, b, (axes_a, axes_b), scalar=False)


@defers_to_numpy
@constants_on_operand_device
def kron(a: ArrayLike, b: ArrayLike) -> NDArray:
    """Kronecker product of two arrays.

    The operands are padded with leading unit axes to the same rank, as in NumPy.

    Parameters
    ----------
    a : array_like
        First input.
    b : array_like
        Second input.

    Returns
    -------
    out : ndarray
        The Kronecker product.

    See Also
    --------
    numpy.kron : The NumPy function this mirrors.
    outer
    """
    a, b = asarray(a), asarray(b)
    if a.ndim == 0 or b.ndim == 0:
        return multiply(a, b)
    nda, ndb = a.ndim, b.ndim
    nd = max(nda, ndb)
    as_ = (1,) * max(0, ndb - nda) + a.shape
    bs = (1,) * max(0, nda - ndb) + b.shape
    a = reshape(a, as_)
    b = reshape(b, bs)
    a = expand_dims(a, tuple(range(1, nd * 2, 2)))
    b = expand_dims(b, tuple(range(0, nd * 2, 2)))
    return reshape(multiply(a, b), tuple(x * y for x, y in zip(as_, bs)))


def _core_error(name, signature, operand, dim, got, want):
    return ValueError(
        f"{name}: Input operand {operand} has a mismatch in its core dimension {dim}, with gufunc "
        f"signature {signature} (size {got} is different from {want})"
    )


def _few_dims(name, signature, operand, have, need):
    return ValueError(
        f"{name}: Input operand {operand} does not have enough dimensions (has {have}, gufunc core "
        f"with signature {signature} requires {need})"
    )


def _into(result, out):
    """A gufunc's result, or written into `out` (its shape exactly, NumPy's same_kind casting)."""
    if out is None:
        return result
    from arraystack._math.elementwise import store_results

    if isinstance(out, tuple) and len(out) == 1:
        out = out[0]
    return store_results([result], out, True, "same_kind", 1)


def _overriding(x1, x2) -> bool:
    """Whether an operand overrides NumPy (a pandas Series, a masked array): NumPy's gufunc (vecdot,
    matvec, vecmat) then dispatches to it."""
    return (type(x1) is not ndarray and kind(x1) is not None) or (
        type(x2) is not ndarray and kind(x2) is not None
    )


def vecdot(
    x1: ArrayLike, x2: ArrayLike, /, out: NDArray | None = None, *, axis: int = -1
) -> NDArray:
    """Vector dot product of two arrays: ``sum(conj(x1) * x2)`` over `axis`.

    Parameters
    ----------
    x1 : array_like
        First input array.
    x2 : array_like
        Second input array.
    axis : int, optional
        The axis holding the vectors; the last by default.
    out : ndarray, optional
        Where to store the result, of the result's shape (NumPy's ``same_kind`` casting); it is
        returned.

    Returns
    -------
    out : ndarray
        The vector dot products, with the remaining (loop) axes broadcast.

    See Also
    --------
    numpy.vecdot : The NumPy function this mirrors.
    vdot, matvec, vecmat

    Notes
    -----
    Mirrors NumPy 2's gufunc; the ufunc keywords other than `axis` are not supported.
    """
    if _overriding(x1, x2):
        return np.vecdot(x1, x2, **({} if out is None else {"out": out}), axis=axis)
    sig = "(n),(n)->()"
    a, b = _promoted(x1, x2)
    for i, x in enumerate((a, b)):
        if x.ndim == 0:
            raise _few_dims("vecdot", sig, i, 0, 1)
    a = moveaxis(_conj(a), normalize_axis(axis, a.ndim), -1)
    b = moveaxis(b, normalize_axis(axis, b.ndim), -1)
    if a.shape[-1] != b.shape[-1]:
        raise _core_error("vecdot", sig, 1, 0, b.shape[-1], a.shape[-1])
    loop = broadcast_shapes(a.shape[:-1], b.shape[:-1])
    a = broadcast_to(a, loop + a.shape[-1:])
    b = broadcast_to(b, loop + b.shape[-1:])
    batch = tuple(range(len(loop)))
    result = _dot_general(a, b, ((len(loop),), (len(loop),)), (batch, batch))
    return _into(reduced_layouts.looped((a, b), result) if out is None else result, out)


def matvec(x1: ArrayLike, x2: ArrayLike, /, out: NDArray | None = None) -> NDArray:
    """Matrix-vector dot product of two arrays: ``(..., m, n) x (..., n) -> (..., m)``.

    Parameters
    ----------
    x1 : array_like
        Input matrices.
    x2 : array_like
        Input vectors.
    out : ndarray, optional
        Where to store the result, of the result's shape (NumPy's ``same_kind`` casting); it is
        returned.

    Returns
    -------
    out : ndarray
        The matrix-vector products, with the loop axes broadcast.

    See Also
    --------
    numpy.matvec : The NumPy function this mirrors.
    vecmat, matmul, vecdot

    Notes
    -----
    Mirrors the NumPy 2.2 gufunc; the ufunc keywords are not supported.
    """
    if _overriding(x1, x2):
        return np.matvec(x1, x2, **({} if out is None else {"out": out}))
    sig = "(m,n),(n)->(m)"
    a, b = _promoted(x1, x2)
    if a.ndim < 2:
        raise _few_dims("matvec", sig, 0, a.ndim, 2)
    if b.ndim < 1:
        raise _few_dims("matvec", sig, 1, 0, 1)
    if a.shape[-1] != b.shape[-1]:
        raise _core_error("matvec", sig, 1, 0, b.shape[-1], a.shape[-1])
    loop = broadcast_shapes(a.shape[:-2], b.shape[:-1])
    a = broadcast_to(a, loop + a.shape[-2:])
    b = broadcast_to(b, loop + b.shape[-1:])
    nl = len(loop)
    batch = tuple(range(nl))
    result = _dot_general(a, b, ((nl + 1,), (nl,)), (batch, batch))
    return _into(reduced_layouts.looped((a, b), result, (2, 1), 1) if out is None else result, out)


def vecmat(x1: ArrayLike, x2: ArrayLike, /, out: NDArray | None = None) -> NDArray:
    """Vector-matrix dot product of two arrays: ``conj(x1) (..., n) x (..., n, m) -> (..., m)``.

    Parameters
    ----------
    x1 : array_like
        Input vectors (conjugated).
    x2 : array_like
        Input matrices.
    out : ndarray, optional
        Where to store the result, of the result's shape (NumPy's ``same_kind`` casting); it is
        returned.

    Returns
    -------
    out : ndarray
        The vector-matrix products, with the loop axes broadcast.

    See Also
    --------
    numpy.vecmat : The NumPy function this mirrors.
    matvec, matmul, vecdot

    Notes
    -----
    Mirrors the NumPy 2.2 gufunc; the ufunc keywords are not supported.
    """
    if _overriding(x1, x2):
        return np.vecmat(x1, x2, **({} if out is None else {"out": out}))
    sig = "(n),(n,m)->(m)"
    a, b = _promoted(x1, x2)
    if a.ndim < 1:
        raise _few_dims("vecmat", sig, 0, 0, 1)
    if b.ndim < 2:
        raise _few_dims("vecmat", sig, 1, b.ndim, 2)
    if a.shape[-1] != b.shape[-2]:
        raise _core_error("vecmat", sig, 1, 0, b.shape[-2], a.shape[-1])
    loop = broadcast_shapes(a.shape[:-1], b.shape[:-2])
    a = broadcast_to(_conj(a), loop + a.shape[-1:])
    b = broadcast_to(b, loop + b.shape[-2:])
    nl = len(loop)
    batch = tuple(range(nl))
    result = _dot_general(a, b, ((nl,), (nl,)), (batch, batch))
    return _into(reduced_layouts.looped((a, b), result, (1, 2), 1) if out is None else result, out)


for _function in (vecdot, matvec, vecmat):
    as_gufunc(_function, getattr(np, _function.__name__))


__all__ = ["inner", "kron", "matvec", "outer", "tensordot", "vdot", "vecdot", "vecmat"]
