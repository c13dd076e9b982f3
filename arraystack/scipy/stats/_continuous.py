"""The continuous distributions of arraystack.scipy.stats, each SciPy's formulas for its standardized
functions (scipy/stats/_continuous_distns.py) in arraystack operations. Those with a closed-form
distribution function (norm, logistic, laplace, cauchy, expon, uniform, lognorm) have every method;
gamma, beta, t and chi2 have their densities only (their cdfs are incomplete gamma and beta functions,
which arraystack.scipy.special does not have)."""

from __future__ import annotations

import math

import arraystack as ast
from arraystack.scipy import special
from arraystack.scipy.stats._distribution import Continuous, ContinuousWithCdf

_LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)
_SQRT_2PI = math.sqrt(2 * math.pi)
_LOG_PI = math.log(math.pi)
_LOG_2 = math.log(2.0)
_INCOMPLETE = {
    name: "its distribution function needs the regularized incomplete {} function, which "
    "arraystack.scipy.special does not have"
    for name in ("cdf", "logcdf", "sf", "logsf", "ppf", "isf")
}


def _log1mexp(z):
    """log(1 - exp(-z)) for z >= 0: log(-expm1(-z)) up to log 2, log1p(-exp(-z)) beyond, each where
    the other loses digits."""
    near = z <= _LOG_2
    return ast.where(
        near,
        ast.log(-ast.expm1(-ast.where(near, z, 1.0))),
        ast.log1p(-ast.exp(-ast.where(near, 1.0, z))),
    )


def _missing(function: str) -> dict:
    return {name: why.format(function) for name, why in _INCOMPLETE.items()}


def missing_because(why: str, names=tuple(_INCOMPLETE)) -> dict:
    """The `missing` table of a distribution without these methods, each for the same reason."""
    return dict.fromkeys(names, why)


class norm_gen(ContinuousWithCdf):
    """The normal distribution: density exp(-z**2/2) / sqrt(2 pi), z = (x - loc) / scale."""

    name = "norm"

    def _logpdf(self, z):
        return -z * z / 2.0 - _LOG_SQRT_2PI

    def _pdf(self, z):
        return ast.exp(-z * z / 2.0) / _SQRT_2PI

    def _cdf(self, z):
        return special.ndtr(z)

    def _logcdf(self, z):
        return special.log_ndtr(z)

    def _sf(self, z):
        return special.ndtr(-z)

    def _logsf(self, z):
        return special.log_ndtr(-z)

    def _ppf(self, q):
        return special.ndtri(q)

    def _isf(self, q):
        return -special.ndtri(q)


class logistic_gen(ContinuousWithCdf):
    """The logistic distribution: density exp(-z) / (1 + exp(-z))**2."""

    name = "logistic"

    def _logpdf(self, z):
        y = -ast.abs(z)
        return y - 2.0 * ast.log1p(ast.exp(y))

    def _cdf(self, z):
        return special.expit(z)

    def _logcdf(self, z):
        return special.log_expit(z)

    def _sf(self, z):
        return special.expit(-z)

    def _logsf(self, z):
        return special.log_expit(-z)

    def _ppf(self, q):
        return special.logit(q)

    def _isf(self, q):
        return -special.logit(q)


class laplace_gen(ContinuousWithCdf):
    """The Laplace (double exponential) distribution: density exp(-|z|) / 2."""

    name = "laplace"

    def _logpdf(self, z):
        return -_LOG_2 - ast.abs(z)

    def _pdf(self, z):
        return 0.5 * ast.exp(-ast.abs(z))

    def _cdf(self, z):
        # each branch's exponent is kept at most 0
        return ast.where(z > 0, 1.0 - 0.5 * ast.exp(-ast.abs(z)), 0.5 * ast.exp(-ast.abs(z)))

    def _logcdf(self, z):
        half_tail = 0.5 * ast.exp(-ast.abs(z))
        return ast.where(z > 0, ast.log1p(-half_tail), -_LOG_2 - ast.abs(z))

    def _sf(self, z):
        return self._cdf(-z)

    def _logsf(self, z):
        return self._logcdf(-z)

    def _ppf(self, q):
        upper = q > 0.5
        return ast.where(
            upper,
            -ast.log(2.0 * (1.0 - ast.where(upper, q, 0.75))),
            ast.log(2.0 * ast.where(upper, 0.25, q)),
        )

    def _isf(self, q):
        return -self._ppf(q)


class cauchy_gen(ContinuousWithCdf):
    """The Cauchy distribution: density 1 / (pi (1 + z**2))."""

    name = "cauchy"

    def _logpdf(self, z):
        # beyond |z| = 1, -2 log|z| - log1p(1/z**2): z * z would overflow from 1.3e154
        big = ast.abs(z) > 1.0
        inner = ast.where(big, 0.0, z)
        outer = ast.where(big, ast.abs(z), 1.0)
        return -_LOG_PI + ast.where(
            big, -2.0 * ast.log(outer) - ast.log1p(1.0 / (outer * outer)), -ast.log1p(inner * inner)
        )

    def _pdf(self, z):
        return ast.exp(self._logpdf(z))

    def _cdf(self, z):
        return ast.arctan2(1.0, -z) / math.pi

    def _sf(self, z):
        return ast.arctan2(1.0, z) / math.pi

    def _ppf(self, q):
        # tan(pi (q - 1/2)) in the middle; -1/tan(pi q) and 1/tan(pi (1 - q)) in the tails: each
        # subtraction is exact there and each tan's argument is small
        middle = (q >= 0.25) & (q <= 0.75)
        low = q < 0.25
        inner = ast.tan(math.pi * (ast.where(middle, q, 0.5) - 0.5))
        tail = ast.where(low, q, 1.0 - ast.where(middle | low, 0.5, q))
        outer = 1.0 / ast.tan(math.pi * ast.where(middle, 0.25, tail))
        return ast.where(middle, inner, ast.where(low, -outer, outer))

    def _isf(self, q):
        return -self._ppf(q)


