"""Indexing against NumPy: x[key] (basic, advanced, boolean; eager and traced), views that alias the
buffer, NumPy's errors, and nonzero/argwhere/flatnonzero. Assignment is in test_indexing_update.py."""

from __future__ import annotations

import numpy
import pytest
from arraystack.ir import ShapedArray, make_graph
from arraystack.ir.core import ShapeDependsOnDataError

import arraystack
from arraystack._core.array import wrap
from tests.conftest import assert_same, run_traced

ARRAYS = {
    "i64_1d": numpy.arange(7),
    "f64_2d": numpy.arange(12.0).reshape(3, 4) - 5.5,
    "i32_3d": numpy.arange(24, dtype=numpy.int32).reshape(2, 3, 4),
    "f32_4d": numpy.arange(120, dtype=numpy.float32).reshape(2, 3, 4, 5),
    "f64_0d": numpy.array(3.5),
    "f32_empty": numpy.zeros((0, 3), numpy.float32),
    "i64_transposed": numpy.arange(12).reshape(3, 4).T,
    "f64_strided": numpy.arange(40.0).reshape(5, 8)[::2, 1::3],
    "u8_neg_strides": numpy.arange(10, dtype=numpy.uint8)[::-1],
    "bool_2d": numpy.array([[True, False, True], [False, False, True]]),
    "c64_2d": (numpy.arange(6) + 1j * numpy.arange(6)[::-1]).astype(numpy.complex64).reshape(2, 3),
}

BASIC_KEYS = {
    "int": 0,
    "neg_int": -1,
    "int_oob": 5,
    "neg_int_oob": -8,
    "ints": (1, -2),
    "ints3": (1, 2, -1),
    "numpy_int": numpy.int64(1),
    "zero_d_int_array": numpy.array(1),
    "full_slice": slice(None),
    "start": slice(1, None),
    "reverse": slice(None, None, -1),
    "step2": slice(None, None, 2),
    "neg_step2": slice(-2, None, -2),
    "neg_step_bounds": slice(5, 1, -2),
    "huge_bounds": slice(-10, 10, 3),
    "empty_slice": slice(2, 2),
    "backwards_empty": slice(3, 1),
    "slice_int": (slice(None), 1),
    "two_slices": (slice(None, None, -1), slice(1, 3)),
    "int_neg_slice": (1, slice(None, None, -2)),
    "ellipsis": Ellipsis,
    "ellipsis_int": (Ellipsis, 0),
    "int_ellipsis": (0, Ellipsis),
    "ellipsis_reverse": (Ellipsis, slice(None, None, -1)),
    "newaxis": None,
    "newaxis_ellipsis_newaxis": (None, Ellipsis, None),
    "int_newaxis_slice": (0, None, slice(1, None)),
    "slice_newaxis_int": (slice(None), None, -1),
    "empty_tuple": (),
    "too_many": (0, 0, 0, 0, 0),
    "two_ellipses": (Ellipsis, Ellipsis),
    "float": 1.0,
    "string": "a",
    "slice_float": slice(0, 1.5),
    "step_zero": slice(None, None, 0),
}

ADVANCED_KEYS = {
    "list": [0, -1],
    "list_repeated": [1, 0, 1, 1],
    "nested_list": [[1, 0], [0, 0]],
    "empty_list": [],
    "empty_array": numpy.array([], dtype=numpy.int64),
    "uint8_array": numpy.array([0, 1], numpy.uint8),
    "int8_2d_then_slice": (numpy.array([[1]], numpy.int8), slice(1, None)),
    "inner": (slice(None), [2, 0, 2]),
    "adjacent_pair": ([0, 1], [1, 2]),
    "broadcast_pair": ([[0], [1]], [0, 2, 1]),
    "separated_pair": ([0, 1], slice(None), [1, 0]),
    "inner_pair": (slice(None), [0, 1], [1, 0]),
    "ellipsis_array": (Ellipsis, [1, 0]),
    "int_slice_array": (0, slice(None), [0, 1]),
    "slice_int_array": (slice(None), 0, [0, 1]),
    "newaxis_separates": ([0, 1], None, [1, 0]),
    "newaxis_array": (None, [0, 1]),
    "empty_ellipsis_separates": ([1], Ellipsis, [0]),
    "reverse_then_array": (slice(None, None, -1), [0, -1]),
    "array_then_neg_step": ([1, 0], slice(None, None, -2)),
    "array_oob": [0, 9],
    "array_neg_oob": (slice(None), [-9]),
    "not_broadcastable": ([0, 1], [0, 1, 2]),
    "float_array": numpy.array([0.0]),
    "float_list": [0.0],
    "tuple_in_tuple": ((0, 1),),
}


