"""dense, layer_norm, batch_norm and embedding against NumPy, their gradients, eager vs jit, and a
small training step through value_and_grad over a params pytree."""

from __future__ import annotations

import importlib.util

import numpy
import pytest

import arraystack as ast
from arraystack import nn

RNG = numpy.random.default_rng(3)
HAS_INITIALIZERS = importlib.util.find_spec("arraystack.nn.initializers") is not None


def test_dense(check_grads):
    x, w, b = RNG.standard_normal((4, 3)), RNG.standard_normal((3, 2)), RNG.standard_normal(2)
    got = nn.dense({"w": ast.asarray(w), "b": ast.asarray(b)}, ast.asarray(x))
    numpy.testing.assert_allclose(numpy.asarray(got), x @ w + b, rtol=1e-12)
    assert nn.linear is nn.dense
    check_grads(lambda x, w, b: nn.dense({"w": w, "b": b}, x), [x, w, b])
    check_grads(lambda x, w: nn.dense({"w": w}, x), [x, w], jit=True)


def test_layer_norm(check_grads):
    x = RNG.standard_normal((3, 4, 5))
    scale, bias = RNG.standard_normal(5), RNG.standard_normal(5)
    mu, var = x.mean(-1, keepdims=True), x.var(-1, keepdims=True)
    expected = (x - mu) / numpy.sqrt(var + 1e-5) * scale + bias
    params = {"scale": ast.asarray(scale), "bias": ast.asarray(bias)}
    numpy.testing.assert_allclose(
        numpy.asarray(nn.layer_norm(params, ast.asarray(x))), expected, rtol=1e-10
    )
    jitted = ast.jit(nn.layer_norm)(params, ast.asarray(x))
    numpy.testing.assert_allclose(numpy.asarray(jitted), expected, rtol=1e-10)
    check_grads(lambda x, s, b: nn.layer_norm({"scale": s, "bias": b}, x), [x, scale, bias])
    # over two axes, without params
    mu, var = x.mean((1, 2), keepdims=True), x.var((1, 2), keepdims=True)
    got = nn.layer_norm(None, ast.asarray(x), axis=(1, 2))
    numpy.testing.assert_allclose(numpy.asarray(got), (x - mu) / numpy.sqrt(var + 1e-5), rtol=1e-10)
    p = nn.init_layer_norm(5)
    numpy.testing.assert_array_equal(numpy.asarray(p["scale"]), numpy.ones(5))


def _numpy_layer_norm_grad(x, scale, g, axes, eps=1e-5):
    """d/dx of sum(g * layer_norm(x) * scale), written out in NumPy (PyTorch's closed form)."""
    n = numpy.prod([x.shape[a] for a in axes])
    centered = x - x.mean(axes, keepdims=True)
    std = numpy.sqrt((centered**2).sum(axes, keepdims=True) / n + eps)
    y, gy = centered / std, g * scale
    return (gy - gy.mean(axes, keepdims=True) - y * (gy * y).mean(axes, keepdims=True)) / std


@pytest.mark.parametrize("axis", [-1, (1, 2)])
def test_layer_norm_gradient_is_the_closed_form(axis):
    x, g = RNG.standard_normal((3, 4, 5)), RNG.standard_normal((3, 4, 5))
    axes = (2,) if axis == -1 else axis
    scale = RNG.standard_normal(5) if axis == -1 else RNG.standard_normal((4, 5))
    expected = _numpy_layer_norm_grad(x, scale, g, axes)

    def loss(x):
        return ast.sum(ast.asarray(g) * nn.layer_norm({"scale": ast.asarray(scale)}, x, axis))

    for grad in (ast.grad(loss), ast.jit(ast.grad(loss))):
        numpy.testing.assert_allclose(numpy.asarray(grad(ast.asarray(x))), expected, rtol=1e-10)
    # the backward divides by the kept standard deviation once: the derivative of the composed
    # division would divide twice more (by std and by std squared) and keep those arrays
    lowered = ast.jit(ast.grad(loss)).lower(ast.asarray(x))
    divisions = [
        e
        for e in lowered.traced.eqns
        if e.prim.name == "div" and e.outputs[0].aval.shape == x.shape
    ]
    assert len(divisions) == 2, lowered.traced


def test_layer_norm_second_order():
    x, v = RNG.standard_normal((3, 5)), RNG.standard_normal((3, 5))
    scale = RNG.standard_normal(5)

    def loss(x):
        return ast.sum(nn.layer_norm({"scale": ast.asarray(scale)}, x) ** 3)

    grad = ast.grad(loss)
    hvp = ast.grad(lambda x: ast.sum(grad(x) * ast.asarray(v)))(ast.asarray(x))
    step = 1e-6
    moved = [numpy.asarray(grad(ast.asarray(x + s * v))) for s in (step, -step)]
    numpy.testing.assert_allclose(numpy.asarray(hvp), (moved[0] - moved[1]) / (2 * step), atol=1e-6)


