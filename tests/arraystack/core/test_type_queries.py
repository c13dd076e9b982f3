"""NumPy parity of _core/type_queries.py: isscalar, common_type, mintypecode, min_scalar_type,
typename, little_endian, True_, False_ (dtypes only: also on traced arrays)."""

from __future__ import annotations

import numpy
import pytest
from arraystack.ir.core import ConcretizationError

import arraystack
from tests.conftest import run_traced

SUPPORTED = [
    "bool",
    "int8",
    "uint8",
    "int16",
    "uint32",
    "int64",
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
]


def test_constants():
    assert arraystack.little_endian is numpy.little_endian
    assert arraystack.True_ is numpy.True_ and arraystack.False_ is numpy.False_
    assert arraystack.ScalarType == numpy.ScalarType
    assert arraystack.typecodes == numpy.typecodes


@pytest.mark.parametrize(
    "element",
    [
        1,
        1.5,
        1j,
        True,
        None,
        "s",
        b"b",
        numpy.float32(2),
        numpy.int8(1),
        [1],
        (1,),
        numpy.array(3.0),
        numpy.array([1]),
    ],
)
def test_isscalar(element):
    expected = numpy.isscalar(element)
    assert arraystack.isscalar(element) is expected
    if isinstance(element, numpy.ndarray):
        assert arraystack.isscalar(arraystack.asarray(element)) is False


def test_isscalar_of_scalar_results_is_numpys_of_its_scalars():
    x = arraystack.arange(6.0)
    for got, expected in ((x.sum(), numpy.arange(6.0).sum()), (x[2], numpy.arange(6.0)[2])):
        assert arraystack.isscalar(got) is numpy.isscalar(expected) is True
    assert arraystack.isscalar(x.reshape(2, 3)[0]) is False
    assert arraystack.isscalar(arraystack.asarray(2.0)) is False  # an explicit 0-d array


@pytest.mark.parametrize("first", SUPPORTED)
@pytest.mark.parametrize("second", ["int8", "float16", "float32", "complex64", "float64"])
def test_common_type(first, second):
    a = numpy.zeros(2, first)
    b = numpy.zeros((2, 2), second)[:, ::-1]
    if "bool" in (first, second):  # not numeric for common_type
        with pytest.raises(TypeError):
            numpy.common_type(a, b)
        with pytest.raises(TypeError):
            arraystack.common_type(arraystack.asarray(a), arraystack.asarray(b))
        return
    expected = numpy.common_type(a, b)
    assert arraystack.common_type(arraystack.asarray(a), arraystack.asarray(b)) is expected
    traced = run_traced(lambda xp, a, b: xp.zeros(1, xp.common_type(a, b)), a, b)
    assert traced.dtype == numpy.dtype(expected)
    assert arraystack.common_type(arraystack.asarray(a)) is numpy.common_type(a)


def test_common_type_errors():
    assert arraystack.common_type() is numpy.common_type()
    with pytest.raises(AttributeError):
        arraystack.common_type([1.0])
    dates = numpy.zeros(1, "M8[s]")  # non-numeric: TypeError in both
    with pytest.raises(TypeError):
        numpy.common_type(dates)
    with pytest.raises(TypeError, match="non-numeric"):
        arraystack.common_type(dates)


@pytest.mark.parametrize(
    "typechars",
    [["f", "d"], ["F", "d"], ["i", "b"], [], ["g", "G"], "fdF", ["?"], ["D"]],
)
@pytest.mark.parametrize("typeset", ["GDFgdf", "fd", "bB"])
def test_mintypecode(typechars, typeset):
    assert arraystack.mintypecode(typechars, typeset) == numpy.mintypecode(typechars, typeset)
    assert arraystack.mintypecode(typechars, typeset, "x") == numpy.mintypecode(
        typechars, typeset, "x"
    )


@pytest.mark.parametrize("dtype", SUPPORTED)
def test_mintypecode_of_arrays(dtype):
    x = numpy.zeros(3, dtype)
    expected = numpy.mintypecode([x, "f"])
    assert arraystack.mintypecode([arraystack.asarray(x), "f"]) == expected
    traced = run_traced(lambda xp, x: xp.zeros(1, xp.mintypecode([x, "f"])), x)
    assert traced.dtype == numpy.dtype(expected)


@pytest.mark.parametrize(
    "value", [0, 255, 256, -1, -129, 2**40, 1.5, 1e300, -1e50, 1j, True, numpy.float32(3)]
)
def test_min_scalar_type_of_scalars(value):
    expected = numpy.min_scalar_type(value)
    assert arraystack.min_scalar_type(value) == expected
    assert arraystack.min_scalar_type(arraystack.asarray(numpy.asarray(value))) == (
        numpy.min_scalar_type(numpy.asarray(value))
    )


@pytest.mark.parametrize("dtype", SUPPORTED)
def test_min_scalar_type_of_arrays(dtype):
    x = numpy.ones((2, 3), dtype)
    assert arraystack.min_scalar_type(arraystack.asarray(x)) == numpy.min_scalar_type(x)
    assert arraystack.min_scalar_type(arraystack.asarray(x.T[::-1])) == numpy.min_scalar_type(x)
    assert arraystack.min_scalar_type([1, 2]) == numpy.min_scalar_type([1, 2])
    traced = run_traced(lambda xp, x: xp.zeros(1, xp.min_scalar_type(x)), x)
    assert traced.dtype == numpy.min_scalar_type(x)
    with pytest.raises(ConcretizationError):
        run_traced(lambda xp, x: xp.zeros(1, xp.min_scalar_type(x[0, 0])), x)


@pytest.mark.parametrize(
    "char",
    [
        "S1",
        "?",
        "B",
        "D",
        "G",
        "F",
        "I",
        "H",
        "L",
        "O",
        "Q",
        "S",
        "U",
        "V",
        "b",
        "d",
        "g",
        "f",
        "i",
        "h",
        "l",
        "q",
    ],
)
def test_typename(char):
    assert arraystack.typename(char) == numpy.typename(char)


def test_typename_unknown():
    with pytest.raises(KeyError):
        numpy.typename("x")
    with pytest.raises(KeyError):
        arraystack.typename("x")
