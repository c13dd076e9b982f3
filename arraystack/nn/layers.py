"""Layers as pure functions of (params, inputs), with init helpers that build the params pytrees.

Params are dicts of arrays, so arraystack.grad / value_and_grad differentiate them as pytrees and
arraystack.jit traces them. Initializers come from arraystack.nn.initializers (imported when
called)."""

from __future__ import annotations

import arraystack as ast
from arraystack.nn.activations import _axes, _float


def dense(params, x):
    """x @ params['w'] + params['b'] (the bias is optional); w is (in, out) (flax.linen.Dense)."""
    y = ast.matmul(ast.asarray(x), params["w"])
    b = params.get("b")
    return y if b is None else y + b


linear = dense


def init_dense(key, in_features, out_features, bias=True, dtype=None):
    """{'w': glorot_uniform (in, out), 'b': zeros (out,)}, float32 unless `dtype` says otherwise."""
    from arraystack.nn import initializers

    dtype = ast.float32 if dtype is None else dtype
    w = initializers.glorot_uniform(key, (in_features, out_features), dtype)
    params = {"w": w}
    if bias:
        params["b"] = ast.zeros(out_features, dtype=w.dtype)
    return params


init_linear = init_dense


def _normalize(x, mean, var, epsilon):
    return (x - mean) / ast.sqrt(var + epsilon)


def _param_shape(x, axes):
    """The shape of per-feature params broadcasting against x over the non-reduced axes."""
    return tuple(1 if a in axes else n for a, n in enumerate(x.shape))


def layer_norm(params, x, axis=-1, epsilon=1e-5):
    """(x - mean) / sqrt(var + epsilon) over `axis`, then * params['scale'] + params['bias'] (each
    optional, shaped like the normalized axes' trailing dims) (torch.nn.functional.layer_norm)."""
    x = _float(x)
    axes = _axes(axis, x.ndim)
    mean = ast.mean(x, axis=axes, keepdims=True)
    centered = x - mean
    y = centered / ast.sqrt(ast.mean(centered * centered, axis=axes, keepdims=True) + epsilon)
    params = params or {}
    if params.get("scale") is not None:
        y = y * params["scale"]
    if params.get("bias") is not None:
        y = y + params["bias"]
    return y


def init_layer_norm(shape, dtype=None):
    """{'scale': ones, 'bias': zeros} of `shape` (the normalized axes' sizes), float32 default."""
    dtype = ast.float32 if dtype is None else dtype
    return {"scale": ast.ones(shape, dtype=dtype), "bias": ast.zeros(shape, dtype=dtype)}


def batch_norm(params, state, x, training, axis=1, momentum=0.9, epsilon=1e-5):
    """Batch normalization over every axis but the feature `axis` (1, the channels of NCHW, by
    default; -1 for channels-last). Returns (y, new_state).

    training=True normalizes with the batch statistics and returns state with its running
    statistics moved towards them (new = momentum * old + (1 - momentum) * batch; the
    biased batch variance, as in flax). training=False normalizes with state's running statistics
    and returns state unchanged. params holds optional 'scale' and 'bias' of shape (features,);
    state 'mean' and 'var'."""
    x = _float(x)
    feature = axis % x.ndim
    reduce_axes = tuple(a for a in range(x.ndim) if a != feature)
    shape = _param_shape(x, reduce_axes)
    if training:
        mean = ast.mean(x, axis=reduce_axes, keepdims=True)
        centered = x - mean
        var = ast.mean(centered * centered, axis=reduce_axes, keepdims=True)
        y = centered / ast.sqrt(var + epsilon)
        new_state = {
            "mean": momentum * state["mean"] + (1.0 - momentum) * ast.reshape(mean, (-1,)),
            "var": momentum * state["var"] + (1.0 - momentum) * ast.reshape(var, (-1,)),
        }
    else:
        mean = ast.reshape(state["mean"], shape)
        var = ast.reshape(state["var"], shape)
        y = _normalize(x, mean, var, epsilon)
        new_state = state
    params = params or {}
    if params.get("scale") is not None:
        y = y * ast.reshape(params["scale"], shape)
    if params.get("bias") is not None:
        y = y + ast.reshape(params["bias"], shape)
    return y, new_state


def init_batch_norm(features, dtype=None):
    """(params, state): params {'scale': ones, 'bias': zeros}, state {'mean': zeros, 'var': ones}."""
    dtype = ast.float32 if dtype is None else dtype
    params = {"scale": ast.ones(features, dtype=dtype), "bias": ast.zeros(features, dtype=dtype)}
    state = {"mean": ast.zeros(features, dtype=dtype), "var": ast.ones(features, dtype=dtype)}
    return params, state


def embedding(params, ids):
    """params['table'][ids]: rows of the (vocab, features) table (torch.nn.functional.embedding)."""
    return params["table"][ast.asarray(ids)]


def init_embedding(key, vocab_size, features, dtype=None):
    """{'table': standard normal (vocab, features)} from arraystack.prng.normal (float32 by
    default)."""
    from arraystack import prng

    return {
        "table": prng.normal(
            key, (vocab_size, features), dtype=ast.float32 if dtype is None else dtype
        )
    }


__all__ = [
    "batch_norm",
    "dense",
    "embedding",
    "init_batch_norm",
    "init_dense",
    "init_embedding",
    "init_layer_norm",
    "init_linear",
    "layer_norm",
    "linear",
]
