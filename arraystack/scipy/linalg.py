"""arraystack.scipy.linalg: scipy.linalg's common functions (`jax.scipy.linalg`'s set) written in
arraystack operations, with SciPy's arguments and conventions (cholesky's upper factor by default, a
triangle read where SciPy reads one), so that they trace, compile and differentiate.

Triangular solves run through arraystack.linalg.solve on the triangle (a general factorization of a
triangular matrix is exact to the same rounding, at n**3 rather than n**2 work). expm is Higham's
scaling and squaring with the [13/13] Pade approximant; under a transformation its squarings are a
fixed 16, masked per matrix, and a matrix that needs more (1-norm beyond 3.5e5) gives nan, as JAX's.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache

import numpy as np

import arraystack as ast
from arraystack.linalg._operands import concrete

__all__ = [
    "block_diag",
    "cho_factor",
    "cho_solve",
    "cholesky",
    "det",
    "eigh",
    "expm",
    "inv",
    "qr",
    "solve",
    "solve_triangular",
    "svd",
]

_THETA_13 = 5.371920351148152  # Higham (2005): the largest 1-norm the [13/13] approximant takes
_MAX_TRACED_SQUARINGS = 16


def _square(a, name: str):
    a = ast.asarray(a)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(
            f"{name}: expected a square matrix (or a stack of them), got shape {a.shape}"
        )
    if a.dtype.kind not in "fc":
        a = a.astype(np.float64)
    elif a.dtype == np.float16:  # LAPACK has no half precision: SciPy computes in float32
        a = a.astype(np.float32)
    return a


def _conj_t(a):
    return ast.conj(ast.matrix_transpose(a)) if a.dtype.kind == "c" else ast.matrix_transpose(a)


def _hermitian_from(a, lower: bool):
    """The Hermitian matrix whose lower (or upper) triangle is a's: the one LAPACK reads."""
    t = ast.tril(a) if lower else ast.triu(a)
    d = ast.tril(ast.triu(a))
    return t + _conj_t(t) - d


def cholesky(a, lower: bool = False, overwrite_a: bool = False, check_finite: bool = True):
    """The Cholesky factor of a Hermitian positive-definite matrix.

    Parameters
    ----------
    a : array_like
        (..., M, M) Hermitian positive definite; the triangle named by `lower` is read.
    lower : bool
        The lower factor L (a = L L^H) rather than the upper U (a = U^H U), SciPy's default.
    overwrite_a, check_finite : bool
        Accepted for SciPy's signature; arrays are never overwritten.

    Returns
    -------
    ndarray
        The triangular factor.

    Raises
    ------
    LinAlgError
        a is not positive definite (where arraystack.linalg.cholesky raises).

    See Also
    --------
    scipy.linalg.cholesky : the function mirrored.
    arraystack.linalg.cholesky : NumPy's (the lower factor).
    """
    a = _square(a, "cholesky")
    factor = ast.linalg.cholesky(_hermitian_from(a, lower))
    return factor if lower else _conj_t(factor)


def cho_factor(a, lower: bool = False, overwrite_a: bool = False, check_finite: bool = True):
    """The Cholesky factorization as cho_solve takes it: (c, lower).

    Parameters
    ----------
    a : array_like
        Hermitian positive definite matrix.
    lower : bool
        Which factor; the other triangle of c is zero (SciPy leaves a's entries there, which cho_solve
        never reads).
    overwrite_a, check_finite : bool
        Accepted for SciPy's signature.

    Returns
    -------
    tuple
        (c, lower).

    See Also
    --------
    scipy.linalg.cho_factor : the function mirrored.
    """
    return cholesky(a, lower=lower), lower


def cho_solve(c_and_lower, b, overwrite_b: bool = False, check_finite: bool = True):
    """Solve a x = b given cho_factor's (c, lower).

    Parameters
    ----------
    c_and_lower : tuple
        (c, lower) from cho_factor.
    b : array_like
        (M,) or (M, K) right-hand side.
    overwrite_b, check_finite : bool
        Accepted for SciPy's signature.

    Returns
    -------
    ndarray
        x.

    See Also
    --------
    scipy.linalg.cho_solve : the function mirrored.
    """
    c, lower = c_and_lower
    c, b = ast.asarray(c), ast.asarray(b)
    column = b[:, None] if b.ndim == 1 else b  # one vector, for each matrix of a stack
    first, second = (0, "C") if lower else ("C", 0)
    y = solve_triangular(c, column, lower=lower, trans=first)
    x = solve_triangular(c, y, lower=lower, trans=second)
    return x[..., 0] if b.ndim == 1 else x


