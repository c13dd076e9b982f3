"""arraystack.nn.initializers: fans as JAX computes them, variances, ranges, JAX's values, jit."""

from __future__ import annotations

import math

import numpy
import pytest

import arraystack
from arraystack import prng
from arraystack.nn import initializers

# (name, variance as a function of (fan_in, fan_out), bounded uniform?)
VARIANCE_RULES = [
    ("glorot_uniform", lambda i, o: 2.0 / (i + o), True),
    ("glorot_normal", lambda i, o: 2.0 / (i + o), False),
    ("he_uniform", lambda i, o: 2.0 / i, True),
    ("he_normal", lambda i, o: 2.0 / i, False),
    ("lecun_uniform", lambda i, o: 1.0 / i, True),
    ("lecun_normal", lambda i, o: 1.0 / i, False),
]


@pytest.mark.parametrize(
    "shape, fans",
    [((5, 7), (5, 7)), ((3, 3, 16, 8), (144, 72)), ((2, 4, 6), (8, 12)), ((0, 4), (0, 4))],
)
def test_fans_like_jax(shape, fans):
    assert initializers.compute_fans(shape) == fans


def test_fans_need_two_axes():
    with pytest.raises(ValueError, match="at least 2 axes"):
        initializers.glorot_uniform(prng.key(0), (5,))


@pytest.mark.parametrize("name, variance, bounded", VARIANCE_RULES)
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_variance_and_range(name, variance, bounded, dtype):
    shape = (3, 3, 64, 32)
    fan_in, fan_out = initializers.compute_fans(shape)
    w = numpy.asarray(getattr(initializers, name)(prng.key(1), shape, dtype))
    assert w.shape == shape and w.dtype == dtype
    target = variance(fan_in, fan_out)
    assert abs(w.mean()) < 0.05 * math.sqrt(target)
    assert abs(w.var() / target - 1.0) < 0.05
    if bounded:
        assert numpy.abs(w).max() <= math.sqrt(3 * target)
    else:  # truncated at two standard deviations of the underlying normal
        assert numpy.abs(w).max() <= 2 * math.sqrt(target) / 0.87962566103423978 * (1 + 1e-6)


def test_default_dtype_and_constants():
    key = prng.key(0)
    assert numpy.asarray(initializers.he_normal(key, (4, 4))).dtype == numpy.float32
    numpy.testing.assert_array_equal(
        initializers.zeros(key, (2, 3)), numpy.zeros((2, 3), "float32")
    )
    ones = numpy.asarray(initializers.ones(key, (3,), numpy.float64))
    assert ones.dtype == numpy.float64 and ones.tolist() == [1.0, 1.0, 1.0]
    assert numpy.asarray(initializers.constant(0.5)(key, (2,))).tolist() == [0.5, 0.5]


def test_matches_jax_values():
    # jax.nn.initializers.glorot_normal()(PRNGKey(0), (2, 3)), jax 0.10.2.
    expected = [[1.0468423, 1.2329134, -0.29671577], [-0.05394943, 0.12079362, -0.65617436]]
    got = initializers.glorot_normal(prng.key(0), (2, 3))
    numpy.testing.assert_allclose(numpy.asarray(got), expected, rtol=2e-6, atol=1e-7)
    expected = [[1.550764, 1.6578493, -0.5809593], [-0.10853563, 0.2421016, -1.1587315]]
    got = initializers.he_uniform(prng.key(0), (2, 3))
    numpy.testing.assert_allclose(numpy.asarray(got), expected, rtol=2e-6, atol=1e-7)


def test_truncated_normal_moments_and_jax_values():
    z = numpy.asarray(prng.truncated_normal(prng.key(0), -2.0, 2.0, (40000,)))
    assert z.min() > -2.0 and z.max() < 2.0
    assert abs(z.mean()) < 0.02 and abs(z.var() - 0.87962566103423978**2) < 0.02
    expected = [1.4559592, 1.7147487, -0.41267535, -0.07503343, 0.16800101]
    got = prng.truncated_normal(prng.key(0), -2, 2, (5,))
    numpy.testing.assert_allclose(numpy.asarray(got), expected, rtol=2e-6)
    one_sided = numpy.asarray(prng.truncated_normal(prng.key(1), 0.5, 3.0, (1000,), numpy.float64))
    assert one_sided.min() > 0.5 and one_sided.max() < 3.0


def test_erfinv_inverts_erf():
    y = numpy.linspace(-0.9999, 0.9999, 2001)
    x = numpy.asarray(prng._erfinv(arraystack.asarray(y)))
    numpy.testing.assert_allclose(numpy.vectorize(math.erf)(x), y, rtol=1e-6, atol=1e-7)


def test_initializers_under_jit():
    def init(key):
        k1, k2 = prng.split(key)
        return initializers.glorot_uniform(k1, (4, 3)), initializers.he_normal(k2, (2, 2, 3, 5))

    eager = init(prng.key(3))
    traced = arraystack.jit(init, backend="reference")(prng.key(3))
    for a, b in zip(eager, traced):
        numpy.testing.assert_allclose(numpy.asarray(b), numpy.asarray(a), rtol=1e-6)
