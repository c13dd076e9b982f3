"""The error function's family in arraystack.scipy.special (erfc, erfcx, erfinv, erfcinv, ndtr, ndtri,
log_ndtr), written in arraystack operations.

Every function computes in float64 (float32 input is rounded back at the end). erfc's tail is
exp(-a**2) times erfcx: a polynomial on [1, 6] (the float64 erf's of the numba math library, fitted to
erfcx there, 1.5 ulp) and Laplace's continued fraction from 6, with exp(-a**2) taken as
exp(-h**2) exp(-l (a + h)) for a = h + l and h**2 exact, so the square's rounding (up to 700 ulp of
the exponent near 26) does not reach the result. The inverses refine a first guess by Newton steps on
erf or erfc, whose relative accuracy they inherit.
"""

from __future__ import annotations

import math

import numpy as np

import arraystack as ast
from arraystack._core.array import raw, wrap
from arraystack.backends.numba.mathlib.constants import ERF_R
from arraystack.ir import primitives as p
from arraystack.ir.core import bind
from arraystack.scipy._gamma import _horner
from arraystack.scipy._loops import loop_dtype, real_float64

_SQRT_PI = math.sqrt(math.pi)
_TAIL_FROM = 6.0  # erfcx: the polynomial below, the continued fraction from here
_FRACTION_TERMS = 16  # converged to float64 from 6 on
_FRACTION_TO = 1e8  # beyond, erfcx(a) = (1 - 1/(2 a**2)) / (a sqrt(pi)) to rounding
_UNDERFLOW = 27.5  # erfc(a) is 0 (rounded) beyond 27.3
_ROOT_OF_HALF_MAX = 9.480751908109176e153  # sqrt(max float64 / 2)
_SQUARE_HALF_OVERFLOW = 1.89e154  # x**2 / 2 overflows from about 1.896e154
# Giles (2010), "Approximating the erfinv function", single precision: a first guess to 1e-7
GILES_CENTRAL = (
    2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
    -0.00125372503, -0.00417768164, 0.246640727, 1.50140941,
)  # fmt: skip
GILES_TAIL = (
    -0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
    -0.0076224613, 0.00943887047, 1.00167406, 2.83297682,
)  # fmt: skip


def _erf(x):
    return wrap(bind(p.erf_p, raw(x)))


def _erfcx_tail(a):
    """erfcx(a) = exp(a**2) erfc(a) for float64 a >= 1 (any a is clamped into [1, inf))."""
    a = ast.maximum(a, 1.0)
    poly = _horner(ERF_R[::-1], (ast.minimum(a, _TAIL_FROM) - 3.5) * 0.4)
    c = ast.minimum(ast.maximum(a, _TAIL_FROM), _FRACTION_TO)
    fraction = c
    for n in range(_FRACTION_TERMS, 0, -1):
        fraction = c + (n / 2) / fraction
    fraction = 1.0 / (_SQRT_PI * fraction)
    asymptotic = (1.0 - 0.5 / a / a) / (_SQRT_PI * a)
    return ast.where(a < _TAIL_FROM, poly, ast.where(a <= _FRACTION_TO, fraction, asymptotic))


def _exp_square(a, scale):
    """exp(scale * a**2) for float64 0 <= a <= 40 and scale in {1, -1, 1/2, -1/2}, without the rounding of
    a**2: a = h + l with h on a 2**-21 grid (scale h**2 is exact), a**2 = h**2 + l (a + h)."""
    h = ast.round(a * 2097152.0) / 2097152.0
    return ast.exp(scale * (h * h)) * ast.exp(scale * ((a - h) * (a + h)))


def _erfc_pair(x, erfc: bool = True):
    """(erfc(x), erfcx(x)) for float64 x with |x| < 1 (either sign; differentiable through 0), and
    the values at |x| beyond (callers reflect x <= -1); |x| = inf gives (0, 0). erfc=False: (None,
    erfcx(x)), without erfc's tail factor."""
    a = ast.abs(x)
    small = a < 1.0
    s = ast.where(small, x, 0.0)
    head = 1.0 - _erf(s)
    tail_x = _erfcx_tail(a)
    scaled = ast.where(small, _exp_square(s, 1.0) * head, tail_x)
    if not erfc:
        return None, scaled
    clamped = ast.minimum(ast.where(small, 1.0, a), _UNDERFLOW)
    tail = ast.where(a > _UNDERFLOW, 0.0, _exp_square(clamped, -1.0) * tail_x)
    return ast.where(small, head, tail), scaled


