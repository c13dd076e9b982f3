"""Covariance and correlation matrices: cov and corrcoef, composed of average, dot and ufuncs as
numpy/lib/_function_base_impl.py writes them, so they trace and differentiate."""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

import numpy as np

import arraystack as anp
from arraystack._core.overrides import defers_to_numpy
from arraystack._core.devices import host_values
from arraystack.ir.core import Tracer

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, DTypeLike, NDArray


def _concrete(x) -> bool:
    return not isinstance(getattr(x, "_value", x), Tracer)


def _weights(weights, name, n, integral):
    w = anp.asarray(weights).astype(float)
    host = host_values(w._value) if _concrete(w) else None
    if integral and host is not None and not np.all(host == np.around(host)):
        raise TypeError(f"{name} must be integer")
    if w.ndim > 1:
        raise RuntimeError(f"cannot handle multidimensional {name}")
    if w.shape[0] != n:
        raise RuntimeError(f"incompatible numbers of samples and {name}")
    if host is not None and np.any(host < 0):
        raise ValueError(f"{name} cannot be negative")
    return w


@defers_to_numpy
def cov(
    m: ArrayLike,
    y: ArrayLike | None = None,
    rowvar: bool = True,
    bias: bool = False,
    ddof: int | None = None,
    fweights: ArrayLike | None = None,
    aweights: ArrayLike | None = None,
    *,
    dtype: DTypeLike = None,
) -> NDArray:
    """Estimate a covariance matrix, given data and weights.

    Parameters
    ----------
    m : array_like
        A 1-D or 2-D array of variables (rows, by default) and observations.
    y : array_like, optional
        An additional set of variables and observations.
    rowvar : bool, optional
        If True (default), each row is a variable; otherwise each column.
    bias : bool, optional
        Normalize by N instead of N - 1 (unless `ddof` is given).
    ddof : int, optional
        Overrides the normalization implied by `bias`.
    fweights : array_like, int, optional
        Integer frequency weights: how often each observation repeats.
    aweights : array_like, optional
        Observation (importance) weights.
    dtype : data-type, optional
        The desired data-type of the result. By default it is inferred from the input, as in NumPy.

    Returns
    -------
    out : ndarray
        The covariance matrix of the variables.

    See Also
    --------
    numpy.cov : The NumPy function this mirrors.
    corrcoef, var
    """
    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be integer")
    m = anp.asarray(m)
    if m.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    if y is not None:
        y = anp.asarray(y)
        if y.ndim > 2:
            raise ValueError("y has more than 2 dimensions")
    if dtype is None:
        dtype = np.result_type(m.dtype, np.float64, *(() if y is None else (y.dtype,)))
    X = anp.atleast_2d(m.astype(dtype))
    if not rowvar and m.ndim != 1:
        X = X.T
    if X.shape[0] == 0:
        return anp.reshape(anp.asarray(np.array([])), (0, 0))
    if y is not None:
        y = anp.atleast_2d(y.astype(dtype))
        if not rowvar and y.shape[0] != 1:
            y = y.T
        X = anp.concatenate((X, y), axis=0)
    if ddof is None:
        ddof = 1 if bias == 0 else 0
    w = None
    if fweights is not None:
        w = _weights(fweights, "fweights", X.shape[1], True)
    if aweights is not None:
        aweights = _weights(aweights, "aweights", X.shape[1], False)
        w = aweights if w is None else w * aweights
    avg, w_sum = anp.average(X, axis=1, weights=w, returned=True)
    w_sum = w_sum[0]
    if w is None:
        fact = X.shape[1] - ddof
    elif ddof == 0:
        fact = w_sum
    elif aweights is None:
        fact = w_sum - ddof
    else:
        fact = w_sum - ddof * anp.sum(w * aweights) / w_sum
    # Note: a traced weight sum cannot be checked; NumPy's warning and zeroing apply to concrete ones
    if _concrete(fact) and fact <= 0:
        warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=2)
        fact = 0.0
    X = X - avg[:, None]
    X_T = X.T if w is None else (X * w).T
    c = anp.dot(X, anp.conj(X_T))
    with np.errstate(divide="ignore"):
        c = (c * anp.true_divide(1, fact)).astype(c.dtype)  # NumPy scales in place
    return anp.squeeze(c)


@defers_to_numpy
def corrcoef(
    x: ArrayLike,
    y: ArrayLike | None = None,
    rowvar: bool = True,
    *,
    dtype: DTypeLike = None,
) -> NDArray:
    """Return Pearson product-moment correlation coefficients.

    The covariance matrix normalized by the standard deviations, clipped to [-1, 1].

    Parameters
    ----------
    x : array_like
        A 1-D or 2-D array of variables and observations.
    y : array_like, optional
        An additional set of variables and observations, same shape as `x`.
    rowvar : bool, optional
        If True (default), each row is a variable; otherwise each column.
    dtype : data-type, optional
        The desired data-type of the result. By default it is inferred from the input, as in NumPy.

    Returns
    -------
    R : ndarray
        The correlation coefficient matrix of the variables.

    See Also
    --------
    numpy.corrcoef : The NumPy function this mirrors.
    cov
    """
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim != 2:
        return c / c
    stddev = anp.sqrt(anp.real(anp.diag(c)))
    c = c / stddev[:, None]
    c = c / stddev[None, :]
    if c.dtype.kind == "c":
        return anp.clip(anp.real(c), -1, 1) + 1j * anp.clip(anp.imag(c), -1, 1)
    return anp.clip(c, -1, 1)


__all__ = ["corrcoef", "cov"]
