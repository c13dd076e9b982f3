"""The gamma family of arraystack.scipy.special (gammaln, digamma, betaln), written in arraystack operations.

Every function computes in float64 (float32 input is rounded back at the end) and is a composition of
elementwise operations, so it traces, fuses, differentiates and runs on every backend. Branches are
selects over inputs clamped into each branch's domain, so no branch produces inf or nan where it is
not taken and the gradients stay finite. Series coefficients (zeta values) are computed on first use.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np

import arraystack as ast
from arraystack.scipy._loops import loop_dtype, real_float64

_EULER = 0.57721566490153286061
_HALF_LOG_TWO_PI = 0.91893853320467274178
_STIRLING_FROM = (
    8.0  # gammaln's Stirling series from here up; below, the recurrence and two Taylor series
)
_PSI_FROM = 10.0  # digamma's asymptotic series from here up
# digamma's positive root, as a double and the rest of its value
_PSI_ROOT = 1.4616321449683622
_PSI_ROOT_LOW = 9.5499954299656977e-17
_TAYLOR_TERMS = 36
_LARGEST = 2.5e305  # gammaln overflows from about 2.55e305
_SMALLEST_RECIPROCAL = 5.56268464626801e-309  # the least double whose reciprocal is finite


def _tail_sum(s: float, a: float, n: int = 200) -> float:
    """sum over m >= n of (m + a) ** -s: the integral and three Euler-Maclaurin corrections (the
    next one is below 1e-20 for s >= 2, n = 200)."""
    b = n + a
    return (
        b ** (1 - s) / (s - 1)
        + b**-s / 2
        + s * b ** (-s - 1) / 12
        - s * (s + 1) * (s + 2) * b ** (-s - 3) / 720
    )


@cache
def _hurwitz_zeta(s: int, a: float) -> float:
    """zeta(s, a) = sum over m >= 0 of (m + a) ** -s, to float64's precision (s >= 2)."""
    return math.fsum([(m + a) ** -s for m in range(200)] + [_tail_sum(s, a)])


@cache
def _lgamma_taylor(at: int) -> tuple:
    """Coefficients c[1..] of gammaln(at + e) = sum c[k] e**k about 1 and 2, highest first:
    -euler and (-1)**k zeta(k) / k about 1; 1 - euler and (-1)**k (zeta(k) - 1) / k about 2."""
    first = -_EULER if at == 1 else 1.0 - _EULER
    rest = [(-1) ** k * _hurwitz_zeta(k, float(at)) / k for k in range(2, _TAYLOR_TERMS + 1)]
    return tuple(reversed([first, *rest]))


@cache
def _digamma_taylor() -> tuple:
    """Coefficients of digamma(root + e) = sum over k >= 1 of (-1)**(k+1) zeta(k+1, root) e**k, highest
    first (the derivatives of digamma are polygamma(k) = (-1)**(k+1) k! zeta(k+1, x))."""
    root = _PSI_ROOT + _PSI_ROOT_LOW
    return tuple(reversed([(-1) ** (k + 1) * _hurwitz_zeta(k + 1, root) for k in range(1, 37)]))


def _horner(coefficients, x):
    acc = coefficients[0]
    for c in coefficients[1:]:
        acc = acc * x + c
    return acc


def _stirling_tail(z):
    """gammaln(z) - ((z - 1/2) log z - z + log(2 pi) / 2) for z >= 8: sum of B(2k) / (2k (2k-1) z**(2k-1)),
    k = 1..8 (the next term is below 1e-16 of the whole)."""
    small = ast.minimum(z, 1e150)  # beyond, the series is its first term (and z * z would overflow)
    w = 1.0 / (small * small)
    series = (
        1 / 12,
        -1 / 360,
        1 / 1260,
        -1 / 1680,
        1 / 1188,
        -691 / 360360,
        1 / 156,
        -3617 / 122400,
    )
    return _horner(series[::-1], w) / z


