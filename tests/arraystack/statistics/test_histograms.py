"""NumPy parity of the histogram family (_histograms): histogram, histogram_bin_edges, histogram2d,
histogramdd, bincount; estimator bins and bincount are eager-only (data-dependent output shapes)."""

# ruff: noqa: B023  (parity calls each lambda at once, inside its loop iteration)
from __future__ import annotations

import warnings

import numpy
import pytest
from arraystack.ir.core import ShapeDependsOnDataError

import arraystack

rng = numpy.random.default_rng(0)
X = rng.standard_normal(50)
XI = rng.integers(0, 20, 50)
W = rng.random(50)
DATA = {
    "f64": X,
    "i64": XI,
    "f32": X.astype("float32"),
    "bool": XI > 5,
    "empty": numpy.zeros(0),
    "const": numpy.ones(5),
}
ESTIMATORS = ["auto", "fd", "sturges", "doane", "scott", "stone", "rice", "sqrt"]


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        yield


@pytest.mark.parametrize("name", DATA)
def test_histogram(parity, name):
    x = DATA[name]
    for bins in (10, 3) + ([-1, 0, 0.5, 2],):
        for range_ in (None, (-1, 1.5)):
            parity(lambda xp, v: xp.histogram_bin_edges(v, bins, range_), x)
            parity(lambda xp, v: xp.histogram(v, bins, range_), x)
            parity(lambda xp, v: xp.histogram(v, bins, range_, density=True), x)


@pytest.mark.parametrize("name", DATA)
def test_estimators(parity, name):
    x = DATA[name]
    for bins in ESTIMATORS:
        for range_ in (None, (-1, 1.5)):
            parity(lambda xp, v: xp.histogram_bin_edges(v, bins, range_), x, traced=False)
            parity(lambda xp, v: xp.histogram(v, bins, range_), x, traced=False)


@pytest.mark.parametrize("wname", ["f64", "i64", "f32", "c128"])
def test_weights(parity, wname):
    w = {"f64": W, "i64": XI % 5, "f32": W.astype("float32"), "c128": W + 1j}[wname]
    for x in (X, XI, XI > 5):
        for bins in (10, [-1, 0, 0.5, 2]):
            for range_ in (None, (-1, 1.5)):
                for density in (None, True):
                    parity(lambda xp, v, u: xp.histogram(v, bins, range_, density, u), x, w)


def test_errors(parity):
    parity(lambda xp, v: xp.histogram(v, 0), X)
    parity(lambda xp, v: xp.histogram(v, [3, 1, 2]), X, traced=False)
    parity(lambda xp, v: xp.histogram(v, "bogus"), X)
    parity(lambda xp, v: xp.histogram(v, "auto", weights=v), X)
    parity(lambda xp, v: xp.histogram(v, 5, range=(2, 1)), X)
    parity(lambda xp, v: xp.histogram(v, 5, weights=v[:3]), X)
    parity(lambda xp, v: xp.histogram(v, 1.5), X)
    parity(lambda xp, v: xp.histogram(v, 5), numpy.array([1, numpy.inf]), traced=False)


def test_traced_estimator_raises():
    f = arraystack.jit(lambda v: arraystack.histogram(v, "auto")[0])
    with pytest.raises(ShapeDependsOnDataError, match="bins='auto'"):
        f(arraystack.asarray(X))
    g = arraystack.jit(lambda v: arraystack.bincount(v))
    with pytest.raises(ShapeDependsOnDataError, match="bincount"):
        g(arraystack.asarray(XI))


def test_histogram2d_dd(parity):
    y = rng.standard_normal(50)
    for bins in (5, (3, 4), [[-1, 0, 1], [0, 1, 2, 3]], [-1, 0, 1, 2]):
        for range_ in (None, [(-1, 1), (0, 2)]):
            for density in (None, True):
                for w in (None, W):
                    parity(lambda xp, p, q: xp.histogram2d(p, q, bins, range_, density, w), X, y)
    for bins in (4, [3, 4, 5]):
        parity(
            lambda xp, p, q: xp.histogramdd(xp.stack([p, q, p * q], 1), bins, density=True), X, y
        )
    parity(lambda xp, p: xp.histogramdd(p, 4), X)
    parity(lambda xp, p, q: xp.histogram2d(p, q[:3]), X, y)
    parity(lambda xp, p, q: xp.histogramdd(xp.stack([p, q], 1), [2, 3, 4]), X, y)
    parity(lambda xp, p, q: xp.histogramdd(xp.stack([p, q], 1), [2, 0]), X, y)


