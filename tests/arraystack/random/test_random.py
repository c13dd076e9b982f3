"""arraystack.random Generator API: NumPy's streams, values, dtypes, shapes and errors, same seed same numbers.

Each case is written once against `xp` and run under NumPy and arraystack (NumPy-array arguments become
arraystack arrays), drawing twice from one generator so the streams must advance alike.
"""

from __future__ import annotations

import copy
import pickle

import numpy
import pytest

import arraystack
from tests.conftest import assert_same

A = numpy.array
LOC, SCALE = A([0.0, 1.0, -2.0]), A([[1.0], [0.5]])
PROB, P3 = A([0.1, 0.5, 0.9]), A([0.2, 0.3, 0.5])
X2 = numpy.arange(12.0).reshape(3, 4)
MEAN, COV = A([1.0, -1.0]), A([[2.0, 0.3], [0.3, 1.0]])

GENERATOR_CASES = {
    "random": (lambda g: g.random(), ()),
    "random_shape": (lambda g: g.random((2, 3)), ()),
    "random_f32": (lambda g: g.random(4, dtype=numpy.float32), ()),
    "integers": (lambda g: g.integers(10), ()),
    "integers_range": (lambda g: g.integers(-5, 5, size=(3, 4)), ()),
    "integers_uint8": (lambda g: g.integers(0, 100, 5, dtype=arraystack.uint8), ()),
    "integers_endpoint": (lambda g: g.integers(1, 6, 8, endpoint=True), ()),
    "integers_arrays": (lambda g, lo, hi: g.integers(lo, hi), (A([0, 5, 10]), A([3, 9, 100]))),
    "integers_bool": (lambda g: g.integers(0, 2, 6, dtype=bool), ()),
    "choice_int": (lambda g: g.choice(5, 3), ()),
    "choice_scalar": (lambda g: g.choice(5), ()),
    "choice_p": (lambda g, a, p: g.choice(a, 4, p=p), (A([1.5, 2.5, 3.5]), P3)),
    "choice_axis": (lambda g, a: g.choice(a, 2, replace=False, axis=1), (X2,)),
    "choice_no_shuffle": (lambda g: g.choice(10, 4, replace=False, shuffle=False), ()),
    "bytes": (lambda g: g.bytes(5), ()),
    "permutation_int": (lambda g: g.permutation(6), ()),
    "permutation_array": (lambda g, a: g.permutation(a), (X2,)),
    "permutation_axis": (lambda g, a: g.permutation(a, axis=1), (X2,)),
    "permuted": (lambda g, a: g.permuted(a, axis=0), (X2,)),
    "permuted_flat": (lambda g, a: g.permuted(a), (X2,)),
    "beta": (lambda g, a: g.beta(a, 2.0), (A([0.5, 1.0, 3.0]),)),
    "binomial": (lambda g, p: g.binomial(10, p, size=(2, 3)), (PROB,)),
    "chisquare": (lambda g: g.chisquare(3.0, 4), ()),
    "dirichlet": (lambda g, a: g.dirichlet(a, 2), (A([1.0, 2.0, 3.0]),)),
    "exponential": (lambda g: g.exponential(2.0, (3,)), ()),
    "f": (lambda g: g.f(3, 4, 5), ()),
    "gamma": (lambda g: g.gamma(2.0, 1.5, 4), ()),
    "geometric": (lambda g: g.geometric(0.3, 5), ()),
    "gumbel": (lambda g: g.gumbel(0.0, 1.0, 4), ()),
    "hypergeometric": (lambda g: g.hypergeometric(10, 5, 7, 4), ()),
    "laplace": (lambda g: g.laplace(0.0, 1.0, 3), ()),
    "logistic": (lambda g: g.logistic(0.0, 1.0, 3), ()),
    "lognormal": (lambda g: g.lognormal(0.0, 1.0, 3), ()),
    "logseries": (lambda g: g.logseries(0.5, 4), ()),
    "multinomial": (lambda g, p: g.multinomial(10, p, 3), (P3,)),
    "multivariate_hypergeometric": (lambda g: g.multivariate_hypergeometric([3, 4, 5], 6, 2), ()),
    "multivariate_normal": (lambda g, m, c: g.multivariate_normal(m, c, 3), (MEAN, COV)),
    "multivariate_normal_cholesky": (
        lambda g, m, c: g.multivariate_normal(m, c, (2, 2), method="cholesky"),
        (MEAN, COV),
    ),
    "negative_binomial": (lambda g: g.negative_binomial(5, 0.5, 4), ()),
    "noncentral_chisquare": (lambda g: g.noncentral_chisquare(3, 2, 4), ()),
    "noncentral_f": (lambda g: g.noncentral_f(3, 4, 2, 4), ()),
    "normal": (lambda g: g.normal(), ()),
    "normal_broadcast": (lambda g, loc, scale: g.normal(loc, scale), (LOC, SCALE)),
    "pareto": (lambda g: g.pareto(3, 4), ()),
    "poisson": (lambda g: g.poisson(3.0), ()),
    "poisson_array": (lambda g, lam: g.poisson(lam), (A([0.5, 4.0, 30.0]),)),
    "power": (lambda g: g.power(3, 4), ()),
    "rayleigh": (lambda g: g.rayleigh(1.0, 4), ()),
    "standard_cauchy": (lambda g: g.standard_cauchy(4), ()),
    "standard_exponential": (lambda g: g.standard_exponential(4, dtype=numpy.float32), ()),
    "standard_exponential_inv": (lambda g: g.standard_exponential(3, method="inv"), ()),
    "standard_gamma": (lambda g: g.standard_gamma(2.0, 4), ()),
    "standard_normal": (lambda g: g.standard_normal((2, 2), dtype=numpy.float32), ()),
    "standard_t": (lambda g: g.standard_t(5, 4), ()),
    "triangular": (lambda g: g.triangular(0, 1, 2, 4), ()),
    "uniform": (lambda g: g.uniform(-1, 1, (2, 3)), ()),
    "uniform_array": (lambda g, lo: g.uniform(lo, 2.0), (LOC,)),
    "vonmises": (lambda g: g.vonmises(0.0, 1.0, 4), ()),
    "wald": (lambda g: g.wald(1.0, 1.0, 4), ()),
    "weibull": (lambda g: g.weibull(2.0, 4), ()),
    "zipf": (lambda g: g.zipf(2.0, 4), ()),
    "empty": (lambda g: g.normal(size=(0, 3)), ()),
}