def solve_triangular(
    a,
    b,
    trans=0,
    lower: bool = False,
    unit_diagonal: bool = False,
    overwrite_b: bool = False,
    check_finite: bool = True,
):
    """Solve a x = b for a triangular a (only its triangle is read).

    Parameters
    ----------
    a : array_like
        (M, M); the lower or upper triangle is read.
    b : array_like
        (M,) or (M, K).
    trans : {0, 1, 2, 'N', 'T', 'C'}
        a x = b, a^T x = b or a^H x = b.
    lower : bool
        Which triangle.
    unit_diagonal : bool
        Take a's diagonal as ones.
    overwrite_b, check_finite : bool
        Accepted for SciPy's signature.

    Returns
    -------
    ndarray
        x, b's shape.

    See Also
    --------
    scipy.linalg.solve_triangular : the function mirrored.
    """
    a = _square(a, "solve_triangular")
    t = ast.tril(a) if lower else ast.triu(a)
    if unit_diagonal:
        n = a.shape[-1]
        t = t - ast.tril(ast.triu(t)) + ast.eye(n, dtype=t.dtype)
    kind = {0: "N", 1: "T", 2: "C", "N": "N", "T": "T", "C": "C"}.get(trans)
    if kind is None:
        raise ValueError(f"solve_triangular: trans must be 0, 1, 2, 'N', 'T' or 'C', not {trans!r}")
    if kind == "T":
        t = ast.matrix_transpose(t)
    elif kind == "C":
        t = _conj_t(t)
    return _solve(t, b)


def _solve(a, b):
    b = ast.asarray(b)
    if b.ndim == 1:  # one vector, for each matrix of a stack
        return ast.linalg.solve(a, b[:, None])[..., 0]
    return ast.linalg.solve(a, b)


def solve(a, b, lower: bool = False, overwrite_a: bool = False, overwrite_b: bool = False,
          check_finite: bool = True, assume_a=None, transposed: bool = False):  # fmt: skip
    """Solve a x = b.

    Parameters
    ----------
    a : array_like
        (M, M).
    b : array_like
        (M,) or (M, K).
    lower : bool
        For assume_a 'sym', 'her' or 'pos': which triangle of a is read.
    assume_a : {None, 'gen', 'general', 'sym', 'symmetric', 'her', 'hermitian', 'pos', 'positive definite'}
        What a is: general (LU), symmetric or Hermitian (one triangle read), positive definite (Cholesky).
    transposed : bool
        Solve a^T x = b.
    overwrite_a, overwrite_b, check_finite : bool
        Accepted for SciPy's signature.

    Returns
    -------
    ndarray
        x.

    See Also
    --------
    scipy.linalg.solve : the function mirrored.
    """
    a = _square(a, "solve")
    kind = {None: "gen", "gen": "gen", "general": "gen", "sym": "sym", "symmetric": "sym",
            "her": "her", "hermitian": "her", "pos": "pos", "positive definite": "pos"}.get(assume_a)  # fmt: skip
    if kind is None:
        raise ValueError(f"solve: assume_a {assume_a!r} is not one of 'gen', 'sym', 'her', 'pos'")
    if kind == "pos":
        return cho_solve(cho_factor(a, lower=lower), b)
    if kind == "sym":
        t = ast.tril(a) if lower else ast.triu(a)
        a = t + ast.matrix_transpose(t) - ast.tril(ast.triu(a))
    elif kind == "her":
        a = _hermitian_from(a, lower)
    if transposed:
        a = ast.matrix_transpose(a)
    return _solve(a, b)


