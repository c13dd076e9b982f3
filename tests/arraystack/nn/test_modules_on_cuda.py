"""Models moved to a CUDA device (the stand-in for cupy without a GPU) with `device_put`, as a PyTorch
user moves a model with `.to("cuda")`: eager calls stay on the device, and jitted training steps
(value_and_grad, SGD with momentum) give the CPU's losses and parameters. The layers make their own constants (an
RNN's zero carry) beside their inputs."""

from __future__ import annotations

import numpy as np
import pytest
from arraystack.backends.cupy import standin as _standin

import arraystack as ast
from arraystack import nn, optim, prng

KEYS = prng.split(prng.key(0), 4)


@pytest.fixture
def standin():
    """The stand-in for cupy, installed for one test."""
    module = _standin.install(devices=1)
    try:
        yield module
    finally:
        _standin.uninstall()


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
    "lstm": lambda: (nn.Sequential([nn.LSTM(8, 5, key=KEYS[3]), nn.Lambda(_first)]), (8, 7, 8)),
    "transformer block": lambda: (
        nn.Sequential([nn.TransformerBlock(8, 2, 16, key=KEYS[0]), nn.Lambda(lambda h: h.mean(1))]),
        (4, 5, 8),
    ),
}


def _train(model, x, steps=3):
    # momentum: optimizer state on the device (Adam would divide noise-level gradients by their own
    # size, so parameters with a zero gradient in exact arithmetic could not be compared)
    opt = optim.sgd(0.1, momentum=0.9)
    state = opt.init(model)

    @ast.jit
    def step(model, state, x):
        loss, grads = ast.value_and_grad(lambda m: ast.mean(m(x) ** 2))(model)
        updates, state = opt.update(grads, state, model)
        return optim.apply_updates(model, updates), state, loss

    losses = []
    for _ in range(steps):
        model, state, loss = step(model, state, x)
        losses.append(float(np.asarray(loss.to_device("cpu"))))
    return model, losses


@pytest.mark.parametrize("name", sorted(MODELS))
def test_a_model_on_cuda_trains_as_on_the_cpu(standin, name):
    model, shape = MODELS[name]()
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    on_cpu, cpu_losses = _train(model, ast.asarray(x))
    on_cuda, cuda_losses = _train(ast.device_put(model, "cuda"), ast.asarray(x, device="cuda"))
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
