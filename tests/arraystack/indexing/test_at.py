"""`x.at[index]`, JAX's functional indexed updates: each method against NumPy's own spelling of it (a copy
written by item assignment or by the ufunc's `at`), eagerly, under jit and under vmap; the out-of-bounds
modes against their definitions; x never changes; gradients against finite differences."""

from __future__ import annotations

import numpy
import pytest

import arraystack

X = numpy.arange(1.0, 13.0).reshape(3, 4)
INDICES = [
    1,
    -1,
    (1, 2),
    (slice(None), 0),
    (Ellipsis, -1),
    numpy.array([0, 2, 0]),
    (numpy.array([0, 2, 2]), numpy.array([1, 3, 1])),
    (numpy.array([[0], [2]]), slice(1, 3)),
    X > 6,
    (None, 1),
]
METHODS = {
    "add": numpy.add,
    "subtract": numpy.subtract,
    "multiply": numpy.multiply,
    "divide": numpy.true_divide,
    "power": numpy.power,
    "min": numpy.minimum,
    "max": numpy.maximum,
}


def _expected(method, index, values):
    out = X.copy()
    if method == "set":
        out[index] = values
    else:
        METHODS[method].at(out, index, values)
    return out


@pytest.mark.parametrize("method", ["set", *METHODS])
@pytest.mark.parametrize("k", range(len(INDICES)))
def test_updates_are_numpys_item_assignment_and_ufunc_at(method, k):
    index = INDICES[k]
    values = 0.5 if method == "power" else 2.5
    expected = _expected(method, index, values)
    x = arraystack.asarray(X)
    got = getattr(x.at[index], method)(values)
    numpy.testing.assert_array_equal(numpy.asarray(got), expected)
    numpy.testing.assert_array_equal(numpy.asarray(x), X)  # x is left as it was
    jitted = arraystack.jit(lambda x: getattr(x.at[index], method)(values))(X)
    numpy.testing.assert_allclose(numpy.asarray(jitted), expected, rtol=1e-15)


@pytest.mark.parametrize("k", range(len(INDICES)))
def test_get_is_indexing(k):
    index = INDICES[k]
    got = arraystack.asarray(X).at[index].get()
    numpy.testing.assert_array_equal(numpy.asarray(got), X[index])
    numpy.testing.assert_array_equal(
        numpy.asarray(arraystack.jit(lambda x: x.at[index].get())(X)), X[index]
    )


def test_repeated_indices_combine_every_value():
    x = arraystack.zeros(3)
    index = numpy.array([0, 0, 2, 0])
    values = numpy.array([1.0, 2.0, 3.0, 4.0])
    numpy.testing.assert_array_equal(numpy.asarray(x.at[index].add(values)), [7.0, 0.0, 3.0])
    numpy.testing.assert_array_equal(numpy.asarray(x.at[index].max(values)), [4.0, 0.0, 3.0])
    y = arraystack.arange(1.0, 4.0)
    numpy.testing.assert_array_equal(
        numpy.asarray(y.at[[0, 0]].apply(arraystack.negative)), [1, 2, 3]
    )
    numpy.testing.assert_array_equal(
        numpy.asarray(y.at[[0, 0]].apply(lambda v: v * 10)), [10, 2, 3]
    )


def _clip(i, n):
    i = numpy.where(i < 0, i + n, i)
    return numpy.clip(i, 0, n - 1)


@pytest.mark.parametrize("jit", [False, True])
def test_out_of_bounds_modes(jit):
    i = numpy.array([0, 7, -2, -9, 3])
    v = numpy.array([10.0, 20.0, 30.0, 40.0, 50.0])
    x = numpy.arange(5.0)
    inside = (i >= -5) & (i < 5)

    def run(f):
        return numpy.asarray(arraystack.jit(f)(x, i, v) if jit else f(arraystack.asarray(x), i, v))

    expected = x.copy()
    numpy.add.at(expected, i[inside], v[inside])
    numpy.testing.assert_array_equal(run(lambda x, i, v: x.at[i].add(v, mode="drop")), expected)
    expected = x.copy()
    numpy.maximum.at(expected, _clip(i, 5), v)
    numpy.testing.assert_array_equal(run(lambda x, i, v: x.at[i].max(v, mode="clip")), expected)
    expected = numpy.where(inside, x[numpy.where(inside, i, 0)], -1.0)
    numpy.testing.assert_array_equal(
        run(lambda x, i, v: x.at[i].get(mode="fill", fill_value=-1.0)), expected
    )
    numpy.testing.assert_array_equal(run(lambda x, i, v: x.at[i].get(mode="clip")), x[_clip(i, 5)])
    with pytest.raises(IndexError, match="out of bounds"):
        run(lambda x, i, v: x.at[i].set(v))


def test_drop_leaves_out_the_whole_update_and_fill_defaults():
    m = arraystack.zeros((2, 3), dtype=numpy.int32)
    got = m.at[numpy.array([0, 5, 1]), numpy.array([0, 1, 9])].set(7, mode="drop")
    numpy.testing.assert_array_equal(numpy.asarray(got), [[7, 0, 0], [0, 0, 0]])
    assert got.dtype == numpy.int32
    for dtype, fill in [("float32", numpy.nan), ("int16", -32768), ("uint8", 255), ("bool", True)]:
        got = arraystack.zeros(2, dtype=dtype).at[5].get(mode="fill")
        numpy.testing.assert_array_equal(numpy.asarray(got), numpy.asarray(fill, dtype))


def test_values_are_cast_as_numpy_casts_them():
    got = arraystack.arange(3).at[0].add(1.5)
    expected = numpy.arange(3)
    numpy.add.at(expected, 0, 1.5)
    numpy.testing.assert_array_equal(numpy.asarray(got), expected)
    assert got.dtype == expected.dtype


def test_bad_modes_and_indices_are_refused():
    x = arraystack.arange(4.0)
    with pytest.raises(ValueError, match="mode must be one of"):
        x.at[0].set(1.0, mode="wrap")
    with pytest.raises(ValueError, match="applies to get"):
        x.at[0].set(1.0, mode="fill")
    with pytest.raises(ValueError, match="applies to updates"):
        x.at[0].get(mode="drop")
    with pytest.raises(IndexError, match="valid indices"):
        x.at[numpy.array([0.5])].set(1.0, mode="clip")


def test_vmap_and_gradients(check_grads):
    rows = numpy.arange(6.0).reshape(2, 3)
    got = arraystack.vmap(lambda r, v: r.at[numpy.array([0, 0])].add(v))(
        rows, numpy.array([1.0, 2.0])
    )
    numpy.testing.assert_array_equal(numpy.asarray(got), [[2.0, 1.0, 2.0], [7.0, 4.0, 5.0]])
    index = numpy.array([0, 2, 0])
    check_grads(lambda x, v: x.at[index].add(v * x[1]), [numpy.arange(1.0, 5.0), numpy.ones(3)])
    check_grads(lambda x, v: x.at[1:3].set(v) * x, [numpy.arange(1.0, 5.0), numpy.full(2, 0.5)])
    check_grads(lambda x: x.at[index].multiply(x[3]), [numpy.arange(1.0, 5.0)], jit=True)
    check_grads(
        lambda x: x.at[numpy.array([1, 9])].get(mode="fill", fill_value=0.0),
        [numpy.arange(1.0, 5.0)],
    )
