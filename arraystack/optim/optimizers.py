"""SGD, Adam and AdamW as GradientTransformations (see transforms.py; RMSprop and Adagrad: adaptive.py).

Each update follows the formulas of PyTorch's documentation for torch.optim.<Name>, written as an
update to add to the parameters. learning_rate is a number or a schedule (schedules.py) of the step
count kept in the state. Moment estimates keep each parameter's dtype; schedules and bias
corrections are computed in float64 and cast to it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import numpy

import arraystack as ast
from arraystack.ir import tree
from arraystack.optim.transforms import GradientTransformation

if TYPE_CHECKING:
    from arraystack.optim.schedules import Schedule


class SgdState(NamedTuple):
    """The state of `arraystack.optim.sgd`: a pytree (a named tuple of arrays) that jit passes.

    Attributes
    ----------
    count : int32 0-d array
        Number of updates so far (the schedules' step).
    momentum : pytree or None
        Momentum buffers (None without momentum).

    See Also
    --------
    optax.TraceState : the state mirrored (field names may differ).
    arraystack.optim.sgd
    """

    count: Any  # int32 number of updates so far
    momentum: Any  # the momentum buffers (None without momentum)


class AdamState(NamedTuple):
    """The state of `arraystack.optim.adam`: a pytree (a named tuple of arrays) that jit passes.

    Attributes
    ----------
    count : int32 0-d array
        Number of updates so far (the schedules' step).
    mu : pytree
        First-moment estimates.
    nu : pytree
        Second-moment estimates.

    See Also
    --------
    optax.ScaleByAdamState : the state mirrored (field names may differ).
    arraystack.optim.adam
    """

    count: Any
    mu: Any  # first-moment estimates
    nu: Any  # second-moment estimates


def _zeros_like_tree(params):
    return tree.tree_map(lambda p: ast.zeros_like(ast.asarray(p)), params)


def _new_count():
    return ast.zeros((), dtype=ast.int32)


def _rate(learning_rate, count):
    """The learning rate at this step: a Python float, or a float64 0-d array from a schedule."""
    return learning_rate(count) if callable(learning_rate) else float(learning_rate)


def _in_dtype(value, like):
    """value in like's dtype: Python floats stay weak scalars, arrays are cast."""
    return value if isinstance(value, float) else ast.asarray(value).astype(like.dtype)


def _leafwise(fn, first, *rest):
    """Map fn over the leaves of several trees shaped like `first` (None trees give None leaves);
    fn returns a tuple, and the result is one tree per tuple entry."""
    leaves, treedef = tree.flatten(first)
    others = [[None] * len(leaves) if t is None else tree.flatten_up_to(treedef, t) for t in rest]
    results = [fn(*args) for args in zip(leaves, *others)]
    width = len(results[0]) if results else 0
    return tuple(tree.unflatten(treedef, [r[i] for r in results]) for i in range(width))


def _needs_params(params, name):
    if params is None:
        raise ValueError(f"{name} with weight_decay needs the params: update(grads, state, params)")


def sgd(
    learning_rate: float | Schedule,
    momentum: float = 0.0,
    nesterov: bool = False,
    weight_decay: float = 0.0,
) -> GradientTransformation:
    """Stochastic gradient descent, with optional (Nesterov) momentum and weight decay.

    Parameters
    ----------
    learning_rate : float or schedule
        Step size: a number, or a function of the step count (see the schedules of
        arraystack.optim).
    momentum : float, optional
        Momentum factor (0: none).
    nesterov : bool, optional
        Nesterov momentum (needs momentum > 0).
    weight_decay : float, optional
        L2 penalty: ``weight_decay * param`` is added to the gradient (update() then needs
        `params`).

    Returns
    -------
    GradientTransformation
        ``(init, update)``: ``state = init(params)``; ``updates, state = update(grads, state,
        params)``.

    See Also
    --------
    torch.optim.SGD : the formulas mirrored (dampening 0).
    optax.sgd : the interface mirrored.
    arraystack.optim.adam, arraystack.optim.apply_updates

    Notes
    -----
    ``g += wd * p; b = momentum * b + g; step = g + momentum * b`` (Nesterov) or ``b``; the
    update is ``-lr * step``. The first buffer is g, as in PyTorch. Pure functions of pytrees: a
    whole training step (grad, update, apply_updates) can be jitted.

    Examples
    --------
    >>> import arraystack as np
    >>> from arraystack import optim
    >>> params = {'w': np.ones(2)}
    >>> opt = optim.sgd(0.1)
    >>> state = opt.init(params)
    >>> updates, state = opt.update({'w': np.ones(2)}, state, params)
    >>> optim.apply_updates(params, updates)
    {'w': array([0.9, 0.9])}
    """
    if nesterov and momentum <= 0:
        raise ValueError("sgd with nesterov=True needs momentum > 0")

    def init(params):
        buffers = _zeros_like_tree(params) if momentum else None
        return SgdState(_new_count(), buffers)

    def update(grads, state, params=None):
        if weight_decay:
            _needs_params(params, "sgd")
        lr = _rate(learning_rate, state.count)

        def leaf(g, p, b):
            g = ast.asarray(g)
            if weight_decay:
                g = g + weight_decay * p
            if momentum:
                b = momentum * b + g
                g = g + momentum * b if nesterov else b
            return -_in_dtype(lr, g) * g, b

        updates, buffers = _leafwise(leaf, grads, params, state.momentum)
        return updates, SgdState(state.count + 1, buffers if momentum else None)

    return GradientTransformation(init, update)


def _adam_like(name, learning_rate, b1, b2, eps, weight_decay, decoupled):
    def init(params):
        return AdamState(_new_count(), _zeros_like_tree(params), _zeros_like_tree(params))

    def update(grads, state, params=None):
        if weight_decay:
            _needs_params(params, name)
        lr = _rate(learning_rate, state.count)
        t = (state.count + 1).astype(ast.float64)
        correction1 = 1.0 - ast.power(numpy.float64(b1), t)
        correction2 = 1.0 - ast.power(numpy.float64(b2), t)

        def leaf(g, p, m, v):
            g = ast.asarray(g)
            if weight_decay and not decoupled:
                g = g + weight_decay * p  # Adam's L2 penalty, through the moments
            m = b1 * m + (1.0 - b1) * g
            v = b2 * v + (1.0 - b2) * g * g
            m_hat = m / _in_dtype(correction1, g)
            v_hat = v / _in_dtype(correction2, g)
            step = m_hat / (ast.sqrt(v_hat) + eps)
            if weight_decay and decoupled:
                step = step + weight_decay * p  # AdamW: decay the weights directly
            return -_in_dtype(lr, g) * step, m, v

        updates, mu, nu = _leafwise(leaf, grads, params, state.mu, state.nu)
        return updates, AdamState(state.count + 1, mu, nu)

    return GradientTransformation(init, update)


def adam(
    learning_rate: float | Schedule = 1e-3,
    b1: float = 0.9,
    b2: float = 0.999,
    eps: float = 1e-8,
    weight_decay: float = 0.0,
) -> GradientTransformation:
    """The Adam optimizer (bias-corrected moment estimates).

    Parameters
    ----------
    learning_rate : float or schedule
        Step size: a number, or a function of the step count (see the schedules of
        arraystack.optim).
    b1 : float, optional
        Decay rate of the first-moment estimate.
    b2 : float, optional
        Decay rate of the second-moment estimate.
    eps : float, optional
        Added to the denominator, outside the square root.
    weight_decay : float, optional
        L2 penalty: ``weight_decay * param`` is added to the gradient (update() then needs
        `params`).

    Returns
    -------
    GradientTransformation
        ``(init, update)``: ``state = init(params)``; ``updates, state = update(grads, state,
        params)``.

    See Also
    --------
    torch.optim.Adam : the formulas mirrored.
    optax.adam : the interface mirrored.
    arraystack.optim.adamw, arraystack.optim.rmsprop

    Notes
    -----
    m, v are moving averages of g and g**2, bias-corrected; the update is ``-lr * m_hat /
    (sqrt(v_hat) + eps)``. weight_decay adds ``wd * p`` to the gradient (coupled L2, as PyTorch;
    use adamw for decoupled decay). Pure functions of pytrees: a whole training step (grad,
    update, apply_updates) can be jitted.
    """
    return _adam_like("adam", learning_rate, b1, b2, eps, weight_decay, decoupled=False)


def adamw(
    learning_rate: float | Schedule = 1e-3,
    b1: float = 0.9,
    b2: float = 0.999,
    eps: float = 1e-8,
    weight_decay: float = 1e-2,
) -> GradientTransformation:
    """Adam with decoupled weight decay.

    Parameters
    ----------
    learning_rate : float or schedule
        Step size: a number, or a function of the step count (see the schedules of
        arraystack.optim).
    b1 : float, optional
        Decay rate of the first-moment estimate.
    b2 : float, optional
        Decay rate of the second-moment estimate.
    eps : float, optional
        Added to the denominator, outside the square root.
    weight_decay : float, optional
        Decoupled decay: the update is ``-lr * (adam step + wd * p)``; update() needs `params`.

    Returns
    -------
    GradientTransformation
        ``(init, update)``: ``state = init(params)``; ``updates, state = update(grads, state,
        params)``.

    See Also
    --------
    torch.optim.AdamW : the formulas mirrored.
    optax.adamw : the interface mirrored.
    arraystack.optim.adam

    Notes
    -----
    The default weight_decay is PyTorch's 1e-2 (optax's is 1e-4). Pure functions of pytrees: a
    whole training step (grad, update, apply_updates) can be jitted.
    """
    return _adam_like("adamw", learning_rate, b1, b2, eps, weight_decay, decoupled=True)


__all__ = ["AdamState", "SgdState", "adam", "adamw", "sgd"]
