"""Activation functions (jax.nn's names), composed of arraystack functions; softmax and the other
normalizing maps are in normalization.py.

Each one is ordinary arraystack code, so it runs eagerly, traces under arraystack.jit and is
differentiated by the primitives' own rules (no extra derivative rules here). Branches use `where`
on arguments that are safe in both branches, so an unused branch never puts an inf or NaN into a
gradient."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import arraystack as ast
from arraystack._core.array import raw, wrap
from arraystack.ir import primitives as p
from arraystack.ir.core import bind

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, NDArray


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


def relu(x: ArrayLike) -> NDArray:
    """Rectified linear unit, ``max(x, 0)``.

    Parameters
    ----------
    x : array_like
        Input array.

    Returns
    -------
    ndarray
        The activation, elementwise, of x's shape.

    See Also
    --------
    jax.nn.relu : the function mirrored.
    torch.nn.functional.relu : the PyTorch equivalent.
    arraystack.nn.relu6, arraystack.nn.leaky_relu, arraystack.nn.gelu

    Notes
    -----
    The derivative at 0 is 0, as in JAX.

    Examples
    --------
    >>> import arraystack as np
    >>> np.nn.relu(np.asarray([-1.0, 0.0, 2.0]))
    array([0., 0., 2.])
    """
    x = ast.asarray(x)
    return ast.where(x > 0, x, 0)


def relu6(x: ArrayLike) -> NDArray:
    """ReLU capped at 6, ``min(max(x, 0), 6)``.

    Parameters
    ----------
    x : array_like
        Input array.

    Returns
    -------
    ndarray
        The activation, elementwise, of x's shape.

    See Also
    --------
    jax.nn.relu6 : the function mirrored.
    torch.nn.functional.relu6 : the PyTorch equivalent.
    arraystack.nn.relu

    Notes
    -----
    Derivative 1 strictly between 0 and 6, else 0.
    """
    x = ast.asarray(x)
    return ast.where(x > 0, ast.where(x < 6, x, 6), 0)


def leaky_relu(x: ArrayLike, negative_slope: float = 0.01) -> NDArray:
    """Leaky ReLU: `x` for ``x >= 0``, ``negative_slope * x`` below.

    Parameters
    ----------
    x : array_like
        Input array.
    negative_slope : float, optional
        Slope for negative inputs.

    Returns
    -------
    ndarray
        The activation, elementwise, of x's shape.

    See Also
    --------
    jax.nn.leaky_relu : the function mirrored.
    torch.nn.functional.leaky_relu : the PyTorch equivalent.
    arraystack.nn.relu, arraystack.nn.elu
    """
    x = ast.asarray(x)
    return ast.where(x >= 0, x, negative_slope * x)


def elu(x: ArrayLike, alpha: float = 1.0) -> NDArray:
    """Exponential linear unit: `x` for ``x > 0``, ``alpha * (exp(x) - 1)`` otherwise.

    Parameters
    ----------
    x : array_like
        Input array (integers and booleans are converted to float64, as jax.nn does).
    alpha : float, optional
        Scale of the negative part.

    Returns
    -------
    ndarray
        The activation, elementwise, of x's shape.

    See Also
    --------
    jax.nn.elu : the function mirrored.
    torch.nn.functional.elu : the PyTorch equivalent.
    arraystack.nn.relu, arraystack.nn.leaky_relu

    Notes
    -----
    The unused branch is kept finite, so gradients never see an inf.
    """
    x = _float(x)
    negative = ast.where(x > 0, 0, x)  # keeps expm1 finite where the other branch is taken
    return ast.where(x > 0, x, alpha * ast.expm1(negative))


def sigmoid(x: ArrayLike) -> NDArray:
    """Logistic sigmoid, ``1 / (1 + exp(-x))``, without overflow.

    Parameters
    ----------
    x : array_like
        Input array (integers and booleans are converted to float64, as jax.nn does).

    Returns
    -------
    ndarray
        The activation, elementwise, of x's shape.

    See Also
    --------
    jax.nn.sigmoid : the function mirrored.
    torch.nn.functional.sigmoid : the PyTorch equivalent.
    arraystack.nn.log_sigmoid, arraystack.nn.silu, arraystack.nn.softplus

    Notes
    -----
    One `logistic` primitive (scipy.special.expit).
    """
    return _unary_primitive(p.logistic_p, _float(x))


def silu(x: ArrayLike) -> NDArray:
    """SiLU (swish), ``x * sigmoid(x)``.

    Parameters
    ----------
    x : array_like
        Input array (integers and booleans are converted to float64, as jax.nn does).

    Returns
    -------
    ndarray
        The activation, elementwise, of x's shape.

    See Also
    --------
    jax.nn.silu : the function mirrored.
    torch.nn.functional.silu : the PyTorch equivalent.
    arraystack.nn.sigmoid, arraystack.nn.gelu

    Notes
    -----
    Also available as `arraystack.nn.swish`.
    """
    x = _float(x)
    return x * sigmoid(x)


swish = silu


def gelu(x: ArrayLike, approximate: bool | str = False) -> NDArray:
    """Gaussian error linear unit, ``x * Phi(x)``.

    Parameters
    ----------
    x : array_like
        Input array (integers and booleans are converted to float64, as jax.nn does).
    approximate : bool or {'none', 'tanh'}, optional
        False or 'none': the exact form through erf; True or 'tanh': the tanh approximation.

    Returns
    -------
    ndarray
        The activation, elementwise, of x's shape.

    See Also
    --------
    jax.nn.gelu : the function mirrored.
    torch.nn.functional.gelu : the PyTorch equivalent.
    arraystack.nn.relu, arraystack.nn.silu

    Notes
    -----
    jax.nn.gelu defaults to approximate=True; the exact form is the default here, as in PyTorch.
    """
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


def softplus(x: ArrayLike) -> NDArray:
    """Softplus, ``log(1 + exp(x))``, without overflow.

    Parameters
    ----------
    x : array_like
        Input array (integers and booleans are converted to float64, as jax.nn does).

    Returns
    -------
    ndarray
        The activation, elementwise, of x's shape.

    See Also
    --------
    jax.nn.softplus : the function mirrored.
    torch.nn.functional.softplus : the PyTorch equivalent.
    arraystack.nn.sigmoid, arraystack.nn.log_sigmoid

    Notes
    -----
    Computed as ``relu(x) + log1p(exp(-|x|))``; its derivative is ``sigmoid(x)`` (at 0 too).
    """
    x = _float(x)
    return relu(x) + ast.log1p(ast.exp(_minus_abs(x)))


def log_sigmoid(x: ArrayLike) -> NDArray:
    """Log of the sigmoid, ``-softplus(-x)``, without overflow.

    Parameters
    ----------
    x : array_like
        Input array (integers and booleans are converted to float64, as jax.nn does).

    Returns
    -------
    ndarray
        The activation, elementwise, of x's shape.

    See Also
    --------
    jax.nn.log_sigmoid : the function mirrored.
    torch.nn.functional.logsigmoid : the PyTorch equivalent.
    arraystack.nn.sigmoid, arraystack.nn.softplus
    """
    return -softplus(-_float(x))


def tanh(x: ArrayLike) -> NDArray:
    """Hyperbolic tangent (jax.nn.tanh is jnp.tanh).

    Parameters
    ----------
    x : array_like
        Input array (integers and booleans are converted to float64, as jax.nn does).

    Returns
    -------
    ndarray
        The activation, elementwise, of x's shape.

    See Also
    --------
    jax.nn.tanh : the function mirrored.
    torch.nn.functional.tanh : the PyTorch equivalent.
    arraystack.nn.sigmoid
    """
    return ast.tanh(_float(x))


__all__ = [
    "elu",
    "gelu",
    "leaky_relu",
    "log_sigmoid",
    "relu",
    "relu6",
    "sigmoid",
    "silu",
    "softplus",
    "swish",
    "tanh",
]
