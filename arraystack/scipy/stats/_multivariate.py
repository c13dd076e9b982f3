"""The multivariate distributions of arraystack.scipy.stats: multivariate_normal, dirichlet and
multinomial, with SciPy's argument conventions (scipy/stats/_multivariate.py) and its errors for
parameters of the wrong shape. A covariance that is not positive definite raises LinAlgError where arraystack.linalg.cholesky
does (eagerly and under jit on the CPU). dirichlet's checks of values (alpha <= 0, x off the simplex)
raise SciPy's ValueError where the values are known (eagerly); under a transformation, the density is
nan there instead."""

from __future__ import annotations

import math

import numpy as np

import arraystack as ast
from arraystack.linalg._operands import concrete
from arraystack.scipy import special
from arraystack.scipy.stats._distribution import as_float64

_LOG_2PI = math.log(2 * math.pi)


def _squeeze(out):
    """SciPy's _squeeze_output: every axis of length 1 dropped."""
    return ast.squeeze(out) if 1 in out.shape else out


class multivariate_normal_gen:
    """The multivariate normal distribution: ``multivariate_normal.logpdf(x, mean=None, cov=1)``, x's last
    axis the dimension."""

    name = "multivariate_normal"

    def __repr__(self):
        return "<arraystack.scipy.stats.multivariate_normal>"

    def __call__(self, mean=None, cov=1, allow_singular=False):
        """The distribution frozen at these parameters."""
        _, _, cov = self._parameters(mean, cov, allow_singular, "multivariate_normal()")
        ast.linalg.cholesky(
            cov
        )  # a covariance that is not positive definite raises here, as SciPy's
        return _FrozenMultivariate(
            self, {"mean": mean, "cov": cov, "allow_singular": allow_singular}
        )

    def _parameters(self, mean, cov, allow_singular, where):
        if allow_singular:
            raise NotImplementedError(
                f"{where}: allow_singular=True (a pseudo-inverse of a singular covariance) is not "
                "implemented; scipy.stats.multivariate_normal computes it on NumPy arrays"
            )
        if mean is None:
            dim = 1 if cov is None or ast.asarray(cov).ndim < 2 else ast.asarray(cov).shape[0]
            mean = ast.zeros(dim)
        mean = as_float64(mean, "mean", where)
        dim = mean.size
        cov = as_float64(1.0 if cov is None else cov, "cov", where)
        if dim == 1:
            mean = mean.reshape(1)
            if cov.size != 1:
                raise ValueError(
                    f"{where}: a covariance of shape {cov.shape} for a distribution of dimension 1"
                )
            cov = cov.reshape(1, 1)
        if mean.ndim != 1:
            raise ValueError(f"Array 'mean' must be a vector of length {dim}.")
        if cov.ndim == 0:
            cov = cov * ast.eye(dim)
        elif cov.ndim == 1:
            if cov.shape[0] != dim:
                raise ValueError(
                    f"Array 'cov' must be a vector of length {dim}, but cov.shape = {cov.shape}."
                )
            cov = ast.diag(cov)
        elif cov.ndim == 2 and cov.shape != (dim, dim):
            raise ValueError(
                f"Array 'cov' must be square if it is two dimensional, but cov.shape = {cov.shape}."
                if cov.shape[0] != cov.shape[1]
                else f"Dimension mismatch: array 'cov' is of shape {cov.shape}, but 'mean' is a vector of length {dim}."
            )
        elif cov.ndim > 2:
            raise ValueError(
                f"Array 'cov' must be at most two-dimensional, but cov.ndim = {cov.ndim}"
            )
        return dim, mean, cov

    def logpdf(self, x, mean=None, cov=1, allow_singular=False):
        """The log of the density at x (its last axis the dimension; a 1-d x is one point, or, for a
        distribution of dimension 1, that many points), every axis of length 1 dropped from the result."""
        where = "multivariate_normal.logpdf()"
        dim, mean, cov = self._parameters(mean, cov, allow_singular, where)
        x = as_float64(x, "x", where)
        if x.ndim == 0:
            x = x.reshape(1)
        if x.ndim == 1:
            x = x[:, None] if dim == 1 else x[None, :]
        if x.shape[-1] != dim:
            raise ValueError(
                f"{where}: x has {x.shape[-1]} components in its last axis; the distribution has {dim}"
            )
        lower = ast.linalg.cholesky(
            cov
        )  # raises LinAlgError, as SciPy does, when cov is not positive definite
        whitened = (x - mean) @ ast.linalg.inv(lower).T
        log_det = 2.0 * ast.sum(ast.log(ast.diagonal(lower)))
        return _squeeze(-0.5 * (dim * _LOG_2PI + log_det + ast.sum(whitened * whitened, axis=-1)))

    def pdf(self, x, mean=None, cov=1, allow_singular=False):
        """The density at x: exp(logpdf(x))."""
        return ast.exp(self.logpdf(x, mean, cov, allow_singular))