def mask_keys(a):
    """Boolean keys built for `a`'s shape (some deliberately mismatched: NumPy's IndexError)."""
    grid = numpy.arange(a.size).reshape(a.shape)
    keys = {
        "full_mask": grid % 3 == 0,
        "all_false": grid < 0,
        "true": True,
        "false": numpy.False_,
        "ellipsis_true": (Ellipsis, True),
        "int_true": (0, True),
        "empty_bool": numpy.zeros(0, bool),
        "wrong_length": numpy.ones(9, bool),
    }
    if a.ndim >= 1:
        keys["leading_mask"] = numpy.arange(a.shape[0]) % 2 == 0
        keys["mask_ellipsis"] = (numpy.arange(a.shape[0]) % 2 == 1, Ellipsis)
        keys["mask_list"] = list(numpy.arange(a.shape[0]) % 2 == 0)
    if a.ndim >= 2:
        keys["second_axis_mask"] = (slice(None), numpy.arange(a.shape[1]) != 1)
        keys["mask_and_array"] = (numpy.arange(a.shape[0]) < 2, [0, 1][: min(2, a.shape[0])])
        keys["leading_2d_mask"] = (
            numpy.arange(a.shape[0] * a.shape[1]).reshape(a.shape[:2]) % 2 == 0
        )
        keys["reverse_then_mask"] = (slice(None, None, -1), numpy.arange(a.shape[1]) > 0)
    return keys


def _cases(keys):
    return [(a, k) for a in ARRAYS for k in keys]


# -- x[key] ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("array,key", _cases(BASIC_KEYS))
def test_getitem_basic(parity, array, key):
    k = BASIC_KEYS[key]
    parity(lambda xp, x: x[k], ARRAYS[array])


@pytest.mark.parametrize("array,key", _cases(ADVANCED_KEYS))
def test_getitem_advanced(parity, array, key):
    k = ADVANCED_KEYS[key]
    parity(lambda xp, x: x[k], ARRAYS[array])


@pytest.mark.parametrize("array", list(ARRAYS))
def test_getitem_boolean(parity, array):
    a = ARRAYS[array]
    for k in mask_keys(a).values():
        # concrete masks work traced too: nonzero runs at trace time
        parity(lambda xp, x, k=k: x[k], a)


@pytest.mark.parametrize(
    "key",
    [
        lambda i: i,
        lambda i: (slice(None), i),
        lambda i: (i, slice(None, None, -1), i),
        lambda i: (Ellipsis, i),
        lambda i: (i, None, 1),
    ],
)
@pytest.mark.parametrize(
    "index", [numpy.array([2, -1, 0]), numpy.array([[1], [-2]]), numpy.array(1)]
)
def test_getitem_traced_index_arrays(parity, key, index):
    """Index arrays that are graph inputs: gather with mode="raise" (negatives wrap once)."""
    parity(lambda xp, x, i: x[key(i)], ARRAYS["i32_3d"], index)


def test_getitem_arraystack_index_arrays(parity):
    a = ARRAYS["f64_2d"]
    i = arraystack.asarray([2, 0])
    parity(lambda xp, x: x[numpy.asarray(i) if xp is numpy else i, ::-1], a)
    parity(lambda xp, x: x[x > 0], a, traced=False)
    parity(lambda xp, x: x[xp.asarray(1)], a)
    parity(lambda xp, x: x[1 : xp.asarray(3)], a)


