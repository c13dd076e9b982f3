"""NumPy parity of the polynomial family (_polynomial): polyval, polyfit, roots, poly arithmetic, poly1d."""

# ruff: noqa: B023  (parity calls each lambda at once, inside its loop iteration)
from __future__ import annotations

import warnings

import numpy
import pytest
from arraystack.ir.core import ShapeDependsOnDataError

import arraystack

X = numpy.linspace(0, 2, 9)
Y = numpy.sin(X)
P = numpy.array([1.0, -3.0, 2.0])


@pytest.mark.parametrize("dtype", ["float64", "int64", "float32", "complex128"])
def test_polyval(parity, dtype):
    p = numpy.array([2, -1, 3]).astype(dtype)
    parity(lambda xp, p, x: xp.polyval(p, x), p, numpy.array([0, 1, 2.5, -3]).astype(dtype))
    parity(lambda xp, p, x: xp.polyval(p, 2), p, X)
    parity(lambda xp, p, x: xp.polyval(p[:0], x), p, X)


def test_polyfit(parity):
    y2 = numpy.stack([Y, numpy.cos(X)], 1)
    for y in (Y, y2):
        for kw in ({}, {"w": numpy.linspace(1, 2, 9)}, {"cov": True}, {"cov": "unscaled"}):
            parity(lambda xp, x, y: xp.polyfit(x, y, 3, **kw), X, y, rtol=1e-9)
    parity(lambda xp, x, y: xp.polyfit(x, y, 3, full=True), X, Y, rtol=1e-9, traced=False)
    parity(lambda xp, x, y: xp.polyfit(x.astype(int), y, 1), X, Y, rtol=1e-9)


@pytest.mark.filterwarnings("ignore::numpy.exceptions.RankWarning")
def test_polyfit_errors(parity):
    parity(lambda xp, x, y: xp.polyfit(x, y, -1), X, Y)
    parity(lambda xp, x, y: xp.polyfit(x[None], y, 1), X, Y)
    parity(lambda xp, x, y: xp.polyfit(x[:0], y[:0], 1), X, Y)
    parity(lambda xp, x, y: xp.polyfit(x, y[:3], 1), X, Y)
    parity(lambda xp, x, y: xp.polyfit(x, y, 1, w=y[:2]), X, Y)
    parity(lambda xp, x, y: xp.polyfit(x[:3], y[:3], 3, cov=True), X, Y, traced=False)
    with pytest.warns(numpy.exceptions.RankWarning):
        arraystack.polyfit(arraystack.asarray(X[:3]), arraystack.asarray(Y[:3]), 5)


def test_arithmetic(parity):
    a, b = numpy.array([1.0, 2.0, 3.0]), numpy.array([4.0, -1.0])
    for fn in ("polyadd", "polysub", "polymul"):
        parity(lambda xp, a, b: getattr(xp, fn)(a, b), a, b)
        parity(lambda xp, a, b: getattr(xp, fn)(b, a), a, b)
    for m in (0, 1, 2, 4):
        parity(lambda xp, a: xp.polyder(a, m), a)
        parity(lambda xp, a: xp.polyint(a, m), a)
    parity(lambda xp, a: xp.polyint(a, 2, [1, 2]), a)
    parity(lambda xp, a: xp.polyint(a, 3, 5.0), a)
    parity(lambda xp, a: xp.polyint(a, 3, [1, 2]), a)
    parity(lambda xp, a: xp.polyder(a, -1), a)
    parity(lambda xp, a, b: xp.polydiv(a, b), a, b, traced=False)


def test_roots(parity):
    for p in (
        numpy.array([0, 1, -3, 2, 0.0]),
        numpy.array([1, 0, 1.0]),
        numpy.array([0.0, 0]),
        numpy.array([5.0]),
        numpy.array([1, 2, 3]),
    ):
        parity(lambda xp, p: xp.roots(p), p, traced=False)
    parity(lambda xp, p: xp.roots(p.reshape(1, -1)), P, traced=False)
    with pytest.raises(ShapeDependsOnDataError):
        arraystack.jit(arraystack.roots)(arraystack.asarray(P))


def test_poly1d():
    for module in (numpy, arraystack):
        p = module.poly1d([0, 1, 2, 3])
        q = module.poly1d([1, 1], variable="z")
        results = [
            p(2.0),
            (p * q).coeffs,
            (p + [1]).coeffs,
            (p - q).coeffs,
            (1 - p).coeffs,
            (-p).coeffs,
            (p * 2).coeffs,
            (p**2).coeffs,
            p.deriv().coeffs,
            p.integ(k=1).coeffs,
            p[0],
            p[1],
            p[7],
            p.order,
            len(p),
            p.roots,
            p == module.poly1d([1, 2, 3]),
            p != q,
            p(module.poly1d([1, 0])).coeffs,
            (p / 2).coeffs,
            *[r.coeffs for r in p / q],
            module.poly1d([1, -3, 2], r=True).coeffs,
            str(p),
            repr(q),
            q.variable,
            module.poly1d(q).variable,
            numpy.asarray(p),
        ]
        if module is numpy:
            expected = results
    for e, g in zip(expected, results):
        if isinstance(e, str):
            assert e == g
        else:
            numpy.testing.assert_allclose(
                numpy.asarray(g, dtype=complex), numpy.asarray(e, dtype=complex)
            )
    with pytest.raises(ValueError):
        arraystack.poly1d([[1, 2]])
    with pytest.raises(ValueError):
        arraystack.poly1d([1, 2]) ** -1


def test_grads(check_grads):
    check_grads(lambda p, x: arraystack.polyval(p, x), [P, X])
    check_grads(lambda y: arraystack.polyfit(arraystack.asarray(X), y, 2), [Y])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_grads(lambda a, b: arraystack.polymul(a, b), [P, X[:4]])
