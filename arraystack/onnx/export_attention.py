"""ONNX export of the fused attention primitive (arraystack.ir.attention), decomposed into MatMul,
Softmax-like reductions and Where: ONNX runtimes fuse such a chain themselves where they can.

Calling convention of export_structural.py: `rule(builder, eqn, *operand_names) -> output name(s)`.
"""

from __future__ import annotations

import numpy as np

from arraystack.ir.attention import attention_grad_p, attention_p


def _attention(b, eqn, q, k, v, *masks):
    params = b.params(eqn)
    dtype = eqn.inputs[0].aval.dtype
    rank = len(eqn.inputs[0].aval.shape)
    kinds = [x.aval.dtype == np.bool_ for x in eqn.inputs[3:]]
    k_t = b.op("Transpose", [k], perm=[*range(rank - 2), rank - 1, rank - 2])
    scores = b.op("Mul", [b.op("MatMul", [q, k_t]), b.scalar(params["scale"], dtype)])
    allowed = None
    for is_mask, m in zip(kinds, masks):
        if is_mask:
            allowed = m
        else:
            scores = b.op("Add", [scores, m])
    if params["causal"]:  # ones (Lq, Lk), lower triangle kept: query i attends to keys j <= i
        size = b.op("Concat", [b.dim(q, rank - 2), b.dim(k, rank - 2)], axis=0)
        ones = b.op("Expand", [b.scalar(1.0, np.float32), size])
        lower = b.cast(b.op("Trilu", [ones], upper=0), np.bool_)
        allowed = lower if allowed is None else b.op("And", [allowed, lower])
    if allowed is not None:  # the composite formula's convention: the most negative finite score
        scores = b.where(allowed, scores, b.scalar(np.finfo(dtype).min, dtype))
    axes = b.ints([rank - 1])
    top = b.op("ReduceMax", [scores, axes], keepdims=1)
    exps = b.op("Exp", [b.op("Sub", [scores, top])])
    weights = b.op("Div", [exps, b.op("ReduceSum", [exps, axes], keepdims=1)])
    out = b.op("MatMul", [weights, v])
    if allowed is not None:  # an empty row's sum over no key is 0: its lse is -inf
        exps = b.where(allowed, exps, b.scalar(0, dtype))
    total = b.op("ReduceSum", [exps, axes], keepdims=0)
    lse = b.op("Add", [b.op("Squeeze", [top, axes]), b.op("Log", [total])])
    return [out, lse]


attention_rules = {attention_p: _attention}
unsupported = {
    attention_grad_p: "a gradient step of attention: export the forward computation",
}

__all__ = ["attention_rules", "unsupported"]
