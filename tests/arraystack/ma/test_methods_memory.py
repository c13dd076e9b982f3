"""MaskedArray's memory, field and mask-state methods (arraystack/ma/_memory.py, _fields.py and
_array.py) against numpy.ma's."""

import io
import pickle
import warnings

import numpy
import pytest

import arraystack
from arraystack import ma
from tests.arraystack.ma.test_ma import same

DATA = [[3.0, -1.0, 2.0], [6.0, 0.0, 4.0]]
MASK = [[0, 1, 0], [1, 0, 0]]


def inputs(m):
    """The same masked and unmasked arrays, built with numpy.ma or arraystack.ma."""
    return {
        "masked": m.array(DATA, mask=MASK, fill_value=7.0),
        "unmasked": m.array(DATA),
        "ints": m.array([1, 2, 3, 4], dtype=numpy.int32, mask=[0, 1, 0, 0]),
    }


CASES = {
    "byteswap": lambda m, x: x.byteswap(),
    "view": lambda m, x: x.view(),
    "view_fill_value": lambda m, x: x.view(fill_value=2),
    "view_same_size_dtype": lambda m, x: x.view(numpy.int64 if x.itemsize == 8 else numpy.float32),
    "view_unmasked_new_size": lambda m, x: m.array(DATA).view(numpy.int32),
    "tobytes": lambda m, x: x.tobytes(),
    "tobytes_fill_F": lambda m, x: x.tobytes(fill_value=5, order="F"),
    # numpy.ma unpickles nomask as an all-False mask, and so does arraystack.ma
    "pickle": lambda m, x: pickle.loads(x.dumps()),
    "pickle_mask": lambda m, x: pickle.loads(pickle.dumps(x)).mask,
    "to_device": lambda m, x: x.to_device("cpu"),
    "getfield": lambda m, x: x.getfield(x.dtype),
    "getfield_offset": lambda m, x: x.getfield(numpy.int16, 2),
    "toflex": lambda m, x: x.toflex(),
    "torecords": lambda m, x: x.torecords(),
    "recordmask": lambda m, x: x.recordmask,
    "get_fill_value": lambda m, x: x.get_fill_value(),
    "get_real_of_view": lambda m, x: x.view().get_real(),
    "sizes": lambda m, x: (x.itemsize, x.nbytes, x.strides, x.iscontiguous()),
    "base": lambda m, x: x.base,
    "sharedmask": lambda m, x: (x.sharedmask, x[:1].sharedmask, x.copy().sharedmask),
}


@pytest.mark.parametrize("kind", ["masked", "unmasked", "ints"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_memory_method(name, kind):
    fn = CASES[name]
    expected = fn(numpy.ma, inputs(numpy.ma)[kind])
    got = fn(ma, inputs(ma)[kind])
    if isinstance(expected, (bytes, tuple, bool, numpy.bool_)):
        assert expected == got
    elif isinstance(expected, numpy.ndarray) and expected.dtype.names:
        assert repr(expected) == repr(got)
    else:
        same(expected, got)


MUTATIONS = {
    "byteswap_inplace": lambda m, x: x.byteswap(True) is x,
    "setfield": lambda m, x: x.setfield(5, x.dtype),
    "setfield_offset": lambda m, x: x.setfield(m.array([7, 8], mask=[0, 1])[:1], numpy.int16, 2),
    "set_fill_value": lambda m, x: x.set_fill_value(3),
    "set_fill_value_default": lambda m, x: x.set_fill_value(),
    "shrink_mask": lambda m, x: x.shrink_mask() is x,
    "unshare_mask": lambda m, x: (x.unshare_mask() is x, x.sharedmask),
    "setflags": lambda m, x: (x.setflags(write=False), x.flags.writeable),
}


@pytest.mark.parametrize("kind", ["masked", "unmasked", "ints"])
@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_in_place_memory_method(name, kind):
    fn = MUTATIONS[name]
    expected, got = inputs(numpy.ma)[kind], inputs(ma)[kind]
    assert fn(numpy.ma, expected) == fn(ma, got)
    same(expected, got)


def test_shrink_mask_of_an_all_false_mask():
    expected = numpy.ma.array([1, 2], mask=[0, 0]).shrink_mask()
    got = ma.array([1, 2], mask=[0, 0]).shrink_mask()
    same(expected, got)
    assert got.mask is ma.nomask


def test_sharedmask_follows_construction():
    for copy in (False, True):
        for mask in (ma.nomask, [0, 1], True):
            expected = numpy.ma.array(numpy.ones(2), mask=mask, copy=copy).sharedmask
            assert ma.array(arraystack.ones(2), mask=mask, copy=copy).sharedmask == expected
    assert numpy.ma.array([1, 2]).sharedmask == ma.array([1, 2]).sharedmask


def test_attributes_answer_from_the_data():
    x = ma.array(DATA, mask=MASK)
    assert x.baseclass is arraystack.ndarray
    assert x.base is x.data
    assert x.device == x.data.device
    assert x.flags.c_contiguous
    assert x.ctypes.data == x.data.ctypes.data
    moved = x.to_device(x.device)
    assert moved.device == x.device and moved.mask.device == x.device


def test_setflags_keeps_the_mask_writeable():
    for m in (numpy.ma, ma):
        x = m.array(DATA, mask=MASK)
        x.setflags(write=False)
        with pytest.raises(ValueError):
            x[0, 0] = 1.0
        x[0, 0] = m.masked
        assert bool(x.mask[0, 0])


def test_dump_round_trips(tmp_path):
    x = ma.array(DATA, mask=MASK, fill_value=7.0)
    path = tmp_path / "x.pkl"
    x.dump(path)
    with open(path, "rb") as handle:
        same(numpy.ma.array(DATA, mask=MASK, fill_value=7.0), pickle.load(handle))
    buffer = io.BytesIO()
    x.dump(buffer)
    same(numpy.ma.array(DATA, mask=MASK, fill_value=7.0), pickle.loads(buffer.getvalue()))


def test_deprecated_names_do_not_warn():
    for m in (numpy.ma, ma):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            x = m.array(DATA, mask=MASK)
            x.set_fill_value(2.0)
            assert x.get_fill_value() == 2.0


ERRORS = {
    "view_masked_new_size": (ValueError, lambda m: m.array(DATA, mask=MASK).view(numpy.int32)),
    "getfield_too_large": (ValueError, lambda m: m.array(DATA).getfield(numpy.int64, 4)),
    "setfield_too_large": (ValueError, lambda m: m.array(DATA).setfield(1, numpy.int64, 4)),
    "tofile": (NotImplementedError, lambda m: m.array(DATA).tofile("unused")),
    "recordmask_setter": (
        NotImplementedError,
        lambda m: setattr(m.array(DATA, mask=MASK), "recordmask", MASK),
    ),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors(name):
    error, fn = ERRORS[name]
    for m in (numpy.ma, ma):
        with pytest.raises(error):
            fn(m)
