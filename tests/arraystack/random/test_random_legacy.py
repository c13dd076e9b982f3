"""arraystack.random legacy API: RandomState and the module functions on NumPy's global stream.

Each case runs against the seeded module (xp.random after xp.random.seed) and against a RandomState, under
NumPy and arraystack, drawing twice. NumPy's global state is saved and restored around every test.
"""

from __future__ import annotations

import pickle
import warnings

import numpy
import pytest

import arraystack
from tests.conftest import assert_same

A = numpy.array
P3 = A([0.2, 0.3, 0.5])
X2 = numpy.arange(12.0).reshape(3, 4)

LEGACY_CASES = {
    "rand": (lambda r: r.rand(2, 3), ()),
    "rand_scalar": (lambda r: r.rand(), ()),
    "randn": (lambda r: r.randn(3), ()),
    "randn_scalar": (lambda r: r.randn(), ()),
    "randint": (lambda r: r.randint(5), ()),
    "randint_shape": (lambda r: r.randint(-3, 10, (2, 3)), ()),
    "randint_int16": (lambda r: r.randint(0, 10, 3, dtype=numpy.int16), ()),
    "randint_arrays": (lambda r, lo, hi: r.randint(lo, hi), (A([0, 5]), A([3, 50]))),
    "random": (lambda r: r.random(), ()),
    "random_shape": (lambda r: r.random((2,)), ()),
    "random_sample": (lambda r: r.random_sample(3), ()),
    "choice": (lambda r: r.choice(5, 3), ()),
    "choice_p": (lambda r, a, p: r.choice(a, 4, p=p), (A([1.5, 2.5, 3.5]), P3)),
    "choice_no_replace": (lambda r: r.choice(10, 4, replace=False), ()),
    "bytes": (lambda r: r.bytes(4), ()),
    "permutation": (lambda r: r.permutation(6), ()),
    "permutation_array": (lambda r, a: r.permutation(a), (X2,)),
    "beta": (lambda r: r.beta(0.5, 2.0, 3), ()),
    "binomial": (lambda r: r.binomial(10, 0.3, 4), ()),
    "chisquare": (lambda r: r.chisquare(3.0, 4), ()),
    "dirichlet": (lambda r: r.dirichlet([1.0, 2.0, 3.0], 2), ()),
    "exponential": (lambda r: r.exponential(2.0, 3), ()),
    "f": (lambda r: r.f(3, 4, 5), ()),
    "gamma": (lambda r: r.gamma(2.0, 1.5, 4), ()),
    "geometric": (lambda r: r.geometric(0.3, 5), ()),
    "gumbel": (lambda r: r.gumbel(0.0, 1.0, 4), ()),
    "hypergeometric": (lambda r: r.hypergeometric(10, 5, 7, 4), ()),
    "laplace": (lambda r: r.laplace(0.0, 1.0, 3), ()),
    "logistic": (lambda r: r.logistic(0.0, 1.0, 3), ()),
    "lognormal": (lambda r: r.lognormal(0.0, 1.0, 3), ()),
    "logseries": (lambda r: r.logseries(0.5, 4), ()),
    "multinomial": (lambda r, p: r.multinomial(10, p, 3), (P3,)),
    "multivariate_normal": (
        lambda r, m, c: r.multivariate_normal(m, c, 3),
        (A([1.0, -1.0]), A([[2.0, 0.3], [0.3, 1.0]])),
    ),
    "negative_binomial": (lambda r: r.negative_binomial(5, 0.5, 4), ()),
    "noncentral_chisquare": (lambda r: r.noncentral_chisquare(3, 2, 4), ()),
    "noncentral_f": (lambda r: r.noncentral_f(3, 4, 2, 4), ()),
    "normal": (lambda r: r.normal(), ()),
    "normal_broadcast": (lambda r, loc: r.normal(loc, 2.0), (A([0.0, 10.0, -5.0]),)),
    "pareto": (lambda r: r.pareto(3, 4), ()),
    "poisson": (lambda r: r.poisson(3.0, 4), ()),
    "power": (lambda r: r.power(3, 4), ()),
    "rayleigh": (lambda r: r.rayleigh(1.0, 4), ()),
    "standard_cauchy": (lambda r: r.standard_cauchy(4), ()),
    "standard_exponential": (lambda r: r.standard_exponential(4), ()),
    "standard_gamma": (lambda r: r.standard_gamma(2.0, 4), ()),
    "standard_normal": (lambda r: r.standard_normal((2, 2)), ()),
    "standard_t": (lambda r: r.standard_t(5, 4), ()),
    "triangular": (lambda r: r.triangular(0, 1, 2, 4), ()),
    "uniform": (lambda r: r.uniform(-1, 1, (2, 3)), ()),
    "vonmises": (lambda r: r.vonmises(0.0, 1.0, 4), ()),
    "wald": (lambda r: r.wald(1.0, 1.0, 4), ()),
    "weibull": (lambda r: r.weibull(2.0, 4), ()),
    "zipf": (lambda r: r.zipf(2.0, 4), ()),
    "error_scale": (lambda r: r.normal(0.0, -1.0), ()),
    "error_randint": (lambda r: r.randint(5, 1), ()),
    "error_choice": (lambda r: r.choice(3, 5, replace=False), ()),
    "error_rand_shape": (lambda r: r.rand(-1), ()),
}