GENERATOR_ERRORS = {
    "negative_scale": lambda g: g.normal(0.0, -1.0),
    "low_above_high": lambda g: g.integers(5, 1),
    "integers_float_dtype": lambda g: g.integers(0, 10, dtype=numpy.float64),
    "random_int_dtype": lambda g: g.random(dtype=numpy.int32),
    "choice_empty": lambda g: g.choice(0, 1),
    "choice_too_many": lambda g: g.choice(3, 5, replace=False),
    "choice_bad_p": lambda g: g.choice(3, 2, p=[0.5, 0.6, 0.1]),
    "beta_negative": lambda g: g.beta(-1.0, 1.0),
    "poisson_negative": lambda g: g.poisson(-1.0),
    "dirichlet_negative": lambda g: g.dirichlet([-1.0, 1.0]),
    "mvn_shapes": lambda g: g.multivariate_normal([0.0, 0.0], numpy.eye(3)),
    "permuted_out_shape": lambda g: g.permuted(numpy.ones(3), out=numpy.ones(4)),
}


@pytest.mark.parametrize("name", sorted(GENERATOR_CASES))
def test_generator_methods_match_numpy(parity, name):
    case, arrays = GENERATOR_CASES[name]

    def draw_twice(xp, *args):
        rng = xp.random.default_rng(12345)
        return case(rng, *args), case(rng, *args)

    parity(draw_twice, *arrays, traced=False)


@pytest.mark.parametrize("name", sorted(GENERATOR_ERRORS))
def test_generator_errors_match_numpy(parity, name):
    parity(lambda xp: GENERATOR_ERRORS[name](xp.random.default_rng(0)), traced=False)


def test_every_generator_method_is_wrapped():
    public = {n for n in dir(numpy.random.Generator) if not n.startswith("_")}
    missing = {n for n in public if n not in vars(arraystack.random.Generator)}
    assert not missing, f"arraystack.random.Generator lacks {sorted(missing)}"


def test_results_are_arraystack_arrays():
    rng = arraystack.random.default_rng(0)
    assert isinstance(rng.normal(size=3), arraystack.ndarray)
    assert isinstance(rng.integers(5), arraystack.ndarray)  # NumPy: numpy.int64 -> 0-d array
    assert type(rng.random()) is float  # NumPy returns a Python float here
    assert isinstance(rng.bytes(2), bytes)
    # arrays of a dtype arraystack does not hold stay NumPy's
    assert rng.choice(["a", "b"], 3).dtype.kind == "U"


# -- default_rng, Generator, bit generators, SeedSequence ---------------------------------------------


def _first_draws(seed_for_numpy, seed_for_arraystack):
    expected = numpy.random.default_rng(seed_for_numpy).standard_normal(4)
    actual = arraystack.random.default_rng(seed_for_arraystack).standard_normal(4)
    assert_same(expected, actual, rtol=0)


