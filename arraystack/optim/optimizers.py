"""SGD, Adam, AdamW, RMSprop and Adagrad as GradientTransformations (see transforms.py).

Each update follows the formulas of PyTorch's documentation for torch.optim.<Name>, written as an
update to add to the parameters. learning_rate is a number or a schedule (schedules.py) of the step
count kept in the state. Moment estimates keep each parameter's dtype; schedules and bias
corrections are computed in float64 and cast to it.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy

import arraystack as ast
from arraystack.ir import tree
from arraystack.optim.transforms import GradientTransformation


class SgdState(NamedTuple):
    count: Any  # int32 number of updates so far
    momentum: Any  # the momentum buffers (None without momentum)


class AdamState(NamedTuple):
    count: Any
    mu: Any  # first-moment estimates
    nu: Any  # second-moment estimates


class RmspropState(NamedTuple):
    count: Any
    nu: Any  # running mean of squared gradients
    mu: Any  # running mean of gradients (None unless centered)
    momentum: Any  # momentum buffers (None without momentum)


class AdagradState(NamedTuple):
    count: Any
    sum_of_squares: Any


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


def sgd(learning_rate, momentum=0.0, nesterov=False, weight_decay=0.0):
    """torch.optim.SGD (dampening 0): g += wd p; b = momentum b + g; step g + momentum b (Nesterov)
    or b; update -lr step. The first buffer is g, as in PyTorch."""
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


def adam(learning_rate=1e-3, b1=0.9, b2=0.999, eps=1e-8, weight_decay=0.0):
    """torch.optim.Adam: m, v moving averages of g and g**2, bias-corrected; update
    -lr m_hat / (sqrt(v_hat) + eps). weight_decay adds wd p to the gradient (L2, coupled)."""
    return _adam_like("adam", learning_rate, b1, b2, eps, weight_decay, decoupled=False)


def adamw(learning_rate=1e-3, b1=0.9, b2=0.999, eps=1e-8, weight_decay=1e-2):
    """torch.optim.AdamW: Adam plus decoupled weight decay, update -lr (adam step + wd p).
    The default weight_decay is PyTorch's 1e-2 (optax's is 1e-4)."""
    return _adam_like("adamw", learning_rate, b1, b2, eps, weight_decay, decoupled=True)


def rmsprop(
    learning_rate=1e-2, decay=0.99, eps=1e-8, momentum=0.0, centered=False, weight_decay=0.0
):
    """torch.optim.RMSprop (decay is PyTorch's alpha): v = decay v + (1 - decay) g**2; step
    g / (sqrt(v - mean(g)**2 if centered else v) + eps), through a momentum buffer if momentum.
    Note: eps is added outside the square root as in PyTorch; optax adds it inside."""

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


def adagrad(learning_rate=1e-2, initial_accumulator_value=0.0, eps=1e-10, weight_decay=0.0):
    """torch.optim.Adagrad (lr_decay 0; use a schedule): s += g**2; update -lr g/(sqrt(s) + eps)."""

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


__all__ = [
    "AdagradState",
    "AdamState",
    "RmspropState",
    "SgdState",
    "adagrad",
    "adam",
    "adamw",
    "rmsprop",
    "sgd",
]
