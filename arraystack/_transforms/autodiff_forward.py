"""Forward-mode differentiation API over pytrees: jvp and linearize, on the pytree conversions of
_autodiff (which re-exports them).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from arraystack._transforms.autodiff import (
    _as_raw,
    _aux_tree,
    _differentiable_call,
    _leaf_out,
    _runner,
    _take_aux,
    _wrap_tree,
)
from arraystack.ir import tree
from arraystack.ir.ad import forward, ops
from arraystack.ir.ad.partial import linearize_flat
from arraystack.ir.core import user_line

if TYPE_CHECKING:
    from arraystack.typing import PyTree


def jvp(
    fun: Callable[..., PyTree],
    primals: Sequence[PyTree],
    tangents: Sequence[PyTree],
    has_aux: bool = False,
) -> tuple:
    """Evaluate `fun` and its Jacobian-vector product at `primals` along `tangents` (forward mode).

    Parameters
    ----------
    fun : callable
        Function of ``len(primals)`` positional pytree arguments.
    primals : tuple or list
        The point, one pytree per positional argument.
    tangents : tuple or list
        Directions, matching `primals` in structure, shape and dtype.
    has_aux : bool, optional
        `fun` returns ``(output, aux)``; `aux` is appended to the result.

    Returns
    -------
    tuple
        ``(outputs, output_tangents)``, or ``(outputs, output_tangents, aux)`` with `has_aux`.

    See Also
    --------
    jax.jvp : the function mirrored.
    arraystack.linearize, arraystack.jacfwd, arraystack.vjp

    Examples
    --------
    >>> import arraystack as np
    >>> np.jvp(np.sin, (np.asarray(0.0),), (np.asarray(2.0),))
    (array(0.), array(2.))
    """
    if not isinstance(primals, (tuple, list)) or not isinstance(tangents, (tuple, list)):
        raise TypeError("jvp expects primals and tangents as tuples (one entry per positional argument)")
    if len(primals) != len(tangents):
        raise TypeError(
            f"jvp got {len(primals)} primals but {len(tangents)} tangents (at {user_line()}). "
            "Pass one tangent per primal: jvp(f, (x, y), (tx, ty)), each tangent with its primal's shape."
        )
    raws, treedef, flat_fun = _differentiable_call(fun, tuple(primals), {}, tuple(range(len(primals))))
    t_raws = _tangent_leaves(treedef, tangents, raws)
    out_info = {}
    outs, touts = forward.jvp(_runner(flat_fun, has_aux, out_info), raws, t_raws)
    outs, aux = _take_aux(outs, out_info)
    touts = [t if t is not None else ops.zeros_like(o) for t, o in zip(touts, outs)]
    out_tree = out_info["tree"]
    result = (_wrap_tree(out_tree, outs), _wrap_tree(out_tree, touts))
    return result + (_aux_tree(aux, out_info),) if has_aux else result


def _tangent_leaves(treedef, tangents, raws):
    leaves, got = tree.flatten(list(tangents))
    if got != treedef:
        raise TypeError(
            f"tangent structure {got} does not match the primal structure {treedef} (at {user_line()}). "
            "Give each tangent the same structure (tuple, list, dict) as its primal."
        )
    out = []
    for t, r in zip(leaves, raws):
        t = _as_raw(t, "tangents")
        if ops.shape(t) != ops.shape(r):
            raise ValueError(
                f"tangent of shape {ops.shape(t)} for a primal of shape {ops.shape(r)} "
                f"(at {user_line()}). Each tangent must have its primal's shape (and dtype)."
            )
        if ops.dtype(r).kind not in "fc":
            out.append(None)
            continue
        if ops.dtype(t) != ops.dtype(r):
            raise TypeError(f"tangent dtype {ops.dtype(t).name} does not match the primal dtype {ops.dtype(r).name}")
        out.append(t)
    return out


def linearize(fun: Callable[..., PyTree], *primals: PyTree) -> tuple[PyTree, Callable[..., PyTree]]:
    """Evaluate `fun` at `primals` and return its linear tangent map there.

    Parameters
    ----------
    fun : callable
        Function of ``len(primals)`` positional pytree arguments.
    *primals : pytree
        The point to linearize at.

    Returns
    -------
    tuple
        ``(outputs, f_jvp)``: ``f_jvp(*tangents)`` equals ``jvp(fun, primals, tangents)[1]`` without
        re-evaluating `fun`'s non-linear part.

    See Also
    --------
    jax.linearize : the function mirrored.
    arraystack.jvp

    Examples
    --------
    >>> import arraystack as np
    >>> y, f_jvp = np.linearize(lambda x: x ** 2, np.asarray(3.0))
    >>> f_jvp(np.asarray(1.0))
    array(6.)
    """
    raws, treedef, flat_fun = _differentiable_call(fun, primals, {}, tuple(range(len(primals))))
    out_info = {}

    def run(*tracers):
        leaves, out_info["tree"] = tree.flatten(flat_fun(*tracers))
        return [_leaf_out(x) for x in leaves]

    outs, linear = linearize_flat(run, raws)
    out_tree = out_info["tree"]

    def f_jvp(*tangents):
        t_raws = _tangent_leaves(treedef, tangents, raws)
        t_raws = [ops.zeros_like(r) if t is None else t for t, r in zip(t_raws, raws)]
        return _wrap_tree(out_tree, linear(t_raws))

    return _wrap_tree(out_tree, outs), f_jvp


__all__ = ["jvp", "linearize"]
