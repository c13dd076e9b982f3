"""More continuous distributions of arraystack.scipy.stats (those of jax.scipy.stats and a few common
ones), each SciPy's formulas for its standardized functions in arraystack operations: gumbel_r,
gumbel_l, halfnorm, halfcauchy, halflogistic, rayleigh, pareto and weibull_min with every method;
invgamma, gennorm and vonmises with their densities (their cdfs need incomplete gamma functions or
von Mises' series)."""

from __future__ import annotations

import math

import arraystack as ast
from arraystack.scipy import special
from arraystack.scipy.stats._continuous import (
    _LOG_2,
    _log1mexp,
    _missing,
    cauchy,
    missing_because,
)
from arraystack.scipy.stats._distribution import Continuous, ContinuousWithCdf, log_of_complement

_HALF_LOG_2_OVER_PI = 0.5 * math.log(2.0 / math.pi)
_SQRT_2 = math.sqrt(2.0)


class gumbel_r_gen(ContinuousWithCdf):
    """The right-skewed Gumbel distribution: cdf exp(-exp(-z))."""

    name = "gumbel_r"

    def _logpdf(self, z):
        return -z - ast.exp(-z)

    def _cdf(self, z):
        return ast.exp(-ast.exp(-z))

    def _logcdf(self, z):
        return -ast.exp(-z)

    def _sf(self, z):
        return -ast.expm1(-ast.exp(-z))

    def _ppf(self, q):
        return -ast.log(-ast.log(q))

    def _isf(self, q):
        return -ast.log(-ast.log1p(-q))


class gumbel_l_gen(ContinuousWithCdf):
    """The left-skewed Gumbel distribution: sf exp(-exp(z))."""

    name = "gumbel_l"

    def _logpdf(self, z):
        return z - ast.exp(z)

    def _cdf(self, z):
        return -ast.expm1(-ast.exp(z))

    def _sf(self, z):
        return ast.exp(-ast.exp(z))

    def _logsf(self, z):
        return -ast.exp(z)

    def _ppf(self, q):
        return ast.log(-ast.log1p(-q))

    def _isf(self, q):
        return ast.log(-ast.log(q))


class halfnorm_gen(ContinuousWithCdf):
    """The half-normal distribution: |z| of a standard normal z."""

    name = "halfnorm"
    a, safe = 0.0, 1.0

    def _logpdf(self, z):
        return _HALF_LOG_2_OVER_PI - z * z / 2.0

    def _cdf(self, z):
        return special.erf(z / _SQRT_2)

    def _sf(self, z):
        return 2.0 * special.ndtr(-z)

    def _logsf(self, z):
        return log_of_complement(self._cdf(z), _LOG_2 + special.log_ndtr(-z))

    def _ppf(self, q):
        return special.ndtri((1.0 + q) / 2.0)

    def _isf(self, q):
        return -special.ndtri(q / 2.0)


class halfcauchy_gen(ContinuousWithCdf):
    """The half-Cauchy distribution: density 2 / (pi (1 + z**2)) for z >= 0."""

    name = "halfcauchy"
    a, safe = 0.0, 1.0

    def _logpdf(self, z):
        return _LOG_2 + cauchy._logpdf(z)

    def _cdf(self, z):
        return 2.0 / math.pi * ast.arctan(z)

    def _sf(self, z):
        return 2.0 / math.pi * ast.arctan2(1.0, z)

    def _ppf(self, q):
        return ast.tan(math.pi / 2.0 * q)

    def _isf(self, q):
        return 1.0 / ast.tan(math.pi * q / 2.0)


class halflogistic_gen(ContinuousWithCdf):
    """The half-logistic distribution: density 2 exp(-z) / (1 + exp(-z))**2 for z >= 0."""

    name = "halflogistic"
    a, safe = 0.0, 1.0

    def _logpdf(self, z):
        return _LOG_2 - z - 2.0 * ast.log1p(ast.exp(-z))

    def _cdf(self, z):
        return ast.tanh(z / 2.0)

    def _sf(self, z):
        return 2.0 * special.expit(-z)

    def _logsf(self, z):
        return log_of_complement(self._cdf(z), _LOG_2 + special.log_expit(-z))

    def _ppf(self, q):
        return 2.0 * ast.arctanh(q)

    def _isf(self, q):
        small = q < 0.5
        return ast.where(
            small,
            -special.logit(0.5 * ast.where(small, q, 0.25)),
            2.0 * ast.arctanh(1.0 - ast.where(small, 0.75, q)),
        )


