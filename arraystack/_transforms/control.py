"""Structured control flow: cond, switch, while_loop, fori_loop, scan (JAX's lax semantics).

Traced, each function is traced once into a closed sub-graph and recorded as one switch/while/scan
equation, so a compiled program keeps real branches and loops (never unrolled). Eagerly,
cond/switch/while_loop/ fori_loop run the Python functions directly; scan runs its traced body
through the reference rule.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from arraystack._core.array import ndarray, raw, wrap
from arraystack._core.dtypes import result_type
from arraystack._core.operands import broadcast_raw, convert_raw
from arraystack.ir import tree
from arraystack.ir.avals import ShapedArray, aval_of_concrete
from arraystack.ir.control import switch_p
from arraystack.ir.core import Tracer, bind
from arraystack.ir.ir import Graph, Var
from arraystack.ir.trace import make_graph

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, PyTree


def _aval(leaf, what):
    value = raw(leaf) if isinstance(leaf, ndarray) else leaf
    if type(value) is Tracer:
        return value.aval
    if isinstance(value, (bool, int, float, complex, np.generic, np.ndarray)):
        return aval_of_concrete(value)
    raise TypeError(f"{what} leaves must be arrays or scalars, got {type(leaf).__name__}")


def _matched(value, aval):
    """`value` as a raw operand of exactly `aval` (weak scalars adopt the carry's dtype and shape)."""
    value = raw(value) if not isinstance(value, (bool, int, float, complex)) else value
    if type(value) is not Tracer and isinstance(value, (bool, int, float, complex, np.generic)):
        value = convert_raw(value, aval.dtype)
        return broadcast_raw(value, aval.shape) if aval.shape else value
    weak = type(value) is Tracer and value.aval.weak_type
    if weak and value.dtype != aval.dtype and value.shape == tuple(aval.shape):
        return convert_raw(value, aval.dtype)
    return value


def _trace(fn, in_tree, avals, out_avals=None, what="function", splat=True):
    """Trace fn on abstract leaves (fn(*tree) if splat, else fn(tree)). Returns (graph, consts, out_tree)."""
    out_tree = []

    def body(*tracers):
        args = tree.unflatten(in_tree, [wrap(t) for t in tracers])
        out = fn(*args) if splat else fn(args)
        leaves, structure = tree.flatten(out)
        out_tree.append(structure)
        if out_avals is not None:
            if len(leaves) != len(out_avals):
                raise TypeError(f"{what} returned {len(leaves)} values, expected {len(out_avals)}")
            return [_matched(leaf, a) for leaf, a in zip(leaves, out_avals)]
        return [raw(leaf) if isinstance(leaf, ndarray) else leaf for leaf in leaves]

    graph, consts = make_graph(body, avals)
    return graph, consts, out_tree[0]


def _promoted(leaves, avals, out_avals):
    """The carry avals after JAX's promotion of weakly typed initial values: a Python scalar (or a
    value traced from one) whose loop body returns another dtype of its shape starts as the promotion
    of both (`0.0` with a float32 body is float32), no longer weak. None when no carry changes."""
    new = list(avals)
    for k, (leaf, a, out) in enumerate(zip(leaves, avals, out_avals)):
        if a.weak_type and a.dtype != out.dtype and a.shape == out.shape:
            new[k] = ShapedArray(a.shape, result_type(leaf, out.dtype))
    return new if new != list(avals) else None


def _joined(branch_avals):
    """The branches' output avals when a weakly typed output (a Python scalar) adopts the promotion
    with the other branches' dtypes, as NEP 50 promotes it (`1.0` against float32 is float32); None
    when no output needs it. Strongly typed outputs of different dtypes stay an error."""
    if len({len(avals) for avals in branch_avals}) != 1:
        return None
    joined = []
    for avals in zip(*branch_avals):
        first = avals[0]
        if all(a == first for a in avals) or any(a.shape != first.shape for a in avals):
            joined.append(first)
            continue
        dtype = result_type(*(a.dtype.type(0).item() if a.weak_type else a.dtype for a in avals))
        joined.append(ShapedArray(first.shape, dtype, all(a.weak_type for a in avals)))
    return joined if joined != [avals[0] for avals in zip(*branch_avals)] else None


def _same_types(avals_a, avals_b, what):
    if len(avals_a) != len(avals_b) or any(
        a.shape != b.shape or a.dtype != b.dtype for a, b in zip(avals_a, avals_b)
    ):
        raise TypeError(
            f"{what} must return the same types, got ("
            + ", ".join(a.str_short() for a in avals_a)
            + ") and ("
            + ", ".join(b.str_short() for b in avals_b)
            + ")"
        )


def switch(
    index: ArrayLike, branches: Sequence[Callable[..., PyTree]], *operands: PyTree
) -> PyTree:
    """Apply ``branches[clip(index, 0, len(branches) - 1)]`` to `operands`.

    Parameters
    ----------
    index : int or integer scalar array
        Which branch to run; out-of-range values are clamped.
    branches : sequence of callable
        Functions of `operands` returning pytrees of the same structure, shapes and dtypes.
    *operands : pytree
        Arguments passed to the chosen branch.

    Returns
    -------
    pytree
        The chosen branch's output.

    See Also
    --------
    jax.lax.switch : the function mirrored.
    numpy.select, numpy.piecewise : NumPy's elementwise relatives.
    arraystack.cond

    Notes
    -----
    Eagerly (concrete `index`) only the chosen branch runs. With a traced `index` every branch is
    traced into a sub-graph and one `switch` equation is recorded, so compiled code keeps the
    branch; a Python-scalar output of one branch then takes the promotion with the other branches'
    dtype (``1.0`` against float32 is float32), as NEP 50 promotes it.

    Examples
    --------
    >>> import arraystack as np
    >>> branches = [lambda x: x + 1.0, lambda x: x * 10.0]
    >>> np.jit(lambda i, x: np.switch(i, branches, x))(1, np.asarray(2.0))
    array(20.)
    """
    branches = list(branches)
    if not branches:
        raise ValueError("switch needs at least one branch")
    index_raw = raw(index) if isinstance(index, ndarray) else index
    if type(index_raw) is not Tracer:
        k = min(max(int(np.asarray(index_raw)), 0), len(branches) - 1)
        return branches[k](*operands)
    leaves, in_tree = tree.flatten(operands)
    avals = [_aval(leaf, "operand") for leaf in leaves]
    traced = [_trace(b, in_tree, avals, what="switch branch") for b in branches]
    joined = _joined([g.out_avals for g, _, _ in traced])
    if joined is not None:
        traced = [
            _trace(b, in_tree, avals, out_avals=joined, what="switch branch") for b in branches
        ]
    first = traced[0]
    for g, _, t in traced[1:]:
        if t != first[2]:
            raise TypeError(f"switch branches return different structures: {first[2]} and {t}")
        _same_types(first[0].out_avals, g.out_avals, "switch branches")
    nargs = len(avals)
    const_avals = [g.in_avals[nargs:] for g, _, _ in traced]
    padded = []
    for k, (g, _, _) in enumerate(traced):
        # every branch takes (consts of branch 0, ..., consts of branch n-1, operands)
        inputs = []
        for j in range(len(traced)):
            inputs.extend(g.inputs[nargs:] if j == k else [Var(a) for a in const_avals[j]])
        padded.append(Graph(tuple(inputs) + g.inputs[:nargs], g.eqns, g.outputs))
    all_consts = [c for _, consts, _ in traced for c in consts]
    index_int = convert_raw(index_raw, np.int32)
    outs = bind(
        switch_p,
        index_int,
        *all_consts,
        *[_matched(v, a) for v, a in zip(leaves, avals)],
        branches=tuple(padded),
    )
    return tree.unflatten(first[2], [wrap(o) for o in outs])


def cond(
    pred: ArrayLike,
    true_fun: Callable[..., PyTree],
    false_fun: Callable[..., PyTree],
    *operands: PyTree,
) -> PyTree:
    """Return ``true_fun(*operands)`` if `pred` else ``false_fun(*operands)``, traceable under jit.

    Parameters
    ----------
    pred : bool or boolean scalar array
        The condition (a traced scalar inside `jit`).
    true_fun, false_fun : callable
        Functions of `operands` returning pytrees of the same structure, shapes and dtypes.
    *operands : pytree
        Arguments passed to the chosen function.

    Returns
    -------
    pytree
        The chosen function's output.

    See Also
    --------
    jax.lax.cond : the function mirrored.
    numpy.where : the elementwise relative, which evaluates both sides.
    arraystack.switch, arraystack.while_loop

    Notes
    -----
    A Python ``if`` on a traced value raises; `cond` records both branches in one graph instead
    (a Python-scalar output joins the other branch's dtype, as in `switch`). Eagerly only the
    chosen branch runs.

    Examples
    --------
    >>> import arraystack as np
    >>> f = np.jit(lambda x: np.cond(x > 0, lambda v: v * 2.0, lambda v: -v, x))
    >>> f(np.asarray(3.0)), f(np.asarray(-1.0))
    (array(6.), array(1.))
    """
    pred_raw = raw(pred) if isinstance(pred, ndarray) else pred
    if type(pred_raw) is not Tracer:
        return true_fun(*operands) if bool(np.asarray(pred_raw)) else false_fun(*operands)
    if pred_raw.aval.shape != ():
        raise TypeError(f"cond predicate must be a scalar, got {pred_raw.aval.str_short()}")
    return switch(wrap(convert_raw(pred_raw, np.bool_)), [false_fun, true_fun], *operands)


# the loops, kept apart (line budget); their traced bodies use the tracing helpers above
from arraystack._transforms.control_loops import fori_loop, scan, while_loop

__all__ = ["cond", "fori_loop", "scan", "switch", "while_loop"]
