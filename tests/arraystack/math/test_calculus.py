"""NumPy parity of the discrete calculus family (_calculus): diff, ediff1d, gradient, trapezoid, interp,
correlate, convolve, cross, unwrap; gradients of the compositions against finite differences."""

# ruff: noqa: B023  (parity calls each lambda at once, inside its loop iteration)
from __future__ import annotations

import warnings

import numpy
import pytest

import arraystack

rng = numpy.random.default_rng(0)
X = rng.standard_normal((4, 5))
ARRAYS = {
    "f64": X,
    "f32": X.astype("float32"),
    "i64": rng.integers(-5, 5, (4, 5)),
    "bool": rng.integers(-5, 5, (4, 5)) > 0,
}


@pytest.mark.parametrize("name", ARRAYS)
def test_diff(parity, name):
    x = ARRAYS[name]
    for n in (0, 1, 2, 3):
        for axis in (0, -1):
            parity(lambda xp, v: xp.diff(v, n=n, axis=axis), x)
    parity(lambda xp, v: xp.diff(v, prepend=0, append=v[:, :1]), x)
    parity(lambda xp, v: xp.diff(v, n=-1), x)
    parity(lambda xp, v: xp.diff(v[0, 0]), x)
    parity(lambda xp, v: xp.ediff1d(v), x)
    parity(lambda xp, v: xp.ediff1d(v, to_begin=[1, 2], to_end=3), x)
    parity(lambda xp, v: xp.ediff1d(v, to_begin=1.5), x)


@pytest.mark.parametrize("name", ["f64", "f32", "i64"])
@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient(parity, name, edge_order):
    x = ARRAYS[name]
    kw = {"edge_order": edge_order}
    parity(lambda xp, v: xp.gradient(v, **kw), x)
    parity(lambda xp, v: xp.gradient(v, 2.0, **kw), x)
    parity(lambda xp, v: xp.gradient(v, [0, 1, 3, 4.5], numpy.arange(5) * 2, **kw), x)
    parity(lambda xp, v: xp.gradient(v, [0, 1, 3, 4.5], axis=0, **kw), x)
    parity(lambda xp, v: xp.gradient(v[0], **kw), x)
    parity(lambda xp, v: xp.gradient(v[:, :2], axis=1, **kw), x)


def test_gradient_traced_spacing(parity):
    # traced spacings always take the non-uniform formula
    parity(lambda xp, v, s: xp.gradient(v, s, axis=1), X, numpy.array([0.0, 1.0, 3.0, 4.5, 5.0]))


def test_gradient_errors(parity):
    parity(lambda xp, v: xp.gradient(v, 1.0, 2.0, 3.0), X)
    parity(lambda xp, v: xp.gradient(v, edge_order=3), X)
    parity(lambda xp, v: xp.gradient(v[:, :2], edge_order=2), X)
    parity(lambda xp, v: xp.gradient(v, [[1.0]], axis=0), X)
    parity(lambda xp, v: xp.gradient(v, [1.0, 2.0], axis=0), X)


@pytest.mark.parametrize("name", ["f64", "f32", "i64", "bool"])
def test_trapezoid_unwrap(parity, name):
    x = ARRAYS[name]
    parity(lambda xp, v: xp.trapezoid(v), x)
    parity(lambda xp, v: xp.trapezoid(v, x=[0, 1, 3, 4.5], axis=0), x)
    parity(lambda xp, v: xp.trapezoid(v, x=v * 0 + numpy.arange(5)), x)
    parity(lambda xp, v: xp.trapezoid(v, dx=0.5), x)
    if name != "bool":
        parity(lambda xp, v: xp.unwrap(v * 2), x)
        parity(lambda xp, v: xp.unwrap(v * 2, axis=0, period=4), x)
        parity(lambda xp, v: xp.unwrap(v * 2, discont=1.0), x)


def test_interp(parity):
    xs = numpy.array([-1, 0, 0.5, 1, 2.2, 3, 3.5, 5, numpy.nan, numpy.inf])
    xp_, fp = numpy.array([0, 1, 2, 3.0]), numpy.array([1, 3, 2, 0.0])
    parity(lambda xp, x, p, f: xp.interp(x, p, f), xs, xp_, fp)
    parity(lambda xp, x, p, f: xp.interp(x, p, f, left=-9, right=9), xs, xp_, fp)
    parity(lambda xp, x, p, f: xp.interp(x, p, f * (1 + 1j)), xs, xp_, fp)
    parity(lambda xp, x, p, f: xp.interp(x, p, f * (1 + 1j), left=1j), xs, xp_, fp)
    parity(lambda xp, x, p, f: xp.interp(x, p[:1], f[:1]), xs, xp_, fp)
    parity(lambda xp, x, p, f: xp.interp(2.5, p, f), xs, xp_, fp)
    parity(lambda xp, x, p, f: xp.interp(x.reshape(2, 5), p, f), xs, xp_, fp)
    parity(lambda xp, x, p, f: xp.interp(x, numpy.array([0, 1, 1, 2.0]), f), xs, xp_, fp)
    parity(lambda xp, x, p, f: xp.interp(x[:8], p, f, period=2.5), xs, xp_, fp)
    parity(lambda xp, x, p, f: xp.interp(x, p, f[:2]), xs, xp_, fp)
    parity(lambda xp, x, p, f: xp.interp(x, p.reshape(2, 2), f), xs, xp_, fp)
    parity(lambda xp, x, p, f: xp.interp(x, p, f, period=0), xs, xp_, fp)
    parity(lambda xp, x, p, f: xp.interp(x, p[:0], f[:0]), xs, xp_, fp)