def erfc(x):
    """The complementary error function, ``1 - erf(x)``, accurate where it is small.

    Parameters
    ----------
    x : array_like
        Real input; float32 stays float32, every other real dtype gives float64.

    Returns
    -------
    ndarray
        erfc(x), in [0, 2].

    See Also
    --------
    scipy.special.erfc : the function mirrored.
    jax.scipy.special.erfc : JAX's.

    Notes
    -----
    1 - erf(x) where |x| < 1; exp(-x**2) erfcx(x) from 1 (see the module's note); 2 - erfc(-x) to
    the left of -1.
    Within 4 ulp of the exact value for x > 0, down to erfc's underflow to subnormals at 26.5.

    Examples
    --------
    >>> import arraystack as np
    >>> float(np.scipy.special.erfc(10.0))
    2.0884875837625452e-45
    """
    out_dtype = loop_dtype(x)
    x = real_float64(x, "erfc")
    with np.errstate(all="ignore"):
        value, _ = _erfc_pair(x)
        out = ast.where(x <= -1.0, 2.0 - value, value)
        out = ast.where(ast.isnan(x), x, out)
    return out.astype(out_dtype, copy=False)


def erfcx(x):
    """The scaled complementary error function, ``exp(x**2) * erfc(x)``.

    Parameters
    ----------
    x : array_like
        Real input; float32 stays float32, every other real dtype gives float64.

    Returns
    -------
    ndarray
        erfcx(x): about 1 / (x sqrt(pi)) for large x, inf below about -26.6.

    See Also
    --------
    scipy.special.erfcx : the function mirrored.

    Notes
    -----
    The polynomial and continued fraction of erfc's tail directly from 1; exp(x**2) (1 - erf(x))
    where |x| < 1; 2 exp(x**2) - erfcx(-x) to the left of -1. Within 4 ulp of the exact value for x > 0.

    Examples
    --------
    >>> import arraystack as np
    >>> round(float(np.scipy.special.erfcx(100.0)) * 100.0 * 1.7724538509055159, 4)
    1.0
    """
    out_dtype = loop_dtype(x)
    x = real_float64(x, "erfcx")
    with np.errstate(all="ignore"):
        a = ast.abs(x)
        _, value = _erfc_pair(x, erfc=False)
        # 2 exp(a**2) as 2 e e with e = exp(a**2 / 2), so that only a result that overflows is inf
        root = _exp_square(ast.minimum(a, _UNDERFLOW), 0.5)
        fits = root <= _ROOT_OF_HALF_MAX
        doubled = ast.where(fits, 2.0 * ast.where(fits, root, 1.0) * root, ast.inf)
        out = ast.where(x <= -1.0, doubled - value, value)
        out = ast.where(ast.isnan(x), x, out)
    return out.astype(out_dtype, copy=False)


def _inverse_tail(q):
    """erfcinv(q) for float64 q in (0, 1]: Giles' guess (to 1.1e-7) while -log(q (2 - q)) < 16,
    otherwise the asymptotic y**2 = -log q - log(y sqrt(pi)) + log(1 - 1/(2 y**2) + 3/(4 y**4) - ...),
    four terms, iterated three times (to 1.4e-6); then one Halley step on erfc, written with erfcx so
    that exp(y**2) never overflows."""
    q = ast.where((q > 0) & (q <= 1), q, 0.5)
    w = -ast.log(q * (2.0 - q))
    central = _horner(GILES_CENTRAL, w - 2.5)
    tail = _horner(GILES_TAIL, ast.sqrt(ast.maximum(w, 5.0)) - 3.0)
    giles = ast.where(w < 5.0, central, tail) * (1.0 - q)
    minus_log = -ast.log(q)
    y = ast.sqrt(ast.maximum(minus_log, 1.0))
    for _ in range(3):
        v = 1.0 / (y * y)
        series = v * (-0.5 + v * (0.75 + v * (-15 / 8 + v * (105 / 16))))
        y = ast.sqrt(ast.maximum(minus_log - ast.log(y * _SQRT_PI) + ast.log1p(series), 1.0))
    y = ast.minimum(
        ast.where(w < 16.0, giles, y), 27.25
    )  # erfc(27.25) is above the least subnormal
    value, scaled = _erfc_pair(y)
    return _halley(y, (q / value - 1.0) * (0.5 * _SQRT_PI) * scaled)


def _halley(y, step):
    """Halley's step for erf(y) = c or erfc(y) = c, given Newton's step: erf'' = -2 y erf', so
    Halley's correction is Newton's divided by 1 + y * step. Cubic convergence: one step takes
    Giles' 1e-7 to float64's rounding."""
    return y - step / (1.0 + y * step)