def test_getitem_traced_out_of_bounds_raises():
    # a traced index is checked when the graph runs
    # (tests/arraystack/indexing/test_indexing_bounds.py has more)
    a = numpy.arange(5.0)
    with pytest.raises(IndexError, match="index 7 is out of bounds for axis 0 with size 5"):
        run_traced(lambda xp, x, i: x[i], a, numpy.array([7, -9, -1]))
    with pytest.raises(IndexError, match="index -9 is out of bounds for axis 0 with size 5"):
        run_traced(lambda xp, x, i: x[i], a, numpy.array([2, -9, -1]))


def test_getitem_traced_mask_needs_static_shape():
    a = ARRAYS["f64_2d"]
    with pytest.raises(ShapeDependsOnDataError, match="size="):
        run_traced(lambda xp, x, m: x[m], a, a > 0)
    with pytest.raises(ShapeDependsOnDataError):
        run_traced(lambda xp, x, m: x[m], a, numpy.array(True))


def primitives(fn, a):
    graph, _ = make_graph(lambda t: [fn(wrap(t))._value], [ShapedArray(a.shape, a.dtype)])
    return [e.prim.name for e in graph.eqns]


def test_traced_basic_indexing_is_slice_rev_reshape():
    a = ARRAYS["f32_4d"]
    assert primitives(lambda x: x[1, ::-2, None, 1:3], a) == ["slice", "rev", "reshape"]
    assert primitives(lambda x: x[...], a) == []
    assert primitives(lambda x: x[:, [0, 2]], a) == ["transpose", "gather", "transpose"]
    assert primitives(lambda x: x[[0, 1], :, [0, 2]], a) == ["transpose", "gather"]


# -- views -----------------------------------------------------------------------------------------

VIEW_KEYS = [
    (slice(None, None, -1), slice(1, 3)),
    (1, slice(None, None, -2)),
    (Ellipsis, None, 2),
    (slice(1, None), None, slice(None, None, 3)),
    (),
]


@pytest.mark.parametrize("key", VIEW_KEYS)
def test_views_alias_the_buffer(xp, key):
    base = xp.asarray(numpy.arange(12.0).reshape(3, 4))
    view = base[key]
    assert view.base is not None  # a new view object, even for x[()]
    view[...] = -1.0  # a write through the view reaches the base
    after_view_write = numpy.array(numpy.asarray(base))
    base[...] = 7.0  # and a write to the base is seen through the view
    seen = numpy.array(numpy.asarray(view))
    expected = numpy.arange(12.0).reshape(3, 4)
    expected[key] = -1.0
    numpy.testing.assert_array_equal(after_view_write, expected)
    numpy.testing.assert_array_equal(seen, numpy.full(numpy.shape(expected[key]), 7.0))


def test_view_of_view_and_setitem_through_view(xp):
    base = xp.asarray(numpy.arange(24).reshape(4, 6))
    inner = base[1:, ::-1][::2, 1:4]
    inner[0, [0, 2]] = 100
    inner[1] += 1
    expected = numpy.arange(24).reshape(4, 6)
    e_inner = expected[1:, ::-1][::2, 1:4]
    e_inner[0, [0, 2]] = 100
    e_inner[1] += 1
    numpy.testing.assert_array_equal(numpy.asarray(base), expected)


def test_copies_do_not_alias(xp):
    base = xp.asarray(numpy.arange(12).reshape(3, 4))
    scalar = base[1, 2]  # NumPy gives a scalar: a copy
    zero_d = base[numpy.array(1)]  # a 0-d index array: a copy
    fancy = base[[0, 1]]
    masked = base[base > 5]
    base[...] = -1
    assert int(scalar) == 6
    numpy.testing.assert_array_equal(numpy.asarray(zero_d), [4, 5, 6, 7])
    numpy.testing.assert_array_equal(numpy.asarray(fancy), numpy.arange(8).reshape(2, 4))
    numpy.testing.assert_array_equal(numpy.asarray(masked), numpy.arange(6, 12))


