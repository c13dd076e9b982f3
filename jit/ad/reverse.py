"""Reverse mode: a tape of primitive applications and a backward sweep over `vjp_rules`.

A TapeTrace sits on the trace stack while the function runs. Each operation is evaluated one level down
(eagerly, or recorded by the jit or transformation trace below) and, when it touched a value being
differentiated, appended to the tape with its inputs and outputs. The backward sweep walks the tape in
reverse and applies `vjp_rules`, which bind primitives one level down too: under jit, forward and backward
end up in one graph; under another grad, the backward pass is itself differentiated.

Rule convention: `vjp_rules[p](ct, out, needs, *primals, **params) -> cotangent per primal (None = zero)`.
`ct` is the output cotangent (a list for multi-result primitives, zeros filled in), `out` the primal output
(a tuple for multi-result primitives), `needs[i]` whether primal i is being differentiated (rules may skip
the others). Cotangents have their primal's shape and dtype; the sweep checks this.
"""

from __future__ import annotations

from arraystack.ir.avals import kind_of
from arraystack.ir.core import (
    EscapedTracerError,
    Tracer,
    below,
    bind_below,
    pop_trace,
    push_trace,
    trace_state,
    user_line,
)
from arraystack.ir.ir import Var
from arraystack.ir.ad import ops

vjp_rules: dict = {}


class NotDifferentiableError(TypeError):
    """Reverse mode was asked for through an operation that has no derivative rule."""


class TapeTrace:
    """Records, for one differentiation, the operations that depend on its inputs."""

    def __init__(self):
        self.parent = None
        self.tape: list = []  # (rule, args, params, outputs); rule(ct, out, needs, *primals, **params)
        self.finished = False

    def new_input(self, primal) -> Tracer:
        return Tracer(self, Var(ops.aval(primal)), primal)

    def to_concrete(self, tracer, what):
        primal = tracer.data
        return primal.concrete(what) if type(primal) is Tracer else primal

    def _primals(self, args):
        primals = []
        live = False
        for a in args:
            if type(a) is Tracer:
                if a.trace is self:
                    primals.append(a.data)
                    live = True
                    continue
                if a.trace.finished:
                    raise EscapedTracerError(
                        f"a traced value {a.aval.str_short()} from a finished trace was used at {user_line()}"
                    )
            primals.append(a)
        return primals, live

    def process(self, prim, args, params):
        primals, live = self._primals(args)
        out = bind_below(self, prim, primals, params)
        if not live:
            return out
        multiple = prim.multiple_results
        if multiple:
            inexact = any(kind_of(ops.aval(o).dtype) in "fc" for o in out)
        else:
            aval = ops.aval(out)
            inexact = kind_of(aval.dtype) in "fc"
        if not inexact:
            return out  # boolean/integer results carry no derivative
        rule = vjp_rules.get(prim)
        if rule is None:
            raise NotDifferentiableError(
                f"reverse-mode differentiation of {prim.name} is not implemented (at {user_line()})"
            )
        if multiple:
            return self.record(rule, args, params, out, True)
        # record(), for the common case of one inexact result
        tracer = Tracer(self, Var(aval), out)
        self.tape.append((rule, tuple(args), params, (tracer,), False))
        return tracer

    def record(self, rule, args, params, out, multiple):
        """Append one tape entry; returns `out` with its inexact values replaced by this trace's tracers."""
        wrapped = []
        for o in out if multiple else (out,):
            aval = ops.aval(o)
            wrapped.append(Tracer(self, Var(aval), o) if kind_of(aval.dtype) in "fc" else o)
        wrapped = tuple(wrapped)
        self.tape.append((rule, tuple(args), params, wrapped, multiple))
        return wrapped if multiple else wrapped[0]

    def backward(self, outputs, cotangents, inputs):
        """Cotangents of `inputs` (this trace's input tracers) given those of `outputs`. Runs after this
        trace has finished, at whatever level is current: eager, or recorded by the active trace."""
        env: dict = {}
        for o, c in zip(outputs, cotangents):
            if type(o) is Tracer and o.trace is self and c is not None:
                _accumulate(env, o, c)
        for rule, args, params, outs, multiple in reversed(self.tape):
            if multiple:
                cts = [env.pop(o.var, None) if self._owns(o) else None for o in outs]
                if all(c is None for c in cts):
                    continue
                out = tuple(o.data if self._owns(o) else o for o in outs)
                ct = [ops.zeros_like(p) if c is None else c for c, p in zip(cts, out)]
            else:
                (o,) = outs
                ct = env.pop(o.var, None) if type(o) is Tracer and o.trace is self else None
                if ct is None:
                    continue
                out = o.data
            needs, primals = [], []
            for a in args:
                need = type(a) is Tracer and a.trace is self
                needs.append(need)
                primals.append(a.data if need else a)
            needs = tuple(needs)
            # the common calls spelled out: a plain call, without the new C frame of rule(*primals)
            if not params and len(primals) == 2:
                cts_in = rule(ct, out, needs, primals[0], primals[1])
            elif not params and len(primals) == 1:
                cts_in = rule(ct, out, needs, primals[0])
            else:
                cts_in = rule(ct, out, needs, *primals, **params)
            for a, n, c in zip(args, needs, cts_in):
                if n and c is not None:
                    _accumulate(env, a, c, rule)
        return [env.get(x.var) for x in inputs]

    def _owns(self, x) -> bool:
        return type(x) is Tracer and x.trace is self


def _accumulate(env, tracer, ct, rule=None):
    want = tracer.var.aval
    got = ops.aval(ct)
    if got.shape != want.shape or got.dtype != want.dtype:
        name = getattr(rule, "__qualname__", "an output cotangent")
        raise TypeError(
            f"cotangent {got.str_short()} does not match its primal {want.str_short()} (from {name}); "
            "cotangents must have the primal's shape and dtype"
        )
    prev = env.get(tracer.var)
    env[tracer.var] = ct if prev is None else ops.add(prev, ct)


def vjp(fun, primals):
    """Run `fun(*tracers) -> list of raw outputs` recording a tape; returns (outputs, backward) where
    `outputs` are the primal results and `backward(cotangents) -> input cotangents (None = zero)`."""
    trace = TapeTrace()
    trace.parent = trace_state.top
    tracers = [trace.new_input(x) for x in primals]
    push_trace(trace)
    try:
        outs = fun(*tracers)
    finally:
        pop_trace(trace)
    primal_outs = [o.data if type(o) is Tracer and o.trace is trace else o for o in outs]

    def backward(cotangents):
        return trace.backward(outs, cotangents, tracers)

    return primal_outs, backward


def custom_record(rule, args, out, multiple=True):
    """For custom_vjp and checkpoint: record an entry with its own rule on the innermost tape, if any of
    `args` is being differentiated by it. Returns the wrapped outputs, or None when no tape tracks args."""
    top = trace_state.top
    if not isinstance(top, TapeTrace) or not any(type(a) is Tracer and a.trace is top for a in args):
        return None
    return top.record(rule, args, {}, out, multiple)


__all__ = ["TapeTrace", "vjp", "vjp_rules", "custom_record", "below", "NotDifferentiableError"]
