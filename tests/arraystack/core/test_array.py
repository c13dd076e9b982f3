"""The array type's non-arithmetic surface against numpy.ndarray: attributes, conversions, printing,
item/tolist, copies, pickling, and the traced-value errors."""

from __future__ import annotations

import copy
import operator
import pickle

import numpy
import pytest
from arraystack.ir import ShapedArray, TracerError
from arraystack.ir.core import ConcretizationError

import arraystack
from tests.conftest import run_on_tracer

SAMPLES = {
    "f64": numpy.arange(12.0).reshape(3, 4) - 5.5,
    "f32_0d": numpy.array(1.25, numpy.float32),
    "i8": numpy.arange(-4, 4, dtype=numpy.int8),
    "u16_3d": numpy.arange(24, dtype=numpy.uint16).reshape(2, 3, 4),
    "bool": numpy.array([True, False, True]),
    "c128": numpy.array([1 + 2j, -0.0 - 1j, numpy.nan + 0j]),
    "f16_empty": numpy.zeros((0, 3), numpy.float16),
    "transposed": numpy.arange(6.0).reshape(2, 3).T,
    "neg_strides": numpy.arange(10, dtype=numpy.int64)[::-2],
    "special": numpy.array([numpy.nan, numpy.inf, -numpy.inf, -0.0, 1e300]),
}


def _pair(name):
    a = SAMPLES[name].copy() if SAMPLES[name].flags.owndata else SAMPLES[name]
    return a, arraystack.asarray(a)


AVAL = ShapedArray((2, 3), numpy.dtype("float32"))


def _traced(fn, aval=AVAL):
    return run_on_tracer(fn, aval)


@pytest.mark.parametrize("name", list(SAMPLES))
def test_attributes(name):
    a, x = _pair(name)
    assert x.shape == a.shape and isinstance(x.shape, tuple)
    assert x.dtype == a.dtype
    assert (x.ndim, x.size, x.itemsize, x.nbytes) == (a.ndim, a.size, a.itemsize, a.nbytes)
    assert x.strides == a.strides
    assert x.flags.c_contiguous == a.flags.c_contiguous
    assert x.flags.f_contiguous == a.flags.f_contiguous
    assert isinstance(x.T, arraystack.ndarray)
    numpy.testing.assert_array_equal(numpy.asarray(x.T), a.T)
    if a.ndim >= 2:
        numpy.testing.assert_array_equal(numpy.asarray(x.mT), a.mT)
    else:
        with pytest.raises(ValueError):
            _ = x.mT


def test_attributes_traced():
    shape, dtype, ndim, size, itemsize, nbytes = _traced(
        lambda x: (x.shape, x.dtype, x.ndim, x.size, x.itemsize, x.nbytes)
    )
    assert (shape, dtype, ndim, size, itemsize, nbytes) == ((2, 3), numpy.float32, 2, 6, 4, 24)
    assert _traced(lambda x: x.T.shape) == (3, 2)
    assert _traced(lambda x: x.mT.shape) == (3, 2)
    # strides and flags: NumPy's for the layout NumPy would give the value
    assert _traced(lambda x: x.strides) == (12, 4)
    assert _traced(lambda x: (x.T * 2).strides) == (4, 12)
    flags = _traced(lambda x: x.T.flags)
    assert (flags.c_contiguous, flags["F"], flags.fnc, flags.writeable) == (False, True, True, True)
    assert not _traced(lambda x: arraystack.broadcast_to(x[0], (2, 3)).flags.writeable)
    with pytest.raises(AttributeError, match="cannot be set"):
        _traced(lambda x: setattr(x.flags, "writeable", False))


@pytest.mark.parametrize("layout", ["c", "fortran"])
def test_a_jitted_function_reading_strides_and_flags_is_numpys_for_each_layout(layout):
    def program(m):
        def f(x):
            y = x.T * 1.0
            scale = 2.0 if y.flags.f_contiguous else 3.0
            return y * scale + y.strides[0]

        return f

    a = numpy.arange(6.0).reshape(2, 3)
    a = numpy.asfortranarray(a) if layout == "fortran" else a
    jitted = arraystack.jit(program(arraystack))
    for argument in (a, numpy.ascontiguousarray(a), a):
        got = numpy.asarray(jitted(argument))
        numpy.testing.assert_array_equal(got, program(numpy)(argument))


