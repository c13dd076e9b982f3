"""(b) of bench_train.py: conv 3x3 (8 channels, SAME) - ReLU - 2x2 max pool - dense to 10 classes on 28x28
single-channel images (NCHW), softmax cross-entropy, SGD; arraystack vs jax.jit vs torch eager."""

from __future__ import annotations

import numpy as np

LR = 0.05


def cnn_data(rng, batch):
    x = rng.standard_normal((batch, 1, 28, 28)).astype(np.float32)
    y = np.eye(10, dtype=np.float32)[rng.integers(0, 10, batch)]
    params = {
        "k": (rng.standard_normal((8, 1, 3, 3)) * 0.3).astype(np.float32),
        "kb": np.zeros(8, np.float32),
        "w": (rng.standard_normal((8 * 14 * 14, 10)) * 0.02).astype(np.float32),
        "b": np.zeros(10, np.float32),
    }
    return params, x, y


def _xent(xp, logits, y):
    m = xp.max(logits, axis=1, keepdims=True)
    lse = xp.log(xp.sum(xp.exp(logits - m), axis=1)) + m[:, 0]
    return xp.mean(lse - xp.sum(logits * y, axis=1))


def cnn_arraystack(rng, batch):
    import arraystack as ast
    from arraystack import nn

    params, x, y = cnn_data(rng, batch)

    def loss(p, x, y):
        h = nn.conv2d({"w": p["k"], "b": p["kb"]}, x, padding="SAME")
        h = nn.max_pool(nn.relu(h), 2)
        logits = ast.reshape(h, (h.shape[0], -1)) @ p["w"] + p["b"]
        return _xent(ast, logits, y)

    @ast.jit
    def step(p, x, y):
        value, grads = ast.value_and_grad(loss)(p, x, y)
        return value, {k: p[k] - LR * grads[k] for k in p}

    return step, ({k: ast.asarray(v) for k, v in params.items()}, ast.asarray(x), ast.asarray(y))


def _jax_cnn(params, x, y):
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        return None

    def loss(p, x, y):
        h = jax.lax.conv_general_dilated(x, p["k"], (1, 1), "SAME") + p["kb"][None, :, None, None]
        h = jax.lax.reduce_window(jnp.maximum(h, 0.0), -jnp.inf, jax.lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID")
        logits = h.reshape(h.shape[0], -1) @ p["w"] + p["b"]
        return _xent(jnp, logits, y)

    @jax.jit
    def step(p, x, y):
        value, grads = jax.value_and_grad(loss)(p, x, y)
        return value, {k: p[k] - LR * grads[k] for k in p}

    args = (jax.device_put(params), jax.device_put(x), jax.device_put(y))
    return lambda: jax.block_until_ready(step(*args)), lambda: step(*args)


def _torch_cnn(params, x, y):
    try:
        import torch
        import torch.nn.functional as F
    except ImportError:
        return None
    p = {k: torch.tensor(v, requires_grad=True) for k, v in params.items()}
    tx, ty = torch.tensor(x), torch.tensor(y)

    def step():
        h = F.max_pool2d(torch.relu(F.conv2d(tx, p["k"], p["kb"], padding=1)), 2)
        logits = h.reshape(h.shape[0], -1) @ p["w"] + p["b"]
        loss = torch.mean(torch.logsumexp(logits, 1) - torch.sum(logits * ty, 1))
        grads = torch.autograd.grad(loss, list(p.values()))
        with torch.no_grad():
            new = {k: v - LR * g for (k, v), g in zip(p.items(), grads)}
        return loss, new

    return step, step


def cnn_systems(rng, batch):
    params, x, y = cnn_data(rng, batch)
    step, args = cnn_arraystack(np.random.default_rng(rng.integers(1 << 30)), batch)
    args = (args[0], *args[1:])
    import arraystack as ast

    args = ({k: ast.asarray(v) for k, v in params.items()}, ast.asarray(x), ast.asarray(y))
    systems = {"arraystack.jit": lambda: step(*args)}
    checks = {"arraystack.jit": lambda: step(*args)}
    for name, build in (("jax.jit", _jax_cnn), ("torch eager", _torch_cnn)):
        made = build(params, x, y)
        if made:
            systems[name], checks[name] = made
    ref_loss, ref_new = None, None
    for name, run in checks.items():
        loss, new = run()
        loss = float(np.asarray(loss.detach() if hasattr(loss, "detach") else loss))
        new = {k: (v.detach().numpy() if hasattr(v, "detach") else np.asarray(v)) for k, v in new.items()}
        if ref_loss is None:
            ref_loss, ref_new = loss, new
            continue
        assert abs(loss - ref_loss) < 1e-4, (name, loss, ref_loss)
        for k in ref_new:
            np.testing.assert_allclose(new[k], ref_new[k], rtol=2e-3, atol=2e-5, err_msg=f"{name} {k}")
    return systems
