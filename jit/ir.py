"""The IR as plain frozen data: Var, Literal, Eqn, Graph; a GraphBuilder to emit them; typecheck() to verify.

Meaning lives in the rule tables keyed by primitive, never here. Vars compare by identity; names exist only in
printed text. A param may hold a sub-Graph (control flow, fused regions).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from arraystack.ir.avals import ShapedArray, bfloat16, kind_of, slot_setters
from arraystack.ir.primitives import abstract_eval_rules


# Vars and Eqns are made for every traced equation and again by the passes. Their __init__ is
# written out: it stores each field through its slot's setter, bound once below the class (the
# generated frozen __init__ looks object.__setattr__ up for every field, itself slower than a setter).
_FRESH = object()  # Eqn's default params: a new dict


@dataclass(frozen=True, eq=False, slots=True)
class Var:
    aval: ShapedArray

    def __init__(self, aval: ShapedArray):
        _set_var_aval(self, aval)

    def __repr__(self):
        return f"Var({self.aval.str_short()})"


_set_var_aval = slot_setters(Var, "aval")


@dataclass(frozen=True, eq=False, slots=True)
class Literal:
    """A scalar constant written into the graph. `value` is a Python or NumPy scalar of `aval.dtype`."""

    value: object
    aval: ShapedArray

    def __init__(self, value, aval: ShapedArray):
        _set_literal_value(self, value)
        _set_literal_aval(self, aval)

    def __repr__(self):
        return f"Literal({self.value!r}:{self.aval.str_short()})"


_set_literal_value, _set_literal_aval = slot_setters(Literal, "value", "aval")


@dataclass(frozen=True, eq=False, slots=True)
class Eqn:
    prim: object
    inputs: tuple
    outputs: tuple
    params: dict = field(default_factory=dict)
    source: str | None = None  # the user's file:line that produced it

    def __init__(self, prim, inputs, outputs, params=_FRESH, source=None):
        _set_prim(self, prim)
        _set_inputs(self, inputs)
        _set_outputs(self, outputs)
        _set_params(self, {} if params is _FRESH else params)
        _set_source(self, source)

    def __repr__(self):
        return f"Eqn({self.prim.name}, {len(self.inputs)} in, {len(self.outputs)} out)"


_set_prim, _set_inputs, _set_outputs, _set_params, _set_source = slot_setters(
    Eqn, "prim", "inputs", "outputs", "params", "source"
)


# weakref_slot: facts derived from a graph (regions.region_layout) are cached as long as it lives
@dataclass(frozen=True, eq=False, slots=True, weakref_slot=True)
class Graph:
    inputs: tuple
    eqns: tuple
    outputs: tuple

    def __str__(self):
        from arraystack.ir.printer import print_graph

        return print_graph(self)

    def _repr_svg_(self):
        from arraystack.ir.drawing import draw

        return draw(self).svg

    def _repr_html_(self):
        """The picture in Jupyter; the printed IR in a <pre> if drawing fails."""
        try:
            return self._repr_svg_()
        except Exception:  # noqa: BLE001 - a notebook should always show something
            from html import escape

            return f"<pre>{escape(str(self))}</pre>"

    @property
    def in_avals(self):
        return tuple(v.aval for v in self.inputs)

    @property
    def out_avals(self):
        return tuple(v.aval for v in self.outputs)


def out_avals_of(prim, in_avals, params) -> tuple:
    """Apply the primitive's shape/dtype rule; always returns a tuple of avals."""
    rule = abstract_eval_rules.get(prim)
    if rule is None:
        raise NotImplementedError(f"primitive {prim.name} has no shape/dtype rule")
    # most rules take no params: then there is no dict to unpack
    out = rule(*in_avals, **params) if params else rule(*in_avals)
    return tuple(out) if prim.multiple_results else (out,)


class GraphBuilder:
    """Accumulates equations; `emit` applies the shape rule and returns the new output Vars."""

    def __init__(self):
        self.eqns: list[Eqn] = []

    def emit(self, prim, inputs, params=None, source=None) -> tuple:
        inputs = tuple(inputs)
        rule = None if prim.multiple_results else abstract_eval_rules.get(prim)
        # out_avals_of(), spelled out for the common cases (one operand, or two without params): a
        # plain call, which CPython 3.11 makes without a new C frame; rule(*avals) is not, and costs
        # ~2x more per eqn
        if rule is not None and len(inputs) == 2 and not params:
            outputs = (Var(rule(inputs[0].aval, inputs[1].aval)),)
        elif rule is not None and len(inputs) == 1:
            aval = inputs[0].aval
            outputs = (Var(rule(aval, **params) if params else rule(aval)),)
        else:
            outputs = tuple(map(Var, out_avals_of(prim, [x.aval for x in inputs], params)))
        self.eqns.append(Eqn(prim, inputs, outputs, params or {}, source))
        return outputs

    def build(self, inputs, outputs) -> Graph:
        return Graph(tuple(inputs), tuple(self.eqns), tuple(outputs))


