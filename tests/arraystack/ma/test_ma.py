"""arraystack.ma against numpy.ma: values, masks, fill values and printed text; jit, grad and vmap."""

import numpy
import pytest

import arraystack as np
from arraystack import ma

DATA = [[3.0, -1.0, 2.0], [6.0, 0.0, 4.0]]
MASK = [[0, 1, 0], [1, 0, 0]]


def both(fn):
    """fn run on numpy.ma and arraystack.ma with the same masked input."""
    return fn(numpy.ma, numpy.ma.array(DATA, mask=MASK)), fn(ma, ma.array(DATA, mask=MASK))


def same(expected, got):
    if expected is numpy.ma.masked:
        assert got is ma.masked
        return
    assert repr(expected) == repr(got)  # NumPy's scalars too: a 0-d result is a scalar result
    if isinstance(expected, numpy.ma.MaskedArray):
        assert isinstance(got, ma.MaskedArray)
        numpy.testing.assert_array_equal(
            numpy.ma.getmaskarray(expected), numpy.asarray(ma.getmaskarray(got))
        )
        numpy.testing.assert_allclose(expected.filled(0), numpy.asarray(got.filled(0)))
        assert expected.fill_value == got.fill_value
    else:
        numpy.testing.assert_allclose(numpy.asarray(expected), numpy.asarray(got))


