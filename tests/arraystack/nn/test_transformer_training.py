"""A small GPT built from arraystack.nn modules (the model of notebooks/08_transformer.ipynb and
benchmarks/train_gpt.py, in a tiny configuration): its loss and gradients under jit equal the eager
ones, and so does a whole training step with the Adam update inside it."""

from __future__ import annotations

import numpy
import pytest

import arraystack as ast
from arraystack import nn, optim, prng

VOCAB, CONTEXT, EMBED, HEADS, LAYERS, BATCH = 11, 8, 16, 2, 2, 3


class TinyGPT(nn.Module):
    tokens: nn.Embedding
    positions: nn.Embedding
    blocks: list
    norm: nn.LayerNorm
    head: nn.Linear

    def __init__(self, key, dtype):
        keys = prng.split(key, 3 + LAYERS)
        self.tokens = nn.Embedding(VOCAB, EMBED, key=keys[0], dtype=dtype)
        self.positions = nn.Embedding(CONTEXT, EMBED, key=keys[1], dtype=dtype)
        self.blocks = [nn.TransformerBlock(EMBED, HEADS, key=k, dtype=dtype) for k in keys[3:]]
        self.norm = nn.LayerNorm(EMBED, dtype=dtype)
        self.head = nn.Linear(EMBED, VOCAB, key=keys[2], dtype=dtype)

    def __call__(self, ids):
        x = self.tokens(ids) + self.positions.weight[: ids.shape[-1]]
        for block in self.blocks:
            x = block(x, is_causal=True)
        return self.head(self.norm(x))


def loss_fn(model, x, y):
    return nn.cross_entropy(model(x), y)


def data():
    ids = numpy.random.default_rng(0).integers(0, VOCAB, (BATCH, CONTEXT + 1)).astype(numpy.int32)
    return ast.asarray(ids[:, :-1]), ast.asarray(ids[:, 1:])


def assert_trees_close(got, want, rtol, atol):
    got_leaves, want_leaves = ast.tree_util.leaves(got), ast.tree_util.leaves(want)
    assert len(got_leaves) == len(want_leaves) == 38
    for a, b in zip(got_leaves, want_leaves, strict=True):
        numpy.testing.assert_allclose(numpy.asarray(a), numpy.asarray(b), rtol=rtol, atol=atol)


@pytest.mark.parametrize(
    ("dtype", "rtol", "atol"), [(ast.float64, 1e-10, 1e-13), (ast.float32, 1e-4, 1e-6)]
)
def test_gpt_loss_and_gradients_under_jit_equal_eager(dtype, rtol, atol):
    model = TinyGPT(prng.key(0), dtype)
    x, y = data()
    eager_loss, eager_grads = ast.value_and_grad(loss_fn)(model, x, y)
    jit_loss, jit_grads = ast.jit(ast.value_and_grad(loss_fn))(model, x, y)
    assert abs(float(eager_loss) - numpy.log(VOCAB)) < 1.0  # a fresh model guesses near uniformly
    numpy.testing.assert_allclose(float(jit_loss), float(eager_loss), rtol=rtol)
    assert_trees_close(jit_grads, eager_grads, rtol, atol)
    # every parameter gets a gradient (the key bias's is zero up to rounding: softmax is shift-invariant)
    norms = {
        name: float(ast.sqrt(ast.sum(g * g)))
        for name, g in zip(
            ("tokens", "positions", "norm.weight", "head.weight"),
            (eager_grads.tokens.weight, eager_grads.positions.weight, eager_grads.norm.weight,
             eager_grads.head.weight),
        )
    }  # fmt: skip
    assert all(n > 0 for n in norms.values()), norms


def test_gpt_training_step_under_jit_equals_eager():
    model = TinyGPT(prng.key(1), ast.float64)
    opt = optim.adam(1e-2)
    x, y = data()

    def step(model, state, x, y):
        loss, grads = ast.value_and_grad(loss_fn)(model, x, y)
        updates, state = opt.update(grads, state, model)
        return loss, optim.apply_updates(model, updates), state

    jitted = ast.jit(step)
    eager_state = jit_state = opt.init(model)
    eager_model = jit_model = model
    losses = []
    for _ in range(3):
        eager_loss, eager_model, eager_state = step(eager_model, eager_state, x, y)
        jit_loss, jit_model, jit_state = jitted(jit_model, jit_state, x, y)
        numpy.testing.assert_allclose(float(jit_loss), float(eager_loss), rtol=1e-9)
        losses.append(float(eager_loss))
    # the key biases aside: their gradient is zero up to rounding (softmax is shift-invariant), and
    # Adam turns rounding-level gradients into steps of +-lr
    key_biases = {id(b.attention.key_proj.bias) for b in eager_model.blocks}
    pairs = zip(ast.tree_util.leaves(jit_model), ast.tree_util.leaves(eager_model), strict=True)
    compared = [(a, b) for a, b in pairs if id(b) not in key_biases]
    assert len(compared) == 36
    for a, b in compared:
        numpy.testing.assert_allclose(numpy.asarray(a), numpy.asarray(b), rtol=1e-7, atol=1e-9)
    assert losses[-1] < losses[0]
    assert jitted.stats()["traces"] == 1
