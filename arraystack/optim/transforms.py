"""The optimizer interface (optax's): a GradientTransformation is a pair of pure functions

    init(params) -> state
    update(grads, state, params=None) -> (updates, new_state)

over pytrees of arrays, and `apply_updates(params, updates)` adds the updates to the parameters.
States are pytrees (NamedTuples of arrays), so a training step can be jitted whole.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import arraystack as ast
from arraystack.ir import tree


class GradientTransformation(NamedTuple):
    """init(params) -> state; update(grads, state, params=None) -> (updates, state)."""

    init: Callable[[Any], Any]
    update: Callable[..., tuple[Any, Any]]


class EmptyState(NamedTuple):
    """The state of a stateless transformation."""


def apply_updates(params, updates):
    """params + updates, leaf by leaf, in each parameter's dtype (optax.apply_updates)."""
    return tree.tree_map(
        lambda p, u: (ast.asarray(p) + ast.asarray(u)).astype(ast.asarray(p).dtype), params, updates
    )


def global_norm(updates):
    """sqrt of the sum of squares of every element of every leaf (a 0-d array)."""
    leaves = tree.leaves(updates)
    if not leaves:
        return ast.asarray(0.0)
    return ast.sqrt(sum(ast.sum(ast.square(ast.asarray(x))) for x in leaves))


def clip_by_global_norm(max_norm):
    """Scale the whole tree by max_norm / global_norm when its global norm exceeds max_norm.

    optax.clip_by_global_norm (torch.nn.utils.clip_grad_norm_ without its 1e-6 in the denominator);
    chain it before an optimizer: chain(clip_by_global_norm(1.0), adam(1e-3)).
    """
    max_norm = float(max_norm)

    def init(params):
        del params
        return EmptyState()

    def update(updates, state, params=None):
        del params
        norm = global_norm(updates)
        factor = max_norm / ast.maximum(norm, max_norm)  # 1 when the norm is within bounds

        def scale(u):
            u = ast.asarray(u)
            return u * factor.astype(u.dtype)

        return tree.tree_map(scale, updates), state

    return GradientTransformation(init, update)


def chain(*transformations):
    """Apply transformations in order, each to the previous one's updates (optax.chain)."""

    def init(params):
        return tuple(t.init(params) for t in transformations)

    def update(updates, state, params=None):
        new_state = []
        for t, s in zip(transformations, state):
            updates, s = t.update(updates, s, params)
            new_state.append(s)
        return updates, tuple(new_state)

    return GradientTransformation(init, update)


__all__ = [
    "EmptyState",
    "GradientTransformation",
    "apply_updates",
    "chain",
    "clip_by_global_norm",
    "global_norm",
]
