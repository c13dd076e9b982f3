"""arraystack.scipy.stats: scipy.stats' distributions written in arraystack operations, so that their
densities trace, compile and differentiate (`jax.scipy.stats`' idea) and models can be fitted by
gradient.

Each distribution is called as SciPy's, ``norm.logpdf(x, loc=0, scale=1)``, ``gamma.logpdf(x, a, loc,
scale)``, or frozen, ``norm(loc, scale).logpdf(x)``, and follows SciPy's rules: outside the support a
density is 0 (its log -inf) and a cdf 0 or 1; invalid parameters (a scale or shape <= 0) and nan give
nan; results are float64, as SciPy's.

- Every method (logpdf, pdf, cdf, logcdf, sf, logsf, ppf, isf): norm, logistic, laplace, cauchy, expon,
  uniform, lognorm, gumbel_r, gumbel_l, halfnorm, halfcauchy, halflogistic, rayleigh, pareto,
  weibull_min.
- Densities (logpdf, pdf): gamma, beta, t, chi2, invgamma, gennorm, vonmises; their distribution
  functions need the regularized incomplete gamma and beta functions (or a Bessel series), which
  arraystack.scipy.special does not have, and asking for one says so.
- Discrete (logpmf, pmf): poisson, binom, nbinom, betabinom; with cdf, logcdf, sf, logsf too:
  bernoulli, geom.
- Multivariate: multivariate_normal, dirichlet (logpdf, pdf), multinomial (logpmf, pmf).

Not here: sampling (``rvs``: arraystack.random draws), moments, fitting.
"""

from arraystack.scipy.stats._continuous import (
    beta,
    cauchy,
    chi2,
    expon,
    gamma,
    laplace,
    logistic,
    lognorm,
    norm,
    t,
    uniform,
)
from arraystack.scipy.stats._continuous_more import (
    gennorm,
    gumbel_l,
    gumbel_r,
    halfcauchy,
    halflogistic,
    halfnorm,
    invgamma,
    pareto,
    rayleigh,
    vonmises,
    weibull_min,
)
from arraystack.scipy.stats._discrete import bernoulli, betabinom, binom, geom, nbinom, poisson
from arraystack.scipy.stats._multivariate import dirichlet, multinomial, multivariate_normal

__all__ = [
    "bernoulli",
    "beta",
    "betabinom",
    "binom",
    "cauchy",
    "chi2",
    "dirichlet",
    "expon",
    "gamma",
    "gennorm",
    "geom",
    "gumbel_l",
    "gumbel_r",
    "halfcauchy",
    "halflogistic",
    "halfnorm",
    "invgamma",
    "laplace",
    "logistic",
    "lognorm",
    "multinomial",
    "multivariate_normal",
    "nbinom",
    "norm",
    "pareto",
    "poisson",
    "rayleigh",
    "t",
    "uniform",
    "vonmises",
    "weibull_min",
]
