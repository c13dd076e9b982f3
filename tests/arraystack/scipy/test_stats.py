"""arraystack.scipy.stats against scipy.stats: every distribution's every method on grids through its
support's edges, outside it, at +-inf, nan and in the tails, over valid and invalid parameters that
broadcast against x; SciPy's argument parsing (by position and keyword), frozen forms, dtypes and errors;
multivariate_normal's and dirichlet's argument conventions; and the densities under jit, grad and vmap."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
import scipy.special as sp
import scipy.stats as ss

import arraystack as ast

S = ast.scipy.stats
EPS = np.finfo(np.float64).eps

X = np.array(
    [-np.inf, -1e300, -40.0, -5.0, -1.0, -0.5, -0.0, 0.0, 1e-300, 0.25, 0.5, 1.0, 2.0, 5.0, 40.0,
     800.0, 1e200, 1e300, np.inf, np.nan]
)  # fmt: skip
Q = np.array(
    [-np.inf, -0.1, -0.0, 0.0, 1e-300, 1e-20, 0.1, 0.5, 0.9, 1 - 1e-16, 1.0, 1.1, np.inf, np.nan]
)
K = np.array(
    [-np.inf, -3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 7.0, 10.0, 11.0, 100.0, 1e6, np.inf,
     np.nan]
)  # fmt: skip
LOC = np.array([-np.inf, -1.0, 0.0, 2.5, np.inf, np.nan])
SCALE = np.array([-1.0, 0.0, 0.5, 2.0, np.inf, np.nan])
DISCRETE_LOC = np.array([-np.inf, -1.5, 0.0, 2.0, np.inf, np.nan])

ALL = ("logpdf", "pdf", "cdf", "logcdf", "sf", "logsf", "ppf", "isf")
DENSITIES = ("logpdf", "pdf")
MASS = ("logpmf", "pmf")
MASS_AND_TAILS = ("logpmf", "pmf", "cdf", "logcdf", "sf", "logsf")

# name: (methods, a grid of each shape parameter (valid and invalid values), a valid value of each,
# (rtol, atol)). Closed forms agree to a few ulp; the gammaln/betaln-based densities differ from SciPy's
# formulas by design (t's normalization through betaln, for one): 1e-10, and a few ulp of their terms
# absolutely where the log density is near 0 (beta.logpdf(0.25, 0.5, 1) is 0 here, 1.1e-16 in SciPy)
CLOSED, GAMMALN = (1e-12, 0.0), (1e-10, 4 * EPS)
CONTINUOUS = {
    "norm": (ALL, (), (), CLOSED),
    "logistic": (ALL, (), (), CLOSED),
    "laplace": (ALL, (), (), CLOSED),
    "cauchy": (ALL, (), (), CLOSED),
    "expon": (ALL, (), (), CLOSED),
    "uniform": (ALL, (), (), CLOSED),
    "lognorm": (ALL, ([-1.0, 0.0, 0.05, 0.7, 3.0, np.nan],), (0.7,), CLOSED),
    "gamma": (DENSITIES, ([-1.0, 0.0, 0.3, 1.0, 2.5, 40.0, np.nan],), (2.5,), GAMMALN),
    "beta": (DENSITIES, ([-1.0, 0.0, 0.5, 1.0, 3.0, np.nan],) * 2, (0.5, 3.0), GAMMALN),
    "t": (DENSITIES, ([-1.0, 0.0, 0.3, 1.0, 3.5, 1e10, np.inf, np.nan],), (3.5,), GAMMALN),
    "chi2": (DENSITIES, ([-1.0, 0.0, 0.5, 1.0, 2.0, 7.0, np.nan],), (3.0,), GAMMALN),
    "gumbel_r": (ALL, (), (), CLOSED),
    "gumbel_l": (ALL, (), (), CLOSED),
    "halfnorm": (ALL, (), (), CLOSED),
    "halfcauchy": (ALL, (), (), CLOSED),
    "halflogistic": (ALL, (), (), CLOSED),
    "rayleigh": (ALL, (), (), CLOSED),
    "pareto": (ALL, ([-1.0, 0.0, 0.5, 2.5, 40.0, np.nan],), (2.5,), CLOSED),
    "weibull_min": (ALL, ([-1.0, 0.0, 0.4, 1.0, 2.5, np.nan],), (0.7,), CLOSED),
    "invgamma": (DENSITIES, ([-1.0, 0.0, 0.3, 1.0, 2.5, 40.0, np.nan],), (2.5,), GAMMALN),
    "gennorm": (DENSITIES, ([-1.0, 0.0, 0.5, 1.0, 2.0, 8.0, np.nan],), (1.3,), GAMMALN),
    "vonmises": (DENSITIES, ([-1.0, 0.0, 0.5, 2.0, 700.0, np.nan],), (2.0,), GAMMALN),
}
# binom: SciPy's log C(n, k), a difference of three gammaln, loses ~1e-10 at n = 1e6 (ours, through betaln,
# is within 1e-12 of the exact value); p = 0 and 1 are test_binom_certain_outcomes_have_probability_one's.
# geom: SciPy's pmf, (1 - p)**(k - 1) p, loses ~3e-11 at p = 1e-6, k = 1e6 (the rounding of 1 - p, raised
# to the 1e6th power); ours is within a few ulp of the exact value there
DISCRETE = {
    "poisson": (MASS, ([-1.0, 0.0, 1e-5, 2.5, 100.0, 1e5, np.nan],), (2.5,), CLOSED),
    "binom": (
        MASS,
        ([-1.0, 0.0, 2.5, 10.0, 1e6, np.nan], [-0.5, 0.3, 0.5, 0.99, 1.5, np.nan]),
        (10.0, 0.3),
        (1e-9, 0.0),
    ),
    "bernoulli": (MASS_AND_TAILS, ([-0.5, 0.0, 0.3, 1.0, 1.5, np.nan],), (0.3,), CLOSED),
    "geom": (MASS_AND_TAILS, ([-0.5, 0.0, 1e-6, 0.3, 1.0, 1.5, np.nan],), (0.3,), (1e-10, 0.0)),
    "nbinom": (
        MASS,
        ([-1.0, 0.0, 0.5, 3.5, 200.0, np.nan], [-0.5, 0.0, 0.3, 1.0, 1.5, np.nan]),
        (3.5, 0.3),
        (1e-10, 4 * EPS),
    ),
    "betabinom": (
        MASS,
        ([-1.0, 0.0, 2.5, 10.0, np.nan], [-1.0, 0.0, 0.5, 2.0, np.nan], [0.0, 0.7, 3.5, np.nan]),
        (10.0, 2.0, 3.5),
        (1e-10, 4 * EPS),
    ),
}
CONTINUOUS_CASES = [(name, m) for name, spec in CONTINUOUS.items() for m in spec[0]]
DISCRETE_CASES = [(name, m) for name, spec in DISCRETE.items() for m in spec[0]]


def scipy_value(name, method, *args, **kwds):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.asarray(getattr(getattr(ss, name), method)(*args, **kwds))


def ours(name, method, *args, **kwds):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.asarray(getattr(getattr(S, name), method)(*args, **kwds))


def assert_matches(got, want, tolerance, mask=None):
    """float64, SciPy's shape, nan and +-inf at exactly SciPy's positions, 0 wherever SciPy's is 0, the
    rest within tolerance: (rtol, atol), or rtol."""
    rtol, atol = tolerance if isinstance(tolerance, tuple) else (tolerance, 0.0)
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == np.float64
    assert got.shape == want.shape
    if mask is not None:
        got, want = got[mask], want[mask]
    for where in (np.isnan, np.isposinf, np.isneginf):
        np.testing.assert_array_equal(where(got), where(want), err_msg=where.__name__)
    np.testing.assert_array_equal(got[want == 0], 0.0, err_msg="SciPy's zeros")
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, equal_nan=True)


def points(method):
    return Q if method in ("ppf", "isf") else X


# Log forms of the upper tails (z > 1) where SciPy's takes the log of a value that has underflowed (-inf)
# and the log itself is finite: these are what the tails are checked against there
LOG_FORMS = {
    ("halfnorm", "logsf"): lambda z: math.log(2) + sp.log_ndtr(-z),
    ("halfcauchy", "logpdf"): lambda z: math.log(2 / math.pi) - 2 * np.log(z) - np.log1p(1 / z / z),
    ("halflogistic", "logsf"): lambda z: math.log(2) - z - np.log1p(np.exp(-z)),
    ("pareto", "logpdf"): lambda z, b: np.log(b) - (b + 1) * np.log(z),
    ("pareto", "logsf"): lambda z, b: -b * np.log(z),
}


def expected(name, method, x, *args):
    """SciPy's value, where SciPy is right. Note: SciPy's laplace takes the log of its pdf (and of its cdf's
    tails), which underflows to -inf for |z| > ~745; the log is -log(2) - |z| (- log(scale)) there. SciPy's
    t.logpdf squares z, which overflows beyond |z| = 1.3e154: the log form is used there."""
    want = scipy_value(name, method, x, *args)
    shapes = args[: len(CONTINUOUS[name][2])] if name in CONTINUOUS else ()
    rest = args[len(shapes) :]
    loc = rest[0] if len(rest) > 0 else 0.0
    scale = rest[1] if len(rest) > 1 else 1.0
    with np.errstate(all="ignore"):
        z = (x - loc) / scale
    log_form = LOG_FORMS.get((name, method))
    if log_form is not None:
        with np.errstate(all="ignore"):
            exact = log_form(z, *shapes) - (np.log(scale) if method == "logpdf" else 0.0)
        want = np.where(np.isneginf(want) & np.isfinite(exact) & (scale > 0) & (z > 1), exact, want)
    if name == "weibull_min" and method == "pdf":
        # SciPy's c z**(c - 1) exp(-z**c) is inf * 0 = nan for huge z; the density is 0 there
        huge = (z > 1e10) & np.isfinite(z) & (shapes[0] > 0) & (scale > 0)
        want = np.where(np.isnan(want) & huge, 0.0, want)
    if name == "t" and method in ("logpdf", "pdf"):
        df = args[0]
        loc = args[1] if len(args) > 1 else 0.0
        scale = args[2] if len(args) > 2 else 1.0
        with np.errstate(all="ignore"):
            z = np.abs((x - loc) / scale)
            log = (
                sp.gammaln((df + 1) / 2) - sp.gammaln(df / 2) - 0.5 * np.log(df * np.pi)
                - (df + 1) / 2 * (2 * np.log(z) - np.log(df) + np.log1p(df / z / z))
                - np.log(scale)
            )  # fmt: skip
        overflows = (z > 1e154) & np.isfinite(z) & (df > 0) & (scale > 0) & np.isfinite(df)
        want = np.where(overflows, log if method == "logpdf" else np.exp(log), want)
    if name == "laplace" and method in ("logpdf", "logcdf", "logsf"):
        loc = args[0] if len(args) > 0 else 0.0
        scale = args[1] if len(args) > 1 else 1.0
        with np.errstate(all="ignore"):
            z = (x - loc) / scale
            exact = -math.log(2) - np.abs(z) - (np.log(scale) if method == "logpdf" else 0.0)
        underflows = np.isneginf(want) & np.isfinite(exact)
        want = np.where(underflows, exact, want)
    return want


# -- univariate continuous --------------------------------------------------------------------------------------
@pytest.mark.parametrize("name, method", CONTINUOUS_CASES)
def test_continuous_matches_scipy_over_x_and_the_shape_parameters(name, method):
    _, grids, _, tolerance = CONTINUOUS[name]
    args = np.ix_(points(method), *[np.array(g) for g in grids])  # broadcast against x
    got = ours(name, method, *args)
    assert_matches(got, expected(name, method, *args), tolerance)


@pytest.mark.parametrize("name, method", CONTINUOUS_CASES)
def test_loc_and_scale_by_position_and_by_keyword(name, method):
    _, _, shapes, tolerance = CONTINUOUS[name]
    x, loc, scale = np.ix_(points(method), LOC, SCALE)
    got = ours(name, method, x, *shapes, loc, scale)
    assert_matches(got, expected(name, method, x, *shapes, loc, scale), tolerance)
    np.testing.assert_array_equal(ours(name, method, x, *shapes, scale=scale, loc=loc), got)
    only_loc = ours(name, method, x, *shapes, loc=loc)
    assert_matches(only_loc, expected(name, method, x, *shapes, loc), tolerance)
    only_scale = ours(name, method, x, *shapes, scale=scale)
    assert_matches(only_scale, expected(name, method, x, *shapes, 0.0, scale), tolerance)


def test_log_functions_in_the_tails():
    cases = [
        ("norm", "logcdf", -40.0, ()),
        ("norm", "logcdf", -1e10, ()),
        ("norm", "logsf", 40.0, ()),
        ("norm", "ppf", 1e-300, ()),
        ("norm", "isf", 1e-300, ()),
        ("norm", "pdf", 38.0, ()),
        ("expon", "logsf", 800.0, ()),
        ("expon", "logpdf", 1e300, ()),
        ("expon", "isf", 1e-300, ()),
        ("expon", "ppf", 1e-20, ()),
        ("logistic", "logcdf", -800.0, ()),
        ("logistic", "logsf", 800.0, ()),
        ("logistic", "logpdf", 800.0, ()),
        ("logistic", "ppf", 1e-300, ()),
        ("cauchy", "logpdf", 1e200, ()),
        ("cauchy", "logpdf", -1e300, ()),
        ("cauchy", "cdf", -1e200, ()),
        ("cauchy", "sf", 1e200, ()),
        ("cauchy", "ppf", 1e-300, ()),
        ("cauchy", "isf", 1 - 1e-16, ()),
        ("lognorm", "logcdf", 1e-300, (0.5,)),
        ("lognorm", "logsf", 1e300, (0.5,)),
        ("lognorm", "logpdf", 1e-300, (3.0,)),
        ("uniform", "logsf", 1 - 1e-16, ()),
        ("uniform", "logcdf", 1e-300, ()),
        ("gamma", "logpdf", 1e300, (2.5,)),
        ("gamma", "logpdf", 1e-300, (0.5,)),
        ("beta", "logpdf", 1e-300, (0.5, 2.0)),
        ("beta", "logpdf", 1 - 1e-16, (2.0, 0.5)),
        ("t", "logpdf", 1e100, (3.5,)),
        ("chi2", "logpdf", 1e300, (3.0,)),
    ]
    for name, method, x, shapes in cases:
        want = scipy_value(name, method, x, *shapes)
        assert np.isfinite(want) and want != 0, (name, method, x)  # a tail value, not a limit
        np.testing.assert_allclose(
            ours(name, method, x, *shapes), want, rtol=1e-12, err_msg=f"{name}.{method}({x})"
        )


def test_laplace_log_functions_stay_finite_where_scipys_underflow():
    # Note: SciPy gives -inf here (the log of an underflowed pdf); the exact logs are these
    x = np.array([-1e300, -800.0, 800.0, 1e300])
    np.testing.assert_allclose(ours("laplace", "logpdf", x), -math.log(2) - np.abs(x), rtol=EPS)
    np.testing.assert_allclose(
        ours("laplace", "logpdf", x, 1.0, 2.0), -math.log(4) - np.abs(x - 1) / 2, rtol=EPS
    )
    np.testing.assert_allclose(ours("laplace", "logcdf", x[:2]), -math.log(2) + x[:2], rtol=EPS)
    np.testing.assert_allclose(ours("laplace", "logsf", x[2:]), -math.log(2) - x[2:], rtol=EPS)
    assert np.isneginf(scipy_value("laplace", "logpdf", x)).all()


def test_the_log_of_a_probability_near_one_keeps_its_digits():
    # where the probability rounds to 1, log(cdf) would be 0: log1p(-sf) keeps the digits, as SciPy's
    z = np.array([5.0, 10.0, 30.0, 40.0, 100.0, 800.0])
    np.testing.assert_allclose(
        ours("expon", "logcdf", z), scipy_value("expon", "logcdf", z), rtol=1e-12
    )
    z = np.array([100.0, 1e3, 1e4, 1e8, 1e200, 1e300])
    for method, x in (("logcdf", z), ("logsf", -z)):
        np.testing.assert_allclose(
            ours("cauchy", method, x), scipy_value("cauchy", method, x), rtol=1e-12
        )


# -- univariate discrete ----------------------------------------------------------------------------------------
def discrete_expected(name, method, k, *args):
    """SciPy's value. Note: SciPy's logcdf is 0 at k at and over the support's upper end even for invalid
    parameters (its cdf there is nan): nan there."""
    want = scipy_value(name, method, k, *args)
    if method == "logcdf":
        want = np.where(np.isnan(scipy_value(name, "cdf", k, *args)), np.nan, want)
    return want


@pytest.mark.parametrize("name, method", DISCRETE_CASES)
def test_discrete_matches_scipy_over_k_and_the_shape_parameters(name, method):
    """Non-integer k has mass 0 (log -inf), a cdf at a non-integer is the cdf at its floor."""
    _, grids, _, tolerance = DISCRETE[name]
    args = np.ix_(K, *[np.array(g) for g in grids])
    assert_matches(ours(name, method, *args), discrete_expected(name, method, *args), tolerance)


@pytest.mark.parametrize("name, method", DISCRETE_CASES)
def test_discrete_loc_by_position_and_by_keyword(name, method):
    _, _, shapes, tolerance = DISCRETE[name]
    k, loc = np.ix_(K, DISCRETE_LOC)
    got = ours(name, method, k, *shapes, loc)
    assert_matches(got, discrete_expected(name, method, k, *shapes, loc), tolerance)
    np.testing.assert_array_equal(ours(name, method, k, *shapes, loc=loc), got)


def test_loc_shifts_and_cdfs_floor_non_integers():
    assert float(S.poisson.pmf(3.5, 2.0, loc=0.5)) == float(S.poisson.pmf(3, 2.0))
    assert float(S.poisson.logpmf(3.5, 2.0)) == -np.inf
    assert float(S.binom.pmf(2.25, 10, 0.3)) == 0.0
    np.testing.assert_array_equal(
        np.asarray(S.geom.cdf([2.0, 2.7, 2.999], 0.3)), [float(S.geom.cdf(2, 0.3))] * 3
    )
    assert float(S.geom.logsf(4.2, 0.3, 1)) == float(S.geom.logsf(3, 0.3))
    assert float(S.bernoulli.cdf(0.5, 0.3)) == pytest.approx(0.7, rel=EPS)


def test_binom_certain_outcomes_have_probability_one():
    # log C(n, k) = -log1p(n) - betaln(n - k + 1, k + 1) rounds a few ulp off 0 at k = 0 and k = n: those
    # are taken as 0, so a certain outcome has logpmf 0 and pmf 1 exactly, as SciPy's
    k, n, p = np.ix_(K, np.array([0.0, 1.0, 2.0, 10.0, 1e6]), np.array([0.0, 1.0]))
    for method in MASS:
        assert_matches(ours("binom", method, k, n, p), scipy_value("binom", method, k, n, p), 1e-12)


# -- arguments, dtypes, frozen forms ------------------------------------------------------------------------------
def valid_parameters(name):
    spec = CONTINUOUS.get(name) or DISCRETE[name]
    return spec[2]


@pytest.mark.parametrize("name", [*CONTINUOUS, *DISCRETE])
def test_integer_and_float32_inputs_give_float64(name):
    methods = (CONTINUOUS.get(name) or DISCRETE[name])[0]
    shapes = valid_parameters(name)
    for method in methods:
        q = method in ("ppf", "isf")
        x64 = np.array([0.125, 0.5, 0.75]) if q else np.array([-1.0, 0.0, 1.0, 2.0, 3.0])
        reference = ours(name, method, x64, *shapes)
        inputs = [x64.astype(np.float32)] + ([] if q else [x64.astype(np.int64), [-1, 0, 1, 2, 3]])
        for x in inputs:
            got = ours(name, method, x, *shapes)
            want = scipy_value(name, method, x, *shapes)
            assert got.dtype == want.dtype == np.float64, (name, method, x)
            np.testing.assert_array_equal(got, reference)
        float32_shapes = [np.float32(s) for s in shapes]
        got = ours(name, method, x64, *float32_shapes, np.float32(0.5))
        assert got.dtype == np.float64
        want = ours(name, method, x64, *[float(s) for s in float32_shapes], 0.5)
        np.testing.assert_array_equal(got, want)
        integer_shapes = [int(s) if float(s).is_integer() else s for s in shapes]
        got = ours(name, method, x64, *integer_shapes, np.int64(1))
        assert got.dtype == np.float64
        np.testing.assert_array_equal(got, ours(name, method, x64, *shapes, 1.0))
    scalar = ours(name, methods[0], 1, *shapes)
    assert scalar.shape == () and scalar.dtype == np.float64


@pytest.mark.parametrize("name", [*CONTINUOUS, *DISCRETE])
def test_frozen_equals_unfrozen(name):
    methods = (CONTINUOUS.get(name) or DISCRETE[name])[0]
    shapes = valid_parameters(name)
    x = np.array([-1.0, 0.0, 0.25, 1.0, 2.5, 7.0, np.nan])
    loc = np.array([[0.0], [-0.5], [1.0]])
    dist = getattr(S, name)
    if name in CONTINUOUS:
        frozen = [
            (dist(*shapes, loc, 2.0), (*shapes, loc, 2.0)),
            (dist(*shapes, scale=2.0, loc=loc), (*shapes, loc, 2.0)),
            (dist(*shapes), shapes),
        ]
    else:
        frozen = [(dist(*shapes, loc), (*shapes, loc)), (dist(*shapes, loc=loc), (*shapes, loc))]
    for f, args in frozen:
        for method in methods:
            arg = x / 8 if method in ("ppf", "isf") else x
            got = np.asarray(getattr(f, method)(arg))
            np.testing.assert_array_equal(got, ours(name, method, arg, *args), err_msg=method)


def test_shape_parameters_by_keyword():
    x = np.array([0.1, 0.5, 2.0])
    np.testing.assert_array_equal(
        np.asarray(S.gamma.logpdf(x, a=2.5, scale=2.0)), np.asarray(S.gamma.logpdf(x, 2.5, 0, 2))
    )
    np.testing.assert_array_equal(
        np.asarray(S.beta.pdf(x, b=3.0, a=0.5)), np.asarray(S.beta.pdf(x, 0.5, 3.0))
    )
    np.testing.assert_array_equal(
        np.asarray(S.binom.logpmf([0, 3, 10], p=0.3, n=10)),
        np.asarray(S.binom.logpmf([0, 3, 10], 10, 0.3)),
    )
    assert float(S.norm.logpdf(x=1.0)) == float(S.norm.logpdf(1.0))
    assert float(S.norm.ppf(q=0.25, loc=1)) == float(S.norm.ppf(0.25, 1))


ARGUMENT_ERRORS = [
    ("too many parameters", lambda d: d.norm.logpdf(1.0, 0.0, 1.0, 2.0)),
    ("too many shapes", lambda d: d.gamma.pdf(1.0, 2.0, 0.0, 1.0, 3.0)),
    ("discrete has no scale", lambda d: d.poisson.pmf(1, 2.0, 0, 3)),
    ("unknown keyword", lambda d: d.norm.cdf(1.0, foo=2)),
    ("scale of a discrete", lambda d: d.poisson.pmf(1, 2.0, scale=3.0)),
    ("duplicate loc", lambda d: d.norm.logpdf(1.0, 0.0, loc=2.0)),
    ("duplicate shape", lambda d: d.gamma.logpdf(1.0, 2.0, a=3.0)),
    ("missing shape", lambda d: d.gamma.logpdf(1.0)),
    ("missing shape, loc given", lambda d: d.gamma.logpdf(1.0, scale=2.0)),
    ("missing second shape", lambda d: d.binom.pmf(1, 10)),
    ("freezing with too many", lambda d: d.norm(0.0, 1.0, 2.0)),
    ("freezing without a shape", lambda d: d.gamma()),
]


@pytest.mark.parametrize(
    "call", [c for _, c in ARGUMENT_ERRORS], ids=[i for i, _ in ARGUMENT_ERRORS]
)
def test_argument_errors_are_type_errors_as_scipys(call):
    with pytest.raises(TypeError):
        call(ss)
    with pytest.raises(TypeError, match=r"\w"):
        call(S)


@pytest.mark.parametrize(
    "call",
    [
        lambda: S.norm.logpdf(np.array([1 + 1j])),
        lambda: S.norm.cdf(1.0, loc=1j),
        lambda: S.gamma.logpdf(1.0, 2 + 0j),
        lambda: S.poisson.pmf(np.array([1j]), 2.0),
        lambda: S.norm.ppf(0.5 + 0j),
        lambda: S.multivariate_normal.logpdf([1.0, 1j], [0.0, 0.0]),
        lambda: S.dirichlet.logpdf([0.5, 0.5 + 0j], [1.0, 2.0]),
    ],
)
def test_complex_input_raises_type_error(call):
    with pytest.raises(TypeError, match="real"):
        call()


MISSING = [
    (name, method, function)
    for name, function, methods in [
        ("gamma", "gamma", ALL[2:]),
        ("chi2", "gamma", ALL[2:]),
        ("beta", "beta", ALL[2:]),
        ("t", "beta", ALL[2:]),
        ("poisson", "gamma", ("cdf", "logcdf", "sf", "logsf", "ppf")),
        ("binom", "beta", ("cdf", "sf", "isf")),
    ]
    for method in methods
]


@pytest.mark.parametrize("name, method, function", MISSING)
def test_a_missing_method_names_the_function_it_needs(name, method, function):
    dist = getattr(S, name)
    pattern = f"{name} has no {method}: .*incomplete {function} function"
    with pytest.raises(AttributeError, match=pattern):
        getattr(dist, method)
    with pytest.raises(AttributeError, match=pattern):
        getattr(dist(*valid_parameters(name)), method)
    assert not hasattr(dist, method)
    assert callable(getattr(getattr(ss, name), method))  # SciPy has it


def test_an_unknown_attribute_is_an_attribute_error():
    with pytest.raises(AttributeError, match="norm has no attribute 'rvs'"):
        _ = S.norm.rvs
    with pytest.raises(AttributeError, match="norm has no attribute 'mean'"):
        _ = S.norm(0.0, 1.0).mean


# -- multivariate_normal ------------------------------------------------------------------------------------------
COV2 = np.array([[2.0, 0.3], [0.3, 1.0]])
COV3 = np.array([[2.0, 0.3, -0.4], [0.3, 1.0, 0.2], [-0.4, 0.2, 1.5]])
MVN_FORMS = {
    "0-d x, defaults": (0.5, None, 1),
    "1-d x of dimension 1: points": ([0.5, 1.0, -3.0], None, 1),
    "1-d x, 1-d mean": ([0.5, 1.0], [0.0, 0.0], 1),
    "scalar cov": ([0.5, 1.0], [0.0, 1.0], 2.0),
    "1-d cov: diagonal": ([0.5, 1.0], [0.0, 1.0], [1.0, 2.0]),
    "2-d cov, mean None": ([0.5, 1.0], None, COV2),
    "(1, 2) x": ([[0.5, 1.0]], None, COV2),
    "batch": (
        [[0.5, 1.0], [1.0, 2.0], [3.0, -4.0], [np.nan, 0.0], [np.inf, 0.0]],
        [1.0, 1.0],
        COV2,
    ),
    "2-d batch": (np.linspace(-2, 2, 18).reshape(3, 2, 3), [0.1, -0.2, 0.3], COV3),
    "(n, 1) x, dimension 1": ([[0.5], [1.0]], [0.0], [[2.0]]),
    "0-d x, cov [[2]]": (0.5, None, [[2.0]]),
    "0-d mean, 1-d cov of one": ([0.5, 2.0], 1.0, [2.0]),
    "integer arrays": (np.array([1, 2]), np.array([1, 1]), np.array([[2, 0], [0, 2]])),
    "float32 x": (np.array([1.0, 2.0], dtype=np.float32), [1.0, 1.0], np.eye(2)),
    "far tail": ([1e150, -1e150], [0.0, 0.0], 1.0),
}


@pytest.mark.parametrize("x, mean, cov", MVN_FORMS.values(), ids=MVN_FORMS.keys())
def test_multivariate_normal_matches_scipy(x, mean, cov):
    for method in ("logpdf", "pdf"):
        got = ours("multivariate_normal", method, x, mean, cov)
        want = scipy_value("multivariate_normal", method, x, mean, cov)
        assert_matches(got, want, 1e-12)
        if mean is not None:
            np.testing.assert_array_equal(
                ours("multivariate_normal", method, x, cov=cov, mean=mean), got
            )
        frozen = S.multivariate_normal(mean, cov)
        np.testing.assert_array_equal(np.asarray(getattr(frozen, method)(x)), got)


MVN_VALUE_ERRORS = {
    "x of dimension 3 for 2": ([0.5, 1.0, 2.0], [0.0, 1.0], 1.0),
    "(1, 3) x for dimension 1": (np.ones((1, 3)), 0.0, 2.0),
    "1-d cov of 3 for 2": ([0.5, 1.0], [0.0, 1.0], [1.0, 2.0, 3.0]),
    "cov of 3 for mean of 2": ([0.5, 1.0], [0.0, 1.0], np.eye(3)),
    "cov not square": ([0.5, 1.0], [0.0, 1.0], np.ones((2, 3))),
    "3-d cov": ([0.5, 1.0], [0.0, 1.0], np.ones((2, 2, 2))),
    "2-d mean": ([0.5, 1.0], [[0.0, 1.0]], 1.0),
    "1-d cov of 2 for dimension 1": ([0.5], [0.0], [1.0, 2.0]),
}


@pytest.mark.parametrize("x, mean, cov", MVN_VALUE_ERRORS.values(), ids=MVN_VALUE_ERRORS.keys())
def test_multivariate_normal_shape_mismatches_raise_value_error(x, mean, cov):
    with pytest.raises(ValueError):
        scipy_value("multivariate_normal", "logpdf", x, mean, cov)
    with pytest.raises(ValueError, match=r"\w"):
        S.multivariate_normal.logpdf(x, mean, cov)


@pytest.mark.parametrize(
    "cov", [[[1.0, 2.0], [2.0, 1.0]], [[1.0, 0.0], [0.0, 0.0]], 0.0, -1.0, [1.0, -1.0]]
)
def test_multivariate_normal_not_positive_definite_raises_lin_alg_error(cov):
    # SciPy raises LinAlgError for a singular cov, ValueError (its base class) for an indefinite one
    with pytest.raises(ValueError):
        scipy_value("multivariate_normal", "logpdf", [0.5, 1.0], [0.0, 1.0], cov)
    with pytest.raises(np.linalg.LinAlgError):
        S.multivariate_normal.logpdf([0.5, 1.0], [0.0, 1.0], cov)
    with pytest.raises(np.linalg.LinAlgError):
        S.multivariate_normal.pdf([0.5, 1.0], [0.0, 1.0], cov)


def test_multivariate_normal_frozen_with_a_cov_not_positive_definite_raises():
    # as SciPy's, freezing checks the covariance
    with pytest.raises(ValueError):
        ss.multivariate_normal(cov=[[1.0, 2.0], [2.0, 1.0]])
    with pytest.raises(np.linalg.LinAlgError):
        S.multivariate_normal(cov=[[1.0, 2.0], [2.0, 1.0]])


def test_multivariate_normal_allow_singular_is_not_implemented():
    with pytest.raises(NotImplementedError, match="allow_singular"):
        S.multivariate_normal.logpdf([0.5, 1.0], [0.0, 1.0], allow_singular=True)
    with pytest.raises(NotImplementedError, match="allow_singular"):
        S.multivariate_normal.pdf([0.5, 1.0], [0.0, 1.0], COV2, True)
    with pytest.raises(NotImplementedError, match="allow_singular"):
        S.multivariate_normal([0.0, 1.0], allow_singular=True)


# -- dirichlet ----------------------------------------------------------------------------------------------------
XD = np.array([[0.2, 0.1, 0.6], [0.3, 0.1, 0.0], [0.5, 0.8, 0.4]])
DIRICHLET_FORMS = {
    "K entries": (XD[:, 0], [1.5, 2.0, 0.7]),
    "K - 1 entries": (XD[:2, 0], [1.5, 2.0, 0.7]),
    "(K, N) batch": (XD, [1.5, 2.0, 0.7]),
    "(K - 1, N) batch": (XD[:2], [1.5, 2.0, 0.7]),
    "x at 0 where alpha is 1": (XD, [1.5, 1.0, 0.7]),
    "x at 0 where alpha is over 1": (XD, [1.5, 3.0, 0.7]),
    "(K, 1) batch": (XD[:, :1], [1.5, 2.0, 0.7]),
    "nan alpha": (XD[:, 0], [np.nan, 2.0, 0.7]),
    "nan x": ([0.2, np.nan, 0.5], [1.5, 2.0, 0.7]),
    "tiny x": ([1e-300, 1 - 1e-300], [1.5, 2.0]),
    "large alpha": ([0.5, 0.5], [1e10, 1e10]),
    "small and large alpha": ([0.5, 0.5], [1e-3, 1e3]),
    "integer arrays": (np.array([1, 0]), np.array([1, 2])),
    "float32 x": (np.array([0.25, 0.75], dtype=np.float32), [1.0, 2.0]),
    "sum 1e-11 off 1": ([0.2, 0.3, 0.5 + 1e-11], [1.5, 2.0, 0.7]),
}


@pytest.mark.parametrize("x, alpha", DIRICHLET_FORMS.values(), ids=DIRICHLET_FORMS.keys())
def test_dirichlet_matches_scipy(x, alpha):
    # rtol: sum(gammaln(alpha)) - gammaln(sum(alpha)), SciPy's formula, cancels at large alpha
    for method in ("logpdf", "pdf"):
        got = ours("dirichlet", method, x, alpha)
        assert_matches(got, scipy_value("dirichlet", method, x, alpha), 1e-12)
        np.testing.assert_array_equal(np.asarray(getattr(S.dirichlet(alpha), method)(x)), got)


DIRICHLET_ERRORS = {
    "alpha 0": ([0.0, 0.3, 0.7], [0.0, 2.0, 0.7], "greater than 0"),
    "alpha negative": ([0.2, 0.3, 0.5], [-1.0, 2.0, 0.7], "greater than 0"),
    "2-d alpha": ([0.2, 0.8], [[1.0, 2.0]], "one dimensional"),
    "x off the simplex": ([0.2, 0.3, 0.4], [1.0, 2.0, 0.7], "simplex"),
    "x sum 1e-8 off 1": ([0.2, 0.3, 0.5 + 1e-8], [1.0, 2.0, 0.7], "simplex"),
    "batch off the simplex": (XD * 1.1, [1.0, 2.0, 0.7], "simplex"),
    "x negative": ([-0.2, 0.3, 0.9], [1.0, 2.0, 0.7], "greater than or equal to zero"),
    "x over 1": ([1.2, 0.3, -0.5], [1.0, 2.0, 0.7], "zero"),
    "K - 1 entries over 1": ([0.7, 0.5], [1.0, 2.0, 0.7], "zero"),
    "x 0 where alpha under 1": ([0.0, 0.3, 0.7], [0.5, 2.0, 0.7], "greater than zero"),
    "K + 1 entries": ([0.2, 0.3, 0.5, 0.0], [1.0, 2.0, 0.7], "one entry fewer"),
    "K - 2 entries": ([0.2], [1.0, 2.0, 0.7], "one entry fewer"),
}


@pytest.mark.parametrize(
    "x, alpha, message", DIRICHLET_ERRORS.values(), ids=DIRICHLET_ERRORS.keys()
)
def test_dirichlet_value_errors_are_scipys(x, alpha, message):
    with pytest.raises(ValueError, match=message):
        scipy_value("dirichlet", "logpdf", x, alpha)
    with pytest.raises(ValueError, match=message):
        S.dirichlet.logpdf(x, alpha)
    with pytest.raises(ValueError, match=message):
        S.dirichlet.pdf(x, alpha)


def test_dirichlet_frozen_checks_alpha():
    with pytest.raises(ValueError, match="greater than 0"):
        S.dirichlet([1.5, -2.0, 0.7])
    with pytest.raises(ValueError, match=r"\w"):
        S.dirichlet.logpdf(0.2, [1.0, 2.0])  # SciPy: an IndexError


# -- jit --------------------------------------------------------------------------------------------------------
def _methods(dist, names):
    """f(x, q, p1, p2): dist's methods at x (or q), p1 and p2 the first parameters (shapes, then loc, scale)."""

    def f(x, q, p1, p2):
        params = (p1, p2)
        return tuple(getattr(dist, m)(q if m in ("ppf", "isf") else x, *params) for m in names)

    return f


