"""Structured control flow: cond, switch, while_loop, fori_loop, scan (JAX's lax semantics).

Traced, each function is traced once into a closed sub-graph and recorded as one switch/while/scan
equation, so a compiled program keeps real branches and loops (never unrolled). Eagerly,
cond/switch/while_loop/ fori_loop run the Python functions directly; scan runs its traced body
through the reference rule.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from arraystack._core.array import is_tracing, ndarray, raw, wrap_array as wrap
from arraystack._core.devices import host_values
from arraystack._core.dtypes import result_type
from arraystack._core.operands import broadcast_raw, convert_raw
from arraystack._transforms.scan_unroll import unroll_count, unrolled_scan
from arraystack.ir import tree
from arraystack.ir.avals import ShapedArray, aval_of_concrete
from arraystack.ir.control import scan_p, switch_p, while_p
from arraystack.ir.core import Tracer, bind, device_namespaces
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
    if type(value) in device_namespaces:  # an array on a device (cupy's): its shape and dtype
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
        k = min(max(int(host_values(index_raw)), 0), len(branches) - 1)
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
        # a device's predicate is read back, as bool(x) reads it
        return true_fun(*operands) if bool(host_values(pred_raw)) else false_fun(*operands)
    if pred_raw.aval.shape != ():
        raise TypeError(f"cond predicate must be a scalar, got {pred_raw.aval.str_short()}")
    return switch(wrap(convert_raw(pred_raw, np.bool_)), [false_fun, true_fun], *operands)


# -- loops: while_loop, fori_loop, scan ------------------------------------------------------------


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
        while bool(host_values(raw(cond_fun(val)))):
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
    lower: ArrayLike,
    upper: ArrayLike,
    body_fun: Callable[[Any, PyTree], PyTree],
    init_val: PyTree,
    *,
    unroll: int | bool | None = None,
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
    unroll : int or bool, optional
        Iterations of `body_fun` per iteration of the recorded loop (True: all), as `scan`'s;
        the bounds must then be Python ints (known while tracing).

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
    if unroll is not None:
        unroll_count(unroll, 1)  # a bool or a positive int, eagerly too
    if unroll is not None and (type(lo) is Tracer or type(hi) is Tracer):
        raise ValueError(
            "fori_loop can only unroll (`unroll=`) a loop whose bounds are known while tracing "
            "(Python ints); these are traced values"
        )
    if not is_tracing():
        val = init_val
        for i in range(int(host_values(lo)), int(host_values(hi))):
            val = body_fun(wrap(np.asarray(i)), val)
        return val
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

        trips = max(int(host_values(hi)) - int(host_values(lo)), 0)
        unrolled = 1 if unroll is None else unroll
        return scan(step, (start, init_val), length=trips, unroll=unrolled)[0][1]

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
    unroll: int | bool = 1,
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
    unroll : int or bool, optional
        Iterations of the body per iteration of the recorded loop (True: all of them): the program
        holds that many copies of the body, which the optimizer fuses across. The values are the
        same.

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
    k = unroll_count(unroll, n)
    if k > 1:
        return unrolled_scan(scan, f, init, xs_leaves, xs_tree, n, k, bool(reverse))
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


__all__ = ["cond", "fori_loop", "scan", "switch", "while_loop"]