class TypecheckError(Exception):
    """A graph that breaks an IR invariant; the message names the eqn index, primitive and source."""


def typecheck(graph: Graph) -> None:
    """Verify a graph: every Var bound once before use, literals are scalars of their dtype, and every eqn's
    output avals are what its shape rule gives. Sub-graphs in params are closed and checked the same way."""
    defined: set = set()
    for v in graph.inputs:
        _define(defined, v, "graph input")
    for n, eqn in enumerate(graph.eqns):
        where = _eqn_where(n, eqn)
        for x in eqn.inputs:
            _check_atom(defined, x, where)
        in_avals = [x.aval for x in eqn.inputs]
        try:
            expected = out_avals_of(eqn.prim, in_avals, eqn.params)
        except Exception as e:
            operands = ", ".join(a.str_short() for a in in_avals)
            raise TypecheckError(
                f"{where}: the shape rule rejects operands ({operands}) with params "
                f"{_params_text(eqn.params)}: {type(e).__name__}: {e}"
            ) from e
        if len(expected) != len(eqn.outputs):
            raise TypecheckError(
                f"{where}: {len(eqn.outputs)} outputs, the rule gives {len(expected)}"
            )
        for out, aval in zip(eqn.outputs, expected):
            if not isinstance(out, Var):
                raise TypecheckError(f"{where}: outputs must be Vars, got {out!r}")
            if out.aval != aval:
                raise TypecheckError(
                    f"{where}: output declared {out.aval.str_short()}, the rule gives {aval.str_short()}"
                )
            _define(defined, out, where)
        for key, value in eqn.params.items():
            for sub in sub_graphs(value):
                try:
                    typecheck(sub)
                except TypecheckError as e:
                    raise TypecheckError(f"{where}, in sub-graph {key}: {e}") from e
    for x in graph.outputs:
        _check_atom(defined, x, "graph output")


def sub_graphs(param) -> list:
    """The Graphs held by a param value: the value itself, or those inside a (nested) tuple."""
    if isinstance(param, Graph):
        return [param]
    if isinstance(param, (tuple, list)):
        return [g for item in param for g in sub_graphs(item)]
    return []


def _eqn_where(n: int, eqn: Eqn) -> str:
    name = getattr(eqn.prim, "name", repr(eqn.prim))
    at = f" at {eqn.source}" if eqn.source else ""
    return f"typecheck: eqn {n} `{name}`{at}"


def _params_text(params) -> str:
    items = ", ".join(
        f"{k}=<graph>" if isinstance(v, Graph) else f"{k}={v!r}" for k, v in sorted(params.items())
    )
    return "{" + items + "}"


def _define(defined, v, where):
    if not isinstance(v, Var):
        raise TypecheckError(f"{where}: expected a Var, got {v!r}")
    if v in defined:
        raise TypecheckError(f"{where}: {v!r} is assigned twice")
    defined.add(v)


def _check_atom(defined, x, where):
    if isinstance(x, Literal):
        _check_literal(x, where)
        return
    if not isinstance(x, Var):
        raise TypecheckError(f"{where}: expected a Var or Literal, got {x!r}")
    if x not in defined:
        raise TypecheckError(f"{where}: {x!r} is used before it is defined")


_SCALAR_KINDS = {
    "b": (bool, np.bool_),
    "iu": (int, np.integer),
    "f": (int, float, np.integer, np.floating, bfloat16.type),  # ml_dtypes' scalar is no np.floating
}


def _check_literal(lit, where):
    aval = lit.aval
    if aval.shape != ():
        raise TypecheckError(f"{where}: literals must be scalars, got {lit!r}")
    kind = kind_of(aval.dtype)
    allowed = next((types for kinds, types in _SCALAR_KINDS.items() if kind in kinds), None)
    allowed = allowed or (int, float, complex, np.number)
    value = lit.value
    if isinstance(value, (bool, np.bool_)) and kind != "b":
        allowed = ()
    if not isinstance(value, allowed):
        raise TypecheckError(
            f"{where}: {lit!r} holds a {type(value).__name__}, not a scalar of {aval.dtype.name}"
        )
    if kind in "iu":
        info = np.iinfo(aval.dtype)
        if not info.min <= int(value) <= info.max:
            raise TypecheckError(f"{where}: {lit!r} is out of range for {aval.dtype.name}")


