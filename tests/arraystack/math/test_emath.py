"""NumPy parity of arraystack.emath (numpy.emath): complex results outside the real domain."""

from __future__ import annotations

import numpy
import pytest
from arraystack.ir.core import ConcretizationError

import arraystack

UNARY = ["sqrt", "log", "log2", "log10", "arccos", "arcsin", "arctanh"]
DTYPES = [
    "bool",
    "int8",
    "uint8",
    "int16",
    "int64",
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
]


def _emath(xp):
    return xp.emath


def values(dtype, inside):
    """Values inside the real domain of every function (0 < x < 1), or some outside it."""
    dtype = numpy.dtype(dtype)
    if dtype.kind == "b":
        return numpy.array([True, True]) if inside else numpy.array([True, False])
    if dtype.kind in "iu":
        base = numpy.array([1, 1, 1]) if inside else numpy.array([2, 0, 1])
        if not inside and dtype.kind == "i":
            base = numpy.array([-3, 0, 1, -1])
        return base.astype(dtype)
    base = numpy.array([0.25, 0.5, 0.75]) if inside else numpy.array([-2.0, -0.5, 0.0, 3.0])
    if dtype.kind == "c":
        base = base + (0.0 if inside else 1j) * numpy.arange(base.size)
    return base.astype(dtype)


@pytest.mark.parametrize("name", UNARY)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("inside", [True, False])
def test_unary(parity, name, dtype, inside):
    x = values(dtype, inside)
    traced = numpy.dtype(dtype).kind == "c"  # real input: the dtype depends on the values
    for arg in (x, x[::-1], x[::2], x[:0], x[0]):
        parity(lambda xp, x: getattr(_emath(xp), name)(x), arg, traced=traced)
    parity(lambda xp: getattr(_emath(xp), name)(x.tolist()), traced=False)


@pytest.mark.parametrize("dtype", ["int64", "float32", "float64", "complex128"])
def test_power_and_logn(parity, dtype):
    x = values(dtype, inside=False)
    traced = numpy.dtype(dtype).kind == "c"
    for p in (2, -1, 0.5, numpy.array([1, -2, 0, 3])[: x.size], numpy.array(2.0)):
        parity(lambda xp, x, p=p: _emath(xp).power(x, p), x, traced=traced)
    for n in (2, 10, -2, numpy.array(0.5)):
        parity(lambda xp, x, n=n: _emath(xp).logn(n, x), x, traced=traced)
    parity(lambda xp: _emath(xp).power(-2, -1))
    parity(lambda xp: _emath(xp).power(4, -1))


def test_traced_real_input_needs_values():
    with pytest.raises(ConcretizationError):
        arraystack.jit(arraystack.emath.sqrt)(numpy.array([-1.0, 4.0]))
    assert arraystack.emath is arraystack.emath  # published at the top level
    assert sorted(arraystack.emath.__all__) == sorted(numpy.emath.__all__)


def test_concrete_inputs_inside_a_trace():
    def body(y):
        return arraystack.emath.sqrt(numpy.array([-4.0, 9.0])) * y  # the constant is concrete

    out = arraystack.jit(body)(numpy.array(2.0 + 0j))
    numpy.testing.assert_allclose(numpy.asarray(out), numpy.emath.sqrt([-4.0, 9.0]) * 2)
