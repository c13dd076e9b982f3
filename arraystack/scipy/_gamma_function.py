"""The gamma function itself and what is built on it (gamma, gammasgn, beta, factorial, multigammaln),
written in arraystack operations, in float64 (float32 input rounded back at the end).

gamma(x) for x >= 10 is Stirling's formula with the power split in two (x**(x/2 - 1/4) twice) so that
nothing overflows before the result does; from 1 to 10 it is gamma on [1, 2) (exp of gammaln, whose
value there is below 0.13, so exp adds at most a few ulp) times the exact factors x - 1, x - 2, ...;
below 1 (and above -1/2), gamma(x + 1) / x; below -1/2, the reflection -pi / (x sin(pi x) gamma(-x)). As in the gamma
family's other functions, every branch runs on inputs clamped into its domain.
"""

from __future__ import annotations

import math

import numpy as np

import arraystack as ast
from arraystack.linalg._operands import concrete
from arraystack.scipy._gamma import (
    _horner,
    _lgamma_taylor,
    _stirling_tail,
    betaln,
    digamma,
    gammaln,
)
from arraystack.scipy._loops import loop_dtype, real_float64

_STIRLING_FROM = 10.0
_OVERFLOW = 171.62437695630272  # gamma overflows float64 beyond
_SQRT_TWO_PI = math.sqrt(2 * math.pi)


def is_odd(k):
    """Where the float64 integers k are odd."""
    return (k - 2.0 * ast.floor(k / 2.0)) == 1.0


def _sin_pi(x):
    """sin(pi x) without the rounding of pi x for large x: (-1)**k sin(pi (x - k)), k = round(x)."""
    k = ast.round(x)
    odd = is_odd(k)
    s = ast.sin(np.pi * (x - k))
    return ast.where(odd, -s, s)


def _gamma_positive(y):
    """gamma of float64 y > 0, y finite."""
    # Stirling from 10 to the overflow: sqrt(2 pi) v (v / e**y) exp(tail), v = y**(y/2 - 1/4)
    big = y >= _STIRLING_FROM
    z = ast.where(big & (y <= _OVERFLOW), y, _STIRLING_FROM)
    v = z ** (0.5 * z - 0.25)
    stirling = (v * _SQRT_TWO_PI) * (v / ast.exp(z)) * ast.exp(_stirling_tail(z))
    # 1 to 10: gamma(r) (x - 1) ... (x - n), r = x - n in [1, 2); each x - k is exact. Below 1:
    # gamma(y + 1) / y. gamma(r) is exp of gammaln's Taylor series about 1 or 2 (|gammaln| < 0.13 there).
    small = y < 1.0
    middle = (y >= 1.0) & ~big
    x = ast.where(middle, y, 1.5)
    n = ast.floor(x) - 1.0
    product = ast.ones_like(x)
    for k in range(1, 9):
        product = product * ast.where(n >= k, x - k, 1.0)
    s = ast.where(small, y, 0.5)
    r = ast.where(small, s + 1.0, x - n)
    e1, e2 = r - 1.0, r - 2.0
    series = ast.where(
        r < 1.375, e1 * _horner(_lgamma_taylor(1), e1), e2 * _horner(_lgamma_taylor(2), e2)
    )
    g = ast.exp(series)
    reduced = g * product
    below = g / s
    out = ast.where(big, stirling, ast.where(small, below, reduced))
    return ast.where(y > _OVERFLOW, ast.inf, out)


def gamma_float64(x):
    """gamma of float64 x: SciPy's values at the poles (inf at +-0 with 0's sign, nan at the negative
    integers and -inf)."""
    positive = (x > 0) & (x < ast.inf)
    near_zero = (x < 0) & (x > -0.5)  # gamma(1 + x) / x
    negative = (x <= -0.5) & (x > -ast.inf)
    pole = negative & (x == ast.floor(x))
    reflect = negative & ~pole
    y = ast.where(positive, x, ast.where(reflect, -x, ast.where(near_zero, 1.0 + x, 1.0)))
    base = _gamma_positive(y)
    # gamma(x) gamma(-x) = -pi / (x sin(pi x)): -x is exact, where 1 - x would round
    t = ast.where(reflect, x, -0.5)
    reflected = -np.pi / ((t * _sin_pi(t)) * base)  # +-0 where gamma(-x) overflows, as SciPy's
    out = ast.where(positive, base, ast.where(reflect, reflected, ast.nan))
    out = ast.where(near_zero, base / ast.where(near_zero, x, -0.25), out)
    out = ast.where(x == 0, ast.where(ast.signbit(x), -ast.inf, ast.inf), out)
    return ast.where(x == ast.inf, ast.inf, out)