def test_device():
    x = arraystack.ones(3)
    assert x.device == "cpu"
    assert x.device == numpy.ones(3).device
    assert str(x.device) == "cpu" and repr(x.device) == "Device('cpu')"
    assert hash(x.device) == hash("cpu")
    assert x.device != "cuda:0"
    assert x.to_device("cpu") is x
    assert x.to_device(x.device) is x
    with pytest.raises(ValueError, match="unsupported device"):
        x.to_device("cuda")
    assert _traced(lambda t: t.device) == "cpu"
    assert _traced(lambda t: t.to_device("cpu").shape) == (2, 3)


def test_device_values():
    from arraystack._core.devices import Device

    assert Device("cuda", 1) == "cuda:1" == Device.parse("cuda:1")
    assert Device("cuda", 1) != Device("cuda", 0)
    assert Device.parse((2, 3)) == Device("cuda", 3)
    assert Device("cuda", 3).dlpack_device() == (2, 3)
    assert len({Device("cpu"), Device.parse("cpu"), Device("cuda")}) == 2
    assert pickle.loads(pickle.dumps(Device("cuda", 2))) == Device("cuda", 2)
    with pytest.raises(ValueError):
        Device.parse("cuda:x")
    with pytest.raises(TypeError):
        Device.parse(3.5)


def test_shape_setter():
    a = arraystack.asarray(numpy.arange(6.0))
    a.shape = (2, 3)
    assert a.shape == (2, 3)
    t = arraystack.asarray(numpy.arange(12.0).reshape(3, 4)).T
    with pytest.raises(AttributeError):  # NumPy refuses: it would need a copy
        t.shape = (12,)
    assert t.shape == (4, 3)


def test_base():
    a = arraystack.asarray(numpy.arange(6.0))
    assert arraystack.asarray(numpy.arange(3.0)).base is None
    b = a.reshape(2, 3)
    assert b.base is not None
    assert numpy.shares_memory(numpy.asarray(b.base), numpy.asarray(a))


@pytest.mark.parametrize("name", list(SAMPLES))
def test_repr_and_str_equal_numpys(name):
    a, x = _pair(name)
    assert repr(x) == repr(a)
    assert str(x) == str(a)


def test_repr_follows_print_options():
    a = numpy.linspace(0, 1, 7)
    with numpy.printoptions(precision=2, suppress=True):
        assert repr(arraystack.asarray(a)) == repr(a)
        assert str(arraystack.asarray(a)) == str(a)
    big = numpy.arange(3000.0)
    assert repr(arraystack.asarray(big)) == repr(big)


def test_repr_traced_names_the_aval():
    assert _traced(repr) == "ndarray(traced f32[2,3])"
    assert "f32[2,3]" in _traced(str)


def test_format():
    assert format(arraystack.asarray(1.5), ".2f") == format(numpy.array(1.5), ".2f")
    assert (
        f"{arraystack.asarray(numpy.array(7, numpy.int8)):>4}" == f"{numpy.array(7, numpy.int8):>4}"
    )
    assert format(arraystack.ones(2), "") == format(numpy.ones(2), "")
    with pytest.raises(TypeError):
        format(arraystack.ones(2), ".2f")


@pytest.mark.parametrize(
    "value",
    [
        numpy.array(3),
        numpy.array(-2.5),
        numpy.array([7]),
        numpy.array([[True]]),
        numpy.array(1 + 2j),
        numpy.array([1.0, 2.0]),
        numpy.zeros(0),
        numpy.array(0.0),
    ],
)
@pytest.mark.parametrize("convert", [bool, int, float, complex, operator.index])
def test_scalar_conversions(value, convert):
    def outcome(x):
        try:
            return convert(x)
        except Exception as e:  # noqa: BLE001  (the exception type is the outcome compared)
            return type(e)

    expected = outcome(value.copy())
    actual = outcome(arraystack.asarray(value.copy()))
    assert type(actual) is type(expected)
    assert actual == expected or (numpy.isnan(actual) and numpy.isnan(expected))


