"""vmap's unmapped arguments (in_axes None, for a whole argument or a leaf of a pytree) reach the
function as arraystack arrays when they are NumPy arrays or scalars, as jit's arguments do, so traced
indices and methods work on them. The oracle is a Python loop over the examples with NumPy."""

from __future__ import annotations

import numpy
import pytest

import arraystack as ast

V = numpy.arange(5.0)
I = numpy.array([1, 3])
M = numpy.arange(10.0).reshape(2, 5)

TIERS = {
    "eager": lambda f: f,
    "tiered": ast.jit,
    "compiled": lambda f: ast.jit(f, tiered=False),
    "reference": lambda f: ast.jit(f, backend="reference"),
}


def _loop(fn, in_axes, args, size):
    """fn mapped by a Python loop: example k takes index k of each mapped leaf."""

    def pick(spec, value, k):
        if spec is None:
            return value
        if isinstance(spec, int):
            if isinstance(value, (tuple, list)):
                return type(value)(pick(spec, v, k) for v in value)
            if isinstance(value, dict):
                return {key: pick(spec, v, k) for key, v in value.items()}
            return numpy.take(value, k, axis=spec)
        if isinstance(spec, dict):
            return {key: pick(spec[key], value[key], k) for key in value}
        return type(value)(pick(sp, v, k) for sp, v in zip(spec, value))

    return numpy.stack([fn(*pick(tuple(in_axes), args, k)) for k in range(size)])


# name: (fn, in_axes, args, batch size)
CASES = {
    "index_an_unmapped_array": (lambda v, i: v[i], (None, 0), (V, I), 2),
    "unmapped_array_method": (lambda v, i: v.sum() * i + v.max(), (None, 0), (V, I), 2),
    "unmapped_numpy_scalar": (
        lambda s, i: s.astype(numpy.float64) * i,
        (None, 0),
        (numpy.int8(3), I),
        2,
    ),
    "unmapped_leaf_of_a_tuple": (lambda t, i: t[0][i] + t[1][i], ((None, 0), 0), ((V, M), I), 2),
    "unmapped_leaves_of_a_dict": (
        lambda d, i: d["v"][i] * d["scale"],
        ({"v": None, "scale": None}, 0),
        ({"v": V, "scale": numpy.float64(2.0)}, I),
        2,
    ),
    "python_scalar_stays_weak": (
        lambda s, x: x * s,
        (None, 0),
        (3, numpy.arange(6, dtype=numpy.int8).reshape(2, 3)),
        2,
    ),
}


@pytest.mark.parametrize("tier", list(TIERS))
@pytest.mark.parametrize("name", list(CASES))
def test_unmapped_arguments_are_arrays(name, tier):
    fn, in_axes, args, size = CASES[name]
    expected = _loop(fn, in_axes, args, size)
    actual = TIERS[tier](ast.vmap(fn, in_axes=in_axes))(*args)
    assert isinstance(actual, ast.ndarray)
    out = numpy.asarray(actual)
    assert out.dtype == expected.dtype
    numpy.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("tier", list(TIERS))
def test_reproducer_index_an_unmapped_numpy_array(tier):
    f = TIERS[tier](ast.vmap(lambda v, i: v[i], in_axes=(None, 0)))
    numpy.testing.assert_array_equal(f(numpy.arange(5.0), numpy.array([1, 3])), [1.0, 3.0])


def test_every_argument_unmapped_with_axis_size():
    f = ast.vmap(lambda v, i: v[i], in_axes=None, axis_size=3)
    numpy.testing.assert_array_equal(f(V, numpy.int64(2)), [2.0, 2.0, 2.0])


def test_function_sees_an_arraystack_array():
    seen = []

    def f(v, i):
        seen.append(type(v))
        return v[i]

    ast.vmap(f, in_axes=(None, 0))(V, I)
    assert seen == [ast.ndarray]


def test_unmapped_index_is_still_checked():
    f = ast.vmap(lambda v, i: v[i], in_axes=(None, 0))
    with pytest.raises(IndexError, match="^index 7 is out of bounds for axis 0 with size 5$"):
        f(V, numpy.array([1, 7]))


def test_grad_through_an_unmapped_numpy_array():
    def loss(w):
        return ast.vmap(lambda v, i, w: v[i] * w[i] ** 2, in_axes=(None, 0, None))(V, I, w).sum()

    expected = numpy.zeros(5)
    expected[I] = 2 * V[I] * V[I]
    for grad in (ast.grad(loss), ast.jit(ast.grad(loss))):
        numpy.testing.assert_array_equal(numpy.asarray(grad(V)), expected)


def test_unsupported_unmapped_array_raises_asarrays_error():
    if numpy.dtype(numpy.longdouble).itemsize == 8:
        pytest.skip("long double is float64 on this platform")
    with pytest.raises(TypeError, match="does not support dtype float"):
        ast.vmap(lambda v, i: v[i], in_axes=(None, 0))(V.astype(numpy.longdouble), I)


def test_non_numeric_unmapped_leaf_is_passed_as_it_is():
    names = numpy.array(["a", "b"])
    f = ast.vmap(lambda names, i: i * len(names), in_axes=(None, 0))
    numpy.testing.assert_array_equal(f(names, I), I * 2)
