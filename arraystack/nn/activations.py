"""Activation functions and normalizing maps (jax.nn's names), composed of arraystack functions.

Each one is ordinary arraystack code, so it runs eagerly, traces under arraystack.jit and is
differentiated by the primitives' own rules (no extra derivative rules here). Branches use `where`
on arguments that are safe in both branches, so an unused branch never puts an inf or NaN into a
gradient."""

from __future__ import annotations

import math

import arraystack as ast
from arraystack._array import raw, wrap
from arraystack.ir import primitives as p
from arraystack.ir.core import bind


# Note: erf and the logistic function are primitives the public namespace does not expose (yet);
# they are bound directly here, which is what the frontend's own one-primitive functions do.
def _unary_primitive(prim, x):
    return wrap(bind(prim, raw(ast.asarray(x))))


def _float(x):
    """x as an array, integers and booleans converted to float64 (jax.nn promotes them the same
    way)."""
    x = ast.asarray(x)
    return x if x.dtype.kind in "fc" else x.astype(ast.float64)


def _erf(x):
    """The error function (scipy.special.erf), elementwise on a float array."""
    return _unary_primitive(p.erf_p, _float(x))


def relu(x):
    """max(x, 0), with derivative 0 at 0 (jax.nn.relu)."""
    x = ast.asarray(x)
    return ast.where(x > 0, x, 0)


def relu6(x):
    """min(max(x, 0), 6) (jax.nn.relu6): derivative 1 strictly between 0 and 6, else 0."""
    x = ast.asarray(x)
    return ast.where(x > 0, ast.where(x < 6, x, 6), 0)


def leaky_relu(x, negative_slope=0.01):
    """x for x >= 0, negative_slope * x below (jax.nn.leaky_relu)."""
    x = ast.asarray(x)
    return ast.where(x >= 0, x, negative_slope * x)


def elu(x, alpha=1.0):
    """x for x > 0, alpha * (exp(x) - 1) otherwise (jax.nn.elu)."""
    x = _float(x)
    negative = ast.where(x > 0, 0, x)  # keeps expm1 finite where the other branch is taken
    return ast.where(x > 0, x, alpha * ast.expm1(negative))


def sigmoid(x):
    """1 / (1 + exp(-x)) without overflow (jax.nn.sigmoid, scipy.special.expit)."""
    return _unary_primitive(p.logistic_p, _float(x))


def silu(x):
    """x * sigmoid(x) (jax.nn.silu, also called swish)."""
    x = _float(x)
    return x * sigmoid(x)


swish = silu


def gelu(x, approximate=False):
    """x * Phi(x) (jax.nn.gelu). approximate=False uses erf; True or 'tanh' the tanh approximation.

    Note: jax.nn.gelu defaults to approximate=True; the exact form is the default here, as in
    PyTorch."""
    x = _float(x)
    if approximate is True or approximate == "tanh":
        inner = math.sqrt(2.0 / math.pi) * (x + 0.044715 * (x * x * x))
        return 0.5 * x * (1.0 + ast.tanh(inner))
    if approximate not in (False, None, "none"):
        raise ValueError(
            f"gelu: approximate must be False, True, 'none' or 'tanh', got {approximate!r}"
        )
    return 0.5 * x * (1.0 + _erf(x * (1.0 / math.sqrt(2.0))))


def _minus_abs(x):
    """-|x| written with `where`, so its derivative at 0 is 1 (the branch softplus needs there)."""
    return ast.where(x > 0, -x, x)


def softplus(x):
    """log(1 + exp(x)) without overflow (jax.nn.softplus): relu(x) + log1p(exp(-|x|)); derivative
    sigmoid(x)."""
    x = _float(x)
    return relu(x) + ast.log1p(ast.exp(_minus_abs(x)))


def log_sigmoid(x):
    """log(sigmoid(x)) = -softplus(-x) (jax.nn.log_sigmoid)."""
    return -softplus(-_float(x))


def tanh(x):
    """The hyperbolic tangent (jax.nn.tanh is jnp.tanh)."""
    return ast.tanh(_float(x))


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


def logsumexp(x, axis=None, keepdims=False):
    """log(sum(exp(x), axis)) computed from the shifted values (scipy.special.logsumexp,
    jax.nn.logsumexp).

    All -inf along the axis gives -inf; the gradient is softmax(x) along the axis."""
    x = _float(x)
    axes = _axes(axis, x.ndim)
    m = _shift(x, axes)
    out = ast.log(ast.sum(ast.exp(x - m), axis=axes, keepdims=True)) + m
    return out if keepdims else ast.squeeze(out, axis=axes)


def softmax(x, axis=-1):
    """exp(x) / sum(exp(x), axis) from the shifted values (jax.nn.softmax)."""
    x = _float(x)
    axes = _axes(axis, x.ndim)
    e = ast.exp(x - _shift(x, axes))
    return e / ast.sum(e, axis=axes, keepdims=True)


def log_softmax(x, axis=-1):
    """x - logsumexp(x, axis) from the shifted values (jax.nn.log_softmax)."""
    x = _float(x)
    axes = _axes(axis, x.ndim)
    shifted = x - _shift(x, axes)
    return shifted - ast.log(ast.sum(ast.exp(shifted), axis=axes, keepdims=True))


def one_hot(labels, num_classes, dtype=None):
    """labels[..., None] == arange(num_classes) as `dtype` (float64 by default), a new last axis
    (jax.nn.one_hot). Labels outside [0, num_classes) give rows of zeros."""
    labels = ast.asarray(labels)
    classes = ast.arange(
        int(num_classes), dtype=labels.dtype if labels.dtype.kind in "iu" else None
    )
    return (ast.expand_dims(labels, -1) == classes).astype(ast.float64 if dtype is None else dtype)


def standardize(x, axis=-1, mean=None, variance=None, epsilon=1e-5):
    """(x - mean) / sqrt(variance + epsilon), the statistics over `axis` unless given
    (jax.nn.standardize)."""
    x = _float(x)
    axes = _axes(axis, x.ndim)
    if mean is None:
        mean = ast.mean(x, axis=axes, keepdims=True)
    centered = x - mean
    if variance is None:
        variance = ast.mean(centered * centered, axis=axes, keepdims=True)
    return centered / ast.sqrt(variance + epsilon)


__all__ = [
    "elu",
    "gelu",
    "leaky_relu",
    "log_sigmoid",
    "log_softmax",
    "logsumexp",
    "one_hot",
    "relu",
    "relu6",
    "sigmoid",
    "silu",
    "softmax",
    "softplus",
    "standardize",
    "swish",
    "tanh",
]
