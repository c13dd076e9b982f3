"""Import rules of ONNX's loss operators (NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss), against
`xp`.

Convention: interpreter.py. As ONNX's reference implementation computes them: the input is (N, C, d1, ...)
and the target (N, d1, ...); a target equal to `ignore_index` contributes 0 and no weight; with class
weights (or an ignore_index) the mean divides by the sum of the weights of the targets taken.
"""

from __future__ import annotations

import numpy

loss_rules: dict = {}


def _nll(xp, node, logp, target, weight=None):
    if numpy.ndim(logp) < 2:
        raise node.error(f"the input must be (N, C, ...), not of shape {numpy.shape(logp)}")
    if numpy.shape(target) != numpy.shape(logp)[:1] + numpy.shape(logp)[2:]:
        raise node.error(
            f"the target's shape {numpy.shape(target)} is not the input's {numpy.shape(logp)} "
            "without its class axis"
        )
    classes = numpy.shape(logp)[1]
    reduction = node.attr("reduction", "mean")
    if reduction not in ("mean", "sum", "none"):
        raise node.error(f"reduction {reduction!r} is not mean, sum or none")
    ignore = node.attr("ignore_index")
    index = xp.clip(target, 0, classes - 1)
    picked = xp.squeeze(xp.take_along_axis(logp, xp.expand_dims(index, 1), axis=1), axis=1)
    zero = xp.asarray(0, dtype=logp.dtype)
    loss = -picked
    weights = None
    if weight is not None:
        weights = xp.take(weight, index).astype(logp.dtype)
    if ignore is not None:
        valid = target != int(ignore)
        loss = xp.where(valid, loss, zero)
        if weights is None:
            weights = xp.where(valid, xp.asarray(1, dtype=logp.dtype), zero)
        else:
            weights = xp.where(valid, weights, zero)
    if weights is not None:
        loss = loss * weights
    if reduction == "sum":
        return xp.sum(loss).astype(logp.dtype)
    if reduction == "mean":
        if weights is not None:
            return (xp.sum(loss) / xp.sum(weights)).astype(logp.dtype)
        return xp.mean(loss).astype(logp.dtype)
    return loss


def _log_softmax(xp, x):
    top = xp.max(x, axis=1, keepdims=True)
    shifted = x - top
    return shifted - xp.log(xp.sum(xp.exp(shifted), axis=1, keepdims=True))


def _softmax_cross_entropy(xp, node, x, target, weight=None):
    logp = _log_softmax(xp, x)
    return _nll(xp, node, logp, target, weight), logp


loss_rules["NegativeLogLikelihoodLoss"] = _nll
loss_rules["SoftmaxCrossEntropyLoss"] = _softmax_cross_entropy

__all__ = ["loss_rules"]
