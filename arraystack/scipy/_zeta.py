"""The Riemann and Hurwitz zeta functions and polygamma, written in arraystack operations, in float64
(float32 input rounded back at the end).

zeta(s, q) for q > 0 is Euler-Maclaurin summation: the first 9 terms (q + k)**-s directly, then the
integral and 12 Bernoulli corrections at a = q + 9 (coefficients B(2j) / (2j)!, exact rationals rounded
once, computed on first use). The Riemann function is that at q = 1 from s = 1/2 up, and the
functional equation below, its gamma factor split by the duplication formula so that it overflows only
where the result does. For q < 0 and an integer s known when the call is made (polygamma's order, for
one), the reflection formula of polygamma: cot(pi q)'s derivatives are polynomials in cot(pi q), built
exactly for that order.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache

import numpy as np

import arraystack as ast
from arraystack.linalg._operands import concrete
from arraystack.scipy._gamma import digamma, gammaln
from arraystack.scipy._gamma_function import _sin_pi, gamma_float64, is_odd
from arraystack.scipy._loops import loop_dtype, real_float64

_DIRECT = 9
# polygamma's reflection is built for orders up to this (cot's n-th derivative polynomial, in Python,
# whose coefficients reach 1e300 there); beyond, |polygamma(n, x)| > n! 2**(n+1) overflows for every
# x < 0, and these give nan there
_MAX_REFLECTED_ORDER = 160
_LOG_PI = math.log(math.pi)
_HALF_LOG_2PI = 0.5 * math.log(2.0 * math.pi)
_CORRECTIONS = 12


@cache
def _bernoulli_over_factorial() -> tuple:
    """B(2j) / (2j)! for j = 1..12, from the recurrence sum over k <= m of C(m + 1, k) B(k) = 0."""
    b = [Fraction(1)]
    for m in range(1, 2 * _CORRECTIONS + 1):
        b.append(-sum(math.comb(m + 1, k) * b[k] for k in range(m)) / (m + 1))
    return tuple(float(b[2 * j] / math.factorial(2 * j)) for j in range(1, _CORRECTIONS + 1))


def _hurwitz_positive(s, q, s_minus_one=None):
    """zeta(s, q) for float64 s != 1 and q > 0 (the Euler-Maclaurin sum; for s < 1 its continuation).
    s_minus_one: s - 1 exactly, where s itself is a rounded 1 - t (near the pole it is all that
    matters). inf where q**-s overflows, 0 at q = inf (s > 0), computed on clamped inputs there."""
    with np.errstate(divide="ignore"):
        overflows = (q < 1.0) & (-s * ast.log(ast.where(q > 0, q, 1.0)) > 709.0)
    edge = overflows | (q == ast.inf)
    q = ast.where(edge, 1.0, q)
    total = ast.zeros_like(s + q)
    for k in range(_DIRECT):
        total = total + (q + k) ** -s
    # s far beyond q + 9: the tail past the direct terms is below their rounding, and the
    # corrections' factors would overflow
    direct = s > 64.0 * (q + _DIRECT)
    direct_sum = total
    s = ast.where(direct, 2.0, s)
    if s_minus_one is not None:
        s_minus_one = ast.where(direct, 1.0, s_minus_one)
    total = ast.where(direct, 0.0, total)
    a = q + _DIRECT
    power = a**-s
    total = total + a * power / (s - 1.0 if s_minus_one is None else s_minus_one) + 0.5 * power
    factor = s / a  # s (s + 1) ... (s + 2j - 2) / a**(2j - 1)
    correction = ast.zeros_like(total)
    for j, coefficient in enumerate(_bernoulli_over_factorial(), start=1):
        correction = correction + coefficient * factor
        factor = factor * ((s + 2 * j - 1) * (s + 2 * j)) / (a * a)
    out = ast.where(direct, direct_sum, total + correction * power)
    return ast.where(overflows, ast.inf, ast.where(edge, 0.0, out))


@cache
def _cot_derivative(n: int) -> tuple:
    """Coefficients (lowest first) of P_n with d^n/dx^n cot(x) = P_n(cot(x)): P_0 = c,
    P_(k+1) = -(1 + c**2) P_k'."""
    p = [0, 1]
    for _ in range(n):
        d = [k * p[k] for k in range(1, len(p))] or [0]
        out = [0] * (len(d) + 2)
        for k, v in enumerate(d):
            out[k] -= v
            out[k + 2] -= v
        p = out
    return tuple(p)