def gammaln_positive(y):
    """gammaln of float64 y >= 0 (inf at 0): four ranges, each exact to a few ulp of the result."""
    tiny = y < 0.75
    near_one = (y >= 0.75) & (y < 1.375)
    middle = (y >= 1.375) & (y < _STIRLING_FROM)
    # below 0.75: gammaln(y + 2) - log(y (y + 1)), gammaln(y + 2) by the series about 2
    a = ast.where(tiny & (y > 0), y, 0.5)
    low = a * _horner(_lgamma_taylor(2), a) - ast.log(a * (a + 1.0))
    # about 1
    e1 = ast.where(near_one, y, 1.0) - 1.0
    one = e1 * _horner(_lgamma_taylor(1), e1)
    # 1.375 to 8: down to t in [1.375, 2.375) by gammaln(t + m) = gammaln(t) + log((t)(t+1)...(t+m-1))
    b = ast.where(middle, y, 2.0)
    m = ast.floor(b - 1.375)
    t = b - m
    e2 = t - 2.0
    product = ast.ones_like(b)
    for k in range(1, 7):
        product = product * ast.where(m >= k, b - k, 1.0)
    mid = e2 * _horner(_lgamma_taylor(2), e2) + ast.log(product)
    # Stirling
    z = ast.where((y >= _STIRLING_FROM) & (y <= _LARGEST), y, _STIRLING_FROM)
    high = (z - 0.5) * ast.log(z) - z + _HALF_LOG_TWO_PI + _stirling_tail(z)
    out = ast.where(tiny, low, ast.where(near_one, one, ast.where(middle, mid, high)))
    return ast.where((y > _LARGEST) | (y == 0), ast.inf, out)


def _reduced(x):
    """x - round(x), exactly: sin(pi x) and tan(pi x) computed on it keep their accuracy."""
    return x - ast.round(x)


def gammaln(x):
    """Logarithm of the absolute value of the gamma function.

    Parameters
    ----------
    x : array_like
        Real input; float32 stays float32, every other real dtype gives float64.

    Returns
    -------
    ndarray
        log|gamma(x)|: inf at 0 and the negative integers, inf at +inf, -inf at -inf.

    See Also
    --------
    scipy.special.gammaln : the function mirrored.
    jax.scipy.special.gammaln : JAX's (a Lanczos approximation).

    Notes
    -----
    Positive x: Taylor series about 1 and 2 (zeta coefficients) from 0.75 to 2.375, the recurrence
    down to that range up to 8 and up to it below 0.75, Stirling's series from 8. Negative x:
    log(pi / |sin(pi x)|) - gammaln(1 - x). Within 8 ulp of SciPy's for x > 0 (tests check it on a
    dense grid, the zeros at 1 and 2 included); for x < 0 within 8 ulp away from the zeros of
    log|gamma| there, where both lose the same accuracy to cancellation.

    Examples
    --------
    >>> import arraystack as np
    >>> float(np.scipy.special.gammaln(5.0))  # log(24)
    3.1780538303479458
    """
    out_dtype = loop_dtype(x)
    x = real_float64(x, "gammaln")
    with np.errstate(all="ignore"):
        positive = x > 0
        y = ast.where(positive, x, 1.0 - ast.where(ast.isinf(x), 0.0, x))
        base = gammaln_positive(y)
        sine = ast.abs(ast.sin(np.pi * _reduced(ast.where(positive | ast.isinf(x), -0.5, x))))
        pole = ~positive & (sine == 0)
        reflected = ast.log(np.pi / ast.where(pole, 1.0, sine)) - base
        out = ast.where(positive, base, ast.where(pole, ast.inf, reflected))
        out = ast.where(x == -ast.inf, -ast.inf, out) + 0.0  # gammaln(1) is +0.0
    return out.astype(out_dtype, copy=False)


