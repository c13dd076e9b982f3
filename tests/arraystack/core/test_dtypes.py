"""dtypes and promotion against NumPy: dtype objects, result_type (NEP 50), can_cast, promote_types,
issubdtype, isdtype, finfo, iinfo, with arraystack arrays as arguments."""

from __future__ import annotations

import itertools

import numpy
import pytest

import arraystack

NAMES = [
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
]
DTYPES = [numpy.dtype(n) for n in NAMES]


def _call(fn, *args):
    """fn(*args), or the exception type it raised."""
    try:
        return fn(*args)
    except Exception as e:  # noqa: BLE001  (the exception type is the outcome compared)
        return type(e)


def _as_pair(dt):
    """A NumPy array of dtype dt and the equivalent arraystack array."""
    a = numpy.zeros(2, dt)
    return a, arraystack.asarray(a)


@pytest.mark.parametrize("name", NAMES)
def test_dtype_objects_are_numpys(name):
    scalar_type = getattr(arraystack, name if name != "bool" else "bool_")
    assert scalar_type is getattr(numpy, name if name != "bool" else "bool_")
    assert arraystack.dtype(name) == numpy.dtype(name)
    assert hash(arraystack.dtype(scalar_type)) == hash(numpy.dtype(name))
    assert arraystack.asarray(numpy.zeros(1, name)).dtype == numpy.dtype(name)
    assert arraystack.asarray(numpy.zeros(1, name)).dtype is numpy.dtype(name)


def test_namespace_aliases():
    assert arraystack.bool is numpy.bool
    for name in (
        "intp",
        "uintp",
        "int_",
        "uint",
        "long",
        "ulong",
        "half",
        "single",
        "double",
        "csingle",
        "cdouble",
        "intc",
        "uintc",
        "longlong",
        "ulonglong",
    ):
        assert getattr(arraystack, name) is getattr(numpy, name)
    for name in (
        "generic",
        "number",
        "integer",
        "signedinteger",
        "unsignedinteger",
        "inexact",
        "floating",
        "complexfloating",
    ):
        assert getattr(arraystack, name) is getattr(numpy, name)


def test_unsupported_dtype_is_a_type_error():
    with pytest.raises(TypeError, match="does not support dtype"):
        arraystack.asarray(numpy.zeros(2, numpy.longdouble))
    with pytest.raises(TypeError, match="does not support dtype"):
        arraystack.asarray([1, 2], dtype=numpy.clongdouble)


@pytest.mark.parametrize("a, b", list(itertools.combinations_with_replacement(DTYPES, 2)))
def test_result_type_and_promote_types_all_pairs(a, b):
    na, aa = _as_pair(a)
    nb, ab = _as_pair(b)
    assert _call(arraystack.result_type, aa, ab) == _call(numpy.result_type, na, nb)
    assert _call(arraystack.result_type, a, ab) == _call(numpy.result_type, a, nb)
    assert _call(arraystack.promote_types, a, b) == _call(numpy.promote_types, a, b)
    for casting in ("no", "equiv", "safe", "same_kind", "unsafe"):
        assert arraystack.can_cast(a, b, casting) == numpy.can_cast(a, b, casting)
        assert arraystack.can_cast(aa, b, casting) == numpy.can_cast(na, b, casting)


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("scalar", [True, 1, -1, 2**40, 1.5, 1j, 300])
def test_result_type_weak_python_scalars(dt, scalar):
    na, aa = _as_pair(dt)
    assert _call(arraystack.result_type, aa, scalar) == _call(numpy.result_type, na, scalar)
    assert _call(arraystack.result_type, scalar, dt) == _call(numpy.result_type, scalar, dt)


def test_result_type_zero_d_arrays_are_strong():
    x = arraystack.asarray(numpy.array(1, numpy.int64))
    assert arraystack.result_type(x, numpy.int8) == numpy.result_type(numpy.array(1), numpy.int8)
    assert arraystack.result_type(x, numpy.int8) == numpy.int64


@pytest.mark.parametrize(
    "args",
    [
        (),
        ("float32", numpy.int8),
        (None,),
        ([1, 2], numpy.int8),
        (1, 2.0),
        (numpy.float32(1), 1.0),
        (numpy.ones(2, numpy.float16), 1.0),
    ],
)
def test_result_type_other_arguments(args):
    assert _call(arraystack.result_type, *args) == _call(numpy.result_type, *args)


