"""The machinery shared by arraystack.scipy.stats' univariate distributions: SciPy's argument parsing
(shape parameters, then loc and scale, by position or keyword), its rules at the edges (outside the
support a density is 0 and its log -inf, a cdf 0 or 1; invalid parameters and nan give nan) and its
dtype (float64). A distribution defines its standardized functions (`_logpdf(z, *shapes)`, ...) for z
inside its support and valid shapes; the methods here clamp everything else to a safe point before
calling them and select SciPy's value afterwards, so no untaken branch makes inf or nan and gradients
stay finite.
"""

from __future__ import annotations

import functools
import math

import numpy as np

import arraystack as ast

_NAN = math.nan


def as_float64(value, name: str, where: str):
    """A parameter or argument as a float64 array (SciPy computes stats in float64)."""
    value = ast.asarray(value)
    if value.dtype.kind == "c":
        raise TypeError(f"{where} takes real {name}; got a complex array")
    if value.dtype.kind not in "biuf":
        raise TypeError(f"{where} takes numbers for {name}; got an array of dtype {value.dtype}")
    return value.astype(np.float64, copy=False)


def _quiet(method):
    """The method under NumPy's errstate(all="ignore"), as SciPy computes: the values it selects away
    (log(0) where x is outside the support, ...) raise no warning eagerly."""

    @functools.wraps(method)
    def quiet(*args, **kwds):
        with np.errstate(all="ignore"):
            return method(*args, **kwds)

    return quiet


def log_of_complement(p, log_other):
    """log(1 - p), given log(1 - p) computed another way (log_other): log1p(-p) where p < 1/2, whose
    digits log(1 - p) would round away; log_other elsewhere (the tails, where it keeps them)."""
    small = p < 0.5
    return ast.where(small, ast.log1p(-ast.where(small, p, 0.0)), log_other)


def _fill(mask, value, safe):
    """value where mask holds, safe elsewhere: the untaken branch's input kept in its domain."""
    return ast.where(mask, value, safe)


class Distribution:
    """A univariate distribution of arraystack.scipy.stats, called as SciPy's: ``dist.method(x, *shapes,
    loc=0, scale=1)``, or frozen, ``dist(*shapes, loc=, scale=).method(x)``."""

    name = ""
    shapes: tuple = ()  # the shape parameters' names, in SciPy's order
    safe_shapes: tuple = ()  # a valid value of each, put in where the given one is invalid
    a, b = -math.inf, math.inf  # the standard support
    safe = 0.0  # a point inside the standard support, put in where z is outside
    scaled = True  # continuous distributions take loc and scale; discrete ones loc only

    def __repr__(self):
        return f"<arraystack.scipy.stats.{self.name}>"

    def __call__(self, *args, **kwds):
        """The distribution frozen at these parameters: ``norm(loc=1, scale=2).logpdf(x)``."""
        self._parse("freeze", args, kwds)  # the same errors as a method's
        return Frozen(self, args, kwds)

    def __getattr__(self, name):
        missing = getattr(type(self), "missing", {})
        if name in missing:
            raise AttributeError(
                f"arraystack.scipy.stats.{self.name} has no {name}: {missing[name]}; "
                f"scipy.stats.{self.name}.{name} computes it on NumPy arrays"
            )
        raise AttributeError(f"arraystack.scipy.stats.{self.name} has no attribute {name!r}")

    # -- parameters ---------------------------------------------------------------------------------------------
    def _parse(self, method, args, kwds):
        """(shapes, loc, scale) as float64 arrays, loc and scale None where left at 0 and 1."""
        where = f"{self.name}.{method}()"
        names = (*self.shapes, "loc", "scale") if self.scaled else (*self.shapes, "loc")
        if len(args) > len(names):
            raise TypeError(
                f"{where} takes at most {len(names)} parameters ({', '.join(names)}); got {len(args)}"
            )
        values = dict(zip(names, args))
        for key, value in kwds.items():
            if key not in names:
                raise TypeError(f"{where} got an unexpected keyword argument {key!r}")
            if key in values:
                raise TypeError(f"{where} got multiple values for argument {key!r}")
            values[key] = value
        missing = [n for n in self.shapes if n not in values]
        if missing:
            raise TypeError(f"{where} missing required shape parameter {missing[0]!r}")
        shapes = tuple(as_float64(values[n], n, where) for n in self.shapes)
        loc, scale = values.get("loc", 0), values.get("scale", 1)
        loc = None if _is_exactly(loc, 0) else as_float64(loc, "loc", where)
        scale = None if _is_exactly(scale, 1) else as_float64(scale, "scale", where)
        return shapes, loc, scale

    def _argcheck(self, *shapes):
        """Where the shape parameters are valid (SciPy's default: all positive)."""
        valid = ast.asarray(True)
        for s in shapes:
            valid = valid & (s > 0)
        return valid

    def _valid(self, shapes, scale):
        """(where the parameters are valid, the shapes with safe values elsewhere, the scale likewise)."""
        valid = self._argcheck(*shapes) if shapes else ast.asarray(True)
        if scale is not None:
            valid = valid & (scale > 0)
            scale = _fill(valid, scale, 1.0)
        shapes = tuple(_fill(valid, s, safe) for s, safe in zip(shapes, self.safe_shapes))
        return valid, shapes, scale

    def _standard(self, x, loc, scale):
        z = x if loc is None else x - loc
        return z if scale is None else z / scale

    def _support(self, *shapes):
        return self.a, self.b


