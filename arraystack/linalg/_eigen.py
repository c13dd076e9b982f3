"""Eigenvalue problems: eig, eigvals (general matrices) and eigh, eigvalsh (Hermitian).

Each binds one primitive of jit/linalg.py after NumPy's dtype rule and shape checks; the results are the
named tuples NumPy 2 returns.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from arraystack._core.array import ndarray, wrap
from arraystack._core.overrides import defers_to
from arraystack.ir.core import bind
from arraystack.ir.linalg import eig_p, eigh_p, eigvals_p, eigvalsh_p
from arraystack.linalg._operands import (
    LinAlgError,
    assert_stacked_square,
    concrete,
    data_dependent,
    prepare,
    real_dtype,
)

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, NDArray


class EigResult(NamedTuple):
    """Named tuple returned by `arraystack.linalg.eig`: eigenvalues, eigenvectors.

    Attributes
    ----------
    eigenvalues : ndarray
        Eigenvalues, of shape (..., M).
    eigenvectors : ndarray
        Right eigenvectors as columns, of shape (..., M, M).

    See Also
    --------
    numpy.linalg.eig : returns NumPy's EigResult, mirrored.
    arraystack.linalg.eig
    """

    eigenvalues: ndarray
    eigenvectors: ndarray


class EighResult(NamedTuple):
    """Named tuple returned by `arraystack.linalg.eigh`: eigenvalues, eigenvectors.

    Attributes
    ----------
    eigenvalues : ndarray
        Ascending real eigenvalues, of shape (..., M).
    eigenvectors : ndarray
        Orthonormal eigenvectors as columns, of shape (..., M, M).

    See Also
    --------
    numpy.linalg.eigh : returns NumPy's EighResult, mirrored.
    arraystack.linalg.eigh
    """

    eigenvalues: ndarray
    eigenvectors: ndarray


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
        # NumPy returns w.real: a view of the complex values where the dtype is already the real one
        return [wrap(v.real.astype(dt, copy=False)) for v in values]  # on the values' device
    return [wrap(v) for v in values]


@defers_to(np.linalg.eig)
def eig(a: ArrayLike) -> EigResult:
    """Compute the eigenvalues and right eigenvectors of a general square matrix.

    Parameters
    ----------
    a : (..., M, M) array_like
        Square matrix or stack of square matrices.

    Returns
    -------
    EigResult
        ``(eigenvalues, eigenvectors)``: real when `a` is real and all its eigenvalues are real,
        else complex (as NumPy).

    See Also
    --------
    numpy.linalg.eig : the function mirrored.
    arraystack.linalg.eigvals, arraystack.linalg.eigh

    Notes
    -----
    Eagerly the result dtype depends on the data, as in NumPy; under a trace it cannot, so a
    traced `a` must be complex.
    """
    (a,) = prepare(a)
    assert_stacked_square(a)
    _finite(a)
    w, v = bind(eig_p, a._value)
    return EigResult(*_real_if_real(a, w, v))


@defers_to(np.linalg.eigvals)
def eigvals(a: ArrayLike) -> NDArray:
    """Compute the eigenvalues of a general square matrix.

    Parameters
    ----------
    a : (..., M, M) array_like
        Square matrix or stack of square matrices.

    Returns
    -------
    ndarray
        The eigenvalues, of shape (..., M); their dtype follows `eig`.

    See Also
    --------
    numpy.linalg.eigvals : the function mirrored.
    arraystack.linalg.eig, arraystack.linalg.eigvalsh
    """
    (a,) = prepare(a)
    assert_stacked_square(a)
    _finite(a)
    return _real_if_real(a, bind(eigvals_p, a._value))[0]


def _uplo(UPLO):
    UPLO = UPLO.upper()
    if UPLO not in ("L", "U"):
        raise ValueError("UPLO argument must be 'L' or 'U'")
    return UPLO == "L"


@defers_to(np.linalg.eigh)
def eigh(a: ArrayLike, UPLO: str = "L") -> EighResult:
    """Compute the eigenvalues and eigenvectors of a Hermitian (or real symmetric) matrix.

    Parameters
    ----------
    a : (..., M, M) array_like
        Square matrix or stack of square matrices.
    UPLO : {'L', 'U'}, optional
        Which triangle of `a` is read.

    Returns
    -------
    EighResult
        ``(eigenvalues, eigenvectors)``: ascending real eigenvalues, orthonormal eigenvectors as
        columns.

    See Also
    --------
    numpy.linalg.eigh : the function mirrored.
    arraystack.linalg.eigvalsh, arraystack.linalg.eig, arraystack.linalg.svd

    Notes
    -----
    Traceable: works under `jit`, `grad` and `vmap` (factorizations are primitives with
    derivative and batching rules).

    Examples
    --------
    >>> import arraystack as np
    >>> np.linalg.eigh(np.asarray([[2.0, 0.0], [0.0, 1.0]])).eigenvalues
    array([1., 2.])
    """
    lower = _uplo(UPLO)
    (a,) = prepare(a)
    assert_stacked_square(a)
    w, v = bind(eigh_p, a._value, lower=lower)
    return EighResult(wrap(w), wrap(v))


@defers_to(np.linalg.eigvalsh)
def eigvalsh(a: ArrayLike, UPLO: str = "L") -> NDArray:
    """Compute the eigenvalues of a Hermitian (or real symmetric) matrix.

    Parameters
    ----------
    a : (..., M, M) array_like
        Square matrix or stack of square matrices.
    UPLO : {'L', 'U'}, optional
        Which triangle of `a` is read.

    Returns
    -------
    ndarray
        Ascending real eigenvalues, of shape (..., M).

    See Also
    --------
    numpy.linalg.eigvalsh : the function mirrored.
    arraystack.linalg.eigh
    """
    lower = _uplo(UPLO)
    (a,) = prepare(a)
    assert_stacked_square(a)
    return wrap(bind(eigvalsh_p, a._value, lower=lower))


__all__ = ["EigResult", "EighResult", "eig", "eigh", "eigvals", "eigvalsh"]