# a handful of distributions and methods: each special function adds seconds of compilation on a cold
# cache (betaln's ~30 s: no beta, t or binom here)
JIT = {
    "norm": (_methods(S.norm, ("logpdf", "cdf", "ppf")), LOC, SCALE),
    "expon": (_methods(S.expon, ("logpdf", "logcdf", "sf", "isf")), LOC, SCALE),
    "cauchy": (_methods(S.cauchy, ("logpdf", "cdf", "ppf")), LOC, SCALE),
    "lognorm": (_methods(S.lognorm, ("logpdf", "cdf")), [-1.0, 0.0, 0.7, np.nan], LOC),
    "gamma": (_methods(S.gamma, ("logpdf",)), [-1.0, 0.0, 0.5, 1.0, 2.5, np.nan], LOC),
    "geom": (_methods(S.geom, ("logpmf", "cdf")), [-0.5, 0.0, 0.3, 1.0, np.nan], DISCRETE_LOC),
}


@pytest.mark.parametrize("name", JIT)
def test_under_jit_equal_eager_and_raise_no_floating_point_warning(name):
    f, p1, p2 = JIT[name]
    x, a, b = (v.ravel() for v in np.meshgrid(X, p1, p2, indexing="ij"))
    q = np.resize(Q, x.shape)  # every q beside every pair of parameters
    compiled = ast.jit(f)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = compiled(x, q, a, b)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        eager = f(x, q, a, b)
    assert len(got) == len(eager)
    for g, e in zip(got, eager):
        assert_matches(g, e, 16 * EPS)
    assert all(np.isnan(np.asarray(g)).any() for g in got)  # invalid parameters were among them


