"""Forward mode: a JVPTrace carries (primal, tangent) pairs through `jvp_rules`.

Rule convention: `jvp_rules[p](primals, tangents, out, **params) -> output tangent` (a list for multi-result
primitives). `tangents[i]` is None where the operand's tangent is zero; `out` is the primal output, already
computed one level down; the rule may return None for a zero tangent. Tangents have their primal's shape and
dtype. Integer and boolean outputs carry no tangent: they leave the trace as plain values.
"""

from __future__ import annotations

from arraystack.ir.core import EscapedTracerError, Tracer, below, bind_below, pop_trace, push_trace, trace_state
from arraystack.ir.core import user_line
from arraystack.ir.ir import Var
from arraystack.ir.ad import ops
from arraystack.ir.avals import kind_of

jvp_rules: dict = {}


class JVPTrace:
    def __init__(self):
        self.parent = None
        self.finished = False

    def new_input(self, primal, tangent) -> Tracer:
        return Tracer(self, Var(ops.aval(primal)), (primal, tangent))

    def to_concrete(self, tracer, what):
        primal = tracer.data[0]
        return primal.concrete(what) if type(primal) is Tracer else primal

    def process(self, prim, args, params):
        primals = list(args)
        tangents = [None] * len(args)
        live = False
        for i, a in enumerate(args):
            if type(a) is Tracer:
                if a.trace is self:
                    primals[i], tangents[i] = a.data
                    live = True
                elif a.trace.finished:
                    raise EscapedTracerError(
                        f"a traced value {a.aval.str_short()} from a finished trace was used at {user_line()}"
                    )
        out = bind_below(self, prim, primals, params)
        if not live or all(t is None for t in tangents):
            return out
        if not any(kind_of(ops.aval(o).dtype) in "fc" for o in (out if prim.multiple_results else (out,))):
            return out  # boolean/integer results carry no tangent
        rule = jvp_rules.get(prim)
        if rule is None:
            raise TypeError(f"forward-mode differentiation of {prim.name} is not implemented (at {user_line()})")
        with below(self):
            t_out = rule(primals, tangents, out, **params)
        if prim.multiple_results:
            return tuple(self._wrap(o, t) for o, t in zip(out, t_out))
        return self._wrap(out, t_out)

    def _wrap(self, primal, tangent):
        a = ops.aval(primal)
        if kind_of(a.dtype) not in "fc":
            return primal
        if tangent is not None:
            ta = ops.aval(tangent)
            if ta.shape != a.shape or ta.dtype != a.dtype:
                raise TypeError(f"tangent {ta.str_short()} does not match its primal {a.str_short()}")
        return Tracer(self, Var(a), (primal, tangent))


def jvp(fun, primals, tangents):
    """Run `fun(*tracers) -> list of raw outputs` on (primal, tangent) pairs; returns (outputs, tangents),
    with None for outputs whose tangent is zero (they do not depend on the inputs)."""
    trace = JVPTrace()
    trace.parent = trace_state.top
    tracers = [trace.new_input(x, t) for x, t in zip(primals, tangents)]
    push_trace(trace)
    try:
        outs = fun(*tracers)
    finally:
        pop_trace(trace)
    primal_outs, tangent_outs = [], []
    for o in outs:
        if type(o) is Tracer and o.trace is trace:
            primal_outs.append(o.data[0])
            tangent_outs.append(o.data[1])
        else:
            primal_outs.append(o)
            tangent_outs.append(None)
    return primal_outs, tangent_outs


__all__ = ["JVPTrace", "jvp", "jvp_rules"]
