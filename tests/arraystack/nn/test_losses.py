"""Losses against NumPy references, gradients against finite differences, the custom VJP of
softmax_cross_entropy, eager vs jit."""

from __future__ import annotations

import numpy
import pytest
import scipy.special

import arraystack as ast
from arraystack import nn
from arraystack.nn import losses

RNG = numpy.random.default_rng(1)
LOGITS = RNG.standard_normal((4, 5)) * 2.0
LABELS = numpy.array([0, 3, 4, 1])
PROBS = scipy.special.softmax(RNG.standard_normal((4, 5)), axis=-1)


def _reduce(v, reduction):
    return {"mean": numpy.mean, "sum": numpy.sum, "none": lambda a: a}[reduction](v)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_cross_entropy_integer_labels(reduction):
    expected = _reduce(
        -scipy.special.log_softmax(LOGITS, axis=-1)[numpy.arange(4), LABELS], reduction
    )
    got = nn.cross_entropy(ast.asarray(LOGITS), ast.asarray(LABELS), reduction=reduction)
    numpy.testing.assert_allclose(numpy.asarray(got), expected, rtol=1e-12)
    jitted = ast.jit(lambda x, y: nn.cross_entropy(x, y, reduction=reduction))(
        ast.asarray(LOGITS), ast.asarray(LABELS)
    )
    numpy.testing.assert_allclose(numpy.asarray(jitted), expected, rtol=1e-10)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_cross_entropy_probability_targets(reduction):
    expected = _reduce(-(PROBS * scipy.special.log_softmax(LOGITS, axis=-1)).sum(-1), reduction)
    got = nn.cross_entropy(ast.asarray(LOGITS), ast.asarray(PROBS), reduction=reduction)
    numpy.testing.assert_allclose(numpy.asarray(got), expected, rtol=1e-12)


def test_cross_entropy_class_axis():
    logits = RNG.standard_normal((2, 3, 4))  # (N, C, L), PyTorch's layout for per-position labels
    labels = RNG.integers(0, 3, (2, 4))
    logp = scipy.special.log_softmax(logits, axis=1)
    expected = -numpy.take_along_axis(logp, labels[:, None, :], axis=1)[:, 0, :].mean()
    got = nn.cross_entropy(ast.asarray(logits), ast.asarray(labels), axis=1)
    numpy.testing.assert_allclose(numpy.asarray(got), expected, rtol=1e-12)


def test_cross_entropy_uses_custom_vjp():
    if not hasattr(ast, "custom_vjp"):
        pytest.skip("arraystack.custom_vjp is not available")
    assert isinstance(losses._xent_function(), ast.custom_vjp)
    onehot = numpy.eye(5)[LABELS]
    expected = (scipy.special.softmax(LOGITS, axis=-1) - onehot) / 4
    for grad in (ast.grad(nn.cross_entropy), ast.jit(ast.grad(nn.cross_entropy))):
        got = grad(ast.asarray(LOGITS), ast.asarray(LABELS))
        numpy.testing.assert_allclose(numpy.asarray(got), expected, rtol=1e-10, atol=1e-14)


def test_softmax_cross_entropy_targets_of_the_logits_dtype_are_not_copied():
    targets = numpy.eye(5)[LABELS]
    got = ast.jit(nn.softmax_cross_entropy)(ast.asarray(LOGITS), ast.asarray(targets))
    logp = LOGITS - scipy.special.logsumexp(LOGITS, axis=-1, keepdims=True)
    numpy.testing.assert_allclose(numpy.asarray(got), -(targets * logp).sum(-1), rtol=1e-12)
    lowered = ast.jit(nn.softmax_cross_entropy).lower(ast.asarray(LOGITS), ast.asarray(targets))
    assert not [e for e in lowered.optimized.eqns if e.prim.name == "copy"], lowered.optimized


def test_cross_entropy_extreme_logits():
    logits = ast.asarray([[1000.0, -1000.0, 0.0], [-1000.0, -1000.0, 1000.0]])
    labels = ast.asarray([1, 2])
    numpy.testing.assert_allclose(
        numpy.asarray(nn.cross_entropy(logits, labels, reduction="none")), [2000.0, 0.0]
    )
    g = numpy.asarray(ast.grad(nn.cross_entropy)(logits, labels))
    numpy.testing.assert_allclose(g, [[0.5, -0.5, 0.0], [0.0, 0.0, 0.0]], atol=1e-12)


def test_cross_entropy_gradients(check_grads):
    labels = ast.asarray(LABELS)
    check_grads(lambda x: nn.cross_entropy(x, labels), [LOGITS])
    check_grads(lambda x: nn.cross_entropy(x, labels, reduction="none"), [LOGITS], jit=True)
    check_grads(lambda x, t: nn.cross_entropy(x, t, reduction="sum"), [LOGITS, PROBS])


def test_cross_entropy_second_order(check_grads):
    # the custom VJP's backward is ordinary arraystack code, so it differentiates again
    labels = ast.asarray(LABELS)
    g = ast.grad(lambda x: nn.cross_entropy(x, labels))
    check_grads(g, [LOGITS], modes=("rev",))


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_binary_cross_entropy(reduction, check_grads):
    x = RNG.standard_normal((3, 4)) * 3
    t = RNG.uniform(size=(3, 4))
    p = scipy.special.expit(x)
    expected = _reduce(-(t * numpy.log(p) + (1 - t) * numpy.log1p(-p)), reduction)
    got = nn.binary_cross_entropy(ast.asarray(x), ast.asarray(t), reduction=reduction)
    numpy.testing.assert_allclose(numpy.asarray(got), expected, rtol=1e-10)
    check_grads(lambda a, b: nn.binary_cross_entropy(a, b, reduction=reduction), [x, t])


def test_binary_cross_entropy_extremes():
    x = ast.asarray([1000.0, -1000.0, 1000.0, -1000.0])
    t = ast.asarray([1.0, 0.0, 0.0, 1.0])
    numpy.testing.assert_allclose(
        numpy.asarray(nn.binary_cross_entropy(x, t, reduction="none")), [0, 0, 1000, 1000]
    )
    g = numpy.asarray(ast.grad(lambda a: nn.binary_cross_entropy(a, t, reduction="sum"))(x))
    numpy.testing.assert_allclose(g, [0.0, 0.0, 1.0, -1.0])


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_mse_and_huber(reduction, check_grads):
    a = RNG.standard_normal((3, 4)) * 2
    b = RNG.standard_normal((3, 4))
    d = a - b
    numpy.testing.assert_allclose(
        numpy.asarray(nn.mse(ast.asarray(a), ast.asarray(b), reduction=reduction)),
        _reduce(d * d, reduction),
    )
    ad = numpy.abs(d)
    expected = numpy.where(ad <= 0.7, 0.5 * d * d, 0.7 * (ad - 0.35))
    got = nn.huber(ast.asarray(a), ast.asarray(b), delta=0.7, reduction=reduction)
    numpy.testing.assert_allclose(numpy.asarray(got), _reduce(expected, reduction), rtol=1e-12)
    check_grads(lambda x, y: nn.mse(x, y, reduction=reduction), [a, b])
    check_grads(lambda x, y: nn.huber(x, y, delta=0.7, reduction=reduction), [a, b])


def test_bad_reduction_and_shapes():
    with pytest.raises(ValueError, match="reduction"):
        nn.mse(ast.ones(3), ast.ones(3), reduction="max")
    with pytest.raises(ValueError, match="labels"):
        nn.cross_entropy(ast.ones((2, 3)), ast.asarray([0, 1, 2]))
