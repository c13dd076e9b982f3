"""Tracing a function into a Graph (GraphTrace, make_graph) and evaluating a Graph (eval_graph).

A GraphTrace sits on the trace stack while a function runs on Tracers; every bind() records an Eqn. Values
from outside the trace (concrete arrays, Tracers of an outer trace) are captured as extra graph inputs,
never frozen in as constants; Python and NumPy scalars become Literals. The trace also keeps the casts of
weakly typed integers (a Python int argument's trace) that the frontend notes where NumPy would check a
Python int's range (note_weak_int_cast; arraystack.jit checks them on every call).
"""

from __future__ import annotations

import sys

import numpy as np

from arraystack.ir.avals import ShapedArray, aval_of_concrete
from arraystack.ir.core import (
    EscapedTracerError,
    Tracer,
    bind,
    note_traced_line,
    pop_trace,
    push_trace,
    source_from,
    user_line,
)
from arraystack.ir.ir import Graph, GraphBuilder, Literal, Var

_PY_SCALARS = (bool, int, float, complex)


class GraphTrace:
    def __init__(self):
        self.builder = GraphBuilder()
        self.arg_vars: list[Var] = []
        self.const_vars: list[Var] = []
        self.const_values: list = []
        self._captured: dict[int, Var] = {}
        self.weak_int_casts: list[tuple[Var, np.dtype]] = []  # (weak integer Var, its new dtype)
        self.finished = False

    def new_arg(self, aval: ShapedArray) -> Tracer:
        var = Var(aval)
        self.arg_vars.append(var)
        return Tracer(self, var)

    def lift(self, x):
        """The Var or Literal standing for operand `x` in this trace."""
        if type(x) is Tracer:
            if x.trace is self:
                return x.var
            if x.trace.finished:
                raise EscapedTracerError(
                    f"a traced value {x.aval.str_short()} from a trace that has ended was used at "
                    f"{user_line()}; return values from transformed functions instead of storing them"
                )
            return self._capture(x, x.aval)
        if isinstance(x, np.generic):  # before the Python check: np.float64 subclasses float
            return Literal(x, ShapedArray((), x.dtype))
        if isinstance(x, _PY_SCALARS):
            return Literal(x, aval_of_concrete(x))
        if hasattr(x, "shape") and hasattr(x, "dtype"):
            return self._capture(x, ShapedArray(tuple(x.shape), np.dtype(x.dtype)))
        raise TypeError(f"{type(x).__name__} is not a valid array operand")

    def _capture(self, value, aval):
        var = self._captured.get(id(value))
        if var is None:
            var = Var(aval)
            self._captured[id(value)] = var
            self.const_vars.append(var)
            self.const_values.append(value)  # keeps `value` alive, so its id stays unique
        return var

    def process(self, prim, args, params):
        inputs = tuple(  # lift(), with its common case (a Tracer of this trace) inline
            [a.var if type(a) is Tracer and a.trace is self else self.lift(a) for a in args]
        )
        outputs = self.builder.emit(prim, inputs, params, source_from(sys._getframe(1)))
        if prim.multiple_results:
            return tuple(Tracer(self, v) for v in outputs)
        return Tracer(self, outputs[0])

    def to_graph(self, outputs) -> Graph:
        out_atoms = [self.lift(x) for x in outputs]
        return self.builder.build(self.arg_vars + self.const_vars, out_atoms)


def note_weak_int_cast(tracer, dtype) -> None:
    """The frontend casts `tracer`, a weakly typed integer (the trace of a Python int), to the integer
    `dtype` where NumPy casts a Python int operand and checks that it is in the dtype's range: the graph
    trace building it keeps a note, so that the value can be checked when it is known."""
    aval = tracer.var.aval
    dtype = np.dtype(dtype)
    weak_int = aval.weak_type and aval.dtype.kind in "iu"
    if weak_int and isinstance(tracer.trace, GraphTrace) and dtype.kind in "iu" and dtype != aval.dtype:
        tracer.trace.weak_int_casts.append((tracer.var, dtype))


def make_graph(fn, in_avals, weak_int_casts=None) -> tuple[Graph, list]:
    """Trace `fn(*tracers) -> sequence of values` on abstract inputs.

    Returns (graph, consts): the graph's inputs are the arguments followed by one input per captured value,
    and `consts` lists those captured values in order (concrete arrays or outer Tracers). A list passed as
    `weak_int_casts` receives the (Var, dtype) of each cast noted by note_weak_int_cast.
    """
    trace = GraphTrace()
    args = [trace.new_arg(a) for a in in_avals]
    push_trace(trace)
    try:
        outputs = fn(*args)
        graph = trace.to_graph(outputs)
        if weak_int_casts is not None:
            weak_int_casts.extend(trace.weak_int_casts)
    except Exception as error:
        note_traced_line(error)
        raise
    finally:
        pop_trace(trace)
    return graph, trace.const_values


def eval_graph(graph: Graph, *args) -> list:
    """Run a graph by binding each equation: eager when no trace is active, inlined into one otherwise.
    Each value is dropped after its last use, so eager evaluation holds no more than the graph needs."""
    if len(args) != len(graph.inputs):
        raise TypeError(f"graph takes {len(graph.inputs)} inputs, got {len(args)}")
    env = dict(zip(graph.inputs, args))
    dead = _dead_after(graph)

    def read(atom):
        return atom.value if isinstance(atom, Literal) else env[atom]

    for k, eqn in enumerate(graph.eqns):
        out = bind(eqn.prim, *[read(x) for x in eqn.inputs], **eqn.params)
        if eqn.prim.multiple_results:
            env.update(zip(eqn.outputs, out))
        else:
            env[eqn.outputs[0]] = out
        for v in dead[k]:
            env.pop(v, None)
    return [read(x) for x in graph.outputs]


_DEAD_CACHE: dict = {}


def _dead_after(graph: Graph) -> list:
    """Per equation, the values whose last use it is (graph outputs live to the end)."""
    hit = _DEAD_CACHE.get(id(graph))
    if hit is not None and hit[0] is graph:
        return hit[1]
    last = {}
    for k, eqn in enumerate(graph.eqns):
        for x in eqn.inputs:
            if isinstance(x, Var):
                last[x] = k
        for v in eqn.outputs:
            last.setdefault(v, k)
    for x in graph.outputs:
        if isinstance(x, Var):
            last.pop(x, None)
    dead = [[] for _ in graph.eqns]
    for v, k in last.items():
        dead[k].append(v)
    if len(_DEAD_CACHE) > 1024:
        _DEAD_CACHE.clear()
    _DEAD_CACHE[id(graph)] = (graph, dead)  # holds the graph, so its id is not reused while cached
    return dead
