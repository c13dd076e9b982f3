"""Checks every series family passes (test_<family>.py call them with their family): the module
functions against NumPy's, the convenience class (fit, roots, calculus, arithmetic, printing,
conversion), and tracing (jit of evaluation, grad of val)."""

# ruff: noqa: B023  (parity calls each lambda at once, inside its loop iteration)
from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy
import pytest
from arraystack.ir.core import ShapeDependsOnDataError

import arraystack

C = numpy.array([1.0, -2.0, 3.0, 0.5, -0.25])
D = numpy.array([0.5, -1.0, 2.0])
X = numpy.linspace(-0.9, 0.9, 7)
# Note: fits solve ill-conditioned systems (Laguerre's columns grow fast): NumPy's sums of squares
# and arraystack's differ in order by an ulp, which the condition number amplifies
FIT_RTOL = 1e-9


@dataclass(frozen=True)
class Family:
    prefix: str  # "cheb"
    module: str  # "chebyshev"
    cls: str  # "Chebyshev"

    def fn(self, xp, name):
        return getattr(getattr(xp.polynomial, self.module), self.prefix + name)

    def klass(self, xp):
        return getattr(xp.polynomial, self.cls)


def check_arithmetic(f: Family, parity):
    for name in ("add", "sub", "mul"):
        parity(lambda xp, a, b: f.fn(xp, name)(a, b), C, D, traced=False)
        parity(lambda xp, a, b: f.fn(xp, name)(b, a), C, D, traced=False)
    parity(lambda xp, a, b: f.fn(xp, "add")(a, -a), C, D, traced=False)  # trims to [0.]
    parity(lambda xp, a, b: f.fn(xp, "mulx")(a), C, D, traced=False)
    parity(lambda xp, a, b: f.fn(xp, "mulx")(a[:1] * 0), C, D, traced=False)
    parity(lambda xp, a, b: f.fn(xp, "div")(a, b), C, D, traced=False)
    parity(lambda xp, a, b: f.fn(xp, "div")(b, a), C, D, traced=False)
    parity(lambda xp, a, b: f.fn(xp, "div")(a, b[:1]), C, D, traced=False)
    parity(lambda xp, a, b: f.fn(xp, "div")(a, b * 0), C, D, traced=False)  # ZeroDivisionError
    for n in (0, 1, 2, 3):
        parity(lambda xp, b: f.fn(xp, "pow")(b, n), D, traced=False)
    parity(lambda xp, b: f.fn(xp, "pow")(b, -1), D, traced=False)
    parity(lambda xp, b: f.fn(xp, "pow")(b, 1.5), D, traced=False)
    parity(lambda xp, b: f.fn(xp, "pow")(b, 20), D, traced=False)  # over maxpower (16)
    parity(lambda xp, a: f.fn(xp, "add")([1, 2], [3]), C, traced=False)  # integers become float
    parity(lambda xp, a: f.fn(xp, "trim")(a, 0.6), C, traced=False)
    parity(lambda xp, a: f.fn(xp, "line")(3.0, 2.0), C, traced=False)
    parity(lambda xp, a: f.fn(xp, "line")(3.0, 0), C, traced=False)
    parity(lambda xp, a: f.fn(xp, "fromroots")(a[:3]), C, traced=False)
    parity(lambda xp, a: f.fn(xp, "fromroots")([]), C, traced=False)
    parity(lambda xp, a: f.fn(xp, "2poly")(a), C, traced=False)
    parity(lambda xp, a: getattr(getattr(xp.polynomial, f.module), f"poly2{f.prefix}")(a), C,
           traced=False)
    for name in ("domain", "zero", "one", "x"):
        parity(lambda xp, a: xp.asarray(f.fn(xp, name)), C, traced=False)


def check_calculus(f: Family, parity):
    c2 = numpy.stack([C, C[::-1]], axis=1)
    for m in (0, 1, 2, 7):
        parity(lambda xp, a: f.fn(xp, "der")(a, m), C)
        parity(lambda xp, a: f.fn(xp, "der")(a, m, scl=0.5, axis=1), c2.T)
    for kw in ({}, {"m": 2}, {"m": 2, "k": [1, 2], "lbnd": 0.5}, {"scl": 3.0}, {"k": 2.0}):
        parity(lambda xp, a: f.fn(xp, "int")(a, **kw), C)
        parity(lambda xp, a: f.fn(xp, "int")(a, axis=1, **kw), c2.T)
    parity(lambda xp, a: f.fn(xp, "int")([0.0], k=3), C, traced=False)  # the zero series
    parity(lambda xp, a: f.fn(xp, "int")(a, m=-1), C)
    parity(lambda xp, a: f.fn(xp, "int")(a, m=1, k=[1, 2]), C)
    parity(lambda xp, a: f.fn(xp, "int")(a, lbnd=[1, 2]), C)
    parity(lambda xp, a: f.fn(xp, "der")(a, m=-1), C)
    parity(lambda xp, a: f.fn(xp, "der")(a, m=1.5), C)
    parity(lambda xp, a: f.fn(xp, "der")(a, axis=2), C)
    # round trip: the derivative of the integral is the series
    parity(lambda xp, a: f.fn(xp, "der")(f.fn(xp, "int")(a, m=3, k=[1, 2, 3]), 3), C)


