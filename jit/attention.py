"""Fused scaled dot-product attention: the `attention` and `attention_grad` primitives, declared once (shape
rules and NumPy reference rules, blocked as the compiled kernels are).

`attention[scale, causal] q k v *masks -> out, lse`: q (..., Lq, D), k (..., Lk, D), v (..., Lk, Dv) share
their leading (batch) axes and one dtype (float32 or float64). Each optional operand has q's rank and, per
axis, the size of (..., Lq, Lk) or 1 (it broadcasts): a bool one is a mask (True = the query may attend to
the key), one of q's dtype a bias added to the scores; at most one of each, the mask first. `causal` lets
query i attend to keys j <= i only (the upper-left triangle, as PyTorch). With s = q @ k^T * scale + bias
over the allowed keys, out = softmax(s) @ v and lse = log(sum(exp(s))) per query row.

A query row with no allowed key (a mask that hides every key) gets uniform weights over all Lk keys, so out
is the mean of v's rows (zeros when Lk == 0), as the composite formula with the most negative finite score
in masked places gives (flax's convention; PyTorch gives NaN); its lse is -inf, the log of the empty sum.
A row whose allowed scores are all -inf (a bias of -inf) gives NaN, as the composite formula does.

`attention_grad[scale, causal] q k v *masks out lse dout dlse -> dq, dk, dv`: the cotangents of q, k, v
given those of out and lse (dlse, zeros when only out is used), from attention's out and lse. The bias's
cotangent is not an output: autodiff computes it from the materialized scores (jit/ad/rules_attention.py).

Both reference rules walk (BLOCK_Q, BLOCK_K) tiles of scores with a running maximum and sum per query row
(the online softmax of FlashAttention), so no more than one tile per batch of scores exists at a time; the
backward pass recomputes each tile from q, k and lse. Causal attention skips the tiles above the diagonal.
"""

from __future__ import annotations

import numpy as np
from arraystack.ir.avals import ShapedArray
from arraystack.ir.core import Primitive
from arraystack.ir.primitives import abstract_eval_rules
from arraystack.ir.reference import reference_rules

BLOCK_Q = 64  # query rows per tile
BLOCK_K = 64  # keys per tile
DTYPES = (np.dtype(np.float32), np.dtype(np.float64))

attention_p = Primitive("attention", multiple_results=True)
attention_grad_p = Primitive("attention_grad", multiple_results=True)


# -- shape rules ------------------------------------------------------------------------------------------------


def _check(name, q, k, v, masks, scale, causal):
    """The avals of (out, lse), after checking the operands of attention or attention_grad."""
    where = f"{name} of q {q.str_short()}, k {k.str_short()}, v {v.str_short()}"
    if q.dtype not in DTYPES or k.dtype != q.dtype or v.dtype != q.dtype:
        raise TypeError(f"{where}: q, k and v must share one dtype, float32 or float64")
    if q.ndim < 2 or k.ndim != q.ndim or v.ndim != q.ndim:
        raise ValueError(f"{where}: q, k and v must have one rank, at least 2")
    batch, lq, lk = q.shape[:-2], q.shape[-2], k.shape[-2]
    if k.shape[:-2] != batch or v.shape[:-2] != batch:
        raise ValueError(f"{where}: q, k and v must share their leading (batch) axes")
    if k.shape[-1] != q.shape[-1] or v.shape[-2] != lk:
        raise ValueError(f"{where}: needs k (..., Lk, D) for q (..., Lq, D) and v (..., Lk, Dv)")
    if not isinstance(scale, float) or not isinstance(causal, bool):
        raise TypeError(
            f"{where}: scale must be a float and causal a bool, got {scale!r}, {causal!r}"
        )
    kinds = ["mask" if m.dtype == np.bool_ else "bias" for m in masks]
    if kinds not in ([], ["mask"], ["bias"], ["mask", "bias"]):
        raise TypeError(f"{where}: takes at most a bool mask then a bias, got {kinds}")
    full = (*batch, lq, lk)
    for m in masks:
        if m.dtype not in (np.dtype(np.bool_), q.dtype):
            raise TypeError(f"{where}: a mask is bool or q's dtype, got {m.str_short()}")
        if m.ndim != len(full) or any(n not in (1, f) for n, f in zip(m.shape, full)):
            raise ValueError(
                f"{where}: mask {m.str_short()} does not broadcast to {list(full)} axis by axis"
            )
    return ShapedArray((*batch, lq, v.shape[-1]), q.dtype), ShapedArray((*batch, lq), q.dtype)


