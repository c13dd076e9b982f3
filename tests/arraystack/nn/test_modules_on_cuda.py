"""Models, their layers and their random draws on a CUDA device (the stand-in for cupy without a GPU).
A model moved with `device_put`, as a PyTorch user moves one with `.to("cuda")`: eager calls stay on the
device, and jitted training steps (value_and_grad, SGD with momentum) give the losses and parameters of
eager steps on the CPU; layers make their own constants (an RNN's zero carry) beside their inputs. A
key's draws are made on its device, and dropout draws its mask where the activations are."""

from __future__ import annotations

import numpy as np
import pytest

import arraystack as ast
from arraystack import nn, optim, prng

KEYS = prng.split(prng.key(0), 4)


def _first(h):
    return h[0] if isinstance(h, tuple) else h


MODELS = {
    "linear, layer norm": lambda: (
        nn.Sequential(
            [
                nn.Linear(8, 16, key=KEYS[0]),
                nn.LayerNorm(16),
                nn.Lambda(ast.tanh),
                nn.Linear(16, 3, key=KEYS[1]),
            ]
        ),
        (16, 8),
    ),
    "conv1d": lambda: (
        nn.Sequential([nn.Conv1d(4, 6, 3, key=KEYS[2]), nn.Lambda(lambda h: h.mean(-1))]),
        (8, 4, 10),
    ),
    "gru": lambda: (nn.Sequential([nn.GRU(8, 5, key=KEYS[3]), nn.Lambda(_first)]), (8, 7, 8)),
}


def _train(model, x, jitted, steps=3):
    # momentum: optimizer state on the device (Adam would divide noise-level gradients by their own
    # size, so parameters with a zero gradient in exact arithmetic could not be compared)
    opt = optim.sgd(0.1, momentum=0.9)
    state = opt.init(model)

    def step(model, state, x):
        loss, grads = ast.value_and_grad(lambda m: ast.mean(m(x) ** 2))(model)
        updates, state = opt.update(grads, state, model)
        return optim.apply_updates(model, updates), state, loss

    step = ast.jit(step) if jitted else step

    losses = []
    for _ in range(steps):
        model, state, loss = step(model, state, x)
        losses.append(float(np.asarray(loss.to_device("cpu"))))
    return model, losses


@pytest.mark.parametrize("name", sorted(MODELS))
def test_a_model_on_cuda_trains_as_on_the_cpu(standin, name):
    model, shape = MODELS[name]()
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    on_cpu, cpu_losses = _train(model, ast.asarray(x), jitted=False)  # eager: NumPy's own
    on_cuda, cuda_losses = _train(
        ast.device_put(model, "cuda"), ast.asarray(x, device="cuda"), jitted=True
    )
    np.testing.assert_allclose(cuda_losses, cpu_losses, rtol=1e-5)
    for got, want in zip(ast.tree_util.leaves(on_cuda), ast.tree_util.leaves(on_cpu)):
        if isinstance(want, ast.ndarray):
            assert got.device == "cuda:0"
            np.testing.assert_allclose(got.to_device("cpu"), want, rtol=1e-4, atol=1e-6)
    out = on_cuda(ast.asarray(x, device="cuda"))  # eagerly
    assert _first(out).device == "cuda:0"
    np.testing.assert_allclose(_first(out).to_device("cpu"), _first(on_cpu(ast.asarray(x))),
                               rtol=1e-4, atol=1e-6)  # fmt: skip


def test_recurrent_carries_are_made_where_asked(standin):
    assert nn.gru_carry((2,), 3, device="cuda").device == "cuda:0"
    assert all(c.device == "cuda:0" for c in nn.lstm_carry((2,), 3, device="cuda"))
    assert nn.gru_carry((2,), 3).device == "cpu"


PRNG = {
    "split": lambda k, m: prng.split(k, 3),
    "fold_in": lambda k, m: prng.fold_in(k, 7),
    "bits": lambda k, m: prng.bits(k, (4,)),
    "uniform": lambda k, m: prng.uniform(k, (3,)),
    "normal": lambda k, m: prng.normal(k, (3,)),
    "truncated_normal": lambda k, m: prng.truncated_normal(k, -1.0, 1.0, (3,)),
    "bernoulli": lambda k, m: prng.bernoulli(k, 0.3, (5,)),
    "randint": lambda k, m: prng.randint(k, (3,), 0, 10),
    "permutation": lambda k, m: prng.permutation(k, 5),
    "categorical": lambda k, m: prng.categorical(k, m(np.arange(8.0).reshape(2, 4))),
}


@pytest.mark.parametrize("name", sorted(PRNG))
def test_draws_with_a_key_on_cuda_are_made_there_and_equal_the_cpus(standin, name):
    """A key's draws are made on its device (their constants follow it), with the CPU's bits."""
    on_cuda = PRNG[name](
        ast.device_put(prng.key(1), "cuda"), lambda a: ast.asarray(a, device="cuda")
    )
    on_cpu = PRNG[name](prng.key(1), ast.asarray)
    assert on_cuda.device == "cuda:0"
    np.testing.assert_array_equal(on_cuda.to_device("cpu"), on_cpu)


def test_dropout_draws_its_mask_where_the_activations_are(standin):
    x = np.ones((4, 5), np.float32)
    layer = nn.Dropout(0.5)
    want = np.asarray(layer(ast.asarray(x), key=prng.key(0)))
    eager = layer(ast.asarray(x, device="cuda"), key=prng.key(0))  # a CPU key follows x
    jitted = ast.jit(lambda a, k: layer(a, key=k))(
        ast.asarray(x, device="cuda"), ast.device_put(prng.key(0), "cuda")
    )
    for got in (eager, jitted):
        assert got.device == "cuda:0"
        np.testing.assert_array_equal(got.to_device("cpu"), want)


def test_losses_and_causal_attention_make_their_constants_beside_their_inputs(standin):
    """one_hot's classes (cross_entropy) and the causal mask of attention are made on the inputs'
    device."""
    rng = np.random.default_rng(0)
    logits, labels = rng.standard_normal((6, 5)), np.array([0, 1, 2, 3, 4, 0])
    q = rng.standard_normal((2, 4, 8))
    for f, args in [
        (ast.nn.cross_entropy, (logits, labels)),
        (ast.nn.one_hot, (labels, 5)),
        (lambda a: ast.nn.dot_product_attention(a, a, a, is_causal=True), (q,)),
    ]:
        on_cuda = [ast.asarray(a, device="cuda") if isinstance(a, np.ndarray) else a for a in args]
        got = f(*on_cuda)
        assert got.device == "cuda:0"
        want = f(*[ast.asarray(a) if isinstance(a, np.ndarray) else a for a in args])
        np.testing.assert_allclose(got.to_device("cpu"), want, rtol=1e-12)
