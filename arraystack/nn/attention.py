"""Attention: the functional dot_product_attention, and the MultiHeadAttention and TransformerBlock
modules built on it.

Written with public arraystack ops (matmul, where, softmax), so it traces, differentiates and batches
with no rules of its own; the scores are materialized whole ((..., Lq, Lk) per head).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import arraystack as ast
from arraystack import prng
from arraystack.nn.dropout import dropout
from arraystack.nn.module import Module, static
from arraystack.nn.module_layers import Dropout, LayerNorm, Linear, call_function, function_field
from arraystack.nn.normalization import softmax

if TYPE_CHECKING:
    from collections.abc import Callable

    from arraystack.typing import ArrayLike, DTypeLike, NDArray


def _causal(lq, lk):
    return ast.arange(lq)[:, None] >= ast.arange(lk)[None, :]


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
    Masked scores are set to the dtype's most negative finite value rather than -inf, so a query
    whose keys are all masked gets uniform weights instead of NaN (as flax does; PyTorch gives
    NaN).

    Examples
    --------
    >>> import arraystack as np
    >>> q = np.ones((2, 3, 4))
    >>> np.nn.dot_product_attention(q, q, q, is_causal=True).shape
    (2, 3, 4)
    """
    query, key, value = ast.asarray(query), ast.asarray(key), ast.asarray(value)
    scale = 1.0 / math.sqrt(query.shape[-1]) if scale is None else float(scale)
    scores = ast.matmul(query, ast.swapaxes(key, -1, -2)) * scale
    allowed = None
    if is_causal:
        allowed = _causal(query.shape[-2], key.shape[-2])
    if mask is not None:
        mask = ast.asarray(mask)
        if mask.dtype == ast.bool_:
            allowed = mask if allowed is None else allowed & mask
        else:
            scores = scores + mask
    if allowed is not None:
        scores = ast.where(allowed, scores, ast.finfo(scores.dtype).min)
    weights = softmax(scores, axis=-1)
    if dropout_rate > 0.0:
        if dropout_key is None:
            raise ValueError("dot_product_attention: dropout_rate > 0 needs dropout_key")
        weights = dropout(dropout_key, weights, dropout_rate)
    return ast.matmul(weights, value)


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


__all__ = ["MultiHeadAttention", "TransformerBlock", "dot_product_attention"]
