"""MaskedArray's value methods (arraystack/ma/_values.py) and flat iterator against numpy.ma's."""

import warnings

import numpy
import pytest

from arraystack import ma
from tests.arraystack.ma.test_ma import same

DATA = [[3.0, -1.0, 2.0], [6.0, 0.0, 4.0]]
MASK = [[0, 1, 0], [1, 0, 0]]
COMPLEX = [1 + 2j, -3j, 2.5 + 0j]


def inputs(m):
    """The same masked and unmasked arrays, built with numpy.ma or arraystack.ma."""
    return {
        "masked": m.array(DATA, mask=MASK, fill_value=7.0),
        "unmasked": m.array(DATA),
        "complex": m.array(COMPLEX, mask=[0, 1, 0], fill_value=5),
        "ints": m.array([[0, 1, 0], [1, 1, 0]], mask=MASK),
    }


CASES = {
    "real": lambda m, x: x.real,
    "imag": lambda m, x: x.imag,
    "get_real": lambda m, x: x.get_real(),
    "get_imag": lambda m, x: x.get_imag(),
    "conj": lambda m, x: x.conj(),
    "conjugate": lambda m, x: x.conjugate(),
    "clip": lambda m, x: x.clip(0, 3),
    "clip_max": lambda m, x: x.clip(max=3),
    "clip_masked_bound": lambda m, x: x.clip(m.array([1, 1, 1], mask=[0, 0, 1]), 3),
    "item_masked": lambda m, x: x.item(1),
    "item_index": lambda m, x: x.item(0),
    "item_tuple": lambda m, x: x.item((1, 2)) if x.ndim == 2 else x.item(2),
    "choose": lambda m, x: m.array([0, 1, 0], mask=[0, 1, 0]).choose([[1.0, 2, 3], [4, 5, 6]]),
    "choose_masked_choices": lambda m, x: m.array([0, 1, 0]).choose(
        [m.array([1, 2, 3], mask=[1, 0, 0]), [4, 5, 6]]
    ),
    "choose_broadcast": lambda m, x: m.array([[0], [1]], mask=[[0], [1]]).choose(
        [[1.0, 2, 3], [4, 5, 6]]
    ),
    "choose_ints": lambda m, x: x.choose([10, 20]) if x.dtype.kind == "i" else x,
    "dot": lambda m, x: x.dot(x.T),
    "dot_strict": lambda m, x: x.dot(x.T, strict=True),
    "searchsorted": lambda m, x: x.ravel().searchsorted(2.5),
    "searchsorted_masked": lambda m, x: m.array([1, 2, 3, 4], mask=[0, 1, 0, 0]).searchsorted(
        m.array([2.5, 0], mask=[0, 1]), side="right"
    ),
    "argpartition": lambda m, x: x.argpartition(1),
    "argpartition_flat": lambda m, x: x.argpartition(1, axis=None),
    "mT": lambda m, x: x.mT if x.ndim == 2 else x,
    "flat_list": lambda m, x: list(x.flat),
    "flat_slice": lambda m, x: x.flat[1:4],
    "flat_int": lambda m, x: x.flat[1],
    "flat_first": lambda m, x: x.flat[0],
    "flat_fancy": lambda m, x: x.flat[[0, 1]],
    "flat_masked_index": lambda m, x: x.flat[m.array([0, 2], mask=[0, 1])],
}


def check(expected, got):
    if expected is None:
        assert got is None
        return
    if isinstance(expected, list):
        assert len(expected) == len(got)
        for e, g in zip(expected, got):
            same(e, g)
        return
    same(expected, got)


@pytest.mark.parametrize("kind", ["masked", "unmasked", "complex", "ints"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_value_method(name, kind):
    fn = CASES[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = fn(numpy.ma, inputs(numpy.ma)[kind])
        got = fn(ma, inputs(ma)[kind])
    check(expected, got)


MUTATIONS = {
    "fill": lambda m, x: x.fill(9),
    "fill_masked_constant": lambda m, x: x.fill(m.masked),
    "partition": lambda m, x: x.partition(1),
    "flat_assign_scalar": lambda m, x: setattr(x, "flat", 5),
    "flat_assign_masked": lambda m, x: setattr(x, "flat", m.masked),
    "flat_assign_array": lambda m, x: setattr(
        x, "flat", m.array(numpy.arange(x.size), mask=[1] + [0] * (x.size - 1))
    ),
    "flat_setitem": lambda m, x: x.flat.__setitem__(slice(1, 3), m.array([10, 20], mask=[0, 1])),
    "flat_setitem_masked": lambda m, x: x.flat.__setitem__([0], m.masked),
    "dot_out": lambda m, x: x.dot(x.T) if x.ndim == 1 else m.dot(x, x.T),
}


@pytest.mark.parametrize("kind", ["masked", "unmasked", "complex"])
@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_in_place_method(name, kind):
    fn = MUTATIONS[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected, got = inputs(numpy.ma)[kind], inputs(ma)[kind]
        expected_result, got_result = fn(numpy.ma, expected), fn(ma, got)
    check(expected_result, got_result)
    same(expected, got)


def test_dot_out():
    expected_out = numpy.ma.zeros((2, 2))
    got_out = ma.zeros((2, 2))
    numpy_x = inputs(numpy.ma)["masked"]
    x = inputs(ma)["masked"]
    assert numpy_x.dot(numpy_x.T, out=expected_out) is expected_out
    assert x.dot(x.T, out=got_out) is got_out
    same(expected_out, got_out)


@pytest.mark.parametrize("name", ["partition", "argpartition"])
def test_partitions_warn(name):
    x = inputs(ma)["masked"]
    with pytest.warns(UserWarning, match=f"'{name}' will ignore the 'mask' of the MaskedArray"):
        getattr(x, name)(1)


def test_flat_iterates_with_next():
    expected = numpy.ma.array([3, 2], mask=[0, 1]).flat
    got = ma.array([3, 2], mask=[0, 1]).flat
    same(next(expected), next(got))
    assert next(got) is ma.masked
    with pytest.raises(StopIteration):
        next(got)


def test_errors():
    for m in (numpy.ma, ma):
        with pytest.raises(ValueError, match="ndim < 2"):
            _ = m.array([1, 2]).mT
        with pytest.raises(ValueError):
            m.array(DATA, mask=MASK).flat = [1, 2, 3]
