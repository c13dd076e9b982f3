"""(d) of bench_train.py: a small character-level GPT (2 pre-norm transformer blocks, 4 heads, context 64,
embedding 128, exact GELU, untied head), next-token cross-entropy, one Adam update inside the step; arraystack
(arraystack.nn modules and arraystack.optim.adam) against jax.jit of the same model in plain jax, torch eager
(torch.optim.Adam) and, when asked, torch.compile. Every system starts from arraystack's initial parameters,
and one step of each is checked against arraystack's before timing (loss and updated parameters).
"""

from __future__ import annotations

import numpy as np

VOCAB, CONTEXT, EMBED, HEADS, LAYERS = 96, 64, 128, 4, 2
LR, B1, B2, EPS = 1e-3, 0.9, 0.999, 1e-8


def gpt_model(key, vocab=VOCAB, context=CONTEXT, embed=EMBED, heads=HEADS, layers=LAYERS):
    """The arraystack model: token and position embeddings, `layers` TransformerBlocks (causal), a final
    LayerNorm and a linear head to the vocabulary."""
    from arraystack import nn, prng

    class GPT(nn.Module):
        tokens: nn.Embedding
        positions: nn.Embedding
        blocks: list
        norm: nn.LayerNorm
        head: nn.Linear

        def __init__(self, key):
            keys = prng.split(key, 3 + layers)
            tokens = nn.Embedding(vocab, embed, key=keys[0])
            positions = nn.Embedding(context, embed, key=keys[1])
            self.tokens = tokens.replace(weight=tokens.weight * 0.02)  # GPT-2's initial scale
            self.positions = positions.replace(weight=positions.weight * 0.02)
            self.blocks = [nn.TransformerBlock(embed, heads, key=k) for k in keys[3:]]
            self.norm = nn.LayerNorm(embed)
            self.head = nn.Linear(embed, vocab, key=keys[2])

        def __call__(self, ids):
            x = self.tokens(ids) + self.positions.weight[: ids.shape[-1]]
            for block in self.blocks:
                x = block(x, is_causal=True)
            return self.head(self.norm(x))

    return GPT(key)


def gpt_loss(model, x, y):
    """Mean next-token cross-entropy of `model` on ids `x` (batch, L) against targets `y`."""
    from arraystack import nn

    return nn.cross_entropy(model(x), y)


def gpt_data(rng, batch, vocab=VOCAB, context=CONTEXT):
    ids = rng.integers(0, vocab, (batch, context + 1))
    return ids[:, :-1].astype(np.int32), ids[:, 1:].astype(np.int32)


def gpt_arraystack(batch, seed=0):
    """(step, args): ``step(*args)`` is one jitted training step; it returns (loss, model, opt_state)."""
    import arraystack as ast
    from arraystack import optim, prng

    model = gpt_model(prng.key(seed))
    opt = optim.adam(LR, B1, B2, EPS)
    x, y = gpt_data(np.random.default_rng(seed), batch)

    @ast.jit
    def step(model, state, x, y):
        loss, grads = ast.value_and_grad(gpt_loss)(model, x, y)
        updates, state = opt.update(grads, state, model)
        return loss, optim.apply_updates(model, updates), state

    return step, (model, opt.init(model), ast.asarray(x), ast.asarray(y))


def _params(model):
    """The arraystack model's parameters as a dict of NumPy arrays with flat names."""
    out = {
        "tok": model.tokens.weight,
        "pos": model.positions.weight,
        "lnf_w": model.norm.weight,
        "lnf_b": model.norm.bias,
        "head_w": model.head.weight,
        "head_b": model.head.bias,
    }
    for i, b in enumerate(model.blocks):
        a = b.attention
        parts = {
            "ln1_w": b.norm1.weight, "ln1_b": b.norm1.bias, "ln2_w": b.norm2.weight, "ln2_b": b.norm2.bias,
            "q_w": a.query_proj.weight, "q_b": a.query_proj.bias, "k_w": a.key_proj.weight,
            "k_b": a.key_proj.bias, "v_w": a.value_proj.weight, "v_b": a.value_proj.bias,
            "o_w": a.output_proj.weight, "o_b": a.output_proj.bias, "fc_w": b.mlp_in.weight,
            "fc_b": b.mlp_in.bias, "proj_w": b.mlp_out.weight, "proj_b": b.mlp_out.bias,
        }  # fmt: skip
        out.update({f"{i}.{k}": v for k, v in parts.items()})
    return {k: np.asarray(v) for k, v in out.items()}


class _Ops:
    """The few functions whose spelling differs between jax.numpy and torch, for `_forward`."""

    def __init__(self, **fns):
        self.__dict__.update(fns)