class dirichlet_gen:
    """The Dirichlet distribution on the simplex: ``dirichlet.logpdf(x, alpha)``, x's first axis the
    components (all K of them, or the first K - 1, the last then 1 minus their sum)."""

    name = "dirichlet"

    def __repr__(self):
        return "<arraystack.scipy.stats.dirichlet>"

    def __call__(self, alpha):
        """The distribution frozen at alpha."""
        self._alpha(alpha, "dirichlet()")
        return _FrozenMultivariate(self, {"alpha": alpha})

    def _alpha(self, alpha, where):
        alpha = as_float64(alpha, "alpha", where)
        known = concrete(alpha)
        if known is not None and known.size and np.min(known) <= 0:
            raise ValueError("All parameters must be greater than 0")
        if alpha.ndim != 1:
            raise ValueError(
                f"Parameter vector 'a' must be one dimensional, but a.shape = {alpha.shape}."
            )
        return alpha

    def _x(self, x, alpha, where):
        """x as float64, with the last component appended where it was left out, and the dtype SciPy
        sums x in to check the simplex (x's own, when it is a float)."""
        given = ast.asarray(x)
        summed = given.dtype if given.dtype.kind == "f" else np.dtype(np.float64)
        x = as_float64(x, "x", where)
        if x.ndim == 0 or (x.shape[0] + 1 != alpha.shape[0] and x.shape[0] != alpha.shape[0]):
            raise ValueError(
                "Vector 'x' must have either the same number of entries as, or one entry fewer than, "
                f"parameter vector 'a', but alpha.shape = {alpha.shape} and x.shape = {x.shape}."
            )
        if x.shape[0] != alpha.shape[0]:
            x = ast.concatenate([x, (1.0 - ast.sum(x, axis=0))[None]], axis=0)
        known, a = concrete(x), concrete(alpha)
        if known is not None and a is not None:
            if np.min(known) < 0:
                raise ValueError("Each entry in 'x' must be greater than or equal to zero.")
            if np.max(known) > 1:
                raise ValueError("Each entry in 'x' must be smaller or equal one.")
            at_zero = (known == 0) & (a < 1).reshape((-1,) + (1,) * (known.ndim - 1))
            if at_zero.any():
                raise ValueError(
                    "Each entry in 'x' must be greater than zero if its alpha is less than one."
                )
            total = known.astype(summed).sum(axis=0)
            if (np.abs(total - 1.0) > 10e-10).any():
                raise ValueError(
                    f"The input vector 'x' must lie within the normal simplex. but np.sum(x, 0) = {total}."
                )
        return x, summed

    def logpdf(self, x, alpha):
        """The log of the density at x (the components along x's first axis)."""
        where = "dirichlet.logpdf()"
        alpha = self._alpha(alpha, where)
        x, summed = self._x(x, alpha, where)
        a = alpha.reshape((-1,) + (1,) * (x.ndim - 1))
        log_b = ast.sum(special.gammaln(alpha)) - special.gammaln(ast.sum(alpha))
        out = ast.sum(special.xlogy(a - 1.0, x), axis=0) - log_b
        # what raises eagerly (_x, _alpha) is nan under a transformation
        valid = ast.all(alpha > 0) & ast.all((x >= 0) & (x <= 1), axis=0)
        valid = valid & ~ast.any((x == 0) & (a < 1), axis=0)
        valid = valid & (ast.abs(ast.sum(x.astype(summed), axis=0) - 1.0) <= 10e-10)
        return _squeeze(ast.where(valid, out, ast.nan))

    def pdf(self, x, alpha):
        """The density at x: exp(logpdf(x))."""
        return ast.exp(self.logpdf(x, alpha))


class multinomial_gen:
    """The multinomial distribution: counts x (its last axis the K categories) of n draws with
    probabilities p."""

    name = "multinomial"

    def __repr__(self):
        return "<arraystack.scipy.stats.multinomial>"

    def __call__(self, n, p):
        """The distribution frozen at n and p."""
        return _FrozenMultivariate(self, {"n": n, "p": p}, mass=True)

    def logpmf(self, x, n, p):
        """The log of the probability of counts x: -inf where x are not non-negative integers summing to
        n; nan where n < 0, a p is outside [0, 1], or p's last axis does not sum to 1 (within 1e-8)."""
        where = "multinomial.logpmf()"
        x, n, p = (as_float64(v, name, where) for v, name in ((x, "x"), (n, "n"), (p, "p")))
        if x.ndim == 0 or p.ndim == 0:
            raise ValueError(f"{where}: x and p need a last axis (the categories)")
        if x.shape[-1] != p.shape[-1]:
            raise ValueError(f"{where}: x has {x.shape[-1]} categories and p {p.shape[-1]}")
        counts = ast.all((x >= 0) & (x == ast.floor(x)), axis=-1) & (ast.sum(x, axis=-1) == n)
        value = special.gammaln(n + 1.0) + ast.sum(
            special.xlogy(x, p) - special.gammaln(ast.where(x >= 0, x, 0.0) + 1.0), axis=-1
        )
        valid = (n >= 0) & ast.all((p >= 0) & (p <= 1), axis=-1)
        valid = valid & (ast.abs(ast.sum(p, axis=-1) - 1.0) <= 1e-8)
        return ast.where(valid, ast.where(counts, value, -ast.inf), ast.nan)

    def pmf(self, x, n, p):
        """The probability of counts x: exp(logpmf(x))."""
        return ast.exp(self.logpmf(x, n, p))


class _FrozenMultivariate:
    def __init__(self, dist, params, mass=False):
        self.dist, self.params = dist, params
        names = ("logpmf", "pmf") if mass else ("logpdf", "pdf")
        for name in names:
            method = getattr(dist, name)
            setattr(self, name, lambda x, method=method: method(x, **self.params))

    def __repr__(self):
        return f"<frozen arraystack.scipy.stats.{self.dist.name}>"


multivariate_normal = multivariate_normal_gen()
dirichlet = dirichlet_gen()
multinomial = multinomial_gen()