def test_bool_ambiguity_message():
    with pytest.raises(ValueError, match="ambiguous"):
        bool(arraystack.ones(2))
    with pytest.raises(ValueError, match="empty"):
        bool(arraystack.ones(0))


def test_index_use():
    lst = list(range(10))
    assert lst[arraystack.asarray(numpy.array(3, numpy.uint8))] == 3
    assert operator.index(arraystack.asarray(numpy.array(-1, numpy.int64))) == -1
    with pytest.raises(TypeError):
        lst[arraystack.asarray(1.0)]


@pytest.mark.parametrize("convert", [bool, int, float, complex, operator.index, len])
def test_conversions_of_traced_values_raise(convert):
    aval = ShapedArray((), numpy.dtype("int32")) if convert is not len else None
    if convert is len:
        assert _traced(len) == 2
        return
    with pytest.raises(ConcretizationError) as info:
        _traced(convert, aval)
    assert isinstance(info.value, TracerError) and isinstance(info.value, TypeError)
    assert "traced value i32[]" in str(info.value)


@pytest.mark.parametrize("name", list(SAMPLES))
def test_len_and_iter(name):
    a, x = _pair(name)
    if a.ndim == 0:
        with pytest.raises(TypeError):
            len(x)
        with pytest.raises(TypeError):
            iter(x)
        return
    assert len(x) == len(a)
    rows = list(x)
    assert len(rows) == len(a)
    for row, expected in zip(rows, a):
        assert isinstance(row, arraystack.ndarray)
        numpy.testing.assert_array_equal(numpy.asarray(row), expected)
        assert row.dtype == a.dtype


def test_iter_rows_are_views():
    x = arraystack.asarray(numpy.zeros((2, 3)))
    first = next(iter(x))
    first[...] = 5.0
    assert numpy.asarray(x)[0].tolist() == [5.0, 5.0, 5.0]


def test_iter_traced():
    assert _traced(lambda x: [r.shape for r in x]) == [(3,), (3,)]


@pytest.mark.parametrize("name", list(SAMPLES))
def test_item_and_tolist(name):
    a, x = _pair(name)
    tolist = x.tolist()
    expected = a.tolist()
    assert tolist == expected or numpy.array_equal(numpy.array(tolist), a, equal_nan=True)
    assert type(tolist) is type(expected)
    if a.size == 1:
        assert type(x.item()) is type(a.item())
    if a.size > 1:
        assert x.item(1) == a.item(1) or x.item(1) != x.item(1)
        with pytest.raises(ValueError):
            x.item()
    if a.ndim == 2 and a.size:
        assert x.item(1, 0) == a.item(1, 0)
    with pytest.raises(IndexError):
        x.item(a.size + 5)


def test_item_tolist_traced_raise():
    for fn in (lambda x: x.item(), lambda x: x.tolist()):
        with pytest.raises(ConcretizationError):
            _traced(fn)


def test_array_protocol_zero_copy_and_copies():
    a = numpy.arange(6.0)
    x = arraystack.asarray(a)
    assert x.__array__() is a
    # NumPy reads the buffer protocol before __array__: its array is a new view of the same memory
    assert numpy.asarray(x).ctypes.data == a.ctypes.data and numpy.asarray(x).shape == a.shape
    assert numpy.shares_memory(numpy.array(x, copy=False), a)
    c = numpy.array(x)  # copies by default
    assert not numpy.shares_memory(c, a)
    f32 = numpy.asarray(x, dtype=numpy.float32)
    assert f32.dtype == numpy.float32
    with pytest.raises(ValueError):
        numpy.array(x, dtype=numpy.float32, copy=False)
    with pytest.raises(ConcretizationError):
        _traced(numpy.asarray)


def test_fill():
    for dtype, value in (
        (numpy.float64, 2.5),
        (numpy.int8, 7),
        (numpy.bool_, 1),
        (numpy.int32, 3.9),
    ):
        a = numpy.zeros((2, 3), dtype)
        x = arraystack.asarray(numpy.zeros((2, 3), dtype))
        view = x.T
        assert x.fill(value) is None
        a.fill(value)
        numpy.testing.assert_array_equal(numpy.asarray(x), a)
        numpy.testing.assert_array_equal(numpy.asarray(view), a.T)


