"""Function forms of MaskedArray methods (arraystack.ma._function_forms, _selection) against numpy.ma."""

import numpy
import pytest

from arraystack import ma
from tests.arraystack.ma.test_ma import same

DATA = [[3.0, -1.0, 2.0], [6.0, 0.0, 4.0]]
MASK = [[0, 1, 0], [1, 0, 0]]
SQUARE = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
SQUARE_MASK = [[0, 0, 1], [0, 1, 0], [0, 0, 0]]
INPUTS = {
    "masked": lambda m: m.array(DATA, mask=MASK, fill_value=-7.0),
    "nomask": lambda m: m.array(DATA),
    "all_masked_row": lambda m: m.array(DATA, mask=[[1, 1, 1], [0, 0, 1]]),
    "list": lambda m: DATA,
}

CALLS = {
    "sum": lambda m, x: m.sum(x),
    "sum0": lambda m, x: m.sum(x, axis=0),
    "sum_keep": lambda m, x: m.sum(x, axis=1, keepdims=True),
    "prod1": lambda m, x: m.prod(x, 1),
    "product": lambda m, x: m.product(x, axis=0),
    "mean": lambda m, x: m.mean(x),
    "mean1": lambda m, x: m.mean(x, axis=1),
    "var": lambda m, x: m.var(x, axis=0),
    "var_ddof": lambda m, x: m.var(x, ddof=1),
    "std": lambda m, x: m.std(x, axis=1),
    "min": lambda m, x: m.min(x),
    "min1": lambda m, x: m.min(x, axis=1),
    "max0": lambda m, x: m.max(x, axis=0, keepdims=True),
    "amax": lambda m, x: m.amax(x, axis=1),
    "amin": lambda m, x: m.amin(x),
    "ptp": lambda m, x: m.ptp(x, axis=1),
    "argmin": lambda m, x: m.argmin(x, axis=1),
    "argmax": lambda m, x: m.argmax(x),
    "all": lambda m, x: m.all(x, axis=0),
    "any": lambda m, x: m.any(m.greater(x, 3)),
    "alltrue": lambda m, x: m.alltrue(x),
    "alltrue_none": lambda m, x: m.alltrue(x, axis=None),
    "sometrue": lambda m, x: m.sometrue(m.greater(x, 3), axis=1),
    "cumsum": lambda m, x: m.cumsum(x, axis=1),
    "cumprod": lambda m, x: m.cumprod(x),
    "anom": lambda m, x: m.anom(x),
    "anomalies1": lambda m, x: m.anomalies(x, axis=1),
    "ravel": lambda m, x: m.ravel(x),
    "reshape": lambda m, x: m.reshape(x, (3, 2)),
    "resize": lambda m, x: m.resize(x, (3, 3)),
    "repeat": lambda m, x: m.repeat(x, 2, axis=1),
    "repeat_flat": lambda m, x: m.repeat(x, 2),
    "squeeze": lambda m, x: m.squeeze(m.reshape(x, (1, 2, 3))),
    "swapaxes": lambda m, x: m.swapaxes(x, 0, 1),
    "transpose": lambda m, x: m.transpose(x),
    "take": lambda m, x: m.take(x, [0, 2], axis=1),
    "take_scalar": lambda m, x: m.take(x, 1),
    "take_scalar_unmasked": lambda m, x: m.take(x, 0),
    "diagonal": lambda m, x: m.diagonal(x),
    "trace": lambda m, x: m.trace(x),
    "round": lambda m, x: m.round(m.multiply(x, 0.37), 1),
    "round_": lambda m, x: m.round_(x),
    "compress": lambda m, x: m.compress([True, False, True], x, axis=1),
    "copy": lambda m, x: m.copy(x),
    "shape": lambda m, x: m.shape(x),
    "size": lambda m, x: m.size(x, 1),
    "ndim": lambda m, x: m.ndim(x),
    "diff": lambda m, x: m.diff(x),
    "diff2_axis0": lambda m, x: m.diff(x, n=1, axis=0),
    "diff_prepend": lambda m, x: m.diff(x, axis=1, prepend=0, append=[[1.0], [2.0]]),
    "expand_dims": lambda m, x: m.expand_dims(x, 1),
    "choose": lambda m, x: m.choose([0, 1, 0], [m.array(x)[0], m.array(x)[1]]),
}