def gamma(x):
    """The gamma function.

    Parameters
    ----------
    x : array_like
        Real input; float32 stays float32, every other real dtype gives float64.

    Returns
    -------
    ndarray
        gamma(x): +-inf at +-0, nan at the negative integers and -inf, inf beyond 171.62.

    See Also
    --------
    scipy.special.gamma : the function mirrored.
    jax.scipy.special.gamma : JAX's (exp of a Lanczos lgamma, with the sign).
    gammaln : its logarithm.

    Notes
    -----
    Stirling's formula from 10, gamma on [1, 2) times exact factors below, the reflection for x < 0
    (see the module's docstring). Within 8 ulp of exact values for x > 0 (tests check it against mpmath
    on a dense grid); for x < 0 within 8 ulp plus what rounding 1 - x costs, as SciPy's.

    Examples
    --------
    >>> import arraystack as np
    >>> float(np.scipy.special.gamma(5.0))
    24.0
    """
    out_dtype = loop_dtype(x)
    with np.errstate(all="ignore"):
        out = gamma_float64(real_float64(x, "gamma"))
    with np.errstate(over="ignore"):  # float32 rounds what it cannot hold to inf, as SciPy's
        return out.astype(out_dtype, copy=False)


def gammasgn(x):
    """The sign of the gamma function.

    Parameters
    ----------
    x : array_like
        Real input.

    Returns
    -------
    ndarray
        1 or -1 (-1 at -0.0 and on (-1, 0), (-3, -2), ...), nan at the negative integers, -inf and nan.

    See Also
    --------
    scipy.special.gammasgn : the function mirrored.

    Examples
    --------
    >>> import arraystack as np
    >>> float(np.scipy.special.gammasgn(-0.5))
    -1.0
    """
    out_dtype = loop_dtype(x)
    x = real_float64(x, "gammasgn")
    negative = x < 0
    pole = negative & (x == ast.floor(x))  # -inf included
    f = ast.floor(-ast.where(negative & ~pole, x, -0.5))
    odd = is_odd(f)
    sign = ast.where(negative, ast.where(odd, 1.0, -1.0), 1.0)
    sign = ast.where(x == 0, ast.where(ast.signbit(x), -1.0, 1.0), sign)
    out = ast.where(pole | ast.isnan(x), ast.nan, sign)
    with np.errstate(over="ignore"):  # float32 rounds what it cannot hold to inf, as SciPy's
        return out.astype(out_dtype, copy=False)


def beta(a, b):
    """The beta function, gamma(a) gamma(b) / gamma(a + b).

    Parameters
    ----------
    a, b : array_like
        Broadcastable real inputs; float32 pairs stay float32, everything else gives float64.

    Returns
    -------
    ndarray
        B(a, b): inf at the poles, except B(-n, k) for integers 0 < k <= n, which is the limit
        (-1)**k (k - 1)! (n - k)! / n!, as SciPy's.

    See Also
    --------
    scipy.special.beta : the function mirrored.
    betaln : log|B(a, b)|.

    Notes
    -----
    The ratio of three gamma values, the quotient taken first between the two nearest in size (as
    SciPy's), while all three are finite, corrected for the rounding of a + b, which gamma(a + b)
    magnifies by digamma(a + b); beyond, sign times exp(betaln), whose error grows with betaln's size
    as SciPy's does. Within 16 ulp of exact values for positive a and b below 60, where SciPy's is up
    to 300 ulp off (mostly from that rounding).

    Examples
    --------
    >>> import arraystack as np
    >>> float(np.scipy.special.beta(2.0, 3.0))
    0.08333333333333333
    """
    out_dtype = loop_dtype(a, b)
    a, b = ast.broadcast_arrays(real_float64(a, "beta"), real_float64(b, "beta"))
    with np.errstate(all="ignore"):
        a_pole = (a <= 0) & (a == ast.floor(a))
        b_pole = (b <= 0) & (b == ast.floor(b))
        # B(-n, k) = (-1)**k B(n - k + 1, k) for integers k with 0 < k <= n (either argument the pole)
        from_a = a_pole & ~b_pole & (b == ast.floor(b)) & (1.0 - a - b > 0)
        from_b = b_pole & ~a_pole & (a == ast.floor(a)) & (1.0 - a - b > 0)
        k = ast.where(from_a, b, ast.where(from_b, a, 1.0))
        p = ast.where(from_a | from_b, 1.0 - a - b, a)
        q = ast.where(from_a | from_b, k, b)
        odd = is_odd(k)
        sign = ast.where((from_a | from_b) & odd, -1.0, 1.0)
        inf_pole = (a_pole | b_pole) & ~from_a & ~from_b
        p, q = ast.where(inf_pole, 1.0, p), ast.where(inf_pole, 1.0, q)
        y = p + q
        ratio_ok = (ast.abs(p) < _OVERFLOW) & (ast.abs(q) < _OVERFLOW) & (ast.abs(y) < _OVERFLOW)
        gp = gamma_float64(ast.where(ratio_ok, p, 1.0))
        gq = gamma_float64(ast.where(ratio_ok, q, 1.0))
        y_pole = ratio_ok & (y <= 0) & (y == ast.floor(y))
        gy = gamma_float64(ast.where(ratio_ok & ~y_pole, y, 1.0))
        # divide by gamma(a + b) the one of gamma(a), gamma(b) nearer it in size, then multiply
        first = ast.abs(ast.abs(gp) - ast.abs(gy)) > ast.abs(ast.abs(gq) - ast.abs(gy))
        ratio = ast.where(first, (gq / gy) * gp, (gp / gy) * gq)
        # a + b rounds (its error e is exact: two-sum), and gamma(a + b) magnifies that by
        # digamma(a + b): gamma(y + e) = gamma(y) (1 + e digamma(y)) to first order
        back = y - p
        e = (p - (y - back)) + (q - back)
        slope = digamma(ast.where(ratio_ok & ~y_pole, y, 1.0))
        ratio = ratio * (1.0 - e * ast.where(ast.isfinite(slope), slope, 0.0))
        ratio = ast.where(y_pole, 0.0, ratio)  # 1/gamma(a + b) is 0 at its poles
        logs = ast.where(ratio_ok, 1.0, p), ast.where(ratio_ok, 1.0, q)
        signs = _sign(logs[0]) * _sign(logs[1]) * _sign(logs[0] + logs[1])
        large = signs * ast.exp(betaln(*logs))
        out = sign * ast.where(ratio_ok, ratio, large)
        out = ast.where(inf_pole, ast.inf, out)
        out = ast.where(ast.isnan(a) | ast.isnan(b), ast.nan, out)
    with np.errstate(over="ignore"):  # float32 rounds what it cannot hold to inf, as SciPy's
        return out.astype(out_dtype, copy=False)


