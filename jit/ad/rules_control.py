"""JVP, VJP and batching rules of the control-flow primitives: fusion, switch (cond), while and scan.

Rules transform sub-graphs, never unroll: the JVP of a scan is a scan whose body is the JVP of the body, and so
on. A transformed sub-graph is traced with `_subgraph`, which runs the transformation over `eval_graph` of the
original sub-graph; its captured values become leading operands (control.py's "consts first" convention).
VJPs recompute what they need instead of saving residuals: a switch's backward branch reruns the forward
branch under a tape; a scan runs forward once more storing the carry entering each step, then a scan in the
opposite direction applies the body's VJP at each stored carry. Reverse mode through `while` is refused: its
trip count is not known ahead, so nothing could be stored (fori_loop with static bounds lowers to scan).
Batching: batched operands give batched sub-graphs; loop carries are batched as a fixed point (batched if
they start batched or the body makes them so); a batched switch index evaluates every branch and selects
per example; a while whose predicate is per-example runs while any example continues and keeps finished
examples' carries with select. Scan's batching (xs batched along axis 1) is in rules_scan.py.
"""

from __future__ import annotations

import functools

from arraystack.ir import primitives as p
from arraystack.ir import structural as s
from arraystack.ir.ad import batching, forward, ops, reverse
from arraystack.ir.ad.batching import batch_rules, move_to_front
from arraystack.ir.ad.forward import jvp_rules
from arraystack.ir.ad.reverse import NotDifferentiableError, vjp_rules
from arraystack.ir.avals import kind_of
from arraystack.ir.control import barrier_p, fusion_p, switch_p, while_p
from arraystack.ir.core import Tracer, bind, pop_trace, push_trace, trace_state
from arraystack.ir.ir import Graph, Literal, Var
from arraystack.ir.trace import eval_graph, make_graph

# -- sub-graph plumbing -------------------------------------------------------------------------------------------


def _trace(fn, avals):
    """make_graph from inside a rule: rules run one level under their trace (`below`), and popping the
    sub-graph's trace would otherwise leave the rule's own trace on top."""
    saved = trace_state.top
    try:
        return make_graph(fn, avals)
    finally:
        trace_state.top = saved


def _subgraph(fn, avals):
    """(graph, consts): fn traced on `avals`, with the values it captured moved first as graph inputs."""
    graph, consts = _trace(fn, avals)
    n = len(avals)
    return Graph(graph.inputs[n:] + graph.inputs[:n], graph.eqns, graph.outputs), list(consts)


def _branches(fns, avals):
    """Switch branches from functions of the same operands: each branch takes every branch's consts."""
    traced = [_trace(fn, avals) for fn in fns]
    n = len(avals)
    graphs = []
    for k, (g, _) in enumerate(traced):
        inputs = []
        for j, (h, _) in enumerate(traced):
            inputs.extend(g.inputs[n:] if j == k else [Var(a) for a in h.in_avals[n:]])
        graphs.append(Graph(tuple(inputs) + g.inputs[:n], g.eqns, g.outputs))
    return tuple(graphs), [c for _, consts in traced for c in consts]


def _run(graph):
    return lambda *args: eval_graph(graph, *args)


def _inexact(aval) -> bool:
    return kind_of(aval.dtype) in "fc"


def _diff(values):
    return [i for i, v in enumerate(values) if _inexact(ops.aval(v))]


def _instantiate(t, like):
    return ops.zeros_like(like) if t is None else t


def _placed(n, positions, values, fill=None):
    """A list of n entries: `values` at `positions`, `fill` elsewhere."""
    out = [fill] * n
    for i, v in zip(positions, values):
        out[i] = v
    return out


def _jvp_of(graph, primals, tangents, want):
    """Outputs of `graph` and the tangents of outputs `want` (zeros instantiated) under forward mode."""
    outs, touts = forward.jvp(_run(graph), list(primals), list(tangents))
    return list(outs), [_instantiate(touts[k], outs[k]) for k in want]


def _vjp_of(graph, primals, diff, cts, given=None):
    """Cotangents of inputs `diff` of `graph` at `primals`, given output cotangents (None = zero).
    `given`: equation position -> its (single) output's value, computed before (the equation is not run
    again; its rule still carries the cotangents of its operands)."""

    def f(*d):
        args = _replaced(primals, diff, d)
        return eval_graph(graph, *args) if not given else _eval_given(graph, args, given)

    _, backward = reverse.vjp(f, [primals[i] for i in diff])
    return [_instantiate(g, primals[i]) for g, i in zip(backward(list(cts)), diff)]