def test_bincount(parity):
    for x in (XI, numpy.array([], int), numpy.array([3, 0, 3])):
        for minlength in (0, 5, 30):
            parity(lambda xp, v: xp.bincount(v, minlength=minlength), x, traced=False)
    parity(lambda xp, v, w: xp.bincount(v, w, 3), XI, W, traced=False)
    parity(lambda xp, v, w: xp.bincount(v, w.astype("float32")), XI, W, traced=False)
    parity(lambda xp, v: xp.bincount(v), numpy.array([-1, 2]), traced=False)
    parity(lambda xp, v: xp.bincount(v, minlength=-1), XI, traced=False)
    parity(lambda xp, v, w: xp.bincount(v, w[:3]), XI, W, traced=False)


def _fixed_length(counts, length):
    """NumPy's bincount with exactly `length` bins: the reference for bincount(length=)."""
    return numpy.pad(counts[:length], (0, max(length - counts.shape[0], 0)))


@pytest.mark.parametrize("length", [0, 1, 7, 20, 33])
def test_bincount_of_a_given_length_eager_jitted_and_vmapped(length):
    for weights in (None, W):
        expected = _fixed_length(numpy.bincount(XI, weights), length)
        for f in (arraystack.bincount, arraystack.jit(arraystack.bincount, static_argnames="length")):
            got = f(arraystack.asarray(XI), weights, length=length)
            assert got.dtype == expected.dtype and got.shape == (length,)
            numpy.testing.assert_array_equal(numpy.asarray(got), expected)
    rows = XI[:48].reshape(4, 12)
    got = arraystack.vmap(lambda r: arraystack.bincount(r, length=length))(rows)
    expected = numpy.stack([_fixed_length(numpy.bincount(r), length) for r in rows])
    numpy.testing.assert_array_equal(numpy.asarray(got), expected)


def test_bincount_of_a_given_length_checks_its_input_as_numpy():
    negative = numpy.array([3, -1, 2])
    for f in (arraystack.bincount, arraystack.jit(arraystack.bincount, static_argnames="length")):
        with pytest.raises(ValueError, match="must have no negative elements"):
            f(negative, length=4)
    with pytest.raises(ValueError, match="'length' must not be negative"):
        arraystack.bincount(XI, length=-1)
    with pytest.raises(ValueError, match="'minlength' must not be negative"):
        arraystack.bincount(XI, minlength=-1, length=3)
    with pytest.raises(TypeError, match="Cannot cast array data"):
        arraystack.bincount(X, length=3)
    with pytest.raises(ValueError, match="too deep"):
        arraystack.bincount(XI.reshape(5, 10), length=3)
    with pytest.raises(ValueError, match="same length"):
        arraystack.bincount(XI, W[:3], length=3)
    with pytest.raises(ShapeDependsOnDataError, match="length="):
        arraystack.jit(arraystack.bincount)(XI)


def test_gradient_of_a_bincount_of_a_given_length():
    f = lambda w: arraystack.sum(arraystack.bincount(XI, w, length=10) ** 2)
    expected = numpy.where(XI < 10, 2 * numpy.bincount(XI, W)[XI], 0.0)
    for g in (arraystack.grad(f), arraystack.jit(arraystack.grad(f))):
        numpy.testing.assert_allclose(numpy.asarray(g(arraystack.asarray(W))), expected)


def test_jit_and_grad():
    f = arraystack.jit(lambda v, w: arraystack.histogram(v, 7, weights=w)[0])
    got = f(arraystack.asarray(X), arraystack.asarray(W))
    numpy.testing.assert_allclose(
        numpy.asarray(got), numpy.histogram(X, 7, weights=W)[0], rtol=1e-12
    )
    # d(sum of weighted counts)/d(weights) is one per sample inside the range
    g = arraystack.grad(
        lambda w: arraystack.sum(arraystack.histogram(X, 5, range=(-1, 1), weights=w)[0])
    )
    expected = ((X >= -1) & (X <= 1)).astype(float)
    numpy.testing.assert_allclose(numpy.asarray(g(arraystack.asarray(W))), expected)
    h = arraystack.grad(lambda w: arraystack.sum(arraystack.bincount(XI, w) ** 2))
    numpy.testing.assert_allclose(
        numpy.asarray(h(arraystack.asarray(W))), 2 * numpy.bincount(XI, W)[XI]
    )
