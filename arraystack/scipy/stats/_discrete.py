"""The discrete distributions of arraystack.scipy.stats: SciPy's formulas (scipy/stats/_discrete_distns.py)
in arraystack operations. bernoulli and geom have their distribution functions; poisson, binom, nbinom
and betabinom their mass functions only (their cdfs are incomplete gamma and beta functions, and a
hypergeometric function)."""

from __future__ import annotations

import arraystack as ast
from arraystack.scipy import special
from arraystack.scipy.stats._continuous import _missing, missing_because
from arraystack.scipy.stats._distribution import Discrete, DiscreteWithCdf


def _probability(p):
    return (p >= 0) & (p <= 1)


class poisson_gen(Discrete):
    """The Poisson distribution with mean mu: mass mu**k exp(-mu) / k! for k = 0, 1, ..."""

    name = "poisson"
    shapes, safe_shapes = ("mu",), (1.0,)
    a, safe = 0.0, 0.0
    missing = _missing("gamma")

    def _argcheck(self, mu):
        return mu >= 0

    def _logpmf(self, k, mu):
        return special.xlogy(k, mu) - special.gammaln(k + 1.0) - mu


class binom_gen(Discrete):
    """The binomial distribution: k successes in n trials of probability p."""

    name = "binom"
    shapes, safe_shapes = ("n", "p"), (1.0, 0.5)
    a, safe = 0.0, 0.0
    missing = _missing("beta")

    def _argcheck(self, n, p):
        return (n >= 0) & (n == ast.floor(n)) & _probability(p)

    def _support(self, n, p):
        return 0.0, n

    def _logpmf(self, k, n, p):
        # betaln keeps the digits that the three gammaln of SciPy's formula lose for large n
        return _log_choose(n, k) + special.xlogy(k, p) + special.xlog1py(n - k, -p)


class nbinom_gen(Discrete):
    """The negative binomial distribution: k failures before the n-th success, each of probability p."""

    name = "nbinom"
    shapes, safe_shapes = ("n", "p"), (1.0, 0.5)
    a, safe = 0.0, 0.0
    missing = _missing("beta")

    def _argcheck(self, n, p):
        return (n > 0) & (p > 0) & (p <= 1)

    def _logpmf(self, k, n, p):
        # log C(n + k - 1, k) = -log(k) - betaln(k, n) for k >= 1, 0 at k = 0: SciPy's three gammaln
        # cancel for large n
        first = k == 0
        kk = ast.where(first, 1.0, k)
        coefficient = ast.where(first, 0.0, -ast.log(kk) - special.betaln(kk, n))
        return coefficient + n * ast.log(p) + special.xlog1py(k, -p)


class betabinom_gen(Discrete):
    """The beta-binomial distribution: binomial in n trials with a beta(a, b) success probability."""

    name = "betabinom"
    shapes, safe_shapes = ("n", "a", "b"), (1.0, 1.0, 1.0)
    a, safe = 0.0, 0.0
    missing = missing_because(
        "its distribution function is a generalized hypergeometric (3F2) sum, not composed here",
        ("cdf", "logcdf", "sf", "logsf"),
    )

    def _argcheck(self, n, a, b):
        return (n >= 0) & (n == ast.floor(n)) & (a > 0) & (b > 0)

    def _support(self, n, a, b):
        return 0.0, n

    def _logpmf(self, k, n, a, b):
        return _log_choose(n, k) + special.betaln(k + a, n - k + b) - special.betaln(a, b)


def _log_choose(n, k):
    """log C(n, k) = -log(n + 1) - betaln(n - k + 1, k + 1), exactly 0 at k = 0 and k = n."""
    edge = (k == 0) | (k == n)
    kk, nn = ast.where(edge, 1.0, k), ast.where(edge, 2.0, n)
    return ast.where(edge, 0.0, -ast.log1p(nn) - special.betaln(nn - kk + 1.0, kk + 1.0))


class bernoulli_gen(DiscreteWithCdf):
    """The Bernoulli distribution: 1 with probability p, 0 otherwise."""

    name = "bernoulli"
    shapes, safe_shapes = ("p",), (0.5,)
    a, b, safe = 0.0, 1.0, 0.0

    def _argcheck(self, p):
        return _probability(p)

    def _logpmf(self, k, p):
        return special.xlogy(k, p) + special.xlog1py(1.0 - k, -p)

    def _cdf(self, k, p):  # k = 0 here: 1 is the support's upper end
        return 1.0 - p

    def _sf(self, k, p):
        return p

    def _logsf(self, k, p):
        return ast.log(p)

    def _logcdf(self, k, p):
        return ast.log1p(-p)


class geom_gen(DiscreteWithCdf):
    """The geometric distribution: the number of trials up to the first success, each of probability p."""

    name = "geom"
    shapes, safe_shapes = ("p",), (0.5,)
    a, safe = 1.0, 1.0

    def _argcheck(self, p):
        return (p > 0) & (p <= 1)

    def _logpmf(self, k, p):
        return special.xlog1py(k - 1.0, -p) + ast.log(p)

    def _cdf(self, k, p):
        return -ast.expm1(ast.log1p(-p) * k)

    def _logcdf(self, k, p):
        return ast.log(-ast.expm1(ast.log1p(-p) * k))

    def _sf(self, k, p):
        return ast.exp(self._logsf(k, p))

    def _logsf(self, k, p):
        # at p = 1, log1p(-1) = -inf and k >= 1: -inf, the sf's 0
        return special.xlog1py(k, -p)


poisson = poisson_gen()
binom = binom_gen()
nbinom = nbinom_gen()
betabinom = betabinom_gen()
bernoulli = bernoulli_gen()
geom = geom_gen()

__all__ = ["bernoulli", "betabinom", "binom", "geom", "nbinom", "poisson"]
