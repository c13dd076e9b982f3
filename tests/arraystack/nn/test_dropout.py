"""arraystack.nn.dropout: inverted dropout keeps the expectation, is a pure function of the key."""

from __future__ import annotations

import numpy
import pytest

import arraystack
from arraystack import prng
from arraystack.nn.dropout import dropout


@pytest.mark.parametrize("rate", [0.1, 0.5, 0.8])
def test_drop_fraction_and_scaling(rate):
    x = numpy.full((200, 100), 3.0, dtype=numpy.float32)
    y = numpy.asarray(dropout(prng.key(0), arraystack.asarray(x), rate))
    assert y.dtype == numpy.float32
    dropped = y == 0
    assert abs(dropped.mean() - rate) < 0.02
    numpy.testing.assert_allclose(y[~dropped], 3.0 / (1.0 - rate), rtol=1e-6)
    assert abs(y.mean() - 3.0) < 0.1


def test_identity_cases_and_errors():
    x = arraystack.asarray(numpy.arange(6.0).reshape(2, 3))
    key = prng.key(1)
    numpy.testing.assert_array_equal(dropout(key, x, 0.5, deterministic=True), numpy.asarray(x))
    numpy.testing.assert_array_equal(dropout(key, x, 0.0), numpy.asarray(x))
    numpy.testing.assert_array_equal(dropout(key, x, 1.0), numpy.zeros((2, 3)))
    with pytest.raises(ValueError, match="rate"):
        dropout(key, x, 1.5)


def test_same_key_same_mask_and_jit():
    x = arraystack.ones((4, 8))
    a = numpy.asarray(dropout(prng.key(2), x, 0.3))
    b = numpy.asarray(
        arraystack.jit(dropout, static_argnums=(2,), backend="reference")(prng.key(2), x, 0.3)
    )
    numpy.testing.assert_array_equal(a, b)
    c = numpy.asarray(dropout(prng.key(3), x, 0.3))
    assert not numpy.array_equal(a, c)


def test_gradient_is_the_scaled_mask():
    x = arraystack.asarray(numpy.linspace(-1.0, 1.0, 12))
    key = prng.key(4)
    g = numpy.asarray(arraystack.grad(lambda v: dropout(key, v, 0.25).sum())(x))
    mask = numpy.asarray(dropout(key, arraystack.ones(12), 0.25))
    numpy.testing.assert_allclose(g, mask, rtol=1e-12)


def test_per_example_keys_under_vmap():
    if not hasattr(arraystack, "vmap"):
        pytest.skip("arraystack.vmap is not available yet")
    keys = prng.split(prng.key(5), 4)
    x = arraystack.asarray(numpy.arange(24.0).reshape(4, 6))
    batched = numpy.asarray(arraystack.vmap(lambda k, row: dropout(k, row, 0.5))(keys, x))
    looped = numpy.stack([numpy.asarray(dropout(keys[i], x[i], 0.5)) for i in range(4)])
    numpy.testing.assert_array_equal(batched, looped)
