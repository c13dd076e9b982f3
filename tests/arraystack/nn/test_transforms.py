"""nn functions under vmap (against a Python loop) and under compositions of vmap, grad and jit."""

from __future__ import annotations

import numpy
import pytest

import arraystack as ast
from arraystack import nn

RNG = numpy.random.default_rng(5)
pytestmark = pytest.mark.skipif(not hasattr(ast, "vmap"), reason="arraystack.vmap is not available")

W = ast.asarray(RNG.standard_normal((4, 2, 3, 3)))


def _conv(x):
    return nn.conv2d({"w": W}, x, stride=2, padding="SAME")


def _pool(x):
    return nn.max_pool(x, 2, 1, padding="SAME") + nn.avg_pool(
        x, 3, 1, "SAME", count_include_pad=False
    )


def _conv_loss_grad(x):
    return ast.grad(lambda v: ast.sum(_conv(v) ** 2))(x)


@pytest.mark.parametrize(
    "fn", [_conv, _pool, _conv_loss_grad, nn.log_softmax, nn.gelu], ids=lambda f: f.__name__
)
def test_vmap_matches_loop(fn):
    xs = ast.asarray(RNG.standard_normal((3, 2, 2, 5, 5)))
    expected = numpy.stack([numpy.asarray(fn(xs[i])) for i in range(3)])
    numpy.testing.assert_allclose(numpy.asarray(ast.vmap(fn)(xs)), expected, rtol=1e-10, atol=1e-12)
    numpy.testing.assert_allclose(
        numpy.asarray(ast.jit(ast.vmap(fn))(xs)), expected, rtol=1e-10, atol=1e-12
    )


def test_per_example_cross_entropy_gradients():
    logits = ast.asarray(RNG.standard_normal((3, 4, 5)))
    labels = ast.asarray(RNG.integers(0, 5, (3, 4)))
    per_example = ast.vmap(ast.grad(nn.cross_entropy))(logits, labels)
    expected = numpy.stack(
        [numpy.asarray(ast.grad(nn.cross_entropy)(logits[i], labels[i])) for i in range(3)]
    )
    numpy.testing.assert_allclose(numpy.asarray(per_example), expected, rtol=1e-12)
    total = ast.grad(lambda lg: ast.sum(ast.vmap(nn.cross_entropy)(lg, labels)))(logits)
    numpy.testing.assert_allclose(numpy.asarray(total), expected, rtol=1e-12)