def test_default_rng_seeds():
    _first_draws(0, 0)
    _first_draws([1, 2, 3], [1, 2, 3])
    _first_draws([1, 2, 3], arraystack.asarray([1, 2, 3]))
    _first_draws(numpy.random.SeedSequence(9), arraystack.random.SeedSequence(9))
    _first_draws(numpy.random.Philox(4), arraystack.random.Philox(4))
    _first_draws(numpy.random.RandomState(2), arraystack.random.RandomState(2))
    rng = arraystack.random.default_rng()
    assert isinstance(rng, arraystack.random.Generator)
    assert arraystack.random.default_rng(rng) is rng
    assert rng.normal(size=(2, 2)).shape == (2, 2)


def test_default_rng_of_a_numpy_generator_shares_its_stream():
    numpy_rng = numpy.random.default_rng(5)
    rng = arraystack.random.default_rng(numpy_rng)
    assert isinstance(rng, arraystack.random.Generator)
    assert rng.bit_generator is numpy_rng.bit_generator
    first = float(rng.random())
    assert numpy_rng.random() == numpy.random.default_rng(5).random(2)[1]
    assert first == numpy.random.default_rng(5).random()


def test_generator_constructor_repr_pickle_spawn():
    rng = arraystack.random.Generator(arraystack.random.PCG64(3))
    assert str(rng) == "Generator(PCG64)" and repr(rng).startswith("Generator(PCG64) at 0x")
    assert isinstance(rng.bit_generator, numpy.random.PCG64)
    for duplicate in (lambda g: pickle.loads(pickle.dumps(g)), copy.deepcopy):
        clone = duplicate(rng)
        assert isinstance(clone, arraystack.random.Generator)
        assert_same(numpy.asarray(rng.normal(size=3)), clone.normal(size=3), rtol=0)
    numpy_children = numpy.random.Generator(numpy.random.PCG64(3)).spawn(2)
    children = arraystack.random.Generator(arraystack.random.PCG64(3)).spawn(2)
    assert all(isinstance(c, arraystack.random.Generator) for c in children)
    for n, a in zip(numpy_children, children):
        assert_same(n.random(3), a.random(3), rtol=0)
    with pytest.raises(AttributeError):  # as NumPy: not a bit generator
        arraystack.random.Generator(5)
    with pytest.raises(TypeError):
        arraystack.random.default_rng("seed")


BIT_GENERATORS = ["PCG64", "PCG64DXSM", "Philox", "SFC64", "MT19937"]


def same_state(a, b) -> bool:
    """Bit-generator states (dicts of ints and NumPy arrays) are equal."""
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_state(a[k], b[k]) for k in a)
    if isinstance(a, numpy.ndarray):
        return a.dtype == b.dtype and numpy.array_equal(a, b)
    return type(a) is type(b) and a == b


@pytest.mark.parametrize("name", BIT_GENERATORS)
def test_bit_generators_are_numpys(name):
    ours, theirs = getattr(arraystack.random, name), getattr(numpy.random, name)
    bg, ref = ours(arraystack.asarray([7, 8])), theirs([7, 8])
    assert isinstance(bg, theirs) and isinstance(bg, arraystack.random.BitGenerator)
    assert same_state(bg.state, ref.state)
    assert_same(ref.random_raw(3), bg.random_raw(3), rtol=0)
    assert bg.random_raw() == ref.random_raw()
    assert bg.random_raw(2, output=False) is None
    ref.random_raw(2)
    if name != "SFC64":
        jumped = bg.jumped()
        assert type(jumped) is ours and same_state(jumped.state, ref.jumped().state)
    assert all(type(c) is ours for c in bg.spawn(2))
    clone = pickle.loads(pickle.dumps(bg))
    assert type(clone) is ours and same_state(clone.state, bg.state)
    assert_same(theirs(1).random_raw(2), ours(1).random_raw(2), rtol=0)
    # NumPy's own Generator accepts arraystack's bit generators
    assert numpy.random.Generator(ours(5)).random() == numpy.random.Generator(theirs(5)).random()


def test_bit_generator_state_round_trip():
    rng = arraystack.random.default_rng(11)
    state = rng.bit_generator.state
    first = rng.standard_normal(5)
    rng.bit_generator.state = state
    assert_same(numpy.asarray(first), rng.standard_normal(5), rtol=0)
    numpy_rng = numpy.random.default_rng()
    numpy_rng.bit_generator.state = state  # states are NumPy's dicts, portable both ways
    assert_same(numpy_rng.standard_normal(5), first, rtol=0)


def test_seed_sequence_is_numpys():
    assert arraystack.random.SeedSequence is numpy.random.SeedSequence
    seq = arraystack.random.SeedSequence(123)
    assert numpy.array_equal(
        seq.generate_state(4), numpy.random.SeedSequence(123).generate_state(4)
    )
    assert arraystack.random.BitGenerator is numpy.random.BitGenerator
