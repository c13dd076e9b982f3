"""eliminate_common_subexpressions: equations with the same primitive, params and inputs are computed once."""

from __future__ import annotations

from arraystack.ir.ir import Eqn, Graph, Literal
from arraystack.ir.passes.pipeline import count, visit


def _atom_key(x, rename):
    if isinstance(x, Literal):
        return ("lit", x.aval, type(x.value).__name__, repr(x.value))
    return ("var", id(rename.get(x, x)))


def _params_key(params):
    try:
        key = tuple(sorted(params.items()))
        hash(key)
        return key
    except TypeError:  # unhashable params (e.g. sub-graphs): never merged
        return None


def eliminate_common_subexpressions(graph: Graph) -> Graph:
    rename: dict = {}
    seen: dict = {}
    eqns = []
    for index, eqn in enumerate(graph.eqns):
        visit(index, eqn)
        inputs = tuple(rename.get(x, x) if not isinstance(x, Literal) else x for x in eqn.inputs)
        params_key = _params_key(eqn.params)
        key = None
        if params_key is not None:
            key = (eqn.prim, params_key, tuple(_atom_key(x, rename) for x in inputs))
            previous = seen.get(key)
            if previous is not None:
                rename.update(zip(eqn.outputs, previous.outputs))
                count("merged")
                continue
        new = (
            eqn
            if inputs == eqn.inputs
            else Eqn(eqn.prim, inputs, eqn.outputs, eqn.params, eqn.source)
        )
        if key is not None:
            seen[key] = new
        eqns.append(new)
    if not rename:
        return graph
    outputs = tuple(rename.get(x, x) if not isinstance(x, Literal) else x for x in graph.outputs)
    return Graph(graph.inputs, tuple(eqns), outputs)
