"""Stacks of matrices (the last two axes) for the linear-algebra derivative rules: products, transposes,
identities, diagonals, triangles and row/column scaling, written with the typed builders of ops.py so
that they bind primitives at whatever level the calling rule runs."""

from __future__ import annotations

import numpy as np
from arraystack.ir import linalg as la
from arraystack.ir import primitives as p
from arraystack.ir.ad import ops
from arraystack.ir.core import bind


def mT(x):
    n = ops.aval(x).ndim
    return ops.transpose(x, tuple(range(n - 2)) + (n - 1, n - 2))


def mH(x):
    return ops.conj(mT(x))


def mm(x, y):
    n = ops.aval(x).ndim
    batch = tuple(range(n - 2))
    return ops.dot_general(x, y, (((n - 1,), (n - 2,)), (batch, batch)))


def solve(a, b):
    return bind(la.solve_p, a, b)


def mask(x, keep):
    """A bool mask of x's shape from `keep(rows, cols)` on int64 iotas of the last two axes."""
    shape = ops.shape(x)
    rows = ops.iota(np.int64, shape, len(shape) - 2)
    cols = ops.iota(np.int64, shape, len(shape) - 1)
    return keep(rows, cols)


def eye_like(x):
    """The identity of x's dtype, broadcast to x's (square) shape."""
    eq = mask(x, lambda r, c: ops.eq(r, c))
    return ops.select(eq, ops.full(ops.shape(x), ops.dtype(x), 1), ops.zeros_like(x))


def inv(a):
    return solve(a, eye_like(a))


def diag(x):
    n = ops.aval(x).ndim
    return ops.reduce_sum(ops.mul(x, eye_like(x)), (n - 1,))


def diag_embed(v, like):
    """diag(v) for a stack of vectors v (..., k), of like's dtype."""
    v = ops.convert(v, ops.dtype(like))
    shape = ops.shape(v) + ops.shape(v)[-1:]
    n = len(shape)
    rows = ops.broadcast_in_dim(v, shape, tuple(range(n - 2)) + (n - 1,))
    return ops.mul(rows, eye_like(rows))


def row(v, like):
    """A stack of vectors (..., k) broadcast along the rows of like's shape (..., m, k): scales columns."""
    v = ops.convert(v, ops.dtype(like))
    n = len(ops.shape(like))
    return ops.broadcast_in_dim(v, ops.shape(like), tuple(range(n - 2)) + (n - 1,))


def col(v, like):
    v = ops.convert(v, ops.dtype(like))
    n = len(ops.shape(like))
    return ops.broadcast_in_dim(v, ops.shape(like), tuple(range(n - 1)))


def tril(x, k=0):
    keep = mask(x, lambda r, c: bind(p.ge_p, ops.add(r, ops.const(r, k)), c))
    return ops.select(keep, x, ops.zeros_like(x))


def sym(x):
    return ops.mul(ops.add(x, mH(x)), ops.const(x, 0.5))


def imag_part(x):
    """i * Im(x) as a value of x's dtype (zero for real x)."""
    if ops.dtype(x).kind != "c":
        return ops.zeros_like(x)
    return ops.sub(x, ops.convert(ops.real(x), ops.dtype(x)))


def trace(x):
    return ops.reduce_sum(diag(x), (ops.aval(x).ndim - 2,))


def expand2(v, like):
    """A stack of scalars (...) broadcast to like's (..., m, n)."""
    n = len(ops.shape(like))
    return ops.broadcast_in_dim(
        ops.convert(v, ops.dtype(like)), ops.shape(like), tuple(range(n - 2))
    )


def or_zeros(t, like):
    return ops.zeros_like(like) if t is None else t
