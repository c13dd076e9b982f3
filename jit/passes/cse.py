"""eliminate_common_subexpressions: equations with the same primitive, params and inputs are computed once."""

from __future__ import annotations

from arraystack.ir.ir import Eqn, Graph, Literal
from arraystack.ir.passes.pipeline import count, visit


def _atom_key(x):
    """A Var stands for itself (Vars compare by identity); Literals are equal by dtype, type and value."""
    if isinstance(x, Literal):
        return ("lit", x.aval, type(x.value).__name__, repr(x.value))
    return x


def _params_key(params):
    if not params:
        return ()
    try:
        return frozenset(params.items())  # equal for equal params, whatever their order
    except TypeError:  # unhashable params: never merged
        return None


def eliminate_common_subexpressions(graph: Graph) -> Graph:
    rename: dict = {}  # output of a merged equation -> the same output of the first one
    seen: dict = {}
    eqns = []
    for index, eqn in enumerate(graph.eqns):
        visit(index, eqn)
        inputs = eqn.inputs
        if rename and not rename.keys().isdisjoint(inputs):
            inputs = tuple(rename.get(x, x) for x in inputs)  # Literals are never renamed
        params_key = _params_key(eqn.params)
        key = None
        if params_key is not None:
            key = (eqn.prim, params_key, tuple(map(_atom_key, inputs)))
            previous = seen.get(key)
            if previous is not None:
                rename.update(zip(eqn.outputs, previous.outputs))
                count("merged")
                continue
        if inputs is not eqn.inputs:
            eqn = Eqn(eqn.prim, inputs, eqn.outputs, eqn.params, eqn.source)
        if key is not None:
            seen[key] = eqn
        eqns.append(eqn)
    if not rename:
        return graph
    outputs = tuple(rename.get(x, x) for x in graph.outputs)
    return Graph(graph.inputs, tuple(eqns), outputs)
