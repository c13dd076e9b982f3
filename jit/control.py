"""Structure primitives that hold sub-graphs: fusion regions, switch (cond), while and scan.

`fusion` marks a region the optimizer grouped so a backend can compile it into one loop nest; its meaning is
exactly its sub-graph's. Control flow follows JAX's lax: every branch/body is a Graph whose first inputs are
the values it captured (consts), so sub-graphs are closed and can be printed, optimized and compiled alone.
Reference rules are registered here, next to the declarations, because they evaluate sub-graphs.
"""

from __future__ import annotations

import numpy as np

from arraystack.ir.core import Primitive
from arraystack.ir.ir import Graph
from arraystack.ir.primitives import abstract_eval_rules


def _check(prim, got, want, what):
    got, want = tuple(got), tuple(want)
    if len(got) != len(want) or any(
        a.shape != b.shape or a.dtype != b.dtype for a, b in zip(got, want)
    ):
        raise TypeError(
            f"{prim}: {what} "
            + ", ".join(a.str_short() for a in got)
            + " do not match "
            + ", ".join(a.str_short() for a in want)
        )


fusion_p = Primitive("fusion", multiple_results=True)  # fusion[graph] *inputs


def _fusion_rule(*avals, graph: Graph):
    _check("fusion", avals, graph.in_avals, "operands")
    return graph.out_avals


abstract_eval_rules[fusion_p] = _fusion_rule

switch_p = Primitive("switch", multiple_results=True)
# switch[branches=(g0, g1, ...)] index *operands: runs branches[clamp(index)] on the operands. Every branch
# takes the same operands (all branches' consts, then the user's operands) and returns the same avals.


def _switch_rule(index, *operands, branches):
    if index.shape != () or index.dtype.kind not in "iu":
        raise TypeError(f"switch index must be an integer scalar, got {index.str_short()}")
    for g in branches:
        _check("switch", operands, g.in_avals, "operands")
        _check("switch", g.out_avals, branches[0].out_avals, "branch outputs")
    return branches[0].out_avals


abstract_eval_rules[switch_p] = _switch_rule

while_p = Primitive("while", multiple_results=True)
# while[cond, body, cond_nconsts, body_nconsts] *cond_consts *body_consts *carry


def _while_rule(*operands, cond, body, cond_nconsts, body_nconsts):
    cc = operands[:cond_nconsts]
    bc = operands[cond_nconsts : cond_nconsts + body_nconsts]
    carry = operands[cond_nconsts + body_nconsts :]
    _check("while", tuple(cc) + tuple(carry), cond.in_avals, "cond operands")
    if (
        len(cond.out_avals) != 1
        or cond.out_avals[0].shape != ()
        or cond.out_avals[0].dtype != np.bool_
    ):
        raise TypeError("while: cond must return one bool scalar")
    _check("while", tuple(bc) + tuple(carry), body.in_avals, "body operands")
    _check("while", body.out_avals, carry, "body outputs")
    return tuple(carry)


abstract_eval_rules[while_p] = _while_rule

scan_p = Primitive("scan", multiple_results=True)
# scan[body, nconsts, ncarry, length, reverse] *consts *init *xs -> *final_carry *stacked_ys
# body: (*consts, *carry, *x_slices) -> (*carry, *y_slices)


def _scan_rule(*operands, body, nconsts, ncarry, length, reverse):
    consts = operands[:nconsts]
    init = operands[nconsts : nconsts + ncarry]
    xs = operands[nconsts + ncarry :]
    for x in xs:
        if not x.shape or x.shape[0] != length:
            raise ValueError(
                f"scan: every xs leaf needs leading axis {length}, got {x.str_short()}"
            )
    slices = [x.update(shape=x.shape[1:]) for x in xs]
    _check("scan", tuple(consts) + tuple(init) + tuple(slices), body.in_avals, "body operands")
    outs = body.out_avals
    _check("scan", outs[:ncarry], init, "carry outputs")
    ys = [y.update(shape=(length,) + tuple(y.shape)) for y in outs[ncarry:]]
    return tuple(init) + tuple(ys)


abstract_eval_rules[scan_p] = _scan_rule


barrier_p = Primitive("optimization_barrier", multiple_results=True)
# optimization_barrier *operands -> the operands unchanged. Passes treat it as opaque, so values computed from
# its outputs are never merged with (CSE) or replaced by values computed before it: checkpoint uses it to
# make the backward pass recompute, instead of keep, the forward values of a rematerialized function.


def _barrier_rule(*avals):
    return tuple(avals)


abstract_eval_rules[barrier_p] = _barrier_rule


# -- reference rules ----------------------------------------------------------------------------------------


def _eval(graph, args):
    from arraystack.ir.trace import eval_graph

    return eval_graph(graph, *args)


def _fusion_reference(xp, *inputs, graph):
    return tuple(_eval(graph, inputs))


def _switch_reference(xp, index, *operands, branches):
    k = min(max(int(index), 0), len(branches) - 1)
    return tuple(_eval(branches[k], operands))


def _while_reference(xp, *operands, cond, body, cond_nconsts, body_nconsts):
    cc = list(operands[:cond_nconsts])
    bc = list(operands[cond_nconsts : cond_nconsts + body_nconsts])
    carry = list(operands[cond_nconsts + body_nconsts :])
    while bool(_eval(cond, cc + carry)[0]):
        carry = _eval(body, bc + carry)
    return tuple(carry)


def _scan_reference(xp, *operands, body, nconsts, ncarry, length, reverse):
    consts = list(operands[:nconsts])
    carry = list(operands[nconsts : nconsts + ncarry])
    xs = operands[nconsts + ncarry :]
    ys = [[] for _ in body.outputs[ncarry:]]
    steps = range(length - 1, -1, -1) if reverse else range(length)
    for i in steps:
        out = _eval(body, consts + carry + [x[i] for x in xs])
        carry = list(out[:ncarry])
        for acc, y in zip(ys, out[ncarry:]):
            acc.append(y)
    stacked = []
    for acc, aval in zip(ys, body.out_avals[ncarry:]):
        if reverse:
            acc.reverse()
        stacked.append(xp.stack(acc) if acc else xp.zeros((0,) + tuple(aval.shape), aval.dtype))
    return tuple(carry) + tuple(stacked)


def _register_reference():
    from arraystack.ir.reference import reference_rules

    reference_rules[fusion_p] = _fusion_reference
    reference_rules[switch_p] = _switch_reference
    reference_rules[while_p] = _while_reference
    reference_rules[scan_p] = _scan_reference
    reference_rules[barrier_p] = lambda xp, *operands: tuple(operands)


_register_reference()
