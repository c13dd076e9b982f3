"""JVP, VJP and batching rules of the attention primitives (jit/attention.py).

Reverse mode of `attention` binds `attention_grad`, which recomputes the score tiles from q, k and the
log-sum-exp: the scores are never materialized whole. Everything else is a composition that materializes
the (..., Lq, Lk) weights: forward mode of both primitives, the bias's cotangent (a bias is (..., Lq, Lk)
already), and the derivatives of `attention_grad` (so grad of grad and jvp of grad work, at the memory
cost of the unfused formula). Batching moves the batch axis to the front, a new leading batch axis.
"""

from __future__ import annotations

import numpy as np
from arraystack.ir import primitives as p
from arraystack.ir.ad import forward, ops, reverse
from arraystack.ir.ad import matrices as mx
from arraystack.ir.ad.batching import batch_rules, move_to_front
from arraystack.ir.ad.forward import jvp_rules
from arraystack.ir.ad.reverse import vjp_rules
from arraystack.ir.attention import attention_grad_p, attention_p, split_masks
from arraystack.ir.core import bind

# -- the composite pieces, over the materialized (..., Lq, Lk) scores ------------------------------------------


def _full(x, like_shape):
    return ops.broadcast_in_dim(x, like_shape, tuple(range(len(like_shape))))


def _allowed(q, k, mask, causal):
    """Where a query may attend to a key, bool (..., Lq, Lk), or None for everywhere."""
    shape = (*ops.shape(q)[:-1], ops.shape(k)[-2])
    allowed = None
    if causal:
        rows = ops.iota(np.int64, shape, len(shape) - 2)
        cols = ops.iota(np.int64, shape, len(shape) - 1)
        allowed = bind(p.ge_p, rows, cols)
    if mask is not None:
        mask = _full(mask, shape)
        allowed = mask if allowed is None else bind(p.and_p, allowed, mask)
    return allowed


def _weights(q, k, mask, bias, lse, scale, causal):
    """(p, empty, allowed): p = exp(s - lse) on allowed scores (0 elsewhere and on empty rows), empty the
    rows with no allowed key (lse == -inf, bool (..., Lq, 1) broadcast to p's shape)."""
    scores = ops.mul(mx.mm(q, mx.mT(k)), ops.const(q, scale))
    shape = ops.shape(scores)
    if bias is not None:
        scores = ops.add(scores, _full(bias, shape))
    empty = ops.eq(lse, ops.const(lse, -np.inf))
    lse_safe = ops.select(empty, ops.zeros_like(lse), lse)
    weights = ops.unop(p.exp_p, ops.sub(scores, mx.col(lse_safe, scores)))
    empty = ops.broadcast_in_dim(empty, shape, tuple(range(len(shape) - 1)))
    allowed = _allowed(q, k, mask, causal)
    keep = ops.unop(p.not_p, empty)
    keep = keep if allowed is None else bind(p.and_p, keep, allowed)
    return ops.select(keep, weights, ops.zeros_like(weights)), empty, keep


def _uniform(empty, like):
    """1 / Lk on the empty rows, 0 elsewhere: the weights an empty row gets."""
    lk = ops.shape(like)[-1]
    return ops.select(
        empty, ops.full(ops.shape(like), ops.dtype(like), 1.0 / lk), ops.zeros_like(like)
    )


def _score_cotangent(q, k, v, mask, bias, out, lse, dout, dlse, scale, causal):
    """(ds, p, empty): the cotangent of the scores (0 where masked), the weights and the empty rows."""
    weights, empty, _ = _weights(q, k, mask, bias, lse, scale, causal)
    delta = ops.sub(ops.reduce_sum(ops.mul(dout, out), (ops.aval(out).ndim - 1,)), dlse)
    dp = mx.mm(dout, mx.mT(v))
    ds = ops.mul(weights, ops.sub(dp, mx.col(delta, dp)))
    return ds, weights, empty


def _composite_grad(q, k, v, mask, bias, out, lse, dout, dlse, scale, causal):
    """attention_grad as a composition (the oracle of its derivatives)."""
    ds, weights, empty = _score_cotangent(q, k, v, mask, bias, out, lse, dout, dlse, scale, causal)
    c = ops.const(q, scale)
    dq = ops.mul(mx.mm(ds, k), c)
    dk = ops.mul(mx.mm(mx.mT(ds), q), c)
    dv = mx.mm(mx.mT(ops.add(weights, _uniform(empty, weights))), dout)
    return dq, dk, dv


def _sum_to(x, shape):
    """x summed over the axes where `shape` (of x's rank) has length 1 and x does not."""
    axes = tuple(i for i, (n, m) in enumerate(zip(ops.shape(x), shape)) if n != m)
    return ops.reshape(ops.reduce_sum(x, axes), shape) if axes else x


def _bias_index(masks):
    mask, bias = split_masks(masks)
    return None if bias is None else 3 + (mask is not None)


# -- attention ----------------------------------------------------------------------------------------------------


