"""Import rules of ONNX's recurrent-state operators of linear-attention and state-space models (convention:
interpreter.py): LinearAttention (linear, gated, delta and gated-delta recurrences, grouped-query heads,
a carried state) and CausalConvWithState (the depthwise causal convolution of Mamba and Gated DeltaNet,
with its carried window).

LinearAttention runs its recurrence as arraystack.scan over the tokens, so it compiles under `jit` as one
loop and differentiates; it computes in float32 for float16/bfloat16 inputs (as onnx's reference does) and
in float64 for float64 ones (the reference rounds those to float32).
"""

from __future__ import annotations

import numpy

state_space_rules: dict = {}

_RULES = ("linear", "gated", "delta", "gated_delta")


def _compute_dtype(dtype):
    return numpy.promote_types(dtype, numpy.float32)


def _heads(ast, x, heads, what, node):
    """(B, T, H*D) -> (T, B, H, D): tokens first, for the scan."""
    b, t, packed = numpy.shape(x)
    if packed % heads:
        raise node.error(f"{what}'s last axis ({packed}) does not split into {heads} heads")
    return ast.transpose(ast.reshape(x, (b, t, heads, packed // heads)), (1, 0, 2, 3))


def _linear_attention(xp, node, query, key, value, past=None, decay=None, beta=None):
    import arraystack as ast

    rule = node.attr("update_rule", "gated_delta")
    hq, hkv = node.attr("q_num_heads"), node.attr("kv_num_heads")
    if rule not in _RULES:
        raise node.error(f"update_rule {rule!r} is not one of {', '.join(_RULES)}")
    if not hq or not hkv or hq <= 0 or hkv <= 0 or hq % hkv:
        raise node.error(f"q_num_heads ({hq}) must be a positive multiple of kv_num_heads ({hkv})")
    gating, delta = rule in ("gated", "gated_delta"), rule in ("delta", "gated_delta")
    for name, given, wanted in (("decay", decay, gating), ("beta", beta, delta)):
        if (given is not None) != wanted:
            raise node.error(f"update_rule {rule!r} {'requires' if wanted else 'forbids'} {name}")
    for name, x in (("query", query), ("key", key), ("value", value)):
        if numpy.ndim(x) != 3:
            raise node.error(f"{name} must be rank 3 (B, T, H*D), got shape {numpy.shape(x)}")
    out_dtype = numpy.dtype(query.dtype)
    f = _compute_dtype(out_dtype)
    b, t, _ = numpy.shape(query)
    q = _heads(ast, query, hq, "query", node).astype(f)
    k = _heads(ast, key, hkv, "key", node).astype(f)
    v = _heads(ast, value, hkv, "value", node).astype(f)
    dk, dv = numpy.shape(q)[-1], numpy.shape(v)[-1]
    xs = [q, k, v]
    if gating:
        last = numpy.shape(decay)[-1]
        if last not in (hkv, hkv * dk):
            raise node.error(f"decay's last axis ({last}) must be {hkv} or {hkv * dk}")
        xs.append(_heads(ast, decay, hkv, "decay", node).astype(f))  # (T, B, Hkv, 1 or dk)
    if delta:
        last = numpy.shape(beta)[-1]
        if last not in (hkv, 1):
            raise node.error(f"beta's last axis ({last}) must be {hkv} or 1")
        xs.append(_heads(ast, beta, last, "beta", node).astype(f))  # (T, B, Hkv or 1, 1)
    if past is not None:
        if tuple(numpy.shape(past)) != (b, hkv, dk, dv):
            raise node.error(f"past_state has shape {numpy.shape(past)}, not {(b, hkv, dk, dv)}")
        state_dtype, state = numpy.dtype(past.dtype), ast.asarray(past).astype(f)
    else:
        state_dtype, state = out_dtype, ast.zeros((b, hkv, dk, dv), f)
    scale = node.attr("scale", 0.0) or 1.0 / numpy.sqrt(dk)
    group = hq // hkv

    def step(s, token):
        qt, kt, vt = token[:3]
        rest = list(token[3:])
        if gating:
            s = s * ast.exp(rest.pop(0))[..., None]
        if delta:
            vt = rest.pop(0) * (vt - ast.einsum("bhdm,bhd->bhm", s, kt))
        s = s + kt[..., :, None] * vt[..., None, :]
        read = s if group == 1 else ast.repeat(s, group, axis=1)
        return s, ast.einsum("bhd,bhdm->bhm", qt, read) * f.type(scale)

    state, out = ast.scan(step, state, tuple(xs))  # out: (T, B, Hq, dv)
    out = ast.reshape(ast.transpose(out, (1, 0, 2, 3)), (b, t, hq * dv))
    return out.astype(out_dtype), state.astype(state_dtype)


def _causal_conv_with_state(xp, node, x, weight, bias=None, past=None):
    import arraystack as ast

    activation = node.attr("activation", "none")
    if activation not in ("none", "silu", "swish"):
        raise node.error(f"activation {activation!r} is not one of none, silu, swish")
    if numpy.ndim(x) != 3 or numpy.ndim(weight) != 3:
        raise node.error(
            f"input and weight must be rank 3, got shapes {numpy.shape(x)} and {numpy.shape(weight)}"
        )
    batch, channels, length = numpy.shape(x)
    k = numpy.shape(weight)[2]
    if tuple(numpy.shape(weight)[:2]) != (channels, 1):
        raise node.error(f"weight has shape {numpy.shape(weight)}, not ({channels}, 1, k)")
    if past is None:
        past = ast.zeros((batch, channels, k - 1), x.dtype)
    elif tuple(numpy.shape(past)) != (batch, channels, k - 1):
        raise node.error(
            f"past_state has shape {numpy.shape(past)}, not {(batch, channels, k - 1)}"
        )
    padded = ast.concatenate([ast.asarray(past), ast.asarray(x)], axis=2)
    out = ast.nn.conv(padded, weight, groups=channels)
    if bias is not None:
        out = out + ast.reshape(bias, (1, channels, 1))
    if activation != "none":  # SiLU in float32 at least, as the reference
        wide = out.astype(_compute_dtype(out.dtype))
        out = (wide / (1 + ast.exp(-wide))).astype(x.dtype)
    return out.astype(x.dtype), padded[:, :, length:]


state_space_rules["LinearAttention"] = _linear_attention
state_space_rules["CausalConvWithState"] = _causal_conv_with_state

__all__ = ["state_space_rules"]
