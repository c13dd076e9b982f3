"""Factorizations and eigenvalue problems: cholesky, qr, eig, eigvals, eigh, eigvalsh, svd, svdvals.

Each binds one primitive of jit/linalg.py after NumPy's dtype rule and shape checks; the results are the
named tuples NumPy 2 returns.
"""

from __future__ import annotations

import warnings
from typing import NamedTuple

import numpy as np

from arraystack._array import ndarray, wrap
from arraystack._creation import asarray
from arraystack._manipulation import matrix_transpose
from arraystack.ir.core import bind
from arraystack.ir.linalg import (
    cholesky_p,
    eig_p,
    eigh_p,
    eigvals_p,
    eigvalsh_p,
    qr_p,
    svd_p,
    svdvals_p,
)
from arraystack.linalg._operands import (
    LinAlgError,
    assert_stacked_2d,
    assert_stacked_square,
    concrete,
    data_dependent,
    prepare,
    real_dtype,
)


class EigResult(NamedTuple):
    eigenvalues: ndarray
    eigenvectors: ndarray


class EighResult(NamedTuple):
    eigenvalues: ndarray
    eigenvectors: ndarray


class QRResult(NamedTuple):
    Q: ndarray
    R: ndarray


class SVDResult(NamedTuple):
    U: ndarray
    S: ndarray
    Vh: ndarray


def cholesky(a, /, *, upper=False):
    """Mirrors numpy.linalg.cholesky: L with a = L L^H (or U = L^H with upper=True); LinAlgError if a is
    not positive definite (only its lower, or upper, triangle is read)."""
    (a,) = prepare(a)
    assert_stacked_square(a)
    return wrap(bind(cholesky_p, a._value, upper=bool(upper)))


def qr(a, mode="reduced"):
    """Mirrors numpy.linalg.qr: modes 'reduced', 'complete', 'r', 'raw' (and the deprecated 'full',
    'economic')."""
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


def _finite(a):
    value = concrete(a)
    if value is not None and not np.isfinite(value).all():
        raise LinAlgError("Array must not contain infs or NaNs")


def _real_if_real(a, *values):
    """NumPy's eig result type: real when `a` is real and every eigenvalue is real (values decide)."""
    if a.dtype.kind == "c":
        return [wrap(v) for v in values]
    w = concrete(wrap(values[0]))
    if w is None:
        raise data_dependent(
            "eig/eigvals of a real matrix return a real or a complex result type, which",
            "Convert the matrix to complex (a.astype(complex)) to trace it, or use eigh/eigvalsh for "
            "symmetric matrices.",
        )
    if np.all(w.imag == 0):
        dt = real_dtype(a.dtype)
        return [wrap(np.asarray(v).real.astype(dt)) for v in values]
    return [wrap(v) for v in values]


def eig(a):
    """Mirrors numpy.linalg.eig: eigenvalues and right eigenvectors of a general matrix; real results
    for a real matrix whose eigenvalues are all real. Note: under a trace the matrix must be complex."""
    (a,) = prepare(a)
    assert_stacked_square(a)
    _finite(a)
    w, v = bind(eig_p, a._value)
    return EigResult(*_real_if_real(a, w, v))


def eigvals(a):
    """Mirrors numpy.linalg.eigvals (see eig for the result type)."""
    (a,) = prepare(a)
    assert_stacked_square(a)
    _finite(a)
    return _real_if_real(a, bind(eigvals_p, a._value))[0]


def _uplo(UPLO):
    UPLO = UPLO.upper()
    if UPLO not in ("L", "U"):
        raise ValueError("UPLO argument must be 'L' or 'U'")
    return UPLO == "L"


def eigh(a, UPLO="L"):
    """Mirrors numpy.linalg.eigh: ascending real eigenvalues and orthonormal eigenvectors of a Hermitian
    matrix (only the UPLO triangle is read)."""
    lower = _uplo(UPLO)
    (a,) = prepare(a)
    assert_stacked_square(a)
    w, v = bind(eigh_p, a._value, lower=lower)
    return EighResult(wrap(w), wrap(v))


def eigvalsh(a, UPLO="L"):
    """Mirrors numpy.linalg.eigvalsh."""
    lower = _uplo(UPLO)
    (a,) = prepare(a)
    assert_stacked_square(a)
    return wrap(bind(eigvalsh_p, a._value, lower=lower))


def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    """Mirrors numpy.linalg.svd: U, S (descending), Vh; full_matrices, compute_uv and hermitian (through
    eigh, as NumPy does)."""
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


def svdvals(x, /):
    """Mirrors numpy.linalg.svdvals."""
    return svd(asarray(x), compute_uv=False)


__all__ = [
    "EigResult",
    "EighResult",
    "QRResult",
    "SVDResult",
    "cholesky",
    "eig",
    "eigh",
    "eigvals",
    "eigvalsh",
    "qr",
    "svd",
    "svdvals",
]