def _attention_rule(q, k, v, *masks, scale, causal):
    return _check("attention", q, k, v, masks, scale, causal)


def _attention_grad_rule(q, k, v, *rest, scale, causal):
    if len(rest) < 4:
        raise ValueError("attention_grad takes q, k, v, the masks, out, lse, dout and dlse")
    masks, given = rest[:-4], rest[-4:]
    out, lse = _check("attention_grad", q, k, v, masks, scale, causal)
    for name, got, want in zip(("out", "lse", "dout", "dlse"), given, (out, lse, out, lse)):
        if got.shape != want.shape or got.dtype != want.dtype:
            raise ValueError(
                f"attention_grad: {name} must be {want.str_short()}, got {got.str_short()}"
            )
    return q, k, v


abstract_eval_rules[attention_p] = _attention_rule
abstract_eval_rules[attention_grad_p] = _attention_grad_rule


# -- reference rules (NumPy or CuPy as xp) ------------------------------------------------------------------------


def split_masks(masks):
    """(bool mask or None, bias or None) from attention's optional operands."""
    mask = next((m for m in masks if m.dtype == np.bool_), None)
    bias = next((m for m in masks if m.dtype != np.bool_), None)
    return mask, bias


def key_blocks(i0, i1, lk, causal):
    """The (start, stop) key ranges of the tiles of query rows [i0, i1): causal attention stops at i1."""
    stop = min(lk, i1) if causal else lk
    return [(j0, min(j0 + BLOCK_K, stop)) for j0 in range(0, stop, BLOCK_K)]


def _tile(x, i0, i1, j0, j1):
    """The (rows i0:i1, keys j0:j1) tile of a mask or bias; its broadcast axes stay of length 1."""
    rows = slice(None) if x.shape[-2] == 1 else slice(i0, i1)
    cols = slice(None) if x.shape[-1] == 1 else slice(j0, j1)
    return x[..., rows, cols]


def _scores(xp, qb, k, mask, bias, i0, i1, j0, j1, scale, causal):
    """The tile's scores (..., i1 - i0, j1 - j0) and where they are allowed (None: everywhere)."""
    s = xp.matmul(qb, xp.swapaxes(k[..., j0:j1, :], -1, -2)) * qb.dtype.type(scale)
    if bias is not None:
        s = s + _tile(bias, i0, i1, j0, j1)
    allowed = None
    if causal and j1 > i0 + 1:  # some key of the tile is after some query row
        allowed = xp.arange(i0, i1)[:, None] >= xp.arange(j0, j1)[None, :]
    if mask is not None:
        tile = _tile(mask, i0, i1, j0, j1)
        allowed = tile if allowed is None else allowed & tile
    return s, allowed


