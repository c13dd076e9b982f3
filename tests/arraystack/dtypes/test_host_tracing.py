"""Host dtypes (datetime64, timedelta64, str_, bytes_) have no traced form: under jit, grad and vmap an
array of one (an argument, a capture, or one made inside) raises HostDtypeError naming the dtype, the
operation and the user's line, never a wrong result."""

from __future__ import annotations

import numpy
import pytest

import arraystack
from arraystack.errors import HostDtypeError, TracerError

DATES = numpy.array(["2020-01-01", "2020-03-05", "2019-12-31"], "datetime64[D]")
WORDS = numpy.array(["ab", "c", "def"])
HERE = "test_host_tracing.py:"


def _raises(call, *words):
    with pytest.raises(HostDtypeError) as info:
        call()
    message = str(info.value)
    for word in (HERE, *words):
        assert word in message, message
    assert isinstance(info.value, TypeError) and isinstance(info.value, TracerError)
    return message


@pytest.mark.parametrize("value", [DATES, WORDS, DATES[0]], ids=["datetime64", "str", "scalar"])
def test_jit_argument_says_static_or_convert(value):
    identity = arraystack.jit(lambda x: x)
    for arg in (value, arraystack.asarray(value)):
        message = _raises(lambda a=arg: identity(a), str(value.dtype), "jit argument")
        assert "static_argnums" in message and "astype" in message


def test_vmap_over_a_host_array_raises():
    _raises(
        lambda: arraystack.vmap(lambda x: x)(arraystack.asarray(DATES)), "datetime64[D]", "vmap"
    )


def test_grad_of_a_host_argument_raises():
    with pytest.raises(TypeError, match=r"datetime64\[D\]"):
        arraystack.grad(lambda x: x)(arraystack.asarray(DATES))


CAPTURED = arraystack.asarray(DATES)


def _uses_capture(x):
    return x + (CAPTURED - CAPTURED[0]).astype(float)


@pytest.mark.parametrize("transform", ["jit", "grad", "vmap"])
def test_captured_host_array_raises(transform):
    ones = arraystack.ones(3)
    calls = {
        "jit": lambda: arraystack.jit(_uses_capture)(ones),
        "grad": lambda: arraystack.grad(lambda x: _uses_capture(x).sum())(ones),
        "vmap": lambda: arraystack.vmap(_uses_capture)(arraystack.ones((2, 3))),
    }
    _raises(calls[transform], "datetime64[D]", "x[key]")


def test_host_operand_of_an_operator_raises():
    days = arraystack.asarray(DATES - DATES[0])
    fn = arraystack.jit(lambda x: x + (days + days).astype(float))
    _raises(lambda: fn(arraystack.ones(3)), "timedelta64[D]", "add was given")


@pytest.mark.parametrize(
    "make, operation",
    [
        (lambda: arraystack.arange("2020-01", "2020-04", dtype="datetime64[M]"), "arange"),
        (lambda: arraystack.asarray(["a", "b"]), "asarray"),
        (lambda: arraystack.zeros(3, "datetime64[s]"), "zeros"),
        (lambda: arraystack.datetime_as_string(CAPTURED), "numpy.datetime_as_string"),
        (lambda: arraystack.strings.upper("ab"), "numpy.strings.upper"),
    ],
)
def test_made_inside_raises(make, operation):
    def fn(x):
        make()
        return x

    _raises(lambda: arraystack.jit(fn)(arraystack.ones(3)), operation)
    _raises(lambda: arraystack.grad(lambda x: fn(x).sum())(arraystack.ones(3)), operation)


def test_astype_to_a_host_dtype_inside_raises():
    _raises(
        lambda: arraystack.jit(lambda x: x.astype("datetime64[D]"))(arraystack.ones(3, int)),
        "datetime64[D]",
        "astype",
    )


def test_eager_use_after_a_trace_still_works():
    with pytest.raises(HostDtypeError):
        arraystack.jit(_uses_capture)(arraystack.ones(3))
    numpy.testing.assert_array_equal(
        numpy.asarray(_uses_capture(arraystack.ones(3))), [1.0, 65.0, 0.0]
    )


@pytest.mark.parametrize("name", ["float8_e5m2", "float8_e4m3fn", "int4"])
def test_ml_dtypes_narrow_types_are_host_dtypes(name):
    """ml_dtypes gives float8_e5m2 NumPy's kind "f" (the others "V"); all are computed eagerly by
    NumPy with NumPy's results, and refused under a trace."""
    ml_dtypes = pytest.importorskip("ml_dtypes")
    dtype = numpy.dtype(getattr(ml_dtypes, name))
    host = numpy.array([1.5, -2.0, 3.0]).astype(dtype)
    x = arraystack.asarray(host)
    assert x.dtype == dtype
    numpy.testing.assert_array_equal(numpy.asarray(x + x), host + host)
    numpy.testing.assert_array_equal(
        numpy.asarray(x.astype(numpy.float32)), host.astype(numpy.float32)
    )
    back = arraystack.asarray(numpy.float32([0.5, 4.0])).astype(dtype)
    assert back.dtype == dtype
    _raises(lambda: arraystack.jit(lambda v: v * 2)(x), name, "jit argument")