def _eval_given(graph, args, given):
    """eval_graph, with the outputs of the equations in `given` taken from it: recorded on the reverse
    tape with the equation's own rule when an operand is differentiated."""
    env = dict(zip(graph.inputs, args))

    def read(atom):
        return atom.value if isinstance(atom, Literal) else env[atom]

    for k, eqn in enumerate(graph.eqns):
        inputs = [read(x) for x in eqn.inputs]
        if k in given:
            rule = functools.partial(reverse.vjp_rules[eqn.prim], **eqn.params)
            out = reverse.custom_record(rule, inputs, given[k], multiple=False)
            env[eqn.outputs[0]] = given[k] if out is None else out
            continue
        out = bind(eqn.prim, *inputs, **eqn.params)
        if eqn.prim.multiple_results:
            env.update(zip(eqn.outputs, out))
        else:
            env[eqn.outputs[0]] = out
    return [read(x) for x in graph.outputs]


def _replaced(values, positions, new):
    values = list(values)
    for i, v in zip(positions, new):
        values[i] = v
    return values


def _avals(values):
    return [ops.aval(v) for v in values]


def _split(seq, *sizes):
    """Consecutive pieces of `seq` of the given sizes, then the rest."""
    seq, pieces = list(seq), []
    for n in sizes:
        pieces.append(seq[:n])
        seq = seq[n:]
    return pieces + [seq]


def _with_batch(aval, batched, size):
    return aval.update(shape=(size,) + tuple(aval.shape)) if batched else aval


def _batched_eval(graph, args, batched, size, force=(), live=None):
    """eval_graph(graph, *args) under vmap: (outputs with the batch axis first where batched, which outputs
    are batched). Outputs at positions `force` are broadcast to batched when they are not. `live`: the
    examples whose outputs are kept (batching.live_lanes)."""
    trace = batching.BatchTrace(size, live)
    trace.parent = trace_state.top
    operands = [trace.new_input(a) if b else a for a, b in zip(args, batched)]
    push_trace(trace)
    try:
        outs = eval_graph(graph, *operands)
    finally:
        pop_trace(trace)
    values, flags = [], []
    for k, o in enumerate(outs):
        mine = type(o) is Tracer and o.trace is trace
        value = o.data if mine else o
        if not mine and k in force:
            value, mine = move_to_front(value, False, size), True
        values.append(value)
        flags.append(mine)
    return values, flags


def _probe(graph, avals, batched, size):
    """Which outputs of `graph` are batched when the inputs flagged in `batched` are (traced, not run)."""
    flags = []

    def fn(*args):
        outs, out_flags = _batched_eval(graph, args, batched, size)
        flags.extend(out_flags)
        return outs

    _trace(fn, avals)
    return flags


def _batched_carries(body, flags, inputs, size):
    """The loop carries that must be batched: the least fixed point above `flags` (a carry is batched when
    it starts batched or the body makes it so). `inputs(flags) -> (avals, batched)` of the body's inputs;
    the body's first outputs are the carries."""
    flags = list(flags)
    while True:
        avals, batched = inputs(flags)
        out = _probe(body, avals, batched, size)
        new = [a or b for a, b in zip(flags, out)]
        if new == flags:
            return flags
        flags = new


# -- fusion: its meaning is its sub-graph, so every transformation inlines it -----------------------------------


def _fusion_jvp(primals, tangents, out, *, graph):
    return forward.jvp(_run(graph), list(primals), list(tangents))[1]


def _fusion_vjp(ct, out, needs, *xs, graph):
    diff = [i for i in _diff(xs) if needs[i]]
    cts = [c if _inexact(ops.aval(o)) else None for c, o in zip(ct, out)]
    return _placed(len(xs), diff, _vjp_of(graph, xs, diff, cts))


def _fusion_batch(size, args, batched, *, graph):
    return batching.vmap(_run(graph), list(args), list(batched), size)


jvp_rules[fusion_p] = _fusion_jvp
vjp_rules[fusion_p] = _fusion_vjp
batch_rules[fusion_p] = _fusion_batch

# -- switch -----------------------------------------------------------------------------------------------------
# Operands: index, *xs. The index is an integer: it carries no tangent and gets no cotangent.


