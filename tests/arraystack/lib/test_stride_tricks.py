"""arraystack.lib.stride_tricks against NumPy: as_strided (aliasing eagerly, a gather when traced) and
sliding_window_view (eager views, traced windows with gradients, NumPy's errors)."""

from __future__ import annotations

import numpy
import pytest
from numpy.lib import stride_tricks as np_st

import arraystack
from arraystack.lib import stride_tricks as st
from tests.conftest import assert_same, run_traced

X = numpy.arange(24.0).reshape(4, 6)

WINDOWS = {
    "1d": (numpy.arange(8), 3, None),
    "1d_whole": (numpy.arange(5.0), 5, None),
    "2d_all_axes": (X, (2, 3), None),
    "2d_axis0": (X, 2, 0),
    "2d_axis_neg": (X, 4, -1),
    "2d_axis_twice": (X, (2, 2), (1, 1)),
    "3d": (numpy.arange(60, dtype=numpy.int32).reshape(3, 4, 5), (2, 2), (0, 2)),
}


@pytest.mark.parametrize("x, window, axis", WINDOWS.values(), ids=WINDOWS.keys())
def test_sliding_window_view(x, window, axis):
    expected = np_st.sliding_window_view(x, window, axis)
    assert_same(expected, st.sliding_window_view(arraystack.asarray(x), window, axis))
    assert_same(expected, run_traced(lambda xp, v: st.sliding_window_view(v, window, axis), x))


def test_sliding_window_view_is_a_read_only_view():
    a = arraystack.arange(6.0)
    w = st.sliding_window_view(a, 3)
    assert arraystack.shares_memory(w, a)
    with pytest.raises(ValueError, match="read-only"):
        w[0, 0] = 1.0
    writable = st.sliding_window_view(a, 3, writeable=True)
    writable[1, 0] = -1.0
    assert float(a[1]) == -1.0


@pytest.mark.parametrize(
    "window, axis",
    [((2, 2), None), (7, None), (-1, None), ((2,), (0, 1)), (2, 3)],
    ids=["too_many", "too_big", "negative", "axis_mismatch", "bad_axis"],
)
def test_sliding_window_view_errors(window, axis):
    x = numpy.arange(6.0)
    with pytest.raises(Exception) as expected:
        np_st.sliding_window_view(x, window, axis)
    with pytest.raises(expected.type) as got:
        st.sliding_window_view(arraystack.asarray(x), window, axis)
    assert str(got.value) == str(expected.value)
    with pytest.raises(expected.type):
        run_traced(lambda xp, v: st.sliding_window_view(v, window, axis), x)


def test_sliding_window_view_under_jit_and_grad():
    x = numpy.arange(7.0)
    f = arraystack.jit(lambda v: st.sliding_window_view(v, 3).mean(axis=-1))
    assert_same(np_st.sliding_window_view(x, 3).mean(axis=-1), f(x))
    g = arraystack.grad(lambda v: (st.sliding_window_view(v, 3) ** 2).sum())
    counts = numpy.array([1, 2, 3, 3, 3, 2, 1.0])  # how many windows hold each element
    assert_same(2 * x * counts, g(arraystack.asarray(x)))


STRIDED = {
    "default": (None, None),
    "rows_overlap": ((3, 4), (16, 8)),
    "broadcast_row": ((3, 6), (0, 8)),
    "transpose": ((6, 4), (8, 48)),
    "scalar": ((), ()),
}


@pytest.mark.parametrize("shape, strides", STRIDED.values(), ids=STRIDED.keys())
def test_as_strided(shape, strides):
    expected = np_st.as_strided(X, shape, strides)
    assert_same(expected.copy(), st.as_strided(arraystack.asarray(X), shape, strides))
    assert_same(expected.copy(), run_traced(lambda xp, v: st.as_strided(v, shape, strides), X))


def test_as_strided_aliases_eagerly():
    n = numpy.arange(6)
    a = arraystack.asarray(n.copy())
    np_st.as_strided(n, (2, 2), (8, 8))[1, 1] = 99
    st.as_strided(a, (2, 2), (8, 8))[1, 1] = 99
    assert_same(n, a)
    read_only = st.as_strided(a, writeable=False)
    with pytest.raises(ValueError, match="read-only"):
        read_only[0] = 1


def test_as_strided_traced_rejects_what_it_cannot_gather():
    with pytest.raises(ValueError, match="reaches outside"):
        run_traced(lambda xp, v: st.as_strided(v, (4,), (64,)), numpy.arange(6.0))
    with pytest.raises(ValueError, match="multiples of the itemsize"):
        run_traced(lambda xp, v: st.as_strided(v, (2,), (4,)), numpy.arange(6.0))
    with pytest.raises(ValueError, match="holds other elements"):
        run_traced(lambda xp, v: st.as_strided(v[::2], (2,), (8,)), X)


@pytest.mark.parametrize(
    "argument, made",
    [
        (X.T, lambda m, v: v),
        (numpy.asfortranarray(X), lambda m, v: v),
        (X, lambda m, v: v.reshape(6, 4).T * 1.0),  # an elementwise result in its operand's order
    ],
    ids=["transposed", "fortran", "a product of a transposed array"],
)
def test_as_strided_traced_counts_strides_in_numpys_memory_order(argument, made):
    """Under a trace the strides count in the memory NumPy lays the array out in."""
    shape, strides = (3, 2), (8, 16)
    expected = np_st.as_strided(made(numpy, argument), shape, strides).copy()
    got = arraystack.jit(lambda v: st.as_strided(made(arraystack, v), shape, strides))(argument)
    assert_same(expected, got)