def _polygamma_negative(n: int, x):
    """polygamma(n, x) for float64 x < 0 off the poles and a Python int n >= 1: the reflection
    psi_n(x) = -pi**(n+1) P_n(cot(pi x)) + (-1)**n psi_n(1 - x), with psi_n(1 - x) = psi_n(-x) +
    (-1)**n n! (-x)**-(n+1) so that only -x (exact) is formed."""
    y = -x
    r = x - ast.round(x)
    # cot(pi r): 1 / tan(pi r) near 0; near +-1/2, -tan(pi (r -+ 1/2)), whose argument is exact and
    # small (cos(pi r) there would carry the rounding of pi r at a thousand times its weight)
    inner = ast.abs(r) < 0.25
    shifted_r = ast.where(r > 0, r - 0.5, r + 0.5)
    c = ast.where(
        inner,
        1.0 / ast.tan(np.pi * ast.where(inner, r, 0.125)),
        -ast.tan(np.pi * ast.where(inner, 0.0, shifted_r)),
    )
    coefficients = _cot_derivative(n)
    poly = ast.zeros_like(c) + float(coefficients[-1])
    for value in coefficients[-2::-1]:
        poly = poly * c + float(value)
    positive = (
        (-1.0) ** (n + 1) * math.factorial(n) * _hurwitz_positive(ast.full_like(y, n + 1.0), y)
    )
    # y**-(n+1) is the first term of zeta(n + 1, y): where it overflows, so did that (to inf)
    yc = ast.where(ast.isinf(positive), 1.0, y)
    term = ast.where(ast.isinf(positive), 0.0, (-1.0) ** n * math.factorial(n) * yc ** -(n + 1.0))
    shifted = positive + term
    return -(math.pi ** (n + 1)) * poly + (-1.0) ** n * shifted


def _gamma_of_sum(a: float, h):
    """gamma(a + h), corrected to first order for the rounding of a + h (its error is exact: two-sum),
    which gamma magnifies by digamma(a + h)."""
    y = a + h
    back = y - a
    error = (a - (y - back)) + (h - back)
    return gamma_float64(y) * (1.0 + error * digamma(y))


