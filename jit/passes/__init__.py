"""The optimizer: one ordered list of (name, pass), each a plain function Graph -> Graph.

The pipeline, its run loop (timing, counts, ARRAYSTACK_DUMP, verification, errors naming the pass and the
equation) and the API to edit it live in pipeline.py and are re-exported here:

    from arraystack.ir import passes
    passes.register_pass("my_pass", fn, before="fuse_elementwise")
    passes.passes()                       # the names, in order
    passes.remove_pass("my_pass")
    passes.run_pipeline(graph, fusion=policy)   # fuse_elementwise follows a backend's FusionPolicy
    with passes.pipeline_scope():         # edits inside the block are undone on exit
        ...
    arraystack.jit(f, passes=["simplify", ("my_pass", fn), "fuse_elementwise"])   # per function
"""

from __future__ import annotations

from arraystack.ir.ir import Eqn, Graph
from arraystack.ir.passes.cse import eliminate_common_subexpressions
from arraystack.ir.passes.dce import eliminate_dead_code
from arraystack.ir.passes.fold import fold_constants
from arraystack.ir.passes.fuse import fuse_elementwise
from arraystack.ir.passes.fusion_policy import GENERIC, FusionPolicy
from arraystack.ir.passes.loops import merge_scans
from arraystack.ir.passes.scan_products import hoist_scan_products
from arraystack.ir.passes.pipeline import (
    PIPELINE,
    PassError,
    PassReport,
    count,
    passes,
    pipeline_scope,
    register_pass,
    remove_pass,
    resolve_pipeline,
    rest_of_pipeline,
    run_pipeline,
    visit,
)
from arraystack.ir.passes.simplify import simplify


def optimize_subgraphs(graph: Graph) -> Graph:
    """Run the rest of the pipeline (the passes after this one) on the sub-graphs of control flow."""
    rest = None  # the passes after this one, once a sub-graph needs them
    eqns = None  # a copy of graph.eqns once one of them changes
    for i, eqn in enumerate(graph.eqns):
        params = eqn.params
        if not params:
            continue
        new = {}
        try:
            for k, v in params.items():
                if isinstance(v, Graph):
                    rest = rest_of_pipeline() if rest is None else rest
                    new[k] = run_pipeline(v, rest)
                elif (
                    isinstance(v, tuple)
                    and v
                    and isinstance(v[0], Graph)
                    and all(isinstance(g, Graph) for g in v)
                ):
                    rest = rest_of_pipeline() if rest is None else rest
                    new[k] = tuple(run_pipeline(g, rest) for g in v)
        except Exception:
            visit(i, eqn)
            raise
        if new:
            eqns = list(graph.eqns) if eqns is None else eqns
            eqns[i] = Eqn(eqn.prim, eqn.inputs, eqn.outputs, {**params, **new}, eqn.source)
    return graph if eqns is None else Graph(graph.inputs, tuple(eqns), graph.outputs)


for _name, _fn in [
    ("merge_scans", merge_scans),  # a scan run again over the same operands (reverse mode) runs once
    ("hoist_scan_products", hoist_scan_products),  # per-step products of xs / accumulated -> one product
    ("optimize_subgraphs", optimize_subgraphs),  # control-flow bodies get the passes below first
    (
        "simplify",
        simplify,
    ),  # local exact rewrites (simplify_rules): x*1, double transposes, sinking, ...
    ("fold_constants", fold_constants),  # scalar-only equations become Literals
    ("eliminate_common_subexpressions", eliminate_common_subexpressions),  # compute each value once
    ("eliminate_dead_code", eliminate_dead_code),  # drop what no output needs
    (
        "fuse_elementwise",
        fuse_elementwise,
    ),  # elementwise chains (+ broadcasts, reductions) -> regions
]:
    register_pass(_name, _fn)

__all__ = [
    "GENERIC",
    "PIPELINE",
    "FusionPolicy",
    "PassError",
    "PassReport",
    "count",
    "optimize_subgraphs",
    "passes",
    "pipeline_scope",
    "register_pass",
    "remove_pass",
    "resolve_pipeline",
    "run_pipeline",
    "visit",
]
