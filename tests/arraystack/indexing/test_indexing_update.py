"""Assignment against NumPy: x[key] = v (eager writes through views, traced functionalized updates
by pad/select, scatter or a masked select), casting, errors that leave every array unchanged, and the
.real/.imag setters."""

from __future__ import annotations

import warnings

import numpy
import pytest
from arraystack.ir.core import ShapeDependsOnDataError

import arraystack
from tests import oracle
from tests.arraystack.indexing.test_indexing import (
    ADVANCED_KEYS,
    ARRAYS,
    BASIC_KEYS,
    mask_keys,
    primitives,
)
from tests.conftest import run_traced

# -- x[key] = value --------------------------------------------------------------------------------

SET_ARRAYS = [
    "i64_1d",
    "f64_2d",
    "i32_3d",
    "f64_0d",
    "f32_empty",
    "f64_strided",
    "bool_2d",
    "c64_2d",
]
SET_KEYS = {**BASIC_KEYS, **ADVANCED_KEYS}


def _assign(key, value):
    def fn(xp, x):
        y = x.copy()
        y[key] = value
        return y

    return fn


def _assign_inplace(key, value):
    def fn(xp, x):
        x[key] = value
        return x

    return fn


@pytest.mark.parametrize("array,key", [(a, k) for a in SET_ARRAYS for k in SET_KEYS])
def test_setitem_scalar(parity, array, key):
    parity(_assign(SET_KEYS[key], 1), ARRAYS[array])
    parity(_assign_inplace(SET_KEYS[key], True), ARRAYS[array])


@pytest.mark.parametrize("array,key", [(a, k) for a in SET_ARRAYS for k in SET_KEYS])
def test_setitem_array_values(parity, array, key):
    a = ARRAYS[array]
    try:
        target = numpy.shape(a[SET_KEYS[key]])
    except (IndexError, TypeError, ValueError):
        target = (2,)
    full = numpy.arange(numpy.prod(target), dtype=numpy.float64).reshape(target) * 3 - 4
    parity(_assign(SET_KEYS[key], full), a)  # float -> int/bool casts unsafely, as NumPy does
    row = numpy.arange(target[-1]) - 2.5 if full.ndim else full
    parity(_assign(SET_KEYS[key], row), a)  # broadcast along the leading axes
    parity(_assign(SET_KEYS[key], row[None, None]), a)  # leading axes of 1 are dropped
    parity(_assign(SET_KEYS[key], numpy.ones((3, 5, 7))), a)  # does not broadcast


@pytest.mark.parametrize("array", SET_ARRAYS)
def test_setitem_boolean(parity, array):
    a = ARRAYS[array]
    for k in mask_keys(a).values():
        parity(_assign(k, 0), a)
        try:
            n = numpy.shape(a[k])
        except IndexError:
            continue
        parity(_assign(k, numpy.arange(numpy.prod(n)).reshape(n)), a)


@pytest.mark.parametrize(
    "key,value",
    [
        (numpy.array([0, 2, -1]), numpy.array([5.0, 6.0, 7.0])),
        (numpy.array([[1], [0]]), numpy.array(9.0)),
        (numpy.array([3, 3, 1]), numpy.array([1.0, 2.0, 3.0])),  # repeated: the last write wins
    ],
)
def test_setitem_traced_index_arrays(parity, key, value):
    a = ARRAYS["f64_2d"]

    def fn(xp, x, i, v):
        y = x.copy()
        y[:, i] = v
        y[i[..., :1], ::-1] = -v[..., :1]
        return y

    parity(fn, a, key, value)


def test_setitem_traced_scalar_index(parity):
    """The jax-style update of one row at a traced position: a scatter with a 0-d index."""

    def fn(xp, x, i):
        y = x.copy()
        y[i] = y[i] * 2 + 1
        y[i, -1] = -5
        return y

    for i in (numpy.array(1), numpy.array(-1), numpy.array(0, numpy.uint8)):
        parity(fn, ARRAYS["f64_2d"], i)


def test_setitem_traced_mask_selects(parity):
    a = ARRAYS["f32_4d"]

    def whole(xp, x, m):
        y = x.copy()
        y[m] = -1.0
        return y

    def leading(xp, x, m, v):
        y = x.copy()
        y[1:, m[0, :, :, 0]] = v
        return y

    parity(whole, a, a > 50)
    parity(leading, a, a > 50, numpy.arange(5.0))
    parity(leading, a, a > 50, numpy.arange(5.0)[None, :])
    parity(whole, a, numpy.array(True))


def test_setitem_traced_mask_with_data_dependent_value():
    a = ARRAYS["f64_2d"]

    def fn(xp, x, m):
        x[m] = xp.asarray(numpy.arange(3.0))
        return x

    with pytest.raises(ShapeDependsOnDataError, match="where"):
        run_traced(fn, a, a > 3)


def test_traced_basic_setitem_is_one_window_update():
    a = ARRAYS["f32_4d"]

    def fn(x):
        x[1, ::-2, 1:3] = 0.0
        return x

    names = primitives(fn, a)
    assert "scatter" not in names and "pad" not in names and names.count("update_slice") == 1


@pytest.mark.parametrize(
    "dtype,value",
    [
        (numpy.int8, 300),
        (numpy.int8, numpy.int64(300)),
        (numpy.int8, [300]),
        (numpy.int8, numpy.array([300])),  # arrays cast unsafely: wraps
        (numpy.int32, 2.7),
        (numpy.int32, float("nan")),
        (numpy.int32, numpy.float64("nan")),
        (numpy.float32, 1 + 2j),
        (numpy.bool_, 2.5),
        (numpy.float64, "1.5"),
        (numpy.float64, None),
        (numpy.uint8, -1),
    ],
)
def test_setitem_casting(parity, dtype, value):
    a = numpy.arange(3).astype(dtype)
    parity(_assign(slice(0, 1), value), a)
    parity(_assign(0, value), a)