def _attention_vjp(ct, out, needs, q, k, v, *masks, scale, causal):
    (dout, dlse), (o, lse) = ct, out
    dq, dk, dv = bind(
        attention_grad_p, q, k, v, *masks, o, lse, dout, dlse, scale=scale, causal=causal
    )
    cts = [dq, dk, dv] + [None] * len(masks)
    where = _bias_index(masks)
    if where is not None and needs[where]:
        mask, bias = split_masks(masks)
        ds, _, _ = _score_cotangent(q, k, v, mask, bias, o, lse, dout, dlse, scale, causal)
        cts[where] = _sum_to(ds, ops.shape(bias))
    return cts


def _attention_jvp(primals, tangents, out, *, scale, causal):
    q, k, v, *masks = primals
    tq, tk, tv, *tmasks = tangents
    mask, bias = split_masks(masks)
    _, lse = out
    weights, empty, keep = _weights(q, k, mask, bias, lse, scale, causal)
    ds = None  # the scores' tangent
    if tq is not None:
        ds = mx.mm(tq, mx.mT(k))
    if tk is not None:
        term = mx.mm(q, mx.mT(tk))
        ds = term if ds is None else ops.add(ds, term)
    if ds is not None:
        ds = ops.mul(ds, ops.const(q, scale))
    where = _bias_index(masks)
    if where is not None and tmasks[where - 3] is not None:
        term = _full(tmasks[where - 3], ops.shape(weights))
        ds = term if ds is None else ops.add(ds, term)
    d_out, d_lse = None, None
    if ds is not None:
        ds = ops.select(keep, ds, ops.zeros_like(ds))
        d_lse = ops.reduce_sum(ops.mul(weights, ds), (ops.aval(ds).ndim - 1,))
        d_out = mx.mm(ops.mul(weights, ops.sub(ds, mx.col(d_lse, ds))), v)
    if tv is not None:
        term = mx.mm(ops.add(weights, _uniform(empty, weights)), tv)
        d_out = term if d_out is None else ops.add(d_out, term)
    return [d_out, d_lse]


jvp_rules[attention_p] = _attention_jvp
vjp_rules[attention_p] = _attention_vjp

# -- attention_grad: derivatives of its composition -----------------------------------------------------------


def _grad_parts(operands):
    """(q, k, v, mask, bias, out, lse, dout, dlse) and the positions of the inexact operands."""
    q, k, v, *rest = operands
    masks, (out, lse, dout, dlse) = rest[:-4], rest[-4:]
    mask, bias = split_masks(masks)
    inexact = [i for i, x in enumerate(operands) if ops.dtype(x).kind == "f"]
    return (q, k, v, mask, bias, out, lse, dout, dlse), inexact


def _grad_function(operands, inexact, scale, causal):
    """attention_grad's composition as a function of its inexact operands."""

    def fun(*values):
        args = list(operands)
        for i, x in zip(inexact, values):
            args[i] = x
        parts, _ = _grad_parts(args)
        return list(_composite_grad(*parts, scale, causal))

    return fun


def _attention_grad_vjp(ct, out, needs, *operands, scale, causal):
    _, inexact = _grad_parts(operands)
    fun = _grad_function(operands, inexact, scale, causal)
    _, backward = reverse.vjp(fun, [operands[i] for i in inexact])
    cts = [None] * len(operands)
    for i, c in zip(inexact, backward(list(ct))):
        cts[i] = c if needs[i] else None
    return cts


def _attention_grad_jvp(primals, tangents, out, *, scale, causal):
    _, inexact = _grad_parts(primals)
    fun = _grad_function(primals, inexact, scale, causal)
    values = [primals[i] for i in inexact]
    given = [
        tangents[i] if tangents[i] is not None else ops.zeros_like(primals[i]) for i in inexact
    ]
    _, d_out = forward.jvp(fun, values, given)
    return d_out


jvp_rules[attention_grad_p] = _attention_grad_jvp
vjp_rules[attention_grad_p] = _attention_grad_vjp

# -- batching: the batch axis becomes the first leading axis ----------------------------------------------------


def _batched(size, args, batched, nmasks_at):
    """Operands with the batch axis first; unbatched masks and biases get a broadcast axis of length 1."""
    moved = []
    for i, (x, b) in enumerate(zip(args, batched)):
        if i in nmasks_at and not b:
            moved.append(ops.reshape(x, (1, *ops.shape(x))))
        else:
            moved.append(move_to_front(x, b, size))
    return moved


def _attention_batch(size, args, batched, *, scale, causal):
    masks_at = range(3, len(args))
    return bind(attention_p, *_batched(size, args, batched, masks_at), scale=scale, causal=causal)


def _attention_grad_batch(size, args, batched, *, scale, causal):
    masks_at = range(3, len(args) - 4)
    return bind(
        attention_grad_p, *_batched(size, args, batched, masks_at), scale=scale, causal=causal
    )


batch_rules[attention_p] = _attention_batch
batch_rules[attention_grad_p] = _attention_grad_batch