def test_multivariate_normal_under_jit_equals_eager():
    compiled = ast.jit(lambda x, m, c: S.multivariate_normal.logpdf(x, m, c))
    x = MVN_FORMS["batch"][0]
    mean = np.array([1.0, -1.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = compiled(np.asarray(x), mean, COV2)
    assert_matches(got, ours("multivariate_normal", "logpdf", x, mean, COV2), 16 * EPS)


def test_multivariate_normal_under_jit_raises_for_a_cov_not_positive_definite():
    # arraystack.linalg.cholesky raises LinAlgError on the CPU under jit too
    compiled = ast.jit(lambda x, m, c: S.multivariate_normal.logpdf(x, m, c))
    with pytest.raises(np.linalg.LinAlgError):
        compiled(np.ones((3, 2)), np.zeros(2), np.array([[1.0, 2.0], [2.0, 1.0]]))


def test_dirichlet_under_a_transformation_gives_nan_for_invalid_values():
    # the checks that raise eagerly (alpha > 0, x on the simplex) give nan under a transformation
    alphas = np.array([[1.5, 2.0, 0.7], [-1.5, 2.0, 0.7], [0.0, 2.0, 0.7]])
    got = np.asarray(ast.vmap(lambda a: S.dirichlet.logpdf(XD[:, :2], a))(alphas))
    np.testing.assert_array_equal(got[0], ours("dirichlet", "logpdf", XD[:, :2], alphas[0]))
    assert np.isnan(got[1:]).all()
    xs = np.array([[0.2, 0.3, 0.5], [0.2, 0.3, 0.4], [-0.2, 0.7, 0.5]])
    got = np.asarray(ast.vmap(lambda x: S.dirichlet.logpdf(x, np.array([1.5, 2.0, 0.7])))(xs))
    assert np.isfinite(got[0]) and np.isnan(got[1:]).all()


# -- gradients ----------------------------------------------------------------------------------------------------
XS = np.array([-2.0, -0.3, 0.4, 1.7, 3.0])
POSITIVE = np.array([0.2, 0.9, 1.5, 3.0, 7.0])
UNIT = np.array([0.1, 0.3, 0.5, 0.8, 0.95])


def test_norm_logpdf_gradients(check_grads):
    loc, scale = np.array([0.1, -0.5, 0.3, 1.0, 2.0]), np.array([0.5, 1.2, 2.0, 0.9, 3.0])
    check_grads(lambda x, m, s: S.norm.logpdf(x, m, s), (XS, loc, scale))
    check_grads(lambda x, m, s: S.norm.pdf(x, loc=m, scale=s), (XS, np.array(0.3), np.array(1.7)))


def test_norm_ppf_gradients(check_grads):
    q = np.array([1e-3, 0.02, 0.3, 0.5, 0.9, 0.999])
    check_grads(lambda q, m, s: S.norm.ppf(q, m, s), (q, np.array(0.5), np.array(2.0)))


def test_gamma_logpdf_gradients(check_grads):
    a = np.array([0.7, 1.3, 2.5, 4.0, 9.0])  # not 1: see test_shape_gradients_at_one
    check_grads(lambda x, a: S.gamma.logpdf(x, a), (POSITIVE, a))
    check_grads(
        lambda x, a, s: S.gamma.logpdf(x, a, scale=s), (POSITIVE, np.array(2.5), np.array(1.5))
    )


def test_beta_t_chi2_lognorm_logpdf_gradients(check_grads):
    a, b = np.array([0.7, 1.5, 2.5, 4.0, 9.0]), np.array([3.0, 0.8, 1.5, 2.0, 6.0])
    check_grads(lambda x, a, b: S.beta.logpdf(x, a, b), (UNIT, a, b))
    check_grads(lambda x, df: S.t.logpdf(x, df), (XS, np.array([0.7, 1.5, 2.5, 40.0, 1e3])))
    check_grads(lambda x, df: S.chi2.logpdf(x, df), (POSITIVE, np.array([0.7, 1.5, 2.5, 4.0, 9.0])))
    s = np.array([0.3, 0.7, 1.5, 2.0, 0.9])
    check_grads(
        lambda x, s, m, c: S.lognorm.logpdf(x, s, m, c),
        (POSITIVE, s, np.array(-0.1), np.array(1.3)),
    )


def test_multivariate_normal_logpdf_gradients(check_grads):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((3, 3))
    cov = a @ a.T + 3 * np.eye(3)

    def f(x, mean, c):
        return S.multivariate_normal.logpdf(x, mean, (c + c.T) / 2)

    check_grads(f, (rng.standard_normal((4, 3)), np.array([0.1, -0.2, 0.3]), cov))
    check_grads(
        lambda x, m, d: S.multivariate_normal.logpdf(x, m, d),
        (rng.standard_normal((4, 3)), np.array([0.1, -0.2, 0.3]), np.array([1.0, 2.0, 0.5])),
    )


def test_dirichlet_logpdf_gradient(check_grads):
    check_grads(lambda a: S.dirichlet.logpdf(XD[:, :2], a), (np.array([1.5, 2.0, 0.7]),))


SHAPE_AT_ONE = {
    "gamma a": lambda a: S.gamma.logpdf(POSITIVE, a),
    "beta a": lambda a: S.beta.logpdf(UNIT, a, 2.0),
    "beta b": lambda b: S.beta.logpdf(UNIT, 2.0, b),
    "chi2 df = 2": lambda h: S.chi2.logpdf(POSITIVE, 2 * h),
    "dirichlet alpha_0": lambda a: S.dirichlet.logpdf(
        XD[:, :2], a * np.eye(3)[0] + [0.0, 2.0, 0.7]
    ),
}


@pytest.mark.parametrize("f", SHAPE_AT_ONE.values(), ids=SHAPE_AT_ONE.keys())
def test_shape_gradients_at_one(f, check_grads):
    # xlogy(x, y)'s derivative in x at x = 0 is log(y), not the 0 of a select: the logpdf's derivative in a
    # shape parameter at gamma's a = 1, beta's a = 1 or b = 1, chi2's df = 2 and dirichlet's alpha_i = 1
    # (the uniform prior); d/da gamma.logpdf(0.9, a) at a = 1 is log(0.9) - digamma(1)
    check_grads(f, (np.array(1.0),))


def test_gradient_is_finite_where_x_is_outside_the_support():
    """Out-of-support points contribute constants (-inf) to the sum: their x-gradient is 0 and the
    parameters' gradient is that of the points inside."""
    inside, outside = np.array([0.5, 2.0, 7.0]), np.array([-3.0, -1e-3, -1e300])
    both = np.concatenate([outside, inside])
    for f, params in [
        (lambda x, m, s: S.expon.logpdf(x, m, s), (0.2, 1.5)),
        (lambda x, a, s: S.gamma.logpdf(x, a, scale=s), (2.5, 1.5)),
        (lambda x, a, s: S.gamma.logpdf(x, a, scale=s), (0.5, 1.5)),
        (lambda x, a, s: S.lognorm.logpdf(x, a, scale=s), (0.5, 1.5)),
    ]:
        params = tuple(ast.asarray(p) for p in params)

        def total(x, *p, f=f):
            return ast.sum(f(x, *p))

        grads = ast.grad(total, argnums=(0, 1, 2))(ast.asarray(both), *params)
        want = ast.grad(total, argnums=(0, 1, 2))(ast.asarray(inside), *params)
        gx = np.asarray(grads[0])
        np.testing.assert_array_equal(gx[:3], 0.0)
        np.testing.assert_allclose(gx[3:], np.asarray(want[0]), rtol=1e-14)
        for g, w in zip(grads[1:], want[1:]):
            assert np.isfinite(np.asarray(g))
            np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=1e-14)


def test_gamma_at_one_has_expons_gradient_at_zero():
    # gamma(a=1) is expon: at x = 0 (inside the support, logpdf 0) its x-gradient is expon's -1, not the
    # 0 / 0 of xlogy(a - 1, x)'s derivative in x
    x = ast.asarray([0.0, 1.0])
    want = np.asarray(ast.grad(lambda v: ast.sum(S.expon.logpdf(v)))(x))
    got = np.asarray(ast.grad(lambda v: ast.sum(S.gamma.logpdf(v, 1.0)))(x))
    np.testing.assert_array_equal(want, [-1.0, -1.0])
    np.testing.assert_array_equal(got, want)


# -- vmap ---------------------------------------------------------------------------------------------------------
def test_vmap_over_parameters_equals_the_broadcast_call():
    x = np.array([-1.0, 0.0, 0.3, 2.0, 5.0, np.nan])
    loc, scale = np.array([0.0, 1.0, -2.0, 0.5]), np.array([1.0, 0.5, -1.0, np.nan])
    got = ast.vmap(lambda m, s: S.norm.logpdf(x, m, s))(loc, scale)
    want = ours("norm", "logpdf", x, loc[:, None], scale[:, None])
    np.testing.assert_array_equal(np.asarray(got), want)
    a = np.array([0.5, 1.0, 2.5, -1.0])
    got = ast.vmap(lambda a: S.gamma.logpdf(x, a, scale=2.0))(a)
    np.testing.assert_array_equal(np.asarray(got), ours("gamma", "logpdf", x, a[:, None], 0, 2.0))
    p = np.array([0.1, 0.5, 1.0, 1.5])
    got = ast.vmap(lambda p: S.geom.logcdf(x, p))(p)
    np.testing.assert_array_equal(np.asarray(got), ours("geom", "logcdf", x, p[:, None]))
    means = np.array([[0.0, 0.0], [1.0, -1.0], [2.0, 0.5]])
    points2 = MVN_FORMS["batch"][0]
    got = ast.vmap(lambda m: S.multivariate_normal.logpdf(points2, m, COV2))(means)
    want = np.stack([ours("multivariate_normal", "logpdf", points2, m, COV2) for m in means])
    np.testing.assert_allclose(np.asarray(got), want, rtol=4 * EPS, equal_nan=True)
    alphas = np.array([[1.5, 2.0, 0.7], [1.0, 1.0, 1.0], [3.0, 0.5, 2.0]])
    got = ast.vmap(lambda a: S.dirichlet.logpdf(XD[:, :2], a))(alphas)
    want = np.stack([ours("dirichlet", "logpdf", XD[:, :2], a) for a in alphas])
    np.testing.assert_allclose(np.asarray(got), want, rtol=4 * EPS)


# -- multinomial, and the distributions of _continuous_more under jit and grad ----------------------------------
def test_multinomial_is_scipys():
    x = np.array(
        [[1.0, 2.0, 3.0], [0.0, 0.0, 6.0], [1.0, 2.0, 2.0], [1.0, 2.5, 2.5], [-1.0, 3.0, 4.0]]
    )
    for p in (
        [0.2, 0.3, 0.5],
        [[0.2, 0.3, 0.5]],
        [0.0, 0.0, 1.0],
        [-0.2, 0.7, 0.5],
        [0.2, 1.2, -0.4],
    ):
        for method in MASS:
            want = scipy_value("multinomial", method, x, 6, p)
            assert_matches(ours("multinomial", method, x, 6, p), want, (1e-12, 0.0))
    np.testing.assert_array_equal(
        np.asarray(S.multinomial(6, [0.2, 0.3, 0.5]).logpmf(x)),
        ours("multinomial", "logpmf", x, 6, [0.2, 0.3, 0.5]),
    )
    # n < 0 gives nan; p whose last axis does not sum to 1 gives nan (SciPy 1.17 moves the difference
    # into the last probability with a FutureWarning, and gives nan from 1.18)
    assert np.isnan(ours("multinomial", "logpmf", [1.0, 2.0], -3, [0.5, 0.5]))
    assert np.isnan(ours("multinomial", "logpmf", [1.0, 2.0], 3, [0.5, 0.6]))
    with pytest.raises(ValueError, match="categories"):
        S.multinomial.logpmf([1.0, 2.0], 3, [0.2, 0.3, 0.5])


def test_more_distributions_under_jit_equal_eager():
    # closed forms only: the special functions inside the others are compiled by their own tests
    def f(x, k, c):
        return (
            S.gumbel_r.logcdf(x),
            S.weibull_min.logpdf(x, c),
            S.pareto.ppf(ast.abs(x) / 10, c),
            S.rayleigh.logsf(x, scale=c),
        )

    x = np.array([-3.0, -0.5, 0.0, 0.4, 2.0, 9.0])
    k = np.array([0.0, 1.0, 2.0, 3.0, 6.0, 7.0])
    c = np.array([0.5, 1.0, 1.5, 2.0, 3.0, 0.7])
    compiled = ast.jit(f)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = compiled(x, k, c)
    for g, w in zip(got, f(x, k, c)):
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=4 * EPS, equal_nan=True)