def test_result_type_traced():
    from arraystack.ir import ShapedArray, make_graph

    seen = []

    def f(x):
        seen.append(arraystack.result_type(arraystack._core.array.wrap(x), 1.0))
        seen.append(arraystack.result_type(x, numpy.int64))
        return [x]

    make_graph(f, [ShapedArray((2,), numpy.dtype("float16"))])
    assert seen == [numpy.dtype("float16"), numpy.dtype("float64")]


def test_can_cast_refuses_python_scalars_like_numpy():
    with pytest.raises(TypeError):
        numpy.can_cast(1, numpy.float32)
    with pytest.raises(TypeError):
        arraystack.can_cast(1, numpy.float32)


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize(
    "kind",
    [
        arraystack.generic,
        arraystack.number,
        arraystack.integer,
        arraystack.signedinteger,
        arraystack.unsignedinteger,
        arraystack.inexact,
        arraystack.floating,
        arraystack.complexfloating,
        arraystack.bool_,
        arraystack.float64,
    ],
)
def test_issubdtype(dt, kind):
    assert arraystack.issubdtype(dt, kind) == numpy.issubdtype(dt, kind)
    assert arraystack.issubdtype(dt.type, kind) == numpy.issubdtype(dt.type, kind)


def test_issubdtype_and_promote_types_refuse_arrays_like_numpy():
    na, aa = _as_pair(numpy.float64)
    for fn in ("issubdtype", "promote_types"):
        assert _call(getattr(numpy, fn), na, numpy.float64) is TypeError
        assert _call(getattr(arraystack, fn), aa, numpy.float64) is TypeError


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize(
    "kind",
    [
        "bool",
        "signed integer",
        "unsigned integer",
        "integral",
        "real floating",
        "complex floating",
        "numeric",
        ("integral", "real floating"),
        numpy.float32,
    ],
)
def test_isdtype(dt, kind):
    assert _call(arraystack.isdtype, dt, kind) == _call(numpy.isdtype, dt, kind)


def test_isdtype_errors():
    for bad in ("float64", arraystack.ones(2)):
        assert _call(arraystack.isdtype, bad, "numeric") is TypeError
    assert _call(numpy.isdtype, numpy.ones(2), "numeric") is TypeError
    assert _call(arraystack.isdtype, numpy.dtype("f8"), "nonsense") is ValueError


@pytest.mark.parametrize("name", ["float16", "float32", "float64", "complex64", "complex128"])
def test_finfo(name):
    expected = numpy.finfo(name)
    for arg in (name, numpy.dtype(name), getattr(numpy, name), arraystack.ones(2, dtype=name)):
        got = arraystack.finfo(arg)
        assert got == expected
        assert (got.bits, got.eps, got.max, got.min, got.tiny, got.smallest_normal, got.dtype) == (
            expected.bits,
            expected.eps,
            expected.max,
            expected.min,
            expected.tiny,
            expected.smallest_normal,
            expected.dtype,
        )
    assert arraystack.finfo(float) == numpy.finfo(float)
    assert arraystack.finfo(1.0) == numpy.finfo(1.0)


@pytest.mark.parametrize("name", [n for n in NAMES if n[0] in "iu"])
def test_iinfo(name):
    expected = numpy.iinfo(name)
    for arg in (name, numpy.dtype(name), getattr(numpy, name), arraystack.ones(2, dtype=name)):
        got = arraystack.iinfo(arg)
        assert (got.bits, got.min, got.max, got.dtype) == (
            expected.bits,
            expected.min,
            expected.max,
            expected.dtype,
        )


def test_finfo_iinfo_errors_like_numpy():
    for bad in ("int32", "bool"):
        assert _call(arraystack.finfo, bad) is _call(numpy.finfo, bad)
    for bad in ("float32", "bool"):
        assert _call(arraystack.iinfo, bad) is _call(numpy.iinfo, bad)
    assert _call(arraystack.iinfo, arraystack.ones(2)) is ValueError


def test_finfo_of_traced_array():
    from arraystack.ir import ShapedArray, make_graph

    seen = []

    def f(x):
        seen.append(arraystack.finfo(arraystack._core.array.wrap(x)).eps)
        return [x]

    make_graph(f, [ShapedArray((2,), numpy.dtype("float32"))])
    assert seen == [numpy.finfo(numpy.float32).eps]