@pytest.mark.parametrize("kind", sorted(INPUTS))
@pytest.mark.parametrize("name", sorted(CALLS))
def test_function_form_matches_numpy_ma(name, kind):
    expected = CALLS[name](numpy.ma, INPUTS[kind](numpy.ma))
    got = CALLS[name](ma, INPUTS[kind](ma))
    same(expected, got)


@pytest.mark.parametrize("kind", ["masked", "nomask"])
def test_nonzero_trace_on_square(kind):
    mask = SQUARE_MASK if kind == "masked" else numpy.ma.nomask
    expected_x = numpy.ma.array(SQUARE, mask=mask)
    got_x = ma.array(SQUARE, mask=mask)
    for fn in (
        lambda m, x: m.trace(x),
        lambda m, x: m.trace(x, offset=1),
        lambda m, x: m.diagonal(x, 1),
    ):
        same(fn(numpy.ma, expected_x), fn(ma, got_x))
    for e, g in zip(numpy.ma.nonzero(expected_x), ma.nonzero(got_x)):
        numpy.testing.assert_array_equal(e, numpy.asarray(g))


def test_put_and_putmask_write_data_and_mask():
    for m in (numpy.ma, ma):
        x = m.array([1.0, 2.0, 3.0, 4.0], mask=[0, 1, 0, 0])
        m.put(x, [1, 3], m.array([9.0, 8.0], mask=[0, 1]))
        y = m.array([1.0, 2.0, 3.0, 4.0], mask=[0, 1, 0, 0])
        m.putmask(y, [True, True, False, False], m.array([5.0, 6.0, 7.0, 8.0], mask=[1, 0, 0, 0]))
        z = m.array([1.0, 2.0, 3.0])
        m.putmask(z, [False, True, True], 0.5)
        h = m.array([1.0, 2.0, 3.0], mask=[0, 1, 0], hard_mask=True)
        m.put(h, [0, 1], [7.0, 7.0])
        if m is numpy.ma:
            expected = (x, y, z, h)
    for e, g in zip(expected, (x, y, z, h)):
        same(e, g)


def test_harden_soften_and_ids():
    x = ma.array([1.0, 2.0], mask=[0, 1])
    assert ma.harden_mask(x) is x and x.hardmask
    assert ma.soften_mask(x) is x and not x.hardmask
    assert ma.ids(x) == (id(x._data), id(x._mask))


def test_errors_are_numpys():
    x = ma.array(DATA, mask=MASK)
    with pytest.raises(ValueError):
        x.resize((3, 3))
    with pytest.raises(ValueError):
        ma.diff(x, n=-1)
    with pytest.raises(ValueError):
        ma.diff(ma.array(1.0))
    with pytest.raises(IndexError):
        ma.take(x, 10)


def test_function_forms_trace_under_jit():
    import arraystack as np

    @np.jit
    def f(x):
        return ma.sum(ma.anom(x, axis=1), axis=0) + ma.take(x, 0, axis=0) * ma.trace(x)

    def reference(m, x):
        return m.sum(m.anom(x, axis=1), axis=0) + m.take(x, 0, axis=0) * m.trace(x)

    mask = [[0, 1, 0], [0, 0, 1], [0, 0, 0]]
    got = f(ma.array(SQUARE, mask=mask, dtype=float))
    expected = reference(numpy.ma, numpy.ma.array(SQUARE, mask=mask, dtype=float))
    assert got.mask.tolist() == expected.mask.tolist()
    numpy.testing.assert_allclose(numpy.asarray(got.filled(0)), expected.filled(0))
