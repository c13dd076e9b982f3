"""Structured loops: while_loop, fori_loop, scan (JAX lax semantics). Traced, the body is traced once into
a closed sub-graph recorded as one while/scan equation (never unrolled); eagerly, while_loop and
fori_loop run the Python functions, scan runs its traced body through the reference rule. Re-exported
by _control.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from arraystack._core.array import is_tracing, ndarray, raw, wrap
from arraystack._transforms.control import _aval, _matched, _promoted, _same_types, _trace
from arraystack._core.operands import convert_raw
from arraystack.ir import tree
from arraystack.ir.control import scan_p, while_p
from arraystack.ir.core import Tracer, bind
from arraystack.ir.ir import Graph

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, PyTree


def while_loop(
    cond_fun: Callable[[PyTree], ArrayLike], body_fun: Callable[[PyTree], PyTree], init_val: PyTree
) -> PyTree:
    """Run ``while cond_fun(val): val = body_fun(val)`` from `init_val`, traceable under jit.

    Parameters
    ----------
    cond_fun : callable
        Carry -> boolean scalar.
    body_fun : callable
        Carry -> carry of the same structure, shapes and dtypes.
    init_val : pytree
        The initial carry.

    Returns
    -------
    pytree
        The final carry.

    See Also
    --------
    jax.lax.while_loop : the function mirrored.
    arraystack.fori_loop, arraystack.scan

    Notes
    -----
    Traced, the loop is recorded as one `while` equation (never unrolled). Reverse mode (`grad`,
    `vjp`) through a while_loop raises NotDifferentiableError, as in JAX (the trip count is
    unknown): use `fori_loop` with static bounds or `scan`. Forward mode works.

    A Python scalar in the carry is a weakly typed 0-d value, as in JAX: traced, when the body
    returns another dtype for it the carry starts as the promotion of both (``0.0`` with a float32
    body is float32, as NEP 50 promotes the scalar in the equivalent Python loop).

    Examples
    --------
    >>> import arraystack as np
    >>> np.jit(lambda x: np.while_loop(lambda v: v < 100.0, lambda v: v * 3.0, x))(np.asarray(1.0))
    array(243.)
    """
    leaves, in_tree = tree.flatten(init_val)
    if not is_tracing():
        val = init_val
        while bool(np.asarray(raw(cond_fun(val)))):
            val = body_fun(val)
        return val
    avals = [_aval(leaf, "carry") for leaf in leaves]

    def trace_body(avals):
        return _trace(
            body_fun, in_tree, avals, out_avals=avals, what="while_loop body_fun", splat=False
        )

    body_graph, body_consts, body_tree = trace_body(avals)
    if body_tree != in_tree:
        raise TypeError(
            f"while_loop body_fun must return the carry's structure {in_tree}, got {body_tree}"
        )
    promoted = _promoted(leaves, avals, body_graph.out_avals)
    if promoted is not None:
        avals = promoted
        body_graph, body_consts, _ = trace_body(avals)
    _same_types(body_graph.out_avals, avals, "while_loop body_fun (input and output carry)")
    cond_graph, cond_consts, _ = _trace(
        cond_fun, in_tree, avals, what="while_loop cond_fun", splat=False
    )
    if len(cond_graph.outputs) != 1 or cond_graph.out_avals[0].shape != ():
        raise TypeError("while_loop cond_fun must return one boolean scalar")
    if cond_graph.out_avals[0].dtype != np.bool_:
        raise TypeError(
            f"while_loop cond_fun must return a bool, got {cond_graph.out_avals[0].str_short()}"
        )
    n = len(avals)
    cond_graph = Graph(
        cond_graph.inputs[n:] + cond_graph.inputs[:n], cond_graph.eqns, cond_graph.outputs
    )
    body_graph = Graph(
        body_graph.inputs[n:] + body_graph.inputs[:n], body_graph.eqns, body_graph.outputs
    )
    outs = bind(
        while_p,
        *cond_consts,
        *body_consts,
        *[_matched(v, a) for v, a in zip(leaves, avals)],
        cond=cond_graph,
        body=body_graph,
        cond_nconsts=len(cond_consts),
        body_nconsts=len(body_consts),
    )
    return tree.unflatten(in_tree, [wrap(o) for o in outs])


def fori_loop(
    lower: ArrayLike, upper: ArrayLike, body_fun: Callable[[Any, PyTree], PyTree], init_val: PyTree
) -> PyTree:
    """Run ``for i in range(lower, upper): val = body_fun(i, val)``, traceable under jit.

    Parameters
    ----------
    lower, upper : int or integer scalar array
        The loop bounds.
    body_fun : callable
        ``(i, carry) -> carry`` of the same structure, shapes and dtypes.
    init_val : pytree
        The initial carry.

    Returns
    -------
    pytree
        The final carry.

    See Also
    --------
    jax.lax.fori_loop : the function mirrored.
    arraystack.while_loop, arraystack.scan

    Notes
    -----
    Traced with static (Python int) bounds it becomes a `scan` of known length, which reverse mode
    can differentiate; with traced bounds a `while` loop.

    Examples
    --------
    >>> import arraystack as np
    >>> np.jit(lambda x: np.fori_loop(0, 4, lambda i, v: v + i, x))(np.asarray(0.5))
    array(6.5)
    """
    lo, hi = (raw(b) if isinstance(b, ndarray) else b for b in (lower, upper))
    if not is_tracing():
        val = init_val
        for i in range(int(np.asarray(lo)), int(np.asarray(hi))):
            val = body_fun(wrap(np.asarray(i)), val)
        return val
    from arraystack._core.dtypes import result_type

    dtype = result_type(lo, hi)
    if dtype.kind not in "iu":
        raise TypeError(f"fori_loop bounds must be integers, got {dtype}")
    start = wrap(convert_raw(lo, dtype) if not isinstance(lo, int) else np.asarray(lo, dtype))
    stop = wrap(convert_raw(hi, dtype) if not isinstance(hi, int) else np.asarray(hi, dtype))
    if type(lo) is not Tracer and type(hi) is not Tracer:
        # Static bounds: a scan of known length (as JAX does), which reverse mode can differentiate.
        def step(state, _):
            i, val = state
            return (i + 1, body_fun(i, val)), None

        trips = max(int(np.asarray(hi)) - int(np.asarray(lo)), 0)
        return scan(step, (start, init_val), length=trips)[0][1]

    def loop_cond(state):
        i, n, _ = state
        return i < n

    def loop_body(state):
        i, n, val = state
        return (i + 1, n, body_fun(i, val))

    return while_loop(loop_cond, loop_body, (start, stop, init_val))[2]


def scan(
    f: Callable[[PyTree, PyTree], tuple[PyTree, PyTree]],
    init: PyTree,
    xs: PyTree = None,
    length: int | None = None,
    reverse: bool = False,
) -> tuple[PyTree, PyTree]:
    """Loop ``carry, y = f(carry, x)`` over the leading axis of `xs`, stacking the `y` values.

    Parameters
    ----------
    f : callable
        ``(carry, x) -> (carry, y)``; the carry keeps its structure, shapes and dtypes.
    init : pytree
        The initial carry.
    xs : pytree of arrays, optional
        Values scanned over their leading axis; None with `length` for a loop without inputs.
    length : int, optional
        The number of iterations (required when `xs` is None).
    reverse : bool, optional
        Scan from the last element to the first.

    Returns
    -------
    tuple
        ``(final_carry, ys)`` with `ys` the stacked `y` values (leading axis of size `length`).

    See Also
    --------
    jax.lax.scan : the function mirrored.
    numpy.cumsum : the relative for a running sum.
    arraystack.fori_loop, arraystack.while_loop

    Notes
    -----
    The body is traced once and recorded as one `scan` equation, eagerly too (run by the reference
    rule); reverse mode differentiates it. A Python scalar in `init` is weakly typed, as in
    `while_loop`.

    Examples
    --------
    >>> import arraystack as np
    >>> np.scan(lambda c, x: (c + x, c * x), 0.0, np.asarray([1.0, 2.0, 3.0]))
    (array(6.), array([0., 2., 9.]))
    """
    init_leaves, init_tree = tree.flatten(init)
    xs_leaves, xs_tree = tree.flatten(xs)
    lengths = {tuple(_aval(x, "xs").shape)[:1] for x in xs_leaves}
    if any(s == () for s in lengths):
        raise ValueError("scan xs leaves must have a leading axis")
    sizes = {s[0] for s in lengths}
    if length is not None:
        sizes.add(int(length))
    if len(sizes) != 1:
        raise ValueError(
            f"scan got inconsistent lengths {sorted(sizes)} (xs leading axes and length=)"
        )
    n = sizes.pop()
    carry_avals = [_aval(leaf, "carry") for leaf in init_leaves]
    x_avals = [a.update(shape=a.shape[1:]) for a in (_aval(x, "xs") for x in xs_leaves)]
    nc = len(carry_avals)
    y_tree = []

    def body(*args):
        carry = tree.unflatten(init_tree, list(args[:nc]))
        x = tree.unflatten(xs_tree, list(args[nc:]))
        new_carry, y = f(carry, x)
        c_leaves, c_tree = tree.flatten(new_carry)
        if c_tree != init_tree:
            raise TypeError(
                f"scan body must return the carry's structure {init_tree}, got {c_tree}"
            )
        y_leaves, structure = tree.flatten(y)
        y_tree.append(structure)
        return [_matched(c, a) for c, a in zip(c_leaves, carry_avals)] + [
            raw(v) if isinstance(v, ndarray) else v for v in y_leaves
        ]

    flat_tree = tree.structure(tuple([0] * (nc + len(x_avals))))
    graph, consts, _ = _trace(body, flat_tree, carry_avals + x_avals, what="scan body")
    promoted = _promoted(init_leaves, carry_avals, graph.out_avals[:nc])
    if promoted is not None:
        carry_avals = promoted
        y_tree.clear()
        graph, consts, _ = _trace(body, flat_tree, carry_avals + x_avals, what="scan body")
    _same_types(graph.out_avals[:nc], carry_avals, "scan body (input and output carry)")
    k = nc + len(x_avals)
    graph = Graph(graph.inputs[k:] + graph.inputs[:k], graph.eqns, graph.outputs)
    outs = bind(
        scan_p,
        *consts,
        *[_matched(v, a) for v, a in zip(init_leaves, carry_avals)],
        *[raw(x) if isinstance(x, ndarray) else x for x in xs_leaves],
        body=graph,
        nconsts=len(consts),
        ncarry=nc,
        length=n,
        reverse=bool(reverse),
    )
    carry = tree.unflatten(init_tree, [wrap(o) for o in outs[:nc]])
    ys = tree.unflatten(y_tree[0], [wrap(o) for o in outs[nc:]])
    return carry, ys


__all__ = ["fori_loop", "scan", "while_loop"]