# -- structural equality --------------------------------------------------------------------------------------


def graphs_equal(a: Graph, b: Graph, sources: bool = True) -> bool:
    """True when the graphs are the same up to renaming Vars (and, with sources=False, source lines)."""
    return graph_difference(a, b, sources) is None


def graph_difference(a: Graph, b: Graph, sources: bool = True) -> str | None:
    """The first structural difference between two graphs, described in words; None if there is none."""
    env: dict = {}
    if len(a.inputs) != len(b.inputs):
        return f"{len(a.inputs)} vs {len(b.inputs)} inputs"
    for n, (x, y) in enumerate(zip(a.inputs, b.inputs)):
        if x.aval != y.aval:
            return f"input {n}: {x.aval.str_short()} vs {y.aval.str_short()}"
        env[x] = y
    if len(a.eqns) != len(b.eqns):
        return f"{len(a.eqns)} vs {len(b.eqns)} eqns"
    for n, (e, f) in enumerate(zip(a.eqns, b.eqns)):
        diff = _eqn_difference(env, e, f, sources)
        if diff is not None:
            return f"eqn {n} ({e.prim.name}): {diff}"
    if len(a.outputs) != len(b.outputs):
        return f"{len(a.outputs)} vs {len(b.outputs)} outputs"
    for n, (x, y) in enumerate(zip(a.outputs, b.outputs)):
        if not _same_atom(env, x, y):
            return f"output {n}: {x!r} vs {y!r}"
    return None


def _eqn_difference(env, e, f, sources):
    if e.prim is not f.prim:
        return f"primitive {e.prim.name} vs {f.prim.name}"
    if sources and e.source != f.source:
        return f"source {e.source} vs {f.source}"
    if len(e.inputs) != len(f.inputs) or len(e.outputs) != len(f.outputs):
        return "different numbers of inputs or outputs"
    for n, (x, y) in enumerate(zip(e.inputs, f.inputs)):
        if not _same_atom(env, x, y):
            return f"input {n}: {x!r} vs {y!r}"
    if sorted(e.params) != sorted(f.params):
        return f"param names {sorted(e.params)} vs {sorted(f.params)}"
    for key in e.params:
        diff = _param_difference(e.params[key], f.params[key], sources)
        if diff is not None:
            return f"param {key}: {diff}"
    for x, y in zip(e.outputs, f.outputs):
        if x.aval != y.aval:
            return f"output {x.aval.str_short()} vs {y.aval.str_short()}"
        env[x] = y
    return None


def _same_atom(env, x, y) -> bool:
    if isinstance(x, Literal) and isinstance(y, Literal):
        return x.aval == y.aval and _same_scalar(x.value, y.value)
    return isinstance(x, Var) and isinstance(y, Var) and env.get(x) is y


def _same_scalar(x, y) -> bool:
    """Equal numbers, where NaN equals NaN and -0.0 differs from 0.0 (the printer keeps both apart)."""
    if isinstance(x, (bool, np.bool_)) or isinstance(y, (bool, np.bool_)):
        return isinstance(x, (bool, np.bool_)) and isinstance(y, (bool, np.bool_)) and x == y
    cx, cy = complex(x), complex(y)
    return all(
        (p == q and math.copysign(1, p) == math.copysign(1, q)) or (math.isnan(p) and math.isnan(q))
        for p, q in ((cx.real, cy.real), (cx.imag, cy.imag))
    ) and (not isinstance(x, (int, np.integer)) or int(x) == int(y))


def _param_difference(x, y, sources) -> str | None:
    if isinstance(x, Graph) and isinstance(y, Graph):
        diff = graph_difference(x, y, sources)
        return None if diff is None else f"sub-graph: {diff}"
    if isinstance(x, (tuple, list)) and isinstance(y, (tuple, list)) and len(x) == len(y):
        for n, (p, q) in enumerate(zip(x, y)):
            diff = _param_difference(p, q, sources)
            if diff is not None:
                return f"item {n}: {diff}"
        return None
    return None if _same_param(x, y) else f"{x!r} vs {y!r}"


def _same_param(x, y) -> bool:
    if isinstance(x, (Graph, tuple, list)) or isinstance(y, (Graph, tuple, list)):
        return False
    if isinstance(x, bool) != isinstance(y, bool):
        return False
    if isinstance(x, (float, complex)) and isinstance(y, (float, complex)):
        return _same_scalar(x, y)
    try:
        return bool(x == y) and type(x == y) is not np.ndarray
    except (TypeError, ValueError):
        return False