def _sign(x):
    """gamma's sign for x off the poles."""
    f = ast.floor(-x)
    odd = is_odd(f)
    return ast.where((x < 0) & ~odd, -1.0, 1.0)


def factorial(n, exact: bool = False):
    """n! as gamma(n + 1), 0 for n < 0.

    Parameters
    ----------
    n : array_like
        Real input; float32 stays float32, everything else gives float64.
    exact : bool
        False only: exact integer factorials (SciPy's Python integers) are not computed here.

    Returns
    -------
    ndarray
        gamma(n + 1) where n >= 0, 0 where n < 0, nan at nan.

    See Also
    --------
    scipy.special.factorial : the function mirrored (with exact=False).

    Examples
    --------
    >>> import arraystack as np
    >>> float(np.scipy.special.factorial(5))
    120.0
    """
    if exact:
        raise NotImplementedError(
            "arraystack.scipy.special.factorial computes gamma(n + 1) in floating point (exact=False); "
            "exact integer factorials are Python integers: use math.factorial or scipy.special.factorial"
        )
    out_dtype = loop_dtype(n)
    n = real_float64(n, "factorial")
    with np.errstate(all="ignore"):
        out = ast.where(n < 0, 0.0, gamma_float64(ast.where(n < 0, 0.0, n) + 1.0))
    with np.errstate(over="ignore"):  # float32 rounds what it cannot hold to inf, as SciPy's
        return out.astype(out_dtype, copy=False)


def multigammaln(a, d: int):
    """The log of the multivariate gamma function of dimension d.

    Parameters
    ----------
    a : array_like
        Real input; each element must exceed (d - 1) / 2.
    d : int
        The dimension, a positive integer.

    Returns
    -------
    ndarray
        ``d (d - 1) / 4 log(pi) + sum over j = 1..d of gammaln(a - (j - 1) / 2)``, float64.

    Raises
    ------
    ValueError
        d not a positive integer; or, where a's values are known (not under a transformation), an
        element at most (d - 1) / 2, as SciPy's.

    See Also
    --------
    scipy.special.multigammaln : the function mirrored.

    Examples
    --------
    >>> import arraystack as np
    >>> round(float(np.scipy.special.multigammaln(3.0, 2)), 12)
    1.550194993958
    """
    if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or d <= 0:
        raise ValueError("d should be a positive integer (dimension)")
    a = real_float64(a, "multigammaln")
    known = concrete(a)
    if known is not None and np.any(known <= 0.5 * (d - 1)):
        raise ValueError(f"condition a ({np.min(known)}) > 0.5 * (d-1) ({0.5 * (d - 1)}) not met")
    out = d * (d - 1) * 0.25 * math.log(math.pi)
    for j in range(d):
        out = out + gammaln(a - j / 2.0)
    return out
