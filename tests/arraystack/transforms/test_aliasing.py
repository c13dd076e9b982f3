"""Writes through views keep NumPy's meaning while tracing (arraystack/_transforms/aliasing.py): under jit (both
tiers), grad, value_and_grad and vmap, each program gives what NumPy gives; writes that a trace cannot
make raise and change nothing."""

from __future__ import annotations

import numpy
import pytest

import arraystack as ast
from arraystack._transforms.aliasing import WriteOutsideTraceError


def _slice_times(xp, x):
    y = x * 1.0
    v = y[::2]
    v *= 10.0
    return y


def _reshape_write(xp, x):
    y = x * 1.0
    y.reshape(-1)[1] = 100.0
    return y


def _transpose_add(xp, x):
    y = x[:, :2] * 1.0
    a = y.T
    a += y
    return y


def _out_into_a_view(xp, x):
    y = x * 1.0
    xp.add(y[1:], 5.0, out=y[:-1])
    return y


def _view_read_after_base_write(xp, x):
    y = x * 1.0
    v = y[1]
    y[1, 1] = -7.0
    return v * 1.0


def _transpose_then_base_add(xp, x):
    y = x * 1.0
    t = y.T
    y += 1.0
    return t * 1.0


def _reshape_of_transpose_copies(xp, x):
    y = x * 1.0
    t = y.T.reshape(-1)  # NumPy copies here: y keeps its values
    t[0] = 99.0
    return y


def _view_of_a_view(xp, x):
    y = x * 1.0
    w = y[:, ::-1][0]
    w[:] = 0.0
    return y


def _real_and_imag(xp, x):
    y = (x * 1.0).astype(complex)
    y.real[0] = 3.0
    y.imag[1] += 2.0
    return y


def _split_flip_swapaxes(xp, x):
    y = x * 1.0
    _, b = xp.split(y, 2, axis=0)
    b *= 2.0
    xp.flip(y, 1)[0, 0] = 50.0
    xp.swapaxes(y, 0, 1)[0] = -1.0
    return y


def _shape_set_on_a_view(xp, x):
    y = x * 1.0
    z = y.reshape(3, 2)
    z.shape = (6,)
    z[0] = 8.0
    return y


def _chained_item_writes(xp, x):
    y = x * 1.0
    y[0][1] = 42.0
    y[1][:2] += y[0][:2]
    return y


def _sort_a_row_in_place(xp, x):
    y = x[:, ::-1] * 1.0
    y[0].sort()
    return y


def _expand_and_squeeze(xp, x):
    y = x * 1.0
    e = xp.expand_dims(y, 0)
    e[0, 1, 1] = 3.0
    xp.squeeze(e)[0, 0] = 4.0
    return y


def _diagonal_reads_later_writes(xp, x):
    y = x * 1.0
    d = xp.diagonal(y)  # a read-only view: it shows the writes to y that follow
    y[1, 1] = -7.0
    y[0] += 1.0
    return d * 1.0


PROGRAMS = [
    _diagonal_reads_later_writes,
    _slice_times, _reshape_write, _transpose_add, _out_into_a_view, _view_read_after_base_write,
    _transpose_then_base_add, _reshape_of_transpose_copies, _view_of_a_view, _real_and_imag,
    _split_flip_swapaxes, _shape_set_on_a_view, _chained_item_writes, _sort_a_row_in_place,
    _expand_and_squeeze,
]  # fmt: skip

X = numpy.arange(1.0, 7.0).reshape(2, 3)


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda f: f.__name__.strip("_"))
@pytest.mark.parametrize("how", ["eager", "jit", "jit-reference", "vmap"])
def test_writes_through_views_match_numpy(program, how):
    expected = program(numpy, X)
    fn = lambda x: program(ast, x)  # noqa: E731
    if how == "eager":
        got = fn(ast.asarray(X))
    elif how == "jit":
        got = ast.jit(fn)(X)
    elif how == "jit-reference":
        got = ast.jit(fn, backend="reference")(X)
    else:  # a batch of two copies of X, against NumPy's result for each
        got = ast.vmap(fn)(numpy.stack([X, X]))
        expected = numpy.stack([expected, expected])
    assert numpy.asarray(got).dtype == expected.dtype
    numpy.testing.assert_array_equal(numpy.asarray(got), expected)


def _issue_example(x):
    y = x * 1.0
    v = y[::2]
    v *= 10.0
    return (y * y).sum()


def test_value_and_grad_sees_a_write_through_a_slice():
    x = numpy.array([1.0, 2.0, 3.0, 4.0])
    value, grad = ast.value_and_grad(_issue_example)(x)
    assert float(value) == 1020.0
    numpy.testing.assert_array_equal(numpy.asarray(grad), [200.0, 4.0, 600.0, 8.0])
    value, grad = ast.jit(ast.value_and_grad(_issue_example))(x)
    assert float(value) == 1020.0
    numpy.testing.assert_array_equal(numpy.asarray(grad), [200.0, 4.0, 600.0, 8.0])
    assert float(ast.jit(_issue_example)(x)) == 1020.0