class expon_gen(ContinuousWithCdf):
    """The exponential distribution: density exp(-z) for z >= 0."""

    name = "expon"
    a, safe = 0.0, 1.0

    def _logpdf(self, z):
        return -z

    def _cdf(self, z):
        return -ast.expm1(-z)

    def _logcdf(self, z):
        return _log1mexp(z)

    def _sf(self, z):
        return ast.exp(-z)

    def _logsf(self, z):
        return -z

    def _ppf(self, q):
        return -ast.log1p(-q)

    def _isf(self, q):
        return -ast.log(q)


class uniform_gen(ContinuousWithCdf):
    """The uniform distribution on [loc, loc + scale]."""

    name = "uniform"
    a, b, safe = 0.0, 1.0, 0.5

    def _logpdf(self, z):
        return ast.zeros_like(z)

    def _pdf(self, z):
        return ast.ones_like(z)

    def _cdf(self, z):
        return z

    def _sf(self, z):
        return 1.0 - z

    def _logsf(self, z):
        return ast.log1p(-z)

    def _ppf(self, q):
        return q

    def _isf(self, q):
        return 1.0 - q


class lognorm_gen(ContinuousWithCdf):
    """The log-normal distribution with shape s: log(z) is normal with standard deviation s."""

    name = "lognorm"
    shapes, safe_shapes = ("s",), (1.0,)
    a, safe = 0.0, 1.0

    def _logpdf(self, z, s):
        # at z = 0 the density is 0: log(z) = -inf would meet +inf
        zero = z == 0
        positive = ast.where(zero, 1.0, z)
        log_z = ast.log(positive)
        value = -(log_z * log_z) / (2.0 * s * s) - ast.log(s * positive) - _LOG_SQRT_2PI
        return ast.where(zero, -math.inf, value)

    def _cdf(self, z, s):
        return special.ndtr(ast.log(z) / s)

    def _logcdf(self, z, s):
        return special.log_ndtr(ast.log(z) / s)

    def _sf(self, z, s):
        return special.ndtr(-ast.log(z) / s)

    def _logsf(self, z, s):
        return special.log_ndtr(-ast.log(z) / s)

    def _ppf(self, q, s):
        return ast.exp(s * special.ndtri(q))

    def _isf(self, q, s):
        return ast.exp(-s * special.ndtri(q))


class gamma_gen(Continuous):
    """The gamma distribution with shape a: density z**(a-1) exp(-z) / Gamma(a) for z >= 0."""

    name = "gamma"
    shapes, safe_shapes = ("a",), (1.0,)
    a, safe = 0.0, 1.0
    missing = _missing("gamma")

    def _logpdf(self, z, a):
        return special.xlogy(a - 1.0, z) - z - special.gammaln(a)


class beta_gen(Continuous):
    """The beta distribution with shapes a, b: density z**(a-1) (1-z)**(b-1) / B(a, b) on [0, 1]."""

    name = "beta"
    shapes, safe_shapes = ("a", "b"), (1.0, 1.0)
    a, b, safe = 0.0, 1.0, 0.5
    missing = _missing("beta")

    def _logpdf(self, z, a, b):
        return special.xlog1py(b - 1.0, -z) + special.xlogy(a - 1.0, z) - special.betaln(a, b)


class t_gen(Continuous):
    """Student's t distribution with df degrees of freedom (the normal distribution at df = inf)."""

    name = "t"
    shapes, safe_shapes = ("df",), (1.0,)
    missing = _missing("beta")

    def _logpdf(self, z, df):
        # log(1 / (sqrt(df) B(df/2, 1/2))) through betaln, which keeps its digits for large df where
        # gammaln((df+1)/2) - gammaln(df/2) cancels
        infinite = ast.isinf(df)
        d = ast.where(infinite, 1.0, df)
        # log1p(z**2 / d), as 2 log|z| - log d + log1p(d / z**2) where z * z would overflow
        big = ast.abs(z) > 1e100
        zs, zb = ast.where(big, 0.0, z), ast.where(big, ast.abs(z), 1.0)
        spread = ast.where(
            big, 2.0 * ast.log(zb) - ast.log(d) + ast.log1p((d / zb) / zb), ast.log1p(zs * zs / d)
        )
        finite = -0.5 * ast.log(d) - special.betaln(0.5 * d, 0.5) - (d + 1.0) / 2.0 * spread
        return ast.where(infinite, -z * z / 2.0 - _LOG_SQRT_2PI, finite)


class chi2_gen(Continuous):
    """The chi-squared distribution with df degrees of freedom."""

    name = "chi2"
    shapes, safe_shapes = ("df",), (1.0,)
    a, safe = 0.0, 1.0
    missing = _missing("gamma")

    def _logpdf(self, z, df):
        half = df / 2.0
        return special.xlogy(half - 1.0, z) - z / 2.0 - special.gammaln(half) - _LOG_2 * half


norm = norm_gen()
logistic = logistic_gen()
laplace = laplace_gen()
cauchy = cauchy_gen()
expon = expon_gen()
uniform = uniform_gen()
lognorm = lognorm_gen()
gamma = gamma_gen()
beta = beta_gen()
t = t_gen()
chi2 = chi2_gen()
