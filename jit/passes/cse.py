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


def _key(eqn):
    """What two equations of one primitive must share to be merged; None if nothing may merge with eqn."""
    params_key = _params_key(eqn.params)
    if params_key is None:
        return None
    return params_key, tuple(map(_atom_key, eqn.inputs))


def eliminate_common_subexpressions(graph: Graph) -> Graph:
    rename: dict = {}  # output of a merged equation -> the same output of the first one
    # (primitive, Var inputs) -> the equations kept so far that have them: only these may merge, so the
    # full key (params, Literal values) is built for the few equations that share primitive and Vars
    candidates: dict = {}
    eqns = []
    for index, eqn in enumerate(graph.eqns):
        try:
            eqn = _rename_or_merge(eqn, rename, candidates)
        except Exception:
            visit(index, eqn)
            raise
        if eqn is not None:
            eqns.append(eqn)
    if not rename:
        return graph
    outputs = tuple(rename.get(x, x) for x in graph.outputs)
    return Graph(graph.inputs, tuple(eqns), outputs)


def _rename_or_merge(eqn, rename, candidates):
    """eqn with renamed inputs, or None when an earlier equation computes the same (recorded in rename)."""
    if rename and not rename.keys().isdisjoint(eqn.inputs):
        inputs = tuple(rename.get(x, x) for x in eqn.inputs)  # Literals are never renamed
        eqn = Eqn(eqn.prim, inputs, eqn.outputs, eqn.params, eqn.source)
    inputs = tuple(eqn.inputs)
    for x in inputs:
        if isinstance(x, Literal):
            inputs = tuple(None if isinstance(y, Literal) else y for y in inputs)
            break
    coarse = (eqn.prim, inputs)
    earlier = candidates.get(coarse)
    if earlier is None:
        candidates[coarse] = [eqn]
        return eqn
    key = _key(eqn)
    if key is not None:
        for previous in earlier:
            if _key(previous) == key:
                rename.update(zip(eqn.outputs, previous.outputs))
                count("merged")
                return None
    earlier.append(eqn)
    return eqn
