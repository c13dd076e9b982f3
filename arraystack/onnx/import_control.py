"""Import rules of ONNX's control flow: If, Loop, Scan (convention: interpreter.py).

A body reads the enclosing graph's values by name, so it runs on a copy of the enclosing environment.
Concrete conditions run as Python control flow (eagerly); traced ones become arraystack.cond and
arraystack.while_loop, and Scan is arraystack.scan, so imported loops compile under `jit`.
"""

from __future__ import annotations

import numpy

from arraystack.onnx.errors import UnsupportedOperatorError
from arraystack.onnx.interpreter import dynamic

control_rules: dict = {}


def _run(node, graph, env, values):
    scope = dict(env)
    for info, value in zip(graph.input, values):
        scope[info.name] = value
    return node.interpreter.run(graph, scope)


def _concrete_bool(value):
    """bool(value), or None for a traced value."""
    from arraystack.ir.core import ConcretizationError

    try:
        return (
            bool(numpy.asarray(value).reshape(-1)[0])
            if isinstance(value, numpy.ndarray)
            else bool(value)
        )
    except ConcretizationError:
        return None


def _if(xp, node, cond):
    env = node.interpreter.env
    then_graph, else_graph = node.attr("then_branch"), node.attr("else_branch")
    known = _concrete_bool(cond)
    if known is not None:
        return tuple(_run(node, then_graph if known else else_graph, env, []))
    import arraystack

    return arraystack.cond(
        arraystack.reshape(cond, ()),
        lambda: tuple(_run(node, then_graph, env, [])),
        lambda: tuple(_run(node, else_graph, env, [])),
    )


@dynamic
def _loop(xp, node, trips, cond, *initial):
    import arraystack

    env = node.interpreter.env
    body = node.attr("body")
    n_carry = len(initial)
    limit = None if trips is None else _concrete_int(trips)
    flag = True if cond is None else _concrete_bool(cond)
    if (trips is None or limit is not None) and flag is not None:
        return _loop_eagerly(node, body, env, limit, flag, list(initial), n_carry)
    if len(body.output) > 1 + n_carry:
        raise node.error(
            "a Loop with scan outputs and a traced trip count or condition cannot be traced",
            UnsupportedOperatorError,
        )
    bound = numpy.iinfo(numpy.int64).max if trips is None else trips

    def keep_going(state):
        i, c = state[0], state[1]
        return (i < bound) & c

    def step(state):
        i, c, vals = state[0], state[1], list(state[2:])
        outs = _run(node, body, env, [arraystack.asarray(i), arraystack.asarray(c)] + vals)
        return (i + 1, arraystack.reshape(outs[0], ()).astype(bool)) + tuple(outs[1 : 1 + n_carry])

    start = arraystack.asarray(numpy.int64(0))
    go = arraystack.asarray(True) if cond is None else arraystack.reshape(cond, ()).astype(bool)
    final = arraystack.while_loop(keep_going, step, (start, go) + tuple(initial))
    return tuple(final[2:])


def _concrete_int(value):
    from arraystack.ir.core import ConcretizationError

    try:
        return (
            int(numpy.asarray(value).reshape(-1)[0])
            if isinstance(value, numpy.ndarray)
            else int(value)
        )
    except ConcretizationError:
        return None


def _loop_eagerly(node, body, env, limit, flag, carry, n_carry):
    import arraystack

    stacks = [[] for _ in range(len(body.output) - 1 - n_carry)]
    i = 0
    while flag and (limit is None or i < limit):
        outs = _run(node, body, env, [numpy.asarray(i, numpy.int64), numpy.asarray(flag)] + carry)
        flag = _concrete_bool(outs[0])
        if flag is None:
            raise node.error("the Loop's condition became traced inside an eager loop")
        carry = list(outs[1 : 1 + n_carry])
        for acc, y in zip(stacks, outs[1 + n_carry :]):
            acc.append(y)
        i += 1
    ys = []
    for acc, info in zip(stacks, body.output[1 + n_carry :]):
        if acc:
            ys.append(arraystack.stack([arraystack.asarray(y) for y in acc]))
        else:
            from onnx import helper

            ys.append(
                numpy.zeros((0,), helper.tensor_dtype_to_np_dtype(info.type.tensor_type.elem_type))
            )
    return tuple(carry) + tuple(ys)


@dynamic
def _scan(xp, node, *operands):
    import arraystack

    env = node.interpreter.env
    body = node.attr("body")
    m = node.attr("num_scan_inputs")
    if node.opset < 9:
        raise node.error(
            "Scan before opset 9 (with sequence lengths) is not supported", UnsupportedOperatorError
        )
    init, xs = list(operands[: len(operands) - m]), list(operands[len(operands) - m :])
    in_axes = node.attr("scan_input_axes", [0] * m)
    in_dirs = node.attr("scan_input_directions", [0] * m)
    xs = [arraystack.moveaxis(x, a, 0) for x, a in zip(xs, in_axes)]
    xs = [arraystack.flip(x, 0) if d else x for x, d in zip(xs, in_dirs)]
    n_carry = len(init)

    def step(carry, slices):
        outs = _run(node, body, env, list(carry) + list(slices))
        return tuple(outs[:n_carry]), tuple(outs[n_carry:])

    carry, ys = arraystack.scan(step, tuple(init), tuple(xs))
    n_out = len(ys)
    out_axes = node.attr("scan_output_axes", [0] * n_out)
    out_dirs = node.attr("scan_output_directions", [0] * n_out)
    ys = [arraystack.flip(y, 0) if d else y for y, d in zip(ys, out_dirs)]
    ys = [
        arraystack.moveaxis(y, 0, a if a >= 0 else a + numpy.ndim(y)) for y, a in zip(ys, out_axes)
    ]
    return tuple(carry) + tuple(ys)


control_rules["If"] = dynamic(_if)
control_rules["Loop"] = _loop
control_rules["Scan"] = _scan

__all__ = ["control_rules"]