def _inverse_central(x):
    """erfinv(x) for float64 |x| < 0.5: Giles' central guess and one Halley step on erf."""
    x = ast.where(ast.abs(x) < 0.5, x, 0.0)
    y = _horner(GILES_CENTRAL, -ast.log1p(-x * x) - 2.5) * x
    return _halley(y, (_erf(y) - x) * (0.5 * _SQRT_PI) * ast.exp(y * y))


def _erfcinv64(q):
    """erfcinv of float64 q: 0 -> inf, 2 -> -inf, nan outside [0, 2]."""
    small = q <= 1.0
    folded = ast.where(small, q, 2.0 - q)  # exact for q in [1, 2]
    central = ast.abs(1.0 - q) < 0.5
    # -erfinv(q - 1): erfcinv(1) is -0.0, as SciPy's
    y = ast.where(central, -_inverse_central(q - 1.0), _inverse_tail(folded))
    y = ast.where(central | small, y, -y)
    y = ast.where(q == 0, ast.inf, ast.where(q == 2, -ast.inf, y))
    return ast.where((q < 0) | (q > 2) | ast.isnan(q), ast.nan, y)


def erfcinv(y):
    """The inverse of erfc: erfcinv(erfc(x)) == x.

    Parameters
    ----------
    y : array_like
        Real input in [0, 2]; float32, float16 and bool give float32 (SciPy's loop order), the rest
        float64.

    Returns
    -------
    ndarray
        inf at 0, -inf at 2, nan outside [0, 2].

    See Also
    --------
    scipy.special.erfcinv : the function mirrored.

    Notes
    -----
    Near 1, erfinv(1 - y) (Newton on erf); elsewhere Newton on erfc from Giles' or an asymptotic guess
    (see the module's note), so tiny y keep their relative accuracy: within 4 ulp of the exact value
    for y >= 1e-300 (subnormal y lose what their own precision loses).

    Examples
    --------
    >>> import arraystack as np
    >>> round(float(np.scipy.special.erfcinv(1e-100)), 6)
    15.065575
    """
    out_dtype = loop_dtype(y, single_first=True)
    with np.errstate(all="ignore"):
        return _erfcinv64(real_float64(y, "erfcinv")).astype(out_dtype, copy=False)


def erfinv(y):
    """The inverse of erf: erfinv(erf(x)) == x.

    Parameters
    ----------
    y : array_like
        Real input in [-1, 1]; float32, float16 and bool give float32 (SciPy's loop order), the rest
        float64.

    Returns
    -------
    ndarray
        -inf at -1, inf at 1, nan outside [-1, 1].

    See Also
    --------
    scipy.special.erfinv : the function mirrored.
    jax.scipy.special.erfinv : JAX's.

    Notes
    -----
    For |y| < 1/2 Giles' polynomial and two Newton steps on erf; otherwise sign(y) erfcinv(1 - |y|)
    (1 - |y| is exact there). Within 4 ulp of the exact value.

    Examples
    --------
    >>> import arraystack as np
    >>> round(float(np.scipy.special.erfinv(0.5)), 12)
    0.476936276204
    """
    out_dtype = loop_dtype(y, single_first=True)
    x = real_float64(y, "erfinv")
    with np.errstate(all="ignore"):
        a = ast.abs(x)
        out = ast.where(a < 0.5, _inverse_central(x), _erfcinv64(1.0 - a) * ast.sign(x))
        out = out + 0.0  # SciPy's erfinv(-0.0) is +0.0
        out = ast.where(ast.isnan(x) | (a > 1), ast.nan, out)
    return out.astype(out_dtype, copy=False)


def ndtr(x):
    """The standard normal distribution's cumulative distribution function.

    Parameters
    ----------
    x : array_like
        Real input; float32 stays float32, every other real dtype gives float64.

    Returns
    -------
    ndarray
        P(Z <= x) for a standard normal Z.

    See Also
    --------
    scipy.special.ndtr : the function mirrored.
    jax.scipy.special.ndtr : JAX's.

    Notes
    -----
    z = x / sqrt(2); 0.5 + 0.5 erf(z) where |z| < 1, else 0.5 erfc(|z|) (or one minus it).
    The tail's exponent is taken from x (see _ndtr64), so the rounding of x / sqrt(2) that
    SciPy's carries (about x**2 ulp far out) does not reach it: within 4 ulp of the exact value.

    Examples
    --------
    >>> import arraystack as np
    >>> float(np.scipy.special.ndtr(0.0))
    0.5
    """
    out_dtype = loop_dtype(x)
    x = real_float64(x, "ndtr")
    with np.errstate(all="ignore"):
        out = _ndtr64(x)
    return out.astype(out_dtype, copy=False)