class rayleigh_gen(ContinuousWithCdf):
    """The Rayleigh distribution: density z exp(-z**2 / 2) for z >= 0."""

    name = "rayleigh"
    a, safe = 0.0, 1.0

    def _logpdf(self, z):
        finite = z < 1e154  # beyond, z * z overflows and log(z) - inf would be nan at z = inf
        zf = ast.where(finite, z, 1.0)
        return ast.where(finite, ast.log(zf) - 0.5 * zf * zf, -math.inf)

    def _cdf(self, z):
        return -ast.expm1(-0.5 * z * z)

    def _logcdf(self, z):
        return _log1mexp(0.5 * z * z)

    def _sf(self, z):
        return ast.exp(-0.5 * z * z)

    def _logsf(self, z):
        return -0.5 * z * z

    def _ppf(self, q):
        return ast.sqrt(-2.0 * ast.log1p(-q))

    def _isf(self, q):
        return ast.sqrt(-2.0 * ast.log(q))


class pareto_gen(ContinuousWithCdf):
    """The Pareto distribution with shape b: density b / z**(b + 1) for z >= 1."""

    name = "pareto"
    shapes, safe_shapes = ("b",), (1.0,)
    a, safe = 1.0, 2.0

    def _logpdf(self, z, b):
        return ast.log(b) - (b + 1.0) * ast.log(z)

    def _cdf(self, z, b):
        return -ast.expm1(-b * ast.log(z))

    def _logcdf(self, z, b):
        return _log1mexp(b * ast.log(z))

    def _sf(self, z, b):
        return ast.exp(-b * ast.log(z))

    def _logsf(self, z, b):
        return -b * ast.log(z)

    def _ppf(self, q, b):
        return ast.exp(-ast.log1p(-q) / b)

    def _isf(self, q, b):
        return ast.exp(-ast.log(q) / b)


class weibull_min_gen(ContinuousWithCdf):
    """The Weibull minimum distribution with shape c: cdf 1 - exp(-z**c) for z >= 0."""

    name = "weibull_min"
    shapes, safe_shapes = ("c",), (1.0,)
    a, safe = 0.0, 1.0

    def _logpdf(self, z, c):
        return ast.log(c) + special.xlogy(c - 1.0, z) - z**c

    def _cdf(self, z, c):
        return -ast.expm1(-(z**c))

    def _logcdf(self, z, c):
        return _log1mexp(z**c)

    def _sf(self, z, c):
        return ast.exp(-(z**c))

    def _logsf(self, z, c):
        return -(z**c)

    def _ppf(self, q, c):
        return (-ast.log1p(-q)) ** (1.0 / c)

    def _isf(self, q, c):
        return (-ast.log(q)) ** (1.0 / c)


class invgamma_gen(Continuous):
    """The inverted gamma distribution with shape a: 1/z is gamma(a)."""

    name = "invgamma"
    shapes, safe_shapes = ("a",), (1.0,)
    a, safe = 0.0, 1.0
    missing = _missing("gamma")

    def _logpdf(self, z, a):
        # at z = 0 the density is 0 (exp(-1/z) wins over any power)
        zero = z == 0
        positive = ast.where(zero, 1.0, z)
        value = -(a + 1.0) * ast.log(positive) - special.gammaln(a) - 1.0 / positive
        return ast.where(zero, -math.inf, value)


class gennorm_gen(Continuous):
    """The generalized normal distribution with shape beta: density beta / (2 Gamma(1/beta)) exp(-|z|**beta)."""

    name = "gennorm"
    shapes, safe_shapes = ("beta",), (2.0,)
    missing = _missing("gamma")

    def _logpdf(self, z, beta):
        return ast.log(0.5 * beta) - special.gammaln(1.0 / beta) - ast.abs(z) ** beta


class vonmises_gen(Continuous):
    """The von Mises distribution with concentration kappa: density exp(kappa cos z) / (2 pi I0(kappa))."""

    name = "vonmises"
    shapes, safe_shapes = ("kappa",), (1.0,)
    missing = missing_because(
        "its distribution function is a series in Bessel functions, not composed here"
    )

    def _argcheck(self, kappa):
        return kappa >= 0

    def _logpdf(self, z, kappa):
        half = ast.sin(z / 2.0)
        cos_minus_one = -2.0 * half * half  # cos(z) - 1 without its cancellation near 0
        return kappa * cos_minus_one - math.log(2.0 * math.pi) - ast.log(special.i0e(kappa))


gumbel_r = gumbel_r_gen()
gumbel_l = gumbel_l_gen()
halfnorm = halfnorm_gen()
halfcauchy = halfcauchy_gen()
halflogistic = halflogistic_gen()
rayleigh = rayleigh_gen()
pareto = pareto_gen()
weibull_min = weibull_min_gen()
invgamma = invgamma_gen()
gennorm = gennorm_gen()
vonmises = vonmises_gen()