def check_evaluation(f: Family, parity):
    parity(lambda xp, x, c: f.fn(xp, "val")(x, c), X, C)
    parity(lambda xp, x, c: f.fn(xp, "val")(x, c[:1]), X, C)
    parity(lambda xp, x, c: f.fn(xp, "val")(x, c[:2]), X, C)
    parity(lambda xp, x, c: f.fn(xp, "val")(x.reshape(7, 1), c), X, C)
    parity(lambda xp, x, c: f.fn(xp, "val")(0.5, c), X, C)
    parity(lambda xp, x, c: f.fn(xp, "val")([0.5, 1.5], c), X, C)
    c2 = numpy.stack([C, C[::-1]], axis=1)
    parity(lambda xp, x, c: f.fn(xp, "val")(x, c), X, c2)
    parity(lambda xp, x, c: f.fn(xp, "val")(x[:2], c, tensor=False), X, c2)
    cc = numpy.outer(C[:3], D)
    parity(lambda xp, x, c: f.fn(xp, "val2d")(x, x[::-1], c), X, cc)
    parity(lambda xp, x, c: f.fn(xp, "grid2d")(x, x[:3], c), X, cc)
    parity(lambda xp, x, c: f.fn(xp, "val2d")(x, x[:3], c), X, cc)  # incompatible
    ccc = cc[:, :, None] * D
    parity(lambda xp, x, c: f.fn(xp, "val3d")(x, x, x[::-1], c), X, ccc)
    parity(lambda xp, x, c: f.fn(xp, "grid3d")(x, x[:2], x[:3], c), X, ccc)
    parity(lambda xp, x: f.fn(xp, "vander")(x, 4), X)
    parity(lambda xp, x: f.fn(xp, "vander")(x.astype(numpy.float32), 3), X)
    parity(lambda xp, x: f.fn(xp, "vander")(x, -1), X)
    parity(lambda xp, x: f.fn(xp, "vander2d")(x, x[::-1], [2, 3]), X)
    parity(lambda xp, x: f.fn(xp, "vander3d")(x, x[::-1], x, [1, 2, 1]), X)
    parity(lambda xp, x: f.fn(xp, "weight")(x), X)


def check_roots_and_fit(f: Family, parity):
    parity(lambda xp, a: f.fn(xp, "companion")(a), C, traced=False)
    parity(lambda xp, a: f.fn(xp, "companion")(a[:2]), C, traced=False)
    parity(lambda xp, a: f.fn(xp, "companion")(a[:1]), C, traced=False)
    parity(lambda xp, a: f.fn(xp, "roots")(a), C, rtol=1e-10, traced=False)
    parity(lambda xp, a: f.fn(xp, "roots")(a[:2]), C, traced=False)
    parity(lambda xp, a: f.fn(xp, "roots")(a[:1]), C, traced=False)
    parity(lambda xp: f.fn(xp, "gauss")(6), rtol=1e-12, traced=False)
    parity(lambda xp: f.fn(xp, "gauss")(0), traced=False)
    rng = numpy.random.default_rng(1)
    x = numpy.linspace(0, 2, 30)
    y = numpy.exp(-x) + rng.normal(0, 0.01, 30)
    yy = numpy.stack([y, numpy.cos(x)], axis=1)
    for deg in (3, [0, 2, 3]):
        parity(lambda xp, x, y: f.fn(xp, "fit")(x, y, deg), x, y, rtol=FIT_RTOL)
        parity(lambda xp, x, y: f.fn(xp, "fit")(x, y, deg, w=x + 1), x, yy, rtol=FIT_RTOL)
    parity(lambda xp, x, y: f.fn(xp, "fit")(x, y, 3, full=True)[1][1:3], x, y, traced=False)
    parity(lambda xp, x, y: f.fn(xp, "fit")(x, y, -1), x, y)
    parity(lambda xp, x, y: f.fn(xp, "fit")(x, y[:3], 2), x, y)
    with pytest.warns(numpy.exceptions.RankWarning):
        f.fn(arraystack, "fit")(x[:3] * 0, y[:3], 2)


