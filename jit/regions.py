"""The region model: what a `fusion` region may hold, and its layout, worked out once per region.

fuse_elementwise (passes/fuse.py) builds regions with RegionLayout and records each finished region's
layout against its sub-graph; a backend's codegen reads it with region_layout(sub_graph), which derives
the layout of a sub-graph the pass did not build (a user's pipeline, parsed IR, a backend's rewrite of a
region) once and keeps it as long as the sub-graph lives.
"""

from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass, field

from arraystack.ir import primitives as p
from arraystack.ir import structural as s

# The primitives a region computes element by element: its loop evaluates them one element at a time
ELEMENTWISE = frozenset(
    prim
    for prim in p.abstract_eval_rules
    if prim.name
    in {
        "neg", "abs", "sign", "floor", "ceil", "trunc", "rint", "exp", "exp2", "expm1", "log", "log2",
        "log10", "log1p", "sqrt", "cbrt", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh",
        "tanh", "asinh", "acosh", "atanh", "erf", "logistic", "isnan", "isinf", "isfinite", "signbit",
        "not", "conj", "real", "imag", "add", "sub", "mul", "div", "floordiv", "rem", "fmod", "pow",
        "max", "min", "atan2", "hypot", "copysign", "and", "or", "xor", "eq", "ne", "lt", "le", "gt",
        "ge", "select", "convert", "complex",
    }
)  # fmt: skip
# The reductions a region can hold: over one set of axes, shared by every reduction of the region
REDUCTIONS = frozenset(
    {s.reduce_sum_p, s.reduce_prod_p, s.reduce_max_p, s.reduce_min_p, s.reduce_and_p, s.reduce_or_p}
)


def _squeezed(shape):
    return tuple(d for d in shape if d != 1)


@dataclass(frozen=True)
class RegionLayout:
    """A region iterates over `shape`; its reductions reduce `axes` (empty: the region does not reduce).

    kept: the other axes, in order; outer_shape: the shape along them. A value in the region is "full"
    (shape `shape`) or "outer" (the outer shape, possibly with unit axes: keepdims keeps the same elements
    in the same order): reductions turn full values into outer ones, broadcasts over the reduced axes turn
    them back.
    """

    shape: tuple
    axes: tuple = ()
    kept: tuple = field(init=False, repr=False, compare=False)
    outer_shape: tuple = field(init=False, repr=False, compare=False)
    _squeezed_outer: tuple = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        kept = tuple(d for d in range(len(self.shape)) if d not in self.axes)
        outer = tuple(self.shape[d] for d in kept)
        object.__setattr__(self, "kept", kept)
        object.__setattr__(self, "outer_shape", outer)
        object.__setattr__(self, "_squeezed_outer", _squeezed(outer))

    @property
    def rank(self) -> int:
        return len(self.shape)

    def level(self, shape) -> str | None:
        """'full' or 'outer' for a value of this shape inside the region, None if it cannot live here."""
        if shape == self.shape:
            return "full"
        if not self.axes:
            return None
        if shape == self.outer_shape:
            return "outer"
        squeezed = _squeezed(shape) if 1 in shape else shape
        return "outer" if squeezed == self._squeezed_outer else None


def derive_layout(graph) -> RegionLayout:
    """The layout of a region's sub-graph, worked out from its equations: the first reduction's operand
    shape and axes, else the largest shape an equation produces (a region that does not reduce produces
    full values only)."""
    for e in graph.eqns:
        if e.prim in REDUCTIONS:
            return RegionLayout(tuple(e.inputs[0].aval.shape), tuple(e.params["axes"]))
    shapes = [e.outputs[0].aval.shape for e in graph.eqns]
    return RegionLayout(tuple(max(shapes, key=len, default=())))


_layouts: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # sub-graph -> its RegionLayout
_lock = threading.Lock()  # compile workers read layouts from other threads


def record_layout(graph, layout: RegionLayout) -> None:
    """The fuse pass's record of the layout of a region it built, so that readers need not derive it."""
    with _lock:
        _layouts[graph] = layout


def region_layout(graph) -> RegionLayout:
    """The layout of the region whose sub-graph is `graph`: as recorded by the fuse pass, else derived
    (derive_layout) once for this sub-graph object."""
    with _lock:
        layout = _layouts.get(graph)
    if layout is None:
        layout = derive_layout(graph)
        record_layout(graph, layout)
    return layout