def _attention_reference(xp, q, k, v, *masks, scale, causal):
    mask, bias = split_masks(masks)
    lq, lk, dtype = q.shape[-2], k.shape[-2], q.dtype
    out = xp.empty((*q.shape[:-1], v.shape[-1]), dtype)
    lse = xp.empty(q.shape[:-1], dtype)
    neg_inf = dtype.type(-np.inf)
    for i0 in range(0, lq, BLOCK_Q):
        i1 = min(i0 + BLOCK_Q, lq)
        qb = q[..., i0:i1, :]
        m = xp.full(qb.shape[:-1], neg_inf, dtype)  # running maximum of the allowed scores
        total = xp.zeros(qb.shape[:-1], dtype)  # running sum of exp(s - m)
        acc = xp.zeros((*qb.shape[:-1], v.shape[-1]), dtype)
        seen = xp.zeros(qb.shape[:-1], bool)  # the row has an allowed key
        for j0, j1 in key_blocks(i0, i1, lk, causal):
            s, allowed = _scores(xp, qb, k, mask, bias, i0, i1, j0, j1, scale, causal)
            if allowed is not None:
                s = xp.where(allowed, s, neg_inf)
                seen = seen | xp.any(allowed, axis=-1)
            else:
                seen = xp.ones_like(seen)
            m_new = xp.maximum(m, xp.max(s, axis=-1))
            # no allowed key yet: shift by 0, so exp(-inf) = 0
            shift = xp.where(m_new == neg_inf, dtype.type(0), m_new)
            p = xp.exp(s - shift[..., None])
            alpha = xp.exp(m - shift)
            total = total * alpha + xp.sum(p, axis=-1)
            acc = acc * alpha[..., None] + xp.matmul(p, v[..., j0:j1, :])
            m = m_new
        positive = total > 0
        safe = xp.where(positive, total, dtype.type(1))
        ob = xp.where(positive[..., None], acc / safe[..., None], dtype.type(np.nan))
        lb = xp.where(positive, m + xp.log(safe), dtype.type(np.nan))
        empty = ~seen  # no allowed key: uniform weights over every key, lse = log(0)
        mean = xp.mean(v, axis=-2) if lk else xp.zeros((*v.shape[:-2], v.shape[-1]), dtype)
        out[..., i0:i1, :] = xp.where(empty[..., None], mean[..., None, :], ob)
        lse[..., i0:i1] = xp.where(empty, neg_inf, lb)
    return out, lse


def _attention_grad_reference(xp, q, k, v, *rest, scale, causal):
    masks, (out, lse, dout, dlse) = rest[:-4], rest[-4:]
    mask, bias = split_masks(masks)
    lq, lk, dtype = q.shape[-2], k.shape[-2], q.dtype
    empty = lse == dtype.type(-np.inf)  # rows with no allowed key (see the module's docstring)
    lse_safe = xp.where(empty, dtype.type(0), lse)
    delta = xp.sum(dout * out, axis=-1) - dlse
    dq, dk, dv = xp.zeros_like(q), xp.zeros_like(k), xp.zeros_like(v)
    scale_ = dtype.type(scale)
    for i0 in range(0, lq, BLOCK_Q):
        i1 = min(i0 + BLOCK_Q, lq)
        qb, doutb = q[..., i0:i1, :], dout[..., i0:i1, :]
        for j0, j1 in key_blocks(i0, i1, lk, causal):
            s, allowed = _scores(xp, qb, k, mask, bias, i0, i1, j0, j1, scale, causal)
            p = xp.exp(s - lse_safe[..., i0:i1, None])
            if allowed is not None:
                p = xp.where(allowed, p, dtype.type(0))
            p = xp.where(empty[..., i0:i1, None], dtype.type(0), p)
            kb, vb = k[..., j0:j1, :], v[..., j0:j1, :]
            dv[..., j0:j1, :] += xp.matmul(xp.swapaxes(p, -1, -2), doutb)
            ds = p * (xp.matmul(doutb, xp.swapaxes(vb, -1, -2)) - delta[..., i0:i1, None])
            dq[..., i0:i1, :] += xp.matmul(ds, kb) * scale_
            dk[..., j0:j1, :] += xp.matmul(xp.swapaxes(ds, -1, -2), qb) * scale_
    if lk:  # an empty row's uniform weights 1 / Lk reach every value row
        spread = xp.sum(xp.where(empty[..., None], dout, dtype.type(0)), axis=-2) / dtype.type(lk)
        dv += spread[..., None, :]
    return dq, dk, dv


reference_rules[attention_p] = _attention_reference
reference_rules[attention_grad_p] = _attention_grad_reference

__all__ = ["BLOCK_K", "BLOCK_Q", "attention_grad_p", "attention_p", "key_blocks", "split_masks"]
