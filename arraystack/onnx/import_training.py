"""Import rules of ONNX's optimizer operators (domain "ai.onnx.preview.training"; convention:
interpreter.py): Adagrad, Momentum (standard and Nesterov) and Adam, each updating any number of tensors
with one learning rate R and one step count T. Operands come as R, T, then the tensors X, their
gradients G and their accumulators, group by group; outputs are the new tensors, then the new
accumulators. T may be traced: the first step's special cases are selects.
"""

from __future__ import annotations

import numpy

training_rules: dict = {}


def _groups(node, operands, per_tensor):
    """(R, T, [(X, G, accumulators...) per tensor]) from the operand list."""
    if len(operands) < 2 or (len(operands) - 2) % per_tensor:
        raise node.error(
            f"takes R, T and {per_tensor} operands per tensor (X, G, accumulators), "
            f"got {len(operands)} operands"
        )
    r, t, rest = operands[0], operands[1], operands[2:]
    n = len(rest) // per_tensor
    return r, t, [tuple(rest[k * n + i] for k in range(per_tensor)) for i in range(n)]


def _like(xp, x, value):
    return xp.asarray(value, dtype=x.dtype)


def _adagrad(xp, node, *operands):
    r, t, groups = _groups(node, operands, 3)
    decay = node.attr("decay_factor", 0.0)
    eps, norm = node.attr("epsilon", 0.0), node.attr("norm_coefficient", 0.0)
    xs, hs = [], []
    for x, g, h in groups:
        rate = r / (1 + t * _like(xp, r, decay))
        g = _like(xp, x, norm) * x + g
        h_new = h + g * g
        xs.append((x - rate * g / (xp.sqrt(h_new) + _like(xp, x, eps))).astype(x.dtype))
        hs.append(h_new.astype(h.dtype))
    return tuple(xs + hs)


def _momentum(xp, node, *operands):
    r, t, groups = _groups(node, operands, 3)
    alpha, beta = node.attr("alpha"), node.attr("beta")
    mode, norm = node.attr("mode", "standard"), node.attr("norm_coefficient", 0.0)
    if mode not in ("standard", "nesterov"):
        raise node.error(f"mode {mode!r} is neither 'standard' nor 'nesterov'")
    xs, vs = [], []
    for x, g, v in groups:
        g = _like(xp, x, norm) * x + g
        first = xp.where(t > 0, _like(xp, x, beta), _like(xp, x, 1))  # the first step: all of g
        v_new = _like(xp, x, alpha) * v + first * g
        step = v_new if mode == "standard" else g + _like(xp, x, alpha) * v_new
        xs.append((x - r * step).astype(x.dtype))
        vs.append(v_new.astype(v.dtype))
    return tuple(xs + vs)


def _adam(xp, node, *operands):
    r, t, groups = _groups(node, operands, 4)
    alpha, beta = node.attr("alpha", 0.9), node.attr("beta", 0.999)
    eps, norm = node.attr("epsilon", 1e-6), node.attr("norm_coefficient", 0.0)
    post = node.attr("norm_coefficient_post", 0.0)
    tf = xp.maximum(xp.asarray(t), 1).astype(numpy.float64)  # T = 0 is selected away below
    corrected = xp.sqrt(1 - beta**tf) / (1 - alpha**tf)
    rate = xp.where(t > 0, r * corrected.astype(r.dtype), r)  # bias correction after the first step
    xs, vs, hs = [], [], []
    for x, g, v, h in groups:
        g = _like(xp, x, norm) * x + g
        v_new = _like(xp, x, alpha) * v + _like(xp, x, 1 - alpha) * g
        h_new = _like(xp, x, beta) * h + _like(xp, x, 1 - beta) * (g * g)
        x_new = x - rate * (v_new / (xp.sqrt(h_new) + _like(xp, x, eps)))
        xs.append((_like(xp, x, 1 - post) * x_new).astype(x.dtype))
        vs.append(v_new.astype(v.dtype))
        hs.append(h_new.astype(h.dtype))
    return tuple(xs + vs + hs)


training_rules.update({"Adagrad": _adagrad, "Momentum": _momentum, "Adam": _adam})

__all__ = ["training_rules"]
