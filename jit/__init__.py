"""arraystack.ir: the shared IR, tracing, and everything that rewrites graphs.

Knows no NumPy API and never imports arraystack.backends or the frontend.
"""

if __name__ != "arraystack.ir":  # pragma: no cover - guards a second copy loaded as top-level `jit`
    raise ImportError(
        f"the folder jit/ must be imported as arraystack.ir, not as {__name__!r}; "
        "install the project (pip install -e .) and import arraystack"
    )

from arraystack.ir.avals import ShapedArray, dtype_short_name
from arraystack.ir.core import (
    ConcretizationError,
    EscapedTracerError,
    Primitive,
    Tracer,
    TracerError,
    bind,
    is_tracing,
)
from arraystack.ir.ir import (
    Eqn,
    Graph,
    GraphBuilder,
    Literal,
    TypecheckError,
    Var,
    graph_difference,
    graphs_equal,
    typecheck,
)
from arraystack.ir.printer import fingerprint, print_graph
from arraystack.ir.parser import IRParseError, parse_graph
from arraystack.ir.trace import make_graph, eval_graph

__all__ = [
    "ShapedArray",
    "dtype_short_name",
    "Primitive",
    "Tracer",
    "TracerError",
    "ConcretizationError",
    "EscapedTracerError",
    "bind",
    "is_tracing",
    "Var",
    "Literal",
    "Eqn",
    "Graph",
    "GraphBuilder",
    "typecheck",
    "TypecheckError",
    "graphs_equal",
    "graph_difference",
    "print_graph",
    "fingerprint",
    "draw",
    "Drawing",
    "parse_graph",
    "IRParseError",
    "make_graph",
    "eval_graph",
]


def __getattr__(name):
    # draw/Drawing load on first use: pictures are not needed to import arraystack
    if name in ("draw", "Drawing"):
        from arraystack.ir import drawing

        return getattr(drawing, name)
    raise AttributeError(f"module 'arraystack.ir' has no attribute {name!r}")