def _is_exactly(value, number) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value == number


def _finish(value, valid, z):
    """SciPy's nan for invalid parameters and for nan input."""
    return ast.where(valid & ~ast.isnan(z), value, _NAN)


class Continuous(Distribution):
    """A continuous distribution with its density only (logpdf, pdf): the subclass defines `_logpdf`."""

    @_quiet
    def _density(self, method, x, args, kwds, log: bool):
        where = f"{self.name}.{method}()"
        shapes, loc, scale = self._parse(method, args, kwds)
        x = as_float64(x, "x", where)
        valid, shapes, scale = self._valid(shapes, scale)
        z = self._standard(x, loc, scale)
        a, b = self._support(*shapes)
        inside = (z >= a) & (z <= b)
        zc = _fill(inside, z, self.safe)
        if log:
            value = self._logpdf(zc, *shapes)
            value = value if scale is None else value - ast.log(scale)
            outside = -math.inf
        else:
            value = self._pdf(zc, *shapes)
            value = value if scale is None else value / scale
            outside = 0.0
        return _finish(ast.where(inside, value, outside), valid, z)

    def logpdf(self, x, *args, **kwds):
        """The log of the probability density at x (-inf outside the support)."""
        return self._density("logpdf", x, args, kwds, log=True)

    def pdf(self, x, *args, **kwds):
        """The probability density at x (0 outside the support)."""
        return self._density("pdf", x, args, kwds, log=False)

    def _pdf(self, z, *shapes):
        return ast.exp(self._logpdf(z, *shapes))


class _WithCdf:
    """cdf, logcdf, sf and logsf of a distribution whose subclass defines `_cdf` (and better formulas for
    the others where it has them)."""

    @_quiet
    def _tail(self, method, x, args, kwds, below, above):
        """One of cdf, sf, logcdf, logsf: `below` at and under the support's lower end, `above` at and over
        its upper end, the standardized function in between (of floor(k - loc) for a discrete one)."""
        where = f"{self.name}.{method}()"
        shapes, loc, scale = self._parse(method, args, kwds)
        x = as_float64(x, "x" if self.scaled else "k", where)
        valid, shapes, scale = self._valid(shapes, scale)
        z = self._standard(x, loc, scale)
        a, b = self._support(*shapes)
        if self.scaled:
            inside = (z > a) & (z < b)
        else:
            z = ast.floor(z)
            inside = (z >= a) & (z < b)
        value = getattr(self, "_" + method)(_fill(inside, z, self.safe), *shapes)
        value = ast.where(inside, value, ast.where(z >= b, above, below))
        return _finish(value, valid, z)

    def cdf(self, x, *args, **kwds):
        """The probability of a value at most x."""
        return self._tail("cdf", x, args, kwds, 0.0, 1.0)

    def logcdf(self, x, *args, **kwds):
        """The log of cdf(x), without underflow where the subclass has a formula for it."""
        return self._tail("logcdf", x, args, kwds, -math.inf, 0.0)

    def sf(self, x, *args, **kwds):
        """The survival function, 1 - cdf(x), without its cancellation."""
        return self._tail("sf", x, args, kwds, 1.0, 0.0)

    def logsf(self, x, *args, **kwds):
        """The log of sf(x)."""
        return self._tail("logsf", x, args, kwds, 0.0, -math.inf)

    def _logcdf(self, z, *shapes):
        return log_of_complement(self._sf(z, *shapes), ast.log(self._cdf(z, *shapes)))

    def _sf(self, z, *shapes):
        return 1.0 - self._cdf(z, *shapes)

    def _logsf(self, z, *shapes):
        return log_of_complement(self._cdf(z, *shapes), ast.log(self._sf(z, *shapes)))