def _switch_jvp(primals, tangents, out, *, branches):
    index, xs, ts = primals[0], primals[1:], tangents[1:]
    n = len(xs)
    nz = [i for i, t in enumerate(ts) if t is not None]
    want = [k for k, a in enumerate(branches[0].out_avals) if _inexact(a)]

    def branch(g):
        def fn(*args):
            return _jvp_of(g, args[:n], _placed(n, nz, args[n:]), want)[1]

        return fn

    x_avals = _avals(xs)
    graphs, consts = _branches([branch(g) for g in branches], x_avals + [x_avals[i] for i in nz])
    res = bind(switch_p, index, *consts, *xs, *[ts[i] for i in nz], branches=graphs)
    return _placed(len(out), want, res)


def _switch_vjp(ct, out, needs, index, *xs, branches):
    n = len(xs)
    diff = [i for i in _diff(xs) if needs[i + 1]]
    out_avals = branches[0].out_avals
    want = [k for k, a in enumerate(out_avals) if _inexact(a)]
    if not diff:
        return [None] * (n + 1)

    def branch(g):
        def fn(*args):
            return _vjp_of(g, args[:n], diff, _placed(len(out_avals), want, args[n:]))

        return fn

    avals = _avals(xs) + [out_avals[k] for k in want]
    graphs, consts = _branches([branch(g) for g in branches], avals)
    res = bind(switch_p, index, *consts, *xs, *[ct[k] for k in want], branches=graphs)
    return [None] + _placed(n, diff, res)


def _switch_batch(size, args, batched, *, branches):
    index, xs, xb = args[0], list(args[1:]), list(batched[1:])
    if not batched[0]:

        def branch(g):
            return lambda *a: batching.vmap(_run(g), list(a), xb, size)

        graphs, consts = _branches([branch(g) for g in branches], _avals(xs))
        return bind(switch_p, index, *consts, *xs, branches=graphs)
    # a per-example index: every branch runs on the whole batch and each example picks its own result;
    # comparing with >= k clamps out-of-range indices as switch does
    last = len(branches) - 1
    outs = [batching.vmap(_run(g), xs, xb, size, _picks(index, k, last)) for k, g in enumerate(branches)]
    result = outs[0]
    for k in range(1, len(branches)):
        pick = ops.binop(p.ge_p, index, ops.const(index, k))
        result = [ops.select(_per_example(pick, r), o, r) for o, r in zip(outs[k], result)]
    return result


def _picks(index, k, last):
    """Which examples take branch k (of 0..last) of a switch, out-of-range indices clamped."""
    if last == 0:
        return None
    if k == 0:
        return ops.binop(p.lt_p, index, ops.const(index, 1))
    if k == last:
        return ops.binop(p.ge_p, index, ops.const(index, last))
    return ops.eq(index, ops.const(index, k))


def _per_example(pred, like):
    """A (size,) predicate broadcast along the per-example axes of `like`."""
    return ops.broadcast_in_dim(pred, ops.shape(like), (0,))


jvp_rules[switch_p] = _switch_jvp
vjp_rules[switch_p] = _switch_vjp
batch_rules[switch_p] = _switch_batch

# -- while ------------------------------------------------------------------------------------------------------
# Operands: *cond_consts *body_consts *carry. The JVP carries (carry, carry tangents) through one loop; every
# inexact carry gets a tangent (zeros where the initial one is zero), which keeps the loop's types fixed.


def _while_jvp(primals, tangents, out, *, cond, body, cond_nconsts, body_nconsts):
    cn, bn = cond_nconsts, body_nconsts
    cc, bc, carry = _split(primals, cn, bn)
    _, bt, kt = _split(tangents, cn, bn)
    if all(t is None for t in list(bt) + list(kt)):
        return [None] * len(carry)
    nk = len(carry)
    bnz = [i for i, t in enumerate(bt) if t is not None]
    kdiff = _diff(carry)
    carry_t = [_instantiate(kt[k], carry[k]) for k in kdiff]
    carry_avals = _avals(carry)
    t_avals = [carry_avals[k] for k in kdiff]

    def cond_fn(*a):
        return eval_graph(cond, *a[: cn + nk])

    def body_fn(*a):
        b, btz, c, ct = _split(a, bn, len(bnz), nk)
        full = _placed(bn, bnz, btz) + _placed(nk, kdiff, ct)
        outs, touts = _jvp_of(body, list(b) + list(c), full, kdiff)
        return outs + touts

    cg, ccs = _subgraph(cond_fn, _avals(cc) + carry_avals + t_avals)
    b_avals = _avals(bc) + [ops.aval(bt[i]) for i in bnz]
    bg, bcs = _subgraph(body_fn, b_avals + carry_avals + t_avals)
    res = bind(
        while_p,
        *ccs,
        *cc,
        *bcs,
        *bc,
        *[bt[i] for i in bnz],
        *carry,
        *carry_t,
        cond=cg,
        body=bg,
        cond_nconsts=len(ccs) + cn,
        body_nconsts=len(bcs) + bn + len(bnz),
    )
    return _placed(nk, kdiff, res[nk:])