@pytest.mark.parametrize(
    "f",
    [
        lambda x, kappa: S.vonmises.logpdf(x, kappa),
        lambda x, c: S.weibull_min.logpdf(x, c),
        lambda x, b: S.pareto.logsf(x + 1.0, b),
        lambda x, s: S.gumbel_l.logcdf(x, scale=s),
        lambda x, s: S.invgamma.logpdf(x, s),
        lambda x, b: S.gennorm.logpdf(x - 0.5, b),
    ],
    ids=["vonmises", "weibull_min", "pareto", "gumbel_l", "invgamma", "gennorm"],
)
def test_more_distributions_gradients(f, check_grads):
    check_grads(f, (np.array([0.3, 0.9, 1.7, 2.5]), np.array([0.5, 1.3, 2.0, 3.5])))


def test_cauchy_quantiles_have_their_derivative_at_the_median_and_dirichlet_sums_in_float32():
    assert float(ast.grad(lambda q: S.cauchy.ppf(q))(0.5)) == pytest.approx(np.pi, rel=1e-14)
    x = np.array([0.2, 0.3, 0.5], np.float32)  # sums to 1 in float32, 1 + 1.5e-8 in float64
    assert float(S.dirichlet.logpdf(x, [0.5, 2.0, 3.0])) == pytest.approx(
        ss.dirichlet.logpdf(x, [0.5, 2.0, 3.0]), rel=1e-12
    )