def test_setitem_complex_into_real_warns(xp):
    values = numpy.array([1 + 2j, 3 - 1j])
    for fn in (lambda y: y.__setitem__(slice(None), xp.asarray(values)),):
        y = xp.asarray(numpy.zeros(2))
        with pytest.warns(numpy.exceptions.ComplexWarning):
            fn(y)
        numpy.testing.assert_array_equal(numpy.asarray(y), [1.0, 3.0])
    if xp is arraystack:
        with pytest.warns(numpy.exceptions.ComplexWarning):
            out = run_traced(_assign(slice(None), numpy.array([1 + 2j, 3 - 1j])), numpy.zeros(2))
        numpy.testing.assert_array_equal(numpy.asarray(out), [1.0, 3.0])

        def traced_value(xp, x, v):
            x[:] = v
            return x

        with pytest.warns(numpy.exceptions.ComplexWarning):
            out = run_traced(traced_value, numpy.zeros(2), values)
        numpy.testing.assert_array_equal(numpy.asarray(out), [1.0, 3.0])


BAD_ASSIGNMENTS = [
    (5, 1.0, IndexError),
    ((slice(None), [0, 7]), 1.0, IndexError),
    ([0, 1, -9], 1.0, IndexError),
    ((0, 0, 0), 1.0, IndexError),
    (1.5, 1.0, IndexError),
    (slice(None), numpy.ones(5), ValueError),
    ((slice(None), 0), numpy.ones((3, 1)), ValueError),
    (numpy.ones(4, bool), 1.0, IndexError),
    ([[0], [1]], numpy.ones((3, 4)), ValueError),
    (slice(None), 1 + 2j, TypeError),
    ((0, 1), numpy.array([5.0]), ValueError),  # one element takes a scalar only
    ((0, 1), [5.0], ValueError),
    (slice(None), [[[1.0]]], ValueError),  # a sequence may not have more axes than the target
    (numpy.arange(12).reshape(3, 4) % 2 == 0, numpy.ones((1, 6)), TypeError),  # whole-array mask
    (numpy.arange(12).reshape(3, 4) % 2 == 0, numpy.ones(5), ValueError),
]


@pytest.mark.parametrize("key,value,error", BAD_ASSIGNMENTS)
def test_failed_setitem_leaves_arrays_unchanged(xp, key, value, error):
    a = numpy.arange(12.0).reshape(3, 4)
    base = xp.asarray(a.copy())
    view = base[::-1]
    original = numpy.array(value, copy=True) if isinstance(value, numpy.ndarray) else value
    value = xp.asarray(value) if isinstance(value, numpy.ndarray) else value
    with pytest.raises(error) as info:
        view[key] = value
    assert str(info.value)
    numpy.testing.assert_array_equal(numpy.asarray(base), a)
    numpy.testing.assert_array_equal(numpy.asarray(value), original)


@pytest.mark.parametrize("key,value,error", BAD_ASSIGNMENTS)
def test_failed_traced_setitem_leaves_value_unchanged(key, value, error):
    a = numpy.arange(12.0).reshape(3, 4)
    seen = []

    def fn(xp, x):
        before = x._value
        with pytest.raises(error):
            x[key] = value
        seen.append(x._value is before)
        return x

    out = run_traced(fn, a)
    assert seen == [True]
    numpy.testing.assert_array_equal(numpy.asarray(out), a)


# -- .real / .imag ---------------------------------------------------------------------------------

SPECIALS = numpy.array([0.0, -0.0, 1.5, -2.5, numpy.inf, -numpy.inf, numpy.nan])


def _set_part(part, value):
    def fn(xp, x):
        y = x.copy()
        setattr(y, part, value)
        return y

    return fn


@pytest.mark.parametrize("dtype", [numpy.complex64, numpy.complex128])
@pytest.mark.parametrize("part", ["real", "imag"])
def test_set_part_complex_exact(dtype, part):
    re, im = numpy.meshgrid(SPECIALS, SPECIALS)
    x = (re + 0j).astype(dtype)
    x.imag = im
    values = numpy.roll(re, 1, axis=1).astype(x.real.dtype)
    expected = _set_part(part, values)(numpy, x.copy())
    got = _set_part(part, values)(arraystack, arraystack.asarray(x.copy()))
    oracle.assert_bitwise(expected, got)

    def traced(xp, x, v):
        setattr(x, part, v)
        return x

    oracle.assert_bitwise(expected, run_traced(traced, x.copy(), values))


@pytest.mark.parametrize(
    "array,part,value",
    [
        ("c64_2d", "real", 2),
        ("c64_2d", "imag", numpy.array([1.0, -0.0, 3.0])),
        ("c64_2d", "imag", numpy.array([1.0, 2.0])),
        ("f64_2d", "real", numpy.arange(4)),
        ("f64_2d", "imag", 1.0),
        ("i32_3d", "real", 2.5),
        ("f64_0d", "real", 7),
        ("f64_2d", "real", 1 + 1j),
    ],
)
def test_set_part(parity, array, part, value):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", numpy.exceptions.ComplexWarning)
        parity(_set_part(part, value), ARRAYS[array])


def test_set_part_through_view(xp):
    base = xp.asarray(numpy.arange(6).astype(numpy.complex128).reshape(2, 3))
    base[:, ::-1].imag = numpy.array([1.0, 2.0, 3.0])
    expected = numpy.arange(6).astype(numpy.complex128).reshape(2, 3)
    expected[:, ::-1].imag = numpy.array([1.0, 2.0, 3.0])
    numpy.testing.assert_array_equal(numpy.asarray(base), expected)
