"""NumPy parity of isclose, allclose, array_equal, array_equiv (_comparison) and of sinc, i0 (_special)."""

# ruff: noqa: B023  (parity calls each lambda at once, inside its loop iteration)
from __future__ import annotations

import numpy
import pytest
from arraystack.ir.core import ConcretizationError

import arraystack

A = numpy.array([0, 1e-9, 1, numpy.nan, numpy.inf, -numpy.inf, 1e10])
B = numpy.array([0, 0, 1 + 1e-6, numpy.nan, numpy.inf, numpy.inf, 1.00001e10])


@pytest.mark.parametrize("equal_nan", [False, True])
def test_isclose(parity, equal_nan):
    parity(lambda xp, a, b: xp.isclose(a, b, equal_nan=equal_nan), A, B)
    parity(lambda xp, a, b: xp.isclose(a, b, rtol=0, atol=1e-8, equal_nan=equal_nan), A, B)
    parity(lambda xp, a, b: xp.isclose(a.astype("float32"), 1, equal_nan=equal_nan), A, B)
    parity(lambda xp, a, b: xp.isclose(a[:3].astype(int), b[:3].astype(int)), A, B)
    parity(lambda xp, a, b: xp.isclose(a + 1j, b + 1j), A, B)
    parity(lambda xp, a, b: xp.isclose(1.0, 1.0 + 1e-9), A, B)
    parity(lambda xp, a, b: xp.isclose(a, b[:2]), A, B)
    for fn in ("allclose", "array_equal"):
        parity(lambda xp, a, b: getattr(xp, fn)(a, b, equal_nan=equal_nan), A, B, traced=False)
        parity(lambda xp, a, b: getattr(xp, fn)(a, a, equal_nan=equal_nan), A, B, traced=False)


def test_array_equal_equiv(parity):
    x = numpy.arange(6).reshape(2, 3)
    for fn in ("array_equal", "array_equiv"):
        for other in (x, x[0], x[:, :1], x.astype(float), x + 1, numpy.arange(4), x.T):
            parity(lambda xp, a, b: getattr(xp, fn)(a, b), x, other, traced=False)
        parity(lambda xp, a, b: getattr(xp, fn)([1, 2], [1, 2]), x, x, traced=False)
        parity(lambda xp, a, b: getattr(xp, fn)([1, [2, 3]], [1, 2]), x, x, traced=False)
    parity(lambda xp, a, b: xp.array_equal(a, b, equal_nan=True), x, x.astype(float), traced=False)
    parity(lambda xp, a, b: xp.array_equal(a, b, equal_nan=True), A, A.copy(), traced=False)


def test_bool_results_need_concrete_values():
    f = arraystack.jit(lambda a: arraystack.allclose(a, a))
    with pytest.raises(ConcretizationError):
        f(arraystack.asarray(A))


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "complex128", "float16"])
def test_sinc_i0(parity, dtype):
    x = numpy.array([-10, -2.5, -1, 0, 0.5, 1, 3, 7.9, 8, 8.1, 30]).astype(dtype)
    rtol = 2e-3 if dtype == "float16" else 1e-12 if dtype in ("float64", "int64") else 1e-5
    parity(lambda xp, v: xp.sinc(v), x, rtol=rtol, atol=1e-15)
    parity(lambda xp, v: xp.i0(v), x, rtol=rtol)


def test_grads(check_grads):
    x = numpy.array([-3.0, -0.7, 0.4, 2.0, 9.0, 12.0])
    check_grads(arraystack.sinc, [x])
    check_grads(arraystack.i0, [x])
