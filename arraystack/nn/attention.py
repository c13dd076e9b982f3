"""Attention: the functional dot_product_attention (and its PyTorch name scaled_dot_product_attention),
and the MultiHeadAttention and TransformerBlock modules built on it.

float32 and float64 attention without dropout binds the fused `attention` primitive (arraystack.ir.attention):
the scores are computed one tile at a time with an online softmax, in the numba backend by hand-written
kernels, and its gradient recomputes them from the log-sum-exp. Other dtypes and dropout on the weights run
the composite formula (matmul, where, softmax), which materializes the (..., Lq, Lk) scores per head.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

import arraystack as ast
from arraystack import prng
from arraystack._core.array import wrap
from arraystack.ir.attention import attention_p
from arraystack.ir.core import bind
from arraystack.nn.dropout import dropout
from arraystack.nn.module import Module, static
from arraystack.nn.module_layers import Dropout, LayerNorm, Linear, call_function, function_field
from arraystack.nn.normalization import softmax

if TYPE_CHECKING:
    from collections.abc import Callable

    from arraystack.typing import ArrayLike, DTypeLike, NDArray


def _causal(lq, lk, device=None):
    rows, columns = ast.arange(lq, device=device), ast.arange(lk, device=device)
    return rows[:, None] >= columns[None, :]


def dot_product_attention(
    query: ArrayLike,
    key: ArrayLike,
    value: ArrayLike,
    mask: ArrayLike | None = None,
    *,
    is_causal: bool = False,
    scale: float | None = None,
    dropout_rate: float = 0.0,
    dropout_key: ArrayLike | None = None,
    implementation: str | None = None,
) -> NDArray:
    """Scaled dot-product attention, ``softmax(query @ key.T * scale + mask) @ value``.

    Parameters
    ----------
    query : array_like
        (..., Lq, D); leading axes (batch, heads) are batch axes.
    key : array_like
        (..., Lk, D).
    value : array_like
        (..., Lk, Dv).
    mask : array_like, optional
        Broadcastable to (..., Lq, Lk): boolean, True where a query may attend to a key; or
        floating, added to the scores.
    is_causal : bool, optional
        Query i attends to keys 0..i only (the upper-left triangle, as PyTorch).
    scale : float, optional
        Multiplies the scores (default 1 / sqrt(D)).
    dropout_rate : float, optional
        Dropout on the attention weights (needs `dropout_key` when above 0).
    dropout_key : uint32[2] array, optional
        An arraystack.prng key for the dropout.
    implementation : {None, 'fused', 'composite'}, optional
        'fused': the attention primitive, scores one tile at a time (float32/float64 without
        dropout; otherwise the composite formula runs); 'composite': matmul, where and softmax
        over the whole score matrix; None (default): fused when the score matrix would take at
        least FUSED_MIN_BYTES (8 MiB), else composite (as jax.nn.dot_product_attention's
        `implementation` picks a kernel).

    Returns
    -------
    ndarray
        (..., Lq, Dv).

    See Also
    --------
    torch.nn.functional.scaled_dot_product_attention : the function mirrored (its layout and
        its boolean mask convention, True = attend).
    jax.nn.dot_product_attention : the JAX relative (heads after the sequence axis).
    arraystack.nn.MultiHeadAttention

    Notes
    -----
    The fused path is one primitive (arraystack.ir.attention): the scores are computed one
    (64, 64) tile at a time with an online softmax and never stored whole, in the numba backend
    by hand-written kernels run in parallel over batch, heads and query blocks; its gradient
    recomputes the tiles from q, k, v and the per-row log-sum-exp; causal attention skips the
    tiles above the diagonal. Its memory stays at a few tiles per thread where the composite
    formula's grows with Lq * Lk; for short sequences the composite formula (BLAS products over
    the whole matrix) is faster, hence the default's size rule. With dropout (dropout_rate > 0),
    and for dtypes other than float32/float64, the composite formula runs.

    A query whose keys are all masked gets uniform weights over all Lk keys (its output is the
    mean of value's rows) instead of NaN, as flax does (PyTorch gives NaN), on both paths: the
    composite formula sets masked scores to the dtype's most negative finite value rather than
    -inf. Its gradient reaches `value` only.

    Examples
    --------
    >>> import arraystack as np
    >>> q = np.ones((2, 3, 4))
    >>> np.nn.dot_product_attention(q, q, q, is_causal=True).shape
    (2, 3, 4)
    """
    query, key, value = ast.asarray(query), ast.asarray(key), ast.asarray(value)
    scale = 1.0 / math.sqrt(query.shape[-1]) if scale is None else float(scale)
    mask = None if mask is None else ast.asarray(mask)
    if implementation not in (None, "fused", "composite"):
        raise ValueError(
            f"dot_product_attention: implementation must be None, 'fused' or 'composite', got "
            f"{implementation!r}"
        )
    if dropout_rate > 0.0:
        if dropout_key is None:
            raise ValueError("dot_product_attention: dropout_rate > 0 needs dropout_key")
    elif implementation == "fused" or (implementation is None and _large(query, key)):
        fused = _fused(query, key, value, mask, is_causal, scale)
        if fused is not None:
            return fused
    return _composite(query, key, value, mask, is_causal, scale, dropout_rate, dropout_key)


_FUSED_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))
# The default runs the fused primitive from this score-matrix size on. Measured (benchmarks/
# bench_attention.py, 2 busy cores): at (8, 4, 64, 64) float32 scores (0.5 MiB) the composite
# formula took 0.5 ms forward and 1.3 ms with its gradient, the fused kernels 1.3 and 8 ms; at
# (1, 4, 2048, 2048) (64 MiB) the composite formula held 64-128 MiB and the fused kernels 2-8 MiB.
FUSED_MIN_BYTES = 8 << 20


def _large(query, key):
    if min(query.ndim, key.ndim) < 2:
        return False
    batch = np.broadcast_shapes(query.shape[:-2], key.shape[:-2])
    itemsize = np.dtype(ast.result_type(query, key)).itemsize
    return math.prod(batch) * query.shape[-2] * key.shape[-2] * itemsize >= FUSED_MIN_BYTES


def _fused(query, key, value, mask, is_causal, scale):
    """The fused attention primitive's output, or None where the composite formula applies (a dtype
    other than float32/float64, an operand of rank < 2, a mask that widens the batch axes or q's dtype)."""
    dtype = ast.result_type(query, key, value)
    if dtype not in _FUSED_DTYPES or min(query.ndim, key.ndim, value.ndim) < 2:
        return None
    batch = np.broadcast_shapes(query.shape[:-2], key.shape[:-2], value.shape[:-2])
    full = (*batch, query.shape[-2], key.shape[-2])
    if key.shape[-1] != query.shape[-1] or value.shape[-2] != key.shape[-2]:
        return None  # the composite formula raises matmul's error
    masks = []
    if mask is not None:
        if mask.ndim > len(full) or (
            mask.dtype != ast.bool_ and ast.result_type(dtype, mask) != dtype
        ):
            return None
        shape = (1,) * (len(full) - mask.ndim) + mask.shape
        if any(n not in (1, f) for n, f in zip(shape, full)):
            return None  # the composite formula raises broadcasting's error
        masks.append(ast.reshape(mask if mask.dtype == ast.bool_ else mask.astype(dtype), shape))
    q, k, v = (
        ast.broadcast_to(ast.asarray(x, dtype=dtype), (*batch, *x.shape[-2:]))
        for x in (query, key, value)
    )
    out, _ = bind(attention_p, q._value, k._value, v._value, *[m._value for m in masks],
                  scale=scale, causal=bool(is_causal))  # fmt: skip
    return wrap(out)


def _composite(query, key, value, mask, is_causal, scale, dropout_rate, dropout_key):
    scores = ast.matmul(query, ast.swapaxes(key, -1, -2)) * scale
    allowed = None
    if is_causal:
        allowed = _causal(query.shape[-2], key.shape[-2], query.device)  # beside the scores
    if mask is not None:
        if mask.dtype == ast.bool_:
            allowed = mask if allowed is None else allowed & mask
        else:
            scores = scores + mask
    if allowed is not None:
        scores = ast.where(allowed, scores, ast.finfo(scores.dtype).min)
    weights = softmax(scores, axis=-1)
    if dropout_rate > 0.0:
        weights = dropout(dropout_key, weights, dropout_rate)
    return ast.matmul(weights, value)


def scaled_dot_product_attention(
    query: ArrayLike,
    key: ArrayLike,
    value: ArrayLike,
    attn_mask: ArrayLike | None = None,
    dropout_p: float = 0.0,
    is_causal: bool = False,
    scale: float | None = None,
    *,
    dropout_key: ArrayLike | None = None,
) -> NDArray:
    """Scaled dot-product attention under PyTorch's name and parameter names.

    Parameters
    ----------
    query : array_like
        (..., Lq, D).
    key : array_like
        (..., Lk, D).
    value : array_like
        (..., Lk, Dv).
    attn_mask : array_like, optional
        Boolean (True = attend) or floating (added to the scores), broadcastable to (..., Lq, Lk).
    dropout_p : float, optional
        Dropout on the attention weights (needs `dropout_key` when above 0).
    is_causal : bool, optional
        Query i attends to keys 0..i only.
    scale : float, optional
        Multiplies the scores (default 1 / sqrt(D)).
    dropout_key : uint32[2] array, optional
        An arraystack.prng key for the dropout (keyword-only; PyTorch draws from a global generator).

    Returns
    -------
    ndarray
        (..., Lq, Dv).

    See Also
    --------
    torch.nn.functional.scaled_dot_product_attention : the function mirrored.
    arraystack.nn.dot_product_attention : the same computation, documented there.

    Notes
    -----
    Unlike PyTorch, `attn_mask` and `is_causal` may be given together (both apply), and a query
    whose keys are all masked gets the mean of value's rows rather than NaN.

    Examples
    --------
    >>> import arraystack as np
    >>> q = np.ones((1, 2, 4))
    >>> np.nn.scaled_dot_product_attention(q, q, q, is_causal=True).shape
    (1, 2, 4)
    """
    return dot_product_attention(
        query, key, value, attn_mask, is_causal=is_causal, scale=scale,
        dropout_rate=dropout_p, dropout_key=dropout_key,
    )  # fmt: skip


def _xavier(key, fan_in, fan_out, shape, dtype):
    bound = math.sqrt(6.0 / (fan_in + fan_out))
    return prng.uniform(key, shape, dtype, minval=-bound, maxval=bound)


def _split_keys(key, n):
    return [None] * n if key is None else list(prng.split(key, n))


class MultiHeadAttention(Module):
    """Multi-head attention: projections, `dot_product_attention` per head, output projection.

    Parameters
    ----------
    embed_dim : int
        Model size E (the query's features and the output's).
    num_heads : int
        Heads (E must divide by it).
    dropout : float, optional
        Dropout on the attention weights in training mode.
    bias : bool, optional
        Biases in the projections.
    kdim : int, optional
        The keys' features (default E).
    vdim : int, optional
        The values' features (default E).
    training : bool, optional
        Training mode (only the dropout depends on it).
    key : uint32[2] array
        An arraystack.prng key (keyword-only).
    dtype : dtype, optional
        Parameter dtype (default float32).

    See Also
    --------
    torch.nn.MultiheadAttention : the layer mirrored, with its initialization (Glorot-uniform
        input projections as one (3E, E) matrix, zero biases, the output projection a Linear's
        default with a zero bias), with batch_first=True.
    equinox.nn.MultiheadAttention : the Equinox relative.
    arraystack.nn.dot_product_attention, arraystack.nn.TransformerBlock

    Notes
    -----
    Called as ``mha(query, keys=None, values=None, *, mask=None, key_padding_mask=None,
    is_causal=False, key=None)``: inputs are (..., L, features), batch axes first; `keys` and
    `values` default to `query` (self-attention). `mask` is boolean, broadcastable to
    (..., num_heads, Lq, Lk), True where attention is allowed (PyTorch's F.scaled_dot_product_
    attention and JAX's convention; nn.MultiheadAttention's attn_mask is the opposite).
    `key_padding_mask` is (..., Lk), True at padding positions to ignore (PyTorch's convention).
    `key` is the PRNG key of the attention dropout.
    """

    query_proj: Linear
    key_proj: Linear
    value_proj: Linear
    output_proj: Linear
    num_heads: int = static()
    dropout: float = static(default=0.0)
    training: bool = static(default=True)

    def __init__(
        self,
        embed_dim: int,
        num_heads: int,
        dropout: float = 0.0,
        bias: bool = True,
        kdim: int | None = None,
        vdim: int | None = None,
        training: bool = True,
        *,
        key: ArrayLike,
        dtype: DTypeLike | None = None,
    ) -> None:
        if embed_dim % num_heads:
            raise ValueError(f"embed_dim {embed_dim} must divide by num_heads {num_heads}")
        dtype = ast.float32 if dtype is None else dtype
        kdim = embed_dim if kdim is None else kdim
        vdim = embed_dim if vdim is None else vdim
        keys = prng.split(key, 4)
        packed = kdim == embed_dim and vdim == embed_dim  # PyTorch's one (3E, E) in_proj_weight

        def projection(k, size):
            layer = Linear(size, embed_dim, bias, key=k, dtype=dtype)
            fan_out = 3 * embed_dim if packed else embed_dim
            weight = _xavier(k, size, fan_out, (size, embed_dim), dtype)
            return layer.replace(weight=weight, bias=None if layer.bias is None else layer.bias * 0)

        self.query_proj = projection(keys[0], embed_dim)
        self.key_proj = projection(keys[1], kdim)
        self.value_proj = projection(keys[2], vdim)
        out = Linear(embed_dim, embed_dim, bias, key=keys[3], dtype=dtype)
        self.output_proj = out if out.bias is None else out.replace(bias=out.bias * 0)
        self.num_heads, self.dropout, self.training = int(num_heads), float(dropout), bool(training)

    def _heads(self, x):
        """(..., L, E) -> (..., heads, L, E / heads)."""
        x = ast.reshape(x, (*x.shape[:-1], self.num_heads, x.shape[-1] // self.num_heads))
        return ast.swapaxes(x, -2, -3)

    def __call__(
        self,
        query: ArrayLike,
        keys: ArrayLike | None = None,
        values: ArrayLike | None = None,
        *,
        mask: ArrayLike | None = None,
        key_padding_mask: ArrayLike | None = None,
        is_causal: bool = False,
        key: ArrayLike | None = None,
    ) -> NDArray:
        query = ast.asarray(query)
        keys = query if keys is None else ast.asarray(keys)
        values = keys if values is None else ast.asarray(values)
        q = self._heads(self.query_proj(query))
        k = self._heads(self.key_proj(keys))
        v = self._heads(self.value_proj(values))
        allowed = None if mask is None else ast.asarray(mask)
        if key_padding_mask is not None:
            kept = ~ast.asarray(key_padding_mask, dtype=bool)[..., None, None, :]
            allowed = kept if allowed is None else allowed & kept
        rate = self.dropout if self.training else 0.0
        if rate and key is None:
            raise ValueError(
                f"MultiHeadAttention(dropout={self.dropout}) in training mode needs a PRNG key: "
                "call it with key=..., or use model.eval() for inference"
            )
        out = dot_product_attention(
            q, k, v, allowed, is_causal=is_causal, dropout_rate=rate, dropout_key=key
        )
        out = ast.swapaxes(out, -2, -3)
        return self.output_proj(ast.reshape(out, (*out.shape[:-2], -1)))


class TransformerBlock(Module):
    """A pre-norm transformer block: ``x + attention(norm(x))``, then ``x + mlp(norm(x))``.

    Parameters
    ----------
    embed_dim : int
        Model size E.
    num_heads : int
        Attention heads.
    mlp_hidden : int, optional
        Hidden size of the MLP (default 4 E).
    dropout : float, optional
        Dropout rate on the attention weights, after the MLP's activation and on both residual
        branches, in training mode.
    activation : callable or str, optional
        The MLP's activation (default 'gelu', as GPT; a function of arraystack.nn is stored by
        name, so the block can be checkpointed).
    eps : float, optional
        The layer norms' epsilon.
    bias : bool, optional
        Biases in the linear layers.
    key : uint32[2] array
        An arraystack.prng key (keyword-only).
    dtype : dtype, optional
        Parameter dtype (default float32).

    See Also
    --------
    torch.nn.TransformerEncoderLayer : the PyTorch relative, with norm_first=True and
        batch_first=True (its default activation is relu).
    arraystack.nn.MultiHeadAttention

    Notes
    -----
    Called as ``block(x, *, mask=None, key_padding_mask=None, is_causal=False, key=None)`` with x
    of shape (..., L, E); the masks are MultiHeadAttention's. In training mode with dropout > 0,
    `key` is required.
    """

    norm1: LayerNorm
    attention: MultiHeadAttention
    norm2: LayerNorm
    mlp_in: Linear
    mlp_out: Linear
    dropout: Dropout
    activation: Any = static(default="gelu")

    def __init__(
        self,
        embed_dim: int,
        num_heads: int,
        mlp_hidden: int | None = None,
        dropout: float = 0.0,
        activation: Callable | str = "gelu",
        eps: float = 1e-5,
        bias: bool = True,
        *,
        key: ArrayLike,
        dtype: DTypeLike | None = None,
    ) -> None:
        hidden = 4 * embed_dim if mlp_hidden is None else int(mlp_hidden)
        k_attention, k_in, k_out = prng.split(key, 3)
        self.norm1 = LayerNorm(embed_dim, eps, bias=bias, dtype=dtype)
        self.attention = MultiHeadAttention(
            embed_dim, num_heads, dropout, bias, key=k_attention, dtype=dtype
        )
        self.norm2 = LayerNorm(embed_dim, eps, bias=bias, dtype=dtype)
        self.mlp_in = Linear(embed_dim, hidden, bias, key=k_in, dtype=dtype)
        self.mlp_out = Linear(hidden, embed_dim, bias, key=k_out, dtype=dtype)
        self.dropout = Dropout(dropout)
        self.activation = function_field(activation)

    def __call__(
        self,
        x: ArrayLike,
        *,
        mask: ArrayLike | None = None,
        key_padding_mask: ArrayLike | None = None,
        is_causal: bool = False,
        key: ArrayLike | None = None,
    ) -> NDArray:
        x = ast.asarray(x)
        keys = _split_keys(key, 4) if self.dropout.training and self.dropout.rate else [None] * 4
        h = self.attention(
            self.norm1(x),
            mask=mask,
            key_padding_mask=key_padding_mask,
            is_causal=is_causal,
            key=keys[0],
        )
        x = x + self.dropout(h, key=keys[1])
        h = call_function(self.activation, self.mlp_in(self.norm2(x)))
        h = self.mlp_out(self.dropout(h, key=keys[2]))
        return x + self.dropout(h, key=keys[3])


__all__ = [
    "MultiHeadAttention",
    "TransformerBlock",
    "dot_product_attention",
    "scaled_dot_product_attention",
]