CASES = {
    "repr": lambda m, x: x,
    "add": lambda m, x: x + 1,
    "radd": lambda m, x: 1 + x,
    "mul_self": lambda m, x: x * x,
    "divide_zero": lambda m, x: x / x[:, 1:2],
    "floor_divide": lambda m, x: x // 2,
    "pow": lambda m, x: x**0.5,
    "sqrt": lambda m, x: m.sqrt(x),
    "log": lambda m, x: m.log(x),
    "arcsin": lambda m, x: m.arcsin(x / 6),
    "eq": lambda m, x: x == x + 0,
    "lt": lambda m, x: x < 3,
    "neg": lambda m, x: -x,
    "sum": lambda m, x: x.sum(),
    "sum0": lambda m, x: x.sum(0),
    "sum_keep": lambda m, x: x.sum(1, keepdims=True),
    "prod": lambda m, x: x.prod(1),
    "mean": lambda m, x: x.mean(),
    "mean0": lambda m, x: x.mean(0),
    "var": lambda m, x: x.var(1),
    "std": lambda m, x: x.std(),
    "min": lambda m, x: x.min(1),
    "max0": lambda m, x: x.max(0),
    "argmin": lambda m, x: x.argmin(1),
    "argmax": lambda m, x: x.argmax(),
    "any": lambda m, x: (x > 3).any(1),
    "all": lambda m, x: (x > -5).all(0),
    "cumsum": lambda m, x: x.cumsum(),
    "cumsum1": lambda m, x: x.cumsum(1),
    "count": lambda m, x: x.count(0),
    "filled": lambda m, x: x.filled(),
    "filled9": lambda m, x: x.filled(9),
    "compressed": lambda m, x: x.compressed(),
    "getitem_masked": lambda m, x: x[0, 1],
    "getitem_row": lambda m, x: x[1],
    "slice": lambda m, x: x[:, 1:],
    "clip_masked_bound": lambda m, x: m.clip(x, m.array([0.0, 1.0, 0.0], mask=[0, 1, 0]), 3.5),
    # a masked index indexes by its data, its mask ignored (numpy.ma's rule)
    "getitem_masked_bool": lambda m, x: x[m.array([True, False], mask=[0, 1])],
    "getitem_masked_ints": lambda m, x: x[1, m.array([2, 0], mask=[1, 0])],
    "getitem_masked_bool_1d": lambda m, x: x[0][m.array([True, True, False], mask=[0, 1, 0])],
    "T": lambda m, x: x.T,
    "reshape": lambda m, x: x.reshape(3, 2),
    "ravel": lambda m, x: x.ravel(),
    "astype": lambda m, x: x.astype(numpy.int32).filled(),
    "sort": lambda m, x: m.sort(x, axis=1),
    "argsort": lambda m, x: m.argsort(x, axis=1),
    "median": lambda m, x: m.median(x, axis=1),
    "average_w": lambda m, x: m.average(x, axis=0, weights=[1.0, 2.0]),
    "concatenate": lambda m, x: m.concatenate([x, x], axis=1),
    "stack": lambda m, x: m.stack([x, x]),
    "where": lambda m, x: m.where(x > 2, x, 0),
    "clip": lambda m, x: m.clip(x, 0, 3),
    "dot": lambda m, x: m.dot(x, x.T),
    "masked_where": lambda m, x: m.masked_where(x > 3, x),
    "masked_equal": lambda m, x: m.masked_equal([1, 2, 3], 2),
    "masked_inside": lambda m, x: m.masked_inside(numpy.arange(6), 4, 1),
    "masked_outside": lambda m, x: m.masked_outside(numpy.arange(6.0), 1, 4),
    "masked_values": lambda m, x: m.masked_values([1.0, 1.1, 2.0], 1.1),
    "masked_invalid": lambda m, x: m.masked_invalid([1.0, numpy.nan, numpy.inf]),
    "fix_invalid": lambda m, x: m.fix_invalid([1.0, numpy.nan, 2.0]),
    "masked_greater": lambda m, x: m.masked_greater(x, 2),
    "apply_along_axis": lambda m, x: m.apply_along_axis(lambda v: v.sum(), 1, x),
    "int_array": lambda m, x: m.array([1, 2, 3], mask=[0, 1, 0]) * 2,
    "fill_value": lambda m, x: m.array([1.0, 2.0], mask=[1, 0], fill_value=-1).filled(),
    "var_all": lambda m, x: x.var(),
    "ptp": lambda m, x: x.ptp(),
    "ptp0": lambda m, x: x.ptp(0),
    "median_all": lambda m, x: m.median(x),
    "average_all": lambda m, x: m.average(x),
    "mean_unmasked": lambda m, x: m.array([1.0, 5.0]).mean(),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_numpy_ma(name):
    expected, got = both(CASES[name])
    same(expected, got)


def test_fully_masked_reductions_are_masked():
    x = ma.array([1.0, 2.0], mask=[1, 1])
    assert x.sum() is ma.masked and x.mean() is ma.masked and x.max() is ma.masked
    assert repr(ma.masked) == "masked" and str(ma.masked) == "--"


def test_printing_and_tolist():
    x = ma.array([[1, 2], [3, 4]], mask=[[0, 1], [1, 0]])
    y = numpy.ma.array([[1, 2], [3, 4]], mask=[[0, 1], [1, 0]])
    assert repr(x) == repr(y) and str(x) == str(y)
    assert x.tolist() == y.tolist() == [[1, None], [None, 4]]


def test_setitem_masked_and_views_share_mask():
    x = ma.array([1.0, 2.0, 3.0, 4.0], mask=[0, 0, 0, 1])
    view = x[1:]
    view[0] = ma.masked
    assert x.mask.tolist() == [False, True, False, True]
    x[3] = 7.0
    assert x.tolist() == [1.0, None, 3.0, 7.0]
    x.harden_mask()
    x[1] = 5.0
    assert x.tolist() == [1.0, None, 3.0, 7.0]
    x.soften_mask()
    x[1] = 5.0
    assert x.tolist() == [1.0, 5.0, 3.0, 7.0]


def test_numpy_functions_keep_the_mask():
    x = ma.array([1.0, 2.0, 3.0], mask=[0, 1, 0])
    assert float(numpy.sum(x)) == 4.0
    assert float(numpy.mean(x)) == 2.0
    assert numpy.sin(x).mask.tolist() == [False, True, False]
    logged = numpy.log(ma.array([-1.0, 2.0]))
    assert logged.mask.tolist() == [True, False]


def test_errors_are_numpys():
    with pytest.raises(ma.MaskError, match="Mask and data not compatible"):
        ma.array([1, 2, 3], mask=[0, 1])
    with pytest.raises(TypeError):
        ma.array([1, 2, 3], fill_value="x")
    with pytest.raises(IndexError):
        ma.masked_where([True, False], [1, 2, 3])
    assert issubclass(ma.MaskError, ma.MAError)


def test_default_fill_values():
    for dtype in ("int8", "uint16", "float32", "complex64", "bool"):
        assert ma.default_fill_value(numpy.dtype(dtype)) == numpy.ma.default_fill_value(
            numpy.dtype(dtype)
        )
        assert ma.array([1], dtype=dtype).fill_value == numpy.ma.array([1], dtype=dtype).fill_value


@pytest.mark.parametrize(
    "fn",
    [
        lambda m: m.sin(m.array([1, 2], mask=[0, 1])),  # int in, float out: float's default
        lambda m: m.array([1, 2], mask=[0, 1]) / 2,
        lambda m: m.array([1, 2]).astype(float),
        lambda m: m.array([1, 2], fill_value=5).astype(float),  # a chosen fill value is cast
        lambda m: m.array([1.5], mask=[1]).astype(int),
        lambda m: m.array([1.5], fill_value=2.5).astype(int),
        lambda m: m.array([1.5]).astype(numpy.float32),
        lambda m: m.array([1]).astype(numpy.int8),  # the default stays the widest type's
        lambda m: m.array([1], fill_value=3).astype(numpy.int8),
    ],
)
def test_fill_value_across_a_dtype_change(fn):
    expected, got = fn(numpy.ma), fn(ma)
    assert repr(got.fill_value) == repr(expected.fill_value)


def test_jit_takes_and_returns_a_masked_array():
    @np.jit
    def f(x):
        return ma.sqrt(x) * 2 + x.sum()

    x = ma.array([4.0, -1.0, 9.0, 16.0], mask=[0, 0, 1, 0])
    got = f(x)
    expected = numpy.ma.sqrt(numpy.ma.array([4.0, -1.0, 9.0, 16.0], mask=[0, 0, 1, 0])) * 2 + 19.0
    assert isinstance(got, ma.MaskedArray)
    assert got.mask.tolist() == expected.mask.tolist()
    numpy.testing.assert_allclose(numpy.asarray(got.filled(0)), expected.filled(0))


def test_grad_through_a_masked_mean():
    mask = np.asarray([False, True, False])

    def loss(data):
        return ma.MaskedArray._new(data, mask).mean()

    g = np.grad(loss)(np.asarray([1.0, 2.0, 3.0]))
    numpy.testing.assert_allclose(numpy.asarray(g), [0.5, 0.0, 0.5])


def test_vmap_over_a_batch_of_masked_arrays():
    data = np.asarray([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    mask = np.asarray([[False, True, False], [True, False, False]])
    batch = ma.MaskedArray._new(data, mask)
    sums = np.vmap(lambda x: x.sum())(batch)
    numpy.testing.assert_allclose(numpy.asarray(getattr(sums, "_data", sums)), [4.0, 11.0])