def test_error_messages_match_numpy():
    x = arraystack.asarray(numpy.arange(12).reshape(3, 4))
    cases = [
        (5, "index 5 is out of bounds for axis 0 with size 3"),
        ((slice(None), [0, 4]), "index 4 is out of bounds for axis 1 with size 4"),
        ((0, 0, 0), "too many indices for array: array is 2-dimensional, but 3 were indexed"),
        (1.0, "only integers, slices"),
        (numpy.array([1.0]), "arrays used as indices must be of integer"),
        (numpy.ones(4, bool), "boolean index did not match indexed array along axis 0"),
        (([0, 1], [0, 1, 2]), "shape mismatch: indexing arrays could not be broadcast together"),
        ((Ellipsis, Ellipsis), "an index can only have a single ellipsis"),
    ]
    for key, message in cases:
        with pytest.raises(IndexError, match=message.replace("(", r"\(")):
            x[key]


# -- nonzero, argwhere, flatnonzero ----------------------------------------------------------------

NONZERO_INPUTS = {
    "f64_2d": ARRAYS["f64_2d"],
    "bool_2d": ARRAYS["bool_2d"],
    "c64_2d": ARRAYS["c64_2d"],
    "i32_3d": ARRAYS["i32_3d"] % 5,
    "empty": ARRAYS["f32_empty"],
    "all_zero": numpy.zeros(4),
    "special": numpy.array([numpy.nan, -0.0, 0.0, numpy.inf]),
    "transposed": ARRAYS["i64_transposed"] % 3,
    "0d_true": numpy.array(2.0),
    "0d_false": numpy.array(0),
}


@pytest.mark.parametrize("name", list(NONZERO_INPUTS))
@pytest.mark.parametrize("fn", ["nonzero", "argwhere", "flatnonzero", "method", "where"])
def test_nonzero_family(parity, name, fn):
    calls = {
        "nonzero": lambda xp, x: xp.nonzero(x),
        "argwhere": lambda xp, x: xp.argwhere(x),
        "flatnonzero": lambda xp, x: xp.flatnonzero(x),
        "method": lambda xp, x: x.nonzero(),
        "where": lambda xp, x: xp.where(x),
    }
    if fn == "where" and not hasattr(arraystack, "where"):
        pytest.skip("arraystack.where belongs to another family")
    parity(calls[fn], NONZERO_INPUTS[name], traced=False)


@pytest.mark.parametrize("fn", ["nonzero", "argwhere", "flatnonzero"])
@pytest.mark.parametrize("size", [0, 3, 20])
def test_nonzero_with_size(fn, size):
    """Our extension: size=/fill_value= give a static shape, so they trace."""
    a = NONZERO_INPUTS["i32_3d"]
    found = {
        "nonzero": numpy.nonzero(a),
        "argwhere": (numpy.argwhere(a),),
        "flatnonzero": (numpy.flatnonzero(a),),
    }[fn]
    expected = []
    for part in found:
        padded = numpy.full((size,) + part.shape[1:], -1, numpy.int64)
        n = min(size, part.shape[0])
        padded[:n] = part[:n]
        expected.append(padded)
    call = {"nonzero": arraystack.nonzero, "argwhere": arraystack.argwhere}.get(
        fn, arraystack.flatnonzero
    )
    eager = call(arraystack.asarray(a), size=size, fill_value=-1)
    traced = run_traced(lambda xp, x: getattr(xp, fn)(x, size=size, fill_value=-1), a)
    for result in (eager, traced):
        result = result if fn == "nonzero" else (result,)
        assert_same(tuple(expected), tuple(result))


def test_nonzero_traced_without_size():
    a = NONZERO_INPUTS["f64_2d"]
    for fn in ("nonzero", "argwhere", "flatnonzero"):
        with pytest.raises(ShapeDependsOnDataError, match="size="):
            run_traced(lambda xp, x, fn=fn: getattr(xp, fn)(x), a)
    with pytest.raises(ValueError, match="0d"):
        arraystack.nonzero(arraystack.asarray(1.0), size=2)
    with pytest.raises(ValueError):
        arraystack.nonzero(arraystack.asarray([1.0]), size=-1)