def test_batch_norm_train_and_eval(check_grads):
    x = RNG.standard_normal((4, 3, 2, 2))  # NCHW: statistics per channel
    params, state = nn.init_batch_norm(3, dtype=ast.float64)
    params = {
        "scale": ast.asarray(RNG.standard_normal(3)),
        "bias": ast.asarray(RNG.standard_normal(3)),
    }
    y, new_state = nn.batch_norm(params, state, ast.asarray(x), training=True, momentum=0.8)
    mu, var = x.mean((0, 2, 3)), x.var((0, 2, 3))
    shape = (1, 3, 1, 1)
    scale, bias = numpy.asarray(params["scale"]), numpy.asarray(params["bias"])
    expected = (x - mu.reshape(shape)) / numpy.sqrt(var.reshape(shape) + 1e-5) * scale.reshape(
        shape
    ) + bias.reshape(shape)
    numpy.testing.assert_allclose(numpy.asarray(y), expected, rtol=1e-10)
    numpy.testing.assert_allclose(numpy.asarray(new_state["mean"]), 0.2 * mu, rtol=1e-12)
    numpy.testing.assert_allclose(numpy.asarray(new_state["var"]), 0.8 + 0.2 * var, rtol=1e-12)

    y_eval, same = nn.batch_norm(params, new_state, ast.asarray(x), training=False)
    rm, rv = numpy.asarray(new_state["mean"]), numpy.asarray(new_state["var"])
    expected = (x - rm.reshape(shape)) / numpy.sqrt(rv.reshape(shape) + 1e-5) * scale.reshape(
        shape
    ) + bias.reshape(shape)
    numpy.testing.assert_allclose(numpy.asarray(y_eval), expected, rtol=1e-10)
    assert same is new_state

    step = ast.jit(lambda p, s, x: nn.batch_norm(p, s, x, training=True, momentum=0.8))
    y_jit, state_jit = step(params, state, ast.asarray(x))
    numpy.testing.assert_allclose(numpy.asarray(y_jit), numpy.asarray(y), rtol=1e-10)
    numpy.testing.assert_allclose(
        numpy.asarray(state_jit["var"]), numpy.asarray(new_state["var"]), rtol=1e-12
    )

    # channels-last, gradients through the batch statistics
    x_last = x.transpose(0, 2, 3, 1)
    check_grads(
        lambda x, s: nn.batch_norm({"scale": s}, state, x, training=True, axis=-1)[0],
        [x_last, scale],
    )


def test_embedding(check_grads):
    table = RNG.standard_normal((6, 3))
    ids = numpy.array([[1, 5], [0, 1]])
    got = nn.embedding({"table": ast.asarray(table)}, ast.asarray(ids))
    numpy.testing.assert_array_equal(numpy.asarray(got), table[ids])
    jitted = ast.jit(nn.embedding)({"table": ast.asarray(table)}, ast.asarray(ids))
    numpy.testing.assert_array_equal(numpy.asarray(jitted), table[ids])
    g = ast.grad(lambda t: ast.sum(nn.embedding({"table": t}, ast.asarray(ids))))(
        ast.asarray(table)
    )
    expected = numpy.zeros((6, 3))
    numpy.add.at(expected, ids, 1.0)
    numpy.testing.assert_array_equal(numpy.asarray(g), expected)
    check_grads(lambda t: nn.embedding({"table": t}, ast.asarray(ids)), [table])


def _mlp(params, x):
    h = nn.relu(nn.dense(params["l1"], x))
    return nn.dense(params["l2"], h)


def test_training_step_over_a_pytree():
    x = ast.asarray(RNG.standard_normal((8, 3)))
    y = ast.asarray(RNG.integers(0, 4, 8))
    params = {
        "l1": {"w": ast.asarray(RNG.standard_normal((3, 5)) * 0.5), "b": ast.zeros(5)},
        "l2": {"w": ast.asarray(RNG.standard_normal((5, 4)) * 0.5), "b": ast.zeros(4)},
    }

    def loss(p, x, y):
        return nn.cross_entropy(_mlp(p, x), y)

    @ast.jit
    def step(p, x, y):
        value, grads = ast.value_and_grad(loss)(p, x, y)
        return value, ast.tree_util.tree_map(lambda a, g: a - 0.5 * g, p, grads)

    first, _ = step(params, x, y)
    for _ in range(30):
        value, params = step(params, x, y)
    assert float(value) < 0.7 * float(first)
    eager_value, _ = ast.value_and_grad(loss)(params, x, y)
    jit_value, _ = step(params, x, y)
    numpy.testing.assert_allclose(float(eager_value), float(jit_value), rtol=1e-10)


@pytest.mark.skipif(not HAS_INITIALIZERS, reason="arraystack.nn.initializers is not written yet")
def test_init_helpers():
    from arraystack import prng

    key = prng.key(0)
    p = nn.init_dense(key, 3, 4)
    assert p["w"].shape == (3, 4) and p["b"].shape == (4,)
    p = nn.init_conv2d(key, 4, 6, 3, groups=2)
    assert p["w"].shape == (6, 2, 3, 3) and p["b"].shape == (6,)
    p = nn.init_conv(key, 4, 6, (3, 2), data_format="NHWC")
    assert p["w"].shape == (3, 2, 4, 6)
    p = nn.init_lstm(key, 3, 5)
    assert p["wi"].shape == (3, 20) and p["wh"].shape == (5, 20)
    numpy.testing.assert_array_equal(numpy.asarray(p["b"])[5:10], 1.0)
    p = nn.init_gru(key, 3, 5)
    assert p["wh"].shape == (5, 15) and p["bi"].shape == (15,)
    assert nn.init_embedding(key, 7, 2)["table"].shape == (7, 2)