class ContinuousWithCdf(_WithCdf, Continuous):
    """A continuous distribution with its distribution function (cdf, logcdf, sf, logsf) and quantiles (ppf,
    isf) too: the subclass defines `_cdf` and `_ppf`, and better formulas for the others where it has them."""

    @_quiet
    def _quantile(self, method, q, args, kwds):
        where = f"{self.name}.{method}()"
        shapes, loc, scale = self._parse(method, args, kwds)
        q = as_float64(q, "q", where)
        valid, shapes, scale = self._valid(shapes, scale)
        a, b = self._support(*shapes)
        if method == "isf":
            a, b = b, a  # isf(0) is the upper end
        inside = (q > 0) & (q < 1)
        value = getattr(self, "_" + method)(_fill(inside, q, 0.5), *shapes)
        value = ast.where(inside, value, ast.where(q == 0, a, b))
        value = value if scale is None else value * scale
        value = value if loc is None else value + loc
        return ast.where(valid & (q >= 0) & (q <= 1), value, _NAN)

    def ppf(self, q, *args, **kwds):
        """The quantile function, the inverse of cdf (nan for q outside [0, 1])."""
        return self._quantile("ppf", q, args, kwds)

    def isf(self, q, *args, **kwds):
        """The inverse of sf."""
        return self._quantile("isf", q, args, kwds)

    def _isf(self, q, *shapes):
        return self._ppf(1.0 - q, *shapes)


class Discrete(Distribution):
    """A discrete distribution on the integers with its mass function (logpmf, pmf): the subclass defines
    `_logpmf` of an integer k inside the support."""

    scaled = False

    @_quiet
    def _mass(self, method, k, args, kwds, log: bool):
        where = f"{self.name}.{method}()"
        shapes, loc, _ = self._parse(method, args, kwds)
        k = as_float64(k, "k", where)
        valid, shapes, _ = self._valid(shapes, None)
        z = self._standard(k, loc, None)
        a, b = self._support(*shapes)
        inside = (z >= a) & (z <= b) & (z == ast.floor(z))
        value = self._logpmf(_fill(inside, z, self.safe), *shapes)
        value = ast.where(inside, value, -math.inf)
        return _finish(value if log else ast.exp(value), valid, z)

    def logpmf(self, k, *args, **kwds):
        """The log of the probability of k (-inf off the support and at non-integers)."""
        return self._mass("logpmf", k, args, kwds, log=True)

    def pmf(self, k, *args, **kwds):
        """The probability of k."""
        return self._mass("pmf", k, args, kwds, log=False)


class DiscreteWithCdf(_WithCdf, Discrete):
    """A discrete distribution with its distribution function too (cdf, logcdf, sf, logsf): the subclass
    defines `_cdf` of an integer k inside the support."""


class Frozen:
    """A distribution with its parameters fixed: each method takes x (or q, k) only."""

    def __init__(self, dist, args, kwds):
        self.dist, self.args, self.kwds = dist, args, kwds

    def __repr__(self):
        return f"<frozen arraystack.scipy.stats.{self.dist.name}>"

    def __getattr__(self, name):
        method = getattr(self.dist, name)
        if not callable(method) or name.startswith("_"):
            return method
        return lambda x: method(x, *self.args, **self.kwds)