def _while_vjp(ct, out, needs, *operands, **params):
    raise NotDifferentiableError(
        "reverse-mode differentiation (grad, vjp) through while_loop is not supported: the number of "
        "iterations is only known at run time, so the loop's intermediate values cannot be stored. Use "
        "arraystack.scan, or arraystack.fori_loop with static (Python int) bounds, which lowers to scan; "
        "forward mode (jvp) through while_loop works."
    )


def _while_batch(size, args, batched, *, cond, body, cond_nconsts, body_nconsts):
    cn, bn = cond_nconsts, body_nconsts
    cc, bc, carry = _split(args, cn, bn)
    cb, bb, kb = _split(batched, cn, bn)
    examples = [a.update(shape=a.shape[1:]) if b else a for a, b in zip(_avals(carry), kb)]

    def carry_avals(flags):
        return [_with_batch(a, b, size) for a, b in zip(examples, flags)]

    kb = _batched_carries(body, kb, lambda f: (_avals(bc) + carry_avals(f), bb + f), size)
    per_example = _probe(cond, _avals(cc) + carry_avals(kb), cb + kb, size)[0]
    if per_example:  # selecting with a per-example predicate makes every carry per-example
        kb = [True] * len(carry)
    carry = [
        move_to_front(v, b0, size) if b else v for v, b0, b in zip(carry, batched[cn + bn :], kb)
    ]
    force = [k for k, b in enumerate(kb) if b]

    def step(b, k, live=None):
        return _batched_eval(body, list(b) + list(k), bb + kb, size, force, live)[0]

    def pred(c, k):
        return _batched_eval(cond, list(c) + list(k), cb + kb, size)[0][0]

    if not per_example:
        cg, ccs = _subgraph(lambda *a: [pred(a[:cn], a[cn:])], _avals(cc) + _avals(carry))
        bg, bcs = _subgraph(lambda *a: step(a[:bn], a[bn:]), _avals(bc) + _avals(carry))
        body_operands = list(bc)
    else:
        # The loop runs while any example's predicate holds; an example whose predicate is false keeps its
        # carry (select), so each example sees exactly its own iterations.
        def any_fn(*a):
            return [bind(s.reduce_or_p, pred(a[:cn], a[cn:]), axes=(0,))]

        def body_fn(*a):
            c, b, k = _split(a, cn, bn)
            keep = pred(c, k)
            return [ops.select(_per_example(keep, v), nv, v) for nv, v in zip(step(b, k, keep), k)]

        cg, ccs = _subgraph(any_fn, _avals(cc) + _avals(carry))
        bg, bcs = _subgraph(body_fn, _avals(cc) + _avals(bc) + _avals(carry))
        body_operands = list(cc) + list(bc)
    res = bind(
        while_p,
        *ccs,
        *cc,
        *bcs,
        *body_operands,
        *carry,
        cond=cg,
        body=bg,
        cond_nconsts=len(ccs) + cn,
        body_nconsts=len(bcs) + len(body_operands),
    )
    return [move_to_front(v, b, size) for v, b in zip(res, kb)]


jvp_rules[while_p] = _while_jvp
vjp_rules[while_p] = _while_vjp
batch_rules[while_p] = _while_batch


# -- optimization_barrier: the identity, transparent to every transformation ------------------------------------


def _barrier_jvp(primals, tangents, out):
    nonzero = [t for t in tangents if t is not None]
    passed = iter(bind(barrier_p, *nonzero) if nonzero else ())
    return [None if t is None else next(passed) for t in tangents]


jvp_rules[barrier_p] = _barrier_jvp
vjp_rules[barrier_p] = lambda ct, out, needs, *primals: list(ct)
batch_rules[barrier_p] = lambda size, args, batched: [move_to_front(a, b, size) for a, b in zip(args, batched)]
