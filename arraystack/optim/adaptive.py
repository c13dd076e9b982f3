"""RMSprop and Adagrad as GradientTransformations: per-parameter step sizes from accumulated squared
gradients (a moving average, a sum), with the conventions of optimizers.py."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import arraystack as ast
from arraystack.ir import tree
from arraystack.optim.optimizers import (
    _in_dtype,
    _leafwise,
    _needs_params,
    _new_count,
    _rate,
    _zeros_like_tree,
)
from arraystack.optim.transforms import GradientTransformation

if TYPE_CHECKING:
    from arraystack.optim.schedules import Schedule


class RmspropState(NamedTuple):
    """The state of `arraystack.optim.rmsprop`: a pytree (a named tuple of arrays) that jit passes.

    Attributes
    ----------
    count : int32 0-d array
        Number of updates so far (the schedules' step).
    nu : pytree
        Running mean of squared gradients.
    mu : pytree or None
        Running mean of gradients (None unless centered).
    momentum : pytree or None
        Momentum buffers (None without momentum).

    See Also
    --------
    optax.ScaleByRmsState : the state mirrored (field names may differ).
    arraystack.optim.rmsprop
    """

    count: Any
    nu: Any  # running mean of squared gradients
    mu: Any  # running mean of gradients (None unless centered)
    momentum: Any  # momentum buffers (None without momentum)


class AdagradState(NamedTuple):
    """The state of `arraystack.optim.adagrad`: a pytree (a named tuple of arrays) that jit passes.

    Attributes
    ----------
    count : int32 0-d array
        Number of updates so far (the schedules' step).
    sum_of_squares : pytree
        Accumulated squared gradients.

    See Also
    --------
    optax.ScaleByRssState : the state mirrored (field names may differ).
    arraystack.optim.adagrad
    """

    count: Any
    sum_of_squares: Any


def rmsprop(
    learning_rate: float | Schedule = 1e-2,
    decay: float = 0.99,
    eps: float = 1e-8,
    momentum: float = 0.0,
    centered: bool = False,
    weight_decay: float = 0.0,
) -> GradientTransformation:
    """The RMSprop optimizer.

    Parameters
    ----------
    learning_rate : float or schedule
        Step size: a number, or a function of the step count (see the schedules of
        arraystack.optim).
    decay : float, optional
        Smoothing constant of the squared-gradient average (PyTorch's alpha).
    eps : float, optional
        Added to the denominator, outside the square root.
    momentum : float, optional
        Momentum factor (0: none).
    centered : bool, optional
        Normalize by the estimated variance instead of the second moment.
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
    torch.optim.RMSprop : the formulas mirrored.
    optax.rmsprop : the interface mirrored.
    arraystack.optim.adam

    Notes
    -----
    ``v = decay * v + (1 - decay) * g**2``; ``step = g / (sqrt(v - mean(g)**2 if centered else
    v) + eps)``, through a momentum buffer if momentum. eps is added outside the square root as
    in PyTorch; optax adds it inside. Pure functions of pytrees: a whole training step (grad,
    update, apply_updates) can be jitted.
    """

    def init(params):
        return RmspropState(
            _new_count(),
            _zeros_like_tree(params),
            _zeros_like_tree(params) if centered else None,
            _zeros_like_tree(params) if momentum else None,
        )

    def update(grads, state, params=None):
        if weight_decay:
            _needs_params(params, "rmsprop")
        lr = _rate(learning_rate, state.count)

        def leaf(g, p, v, mean, b):
            g = ast.asarray(g)
            if weight_decay:
                g = g + weight_decay * p
            v = decay * v + (1.0 - decay) * g * g
            if centered:
                mean = decay * mean + (1.0 - decay) * g
                step = g / (ast.sqrt(v - mean * mean) + eps)
            else:
                step = g / (ast.sqrt(v) + eps)
            if momentum:
                b = momentum * b + step
                step = b
            return -_in_dtype(lr, g) * step, v, mean, b

        updates, nu, mu, buffers = _leafwise(
            leaf, grads, params, state.nu, state.mu, state.momentum
        )
        return updates, RmspropState(
            state.count + 1, nu, mu if centered else None, buffers if momentum else None
        )

    return GradientTransformation(init, update)


def adagrad(
    learning_rate: float | Schedule = 1e-2,
    initial_accumulator_value: float = 0.0,
    eps: float = 1e-10,
    weight_decay: float = 0.0,
) -> GradientTransformation:
    """The Adagrad optimizer.

    Parameters
    ----------
    learning_rate : float or schedule
        Step size: a number, or a function of the step count (see the schedules of
        arraystack.optim).
    initial_accumulator_value : float, optional
        Initial value of the sums of squares.
    eps : float, optional
        Added to the denominator.
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
    torch.optim.Adagrad : the formulas mirrored (lr_decay 0: use a schedule).
    optax.adagrad : the interface mirrored.
    arraystack.optim.rmsprop

    Notes
    -----
    ``s += g**2``; the update is ``-lr * g / (sqrt(s) + eps)``. Pure functions of pytrees: a
    whole training step (grad, update, apply_updates) can be jitted.
    """

    def init(params):
        sums = tree.tree_map(
            lambda p: ast.full_like(ast.asarray(p), initial_accumulator_value), params
        )
        return AdagradState(_new_count(), sums)

    def update(grads, state, params=None):
        if weight_decay:
            _needs_params(params, "adagrad")
        lr = _rate(learning_rate, state.count)

        def leaf(g, p, s):
            g = ast.asarray(g)
            if weight_decay:
                g = g + weight_decay * p
            s = s + g * g
            return -_in_dtype(lr, g) * g / (ast.sqrt(s) + eps), s

        updates, sums = _leafwise(leaf, grads, params, state.sum_of_squares)
        return updates, AdagradState(state.count + 1, sums)

    return GradientTransformation(init, update)


__all__ = ["AdagradState", "RmspropState", "adagrad", "rmsprop"]
