"""NumPy parity of the order statistics (_quantiles): median, percentile, quantile and the NaN-ignoring forms."""

# ruff: noqa: B023  (parity calls each lambda at once, inside its loop iteration)
from __future__ import annotations

import warnings

import numpy
import pytest

import arraystack

METHODS = [
    "inverted_cdf",
    "averaged_inverted_cdf",
    "closest_observation",
    "interpolated_inverted_cdf",
    "hazen",
    "weibull",
    "linear",
    "median_unbiased",
    "normal_unbiased",
    "lower",
    "higher",
    "midpoint",
    "nearest",
]


def data(dtype="float64", shape=(5, 4), nans=False, seed=0):
    rng = numpy.random.default_rng(seed)
    if numpy.dtype(dtype).kind in "iu":
        return rng.integers(0, 10, shape).astype(dtype)
    x = rng.standard_normal(shape).astype(dtype)
    if nans:
        x[1, 2] = numpy.nan
        x[:, -1] = numpy.nan
    return x


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        yield


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("dtype", ["float64", "float32", "int64"])
def test_quantile_methods(parity, method, dtype):
    x = data(dtype)
    for q in (0.3, [0.0, 0.5, 1.0], numpy.float32(0.25)):
        for axis in (None, 0, 1, (0, 1)):
            parity(lambda xp, x: xp.quantile(x, q, axis=axis, method=method), x)
    parity(lambda xp, x: xp.percentile(x, [10, 90], axis=-1, method=method, keepdims=True), x)


@pytest.mark.parametrize("method", METHODS)
def test_nanquantile_methods(parity, method):
    x = data(nans=True)
    for q in (0.3, [0.1, 0.75]):
        for axis in (None, 0, 1):
            parity(lambda xp, x: xp.nanquantile(x, q, axis=axis, method=method), x)
            parity(lambda xp, x: xp.quantile(x, q, axis=axis, method=method), x)
    parity(lambda xp, x: xp.nanpercentile(x, 40.0, axis=0, method=method, keepdims=True), x)


@pytest.mark.parametrize("dtype", ["float64", "float32", "int32", "bool"])
def test_median(parity, dtype):
    for shape in [(7,), (6,), (5, 4), (2, 3, 4), (1,)]:
        x = data("int64", shape).astype(dtype) if dtype == "bool" else data(dtype, shape)
        for axis in [None, 0, -1, (0, -1)]:
            parity(lambda xp, x: xp.median(x, axis=axis), x)
        parity(lambda xp, x: xp.median(x, axis=0, keepdims=True), x)


def test_median_nan_and_empty(parity):
    x = data(nans=True)
    for fn in ("median", "nanmedian"):
        for axis in (None, 0, 1):
            parity(lambda xp, x: getattr(xp, fn)(x, axis=axis), x)
        parity(lambda xp, x: getattr(xp, fn)(x, axis=1, keepdims=True), x.astype("float32"))
        parity(lambda xp, x: getattr(xp, fn)(x, axis=0), numpy.zeros((0, 3)), traced=False)
    parity(lambda xp, x: xp.nanmedian(x, axis=0), numpy.full((3, 2), numpy.nan))
    parity(lambda xp, x: xp.nanquantile(x, 0.5, axis=0), numpy.full((3, 2), numpy.nan))
    parity(lambda xp, x: xp.median(x), numpy.array([3.0, 1.0, 2.0, 4.0]))


def test_all_nan_warns():
    with pytest.warns(RuntimeWarning, match="All-NaN slice"):
        arraystack.nanmedian(arraystack.asarray([numpy.nan, numpy.nan]))


def test_weights_inverted_cdf(parity):
    rng = numpy.random.default_rng(1)
    w = rng.random((5, 4))
    w[0, 1] = 0.0
    for x in (data(), data("int64"), data(nans=True)):
        for q in (0.0, 0.3, [0.2, 1.0]):
            kw = {"method": "inverted_cdf"}
            parity(lambda xp, x, w: xp.quantile(x, q, weights=w, **kw), x, w)
            parity(lambda xp, x, w: xp.quantile(x, q, axis=0, weights=w, **kw), x, w)
            parity(lambda xp, x, w: xp.quantile(x, q, axis=1, weights=w[0], **kw), x, w)
            parity(lambda xp, x, w: xp.percentile(x, 30, axis=0, weights=w[:, 0], **kw), x, w)


def test_a_weighted_quantile_of_a_scalar_q_is_a_0d_array_as_numpys():
    x, w = [1.0, 2.0, 3.0, 4.0], [1.0, 1.0, 2.0, 1.0]
    for xp in (numpy, arraystack):
        kw = {"weights": xp.asarray(w), "method": "inverted_cdf"}
        for got in (xp.quantile(xp.asarray(x), 0.5, **kw), xp.percentile(xp.asarray(x), 50, **kw)):
            assert isinstance(got, xp.ndarray) and got.shape == () and float(got) == 3.0
    assert arraystack.isscalar(arraystack.quantile(arraystack.asarray(x), 0.5))  # unweighted: a scalar


def test_errors(parity):
    x = data()
    parity(lambda xp, x: xp.quantile(x, 1.5), x)
    parity(lambda xp, x: xp.percentile(x, -1), x)
    parity(lambda xp, x: xp.quantile(x, 0.5, method="bogus"), x)
    parity(lambda xp, x: xp.quantile(x, 0.5, axis=2), x)
    parity(lambda xp, x: xp.quantile(x + 1j, 0.5), x)
    parity(lambda xp, x: xp.quantile(x, numpy.zeros((2, 2, 2))), x)
    parity(lambda xp, x: xp.quantile(x, 0.5, weights=numpy.ones(5)), x)
    parity(lambda xp, x: xp.quantile(x, 0.5, weights=numpy.ones(5), method="inverted_cdf"), x)
    parity(
        lambda xp, x: xp.quantile(x, 0.5, axis=0, weights=-numpy.ones(5), method="inverted_cdf"), x
    )
    parity(lambda xp, x: xp.quantile(x[:, :0].T, 0.5, axis=0), x, traced=False)


def test_out(parity):
    x = data()

    def fn(xp, x):
        out = xp.zeros(4)
        r = xp.quantile(x, 0.25, axis=0, out=out)
        return r, out

    parity(fn, x, traced=False)


def test_jit_and_numpy_dispatch():
    x = data()
    f = arraystack.jit(lambda x: arraystack.quantile(x, [0.25, 0.5], axis=0) + arraystack.median(x))
    expected = numpy.quantile(x, [0.25, 0.5], axis=0) + numpy.median(x)
    numpy.testing.assert_allclose(numpy.asarray(f(arraystack.asarray(x))), expected, rtol=1e-13)
    numpy.testing.assert_allclose(
        numpy.asarray(numpy.median(arraystack.asarray(x))), numpy.median(x)
    )


def test_grads(check_grads):
    x = data(shape=(6, 3))
    check_grads(lambda x: arraystack.median(x, axis=0), [x])
    check_grads(lambda x: arraystack.percentile(x, [20.0, 75.0], axis=1), [x])
    check_grads(lambda x: arraystack.nanquantile(x, 0.4), [x])
