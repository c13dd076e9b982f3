"""eliminate_dead_code: drop equations whose outputs nothing uses (no primitive has side effects)."""

from __future__ import annotations

from arraystack.ir.ir import Graph, Var


def eliminate_dead_code(graph: Graph) -> Graph:
    live = {x for x in graph.outputs if isinstance(x, Var)}
    kept = []
    for eqn in reversed(graph.eqns):
        if not live.isdisjoint(eqn.outputs):
            kept.append(eqn)
            live.update(eqn.inputs)  # Literals too: harmless, as no equation outputs one
    if len(kept) == len(graph.eqns):
        return graph
    return Graph(graph.inputs, tuple(reversed(kept)), graph.outputs)
