"""Conversion rules of lax.linalg's factorizations and solves (convention: interpreter.py): lu,
triangular_solve, eigh, svd and qr, what jnp.linalg's solve, inv, det, slogdet, eigh, svd, qr and pinv
trace to; and platform_index, by which jnp.linalg picks an implementation per platform.

lu is LU with partial pivoting (the pivot of each column its first entry of largest magnitude, as
LAPACK's getrf picks it) run as arraystack.fori_loop over the columns, so it traces to one loop and
differentiates; triangular_solve reads the triangle lax names and solves with arraystack's solve. eigh,
svd and qr map onto arraystack's NumPy-style primitives, whose outputs come in another order. Eigen- and
singular vectors are unique up to sign (or phase): a converted program may return other signs than
JAX's, as two LAPACK builds may.
"""

from __future__ import annotations

import numpy

from arraystack.ir.core import bind
from arraystack.ir.linalg import eigh_p, qr_p, svd_p, svdvals_p

linalg_rules: dict = {}


def _lu(site, a, **params):
    import arraystack as ast
    from arraystack._core.array import raw, wrap

    a = wrap(a)
    *batch, m, n = a.shape
    rows = ast.arange(m)
    cols = ast.arange(n)
    steps = min(m, n)
    complex_ = numpy.dtype(a.dtype).kind == "c"

    def column(x, k):
        return ast.take_along_axis(x, ast.broadcast_to(ast.reshape(k, (1, 1)), (*batch, m, 1)), -1)[
            ..., 0
        ]

    def step(k, state):
        x, perm, pivots = state
        c = column(x, k)
        size = ast.abs(c.real) + ast.abs(c.imag) if complex_ else ast.abs(c)  # LAPACK's i?amax
        magnitude = ast.where(rows >= k, size, -1.0)
        p = ast.argmax(magnitude, axis=-1)[..., None]  # (..., 1): the first largest, as getrf
        swap = ast.where(rows == k, p, ast.where(rows == p, k, rows))  # (..., m)
        x = ast.take_along_axis(x, swap[..., None], axis=-2)
        perm = ast.take_along_axis(perm, swap, axis=-1)
        pivots = ast.where(ast.arange(steps) == k, p.astype(pivots.dtype), pivots)
        col = column(x, k)
        pivot = ast.take_along_axis(col, ast.broadcast_to(ast.reshape(k, (1,)), (*batch, 1)), -1)
        below = rows > k
        multipliers = ast.where(below, col / pivot, 0)
        row_k = ast.take_along_axis(x, ast.broadcast_to(ast.reshape(k, (1, 1)), (*batch, 1, n)), -2)
        update = multipliers[..., :, None] * ast.where(cols > k, row_k, 0)
        x = x - update
        x = ast.where(below[:, None] & (cols == k), multipliers[..., :, None], x)
        return x, perm, pivots

    perm = ast.broadcast_to(ast.arange(m, dtype=numpy.int32), (*batch, m))
    pivots = ast.zeros((*batch, steps), numpy.int32)
    x, perm, pivots = ast.fori_loop(0, steps, step, (a, perm, pivots))
    return [raw(x), raw(pivots), raw(perm)]


def _triangular_solve(
    site, a, b, *, left_side, lower, transpose_a, conjugate_a, unit_diagonal, **params
):
    import arraystack as ast
    from arraystack._core.array import raw, wrap

    a, b = wrap(a), wrap(b)
    t = ast.tril(a) if lower else ast.triu(a)
    if unit_diagonal:
        n = a.shape[-1]
        t = ast.where(ast.eye(n, dtype=bool), ast.ones((), a.dtype), t)
    if conjugate_a:
        t = ast.conj(t)
    if transpose_a:
        t = ast.matrix_transpose(t)
    if left_side:  # op(a) x = b
        return raw(ast.linalg.solve(t, b))
    # x op(a) = b, that is op(a)^T x^T = b^T
    solved = ast.linalg.solve(ast.matrix_transpose(t), ast.matrix_transpose(b))
    return raw(ast.matrix_transpose(solved))


def _eigh(site, a, *, lower=True, sort_eigenvalues=True, subset_by_index=None, **params):
    n = a.shape[-1]
    if subset_by_index is not None and tuple(subset_by_index) != (0, n):
        raise site.error("eigh of a subset of eigenvalues is not converted")
    w, v = bind(eigh_p, a, lower=bool(lower))  # ascending, as sort_eigenvalues asks
    return [v, w]


def _svd(site, a, *, full_matrices, compute_uv, subset_by_index=None, **params):
    k = min(a.shape[-2:])
    if subset_by_index is not None and tuple(subset_by_index) != (0, k):
        raise site.error("svd of a subset of singular values is not converted")
    if not compute_uv:
        return [bind(svdvals_p, a, hermitian=False)]
    u, s, vh = bind(svd_p, a, full_matrices=bool(full_matrices), hermitian=False)
    return [s, u, vh]


def _qr(site, a, *, full_matrices, pivoting=False, **params):
    if pivoting:
        raise site.error("QR with column pivoting is not converted")
    q, r = bind(qr_p, a, mode="complete" if full_matrices else "reduced")
    return [q, r]


def _platform_index(site, *, platforms, has_default=None, **params):
    """The branch of lax.platform_dependent for this program: the CPU's when one names it, else the
    default one (arraystack runs a converted program wherever its arrays are; the branches compute
    the same function)."""
    default = None
    for k, names in enumerate(platforms):
        if names is None:
            default = k
        elif "cpu" in names:
            return numpy.asarray(k, numpy.int32)
    if default is None:
        raise site.error(f"no branch for the CPU and no default among {platforms}")
    return numpy.asarray(default, numpy.int32)


linalg_rules.update(
    {
        "lu": _lu,
        "triangular_solve": _triangular_solve,
        "eigh": _eigh,
        "svd": _svd,
        "qr": _qr,
        "platform_index": _platform_index,
    }
)

__all__ = ["linalg_rules"]
