"""Loss functions over logits and targets, with reduction 'mean' | 'sum' | 'none'.

softmax_cross_entropy is an arraystack.custom_vjp function: its reverse-mode derivative is the
closed form (softmax(logits) * sum(targets) - targets) * g instead of the derivative of
log_softmax's composition."""

from __future__ import annotations

import functools

import arraystack as ast
from arraystack.nn.activations import log_softmax, one_hot, softplus


def _reduce(loss, reduction):
    if reduction == "mean":
        return ast.mean(loss)
    if reduction == "sum":
        return ast.sum(loss)
    if reduction == "none" or reduction is None:
        return loss
    raise ValueError(f"reduction must be 'mean', 'sum' or 'none', got {reduction!r}")


def _xent_plain(logits, targets):
    """-sum(targets * log_softmax(logits)) over the last axis."""
    return -ast.sum(targets * log_softmax(logits, axis=-1), axis=-1)


def _xent_fwd(logits, targets):
    logp = log_softmax(logits, axis=-1)
    return -ast.sum(targets * logp, axis=-1), (logp, targets)


def _xent_bwd(residuals, g):
    logp, targets = residuals
    g = ast.expand_dims(g, -1)
    total = ast.sum(targets, axis=-1, keepdims=True)  # 1 for one-hot and probability targets
    return (ast.exp(logp) * total - targets) * g, -logp * g


@functools.cache
def _xent_custom():
    fun = ast.custom_vjp(_xent_plain)
    fun.defvjp(_xent_fwd, _xent_bwd)
    return fun


def _xent_function():
    """The custom_vjp version when arraystack provides custom_vjp, else the plain composition."""
    return _xent_custom() if hasattr(ast, "custom_vjp") else _xent_plain


def softmax_cross_entropy(logits, targets):
    """-sum(targets * log_softmax(logits), axis=-1) per example (optax.softmax_cross_entropy), with
    the closed-form gradient softmax(logits) - targets (for targets summing to 1) as its VJP."""
    logits = ast.asarray(logits)
    if logits.dtype.kind != "f":
        logits = logits.astype(ast.float64)
    targets = ast.asarray(targets).astype(logits.dtype)
    return _xent_function()(logits, targets)


def cross_entropy(logits, labels, axis=-1, reduction="mean"):
    """Softmax cross-entropy from logits (torch.nn.functional.cross_entropy).

    `labels` holds integer class indices (shape of logits without `axis`) or one-hot / probability
    targets (the shape of logits). Integer labels outside [0, classes) contribute 0."""
    logits = ast.asarray(logits)
    labels = ast.asarray(labels)
    moved = ast.moveaxis(logits, axis, -1)
    if labels.dtype.kind in "iub":
        if labels.dtype.kind == "b" or labels.shape != moved.shape[:-1]:
            raise ValueError(
                f"cross_entropy: integer labels of shape {labels.shape} do not match logits "
                f"{logits.shape} without axis {axis}"
            )
        targets = one_hot(
            labels, moved.shape[-1], dtype=moved.dtype if moved.dtype.kind == "f" else None
        )
    else:
        if labels.shape != logits.shape:
            raise ValueError(
                f"cross_entropy: targets of shape {labels.shape} for logits {logits.shape}"
            )
        targets = ast.moveaxis(labels, axis, -1)
    return _reduce(softmax_cross_entropy(moved, targets), reduction)


def binary_cross_entropy(logits, targets, reduction="mean"):
    """-t log sigmoid(x) - (1 - t) log(1 - sigmoid(x)) from logits x, computed as softplus(x) - x t
    (torch.nn.functional.binary_cross_entropy_with_logits, optax.sigmoid_binary_cross_entropy)."""
    logits = ast.asarray(logits)
    if logits.dtype.kind != "f":
        logits = logits.astype(ast.float64)
    targets = ast.asarray(targets).astype(logits.dtype)
    return _reduce(softplus(logits) - logits * targets, reduction)


def mse(predictions, targets, reduction="mean"):
    """(predictions - targets) ** 2, reduced (torch.nn.functional.mse_loss)."""
    d = ast.asarray(predictions) - ast.asarray(targets)
    return _reduce(d * d, reduction)


def huber(predictions, targets, delta=1.0, reduction="mean"):
    """0.5 d^2 where |d| <= delta, delta (|d| - delta / 2) beyond, d = predictions - targets
    (torch.nn.functional.huber_loss, optax.huber_loss)."""
    d = ast.asarray(predictions) - ast.asarray(targets)
    a = ast.abs(d)
    quadratic = ast.where(
        a <= delta, d, 0
    )  # the quadratic part's input, clipped to where it applies
    return _reduce(
        ast.where(a <= delta, 0.5 * quadratic * quadratic, delta * (a - 0.5 * delta)), reduction
    )


mse_loss = mse
huber_loss = huber

__all__ = [
    "binary_cross_entropy",
    "cross_entropy",
    "huber",
    "huber_loss",
    "mse",
    "mse_loss",
    "softmax_cross_entropy",
]
