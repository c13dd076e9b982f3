"""Products of masked arrays: inner and outer products, convolution and correlation (numpy.ma's
versions: masked entries count as 0, and a product entry is masked where its operands are)."""

from __future__ import annotations

import arraystack as xp
from arraystack.ma._array import MaskedArray, nomask
from arraystack.ma._masking import filled, getdata, getmask, getmaskarray, make_mask


def inner(a, b):
    """Returns the inner product of a and b for arrays of floating point types, masked as 0.

    Parameters
    ----------
    a, b : array_like
        Input arrays; a 0-d input counts as 1-d.

    Returns
    -------
    out : MaskedArray or scalar
        The inner product of the filled arrays (never masked).

    See Also
    --------
    numpy.ma.inner : The NumPy function this mirrors.
    """
    fa, fb = xp.asarray(filled(a, 0)), xp.asarray(filled(b, 0))
    fa = fa.reshape(1) if fa.ndim == 0 else fa
    fb = fb.reshape(1) if fb.ndim == 0 else fb
    result = xp.asarray(xp.inner(fa, fb))
    return result[()] if result.ndim == 0 else MaskedArray._new(result)


innerproduct = inner


def outer(a, b):
    """Compute the outer product of two vectors (flattened); masked where either entry is.

    Parameters
    ----------
    a, b : array_like
        Input vectors (flattened).

    Returns
    -------
    out : MaskedArray
        ``out[i, j] = a[i] * b[j]``.

    See Also
    --------
    numpy.ma.outer : The NumPy function this mirrors.
    """
    fa = xp.asarray(filled(a, 0)).ravel()
    fb = xp.asarray(filled(b, 0)).ravel()
    data = xp.outer(fa, fb)
    if getmask(a) is nomask and getmask(b) is nomask:
        return MaskedArray._new(data)
    ma, mb = getmaskarray(a).ravel(), getmaskarray(b).ravel()
    return MaskedArray(data, mask=make_mask(xp.logical_or(ma[:, None], mb[None, :])))


outerproduct = outer


def _overlaps(f, a, v, mode):
    """Where `f` (convolve or correlate) of two boolean arrays meets a True pair."""
    return f(xp.asarray(a).astype(int), xp.asarray(v).astype(int), mode=mode) > 0


def _convolve_or_correlate(f, a, v, mode, propagate_mask):
    ma, mv = getmaskarray(a), getmaskarray(v)
    if propagate_mask:
        ones_v = xp.ones(xp.shape(getdata(v)), dtype=bool)
        ones_a = xp.ones(xp.shape(getdata(a)), dtype=bool)
        mask = xp.logical_or(_overlaps(f, ma, ones_v, mode), _overlaps(f, ones_a, mv, mode))
        data = f(getdata(a), getdata(v), mode=mode)
    else:
        valid = _overlaps(f, xp.logical_not(ma), xp.logical_not(mv), mode)
        mask = xp.logical_not(valid)
        data = f(filled(a, 0), filled(v, 0), mode=mode)
    return MaskedArray(data, mask=mask)


def correlate(a, v, mode="valid", propagate_mask=True):
    """Cross-correlation of two 1-dimensional sequences, with masks.

    Parameters
    ----------
    a, v : array_like
        Input sequences.
    mode : {'valid', 'same', 'full'}, optional
        As for `arraystack.correlate`.
    propagate_mask : bool, optional
        If True, a result is masked when any masked entry takes part in it; if False, only when
        no pair of unmasked entries does.

    Returns
    -------
    out : MaskedArray
        The discrete cross-correlation.

    See Also
    --------
    numpy.ma.correlate : The NumPy function this mirrors.
    """
    return _convolve_or_correlate(xp.correlate, a, v, mode, propagate_mask)


def convolve(a, v, mode="full", propagate_mask=True):
    """Returns the discrete, linear convolution of two one-dimensional sequences, with masks.

    Parameters
    ----------
    a, v : array_like
        Input sequences.
    mode : {'valid', 'same', 'full'}, optional
        As for `arraystack.convolve`.
    propagate_mask : bool, optional
        If True, a result is masked when any masked entry takes part in it; if False, only when
        no pair of unmasked entries does.

    Returns
    -------
    out : MaskedArray
        The discrete convolution.

    See Also
    --------
    numpy.ma.convolve : The NumPy function this mirrors.
    """
    return _convolve_or_correlate(xp.convolve, a, v, mode, propagate_mask)
