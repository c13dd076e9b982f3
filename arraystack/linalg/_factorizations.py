"""Factorizations: cholesky, qr, svd, svdvals (eigenvalue problems are in _eigen.py).

Each binds one primitive of jit/linalg.py after NumPy's dtype rule and shape checks; the results are the
named tuples NumPy 2 returns.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from arraystack._core.array import ndarray, wrap
from arraystack._core.overrides import defers_to
from arraystack._creation.basic import asarray
from arraystack._manipulation.reshaping import matrix_transpose
from arraystack.ir.core import bind
from arraystack.ir.linalg import (
    cholesky_p,
    qr_p,
    svd_p,
    svdvals_p,
)
from arraystack.linalg._operands import (
    assert_stacked_2d,
    assert_stacked_square,
    prepare,
)

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, NDArray


class QRResult(NamedTuple):
    """Named tuple returned by `arraystack.linalg.qr`: Q, R.

    Attributes
    ----------
    Q : ndarray
        Matrix with orthonormal columns.
    R : ndarray
        Upper-triangular matrix.

    See Also
    --------
    numpy.linalg.qr : returns NumPy's QRResult, mirrored.
    arraystack.linalg.qr
    """

    Q: ndarray
    R: ndarray


class SVDResult(NamedTuple):
    """Named tuple returned by `arraystack.linalg.svd`: U, S, Vh.

    Attributes
    ----------
    U : ndarray
        Left singular vectors as columns.
    S : ndarray
        Singular values, descending.
    Vh : ndarray
        Right singular vectors as rows.

    See Also
    --------
    numpy.linalg.svd : returns NumPy's SVDResult, mirrored.
    arraystack.linalg.svd
    """

    U: ndarray
    S: ndarray
    Vh: ndarray


@defers_to(np.linalg.cholesky)
def cholesky(a: ArrayLike, /, *, upper: bool = False) -> NDArray:
    """Compute the Cholesky factor of a Hermitian positive-definite matrix.

    Parameters
    ----------
    a : (..., M, M) array_like
        Hermitian positive-definite matrix (only its lower, or with `upper` its upper, triangle
        is read).
    upper : bool, optional
        Return the upper factor ``U = L^H`` instead of `L`.

    Returns
    -------
    ndarray
        `L` with ``a = L @ L^H`` (or `U` with ``a = U^H @ U``).

    See Also
    --------
    numpy.linalg.cholesky : the function mirrored.
    arraystack.linalg.solve, arraystack.linalg.eigh

    Notes
    -----
    LinAlgError when `a` is not positive definite. Traceable: works under `jit`, `grad` and
    `vmap` (factorizations are primitives with derivative and batching rules).
    """
    (a,) = prepare(a)
    assert_stacked_square(a)
    return wrap(bind(cholesky_p, a._value, upper=bool(upper)))


@defers_to(np.linalg.qr)
def qr(a: ArrayLike, mode: str = "reduced") -> QRResult | NDArray | tuple:
    """Compute the QR factorization of a matrix (or a stack of them).

    Parameters
    ----------
    a : (..., M, N) array_like
        Matrix or stack of matrices.
    mode : {'reduced', 'complete', 'r', 'raw'}, optional
        As NumPy: Q of shape (M, K) and R (K, N) with K = min(M, N); 'complete' gives Q (M, M);
        'r' only R; 'raw' LAPACK's (h, tau). The deprecated 'full' and 'economic' are accepted
        too.

    Returns
    -------
    QRResult or ndarray or tuple
        ``(Q, R)``, or R for mode 'r', or ``(h, tau)`` for mode 'raw'.

    See Also
    --------
    numpy.linalg.qr : the function mirrored.
    arraystack.linalg.svd, arraystack.linalg.cholesky

    Notes
    -----
    Traceable: works under `jit`, `grad` and `vmap` (factorizations are primitives with
    derivative and batching rules).
    """
    if mode not in ("reduced", "complete", "r", "raw"):
        if mode in ("f", "full"):
            warnings.warn(
                "The 'full' option is deprecated in favor of 'reduced'.\nFor backward compatibility let "
                "mode default.",
                DeprecationWarning,
                stacklevel=2,
            )
            mode = "reduced"
        elif mode in ("e", "economic"):
            warnings.warn("The 'economic' option is deprecated.", DeprecationWarning, stacklevel=2)
            mode = "economic"
        else:
            raise ValueError(f"Unrecognized mode '{mode}'")
    (a,) = prepare(a)
    assert_stacked_2d(a)
    if mode in ("raw", "economic"):
        h, tau = bind(qr_p, a._value, mode="raw")
        return matrix_transpose(wrap(h)) if mode == "economic" else (wrap(h), wrap(tau))
    q, r = bind(qr_p, a._value, mode="reduced" if mode == "r" else mode)
    return wrap(r) if mode == "r" else QRResult(wrap(q), wrap(r))


@defers_to(np.linalg.svd)
def svd(
    a: ArrayLike, full_matrices: bool = True, compute_uv: bool = True, hermitian: bool = False
) -> SVDResult | NDArray:
    """Compute the singular value decomposition ``a = U @ diag(S) @ Vh``.

    Parameters
    ----------
    a : (..., M, N) array_like
        Matrix or stack of matrices.
    full_matrices : bool, optional
        U of shape (M, M) and Vh (N, N); else (M, K) and (K, N) with K = min(M, N).
    compute_uv : bool, optional
        Return U and Vh too; else only S.
    hermitian : bool, optional
        `a` is Hermitian: computed through `eigh`, as NumPy does.

    Returns
    -------
    SVDResult or ndarray
        ``(U, S, Vh)`` with S descending, or S alone when `compute_uv` is False.

    See Also
    --------
    numpy.linalg.svd : the function mirrored.
    arraystack.linalg.svdvals, arraystack.linalg.pinv, arraystack.linalg.eigh

    Notes
    -----
    Traceable: works under `jit`, `grad` and `vmap` (factorizations are primitives with
    derivative and batching rules).
    """
    (a,) = prepare(a)
    if hermitian:
        assert_stacked_square(a)
    else:
        assert_stacked_2d(a)
    if not compute_uv:
        return wrap(bind(svdvals_p, a._value, hermitian=bool(hermitian)))
    full = bool(full_matrices) and not hermitian
    u, s, vh = bind(svd_p, a._value, full_matrices=full, hermitian=bool(hermitian))
    return SVDResult(wrap(u), wrap(s), wrap(vh))


@defers_to(np.linalg.svdvals)
def svdvals(x: ArrayLike, /) -> NDArray:
    """Compute the singular values of a matrix (or a stack of them).

    Parameters
    ----------
    x : (..., M, N) array_like
        Matrix or stack of matrices.

    Returns
    -------
    ndarray
        Singular values, descending, of shape (..., min(M, N)).

    See Also
    --------
    numpy.linalg.svdvals : the function mirrored.
    arraystack.linalg.svd
    """
    return svd(asarray(x), compute_uv=False)


__all__ = ["QRResult", "SVDResult", "cholesky", "qr", "svd", "svdvals"]
