"""A jitted function that writes its arguments in place changes the caller's arrays as the function run
eagerly does (arraystack/_transforms/jit_writeback.py); what jit cannot reproduce raises before anything changes."""

from __future__ import annotations

import numpy
import pytest

import arraystack as ast


def _update(x, y):
    x += 1.0
    y[0] = -5.0
    ast.multiply(y, 2.0, out=y)
    return x * 2.0


def _args(kind):
    a, b = numpy.arange(4.0), numpy.arange(3.0)
    if kind == "arraystack":
        return ast.asarray(a), ast.asarray(b)
    return a, b


@pytest.mark.parametrize("kind", ["numpy", "arraystack"])
@pytest.mark.parametrize("tiered", [False, True])
def test_arguments_written_in_place_are_written_back(kind, tiered):
    expected_args = _args(kind)
    fn = ast.jit(_update, tiered=tiered)
    got_args = _args(kind)
    for _ in range(3):  # traced, cached, and (tiered) compiled calls
        expected = _update(*expected_args)
        got = fn(*got_args)
        numpy.testing.assert_array_equal(numpy.asarray(got), numpy.asarray(expected))
        for g, e in zip(got_args, expected_args):
            numpy.testing.assert_array_equal(numpy.asarray(g), numpy.asarray(e))


def test_a_view_argument_writes_through_to_its_base():
    base = numpy.arange(8.0)
    ast.jit(_update)(base[::2], numpy.zeros(2))
    numpy.testing.assert_array_equal(base, [1.0, 1.0, 3.0, 3.0, 5.0, 5.0, 7.0, 7.0])


def test_pytree_and_keyword_arguments_are_written_back():
    def step(params, *, scale):
        params["w"] -= scale * params["g"]
        return params["w"].sum()

    params = {"w": numpy.ones(3), "g": numpy.arange(3.0)}
    total = ast.jit(step)(params, scale=numpy.float64(0.5))
    numpy.testing.assert_array_equal(params["w"], [1.0, 0.5, 0.0])
    assert float(total) == 1.5


def test_a_read_only_argument_that_is_written_raises_and_changes_nothing():
    a = numpy.arange(4.0)
    a.flags.writeable = False
    b = numpy.arange(3.0)
    with pytest.raises(ValueError, match="read-only"):
        ast.jit(_update)(a, b)
    numpy.testing.assert_array_equal(b, numpy.arange(3.0))
    with pytest.raises(ValueError, match="read-only"):  # as NumPy refuses it eagerly
        _update(a, b)


def test_written_arguments_that_share_memory_raise():
    a = numpy.arange(4.0)
    with pytest.raises(ValueError, match="share memory"):
        ast.jit(_update)(a, a[:3])
    numpy.testing.assert_array_equal(a, numpy.arange(4.0))


def test_functions_that_write_nothing_keep_the_fast_path():
    fn = ast.jit(lambda x: x * 2.0)
    x = numpy.arange(3.0)
    for _ in range(3):
        fn(x)
    numpy.testing.assert_array_equal(x, numpy.arange(3.0))


def test_a_python_scalar_argument_updated_in_place_stays_the_functions_own():
    def f(x, s):
        s += 1
        return x * s

    numpy.testing.assert_array_equal(numpy.asarray(ast.jit(f)(numpy.ones(2), 2)), [3.0, 3.0])


def test_changing_an_arguments_shape_in_place_raises():
    def f(x):
        y = x[::2]  # an alias: setting x.shape keeps it a view of x's old value
        x.shape = (2, 2)
        return y

    with pytest.raises(ast.ir.core.TracerError, match="shape or dtype in place"):
        ast.jit(f)(numpy.arange(4.0))
