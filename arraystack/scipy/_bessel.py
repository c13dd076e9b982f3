"""The modified Bessel functions of the first kind of orders 0 and 1 (i0, i0e, i1, i1e), written in
arraystack operations, in float64 (float32 input rounded back at the end).

Below |x| = 20, the power series I_nu(x) = (x/2)**nu sum (x**2/4)**k / (k! (k + nu)!), all of whose terms
are positive: 40 terms reach float64's precision at 20. x**2 is split exactly into a double and its
rounding error (Veltkamp and Dekker; every backend rounds each operation once, with no contracted
multiply-add), and the error is carried through the series' derivative, so the square's rounding (which
the series would multiply by up to x/2) never reaches the result. From 20, the asymptotic series
e**x / sqrt(2 pi x) sum (-1)**k a_k(nu) / x**k, 24 terms. The coefficients are exact rationals rounded
once, computed on first use.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache

import numpy as np

import arraystack as ast
from arraystack.scipy._gamma import _horner
from arraystack.scipy._loops import loop_dtype, real_float64

_SERIES_TO = 20.0
_SERIES_TERMS = 40
_ASYMPTOTIC_TERMS = 24
_SPLIT = 134217729.0  # 2**27 + 1


@cache
def _series(nu: int) -> tuple:
    """Coefficients of sum t**k / (k! (k + nu)!) and of its derivative in t, highest first."""
    c = [Fraction(1, math.factorial(k) * math.factorial(k + nu)) for k in range(_SERIES_TERMS)]
    d = [k * c[k] for k in range(1, _SERIES_TERMS)]
    return tuple(float(v) for v in reversed(c)), tuple(float(v) for v in reversed(d))


@cache
def _asymptotic(nu: int) -> tuple:
    """Coefficients (-1)**k a_k(nu), a_k = prod over j < k of (4 nu**2 - (2j + 1)**2) / (8 (j + 1)),
    highest first."""
    out, a = [], Fraction(1)
    for k in range(_ASYMPTOTIC_TERMS):
        out.append(float(a * (-1) ** k))
        a = a * Fraction(4 * nu * nu - (2 * k + 1) ** 2, 8 * (k + 1))
    return tuple(reversed(out))


def _scaled(x, nu: int):
    """exp(-|x|) I_nu(x) for float64 x. I1's series multiplies by x itself (not |x| with the sign
    applied after), so its derivative at 0 is 1/2, not 0."""
    ax = ast.abs(x)
    series = ax < _SERIES_TO
    s = ast.where(series, ax, 1.0)
    # s*s = square + error exactly
    c = _SPLIT * s
    high = c - (c - s)
    low = s - high
    square = s * s
    error = ((high * high - square) + 2.0 * high * low) + low * low
    values, slopes = _series(nu)
    t = 0.25 * square
    total = _horner(values, t) + _horner(slopes, t) * (0.25 * error)
    if nu == 1:
        total = total * (0.5 * ast.where(series, x, 1.0))
    near = total * ast.exp(-s)
    # the asymptotic series (+inf gives its first term over sqrt(inf): 0)
    a = ast.where(series, _SERIES_TO, ax)
    far = _horner(_asymptotic(nu), 1.0 / a) / (ast.sqrt(a) * np.sqrt(2.0 * np.pi))
    if nu == 1:
        far = ast.where(x < 0, -far, far)
    return ast.where(series, near, far)


def _unscaled(x, scaled):
    """exp(|x|) times the scaled function, in two halves: finite as far as the function is; +-inf at
    +-inf, with the scaled function's sign."""
    ax = ast.abs(x)
    half = ast.exp(0.5 * ast.where(ax == ast.inf, 0.0, ax))
    return ast.where(
        ax == ast.inf, ast.where(ast.signbit(scaled), -ast.inf, ast.inf), (scaled * half) * half
    )


def _bessel(x, nu: int, scaled: bool, name: str):
    out_dtype = loop_dtype(x)
    x = real_float64(x, name)
    with np.errstate(all="ignore"):
        out = _scaled(x, nu)
        if not scaled:
            out = _unscaled(x, out)
        return out.astype(out_dtype, copy=False)


def i0(x):
    """The modified Bessel function of the first kind of order 0.

    Parameters
    ----------
    x : array_like
        Real input; float32 stays float32, every other real dtype gives float64.

    Returns
    -------
    ndarray
        I0(x), even in x; inf beyond |x| = 713.98 and at +-inf (where SciPy's gives nan).

    See Also
    --------
    scipy.special.i0 : the function mirrored.
    i0e : exp(-|x|) I0(x), which does not overflow.

    Notes
    -----
    The power series below |x| = 20, the asymptotic series above (see the module's docstring).
    Within 8 ulp of exact values; tests check it against mpmath on a dense grid.

    Examples
    --------
    >>> import arraystack as np
    >>> float(np.scipy.special.i0(0.0))
    1.0
    """
    return _bessel(x, 0, False, "i0")


def i0e(x):
    """The exponentially scaled modified Bessel function of order 0, exp(-|x|) I0(x).

    Parameters
    ----------
    x : array_like
        Real input; float32 stays float32, every other real dtype gives float64.

    Returns
    -------
    ndarray
        exp(-|x|) I0(x): 1 at 0, 0 at +-inf.

    See Also
    --------
    scipy.special.i0e : the function mirrored.
    jax.scipy.special.i0e : JAX's.

    Notes
    -----
    Within 8 ulp of exact values; tests check it against mpmath on a dense grid.

    Examples
    --------
    >>> import arraystack as np
    >>> float(np.scipy.special.i0e(0.0))
    1.0
    """
    return _bessel(x, 0, True, "i0e")


def i1(x):
    """The modified Bessel function of the first kind of order 1.

    Parameters
    ----------
    x : array_like
        Real input; float32 stays float32, every other real dtype gives float64.

    Returns
    -------
    ndarray
        I1(x), odd in x; +-inf beyond |x| = 713.98 and at +-inf (where SciPy's gives nan).

    See Also
    --------
    scipy.special.i1 : the function mirrored.
    i1e : exp(-|x|) I1(x), which does not overflow.

    Notes
    -----
    Within 8 ulp of exact values; tests check it against mpmath on a dense grid.

    Examples
    --------
    >>> import arraystack as np
    >>> float(np.scipy.special.i1(0.0))
    0.0
    """
    return _bessel(x, 1, False, "i1")


def i1e(x):
    """The exponentially scaled modified Bessel function of order 1, exp(-|x|) I1(x).

    Parameters
    ----------
    x : array_like
        Real input; float32 stays float32, every other real dtype gives float64.

    Returns
    -------
    ndarray
        exp(-|x|) I1(x): 0 at 0 and at +-inf.

    See Also
    --------
    scipy.special.i1e : the function mirrored.
    jax.scipy.special.i1e : JAX's.

    Notes
    -----
    Within 8 ulp of exact values; tests check it against mpmath on a dense grid.

    Examples
    --------
    >>> import arraystack as np
    >>> float(np.scipy.special.i1e(0.0))
    0.0
    """
    return _bessel(x, 1, True, "i1e")
