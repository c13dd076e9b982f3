"""Normalizing maps (jax.nn's names): logsumexp, softmax, log_softmax, standardize, and one_hot.

Ordinary arraystack code like activations.py. The softmax family shifts its input by the maximum along
the axis, taken under stop_gradient, so nothing overflows and no derivative of the max is formed."""

from __future__ import annotations

from typing import TYPE_CHECKING

import arraystack as ast
from arraystack.nn.activations import _float

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, AxisLike, DTypeLike, NDArray


def _axes(axis, ndim):
    if axis is None:
        return tuple(range(ndim))
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    return tuple(a % ndim if ndim else a for a in axes)


def _shift(x, axis):
    """The maximum over `axis` (kept), 0 where it is not finite: a constant for differentiation (the
    results do not depend on it), so no derivative of the max is ever formed."""
    m = ast.max(ast.stop_gradient(x), axis=axis, keepdims=True)
    return ast.where(ast.isfinite(m), m, 0)


def logsumexp(x: ArrayLike, axis: AxisLike = None, keepdims: bool = False) -> NDArray:
    """Compute ``log(sum(exp(x), axis))`` without overflow.

    Parameters
    ----------
    x : array_like
        Input array (integers and booleans are converted to float64, as jax.nn does).
    axis : int or tuple of int, optional
        Axes reduced (default: all).
    keepdims : bool, optional
        Keep the reduced axes with size one.

    Returns
    -------
    ndarray
        The reduction.

    See Also
    --------
    jax.nn.logsumexp : the function mirrored.
    arraystack.nn.softmax, arraystack.nn.log_softmax

    Notes
    -----
    Computed from values shifted by their maximum; all -inf along the axis gives -inf. Its
    gradient is ``softmax(x)`` along the axis. scipy.special.logsumexp without its `b` and
    `return_sign`.
    """
    x = _float(x)
    axes = _axes(axis, x.ndim)
    m = _shift(x, axes)
    out = ast.log(ast.sum(ast.exp(x - m), axis=axes, keepdims=True)) + m
    return out if keepdims else ast.squeeze(out, axis=axes)


def softmax(x: ArrayLike, axis: AxisLike = -1) -> NDArray:
    """Softmax, ``exp(x) / sum(exp(x), axis)``, without overflow.

    Parameters
    ----------
    x : array_like
        Input array (integers and booleans are converted to float64, as jax.nn does).
    axis : int or tuple of int, optional
        Axes normalized over.

    Returns
    -------
    ndarray
        Of x's shape, summing to 1 along `axis`.

    See Also
    --------
    jax.nn.softmax : the function mirrored.
    torch.nn.functional.softmax : the PyTorch equivalent.
    arraystack.nn.log_softmax, arraystack.nn.logsumexp

    Notes
    -----
    Computed from values shifted by their maximum (a constant for differentiation).

    Examples
    --------
    >>> import arraystack as np
    >>> np.nn.softmax(np.asarray([0.0, 0.0]))
    array([0.5, 0.5])
    """
    x = _float(x)
    axes = _axes(axis, x.ndim)
    e = ast.exp(x - _shift(x, axes))
    return e / ast.sum(e, axis=axes, keepdims=True)


def log_softmax(x: ArrayLike, axis: AxisLike = -1) -> NDArray:
    """Log-softmax, ``x - logsumexp(x, axis)``, without overflow.

    Parameters
    ----------
    x : array_like
        Input array (integers and booleans are converted to float64, as jax.nn does).
    axis : int or tuple of int, optional
        Axes normalized over.

    Returns
    -------
    ndarray
        Of x's shape.

    See Also
    --------
    jax.nn.log_softmax : the function mirrored.
    torch.nn.functional.log_softmax : the PyTorch equivalent.
    arraystack.nn.softmax, arraystack.nn.logsumexp
    """
    x = _float(x)
    axes = _axes(axis, x.ndim)
    shifted = x - _shift(x, axes)
    return shifted - ast.log(ast.sum(ast.exp(shifted), axis=axes, keepdims=True))


def one_hot(labels: ArrayLike, num_classes: int, dtype: DTypeLike | None = None) -> NDArray:
    """One-hot encode integer labels along a new last axis.

    Parameters
    ----------
    labels : array_like
        Integer class indices.
    num_classes : int
        Size of the new axis.
    dtype : dtype, optional
        Result dtype (default float64; jax.nn's is float32 unless x64).

    Returns
    -------
    ndarray
        ``labels[..., None] == arange(num_classes)`` as `dtype`.

    See Also
    --------
    jax.nn.one_hot : the function mirrored.
    torch.nn.functional.one_hot : the PyTorch equivalent.
    arraystack.nn.softmax

    Notes
    -----
    Labels outside ``[0, num_classes)`` give rows of zeros.
    """
    labels = ast.asarray(labels)
    classes = ast.arange(
        int(num_classes),
        dtype=labels.dtype if labels.dtype.kind in "iu" else None,
        device=labels.device,  # beside the labels
    )
    return (ast.expand_dims(labels, -1) == classes).astype(ast.float64 if dtype is None else dtype)


def standardize(
    x: ArrayLike,
    axis: AxisLike = -1,
    mean: ArrayLike | None = None,
    variance: ArrayLike | None = None,
    epsilon: float = 1e-5,
) -> NDArray:
    """Normalize `x` to zero mean and unit variance along `axis`.

    Parameters
    ----------
    x : array_like
        Input array (integers and booleans are converted to float64, as jax.nn does).
    axis : int or tuple of int, optional
        Axes of the statistics.
    mean : array_like, optional
        Mean to use (default: computed over `axis`).
    variance : array_like, optional
        Variance to use (default: computed over `axis`).
    epsilon : float, optional
        Added to the variance.

    Returns
    -------
    ndarray
        ``(x - mean) / sqrt(variance + epsilon)``.

    See Also
    --------
    jax.nn.standardize : the function mirrored.
    arraystack.nn.layer_norm, arraystack.nn.batch_norm
    """
    x = _float(x)
    axes = _axes(axis, x.ndim)
    if mean is None:
        mean = ast.mean(x, axis=axes, keepdims=True)
    centered = x - mean
    if variance is None:
        variance = ast.mean(centered * centered, axis=axes, keepdims=True)
    return centered / ast.sqrt(variance + epsilon)


__all__ = ["log_softmax", "logsumexp", "one_hot", "softmax", "standardize"]
