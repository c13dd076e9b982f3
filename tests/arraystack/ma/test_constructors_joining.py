"""arraystack.ma's constructors (_constructors.py) and joining functions (_joining.py) against numpy.ma."""

import numpy
import pytest

from arraystack import ma
from tests.arraystack.ma.test_ma import same

DATA = [[3.0, -1.0, 2.0], [6.0, 0.0, 4.0]]
MASK = [[0, 1, 0], [1, 0, 0]]
INPUTS = {
    "masked": lambda m: m.array(DATA, mask=MASK, fill_value=-7.0),
    "nomask": lambda m: m.array(DATA),
    "list": lambda m: DATA,
}

CALLS = {
    "zeros_like": lambda m, x: m.zeros_like(x),
    "ones_like_dtype": lambda m, x: m.ones_like(x, dtype=numpy.float32),
    "empty_like_mask": lambda m, x: m.getmaskarray(m.empty_like(x)),
    "asarray": lambda m, x: m.asarray(x),
    "asanyarray": lambda m, x: m.asanyarray(x),
    "masked_all_like": lambda m, x: m.masked_all_like(x),
    "diag": lambda m, x: m.diag(x),
    "diag_k": lambda m, x: m.diag(x, 1),
    "diag_build": lambda m, x: m.diag(m.array(x)[0]),
    "diagflat": lambda m, x: m.diagflat(x),
    "masked_object": lambda m, x: m.masked_object(x, 2.0),
    "append": lambda m, x: m.append(x, x),
    "append_axis": lambda m, x: m.append(x, x, axis=0),
    "hstack": lambda m, x: m.hstack([x, x]),
    "vstack": lambda m, x: m.vstack([x, x]),
    "row_stack": lambda m, x: m.row_stack([x, x]),
    "dstack": lambda m, x: m.dstack([x, x]),
    "column_stack": lambda m, x: m.column_stack([x, x]),
    "atleast_1d": lambda m, x: m.atleast_1d(x),
    "atleast_3d": lambda m, x: m.atleast_3d(x),
    "hsplit": lambda m, x: m.hsplit(x, 3),
    "mr_": lambda m, x: m.mr_[m.array(x)[0], 1:3, 9.0],
}


@pytest.mark.parametrize("kind", sorted(INPUTS))
@pytest.mark.parametrize("name", sorted(CALLS))
def test_matches_numpy_ma(name, kind):
    expected = CALLS[name](numpy.ma, INPUTS[kind](numpy.ma))
    got = CALLS[name](ma, INPUTS[kind](ma))
    same(expected, got)


CREATED = {
    "identity": lambda m: m.identity(3),
    "identity_fill": lambda m: m.identity(2, fill_value=3),
    "indices": lambda m: m.indices((2, 3)),
    "fromfunction": lambda m: m.fromfunction(lambda i, j: i + j, (2, 3)),
    "frombuffer": lambda m: m.frombuffer(numpy.arange(3.0).tobytes()),
    "masked_all": lambda m: m.masked_all((2, 2), dtype=numpy.int32),
    "masked_all_float": lambda m: m.masked_all(3),
    "atleast_2d_many": lambda m: m.atleast_2d([1, 2], m.array([3.0, 4.0], mask=[1, 0]))[1],
    "masked_singleton": lambda m: m.masked_singleton,
}


@pytest.mark.parametrize("name", sorted(CREATED))
def test_created_matches_numpy_ma(name):
    expected, got = CREATED[name](numpy.ma), CREATED[name](ma)
    if name == "masked_all" or name == "masked_all_float":
        assert repr(expected.mask) == repr(numpy.asarray(got.mask))
        assert expected.dtype == got.dtype and expected.shape == got.shape
        return
    same(expected, got)


def test_asanyarray_returns_its_masked_input():
    x = ma.array([1.0, 2.0], mask=[0, 1])
    assert ma.asanyarray(x) is x
    assert ma.asarray(x) is not x and ma.asarray(x).mask.tolist() == [False, True]


def test_object_arrays_mask_by_identity_of_value():
    values = numpy.array(["a", "b", "a"], dtype=object)
    expected, got = numpy.ma.masked_object(values, "a"), ma.masked_object(values, "a")
    assert repr(expected) == repr(got)  # the values are strings: compared as printed
