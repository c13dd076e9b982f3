"""merge_scans: two scans over the same operands whose bodies compute the same carries become one scan that
stacks both scans' per-step outputs.

Reverse-mode differentiation of a scan runs the loop forward a second time to stack the carry entering each
step (jit/ad/rules_scan.py), beside the forward loop that computed the function's value: the same loop over
the same operands, twice. Merged, the loop runs once and yields both sets of ys (a GRU's value and gradient:
one forward pass instead of two). Bodies compute "the same carries" when their carry outputs, with what they
need and nothing else, print identically (sources aside): same equations, parameters and literals on the same
operands. The second body's equations that its ys need are added to the first's (renamed onto its inputs);
those that only recomputed the carries are dead there and dropped.
"""

from __future__ import annotations

from arraystack.ir.control import scan_p
from arraystack.ir.ir import Eqn, Graph, Literal
from arraystack.ir.passes.dce import eliminate_dead_code
from arraystack.ir.passes.pipeline import count
from arraystack.ir.printer import print_graph

_LOOP_PARAMS = ("nconsts", "ncarry", "length", "reverse")


def _carry_text(body, ncarry) -> str:
    carries = Graph(body.inputs, body.eqns, tuple(body.outputs[:ncarry]))
    return print_graph(eliminate_dead_code(carries), sources=False)


def _eqn_key(eqn, inputs):
    """Equal for two equations computing the same values from the same operands."""
    atoms = tuple(x if not isinstance(x, Literal) else ("literal", repr(x.value), x.aval) for x in inputs)
    variables = tuple(dict.fromkeys(x for x in inputs if not isinstance(x, Literal)))
    text = print_graph(Graph(variables, (Eqn(eqn.prim, inputs, eqn.outputs, eqn.params),), eqn.outputs),
                       sources=False)
    return atoms, text


def _merged_body(first, second, ncarry) -> Graph:
    """The first body, plus the second body's equations that compute anything new (renamed onto the
    first's inputs and values), returning the first's outputs and the second's ys."""
    rename = dict(zip(second.inputs, first.inputs))
    known = {_eqn_key(e, e.inputs): e.outputs for e in first.eqns}
    eqns = list(first.eqns)
    for e in second.eqns:
        inputs = tuple(x if isinstance(x, Literal) else rename.get(x, x) for x in e.inputs)
        same = known.get(_eqn_key(e, inputs))
        if same is not None:
            rename.update(zip(e.outputs, same))
            continue
        eqns.append(Eqn(e.prim, inputs, e.outputs, e.params, e.source))
    ys = tuple(x if isinstance(x, Literal) else rename.get(x, x) for x in second.outputs[ncarry:])
    return eliminate_dead_code(Graph(first.inputs, tuple(eqns), tuple(first.outputs) + ys))


def merge_scans(graph: Graph) -> Graph:
    scans = [k for k, e in enumerate(graph.eqns) if e.prim is scan_p]
    if len(scans) < 2:
        return graph
    eqns = list(graph.eqns)
    rename: dict = {}
    dropped: set = set()
    texts: dict = {}
    for j in scans:
        b = eqns[j]
        key = (tuple(b.inputs), tuple(b.params[p] for p in _LOOP_PARAMS))
        if any(isinstance(x, Literal) for x in b.inputs):
            continue
        for i in texts.get(key, ()):
            a = eqns[i]
            ncarry = a.params["ncarry"]
            if _carry_text(a.params["body"], ncarry) != _carry_text(b.params["body"], ncarry):
                continue
            body = _merged_body(a.params["body"], b.params["body"], ncarry)
            new_ys = tuple(v for v in b.outputs[ncarry:])
            eqns[i] = Eqn(scan_p, a.inputs, a.outputs + new_ys, {**a.params, "body": body}, a.source)
            rename.update(zip(b.outputs[:ncarry], a.outputs[:ncarry]))
            dropped.add(j)
            count("scans merged")
            break
        else:
            texts.setdefault(key, []).append(j)
    if not dropped:
        return graph
    kept = []
    for k, e in enumerate(eqns):
        if k in dropped:
            continue
        if any(not isinstance(x, Literal) and x in rename for x in e.inputs):
            e = Eqn(e.prim, tuple(rename.get(x, x) if not isinstance(x, Literal) else x for x in e.inputs),
                    e.outputs, e.params, e.source)
        kept.append(e)
    outputs = tuple(rename.get(x, x) if not isinstance(x, Literal) else x for x in graph.outputs)
    return Graph(graph.inputs, tuple(kept), outputs)
