"""The models of bench_train.py, once per system: each `*_systems` returns {name: step()} closures that run one
training step (forward, gradients of all parameters, SGD update) on the same data and initial parameters,
after checking that every system computes the same loss and updated parameters."""

from __future__ import annotations

import numpy as np

LR = 0.1


def mlp_data(rng, batch):
    x = rng.standard_normal((batch, 784)).astype(np.float32)
    labels = rng.integers(0, 10, batch)
    y = np.eye(10, dtype=np.float32)[labels]
    params = {
        "w1": (rng.standard_normal((784, 512)) * 0.05).astype(np.float32),
        "b1": np.zeros(512, np.float32),
        "w2": (rng.standard_normal((512, 10)) * 0.05).astype(np.float32),
        "b2": np.zeros(10, np.float32),
    }
    return params, x, y


def mlp_loss(xp, params, x, y):
    h = xp.maximum(x @ params["w1"] + params["b1"], 0.0)
    logits = h @ params["w2"] + params["b2"]
    m = xp.max(logits, axis=1, keepdims=True)
    lse = xp.log(xp.sum(xp.exp(logits - m), axis=1)) + m[:, 0]
    return xp.mean(lse - xp.sum(logits * y, axis=1))


def mlp_arraystack(rng, batch):
    import arraystack as ast

    params, x, y = mlp_data(rng, batch)

    @ast.jit
    def step(params, x, y):
        loss, grads = ast.value_and_grad(lambda p: mlp_loss(ast, p, x, y))(params)
        return loss, {k: params[k] - LR * grads[k] for k in params}

    return step, ({k: ast.asarray(v) for k, v in params.items()}, ast.asarray(x), ast.asarray(y))


def mlp_numpy_step(params, x, y):
    """The same step with a hand-written backward pass."""
    pre = x @ params["w1"] + params["b1"]
    h = np.maximum(pre, 0)
    logits = h @ params["w2"] + params["b2"]
    m = logits.max(axis=1, keepdims=True)
    e = np.exp(logits - m)
    s = e.sum(axis=1, keepdims=True)
    loss = np.mean(np.log(s[:, 0]) + m[:, 0] - np.sum(logits * y, axis=1))
    dlogits = (e / s - y) / x.shape[0]
    dw2 = h.T @ dlogits
    db2 = dlogits.sum(axis=0)
    dh = dlogits @ params["w2"].T
    dpre = dh * (pre > 0)
    dw1 = x.T @ dpre
    db1 = dpre.sum(axis=0)
    grads = {"w1": dw1, "b1": db1, "w2": dw2, "b2": db2}
    return loss, {k: params[k] - np.float32(LR) * grads[k] for k in params}


def _jax_mlp(params, x, y):
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        return None

    @jax.jit
    def step(params, x, y):
        loss, grads = jax.value_and_grad(lambda p: mlp_loss(jnp, p, x, y))(params)
        return loss, {k: params[k] - LR * grads[k] for k in params}

    args = (jax.device_put(params), jax.device_put(x), jax.device_put(y))
    return lambda: jax.block_until_ready(step(*args)), lambda: step(*args)


def _torch_mlp(params, x, y):
    try:
        import torch
    except ImportError:
        return None
    p = {k: torch.tensor(v, requires_grad=True) for k, v in params.items()}
    tx, ty = torch.tensor(x), torch.tensor(y)

    def step():
        h = torch.relu(tx @ p["w1"] + p["b1"])
        logits = h @ p["w2"] + p["b2"]
        loss = torch.mean(torch.logsumexp(logits, 1) - torch.sum(logits * ty, 1))
        grads = torch.autograd.grad(loss, list(p.values()))
        with torch.no_grad():
            new = {k: v - LR * g for (k, v), g in zip(p.items(), grads)}
        return loss, new

    return step, step


def mlp_systems(rng, batch):
    import arraystack as ast

    params, x, y = mlp_data(rng, batch)
    step, args = mlp_arraystack(np.random.default_rng(0), batch)
    ref_loss, ref_params = mlp_numpy_step(params, x, y)
    systems = {"arraystack.jit": lambda: step(*args)}
    checks = {"arraystack.jit": lambda: step(*args)}
    jx = _jax_mlp(params, x, y)
    if jx:
        systems["jax.jit"], checks["jax.jit"] = jx
    th = _torch_mlp(params, x, y)
    if th:
        systems["torch eager"], checks["torch eager"] = th
    systems["numpy (hand backward)"] = lambda: mlp_numpy_step(params, x, y)
    for name, run in checks.items():
        loss, new = run()
        assert abs(float(np.asarray(loss.detach() if hasattr(loss, "detach") else loss)) - ref_loss) < 1e-4, name
        for k in ref_params:
            got = new[k].detach().numpy() if hasattr(new[k], "detach") else np.asarray(new[k])
            np.testing.assert_allclose(got, ref_params[k], rtol=1e-3, atol=1e-5, err_msg=f"{name} {k}")
    del ast
    return systems


def cnn_systems(rng, batch):
    """(b) is added once arraystack.nn provides conv2d and max_pool."""
    try:
        import arraystack.nn  # noqa: F401
    except ImportError:
        return None
    from train_cnn import cnn_systems as build

    return build(rng, batch)