def check_class(f: Family, parity):
    rng = numpy.random.default_rng(0)
    x = numpy.linspace(0, 3, 40)
    y = numpy.sin(x) + rng.normal(0, 0.05, 40)
    for kw in ({}, {"domain": []}, {"w": x + 1}, {"window": [0, 2]}):
        parity(lambda xp, x, y: f.klass(xp).fit(x, y, 4, **kw).coef, x, y, rtol=FIT_RTOL,
               traced=False)
    expected = f.klass(numpy).fit(x, y, [0, 1, 3], domain=[0, 4])
    actual = f.klass(arraystack).fit(x, y, [0, 1, 3], domain=[0, 4])
    numpy.testing.assert_allclose(numpy.asarray(actual.coef), expected.coef, rtol=FIT_RTOL)
    numpy.testing.assert_array_equal(numpy.asarray(actual.domain), expected.domain)
    p = {xp: f.klass(xp)(C, domain=[0, 2]) for xp in (numpy, arraystack)}
    q = {xp: f.klass(xp)(D, domain=[0, 2]) for xp in (numpy, arraystack)}

    def same(fn, rtol=1e-12):
        e, a = fn(numpy), fn(arraystack)
        if isinstance(e, tuple):
            for ee, aa in zip(e, a):
                same_series(ee, aa, rtol)
        else:
            same_series(e, a, rtol)

    same(lambda xp: p[xp] + q[xp])
    same(lambda xp: p[xp] - 2)
    same(lambda xp: 2 - p[xp])
    same(lambda xp: p[xp] * q[xp])
    same(lambda xp: 3 * p[xp])
    same(lambda xp: p[xp] // q[xp])
    same(lambda xp: p[xp] % q[xp])
    same(lambda xp: divmod(p[xp], q[xp]))
    same(lambda xp: p[xp] / 4)
    same(lambda xp: q[xp] ** 3)
    same(lambda xp: -p[xp])
    same(lambda xp: p[xp].deriv(2))
    same(lambda xp: p[xp].integ(2, k=[1, 2], lbnd=0.5))
    same(lambda xp: p[xp].integ().deriv())  # round trip
    same(lambda xp: p[xp].truncate(2))
    same(lambda xp: p[xp].cutdeg(3))
    same(lambda xp: p[xp].trim(0.3))
    same(lambda xp: p[xp].copy())
    same(lambda xp: f.klass(xp).fromroots([0.5, 1.0, 1.5]))
    same(lambda xp: f.klass(xp).fromroots([0.5, 1.5], domain=[0, 2]))
    same(lambda xp: f.klass(xp).identity(domain=[0, 2]))
    same(lambda xp: f.klass(xp).basis(3, symbol="t"))
    for kind in ("Polynomial", "Chebyshev", "Legendre", "Laguerre", "Hermite", "HermiteE"):
        same(lambda xp: p[xp].convert(kind=getattr(xp.polynomial, kind)), rtol=1e-10)
        same(lambda xp: getattr(xp.polynomial, kind).cast(p[xp]), rtol=1e-10)
    numpy.testing.assert_allclose(
        numpy.asarray(p[arraystack].roots()), p[numpy].roots(), rtol=1e-10
    )
    numpy.testing.assert_allclose(
        numpy.asarray(p[arraystack](X)), p[numpy](X), rtol=1e-12
    )
    xs, ys = p[arraystack].linspace(5)
    numpy.testing.assert_allclose(numpy.asarray(xs), p[numpy].linspace(5)[0], rtol=1e-15)
    numpy.testing.assert_allclose(numpy.asarray(ys), p[numpy].linspace(5)[1], rtol=1e-12)
    assert p[arraystack].degree() == 4 and len(p[arraystack]) == 5
    assert p[arraystack] == f.klass(arraystack)(C, domain=[0, 2])
    assert p[arraystack] != f.klass(arraystack)(C)
    assert p[arraystack] != f.klass(arraystack)(C, domain=[0, 2], symbol="t")
    mapped = [float(numpy.asarray(v)) for v in p[arraystack].mapparms()]
    assert mapped == [float(v) for v in p[numpy].mapparms()]
    other = "Chebyshev" if f.cls != "Chebyshev" else "Legendre"
    for xp in (numpy, arraystack):
        with pytest.raises(TypeError, match="Polynomial types differ"):
            p[xp] + getattr(xp.polynomial, other)(C)
        with pytest.raises(TypeError, match="Domains differ"):
            p[xp] + f.klass(xp)(C)
        with pytest.raises(ValueError, match="symbols differ"):
            p[xp] * f.klass(xp)(C, domain=[0, 2], symbol="t")
        with pytest.raises(TypeError):
            p[xp] / q[xp]
        with pytest.raises(TypeError):
            1 / p[xp]
        with pytest.raises(ValueError, match="Domain has wrong number"):
            f.klass(xp)(C, domain=[0, 1, 2])
        with pytest.raises(ValueError, match="identifier"):
            f.klass(xp)(C, symbol="1x")
        with pytest.raises(ZeroDivisionError):
            p[xp] // 0


def same_series(expected, actual, rtol=1e-12):
    assert type(actual).__name__ == type(expected).__name__
    numpy.testing.assert_allclose(numpy.asarray(actual.coef), expected.coef, rtol=rtol, atol=1e-14)
    numpy.testing.assert_array_equal(numpy.asarray(actual.domain), expected.domain)
    numpy.testing.assert_array_equal(numpy.asarray(actual.window), expected.window)
    assert actual.symbol == expected.symbol


def check_printing(f: Family):
    cases = [[1.0, -2.5, 3.0], [0.0, 1e-9, -1e9], [1.5, numpy.nan, numpy.inf]]
    for coef in cases:
        for domain in (None, [0, 2], [-1, 1]):
            e = f.klass(numpy)(coef, domain=domain, symbol="t")
            a = f.klass(arraystack)(coef, domain=domain, symbol="t")
            assert repr(a) == repr(e)
            assert str(a) == str(e)
            assert format(a, "ascii") == format(e, "ascii")
            assert format(a, "unicode") == format(e, "unicode")
    long = numpy.arange(1.0, 30.0) * 1.23456789
    assert str(f.klass(arraystack)(long)) == str(f.klass(numpy)(long))  # wrapped lines
    with pytest.raises(ValueError, match="Unsupported format"):
        format(f.klass(arraystack)(C), "latex")
    try:
        for xp in (numpy, arraystack):
            xp.polynomial.set_default_printstyle("ascii")
        assert str(f.klass(arraystack)(C)) == str(f.klass(numpy)(C))
        assert "**" in str(f.klass(arraystack)(C)) or "_" in str(f.klass(arraystack)(C))
    finally:
        for xp in (numpy, arraystack):
            xp.polynomial.set_default_printstyle("unicode")
    with pytest.raises(ValueError, match="Unsupported format"):
        arraystack.polynomial.set_default_printstyle("latex")


def check_tracing(f: Family, check_grads):
    val = f.fn(arraystack, "val")
    cls = f.klass(arraystack)
    x = arraystack.asarray(X)
    c = arraystack.asarray(C)
    jitted = arraystack.jit(lambda x, c: val(x, c))
    numpy.testing.assert_allclose(numpy.asarray(jitted(x, c)), f.fn(numpy, "val")(X, C), rtol=1e-12)
    called = arraystack.jit(lambda x, c: cls(c, domain=[0, 2])(x))
    expected = f.klass(numpy)(C, domain=[0, 2])(X)
    numpy.testing.assert_allclose(numpy.asarray(called(x, c)), expected, rtol=1e-12)
    check_grads(lambda x: arraystack.sum(val(x, C)), (X,))
    check_grads(lambda c: arraystack.sum(val(X, c)), (C,))
    check_grads(lambda x, c: arraystack.sum(cls(c, domain=[0, 2])(x) ** 2), (X, C))
    derivative = arraystack.jit(lambda c: f.fn(arraystack, "der")(f.fn(arraystack, "int")(c, 2), 2))
    numpy.testing.assert_allclose(numpy.asarray(derivative(c)), C, rtol=1e-12, atol=1e-14)
    with pytest.raises(ShapeDependsOnDataError, match="trims trailing zeros"):
        arraystack.jit(lambda c: f.fn(arraystack, "add")(c, c))(c)
    with pytest.raises(ShapeDependsOnDataError):
        arraystack.jit(lambda c: (cls(c) * cls(c)).coef)(c)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fitted = arraystack.jit(lambda x, y: f.fn(arraystack, "fit")(x, y, 3))
        xs = numpy.linspace(0, 1, 20)
        ys = numpy.cos(xs)
        numpy.testing.assert_allclose(
            numpy.asarray(fitted(arraystack.asarray(xs), arraystack.asarray(ys))),
            f.fn(numpy, "fit")(xs, ys, 3), rtol=1e-8,
        )
