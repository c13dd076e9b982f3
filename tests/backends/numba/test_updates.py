"""Basic-index writes under a trace (`x[i] = v`: update_slice) against NumPy, on every tier, and the plan's
decision to write into the operand's own buffer (backends/updates.py): only where nothing alive
sees that buffer."""

from __future__ import annotations

import numpy
import pytest
from arraystack.backends.updates import describe

import arraystack as ast
from tests.fuzz.tiers import CUDA_TIERS, TIERS, check_program, with_module

np = numpy  # each program's `np` is rebound to the module under test
IN_PLACE, COPY = describe(True), describe(False)


def rows(x):
    out = np.empty_like(x)
    for i in range(x.shape[0]):
        out[i] = x[i] * 2 + 1
    return out


def strided_and_reversed(x):
    y = x * 1.5
    y[::2, 1:5:2] = -1
    y[3:0:-1, -1] = x[0, :3]
    y[..., 0] = y[..., 1]
    return y


def overlapping(x):
    y = x + 0
    y[1:] = y[:-1]  # NumPy's assignment reads the whole value before writing
    y[:, 1:] += y[:, :-1]
    return y


def view_kept_across_a_write(x):
    y = x * 2
    v = y[1:3]
    y[1] = 7  # a view of y sees the write
    w = v.copy()
    y[2] = -7
    return y, v, w


def view_read_after_the_write(x):
    y = x - 1
    top = y[0]
    y[0] = top * 3  # `top` is a view: it shows the new row
    return y, top + 1


def argument_written(x):
    x[1] = x[0] + 5
    x[-1, ::2] = 0
    return x.sum()


def single_elements(x):
    y = x.copy()
    for i in range(min(y.shape)):
        y[i, i] = i
    y[0, -1] = np.nan
    return y


def zero_d(x):
    s = x.sum()
    s[()] = 3.5
    t = x[0, 0] * 1
    t[...] = s
    return s, t


def empty_window(x):
    y = x * 2
    y[2:2] = 5
    y[:, 4:1] = 5
    return y


PROGRAMS = [
    rows,
    strided_and_reversed,
    overlapping,
    view_kept_across_a_write,
    view_read_after_the_write,
    argument_written,
    single_elements,
    zero_d,
    empty_window,
]


def _args(dtype, shape=(5, 6)):
    def make():
        values = numpy.arange(numpy.prod(shape)).reshape(shape) % 7 - 3
        return [values.astype(dtype)]

    return make


@pytest.mark.parametrize("f", PROGRAMS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("dtype", ["float64", "float32", "int16", "complex64"])
def test_writes_give_numpys_values_on_every_tier(f, dtype):
    if f is single_elements and dtype == "int16":
        pytest.skip(
            "NaN into an integer array: NumPy's ValueError is checked by the indexing tests"
        )
    check_program(f, _args(dtype))


@pytest.mark.parametrize("f", [rows, strided_and_reversed, overlapping, view_kept_across_a_write])
def test_writes_give_numpys_values_on_cuda(standin, f):
    check_program(f, _args("float32", (4, 7)), tiers=(*TIERS, *CUDA_TIERS))


def _plan(f, *args, **kw):
    return ast.jit(with_module(f, ast), tiered=False, **kw).lower(*args).compile().as_text()


def _update_steps(text):
    return [line for line in text.splitlines() if line.lstrip("# ").startswith("update_slice")]


def test_a_chain_of_row_writes_runs_in_the_buffer():
    steps = _update_steps(_plan(rows, numpy.ones((6, 4))))
    assert len(steps) == 6
    assert all(IN_PLACE in line for line in steps), steps  # empty_like's fresh buffer included


def test_a_value_still_read_after_a_write_is_never_overwritten():
    def functional(x):  # `.at[].set` leaves y as it was, and y and its view are read after it
        y = x * 2
        v = y[1:3]
        z = y.at[1].set(7.0)
        w = z.at[0].set(v[1, 0])
        return w, v, y

    x = numpy.arange(12.0).reshape(4, 3)
    steps = _update_steps(_plan(functional, x))
    assert [COPY in line for line in steps] == [True, False], steps
    y = x * 2
    z = y.copy()
    z[1], z[0] = 7.0, y[2, 0]
    for got, want in zip(ast.jit(functional, tiered=False)(x), (z, y[1:3], y)):
        numpy.testing.assert_array_equal(numpy.asarray(got), want)
    for got, want in zip(ast.jit(functional, tiered=True)(x), (z, y[1:3], y)):  # tier 0
        numpy.testing.assert_array_equal(numpy.asarray(got), want)


def test_a_write_after_a_view_was_copied_runs_in_the_buffer():
    steps = _update_steps(_plan(view_kept_across_a_write, numpy.ones((4, 3))))
    assert all(IN_PLACE in line for line in steps), steps  # views rebind at a write; w is a copy


@pytest.mark.parametrize("key", [slice(1, 3), numpy.array([1, 2])], ids=["window", "index array"])
def test_an_argument_is_copied_unless_donated(key):
    def f(x):
        return x.at[key].set(x[1:3] * 10)  # update_slice, or a scatter

    x0 = numpy.arange(8.0)
    assert all(COPY in line for line in _update_steps(_plan(f, x0)))
    assert numpy.array_equal(
        numpy.asarray(ast.jit(f, tiered=False)(x0)), [0, 10, 20, 3, 4, 5, 6, 7]
    )
    numpy.testing.assert_array_equal(x0, numpy.arange(8.0))
    x = ast.asarray(x0.copy())
    buffer = x._value
    out = ast.jit(f, tiered=False, donate_argnums=0)(x)
    numpy.testing.assert_array_equal(numpy.asarray(out), [0, 10, 20, 3, 4, 5, 6, 7])
    assert out._value is buffer  # written in place: the donated argument's own buffer


def test_gradients_of_row_writes_equal_finite_differences(check_grads):
    def f(x, w):
        out = ast.zeros_like(x)
        for i in range(x.shape[0]):
            out[i] = ast.tanh(x[i] * w[i])
        out[1:, ::2] = out[:-1, ::2] * 2
        return out

    rng = numpy.random.default_rng(0)
    check_grads(f, [rng.standard_normal((4, 5)), rng.standard_normal((4, 1))], jit=True)
    check_grads(f, [rng.standard_normal((4, 5)), rng.standard_normal((4, 1))], order=2)


def _write_into_copy(x, v):
    y = x * 1
    y[1:3] = v
    y[0] = y[-1]
    return y


@pytest.mark.parametrize("in_axes", [(0, 0), (0, None), (None, 0)])
def test_vmap_of_writes_equals_a_loop(in_axes):
    rng = numpy.random.default_rng(1)
    xs, vs = rng.standard_normal((3, 5)), rng.standard_normal((3, 2))
    args = [a if axis == 0 else a[0] for a, axis in zip((xs, vs), in_axes)]
    pairs = zip(*[a if axis == 0 else [a] * 3 for a, axis in zip(args, in_axes)])
    want = numpy.stack([_write_into_copy(x.copy(), v) for x, v in pairs])
    for f in (
        ast.vmap(_write_into_copy, in_axes=in_axes),
        ast.jit(ast.vmap(_write_into_copy, in_axes=in_axes)),
    ):
        numpy.testing.assert_array_equal(numpy.asarray(f(*args)), want)
