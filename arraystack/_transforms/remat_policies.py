"""The run of checkpoint(fun, policy=...): the forward pass saves the intermediates the policy chooses
(arraystack.checkpoint_policies, JAX's policies by JAX's names), the backward pass recomputes the others.

A policy is JAX's: `policy(prim, *input_avals, **params) -> bool`, asked of each equation of the
function's graph. The function is traced once into a graph; the forward pass evaluates it (one level
under reverse mode, as checkpoint's forward pass runs) and keeps the outputs of the equations the
policy saves. The backward pass evaluates the graph again under `reverse.vjp`, where a saved equation
gives its kept output and, as its derivative rule, the vjp of the equation at its inputs: the inputs'
cotangents come from the equation's own rule, and its output is not computed again where that rule
does not read it (a dot_general's does not; under jit the recomputation is dead code the optimizer
drops). Every other equation is recomputed from the saved values and the function's inputs.
"""

from __future__ import annotations

from typing import Any

from arraystack._core.array import ndarray, raw
from arraystack._core.array import wrap_array as wrap
from arraystack.ir import primitives as p
from arraystack.ir import tree
from arraystack.ir.ad import reverse
from arraystack.ir.core import bind, is_tracing
from arraystack.ir.ir import Literal


def checkpoint_name(x: Any, name: str) -> Any:
    """Name `x` for the policies of `checkpoint` (``checkpoint_policies.save_only_these_names``, ...).

    Parameters
    ----------
    x : pytree of arrays
        The value(s) to name.
    name : str
        The name the policies read.

    Returns
    -------
    pytree
        `x` itself outside a transformation; while tracing, the same values as new traced arrays.

    See Also
    --------
    jax.ad_checkpoint.checkpoint_name : the function mirrored.
    arraystack.checkpoint, arraystack.checkpoint_policies

    Examples
    --------
    >>> import arraystack as np
    >>> policy = np.checkpoint_policies.save_only_these_names("hidden")
    >>> f = np.checkpoint(lambda x: np.sum(np.checkpoint_name(np.sin(x), "hidden") ** 2), policy=policy)
    >>> float(np.grad(f)(0.5)) == float(np.sin(1.0))
    True
    """
    if not isinstance(name, str):
        raise TypeError(f"checkpoint_name's name must be a str, got {type(name).__name__}")
    if not is_tracing():
        return x

    def named(leaf):
        value = leaf._value if isinstance(leaf, ndarray) else raw(leaf)
        return wrap(bind(p.checkpoint_name_p, value, name=name))

    return tree.tree_map(named, x)


def saved_equations(graph, policy) -> list:
    """Per equation of `graph`: whether `policy` saves its outputs."""
    return [bool(policy(e.prim, *[x.aval for x in e.inputs], **e.params)) for e in graph.eqns]


def run(graph, args, saves, saved=None) -> tuple[list, list]:
    """Evaluate `graph` on `args` by binding each equation: (outputs, the outputs of the saved
    equations, in order). With `saved` (those of an earlier run), the saved equations give them back,
    their derivatives under reverse mode being the equations' own."""
    env = dict(zip(graph.inputs, args))
    kept, given = [], iter(saved) if saved is not None else None

    def read(atom):
        return atom.value if isinstance(atom, Literal) else env[atom]

    for eqn, save in zip(graph.eqns, saves):
        ins = [read(x) for x in eqn.inputs]
        if save and given is not None:
            outs = _given(eqn, ins, next(given))
        else:
            out = bind(eqn.prim, *ins, **eqn.params)
            outs = list(out) if eqn.prim.multiple_results else [out]
            if save:
                kept.append(outs)
        env.update(zip(eqn.outputs, outs))
    return [read(x) for x in graph.outputs], kept


def _given(eqn, ins, outs) -> list:
    """`outs` (saved) as the equation's outputs on `ins`: recorded on the tape above them with the
    equation's vjp as their rule."""
    from arraystack._transforms.custom import _top, _tracked

    top = _top()
    if not isinstance(top, reverse.TapeTrace) or not _tracked(ins, top):
        return outs

    def apply(*values: Any) -> list:
        out = bind(eqn.prim, *values, **eqn.params)
        return list(out) if eqn.prim.multiple_results else [out]

    def rule(ct, out_, needs, *primals):
        _, back = reverse.vjp(apply, list(primals))
        return back(list(ct))

    return list(top.record(rule, ins, {}, tuple(outs), True))


__all__ = ["checkpoint_name"]
