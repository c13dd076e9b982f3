"""vmap: a BatchTrace carries values with a leading batch axis through `batch_rules`.

The function sees per-example avals (the Tracer's aval drops the batch axis); the value in `tracer.data`
has the batch axis first. Rule convention: `batch_rules[p](size, args, batched, **params) -> output` where
`args[i]` has the batch axis first when `batched[i]` (else it is an unbatched operand, shared by every
example), and the output (each output, for multi-result primitives) has the batch axis first.
"""

from __future__ import annotations

import threading

from arraystack.ir import primitives as p
from arraystack.ir.core import EscapedTracerError, Tracer, below, bind_below, pop_trace, push_trace, trace_state
from arraystack.ir.core import user_line
from arraystack.ir.ir import Var
from arraystack.ir.ad import ops

batch_rules: dict = {}
# Primitives whose batch rule also runs on unbatched operands while some examples are dropped (live_lanes):
# their check must not fail for a dropped example, e.g. an unbatched gather in a branch no example takes.
lane_checked: set = set()


class _Running(threading.local):
    """Per thread: the BatchTraces whose rules are running, innermost last."""

    def __init__(self):
        self.traces = []


_running = _Running()


def live_lanes():
    """The examples whose results the running batch rule's caller keeps: a (size,) bool one level under its
    trace, or None when it keeps every one. A batched switch runs each branch on every example and a
    per-example while steps finished examples too; a rule whose check could fail on a dropped example's
    operands (gather's "raise") checks only the kept ones."""
    traces = _running.traces
    return traces[-1].live if traces else None


class BatchTrace:
    def __init__(self, size: int, live=None):
        self.size = size
        self.parent = None
        self.finished = False
        # a trace made by a running rule (a batched sub-graph) keeps that rule's lanes and narrows them
        outer = live_lanes()
        if outer is not None and ops.shape(outer) != (size,):
            outer = None
        if outer is not None and live is not None:
            live = ops.binop(p.and_p, outer, live)
        self.live = outer if live is None else live

    def new_input(self, value) -> Tracer:
        """`value` has the batch axis first."""
        a = ops.aval(value)
        return Tracer(self, Var(a.update(shape=a.shape[1:])), value)

    def process(self, prim, args, params):
        values = list(args)
        batched = [False] * len(args)
        for i, a in enumerate(args):
            if type(a) is Tracer:
                if a.trace is self:
                    values[i] = a.data
                    batched[i] = True
                elif a.trace.finished:
                    raise EscapedTracerError(
                        f"a traced value {a.aval.str_short()} from a finished trace was used at {user_line()}"
                    )
        if not any(batched) and (self.live is None or prim not in lane_checked):
            return bind_below(self, prim, values, params)
        rule = batch_rules.get(prim)
        if rule is None:
            raise NotImplementedError(f"vmap of {prim.name} is not implemented (at {user_line()})")
        _running.traces.append(self)
        try:
            with below(self):
                out = rule(self.size, values, tuple(batched), **params)
        finally:
            _running.traces.pop()
        if prim.multiple_results:
            return tuple(self.new_input(o) for o in out)
        return self.new_input(out)


def vmap(fun, args, batched, size, live=None):
    """Run `fun(*operands) -> list of raw outputs` once for a batch: `args[i]` has the batch axis first where
    `batched[i]`. Returns the outputs, each with the batch axis first (unbatched results are broadcast).
    `live`: the examples whose results the caller keeps (see live_lanes), None for all."""
    trace = BatchTrace(size, live)
    trace.parent = trace_state.top
    operands = [trace.new_input(a) if b else a for a, b in zip(args, batched)]
    push_trace(trace)
    try:
        outs = fun(*operands)
    finally:
        pop_trace(trace)
    result = []
    for o in outs:
        if type(o) is Tracer and o.trace is trace:
            result.append(o.data)
        else:
            a = ops.aval(o)
            result.append(ops.broadcast_in_dim(o, (size,) + a.shape, tuple(range(1, a.ndim + 1))))
    return result


def move_to_front(x, batched, size):
    """An operand with the batch axis first: batched values as they are, others broadcast along it."""
    if batched:
        return x
    a = ops.aval(x)
    return ops.broadcast_in_dim(x, (size,) + a.shape, tuple(range(1, a.ndim + 1)))


__all__ = ["BatchTrace", "vmap", "batch_rules", "lane_checked", "live_lanes", "move_to_front"]
