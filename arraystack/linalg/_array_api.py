"""The array-API names numpy.linalg re-exports: matmul, tensordot, vecdot, matrix_transpose, outer (1-d
only), cross (3-vectors only), and diagonal/trace of the last two axes (a copy, where NumPy gives a read-only view)."""

from __future__ import annotations

from arraystack._calculus import cross as _cross
from arraystack._contractions import outer as _outer
from arraystack._contractions import tensordot as _tensordot
from arraystack._contractions import vecdot as _vecdot
from arraystack._creation import asarray
from arraystack._linalg import matmul as _matmul
from arraystack._manipulation import matrix_transpose
from arraystack._selection import diagonal as _diagonal
from arraystack._selection import trace as _trace


def matmul(x1, x2, /):
    """Mirrors numpy.linalg.matmul."""
    return _matmul(x1, x2)


def tensordot(x1, x2, /, *, axes=2):
    """Mirrors numpy.linalg.tensordot."""
    return _tensordot(x1, x2, axes=axes)


def vecdot(x1, x2, /, *, axis=-1):
    """Mirrors numpy.linalg.vecdot."""
    return _vecdot(x1, x2, axis=axis)


def outer(x1, x2, /):
    """Mirrors numpy.linalg.outer: 1-d operands only."""
    x1, x2 = asarray(x1), asarray(x2)
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError(
            f"Input arrays must be one-dimensional, but they are x1.ndim={x1.ndim} and x2.ndim={x2.ndim}."
        )
    return _outer(x1, x2)


def cross(x1, x2, /, *, axis=-1):
    """Mirrors numpy.linalg.cross: cross products of 3-vectors only."""
    x1, x2 = asarray(x1), asarray(x2)
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        raise ValueError(
            "Both input arrays must be (arrays of) 3-dimensional vectors, but they are "
            f"{x1.shape[axis]} and {x2.shape[axis]} dimensional instead."
        )
    return _cross(x1, x2, axis=axis)


def diagonal(x, /, *, offset=0):
    """Mirrors numpy.linalg.diagonal: the diagonals of the last two axes (a copy here, a read-only view
    in NumPy)."""
    return _diagonal(x, offset, -2, -1)


def trace(x, /, *, offset=0, dtype=None):
    """Mirrors numpy.linalg.trace: sums of the diagonals of the last two axes."""
    return _trace(x, offset, -2, -1, dtype=dtype)


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
