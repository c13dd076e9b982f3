"""The optimizer interface (optax's): a GradientTransformation is a pair of pure functions

    init(params) -> state
    update(grads, state, params=None) -> (updates, new_state)

over pytrees of arrays, and `apply_updates(params, updates)` adds the updates to the parameters.
States are pytrees (NamedTuples of arrays), so a training step can be jitted whole.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

import arraystack as ast
from arraystack.ir import tree

if TYPE_CHECKING:
    from arraystack.typing import NDArray, PyTree


class GradientTransformation(NamedTuple):
    """An optimizer or gradient transformation: a pair of pure functions over pytrees.

    Attributes
    ----------
    init : callable
        ``init(params) -> state``, a pytree.
    update : callable
        ``update(grads, state, params=None) -> (updates, new_state)``.

    See Also
    --------
    optax.GradientTransformation : the interface mirrored.
    arraystack.optim.chain, arraystack.optim.apply_updates
    """


    init: Callable[[Any], Any]
    update: Callable[..., tuple[Any, Any]]


class EmptyState(NamedTuple):
    """The state of a stateless transformation (an empty named tuple).


    See Also
    --------
    optax.EmptyState : the class mirrored.
    arraystack.optim.clip_by_global_norm
    """



def apply_updates(params: PyTree, updates: PyTree) -> PyTree:
    """Add the updates to the parameters, leaf by leaf, in each parameter's dtype.

    Parameters
    ----------
    params : pytree of arrays
        The parameters.
    updates : pytree of arrays
        Updates of the same structure (from an optimizer's update).

    Returns
    -------
    pytree
        ``params + updates``, each leaf cast to its parameter's dtype.

    See Also
    --------
    optax.apply_updates : the function mirrored.
    arraystack.optim.sgd, arraystack.tree_util.tree_map
    """

    def add(p, u):
        p = ast.asarray(p)
        # copy=False: a cast to the same dtype would otherwise copy every parameter once more
        return (p + ast.asarray(u)).astype(p.dtype, copy=False)

    return tree.tree_map(add, params, updates)


def global_norm(updates: PyTree) -> NDArray:
    """Compute the L2 norm of all the elements of all the leaves of a pytree.

    Parameters
    ----------
    updates : pytree of arrays
        Typically gradients or updates.

    Returns
    -------
    ndarray
        0-d: ``sqrt(sum(sum(x**2) for x in leaves))`` (0.0 for an empty tree).

    See Also
    --------
    optax.global_norm : the function mirrored.
    arraystack.optim.clip_by_global_norm
    """
    leaves = tree.leaves(updates)
    if not leaves:
        return ast.asarray(0.0)
    return ast.sqrt(sum(ast.sum(ast.square(ast.asarray(x))) for x in leaves))


def clip_by_global_norm(max_norm: float) -> GradientTransformation:
    """Scale the updates by ``max_norm / global_norm`` when their global norm exceeds `max_norm`.

    Parameters
    ----------
    max_norm : float
        The largest global norm let through unchanged.

    Returns
    -------
    GradientTransformation
        ``(init, update)``: ``state = init(params)``; ``updates, state = update(grads, state,
        params)``.

    See Also
    --------
    optax.clip_by_global_norm : the function mirrored.
    torch.nn.utils.clip_grad_norm_ : the same, without its 1e-6 in the denominator.
    arraystack.optim.chain, arraystack.optim.global_norm

    Notes
    -----
    Chain it before an optimizer: ``chain(clip_by_global_norm(1.0), adam(1e-3))``.
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


def chain(*transformations: GradientTransformation) -> GradientTransformation:
    """Compose transformations: each is applied to the previous one's updates.

    Parameters
    ----------
    *transformations : GradientTransformation
        In order of application.

    Returns
    -------
    GradientTransformation
        Its state is the tuple of the transformations' states.

    See Also
    --------
    optax.chain : the function mirrored.
    arraystack.optim.clip_by_global_norm
    """

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