STATE_ONLY = {
    "tomaxint": (lambda r: r.tomaxint(3), ()),
    "tomaxint_scalar": (lambda r: r.tomaxint(), ()),
}

MODULE_ONLY = {
    "ranf": (lambda r: r.ranf(3), ()),
    "sample": (lambda r: r.sample((2, 2)), ()),
}


@pytest.fixture(autouse=True)
def restore_global_state():
    bit_generator = numpy.random.get_bit_generator()
    state = numpy.random.get_state(legacy=False)
    yield
    numpy.random.set_bit_generator(bit_generator)
    numpy.random.set_state(state)


@pytest.mark.parametrize("name", sorted({**LEGACY_CASES, **MODULE_ONLY}))
def test_module_functions_match_numpy(parity, name):
    case, arrays = {**LEGACY_CASES, **MODULE_ONLY}[name]

    def draw_twice(xp, *args):
        xp.random.seed(2024)
        return case(xp.random, *args), case(xp.random, *args)

    parity(draw_twice, *arrays, traced=False)


@pytest.mark.parametrize("name", sorted({**LEGACY_CASES, **STATE_ONLY}))
def test_random_state_methods_match_numpy(parity, name):
    case, arrays = {**LEGACY_CASES, **STATE_ONLY}[name]

    def draw_twice(xp, *args):
        state = xp.random.RandomState(99)
        return case(state, *args), case(state, *args)

    parity(draw_twice, *arrays, traced=False)


def test_every_function_and_method_is_wrapped():
    assert set(numpy.random.__all__) <= set(arraystack.random.__all__)
    public = {n for n in dir(numpy.random.RandomState) if not n.startswith("_")}
    missing = {n for n in public if n not in vars(arraystack.random.RandomState)}
    assert not missing, f"arraystack.random.RandomState lacks {sorted(missing)}"


def test_module_functions_share_numpys_global_stream():
    arraystack.random.seed(7)
    assert numpy.random.rand() == numpy.random.RandomState(7).rand()
    numpy.random.seed(3)
    assert_same(numpy.random.RandomState(3).randn(3), arraystack.random.randn(3), rtol=0)
    arraystack.random.seed(arraystack.asarray([1, 2, 3]))
    assert_same(numpy.random.RandomState([1, 2, 3]).rand(2), arraystack.random.rand(2), rtol=0)


def test_get_state_set_state_round_trip():
    arraystack.random.seed(5)
    state = arraystack.random.get_state()
    assert state[0] == "MT19937" and state[1].dtype == numpy.uint32 and state[1].shape == (624,)
    first = arraystack.random.rand(4)
    arraystack.random.set_state(state)
    assert_same(numpy.asarray(first), arraystack.random.rand(4), rtol=0)
    numpy.random.set_state(state)  # NumPy's own tuple, portable both ways
    assert_same(numpy.random.rand(4), first, rtol=0)
    # a state whose key array is an arraystack array is accepted
    arraystack.random.set_state((state[0], arraystack.asarray(state[1]), *state[2:]))
    assert_same(numpy.asarray(first), arraystack.random.rand(4), rtol=0)
    as_dict = arraystack.random.get_state(legacy=False)
    second = arraystack.random.randn(3)
    arraystack.random.set_state(as_dict)
    assert_same(numpy.asarray(second), arraystack.random.randn(3), rtol=0)
    with pytest.raises(TypeError):
        arraystack.random.set_state("MT19937")


def test_random_state_object():
    state = arraystack.random.RandomState(8)
    assert isinstance(state, arraystack.random.RandomState)
    assert str(state) == "RandomState(MT19937)" and repr(state).startswith(
        "RandomState(MT19937) at 0x"
    )
    saved = state.get_state()
    first = state.standard_normal(3)  # the legacy Gaussian caches a second value in the state
    state.set_state(saved)
    assert_same(numpy.asarray(first), state.standard_normal(3), rtol=0)
    clone = pickle.loads(pickle.dumps(state))
    assert isinstance(clone, arraystack.random.RandomState)
    assert_same(numpy.asarray(state.rand(3)), clone.rand(3), rtol=0)
    on_pcg = arraystack.random.RandomState(arraystack.random.PCG64(1))
    assert on_pcg.rand() == numpy.random.RandomState(numpy.random.PCG64(1)).rand()
    with pytest.raises(TypeError):
        arraystack.random.RandomState("x")


def test_random_integers_warns_like_numpy():
    state = arraystack.random.RandomState(1)
    with pytest.warns(DeprecationWarning):
        drawn = state.random_integers(1, 6, 5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        expected = numpy.random.RandomState(1).random_integers(1, 6, 5)
    assert_same(expected, drawn)


def test_set_bit_generator():
    arraystack.random.set_bit_generator(arraystack.random.PCG64(4))
    assert isinstance(arraystack.random.get_bit_generator(), numpy.random.PCG64)
    drawn = arraystack.random.random(3)
    assert_same(numpy.random.RandomState(numpy.random.PCG64(4)).random(3), drawn, rtol=0)
