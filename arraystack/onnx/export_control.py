"""ONNX lowerings of the primitives that hold sub-graphs: switch -> If, while and scan -> Loop.

Same convention as export_elementwise.py. A sub-graph of the IR is closed (its captured values are its
first inputs); its ONNX body reads those from the enclosing graph by name, as ONNX scoping allows,
and declares only the inputs ONNX requires (a Loop's iteration count, condition and carried values).
"""

from __future__ import annotations

import numpy as np
from onnx import helper

from arraystack.ir.control import barrier_p, fusion_p, scan_p, switch_p, while_p

control_rules: dict = {}


def _info(name, aval):
    elem = helper.np_dtype_to_tensor_dtype(aval.dtype)
    return helper.make_tensor_value_info(name, elem, [None] * len(aval.shape))


def _inline(b, graph, operands) -> list:
    from arraystack.onnx.lowering import lower_into

    return lower_into(b, graph, operands)


def _body(b, outputs, avals, inputs=()):
    """A sub-graph of the nodes in builder `b`, returning `outputs` (renamed by Identity nodes, so that
    each is produced inside the body even when it is an outer or input value)."""
    names = [b.op("Identity", [o]) for o in outputs]
    return helper.make_graph(
        b.nodes, b.names.fresh("body"), list(inputs), [_info(n, a) for n, a in zip(names, avals)]
    )


def _switch(b, eqn, index, *operands):
    branches = eqn.params["branches"]
    avals = branches[0].out_avals
    if len(branches) == 1:
        return _inline(b, branches[0], operands)
    index = b.cast(index, np.int64)

    def branch(k):
        sub = b.sub()
        if k == len(branches) - 1:
            outs = _inline(sub, branches[k], operands)
        else:
            outs = choose(sub, k)
        return _body(sub, outs, avals)

    def choose(builder, k):
        # branches[clamp(index)]: index <= k picks branch k once the smaller ones are ruled out
        pick = builder.op("LessOrEqual", [index, builder.scalar(k, np.int64)])
        outs = builder.op(
            "If", [pick], outputs=len(avals), then_branch=only(k), else_branch=branch(k + 1)
        )
        return [outs] if len(avals) == 1 else outs

    def only(k):
        sub = b.sub()
        return _body(sub, _inline(sub, branches[k], operands), avals)

    return choose(b, 0)


def _loop_inputs(b, carry_avals):
    iteration, condition = b.names.fresh("iteration"), b.names.fresh("condition")
    carried = [b.names.fresh("carried") for _ in carry_avals]
    infos = [
        helper.make_tensor_value_info(
            iteration, helper.np_dtype_to_tensor_dtype(np.dtype(np.int64)), []
        ),
        helper.make_tensor_value_info(
            condition, helper.np_dtype_to_tensor_dtype(np.dtype(np.bool_)), []
        ),
    ] + [_info(n, a) for n, a in zip(carried, carry_avals)]
    return iteration, condition, carried, infos


def _while(b, eqn, *operands):
    cond, body = eqn.params["cond"], eqn.params["body"]
    nc, nb = eqn.params["cond_nconsts"], eqn.params["body_nconsts"]
    cond_consts, body_consts = operands[:nc], operands[nc : nc + nb]
    carry = operands[nc + nb :]
    carry_avals = [x.aval for x in eqn.inputs[nc + nb :]]
    first = _inline(b, cond, list(cond_consts) + list(carry))[0]
    sub = b.sub()
    _, _, carried, infos = _loop_inputs(sub, carry_avals)
    new = _inline(sub, body, list(body_consts) + carried)
    again = _inline(sub, cond, list(cond_consts) + new)[0]
    bool_aval = cond.out_avals[0]
    graph = _body(sub, [again] + new, [bool_aval] + carry_avals, infos)
    outs = b.op("Loop", ["", first] + list(carry), outputs=len(carry), body=graph)
    return [outs] if len(carry) == 1 else outs


def _scan(b, eqn, *operands):
    params = b.params(eqn)
    body, nconsts, ncarry = params["body"], params["nconsts"], params["ncarry"]
    length, reverse = params["length"], params["reverse"]
    consts, init = operands[:nconsts], operands[nconsts : nconsts + ncarry]
    xs = operands[nconsts + ncarry :]
    carry_avals = list(body.out_avals[:ncarry])
    y_avals = list(body.out_avals[ncarry:])
    trips = b.op("Squeeze", [b.ints([length]), b.ints([0])])
    sub = b.sub()
    iteration, condition, carried, infos = _loop_inputs(sub, carry_avals)
    step = iteration
    if reverse:
        last = sub.op("Sub", [trips, sub.scalar(1, np.int64)])
        step = sub.op("Sub", [last, iteration])
    slices = [sub.op("Gather", [x, step], axis=0) for x in xs]
    outs = _inline(sub, body, list(consts) + carried + slices)
    from arraystack.ir import ShapedArray

    flag = ShapedArray((), np.dtype(np.bool_))
    graph = _body(sub, [condition] + outs, [flag] + carry_avals + y_avals, infos)
    results = b.op(
        "Loop",
        [trips, b.scalar(True, np.bool_)] + list(init),
        outputs=ncarry + len(y_avals),
        body=graph,
    )
    results = [results] if ncarry + len(y_avals) == 1 else list(results)
    if reverse:  # the Loop stacked the ys in iteration order
        for k in range(ncarry, len(results)):
            results[k] = b.op(
                "Slice",
                [
                    results[k],
                    b.ints([-1]),
                    b.ints([np.iinfo(np.int64).min]),
                    b.ints([0]),
                    b.ints([-1]),
                ],
            )
    return results


control_rules[switch_p] = _switch
control_rules[while_p] = _while
control_rules[scan_p] = _scan
control_rules[fusion_p] = lambda b, eqn, *xs: _inline(b, eqn.params["graph"], xs)
control_rules[barrier_p] = lambda b, eqn, *xs: [b.op("Identity", [x]) for x in xs]

unsupported: dict = {}

__all__ = ["control_rules", "unsupported"]
