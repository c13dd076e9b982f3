"""Which intermediates of a function that `arraystack.checkpoint` rematerializes its forward pass saves for
the backward pass, as ``jax.checkpoint_policies``: ``checkpoint(f, policy=dots_saveable)`` keeps f's
matrix products and recomputes the elementwise work between them.

A policy is JAX's: ``policy(prim, *input_avals, **params) -> bool``, asked of each operation of the
function's graph (arraystack._transforms.remat_policies runs the choice).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arraystack.ir import primitives as p
from arraystack.ir import structural as s
from arraystack.ir.avals import ShapedArray
from arraystack.ir.core import Primitive

_POLICY_DOC = """{summary}

Parameters
----------
prim : Primitive
    The operation (``arraystack.ir`` primitive) of one equation of the checkpointed function.
*avals : ShapedArray
    The shapes and dtypes of its inputs.
**params
    Its parameters (a dot_general's ``dimension_numbers``, ...).

Returns
-------
bool
    Whether checkpoint's forward pass keeps the equation's outputs for the backward pass.

See Also
--------
jax.checkpoint_policies.{jax_name} : the policy mirrored.
arraystack.checkpoint
"""


def _documented(summary: str, jax_name: str):
    def mark(policy):
        policy.__doc__ = _POLICY_DOC.format(summary=summary, jax_name=jax_name)
        return policy

    return mark


@_documented("Save every intermediate: checkpoint then recomputes nothing.", "everything_saveable")
def everything_saveable(prim: Primitive, *avals: ShapedArray, **params: Any) -> bool:
    return True


@_documented(
    "Save no intermediate: recompute all of them (checkpoint's default).", "nothing_saveable"
)
def nothing_saveable(prim: Primitive, *avals: ShapedArray, **params: Any) -> bool:
    return False


@_documented(
    "Save the results of matrix products (dot_general: matmul, dot, einsum's contractions).",
    "dots_saveable",
)
def dots_saveable(prim: Primitive, *avals: ShapedArray, **params: Any) -> bool:
    return prim is s.dot_general_p


checkpoint_dots = dots_saveable


@_documented(
    "Save the results of matrix products without batch dimensions (not a batched matmul's).",
    "dots_with_no_batch_dims_saveable",
)
def dots_with_no_batch_dims_saveable(prim: Primitive, *avals: ShapedArray, **params: Any) -> bool:
    if prim is not s.dot_general_p:
        return False
    (_, _), (lhs_batch, rhs_batch) = params["dimension_numbers"]
    return not lhs_batch and not rhs_batch


checkpoint_dots_with_no_batch_dims = dots_with_no_batch_dims_saveable


def save_from_both_policies(
    left: Callable[..., bool], right: Callable[..., bool]
) -> Callable[..., bool]:
    """A policy saving what either of two policies saves.

    Parameters
    ----------
    left, right : callable
        Policies: ``policy(prim, *avals, **params) -> bool``.

    Returns
    -------
    callable
        The policy saving an equation's outputs where `left` or `right` does.

    See Also
    --------
    jax.checkpoint_policies.save_from_both_policies : the function mirrored.
    arraystack.checkpoint
    """

    def policy(prim: Primitive, *avals: ShapedArray, **params: Any) -> bool:
        return bool(left(prim, *avals, **params) or right(prim, *avals, **params))

    return policy


_NAMES_DOC = """A policy saving {summary}.

Parameters
----------
*names : str
    Names given with ``checkpoint_name(x, name)``.

Returns
-------
callable
    The policy.

See Also
--------
jax.checkpoint_policies.{jax_name} : the function mirrored.
arraystack.checkpoint_name, arraystack.checkpoint
"""


def _by_names(jax_name: str, summary: str, saves: Callable[[str | None, frozenset], bool]):
    """JAX's policy maker `jax_name` (`*names -> policy`): its policy asks `saves(name, names)`, `name`
    being the value's name for a checkpoint_name equation and None for any other equation."""

    def maker(*names: str) -> Callable[..., bool]:
        chosen = frozenset(names)

        def policy(prim: Primitive, *avals: ShapedArray, **params: Any) -> bool:
            name = params.get("name") if prim is p.checkpoint_name_p else None
            return saves(name, chosen)

        return policy

    maker.__name__ = maker.__qualname__ = jax_name
    maker.__doc__ = _NAMES_DOC.format(summary=summary, jax_name=jax_name)
    return maker


save_only_these_names = _by_names(
    "save_only_these_names",
    "the values named one of `names`, and nothing else",
    lambda name, names: name in names,
)
save_any_names_but_these = _by_names(
    "save_any_names_but_these",
    "every named value except those named one of `names`",
    lambda name, names: name is not None and name not in names,
)
save_anything_except_these_names = _by_names(
    "save_anything_except_these_names",
    "every intermediate except the values named one of `names`",
    lambda name, names: name is None or name not in names,
)


__all__ = [
    "checkpoint_dots",
    "checkpoint_dots_with_no_batch_dims",
    "dots_saveable",
    "dots_with_no_batch_dims_saveable",
    "everything_saveable",
    "nothing_saveable",
    "save_any_names_but_these",
    "save_anything_except_these_names",
    "save_from_both_policies",
    "save_only_these_names",
]