def inv(a, overwrite_a: bool = False, check_finite: bool = True):
    """The inverse of a square matrix (arraystack.linalg.inv). See scipy.linalg.inv.

    Parameters
    ----------
    a : array_like
        (..., M, M).
    overwrite_a, check_finite : bool
        Accepted for SciPy's signature.

    Returns
    -------
    ndarray
        The inverse.
    """
    return ast.linalg.inv(_square(a, "inv"))


def det(a, overwrite_a: bool = False, check_finite: bool = True):
    """The determinant (arraystack.linalg.det). See scipy.linalg.det.

    Parameters
    ----------
    a : array_like
        (..., M, M).
    overwrite_a, check_finite : bool
        Accepted for SciPy's signature.

    Returns
    -------
    ndarray
        The determinant.
    """
    return ast.linalg.det(_square(a, "det"))


def eigh(a, b=None, lower: bool = True, eigvals_only: bool = False, **kwargs):
    """Eigenvalues (ascending) and eigenvectors of a Hermitian matrix.

    Parameters
    ----------
    a : array_like
        (M, M); the triangle named by `lower` is read.
    b : None
        The generalized problem is not computed here.
    lower : bool
        Which triangle (SciPy's default: lower).
    eigvals_only : bool
        Return the eigenvalues only.
    **kwargs
        SciPy's other options are accepted when they leave the standard problem (overwrite_a,
        check_finite, driver=None, type=1).

    Returns
    -------
    ndarray or tuple
        w, or (w, v).

    See Also
    --------
    scipy.linalg.eigh : the function mirrored.
    """
    if b is not None:
        raise NotImplementedError(
            "eigh: the generalized problem (b) is not computed by arraystack.scipy.linalg"
        )
    extra = {
        k: v for k, v in kwargs.items() if k not in ("overwrite_a", "overwrite_b", "check_finite")
    }
    if (
        extra.get("driver") is not None
        or extra.get("type", 1) != 1
        or set(extra) - {"driver", "type"}
    ):
        raise NotImplementedError(
            f"eigh: options {sorted(extra)} are not computed by arraystack.scipy.linalg"
        )
    h = _hermitian_from(_square(a, "eigh"), lower)
    if eigvals_only:
        return ast.linalg.eigvalsh(h)
    w, v = ast.linalg.eigh(h)
    return w, v


def svd(a, full_matrices: bool = True, compute_uv: bool = True, overwrite_a: bool = False,
        check_finite: bool = True, lapack_driver: str = "gesdd"):  # fmt: skip
    """The singular value decomposition, as SciPy returns it: (U, s, Vh), or s.

    Parameters
    ----------
    a : array_like
        (..., M, N).
    full_matrices, compute_uv : bool
        As in SciPy.
    overwrite_a, check_finite : bool
        Accepted for SciPy's signature.
    lapack_driver : str
        Accepted ('gesdd' or 'gesvd'): both give the same decomposition up to rounding.

    Returns
    -------
    tuple or ndarray
        (U, s, Vh), or s.
    """
    a = ast.asarray(a)
    if not compute_uv:
        return ast.linalg.svdvals(a)
    u, s, vh = ast.linalg.svd(a, full_matrices=full_matrices)
    return u, s, vh


def qr(a, overwrite_a: bool = False, lwork=None, mode: str = "full", pivoting: bool = False,
       check_finite: bool = True):  # fmt: skip
    """The QR decomposition, as SciPy returns it.

    Parameters
    ----------
    a : array_like
        (M, N).
    mode : {'full', 'economic', 'r'}
        Q (M, M) and R (M, N); Q (M, K) and R (K, N) with K = min(M, N); or (R,) alone, R (M, N) (a
        tuple, as SciPy's).
    pivoting : bool
        False only: column pivoting is not computed here.
    overwrite_a, lwork, check_finite
        Accepted for SciPy's signature.

    Returns
    -------
    tuple
        (Q, R), or (R,).
    """
    if pivoting:
        raise NotImplementedError("qr: column pivoting is not computed by arraystack.scipy.linalg")
    numpy_mode = {"full": "complete", "economic": "reduced", "r": "complete"}.get(mode)
    if numpy_mode is None:
        raise ValueError(f"qr: mode {mode!r} is not one of 'full', 'economic', 'r'")
    q, r = ast.linalg.qr(ast.asarray(a), mode=numpy_mode)
    return (r,) if mode == "r" else (q, r)