def _digamma_positive(y):
    """digamma of float64 y > 0 (inf at inf): below 10, the recurrence onto [root - 1/2, root + 1/2)
    (a step up below it, m steps down above it; y - j is exact), where the Taylor series about the
    root keeps the relative accuracy near the zero; from 10, the asymptotic series."""
    start = _PSI_ROOT - 0.5
    low = y < start
    steps = ast.where(low | (y >= _PSI_FROM), 0.0, ast.floor(y - start))
    finite = y >= _SMALLEST_RECIPROCAL
    recurrence = ast.where(low, -1.0 / ast.where(low & finite, y, 1.0), 0.0)
    recurrence = ast.where(finite, recurrence, -ast.inf)
    for j in range(1, int(_PSI_FROM)):
        recurrence = recurrence + ast.where(
            steps >= j, 1.0 / ast.where(steps >= j, y - j, 1.0), 0.0
        )
    t = ast.where(low, y + 1.0, y - steps)
    e = ast.where(y < _PSI_FROM, t, _PSI_ROOT) - _PSI_ROOT - _PSI_ROOT_LOW
    near = e * _horner(_digamma_taylor(), e) + recurrence
    z = ast.where((y >= _PSI_FROM) & ~ast.isinf(y), y, _PSI_FROM)
    small = ast.minimum(z, 1e150)  # beyond, w's terms are below rounding (and z * z would overflow)
    w = 1.0 / (small * small)
    series = (1 / 12, -1 / 120, 1 / 252, -1 / 240, 1 / 132, -691 / 32760, 1 / 12)
    far = ast.log(z) - 0.5 / z - w * _horner(series[::-1], w)
    return ast.where(y < _PSI_FROM, near, far)


def digamma(x):
    """The digamma function, the derivative of gammaln.

    Parameters
    ----------
    x : array_like
        Real input; float32 stays float32, every other real dtype gives float64.

    Returns
    -------
    ndarray
        digamma(x): -inf at +0, inf at -0, nan at the negative integers and -inf, inf at inf.

    See Also
    --------
    scipy.special.psi : the function mirrored (scipy.special.digamma is the same).
    jax.scipy.special.digamma : JAX's.

    Notes
    -----
    Positive x: the asymptotic series from 10, the recurrence up to 10 below, and a Taylor series about
    the positive root 1.4616... (Hurwitz zeta coefficients) within 0.25 of it, which keeps the relative
    accuracy there. Negative x: digamma(1 - x) - pi / tan(pi x). Within 8 ulp of SciPy's for x > 0;
    for x < 0 within 8 ulp away from its zeros there.

    Examples
    --------
    >>> import arraystack as np
    >>> float(np.scipy.special.digamma(1.0))  # minus Euler's constant
    -0.5772156649015329
    """
    out_dtype = loop_dtype(x)
    x = real_float64(x, "digamma")
    with np.errstate(all="ignore"):
        positive = x > 0
        y = ast.where(positive, x, 1.0 - ast.where(ast.isinf(x), 0.0, x))
        base = _digamma_positive(y)
        base = ast.where(ast.isinf(y), ast.inf, base)
        r = _reduced(ast.where(positive | ast.isinf(x), 0.25, x))
        pole = (x < 0) & ((r == 0) | ast.isinf(x))
        # pi / tan(pi r) = pi sign(r) tan(pi (1/2 - |r|)) where |r| > 1/4 (1/2 - |r| is exact), so
        # near the half-integers, where it vanishes, the rounding of pi r does not become its size
        m = ast.abs(ast.where(pole | (x == 0), 0.25, r))
        far = m > 0.25
        cotangent = ast.where(
            far, ast.tan(np.pi * (0.5 - m)), 1.0 / ast.tan(np.pi * ast.where(far, 0.25, m))
        )
        reflected = base - np.pi * ast.where(r < 0, -cotangent, cotangent)
        zero = ast.where(ast.signbit(x), ast.inf, -ast.inf)
        out = ast.where(positive, base, ast.where(x == 0, zero, reflected))
        out = ast.where(pole, ast.nan, out)
    return out.astype(out_dtype, copy=False)


