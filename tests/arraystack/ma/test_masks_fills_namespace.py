"""arraystack.ma's mask and fill-value queries, shifts and angle, iteration, structured arrays, and the
namespace (numpy.ma.__all__, the core and extras submodules) against numpy.ma."""

import numpy
import pytest

import arraystack as np
from arraystack import ma
from tests.arraystack.ma.test_ma import same

DTYPES = ["bool", "int8", "uint16", "int64", "float32", "float64", "complex64", "U3", "O"]


def test_namespace_is_numpy_mas_but_mvoid():
    missing = [n for n in numpy.ma.__all__ if not hasattr(ma, n)]
    assert missing == ["mvoid"]
    assert set(ma.__all__) - set(numpy.ma.__all__) == {"invert"}
    for sub, theirs in ((ma.core, numpy.ma.core), (ma.extras, numpy.ma.extras)):
        assert set(sub.__all__) == set(theirs.__all__) - {"mvoid"}
        assert all(getattr(sub, n) is getattr(ma, n) for n in sub.__all__)


@pytest.mark.parametrize("dtype", DTYPES)
def test_extreme_fill_values(dtype):
    dtype = numpy.dtype(dtype)
    for name in ("maximum_fill_value", "minimum_fill_value"):
        expected = getattr(numpy.ma, name)(dtype)
        got = getattr(ma, name)(dtype)
        assert expected == got and type(expected) is type(got), (name, expected, got)


def test_extreme_fill_values_of_arrays_and_scalars():
    for name in ("maximum_fill_value", "minimum_fill_value"):
        for value in (numpy.ma.array([1, 2], dtype=numpy.int16), 3.0, numpy.arange(2)):
            assert getattr(numpy.ma, name)(value) == getattr(ma, name)(value)


def test_common_fill_value():
    cases = [
        (lambda m: m.array([1.0], fill_value=3), lambda m: m.array([2.0], fill_value=3)),
        (lambda m: m.array([1.0], fill_value=3), lambda m: m.array([2.0])),
        (lambda m: [1], lambda m: [2]),
        (lambda m: [1], lambda m: [2.0]),
    ]
    for a, b in cases:
        assert numpy.ma.common_fill_value(a(numpy.ma), b(numpy.ma)) == ma.common_fill_value(
            a(ma), b(ma)
        )


def test_mask_queries_and_builders():
    structured = [("a", int), ("b", [("c", float), ("d", numpy.int8)])]
    assert ma.make_mask_descr(numpy.float32) == numpy.ma.make_mask_descr(numpy.float32)
    assert ma.make_mask_descr(structured) == numpy.ma.make_mask_descr(structured)
    assert repr(numpy.asarray(ma.make_mask_none((2, 3)))) == repr(numpy.ma.make_mask_none((2, 3)))
    none = ma.make_mask_none((2,), [("a", int)])
    assert repr(numpy.asarray(none)) == repr(numpy.ma.make_mask_none((2,), [("a", int)]))
    for m in ([True], numpy.array([True]), numpy.array([1]), np.asarray([False]), "x"):
        assert ma.is_mask(m) == numpy.ma.is_mask(m)
    x = ma.array([1.0])
    assert ma.isMA(x) and ma.isarray(x) and not ma.isMA([1.0]) and not ma.isarray(np.ones(1))
    assert ma.MaskType is numpy.ma.MaskType and ma.bool_ is numpy.ma.bool_


def test_flatten_mask():
    nested = numpy.array(
        [(True, (False, True)), (False, (True, True))],
        dtype=[("a", bool), ("b", [("c", bool), ("d", bool)])],
    )
    for mask in ([[1, 0], [0, 1]], [True, False], nested):
        expected = numpy.ma.flatten_mask(mask)
        got = ma.flatten_mask(np.asarray(mask) if mask is nested else mask)
        assert repr(expected) == repr(numpy.asarray(got))


SHIFTS = {
    "angle": lambda m, x: m.angle(m.multiply(x.astype(float), 1 + 1j)),
    "angle_deg": lambda m, x: m.angle(x.astype(float), deg=True),
    "left_shift": lambda m, x: m.left_shift(x, 2),
    "right_shift": lambda m, x: m.right_shift(x, [1, 0, 2]),
    "left_shift_masked_count": lambda m, x: m.left_shift(x, m.array([1, 1, 1], mask=[1, 0, 0])),
}


@pytest.mark.parametrize("masked", [True, False])
@pytest.mark.parametrize("name", sorted(SHIFTS))
def test_ufuncs_match_numpy_ma(name, masked):
    def make(m):
        return m.array([4, -8, 16], mask=[0, 1, 0] if masked else m.nomask)

    same(SHIFTS[name](numpy.ma, make(numpy.ma)), SHIFTS[name](ma, make(ma)))


def test_ufuncs_of_plain_input():
    same(numpy.ma.right_shift([8, 4], 1), ma.right_shift([8, 4], 1))
    same(numpy.ma.angle([1.0, -1.0]), ma.angle([1.0, -1.0]))


@pytest.mark.parametrize("compressed", [True, False])
def test_ndenumerate(compressed):
    expected = list(
        numpy.ma.ndenumerate(numpy.ma.array([[1, 2], [3, 4]], mask=[[0, 1], [0, 0]]), compressed)
    )
    got = list(ma.ndenumerate(ma.array([[1, 2], [3, 4]], mask=[[0, 1], [0, 0]]), compressed))
    assert [i for i, _ in expected] == [i for i, _ in got]
    for (_, e), (_, g) in zip(expected, got):
        assert (g is ma.masked) if e is numpy.ma.masked else e == g


def test_apply_over_axes():
    def make(m):
        return m.array(numpy.arange(24.0).reshape(2, 3, 4), mask=numpy.arange(24) % 5 == 0)

    same(
        numpy.ma.apply_over_axes(numpy.ma.sum, make(numpy.ma), [0, 2]),
        ma.apply_over_axes(ma.sum, make(ma), [0, 2]),
    )
    same(
        numpy.ma.apply_over_axes(lambda a, axis: a.cumsum(axis), make(numpy.ma), -1),
        ma.apply_over_axes(lambda a, axis: a.cumsum(axis), make(ma), -1),
    )
    with pytest.raises(ValueError):
        ma.apply_over_axes(lambda a, axis: a.sum(), make(ma), 0)


def test_structured_arrays():
    x = numpy.ma.array([[1, 2], [3, 4]], mask=[[0, 1], [0, 0]])
    flex = x.toflex()
    same(numpy.ma.fromflex(flex), ma.fromflex(np.asarray(flex)))
    records = numpy.array(
        [[(1, (2.0, 3.0)), (4, (5.0, 6.0))]],
        dtype=[("a", int), ("b", [("c", float), ("d", float)])],
    )
    expected = numpy.ma.flatten_structured_array(records)
    got = ma.flatten_structured_array(np.asarray(records))
    numpy.testing.assert_array_equal(expected, numpy.asarray(got))
    assert expected.shape == tuple(got.shape)


def test_masked_print_option_is_numpys_and_applies():
    assert ma.masked_print_option is numpy.ma.masked_print_option
    ma.masked_print_option.set_display("??")
    try:
        assert str(ma.array([1, 2], mask=[0, 1])) == "[1 ??]"
    finally:
        ma.masked_print_option.set_display("--")