def block_diag(*arrs):
    """A block-diagonal matrix of the given arrays (scalars and 1-d arrays count as one row).

    Parameters
    ----------
    *arrs : array_like
        Up to 2-d each.

    Returns
    -------
    ndarray
        The blocks on the diagonal, zeros elsewhere, in their common dtype.

    See Also
    --------
    scipy.linalg.block_diag : the function mirrored.
    """
    if not arrs:
        return ast.zeros((1, 0))
    blocks = [ast.atleast_2d(ast.asarray(x)) for x in arrs]
    bad = [b.ndim for b in blocks if b.ndim > 2]
    if bad:
        raise ValueError(
            f"arguments in the following positions have dimension greater than 2: {bad}"
        )
    dtype = np.result_type(*[b.dtype for b in blocks])
    width = sum(b.shape[1] for b in blocks)
    rows, left = [], 0
    for b in blocks:
        right = width - left - b.shape[1]
        rows.append(ast.concatenate(
            [ast.zeros((b.shape[0], left), dtype), b.astype(dtype), ast.zeros((b.shape[0], right), dtype)],
            axis=1,
        ))  # fmt: skip
        left += b.shape[1]
    return ast.concatenate(rows, axis=0)


@cache
def _pade13() -> tuple:
    """The [13/13] Pade coefficients of exp: (2m - k)! m! / ((2m)! k! (m - k)!), scaled to integers."""
    m = 13
    c = [Fraction(math.factorial(2 * m - k) * math.factorial(m),
                  math.factorial(2 * m) * math.factorial(k) * math.factorial(m - k)) for k in range(m + 1)]  # fmt: skip
    scale = 1 / c[-1]
    return tuple(float(v * scale) for v in c)


def expm(A):
    """The matrix exponential.

    Parameters
    ----------
    A : array_like
        (..., M, M).

    Returns
    -------
    ndarray
        exp(A), A's shape (float64 for integer input).

    See Also
    --------
    scipy.linalg.expm : the function mirrored.
    jax.scipy.linalg.expm : JAX's.

    Notes
    -----
    Scaling and squaring with the [13/13] Pade approximant (Higham 2005), at the 1-norm's own number of
    squarings when A is known; under a transformation 16 squarings masked per matrix, nan beyond.
    Within a few times float64's rounding of SciPy's (tests compare them).
    """
    a = _square(A, "expm")
    n = a.shape[-1]
    if a.size == 0:
        return ast.zeros(a.shape, a.dtype)
    norm = ast.max(ast.sum(ast.abs(a), axis=-2), axis=-1)  # the 1-norm, per matrix
    with np.errstate(divide="ignore"):
        needed = ast.maximum(0.0, ast.ceil(ast.log2(norm / _THETA_13)))
    known = concrete(needed)
    if known is None:
        rounds = _MAX_TRACED_SQUARINGS
    else:  # a matrix with inf or nan needs no squaring to give SciPy's inf or nan
        finite = known[np.isfinite(known)]
        rounds = int(finite.max()) if finite.size else 0
        needed = ast.where(ast.isfinite(needed), needed, 0.0)
    squarings = needed[..., None, None]
    scaled = a / 2.0**squarings
    b = _pade13()
    eye = ast.eye(n, dtype=a.dtype)
    a2 = scaled @ scaled
    a4 = a2 @ a2
    a6 = a4 @ a2
    u = scaled @ (
        a6 @ (b[13] * a6 + b[11] * a4 + b[9] * a2) + b[7] * a6 + b[5] * a4 + b[3] * a2 + b[1] * eye
    )
    v = a6 @ (b[12] * a6 + b[10] * a4 + b[8] * a2) + b[6] * a6 + b[4] * a4 + b[2] * a2 + b[0] * eye
    r = ast.linalg.solve(v - u, v + u)
    for k in range(rounds):
        r = ast.where(squarings > k, r @ r, r)
    if known is None:
        r = ast.where(squarings > _MAX_TRACED_SQUARINGS, ast.nan, r)
    return r