def _riemann(s):
    """The Riemann zeta function of float64 s: Euler-Maclaurin from 1/2 (below, its terms cancel)."""
    direct = s >= 0.5
    sd = ast.where(direct & (s != 1.0), s, 2.0)
    near = _hurwitz_positive(sd, ast.ones_like(sd))
    # s < 1/2: zeta(s) = 2**s pi**(s-1) sin(pi s / 2) gamma(1 - s) zeta(1 - s), with
    # 2**s gamma(1 - s) = gamma(m) gamma(m + 1/2) / sqrt(pi), m = (1 - s) / 2
    t = ast.where(direct | ~ast.isfinite(s) | (ast.abs(s) < 1e-8), -2.5, s)
    # |zeta(t)| is about pi**(t-1) gamma(m) gamma(m + 1/2) / sqrt(pi): inf where that overflows
    m = 0.5 - t / 2.0
    size = (t - 1.5) * _LOG_PI + gammaln(m) + gammaln(m + 0.5)
    huge = size > 709.0
    t = ast.where(huge, -2.5, t)
    h = -t / 2.0  # exact, as is pi**(t/2): (t - 1) / 2 and (1 - t) / 2 would round
    half_power = math.pi ** (-h) * math.pi**-0.75  # pi**(t - 1) / sqrt(pi), in two halves
    product = (half_power * _gamma_of_sum(0.5, h)) * (half_power * _gamma_of_sum(1.0, h))
    sine = _sin_pi(t / 2.0)
    far = product * sine * _hurwitz_positive(1.0 - t, ast.ones_like(t), -t)
    # where the factors overflow: +-inf, or 0 at the trivial zeros (elsewhere sine's 0 gives them, with
    # their derivative)
    sign = _sin_pi(ast.where(direct | ~ast.isfinite(s), -2.5, s) / 2.0)
    far = ast.where(huge, ast.where(sign == 0.0, 0.0, ast.where(sign < 0, -ast.inf, ast.inf)), far)
    # |s| < 1e-8: -1/2 - s log(2 pi) / 2 (the next term is below 1e-16 of it)
    small = ast.abs(s) < 1e-8
    far = ast.where(small, -0.5 - s * _HALF_LOG_2PI, far)
    out = ast.where(direct, near, far)
    out = ast.where(s == 1.0, ast.inf, out)
    out = ast.where(s == ast.inf, 1.0, ast.where(s == -ast.inf, ast.nan, out))
    return ast.where(ast.isnan(s), ast.nan, out)


def _known_integers(s) -> list:
    """The distinct integer values of s from 2 to 41 when s is known (not traced), else []."""
    value = concrete(ast.asarray(s))
    if value is None or value.dtype.kind not in "biuf":
        return []
    value = value[np.isfinite(value)] if value.dtype.kind == "f" else value
    # zeta(s, q < 0) goes through polygamma(s - 1, q) / (s - 1)!, whose parts overflow beyond s = 41
    # while zeta itself need not: nan there
    value = value[(value >= 2) & (value <= 41) & (value == np.floor(value))]
    return [int(v) for v in np.unique(value)]


def zeta(x, q=None):
    """The Riemann zeta function, or Hurwitz's ``sum over k >= 0 of (k + q)**-x``.

    Parameters
    ----------
    x : array_like
        Real input; float32 (with float32 q) stays float32, everything else gives float64.
    q : array_like, optional
        Hurwitz's shift; None for Riemann's function (q = 1, continued to all x).

    Returns
    -------
    ndarray
        With q: zeta(x, q) for x > 1 (inf at x = 1, nan below, as SciPy's); inf at q = 0 and the negative
        integers; for other q < 0, the value when x is an integer from 2 to 41 known at the call (SciPy's
        sum), nan otherwise. Without q: zeta(x) for every x (inf at 1, exactly 0 at the negative even
        integers).

    See Also
    --------
    scipy.special.zeta : the function mirrored.
    jax.scipy.special.zeta : JAX's.

    Notes
    -----
    Euler-Maclaurin summation, the functional equation and polygamma's reflection (see the module's
    docstring). Within 8 ulp of exact values for q > 0 and x > 1, and for Riemann's function above 1/2;
    below, the functional equation's factors add up to 16 ulp down to -20 and up to 60 at -170 (where
    SciPy's is off by up to 650); tests check each against mpmath.

    Examples
    --------
    >>> import arraystack as np
    >>> round(float(np.scipy.special.zeta(2.0)), 12)  # pi**2 / 6
    1.644934066848
    """
    if q is None:
        out_dtype = loop_dtype(x)
        with np.errstate(all="ignore"):
            out = _riemann(real_float64(x, "zeta"))
        return out.astype(out_dtype, copy=False)
    out_dtype = loop_dtype(x, q, single_first=True)
    orders = _known_integers(x)
    s, q = ast.broadcast_arrays(real_float64(x, "zeta"), real_float64(q, "zeta"))
    with np.errstate(all="ignore"):
        valid = (s > 1.0) & (q > 0)
        out = _hurwitz_positive(ast.where(valid, s, 2.0), ast.where(valid, q, 1.0))
        pole = (q <= 0) & (q == ast.floor(q))
        out = ast.where(valid, out, ast.where((s == 1.0) | (pole & (s > 1.0)), ast.inf, ast.nan))
        for order in orders:  # zeta(s, q) = (-1)**s polygamma(s - 1, q) / (s - 1)!
            negative = (q < 0) & ~pole & (s == order)
            psi = _polygamma_negative(order - 1, ast.where(negative, q, -0.5))
            out = ast.where(negative, (-1.0) ** order * psi / math.factorial(order - 1), out)
        out = ast.where(q == ast.inf, ast.where(s > 1.0, 0.0, out), out)
        out = ast.where(ast.isnan(s) | ast.isnan(q), ast.nan, out)
    with np.errstate(over="ignore"):  # float32 rounds what it cannot hold to inf, as SciPy's
        return out.astype(out_dtype, copy=False)


