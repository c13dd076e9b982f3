"""`out=` of masked arrays' methods and functions against numpy.ma: the result is written into `out` (its
data; a masked `out` also gets the mask) and `out` is returned; an `out` of the wrong shape or of a
dtype the result cannot be cast to raises, as NumPy's does. They ignored `out` and returned a new array."""

import numpy
import pytest

import arraystack

DATA = [[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]]
MASK = [[0, 1, 0], [1, 1, 0]]

CALLS = {
    "sum": (lambda m, o: m.sum(axis=0, out=o), (3,)),
    "prod": (lambda m, o: m.prod(axis=1, out=o), (2,)),
    "max": (lambda m, o: m.max(axis=0, out=o), (3,)),
    "min": (lambda m, o: m.min(axis=1, out=o), (2,)),
    "ptp": (lambda m, o: m.ptp(axis=0, out=o), (3,)),
    "cumsum": (lambda m, o: m.cumsum(axis=1, out=o), (2, 3)),
    "cumprod": (lambda m, o: m.cumprod(axis=0, out=o), (2, 3)),
    "any": (lambda m, o: m.any(axis=0, out=o), (3,)),
    "argmax": (lambda m, o: m.argmax(axis=1, out=o), (2,)),
    "round": (lambda m, o: m.round(1, out=o), (2, 3)),
    "take": (lambda m, o: m.take([0, 2], axis=1, out=o), (2, 2)),
    "clip": (lambda m, o: m.clip(-1.0, 2.0, out=o), (2, 3)),
}
DTYPES = {"any": "bool", "argmax": "int64"}


@pytest.mark.parametrize("masked_out", [False, True], ids=["ndarray out", "masked out"])
@pytest.mark.parametrize("name", sorted(CALLS))
def test_the_result_is_written_into_out(name, masked_out):
    call, shape = CALLS[name]
    dtype = DTYPES.get(name, "float64")
    seen = []
    for xp in (numpy, arraystack):
        m = xp.ma.array(DATA, mask=MASK)
        out = xp.ma.zeros(shape, dtype=dtype) if masked_out else xp.zeros(shape, dtype=dtype)
        result = call(m, out)
        assert result is out or xp is numpy  # numpy.ma's take returns a view of out
        mask = xp.ma.getmaskarray(out).tolist() if masked_out else None
        data = numpy.asarray(out.filled(0) if masked_out else out)
        if not masked_out:  # where the result is masked NumPy leaves values of its own choosing
            keep = ~numpy.asarray(xp.ma.getmaskarray(call(m, None)))
            data = numpy.where(keep, data, 0)
        seen.append((data.tolist(), mask))
    assert seen[0] == seen[1]


@pytest.mark.parametrize("out", [lambda xp: xp.zeros(7), lambda xp: xp.zeros((2, 3))])
def test_an_out_of_the_wrong_shape_raises(out):
    for xp in (numpy, arraystack):
        with pytest.raises(ValueError):
            xp.ma.array(DATA, mask=MASK).sum(axis=0, out=out(xp))


def test_functions_pass_out_through():
    m = arraystack.ma.array(DATA, mask=MASK)
    for function, args in ((arraystack.ma.sum, {"axis": 0}), (arraystack.ma.median, {"axis": 0})):
        out = arraystack.ma.zeros(3)
        assert function(m, out=out, **args) is out
        expected = function(m, **args)
        assert out.mask.tolist() == arraystack.ma.getmaskarray(expected).tolist()


MASKS = {
    "some": [[0, 1, 0], [0, 0, 1]],
    "none": numpy.ma.nomask,
    "all": [[1, 1, 1], [1, 1, 1]],
    "a column": [[1, 0, 0], [1, 0, 0]],
}
OUTS = {
    "(1, 3)": lambda xp: xp.zeros((1, 3)),
    "(2,)": lambda xp: xp.zeros(2),
    "int32 (3,)": lambda xp: xp.zeros(3, dtype=numpy.int32),
    "(4,)": lambda xp: xp.zeros(4),
    "masked (3,)": lambda xp: xp.ma.zeros((3,)),
    "0-d": lambda xp: xp.zeros(()),
    "int64 (3,)": lambda xp: xp.zeros(3, dtype=numpy.int64),
}


def _outcome(xp, mask, name, axis, out):
    m = xp.ma.masked_array(numpy.arange(6.0).reshape(2, 3), mask=mask)
    o = OUTS[out](xp)
    try:
        with numpy.errstate(all="ignore"):
            result = getattr(m, name)(axis=axis, out=o)
    except Exception as e:  # noqa: BLE001  (the exception type is the outcome compared)
        return type(e).__name__
    data = numpy.asarray(o.data if isinstance(o, xp.ma.MaskedArray) else o)
    return repr(data.tolist()), xp.ma.getmaskarray(o).tolist(), result is o


@pytest.mark.parametrize("out", sorted(OUTS))
@pytest.mark.parametrize("mask", sorted(MASKS))
@pytest.mark.parametrize("axis", [0, None])
@pytest.mark.parametrize(
    "name", ["mean", "var", "std", "sum", "prod", "max", "min", "ptp", "argmax", "any", "all"]
)
def test_out_of_any_shape_as_numpy_ma(name, axis, mask, out):
    """numpy.ma's mean writes `out.flat = result` (an out of any size: repeated or cut), and so do
    var and std of an array with a mask; the other reductions check out's shape as NumPy's
    reductions do and cast into it; min and max put NaN under the mask of a float out and refuse an
    integer one; a fully masked prod or all writes the identity."""
    want = _outcome(numpy, MASKS[mask], name, axis, out)
    if want == "AttributeError":
        pytest.skip("numpy.ma's var(axis=None, out=) of a masked array fails in NumPy itself")
    assert _outcome(arraystack, MASKS[mask], name, axis, out) == want
