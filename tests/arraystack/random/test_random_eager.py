"""arraystack.random draws in place (shuffle, permuted(out=), out=) and refuses to be traced.

In-place cases run under NumPy and arraystack through `parity` and return the mutated argument; the tracing
cases check the TracedRandomError raised under jit and vmap, and that an eager grad may draw.
"""

from __future__ import annotations

import numpy
import pytest
from arraystack.ir.core import ConcretizationError, TracerError

import arraystack
from arraystack.random import TracedRandomError
from tests.conftest import assert_same

X = numpy.arange(10.0)
X2 = numpy.arange(12).reshape(3, 4)


def _generator_shuffle(xp, x):
    xp.random.default_rng(1).shuffle(x)
    return x


def _view_shuffle(xp, x):
    view = x[2:]
    xp.random.default_rng(1).shuffle(view)  # writes through the view into x
    return x


def _axis_shuffle(xp, x):
    xp.random.default_rng(1).shuffle(x, axis=1)
    return x


def _state_shuffle(xp, x):
    xp.random.RandomState(1).shuffle(x)
    return x


def _global_shuffle(xp, x):
    state = numpy.random.get_state()
    xp.random.seed(1)
    xp.random.shuffle(x)
    numpy.random.set_state(state)
    return x


def _permuted_in_place(xp, x):
    out = xp.random.default_rng(1).permuted(x, axis=1, out=x)
    return out is x, x


def _random_out(xp, x):
    view = x[1:4]
    out = xp.random.default_rng(1).random(out=view)
    return out is view, x


def _standard_normal_out(xp, x):
    out = xp.random.default_rng(1).standard_normal(out=x)
    return out is x, x


IN_PLACE = {
    "generator_shuffle": (_generator_shuffle, X),
    "generator_shuffle_2d": (_generator_shuffle, X2),
    "view_shuffle": (_view_shuffle, X),
    "axis_shuffle": (_axis_shuffle, X2),
    "random_state_shuffle": (_state_shuffle, X2),
    "global_shuffle": (_global_shuffle, X),
    "permuted_out": (_permuted_in_place, X2),
    "random_out_view": (_random_out, X),
    "standard_normal_out": (_standard_normal_out, X2.astype(float)),
    "shuffle_0d": (_generator_shuffle, numpy.array(1.0)),
    "random_out_0d": (_standard_normal_out, numpy.array(1.0)),
    "permuted_0d": (lambda xp, x: xp.random.default_rng(1).permuted(x), numpy.array(1.0)),
    "shuffle_bad_axis": (_axis_shuffle, X),
    "permuted_out_dtype": (
        lambda xp, x: xp.random.default_rng(1).permuted(x, out=xp.zeros(x.shape, dtype=xp.int8)),
        X,
    ),
    "random_out_wrong_dtype": (lambda xp, x: xp.random.default_rng(1).random(out=x), X2),
    "random_out_strided": (lambda xp, x: xp.random.default_rng(1).random(out=x[::2]), X),
}


@pytest.mark.parametrize("name", sorted(IN_PLACE))
def test_in_place_draws_match_numpy(parity, name):
    fn, x = IN_PLACE[name]
    parity(fn, x, traced=False)


def test_scalar_results_of_arraystack_go_in_as_numpy_scalars(parity):
    # NumPy's count_nonzero gives an int and its sum a NumPy scalar; arraystack gives 0-d arrays,
    # which NumPy's permutation would read as an array to permute
    def draw(xp, mask):
        rng = xp.random.default_rng(2)
        return rng.permutation(xp.count_nonzero(mask)), rng.integers(xp.sum(mask), size=3)

    parity(draw, numpy.array([1, 0, 1, 1, 1]), traced=False)


def test_shuffle_of_a_list_mutates_the_callers_list():
    items = [arraystack.asarray(i) for i in range(6)]
    before = list(items)
    expected = list(range(6))
    numpy.random.default_rng(3).shuffle(expected)
    assert arraystack.random.default_rng(3).shuffle(items) is None
    assert [int(v) for v in items] == expected
    assert all(any(v is w for w in before) for v in items)  # the same objects, reordered


