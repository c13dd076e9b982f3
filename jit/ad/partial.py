"""Partial evaluation: trace only what depends on some inputs, evaluate the rest now.

A PartialGraphTrace records an equation only when one of its operands is one of its own tracers; every other
equation is evaluated one level down at once and enters the graph as a captured value. Running a JVP with
known primals and traced tangents under it splits the computation the way `linearize` needs: the primal
computation happens now, and the graph keeps only the (linear) tangent computation, with the residuals it
needs (cos(x), the masks of relu ...) as captured inputs.
"""

from __future__ import annotations

from arraystack.ir.core import Tracer, bind_below, pop_trace, push_trace, trace_state
from arraystack.ir.trace import GraphTrace, eval_graph
from arraystack.ir.ad import forward, ops


class PartialGraphTrace(GraphTrace):
    def __init__(self):
        super().__init__()
        self.parent = None

    def process(self, prim, args, params):
        if any(type(a) is Tracer and a.trace is self for a in args):
            return super().process(prim, args, params)
        return bind_below(self, prim, args, params)


def linearize_flat(fun, primals):
    """(outputs, linear) where linear(tangents) -> output tangents, a replay of the recorded tangent graph."""
    trace = PartialGraphTrace()
    trace.parent = trace_state.top
    tangent_in = [trace.new_arg(ops.aval(x)) for x in primals]
    push_trace(trace)
    try:
        outs, touts = forward.jvp(fun, primals, tangent_in)
        touts = [ops.zeros_like(o) if t is None else t for t, o in zip(touts, outs)]
        graph = trace.to_graph(touts)
    finally:
        pop_trace(trace)
    consts = list(trace.const_values)

    def linear(tangents):
        return eval_graph(graph, *tangents, *consts)

    linear.graph = graph
    return outs, linear


__all__ = ["PartialGraphTrace", "linearize_flat"]