def test_the_gradient_through_a_transposed_in_place_add_matches_finite_differences():
    def loss(x):
        y = x * 1.0
        t = y.T
        t *= y.T
        return (y * numpy.arange(4.0).reshape(2, 2)).sum()

    x = numpy.array([[0.5, -1.0], [2.0, 3.0]])
    got = numpy.asarray(ast.grad(loss)(x))
    fd = numpy.zeros_like(x)
    for i in numpy.ndindex(x.shape):
        d = numpy.zeros_like(x)
        d[i] = 1e-6
        fd[i] = (float(loss(ast.asarray(x + d))) - float(loss(ast.asarray(x - d)))) / 2e-6
    numpy.testing.assert_allclose(got, fd, rtol=1e-6)


CAPTURED = ast.zeros(3)


def _writes_a_global(x):
    CAPTURED[0] = x.sum()
    return x


def _writes_a_view_of_a_global(x):
    CAPTURED[1:] += x[:2]
    return x


@pytest.mark.parametrize("program", [_writes_a_global, _writes_a_view_of_a_global])
@pytest.mark.parametrize("how", ["jit", "grad", "vmap"])
def test_a_write_into_an_array_from_outside_raises_and_changes_nothing(program, how):
    before = numpy.asarray(CAPTURED).copy()
    if how == "jit":
        call = lambda: ast.jit(program)(numpy.ones(3))  # noqa: E731
    elif how == "grad":
        call = lambda: ast.grad(lambda x: program(x).sum())(numpy.ones(3))  # noqa: E731
    else:
        call = lambda: ast.vmap(program)(numpy.ones((2, 3)))  # noqa: E731
    with pytest.raises(WriteOutsideTraceError, match="did not create"):
        call()
    assert isinstance(CAPTURED._value, numpy.ndarray)
    numpy.testing.assert_array_equal(numpy.asarray(CAPTURED), before)


def test_arrays_made_inside_the_traced_function_can_be_written():
    def f(x):
        c = ast.asarray([1.0, 2.0, 3.0])  # a constant made while tracing
        c[0] = x.sum()
        c[1:] *= 2.0
        return c

    numpy.testing.assert_array_equal(numpy.asarray(ast.jit(f)(numpy.ones(3))), [3.0, 4.0, 6.0])

    def row(r):
        out = ast.zeros(3)  # made under vmap, a value of the jit trace below it
        out[0] = r[0]
        return out

    got = ast.jit(ast.vmap(row))(numpy.full((2, 3), 5.0))
    numpy.testing.assert_array_equal(numpy.asarray(got), [[5.0, 0.0, 0.0]] * 2)


@pytest.mark.parametrize("how", ["eager", "jit"])
def test_a_write_into_a_broadcast_view_raises_as_numpy_does(how):
    def f(x):
        b = ast.broadcast_to(x, (2, 3))
        b[0, 0] = 1.0
        return b

    with pytest.raises(ValueError, match="read-only"):
        f(ast.ones(3)) if how == "eager" else ast.jit(f)(numpy.ones(3))


def test_setting_an_incompatible_shape_on_a_traced_view_raises_numpys_attribute_error():
    def f(x):
        y = x * 1.0
        t = y.T
        t.shape = (6,)
        return t

    with pytest.raises(AttributeError, match="Incompatible shape"):
        f(ast.asarray(X))
    with pytest.raises(AttributeError, match="Incompatible shape"):
        ast.jit(f)(X)


def _traced_row(x, i):
    y = x * 1.0
    y[i][1] = 42.0  # x[i] with an int i is a view in NumPy: the write reaches y
    r = y[i]
    r += 1.0
    y[..., i] *= -1.0
    return y


def test_an_index_traced_from_a_python_int_gives_a_view():
    x = numpy.arange(12.0).reshape(3, 4)
    expected = _traced_row(x, 1)
    for fn in (ast.jit(_traced_row), ast.jit(_traced_row, backend="reference")):
        numpy.testing.assert_array_equal(numpy.asarray(fn(x, 1)), expected)

    def diagonal_of_sevens(y):
        def body(i, y):
            y[i][i] = 7.0
            return y

        return ast.fori_loop(0, 3, body, y * 1.0)

    got = ast.jit(diagonal_of_sevens)(x)
    expected = x.copy()
    expected[[0, 1, 2], [0, 1, 2]] = 7.0
    numpy.testing.assert_array_equal(numpy.asarray(got), expected)


@pytest.mark.parametrize("how", ["eager", "jit"])
def test_a_write_into_a_diagonal_raises_as_numpy_does(how):
    def f(x):
        d = x.diagonal()
        d[0] = 1.0
        return d

    with pytest.raises(ValueError, match="read-only"):
        f(ast.ones((3, 3))) if how == "eager" else ast.jit(f)(numpy.ones((3, 3)))
