"""Import rules of ONNX's Attention (scaled dot-product attention), RotaryEmbedding and SwiGLU, against
`xp`.

Convention: interpreter.py. Follows the operator's definition as ONNX's reference implementation computes
it: 3-D inputs split into heads (q_num_heads, kv_num_heads), the key/value cache (past_key/past_value in,
present_key/present_value out), grouped-query attention (each key/value head repeated), `scale` applied
as its square root to both Q and K, `softcap` before the mask, boolean or additive masks (a mask shorter
than the keys is padded with "masked"), bottom-right aligned causal and sliding-window masks,
`nonpad_kv_seqlen`, `softmax_precision`, fully masked rows giving 0, and the four `qk_matmul_output_mode`s.
"""

from __future__ import annotations

import numpy

attention_rules: dict = {}


def _heads(xp, v, heads: int):
    """(batch, seq, heads * size) -> (batch, heads, seq, size)."""
    batch, seq, hidden = numpy.shape(v)
    return xp.transpose(xp.reshape(v, (batch, seq, heads, hidden // heads)), (0, 2, 1, 3))


def _bias_of_mask(xp, mask, dtype, kv_len):
    """The additive bias of `mask` (bool: True attends), padded with -inf to `kv_len` keys."""
    if mask.dtype == numpy.bool_:
        mask = xp.where(mask, xp.asarray(0, dtype=dtype), xp.asarray(-numpy.inf, dtype=dtype))
    else:
        mask = mask.astype(dtype) if numpy.dtype(mask.dtype) != dtype else mask
    pad = kv_len - numpy.shape(mask)[-1]
    if pad > 0:
        filler = numpy.full(numpy.shape(mask)[:-1] + (pad,), -numpy.inf, dtype)
        mask = xp.concatenate([mask, xp.asarray(filler)], axis=-1)
    return mask


def _frontier(q_len, kv_len, offset, allowed_fn, dtype):
    """A static additive bias (0 where `allowed_fn(diff)`, -inf elsewhere) with diff = i + offset - j;
    `offset` a number, or one per batch (then the bias is (batch, 1, q, kv))."""
    i = numpy.arange(q_len).reshape(q_len, 1)
    j = numpy.arange(kv_len).reshape(1, kv_len)
    if numpy.ndim(offset):
        diff = i + numpy.reshape(offset, (-1, 1, 1)) - j
        return numpy.where(allowed_fn(diff), 0, -numpy.inf).astype(dtype)[:, None]
    return numpy.where(allowed_fn(i + int(offset) - j), 0, -numpy.inf).astype(dtype)


def _window(left, right):
    def allowed(diff):
        ok = numpy.ones(diff.shape, bool)
        if left >= 0:
            ok &= diff <= left
        if right >= 0:
            ok &= -diff <= right
        return ok

    return allowed


def _softmax(xp, x):
    top = xp.max(x, axis=-1, keepdims=True)
    zero = xp.asarray(0, dtype=x.dtype)
    top = xp.where(xp.isneginf(top), zero, top)
    e = xp.exp(x - top)
    total = xp.sum(e, axis=-1, keepdims=True)
    return e / xp.where(total == zero, xp.asarray(1, dtype=x.dtype), total)


def _attention(xp, node, q, k, v, mask=None, past_key=None, past_value=None, nonpad=None):
    if (past_key is None) != (past_value is None):
        raise node.error("past_key and past_value must be given together")
    if nonpad is not None and past_key is not None:
        raise node.error("nonpad_kv_seqlen cannot be combined with past_key/past_value")
    ranks = {numpy.ndim(q), numpy.ndim(k), numpy.ndim(v)}
    if ranks not in ({3}, {4}):
        raise node.error(f"Q, K and V must all be 3-D or all 4-D, not of ranks {sorted(ranks)}")
    q_heads, kv_heads = node.attr("q_num_heads"), node.attr("kv_num_heads")
    three_d = numpy.ndim(q) == 3
    if three_d:
        if q_heads is None or kv_heads is None:
            raise node.error("3-D inputs need the q_num_heads and kv_num_heads attributes")
        q, k, v = _heads(xp, q, q_heads), _heads(xp, k, kv_heads), _heads(xp, v, kv_heads)
    dtype = numpy.dtype(q.dtype)
    scale = node.attr("scale")
    scale = 1 / numpy.sqrt(numpy.shape(q)[3]) if scale is None else scale
    root = xp.asarray(numpy.sqrt(scale), dtype=dtype)
    if past_key is not None:
        k = xp.concatenate([past_key, k], axis=2)
        v = xp.concatenate([past_value, v], axis=2)
    present_key, present_value = k, v
    q_len, kv_len = numpy.shape(q)[2], numpy.shape(k)[2]
    lengths = None if nonpad is None else node.static(nonpad, "nonpad_kv_seqlen").reshape(-1)
    if past_key is not None:
        offset = numpy.shape(past_key)[2]
    elif lengths is not None:
        offset = lengths - q_len
    else:
        offset = 0
    bias = numpy.zeros((q_len, kv_len), dtype)
    if mask is not None:
        bias = _bias_of_mask(xp, mask, dtype, kv_len)
        bias = bias if node.attr("is_causal", 0) else numpy.zeros((q_len, kv_len), dtype) + bias
    if node.attr("is_causal", 0):
        bias = bias + _frontier(q_len, kv_len, offset, lambda d: d >= 0, dtype)
    left, right = int(node.attr("left_window_size", -1)), int(node.attr("right_window_size", -1))
    if left >= 0 or right >= 0:
        bias = bias + _frontier(q_len, kv_len, offset, _window(left, right), dtype)
    if lengths is not None:
        padding = numpy.arange(kv_len) < lengths[:, None]
        bias = bias + numpy.where(padding, 0, -numpy.inf).astype(dtype).reshape(-1, 1, 1, kv_len)
    q_heads, k_heads = numpy.shape(q)[1], numpy.shape(k)[1]
    if q_heads != k_heads:
        if q_heads % k_heads:
            raise node.error(f"{q_heads} query heads are not a multiple of {k_heads} key heads")
        k = xp.repeat(k, q_heads // k_heads, axis=1)
        v = xp.repeat(v, q_heads // k_heads, axis=1)
    scores = xp.matmul(q * root, xp.swapaxes(k * root, 2, 3))
    softcap = float(node.attr("softcap", 0.0) or 0.0)
    if softcap > 0:
        cap = xp.asarray(softcap, dtype=dtype)
        scores = xp.tanh(scores / cap) * cap
    biased = scores + bias
    mode = int(node.attr("qk_matmul_output_mode", 0))
    qk_out = biased if mode == 2 else scores
    precision = node.attr("softmax_precision")
    if precision is not None:
        from onnx.helper import tensor_dtype_to_np_dtype

        biased = biased.astype(tensor_dtype_to_np_dtype(precision))
    probs = _softmax(xp, biased)
    masked_rows = numpy.isneginf(numpy.max(bias, axis=-1, keepdims=True)) if _static(bias) else None
    if masked_rows is None:
        masked_rows = xp.isneginf(xp.max(bias, axis=-1, keepdims=True))
    probs = xp.where(masked_rows, xp.asarray(0, dtype=probs.dtype), probs)
    if mode == 3:
        qk_out = probs
    probs = probs.astype(dtype)
    out = xp.matmul(probs, v)
    if three_d:
        out = xp.transpose(out, (0, 2, 1, 3))
        out = xp.reshape(out, (numpy.shape(out)[0], numpy.shape(out)[1], -1))
    return out, present_key, present_value, qk_out.astype(dtype)


def _static(value) -> bool:
    return isinstance(value, numpy.ndarray)


def _rotary(xp, node, x, cos, sin, positions=None):
    """RotaryEmbedding: rotate the first `rotary_embedding_dim` features of each head by the angles whose
    cosines and sines the caches hold (at `positions` when given), in halves or interleaved."""
    shape = numpy.shape(x)
    if len(shape) == 4:
        x = xp.transpose(x, (0, 2, 1, 3))  # (batch, seq, heads, size)
    elif len(shape) == 3:
        heads = int(node.attr("num_heads", 0))
        if not heads or shape[2] % heads:
            raise node.error(f"a 3-D input of {shape[2]} features needs num_heads dividing it")
        x = xp.reshape(x, (shape[0], shape[1], heads, shape[2] // heads))
    else:
        raise node.error(f"the input must be 3-D or 4-D, not of shape {shape}")
    dim = int(node.attr("rotary_embedding_dim", 0)) or numpy.shape(x)[3]
    if positions is not None:
        cos, sin = xp.take(cos, positions, axis=0), xp.take(sin, positions, axis=0)
    if numpy.shape(cos)[-1] != dim // 2 or numpy.shape(sin)[-1] != dim // 2:
        raise node.error(f"the caches' last axis must be rotary_embedding_dim / 2 = {dim // 2}")
    cos, sin = xp.expand_dims(cos, 2), xp.expand_dims(sin, 2)
    rotate, keep = x[..., :dim], x[..., dim:]
    interleaved = int(node.attr("interleaved", 0))
    x1, x2 = (
        (rotate[..., 0::2], rotate[..., 1::2])
        if interleaved
        else (rotate[..., : dim // 2], rotate[..., dim // 2 :])
    )
    real, imag = cos * x1 - sin * x2, sin * x1 + cos * x2
    if interleaved:
        rotated = xp.reshape(xp.stack([real, imag], axis=-1), numpy.shape(rotate))
    else:
        rotated = xp.concatenate([real, imag], axis=-1)
    out = xp.concatenate([rotated, keep], axis=-1)
    return xp.reshape(out, shape) if len(shape) == 3 else xp.transpose(out, (0, 2, 1, 3))


def _swiglu(xp, node, a, b):
    if numpy.shape(a) != numpy.shape(b):
        raise node.error(
            f"A and B must have the same shape, not {numpy.shape(a)} and {numpy.shape(b)}"
        )
    alpha = xp.asarray(float(node.attr("alpha", 1.0)), dtype=a.dtype)
    one = xp.asarray(1, dtype=a.dtype)
    return a * (one / (one + xp.exp(-alpha * a))) * b


def _flex_attention(xp, node, q, k, v):
    """FlexAttention (ai.onnx.preview): softmax(score_mod(scale * q k^T)), then prob_mod, times v, with
    the score_mod and prob_mod sub-graphs run on the (B, Hq, L, S) scores and probabilities in the
    softmax precision (float32 for narrower inputs, else the input's)."""
    from onnx.helper import tensor_dtype_to_np_dtype

    import arraystack

    if {numpy.ndim(q), numpy.ndim(k), numpy.ndim(v)} != {4}:
        raise node.error(
            f"Q, K and V must be rank 4, got shapes {numpy.shape(q)}, {numpy.shape(k)}, {numpy.shape(v)}"
        )
    hq, hkv = numpy.shape(q)[1], numpy.shape(k)[1]
    if hq % hkv:
        raise node.error(f"{hq} query heads are not a multiple of {hkv} key heads")
    if hq != hkv:
        k, v = xp.repeat(k, hq // hkv, axis=1), xp.repeat(v, hq // hkv, axis=1)
    dtype = numpy.dtype(q.dtype)
    scale = node.attr("scale")
    scale = 1 / numpy.sqrt(numpy.shape(q)[3]) if scale is None else scale
    root = xp.asarray(numpy.sqrt(numpy.float32(scale)), dtype=dtype)
    precision = node.attr("softmax_precision")
    compute = (
        tensor_dtype_to_np_dtype(precision)
        if precision is not None
        else numpy.promote_types(dtype, numpy.float32)
    )
    scores = xp.matmul(q * root, xp.swapaxes(k * root, 2, 3)).astype(compute)
    if node.attr("score_mod") is not None:
        scores = arraystack.asarray(node.run_body(node.attr("score_mod"), [scores])[0])
        scores = scores.astype(compute)
    e = xp.exp(scores - xp.max(scores, axis=-1, keepdims=True))
    probs = e / xp.sum(e, axis=-1, keepdims=True)
    if node.attr("prob_mod") is not None:
        probs = arraystack.asarray(node.run_body(node.attr("prob_mod"), [probs])[0])
        probs = probs.astype(compute)
    return xp.matmul(probs, v.astype(compute)).astype(v.dtype)


attention_rules["Attention"] = _attention
attention_rules["FlexAttention"] = _flex_attention
attention_rules["RotaryEmbedding"] = _rotary
attention_rules["SwiGLU"] = _swiglu

__all__ = ["attention_rules"]