def betaln(a, b):
    """Logarithm of the absolute value of the beta function, log|gamma(a) gamma(b) / gamma(a + b)|.

    Parameters
    ----------
    a, b : array_like
        Broadcastable real inputs; float32 pairs stay float32, everything else gives float64.

    Returns
    -------
    ndarray
        log|B(a, b)|.

    See Also
    --------
    scipy.special.betaln : the function mirrored.
    jax.scipy.special.betaln : JAX's.

    Notes
    -----
    With p = min(a, b) and q = max(a, b): when q >= 8, the Stirling parts of gammaln(q) and
    gammaln(p + q) are combined analytically (``(q - 1/2) log1p(-p / (p + q)) - p log(p + q) + p``
    plus the series' tails), so a small p beside a huge q keeps full accuracy where the sum of three
    gammaln values would lose it all; when p >= 8 too, gammaln(p) is expanded the same way. Otherwise
    the sum of the three gammaln values. Within 16 ulp of SciPy's for positive arguments.

    Examples
    --------
    >>> import arraystack as np
    >>> float(np.scipy.special.betaln(1.0, 1e15))  # log(1e-15)
    -34.538776394910684
    """
    out_dtype = loop_dtype(a, b)
    a, b = ast.broadcast_arrays(real_float64(a, "betaln"), real_float64(b, "betaln"))
    with np.errstate(all="ignore"):
        p, q = ast.minimum(a, b), ast.maximum(a, b)
        pole = (p == -ast.inf) | ((p <= 0) & (p == ast.round(p))) | ((q <= 0) & (q == ast.round(q)))
        special = pole | (q == ast.inf) | ast.isnan(a) | ast.isnan(b)
        p, q = ast.where(special, 1.0, p), ast.where(special, 1.0, q)
        large = (q >= _STIRLING_FROM) & (p + q >= _STIRLING_FROM)
        pd, qd = ast.where(large, 1.0, p), ast.where(large, 1.0, q)
        direct = gammaln(pd) + gammaln(qd) - gammaln(pd + qd)
        qs = ast.where(large, q, _STIRLING_FROM)
        ps = ast.where(large, p, 1.0)
        both = ps >= _STIRLING_FROM
        pr = ast.where(both, 1.0, ps)
        ts = pr + qs
        ratio = pr / ts
        # gammaln(q) - gammaln(p + q), Stirling parts combined
        rest = (qs - 0.5) * ast.log1p(-ratio) - pr * ast.log(ts) + pr
        rest = rest + _stirling_tail(qs) - _stirling_tail(ts)
        pl = ast.where(both, ps, _STIRLING_FROM)
        tl = pl + qs
        rl = pl / tl
        # gammaln(p) + gammaln(q) - gammaln(p + q), p and q >= 8
        paired = (pl - 0.5) * ast.log(rl) + qs * ast.log1p(-rl) - 0.5 * ast.log(qs)
        paired = (
            paired + _HALF_LOG_TWO_PI + _stirling_tail(pl) + _stirling_tail(qs) - _stirling_tail(tl)
        )
        stirling = ast.where(both, paired, gammaln(pr) + rest)
        out = ast.where(large, stirling, direct)
        # B(p, q) -> 0 as q -> inf for p > 0 and -> inf for p <= 0; poles at p or q, and -inf, give inf
        lowest = ast.minimum(a, b)
        out = ast.where(ast.maximum(a, b) == ast.inf, ast.where(lowest > 0, -ast.inf, ast.inf), out)
        # B(-n, k) for integers 0 < k <= n: the limit (k - 1)! (n - k)! / n! that SciPy's takes
        integers = (lowest <= 0) & (lowest == ast.round(lowest)) & (lowest > -1e15)
        highest = ast.maximum(a, b)
        limit = integers & (highest > 0) & (highest == ast.round(highest)) & (highest + lowest <= 0)
        k, n = ast.where(limit, highest, 1.0), ast.where(limit, -lowest, 1.0)
        out = ast.where(
            pole,
            ast.where(limit, gammaln(k) + gammaln(n - k + 1.0) - gammaln(n + 1.0), ast.inf),
            out,
        )
        out = ast.where(ast.isnan(a) | ast.isnan(b), ast.nan, out)
    return out.astype(out_dtype, copy=False)
