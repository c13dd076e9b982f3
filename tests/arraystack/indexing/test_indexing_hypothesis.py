"""Property tests for indexing: random shapes and keys (basic, integer arrays, boolean masks,
ellipsis, newaxis) compared with NumPy, eagerly (with view aliasing) and traced; and assignment."""

from __future__ import annotations

import numpy
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import arraystack
from tests.conftest import check_parity, run_traced

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])

shapes = hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=4)


def _slices(n):
    bound = st.none() | st.integers(-n - 2, n + 2)
    step = st.none() | st.integers(-3, 3).filter(bool)
    return st.builds(slice, bound, bound, step)


def _sub_broadcast(draw, shape):
    """A shape that broadcasts to `shape`: some leading axes dropped, some axes set to 1."""
    drop = draw(st.integers(0, len(shape)))
    return tuple(1 if draw(st.booleans()) else d for d in shape[drop:])


@st.composite
def shapes_and_keys(draw, kinds=("basic", "arrays", "mask")):
    """(shape, key) with every index in bounds. kind: basic (ints/slices), arrays (plus integer
    arrays broadcasting to one shape), mask (plus one boolean mask over consecutive axes)."""
    shape = draw(shapes)
    ndim = len(shape)
    kind = draw(st.sampled_from(kinds))
    count = draw(st.integers(0, ndim))
    ellipsis_at = draw(st.none() | st.integers(0, count))
    split = count if ellipsis_at is None else ellipsis_at
    axes = list(range(split)) + list(range(ndim - (count - split), ndim))
    index_shape = draw(hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=3))
    mask_at = draw(st.integers(0, max(count - 1, 0))) if kind == "mask" and count else None
    items = []
    position = 0
    while position < count:
        n = shape[axes[position]]
        if position == mask_at:
            span = draw(st.integers(1, count - position))
            span = next(
                s for s in range(span, 0, -1) if axes[position + s - 1] - axes[position] == s - 1
            )
            mask_shape = tuple(shape[a] for a in axes[position : position + span])
            items.append(draw(hnp.arrays(numpy.bool_, mask_shape)))
            position += span
            continue
        choices = ["slice"] + (["int"] if n else [])
        if kind == "arrays" and (n or 0 in index_shape):
            choices.append("array")
        choice = draw(st.sampled_from(choices))
        if choice == "int":
            items.append(draw(st.integers(-n, n - 1)))
        elif choice == "slice":
            items.append(draw(_slices(n)))
        else:
            if n:
                values = hnp.arrays(
                    numpy.int64, _sub_broadcast(draw, index_shape), elements=st.integers(-n, n - 1)
                )
                items.append(draw(values))
            else:  # an empty axis takes only an index array that keeps the broadcast shape empty
                items.append(numpy.zeros(index_shape, numpy.int64))
        position += 1
    if ellipsis_at is not None:
        at = sum(1 for i in range(len(items)) if _consumed_before(items, i) < ellipsis_at)
        items.insert(at, Ellipsis)
    for _ in range(draw(st.integers(0, 2))):
        items.insert(draw(st.integers(0, len(items))), None)
    key = tuple(items) if len(items) != 1 or draw(st.booleans()) else items[0]
    return shape, key


def _consumed_before(items, i):
    return sum(
        getattr(item, "ndim", 1) if isinstance(item, numpy.ndarray) and item.dtype == bool else 1
        for item in items[:i]
    )


def _array(shape, dtype=numpy.float64):
    return (numpy.arange(int(numpy.prod(shape)), dtype=dtype) - 3).reshape(shape)


@SETTINGS
@given(shapes_and_keys(kinds=("basic",)), st.booleans())
def test_basic_indexing_views(shape_key, transposed):
    shape, key = shape_key
    a = _array(shape[::-1]).T if transposed else _array(shape)
    check_parity(lambda xp, x: x[key], a)
    # eager views alias the buffer: a write through the result reaches the base exactly as in NumPy
    expected = a.copy()
    view = expected[key]
    x = arraystack.asarray(a.copy())
    result = x[key]
    if isinstance(view, numpy.ndarray):
        view[...] = -100.0
        result[...] = -100.0
    numpy.testing.assert_array_equal(numpy.asarray(x), expected)


@SETTINGS
@given(shapes_and_keys())
def test_mixed_indexing(shape_key):
    shape, key = shape_key
    check_parity(lambda xp, x: x[key], _array(shape, numpy.int32))


@SETTINGS
@given(shapes_and_keys(kinds=("arrays",)))
def test_traced_index_arrays(shape_key):
    """The same keys with every index array a graph input (gather/scatter on traced indices)."""
    shape, key = shape_key
    items = key if isinstance(key, tuple) else (key,)
    arrays = [i for i, item in enumerate(items) if isinstance(item, numpy.ndarray)]

    def fn(xp, x, *index):
        rebuilt = list(items)
        for i, value in zip(arrays, index):
            rebuilt[i] = value
        return x[tuple(rebuilt)]

    def assign(xp, x, *index):
        rebuilt = list(items)
        for i, value in zip(arrays, index):
            rebuilt[i] = value
        y = x.copy()
        y[tuple(rebuilt)] = -1.0  # repeated indices write one value: no order dependence
        return y

    a = _array(shape)
    for f in (fn, assign):
        expected = f(numpy, a, *(items[i] for i in arrays))
        actual = numpy.asarray(run_traced(f, a, *(items[i] for i in arrays)))
        numpy.testing.assert_array_equal(actual, expected)
        assert actual.shape == expected.shape


@st.composite
def assignments(draw):
    shape, key = draw(shapes_and_keys())
    target = numpy.shape(_array(shape)[key])
    kind = draw(st.sampled_from(["scalar", "full", "broadcast"]))
    if kind == "scalar":
        return shape, key, draw(st.integers(-50, 50) | st.floats(-50, 50))
    value_shape = target if kind == "full" else _sub_broadcast(draw, target)
    value_shape = (1,) * draw(st.integers(0, 1)) + tuple(value_shape)
    return shape, key, _array(value_shape) * 7 + 0.5


@SETTINGS
@given(assignments(), st.sampled_from([numpy.float32, numpy.int16, numpy.complex128]))
def test_setitem(assignment, dtype):
    shape, key, value = assignment

    def fn(xp, x):
        y = x.copy()
        y[key] = value
        return y

    a = _array(shape, dtype)
    try:
        fn(numpy, a)
    except (TypeError, ValueError) as error:  # the traced update must refuse it too
        with pytest.raises(type(error)):
            run_traced(fn, a)
    check_parity(fn, a)


@SETTINGS
@given(assignments())
def test_setitem_through_view(assignment):
    shape, key, value = assignment
    big = _array((2,) + tuple(shape))
    expected = big.copy()
    x = arraystack.asarray(big.copy())
    view = x[1, ...]
    try:
        expected[1, ...][key] = value
    except (TypeError, ValueError) as error:  # e.g. one element takes a scalar only
        with pytest.raises(type(error)):
            view[key] = value
        numpy.testing.assert_array_equal(numpy.asarray(x), big)
        return
    view[key] = value
    numpy.testing.assert_array_equal(numpy.asarray(x), expected)