def _forward(ops, p, x, layers=LAYERS, heads=HEADS):
    """The same GPT written once for jax.numpy and torch (through `ops`), from `_params`' dict."""

    def norm(h, w, b):
        c = h - h.mean(-1, keepdims=True)
        return c / ops.sqrt((c * c).mean(-1, keepdims=True) + 1e-5) * w + b

    def split(h):  # (B, L, E) -> (B, H, L, E / H)
        bsz, length, e = h.shape
        return ops.swapaxes(h.reshape(bsz, length, heads, e // heads), 1, 2)

    length = x.shape[1]
    h = p["tok"][x] + p["pos"][:length]
    causal = ops.arange(length)[:, None] >= ops.arange(length)[None, :]
    for i in range(layers):
        q = {k[len(f"{i}.") :]: v for k, v in p.items() if k.startswith(f"{i}.")}
        a = norm(h, q["ln1_w"], q["ln1_b"])
        qh, kh, vh = (split(a @ q[f"{n}_w"] + q[f"{n}_b"]) for n in "qkv")
        scores = qh @ ops.swapaxes(kh, -1, -2) * float(1.0 / np.sqrt(qh.shape[-1]))
        scores = ops.where(causal, scores, float(np.finfo(np.float32).min))
        w = ops.exp(scores - ops.rowmax(scores))
        w = w / w.sum(-1, keepdims=True)
        o = ops.swapaxes(w @ vh, 1, 2)
        h = h + o.reshape(h.shape) @ q["o_w"] + q["o_b"]
        m = norm(h, q["ln2_w"], q["ln2_b"]) @ q["fc_w"] + q["fc_b"]
        m = 0.5 * m * (1.0 + ops.erf(m * float(1.0 / np.sqrt(2.0))))
        h = h + m @ q["proj_w"] + q["proj_b"]
    return norm(h, p["lnf_w"], p["lnf_b"]) @ p["head_w"] + p["head_b"]


def _xent(ops, logits, y):
    """Mean cross-entropy of logits (B, L, V) against integer targets (B, L)."""
    m = ops.rowmax(logits)
    logz = ops.log(ops.exp(logits - m).sum(-1)) + m[..., 0]
    picked = ops.take_along_axis(logits, y[..., None], -1)[..., 0]
    return (logz - picked).mean()


def _jax_gpt(params, x, y):
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        return None
    ops = _Ops(
        sqrt=jnp.sqrt, swapaxes=jnp.swapaxes, arange=jnp.arange, where=jnp.where, exp=jnp.exp,
        log=jnp.log, erf=jax.scipy.special.erf, take_along_axis=jnp.take_along_axis,
        rowmax=lambda a: jnp.max(a, -1, keepdims=True),
    )  # fmt: skip

    def loss_fn(p, x, y):
        return _xent(ops, _forward(ops, p, x), y)

    @jax.jit
    def step(p, m, v, t, x, y):
        loss, g = jax.value_and_grad(loss_fn)(p, x, y)
        t = t + 1.0
        m = {k: B1 * m[k] + (1 - B1) * g[k] for k in p}
        v = {k: B2 * v[k] + (1 - B2) * g[k] * g[k] for k in p}
        c1, c2 = 1 - B1**t, 1 - B2**t
        p = {k: p[k] - LR * (m[k] / c1) / (jnp.sqrt(v[k] / c2) + EPS) for k in p}
        return loss, p, m, v, t

    zeros = {k: jnp.zeros_like(v) for k, v in params.items()}
    start = (jax.device_put(params), zeros, dict(zeros), jnp.float32(0.0))
    args = (jax.device_put(x), jax.device_put(y))
    state = list(start)

    def run():  # a training loop: each step continues from the last one's parameters
        loss, *state[:] = step(*state, *args)
        return jax.block_until_ready(loss)

    def check():
        loss, p, *_ = step(*start, *args)
        return float(loss), {k: np.asarray(val) for k, val in p.items()}

    return run, check


def _torch_gpt(params, x, y, compiled=False):
    try:
        import torch
    except ImportError:
        return None
    ops = _Ops(
        sqrt=torch.sqrt, swapaxes=torch.swapaxes, arange=torch.arange, where=torch.where, exp=torch.exp,
        log=torch.log, erf=torch.erf, take_along_axis=torch.take_along_dim,
        rowmax=lambda a: torch.amax(a, -1, keepdim=True),
    )  # fmt: skip
    tx, ty = torch.tensor(x, dtype=torch.long), torch.tensor(y, dtype=torch.long)

    def build():
        p = {k: torch.tensor(v, requires_grad=True) for k, v in params.items()}
        return p, torch.optim.Adam(list(p.values()), lr=LR, betas=(B1, B2), eps=EPS)

    def loss_fn(p):
        return _xent(ops, _forward(ops, p, tx), ty)

    if compiled:
        loss_fn = torch.compile(loss_fn)

    def make_step():
        p, opt = build()

        def step():
            opt.zero_grad(set_to_none=True)
            loss = loss_fn(p)
            loss.backward()
            opt.step()
            return loss.detach(), p

        return step

    run = make_step()

    def check():
        loss, p = make_step()()
        return float(loss), {k: v.detach().numpy() for k, v in p.items()}

    return run, check


def gpt_systems(batch, torch_compile=False):
    """{name: step()} for arraystack, jax.jit, torch eager (and torch.compile), after checking that each
    computes arraystack's first-step loss and updated parameters."""
    step, args = gpt_arraystack(batch)
    params = _params(args[0])
    x, y = np.asarray(args[2]), np.asarray(args[3])
    state = list(args[:2])

    def ours():
        loss, *state[:] = step(*state, *args[2:])
        return np.asarray(loss)

    loss0, model1, _ = step(*args)
    ref_loss, ref_params = float(loss0), _params(model1)
    systems, checks = {"arraystack.jit": ours}, {}
    peers = [("jax.jit", _jax_gpt(params, x, y)), ("torch eager", _torch_gpt(params, x, y))]
    if torch_compile:
        peers.append(("torch.compile", _torch_gpt(params, x, y, compiled=True)))
    for name, peer in peers:
        if peer:
            systems[name], checks[name] = peer
    for name, check in checks.items():
        loss, new = check()
        assert abs(loss - ref_loss) < 1e-4 * max(1.0, abs(ref_loss)), (name, loss, ref_loss)
        for k, want in ref_params.items():
            # the key bias's gradient is 0 up to rounding (softmax ignores a shift per query), and
            # Adam's first step turns that rounding noise into +-lr
            if k.endswith(".k_b"):
                continue
            np.testing.assert_allclose(new[k], want, rtol=1e-3, atol=2e-5, err_msg=f"{name} {k}")
    return systems
