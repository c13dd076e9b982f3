"""Loss functions over logits and targets, with reduction 'mean' | 'sum' | 'none'.

softmax_cross_entropy is an arraystack.custom_vjp function: its reverse-mode derivative is the
closed form (softmax(logits) * sum(targets) - targets) * g instead of the derivative of
log_softmax's composition."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import arraystack as ast
from arraystack.nn.activations import softplus
from arraystack.nn.normalization import log_softmax, one_hot

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, NDArray


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


def softmax_cross_entropy(logits: ArrayLike, targets: ArrayLike) -> NDArray:
    """Softmax cross-entropy per example, ``-sum(targets * log_softmax(logits), axis=-1)``.

    Parameters
    ----------
    logits : array_like
        Unnormalized scores, classes along the last axis (floating).
    targets : array_like
        One-hot or probability targets, of logits' shape.

    Returns
    -------
    ndarray
        The losses, of logits' shape without the last axis (not reduced).

    See Also
    --------
    optax.softmax_cross_entropy : the function mirrored.
    arraystack.nn.cross_entropy

    Notes
    -----
    An arraystack.custom_vjp function: its reverse-mode derivative is the closed form
    ``(softmax(logits) * sum(targets) - targets) * g``.
    """
    logits = ast.asarray(logits)
    if logits.dtype.kind != "f":
        logits = logits.astype(ast.float64)
    targets = ast.asarray(targets).astype(logits.dtype, copy=False)
    return _xent_function()(logits, targets)


def cross_entropy(
    logits: ArrayLike, labels: ArrayLike, axis: int = -1, reduction: str = "mean"
) -> NDArray:
    """Softmax cross-entropy from logits, reduced.

    Parameters
    ----------
    logits : array_like
        Unnormalized scores.
    labels : array_like
        Integer class indices (logits' shape without `axis`) or one-hot / probability targets
        (logits' shape).
    axis : int, optional
        The class axis.
    reduction : {'mean', 'sum', 'none'}, optional
        How the per-example losses are reduced.

    Returns
    -------
    ndarray
        The reduced loss (0-d), or per-example losses with reduction='none'.

    See Also
    --------
    torch.nn.functional.cross_entropy : the function mirrored.
    optax.softmax_cross_entropy_with_integer_labels : the optax relative.
    arraystack.nn.softmax_cross_entropy

    Notes
    -----
    Integer labels outside ``[0, classes)`` contribute 0 (PyTorch raises, or ignores
    ignore_index).

    Examples
    --------
    >>> import arraystack as np
    >>> logits = np.asarray([[0.0, 0.0]])
    >>> bool(np.isclose(np.nn.cross_entropy(logits, np.asarray([1])), np.log(2.0)))
    True
    """
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


def binary_cross_entropy(logits: ArrayLike, targets: ArrayLike, reduction: str = "mean") -> NDArray:
    """Binary cross-entropy from logits, ``-t log sigmoid(x) - (1 - t) log(1 - sigmoid(x))``.

    Parameters
    ----------
    logits : array_like
        Unnormalized scores x (floating).
    targets : array_like
        Targets t in [0, 1], broadcast against `logits`.
    reduction : {'mean', 'sum', 'none'}, optional
        How the per-example losses are reduced.

    Returns
    -------
    ndarray
        The reduced loss, or elementwise losses with reduction='none'.

    See Also
    --------
    torch.nn.functional.binary_cross_entropy_with_logits : the function mirrored.
    optax.sigmoid_binary_cross_entropy : the optax relative.
    arraystack.nn.cross_entropy

    Notes
    -----
    Computed as ``softplus(x) - x * t``, stable for large |x|.
    """
    logits = ast.asarray(logits)
    if logits.dtype.kind != "f":
        logits = logits.astype(ast.float64)
    targets = ast.asarray(targets).astype(logits.dtype)
    return _reduce(softplus(logits) - logits * targets, reduction)


def mse(predictions: ArrayLike, targets: ArrayLike, reduction: str = "mean") -> NDArray:
    """Mean squared error, ``(predictions - targets) ** 2``, reduced.

    Parameters
    ----------
    predictions : array_like
        Predicted values.
    targets : array_like
        Targets, broadcast against `predictions`.
    reduction : {'mean', 'sum', 'none'}, optional
        How the per-example losses are reduced.

    Returns
    -------
    ndarray
        The reduced loss, or elementwise losses with reduction='none'.

    See Also
    --------
    torch.nn.functional.mse_loss : the function mirrored (also arraystack.nn.mse_loss).
    optax.squared_error : the optax relative (without the 0.5 of optax.l2_loss).
    arraystack.nn.huber
    """
    d = ast.asarray(predictions) - ast.asarray(targets)
    return _reduce(d * d, reduction)


def huber(
    predictions: ArrayLike, targets: ArrayLike, delta: float = 1.0, reduction: str = "mean"
) -> NDArray:
    """Huber loss: ``0.5 d**2`` where ``|d| <= delta``, ``delta * (|d| - delta / 2)`` beyond.

    Parameters
    ----------
    predictions : array_like
        Predicted values.
    targets : array_like
        Targets; d = predictions - targets.
    delta : float, optional
        Where the loss turns from quadratic to linear.
    reduction : {'mean', 'sum', 'none'}, optional
        How the per-example losses are reduced.

    Returns
    -------
    ndarray
        The reduced loss, or elementwise losses with reduction='none'.

    See Also
    --------
    torch.nn.functional.huber_loss : the function mirrored (also arraystack.nn.huber_loss).
    optax.huber_loss : the optax relative.
    arraystack.nn.mse
    """
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