def test_shuffle_sees_other_views():
    x = arraystack.arange(12).reshape(3, 4)
    column = x[:, 0]
    arraystack.random.default_rng(0).shuffle(x)
    expected = numpy.arange(12).reshape(3, 4)
    numpy.random.default_rng(0).shuffle(expected)
    assert_same(expected[:, 0], column)


# -- tracing ---------------------------------------------------------------------------------------------


def _assert_traced_random_error(info, name, where):
    error = info.value
    assert isinstance(error, TracedRandomError)
    assert isinstance(error, ConcretizationError) and isinstance(error, TracerError)
    assert isinstance(error, TypeError)
    message = str(error)
    assert f"arraystack.random.{name}" in message and where in message
    assert "cannot be traced" in message and "arraystack.prng" in message
    assert "test_random_eager.py" in message  # names the user's line


def test_generator_inside_jit_raises_and_draws_nothing():
    rng = arraystack.random.default_rng(0)
    state = rng.bit_generator.state

    @arraystack.jit
    def noisy(x):
        return x + rng.normal(size=3)

    with pytest.raises(TracedRandomError) as info:
        noisy(arraystack.ones(3))
    _assert_traced_random_error(info, "Generator.normal", "inside arraystack.jit")
    assert rng.bit_generator.state == state


def test_traced_argument_raises():
    rng = arraystack.random.default_rng(0)
    with pytest.raises(TracedRandomError) as info:
        arraystack.jit(lambda scale: rng.normal(0.0, scale))(arraystack.ones(3))
    _assert_traced_random_error(info, "Generator.normal", "on a traced value")
    with pytest.raises(TracedRandomError) as info:
        arraystack.jit(lambda x: rng.shuffle(x))(arraystack.ones(3))
    _assert_traced_random_error(info, "Generator.shuffle", "on a traced value")
    with pytest.raises(TracedRandomError) as info:
        arraystack.jit(lambda seed: arraystack.random.default_rng(seed))(arraystack.asarray(3))
    _assert_traced_random_error(info, "default_rng", "on a traced value")
    with pytest.raises(TracedRandomError) as info:
        arraystack.grad(lambda loc: arraystack.sum(rng.normal(loc)))(arraystack.ones(3))
    _assert_traced_random_error(info, "Generator.normal", "on a traced value")


@pytest.mark.parametrize(
    "name, draw",
    [
        ("rand", lambda x: x + arraystack.random.rand(3)),
        ("seed", lambda x: arraystack.random.seed(0) or x),
        ("Generator.integers", lambda x: x + arraystack.random.default_rng(0).integers(3)),
        ("RandomState.randn", lambda x: x + arraystack.random.RandomState(0).randn(3)),
        ("PCG64.random_raw", lambda x: x + arraystack.random.PCG64(0).random_raw(3)),
    ],
)
def test_every_entry_point_refuses_jit(name, draw):
    with pytest.raises(TracedRandomError) as info:
        arraystack.jit(draw)(arraystack.ones(3))
    _assert_traced_random_error(info, name, "inside arraystack.jit")


def test_vmap_raises():
    with pytest.raises(TracedRandomError) as info:
        arraystack.vmap(lambda x: x + arraystack.random.default_rng(0).random())(arraystack.ones(3))
    _assert_traced_random_error(info, "Generator.random", "inside arraystack.vmap")


def test_eager_grad_may_draw_constant_noise():
    def loss(w):
        noise = arraystack.random.default_rng(4).standard_normal(3)
        return arraystack.sum(w * noise)

    expected = numpy.random.default_rng(4).standard_normal(3)
    assert_same(expected, arraystack.grad(loss)(arraystack.ones(3)))


def test_prng_is_the_traceable_alternative():
    @arraystack.jit
    def noisy(key, x):
        return x + arraystack.prng.normal(key, (3,), dtype=arraystack.float64)

    out = noisy(arraystack.prng.key(0), arraystack.zeros(3))
    assert out.shape == (3,) and out.dtype == numpy.float64