VECTORS = [
    X[0],
    ARRAYS["i64"][0],
    X[1, :3],
    ARRAYS["bool"][0],
    X[0] + 1j * X[1],
    numpy.array([2.0]),
]


@pytest.mark.parametrize("mode", ["valid", "same", "full"])
def test_correlate_convolve(parity, mode):
    for v1 in VECTORS:
        for v2 in (X[2], ARRAYS["i64"][1, :2], X[1, :3] * (1 - 2j), ARRAYS["bool"][1]):
            parity(lambda xp, p, q: xp.correlate(p, q, mode), v1, v2, rtol=1e-12)
            parity(lambda xp, p, q: xp.convolve(p, q, mode), v1, v2, rtol=1e-12)


@pytest.mark.parametrize("mode", ["valid", "same", "full"])
def test_correlate_convolve_of_special_values_sum_only_the_overlap(mode):
    """Each output sums the products of the entries that overlap, as NumPy's kernel: no product with
    the zeros outside the shorter operand (0 * inf is nan), sums from +0.0, no warnings."""
    specials = numpy.array([0.0, -0.0, numpy.inf, -numpy.inf, numpy.nan, 1.5, -2.0])
    pick = numpy.random.default_rng(5)
    for n, m in ((1, 1), (2, 3), (3, 2), (5, 4), (4, 1)):
        for _ in range(15):
            a, v = pick.choice(specials, n), pick.choice(specials, m)
            for name in ("convolve", "correlate"):
                expected = getattr(numpy, name)(a, v, mode)
                with warnings.catch_warnings():
                    warnings.simplefilter("error")
                    got = numpy.asarray(getattr(arraystack, name)(a, v, mode))
                numpy.testing.assert_array_equal(got, expected)
                number = ~numpy.isnan(expected)
                assert (numpy.signbit(got[number]) == numpy.signbit(expected[number])).all()


def test_correlate_errors(parity):
    parity(lambda xp, p, q: xp.convolve(p, q), numpy.zeros(0), X[0])
    parity(lambda xp, p, q: xp.correlate(p, q), X[0], numpy.zeros(0))
    parity(lambda xp, p, q: xp.convolve(p, q, "bogus"), X[0], X[1])
    parity(lambda xp, p, q: xp.convolve(p, q), X, X[1])
    parity(lambda xp, p, q: xp.convolve(p, q, 1), X[0], X[1, :2])


def test_cross(parity):
    a3, b3, a2 = rng.standard_normal((4, 3)), rng.standard_normal(3), rng.standard_normal((4, 2))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        for a in (a3, a2, a3.astype(int)):
            for b in (b3, a2[0], a3):
                parity(lambda xp, p, q: xp.cross(p, q), a, b)
    parity(lambda xp, p, q: xp.cross(p, q, axisa=0, axisb=0, axisc=0), a3.T, a3.T)
    parity(lambda xp, p, q: xp.cross(p, q, axis=0), a3.T, a3.T)
    parity(lambda xp, p, q: xp.cross(p, q), X, X)
    parity(lambda xp, p, q: xp.cross(p, q[0, 0]), a3, a3)
    with pytest.warns(DeprecationWarning):
        arraystack.cross(arraystack.asarray(a2), arraystack.asarray(a2))


def test_jit():
    f = arraystack.jit(lambda y, x: (arraystack.trapezoid(y, x), arraystack.interp(x * 0.5, x, y)))
    y, x = numpy.sin(numpy.linspace(0, 3, 9)), numpy.linspace(0, 3, 9)
    got = f(arraystack.asarray(y), arraystack.asarray(x))
    numpy.testing.assert_allclose(numpy.asarray(got[0]), numpy.trapezoid(y, x), rtol=1e-12)
    numpy.testing.assert_allclose(numpy.asarray(got[1]), numpy.interp(x * 0.5, x, y), rtol=1e-12)


def test_grads(check_grads):
    x = rng.standard_normal((4, 5))
    check_grads(lambda v: arraystack.diff(v, n=2, axis=1), [x])
    check_grads(lambda v: arraystack.gradient(v, edge_order=2), [x])
    check_grads(lambda v: arraystack.gradient(v[0], arraystack.asarray([0.0, 1, 3, 4, 6])), [x])
    check_grads(lambda v: arraystack.trapezoid(v, dx=0.3), [x])
    check_grads(lambda a, b: arraystack.convolve(a, b, "same"), [x[0], x[1, :3]])
    check_grads(lambda a, b: arraystack.correlate(a, b), [x[0], x[1, :3]])
    check_grads(
        lambda f: arraystack.interp(arraystack.asarray([0.3, 1.7, 2.2]), arraystack.arange(5.0), f),
        [x[0]],
    )
    check_grads(
        lambda q: arraystack.interp(q, arraystack.arange(5.0), arraystack.asarray(x[0])),
        [numpy.array([0.3, 1.7, 2.2])],
    )
    check_grads(lambda a, b: arraystack.cross(a, b), [x[:, :3], x[:, 2:]])
