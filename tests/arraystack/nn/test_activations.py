"""Activations against NumPy/SciPy references, their gradients against finite differences, eager vs
jit."""

from __future__ import annotations

import numpy
import pytest
import scipy.special

import arraystack as ast
from arraystack import nn

RNG = numpy.random.default_rng(0)
X = RNG.standard_normal((3, 5)) * 3.0
X_OFF_KINKS = X + 0.05 * numpy.sign(X)  # keep finite differences away from 0 and 6


def _np_softmax(x, axis=-1):
    e = numpy.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


ELEMENTWISE = [
    ("relu", nn.relu, lambda x: numpy.maximum(x, 0)),
    ("relu6", nn.relu6, lambda x: numpy.clip(x, 0, 6)),
    ("leaky_relu", nn.leaky_relu, lambda x: numpy.where(x >= 0, x, 0.01 * x)),
    ("elu", nn.elu, lambda x: numpy.where(x > 0, x, numpy.expm1(x))),
    ("gelu", nn.gelu, lambda x: 0.5 * x * (1 + scipy.special.erf(x / numpy.sqrt(2)))),
    (
        "gelu_tanh",
        lambda x: nn.gelu(x, approximate="tanh"),
        lambda x: 0.5 * x * (1 + numpy.tanh(numpy.sqrt(2 / numpy.pi) * (x + 0.044715 * x**3))),
    ),
    ("silu", nn.silu, lambda x: x * scipy.special.expit(x)),
    ("sigmoid", nn.sigmoid, scipy.special.expit),
    ("log_sigmoid", nn.log_sigmoid, scipy.special.log_expit),
    ("softplus", nn.softplus, lambda x: numpy.logaddexp(x, 0)),
    ("tanh", nn.tanh, numpy.tanh),
    ("softmax", nn.softmax, _np_softmax),
    ("softmax0", lambda x: nn.softmax(x, axis=0), lambda x: _np_softmax(x, 0)),
    ("log_softmax", nn.log_softmax, lambda x: scipy.special.log_softmax(x, axis=-1)),
    ("logsumexp", nn.logsumexp, scipy.special.logsumexp),
    ("logsumexp1", lambda x: nn.logsumexp(x, axis=1), lambda x: scipy.special.logsumexp(x, axis=1)),
    (
        "logsumexp_keep",
        lambda x: nn.logsumexp(x, axis=(0, 1), keepdims=True),
        lambda x: scipy.special.logsumexp(x, axis=(0, 1), keepdims=True),
    ),
    (
        "standardize",
        nn.standardize,
        lambda x: (x - x.mean(-1, keepdims=True)) / numpy.sqrt(x.var(-1, keepdims=True) + 1e-5),
    ),
]
IDS = [name for name, _, _ in ELEMENTWISE]


@pytest.mark.parametrize("name, fn, ref", ELEMENTWISE, ids=IDS)
def test_values_eager_and_jit(name, fn, ref):
    expected = ref(X)
    numpy.testing.assert_allclose(
        numpy.asarray(fn(ast.asarray(X))), expected, rtol=1e-12, atol=1e-14
    )
    numpy.testing.assert_allclose(
        numpy.asarray(ast.jit(fn)(ast.asarray(X))), expected, rtol=1e-10, atol=1e-12
    )


@pytest.mark.parametrize("name, fn, ref", ELEMENTWISE, ids=IDS)
def test_gradients(name, fn, ref, check_grads):
    check_grads(fn, [X_OFF_KINKS])


@pytest.mark.parametrize("name", ["relu", "gelu", "softplus", "softmax", "logsumexp"])
def test_gradients_under_jit(name, check_grads):
    fn = {n: f for n, f, _ in ELEMENTWISE}[name]
    check_grads(fn, [X_OFF_KINKS], jit=True)


def test_float32_stays_float32():
    x = ast.asarray(X.astype(numpy.float32))
    for name, fn, _ in ELEMENTWISE:
        assert fn(x).dtype == numpy.float32, name


def test_stability_at_extremes():
    x = ast.asarray([-1000.0, -50.0, 0.0, 50.0, 1000.0])
    numpy.testing.assert_allclose(
        numpy.asarray(nn.softplus(x)), [0.0, numpy.exp(-50.0), numpy.log(2), 50.0, 1000.0]
    )
    numpy.testing.assert_allclose(
        numpy.asarray(nn.sigmoid(x)), scipy.special.expit(numpy.asarray(x))
    )
    numpy.testing.assert_allclose(numpy.asarray(nn.logsumexp(x)), 1000.0)
    s = numpy.asarray(nn.softmax(x))
    assert numpy.isfinite(s).all() and abs(s.sum() - 1) < 1e-12
    g = numpy.asarray(ast.grad(lambda v: ast.sum(nn.softplus(v)))(x))
    numpy.testing.assert_allclose(g, scipy.special.expit(numpy.asarray(x)))
    g = numpy.asarray(ast.grad(lambda v: ast.sum(nn.elu(v)))(ast.asarray([-1000.0, 1000.0])))
    numpy.testing.assert_allclose(g, [0.0, 1.0])


def test_derivatives_at_kinks():
    x = ast.asarray([0.0, 6.0])
    numpy.testing.assert_allclose(
        numpy.asarray(ast.grad(lambda v: ast.sum(nn.relu(v)))(x)), [0.0, 1.0]
    )
    numpy.testing.assert_allclose(
        numpy.asarray(ast.grad(lambda v: ast.sum(nn.relu6(v)))(x)), [0.0, 0.0]
    )
    numpy.testing.assert_allclose(
        numpy.asarray(ast.grad(lambda v: ast.sum(nn.softplus(v)))(x)[0]), 0.5
    )


@pytest.mark.filterwarnings("ignore:divide by zero")
def test_logsumexp_all_neg_inf():
    x = ast.asarray([[-numpy.inf, -numpy.inf], [0.0, -numpy.inf]])
    numpy.testing.assert_array_equal(numpy.asarray(nn.logsumexp(x, axis=1)), [-numpy.inf, 0.0])


def test_one_hot():
    labels = numpy.array([[0, 2], [1, 3]])
    out = nn.one_hot(ast.asarray(labels), 3)
    assert out.dtype == numpy.float64 and out.shape == (2, 2, 3)
    numpy.testing.assert_array_equal(
        numpy.asarray(out), numpy.eye(3)[[[0, 2], [1, 0]]] * (labels < 3)[..., None]
    )
    jitted = ast.jit(lambda v: nn.one_hot(v, 3, dtype=ast.float32))(ast.asarray(labels))
    assert jitted.dtype == numpy.float32
    numpy.testing.assert_array_equal(numpy.asarray(jitted), numpy.asarray(out))


def test_second_order(check_grads):
    check_grads(nn.gelu, [X_OFF_KINKS], order=2)
    check_grads(lambda x: nn.logsumexp(x, axis=1), [X_OFF_KINKS], order=2, modes=("rev",))


def test_vmap_matches_loop():
    if not hasattr(ast, "vmap"):
        pytest.skip("arraystack.vmap is not available")
    out = ast.vmap(nn.log_softmax)(ast.asarray(X))
    numpy.testing.assert_allclose(
        numpy.asarray(out), scipy.special.log_softmax(X, axis=-1), rtol=1e-12
    )