def _ndtr64(x):
    """ndtr in float64. The tail is 0.5 exp(-x**2 / 2) erfcx(|x| / sqrt(2)) with the exponent taken
    from x itself, so the rounding of x / sqrt(2) does not reach exp (erfcx is well conditioned)."""
    z = x * (1.0 / math.sqrt(2.0))
    a = ast.abs(z)
    near = a < 1.0
    # below 1, 0.5 + 0.5 erf(z) is SciPy's 0.5 erfc(-z) to the bit (0.5 - 0.5 erf|z| is exact there)
    central = 0.5 + 0.5 * _erf(ast.where(near, z, 0.0))
    far = ast.minimum(ast.where(near, 2.0, ast.abs(x)), 40.0)
    half_tail = 0.5 * _exp_square(far, -0.5) * _erfcx_tail(ast.where(near, 1.0, a))
    half_tail = ast.where(ast.abs(x) > 40.0, 0.0, half_tail)
    out = ast.where(near, central, ast.where(z > 0, 1.0 - half_tail, half_tail))
    return ast.where(ast.isnan(x), x, out)


def log_ndtr(x):
    """The logarithm of ndtr, accurate in both tails.

    Parameters
    ----------
    x : array_like
        Real input; float32 stays float32, every other real dtype gives float64.

    Returns
    -------
    ndarray
        log P(Z <= x): -inf at -inf, 0 at inf.

    See Also
    --------
    scipy.special.log_ndtr : the function mirrored.
    jax.scipy.special.log_ndtr : JAX's.

    Notes
    -----
    log1p(-ndtr(-x)) for x > 0, log(ndtr(x)) down to -20, below that
    ``-x**2/2 - log(-x) - log(2 pi)/2 + log1p(sum((-1)**k (2k-1)!! / x**(2k)))``, ten terms. Within
    8 ulp of SciPy's.

    Examples
    --------
    >>> import arraystack as np
    >>> round(float(np.scipy.special.log_ndtr(-40.0)), 6)
    -804.608442
    """
    out_dtype = loop_dtype(x)
    x = real_float64(x, "log_ndtr")
    with np.errstate(all="ignore"):
        right = ast.log1p(-_ndtr64(-ast.maximum(x, 0.0)))
        middle = ast.log(_ndtr64(ast.maximum(x, -20.0)))
        t = ast.maximum(ast.minimum(x, -20.0), -_SQUARE_HALF_OVERFLOW)
        small = ast.maximum(t, -1e150)  # beyond, the series is below rounding (and t * t overflows)
        w = 1.0 / (small * small)
        terms, coefficient = [], 1.0
        for k in range(1, 11):
            coefficient *= -(2 * k - 1)
            terms.append(coefficient)
        series = w * _horner(terms[::-1], w)
        left = -0.5 * t * t - ast.log(-t) - 0.5 * math.log(2 * math.pi) + ast.log1p(series)
        out = ast.where(x > 0, right, ast.where(x >= -20.0, middle, left))
        out = ast.where(x < -_SQUARE_HALF_OVERFLOW, -ast.inf, ast.where(ast.isnan(x), x, out))
    return out.astype(out_dtype, copy=False)


def ndtri(y):
    """The inverse of ndtr: the standard normal distribution's quantile function.

    Parameters
    ----------
    y : array_like
        Probabilities in [0, 1]; float32, float16 and bool give float32 (SciPy's loop order), the
        rest float64.

    Returns
    -------
    ndarray
        x with ndtr(x) == y: -inf at 0, inf at 1, nan outside [0, 1].

    See Also
    --------
    scipy.special.ndtri : the function mirrored.
    jax.scipy.special.ndtri : JAX's.

    Notes
    -----
    ``-sqrt(2) erfcinv(2 y)`` (2 y is exact), so small probabilities keep their relative accuracy.
    Within 4 ulp of the exact value for y >= 1e-300.

    Examples
    --------
    >>> import arraystack as np
    >>> round(float(np.scipy.special.ndtri(0.975)), 6)
    1.959964
    """
    out_dtype = loop_dtype(y, single_first=True)
    x = real_float64(y, "ndtri")
    with np.errstate(all="ignore"):
        out = -math.sqrt(2.0) * _erfcinv64(2.0 * x) + 0.0  # + 0.0: ndtri(0.5) is +0.0
        out = ast.where((x < 0) | (x > 1), ast.nan, out)
    return out.astype(out_dtype, copy=False)
