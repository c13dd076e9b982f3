"""Covariance, correlation coefficients and polynomial fits of masked data (numpy.ma.extras): each
pair of variables uses only the observations unmasked in both."""

from __future__ import annotations

import numpy as np

import arraystack as xp
from arraystack.ma._array import MaskedArray, masked, nomask
from arraystack.ma._masking import getdata, getmask, getmaskarray, mask_or


def _centred(x, y, rowvar, allow_masked):
    """numpy.ma's _covhelper: the variables minus their means, the float counts of unmasked
    observations and the effective rowvar."""
    x = MaskedArray(x, ndmin=2, copy=True, dtype=float)
    xmask = getmaskarray(x)
    if not allow_masked and bool(xmask.any()):
        raise ValueError("Cannot process masked data.")
    rowvar = 1 if x.shape[0] == 1 else int(bool(rowvar))
    axis = 1 - rowvar
    if y is not None:
        y = MaskedArray(y, ndmin=2, dtype=float)
        ymask = getmaskarray(y)
        if not allow_masked and bool(ymask.any()):
            raise ValueError("Cannot process masked data.")
        if (bool(xmask.any()) or bool(ymask.any())) and y.shape == x.shape:
            xmask = ymask = xp.logical_or(xmask, ymask)
            x = x._like(x._data, xmask)
            y = y._like(y._data, ymask)
        from arraystack.ma._routines import concatenate

        x = concatenate([x, y], axis=axis)
        xmask = xp.concatenate([xmask, ymask], axis=axis)
    notmask = xp.logical_not(xmask).astype(np.float32)
    mean = x.mean(axis=rowvar)
    mean = mean._map(lambda d: xp.expand_dims(d, rowvar)) if isinstance(mean, MaskedArray) else mean
    # Note: numpy.ma subtracts in place, so masked entries keep their data; they are filled with 0
    return xp.where(xmask, 0.0, getdata(x) - getdata(mean)), notmask, rowvar


def cov(x, y=None, rowvar=True, bias=False, allow_masked=True, ddof=None):
    """Estimate the covariance matrix, each pair of variables from their common unmasked entries.

    Parameters
    ----------
    x : array_like
        The variables (rows, or columns with ``rowvar=False``) and their observations.
    y : array_like, optional
        An additional set of variables and observations.
    rowvar : bool, optional
        Whether each row is a variable (True) or each column is.
    bias : bool, optional
        Normalise by N (True) rather than N - 1.
    allow_masked : bool, optional
        Whether masked values are allowed (else they raise ValueError).
    ddof : int, optional
        Delta degrees of freedom, overriding `bias`.

    Returns
    -------
    out : MaskedArray
        The covariance matrix; masked where no more than `ddof` observations are shared.

    Raises
    ------
    ValueError
        If `ddof` is not an integer, or data are masked and `allow_masked` is False.

    See Also
    --------
    numpy.ma.cov : The NumPy function this mirrors.
    """
    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be an integer")
    if ddof is None:
        ddof = 0 if bias else 1
    data, notmask, rowvar = _centred(x, y, rowvar, allow_masked)
    if not rowvar:
        data, notmask = data.T, notmask.T
    fact = xp.dot(notmask, notmask.T) - ddof
    with xp.errstate(divide="ignore", invalid="ignore"):
        values = xp.dot(data, data.T.conj()) / fact
    return MaskedArray(values, mask=fact <= 0).squeeze()


def corrcoef(x, y=None, rowvar=True, allow_masked=True):
    """Return Pearson product-moment correlation coefficients of masked data.

    Parameters
    ----------
    x : array_like
        The variables and their observations.
    y : array_like, optional
        An additional set of variables and observations.
    rowvar : bool, optional
        Whether each row is a variable (True) or each column is.
    allow_masked : bool, optional
        Whether masked values are allowed (else they raise ValueError).

    Returns
    -------
    R : MaskedArray or masked
        The correlation coefficient matrix.

    See Also
    --------
    numpy.ma.corrcoef : The NumPy function this mirrors.
    """
    from arraystack.ma._elementwise import sqrt, true_divide
    from arraystack.ma._products import outer

    corr = cov(x, y, rowvar, allow_masked=allow_masked)
    if corr.ndim < 2:
        return masked
    std = sqrt(corr.diagonal())
    result = true_divide(corr, outer(std, std))
    return corr._like(result._data, result._mask)


def vander(x, n=None):
    """Generate a Vandermonde matrix; the rows of masked entries are 0.

    Parameters
    ----------
    x : array_like
        1-D input array.
    n : int, optional
        Number of columns; ``len(x)`` by default.

    Returns
    -------
    out : ndarray
        The Vandermonde matrix (a plain array, as numpy.ma's).

    See Also
    --------
    numpy.ma.vander : The NumPy function this mirrors.
    """
    result = xp.vander(getdata(x), n)
    mask = getmask(x)
    if mask is nomask:
        return result
    return xp.where(mask[:, None], xp.zeros((), dtype=result.dtype), result)


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """Least squares polynomial fit, leaving out the observations masked in x, y or w.

    Parameters
    ----------
    x : array_like
        x-coordinates of the sample points.
    y : array_like
        y-coordinates (1-D, or 2-D with one data set per column; a masked entry drops its row).
    deg : int
        Degree of the fitting polynomial.
    rcond, full, w, cov
        As for `arraystack.polyfit`.

    Returns
    -------
    p : ndarray or tuple
        The coefficients, highest power first (and what `full` or `cov` ask for).

    Raises
    ------
    TypeError
        If `y` is not 1-D or 2-D, or `w` is not a 1-d array of `y`'s length.

    See Also
    --------
    numpy.ma.polyfit : The NumPy function this mirrors.
    """
    x, y = MaskedArray(x), MaskedArray(y)
    mask = getmask(x)
    if y.ndim == 1:
        mask = mask_or(mask, getmask(y))
    elif y.ndim == 2:
        if getmask(y) is not nomask:
            mask = mask_or(mask, y._mask.any(axis=1))
    else:
        raise TypeError("Expected a 1D or 2D array for y!")
    if w is not None:
        w = MaskedArray(w)
        if w.ndim != 1:
            raise TypeError("expected a 1-d array for weights")
        if w.shape[0] != y.shape[0]:
            raise TypeError("expected w and y to have the same length")
        mask = mask_or(mask, getmask(w))
    xd, yd, wd = x._data, y._data, None if w is None else w._data
    if mask is not nomask:
        keep = xp.logical_not(mask)
        xd, yd = xd[keep], yd[keep]
        wd = None if wd is None else wd[keep]
    return xp.polyfit(xd, yd, deg, rcond, full, wd, cov)
