"""fold_constants: an equation whose inputs are all Literals and whose result is a scalar is evaluated now
(through its reference rule, so folding cannot change a result) and replaced by a Literal."""

from __future__ import annotations

import numpy as np
from arraystack.ir.ir import Eqn, Graph, Literal
from arraystack.ir.passes.pipeline import count, visit
from arraystack.ir.reference import reference_rules


def _fold(eqn):
    """The Literal an equation computes, or None. Called with np.errstate(all="ignore") on."""
    if eqn.prim.multiple_results or len(eqn.outputs) != 1 or eqn.outputs[0].aval.shape != ():
        return None
    if not eqn.inputs or not all(isinstance(x, Literal) for x in eqn.inputs):
        return None
    if any(
        not isinstance(v, (int, float, bool, complex, str, tuple, np.dtype))
        for v in eqn.params.values()
    ):
        return None
    aval = eqn.outputs[0].aval
    value = reference_rules[eqn.prim](
        np, *[np.asarray(x.value, x.aval.dtype) for x in eqn.inputs], **eqn.params
    )
    value = np.asarray(value)
    if value.shape != () or value.dtype != aval.dtype:
        return None
    return Literal(value[()], aval)


def fold_constants(graph: Graph) -> Graph:
    replace: dict = {}
    eqns = []
    with np.errstate(all="ignore"):
        for index, eqn in enumerate(graph.eqns):
            inputs = eqn.inputs
            if replace and not replace.keys().isdisjoint(inputs):
                inputs = tuple(replace.get(x, x) for x in inputs)  # Literals are never replaced
                eqn = Eqn(eqn.prim, inputs, eqn.outputs, eqn.params, eqn.source)
            # only equations that read nothing but Literals fold: most read a Var first
            if inputs and isinstance(inputs[0], Literal):
                try:
                    literal = _fold(eqn)
                except Exception:
                    visit(index, eqn)
                    raise
                if literal is not None:
                    replace[eqn.outputs[0]] = literal
                    count("folded")
                    continue
            eqns.append(eqn)
    if not replace:
        return graph
    outputs = tuple(replace.get(x, x) for x in graph.outputs)
    return Graph(graph.inputs, tuple(eqns), outputs)
