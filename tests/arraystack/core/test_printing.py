"""Printing (_printing), print options, floating-point error state (_floating_point_errors), NumPy's
constants (_constants) and the structure queries ndim/shape/size/iterable (_introspection)."""

from __future__ import annotations

import numpy
import pytest

import arraystack

VALUES = [
    numpy.array([[1 / 3, -2.5e-9], [1e6, numpy.nan]]),
    numpy.arange(2000.0),
    numpy.array([1 + 2j, -0.5j], dtype=numpy.complex64),
    numpy.array([True, False]),
    numpy.array(7, dtype=numpy.int8),
    numpy.zeros((0, 3), dtype=numpy.float32),
]


@pytest.mark.parametrize("x", VALUES, ids=lambda x: f"{x.dtype}{list(x.shape)}")
@pytest.mark.parametrize(
    "options",
    [
        {},
        {"precision": 3},
        {"suppress": True},
        {"threshold": 5, "edgeitems": 2},
        {"linewidth": 30},
        {"sign": "+", "floatmode": "fixed"},
    ],
)
def test_repr_and_str_follow_numpy_print_options(x, options):
    a = arraystack.asarray(x)
    with arraystack.printoptions(**options):
        assert repr(a) == repr(x)
        assert str(a) == str(x)
        assert arraystack.array_repr(a) == numpy.array_repr(x)
        assert arraystack.array_str(a) == numpy.array_str(x)
        assert arraystack.array2string(a) == numpy.array2string(x)


def test_array2string_arguments_and_numpy_dispatch():
    x = numpy.linspace(0, 1, 7).reshape(7, 1)
    a = arraystack.asarray(x)
    kwargs = {"separator": ", ", "prefix": "v=", "precision": 2, "max_line_width": 20}
    assert arraystack.array2string(a, **kwargs) == numpy.array2string(x, **kwargs)
    assert arraystack.array2string(a, formatter={"float": "{:.1f}".format}) == numpy.array2string(
        x, formatter={"float": "{:.1f}".format}
    )
    assert numpy.array2string(a, precision=1) == numpy.array2string(x, precision=1)
    assert arraystack.array_repr(a, precision=2, suppress_small=True) == numpy.array_repr(
        x, precision=2
    )
    assert arraystack.array_str(a, max_line_width=5) == numpy.array_str(x, max_line_width=5)


def test_print_options_are_numpys():
    before = arraystack.get_printoptions()
    assert before == numpy.get_printoptions()
    arraystack.set_printoptions(precision=2)
    try:
        assert numpy.get_printoptions()["precision"] == 2
        assert repr(arraystack.asarray([1 / 3])) == "array([0.33])"
    finally:
        arraystack.set_printoptions(**before)
    assert arraystack.get_printoptions() == before


def test_format_float():
    for x in (0.1, numpy.float32(1 / 3), arraystack.asarray(2.5)):
        want = numpy.asarray(x)[()]
        assert arraystack.format_float_positional(x, precision=3) == numpy.format_float_positional(
            want, precision=3
        )
        assert arraystack.format_float_scientific(x) == numpy.format_float_scientific(want)


def test_traced_values_print_their_type():
    seen = []

    @arraystack.jit
    def f(x):
        seen.append((arraystack.array_repr(x), arraystack.array_str(x), arraystack.array2string(x)))
        return x

    f(arraystack.ones(3))
    assert seen[0][0].startswith("ndarray(traced f64[3]") and seen[0][1] == "traced f64[3]"


def test_errstate_is_honoured_by_eager_math():
    one = arraystack.asarray(1.0)
    with arraystack.errstate(divide="raise"), pytest.raises(FloatingPointError):
        one / 0
    with arraystack.errstate(invalid="raise"), pytest.raises(FloatingPointError):
        arraystack.sqrt(arraystack.asarray(-1.0))
    with arraystack.errstate(all="ignore"), numpy.testing.assert_no_warnings():
        assert numpy.isinf(numpy.asarray(one / 0))
    old = arraystack.seterr(over="raise")
    try:
        assert arraystack.geterr()["over"] == "raise" == numpy.geterr()["over"]
        with pytest.raises(FloatingPointError):
            arraystack.exp(arraystack.asarray(1000.0))
    finally:
        arraystack.seterr(**old)
    assert arraystack.geterrcall() is numpy.geterrcall()


def test_constants_are_numpys():
    for name in ("pi", "e", "inf", "euler_gamma"):
        assert getattr(arraystack, name) == getattr(numpy, name)
    assert numpy.isnan(arraystack.nan) and arraystack.newaxis is None
    assert arraystack.ones(3)[arraystack.newaxis].shape == (1, 3)


@pytest.mark.parametrize("x", [numpy.ones((2, 3, 4)), numpy.array(5.0), [[1, 2], [3, 4]], 7, []])
def test_ndim_shape_size(parity, x):
    parity(lambda xp: (xp.ndim(x), xp.shape(x), xp.size(x)), traced=False)
    for axis in (0, -1, (0, 1), 5):
        parity(lambda xp, axis=axis: xp.size(x, axis), traced=False)


def test_structure_queries_answer_for_traced_values():
    @arraystack.jit
    def f(x):
        assert arraystack.ndim(x) == 2 and arraystack.shape(x) == (2, 3)
        assert arraystack.size(x) == 6 and arraystack.size(x, 1) == 3
        assert numpy.shape(x) == (2, 3)
        return x

    f(arraystack.ones((2, 3)))


def test_iterable(parity):
    for obj in ([1], (), "ab", 3, numpy.array(2.0), numpy.ones(2)):

        def call(xp, obj=obj):
            return xp.iterable(xp.asarray(obj) if isinstance(obj, numpy.ndarray) else obj)

        parity(call, traced=False)