def test_fill_traced(parity):
    def fill(xp, x):
        x.fill(3)
        return x

    parity(fill, numpy.zeros((2, 3), numpy.float32))


def test_contains(parity):
    a = numpy.array([[1.0, 2.0], [numpy.nan, 4.0]])
    for item in (2.0, 3, numpy.nan, True):
        assert (item in arraystack.asarray(a)) == (item in a)


@pytest.mark.parametrize("name", ["f64", "transposed", "neg_strides", "f16_empty", "f32_0d"])
def test_copy_and_astype(parity, name):
    a = SAMPLES[name]
    parity(lambda xp, x: x.copy(), a)
    parity(lambda xp, x: x.astype(xp.float32), a)
    parity(lambda xp, x: x.astype(xp.int16), a)
    parity(lambda xp, x: x.astype("complex64"), a)
    parity(lambda xp, x: x.astype(x.dtype, copy=False), a)
    parity(lambda xp, x: x.astype(xp.int8, casting="safe"), a)


def test_copies_do_not_alias():
    for make in (
        lambda x: x.copy(),
        lambda x: x.astype(x.dtype),
        lambda x: x.flatten(),
        copy.copy,
        copy.deepcopy,
    ):
        x = arraystack.asarray(numpy.arange(6.0).reshape(2, 3))
        y = make(x)
        y[...] = -1.0
        assert numpy.asarray(x).tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    x = arraystack.asarray(numpy.arange(3.0))
    assert x.astype(x.dtype, copy=False) is x


def test_deepcopy_in_containers():
    x = arraystack.ones(3)
    pair = copy.deepcopy([x, x])
    assert pair[0] is pair[1] and pair[0] is not x


@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
def test_flatten_and_ravel(parity, order):
    a = numpy.arange(12.0).reshape(3, 4).T
    parity(lambda xp, x: x.flatten(order), a)
    parity(lambda xp, x: x.ravel(order), a)


def test_reshape_and_transpose_methods(parity):
    a = numpy.arange(24.0).reshape(2, 3, 4)
    parity(lambda xp, x: x.reshape(6, 4), a)
    parity(lambda xp, x: x.reshape((4, -1)), a)
    parity(lambda xp, x: x.reshape([24]), a)
    parity(lambda xp, x: x.reshape(4, 6, order="F"), a)
    parity(lambda xp, x: x.reshape(5, 5), a)
    parity(lambda xp, x: x.transpose(), a)
    parity(lambda xp, x: x.transpose(2, 0, 1), a)
    parity(lambda xp, x: x.transpose((1, 2, 0)), a)
    parity(lambda xp, x: x.transpose(0, 1), a)
    parity(lambda xp, x: x.swapaxes(0, 2), a)


def test_reshape_method_views_alias():
    x = arraystack.asarray(numpy.arange(6.0))
    y = x.reshape(2, 3)
    y[...] = 0.0
    assert not numpy.asarray(x).any()


@pytest.mark.parametrize("name", list(SAMPLES))
def test_pickle_round_trip(name):
    a, x = _pair(name)
    y = pickle.loads(pickle.dumps(x))
    assert type(y) is arraystack.ndarray
    assert y.dtype == a.dtype and y.shape == a.shape
    numpy.testing.assert_array_equal(numpy.asarray(y), a)


def test_pickle_traced_raises():
    with pytest.raises(ConcretizationError):
        _traced(pickle.dumps)


def test_unhashable():
    with pytest.raises(TypeError):
        hash(arraystack.ones(2))
    with pytest.raises(TypeError):
        {arraystack.ones(2): 1}


def test_class_getitem():
    alias = arraystack.ndarray[tuple, numpy.dtype]
    assert alias.__origin__ is arraystack.ndarray


@pytest.mark.parametrize(
    "method",
    [
        "sum",
        "prod",
        "mean",
        "var",
        "std",
        "min",
        "max",
        "argmin",
        "argmax",
        "any",
        "all",
        "cumsum",
        "cumprod",
    ],
)
def test_reduction_methods(parity, method):
    a = numpy.arange(1.0, 13.0).reshape(3, 4) / 7
    parity(lambda xp, x: getattr(x, method)(), a)
    parity(lambda xp, x: getattr(x, method)(axis=1), a)
    parity(lambda xp, x: getattr(x, method)(0), a)