def polygamma(n, x):
    """The polygamma function, the n-th derivative of digamma.

    Parameters
    ----------
    n : array_like of int
        The order (0 is digamma). For x < 0 it must be known at the call (not traced).
    x : array_like
        Real input; float32 (with a float32 or integer n of 8 or 16 bits) stays float32, everything else
        gives float64.

    Returns
    -------
    ndarray
        psi^(n)(x): nan for n that is not a non-negative integer; at the poles (0 and the negative
        integers) SciPy's values.

    See Also
    --------
    scipy.special.polygamma : the function mirrored.
    jax.scipy.special.polygamma : JAX's.

    Notes
    -----
    digamma for n = 0; (-1)**(n+1) n! zeta(n + 1, x) for x > 0; the reflection formula for x < 0 (see
    the module's docstring).

    Examples
    --------
    >>> import arraystack as np
    >>> round(float(np.scipy.special.polygamma(1, 1.0)), 12)  # pi**2 / 6
    1.644934066848
    """
    out_dtype = loop_dtype(n, x)
    known = concrete(ast.asarray(n))
    n, x = ast.broadcast_arrays(real_float64(n, "polygamma"), real_float64(x, "polygamma"))
    with np.errstate(all="ignore"):
        integer = (n >= 0) & (n == ast.floor(n))
        # the zeta branch at order 1 where n is 0 (digamma's) or not an order: zeta(1, x) would divide
        # by 0, and the untaken branch's nan reach the gradient
        order = ast.where(integer & (n >= 1) & (n < ast.inf), n, 1.0)
        sign = ast.where(is_odd(order), 1.0, -1.0)  # (-1)**(n+1)
        positive = x > 0
        xs = ast.where(positive, x, 1.0)
        s = order + 1.0
        higher = sign * gamma_float64(s) * _hurwitz_positive(s, xs)
        pole = (x <= 0) & (x == ast.floor(x))
        # at the poles: zeta(n + 1, x) is inf, times n! (-1)**(n+1) (SciPy's value)
        higher = ast.where(pole, sign * ast.inf, ast.where(positive, higher, ast.nan))
        if known is not None:
            negative = (x < 0) & ~pole
            orders = known[np.isfinite(known)] if known.dtype.kind == "f" else known
            keep = (orders >= 1) & (orders <= _MAX_REFLECTED_ORDER) & (orders == np.floor(orders))
            for value in np.unique(orders[keep]):
                where = negative & (n == value)
                reflected = _polygamma_negative(int(value), ast.where(where, x, -0.5))
                higher = ast.where(where, reflected, higher)
        higher = ast.where(x == ast.inf, sign * 0.0, higher)
        out = ast.where(n == 0, digamma(x), higher)
        out = ast.where(integer & (n < ast.inf), out, ast.nan)
        out = ast.where(ast.isnan(x), ast.nan, out)
        return out.astype(out_dtype, copy=False)
